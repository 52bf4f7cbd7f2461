/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for compare's documents (src/lab/compare/comparedoc.c): a log written
 * here, a capture of a window of it, and what the text and the JSON say of
 * the comparison, read back and held against the comparison's own figures. */
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

#include "base/json.h"
#include "base/jsonread.h"
#include "compare/comparedoc.h"

#define HALF 500000             /* ns: 1 kHz */
#define T0   7000000000ll
#define NREC 3000

static char dir[] = "/tmp/sqwave-comparedoc-XXXXXX";
static char log_path[128], cap_path[128], odd_path[128];
static struct edge_rec recs[NREC];

static uint32_t rng = 29;

static uint32_t rnd(void)
{
	rng = rng * 1664525u + 1013904223u;
	return rng >> 8;
}

/* A VCD of run edges [first, last], each halfway into its write window, as
 * a 10 ns analyzer sees it. */
static int write_vcd(const char *path, size_t first, size_t last)
{
	FILE *f = fopen(path, "w");
	int64_t zero = (int64_t)recs[first].intended_ns - 100000;

	if (!f)
		return -1;
	fprintf(f, "$timescale 10 ns $end $scope module t $end $var wire 1 ! gpio $end $upscope $end\n"
		   "$enddefinitions $end\n#0 %d!\n", recs[first].level ^ 1);
	for (size_t k = first; k <= last; k++) {
		int64_t t = (int64_t)(edge_write_begin_ns(&recs[k]) + edge_write_end_ns(&recs[k])) / 2;

		fprintf(f, "#%" PRId64 " %d!\n", (t - zero + 9) / 10, recs[k].level);
	}
	fprintf(f, "#%" PRId64 "\n", ((int64_t)recs[last].intended_ns - zero + 100000) / 10);
	return fclose(f);
}

/* A run of NREC edges woken 2..22 us late; a capture of edges 1000..2499;
 * and a capture of another wave (a 3 kHz one), which fits no part of it. */
static int group_setup(void **state)
{
	struct edgelog_meta m = { .version = 1, .clock_id = 1, .half_period_ns = HALF,
				  .start_ns = T0, .text = "board.name=test\n" };
	struct edgelog_footer ft = { 0 };
	struct edgelog_writer *w;
	FILE *f;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(log_path, sizeof(log_path), "%s/run.sqwlog", dir);
	snprintf(cap_path, sizeof(cap_path), "%s/cap.vcd", dir);
	snprintf(odd_path, sizeof(odd_path), "%s/odd.vcd", dir);
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
	ft.records = NREC;
	if (edgelog_writer_close(w, &ft, NULL, 0) || write_vcd(cap_path, 1000, 2499))
		return -1;
	f = fopen(odd_path, "w");
	if (!f)
		return -1;
	fprintf(f, "$timescale 1 us $end $scope module t $end $var wire 1 ! gpio $end $upscope $end\n"
		   "$enddefinitions $end\n#0 0!\n");
	for (int k = 1; k < 400; k++)
		fprintf(f, "#%d %d!\n", k * 167 + (int)(rnd() % 60), k % 2);
	return fclose(f);
}

static int group_teardown(void **state)
{
	(void)state;
	unlink(log_path);
	unlink(cap_path);
	unlink(odd_path);
	rmdir(dir);
	return 0;
}

static struct compare *run_compare(const char *capture)
{
	static struct compare_opts o;
	struct compare *c = NULL;
	char err[512] = "";

	compare_opts_init(&o);
	o.run = log_path;
	o.capture = capture;
	if (compare_run(&o, &c, err, sizeof(err)) != COMPARE_OK)
		fail_msg("compare_run: %s", err);
	return c;
}

/* @fn's document of @ctx through json_write_stream(), parsed. */
static struct jv *doc_of(json_document_fn fn, const void *ctx)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jv *v;

	assert_non_null(f);
	assert_int_equal(json_write_stream(f, "memory", fn, ctx, err, sizeof(err)), 0);
	fclose(f);
	v = jsonread_parse(buf, len, err, sizeof(err));
	if (!v)
		fail_msg("%s: %s", err, buf);
	free(buf);
	return v;
}

