/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report --trend: points from hand-written summaries and analyses, their
 * grouping and order, gaps for figures a document lacks (never 0), bad
 * documents refused with file and line, and the date axis' ticks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/jsonread.h"
#include "report/trend.h"

#define DAY 86400000000000ull
#define T0 1790000000000000000ull

/* A summary of board @board on @host starting at @start; @wake < 0: no
 * wake_latency member (null). */
static int add_summary(struct trend *t, const char *src, const char *board, const char *host,
		       uint64_t start, long long wake, char *err, size_t errlen)
{
	char buf[2048], wl[128];
	struct jv *doc;
	int rc;

	if (wake >= 0)
		snprintf(wl, sizeof(wl), "{\"count\": 10, \"max_ns\": %lld}", wake);
	else
		snprintf(wl, sizeof(wl), "null");
	snprintf(buf, sizeof(buf),
		 "{\"schema\": \"sqwave-summary\", \"schema_version\": 1,\n"
		 " \"board\": {\"name\": \"%s\"}, \"host\": {\"hostname\": \"%s\"},\n"
		 " \"run\": {\"start_realtime_ns\": %llu, \"duration_ns\": 1000000000},\n"
		 " \"pulse_width\": {\"any\": {\"count\": 9, \"tmin\": {\"width_ns\": 490000},\n"
		 "   \"tmax\": {\"width_ns\": 510000}}},\n"
		 " \"wake_latency\": %s,\n"
		 " \"counts\": {\"missed_periods\": 3},\n"
		 " \"config\": {\"limits.tmin\": {\"value\": 450000}, \"limits.tmax\": {\"value\": 0}},\n"
		 " \"verdict\": {\"result\": \"PASS\"}}\n", board, host, (unsigned long long)start, wl);
	doc = jsonread_parse(buf, strlen(buf), err, errlen);
	assert_non_null(doc);
	rc = trend_add_doc(t, doc, src, err, errlen);
	jv_free(doc);
	return rc;
}

static void runs_group_by_board_and_host_and_order_by_start(void **state)
{
	struct trend t = { 0 };
	char err[256];

	(void)state;
	/* given out of order; rpi4 on two hosts is two boards; b starts first */
	assert_int_equal(add_summary(&t, "a3.json", "rpi4", "lab-a", T0 + 3 * DAY, 50000, err,
				     sizeof(err)), 0);
	assert_int_equal(add_summary(&t, "b1.json", "rpi4", "lab-b", T0, 40000, err, sizeof(err)), 0);
	assert_int_equal(add_summary(&t, "a1.json", "rpi4", "lab-a", T0 + DAY, 60000, err,
				     sizeof(err)), 0);
	assert_int_equal(add_summary(&t, "a2.json", "rpi4", "lab-a", T0 + 2 * DAY, 70000, err,
				     sizeof(err)), 0);
	assert_int_equal(add_summary(&t, "b0.json", "rpi4", "lab-b", T0 + 2 * DAY, 30000, err,
				     sizeof(err)), 0);
	trend_sort(&t);
	assert_int_equal(t.n, 5);
	assert_string_equal(t.p[0].key, "rpi4 @ lab-b");
	assert_string_equal(t.p[0].source, "b1.json");
	assert_string_equal(t.p[1].source, "b0.json");
	assert_string_equal(t.p[2].key, "rpi4 @ lab-a");
	assert_string_equal(t.p[2].source, "a1.json");
	assert_string_equal(t.p[3].source, "a2.json");
	assert_string_equal(t.p[4].source, "a3.json");
	assert_int_equal(t.p[2].wake_max_ns, 60000);
	assert_int_equal(t.p[2].lim_tmin_ns, 450000);
	assert_int_equal(t.p[2].lim_tmax_ns, 0);
	assert_string_equal(t.p[2].label, "a1");
	trend_free(&t);
}

/* 2,000 runs of 700 boards, starts drawn from few values (ties between
 * boards and within one), given in random order: the order is the rule's,
 * found by a plain selection here, and the sort costs O(n log n)
 * comparisons, not boards x n^2 (45 s for such a batch before). */
