/* SPDX-License-Identifier: GPL-2.0-or-later */
/* statsjson: the binned "histogram" of a distribution counts every value
 * once (bins plus below/above and shorter/longer add up to the count),
 * whatever its range, and keeps bins fine enough for the bulk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/edgestats.h"
#include "base/json.h"
#include "base/stats.h"
#include "report/statsjson.h"

/* statsjson_widths's JSON of pulse widths @h (the "any" polarity, the one
 * with a histogram), as a string (caller frees). */
static char *dist_json(const struct stats_hist *h)
{
	struct edgestats_widths wd;
	struct json_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	json_init(&w, f);
	memset(&wd, 0, sizeof(wd));
	wd.h = *h;	/* shares the pages: read only */
	json_object_begin(&w);
	statsjson_widths(&w, "any", &wd);
	json_object_end(&w);
	assert_int_equal(json_finish(&w), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The integer member @key of the histogram in @js. */
static int64_t hist_member(const char *js, const char *key)
{
	const char *h = strstr(js, "\"histogram\""), *m;
	char k[32];

	assert_non_null(h);
	snprintf(k, sizeof(k), "\"%s\": ", key);
	m = strstr(h, k);
	assert_non_null(m);
	return strtoll(m + strlen(k), NULL, 10);
}

/* The sum of the histogram's bins, below and above, shorter and longer;
 * the number of bins in *@nbins (when not NULL). */
static uint64_t binned_total_n(const char *js, size_t *nbins)
{
	const char *h = strstr(js, "\"histogram\""), *c;
	uint64_t total, v;
	size_t n = 0;
	char *end;

	assert_non_null(h);
	c = strstr(h, "\"counts\": [");
	assert_non_null(c);
	c += 11;
	total = (uint64_t)(hist_member(js, "below") + hist_member(js, "above") +
			   hist_member(js, "shorter") + hist_member(js, "longer"));
	while (*c && *c != ']') {
		v = strtoull(c, &end, 10);
		assert_true(end != c);
		total += v;
		n++;
		c = end;
		while (*c == ',' || *c == ' ' || *c == '\n' || *c == '\t')
			c++;
	}
	if (nbins)
		*nbins = n;
	return total;
}

static uint64_t binned_total(const char *js)
{
	return binned_total_n(js, NULL);
}

/* The extremes sit just above a bin boundary, where the 0.01 % wide bucket
 * holding them has its middle below the first bin (or beyond the last). */
static void every_value_lands_in_a_bin_even_at_the_edges_of_the_range(void **state)
{
	static const int64_t lows[] = { 1000001, 1000010, 1000049, 499999, 500001, 20000001 };
	static const int64_t spans[] = { 3000, 99000000, 1234567, 40000000 };
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(lows) / sizeof(lows[0]); i++)
		for (j = 0; j < sizeof(spans) / sizeof(spans[0]); j++) {
			struct stats_hist h;
			uint64_t k, n = 0;
			char *js;

			assert_int_equal(stats_hist_init(&h, 1000000000), 0);
			stats_hist_add(&h, lows[i]);
			stats_hist_add(&h, lows[i] + spans[j]);
			n = 2;
			for (k = 1; k < 50; k++, n++)
				stats_hist_add(&h, lows[i] + (int64_t)(k * (uint64_t)spans[j] / 50));
			js = dist_json(&h);
			if (binned_total(js) != n)
				print_error("low %" PRId64 ", span %" PRId64 ": %s\n", lows[i], spans[j], js);
			assert_int_equal(binned_total(js), n);
			free(js);
			stats_hist_free(&h);
		}
}

/* Values beyond the histogram's range are counted in below/above. */
static void values_beyond_the_range_are_below_or_above(void **state)
{
	struct stats_hist h;
	char *js;

	(void)state;
	assert_int_equal(stats_hist_init(&h, 10000), 0);
	stats_hist_add(&h, 5000);
	stats_hist_add(&h, 6000);
	stats_hist_add(&h, 20000);
	stats_hist_add(&h, -30000);
	js = dist_json(&h);
	assert_non_null(strstr(js, "\"below\": 1,"));
	assert_non_null(strstr(js, "\"above\": 1,"));
	assert_int_equal(binned_total(js), 4);
	free(js);
	stats_hist_free(&h);
}

/* An hour's pulses around 500 us and a few 2 s stalls: bins of 1 ms
 * from the minimum to the maximum would hold the whole bulk in one. The
 * bins cover the bulk finely instead, and the stalls are counted longer
 * (and the few shortest, far below, shorter); every pulse is counted once. */
static void a_stall_is_counted_longer_and_the_bulk_keeps_fine_bins(void **state)
{
	struct stats_hist h;
	int64_t p_lo, p_hi, lo, bin;
	uint64_t k, n = 0;
	size_t nbins;
	char *js;

	(void)state;
	assert_int_equal(stats_hist_init(&h, 10000000000), 0);
	for (k = 0; k < 100000; k++, n++)
		stats_hist_add(&h, 480000 + (int64_t)(k * 7919 % 40000));
	for (k = 0; k < 3; k++, n++)
		stats_hist_add(&h, 2000000000 + (int64_t)k * 1000);
	stats_hist_add(&h, 15000);
	n++;
	js = dist_json(&h);
	p_lo = stats_hist_percentile(&h, 0.5);
	p_hi = stats_hist_percentile(&h, 99.5);
	lo = hist_member(js, "lo_ns");
	bin = hist_member(js, "bin_ns");
	assert_int_equal(binned_total_n(js, &nbins), n);
	/* at least 20 bins across the bulk, and the bulk within the bins */
	assert_true(bin <= (p_hi - p_lo) / 20);
	assert_true(lo <= p_lo && lo + (int64_t)nbins * bin > p_hi);
	assert_int_equal(hist_member(js, "longer"), 3);
	assert_int_equal(hist_member(js, "shorter"), 1);
	assert_int_equal(hist_member(js, "below") + hist_member(js, "above"), 0);
	free(js);
	stats_hist_free(&h);
}

/* A distribution whose extremes are near its bulk is binned whole, from
 * the minimum to the maximum: nothing shorter or longer. */
static void a_clean_distribution_is_binned_whole(void **state)
{
	struct stats_hist h;
	int64_t lo, bin;
	uint64_t k;
	size_t nbins;
	char *js;

	(void)state;
	assert_int_equal(stats_hist_init(&h, 10000000000), 0);
	for (k = 0; k < 20000; k++)
		stats_hist_add(&h, 495000 + (int64_t)(k * 7919 % 10000));
	stats_hist_add(&h, 246000);
	stats_hist_add(&h, 808000);
	js = dist_json(&h);
	lo = hist_member(js, "lo_ns");
	bin = hist_member(js, "bin_ns");
	assert_int_equal(binned_total_n(js, &nbins), 20002);
	assert_int_equal(hist_member(js, "shorter") + hist_member(js, "longer"), 0);
	assert_true(lo <= 246000 && lo + (int64_t)nbins * bin > 808000);
	free(js);
	stats_hist_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_value_lands_in_a_bin_even_at_the_edges_of_the_range),
		cmocka_unit_test(values_beyond_the_range_are_below_or_above),
		cmocka_unit_test(a_stall_is_counted_longer_and_the_bulk_keeps_fine_bins),
		cmocka_unit_test(a_clean_distribution_is_binned_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
