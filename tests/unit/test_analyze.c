/* SPDX-License-Identifier: GPL-2.0-or-later */
/* analyze: statistics of hand-built edge sequences against values computed
 * here, the edge-list CSV reader (good files and every class of bad one,
 * with file:line), and logs cut short. */
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
#include <unistd.h>

#include "stats/analyze.h"
#include "cmd/sources.h"
#include "summary/analysisdoc.h"
#include "config/config.h"

#define HALF 500000
#define T0 1000000000000ull

static char tmpdir[] = "/tmp/sqwave-test-analyze.XXXXXX";

/* An edge at intended time T0 + @t_ns, written @lat ns late in a 0 ns window. */
static struct edge_rec at(uint64_t seq, uint64_t t_ns, int32_t lat, uint8_t level)
{
	struct edge_rec e = {
		.seq = seq,
		.intended_ns = T0 + t_ns,
		.wake_off_ns = lat,
		.write_begin_off_ns = lat,
		.write_end_off_ns = lat,
		.expirations = 1,
		.level = level,
	};
	return e;
}

static const struct analyze_source_info log_info = {
	.kind = ANALYZE_SRC_LOG, .path = "test", .format = "test",
	.has_intended = true, .has_window = true, .half_period_ns = HALF,
};

static struct analysis *new_analysis(const struct analyze_source_info *src, unsigned worst)
{
	struct analyze_opts o = {
		.worst_n = worst, .missed_list = 2, .hist_buckets = 1000,
	};
	struct analysis *a = analysis_new(&o, src);

	assert_non_null(a);
	return a;
}

static void pulse_statistics_match_an_independent_computation(void **state)
{
	/* latencies chosen so every pulse differs; computed widths below */
	static const int32_t lat[] = { 3000, 9000, 1000, 15000, 2000, 4000, 30000, 5000, 6000 };
	const size_t n = sizeof(lat) / sizeof(lat[0]);
	struct analysis *a = new_analysis(&log_info, 3);
	const struct edgestats_result *r;
	double sum[2] = { 0 }, sq[2] = { 0 }, mean, var;
	int64_t wmin = INT64_MAX, wmax = INT64_MIN, w;
	uint64_t cnt[2] = { 0 };
	size_t i;
	int p;

	(void)state;
	for (i = 0; i < n; i++) {
		struct edge_rec e = at(i, i * HALF, lat[i], (uint8_t)(i % 2 == 0));

		analysis_add(a, &e);
	}
	analysis_finish(a);
	for (i = 0; i + 1 < n; i++) {
		w = HALF + lat[i + 1] - lat[i];
		p = i % 2 == 0 ? 0 : 1; /* even edges rise: a positive pulse follows */
		sum[p] += (double)w;
		sq[p] += (double)w * (double)w;
		cnt[p]++;
		wmin = w < wmin ? w : wmin;
		wmax = w > wmax ? w : wmax;
	}
	r = analysis_stats(a);
	assert_int_equal(r->width[EDGESTATS_POS].h.m.n, cnt[0]);
	assert_int_equal(r->width[EDGESTATS_NEG].h.m.n, cnt[1]);
	assert_int_equal(r->width[EDGESTATS_ANY].tmin.width_ns, wmin);
	assert_int_equal(r->width[EDGESTATS_ANY].tmax.width_ns, wmax);
	for (p = 0; p < 2; p++) {
		const struct stats_moments *m = &r->width[p].h.m;

		mean = sum[p] / (double)cnt[p];
		var = sq[p] / (double)cnt[p] - mean * mean;
		assert_true(fabs(stats_moments_mean(m) - mean) < 1e-6);
		assert_true(fabs(stats_moments_stddev(m) - sqrt(var)) < 1e-3);
	}
	assert_true(fabs(analysis_duty_cycle(a) -
			 (sum[0] / (double)cnt[0]) / (sum[0] / (double)cnt[0] + sum[1] / (double)cnt[1])) < 1e-12);
	/* the worst three by latency, each with the pulses on both sides */
	assert_int_equal(a->nworst, 3);
	assert_int_equal(a->worst[0].seq, 6);
	assert_int_equal(a->worst[0].latency_ns, 30000);
	assert_true(a->worst[0].has_before && a->worst[0].has_after);
	assert_int_equal(a->worst[0].before_ns, HALF + 30000 - 4000);
	assert_int_equal(a->worst[0].after_ns, HALF + 5000 - 30000);
	assert_int_equal(a->worst[1].seq, 3);
	assert_int_equal(a->worst[2].seq, 1);
	analysis_free(a);
}

/* One pulse, one number: Tmax (as the summary prints it) and the worst-edges
 * list name the same edge, the one that ends the pulse; for logs (ranked by
 * latency) and for captures (ranked by width). */
