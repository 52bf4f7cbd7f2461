/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report --trend: points from hand-written summaries and analyses, their
 * grouping and order, gaps for figures a document lacks (never 0), bad
 * documents refused with file and line, the date axis' ticks, and the
 * picture: each run's limits where that run is, an axis fitted to the
 * runs, tick labels that never overlap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
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

static void the_date_axis_steps_from_seconds_to_weeks_as_its_labels_fit(void **state)
{
	uint64_t ticks[32];
	int64_t step;
	size_t n;

	(void)state;
	/* 90 days over 860 px: dates of 64 px and 20 between need 9 days a
	 * label, so 14 days */
	n = trend_time_axis(T0, T0 + 90 * DAY, 860, ticks, 32, &step);
	assert_int_equal(step, 14 * 86400);
	assert_true(n >= 6 && n <= 7);
	assert_true(ticks[0] >= T0 && ticks[n - 1] <= T0 + 90 * DAY);
	assert_int_equal(ticks[0] % (14 * DAY), 0);
	/* an hour of one day: times of day (32 px) every 5 minutes */
	n = trend_time_axis(T0, T0 + 3600000000000ull, 860, ticks, 32, &step);
	assert_int_equal(step, 300);
	assert_true(n >= 12 && n <= 13);
	/* at most @max: a longer step */
	n = trend_time_axis(T0, T0 + 3600000000000ull, 860, ticks, 4, &step);
	assert_true(n <= 4 && step >= 900);
}

/* A run of board "sim" on "h" from @start, @dur_ns long, with limits
 * tmin @lmin and tmax @lmax (ns; 0: not set). */
static void add_run(struct trend *t, const char *src, uint64_t start, long long dur_ns,
		    long long lmin, long long lmax)
{
	char buf[2048], err[256];
	struct jv *doc;

	snprintf(buf, sizeof(buf),
		 "{\"schema\": \"sqwave-summary\", \"schema_version\": 1,\n"
		 " \"board\": {\"name\": \"sim\"}, \"host\": {\"hostname\": \"h\"},\n"
		 " \"run\": {\"start_realtime_ns\": %llu, \"duration_ns\": %lld},\n"
		 " \"pulse_width\": {\"any\": {\"count\": 9, \"tmin\": {\"width_ns\": 490000},\n"
		 "   \"tmax\": {\"width_ns\": 510000}}},\n"
		 " \"wake_latency\": {\"count\": 10, \"max_ns\": 40000},\n"
		 " \"counts\": {\"missed_periods\": 0},\n"
		 " \"config\": {\"limits.tmin\": {\"value\": %lld}, \"limits.tmax\": {\"value\": %lld}},\n"
		 " \"verdict\": {\"result\": \"PASS\"}}\n", (unsigned long long)start, dur_ns, lmin,
		 lmax);
	doc = jsonread_parse(buf, strlen(buf), err, sizeof(err));
	assert_non_null(doc);
	assert_int_equal(trend_add_doc(t, doc, src, err, sizeof(err)), 0);
	jv_free(doc);
}

/* The SVG of @t (sorted), the caller frees it. */
static char *trend_svg(struct trend *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	trend_sort(t);
	trend_write_svg(f, t);
	assert_int_equal(fclose(f), 0);
	return text;
}

/* The attribute @attr (a number) of the @nth element of class @cls. */
static bool attr_of(const char *svg, const char *cls, size_t nth, const char *attr, double *v)
{
	char key[64], a[16];
	const char *p = svg;

	snprintf(key, sizeof(key), "class=\"%s\"", cls);
	snprintf(a, sizeof(a), " %s=\"", attr);
	for (p = strstr(p, key); p && nth; nth--)
		p = strstr(p + 1, key);
	if (!p)
		return false;
	*v = strtod(strstr(p, a) + strlen(a), NULL);
	return true;
}

/* The value the pulse-width strip (y 90..220: the first panel's first)
 * shows at pixel row @y, from its tick labels (x 84, 3 px under their
 * line). */
static double width_strip_value(const char *svg, double y)
{
	double ys[16], vs[16];
	const char *p = svg;
	size_t n = 0;

	while (n < 16 && (p = strstr(p, "<text x=\"84\" y=\""))) {
		double ty = strtod(p + strlen("<text x=\"84\" y=\""), NULL);

		p = strchr(p, '>') + 1;
		if (ty < 85 || ty > 225)
			continue;
		ys[n] = ty - 3;
		vs[n++] = strtod(p, NULL);
	}
	assert_true(n >= 2);
	return vs[0] + (vs[n - 1] - vs[0]) / (ys[n - 1] - ys[0]) * (y - ys[0]);
}

/* The y of the "limit" step lines at pixel column @x whose value is
 * nearest @near (us): each run's limit is on its line where it is. */
