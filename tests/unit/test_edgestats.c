/* SPDX-License-Identifier: GPL-2.0-or-later */
/* edgestats: hand-built edge sequences (warm-up boundaries, seq gaps, missed
 * periods, write errors, spin mode) and what the scope would have seen:
 * pulses and where each edge landed; the cost of add. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analysis/edgestats.h"

#define HALF 500000            /* ns: 1 kHz */
#define T0   1000000000ull     /* intended time of slot 0 */

/* An edge in @slot, woken @wake ns late, writing from @wb to @we ns late. */
static struct edge_rec edge(uint64_t seq, uint64_t slot, int32_t wake, int32_t wb, int32_t we)
{
	struct edge_rec e = {
		.seq = seq,
		.intended_ns = T0 + slot * HALF,
		.wake_off_ns = wake,
		.write_begin_off_ns = wb,
		.write_end_off_ns = we,
		.expirations = 1,
		.level = (uint8_t)(slot % 2 == 0), /* even slots rise */
	};
	return e;
}

/* The common case: edge n in slot n, woken 10 us late, a 2 us write. */
static struct edge_rec plain(uint64_t n)
{
	return edge(n, n, 10000, 11000, 13000);
}

static int setup(void **state)
{
	*state = edgestats_new(HALF);
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	edgestats_free(*state);
	return 0;
}

static void feed(struct edgestats *s, const struct edge_rec *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		edgestats_add(s, &e[i]);
}

static void wake_latency_and_write_cost_come_from_the_offsets(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[] = {
		edge(0, 0, 10000, 11000, 12000),
		edge(1, 1, 20000, 21000, 24000),
		edge(2, 2, 3000, 4000, 6000),
	};

	feed(s, e, 3);
	r = edgestats_result(s);
	assert_int_equal(r->edges, 3);
	assert_int_equal(r->wake.m.min, 3000);
	assert_int_equal(r->wake.m.max, 20000);
	assert_true(stats_moments_mean(&r->wake.m) == 11000.0);
	assert_int_equal(r->wake_worst.seq, 1);
	assert_int_equal(r->wake_worst.intended_ns, T0 + HALF);
	assert_int_equal(r->write.m.min, 1000);
	assert_int_equal(r->write.m.max, 3000);
	assert_int_equal(r->write_worst.seq, 1);
	assert_int_equal(stats_hist_percentile(&r->wake, 100), 20000);
}

static void a_pulse_is_measured_from_write_midpoint_to_write_midpoint(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_widths *w;
	struct edge_rec e[] = {
		edge(0, 0, 9000, 10000, 12000), /* midpoint +11000 */
		edge(1, 1, 7000, 8000, 9000),   /* midpoint +8500 */
	};

	feed(s, e, 2);
	w = &edgestats_result(s)->width[EDGESTATS_POS];
	assert_int_equal(w->h.m.n, 1);
	assert_int_equal(w->tmin.width_ns, HALF + 8500 - 11000);
	assert_int_equal(w->tmin.lo_ns, HALF + 8000 - 12000);
	assert_int_equal(w->tmin.hi_ns, HALF + 9000 - 10000);
	assert_int_equal(w->tmin.at.seq, 1); /* numbered by the edge that ends it */;
	assert_int_equal(edgestats_result(s)->width[EDGESTATS_NEG].h.m.n, 0);
}

