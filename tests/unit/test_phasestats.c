/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for per-phase statistics: each edge counts in the phase its
 * intended time falls in (boundaries belong to the later phase), warm-up and
 * edges past the end count nowhere, and a phase's figures (wake latency,
 * missed periods) are its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "stats/phasestats.h"

#define HP 500000ll               /* half period, ns */
#define T0 1000000000ull          /* first phase start */

static struct edge_rec rec(uint64_t seq, uint64_t slot, int32_t wake, uint16_t exp)
{
	struct edge_rec e;

	memset(&e, 0, sizeof(e));
	e.seq = seq;
	e.intended_ns = T0 + slot * (uint64_t)HP;
	e.wake_off_ns = wake;
	e.write_begin_off_ns = wake + 1000;
	e.write_end_off_ns = wake + 2000;
	e.expirations = exp;
	e.level = (uint8_t)(seq & 1);
	return e;
}

/* Three phases of ten slots each: [T0, T0+10hp), [+10hp, +20hp), [+20hp, +30hp). */
static struct phasestats *three(void)
{
	uint64_t starts[3] = { T0, T0 + 10 * HP, T0 + 20 * HP };
	struct phasestats *ps = phasestats_new(HP, 3, starts, T0 + 30 * HP);

	assert_non_null(ps);
	assert_int_equal(phasestats_count(ps), 3);
	return ps;
}

static void test_index_boundaries(void **state)
{
	struct phasestats *ps = three();

	(void)state;
	assert_int_equal(phasestats_index(ps, T0 - 1), -1);
	assert_int_equal(phasestats_index(ps, T0), 0);
	assert_int_equal(phasestats_index(ps, T0 + 10 * HP - 1), 0);
	assert_int_equal(phasestats_index(ps, T0 + 10 * HP), 1);
	assert_int_equal(phasestats_index(ps, T0 + 20 * HP), 2);
	assert_int_equal(phasestats_index(ps, T0 + 30 * HP - 1), 2);
	assert_int_equal(phasestats_index(ps, T0 + 30 * HP), -1);
	assert_null(phasestats_phase(ps, 3));
	phasestats_free(ps);
}

static void test_open_end(void **state)
{
	uint64_t starts[2] = { T0, T0 + 10 * HP };
	struct phasestats *ps = phasestats_new(HP, 2, starts, 0);

	(void)state;
	assert_non_null(ps);
	assert_int_equal(phasestats_index(ps, UINT64_MAX - 1), 1);
	phasestats_free(ps);
}

static void test_no_phase_is_an_error(void **state)
{
	uint64_t starts[1] = { T0 };

	(void)state;
	errno = 0;
	assert_null(phasestats_new(HP, 0, starts, 0));
	assert_int_equal(errno, EINVAL);
}

/* Edges at slots -4..34: six warm-up edges (flagged; four before T0, two in
 * phase 0), ten slots per phase, five edges after the end. One late wake-up in phase 1, two missed periods
 * in phase 2 (the slot jumps by three). */
static void test_edges_land_in_their_phase(void **state)
{
	struct phasestats *ps = three();
	const struct edgestats_result *r[3];
	uint64_t seq = 0;
	long slot;

	(void)state;
	for (slot = -4; slot < 35; slot++) {
		struct edge_rec e;
		int32_t wake = 5000;
		uint16_t exp = 1;

		if (slot == 23 || slot == 24)
			continue; /* missed: the edge at 25 reads three expirations */
		if (slot == 25)
			exp = 3;
		if (slot == 14)
			wake = 120000;
		e = rec(seq++, (uint64_t)(slot + 4), wake, exp);
		e.intended_ns -= 4 * (uint64_t)HP;
		if (slot < 2)
			e.flags |= EDGE_F_WARMUP; /* two of them inside phase 0 */
		phasestats_add(ps, &e);
	}
	for (int i = 0; i < 3; i++)
		r[i] = edgestats_result(phasestats_phase(ps, (size_t)i));

	assert_int_equal(r[0]->edges, 8);
	assert_int_equal(r[1]->edges, 10);
	assert_int_equal(r[2]->edges, 8);
	assert_int_equal(r[0]->warmup_edges, 0);
	assert_int_equal(r[0]->missed_periods, 0);
	assert_int_equal(r[1]->missed_periods, 0);
	assert_int_equal(r[2]->missed_periods, 2);
	assert_int_equal(r[1]->wake.m.max, 120000);
	assert_int_equal(r[1]->wake_worst.intended_ns, T0 + 14 * HP);
	/* the late wake-up of the missed slots counts from the first one missed */
	assert_int_equal(r[2]->wake.m.max, 2 * HP + 5000);
	assert_int_equal(r[2]->wake_worst.intended_ns, T0 + 25 * HP);
	assert_int_equal(r[0]->wake.m.max, 5000);
	assert_int_equal(r[0]->counted_first_ns, T0 + 2 * HP);
	assert_int_equal(r[2]->counted_last_ns, T0 + 29 * HP);
	/* nothing was lost: the records before a phase are not its gaps */
	for (int i = 0; i < 3; i++) {
		assert_int_equal(r[i]->seq_gaps, 0);
		assert_int_equal(r[i]->gap_events, 0);
	}
	phasestats_free(ps);
}

