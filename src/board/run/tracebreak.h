/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Explaining a spike while it happens (as cyclictest -b / --tracemark and
 * rtla -a do): when an edge's wake latency, or a pulse's distance from the
 * half period, crosses a threshold, a marker with the edge's number goes
 * into ftrace's trace_marker, tracing stops so the ring buffer keeps what
 * caused it, and the trace is saved next to the log. The RT thread only
 * notices the crossing and rings an eventfd (tracebreak_rt_ring()); a helper
 * thread does the file work. */
#ifndef SQW_TRACEBREAK_H
#define SQW_TRACEBREAK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt/tracebreak_rt.h"

struct recorder;
struct tracebreak;

struct tracebreak_params {
	int64_t threshold_ns;
	bool stop_on_break;
	int max_breaks;
	const char *tracer;           /* "" or NULL: leave current_tracer alone */
	int buffer_kb;                /* 0: leave buffer_size_kb alone */
	const char *log_path;         /* traces go to LOG.break-N.trace */
	const char *tracefs;          /* NULL: find it in /proc/self/mountinfo (tests: a dir) */
	bool top;                     /* trace into the top-level buffer, as set up by the
				       * user (else: an instance of this run, sqwave-PID) */
	const char *events;           /* own instance: "default", "none", or a list of
				       * SYSTEM or SYSTEM:EVENT, "default" allowed in it */
	int rt_priority;              /* the helper marks at this - 1 (SCHED_FIFO) */
	bool respond;                 /* sqwave respond: the intended time is an input
				       * event's, said in the marker for the explainer */
};

/*
 * Find tracefs (mounted at /sys/kernel/tracing, or as tracing/ under
 * debugfs). By default create the run's own instance there
 * (instances/sqwave-PID: a private ring buffer, so that neither another
 * run nor the user's own tracing is disturbed; instances of dead runs are
 * removed) and enable @events in it; with @top use the top-level buffer as
 * the user set it up. Open trace_marker and tracing_on, select the tracer
 * and buffer size, switch tracing on. NULL with a message saying what is
 * missing and the command that fixes it. Non-RT, before the run.
 */
struct tracebreak *tracebreak_new(const struct tracebreak_params *p, char *err, size_t errlen);
/* Remove the tracefs instances of --break runs that were killed (they
 * would go on tracing, and slowing, every later measurement); returns how
 * many. Every run calls it, with --break or not. */
int tracebreak_sweep(void);
/* The RT side, for rtloop. */
struct tracebreak_rt *tracebreak_rt(struct tracebreak *tb);
/* Start the helper thread: events go to @rec, --stop-on-break sets @stop. */
int tracebreak_start(struct tracebreak *tb, struct recorder *rec, atomic_bool *stop);
/* Let the helper finish the break it is handling (saving a trace may take
 * a while) and join it. Read the count and the first break after this. */
void tracebreak_stop(struct tracebreak *tb);
/* Stop (if not yet), restore tracing_on and the tracer, close, free. */
void tracebreak_free(struct tracebreak *tb);
/* Where the run traces (the instance's directory, or tracefs itself) and
 * the events it enabled there (comma-separated; "" with @top). */
const char *tracebreak_dir(const struct tracebreak *tb);
const char *tracebreak_events(const struct tracebreak *tb);
/* Breaks handled, and the first one's trace file ("" if none). */
unsigned tracebreak_count(struct tracebreak *tb);
const char *tracebreak_first_trace(const struct tracebreak *tb);
/* The first break as a sentence, with what its trace shows
 * (traceexplain.h) when it was saved ("" if none). */
const char *tracebreak_first_text(const struct tracebreak *tb);
/* The first break's cause, short ("held-by git/18758 ..."; "" if none). */
const char *tracebreak_first_cause(const struct tracebreak *tb);

/* The breaks handled, in order: copies up to @max into @out and returns how
 * many there were (at most trace.max_breaks). After tracebreak_stop(). */
size_t tracebreak_hits(const struct tracebreak *tb, struct tracebreak_hit *out, size_t max);

#endif
