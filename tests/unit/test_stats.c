/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stats: moments against a two-pass computation, histogram percentiles
 * against sorted samples (positive, negative, straddling zero, centered, one
 * value, billions), exact ranks, the cyclictest histogram format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/stats.h"

static uint64_t seed;
static uint64_t rng_state;

/* splitmix64: small, good enough, reproducible from the printed seed. */
static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Latency-like values: mostly a few us, a long tail up to ~100 ms. */
static int64_t rng_latency(void)
{
	double u = (double)(rng() >> 11) / 9007199254740992.0;
	int shift = (int)(rng() % 28);

	return (int64_t)(u * (double)((int64_t)1 << shift));
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The nearest-rank percentile, as stats.h defines it: ceil(p / 100 * n),
 * computed in millionths of a percent with integers. */
static int64_t exact_percentile(const int64_t *sorted, size_t n, double p)
{
	uint64_t pm = (uint64_t)llround(p * 1e6);
	size_t rank = (size_t)(((uint64_t)n * pm + 99999999) / 100000000);

	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

static void moments_match_a_two_pass_computation(void **state)
{
	enum { N = 100000 };
	static int64_t v[N];
	struct stats_moments m;
	double sum = 0, ss = 0, mean;
	int64_t mn = INT64_MAX, mx = INT64_MIN;
	size_t i;

	(void)state;
	stats_moments_init(&m);
	for (i = 0; i < N; i++) {
		v[i] = 50000 + rng_latency() - 1000;
		stats_moments_add(&m, v[i]);
		sum += (double)v[i];
		mn = v[i] < mn ? v[i] : mn;
		mx = v[i] > mx ? v[i] : mx;
	}
	mean = sum / N;
	for (i = 0; i < N; i++)
		ss += ((double)v[i] - mean) * ((double)v[i] - mean);
	assert_int_equal(m.n, N);
	assert_int_equal(m.min, mn);
	assert_int_equal(m.max, mx);
	assert_true(fabs(stats_moments_mean(&m) - mean) < 1e-6 * fabs(mean) + 1e-9);
	assert_true(fabs(stats_moments_stddev(&m) - sqrt(ss / N)) < 1e-6 * sqrt(ss / N));
}

static void merged_moments_equal_one_pass_over_everything(void **state)
{
	struct stats_moments a, b, all;
	int i;

	(void)state;
	stats_moments_init(&a);
	stats_moments_init(&b);
	stats_moments_init(&all);
	for (i = 0; i < 1000; i++) {
		int64_t x = rng_latency();

		stats_moments_add(i < 300 ? &a : &b, x);
		stats_moments_add(&all, x);
	}
	stats_moments_merge(&a, &b);
	assert_int_equal(a.n, all.n);
	assert_int_equal(a.min, all.min);
	assert_int_equal(a.max, all.max);
	assert_true(fabs(stats_moments_mean(&a) - stats_moments_mean(&all)) <
		    1e-9 * fabs(stats_moments_mean(&all)) + 1e-9);
	assert_true(fabs(stats_moments_stddev(&a) - stats_moments_stddev(&all)) <
		    1e-9 * stats_moments_stddev(&all) + 1e-9);
}

static void empty_moments_have_no_mean_and_one_sample_has_no_spread(void **state)
{
	struct stats_moments m;

	(void)state;
	stats_moments_init(&m);
	assert_true(isnan(stats_moments_mean(&m)));
	assert_true(isnan(stats_moments_stddev(&m)));
	stats_moments_add(&m, -42);
	assert_true(stats_moments_mean(&m) == -42.0);
	assert_true(stats_moments_stddev(&m) == 0.0);
	assert_int_equal(m.min, -42);
	assert_int_equal(m.max, -42);
}

static void pages_tile_the_magnitudes_without_holes(void **state)
{
	unsigned pg, last;
	size_t idx, i;

	(void)state;
	last = stats_hist_slot_of((uint64_t)STATS_HIST_DEFAULT_HIGHEST, &idx);
	assert_int_equal(stats_hist_slot_low(0, 0), 0);
	for (pg = 0; pg <= last; pg++) {
		int64_t w = stats_hist_slot_width(pg);

		for (i = 0; i < (size_t)STATS_HIST_SUB; i++) {
			int64_t lo = stats_hist_slot_low(pg, i);
			int64_t next = i + 1 < (size_t)STATS_HIST_SUB ? stats_hist_slot_low(pg, i + 1)
								     : stats_hist_slot_low(pg + 1, 0);

			assert_int_equal(next, lo + w);
			assert_int_equal(stats_hist_slot_of((uint64_t)lo, &idx), pg);
			assert_int_equal(idx, i);
			assert_int_equal(stats_hist_slot_of((uint64_t)(lo + w - 1), &idx), pg);
			assert_int_equal(idx, i);
			/* the promise behind the error bound: a bucket is at most
			 * 1/8192 of its values wide, so its middle is within
			 * 1/16384 of each */
			if (pg)
				assert_true(w * STATS_HIST_SUB <= lo);
			else
				assert_int_equal(w, 1);
		}
	}
	/* the largest magnitude has a page too */
	assert_int_equal(stats_hist_slot_of((uint64_t)INT64_MAX, &idx), STATS_HIST_NPAGES - 1);
	assert_int_equal(idx, STATS_HIST_SUB - 1);
}

static void small_values_are_exact(void **state)
{
	struct stats_hist h;
	int64_t v, err;
	int p;

	(void)state;
	assert_int_equal(stats_hist_init(&h, STATS_HIST_DEFAULT_HIGHEST), 0);
	for (v = 1; v <= 200; v++)
		stats_hist_add(&h, v);
	for (p = 1; p <= 100; p++) {
		assert_int_equal(stats_hist_percentile_err(&h, p, &err), 2 * p);
		assert_int_equal(err, 0);
	}
	stats_hist_free(&h);
}

/* The tolerance of a recomputed figure: max(0.01 % of the value, 10 ns). */
static int64_t tolerance(int64_t v)
{
	double t = fabs((double)v) * 1e-4;

	return t > 10 ? (int64_t)t : 10;
}

/* Every percentile of @h against the sorted samples: the answer is within
 * its stated error of the exact order statistic, and the stated error is
 * within the tolerance. */
static void check_against_sorted(const struct stats_hist *h, int64_t *v, size_t n, const char *what)
{
	static const double extra[] = { 0, 0.001, 5, 10, 25, 33.3333, 75, 90, 95, 99.999, 100 };
	size_t i, k;

	qsort(v, n, sizeof(v[0]), cmp_i64);
	for (i = 0; i < STATS_NPCT + sizeof(extra) / sizeof(extra[0]) + 50; i++) {
		double p = i < STATS_NPCT ? stats_pct[i]
			 : i < STATS_NPCT + sizeof(extra) / sizeof(extra[0]) ? extra[i - STATS_NPCT]
			 : (double)(rng() % 1000001) / 10000.0;
		int64_t want = exact_percentile(v, n, p), err;
		int64_t got = stats_hist_percentile_err(h, p, &err);
		int64_t off = got > want ? got - want : want - got;

		if (off > err || err > tolerance(want)) {
			print_error("%s: p%g: got %" PRId64 " +- %" PRId64 ", exact %" PRId64
				    " (seed %" PRIu64 ")\n", what, p, got, err, want, seed);
			fail();
		}
	}
	assert_int_equal(stats_hist_percentile(h, 0), v[0]);
	assert_int_equal(stats_hist_percentile(h, 100), v[n - 1]);
	/* ranks one by one near the ends and the middle */
	for (k = 1; k <= 20; k++) {
		size_t ranks[3] = { k, n / 2 + k, n - k + 1 };
		size_t j;

		for (j = 0; j < 3; j++) {
			double p = 100.0 * (double)ranks[j] / (double)n;
			int64_t err, got = stats_hist_percentile_err(h, p, &err);
			int64_t want = exact_percentile(v, n, p);

			if ((got > want ? got - want : want - got) > err) {
				print_error("%s: rank %zu: got %" PRId64 " +- %" PRId64 ", exact %"
					    PRId64 " (seed %" PRIu64 ")\n", what, ranks[j], got, err,
					    want, seed);
				fail();
			}
		}
	}
}

enum { NSAMPLES = 200000 };
static int64_t samples[NSAMPLES];

static void positive_latencies_are_within_the_tolerance(void **state)
{
	struct stats_hist h;
	size_t i;

	(void)state;
	assert_int_equal(stats_hist_init(&h, STATS_HIST_DEFAULT_HIGHEST), 0);
	for (i = 0; i < NSAMPLES; i++) {
		samples[i] = rng_latency();
		stats_hist_add(&h, samples[i]);
	}
	check_against_sorted(&h, samples, NSAMPLES, "latencies");
	stats_hist_free(&h);
}

static void negative_values_are_within_the_tolerance(void **state)
{
	struct stats_hist h;
	size_t i;

	(void)state;
	assert_int_equal(stats_hist_init(&h, STATS_HIST_DEFAULT_HIGHEST), 0);
	for (i = 0; i < NSAMPLES; i++) {
		samples[i] = -1 - rng_latency();
		stats_hist_add(&h, samples[i]);
	}
	check_against_sorted(&h, samples, NSAMPLES, "negative");
	stats_hist_free(&h);
}

static void values_straddling_zero_are_within_the_tolerance(void **state)
{
	struct stats_hist h;
	size_t i;

	(void)state;
	assert_int_equal(stats_hist_init(&h, STATS_HIST_DEFAULT_HIGHEST), 0);
	for (i = 0; i < NSAMPLES; i++) {
		int64_t x = rng_latency();

		samples[i] = rng() & 1 ? x : -x;
		stats_hist_add(&h, samples[i]);
	}
	check_against_sorted(&h, samples, NSAMPLES, "straddling");
	stats_hist_free(&h);
}

/* The edge list: early edges down to -15.373 us, most within a
 * microsecond of the deadline. Every percentile was the minimum before. */
static void early_edges_have_their_own_percentiles(void **state)
{
	struct stats_hist h;
	int64_t err;
	int i;

	(void)state;
	assert_int_equal(stats_hist_init(&h, STATS_HIST_DEFAULT_HIGHEST), 0);
	stats_hist_add(&h, -15373);
	for (i = 0; i < 99; i++)
		stats_hist_add(&h, -11400);	/* ranks 2..100: p1 of 10000 is rank 100 */
	for (i = 0; i < 4900; i++)
		stats_hist_add(&h, -60 - i % 7);
	for (i = 0; i < 5000; i++)
		stats_hist_add(&h, 100 + i);
	assert_int_equal(stats_hist_percentile(&h, 0.01), -15373);
	assert_int_equal(stats_hist_percentile_err(&h, 1, &err), -11400);
	assert_int_equal(err, 0);
	assert_int_equal(stats_hist_percentile(&h, 50), -60);
	assert_int_equal(stats_hist_percentile(&h, 51), 199);
	assert_int_equal(stats_hist_percentile(&h, 100), 5099);
	stats_hist_free(&h);
}

static void pulse_widths_near_the_center_are_exact_and_far_ones_within_the_tolerance(void **state)
{
	struct stats_hist h;
	size_t i;
	int64_t err;

	(void)state;
	assert_int_equal(stats_hist_init_centered(&h, STATS_HIST_DEFAULT_HIGHEST, 500000), 0);
	for (i = 0; i < NSAMPLES; i++) {
		int64_t x = rng_latency();

		/* most within microseconds of 500 us, some anywhere from 0 up */
		samples[i] = (int64_t)(rng() % 8 ? 500000 + (rng() & 1 ? x % 20000 : -(x % 20000))
						  : (int64_t)(rng() % 3000000));
		stats_hist_add(&h, samples[i]);
	}
	check_against_sorted(&h, samples, NSAMPLES, "widths");
	stats_hist_reset(&h);
	/* a true 500.000 us median is 500.000, not a bucket's middle */
	for (i = 0; i < 1001; i++)
		stats_hist_add(&h, 499500 + (int64_t)i);
	assert_int_equal(stats_hist_percentile_err(&h, 50, &err), 500000);
	assert_int_equal(err, 0);
	stats_hist_free(&h);
}

static void one_value_is_every_percentile_exactly(void **state)
{
	static const int64_t vals[] = { 0, 1, -1, 500000, -123456789, INT64_C(1) << 40 };
	struct stats_hist h;
	size_t i, k;
	int64_t err;

	(void)state;
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		assert_int_equal(stats_hist_init(&h, STATS_HIST_DEFAULT_HIGHEST), 0);
		stats_hist_add(&h, vals[i]);
		for (k = 0; k < STATS_NPCT; k++) {
			assert_int_equal(stats_hist_percentile_err(&h, stats_pct[k], &err), vals[i]);
			assert_int_equal(err, 0);
		}
		stats_hist_free(&h);
	}
}

static void billions_of_values_rank_exactly(void **state)
{
	struct stats_hist h;
	const uint64_t big = 3000000000ull;	/* above 2^31 and 2^32 together */

	(void)state;
	assert_int_equal(stats_hist_init(&h, STATS_HIST_DEFAULT_HIGHEST), 0);
	stats_hist_add_n(&h, 10, big);
	stats_hist_add_n(&h, 20, big);
	stats_hist_add(&h, 1000000);
	assert_int_equal(h.m.n, 2 * big + 1);
	/* rank ceil(0.5 * 6000000001) = 3000000001: the first 20 */
	assert_int_equal(stats_hist_percentile(&h, 50), 20);
	assert_int_equal(stats_hist_percentile(&h, 49.99999), 10);
	assert_int_equal(stats_hist_percentile(&h, 99.99999), 20);
	assert_int_equal(stats_hist_percentile(&h, 100), 1000000);
	assert_true(fabs(stats_moments_mean(&h.m) - 15.000166666) < 1e-6);
	stats_hist_free(&h);
}

static void ranks_are_exact_for_decimal_percentages(void **state)
{
	static const double ps[] = { 0.01, 1, 7, 33.3333, 50, 99, 99.9, 99.99, 99.9999 };
	uint64_t n;
	size_t i;

	(void)state;
	assert_int_equal(stats_rank(7, 200), 14);
	assert_int_equal(stats_rank(99.9, 2000), 1998);
	assert_int_equal(stats_rank(0.01, 1), 1);
	assert_int_equal(stats_rank(0, 10), 1);
	assert_int_equal(stats_rank(100, 10), 10);
	assert_int_equal(stats_rank(50, UINT64_MAX), UINT64_MAX / 2 + 1);
	assert_int_equal(stats_rank(99.9999, UINT64_MAX), UINT64_MAX - UINT64_MAX / 1000000);
	/* against integer arithmetic where it cannot overflow */
	for (n = 1; n < 5000000000ull; n = n * 3 + 7) {
		for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
			uint64_t pm = (uint64_t)llround(ps[i] * 1e6);
			uint64_t want = (n * pm + 99999999) / 100000000;

			if (want < 1)
				want = 1;
			assert_int_equal(stats_rank(ps[i], n), want);
		}
	}
}

