/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.outputs together: one RT thread, several lanes, one write per
 * instant. Per wake-up: read the clock, account the due lanes, one group
 * write between two clock reads, one record per written lane, re-arm at
 * the next slot. No allocation, no locks, no printing, no file I/O. */
#include "rt/rtgroup.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "base/clock.h"
#include "rt/recorder_bell.h"
#include "rt/rtsetup.h"

int rtgroup_open(struct rtgroup *g)
{
	size_t i;

	g->tfd = -1;
	atomic_init(&g->go, false);
	atomic_init(&g->stop_req, false);
	atomic_init(&g->done, false);
	atomic_init(&g->writes, 0);
	g->error = 0;
	g->ru_started = false;
	if (!g->n || g->n > 32 ) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < g->n; i++) {
		struct rtloop *l = g->lanes[i];

		if (l->spin_ns || l->spin_auto || l->tl_path) {
			errno = EINVAL;
			return -1;
		}
		l->clock = g->clock;
		if (rtloop_prepare(l) < 0)
			return -1;
	}
	g->running = g->n == 32 ? UINT32_MAX : (UINT32_C(1) << g->n) - 1;
	g->tfd = timerfd_create(g->clock, TFD_CLOEXEC);
	return g->tfd < 0 ? -1 : 0;
}

void rtgroup_close(struct rtgroup *g)
{
	if (g->tfd >= 0)
		close(g->tfd);
	g->tfd = -1;
}

uint64_t rtgroup_next(const struct rtgroup *g)
{
	uint64_t next = UINT64_MAX;
	size_t i;

	for (i = 0; i < g->n; i++) {
		if ((g->running >> i & 1) && g->lanes[i]->next_intended < next)
			next = g->lanes[i]->next_intended;
	}
	return next;
}

uint32_t rtgroup_due(struct rtgroup *g, uint64_t wake_ns, struct edge_rec *recs,
		     uint32_t *levels)
{
	uint32_t mask = 0, lv = 0;
	size_t i;

	for (i = 0; i < g->n; i++) {
		struct rtloop *l = g->lanes[i];

		if (!(g->running >> i & 1) || wake_ns < l->next_intended)
			continue;
		rtloop_account(l, wake_ns, &recs[i]);
		mask |= UINT32_C(1) << i;
		if (l->level)
			lv |= UINT32_C(1) << i;
	}
	*levels = lv;
	return mask;
}

/* One shot, absolute, at the earliest next slot. */
static int arm(struct rtgroup *g)
{
	uint64_t t = rtgroup_next(g);
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };

	its.it_value.tv_sec = (time_t)(t / 1000000000ull);
	its.it_value.tv_nsec = (long)(t % 1000000000ull);
	return timerfd_settime(g->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

/* A stop before slot 0 (seen at the go: a thread that started late; or
 * while it waited for slot 0, hours ahead): no lane has left its idle
 * level, so every lane has ended there, stopped, as its (no) edges say. */
static void stop_before_slot_0(struct rtgroup *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		atomic_store_explicit(&g->lanes[i]->stop_req, true, memory_order_relaxed);
	g->running = 0;
}

void *rtgroup_thread(void *arg)
{
	struct rtgroup *g = arg;
	struct edge_rec recs[32];
	size_t i;

	pthread_setname_np(pthread_self(), "sqwave-rt");
	rtsetup_thread_prefault(g->stack_prefault);
	memset(recs, 0, sizeof(recs));
	while (!atomic_load_explicit(&g->go, memory_order_acquire))
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	for (i = 0; i < g->n; i++)
		g->lanes[i]->next_intended = g->lanes[i]->start_ns;
	/* slot 0 hours ahead: awake to a stop until shortly before it (a stop
	 * before the go is seen at once) */
	if (rtloop_wait_until(g->clock, rtloop_arm_at(rtgroup_next(g)), &g->stop_req)) {
		stop_before_slot_0(g);
		goto out;
	}
	if (arm(g) < 0) {
		g->error = errno;
		goto out;
	}
	while (g->running) {
		struct pollfd pfd = { .fd = g->tfd, .events = POLLIN };
		uint64_t exp, wake, wb, we;
		uint32_t mask, levels;
		bool stop;
		long n;
		int ret;

		if (syscall(SYS_ppoll, &pfd, 1, NULL, NULL, 0) < 0) {
			if (errno == EINTR)
				continue;
			g->error = errno;
			break;
		}
		wake = clock_now_ns(g->clock);
		stop = atomic_load_explicit(&g->stop_req, memory_order_relaxed);
		mask = rtgroup_due(g, wake, recs, &levels);
		wb = clock_now_ns(g->clock);
		ret = mask ? gpio_group_set(g->gpio, mask, levels) : 0;
		we = clock_now_ns(g->clock);
		n = syscall(SYS_read, g->tfd, &exp, sizeof(exp));
		if (n != (long)sizeof(exp) && !(n < 0 && errno == EAGAIN)) {
			g->error = n < 0 ? errno : EIO;
			stop = true;
			atomic_store_explicit(&g->stop_req, true, memory_order_relaxed);
		}
		if (mask)
			atomic_fetch_add_explicit(&g->writes, 1, memory_order_relaxed);
		for (i = 0; i < g->n; i++) {
			struct rtloop *l = g->lanes[i];
			struct edge_rec *rec = &recs[i];
			bool last;

			if (stop)
				atomic_store_explicit(&l->stop_req, true, memory_order_relaxed);
			if (!(mask >> i & 1))
				continue;
			rec->wake_off_ns = edge_off_clamp((int64_t)(wake - rec->intended_ns),
							  &rec->flags);
			rec->write_begin_off_ns = edge_off_clamp((int64_t)(wb - rec->intended_ns),
								 &rec->flags);
			rec->write_end_off_ns = edge_off_clamp((int64_t)(we - rec->intended_ns),
							       &rec->flags);
			if (ret < 0) {
				rec->flags |= EDGE_F_WRITE_ERR;
				atomic_fetch_add_explicit(&l->write_errors, 1, memory_order_relaxed);
				atomic_store_explicit(&l->stop_req, true, memory_order_relaxed);
			}
			last = ret < 0 || rtloop_is_last(l);
			if (last) {
				rec->flags |= EDGE_F_LAST;
				g->running &= ~(UINT32_C(1) << i);
			}
			ring_push(l->ring, rec);
			recorder_bell_ring(l->bell);
			atomic_store_explicit(&l->edges, l->seq, memory_order_release);
		}
		if (!g->ru_started && mask && !(recs[__builtin_ctz(mask)].flags & EDGE_F_WARMUP)) {
			getrusage(RUSAGE_THREAD, &g->ru_start);
			g->ru_started = true;
		}
		if (ret < 0) {
			atomic_store_explicit(&g->stop_req, true, memory_order_relaxed);
		}
		if (!g->running)
			break;
		if (arm(g) < 0) {
			g->error = errno;
			atomic_store_explicit(&g->stop_req, true, memory_order_relaxed);
			break;
		}
	}
out:
	getrusage(RUSAGE_THREAD, &g->ru_end);
	for (i = 0; i < g->n; i++) {
		g->lanes[i]->ru_start = g->ru_start;
		g->lanes[i]->ru_end = g->ru_end;
		g->lanes[i]->ru_started = g->ru_started;
		g->lanes[i]->error = g->error;
		atomic_store_explicit(&g->lanes[i]->done, true, memory_order_release);
	}
	atomic_store_explicit(&g->done, true, memory_order_release);
	return NULL;
}
