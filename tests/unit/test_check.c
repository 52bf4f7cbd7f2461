/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the findings list: result and exit code, --strict, an
 * incomplete check, the text, JSON and JUnit forms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "base/json.h"

static char *text_of(const struct check_report *r, bool strict, bool verbose)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	check_print_text(f, r, strict, verbose);
	fclose(f);
	return buf;
}

static void no_fail_exits_0_a_fail_exits_1(void **state)
{
	struct check_report r;

	(void)state;
	check_report_init(&r);
	check_add(&r, CHECK_PASS, "a.b", "fine");
	check_add(&r, CHECK_SKIP, "a.c", "not here");
	assert_int_equal(check_result(&r, false), CHECK_PASS);
	assert_int_equal(check_exit_code(&r, false), 0);
	check_add(&r, CHECK_WARN, "a.d", "meh");
	assert_int_equal(check_result(&r, false), CHECK_WARN);
	assert_int_equal(check_exit_code(&r, false), 0);
	check_add(&r, CHECK_FAIL, "a.e", "broken");
	assert_int_equal(check_result(&r, false), CHECK_FAIL);
	assert_int_equal(check_exit_code(&r, false), 1);
	check_report_free(&r);
}

static void strict_makes_a_warning_fail(void **state)
{
	struct check_report r;
	char *t;

	(void)state;
	check_report_init(&r);
	check_add(&r, CHECK_WARN, "a.d", "meh");
	assert_int_equal(check_exit_code(&r, true), 1);
	t = text_of(&r, true, false);
	assert_non_null(strstr(t, "0 PASS, 1 WARN, 0 FAIL, 0 SKIP: FAIL (--strict: a WARN fails)"));
	free(t);
	check_report_free(&r);
}

static void an_incomplete_check_exits_3_whatever_it_found(void **state)
{
	struct check_report r;
	char *t;

	(void)state;
	check_report_init(&r);
	check_add(&r, CHECK_PASS, "a.b", "fine");
	check_incomplete(&r, "cannot read %s", "/proc");
	check_incomplete(&r, "a second reason");
	assert_int_equal(check_exit_code(&r, false), 3);
	t = text_of(&r, false, false);
	assert_non_null(strstr(t, "incomplete: cannot read /proc"));
	assert_null(strstr(t, "second"));
	free(t);
	check_report_free(&r);
}

static void why_and_fix_show_under_warnings_and_failures_only(void **state)
{
	struct check_finding *f;
	struct check_report r;
	char *t;

	(void)state;
	check_report_init(&r);
	f = check_add(&r, CHECK_PASS, "x.pass", "good");
	check_why(f, "PASSWHY");
	f = check_add(&r, CHECK_FAIL, "x.fail", "bad %d", 42);
	check_why(f, "because");
	check_fix(f, "do %s", "this");
	t = text_of(&r, false, false);
	assert_non_null(strstr(t, "FAIL x.fail  bad 42\n"));
	assert_non_null(strstr(t, "why: because\n"));
	assert_non_null(strstr(t, "fix: do this\n"));
	assert_null(strstr(t, "PASSWHY"));
	free(t);
	t = text_of(&r, false, true);
	assert_non_null(strstr(t, "PASSWHY"));
	free(t);
	check_report_free(&r);
}

static void control_characters_never_reach_the_terminal(void **state)
{
	struct check_report r;
	char *t;

	(void)state;
	check_report_init(&r);
	check_add(&r, CHECK_FAIL, "x.busy", "used by \"\033[2Jevil\"");
	t = text_of(&r, false, false);
	assert_null(strchr(t, '\033'));
	assert_non_null(strstr(t, "\\x1b[2Jevil"));
	free(t);
	check_report_free(&r);
}

static void long_text_is_cut_and_marked(void **state)
{
	struct check_report r;
	char big[2000];

	(void)state;
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	check_report_init(&r);
	check_add(&r, CHECK_PASS, "x.long", "%s", big);
	assert_int_equal(strlen(r.v[0].value), CHECK_TEXT - 1);
	assert_string_equal(r.v[0].value + CHECK_TEXT - 4, "...");
	check_report_free(&r);
}

static void many_findings_keep_their_order(void **state)
{
	struct check_report r;
	char id[16];
	int i;

	(void)state;
	check_report_init(&r);
	for (i = 0; i < 100; i++) {
		snprintf(id, sizeof(id), "n.%d", i);
		check_add(&r, (enum check_status)(i % 4), id, "%d", i);
	}
	assert_int_equal(r.n, 100);
	assert_string_equal(check_find(&r, "n.57")->value, "57");
	assert_null(check_find(&r, "n.100"));
	check_report_free(&r);
}

