/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Edge record validation shared by the log reader and the edge-list reader:
 * the slow path, which says what is wrong. */
#include "log/edgecheck.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void edgecheck_init(struct edgecheck *c, int64_t half_period_ns, bool grid, uint64_t start_ns)
{
	memset(c, 0, sizeof(*c));
	c->half_period_ns = half_period_ns;
	c->grid = grid && half_period_ns > 0;
	c->start_ns = start_ns;
	c->time_name = "intended";
}

void edgecheck_set_respond(struct edgecheck *c)
{
	c->respond = true;
	c->grid = false;
	c->time_name = "event";
}

/* A respond log's order: events in the kernel's order, each write after
 * the previous one. 0, or -1 with @err. */
static int respond_order(const struct edgecheck *c, const struct edge_rec *e, char *err,
			 size_t errlen)
{
	const struct edge_rec *p = &c->prev;
	/* absolute times in 64 bits: offsets are from different instants */
	int64_t wb = (int64_t)(e->intended_ns + (uint64_t)(int64_t)e->write_begin_off_ns);
	int64_t pe = (int64_t)(p->intended_ns + (uint64_t)(int64_t)p->write_end_off_ns);

	if (e->seq <= p->seq) {
		snprintf(err, errlen, "seq %" PRIu64 " after %" PRIu64 ": seq must increase",
			 e->seq, p->seq);
		return -1;
	}
	if (!(e->flags & EDGE_F_NOEVENT) && c->prev_event_ns && e->intended_ns < c->prev_event_ns) {
		snprintf(err, errlen, "event time goes backwards (%" PRIu64 " ns after %" PRIu64
			 " ns)", e->intended_ns, c->prev_event_ns);
		return -1;
	}
	if (wb - pe < 0) {
		snprintf(err, errlen, "measured time goes backwards (the write began %" PRId64
			 " ns before the previous write ended)", pe - wb);
		return -1;
	}
	return 0;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void edgecheck_set_wave(struct edgecheck *c, const struct wave *w, int idle_level)
{
	c->duty = c->grid && !wave_is_square(w);
	c->wave = *w;
	c->idle_level = idle_level;
}

/* Slots from @from to @to on the grid (to > from), or -1 when @to is not on
 * the grid of @from (a duty cycle's: when either is off the wave's slots). */
static int64_t grid_slots(const struct edgecheck *c, uint64_t from, uint64_t to)
{
	uint64_t d = to - from, h = (uint64_t)c->half_period_ns;

	if (c->duty) {
		int64_t a = wave_slot_of(&c->wave, c->idle_level, c->start_ns, from);
		int64_t b = wave_slot_of(&c->wave, c->idle_level, c->start_ns, to);

		return a < 0 || b < 0 || b < a ? -1 : b - a;
	}
	if (d % h)
		return -1;
	return d / h > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)(d / h);
}

