/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the persistence view: a perfect wave lies on its nominal
 * edges, a late edge shows where it was, gaps and the first window are not
 * counted, and an unknown half period is found from the changes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/persist.h"

#define H 500000LL  /* half period */

/* Bin of time @x from the reference. */
static size_t bin(const struct persist_view *v, int64_t x)
{
	return (size_t)((x - v->x0_ns) * (int64_t)v->nbins / v->span_ns);
}

/* @n edges on the grid, each @lat late (edge @late_at @extra more). */
static void wave(struct persist *p, int n, int64_t lat, int late_at, int64_t extra, bool ref)
{
	int i;

	for (i = 0; i < n; i++) {
		int64_t intended = 1000000000LL + i * H;
		int64_t t = intended + lat + (i == late_at ? extra : 0);

		persist_add(p, t, ref ? intended : t, i % 2 == 0, true, false);
	}
}

static void a_perfect_wave_lies_on_its_nominal_edges(void **state)
{
	struct persist *p = persist_new(H, true);
	const struct persist_view *v;
	size_t i;

	(void)state;
	assert_non_null(p);
	wave(p, 41, 0, -1, 0, true);
	persist_finish(p);
	v = persist_view(p);
	assert_int_equal(v->nbins, PERSIST_BINS);
	assert_int_equal(v->x0_ns, -H / 2);
	assert_int_equal(v->span_ns, 3 * H);
	/* 20 rising edges; the first has no known level before it, the last
	 * ones reach past the end */
	assert_int_equal(v->skipped, 1);
	assert_true(v->windows >= 17 && v->windows <= 19);
	/* low before the rise, high until the fall, low until the next rise */
	assert_int_equal(v->low[bin(v, -H / 4)], v->windows);
	assert_int_equal(v->high[bin(v, -H / 4)], 0);
	assert_int_equal(v->high[bin(v, H / 2)], v->windows);
	assert_int_equal(v->low[bin(v, 3 * H / 2)], v->windows);
	assert_int_equal(v->high[bin(v, 2 * H + H / 4)], v->windows);
	/* every window has its three changes at 0, H and 2H */
	assert_int_equal(v->edges[bin(v, 0)], v->windows);
	assert_int_equal(v->edges[bin(v, H)], v->windows);
	assert_int_equal(v->edges[bin(v, 2 * H)], v->windows);
	for (i = 0; i < v->nbins; i++)
		assert_true(v->high[i] + v->low[i] >= v->windows);
	persist_free(p);
}

/* Every edge H/10 late: a scope triggered on the pin's rise (the default
 * reference) shows the rise at 0, the intended grid shows it at +H/10; the
 * view says which it is. */
static void the_rise_is_the_trigger_unless_the_intended_grid_is_asked_for(void **state)
{
	struct persist *scope = persist_new(H, false), *grid = persist_new(H, true);
	const struct persist_view *v, *g;

	(void)state;
	assert_non_null(scope);
	assert_non_null(grid);
	wave(scope, 41, H / 10, -1, 0, true);
	wave(grid, 41, H / 10, -1, 0, true);
	persist_finish(scope);
	persist_finish(grid);
	v = persist_view(scope);
	g = persist_view(grid);
	assert_false(v->intended_ref);
	assert_true(g->intended_ref);
	assert_true(v->windows > 0 && g->windows > 0);
	assert_int_equal(v->edges[bin(v, 0)], v->windows);
	assert_int_equal(v->edges[bin(v, H / 10)], 0);
	assert_int_equal(g->edges[bin(g, H / 10)], g->windows);
	assert_int_equal(g->edges[bin(g, 0)], 0);
	persist_free(scope);
	persist_free(grid);
}

static void a_late_falling_edge_shows_where_it_was(void **state)
{
	struct persist *p = persist_new(H, true);
	const struct persist_view *v;

	(void)state;
	/* edge 21 (a fall) is 100 us late: one window has its fall at H + 100us */
	wave(p, 41, 20000, 21, 100000, true);
	persist_finish(p);
	v = persist_view(p);
	assert_int_equal(v->edges[bin(v, H + 20000 + 100000)], 1);
	assert_int_equal(v->edges[bin(v, H + 20000)], v->windows - 1);
	/* the rise, relative to the intended edge, shows the latency */
	assert_int_equal(v->edges[bin(v, 20000)], v->windows);
	assert_int_equal(v->edges[bin(v, 0)], 0);
	/* just after the nominal fall, one window was still high */
	assert_int_equal(v->high[bin(v, H + 60000)], 1);
	persist_free(p);
}

static void a_gap_drops_the_windows_across_it(void **state)
{
	struct persist *p = persist_new(H, true), *q = persist_new(H, true);
	const struct persist_view *v, *w;
	int i;

	(void)state;
	for (i = 0; i < 41; i++) {
		int64_t t = 1000000000LL + i * H;

		persist_add(p, t, t, i % 2 == 0, true, i == 20);
		persist_add(q, t, t, i % 2 == 0, true, false);
	}
	persist_finish(p);
	persist_finish(q);
	v = persist_view(p);
	w = persist_view(q);
	assert_true(v->windows < w->windows);
	assert_true(v->skipped > w->skipped);
	persist_free(p);
	persist_free(q);
}

static void the_warm_up_opens_no_window_but_gives_the_level(void **state)
{
	struct persist *p = persist_new(H, true);
	const struct persist_view *v;
	int i;

	(void)state;
	for (i = 0; i < 9; i++) {
		int64_t t = 1000000000LL + i * H;

		persist_add(p, t, t, i % 2 == 0, i >= 4, false);
	}
	persist_finish(p);
	v = persist_view(p);
	/* rising edge 4 is counted (6's and 8's windows reach past the last
	 * change), and the warm-up's last fall gives the level at its start;
	 * the warm-up's own rising edges open none */
	assert_int_equal(v->windows, 1);
	assert_int_equal(v->skipped, 0);
	persist_free(p);
}

static void an_unknown_half_period_is_found_from_the_changes(void **state)
{
	struct persist *p = persist_new(0, false);
	const struct persist_view *v;

	(void)state;
	/* a capture: no intended times, one late edge among the first ones */
	wave(p, 101, 0, 5, 70000, false);
	persist_finish(p);
	v = persist_view(p);
	assert_int_equal(v->half_ns, H);
	assert_true(v->windows > 40);
	/* triggered on the rise itself: every rise is at 0 */
	assert_int_equal(v->edges[bin(v, 0)], v->windows);
	persist_free(p);
}

static void too_few_changes_give_no_view(void **state)
{
	struct persist *p = persist_new(0, false);

	(void)state;
	persist_add(p, 100, 100, 1, true, false);
	persist_finish(p);
	assert_int_equal(persist_view(p)->nbins, 0);
	persist_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_perfect_wave_lies_on_its_nominal_edges),
		cmocka_unit_test(the_rise_is_the_trigger_unless_the_intended_grid_is_asked_for),
		cmocka_unit_test(a_late_falling_edge_shows_where_it_was),
		cmocka_unit_test(a_gap_drops_the_windows_across_it),
		cmocka_unit_test(the_warm_up_opens_no_window_but_gives_the_level),
		cmocka_unit_test(an_unknown_half_period_is_found_from_the_changes),
		cmocka_unit_test(too_few_changes_give_no_view),
	};

	return cmocka_run_group_tests_name("persist", tests, NULL, NULL);
}