static void a_pulse_has_the_same_number_in_tmax_and_the_worst_edges(void **state)
{
	static const struct analyze_source_info cap_info = {
		.kind = ANALYZE_SRC_REGISTERED, .path = "test", .format = "test",
	};
	const struct analyze_source_info *infos[] = { &log_info, &cap_info };
	size_t k, i;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct analysis *a = new_analysis(infos[k], 3);
		const struct edgestats_result *r;

		for (i = 0; i < 12; i++) {
			/* edge 7 is 40 us late: the pulse 6->7 is the longest */
			struct edge_rec e = at(i, i * HALF, i == 7 ? 40000 : 1000, (uint8_t)(i % 2 == 0));

			analysis_add(a, &e);
		}
		analysis_finish(a);
		r = analysis_stats(a);
		assert_int_equal(r->width[EDGESTATS_ANY].tmax.width_ns, HALF + 39000);
		assert_int_equal(r->width[EDGESTATS_ANY].tmax.at.seq, 7);
		assert_int_equal(r->width[EDGESTATS_ANY].tmax.at.intended_ns, T0 + 7 * HALF);
		assert_true(a->nworst > 0);
		assert_int_equal(a->worst[0].seq, 7);
		assert_int_equal(a->worst[0].before_ns, HALF + 39000);
		analysis_free(a);
	}
}

static void the_last_edge_among_the_worst_has_no_following_pulse(void **state)
{
	struct analysis *a = new_analysis(&log_info, 1);
	struct edge_rec e0 = at(0, 0, 1000, 1), e1 = at(1, HALF, 90000, 0);

	(void)state;
	analysis_add(a, &e0);
	analysis_add(a, &e1);
	analysis_finish(a);
	assert_int_equal(a->worst[0].seq, 1);
	assert_true(a->worst[0].has_before);
	assert_false(a->worst[0].has_after);
	analysis_free(a);
}

static void a_pulse_spanning_a_gap_in_seq_is_not_counted(void **state)
{
	struct analysis *a = new_analysis(&log_info, 0);
	struct edge_rec e[] = {
		at(0, 0, 0, 1), at(1, HALF, 0, 0),
		/* seq 2 and 3 lost: the "pulse" from 1 to 4 spans them */
		at(4, 4 * HALF, 100000, 1), at(5, 5 * HALF, 0, 0),
	};
	const struct edgestats_result *r;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++)
		analysis_add(a, &e[i]);
	analysis_finish(a);
	r = analysis_stats(a);
	assert_int_equal(r->width[EDGESTATS_ANY].h.m.n, 2);
	assert_int_equal(r->seq_gaps, 2);
	assert_int_equal(r->pulses_skipped, 1);
	assert_int_equal(r->width[EDGESTATS_ANY].tmax.width_ns, HALF);
	assert_int_equal(r->width[EDGESTATS_ANY].tmin.width_ns, HALF - 100000);
	analysis_free(a);
}

/* Pulses outside the limits are counted by their bounds (the write windows),
 * as the verdict checks them: a bound exactly on a limit is inside, one ns
 * beyond is outside; the counts and the verdict's sentences say so. */
static void pulses_whose_bounds_cross_a_limit_are_counted_and_fail_the_verdict(void **state)
{
	/* every write window is 200 ns wide, so a pulse's bounds are its
	 * estimate -200 ns and +200 ns */
	static const int32_t lat[] = { 1000, 20800, 1000, 20801, 1000, 20801, 20801, 20801 };
	const int64_t tmin = 480000, tmax = 520000, wake = 20800;
	struct analysis *a = new_analysis(&log_info, 0);
	struct config *c = config_new();
	size_t i;

	(void)state;
	assert_non_null(c);
	assert_int_equal(config_apply_option(c, "tmin", "480us", NULL, 0), CFG_OK);
	assert_int_equal(config_apply_option(c, "tmax", "520us", NULL, 0), CFG_OK);
	assert_int_equal(config_apply_option(c, "max-latency", "20800ns", NULL, 0), CFG_OK);
	analysis_set_limits(a, tmin, tmax, wake);
	for (i = 0; i < sizeof(lat) / sizeof(lat[0]); i++) {
		struct edge_rec e = at(i, i * HALF, lat[i], (uint8_t)(i % 2 == 0));

		e.write_end_off_ns = lat[i] + 200;
		analysis_add(a, &e);
	}
	analysis_finish(a);
	/* 0->1: hi = tmax exactly; 1->2: lo = tmin exactly (both inside);
	 * 2->3 and 4->5: hi = tmax + 1 ns; 3->4: lo = tmin - 1 ns; the
	 * upper bound of 3->4 is inside tmin, the lower of 2->3 inside tmax */
	assert_int_equal(a->pulses_above, 2);
	assert_int_equal(a->pulses_below, 1);
	/* wake-ups: edge 1 exactly at the limit (inside), 3, 5, 6, 7 above */
	assert_int_equal(a->wakes_above, 4);
	assert_int_equal(analysis_verdict(a, c, NULL), VERDICT_FAIL);
	assert_string_equal(a->verdict, "FAIL");
	assert_non_null(strstr(a->verdict_why, "1 pulse may have been shorter than limits.tmin "
				"480.000 us (the shortest 479.999 us, pulse #4)\n"));
	assert_non_null(strstr(a->verdict_why, "2 pulses may have been longer than limits.tmax "
				"520.000 us (the longest 520.001 us, pulse #3)\n"));
	assert_non_null(strstr(a->verdict_why, "4 wake-ups later than limits.wake_latency_max "
				"20.800 us (the worst 20.801 us at edge #3)\n"));
	config_free(c);
	analysis_free(a);
}