/* The alignment in @form, written alone into an object and parsed. */
static void alignment_doc(struct json_writer *w, const void *ctx)
{
	json_object_begin(w);
	comparedoc_json_alignment(w, ctx);
	json_object_end(w);
}

static struct jv *alignment_of(const struct compare *c, enum comparedoc_form form)
{
	struct comparedoc_alignment a;

	comparedoc_alignment_of(c, form, &a);
	return doc_of(alignment_doc, &a);
}

static void a_wave_documents_alignment_is_its_fit_and_the_window_covered(void **state)
{
	struct compare *c = run_compare(cap_path);
	struct jv *d = doc_of(comparedoc_json, c);
	const struct jv *a = jv_get(d, "alignment");

	(void)state;
	assert_true(c->aligned);
	assert_string_equal(jv_str(jv_get(d, "schema"), ""), COMPARE_SCHEMA);
	assert_string_equal(jv_str(jv_get(a, "status"), ""), "aligned");
	assert_int_equal(jv_int(jv_get(a, "candidates"), -1), c->w.candidates);
	assert_int_equal(jv_int(jv_get(a, "fit_edges"), -1), c->r.inliers);
	assert_int_equal(jv_int(jv_get(a, "first_seq"), -1), 1000);
	assert_int_equal(jv_int(jv_get(a, "last_seq"), -1), 2499);
	assert_int_equal(jv_int(jv_get(a, "capture_first_edge_seq"), -1), 1000);
	assert_int_equal(jv_int(jv_get(a, "capture_last_edge_seq"), -1), 2499);
	assert_int_equal(jv_int(jv_get(a, "ref_ns"), -1), c->r.ref_ns);
	assert_true(fabs(jv_num(jv_get(a, "drift_ppm"), NAN) - c->r.drift_ppm) <= 0.0005);
	/* the respond form's members are not a wave's */
	assert_null(jv_get(a, "place_ns"));
	assert_null(jv_get(a, "paired"));
	assert_null(jv_get(a, "first_seq_given"));
	assert_string_equal(jv_str(jv_get(d, "verdict"), ""), compare_verdict_name(c->verdict));
	assert_int_equal(jv_int(jv_get(d, "exit_code"), -1), compare_verdict_exit(c->verdict));
	jv_free(d);
	compare_free(c);
}

/* The same comparison as a board of a two-board document: a word and the
 * counts beside the board's other members, the drift as fitted. */
static void a_boards_alignment_is_a_word_and_its_counts(void **state)
{
	struct compare *c = run_compare(cap_path);
	struct jv *d = alignment_of(c, COMPAREDOC_BOARD);

	(void)state;
	assert_string_equal(jv_str(jv_get(d, "alignment"), ""), "aligned");
	assert_int_equal(jv_int(jv_get(d, "paired"), -1), c->r.npairs);
	assert_int_equal(jv_int(jv_get(d, "paired"), -1), 1500);
	assert_int_equal(jv_int(jv_get(d, "missing"), -1), c->r.nmissing);
	assert_int_equal(jv_int(jv_get(d, "extra"), -1), c->r.nextra);
	assert_int_equal(jv_int(jv_get(d, "beyond_tolerance"), -1), c->r.disagree);
	assert_true(jv_num(jv_get(d, "drift_ppm"), NAN) == c->r.drift_ppm);
	assert_true(jv_num(jv_get(d, "tolerance_ns"), NAN) == c->r.tolerance_ns);
	assert_null(jv_get(d, "candidates"));
	jv_free(d);
	compare_free(c);
}

/* A respond log's alignment: the search and the fit as a wave's, then its
 * pairing's counts instead of the window covered. */
