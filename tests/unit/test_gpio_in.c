/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the input line and the simulated loopback wire: events per
 * output edge with delay and sequence numbers, not wired, the wrong line, a
 * lost edge, a full queue, and the same lookup messages as the output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "config/config.h"
#include "gpio/gpio_in.h"
#include "gpio/gpio_out.h"
#include "gpio/gpio_sim.h"

static struct config *cfg;
static char msg[GPIO_MSG_MAX];

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
	setk("sim.chip_label=GPIOB");
	setk("sim.wire_line=1");
	setk("sim.wire_delay=20us");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	config_free(cfg);
	cfg = NULL;
	return 0;
}

static struct gpio_out *out_open(const char *line)
{
	struct gpio_out_spec s = {
		.backend = GPIO_BACKEND_SIM, .chip = "GPIOB", .line = line,
		.consumer = "sqwave", .config = cfg,
	};
	struct gpio_out *g = gpio_out_open(&s, msg, sizeof(msg));

	if (!g)
		fail_msg("output: %s", msg);
	return g;
}

static struct gpio_in *in_open(const char *line, bool edges)
{
	struct gpio_in_spec s = {
		.backend = GPIO_BACKEND_SIM, .chip = "GPIOB", .line = line,
		.edges = edges, .config = cfg,
	};

	return gpio_in_open(&s, msg, sizeof(msg));
}

/* Read until @n events came: an event is readable only once the wire's
 * delay is over. Every caller's @n events are due, so the minute's bound
 * only turns a hang (an event never queued) into a failure. */
static int read_n(struct gpio_in *in, struct gpio_in_event *ev, int n, int max)
{
	uint64_t end;
	int got = 0, r;

	for (end = 0; got < n; ) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		if (!end)
			end = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + 60000000000ull;
		else if ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec > end)
			break;
		r = gpio_in_read(in, ev + got, (size_t)(max - got), 10000000);
		assert_true(r >= 0);
		got += r;
	}
	return got;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void each_output_edge_arrives_once_in_order_after_the_wire_delay(void **state)
{
	struct gpio_in_event ev[16];
	struct gpio_out *o;
	struct gpio_in *in;
	uint64_t before[6];
	int i, n;

	(void)state;
	o = out_open("0");
	in = in_open("1", true);
	assert_non_null(in);
	assert_true(gpio_in_has_seqno(in));
	assert_int_equal(gpio_in_get(in), 0);      /* settled at idle, no event */
	assert_int_equal(gpio_in_read(in, ev, 16, 0), 0);
	for (i = 0; i < 6; i++) {
		before[i] = now_ns();
		assert_int_equal(gpio_out_set(o, !(i & 1)), 0);
	}
	n = read_n(in, ev, 6, 16);
	assert_int_equal(n, 6);
	for (i = 0; i < 6; i++) {
		assert_int_equal(ev[i].seqno, (uint64_t)i + 1);
		assert_int_equal(ev[i].rising, !(i & 1));
		assert_true(ev[i].t_ns >= before[i] + 20000);
	}
	assert_int_equal(gpio_in_get(in), 0);
	gpio_in_close(in);
	gpio_out_close(o);
}

