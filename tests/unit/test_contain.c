/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for load containment: processes start through the exec
 * wrapper, a failed exec says why, and nothing a load started (children that
 * ignore SIGTERM, children in a session of their own) outlives a stop, or
 * the death of the process that started it. This binary is its own load:
 * argv[1] "tree" forks children and sleeps. Needs root for the cgroup cases
 * (skipped otherwise, saying so). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "loads/contain.h"
#include "base/cpulist.h"

/* This test binary, re-executed as the guardian, the exec wrapper and the
 * loads: its own path, not /proc/self/exe, which under valgrind is
 * valgrind (children then run natively, the parent under valgrind). */
static char self[4096] = "/proc/self/exe";


static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* "tree N [setsid] [ignore-term]": N children sleeping forever (each in a
 * session of its own with setsid), pids on stdout, one per line. */
static int tree_main(int argc, char **argv)
{
	int n = atoi(argv[2]), i, a;
	bool do_setsid = false, ignore = false;

	for (a = 3; a < argc; a++) {
		do_setsid |= !strcmp(argv[a], "setsid");
		ignore |= !strcmp(argv[a], "ignore-term");
	}
	if (ignore)
		signal(SIGTERM, SIG_IGN);
	for (i = 0; i < n; i++) {
		pid_t p = fork();

		if (p == 0) {
			if (do_setsid)
				setsid();
			for (;;)
				pause();
		}
		printf("%d\n", (int)p);
	}
	fflush(stdout);
	for (;;)
		pause();
	return 0;
}

static bool alive(pid_t p)
{
	char path[64], buf[256];
	int fd;
	ssize_t n;
	char *rp;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)p);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	rp = strrchr(buf, ')');
	return rp && rp[2] != 'Z';
}

/* Wait until none of @pids is alive. The bound (a minute) only turns a
 * process that outlives its kill into a failure: how soon the kernel and
 * a guardian get to it is this machine's business. */
static bool all_gone(const pid_t *pids, size_t n)
{
	int t;
	size_t i;

	for (t = 0; t < 6000; t++) {
		for (i = 0; i < n && !alive(pids[i]); i++)
			;
		if (i == n)
			return true;
		sleep_ms(10);
	}
	return false;
}

static struct load_proc tree_proc(int children, const char *mode1, const char *mode2)
{
	static char nbuf[8];
	static char *argv[8];
	struct load_proc p = { 0 };
	int a = 0;

	snprintf(nbuf, sizeof(nbuf), "%d", children);
	argv[a++] = self;
	argv[a++] = (char *)"tree";
	argv[a++] = nbuf;
	if (mode1)
		argv[a++] = (char *)mode1;
	if (mode2)
		argv[a++] = (char *)mode2;
	argv[a] = NULL;
	p.argv = argv;
	cpulist_online(&p.cpus);
	return p;
}

/* Read @n pids from @fd (the tree's stdout). */
static void read_pids(int fd, pid_t *pids, size_t n)
{
	char buf[256];
	size_t got = 0, have = 0;
	int t;

	for (t = 0; t < 500 && got < n; t++) {
		ssize_t m = read(fd, buf + have, sizeof(buf) - 1 - have);
		char *p, *nl;

		if (m <= 0) {
			sleep_ms(10);
			continue;
		}
		have += (size_t)m;
		buf[have] = '\0';
		p = buf;
		while (got < n && (nl = strchr(p, '\n'))) {
			pids[got++] = (pid_t)atoi(p);
			p = nl + 1;
		}
		have = strlen(p);
		memmove(buf, p, have + 1);
	}
	assert_int_equal(got, n);
}

static bool kind_available(enum contain_kind k)
{
	char err[512];
	struct contain *c;

	if (geteuid() != 0)
		return k == CONTAIN_PGROUP;
	c = contain_new(k, self, NULL, err, sizeof(err));
	if (!c)
		return false;
	contain_free(c);
	return true;
}

