/* SPDX-License-Identifier: GPL-2.0-or-later */
/* windows: figures per window of time on hand-built edge streams with
 * answers worked out here: boundaries, the partial last window, the worst
 * window with its edge and time, MTBF of limit crossings, missed periods
 * across a boundary, dropped records, a respond log. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "analysis/analyze.h"
#include "analysis/edgestats.h"
#include "analysis/windows.h"

#define HALF 500000                 /* 1 kHz */
#define WIN 10000000                /* 10 ms: 20 slots a window */
#define T0 1000000000000ull

struct fx {
	struct edgestats *es;
	struct windows *w;
};

static struct fx fx_new(bool respond, int64_t tmin, int64_t tmax, int64_t wake, int64_t resp)
{
	struct windows_opts o = { .window_ns = WIN, .half_period_ns = respond ? 0 : HALF,
				  .respond = respond };
	struct fx f = { edgestats_new(HALF), windows_new(&o) };

	assert_non_null(f.es);
	assert_non_null(f.w);
	if (respond)
		edgestats_set_respond(f.es, 0);
	windows_set_limits(f.w, tmin, tmax, wake, resp);
	return f;
}

static void fx_free(struct fx *f)
{
	edgestats_free(f->es);
	windows_free(f->w);
}

/* What the analysis hands the windows for each record. */
static void feed(struct fx *f, const struct edge_rec *e)
{
	struct edgestats_pulse p;
	enum edgestats_polarity pol;
	bool hp;

	edgestats_add(f->es, e);
	hp = edgestats_last_pulse(f->es, &p, &pol);
	windows_add(f->w, e, edgestats_last_missed(f->es), edgestats_last_latency(f->es),
		    hp ? &p : NULL);
}

/* Edge @seq at slot @slot, @lat ns late (wake and write alike). */
static struct edge_rec slot_edge(uint64_t seq, uint64_t slot, int32_t lat)
{
	struct edge_rec e = {
		.seq = seq,
		.intended_ns = T0 + slot * HALF,
		.wake_off_ns = lat,
		.write_begin_off_ns = lat,
		.write_end_off_ns = lat,
		.expirations = 1,
		.level = (uint8_t)(slot % 2 == 0),
	};
	return e;
}

/* @n edges on consecutive slots, each 1 us late except where @late says. */
static void run_of(struct fx *f, uint64_t n, const uint64_t *late_seq, const int32_t *late_ns,
		   size_t nlate)
{
	uint64_t i;
	size_t k;

	for (i = 0; i < n; i++) {
		int32_t lat = 1000;

		for (k = 0; k < nlate; k++)
			if (late_seq[k] == i)
				lat = late_ns[k];
		struct edge_rec e = slot_edge(i, i, lat);

		feed(f, &e);
	}
}

static void an_edge_exactly_on_a_boundary_opens_the_next_window(void **state)
{
	struct fx f = fx_new(false, 0, 0, 0, 0);
	struct windows_result r;

	(void)state;
	run_of(&f, 40, NULL, NULL, 0);	/* slots 0..39: edge 20 is at 10 ms exactly */
	windows_result(f.w, &r);
	assert_int_equal(r.nrows, 2);
	assert_int_equal(windows_row(f.w, 0)->edges, 20);
	assert_int_equal(windows_row(f.w, 1)->edges, 20);
	/* pulses are in the window of the edge that ends them */
	assert_int_equal(windows_row(f.w, 0)->pulses, 19);
	assert_int_equal(windows_row(f.w, 1)->pulses, 20);
	/* 40 slots of 0.5 ms: two whole windows, none partial */
	assert_int_equal(r.observed_ns, 2 * WIN);
	assert_false(r.last_partial);
	assert_int_equal(r.last_ns, WIN);
	fx_free(&f);
}

