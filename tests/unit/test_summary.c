/* SPDX-License-Identifier: GPL-2.0-or-later */
/* summary: every verdict rule, the text an engineer reads, and JSON that
 * python3's json module accepts and that carries the schema fields. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "log/edgelog.h"
#include "summary/ciout.h"
#include "summary/summary.h"

#define HALF 500000
#define T0   1000000000ull

struct fixture {
	struct config *c;
	struct edgestats *s;
	struct run_info ri;
	char why[2048];
	char json_path[64];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (!f)
		return -1;
	f->c = config_new();
	f->s = edgestats_new(HALF);
	if (!f->c || !f->s)
		return -1;
	f->ri.board_file = "boards/sim.yaml";
	f->ri.log_path = "run.sqwlog";
	f->ri.gpio_desc = "gpiochip0 line 0 (simulated)";
	snprintf(f->ri.host.hostname, sizeof(f->ri.host.hostname), "testhost");
	snprintf(f->ri.host.kernel_release, sizeof(f->ri.host.kernel_release), "6.6.0-rt15");
	snprintf(f->ri.host.kernel_version, sizeof(f->ri.host.kernel_version),
		 "#1 SMP PREEMPT_RT");
	f->ri.host.preempt_rt = true;
	f->ri.host.ncpus = 2;
	f->ri.rt_ok = true;
	f->ri.start_realtime_ns = 1700000000000000000ull;
	f->ri.end_realtime_ns = f->ri.start_realtime_ns + 2000000000ull;
	f->ri.stop_reason = EDGELOG_STOP_DURATION;
	snprintf(f->json_path, sizeof(f->json_path), "%s/sqw-summary-XXXXXX", tmp ? tmp : "/tmp");
	fd = mkstemp(f->json_path);
	if (fd < 0)
		return -1;
	close(fd);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->json_path);
	edgestats_free(f->s);
	config_free(f->c);
	free(f);
	return 0;
}

static void set(struct fixture *f, enum cfg_key key, const char *value)
{
	char err[256];

	if (config_set(f->c, key, value, CFG_SRC_CMDLINE, NULL, 0, err, sizeof(err)) != CFG_OK) {
		print_error("config_set: %s\n", err);
		fail();
	}
}

/* @n edges in consecutive slots, woken 10 us late, each write taking 2 us;
 * edge @slow (if not -1) writes @extra ns later than the others. */
static void feed_wave(struct fixture *f, uint64_t n, int64_t slow, int32_t extra)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		struct edge_rec e = {
			.seq = i,
			.intended_ns = T0 + i * HALF,
			.wake_off_ns = 10000,
			.write_begin_off_ns = 11000,
			.write_end_off_ns = 13000,
			.expirations = 1,
			.level = (uint8_t)(i % 2 == 0),
		};

		if ((int64_t)i == slow) {
			e.wake_off_ns += extra;
			e.write_begin_off_ns += extra;
			e.write_end_off_ns += extra;
		}
		edgestats_add(f->s, &e);
	}
	f->ri.records_logged = n;
}

static enum verdict verdict(struct fixture *f)
{
	f->why[0] = '\0';
	return verdict_judge(f->c, f->s, &f->ri, f->why, sizeof(f->why));
}

/* A 300/700 us wave on its grid (its pin set as the run sets it), each
 * edge 10 us late with a 2 us write; edge @slow another @extra ns late. */
static void feed_duty(struct fixture *f, uint64_t n, int64_t slow, int32_t extra)
{
	const struct wave w = { .high_ns = 300000, .low_ns = 700000 };
	uint64_t i;

	pin_init_wave(&f->ri.pin, "0", &w, 0, PIN_GRID_MONOTONIC, 0);
	edgestats_set_pin(f->s, &f->ri.pin);
	for (i = 0; i < n; i++) {
		struct edge_rec e = {
			.seq = i, .intended_ns = wave_slot_ns(&w, 0, T0, i),
			.wake_off_ns = 10000, .write_begin_off_ns = 11000,
			.write_end_off_ns = 13000, .expirations = 1,
			.level = (uint8_t)wave_slot_level(0, i),
		};

		if ((int64_t)i == slow) {
			e.wake_off_ns += extra;
			e.write_begin_off_ns += extra;
			e.write_end_off_ns += extra;
		}
		edgestats_add(f->s, &e);
	}
	f->ri.records_logged = n;
}

static void a_clean_run_passes(void **state)
{
	struct fixture *f = *state;

	feed_wave(f, 100, -1, 0);
	set(f, CFG_LIMITS_TMIN, "490us");
	set(f, CFG_LIMITS_TMAX, "510us");
	set(f, CFG_LIMITS_WAKE_LATENCY_MAX, "50us");
	set(f, CFG_LIMITS_MISSED_MAX, "0");
	assert_int_equal(verdict(f), VERDICT_PASS);
	assert_string_equal(f->why, "");
}

static void a_run_with_zero_counted_edges_is_not_a_pass(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(verdict(f), VERDICT_FAIL);
	assert_non_null(strstr(f->why, "no edges were counted"));
}

static void dropped_records_fail_the_run(void **state)
{
	struct fixture *f = *state;

	feed_wave(f, 100, -1, 0);
	f->ri.dropped = 3;
	assert_int_equal(verdict(f), VERDICT_FAIL);
	assert_non_null(strstr(f->why, "3 edge records were dropped"));
}

static void a_seq_gap_fails_the_run_even_if_the_ring_reported_none(void **state)
{
	struct fixture *f = *state;
	struct edge_rec e = { .seq = 7, .intended_ns = T0, .expirations = 1 };

	edgestats_add(f->s, &e);
	assert_int_equal(verdict(f), VERDICT_FAIL);
	assert_non_null(strstr(f->why, "7 edge records were dropped"));
}

static void write_errors_fail_the_run(void **state)
{
	struct fixture *f = *state;

	feed_wave(f, 100, -1, 0);
	f->ri.write_errors = 1;
	assert_int_equal(verdict(f), VERDICT_FAIL);
	assert_non_null(strstr(f->why, "1 line writes failed"));
}

static void a_log_io_error_fails_the_run(void **state)
{
	struct fixture *f = *state;

	feed_wave(f, 100, -1, 0);
	f->ri.log_error = true;
	assert_int_equal(verdict(f), VERDICT_FAIL);
	assert_non_null(strstr(f->why, "I/O error"));
}

static void tmin_is_checked_against_the_lowest_possible_width(void **state)
{
	struct fixture *f = *state;

	/* All estimates are exactly 500 us, but each write window is 2 us
	 * wide: the line may have been high for only 498 us. */
	feed_wave(f, 100, -1, 0);
	set(f, CFG_LIMITS_TMIN, "499us");
	assert_int_equal(verdict(f), VERDICT_FAIL);
	assert_non_null(strstr(f->why, "may have been 498.000 us (estimate 500.000 us, "
				       "window [498.000, 502.000] us)"));
	assert_non_null(strstr(f->why, "below limits.tmin 499.000 us"));
	set(f, CFG_LIMITS_TMIN, "498us");
	assert_int_equal(verdict(f), VERDICT_PASS);
}