static void missed_periods_are_listed_up_to_the_bound_and_all_counted(void **state)
{
	struct analysis *a = new_analysis(&log_info, 0);
	uint64_t slot = 0, i;

	(void)state;
	for (i = 0; i < 10; i++) {
		struct edge_rec e = at(i, slot * HALF, 1000, (uint8_t)(i % 2 == 0));

		if (i == 3 || i == 5 || i == 8) {
			e.expirations = i == 5 ? 3 : 2;
			slot += e.expirations - 1u;
			e.intended_ns = T0 + slot * HALF;
		}
		analysis_add(a, &e);
		slot++;
	}
	analysis_finish(a);
	assert_int_equal(analysis_stats(a)->missed_periods, 4);
	assert_int_equal(a->missed_events, 3);
	assert_int_equal(a->nmissed, 2); /* missed_list = 2 */
	assert_int_equal(a->missed[0].seq, 3);
	assert_int_equal(a->missed[1].seq, 5);
	assert_int_equal(a->missed[1].periods, 2);
	analysis_free(a);
}

static void the_timeline_has_a_row_per_minute_with_its_worst(void **state)
{
	struct analysis *a = new_analysis(&log_info, 0);
	const uint64_t min = 60000000000ull;
	struct edge_rec e[] = {
		at(0, 0, 1000, 1), at(1, HALF, 7000, 0),
		at(2, min + 0, 2000, 1), at(3, min + HALF, 3000, 0), at(4, min + 2 * HALF, 500, 1),
		at(5, 3 * min, 4000, 0),
	};
	size_t i;

	(void)state;
	for (i = 0; i < 6; i++)
		analysis_add(a, &e[i]);
	analysis_finish(a);
	assert_int_equal(a->nminutes, 4);
	assert_int_equal(a->minutes[0].edges, 2);
	assert_int_equal(a->minutes[0].lat_max, 7000);
	assert_int_equal(a->minutes[1].edges, 3);
	assert_int_equal(a->minutes[1].lat_max, 3000);
	assert_int_equal(a->minutes[1].lat_max_seq, 3);
	assert_int_equal(a->minutes[2].edges, 0);
	assert_int_equal(a->minutes[3].edges, 1);
	/* pulse 0->1 (+), 2->3 (+), 3->4 (-); 1->2 (-) and 4->5 (+) span
	 * minutes: counted in the minute where they end (a pulse is its
	 * ending edge's, everywhere) */
	assert_int_equal(a->minutes[0].pulses[0], 1);
	assert_int_equal(a->minutes[0].wmin[0], HALF + 6000);
	assert_int_equal(a->minutes[0].pulses[1], 0);
	assert_int_equal(a->minutes[1].pulses[0], 1);
	assert_int_equal(a->minutes[1].wmin[0], HALF + 1000);
	assert_int_equal(a->minutes[1].pulses[1], 2);
	assert_int_equal(a->minutes[1].wmax[1], min - HALF - 5000);
	assert_int_equal(a->minutes[3].pulses[0], 1);
	analysis_free(a);
}

/* --timeline 20s: rows named in the duration grammar, not "0.333333 min". */
static void the_timeline_rows_are_named_in_durations(void **state)
{
	struct analyze_opts o = {
		.worst_n = 0, .missed_list = 2, .hist_buckets = 1000, .minute_ns = 20000000000LL,
	};
	struct analysis *a = analysis_new(&o, &log_info);
	char *text = NULL;
	size_t len = 0, i;
	FILE *m;

	(void)state;
	assert_non_null(a);
	for (i = 0; i < 100; i++) {
		struct edge_rec e = at(i, i * 500000000ull, 1000, (uint8_t)(i % 2 == 0));

		analysis_add(a, &e);
	}
	analysis_finish(a);
	m = open_memstream(&text, &len);
	assert_non_null(m);
	analysisdoc_print_text(m, a);
	fclose(m);
	assert_non_null(strstr(text, "timeline, 20s a row (from the first edge)"));
	assert_non_null(strstr(text, "\n         20s "));
	assert_non_null(strstr(text, "\n         40s "));
	assert_null(strstr(text, "0.333"));
	free(text);
	analysis_free(a);
}

