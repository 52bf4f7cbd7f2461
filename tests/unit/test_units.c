/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for units.c: duration parsing and formatting. */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "base/units.h"

#define US  INT64_C(1000)
#define MS  INT64_C(1000000)
#define SEC INT64_C(1000000000)

static int64_t parse_ok(const char *s, const char *bare)
{
	int64_t ns = -12345;

	if (units_parse_duration(s, bare, &ns) != 0)
		fail_msg("\"%s\" should parse", s);
	return ns;
}

static void parse_fails(const char *s, const char *bare, int want_errno)
{
	int64_t ns = -12345;

	errno = 0;
	if (units_parse_duration(s, bare, &ns) != -1)
		fail_msg("\"%s\" should not parse (got %" PRId64 ")", s, ns);
	assert_int_equal(errno, want_errno);
	assert_int_equal(ns, -12345);
}

static void every_unit_is_understood(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("10ns", NULL), 10);
	assert_int_equal(parse_ok("500us", NULL), 500 * US);
	assert_int_equal(parse_ok("500\xc2\xb5s", NULL), 500 * US);   /* U+00B5 */
	assert_int_equal(parse_ok("500 \xce\xbcs", NULL), 500 * US);  /* U+03BC */
	assert_int_equal(parse_ok("2ms", NULL), 2 * MS);
	assert_int_equal(parse_ok("3s", NULL), 3 * SEC);
	assert_int_equal(parse_ok("2m", NULL), 120 * SEC);
	assert_int_equal(parse_ok("2min", NULL), 120 * SEC);
	assert_int_equal(parse_ok("1h", NULL), 3600 * SEC);
	assert_int_equal(parse_ok("1d", NULL), 86400 * SEC);
}

static void fractions_are_exact(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("0.5ms", NULL), 500 * US);
	assert_int_equal(parse_ok("1.5s", NULL), 1500 * MS);
	assert_int_equal(parse_ok("0.1s", NULL), 100 * MS);
	assert_int_equal(parse_ok(".25ms", NULL), 250 * US);
	assert_int_equal(parse_ok("5.ms", NULL), 5 * MS);
	assert_int_equal(parse_ok("0.000000001s", NULL), 1);
	assert_int_equal(parse_ok("1.500000000000000000000s", NULL), 1500 * MS);
	assert_int_equal(parse_ok("0.5h", NULL), 1800 * SEC);
	assert_int_equal(parse_ok("0.001m", NULL), 60 * MS);
}

static void a_bare_number_is_read_in_the_bare_unit(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("500", "us"), 500 * US);
	assert_int_equal(parse_ok("60", "s"), 60 * SEC);
	assert_int_equal(parse_ok("1.5", "ms"), 1500 * US);
	assert_int_equal(parse_ok("0", NULL), 0);
	parse_fails("5", NULL, EINVAL);
}

static void spaces_around_and_between_are_allowed(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("  500 us  ", NULL), 500 * US);
	assert_int_equal(parse_ok("\t1h", NULL), 3600 * SEC);
}

static void garbage_negative_and_empty_are_rejected(void **state)
{
	(void)state;
	parse_fails("", "us", EINVAL);
	parse_fails("   ", "us", EINVAL);
	parse_fails("-5us", "us", EINVAL);
	parse_fails("+5us", "us", EINVAL);
	parse_fails("us", "us", EINVAL);
	parse_fails(".", "us", EINVAL);
	parse_fails("5 parsecs", "us", EINVAL);
	parse_fails("5us5", "us", EINVAL);
	parse_fails("5 u s", "us", EINVAL);
	parse_fails("5US", "us", EINVAL);
	parse_fails("1e3us", "us", EINVAL);
	parse_fails("0x10", "us", EINVAL);
	parse_fails("1,5ms", "us", EINVAL);
	parse_fails("nan", "us", EINVAL);
}

static void finer_than_a_nanosecond_is_rejected_not_rounded(void **state)
{
	(void)state;
	parse_fails("1.5ns", NULL, EINVAL);
	parse_fails("0.0000000001s", NULL, EINVAL);
	parse_fails("0.0000000000000000001d", NULL, EINVAL);
}

static void overflow_is_a_range_error(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("9223372036854775807ns", NULL), INT64_MAX);
	parse_fails("9223372036854775808ns", NULL, ERANGE);
	parse_fails("99999999999999999999999999s", NULL, ERANGE);
	parse_fails("106752d", NULL, ERANGE);
	parse_fails("9223372036.854775808s", NULL, ERANGE);
}

