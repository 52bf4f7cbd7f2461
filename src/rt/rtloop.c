/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RT loop. Per edge: wait for the timerfd, read the clock, (spin mode:
 * read it until the deadline), write the line between two clock reads, push
 * a record, bump counters. Nothing else: no allocation, no locks, no
 * printing, no file I/O. */
#include "rt/rtloop.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "rt/recorder_bell.h"
#include "rt/rtsetup.h"
#include "base/clock.h"

static void auto_window_reset(struct rtloop *l, uint32_t size)
{
	int i;

	l->win_n = 0;
	l->win_size = size;
	for (i = 0; i < RTLOOP_AUTO_TOP; i++)
		l->top[i] = INT64_MIN;
}

void rtloop_shared_init(struct rtloop *l)
{
	atomic_init(&l->go, false);
	atomic_init(&l->stop_req, false);
	atomic_init(&l->done, false);
	atomic_init(&l->edges, 0);
	atomic_init(&l->missed, 0);
	atomic_init(&l->write_errors, 0);
	atomic_init(&l->late, 0);
	atomic_init(&l->tl_state, RTLOOP_TL_IDLE);
	l->tl_fd = -1;
	l->error = 0;
	l->ru_started = false;
	l->seq = 0;
}

int rtloop_prepare(struct rtloop *l)
{
	rtloop_shared_init(l);
	l->served = 0;
	l->next_intended = l->start_ns;
	l->level = l->idle_level ? 1 : 0;
	l->stopping = false;
	l->rearms = 0;
	l->last_lat = 0;
	if (!l->wave.high_ns && !l->wave.low_ns)
		l->wave = wave_square(l->half_ns);
	l->duty = !wave_is_square(&l->wave);
	if (l->wave.high_ns <= 0 || l->wave.low_ns <= 0 ||
	    wave_period(&l->wave) != 2 * (uint64_t)l->half_ns ||
	    (l->duty && (l->spin_ns || l->spin_auto || l->tl_path))) {
		l->tfd = -1;
		errno = EINVAL;
		return -1;
	}
	/* A lead of half the half period or more would leave the loop no time
	 * between a spin and the next wake-up (the run session allows a quarter). */
	if (l->spin_ns < 0 || (l->spin_ns && l->spin_ns >= l->half_ns / 2) ||
	    (l->spin_auto && (l->spin_max_ns <= 0 || l->spin_max_ns >= l->half_ns / 2))) {
		l->tfd = -1;
		errno = EINVAL;
		return -1;
	}
	l->lead = l->spin_auto ? l->spin_max_ns : l->spin_ns;
	if (l->spin_auto && l->spin_ns > 0 && l->spin_ns <= l->spin_max_ns)
		l->lead = l->spin_ns;
	l->lead_next = l->lead;
	l->lead_min_ns = l->lead_max_ns = l->lead;
	auto_window_reset(l, RTLOOP_AUTO_FIRST);
	l->tfd = -1;
	if (l->tl_path && (l->lead || l->spin_auto || l->tl_arm_reads < 1)) {
		errno = EINVAL;	/* the kernel's timer: no timerfd, no spin */
		return -1;
	}
	return 0;
}

int rtloop_open(struct rtloop *l)
{
	if (rtloop_prepare(l) < 0)
		return -1;
	if (l->tl_path)
		return 0;
	l->tfd = timerfd_create(l->clock, TFD_CLOEXEC);
	return l->tfd < 0 ? -1 : 0;
}

void rtloop_close(struct rtloop *l)
{
	if (l->tfd >= 0)
		close(l->tfd);
	l->tfd = -1;
}

