/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the JSON reader: what json.c writes reads back, escapes
 * and numbers, and every error with its line and column; bounds. */
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

#include "base/json.h"
#include "base/jsonread.h"

static void what_the_writer_writes_reads_back(void **state)
{
	char *text = NULL, err[128];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json_writer w;
	struct jv *v;

	(void)state;
	json_init(&w, f);
	json_object_begin(&w);
	json_kv_string(&w, "name", "tab\there \"q\" \x01 é");
	json_kv_int(&w, "big", INT64_MAX);
	json_kv_int(&w, "neg", -42);
	json_kv_double(&w, "x", 0.5);
	json_kv_bool(&w, "yes", true);
	json_kv_null(&w, "none");
	json_kv_array_begin(&w, "list");
	json_int(&w, 1);
	json_object_begin(&w);
	json_kv_string(&w, "k", "v");
	json_object_end(&w);
	json_array_end(&w);
	json_object_end(&w);
	assert_int_equal(json_finish(&w), 0);
	fclose(f);
	v = jsonread_parse(text, len, err, sizeof(err));
	if (!v)
		fail_msg("%s: %s", err, text);
	assert_string_equal(jv_str(jv_get(v, "name"), ""), "tab\there \"q\" \x01 é");
	assert_int_equal(jv_int(jv_get(v, "big"), 0), INT64_MAX);
	assert_int_equal(jv_int(jv_get(v, "neg"), 0), -42);
	assert_true(jv_num(jv_get(v, "x"), 0) == 0.5);
	assert_true(jv_bool(jv_get(v, "yes"), false));
	assert_int_equal(jv_get(v, "none")->type, JV_NULL);
	assert_int_equal(jv_len(jv_get(v, "list")), 2);
	assert_string_equal(jv_str(jv_get(jv_at(jv_get(v, "list"), 1), "k"), ""), "v");
	assert_null(jv_get(v, "missing"));
	assert_string_equal(jv_str(jv_path(v, "list.k"), "dflt"), "dflt");	/* wrong type: default */
	jv_free(v);
	free(text);
}

static void escapes_and_numbers(void **state)
{
	const char *doc = "{\"u\":\"\\u00e9\\ud83d\\ude00\\/\",\"e\":1.5e3,\"n\":{\"a\":{\"b\":7}}}";
	char err[128];
	struct jv *v = jsonread_parse(doc, strlen(doc), err, sizeof(err));

	(void)state;
	assert_non_null(v);
	assert_string_equal(jv_str(jv_get(v, "u"), ""), "\xc3\xa9\xf0\x9f\x98\x80/");
	assert_true(jv_num(jv_get(v, "e"), 0) == 1500);
	assert_false(jv_get(v, "e")->is_int);
	assert_int_equal(jv_int(jv_path(v, "n.a.b"), 0), 7);
	jv_free(v);
}

static void errors_name_line_and_column(void **state)
{
	static const struct {
		const char *doc, *msg;
	} cases[] = {
		{ "{\"a\": 1,\n \"b\": }", "2:7: unexpected character '}'" },
		{ "[1, 2", "1:6: expected ',' or ']'" },
		{ "{\"a\" 1}", "1:6: expected ':' after a member name" },
		{ "\"abc", "1:2: unterminated string" },
		{ "\"a\x01\"", "1:3: a control character inside a string" },
		{ "{} x", "1:4: text after the document" },
		{ "nul", "1:1: unexpected word" },
		{ "1e999", "1:1: not a number: 1e999" },
		{ "", "1:1: unexpected end of the document" },
		{ "\"\\q\"", "1:3: bad escape \\q" },
	};
	char err[128], deep[200];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_null(jsonread_parse(cases[i].doc, strlen(cases[i].doc), err, sizeof(err)));
		assert_string_equal(err, cases[i].msg);
	}
	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	assert_null(jsonread_parse(deep, 200, err, sizeof(err)));
	assert_non_null(strstr(err, "nested deeper than 64"));
	{
		struct jv *v = jsonread_parse(deep + 40, 120, err, sizeof(err));	/* 60 deep: fine */

		assert_non_null(v);
		jv_free(v);
	}
}

/* Where sqwave's writer never goes, the reader refuses: a member name given
 * twice (which one counts?), a NUL (it would cut the string short for C:
 * "edges\u0000x" read as "edges"), half a surrogate pair, bytes that are
 * not UTF-8, numbers outside JSON's grammar. Each names its line. */
