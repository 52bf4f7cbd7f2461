/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the load supervisor: results read from the output,
 * restarts, a load that exits at once, one that may not restart, one that
 * ignores SIGTERM, and phases that keep an equal load running. This binary
 * is its own load (argv[1]: sleeper, exit N, score, stubborn). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "loads/loadsup.h"

/* This test binary, re-executed as the guardian, the exec wrapper and the
 * loads: its own path, not /proc/self/exe, which under valgrind is
 * valgrind (children then run natively, the parent under valgrind). */
static char self[4096] = "/proc/self/exe";


static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int load_main(int argc, char **argv)
{
	if (!strcmp(argv[1], "exit"))
		return atoi(argv[2]);
	if (!strcmp(argv[1], "score")) {
		struct timespec ts = { 1, 200000000 };

		nanosleep(&ts, NULL);
		printf("Total time (secs): 12.0\nIterations/Sec   : 1234.5\n"
		       "CoreMark 1.0 : 1234.500000 / GCC / Heap\n");
		return 0;
	}
	if (!strcmp(argv[1], "once") && argc > 2) {
		/* the first process says a line and ends; the next ones stay silent */
		FILE *f = fopen(argv[2], "wx");

		if (f) {
			fclose(f);
			printf("the first process's last line\n");
			return 0;
		}
		for (;;)
			pause();
	}
	if (!strcmp(argv[1], "stubborn")) {
		signal(SIGTERM, SIG_IGN);
		if (fork() == 0)
			for (;;)
				pause();
	}
	(void)argc;
	printf("running\n");
	fflush(stdout);
	for (;;)
		pause();
}

#define MAX_EV 256
static struct {
	enum loadsup_what what;
	char load[32];
	int status;
	char detail[160];
	bool valid;
	double score;
	pid_t pid;
	int64_t ran_ns;
} ev[MAX_EV];
static size_t nev;

static void on_event(void *ctx, const struct loadsup_event *e)
{
	char buf[1024];

	(void)ctx;
	/* every event formats as key=value lines */
	assert_true(loadsup_event_format(e, buf, sizeof(buf)) > 10);
	assert_non_null(strstr(buf, "event="));
	if (nev == MAX_EV)
		return;
	ev[nev].what = e->what;
	snprintf(ev[nev].load, sizeof(ev[nev].load), "%s", e->load);
	ev[nev].status = e->status;
	snprintf(ev[nev].detail, sizeof(ev[nev].detail), "%s", e->detail ? e->detail : "");
	ev[nev].valid = e->result && e->result->valid;
	ev[nev].score = e->result ? e->result->score : 0;
	ev[nev].pid = e->pid;
	ev[nev].ran_ns = e->ran_ns;
	nev++;
}

static size_t count(enum loadsup_what w)
{
	size_t i, n = 0;

	for (i = 0; i < nev; i++)
		n += ev[i].what == w;
	return n;
}

static struct load *mk(const char *spec)
{
	struct plan *p = plan_new();
	struct load_env env = { .rt_cpu = -1, .sysroot = "", .root = true };
	enum load_error cls;
	char err[512];
	struct load *l;

	char full[8192];
	const char *at = strstr(spec, "/proc/self/exe");

	/* "/proc/self/exe" in a spec stands for this binary's own path */
	if (at)
		snprintf(full, sizeof(full), "%.*s%s%s", (int)(at - spec), spec, self, at + 14);
	else
		snprintf(full, sizeof(full), "%s", spec);
	cpulist_online(&env.online);
	assert_int_equal(plan_add_cmdline_load(p, full, err, sizeof(err)), CFG_OK);
	l = load_new(&p->loads[0], &env, &cls, err, sizeof(err));
	if (!l)
		fail_msg("%s", err);
	plan_free(p);
	return l;
}

static struct loadsup *sup(void)
{
	char err[512];
	struct loadsup_params p = { .containment = CONTAIN_AUTO, .self_exe = self,
				    .event = on_event };
	struct loadsup *s = loadsup_new(&p, err, sizeof(err));

	if (!s)
		fail_msg("%s", err);
	nev = 0;
	return s;
}

/* Run the supervisor's loop (poll, read, reap, tick) until @done(@arg)
 * holds: each test waits for the events it then asserts, however slow this
 * machine is. The bound only turns a hang into a failure: a minute, for
 * what takes a few seconds on a quiet machine. */
static void run_until(struct loadsup *s, bool (*done)(const void *), const void *arg)
{
	uint64_t hang = mono_ns() + 60 * 1000000000ull;

	while (!done(arg)) {
		struct pollfd fds[16];
		size_t n = loadsup_pollfds(s, fds, 16);

		if (mono_ns() > hang)
			fail_msg("still waiting after a minute (%zu events)", nev);
		poll(fds, n, 10);
		loadsup_read(s, fds, n, mono_ns());
		loadsup_reap(s, mono_ns());
		loadsup_tick(s, mono_ns());
	}
}

