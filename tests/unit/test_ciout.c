/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ciout: result.txt lines that LAVA's own parsing takes, JUnit XML that a
 * real XML parser reads with the right counts, and hostile names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "summary/ciout.h"
#include "stats/verdict.h"
#include "base/cpulist.h"
#include "log/edgelog.h"

#define HALF 500000
#define T0   1000000000ull

struct fixture {
	struct config *c;
	struct edgestats *s;
	struct run_info ri;
	char path[64];
	/* a run of two phases */
	struct run_phase ph[2];
	struct proof_phase proof[2];
	struct proof_req req;
	struct edgestats *st[2];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (!f)
		return -1;
	f->c = config_new();
	f->s = edgestats_new(HALF);
	if (!f->c || !f->s)
		return -1;
	f->ri.board_file = "boards/sim.yaml";
	f->ri.log_path = "run.sqwlog";
	f->ri.gpio_desc = "sim";
	snprintf(f->ri.host.hostname, sizeof(f->ri.host.hostname), "board-7");
	snprintf(f->ri.host.kernel_release, sizeof(f->ri.host.kernel_release), "6.6.0-rt15");
	f->ri.rt_ok = true;
	f->ri.start_realtime_ns = 1700000000000000000ull;
	f->ri.end_realtime_ns = f->ri.start_realtime_ns + 2500000000ull;
	f->ri.stop_reason = EDGELOG_STOP_DURATION;
	snprintf(f->path, sizeof(f->path), "%s/sqw-ciout-XXXXXX", tmp ? tmp : "/tmp");
	fd = mkstemp(f->path);
	if (fd < 0)
		return -1;
	close(fd);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (getenv("SQW_KEEP"))
		fprintf(stderr, "kept %s\n", f->path);
	else
		unlink(f->path);
	edgestats_free(f->st[0]);
	edgestats_free(f->st[1]);
	edgestats_free(f->s);
	config_free(f->c);
	free(f);
	return 0;
}

static void set(struct fixture *f, enum cfg_key key, const char *value)
{
	char err[256];

	if (config_set(f->c, key, value, CFG_SRC_CMDLINE, NULL, 0, err, sizeof(err)) != CFG_OK) {
		print_error("config_set: %s\n", err);
		fail();
	}
}

/* @n edges, woken 10 us late, 2 us writes; edge @slow @extra ns later. */
static void feed_wave(struct fixture *f, uint64_t n, int64_t slow, int32_t extra)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		struct edge_rec e = {
			.seq = i, .intended_ns = T0 + i * HALF, .wake_off_ns = 10000,
			.write_begin_off_ns = 11000, .write_end_off_ns = 13000, .expirations = 1,
			.level = (uint8_t)(i % 2 == 0),
		};

		if ((int64_t)i == slow) {
			e.wake_off_ns += extra;
			e.write_begin_off_ns += extra;
			e.write_end_off_ns += extra;
		}
		edgestats_add(f->s, &e);
		if (f->st[0])
			edgestats_add(f->st[i < n / 2 ? 0 : 1], &e);
	}
	f->ri.records_logged = n;
}

/* Phases "warm up" (no loads) and "cpu.load" (a CoreMark on CPU 0 that
 * kept it @busy % busy and gave a valid score). Call before feed_wave(). */
