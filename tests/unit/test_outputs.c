/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for config/outputs.c: gpio.line split into lines, each line's
 * wave (run.line_high, run.line_low, run.line_phase over run.*), per-cpu's CPUs, and
 * every refusal naming its key and where it was set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "base/cpulist.h"
#include "base/wave.h"
#include "config/config.h"
#include "config/outputs.h"

#define US INT64_C(1000)

static int setup(void **state)
{
	*state = config_new();
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	config_free(*state);
	return 0;
}

/* @key=@value from test.yaml line 7 (so the origin is named): a board
 * file for gpio.*, a profile for the rest. */
static void set(struct config *c, const char *key, const char *value)
{
	enum cfg_source src = strncmp(key, "gpio.", 5) ? CFG_SRC_PROFILE : CFG_SRC_BOARD;
	char err[512] = "";
	int k = config_lookup(key);

	assert_true(k >= 0);
	if (config_set(c, k, value, src, "test.yaml", 7, err, sizeof(err)) != CFG_OK)
		fail_msg("%s=%s: %s", key, value, err);
}

static void resolve_ok(struct config *c, struct outputs *o)
{
	char err[512] = "";

	assert_int_equal(config_resolve_wave(c, err, sizeof(err)), CFG_OK);
	if (outputs_resolve(c, o, err, sizeof(err)) != 0)
		fail_msg("outputs_resolve: %s", err);
}

/* Refused, and the message names @key and where it was set (test.yaml:7)
 * and says @what. */
static void resolve_refused(struct config *c, const char *key, const char *what)
{
	struct outputs o;
	char err[512] = "";

	assert_int_equal(config_resolve_wave(c, err, sizeof(err)), CFG_OK);
	assert_int_equal(outputs_resolve(c, &o, err, sizeof(err)), -1);
	if (!strstr(err, key) || !strstr(err, "test.yaml:7") || !strstr(err, what))
		fail_msg("expected \"%s\" (test.yaml:7) and \"%s\" in: %s", key, what, err);
}

static void one_line_is_the_run_of_before_with_the_runs_wave(void **state)
{
	struct config *c = *state;
	struct outputs o;

	set(c, "gpio.line", "3");
	set(c, "run.high", "300us");
	set(c, "run.low", "700us");
	set(c, "run.phase", "50us");
	set(c, "rt.cpu", "1");
	resolve_ok(c, &o);
	assert_int_equal(o.n, 1);
	assert_int_equal(o.mode, OUTPUTS_TOGETHER);
	assert_string_equal(o.o[0].line, "3");
	assert_int_equal(o.o[0].wave.high_ns, 300 * US);
	assert_int_equal(o.o[0].wave.low_ns, 700 * US);
	assert_int_equal(o.o[0].wave.phase_ns, 50 * US);
	assert_int_equal(o.o[0].half_ns, 500 * US);
	assert_int_equal(o.o[0].cpu, 1);
}

static void a_plain_run_is_a_50_percent_wave_of_the_half_period(void **state)
{
	struct config *c = *state;
	struct outputs o;

	set(c, "gpio.line", "SIM0");
	set(c, "run.half_period", "250us");
	resolve_ok(c, &o);
	assert_int_equal(o.n, 1);
	assert_string_equal(o.o[0].line, "SIM0");
	assert_int_equal(o.o[0].wave.high_ns, 250 * US);
	assert_int_equal(o.o[0].wave.low_ns, 250 * US);
	assert_int_equal(o.o[0].wave.phase_ns, 0);
	assert_int_equal(o.o[0].half_ns, 250 * US);
}

static void two_lines_are_two_outputs_in_order_with_the_runs_wave(void **state)
{
	struct config *c = *state;
	struct outputs o;

	set(c, "gpio.line", "2,0");
	set(c, "run.half_period", "400us");
	resolve_ok(c, &o);
	assert_int_equal(o.n, 2);
	assert_string_equal(o.o[0].line, "2");
	assert_string_equal(o.o[1].line, "0");
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(o.o[i].wave.high_ns, 400 * US);
		assert_int_equal(o.o[i].wave.low_ns, 400 * US);
		assert_int_equal(o.o[i].wave.phase_ns, 0);
		assert_int_equal(o.o[i].half_ns, 400 * US);
	}
}

static void blanks_around_each_line_are_trimmed(void **state)
{
	struct config *c = *state;
	struct outputs o;

	set(c, "gpio.line", "  0 ,2 , SIM5 ");
	resolve_ok(c, &o);
	assert_int_equal(o.n, 3);
	assert_string_equal(o.o[0].line, "0");
	assert_string_equal(o.o[1].line, "2");
	assert_string_equal(o.o[2].line, "SIM5");
}

