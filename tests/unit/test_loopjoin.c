/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the join of a log's edges with their loopback events: late
 * batches, a lost edge, kernel drops, extras and the bounded window. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log/edge.h"
#include "log/edgelog.h"
#include "log/loopjoin.h"

#define START 1000000000ull
#define HALF 500000ull
#define WB 10000        /* write window [intended + 10 us, + 12 us] */
#define WE 12000

static char path[64];
static struct edgelog_writer *w;

static void log_begin(const char *meta)
{
	struct edgelog_meta m = { .clock_id = 1, .half_period_ns = HALF, .start_ns = START };
	int fd;

	snprintf(path, sizeof(path), "/tmp/sqwave-lj-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	m.text = (char *)(meta ? meta : "run.loopback=true\n");
	w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	assert_non_null(w);
}

static uint64_t wb_of(uint64_t seq)
{
	return START + (seq + 1) * HALF + WB;
}

/* Records @from .. @to - 1 (seq = slot - 1, levels alternating from 1). */
static void log_records(uint64_t from, uint64_t to)
{
	uint64_t s;

	for (s = from; s < to; s++) {
		struct edge_rec e = {
			.seq = s, .intended_ns = START + (s + 1) * HALF, .wake_off_ns = 8000,
			.write_begin_off_ns = WB, .write_end_off_ns = WE,
			.expirations = s == 0 ? 2 : 1, .level = (uint8_t)(!(s & 1)),
		};
		assert_int_equal(edgelog_writer_append(w, &e, 1), 0);
	}
}

/* One loopback event of @n pairs. */
static void log_pairs(const uint64_t *seq, const uint64_t *t, size_t n)
{
	uint64_t buf[2 * 64];
	size_t i;

	assert_true(n <= 64);
	for (i = 0; i < n; i++) {
		buf[2 * i] = seq[i];
		buf[2 * i + 1] = t[i];
	}
	assert_int_equal(edgelog_writer_append_event(w, t[0], EDGELOG_EV_LOOPBACK, buf,
						     n * 16), 0);
}

/* Pairs for edges @from .. @to - 1, each its own, @delay after write_begin. */
static void log_pairs_for(uint64_t from, uint64_t to, uint64_t delay)
{
	uint64_t seq[64], t[64];
	size_t n = 0;

	for (; from < to; from++) {
		seq[n] = from;
		t[n] = wb_of(from) + delay;
		if (++n == 64) {
			log_pairs(seq, t, n);
			n = 0;
		}
	}
	if (n)
		log_pairs(seq, t, n);
}

static void log_end(void)
{
	struct edgelog_footer f = { 0 };

	assert_int_equal(edgelog_writer_close(w, &f, NULL, 0), 0);
}

/* Join the log in a window of @win records (0: default): the edges in
 * @out (up to @max), their number; the counts in *@c. */
static size_t join(size_t win, struct loopjoin_edge *out, size_t max, struct loopjoin_counts *c)
{
	enum edgelog_status st;
	struct edgelog_reader *r;
	struct loopjoin *j;
	struct loopjoin_edge e;
	char err[256];
	size_t n = 0;
	int got;

	r = edgelog_reader_open(path, &st, err, sizeof(err));
	assert_non_null(r);
	j = loopjoin_new(r, win, win);
	assert_non_null(j);
	while ((got = loopjoin_next_edge(j, &e)) == 1) {
		assert_true(n < max);
		/* in the log's order, every edge once */
		if (n)
			assert_true(e.rec.seq > out[n - 1].rec.seq);
		out[n++] = e;
	}
	assert_int_equal(got, 0);
	*c = *loopjoin_counts(j);
	loopjoin_free(j);
	edgelog_reader_close(r);
	unlink(path);
	return n;
}

static struct loopjoin_edge out[4096];

static void events_logged_after_their_records_join_each_edge(void **state)
{
	struct loopjoin_counts c;
	size_t n, i;

	(void)state;
	log_begin(NULL);
	log_records(0, 100);
	log_pairs_for(0, 60, 3000);      /* a batch, late */
	log_records(100, 200);
	log_pairs_for(60, 200, 3000);
	log_end();
	n = join(0, out, 4096, &c);
	assert_int_equal(n, 200);
	for (i = 0; i < n; i++) {
		assert_true(out[i].has_event);
		assert_int_equal(out[i].event_ns, wb_of(out[i].rec.seq) + 3000);
	}
	assert_int_equal(c.events, 200);
	assert_int_equal(c.no_event, 0);
	assert_int_equal(c.extra, 0);
	assert_int_equal(c.late, 0);
	assert_int_equal(c.kernel_dropped, 0);
}

static void a_batch_before_its_records_still_joins(void **state)
{
	struct loopjoin_counts c;
	size_t n;

	(void)state;
	log_begin(NULL);
	log_records(0, 10);
	log_pairs_for(0, 20, 3000);      /* names edges not logged yet */
	log_records(10, 20);
	log_end();
	n = join(0, out, 4096, &c);
	assert_int_equal(n, 20);
	assert_int_equal(c.events, 20);
	assert_true(out[15].has_event);
	assert_int_equal(out[15].event_ns, wb_of(15) + 3000);
}

/* The kernel's count skips an edge the wire lost: pairs from seq 5 on name
 * the edge before theirs, and their time says so. */
static void an_edge_lost_on_the_wire_is_one_empty_edge_and_the_rest_realign(void **state)
{
	uint64_t seq[20], t[20];
	struct loopjoin_counts c;
	size_t n, i, k = 0;

	(void)state;
	log_begin(NULL);
	log_records(0, 21);
	for (i = 0; i < 21; i++) {
		if (i == 5)
			continue;
		seq[k] = k;
		t[k++] = wb_of(i) + 2000;
	}
	log_pairs(seq, t, k);
	log_end();
	n = join(0, out, 4096, &c);
	assert_int_equal(n, 21);
	for (i = 0; i < n; i++) {
		assert_int_equal(out[i].has_event, i != 5);
		if (i != 5)
			assert_int_equal(out[i].event_ns, wb_of(i) + 2000);
	}
	assert_true(out[5].skipped);
	assert_int_equal(c.no_event, 1);
	assert_int_equal(c.skipped, 1);
	assert_int_equal(c.extra, 0);
	assert_int_equal(c.kernel_dropped, 0);
}

/* A late edge whose successor was written on time, sooner after it than the
 * wire's delay: its event lies past the next write began, but the next
 * event is in place, so nothing is lost and nothing shifts. */
static void a_late_edge_followed_closely_by_the_next_shifts_nothing(void **state)
{
	uint64_t seq[10], t[10], s, wbs[10];
	struct loopjoin_counts c;
	size_t n, i;

	(void)state;
	log_begin(NULL);
	for (s = 0; s < 10; s++) {
		struct edge_rec e = {
			.seq = s, .intended_ns = START + (s + 1) * HALF, .wake_off_ns = 8000,
			.write_begin_off_ns = s == 5 ? 480000 : WB,
			.write_end_off_ns = s == 5 ? 482000 : WE,
			.expirations = s == 0 ? 2 : 1, .level = (uint8_t)(!(s & 1)),
		};
		assert_int_equal(edgelog_writer_append(w, &e, 1), 0);
		wbs[s] = edge_write_begin_ns(&e);
		seq[s] = s;
		t[s] = wbs[s] + 40000;     /* a 40 us wire */
	}
	assert_true(t[5] >= wbs[6]);
	log_pairs(seq, t, 10);
	log_end();
	n = join(0, out, 16, &c);
	assert_int_equal(n, 10);
	for (i = 0; i < n; i++) {
		assert_true(out[i].has_event);
		assert_int_equal(out[i].event_ns, t[i]);
	}
	assert_int_equal(c.no_event, 0);
	assert_int_equal(c.skipped, 0);
	assert_int_equal(c.extra, 0);
}

static void kernel_drops_show_as_seq_gaps_and_shift_nothing(void **state)
{
	uint64_t seq[20], t[20];
	struct loopjoin_counts c;
	size_t n, i, k = 0;

	(void)state;
	log_begin(NULL);
	log_records(0, 20);
	for (i = 0; i < 20; i++) {
		if (i == 7 || i == 8)
			continue;           /* the kernel's buffer overflowed */
		seq[k] = i;
		t[k++] = wb_of(i) + 2000;
	}
	log_pairs(seq, t, k);
	log_end();
	n = join(0, out, 4096, &c);
	assert_int_equal(n, 20);
	assert_false(out[7].has_event);
	assert_false(out[8].has_event);
	assert_false(out[7].skipped);
	assert_true(out[9].has_event);
	assert_int_equal(out[9].event_ns, wb_of(9) + 2000);
	assert_int_equal(c.kernel_dropped, 2);
	assert_int_equal(c.no_event, 2);
	assert_int_equal(c.skipped, 0);
}

/* Stamped before its write began: it stays with its edge, for the
 * statistics to see; never moved back. */
static void an_event_before_its_write_stays_with_its_edge(void **state)
{
	uint64_t seq[4] = { 0, 1, 2, 3 }, t[4];
	struct loopjoin_counts c;
	size_t n;

	(void)state;
	log_begin(NULL);
	log_records(0, 4);
	t[0] = wb_of(0) + 1000;
	t[1] = wb_of(1) - 4000;
	t[2] = wb_of(2) + 1000;
	t[3] = wb_of(3) + 1000;
	log_pairs(seq, t, 4);
	log_end();
	n = join(0, out, 16, &c);
	assert_int_equal(n, 4);
	assert_true(out[1].has_event);
	assert_int_equal(out[1].event_ns, wb_of(1) - 4000);
	assert_int_equal(c.events, 4);
	assert_int_equal(c.extra, 0);
}

static void events_for_no_edge_are_extra(void **state)
{
	uint64_t seq[4] = { 0, 1, 1, 9 }, t[4];
	struct loopjoin_counts c;
	size_t n;

	(void)state;
	log_begin(NULL);
	log_records(0, 3);
	t[0] = wb_of(0) + 1000;
	t[1] = wb_of(1) + 1000;
	t[2] = wb_of(1) + 2000;          /* a second one for edge 1 */
	t[3] = wb_of(9) + 1000;          /* after the last edge */
	log_pairs(seq, t, 4);
	log_end();
	n = join(0, out, 16, &c);
	assert_int_equal(n, 3);
	assert_int_equal(out[1].event_ns, wb_of(1) + 1000);
	assert_false(out[2].has_event);
	assert_int_equal(c.extra, 2);
	assert_int_equal(c.events, 2);
	assert_int_equal(c.no_event, 1);
}

/* A window of 8 records: a batch later than that is counted late, once per
 * pair, and the edges it named are yielded without; memory stays bounded. */
static void a_batch_later_than_the_window_is_counted_late(void **state)
{
	struct loopjoin_counts c;
	size_t n, i;

	(void)state;
	log_begin(NULL);
	log_records(0, 40);
	log_pairs_for(0, 40, 3000);
	log_end();
	n = join(8, out, 4096, &c);
	assert_int_equal(n, 40);
	for (i = 0; i < 32; i++)
		assert_false(out[i].has_event);
	for (; i < 40; i++)
		assert_true(out[i].has_event);
	assert_int_equal(c.late, 32);
	assert_int_equal(c.events, 8);
	assert_int_equal(c.no_event, 32);
	assert_int_equal(c.extra, 0);
}

static void the_log_header_says_whether_to_join(void **state)
{
	struct edgelog_meta m = { .text = (char *)"run.loopback=true\n" };

	(void)state;
	assert_true(loopjoin_log_has_loopback(&m));
	m.text = (char *)"run.loopback=false\n";
	assert_false(loopjoin_log_has_loopback(&m));
	m.text = (char *)"run.duration=1s\n";
	assert_false(loopjoin_log_has_loopback(&m));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(events_logged_after_their_records_join_each_edge),
		cmocka_unit_test(a_batch_before_its_records_still_joins),
		cmocka_unit_test(an_edge_lost_on_the_wire_is_one_empty_edge_and_the_rest_realign),
		cmocka_unit_test(a_late_edge_followed_closely_by_the_next_shifts_nothing),
		cmocka_unit_test(kernel_drops_show_as_seq_gaps_and_shift_nothing),
		cmocka_unit_test(an_event_before_its_write_stays_with_its_edge),
		cmocka_unit_test(events_for_no_edge_are_extra),
		cmocka_unit_test(a_batch_later_than_the_window_is_counted_late),
		cmocka_unit_test(the_log_header_says_whether_to_join),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
