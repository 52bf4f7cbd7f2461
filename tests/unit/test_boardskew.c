/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for two boards on one grid (analysis/boardskew.c): edges join
 * on their grid instant only, the skew and the window bounds are per edge,
 * an injected clock offset lies in every edge's interval and in the common
 * one, and no check passes on what was not measured. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/boardskew.c"

#define HP 500000ull              /* half period, ns */
#define G0 1800000000000000000ull /* slot 0 on the grid, ns */
#define WB 20000                  /* write window after intended, ns */
#define WE 23000

/* Edge @k of a board: its pin changed @d_ns after intended (inside
 * [WB, WE]), seen by an analyzer whose clock reads @clock_ns behind the
 * board's grid clock. */
static struct side_edge edge(uint64_t k, int64_t d_ns, int64_t clock_ns)
{
	struct side_edge e;

	memset(&e, 0, sizeof(e));
	e.grid_ns = G0 + k * HP;
	e.cap_ps = ((int64_t)(k * HP) + d_ns - clock_ns) * 1000;
	e.seq = k;
	e.wb_off = WB;
	e.we_off = WE;
	e.level = (uint8_t)(k & 1);
	return e;
}

/* Boards A and B, @n edges each; B's grid clock @c_ns ahead of A's (its
 * pins change c earlier on the analyzer's time base). A's pin at the start
 * of its window, B's at the end, so the skew uses the windows fully. */
static void two(struct boardskew *s, size_t n, int64_t c_ns, int64_t max_skew)
{
	struct side_edge *a = calloc(n, sizeof(*a)), *b = calloc(n, sizeof(*b));
	size_t k;

	assert_non_null(a);
	assert_non_null(b);
	memset(s, 0, sizeof(*s));
	s->max_skew_ns = max_skew;
	s->resolution_ns = 10;
	s->slack_ns = 50;
	for (k = 0; k < n; k++) {
		a[k] = edge(k, WB, 0);
		b[k] = edge(k, WE, c_ns);
	}
	assert_int_equal(join(s, a, n, b, n, 0), 0);
	assert_int_equal(figures(s), 0);
	free(a);
	free(b);
}

static void test_edges_join_on_their_grid_instant_only(void **state)
{
	struct side_edge a[4], b[3];
	struct boardskew s;

	(void)state;
	memset(&s, 0, sizeof(s));
	a[0] = edge(0, WB, 0);
	a[1] = edge(1, WB, 0);
	a[2] = edge(3, WB, 0);    /* slot 2 missed by A */
	a[3] = edge(4, WB, 0);
	b[0] = edge(1, WB, 0);
	b[1] = edge(2, WB, 0);
	b[2] = edge(3, WB, 0);
	b[2].level = !a[2].level; /* after an odd number of missed slots */
	assert_int_equal(join(&s, a, 4, b, 3, 0), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.e[0].grid_ns, G0 + HP);
	assert_int_equal(s.e[1].grid_ns, G0 + 3 * HP);
	assert_int_equal(s.e[1].seq_a, 3);
	/* only inside the other board's span: A's slot 0 and 4 lie outside B's */
	assert_int_equal(s.only_a, 0);
	assert_int_equal(s.only_b, 1);
	assert_int_equal(s.opposite, 1);
	boardskew_free(&s);
}

static void test_skew_and_window_bounds_are_per_edge(void **state)
{
	struct boardskew s;

	(void)state;
	two(&s, 10, 0, 0);
	assert_int_equal(s.n, 10);
	/* B changed at WE, A at WB: s = WE - WB; windows allow [WB-WE, WE-WB] */
	assert_true(fabs(s.e[3].skew_ns - (WE - WB)) < 1e-6);
	assert_true(fabs(s.e[3].lo_ns - (WB - WE - 50)) < 1e-6);
	assert_true(fabs(s.e[3].hi_ns - (WE - WB + 50)) < 1e-6);
	assert_int_equal(s.beyond_windows, 0);
	assert_true(fabs(s.skew_max - (WE - WB)) < 1e-6);
	boardskew_free(&s);
}

static void test_an_injected_clock_offset_lies_in_every_interval(void **state)
{
	static const int64_t offsets[] = { 0, 2500, -2500, 7000, -40000 };
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
		struct boardskew s;
		double c = (double)offsets[i];

		two(&s, 50, offsets[i], 0);
		for (k = 0; k < s.n; k++) {
			assert_true(boardskew_clock_lo(&s.e[k]) <= c);
			assert_true(c <= boardskew_clock_hi(&s.e[k]));
		}
		assert_true(s.common);
		assert_true(s.common_lo_ns <= c && c <= s.common_hi_ns);
		assert_true(s.clock_lower_ns <= fabs(c) && fabs(c) <= s.clock_upper_ns);
		/* s = (WE - WB) - c lies in [-(WE - WB) - 50, (WE - WB) + 50]
		 * exactly when -50 <= c <= 2 (WE - WB) + 50 */
		assert_int_equal(s.beyond_windows, c < -50 || c > 2 * (WE - WB) + 50 ? s.n : 0);
		boardskew_free(&s);
	}
}