static void tmin_uses_the_write_window_as_uncertainty(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_widths *w;
	struct edge_rec e[] = {
		edge(0, 0, 0, 1000, 2000),  /* write window midpoint +1500 */
		edge(1, 1, 0, 1000, 2000),  /* +1500: pulse #1 (0->1) is HALF, +-1000 */
		edge(2, 2, 0, 1000, 11000), /* a slow write, midpoint +6000 */
		edge(3, 3, 0, 9900, 10100), /* +10000 */
	};

	feed(s, e, 4);
	w = &edgestats_result(s)->width[EDGESTATS_ANY];
	assert_int_equal(w->h.m.n, 3);
	/* the shortest estimate is pulse #1 (numbered by its ending edge) ... */
	assert_int_equal(w->tmin.width_ns, HALF);
	assert_int_equal(w->tmin.lo_ns, HALF - 1000);
	assert_int_equal(w->tmin.hi_ns, HALF + 1000);
	assert_int_equal(w->tmin.at.seq, 1);
	/* ... but the shortest the scope could have seen is pulse #3's lower bound */
	assert_int_equal(w->tmin_bound.lo_ns, HALF + 9900 - 11000);
	assert_int_equal(w->tmin_bound.at.seq, 3);
	/* and the longest possible is pulse #2's upper bound */
	assert_int_equal(w->tmax.width_ns, HALF + 6000 - 1500);
	assert_int_equal(w->tmax_bound.hi_ns, HALF + 11000 - 1000);
	assert_int_equal(w->tmax_bound.at.seq, 2);
	/* one polarity alone (pulses #1 and #3): its extremes come from the
	 * later pulse, not from whichever came first */
	w = &edgestats_result(s)->width[edgestats_result(s)->width[EDGESTATS_POS].h.m.n == 2 ?
					EDGESTATS_POS : EDGESTATS_NEG];
	assert_int_equal(w->h.m.n, 2);
	assert_int_equal(w->tmax_bound.hi_ns, HALF + 10100 - 1000);
	assert_int_equal(w->tmax_bound.at.seq, 3);
	assert_int_equal(w->tmin_bound.at.seq, 3);
	assert_int_equal(w->tmax.at.seq, 3);
	assert_int_equal(w->tmin.at.seq, 1);
}

static void positive_and_negative_pulses_are_kept_apart(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[] = {
		edge(0, 0, 0, 0, 0),        /* rise */
		edge(1, 1, 0, 3000, 3000),  /* fall: high for HALF + 3000 */
		edge(2, 2, 0, 0, 0),        /* rise: low for HALF - 3000 */
		edge(3, 3, 0, 1000, 1000),  /* fall: high for HALF + 1000 */
		edge(4, 4, 0, 0, 0),        /* rise: low for HALF - 1000 */
	};

	feed(s, e, 5);
	r = edgestats_result(s);
	assert_int_equal(r->width[EDGESTATS_POS].h.m.n, 2);
	assert_int_equal(r->width[EDGESTATS_POS].h.m.min, HALF + 1000);
	assert_int_equal(r->width[EDGESTATS_POS].h.m.max, HALF + 3000);
	assert_int_equal(r->width[EDGESTATS_NEG].h.m.n, 2);
	assert_int_equal(r->width[EDGESTATS_NEG].h.m.min, HALF - 3000);
	assert_int_equal(r->width[EDGESTATS_NEG].h.m.max, HALF - 1000);
	assert_int_equal(r->width[EDGESTATS_ANY].h.m.n, 4);
	assert_int_equal(r->width[EDGESTATS_ANY].tmin.at.seq, 2);
	assert_int_equal(r->width[EDGESTATS_ANY].tmax.at.seq, 1);
}

static void the_pulse_from_the_last_warm_up_edge_is_not_counted(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[4];
	int i;

	for (i = 0; i < 4; i++)
		e[i] = plain((uint64_t)i);
	e[0].flags = e[1].flags = EDGE_F_WARMUP;
	e[1].wake_off_ns = 900000;  /* a warm-up hiccup must not show */
	e[1].write_begin_off_ns = e[1].write_end_off_ns = 400000;
	feed(s, e, 4);
	r = edgestats_result(s);
	assert_int_equal(r->records, 4);
	assert_int_equal(r->warmup_edges, 2);
	assert_int_equal(r->edges, 2);
	assert_int_equal(r->wake.m.max, 10000);
	assert_int_equal(r->width[EDGESTATS_ANY].h.m.n, 1);
	assert_int_equal(r->width[EDGESTATS_ANY].tmin.at.seq, 3);
	assert_int_equal(r->width[EDGESTATS_ANY].h.m.max, HALF);
	assert_int_equal(r->pulses_skipped, 0);
}

/* A duty cycle of 300 us high, 700 us low (half 500 us): each polarity
 * has its own nominal, and missed slots are counted on its grid. */
