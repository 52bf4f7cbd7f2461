/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for rt.idle_state (rt/cpuidle.c) on a constructed cpuidle sysfs tree
 * in a temporary directory: which states a limit disables, on which CPUs,
 * that every original value comes back (already disabled ones included),
 * the saved-state sweep after a killed run, and the guardian. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt/cpuidle.h"

static char root[64];
static char state_dir[256];

static const char *const names[] = { "POLL", "C1", "C1E", "C6" };
static const long lats[] = { 0, 2, 10, 133 };
#define NSTATES 4

static void put(int cpu, int k, const char *file, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%d/cpuidle/state%d/%s", root,
		 cpu, k, file);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

static int disable_of(int cpu, int k)
{
	char path[PATH_MAX], buf[16] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable",
		 root, cpu, k);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	return atoi(buf);
}

/* Two CPUs with POLL, C1, C1E, C6, all enabled; @pre_disabled (cpu1 only):
 * C6 already disabled before the run. */
static void make_tree(bool pre_disabled)
{
	char cmd[PATH_MAX + 32], buf[32];
	int cpu, k;

	snprintf(cmd, sizeof(cmd), "rm -rf %s/sys %s/run", root, root);
	assert_int_equal(system(cmd), 0);
	for (cpu = 0; cpu < 2; cpu++) {
		for (k = 0; k < NSTATES; k++) {
			snprintf(cmd, sizeof(cmd),
				 "mkdir -p %s/sys/devices/system/cpu/cpu%d/cpuidle/state%d", root,
				 cpu, k);
			assert_int_equal(system(cmd), 0);
			put(cpu, k, "name", names[k]);
			put(cpu, k, "desc", "a state");
			snprintf(buf, sizeof(buf), "%ld", lats[k]);
			put(cpu, k, "latency", buf);
			snprintf(buf, sizeof(buf), "%ld", lats[k] * 3);
			put(cpu, k, "residency", buf);
			put(cpu, k, "disable", "0");
		}
	}
	if (pre_disabled)
		put(1, 3, "disable", "1");
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/sqwave-cpuidle.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	cpuidle_state_dir(root, state_dir, sizeof(state_dir));
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd) == 0 ? 0 : -1;
}

static struct cpuidle_hold *hold(const char *limit, const int *cpus, size_t n, char *err,
				 size_t errlen)
{
	struct cpuidle_hold_params p = { .root = root, .state_dir = state_dir, .cpus = cpus,
					 .ncpus = n };

	assert_int_equal(cpuidle_limit_parse(limit, &p.limit, err, errlen), 0);
	return cpuidle_hold_new(&p, err, errlen);
}

static int count_files(void)
{
	char cmd[PATH_MAX + 64];
	FILE *f;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls %s 2>/dev/null | grep -c '^idle\\.'", state_dir);
	f = popen(cmd, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &n), 1);
	pclose(f);
	return n;
}

static void the_limit_accepts_keep_none_an_index_and_a_name(void **state)
{
	struct cpuidle_limit l;
	char err[256], buf[32];

	(void)state;
	assert_int_equal(cpuidle_limit_parse("keep", &l, err, sizeof(err)), 0);
	assert_true(l.keep);
	assert_int_equal(cpuidle_limit_parse("", &l, err, sizeof(err)), 0);
	assert_true(l.keep);
	assert_int_equal(cpuidle_limit_parse("none", &l, err, sizeof(err)), 0);
	assert_false(l.keep);
	assert_int_equal(l.deepest, -1);
	assert_int_equal(cpuidle_limit_parse("-1", &l, err, sizeof(err)), 0);
	assert_int_equal(l.deepest, -1);
	assert_string_equal(cpuidle_limit_format(&l, buf, sizeof(buf)), "-1 (none)");
	assert_int_equal(cpuidle_limit_parse("2", &l, err, sizeof(err)), 0);
	assert_int_equal(l.deepest, 2);
	assert_string_equal(l.name, "");
	assert_int_equal(cpuidle_limit_parse("C1E", &l, err, sizeof(err)), 0);
	assert_string_equal(l.name, "C1E");
	assert_string_equal(cpuidle_limit_format(&l, buf, sizeof(buf)), "C1E");
}

