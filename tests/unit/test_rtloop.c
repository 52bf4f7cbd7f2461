/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the RT loop's bookkeeping: slots, levels, missed periods,
 * the last edge, spin mode (due times, late wake-ups, the spin's end and
 * bound, the automatic lead); and short real loops on the simulated line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "gpio/gpio_out.h"
#include "gpio/gpio_sim.h"
#include "rt/ring.h"
#include "rt/rtloop.h"

#define T0 1000000000ull
#define H 500000ull

static void setup_loop_spin(struct rtloop *l, uint64_t total, uint64_t warmup, int64_t spin)
{
	memset(l, 0, sizeof(*l));
	l->tfd = -1;
	l->clock = CLOCK_MONOTONIC;
	l->start_ns = T0;
	l->half_ns = (int64_t)H;
	l->total_slots = total;
	l->warmup_slots = warmup;
	l->spin_ns = spin;
	assert_int_equal(rtloop_open(l), 0);
}

static void setup_loop(struct rtloop *l, uint64_t total, uint64_t warmup)
{
	setup_loop_spin(l, total, warmup, 0);
}

/* A wake-up 10 us after slot @slot's deadline. */
#define ON(slot) (T0 + (slot) * H + 10000)

static void edges_on_time_follow_the_slot_grid_and_alternate(void **state)
{
	struct rtloop l;
	struct edge_rec e;
	uint64_t i;

	(void)state;
	setup_loop(&l, 0, 0);
	for (i = 0; i < 10; i++) {
		assert_int_equal(rtloop_account(&l, ON(i), &e), T0 + i * H);
		assert_int_equal(e.seq, i);
		assert_int_equal(e.intended_ns, T0 + i * H);
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
	rtloop_account(&l, ON(0), &e);
	rtloop_account(&l, ON(3), &e);	/* slots 1 and 2 missed, edge on slot 3 */
	assert_int_equal(atomic_load(&l.missed), 2);
	assert_int_equal(e.seq, 1);
	assert_int_equal(e.expirations, 3);
	/* the grid keeps its phase: the edge is for the latest expired slot */
	assert_int_equal(e.intended_ns, T0 + 3 * H);
	/* each written edge still toggles the line */
	assert_int_equal(e.level, 0);
	rtloop_account(&l, ON(4), &e);
	assert_int_equal(e.intended_ns, T0 + 4 * H);
	assert_int_equal(e.level, 1);
	rtloop_close(&l);
}

static void a_wake_up_serves_the_latest_slot_due_and_no_later_one(void **state)
{
	struct rtloop l;
	struct edge_rec e;

	(void)state;
	setup_loop(&l, 0, 0);
	rtloop_account(&l, ON(0), &e);
	/* woke for slot 1 just before slot 2's deadline: the edge is slot 1's */
	rtloop_account(&l, T0 + 2 * H - 1, &e);
	assert_int_equal(e.intended_ns, T0 + H);
	assert_int_equal(e.expirations, 1);
	/* at slot 2's deadline exactly, slot 2 is due */
	rtloop_account(&l, T0 + 3 * H, &e);
	assert_int_equal(e.intended_ns, T0 + 3 * H);
	assert_int_equal(e.expirations, 2);
	assert_int_equal(atomic_load(&l.missed), 1);
	/* an early wake-up (cannot happen) still serves the next slot, never
	 * one already served */
	rtloop_account(&l, T0, &e);
	assert_int_equal(e.intended_ns, T0 + 4 * H);
	/* a stall of a million slots costs one division, not a million steps */
	rtloop_account(&l, ON(1000005), &e);
	assert_int_equal(e.intended_ns, T0 + 1000005 * H);
	assert_int_equal(e.expirations, UINT16_MAX);
	assert_true(e.flags & EDGE_F_SATURATED);
	assert_int_equal(atomic_load(&l.missed), 1 + 1000000);
	rtloop_close(&l);
}

static void in_spin_mode_a_slot_is_due_one_lead_before_its_deadline(void **state)
{
	struct rtloop l;
	struct edge_rec e;
	const uint64_t lead = 100000;

	(void)state;
	setup_loop_spin(&l, 0, 0, (int64_t)lead);
	assert_int_equal(l.lead, lead);
	/* woke 90 us before slot 0's deadline: 10 us after its wake-up time */
	assert_int_equal(rtloop_account(&l, T0 - 90000, &e), T0);
	assert_int_equal(l.last_lat, 10000);
	/* woke after slot 2's wake-up time but before its deadline: the edge
	 * waits for slot 2 rather than writing slot 1 late */
	assert_int_equal(rtloop_account(&l, T0 + 2 * H - 50000, &e), T0 + 2 * H);
	assert_int_equal(e.expirations, 2);
	assert_int_equal(atomic_load(&l.missed), 1);
	/* the latency that counts for the lead is from slot 1's wake-up time */
	assert_int_equal(l.last_lat, (int64_t)(H + lead - 50000));
	rtloop_close(&l);
}

static void a_late_wake_up_is_written_at_once_and_flagged(void **state)
{
	struct rtloop l;
	uint8_t flags = 0;

	(void)state;
	setup_loop_spin(&l, 0, 0, 100000);
	assert_int_equal(rtloop_spin(&l, T0 + 5, T0, &flags), T0 + 5);
	assert_int_equal(flags, EDGE_F_SPIN | EDGE_F_LATE);
	assert_int_equal(atomic_load(&l.late), 1);
	flags = 0;
	/* exactly on the deadline is late too: no spin happened */
	assert_int_equal(rtloop_spin(&l, T0, T0, &flags), T0);
	assert_int_equal(flags, EDGE_F_SPIN | EDGE_F_LATE);
	assert_int_equal(atomic_load(&l.late), 2);
	rtloop_close(&l);
}

static uint64_t mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void a_spin_ends_at_the_deadline_and_never_outlasts_the_lead(void **state)
{
	struct rtloop l;
	uint8_t flags = 0;
	uint64_t wake, t;

	(void)state;
	setup_loop_spin(&l, 0, 0, 100000);
	wake = mono();
	t = rtloop_spin(&l, wake, wake + 50000, &flags);
	assert_true(t >= wake + 50000);		/* the clock read that ended it */
	assert_int_equal(flags, EDGE_F_SPIN);
	assert_int_equal(atomic_load(&l.late), 0);
	/* a deadline beyond the lead (cannot happen: its slot was not due)
	 * ends the spin after one lead, not at the deadline. On this thread's
	 * own CPU clock, which no other process's load advances: a spin to
	 * the deadline would use its whole second, one lead uses 100 us */
	flags = 0;
	l.clock = CLOCK_THREAD_CPUTIME_ID;
	wake = clock_now_ns(l.clock);
	t = rtloop_spin(&l, wake, wake + 1000000000ull, &flags);
	assert_true(t >= wake + 100000);
	assert_true(t < wake + 1000000000ull);
	assert_int_equal(flags, EDGE_F_SPIN);
	l.clock = CLOCK_MONOTONIC;
	/* where it stops: the deadline, or a lead after the wake-up */
	assert_int_equal(rtloop_spin_until(&l, T0 - 50000, T0), T0);
	assert_int_equal(rtloop_spin_until(&l, T0 - 100000, T0), T0);
	assert_int_equal(rtloop_spin_until(&l, T0 - 300000, T0), T0 - 200000);
	rtloop_close(&l);
}

static void the_automatic_lead_follows_the_p99_9_of_recent_wake_ups(void **state)
{
	struct rtloop l;
	uint32_t i;

	(void)state;
	memset(&l, 0, sizeof(l));
	l.clock = CLOCK_MONOTONIC;
	l.start_ns = T0;
	l.half_ns = (int64_t)H;
	l.spin_auto = true;
	l.spin_max_ns = 120000;
	assert_int_equal(rtloop_open(&l), 0);
	assert_int_equal(l.lead, 120000);	/* until measured: the cap */
	/* first window, 1,024: p99.9 is the 2nd largest */
	for (i = 0; i < RTLOOP_AUTO_FIRST - 2; i++)
		rtloop_auto_add(&l, 5000 + i % 100);
	rtloop_auto_add(&l, 40000);
	assert_int_equal(l.lead_next, 120000);	/* not yet: one short */
	rtloop_auto_add(&l, 90000);
	assert_int_equal(l.lead_next, 40000 + 40000 / 8 + 1000);
	l.lead = l.lead_next;
	/* then windows of 4,096: p99.9 is the 5th largest */
	for (i = 0; i < RTLOOP_AUTO_WINDOW - 5; i++)
		rtloop_auto_add(&l, 3000);
	for (i = 0; i < 5; i++)
		rtloop_auto_add(&l, 30000 + (int64_t)i * 1000);	/* 5th largest: 30 us */
	/* 34.75 us is within a quarter of 46 us: kept */
	assert_int_equal(l.lead_next, 46000);
	for (i = 0; i < RTLOOP_AUTO_WINDOW; i++)
		rtloop_auto_add(&l, i < 10 ? 1000000 : 2000);
	/* grows at once, capped */
	assert_int_equal(l.lead_next, 120000);
	l.lead = l.lead_next;
	for (i = 0; i < RTLOOP_AUTO_WINDOW; i++)
		rtloop_auto_add(&l, 2000);
	/* shrinks when clearly lower */
	assert_int_equal(l.lead_next, 2000 + 250 + 1000);
	rtloop_close(&l);
}

static void a_lead_that_leaves_no_room_is_refused(void **state)
{
	struct rtloop l;

	(void)state;
	memset(&l, 0, sizeof(l));
	l.clock = CLOCK_MONOTONIC;
	l.half_ns = (int64_t)H;
	l.spin_ns = (int64_t)H / 2;
	assert_int_equal(rtloop_open(&l), -1);
	assert_int_equal(errno, EINVAL);
	l.spin_ns = 0;
	l.spin_auto = true;
	l.spin_max_ns = (int64_t)H;
	assert_int_equal(rtloop_open(&l), -1);
}

static void warm_up_edges_are_flagged(void **state)
{
	struct rtloop l;
	struct edge_rec e;

	(void)state;
	setup_loop(&l, 0, 2);
	rtloop_account(&l, ON(0), &e);
	assert_true(e.flags & EDGE_F_WARMUP);
	rtloop_account(&l, ON(1), &e);
	assert_true(e.flags & EDGE_F_WARMUP);
	rtloop_account(&l, ON(2), &e);
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
		rtloop_account(&l, ON((uint64_t)i), &e);
		assert_false(rtloop_is_last(&l));
	}
	rtloop_account(&l, ON(3), &e);
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
	rtloop_account(&l, ON(0), &e);	/* level 1 */
	atomic_store(&l.stop_req, true);
	assert_false(rtloop_is_last(&l));
	assert_true(l.stopping);
	rtloop_account(&l, ON(1), &e);	/* back to 0 */
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
	rtloop_account(&l, ON(0), &e);	/* slot 0, level 1 */
	rtloop_account(&l, ON(3), &e);	/* slot 3 (last), level 0 */
	assert_true(rtloop_is_last(&l));
	rtloop_close(&l);

	setup_loop(&l, 4, 0);
	rtloop_account(&l, ON(1), &e);	/* slot 1, level 1 */
	rtloop_account(&l, ON(3), &e);	/* slot 3, level 0 */
	assert_true(rtloop_is_last(&l));
	rtloop_close(&l);

	setup_loop(&l, 4, 0);
	rtloop_account(&l, ON(3), &e);	/* slot 3, level 1: not idle yet */
	assert_false(rtloop_is_last(&l));
	rtloop_account(&l, ON(4), &e);	/* slot 4, back to idle */
	assert_int_equal(e.intended_ns, T0 + 4 * H);
	assert_true(rtloop_is_last(&l));
	rtloop_close(&l);
}