static void formatting_picks_the_shortest_exact_form(void **state)
{
	static const struct {
		int64_t ns;
		const char *text;
	} cases[] = {
		{ 0, "0" },
		{ 1, "1ns" },
		{ 500 * US, "500us" },
		{ 1500 * US, "1.5ms" },
		{ 1500, "1.5us" },
		{ 60 * SEC, "60s" },
		{ 3600 * SEC, "1h" },
		{ 5400 * SEC, "1.5h" },
		{ 10 * SEC, "10s" },
		{ 1 * MS, "1ms" },
		{ 123456789, "123456789ns" },
		{ 414 * US, "414us" },
		{ -500 * US, "-500us" },
	};
	char buf[48];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(units_format_duration(cases[i].ns, buf, sizeof(buf)),
				    cases[i].text);
}

static void formatting_truncates_like_snprintf(void **state)
{
	char buf[4];

	(void)state;
	assert_string_equal(units_format_duration(500 * US, buf, sizeof(buf)), "500");
}

static void format_then_parse_gives_the_same_value(void **state)
{
	unsigned seed = (unsigned)time(NULL);
	char buf[48];
	int64_t back;
	int i;

	(void)state;
	printf("random seed %u\n", seed);
	srand(seed);
	for (i = 0; i < 200000; i++) {
		/* Mix magnitudes: round numbers as well as arbitrary ones. */
		int64_t v = ((int64_t)rand() << 31) ^ rand();
		static const int64_t scale[] = { 1, 1000, 1000000, 1000000000, 3600000000000 };

		if (i & 1)
			v = (v % 100000) * scale[(i / 2) % 5];
		if (v < 0)
			v = -v;
		units_format_duration(v, buf, sizeof(buf));
		if (units_parse_duration(buf, NULL, &back) != 0 || back != v)
			fail_msg("%" PRId64 " -> \"%s\" does not read back (seed %u)", v, buf, seed);
	}
	units_format_duration(INT64_MAX, buf, sizeof(buf));
	assert_int_equal(units_parse_duration(buf, NULL, &back), 0);
	assert_int_equal(back, INT64_MAX);
}

static void unit_names_map_to_nanoseconds(void **state)
{
	(void)state;
	assert_int_equal(units_unit_ns("us"), 1000);
	assert_int_equal(units_unit_ns("s"), SEC);
	assert_int_equal(units_unit_ns("parsec"), 0);
	assert_int_equal(units_unit_ns(NULL), 0);
}

static void a_value_is_printed_with_the_digits_its_error_leaves(void **state)
{
	(void)state;
	assert_string_equal(UNITS_US_ERR(500736, 0), "500.736");
	assert_string_equal(UNITS_US_ERR(500736, 5), "500.74 ");
	assert_string_equal(UNITS_US_ERR(500736, 6), "500.7  ");
	assert_string_equal(UNITS_US_ERR(500749, 50), "500.7  ");
	assert_string_equal(UNITS_US_ERR(500750, 50), "500.8  ");
	assert_string_equal(UNITS_US_ERR(500736, 51), "501    ");
	assert_string_equal(UNITS_US_ERR(-60, 0), "-0.060");
	assert_string_equal(UNITS_US_ERR(-65, 4), "-0.07 ");
	assert_string_equal(UNITS_US_ERR(-11405, 20), "-11.4  ");
	/* rounding to zero drops the sign */
	assert_string_equal(UNITS_US_ERR(-4, 3), "0.00 ");
	assert_string_equal(UNITS_US_ERR(999996, 5), "1000.00 ");
	assert_string_equal(UNITS_US_ERR(INT64_MIN, 1000), "-9223372036854776    ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_unit_is_understood),
		cmocka_unit_test(fractions_are_exact),
		cmocka_unit_test(a_bare_number_is_read_in_the_bare_unit),
		cmocka_unit_test(spaces_around_and_between_are_allowed),
		cmocka_unit_test(garbage_negative_and_empty_are_rejected),
		cmocka_unit_test(finer_than_a_nanosecond_is_rejected_not_rounded),
		cmocka_unit_test(overflow_is_a_range_error),
		cmocka_unit_test(formatting_picks_the_shortest_exact_form),
		cmocka_unit_test(formatting_truncates_like_snprintf),
		cmocka_unit_test(format_then_parse_gives_the_same_value),
		cmocka_unit_test(unit_names_map_to_nanoseconds),
		cmocka_unit_test(a_value_is_printed_with_the_digits_its_error_leaves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
