/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU idle states through cpuidle's sysfs (cpuN/cpuidle/stateK/{name,desc,
 * latency,residency,disable}): read them, restrict a run's CPUs to the
 * states no deeper than a limit (cyclictest's and rtla's
 * --deepest-idle-state), and put every `disable` back on every way out.
 * Before anything is written, the original values go to a saved-state file
 * (STATE_DIR/idle.PID.START); a guardian process restores from it when
 * sqwave dies (it notices by the end of a pipe only sqwave holds), and
 * cpuidle_sweep() restores what a run killed with its guardian left. Non-RT;
 * main thread only. Called from rtsetup.c, the one place of privileged
 * setup. */
#ifndef SQW_CPUIDLE_H
#define SQW_CPUIDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* More than the kernel's CPUIDLE_STATE_MAX (10). */
#define CPUIDLE_MAX_STATES 16

/* argv[1] of sqwave that runs the guardian (main() hands it to
 * cpuidle_guard_main()). */
#define CPUIDLE_GUARD_ARG "__sqwave-idle-guard"

/* The saved-state directory on a live system (a tmpfs: cleared at boot, as
 * the kernel's `disable` values are). Under a test root: ROOT/run/sqwave. */
#define CPUIDLE_STATE_DIR "/run/sqwave"

/* Test only: a copied tree standing for "/" (its sys/devices/system/cpu and
 * run/sqwave are used instead of the system's), so that run and respond
 * can be tested on a constructed cpuidle tree (docs/testing.md). */
#define CPUIDLE_TEST_ROOT_ENV "SQWAVE_TEST_SYSFS_ROOT"

/* rt.idle_state, parsed. */
struct cpuidle_limit {
	bool keep;               /* "keep" (the default): leave idle states alone */
	int deepest;             /* -1: every state off; N: states 0..N stay on */
	char name[32];           /* a state's name ("C1"): the deepest allowed is that
				  * state, found on each CPU; "" when given as a number */
};

/* "keep", "none" (-1), an integer -1..CPUIDLE_MAX_STATES-1, or a state name
 * (letters, digits, '-', '_'). 0, or -1 with a message naming the values
 * allowed. */
int cpuidle_limit_parse(const char *s, struct cpuidle_limit *lim, char *err, size_t errlen);
/* "keep", "-1 (none)", "1", "C1E" into @buf; returns @buf. */
const char *cpuidle_limit_format(const struct cpuidle_limit *lim, char *buf, size_t len);

struct cpuidle_state {
	char name[32];
	char desc[64];
	long latency_us;         /* exit latency; -1: unreadable */
	long residency_us;       /* target residency; -1: unreadable */
	int disable;             /* 0 or 1 as read; -1: unreadable */
};

struct cpuidle_cpu {
	int cpu;
	int nstates;             /* 0: no cpuidle on this CPU */
	struct cpuidle_state st[CPUIDLE_MAX_STATES];
};

/* @root's ("/" live) cpuidle states of @cpu. Returns nstates (0: none). */
int cpuidle_read(const char *root, int cpu, struct cpuidle_cpu *out);

/* The index of the deepest state @lim allows on @c: -1 (none), 0..n-1
 * (a larger number is clamped: nothing is disabled), or -2 when @lim names a
 * state this CPU does not have. */
int cpuidle_limit_index(const struct cpuidle_limit *lim, const struct cpuidle_cpu *c);

/*
 * A limit given by name (@lim->name) against the machine under @root ("/"
 * live): 0 when some online CPU has a state of that name (or @lim has no
 * name); -1 when none has, with one sentence in @err listing the states the
 * CPUs have (or saying there are none): a misspelt name, a configuration
 * error, found before anything is restricted. Main thread; reads sysfs.
 */
int cpuidle_limit_check(const char *root, const struct cpuidle_limit *lim, char *err,
			size_t errlen);

/* What a run did to one state of one CPU. */
enum cpuidle_action {
	CPUIDLE_KEPT,            /* allowed by the limit: not touched */
	CPUIDLE_DISABLED,        /* disabled by the run (was 0) */
	CPUIDLE_WAS_DISABLED,    /* deeper than the limit, already disabled before: not
				  * touched, and stays disabled after */
};