/* Duty cycle: high 300 us, low 700 us (half 500 us), the line idles low,
 * so slot 2k is at T0 + k ms (up) and slot 2k + 1 300 us later (down). */
#define DH 300000ull
#define DL 700000ull
#define DUTY(k) (T0 + ((k) / 2) * (DH + DL) + (((k) & 1) ? DH : 0))

static void setup_duty(struct rtloop *l, int idle)
{
	memset(l, 0, sizeof(*l));
	l->tfd = -1;
	l->clock = CLOCK_MONOTONIC;
	l->start_ns = T0;
	l->half_ns = (int64_t)H;
	l->idle_level = idle;
	l->wave = (struct wave){ .high_ns = (int64_t)DH, .low_ns = (int64_t)DL };
	assert_int_equal(rtloop_open(l), 0);
	assert_true(l->duty);
}

static void the_intended_time_of_a_slot_follows_high_then_low(void **state)
{
	struct wave w = { .high_ns = (int64_t)DH, .low_ns = (int64_t)DL };
	uint64_t k;

	(void)state;
	for (k = 0; k < 9; k++) {
		assert_int_equal(wave_slot_ns(&w, 0, T0, k), DUTY(k));
		assert_int_equal(wave_slot_of(&w, 0, T0, DUTY(k)), (int64_t)k);
		assert_int_equal(wave_slot_at(&w, 0, T0, DUTY(k) + 1), k);
		assert_int_equal(wave_slot_level(0, k), (int)((k + 1) % 2));
	}
	/* idling high, the first edge goes low: low first, then high */
	assert_int_equal(wave_slot_ns(&w, 1, T0, 1), T0 + DL);
	assert_int_equal(wave_slot_ns(&w, 1, T0, 3), T0 + DH + DL + DL);
	/* between slots, or before slot 0: not on the grid */
	assert_int_equal(wave_slot_of(&w, 0, T0, T0 + H), -1);
	assert_int_equal(wave_slot_of(&w, 0, T0, T0 + DL), -1);
	assert_int_equal(wave_slot_of(&w, 0, T0, T0 - 1), -1);
	assert_int_equal(wave_slot_at(&w, 0, T0, DUTY(3) - 1), 2);
}

