/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the analog level finder and edge finder (src/lab/capture/capture_levels.c):
 * known traces, from balanced to a single rare pulse, noise, 0/1 data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <cmocka.h>

#include "capture/capture.h"
#include "capture/capture_levels.h"

static uint32_t rng = 1;

/* uniform noise in [-a, a] */
static double noise(double a)
{
	rng = rng * 1103515245u + 12345u;
	return ((double)(rng >> 8 & 0xffff) / 65535.0 - 0.5) * 2 * a;
}

/* Levels of n samples of a 0 V / 3.3 V wave high for @high of every @period. */
static struct capture_levels levels_of(size_t n, size_t period, size_t high, double a, size_t cap)
{
	struct capture_levelscan ls;
	struct capture_levels lv;

	assert_int_equal(capture_levelscan_init(&ls, cap), 0);
	for (size_t i = 0; i < n; i++)
		capture_levelscan_add(&ls, (i % period < high ? 3.3 : 0.0) + noise(a));
	capture_levels_from_scan(&ls, &lv);
	capture_levelscan_free(&ls);
	return lv;
}

static void a_balanced_wave_has_its_two_levels(void **state)
{
	struct capture_levels lv = levels_of(100000, 1000, 500, 0.02, 65536);

	(void)state;
	assert_true(lv.bimodal);
	assert_false(lv.rare);
	assert_true(fabs(lv.low) < 0.02 && fabs(lv.high - 3.3) < 0.02);
}

static void the_levels_do_not_depend_on_the_minority_share(void **state)
{
	/* 50 %, 5 %, 0.5 %, 0.05 % and a single 20-sample pulse in 10^6 */
	static const size_t high[] = { 5000, 500, 50, 5 };

	(void)state;
	for (size_t k = 0; k < 4; k++) {
		struct capture_levels lv = levels_of(1000000, 10000, high[k], 0.02, 65536);

		assert_true(lv.bimodal);
		assert_true(fabs(lv.low) < 0.05);
		assert_true(fabs(lv.high - 3.3) < 0.05);
	}
	{
		struct capture_levelscan ls;
		struct capture_levels lv;

		assert_int_equal(capture_levelscan_init(&ls, 4096), 0);
		for (size_t i = 0; i < 1000000; i++)
			capture_levelscan_add(&ls, (i >= 777777 && i < 777797 ? 3.3 : 0.0) + noise(0.02));
		capture_levels_from_scan(&ls, &lv);
		capture_levelscan_free(&ls);
		assert_true(lv.bimodal);
		assert_true(lv.rare);
		assert_true(fabs(lv.high - 3.3) < 0.05);
	}
}

static void noise_alone_has_one_level(void **state)
{
	struct capture_levels lv = levels_of(1000000, 10, 0, 0.05, 65536);

	(void)state;
	assert_false(lv.bimodal);
}

static void zero_one_data_needs_no_clustering(void **state)
{
	struct capture_levelscan ls;
	struct capture_levels lv;

	(void)state;
	assert_int_equal(capture_levelscan_init(&ls, 64), 0);
	for (size_t i = 0; i < 100000; i++)
		capture_levelscan_add(&ls, i == 99999 ? 1.0 : 0.0);
	capture_levels_from_scan(&ls, &lv);
	capture_levelscan_free(&ls);
	assert_true(lv.digital);
	assert_true(lv.bimodal);   /* one sample of the other level is enough */
	assert_true(lv.low == 0 && lv.high == 1);
}

static void the_kept_subset_covers_the_whole_trace_evenly(void **state)
{
	struct capture_levelscan ls;

	(void)state;
	assert_int_equal(capture_levelscan_init(&ls, 100), 0);
	for (size_t i = 0; i < 100000; i++)
		capture_levelscan_add(&ls, (double)i);
	/* every stride-th value from the start, the last ones near the end */
	assert_true(ls.n > 50 && ls.n <= 100);
	for (size_t k = 1; k < ls.n; k++)
		assert_true(ls.v[k] - ls.v[k - 1] == (double)ls.stride);
	assert_true(ls.v[ls.n - 1] > 100000 - 2 * (double)ls.stride);
	assert_true(ls.min == 0 && ls.max == 99999);
	capture_levelscan_free(&ls);
}

