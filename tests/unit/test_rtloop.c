/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the RT loop's bookkeeping: slots, levels, missed periods,
 * the last edge; and a short real loop on the simulated line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <string.h>
#include <time.h>

#include "gpio_out.h"
#include "ring.h"
#include "rtloop.h"

/* A wake-up after every deadline the expirations cover. */
#define LATE UINT64_MAX

static void setup_loop(struct rtloop *l, uint64_t total, uint64_t warmup)
{
	memset(l, 0, sizeof(*l));
	l->tfd = -1;
	l->clock = CLOCK_MONOTONIC;
	l->start_ns = 1000000000ull;
	l->half_ns = 500000;
	l->total_slots = total;
	l->warmup_slots = warmup;
	assert_int_equal(rtloop_open(l), 0);
}

static void edges_on_time_follow_the_slot_grid_and_alternate(void **state)
{
	struct rtloop l;
	struct edge_rec e;
	uint64_t i;

	(void)state;
	setup_loop(&l, 0, 0);
	for (i = 0; i < 10; i++) {
		rtloop_account(&l, 1, LATE, &e);
		assert_int_equal(e.seq, i);
		assert_int_equal(e.intended_ns, 1000000000ull + i * 500000ull);
		assert_int_equal(e.level, (i + 1) % 2);
		assert_int_equal(e.expirations, 1);
		assert_int_equal(e.flags, 0);
	}
	assert_int_equal(atomic_load(&l.missed), 0);
	rtloop_close(&l);
}

static void a_missed_period_is_counted_not_hidden(void **state)
{
	struct rtloop l;
	struct edge_rec e;

	(void)state;
	setup_loop(&l, 0, 0);
	rtloop_account(&l, 1, LATE, &e);	/* slot 0 */
	rtloop_account(&l, 3, LATE, &e);	/* slots 1 and 2 missed, edge on slot 3 */
	assert_int_equal(atomic_load(&l.missed), 2);
	assert_int_equal(e.seq, 1);
	assert_int_equal(e.expirations, 3);
	/* the grid keeps its phase: the edge is for the latest expired slot */
	assert_int_equal(e.intended_ns, 1000000000ull + 3 * 500000ull);
	/* each written edge still toggles the line */
	assert_int_equal(e.level, 0);
	rtloop_account(&l, 1, LATE, &e);
	assert_int_equal(e.intended_ns, 1000000000ull + 4 * 500000ull);
	assert_int_equal(e.level, 1);
	rtloop_close(&l);
}

static void an_expiration_read_after_the_write_belongs_to_the_next_edge(void **state)
{
	struct rtloop l;
	struct edge_rec e;
	const uint64_t t0 = 1000000000ull, h = 500000;

	(void)state;
	setup_loop(&l, 0, 0);
	rtloop_account(&l, 1, t0 + 10, &e);		/* slot 0 */
	assert_int_equal(e.intended_ns, t0);
	/* woke for slot 1; slot 2's deadline passed before the read */
	rtloop_account(&l, 2, t0 + h + 20, &e);
	assert_int_equal(e.intended_ns, t0 + h);	/* the edge is slot 1's */
	assert_int_equal(e.expirations, 1);
	assert_int_equal(atomic_load(&l.missed), 0);
	/* slot 2 got no edge: the next edge (slot 3) says so */
	rtloop_account(&l, 1, t0 + 3 * h + 5, &e);
	assert_int_equal(e.intended_ns, t0 + 3 * h);
	assert_int_equal(e.expirations, 2);
	assert_int_equal(atomic_load(&l.missed), 1);
	rtloop_close(&l);
}

static void warm_up_edges_are_flagged(void **state)
{
	struct rtloop l;
	struct edge_rec e;

	(void)state;
	setup_loop(&l, 0, 2);
	rtloop_account(&l, 1, LATE, &e);
	assert_true(e.flags & EDGE_F_WARMUP);
	rtloop_account(&l, 1, LATE, &e);
	assert_true(e.flags & EDGE_F_WARMUP);
	rtloop_account(&l, 1, LATE, &e);
	assert_false(e.flags & EDGE_F_WARMUP);
	rtloop_close(&l);
}

static void the_run_ends_on_its_last_slot_at_the_idle_level(void **state)
{
	struct rtloop l;
	struct edge_rec e;
	int i;

	(void)state;
	setup_loop(&l, 4, 0);
	for (i = 0; i < 3; i++) {
		rtloop_account(&l, 1, LATE, &e);
		assert_false(rtloop_is_last(&l));
	}
	rtloop_account(&l, 1, LATE, &e);
	assert_int_equal(e.level, 0);
	assert_true(rtloop_is_last(&l));
	rtloop_close(&l);
}

static void a_stop_at_the_active_level_adds_one_edge_back_to_idle(void **state)
{
	struct rtloop l;
	struct edge_rec e;

	(void)state;
	setup_loop(&l, 0, 0);
	rtloop_account(&l, 1, LATE, &e);	/* level 1 */
	atomic_store(&l.stop_req, true);
	assert_false(rtloop_is_last(&l));
	assert_true(l.stopping);
	rtloop_account(&l, 1, LATE, &e);	/* back to 0 */
	assert_int_equal(e.level, 0);
	assert_true(rtloop_is_last(&l));
	rtloop_close(&l);
}