static void a_duty_cycle_loop_puts_each_edge_on_its_own_slot(void **state)
{
	struct rtloop l;
	struct edge_rec e;
	uint64_t k;

	(void)state;
	setup_duty(&l, 0);
	for (k = 0; k < 8; k++) {
		assert_int_equal(rtloop_account(&l, DUTY(k) + 10000, &e), DUTY(k));
		assert_int_equal(e.level, (k + 1) % 2);
		assert_int_equal(e.expirations, 1);
		assert_int_equal(l.next_intended, DUTY(k + 1));
	}
	assert_int_equal(atomic_load(&l.missed), 0);
	rtloop_close(&l);
	setup_duty(&l, 1);
	rtloop_account(&l, T0 + 1, &e);
	assert_int_equal(e.level, 0);
	assert_int_equal(l.next_intended, T0 + DL);	/* the low part comes first */
	rtloop_close(&l);
}

static void a_late_duty_cycle_edge_serves_the_latest_due_slot_of_its_level(void **state)
{
	struct rtloop l;
	struct edge_rec e;

	(void)state;
	setup_duty(&l, 0);
	rtloop_account(&l, DUTY(0) + 1000, &e);		/* up */
	/* woke for slot 1 (down) after slot 2 (up) was due, before slot 3: the
	 * line is high and needs to go down, so slot 1, late, not slot 2 */
	rtloop_account(&l, DUTY(2) + 1000, &e);
	assert_int_equal(e.intended_ns, DUTY(1));
	assert_int_equal(e.level, 0);
	assert_int_equal(e.expirations, 1);
	assert_int_equal(atomic_load(&l.missed), 0);
	/* woke for slot 2 (up) after slot 5 (down) was due: slots 2, 3 are a
	 * whole pulse missed, the edge goes up on slot 4 */
	rtloop_account(&l, DUTY(5) + 1000, &e);
	assert_int_equal(e.intended_ns, DUTY(4));
	assert_int_equal(e.level, 1);
	assert_int_equal(e.expirations, 3);
	assert_int_equal(atomic_load(&l.missed), 2);
	/* exactly at a due slot of the right level: that one */
	rtloop_account(&l, DUTY(7), &e);
	assert_int_equal(e.intended_ns, DUTY(7));
	assert_int_equal(e.level, 0);
	assert_int_equal(e.expirations, 3);
	assert_int_equal(atomic_load(&l.missed), 4);
	/* a long stall: one division, the count saturates, nothing hidden */
	rtloop_account(&l, DUTY(200001) + 5, &e);
	assert_int_equal(e.intended_ns, DUTY(200000));
	assert_int_equal(e.level, 1);
	assert_int_equal(atomic_load(&l.missed), 4 + 200000 - 8);
	assert_true(e.flags & EDGE_F_SATURATED);
	rtloop_close(&l);
}