static void tmax_is_checked_against_the_highest_possible_width(void **state)
{
	struct fixture *f = *state;

	feed_wave(f, 100, 50, 30000); /* edge 50 is 30 us late: the pulse it ends is 530 us */
	set(f, CFG_LIMITS_TMAX, "531us");
	assert_int_equal(verdict(f), VERDICT_FAIL);
	assert_non_null(strstr(f->why, "may have been 532.000 us"));
	assert_non_null(strstr(f->why, "edge #50"));
	set(f, CFG_LIMITS_TMAX, "532us");
	assert_int_equal(verdict(f), VERDICT_PASS);
}

static void a_limit_on_widths_without_any_pulse_fails(void **state)
{
	struct fixture *f = *state;

	feed_wave(f, 1, -1, 0);
	set(f, CFG_LIMITS_TMIN, "400us");
	assert_int_equal(verdict(f), VERDICT_FAIL);
	assert_non_null(strstr(f->why, "no complete pulse"));
}

static void wake_latency_over_the_limit_fails(void **state)
{
	struct fixture *f = *state;

	feed_wave(f, 100, 42, 90000);
	set(f, CFG_LIMITS_WAKE_LATENCY_MAX, "99us");
	assert_int_equal(verdict(f), VERDICT_FAIL);
	assert_non_null(strstr(f->why, "worst wake-up latency 100.000 us at edge #42"));
	assert_non_null(strstr(f->why, "exceeds limits.wake_latency_max 99.000 us"));
	set(f, CFG_LIMITS_WAKE_LATENCY_MAX, "100us"); /* reaching the limit is allowed */
	assert_int_equal(verdict(f), VERDICT_PASS);
}

static void missed_periods_fail_only_above_missed_max(void **state)
{
	struct fixture *f = *state;
	struct edge_rec e = {
		.seq = 2, .intended_ns = T0 + 4 * HALF, .expirations = 3, .level = 1,
	};

	feed_wave(f, 2, -1, 0);
	edgestats_add(f->s, &e);
	assert_int_equal(verdict(f), VERDICT_NO_LIMITS); /* default -1: unchecked */
	set(f, CFG_LIMITS_MISSED_MAX, "1");
	assert_int_equal(verdict(f), VERDICT_FAIL);
	assert_non_null(strstr(f->why, "2 periods were missed, limits.missed_max is 1"));
	set(f, CFG_LIMITS_MISSED_MAX, "2");
	assert_int_equal(verdict(f), VERDICT_PASS);
}

static void each_violation_is_one_line_appended_to_why(void **state)
{
	struct fixture *f = *state;
	const char *nl;

	feed_wave(f, 100, -1, 0);
	f->ri.dropped = 1;
	f->ri.write_errors = 2;
	snprintf(f->why, sizeof(f->why), "earlier\n");
	assert_int_equal(verdict_judge(f->c, f->s, &f->ri, f->why, sizeof(f->why)),
			 VERDICT_FAIL);
	assert_true(!strncmp(f->why, "earlier\n", 8));
	nl = strchr(f->why + 8, '\n');
	assert_non_null(nl);
	assert_non_null(strstr(f->why + 8, "1 edge records were dropped"));
	assert_string_equal(nl + 1, "2 line writes failed\n");
}

static void a_tiny_why_buffer_is_truncated_not_overrun(void **state)
{
	struct fixture *f = *state;
	char why[8] = "";

	feed_wave(f, 100, -1, 0);
	f->ri.dropped = 1;
	assert_int_equal(verdict_judge(f->c, f->s, &f->ri, why, sizeof(why)), VERDICT_FAIL);
	assert_int_equal(strlen(why), 7);
}

static int python_accepts(const char *path, const char *expr);

static char *text_of(struct fixture *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	summary_print_text(m, f->c, f->s, &f->ri);
	fclose(m);
	return buf;
}

static void a_non_rt_run_says_so_loudly(void **state)
{
	struct fixture *f = *state;
	char *t;

	feed_wave(f, 100, -1, 0);
	f->ri.rt_ok = false;
	f->ri.non_rt_reason = "no CAP_SYS_NICE (--allow-non-rt)";
	t = text_of(f);
	assert_non_null(strstr(t, "*** NON-RT RUN: no CAP_SYS_NICE (--allow-non-rt) ***"));
	assert_non_null(strstr(t, "verdict    NO LIMITS"));
	assert_non_null(strstr(t, "(NON-RT RUN: not a real-time result)"));
	free(t);
}

static void the_text_shows_tmin_and_tmax_with_their_windows(void **state)
{
	struct fixture *f = *state;
	char *t;

	feed_wave(f, 100, 50, 30000);
	t = text_of(f);
	assert_non_null(strstr(t, "PREEMPT_RT yes"));
	assert_non_null(strstr(t, "Tmax      530.000 us  [528.000, 532.000]  edge #50"));
	assert_non_null(strstr(t, "Tmin      470.000 us  [468.000, 472.000]  edge #51"));
	assert_non_null(strstr(t, "wake latency"));
	assert_non_null(strstr(t, "verdict    NO LIMITS"));
	free(t);
}

/* A respond run: follow answers at 1 ms, the event stamped after a debounce
 * of 100 us; answer 2 rewrites the level (its event before was lost) and is
 * the latest write, answer 1 the earliest. */
static void feed_respond(struct fixture *f)
{
	static const struct { uint8_t level; int32_t wb, we; uint16_t exp; } a[] = {
		{ 1, 20000, 21000, 1 }, { 0, 15000, 16000, 1 }, { 0, 90000, 99000, 2 },
		{ 1, 30000, 31000, 1 }, { 0, 25000, 26000, 1 },
	};
	uint64_t i;

	f->ri.respond = true;
	f->ri.respond_mode = "follow";
	f->ri.respond_edge = "both";
	f->ri.event_clock = "monotonic";
	f->ri.input_desc = "gpiochip0 line 2 (simulated)";
	f->ri.debounce_ns = 100000;
	f->ri.irq_bound_ns = 5000;
	edgestats_set_respond(f->s, 0);
	for (i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		struct edge_rec e = {
			.seq = i,
			.intended_ns = T0 + i * 1000000,
			.wake_off_ns = a[i].wb - 1000,
			.write_begin_off_ns = a[i].wb,
			.write_end_off_ns = a[i].we,
			.expirations = a[i].exp,
			.level = a[i].level,
		};

		edgestats_add(f->s, &e);
	}
	f->ri.records_logged = i;
}

