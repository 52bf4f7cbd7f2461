/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the shared CSV tokenizer and number parsers (src/board/base/csvread.c),
 * plus its import-speed benchmark (run with SQW_BENCH=1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <cmocka.h>

#include "capture/capture.h"
#include "base/csvread.h"

static int field_eq(const struct csvread *r, unsigned i, const char *s)
{
	struct csv_field f = csvread_field(r, i);

	return f.len == strlen(s) && !memcmp(f.p, s, f.len);
}

static void a_bom_and_crlf_are_not_part_of_the_fields(void **state)
{
	const char in[] = "\xef\xbb\xbfTime [s],Channel 0\r\n0.5,1\r\n";
	struct csvread r;

	(void)state;
	assert_int_equal(csvread_init(&r, in, strlen(in), 0), 0);
	assert_int_equal(csvread_next(&r), 2);
	assert_true(field_eq(&r, 0, "Time [s]"));
	assert_true(field_eq(&r, 1, "Channel 0"));
	assert_int_equal(csvread_next(&r), 2);
	assert_true(field_eq(&r, 1, "1"));
	assert_int_equal(r.line, 2);
	assert_int_equal(csvread_next(&r), CSVREAD_EOF);
	csvread_free(&r);
}

static void trailing_separators_do_not_make_empty_fields(void **state)
{
	const char in[] = "X,CH1,Start,Increment,\n0,1.20e-01,\n";
	struct csvread r;

	(void)state;
	assert_int_equal(csvread_init(&r, in, strlen(in), 0), 0);
	assert_int_equal(csvread_next(&r), 4);
	assert_int_equal(csvread_next(&r), 2);
	assert_true(field_eq(&r, 1, "1.20e-01"));
	csvread_free(&r);
}

static void semicolons_mean_decimal_commas(void **state)
{
	const char in[] = "Second;Volt\n-0,00002;3,3125\n";
	struct csvread r;
	double v;
	int64_t fs;

	(void)state;
	assert_int_equal(csvread_init(&r, in, strlen(in), 0), 0);
	assert_int_equal(r.sep, ';');
	assert_int_equal(r.dec, ',');
	assert_int_equal(csvread_next(&r), 2);
	assert_int_equal(csvread_next(&r), 2);
	assert_int_equal(csv_parse_double(r.f[1].p, r.f[1].len, r.dec, &v), 0);
	assert_true(v == 3.3125);
	assert_int_equal(csv_parse_scaled(r.f[0].p, r.f[0].len, r.dec, 15, &fs), 0);
	assert_int_equal(fs, -20000000000LL);
	csvread_free(&r);
}

static void quoted_fields_keep_separators_quotes_and_newlines(void **state)
{
	const char in[] = "\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\"\nnext,row\n";
	struct csvread r;

	(void)state;
	assert_int_equal(csvread_init(&r, in, strlen(in), ','), 0);
	assert_int_equal(csvread_next(&r), 3);
	assert_true(field_eq(&r, 0, "a,b"));
	assert_true(field_eq(&r, 1, "say \"hi\""));
	assert_true(field_eq(&r, 2, "two\nlines"));
	assert_int_equal(csvread_next(&r), 2);
	assert_int_equal(r.line, 3);
	csvread_free(&r);
}

static void an_unterminated_quote_is_an_error_not_a_crash(void **state)
{
	const char in[] = "a,\"never closed\n1,2\n";
	struct csvread r;

	(void)state;
	assert_int_equal(csvread_init(&r, in, strlen(in), ','), 0);
	assert_int_equal(csvread_next(&r), CSVREAD_ERR);
	csvread_free(&r);
}

static void spaces_after_separators_are_trimmed(void **state)
{
	const char in[] = "Time[s], Channel 0, Channel 1\n0.000000000000000, 1, 0\n";
	struct csvread r;

	(void)state;
	assert_int_equal(csvread_init(&r, in, strlen(in), 0), 0);
	assert_int_equal(csvread_next(&r), 3);
	assert_true(field_eq(&r, 1, "Channel 0"));
	assert_int_equal(csvread_next(&r), 3);
	assert_true(field_eq(&r, 2, "0"));
	csvread_free(&r);
}

static void input_without_final_newline_gives_its_last_record(void **state)
{
	const char in[] = "1,2\n3,4";
	struct csvread r;

	(void)state;
	assert_int_equal(csvread_init(&r, in, strlen(in), 0), 0);
	assert_int_equal(csvread_next(&r), 2);
	assert_int_equal(csvread_next(&r), 2);
	assert_true(field_eq(&r, 1, "4"));
	assert_int_equal(csvread_next(&r), CSVREAD_EOF);
	csvread_free(&r);
}

static void seconds_parse_to_exact_femtoseconds(void **state)
{
	int64_t fs;
	int q;

	(void)state;
	assert_int_equal(csv_parse_scaled("0.003719390", 11, '.', 15, &fs), 0);
	assert_int_equal(fs, 3719390000000LL);
	assert_int_equal(csv_parse_scaled("-9.99800E-03", 12, '.', 15, &fs), 0);
	assert_int_equal(fs, -9998000000000LL);
	assert_int_equal(csv_parse_scaled("289.692741059", 13, '.', 15, &fs), 0);
	assert_int_equal(fs, 289692741059000000LL);
	assert_int_equal(csv_parse_scaled("1.0000000000000005", 18, '.', 15, &fs), 0);
	assert_int_equal(fs, 1000000000000001LL); /* half rounds away from zero */
	/* beyond +-9223 s is refused, not wrapped */
	assert_int_equal(csv_parse_scaled("10000", 5, '.', 15, &fs), -1);
	assert_int_equal(csv_parse_quantum_exp("0.001250", 8, '.', &q), 0);
	assert_int_equal(q, -6);
	assert_int_equal(csv_parse_quantum_exp("1.5E-03", 7, '.', &q), 0);
	assert_int_equal(q, -4);
}

static void numbers_in_scope_notations_parse(void **state)
{
	static const struct {
		const char *s;
		double v;
	} cases[] = {
		{ "1.20e-01", 0.12 }, { "+4.000008E-02", 4.000008e-2 }, { "-10", -10 },
		{ "3.3", 3.3 }, { " 2.5 ", 2.5 }, { ".5", 0.5 }, { "5.", 5 },
		{ "1e300", 1e300 }, { "123456789012345678901234", 1.2345678901234568e23 },
	};
	double v;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(csv_parse_double(cases[i].s, strlen(cases[i].s), '.', &v), 0);
		assert_true(fabs(v - cases[i].v) <= fabs(cases[i].v) * 1e-12);
	}
	assert_int_equal(csv_parse_double("", 0, '.', &v), -1);
	assert_int_equal(csv_parse_double("X", 1, '.', &v), -1);
	assert_int_equal(csv_parse_double("1e", 2, '.', &v), -1);
	assert_int_equal(csv_parse_double("1.2.3", 5, '.', &v), -1);
	assert_int_equal(csv_parse_double("1,5", 3, '.', &v), -1);
}

