/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The respond loop. Per event: read the clock, write the answer between two
 * clock reads, push a record; in pulse mode sleep to the pulse's end and
 * write idle. No allocation, no locks, no printing, no file I/O. */
#include "rt/respond.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "rt/recorder_bell.h"
#include "rt/rtsetup.h"

void respond_open(struct respond *r)
{
	struct rtloop *l = r->loop;

	rtloop_shared_init(l);
	l->tfd = -1;
	r->seqno = 0;
	r->events = 0;
	r->level = l->idle_level ? 1 : 0;
	r->lost_warmup = 0;
	r->unanswered = 0;
	r->stop_ns = 0;
}

/* The kernel's sequence-number advance to @ev: 1 + the events it lost
 * before it (every event counts one without sequence numbers). */
static uint64_t respond_advance(struct respond *r, const struct gpio_in_event *ev)
{
	uint64_t adv = 1;

	if (ev->seqno) {
		adv = ev->seqno > r->seqno ? ev->seqno - r->seqno : 1;
		r->seqno = ev->seqno;
	}
	return adv;
}

/* @n events the kernel lost before one stamped @t_ns: every one counted,
 * exactly (a record's expirations hold 65,535), warm-up ones apart too. */
static void respond_lost(struct respond *r, uint64_t t_ns, uint64_t n)
{
	struct rtloop *l = r->loop;

	if (t_ns < r->warmup_end_ns)
		r->lost_warmup += n;
	atomic_store_explicit(&l->missed,
			      atomic_load_explicit(&l->missed, memory_order_relaxed) + n,
			      memory_order_relaxed);
}

int respond_account(struct respond *r, const struct gpio_in_event *ev, struct edge_rec *rec)
{
	struct rtloop *l = r->loop;
	/* The kernel numbers every event it saw on the line, those it had to
	 * drop included: a gap is events lost. Without sequence numbers
	 * (libgpiod v1) every event counts one. */
	uint64_t adv = respond_advance(r, ev);

	r->events++;
	switch (r->mode) {
	case RESPOND_FOLLOW:
		r->level = ev->rising ? 1 : 0;
		break;
	case RESPOND_TOGGLE:
		r->level ^= 1;
		break;
	case RESPOND_PULSE:
		r->level = l->idle_level ? 0 : 1;
		break;
	}
	memset(rec, 0, sizeof(*rec));
	rec->seq = l->seq++;
	rec->intended_ns = ev->t_ns;
	rec->level = (uint8_t)r->level;
	if (adv > UINT16_MAX) {
		rec->expirations = UINT16_MAX;
		rec->flags |= EDGE_F_SATURATED;
	} else {
		rec->expirations = (uint16_t)adv;
	}
	if (ev->t_ns < r->warmup_end_ns)
		rec->flags |= EDGE_F_WARMUP;
	respond_lost(r, ev->t_ns, adv - 1);
	return r->level;
}

bool respond_unanswered(struct respond *r, const struct gpio_in_event *ev, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (ev[i].t_ns >= r->stop_ns)
			return true;
		respond_lost(r, ev[i].t_ns, respond_advance(r, &ev[i]) - 1);
		r->unanswered++;
	}
	return false;
}

/* At the stop: what is still queued. The kernel queues events in order, so
 * once one stamped at or after the stop is read, every one before it has
 * been; until then an event stamped before the stop may still be on its way
 * (an interrupt thread that ran late), for up to RESPOND_STOP_GRACE_NS.
 * Bounded: the kernel's buffer is 1024 events, reads are counted. */
static void respond_drain(struct respond *r)
{
	struct rtloop *l = r->loop;
	uint64_t until = clock_now_ns(l->clock) + RESPOND_STOP_GRACE_NS, now;
	int n, reads = 0;

	while (++reads < 4096 && (now = clock_now_ns(l->clock)) < until) {
		n = gpio_in_read(r->in, r->ev, RESPOND_BATCH, (int64_t)(until - now));
		if (n < 0 || (n > 0 && respond_unanswered(r, r->ev, (size_t)n)))
			break;
	}
}

/* Write @rec->level between two clock reads, fill the offsets from
 * @rec->intended_ns, push. false: the write failed (the run stops). */
static bool respond_write(struct respond *r, struct edge_rec *rec, uint64_t wake)
{
	struct rtloop *l = r->loop;
	uint64_t wb, we;
	int ret;

	wb = clock_now_ns(l->clock);
	ret = gpio_out_set(l->gpio, rec->level);
	we = clock_now_ns(l->clock);
	rec->wake_off_ns = edge_off_clamp((int64_t)(wake - rec->intended_ns), &rec->flags);
	rec->write_begin_off_ns = edge_off_clamp((int64_t)(wb - rec->intended_ns), &rec->flags);
	rec->write_end_off_ns = edge_off_clamp((int64_t)(we - rec->intended_ns), &rec->flags);
	if (ret < 0) {
		rec->flags |= EDGE_F_WRITE_ERR | EDGE_F_LAST;
		atomic_fetch_add_explicit(&l->write_errors, 1, memory_order_relaxed);
		atomic_store_explicit(&l->stop_req, true, memory_order_relaxed);
	}
	if (!l->ru_started && !(rec->flags & EDGE_F_WARMUP)) {
		getrusage(RUSAGE_THREAD, &l->ru_start);
		l->ru_started = true;
	}
	ring_push(l->ring, rec);
	recorder_bell_ring(l->bell);
	atomic_store_explicit(&l->edges, l->seq, memory_order_release);
	return ret >= 0;
}