static void the_json_lists_every_finding_with_its_fields(void **state)
{
	struct json_writer w;
	struct check_finding *f;
	struct check_report r;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	check_report_init(&r);
	f = check_add(&r, CHECK_WARN, "power.governor", "cpu0 \"schedutil\"");
	check_fix(f, "cpupower frequency-set -g performance");
	json_init(&w, fp);
	check_write_json(&w, &r);
	assert_int_equal(json_finish(&w), 0);
	fclose(fp);
	assert_non_null(strstr(buf, "\"id\": \"power.governor\""));
	assert_non_null(strstr(buf, "\"status\": \"WARN\""));
	assert_non_null(strstr(buf, "\"value\": \"cpu0 \\\"schedutil\\\"\""));
	assert_non_null(strstr(buf, "\"why\": \"\""));
	assert_non_null(strstr(buf, "\"fix\": \"cpupower frequency-set -g performance\""));
	free(buf);
	check_report_free(&r);
}

/* The findings as JUnit, written to a file and read back whole. */
static char *junit_of(const struct check_report *r, bool strict)
{
	const struct check_junit_info ji = { .board = "sim", .strict = strict,
					     .start_realtime_ns = 1700000000000000000ull,
					     .end_realtime_ns = 1700000001500000000ull };
	const char *tmp = getenv("TMPDIR");
	char path[256], err[256] = "", *buf;
	FILE *f;
	long n;
	int fd;

	snprintf(path, sizeof(path), "%s/sqw-check-junit-XXXXXX", tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(check_write_junit(path, r, &ji, err, sizeof(err)), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	buf = calloc(1, 65536);
	assert_non_null(buf);
	n = (long)fread(buf, 1, 65535, f);
	assert_true(n > 0);
	fclose(f);
	unlink(path);
	return buf;
}

static void the_junit_has_a_case_per_finding_failing_where_the_check_does(void **state)
{
	struct check_finding *f;
	struct check_report r;
	char *x;

	(void)state;
	check_report_init(&r);
	check_add(&r, CHECK_PASS, "kernel.hrtimers", "active");
	f = check_add(&r, CHECK_WARN, "power.governor", "cpu0 <schedutil>");
	check_why(f, "slower wake-ups");
	check_fix(f, "cpupower frequency-set -g performance");
	check_add(&r, CHECK_FAIL, "gpio.chip", "no chip 9");
	check_add(&r, CHECK_SKIP, "loopback.line", "no loopback");
	x = junit_of(&r, false);
	assert_non_null(strstr(x, "<testsuite name=\"sqwave.check.sim\" id=\"0\" package=\"sqwave\" "
				  "tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"1.500\" "
				  "timestamp=\"2023-11-14T22:13:20\""));
	assert_non_null(strstr(x, "<testcase classname=\"sqwave.check.sim\" name=\"gpio.chip\" "
				  "time=\"0\">\n      <failure message=\"no chip 9\" type=\"FAIL\">"
				  "no chip 9</failure>"));
	assert_non_null(strstr(x, "<skipped message=\"no loopback\"/>"));
	/* a WARN does not fail the check: its words in system-out alone */
	assert_null(strstr(x, "type=\"WARN\""));
	assert_non_null(strstr(x, "<system-out>WARN cpu0 &lt;schedutil&gt;\nwhy: slower wake-ups\n"
				  "fix: cpupower frequency-set -g performance</system-out>"));
	assert_non_null(strstr(x, "<property name=\"result\" value=\"FAIL\"/>"));
	free(x);
	/* --strict: it does, as in the exit code */
	x = junit_of(&r, true);
	assert_non_null(strstr(x, "tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"1\""));
	assert_non_null(strstr(x, "<failure message=\"cpu0 &lt;schedutil&gt;\" type=\"WARN\">"
				  "cpu0 &lt;schedutil&gt;\nwhy: slower wake-ups\n"
				  "fix: cpupower frequency-set -g performance</failure>"));
	free(x);
	/* a check that could not be made (exit 3) is an error, said */
	check_incomplete(&r, "no /proc under the root");
	x = junit_of(&r, false);
	assert_non_null(strstr(x, "tests=\"5\" failures=\"1\" errors=\"1\""));
	assert_non_null(strstr(x, "name=\"incomplete\" time=\"0\">\n      <error "
				  "message=\"no /proc under the root\" type=\"incomplete\"/>"));
	free(x);
	check_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_fail_exits_0_a_fail_exits_1),
		cmocka_unit_test(strict_makes_a_warning_fail),
		cmocka_unit_test(an_incomplete_check_exits_3_whatever_it_found),
		cmocka_unit_test(why_and_fix_show_under_warnings_and_failures_only),
		cmocka_unit_test(control_characters_never_reach_the_terminal),
		cmocka_unit_test(long_text_is_cut_and_marked),
		cmocka_unit_test(many_findings_keep_their_order),
		cmocka_unit_test(the_json_lists_every_finding_with_its_fields),
		cmocka_unit_test(the_junit_has_a_case_per_finding_failing_where_the_check_does),
	};

	return cmocka_run_group_tests_name("check (findings)", tests, NULL, NULL);
}
