/* SPDX-License-Identifier: GPL-2.0-or-later */
/* base/crc32: the table is the polynomial's, the known check values come
 * out, a CRC continues across pieces, and on random buffers it is zlib's
 * crc32() (zlib in this test only: the library no longer links it for the
 * log). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "base/crc32.c"	/* the table */

static void the_table_is_the_reflected_polynomial_bit_by_bit(void **state)
{
	uint32_t n, c;
	int k;

	(void)state;
	for (n = 0; n < 256; n++) {
		c = n;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		if (crc32_table[n] != c)
			fail_msg("table[%u] is %08x, the polynomial gives %08x", n, crc32_table[n], c);
	}
}

static void the_known_check_values_come_out(void **state)
{
	static const unsigned char zeros[32];
	static const char fox[] = "The quick brown fox jumps over the lazy dog";

	(void)state;
	assert_int_equal(crc32_update(0, "", 0), 0);
	assert_int_equal(crc32_update(0, "123456789", 9), 0xCBF43926u);	/* the CRC-32 check value */
	assert_int_equal(crc32_update(0, "a", 1), 0xE8B7BE43u);
	assert_int_equal(crc32_update(0, fox, strlen(fox)), 0x414FA339u);
	assert_int_equal(crc32_update(0, zeros, sizeof(zeros)), 0x190A55ADu);
	/* nothing added changes nothing */
	assert_int_equal(crc32_update(0xCBF43926u, "x", 0), 0xCBF43926u);
}

static void a_crc_continues_across_pieces(void **state)
{
	(void)state;
	assert_int_equal(crc32_update(crc32_update(0, "1234", 4), "56789", 5), 0xCBF43926u);
	assert_int_equal(crc32_update(crc32_update(crc32_update(0, "1", 1), "", 0), "23456789", 8),
			 0xCBF43926u);
}

/* Random buffers of every length up to 300, and some long ones, whole and
 * in two pieces split anywhere: what zlib says. The seed is printed. */
static void random_buffers_give_what_zlib_gives(void **state)
{
	unsigned seed = (unsigned)time(NULL);
	unsigned char buf[70000];
	size_t len, i, cut;
	int round;

	(void)state;
	printf("    seed %u\n", seed);
	srand(seed);
	for (round = 0; round < 400; round++) {
		len = round < 300 ? (size_t)round : (size_t)rand() % sizeof(buf);
		for (i = 0; i < len; i++)
			buf[i] = (unsigned char)rand();
		cut = len ? (size_t)rand() % (len + 1) : 0;
		uLong z = crc32(0L, buf, (uInt)len);
		uint32_t whole = crc32_update(0, buf, len);
		uint32_t split = crc32_update(crc32_update(0, buf, cut), buf + cut, len - cut);

		if (whole != (uint32_t)z || split != (uint32_t)z)
			fail_msg("seed %u, length %zu, cut %zu: %08x and %08x, zlib %08lx", seed, len,
				 cut, whole, split, z);
		/* and continued from zlib's value, as zlib continues */
		assert_int_equal(crc32_update((uint32_t)z, buf, cut),
				 (uint32_t)crc32(z, buf, (uInt)cut));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_table_is_the_reflected_polynomial_bit_by_bit),
		cmocka_unit_test(the_known_check_values_come_out),
		cmocka_unit_test(a_crc_continues_across_pieces),
		cmocka_unit_test(random_buffers_give_what_zlib_gives),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