static void a_duty_cycle_has_a_nominal_width_per_polarity(void **state)
{
	struct wave w = { .high_ns = 300000, .low_ns = 700000 };
	struct edgestats *s = edgestats_new(HALF);
	const struct edgestats_result *r;
	struct edge_rec e[7];
	uint64_t slot[7] = { 0, 1, 2, 3, 4, 7, 8 };	/* 5 and 6 missed */
	size_t i;

	(void)state;
	assert_non_null(s);
	edgestats_set_wave(s, &w);
	for (i = 0; i < 7; i++) {
		e[i] = edge(i, slot[i], 10000, 11000, 13000);
		e[i].intended_ns = wave_slot_ns(&w, 0, T0, slot[i]);
		e[i].level = (uint8_t)wave_slot_level(0, slot[i]);
	}
	e[5].level = 0;		/* slot 7 goes down: the line went up at 4 */
	e[5].expirations = 3;
	e[6].level = 1;
	feed(s, e, 7);
	r = edgestats_result(s);
	assert_int_equal(r->nominal_ns[EDGESTATS_POS], 300000);
	assert_int_equal(r->nominal_ns[EDGESTATS_NEG], 700000);
	assert_int_equal(r->nominal_ns[EDGESTATS_ANY], HALF);
	assert_int_equal(r->missed_periods, 2);
	/* highs are 300 us, lows 700 us, the one across the miss 1.3 ms */
	assert_int_equal(r->width[EDGESTATS_POS].tmin.width_ns, 300000);
	assert_int_equal(r->width[EDGESTATS_POS].tmax.width_ns, 1300000);
	assert_int_equal(r->width[EDGESTATS_NEG].tmin.width_ns, 700000);
	assert_int_equal(r->width[EDGESTATS_NEG].tmax.width_ns, 700000);
	/* the late edge's latency counts from its first missed slot (5) */
	assert_int_equal(r->wake.m.max, 10000 + 1000000);
	edgestats_free(s);

	/* a dropped record: the count comes from the times on the wave's grid.
	 * Slot 1 (down), then edge #2 (slot 2, up) lost, then edge #3 on slot 7
	 * (down): 6 slots for 2 edges, 4 missed, from the times */
	s = edgestats_new(HALF);
	assert_non_null(s);
	edgestats_set_wave(s, &w);
	e[0] = edge(0, 0, 10000, 11000, 13000);
	e[1] = edge(1, 1, 10000, 11000, 13000);
	e[2] = edge(3, 7, 10000, 11000, 13000);
	for (i = 0; i < 3; i++)
		e[i].intended_ns = wave_slot_ns(&w, 0, T0, slot[i == 2 ? 5 : i]);
	e[2].expirations = 5;	/* slots 3..7 from the lost edge's slot 2 */
	feed(s, e, 3);
	assert_int_equal(edgestats_result(s)->missed_periods, 4);
	edgestats_free(s);

	/* not a whole number of periods: slot 1 (down), edges #2 and #3 (slots
	 * 2, 3) lost, edge #4 on slot 6 (up): 5 slots for 3 edges, 2 missed.
	 * 2.7 ms after a down edge is low, high, low, high (700, 300, 700,
	 * 300 us) and 700 us into the next period: the slot count must start
	 * from the level the earlier edge wrote, not the other one. */
	s = edgestats_new(HALF);
	assert_non_null(s);
	edgestats_set_wave(s, &w);
	e[0] = edge(0, 0, 10000, 11000, 13000);
	e[1] = edge(1, 1, 10000, 11000, 13000);
	e[2] = edge(4, 6, 10000, 11000, 13000);
	e[0].intended_ns = wave_slot_ns(&w, 0, T0, 0);
	e[1].intended_ns = wave_slot_ns(&w, 0, T0, 1);
	e[2].intended_ns = wave_slot_ns(&w, 0, T0, 6);
	e[2].expirations = 3;	/* slots 4..6 from the lost edge's slot 3 */
	feed(s, e, 3);
	assert_int_equal(edgestats_result(s)->missed_periods, 2);
	edgestats_free(s);
}

static void a_missed_period_is_counted_not_hidden(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[] = { plain(0), plain(1), plain(2), plain(3) };

	/* edge 2 woke two slots late: it was meant for slot 2 but is written
	 * in slot 4, so the low pulse from edge 1 lasts three half periods */
	e[2] = edge(2, 4, 10000, 11000, 13000);
	e[2].expirations = 3;
	e[3] = edge(3, 5, 10000, 11000, 13000);
	feed(s, e, 4);
	r = edgestats_result(s);
	assert_int_equal(r->missed_periods, 2);
	assert_int_equal(r->width[EDGESTATS_NEG].tmax.width_ns, 3 * HALF);
	assert_int_equal(r->width[EDGESTATS_NEG].tmax.at.seq, 2); /* the late edge ends it */;
	assert_int_equal(r->width[EDGESTATS_ANY].h.m.n, 3);
}