static void the_last_window_is_marked_partial_with_its_length(void **state)
{
	struct fx f = fx_new(false, 0, 0, 0, 0);
	struct windows_result r;

	(void)state;
	run_of(&f, 45, NULL, NULL, 0);
	windows_result(f.w, &r);
	assert_int_equal(r.nrows, 3);
	assert_int_equal(windows_row(f.w, 2)->edges, 5);
	assert_int_equal(r.observed_ns, 45 * HALF);
	assert_true(r.last_partial);
	assert_int_equal(r.last_ns, 5 * HALF);
	fx_free(&f);
}

static void the_worst_window_is_the_maximum_of_the_maxima_with_its_edge_and_time(void **state)
{
	/* window 0: seq 7 and 9 both 30 us late (a tie keeps the earlier);
	 * window 1: seq 25 80 us; window 2: seq 45 50 us */
	static const uint64_t seq[] = { 7, 9, 25, 45 };
	static const int32_t lat[] = { 30000, 30000, 80000, 50000 };
	struct fx f = fx_new(false, 0, 0, 0, 0);
	struct windows_result r;
	const struct windows_row *w0, *w1;

	(void)state;
	run_of(&f, 60, seq, lat, 4);
	windows_result(f.w, &r);
	w0 = windows_row(f.w, 0);
	w1 = windows_row(f.w, 1);
	assert_int_equal(r.nrows, 3);
	assert_true(w0->wake.have);
	assert_int_equal(w0->wake.value_ns, 30000);
	assert_int_equal(w0->wake.seq, 7);
	assert_int_equal(windows_row(f.w, 2)->wake.value_ns, 50000);
	assert_int_equal(r.worst_wake, 1);
	assert_int_equal(w1->wake.value_ns, 80000);
	assert_int_equal(w1->wake.seq, 25);
	assert_int_equal(w1->wake.t_ns, 25 * HALF);
	/* the longest pulse ends at the late edge, the shortest just after */
	assert_int_equal(r.worst_tmax, 1);
	assert_int_equal(w1->tmax.value_ns, HALF + 80000 - 1000);
	assert_int_equal(w1->tmax.seq, 25);
	assert_int_equal(r.worst_tmin, 1);
	assert_int_equal(w1->tmin.value_ns, HALF - 80000 + 1000);
	assert_int_equal(w1->tmin.seq, 26);
	assert_int_equal(w1->tmin.t_ns, 26 * HALF);
	/* window 0's own Tmax is its late edge's, not window 1's */
	assert_int_equal(w0->tmax.value_ns, HALF + 30000 - 1000);
	assert_int_equal(r.worst_missed, SIZE_MAX);
	fx_free(&f);
}

static void mtbf_is_observed_time_over_crossings_never_infinite(void **state)
{
	static const uint64_t one_seq[] = { 30 };
	static const int32_t one_lat[] = { 80000 };
	static const uint64_t three_seq[] = { 5, 30, 55 };
	static const int32_t three_lat[] = { 41000, 80000, 40001 };
	struct windows_result r;
	struct fx f;

	(void)state;
	/* no limit: no MTBF at all */
	f = fx_new(false, 0, 0, 0, 0);
	run_of(&f, 60, one_seq, one_lat, 1);
	windows_result(f.w, &r);
	assert_false(r.limits);
	assert_int_equal(r.crossings, 0);
	fx_free(&f);

	/* a limit and nothing crosses it: 0 crossings, no MTBF number */
	f = fx_new(false, 0, 0, 40000, 0);
	run_of(&f, 60, NULL, NULL, 0);
	windows_result(f.w, &r);
	assert_true(r.limits);
	assert_int_equal(r.crossings, 0);
	assert_true(r.mtbf_s == 0.0);
	fx_free(&f);

	/* one: the observed time itself */
	f = fx_new(false, 0, 0, 40000, 0);
	run_of(&f, 60, one_seq, one_lat, 1);
	windows_result(f.w, &r);
	assert_int_equal(r.crossings, 1);
	assert_int_equal(r.cross_wake, 1);
	assert_int_equal(windows_row(f.w, 1)->crossings, 1);
	assert_true(fabs(r.mtbf_s - 60 * HALF / 1e9) < 1e-12);
	fx_free(&f);

	/* three, one of them exactly on the limit + 1 ns; 40 us exactly would not count */
	f = fx_new(false, 0, 0, 40000, 0);
	run_of(&f, 60, three_seq, three_lat, 3);
	windows_result(f.w, &r);
	assert_int_equal(r.crossings, 3);
	assert_true(fabs(r.mtbf_s - 60 * HALF / 1e9 / 3) < 1e-12);
	assert_int_equal(windows_row(f.w, 0)->crossings, 1);
	assert_int_equal(windows_row(f.w, 2)->crossings, 1);
	fx_free(&f);
}

