/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the compare module (src/lab/compare/compare.c): a log written here, captures
 * of a window of it (VCD), and what compare must conclude about them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/compare.h"

#define HALF 500000             /* ns: 1 kHz */
#define T0   7000000000ll

static char dir[] = "/tmp/sqwave-compare-XXXXXX";
static char log_path[128];
static struct edge_rec *recs;
static const size_t NREC = 6000;

static uint32_t rng = 7;

static uint32_t rnd(void)
{
	rng = rng * 1664525u + 1013904223u;
	return rng >> 8;
}

/* A run of NREC edges, woken 2..22 us late, writing for 100..400 ns. */
static int group_setup(void **state)
{
	struct edgelog_meta m = { .version = 1, .clock_id = 1, .half_period_ns = HALF,
				  .start_ns = T0, .text = "board.name=test\n" };
	struct edgelog_footer f = { 0 };
	struct edgelog_writer *w;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(log_path, sizeof(log_path), "%s/run.sqwlog", dir);
	recs = calloc(NREC, sizeof(*recs));
	for (size_t k = 0; k < NREC; k++) {
		int32_t wake = 2000 + (int32_t)(rnd() % 20000);

		recs[k].seq = k;
		recs[k].intended_ns = (uint64_t)(T0 + (int64_t)k * HALF);
		recs[k].wake_off_ns = wake;
		recs[k].write_begin_off_ns = wake + 50;
		recs[k].write_end_off_ns = wake + 150 + (int32_t)(rnd() % 300);
		recs[k].expirations = 1;
		recs[k].level = (uint8_t)(k % 2 == 0);
	}
	w = edgelog_writer_create(log_path, &m, NULL, 0, NULL, 0);
	if (!w || edgelog_writer_append(w, recs, NREC))
		return -1;
	f.records = NREC;
	return edgelog_writer_close(w, &f, NULL, 0);
}

static int group_teardown(void **state)
{
	(void)state;
	unlink(log_path);
	rmdir(dir);
	free(recs);
	return 0;
}

/* A VCD of run edges [first, last] as a 10 ns analyzer sees them: each edge
 * halfway into its write window, rounded up to a sample; @skip: a seq left
 * out (its pulse partner too), or -1. Returns the path. */
static char *write_vcd(const char *name, size_t first, size_t last, long skip, size_t extra_glitch)
{
	char *path = malloc(256);
	FILE *f;
	int64_t zero = (int64_t)recs[first].intended_ns - 100000;

	snprintf(path, 256, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "$timescale 10 ns $end $scope module t $end $var wire 1 ! gpio $end $upscope $end\n"
		   "$enddefinitions $end\n#0 %d!\n", recs[first].level ^ 1);
	for (size_t k = first; k <= last; k++) {
		int64_t t = (int64_t)(edge_write_begin_ns(&recs[k]) + edge_write_end_ns(&recs[k])) / 2;

		if ((long)k == skip || (long)k == skip + 1)
			continue;
		fprintf(f, "#%" PRId64 " %d!\n", (t - zero + 9) / 10, recs[k].level);
		if (extra_glitch && k == extra_glitch) {
			fprintf(f, "#%" PRId64 " %d!\n", (t - zero + 100000) / 10, recs[k].level ^ 1);
			fprintf(f, "#%" PRId64 " %d!\n", (t - zero + 102000) / 10, recs[k].level);
		}
	}
	fprintf(f, "#%" PRId64 "\n", ((int64_t)recs[last].intended_ns - zero + 100000) / 10);
	fclose(f);
	return path;
}

static struct compare *run_compare(struct compare_opts *o, enum compare_status want)
{
	struct compare *c = NULL;
	char err[512] = "";
	enum compare_status st = compare_run(o, &c, err, sizeof(err));

	if (st != want)
		fail_msg("compare_run: status %d, want %d: %s", st, want, err);
	return c;
}

