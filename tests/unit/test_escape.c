/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the escapers (terminal, XML) and the UTF-8 walk they share:
 * what each escapes, and a cut that the caller is told of. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/utf8.h"

/* escape_xml() of @s into a string the caller frees; *@whole its result. */
static char *xml(const char *s, size_t max, unsigned flags, bool *whole)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	*whole = escape_xml(f, s, max, flags);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void xml_markup_becomes_entities_and_apostrophes_only_when_asked(void **state)
{
	bool whole;
	char *s;

	(void)state;
	s = xml("a<b>&\"c'", SIZE_MAX, 0, &whole);
	assert_string_equal(s, "a&lt;b&gt;&amp;&quot;c'");
	assert_true(whole);
	free(s);
	s = xml("it's", SIZE_MAX, ESCAPE_XML_APOS, &whole);
	assert_string_equal(s, "it&apos;s");
	free(s);
	/* a control character stays unless the SVG cannot carry it */
	s = xml("a\x01\tb", SIZE_MAX, 0, &whole);
	assert_string_equal(s, "a\x01\tb");
	free(s);
	s = xml("a\x01\tb", SIZE_MAX, ESCAPE_XML_DROP_CTL, &whole);
	assert_string_equal(s, "a\tb");
	free(s);
	s = xml(NULL, SIZE_MAX, 0, &whole);
	assert_string_equal(s, "");
	assert_true(whole);
	free(s);
}

static void an_xml_text_cut_at_max_characters_says_so_and_keeps_utf8_whole(void **state)
{
	bool whole;
	char *s;

	(void)state;
	/* "µ" is two bytes but one character: three characters fit */
	s = xml("a\xc2\xb5" "bc", 3, 0, &whole);
	assert_string_equal(s, "a\xc2\xb5" "b...");
	assert_false(whole);
	free(s);
	s = xml("abc", 3, 0, &whole);
	assert_string_equal(s, "abc");
	assert_true(whole);
	free(s);
}

static void a_terminal_text_escapes_controls_and_reports_a_cut(void **state)
{
	char buf[8];

	(void)state;
	assert_true(escape_terminal("a\x1b[2Jb", buf, sizeof(buf)) == false);
	/* "a\x1b" is 5 bytes, "[2J" would need 8 + NUL: cut before it */
	assert_string_equal(buf, "a\\x1b[2");
	assert_true(escape_terminal("a\x1b", buf, sizeof(buf)));
	assert_string_equal(buf, "a\\x1b");
	/* C1 controls and bytes that are not UTF-8 are escaped, UTF-8 kept */
	assert_true(escape_terminal("\xc2\x9b\xff\xc2\xb5", buf, sizeof(buf)) == false);
	assert_string_equal(buf, "\\xc2");	/* the second escape needs 8 + NUL */
	assert_true(escape_terminal("\xff\xc2\xb5", buf, sizeof(buf)));
	assert_string_equal(buf, "\\xff\xc2\xb5");
	assert_false(escape_terminal("x", buf, 0));
	assert_true(escape_terminal(NULL, buf, sizeof(buf)));
	assert_string_equal(buf, "");
}

static void an_ill_formed_sequence_reports_its_maximal_invalid_subpart(void **state)
{
	uint32_t cp;

	(void)state;
	assert_int_equal(utf8_next((const unsigned char *)"\xe2\x82\xac", 3, &cp), 3);
	assert_int_equal(cp, 0x20ac);
	/* E2 82 then 'x': the two bytes are one replacement, not two */
	assert_int_equal(utf8_next((const unsigned char *)"\xe2\x82x", 3, &cp), -2);
	assert_int_equal(utf8_next((const unsigned char *)"\xe2\x82\xac", 2, &cp), -2);
	assert_int_equal(utf8_next((const unsigned char *)"\xc0\xaf", 2, &cp), -1);
	assert_int_equal(utf8_next((const unsigned char *)"\xed\xa0\x80", 3, &cp), -1);
	assert_int_equal(utf8_next((const unsigned char *)"a", 0, &cp), 0);
	assert_int_equal(utf8_chars("a\xc2\xb5\xe2\x82\xac"), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(xml_markup_becomes_entities_and_apostrophes_only_when_asked),
		cmocka_unit_test(an_xml_text_cut_at_max_characters_says_so_and_keeps_utf8_whole),
		cmocka_unit_test(a_terminal_text_escapes_controls_and_reports_a_cut),
		cmocka_unit_test(an_ill_formed_sequence_reports_its_maximal_invalid_subpart),
	};

	return cmocka_run_group_tests_name("escape", tests, NULL, NULL);
}
