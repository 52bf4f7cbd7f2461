/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the SPSC ring between the RT thread and the writer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "rt/ring.h"

static void capacity_is_rounded_up_to_a_power_of_two(void **state)
{
	struct ring r;

	(void)state;
	assert_int_equal(ring_init(&r, 1000), 0);
	assert_int_equal(ring_capacity(&r), 1024);
	ring_free(&r);
	assert_int_equal(ring_init(&r, 1), -1);
}

static void records_come_out_in_the_order_they_went_in(void **state)
{
	struct ring r;
	struct edge_rec in, out[8];
	uint64_t i;
	size_t n;

	(void)state;
	assert_int_equal(ring_init(&r, 8), 0);
	for (i = 0; i < 5; i++) {
		memset(&in, 0, sizeof(in));
		in.seq = i;
		in.intended_ns = 1000 * i;
		assert_int_equal(ring_push(&r, &in), 0);
	}
	n = ring_pop(&r, out, 8);
	assert_int_equal(n, 5);
	for (i = 0; i < 5; i++) {
		assert_int_equal(out[i].seq, i);
		assert_int_equal(out[i].intended_ns, 1000 * i);
	}
	assert_int_equal(ring_pop(&r, out, 8), 0);
	ring_free(&r);
}

static void a_full_ring_drops_and_counts_instead_of_blocking(void **state)
{
	struct ring r;
	struct edge_rec in = { 0 }, out[16];
	int i;

	(void)state;
	assert_int_equal(ring_init(&r, 4), 0);
	for (i = 0; i < 4; i++) {
		in.seq = (uint64_t)i;
		assert_int_equal(ring_push(&r, &in), 0);
	}
	in.seq = 99;
	assert_int_equal(ring_push(&r, &in), -1);
	assert_int_equal(ring_push(&r, &in), -1);
	assert_int_equal(ring_dropped(&r), 2);
	assert_int_equal(ring_pop(&r, out, 16), 4);
	assert_int_equal(out[3].seq, 3);	/* the dropped ones never appear */
	assert_int_equal(ring_push(&r, &in), 0);
	ring_free(&r);
}

static void wrapping_around_keeps_every_record(void **state)
{
	struct ring r;
	struct edge_rec in = { 0 }, out[3];
	uint64_t next = 0, expect = 0;
	int round;

	(void)state;
	assert_int_equal(ring_init(&r, 4), 0);
	for (round = 0; round < 100; round++) {
		size_t n, i;

		in.seq = next++;
		assert_int_equal(ring_push(&r, &in), 0);
		in.seq = next++;
		assert_int_equal(ring_push(&r, &in), 0);
		n = ring_pop(&r, out, 3);
		for (i = 0; i < n; i++)
			assert_int_equal(out[i].seq, expect++);
	}
	assert_int_equal(expect, next);
	ring_free(&r);
}

/* Fewer under valgrind, which runs one thread at a time. */
static uint64_t threaded_n;

static void *producer(void *arg)
{
	struct ring *r = arg;
	struct edge_rec e = { 0 };
	uint64_t i;

	for (i = 0; i < threaded_n; i++) {
		e.seq = i;
		e.intended_ns = i * 3;
		while (ring_push(r, &e) < 0)
			sched_yield();	/* test only: the real producer never retries */
	}
	return NULL;
}

static void two_threads_see_every_record_exactly_once(void **state)
{
	struct ring r;
	struct edge_rec out[256];
	pthread_t t;
	uint64_t expect = 0;

	(void)state;
	threaded_n = getenv("VALGRIND") ? 20000 : 2000000;
	assert_int_equal(ring_init(&r, 1024), 0);
	assert_int_equal(pthread_create(&t, NULL, producer, &r), 0);
	while (expect < threaded_n) {
		size_t n = ring_pop(&r, out, 256), i;

		if (!n)
			sched_yield();

		for (i = 0; i < n; i++) {
			assert_int_equal(out[i].seq, expect);
			assert_int_equal(out[i].intended_ns, expect * 3);
			expect++;
		}
	}
	pthread_join(t, NULL);
	ring_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(capacity_is_rounded_up_to_a_power_of_two),
		cmocka_unit_test(records_come_out_in_the_order_they_went_in),
		cmocka_unit_test(a_full_ring_drops_and_counts_instead_of_blocking),
		cmocka_unit_test(wrapping_around_keeps_every_record),
		cmocka_unit_test(two_threads_see_every_record_exactly_once),
	};

	return cmocka_run_group_tests_name("ring", tests, NULL, NULL);
}
