/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for sqwave report: rows per phase from a run summary, each
 * row's verdict against the run's limits and its load proof, the formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* A summary of a two-phase run: idle within 400-600 us, loaded with a
 * 611 us pulse and a ping flood that did not arrive. */
static const char summary[] =
	"{\"schema\":\"sqwave-summary\",\"schema_version\":1,\"label\":\"rt|loaded\","
	"\"board\":{\"name\":\"stm32mp135f-dk\"},\"host\":{\"kernel_release\":\"6.1.55-rt15\","
	"\"preempt_rt\":true},\"rt\":{\"ok\":true},\"run\":{\"half_period_ns\":500000},"
	"\"verdict\":{\"pass\":false,\"load_applied\":false},"
	"\"config\":{\"limits.tmin\":{\"value\":400000},\"limits.tmax\":{\"value\":600000},"
	"\"limits.wake_latency_max\":{\"value\":0},\"limits.missed_max\":{\"value\":-1}},"
	"\"phases\":["
	"{\"name\":\"idle\",\"counts\":{\"edges\":1200,\"missed_periods\":0},"
	" \"wake_latency\":{\"count\":1200,\"max_ns\":61000,\"percentiles_ns\":{\"p99\":30000,\"p99.99\":55000}},"
	" \"pulse_width\":{\"any\":{\"count\":1199,\"tmin\":{\"width_ns\":444000},"
	"  \"tmin_bound\":{\"lo_ns\":443900},\"tmax\":{\"width_ns\":556000},\"tmax_bound\":{\"hi_ns\":556100},"
	"  \"histogram\":{\"lo_ns\":440000,\"bin_ns\":1000,\"counts\":[1,0,5,100,5]}}},"
	" \"loads\":[],\"load_not_applied\":[]},"
	"{\"name\":\"loaded\",\"counts\":{\"edges\":3600,\"missed_periods\":2},"
	" \"wake_latency\":{\"count\":3600,\"max_ns\":111000,\"percentiles_ns\":{\"p99\":40000,\"p99.99\":99000}},"
	" \"pulse_width\":{\"any\":{\"count\":3599,\"tmin\":{\"width_ns\":414000},"
	"  \"tmin_bound\":{\"lo_ns\":413800},\"tmax\":{\"width_ns\":611000},\"tmax_bound\":{\"hi_ns\":611200}}},"
	" \"loads\":[\"coremark\",\"ping-flood:size=1400\"],"
	" \"proof\":{\"loads\":[{\"name\":\"coremark\",\"proof\":\"cpu\",\"cpus\":\"1\",\"busy_pct\":97.2,"
	"   \"valid_scores\":4,\"mean_score\":2500.5},"
	"  {\"name\":\"ping-flood\",\"proof\":\"net\",\"interface\":\"eth0\",\"packets_per_s\":12}]},"
	" \"load_not_applied\":[\"load not applied: ping-flood: eth0 carried 12 packets/s\"]}"
	"]}";

static void svg_of(const struct report *r, char **text);

static struct report load(const char *doc)
{
	struct report r = { 0 };
	char err[256];
	struct jv *v = jsonread_parse(doc, strlen(doc), err, sizeof(err));

	if (!v)
		fail_msg("%s", err);
	if (report_add_doc(&r, v, "runs/rt.json", err, sizeof(err)) < 0)
		fail_msg("%s", err);
	jv_free(v);
	return r;
}

static void one_row_per_phase_with_its_verdict(void **state)
{
	struct report r = load(summary);

	(void)state;
	assert_int_equal(r.n, 2);
	assert_string_equal(r.rows[0].phase, "idle");
	assert_string_equal(r.rows[0].verdict, "PASS");
	assert_int_equal(r.rows[0].tmin_lo_ns, 443900);
	assert_int_equal(r.rows[0].p9999_ns, 55000);
	assert_int_equal(r.rows[0].nbins, 5);
	assert_string_equal(r.rows[1].phase, "loaded");
	/* 611.2 us above limits.tmax, and the flood did not arrive */
	assert_string_equal(r.rows[1].verdict, "FAIL, LOAD NOT APPLIED");
	assert_string_equal(r.rows[1].loads, "coremark, ping-flood");
	assert_non_null(strstr(r.rows[1].proof, "CPU 1 97%"));
	assert_non_null(strstr(r.rows[1].proof, "CoreMark 2500 (4 runs)"));
	assert_non_null(strstr(r.rows[1].proof, "eth0 12 pkt/s"));
	assert_false(report_all_pass(&r));
	report_free(&r);
}

/* The same summary with the run's own health failed: every phase row
 * fails with it, whatever its figures, and says why. */
static void a_run_that_failed_as_a_whole_fails_every_row(void **state)
{
	static const char *const variants[][2] = {
		{ "\"verdict\":{\"pass\":false,\"load_applied\":false}",
		  "\"verdict\":{\"pass\":false,\"load_applied\":false,\"checks\":["
		  "{\"name\":\"edges\",\"result\":\"pass\",\"phase\":null},"
		  "{\"name\":\"no_break\",\"result\":\"fail\",\"phase\":null,"
		  "\"message\":\"the run stopped at a trace break (--stop-on-break): edge #7\"}]}" },
		/* an analysis: no checks, its counts say it */
		{ "\"run\":{\"half_period_ns\":500000}",
		  "\"run\":{\"half_period_ns\":500000},\"counts\":{\"seq_gaps\":3}" },
	};
	size_t v;

	(void)state;
	for (v = 0; v < 2; v++) {
		char *doc = malloc(sizeof(summary) + 512), *at = strstr(summary, variants[v][0]);
		struct report r;

		assert_non_null(at);
		snprintf(doc, sizeof(summary) + 512, "%.*s%s%s", (int)(at - summary), summary,
			 variants[v][1], at + strlen(variants[v][0]));
		r = load(doc);
		assert_string_equal(r.rows[0].verdict, "FAIL");	/* idle's own figures pass */
		assert_non_null(strstr(r.rows[0].run_failure, v ? "dropped" : "trace break"));
		assert_false(report_all_pass(&r));
		report_free(&r);
		free(doc);
	}
	/* a passing check of the run's health is no failure */
	{
		struct report r = load(summary);

		assert_string_equal(r.rows[0].run_failure, "");
		report_free(&r);
	}
}

static void formats_carry_every_row(void **state)
{
	struct report r = load(summary);
	char *text = NULL, err[128];
	size_t len = 0;
	FILE *f;
	struct jv *v;

	(void)state;
	f = open_memstream(&text, &len);
	report_write_markdown(f, &r);
	fclose(f);
	assert_non_null(strstr(text, "| rt\\|loaded | idle |"));	/* '|' escaped */
	free(text);
	f = open_memstream(&text, &len);
	report_write_json(f, &r);
	fclose(f);
	v = jsonread_parse(text, len, err, sizeof(err));
	assert_non_null(v);
	assert_int_equal(jv_len(jv_get(v, "rows")), 2);
	assert_int_equal(jv_int(jv_get(jv_at(jv_get(v, "rows"), 1), "tmax_highest_ns"), 0), 611200);
	jv_free(v);
	free(text);
	f = open_memstream(&text, &len);
	report_write_svg(f, &r);
	fclose(f);
	assert_non_null(strstr(text, "<polyline"));
	assert_non_null(strstr(text, "limits.tmax 600.000 us"));
	/* the verdict and the widths, and under them the figures the load's
	 * proof was judged by */
	assert_non_null(strstr(text, "rt|loaded / loaded: FAIL, LOAD NOT APPLIED, Tmin 414.000 us"));
	assert_non_null(strstr(text, ">proof: CPU 1 97%, coremark 4 valid scores, eth0 12 pkt/s"
				     "</tspan>"));
	free(text);
	report_free(&r);
}

