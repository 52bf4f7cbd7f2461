/* SPDX-License-Identifier: GPL-2.0-or-later */
/* statstext: the distribution table of the text summaries. A row gives the
 * samples' own min, mean, max and median, its columns end where the head's
 * do, and a distribution without samples says so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/units.h"
#include "summary/statstext.h"

/* What @fn wrote for @name and @h (head: @name is the unit), as a string
 * (caller frees). */
static char *text_of(int head, const char *name, const struct stats_hist *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (head)
		statstext_dist_head(f, name);
	else
		statstext_dist_row(f, name, h);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The columns of @line: where each run of non-blanks ends (a percentile
 * with fewer decimals ends early, its point kept in line: units_us_err). */
static size_t column_ends(const char *line, size_t *ends, size_t max)
{
	size_t n = 0, i;

	for (i = 0; line[i] && line[i] != '\n'; i++)
		if (line[i] != ' ' && (line[i + 1] == ' ' || line[i + 1] == '\n' || !line[i + 1]) &&
		    n < max)
			ends[n++] = i;
	return n;
}

/* 1, 2, ... 101 us: min 1, mean 51, max 101, median 51. */
static void fill(struct stats_hist *h)
{
	int64_t k;

	assert_int_equal(stats_hist_init(h, 1000000), 0);
	for (k = 1; k <= 101; k++)
		stats_hist_add(h, k * 1000);
}

static void a_row_gives_the_samples_min_mean_max_and_median(void **state)
{
	struct stats_hist h;
	char *row, *p;

	(void)state;
	fill(&h);
	row = text_of(0, "wake latency", &h);
	assert_memory_equal(row, "  wake latency     ", 19);
	/* min, avg, max, stddev, then p50 p99 ...: the tokens after the name */
	p = row + strlen("  wake latency");
	{
		char min[32], avg[32], max[32], sd[32], p50[32];

		assert_int_equal(sscanf(p, "%31s %31s %31s %31s %31s", min, avg, max, sd, p50), 5);
		assert_string_equal(min, "1.000");
		assert_string_equal(avg, "51.000");
		assert_string_equal(max, "101.000");
		/* the histogram's p50: the median within its bound, 10 ns */
		assert_true(fabs(strtod(p50, NULL) - 51.0) <= 0.010 + 1e-9);
	}
	assert_int_equal(row[strlen(row) - 1], '\n');
	free(row);
	stats_hist_free(&h);
}

static void the_rows_columns_end_where_the_heads_do(void **state)
{
	struct stats_hist h;
	size_t he[16], re[16], nh, nr, i;
	char *head, *row;

	(void)state;
	fill(&h);
	head = text_of(1, "us", NULL);
	row = text_of(0, "pulse +", &h);
	/* the head starts with an empty line */
	assert_int_equal(head[0], '\n');
	nh = column_ends(head + 1, he, 16);
	nr = column_ends(row, re, 16);
	/* the name is one column (two words here), then min, avg, max,
	 * stddev and the percentiles from p50 up, the last as wide as its head */
	assert_int_equal(nh, 1 + 4 + STATS_NPCT - 2);
	assert_int_equal(nr, nh + 1);
	for (i = 1; i < 5; i++)
		assert_int_equal(re[i + 1], he[i]);
	assert_int_equal(strlen(row), strlen(head + 1));
	free(head);
	free(row);
	stats_hist_free(&h);
}

static void a_distribution_without_samples_says_none(void **state)
{
	struct stats_hist h;
	char *row;

	(void)state;
	assert_int_equal(stats_hist_init(&h, 1000000), 0);
	row = text_of(0, "write cost", &h);
	assert_string_equal(row, "  write cost       (none)\n");
	free(row);
	stats_hist_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_row_gives_the_samples_min_mean_max_and_median),
		cmocka_unit_test(the_rows_columns_end_where_the_heads_do),
		cmocka_unit_test(a_distribution_without_samples_says_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