/* A tree of children that ignore SIGTERM, in @kind: SIGTERM leaves them,
 * SIGKILL of the group takes them all. */
static void stop_takes_every_descendant(enum contain_kind kind)
{
	char err[512];
	struct contain *c;
	struct contain_group *g;
	struct load_proc p = tree_proc(3, "ignore-term", kind == CONTAIN_PGROUP ? NULL : "setsid");
	pid_t pids[4];
	int out[2];

	if (!kind_available(kind)) {
		printf("    (%s containment not available here: skipped)\n", contain_kind_name(kind));
		return;
	}
	c = contain_new(kind, self, NULL, err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(contain_kind(c), kind);
	g = contain_group_new(c, "tree load", err, sizeof(err));
	assert_non_null(g);
	assert_int_equal(pipe2(out, O_CLOEXEC), 0);
	pids[0] = contain_spawn(c, g, &p, out[1], err, sizeof(err));
	if (pids[0] < 0)
		fail_msg("%s", err);
	close(out[1]);
	read_pids(out[0], pids + 1, 3);
	close(out[0]);
	assert_int_equal(contain_group_count(c, g), 4);
	contain_group_signal(c, g, SIGTERM);
	sleep_ms(100);
	assert_true(alive(pids[1]));	/* they ignore it */
	contain_group_signal(c, g, SIGKILL);
	assert_int_equal(waitpid(pids[0], NULL, 0), pids[0]);
	contain_group_release(c, g, pids[0]);
	assert_true(all_gone(pids, 4));
	assert_int_equal(contain_group_count(c, g), 0);
	contain_group_free(c, g);
	contain_free(c);
}

static void a_cgroup2_stop_takes_children_that_ignore_sigterm_and_left_the_group(void **state)
{
	(void)state;
	stop_takes_every_descendant(CONTAIN_CGROUP2);
}

static void a_freezer_stop_takes_children_that_ignore_sigterm_and_left_the_group(void **state)
{
	(void)state;
	stop_takes_every_descendant(CONTAIN_FREEZER);
}

static void a_process_group_stop_takes_children_that_ignore_sigterm(void **state)
{
	(void)state;
	stop_takes_every_descendant(CONTAIN_PGROUP);
}

static void a_program_that_cannot_start_says_why(void **state)
{
	char err[512];
	struct contain *c = contain_new(CONTAIN_PGROUP, self, NULL, err, sizeof(err));
	struct contain_group *g;
	char *argv[] = { (char *)"/nonexistent/coremark", NULL };
	struct load_proc p = { .argv = argv };

	(void)state;
	assert_non_null(c);
	cpulist_online(&p.cpus);
	g = contain_group_new(c, "x", err, sizeof(err));
	assert_non_null(g);
	assert_int_equal(contain_spawn(c, g, &p, -1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot start /nonexistent/coremark: exec"));
	assert_non_null(strstr(err, "No such file"));
	contain_free(c);
}

/* The process that started the loads dies by SIGKILL: the guardian takes
 * every load process, those in sessions of their own included. */
static void killing_the_starter_leaves_no_load_behind(void **state)
{
	enum contain_kind kinds[] = { CONTAIN_CGROUP2, CONTAIN_FREEZER, CONTAIN_PGROUP };
	size_t k;

	(void)state;
	for (k = 0; k < 3; k++) {
		int pp[2];
		pid_t starter, pids[3];

		if (!kind_available(kinds[k])) {
			printf("    (%s containment not available here: skipped)\n",
			       contain_kind_name(kinds[k]));
			continue;
		}
		assert_int_equal(pipe(pp), 0);
		starter = fork();
		if (starter == 0) {
			char err[512];
			struct contain *c = contain_new(kinds[k], self, NULL, err,
							sizeof(err));
			struct contain_group *g = c ? contain_group_new(c, "t", err, sizeof(err)) : NULL;
			/* without a cgroup, only the process group holds them: no setsid */
			struct load_proc p = tree_proc(2, kinds[k] == CONTAIN_PGROUP ? NULL : "setsid",
						       "ignore-term");

			close(pp[0]);
			if (!g || contain_spawn(c, g, &p, pp[1], err, sizeof(err)) < 0)
				_exit(1);
			for (;;)
				pause();
		}
		close(pp[1]);
		read_pids(pp[0], pids + 1, 2);
		close(pp[0]);
		pids[0] = starter;
		kill(starter, SIGKILL);
		waitpid(starter, NULL, 0);
		if (!all_gone(pids + 1, 2))
			fail_msg("%s: a load child outlived its starter", contain_kind_name(kinds[k]));
	}
}

/* A run that died with its guardian left sqwave.<pid>: the next one clears it. */
static void a_dead_runs_cgroup_is_cleared_by_the_next_run(void **state)
{
	char err[512], dir[128], sub[160];
	struct contain *c;
	struct stat sb;
	pid_t dead = fork();

	(void)state;
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	if (!kind_available(CONTAIN_CGROUP2)) {
		printf("    (cgroup2 containment not available here: skipped)\n");
		return;
	}
	c = contain_new(CONTAIN_CGROUP2, self, NULL, err, sizeof(err));
	assert_non_null(c);
	/* the parent of our own sqwave.<pid>: the cgroup2 mount */
	snprintf(dir, sizeof(dir), "%s", strchr(contain_describe(c), '(') + 1);
	*strrchr(dir, '/') = '\0';
	contain_free(c);
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/sqwave.%d", (int)dead);
	snprintf(sub, sizeof(sub), "%s/0-load", dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(mkdir(sub, 0755), 0);
	c = contain_new(CONTAIN_CGROUP2, self, NULL, err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(stat(dir, &sb), -1);
	contain_free(c);
}

/* A directory names its run by pid and start time: one whose pid now
 * belongs to another process (pid 1 never started at tick 1) is a dead
 * run's; pid 1 with its real start time is a live run's and stays. */
static void a_reused_pid_does_not_keep_a_dead_runs_cgroup(void **state)
{
	char err[512], root[128], reused[192], live[192], stat1[1024], *p;
	unsigned long long start1 = 0;
	struct contain *c;
	struct stat sb;
	FILE *f;
	int i, dirs = -1;

	(void)state;
	if (!kind_available(CONTAIN_CGROUP2)) {
		printf("    (cgroup2 containment not available here: skipped)\n");
		return;
	}
	c = contain_new(CONTAIN_CGROUP2, self, NULL, err, sizeof(err));
	assert_non_null(c);
	snprintf(root, sizeof(root), "%s", strchr(contain_describe(c), '(') + 1);
	*strrchr(root, '/') = '\0';
	contain_free(c);
	f = fopen("/proc/1/stat", "r");
	assert_non_null(f);
	assert_non_null(fgets(stat1, sizeof(stat1), f));
	fclose(f);
	p = strrchr(stat1, ')');
	for (i = 0; p && i < 20; i++)
		p = strchr(p + 1, ' ');
	assert_non_null(p);
	start1 = strtoull(p + 1, NULL, 10);
	snprintf(reused, sizeof(reused), "%s/sqwave.1.%llu", root, start1 + 1);
	snprintf(live, sizeof(live), "%s/sqwave.1.%llu", root, start1);
	assert_int_equal(mkdir(reused, 0755), 0);
	assert_int_equal(mkdir(live, 0755), 0);
	contain_sweep(&dirs);
	assert_true(dirs >= 1);
	assert_int_equal(stat(reused, &sb), -1);
	assert_int_equal(stat(live, &sb), 0);
	rmdir(live);
}

/* The loads' cgroups go under sqwave's own: stopping sqwave's cgroup (a
 * systemd unit, a container) reaches them. Moves this test into a cgroup
 * of its own for the check, and back. */
static void loads_are_held_under_sqwaves_own_cgroup(void **state)
{
	char err[512], root[128], mine[192], back[256], want[256];
	struct contain *c;
	FILE *f;

	(void)state;
	if (!kind_available(CONTAIN_CGROUP2)) {
		printf("    (cgroup2 containment not available here: skipped)\n");
		return;
	}
	c = contain_new(CONTAIN_CGROUP2, self, NULL, err, sizeof(err));
	assert_non_null(c);
	snprintf(root, sizeof(root), "%s", strchr(contain_describe(c), '(') + 1);
	*strrchr(root, '/') = '\0';
	contain_free(c);
	snprintf(mine, sizeof(mine), "%s/sqwtest-%d", root, (int)getpid());
	assert_int_equal(mkdir(mine, 0755), 0);
	snprintf(back, sizeof(back), "%s/cgroup.procs", root);
	snprintf(want, sizeof(want), "%s/cgroup.procs", mine);
	f = fopen(want, "w");
	if (!f || fprintf(f, "0\n") < 0 || fclose(f) != 0) {
		rmdir(mine);
		printf("    (cannot move into a cgroup here: skipped)\n");
		return;
	}
	c = contain_new(CONTAIN_CGROUP2, self, NULL, err, sizeof(err));
	snprintf(want, sizeof(want), "cgroup2 (%s/sqwave.%d.", mine, (int)getpid());
	if (c && strncmp(contain_describe(c), want, strlen(want)))
		fail_msg("%s, expected it under %s", contain_describe(c), mine);
	contain_free(c);
	f = fopen(back, "w");
	assert_non_null(f);
	fprintf(f, "0\n");
	fclose(f);
	assert_int_equal(rmdir(mine), 0);
	assert_non_null(c);
}

/* Run @fn in a child; its exit status (this test's own placement is kept). */
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
	if (contain_load_place(&one, 7, &what) < 0)
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
	if (contain_load_place(NULL, 0, &what) < 0 || contain_load_place(&none, 0, &what) < 0)
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

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_load_is_placed_on_its_cpus_at_its_nice_level),
		cmocka_unit_test(no_cpus_and_nice_0_change_nothing),
		cmocka_unit_test(a_program_that_cannot_start_says_why),
		cmocka_unit_test(a_process_group_stop_takes_children_that_ignore_sigterm),
		cmocka_unit_test(a_cgroup2_stop_takes_children_that_ignore_sigterm_and_left_the_group),
		cmocka_unit_test(a_freezer_stop_takes_children_that_ignore_sigterm_and_left_the_group),
		cmocka_unit_test(killing_the_starter_leaves_no_load_behind),
		cmocka_unit_test(a_dead_runs_cgroup_is_cleared_by_the_next_run),
		cmocka_unit_test(a_reused_pid_does_not_keep_a_dead_runs_cgroup),
		cmocka_unit_test(loads_are_held_under_sqwaves_own_cgroup),
	};

	if (argc > 1 && !strcmp(argv[1], CONTAIN_EXEC_ARG))
		return contain_exec_main(argc - 1, argv + 1);
	if (!realpath(argv[0], self))
		snprintf(self, sizeof(self), "/proc/self/exe");
	if (argc > 1 && !strcmp(argv[1], CONTAIN_GUARD_ARG))
		return contain_guard_main(argc - 1, argv + 1);
	if (argc > 2 && !strcmp(argv[1], "tree"))
		return tree_main(argc, argv);
	/* Loads start through a re-exec of this binary: qemu-user cannot exec
	 * an ARM binary from inside (no binfmt here). The armhf build is tested
	 * in the emulated board instead (tests/vm: the soak step). */
	if (getenv("SQW_UNDER_EMULATION")) {
		printf("under qemu-user: skipped (spawning loads needs a real exec)\n");
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