static void test_clocks_that_moved_have_no_common_offset(void **state)
{
	struct side_edge a[2], b[2];
	struct boardskew s;

	(void)state;
	memset(&s, 0, sizeof(s));
	a[0] = edge(0, WB, 0);
	a[1] = edge(1, WB, 0);
	b[0] = edge(0, WB, 0);
	b[1] = edge(1, WB, 100000);  /* B's clock jumped 100 us ahead */
	assert_int_equal(join(&s, a, 2, b, 2, 0), 0);
	assert_int_equal(figures(&s), 0);
	assert_false(s.common);
	assert_true(s.clock_lower_ns > 90000);
	boardskew_free(&s);
}

static void test_max_skew_is_judged_with_the_resolution_on_either_side(void **state)
{
	struct boardskew s;
	int64_t skew = WE - WB;   /* every edge's */

	(void)state;
	two(&s, 10, 0, skew + 10);      /* |s| + res <= L */
	assert_int_equal(s.skew_check, BOARDSKEW_PASS);
	boardskew_free(&s);
	two(&s, 10, 0, skew + 9);       /* inside the resolution */
	assert_int_equal(s.skew_check, BOARDSKEW_INCONCLUSIVE);
	boardskew_free(&s);
	two(&s, 10, 0, skew - 10);      /* |s| - res == L: not over */
	assert_int_equal(s.skew_check, BOARDSKEW_INCONCLUSIVE);
	assert_int_equal(s.skew_over, 0);
	boardskew_free(&s);
	two(&s, 10, 0, skew - 11);
	assert_int_equal(s.skew_check, BOARDSKEW_FAIL);
	assert_int_equal(s.skew_over, 10);
	boardskew_free(&s);
	two(&s, 10, 0, 0);
	assert_int_equal(s.skew_check, BOARDSKEW_NONE);
	boardskew_free(&s);
}

static struct run_grid grid(bool known, bool synced, long maxerror_us, unsigned steps)
{
	struct run_grid g;

	memset(&g, 0, sizeof(g));
	g.clock = "realtime";
	g.sync_known = known;
	g.sync.synced = synced;
	g.sync.maxerror_us = maxerror_us;
	g.steps = steps;
	return g;
}

/* The clock check of boards B ahead by @c_ns, both claiming @err_us. */
static enum boardskew_check clock_check(int64_t c_ns, long err_us, struct boardskew *s)
{
	struct run_grid ga = grid(true, true, err_us, 0), gb = grid(true, true, err_us, 0);

	two(s, 20, c_ns, 0);
	clock_claim(&ga, &gb, s);
	judge(s, 0);
	boardskew_free(s);
	return s->clock_check;
}

static void test_the_claimed_clock_error_is_judged_by_both_bounds(void **state)
{
	struct boardskew s;

	(void)state;
	/* upper bound 2 x 3 us + slack = 6.05 us; E = 2 x 4 us */
	assert_int_equal(clock_check(0, 4, &s), BOARDSKEW_PASS);
	assert_true(fabs(s.clock_bound_ns - 8000) < 1e-6);
	/* E = 2 x 2 us: below what the windows allow, above what is proven */
	assert_int_equal(clock_check(0, 2, &s), BOARDSKEW_INCONCLUSIVE);
	/* 30 us apart: at least 30 - 6.05 us proven, E = 2 x 10 us */
	assert_int_equal(clock_check(30000, 10, &s), BOARDSKEW_FAIL);
	assert_int_equal(clock_check(-30000, 10, &s), BOARDSKEW_FAIL);
}

static void test_a_clock_that_claims_nothing_skips_the_check_and_says_why(void **state)
{
	struct run_grid ok = grid(true, true, 5, 0);
	struct run_grid bad[3] = { grid(false, false, 0, 0), grid(true, false, 16000000, 0),
				   grid(true, true, 5, 1) };
	const char *why[3] = { "no clock sync state", "not synchronised", "stepped" };
	struct boardskew s;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		two(&s, 10, 0, 0);
		clock_claim(&ok, &bad[i], &s);
		judge(&s, 0);
		assert_int_equal(s.clock_check, BOARDSKEW_SKIP);
		assert_non_null(strstr(s.clock_skip, "board B"));
		assert_non_null(strstr(s.clock_skip, why[i]));
		assert_true(s.clock_bound_ns < 0);
		boardskew_free(&s);
	}
}

