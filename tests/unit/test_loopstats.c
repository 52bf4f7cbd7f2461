/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the kernel's view of the wave: known latencies, widths per
 * polarity, early events, lost ones, and the uncertainty statement. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats/loopstats.h"
#include "log/edgelog.h"

#define START 1000000000ull
#define HALF 500000ll

/* Edge @seq at slot seq + 1, written in [+10 us, +12 us], level 1 first. */
static struct loopjoin_edge edge(uint64_t seq, int64_t ev_after_wb, bool seen)
{
	struct loopjoin_edge e = { 0 };

	e.rec.seq = seq;
	e.rec.intended_ns = START + (seq + 1) * (uint64_t)HALF;
	e.rec.wake_off_ns = 8000;
	e.rec.write_begin_off_ns = 10000;
	e.rec.write_end_off_ns = 12000;
	e.rec.expirations = 1;
	e.rec.level = (uint8_t)!(seq & 1);
	e.has_event = seen;
	if (seen)
		e.event_ns = edge_write_begin_ns(&e.rec) + (uint64_t)ev_after_wb;
	return e;
}

static void latencies_widths_and_bounds_have_known_answers(void **state)
{
	/* events 3, 5, 4, 7 us after write_begin */
	static const int64_t d[] = { 3000, 5000, 4000, 7000 };
	struct loopjoin_counts c = { .kernel_dropped = 1, .extra = 2, .late = 3, .pairs = 4 };
	const struct loopstats_result *r;
	struct loopstats *s = loopstats_new(HALF);
	struct loopjoin_edge e;
	int64_t lo, hi;
	size_t i;

	(void)state;
	assert_non_null(s);
	for (i = 0; i < 4; i++) {
		e = edge(i, d[i], true);
		loopstats_add(s, &e);
	}
	loopstats_finish(s, &c);
	r = loopstats_result(s);
	assert_int_equal(r->edges, 4);
	assert_int_equal(r->events, 4);
	assert_int_equal(r->no_event, 0);
	assert_int_equal(r->from_begin.m.min, 3000);
	assert_int_equal(r->from_begin.m.max, 7000);
	assert_int_equal(r->from_end.m.min, 1000);
	assert_int_equal(r->from_end.m.max, 5000);
	assert_int_equal(stats_hist_percentile(&r->from_begin, 50), 4000);
	assert_int_equal(r->from_begin_worst.seq, 3);
	assert_int_equal(r->early, 0);
	/* pulses: 1 -> 0 (positive) at edges 1 and 3, 0 -> 1 at edge 2 */
	assert_int_equal(r->width[EDGESTATS_POS].h.m.n, 2);
	assert_int_equal(r->width[EDGESTATS_NEG].h.m.n, 1);
	assert_int_equal(r->width[EDGESTATS_ANY].h.m.n, 3);
	assert_int_equal(r->width[EDGESTATS_POS].tmin.width_ns, HALF + 2000);
	assert_int_equal(r->width[EDGESTATS_POS].tmin.at.seq, 1);
	assert_int_equal(r->width[EDGESTATS_POS].tmax.width_ns, HALF + 3000);
	assert_int_equal(r->width[EDGESTATS_NEG].tmin.width_ns, HALF - 1000);
	assert_int_equal(r->kernel_dropped, 1);
	assert_int_equal(r->extra, 2);
	assert_int_equal(r->late, 3);
	/* d >= max(event - we) = 5 us, d <= min(event - wb) = 3 us: no constant fits */
	assert_true(loopstats_delay_bounds(r, &lo, &hi));
	assert_int_equal(lo, 5000);
	assert_int_equal(hi, 3000);
	loopstats_free(s);
}

static void an_event_before_its_write_began_is_counted_with_the_worst(void **state)
{
	const struct loopstats_result *r;
	struct loopstats *s = loopstats_new(HALF);
	struct loopjoin_counts c = { 0 };
	struct loopjoin_edge e;
	char text[1024];

	(void)state;
	e = edge(0, 3000, true);
	loopstats_add(s, &e);
	e = edge(1, -2000, true);
	loopstats_add(s, &e);
	e = edge(2, -500, true);
	loopstats_add(s, &e);
	loopstats_finish(s, &c);
	r = loopstats_result(s);
	assert_int_equal(r->early, 2);
	assert_int_equal(r->early_worst_ns, 2000);
	assert_int_equal(r->early_worst.seq, 1);
	loopstats_statement(r, text, sizeof(text));
	assert_non_null(strstr(text, "2 events came before their write began"));
	assert_non_null(strstr(text, "2.000 us, edge 1"));
	loopstats_free(s);
}

