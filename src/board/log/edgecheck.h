/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One validation of edge records for every source (binary log, edge-list
 * CSV): what no real run can produce is refused, never analyzed. */
#ifndef SQW_EDGECHECK_H
#define SQW_EDGECHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/wave.h"
#include "log/edge.h"

/*
 * What every record of every source must satisfy, in order:
 *  - level is 0 or 1; expirations is at least 1;
 *  - wake-up <= write begin <= write end (three clock reads in that order);
 *  - seq increases (a jump is dropped records, never a step back);
 *  - the intended time increases, and the write window does not start
 *    before the previous one ended (so no pulse width is negative);
 *  - warm-up edges come first (none after a counted edge).
 * A log (grid mode) also keeps its intended times on its grid, start_ns +
 * slot x half_period, and each record's expirations equal to the slots it
 * advanced (at least that when saturated at 65,535 or after dropped records).
 * A duty-cycle log (edgecheck_set_wave()) keeps them on its wave's slots
 * (base/wave.h) instead, and each record's level that of its slot.
 *
 * Not thread-safe: one checker per reader. Plain struct, no allocation.
 */
struct edgecheck {
	int64_t half_period_ns;   /* grid step; <= 0: unknown (no grid checks) */
	bool grid;                /* intended times are on start_ns + k x half */
	uint64_t start_ns;
	const char *time_name;    /* "intended", or "measured" for a list without intended times */
	bool respond;             /* a respond log's records (edgecheck_set_respond()) */
	uint64_t prev_event_ns;   /* respond: the last answered event's time */
	bool have_prev;
	bool duty;                /* edgecheck_set_wave(): slots of unequal length */
	int idle_level;
	struct wave wave;
	bool counted;             /* a record without EDGE_F_WARMUP was seen */
	struct edge_rec prev;
};

/* A log's checker has @grid true and its header's start and half period; an
 * edge list's has @grid false (@half_period_ns is then unused). */
void edgecheck_init(struct edgecheck *c, int64_t half_period_ns, bool grid, uint64_t start_ns);

/* After edgecheck_init(): the records are a respond log's. Intended times
 * are the answered events' timestamps, in the kernel's order (equal ones
 * allowed), skipped by writes that answer no event (EDGE_F_NOEVENT); the
 * write windows still follow each other. */
void edgecheck_set_respond(struct edgecheck *c);

/* After edgecheck_init() with @grid: the grid is @w's slots (high != low),
 * the first edge leaving @idle_level; a record's level must be its slot's. */
void edgecheck_set_wave(struct edgecheck *c, const struct wave *w, int idle_level);

/* The full check with its reason; edgecheck_record() calls it for anything
 * but the common case. */
int edgecheck_record_slow(struct edgecheck *c, const struct edge_rec *e, char *err, size_t errlen);

/*
 * Check @e against the records before it. 0: accepted (it becomes the
 * previous record); -1: refused, with what is wrong in @err (no file or
 * position: the caller adds them), and the state is unchanged.
 */
static inline int edgecheck_record(struct edgecheck *c, const struct edge_rec *e, char *err,
				   size_t errlen)
{
	const struct edge_rec *p = &c->prev;
	uint64_t d = e->intended_ns - p->intended_ns;

	/* The common case of a log, in a few compares: next seq, on time or a
	 * few slots late, window in order and after the previous one. */
	if (c->have_prev && c->grid && !c->duty && e->seq == p->seq + 1 && e->level <= 1 &&
	    e->expirations >= 1 && e->expirations < UINT16_MAX &&
	    d == (uint64_t)e->expirations * (uint64_t)c->half_period_ns &&
	    e->wake_off_ns <= e->write_begin_off_ns && e->write_begin_off_ns <= e->write_end_off_ns &&
	    (int64_t)d + e->write_begin_off_ns >= p->write_end_off_ns &&
	    (!(e->flags & EDGE_F_WARMUP) || !c->counted)) {
		c->counted |= !(e->flags & EDGE_F_WARMUP);
		c->prev = *e;
		return 0;
	}
	return edgecheck_record_slow(c, e, err, errlen);
}

#endif