static void two_phases(struct fixture *f, float busy)
{
	struct proof_sample smp = { .dt_ns = 1000000000ull, .ncpu = 1 };
	struct load_result res = { .valid = true, .score = 10 };
	char err[64];

	snprintf(f->req.name, sizeof(f->req.name), "coremark");
	f->req.kind = LOAD_PROOF_CPU;
	f->req.results = true;
	cpulist_parse("0", &f->req.cpus, err, sizeof(err));
	smp.busy[0] = busy;
	proof_phase_add_sample(&f->proof[1], &smp);
	proof_phase_add_result(&f->proof[1], "coremark", &res);
	f->st[0] = edgestats_new(HALF);
	f->st[1] = edgestats_new(HALF);
	assert_non_null(f->st[0]);
	assert_non_null(f->st[1]);
	f->ph[0] = (struct run_phase){ .name = "warm up", .stats = f->st[0],
					   .proof = &f->proof[0], .duration_ns = 1000000000 };
	f->ph[1] = (struct run_phase){ .name = "cpu.load", .stats = f->st[1],
					   .start_off_ns = 1000000000, .proof = &f->proof[1],
					   .reqs = &f->req, .nreqs = 1, .sampled = true };
	f->ri.phases = f->ph;
	f->ri.nphases = 2;
	f->ri.min_busy_pct = 80;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = calloc(1, 65536);
	size_t n;

	assert_non_null(fp);
	assert_non_null(buf);
	n = fread(buf, 1, 65535, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static void results_of(struct fixture *f, char **text)
{
	char err[256] = "";

	assert_int_equal(ciout_write_results(f->path, f->c, f->s, &f->ri, err, sizeof(err)), 0);
	*text = slurp(f->path);
}

static void the_results_are_one_line_per_check_with_figures_in_us(void **state)
{
	struct fixture *f = *state;
	char *t;

	feed_wave(f, 100, 50, 30000);
	set(f, CFG_LIMITS_TMAX, "531us");
	set(f, CFG_LIMITS_MISSED_MAX, "0");
	results_of(f, &t);
	assert_string_equal(t, "edges pass 100 count\n"
			       "dropped pass 0 count\n"
			       "write_errors pass 0 count\n"
			       "log_complete pass\n"
			       "no_error pass\n"
			       "no_break pass\n"
			       "tmin skip 468.000 us\n"
			       "tmax fail 532.000 us\n"
			       "width_error skip 32.000 us\n"
			       "wake_latency_max skip 40.000 us\n"
			       "missed_periods pass 0 count\n");
	free(t);
}

/*
 * Linaro's test-definitions (automated/utils/send-to-lava.sh) turn each line
 * into lava-test-case with these two egrep patterns, then take the fields
 * with awk. Every line must match one; a measurement must be a number and
 * its units one word, the same for a name every time it appears.
 */
static void assert_lava_parses(const char *text)
{
	regex_t bare, measured, number;
	char line[512], units[64][2][128];
	const char *p = text;
	size_t nunits = 0, i;

	assert_int_equal(regcomp(&bare, ".* +(pass|fail|skip)$", REG_EXTENDED | REG_ICASE | REG_NOSUB), 0);
	assert_int_equal(regcomp(&measured, ".*+ (pass|fail|skip)+ .*+",
				 REG_EXTENDED | REG_ICASE | REG_NOSUB), 0);
	assert_int_equal(regcomp(&number, "^-?[0-9]+(\\.[0-9]+)?$", REG_EXTENDED | REG_NOSUB), 0);
	while (*p) {
		const char *nl = strchr(p, '\n');
		char name[128] = "", result[16] = "", meas[64] = "", unit[64] = "", extra[8] = "";
		int got;

		assert_non_null(nl);
		assert_true((size_t)(nl - p) < sizeof(line));
		memcpy(line, p, (size_t)(nl - p));
		line[nl - p] = '\0';
		p = nl + 1;
		if (regexec(&bare, line, 0, NULL, 0) != 0 && regexec(&measured, line, 0, NULL, 0) != 0) {
			print_error("LAVA would drop: \"%s\"\n", line);
			fail();
		}
		got = sscanf(line, "%127s %15s %63s %63s %7s", name, result, meas, unit, extra);
		assert_true(got == 2 || got == 4);
		assert_true(!strcmp(result, "pass") || !strcmp(result, "fail") ||
			    !strcmp(result, "skip"));
		if (got == 2)
			continue;
		if (regexec(&number, meas, 0, NULL, 0) != 0) {
			print_error("not a number: \"%s\" in \"%s\"\n", meas, line);
			fail();
		}
		for (i = 0; i < nunits; i++) {
			if (!strcmp(units[i][0], name))
				assert_string_equal(units[i][1], unit);
		}
		if (nunits < 64) {
			snprintf(units[nunits][0], sizeof(units[0][0]), "%s", name);
			snprintf(units[nunits++][1], sizeof(units[0][1]), "%s", unit);
		}
	}
	regfree(&bare);
	regfree(&measured);
	regfree(&number);
}

static void every_result_line_parses_with_linaros_regular_expressions(void **state)
{
	struct fixture *f = *state;
	char *t;

	two_phases(f, 30);
	feed_wave(f, 100, 42, 90000);
	set(f, CFG_LIMITS_TMIN, "499us");
	set(f, CFG_LIMITS_WAKE_LATENCY_MAX, "50us");
	results_of(f, &t);
	assert_lava_parses(t);
	/* a phase's figures and a load's proof, the names made safe */
	assert_non_null(strstr(t, "\nwarm_up.tmin fail 408.000 us\n"));
	assert_non_null(strstr(t, "\ncpu_load.tmin fail 498.000 us\n"));
	assert_non_null(strstr(t, "\ncpu_load.coremark.cpu_busy fail 30.0 percent\n"));
	assert_non_null(strstr(t, "\ncpu_load.coremark.valid_scores pass 1 count\n"));
	assert_non_null(strstr(t, "\ncpu_load.coremark.running pass\n"));
	free(t);
}

static void a_check_without_a_figure_has_no_measurement(void **state)
{
	struct fixture *f = *state;
	char *t;

	set(f, CFG_LIMITS_TMAX, "510us");	/* no edges at all */
	results_of(f, &t);
	assert_lava_parses(t);
	assert_non_null(strstr(t, "edges fail 0 count\n"));
	assert_non_null(strstr(t, "\ntmax fail\n"));
	assert_non_null(strstr(t, "\ntmin skip\n"));
	free(t);
}

/* python3's xml.etree parses the file and checks @expr on root r. */
static int xml_accepts(const char *path, const char *expr)
{
	char cmd[4096];

	if (system("python3 -c '' 2>/dev/null") != 0)
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import sys, xml.etree.ElementTree as ET\n"
		 "r = ET.parse(sys.argv[1]).getroot()\n"
		 "def n(e, tag): return len(e.findall(\".//\" + tag))\n"
		 "ok = r.tag == \"testsuites\" and int(r.get(\"tests\")) == n(r, \"testcase\") and "
		 "int(r.get(\"failures\")) == n(r, \"failure\") and all("
		 "int(s.get(\"tests\")) == n(s, \"testcase\") and "
		 "int(s.get(\"failures\")) == n(s, \"failure\") and "
		 "int(s.get(\"skipped\")) == n(s, \"skipped\") and s.get(\"errors\") == \"0\" and "
		 "s.get(\"timestamp\") and s.get(\"hostname\") for s in r.findall(\"testsuite\"))\n"
		 "sys.exit(0 if ok and (%s) else 3)' '%s'", expr, path);
	return system(cmd);
}

static void junit(struct fixture *f)
{
	char err[256] = "";

	assert_int_equal(ciout_write_junit(f->path, f->c, f->s, &f->ri, err, sizeof(err)), 0);
}

static void the_junit_report_parses_with_the_right_counts_and_figures(void **state)
{
	struct fixture *f = *state;
	int ret;

	feed_wave(f, 100, 50, 30000);
	set(f, CFG_LIMITS_TMAX, "531us");
	junit(f);
	ret = xml_accepts(f->path,
			  "len(r.findall(\"testsuite\")) == 1 and r.get(\"tests\") == \"11\" and "
			  "r.get(\"failures\") == \"1\" and "
			  "r.find(\"testsuite\").get(\"skipped\") == \"4\" and "
			  "r.find(\"testsuite\").get(\"name\") == \"sqwave\" + \".\" and "
			  "r.find(\"testsuite\").get(\"time\") == \"2.500\" and "
			  "[c.get(\"name\") for c in r.iter(\"testcase\") if c.find(\"failure\") is not None]"
			  " == [\"tmax\"] and "
			  "\"observed 532.000 us (pulse width estimate 530.000 us); at most 531.000 us "
			  "(limits.tmax); at edge #50 (t+0.025000 s)\" in "
			  "r.find(\".//failure\").text and "
			  "r.find(\".//failure\").get(\"type\") == \"limits.tmax\" and "
			  "\"above limits.tmax 531.000 us\" in r.find(\".//failure\").get(\"message\")");
	if (ret < 0)
		skip();
	assert_int_equal(ret, 0);
}

static void a_run_with_phases_has_a_suite_per_phase_with_its_loads(void **state)
{
	struct fixture *f = *state;
	int ret;

	two_phases(f, 95);
	feed_wave(f, 100, -1, 0);
	set(f, CFG_LIMITS_TMAX, "510us");
	f->ri.label = "rt-loaded";
	junit(f);
	ret = xml_accepts(f->path,
			  "[s.get(\"name\") for s in r.findall(\"testsuite\")] == [\"sqwave..rt-loaded\", "
			  "\"sqwave..rt-loaded.phase.warm up\", \"sqwave..rt-loaded.phase.cpu.load\"] and "
			  "[c.get(\"name\") for c in r.findall(\"testsuite\")[2].iter(\"testcase\")] == "
			  "[\"tmin\", \"tmax\", \"width_error\", \"wake_latency_max\", \"missed_periods\", "
			  "\"coremark.running\", \"coremark.cpu_busy\", \"coremark.valid_scores\"] and "
			  "r.findall(\"testsuite\")[2].get(\"timestamp\") == \"2023-11-14T22:13:21\" and "
			  "r.findall(\"testsuite\")[1].get(\"time\") == \"1.000\" and "
			  "r.get(\"failures\") == \"0\"");
	if (ret < 0)
		skip();
	assert_int_equal(ret, 0);
}

/* The Jenkins xUnit plugin validates by its junit-10.xsd: <testsuites> may
 * carry only name, time, tests, failures and errors (a skipped count there
 * gets the file refused); each <testsuite> must carry name, tests, failures
 * and errors; their time is digits with at most 3 decimals. */
static void the_junit_carries_only_the_attributes_the_xunit_schema_allows(void **state)
{
	struct fixture *f = *state;
	int ret;

	two_phases(f, 95);
	feed_wave(f, 100, -1, 0);
	set(f, CFG_LIMITS_TMAX, "510us");
	junit(f);
	ret = xml_accepts(f->path,
			  "set(r.attrib) <= {\"name\", \"time\", \"tests\", \"failures\", \"errors\"} "
			  "and all({\"name\", \"tests\", \"failures\", \"errors\"} <= set(s.attrib) "
			  "for s in r.findall(\"testsuite\")) and "
			  "all(__import__(\"re\").fullmatch(r\"[0-9]+(\\.[0-9]{1,3})?\", e.get(\"time\")) "
			  "for e in [r] + r.findall(\"testsuite\")) and "
			  "sum(int(s.get(\"skipped\")) for s in r.findall(\"testsuite\")) == "
			  "n(r, \"skipped\") > 0");
	if (ret < 0)
		skip();
	assert_int_equal(ret, 0);
}

static void hostile_names_still_make_well_formed_xml(void **state)
{
	struct fixture *f = *state;
	int ret;

	/* config_set() refuses control characters (the label below has one);
	 * bytes that are not UTF-8 it takes */
	set(f, CFG_BOARD_NAME, "<b>&\"' \xff\xfe ]]>");
	f->ri.label = "l\x1b[2J";
	snprintf(f->ri.host.hostname, sizeof(f->ri.host.hostname), "h<&>");
	feed_wave(f, 10, -1, 0);
	set(f, CFG_LIMITS_TMIN, "499us");
	junit(f);
	ret = xml_accepts(f->path,
			  "r.find(\"testsuite\").get(\"name\") == "
			  "\"sqwave.<b>&\\\"\\x27 \\\\xff\\\\xfe ]]>.l\\\\x1b[2J\" and "
			  "r.find(\"testsuite\").get(\"hostname\") == \"h<&>\"");
	if (ret < 0)
		skip();
	assert_int_equal(ret, 0);
}

static void name_parts_keep_only_safe_characters(void **state)
{
	char buf[8];

	(void)state;
	assert_string_equal(ciout_name_part("a b.c/d", buf, sizeof(buf)), "a_b_c_d");
	assert_string_equal(ciout_name_part("", buf, sizeof(buf)), "_");
	assert_string_equal(ciout_name_part("ping-flood_2", buf, sizeof(buf)), "ping-fl");
	assert_string_equal(ciout_name_part("\xc3\xa9t\xc3\xa9", buf, sizeof(buf)), "__t__");
}

static void an_unwritable_path_is_an_error_with_a_reason(void **state)
{
	struct fixture *f = *state;
	char err[256] = "";

	feed_wave(f, 10, -1, 0);
	errno = 0;
	assert_int_equal(ciout_write_junit("/nonexistent-dir/x.xml", f->c, f->s, &f->ri, err,
					   sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "/nonexistent-dir/x.xml"));
	err[0] = '\0';
	assert_int_equal(ciout_write_results("/dev/full", f->c, f->s, &f->ri, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/dev/full"));
}

/* Line 3 of two: every result name and every suite (the classname of its
 * cases) says the line, and a line name is kept to a name part's characters;
 * a run of one line keeps its names (the test above). */
static void a_line_of_several_is_in_every_result_name_and_suite_name(void **state)
{
	struct fixture *f = *state;
	char *t;
	int ret;

	feed_wave(f, 100, 50, 30000);
	set(f, CFG_LIMITS_TMAX, "531us");
	f->ri.line_count = 2;
	f->ri.line_index = 1;
	f->ri.line_name = "3";
	results_of(f, &t);
	assert_non_null(strstr(t, "line3.edges pass 100 count\n"));
	assert_non_null(strstr(t, "line3.tmax fail 532.000 us\n"));
	assert_null(strstr(t, "\nedges"));
	assert_int_equal(strncmp(t, "line3.", 6), 0);
	free(t);
	junit(f);
	ret = xml_accepts(f->path,
			  "[s.get(\"name\") for s in r.findall(\"testsuite\")] == "
			  "[\"sqwave.\" + \".line3\"] and "
			  "all(c.get(\"classname\") == \"sqwave.\" + \".line3\" for c in r.iter(\"testcase\")) and "
			  "{p.get(\"name\"): p.get(\"value\") for p in r.iter(\"property\")}[\"line\"] == \"3\"");
	if (ret < 0)
		skip();
	assert_int_equal(ret, 0);
	f->ri.line_name = "P B.1";
	results_of(f, &t);
	assert_int_equal(strncmp(t, "lineP_B_1.edges pass", 20), 0);
	free(t);
}

/* An instrument's check added after the run (run --scope) counts in the
 * verdict: alone it fails it with its own word, with the run's own
 * failures the word stays FAIL; every document names it after the
 * instrument and gives the interval the reading had to lie in. */
static void an_instruments_check_fails_the_verdict_and_is_named_in_every_document(void **state)
{
	struct fixture *f = *state;
	struct verdict_check ok = { .name = "tmin_pos", .instrument = "scope",
				    .result = VERDICT_CHECK_PASS, .unit = VERDICT_UNIT_NS,
				    .has_observed = true, .observed = 452103,
				    .has_interval = true, .lo = 335809, .hi = 479395,
				    .message = "lies in it" };
	struct verdict_check bad = ok;
	struct verdict_result v;
	char err[256] = "";
	char *t;
	int ret;

	bad.name = "tmax_pos";
	bad.result = VERDICT_CHECK_FAIL;
	bad.observed = 5523314;
	bad.message = "the scope's Tmax lies above it";
	feed_wave(f, 100, 50, 30000);
	set(f, CFG_LIMITS_TMAX, "600us");
	assert_int_equal(verdict_result_compute(&v, f->c, edgestats_result(f->s), &f->ri, err,
						sizeof(err)), 0);
	assert_int_equal(v.verdict, VERDICT_PASS);
	assert_int_equal(verdict_result_add_check(&v, &ok), 0);
	assert_int_equal(v.verdict, VERDICT_PASS);
	assert_string_equal(v.word, "PASS");
	assert_int_equal(verdict_result_add_check(&v, &bad), 0);
	assert_int_equal(v.verdict, VERDICT_FAIL);
	assert_string_equal(v.word, "INSTRUMENT DISAGREES");
	assert_int_equal(v.violations, 1);
	assert_int_equal(ciout_write_results_judged(f->path, &f->ri, &v, err, sizeof(err)), 0);
	t = slurp(f->path);
	assert_non_null(strstr(t, "\nscope.tmin_pos pass 452.103 us\nscope.tmax_pos fail 5523.314 us\n"));
	assert_lava_parses(t);
	free(t);
	assert_int_equal(ciout_write_junit_judged(f->path, f->c, &f->ri, &v, err, sizeof(err)), 0);
	ret = xml_accepts(f->path,
			  "[c.get(\"name\") for c in r.iter(\"testcase\") if c.find(\"failure\") is not None]"
			  " == [\"scope.tmax_pos\"] and "
			  "r.find(\".//failure\").get(\"type\") == \"instrument disagrees\" and "
			  "\"observed 5523.314 us; expected in [335.809, 479.395] us\" in "
			  "r.find(\".//failure\").text and "
			  "[c.find(\"system-out\").text for c in r.iter(\"testcase\")"
			  " if c.get(\"name\") == \"scope.tmin_pos\"][0].startswith(\"lies in it\")");
	verdict_result_free(&v);
	if (ret < 0)
		skip();
	assert_int_equal(ret, 0);
	/* with the run's own failure the word is the run's */
	set(f, CFG_LIMITS_TMAX, "531us");
	assert_int_equal(verdict_result_compute(&v, f->c, edgestats_result(f->s), &f->ri, err,
						sizeof(err)), 0);
	assert_int_equal(verdict_result_add_check(&v, &bad), 0);
	assert_string_equal(v.word, "FAIL");
	assert_int_equal(v.violations, 2);
	verdict_result_free(&v);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(the_results_are_one_line_per_check_with_figures_in_us),
		T(a_line_of_several_is_in_every_result_name_and_suite_name),
		T(every_result_line_parses_with_linaros_regular_expressions),
		T(a_check_without_a_figure_has_no_measurement),
		T(the_junit_report_parses_with_the_right_counts_and_figures),
		T(a_run_with_phases_has_a_suite_per_phase_with_its_loads),
		T(the_junit_carries_only_the_attributes_the_xunit_schema_allows),
		T(hostile_names_still_make_well_formed_xml),
		T(name_parts_keep_only_safe_characters),
		T(an_unwritable_path_is_an_error_with_a_reason),
		T(an_instruments_check_fails_the_verdict_and_is_named_in_every_document),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