static void the_scope_bounds_add_the_debounce_over_the_answers_that_changed_the_pin(void **state)
{
	struct fixture *f = *state;
	char *t;
	int ret;

	feed_respond(f);
	t = text_of(f);
	/* 4 answers changed the output; the rewrite (99 us) shows nothing */
	assert_non_null(strstr(t, "over the 4 counted answers that changed the output"));
	/* at least 15 us + 100 us of debounce; at most 31 + 100 + 5 us */
	assert_non_null(strstr(t, "at least 115.000 us (the shortest write begin - event, "
			       "15.000 us at answer #1, + respond.debounce 100us)"));
	assert_non_null(strstr(t, "at most  136.000 us (the longest write end - event, "
			       "31.000 us at answer #3"));
	assert_non_null(strstr(t, "rewrites   1 counted writes of the level the output had"));
	free(t);
	assert_int_equal(summary_write_json(f->json_path, f->c, f->s, &f->ri, NULL, 0), 0);
	ret = python_accepts(f->json_path,
			     "d[\"respond\"][\"scope\"][\"min_ns\"] == 115000 and "
			     "d[\"respond\"][\"scope\"][\"max_ns\"] == 136000 and "
			     "d[\"respond\"][\"scope\"][\"answers\"] == 4 and "
			     "d[\"respond\"][\"scope\"][\"debounce_ns\"] == 100000 and "
			     "d[\"respond\"][\"rewrites\"] == 1 and "
			     "d[\"respond\"][\"answers\"] == 5");
	if (ret < 0)
		skip();
	assert_int_equal(ret, 0);
}

static void lost_and_unanswered_events_are_shown_warm_up_included(void **state)
{
	struct fixture *f = *state;
	char *t;
	int ret;

	feed_respond(f);
	t = text_of(f);
	/* a log without the stop's note: the unanswered are not known */
	assert_non_null(strstr(t, "lost       1 events, 0 more in the warm-up (not counted)"));
	assert_non_null(strstr(t, "unanswered not known"));
	free(t);
	edgestats_respond_end(f->s, 1, 39311, 7);
	t = text_of(f);
	assert_non_null(strstr(t, "lost       1 events, 39311 more in the warm-up (not counted)"));
	assert_non_null(strstr(t, "unanswered 7 events stamped before the stop, still queued then"));
	free(t);
	assert_int_equal(summary_write_json(f->json_path, f->c, f->s, &f->ri, NULL, 0), 0);
	ret = python_accepts(f->json_path,
			     "d[\"respond\"][\"events_lost\"] == 1 and "
			     "d[\"respond\"][\"events_lost_warmup\"] == 39311 and "
			     "d[\"respond\"][\"events_unanswered\"] == 7");
	if (ret < 0)
		skip();
	assert_int_equal(ret, 0);
}

static void the_text_lists_the_violations_under_fail(void **state)
{
	struct fixture *f = *state;
	char *t;

	feed_wave(f, 100, -1, 0);
	f->ri.dropped = 5;
	t = text_of(f);
	assert_non_null(strstr(t, "verdict    FAIL\n  - 5 edge records were dropped"));
	free(t);
}

/* python3 checks the file; extra checks on the parsed object in @expr. */
static int python_accepts(const char *path, const char *expr)
{
	char cmd[1024];

	if (system("python3 -c '' 2>/dev/null") != 0)
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
		 "sys.exit(0 if (%s) else 3)' '%s'", expr, path);
	return system(cmd);
}

static void the_json_summary_is_valid_and_carries_the_schema(void **state)
{
	struct fixture *f = *state;
	char expr[512];
	int ret;

	feed_wave(f, 100, 50, 30000);
	f->ri.dropped = 1;
	assert_int_equal(summary_write_json(f->json_path, f->c, f->s, &f->ri, NULL, 0), 0);
	snprintf(expr, sizeof(expr),
		 "d[\"schema\"] == \"sqwave-summary\" and d[\"schema_version\"] == 1 and "
		 "len(d[\"config\"]) == %d and d[\"config\"][\"run.half_period\"][\"value\"] == 500000 and "
		 "d[\"verdict\"][\"pass\"] is False and len(d[\"verdict\"][\"violations\"]) == 1 and "
		 "d[\"pulse_width\"][\"negative\"][\"tmax_bound\"][\"hi_ns\"] == 532000 and "
		 "d[\"wake_latency\"][\"max_ns\"] == 40000 and d[\"host\"][\"preempt_rt\"] is True",
		 CFG_NKEYS);
	ret = python_accepts(f->json_path, expr);
	if (ret < 0)
		skip();
	assert_int_equal(ret, 0);
}

static void the_json_summary_of_an_empty_run_has_nulls_not_garbage(void **state)
{
	struct fixture *f = *state;
	int ret;

	assert_int_equal(summary_write_json(f->json_path, f->c, f->s, &f->ri, NULL, 0), 0);
	ret = python_accepts(f->json_path,
			     "d[\"wake_latency\"][\"min_ns\"] is None and "
			     "d[\"wake_latency\"][\"percentiles_ns\"][\"p99\"] is None and "
			     "d[\"pulse_width\"][\"any\"][\"tmin\"] is None and "
			     "d[\"verdict\"][\"pass\"] is False");
	if (ret < 0)
		skip();
	assert_int_equal(ret, 0);
}

static void hostile_strings_still_make_valid_json(void **state)
{
	struct fixture *f = *state;
	int ret;

	feed_wave(f, 10, -1, 0);
	f->ri.gpio_desc = "line \"0\"\n\t\\ \x01 \xff\xfe end";
	snprintf(f->ri.host.cmdline, sizeof(f->ri.host.cmdline), "quiet isolcpus=1 \x7f\xc3");
	assert_int_equal(summary_write_json(f->json_path, f->c, f->s, &f->ri, NULL, 0), 0);
	ret = python_accepts(f->json_path,
			     "d[\"board\"][\"gpio\"] == \"line \\\"0\\\"\\n\\t\\\\ \\x01 \\ufffd\\ufffd end\"");
	if (ret < 0)
		skip();
	assert_int_equal(ret, 0);
}

static void an_unwritable_json_path_is_an_error_with_errno(void **state)
{
	struct fixture *f = *state;
	char err[256];

	errno = 0;
	assert_int_equal(summary_write_json("/nonexistent-dir/x.json", f->c, f->s, &f->ri, err,
					    sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "/nonexistent-dir/x.json"));
	/* a full device: the reason, and nothing to remove */
	errno = 0;
	assert_int_equal(summary_write_json("/dev/full", f->c, f->s, &f->ri, err, sizeof(err)), -1);
	assert_int_equal(errno, ENOSPC);
	assert_non_null(strstr(err, "writing /dev/full failed: No space left on device"));
	assert_null(strstr(err, "removed"));
}

