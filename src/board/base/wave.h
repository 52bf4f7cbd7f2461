/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shape of one output's wave: high and low times and a phase, and the
 * slot grid they make. Inline, for the RT loop and every log reader. */
#ifndef SQW_WAVE_H
#define SQW_WAVE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * One output's wave (today one line per run; later one per line). Slot k is
 * the k-th edge on the grid: the first one leaves the idle level, so an
 * even slot goes to !idle and an odd one back to idle. The level after an
 * edge lasts high_ns when it is 1, low_ns when it is 0, so
 *
 *	slot_ns(k) = slot0 + (k / 2) x (high + low) + (k odd ? first : 0)
 *
 * with first = the length of the level the first edge goes to (high when
 * the line idles low). slot0 is the intended time of slot 0, the grid's
 * origin plus phase_ns (the run session adds it; the log header's start_ns
 * is slot 0's time, phase included). With high == low this is the 50 %
 * wave: slot0 + k x half. high + low is even, so half = (high + low) / 2
 * counts an even number of slots exactly.
 */
struct wave {
	int64_t high_ns;          /* how long level 1 lasts */
	int64_t low_ns;           /* how long level 0 lasts */
	int64_t phase_ns;         /* slot 0's shift from the grid, 0 <= phase < period */
};

static inline struct wave wave_square(int64_t half_ns)
{
	return (struct wave){ .high_ns = half_ns, .low_ns = half_ns, .phase_ns = 0 };
}

static inline bool wave_is_square(const struct wave *w)
{
	return w->high_ns == w->low_ns;
}

static inline uint64_t wave_period(const struct wave *w)
{
	return (uint64_t)w->high_ns + (uint64_t)w->low_ns;
}

/* How long the level @level lasts once an edge has written it. */
static inline uint64_t wave_seg(const struct wave *w, int level)
{
	return (uint64_t)(level ? w->high_ns : w->low_ns);
}

/* The level slot @k writes on a line idling at @idle. */
static inline int wave_slot_level(int idle, uint64_t k)
{
	return (k & 1) ? idle : !idle;
}

/* The intended time of slot @k. */
static inline uint64_t wave_slot_ns(const struct wave *w, int idle, uint64_t slot0, uint64_t k)
{
	return slot0 + (k / 2) * wave_period(w) + ((k & 1) ? wave_seg(w, !idle) : 0);
}

/* The latest slot whose time is at or before @t (@t >= slot0). */
static inline uint64_t wave_slot_at(const struct wave *w, int idle, uint64_t slot0, uint64_t t)
{
	uint64_t per = wave_period(w), rel = t - slot0;
	uint64_t k = 2 * (rel / per);

	return rel % per >= wave_seg(w, !idle) ? k + 1 : k;
}

/* Slot @k if @t is exactly its time, else -1 (not on the grid). */
static inline int64_t wave_slot_of(const struct wave *w, int idle, uint64_t slot0, uint64_t t)
{
	uint64_t k;

	if (t < slot0)
		return -1;
	k = wave_slot_at(w, idle, slot0, t);
	if (wave_slot_ns(w, idle, slot0, k) != t || k > (uint64_t)INT64_MAX)
		return -1;
	return (int64_t)k;
}

#endif
