/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RT thread's half of --break (run/tracebreak.[ch] is the rest): a
 * compare per edge against the threshold and, on a crossing, one eventfd
 * write to the helper thread. Fixed, preallocated, no locks. */
#ifndef SQW_TRACEBREAK_RT_H
#define SQW_TRACEBREAK_RT_H

#include <stdatomic.h>
#include <stdbool.h>
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

#endif