static void an_odd_number_of_missed_slots_can_leave_one_extra_edge(void **state)
{
	struct rtloop l;
	struct edge_rec e;

	(void)state;
	setup_loop(&l, 4, 0);
	rtloop_account(&l, 1, LATE, &e);	/* slot 0, level 1 */
	rtloop_account(&l, 3, LATE, &e);	/* slot 3 (last), level 0 */
	assert_true(rtloop_is_last(&l));
	rtloop_close(&l);

	setup_loop(&l, 4, 0);
	rtloop_account(&l, 2, LATE, &e);	/* slot 1, level 1 */
	rtloop_account(&l, 2, LATE, &e);	/* slot 3, level 0 */
	assert_true(rtloop_is_last(&l));
	rtloop_close(&l);

	setup_loop(&l, 4, 0);
	rtloop_account(&l, 4, LATE, &e);	/* slot 3, level 1: not idle yet */
	assert_false(rtloop_is_last(&l));
	rtloop_account(&l, 1, LATE, &e);	/* slot 4, back to idle */
	assert_int_equal(e.intended_ns, 1000000000ull + 4 * 500000ull);
	assert_true(rtloop_is_last(&l));
	rtloop_close(&l);
}

/* A real loop on the simulated line: 100 us half period, @slots slots. */
static void sim_loop_open(struct rtloop *l, struct ring *r, size_t ring_cap, uint64_t slots)
{
	struct gpio_out_spec spec = {
		.backend = GPIO_BACKEND_SIM, .chip = "sqwave-sim", .line = "0",
		.consumer = "test",
	};

	assert_int_equal(ring_init(r, ring_cap), 0);
	memset(l, 0, sizeof(*l));
	l->gpio = gpio_out_open(&spec, NULL, 0);
	assert_non_null(l->gpio);
	l->ring = r;
	l->clock = CLOCK_MONOTONIC;
	l->half_ns = 100000;
	l->total_slots = slots;
	l->stack_prefault = 4096;
	assert_int_equal(rtloop_open(l), 0);
}

static void the_loop_writes_each_edge_to_the_line_and_the_ring(void **state)
{
	struct edge_rec out[64];
	struct ring r;
	struct rtloop l;
	struct timespec ts;
	pthread_t t;
	size_t n, i;

	(void)state;
	sim_loop_open(&l, &r, 64, 20);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	l.start_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + 1000000;
	atomic_store(&l.go, true);
	assert_int_equal(pthread_create(&t, NULL, rtloop_thread, &l), 0);
	pthread_join(t, NULL);
	assert_true(atomic_load(&l.done));
	assert_int_equal(l.error, 0);

	n = ring_pop(&r, out, 64);
	/* 20 slots; missed periods (a noisy machine) may add one edge back to idle */
	assert_true(n >= 2 && n <= 20);
	assert_int_equal(n, atomic_load(&l.edges));
	for (i = 0; i < n; i++) {
		assert_int_equal(out[i].seq, i);
		assert_int_equal(out[i].level, (i + 1) % 2);
		/* measured times are ordered: wake <= write begin <= write end */
		assert_true(out[i].wake_off_ns >= 0);
		assert_true(out[i].write_begin_off_ns >= out[i].wake_off_ns);
		assert_true(out[i].write_end_off_ns >= out[i].write_begin_off_ns);
		assert_int_equal((out[i].intended_ns - l.start_ns) % 100000, 0);
	}
	assert_true(out[n - 1].flags & EDGE_F_LAST);
	assert_int_equal(out[n - 1].level, 0);
	rtloop_close(&l);
	gpio_out_close(l.gpio);
	ring_free(&r);
}

static void a_run_cancelled_before_go_writes_nothing(void **state)
{
	struct edge_rec out[4];
	struct ring r;
	struct rtloop l;
	pthread_t t;

	(void)state;
	sim_loop_open(&l, &r, 4, 0);
	assert_int_equal(pthread_create(&t, NULL, rtloop_thread, &l), 0);
	atomic_store(&l.stop_req, true);
	atomic_store(&l.go, true);
	pthread_join(t, NULL);
	assert_true(atomic_load(&l.done));
	assert_int_equal(atomic_load(&l.edges), 0);
	assert_int_equal(ring_pop(&r, out, 4), 0);
	rtloop_close(&l);
	gpio_out_close(l.gpio);
	ring_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(edges_on_time_follow_the_slot_grid_and_alternate),
		cmocka_unit_test(a_missed_period_is_counted_not_hidden),
		cmocka_unit_test(an_expiration_read_after_the_write_belongs_to_the_next_edge),
		cmocka_unit_test(warm_up_edges_are_flagged),
		cmocka_unit_test(the_run_ends_on_its_last_slot_at_the_idle_level),
		cmocka_unit_test(a_stop_at_the_active_level_adds_one_edge_back_to_idle),
		cmocka_unit_test(an_odd_number_of_missed_slots_can_leave_one_extra_edge),
		cmocka_unit_test(the_loop_writes_each_edge_to_the_line_and_the_ring),
		cmocka_unit_test(a_run_cancelled_before_go_writes_nothing),
	};

	return cmocka_run_group_tests_name("rtloop", tests, NULL, NULL);
}
