/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the recorder thread: every record the ring held and every
 * event queued reach the log, in order, and the statistics see every record. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/recorder.h"

static char path[64];

static int make_path(void **state)
{
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/sqwave-test-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int remove_path(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static struct edge_rec rec_for(uint64_t i)
{
	struct edge_rec e = { 0 };

	e.seq = i;
	e.intended_ns = 5000000000ull + i * 500000ull;
	e.wake_off_ns = 1000;
	e.write_begin_off_ns = 1500;
	e.write_end_off_ns = 2500;
	e.expirations = 1;
	e.level = (uint8_t)((i + 1) & 1);
	return e;
}

/* Read the log's raw blocks after the header: count edges and events, and
 * check each event's payload. */
static void scan_log(uint64_t *edges, uint64_t *events, char *first_payload, size_t len)
{
	FILE *f = fopen(path, "rb");
	struct edgelog_fixed_header h;
	unsigned char block[32];

	assert_non_null(f);
	assert_int_equal(fread(&h, 1, sizeof(h), f), sizeof(h));
	assert_int_equal(fseek(f, (long)h.records_offset, SEEK_SET), 0);
	*edges = *events = 0;
	first_payload[0] = '\0';
	while (fread(block, 1, 32, f) == 32) {
		uint64_t seq;

		memcpy(&seq, block, 8);
		if (seq == UINT64_MAX)
			break;	/* footer */
		if (seq == EDGELOG_EVENT_MARKER) {
			struct edgelog_event_header eh;
			size_t blocks;
			char *p;

			memcpy(&eh, block, sizeof(eh));
			blocks = (eh.len + 31) / 32;
			p = calloc(1, blocks * 32 + 1);
			assert_int_equal(fread(p, 32, blocks, f), blocks);
			if (!*events)
				snprintf(first_payload, len, "%.*s", (int)eh.len, p);
			free(p);
			(*events)++;
			continue;
		}
		assert_int_equal(seq, *edges);	/* edges in order, none lost */
		(*edges)++;
	}
	fclose(f);
}

static void every_record_and_event_reaches_the_log(void **state)
{
	struct ring ring;
	struct edgelog_meta m = { .clock_id = 1, .half_period_ns = 500000, .start_ns = 5000000000ull,
				  .text = (char *)"k=v\n" };
	struct edgelog_footer ft = { 0 };
	struct edgelog_writer *w;
	struct edgestats *s = edgestats_new(500000);
	struct edgestats_live live;
	struct recorder *r;
	atomic_bool stop;
	uint64_t i, edges, events;
	char first[64];

	(void)state;
	atomic_init(&stop, false);
	assert_int_equal(ring_init(&ring, 1024), 0);
	w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	assert_non_null(w);
	r = recorder_new(&(struct recorder_params){ .ring = &ring, .log = w, .stats = s,
						    .stop_req = &stop });
	assert_non_null(r);
	assert_int_equal(recorder_start(r), 0);
	for (i = 0; i < 5000; i++) {
		struct edge_rec e = rec_for(i);

		while (ring_push(&ring, &e) < 0) {
			/* a full ring would drop: wait for the recorder instead */
			usleep(100);
			ring.dropped = 0;
		}
		recorder_bell_ring(recorder_bell(r));	/* as the RT thread does */
		if (i == 10)
			assert_int_equal(recorder_event(r, 1, EDGELOG_EV_NOTE, "phase=one\n", 10), 0);
		if (i == 4000)
			assert_int_equal(recorder_event(r, 2, EDGELOG_EV_NOTE, "x", 1), 0);
	}
	assert_int_equal(recorder_event(r, 3, EDGELOG_EV_NOTE, "last", 4), 0);
	recorder_finish(r);
	assert_int_equal(recorder_records(r), 5000);
	assert_false(recorder_log_error(r));
	recorder_live(r, &live);
	assert_int_equal(live.edges, 5000);
	assert_int_equal(edgelog_writer_close(w, &ft, NULL, 0), 0);
	scan_log(&edges, &events, first, sizeof(first));
	assert_int_equal(edges, 5000);
	assert_int_equal(events, 3);
	assert_string_equal(first, "phase=one\n");
	recorder_free(r);
	edgestats_free(s);
	ring_free(&ring);
}

/* The recorder sleeps for its timeout (here a minute) unless the ring fills
 * past the bell's level: then the producer's bell wakes it. Below the level
 * nothing is rung and nothing is drained. */
static void a_ring_filled_past_the_level_wakes_the_sleeping_recorder(void **state)
{
	struct ring ring;
	struct edgelog_meta m = { .clock_id = 1, .half_period_ns = 500000, .start_ns = 5000000000ull,
				  .text = (char *)"k=v\n" };
	struct edgelog_footer ft = { 0 };
	struct edgelog_writer *w;
	struct edgestats *s = edgestats_new(500000);
	struct recorder *r;
	atomic_bool stop;
	uint64_t i, woke, bell;

	(void)state;
	atomic_init(&stop, false);
	assert_int_equal(ring_init(&ring, 1024), 0);
	w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	assert_non_null(w);
	r = recorder_new(&(struct recorder_params){ .ring = &ring, .log = w, .stats = s,
						    .stop_req = &stop, .wake_level = 100,
						    .timeout_ns = 60000000000ll });
	assert_non_null(r);
	assert_int_equal(recorder_bell(r)->level, 100);
	assert_int_equal(recorder_start(r), 0);
	/* let it go to sleep */
	while (!atomic_load(&recorder_bell(r)->asleep))
		usleep(1000);
	woke = recorder_wakeups(r);
	bell = recorder_bell_wakeups(r);
	for (i = 0; i < 99; i++) {
		struct edge_rec e = rec_for(i);

		assert_int_equal(ring_push(&ring, &e), 0);
		recorder_bell_ring(recorder_bell(r));
	}
	usleep(50000);
	assert_int_equal(recorder_wakeups(r), woke);	/* below the level: asleep */
	assert_int_equal(recorder_records(r), 0);
	{
		struct edge_rec e = rec_for(99);

		assert_int_equal(ring_push(&ring, &e), 0);
		recorder_bell_ring(recorder_bell(r));
	}
	/* The bell woke it, not the minute's timeout: counted, not timed (this
	 * wait ends with the bell or, were the bell broken, with the timeout) */
	while (recorder_records(r) < 100)
		usleep(1000);
	assert_int_equal(recorder_records(r), 100);
	assert_int_equal(recorder_wakeups(r), woke + 1);
	assert_int_equal(recorder_bell_wakeups(r), bell + 1);
	/* finishing wakes it too, by its eventfd: every wake-up since the
	 * bell's (one, or none if it had not gone back to sleep) is the
	 * eventfd's, none the timeout's */
	recorder_finish(r);
	assert_int_equal(recorder_wakeups(r) - woke, recorder_bell_wakeups(r) - bell);
	assert_int_equal(edgelog_writer_close(w, &ft, NULL, 0), 0);
	recorder_free(r);
	edgestats_free(s);
	ring_free(&ring);
}

static void an_oversized_event_is_refused(void **state)
{
	struct ring ring;
	atomic_bool stop;
	struct recorder *r;
	static char big[EDGELOG_EVENT_MAX_PAYLOAD + 1];

	(void)state;
	atomic_init(&stop, false);
	assert_int_equal(ring_init(&ring, 64), 0);
	r = recorder_new(&(struct recorder_params){ .ring = &ring, .stop_req = &stop });
	assert_non_null(r);
	assert_int_equal(recorder_event(r, 1, EDGELOG_EV_NOTE, big, sizeof(big)), -1);
	recorder_finish(r);	/* never started: nothing to do */
	recorder_free(r);
	ring_free(&ring);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(every_record_and_event_reaches_the_log, make_path,
						remove_path),
		cmocka_unit_test_setup_teardown(a_ring_filled_past_the_level_wakes_the_sleeping_recorder,
						make_path, remove_path),
		cmocka_unit_test(an_oversized_event_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
