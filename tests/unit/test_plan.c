/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the run plan: phases and loads from a profile (through
 * yamlcfg) and from --load, their errors with file:line, and the checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/plan.h"
#include "config/yamlcfg.h"

#define SEC INT64_C(1000000000)

static struct config *profile(const char *text, enum yamlcfg_result want, char *err, size_t len)
{
	struct config *c = config_new();
	enum yamlcfg_result r;

	assert_non_null(c);
	err[0] = '\0';
	r = yamlcfg_load_buffer(c, "p.yaml", text, strlen(text), CFG_SRC_PROFILE, err, len);
	if (r != want)
		fail_msg("want %s, got %s: %s", yamlcfg_result_str(want), yamlcfg_result_str(r),
			 err);
	return c;
}

static const char soak[] =
	"run:\n"
	"  half_period: 500us\n"
	"phases:\n"
	"  - name: idle\n"
	"    duration: 10m\n"
	"  - name: coremark+flood\n"
	"    duration: 50m\n"
	"    load:\n"
	"      - kind: coremark\n"
	"        nice: 5\n"
	"      - kind: ping-flood\n"
	"        size: 1400\n"
	"      - kind: stress-ng\n"
	"        args: [--cpu, \"2\", --cpu-method, matrixprod]\n"
	"      - hackbench\n";

static void a_soak_profile_gives_two_phases_and_their_loads(void **state)
{
	char err[512];
	struct config *c = profile(soak, YAMLCFG_OK, err, sizeof(err));
	struct plan *p = config_plan_mut(c);
	const struct plan_phase *ph;

	(void)state;
	assert_int_equal(plan_finalize(p, c, err, sizeof(err)), CFG_OK);
	assert_int_equal(p->nphases, 2);
	assert_string_equal(p->phases[0].name, "idle");
	assert_int_equal(p->phases[0].duration_ns, 600 * SEC);
	assert_int_equal(p->phases[0].nloads, 0);
	ph = &p->phases[1];
	assert_string_equal(ph->name, "coremark+flood");
	assert_int_equal(ph->start_off_ns, 600 * SEC);
	assert_int_equal(ph->nloads, 4);
	assert_int_equal(ph->loads[0].num[PLK_KIND], PLAN_LOAD_COREMARK);
	assert_int_equal(ph->loads[0].num[PLK_NICE], 5);
	assert_string_equal(ph->loads[0].origin, "p.yaml:9");
	assert_int_equal(ph->loads[1].num[PLK_SIZE], 1400);
	assert_string_equal(ph->loads[1].text[PLK_TARGET], "127.0.0.1");
	assert_int_equal(ph->loads[2].nargs, 4);
	assert_string_equal(ph->loads[2].args[1], "2");
	assert_int_equal(ph->loads[3].num[PLK_KIND], PLAN_LOAD_HACKBENCH);
	assert_int_equal(plan_duration(p), 3600 * SEC);
	config_free(c);
}

