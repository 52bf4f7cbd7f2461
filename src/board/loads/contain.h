/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Containment of load processes: every load and all its descendants stop
 * with sqwave on every exit path, SIGKILL of sqwave included. Three layers:
 * each process is started (posix_spawn, argument vector, never a shell)
 * through sqwave's own exec wrapper in a process group of its own, inside a
 * cgroup per load (cgroup v2, else the v1 freezer) where the machine has
 * one; and a guardian process, started first, kills whatever is left in
 * those groups and cgroups when sqwave ends or dies (it notices by the end
 * of a pipe only sqwave holds). Non-RT; main thread only. */
#ifndef SQW_CONTAIN_H
#define SQW_CONTAIN_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "loads/load.h"

/* Same order as run.containment's choices (config.c). */
enum contain_kind {
	CONTAIN_AUTO,
	CONTAIN_CGROUP2,
	CONTAIN_FREEZER,            /* cgroup v1 freezer (+ the v1 pids controller if mounted) */
	CONTAIN_PGROUP,             /* process groups only: a load that leaves its group escapes */
};

/* argv[1] of sqwave (or of a test binary) that runs the exec wrapper and the
 * guardian: main() hands these to contain_exec_main()/contain_guard_main(). */
#define CONTAIN_EXEC_ARG "__sqwave-exec"
#define CONTAIN_GUARD_ARG "__sqwave-guard"

struct contain;
struct contain_group;

/*
 * Choose the containment (@want, or the best available for CONTAIN_AUTO:
 * cgroup2, freezer, process groups), create sqwave's cgroup directory and
 * start the guardian from @self_exe ("/proc/self/exe"). @cgroup_root
 * overrides where cgroups are made (tests; NULL: from /proc/self/mountinfo).
 * NULL with a message (an explicit @want the machine lacks, or no guardian).
 * Caller ends with contain_free().
 */
struct contain *contain_new(enum contain_kind want, const char *self_exe,
			    const char *cgroup_root, char *err, size_t errlen);
/* Kill and remove what runs that were killed with their guardian left in
 * sqwave.* cgroups (at the hierarchies' roots and beside sqwave's own
 * cgroup). Returns the processes killed; *@dirs (may be NULL) the cgroup
 * directories removed. contain_new() does it too; a run without loads
 * calls it so that leftovers never disturb a measurement. */
int contain_sweep(int *dirs);
/* Stop the guardian after its last sweep, remove the cgroups; waits for it. */
void contain_free(struct contain *c);

/* The guardian's pid (0: none). A caller that reaps children with
 * waitpid(-1) and reaps this one says so with contain_guard_reaped(), so
 * that contain_free() does not wait for a pid that may be reused. */
pid_t contain_guard_pid(const struct contain *c);
void contain_guard_reaped(struct contain *c);

enum contain_kind contain_kind(const struct contain *c);
/* "cgroup2 (/sys/fs/cgroup/unified/sqwave.1234)", "process groups only (...)". */
const char *contain_describe(const struct contain *c);
/* Name of a kind ("cgroup2", "freezer", "pgroup"). */
const char *contain_kind_name(enum contain_kind k);

/* A group for one load (its cgroup, and the process groups of its processes).
 * NULL with a message. Freed by contain_group_free() or contain_free(). */
struct contain_group *contain_group_new(struct contain *c, const char *name, char *err,
					size_t errlen);

/*
 * Start @p in @g: stdin /dev/null, stdout and stderr to @out_fd (-1:
 * /dev/null; stdout /dev/null when p->discard_stdout), default signal
 * dispositions and an empty signal mask, its own process group, @p's CPUs
 * and nice level, and every other file descriptor closed. Returns the pid
 * (also the process group id) once the program is running, or -1 with a
 * message when it could not be started (exec failed: the reason).
 */
pid_t contain_spawn(struct contain *c, struct contain_group *g, const struct load_proc *p,
		    int out_fd, char *err, size_t errlen);

/* Send @sig to every process of @g: its live process groups, and with
 * SIGKILL its whole cgroup (cgroup.kill, or freeze-kill-thaw). */
void contain_group_signal(struct contain *c, struct contain_group *g, int sig);
/* A process group of @g whose leader was reaped: SIGKILL what is left of
 * it (its orphans), and stop tracking it. */
void contain_group_release(struct contain *c, struct contain_group *g, pid_t pgid);
/* Processes still alive in @g (cgroup members; with process groups only,
 * members of its groups found in /proc). */
int contain_group_count(const struct contain *c, const struct contain_group *g);
/* Where @g's own CPU time is read: its cgroup v2 directory ("" with another
 * containment), and its live process groups (*@n of them). */
const char *contain_group_cgroup2(const struct contain *c, const struct contain_group *g);
const pid_t *contain_group_pgids(const struct contain_group *g, size_t *n);
/* Remove @g (its cgroup must be empty: call after the count reached 0). */
void contain_group_free(struct contain *c, struct contain_group *g);

/* The exec wrapper and the guardian: argc/argv from argv[1] on. */
int contain_exec_main(int argc, char **argv);

/*
 * A load's process, in sqwave's exec wrapper before it execs the load: its
 * CPUs (@cpus NULL or empty: unchanged) and its nice level (0: unchanged).
 * The load's own placement, not sqwave's: rt/rtsetup sets the RT thread's.
 * Returns 0, or -1 with errno and *what naming the step that failed
 * ("setting CPUs", "setting nice").
 */
int contain_load_place(const cpu_set_t *cpus, int nice, const char **what);
int contain_guard_main(int argc, char **argv);

#endif