static void digital_edges_are_at_the_first_sample_analog_ones_interpolated(void **state)
{
	struct capture_analog a;
	double x;
	int lvl;

	(void)state;
	capture_analog_init(&a, 0.5, 0, 1);
	assert_int_equal(capture_analog_feed(&a, 0, 0, &x, &lvl), 0);
	assert_int_equal(capture_analog_feed(&a, 1, 0, &x, &lvl), 0);
	assert_int_equal(capture_analog_feed(&a, 2, 1, &x, &lvl), 1);
	assert_true(x == 2.0 && lvl == 1);
	capture_analog_init(&a, 1.65, 0.33, 0);
	assert_int_equal(capture_analog_feed(&a, 0, 0, &x, &lvl), 0);
	assert_int_equal(capture_analog_feed(&a, 1, 1.1, &x, &lvl), 0);
	assert_int_equal(capture_analog_feed(&a, 2, 3.3, &x, &lvl), 1);
	assert_true(fabs(x - 1.25) < 1e-12 && lvl == 1);
	/* noise inside the band makes no edge */
	assert_int_equal(capture_analog_feed(&a, 3, 1.7, &x, &lvl), 0);
	assert_int_equal(capture_analog_feed(&a, 4, 1.6, &x, &lvl), 0);
	assert_int_equal(capture_analog_feed(&a, 5, 1.7, &x, &lvl), 0);
}

/* The one rule for logic samples that may be unknown (X, x/z): the first
 * known level is no edge, a level back from unknown is no edge, and the
 * next change after unknown data is flagged as after a gap. */
static void unknown_logic_samples_are_gaps_never_edges(void **state)
{
	static const int in[] = { -1, 1, 1, 0, -1, 0, 1, 1, -1, 0, 0, 1 };
	static const int want[] = {
		CAPTURE_LOGIC_NONE, CAPTURE_LOGIC_FIRST, CAPTURE_LOGIC_NONE, CAPTURE_LOGIC_EDGE,
		CAPTURE_LOGIC_NONE, CAPTURE_LOGIC_NONE, CAPTURE_LOGIC_EDGE, CAPTURE_LOGIC_NONE,
		CAPTURE_LOGIC_NONE, CAPTURE_LOGIC_NONE, CAPTURE_LOGIC_NONE, CAPTURE_LOGIC_EDGE,
	};
	static const uint8_t flags[] = { 0, 0, 0, 0, 0, 0, CAPTURE_EDGE_F_AFTER_GAP, 0, 0, 0, 0,
					 CAPTURE_EDGE_F_AFTER_GAP };
	struct capture_logic g;
	size_t i;

	(void)state;
	capture_logic_reset(&g);
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		uint8_t f = 0xff;

		assert_int_equal(capture_logic_step(&g, in[i], &f), want[i]);
		if (want[i] == CAPTURE_LOGIC_EDGE)
			assert_int_equal(f, flags[i]);
		else
			assert_int_equal(f, 0xff);  /* untouched */
	}
	assert_int_equal(capture_logic_field("0", 1), 0);
	assert_int_equal(capture_logic_field("1", 1), 1);
	assert_int_equal(capture_logic_field("x", 1), -1);
	assert_int_equal(capture_logic_field("X", 1), -1);
	assert_int_equal(capture_logic_field("2", 1), -2);
	assert_int_equal(capture_logic_field("10", 2), -2);
	assert_int_equal(capture_logic_field("", 0), -2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_balanced_wave_has_its_two_levels),
		cmocka_unit_test(the_levels_do_not_depend_on_the_minority_share),
		cmocka_unit_test(noise_alone_has_one_level),
		cmocka_unit_test(zero_one_data_needs_no_clustering),
		cmocka_unit_test(the_kept_subset_covers_the_whole_trace_evenly),
		cmocka_unit_test(digital_edges_are_at_the_first_sample_analog_ones_interpolated),
		cmocka_unit_test(unknown_logic_samples_are_gaps_never_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