/* ---- the checks behind the verdict (verdict_checks) ---- */

#define MAXCK 64

struct got_checks {
	size_t n;
	struct verdict_check ck[MAXCK];
	char msg[MAXCK][600], phase[MAXCK][64], load[MAXCK][64];
};

static void got_one(void *ctx, const struct verdict_check *ck)
{
	struct got_checks *g = ctx;

	assert_true(g->n < MAXCK);
	g->ck[g->n] = *ck;
	snprintf(g->msg[g->n], sizeof(g->msg[0]), "%s", ck->message ? ck->message : "");
	snprintf(g->phase[g->n], sizeof(g->phase[0]), "%s", ck->phase ? ck->phase : "");
	snprintf(g->load[g->n], sizeof(g->load[0]), "%s", ck->load ? ck->load : "");
	g->n++;
}

static unsigned checks_of(struct fixture *f, struct got_checks *g)
{
	memset(g, 0, sizeof(*g));
	return verdict_checks(f->c, f->s, &f->ri, got_one, g);
}

/* The check named @name of phase @phase ("" for the run) and load @load. */
static const struct verdict_check *find_check(const struct got_checks *g, const char *phase,
					      const char *load, const char *name, size_t *idx)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		if (!strcmp(g->ck[i].name, name) && !strcmp(g->phase[i], phase) &&
		    !strcmp(g->load[i], load)) {
			if (idx)
				*idx = i;
			return &g->ck[i];
		}
	}
	print_error("no check %s/%s/%s\n", phase, load, name);
	fail();
	return NULL;
}

/* The same, or NULL when there is none. */
static const struct verdict_check *find_check_quiet(const struct got_checks *g,
						    const char *phase, const char *load,
						    const char *name)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		if (!strcmp(g->ck[i].name, name) && !strcmp(g->phase[i], phase) &&
		    !strcmp(g->load[i], load))
			return &g->ck[i];
	}
	return NULL;
}

/* The documented example (docs/configuration.md): with 300/700 us,
 * limits.width_error 10us holds each level to its own time, and a high
 * pulse stretched to 700 us fails it, though it is within 290..710 us. */
static void a_stretched_high_pulse_fails_its_own_levels_width_error(void **state)
{
	struct fixture *f = *state;
	struct got_checks g;
	const struct verdict_check *ck;

	feed_duty(f, 100, 51, 400000);	/* edge 51 ends a high pulse 400 us late */
	set(f, CFG_LIMITS_TMIN, "290us");
	set(f, CFG_LIMITS_TMAX, "710us");
	assert_int_equal(verdict(f), VERDICT_PASS);	/* absolute widths: both fine */
	set(f, CFG_LIMITS_WIDTH_ERROR, "10us");
	assert_int_equal(verdict(f), VERDICT_FAIL);
	assert_non_null(strstr(f->why, "a positive pulse may have been 402.000 us off its "
				       "nominal 300.000 us"));
	checks_of(f, &g);
	ck = find_check(&g, "", "", "width_error", NULL);
	assert_int_equal(ck->result, VERDICT_CHECK_FAIL);
	assert_int_equal((int64_t)ck->observed, 402000);
	assert_int_equal(ck->seq, 51);
}

static void a_healthy_duty_wave_passes_its_width_error(void **state)
{
	struct fixture *f = *state;

	feed_duty(f, 100, -1, 0);
	set(f, CFG_LIMITS_WIDTH_ERROR, "3us");	/* the write windows' 2 us either side */
	assert_int_equal(verdict(f), VERDICT_PASS);
	set(f, CFG_LIMITS_WIDTH_ERROR, "1us");	/* conservative: the bounds may be 2 us off */
	assert_int_equal(verdict(f), VERDICT_FAIL);
}

/* The verdict's failures, one per line, are the failed checks' sentences. */
static void assert_violations_are_the_failed_checks(struct fixture *f, const struct got_checks *g)
{
	char joined[4096] = "";
	size_t i, o = 0;

	for (i = 0; i < g->n; i++) {
		if (g->ck[i].result == VERDICT_CHECK_FAIL && g->ck[i].in_verdict)
			o += (size_t)snprintf(joined + o, sizeof(joined) - o, "%s\n", g->msg[i]);
	}
	verdict(f);
	assert_string_equal(f->why, joined);
}

static void every_failed_check_is_a_violation_with_the_same_sentence(void **state)
{
	struct fixture *f = *state;
	struct edge_rec e = { .seq = 100, .intended_ns = T0 + 101 * HALF, .expirations = 2 };
	struct got_checks g;
	unsigned nfail;

	feed_wave(f, 100, 50, 30000);
	edgestats_add(f->s, &e);
	f->ri.dropped = 2;
	set(f, CFG_LIMITS_TMAX, "531us");
	set(f, CFG_LIMITS_MISSED_MAX, "0");
	nfail = checks_of(f, &g);
	assert_int_equal(nfail, 3);	/* dropped, tmax, missed_periods */
	assert_int_equal(find_check(&g, "", "", "dropped", NULL)->result, VERDICT_CHECK_FAIL);
	assert_int_equal(find_check(&g, "", "", "missed_periods", NULL)->result, VERDICT_CHECK_FAIL);
	assert_int_equal(find_check(&g, "", "", "edges", NULL)->result, VERDICT_CHECK_PASS);
	assert_violations_are_the_failed_checks(f, &g);
}

static void a_violated_limit_carries_its_key_limit_figure_edge_and_time(void **state)
{
	struct fixture *f = *state;
	const struct verdict_check *k;
	struct got_checks g;
	size_t i;

	feed_wave(f, 100, 50, 30000); /* the pulse ended by edge 50 is 530 us, window up to 532 us */
	set(f, CFG_LIMITS_TMAX, "531us");
	checks_of(f, &g);
	k = find_check(&g, "", "", "tmax", &i);
	assert_int_equal(k->result, VERDICT_CHECK_FAIL);
	assert_true(k->in_verdict);
	assert_string_equal(k->key, "limits.tmax");
	assert_int_equal(k->unit, VERDICT_UNIT_NS);
	assert_true(k->has_observed && k->has_limit && k->has_estimate && k->has_edge);
	assert_true(k->observed == 532000 && k->limit == 531000 && k->estimate == 530000);
	assert_false(k->limit_is_min);
	assert_int_equal(k->seq, 50);
	assert_int_equal(k->intended_ns, T0 + 50 * HALF);
	assert_true(fabs(k->t_s - 0.025) < 1e-9);
	assert_non_null(strstr(g.msg[i], "above limits.tmax 531.000 us"));
	/* tmin: a lower bound, checked against the narrowest window edge */
	k = find_check(&g, "", "", "tmin", NULL);
	assert_int_equal(k->result, VERDICT_CHECK_SKIP);
	assert_true(k->has_observed && !k->has_limit && k->limit_is_min);
	assert_true(k->observed == 468000);
}

