/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the scheduling calls of rtsetup that other modules use instead
 * of setting a policy, CPUs or a nice level themselves: the break helper's
 * policy switch and the placement of a load's process. Each runs in a
 * child process, so this test's own scheduling is left alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt/rtsetup.h"

/* Run @fn in a child; its exit status. */
static int in_child(int (*fn)(void))
{
	pid_t pid = fork();
	int st = 0;

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(fn());
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static int place_on_cpu0_at_nice_7(void)
{
	const char *what = "";
	cpu_set_t one, got;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (rtsetup_load_place(&one, 7, &what) < 0)
		return 10;
	if (sched_getaffinity(0, sizeof(got), &got) < 0 || CPU_COUNT(&got) != 1 ||
	    !CPU_ISSET(0, &got))
		return 11;
	errno = 0;
	if (getpriority(PRIO_PROCESS, 0) != 7 || errno)
		return 12;
	return 0;
}

static void a_load_is_placed_on_its_cpus_at_its_nice_level(void **state)
{
	(void)state;
	assert_int_equal(in_child(place_on_cpu0_at_nice_7), 0);
}

static int unchanged_when_nothing_is_asked(void)
{
	const char *what = "";
	cpu_set_t before, after, none;
	int prio = getpriority(PRIO_PROCESS, 0);

	CPU_ZERO(&none);
	if (sched_getaffinity(0, sizeof(before), &before) < 0)
		return 10;
	if (rtsetup_load_place(NULL, 0, &what) < 0 || rtsetup_load_place(&none, 0, &what) < 0)
		return 11;
	if (sched_getaffinity(0, sizeof(after), &after) < 0 || !CPU_EQUAL(&before, &after))
		return 12;
	return getpriority(PRIO_PROCESS, 0) == prio ? 0 : 13;
}

static void no_cpus_and_nice_0_change_nothing(void **state)
{
	(void)state;
	assert_int_equal(in_child(unchanged_when_nothing_is_asked), 0);
}

static int fifo_then_other(void)
{
	struct sched_param sp;
	int policy;

	if (rtsetup_thread_policy(1) < 0)
		return errno == EPERM ? 77 : 10;	/* unprivileged: nothing to see */
	if (pthread_getschedparam(pthread_self(), &policy, &sp) || policy != SCHED_FIFO ||
	    sp.sched_priority != 1)
		return 11;
	if (rtsetup_thread_policy(0) < 0)
		return 12;
	if (pthread_getschedparam(pthread_self(), &policy, &sp) || policy != SCHED_OTHER)
		return 13;
	return 0;
}

static void the_helper_switches_to_fifo_and_back_to_other(void **state)
{
	int rc;

	(void)state;
	rc = in_child(fifo_then_other);
	if (rc == 77)
		skip();
	assert_int_equal(rc, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_load_is_placed_on_its_cpus_at_its_nice_level),
		cmocka_unit_test(no_cpus_and_nice_0_change_nothing),
		cmocka_unit_test(the_helper_switches_to_fifo_and_back_to_other),
	};

	return cmocka_run_group_tests_name("rtsetup", tests, NULL, NULL);
}
