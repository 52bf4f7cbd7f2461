/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the shared grid (base/clocksync, run/clockwatch,
 * run/gridrun): times are read exactly or refused, slot 0 lands on the
 * grid and never early, an offset moved beyond its reads' uncertainty is
 * a step and one within it is not, and the grid keys are refused where
 * they cannot be honoured, naming where they were set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timex.h>

#include "base/clock.h"
#include "base/clocksync.h"
#include "config/config.h"
#include "run/clockwatch.h"
#include "config/outputs.h"
#include "run/gridrun.h"

#define SEC 1000000000ull

static struct config *cfg;

static int setup(void **state)
{
	char err[256];

	(void)state;
	cfg = config_new();
	return cfg && config_apply_set(cfg, "gpio.line=0", err, sizeof(err)) == CFG_OK ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	config_free(cfg);
	return 0;
}

static void set(const char *assignment)
{
	char err[512];

	assert_int_equal(config_apply_set(cfg, assignment, err, sizeof(err)), CFG_OK);
}

static void epoch_seconds_and_iso_utc_read_to_the_nanosecond(void **state)
{
	uint64_t ns;
	char err[256];

	(void)state;
	assert_int_equal(clocksync_parse_time("1764700000", &ns, err, sizeof(err)), 0);
	assert_true(ns == 1764700000ull * SEC);
	assert_int_equal(clocksync_parse_time("1764700000.000000001", &ns, err, sizeof(err)), 0);
	assert_true(ns == 1764700000ull * SEC + 1);
	assert_int_equal(clocksync_parse_time("1764700000.25", &ns, err, sizeof(err)), 0);
	assert_true(ns == 1764700000ull * SEC + 250000000);
	/* 2026-12-02T17:30:00Z is 1796232600 s after the epoch */
	assert_int_equal(clocksync_parse_time("2026-12-02T17:30:00Z", &ns, err, sizeof(err)), 0);
	assert_true(ns == 1796232600ull * SEC);
	assert_int_equal(clocksync_parse_time("2026-12-02T17:30:00.5+00:00", &ns, err,
					      sizeof(err)), 0);
	assert_true(ns == 1796232600ull * SEC + 500000000);
	assert_int_equal(clocksync_parse_time("1970-01-01T00:00:00Z", &ns, err, sizeof(err)), 0);
	assert_true(ns == 0);
}

static void a_time_that_is_not_exactly_one_is_refused(void **state)
{
	static const char *const bad[] = {
		"", "now", "-5", "1e9", "17647 00000", "1764700000.", "1764700000.1234567891",
		"1764700000x", "2026-12-02T17:30:00", "2026-12-02 17:30:00Z", "2026-12-2T17:30:00Z",
		"2026-13-02T17:30:00Z", "2026-12-02T17:30:00+01:00", "2026-12-02T17:30:00Zjunk",
		"99999999999999999999", "1969-12-31T23:59:59Z",
	};
	uint64_t ns = 7;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (clocksync_parse_time(bad[i], &ns, err, sizeof(err)) != -1)
			fail_msg("\"%s\" was taken as %llu", bad[i], (unsigned long long)ns);
		assert_non_null(strstr(err, "is not a time"));
	}
}

static void a_formatted_time_reads_back_as_itself(void **state)
{
	uint64_t t = 1796232600ull * SEC + 123456789, back;
	char buf[48], err[128];

	(void)state;
	assert_string_equal(clocksync_format_time(t, buf, sizeof(buf)),
			    "2026-12-02T17:30:00.123456789Z");
	assert_int_equal(clocksync_parse_time(buf, &back, err, sizeof(err)), 0);
	assert_true(back == t);
}

static void slot_0_is_the_first_aligned_instant_never_an_earlier_one(void **state)
{
	(void)state;
	assert_true(clocksync_grid_next(5 * SEC, SEC) == 5 * SEC);
	assert_true(clocksync_grid_next(5 * SEC + 1, SEC) == 6 * SEC);
	assert_true(clocksync_grid_next(6 * SEC - 1, SEC) == 6 * SEC);
	assert_true(clocksync_grid_next(1234567, 1000000) == 2000000);
	for (uint64_t t = 1796232600ull * SEC - 3; t < 1796232600ull * SEC + 3; t++) {
		uint64_t g = clocksync_grid_next(t, 2 * SEC);

		assert_true(g >= t && g - t < 2 * SEC && g % (2 * SEC) == 0);
	}
}