static void an_unset_limit_is_skipped_but_keeps_its_figure(void **state)
{
	struct fixture *f = *state;
	const struct verdict_check *k;
	struct got_checks g;
	size_t i;

	feed_wave(f, 100, 42, 90000);
	assert_int_equal(checks_of(f, &g), 0);
	k = find_check(&g, "", "", "wake_latency_max", &i);
	assert_int_equal(k->result, VERDICT_CHECK_SKIP);
	assert_true(k->has_observed && k->observed == 100000 && k->seq == 42);
	assert_string_equal(g.msg[i], "limits.wake_latency_max is not set");
	k = find_check(&g, "", "", "missed_periods", NULL);
	assert_int_equal(k->result, VERDICT_CHECK_SKIP);
	assert_true(k->has_observed && k->observed == 0 && k->unit == VERDICT_UNIT_COUNT);
	set(f, CFG_LIMITS_WAKE_LATENCY_MAX, "100us");
	checks_of(f, &g);
	assert_int_equal(find_check(&g, "", "", "wake_latency_max", NULL)->result, VERDICT_CHECK_PASS);
}

/* A run of two phases: "idle" (no loads) and "loaded" (a CoreMark on CPU 0,
 * a ping flood on lo), the second with what @busy/@pps/@valid say. */
struct phased {
	struct run_phase ph[2];
	struct proof_phase proof[2];
	struct proof_req reqs[2];
	struct edgestats *st[2];
};

static void phased_setup(struct fixture *f, struct phased *p, float busy, double pps, bool valid)
{
	struct proof_sample smp = { .dt_ns = 1000000000ull, .ncpu = 2, .nif = 1 };
	struct load_result res = { .valid = valid, .score = 100 };
	char err[64];
	uint64_t i;

	memset(p, 0, sizeof(*p));
	snprintf(p->reqs[0].name, sizeof(p->reqs[0].name), "coremark");
	p->reqs[0].kind = LOAD_PROOF_CPU;
	p->reqs[0].results = true;
	cpulist_parse("0", &p->reqs[0].cpus, err, sizeof(err));
	snprintf(p->reqs[1].name, sizeof(p->reqs[1].name), "ping-flood");
	p->reqs[1].kind = LOAD_PROOF_NET;
	p->reqs[1].min_pps = 1000;
	snprintf(p->reqs[1].iface, sizeof(p->reqs[1].iface), "lo");
	smp.busy[0] = busy;
	smp.busy[1] = 5;
	snprintf(smp.ifname[0], PROOF_IFNAME, "lo");
	smp.rx_pps[0] = smp.tx_pps[0] = pps / 2;
	proof_phase_add_sample(&p->proof[1], &smp);
	if (!valid)
		snprintf(res.why, sizeof(res.why), "ran 4 s");
	proof_phase_add_result(&p->proof[1], "coremark", &res);
	p->st[0] = edgestats_new(HALF);
	p->st[1] = edgestats_new(HALF);
	assert_non_null(p->st[0]);
	assert_non_null(p->st[1]);
	for (i = 0; i < 100; i++) {
		struct edge_rec e = { .seq = i, .intended_ns = T0 + i * HALF, .wake_off_ns = 10000,
				      .write_begin_off_ns = 11000, .write_end_off_ns = 13000,
				      .expirations = 1, .level = (uint8_t)(i % 2 == 0) };

		edgestats_add(f->s, &e);
		edgestats_add(p->st[i < 50 ? 0 : 1], &e);
	}
	p->ph[0] = (struct run_phase){ .name = "idle", .stats = p->st[0], .proof = &p->proof[0],
					   .duration_ns = 25000000, .sampled = true };
	p->ph[1] = (struct run_phase){ .name = "loaded", .stats = p->st[1], .start_off_ns = 25000000,
					   .proof = &p->proof[1], .reqs = p->reqs, .nreqs = 2,
					   .sampled = true };
	f->ri.phases = p->ph;
	f->ri.nphases = 2;
	f->ri.min_busy_pct = 80;
	f->ri.records_logged = 100;
}

static void phased_free(struct phased *p)
{
	edgestats_free(p->st[0]);
	edgestats_free(p->st[1]);
}

static void load_proofs_are_checks_with_phase_load_what_observed_and_needed(void **state)
{
	struct fixture *f = *state;
	const struct verdict_check *k;
	struct got_checks g;
	struct phased p;
	size_t i;

	phased_setup(f, &p, 30, 20, false);
	assert_int_equal(checks_of(f, &g), 3);
	k = find_check(&g, "loaded", "coremark", "cpu_busy", &i);
	assert_int_equal(k->result, VERDICT_CHECK_FAIL);
	assert_true(k->in_verdict && k->unit == VERDICT_UNIT_PERCENT);
	assert_true(k->has_observed && fabs(k->observed - 30) < 0.01);
	assert_true(k->has_limit && k->limit == 80 && k->limit_is_min);
	assert_string_equal(g.msg[i], "phase loaded: load not applied: coremark: CPUs 0 were 30 % "
				      "busy (at least 80 % needed)");
	k = find_check(&g, "loaded", "coremark", "valid_scores", &i);
	assert_int_equal(k->result, VERDICT_CHECK_FAIL);
	assert_true(k->observed == 0 && k->limit == 1);
	assert_non_null(strstr(g.msg[i], "coremark gave no valid score (1 runs without: ran 4 s)"));
	k = find_check(&g, "loaded", "ping-flood", "packets_per_s", &i);
	assert_int_equal(k->result, VERDICT_CHECK_FAIL);
	assert_true(fabs(k->observed - 20) < 0.01 && k->limit == 1000 &&
		    k->unit == VERDICT_UNIT_PPS);
	assert_non_null(strstr(g.msg[i], "the flood did not arrive"));
	assert_int_equal(find_check(&g, "loaded", "coremark", "running", NULL)->result,
			 VERDICT_CHECK_PASS);
	assert_violations_are_the_failed_checks(f, &g);
	/* in the JSON: the loads' checks (the phases' own limits are not the verdict's) */
	assert_int_equal(summary_write_json(f->json_path, f->c, f->s, &f->ri, NULL, 0), 0);
	i = (size_t)python_accepts(f->json_path,
		"all(c[\"load\"] for c in d[\"verdict\"][\"checks\"] if c[\"phase\"]) and "
		"[(c[\"observed\"], c[\"limit\"], c[\"unit\"], c[\"bound\"], c[\"message\"]) "
		"for c in d[\"verdict\"][\"checks\"] if c[\"name\"] == \"cpu_busy\"] == "
		"[(30.0, 80, \"percent\", \"min\", d[\"verdict\"][\"violations\"][0])]");
	if ((int)i >= 0)
		assert_int_equal((int)i, 0);

	/* the same loads showing: every proof passes, with its figure */
	phased_free(&p);
	edgestats_free(f->s);
	f->s = edgestats_new(HALF);
	phased_setup(f, &p, 95, 50000, true);
	assert_int_equal(checks_of(f, &g), 0);
	k = find_check(&g, "loaded", "coremark", "cpu_busy", NULL);
	assert_true(k->result == VERDICT_CHECK_PASS && fabs(k->observed - 95) < 0.01);
	k = find_check(&g, "loaded", "coremark", "valid_scores", NULL);
	assert_true(k->result == VERDICT_CHECK_PASS && k->observed == 1);
	phased_free(&p);
}

