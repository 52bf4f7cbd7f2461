/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for message buffers: set, append, no buffer, and a text cut
 * short that says so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/msgbuf.h"
#include "base/escape.h"
#include "base/utf8.h"

static void a_message_is_set_then_appended(void **state)
{
	char buf[64] = "old text";

	(void)state;
	msgbuf_set(buf, sizeof(buf), "line %d", 7);
	assert_string_equal(buf, "line 7");
	msgbuf_add(buf, sizeof(buf), ": %s", "bad value");
	assert_string_equal(buf, "line 7: bad value");
}

static void without_a_buffer_nothing_is_written(void **state)
{
	char buf[4] = "abc";

	(void)state;
	msgbuf_set(NULL, 100, "x");
	msgbuf_add(NULL, 100, "x");
	msgbuf_set(buf, 0, "xyz");
	msgbuf_add(buf, 0, "xyz");
	assert_string_equal(buf, "abc");
}

static void a_text_cut_short_ends_in_dots_and_never_overruns(void **state)
{
	char buf[16];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	msgbuf_set(buf, 12, "%s", "a sentence too long to fit");
	assert_string_equal(buf, "a senten...");
	assert_int_equal(buf[12], 'x');
	msgbuf_add(buf, 12, "more");       /* full: unchanged */
	assert_string_equal(buf, "a senten...");
	msgbuf_set(buf, 12, "short");
	msgbuf_add(buf, 12, " and longer");
	assert_string_equal(buf, "short an...");
	msgbuf_set(buf, 12, "%s", "exactly 11!");
	assert_string_equal(buf, "exactly 11!");
}

/* Every byte escaped alone, both ways; what a quoted value adds. */
static void a_character_is_escaped_for_one_line_of_text(void **state)
{
	static const struct {
		unsigned char ch;
		unsigned flags;
		const char *want;
	} cases[] = {
		{ 'a', 0, "a" }, { ' ', 0, " " }, { '~', 0, "~" }, { 0xb5, 0, "\xb5" },
		{ '\\', 0, "\\\\" }, { '\\', ESCAPE_QUOTED, "\\\\" },
		{ '"', 0, "\"" }, { '"', ESCAPE_QUOTED, "\\\"" },
		{ '\n', 0, "\\x0a" }, { '\n', ESCAPE_QUOTED, "\\n" },
		{ '\t', ESCAPE_QUOTED, "\\x09" }, { 0x01, 0, "\\x01" },
		{ 0x1f, 0, "\\x1f" }, { 0x7f, 0, "\\x7f" }, { 0, 0, "\\x00" },
	};
	char out[ESCAPE_CHAR_MAX + 1];
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(out, '#', sizeof(out));
		n = escape_char(out, cases[i].ch, cases[i].flags);
		assert_true(n <= ESCAPE_CHAR_MAX);
		assert_int_equal(out[ESCAPE_CHAR_MAX], '#');
		out[n] = '\0';
		assert_string_equal(out, cases[i].want);
	}
}

#define DEC(s, avail) utf8_decode((const unsigned char *)(s), (avail), &cp)

/* Well-formed UTF-8 decodes to its code point; every ill-formed kind is 0. */
static void utf8_is_decoded_and_every_ill_formed_kind_refused(void **state)
{
	uint32_t cp = 0;

	(void)state;
	assert_int_equal(DEC("A", 1), 1);
	assert_int_equal(cp, 0x41);
	assert_int_equal(DEC("\xc3\xa9", 2), 2);                 /* U+00E9 */
	assert_int_equal(cp, 0xe9);
	assert_int_equal(DEC("\xe2\x82\xac", 3), 3);            /* U+20AC */
	assert_int_equal(cp, 0x20ac);
	assert_int_equal(DEC("\xf0\x9f\x98\x80", 4), 4);       /* U+1F600 */
	assert_int_equal(cp, 0x1f600);
	assert_int_equal(DEC("\xf4\x8f\xbf\xbf", 4), 4);       /* U+10FFFF */
	assert_int_equal(DEC("\xc3\xa9", 1), 0);                 /* cut short */
	assert_int_equal(DEC("", 0), 0);
	assert_int_equal(DEC("\xc0\x80", 2), 0);                 /* overlong */
	assert_int_equal(DEC("\xe0\x80\x80", 3), 0);            /* overlong */
	assert_int_equal(DEC("\xf0\x80\x80\x80", 4), 0);       /* overlong */
	assert_int_equal(DEC("\xed\xa0\x80", 3), 0);            /* surrogate */
	assert_int_equal(DEC("\xf4\x90\x80\x80", 4), 0);       /* beyond U+10FFFF */
	assert_int_equal(DEC("\xc3\x41", 2), 0);                 /* no continuation */
	assert_int_equal(DEC("\x80", 1), 0);                      /* lone continuation */
}

/* A text built in pieces: each piece whole or not at all, the dots and the
 * NUL always inside the buffer, nothing taken after the cut. */
static void a_text_built_in_pieces_is_cut_between_pieces_inside_its_buffer(void **state)
{
	struct {
		char buf[12];
		char guard[8];
	} b;
	struct msgbuf_out o;
	int i;

	(void)state;
	memset(&b, 'x', sizeof(b));
	msgbuf_out_init(&o, b.buf, sizeof(b.buf));
	assert_string_equal(b.buf, "");
	msgbuf_out_add(&o, "%d", 1234);
	msgbuf_out_put(&o, "ab", 2);
	assert_string_equal(b.buf, "1234ab");
	assert_false(o.cut);
	/* 6 + 3 would leave no room for "..." and the NUL: cut before it */
	msgbuf_out_add(&o, "%s", "cde");
	assert_true(o.cut);
	assert_string_equal(b.buf, "1234ab...");
	msgbuf_out_put(&o, "z", 1);	/* after the cut: nothing */
	msgbuf_out_add(&o, "%s", "z");
	assert_string_equal(b.buf, "1234ab...");
	for (i = 0; i < 8; i++)
		assert_int_equal(b.guard[i], 'x');

	/* a piece that fits with room for the dots is taken */
	msgbuf_out_init(&o, b.buf, sizeof(b.buf));
	msgbuf_out_add(&o, "%s", "12345678");
	assert_false(o.cut);
	assert_string_equal(b.buf, "12345678");

	/* escapes are pieces: never half an escape before the dots */
	msgbuf_out_init(&o, b.buf, sizeof(b.buf));
	for (i = 0; i < 5; i++)
		msgbuf_out_char(&o, 0x01, 0);
	assert_string_equal(b.buf, "\\x01\\x01...");
	/* the smallest buffer holds just the dots */
	msgbuf_out_init(&o, b.buf, 4);
	msgbuf_out_put(&o, "a", 1);
	assert_string_equal(b.buf, "...");
	for (i = 0; i < 8; i++)
		assert_int_equal(b.guard[i], 'x');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_message_is_set_then_appended),
		cmocka_unit_test(without_a_buffer_nothing_is_written),
		cmocka_unit_test(a_text_cut_short_ends_in_dots_and_never_overruns),
		cmocka_unit_test(a_character_is_escaped_for_one_line_of_text),
		cmocka_unit_test(utf8_is_decoded_and_every_ill_formed_kind_refused),
		cmocka_unit_test(a_text_built_in_pieces_is_cut_between_pieces_inside_its_buffer),
	};

	return cmocka_run_group_tests_name("msgbuf", tests, NULL, NULL);
}