static void other_documents_are_refused_and_no_limits_says_so(void **state)
{
	struct report r = { 0 };
	char err[256];
	const char *doc = "{\"schema\":\"sqwave-summary\",\"schema_version\":1,"
			  "\"counts\":{\"edges\":10},\"verdict\":{\"pass\":true},"
			  "\"config\":{\"limits.missed_max\":{\"value\":-1}}}";
	struct jv *v = jsonread_parse("{\"schema\":\"x\"}", 14, err, sizeof(err));

	(void)state;
	assert_int_equal(report_add_doc(&r, v, "a.json", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "a.json: not a sqwave run summary"));
	jv_free(v);
	v = jsonread_parse(doc, strlen(doc), err, sizeof(err));
	assert_int_equal(report_add_doc(&r, v, "dir/b.json", err, sizeof(err)), 0);
	assert_string_equal(r.rows[0].verdict, "NO LIMITS");
	assert_string_equal(r.rows[0].label, "b");	/* no label: the file's name */
	assert_string_equal(r.rows[0].phase, "run");	/* no phases: the whole run */
	assert_true(report_all_pass(&r));
	jv_free(v);
	report_free(&r);
}

/* @summary with its first @from replaced by @to (a fresh string). */
static char *variant(const char *from, const char *to)
{
	const char *at = strstr(summary, from);
	size_t n = sizeof(summary) + strlen(to) + 1;
	char *doc = malloc(n);

	assert_non_null(at);
	snprintf(doc, n, "%.*s%s%s", (int)(at - summary), summary, to, at + strlen(from));
	return doc;
}

/* report_add_doc of @doc: its status, the message in @err, no row on -1. */
static int add(const char *doc, char *err, size_t errlen)
{
	struct report r = { 0 };
	struct jv *v = jsonread_parse(doc, strlen(doc), err, errlen);
	int rc;

	if (!v)
		fail_msg("%s", err);
	rc = report_add_doc(&r, v, "runs/x.json", err, errlen);
	if (rc < 0)
		assert_int_equal(r.n, 0);	/* a bad document adds no row */
	jv_free(v);
	report_free(&r);
	return rc;
}

/* Every figure the table shows or a verdict uses: a wrong type, a negative
 * count, a fraction, a number beyond int64 or an absurd width is bad input
 * naming the member, never a 0 or a wrapped number in a row. */
static void figures_of_another_type_or_range_are_bad_input(void **state)
{
	static const struct {
		const char *from, *to, *msg;
	} cases[] = {
		{ "\"edges\":1200", "\"edges\":\"1200\"",
		  "phases[0].counts.edges must be a number, not a string" },
		{ "\"edges\":1200", "\"edges\":-1", "phases[0].counts.edges must be an integer from 0" },
		{ "\"edges\":1200", "\"edges\":18446744073709551616", "counts.edges must be an integer" },
		{ "\"missed_periods\":2", "\"missed_periods\":1.5", "counts.missed_periods must be an integer" },
		{ "\"width_ns\":444000", "\"width_ns\":-444000", "pulse_width.any.tmin.width_ns must be" },
		{ "\"width_ns\":444000", "\"width_ns\":9223372036854775807", "tmin.width_ns must be" },
		{ "\"lo_ns\":443900", "\"lo_ns\":444001", "does not hold tmin_bound.lo_ns <= tmin.width_ns" },
		{ "\"width_ns\":444000}", "\"width_ns\":null}", "has a count but no tmin.width_ns" },
		{ "\"max_ns\":61000", "\"max_ns\":[61000]", "wake_latency.max_ns must be a number, not an array" },
		{ "\"p99\":30000,", "", "has a count but no percentiles_ns.p99" },
		{ "\"ok\":true", "\"ok\":\"yes\"", "rt.ok must be a boolean, not a string" },
		{ "\"preempt_rt\":true", "\"preempt_rt\":1", "host.preempt_rt must be a boolean" },
		{ "{\"value\":400000}", "{\"value\":-400000}", "limits.tmin.value must be an integer" },
		{ "\"bin_ns\":1000", "\"bin_ns\":0", "histogram.bin_ns must be an integer from 1" },
		{ "\"bin_ns\":1000", "\"bin_ns\":900000000000000", "ends beyond 1e15 ns" },
		{ "[1,0,5,100,5]", "[1,0,-5,100,5]", "histogram.counts must hold integers from 0" },
		{ "\"loads\":[\"coremark\",", "\"loads\":[7,", "phases[1].loads must hold strings" },
		{ "\"busy_pct\":97.2", "\"busy_pct\":\"97\"",
		  "phases[1].proof.loads[0].busy_pct must be a number" },
		{ "\"valid_scores\":4", "\"valid_scores\":-4", "proof.loads[0].valid_scores must be" },
		{ "\"load_not_applied\":[]}", "\"load_not_applied\":\"none\"}",
		  "phases[0].load_not_applied must be an array" },
		{ "\"phases\":[", "\"phases\":[3,", "phases must hold objects" },
		{ "\"label\":\"rt|loaded\"", "\"label\":{}", "label must be a string, not an object" },
		{ "\"schema_version\":1", "\"schema_version\":2", "schema_version 2 is newer than" },
		{ "\"schema_version\":1", "\"schema_version\":1.0", "schema_version must be an integer" },
	};
	char err[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *doc = variant(cases[i].from, cases[i].to);

		if (add(doc, err, sizeof(err)) != -1 || !strstr(err, cases[i].msg) ||
		    strncmp(err, "runs/x.json", 11))
			fail_msg("case %zu: %s", i, err);
		free(doc);
	}
	/* a run without phases: its verdict decides its row */
	assert_int_equal(add("{\"schema\":\"sqwave-summary\",\"schema_version\":1,"
			     "\"verdict\":{\"pass\":\"false\"}}", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "verdict.pass must be a boolean"));
	/* absent or null is "not given", as the writers write it */
	{
		char *doc = variant("\"busy_pct\":97.2", "\"busy_pct\":null");

		assert_int_equal(add(doc, err, sizeof(err)), 0);
		free(doc);
	}
}

/* One document holds a bounded number of phases: rows (2.6 kB each) stay
 * proportional to the input, not to what "{}," costs. */
/* The rows take the run's kind and its wave from the document's pin; a
 * document before the pin, from what it has; a pin whose nominal widths
 * are not its shape's is bad input naming the member. */
static void rows_take_the_pin_of_their_document(void **state)
{
	static const char pin_duty[] = "\"pin\":{\"kind\":\"wave\",\"line\":\"3\",\"idle_level\":0,"
		"\"high_ns\":300000,\"low_ns\":700000,\"phase_ns\":0,\"period_ns\":1000000,"
		"\"grid\":\"monotonic\",\"grid_align_ns\":null,"
		"\"nominal_ns\":{\"positive\":300000,\"negative\":700000}},\"run\":";
	char *doc = variant("\"run\":", pin_duty), *bad, err[512];
	struct report r = load(doc), old = load(summary);

	(void)state;
	assert_int_equal(r.rows[0].pin.kind, PIN_WAVE);
	assert_int_equal(r.rows[0].pin.nominal_ns[PIN_POS], 300000);
	assert_int_equal(r.rows[0].pin.nominal_ns[PIN_NEG], 700000);
	assert_string_equal(r.rows[0].pin.line, "3");
	assert_int_equal(r.rows[0].half_ns, 500000);
	/* before the pin: the 50 % wave of its half period */
	assert_int_equal(old.rows[0].pin.nominal_ns[PIN_POS], 500000);
	assert_int_equal(old.rows[0].pin.nominal_ns[PIN_NEG], 500000);
	bad = variant("\"run\":", "\"pin\":{\"kind\":\"wave\",\"line\":\"3\",\"idle_level\":0,"
		      "\"high_ns\":300000,\"low_ns\":700000,\"phase_ns\":0,\"period_ns\":1000000,"
		      "\"grid\":\"monotonic\",\"grid_align_ns\":null,"
		      "\"nominal_ns\":{\"positive\":500000,\"negative\":500000}},\"run\":");
	assert_int_equal(add(bad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "pin.nominal_ns disagrees with the pin's shape"));
	report_free(&r);
	report_free(&old);
	free(doc);
	free(bad);
}

static void phases_are_bounded_per_document(void **state)
{
	size_t n = REPORT_MAX_PHASES + 1, i, o;
	char *doc = malloc(64 + 3 * n), err[256];

	(void)state;
	o = (size_t)sprintf(doc, "{\"schema\":\"sqwave-summary\",\"schema_version\":1,\"phases\":[");
	for (i = 0; i < n; i++)
		o += (size_t)sprintf(doc + o, "%s{}", i ? "," : "");
	sprintf(doc + o, "]}");
	assert_int_equal(add(doc, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "more than 1024 phases"));
	/* exactly the bound is fine */
	doc[o - 3] = ']';
	doc[o - 2] = '}';
	doc[o - 1] = '\0';
	assert_int_equal(add(doc, err, sizeof(err)), 0);
	free(doc);
}