static void warmup_edges_take_no_part_and_the_first_counted_pulse_needs_two_counted_edges(void **state)
{
	struct analysis *a = new_analysis(&log_info, 0);
	struct edge_rec e[] = { at(0, 0, 0, 1), at(1, HALF, 50000, 0), at(2, 2 * HALF, 0, 1),
				at(3, 3 * HALF, 0, 0) };
	const struct edgestats_result *r;
	size_t i;

	(void)state;
	e[0].flags = e[1].flags = EDGE_F_WARMUP;
	for (i = 0; i < 4; i++)
		analysis_add(a, &e[i]);
	analysis_finish(a);
	r = analysis_stats(a);
	assert_int_equal(r->edges, 2);
	assert_int_equal(r->width[EDGESTATS_ANY].h.m.n, 1);
	assert_int_equal(a->hist.n, 2);
	assert_int_equal(a->minutes[0].edges, 2);
	analysis_free(a);
}

static void a_capture_reports_its_partial_segments_at_both_ends(void **state)
{
	/* a capture from -2 us to 3 ms (capture_source_end() says so) */
	struct analyze_source_info src = {
		.kind = ANALYZE_SRC_REGISTERED, .path = "cap", .format = "vcd",
		.origin_ns = -2000, .has_end = true, .end_ns = 3002000, .ended = true,
	};
	struct analysis *a = new_analysis(&src, 2);
	/* capture edges in ns from the capture's start */
	struct edge_rec e[] = { at(0, 0, 0, 1), at(1, 0, 0, 0), at(2, 0, 0, 1) };
	int64_t head, tail;
	int hl, tl;
	size_t i;

	(void)state;
	e[0].intended_ns = 502000;
	e[1].intended_ns = 1002000;
	e[2].intended_ns = 1502000;
	for (i = 0; i < 3; i++) {
		e[i].wake_off_ns = e[i].write_begin_off_ns = e[i].write_end_off_ns = 0;
		analysis_add(a, &e[i]);
	}
	analysis_finish(a);
	assert_true(analysis_partial(a, &head, &hl, &tail, &tl));
	assert_int_equal(head, 502000);
	assert_int_equal(hl, 0);
	assert_int_equal(tail, 3002000 - 1502000);
	assert_int_equal(tl, 1);
	assert_int_equal(analysis_stats(a)->width[EDGESTATS_ANY].h.m.n, 2);
	/* no intended times: the histogram is of widths */
	assert_int_equal(a->hist.n, 2);
	assert_int_equal(a->hist.counts[500], 2);
	analysis_free(a);
}

/* ---- edge-list CSV ---- */

static const char *write_file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Read every edge of @text; returns the count, -1 on error (reason in @err). */
static int read_all(const char *text, struct edge_rec *out, int max, const struct analyze_source_info **info,
		    struct analyze_source **keep, char *err, size_t errlen, enum analyze_status *st)
{
	const char *path = write_file("edges.csv", text);
	struct analyze_source *s = analyze_source_open(path, NULL, st, err, errlen);
	struct edge_rec e;
	int n = 0, rc;

	if (!s)
		return -1;
	while ((rc = analyze_source_next(s, &e)) == 1)
		if (n < max)
			out[n++] = e;
	if (rc < 0) {
		snprintf(err, errlen, "%s", analyze_source_error(s, st));
		analyze_source_close(s);
		return -1;
	}
	*info = analyze_source_info(s);
	*keep = s;
	return n;
}

static void a_plain_edge_list_reads_with_units_comments_and_crlf(void **state)
{
	struct edge_rec e[8];
	const struct analyze_source_info *info = NULL;
	struct analyze_source *s = NULL;
	enum analyze_status st;
	char err[512];
	int n;

	(void)state;
	n = read_all("\xef\xbb\xbf# from another tool\r\n"
		     "seq,level,intended_s,measured_s,extra\r\n"
		     "0,1,1.000000000,1.000010000,x\r\n"
		     "\r\n"
		     "1,0,1.000500000,1.000502500,y\r\n"
		     "# a comment in the middle\r\n"
		     "2,1,1.001500000,1.001501000,z\r\n"
		     "3,0,1.002000000,1.002000000", e, 8, &info, &s, err, sizeof(err), &st);
	assert_int_equal(n, 4);
	assert_string_equal(info->format, "edge-csv");
	assert_true(info->has_intended);
	assert_false(info->has_window);
	assert_int_equal(info->half_period_ns, HALF); /* inferred from the intended times */
	assert_int_equal(e[0].intended_ns, 1000000000);
	assert_int_equal(e[0].wake_off_ns, 10000);
	assert_int_equal(e[1].write_end_off_ns, 2500);
	assert_int_equal(e[2].expirations, 2); /* a slot passed without an edge */
	assert_int_equal(e[3].expirations, 1);
	assert_int_equal(e[3].level, 0);
	analyze_source_close(s);
}