/* The idle phase of an idle-versus-loaded run proves it was idle: busy
 * CPUs make it "load not applied" (the verdict's word too), with figures. */
static void an_idle_phase_that_was_busy_is_load_not_applied(void **state)
{
	struct fixture *f = *state;
	const struct verdict_check *k;
	struct proof_sample smp = { .dt_ns = 1000000000ull, .ncpu = 2 };
	struct proof_req idle;
	struct got_checks g;
	struct phased p;
	cpu_set_t cpus;
	char err[64], *t;
	size_t i;

	phased_setup(f, &p, 95, 50000, true);
	set(f, CFG_LIMITS_TMAX, "600us");	/* a real verdict otherwise: PASS */
	cpulist_parse("0", &cpus, err, sizeof(err));
	proof_req_idle(&idle, &cpus, 25);
	p.ph[0].reqs = &idle;
	p.ph[0].nreqs = 1;
	smp.busy[0] = 60;
	smp.busy[1] = 3;
	proof_phase_add_sample(&p.proof[0], &smp);
	assert_int_equal(checks_of(f, &g), 1);
	k = find_check(&g, "idle", PROOF_IDLE_NAME, "idle_busy", &i);
	assert_int_equal(k->result, VERDICT_CHECK_FAIL);
	assert_true(k->in_verdict && k->unit == VERDICT_UNIT_PERCENT && !k->limit_is_min);
	assert_true(fabs(k->observed - 60) < 0.01 && k->limit == 25);
	assert_string_equal(g.msg[i], "phase idle: not idle: CPUs 0 were 60 % busy with no load "
				      "of sqwave's running (at most 25 %: proof.idle_max_busy); "
				      "something else loaded the machine");
	assert_null(find_check_quiet(&g, "idle", PROOF_IDLE_NAME, "running"));
	assert_violations_are_the_failed_checks(f, &g);
	f->ri.containment = "process groups";	/* the load proof section is printed */
	t = text_of(f);
	assert_non_null(strstr(t, "\nverdict    LOAD NOT APPLIED\n"));
	assert_non_null(strstr(t, "no load: CPUs 0 60 % busy (at most 25 %)"));
	free(t);
	assert_string_equal(verdict_word(f->c, f->s, &f->ri), "LOAD NOT APPLIED");

	/* quiet: passes, and the run's verdict is its limits' again */
	memset(&p.proof[0], 0, sizeof(p.proof[0]));
	smp.busy[0] = 4;
	proof_phase_add_sample(&p.proof[0], &smp);
	assert_int_equal(checks_of(f, &g), 0);
	assert_int_equal(find_check(&g, "idle", PROOF_IDLE_NAME, "idle_busy", NULL)->result,
			 VERDICT_CHECK_PASS);
	assert_string_equal(verdict_word(f->c, f->s, &f->ri), "PASS");
	phased_free(&p);
}

static void a_loaded_phase_with_proof_gaps_is_proof_incomplete_not_applied(void **state)
{
	struct fixture *f = *state;
	const struct verdict_check *k;
	struct got_checks g;
	struct phased p;
	size_t i;
	char *t;

	phased_setup(f, &p, 95, 50000, true);
	set(f, CFG_LIMITS_TMAX, "600us");
	p.ph[1].gaps_known = true;
	p.ph[1].gap_bound_ns = 2000000000ull;
	p.ph[1].max_gap_ns = 2000000000ull;	/* at the bound: complete */
	assert_int_equal(checks_of(f, &g), 0);
	assert_int_equal(find_check(&g, "loaded", "", "proof_gaps", NULL)->result, VERDICT_CHECK_PASS);
	assert_string_equal(verdict_word(f->c, f->s, &f->ri), "PASS");

	p.ph[1].max_gap_ns = 13000000000ull;	/* held off 13 s */
	assert_int_equal(checks_of(f, &g), 1);
	k = find_check(&g, "loaded", "", "proof_gaps", &i);
	assert_int_equal(k->result, VERDICT_CHECK_FAIL);
	assert_true(k->in_verdict && k->unit == VERDICT_UNIT_NS);
	assert_true(k->observed == 13e9 && k->limit == 2e9);
	assert_string_equal(g.msg[i], "phase loaded: proof incomplete: no proof-of-load reading "
				      "for 13.0 s (at most 2.0 s: 2 x proof.interval); the "
				      "sampler was held off");
	assert_violations_are_the_failed_checks(f, &g);
	assert_string_equal(verdict_word(f->c, f->s, &f->ri), "PROOF INCOMPLETE");
	f->ri.containment = "process groups";
	t = text_of(f);
	assert_non_null(strstr(t, "\nverdict    PROOF INCOMPLETE\n"));
	assert_non_null(strstr(t, "  loaded         proof incomplete; 1 samples"));
	assert_non_null(strstr(t, "longest gap between readings 13.0 s (at most 2.0 s)"));
	free(t);
	/* a load that did not show as well: not applied is the stronger word */
	p.proof[1].loads[0].valid = 0;
	assert_string_equal(verdict_word(f->c, f->s, &f->ri), "LOAD NOT APPLIED");
	phased_free(&p);
}

