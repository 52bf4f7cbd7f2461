/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the sim's stimulus and an input's edge, debounce and clock
 * choices: stamps, bounces, debounce, a full queue's drops, the history file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "gpio/gpio_in.h"
#include "gpio/gpio_out.h"
#include "gpio/gpio_sim.h"

#define MAXEV 1200

static struct config *cfg;
static char msg[GPIO_MSG_MAX];
static struct gpio_in_event ev[MAXEV];
static struct gpio_in *held;   /* closed by teardown if a test failed with it open */

static void setk(const char *assignment)
{
	char err[256];

	if (config_apply_set(cfg, assignment, err, sizeof(err)) != CFG_OK)
		fail_msg("%s: %s", assignment, err);
}

static int setup(void **state)
{
	(void)state;
	gpio_sim_reset();
	cfg = config_new();
	assert_non_null(cfg);
	setk("sim.stim_line=2");
	setk("sim.stim_period=1ms");
	setk("sim.stim_count=4");
	return 0;
}

static void in_close(struct gpio_in *in)
{
	gpio_in_close(in);
	if (in == held)
		held = NULL;
}

static int teardown(void **state)
{
	(void)state;
	in_close(held);
	config_free(cfg);
	cfg = NULL;
	return 0;
}

static uint64_t now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static struct gpio_in *in_open_spec(const char *line, enum gpio_edge edge, int64_t debounce,
				    enum gpio_event_clock clock)
{
	struct gpio_in_spec s = {
		.backend = GPIO_BACKEND_SIM, .chip = "sim", .line = line, .edges = true,
		.config = cfg, .edge = edge, .debounce_ns = debounce, .clock = clock,
	};

	struct gpio_in *in = gpio_in_open(&s, msg, sizeof(msg));

	if (in)
		held = in;
	return in;
}

static struct gpio_in *in_open(enum gpio_edge edge, int64_t debounce)
{
	struct gpio_in *in = in_open_spec("2", edge, debounce, GPIO_CLOCK_MONOTONIC);

	if (!in)
		fail_msg("input: %s", msg);
	return in;
}

/* Wait for the schedule to run out. The bound only turns a hang into a
 * failure; nothing is asserted about how fast the thread ran. */
static void wait_finished(void)
{
	struct timespec ms = { 0, 1000000 };
	int i;

	for (i = 0; i < 20000 && !gpio_sim_stim_finished(); i++)
		nanosleep(&ms, NULL);
	assert_true(gpio_sim_stim_finished());
}

/* Every event queued (all are due once the schedule has run out). */
static int read_all(struct gpio_in *in)
{
	int n = 0, r;

	while (n < MAXEV && (r = gpio_in_read(in, ev + n, (size_t)(MAXEV - n), 0)) > 0)
		n += r;
	assert_true(n >= 0);
	return n;
}

static struct gpio_sim_stim stim(uint64_t n)
{
	struct gpio_sim_stim s;

	if (gpio_sim_stim_get(n, &s))
		fail_msg("stimulus change %llu: %s", (unsigned long long)n, strerror(errno));
	return s;
}

/*
 * The model of gpio_sim.h held against the record's own times: every change
 * at or after it was due; without debounce each change the edge choice
 * takes is an event stamped at its time; with debounce @d a change's timer
 * ran out when the next change came at or after its time + @d (the last
 * change: when it is not pending), and then a level other than the last
 * reported is an event stamped at that expiry. The @n events read must be
 * exactly those, in order, with consecutive numbers. Nothing here depends
 * on how late the stimulus thread was. Returns the events expected.
 */
