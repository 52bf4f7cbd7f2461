/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the respond loop: what each event is answered with, lost
 * events counted from the kernel's sequence numbers, warm-up; and real loops
 * on the simulated chip, checked against its write history. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "gpio/gpio_in.h"
#include "gpio/gpio_out.h"
#include "gpio/gpio_sim.h"
#include "rt/respond.h"
#include "rt/ring.h"

static struct gpio_in_event ev(uint64_t t, uint64_t seqno, int rising)
{
	return (struct gpio_in_event){ .t_ns = t, .seqno = seqno, .rising = rising };
}

static void setup(struct respond *r, struct rtloop *l, enum respond_mode mode)
{
	memset(r, 0, sizeof(*r));
	memset(l, 0, sizeof(*l));
	l->clock = CLOCK_MONOTONIC;
	r->loop = l;
	r->mode = mode;
	r->pulse_ns = 50000;
	respond_open(r);
}

static void follow_writes_the_level_each_event_reports(void **state)
{
	struct respond r;
	struct rtloop l;
	struct edge_rec rec;
	struct gpio_in_event e[3] = { ev(1000, 1, 1), ev(2000, 2, 0), ev(3000, 3, 0) };
	int i;

	(void)state;
	setup(&r, &l, RESPOND_FOLLOW);
	for (i = 0; i < 3; i++) {
		assert_int_equal(respond_account(&r, &e[i], &rec), e[i].rising);
		assert_int_equal(rec.level, e[i].rising);
		assert_int_equal(rec.seq, i);
		assert_int_equal(rec.intended_ns, e[i].t_ns);
		assert_int_equal(rec.expirations, 1);
		assert_int_equal(rec.flags, 0);
	}
	assert_int_equal(atomic_load(&l.missed), 0);
}

static void toggle_flips_per_event_whatever_the_event_says(void **state)
{
	struct respond r;
	struct rtloop l;
	struct edge_rec rec;
	struct gpio_in_event e = ev(1000, 1, 1);
	int i;

	(void)state;
	setup(&r, &l, RESPOND_TOGGLE);
	for (i = 0; i < 5; i++) {
		e.seqno = (uint64_t)i + 1;
		assert_int_equal(respond_account(&r, &e, &rec), (i + 1) % 2);
	}
}

static void pulse_answers_at_the_active_level_of_the_line(void **state)
{
	struct respond r;
	struct rtloop l;
	struct edge_rec rec;
	struct gpio_in_event e = ev(1000, 1, 0);

	(void)state;
	setup(&r, &l, RESPOND_PULSE);
	assert_int_equal(respond_account(&r, &e, &rec), 1);
	l.idle_level = 1;	/* an idle-high line pulses low */
	e.seqno = 2;
	assert_int_equal(respond_account(&r, &e, &rec), 0);
}

static void events_the_kernel_lost_are_counted_from_its_sequence_numbers(void **state)
{
	struct respond r;
	struct rtloop l;
	struct edge_rec rec;
	struct gpio_in_event e;

	(void)state;
	setup(&r, &l, RESPOND_TOGGLE);
	/* the first event is the kernel's third: two were lost before it */
	e = ev(1000, 3, 1);
	respond_account(&r, &e, &rec);
	assert_int_equal(rec.expirations, 3);
	e = ev(2000, 4, 0);
	respond_account(&r, &e, &rec);
	assert_int_equal(rec.expirations, 1);
	e = ev(3000, 10, 1);
	respond_account(&r, &e, &rec);
	assert_int_equal(rec.expirations, 6);
	assert_int_equal(atomic_load(&l.missed), 2 + 5);
	/* without sequence numbers (libgpiod v1) each event counts one */
	e = ev(4000, 0, 0);
	respond_account(&r, &e, &rec);
	assert_int_equal(rec.expirations, 1);
	assert_int_equal(atomic_load(&l.missed), 7);
	/* a gap beyond 16 bits saturates the record, not the count */
	e = ev(5000, 10 + 70000, 1);
	respond_account(&r, &e, &rec);
	assert_int_equal(rec.expirations, UINT16_MAX);
	assert_true(rec.flags & EDGE_F_SATURATED);
	assert_int_equal(atomic_load(&l.missed), 7 + 69999);
}