static void lost_and_warmup_edges_count_apart_and_break_pulses(void **state)
{
	const struct loopstats_result *r;
	struct loopstats *s = loopstats_new(HALF);
	struct loopjoin_edge e;

	(void)state;
	e = edge(0, 3000, true);
	e.rec.flags = EDGE_F_WARMUP;
	loopstats_add(s, &e);
	e = edge(1, 3000, true);        /* its pulse starts at a warm-up edge */
	loopstats_add(s, &e);
	e = edge(2, 0, false);
	e.skipped = true;
	loopstats_add(s, &e);
	e = edge(3, 3000, true);        /* no pulse: edge 2 unseen */
	loopstats_add(s, &e);
	e = edge(4, 3000, true);
	loopstats_add(s, &e);
	r = loopstats_result(s);
	assert_int_equal(r->edges, 4);
	assert_int_equal(r->events, 3);
	assert_int_equal(r->no_event, 1);
	assert_int_equal(r->skipped, 1);
	assert_int_equal(r->width[EDGESTATS_ANY].h.m.n, 1);
	assert_int_equal(r->width[EDGESTATS_ANY].tmin.at.seq, 4);
	assert_int_equal(r->width[EDGESTATS_ANY].tmin.width_ns, HALF);
	loopstats_free(s);
}

static void the_statement_gives_the_delay_and_its_bounds(void **state)
{
	const struct loopstats_result *r;
	struct loopstats *s = loopstats_new(HALF);
	struct loopjoin_edge e;
	char text[1024];
	size_t i;

	(void)state;
	/* a constant 20 us delay, the pin changing 0.5 us into a 2 us window */
	for (i = 0; i < 10; i++) {
		e = edge(i, 20500, true);
		loopstats_add(s, &e);
	}
	r = loopstats_result(s);
	loopstats_statement(r, text, sizeof(text));
	assert_non_null(strstr(text, "18.500 .. 18.500 us after its write ended"));
	assert_non_null(strstr(text, "20.500 .. 20.500 us after it began"));
	assert_non_null(strstr(text, "a constant delay would be 18.500 .. 20.500 us"));
	assert_null(strstr(text, "negative"));
	loopstats_free(s);
	/* seen 0.5 us into a 2 us write: before the write call returned */
	s = loopstats_new(HALF);
	e = edge(0, 500, true);
	loopstats_add(s, &e);
	loopstats_statement(loopstats_result(s), text, sizeof(text));
	assert_non_null(strstr(text, "-1.500 .. -1.500 us after its write ended (p50 -1.500, p99 "
			       "-1.500 us; negative: before the write call returned)"));
	loopstats_free(s);
	s = loopstats_new(HALF);
	r = loopstats_result(s);
	loopstats_statement(r, text, sizeof(text));
	assert_string_equal(text, "");
	loopstats_free(s);
}

static void a_log_without_loopback_reads_as_none(void **state)
{
	struct edgelog_meta m = { .clock_id = 1, .half_period_ns = HALF, .start_ns = START,
				  .text = (char *)"run.loopback=false\n" };
	struct edgelog_footer f = { 0 };
	struct edgelog_writer *w;
	struct loopstats *s = (struct loopstats *)&m;
	char path[64], err[256];
	int fd, st = 0;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/sqwave-ls-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	assert_non_null(w);
	assert_int_equal(edgelog_writer_close(w, &f, NULL, 0), 0);
	assert_int_equal(loopstats_read_log(path, &s, &st, err, sizeof(err)), 0);
	assert_null(s);
	unlink(path);
	assert_int_equal(loopstats_read_log(path, &s, &st, err, sizeof(err)), -1);
	assert_int_equal(st, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(latencies_widths_and_bounds_have_known_answers),
		cmocka_unit_test(an_event_before_its_write_began_is_counted_with_the_worst),
		cmocka_unit_test(lost_and_warmup_edges_count_apart_and_break_pulses),
		cmocka_unit_test(the_statement_gives_the_delay_and_its_bounds),
		cmocka_unit_test(a_log_without_loopback_reads_as_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