static int check_model(int n, enum gpio_edge edge, int64_t d)
{
	uint64_t i, count = gpio_sim_stim_count(), seq = 0;
	int reported = 0, e = 0;   /* the line is at 0 when requested */

	for (i = 0; i < count; i++) {
		struct gpio_sim_stim s = stim(i);
		bool ran_out = true, takes;
		int64_t stamp = s.t_ns;

		assert_true(s.t_ns >= s.due_ns);
		if (d > 0) {
			ran_out = i + 1 < count ? stim(i + 1).t_ns >= s.t_ns + d : !s.pending;
			stamp = s.t_ns + d;
		}
		if (i + 1 < count)
			assert_false(s.pending);
		takes = edge == GPIO_EDGE_BOTH || (edge == GPIO_EDGE_RISING) == (s.level == 1);
		if (!ran_out || s.level == reported) {
			assert_int_equal(s.seqno, 0);
			assert_false(s.reported);
			assert_int_equal(s.event_ns, 0);
			continue;
		}
		reported = s.level;
		if (!takes) {
			assert_int_equal(s.seqno, 0);
			assert_false(s.reported);
			continue;
		}
		seq++;
		assert_int_equal(s.seqno, seq);
		assert_true(s.reported);
		assert_int_equal(s.event_ns, stamp);
		assert_true(e < n);
		assert_int_equal(ev[e].t_ns, (uint64_t)stamp);
		assert_int_equal(ev[e].seqno, seq);
		assert_int_equal(ev[e].rising, s.level);
		e++;
	}
	assert_int_equal(e, n);
	return e;
}

static void the_schedule_gives_count_edges_a_period_apart_after_one_period(void **state)
{
	struct gpio_sim_stim s0, s;
	struct gpio_in *in;
	uint64_t before;
	int i, n;

	(void)state;
	before = now_ns(CLOCK_MONOTONIC);
	in = in_open(GPIO_EDGE_BOTH, 0);
	assert_int_equal(gpio_in_clockid(in), CLOCK_MONOTONIC);
	wait_finished();
	assert_int_equal(gpio_sim_stim_count(), 4);
	s0 = stim(0);
	assert_true((uint64_t)s0.due_ns >= before + 1000000);
	n = read_all(in);
	assert_int_equal(n, 4);
	for (i = 0; i < 4; i++) {
		s = stim((uint64_t)i);
		/* due on the schedule; changed then or later, stamped as changed */
		assert_int_equal(s.due_ns - s0.due_ns, (int64_t)i * 1000000);
		assert_true(s.t_ns >= s.due_ns);
		assert_int_equal(s.offset, 2);
		assert_int_equal(s.level, !(i & 1));
		assert_false(s.bounce);
		assert_true(s.reported);
		assert_int_equal(s.seqno, (uint64_t)i + 1);
		assert_int_equal(s.event_ns, s.t_ns);
		assert_int_equal(ev[i].t_ns, (uint64_t)s.t_ns);
		assert_int_equal(ev[i].seqno, (uint64_t)i + 1);
		assert_int_equal(ev[i].rising, !(i & 1));
	}
	assert_int_equal(gpio_in_get(in), 0);   /* four changes: back at 0 */
	in_close(in);
}

static void jitter_delays_an_edge_within_its_bound_and_never_before_the_last(void **state)
{
	struct gpio_sim_stim s0, s, prev;
	struct gpio_in *in;
	bool moved = false;
	int64_t d;
	int i;

	(void)state;
	setk("sim.stim_count=20");
	setk("sim.stim_period=10us");
	setk("sim.stim_jitter=30us");
	in = in_open(GPIO_EDGE_BOTH, 0);
	wait_finished();
	assert_int_equal(gpio_sim_stim_count(), 20);
	s0 = stim(0);
	prev = s0;
	for (i = 1; i < 20; i++) {
		s = stim((uint64_t)i);
		/* edge i is due at t0 + i * period + 0..jitter, edge 0 too */
		d = s.due_ns - s0.due_ns - (int64_t)i * 10000;
		assert_true(s.due_ns >= prev.due_ns);
		assert_true(s.t_ns >= prev.t_ns);
		assert_true(d >= -30000 && d <= 30000);
		moved |= d != 0;
		prev = s;
	}
	assert_true(moved);
	in_close(in);
}

static void rising_only_reports_every_other_change_and_falling_the_others(void **state)
{
	struct gpio_in *in;
	int i, n;

	(void)state;
	setk("sim.stim_count=6");
	in = in_open(GPIO_EDGE_RISING, 0);
	wait_finished();
	n = read_all(in);
	assert_int_equal(n, 3);
	for (i = 0; i < 6; i++) {
		struct gpio_sim_stim s = stim((uint64_t)i);

		assert_int_equal(s.reported, !(i & 1));
		assert_int_equal(s.seqno, (i & 1) ? 0 : (uint64_t)i / 2 + 1);
		if (!(i & 1)) {
			assert_int_equal(ev[i / 2].t_ns, (uint64_t)s.t_ns);
			assert_int_equal(ev[i / 2].seqno, (uint64_t)i / 2 + 1);
			assert_int_equal(ev[i / 2].rising, 1);
		}
	}
	in_close(in);

	in = in_open(GPIO_EDGE_FALLING, 0);
	wait_finished();
	n = read_all(in);
	assert_int_equal(n, 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(ev[i].t_ns, (uint64_t)stim((uint64_t)(2 * i + 1)).t_ns);
		assert_int_equal(ev[i].rising, 0);
		assert_int_equal(ev[i].seqno, (uint64_t)i + 1);
	}
	in_close(in);
}

