/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback input: matching its kernel edge events to the output's
 * writes (check), and recording them during a run (run --loopback). */
#ifndef SQW_LOOPBACK_H
#define SQW_LOOPBACK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpio/gpio_in.h"

/* ---- matching (check) ---- */

/* One write to the output, as the RT loop logged it. */
struct loopback_write {
	uint64_t seq;              /* the edge's seq in the log */
	uint64_t begin_ns, end_ns; /* write window, CLOCK_MONOTONIC */
	int value;                 /* physical level after the write */
};

enum loopback_verdict {
	LOOPBACK_OK,               /* every write has its event */
	LOOPBACK_NOT_WIRED,        /* no event at all */
	LOOPBACK_OTHER_LINE,       /* events, but not with the writes: the input
				    * follows something else */
	LOOPBACK_LOST,             /* most writes have their event, some do not */
};

struct loopback_result {
	enum loopback_verdict verdict;
	size_t writes, events;
	size_t matched;            /* writes with an event */
	size_t missing;            /* writes without one */
	size_t extra;              /* events without a write: before the first,
				    * a second one for the same write, or too late */
	uint64_t kernel_dropped;   /* events the sequence numbers say the kernel
				    * dropped (its buffer overflowed) */
	uint64_t first_missing_seq; /* UINT64_MAX: none */
	/* Polarity from the order of events, not their reported type: the
	 * input's level at the start, flipped once per event the kernel saw. */
	size_t polarity_mismatch;  /* matched events whose derived level is not
				    * the write's */
	/* Latency of the matched events: event - write_begin, event - write_end. */
	int64_t from_begin_p50, from_begin_p99, from_begin_max, from_begin_min;
	int64_t from_end_p50, from_end_p99, from_end_max;
};

/*
 * Match @ne events (kernel order) to @nw writes (in order). An event belongs
 * to the latest write that began at or before it, if it came before the
 * next write began (for the last write: within @grace_ns of its end); a
 * second event for the same write, an event before the first write and a
 * late one are extras. @level0 is the input's level before the first write.
 * Fills @res; -1 with errno (ENOMEM) only. Pure; any thread.
 */
int loopback_match(const struct loopback_write *w, size_t nw, const struct gpio_in_event *ev,
		   size_t ne, int level0, int64_t grace_ns, struct loopback_result *res);

/* ---- the input ---- */

struct config;

/* The loopback input of @c (loopback.chip, loopback.line; the backend and
 * its keys as gpio.*), requested as an input with edge events on both edges
 * and the kernel's largest event buffer. NULL with errno and @err; errno
 * ENOENT (and no message) when the board file names no loopback input. */
struct gpio_in *loopback_input_open(const struct config *c, char *err, size_t errlen);

/* ---- recording (run --loopback) ---- */

struct recorder;
struct loopback_reader;

/*
 * Start a non-RT thread that reads @in's edge events and queues them for the
 * log through recorder_event() as EDGELOG_EV_LOOPBACK events: (u64 seq, u64
 * event_ns) pairs, little-endian, in batches. The pairing rule: the n-th
 * edge the kernel saw on the input (by its sequence number where the API has
 * one, so that events the kernel dropped do not shift the rest; else by
 * count) is output edge seq n - 1 (docs/log-format.md). @stack_size: the
 * thread's stack (locked under mlockall: keep it small). NULL with errno.
 */
struct loopback_reader *loopback_reader_start(struct gpio_in *in, struct recorder *rec,
					      size_t stack_size);

/*
 * After the RT loop has written its last edge (@edges in all): keep reading
 * until the input has seen @edges events or @grace_ns has passed without
 * one, flush, stop the thread and free. Returns the events logged; *@dropped
 * gets those the kernel dropped and *@unlogged those the recorder refused.
 * NULL is a no-op (returns 0).
 */
uint64_t loopback_reader_stop(struct loopback_reader *lr, uint64_t edges, int64_t grace_ns,
			      uint64_t *dropped, uint64_t *unlogged);

#endif