static void an_empty_item_is_refused_naming_gpio_line(void **state)
{
	struct config *c = *state;

	set(c, "gpio.line", "0,,2");
	resolve_refused(c, "gpio.line", "an empty item");
	set(c, "gpio.line", "0,2,");
	resolve_refused(c, "gpio.line", "an empty item");
	set(c, "gpio.line", ", 0");
	resolve_refused(c, "gpio.line", "an empty item");
	set(c, "gpio.line", "0, ,2");
	resolve_refused(c, "gpio.line", "an empty item");
}

static void a_line_listed_twice_is_refused(void **state)
{
	struct config *c = *state;

	set(c, "gpio.line", "0,2,0");
	resolve_refused(c, "gpio.line", "line 0 is listed twice");
	/* blanks do not make it another line */
	set(c, "gpio.line", "SIM1, SIM1 ");
	resolve_refused(c, "gpio.line", "line SIM1 is listed twice");
}

static void thirty_two_lines_are_taken_and_thirty_three_refused(void **state)
{
	struct config *c = *state;
	struct outputs o;
	char list[256] = "";
	size_t i;

	for (i = 0; i < OUTPUTS_MAX; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%zu", i ? "," : "", i);
	set(c, "gpio.line", list);
	resolve_ok(c, &o);
	assert_int_equal(o.n, OUTPUTS_MAX);
	assert_string_equal(o.o[OUTPUTS_MAX - 1].line, "31");
	strcat(list, ",32");
	set(c, "gpio.line", list);
	resolve_refused(c, "gpio.line", "at most 32 lines");
}

static void one_phase_for_all_lines_or_one_per_line(void **state)
{
	struct config *c = *state;
	struct outputs o;

	set(c, "gpio.line", "0,1,2");
	set(c, "run.line_phase", "100us");
	resolve_ok(c, &o);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(o.o[i].wave.phase_ns, 100 * US);
	set(c, "run.line_phase", "0, 100us,250");	/* a bare number is us */
	resolve_ok(c, &o);
	assert_int_equal(o.o[0].wave.phase_ns, 0);
	assert_int_equal(o.o[1].wave.phase_ns, 100 * US);
	assert_int_equal(o.o[2].wave.phase_ns, 250 * US);
	/* the phase changes no line's period */
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(o.o[i].half_ns, 500 * US);
}

static void the_line_list_overrides_the_runs_phase_and_wave_per_line(void **state)
{
	struct config *c = *state;
	struct outputs o;

	set(c, "gpio.line", "0,2");
	set(c, "run.phase", "30us");
	set(c, "run.line_high", "200us,300us");
	set(c, "run.line_low", "800us");
	resolve_ok(c, &o);
	/* line 0: 200 us high, 800 us low; line 2: 300 us high, 800 us low */
	assert_int_equal(o.o[0].wave.high_ns, 200 * US);
	assert_int_equal(o.o[0].wave.low_ns, 800 * US);
	assert_int_equal(o.o[0].half_ns, 500 * US);
	assert_int_equal(o.o[1].wave.high_ns, 300 * US);
	assert_int_equal(o.o[1].wave.low_ns, 800 * US);
	assert_int_equal(o.o[1].half_ns, 550 * US);
	/* run.phase stays every line's unless run.line_phase is given */
	assert_int_equal(o.o[0].wave.phase_ns, 30 * US);
	assert_int_equal(o.o[1].wave.phase_ns, 30 * US);
	set(c, "run.line_phase", "0,10us");
	resolve_ok(c, &o);
	assert_int_equal(o.o[0].wave.phase_ns, 0);
	assert_int_equal(o.o[1].wave.phase_ns, 10 * US);
	/* a 0 in run.line_high is the run's own high */
	set(c, "run.line_high", "0,300us");
	resolve_ok(c, &o);
	assert_int_equal(o.o[0].wave.high_ns, 500 * US);
	assert_int_equal(o.o[0].wave.low_ns, 800 * US);
}

static void a_list_of_another_length_is_refused(void **state)
{
	struct config *c = *state;

	set(c, "gpio.line", "0,1,2");
	set(c, "run.line_phase", "0,100us");
	resolve_refused(c, "run.line_phase", "one duration for every line or one per line");
	set(c, "run.line_phase", "");
	set(c, "run.line_high", "100us,200us,300us,400us");
	resolve_refused(c, "run.line_high", "(gpio.line names 3)");
	set(c, "run.line_high", "");
	set(c, "run.line_low", "100us,,300us");
	resolve_refused(c, "run.line_low", "one duration for every line or one per line");
}

static void a_time_that_is_not_a_duration_is_refused(void **state)
{
	struct config *c = *state;

	set(c, "gpio.line", "0,2");
	set(c, "run.line_high", "100us,5 parsecs");
	resolve_refused(c, "run.line_high", "\"5 parsecs\" is not a duration");
	set(c, "run.line_high", "");
	set(c, "run.line_phase", "-5us");
	resolve_refused(c, "run.line_phase", "is not a duration");
	set(c, "run.line_phase", "");
	set(c, "run.line_low", "500ns");
	resolve_refused(c, "run.line_low", "at least 1us");
}

static void a_phase_at_or_beyond_the_lines_period_is_refused(void **state)
{
	struct config *c = *state;
	struct outputs o;

	set(c, "gpio.line", "0,2");
	set(c, "run.line_high", "100us,400us");
	set(c, "run.line_low", "100us,400us");
	/* line 2's period is 800 us: 799 us fits, line 0's (200 us) does not */
	set(c, "run.line_phase", "199us,799us");
	resolve_ok(c, &o);
	assert_int_equal(o.o[1].wave.phase_ns, 799 * US);
	set(c, "run.line_phase", "200us,100us");
	resolve_refused(c, "run.line_phase", "line 0: the phase must be below the line's period");
	set(c, "run.line_phase", "100us,800us");
	resolve_refused(c, "run.line_phase", "line 2: the phase must be below the line's period");
	/* run.phase fits the run's period but not a line's shorter one */
	set(c, "run.line_phase", "");
	set(c, "run.phase", "300us");
	resolve_refused(c, "run.phase", "line 0: the phase must be below");
}

static void an_odd_high_plus_low_is_refused(void **state)
{
	struct config *c = *state;

	set(c, "gpio.line", "0,2");
	set(c, "run.line_high", "300us,300001ns");
	resolve_refused(c, "run.line_high", "line 2: high + low must be an even number");
	set(c, "run.line_high", "");
	set(c, "run.line_low", "700001ns,700us");
	resolve_refused(c, "run.line_low", "line 0: high + low must be an even number");
}

static void the_per_line_keys_with_one_line_are_refused(void **state)
{
	static const char *const keys[] = { "run.line_high", "run.line_low", "run.line_phase" };
	struct config *c;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		c = config_new();
		assert_non_null(c);
		set(c, "gpio.line", "0");
		set(c, keys[i], "100us");
		resolve_refused(c, keys[i], "is for several lines");
		config_free(c);
	}
	c = config_new();
	assert_non_null(c);
	set(c, "gpio.line", "0");
	set(c, "run.outputs", "per-cpu");
	set(c, "rt.cpus", "0");
	resolve_refused(c, "rt.cpus", "is for several lines");
	config_free(c);
}