static void a_run_without_loads_shows_whether_it_was_idle_without_judging_it(void **state)
{
	struct fixture *f = *state;
	struct proof_sample smp = { .dt_ns = 1000000000ull, .t_ns = 5000000000ull, .ncpu = 2 };
	struct proof_phase pp = { 0 };
	struct proof_req idle;
	struct run_phase ph = { .name = "run", .proof = &pp, .reqs = &idle, .nreqs = 1,
				    .sampled = true, .advisory = true, .gaps_known = true,
				    .max_gap_ns = 1000000000ull, .gap_bound_ns = 2000000000ull };
	cpu_set_t cpus;
	char err[64], *t;

	(void)err;
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	proof_req_idle(&idle, &cpus, 25);
	smp.busy[0] = 99;
	smp.busy[1] = 1;
	proof_phase_add_sample(&pp, &smp);
	feed_wave(f, 100, 0, 0);
	f->ri.records_logged = 100;
	f->ri.run_proof = &ph;
	f->ri.sampler_sched = "SCHED_FIFO 1, off rt.cpu";
	set(f, CFG_LIMITS_TMAX, "600us");
	/* the verdict is the wave's: nothing asked for a comparison */
	assert_string_equal(verdict_word(f->c, f->s, &f->ri), "PASS");
	t = text_of(f);
	assert_non_null(strstr(t, "\nproof      not idle: CPUs 0 99 % busy (at most 25 %: "
				  "proof.idle_max_busy); 1 samples, longest gap 1.0 s (at most "
				  "2.0 s)\nsampler    SCHED_FIFO 1, off rt.cpu\n"));
	free(t);
	pp.busy_sum[0] = 3;
	t = text_of(f);
	assert_non_null(strstr(t, "\nproof      idle proven: CPUs 0 3 % busy"));
	free(t);
	pp.samples = 0;
	memset(pp.busy_n, 0, sizeof(pp.busy_n));
	t = text_of(f);
	assert_non_null(strstr(t, "\nproof      idle unproven; 0 samples"));
	free(t);
}

static void a_lost_load_fails_running_and_skips_its_other_proofs(void **state)
{
	struct fixture *f = *state;
	struct got_checks g;
	struct phased p;
	size_t i;

	phased_setup(f, &p, 99, 50000, true);
	proof_phase_load(&p.proof[1], "coremark")->lost = true;
	snprintf(proof_phase_load(&p.proof[1], "coremark")->lost_why, 160, "exits at once");
	assert_int_equal(checks_of(f, &g), 1);
	assert_int_equal(find_check(&g, "loaded", "coremark", "running", &i)->result, VERDICT_CHECK_FAIL);
	assert_non_null(strstr(g.msg[i], "phase loaded: load not applied: coremark was lost "
					 "(exits at once)"));
	assert_int_equal(find_check(&g, "loaded", "coremark", "cpu_busy", NULL)->result,
			 VERDICT_CHECK_SKIP);
	assert_int_equal(find_check(&g, "loaded", "coremark", "valid_scores", NULL)->result,
			 VERDICT_CHECK_SKIP);
	assert_violations_are_the_failed_checks(f, &g);
	phased_free(&p);
}

static void a_phase_has_its_own_limit_checks_outside_the_verdict(void **state)
{
	struct fixture *f = *state;
	const struct verdict_check *k;
	struct got_checks g;
	struct phased p;

	phased_setup(f, &p, 95, 50000, true);
	set(f, CFG_LIMITS_TMAX, "501us");    /* every window reaches 502 us */
	assert_int_equal(checks_of(f, &g), 1); /* the run's tmax only */
	k = find_check(&g, "idle", "", "tmax", NULL);
	assert_int_equal(k->result, VERDICT_CHECK_FAIL);
	assert_false(k->in_verdict);
	assert_true(k->observed == 502000);
	assert_violations_are_the_failed_checks(f, &g);
	/* a phase never reached: its limits are skipped, not failed */
	p.ph[1].stats = NULL;
	checks_of(f, &g);
	assert_int_equal(find_check(&g, "loaded", "", "tmax", NULL)->result, VERDICT_CHECK_SKIP);
	phased_free(&p);
}

static void the_json_verdict_lists_every_check_with_its_figures(void **state)
{
	struct fixture *f = *state;
	int ret;

	feed_wave(f, 100, 50, 30000);
	set(f, CFG_LIMITS_TMAX, "531us");
	assert_int_equal(summary_write_json(f->json_path, f->c, f->s, &f->ri, NULL, 0), 0);
	ret = python_accepts(f->json_path,
			     "[c for c in d[\"verdict\"][\"checks\"] if c[\"result\"] == \"fail\"] == "
			     "[{\"name\": \"tmax\", \"result\": \"fail\", \"key\": \"limits.tmax\", "
			     "\"phase\": None, \"load\": None, \"instrument\": None, \"unit\": \"ns\", \"observed\": 532000, "
			     "\"limit\": 531000, \"bound\": \"max\", \"estimate\": 530000, \"interval\": None, \"seq\": 50, "
			     "\"intended_ns\": 1025000000, \"t_s\": 0.025, "
			     "\"message\": d[\"verdict\"][\"violations\"][0]}] and "
			     "len(d[\"verdict\"][\"checks\"]) == 11");
	if (ret < 0)
		skip();
	assert_int_equal(ret, 0);
}

/* A run that sets no limit is not a pass: nothing about the wave was
 * checked. Exit 0 (not FAIL), but the text and the JSON say so; any one
 * limit makes it a real verdict again. */
static void a_run_without_limits_says_no_limits_not_pass(void **state)
{
	struct fixture *f = *state;
	char *t;
	int ret;

	feed_wave(f, 100, 50, 3000000); /* a 3.5 ms pulse, unchecked */
	assert_int_equal(verdict(f), VERDICT_NO_LIMITS);
	assert_string_equal(f->why, "");
	t = text_of(f);
	assert_non_null(strstr(t, "\nverdict    NO LIMITS (no limits.* set"));
	assert_null(strstr(t, "verdict    PASS"));
	free(t);
	assert_int_equal(summary_write_json(f->json_path, f->c, f->s, &f->ri, NULL, 0), 0);
	ret = python_accepts(f->json_path,
			     "d[\"verdict\"][\"result\"] == \"NO LIMITS\" and "
			     "d[\"verdict\"][\"limits_set\"] is False and "
			     "d[\"verdict\"][\"pass\"] is True and d[\"verdict\"][\"violations\"] == []");
	if (ret < 0)
		skip();
	assert_int_equal(ret, 0);
	/* missed_max 0 is a limit (-1 is none) */
	set(f, CFG_LIMITS_MISSED_MAX, "0");
	assert_int_equal(verdict(f), VERDICT_PASS);
	t = text_of(f);
	assert_non_null(strstr(t, "\nverdict    PASS\n"));
	free(t);
	/* a failure is a failure, limits or not */
	set(f, CFG_LIMITS_MISSED_MAX, "-1");
	f->ri.dropped = 1;
	assert_int_equal(verdict(f), VERDICT_FAIL);
}

/* ---- one verdict, rendered as data ---- */

/* The whole of @path, as one string (it holds no NUL). */
static char *file_text(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;

	assert_non_null(fp);
	assert_true(getdelim(&buf, &cap, '\0', fp) > 0);
	fclose(fp);
	return buf;
}

/* @v rendered by the text summary, the JSON, the JUnit and the LAVA
 * results: each must say @v's word and its one violation @msg (@check's
 * failure), whatever the statistics beside it would say. */