static void a_duty_cycle_that_the_loop_cannot_keep_is_refused(void **state)
{
	struct rtloop l;

	(void)state;
	memset(&l, 0, sizeof(l));
	l.tfd = -1;
	l.clock = CLOCK_MONOTONIC;
	l.half_ns = (int64_t)H;
	l.wave = (struct wave){ .high_ns = (int64_t)DH, .low_ns = (int64_t)DH };
	errno = 0;
	assert_int_equal(rtloop_open(&l), -1);	/* high + low is not 2 x half */
	assert_int_equal(errno, EINVAL);
	l.wave = (struct wave){ .high_ns = (int64_t)DH, .low_ns = (int64_t)DL };
	l.spin_ns = 10000;
	assert_int_equal(rtloop_open(&l), -1);	/* no spin with a duty cycle */
	l.spin_ns = 0;
	l.tl_path = "/nonexistent";
	l.tl_arm_reads = 1;
	assert_int_equal(rtloop_open(&l), -1);	/* nor timerlat */
}

/* A real loop on the simulated line: 100 us half period, @slots slots. */
static void sim_loop_open_spin(struct rtloop *l, struct ring *r, size_t ring_cap, uint64_t slots,
			       int64_t spin, bool autospin)
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
	l->spin_ns = spin;
	l->spin_auto = autospin;
	l->spin_max_ns = autospin ? 40000 : 0;
	assert_int_equal(rtloop_open(l), 0);
}