/* Names and figures of a document reach terminals: control characters,
 * C1 controls and bytes that are not UTF-8 escaped in every cell, and in
 * the message that names a foreign schema. */
static void text_from_the_document_is_escaped(void **state)
{
	char *doc = variant("\"loads\":[\"coremark\",",
			    "\"loads\":[\"core\\u001b[2Jmark\",");
	char *doc2, err[512], *text = NULL;
	size_t len = 0, i, k;
	struct report r;
	FILE *f;

	(void)state;
	doc2 = malloc(strlen(doc) + 64);
	{
		char *at = strstr(doc, "\"interface\":\"eth0\"");

		assert_non_null(at);
		sprintf(doc2, "%.*s\"interface\":\"e\\u009bth0\\u0007\"%s", (int)(at - doc), doc,
			at + strlen("\"interface\":\"eth0\""));
	}
	r = load(doc2);
	assert_non_null(strstr(r.rows[1].loads, "core\\x1b[2Jmark"));
	assert_non_null(strstr(r.rows[1].proof, "e\\xc2\\x9bth0\\x07 12 pkt/s"));
	f = open_memstream(&text, &len);
	report_write_text(f, &r);
	report_write_markdown(f, &r);
	report_write_svg(f, &r);
	fclose(f);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if ((c < 0x20 && c != '\n') || c == 0x7f || (c == 0xc2 && i + 1 < len &&
		    (unsigned char)text[i + 1] >= 0x80 && (unsigned char)text[i + 1] < 0xa0))
			fail_msg("byte 0x%02x at %zu of the output", c, i);
	}
	free(text);
	report_free(&r);
	free(doc2);
	free(doc);
	/* the schema of another tool's document, in the message */
	{
		const char *other = "{\"schema\":\"x\\u001b]0;owned\\u0007\",\"version\":3}";
		struct jv *v = jsonread_parse(other, strlen(other), err, sizeof(err));

		r = (struct report){ 0 };
		assert_int_equal(report_add_doc(&r, v, "o.json", err, sizeof(err)), -1);
		for (k = 0; err[k]; k++)
			assert_true((unsigned char)err[k] >= 0x20);
		jv_free(v);
	}
}

/* A row whose idleness or load the proof does not show says so first; a
 * run without phases says whether it was idle, or that it is unproven. */
static void rows_without_proven_idle_or_complete_proof_say_so(void **state)
{
	char *doc = variant("\"loads\":[],\"load_not_applied\":[]",
			    "\"loads\":[],\"proof\":{\"state\":\"not idle\"},\"load_not_applied\":[]");
	char *gap = variant("\"load_not_applied\":[\"load not applied: ping-flood: eth0 carried 12 packets/s\"]",
			    "\"load_not_applied\":[\"proof incomplete: no proof-of-load reading for 13.0 s\"]");
	char *plain = variant("\"phases\":[", "\"proof\":{\"idle\":\"not idle\",\"idle_cpus\":\"0-1\","
					       "\"idle_busy_pct\":99.4},\"counts\":{\"edges\":10},\"x\":[");
	struct report r;

	(void)state;
	r = load(doc);
	assert_true(!strncmp(r.rows[0].proof, "NOT IDLE, ", 10));
	assert_string_equal(r.rows[0].proof_state, "not idle");
	report_free(&r);
	/* a phase whose proof had gaps: its loads are not called applied */
	{
		const char *from = "\"proof\":{\"loads\"", *to = "\"proof\":{\"state\":\"proof incomplete\",\"loads\"";
		char *at = strstr(gap, from), *g2 = malloc(strlen(gap) + strlen(to) + 1);

		assert_non_null(at);
		sprintf(g2, "%.*s%s%s", (int)(at - gap), gap, to, at + strlen(from));
		free(gap);
		gap = g2;
	}
	r = load(gap);
	assert_true(!strncmp(r.rows[1].proof, "PROOF INCOMPLETE, ", 18));
	assert_string_equal(r.rows[1].proof_state, "proof incomplete");
	assert_string_equal(r.rows[1].verdict, "FAIL, PROOF INCOMPLETE");	/* its tmax broke too */
	report_free(&r);
	free(plain);
	/* a run without phases: from the run's proof, or unproven without */
	plain = strdup("{\"schema\":\"sqwave-summary\",\"schema_version\":1,\"run\":"
		       "{\"half_period_ns\":500000},\"counts\":{\"edges\":10},\"proof\":"
		       "{\"idle\":\"not idle\",\"idle_cpus\":\"0-1\",\"idle_busy_pct\":99.4},"
		       "\"phases\":[]}");
	r = load(plain);
	assert_string_equal(r.rows[0].proof, "NOT IDLE: CPU 0-1 99%");
	assert_string_equal(r.rows[0].proof_state, "not idle");
	{
		char *svg = NULL;	/* the SVG's legend says it the same way */

		svg_of(&r, &svg);
		assert_non_null(strstr(svg, ">proof: NOT IDLE: CPU 0-1 99%</tspan>"));
		free(svg);
	}
	report_free(&r);
	free(plain);
	plain = strdup("{\"schema\":\"sqwave-summary\",\"schema_version\":1,\"run\":"
		       "{\"half_period_ns\":500000},\"counts\":{\"edges\":10},\"phases\":[]}");
	r = load(plain);
	assert_string_equal(r.rows[0].proof, "IDLE UNPROVEN");
	assert_string_equal(r.rows[0].proof_state, "idle unproven");
	report_free(&r);
	free(plain);
	plain = strdup("{\"schema\":\"sqwave-summary\",\"schema_version\":1,\"run\":"
		       "{\"half_period_ns\":500000},\"counts\":{\"edges\":10},\"proof\":"
		       "{\"idle\":\"idle proven\",\"idle_cpus\":\"0\",\"idle_busy_pct\":2.6},"
		       "\"phases\":[]}");
	r = load(plain);
	assert_string_equal(r.rows[0].proof, "idle proven: CPU 0 3%");
	report_free(&r);
	free(plain);
	free(doc);
	free(gap);
}

/*
 * A CPU load starved by something else on its CPU (issue 29: CoreMark's
 * own 27 % of CPU 0 while the CPU was 100 % busy): the verdict LOAD NOT
 * APPLIED came from the load's own CPU time, and that figure is what the
 * row shows, in text, Markdown, JSON and the SVG's legend, the
 * system-wide busy only beside it.
 */
static void the_proof_shows_the_figure_that_judged_the_load(void **state)
{
	char *doc = variant("{\"name\":\"coremark\",\"proof\":\"cpu\",\"cpus\":\"1\",\"busy_pct\":97.2,",
			    "{\"name\":\"coremark\",\"proof\":\"cpu\",\"cpus\":\"0\",\"busy_pct\":100.0,"
			    "\"own_busy_pct\":27.3,\"own_source\":\"cgroup2\",");
	const char *fmt[4] = { "text", "markdown", "json", "svg" };
	struct report r = load(doc);
	struct jv *v;
	const struct jv *figs;
	char err[128];
	size_t i;

	(void)state;
	assert_string_equal(r.rows[1].verdict, "FAIL, LOAD NOT APPLIED");
	for (i = 0; i < 4; i++) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		assert_non_null(f);
		if (i == 0)
			report_write_text(f, &r);
		else if (i == 1)
			report_write_markdown(f, &r);
		else if (i == 2)
			report_write_json(f, &r);
		else
			report_write_svg(f, &r);
		fclose(f);
		if (!strstr(text, "coremark own 27% of CPU 0"))
			fail_msg("%s: no judged figure in %s", fmt[i], text);
		if (i < 3)
			assert_non_null(strstr(text, "(cgroup2; system-wide 100%)"));
		/* never the system-wide figure alone as the load's */
		assert_null(strstr(text, "CPU 0 100%"));
		if (i == 2) {
			v = jsonread_parse(text, len, err, sizeof(err));
			assert_non_null(v);
			figs = jv_get(jv_at(jv_get(v, "rows"), 1), "proof_figures");
			assert_int_equal(jv_len(figs), 3);
			assert_string_equal(jv_str(jv_get(jv_at(figs, 0), "load"), ""), "coremark");
			assert_string_equal(jv_str(jv_get(jv_at(figs, 0), "figure"), ""), "own_busy_pct");
			assert_true(fabs(jv_get(jv_at(figs, 0), "value")->num - 27.3) < 1e-9);
			assert_string_equal(jv_str(jv_get(jv_at(figs, 0), "of"), ""), "0");
			assert_string_equal(jv_str(jv_get(jv_at(figs, 2), "figure"), ""), "packets_per_s");
			jv_free(v);
		}
		free(text);
	}
	report_free(&r);
	free(doc);
}

