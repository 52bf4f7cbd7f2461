/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RT loop. Per edge: read the timerfd, read the clock, write the line
 * between two clock reads, push a record, bump counters. Nothing else: no
 * allocation, no locks, no printing, no file I/O. */
#include "rtloop.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "rtsetup.h"

int rtloop_open(struct rtloop *l)
{
	atomic_init(&l->go, false);
	atomic_init(&l->stop_req, false);
	atomic_init(&l->done, false);
	atomic_init(&l->edges, 0);
	atomic_init(&l->missed, 0);
	atomic_init(&l->write_errors, 0);
	l->error = 0;
	l->ru_started = false;
	l->next_slot = 0;
	l->served = 0;
	l->seq = 0;
	l->level = l->idle_level ? 1 : 0;
	l->stopping = false;
	l->tfd = timerfd_create(l->clock, TFD_CLOEXEC);
	return l->tfd < 0 ? -1 : 0;
}

void rtloop_close(struct rtloop *l)
{
	if (l->tfd >= 0)
		close(l->tfd);
	l->tfd = -1;
}

static inline uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void rtloop_account(struct rtloop *l, uint64_t expirations, uint64_t wake_ns,
		    struct edge_rec *rec)
{
	uint64_t slot, advance;

	if (expirations == 0)	/* cannot happen after poll(); be safe */
		expirations = 1;
	l->next_slot += expirations;
	slot = l->next_slot - 1;
	/* The count is read after the write: a deadline that passed after the
	 * wake-up is not this edge's. Serve the latest slot due at wake-up;
	 * the one consumed later counts as missed on the next edge. Usually
	 * no iteration (a multiply instead of a division per edge). */
	while (slot > l->served && l->start_ns + slot * (uint64_t)l->half_ns > wake_ns)
		slot--;
	advance = slot + 1 - l->served;
	l->served = slot + 1;
	l->level ^= 1;

	rec->seq = l->seq++;
	rec->intended_ns = l->start_ns + slot * (uint64_t)l->half_ns;
	rec->level = (uint8_t)l->level;
	rec->flags = 0;
	if (advance > UINT16_MAX) {
		rec->expirations = UINT16_MAX;
		rec->flags |= EDGE_F_SATURATED;
	} else {
		rec->expirations = (uint16_t)advance;
	}
	if (slot < l->warmup_slots)
		rec->flags |= EDGE_F_WARMUP;
	atomic_store_explicit(&l->missed,
			      atomic_load_explicit(&l->missed, memory_order_relaxed) + advance - 1,
			      memory_order_relaxed);
}

bool rtloop_is_last(struct rtloop *l)
{
	bool end;

	if (l->stopping)
		return true;
	end = atomic_load_explicit(&l->stop_req, memory_order_relaxed) ||
	      (l->total_slots && l->served >= l->total_slots);
	if (!end)
		return false;
	if (l->level == (l->idle_level ? 1 : 0))
		return true;
	l->stopping = true;	/* one more edge, back to idle */
	return false;
}

void *rtloop_thread(void *arg)
{
	struct rtloop *l = arg;
	struct itimerspec its;
	struct edge_rec rec;

	rtsetup_thread_prefault(l->stack_prefault);
	memset(&rec, 0, sizeof(rec));
	/* Before the loop: waiting may sleep, nothing here is timed. */
	while (!atomic_load_explicit(&l->go, memory_order_acquire))
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	if (atomic_load_explicit(&l->stop_req, memory_order_relaxed))
		goto out;

	its.it_value.tv_sec = (time_t)(l->start_ns / 1000000000ull);
	its.it_value.tv_nsec = (long)(l->start_ns % 1000000000ull);
	its.it_interval.tv_sec = (time_t)(l->half_ns / 1000000000ll);
	its.it_interval.tv_nsec = (long)(l->half_ns % 1000000000ll);
	if (timerfd_settime(l->tfd, TFD_TIMER_ABSTIME, &its, NULL) < 0) {
		l->error = errno;
		goto out;
	}

	for (;;) {
		struct pollfd pfd = { .fd = l->tfd, .events = POLLIN };
		uint64_t exp, wake, wb, we;
		long n;
		int ret;
		bool last;

		/* Wake on ppoll(), write the edge, and only then read() the
		 * expirations: reading a periodic timerfd re-arms its hrtimer in
		 * the kernel, and that cost must not sit between the wake-up
		 * and the edge (docs/benchmarks.md). The level does not depend
		 * on the expiration count, the intended time does. Raw
		 * syscalls: this thread is never cancelled, so libc's
		 * cancellation-point bookkeeping (~30 instructions per call)
		 * is skipped. */
		if (syscall(SYS_ppoll, &pfd, 1, NULL, NULL, 0) < 0) {
			if (errno == EINTR)
				continue;
			l->error = errno;
			break;
		}
		wake = now_ns(l->clock);
		wb = now_ns(l->clock);
		ret = gpio_out_set(l->gpio, l->level ^ 1);
		we = now_ns(l->clock);
		n = syscall(SYS_read, l->tfd, &exp, sizeof(exp));
		if (n != (long)sizeof(exp)) {
			/* Cannot happen after poll() said readable; the edge was
			 * written, so log it (as on time) and stop. */
			l->error = n < 0 ? errno : EIO;
			atomic_store_explicit(&l->stop_req, true, memory_order_relaxed);
			exp = 1;
		}
		rtloop_account(l, exp, wake, &rec);

		rec.wake_off_ns = edge_off_clamp((int64_t)(wake - rec.intended_ns), &rec.flags);
		rec.write_begin_off_ns = edge_off_clamp((int64_t)(wb - rec.intended_ns), &rec.flags);
		rec.write_end_off_ns = edge_off_clamp((int64_t)(we - rec.intended_ns), &rec.flags);
		if (ret < 0) {
			rec.flags |= EDGE_F_WRITE_ERR;
			atomic_fetch_add_explicit(&l->write_errors, 1, memory_order_relaxed);
			atomic_store_explicit(&l->stop_req, true, memory_order_relaxed);
		}
		if (!l->ru_started && !(rec.flags & EDGE_F_WARMUP)) {
			getrusage(RUSAGE_THREAD, &l->ru_start);
			l->ru_started = true;
		}
		last = ret < 0 || rtloop_is_last(l);
		if (last)
			rec.flags |= EDGE_F_LAST;
		ring_push(l->ring, &rec);
		atomic_store_explicit(&l->edges, l->seq, memory_order_release);
		if (last)
			break;
	}
out:
	getrusage(RUSAGE_THREAD, &l->ru_end);
	atomic_store_explicit(&l->done, true, memory_order_release);
	return NULL;
}