static void a_warm_up_stall_past_16_bits_is_counted_in_full_and_apart(void **state)
{
	struct respond r;
	struct rtloop l;
	struct edge_rec rec;
	struct gpio_in_event e = ev(1000, 1, 1);

	(void)state;
	setup(&r, &l, RESPOND_TOGGLE);
	r.warmup_end_ns = 5000;
	respond_account(&r, &e, &rec);
	/* 70,000 events lost in the warm-up: the record saturates, the
	 * counts do not */
	e = ev(2000, 1 + 70001, 0);
	respond_account(&r, &e, &rec);
	assert_int_equal(rec.expirations, UINT16_MAX);
	assert_true(rec.flags & EDGE_F_WARMUP);
	assert_int_equal(r.lost_warmup, 70000);
	/* after the warm-up: counted, not in the warm-up's */
	e = ev(6000, 70002 + 3, 1);
	respond_account(&r, &e, &rec);
	assert_int_equal(r.lost_warmup, 70000);
	assert_int_equal(atomic_load(&l.missed), 70000 + 2);
}

static void events_still_queued_at_the_stop_are_unanswered_and_their_gaps_lost(void **state)
{
	struct respond r;
	struct rtloop l;
	struct edge_rec rec;
	struct gpio_in_event e = ev(1000, 1, 1);
	/* after the last answer (seqno 1): 2 and 3 queued, 4 and 5 lost, 6
	 * queued, 7 stamped at the stop: not the run's */
	struct gpio_in_event q[4] = { ev(2000, 2, 0), ev(3000, 3, 1), ev(4000, 6, 0),
				      ev(5000, 7, 1) };

	(void)state;
	setup(&r, &l, RESPOND_FOLLOW);
	respond_account(&r, &e, &rec);
	r.stop_ns = 5000;
	assert_false(respond_unanswered(&r, q, 3));
	assert_true(respond_unanswered(&r, &q[3], 1));
	assert_int_equal(r.unanswered, 3);
	assert_int_equal(atomic_load(&l.missed), 2);
	assert_int_equal(r.lost_warmup, 0);
}

static void events_before_the_warm_up_ends_are_flagged(void **state)
{
	struct respond r;
	struct rtloop l;
	struct edge_rec rec;
	struct gpio_in_event e = ev(1999, 1, 1);

	(void)state;
	setup(&r, &l, RESPOND_FOLLOW);
	r.warmup_end_ns = 2000;
	respond_account(&r, &e, &rec);
	assert_true(rec.flags & EDGE_F_WARMUP);
	e = ev(2000, 2, 0);
	respond_account(&r, &e, &rec);
	assert_false(rec.flags & EDGE_F_WARMUP);
}

/* ---- real loops on the simulated chip: output line 0, input line 2 ---- */

struct sim_loop {
	struct respond r;
	struct rtloop l;
	struct ring ring;
	struct gpio_in *in;
	pthread_t t;
};

static void sim_open_with(struct sim_loop *s, enum respond_mode mode, uint64_t warmup_end_ns,
			  int64_t pulse_ns)
{
	struct gpio_out_spec out = { .backend = GPIO_BACKEND_SIM, .chip = "sqwave-sim",
				     .line = "0", .consumer = "test" };
	struct gpio_in_spec in = { .backend = GPIO_BACKEND_SIM, .chip = "sqwave-sim",
				   .line = "2", .consumer = "test-in", .edges = true };

	gpio_sim_reset();
	memset(s, 0, sizeof(*s));
	assert_int_equal(ring_init(&s->ring, 256), 0);
	s->l.gpio = gpio_out_open(&out, NULL, 0);
	assert_non_null(s->l.gpio);
	s->in = gpio_in_open(&in, NULL, 0);
	assert_non_null(s->in);
	s->l.ring = &s->ring;
	s->l.clock = gpio_in_clockid(s->in);
	s->l.stack_prefault = 4096;
	s->r.loop = &s->l;
	s->r.in = s->in;
	s->r.mode = mode;
	s->r.pulse_ns = pulse_ns;
	s->r.warmup_end_ns = warmup_end_ns;
	respond_open(&s->r);
	atomic_store(&s->l.go, true);
	assert_int_equal(pthread_create(&s->t, NULL, respond_thread, &s->r), 0);
}

static void sim_open(struct sim_loop *s, enum respond_mode mode)
{
	sim_open_with(s, mode, 0, 30000);
}

/* Drive the input to @value now; returns the event's stamp. */
static uint64_t drive(unsigned int value)
{
	uint64_t t = clock_mono_ns();

	assert_int_equal(gpio_sim_line_drive(2, (int)value, t), 0);
	return t;
}