static void what_sqwave_never_writes_is_refused(void **state)
{
	static const struct {
		const char *doc, *msg;
	} cases[] = {
		{ "{\"a\":1,\n\"b\":2,\n\"a\":3}", "3: duplicate member \"a\"" },
		{ "{\"edges\":1,\"edges\\u0000x\":2}", "1:18: a NUL character (\\u0000) inside a string" },
		{ "[\"\\ud800\"]", "1:3: a lone surrogate \\ud800 inside a string" },
		{ "[\"\\udc00\\udc00\"]", "1:3: a lone surrogate \\udc00 inside a string" },
		{ "[\"a\xff\"]", "1:4: not UTF-8: byte \\xff inside a string" },
		{ "[\"\xc0\xaf\"]", "1:3: not UTF-8: byte \\xc0 inside a string" },	/* overlong '/' */
		{ "[\"\xed\xa0\x80\"]", "1:3: not UTF-8: byte \\xed inside a string" },	/* a surrogate */
		{ "[\"\xe2\x82\"]", "1:3: not UTF-8: byte \\xe2 inside a string" },	/* cut short */
		{ "[01]", "1:2: not a number: 01" },
		{ "[1.]", "1:2: not a number: 1." },
		{ "[-]", "1:2: unexpected character '-'" },
		{ "[NaN]", "1:2: unexpected character 'N'" },
		{ "[-Infinity]", "1:2: unexpected character '-'" },
		{ "[1e400]", "1:2: not a number: 1e400" },
	};
	char err[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (jsonread_parse(cases[i].doc, strlen(cases[i].doc), err, sizeof(err)))
			fail_msg("case %zu parsed", i);
		if (strcmp(err, cases[i].msg))
			fail_msg("case %zu: \"%s\", expected \"%s\"", i, err, cases[i].msg);
	}
}

/* What the reader takes: a byte order mark, -0, integers beyond int64 as
 * numbers that are not is_int, UTF-8 of every length, duplicate-free big
 * objects in O(n log n), the line of every value. */
static void what_it_takes(void **state)
{
	const char *doc = "\xef\xbb\xbf{\"z\":-0,\n\"big\":18446744073709551616,\n"
			  "\"s\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}";
	char err[128], *wide;
	struct jv *v = jsonread_parse(doc, strlen(doc), err, sizeof(err));
	size_t i, o;

	(void)state;
	if (!v)
		fail_msg("%s", err);
	assert_true(jv_get(v, "z")->is_int);
	assert_int_equal(jv_get(v, "z")->i, 0);
	assert_false(jv_get(v, "big")->is_int);
	assert_int_equal(jv_get(v, "big")->line, 2);
	assert_int_equal(jv_get(v, "s")->line, 3);
	assert_int_equal(jv_get(v, "s")->len, 9);
	jv_free(v);
	/* 200000 distinct members, then one repeated at the end */
	wide = malloc(200000 * 16 + 64);
	o = (size_t)sprintf(wide, "{");
	for (i = 0; i < 200000; i++)
		o += (size_t)sprintf(wide + o, "%s\"k%zu\":1", i ? "," : "", i);
	sprintf(wide + o, "}");
	v = jsonread_parse(wide, strlen(wide), err, sizeof(err));
	assert_non_null(v);
	jv_free(v);
	sprintf(wide + o, ",\"k77\":2}");
	assert_null(jsonread_parse(wide, strlen(wide), err, sizeof(err)));
	assert_string_equal(err, "1: duplicate member \"k77\"");
	free(wide);
}

/* A FIFO nobody writes to, a directory, a device: refused at once as not
 * a regular file (bad input), without waiting for a writer or reading. */
static void only_regular_files_are_read(void **state)
{
	char dir[] = "/tmp/sqwave-test-jsonread.XXXXXX", fifo[64], err[256];
	bool io = true;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/f", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	alarm(20);	/* a regression blocks in open(): fail, do not hang */
	assert_null(jsonread_file(fifo, &io, err, sizeof(err)));
	alarm(0);
	assert_false(io);
	assert_non_null(strstr(err, "not a regular file (a pipe)"));
	assert_null(jsonread_file(dir, &io, err, sizeof(err)));
	assert_false(io);
	assert_non_null(strstr(err, "(a directory)"));
	assert_null(jsonread_file("/dev/zero", &io, err, sizeof(err)));
	assert_non_null(strstr(err, "(a device)"));
	unlink(fifo);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(what_the_writer_writes_reads_back),
		cmocka_unit_test(escapes_and_numbers),
		cmocka_unit_test(errors_name_line_and_column),
		cmocka_unit_test(what_sqwave_never_writes_is_refused),
		cmocka_unit_test(what_it_takes),
		cmocka_unit_test(only_regular_files_are_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