static void an_edge_list_without_intended_times_has_no_latency(void **state)
{
	struct edge_rec e[4];
	const struct analyze_source_info *info = NULL;
	struct analyze_source *s = NULL;
	enum analyze_status st;
	char err[512];
	int n;

	(void)state;
	n = read_all("seq;level;measured_ns\n5;1;1000\n6;0;501000\n", e, 4, &info, &s, err,
		     sizeof(err), &st);
	assert_int_equal(n, 2);
	assert_false(info->has_intended);
	assert_int_equal(e[1].intended_ns, 501000);
	assert_int_equal(e[1].wake_off_ns, 0);
	assert_int_equal(e[0].seq, 5);
	analyze_source_close(s);
}

static void sqwaves_own_export_is_read_with_its_write_windows(void **state)
{
	struct edge_rec e[4];
	const struct analyze_source_info *info = NULL;
	struct analyze_source *s = NULL;
	enum analyze_status st;
	char err[512];
	int n;

	(void)state;
	n = read_all("seq,level,intended_ns,wake_ns,write_begin_ns,write_end_ns,expirations,flags\n"
		     "0,1,1000000,1004000,1004500,1005000,1,1\n"
		     "1,0,2000000,2003000,2003200,2003900,2,0\n", e, 4, &info, &s, err, sizeof(err), &st);
	assert_int_equal(n, 2);
	assert_string_equal(info->format, "sqwave-export-csv");
	assert_true(info->has_window);
	assert_int_equal(e[0].wake_off_ns, 4000);
	assert_int_equal(e[0].write_begin_off_ns, 4500);
	assert_int_equal(e[0].write_end_off_ns, 5000);
	assert_int_equal(e[0].flags, EDGE_F_WARMUP);
	assert_int_equal(e[1].expirations, 2);
	analyze_source_close(s);
}

static void every_bad_edge_list_is_refused_with_file_and_line(void **state)
{
	static const struct {
		const char *text;
		const char *want;      /* in the message, after "edges.csv:" */
	} bad[] = {
		{ "", ": empty file" },
		{ "seq,level,measured_ns\n# only a comment\n0,1", ":3: 2 fields, the header has 3" },
		{ "seq,measured_ns\n0,1\n", ":1: an edge list needs the columns" },
		{ "seq,level\n0,1\n", ":1: an edge list needs the columns" },
		{ "seq,level,measured_ns,seq\n", ":1: column 'seq' given twice" },
		{ "seq,level,measured_ns\n0,1,5\n1,0\n", ":3: 2 fields, the header has 3" },
		{ "seq,level,measured_ns\nzero,1,5\n", ":2: seq: 'zero' is not an integer" },
		{ "seq,level,measured_ns\n-1,1,5\n", ":2: seq: '-1' is not an integer" },
		{ "seq,level,measured_ns\n0,2,5\n", ":2: level: '2' is not an integer in 0..1" },
		{ "seq,level,measured_ns\n0,1,5us\n", ":2: measured time: '5us' is not an integer" },
		{ "seq,level,measured_s\n0,1,1.5e\n", ":2: measured time: '1.5e' is not a time in seconds" },
		{ "seq,level,measured_ns\n0,1,5\n0,0,6\n", ":3: seq 0 after 0: seq must increase" },
		{ "seq,level,intended_ns,measured_ns\n0,1,100,100\n1,0,50,60\n", ":3: intended time goes backwards" },
		{ "seq,level,measured_ns\n0,1,100\n\n1,0,50\n", ":4: measured time goes backwards" },
		{ "seq,level,intended_ns,write_begin_ns,write_end_ns\n0,1,10,30,20\n",
		  ":2: write_end_ns is before write_begin_ns" },
		{ "seq,level,measured_ns,expirations\n0,1,5,70000\n", ":2: expirations: '70000'" },
		{ "seq,level,measured_ns\n0,1,\"5\n", ":2: unterminated quote" },
	};
	const struct analyze_source_info *info = NULL;
	struct analyze_source *s;
	enum analyze_status st;
	struct edge_rec e[4];
	char err[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		s = NULL;
		err[0] = '\0';
		if (read_all(bad[i].text, e, 4, &info, &s, err, sizeof(err), &st) >= 0) {
			analyze_source_close(s);
			fail_msg("case %zu accepted: %s", i, bad[i].text);
		}
		if (!strstr(err, "edges.csv") || !strstr(err, bad[i].want))
			fail_msg("case %zu: '%s' does not say '%s'", i, err, bad[i].want);
		assert_int_equal(st, ANALYZE_E_INPUT);
	}
}

/* ---- logs cut short ---- */