static void missed_periods_in_warm_up_are_kept_apart(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e = plain(0);

	e.flags = EDGE_F_WARMUP;
	e.expirations = 4;
	edgestats_add(s, &e);
	r = edgestats_result(s);
	assert_int_equal(r->missed_periods, 0);
	assert_int_equal(r->warmup_missed_periods, 3);
}

static void dropped_records_are_seq_gaps_and_no_pulse_spans_them(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[] = { plain(0), plain(1), plain(2), plain(5), plain(6), plain(9), plain(10) };

	feed(s, e, 7);
	r = edgestats_result(s);
	assert_int_equal(r->seq_gaps, 4);
	assert_int_equal(r->gap_events, 2);
	assert_int_equal(r->largest_gap, 2);
	assert_int_equal(r->first_gap.seq, 5);
	assert_int_equal(r->first_gap.intended_ns, T0 + 5 * HALF);
	assert_int_equal(r->last_gap.seq, 9);
	/* (0,1) (1,2) (5,6) (9,10); not (2,5) nor (6,9) */
	assert_int_equal(r->width[EDGESTATS_ANY].h.m.n, 4);
	assert_int_equal(r->width[EDGESTATS_ANY].h.m.max, HALF);
	assert_int_equal(r->pulses_skipped, 2);
}

static void records_lost_before_the_first_one_are_a_gap_too(void **state)
{
	struct edgestats *s = *state;
	struct edgestats_live live;
	struct edge_rec e = plain(3);

	edgestats_add(s, &e);
	edgestats_live(s, &live);
	assert_int_equal(live.seq_gaps, 3);
}

static void an_edge_whose_write_failed_ends_no_measured_pulse(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[] = { plain(0), plain(1), plain(2), plain(3) };

	e[2].flags = EDGE_F_WRITE_ERR;
	feed(s, e, 4);
	r = edgestats_result(s);
	assert_int_equal(r->write_errors, 1);
	assert_int_equal(r->width[EDGESTATS_ANY].h.m.n, 1);
	assert_int_equal(r->pulses_skipped, 2);
}

static void a_saturated_edge_counts_in_latency_but_not_in_widths(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[] = { plain(0), plain(1), plain(2) };

	e[1].flags = EDGE_F_SATURATED;
	e[1].wake_off_ns = INT32_MAX;
	feed(s, e, 3);
	r = edgestats_result(s);
	assert_int_equal(r->saturated, 1);
	assert_int_equal(r->wake.m.max, INT32_MAX);
	assert_int_equal(r->width[EDGESTATS_ANY].h.m.n, 0);
}

static void two_writes_of_the_same_level_are_not_a_pulse(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[] = { plain(0), plain(1), plain(2) };

	e[2].level = e[1].level;
	feed(s, e, 3);
	r = edgestats_result(s);
	assert_int_equal(r->level_repeats, 1);
	assert_int_equal(r->width[EDGESTATS_ANY].h.m.n, 1);
}

/* A respond answer: event at @t_us, written 20..21 us after it, @level. */
static struct edge_rec answer(uint64_t seq, uint64_t t_us, uint8_t level)
{
	struct edge_rec e = {
		.seq = seq,
		.intended_ns = T0 + t_us * 1000,
		.wake_off_ns = 19000,
		.write_begin_off_ns = 20000,
		.write_end_off_ns = 21000,
		.expirations = 1,
		.level = level,
	};
	return e;
}

static void a_respond_pulse_starts_at_the_write_that_changed_the_pin(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	/* follow mode with an event lost twice: 1 at 0 us, 1 again at 100 us
	 * (a falling event lost), 0 at 300 us, 0 again at 350 us, 1 at 600 us */
	struct edge_rec e[] = {
		answer(0, 0, 1), answer(1, 100, 1), answer(2, 300, 0), answer(3, 350, 0),
		answer(4, 600, 1),
	};

	e[1].expirations = e[3].expirations = 2;
	edgestats_set_respond(s, 0);
	feed(s, e, 5);
	r = edgestats_result(s);
	/* every write answers its event, the rewrites too */
	assert_int_equal(r->answers, 5);
	assert_int_equal(r->resp_end.m.n, 5);
	assert_int_equal(r->missed_periods, 2);
	/* but the pin changed three times: high for 300 us, low for 300 us */
	assert_int_equal(r->level_repeats, 2);
	assert_int_equal(r->width[EDGESTATS_POS].h.m.n, 1);
	assert_int_equal(r->width[EDGESTATS_POS].tmin.width_ns, 300000);
	assert_int_equal(r->width[EDGESTATS_NEG].h.m.n, 1);
	assert_int_equal(r->width[EDGESTATS_NEG].tmin.width_ns, 300000);
	assert_int_equal(r->pulses_skipped, 0);
	assert_int_equal(r->period_m.n, 0);	/* a respond run has no period */
}

