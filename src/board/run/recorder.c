/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recorder thread: ring -> log + statistics, event queue -> log. It
 * sleeps on an eventfd between drains (recorder.h says when it wakes). */
#include "run/recorder.h"
#include "base/clock.h"

#include <errno.h>
#include <stdint.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>

#define RECORDER_BATCH 4096
#define RECORDER_SYNC_NS 1000000000ull

struct rec_event {
	struct rec_event *next;
	uint64_t time_ns;
	uint16_t type;
	size_t len;
	unsigned char payload[];
};

struct recorder {
	struct recorder_params p;
	pthread_t tid;
	bool started;
	pthread_mutex_t lock;        /* guards stats (live reads) and the event queue */
	struct rec_event *head, *tail;
	atomic_bool finish;          /* the RT thread has ended: drain and exit */
	atomic_bool log_error;
	atomic_uint_fast64_t records;
	atomic_uint_fast64_t wakeups;
	atomic_uint_fast64_t bell_wakeups; /* of them, by the eventfd (the bell, the finish) */
	struct edge_rec *batch;      /* RECORDER_BATCH records */
	struct recorder_interval iv; /* since the last recorder_interval(); under lock */
	struct recorder_bell bell;
	struct recorder *mirror;     /* events are queued there too (NULL: none) */
};

static void interval_reset(struct recorder_interval *iv)
{
	memset(iv, 0, sizeof(*iv));
	iv->wake_max_ns = INT64_MIN;
	iv->width_min_ns = INT64_MAX;
	iv->width_max_ns = INT64_MIN;
}

/* Under the lock, after the record went into the statistics. */
static void interval_add(struct recorder *r, const struct edge_rec *e)
{
	struct recorder_interval *iv = &r->iv;
	enum edgestats_polarity pol;
	struct edgestats_pulse p;
	int64_t lat;

	if (e->flags & EDGE_F_WARMUP)
		return;
	iv->edges++;
	lat = edgestats_wake_latency(e, r->p.half_period_ns);
	if (lat > iv->wake_max_ns)
		iv->wake_max_ns = lat;
	if (edgestats_last_pulse(r->p.stats, &p, &pol)) {
		iv->pulses++;
		if (p.width_ns < iv->width_min_ns)
			iv->width_min_ns = p.width_ns;
		if (p.width_ns > iv->width_max_ns)
			iv->width_max_ns = p.width_ns;
	}
}

void recorder_interval(struct recorder *r, struct recorder_interval *out)
{
	pthread_mutex_lock(&r->lock);
	*out = r->iv;
	interval_reset(&r->iv);
	pthread_mutex_unlock(&r->lock);
}

struct recorder *recorder_new(const struct recorder_params *p)
{
	struct recorder *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->p = *p;
	if (!r->p.timeout_ns)
		r->p.timeout_ns = RECORDER_TIMEOUT_NS;
	r->batch = calloc(RECORDER_BATCH, sizeof(*r->batch));
	r->bell.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!r->batch || r->bell.efd < 0) {
		int e = errno;

		if (r->bell.efd >= 0)
			close(r->bell.efd);
		free(r->batch);
		free(r);
		errno = e;
		return NULL;
	}
	r->bell.ring = p->ring;
	r->bell.level = p->wake_level ? p->wake_level : ring_capacity(p->ring) / 8;
	if (r->bell.level < 1)
		r->bell.level = 1;
	atomic_init(&r->bell.asleep, false);
	pthread_mutex_init(&r->lock, NULL);
	interval_reset(&r->iv);
	atomic_init(&r->finish, false);
	atomic_init(&r->log_error, false);
	atomic_init(&r->records, 0);
	atomic_init(&r->wakeups, 0);
	atomic_init(&r->bell_wakeups, 0);
	return r;
}

void recorder_free(struct recorder *r)
{
	struct rec_event *e, *next;

	if (!r)
		return;
	for (e = r->head; e; e = next) {
		next = e->next;
		free(e);
	}
	pthread_mutex_destroy(&r->lock);
	close(r->bell.efd);
	free(r->batch);
	free(r);
}

static void fail_log(struct recorder *r)
{
	atomic_store(&r->log_error, true);
	atomic_store(r->p.stop_req, true);
}

/* Write every queued event. */
static void write_events(struct recorder *r)
{
	struct rec_event *e;

	pthread_mutex_lock(&r->lock);
	e = r->head;
	r->head = r->tail = NULL;
	pthread_mutex_unlock(&r->lock);
	while (e) {
		struct rec_event *next = e->next;

		if (!atomic_load(&r->log_error) &&
		    edgelog_writer_append_event(r->p.log, e->time_ns, e->type, e->payload, e->len) < 0)
			fail_log(r);
		free(e);
		e = next;
	}
}

static uint64_t ring_fill(const struct ring *ring)
{
	return atomic_load(&ring->head) - atomic_load(&ring->tail);
}