static void a_truncated_log_is_read_to_its_last_complete_record(void **state)
{
	struct edgelog_meta m = { .version = 1, .clock_id = 1, .half_period_ns = HALF,
				  .start_ns = T0, .text = "board.name=test\n" };
	char path[256];
	struct edgelog_writer *w;
	struct analyze_source *s;
	const struct analyze_source_info *info = NULL;
	enum analyze_status st;
	struct edge_rec e, recs[5];
	char err[256];
	int n = 0, i;

	(void)state;
	snprintf(path, sizeof(path), "%s/cut.sqwlog", tmpdir);
	for (i = 0; i < 5; i++)
		recs[i] = at((uint64_t)i, (uint64_t)i * HALF, 1000, (uint8_t)(i % 2 == 0));
	w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	assert_non_null(w);
	assert_int_equal(edgelog_writer_append(w, recs, 5), 0);
	assert_int_equal(edgelog_writer_close(w, NULL, NULL, 0), 0); /* no footer: killed */
	{
		/* and cut inside the last record */
		FILE *f = fopen(path, "rb+");
		long len;

		assert_non_null(f);
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		fclose(f);
		assert_int_equal(truncate(path, len - 12), 0);
	}
	s = analyze_source_open(path, NULL, &st, err, sizeof(err));
	assert_non_null(s);
	while (analyze_source_next(s, &e) == 1)
		n++;
	info = analyze_source_info(s);
	assert_int_equal(n, 4);
	assert_true(info->ended);
	assert_true(info->truncated);
	assert_null(info->footer);
	assert_int_equal(info->trailing_bytes, 20);
	analyze_source_close(s);
	unlink(path);
}

/* A capture cut short while its edges are read: the read ends with "the
 * file changed", as an I/O condition (exit 3), never SIGBUS, and never as
 * bad input (the bytes that were there were fine). */