static void a_respond_write_of_the_idle_level_first_is_no_edge(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	/* idle high (active low wiring): the first answer writes 1, no change */
	struct edge_rec e[] = { answer(0, 0, 1), answer(1, 100, 0), answer(2, 250, 1) };

	edgestats_set_respond(s, 1);
	feed(s, e, 3);
	r = edgestats_result(s);
	assert_int_equal(r->level_repeats, 1);
	assert_int_equal(r->width[EDGESTATS_NEG].h.m.n, 1);
	assert_int_equal(r->width[EDGESTATS_NEG].tmin.width_ns, 150000);
	assert_int_equal(r->width[EDGESTATS_POS].h.m.n, 0);
}

static void no_respond_pulse_spans_a_failed_write_or_a_warm_up_start(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[] = {
		answer(0, 0, 1), answer(1, 50, 1), answer(2, 100, 0),	/* warm-up start */
		answer(3, 200, 1), answer(4, 300, 0),			/* write 4 failed */
		answer(5, 400, 0), answer(6, 500, 1), answer(7, 600, 0),
	};

	e[0].flags = e[1].flags = EDGE_F_WARMUP;
	e[4].flags = EDGE_F_WRITE_ERR;
	edgestats_set_respond(s, 0);
	feed(s, e, 8);
	r = edgestats_result(s);
	/* measured: low 100..200 (write 2 is counted, the pulse before it
	 * starts in the warm-up); nothing across the failed write, nor from
	 * write 5 (it may have rewritten what write 4 set); high 500..600 */
	assert_int_equal(r->width[EDGESTATS_NEG].h.m.n, 1);
	assert_int_equal(r->width[EDGESTATS_NEG].tmin.width_ns, 100000);	/* 100..200 */
	assert_int_equal(r->width[EDGESTATS_POS].h.m.n, 1);
	assert_int_equal(r->width[EDGESTATS_POS].tmin.width_ns, 100000);	/* 500..600 */
	/* not measured: the high from write 3 (where it ended is not known)
	 * and the low that write 6 ended (where it began is not known) */
	assert_int_equal(r->pulses_skipped, 2);
}

static void the_runs_own_counts_at_the_stop_are_exact_and_never_lower(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	/* a warm-up answer whose record saturated, then a counted one */
	struct edge_rec e[] = { answer(0, 0, 1), answer(1, 100, 0) };

	e[0].flags = EDGE_F_WARMUP | EDGE_F_SATURATED;
	e[0].expirations = UINT16_MAX;
	e[1].expirations = 3;
	edgestats_set_respond(s, 0);
	feed(s, e, 2);
	r = edgestats_result(s);
	assert_int_equal(r->warmup_missed_periods, UINT16_MAX - 1);
	assert_false(r->respond_end);
	/* the RT loop counted 70,000 in the warm-up, and 2 after it */
	edgestats_respond_end(s, 1, 70000, 4);
	r = edgestats_result(s);
	assert_true(r->respond_end);
	assert_int_equal(r->warmup_missed_periods, 70000);
	assert_int_equal(r->missed_periods, 2);	/* the records' 2, not lowered to 1 */
	assert_int_equal(r->unanswered, 4);
}

static void the_period_runs_from_rise_to_rise(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[] = {
		edge(0, 0, 0, 1000, 1000),
		edge(1, 1, 0, 0, 0),
		edge(2, 2, 0, 4000, 4000),
		edge(3, 3, 0, 0, 0),
		edge(4, 4, 0, 2000, 2000),
	};

	feed(s, e, 5);
	r = edgestats_result(s);
	assert_int_equal(r->period_m.n, 2);
	assert_int_equal(r->period_m.max, 2 * HALF + 3000);
	assert_int_equal(r->period_max_at.seq, 2); /* the rise that ends it */;
	assert_int_equal(r->period_m.min, 2 * HALF - 2000);
	assert_int_equal(r->period_min_at.seq, 4);
}

