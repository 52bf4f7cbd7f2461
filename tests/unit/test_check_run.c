/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for check --run's verdict: a run without limits is never a
 * PASS, what broke is named, set limits are judged and named, the run's own
 * failure wins, what counts as a pulse far from nominal; and the short run
 * itself, through the run session with the check's own settings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "check/check_run.h"
#include "config/config.h"
#include "analysis/edgestats.h"

#define HALF 500000            /* ns */
#define T0   1000000000ull

static struct check_report rep;
static struct config *cfg;

static int setup(void **state)
{
	(void)state;
	check_report_init(&rep);
	cfg = config_new();
	return cfg ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	check_report_free(&rep);
	config_free(cfg);
	return 0;
}

static void set(const char *assignment)
{
	char err[512];

	assert_int_equal(config_apply_set(cfg, assignment, err, sizeof(err)), CFG_OK);
}

/* @n edges on the grid, woken 10 us late with a 2 us write; with @stall,
 * edge 10 comes three slots late (two missed periods): one pulse of 2000 us
 * before it, and a short one after. Judged by cfg as the run would. */
static void run_of(struct check_run_fig *g, unsigned n, bool stall)
{
	struct edgestats *st = edgestats_new(HALF);
	struct run_info ri = { .rt_ok = true };
	uint64_t slot = 0;
	unsigned i;

	assert_non_null(st);
	memset(g, 0, sizeof(*g));
	g->half_ns = HALF;
	for (i = 0; i < n; i++) {
		struct edge_rec e = {
			.seq = i, .wake_off_ns = 10000, .write_begin_off_ns = 11000,
			.write_end_off_ns = 13000, .expirations = 1,
		};

		if (stall && i == 10) {
			slot += 3;
			e.expirations = 3;
			/* late inside its slot too: the next pulse is short */
			e.wake_off_ns = 400000;
			e.write_begin_off_ns = 401000;
			e.write_end_off_ns = 403000;
		} else if (i) {
			slot++;
		}
		e.intended_ns = T0 + slot * HALF;
		e.level = (uint8_t)(i % 2 == 0);
		edgestats_add(st, &e);
		check_run_add(g, st);
	}
	ri.records_logged = n;
	check_run_figures(g, st, cfg, &ri);
	edgestats_free(st);
}

static void a_pulse_is_far_when_off_nominal_by_half_a_half_period(void **state)
{
	(void)state;
	assert_false(check_run_pulse_far(500000, HALF));
	assert_false(check_run_pulse_far(750000 - 1, HALF));
	assert_true(check_run_pulse_far(750000, HALF));
	assert_false(check_run_pulse_far(250000 + 1, HALF));
	assert_true(check_run_pulse_far(250000, HALF));
	assert_true(check_run_pulse_far(15895, HALF));
	assert_true(check_run_pulse_far(3563212, HALF));
	assert_false(check_run_pulse_far(1000, 0));
}

static void a_run_without_limits_is_not_pass_but_no_limits_with_what_broke(void **state)
{
	const struct check_finding *f;
	struct check_run_fig g;

	(void)state;
	run_of(&g, 40, true);
	assert_int_equal(g.verdict, VERDICT_NO_LIMITS);
	assert_int_equal(g.missed, 2);
	assert_int_equal(g.far, 2);
	check_run_judge(&rep, cfg, 0, &g, "x.sqwlog", "1s");
	f = check_find(&rep, "run.verdict");
	assert_non_null(f);
	assert_int_equal(f->status, CHECK_WARN);
	assert_int_equal(strncmp(f->value, "NO LIMITS: this board gave Tmin/Tmax ", 37), 0);
	assert_non_null(strstr(f->value, "what broke: 2 missed periods, 2 pulses far from the "
				"nominal 500.000 us"));
	assert_non_null(strstr(f->why, "never a PASS"));
	assert_non_null(strstr(f->fix, "--tmin"));
	assert_int_equal(check_result(&rep, false), CHECK_WARN);
	assert_int_equal(check_exit_code(&rep, true), 1);
}

static void a_clean_run_without_limits_is_still_no_limits(void **state)
{
	const struct check_finding *f;
	struct check_run_fig g;

	(void)state;
	run_of(&g, 40, false);
	assert_int_equal(g.far, 0);
	assert_int_equal(g.missed, 0);
	check_run_judge(&rep, cfg, 0, &g, "x.sqwlog", "1s");
	f = check_find(&rep, "run.verdict");
	assert_int_equal(f->status, CHECK_WARN);
	assert_non_null(strstr(f->value, "NO LIMITS"));
	assert_non_null(strstr(f->value, "nothing broke"));
}

static void a_run_within_the_limits_set_passes_and_names_each_limit(void **state)
{
	const struct check_finding *f;
	struct check_run_fig g;

	(void)state;
	set("limits.tmin=400us");
	set("limits.tmax=600us");
	run_of(&g, 40, false);
	assert_int_equal(g.verdict, VERDICT_PASS);
	check_run_judge(&rep, cfg, 0, &g, "x.sqwlog", "1s");
	f = check_find(&rep, "run.verdict");
	assert_int_equal(f->status, CHECK_PASS);
	assert_non_null(strstr(f->value, "within limits.tmin 400us (command line), limits.tmax "
				"600us (command line); this board gives Tmin/Tmax 500.000/500.000 us"));
	assert_null(strstr(f->value, "NO LIMITS"));
}