static uint64_t now_rt(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void an_input_that_is_not_wired_sees_nothing(void **state)
{
	struct gpio_in_event ev[4];
	struct gpio_out *o;
	struct gpio_in *in;

	(void)state;
	setk("sim.wire_line=-1");
	o = out_open("0");
	in = in_open("1", true);
	assert_non_null(in);
	assert_int_equal(gpio_out_set(o, 1), 0);
	assert_int_equal(gpio_out_set(o, 0), 0);
	assert_int_equal(gpio_in_read(in, ev, 4, 1000000), 0);
	gpio_in_close(in);
	gpio_out_close(o);
}

static void a_wire_to_another_line_moves_that_line_not_the_input(void **state)
{
	struct gpio_in_event ev[4];
	struct gpio_sim_line l;
	struct gpio_out *o;
	struct gpio_in *in;

	(void)state;
	setk("sim.wire_line=2");
	o = out_open("0");
	in = in_open("1", true);
	assert_non_null(in);
	assert_int_equal(gpio_out_set(o, 1), 0);
	assert_int_equal(gpio_sim_line_get(2, &l), 0);
	assert_int_equal(l.value, 1);
	assert_int_equal(gpio_in_read(in, ev, 4, 1000000), 0);
	assert_int_equal(gpio_in_get(in), 0);
	gpio_in_close(in);
	gpio_out_close(o);
}

static void a_lost_edge_has_no_event_and_spends_no_sequence_number(void **state)
{
	struct gpio_in_event ev[8];
	struct gpio_out *o;
	struct gpio_in *in;
	int i;

	(void)state;
	setk("sim.wire_lose=2");
	o = out_open("0");
	in = in_open("1", true);
	assert_non_null(in);
	for (i = 0; i < 4; i++)
		assert_int_equal(gpio_out_set(o, !(i & 1)), 0);
	assert_int_equal(read_n(in, ev, 3, 8), 3);
	assert_int_equal(ev[2].seqno, 3);
	assert_int_equal(ev[2].rising, 0);   /* edge 3 (falling): edge 2 is lost */
	gpio_in_close(in);
	gpio_out_close(o);
}

static void a_full_queue_keeps_the_newest_events_and_the_numbers_show_the_gap(void **state)
{
	struct gpio_in_event ev[64];
	uint64_t first = 0, last = 0, got = 0;
	struct gpio_sim_drop d;
	struct gpio_sim_wire r;
	struct gpio_out *o;
	struct gpio_in *in;
	int i, n;

	(void)state;
	o = out_open("0");
	in = in_open("1", true);
	assert_non_null(in);
	for (i = 0; i < GPIO_SIM_EVENTS + 10; i++)
		assert_int_equal(gpio_out_set(o, !(i & 1)), 0);
	while ((n = read_n(in, ev, 64, 64)) > 0) {
		if (!got)
			first = ev[0].seqno;
		got += (uint64_t)n;
		last = ev[n - 1].seqno;
		if (got == GPIO_SIM_EVENTS)
			break;
	}
	/* the oldest ten were pushed out: the reader's first event is the
	 * eleventh, the newest is the last one written */
	assert_int_equal(got, GPIO_SIM_EVENTS);
	assert_int_equal(first, 11);
	assert_int_equal(last, GPIO_SIM_EVENTS + 10);
	/* every change was queued; the drop records name the ten */
	for (i = 0; i < GPIO_SIM_EVENTS + 10; i++) {
		assert_int_equal(gpio_sim_wire_get((uint64_t)i, &r), 0);
		assert_int_equal(r.fate, GPIO_SIM_WIRE_QUEUED);
		if (i < 10) {
			assert_int_equal(gpio_sim_drop_get((uint64_t)i, &d), 0);
			assert_int_equal(d.seqno, r.seqno);
			assert_int_equal(d.event_ns, r.event_ns);
			assert_int_equal(d.rising, r.value);
			assert_int_equal(d.offset, 1);
		}
	}
	assert_int_equal(gpio_sim_drop_count(), 10);
	/* nothing lost since: the next one follows without a gap */
	assert_int_equal(gpio_out_set(o, 1), 0);
	assert_int_equal(read_n(in, ev, 1, 64), 1);
	assert_int_equal(ev[0].seqno, GPIO_SIM_EVENTS + 11);
	gpio_in_close(in);
	gpio_out_close(o);
}

static void an_event_is_not_readable_before_it_happens(void **state)
{
	struct gpio_in_event ev[4];
	struct gpio_out *o;
	struct gpio_in *in;
	uint64_t t0;

	(void)state;
	setk("sim.wire_delay=30ms");
	o = out_open("0");
	in = in_open("1", true);
	assert_non_null(in);
	t0 = now_ns();
	assert_int_equal(gpio_out_set(o, 1), 0);
	assert_int_equal(read_n(in, ev, 1, 4), 1);
	assert_true(now_ns() >= t0 + 30000000);   /* the wire's 30 ms were waited out */
	assert_true(ev[0].t_ns >= t0 + 30000000);
	gpio_in_close(in);
	gpio_out_close(o);
}

static void a_short_read_leaves_the_rest_readable(void **state)
{
	struct gpio_in_event ev[8];
	struct gpio_out *o;
	struct gpio_in *in;
	int i;

	(void)state;
	o = out_open("0");
	in = in_open("1", true);
	assert_non_null(in);
	for (i = 0; i < 5; i++)
		assert_int_equal(gpio_out_set(o, !(i & 1)), 0);
	assert_int_equal(read_n(in, ev, 2, 2), 2);
	assert_int_equal(read_n(in, ev, 3, 8), 3);
	assert_int_equal(ev[0].seqno, 3);
	gpio_in_close(in);
	gpio_out_close(o);
}

static void an_input_driven_from_outside_reports_its_own_edges(void **state)
{
	struct gpio_in_event ev[4];
	struct gpio_in *in;

	(void)state;
	in = in_open("3", true);
	assert_non_null(in);
	assert_int_equal(gpio_sim_line_drive(3, 1, 1234), 0);
	assert_int_equal(read_n(in, ev, 1, 4), 1);
	assert_int_equal(ev[0].t_ns, 1234);
	assert_int_equal(gpio_in_get(in), 1);
	gpio_in_close(in);
}

static void an_input_is_busy_while_held_and_free_after(void **state)
{
	struct gpio_in *in, *again;

	(void)state;
	in = in_open("4", false);
	assert_non_null(in);
	again = in_open("4", false);
	assert_null(again);
	assert_int_equal(errno, EBUSY);
	assert_non_null(strstr(msg, "line 4 of gpiochip0 [GPIOB] is busy: used by "
			       "\"sqwave-loopback\""));
	gpio_in_close(in);
	in = in_open("4", false);
	assert_non_null(in);
	assert_string_equal(gpio_in_describe(in), "gpiochip0 [GPIOB] line 4 \"SIM4\" (simulated)");
	gpio_in_close(in);
}

static void an_input_has_the_outputs_lookup_messages(void **state)
{
	(void)state;
	assert_null(in_open("PB1", true));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(msg, "no line named \"PB1\" on gpiochip0 [GPIOB]"));
	gpio_sim_fail_next_request(EACCES);
	assert_null(in_open("2", true));
	assert_int_equal(strncmp(msg, "permission denied", 17), 0);
	/* taken between the look and the request */
	gpio_sim_fail_next_request(EBUSY);
	assert_null(in_open("2", true));
	assert_int_equal(errno, EBUSY);
	assert_non_null(strstr(msg, "line 2 of gpiochip0 [GPIOB] is busy"));
}

