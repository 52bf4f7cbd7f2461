/* SPDX-License-Identifier: GPL-2.0-or-later */
/* base/gunzip: what zlib compresses (every level and strategy, so every
 * block type; header fields; several members) comes back byte for byte;
 * data cut short, bit-flipped or past the bound is refused, never read out
 * of bounds. zlib compresses in this test only. The seed is printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "base/gunzip.h"

static unsigned seed;

/* @len bytes of gzip of @data by zlib at @level with @strategy, and header
 * fields (name, comment, extra, header CRC) when @fields. */
static unsigned char *gz(const void *data, size_t len, int level, int strategy, bool fields,
			 size_t *gzlen)
{
	size_t cap = len + len / 8 + 1024;
	unsigned char *out = malloc(cap);
	gz_header h = { 0 };
	z_stream z = { 0 };

	assert_non_null(out);
	assert_int_equal(deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, strategy), Z_OK);
	if (fields) {
		h.name = (Bytef *)"config";
		h.comment = (Bytef *)"a comment";
		h.extra = (Bytef *)"XY\2\0ab";
		h.extra_len = 6;
		h.hcrc = 1;
		assert_int_equal(deflateSetHeader(&z, &h), Z_OK);
	}
	z.next_in = (Bytef *)(uintptr_t)data;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*gzlen = z.total_out;
	deflateEnd(&z);
	return out;
}

/* Text like a kernel config: long runs of repeats at every distance. */
static char *config_like(size_t len)
{
	char *s = malloc(len + 64);
	size_t n = 0;
	unsigned i = 0;

	assert_non_null(s);
	while (n < len) {
		n += (size_t)sprintf(s + n, i % 7 ? "CONFIG_OPTION_%u=y\n" : "# CONFIG_OTHER_%u is not set\n",
				     (unsigned)rand() % 5000);
		i++;
	}
	return s;
}

static void expect_same(const unsigned char *z, size_t zlen, const void *data, size_t len,
			const char *what)
{
	char *out = NULL, err[256];
	size_t outlen = 0;

	if (gunzip_mem(z, zlen, len + 1, &out, &outlen, err, sizeof(err)) < 0)
		fail_msg("seed %u, %s, %zu bytes: %s", seed, what, len, err);
	if (outlen != len || memcmp(out, data, len) || out[len] != '\0')
		fail_msg("seed %u, %s, %zu bytes: inflated to something else (%zu bytes)", seed, what,
			 len, outlen);
	free(out);
}

static void what_zlib_compresses_comes_back_at_every_level_and_strategy(void **state)
{
	static const int strategies[] = { Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE,
					  Z_FIXED };
	static const size_t sizes[] = { 0, 1, 100, 40000, 300000 };
	size_t si, i, zlen;
	int level, k;

	(void)state;
	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		size_t len = sizes[si];
		char *text = config_like(len);
		unsigned char *bytes = malloc(len + 1);

		assert_non_null(bytes);
		for (i = 0; i < len; i++)	/* random, and runs past 32 KiB back */
			bytes[i] = i > 40000 && i % 3 ? bytes[i - 32768] : (unsigned char)rand();
		for (level = 0; level <= 9; level++) {
			for (k = 0; k < 5; k++) {
				unsigned char *z = gz(text, len, level, strategies[k], k == 1, &zlen);
				char what[64];

				snprintf(what, sizeof(what), "text, level %d, strategy %d", level, k);
				expect_same(z, zlen, text, len, what);
				free(z);
				z = gz(bytes, len, level, strategies[k], false, &zlen);
				snprintf(what, sizeof(what), "bytes, level %d, strategy %d", level, k);
				expect_same(z, zlen, bytes, len, what);
				free(z);
			}
		}
		free(text);
		free(bytes);
	}
}

static void members_one_after_another_are_one_text(void **state)
{
	size_t la, lb, za, zb;
	char *a = config_like(5000), *b = config_like(7000);
	unsigned char *ga, *gb, *both;
	char *joined;

	(void)state;
	la = strlen(a);
	lb = strlen(b);
	ga = gz(a, la, 6, Z_DEFAULT_STRATEGY, false, &za);
	gb = gz(b, lb, 1, Z_DEFAULT_STRATEGY, true, &zb);
	both = malloc(za + zb);
	joined = malloc(la + lb);
	assert_true(both && joined);
	memcpy(both, ga, za);
	memcpy(both + za, gb, zb);
	memcpy(joined, a, la);
	memcpy(joined + la, b, lb);
	expect_same(both, za + zb, joined, la + lb, "two members");
	free(a);
	free(b);
	free(ga);
	free(gb);
	free(both);
	free(joined);
}