static double limit_at(const char *svg, double x, double near)
{
	const char *p = svg;
	double best = NAN;

	while ((p = strstr(p, "<polyline class=\"limit\""))) {
		const char *q = strstr(p, "points=\"") + strlen("points=\"");

		while (*q && *q != '"') {
			char *end;
			double ax = strtod(q, &end), ay = strtod(end + 1, &end);
			double bx = strtod(end, &end), by = strtod(end + 1, &end);

			assert_true(ay == by);	/* each run's stretch is level */
			if (ax <= x && x <= bx && by < 225 &&
			    (isnan(best) || fabs(width_strip_value(svg, ay) - near) <
					    fabs(width_strip_value(svg, best) - near)))
				best = ay;
			q = end;
			while (*q == ' ')
				q++;
		}
		p = q;
	}
	assert_false(isnan(best));
	return best;
}

/* Runs whose limits changed: each run's limits are drawn where that run is
 * (a step where they change), the value its own document gave, not the
 * last run's across every run. */
static void each_runs_limits_are_drawn_where_that_run_is(void **state)
{
	static const long long lmin[] = { 450000, 450000, 400000 }, lmax[] = { 550000, 550000,
									       600000 };
	struct trend t = { 0 };
	char *svg;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++)
		add_run(&t, "r.json", T0 + i * 300000000000ull, 240000000000ll, lmin[i], lmax[i]);
	svg = trend_svg(&t);
	for (i = 0; i < 3; i++) {
		double x, y;

		assert_true(attr_of(svg, "tmax-point", i, "cx", &x));
		y = limit_at(svg, x, (double)lmax[i] / 1e3);
		assert_true(fabs(width_strip_value(svg, y) - (double)lmax[i] / 1e3) < 2);
		y = limit_at(svg, x, (double)lmin[i] / 1e3);
		assert_true(fabs(width_strip_value(svg, y) - (double)lmin[i] / 1e3) < 2);
	}
	assert_non_null(strstr(svg, ">limits.tmax 550</text>"));
	assert_non_null(strstr(svg, ">limits.tmax 600</text>"));
	free(svg);
	trend_free(&t);
}

/* Three runs of four minutes, five minutes apart: the axis fits them (it
 * once padded half an hour either side), in times of day with the date
 * in its title, each point where its run started. */
static void the_time_axis_fits_runs_of_minutes(void **state)
{
	struct trend t = { 0 };
	double xs[32], ms[32], a, b, x;
	const char *p;
	char *svg;
	size_t n = 0, i;

	(void)state;
	for (i = 0; i < 3; i++)
		add_run(&t, "m.json", T0 + i * 300000000000ull, 240000000000ll, 0, 0);
	svg = trend_svg(&t);
	/* the ticks' times of day, in minutes, and where they are */
	for (p = svg; n < 32 && (p = strstr(p, "class=\"x-tick\" x=\"")); n++) {
		unsigned hh, mm;

		xs[n] = strtod(p + strlen("class=\"x-tick\" x=\""), NULL);
		p = strchr(p, '>') + 1;
		assert_int_equal(sscanf(p, "%u:%u<", &hh, &mm), 2);
		ms[n] = hh * 60.0 + mm;
	}
	assert_true(n >= 3);
	a = (ms[n - 1] - ms[0]) / (xs[n - 1] - xs[0]);	/* minutes a pixel */
	b = ms[0] - a * xs[0];
	/* the plot (x 90..950) spans the 14 minutes of the runs, and little more */
	assert_true(a * (950 - 90) < 14 * 1.2);
	for (i = 0; i < 3; i++) {
		double want = (double)((T0 / 1000000000ull + i * 300) % 86400) / 60;

		assert_true(attr_of(svg, "tmax-point", i, "cx", &x));
		assert_true(fabs(a * x + b - want) < 0.25);
	}
	assert_non_null(strstr(svg, "run start (UTC, "));
	free(svg);
	trend_free(&t);
}

/* From half a minute to three years, the date axis' labels stand apart
 * (10 px text, 6.4 px a character), and there are at least two. */
static void tick_labels_never_overlap_at_any_span(void **state)
{
	static const double spans_s[] = { 30, 100, 600, 2000, 3600, 5 * 3600, 86400, 3 * 86400,
					   10 * 86400, 40 * 86400, 200 * 86400, 1100 * 86400 };
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(spans_s) / sizeof(spans_s[0]); k++) {
		struct trend t = { 0 };
		double right = -1e9;
		const char *p;
		size_t n = 0;
		char *svg;

		add_run(&t, "a.json", T0, 0, 0, 0);
		add_run(&t, "b.json", T0 + (uint64_t)(spans_s[k] * 1e9), 0, 0, 0);
		svg = trend_svg(&t);
		for (p = svg; (p = strstr(p, "class=\"x-tick\" x=\"")); n++) {
			double x = strtod(p + strlen("class=\"x-tick\" x=\""), NULL), w;

			p = strchr(p, '>') + 1;
			w = 6.4 * (double)(strchr(p, '<') - p);
			if (x - w / 2 < right)
				fail_msg("span %.0f s: a label at %.1f over the one before", spans_s[k], x);
			right = x + w / 2;
		}
		assert_true(n >= 2);
		free(svg);
		trend_free(&t);
	}
}