static void without_debounce_every_bounce_is_an_event(void **state)
{
	struct gpio_sim_stim base, s;
	struct gpio_in *in;
	int e, b, n;

	(void)state;
	setk("sim.stim_count=2");
	setk("sim.stim_bounce=2");
	setk("sim.stim_bounce_gap=10us");
	in = in_open(GPIO_EDGE_BOTH, 0);
	wait_finished();
	assert_int_equal(gpio_sim_stim_count(), 10);
	n = read_all(in);
	assert_int_equal(n, 10);
	for (e = 0; e < 2; e++) {
		base = stim((uint64_t)e * 5);
		assert_int_equal(base.level, !e);
		for (b = 0; b < 5; b++) {
			s = stim((uint64_t)(e * 5 + b));
			assert_int_equal(s.due_ns, base.due_ns + b * 10000);
			assert_int_equal(s.bounce, b != 0);
			/* away from the new level on odd steps, back on even ones */
			assert_int_equal(s.level, (b & 1) ? e : !e);
			assert_int_equal(ev[e * 5 + b].t_ns, (uint64_t)s.t_ns);
			assert_int_equal(ev[e * 5 + b].rising, s.level);
		}
	}
	check_model(n, GPIO_EDGE_BOTH, 0);
	in_close(in);
}

/* Whether every bounce of the record came less than @d after the change
 * before it, and every edge at least @d after: then the debounce must
 * have made one event per edge. A busy machine can spread the bounces (the
 * thread woke late between two); the model check holds either way. */
static bool bursts_shorter_than(int64_t d, int per_edge)
{
	uint64_t i, n = gpio_sim_stim_count();

	for (i = 1; i < n; i++) {
		int64_t gap = stim(i).t_ns - stim(i - 1).t_ns;

		if (i % (uint64_t)per_edge ? gap >= d : gap < d)
			return false;
	}
	return true;
}

static void a_debounce_longer_than_the_bounces_gives_one_event_per_edge(void **state)
{
	struct gpio_in *in;
	int e, n;

	(void)state;
	setk("sim.stim_bounce=3");
	setk("sim.stim_bounce_gap=10us");
	in = in_open(GPIO_EDGE_BOTH, 100000);
	wait_finished();
	assert_int_equal(gpio_sim_stim_count(), 4 * 7);
	n = read_all(in);
	check_model(n, GPIO_EDGE_BOTH, 100000);
	if (bursts_shorter_than(100000, 7)) {
		assert_int_equal(n, 4);
		for (e = 0; e < 4; e++) {
			struct gpio_sim_stim last = stim((uint64_t)(e * 7 + 6));

			assert_int_equal(ev[e].t_ns, (uint64_t)last.t_ns + 100000);
			assert_int_equal(ev[e].rising, !(e & 1));
			assert_true(last.reported);
		}
	}
	in_close(in);
}

static void a_debounce_shorter_than_the_gap_reports_each_change_late(void **state)
{
	struct gpio_in *in;
	int n;

	(void)state;
	setk("sim.stim_count=2");
	setk("sim.stim_bounce=1");
	setk("sim.stim_bounce_gap=50us");
	in = in_open(GPIO_EDGE_RISING, 20000);
	wait_finished();
	assert_int_equal(gpio_sim_stim_count(), 6);
	n = read_all(in);
	/* levels 1 0 1 | 0 1 0: the rising ones are changes 0, 2 and 4, each an
	 * event 20 us after it when the next came later than that; falling
	 * changes settle too but are no events: no number spent */
	check_model(n, GPIO_EDGE_RISING, 20000);
	if (bursts_shorter_than(20000, 1))
		assert_int_equal(n, 3);
	in_close(in);
}

