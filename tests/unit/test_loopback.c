/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for matching loopback events to writes: every edge arrives,
 * not wired, another signal, a lost edge, kernel drops, extras, latency
 * percentiles, polarity from the order of events. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdint.h>
#include <string.h>

#include "run/loopback.h"

#define HALF 500000ull
#define N 100

static struct loopback_write w[N];
static struct gpio_in_event ev[4 * N];

/* N writes every half period from 1 s: begin at +0, end at +2 us; the level
 * goes 1, 0, 1, ... from idle 0. */
static int setup(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < N; i++) {
		w[i].seq = i;
		w[i].begin_ns = 1000000000ull + i * HALF;
		w[i].end_ns = w[i].begin_ns + 2000;
		w[i].value = !(i & 1);
	}
	memset(ev, 0, sizeof(ev));
	return 0;
}

/* One event per write, @lat after its begin, seqnos 1.. (0: none, as v1). */
static size_t events_for_all(uint64_t lat, bool seqnos)
{
	size_t i;

	for (i = 0; i < N; i++) {
		ev[i].t_ns = w[i].begin_ns + lat;
		ev[i].seqno = seqnos ? i + 1 : 0;
		ev[i].rising = w[i].value;
	}
	return N;
}

static void every_edge_arriving_is_ok_with_its_latencies(void **state)
{
	struct loopback_result r;
	size_t i, n = events_for_all(10000, true);

	(void)state;
	ev[N - 1].t_ns = w[N - 1].begin_ns + 50000;  /* one slow edge */
	for (i = 0; i < 5; i++)
		ev[i].t_ns = w[i].begin_ns + 1000;   /* and a few fast ones */
	assert_int_equal(loopback_match(w, N, ev, n, 0, HALF, &r), 0);
	assert_int_equal(r.verdict, LOOPBACK_OK);
	assert_int_equal(r.matched, N);
	assert_int_equal(r.missing, 0);
	assert_int_equal(r.extra, 0);
	assert_int_equal(r.from_begin_min, 1000);
	assert_int_equal(r.from_begin_p50, 10000);
	assert_int_equal(r.from_begin_p99, 10000);
	assert_int_equal(r.from_begin_max, 50000);
	assert_int_equal(r.from_end_p50, 8000);
	assert_int_equal(r.from_end_max, 48000);
	assert_int_equal(r.polarity_mismatch, 0);
	assert_int_equal(r.first_missing_seq, UINT64_MAX);
}

static void an_event_inside_the_write_window_counts_negative_from_its_end(void **state)
{
	struct loopback_result r;
	size_t n = events_for_all(1000, true);

	(void)state;
	assert_int_equal(loopback_match(w, N, ev, n, 0, HALF, &r), 0);
	assert_int_equal(r.from_end_p50, -1000);
}

static void no_event_at_all_is_not_wired(void **state)
{
	struct loopback_result r;

	(void)state;
	assert_int_equal(loopback_match(w, N, ev, 0, 0, HALF, &r), 0);
	assert_int_equal(r.verdict, LOOPBACK_NOT_WIRED);
	assert_int_equal(r.missing, N);
	assert_int_equal(r.first_missing_seq, 0);
}

static void a_few_unrelated_toggles_are_another_line_not_a_loss(void **state)
{
	struct loopback_result r;

	(void)state;
	/* A button pressed once during the test: two edges 100 ms apart. */
	ev[0].t_ns = w[10].begin_ns + 123456;
	ev[0].seqno = 1;
	ev[1].t_ns = w[10].begin_ns + 100123456;
	ev[1].seqno = 2;
	assert_int_equal(loopback_match(w, N, ev, 2, 0, HALF, &r), 0);
	assert_int_equal(r.verdict, LOOPBACK_OTHER_LINE);
	assert_int_equal(r.events, 2);
}

static void a_lost_edge_is_named_and_does_not_spoil_polarity(void **state)
{
	struct loopback_result r;
	size_t i, n = 0;

	(void)state;
	for (i = 0; i < N; i++) {
		if (i == 37)
			continue;   /* the wire lost it: no event, no seqno */
		ev[n].t_ns = w[i].begin_ns + 10000;
		ev[n].seqno = n + 1;
		n++;
	}
	assert_int_equal(loopback_match(w, N, ev, n, 0, HALF, &r), 0);
	assert_int_equal(r.verdict, LOOPBACK_LOST);
	assert_int_equal(r.missing, 1);
	assert_int_equal(r.first_missing_seq, 37);
	assert_int_equal(r.kernel_dropped, 0);
	assert_int_equal(r.polarity_mismatch, 0);
}

static void kernel_drops_are_counted_from_the_sequence_numbers(void **state)
{
	struct loopback_result r;
	size_t i, n = 0;

	(void)state;
	for (i = 0; i < N; i++) {
		if (i >= 40 && i < 45)
			continue;   /* the kernel's buffer overflowed: seqnos 41..45 spent */
		ev[n].t_ns = w[i].begin_ns + 10000;
		ev[n].seqno = i + 1;
		n++;
	}
	assert_int_equal(loopback_match(w, N, ev, n, 0, HALF, &r), 0);
	assert_int_equal(r.kernel_dropped, 5);
	assert_int_equal(r.missing, 5);
	assert_int_equal(r.polarity_mismatch, 0);
}

static void a_second_event_for_one_write_and_early_or_late_ones_are_extra(void **state)
{
	struct loopback_result r;
	size_t n = events_for_all(10000, false);

	(void)state;
	memmove(ev + 1, ev, n * sizeof(ev[0]));
	ev[0].t_ns = w[0].begin_ns - 1000;                /* before the first write */
	n++;
	ev[n].t_ns = ev[n - 1].t_ns + 3000;               /* a bounce on the last */
	n++;
	ev[n].t_ns = w[N - 1].end_ns + HALF + 1;          /* long after the last */
	n++;
	assert_int_equal(loopback_match(w, N, ev, n, 0, HALF, &r), 0);
	assert_int_equal(r.extra, 3);
	assert_int_equal(r.matched, N);
	assert_int_equal(r.verdict, LOOPBACK_OK);
}

static void polarity_comes_from_the_order_of_events_not_their_type(void **state)
{
	struct loopback_result r;
	size_t i, n = events_for_all(10000, true);

	(void)state;
	for (i = 0; i < n; i++)
		ev[i].rising = 1;   /* the kernel read the level late: types are useless */
	assert_int_equal(loopback_match(w, N, ev, n, 0, HALF, &r), 0);
	assert_int_equal(r.polarity_mismatch, 0);
	/* An input that idles high while the output idles low: inverted. */
	assert_int_equal(loopback_match(w, N, ev, n, 1, HALF, &r), 0);
	assert_int_equal(r.polarity_mismatch, N);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(every_edge_arriving_is_ok_with_its_latencies, setup),
		cmocka_unit_test_setup(an_event_inside_the_write_window_counts_negative_from_its_end, setup),
		cmocka_unit_test_setup(no_event_at_all_is_not_wired, setup),
		cmocka_unit_test_setup(a_few_unrelated_toggles_are_another_line_not_a_loss, setup),
		cmocka_unit_test_setup(a_lost_edge_is_named_and_does_not_spoil_polarity, setup),
		cmocka_unit_test_setup(kernel_drops_are_counted_from_the_sequence_numbers, setup),
		cmocka_unit_test_setup(a_second_event_for_one_write_and_early_or_late_ones_are_extra, setup),
		cmocka_unit_test_setup(polarity_comes_from_the_order_of_events_not_their_type, setup),
	};

	return cmocka_run_group_tests_name("loopback (matching)", tests, NULL, NULL);
}