struct at_least {
	enum loadsup_what what;
	size_t n;
};

static bool counted(const void *arg)
{
	const struct at_least *a = arg;

	return count(a->what) >= a->n;
}

#define RUN_UNTIL_COUNT(s, w, k) run_until((s), counted, &(struct at_least){ (w), (k) })

/* Process @pid ignores SIGTERM (its SigIgn mask in /proc says so). */
static bool ignores_sigterm(const void *arg)
{
	char path[64], line[256];
	unsigned long long mask = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)*(const pid_t *)arg);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "SigIgn: %llx", &mask) == 1;
	fclose(f);
	return found && (mask & (1ull << (SIGTERM - 1)));
}

static void a_load_that_ends_is_restarted_and_its_results_are_read(void **state)
{
	struct loadsup *s = sup();
	struct load *l = mk("coremark:name=cm:path=/proc/self/exe:instances=1:score");
	char err[512], st[128];

	(void)state;
	assert_int_equal(loadsup_switch(s, &l, 1, mono_ns(), err, sizeof(err)), 0);
	assert_int_equal(loadsup_settle(s, 100, err, sizeof(err)), 0);
	RUN_UNTIL_COUNT(s, LS_RESULT, 2);	/* the second comes from the restarted process */
	assert_int_equal(count(LS_STARTED), 1);
	assert_true(count(LS_RESTARTED) >= 1);
	assert_true(count(LS_RESULT) >= 2);
	assert_true(ev[1].what == LS_RESULT && ev[1].valid && ev[1].score == 1234.5);
	assert_int_equal(count(LS_LOST), 0);
	assert_non_null(strstr(loadsup_status(s, st, sizeof(st)), "cm "));
	loadsup_stop_all(s, mono_ns());
	assert_int_equal(count(LS_STOPPED), 1);
	loadsup_free(s);
	load_free(l);
}

static void a_load_that_exits_at_once_is_lost_after_five_tries(void **state)
{
	struct loadsup *s = sup();
	struct load *l = mk("command:name=bad:/proc/self/exe:exit:3");
	char err[512];

	(void)state;
	assert_int_equal(loadsup_switch(s, &l, 1, mono_ns(), err, sizeof(err)), 0);
	/* settling says so before any measurement would start: once the
	 * process has ended (waited for, not reaped: that is the
	 * supervisor's), however long this machine took to run it */
	assert_int_equal(ev[0].what, LS_STARTED);
	assert_int_equal(waitid(P_PID, (id_t)ev[0].pid, &(siginfo_t){ 0 }, WEXITED | WNOWAIT), 0);
	assert_int_equal(loadsup_settle(s, 300, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "load bad ended at once"));
	RUN_UNTIL_COUNT(s, LS_LOST, 1);
	assert_int_equal(count(LS_LOST), 1);
	assert_int_equal(ev[nev - 1].what, LS_LOST);
	/* lost at the fifth exit in a row that came within a second of its
	 * start ("at once": loadsup.c's FAST_EXIT_NS); a machine too busy to
	 * run it that fast gets exits that are not counted, as they ran */
	{
		size_t i, fast = 0, exited = 0;

		for (i = 0; i + 1 < nev; i++) {
			if (ev[i].what != LS_EXITED)
				continue;
			exited++;
			fast = ev[i].ran_ns < 1000000000 ? fast + 1 : 0;
			assert_true(fast < 5 || i + 2 == nev);	/* lost at the fifth, not later */
		}
		assert_int_equal(fast, 5);
		assert_true(exited >= 5);
	}
	assert_int_equal(ev[nev - 1].status, 3);
	assert_non_null(strstr(ev[nev - 1].detail, "exits at once (5 times in a row)"));
	loadsup_free(s);
	load_free(l);
}

static void a_load_that_may_not_restart_is_lost_at_its_first_end(void **state)
{
	struct loadsup *s = sup();
	struct load *l = mk("command:name=once:restart=false:/proc/self/exe:score");
	char err[512];

	(void)state;
	assert_int_equal(loadsup_switch(s, &l, 1, mono_ns(), err, sizeof(err)), 0);
	RUN_UNTIL_COUNT(s, LS_LOST, 1);
	assert_int_equal(count(LS_RESTARTED), 0);
	assert_int_equal(count(LS_LOST), 1);
	assert_non_null(strstr(ev[nev - 1].detail, "restart: false"));
	loadsup_free(s);
	load_free(l);
}