static void the_realtime_offset_agrees_with_both_clocks_within_its_bound(void **state)
{
	int64_t off;
	uint64_t u, m0, r, m1;

	(void)state;
	m0 = clock_mono_ns();
	clocksync_offset(CLOCK_REALTIME, &off, &u);
	r = clock_now_ns(CLOCK_REALTIME);
	m1 = clock_mono_ns();
	/* realtime - monotonic is the same before and after, give or take
	 * the reads: the measured one lies in [r - m1, r - m0] widened by u */
	assert_true((int64_t)(r - m1) - (int64_t)u - 1000 <= off);
	assert_true(off <= (int64_t)(r - m0) + (int64_t)u + 1000);
	/* a bracket, not a guess: half the best pair of reads around the
	 * clock's, all of them inside this call */
	assert_true(u <= (m1 - m0) / 2 + 1);
}

static void an_offset_moved_beyond_both_uncertainties_is_a_step(void **state)
{
	int64_t d;

	(void)state;
	/* within 40 + 40 + the slack: no step */
	assert_false(clockwatch_moved(1000000, 40, 1000000 + 80 + CLOCKWATCH_SLACK_NS, 40, &d));
	assert_true(d == 80 + CLOCKWATCH_SLACK_NS);
	/* one nanosecond more: a step, either way */
	assert_true(clockwatch_moved(1000000, 40, 1000000 + 81 + CLOCKWATCH_SLACK_NS, 40, &d));
	assert_true(clockwatch_moved(1000000, 40, 1000000 - 81 - CLOCKWATCH_SLACK_NS, 40, &d));
	assert_true(d == -(81 + CLOCKWATCH_SLACK_NS));
	/* an hour, and a leap second */
	assert_true(clockwatch_moved(0, 0, 3600 * (int64_t)SEC, 0, &d));
	assert_true(d == 3600 * (int64_t)SEC);
	assert_true(clockwatch_moved(INT64_MAX / 2, 10, INT64_MAX / 2 - (int64_t)SEC, 10, &d));
	assert_true(d == -(int64_t)SEC);
}

static void a_watch_of_a_clock_nobody_sets_sees_no_step(void **state)
{
	char err[256];
	struct clockwatch *w = clockwatch_open(CLOCK_REALTIME, err, sizeof(err));
	struct clockwatch_step st;
	struct run_grid g = { 0 };
	uint64_t u;

	(void)state;
	assert_non_null(w);
	assert_true(clockwatch_offset(w, &u) != 0);
	assert_int_equal(clockwatch_read(w, &st), 0);	/* nothing set: EAGAIN */
	assert_int_equal(clockwatch_end(w, &st), 0);
	assert_false(st.moved);
	assert_false(st.notified);
	clockwatch_result(w, &g);
	assert_true(g.end_known);
	assert_int_equal(g.steps, 0);
	assert_true(g.end_offset_ns == st.offset_ns);
	clockwatch_close(w);
}

