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

#include "base/exitcode.h"
#include "check/check.h"
#include "check/check_run.h"
#include "cmd/runexit.h"
#include "config/config.h"
#include "stats/edgestats.h"

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

/* @n edges of the wave @w on its grid, woken 10 us late with a 2 us write;
 * with @stall, edge 10 comes three slots late (two missed periods) and late
 * inside its slot too; with @stretch, edge 7 (a fall) comes 60 % of the low
 * time late, stretching one high pulse. Judged by cfg as the run would. */
static void run_wave(struct check_run_fig *g, const struct wave *w, unsigned n, bool stall,
		     bool stretch)
{
	struct edgestats *st = edgestats_new((int64_t)wave_period(w) / 2);
	struct run_info ri = { .rt_ok = true };
	uint64_t slot = 0;
	unsigned i;

	assert_non_null(st);
	memset(g, 0, sizeof(*g));
	pin_init_wave(&g->pin, "0", w, 0, PIN_GRID_MONOTONIC, 0);
	edgestats_set_pin(st, &g->pin);
	ri.pin = g->pin;
	for (i = 0; i < n; i++) {
		struct edge_rec e = {
			.seq = i, .wake_off_ns = 10000, .write_begin_off_ns = 11000,
			.write_end_off_ns = 13000, .expirations = 1,
		};
		int32_t late = 0;

		if (stall && i == 10) {
			slot += 3;
			e.expirations = 3;
			late = 400000;	/* the next pulse is short */
		} else if (i) {
			slot++;
		}
		if (stretch && i == 7)
			late = (int32_t)(w->low_ns * 6 / 10);
		e.wake_off_ns += late;
		e.write_begin_off_ns += late;
		e.write_end_off_ns += late;
		e.intended_ns = wave_slot_ns(w, 0, T0, slot);
		e.level = (uint8_t)wave_slot_level(0, slot);
		edgestats_add(st, &e);
		check_run_add(g, st);
	}
	ri.records_logged = n;
	check_run_figures(g, st, cfg, &ri);
	edgestats_free(st);
}

static void run_of(struct check_run_fig *g, unsigned n, bool stall)
{
	struct wave w = wave_square(HALF);

	run_wave(g, &w, n, stall, false);
}

static void a_pulse_is_far_when_off_its_polarity_nominal_by_half_the_shorter_level(void **state)
{
	struct wave sq = wave_square(HALF), duty = { .high_ns = 100000, .low_ns = 900000 };
	struct pin p, d, r;

	(void)state;
	pin_init_wave(&p, "0", &sq, 0, PIN_GRID_MONOTONIC, 0);
	assert_int_equal(check_run_far_ns(&p), HALF / 2);
	assert_false(check_run_pulse_far(&p, PIN_POS, 500000));
	assert_false(check_run_pulse_far(&p, PIN_NEG, 750000 - 1));
	assert_true(check_run_pulse_far(&p, PIN_POS, 750000));
	assert_false(check_run_pulse_far(&p, PIN_NEG, 250000 + 1));
	assert_true(check_run_pulse_far(&p, PIN_POS, 250000));
	assert_true(check_run_pulse_far(&p, PIN_NEG, 15895));
	assert_true(check_run_pulse_far(&p, PIN_POS, 3563212));
	/* a 10/90 wave: each polarity against its own nominal, half the shorter
	 * level the tolerance of both */
	pin_init_wave(&d, "0", &duty, 0, PIN_GRID_MONOTONIC, 0);
	assert_int_equal(check_run_far_ns(&d), 50000);
	assert_false(check_run_pulse_far(&d, PIN_POS, 100000));
	assert_false(check_run_pulse_far(&d, PIN_NEG, 900000));
	assert_true(check_run_pulse_far(&d, PIN_POS, 150000));
	assert_true(check_run_pulse_far(&d, PIN_NEG, 850000));
	assert_false(check_run_pulse_far(&d, PIN_NEG, 850001));
	/* a respond run's follow answers have no nominal: nothing is far */
	pin_init_respond(&r, "0", 0, PIN_FOLLOW, "2", PIN_EDGE_BOTH, 0, 0);
	assert_int_equal(check_run_far_ns(&r), 0);
	assert_false(check_run_pulse_far(&r, PIN_POS, 1000));
}