/* A write that answers no event, due at @due_ns: a pulse's end (after an
 * absolute sleep to it) or the return to idle. */
static bool respond_noevent(struct respond *r, uint64_t due_ns, bool sleep, uint8_t flags)
{
	struct rtloop *l = r->loop;
	struct edge_rec rec;
	uint64_t wake;

	if (sleep) {
		struct timespec ts = { .tv_sec = (time_t)(due_ns / 1000000000u),
				       .tv_nsec = (long)(due_ns % 1000000000u) };

		while (clock_nanosleep(l->clock, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	wake = clock_now_ns(l->clock);
	if (!sleep && due_ns > wake)
		due_ns = wake;
	r->level = l->idle_level ? 1 : 0;
	memset(&rec, 0, sizeof(rec));
	rec.seq = l->seq++;
	rec.intended_ns = due_ns;
	rec.level = (uint8_t)r->level;
	rec.expirations = 1;
	rec.flags = EDGE_F_NOEVENT | flags;
	if (due_ns < r->warmup_end_ns)
		rec.flags |= EDGE_F_WARMUP;
	return respond_write(r, &rec, wake);
}

/* Answer one event read at @wake. false: stop. */
static bool respond_one(struct respond *r, const struct gpio_in_event *ev, uint64_t wake)
{
	struct rtloop *l = r->loop;
	struct edge_rec rec;

	respond_account(r, ev, &rec);
	if (!respond_write(r, &rec, wake))
		return false;
	/* --break: how late the thread woke for this event (the part a
	 * trace explains); an answer has no pulse width to judge. */
	tracebreak_rt_check(l->brk, rec.seq, rec.intended_ns, rec.wake_off_ns, INT64_MIN,
			    0, rec.flags & EDGE_F_WARMUP);
	/* The pulse lasts its width from the answer's write, however late that
	 * was: a latency box must see every acknowledgement. Its end belongs
	 * with its answer: a warm-up answer's end is warm-up too, even when
	 * due after the warm-up (a counted record may not come before a
	 * warm-up one, and the next event may still be in the warm-up). */
	if (r->mode == RESPOND_PULSE)
		return respond_noevent(r, edge_write_end_ns(&rec) + (uint64_t)r->pulse_ns, true,
				       rec.flags & EDGE_F_WARMUP);
	return true;
}

void *respond_thread(void *arg)
{
	struct respond *r = arg;
	struct rtloop *l = r->loop;

	pthread_setname_np(pthread_self(), "sqwave-rt");
	rtsetup_thread_prefault(l->stack_prefault);
	/* Before the loop: waiting may sleep, nothing here is timed. */
	while (!atomic_load_explicit(&l->go, memory_order_acquire))
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);

	while (!atomic_load_explicit(&l->stop_req, memory_order_relaxed)) {
		int n = gpio_in_read(r->in, r->ev, RESPOND_BATCH, RESPOND_POLL_NS);
		uint64_t wake = clock_now_ns(l->clock);
		int i;

		if (n < 0) {
			l->error = errno;
			break;
		}
		for (i = 0; i < n; i++) {
			if (r->end_ns && r->ev[i].t_ns >= r->end_ns)
				break;
			if (!respond_one(r, &r->ev[i], wake)) {
				/* the write failed: the run stops here, the rest
				 * of the batch unanswered */
				r->stop_ns = clock_now_ns(l->clock);
				respond_unanswered(r, &r->ev[i + 1], (size_t)(n - i - 1));
				goto out;
			}
		}
		if (r->end_ns && (wake >= r->end_ns || i < n))
			break;
	}
	/* the run's end, or when the loop stopped before it */
	r->stop_ns = clock_now_ns(l->clock);
	if (r->end_ns && r->end_ns < r->stop_ns)
		r->stop_ns = r->end_ns;
	/* Back to idle, in the log like every other transition. */
	if (r->level != (l->idle_level ? 1 : 0))
		respond_noevent(r, clock_now_ns(l->clock), false, EDGE_F_LAST);
out:
	/* The events stamped before the stop that no answer took: counted,
	 * not left in the queue unseen. */
	if (!l->error)
		respond_drain(r);
	getrusage(RUSAGE_THREAD, &l->ru_end);
	atomic_store_explicit(&l->done, true, memory_order_release);
	return NULL;
}
