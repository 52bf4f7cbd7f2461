/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loopback input, a scope inside the board: which write each kernel edge
 * event belongs to (check), and a non-RT thread that logs the events next to
 * the edges during a run. */
#include "run/loopback.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config/config.h"
#include "log/edgelog.h"
#include "run/recorder.h"
#include "base/clock.h"

struct gpio_in *loopback_input_open(const struct config *c, char *err, size_t errlen)
{
	struct gpio_in_spec s = {
		.backend = (enum gpio_backend)config_choice(c, CFG_GPIO_BACKEND),
		.chip = config_str(c, CFG_LOOPBACK_CHIP),
		.line = config_str(c, CFG_LOOPBACK_LINE),
		.consumer = "sqwave-loopback",
		.edges = true,
		.event_buffer = 1024,   /* the kernel's cap: ride out a late reader */
		.config = c,
	};

	if (!s.chip[0] && !s.line[0]) {
		if (err && errlen)
			err[0] = '\0';
		errno = ENOENT;
		return NULL;
	}
	return gpio_in_open(&s, err, errlen);
}

/* ---- matching --------------------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank, as the run's statistics report percentiles. */
static int64_t pct(const int64_t *sorted, size_t n, double p)
{
	size_t rank;

	if (!n)
		return 0;
	rank = (size_t)(p / 100.0 * (double)n + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

/* The last write that began at or before @t, or -1. */
static long write_before(const struct loopback_write *w, size_t nw, uint64_t t)
{
	size_t lo = 0, hi = nw;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w[mid].begin_ns <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

int loopback_match(const struct loopback_write *w, size_t nw, const struct gpio_in_event *ev,
		   size_t ne, int level0, int64_t grace_ns, struct loopback_result *res)
{
	int64_t *lb = NULL, *le = NULL;
	uint64_t prev_seq = 0;
	bool *has = NULL;
	size_t j, m = 0;

	memset(res, 0, sizeof(*res));
	res->writes = nw;
	res->events = ne;
	res->first_missing_seq = UINT64_MAX;
	has = calloc(nw ? nw : 1, sizeof(*has));
	lb = malloc((ne ? ne : 1) * sizeof(*lb));
	le = malloc((ne ? ne : 1) * sizeof(*le));
	if (!has || !lb || !le) {
		free(has);
		free(lb);
		free(le);
		errno = ENOMEM;
		return -1;
	}
	/* Polarity is judged before the first write that lost its event: after
	 * a lost edge the count of edges, hence the derived level, is off by
	 * one for good, which says nothing about the wire's polarity. */
	for (j = 0; j < ne; j++) {
		uint64_t t = ev[j].t_ns, seq = ev[j].seqno;
		int derived;
		long k;

		if (seq) {
			if (seq > prev_seq + 1)
				res->kernel_dropped += seq - prev_seq - 1;
			if (seq > prev_seq)
				prev_seq = seq;
		}
		/* The kernel reads the level back in a thread, so the reported
		 * type can be wrong for a short pulse: count edges instead. */
		derived = level0 ^ (int)((seq ? seq : j + 1) & 1);
		k = write_before(w, nw, t);
		if (k < 0 || has[k] ||
		    ((size_t)k == nw - 1 && t > w[k].end_ns + (uint64_t)grace_ns)) {
			res->extra++;
			continue;
		}
		has[k] = true;
		res->matched++;
		lb[m] = (int64_t)(t - w[k].begin_ns);
		le[m] = (int64_t)t - (int64_t)w[k].end_ns;
		m++;
		if (derived != w[k].value && (size_t)k < res->matched + res->kernel_dropped)
			res->polarity_mismatch++;
	}
	res->missing = nw - res->matched;
	for (j = 0; j < nw; j++) {
		if (!has[j]) {
			res->first_missing_seq = w[j].seq;
			break;
		}
	}
	if (m) {
		qsort(lb, m, sizeof(*lb), cmp_i64);
		qsort(le, m, sizeof(*le), cmp_i64);
		res->from_begin_min = lb[0];
		res->from_begin_p50 = pct(lb, m, 50);
		res->from_begin_p99 = pct(lb, m, 99);
		res->from_begin_max = lb[m - 1];
		res->from_end_p50 = pct(le, m, 50);
		res->from_end_p99 = pct(le, m, 99);
		res->from_end_max = le[m - 1];
	}
	if (!ne && nw)
		res->verdict = LOOPBACK_NOT_WIRED;
	else if (res->matched * 2 < nw)
		res->verdict = LOOPBACK_OTHER_LINE;
	else if (res->missing)
		res->verdict = LOOPBACK_LOST;
	else
		res->verdict = LOOPBACK_OK;
	free(has);
	free(lb);
	free(le);
	return 0;
}

/* ---- recording --------------------------------------------------------------------- */

#define LB_BATCH 1024                  /* pairs per log event (16 KiB) */
#define LB_FLUSH_NS 250000000ll        /* or a quarter second after the first */
#define LB_POLL_NS 50000000ll

struct loopback_reader {
	struct gpio_in *in;
	struct recorder *rec;
	pthread_t tid;
	atomic_bool stop;
	atomic_uint_fast64_t target;      /* edges the output wrote, set at stop */
	int64_t grace_ns;
	/* the thread's own */
	uint64_t seen;                     /* edges the kernel saw (highest index + 1) */
	uint64_t logged, dropped, unlogged;
	uint64_t prev_seq;
	uint64_t pairs[2 * LB_BATCH];
	size_t npairs;
	int64_t batch_started;
	struct gpio_in_event ev[64];
};

static void lb_flush(struct loopback_reader *lr)
{
	if (!lr->npairs)
		return;
	/* The event's time is its first edge's; the log is little-endian and
	 * so is every target sqwave builds for (edgelog.h refuses others). */
	if (recorder_event(lr->rec, lr->pairs[1], EDGELOG_EV_LOOPBACK, lr->pairs,
			   lr->npairs * 2 * sizeof(uint64_t)) == 0)
		lr->logged += lr->npairs;
	else
		lr->unlogged += lr->npairs;
	lr->npairs = 0;
}

static void *lb_thread(void *arg)
{
	struct loopback_reader *lr = arg;
	int64_t idle_since = 0;

	for (;;) {
		int n = gpio_in_read(lr->in, lr->ev, sizeof(lr->ev) / sizeof(lr->ev[0]),
				     LB_POLL_NS);
		int64_t now = (int64_t)clock_mono_ns();
		int i;

		for (i = 0; i < n; i++) {
			uint64_t seq = lr->ev[i].seqno, idx;

			/* The pairing rule (loopback.h, docs/log-format.md). */
			if (seq) {
				if (seq > lr->prev_seq + 1)
					lr->dropped += seq - lr->prev_seq - 1;
				if (seq > lr->prev_seq)
					lr->prev_seq = seq;
				idx = seq - 1;
			} else {
				idx = lr->seen;
			}
			if (idx + 1 > lr->seen)
				lr->seen = idx + 1;
			if (!lr->npairs)
				lr->batch_started = now;
			lr->pairs[2 * lr->npairs] = idx;
			lr->pairs[2 * lr->npairs + 1] = lr->ev[i].t_ns;
			if (++lr->npairs == LB_BATCH)
				lb_flush(lr);
		}
		if (lr->npairs && now - lr->batch_started >= LB_FLUSH_NS)
			lb_flush(lr);
		if (n < 0 && errno != EINTR)
			break;   /* the line is gone: nothing more will come */
		if (n > 0)
			idle_since = now;
		if (!atomic_load(&lr->stop))
			continue;
		if (!idle_since)
			idle_since = now;
		if (lr->seen >= atomic_load(&lr->target) || now - idle_since >= lr->grace_ns)
			break;
	}
	lb_flush(lr);
	return NULL;
}

struct loopback_reader *loopback_reader_start(struct gpio_in *in, struct recorder *rec,
					      size_t stack_size)
{
	struct loopback_reader *lr = calloc(1, sizeof(*lr));
	pthread_attr_t attr;
	int err;

	if (!lr)
		return NULL;
	lr->in = in;
	lr->rec = rec;
	atomic_store(&lr->target, UINT64_MAX);
	pthread_attr_init(&attr);
	if (stack_size)
		pthread_attr_setstacksize(&attr, stack_size);
	err = pthread_create(&lr->tid, &attr, lb_thread, lr);
	pthread_attr_destroy(&attr);
	if (err) {
		free(lr);
		errno = err;
		return NULL;
	}
	return lr;
}

uint64_t loopback_reader_stop(struct loopback_reader *lr, uint64_t edges, int64_t grace_ns,
			      uint64_t *dropped, uint64_t *unlogged)
{
	uint64_t logged;

	if (!lr) {
		if (dropped)
			*dropped = 0;
		if (unlogged)
			*unlogged = 0;
		return 0;
	}
	lr->grace_ns = grace_ns;
	atomic_store(&lr->target, edges);
	atomic_store(&lr->stop, true);
	pthread_join(lr->tid, NULL);
	logged = lr->logged;
	if (dropped)
		*dropped = lr->dropped;
	if (unlogged)
		*unlogged = lr->unlogged;
	free(lr);
	return logged;
}
