/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json: exact output for structure, numbers and every kind of escape. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/json.h"

struct capture {
	char *buf;
	size_t len;
	FILE *f;
	struct json_writer w;
};

static int setup(void **state)
{
	struct capture *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	c->f = open_memstream(&c->buf, &c->len);
	if (!c->f)
		return -1;
	json_init(&c->w, c->f);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct capture *c = *state;

	if (c->f)
		fclose(c->f);
	free(c->buf);
	free(c);
	return 0;
}

/* Finish the document and return what was written. */
static const char *output(struct capture *c)
{
	assert_int_equal(json_finish(&c->w), 0);
	fclose(c->f);
	c->f = NULL;
	return c->buf;
}

/* The JSON text for one string value. */
static const char *escaped(const char *s)
{
	static char buf[256];

	json_escape(buf, sizeof(buf), s);
	return buf;
}

static void nested_containers_are_indented_by_two_spaces(void **state)
{
	struct capture *c = *state;

	json_object_begin(&c->w);
	json_kv_string(&c->w, "schema", "x");
	json_kv_array_begin(&c->w, "list");
	json_int(&c->w, 1);
	json_object_begin(&c->w);
	json_kv_bool(&c->w, "ok", true);
	json_object_end(&c->w);
	json_array_end(&c->w);
	json_kv_null(&c->w, "none");
	json_object_end(&c->w);
	assert_string_equal(output(c),
			    "{\n"
			    "  \"schema\": \"x\",\n"
			    "  \"list\": [\n"
			    "    1,\n"
			    "    {\n"
			    "      \"ok\": true\n"
			    "    }\n"
			    "  ],\n"
			    "  \"none\": null\n"
			    "}\n");
}

static void empty_containers_stay_on_one_line(void **state)
{
	struct capture *c = *state;

	json_object_begin(&c->w);
	json_kv_object_begin(&c->w, "o");
	json_object_end(&c->w);
	json_kv_array_begin(&c->w, "a");
	json_array_end(&c->w);
	json_object_end(&c->w);
	assert_string_equal(output(c), "{\n  \"o\": {},\n  \"a\": []\n}\n");
}

static void integers_keep_every_digit(void **state)
{
	struct capture *c = *state;

	json_array_begin(&c->w);
	json_int(&c->w, INT64_MIN);
	json_int(&c->w, -1);
	json_uint(&c->w, UINT64_MAX);
	json_array_end(&c->w);
	assert_string_equal(output(c),
			    "[\n  -9223372036854775808,\n  -1,\n  18446744073709551615\n]\n");
}

static void doubles_read_back_exactly_and_nan_is_null(void **state)
{
	struct capture *c = *state;

	json_array_begin(&c->w);
	json_double(&c->w, 0.1);
	json_double(&c->w, 1.0 / 3.0);
	json_double(&c->w, 1500.25);
	json_double(&c->w, NAN);
	json_double(&c->w, INFINITY);
	json_double(&c->w, -INFINITY);
	json_array_end(&c->w);
	assert_string_equal(output(c),
			    "[\n  0.1,\n  0.33333333333333331,\n  1500.25,\n"
			    "  null,\n  null,\n  null\n]\n");
}

static void quotes_and_backslashes_are_escaped(void **state)
{
	(void)state;
	assert_string_equal(escaped("say \"hi\" \\o/"), "\"say \\\"hi\\\" \\\\o/\"");
	assert_string_equal(escaped(""), "\"\"");
	assert_string_equal(escaped("/"), "\"/\"");
}

static void control_characters_are_escaped(void **state)
{
	(void)state;
	assert_string_equal(escaped("a\nb\tc\rd\be\ff"), "\"a\\nb\\tc\\rd\\be\\ff\"");
	assert_string_equal(escaped("\x01\x1f\x7f"), "\"\\u0001\\u001f\\u007f\"");
}

static void valid_utf8_passes_through(void **state)
{
	(void)state;
	/* µs, en dash, euro sign, and a 4-byte emoji */
	assert_string_equal(escaped("500 \xc2\xb5s \xe2\x80\x93 \xe2\x82\xac \xf0\x9f\x98\x80"),
			    "\"500 \xc2\xb5s \xe2\x80\x93 \xe2\x82\xac \xf0\x9f\x98\x80\"");
}

static void javascript_line_separators_are_escaped(void **state)
{
	(void)state;
	assert_string_equal(escaped("a\xe2\x80\xa8z\xe2\x80\xa9"), "\"a\\u2028z\\u2029\"");
}