static void sim_loop_open(struct rtloop *l, struct ring *r, size_t ring_cap, uint64_t slots)
{
	sim_loop_open_spin(l, r, ring_cap, slots, 0, false);
}

/* Run a real loop of @slots 100 us slots; returns the records. */
static size_t sim_run(struct rtloop *l, struct ring *r, struct edge_rec *out, size_t max)
{
	pthread_t t;
	size_t n;

	l->start_ns = mono() + 1000000;
	atomic_store(&l->go, true);
	assert_int_equal(pthread_create(&t, NULL, rtloop_thread, l), 0);
	pthread_join(t, NULL);
	assert_true(atomic_load(&l->done));
	assert_int_equal(l->error, 0);
	n = ring_pop(r, out, max);
	assert_int_equal(n, atomic_load(&l->edges));
	return n;
}

/* Slot 0 an hour ahead (grid.start): a stop before it ends the thread
 * with no edge and the line untouched, instead of at slot 0. Joined with
 * a bound of a minute (a hang guard, not a timing assertion). */
static void a_stop_before_slot_0_ends_the_loop_with_no_edge(void **state)
{
	struct edge_rec out[8];
	struct timespec until;
	struct ring r;
	struct rtloop l;
	pthread_t t;

	(void)state;
	sim_loop_open(&l, &r, 8, 20);
	l.start_ns = mono() + 3600ull * 1000000000ull;
	atomic_store(&l.go, true);
	assert_int_equal(pthread_create(&t, NULL, rtloop_thread, &l), 0);
	/* let it reach its wait for slot 0 (were it slower, the stop is seen
	 * before the wait: no edge either) */
	nanosleep(&(struct timespec){ .tv_nsec = 50000000 }, NULL);
	atomic_store(&l.stop_req, true);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 60;
	assert_int_equal(pthread_timedjoin_np(t, NULL, &until), 0);
	assert_true(atomic_load(&l.done));
	assert_int_equal(l.error, 0);
	assert_int_equal(atomic_load(&l.edges), 0);
	assert_int_equal(ring_pop(&r, out, 8), 0);
	/* and the wait itself: a time reached is no stop, a stop is at once */
	atomic_store(&l.stop_req, false);
	assert_false(rtloop_wait_until(CLOCK_MONOTONIC, mono() + 1000, &l.stop_req));
	atomic_store(&l.stop_req, true);
	assert_true(rtloop_wait_until(CLOCK_MONOTONIC, mono() + 3600ull * 1000000000ull,
				      &l.stop_req));
	rtloop_close(&l);
	gpio_out_close(l.gpio);
	ring_free(&r);
}