static void an_edge_that_breaks_two_limits_is_one_crossing(void **state)
{
	static const uint64_t seq[] = { 30 };
	static const int32_t lat[] = { 80000 };
	struct windows_result r;
	/* the late edge is 80 us late (wake limit 40 us) and ends a pulse of
	 * 579 us (tmax 550 us); the pulse after it is 421 us (tmin 450 us):
	 * two edges cross, three limits are broken */
	struct fx f = fx_new(false, 450000, 550000, 40000, 0);

	(void)state;
	run_of(&f, 60, seq, lat, 1);
	windows_result(f.w, &r);
	assert_int_equal(r.cross_wake, 1);
	assert_int_equal(r.cross_tmax, 1);
	assert_int_equal(r.cross_tmin, 1);
	assert_int_equal(r.crossings, 2);
	fx_free(&f);
}

static void missed_periods_across_a_boundary_count_in_both_windows(void **state)
{
	struct fx f = fx_new(false, 0, 0, 0, 0);
	struct windows_result r;
	uint64_t i;

	(void)state;
	/* slots 0..18, then the edge of slot 22 with 4 expirations: slots 19
	 * (9.5 ms, window 0), 20 and 21 (window 1) had no edge */
	for (i = 0; i < 19; i++) {
		struct edge_rec e = slot_edge(i, i, 1000);

		feed(&f, &e);
	}
	{
		struct edge_rec e = slot_edge(19, 22, 1000);

		e.expirations = 4;
		e.level = 1;	/* alternates with seq, as a real run's */
		feed(&f, &e);
	}
	for (i = 20; i < 45; i++) {
		struct edge_rec e = slot_edge(i, i + 3, 1000);

		e.level = (uint8_t)(i % 2 == 0);
		feed(&f, &e);
	}
	windows_result(f.w, &r);
	assert_int_equal(edgestats_result(f.es)->missed_periods, 3);
	assert_int_equal(windows_row(f.w, 0)->missed, 1);
	assert_int_equal(windows_row(f.w, 1)->missed, 2);
	assert_int_equal(windows_row(f.w, 2)->missed, 0);
	assert_int_equal(r.worst_missed, 1);
	/* the late edge's wake-up counts from the first slot it skipped */
	assert_int_equal(windows_row(f.w, 1)->wake.value_ns, 3 * HALF + 1000);
	assert_int_equal(windows_row(f.w, 1)->wake.seq, 19);
	fx_free(&f);
}

static void dropped_records_count_where_they_were_not_as_missed_periods(void **state)
{
	struct fx f = fx_new(false, 0, 0, 0, 0);
	uint64_t i;

	(void)state;
	/* seq 0..9 on slots 0..9, then seq 13 on slot 13: 3 records dropped */
	for (i = 0; i < 30; i++) {
		struct edge_rec e = slot_edge(i, i, 1000);

		if (i >= 10 && i < 13)
			continue;
		feed(&f, &e);
	}
	assert_int_equal(windows_row(f.w, 0)->dropped, 3);
	assert_int_equal(windows_row(f.w, 0)->missed, 0);
	assert_int_equal(windows_row(f.w, 1)->dropped, 0);
	/* the pulse across the gap is not measured */
	assert_int_equal(windows_row(f.w, 0)->pulses, 19 - 3 - 1);
	fx_free(&f);
}