static void a_capture_truncated_between_edges_is_an_io_error(void **state)
{
	enum analyze_status st;
	struct analyze_source *s;
	struct edge_rec e;
	char err[256], path[256];
	FILE *f;
	int i, rc;

	(void)state;
	/* qemu-user cannot deliver the SIGBUS of a truncated mapping (as in
	 * test_capture_input): natively only. */
	if (getenv("SQW_UNDER_EMULATION")) {
		printf("    (under qemu-user: skipped, it cannot emulate the SIGBUS)\n");
		return;
	}
	snprintf(path, sizeof(path), "%s/cut.vcd", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "$timescale 1ns $end\n$scope module top $end\n$var wire 1 ! sig $end\n"
		   "$upscope $end\n$enddefinitions $end\n");
	for (i = 0; i < 200000; i++)	/* about 3 MB: many pages past the cut */
		fprintf(f, "#%lld\n%d!\n", (long long)i * 500000, i % 2);
	assert_int_equal(fclose(f), 0);
	s = analyze_source_open(path, NULL, &st, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(analyze_source_next(s, &e), 1);
	assert_int_equal(truncate(path, 4096), 0);
	while ((rc = analyze_source_next(s, &e)) == 1)
		;
	assert_int_equal(rc, -1);
	assert_non_null(strstr(analyze_source_error(s, &st), "the file changed"));
	assert_int_equal(st, ANALYZE_E_IO);
	analyze_source_close(s);
	unlink(path);
}

static void a_foreign_or_missing_file_is_refused(void **state)
{
	enum analyze_status st;
	char err[256];
	char path[256];

	(void)state;
	snprintf(path, sizeof(path), "%s/none.sqwlog", tmpdir);
	assert_null(analyze_source_open(path, NULL, &st, err, sizeof(err)));
	assert_int_equal(st, ANALYZE_E_IO);
	{
		struct analyze_source_opts o = { .format = "log" };
		const char *p = write_file("foreign.bin", "GIF89a not a log at all, not a log at all");

		assert_null(analyze_source_open(p, &o, &st, err, sizeof(err)));
		assert_int_equal(st, ANALYZE_E_INPUT);
		assert_non_null(strstr(err, "not a sqwave log"));
	}
}


/* A log of @n edges a run could write: late wake-ups, a few missed
 * periods, a stall past 16 bits, events; record @bad (if < n) broken. */
static void write_run_log(const char *path, uint64_t n, uint64_t bad, uint64_t dropped_at_end)
{
	struct edgelog_meta m = { .clock_id = 1, .half_period_ns = HALF, .start_ns = T0,
				  .text = "board.name=test\n" };
	struct edgelog_footer f = { .dropped = dropped_at_end };
	struct edgelog_writer *w;
	uint64_t i, slot = 0;

	unlink(path);
	w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	assert_non_null(w);
	for (i = 0; i < n; i++) {
		uint64_t adv = i == 0 ? 1 : i % 997 == 0 ? 3 : i == n / 2 ? 70000 : 1;
		int32_t lat = (int32_t)(2000 + (i * 7919) % 40000);
		struct edge_rec e = {
			.seq = i, .wake_off_ns = lat, .write_begin_off_ns = lat + 200,
			.write_end_off_ns = lat + 900, .level = (uint8_t)((i + 1) & 1),
		};

		slot += i == 0 ? 0 : adv;
		e.intended_ns = T0 + slot * HALF;
		e.expirations = (uint16_t)(adv > UINT16_MAX ? UINT16_MAX : adv);
		if (adv > UINT16_MAX)
			e.flags = EDGE_F_SATURATED;
		if (i == bad)
			e.level = 3;
		assert_int_equal(edgelog_writer_append(w, &e, 1), 0);
		if (i % 1000 == 500)
			assert_int_equal(edgelog_writer_append_event(w, e.intended_ns, EDGELOG_EV_NOTE,
								     "text=hello\n", 11), 0);
	}
	assert_int_equal(edgelog_writer_close(w, &f, NULL, 0), 0);
}

/* analysis_feed() with @threads against analysis_add() edge by edge. */
static void feed_matches_add(unsigned threads)
{
	struct analyze_opts o = { .worst_n = 10, .missed_list = 50, .hist_buckets = 100,
				  .threads = threads };
	char path[256], err[256];
	struct analyze_source *s1, *s2;
	struct analysis *a1, *a2;
	const struct edgestats_result *r1, *r2;
	enum analyze_status st;
	struct edge_rec e;
	uint64_t at_end;
	size_t i;

	alarm(120);	/* a handoff that loses a chunk would hang: fail instead */
	snprintf(path, sizeof(path), "%s/run.sqwlog", tmpdir);
	write_run_log(path, 20000, UINT64_MAX, 5);
	s1 = analyze_source_open(path, NULL, &st, err, sizeof(err));
	s2 = analyze_source_open(path, NULL, &st, err, sizeof(err));
	assert_non_null(s1);
	assert_non_null(s2);
	a1 = analysis_new(&o, analyze_source_info(s1));
	a2 = analysis_new(&o, analyze_source_info(s2));
	while (analyze_source_next(s1, &e) == 1)
		analysis_add(a1, &e);
	assert_int_equal(analysis_feed(a2, s2), 0);
	analysis_finish(a1);
	analysis_finish(a2);
	r1 = analysis_stats(a1);
	r2 = analysis_stats(a2);
	assert_int_equal(r2->edges, 20000);
	assert_int_equal(r1->edges, r2->edges);
	/* 20 places of 2, and a stall of 69,999 counted in full */
	assert_int_equal(r2->missed_periods, 20 * 2 + 69999);
	assert_int_equal(r1->missed_periods, r2->missed_periods);
	assert_int_equal(a2->missed_events, 21);
	assert_int_equal(a2->missed[10].periods, 69999);
	assert_int_equal(r1->wake.m.max, r2->wake.m.max);
	assert_int_equal(r2->wake.m.max, 69999ll * HALF + a2->missed[10].seq * 0 +
			 (int64_t)(2000 + (a2->missed[10].seq * 7919) % 40000));
	assert_int_equal(r1->width[EDGESTATS_ANY].tmax.width_ns, r2->width[EDGESTATS_ANY].tmax.width_ns);
	assert_int_equal(r1->width[EDGESTATS_ANY].tmin.width_ns, r2->width[EDGESTATS_ANY].tmin.width_ns);
	assert_int_equal(a1->nworst, a2->nworst);
	for (i = 0; i < a2->nworst; i++)
		assert_int_equal(a1->worst[i].seq, a2->worst[i].seq);
	assert_int_equal(a1->nminutes, a2->nminutes);
	assert_int_equal(a2->src->events, 20);
	/* the footer's drops after the last record are reported */
	assert_int_equal(analysis_dropped(a2, &at_end), 5);
	assert_int_equal(at_end, 5);
	analysis_free(a1);
	analysis_free(a2);
	analyze_source_close(s1);
	analyze_source_close(s2);
	unlink(path);
	alarm(0);
}

static void feeding_a_log_in_two_threads_gives_what_one_thread_gives(void **state)
{
	(void)state;
	feed_matches_add(0);	/* two threads (on a machine with two CPUs) */
	feed_matches_add(1);	/* one, in batches */
}

static void a_bad_record_stops_the_threaded_feed_naming_it(void **state)
{
	struct analyze_opts o = { .worst_n = 10, .missed_list = 50, .hist_buckets = 100 };
	char path[256], err[256];
	struct analyze_source *s;
	struct analysis *a;
	enum analyze_status st;

	(void)state;
	snprintf(path, sizeof(path), "%s/bad.sqwlog", tmpdir);
	write_run_log(path, 20000, 12345, 0);
	s = analyze_source_open(path, NULL, &st, err, sizeof(err));
	assert_non_null(s);
	a = analysis_new(&o, analyze_source_info(s));
	assert_int_equal(analysis_feed(a, s), -1);
	assert_non_null(strstr(analyze_source_error(s, &st), "record 12345"));
	assert_int_equal(st, ANALYZE_E_INPUT);
	analysis_finish(a);
	analysis_free(a);
	analyze_source_close(s);
	unlink(path);
}

/* Every kind of edge source behind one interface: the kind comes from the
 * first bytes or from --format, a wrong --format is the kind's own refusal,
 * and only logs lend their records in batches. */
static void every_source_kind_opens_through_one_factory(void **state)
{
	static const char csv[] = "seq,level,intended_ns,measured_ns\n0,1,1000,1100\n1,0,501000,501200\n";
	struct analyze_source_opts as_log = { .format = "log" }, as_edges = { .format = "edges" };
	char log[256], err[512];
	const char *list = write_file("kinds.csv", csv);
	struct analyze_source *s;
	enum analyze_status st;
	struct edge_rec e;

	(void)state;
	snprintf(log, sizeof(log), "%s/kinds.sqwlog", tmpdir);
	write_run_log(log, 10, UINT64_MAX, 0);
	/* detected */
	s = analyze_source_open(list, NULL, &st, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(analyze_source_info(s)->kind, ANALYZE_SRC_EDGE_CSV);
	assert_false(analyze_source_batched(s));
	assert_int_equal(analyze_source_next(s, &e), 1);
	analyze_source_close(s);
	s = analyze_source_open(log, NULL, &st, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(analyze_source_info(s)->kind, ANALYZE_SRC_LOG);
	assert_true(analyze_source_batched(s));
	analyze_source_close(s);
	/* named: the same kinds, and a wrong name is that kind's refusal */
	s = analyze_source_open(list, &as_edges, &st, err, sizeof(err));
	assert_non_null(s);
	analyze_source_close(s);
	assert_null(analyze_source_open(list, &as_log, &st, err, sizeof(err)));
	assert_int_equal(st, ANALYZE_E_INPUT);
	assert_null(analyze_source_open(log, &as_edges, &st, err, sizeof(err)));
	assert_int_equal(st, ANALYZE_E_INPUT);
	/* anything else goes to the captures, which say it is not one */
	assert_null(analyze_source_open(write_file("kinds.txt", "hello\n"), NULL, &st, err,
					sizeof(err)));
	assert_int_equal(st, ANALYZE_E_INPUT);
	assert_true(err[0] != '\0');
}

static void a_directory_or_a_pipe_is_bad_input(void **state)
{
	enum analyze_status st;
	char err[256];

	(void)state;
	assert_null(analyze_source_open(tmpdir, NULL, &st, err, sizeof(err)));
	assert_int_equal(st, ANALYZE_E_INPUT);
	assert_non_null(strstr(err, "is a directory"));
	assert_null(analyze_source_open("/dev/zero", NULL, &st, err, sizeof(err)));
	assert_int_equal(st, ANALYZE_E_INPUT);
	assert_non_null(strstr(err, "device"));
}

static int make_dir(void **state)
{
	(void)state;
	sources_register();	/* captures too, as the binary reads them */
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pulse_statistics_match_an_independent_computation),
		cmocka_unit_test(the_last_edge_among_the_worst_has_no_following_pulse),
		cmocka_unit_test(a_pulse_has_the_same_number_in_tmax_and_the_worst_edges),
		cmocka_unit_test(a_pulse_spanning_a_gap_in_seq_is_not_counted),
		cmocka_unit_test(pulses_whose_bounds_cross_a_limit_are_counted_and_fail_the_verdict),
		cmocka_unit_test(missed_periods_are_listed_up_to_the_bound_and_all_counted),
		cmocka_unit_test(the_timeline_has_a_row_per_minute_with_its_worst),
		cmocka_unit_test(the_timeline_rows_are_named_in_durations),
		cmocka_unit_test(warmup_edges_take_no_part_and_the_first_counted_pulse_needs_two_counted_edges),
		cmocka_unit_test(a_capture_reports_its_partial_segments_at_both_ends),
		cmocka_unit_test(a_plain_edge_list_reads_with_units_comments_and_crlf),
		cmocka_unit_test(an_edge_list_without_intended_times_has_no_latency),
		cmocka_unit_test(sqwaves_own_export_is_read_with_its_write_windows),
		cmocka_unit_test(every_bad_edge_list_is_refused_with_file_and_line),
		cmocka_unit_test(a_truncated_log_is_read_to_its_last_complete_record),
		cmocka_unit_test(a_foreign_or_missing_file_is_refused),
		cmocka_unit_test(feeding_a_log_in_two_threads_gives_what_one_thread_gives),
		cmocka_unit_test(a_bad_record_stops_the_threaded_feed_naming_it),
		cmocka_unit_test(a_directory_or_a_pipe_is_bad_input),
		cmocka_unit_test(every_source_kind_opens_through_one_factory),
		cmocka_unit_test(a_capture_truncated_between_edges_is_an_io_error),
	};

	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