static void a_window_of_the_run_agrees_edge_for_edge(void **state)
{
	char *cap = write_vcd("a.vcd", 1200, 3199, -1, 0);
	struct compare_opts o;
	struct compare *c;

	(void)state;
	compare_opts_init(&o);
	o.run = log_path;
	o.capture = cap;
	c = run_compare(&o, COMPARE_OK);
	assert_int_equal(c->verdict, COMPARE_AGREE);
	assert_true(c->aligned);
	assert_int_equal(c->ncap, 2000);
	assert_int_equal(c->r.first_seq, 1200);
	assert_int_equal(c->r.last_seq, 3199);
	assert_int_equal(c->r.npairs, 2000);
	assert_int_equal(compare_first_paired_seq(c), 1200);
	assert_int_equal(compare_last_paired_seq(c), 3199);
	assert_int_equal(c->r.nmissing + c->r.nextra + c->r.disagree, 0);
	assert_int_equal(c->nworst, 0);
	assert_true(c->width_ok[EDGESTATS_ANY][0] && c->width_ok[EDGESTATS_ANY][1]);
	/* the window holds the run records around the capture, not the run */
	assert_true(c->win.n < NREC / 2);
	compare_free(c);
	unlink(cap);
	free(cap);
}

static void a_pulse_the_capture_lacks_and_a_glitch_it_has_disagree(void **state)
{
	char *cap = write_vcd("b.vcd", 500, 4499, 2000, 3001);
	struct compare_opts o;
	struct compare *c;
	uint64_t seq;
	uint8_t lvl;
	double t;
	int64_t tp;
	size_t k;

	(void)state;
	compare_opts_init(&o);
	o.run = log_path;
	o.capture = cap;
	c = run_compare(&o, COMPARE_OK);
	assert_int_equal(c->verdict, COMPARE_DISAGREE);
	assert_int_equal(c->r.nmissing, 2);
	k = compare_missing_next(c, 0, &seq, &lvl, &t);
	assert_int_equal(seq, 2000);
	k = compare_missing_next(c, k + 1, &seq, &lvl, &t);
	assert_int_equal(seq, 2001);
	assert_int_equal(compare_missing_next(c, k + 1, &seq, &lvl, &t), SIZE_MAX);
	assert_int_equal(c->r.nextra, 2);
	k = compare_extra_next(c, 0, &tp, &lvl);
	assert_true(k != SIZE_MAX);
	compare_free(c);
	unlink(cap);
	free(cap);
}

static void an_edge_30_us_off_is_the_worst_disagreement(void **state)
{
	struct compare_opts o;
	struct compare *c;
	char *cap;
	int32_t keep_b = recs[2500].write_begin_off_ns, keep_e = recs[2500].write_end_off_ns;

	(void)state;
	/* the capture sees edge 2500 30 us later than the log says */
	recs[2500].write_begin_off_ns += 30000;
	recs[2500].write_end_off_ns += 30000;
	cap = write_vcd("d.vcd", 1000, 3999, -1, 0);
	recs[2500].write_begin_off_ns = keep_b;
	recs[2500].write_end_off_ns = keep_e;
	compare_opts_init(&o);
	o.run = log_path;
	o.capture = cap;
	c = run_compare(&o, COMPARE_OK);
	assert_int_equal(c->verdict, COMPARE_DISAGREE);
	assert_int_equal(c->r.disagree, 1);
	assert_int_equal(c->nworst, 1);
	assert_int_equal(c->worst[0].seq, 2500);
	assert_true(c->worst[0].residual_ns > 29000 && c->worst[0].residual_ns < 31000);
	compare_free(c);
	unlink(cap);
	free(cap);
}

static void the_worst_disagreements_are_kept_worst_first(void **state)
{
	/* four edges off by 30, 20, 40 and 50 us, in capture order; only the 2
	 * worst are kept, so the later ones must push the earlier ones out */
	static const size_t at[] = { 2500, 2600, 2700, 2800 };
	static const int32_t by[] = { 30000, 20000, 40000, 50000 };
	struct compare_opts o;
	struct compare *c;
	char *cap;

	(void)state;
	for (int k = 0; k < 4; k++) {
		recs[at[k]].write_begin_off_ns += by[k];
		recs[at[k]].write_end_off_ns += by[k];
	}
	cap = write_vcd("w.vcd", 1000, 3999, -1, 0);
	for (int k = 0; k < 4; k++) {
		recs[at[k]].write_begin_off_ns -= by[k];
		recs[at[k]].write_end_off_ns -= by[k];
	}
	compare_opts_init(&o);
	o.run = log_path;
	o.capture = cap;
	o.worst = 2;
	c = run_compare(&o, COMPARE_OK);
	assert_int_equal(c->r.disagree, 4);
	assert_int_equal(c->nworst, 2);
	assert_int_equal(c->worst[0].seq, 2800);
	assert_int_equal(c->worst[1].seq, 2700);
	compare_free(c);
	unlink(cap);
	free(cap);
}

