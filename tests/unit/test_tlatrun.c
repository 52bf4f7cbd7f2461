/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for rt.timer timerlat's pure parts (run/tlatrun.h): the trace
 * line parser, the grid placed from stamped samples (never after the
 * kernel's expiries, at most 1 us before), a sample's slot, the refusals on
 * a constructed tracefs, and the IRQ/thread split (analysis/tlatsplit.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats/tlatsplit.h"
#include "stats/tlatstats.h"
#include "run/tlatrun.h"

static void sample_lines_of_each_context_parse(void **state)
{
	struct tlat_sample s;

	(void)state;
	assert_int_equal(tlat_parse_line("          <idle>-0       [000] d.h1.    54.029328: #1 "
					 "context    irq timer_latency       932 ns", &s), 1);
	assert_int_equal(s.ctx, TLAT_IRQ);
	assert_int_equal(s.seqnum, 1);
	assert_int_equal(s.latency_ns, 932);
	assert_true(s.ts_ns == 54029328000ull);
	assert_int_equal(tlat_parse_line("   sqwave-rt-867 [001] .....  1234.000005: #4711 context "
					 "thread timer_latency     11700 ns", &s), 1);
	assert_int_equal(s.ctx, TLAT_THREAD);
	assert_int_equal(s.seqnum, 4711);
	assert_true(s.ts_ns == 1234000005000ull);
	assert_int_equal(tlat_parse_line("<...>-867 [001] .... 9.100000: #2 context user-ret "
					 "timer_latency 20 ns", &s), 1);
	assert_int_equal(s.ctx, TLAT_URET);
}

static void other_lines_are_not_samples_and_broken_ones_say_so(void **state)
{
	struct tlat_sample s;

	(void)state;
	assert_int_equal(tlat_parse_line("# tracer: timerlat", &s), 0);
	assert_int_equal(tlat_parse_line("", &s), 0);
	assert_int_equal(tlat_parse_line("CPU:1 [LOST 12 EVENTS]", &s), 0);
	assert_int_equal(tlat_parse_line("x [000] 54.029328: #1 context nmi timer_latency 9 ns", &s), -1);
	assert_int_equal(tlat_parse_line("x [000] 54.029328: #1 context irq timer_latency -9 ns", &s), -1);
	assert_int_equal(tlat_parse_line("x [000] 54: #1 context irq timer_latency 9 ns", &s), -1);
}

/* The kernel's grid: abs0 + k x period, with a fractional microsecond. */
#define ABS0 UINT64_C(5000000123456)
#define PERIOD INT64_C(500000)

/* A sample of activation k stamped @delay after its @lat, printed in whole us. */
static struct tlat_sample stamped(int k, int64_t lat, int64_t delay)
{
	uint64_t ts = ABS0 + (uint64_t)k * (uint64_t)PERIOD + (uint64_t)(lat + delay);

	return (struct tlat_sample){ .ts_ns = ts - ts % 1000, .seqnum = (uint64_t)k,
				     .ctx = TLAT_IRQ, .latency_ns = lat };
}

static void the_grid_is_never_after_the_kernels_and_at_most_1us_before(void **state)
{
	static const int64_t lats[] = { 932, 1500, 740, 2999, 1001, 15000, 880, 4321, 777, 1234 };
	struct tlat_sample s[10];
	uint64_t origin;
	int64_t off;
	int i;

	(void)state;
	for (i = 0; i < 10; i++)
		s[i] = stamped(i + 1, lats[i], 150 + 37 * i);
	origin = tlat_grid_origin(s, 10, PERIOD);
	/* on the kernel's grid, up to 1 us early */
	off = (int64_t)((origin - ABS0) % (uint64_t)PERIOD);
	if (off > PERIOD / 2)
		off -= PERIOD;
	assert_true(off <= 0);
	assert_true(off >= -1000);
	/* a point of the grid (the first sample's): each sample's slot from
	 * there is its activation's */
	assert_true(origin > ABS0 + (uint64_t)PERIOD / 2 && origin < ABS0 + 3 * (uint64_t)PERIOD / 2);
	for (i = 0; i < 10; i++)
		assert_int_equal(tlat_slot(&s[i], origin, PERIOD), i);
}

static void a_sample_before_slot_0_has_no_slot(void **state)
{
	struct tlat_sample s = stamped(3, 2000, 100);

	(void)state;
	assert_int_equal(tlat_slot(&s, ABS0 + 4 * (uint64_t)PERIOD, PERIOD), -1);
	assert_int_equal(tlat_slot(&s, ABS0 + 3 * (uint64_t)PERIOD, PERIOD), 0);
	assert_int_equal(tlat_slot(&s, ABS0 + 1 * (uint64_t)PERIOD, PERIOD), 2);
}

/* A constructed tracefs: available_tracers and current_tracer. */
static char *tree(const char *tracers, const char *current)
{
	char *d = strdup("/tmp/sqwave-tlat-XXXXXX"), p[512];
	FILE *f;

	assert_non_null(mkdtemp(d));
	snprintf(p, sizeof(p), "%s/available_tracers", d);
	f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", tracers);
	fclose(f);
	snprintf(p, sizeof(p), "%s/current_tracer", d);
	f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", current);
	fclose(f);
	return d;
}

static void rm(char *d)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", d);
	assert_int_equal(system(cmd), 0);
	free(d);
}

static void mkfd(const char *d)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/osnoise/per_cpu/cpu0 %s/osnoise/per_cpu/cpu1 && "
		 "touch %s/osnoise/per_cpu/cpu0/timerlat_fd %s/osnoise/per_cpu/cpu1/timerlat_fd",
		 d, d, d, d);
	assert_int_equal(system(cmd), 0);
}