/* A proof the writer marks "no sample" (-1) is said so, not shown as -1 %. */
static void a_proof_without_samples_says_so(void **state)
{
	char *doc = variant("\"busy_pct\":97.2", "\"busy_pct\":-1");
	struct report r = load(doc);

	(void)state;
	assert_non_null(strstr(r.rows[1].proof, "CPU 1 no sample"));
	assert_null(strstr(r.rows[1].proof, "-1"));
	report_free(&r);
	free(doc);
}

/* The widest figures the reader accepts keep the SVG's arithmetic within
 * int64 (check-san's UBSan fails this test otherwise). */
static void extreme_accepted_figures_draw(void **state)
{
	char *a = variant("\"lo_ns\":440000,\"bin_ns\":1000",
			  "\"lo_ns\":0,\"bin_ns\":199999999999999");
	char *b, *c, *text = NULL;
	size_t len = 0;
	struct report r;
	FILE *f;

	(void)state;
	b = malloc(strlen(a) + 64);
	c = strstr(a, "{\"value\":600000}");
	assert_non_null(c);
	sprintf(b, "%.*s{\"value\":1000000000000000}%s", (int)(c - a), a, c + strlen("{\"value\":600000}"));
	r = load(b);
	f = open_memstream(&text, &len);
	report_write_svg(f, &r);
	fclose(f);
	assert_non_null(strstr(text, "</svg>"));
	free(text);
	report_free(&r);
	free(a);
	free(b);
}

/* A lab's table has each row's duration and frequency, the
 * kernel marked RT or non-RT, wake p50 and mean, and the same label and
 * phase whether the row comes from a run's log (its analysis, one phase
 * "run") or from the run's summary (no phases). */
static void rows_say_duration_frequency_kernel_and_wake_centre(void **state)
{
	const char *sum = "{\"schema\":\"sqwave-summary\",\"schema_version\":1,"
		"\"host\":{\"kernel_release\":\"6.12.0\",\"preempt_rt\":false},"
		"\"run\":{\"half_period_ns\":250000},"
		"\"counts\":{\"edges\":7990,\"missed_periods\":10},\"verdict\":{\"pass\":true},"
		"\"wake_latency\":{\"count\":7990,\"max_ns\":90000,\"mean_ns\":21500,"
		" \"percentiles_ns\":{\"p50\":20250,\"p99\":40000,\"p99.99\":80000}}}";
	const char *an = "{\"schema\":\"sqwave-analysis\",\"schema_version\":1,"
		"\"half_period_ns\":250000,\"host\":{\"kernel_release\":\"6.12.0\",\"preempt_rt\":false},"
		"\"phases\":[{\"name\":\"run\",\"counts\":{\"edges\":7990,\"missed_periods\":10},"
		" \"wake_latency\":{\"count\":7990,\"max_ns\":90000,\"mean_ns\":21500,"
		"  \"percentiles_ns\":{\"p50\":20250,\"p99\":40000,\"p99.99\":80000}}}]}";
	struct report r = { 0 };
	char err[256], *text = NULL;
	size_t len = 0;
	struct jv *v;
	FILE *f;

	(void)state;
	v = jsonread_parse(sum, strlen(sum), err, sizeof(err));
	assert_non_null(v);
	assert_int_equal(report_add_doc(&r, v, "runs/nonrt.json", err, sizeof(err)), 0);
	jv_free(v);
	v = jsonread_parse(an, strlen(an), err, sizeof(err));
	assert_non_null(v);
	assert_int_equal(report_add_doc(&r, v, "runs/nonrt.sqwlog", err, sizeof(err)), 0);
	jv_free(v);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.rows[0].label, r.rows[1].label);
	assert_string_equal(r.rows[0].label, "nonrt");
	assert_string_equal(r.rows[0].phase, r.rows[1].phase);
	/* 8000 half periods of 250 us */
	assert_int_equal(r.rows[0].duration_ns, 2000000000);
	assert_int_equal(r.rows[1].duration_ns, 2000000000);
	assert_int_equal(r.rows[0].p50_ns, 20250);
	assert_int_equal(r.rows[1].mean_ns, 21500);
	f = open_memstream(&text, &len);
	report_write_text(f, &r);
	fclose(f);
	assert_non_null(strstr(text, "duration"));
	assert_non_null(strstr(text, "freq Hz"));
	assert_non_null(strstr(text, "wake p50 us"));
	assert_non_null(strstr(text, "6.12.0 (non-RT)"));
	assert_non_null(strstr(text, "2.0 s"));
	assert_non_null(strstr(text, " 2000 "));
	assert_non_null(strstr(text, "20.250"));
	assert_non_null(strstr(text, "21.500"));
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	report_write_json(f, &r);
	fclose(f);
	v = jsonread_parse(text, len, err, sizeof(err));
	assert_non_null(v);
	{
		const struct jv *row = jv_at(jv_get(v, "rows"), 1);

		assert_string_equal(jv_str(jv_get(row, "phase"), ""), "run");
		assert_int_equal(jv_int(jv_get(row, "duration_ns"), 0), 2000000000);
		assert_true(jv_get(row, "frequency_hz")->num == 2000.0);
		assert_int_equal(jv_int(jv_get(row, "wake_p50_ns"), 0), 20250);
		assert_int_equal(jv_int(jv_get(row, "wake_mean_ns"), 0), 21500);
	}
	jv_free(v);
	free(text);
	report_free(&r);
	/* an RT kernel says so */
	r = load(summary);
	text = NULL;
	f = open_memstream(&text, &len);
	report_write_text(f, &r);
	fclose(f);
	assert_non_null(strstr(text, "6.1.55-rt15 (RT)"));
	free(text);
	report_free(&r);
}

/* The x of every element of @cls in @svg, in the order they come. */
static size_t svg_xs(const char *svg, const char *cls, const char *attr, double *xs, size_t max)
{
	char key[64], a[16];
	const char *p = svg;
	size_t n = 0;

	snprintf(key, sizeof(key), "class=\"%s\"", cls);
	snprintf(a, sizeof(a), " %s=\"", attr);
	while (n < max && (p = strstr(p, key))) {
		const char *x = strstr(p, a);

		assert_non_null(x);
		xs[n++] = strtod(x + strlen(a), NULL);
		p += strlen(key);
	}
	return n;
}

/* The SVG of @r in *@text (the caller frees it). */
static void svg_of(const struct report *r, char **text)
{
	size_t len = 0;
	FILE *f = open_memstream(text, &len);

	assert_non_null(f);
	report_write_svg(f, r);
	assert_int_equal(fclose(f), 0);
	assert_non_null(*text);
}

/* A stall's 30.4 ms pulse beside 500 us ones (the axis once ran
 * from -29425 to +30425 us): the axis starts at 0 or above, holds the outlier,
 * the bulk and both limits, and turns logarithmic to show both. */