static void assert_every_renderer_says(struct fixture *f, const struct verdict_result *v,
				       const char *check, const char *msg)
{
	char want[512], err[256] = "", *t = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&t, &len);
	int ret;

	assert_non_null(m);
	summary_print_text_judged(m, f->c, f->s, &f->ri, v);
	fclose(m);
	snprintf(want, sizeof(want), "\nverdict    %s\n  - %s\n", v->word, msg);
	assert_non_null(strstr(t, want));
	free(t);

	assert_int_equal(summary_write_json_judged(f->json_path, f->c, f->s, &f->ri, v, err,
						   sizeof(err)), 0);
	snprintf(want, sizeof(want), "d[\"verdict\"][\"result\"] == \"%s\" and "
		 "d[\"verdict\"][\"pass\"] is False and d[\"verdict\"][\"violations\"] == [\"%s\"]",
		 v->word, msg);
	ret = python_accepts(f->json_path, want);
	if (ret >= 0)
		assert_int_equal(ret, 0);

	assert_int_equal(ciout_write_junit_judged(f->json_path, f->c, &f->ri, v, err, sizeof(err)),
			 0);
	t = file_text(f->json_path);
	assert_non_null(strstr(t, "<testsuites name=\"sqwave run\" tests=\"11\" failures=\"1\""));
	/* the failure is @check's, with @msg */
	snprintf(want, sizeof(want), " name=\"%s\" time=\"0\">\n      <failure message=\"%s\"",
		 check, msg);
	assert_non_null(strstr(t, want));
	free(t);

	assert_int_equal(ciout_write_results_judged(f->json_path, &f->ri, v, err, sizeof(err)), 0);
	t = file_text(f->json_path);
	snprintf(want, sizeof(want), "\n%s fail", check);
	assert_non_null(strstr(t, want));
	assert_null(strstr(strstr(t, want) + strlen(want), " fail"));	/* the only one */
	free(t);
}

static const char *violation_of(const struct verdict_result *v)
{
	size_t i;

	for (i = 0; i < v->nchecks; i++)
		if (v->checks[i].result == VERDICT_CHECK_FAIL && v->checks[i].in_verdict)
			return v->checks[i].message;
	fail_msg("no violation in the result");
	return NULL;
}

static void one_verdict_is_computed_and_every_renderer_says_it(void **state)
{
	struct fixture *f = *state;
	struct verdict_result v;
	char err[64], why[512];

	feed_wave(f, 100, 50, 30000);
	set(f, CFG_LIMITS_TMAX, "531us");
	assert_int_equal(verdict_result_compute(&v, f->c, edgestats_result(f->s), &f->ri, err,
						sizeof(err)), 0);
	/* the result is the judge's: the same word, the same sentences */
	assert_string_equal(v.word, verdict_word(f->c, f->s, &f->ri));
	assert_int_equal(v.verdict, verdict(f));
	assert_int_equal(v.violations, 1);
	assert_int_equal(v.nchecks, 11);
	snprintf(why, sizeof(why), "%s\n", violation_of(&v));
	assert_string_equal(why, f->why);
	assert_every_renderer_says(f, &v, "tmax", violation_of(&v));
	verdict_result_free(&v);
}

/* The renderers take the result, not the statistics: a result that says
 * FAIL over figures that pass is printed FAIL by every one of them. Were
 * any to judge again, it would say PASS here. */
static void the_renderers_say_the_verdict_they_are_given_not_their_own(void **state)
{
	struct fixture *f = *state;
	struct verdict_result v;
	struct verdict_check *k = NULL;
	char err[64];
	size_t i;

	feed_wave(f, 100, -1, 0);
	set(f, CFG_LIMITS_TMAX, "600us");
	assert_int_equal(verdict_result_compute(&v, f->c, edgestats_result(f->s), &f->ri, err,
						sizeof(err)), 0);
	assert_string_equal(v.word, "PASS");
	for (i = 0; i < v.nchecks; i++)
		if (!strcmp(v.checks[i].name, "tmax"))
			k = &v.checks[i];
	assert_non_null(k);
	k->result = VERDICT_CHECK_FAIL;
	free((char *)k->message);
	k->message = strdup("tmax said to fail by the result alone");
	v.verdict = VERDICT_FAIL;
	v.word = "FAIL";
	v.violations = 1;
	assert_string_equal(verdict_word(f->c, f->s, &f->ri), "PASS");
	assert_every_renderer_says(f, &v, "tmax", "tmax said to fail by the result alone");
	verdict_result_free(&v);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(a_stretched_high_pulse_fails_its_own_levels_width_error),
		T(a_healthy_duty_wave_passes_its_width_error),
		T(a_clean_run_passes),
		T(a_run_without_limits_says_no_limits_not_pass),
		T(a_run_with_zero_counted_edges_is_not_a_pass),
		T(dropped_records_fail_the_run),
		T(a_seq_gap_fails_the_run_even_if_the_ring_reported_none),
		T(write_errors_fail_the_run),
		T(a_log_io_error_fails_the_run),
		T(tmin_is_checked_against_the_lowest_possible_width),
		T(tmax_is_checked_against_the_highest_possible_width),
		T(a_limit_on_widths_without_any_pulse_fails),
		T(wake_latency_over_the_limit_fails),
		T(missed_periods_fail_only_above_missed_max),
		T(each_violation_is_one_line_appended_to_why),
		T(a_tiny_why_buffer_is_truncated_not_overrun),
		T(a_non_rt_run_says_so_loudly),
		T(the_text_shows_tmin_and_tmax_with_their_windows),
		T(the_scope_bounds_add_the_debounce_over_the_answers_that_changed_the_pin),
		T(lost_and_unanswered_events_are_shown_warm_up_included),
		T(the_text_lists_the_violations_under_fail),
		T(the_json_summary_is_valid_and_carries_the_schema),
		T(the_json_summary_of_an_empty_run_has_nulls_not_garbage),
		T(hostile_strings_still_make_valid_json),
		T(an_unwritable_json_path_is_an_error_with_errno),
		T(every_failed_check_is_a_violation_with_the_same_sentence),
		T(a_violated_limit_carries_its_key_limit_figure_edge_and_time),
		T(an_unset_limit_is_skipped_but_keeps_its_figure),
		T(load_proofs_are_checks_with_phase_load_what_observed_and_needed),
		T(a_lost_load_fails_running_and_skips_its_other_proofs),
		T(a_loaded_phase_with_proof_gaps_is_proof_incomplete_not_applied),
		T(a_run_without_loads_shows_whether_it_was_idle_without_judging_it),
		T(an_idle_phase_that_was_busy_is_load_not_applied),
		T(a_phase_has_its_own_limit_checks_outside_the_verdict),
		T(the_json_verdict_lists_every_check_with_its_figures),
		T(one_verdict_is_computed_and_every_renderer_says_it),
		T(the_renderers_say_the_verdict_they_are_given_not_their_own),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
