/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for trace breaks against a fake tracefs directory: no break
 * under the threshold; a late wake-up or an off pulse marks the trace with
 * the edge, stops tracing, saves the trace next to the log, and either
 * stops the run or traces again; the run's own instance gets the events
 * asked for, and instances of dead runs are removed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stats/traceexplain.h"
#include "run/tracebreak.h"

static char dir[64];

static void put(const char *name, const char *text)
{
	char path[512], cmd[1024];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s/%s)\"", dir, name);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void get(const char *name, char *buf, size_t len)
{
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static int make_tracefs(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/sqwave-tracefs-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	put("trace_marker", "");
	put("tracing_on", "0\n");
	put("current_tracer", "nop\n");
	put("available_tracers", "function nop\n");
	put("buffer_size_kb", "1408\n");
	return 0;
}

static int remove_tracefs(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Until the helper has saved @n traces, or until it is armed again. The
 * bound (a minute of 10 ms naps) only turns a hang into a failure: how
 * fast the helper thread gets a CPU is this machine's business. */
#define WAIT_NAPS 6000

static void wait_count(struct tracebreak *tb, unsigned n)
{
	int i;

	for (i = 0; i < WAIT_NAPS && tracebreak_count(tb) < n; i++)
		usleep(10000);
	assert_int_equal(tracebreak_count(tb), n);
}

static void wait_armed(struct tracebreak_rt *rt)
{
	int i;

	for (i = 0; i < WAIT_NAPS && !atomic_load(&rt->armed); i++)
		usleep(10000);
	assert_true(atomic_load(&rt->armed));
}

static struct tracebreak *make(bool stop_on_break, const char *tracer)
{
	char log[128], err[512];
	struct tracebreak_params p = { .threshold_ns = 100000, .stop_on_break = stop_on_break,
				       .max_breaks = 10, .tracer = tracer, .log_path = log,
				       .tracefs = dir, .top = true };
	struct tracebreak *tb;

	snprintf(log, sizeof(log), "%s/run.sqwlog", dir);
	tb = tracebreak_new(&p, err, sizeof(err));
	if (!tb)
		fail_msg("%s", err);
	return tb;
}

static void a_late_wake_up_marks_stops_and_saves_the_trace(void **state)
{
	struct tracebreak *tb = make(true, "function");
	struct tracebreak_rt *rt = tracebreak_rt(tb);
	atomic_bool stop;
	char buf[1024], path[128];

	(void)state;
	atomic_init(&stop, false);
	get("tracing_on", buf, sizeof(buf));
	assert_int_equal(buf[0], '1');	/* switched on for the run */
	get("current_tracer", buf, sizeof(buf));
	assert_string_equal(buf, "function");
	assert_int_equal(tracebreak_start(tb, NULL, &stop), 0);
	put("trace", "# tracer: function\n  sqwave-rt-1234 [001] irq_handler_entry: irq=11\n");
	tracebreak_rt_check(rt, 6, 1000, 99000, INT64_MIN, 500000, false);	/* under: nothing */
	usleep(50000);
	assert_int_equal(tracebreak_count(tb), 0);
	tracebreak_rt_check(rt, 7, 2000, 150000, INT64_MIN, 500000, false);
	wait_count(tb, 1);
	get("trace_marker", buf, sizeof(buf));
	assert_non_null(strstr(buf, "sqwave: break at edge #7 (intended 2000 ns): wake latency "
				    "150000 ns, threshold 100000 ns"));
	assert_null(strstr(buf, TRACEEXPLAIN_MARKER_EVENT));	/* a run's marker, as it was */
	get("tracing_on", buf, sizeof(buf));
	assert_int_equal(buf[0], '0');	/* stopped: the buffer keeps the cause */
	assert_true(atomic_load(&stop));
	snprintf(path, sizeof(path), "%s/run.sqwlog.break-1.trace", dir);
	assert_string_equal(tracebreak_first_trace(tb), path);
	get("run.sqwlog.break-1.trace", buf, sizeof(buf));
	assert_non_null(strstr(buf, "irq_handler_entry: irq=11"));
	assert_non_null(strstr(tracebreak_first_text(tb), "edge #7: wake latency 150.000 us"));
	/* stop-on-break: not armed again */
	tracebreak_rt_check(rt, 9, 3000, 900000, INT64_MIN, 500000, false);
	usleep(50000);
	assert_int_equal(tracebreak_count(tb), 1);
	tracebreak_free(tb);
	get("current_tracer", buf, sizeof(buf));
	assert_string_equal(buf, "nop");	/* restored */
	get("tracing_on", buf, sizeof(buf));
	assert_int_equal(buf[0], '0');
}

/* A respond break's marker says its T is an event, for the explainer. */
static void a_respond_break_says_so_in_its_marker(void **state)
{
	char log[128], err[512], buf[1024];
	struct tracebreak_params p = { .threshold_ns = 100000, .stop_on_break = true,
				       .max_breaks = 1, .log_path = log, .tracefs = dir,
				       .top = true, .respond = true };
	struct tracebreak *tb;
	atomic_bool stop;

	(void)state;
	snprintf(log, sizeof(log), "%s/run.sqwlog", dir);
	tb = tracebreak_new(&p, err, sizeof(err));
	if (!tb)
		fail_msg("%s", err);
	atomic_init(&stop, false);
	assert_int_equal(tracebreak_start(tb, NULL, &stop), 0);
	tracebreak_rt_check(tracebreak_rt(tb), 5, 4000, 250000, INT64_MIN, 0, false);
	wait_count(tb, 1);
	get("trace_marker", buf, sizeof(buf));
	assert_non_null(strstr(buf, "sqwave: break at edge #5 (intended 4000 ns): wake latency "
				    "250000 ns, threshold 100000 ns" TRACEEXPLAIN_MARKER_EVENT "\n"));
	tracebreak_free(tb);
}

static void an_off_pulse_breaks_and_tracing_goes_on(void **state)
{
	struct tracebreak *tb = make(false, NULL);
	struct tracebreak_rt *rt = tracebreak_rt(tb);
	atomic_bool stop;
	char buf[512];

	(void)state;
	atomic_init(&stop, false);
	assert_int_equal(tracebreak_start(tb, NULL, &stop), 0);
	tracebreak_rt_check(rt, 3, 1000, 1000, 450000, 500000, false);	/* 50 us off: fine */
	tracebreak_rt_check(rt, 4, 1000, 1000, 380000, 500000, false);	/* 120 us short */
	wait_count(tb, 1);
	get("trace_marker", buf, sizeof(buf));
	assert_non_null(strstr(buf, "edge #4 (intended 1000 ns): pulse width 380000 ns"));
	assert_false(atomic_load(&stop));
	/* armed again: a second break is the second trace */
	wait_armed(rt);
	get("tracing_on", buf, sizeof(buf));
	assert_int_equal(buf[0], '1');
	tracebreak_rt_check(rt, 8, 1000, 1000, 650000, 500000, false);
	wait_count(tb, 2);
	tracebreak_free(tb);
}

/* A duty cycle's pulses, each against the time of its own level: a 300 us
 * high and a 700 us low pulse are on time, a 700 us high one is 400 us off. */
static void a_duty_cycle_pulse_is_judged_against_its_own_levels_time(void **state)
{
	struct tracebreak *tb = make(false, NULL);
	struct tracebreak_rt *rt = tracebreak_rt(tb);
	const struct wave w = { .high_ns = 300000, .low_ns = 700000 };
	atomic_bool stop;
	char buf[512];

	(void)state;
	atomic_init(&stop, false);
	assert_int_equal(tracebreak_start(tb, NULL, &stop), 0);
	tracebreak_rt_check_wave(rt, 3, 1000, 1000, 300000, &w, 0, false);	/* high ends */
	tracebreak_rt_check_wave(rt, 4, 2000, 1000, 700000, &w, 1, false);	/* low ends */
	usleep(50000);
	assert_int_equal(tracebreak_count(tb), 0);
	tracebreak_rt_check_wave(rt, 5, 3000, 1000, 700000, &w, 0, false);	/* a long high */
	wait_count(tb, 1);
	get("trace_marker", buf, sizeof(buf));
	assert_non_null(strstr(buf, "edge #5 (intended 3000 ns): pulse width 700000 ns"));
	tracebreak_free(tb);
}

/* --warmup: a warm-up edge, however late, spends none of trace.max_breaks;
 * the first counted edge over the threshold is the first trace, and the
 * hits list every traced edge for the summary. */
static void warm_up_edges_spend_no_break_and_every_traced_edge_is_listed(void **state)
{
	struct tracebreak *tb = make(false, NULL);
	struct tracebreak_rt *rt = tracebreak_rt(tb);
	struct tracebreak_hit hits[4];
	atomic_bool stop;
	int i;

	(void)state;
	atomic_init(&stop, false);
	assert_int_equal(tracebreak_start(tb, NULL, &stop), 0);
	put("trace", "# tracer: nop\n");
	for (i = 0; i < 3; i++)		/* warm-up: 2 ms late, and a pulse 300 us off */
		tracebreak_rt_check(rt, (uint64_t)i, 1000, 2000000, 800000, 500000, true);
	usleep(50000);
	assert_int_equal(tracebreak_count(tb), 0);
	assert_true(atomic_load(&rt->armed));
	assert_int_equal(tracebreak_hits(tb, hits, 4), 0);
	tracebreak_rt_check(rt, 12, 1000, 400000, INT64_MIN, 500000, false);
	wait_count(tb, 1);
	wait_armed(rt);
	tracebreak_rt_check(rt, 15, 1000, 1000, 300000, 500000, false);
	wait_count(tb, 2);
	tracebreak_stop(tb);
	assert_int_equal(tracebreak_hits(tb, hits, 4), 2);
	assert_int_equal(hits[0].seq, 12);
	assert_int_equal(hits[0].what, TRACEBREAK_WAKE);
	assert_int_equal(hits[0].value_ns, 400000);
	assert_true(hits[0].saved);
	assert_int_equal(hits[1].seq, 15);
	assert_int_equal(hits[1].what, TRACEBREAK_WIDTH);
	assert_int_equal(tracebreak_hits(tb, hits, 1), 2);	/* the count, one copied */
	tracebreak_free(tb);
}

/* The summary's question: has the worst wake-up a trace, and if not, why. */
static void the_worst_wake_up_is_matched_to_its_trace_or_told_why_it_has_none(void **state)
{
	const struct tracebreak_hit hits[] = {
		{ .seq = 10, .value_ns = 200000, .what = TRACEBREAK_WAKE, .saved = true },
		{ .seq = 30, .value_ns = 300000, .what = TRACEBREAK_WIDTH, .saved = true },
	};
	char why[160];

	(void)state;
	assert_int_equal(tracebreak_cover(hits, 2, 3, 100000, 30, 400000, why, sizeof(why)), 1);
	assert_string_equal(why, "");
	assert_int_equal(tracebreak_cover(hits, 2, 3, 100000, 31, 90000, why, sizeof(why)), -1);
	assert_string_equal(why, "it was under the threshold (100.000 us)");
	assert_int_equal(tracebreak_cover(hits, 2, 2, 100000, 31, 400000, why, sizeof(why)), -1);
	assert_string_equal(why, "trace.max_breaks (2) was spent on earlier edges");
	assert_int_equal(tracebreak_cover(hits, 2, 3, 100000, 20, 400000, why, sizeof(why)), -1);
	assert_string_equal(why, "it came while tracing was stopped to save an earlier trace");
	/* the budget spent, but the edge came between two traces */
	assert_int_equal(tracebreak_cover(hits, 2, 2, 100000, 20, 400000, why, sizeof(why)), -1);
	assert_string_equal(why, "it came while tracing was stopped to save an earlier trace");
}

static void a_missing_tracefs_says_how_to_mount_it(void **state)
{
	char err[512];
	struct tracebreak_params p = { .threshold_ns = 1, .tracefs = "/nonexistent/tracing",
				       .top = true };

	(void)state;
	assert_null(tracebreak_new(&p, err, sizeof(err)));
	assert_non_null(strstr(err, "cannot open /nonexistent/tracing/trace_marker"));
	p.top = false;
	assert_null(tracebreak_new(&p, err, sizeof(err)));
	assert_non_null(strstr(err, "cannot create the run's tracefs instance "
				    "/nonexistent/tracing/instances/sqwave-"));
	assert_non_null(strstr(err, "trace.buffer=top"));
}

/* A break rung just before the end is still saved and counted: stop waits
 * for it (the summary reads the count after the stop). */
static void a_break_at_the_end_is_not_lost(void **state)
{
	struct tracebreak *tb = make(false, NULL);
	atomic_bool stop;

	(void)state;
	atomic_init(&stop, false);
	put("trace", "# tracer: nop\n");
	tracebreak_rt_check(tracebreak_rt(tb), 5, 1000, 500000, INT64_MIN, 500000, false);
	assert_int_equal(tracebreak_start(tb, NULL, &stop), 0);
	tracebreak_stop(tb);
	assert_int_equal(tracebreak_count(tb), 1);
	assert_non_null(strstr(tracebreak_first_text(tb), "edge #5"));
	tracebreak_free(tb);
}

static bool exists(const char *rel)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return stat(path, &st) == 0;
}

/* The instance a real tracefs would create on mkdir, made by hand here. */
static void fake_instance(char *inst, size_t len)
{
	char rel[256];

	snprintf(inst, len, "instances/sqwave-%ld", (long)getpid());
	snprintf(rel, sizeof(rel), "%s/trace_marker", inst);
	put(rel, "");
	snprintf(rel, sizeof(rel), "%s/tracing_on", inst);
	put(rel, "0\n");
	snprintf(rel, sizeof(rel), "%s/events/sched/sched_switch/enable", inst);
	put(rel, "0\n");
	snprintf(rel, sizeof(rel), "%s/events/timer/hrtimer_start/enable", inst);
	put(rel, "0\n");
	snprintf(rel, sizeof(rel), "%s/events/irq/enable", inst);
	put(rel, "0\n");
}

static void the_run_traces_in_its_own_instance_with_the_default_events(void **state)
{
	char inst[128], rel[256], buf[256], err[512], log[128], dead[64], theirs[64], cmd[512];
	struct tracebreak_params p = { .threshold_ns = 1, .max_breaks = 1, .log_path = log,
				       .tracefs = dir, .events = "default" };
	struct tracebreak *tb;
	pid_t pid = fork();

	(void)state;
	if (pid == 0)
		_exit(0);
	assert_true(pid > 0);
	waitpid(pid, NULL, 0);
	/* a dead run's instance goes; a live one's and someone else's stay */
	snprintf(dead, sizeof(dead), "instances/sqwave-%ld", (long)pid);
	/* "osnoise" is as long as "sqwave-": only the name tells them apart */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/%s %s/instances/sqwave-1 %s/instances/osnoise%ld",
		 dir, dead, dir, dir, (long)pid);
	assert_int_equal(system(cmd), 0);
	snprintf(theirs, sizeof(theirs), "instances/osnoise%ld", (long)pid);
	snprintf(log, sizeof(log), "%s/run.sqwlog", dir);
	fake_instance(inst, sizeof(inst));
	tb = tracebreak_new(&p, err, sizeof(err));
	if (!tb)
		fail_msg("%s", err);
	assert_false(exists(dead));
	assert_true(exists("instances/sqwave-1"));
	assert_true(exists(theirs));
	snprintf(buf, sizeof(buf), "%s/%s", dir, inst);
	assert_string_equal(tracebreak_dir(tb), buf);
	/* only those this kernel has, without complaint */
	assert_string_equal(tracebreak_events(tb), "sched:sched_switch,timer:hrtimer_start");
	snprintf(rel, sizeof(rel), "%s/events/sched/sched_switch/enable", inst);
	get(rel, buf, sizeof(buf));
	assert_int_equal(buf[0], '1');
	snprintf(rel, sizeof(rel), "%s/events/irq/enable", inst);
	get(rel, buf, sizeof(buf));
	assert_int_equal(buf[0], '0');	/* not in the default set as a whole */
	snprintf(rel, sizeof(rel), "%s/tracing_on", inst);
	get(rel, buf, sizeof(buf));
	assert_int_equal(buf[0], '1');
	get("tracing_on", buf, sizeof(buf));
	assert_int_equal(buf[0], '0');	/* the top-level buffer untouched */
	tracebreak_free(tb);
}