static void a_bounce_back_to_the_reported_level_within_the_debounce_is_no_event(void **state)
{
	struct gpio_in *in;
	int n;

	(void)state;
	/* One edge with one bounce: 1 at t, 0 at t + gap, 1 at t + 2 gap. A
	 * debounce between gap and 2 gap reports the 1 once; the middle 0 is
	 * never stable for long enough. Then count it again with the level
	 * ending where it started: two edges, debounce over both. */
	setk("sim.stim_count=1");
	setk("sim.stim_bounce=1");
	setk("sim.stim_bounce_gap=30us");
	in = in_open(GPIO_EDGE_BOTH, 45000);
	wait_finished();
	n = read_all(in);
	check_model(n, GPIO_EDGE_BOTH, 45000);
	if (bursts_shorter_than(45000, 3)) {
		assert_int_equal(n, 1);
		assert_int_equal(ev[0].t_ns, (uint64_t)stim(2).t_ns + 45000);
		assert_int_equal(ev[0].rising, 1);
	}
	in_close(in);

	gpio_sim_reset();
	setk("sim.stim_count=2");
	setk("sim.stim_period=20us");
	setk("sim.stim_bounce=0");
	in = in_open(GPIO_EDGE_BOTH, 500000);
	wait_finished();
	assert_int_equal(gpio_sim_stim_count(), 2);
	n = read_all(in);
	check_model(n, GPIO_EDGE_BOTH, 500000);
	if (stim(1).t_ns - stim(0).t_ns < 500000) {
		assert_int_equal(n, 0);           /* 0 -> 1 -> 0 inside one debounce */
		assert_false(stim(0).reported);
		assert_false(stim(1).reported);
	}
	in_close(in);
}

/* Wait (a bound only turns a hang into a failure) until CLOCK_MONOTONIC has
 * passed @t. */
static void wait_past(int64_t t)
{
	struct timespec ms = { 0, 1000000 };
	int i;

	for (i = 0; i < 20000 && (int64_t)now_ns(CLOCK_MONOTONIC) <= t; i++)
		nanosleep(&ms, NULL);
	assert_true((int64_t)now_ns(CLOCK_MONOTONIC) > t);
}

static void a_late_stimulus_is_stamped_when_the_pin_changed(void **state)
{
	struct gpio_sim_stim s;
	struct gpio_in *in;
	int64_t opened, let_go;
	int i, n;

	(void)state;
	/* Held, the thread cannot change the line however late that makes
	 * it: the first two changes are due before it is let go, and made
	 * after. Their record and events must say when they happened. */
	setk("sim.stim_count=3");
	gpio_sim_stim_hold(true);
	in = in_open(GPIO_EDGE_BOTH, 0);
	opened = (int64_t)now_ns(CLOCK_MONOTONIC);     /* after the request */
	wait_past(opened + 3 * 1000000);
	assert_int_equal(gpio_sim_stim_count(), 0);
	let_go = (int64_t)now_ns(CLOCK_MONOTONIC);
	gpio_sim_stim_hold(false);
	wait_finished();
	n = read_all(in);
	assert_int_equal(n, 3);
	for (i = 0; i < 2; i++) {
		s = stim((uint64_t)i);
		assert_true(s.due_ns < let_go);
		assert_true(s.t_ns >= let_go);
		assert_int_equal(s.event_ns, s.t_ns);
		assert_int_equal(ev[i].t_ns, (uint64_t)s.t_ns);
	}
	check_model(n, GPIO_EDGE_BOTH, 0);
	in_close(in);
}