static void bad_limits_are_refused_with_the_values_allowed(void **state)
{
	static const char *const bad[] = { "-2", "16", "99", "1x", "C1;rm", "C 1", "0x1",
					   "averyveryveryverylongstatenamethatdoesnotfit" };
	struct cpuidle_limit l;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(cpuidle_limit_parse(bad[i], &l, err, sizeof(err)), -1);
		assert_non_null(strstr(err, bad[i]));
		assert_non_null(strstr(err, "none or -1"));
	}
}

static void reading_gives_names_latencies_and_disable(void **state)
{
	struct cpuidle_cpu c;

	(void)state;
	make_tree(true);
	assert_int_equal(cpuidle_read(root, 1, &c), NSTATES);
	assert_string_equal(c.st[3].name, "C6");
	assert_int_equal(c.st[3].latency_us, 133);
	assert_int_equal(c.st[3].residency_us, 399);
	assert_int_equal(c.st[3].disable, 1);
	assert_int_equal(c.st[2].disable, 0);
	assert_int_equal(cpuidle_read(root, 7, &c), 0);
}

/* Limit @limit on cpu1: @want[k] is what each state's disable reads during
 * the run; afterwards every state reads what it read before. */
static void restrict_and_restore(const char *limit, const int want[NSTATES])
{
	const int cpus[] = { 1 };
	const struct cpuidle_cpu_result *r;
	char err[256] = "", text[1024];
	struct cpuidle_hold *h;
	size_t n;
	int k;

	make_tree(false);
	h = hold(limit, cpus, 1, err, sizeof(err));
	assert_non_null(h);
	for (k = 0; k < NSTATES; k++) {
		assert_int_equal(disable_of(1, k), want[k]);
		assert_int_equal(disable_of(0, k), 0);	/* not a chosen CPU */
	}
	r = cpuidle_hold_results(h, &n);
	assert_int_equal(n, 1);
	assert_true(r[0].restricted);
	cpuidle_hold_describe(h, false, text, sizeof(text));
	assert_non_null(strstr(text, "restricted (read back)"));
	assert_int_equal(cpuidle_hold_release(h, err, sizeof(err)), 0);
	for (k = 0; k < NSTATES; k++)
		assert_int_equal(disable_of(1, k), 0);
	assert_true(r[0].restored);
	assert_int_equal(count_files(), 0);
	cpuidle_hold_free(h);
}

static void minus_one_disables_every_state(void **state)
{
	static const int want[NSTATES] = { 1, 1, 1, 1 };

	(void)state;
	restrict_and_restore("-1", want);
	restrict_and_restore("none", want);
}

static void zero_keeps_only_state0(void **state)
{
	static const int want[NSTATES] = { 0, 1, 1, 1 };

	(void)state;
	restrict_and_restore("0", want);
	restrict_and_restore("POLL", want);
}

static void one_keeps_states_0_and_1(void **state)
{
	static const int want[NSTATES] = { 0, 0, 1, 1 };

	(void)state;
	restrict_and_restore("1", want);
	restrict_and_restore("c1", want);	/* names: any case, as cpupower */
}

static void the_deepest_index_or_more_disables_nothing(void **state)
{
	static const int want[NSTATES] = { 0, 0, 0, 0 };

	(void)state;
	restrict_and_restore("3", want);
	restrict_and_restore("15", want);
}

static void only_the_chosen_cpus_are_restricted(void **state)
{
	const int both[] = { 0, 1 };
	char err[256] = "";
	struct cpuidle_hold *h;
	int k;

	(void)state;
	make_tree(false);
	h = hold("1", both, 2, err, sizeof(err));
	assert_non_null(h);
	for (k = 0; k < NSTATES; k++) {
		assert_int_equal(disable_of(0, k), k > 1);
		assert_int_equal(disable_of(1, k), k > 1);
	}
	assert_int_equal(cpuidle_hold_release(h, err, sizeof(err)), 0);
	for (k = 0; k < NSTATES; k++) {
		assert_int_equal(disable_of(0, k), 0);
		assert_int_equal(disable_of(1, k), 0);
	}
	cpuidle_hold_free(h);
}

