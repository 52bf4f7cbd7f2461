/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RT thread's ring of the --break helper's eventfd. */
#include "rt/tracebreak_rt.h"

#include <sys/syscall.h>
#include <unistd.h>

void tracebreak_rt_ring(struct tracebreak_rt *t)
{
	uint64_t one = 1;

	/* Raw syscall: no cancellation bookkeeping; the RT thread is never
	 * cancelled. An eventfd write allocates nothing; it takes the eventfd's
	 * wait-queue lock, which on PREEMPT_RT is a priority-inheriting
	 * sleeping lock: the RT thread may wait for the helper's read() to
	 * leave it, briefly and boosted, and only when it rings (a crossing;
	 * the recorder's bell is the same). */
	(void)syscall(SYS_write, t->efd, &one, sizeof(one));
}