static void the_loop_writes_each_edge_to_the_line_and_the_ring(void **state)
{
	struct edge_rec out[64];
	struct ring r;
	struct rtloop l;
	size_t n, i;

	(void)state;
	sim_loop_open(&l, &r, 64, 20);
	n = sim_run(&l, &r, out, 64);
	/* 20 slots; missed periods (a noisy machine) may add one edge back to idle */
	assert_true(n >= 2 && n <= 20);
	for (i = 0; i < n; i++) {
		assert_int_equal(out[i].seq, i);
		assert_int_equal(out[i].level, (i + 1) % 2);
		/* measured times are ordered: wake <= write begin <= write end */
		assert_true(out[i].wake_off_ns >= 0);
		assert_true(out[i].write_begin_off_ns >= out[i].wake_off_ns);
		assert_true(out[i].write_end_off_ns >= out[i].write_begin_off_ns);
		assert_int_equal((out[i].intended_ns - l.start_ns) % 100000, 0);
		assert_false(out[i].flags & (EDGE_F_SPIN | EDGE_F_LATE));
	}
	assert_true(out[n - 1].flags & EDGE_F_LAST);
	assert_int_equal(out[n - 1].level, 0);
	rtloop_close(&l);
	gpio_out_close(l.gpio);
	ring_free(&r);
}

/* What the pin did, edge for edge: the simulated line's write history
 * against the records. Each record is one write, of its level, inside its
 * write window; the line ends at the last record's level. */
static void the_pin_did_what_the_log_says_edge_for_edge(void **state)
{
	struct edge_rec out[64];
	struct gpio_sim_line line;
	struct gpio_sim_write w;
	struct ring r;
	struct rtloop l;
	size_t n, i;

	(void)state;
	gpio_sim_reset();
	sim_loop_open(&l, &r, 64, 30);
	n = sim_run(&l, &r, out, 64);
	assert_true(n >= 2);
	assert_int_equal(gpio_sim_write_count(), n);
	for (i = 0; i < n; i++) {
		uint64_t begin = out[i].intended_ns + (uint64_t)(int64_t)out[i].write_begin_off_ns;
		uint64_t end = out[i].intended_ns + (uint64_t)(int64_t)out[i].write_end_off_ns;

		assert_int_equal(gpio_sim_write_get(i, &w), 0);
		assert_int_equal(w.offset, 0);
		assert_int_equal(w.level, out[i].level);
		assert_int_equal(w.value, out[i].level);
		assert_true((uint64_t)w.t_ns >= begin && (uint64_t)w.t_ns <= end);
	}
	assert_int_equal(gpio_sim_line_get(0, &line), 0);
	assert_int_equal(line.value, out[n - 1].level);
	rtloop_close(&l);
	gpio_out_close(l.gpio);
	ring_free(&r);
	gpio_sim_reset();
}