/* Sleep until the bell, the timeout or recorder_finish(). */
static void recorder_sleep(struct recorder *r)
{
	struct pollfd pfd = { .fd = r->bell.efd, .events = POLLIN };
	uint64_t v;

	/* Announce the sleep, then look at the ring once more: a producer that
	 * filled it past the level before seeing asleep would not ring. */
	atomic_store(&r->bell.asleep, true);
	if (ring_fill(r->p.ring) >= r->bell.level || atomic_load(&r->finish)) {
		atomic_store(&r->bell.asleep, false);
		return;
	}
	poll(&pfd, 1, (int)(r->p.timeout_ns / 1000000));
	atomic_store(&r->bell.asleep, false);
	if (read(r->bell.efd, &v, sizeof(v)) == (ssize_t)sizeof(v))
		atomic_fetch_add(&r->bell_wakeups, 1);
	/* else EAGAIN: woke by the timeout, nothing to clear */
	atomic_fetch_add(&r->wakeups, 1);
}

static void *recorder_thread(void *arg)
{
	struct recorder *r = arg;
	uint64_t last_sync = clock_mono_ns();

	pthread_setname_np(pthread_self(), "sqwave-rec");
	for (;;) {
		/* Read finish before popping: if set, this pop sees every record. */
		bool fin = atomic_load(&r->finish);
		size_t n = ring_pop(r->p.ring, r->batch, RECORDER_BATCH);
		uint64_t now;
		size_t i;

		if (n) {
			if (!atomic_load(&r->log_error) &&
			    edgelog_writer_append(r->p.log, r->batch, n) < 0)
				fail_log(r);
			pthread_mutex_lock(&r->lock);
			for (i = 0; i < n; i++) {
				edgestats_add(r->p.stats, &r->batch[i]);
				if (r->p.phases)
					phasestats_add(r->p.phases, &r->batch[i]);
				interval_add(r, &r->batch[i]);
			}
			pthread_mutex_unlock(&r->lock);
			atomic_fetch_add(&r->records, n);
			if (n == RECORDER_BATCH)
				continue;	/* more waiting: drain first */
		}
		write_events(r);
		if (!n && fin)
			break;
		now = clock_mono_ns();
		if (now - last_sync >= RECORDER_SYNC_NS) {
			if (!atomic_load(&r->log_error) && edgelog_writer_sync(r->p.log) < 0)
				fail_log(r);
			last_sync = now;
		}
		recorder_sleep(r);
	}
	return NULL;
}

int recorder_start(struct recorder *r)
{
	pthread_attr_t attr;
	int err;

	pthread_attr_init(&attr);
	if (r->p.stack_size)
		pthread_attr_setstacksize(&attr, r->p.stack_size);
	err = pthread_create(&r->tid, &attr, recorder_thread, r);
	pthread_attr_destroy(&attr);
	if (!err)
		r->started = true;
	return err;
}

int recorder_event(struct recorder *r, uint64_t time_ns, uint16_t type,
		   const void *payload, size_t len)
{
	struct rec_event *e;

	if (len > EDGELOG_EVENT_MAX_PAYLOAD) {
		errno = EINVAL;
		return -1;
	}
	e = malloc(sizeof(*e) + len);
	if (!e)
		return -1;
	e->next = NULL;
	e->time_ns = time_ns;
	e->type = type;
	e->len = len;
	memcpy(e->payload, payload, len);
	pthread_mutex_lock(&r->lock);
	if (r->tail)
		r->tail->next = e;
	else
		r->head = e;
	r->tail = e;
	pthread_mutex_unlock(&r->lock);
	/* the next line's log has the run's events too */
	return r->mirror ? recorder_event(r->mirror, time_ns, type, payload, len) : 0;
}

void recorder_mirror(struct recorder *r, struct recorder *to)
{
	r->mirror = to;
}

void recorder_live(struct recorder *r, struct edgestats_live *out)
{
	pthread_mutex_lock(&r->lock);
	edgestats_live(r->p.stats, out);
	pthread_mutex_unlock(&r->lock);
}

struct recorder_bell *recorder_bell(struct recorder *r)
{
	return &r->bell;
}

void recorder_finish(struct recorder *r)
{
	uint64_t one = 1;

	if (!r || !r->started)
		return;
	atomic_store(&r->finish, true);
	if (write(r->bell.efd, &one, sizeof(one)) < 0) {
		/* cannot fail on an eventfd short of overflow; the timeout ends it anyway */
	}
	pthread_join(r->tid, NULL);
	r->started = false;
	write_events(r);	/* queued after the thread's last look */
}

uint64_t recorder_records(struct recorder *r)
{
	return atomic_load(&r->records);
}

uint64_t recorder_wakeups(struct recorder *r)
{
	return atomic_load(&r->wakeups);
}

uint64_t recorder_bell_wakeups(struct recorder *r)
{
	return atomic_load(&r->bell_wakeups);
}

bool recorder_log_error(struct recorder *r)
{
	return atomic_load(&r->log_error);
}
