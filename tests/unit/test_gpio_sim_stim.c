/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the sim's stimulus and an input's edge, debounce and clock
 * choices: the schedule's stamps, bounces, debounce, drops, the history file. */
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
	assert_true((uint64_t)s0.t_ns >= before + 1000000);
	n = read_all(in);
	assert_int_equal(n, 4);
	for (i = 0; i < 4; i++) {
		s = stim((uint64_t)i);
		assert_int_equal(s.t_ns - s0.t_ns, (int64_t)i * 1000000);
		assert_int_equal(s.offset, 2);
		assert_int_equal(s.level, !(i & 1));
		assert_true(s.reported);
		assert_int_equal(s.seqno, (uint64_t)i + 1);
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
		d = s.t_ns - s0.t_ns - (int64_t)i * 10000;
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
			assert_int_equal(s.t_ns, base.t_ns + b * 10000);
			/* away from the new level on odd steps, back on even ones */
			assert_int_equal(s.level, (b & 1) ? e : !e);
			assert_int_equal(ev[e * 5 + b].t_ns, (uint64_t)s.t_ns);
			assert_int_equal(ev[e * 5 + b].rising, s.level);
		}
	}
	in_close(in);
}

static void a_debounce_longer_than_the_bounces_gives_one_event_per_edge(void **state)
{
	struct gpio_in *in;
	int e, b, n;

	(void)state;
	setk("sim.stim_bounce=3");
	setk("sim.stim_bounce_gap=10us");
	in = in_open(GPIO_EDGE_BOTH, 100000);
	wait_finished();
	assert_int_equal(gpio_sim_stim_count(), 4 * 7);
	n = read_all(in);
	assert_int_equal(n, 4);
	for (e = 0; e < 4; e++) {
		struct gpio_sim_stim last = stim((uint64_t)(e * 7 + 6));

		assert_int_equal(ev[e].t_ns, (uint64_t)last.t_ns + 100000);
		assert_int_equal(ev[e].rising, !(e & 1));
		assert_int_equal(ev[e].seqno, (uint64_t)e + 1);
		assert_true(last.reported);
		assert_int_equal(last.seqno, (uint64_t)e + 1);
		for (b = 0; b < 6; b++)
			assert_false(stim((uint64_t)(e * 7 + b)).reported);
	}
	in_close(in);
}

static void a_debounce_shorter_than_the_gap_reports_each_change_late(void **state)
{
	struct gpio_in *in;
	int i, n;

	(void)state;
	setk("sim.stim_count=2");
	setk("sim.stim_bounce=1");
	setk("sim.stim_bounce_gap=50us");
	in = in_open(GPIO_EDGE_RISING, 20000);
	wait_finished();
	assert_int_equal(gpio_sim_stim_count(), 6);
	n = read_all(in);
	/* levels 1 0 1 | 0 1 0: the rising ones are changes 0, 2 and 4 */
	assert_int_equal(n, 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(ev[i].t_ns, (uint64_t)stim((uint64_t)(2 * i)).t_ns + 20000);
		assert_int_equal(ev[i].rising, 1);
		/* falling changes settle too but are no events: no number spent */
		assert_int_equal(ev[i].seqno, (uint64_t)i + 1);
	}
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
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].t_ns, (uint64_t)stim(2).t_ns + 45000);
	assert_int_equal(ev[0].rising, 1);
	in_close(in);

	gpio_sim_reset();
	setk("sim.stim_count=2");
	setk("sim.stim_period=20us");
	setk("sim.stim_bounce=0");
	in = in_open(GPIO_EDGE_BOTH, 500000);
	wait_finished();
	assert_int_equal(gpio_sim_stim_count(), 2);
	assert_int_equal(read_all(in), 0);       /* 0 -> 1 -> 0 inside one debounce */
	assert_false(stim(0).reported);
	assert_false(stim(1).reported);
	in_close(in);
}

static void a_full_queue_drops_events_and_spends_their_numbers(void **state)
{
	struct gpio_in *in;
	uint64_t i;
	int n;

	(void)state;
	setk("sim.stim_count=1100");
	setk("sim.stim_period=1us");
	in = in_open(GPIO_EDGE_BOTH, 0);
	wait_finished();
	for (i = 0; i < 1100; i++) {
		struct gpio_sim_stim s = stim(i);

		assert_int_equal(s.seqno, i + 1);
		assert_int_equal(s.reported, i < GPIO_SIM_EVENTS);
	}
	n = read_all(in);
	assert_int_equal(n, GPIO_SIM_EVENTS);
	assert_int_equal(ev[0].seqno, 1);
	assert_int_equal(ev[n - 1].seqno, GPIO_SIM_EVENTS);
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
	int i, nw = 0, ns = 0;

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
	assert_int_equal(access(path, F_OK), -1);  /* the output still holds a line */
	gpio_out_close(o);
	assert_int_equal(gpio_sim_history_error(msg, sizeof(msg)), 0);

	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "kind,t_ns,offset,level,value_or_reported,seqno_or_call\n");
	while (fgets(line, sizeof(line), f)) {
		char want[256];

		if (!strncmp(line, "write,", 6)) {
			assert_int_equal(gpio_sim_write_get((uint64_t)nw++, &w), 0);
			snprintf(want, sizeof(want), "write,%lld,%u,%d,%d,%d\n", (long long)w.t_ns,
				 w.offset, w.level, w.value, nw - 1);
		} else {
			struct gpio_sim_stim s = stim((uint64_t)ns++);

			snprintf(want, sizeof(want), "stim,%lld,2,%d,%d,%d\n", (long long)s.t_ns,
				 s.level, !(s.level == 0), s.level ? (ns + 1) / 2 : 0);
		}
		assert_string_equal(line, want);
	}
	fclose(f);
	unlink(path);
	/* three sets and the idle level written at close */
	assert_int_equal(nw, 4);
	assert_int_equal(ns, 3);
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
		cmocka_unit_test_setup_teardown(a_full_queue_drops_events_and_spends_their_numbers, setup, teardown),
		cmocka_unit_test_setup_teardown(realtime_stamps_are_the_change_times_on_the_realtime_clock, setup, teardown),
		cmocka_unit_test_setup_teardown(hte_and_a_debounce_off_the_stimulus_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(the_stimulated_line_has_one_driver, setup, teardown),
		cmocka_unit_test_setup_teardown(a_stimulus_without_a_count_runs_until_the_release, setup, teardown),
		cmocka_unit_test_setup_teardown(the_history_file_has_every_write_and_change_at_the_last_release, setup, teardown),
		cmocka_unit_test_setup_teardown(a_history_file_that_cannot_be_written_is_kept_as_an_error, setup, teardown),
	};

	return cmocka_run_group_tests_name("gpio sim stimulus", tests, NULL, NULL);
}