/* A real duty-cycle loop on the simulated line: 60 us high, 140 us low,
 * the one-shot timer re-armed per slot; every write on its record's slot,
 * in its write window. */
static void a_real_duty_cycle_loop_writes_the_pin_on_its_slots(void **state)
{
	struct wave w = { .high_ns = 60000, .low_ns = 140000 };
	struct edge_rec out[64];
	struct gpio_sim_write gw;
	struct ring r;
	struct rtloop l;
	size_t n, i;

	(void)state;
	gpio_sim_reset();
	assert_int_equal(ring_init(&r, 64), 0);
	memset(&l, 0, sizeof(l));
	l.gpio = gpio_out_open(&(struct gpio_out_spec){ .backend = GPIO_BACKEND_SIM,
		.chip = "sqwave-sim", .line = "0", .consumer = "test" }, NULL, 0);
	assert_non_null(l.gpio);
	l.ring = &r;
	l.clock = CLOCK_MONOTONIC;
	l.half_ns = 100000;
	l.wave = w;
	l.total_slots = 30;
	l.stack_prefault = 4096;
	assert_int_equal(rtloop_open(&l), 0);
	n = sim_run(&l, &r, out, 64);
	assert_true(n >= 2);
	assert_int_equal(gpio_sim_write_count(), n);
	for (i = 0; i < n; i++) {
		int64_t k = wave_slot_of(&w, 0, l.start_ns, out[i].intended_ns);

		assert_true(k >= 0);
		assert_int_equal(out[i].level, wave_slot_level(0, (uint64_t)k));
		assert_int_equal(out[i].level, (i + 1) % 2);
		assert_int_equal(out[i].expirations % 2, 1);
		assert_int_equal(gpio_sim_write_get(i, &gw), 0);
		assert_int_equal(gw.value, out[i].level);
		assert_true((uint64_t)gw.t_ns >= out[i].intended_ns + (uint64_t)(int64_t)
			    out[i].write_begin_off_ns);
		assert_true((uint64_t)gw.t_ns <= out[i].intended_ns + (uint64_t)(int64_t)
			    out[i].write_end_off_ns);
	}
	assert_true(out[n - 1].flags & EDGE_F_LAST);
	assert_int_equal(out[n - 1].level, 0);
	rtloop_close(&l);
	gpio_out_close(l.gpio);
	ring_free(&r);
	gpio_sim_reset();
}

/* Spin mode on the simulated line: every edge is flagged, and its write
 * begins at the end of the spin, at or after the deadline, unless the
 * wake-up itself was late (flagged, and then the write begins at it). */
static void check_spin_records(const struct rtloop *l, const struct edge_rec *out, size_t n)
{
	uint64_t late = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		assert_true(out[i].flags & EDGE_F_SPIN);
		assert_true(out[i].write_begin_off_ns >= out[i].wake_off_ns);
		assert_true(out[i].write_end_off_ns >= out[i].write_begin_off_ns);
		if (out[i].flags & EDGE_F_LATE) {
			late++;
			assert_true(out[i].wake_off_ns >= 0);
			assert_int_equal(out[i].write_begin_off_ns, out[i].wake_off_ns);
		} else {
			assert_true(out[i].wake_off_ns < 0);
			assert_true(out[i].write_begin_off_ns >= 0);
		}
	}
	assert_int_equal(late, atomic_load(&l->late));
}