int edgecheck_record_slow(struct edgecheck *c, const struct edge_rec *e, char *err, size_t errlen)
{
	const struct edge_rec *p = &c->prev;
	bool saturated = e->expirations == UINT16_MAX;

	if (e->level > 1) {
		snprintf(err, errlen, "level %u (a record writes 0 or 1)", e->level);
		return -1;
	}
	if (e->expirations == 0) {
		snprintf(err, errlen, "expirations 0 (an edge ends at least one timer period)");
		return -1;
	}
	if (e->wake_off_ns > e->write_begin_off_ns) {
		snprintf(err, errlen, "wake_ns is after write_begin_ns (%+" PRId32 " and %+" PRId32
			 " ns from the intended time)", e->wake_off_ns, e->write_begin_off_ns);
		return -1;
	}
	if (e->write_begin_off_ns > e->write_end_off_ns) {
		snprintf(err, errlen, "write_end_ns is before write_begin_ns (%+" PRId32 " and %+"
			 PRId32 " ns from the intended time)", e->write_end_off_ns, e->write_begin_off_ns);
		return -1;
	}
	if (c->grid && !c->have_prev) {
		/* The first record: on the grid, after the start, in a slot that
		 * leaves room for the records before it (seq of them). */
		int64_t slot = e->intended_ns < c->start_ns ? -1
			     : grid_slots(c, c->start_ns, e->intended_ns);

		if (slot < 0) {
			if (c->duty)
				snprintf(err, errlen, "intended time %" PRIu64 " ns is not on the log's "
					 "grid (start %" PRIu64 ", high %" PRId64 " ns, low %" PRId64
					 " ns)", e->intended_ns, c->start_ns, c->wave.high_ns,
					 c->wave.low_ns);
			else
				snprintf(err, errlen, "intended time %" PRIu64 " ns is not on the log's "
					 "grid (start %" PRIu64 " + k x %" PRId64 " ns)", e->intended_ns,
					 c->start_ns, c->half_period_ns);
			return -1;
		}
		if ((uint64_t)slot + 1 < sat_add(e->seq, saturated ? 0 : e->expirations) ||
		    (e->seq == 0 && !saturated && (uint64_t)slot + 1 != e->expirations)) {
			snprintf(err, errlen, "edge #%" PRIu64 " in slot %" PRId64 " with expirations "
				 "%u: the slots and the count disagree", e->seq, slot, e->expirations);
			return -1;
		}
	}
	if (c->have_prev && c->respond) {
		if (respond_order(c, e, err, errlen) < 0)
			return -1;
	} else if (c->have_prev) {
		uint64_t seq_adv = e->seq - p->seq;
		int64_t d = (int64_t)(e->intended_ns - p->intended_ns);

		if (e->seq <= p->seq) {
			snprintf(err, errlen, "seq %" PRIu64 " after %" PRIu64 ": seq must increase",
				 e->seq, p->seq);
			return -1;
		}
		if (e->intended_ns <= p->intended_ns) {
			snprintf(err, errlen, "%s time %s (%" PRIu64 " ns after %" PRIu64 " ns)",
				 c->time_name, e->intended_ns < p->intended_ns ? "goes backwards"
				 : "does not advance", e->intended_ns, p->intended_ns);
			return -1;
		}
		/* The window may not start before the previous one ended. In
		 * 128 bits' worth of care: d can be anything up to 2^64. */
		if (d >= 0 && d < INT64_MAX / 2 &&
		    d + e->write_begin_off_ns < (int64_t)p->write_end_off_ns) {
			snprintf(err, errlen, "measured time goes backwards (the write began %" PRId64
				 " ns before the previous edge's write ended)",
				 (int64_t)p->write_end_off_ns - (d + e->write_begin_off_ns));
			return -1;
		}
		if (c->grid) {
			int64_t slots = grid_slots(c, p->intended_ns, e->intended_ns);
			/* slots the dropped records took (one each, at least), and ours */
			uint64_t need = sat_add(seq_adv - 1, saturated ? UINT16_MAX : e->expirations);

			if (slots < 0) {
				snprintf(err, errlen, "intended time %" PRIu64 " ns is not on the log's "
					 "grid (%" PRIu64 " ns after the previous edge, half period %"
					 PRId64 " ns)", e->intended_ns, e->intended_ns - p->intended_ns,
					 c->half_period_ns);
				return -1;
			}
			if ((uint64_t)slots < need || (seq_adv == 1 && !saturated &&
						       (uint64_t)slots != e->expirations)) {
				snprintf(err, errlen, "%" PRId64 " slots after the previous edge, but "
					 "expirations %u%s: the count and the times disagree", slots,
					 e->expirations, seq_adv > 1 ? " and records dropped" : "");
				return -1;
			}
		}
	}
	if (c->duty) {
		/* on the grid (checked above): the level must be its slot's */
		int64_t k = wave_slot_of(&c->wave, c->idle_level, c->start_ns, e->intended_ns);

		if (k >= 0 && e->level != wave_slot_level(c->idle_level, (uint64_t)k)) {
			snprintf(err, errlen, "level %u in slot %" PRId64 ", which writes %d "
				 "(high %" PRId64 " ns, low %" PRId64 " ns, idle %d)", e->level, k,
				 wave_slot_level(c->idle_level, (uint64_t)k), c->wave.high_ns,
				 c->wave.low_ns, c->idle_level);
			return -1;
		}
	}
	if ((e->flags & EDGE_F_WARMUP) && c->counted) {
		snprintf(err, errlen, "a warm-up edge after counted edges");
		return -1;
	}
	c->counted |= !(e->flags & EDGE_F_WARMUP);
	if (c->respond && !(e->flags & EDGE_F_NOEVENT))
		c->prev_event_ns = e->intended_ns;
	c->prev = *e;
	c->have_prev = true;
	return 0;
}