uint64_t rtloop_account(struct rtloop *l, uint64_t wake_ns, struct edge_rec *rec)
{
	uint64_t slot = l->served, intended = l->next_intended, advance;
	uint64_t half = (uint64_t)l->half_ns;
	/* The first unserved slot's wake-up time: intended - lead. */
	uint64_t due = intended - (uint64_t)l->lead;

	l->last_lat = (int64_t)(wake_ns - due);
	/* Serve the latest slot already due at the wake-up. On time (the
	 * common case) nothing is computed; the division is for wake-ups a
	 * whole half period or more behind. */
	if (l->duty) {
		/* The next slot is due too: the latest due one whose level
		 * the line needs (an even number of slots on). */
		if (wake_ns >= due + wave_seg(&l->wave, !l->level)) {
			uint64_t k = wave_slot_at(&l->wave, l->idle_level, l->start_ns,
						  wake_ns + (uint64_t)l->lead);

			if ((k - slot) & 1)
				k--;
			slot = k;
			intended = wave_slot_ns(&l->wave, l->idle_level, l->start_ns, k);
		}
		l->next_intended = intended + wave_seg(&l->wave, !l->level);
	} else {
		if (wake_ns >= due + half) {
			uint64_t behind = (wake_ns - due) / half;

			slot += behind;
			intended += behind * half;
		}
		l->next_intended = intended + half;
	}
	advance = slot + 1 - l->served;
	l->served = slot + 1;
	l->level ^= 1;

	rec->seq = l->seq++;
	rec->intended_ns = intended;
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
	return intended;
}

uint64_t rtloop_spin_until(const struct rtloop *l, uint64_t wake_ns, uint64_t intended_ns)
{
	uint64_t limit = wake_ns + (uint64_t)l->lead;

	/* The deadline is at most a lead away (its slot was due); the lead
	 * only keeps a spin from ever outlasting it. */
	return limit > intended_ns ? intended_ns : limit;
}

uint64_t rtloop_spin(struct rtloop *l, uint64_t wake_ns, uint64_t intended_ns, uint8_t *flags)
{
	uint64_t t = wake_ns, limit;

	*flags |= EDGE_F_SPIN;
	if (wake_ns >= intended_ns) {
		*flags |= EDGE_F_LATE;
		atomic_store_explicit(&l->late,
				      atomic_load_explicit(&l->late, memory_order_relaxed) + 1,
				      memory_order_relaxed);
		return wake_ns;
	}
	limit = rtloop_spin_until(l, wake_ns, intended_ns);
	while (t < limit)
		t = clock_now_ns(l->clock);
	return t;
}