static void rt_cpus_with_together_is_refused(void **state)
{
	struct config *c = *state;

	set(c, "gpio.line", "0,2");
	set(c, "rt.cpus", "0,1");
	resolve_refused(c, "rt.cpus", "is for run.outputs per-cpu");
}

static int online_cpus(cpu_set_t *on, int *list, int max)
{
	int n = 0;

	cpulist_online(on);
	for (int cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++)
		if (CPU_ISSET(cpu, on))
			list[n++] = cpu;
	return n;
}

static void per_cpu_lines_get_distinct_online_cpus_from_rt_cpu_on(void **state)
{
	struct config *c = *state;
	struct outputs o;
	cpu_set_t on, seen;
	int cpus[OUTPUTS_MAX], n = online_cpus(&on, cpus, OUTPUTS_MAX);
	char list[256] = "", v[16];
	int i;

	if (n < 2) {
		print_message("only %d online CPU: per-cpu with 2 lines is refused\n", n);
		set(c, "gpio.line", "0,2");
		set(c, "run.outputs", "per-cpu");
		assert_int_equal(config_resolve_wave(c, list, sizeof(list)), CFG_OK);
		assert_int_equal(outputs_resolve(c, &o, list, sizeof(list)), -1);
		return;
	}
	for (i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i ? "," : "", i);
	set(c, "gpio.line", list);
	set(c, "run.outputs", "per-cpu");
	/* from the last online CPU: the next ones wrap around to the first */
	snprintf(v, sizeof(v), "%d", cpus[n - 1]);
	set(c, "rt.cpu", v);
	resolve_ok(c, &o);
	assert_int_equal(o.mode, OUTPUTS_PER_CPU);
	assert_int_equal(o.n, (size_t)n);
	assert_int_equal(o.o[0].cpu, cpus[n - 1]);
	CPU_ZERO(&seen);
	for (i = 0; i < n; i++) {
		assert_true(CPU_ISSET(o.o[i].cpu, &on));
		assert_false(CPU_ISSET(o.o[i].cpu, &seen));
		CPU_SET(o.o[i].cpu, &seen);
	}
	assert_int_equal(o.o[1].cpu, cpus[0]);
	/* rt.cpu unset (-1): from the first online CPU, in order */
	set(c, "rt.cpu", "-1");
	resolve_ok(c, &o);
	for (i = 0; i < n; i++)
		assert_int_equal(o.o[i].cpu, cpus[i]);
}

