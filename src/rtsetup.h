/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Privileged real-time setup, in one place: memory locking, CPU latency
 * request, RT thread attributes (SCHED_FIFO, affinity), stack prefault. The
 * preflight that checks the same conditions is check_sys.c, which holds
 * cpu_dma_latency through the same function as the run. */
#ifndef SQW_RTSETUP_H
#define SQW_RTSETUP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct rtsetup_params {
	int cpu;              /* -1: not pinned */
	int priority;         /* SCHED_FIFO priority 1..99 */
	bool lock_memory;     /* mlockall(MCL_CURRENT | MCL_FUTURE) */
	int dma_latency_us;   /* held in /dev/cpu_dma_latency; -1: leave alone */
	size_t stack_size;    /* RT thread stack, prefaulted */
};

struct rtsetup {
	struct rtsetup_params p;
	int dma_fd;           /* -1 when not held */
	bool locked;          /* mlockall in force */
	bool fifo;            /* RT thread got SCHED_FIFO */
	bool pinned;          /* RT thread pinned to p.cpu */
	bool dma_latency_absent; /* no /dev/cpu_dma_latency: no idle states to hold off */
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

/* Called first thing in the RT thread: touch the stack so the loop never
 * page-faults on it. RT thread only. */
void rtsetup_thread_prefault(size_t bytes);

/* Undo rtsetup_process_enter: close cpu_dma_latency, munlockall. */
void rtsetup_process_exit(struct rtsetup *rs);

/*
 * Open @path (/dev/cpu_dma_latency) and write @us to it, as the run holds it
 * for its whole length. Returns the fd (closing it releases the request),
 * or -1 with errno: ENOENT when there is no such device (the kernel has no
 * CPU idle states to hold off: nothing lost), anything else when the
 * request cannot be made.
 */
int rtsetup_dma_latency_hold(const char *path, int us);

#endif
