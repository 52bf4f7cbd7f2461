/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recorder: the non-RT thread that drains the RT thread's ring into the
 * log and the statistics, and writes the events other threads queue. */
#ifndef SQW_RECORDER_H
#define SQW_RECORDER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "log/edgelog.h"
#include "stats/edgestats.h"
#include "stats/phasestats.h"
#include "rt/recorder_bell.h"
#include "rt/ring.h"

struct recorder;

struct recorder_params {
	struct ring *ring;             /* the RT thread's ring (consumer side is ours) */
	struct edgelog_writer *log;    /* appended to by the recorder thread only */
	struct edgestats *stats;       /* fed by the recorder thread only */
	struct phasestats *phases;     /* per-phase statistics, or NULL; same thread */
	int64_t half_period_ns;        /* for the interval's wake latencies */
	atomic_bool *stop_req;         /* set when the log fails: the run must end */
	size_t stack_size;             /* thread stack (locked with mlockall: keep small) */
	uint64_t wake_level;           /* records; 0: an eighth of the ring */
	int64_t timeout_ns;            /* longest sleep; 0: RECORDER_TIMEOUT_NS */
};

#define RECORDER_TIMEOUT_NS 200000000ll /* 200 ms: 5 wake-ups a second when idle */

/* Allocate everything the thread needs (batch buffer, event queue, the
 * eventfd). NULL with errno. Caller frees with recorder_free() after
 * recorder_finish(). */
struct recorder *recorder_new(const struct recorder_params *p);
void recorder_free(struct recorder *r);

/* Start the thread (named "sqwave-rec"; it inherits the caller's CPU
 * affinity). Returns 0, or an errno value. */
int recorder_start(struct recorder *r);

/* The bell the ring's producer rings (recorder_bell_ring()); valid until
 * recorder_free(). */
struct recorder_bell *recorder_bell(struct recorder *r);

/* Queue one event for the log (a copy of @payload is made). Any thread but
 * the RT thread. -1 with errno (ENOMEM, EINVAL: too large). Events queued
 * before recorder_finish() returns are written (within the recorder's
 * timeout while the run goes on). */
int recorder_event(struct recorder *r, uint64_t time_ns, uint16_t type,
		   const void *payload, size_t len);

/* A run of several lines, one log each: every event queued on @r from now
 * on is queued on @to as well (which may mirror further), so that each
 * line's log has the run's phases, proof samples and clock steps. Before
 * recorder_start() of either. */
void recorder_mirror(struct recorder *r, struct recorder *to);

/* Live figures for the status line (as of the recorder's last wake-up, at
 * most its timeout ago); safe from any thread. */
void recorder_live(struct recorder *r, struct edgestats_live *out);

/* What happened since the previous call (or the start): for the status
 * line's "last interval" figures. Safe from any thread but the RT one. */
struct recorder_interval {
	uint64_t edges;
	int64_t wake_max_ns;           /* INT64_MIN: no edge */
	int64_t width_min_ns, width_max_ns; /* valid when pulses */
	uint64_t pulses;
};
void recorder_interval(struct recorder *r, struct recorder_interval *out);

/* After the RT thread has ended: wake the recorder, let it drain the ring
 * and the event queue, stop the thread. Safe to call when recorder_start()
 * was never called. */
void recorder_finish(struct recorder *r);

/* Records written to the log and statistics so far. */
uint64_t recorder_records(struct recorder *r);
/* Times the thread woke up (timeouts and bells), for tests and bench; and
 * of them, those its eventfd woke (the bell, or recorder_finish()), for
 * tests: a wake-up by the bell, not by the timeout. Safe from any thread. */
uint64_t recorder_wakeups(struct recorder *r);
uint64_t recorder_bell_wakeups(struct recorder *r);
/* Whether a log write or sync failed (the run was asked to stop). */
bool recorder_log_error(struct recorder *r);

#endif