static void the_live_copy_agrees_with_the_results(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edgestats_live live;
	struct edge_rec e[] = { plain(0), plain(1), plain(2) };

	edgestats_live(s, &live);
	assert_int_equal(live.edges, 0);
	assert_int_equal(live.width_min_ns, 0);
	e[1].wake_off_ns = 50000;
	e[2].expirations = 2;
	feed(s, e, 3);
	r = edgestats_result(s);
	edgestats_live(s, &live);
	assert_int_equal(live.edges, 3);
	assert_int_equal(live.missed_periods, 1);
	assert_int_equal(live.wake_min_ns, 10000);
	/* edge 2 skipped a slot: late by a half period more than its offset */
	assert_int_equal(live.wake_max_ns, 10000 + HALF);
	assert_true(live.wake_avg_ns == stats_moments_mean(&r->wake.m));
	assert_int_equal(live.width_min_ns, r->width[EDGESTATS_ANY].h.m.min);
	assert_int_equal(live.width_max_ns, r->width[EDGESTATS_ANY].h.m.max);
}


/* Where the edge landed: the write window's middle minus the intended time,
 * early or late, and the worst by magnitude; warm-up and write errors out. */
static void the_placement_error_is_the_write_midpoint_minus_intended(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[] = {
		edge(0, 0, 10000, 11000, 13000),	/* +12 us */
		edge(1, 1, -30000, 100, 301),		/* +0.200 us (rounded down) */
		edge(2, 2, -30000, -9000, -5000),	/* -7 us: the worst */
		edge(3, 3, 1000, 2000, 2002),		/* +2.001 us */
		edge(4, 4, 0, 90000, 90000),		/* write failed: not placed */
	};

	e[0].flags = 0;
	e[4].flags = EDGE_F_WRITE_ERR;
	feed(s, e, 5);
	r = edgestats_result(s);
	assert_int_equal(r->place.m.n, 4);
	assert_int_equal(r->place.m.min, -7000);
	assert_int_equal(r->place.m.max, 12000);
	assert_int_equal(stats_hist_percentile(&r->place, 25), -7000);
	assert_int_equal(stats_hist_percentile(&r->place, 50), 200);
	assert_int_equal(stats_hist_percentile(&r->place, 75), 2001);
	/* 12 us is the largest in magnitude */
	assert_int_equal(r->place_worst_ns, 12000);
	assert_int_equal(r->place_worst.seq, 0);
	/* no spin flags: nothing spun */
	assert_int_equal(r->spin_edges, 0);
	assert_true(edgestats_spin_fraction(r) == 0.0);
}

/* An edge that woke 4.5 periods late lands just after the latest slot: its
 * record says +0.45 us from that slot, but it served the slot after the
 * previous edge, so its placement is late by the nine slots it skipped too
 * (as its wake latency is), and it is the worst. Pulse widths (what the scope
 * sees) still come from the intended times as logged. */
static void a_late_edge_after_missed_periods_never_looks_perfect(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[] = {
		edge(0, 0, 1000, 2000, 2100),
		edge(1, 1, 1000, 2000, 2100),
		edge(2, 11, 300, 400, 500),		/* slots 2..10 missed */
		edge(3, 12, 1000, 2000, 2100),
	};

	e[0].flags = 0;
	e[2].expirations = 10;
	feed(s, e, 4);
	r = edgestats_result(s);
	assert_int_equal(r->missed_periods, 9);
	assert_int_equal(r->place.m.n, 4);
	assert_int_equal(r->place.m.min, 2050);
	assert_int_equal(r->place.m.max, 9 * HALF + 450);
	assert_int_equal(r->place_worst_ns, 9 * HALF + 450);
	assert_int_equal(r->place_worst.seq, 2);
	assert_int_equal(r->place.m.max - r->wake.m.max, 150);
	/* the pulse from the late edge to the next is as logged */
	assert_int_equal(r->width[EDGESTATS_NEG].tmin.width_ns, HALF + 2050 - 450);
}