/*
 * Import speed: a generated Rigol DS1000Z file of a 1 kHz square wave
 * through the whole importer (detection, two passes, edges). Only with
 * SQW_BENCH=1: under valgrind or sanitizers the number means nothing.
 */
static void import_speed_is_at_least_50_mb_per_s(void **state)
{
	const size_t rows = 4000000;
	size_t cap = rows * 24 + 256, len = 0;
	char *buf;
	struct timespec a, b;
	struct capture *c;
	struct capture_edge e;
	size_t edges = 0;
	double secs, mbs;

	(void)state;
	if (!getenv("SQW_BENCH")) {
		print_message("skipped: set SQW_BENCH=1 to measure import speed\n");
		skip();
	}
	buf = malloc(cap);
	assert_non_null(buf);
	len += (size_t)sprintf(buf, "X,CH1,Start,Increment,\nSequence,Volt,-1.000000e-02,1.000000e-06,\n");
	for (size_t i = 0; i < rows; i++) {
		int hi = (i / 500) & 1;
		double v = (hi ? 3.3 : 0.0) + ((i * 7919) % 5) * 0.03125 - 0.0625;

		len += (size_t)sprintf(buf + len, "%zu,%.2e,\n", i, v);
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	c = capture_open_mem(buf, len, "bench.csv", NULL, NULL, 0);
	assert_non_null(c);
	while (capture_next_edge(c, &e) == 1)
		edges++;
	clock_gettime(CLOCK_MONOTONIC, &b);
	capture_close(c);
	secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	mbs = (double)len / 1e6 / secs;
	print_message("rigol csv: %.1f MB, %zu edges, %.3f s: %.0f MB/s\n", (double)len / 1e6, edges,
		      secs, mbs);
	assert_int_equal(edges, rows / 500 - 1);
	assert_true(mbs >= 50);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_bom_and_crlf_are_not_part_of_the_fields),
		cmocka_unit_test(trailing_separators_do_not_make_empty_fields),
		cmocka_unit_test(semicolons_mean_decimal_commas),
		cmocka_unit_test(quoted_fields_keep_separators_quotes_and_newlines),
		cmocka_unit_test(an_unterminated_quote_is_an_error_not_a_crash),
		cmocka_unit_test(spaces_after_separators_are_trimmed),
		cmocka_unit_test(input_without_final_newline_gives_its_last_record),
		cmocka_unit_test(seconds_parse_to_exact_femtoseconds),
		cmocka_unit_test(numbers_in_scope_notations_parse),
		cmocka_unit_test(import_speed_is_at_least_50_mb_per_s),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
