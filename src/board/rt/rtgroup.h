/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.outputs together: one RT thread drives several lines of one chip.
 * Lines whose slots fall due at the same wake-up are written in ONE call
 * (gpio_group_set(): one request, one set_values), so the scope sees the
 * driver's own skew between them and nothing of sqwave's. */
#ifndef SQW_RTGROUP_H
#define SQW_RTGROUP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>

#include "gpio/gpio_out.h"
#include "rt/rtloop.h"

/*
 * Each line is a lane: a struct rtloop prepared with rtloop_prepare() (its
 * own wave, start_ns with its phase, slots, warm-up, idle level, ring and
 * bell; no timer, no spin, no timerlat), whose bookkeeping
 * (rtloop_account(), rtloop_is_last()) is the single loop's own, so every
 * lane keeps the grid, counts its missed slots and ends back at idle
 * exactly as one line does.
 *
 * The group's one timerfd is one-shot and re-armed ABSOLUTE after each
 * write at the earliest next slot of the lanes still running (from the
 * grid, never from "now"). At a wake-up every lane whose next slot is due
 * is accounted; their new levels go out in one gpio_group_set() between two
 * clock reads; then each of them gets its record, with the same wake-up and
 * write window, in its own ring. A lane not due is not written and gets no
 * record. The run ends when every lane has written its last edge.
 *
 * Stop: stop_req (the group's) is copied into every lane at the next
 * wake-up; each lane then ends on its next edge (or the one after, back
 * to idle), as the single loop does. A stop before slot 0 (before the go,
 * while the thread waits for slot 0, or seen by a thread that started
 * late) ends the run at once with no edge: every lane stopped and ended
 * at its idle level (running 0), as its log says.
 */
struct rtgroup {
	/* Set before rtgroup_thread() starts; read-only afterwards. */
	struct gpio_group *gpio;
	struct rtloop *lanes[32];    /* n of them, index i = the group's line i */
	size_t n;
	clockid_t clock;             /* CLOCK_MONOTONIC */
	size_t stack_prefault;
	int tfd;                     /* from rtgroup_open() */
	/* Shared, atomic. */
	atomic_bool go;              /* set once every lane's start_ns is final */
	atomic_bool stop_req;
	atomic_bool done;
	atomic_uint_fast64_t writes; /* group writes (one per wake-up with a due lane) */
	/* Valid once done is set. */
	int error;                   /* errno of a failed timer arm or read, else 0 */
	struct rusage ru_start, ru_end;
	bool ru_started;
	/* RT thread private. */
	uint32_t running;            /* lanes that have not ended (by their last edge,
				      * or a stop before slot 0) */
};

/* Check and prepare @g (every lane through rtloop_prepare(), the timerfd).
 * -1 with errno: EINVAL for no lane, more than 32, a lane with spin or
 * timerlat; what rtloop_prepare() or timerfd_create() say. Non-RT. */
int rtgroup_open(struct rtgroup *g);
void rtgroup_close(struct rtgroup *g);

/* The RT thread's body (pthread start routine, argument a struct rtgroup
 * *): named "sqwave-rt", stack prefaulted, waits for go, then loops until
 * every lane has ended. */
void *rtgroup_thread(void *arg);

/* One wake-up at @wake_ns: accounts every running lane whose next slot is
 * due into @recs[i], and returns the mask of those lanes and, in @levels,
 * their new levels (bit i = lane i). RT thread only (and unit tests). */
uint32_t rtgroup_due(struct rtgroup *g, uint64_t wake_ns, struct edge_rec *recs,
		     uint32_t *levels);

/* The earliest next intended time of the running lanes (UINT64_MAX: none). */
uint64_t rtgroup_next(const struct rtgroup *g);

#endif