static void a_clock_event_says_where_it_came_from_and_how_far(void **state)
{
	struct clockwatch_step st = { .delta_ns = -3600000000123ll, .offset_ns = 42,
				      .uncert_ns = 7, .notified = true, .moved = true };
	char buf[256];

	(void)state;
	assert_true(gridrun_event_text(&st, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "source=kernel\nmoved=yes\ndelta_ns=-3600000000123\n"
			    "offset_ns=42\nuncertainty_ns=7\n");
	st.notified = st.moved = false;
	assert_true(gridrun_event_text(&st, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "source=end\nmoved=no\n"));
}

/* gridrun_check() of cfg as the run makes it: its lines resolved first. */
static int grid_check(char *err, size_t errlen)
{
	struct outputs outs;

	if (outputs_resolve(cfg, &outs, err, errlen) < 0)
		fail_msg("%s", err);
	return gridrun_check(cfg, &outs, false, false, err, errlen);
}

static void a_monotonic_run_takes_no_grid_key(void **state)
{
	char err[512];

	(void)state;
	assert_int_equal(grid_check(err, sizeof(err)), 0);
	set("grid.start=2030-01-01T00:00:00Z");
	assert_int_equal(grid_check(err, sizeof(err)), -1);
	assert_non_null(strstr(err, "grid.start applies to a shared grid"));
	assert_non_null(strstr(err, "command line"));
	config_free(cfg);
	cfg = config_new();
	set("gpio.line=0");
	set("grid.align=2s");
	assert_int_equal(grid_check(err, sizeof(err)), -1);
	assert_non_null(strstr(err, "grid.align applies to a shared grid"));
}

static void an_alignment_that_is_not_whole_periods_is_refused(void **state)
{
	char err[512];

	(void)state;
	set("grid.clock=realtime");
	set("run.half_period=300us");	/* period 600 us: 1 s is not a whole number of them */
	assert_int_equal(grid_check(err, sizeof(err)), -1);
	assert_non_null(strstr(err, "grid.align (1s) must be a whole number of periods"));
	set("grid.align=3.3ms");	/* 5.5 periods */
	assert_int_equal(grid_check(err, sizeof(err)), -1);
	set("grid.align=1.2ms");	/* two periods */
	if (grid_check(err, sizeof(err)) != 0)
		fail_msg("%s", err);
	set("run.half_period=500us");
	set("grid.align=1s");
	assert_int_equal(grid_check(err, sizeof(err)), 0);
}

/* The refusal names the key that gave the wave its period, as resolved
 * for the run: --low 700us (high the half period) is run.low's doing,
 * --high 350us run.high's, a plain wave run.half_period's. */
static void an_off_grid_period_names_the_key_that_set_it(void **state)
{
	static const struct {
		const char *set, *named;
	} cases[] = {
		{ "run.low=700us", "high + low = 1.2ms, run.low, command line" },
		{ "run.high=350us", "high + low = 850us, run.high, command line" },
		{ "run.half_period=300us", "high + low = 600us, run.half_period, command line" },
	};
	char err[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		config_free(cfg);
		cfg = config_new();
		assert_non_null(cfg);
		set("gpio.line=0");
		set("grid.clock=realtime");
		set(cases[i].set);
		assert_int_equal(config_resolve_wave(cfg, err, sizeof(err)), CFG_OK);
		assert_int_equal(grid_check(err, sizeof(err)), -1);
		if (!strstr(err, cases[i].named))
			fail_msg("%s: %s", cases[i].set, err);
	}
}

static void every_lines_period_must_fit_the_grid(void **state)
{
	char err[512];

	(void)state;
	set("grid.clock=realtime");
	set("gpio.line=0,3");
	/* line 0: 250 + 500 = 750 us, and 1 s is not a whole number of them;
	 * refused as the same wave on one line is */
	set("run.line_high=250us,500us");
	set("run.line_low=500us,500us");
	assert_int_equal(grid_check(err, sizeof(err)), -1);
	assert_non_null(strstr(err, "grid.align (1s) must be a whole number of periods of every "
			       "line (line 0: high + low = 750us, run.line_high"));
	/* 2 ms holds a whole 1 ms but not 750 us; 3 ms both */
	set("grid.align=2ms");
	assert_int_equal(grid_check(err, sizeof(err)), -1);
	set("grid.align=3ms");
	if (grid_check(err, sizeof(err)) != 0)
		fail_msg("%s", err);
	/* the second line off the grid is named too */
	set("run.line_high=500us,300us");
	set("run.line_low=500us,400us");
	assert_int_equal(grid_check(err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 3: high + low = 700us"));
}

static void a_grid_does_not_go_with_respond_or_timerlat(void **state)
{
	char err[512];
	struct outputs outs;

	(void)state;
	set("grid.clock=realtime");
	assert_int_equal(outputs_resolve(cfg, &outs, err, sizeof(err)), 0);
	assert_int_equal(gridrun_check(cfg, &outs, true, false, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "does not apply to respond"));
	assert_int_equal(gridrun_check(cfg, &outs, false, true, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "timerlat"));
}

static void a_start_in_the_past_too_close_or_too_far_is_refused(void **state)
{
	uint64_t now = clock_now_ns(CLOCK_REALTIME) / SEC;
	char err[512], v[96];

	(void)state;
	set("grid.clock=realtime");
	set("grid.start=1764700000");	/* 2025: past */
	assert_int_equal(grid_check(err, sizeof(err)), -1);
	assert_non_null(strstr(err, "past or too close"));
	snprintf(v, sizeof(v), "grid.start=%llu", (unsigned long long)now + 3 * 86400);
	set(v);
	assert_int_equal(grid_check(err, sizeof(err)), -1);
	assert_non_null(strstr(err, "too far"));
	snprintf(v, sizeof(v), "grid.start=%llu", (unsigned long long)now + 30);
	set(v);
	assert_int_equal(grid_check(err, sizeof(err)), 0);
	set("grid.start=soon");
	assert_int_equal(grid_check(err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is not a time"));
}

static void slot_0_goes_on_the_grid_clock_s_whole_second(void **state)
{
	char err[512];
	struct gridrun *g;
	uint64_t start, u, m0, m1;
	int64_t off;

	(void)state;
	set("grid.clock=realtime");
	g = gridrun_open(cfg, err, sizeof(err));
	assert_non_null(g);
	m0 = clock_mono_ns();
	/* a lead longer than the grid step: a lead ignored shows */
	assert_int_equal(gridrun_place(g, 1500000000, &start, err, sizeof(err)), 0);
	m1 = clock_mono_ns();
	off = gridrun_info(g)->offset_ns;
	u = gridrun_info(g)->offset_uncert_ns;
	(void)u;
	/* on the realtime grid exactly, at least the lead after the call began,
	 * less than a grid step after it ended (however long it took) */
	assert_true(gridrun_info(g)->start_ns % SEC == 0);
	assert_true(start + (uint64_t)off == gridrun_info(g)->start_ns);
	assert_true(start >= m0 + 1500000000);
	assert_true(start < m1 + 1500000000 + SEC);
	gridrun_close(g);
}

static void a_given_start_is_slot_0_exactly_and_a_passed_one_is_refused(void **state)
{
	uint64_t now = clock_now_ns(CLOCK_REALTIME) / SEC, start;
	char err[512], v[96];
	struct gridrun *g;

	(void)state;
	set("grid.clock=realtime");
	/* 30 s ahead: placed with a lead of 0.1 s however slow this machine */
	snprintf(v, sizeof(v), "grid.start=%llu.5", (unsigned long long)now + 30);
	set(v);
	g = gridrun_open(cfg, err, sizeof(err));
	assert_non_null(g);
	assert_int_equal(gridrun_place(g, 100000000, &start, err, sizeof(err)), 0);
	assert_true(gridrun_info(g)->start_ns == (now + 30) * SEC + SEC / 2);
	assert_true(gridrun_info(g)->align_ns == 0);
	/* a lead longer than the time left: too late to place it */
	assert_int_equal(gridrun_place(g, 60 * SEC, &start, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "came before the run was ready"));
	gridrun_close(g);
}

static void tai_without_an_offset_is_refused(void **state)
{
	struct clocksync_state st;
	char err[512];

	(void)state;
	set("grid.clock=tai");
	if (clocksync_read(&st) < 0 || st.tai_s != 0)
		skip();	/* this host has a TAI offset: nothing to refuse */
	assert_int_equal(grid_check(err, sizeof(err)), -1);
	assert_non_null(strstr(err, "TAI offset is 0"));
}

static void the_sync_state_is_read_as_adjtimex_says(void **state)
{
	struct clocksync_state st;
	struct timex tx = { .modes = 0 };
	int ret;

	(void)state;
	assert_int_equal(clocksync_read(&st), 0);
	ret = adjtimex(&tx);
	assert_int_equal(st.state, ret);
	assert_int_equal(st.synced, !(tx.status & STA_UNSYNC) && ret != TIME_ERROR);
	assert_int_equal(st.tai_s, tx.tai);
	assert_string_equal(clocksync_state_name(TIME_OK), "ok");
	assert_string_equal(clocksync_state_name(TIME_ERROR), "error");
	assert_string_equal(clocksync_state_name(42), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(epoch_seconds_and_iso_utc_read_to_the_nanosecond),
		cmocka_unit_test(a_time_that_is_not_exactly_one_is_refused),
		cmocka_unit_test(a_formatted_time_reads_back_as_itself),
		cmocka_unit_test(slot_0_is_the_first_aligned_instant_never_an_earlier_one),
		cmocka_unit_test(the_realtime_offset_agrees_with_both_clocks_within_its_bound),
		cmocka_unit_test(an_offset_moved_beyond_both_uncertainties_is_a_step),
		cmocka_unit_test(a_watch_of_a_clock_nobody_sets_sees_no_step),
		cmocka_unit_test(a_clock_event_says_where_it_came_from_and_how_far),
		cmocka_unit_test_setup_teardown(a_monotonic_run_takes_no_grid_key, setup, teardown),
		cmocka_unit_test_setup_teardown(an_alignment_that_is_not_whole_periods_is_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(every_lines_period_must_fit_the_grid, setup, teardown),
		cmocka_unit_test_setup_teardown(an_off_grid_period_names_the_key_that_set_it, setup,
						teardown),
		cmocka_unit_test_setup_teardown(a_grid_does_not_go_with_respond_or_timerlat, setup,
						teardown),
		cmocka_unit_test_setup_teardown(a_start_in_the_past_too_close_or_too_far_is_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(slot_0_goes_on_the_grid_clock_s_whole_second, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			a_given_start_is_slot_0_exactly_and_a_passed_one_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(tai_without_an_offset_is_refused, setup, teardown),
		cmocka_unit_test(the_sync_state_is_read_as_adjtimex_says),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