/* A glitch of 15 us and a stall's 2 s pulse: the pulse-width strip is
 * logarithmic over six decades, and its labels (10 px text, x 84, the
 * strip y 90..220) still stand 12 px apart: decades only. */
static void a_strip_over_many_decades_keeps_its_labels_apart(void **state)
{
	char buf[2048], err[256];
	struct trend t = { 0 };
	double prev = -1e9;
	struct jv *doc;
	const char *p;
	size_t n = 0;
	char *svg;

	(void)state;
	snprintf(buf, sizeof(buf),
		 "{\"schema\": \"sqwave-summary\", \"schema_version\": 1,\n"
		 " \"board\": {\"name\": \"sim\"}, \"run\": {\"start_realtime_ns\": %llu},\n"
		 " \"pulse_width\": {\"any\": {\"count\": 9, \"tmin\": {\"width_ns\": 15000},\n"
		 "   \"tmax\": {\"width_ns\": 2000000000}}}}\n", (unsigned long long)T0);
	doc = jsonread_parse(buf, strlen(buf), err, sizeof(err));
	assert_non_null(doc);
	assert_int_equal(trend_add_doc(&t, doc, "g.json", err, sizeof(err)), 0);
	jv_free(doc);
	svg = trend_svg(&t);
	assert_non_null(strstr(svg, "(log scale)"));
	for (p = svg; (p = strstr(p, "<text x=\"84\" y=\"")); p++) {
		double y = strtod(p + strlen("<text x=\"84\" y=\""), NULL);

		if (y < 85 || y > 225)
			continue;
		/* from the bottom up: each label higher than the one before */
		assert_true(prev < -1e8 || prev - y >= 12);
		prev = y;
		n++;
	}
	assert_true(n >= 3);
	free(svg);
	trend_free(&t);
}

/* A respond run beside a wave on one board: no point of its in the
 * pulse-width strip (its pulses answer an input), its worst answer where
 * the wave's worst wake-up is, and the strips say so. */
static void a_respond_run_shows_its_answers_not_a_wave(void **state)
{
	static const char resp[] =
		"{\"schema\": \"sqwave-summary\", \"schema_version\": 1,\n"
		" \"board\": {\"name\": \"sim\"}, \"host\": {\"hostname\": \"h\"},\n"
		" \"run\": {\"start_realtime_ns\": 1700000600000000000, \"duration_ns\": 60000000000},\n"
		" \"pulse_width\": {\"any\": {\"count\": 9, \"tmin\": {\"width_ns\": 20000},\n"
		"   \"tmax\": {\"width_ns\": 2000000}}},\n"
		" \"wake_latency\": {\"count\": 10, \"max_ns\": 70000},\n"
		" \"counts\": {\"missed_periods\": 3},\n"
		" \"respond\": {\"answers\": 10, \"event_to_write_end\": {\"max_ns\": 123000,\n"
		"   \"percentiles_ns\": {\"p99\": 99000}}},\n"
		" \"verdict\": {\"result\": \"NO LIMITS\"}}\n";
	struct trend t = { 0 };
	char err[256], *svg;
	struct jv *doc;
	double v;

	(void)state;
	add_run(&t, "wave.json", 1700000000000000000ull, 60000000000ll, 0, 0);
	doc = jsonread_parse(resp, strlen(resp), err, sizeof(err));
	assert_non_null(doc);
	assert_int_equal(trend_add_doc(&t, doc, "resp.json", err, sizeof(err)), 0);
	jv_free(doc);
	svg = trend_svg(&t);
	assert_true(attr_of(svg, "tmax-point", 0, "cx", &v));
	assert_false(attr_of(svg, "tmax-point", 1, "cx", &v));	/* the wave's alone */
	assert_false(attr_of(svg, "tmin-point", 1, "cx", &v));
	assert_non_null(strstr(svg, "wave: 40 us</title>"));
	assert_non_null(strstr(svg, "resp: 123 us</title>"));	/* its worst answer */
	assert_null(strstr(svg, "resp: 70 us</title>"));	/* not its wake-up */
	assert_non_null(strstr(svg, "(respond: worst answer, event to write end)"));
	assert_null(strstr(svg, "resp: no pulse widths"));	/* nothing missing either */
	free(svg);
	trend_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(runs_group_by_board_and_host_and_order_by_start),
		cmocka_unit_test(many_boards_sort_by_the_rule_in_n_log_n_comparisons),
		cmocka_unit_test(a_missing_figure_is_a_gap_never_zero),
		cmocka_unit_test(bad_documents_are_refused_naming_file_and_line),
		cmocka_unit_test(the_date_axis_steps_from_seconds_to_weeks_as_its_labels_fit),
		cmocka_unit_test(each_runs_limits_are_drawn_where_that_run_is),
		cmocka_unit_test(the_time_axis_fits_runs_of_minutes),
		cmocka_unit_test(tick_labels_never_overlap_at_any_span),
		cmocka_unit_test(a_strip_over_many_decades_keeps_its_labels_apart),
		cmocka_unit_test(a_respond_run_shows_its_answers_not_a_wave),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
