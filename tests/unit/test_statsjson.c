/* SPDX-License-Identifier: GPL-2.0-or-later */
/* statsjson: the binned "histogram" of a distribution counts every value
 * once (bins plus below/above add up to the count), whatever its range. */
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

/* The sum of the histogram's bins, below and above. */
static uint64_t binned_total(const char *js)
{
	const char *h = strstr(js, "\"histogram\""), *c;
	uint64_t below, above, total, v;
	char *end;

	assert_non_null(h);
	assert_non_null(strstr(h, "\"below\": "));
	below = strtoull(strstr(h, "\"below\": ") + 9, NULL, 10);
	above = strtoull(strstr(h, "\"above\": ") + 9, NULL, 10);
	c = strstr(h, "\"counts\": [");
	assert_non_null(c);
	c += 11;
	total = below + above;
	while (*c && *c != ']') {
		v = strtoull(c, &end, 10);
		assert_true(end != c);
		total += v;
		c = end;
		while (*c == ',' || *c == ' ' || *c == '\n' || *c == '\t')
			c++;
	}
	return total;
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_value_lands_in_a_bin_even_at_the_edges_of_the_range),
		cmocka_unit_test(values_beyond_the_range_are_below_or_above),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