static void the_width_axis_comes_from_the_data_and_the_limits_never_below_zero(void **state)
{
	char *doc = variant("\"tmax_bound\":{\"hi_ns\":611200}", "\"tmax_bound\":{\"hi_ns\":30425000}");
	char *doc2 = NULL, *svg = NULL;
	struct report r;
	struct report_axis ax;
	double xs[64];
	size_t n, i;

	(void)state;
	/* its Tmax too, to keep tmax <= its bound */
	{
		char *at = strstr(doc, "\"tmax\":{\"width_ns\":611000}");

		assert_non_null(at);
		doc2 = malloc(strlen(doc) + 16);
		sprintf(doc2, "%.*s\"tmax\":{\"width_ns\":30424000}%s", (int)(at - doc), doc,
			at + strlen("\"tmax\":{\"width_ns\":611000}"));
	}
	r = load(doc2);
	report_svg_axis(&r, &ax);
	assert_true(ax.lo >= 0);
	assert_true(ax.lo <= 400000 && ax.lo > 0);	/* the Tmin limit, and not far below */
	assert_true(ax.hi >= 30425000 && ax.hi < 40000000);
	assert_true(ax.log);
	svg_of(&r, &svg);
	/* every tick is a width of 0 or more */
	n = svg_xs(svg, "x-tick", "x", xs, 64);
	assert_true(n >= 3);
	{
		const char *p = svg;

		for (i = 0; i < n; i++) {
			p = strstr(p, "class=\"x-tick\"");
			p = strchr(p, '>') + 1;
			assert_true(strtod(p, NULL) >= 0);
		}
	}
	/* both limits are drawn inside the plot (x 80..920) */
	n = svg_xs(svg, "limit", "x1", xs, 64);
	assert_int_equal(n, 2);
	for (i = 0; i < n; i++)
		assert_true(xs[i] >= 80 && xs[i] <= 920);
	assert_true(xs[0] < xs[1]);
	/* the stall's Tmax is on the axis too */
	n = svg_xs(svg, "tmax", "x1", xs, 64);
	assert_int_equal(n, 2);
	assert_true(xs[1] > 800 && xs[1] <= 920);
	free(svg);
	report_free(&r);
	free(doc2);
	free(doc);

	/* a run within its limits: a linear axis around the bulk and the
	 * limits, a fifth of their span either side */
	r = load(summary);
	report_svg_axis(&r, &ax);
	assert_false(ax.log);
	assert_true(ax.lo >= 340000 && ax.lo < 400000);
	assert_true(ax.hi > 611200 && ax.hi <= 680000);
	report_free(&r);
}


/* The width @x (a pixel of the SVG's plot, 80..920) stands for on @ax. */
static double width_at(const struct report_axis *ax, double x)
{
	double f = (x - 80) / (960 - 80 - 40);

	if (ax->log)
		return pow(10, log10((double)ax->lo) + f * (log10((double)ax->hi) -
							    log10((double)ax->lo)));
	return (double)ax->lo + f * (double)(ax->hi - ax->lo);
}

/* A run of one row: @wave_members inside "run", @pulse_members inside
 * "pulse_width", @top at the top level. (not inlined: gcc 12+ takes the
 * asprintf buffer for a dangling local) */
static __attribute__((noinline)) char *one_run_doc(const char *wave_members, const char *pulse_members, const char *top)
{
	char *doc = NULL;

	assert_true(asprintf(&doc,
		"{\"schema\":\"sqwave-summary\",\"schema_version\":1,\"label\":\"w\","
		"\"run\":{\"half_period_ns\":500000%s},%s"
		"\"counts\":{\"edges\":101,\"missed_periods\":0},"
		"\"pulse_width\":{%s\"any\":{\"count\":100,\"tmin\":{\"width_ns\":30000},"
		" \"tmax\":{\"width_ns\":720000},\"histogram\":{\"lo_ns\":30000,\"bin_ns\":10000,"
		" \"counts\":[5,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,20,10,"
		"  0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
		"  0,0,0,0,20,10]}}},"
		"\"config\":{\"limits.tmin\":{\"value\":0},\"limits.tmax\":{\"value\":0}}}",
		wave_members, top, pulse_members) > 0);
	return doc;
}

/* The SVG's lines of class token @token: how many, their x in @xs. */
static size_t nominal_xs(const char *svg, const char *token, double *xs, size_t max)
{
	const char *p = svg;
	size_t n = 0;

	while (n < max && (p = strstr(p, "<line class=\""))) {
		const char *c = p + strlen("<line class=\""), *e = strchr(c, '"');
		char cls[96];

		snprintf(cls, sizeof(cls), " %.*s ", (int)(e - c), c);
		p = e;
		if (!strstr(cls, token))
			continue;
		xs[n++] = strtod(strstr(e, " x1=\"") + 5, NULL);
	}
	return n;
}

/* A duty wave's nominal widths, each polarity's from the document's
 * pulse_width.nominal_ns: the markers stand there, none at the half
 * period. */
static void a_duty_waves_nominals_come_from_its_document(void **state)
{
	char *doc = one_run_doc(",\"high_ns\":300000,\"low_ns\":700000", "\"nominal_ns\":"
				"{\"positive\":300000,\"negative\":700000},", "");
	char err[256], *svg = NULL;
	struct jv *v = jsonread_parse(doc, strlen(doc), err, sizeof(err));
	const struct jv *nom = jv_get(jv_get(v, "pulse_width"), "nominal_ns");
	struct report r = { 0 };
	struct report_axis ax;
	double xs[8];

	(void)state;
	assert_non_null(nom);
	assert_int_equal(report_add_doc(&r, v, "duty.json", err, sizeof(err)), 0);
	svg_of(&r, &svg);
	report_svg_axis(&r, &ax);
	assert_int_equal(nominal_xs(svg, " nominal-pos ", xs, 8), 1);
	assert_true(fabs(width_at(&ax, xs[0]) - (double)jv_get(nom, "positive")->i) < 3000);
	assert_int_equal(nominal_xs(svg, " nominal-neg ", xs, 8), 1);
	assert_true(fabs(width_at(&ax, xs[0]) - (double)jv_get(nom, "negative")->i) < 5000);
	assert_int_equal(nominal_xs(svg, " nominal ", xs, 8), 2);
	assert_non_null(strstr(svg, ">nominal + 300</text>"));
	assert_non_null(strstr(svg, ">nominal - 700</text>"));
	free(svg);
	report_free(&r);
	jv_free(v);
	free(doc);
}

/* A respond run answers an input: no nominal wave; in pulse mode its
 * pulses' width is the positive nominal (the document's pin). */
static void a_respond_run_has_no_nominal_wave_but_its_pulse_width(void **state)
{
	char *follow = one_run_doc("", "", "\"respond\":{\"mode\":\"follow\",\"pulse_width_ns\":40000},"
		"\"pin\":{\"kind\":\"respond\",\"line\":\"0\",\"idle_level\":0,\"respond_mode\":"
		"\"follow\",\"input\":\"2\",\"input_edge\":\"both\",\"debounce_ns\":0,\"pulse_ns\":null,"
		"\"nominal_ns\":{\"positive\":null,\"negative\":null}},");
	char *pulse = one_run_doc("", "", "\"respond\":{\"mode\":\"pulse\",\"pulse_width_ns\":40000},"
		"\"pin\":{\"kind\":\"respond\",\"line\":\"0\",\"idle_level\":0,\"respond_mode\":"
		"\"pulse\",\"input\":\"2\",\"input_edge\":\"both\",\"debounce_ns\":0,\"pulse_ns\":40000,"
		"\"nominal_ns\":{\"positive\":40000,\"negative\":null}},");
	char *svg = NULL;
	struct report r;
	struct report_axis ax;
	double xs[8];

	(void)state;
	r = load(follow);
	svg_of(&r, &svg);
	assert_int_equal(nominal_xs(svg, " nominal ", xs, 8), 0);
	free(svg);
	report_free(&r);
	r = load(pulse);
	svg_of(&r, &svg);
	report_svg_axis(&r, &ax);
	assert_int_equal(nominal_xs(svg, " nominal-neg ", xs, 8), 0);
	assert_int_equal(nominal_xs(svg, " nominal-pos ", xs, 8), 1);
	assert_true(fabs(width_at(&ax, xs[0]) - 40000) < 1000);
	free(svg);
	report_free(&r);
	free(follow);
	free(pulse);
}

/* The tick labels of @svg never overlap (12 px text: 7.7 px a digit). */
static void ticks_apart(const char *svg)
{
	const char *p = svg;
	double right = -1e9;
	size_t n = 0;

	while ((p = strstr(p, "class=\"x-tick\" x=\""))) {
		double x = strtod(p + strlen("class=\"x-tick\" x=\""), NULL);
		const char *t = strchr(p, '>') + 1;
		double w = 7.7 * (double)(strstr(t, "<") - t);

		assert_true(x - w / 2 >= right);
		right = x + w / 2;
		p = t;
		n++;
	}
	assert_true(n >= 3);
}

