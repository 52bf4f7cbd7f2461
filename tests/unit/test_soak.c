/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the soak around a run: which CPU the RT thread gets when
 * the loads would take "every CPU but rt.cpu" and rt.cpu is unset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sched.h>
#include <string.h>

#include "config/config.h"
#include "config/plan.h"
#include "run/soak.h"

/* A configuration with the loads of @specs (--load forms), finalized. */
static struct config *with_loads(const char *const *specs, size_t n)
{
	struct config *c = config_new();
	char err[512];
	size_t i;

	assert_non_null(c);
	for (i = 0; i < n; i++)
		assert_int_equal(plan_add_cmdline_load(config_plan_mut(c), specs[i], err, sizeof(err)),
				 CFG_OK);
	assert_int_equal(plan_finalize(config_plan_mut(c), c, err, sizeof(err)), CFG_OK);
	return c;
}

static cpu_set_t cpus(unsigned n)
{
	cpu_set_t s;
	unsigned i;

	CPU_ZERO(&s);
	for (i = 0; i < n; i++)
		CPU_SET(i, &s);
	return s;
}

static void loads_on_every_other_cpu_give_the_rt_thread_the_highest_cpu(void **state)
{
	static const char *const specs[] = { "coremark" };
	struct config *c = with_loads(specs, 1);
	cpu_set_t four = cpus(4);

	(void)state;
	assert_int_equal(soak_pick_rt_cpu(config_plan(c), &four), 3);
	CPU_CLR(3, &four);	/* not allowed to this process */
	assert_int_equal(soak_pick_rt_cpu(config_plan(c), &four), 2);
	config_free(c);
}

static void no_cpu_is_chosen_without_loads_on_one_cpu_or_for_pinned_loads(void **state)
{
	static const char *const pinned[] = { "coremark:cpus=0" };
	static const char *const one[] = { "coremark" };
	struct config *none = with_loads(NULL, 0), *pin = with_loads(pinned, 1),
		      *c = with_loads(one, 1);
	cpu_set_t two = cpus(2), single = cpus(1);

	(void)state;
	assert_int_equal(soak_pick_rt_cpu(config_plan(none), &two), -1);
	assert_int_equal(soak_pick_rt_cpu(config_plan(pin), &two), -1);
	assert_int_equal(soak_pick_rt_cpu(config_plan(c), &single), -1);
	config_free(none);
	config_free(pin);
	config_free(c);
}

static void an_unset_rt_cpu_is_chosen_and_said_and_a_set_one_is_kept(void **state)
{
	static const char *const specs[] = { "coremark" };
	struct config *c = with_loads(specs, 1);
	cpu_set_t allowed;
	char note[512], err[256];
	int r;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	r = soak_choose_rt_cpu(c, note, sizeof(note));
	if (CPU_COUNT(&allowed) < 2) {	/* a single-CPU machine: nothing to choose */
		assert_int_equal(r, 0);
		assert_string_equal(note, "");
		config_free(c);
		skip();
	}
	assert_int_equal(r, 1);
	assert_true(config_int(c, CFG_RT_CPU) >= 0);
	assert_true(CPU_ISSET((size_t)config_int(c, CFG_RT_CPU), &allowed));
	assert_non_null(strstr(note, "rt.cpu is not set: the RT thread runs on CPU"));
	assert_non_null(strstr(note, "--set rt.cpu=N"));
	config_free(c);

	c = with_loads(specs, 1);
	assert_int_equal(config_set(c, CFG_RT_CPU, "0", CFG_SRC_CMDLINE, NULL, 0, err, sizeof(err)),
			 CFG_OK);
	assert_int_equal(soak_choose_rt_cpu(c, note, sizeof(note)), 0);
	assert_int_equal(config_int(c, CFG_RT_CPU), 0);
	assert_string_equal(note, "");
	config_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loads_on_every_other_cpu_give_the_rt_thread_the_highest_cpu),
		cmocka_unit_test(no_cpu_is_chosen_without_loads_on_one_cpu_or_for_pinned_loads),
		cmocka_unit_test(an_unset_rt_cpu_is_chosen_and_said_and_a_set_one_is_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