static void a_late_debounce_runs_out_after_the_actual_last_change(void **state)
{
	struct gpio_in *in;
	int64_t opened, let_go;
	uint64_t i;
	int n;

	(void)state;
	/* One edge and two bounces, all due while the thread is held: made
	 * together once let go. The timer runs from the last one actually
	 * made, not from when it was due. */
	setk("sim.stim_count=1");
	setk("sim.stim_bounce=2");
	setk("sim.stim_bounce_gap=10us");
	gpio_sim_stim_hold(true);
	in = in_open(GPIO_EDGE_BOTH, 100000);
	opened = (int64_t)now_ns(CLOCK_MONOTONIC);     /* after the request */
	wait_past(opened + 1000000 + 4 * 10000 + 100000 + 1000000);
	let_go = (int64_t)now_ns(CLOCK_MONOTONIC);
	gpio_sim_stim_hold(false);
	wait_finished();
	assert_int_equal(gpio_sim_stim_count(), 5);
	for (i = 0; i < 5; i++) {
		assert_true(stim(i).due_ns + 100000 < let_go);
		assert_true(stim(i).t_ns >= let_go);
	}
	n = read_all(in);
	check_model(n, GPIO_EDGE_BOTH, 100000);
	assert_true(n >= 1);
	assert_true((int64_t)ev[n - 1].t_ns >= let_go + 100000);
	/* The last event is the last reported change's timer running out.
	 * Which change that is depends on how fast the burst was made: a
	 * thread held off for 100 us between two changes lets a timer run
	 * out early (the model above says which), and the last change is
	 * then no event if it returns to that level (seen on an emulated
	 * board: the event came from change 2). */
	for (i = 5; i-- > 0;)
		if (stim(i).reported)
			break;
	assert_true(i < 5);
	assert_true(stim(i).t_ns >= let_go);
	assert_int_equal(ev[n - 1].t_ns, (uint64_t)stim(i).t_ns + 100000);
	in_close(in);
}

static void a_debounce_pending_at_the_release_is_in_the_record(void **state)
{
	struct timespec ms = { 0, 1000000 };
	struct gpio_sim_line l = { 0 };
	struct gpio_in *in;
	int i;

	(void)state;
	/* An hour's debounce: the change is made, its timer never runs out
	 * before the release. */
	setk("sim.stim_count=1");
	in = in_open(GPIO_EDGE_BOTH, 3600ll * 1000000000);
	for (i = 0; i < 20000 && !l.value; i++) {
		nanosleep(&ms, NULL);
		assert_int_equal(gpio_sim_line_get(2, &l), 0);
	}
	assert_int_equal(l.value, 1);
	in_close(in);
	assert_int_equal(gpio_sim_stim_count(), 1);
	assert_true(stim(0).pending);
	assert_false(stim(0).reported);
	assert_int_equal(stim(0).seqno, 0);
	assert_int_equal(stim(0).event_ns, 0);
}

static struct gpio_sim_drop drop(uint64_t n)
{
	struct gpio_sim_drop d;

	if (gpio_sim_drop_get(n, &d))
		fail_msg("dropped event %llu: %s", (unsigned long long)n, strerror(errno));
	return d;
}

static void a_full_queue_pushes_out_its_oldest_events_and_records_each(void **state)
{
	struct gpio_sim_drop d;
	struct gpio_in *in;
	uint64_t i, over = 1100 - GPIO_SIM_EVENTS;
	int n;

	(void)state;
	setk("sim.stim_count=1100");
	setk("sim.stim_period=1us");
	in = in_open(GPIO_EDGE_BOTH, 0);
	wait_finished();
	/* every change was queued with its number when it happened */
	for (i = 0; i < 1100; i++) {
		struct gpio_sim_stim s = stim(i);

		assert_int_equal(s.seqno, i + 1);
		assert_true(s.reported);
	}
	/* the reader gets the newest, and sees the gap before them */
	n = read_all(in);
	assert_int_equal(n, GPIO_SIM_EVENTS);
	assert_int_equal(ev[0].seqno, over + 1);
	assert_int_equal(ev[n - 1].seqno, 1100);
	/* the oldest, each pushed out by the event GPIO_SIM_EVENTS after it */
	assert_int_equal(gpio_sim_drop_count(), over);
	for (i = 0; i < over; i++) {
		d = drop(i);
		assert_int_equal(d.seqno, i + 1);
		assert_int_equal(d.offset, 2);
		assert_int_equal(d.rising, stim(i).level);
		assert_int_equal(d.event_ns, stim(i).event_ns);
		assert_int_equal(d.t_ns, stim(i + GPIO_SIM_EVENTS).event_ns);
	}
	assert_int_equal(gpio_sim_drop_get(over, &d), -1);
	in_close(in);
}

/* A reader racing a producer that pushes events out of a full queue: each
 * event is either read or recorded dropped, never both, and the reader
 * gets them in order. How often the two meet depends on the machine; what
 * is asserted holds however they meet. */
