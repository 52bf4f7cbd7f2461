/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Clock reads: every clock_gettime() of sqwave, the RT loop's included. */
#ifndef SQW_CLOCK_H
#define SQW_CLOCK_H

#include <stdint.h>
#include <time.h>

/* @clk's time now, in ns (CLOCK_MONOTONIC, CLOCK_REALTIME): every clock read
 * of sqwave goes through here. Inline: the RT loop reads it per edge, and a
 * call would sit between the wake-up and the write. Safe from any thread. */
static inline uint64_t clock_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CLOCK_MONOTONIC now, in ns: the clock of the log, the timers and the
 * edge events. */
static inline uint64_t clock_mono_ns(void)
{
	return clock_now_ns(CLOCK_MONOTONIC);
}

#endif