static void warmup_edges_are_left_out_and_windows_start_at_the_first_counted(void **state)
{
	struct fx f = fx_new(false, 0, 0, 0, 0);
	struct windows_result r;
	uint64_t i;

	(void)state;
	for (i = 0; i < 30; i++) {
		struct edge_rec e = slot_edge(i, i, i < 5 ? 300000 : 1000);

		if (i < 5)
			e.flags |= EDGE_F_WARMUP;
		feed(&f, &e);
	}
	windows_result(f.w, &r);
	/* 25 counted edges from slot 5: window 0 is slots 5..24 */
	assert_int_equal(r.nrows, 2);
	assert_int_equal(windows_row(f.w, 0)->edges, 20);
	assert_int_equal(windows_row(f.w, 1)->edges, 5);
	assert_int_equal(windows_row(f.w, 0)->wake.value_ns, 1000);
	assert_int_equal(r.observed_ns, 25 * HALF);
	fx_free(&f);
}

/* A respond log: intended times are events; writes that answer none
 * (EDGE_F_NOEVENT) have no latency; lost events stay with their answer. */
static void a_respond_log_has_per_answer_figures_in_its_windows(void **state)
{
	/* events at 0, 3, 9.9, 10.2, 25 ms; each answer 20 us after its
	 * event, its end (a pulse's end, no event) 100 us later */
	static const uint64_t ev_us[] = { 0, 3000, 9900, 10200, 25000 };
	static const int32_t wake_us[] = { 5, 7, 40, 6, 9 };
	static const int32_t end_us[] = { 20, 22, 61, 21, 25 };
	struct fx f = fx_new(true, 0, 0, 0, 50000);
	struct windows_result r;
	uint64_t seq = 0;
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++) {
		struct edge_rec a = {
			.seq = seq++, .intended_ns = T0 + ev_us[i] * 1000,
			.wake_off_ns = wake_us[i] * 1000, .write_begin_off_ns = wake_us[i] * 1000 + 1000,
			.write_end_off_ns = end_us[i] * 1000, .expirations = i == 3 ? 3 : 1, .level = 1,
		};
		struct edge_rec b = a;

		feed(&f, &a);
		b.seq = seq++;
		b.flags = EDGE_F_NOEVENT;
		b.expirations = 1;
		b.level = 0;
		b.wake_off_ns = 900000;	/* would be the worst if it counted */
		b.write_begin_off_ns = 100000 + end_us[i] * 1000;
		b.write_end_off_ns = 101000 + end_us[i] * 1000;
		feed(&f, &b);
	}
	windows_result(f.w, &r);
	assert_int_equal(r.nrows, 3);
	assert_int_equal(windows_row(f.w, 0)->edges, 6);
	assert_int_equal(windows_row(f.w, 0)->wake.value_ns, 40000);
	assert_int_equal(windows_row(f.w, 0)->wake.seq, 4);
	assert_int_equal(windows_row(f.w, 0)->response.value_ns, 61000);
	/* two events lost before the answer at 10.2 ms: window 1, no grid */
	assert_int_equal(windows_row(f.w, 1)->missed, 2);
	assert_int_equal(windows_row(f.w, 0)->missed, 0);
	assert_int_equal(windows_row(f.w, 2)->response.value_ns, 25000);
	assert_int_equal(r.worst_response, 0);
	/* limits.response_max 50 us: one answer crosses it */
	assert_true(r.limits);
	assert_int_equal(r.cross_response, 1);
	assert_int_equal(r.crossings, 1);
	/* no half period in a respond log: the span of the events */
	assert_int_equal(r.observed_ns, 25000 * 1000);
	fx_free(&f);
}

/* A stall's windows are one row whatever its length: the rows grow with
 * the records, never with the time, and every missed slot is still in the
 * window its deadline falls in (20 slots a 10 ms window). */