/* The figure in the text of class @cls that holds @what ("longer"). */
static long long off_scale(const char *svg, const char *what)
{
	const char *p = svg;

	while ((p = strstr(p, "class=\"off-scale\""))) {
		const char *t = strchr(p, '>') + 1;

		p = t;
		if (strstr(t, what) && strstr(t, what) < strstr(t, "</text>"))
			return strtoll(t + (*t == '&' ? strlen("&lt; ") : 0), NULL, 10);
	}
	return -1;
}

/*
 * An hour's soak with stalls of 2 s (issue 29's report --svg): its
 * summary's histogram (written before the bins kept to the bulk) has bins
 * of 1 ms from 0 to 2.1 s. The axis once ran linearly from 0 to 2.1e6 us,
 * labels over each other, the bulk one spike at the left. It keeps what
 * matters (the nominal, the limits, the bulk's bin) and counts the stalls
 * off scale, Tmax marked at the edge; the labels stand apart.
 */
static void a_stalls_pulses_are_off_scale_and_the_bulk_and_limits_fill_the_axis(void **state)
{
	size_t nb = 2101, i, len = 0;
	char *counts = calloc(nb, 8), *doc = NULL, *svg = NULL;
	struct report r;
	struct report_axis ax;
	double xs[8];

	(void)state;
	for (i = 0; i < nb; i++)
		len += (size_t)sprintf(counts + len, "%s%s", i ? "," : "",
				       i == 0 ? "7199000" : i == 2000 ? "6" : i == 1 ? "993" : "0");
	assert_true(asprintf(&doc,
		"{\"schema\":\"sqwave-summary\",\"schema_version\":1,\"label\":\"soak\","
		"\"run\":{\"half_period_ns\":500000},\"counts\":{\"edges\":7200000,\"missed_periods\":24000},"
		"\"pulse_width\":{\"any\":{\"count\":7199999,\"tmin\":{\"width_ns\":14760},"
		" \"tmax\":{\"width_ns\":2000858440},\"histogram\":{\"lo_ns\":0,\"bin_ns\":1000000,"
		" \"below\":0,\"above\":0,\"counts\":[%s]}}},"
		"\"config\":{\"limits.tmin\":{\"value\":400000},\"limits.tmax\":{\"value\":600000}}}",
		counts) > 0);
	r = load(doc);
	report_svg_axis(&r, &ax);
	assert_false(ax.log);
	assert_true(ax.hi < 10 * 1000000);		/* the stalls are not on it */
	assert_true(ax.lo < 400000 && ax.hi > 600000);	/* the limits are */
	svg_of(&r, &svg);
	ticks_apart(svg);
	/* the 993 pulses of 1 to 2 ms and the six of 2 s, off scale, and Tmax
	 * marked at the right edge */
	assert_int_equal(off_scale(svg, "longer"), 993 + 6);
	assert_int_equal(off_scale(svg, "shorter"), -1);
	assert_int_equal(svg_xs(svg, "tmax", "x1", xs, 8), 1);
	assert_true(fabs(xs[0] - 920) < 0.1);
	assert_non_null(strstr(svg, "<title>Tmax 2000858.440 us, off scale</title>"));
	/* both limits inside the plot */
	assert_int_equal(svg_xs(svg, "limit", "x1", xs, 8), 2);
	assert_true(xs[0] > 80 && xs[1] < 920);
	free(svg);
	report_free(&r);
	free(doc);
	free(counts);
}

/* Rows of a 2 us and a 1 s wave: a log axis over six decades, whose 1,
 * 2 and 5 of each decade would crowd its labels; they are thinned until
 * none overlaps another. */
static void the_width_axis_labels_never_overlap(void **state)
{
	static const char fmt[] =
		"{\"schema\":\"sqwave-summary\",\"schema_version\":1,\"label\":\"w%lld\","
		"\"run\":{\"half_period_ns\":%lld},\"counts\":{\"edges\":3,\"missed_periods\":0},"
		"\"pulse_width\":{\"any\":{\"count\":2,\"tmin\":{\"width_ns\":%lld},"
		"\"tmax\":{\"width_ns\":%lld}}}}";
	static const long long half[] = { 2000, 1000000000 };
	struct report r = { 0 };
	struct report_axis ax;
	char *svg = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		char doc[512], err[256];
		struct jv *v;

		snprintf(doc, sizeof(doc), fmt, half[i], half[i], half[i], half[i]);
		v = jsonread_parse(doc, strlen(doc), err, sizeof(err));
		assert_non_null(v);
		assert_int_equal(report_add_doc(&r, v, "w.json", err, sizeof(err)), 0);
		jv_free(v);
	}
	report_svg_axis(&r, &ax);
	assert_true(ax.log);
	svg_of(&r, &svg);
	ticks_apart(svg);
	free(svg);
	report_free(&r);
}

/* Pulses off a document's own bins (its "shorter"/"longer", and "below"/
 * "above" beyond the tracked range) are off scale too: counted once each. */
static void a_documents_own_off_bin_counts_are_off_scale(void **state)
{
	char *doc = one_run_doc("", "", "");
	char *v2 = NULL, *svg = NULL;
	const char *at;
	struct report r;

	(void)state;
	at = strstr(doc, "\"histogram\":{");
	assert_non_null(at);
	assert_true(asprintf(&v2, "%.*s\"histogram\":{\"shorter\":2,\"below\":1,\"longer\":3,"
			     "\"above\":4,%s", (int)(at - doc), doc,
			     at + strlen("\"histogram\":{")) > 0);
	r = load(v2);
	svg_of(&r, &svg);
	assert_int_equal(off_scale(svg, "shorter"), 2 + 1);
	assert_int_equal(off_scale(svg, "longer"), 3 + 4);
	free(svg);
	report_free(&r);
	free(v2);
	free(doc);
}

/* The legend is under the plot and inside the picture: its lines are
 * within the viewBox's height and cut to what the width holds. */
static void the_legend_stays_inside_the_picture(void **state)
{
	char label[300], to[320], *doc, *svg = NULL;
	const char *p;
	struct report r = { 0 };
	double h, ys[128];
	size_t n, i;

	(void)state;
	memset(label, 'L', sizeof(label) - 1);
	label[sizeof(label) - 1] = '\0';
	label[60] = '\0';	/* the reader keeps 63 bytes */
	snprintf(to, sizeof(to), "\"label\":\"%s\"", label);
	doc = variant("\"label\":\"rt|loaded\"", to);
	for (i = 0; i < 30; i++) {	/* 60 rows: more than the legend lists */
		char err[256];
		struct jv *v = jsonread_parse(doc, strlen(doc), err, sizeof(err));

		assert_non_null(v);
		assert_int_equal(report_add_doc(&r, v, "runs/a-long-name-for-a-run.json", err,
						sizeof(err)), 0);
		jv_free(v);
	}
	assert_int_equal(r.n, 60);
	svg_of(&r, &svg);
	p = strstr(svg, "viewBox=\"0 0 960 ");
	assert_non_null(p);
	h = strtod(p + strlen("viewBox=\"0 0 960 "), NULL);
	p = strstr(svg, "<g class=\"legend\">");
	assert_non_null(p);
	for (n = 0; n < 128 && (p = strstr(p, "<text x=\"")); n++) {
		double x = strtod(p + strlen("<text x=\""), NULL);
		const char *y = strstr(p, " y=\""), *t = strchr(p, '>') + 1, *e = strstr(t, "</text>");

		const char *sp = strstr(t, "<tspan");

		ys[n] = strtod(y + 4, NULL);
		assert_true(x >= 0);
		assert_true(ys[n] > 0 && ys[n] + 4 <= h);
		/* under 7 px a character at 12 px: the line ends inside 960 */
		assert_true(x + 7.0 * (double)((sp && sp < e ? sp : e) - t) <= 960);
		/* a row's proof, a line under it: inside too (11 px: 6.5 px) */
		if (sp && sp < e) {
			const char *st = strchr(sp, '>') + 1, *se = strstr(st, "</tspan>");

			assert_true(strtod(strstr(sp, " x=\"") + 4, NULL) + 6.5 * (double)(se - st) <= 960);
			assert_true(ys[n] + 16 + 4 <= h);
		}
		p = e;
	}
	assert_int_equal(n, 49);	/* 48 rows listed, one line counts the rest */
	assert_non_null(strstr(svg, "and 12 more rows"));
	free(svg);
	report_free(&r);
	free(doc);
}