static void an_event_is_read_or_dropped_never_both_while_the_queue_overflows(void **state)
{
	enum { COUNT = 6000 };
	static unsigned char fate[COUNT + 1];   /* 1 read, 2 dropped */
	struct gpio_in_event one[2];
	struct gpio_in *in;
	uint64_t i, last = 0, reads = 0;
	int r;

	(void)state;
	memset(fate, 0, sizeof(fate));
	setk("sim.stim_count=6000");
	setk("sim.stim_period=1us");
	in = in_open(GPIO_EDGE_BOTH, 0);
	/* one event per read, slower than the stimulus on most machines; until
	 * a read after the stimulus had finished finds the queue empty */
	for (;;) {
		bool done = gpio_sim_stim_finished();

		r = gpio_in_read(in, one, 1, 0);
		assert_true(r >= 0);
		if (r == 0 && done)
			break;
		if (r == 0)
			continue;
		assert_true(one[0].seqno > last && one[0].seqno <= COUNT);
		last = one[0].seqno;
		fate[last] = 1;
		reads++;
	}
	for (i = 0; i < gpio_sim_drop_count(); i++) {
		uint64_t s = drop(i).seqno;

		assert_true(s >= 1 && s <= COUNT);
		assert_int_equal(fate[s], 0);
		fate[s] = 2;
	}
	for (i = 1; i <= COUNT; i++)
		if (!fate[i])
			fail_msg("event %llu was neither read nor dropped", (unsigned long long)i);
	assert_int_equal(reads + gpio_sim_drop_count(), COUNT);
	in_close(in);
}

static void realtime_stamps_are_the_change_times_on_the_realtime_clock(void **state)
{
	int64_t off_before, off_after, off;
	struct gpio_in *in;
	int i, n;

	(void)state;
	off_before = (int64_t)(now_ns(CLOCK_REALTIME) - now_ns(CLOCK_MONOTONIC));
	in = in_open_spec("2", GPIO_EDGE_BOTH, 0, GPIO_CLOCK_REALTIME);
	assert_non_null(in);
	off_after = (int64_t)(now_ns(CLOCK_REALTIME) - now_ns(CLOCK_MONOTONIC));
	assert_int_equal(gpio_in_clockid(in), CLOCK_REALTIME);
	wait_finished();
	n = read_all(in);
	assert_int_equal(n, 4);
	off = (int64_t)ev[0].t_ns - stim(0).t_ns;
	/* The offset read once at the request lies between the two read
	 * around it (give or take the reads' own microseconds). */
	assert_true(off >= (off_before < off_after ? off_before : off_after) - 1000000);
	assert_true(off <= (off_before > off_after ? off_before : off_after) + 1000000);
	for (i = 0; i < 4; i++)
		assert_int_equal((int64_t)ev[i].t_ns - stim((uint64_t)i).t_ns, off);
	in_close(in);
}

static void hte_and_a_debounce_off_the_stimulus_are_refused(void **state)
{
	struct gpio_in *in;

	(void)state;
	in = in_open_spec("2", GPIO_EDGE_BOTH, 0, GPIO_CLOCK_HTE);
	assert_null(in);
	assert_int_equal(errno, ENOTSUP);
	assert_string_equal(msg, "the simulated chip has no hardware timestamp engine event "
			    "clock (respond.event_clock hte): set respond.event_clock monotonic");
	in = in_open_spec("3", GPIO_EDGE_BOTH, 1000, GPIO_CLOCK_MONOTONIC);
	assert_null(in);
	assert_int_equal(errno, ENOTSUP);
	assert_non_null(strstr(msg, "with a debounce (respond.debounce)"));
	assert_non_null(strstr(msg, "debounces only its stimulated line"));
	/* Nothing is left held by the refusals. */
	in = in_open(GPIO_EDGE_BOTH, 0);
	in_close(in);
}

static void the_stimulated_line_has_one_driver(void **state)
{
	char err[256];
	struct gpio_in *in;

	(void)state;
	in = in_open(GPIO_EDGE_BOTH, 0);
	assert_int_equal(gpio_sim_line_drive(2, 1, 1), -1);
	assert_int_equal(errno, EBUSY);
	in_close(in);
	assert_int_equal(config_apply_set(cfg, "sim.wire_line=2", err, sizeof(err)), CFG_OK);
	assert_null(in_open_spec("2", GPIO_EDGE_BOTH, 0, GPIO_CLOCK_MONOTONIC));
	assert_string_equal(msg, "sim.stim_line and sim.wire_line are both 2: a line is either "
			    "driven by the stimulus or wired to the output");
}

