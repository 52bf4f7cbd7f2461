/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The grid clock watched while a run lasts (docs/grid.md): a CLOCK_REALTIME
 * timerfd with TFD_TIMER_CANCEL_ON_SET that the kernel cancels whenever the
 * clock is set, and the grid clock's offset to CLOCK_MONOTONIC read again
 * then and at the end, so that no step is absorbed unnoticed. */
#ifndef SQW_CLOCKWATCH_H
#define SQW_CLOCKWATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "stats/runinfo.h"

/* Offsets further apart than both reads' uncertainties and this are a step:
 * REALTIME - MONOTONIC (and TAI - MONOTONIC) changes only when the clock is
 * set, never by a daemon's frequency slew, which both clocks share. */
#define CLOCKWATCH_SLACK_NS 1000

struct clockwatch;

/* One step of the grid clock. */
struct clockwatch_step {
	uint64_t mono_ns;         /* when it was seen, CLOCK_MONOTONIC */
	int64_t delta_ns;         /* how far the clock moved (new - old offset) */
	int64_t offset_ns;        /* the offset after it */
	uint64_t uncert_ns;       /* its uncertainty */
	bool notified;            /* the kernel said so (false: found by the end's read) */
	bool moved;               /* the offset changed (a set may move nothing) */
};

/*
 * Arm the watch, then read @clk's offset to CLOCK_MONOTONIC (so that a
 * step after the read is always seen). @clk: CLOCK_REALTIME or CLOCK_TAI.
 * NULL with errno and @err. Caller frees with clockwatch_close(). The
 * calls below are for one non-RT thread.
 */
struct clockwatch *clockwatch_open(clockid_t clk, char *err, size_t errlen);
void clockwatch_close(struct clockwatch *w);

/* The offset and its uncertainty as read at open (slot 0's placement). */
int64_t clockwatch_offset(const struct clockwatch *w, uint64_t *uncert_ns);

/* The descriptor to poll (POLLIN: the clock was set). */
int clockwatch_fd(const struct clockwatch *w);

/* Whether the clock was set since the last call (nonblocking): 1 with the
 * offset read again in *@out (out->moved: a step, counted), 0 when not set,
 * -1 with errno on a read error. */
int clockwatch_read(struct clockwatch *w, struct clockwatch_step *out);

/* The offset read once more at the end, into *@out: 1 when the clock
 * moved since the last read without the kernel's notice (counted as a
 * step; read a pending notice with clockwatch_read() first), else 0. */
int clockwatch_end(struct clockwatch *w, struct clockwatch_step *out);

/* The counters into @g (sets, steps, their sum, largest, first, end). */
void clockwatch_result(const struct clockwatch *w, struct run_grid *g);

/* Whether two offset reads differ by more than their uncertainties and the
 * slack; the difference (@now - @was) into *@delta. Pure. */
bool clockwatch_moved(int64_t was, uint64_t was_uncert, int64_t now, uint64_t now_uncert,
		      int64_t *delta);

#endif