/* A capture's edge window wider than the records' 32-bit offsets hold (a
 * 100 s sample interval): the pulse bounds keep the whole window either side
 * instead of +-2.147 s, and the estimate is still midpoint to midpoint. */
static void an_edge_window_wider_than_32_bits_bounds_the_pulses(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	const int64_t tick = 100 * INT64_C(1000000000);
	struct edge_rec e[] = {
		edge(0, 0, INT32_MIN, INT32_MIN, 0),	/* the clamped offsets */
		edge(1, 1, INT32_MIN, INT32_MIN, 0),
		edge(2, 2, INT32_MIN, INT32_MIN, 0),
	};

	e[0].flags = 0;
	edgestats_set_edge_window(s, -tick, 0);
	feed(s, e, 3);
	r = edgestats_result(s);
	assert_int_equal(r->width[EDGESTATS_ANY].h.m.n, 2);
	assert_int_equal(r->width[EDGESTATS_ANY].tmin.width_ns, HALF);
	assert_int_equal(r->width[EDGESTATS_ANY].tmin_bound.lo_ns, HALF - tick);
	assert_int_equal(r->width[EDGESTATS_ANY].tmax_bound.hi_ns, HALF + tick);
	assert_int_equal(r->place.m.max, -tick / 2);
}

static void a_negative_worst_placement_keeps_its_sign(void **state)
{
	struct edgestats *s = *state;
	struct edge_rec e[] = {
		edge(0, 0, 1000, 2000, 4000),		/* +3 us */
		edge(1, 1, -30000, -9000, -5000),	/* -7 us */
		edge(2, 2, 1000, 5000, 7000),		/* +6 us */
	};
	feed(s, e, 3);
	assert_int_equal(edgestats_result(s)->place_worst_ns, -7000);
	assert_int_equal(edgestats_result(s)->place_worst.seq, 1);
}

/* Spin mode: write_begin - wake is the spin; late edges are counted; the
 * share is over the span of the counted edges' slots. */
static void spin_time_and_late_wake_ups_are_summed_from_the_records(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[] = {
		edge(0, 0, -50000, 20, 200),		/* warm-up: not counted */
		edge(1, 1, -40000, 30, 230),		/* spun 40.030 us */
		edge(2, 2, -10000, 10, 110),		/* spun 10.010 us */
		edge(3, 3, 5000, 5000, 5200),		/* late: no spin */
		edge(4, 4, INT32_MIN, 10, 20),		/* clamped: its spin is unknown */
	};
	int i;

	for (i = 0; i < 5; i++)
		e[i].flags = EDGE_F_SPIN;
	e[0].flags |= EDGE_F_WARMUP;
	e[3].flags |= EDGE_F_LATE;
	e[4].flags |= EDGE_F_SATURATED;
	feed(s, e, 4);
	r = edgestats_result(s);
	assert_int_equal(r->spin_edges, 3);
	assert_int_equal(r->late_edges, 1);
	assert_int_equal(r->spin_ns, 40030 + 10010);
	/* slots 1..3: 2 half periods between the first and last, plus one */
	assert_true(fabs(edgestats_spin_fraction(r) - 50040.0 / (3.0 * HALF)) < 1e-12);
	/* the late edge lands where it was written */
	assert_int_equal(r->place.m.max, 5100);
	edgestats_add(s, &e[4]);
	r = edgestats_result(s);
	assert_int_equal(r->spin_edges, 4);
	assert_int_equal(r->spin_ns, 40030 + 10010);
}

/* Volume, not speed: no timing assertion on a shared machine (the cost per
 * edge is measured by `make bench`). A million edges keep every count exact. */
static void a_million_edges_keep_every_count_exact(void **state)
{
	struct edgestats *s = *state;
	struct edge_rec e;
	uint64_t i, n = getenv("VALGRIND") || getenv("SQW_UNDER_EMULATION") ? 100000 : 1000000;

	for (i = 0; i < n; i++) {
		e = edge(i, i, (int32_t)(2000 + ((i * 7919) & 0x7fff)), 40000,
			 (int32_t)(41000 + (i & 1023)));
		edgestats_add(s, &e);
	}
	assert_int_equal(edgestats_result(s)->width[EDGESTATS_ANY].h.m.n, n - 1);
	assert_int_equal(edgestats_result(s)->width[EDGESTATS_POS].h.m.n +
			 edgestats_result(s)->width[EDGESTATS_NEG].h.m.n, n - 1);
}