static void a_stall_of_any_length_is_one_row_and_counts_every_slot(void **state)
{
	static const uint64_t stalls[] = { 42000000, 400000000000ull };
	size_t k;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct fx f = fx_new(false, 0, 0, 0, 0);
		struct windows_result r;
		const struct windows_row *st;
		uint64_t i, total = 0, slot = 19 + stalls[k];

		for (i = 0; i < 20; i++) {	/* slots 0..19: window 0 */
			struct edge_rec e = slot_edge(i, i, 1000);

			feed(&f, &e);
		}
		{	/* slots 20 .. slot-1 missed: windows 1 .. the edge's */
			struct edge_rec e = slot_edge(20, slot, 1000);

			e.expirations = UINT16_MAX;
			e.flags |= EDGE_F_SATURATED;
			e.level = 1;
			feed(&f, &e);
		}
		for (i = 21; i < 40; i++) {
			struct edge_rec e = slot_edge(i, slot + i - 20, 1000);

			e.level = (uint8_t)(i % 2 == 0);
			feed(&f, &e);
		}
		windows_result(f.w, &r);
		assert_int_equal(edgestats_result(f.es)->missed_periods, stalls[k] - 1);
		assert_int_equal(r.beyond, 0);
		/* window 0, the stall's windows, the edge's window and the next */
		assert_int_equal(r.nrows, 4);
		assert_int_equal(r.nwindows, (slot + 19) * HALF / WIN + 1);
		st = windows_row(f.w, 1);
		assert_int_equal(st->index, 1);
		assert_int_equal(st->edges, 0);
		assert_int_equal(st->windows, slot * HALF / WIN - 1);
		/* every window of the stall missed its 20 slots; the edge's own
		 * window the slots before it */
		assert_int_equal(st->missed, 20 * st->windows);
		assert_int_equal(st->missed_most, 20);
		assert_int_equal(st->missed_most_at, 1);
		assert_int_equal(windows_row(f.w, 2)->index, slot * HALF / WIN);
		assert_int_equal(windows_row(f.w, 2)->missed, slot % 20);
		for (i = 0; i < r.nrows; i++)
			total += windows_row(f.w, i)->missed;
		assert_int_equal(total, stalls[k] - 1);
		assert_int_equal(r.worst_missed, 1);
		fx_free(&f);
	}
}

/* Missed slots against a slot-by-slot count, for windows shorter and
 * longer than the half period and not a multiple of it: each row's total
 * and busiest window, no window with a slot left out, nothing beyond. */
static void missed_slots_land_where_a_slot_by_slot_count_puts_them(void **state)
{
	unsigned seed = (unsigned)time(NULL);
	int round;

	(void)state;
	print_message("seed %u\n", seed);
	srand(seed);
	for (round = 0; round < 300; round++) {
		/* windows from a quarter of the half period to about three */
		uint64_t hp = 1 + (uint64_t)(rand() % 1000);
		uint64_t wn = 1 + hp / 4 + (uint64_t)rand() % (3 * hp + 500);
		struct windows_opts o = { .window_ns = (int64_t)wn, .half_period_ns = (int64_t)hp };
		struct windows *w = windows_new(&o);
		uint64_t *ref, nref = 0, slot = 0, first_missed = (uint64_t)(rand() % 4), i, seq;
		struct windows_result r;

		assert_non_null(w);
		ref = calloc(400000, sizeof(*ref));
		assert_non_null(ref);
		for (seq = 0; seq < 30; seq++) {
			uint64_t n = seq == 0 ? first_missed
				     : rand() % 3 ? 0 : (uint64_t)(rand() % 2000);
			uint64_t j;
			struct edge_rec e = { .seq = seq, .expirations = 1 };

			slot += seq == 0 ? 0 : n + 1;
			e.intended_ns = T0 + slot * hp;
			/* the reference: each missed slot in its window, one
			 * before the first edge in window 0 */
			for (j = 1; j <= n; j++) {
				uint64_t at = slot * hp >= j * hp ? slot * hp - j * hp : 0;

				assert_true(at / wn < 400000);
				ref[at / wn]++;
			}
			if (slot * hp / wn + 1 > nref)
				nref = slot * hp / wn + 1;
			windows_add(w, &e, n, 0, NULL);
		}
		windows_result(w, &r);
		assert_int_equal(r.beyond, 0);
		assert_int_equal(r.nwindows, nref);
		{
			uint64_t next = 0;
			size_t k;

			for (k = 0; k < r.nrows; k++) {
				const struct windows_row *row = windows_row(w, k);
				uint64_t sum = 0, most = 0, most_at = row->index;

				/* the windows between rows hold no slot */
				for (i = next; i < row->index; i++)
					assert_int_equal(ref[i], 0);
				for (i = row->index; i < row->index + row->windows; i++) {
					sum += ref[i];
					if (ref[i] > most) {
						most = ref[i];
						most_at = i;
					}
				}
				if (row->missed != sum || row->missed_most != most ||
				    (most && row->missed_most_at != most_at))
					print_message("hp %" PRIu64 " wn %" PRIu64 " row %zu [%" PRIu64
						      "+%" PRIu64 "]: %" PRIu64 "/%" PRIu64 " most %"
						      PRIu64 "/%" PRIu64 " at %" PRIu64 "/%" PRIu64 "\n",
						      hp, wn, k, row->index, row->windows, row->missed,
						      sum, row->missed_most, most, row->missed_most_at,
						      most_at);
				assert_int_equal(row->missed, sum);
				assert_int_equal(row->missed_most, most);
				if (most)
					assert_int_equal(row->missed_most_at, most_at);
				/* a stall's row starts and ends on a window with a slot */
				if (row->windows > 1) {
					assert_int_equal(row->edges, 0);
					assert_true(ref[row->index] > 0);
					assert_true(ref[row->index + row->windows - 1] > 0);
				}
				next = row->index + row->windows;
			}
			assert_int_equal(next, nref);
		}
		free(ref);
		windows_free(w);
	}
}

