/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Privileged real-time setup, in one place: memory locking, CPU latency
 * request, RT thread attributes (SCHED_FIFO, affinity), stack prefault. The
 * preflight that checks the same conditions is check_sys.c, which holds
 * cpu_dma_latency through the same function as the run. */
#ifndef SQW_RTSETUP_H
#define SQW_RTSETUP_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "rt/cpuidle.h"

struct rtsetup_params {
	int cpu;              /* -1: not pinned */
	int priority;         /* SCHED_FIFO priority 1..99 */
	bool lock_memory;     /* mlockall(MCL_CURRENT | MCL_FUTURE) */
	int dma_latency_us;   /* held in /dev/cpu_dma_latency; -1: leave alone */
	size_t stack_size;    /* RT thread stack, prefaulted */
	/* rt.idle_state / rt.idle_cpus (cpuidle.h): keep leaves them alone */
	struct cpuidle_limit idle_limit;
	bool idle_all_cpus;   /* every online CPU, not only the RT CPUs (all when p.cpu < 0) */
	cpu_set_t rt_cpus;    /* every RT thread's CPU (run.outputs per-cpu: each line's);
			       * empty: p.cpu alone. rt.idle_cpus rt restricts them all */
	const char *idle_root; /* "/" (NULL: "/"); a copied tree in tests */
	const char *self_exe; /* the idle-state guardian's program; NULL: none */
};

struct rtsetup {
	struct rtsetup_params p;
	int dma_fd;           /* -1 when not held */
	bool locked;          /* mlockall in force */
	bool fifo;            /* RT thread got SCHED_FIFO */
	bool pinned;          /* RT thread pinned to p.cpu */
	bool dma_latency_absent; /* no /dev/cpu_dma_latency: no idle states to hold off */
	struct cpuidle_hold *idle; /* the idle states restricted; NULL: keep, or failed */
	char idle_error[512]; /* why restoring them failed ("" if it did not) */
	char problems[1024];  /* what failed and how to fix it, one line each */
};

/* Process-wide part, main thread, after all memory is allocated: mlockall,
 * /dev/cpu_dma_latency. Returns 0 if everything asked for is in force, -1
 * otherwise (problems[] says what and how to fix; what worked stays). */
int rtsetup_process_enter(struct rtsetup *rs, const struct rtsetup_params *p);

/* Create the RT thread: SCHED_FIFO at p.priority, pinned to p.cpu, with a
 * stack of p.stack_size. If that is refused and @allow_non_rt, retry with
 * default attributes (rs->fifo / rs->pinned say what was obtained; problems[]
 * says why). Returns 0 or an errno value, like pthread_create. */
int rtsetup_thread_create(struct rtsetup *rs, pthread_t *tid, void *(*fn)(void *), void *arg,
			  bool allow_non_rt);
/* The same on @cpu (-1: not pinned) instead of p.cpu: run.outputs
 * per-cpu, one RT thread per line. rs->pinned says whether the last one
 * was pinned. */
int rtsetup_thread_create_on(struct rtsetup *rs, int cpu, pthread_t *tid, void *(*fn)(void *),
			     void *arg, bool allow_non_rt);

/* Called first thing in the RT thread: touch the stack so the loop never
 * page-faults on it. RT thread only. */
void rtsetup_thread_prefault(size_t bytes);

/* Undo rtsetup_process_enter: put the idle states back (read back:
 * cpuidle_hold_results() say how it went, idle_error[] why not), close
 * cpu_dma_latency, munlockall. The idle states' results stay readable
 * until rtsetup_process_free(). */
void rtsetup_process_exit(struct rtsetup *rs);
/* Free what rtsetup_process_enter kept for the summary (after _exit). */
void rtsetup_process_free(struct rtsetup *rs);

/*
 * Keeping the RT CPU to the RT thread. rtsetup_nonrt_cpuset() fills @set with
 * the CPUs this thread may run on, minus @rt_cpu: where every non-RT thread
 * of sqwave (main, recorder, status, samplers, supervisors) belongs. Returns
 * 0; -1 with errno when @rt_cpu is < 0 (not pinned: EINVAL) or when no other
 * CPU is allowed (a single-CPU system or cpuset: ENOENT; @set is then the
 * allowed CPUs unchanged). Safe from any thread.
 *
 * rtsetup_nonrt_affinity() moves the calling thread onto that set. Call it
 * in the main thread before creating any thread: every thread created
 * afterwards inherits it, except the RT thread, whose attributes pin it
 * (rtsetup_thread_create()). A thread made with explicit attributes gets
 * the set from rtsetup_nonrt_cpuset(). Returns 0 (also when there is
 * nothing to do: not pinned), or -1 with errno (ENOENT as above: nowhere
 * else to go; anything sched_setaffinity() returns).
 */
int rtsetup_nonrt_cpuset(int rt_cpu, cpu_set_t *set);
int rtsetup_nonrt_affinity(int rt_cpu);

/*
 * A helper thread that must keep its period under a full non-RT load (the
 * proof-of-load sampler): the calling thread to SCHED_FIFO @priority (1,
 * the lowest: below the RT thread and the break helper, above every
 * SCHED_OTHER load) on the CPUs other than @rt_cpu (every allowed CPU when
 * @rt_cpu < 0 or no other is allowed). Returns 0, or -1 with errno of
 * pthread_setschedparam() (EPERM unprivileged: it stays SCHED_OTHER).
 */
int rtsetup_helper_fifo(int priority, int rt_cpu);

/*
 * The calling thread to SCHED_FIFO @priority (@priority > 0), or back to
 * SCHED_OTHER (@priority 0): the break helper, at real-time priority while
 * it waits for a break and at SCHED_OTHER while it copies the trace.
 * Returns 0, or -1 with errno of pthread_setschedparam() (EPERM
 * unprivileged: the thread keeps its policy).
 */
int rtsetup_thread_policy(int priority);

/*
 * A load's process, in sqwave's exec wrapper before it execs the load: its
 * CPUs (@cpus NULL or empty: unchanged) and its nice level (0: unchanged).
 * Returns 0, or -1 with errno and *what naming the step that failed
 * ("setting CPUs", "setting nice").
 */
int rtsetup_load_place(const cpu_set_t *cpus, int nice, const char **what);

/* Real-time throttling: *runtime_us and *period_us from
 * /proc/sys/kernel/sched_rt_{runtime,period}_us. Returns 1 when throttling
 * is on (runtime is not -1), 0 when off, -1 when unknown. */
int rtsetup_rt_throttling(long *runtime_us, long *period_us);

/*
 * Open @path (/dev/cpu_dma_latency) and write @us to it, as the run holds it
 * for its whole length. Returns the fd (closing it releases the request),
 * or -1 with errno: ENOENT when there is no such device (the kernel has no
 * CPU idle states to hold off: nothing lost), anything else when the
 * request cannot be made.
 */
int rtsetup_dma_latency_hold(const char *path, int us);

#endif