static void a_violated_limit_fails_and_says_which(void **state)
{
	const struct check_finding *f;
	struct check_run_fig g;

	(void)state;
	set("limits.tmax=600us");
	set("limits.missed_max=0");
	run_of(&g, 40, true);
	assert_int_equal(g.verdict, VERDICT_FAIL);
	check_run_judge(&rep, cfg, 1, &g, "x.sqwlog", "1s");
	f = check_find(&rep, "run.verdict");
	assert_int_equal(f->status, CHECK_FAIL);
	assert_non_null(strstr(f->value, "above limits.tmax 600.000 us"));
	assert_non_null(strstr(f->why, "2 periods were missed, limits.missed_max is 0"));
	assert_null(strchr(f->why, '\n'));
	assert_int_equal(check_exit_code(&rep, false), 1);
}

static void the_runs_own_failure_wins_over_a_log_that_passes(void **state)
{
	const struct check_finding *f;
	struct check_run_fig g;

	(void)state;
	set("limits.tmax=600us");
	run_of(&g, 40, false);
	assert_int_equal(g.verdict, VERDICT_PASS);
	/* exit 1 with a passing wave: a load that did not show, say */
	check_run_judge(&rep, cfg, 1, &g, "x.sqwlog", "1s");
	f = check_find(&rep, "run.verdict");
	assert_int_equal(f->status, CHECK_FAIL);
	assert_non_null(strstr(f->value, "the run's limits are violated"));
}

/* The simulated board and @limit, as the check's command line sets them. */
static void sim_cmdline(const char *log, const char *limit)
{
	const char *const sets[] = {
		"gpio.backend=sim", "gpio.chip=sqwave-sim", "gpio.line=0",
		"sim.chip_label=sqwave-sim", "rt.allow_non_rt=true", "run.half_period=1ms", limit,
	};
	char err[512], set[PATH_MAX + 16];
	size_t i;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		assert_int_equal(config_apply_set(cfg, sets[i], err, sizeof(err)), CFG_OK);
	snprintf(set, sizeof(set), "output.log=%s", log);
	assert_int_equal(config_apply_set(cfg, set, err, sizeof(err)), CFG_OK);
}

static void a_short_run_keeps_the_checks_settings_and_is_judged_by_them(void **state)
{
	char dir[sizeof(P_tmpdir) + 32], log[sizeof(dir) + 16], line[256];
	FILE *text = tmpfile(), *note = tmpfile();
	struct check_run cr = { 0 };
	const struct check_finding *f;
	bool summary = false;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/sqwave-checkrun-XXXXXX", P_tmpdir);
	assert_non_null(mkdtemp(dir));
	snprintf(log, sizeof(log), "%s/r.sqwlog", dir);
	assert_non_null(text);
	assert_non_null(note);
	sim_cmdline(log, "limits.tmax=10s");
	check_run_short(&rep, cfg, &(struct check_run_params){
		.board_path = "", .profile_path = "", .root = "/", .run_ns = 50000000,
		.text = text, .note = note }, &cr);
	assert_true(cr.done);
	assert_int_equal(cr.exit_code, 0);
	assert_true(cr.judged);
	assert_string_equal(cr.log, log);
	/* the check's half period reached the run (its log says so), and 50 ms
	 * of it is at most 50 edges (fewer where a slow machine missed some) */
	assert_int_equal(cr.fig.half_ns, 1000000);
	assert_true(cr.fig.edges >= 1 && cr.fig.edges <= 50);
	assert_int_equal(rep.n, 1);
	f = &rep.v[0];
	assert_string_equal(f->id, "run.verdict");
	assert_int_equal(f->status, CHECK_PASS);	/* the check's limits.tmax reached the run */
	assert_non_null(strstr(f->value, "limits.tmax 10s"));
	rewind(text);
	while (fgets(line, sizeof(line), text))
		summary = summary || strstr(line, "==== sqwave summary ====");
	assert_true(summary);	/* the run's summary went where the check's text goes */
	rewind(note);
	assert_non_null(fgets(line, sizeof(line), note));
	assert_non_null(strstr(line, "check: running `sqwave run` for 50ms"));
	fclose(text);
	fclose(note);
	unlink(log);
	rmdir(dir);
}

static void a_copied_tree_is_never_run(void **state)
{
	struct check_run cr = { 0 };

	(void)state;
	check_run_short(&rep, cfg, &(struct check_run_params){
		.board_path = "", .profile_path = "", .root = P_tmpdir, .run_ns = 50000000,
		.text = stdout, .note = stderr }, &cr);
	assert_false(cr.done);
	assert_int_equal(rep.n, 1);
	assert_int_equal(rep.v[0].status, CHECK_SKIP);
	assert_string_equal(rep.v[0].id, "run.verdict");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_pulse_is_far_when_off_nominal_by_half_a_half_period),
		cmocka_unit_test_setup_teardown(a_run_without_limits_is_not_pass_but_no_limits_with_what_broke, setup, teardown),
		cmocka_unit_test_setup_teardown(a_clean_run_without_limits_is_still_no_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(a_run_within_the_limits_set_passes_and_names_each_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(a_violated_limit_fails_and_says_which, setup, teardown),
		cmocka_unit_test_setup_teardown(the_runs_own_failure_wins_over_a_log_that_passes, setup, teardown),
		cmocka_unit_test_setup_teardown(a_short_run_keeps_the_checks_settings_and_is_judged_by_them, setup, teardown),
		cmocka_unit_test_setup_teardown(a_copied_tree_is_never_run, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