static void the_bound_is_kept_to_the_byte(void **state)
{
	char *text = config_like(50000), *out = NULL, err[256];
	size_t len = strlen(text), zlen, outlen;
	unsigned char *z = gz(text, len, 9, Z_DEFAULT_STRATEGY, false, &zlen);

	(void)state;
	assert_int_equal(gunzip_mem(z, zlen, len, &out, &outlen, err, sizeof(err)), 0);
	assert_int_equal(outlen, len);
	free(out);
	assert_int_equal(gunzip_mem(z, zlen, len - 1, &out, &outlen, err, sizeof(err)), -1);
	assert_int_equal(errno, EFBIG);
	assert_non_null(strstr(err, "inflates to more than"));
	free(z);
	free(text);
}

/* Every prefix, and random bit flips: refused (EINVAL, or EFBIG when a
 * flip makes it inflate past the bound) or, when the flip
 * only touched what the data does not depend on (a header's time), the
 * same text; never anything else. Under ASan, never a read out of bounds. */
static void cut_or_flipped_data_is_refused_never_misread(void **state)
{
	char *text = config_like(20000), *out = NULL, err[256];
	size_t len = strlen(text), zlen, cut, outlen;
	unsigned char *z = gz(text, len, 6, Z_DEFAULT_STRATEGY, true, &zlen), *copy;
	int round;

	(void)state;
	for (cut = 0; cut < zlen; cut++) {
		copy = malloc(cut ? cut : 1);	/* exactly the prefix: ASan sees a byte past it */
		assert_non_null(copy);
		memcpy(copy, z, cut);
		if (gunzip_mem(copy, cut, len + 1, &out, &outlen, err, sizeof(err)) == 0)
			fail_msg("a prefix of %zu of %zu bytes was accepted", cut, zlen);
		assert_int_equal(errno, EINVAL);
		free(copy);
	}
	copy = malloc(zlen);
	assert_non_null(copy);
	for (round = 0; round < 3000; round++) {
		size_t at = (size_t)rand() % zlen;

		memcpy(copy, z, zlen);
		copy[at] ^= (unsigned char)(1u << (rand() % 8));
		if (gunzip_mem(copy, zlen, len + 1, &out, &outlen, err, sizeof(err)) == 0) {
			if (outlen != len || memcmp(out, text, len))
				fail_msg("seed %u: a bit flipped at byte %zu inflated to other text", seed, at);
			free(out);
		} else if (errno != EINVAL && errno != EFBIG) {	/* a flipped length can run long */
			fail_msg("seed %u: a bit flipped at byte %zu: errno %d (%s)", seed, at, errno, err);
		}
	}
	/* the trailer's CRC and length are checked */
	memcpy(copy, z, zlen);
	copy[zlen - 8] ^= 1;
	assert_int_equal(gunzip_mem(copy, zlen, len + 1, &out, &outlen, err, sizeof(err)), -1);
	assert_string_equal(err, "corrupt gzip data: its CRC-32 does not match its data");
	memcpy(copy, z, zlen);
	copy[zlen - 4] ^= 1;
	assert_int_equal(gunzip_mem(copy, zlen, len + 1, &out, &outlen, err, sizeof(err)), -1);
	assert_string_equal(err, "corrupt gzip data: its length does not match its data");
	assert_int_equal(gunzip_mem("plain text", 10, 100, &out, &outlen, err, sizeof(err)), -1);
	assert_string_equal(err, "corrupt gzip data: not gzip data");
	assert_false(gunzip_is_gzip("plain text", 10));
	assert_true(gunzip_is_gzip(z, zlen));
	free(copy);
	free(z);
	free(text);
}

static int setup(void **state)
{
	(void)state;
	seed = (unsigned)time(NULL);
	printf("    seed %u\n", seed);
	srand(seed);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(what_zlib_compresses_comes_back_at_every_level_and_strategy),
		cmocka_unit_test(members_one_after_another_are_one_text),
		cmocka_unit_test(the_bound_is_kept_to_the_byte),
		cmocka_unit_test(cut_or_flipped_data_is_refused_never_misread),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