static void scope_readings_inside_the_bounds_agree_and_outside_do_not(void **state)
{
	struct compare_opts o;
	struct compare *c;
	int64_t tmin;

	(void)state;
	compare_opts_init(&o);
	o.run = log_path;
	o.have_scope = true;
	o.scope[EDGESTATS_ANY][0].set = true;
	o.scope[EDGESTATS_ANY][0].ns = 400000;
	c = run_compare(&o, COMPARE_OK);
	assert_int_equal(c->verdict, COMPARE_DISAGREE);
	assert_false(c->scope_ok[EDGESTATS_ANY][0]);
	tmin = c->ser->width[EDGESTATS_ANY].tmin.width_ns;
	compare_free(c);
	o.scope[EDGESTATS_ANY][0].ns = tmin;
	c = run_compare(&o, COMPARE_OK);
	assert_int_equal(c->verdict, COMPARE_AGREE);
	compare_free(c);
}

static void a_capture_with_far_more_edges_than_the_run_is_refused_early(void **state)
{
	/* a 1 MHz clock on the probed line: 3 x the run's records in edges */
	char path[256];
	FILE *f;
	struct compare_opts o;
	char err[512];
	struct compare *c;

	(void)state;
	snprintf(path, sizeof(path), "%s/clk.vcd", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "$timescale 1 ns $end $scope module t $end $var wire 1 ! clk $end $upscope $end\n"
		   "$enddefinitions $end\n#0 0!\n");
	for (size_t i = 1; i <= 3 * NREC + 10000; i++)
		fprintf(f, "#%zu %d!\n", i * 500, (int)(i & 1));
	fclose(f);
	compare_opts_init(&o);
	o.run = log_path;
	o.capture = path;
	assert_int_equal(compare_run(&o, &c, err, sizeof(err)), COMPARE_E_INPUT);
	assert_null(c);
	assert_non_null(strstr(err, "over twice what the run has records"));
	unlink(path);
}

static void a_bad_capture_or_log_is_input_and_a_missing_one_io(void **state)
{
	struct compare_opts o;
	struct compare *c;
	char err[512], junk[256];
	FILE *f;

	(void)state;
	snprintf(junk, sizeof(junk), "%s/junk.txt", dir);
	f = fopen(junk, "w");
	fputs("hello\n", f);
	fclose(f);
	compare_opts_init(&o);
	o.run = log_path;
	o.capture = junk;
	assert_int_equal(compare_run(&o, &c, err, sizeof(err)), COMPARE_E_INPUT);
	assert_non_null(strstr(err, "junk.txt"));
	o.capture = "/nonexistent/x.vcd";
	assert_int_equal(compare_run(&o, &c, err, sizeof(err)), COMPARE_E_IO);
	o.run = junk;
	o.capture = NULL;
	o.have_scope = true;
	o.scope[0][0].set = true;
	assert_int_equal(compare_run(&o, &c, err, sizeof(err)), COMPARE_E_INPUT);
	o.run = "-";
	o.capture = "-";
	assert_int_equal(compare_run(&o, &c, err, sizeof(err)), COMPARE_E_INPUT);
	assert_non_null(strstr(err, "only one"));
	unlink(junk);
}

/* The error contract's buffer (base/msgbuf): a sentence longer than the
 * caller's buffer is cut with "..." where it was cut, never silently. */
static void a_sentence_cut_to_the_callers_buffer_ends_in_dots(void **state)
{
	struct compare_opts o;
	struct compare *c;
	char err[16];

	(void)state;
	compare_opts_init(&o);
	o.run = "-";
	o.capture = "-";
	assert_int_equal(compare_run(&o, &c, err, sizeof(err)), COMPARE_E_INPUT);
	assert_string_equal(err, "only one of ...");
	assert_int_equal(compare_run(&o, &c, NULL, 0), COMPARE_E_INPUT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_window_of_the_run_agrees_edge_for_edge),
		cmocka_unit_test(a_pulse_the_capture_lacks_and_a_glitch_it_has_disagree),
		cmocka_unit_test(an_edge_30_us_off_is_the_worst_disagreement),
		cmocka_unit_test(the_worst_disagreements_are_kept_worst_first),
		cmocka_unit_test(scope_readings_inside_the_bounds_agree_and_outside_do_not),
		cmocka_unit_test(a_capture_with_far_more_edges_than_the_run_is_refused_early),
		cmocka_unit_test(a_bad_capture_or_log_is_input_and_a_missing_one_io),
		cmocka_unit_test(a_sentence_cut_to_the_callers_buffer_ends_in_dots),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
