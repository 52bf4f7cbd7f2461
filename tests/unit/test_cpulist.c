/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for base/cpulist's thread pin (capture --cpu): the CPUs asked
 * are the ones in effect for the thread and the threads it starts, and a
 * list that is wrong is a usage error that changes nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "base/cpulist.h"

/* The affinity a thread started after the pin is born with. */
static void *child_affinity(void *arg)
{
	if (sched_getaffinity(0, sizeof(cpu_set_t), arg) < 0)
		CPU_ZERO((cpu_set_t *)arg);
	return NULL;
}

/* The pin runs in a thread of its own, so that this process keeps its CPUs. */
struct pin_case {
	const char *text;
	cpu_set_t got, child, after;
	bool usage;
	int rc;
	char err[256];
};

static void *pin_main(void *arg)
{
	struct pin_case *p = arg;
	pthread_t th;

	p->rc = cpulist_thread_pin(p->text, &p->got, &p->usage, p->err, sizeof(p->err));
	if (pthread_create(&th, NULL, child_affinity, &p->child) == 0)
		pthread_join(th, NULL);
	sched_getaffinity(0, sizeof(p->after), &p->after);
	return NULL;
}

static void pin_in_a_thread(struct pin_case *p)
{
	pthread_t th;

	assert_int_equal(pthread_create(&th, NULL, pin_main, p), 0);
	pthread_join(th, NULL);
}

static void the_thread_and_the_threads_it_starts_keep_to_the_cpus_asked(void **state)
{
	cpu_set_t allowed, want;
	struct pin_case p = { 0 };
	char text[16], a[64], b[64];
	int last = -1;

	(void)state;
	cpulist_online(&allowed);
	if (CPU_COUNT(&allowed) < 2)
		skip();	/* one CPU: pinned or not looks the same */
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET((size_t)c, &allowed))
			last = c;
	snprintf(text, sizeof(text), "%d", last);
	CPU_ZERO(&want);
	CPU_SET((size_t)last, &want);
	p.text = text;
	pin_in_a_thread(&p);
	if (p.rc)
		fail_msg("pin %s: %s", text, p.err);
	if (!CPU_EQUAL(&p.got, &want) || !CPU_EQUAL(&p.child, &want) || !CPU_EQUAL(&p.after, &want))
		fail_msg("asked %s, read back %s, a thread started after has %s", text,
			 cpulist_format(&p.got, a, sizeof(a)), cpulist_format(&p.child, b, sizeof(b)));
}

static void a_wrong_list_is_a_usage_error_that_changes_nothing(void **state)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "", "is empty" },
		{ "3-1", "not a list" },
		{ "zero", "not a list" },
		{ "1023", "CPU 1023 is not among those this process may use" },
		{ "0,1020-1023", "not among those" },
	};
	cpu_set_t allowed;

	(void)state;
	cpulist_online(&allowed);
	if (CPU_ISSET(1020, &allowed))
		skip();	/* a machine with 1021 CPUs or more has them */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pin_case p = { .text = bad[i].text };

		pin_in_a_thread(&p);
		assert_int_equal(p.rc, -1);
		assert_true(p.usage);
		if (!strstr(p.err, bad[i].says))
			fail_msg("\"%s\": %s (wanted \"%s\")", bad[i].text, p.err, bad[i].says);
		assert_true(CPU_EQUAL(&p.after, &allowed));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_thread_and_the_threads_it_starts_keep_to_the_cpus_asked),
		cmocka_unit_test(a_wrong_list_is_a_usage_error_that_changes_nothing),
	};

	return cmocka_run_group_tests_name("cpulist", tests, NULL, NULL);
}