static void overflows_on_both_sides_rank_as_the_exact_extremes(void **state)
{
	struct stats_hist h;
	int64_t err;
	int i;

	(void)state;
	assert_int_equal(stats_hist_init(&h, 1000000), 0);
	stats_hist_add(&h, -9000000);
	for (i = 0; i < 97; i++)
		stats_hist_add(&h, 200);
	stats_hist_add(&h, 5000000);
	stats_hist_add(&h, 7000001);
	assert_int_equal(h.overflow, 3);
	assert_int_equal(h.m.n, 100);
	assert_int_equal(stats_hist_percentile(&h, 1), -9000000);
	assert_int_equal(stats_hist_percentile(&h, 50), 200);
	/* the exact max, but the rank-99 value is only known to be above the range */
	assert_int_equal(stats_hist_percentile_err(&h, 99, &err), 7000001);
	assert_int_equal(err, 7000001 - 1000001);
	assert_int_equal(stats_hist_percentile(&h, 100), 7000001);
	stats_hist_free(&h);
}

static void a_page_without_memory_still_counts_and_says_how_uncertain(void **state)
{
	struct stats_hist h;
	size_t i, idx;
	unsigned pg = stats_hist_slot_of(300000, &idx);

	(void)state;
	assert_int_equal(stats_hist_init(&h, STATS_HIST_DEFAULT_HIGHEST), 0);
	/* as if calloc had failed for the page of 262144..524287 */
	h.nopage[1][0] |= 1ull << pg;
	for (i = 0; i < 1000; i++) {
		samples[i] = i % 2 ? 300000 + (int64_t)i : 1000 + (int64_t)i;
		stats_hist_add(&h, samples[i]);
	}
	assert_int_equal(h.lost, 500);
	assert_null(h.page[1][0][pg]);
	qsort(samples, 1000, sizeof(samples[0]), cmp_i64);
	for (i = 1; i < 100; i++) {
		int64_t err, got = stats_hist_percentile_err(&h, (double)i, &err);
		int64_t want = exact_percentile(samples, 1000, (double)i);

		assert_true((got > want ? got - want : want - got) <= err);
		if (i <= 50)
			assert_int_equal(err, 0);	/* the other page is intact */
	}
	stats_hist_free(&h);
}

