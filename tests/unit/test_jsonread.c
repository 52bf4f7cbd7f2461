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

#include "json.h"
#include "jsonread.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(what_the_writer_writes_reads_back),
		cmocka_unit_test(escapes_and_numbers),
		cmocka_unit_test(errors_name_line_and_column),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
