/* SPDX-License-Identifier: GPL-2.0-or-later */
/* edgecheck: every record a run can write is accepted (on time, late,
 * saturated, after dropped records), every one it cannot write is refused
 * with its reason, and a refusal leaves the checker as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "log/edgecheck.h"

#define HALF 500000ull
#define T0 1000000250000ull

/* Edge @seq in @slot, advancing @exp slots, as the RT loop logs it. */
static struct edge_rec rec(uint64_t seq, uint64_t slot, unsigned exp)
{
	struct edge_rec e = {
		.seq = seq,
		.intended_ns = T0 + slot * HALF,
		.wake_off_ns = 5000,
		.write_begin_off_ns = 5200,
		.write_end_off_ns = 6000,
		.expirations = (uint16_t)exp,
		.level = (uint8_t)((seq + 1) & 1),
	};
	return e;
}

static struct edgecheck log_checker(void)
{
	struct edgecheck c;

	edgecheck_init(&c, HALF, true, T0);
	return c;
}

static void accept(struct edgecheck *c, struct edge_rec e)
{
	char why[256] = "";

	if (edgecheck_record(c, &e, why, sizeof(why)) != 0)
		fail_msg("refused edge #%llu: %s", (unsigned long long)e.seq, why);
}

static void refuse(struct edgecheck *c, struct edge_rec e, const char *want)
{
	struct edgecheck before = *c;
	char why[256] = "";

	if (edgecheck_record(c, &e, why, sizeof(why)) == 0)
		fail_msg("accepted edge #%llu, wanted '%s'", (unsigned long long)e.seq, want);
	if (!strstr(why, want))
		fail_msg("'%s' does not say '%s'", why, want);
	/* a refusal changes nothing: the next good record still fits */
	assert_memory_equal(&before, c, sizeof(before));
}

static void what_a_run_writes_is_accepted(void **state)
{
	struct edgecheck c = log_checker();
	struct edge_rec e;

	(void)state;
	accept(&c, rec(0, 0, 1));
	accept(&c, rec(1, 1, 1));
	accept(&c, rec(2, 4, 3));              /* two missed periods */
	accept(&c, rec(5, 7, 1));              /* records 3 and 4 dropped, one slot each */
	accept(&c, rec(6, 8 + 100000, 65535)); /* a stall past 16 bits: saturated */
	e = rec(7, 8 + 100001, 1);
	e.wake_off_ns = -2000;                 /* a spin-mode wake-up before the deadline */
	accept(&c, e);
}

static void the_first_record_sits_on_the_grid_with_a_consistent_count(void **state)
{
	struct edgecheck c = log_checker();
	struct edge_rec e = rec(0, 3, 4);      /* slot 3: three missed before it */

	(void)state;
	accept(&c, e);
	c = log_checker();
	e.intended_ns += 1;
	refuse(&c, e, "not on the log's grid");
	c = log_checker();
	refuse(&c, rec(0, 3, 1), "the slots and the count disagree");
	c = log_checker();
	e = rec(0, 0, 1);
	e.intended_ns = T0 - HALF;
	refuse(&c, e, "not on the log's grid");
}

static void impossible_fields_are_refused(void **state)
{
	struct edgecheck c = log_checker();
	struct edge_rec e;

	(void)state;
	accept(&c, rec(0, 0, 1));
	e = rec(1, 1, 1);
	e.level = 2;
	refuse(&c, e, "level 2");
	e = rec(1, 1, 1);
	e.expirations = 0;
	refuse(&c, e, "expirations 0");
	e = rec(1, 1, 1);
	e.write_end_off_ns = e.write_begin_off_ns - 1;
	refuse(&c, e, "write_end_ns is before write_begin_ns");
	e = rec(1, 1, 1);
	e.wake_off_ns = e.write_begin_off_ns + 1;
	refuse(&c, e, "wake_ns is after write_begin_ns");
	accept(&c, rec(1, 1, 1));
}

static void order_is_refused_when_it_goes_backwards(void **state)
{
	struct edgecheck c = log_checker();
	struct edge_rec e;

	(void)state;
	accept(&c, rec(0, 0, 1));
	accept(&c, rec(1, 1, 1));
	refuse(&c, rec(1, 2, 1), "seq must increase");
	refuse(&c, rec(0, 2, 1), "seq must increase");
	e = rec(2, 2, 1);
	e.intended_ns = T0;                    /* back to slot 0 */
	refuse(&c, e, "intended time goes backwards");
	e = rec(2, 1, 1);
	refuse(&c, e, "does not advance");
	/* the window may not start before the previous edge's ended */
	e = rec(2, 2, 1);
	e.wake_off_ns = e.write_begin_off_ns = -(int32_t)HALF;
	e.write_end_off_ns = -(int32_t)HALF + 100;
	refuse(&c, e, "measured time goes backwards");
	accept(&c, rec(2, 2, 1));
}

static void the_count_must_match_the_times(void **state)
{
	struct edgecheck c = log_checker();

	(void)state;
	accept(&c, rec(0, 0, 1));
	refuse(&c, rec(1, 3, 1), "the count and the times disagree");
	refuse(&c, rec(1, 1, 2), "the count and the times disagree");
	refuse(&c, rec(1, 1000, 65535), "the count and the times disagree"); /* too few for 16 bits */
	refuse(&c, rec(4, 2, 1), "records dropped");     /* 3 dropped need 3 slots */
	accept(&c, rec(1, 1, 1));
}

static void warm_up_comes_first(void **state)
{
	struct edgecheck c = log_checker();
	struct edge_rec e;

	(void)state;
	e = rec(0, 0, 1);
	e.flags = EDGE_F_WARMUP;
	accept(&c, e);
	accept(&c, rec(1, 1, 1));
	e = rec(2, 2, 1);
	e.flags = EDGE_F_WARMUP;
	refuse(&c, e, "a warm-up edge after counted edges");
}

static void an_edge_list_has_no_grid_but_the_same_rules(void **state)
{
	struct edgecheck c;
	struct edge_rec e;

	(void)state;
	edgecheck_init(&c, 0, false, 0);
	c.time_name = "measured";
	e = rec(0, 0, 1);
	e.intended_ns += 123;                  /* anywhere: no grid */
	accept(&c, e);
	e = rec(1, 1, 1);
	e.intended_ns += 7;
	accept(&c, e);
	e = rec(2, 0, 1);
	refuse(&c, e, "measured time goes backwards");
	e = rec(2, 2, 1);
	e.level = 9;
	refuse(&c, e, "level 9");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(what_a_run_writes_is_accepted),
		cmocka_unit_test(the_first_record_sits_on_the_grid_with_a_consistent_count),
		cmocka_unit_test(impossible_fields_are_refused),
		cmocka_unit_test(order_is_refused_when_it_goes_backwards),
		cmocka_unit_test(the_count_must_match_the_times),
		cmocka_unit_test(warm_up_comes_first),
		cmocka_unit_test(an_edge_list_has_no_grid_but_the_same_rules),
	};

	return cmocka_run_group_tests_name("edgecheck", tests, NULL, NULL);
}