/* A two-board comparison (compare RUN_A RUN_B CAPTURE --json) with the
 * max_skew check in @skew_state, clock_error in @clock_state, the verdict
 * and exit code as given. */
static char *pair_doc(const char *skew_state, const char *clock_state, const char *verdict,
		      int exit_code)
{
	char *doc = NULL;

	assert_true(asprintf(&doc,
		"{\"schema\":\"sqwave-compare\",\"schema_version\":1,\"mode\":\"boards\","
		"\"boards\":[{\"name\":\"A\",\"path\":\"logs/left.sqwlog\",\"channel\":\"D0\","
		" \"grid\":{\"clock\":\"realtime\"},\"verdict\":\"agree\"},"
		" {\"name\":\"B\",\"path\":\"right.sqwlog\",\"channel\":\"D1\",\"verdict\":\"agree\"}],"
		"\"capture\":{},\"skew\":{\"joined\":1990,\"only_a\":3,\"only_b\":1,"
		" \"opposite_polarity\":0,\"resolution_ns\":10,\"slack_ns\":40,\"min_ns\":-4100.5,"
		" \"p50_ns\":-2820.25,\"p99_abs_ns\":7350,\"max_ns\":5000,\"mean_ns\":-2800,"
		" \"beyond_windows\":2,\"clock_offset\":{\"lower_bound_ns\":2918,"
		" \"upper_bound_ns\":4487,\"common_lo_ns\":2918,\"common_hi_ns\":3079,"
		" \"claimed_bound_ns\":null},\"checks\":{\"max_skew\":{\"state\":\"%s\","
		" \"limit_ns\":50000,\"edges_over\":0},\"clock_error\":{\"state\":\"%s\","
		" \"why\":\"board A's clock was not synchronised\"}}},"
		"\"verdict\":\"%s\",\"exit_code\":%d}", skew_state, clock_state, verdict,
		exit_code) > 0);
	return doc;
}

static int add_pair_doc(struct report *r, char *doc, char *err, size_t errlen)
{
	struct jv *v = jsonread_parse(doc, strlen(doc), err, errlen);
	int rc;

	if (!v)
		fail_msg("%s", err);
	rc = report_add_doc(r, v, "pair.json", err, errlen);
	jv_free(v);
	free(doc);
	return rc;
}

static void two_boards_are_a_row_of_their_own_table_with_the_comparisons_verdict(void **state)
{
	struct report r = { 0 };
	char err[256], *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(add_pair_doc(&r, pair_doc("PASS", "SKIP", "agree", 0), err, sizeof(err)), 0);
	assert_int_equal(add_pair_doc(&r, pair_doc("NONE", "SKIP", "agree", 0), err, sizeof(err)), 0);
	assert_int_equal(add_pair_doc(&r, pair_doc("INCONCLUSIVE", "SKIP", "agree", 0), err,
				      sizeof(err)), 0);
	assert_int_equal(r.n, 0);
	assert_int_equal(r.npairs, 3);
	assert_string_equal(r.pairs[0].label[0], "left");	/* the log's label in the run table */
	assert_string_equal(r.pairs[0].label[1], "right");
	assert_string_equal(board_pair_verdict(&r.pairs[0]), "PASS");
	assert_string_equal(board_pair_verdict(&r.pairs[1]), "NO LIMITS");	/* nothing bounded */
	assert_string_equal(board_pair_verdict(&r.pairs[2]), "INCONCLUSIVE");
	assert_true(report_all_pass(&r));	/* as compare's own exit codes */
	f = open_memstream(&text, &len);
	report_write_text(f, &r);
	fclose(f);
	assert_null(strstr(text, "label"));	/* no run rows: no run table */
	assert_non_null(strstr(text, "left (D0)"));
	assert_non_null(strstr(text, "-2.820"));
	assert_non_null(strstr(text, "2.918..3.079"));
	assert_non_null(strstr(text, "PASS (50.000 us)"));
	assert_non_null(strstr(text, "SKIP: board A's clock was not synchronised"));
	free(text);
	assert_int_equal(add_pair_doc(&r, pair_doc("FAIL", "SKIP", "disagree", 1), err, sizeof(err)),
			 0);
	assert_string_equal(board_pair_verdict(&r.pairs[3]), "FAIL");
	assert_false(report_all_pass(&r));
	report_free(&r);
}

static void a_two_board_comparison_out_of_its_contract_is_bad_input(void **state)
{
	struct report r = { 0 };
	char err[256];
	char *one = strdup("{\"schema\":\"sqwave-compare\",\"schema_version\":1,\"run\":{},"
			   "\"verdict\":\"agree\",\"exit_code\":0}");

	(void)state;
	assert_int_equal(add_pair_doc(&r, pair_doc("MAYBE", "SKIP", "agree", 0), err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "pair.json:1: skew.max_skew.state is not a state"));
	assert_int_equal(add_pair_doc(&r, pair_doc("PASS", "SKIP", "agree", 7), err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "exit_code must be an integer from 0 to 3"));
	/* a comparison of one log is an instrument's row, held to its own contract */
	assert_int_equal(add_pair_doc(&r, one, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "pair.json:1: run.path is missing"));
	assert_int_equal(r.npairs, 0);
	assert_int_equal(r.ninsts, 0);
	report_free(&r);
}

/* A comparison of one log with a capture and a scope's readings: @cov
 * and @reading are spliced in (its coverage, its second reading). */
static char *inst_doc(const char *status, const char *cov, const char *reading)
{
	char *s = NULL;

	assert_true(asprintf(&s, "{\"schema\":\"sqwave-compare\",\"schema_version\":1,"
			     "\"run\":{\"path\":\"logs/soak.sqwlog\",\"records\":40,"
			     "\"start_realtime_ns\":1700000000000000000},"
			     "\"capture\":{\"format\":\"vcd\",\"channel\":\"top.pin\",\"edges\":40,"
			     "\"resolution_ns\":10},\"alignment\":{\"status\":\"%s\"},"
			     "\"coverage\":%s,"
			     "\"scope\":{\"readings\":[{\"what\":\"tmax\",\"polarity\":\"positive\","
			     "\"scope_ns\":510000,\"tolerance_ns\":510,\"log_ns\":512000,"
			     "\"log_lo_ns\":511000,\"log_hi_ns\":513000,\"count\":10,"
			     "\"prediction\":{\"status\":\"ok\",\"run_pulses\":20,\"coverage\":0.5,"
			     "\"level\":0.9,\"expected_ns\":509000.5,\"lo_ns\":505000,\"hi_ns\":513000,"
			     "\"p_caught_extreme\":0.5},\"agrees\":true}%s]},"
			     "\"verdict\":\"agree\",\"exit_code\":0}", status, cov, reading) > 0);
	return s;
}

#define INST_COV "{\"run_edges\":40,\"covered_edges\":%d,\"fraction\":%s,\"gaps\":1," \
	"\"span_s\":0.02,\"covered_s\":0.015}"
#define INST_NO_COUNT ",{\"what\":\"tmin\",\"polarity\":\"any\",\"scope_ns\":490000," \
	"\"tolerance_ns\":490,\"log_ns\":488000,\"log_lo_ns\":487000,\"log_hi_ns\":489000," \
	"\"count\":null,\"prediction\":null,\"agrees\":false}"

