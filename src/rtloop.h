/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real-time loop: where the line gets toggled. Wakes on an absolute
 * timerfd, writes the line, pushes one edge record into the ring. */
#ifndef SQW_RTLOOP_H
#define SQW_RTLOOP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>

#include "edge.h"
#include "gpio_out.h"
#include "ring.h"

/*
 * One edge: poll() the timerfd, read the clock (wake), read the clock and
 * write the line and read the clock again (write window), then read() the
 * expiration count. The read comes last because reading a periodic timerfd
 * re-arms its hrtimer inside the kernel: done before the write, that cost
 * (a few us under virtualization) delayed every edge (docs/benchmarks.md).
 *
 * Missed-period policy: the timerfd is armed once, absolute, at start_ns with
 * the half period as interval; it is never re-armed. Each edge is written for
 * the latest slot due when the thread woke (intended = start + slot * half
 * period: the grid keeps its phase). When slots passed without an edge (the
 * expiration count was above 1, at the wake-up or by the time the count was
 * read), the next edge's record says how many slots it advanced
 * (expirations = n: n - 1 missed) and they are counted as missed periods,
 * never hidden. The level toggles once per written edge, so every record is
 * a real edge on the pin. At the end (duration reached or stop requested) a
 * line that is not at its idle level gets one more edge, on the next slot,
 * back to idle (flagged EDGE_F_LAST): every transition the pin makes is in
 * the log.
 */
struct rtloop {
	/* Set before rtloop_thread() starts; read-only afterwards. */
	struct gpio_out *gpio;
	struct ring *ring;
	int tfd;                  /* from rtloop_open() */
	clockid_t clock;          /* CLOCK_MONOTONIC */
	uint64_t start_ns;        /* intended time of slot 0 */
	int64_t half_ns;
	uint64_t total_slots;     /* slots to run incl. warm-up; 0 = until stopped */
	uint64_t warmup_slots;
	int idle_level;
	size_t stack_prefault;

	/* Shared: written by one side, read by the other, all atomic. */
	atomic_bool go;           /* set by the main thread once start_ns is final */
	atomic_bool stop_req;     /* set by the main thread (signal, I/O error) */
	atomic_bool done;         /* set by the RT thread when it has left the loop */
	atomic_uint_fast64_t edges;
	atomic_uint_fast64_t missed;
	atomic_uint_fast64_t write_errors;

	/* Valid once done is set. */
	int error;                /* errno of a failed timerfd read/arm, else 0 */
	struct rusage ru_start;   /* RT thread, at the first measured edge */
	struct rusage ru_end;     /* RT thread, at the end */
	bool ru_started;

	/* RT thread private bookkeeping. */
	uint64_t next_slot;       /* slots consumed from the timer so far */
	uint64_t served;          /* slot of the last edge + 1 (0: none yet) */
	uint64_t seq;
	int level;
	bool stopping;            /* the next edge is the last one (back to idle) */
};

/* Prepare @l (zeroes the bookkeeping, creates the timerfd). Non-RT. Returns
 * -1 with errno set. */
int rtloop_open(struct rtloop *l);
void rtloop_close(struct rtloop *l);

/* The RT thread's body: pthread start routine, argument a struct rtloop *.
 * It prefaults its stack, then waits for @go (so that the thread, and with
 * it the real-time status, exists before the log header is written), arms
 * the timer at start_ns and loops. Set stop_req before go to cancel. */
void *rtloop_thread(void *arg);

/*
 * Bookkeeping for one edge, written after a wake-up at @wake_ns, whose
 * timerfd read returned @expirations: picks the edge's slot (the latest one
 * due at @wake_ns), fills seq, intended time, level, expirations (slots
 * advanced since the previous edge: 1 = on time) and the warm-up flag of
 * @rec, and adds the missed periods. RT thread only (and unit tests).
 */
void rtloop_account(struct rtloop *l, uint64_t expirations, uint64_t wake_ns,
		    struct edge_rec *rec);

/* After rtloop_account and the write: whether this edge ends the run (sets
 * l->stopping when one more edge is needed to return to idle). */
bool rtloop_is_last(struct rtloop *l);

#endif