static void a_healthy_duty_wave_is_judged_against_each_levels_nominal(void **state)
{
	const struct check_finding *f;
	struct wave w = { .high_ns = 100000, .low_ns = 900000 };
	struct check_run_fig g;

	(void)state;
	run_wave(&g, &w, 40, false, false);
	assert_int_equal(g.far, 0);	/* against the half period, every pulse was far */
	assert_int_equal(g.w[PIN_POS].tmin_ns, 100000);
	assert_int_equal(g.w[PIN_NEG].tmax_ns, 900000);
	check_run_judge(&rep, cfg, 0, &g, "x.sqwlog", "1s");
	f = check_find(&rep, "run.verdict");
	assert_non_null(strstr(f->value, "nothing broke"));
	assert_non_null(strstr(f->value, "+ pulses Tmin/Tmax 100.000/100.000 us"));
	assert_non_null(strstr(f->value, "- pulses Tmin/Tmax 900.000/900.000 us"));
	assert_null(strstr(f->value, "500.000"));
}

static void a_stretched_high_pulse_of_a_duty_wave_is_far(void **state)
{
	const struct check_finding *f;
	struct wave w = { .high_ns = 300000, .low_ns = 700000 };
	struct check_run_fig g;

	(void)state;
	run_wave(&g, &w, 40, false, true);
	/* edge 7 ends a high pulse 420 us late and starts a short low one */
	assert_int_equal(g.far, 2);
	assert_int_equal(g.far_max_ns, 300000 + 420000);
	check_run_judge(&rep, cfg, 0, &g, "x.sqwlog", "1s");
	f = check_find(&rep, "run.verdict");
	assert_non_null(strstr(f->value, "2 pulses far from the nominal + 300.000 us, - 700.000 us "
				"(off by 150.000 us or more"));
}

/* One line of several by its name: the verdict's id takes the line as the
 * GPIO checks' ids do (gpio.line.sim3), in the id grammar of the check's
 * JSON schema (lower case, digits, '_'), never the name as it is. */
static void a_named_lines_verdict_id_is_the_gpio_checks_suffix(void **state)
{
	const struct check_finding *f;
	struct check_run_fig g;

	(void)state;
	run_of(&g, 40, false);
	check_run_judge_line(&rep, cfg, 0, &g, "SIM3", "x.SIM3.sqwlog", "1s");
	check_run_judge_line(&rep, cfg, 0, &g, "PB-1 x", "x.PB-1_x.sqwlog", "1s");
	f = check_find(&rep, "run.verdict.sim3");
	assert_non_null(f);
	assert_int_equal(f->status, CHECK_WARN);
	assert_non_null(check_find(&rep, "run.verdict.pb_1_x"));
	assert_null(check_find(&rep, "run.verdict.SIM3"));
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
	assert_int_equal(cr.verdict, VERDICT_PASS);	/* the run's own, from its report */
	assert_string_equal(cr.log, log);
	/* the check's half period reached the run (its log says so), and 50 ms
	 * of it is at most 50 edges (fewer where a slow machine missed some) */
	assert_int_equal(cr.nlines, 1);
	assert_int_equal(pin_half_period(&cr.lines[0].fig.pin), 1000000);
	assert_int_equal(cr.lines[0].fig.pin.nominal_ns[PIN_POS], 1000000);
	assert_true(cr.lines[0].fig.edges >= 1 && cr.lines[0].fig.edges <= 50);
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
	check_run_free(&cr);
	unlink(log);
	rmdir(dir);
}

/* Several lines: each line's own log read back and judged by its own wave,
 * one finding each (run.verdict.LINE), as the gpio checks are per line. */
