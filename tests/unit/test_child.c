/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for sqwave's own children (base/child): a guardian started and
 * ready, alone in its process group, deaf to the signals that end a terminal's
 * processes, ending when its pipe closes; one that never says "ready", or
 * cannot start, refused with a sentence and nothing left running. This
 * binary is its own guardian: argv[1] names how it behaves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/child.h"

#define UNLESS "nothing would be put back"

/* This binary's own path, not /proc/self/exe (under valgrind, valgrind). */
static char self[4096] = "/proc/self/exe";

/* "guard": ready, then the bytes its pipe brings until sqwave's end, as its
 * exit status; 99 if a descriptor above 2 was left open. */
static int guard_main(void)
{
	char buf[64];
	int total = 0, fd;
	ssize_t n;

	if (child_guardian_ready("sqw-testguard") < 0)
		return 98;
	for (fd = 3; fd < 256; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			return 99;
	while ((n = read(0, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno != EINTR)
			return 97;
		if (n > 0)
			total += (int)n;
	}
	return total;
}

/* The comm of process @pid, its newline cut. */
static void comm_of(pid_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, (int)len, f));
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* No child of this process is left, running or a zombie. */
static void assert_no_child(void)
{
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void a_ready_guardian_runs_alone_until_its_pipe_closes(void **state)
{
	char *argv[] = { self, (char *)"guard", NULL };
	char err[256] = "", comm[32];
	pid_t pid;
	int fd, st = 0;

	(void)state;
	assert_int_equal(child_guardian_spawn(argv, 30000, "the test guardian", UNLESS, &pid, &fd,
					      err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_true(pid > 0);
	assert_true(fd > 2);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	/* "ready" was said after it took its name: it is there, named so */
	comm_of(pid, comm, sizeof(comm));
	assert_string_equal(comm, "sqw-testguard");
	assert_int_equal(getpgid(pid), pid);
	/* the signals of a terminal's or a group's end do not end it */
	assert_int_equal(kill(pid, SIGTERM), 0);
	assert_int_equal(kill(pid, SIGINT), 0);
	assert_int_equal(kill(pid, SIGHUP), 0);
	assert_int_equal(waitpid(pid, &st, WNOHANG), 0);
	assert_int_equal(write(fd, "hello", 5), 5);
	close(fd);	/* sqwave's end: its own */
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 5);
}

/* "exit" ends without a word, "nope" says another one, "hang" says nothing
 * and waits: each is refused, killed if need be, and reaped. */
static void a_guardian_that_does_not_say_ready_is_refused_and_reaped(void **state)
{
	static const char *const modes[] = { "exit", "nope", "hang" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		char *argv[] = { self, (char *)modes[i], NULL };
		char err[4400], want[4400];
		pid_t pid = 1;
		int fd = 1;

		assert_int_equal(child_guardian_spawn(argv, 200, "the test guardian", UNLESS,
						      &pid, &fd, err, sizeof(err)), -1);
		snprintf(want, sizeof(want), "the test guardian (%s %s) did not start: " UNLESS,
			 self, modes[i]);
		assert_string_equal(err, want);
		assert_int_equal(pid, 0);
		assert_int_equal(fd, -1);
		assert_no_child();
	}
}

/* glibc's posix_spawn says that the exec failed; under valgrind (and an
 * older libc) the spawn succeeds and the child exits 127 without a word:
 * either way a refusal that names the program, and nothing left. */
static void a_program_that_cannot_start_says_why(void **state)
{
	char *argv[] = { (char *)"/nonexistent/sqwave", (char *)"guard", NULL };
	char err[256];
	pid_t pid = 1;
	int fd = 1;

	(void)state;
	assert_int_equal(child_guardian_spawn(argv, 200, "the test guardian", UNLESS, &pid, &fd,
					      err, sizeof(err)), -1);
	if (strcmp(err, "the test guardian (/nonexistent/sqwave guard) did not start: " UNLESS))
		assert_string_equal(err, "cannot start the test guardian (/nonexistent/sqwave): "
				    "No such file or directory");
	assert_int_equal(pid, 0);
	assert_int_equal(fd, -1);
	assert_no_child();
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_ready_guardian_runs_alone_until_its_pipe_closes),
		cmocka_unit_test(a_guardian_that_does_not_say_ready_is_refused_and_reaped),
		cmocka_unit_test(a_program_that_cannot_start_says_why),
	};
	const struct CMUnitTest emulated[] = {
		cmocka_unit_test(a_program_that_cannot_start_says_why),
	};

	if (argc > 1 && !strcmp(argv[1], "guard"))
		return guard_main();
	if (argc > 1 && !strcmp(argv[1], "exit"))
		return 0;
	if (argc > 1 && !strcmp(argv[1], "nope"))
		return write(1, "nope!\n", 6) == 6 ? 0 : 1;
	if (argc > 1 && !strcmp(argv[1], "hang")) {
		for (;;)
			pause();
	}
	if (!realpath(argv[0], self))
		snprintf(self, sizeof(self), "/proc/self/exe");
	/* The guardians are re-execs of this binary: qemu-user cannot exec an
	 * ARM binary from inside (no binfmt there), so only the test that
	 * starts nothing runs. The armhf build's guardians run for real in
	 * the emulated board (tests/vm: the soak and idle steps). */
	if (getenv("SQW_UNDER_EMULATION")) {
		printf("under qemu-user: 2 of 3 skipped (a guardian needs a real exec)\n");
		return cmocka_run_group_tests(emulated, NULL, NULL);
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