static void reading_levels_needs_no_edges_and_reading_events_does(void **state)
{
	struct gpio_in_event ev[1];
	struct gpio_in *in;

	(void)state;
	in = in_open("5", false);
	assert_non_null(in);
	assert_int_equal(gpio_in_read(in, ev, 1, 0), -1);
	assert_int_equal(errno, EINVAL);
	gpio_in_close(in);
}

static void the_wire_honours_the_edge_choice_and_the_realtime_clock(void **state)
{
	struct gpio_in_spec s = {
		.backend = GPIO_BACKEND_SIM, .chip = "GPIOB", .line = "1", .edges = true,
		.config = cfg, .edge = GPIO_EDGE_FALLING, .clock = GPIO_CLOCK_REALTIME,
	};
	struct gpio_in_event ev[8];
	struct gpio_sim_write w;
	struct gpio_out *o;
	struct gpio_in *in;
	uint64_t o0, o1, m0, r, m1;
	int64_t off, d;
	int i, n;

	(void)state;
	o = out_open("0");
	o0 = now_ns();
	in = gpio_in_open(&s, msg, sizeof(msg));
	o1 = now_ns();
	assert_non_null(in);
	assert_int_equal(gpio_in_clockid(in), CLOCK_REALTIME);
	for (i = 0; i < 6; i++)
		assert_int_equal(gpio_out_set(o, !(i & 1)), 0);
	n = read_n(in, ev, 3, 8);
	assert_int_equal(n, 3);
	assert_int_equal(gpio_in_read(in, ev + 3, 5, 50000000), 0);
	/* writes 1, 3, 5 fall; their stamps keep one realtime offset */
	assert_int_equal(gpio_sim_write_get(1, &w), 0);
	off = (int64_t)ev[0].t_ns - w.t_ns;
	for (i = 0; i < 3; i++) {
		assert_int_equal(gpio_sim_write_get((uint64_t)(2 * i + 1), &w), 0);
		assert_int_equal(ev[i].rising, 0);
		assert_int_equal(ev[i].seqno, (uint64_t)i + 1);
		assert_int_equal((int64_t)ev[i].t_ns - w.t_ns, off);
	}
	/* the wire's 20 us on top of CLOCK_REALTIME - CLOCK_MONOTONIC, which
	 * the sim read once, inside the request: off by at most the request's
	 * own duration from the true offset, which three reads bracket here
	 * (however long any of them was held off) */
	m0 = now_ns();
	r = now_rt();
	m1 = now_ns();
	off -= 20000;
	d = (int64_t)(o1 - o0);
	assert_true(off >= (int64_t)(r - m1) - d);
	assert_true(off <= (int64_t)(r - m0) + d);
	gpio_in_close(in);
	gpio_out_close(o);
}