/* Records lost inside phase 0 and across the boundary into phase 2 count
 * once, in the phase of the record after the gap, and the phases add up to
 * the run's own figures (gaps and missed periods alike). */
static void each_phase_counts_only_the_records_it_lost(void **state)
{
	struct phasestats *ps = three();
	struct edgestats *run = edgestats_new(HP);
	const struct edgestats_result *r[3], *all;
	uint64_t slot, gaps = 0, missed = 0;

	(void)state;
	assert_non_null(run);
	for (slot = 0; slot < 30; slot++) {
		struct edge_rec e = rec(slot, slot, 5000, 1);

		if (slot == 4 || slot == 5 || slot == 19 || slot == 20 || slot == 21)
			continue; /* dropped between the RT thread and the writer */
		if (slot < 2)
			e.flags |= EDGE_F_WARMUP;
		if (slot == 12)
			e.expirations = 2; /* one missed period, in phase 1 */
		phasestats_add(ps, &e);
		edgestats_add(run, &e);
	}
	all = edgestats_result(run);
	for (int i = 0; i < 3; i++) {
		r[i] = edgestats_result(phasestats_phase(ps, (size_t)i));
		gaps += r[i]->seq_gaps;
		missed += r[i]->missed_periods;
	}
	assert_int_equal(r[0]->seq_gaps, 2);
	assert_int_equal(r[1]->seq_gaps, 0);
	assert_int_equal(r[2]->seq_gaps, 3);
	assert_int_equal(r[2]->first_gap.seq, 22);
	assert_int_equal(r[1]->missed_periods, 1);
	assert_int_equal(all->seq_gaps, 5);
	assert_int_equal(gaps, all->seq_gaps);
	assert_int_equal(missed, all->missed_periods);
	/* the pulse across a boundary is the run's only */
	assert_int_equal(r[1]->width[EDGESTATS_ANY].h.m.n, r[1]->edges - 1);
	edgestats_free(run);
	phasestats_free(ps);
}

/* A run stopped in phase 1: phase 0 ran its whole length, phase 1 up to the
 * end of the last slot fed, phase 2 not at all; an open last phase ran to
 * the end of the last slot. */
static void a_phase_ran_what_its_edges_show_not_its_plan(void **state)
{
	struct phasestats *ps = three();
	uint64_t slot;

	(void)state;
	assert_int_equal(phasestats_ran_ns(ps, 0, 10 * HP), 0);
	for (slot = 0; slot < 14; slot++) {
		struct edge_rec e = rec(slot, slot, 5000, 1);

		phasestats_add(ps, &e);
	}
	assert_int_equal(phasestats_ran_ns(ps, 0, 10 * HP), 10 * HP);
	/* without a plan, a phase ends where the next begins */
	assert_int_equal(phasestats_ran_ns(ps, 0, 0), 10 * HP);
	assert_int_equal(phasestats_ran_ns(ps, 1, 10 * HP), 4 * HP);
	assert_int_equal(phasestats_ran_ns(ps, 2, 10 * HP), 0);
	assert_int_equal(phasestats_ran_ns(ps, 3, 10 * HP), 0);
	phasestats_free(ps);

	{
		uint64_t starts[2] = { T0, T0 + 10 * HP };
		struct edge_rec e = rec(30, 30, 5000, 1);

		ps = phasestats_new(HP, 2, starts, 0);
		assert_non_null(ps);
		phasestats_add(ps, &e);
		assert_int_equal(phasestats_ran_ns(ps, 1, 0), 21 * HP);
		assert_int_equal(phasestats_ran_ns(ps, 1, 5 * HP), 5 * HP);
		phasestats_free(ps);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_boundaries),
		cmocka_unit_test(test_open_end),
		cmocka_unit_test(test_no_phase_is_an_error),
		cmocka_unit_test(test_edges_land_in_their_phase),
		cmocka_unit_test(each_phase_counts_only_the_records_it_lost),
		cmocka_unit_test(a_phase_ran_what_its_edges_show_not_its_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