static void invalid_utf8_becomes_replacement_characters(void **state)
{
	(void)state;
	/* a lone continuation byte, a byte that never starts UTF-8 */
	assert_string_equal(escaped("a\x80z"), "\"a\\ufffdz\"");
	assert_string_equal(escaped("a\xffz"), "\"a\\ufffdz\"");
	/* a truncated 3-byte sequence is one maximal subpart: one U+FFFD */
	assert_string_equal(escaped("a\xe2\x82z"), "\"a\\ufffdz\"");
	/* truncated at the end of the string */
	assert_string_equal(escaped("a\xf0\x9f\x98"), "\"a\\ufffd\"");
	/* overlong '/', a UTF-16 surrogate, beyond U+10FFFF: each byte rejected */
	assert_string_equal(escaped("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
	assert_string_equal(escaped("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
	assert_string_equal(escaped("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
}

static void keys_are_escaped_like_strings(void **state)
{
	struct capture *c = *state;

	json_object_begin(&c->w);
	json_kv_int(&c->w, "a\"b\n", 1);
	json_object_end(&c->w);
	assert_string_equal(output(c), "{\n  \"a\\\"b\\n\": 1\n}\n");
}

static void a_null_string_is_written_as_null(void **state)
{
	struct capture *c = *state;

	json_object_begin(&c->w);
	json_kv_string(&c->w, "s", NULL);
	json_object_end(&c->w);
	assert_string_equal(output(c), "{\n  \"s\": null\n}\n");
}

static void escape_into_a_short_buffer_truncates_and_reports_the_length(void **state)
{
	char buf[4];

	(void)state;
	assert_int_equal(json_escape(buf, sizeof(buf), "abcdef"), 8);
	assert_string_equal(buf, "\"ab");
}

static void a_stream_error_is_reported_by_finish(void **state)
{
	struct json_writer w;
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	if (!f)
		skip();
	setvbuf(f, NULL, _IONBF, 0);
	json_init(&w, f);
	json_object_begin(&w);
	json_kv_string(&w, "k", "v");
	json_object_end(&w);
	assert_int_equal(json_finish(&w), -1);
	fclose(f);
}

static void one_doc(struct json_writer *w, const void *ctx)
{
	json_object_begin(w);
	json_kv_string(w, "what", ctx);
	json_object_end(w);
}

/* The one helper every --json goes through: a file, or its failure in one
 * sentence with errno (never printed). */
static void a_document_goes_to_a_file_or_says_why_not(void **state)
{
	char path[] = "/tmp/sqwave-test-json-doc.XXXXXX", err[512], buf[128];
	FILE *f;
	size_t n;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(json_write_document(path, one_doc, "doc", err, sizeof(err)), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(path);
	assert_string_equal(buf, "{\n  \"what\": \"doc\"\n}\n");
	errno = 0;
	assert_int_equal(json_write_document("/nonexistent-dir/x.json", one_doc, "x", err,
					     sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err, "cannot create /nonexistent-dir/x.json: No such file or directory");
	if (access("/dev/full", W_OK) == 0) {
		assert_int_equal(json_write_document("/dev/full", one_doc, "x", err, sizeof(err)), -1);
		assert_int_equal(errno, ENOSPC);
		assert_string_equal(err, "writing /dev/full failed: No space left on device");
	}
	/* no message buffer: errno alone */
	assert_int_equal(json_write_document("/nonexistent-dir/x.json", one_doc, "x", NULL, 0), -1);
	assert_int_equal(errno, ENOENT);
}

/* The stream form (a memory stream here, standard output for --json -)
 * writes what the file form writes, flushes and leaves the stream open; a
 * failed write is said in one sentence with the stream's name. */
static void a_document_on_a_stream_is_the_files_bytes_or_says_why_not(void **state)
{
	char *buf = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(json_write_stream(f, "memory", one_doc, "doc", err, sizeof(err)), 0);
	/* flushed: the bytes are there before the stream is closed */
	assert_int_equal(len, strlen("{\n  \"what\": \"doc\"\n}\n"));
	assert_string_equal(buf, "{\n  \"what\": \"doc\"\n}\n");
	/* and not closed: the caller's */
	assert_true(fputc('x', f) == 'x');
	fclose(f);
	free(buf);
	f = fopen("/dev/full", "w");
	if (!f)
		return;
	errno = 0;
	assert_int_equal(json_write_stream(f, "standard output", one_doc, "x", err, sizeof(err)), -1);
	assert_int_equal(errno, ENOSPC);
	assert_string_equal(err, "writing standard output failed: No space left on device");
	fclose(f);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(nested_containers_are_indented_by_two_spaces),
		T(empty_containers_stay_on_one_line),
		T(integers_keep_every_digit),
		T(doubles_read_back_exactly_and_nan_is_null),
		T(quotes_and_backslashes_are_escaped),
		T(control_characters_are_escaped),
		T(valid_utf8_passes_through),
		T(javascript_line_separators_are_escaped),
		T(invalid_utf8_becomes_replacement_characters),
		T(keys_are_escaped_like_strings),
		T(a_null_string_is_written_as_null),
		T(escape_into_a_short_buffer_truncates_and_reports_the_length),
		T(a_stream_error_is_reported_by_finish),
		T(a_document_goes_to_a_file_or_says_why_not),
		T(a_document_on_a_stream_is_the_files_bytes_or_says_why_not),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