void rtloop_auto_add(struct rtloop *l, int64_t lat)
{
	int i, k;
	uint64_t rank;
	int64_t p999, lead;

	if (lat > l->top[RTLOOP_AUTO_TOP - 1]) {
		for (i = RTLOOP_AUTO_TOP - 1; i > 0 && l->top[i - 1] < lat; i--)
			l->top[i] = l->top[i - 1];
		l->top[i] = lat;
	}
	if (++l->win_n < l->win_size)
		return;
	/* Nearest rank of p99.9 in the window, counted from the top: 5th of
	 * 4,096, 2nd of 1,024 (ceil(0.999 n) = n - k + 1). */
	rank = ((uint64_t)l->win_size * 999 + 999) / 1000;
	k = (int)(l->win_size - rank);
	if (k >= RTLOOP_AUTO_TOP)
		k = RTLOOP_AUTO_TOP - 1;
	p999 = l->top[k] > 0 ? l->top[k] : 0;
	lead = p999 + p999 / 8 + 1000;
	if (lead > l->spin_max_ns)
		lead = l->spin_max_ns;
	/* Grow at once (a wake-up later than the lead is an edge written
	 * late); shrink only when clearly lower, so the timer is not re-armed
	 * every window for nothing. */
	if (lead > l->lead || lead < l->lead - l->lead / 4)
		l->lead_next = lead;
	auto_window_reset(l, RTLOOP_AUTO_WINDOW);
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

/* Arm the timer: the wake-up of slot `served` (its intended time minus the
 * lead), then every half period; with a duty cycle that slot alone (re-armed
 * after each edge). Absolute, on the grid. */
static int arm(struct rtloop *l, int64_t lead)
{
	uint64_t first = l->next_intended - (uint64_t)lead;
	struct itimerspec its;

	its.it_value.tv_sec = (time_t)(first / 1000000000ull);
	its.it_value.tv_nsec = (long)(first % 1000000000ull);
	its.it_interval.tv_sec = l->duty ? 0 : (time_t)(l->half_ns / 1000000000ll);
	its.it_interval.tv_nsec = l->duty ? 0 : (long)(l->half_ns % 1000000000ll);
	return timerfd_settime(l->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

/* timerlat, before the go: open rt.cpu's timerlat_fd from this thread
 * (pinned there) once asked, and read a few activations, so the kernel's
 * grid has begun and the tracer has stamped it (run/tlatrun.h places slot 0
 * on it). The grid then runs on: a later read waits for its next point. */
static void tl_arm(struct rtloop *l)
{
	char b;
	int i, st;

	while ((st = atomic_load_explicit(&l->tl_state, memory_order_acquire)) == RTLOOP_TL_IDLE &&
	       !atomic_load_explicit(&l->stop_req, memory_order_relaxed))
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	if (st != RTLOOP_TL_ARM)
		return;
	l->tl_fd = open(l->tl_path, O_RDONLY | O_CLOEXEC);
	if (l->tl_fd < 0) {
		atomic_store_explicit(&l->tl_state, -errno, memory_order_release);
		return;
	}
	for (i = 0; i < l->tl_arm_reads; i++) {
		if (read(l->tl_fd, &b, 1) < 0 && errno != EINTR) {
			atomic_store_explicit(&l->tl_state, -errno, memory_order_release);
			return;
		}
	}
	atomic_store_explicit(&l->tl_state, RTLOOP_TL_ARMED, memory_order_release);
}

/* Wait for the next wake-up: the timerfd (ppoll; its read() comes after the
 * write), or timerlat_fd's read(), which returns at the kernel timer's next
 * activation. 0, or -1 with errno. */
static int wait_next(struct rtloop *l)
{
	if (l->tl_fd >= 0) {
		char b;

		return syscall(SYS_read, l->tl_fd, &b, 1) < 0 ? -1 : 0;
	} else {
		struct pollfd pfd = { .fd = l->tfd, .events = POLLIN };

		return syscall(SYS_ppoll, &pfd, 1, NULL, NULL, 0) < 0 ? -1 : 0;
	}
}

bool rtloop_wait_until(clockid_t clk, uint64_t t, atomic_bool *stop)
{
	for (;;) {
		uint64_t now, d;

		if (atomic_load_explicit(stop, memory_order_relaxed))
			return true;
		now = clock_now_ns(clk);
		if (now >= t)
			return false;
		d = t - now < RTLOOP_START_POLL_NS ? t - now : RTLOOP_START_POLL_NS;
		nanosleep(&(struct timespec){ .tv_sec = (time_t)(d / 1000000000ull),
					      .tv_nsec = (long)(d % 1000000000ull) }, NULL);
	}
}

void *rtloop_thread(void *arg)
{
	struct rtloop *l = arg;
	struct edge_rec rec;

	pthread_setname_np(pthread_self(), "sqwave-rt");
	rtsetup_thread_prefault(l->stack_prefault);
	memset(&rec, 0, sizeof(rec));
	/* Before the loop: waiting may sleep, nothing here is timed. */
	if (l->tl_path)
		tl_arm(l);
	while (!atomic_load_explicit(&l->go, memory_order_acquire))
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	if (atomic_load_explicit(&l->stop_req, memory_order_relaxed))
		goto out;

	l->next_intended = l->start_ns;
	l->prev_mid = 0;
	/* slot 0 hours ahead: awake to a stop until shortly before it
	 * (timerlat's slot 0 is always near: its grid is already running) */
	if (!l->tl_path && rtloop_wait_until(l->clock, rtloop_arm_at(l->start_ns - (uint64_t)l->lead),
					     &l->stop_req))
		goto out;
	if (l->tl_path ? l->tl_fd < 0 : arm(l, l->lead) < 0) {
		l->error = l->tl_path ? EBADF : errno;
		goto out;
	}

	for (;;) {
		uint64_t exp, wake, intended, wb, we;
		long n;
		int ret;
		bool last;

		/* Wake on ppoll(), write the edge, and only then read() the
		 * expirations: reading a periodic timerfd re-arms its hrtimer in
		 * the kernel, and that cost must not sit between the wake-up
		 * and the edge (docs/benchmarks.md). The slot comes from the
		 * wake-up time, not from the count. Raw syscalls: this thread
		 * is never cancelled, so libc's cancellation-point bookkeeping
		 * (~30 instructions per call) is skipped. */
		if (wait_next(l) < 0) {
			if (errno == EINTR)
				continue;
			l->error = errno;
			break;
		}
		wake = clock_now_ns(l->clock);
		/* timerlat: activations of the kernel's grid before slot 0
		 * (the grid ran on since the arming) write nothing */
		if (l->tl_fd >= 0 && wake + (uint64_t)l->half_ns / 2 < l->next_intended)
			continue;
		intended = rtloop_account(l, wake, &rec);
		if (l->lead)
			wb = rtloop_spin(l, wake, intended, &rec.flags);
		else
			wb = clock_now_ns(l->clock);
		ret = gpio_out_set(l->gpio, l->level);
		we = clock_now_ns(l->clock);
		n = l->tl_fd >= 0 ? (long)sizeof(exp) : syscall(SYS_read, l->tfd, &exp, sizeof(exp));
		if (n != (long)sizeof(exp)) {
			/* Cannot happen after poll() said readable; the edge was
			 * written, so log it and stop. */
			l->error = n < 0 ? errno : EIO;
			atomic_store_explicit(&l->stop_req, true, memory_order_relaxed);
		}

		rec.wake_off_ns = edge_off_clamp((int64_t)(wake - intended), &rec.flags);
		rec.write_begin_off_ns = edge_off_clamp((int64_t)(wb - intended), &rec.flags);
		rec.write_end_off_ns = edge_off_clamp((int64_t)(we - intended), &rec.flags);
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
		recorder_bell_ring(l->bell);
		atomic_store_explicit(&l->edges, l->seq, memory_order_release);
		if (l->brk) {
			/* --break: this edge's latency (from the first deadline
			 * without an edge) and the pulse it ended, against the
			 * threshold; a crossing only rings an eventfd. */
			uint64_t mid = wb / 2 + we / 2;

			tracebreak_rt_check_wave(l->brk, rec.seq, intended,
						 (int64_t)(wake - intended) +
							 (int64_t)(rec.expirations - 1) * l->half_ns,
						 l->prev_mid && !(rec.flags & EDGE_F_WARMUP)
							 ? (int64_t)(mid - l->prev_mid) : INT64_MIN,
						 &l->wave, rec.level, rec.flags & EDGE_F_WARMUP);
			l->prev_mid = mid;
		}
		if (last)
			break;
		/* Duty cycle: the next slot, absolute, after the write. */
		if (l->duty && arm(l, 0) < 0) {
			l->error = errno;
			atomic_store_explicit(&l->stop_req, true, memory_order_relaxed);
			break;
		}

		/* Between edges: the automatic lead, and a re-arm when it
		 * changes (the next slot's new wake-up time; if already past,
		 * the timer fires at once and the edge is still on time). */
		if (l->spin_auto) {
			rtloop_auto_add(l, l->last_lat);
			if (l->lead_next != l->lead) {
				if (arm(l, l->lead_next) < 0) {
					/* the old schedule still runs: end on it */
					l->error = errno;
					l->lead_next = l->lead;
					atomic_store_explicit(&l->stop_req, true,
							      memory_order_relaxed);
				} else {
					l->lead = l->lead_next;
					if (l->lead < l->lead_min_ns)
						l->lead_min_ns = l->lead;
					if (l->lead > l->lead_max_ns)
						l->lead_max_ns = l->lead;
					l->rearms++;
				}
			}
		}
	}
out:
	getrusage(RUSAGE_THREAD, &l->ru_end);
	if (l->tl_fd >= 0) {	/* after the loop: the kernel cancels its timer */
		close(l->tl_fd);
		l->tl_fd = -1;
	}
	atomic_store_explicit(&l->done, true, memory_order_release);
	return NULL;
}