static void wait_writes(struct sim_loop *s, uint64_t n)
{
	while (atomic_load(&s->l.edges) < n)
		nanosleep(&(struct timespec){ .tv_nsec = 100000 }, NULL);
}

static size_t sim_close(struct sim_loop *s, struct edge_rec *out, size_t max)
{
	size_t n;

	atomic_store(&s->l.stop_req, true);
	pthread_join(s->t, NULL);
	assert_true(atomic_load(&s->l.done));
	assert_int_equal(s->l.error, 0);
	n = ring_pop(&s->ring, out, max);
	assert_int_equal(n, atomic_load(&s->l.edges));
	gpio_in_close(s->in);
	gpio_out_close(s->l.gpio);
	ring_free(&s->ring);
	return n;
}

/* Record @i against the sim's write @i: same level, inside the window. */
static void assert_written(const struct edge_rec *e, uint64_t i)
{
	struct gpio_sim_write w;
	uint64_t wb = edge_write_begin_ns(e), we = edge_write_end_ns(e);

	assert_int_equal(gpio_sim_write_get(i, &w), 0);
	assert_int_equal(w.level, e->level);
	assert_true((uint64_t)w.t_ns >= wb && (uint64_t)w.t_ns <= we);
}

static void each_event_is_answered_once_after_it_and_the_pin_agrees(void **state)
{
	struct sim_loop s;
	struct edge_rec out[16];
	uint64_t t[6];
	size_t n, i;

	(void)state;
	sim_open(&s, RESPOND_FOLLOW);
	for (i = 0; i < 6; i++) {
		t[i] = drive((i + 1) % 2);
		wait_writes(&s, i + 1);
	}
	n = sim_close(&s, out, 16);
	/* six answers; the input ended low, so no write back to idle */
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++) {
		assert_int_equal(out[i].intended_ns, t[i]);
		assert_int_equal(out[i].level, (i + 1) % 2);
		assert_int_equal(out[i].expirations, 1);
		assert_false(out[i].flags & EDGE_F_NOEVENT);
		assert_true(out[i].wake_off_ns >= 0);
		assert_true(out[i].write_begin_off_ns >= out[i].wake_off_ns);
		assert_true(out[i].write_end_off_ns >= out[i].write_begin_off_ns);
		assert_written(&out[i], i);
	}
	assert_int_equal(gpio_sim_write_count(), 6 + 1);	/* + the idle level at close */
}

static void a_pulse_lasts_its_width_from_the_answer(void **state)
{
	struct sim_loop s;
	struct edge_rec out[16];
	uint64_t t[3];
	size_t n, i;

	(void)state;
	sim_open(&s, RESPOND_PULSE);
	for (i = 0; i < 3; i++) {
		t[i] = drive((i + 1) % 2);
		wait_writes(&s, 2 * (i + 1));
	}
	n = sim_close(&s, out, 16);
	assert_int_equal(n, 6);
	for (i = 0; i < 3; i++) {
		const struct edge_rec *a = &out[2 * i], *b = &out[2 * i + 1];

		assert_int_equal(a->intended_ns, t[i]);
		assert_int_equal(a->level, 1);
		assert_false(a->flags & EDGE_F_NOEVENT);
		/* the end answers no event: due one width after the
		 * answer's write ended, never written before it */
		assert_int_equal(b->intended_ns, edge_write_end_ns(a) + 30000);
		assert_int_equal(b->level, 0);
		assert_true(b->flags & EDGE_F_NOEVENT);
		assert_true(b->write_begin_off_ns >= 0);
		assert_written(a, 2 * i);
		assert_written(b, 2 * i + 1);
	}
}

static void a_warm_up_answers_pulse_ends_in_the_warm_up(void **state)
{
	struct sim_loop s;
	struct edge_rec out[8];
	size_t n;
	uint64_t t0;

	(void)state;
	t0 = clock_mono_ns();
	/* the warm-up ends 1 ms after t0 and the event is stamped t0, however
	 * slow this machine (valgrind) is; the pulse ends 20 ms after its
	 * answer, so after the warm-up */
	sim_open_with(&s, RESPOND_PULSE, t0 + 1000000, 20000000);
	assert_int_equal(gpio_sim_line_drive(2, 1, t0), 0);
	wait_writes(&s, 2);
	n = sim_close(&s, out, 8);
	assert_int_equal(n, 2);
	assert_true(out[0].flags & EDGE_F_WARMUP);
	assert_true(out[1].intended_ns > s.r.warmup_end_ns);
	assert_true(out[1].flags & EDGE_F_WARMUP);
}