static void a_state_disabled_before_the_run_stays_disabled(void **state)
{
	const int cpus[] = { 1 };
	const struct cpuidle_cpu_result *r;
	char err[256] = "", text[1024];
	struct cpuidle_hold *h;
	size_t n;

	(void)state;
	make_tree(true);	/* C6 off before */
	h = hold("0", cpus, 1, err, sizeof(err));
	assert_non_null(h);
	r = cpuidle_hold_results(h, &n);
	assert_int_equal(r[0].action[3], CPUIDLE_WAS_DISABLED);
	assert_int_equal(r[0].action[1], CPUIDLE_DISABLED);
	assert_int_equal(r[0].ndisabled, 2);
	assert_int_equal(cpuidle_hold_release(h, err, sizeof(err)), 0);
	assert_int_equal(disable_of(1, 0), 0);
	assert_int_equal(disable_of(1, 1), 0);
	assert_int_equal(disable_of(1, 2), 0);
	assert_int_equal(disable_of(1, 3), 1);
	cpuidle_hold_describe(h, true, text, sizeof(text));
	assert_non_null(strstr(text, "disabled C1 2 us, C1E 10 us; already disabled C6 133 us"));
	assert_non_null(strstr(text, "restored (read back)"));
	cpuidle_hold_free(h);
}

static void release_twice_restores_once(void **state)
{
	const int cpus[] = { 1 };
	char err[256] = "";
	struct cpuidle_hold *h;

	(void)state;
	make_tree(false);
	h = hold("-1", cpus, 1, err, sizeof(err));
	assert_non_null(h);
	assert_int_equal(cpuidle_hold_release(h, err, sizeof(err)), 0);
	put(1, 2, "disable", "1");	/* someone else's change after the run */
	assert_int_equal(cpuidle_hold_release(h, err, sizeof(err)), 0);
	assert_int_equal(disable_of(1, 2), 1);
	cpuidle_hold_free(h);
}

static void a_name_the_cpu_lacks_is_refused(void **state)
{
	const int cpus[] = { 1 };
	char err[256] = "";

	(void)state;
	make_tree(false);
	assert_null(hold("WFI", cpus, 1, err, sizeof(err)));
	assert_non_null(strstr(err, "CPU 1 has no idle state of that name"));
	assert_int_equal(disable_of(1, 3), 0);
	assert_int_equal(count_files(), 0);
}

