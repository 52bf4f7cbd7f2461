/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for rt/rtgroup.c (run.outputs together): which lanes a wake-up
 * serves, their levels and missed slots (the single loop's bookkeeping),
 * the next wake-up; then real group threads on the simulated chip, every
 * record against the chip's write history, lanes of one wake-up in one
 * call. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpio/gpio_out.h"
#include "gpio/gpio_sim.h"
#include "rt/ring.h"
#include "rt/rtgroup.h"
#include "rt/rtloop.h"

#define T0 1000000000ull
#define US 1000ull

/* A lane: @half_ns (square) or @high/@low (duty), slot 0 at @start. */
static void lane_init(struct rtloop *l, uint64_t start, int64_t high, int64_t low, int idle,
		      uint64_t total)
{
	memset(l, 0, sizeof(*l));
	l->tfd = -1;
	l->clock = CLOCK_MONOTONIC;
	l->start_ns = start;
	l->half_ns = (high + low) / 2;
	l->wave = (struct wave){ .high_ns = high, .low_ns = low };
	l->idle_level = idle;
	l->total_slots = total;
	l->stack_prefault = 4096;
}

static void group_open(struct rtgroup *g, struct rtloop *lanes, size_t n)
{
	size_t i;

	memset(g, 0, sizeof(*g));
	g->clock = CLOCK_MONOTONIC;
	g->n = n;
	g->stack_prefault = 4096;
	for (i = 0; i < n; i++)
		g->lanes[i] = &lanes[i];
	assert_int_equal(rtgroup_open(g), 0);
	assert_true(g->tfd >= 0);
	assert_int_equal(g->running, (UINT32_C(1) << n) - 1);
}

/* Fill @recs with a pattern: what rtgroup_due() leaves alone keeps it. */
static void recs_poison(struct edge_rec *recs, size_t n)
{
	memset(recs, 0xa5, n * sizeof(*recs));
}

static bool rec_poisoned(const struct edge_rec *r)
{
	struct edge_rec p;

	memset(&p, 0xa5, sizeof(p));
	return !memcmp(r, &p, sizeof(p));
}

/* Three lanes: A square 500 us from T0; B square 500 us from T0 + 100 us
 * (its phase); C 300 us high, 700 us low from T0. One wake-up serves
 * exactly the lanes due, and a lane not due gets nothing. */
static void a_wake_up_serves_the_due_lanes_and_no_other(void **state)
{
	struct rtloop lanes[3];
	struct rtgroup g;
	struct edge_rec recs[3];
	uint32_t mask, levels;

	(void)state;
	lane_init(&lanes[0], T0, 500 * US, 500 * US, 0, 0);
	lane_init(&lanes[1], T0 + 100 * US, 500 * US, 500 * US, 0, 0);
	lane_init(&lanes[2], T0, 300 * US, 700 * US, 0, 0);
	group_open(&g, lanes, 3);
	assert_true(lanes[2].duty);
	assert_int_equal(rtgroup_next(&g), T0);

	/* before anything is due: nothing */
	recs_poison(recs, 3);
	levels = 0xdead;
	assert_int_equal(rtgroup_due(&g, T0 - 1, recs, &levels), 0);
	assert_int_equal(levels, 0);
	assert_true(rec_poisoned(&recs[0]) && rec_poisoned(&recs[1]) && rec_poisoned(&recs[2]));

	/* T0 + 10 us: A and C leave idle (slot 0), B is not due */
	recs_poison(recs, 3);
	mask = rtgroup_due(&g, T0 + 10 * US, recs, &levels);
	assert_int_equal(mask, 0x5);
	assert_int_equal(levels, 0x5);
	assert_int_equal(recs[0].intended_ns, T0);
	assert_int_equal(recs[2].intended_ns, T0);
	assert_int_equal(recs[0].level, 1);
	assert_int_equal(recs[2].level, 1);
	assert_int_equal(recs[0].seq, 0);
	assert_int_equal(recs[0].expirations, 1);
	assert_true(rec_poisoned(&recs[1]));
	assert_int_equal(lanes[1].seq, 0);
	assert_int_equal(lanes[1].served, 0);
	/* next: B's slot 0 (T0 + 100 us), before C's 300 us and A's 500 us */
	assert_int_equal(rtgroup_next(&g), T0 + 100 * US);

	recs_poison(recs, 3);
	mask = rtgroup_due(&g, T0 + 105 * US, recs, &levels);
	assert_int_equal(mask, 0x2);
	assert_int_equal(levels, 0x2);
	assert_int_equal(recs[1].intended_ns, T0 + 100 * US);
	assert_true(rec_poisoned(&recs[0]) && rec_poisoned(&recs[2]));
	assert_int_equal(rtgroup_next(&g), T0 + 300 * US);

	/* C goes low after its 300 us high: the only lane due */
	recs_poison(recs, 3);
	mask = rtgroup_due(&g, T0 + 300 * US, recs, &levels);
	assert_int_equal(mask, 0x4);
	assert_int_equal(levels, 0);
	assert_int_equal(recs[2].intended_ns, T0 + 300 * US);
	assert_int_equal(recs[2].level, 0);
	assert_true(rec_poisoned(&recs[0]) && rec_poisoned(&recs[1]));
	assert_int_equal(rtgroup_next(&g), T0 + 500 * US);

	/* A goes low at 500 us; B (600 us) and C (1000 us) wait */
	mask = rtgroup_due(&g, T0 + 501 * US, recs, &levels);
	assert_int_equal(mask, 0x1);
	assert_int_equal(levels, 0);
	assert_int_equal(rtgroup_next(&g), T0 + 600 * US);
	/* B low at 600 us; at 1000 us A and C go up together, B stays low */
	assert_int_equal(rtgroup_due(&g, T0 + 600 * US, recs, &levels), 0x2);
	assert_int_equal(levels, 0);
	assert_int_equal(rtgroup_next(&g), T0 + 1000 * US);
	assert_int_equal(rtgroup_due(&g, T0 + 1000 * US, recs, &levels), 0x5);
	assert_int_equal(levels, 0x5);
	assert_int_equal(recs[0].seq, 2);
	assert_int_equal(recs[2].seq, 2);
	assert_int_equal(atomic_load(&lanes[0].missed), 0);
	assert_int_equal(atomic_load(&lanes[1].missed), 0);
	assert_int_equal(atomic_load(&lanes[2].missed), 0);
	rtgroup_close(&g);
	assert_int_equal(g.tfd, -1);
}

/* Lanes idling at different levels, due together: one mask, each lane's
 * own level in its bit. */
static void lanes_due_together_carry_each_its_own_level(void **state)
{
	struct rtloop lanes[3];
	struct rtgroup g;
	struct edge_rec recs[3];
	uint32_t levels;

	(void)state;
	lane_init(&lanes[0], T0, 500 * US, 500 * US, 0, 0);
	lane_init(&lanes[1], T0, 500 * US, 500 * US, 1, 0);
	lane_init(&lanes[2], T0, 500 * US, 500 * US, 0, 0);
	group_open(&g, lanes, 3);
	assert_int_equal(rtgroup_due(&g, T0, recs, &levels), 0x7);
	assert_int_equal(levels, 0x5);	/* lane 1 idles high: its first edge goes low */
	assert_int_equal(recs[1].level, 0);
	assert_int_equal(rtgroup_due(&g, T0 + 500 * US, recs, &levels), 0x7);
	assert_int_equal(levels, 0x2);
	rtgroup_close(&g);
}

/* A late wake-up: each lane due advances to its own latest slot and counts
 * its own missed slots, as rtloop_account() does for one line. */
static void a_late_wake_up_counts_missed_slots_per_lane(void **state)
{
	struct rtloop lanes[3];
	struct rtgroup g;
	struct edge_rec recs[3];
	uint32_t levels, mask;

	(void)state;
	lane_init(&lanes[0], T0, 500 * US, 500 * US, 0, 0);
	lane_init(&lanes[1], T0 + 100 * US, 500 * US, 500 * US, 0, 0);
	lane_init(&lanes[2], T0, 300 * US, 700 * US, 0, 0);
	group_open(&g, lanes, 3);
	assert_int_equal(rtgroup_due(&g, T0 + 1 * US, recs, &levels), 0x5);
	assert_int_equal(rtgroup_due(&g, T0 + 101 * US, recs, &levels), 0x2);
	/* now A waits for 500 us (down), B for 600 us (down), C for 300 us
	 * (down); the thread wakes at 2150 us */
	mask = rtgroup_due(&g, T0 + 2150 * US, recs, &levels);
	assert_int_equal(mask, 0x7);
	/* A: slots 1..4 due (500..2000 us), the latest is slot 4; a square
	 * lane toggles, so it goes down there */
	assert_int_equal(recs[0].intended_ns, T0 + 2000 * US);
	assert_int_equal(recs[0].expirations, 4);
	assert_int_equal(recs[0].level, 0);
	assert_int_equal(atomic_load(&lanes[0].missed), 3);
	/* B: slots 1..4 due (600..2100 us): slot 4, 3 missed */
	assert_int_equal(recs[1].intended_ns, T0 + 2100 * US);
	assert_int_equal(recs[1].expirations, 4);
	assert_int_equal(atomic_load(&lanes[1].missed), 3);
	/* C, high, needs to go down: of 300, 1000, 1300, 2000 us the latest
	 * down slot is 1300 us (slot 3): one whole pulse missed */
	assert_int_equal(recs[2].intended_ns, T0 + 1300 * US);
	assert_int_equal(recs[2].level, 0);
	assert_int_equal(recs[2].expirations, 3);
	assert_int_equal(atomic_load(&lanes[2].missed), 2);
	/* each written edge toggles its line */
	assert_int_equal(levels, 0);
	assert_int_equal(lanes[0].level, 0);
	assert_int_equal(lanes[1].level, 0);
	/* the grid keeps its phase: A next at 2500, B at 2600, C at 2000 us */
	assert_int_equal(lanes[0].next_intended, T0 + 2500 * US);
	assert_int_equal(lanes[1].next_intended, T0 + 2600 * US);
	assert_int_equal(lanes[2].next_intended, T0 + 2000 * US);
	assert_int_equal(rtgroup_next(&g), T0 + 2000 * US);
	rtgroup_close(&g);
}

/* rtgroup_next() and rtgroup_due() see only the running lanes. */
static void a_lane_that_has_ended_is_neither_due_nor_next(void **state)
{
	struct rtloop lanes[2];
	struct rtgroup g;
	struct edge_rec recs[2];
	uint32_t levels;

	(void)state;
	lane_init(&lanes[0], T0, 500 * US, 500 * US, 0, 0);
	lane_init(&lanes[1], T0 + 100 * US, 500 * US, 500 * US, 0, 0);
	group_open(&g, lanes, 2);
	g.running = 0x2;	/* lane 0 has written its last edge */
	assert_int_equal(rtgroup_next(&g), T0 + 100 * US);
	recs_poison(recs, 2);
	assert_int_equal(rtgroup_due(&g, T0 + 200 * US, recs, &levels), 0x2);
	assert_true(rec_poisoned(&recs[0]));
	assert_int_equal(lanes[0].seq, 0);
	g.running = 0;
	assert_int_equal(rtgroup_next(&g), UINT64_MAX);
	assert_int_equal(rtgroup_due(&g, T0 + 10000 * US, recs, &levels), 0);
	rtgroup_close(&g);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Random wake-ups (mostly on time, sometimes several slots late, sometimes
 * early) against a shadow rtloop per lane fed only when that lane is due:
 * masks, levels, records and missed counts are the single loop's, and the
 * next wake-up is the earliest running lane's. */
static void random_wake_ups_match_one_single_loop_per_lane(void **state)
{
	enum { N = 3, WAKES = 20000 };
	struct rtloop lanes[N], shadow[N];
	struct rtgroup g;
	struct edge_rec recs[N], e;
	const char *env = getenv("RTGROUP_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) | 1 : (uint64_t)time(NULL) | 1, s, wake;
	uint32_t mask, levels, want_mask, want_levels;
	size_t i, k;

	(void)state;
	s = seed;
	print_message("seed %llu (RTGROUP_SEED=%llu repeats it)\n", (unsigned long long)seed,
		      (unsigned long long)seed);
	lane_init(&lanes[0], T0, 100 * US, 100 * US, 0, 0);
	lane_init(&lanes[1], T0 + 37 * US, 100 * US, 100 * US, 1, 0);
	lane_init(&lanes[2], T0 + 20 * US, 60 * US, 140 * US, 0, 0);
	memcpy(shadow, lanes, sizeof(shadow));
	for (i = 0; i < N; i++)
		assert_int_equal(rtloop_prepare(&shadow[i]), 0);
	group_open(&g, lanes, N);
	for (k = 0; k < WAKES; k++) {
		uint64_t next = UINT64_MAX, r = rnd(&s) % 100;

		for (i = 0; i < N; i++)
			if (shadow[i].next_intended < next)
				next = shadow[i].next_intended;
		assert_int_equal(rtgroup_next(&g), next);
		if (r < 80)
			wake = next + rnd(&s) % (20 * US);		/* on time */
		else if (r < 95)
			wake = next + rnd(&s) % (1000 * US);	/* late */
		else
			wake = next - 1 - rnd(&s) % (30 * US);	/* early */
		want_mask = want_levels = 0;
		recs_poison(recs, N);
		mask = rtgroup_due(&g, wake, recs, &levels);
		for (i = 0; i < N; i++) {
			if (wake < shadow[i].next_intended) {
				if (!rec_poisoned(&recs[i]))
					fail_msg("seed %llu wake %zu: lane %zu not due got a record",
						 (unsigned long long)seed, k, i);
				continue;
			}
			rtloop_account(&shadow[i], wake, &e);
			want_mask |= UINT32_C(1) << i;
			want_levels |= (uint32_t)e.level << i;
			if (recs[i].seq != e.seq || recs[i].intended_ns != e.intended_ns ||
			    recs[i].level != e.level || recs[i].expirations != e.expirations ||
			    recs[i].flags != e.flags)
				fail_msg("seed %llu wake %zu lane %zu: record differs from the single "
					 "loop's", (unsigned long long)seed, k, i);
		}
		if (mask != want_mask || levels != want_levels)
			fail_msg("seed %llu wake %zu: mask %x levels %x, expected %x %x",
				 (unsigned long long)seed, k, mask, levels, want_mask, want_levels);
	}
	for (i = 0; i < N; i++) {
		assert_int_equal(atomic_load(&lanes[i].missed), atomic_load(&shadow[i].missed));
		assert_int_equal(lanes[i].seq, shadow[i].seq);
	}
	/* the late wake-ups did miss slots, and each lane counted its own */
	assert_true(atomic_load(&lanes[0].missed) > 0);
	rtgroup_close(&g);
}

static void a_group_the_loop_cannot_run_is_refused(void **state)
{
	struct rtloop lanes[2];
	struct rtgroup g;

	(void)state;
	memset(&g, 0, sizeof(g));
	g.clock = CLOCK_MONOTONIC;
	errno = 0;
	assert_int_equal(rtgroup_open(&g), -1);	/* no lane */
	assert_int_equal(errno, EINVAL);
	lane_init(&lanes[0], T0, 100 * US, 100 * US, 0, 0);
	lane_init(&lanes[1], T0, 100 * US, 100 * US, 0, 0);
	lanes[1].spin_ns = 10 * US;
	g.lanes[0] = &lanes[0];
	g.lanes[1] = &lanes[1];
	g.n = 2;
	errno = 0;
	assert_int_equal(rtgroup_open(&g), -1);	/* no spin in a group */
	assert_int_equal(errno, EINVAL);
	lanes[1].spin_ns = 0;
	lanes[1].wave.low_ns = 99 * US;		/* high + low is not 2 x half */
	errno = 0;
	assert_int_equal(rtgroup_open(&g), -1);
	assert_int_equal(errno, EINVAL);
	g.n = 33;
	errno = 0;
	assert_int_equal(rtgroup_open(&g), -1);
	assert_int_equal(errno, EINVAL);
	rtgroup_close(&g);
}

/* ---- real group threads on the simulated chip ---- */

static uint64_t mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define MAXREC 4096

struct sim_group {
	struct gpio_group *gpio;
	struct rtloop lanes[3];
	struct ring rings[3];
	struct rtgroup g;
	struct edge_rec out[3][MAXREC];
	size_t nrec[3];
	size_t n;
};

/* Lines 0, 2, 5 of the simulated chip: A square 100 us from the start, B
 * square 100 us 50 us later (a phase), C 60 us high, 140 us low from the
 * start; each @slots slots (0: until stopped). */
static void sim_group_open(struct sim_group *s, uint64_t slots)
{
	static const char *const lines[] = { "0", "2", "5" };
	struct gpio_out_spec spec = {
		.backend = GPIO_BACKEND_SIM, .chip = "sqwave-sim", .consumer = "test",
	};
	char err[256] = "";
	size_t i;

	memset(s, 0, sizeof(*s));
	gpio_sim_reset();
	s->n = 3;
	s->gpio = gpio_group_open(&spec, lines, s->n, err, sizeof(err));
	if (!s->gpio)
		fail_msg("gpio_group_open: %s", err);
	assert_int_equal(gpio_group_offset(s->gpio, 1), 2);
	lane_init(&s->lanes[0], 0, 100 * US, 100 * US, 0, slots);
	lane_init(&s->lanes[1], 0, 100 * US, 100 * US, 0, slots);
	lane_init(&s->lanes[2], 0, 60 * US, 140 * US, 0, slots);
	for (i = 0; i < s->n; i++) {
		assert_int_equal(ring_init(&s->rings[i], MAXREC), 0);
		s->lanes[i].ring = &s->rings[i];
	}
	group_open(&s->g, s->lanes, s->n);
	s->g.gpio = s->gpio;
}

static void sim_group_start(struct sim_group *s, pthread_t *t)
{
	uint64_t start = mono() + 2000 * US;

	/* every lane's start_ns final before the go, the phase included */
	s->lanes[0].start_ns = start;
	s->lanes[1].start_ns = start + 50 * US;
	s->lanes[2].start_ns = start;
	assert_int_equal(pthread_create(t, NULL, rtgroup_thread, &s->g), 0);
	atomic_store(&s->g.go, true);
}

static void sim_group_join(struct sim_group *s, pthread_t t)
{
	size_t i;

	pthread_join(t, NULL);
	assert_true(atomic_load(&s->g.done));
	assert_int_equal(s->g.error, 0);
	assert_int_equal(s->g.running, 0);
	for (i = 0; i < s->n; i++) {
		assert_true(atomic_load(&s->lanes[i].done));
		s->nrec[i] = ring_pop(&s->rings[i], s->out[i], MAXREC);
		assert_int_equal(s->nrec[i], atomic_load(&s->lanes[i].edges));
		assert_true(s->nrec[i] >= 2);
	}
}

/* Until lane 0 has written @n edges: what a test then stops or breaks is
 * a running group, whenever this machine lets it run (never a time: a
 * wait that overslept would have filled the rings). */
static void sim_group_wait_edges(struct sim_group *s, uint64_t n)
{
	while (atomic_load(&s->lanes[0].edges) < n && !atomic_load(&s->g.done))
		nanosleep(&(struct timespec){ .tv_nsec = 100000 }, NULL);
}

static void sim_group_close(struct sim_group *s)
{
	size_t i;

	rtgroup_close(&s->g);
	assert_int_equal(gpio_group_close(s->gpio), 0);
	for (i = 0; i < s->n; i++)
		ring_free(&s->rings[i]);
	gpio_sim_reset();
}

static uint64_t abs_t(const struct edge_rec *r, int32_t off)
{
	return r->intended_ns + (uint64_t)(int64_t)off;
}

/*
 * The records against the chip's history, before the group's close adds
 * its idle writes: each lane's records are, in order, the writes of its
 * line (level for level, as many); every record's write lies in its write
 * window; records of one wake-up (the same wake, write begin and end)
 * share one call, records of different wake-ups never do; each lane's
 * grid, levels, missed slots and last edge are the single loop's.
 */
static void check_records_against_history(struct sim_group *s)
{
	uint64_t nw = gpio_sim_write_count(), w, calls = 0, prev_call = UINT64_MAX;
	static uint64_t call_of[3][MAXREC];
	size_t idx[3] = { 0, 0, 0 }, i, j, a, b;
	struct gpio_sim_write gw;

	assert_true(nw < GPIO_SIM_HISTORY);
	for (w = 0; w < nw; w++) {
		assert_int_equal(gpio_sim_write_get(w, &gw), 0);
		for (i = 0; i < s->n && gpio_group_offset(s->gpio, i) != gw.offset; i++)
			;
		if (i == s->n)
			fail_msg("write %llu on line %u, not one of the group's",
				 (unsigned long long)w, gw.offset);
		if (idx[i] >= s->nrec[i])
			fail_msg("line %u: more writes than its %zu records", gw.offset, s->nrec[i]);
		const struct edge_rec *r = &s->out[i][idx[i]];

		assert_int_equal(gw.level, r->level);
		assert_int_equal(gw.value, r->level);
		assert_true((uint64_t)gw.t_ns >= abs_t(r, r->write_begin_off_ns));
		assert_true((uint64_t)gw.t_ns <= abs_t(r, r->write_end_off_ns));
		call_of[i][idx[i]++] = gw.call;
		if (gw.call != prev_call)
			calls++;
		prev_call = gw.call;
	}
	for (i = 0; i < s->n; i++)
		assert_int_equal(idx[i], s->nrec[i]);
	/* one group write per wake-up with a due lane, one call each */
	assert_int_equal(calls, atomic_load(&s->g.writes));
	for (a = 0; a < s->n; a++) {
		for (b = a + 1; b < s->n; b++) {
			for (i = 0; i < s->nrec[a]; i++) {
				const struct edge_rec *ra = &s->out[a][i];

				for (j = 0; j < s->nrec[b]; j++) {
					const struct edge_rec *rb = &s->out[b][j];
					bool same_wake = abs_t(ra, ra->wake_off_ns) ==
							 abs_t(rb, rb->wake_off_ns);

					if (same_wake != (call_of[a][i] == call_of[b][j]))
						fail_msg("lane %zu record %zu and lane %zu record %zu: "
							 "%s wake-up but %s call", a, i, b, j,
							 same_wake ? "one" : "different",
							 same_wake ? "different" : "one");
					if (same_wake) {
						assert_int_equal(ra->write_begin_off_ns + (int64_t)ra->intended_ns,
								 rb->write_begin_off_ns + (int64_t)rb->intended_ns);
						assert_int_equal(ra->write_end_off_ns + (int64_t)ra->intended_ns,
								 rb->write_end_off_ns + (int64_t)rb->intended_ns);
					}
				}
			}
		}
	}
	/* A and C start on one instant: the first wake-up finds both due
	 * (however late it is), so their first edges are always one call */
	assert_int_equal(call_of[0][0], call_of[2][0]);
	assert_int_equal(abs_t(&s->out[0][0], s->out[0][0].wake_off_ns),
			 abs_t(&s->out[2][0], s->out[2][0].wake_off_ns));
	for (i = 0; i < s->n; i++) {
		struct rtloop *l = &s->lanes[i];
		uint64_t missed = 0, slot = 0;

		for (j = 0; j < s->nrec[i]; j++) {
			const struct edge_rec *r = &s->out[i][j];
			int64_t k = wave_slot_of(&l->wave, l->idle_level, l->start_ns, r->intended_ns);

			assert_true(k >= 0);
			assert_int_equal(r->seq, j);
			assert_int_equal(r->level, (j + 1) % 2);
			/* a duty lane's level is its slot's; a square lane only toggles */
			if (l->duty)
				assert_int_equal(r->level, wave_slot_level(l->idle_level, (uint64_t)k));
			assert_int_equal(r->expirations, (uint64_t)k + 1 - slot);
			slot = (uint64_t)k + 1;
			missed += r->expirations - 1u;
			assert_true(r->wake_off_ns >= 0);
			assert_true(r->write_begin_off_ns >= r->wake_off_ns);
			assert_true(r->write_end_off_ns >= r->write_begin_off_ns);
			assert_int_equal(!!(r->flags & EDGE_F_LAST), j == s->nrec[i] - 1);
			assert_false(r->flags & EDGE_F_WRITE_ERR);
		}
		assert_int_equal(missed, atomic_load(&l->missed));
		/* the lane ends back at idle, and so does its line */
		assert_int_equal(s->out[i][s->nrec[i] - 1].level, l->idle_level);
	}
}

static void a_group_thread_writes_each_lane_as_its_records_say(void **state)
{
	struct sim_group *s = calloc(1, sizeof(*s));
	struct gpio_sim_line line;
	pthread_t t;
	size_t i;

	(void)state;
	assert_non_null(s);
	sim_group_open(s, 40);
	sim_group_start(s, &t);
	sim_group_join(s, t);
	for (i = 0; i < s->n; i++) {
		/* 40 slots; a late last slot may leave one edge more to idle */
		assert_true(s->nrec[i] <= 41);
		assert_true(s->out[i][s->nrec[i] - 1].intended_ns >=
			    wave_slot_ns(&s->lanes[i].wave, 0, s->lanes[i].start_ns, 39));
		assert_int_equal(gpio_sim_line_get(gpio_group_offset(s->gpio, i), &line), 0);
		assert_int_equal(line.value, 0);
	}
	check_records_against_history(s);
	sim_group_close(s);
	free(s);
}

/* Until stopped: a stop reaches every lane, each ends at idle with its
 * last edge flagged, and the records still match the pin. The stop comes
 * once every lane has written an edge, however late the thread starts (a
 * stop before slot 0 is the next test). */
static void a_stop_ends_every_lane_at_idle(void **state)
{
	struct sim_group *s = calloc(1, sizeof(*s));
	pthread_t t;
	size_t i;

	(void)state;
	assert_non_null(s);
	sim_group_open(s, 0);
	sim_group_start(s, &t);
	for (i = 0; i < s->n; i++)
		while (!atomic_load(&s->lanes[i].edges) && !atomic_load(&s->g.done))
			nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	atomic_store(&s->g.stop_req, true);
	sim_group_join(s, t);
	check_records_against_history(s);
	sim_group_close(s);
	free(s);
}

/*
 * A stop before slot 0 ends every lane at once, with no edge, and each
 * lane's state is what its (no) edges say: ended (not running), stopped,
 * at its idle level, and so is its line. First a thread that starts late,
 * after the go and the stop (here by the order of calls; under load, a
 * thread not yet run when the stop came), slot 0 2 ms ahead; then slot 0
 * an hour ahead (grid.start), stopped wherever the thread is by then.
 */
static void a_stop_before_slot_0_ends_every_lane_at_idle(void **state)
{
	struct sim_group *s = calloc(1, sizeof(*s));
	struct timespec until;
	pthread_t t;
	size_t i;
	int far;

	(void)state;
	assert_non_null(s);
	for (far = 0; far < 2; far++) {
		uint64_t start = mono() + (far ? 3600ull * 1000000000ull : 2000 * US);

		sim_group_open(s, 0);
		for (i = 0; i < s->n; i++)
			s->lanes[i].start_ns = start + (i == 1 ? 50 * US : 0);
		atomic_store(&s->g.go, true);
		if (!far)
			atomic_store(&s->g.stop_req, true);
		assert_int_equal(pthread_create(&t, NULL, rtgroup_thread, &s->g), 0);
		if (far)
			atomic_store(&s->g.stop_req, true);
		/* joined with a bound of a minute: a hang guard, not a timing
		 * assertion */
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 60;
		assert_int_equal(pthread_timedjoin_np(t, NULL, &until), 0);
		assert_true(atomic_load(&s->g.done));
		assert_int_equal(s->g.error, 0);
		assert_int_equal(s->g.running, 0);
		assert_int_equal(rtgroup_next(&s->g), UINT64_MAX);
		assert_int_equal(atomic_load(&s->g.writes), 0);
		assert_int_equal(gpio_sim_write_count(), 0);
		for (i = 0; i < s->n; i++) {
			struct rtloop *l = &s->lanes[i];
			struct gpio_sim_line line;

			assert_true(atomic_load(&l->done));
			assert_true(atomic_load(&l->stop_req));
			assert_int_equal(atomic_load(&l->edges), 0);
			assert_int_equal(ring_pop(&s->rings[i], s->out[i], MAXREC), 0);
			assert_int_equal(l->level, l->idle_level);
			assert_true(rtloop_is_last(l));
			assert_int_equal(gpio_sim_line_get(gpio_group_offset(s->gpio, i), &line), 0);
			assert_int_equal(line.value, l->idle_level);
		}
		sim_group_close(s);
	}
	free(s);
}

/* A write that fails ends the run: the lanes of that write are flagged
 * and counted, nothing hangs. */
static void a_failed_group_write_stops_every_lane(void **state)
{
	struct sim_group *s = calloc(1, sizeof(*s));
	pthread_t t;
	size_t i, err_recs = 0, recs = 0;
	uint64_t nw;

	(void)state;
	assert_non_null(s);
	sim_group_open(s, 0);
	sim_group_start(s, &t);
	sim_group_wait_edges(s, 8);
	gpio_sim_fail_next_write(EIO);
	pthread_join(t, NULL);
	assert_true(atomic_load(&s->g.done));
	nw = gpio_sim_write_count();
	for (i = 0; i < s->n; i++) {
		size_t n = ring_pop(&s->rings[i], s->out[i], MAXREC), j, errs = 0;

		assert_true(n >= 1);
		assert_int_equal(n, atomic_load(&s->lanes[i].edges));
		/* at most one failed write per lane, and it is the lane's last */
		for (j = 0; j < n; j++) {
			if (s->out[i][j].flags & EDGE_F_WRITE_ERR) {
				errs++;
				assert_int_equal(j, n - 1);
			}
		}
		assert_true(s->out[i][n - 1].flags & EDGE_F_LAST);
		assert_int_equal(errs, atomic_load(&s->lanes[i].write_errors));
		err_recs += errs;
		recs += n;
	}
	assert_true(err_recs >= 1);
	/* the failed call wrote nothing; every other record is one write */
	assert_int_equal(nw, recs - err_recs);
	sim_group_close(s);
	free(s);
}

static void a_group_cancelled_before_go_writes_nothing(void **state)
{
	struct sim_group *s = calloc(1, sizeof(*s));
	pthread_t t;
	size_t i;

	(void)state;
	assert_non_null(s);
	sim_group_open(s, 0);
	assert_int_equal(pthread_create(&t, NULL, rtgroup_thread, &s->g), 0);
	atomic_store(&s->g.stop_req, true);
	atomic_store(&s->g.go, true);
	pthread_join(t, NULL);
	assert_true(atomic_load(&s->g.done));
	assert_int_equal(gpio_sim_write_count(), 0);
	for (i = 0; i < s->n; i++) {
		assert_true(atomic_load(&s->lanes[i].done));
		assert_int_equal(ring_pop(&s->rings[i], s->out[i], MAXREC), 0);
	}
	sim_group_close(s);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_wake_up_serves_the_due_lanes_and_no_other),
		cmocka_unit_test(lanes_due_together_carry_each_its_own_level),
		cmocka_unit_test(a_late_wake_up_counts_missed_slots_per_lane),
		cmocka_unit_test(a_lane_that_has_ended_is_neither_due_nor_next),
		cmocka_unit_test(random_wake_ups_match_one_single_loop_per_lane),
		cmocka_unit_test(a_group_the_loop_cannot_run_is_refused),
		cmocka_unit_test(a_group_thread_writes_each_lane_as_its_records_say),
		cmocka_unit_test(a_stop_ends_every_lane_at_idle),
		cmocka_unit_test(a_stop_before_slot_0_ends_every_lane_at_idle),
		cmocka_unit_test(a_failed_group_write_stops_every_lane),
		cmocka_unit_test(a_group_cancelled_before_go_writes_nothing),
	};

	return cmocka_run_group_tests_name("rtgroup", tests, NULL, NULL);
}