static void an_empty_histogram_reports_zero(void **state)
{
	struct stats_hist h;

	(void)state;
	assert_int_equal(stats_hist_init(&h, STATS_HIST_DEFAULT_HIGHEST), 0);
	assert_int_equal(stats_hist_percentile(&h, 50), 0);
	stats_hist_free(&h);
}

static void merged_histograms_give_the_percentiles_of_all_samples(void **state)
{
	struct stats_hist a, b, all;
	size_t i;

	(void)state;
	assert_int_equal(stats_hist_init_centered(&a, STATS_HIST_DEFAULT_HIGHEST, 100000), 0);
	assert_int_equal(stats_hist_init_centered(&b, STATS_HIST_DEFAULT_HIGHEST, 100000), 0);
	assert_int_equal(stats_hist_init_centered(&all, STATS_HIST_DEFAULT_HIGHEST, 100000), 0);
	for (i = 0; i < 10000; i++) {
		int64_t x = rng() & 1 ? rng_latency() : -rng_latency();

		stats_hist_add(i & 1 ? &a : &b, x);
		stats_hist_add(&all, x);
	}
	stats_hist_merge(&a, &b);
	assert_int_equal(a.m.n, all.m.n);
	assert_int_equal(a.m.min, all.m.min);
	assert_int_equal(a.m.max, all.m.max);
	for (i = 0; i < STATS_NPCT; i++) {
		int64_t ea, eb;

		assert_int_equal(stats_hist_percentile_err(&a, stats_pct[i], &ea),
				 stats_hist_percentile_err(&all, stats_pct[i], &eb));
		assert_int_equal(ea, eb);
	}
	stats_hist_free(&a);
	stats_hist_free(&b);
	stats_hist_free(&all);
}