static void the_analysis_feeds_its_windows(void **state)
{
	static const struct analyze_source_info src = {
		.kind = ANALYZE_SRC_LOG, .path = "test", .format = "test",
		.has_intended = true, .has_window = true, .half_period_ns = HALF,
	};
	struct analyze_opts o = { .hist_buckets = 10, .window_ns = WIN };
	struct analysis *a = analysis_new(&o, &src);
	struct windows_result r;
	uint64_t i;

	(void)state;
	assert_non_null(a);
	analysis_set_limits(a, 0, 0, 40000);
	for (i = 0; i < 30; i++) {
		struct edge_rec e = slot_edge(i, i, i == 22 ? 50000 : 1000);

		analysis_add(a, &e);
	}
	analysis_finish(a);
	windows_result(a->win, &r);
	assert_int_equal(r.window_ns, WIN);
	assert_int_equal(r.nrows, 2);
	assert_int_equal(r.worst_wake, 1);
	assert_int_equal(windows_row(a->win, 1)->wake.seq, 22);
	assert_int_equal(r.crossings, 1);
	analysis_free(a);

	/* unset: OSADL's five minutes */
	o.window_ns = 0;
	a = analysis_new(&o, &src);
	assert_non_null(a);
	assert_int_equal(a->win->o.window_ns, WINDOWS_DEFAULT_NS);
	analysis_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_edge_exactly_on_a_boundary_opens_the_next_window),
		cmocka_unit_test(the_last_window_is_marked_partial_with_its_length),
		cmocka_unit_test(the_worst_window_is_the_maximum_of_the_maxima_with_its_edge_and_time),
		cmocka_unit_test(mtbf_is_observed_time_over_crossings_never_infinite),
		cmocka_unit_test(an_edge_that_breaks_two_limits_is_one_crossing),
		cmocka_unit_test(missed_periods_across_a_boundary_count_in_both_windows),
		cmocka_unit_test(dropped_records_count_where_they_were_not_as_missed_periods),
		cmocka_unit_test(warmup_edges_are_left_out_and_windows_start_at_the_first_counted),
		cmocka_unit_test(a_respond_log_has_per_answer_figures_in_its_windows),
		cmocka_unit_test(a_stall_of_any_length_is_one_row_and_counts_every_slot),
		cmocka_unit_test(missed_slots_land_where_a_slot_by_slot_count_puts_them),
		cmocka_unit_test(the_analysis_feeds_its_windows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
