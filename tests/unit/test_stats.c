/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stats: moments against a two-pass computation, histogram percentiles
 * against sorted samples, the cyclictest histogram format. */
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

#include "stats.h"

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

/* The nearest-rank percentile, as stats.h defines it. */
static int64_t exact_percentile(const int64_t *sorted, size_t n, double p)
{
	double x = p * (double)n / 100.0;
	size_t rank = (size_t)ceil(x - x * 1e-12);

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

static void buckets_tile_the_value_range_without_holes(void **state)
{
	size_t i, last = stats_hist_bucket_of(STATS_HIST_DEFAULT_HIGHEST);

	(void)state;
	assert_int_equal(stats_hist_bucket_low(0), 0);
	for (i = 0; i < last; i++) {
		int64_t lo = stats_hist_bucket_low(i), w = stats_hist_bucket_width(i);

		assert_int_equal(stats_hist_bucket_low(i + 1), lo + w);
		assert_int_equal(stats_hist_bucket_of(lo), i);
		assert_int_equal(stats_hist_bucket_of(lo + w - 1), i);
		/* the promise behind the error bound: a bucket is <= 1/128 of its values */
		if (lo >= 256)
			assert_true(w * 128 <= lo);
		else
			assert_int_equal(w, 1);
	}
}

static void small_values_are_exact(void **state)
{
	struct stats_hist h;
	int64_t v;
	int p;

	(void)state;
	assert_int_equal(stats_hist_init(&h, STATS_HIST_DEFAULT_HIGHEST), 0);
	for (v = 1; v <= 200; v++)
		stats_hist_add(&h, v);
	for (p = 1; p <= 100; p++)
		assert_int_equal(stats_hist_percentile(&h, p), 2 * p);
	stats_hist_free(&h);
}

static void percentiles_are_within_0_4_percent_of_sorted_samples(void **state)
{
	enum { N = 200000 };
	static int64_t v[N];
	static const double extra[] = { 0, 5, 10, 25, 75, 90, 95, 99.999, 100 };
	struct stats_hist h;
	size_t i;

	(void)state;
	assert_int_equal(stats_hist_init(&h, STATS_HIST_DEFAULT_HIGHEST), 0);
	for (i = 0; i < N; i++) {
		v[i] = rng_latency();
		stats_hist_add(&h, v[i]);
	}
	qsort(v, N, sizeof(v[0]), cmp_i64);
	for (i = 0; i < STATS_NPCT + sizeof(extra) / sizeof(extra[0]); i++) {
		double p = i < STATS_NPCT ? stats_pct[i] : extra[i - STATS_NPCT];
		int64_t want = exact_percentile(v, N, p);
		int64_t got = stats_hist_percentile(&h, p);
		int64_t err = got > want ? got - want : want - got;

		if (err * 256 > want) {
			print_error("p%g: got %" PRId64 ", exact %" PRId64 " (seed %" PRIu64 ")\n",
				    p, got, want, seed);
			fail();
		}
	}
	assert_int_equal(stats_hist_percentile(&h, 0), v[0]);
	assert_int_equal(stats_hist_percentile(&h, 100), v[N - 1]);
	stats_hist_free(&h);
}

static void overflows_are_counted_and_rank_as_the_exact_max(void **state)
{
	struct stats_hist h;
	int i;

	(void)state;
	assert_int_equal(stats_hist_init(&h, 1000000), 0);
	for (i = 0; i < 98; i++)
		stats_hist_add(&h, 200);
	stats_hist_add(&h, 5000000);
	stats_hist_add(&h, 7000001);
	assert_int_equal(h.overflow, 2);
	assert_int_equal(h.m.n, 100);
	assert_int_equal(h.m.max, 7000001);
	assert_int_equal(stats_hist_percentile(&h, 50), 200);
	assert_int_equal(stats_hist_percentile(&h, 99), 7000001);
	assert_int_equal(stats_hist_percentile(&h, 100), 7000001);
	stats_hist_free(&h);
}

static void negative_values_are_underflows_that_rank_as_the_exact_min(void **state)
{
	struct stats_hist h;
	int i;

	(void)state;
	assert_int_equal(stats_hist_init(&h, STATS_HIST_DEFAULT_HIGHEST), 0);
	stats_hist_add(&h, -7);
	for (i = 0; i < 99; i++)
		stats_hist_add(&h, 100);
	assert_int_equal(h.underflow, 1);
	assert_int_equal(stats_hist_percentile(&h, 1), -7);
	assert_int_equal(stats_hist_percentile(&h, 2), 100);
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
	assert_int_equal(stats_hist_init(&a, STATS_HIST_DEFAULT_HIGHEST), 0);
	assert_int_equal(stats_hist_init(&b, STATS_HIST_DEFAULT_HIGHEST), 0);
	assert_int_equal(stats_hist_init(&all, STATS_HIST_DEFAULT_HIGHEST), 0);
	for (i = 0; i < 10000; i++) {
		int64_t x = rng_latency();

		stats_hist_add(i & 1 ? &a : &b, x);
		stats_hist_add(&all, x);
	}
	stats_hist_merge(&a, &b);
	assert_int_equal(a.m.n, all.m.n);
	assert_int_equal(a.m.min, all.m.min);
	assert_int_equal(a.m.max, all.m.max);
	for (i = 0; i < STATS_NPCT; i++)
		assert_int_equal(stats_hist_percentile(&a, stats_pct[i]),
				 stats_hist_percentile(&all, stats_pct[i]));
	stats_hist_free(&a);
	stats_hist_free(&b);
	stats_hist_free(&all);
}

static void a_bad_highest_value_is_refused(void **state)
{
	struct stats_hist h;

	(void)state;
	assert_int_equal(stats_hist_init(&h, 10), -1);
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
		cmocka_unit_test(buckets_tile_the_value_range_without_holes),
		cmocka_unit_test(small_values_are_exact),
		cmocka_unit_test(percentiles_are_within_0_4_percent_of_sorted_samples),
		cmocka_unit_test(overflows_are_counted_and_rank_as_the_exact_max),
		cmocka_unit_test(negative_values_are_underflows_that_rank_as_the_exact_min),
		cmocka_unit_test(an_empty_histogram_reports_zero),
		cmocka_unit_test(merged_histograms_give_the_percentiles_of_all_samples),
		cmocka_unit_test(a_bad_highest_value_is_refused),
		cmocka_unit_test(the_linear_histogram_prints_like_cyclictest),
	};
	const char *env = getenv("SQW_SEED");

	seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
	rng_state = seed;
	printf("test_stats: seed %" PRIu64 " (set SQW_SEED to repeat)\n", seed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