static void every_change_the_wire_carries_is_in_the_record_with_its_fate(void **state)
{
	static const struct { int level; enum gpio_sim_wire_fate fate; uint64_t seqno; } want[] = {
		{ 1, GPIO_SIM_WIRE_UNHEARD, 0 },   /* before the input was requested */
		{ 0, GPIO_SIM_WIRE_QUEUED, 1 },
		{ 1, GPIO_SIM_WIRE_LOST, 0 },      /* sim.wire_lose=2 */
		{ 0, GPIO_SIM_WIRE_QUEUED, 2 },
		{ 1, GPIO_SIM_WIRE_SKIPPED, 0 },   /* falling edges only */
		{ 0, GPIO_SIM_WIRE_QUEUED, 3 },
	};
	static const int writes[] = { 1, 0, 1, 0, 1, 1, 0 };  /* the second 1: no change */
	struct gpio_in_spec s = {
		.backend = GPIO_BACKEND_SIM, .chip = "GPIOB", .line = "1", .edges = true,
		.config = cfg, .edge = GPIO_EDGE_FALLING,
	};
	struct gpio_in_event ev[8];
	struct gpio_sim_write w;
	struct gpio_sim_wire r;
	struct gpio_out *o;
	struct gpio_in *in = NULL;
	uint64_t i, n = 0, q = 0;

	(void)state;
	setk("sim.wire_lose=2");
	o = out_open("0");
	for (i = 0; i < 7; i++) {
		assert_int_equal(gpio_out_set(o, writes[i]), 0);
		if (!in) {
			in = gpio_in_open(&s, msg, sizeof(msg));
			assert_non_null(in);
		}
	}
	assert_int_equal(read_n(in, ev, 3, 8), 3);
	assert_int_equal(gpio_sim_wire_count(), 6);
	for (i = 0; i < 7; i++) {
		assert_int_equal(gpio_sim_write_get(i, &w), 0);
		if (i == 5)
			continue;                    /* the rewrite carried nothing */
		assert_int_equal(gpio_sim_wire_get(n, &r), 0);
		assert_int_equal(r.t_ns, w.t_ns);
		assert_int_equal(r.call, w.call);
		assert_int_equal(r.offset, 1);
		assert_int_equal(r.value, want[n].level);
		assert_int_equal(r.fate, want[n].fate);
		assert_int_equal(r.seqno, want[n].seqno);
		if (r.fate == GPIO_SIM_WIRE_QUEUED) {
			assert_int_equal(r.event_ns, w.t_ns + 20000);
			assert_int_equal(ev[q].t_ns, (uint64_t)r.event_ns);
			assert_int_equal(ev[q].seqno, r.seqno);
			q++;
		} else {
			assert_int_equal(r.event_ns, 0);
		}
		n++;
	}
	assert_int_equal(gpio_sim_wire_get(6, &r), -1);
	gpio_in_close(in);
	gpio_out_close(o);
}