static void a_batch_past_the_end_is_answered_and_the_rest_counted_unanswered(void **state)
{
	struct sim_loop s;
	struct edge_rec out[32];
	struct gpio_out_spec o = { .backend = GPIO_BACKEND_SIM, .chip = "sqwave-sim",
				   .line = "0", .consumer = "test" };
	struct gpio_in_spec in = { .backend = GPIO_BACKEND_SIM, .chip = "sqwave-sim",
				   .line = "2", .consumer = "test-in", .edges = true };
	uint64_t t0 = clock_mono_ns();
	size_t n, i, answers = 0;

	(void)state;
	gpio_sim_reset();
	memset(&s, 0, sizeof(s));
	assert_int_equal(ring_init(&s.ring, 256), 0);
	s.l.gpio = gpio_out_open(&o, NULL, 0);
	s.in = gpio_in_open(&in, NULL, 0);
	assert_non_null(s.l.gpio);
	assert_non_null(s.in);
	s.l.ring = &s.ring;
	s.l.clock = gpio_in_clockid(s.in);
	s.l.stack_prefault = 4096;
	s.r.loop = &s.l;
	s.r.in = s.in;
	s.r.mode = RESPOND_FOLLOW;
	/* 20 events queued before the loop starts, all before the run's end,
	 * which has passed when it reads them: it answers the batch it read
	 * (RESPOND_BATCH), then stops; the rest were never answered */
	s.r.end_ns = t0;
	respond_open(&s.r);
	for (i = 0; i < 20; i++)
		assert_int_equal(gpio_sim_line_drive(2, (int)(i + 1) % 2, t0 - 20000 + i * 100), 0);
	assert_int_equal(pthread_create(&s.t, NULL, respond_thread, &s.r), 0);
	atomic_store(&s.l.go, true);
	pthread_join(s.t, NULL);
	n = ring_pop(&s.ring, out, 32);
	for (i = 0; i < n; i++)
		answers += !(out[i].flags & EDGE_F_NOEVENT);
	assert_int_equal(answers, RESPOND_BATCH);
	assert_int_equal(s.r.stop_ns, t0);
	assert_int_equal(s.r.unanswered, 20 - RESPOND_BATCH);
	assert_int_equal(atomic_load(&s.l.missed), 0);
	gpio_in_close(s.in);
	gpio_out_close(s.l.gpio);
	ring_free(&s.ring);
}

static void a_line_left_active_at_the_end_goes_back_to_idle_in_the_log(void **state)
{
	struct sim_loop s;
	struct edge_rec out[4];
	size_t n;

	(void)state;
	sim_open(&s, RESPOND_TOGGLE);
	drive(1);
	wait_writes(&s, 1);
	n = sim_close(&s, out, 4);
	assert_int_equal(n, 2);
	assert_int_equal(out[0].level, 1);
	assert_int_equal(out[1].level, 0);
	assert_true(out[1].flags & EDGE_F_NOEVENT);
	assert_true(out[1].flags & EDGE_F_LAST);
	assert_written(&out[1], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(follow_writes_the_level_each_event_reports),
		cmocka_unit_test(toggle_flips_per_event_whatever_the_event_says),
		cmocka_unit_test(pulse_answers_at_the_active_level_of_the_line),
		cmocka_unit_test(events_the_kernel_lost_are_counted_from_its_sequence_numbers),
		cmocka_unit_test(a_warm_up_stall_past_16_bits_is_counted_in_full_and_apart),
		cmocka_unit_test(events_still_queued_at_the_stop_are_unanswered_and_their_gaps_lost),
		cmocka_unit_test(events_before_the_warm_up_ends_are_flagged),
		cmocka_unit_test(each_event_is_answered_once_after_it_and_the_pin_agrees),
		cmocka_unit_test(a_pulse_lasts_its_width_from_the_answer),
		cmocka_unit_test(a_warm_up_answers_pulse_ends_in_the_warm_up),
		cmocka_unit_test(a_batch_past_the_end_is_answered_and_the_rest_counted_unanswered),
		cmocka_unit_test(a_line_left_active_at_the_end_goes_back_to_idle_in_the_log),
	};

	return cmocka_run_group_tests_name("respond", tests, NULL, NULL);
}
