/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run session on the simulated chip: its stages, what it says, the log
 * it leaves and the exit code its footer carries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "config/config.h"
#include "config/plan.h"
#include "log/edgelog.h"
#include "run/session.h"

static char dir[sizeof(P_tmpdir) + 32];
static char log_path[sizeof(dir) + 32];

/* What the session said, in order, one line each ("E text", "W text", "I text"). */
static char said[8192];

static void say(void *ctx, enum run_say level, const char *text)
{
	size_t n = strlen(said);

	(void)ctx;
	snprintf(said + n, sizeof(said) - n, "%c %s\n",
		 level == RUN_SAY_ERR ? 'E' : level == RUN_SAY_WARN ? 'W' : 'I', text);
}

/* The simulated board, a short quiet run into log_path, then @sets. */
static struct config *sim_config(const char *const *sets)
{
	static const char *const base[] = {
		"gpio.backend=sim", "gpio.chip=sqwave-sim", "gpio.line=0",
		"sim.chip_label=sqwave-sim", "rt.allow_non_rt=true", "run.duration=20ms",
		"run.half_period=1ms", "run.warmup=0", "output.quiet=true", NULL,
	};
	struct config *c = config_new();
	char err[1024], set[PATH_MAX + 32];
	size_t i;

	assert_non_null(c);
	for (i = 0; base[i]; i++)
		assert_int_equal(config_apply_set(c, base[i], err, sizeof(err)), CFG_OK);
	snprintf(set, sizeof(set), "output.log=%s", log_path);
	assert_int_equal(config_apply_set(c, set, err, sizeof(err)), CFG_OK);
	for (i = 0; sets && sets[i]; i++)
		assert_int_equal(config_apply_set(c, sets[i], err, sizeof(err)), CFG_OK);
	assert_int_equal(plan_finalize(config_plan_mut(c), c, err, sizeof(err)), CFG_OK);
	return c;
}

static struct run_session *session_of(struct config *c, int *code, char *err, size_t len)
{
	return run_session_init(&(struct run_session_params){
		.cfg = c, .board_file = "--chip/--line", .say = say }, code, err, len);
}

/* The footer's exit code of the log at log_path, or -1 without a footer. */
static int footer_exit_code(uint64_t *records)
{
	enum edgelog_status st;
	char err[512];
	struct edgelog_reader *r = edgelog_reader_open(log_path, &st, err, sizeof(err));
	struct edge_rec e;
	const struct edgelog_footer *ft;
	int code;

	assert_non_null(r);
	while (edgelog_reader_next(r, &e) == 1)
		;
	ft = edgelog_reader_footer(r);
	code = ft ? ft->exit_code : -1;
	*records = edgelog_reader_records(r);
	edgelog_reader_close(r);
	return code;
}

static void a_short_run_logs_every_edge_and_its_footer_carries_the_exit_code(void **state)
{
	struct config *c = sim_config(NULL);
	char err[1024] = "";
	int code = -1;
	struct run_session *s = session_of(c, &code, err, sizeof(err));
	const struct run_info *ri;
	const struct edgestats_result *er;
	uint64_t records, ri_records;

	(void)state;
	assert_non_null(s);
	assert_int_equal(run_session_run(s), SQW_EXIT_OK);
	ri = run_session_info(s);
	assert_true(ri->end_realtime_ns > ri->start_realtime_ns);
	assert_int_equal(ri->stop_reason, EDGELOG_STOP_DURATION);
	/* 20 ms of 1 ms half periods: at most 20 edges, fewer where a slow
	 * machine (valgrind) missed periods; every edge logged is counted */
	er = edgestats_result(run_session_stats(s));
	assert_true(ri->records_logged >= 1 && ri->records_logged <= 20);
	assert_int_equal(er->edges, ri->records_logged);
	assert_true(er->missed_periods > 0 || er->edges >= 19);
	ri_records = ri->records_logged;
	/* the caller's verdict, whatever it is, is what the footer keeps */
	assert_int_equal(run_session_close(s, SQW_EXIT_LIMIT), SQW_EXIT_LIMIT);
	run_session_fini(s);
	assert_int_equal(footer_exit_code(&records), SQW_EXIT_LIMIT);
	assert_int_equal(records, ri_records);
	config_free(c);
}