static void a_spinning_loop_writes_each_edge_at_its_deadline(void **state)
{
	struct edge_rec out[64];
	struct ring r;
	struct rtloop l;
	size_t n;

	(void)state;
	sim_loop_open_spin(&l, &r, 64, 20, 30000, false);
	n = sim_run(&l, &r, out, 64);
	assert_true(n >= 2 && n <= 20);
	check_spin_records(&l, out, n);
	assert_int_equal(l.lead_min_ns, 30000);
	assert_int_equal(l.rearms, 0);
	rtloop_close(&l);
	gpio_out_close(l.gpio);
	ring_free(&r);
}

static void an_automatic_spin_loop_measures_and_re_arms_on_the_grid(void **state)
{
	enum { SLOTS = RTLOOP_AUTO_FIRST + 200 };
	static struct edge_rec out[SLOTS + 1];
	struct ring r;
	struct rtloop l;
	size_t n, i;

	(void)state;
	sim_loop_open_spin(&l, &r, SLOTS + 1, SLOTS, 0, true);
	n = sim_run(&l, &r, out, SLOTS + 1);
	check_spin_records(&l, out, n);
	for (i = 0; i < n; i++)
		assert_int_equal((out[i].intended_ns - l.start_ns) % 100000, 0);
	/* it started at the cap and measured at least one window (the lead
	 * may have stayed if this machine is that slow) */
	assert_int_equal(l.lead_max_ns, 40000);
	assert_true(l.lead_min_ns >= 1000 && l.lead_min_ns <= 40000);
	assert_true(l.rearms <= 1);
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
		cmocka_unit_test(the_intended_time_of_a_slot_follows_high_then_low),
		cmocka_unit_test(a_duty_cycle_loop_puts_each_edge_on_its_own_slot),
		cmocka_unit_test(a_late_duty_cycle_edge_serves_the_latest_due_slot_of_its_level),
		cmocka_unit_test(a_duty_cycle_that_the_loop_cannot_keep_is_refused),
		cmocka_unit_test(a_real_duty_cycle_loop_writes_the_pin_on_its_slots),
		cmocka_unit_test(a_missed_period_is_counted_not_hidden),
		cmocka_unit_test(a_wake_up_serves_the_latest_slot_due_and_no_later_one),
		cmocka_unit_test(in_spin_mode_a_slot_is_due_one_lead_before_its_deadline),
		cmocka_unit_test(a_late_wake_up_is_written_at_once_and_flagged),
		cmocka_unit_test(a_spin_ends_at_the_deadline_and_never_outlasts_the_lead),
		cmocka_unit_test(the_automatic_lead_follows_the_p99_9_of_recent_wake_ups),
		cmocka_unit_test(a_lead_that_leaves_no_room_is_refused),
		cmocka_unit_test(warm_up_edges_are_flagged),
		cmocka_unit_test(the_run_ends_on_its_last_slot_at_the_idle_level),
		cmocka_unit_test(a_stop_at_the_active_level_adds_one_edge_back_to_idle),
		cmocka_unit_test(an_odd_number_of_missed_slots_can_leave_one_extra_edge),
		cmocka_unit_test(a_stop_before_slot_0_ends_the_loop_with_no_edge),
		cmocka_unit_test(the_loop_writes_each_edge_to_the_line_and_the_ring),
		cmocka_unit_test(the_pin_did_what_the_log_says_edge_for_edge),
		cmocka_unit_test(a_spinning_loop_writes_each_edge_at_its_deadline),
		cmocka_unit_test(an_automatic_spin_loop_measures_and_re_arms_on_the_grid),
		cmocka_unit_test(a_run_cancelled_before_go_writes_nothing),
	};

	return cmocka_run_group_tests_name("rtloop", tests, NULL, NULL);
}