static void a_respond_alignment_has_the_pairings_counts(void **state)
{
	struct align_window w = { .status = ALIGN_FOUND, .candidates = 1, .blocks = 16,
				  .blocks_matched = 15 };
	struct comparedoc_alignment a = {
		.form = COMPAREDOC_RESPOND, .w = &w, .aligned = true, .first_seq_given = 3,
		.ref_ns = 42, .offset_ns = 1234.5678, .drift_ppm = 20.00049, .fit_rms_ns = 80,
		.tolerance_ns = 22.9, .place_ns = 165.5, .paired = 1120, .disagree = 2,
		.max_abs_res_ns = 7.25, .first_seq = 99,
	};
	struct jv *d = doc_of(alignment_doc, &a);
	const struct jv *j = jv_get(d, "alignment");

	(void)state;
	assert_string_equal(jv_str(jv_get(j, "status"), ""), "aligned");
	assert_int_equal(jv_int(jv_get(j, "first_seq_given"), -1), 3);
	assert_int_equal(jv_int(jv_get(j, "blocks_agreeing"), -1), 15);
	assert_true(jv_num(jv_get(j, "offset_ns"), NAN) == 1234.568);
	assert_true(jv_num(jv_get(j, "drift_ppm"), NAN) == 20.0);
	assert_true(jv_num(jv_get(j, "place_ns"), NAN) == 165.5);
	assert_int_equal(jv_int(jv_get(j, "paired"), -1), 1120);
	assert_int_equal(jv_int(jv_get(j, "beyond_tolerance"), -1), 2);
	assert_true(jv_num(jv_get(j, "max_abs_residual_ns"), NAN) == 7.25);
	assert_null(jv_get(j, "first_seq"));
	jv_free(d);
}

/* A capture that fits nowhere: the search's status and no fit; a board
 * says its verdict. */
static void an_alignment_not_found_says_why_and_has_no_fit(void **state)
{
	struct compare *c = run_compare(odd_path);
	struct jv *d = alignment_of(c, COMPAREDOC_WAVE);
	const struct jv *a = jv_get(d, "alignment");

	(void)state;
	assert_false(c->aligned);
	assert_string_equal(jv_str(jv_get(a, "status"), ""), align_status_name(c->w.status));
	assert_string_not_equal(jv_str(jv_get(a, "status"), ""), "aligned");
	assert_null(jv_get(a, "offset_ns"));
	assert_null(jv_get(a, "first_seq"));
	jv_free(d);
	d = alignment_of(c, COMPAREDOC_BOARD);
	assert_string_equal(jv_str(jv_get(d, "alignment"), ""), compare_verdict_name(c->verdict));
	assert_null(jv_get(d, "paired"));
	jv_free(d);
	compare_free(c);
}

/* The text goes to the stream it is given (standard error for --json -),
 * and says what the comparison found. */
static void the_text_report_goes_to_the_stream_given(void **state)
{
	struct compare *c = run_compare(cap_path);
	char *buf = NULL, want[128];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	comparedoc_print_text(f, c);
	fclose(f);
	assert_true(len > 0 && !strncmp(buf, "==== sqwave compare ====\n", 25));
	snprintf(want, sizeof(want), "alignment  capture edges 0..1499 are run edges seq 1000..2499\n");
	assert_non_null(strstr(buf, want));
	snprintf(want, sizeof(want), "\nverdict    %s\n",
		 c->verdict == COMPARE_AGREE ? "AGREE" : "DISAGREE");
	assert_non_null(strstr(buf, want));
	free(buf);
	compare_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_wave_documents_alignment_is_its_fit_and_the_window_covered),
		cmocka_unit_test(a_boards_alignment_is_a_word_and_its_counts),
		cmocka_unit_test(a_respond_alignment_has_the_pairings_counts),
		cmocka_unit_test(an_alignment_not_found_says_why_and_has_no_fit),
		cmocka_unit_test(the_text_report_goes_to_the_stream_given),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