static void each_refusal_names_what_is_missing(void **state)
{
	struct tlatrun_params p = { .cpu = 1, .half_ns = 500000 };
	char buf[1024];
	char *d;

	(void)state;
	d = tree("blk function nop", "nop");
	p.tracefs = d;
	assert_non_null(tlatrun_refusal(&p, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "CONFIG_TIMERLAT_TRACER"));
	rm(d);

	d = tree("timerlat osnoise hwlat nop", "nop");	/* Linux 6.1 */
	p.tracefs = d;
	assert_non_null(tlatrun_refusal(&p, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "timerlat_fd"));
	assert_non_null(strstr(buf, "6.5"));
	mkfd(d);
	assert_null(tlatrun_refusal(&p, buf, sizeof(buf)));
	p.cpu = 3;	/* no such CPU's file */
	assert_non_null(tlatrun_refusal(&p, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "CPU 3"));
	p.cpu = -1;
	assert_non_null(tlatrun_refusal(&p, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "rt.cpu"));
	p.cpu = 1;
	p.half_ns = 500500;	/* not whole us */
	assert_non_null(strstr(tlatrun_refusal(&p, buf, sizeof(buf)), "whole microseconds"));
	p.half_ns = 50000;	/* below the kernel's 100 us */
	assert_non_null(tlatrun_refusal(&p, buf, sizeof(buf)));
	p.half_ns = 100000;
	assert_null(tlatrun_refusal(&p, buf, sizeof(buf)));
	rm(d);

	d = tree("timerlat osnoise nop", "osnoise");
	mkfd(d);
	p.tracefs = d;
	assert_non_null(tlatrun_refusal(&p, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "already running"));
	rm(d);
}

static void a_late_part_is_named_by_the_limit_or_the_larger_share(void **state)
{
	(void)state;
	/* limit 20 us: a part is late from 10 us */
	assert_int_equal(tlat_split_of(50000, 45000, 20000), TLAT_SPLIT_IRQ);
	assert_int_equal(tlat_split_of(50000, 1000, 20000), TLAT_SPLIT_THREAD);
	assert_int_equal(tlat_split_of(50000, 25000, 20000), TLAT_SPLIT_BOTH);
	assert_int_equal(tlat_split_of(8000, 3000, 20000), TLAT_SPLIT_NONE);
	assert_int_equal(tlat_split_of(12000, 10000, 20000), TLAT_SPLIT_IRQ); /* half: late */
	/* no limit: the larger share */
	assert_int_equal(tlat_split_of(10000, 7000, 0), TLAT_SPLIT_IRQ);
	assert_int_equal(tlat_split_of(10000, 2000, 0), TLAT_SPLIT_THREAD);
	assert_int_equal(tlat_split_of(10000, -1, 0), TLAT_SPLIT_NONE);
}

static void the_split_counts_late_edges_and_disagreeing_samples(void **state)
{
	struct tlatstats *s = tlatstats_new(20000);
	const struct tlatstats_result *r;

	(void)state;
	assert_non_null(s);
	tlatstats_add(s, 0, 5000, 1000, 3000);
	tlatstats_add(s, 1, 50000, 45000, 47000);	/* IRQ late */
	tlatstats_add(s, 2, 40000, 1000, 39000);	/* thread late */
	tlatstats_add(s, 3, 5000, 4000, 3000);		/* IRQ after its thread */
	tlatstats_add(s, 4, 5000, 1000, 7000);		/* thread after the wake-up */
	tlatstats_add(s, 5, 5000, -1, 3000);		/* no IRQ sample */
	r = tlatstats_result(s);
	assert_int_equal(r->edges, 6);
	assert_int_equal(r->with_samples, 5);
	assert_int_equal(r->inconsistent, 2);
	assert_int_equal(r->late, 2);
	assert_int_equal(r->late_by[TLAT_SPLIT_IRQ], 1);
	assert_int_equal(r->late_by[TLAT_SPLIT_THREAD], 1);
	assert_int_equal(r->latest_seq, 1);
	assert_int_equal(r->latest_split, TLAT_SPLIT_IRQ);
	tlatstats_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sample_lines_of_each_context_parse),
		cmocka_unit_test(other_lines_are_not_samples_and_broken_ones_say_so),
		cmocka_unit_test(the_grid_is_never_after_the_kernels_and_at_most_1us_before),
		cmocka_unit_test(a_sample_before_slot_0_has_no_slot),
		cmocka_unit_test(each_refusal_names_what_is_missing),
		cmocka_unit_test(a_late_part_is_named_by_the_limit_or_the_larger_share),
		cmocka_unit_test(the_split_counts_late_edges_and_disagreeing_samples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