static void a_name_no_cpu_has_is_refused_with_the_names_there_are(void **state)
{
	struct cpuidle_limit lim;
	char err[512] = "", cmd[PATH_MAX + 32];

	(void)state;
	make_tree(false);
	put(1, 1, "name", "haltpoll idle");	/* a name that cannot be given */
	snprintf(cmd, sizeof(cmd), "echo 0-1 > %s/sys/devices/system/cpu/online", root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(cpuidle_limit_parse("c1e", &lim, err, sizeof(err)), 0);
	assert_int_equal(cpuidle_limit_check(root, &lim, err, sizeof(err)), 0);
	assert_int_equal(cpuidle_limit_parse("WFI", &lim, err, sizeof(err)), 0);
	assert_int_equal(cpuidle_limit_check(root, &lim, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "rt.idle_state WFI: no CPU of this machine has an idle state "
				"of that name; the states it has: POLL (0), C1 (1), C1E (2), "
				"C6 (3), \"haltpoll idle\" (1)"));
	/* a number, or keep, is not looked up */
	assert_int_equal(cpuidle_limit_parse("9", &lim, err, sizeof(err)), 0);
	assert_int_equal(cpuidle_limit_check(root, &lim, err, sizeof(err)), 0);
	/* no cpuidle at all: said so */
	snprintf(cmd, sizeof(cmd), "rm -rf %s/sys/devices/system/cpu/cpu*/cpuidle", root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(cpuidle_limit_parse("C1", &lim, err, sizeof(err)), 0);
	assert_int_equal(cpuidle_limit_check(root, &lim, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "this machine has no idle states"));
}

/* In a child without privileges (nobody, when the test runs as root):
 * states 1 and 2 can be written, state 3's disable cannot. */
static int restrict_unprivileged(void)
{
	const int cpus[] = { 1 };
	char err[256] = "";

	if (getuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
		return 10;
	if (hold("0", cpus, 1, err, sizeof(err)))
		return 11;
	return strstr(err, "cannot disable idle state 3 (C6) of CPU 1") ? 0 : 12;
}

static void a_failed_write_puts_back_what_was_written(void **state)
{
	char cmd[2048];
	int st = 0;
	pid_t pid;

	(void)state;
	make_tree(false);
	snprintf(cmd, sizeof(cmd), "chmod 0755 %s && chmod -R a+rwX %s/sys && mkdir -p %s && "
		 "chmod 0777 %s && chmod 0444 %s/sys/devices/system/cpu/cpu1/cpuidle/state3/disable",
		 root, root, state_dir, state_dir, root);
	assert_int_equal(system(cmd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(restrict_unprivileged());
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(disable_of(1, 1), 0);	/* written, then put back */
	assert_int_equal(disable_of(1, 2), 0);
	assert_int_equal(disable_of(1, 3), 0);
	assert_int_equal(count_files(), 0);
}

/* An unreadable `disable` is not known to be 0: it is left alone, and the
 * CPU is not said to be restricted. */
static void an_unreadable_disable_is_not_said_restricted(void **state)
{
	const int cpus[] = { 1 };
	const struct cpuidle_cpu_result *r;
	char err[256] = "", path[PATH_MAX], text[1024];
	struct cpuidle_hold *h;
	size_t n;

	(void)state;
	make_tree(false);
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu1/cpuidle/state3/disable", root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	h = hold("0", cpus, 1, err, sizeof(err));
	assert_non_null(h);
	r = cpuidle_hold_results(h, &n);
	assert_int_equal(disable_of(1, 1), 1);
	assert_false(r[0].restricted);
	cpuidle_hold_describe(h, false, text, sizeof(text));
	assert_non_null(strstr(text, "NOT restricted (read back)"));
	assert_int_equal(cpuidle_hold_release(h, err, sizeof(err)), 0);
	assert_int_equal(disable_of(1, 1), 0);
	cpuidle_hold_free(h);
}

static void a_cpu_without_cpuidle_is_said_not_restricted(void **state)
{
	const int cpus[] = { 5 };
	const struct cpuidle_cpu_result *r;
	char err[256] = "", text[256];
	struct cpuidle_hold *h;
	size_t n;

	(void)state;
	make_tree(false);
	h = hold("0", cpus, 1, err, sizeof(err));
	assert_non_null(h);
	r = cpuidle_hold_results(h, &n);
	assert_int_equal(r[0].before.nstates, 0);
	assert_false(r[0].restricted);
	cpuidle_hold_describe(h, true, text, sizeof(text));
	assert_string_equal(text, "cpu5: no cpuidle states (nothing to restrict)");
	assert_int_equal(count_files(), 0);
	cpuidle_hold_release(h, err, sizeof(err));
	cpuidle_hold_free(h);
}

/* A child restricts cpu1 to state 0 and dies without restoring (as
 * SIGKILL would leave it, its guardian gone too); *@path its saved-state
 * file. */
static void killed_run(char *path, size_t len)
{
	int p[2], st = 0;
	pid_t pid;
	ssize_t n;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const int cpus[] = { 1 };
		char err[256];
		struct cpuidle_hold *h = hold("0", cpus, 1, err, sizeof(err));
		const char *f = h ? cpuidle_hold_state_file(h) : "";

		close(p[0]);
		(void)!write(p[1], f, strlen(f));
		_exit(h ? 0 : 1);
	}
	close(p[1]);
	n = read(p[0], path, len - 1);
	close(p[0]);
	assert_true(n > 0);
	path[n] = '\0';
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void the_sweep_restores_what_a_killed_run_left(void **state)
{
	char path[PATH_MAX];
	int states = 0;

	(void)state;
	make_tree(true);
	killed_run(path, sizeof(path));
	assert_int_equal(disable_of(1, 1), 1);
	assert_int_equal(disable_of(1, 2), 1);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(cpuidle_sweep(state_dir, &states), 1);
	assert_int_equal(states, 2);
	assert_int_equal(disable_of(1, 0), 0);
	assert_int_equal(disable_of(1, 1), 0);
	assert_int_equal(disable_of(1, 2), 0);
	assert_int_equal(disable_of(1, 3), 1);	/* off before the run: stays off */
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(cpuidle_sweep(state_dir, NULL), 0);
}

static void the_sweep_leaves_a_live_runs_states_alone(void **state)
{
	const int cpus[] = { 1 };
	char err[256] = "";
	struct cpuidle_hold *h;

	(void)state;
	make_tree(false);
	h = hold("0", cpus, 1, err, sizeof(err));
	assert_non_null(h);
	/* this process is the live run */
	assert_int_equal(cpuidle_sweep(state_dir, NULL), 0);
	assert_int_equal(disable_of(1, 1), 1);
	assert_int_equal(count_files(), 1);
	assert_int_equal(cpuidle_hold_release(h, err, sizeof(err)), 0);
	cpuidle_hold_free(h);
}

static void the_guardian_restores_when_its_pipe_ends(void **state)
{
	char path[PATH_MAX];
	int p[2], st = 0;
	pid_t pid;

	(void)state;
	make_tree(false);
	killed_run(path, sizeof(path));
	assert_int_equal(disable_of(1, 3), 1);
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *argv[] = { (char *)CPUIDLE_GUARD_ARG, path, NULL };
		int devnull = open("/dev/null", O_WRONLY);

		dup2(p[0], 0);
		dup2(devnull, 1);	/* its "ready" */
		close(p[1]);
		_exit(cpuidle_guard_main(2, argv));
	}
	close(p[0]);
	/* still running: nothing restored while the pipe is open */
	usleep(50000);
	assert_int_equal(disable_of(1, 3), 1);
	assert_int_equal(waitpid(pid, &st, WNOHANG), 0);
	close(p[1]);	/* sqwave's end: the guardian restores */
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(disable_of(1, 1), 0);
	assert_int_equal(disable_of(1, 2), 0);
	assert_int_equal(disable_of(1, 3), 0);
	assert_int_equal(access(path, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_limit_accepts_keep_none_an_index_and_a_name),
		cmocka_unit_test(bad_limits_are_refused_with_the_values_allowed),
		cmocka_unit_test(reading_gives_names_latencies_and_disable),
		cmocka_unit_test(minus_one_disables_every_state),
		cmocka_unit_test(zero_keeps_only_state0),
		cmocka_unit_test(one_keeps_states_0_and_1),
		cmocka_unit_test(the_deepest_index_or_more_disables_nothing),
		cmocka_unit_test(only_the_chosen_cpus_are_restricted),
		cmocka_unit_test(a_state_disabled_before_the_run_stays_disabled),
		cmocka_unit_test(release_twice_restores_once),
		cmocka_unit_test(a_name_the_cpu_lacks_is_refused),
		cmocka_unit_test(a_name_no_cpu_has_is_refused_with_the_names_there_are),
		cmocka_unit_test(a_failed_write_puts_back_what_was_written),
		cmocka_unit_test(an_unreadable_disable_is_not_said_restricted),
		cmocka_unit_test(a_cpu_without_cpuidle_is_said_not_restricted),
		cmocka_unit_test(the_sweep_restores_what_a_killed_run_left),
		cmocka_unit_test(the_sweep_leaves_a_live_runs_states_alone),
		cmocka_unit_test(the_guardian_restores_when_its_pipe_ends),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
