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
#include <stdio.h>
#include <stdlib.h>
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

/* A cpuidle tree of CPUs 0..3 (POLL, C1, C6) under @root. */
static void idle_tree(const char *root)
{
	static const char *const names[] = { "POLL", "C1", "C6" };
	char path[256];
	int c, k;
	FILE *f;

	for (c = 0; c < 4; c++) {
		for (k = 0; k < 3; k++) {
			static const char *const files[] = { "name", "desc", "latency", "residency",
							     "disable" };
			size_t j;

			snprintf(path, sizeof(path), "mkdir -p %s/sys/devices/system/cpu/cpu%d/cpuidle/"
				 "state%d", root, c, k);
			assert_int_equal(system(path), 0);
			for (j = 0; j < 5; j++) {
				snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%d/cpuidle/"
					 "state%d/%s", root, c, k, files[j]);
				f = fopen(path, "w");
				assert_non_null(f);
				fprintf(f, "%s\n", j == 0 ? names[k] : j == 4 ? "0" : "1");
				fclose(f);
			}
		}
	}
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/online", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "0-3\n");
	fclose(f);
}

/* rt.idle_cpus rt with an RT thread on each of CPUs 1 and 3 (run.outputs
 * per-cpu): both are restricted, no other, and each is described alone
 * for its own line (one of them only, CPU 1 alone, was restricted). */
static void every_rt_cpu_gets_the_idle_limit_and_its_own_description(void **state)
{
	char root[] = "/tmp/sqwave-rtsetup-idle.XXXXXX", cmd[128], buf[512], err[256];
	struct rtsetup_params p = { .cpu = 1, .priority = 1, .dma_latency_us = -1 };
	const struct cpuidle_cpu_result *res;
	struct rtsetup rs;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(root));
	idle_tree(root);
	assert_int_equal(cpuidle_limit_parse("0", &p.idle_limit, err, sizeof(err)), 0);
	p.idle_root = root;
	CPU_ZERO(&p.rt_cpus);
	CPU_SET(1, &p.rt_cpus);
	CPU_SET(3, &p.rt_cpus);
	if (rtsetup_process_enter(&rs, &p) < 0)
		fail_msg("%s", rs.problems);
	res = cpuidle_hold_results(rs.idle, &n);
	assert_int_equal(n, 2);
	assert_int_equal(res[0].before.cpu, 1);
	assert_int_equal(res[1].before.cpu, 3);
	assert_true(res[0].restricted && res[1].restricted);
	cpuidle_hold_describe_cpu(rs.idle, 3, false, buf, sizeof(buf));
	assert_string_equal(buf, "cpu3 deepest 0 (POLL): disabled C1 1 us, C6 1 us; "
			    "restricted (read back)");
	cpuidle_hold_describe_cpu(rs.idle, 2, false, buf, sizeof(buf));
	assert_string_equal(buf, "");
	cpuidle_hold_describe(rs.idle, false, buf, sizeof(buf));
	assert_non_null(strstr(buf, "cpu1 deepest 0"));
	assert_non_null(strstr(buf, "; cpu3 deepest 0"));
	rtsetup_process_exit(&rs);
	assert_string_equal(rs.idle_error, "");
	rtsetup_process_free(&rs);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_load_is_placed_on_its_cpus_at_its_nice_level),
		cmocka_unit_test(every_rt_cpu_gets_the_idle_limit_and_its_own_description),
		cmocka_unit_test(no_cpus_and_nice_0_change_nothing),
		cmocka_unit_test(the_helper_switches_to_fifo_and_back_to_other),
	};

	return cmocka_run_group_tests_name("rtsetup", tests, NULL, NULL);
}
