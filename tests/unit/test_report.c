/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for sqwave report: rows per phase from a run summary, each
 * row's verdict against the run's limits and its load proof, the formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

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
	assert_non_null(strstr(text, "rt|loaded / loaded (FAIL, LOAD NOT APPLIED)"));
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
	assert_string_equal(r.rows[0].label, "b.json");	/* no label: the file */
	assert_true(report_all_pass(&r));
	jv_free(v);
	report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_row_per_phase_with_its_verdict),
		cmocka_unit_test(a_run_that_failed_as_a_whole_fails_every_row),
		cmocka_unit_test(formats_carry_every_row),
		cmocka_unit_test(other_documents_are_refused_and_no_limits_says_so),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