static void a_duration_shorter_than_one_period_is_a_usage_error(void **state)
{
	static const char *const sets[] = { "run.duration=1500us", NULL };
	struct config *c = sim_config(sets);
	char err[1024] = "";
	int code = -1;

	(void)state;
	assert_null(session_of(c, &code, err, sizeof(err)));
	assert_int_equal(code, SQW_EXIT_USAGE);
	assert_string_equal(err, "run.duration (1.5ms) is shorter than one period "
			    "(2 x run.half_period = 2ms)");
	assert_int_equal(access(log_path, F_OK), -1);	/* nothing written */
	config_free(c);
}

static void a_duration_off_the_period_grid_is_said_as_a_warning(void **state)
{
	static const char *const sets[] = { "run.duration=21ms", NULL };
	struct config *c = sim_config(sets);
	char err[1024] = "";
	int code = -1;
	struct run_session *s;

	(void)state;
	said[0] = '\0';
	s = session_of(c, &code, err, sizeof(err));
	assert_non_null(s);
	assert_non_null(strstr(said, "W run.duration (21ms) is not a whole number of periods; "
			       "rounded up\n"));
	run_session_fini(s);
	config_free(c);
}

static void an_output_over_the_log_is_refused_before_anything_runs(void **state)
{
	char set[PATH_MAX + 32];
	const char *sets[] = { set, NULL };
	struct config *c;
	char err[1024] = "";
	int code = -1;

	(void)state;
	snprintf(set, sizeof(set), "output.json=%s", log_path);
	c = sim_config(sets);
	assert_null(session_of(c, &code, err, sizeof(err)));
	assert_int_equal(code, SQW_EXIT_USAGE);
	assert_non_null(strstr(err, "--json"));
	assert_int_equal(access(log_path, F_OK), -1);
	config_free(c);
}

static void a_line_that_cannot_be_opened_is_said_and_fails_the_run(void **state)
{
	static const char *const sets[] = { "sim.busy_line=0", NULL };
	struct config *c = sim_config(sets);
	char err[1024] = "";
	int code = -1;
	struct run_session *s = session_of(c, &code, err, sizeof(err));

	(void)state;
	assert_non_null(s);
	said[0] = '\0';
	assert_int_equal(run_session_run(s), SQW_EXIT_RUNTIME);
	assert_int_equal(said[0], 'E');	/* the failure, said when it happened */
	assert_int_equal(run_session_info(s)->end_realtime_ns, 0);	/* nothing ran */
	assert_int_equal(run_session_close(s, SQW_EXIT_RUNTIME), SQW_EXIT_RUNTIME);
	run_session_fini(s);
	assert_int_equal(access(log_path, F_OK), -1);	/* no log before the line */
	config_free(c);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/sqwave-session-XXXXXX", P_tmpdir);
	if (!mkdtemp(dir))
		return -1;
	snprintf(log_path, sizeof(log_path), "%s/run.sqwlog", dir);
	return 0;
}

static int remove_log(void **state)
{
	(void)state;
	unlink(log_path);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(log_path);
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			a_short_run_logs_every_edge_and_its_footer_carries_the_exit_code, remove_log),
		cmocka_unit_test_teardown(a_duration_shorter_than_one_period_is_a_usage_error,
					  remove_log),
		cmocka_unit_test_teardown(a_duration_off_the_period_grid_is_said_as_a_warning,
					  remove_log),
		cmocka_unit_test_teardown(an_output_over_the_log_is_refused_before_anything_runs,
					  remove_log),
		cmocka_unit_test_teardown(a_line_that_cannot_be_opened_is_said_and_fails_the_run,
					  remove_log),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
