/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RT thread's ring of the --break helper's eventfd. */
#include "rt/tracebreak_rt.h"

#include "base/msgbuf.h"

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

int tracebreak_cover(const struct tracebreak_hit *hits, size_t n, int max_breaks,
		     int64_t threshold_ns, uint64_t seq, int64_t value_ns, char *why, size_t len)
{
	size_t i;

	msgbuf_set(why, len, "%s", "");
	for (i = 0; i < n; i++) {
		if (hits[i].seq == seq)
			return (int)i;
	}
	if (value_ns <= threshold_ns)
		msgbuf_set(why, len, "it was under the threshold (%.3f us)", threshold_ns / 1e3);
	else if (n && (int)n >= max_breaks && seq > hits[n - 1].seq)
		msgbuf_set(why, len, "trace.max_breaks (%d) was spent on earlier edges", max_breaks);
	else
		msgbuf_set(why, len, "it came while tracing was stopped to save an earlier trace");
	return -1;
}