static void bad_layouts_are_refused(void **state)
{
	struct stats_hist h;

	(void)state;
	assert_int_equal(stats_hist_init(&h, 10), -1);
	assert_int_equal(stats_hist_init_centered(&h, 1000000, -1), -1);
	assert_int_equal(stats_hist_init_centered(&h, 1000000, 1000001), -1);
}

static void the_linear_histogram_prints_like_cyclictest(void **state)
{
	struct stats_linhist h;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(stats_linhist_init(&h, 4, 1000, 2), 0);
	stats_linhist_add(&h, 1500);  /* bucket 1 */
	stats_linhist_add(&h, 1999);  /* bucket 1 */
	stats_linhist_add(&h, 3000);  /* bucket 3 */
	stats_linhist_add(&h, 4000);  /* overflow, sample 3 */
	stats_linhist_add(&h, 9000);  /* overflow, sample 4 */
	stats_linhist_add(&h, 12000); /* overflow, sample 5: not remembered */
	f = open_memstream(&out, &len);
	assert_non_null(f);
	stats_linhist_print(f, &h);
	fclose(f);
	assert_string_equal(out,
			    "# Histogram\n"
			    "000000 000000\n"
			    "000001 000002\n"
			    "000002 000000\n"
			    "000003 000001\n"
			    "# Total: 000000003\n"
			    "# Min Latencies: 00001\n"
			    "# Avg Latencies: 00005\n"
			    "# Max Latencies: 00012\n"
			    "# Histogram Overflows: 00003\n"
			    "# Histogram Overflow at cycle number:\n"
			    "# Thread 0: 00003 00004 # 00001 others\n"
			    "\n");
	free(out);
	stats_linhist_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(moments_match_a_two_pass_computation),
		cmocka_unit_test(merged_moments_equal_one_pass_over_everything),
		cmocka_unit_test(empty_moments_have_no_mean_and_one_sample_has_no_spread),
		cmocka_unit_test(pages_tile_the_magnitudes_without_holes),
		cmocka_unit_test(small_values_are_exact),
		cmocka_unit_test(positive_latencies_are_within_the_tolerance),
		cmocka_unit_test(negative_values_are_within_the_tolerance),
		cmocka_unit_test(values_straddling_zero_are_within_the_tolerance),
		cmocka_unit_test(early_edges_have_their_own_percentiles),
		cmocka_unit_test(pulse_widths_near_the_center_are_exact_and_far_ones_within_the_tolerance),
		cmocka_unit_test(one_value_is_every_percentile_exactly),
		cmocka_unit_test(billions_of_values_rank_exactly),
		cmocka_unit_test(ranks_are_exact_for_decimal_percentages),
		cmocka_unit_test(overflows_on_both_sides_rank_as_the_exact_extremes),
		cmocka_unit_test(a_page_without_memory_still_counts_and_says_how_uncertain),
		cmocka_unit_test(an_empty_histogram_reports_zero),
		cmocka_unit_test(merged_histograms_give_the_percentiles_of_all_samples),
		cmocka_unit_test(bad_layouts_are_refused),
		cmocka_unit_test(the_linear_histogram_prints_like_cyclictest),
	};
	const char *env = getenv("SQW_SEED");

	seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
	rng_state = seed;
	printf("test_stats: seed %" PRIu64 " (set SQW_SEED to repeat)\n", seed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