static void test_no_joined_edge_passes_no_check(void **state)
{
	struct side_edge a[2] = { edge(0, WB, 0), edge(2, WB, 0) };
	struct side_edge b[2] = { edge(1, WB, 0), edge(3, WB, 0) };
	struct run_grid g = grid(true, true, 5, 0);
	struct boardskew s;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.max_skew_ns = 1000000;
	clock_claim(&g, &g, &s);
	assert_int_equal(join(&s, a, 2, b, 2, 0), 0);
	assert_int_equal(figures(&s), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.only_a + s.only_b, 2);
	assert_int_equal(s.skew_check, BOARDSKEW_INCONCLUSIVE);
	assert_int_equal(s.clock_check, BOARDSKEW_INCONCLUSIVE);
	assert_true(isnan(s.skew_max));
	boardskew_free(&s);
}

static void test_the_analyzers_drift_is_taken_out_of_the_skew(void **state)
{
	struct side_edge a[1] = { edge(0, WB, 0) }, b[1] = { edge(0, WB, 0) };
	struct boardskew s;

	(void)state;
	memset(&s, 0, sizeof(s));
	b[0].cap_ps = a[0].cap_ps + 1000000 * 1000ll;   /* 1 ms on the analyzer */
	assert_int_equal(join(&s, a, 1, b, 1, 100), 0);  /* it runs 100 ppm fast */
	assert_true(fabs(s.e[0].skew_ns - 1000000 / 1.0001) < 1e-3);
	boardskew_free(&s);
}

static void a_phase_meant_between_the_boards_is_not_skew(void **state)
{
	struct side_edge a[3], b[3];
	struct boardskew s;
	size_t k;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.phase_diff_ns = 100000;   /* B runs 100 us after A on purpose */
	for (k = 0; k < 3; k++) {
		a[k] = edge(k, WB, 0);
		b[k] = edge(k, WB, 0);
		b[k].cap_ps += 100000 * 1000ll;
	}
	assert_int_equal(join(&s, a, 3, b, 3, 0), 0);
	assert_int_equal(figures(&s), 0);
	assert_int_equal(s.n, 3);
	for (k = 0; k < 3; k++)
		assert_true(fabs(s.e[k].skew_ns) < 1e-6);
	assert_true(s.common_lo_ns <= 0 && 0 <= s.common_hi_ns);
	boardskew_free(&s);
}

/* A board off the shared grid is refused in one sentence that names it;
 * cut to the caller's buffer (base/msgbuf), it ends in "...". */
static void a_board_off_the_shared_grid_is_refused_in_a_marked_sentence(void **state)
{
	struct compare_opts oa, ob;
	struct compare ca, cb;
	struct boardskew_side a = { &ca, NULL }, b = { &cb, NULL };
	struct boardskew s;
	char err[512], small[24];

	(void)state;
	memset(&ca, 0, sizeof(ca));
	memset(&cb, 0, sizeof(cb));
	memset(&oa, 0, sizeof(oa));
	memset(&ob, 0, sizeof(ob));
	oa.run = "a.sqwlog";
	ob.run = "b.sqwlog";
	ca.o = &oa;
	cb.o = &ob;
	assert_int_equal(boardskew_compute(&a, &b, 0, &s, err, sizeof(err)), BOARDSKEW_E_INPUT);
	assert_string_equal(err, "board A (a.sqwlog) is not on a shared grid (grid.clock "
			    "monotonic): two boards' edges meet only on one; run both with "
			    "--grid realtime (docs/grid.md)");
	assert_int_equal(boardskew_compute(&a, &b, 0, &s, small, sizeof(small)),
			 BOARDSKEW_E_INPUT);
	assert_string_equal(small, "board A (a.sqwlog) i...");
	assert_int_equal(boardskew_compute(&a, &b, 0, &s, NULL, 0), BOARDSKEW_E_INPUT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges_join_on_their_grid_instant_only),
		cmocka_unit_test(test_skew_and_window_bounds_are_per_edge),
		cmocka_unit_test(test_an_injected_clock_offset_lies_in_every_interval),
		cmocka_unit_test(test_clocks_that_moved_have_no_common_offset),
		cmocka_unit_test(test_max_skew_is_judged_with_the_resolution_on_either_side),
		cmocka_unit_test(test_the_claimed_clock_error_is_judged_by_both_bounds),
		cmocka_unit_test(test_a_clock_that_claims_nothing_skips_the_check_and_says_why),
		cmocka_unit_test(test_no_joined_edge_passes_no_check),
		cmocka_unit_test(test_the_analyzers_drift_is_taken_out_of_the_skew),
		cmocka_unit_test(a_phase_meant_between_the_boards_is_not_skew),
		cmocka_unit_test(a_board_off_the_shared_grid_is_refused_in_a_marked_sentence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