static void a_stimulus_without_a_count_runs_until_the_release(void **state)
{
	struct timespec ms = { 0, 1000000 };
	struct gpio_in *in;
	uint64_t n;
	int i;

	(void)state;
	setk("sim.stim_count=0");
	setk("sim.stim_period=10us");
	in = in_open(GPIO_EDGE_BOTH, 0);
	for (i = 0; i < 20000 && gpio_sim_stim_count() < 5; i++)
		nanosleep(&ms, NULL);
	assert_true(gpio_sim_stim_count() >= 5);
	assert_false(gpio_sim_stim_finished());
	in_close(in);                       /* joins the thread */
	n = gpio_sim_stim_count();
	nanosleep(&ms, NULL);
	assert_int_equal(gpio_sim_stim_count(), n);
}

static char *tmp_path(const char *name)
{
	static char path[256];
	const char *dir = getenv("TMPDIR");

	snprintf(path, sizeof(path), "%s/sqw-stim-%ld-%s", dir && *dir ? dir : "/tmp",
		 (long)getpid(), name);
	return path;
}

static void the_history_file_has_every_write_and_change_at_the_last_release(void **state)
{
	char set[320], line[256], *path = tmp_path("hist.csv");
	struct gpio_out_spec os = {
		.backend = GPIO_BACKEND_SIM, .chip = "sim", .line = "0", .consumer = "sqwave",
		.config = cfg,
	};
	struct gpio_sim_write w;
	struct gpio_out *o;
	struct gpio_in *in;
	FILE *f;
	int i, nw = 0, ns = 0, ends = 0;

	(void)state;
	unlink(path);
	snprintf(set, sizeof(set), "sim.history_file=%s", path);
	setk(set);
	setk("sim.stim_count=3");
	o = gpio_out_open(&os, msg, sizeof(msg));
	assert_non_null(o);
	in = in_open(GPIO_EDGE_RISING, 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(gpio_out_set(o, !(i & 1)), 0);
	wait_finished();
	in_close(in);
	/* the output still holds a line: the file has no end yet */
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		assert_true(strncmp(line, "end,", 4) != 0);
	fclose(f);
	gpio_out_close(o);
	assert_int_equal(gpio_sim_history_error(msg, sizeof(msg)), 0);

	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "kind,t_ns,offset,level,value_or_reported,seqno_or_call,"
			    "event_ns,due_ns_or_call,note\n");
	while (fgets(line, sizeof(line), f)) {
		char want[256];

		assert_int_equal(ends, 0);            /* the end row is the last */
		if (!strncmp(line, "write,", 6)) {
			assert_int_equal(gpio_sim_write_get((uint64_t)nw++, &w), 0);
			snprintf(want, sizeof(want), "write,%lld,%u,%d,%d,%d,,,\n", (long long)w.t_ns,
				 w.offset, w.level, w.value, nw - 1);
		} else if (!strncmp(line, "stim,", 5)) {
			struct gpio_sim_stim s = stim((uint64_t)ns++);

			if (s.level)
				snprintf(want, sizeof(want), "stim,%lld,2,1,1,%d,%lld,%lld,edge\n",
					 (long long)s.t_ns, (ns + 1) / 2, (long long)s.t_ns,
					 (long long)s.due_ns);
			else
				snprintf(want, sizeof(want), "stim,%lld,2,0,0,0,,%lld,edge\n",
					 (long long)s.t_ns, (long long)s.due_ns);
		} else {
			unsigned long long rows;
			long long t;
			int c;

			assert_int_equal(sscanf(line, "end,%lld,,,%d,%llu,,,", &t, &c, &rows), 3);
			snprintf(want, sizeof(want), "end,%lld,,,1,%d,,,complete\n", t, nw + ns);
			ends++;
		}
		assert_string_equal(line, want);
	}
	fclose(f);
	unlink(path);
	/* three sets and the idle level written at close */
	assert_int_equal(nw, 4);
	assert_int_equal(ns, 3);
	assert_int_equal(ends, 1);
}