struct cpuidle_cpu_result {
	struct cpuidle_cpu before;        /* as read before the run */
	enum cpuidle_action action[CPUIDLE_MAX_STATES];
	bool written[CPUIDLE_MAX_STATES]; /* the run wrote 1 to its disable */
	int deepest;                      /* cpuidle_limit_index() */
	int ndisabled;                    /* states with CPUIDLE_DISABLED */
	bool restricted;                  /* every CPUIDLE_DISABLED state read back as 1 */
	bool restored;                    /* after release: every one read back as before */
};

struct cpuidle_hold_params {
	const char *root;                 /* "/" live; a copied tree in tests */
	const char *state_dir;            /* where the saved-state file goes */
	const int *cpus;                  /* the CPUs to restrict */
	size_t ncpus;
	struct cpuidle_limit limit;       /* not keep */
	const char *self_exe;             /* the guardian's program ("/proc/self/exe");
					   * NULL: no guardian (unit tests) */
};

struct cpuidle_hold;

/*
 * Restrict @p->cpus to the states @p->limit allows: write the saved-state
 * file, start the guardian, write 1 to each deeper state's `disable` that
 * reads 0, and read each back. NULL with a message when the state file,
 * the guardian or a write fails (what was written is put back first). A
 * CPU without cpuidle is not an error: its result has nstates 0. Caller
 * ends with cpuidle_hold_release() and cpuidle_hold_free().
 */
struct cpuidle_hold *cpuidle_hold_new(const struct cpuidle_hold_params *p, char *err,
				      size_t errlen);
/* Write every original value back, read each back, remove the saved-state
 * file and stop the guardian. 0, or -1 with a message when a value did not
 * read back (the file is then kept: the next run's sweep tries again). Safe
 * to call twice. */
int cpuidle_hold_release(struct cpuidle_hold *h, char *err, size_t errlen);
void cpuidle_hold_free(struct cpuidle_hold *h);
/* Per CPU, in @p->cpus order; *@n of them. */
const struct cpuidle_cpu_result *cpuidle_hold_results(const struct cpuidle_hold *h, size_t *n);
bool cpuidle_hold_released(const struct cpuidle_hold *h);
const struct cpuidle_limit *cpuidle_hold_limit(const struct cpuidle_hold *h);
/* "cpu1 deepest 0 (POLL): disabled C1 2 us, C6 133 us; restricted (read back)"
 * for each CPU, "; " between them; @after adds "restored"/"NOT restored".
 * Returns @buf. */
const char *cpuidle_hold_describe(const struct cpuidle_hold *h, bool after, char *buf,
				  size_t len);
/* The same of CPU @cpu alone (-1: every CPU; a CPU the hold does not
 * have: ""): what a line whose RT thread runs there was given. */
const char *cpuidle_hold_describe_cpu(const struct cpuidle_hold *h, int cpu, bool after,
				      char *buf, size_t len);
/* The saved-state file's path ("" when none). */
const char *cpuidle_hold_state_file(const struct cpuidle_hold *h);
/* The guardian's pid (0: none). */
pid_t cpuidle_hold_guard_pid(const struct cpuidle_hold *h);

/* Restore from every saved-state file in @state_dir whose run is gone
 * (killed with its guardian), and remove them. Returns the files restored;
 * *@states (may be NULL) the `disable` values written back. */
int cpuidle_sweep(const char *state_dir, int *states);
/* Restore from one saved-state file and remove it when every value reads
 * back. 0, or -1 with errno. */
int cpuidle_restore_file(const char *path, int *states);

/* The test root (CPUIDLE_TEST_ROOT_ENV) or "/"; and the state directory
 * for it into @buf. */
const char *cpuidle_root(void);
const char *cpuidle_state_dir(const char *root, char *buf, size_t len);

/* The guardian: argc/argv from argv[1] on (argv[1] the saved-state file). */
int cpuidle_guard_main(int argc, char **argv);

#endif