static void a_short_run_of_several_lines_judges_each_by_its_own_log(void **state)
{
	char dir[sizeof(P_tmpdir) + 32], log[sizeof(dir) + 16], err[256];
	FILE *sink = tmpfile();
	struct check_run cr = { 0 };
	const struct check_finding *f0, *f3;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/sqwave-checkrun-XXXXXX", P_tmpdir);
	assert_non_null(mkdtemp(dir));
	snprintf(log, sizeof(log), "%s/r.sqwlog", dir);
	sim_cmdline(log, "limits.tmax=10s");
	assert_int_equal(config_apply_set(cfg, "gpio.line=0,3", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_apply_set(cfg, "run.line_high=300us,100us", err, sizeof(err)),
			 CFG_OK);
	assert_int_equal(config_apply_set(cfg, "run.line_low=700us,900us", err, sizeof(err)),
			 CFG_OK);
	check_run_short(&rep, cfg, &(struct check_run_params){
		.board_path = "", .profile_path = "", .root = "/", .run_ns = 50000000,
		.text = sink, .note = sink }, &cr);
	assert_true(cr.done);
	assert_true(cr.judged);
	assert_int_equal(cr.nlines, 2);
	assert_string_equal(cr.lines[1].line, "3");
	assert_non_null(strstr(cr.lines[1].log, "/r.3.sqwlog"));
	/* each log carried its own line's wave */
	assert_int_equal(cr.lines[0].fig.pin.nominal_ns[PIN_POS], 300000);
	assert_int_equal(cr.lines[1].fig.pin.nominal_ns[PIN_POS], 100000);
	assert_int_equal(cr.lines[1].fig.pin.nominal_ns[PIN_NEG], 900000);
	f0 = check_find(&rep, "run.verdict.0");
	f3 = check_find(&rep, "run.verdict.3");
	assert_non_null(f0);
	assert_non_null(f3);
	assert_int_equal(f3->status, CHECK_PASS);
	assert_non_null(strstr(f3->value, "+ pulses Tmin/Tmax"));
	assert_null(check_find(&rep, "run.verdict"));	/* nothing failed beyond the lines */
	assert_int_equal(cr.verdict, VERDICT_PASS);	/* every line's */
	unlink(cr.lines[0].log);
	unlink(cr.lines[1].log);
	check_run_free(&cr);
	fclose(sink);
	rmdir(dir);
}

/* The run's own verdict reaches check --run as data, and its exit code is
 * the command's rule's (cmd/runexit), not the board library's. */
static void a_short_run_carries_its_verdict_and_the_commands_exit_code(void **state)
{
	char dir[sizeof(P_tmpdir) + 32], log[sizeof(dir) + 16];
	FILE *sink = tmpfile();
	struct check_run cr = { 0 };
	const struct check_finding *f;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/sqwave-checkrun-XXXXXX", P_tmpdir);
	assert_non_null(mkdtemp(dir));
	snprintf(log, sizeof(log), "%s/r.sqwlog", dir);
	sim_cmdline(log, "limits.tmax=1us");	/* no pulse keeps it */
	check_run_short(&rep, cfg, &(struct check_run_params){
		.board_path = "", .profile_path = "", .root = "/", .run_ns = 50000000,
		.text = sink, .note = sink, .exit_code = runexit_code }, &cr);
	assert_true(cr.done);
	assert_true(cr.judged);
	assert_int_equal(cr.verdict, VERDICT_FAIL);
	assert_int_equal(cr.exit_code, SQW_EXIT_LIMIT);
	f = check_find(&rep, "run.verdict");
	assert_non_null(f);
	assert_int_equal(f->status, CHECK_FAIL);
	assert_non_null(strstr(f->value, "above limits.tmax 1.000 us"));
	unlink(log);
	check_run_free(&cr);
	fclose(sink);
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
		cmocka_unit_test(a_pulse_is_far_when_off_its_polarity_nominal_by_half_the_shorter_level),
		cmocka_unit_test_setup_teardown(a_healthy_duty_wave_is_judged_against_each_levels_nominal, setup, teardown),
		cmocka_unit_test_setup_teardown(a_stretched_high_pulse_of_a_duty_wave_is_far, setup, teardown),
		cmocka_unit_test_setup_teardown(a_named_lines_verdict_id_is_the_gpio_checks_suffix,
						setup, teardown),
		cmocka_unit_test_setup_teardown(a_run_without_limits_is_not_pass_but_no_limits_with_what_broke, setup, teardown),
		cmocka_unit_test_setup_teardown(a_clean_run_without_limits_is_still_no_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(a_run_within_the_limits_set_passes_and_names_each_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(a_violated_limit_fails_and_says_which, setup, teardown),
		cmocka_unit_test_setup_teardown(the_runs_own_failure_wins_over_a_log_that_passes, setup, teardown),
		cmocka_unit_test_setup_teardown(a_short_run_keeps_the_checks_settings_and_is_judged_by_them, setup, teardown),
		cmocka_unit_test_setup_teardown(a_short_run_of_several_lines_judges_each_by_its_own_log,
						setup, teardown),
		cmocka_unit_test_setup_teardown(a_short_run_carries_its_verdict_and_the_commands_exit_code,
						setup, teardown),
		cmocka_unit_test_setup_teardown(a_copied_tree_is_never_run, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
