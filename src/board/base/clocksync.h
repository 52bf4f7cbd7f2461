/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host's clocks as a shared time base: their offset to CLOCK_MONOTONIC,
 * the kernel's sync state (adjtimex), the grid slot 0 goes on, and the
 * absolute times a user gives for it (docs/grid.md). */
#ifndef SQW_CLOCKSYNC_H
#define SQW_CLOCKSYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* What adjtimex(2) says of the system clock, read without changing it. */
struct clocksync_state {
	int state;                /* adjtimex's return: TIME_OK ... TIME_ERROR */
	int status;               /* STA_* bits */
	bool synced;              /* STA_UNSYNC clear and state not TIME_ERROR */
	long maxerror_us;         /* the kernel's maximum error bound */
	long esterror_us;         /* its estimated error */
	long offset_ns;           /* the last PLL offset the daemon fed in */
	int tai_s;                /* TAI - UTC (0: never set) */
};

/* Read the sync state: 0, or -1 with errno. Safe from any thread. */
int clocksync_read(struct clocksync_state *st);
/* adjtimex's state in words: "ok", "insert leap", "delete leap",
 * "leap in progress", "leap done", "error" ("unknown" for anything else). */
const char *clocksync_state_name(int state);

/*
 * @clk - CLOCK_MONOTONIC now, in ns, read as monotonic, @clk, monotonic
 * several times; the narrowest bracket wins, and half its width is
 * *@uncert_ns: the offset is right within that. Safe from any thread.
 */
void clocksync_offset(clockid_t clk, int64_t *offset_ns, uint64_t *uncert_ns);

/* The first multiple of @align_ns (> 0) at or after @earliest_ns. */
uint64_t clocksync_grid_next(uint64_t earliest_ns, uint64_t align_ns);

/*
 * An absolute time on a clock whose epoch is 1970-01-01 UTC (realtime;
 * TAI counts from the same epoch), as nanoseconds: seconds since the epoch
 * with an optional fraction ("1764700000", "1764700000.25"), or ISO 8601
 * UTC "2026-12-02T17:30:00Z" (fraction allowed, "Z" or "+00:00"
 * required). 0, or -1 with the reason in @err.
 */
int clocksync_parse_time(const char *s, uint64_t *ns, char *err, size_t errlen);
/* @ns since the epoch as "2026-12-02T17:30:00.000000000Z"; returns @buf. */
const char *clocksync_format_time(uint64_t ns, char *buf, size_t len);

#endif
