/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What sqwave's own child processes share: the spawn attributes every child
 * gets, closing inherited descriptors, and a guardian started and ready. */
#ifndef SQW_CHILD_H
#define SQW_CHILD_H

#include <spawn.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * The attributes of every child sqwave spawns (a guardian, a load's exec
 * wrapper): no signal blocked, every signal at its default (not sqwave's
 * handling), and a process group of its own, so that a group kill reaches
 * it and everything it starts. Destroy with posix_spawnattr_destroy().
 */
void child_spawnattr_init(posix_spawnattr_t *attr);

/* Close every descriptor from @lowfd up, in a child before it goes on
 * (close_range, else each one /proc/self/fd lists). */
void child_close_from(int lowfd);

/*
 * A guardian: a process of sqwave's own binary that outlives a SIGKILL of
 * sqwave and puts back what sqwave changed when sqwave's end of a pipe
 * closes. Spawns @argv[0] with @argv (child_spawnattr_init()'s attributes):
 * its standard input the read end of that pipe, its standard output a pipe
 * on which it says "ready" (child_guardian_ready()), its standard error
 * /dev/null; then waits up to @timeout_ms for that word, so that nothing
 * is changed before the guardian can outlive sqwave.
 *
 * 0 with its pid in *@pid and the pipe's write end (close-on-exec) in
 * *@fd: write to it what the guardian must know, close it (and reap *@pid)
 * to let it end. -1 with a sentence in @err: nothing is left running
 * (a guardian that did not say "ready" is killed and reaped), *@pid is 0
 * and *@fd -1. @what names it in the sentence ("the load guardian"),
 * @unless says what is at stake ("loads would not be stopped if sqwave
 * died"). Main thread only: it waits.
 */
int child_guardian_spawn(char *const argv[], int timeout_ms, const char *what,
			 const char *unless, pid_t *pid, int *fd, char *err, size_t errlen);

/*
 * In the guardian, first: ignore the signals that end a process group or a
 * terminal's (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE), take the name
 * @comm (not "sqwave...": `pkill sqwave` must not take it along), close
 * every descriptor but 0 to 2, say "ready" on standard output and close
 * it. 0, or -1 when sqwave could not be told: the guardian then exits.
 * Then read standard input: its end is sqwave's.
 */
int child_guardian_ready(const char *comm);

#endif
