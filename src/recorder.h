/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recorder: the non-RT thread that drains the RT thread's ring into the
 * log and the statistics, and writes the events other threads queue. */
#ifndef SQW_RECORDER_H
#define SQW_RECORDER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "edgelog.h"
#include "edgestats.h"
#include "phasestats.h"
#include "ring.h"

struct recorder;

struct recorder_params {
	struct ring *ring;             /* the RT thread's ring (consumer side is ours) */
	struct edgelog_writer *log;    /* appended to by the recorder thread only */
	struct edgestats *stats;       /* fed by the recorder thread only */
	struct phasestats *phases;     /* per-phase statistics, or NULL; same thread */
	int64_t half_period_ns;        /* for the interval's wake latencies */
	atomic_bool *stop_req;         /* set when the log fails: the run must end */
	size_t stack_size;             /* thread stack (locked with mlockall: keep small) */
};

/* Allocate everything the thread needs (batch buffer, event queue). NULL
 * with errno. Caller frees with recorder_free() after recorder_finish(). */
struct recorder *recorder_new(const struct recorder_params *p);
void recorder_free(struct recorder *r);

/* Start the thread. Returns 0, or an errno value. */
int recorder_start(struct recorder *r);

/* Queue one event for the log (a copy of @payload is made). Any thread but
 * the RT thread. -1 with errno (ENOMEM, EINVAL: too large). Events queued
 * before recorder_finish() returns are written. */
int recorder_event(struct recorder *r, uint64_t time_ns, uint16_t type,
		   const void *payload, size_t len);

/* Live figures for the status line; safe from any thread. */
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

/* After the RT thread has ended: drain the ring and the event queue, stop
 * the thread. Safe to call when recorder_start() was never called. */
void recorder_finish(struct recorder *r);

/* Records written to the log and statistics so far. */
uint64_t recorder_records(struct recorder *r);
/* Whether a log write or sync failed (the run was asked to stop). */
bool recorder_log_error(struct recorder *r);

#endif