/* The refusal comes before any chip is looked up, so it needs no hardware.
 * Only the libgpiod v1 build has these to refuse; v2 gives them all. */
static void libgpiod_v1_refuses_a_debounce_and_a_clock_in_one_sentence(void **state)
{
#ifdef SQW_GPIOD_v1
	struct gpio_in_spec s = {
		.backend = GPIO_BACKEND_GPIOD, .chip = "gpiochip0", .line = "0", .edges = true,
		.config = cfg, .debounce_ns = 1000,
	};

	(void)state;
	assert_null(gpio_in_open(&s, msg, sizeof(msg)));
	assert_int_equal(errno, ENOTSUP);
	assert_string_equal(msg, "libgpiod v1 has no debounce setting: build with libgpiod v2 "
			    "or set respond.debounce 0");
	s.debounce_ns = 0;
	s.clock = GPIO_CLOCK_REALTIME;
	assert_null(gpio_in_open(&s, msg, sizeof(msg)));
	assert_int_equal(errno, ENOTSUP);
	assert_string_equal(msg, "libgpiod v1 has no event clock setting (respond.event_clock "
			    "realtime): build with libgpiod v2 or set respond.event_clock monotonic");
#else
	(void)state;
	skip();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(each_output_edge_arrives_once_in_order_after_the_wire_delay, setup, teardown),
		cmocka_unit_test_setup_teardown(an_input_that_is_not_wired_sees_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(a_wire_to_another_line_moves_that_line_not_the_input, setup, teardown),
		cmocka_unit_test_setup_teardown(a_lost_edge_has_no_event_and_spends_no_sequence_number, setup, teardown),
		cmocka_unit_test_setup_teardown(a_full_queue_keeps_the_newest_events_and_the_numbers_show_the_gap, setup, teardown),
		cmocka_unit_test_setup_teardown(a_short_read_leaves_the_rest_readable, setup, teardown),
		cmocka_unit_test_setup_teardown(an_event_is_not_readable_before_it_happens, setup, teardown),
		cmocka_unit_test_setup_teardown(an_input_driven_from_outside_reports_its_own_edges, setup, teardown),
		cmocka_unit_test_setup_teardown(an_input_is_busy_while_held_and_free_after, setup, teardown),
		cmocka_unit_test_setup_teardown(an_input_has_the_outputs_lookup_messages, setup, teardown),
		cmocka_unit_test_setup_teardown(reading_levels_needs_no_edges_and_reading_events_does, setup, teardown),
		cmocka_unit_test_setup_teardown(the_wire_honours_the_edge_choice_and_the_realtime_clock, setup, teardown),
		cmocka_unit_test_setup_teardown(every_change_the_wire_carries_is_in_the_record_with_its_fate, setup, teardown),
		cmocka_unit_test_setup_teardown(libgpiod_v1_refuses_a_debounce_and_a_clock_in_one_sentence, setup, teardown),
	};

	return cmocka_run_group_tests_name("gpio_in (simulated wire)", tests, NULL, NULL);
}
