// SPDX-License-Identifier: GPL-2.0-or-later
/* Instructions per clock_gettime(CLOCK_MONOTONIC) in user space, counted by
 * single-stepping a child with ptrace. valgrind cannot run the vDSO (it turns
 * clock_gettime into a real syscall), so bench adds this count back. The
 * loop around the calls is measured without them and subtracted.
 * Usage: vdso_steps [CALLS]; prints "instructions_per_call N". */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Steps taken by a child between two SIGSTOPs running a loop of @calls
 * iterations, with a clock read in each iteration if @read_clock. */
static long steps(int calls, int read_clock)
{
	struct timespec ts;
	long n = 0;
	int st, i;
	pid_t pid = fork();

	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		clock_gettime(CLOCK_MONOTONIC, &ts);	/* resolve the PLT slot first */
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		for (i = 0; i < calls; i++) {
			if (read_clock)
				clock_gettime(CLOCK_MONOTONIC, &ts);
			__asm__ volatile("" ::: "memory");
		}
		raise(SIGSTOP);
		_exit(0);
	}
	waitpid(pid, &st, 0);	/* first SIGSTOP */
	for (;;) {
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) < 0) {
			perror("ptrace");
			exit(2);
		}
		waitpid(pid, &st, 0);
		if (WIFEXITED(st)) {
			fprintf(stderr, "child exited before the second stop\n");
			exit(2);
		}
		if (WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP)
			break;
		n++;
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return n;
}

int main(int argc, char **argv)
{
	int calls = argc > 1 ? atoi(argv[1]) : 1000;
	long base, with;

	if (calls < 1)
		calls = 1;
	/* The difference is the call itself: argument set-up, PLT, libc, vDSO. */
	base = steps(calls, 0);
	with = steps(calls, 1);
	printf("instructions_per_call %.1f\n", (double)(with - base) / calls);
	return 0;
}