static void asked_for_events_must_exist(void **state)
{
	char inst[128], rel[256], buf[256], err[512];
	struct tracebreak_params p = { .threshold_ns = 1, .max_breaks = 1, .tracefs = dir,
				       .events = "irq, nosuch:thing" };
	struct tracebreak *tb;

	(void)state;
	fake_instance(inst, sizeof(inst));
	assert_null(tracebreak_new(&p, err, sizeof(err)));
	assert_non_null(strstr(err, "no trace event \"nosuch:thing\""));
	p.events = "irq";
	tb = tracebreak_new(&p, err, sizeof(err));
	if (!tb)
		fail_msg("%s", err);
	assert_string_equal(tracebreak_events(tb), "irq");
	snprintf(rel, sizeof(rel), "%s/events/irq/enable", inst);
	get(rel, buf, sizeof(buf));
	assert_int_equal(buf[0], '1');
	tracebreak_free(tb);
	p.events = "none";
	tb = tracebreak_new(&p, err, sizeof(err));
	assert_non_null(tb);
	assert_string_equal(tracebreak_events(tb), "");
	tracebreak_free(tb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_late_wake_up_marks_stops_and_saves_the_trace,
						make_tracefs, remove_tracefs),
		cmocka_unit_test_setup_teardown(a_respond_break_says_so_in_its_marker, make_tracefs,
						remove_tracefs),
		cmocka_unit_test_setup_teardown(a_duty_cycle_pulse_is_judged_against_its_own_levels_time,
						make_tracefs, remove_tracefs),
		cmocka_unit_test_setup_teardown(an_off_pulse_breaks_and_tracing_goes_on, make_tracefs,
						remove_tracefs),
		cmocka_unit_test_setup_teardown(warm_up_edges_spend_no_break_and_every_traced_edge_is_listed,
						make_tracefs, remove_tracefs),
		cmocka_unit_test(the_worst_wake_up_is_matched_to_its_trace_or_told_why_it_has_none),
		cmocka_unit_test_setup_teardown(a_missing_tracefs_says_how_to_mount_it, make_tracefs,
						remove_tracefs),
		cmocka_unit_test_setup_teardown(a_break_at_the_end_is_not_lost, make_tracefs,
						remove_tracefs),
		cmocka_unit_test_setup_teardown(
			the_run_traces_in_its_own_instance_with_the_default_events, make_tracefs,
			remove_tracefs),
		cmocka_unit_test_setup_teardown(asked_for_events_must_exist, make_tracefs,
						remove_tracefs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