static void an_instruments_row_holds_what_its_comparison_holds(void **state)
{
	struct report r = { 0 };
	char err[256], cov[256], c[INST_ROW_NCOLS][INST_ROW_CELL];
	struct inst_run run;

	(void)state;
	snprintf(cov, sizeof(cov), INST_COV, 30, "0.75");
	assert_int_equal(add_pair_doc(&r, inst_doc("aligned", cov, INST_NO_COUNT), err,
				      sizeof(err)), 0);
	assert_int_equal(r.ninsts, 1);
	assert_false(report_inst_run(&r, 0, &run));	/* no summary given */
	inst_row_cells(&r.insts[0], NULL, c);
	assert_string_equal(c[1], "soak (its log only)");
	assert_string_equal(c[2], "analyzer: vcd top.pin, 10 ns; scope: positive, any");
	assert_string_equal(c[3], "AGREE");
	/* covered, then run edges: the instrument saw 30 of the run's 40 */
	assert_non_null(strstr(c[6], "30 of 40 edges (75.000 %), 1 gap, 0.015 of 0.020 s covered"));
	assert_non_null(strstr(c[6], "scope 10 of 20 pulses (50.000 %)"));
	assert_non_null(strstr(c[4], "Tmax positive 510.000"));
	assert_non_null(strstr(c[4], "Tmin any 490.000 (outside)"));
	assert_non_null(strstr(c[5], "Tmax positive ~509.000 in [505.000, 513.000] (90 %), "
			       "extreme caught 50.0 %"));
	/* a reading without a count has no prediction */
	assert_non_null(strstr(c[5], "Tmin any: no count: not judged by coverage, log [487.000, "
			       "489.000]"));
	assert_true(report_all_pass(&r));
	report_free(&r);
}

/* A run's summary of @label whose log is @log_path with @records records. */
/* A run's summary of @records logged to @log_path, started at @start
 * (realtime ns; 0: a summary that does not say). */
static int add_summary_at(struct report *r, const char *source, const char *label,
			  const char *log_path, int records, int64_t start)
{
	char *doc = NULL, err[256], st[48] = "";
	struct jv *v;
	int rc;

	if (start)
		snprintf(st, sizeof(st), ",\"start_realtime_ns\":%" PRId64, start);
	assert_true(asprintf(&doc, "{\"schema\":\"sqwave-summary\",\"schema_version\":1,"
			     "\"label\":\"%s\",\"run\":{\"half_period_ns\":500000,\"log_path\":\"%s\"%s},"
			     "\"counts\":{\"edges\":%d,\"missed_periods\":0,\"records_logged\":%d}}",
			     label, log_path, st, records, records) > 0);
	v = jsonread_parse(doc, strlen(doc), err, sizeof(err));
	if (!v)
		fail_msg("%s", err);
	rc = report_add_doc(r, v, source, err, sizeof(err));
	jv_free(v);
	free(doc);
	return rc;
}

static int add_summary(struct report *r, const char *source, const char *label,
		       const char *log_path, int records)
{
	return add_summary_at(r, source, label, log_path, records, 0);
}

static void a_comparison_joins_the_run_whose_log_it_names(void **state)
{
	struct report r = { 0 };
	char err[256], cov[256], c[INST_ROW_NCOLS][INST_ROW_CELL];
	struct inst_run run;

	(void)state;
	snprintf(cov, sizeof(cov), INST_COV, 30, "0.75");
	/* the comparison first: the join is made when the tables are written */
	assert_int_equal(add_pair_doc(&r, inst_doc("aligned", cov, ""), err, sizeof(err)), 0);
	/* a log of the same name with another record count is another run */
	assert_int_equal(add_summary(&r, "runs/b.json", "other", "/lab/b/soak.sqwlog", 41), 0);
	assert_false(report_inst_run(&r, 0, &run));
	/* the same name and records, started at another time: another run */
	assert_int_equal(add_summary_at(&r, "runs/c.json", "other", "/lab/c/soak.sqwlog", 40,
					INT64_C(1700000000000000001)), 0);
	assert_false(report_inst_run(&r, 0, &run));
	/* the same name in another directory, the same records (and start): this run */
	assert_int_equal(add_summary_at(&r, "runs/a.json", "soak-a", "/lab/a/soak.sqwlog", 40,
					INT64_C(1700000000000000000)), 0);
	assert_true(report_inst_run(&r, 0, &run));
	assert_string_equal(run.label, "soak-a");
	assert_string_equal(run.source, "runs/a.json");
	inst_row_cells(&r.insts[0], &run, c);
	assert_string_equal(c[1], "soak-a (runs/a.json)");
	report_free(&r);
	/* a summary that does not give its start joins by name and records */
	memset(&r, 0, sizeof(r));
	assert_int_equal(add_pair_doc(&r, inst_doc("aligned", cov, ""), err, sizeof(err)), 0);
	assert_int_equal(add_summary(&r, "runs/d.json", "soak-d", "/lab/d/soak.sqwlog", 40), 0);
	assert_true(report_inst_run(&r, 0, &run));
	assert_string_equal(run.source, "runs/d.json");
	report_free(&r);
}

static void a_capture_not_aligned_covers_nothing_and_says_so(void **state)
{
	struct report r = { 0 };
	char err[256], cov[256], c[INST_ROW_NCOLS][INST_ROW_CELL];

	(void)state;
	snprintf(cov, sizeof(cov), INST_COV, 0, "0");
	assert_int_equal(add_pair_doc(&r, inst_doc("no-overlap", cov, ""), err, sizeof(err)), 0);
	inst_row_cells(&r.insts[0], NULL, c);
	assert_non_null(strstr(c[6], "0 of 40 edges (0.000 %)"));
	assert_non_null(strstr(c[6], "not aligned (no-overlap), nothing counted"));
	/* one that says it saw edges it could not place is no comparison compare wrote */
	snprintf(cov, sizeof(cov), INST_COV, 30, "0.75");
	assert_int_equal(add_pair_doc(&r, inst_doc("no-overlap", cov, ""), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "pair.json:1: coverage.covered_edges must be 0: the capture "
			       "was not aligned"));
	snprintf(cov, sizeof(cov), INST_COV, 41, "1");
	assert_int_equal(add_pair_doc(&r, inst_doc("aligned", cov, ""), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "coverage.covered_edges is more than run_edges"));
	snprintf(cov, sizeof(cov), INST_COV, 30, "\"most\"");
	assert_int_equal(add_pair_doc(&r, inst_doc("aligned", cov, ""), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "coverage.fraction must be a number, not a string"));
	assert_int_equal(r.ninsts, 1);
	report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_row_per_phase_with_its_verdict),
		cmocka_unit_test(an_instruments_row_holds_what_its_comparison_holds),
		cmocka_unit_test(a_capture_not_aligned_covers_nothing_and_says_so),
		cmocka_unit_test(a_comparison_joins_the_run_whose_log_it_names),
		cmocka_unit_test(a_run_that_failed_as_a_whole_fails_every_row),
		cmocka_unit_test(formats_carry_every_row),
		cmocka_unit_test(other_documents_are_refused_and_no_limits_says_so),
		cmocka_unit_test(figures_of_another_type_or_range_are_bad_input),
		cmocka_unit_test(rows_take_the_pin_of_their_document),
		cmocka_unit_test(phases_are_bounded_per_document),
		cmocka_unit_test(text_from_the_document_is_escaped),
		cmocka_unit_test(a_proof_without_samples_says_so),
		cmocka_unit_test(the_proof_shows_the_figure_that_judged_the_load),
		cmocka_unit_test(rows_without_proven_idle_or_complete_proof_say_so),
		cmocka_unit_test(extreme_accepted_figures_draw),
		cmocka_unit_test(the_width_axis_comes_from_the_data_and_the_limits_never_below_zero),
		cmocka_unit_test(a_stalls_pulses_are_off_scale_and_the_bulk_and_limits_fill_the_axis),
		cmocka_unit_test(a_documents_own_off_bin_counts_are_off_scale),
		cmocka_unit_test(the_width_axis_labels_never_overlap),
		cmocka_unit_test(the_legend_stays_inside_the_picture),
		cmocka_unit_test(a_duty_waves_nominals_come_from_its_document),
		cmocka_unit_test(a_respond_run_has_no_nominal_wave_but_its_pulse_width),
		cmocka_unit_test(rows_say_duration_frequency_kernel_and_wake_centre),
		cmocka_unit_test(two_boards_are_a_row_of_their_own_table_with_the_comparisons_verdict),
		cmocka_unit_test(a_two_board_comparison_out_of_its_contract_is_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
