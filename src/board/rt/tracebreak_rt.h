/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RT thread's half of --break (run/tracebreak.[ch] is the rest): a
 * compare per edge against the threshold and, on a crossing, one eventfd
 * write to the helper thread. Fixed, preallocated, no locks. */
#ifndef SQW_TRACEBREAK_RT_H
#define SQW_TRACEBREAK_RT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/wave.h"

/* What the RT thread sees: fixed, preallocated, no locks. */
struct tracebreak_rt {
	int64_t threshold_ns;         /* 0: off */
	int efd;                      /* eventfd the helper waits on */
	atomic_bool armed;            /* cleared by a hit, set again by the helper */
	/* the hit, written before the eventfd rings */
	uint64_t seq;
	uint64_t intended_ns;
	int64_t value_ns;
	int what;                     /* TRACEBREAK_WAKE or TRACEBREAK_WIDTH */
};

enum { TRACEBREAK_WAKE = 1, TRACEBREAK_WIDTH = 2 };

/* The eventfd write; RT-safe. */
void tracebreak_rt_ring(struct tracebreak_rt *t);

/*
 * RT thread: an edge's wake latency @lat_ns (from the first deadline
 * without an edge) and, when a pulse ended at it, its width @width_ns
 * (else INT64_MIN) against @nominal_ns, that pulse's own (the high or low
 * time of its level, base/wave.h). One compare each; on a crossing, while
 * armed: record it and ring the eventfd (one write(2) to an eventfd: no
 * allocation, no lock, no file). A @warmup edge is never checked: the
 * trace.max_breaks budget is for counted edges (warm-up ones are late by
 * design: first touches, the first timer expiries). Safe with @t NULL.
 */
static inline void tracebreak_rt_check(struct tracebreak_rt *t, uint64_t seq, uint64_t intended,
				       int64_t lat_ns, int64_t width_ns, int64_t nominal_ns,
				       bool warmup)
{
	int64_t off;
	int what = 0;

	if (!t || !t->threshold_ns || warmup)
		return;
	off = width_ns == INT64_MIN ? 0 : width_ns - nominal_ns;
	if (lat_ns > t->threshold_ns)
		what = TRACEBREAK_WAKE;
	else if (off > t->threshold_ns || off < -t->threshold_ns)
		what = TRACEBREAK_WIDTH;
	if (!what || !atomic_load_explicit(&t->armed, memory_order_relaxed))
		return;
	t->seq = seq;
	t->intended_ns = intended;
	t->value_ns = what == TRACEBREAK_WAKE ? lat_ns : width_ns;
	t->what = what;
	atomic_store_explicit(&t->armed, false, memory_order_release);
	tracebreak_rt_ring(t);
}

/* The same for an edge of a wave run: the pulse that the edge writing
 * @level ended held !@level, so its nominal is that level's time in @w
 * (a duty cycle's high or low, the half period of a 50 % wave). */
static inline void tracebreak_rt_check_wave(struct tracebreak_rt *t, uint64_t seq,
					    uint64_t intended, int64_t lat_ns, int64_t width_ns,
					    const struct wave *w, int level, bool warmup)
{
	tracebreak_rt_check(t, seq, intended, lat_ns, width_ns, (int64_t)wave_seg(w, !level),
			    warmup);
}

/* One break handled, as the RT half recorded it: the edge, what crossed,
 * and whether the helper saved its trace. Plain data, for the run's
 * description (analysis/runinfo.h) and its summary. */
struct tracebreak_hit {
	uint64_t seq;
	int64_t value_ns;
	int what;                     /* TRACEBREAK_WAKE or TRACEBREAK_WIDTH */
	bool saved;
};

/*
 * Whether counted edge @seq, whose wake latency was @value_ns, has a trace
 * among the @n @hits of a run with @threshold_ns and @max_breaks: the
 * hit's index, or -1 with the reason it has none in @why ("it was under
 * the threshold", "trace.max_breaks (3) was spent on earlier edges", "it
 * came while tracing was stopped to save an earlier trace"). Pure; never
 * on the RT thread.
 */
int tracebreak_cover(const struct tracebreak_hit *hits, size_t n, int max_breaks,
		     int64_t threshold_ns, uint64_t seq, int64_t value_ns, char *why, size_t len);

#endif