static void a_load_that_ignores_sigterm_is_killed_after_its_grace(void **state)
{
	struct loadsup *s = sup();
	struct load *l = mk("command:name=mule:grace=300ms:/proc/self/exe:stubborn");
	char err[512];

	(void)state;
	assert_int_equal(loadsup_switch(s, &l, 1, mono_ns(), err, sizeof(err)), 0);
	/* stopped once it ignores SIGTERM (before that, SIGTERM would end it) */
	assert_int_equal(ev[0].what, LS_STARTED);
	run_until(s, ignores_sigterm, &ev[0].pid);
	assert_int_equal(loadsup_stop_all(s, mono_ns()), 1);
	assert_int_equal(count(LS_KILLED), 1);
	assert_int_equal(count(LS_STOPPED), 1);
	loadsup_free(s);
	load_free(l);
}

static void a_stopped_process_is_not_given_its_predecessors_last_line(void **state)
{
	char marker[] = "/tmp/sqwave-test-once-XXXXXX", spec[256], err[512];
	int fd = mkstemp(marker);
	struct loadsup *s;
	struct load *l;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	unlink(marker);	/* the first process makes it */
	snprintf(spec, sizeof(spec), "command:name=once:/proc/self/exe:once:%s", marker);
	s = sup();
	l = mk(spec);
	assert_int_equal(loadsup_switch(s, &l, 1, mono_ns(), err, sizeof(err)), 0);
	RUN_UNTIL_COUNT(s, LS_RESTARTED, 1);	/* ended (a fast exit), restarted after the back-off */
	assert_int_equal(count(LS_EXITED), 1);
	assert_string_equal(ev[1].detail, "the first process's last line");
	assert_int_equal(count(LS_RESTARTED), 1);
	loadsup_stop_all(s, mono_ns());
	assert_int_equal(count(LS_STOPPED), 1);
	assert_int_equal(ev[nev - 1].what, LS_STOPPED);
	assert_string_equal(ev[nev - 1].detail, "");
	loadsup_free(s);
	load_free(l);
	unlink(marker);
}

static void a_phase_switch_keeps_equal_loads_and_stops_the_others(void **state)
{
	struct loadsup *s = sup();
	struct load *a1 = mk("command:name=a:/proc/self/exe:sleeper");
	struct load *b = mk("command:name=b:/proc/self/exe:sleeper");
	struct load *a2 = mk("command:name=a:/proc/self/exe:sleeper");
	struct load *p1[] = { a1, b }, *p2[] = { a2 };
	char err[512];
	pid_t apid;

	(void)state;
	assert_int_equal(loadsup_switch(s, p1, 2, mono_ns(), err, sizeof(err)), 0);
	assert_int_equal(count(LS_STARTED), 2);	/* the switch started both */
	apid = ev[0].pid;
	assert_int_equal(loadsup_switch(s, p2, 1, mono_ns(), err, sizeof(err)), 0);
	assert_int_equal(count(LS_STARTED), 2);	/* a kept, not restarted */
	assert_int_equal(count(LS_STOPPED), 1);
	assert_string_equal(ev[nev - 1].load, "b");
	assert_int_equal(kill(apid, 0), 0);
	loadsup_free(s);
	load_free(a1);
	load_free(b);
	load_free(a2);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_load_that_ends_is_restarted_and_its_results_are_read),
		cmocka_unit_test(a_load_that_exits_at_once_is_lost_after_five_tries),
		cmocka_unit_test(a_load_that_may_not_restart_is_lost_at_its_first_end),
		cmocka_unit_test(a_load_that_ignores_sigterm_is_killed_after_its_grace),
		cmocka_unit_test(a_phase_switch_keeps_equal_loads_and_stops_the_others),
		cmocka_unit_test(a_stopped_process_is_not_given_its_predecessors_last_line),
	};

	if (argc > 1 && !strcmp(argv[1], CONTAIN_EXEC_ARG))
		return contain_exec_main(argc - 1, argv + 1);
	if (!realpath(argv[0], self))
		snprintf(self, sizeof(self), "/proc/self/exe");
	if (argc > 1 && !strcmp(argv[1], CONTAIN_GUARD_ARG))
		return contain_guard_main(argc - 1, argv + 1);
	if (argc > 1)
		return load_main(argc, argv);
	/* Loads start through a re-exec of this binary: qemu-user cannot exec
	 * an ARM binary from inside (no binfmt here). The armhf build is tested
	 * in the emulated board instead (tests/vm: the soak step). */
	if (getenv("SQW_UNDER_EMULATION")) {
		printf("under qemu-user: skipped (spawning loads needs a real exec)\n");
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