static void a_stall_past_16_bits_is_counted_in_full(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edgestats_live live;
	struct edge_rec e[] = { plain(0), plain(1), plain(2) };

	/* edge 2 comes 225,620 slots after edge 1: the RT loop saturates the
	 * count at 65,535 and flags it; the intended times say 225,619 missed */
	e[2] = edge(2, 1 + 225620, 10000, 11000, 13000);
	e[2].expirations = UINT16_MAX;
	e[2].flags = EDGE_F_SATURATED;
	e[2].level = 1;		/* each edge toggles, whatever the slot */
	feed(s, e, 3);
	r = edgestats_result(s);
	assert_int_equal(r->missed_periods, 225619);
	assert_int_equal(edgestats_last_missed(s), 225619);
	assert_int_equal(edgestats_last_latency(s), 225619ll * HALF + 10000);
	assert_int_equal(r->wake.m.max, 225619ll * HALF + 10000);
	/* the times are exact: no offset was clamped, the long pulse is measured */
	assert_int_equal(r->saturated, 0);
	assert_int_equal(r->width[EDGESTATS_NEG].tmax.width_ns, 225620ll * HALF);
	edgestats_live(s, &live);
	assert_int_equal(live.missed_periods, 225619);
}

static void missed_periods_of_dropped_records_still_count(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[] = { plain(0), plain(1), edge(4, 9, 10000, 11000, 13000) };

	/* records 2 and 3 were dropped; edge 4 is in slot 9: 8 slots for 3
	 * edges, so 5 periods passed without an edge */
	feed(s, e, 3);
	r = edgestats_result(s);
	assert_int_equal(r->seq_gaps, 2);
	assert_int_equal(r->missed_periods, 5);
}

static void a_warm_up_stall_is_counted_apart_in_full(void **state)
{
	struct edgestats *s = *state;
	const struct edgestats_result *r;
	struct edge_rec e[] = { plain(0), edge(1, 70001, 10000, 11000, 13000) };

	e[0].flags = e[1].flags = EDGE_F_WARMUP;
	e[1].expirations = UINT16_MAX;
	e[1].flags |= EDGE_F_SATURATED;
	feed(s, e, 2);
	r = edgestats_result(s);
	assert_int_equal(r->missed_periods, 0);
	assert_int_equal(r->warmup_missed_periods, 70000);
}


int main(void)
{

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_duty_cycle_has_a_nominal_width_per_polarity),
		T(wake_latency_and_write_cost_come_from_the_offsets),
		T(a_pulse_is_measured_from_write_midpoint_to_write_midpoint),
		T(tmin_uses_the_write_window_as_uncertainty),
		T(positive_and_negative_pulses_are_kept_apart),
		T(the_pulse_from_the_last_warm_up_edge_is_not_counted),
		T(a_missed_period_is_counted_not_hidden),
		T(missed_periods_in_warm_up_are_kept_apart),
		T(dropped_records_are_seq_gaps_and_no_pulse_spans_them),
		T(records_lost_before_the_first_one_are_a_gap_too),
		T(an_edge_whose_write_failed_ends_no_measured_pulse),
		T(a_saturated_edge_counts_in_latency_but_not_in_widths),
		T(a_stall_past_16_bits_is_counted_in_full),
		T(missed_periods_of_dropped_records_still_count),
		T(a_warm_up_stall_is_counted_apart_in_full),
		T(two_writes_of_the_same_level_are_not_a_pulse),
		T(a_respond_pulse_starts_at_the_write_that_changed_the_pin),
		T(a_respond_write_of_the_idle_level_first_is_no_edge),
		T(no_respond_pulse_spans_a_failed_write_or_a_warm_up_start),
		T(the_runs_own_counts_at_the_stop_are_exact_and_never_lower),
		T(the_period_runs_from_rise_to_rise),
		T(the_live_copy_agrees_with_the_results),
		T(the_placement_error_is_the_write_midpoint_minus_intended),
		T(a_late_edge_after_missed_periods_never_looks_perfect),
	T(an_edge_window_wider_than_32_bits_bounds_the_pulses),
	T(a_negative_worst_placement_keeps_its_sign),
		T(spin_time_and_late_wake_ups_are_summed_from_the_records),
		T(a_million_edges_keep_every_count_exact),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
