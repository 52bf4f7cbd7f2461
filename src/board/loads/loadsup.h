/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The load supervisor: starts the loads of each phase, reads their output,
 * restarts the ones that end (CoreMark ends after 10-20 s), flags the ones
 * that are lost, and stops every process and descendant at the end (grace,
 * then SIGKILL), through the containment of contain.h. Main thread only;
 * never touches the RT thread. Events go to a callback (the log, the
 * summary); nothing here prints. */
#ifndef SQW_LOADSUP_H
#define SQW_LOADSUP_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "loads/contain.h"
#include "loads/load.h"

enum loadsup_what {
	LS_STARTED,     /* a process of the load is running */
	LS_RESTARTED,   /* ... again, after it ended */
	LS_EXITED,      /* a process ended on its own (status or signal) */
	LS_KILLED,      /* it ignored SIGTERM for its grace period: SIGKILL */
	LS_STOPPED,     /* it ended because sqwave stopped it */
	LS_LOST,        /* it ended and will not be restarted (restart: false, or it
			 * exits at once again and again) */
	LS_RESULT,      /* a result line (CoreMark's score) */
	LS_GUARD,       /* the guardian ended before the run: loads are no longer
			 * safe from a SIGKILL of sqwave (detail says why) */
};

struct loadsup_event {
	uint64_t t_ns;                      /* CLOCK_MONOTONIC */
	enum loadsup_what what;
	const char *load;                   /* the load's name */
	unsigned inst;                      /* instance (process) number */
	pid_t pid;
	int status;                         /* exit status; -1 when killed by a signal */
	int signal;                         /* the signal that ended it, or 0 */
	int64_t ran_ns;                     /* how long it ran (ended ones) */
	const char *detail;                 /* why (lost), its last output line */
	const struct load_result *result;   /* LS_RESULT */
	const struct load *src;             /* the phase's load it belongs to (NULL: none,
					     * LS_GUARD) */
};

/* "started", "exited", ... */
const char *loadsup_what_name(enum loadsup_what w);
/* The event as "key=value\n" lines (a log event's payload). Returns the
 * length written (at most @len - 1). */
size_t loadsup_event_format(const struct loadsup_event *e, char *buf, size_t len);

struct loadsup_params {
	enum contain_kind containment;
	const char *self_exe;               /* "/proc/self/exe" */
	void (*event)(void *ctx, const struct loadsup_event *e);
	void *ctx;
};

struct loadsup;

/* Set up containment (and its guardian). NULL with a message. */
struct loadsup *loadsup_new(const struct loadsup_params *p, char *err, size_t errlen);
/* Stop everything (loadsup_stop_all) if still running, end containment. */
void loadsup_free(struct loadsup *s);
const char *loadsup_containment(const struct loadsup *s);

/*
 * Make @loads (the phase beginning at @now) the running set: loads running
 * now that are not in it are stopped (SIGTERM, their grace, SIGKILL; this
 * blocks for at most the longest grace); loads in it that are not running
 * are started; an equal load keeps running (each running load stands for
 * one of @loads at most). The caller keeps @loads alive while they run. 0,
 * or -1 with a message when a load could not be started: its processes are
 * then flagged lost (LS_LOST events), the others keep running.
 */
int loadsup_switch(struct loadsup *s, struct load *const *loads, size_t n, uint64_t now,
		   char *err, size_t errlen);

/* Wait @ms while the loads just started settle: 0 when all still run, -1
 * with a message naming a load whose process already ended (a load must
 * keep running for its phase). */
int loadsup_settle(struct loadsup *s, unsigned ms, char *err, size_t errlen);

/* The output pipes to poll (POLLIN); at most @max. */
size_t loadsup_pollfds(const struct loadsup *s, struct pollfd *fds, size_t max);
/* After poll(): read what the loads wrote. */
void loadsup_read(struct loadsup *s, const struct pollfd *fds, size_t n, uint64_t now);
/* After SIGCHLD: reap, restart or flag. */
void loadsup_reap(struct loadsup *s, uint64_t now);
/* Restarts that are due. Call at least at loadsup_next_due(). */
void loadsup_tick(struct loadsup *s, uint64_t now);
/* The next time loadsup_tick() has work; UINT64_MAX: none. */
uint64_t loadsup_next_due(const struct loadsup *s);

/* The @i-th load the supervisor runs (0 onwards; NULL past the last), with
 * its group's cgroup v2 directory ("" with another containment) and live
 * process groups (*@npg): where the proof reads its own CPU time. */
const struct load *loadsup_group_at(const struct loadsup *s, size_t i, const char **cg2,
				    const pid_t **pgids, size_t *npg);

/* Stop every load and wait until no process of theirs is left. Returns
 * the number of processes that needed SIGKILL. */
int loadsup_stop_all(struct loadsup *s, uint64_t now);

/* One line for the status: "coremark 3/3, ping-flood 1/1 (2 restarts)". */
const char *loadsup_status(const struct loadsup *s, char *buf, size_t len);

#endif