static void load_errors_name_the_file_line_and_column(void **state)
{
	static const struct {
		const char *yaml;
		enum yamlcfg_result r;
		const char *msg;
	} cases[] = {
		{ "load:\n  - kind: coremark\n    instancs: 2\n", YAMLCFG_E_KEY,
		  "p.yaml:3:5: unknown key \"instancs\" in a load; did you mean instances? a "
		  "load has the keys" },
		{ "load:\n  - kind: coremrk\n", YAMLCFG_E_VALUE,
		  "p.yaml:2:11: load.kind must be one of coremark, ping-flood, stress-ng, "
		  "hackbench, command, expect-traffic, got \"coremrk\"" },
		{ "load:\n  - nice: 3\n", YAMLCFG_E_MISSING, "p.yaml:2:1: a load needs kind:" },
		{ "load:\n  - kind: coremark\n    nice: 40\n", YAMLCFG_E_VALUE,
		  "p.yaml:3:11: load.nice must be an integer between -20 and 19, got \"40\"" },
		{ "load:\n  - kind: stress-ng\n    args: [--cpu, [2]]\n", YAMLCFG_E_VALUE,
		  "p.yaml:3:19: each of load.args must be a single value, found a list" },
		{ "load: coremark\n", YAMLCFG_E_STRUCTURE,
		  "p.yaml:1:7: load must be a list" },
		{ "phases:\n  - name: idle\n", YAMLCFG_E_MISSING,
		  "p.yaml:2:5: a phase needs duration:" },
		{ "phases:\n  - name: idle\n    duration: 1m\n    lod: []\n", YAMLCFG_E_KEY,
		  "p.yaml:4:5: unknown key \"lod\" in a phase; did you mean load?" },
		{ "phases:\n  - name: a b\n    duration: 1m\n", YAMLCFG_E_VALUE,
		  "p.yaml:2:11: phases.name must be a word" },
		{ "phases:\n  - name: x\n    duration: 1m\n    load:\n      - kind: coremark\n"
		  "        bogus: 1\n", YAMLCFG_E_KEY, "p.yaml:6:9: unknown key \"bogus\" in a load" },
		{ "phases: []\n", YAMLCFG_E_STRUCTURE, "p.yaml:1:10: phases is an empty list" },
		{ "load: []\nload: []\n", YAMLCFG_E_SECTION,
		  "p.yaml:2:1: duplicate section load (first on line 1)" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[512];
		struct config *c = profile(cases[i].yaml, cases[i].r, err, sizeof(err));

		if (strncmp(err, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %zu: got \"%s\", want it to start \"%s\"", i, err,
				 cases[i].msg);
		/* all or nothing: nothing of a bad profile is kept */
		assert_int_equal(config_plan(c)->nloads, 0);
		assert_int_equal(config_plan(c)->nphases, 0);
		config_free(c);
	}
}

static void phases_belong_in_a_profile(void **state)
{
	struct config *c = config_new();
	const char *y = "board:\n  name: x\ngpio:\n  chip: c\n  line: 0\nphases: []\n";
	char err[256];

	(void)state;
	assert_int_equal(yamlcfg_load_buffer(c, "b.yaml", y, strlen(y), CFG_SRC_BOARD, err,
					     sizeof(err)), YAMLCFG_E_PLACE);
	assert_string_equal(err, "b.yaml:6:1: phases belongs in a profile, not in a board file");
	config_free(c);
}

static void cmdline_loads_take_keys_then_arguments(void **state)
{
	struct plan *p = plan_new();
	char err[512], buf[512];

	(void)state;
	assert_int_equal(plan_add_cmdline_load(p, "stress-ng:--cpu:2", err, sizeof(err)), CFG_OK);
	assert_int_equal(plan_add_cmdline_load(p, "ping-flood:size=1400:target=fe80\\:\\:1",
					       err, sizeof(err)), CFG_OK);
	assert_int_equal(plan_add_cmdline_load(p, "command:name=x:/bin/env:name=y", err,
					       sizeof(err)), CFG_OK);
	assert_int_equal(p->nloads, 3);
	assert_int_equal(p->loads[0].nargs, 2);
	assert_string_equal(p->loads[0].args[0], "--cpu");
	assert_int_equal(p->loads[1].num[PLK_SIZE], 1400);
	assert_string_equal(p->loads[1].text[PLK_TARGET], "fe80::1");
	assert_string_equal(plan_load_name(&p->loads[2]), "x");
	assert_int_equal(p->loads[2].nargs, 2);
	assert_string_equal(p->loads[2].args[1], "name=y");	/* after the first argument */
	/* The canonical form parses back to the same load. */
	plan_load_format(&p->loads[1], buf, sizeof(buf));
	assert_string_equal(buf, "ping-flood:size=1400:target=fe80\\:\\:1");
	assert_int_equal(plan_add_cmdline_load(p, buf, err, sizeof(err)), CFG_OK);
	assert_true(plan_load_equal(&p->loads[1], &p->loads[3]));
	assert_false(plan_load_equal(&p->loads[0], &p->loads[3]));

	assert_int_equal(plan_add_cmdline_load(p, "ping-flood:fast", err, sizeof(err)),
			 CFG_E_TYPE);
	assert_non_null(strstr(err, "\"fast\" is not KEY=VALUE"));
	assert_int_equal(plan_add_cmdline_load(p, "corem4rk", err, sizeof(err)), CFG_E_CHOICE);
	assert_int_equal(plan_add_cmdline_load(p, "coremark:nice=99", err, sizeof(err)),
			 CFG_E_RANGE);
	assert_int_equal(p->nloads, 4);
	plan_free(p);
}

static void finalize_checks_durations_and_places(void **state)
{
	char err[512];
	struct config *c;
	struct plan *p;

	(void)state;
	/* No phases: one phase "run" with run.duration and the loads. */
	c = profile("run:\n  duration: 2m\nload:\n  - coremark\n", YAMLCFG_OK, err, sizeof(err));
	p = config_plan_mut(c);
	assert_int_equal(plan_add_cmdline_load(p, "hackbench", err, sizeof(err)), CFG_OK);
	assert_int_equal(plan_finalize(p, c, err, sizeof(err)), CFG_OK);
	assert_int_equal(p->nphases, 1);
	assert_string_equal(p->phases[0].name, "run");
	assert_int_equal(p->phases[0].duration_ns, 120 * SEC);
	assert_int_equal(p->phases[0].nloads, 2);
	config_free(c);

	/* A duration that disagrees with the phases. */
	c = profile("run:\n  duration: 2m\nphases:\n  - name: a\n    duration: 1m\n", YAMLCFG_OK,
		    err, sizeof(err));
	assert_int_equal(plan_finalize(config_plan_mut(c), c, err, sizeof(err)), CFG_E_RANGE);
	assert_non_null(strstr(err, "disagrees with the phases, which last 60s"));
	config_free(c);

	/* --load with phases. */
	c = profile("phases:\n  - name: a\n    duration: 1m\n", YAMLCFG_OK, err, sizeof(err));
	assert_int_equal(plan_add_cmdline_load(config_plan_mut(c), "coremark", err, sizeof(err)),
			 CFG_OK);
	assert_int_equal(plan_finalize(config_plan_mut(c), c, err, sizeof(err)), CFG_E_PLACE);
	assert_non_null(strstr(err, "--load: loads outside phases"));
	config_free(c);

	/* The same phase name twice; a command without a program. */
	c = profile("phases:\n  - name: a\n    duration: 1m\n  - name: a\n    duration: 1m\n",
		    YAMLCFG_OK, err, sizeof(err));
	assert_int_equal(plan_finalize(config_plan_mut(c), c, err, sizeof(err)), CFG_E_RANGE);
	assert_non_null(strstr(err, "p.yaml:4: phase name \"a\" is used twice"));
	config_free(c);
	c = profile("load:\n  - kind: command\n", YAMLCFG_OK, err, sizeof(err));
	assert_int_equal(plan_finalize(config_plan_mut(c), c, err, sizeof(err)), CFG_E_MISSING);
	assert_non_null(strstr(err, "p.yaml:2: a command load needs path:"));
	config_free(c);
	c = profile("load:\n  - kind: expect-traffic\n    interface: eth0\n", YAMLCFG_OK, err,
		    sizeof(err));
	assert_int_equal(plan_finalize(config_plan_mut(c), c, err, sizeof(err)), CFG_E_MISSING);
	assert_non_null(strstr(err, "needs min_pps"));
	config_free(c);
}

/* With phases and no run.duration, the configuration records what runs:
 * the phases' sum, and where it came from (it said the default 60 s). */
static void run_duration_is_the_phases_sum_once_finalized(void **state)
{
	char err[512], buf[256];
	struct config *c = profile(soak, YAMLCFG_OK, err, sizeof(err));

	(void)state;
	assert_int_equal(plan_finalize(config_plan_mut(c), c, err, sizeof(err)), CFG_OK);
	assert_int_equal(config_int(c, CFG_RUN_DURATION), 3600 * SEC);
	assert_string_equal(config_format(c, CFG_RUN_DURATION, buf, sizeof(buf)), "1h");
	assert_string_equal(config_origin(c, CFG_RUN_DURATION, buf, sizeof(buf)), "the phases' sum");
	/* finalizing again changes nothing */
	assert_int_equal(plan_finalize(config_plan_mut(c), c, err, sizeof(err)), CFG_OK);
	assert_int_equal(config_plan(c)->phases[1].duration_ns, 50 * 60 * SEC);
	config_free(c);
}

/* run.scale shortens every phase, and run.duration with them; a scale that
 * leaves a phase under 1 ms, or a bad number, is refused naming the range. */
static void run_scale_scales_every_phase_and_the_duration(void **state)
{
	char err[512], buf[256];
	struct config *c = profile(soak, YAMLCFG_OK, err, sizeof(err));
	struct plan *p = config_plan_mut(c);

	(void)state;
	assert_int_equal(config_apply_option(c, "scale", "0.1", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_int(c, CFG_RUN_SCALE), CFG_DECIMAL_ONE / 10);
	assert_string_equal(config_format(c, CFG_RUN_SCALE, buf, sizeof(buf)), "0.1");
	assert_int_equal(plan_finalize(p, c, err, sizeof(err)), CFG_OK);
	assert_int_equal(p->phases[0].duration_ns, 60 * SEC);
	assert_int_equal(p->phases[1].duration_ns, 300 * SEC);
	assert_int_equal(p->phases[1].start_off_ns, 60 * SEC);
	assert_int_equal(config_int(c, CFG_RUN_DURATION), 360 * SEC);
	assert_string_equal(config_origin(c, CFG_RUN_DURATION, buf, sizeof(buf)),
			    "the phases' sum x run.scale");
	config_free(c);

	/* without phases: the one phase of run.duration */
	c = profile("run:\n  duration: 2m\n", YAMLCFG_OK, err, sizeof(err));
	assert_int_equal(config_apply_option(c, "scale", "0.25", err, sizeof(err)), CFG_OK);
	assert_int_equal(plan_finalize(config_plan_mut(c), c, err, sizeof(err)), CFG_OK);
	assert_int_equal(config_plan(c)->phases[0].duration_ns, 30 * SEC);
	assert_int_equal(config_int(c, CFG_RUN_DURATION), 30 * SEC);
	assert_string_equal(config_origin(c, CFG_RUN_DURATION, buf, sizeof(buf)),
			    "run.duration (p.yaml:2) x run.scale");
	config_free(c);

	/* a phase scaled under 1 ms */
	c = profile("phases:\n  - name: a\n    duration: 100ms\n", YAMLCFG_OK, err, sizeof(err));
	assert_int_equal(config_apply_option(c, "scale", "0.001", err, sizeof(err)), CFG_OK);
	assert_int_equal(plan_finalize(config_plan_mut(c), c, err, sizeof(err)), CFG_E_RANGE);
	assert_non_null(strstr(err, "run.scale 0.001 (command line) makes phase a (p.yaml:2) "
				    "last 100us; scaled, each phase must last at least 1ms"));
	config_free(c);

	/* the number itself */
	c = config_new();
	assert_non_null(c);
	assert_int_equal(config_apply_option(c, "scale", "0", err, sizeof(err)), CFG_E_RANGE);
	assert_non_null(strstr(err, "run.scale must be a number between 0.001 and 1000, got \"0\""));
	assert_int_equal(config_apply_option(c, "scale", "1e-1", err, sizeof(err)), CFG_E_TYPE);
	assert_int_equal(config_apply_option(c, "scale", "0.0000001", err, sizeof(err)), CFG_E_TYPE);
	assert_int_equal(config_apply_option(c, "scale", "-1", err, sizeof(err)), CFG_E_TYPE);
	assert_int_equal(config_apply_option(c, "scale", ".", err, sizeof(err)), CFG_E_TYPE);
	assert_int_equal(config_apply_option(c, "scale", "99999999999999999999", err, sizeof(err)),
			 CFG_E_RANGE);
	assert_int_equal(config_apply_option(c, "scale", "2.5", err, sizeof(err)), CFG_OK);
	assert_string_equal(config_format(c, CFG_RUN_SCALE, buf, sizeof(buf)), "2.5");
	assert_int_equal(config_apply_option(c, "scale", "0.000125", err, sizeof(err)), CFG_E_RANGE);
	config_free(c);
}

static void the_log_header_lists_phases_and_loads(void **state)
{
	char err[512], *text = NULL;
	size_t len = 0;
	struct config *c = profile(soak, YAMLCFG_OK, err, sizeof(err));
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_int_equal(plan_finalize(config_plan_mut(c), c, err, sizeof(err)), CFG_OK);
	plan_dump(config_plan(c), f);
	fclose(f);
	assert_non_null(strstr(text, "phase.count=2\n"));
	assert_non_null(strstr(text, "phase.1.name=coremark+flood\n"));
	assert_non_null(strstr(text, "phase.1.start_off_ns=600000000000\n"));
	assert_non_null(strstr(text, "phase.1.load.0=coremark:nice=5\n"));
	assert_non_null(strstr(text, "phase.1.load.2=stress-ng:--cpu:2:--cpu-method:matrixprod\n"));
	free(text);
	config_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_soak_profile_gives_two_phases_and_their_loads),
		cmocka_unit_test(load_errors_name_the_file_line_and_column),
		cmocka_unit_test(phases_belong_in_a_profile),
		cmocka_unit_test(cmdline_loads_take_keys_then_arguments),
		cmocka_unit_test(finalize_checks_durations_and_places),
		cmocka_unit_test(run_duration_is_the_phases_sum_once_finalized),
		cmocka_unit_test(run_scale_scales_every_phase_and_the_duration),
		cmocka_unit_test(the_log_header_lists_phases_and_loads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