static void the_history_file_has_a_drop_row_for_each_event_a_full_queue_pushed_out(void **state)
{
	char set[320], line[256], want[256], *path = tmp_path("drop.csv");
	struct gpio_in *in;
	uint64_t nd = 0;
	FILE *f;

	(void)state;
	unlink(path);
	snprintf(set, sizeof(set), "sim.history_file=%s", path);
	setk(set);
	snprintf(set, sizeof(set), "sim.stim_count=%d", GPIO_SIM_EVENTS + 6);
	setk(set);
	setk("sim.stim_period=1us");
	in = in_open(GPIO_EDGE_BOTH, 0);
	wait_finished();
	in_close(in);
	assert_int_equal(gpio_sim_history_error(msg, sizeof(msg)), 0);
	assert_int_equal(gpio_sim_drop_count(), 6);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		struct gpio_sim_drop d;

		if (strncmp(line, "drop,", 5))
			continue;
		d = drop(nd++);
		snprintf(want, sizeof(want), "drop,%lld,2,%d,0,%llu,%lld,,evicted\n",
			 (long long)d.t_ns, d.rising, (unsigned long long)d.seqno,
			 (long long)d.event_ns);
		assert_string_equal(line, want);
		assert_int_equal(d.seqno, nd);
	}
	fclose(f);
	unlink(path);
	assert_int_equal(nd, 6);
}

static void a_history_file_that_cannot_be_written_is_kept_as_an_error(void **state)
{
	struct gpio_in *in;

	(void)state;
	setk("sim.history_file=/nonexistent-dir/h.csv");
	setk("sim.stim_count=1");
	in = in_open(GPIO_EDGE_BOTH, 0);
	wait_finished();
	in_close(in);
	assert_int_equal(gpio_sim_history_error(msg, sizeof(msg)), -1);
	assert_string_equal(msg, "cannot write sim.history_file /nonexistent-dir/h.csv: "
			    "No such file or directory");
	gpio_sim_reset();
	assert_int_equal(gpio_sim_history_error(msg, sizeof(msg)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(the_schedule_gives_count_edges_a_period_apart_after_one_period, setup, teardown),
		cmocka_unit_test_setup_teardown(jitter_delays_an_edge_within_its_bound_and_never_before_the_last, setup, teardown),
		cmocka_unit_test_setup_teardown(rising_only_reports_every_other_change_and_falling_the_others, setup, teardown),
		cmocka_unit_test_setup_teardown(without_debounce_every_bounce_is_an_event, setup, teardown),
		cmocka_unit_test_setup_teardown(a_debounce_longer_than_the_bounces_gives_one_event_per_edge, setup, teardown),
		cmocka_unit_test_setup_teardown(a_debounce_shorter_than_the_gap_reports_each_change_late, setup, teardown),
		cmocka_unit_test_setup_teardown(a_bounce_back_to_the_reported_level_within_the_debounce_is_no_event, setup, teardown),
		cmocka_unit_test_setup_teardown(a_late_stimulus_is_stamped_when_the_pin_changed, setup, teardown),
		cmocka_unit_test_setup_teardown(a_late_debounce_runs_out_after_the_actual_last_change, setup, teardown),
		cmocka_unit_test_setup_teardown(a_debounce_pending_at_the_release_is_in_the_record, setup, teardown),
		cmocka_unit_test_setup_teardown(a_full_queue_pushes_out_its_oldest_events_and_records_each, setup, teardown),
		cmocka_unit_test_setup_teardown(an_event_is_read_or_dropped_never_both_while_the_queue_overflows, setup, teardown),
		cmocka_unit_test_setup_teardown(realtime_stamps_are_the_change_times_on_the_realtime_clock, setup, teardown),
		cmocka_unit_test_setup_teardown(hte_and_a_debounce_off_the_stimulus_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(the_stimulated_line_has_one_driver, setup, teardown),
		cmocka_unit_test_setup_teardown(a_stimulus_without_a_count_runs_until_the_release, setup, teardown),
		cmocka_unit_test_setup_teardown(the_history_file_has_every_write_and_change_at_the_last_release, setup, teardown),
		cmocka_unit_test_setup_teardown(the_history_file_has_a_drop_row_for_each_event_a_full_queue_pushed_out, setup, teardown),
		cmocka_unit_test_setup_teardown(a_history_file_that_cannot_be_written_is_kept_as_an_error, setup, teardown),
	};

	return cmocka_run_group_tests_name("gpio sim stimulus", tests, NULL, NULL);
}