static void many_boards_sort_by_the_rule_in_n_log_n_comparisons(void **state)
{
	enum { N = 2000, BOARDS = 700 };
	struct trend t = { 0 };
	unsigned seed = (unsigned)time(NULL);
	char err[256], src[32], board[16];
	static size_t want[N];
	static bool used[N];
	size_t i, k, log2n = 0;

	(void)state;
	print_message("seed %u\n", seed);
	srand(seed);
	for (i = 0; i < N; i++) {
		snprintf(src, sizeof(src), "r%zu.json", i);
		snprintf(board, sizeof(board), "b%03d", rand() % BOARDS);
		assert_int_equal(add_summary(&t, src, board, "lab", T0 + (uint64_t)(rand() % 50) * DAY,
					     1000, err, sizeof(err)), 0);
	}
	/* the reference: repeatedly the board whose first run starts first
	 * (ties: the smaller name), its runs by start, then as given */
	for (k = 0; k < N;) {
		size_t best = SIZE_MAX, j;

		for (i = 0; i < N; i++) {
			if (used[i])
				continue;
			if (best == SIZE_MAX || t.p[i].start_ns < t.p[best].start_ns ||
			    (t.p[i].start_ns == t.p[best].start_ns &&
			     strcmp(t.p[i].key, t.p[best].key) < 0))
				best = i;
		}
		for (;;) {	/* that board's runs in order */
			size_t next = SIZE_MAX;

			for (j = 0; j < N; j++) {
				if (used[j] || strcmp(t.p[j].key, t.p[best].key))
					continue;
				if (next == SIZE_MAX || t.p[j].start_ns < t.p[next].start_ns ||
				    (t.p[j].start_ns == t.p[next].start_ns &&
				     t.p[j].order < t.p[next].order))
					next = j;
			}
			if (next == SIZE_MAX)
				break;
			used[next] = true;
			want[k++] = t.p[next].order;
		}
	}
	trend_sort(&t);
	for (i = 0; i < N; i++)
		assert_int_equal(t.p[i].order, want[i]);
	while (((size_t)1 << log2n) < N)
		log2n++;
	print_message("%zu comparisons for %d runs\n", t.compares, N);
	assert_true(t.compares > 0);
	assert_true(t.compares <= 2 * N * log2n);
	trend_free(&t);
}

static void a_missing_figure_is_a_gap_never_zero(void **state)
{
	struct trend t = { 0 };
	char err[256], *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(add_summary(&t, "gap.json", "sim", "h", T0, -1, err, sizeof(err)), 0);
	assert_false(t.p[0].have_wake);
	assert_true(t.p[0].have_tmin);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	trend_write_json(f, &t);
	fclose(f);
	assert_non_null(strstr(text, "\"wake_max_ns\": null"));
	assert_non_null(strstr(text, "\"tmin_ns\": 490000"));
	assert_non_null(strstr(text, "\"tmax_ns\": null"));	/* limits.tmax 0: not set */
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	assert_non_null(f);
	trend_write_svg(f, &t);
	fclose(f);
	/* no wake point, a gap mark instead; the width points are there */
	assert_null(strstr(text, "class=\"wake-point\""));
	assert_non_null(strstr(text, "class=\"gap\""));
	assert_non_null(strstr(text, "class=\"tmin-point\""));
	free(text);
	trend_free(&t);
}

static void bad_documents_are_refused_naming_file_and_line(void **state)
{
	static const struct {
		const char *doc, *want;
	} cases[] = {
		{ "{\"schema\": \"sqwave-report\", \"schema_version\": 1}", "x.json: not a sqwave run" },
		{ "{\"schema\": \"sqwave-summary\", \"schema_version\": 2}", "newer than this sqwave" },
		{ "{\"schema\": \"sqwave-summary\", \"schema_version\": 1, \"run\": {}}", "no start time" },
		{ "{\"schema\": \"sqwave-summary\", \"schema_version\": 1,\n\"run\": {\"start_realtime_ns\": 5},\n"
		  "\"counts\": {\"missed_periods\": -1}}", "x.json:3: counts.missed_periods must be an integer" },
		{ "{\"schema\": \"sqwave-analysis\", \"schema_version\": 1,\n\"source\": {\"log\": "
		  "{\"start_realtime_ns\": 5}},\n\"wake_latency\": {\"count\": 1, \"max_ns\": \"x\"}}",
		  "x.json:3: wake_latency.max_ns must be a number" },
	};
	struct trend t = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[256] = "";
		struct jv *doc = jsonread_parse(cases[i].doc, strlen(cases[i].doc), err, sizeof(err));

		assert_non_null(doc);
		assert_int_equal(trend_add_doc(&t, doc, "x.json", err, sizeof(err)), -1);
		if (!strstr(err, cases[i].want))
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err, cases[i].want);
		jv_free(doc);
	}
	assert_int_equal(t.n, 0);
	trend_free(&t);
}

static void the_date_axis_steps_from_minutes_to_weeks(void **state)
{
	uint64_t ticks[16];
	int64_t step;
	size_t n;

	(void)state;
	/* 90 days: a step of 14 days (7 would be 13 ticks, more than 8) */
	n = trend_time_ticks(T0, T0 + 90 * DAY, ticks, 8, &step);
	assert_int_equal(step, 14 * 86400);
	assert_true(n >= 6 && n <= 8);
	assert_true(ticks[0] >= T0 && ticks[n - 1] <= T0 + 90 * DAY);
	assert_int_equal(ticks[0] % (14 * DAY), 0);
	/* an hour: 15 minutes */
	n = trend_time_ticks(T0, T0 + 3600000000000ull, ticks, 8, &step);
	assert_int_equal(step, 900);
	assert_true(n >= 4 && n <= 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(runs_group_by_board_and_host_and_order_by_start),
		cmocka_unit_test(many_boards_sort_by_the_rule_in_n_log_n_comparisons),
		cmocka_unit_test(a_missing_figure_is_a_gap_never_zero),
		cmocka_unit_test(bad_documents_are_refused_naming_file_and_line),
		cmocka_unit_test(the_date_axis_steps_from_minutes_to_weeks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
