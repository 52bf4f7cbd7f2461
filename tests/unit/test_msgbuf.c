/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for message buffers: set, append, no buffer, and a text cut
 * short that says so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "msgbuf.h"

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
		{ '\\', 0, "\\\\" }, { '\\', MSGBUF_ESC_QUOTED, "\\\\" },
		{ '"', 0, "\"" }, { '"', MSGBUF_ESC_QUOTED, "\\\"" },
		{ '\n', 0, "\\x0a" }, { '\n', MSGBUF_ESC_QUOTED, "\\n" },
		{ '\t', MSGBUF_ESC_QUOTED, "\\x09" }, { 0x01, 0, "\\x01" },
		{ 0x1f, 0, "\\x1f" }, { 0x7f, 0, "\\x7f" }, { 0, 0, "\\x00" },
	};
	char out[MSGBUF_ESC_MAX + 1];
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(out, '#', sizeof(out));
		n = msgbuf_escape_char(out, cases[i].ch, cases[i].flags);
		assert_true(n <= MSGBUF_ESC_MAX);
		assert_int_equal(out[MSGBUF_ESC_MAX], '#');
		out[n] = '\0';
		assert_string_equal(out, cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_message_is_set_then_appended),
		cmocka_unit_test(without_a_buffer_nothing_is_written),
		cmocka_unit_test(a_text_cut_short_ends_in_dots_and_never_overruns),
		cmocka_unit_test(a_character_is_escaped_for_one_line_of_text),
	};

	return cmocka_run_group_tests_name("msgbuf", tests, NULL, NULL);
}