static void more_per_cpu_lines_than_online_cpus_are_refused(void **state)
{
	struct config *c = *state;
	struct outputs o;
	cpu_set_t on;
	int cpus[OUTPUTS_MAX], n = online_cpus(&on, cpus, OUTPUTS_MAX);
	char list[256] = "", err[512] = "";
	int i;

	if (n >= OUTPUTS_MAX) {
		print_message("%d online CPUs: cannot name more lines than CPUs\n", n);
		skip();
	}
	for (i = 0; i <= n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i ? "," : "", i);
	set(c, "gpio.line", list);
	set(c, "run.outputs", "per-cpu");
	assert_int_equal(config_resolve_wave(c, err, sizeof(err)), CFG_OK);
	assert_int_equal(outputs_resolve(c, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "run.outputs per-cpu"));
	assert_non_null(strstr(err, "need"));
}

static void rt_cpus_names_each_lines_cpu_in_order(void **state)
{
	struct config *c = *state;
	struct outputs o;
	cpu_set_t on;
	int cpus[2], n = online_cpus(&on, cpus, 2);
	char v[64];

	if (n < 2) {
		print_message("only %d online CPU\n", n);
		skip();
	}
	set(c, "gpio.line", "0,2");
	set(c, "run.outputs", "per-cpu");
	snprintf(v, sizeof(v), " %d , %d", cpus[1], cpus[0]);
	set(c, "rt.cpus", v);
	resolve_ok(c, &o);
	assert_int_equal(o.o[0].cpu, cpus[1]);
	assert_int_equal(o.o[1].cpu, cpus[0]);
}

static void rt_cpus_listed_twice_offline_or_not_a_number_are_refused(void **state)
{
	struct config *c = *state;
	cpu_set_t on;
	int cpus[1], offline = -1;
	char v[64];

	online_cpus(&on, cpus, 1);
	for (int cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--) {
		if (!CPU_ISSET(cpu, &on)) {
			offline = cpu;
			break;
		}
	}
	set(c, "gpio.line", "0,2");
	set(c, "run.outputs", "per-cpu");
	snprintf(v, sizeof(v), "%d,%d", cpus[0], cpus[0]);
	set(c, "rt.cpus", v);
	resolve_refused(c, "rt.cpus", "listed twice");
	if (offline >= 0) {
		snprintf(v, sizeof(v), "%d,%d", cpus[0], offline);
		set(c, "rt.cpus", v);
		resolve_refused(c, "rt.cpus", "not an online CPU");
	}
	set(c, "rt.cpus", "0,one");
	resolve_refused(c, "rt.cpus", "\"one\" is not a CPU number");
	set(c, "rt.cpus", "0,1x");
	resolve_refused(c, "rt.cpus", "\"1x\" is not a CPU number");
	set(c, "rt.cpus", "0,-1");
	resolve_refused(c, "rt.cpus", "not a CPU number");
	snprintf(v, sizeof(v), "%d,%d", cpus[0], CPU_SETSIZE);
	set(c, "rt.cpus", v);
	resolve_refused(c, "rt.cpus", "not a CPU number");
	/* one CPU for two lines: a list of another length */
	snprintf(v, sizeof(v), "%d", cpus[0]);
	set(c, "rt.cpus", v);
	resolve_refused(c, "rt.cpus", "give one CPU per line");
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(one_line_is_the_run_of_before_with_the_runs_wave),
		T(a_plain_run_is_a_50_percent_wave_of_the_half_period),
		T(two_lines_are_two_outputs_in_order_with_the_runs_wave),
		T(blanks_around_each_line_are_trimmed),
		T(an_empty_item_is_refused_naming_gpio_line),
		T(a_line_listed_twice_is_refused),
		T(thirty_two_lines_are_taken_and_thirty_three_refused),
		T(one_phase_for_all_lines_or_one_per_line),
		T(the_line_list_overrides_the_runs_phase_and_wave_per_line),
		T(a_list_of_another_length_is_refused),
		T(a_time_that_is_not_a_duration_is_refused),
		T(a_phase_at_or_beyond_the_lines_period_is_refused),
		T(an_odd_high_plus_low_is_refused),
		T(the_per_line_keys_with_one_line_are_refused),
		T(rt_cpus_with_together_is_refused),
		T(per_cpu_lines_get_distinct_online_cpus_from_rt_cpu_on),
		T(more_per_cpu_lines_than_online_cpus_are_refused),
		T(rt_cpus_names_each_lines_cpu_in_order),
		T(rt_cpus_listed_twice_offline_or_not_a_number_are_refused),
	};

	return cmocka_run_group_tests_name("outputs", tests, NULL, NULL);
}
