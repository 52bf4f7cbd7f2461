/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer entry point for the gzip reader (base/gunzip: check's
 * /proc/config.gz without zlib), held against zlib: the first byte picks
 * the bound on the output and the mode, the rest is the data.
 *   even: the bytes as gzip data. Whatever they are, a bounded, terminated
 *         output or one refusal (EINVAL, EFBIG, ENOMEM) with a sentence; and
 *         where zlib inflates them as one whole member within the bound,
 *         the same bytes.
 *   odd:  the bytes compressed by zlib (gzip wrapper, the level and the
 *         strategy from the first byte), sometimes twice as two members:
 *         inflated back to the bytes themselves.
 * Build with `make fuzz`; seeds: none needed (zlib makes valid data from
 * any bytes), tests/fuzz/seeds/fuzz_gunzip for inputs that found bugs. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/gunzip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The output bounds a first byte picks (bits 1-3). */
static const size_t bounds[] = { 0, 1, 100, 4096, 65536, 1u << 20, 1u << 22, 1u << 22 };

/* zlib's inflate of @in as one gzip member that is all of @in: its length,
 * or -1 when zlib refuses it, it is not the whole input, or it is longer
 * than @max. @out holds @max + 1 bytes. */
static long zlib_inflate(const uint8_t *in, size_t len, uint8_t *out, size_t max)
{
	z_stream z;
	long n = -1;
	int r;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return -1;
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)(max + 1);
	r = inflate(&z, Z_FINISH);
	if (r == Z_STREAM_END && z.avail_in == 0 && z.total_out <= max)
		n = (long)z.total_out;
	inflateEnd(&z);
	return n;
}

/* @in compressed by zlib into @out (@cap bytes) as one gzip member: its
 * length, or 0 when it did not fit. */
static size_t zlib_deflate(const uint8_t *in, size_t len, int level, int strategy, uint8_t *out,
			   size_t cap)
{
	z_stream z;
	size_t n = 0;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, level, Z_DEFLATED, 16 + MAX_WBITS, 8, strategy) != Z_OK)
		return 0;
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) == Z_STREAM_END)
		n = z.total_out;
	deflateEnd(&z);
	return n;
}

static void check_raw(const uint8_t *in, size_t len, size_t max)
{
	char err[256] = "", *out = NULL;
	size_t outlen = 0;
	uint8_t *ref = malloc(max + 1);
	long n;

	if (!ref)
		return;
	n = zlib_inflate(in, len, ref, max);
	if (gunzip_mem(in, len, max, &out, &outlen, err, sizeof(err)) == 0) {
		if (outlen > max || out[outlen] != '\0')
			abort();	/* past its bound, or not terminated */
		if (n >= 0 && ((size_t)n != outlen || memcmp(out, ref, outlen)))
			abort();	/* not what zlib inflates */
		free(out);
	} else {
		if (!err[0] || (errno != EINVAL && errno != EFBIG && errno != ENOMEM))
			abort();	/* a refusal without its sentence or its errno */
		if (n >= 0 && errno != ENOMEM)
			abort();	/* zlib inflates it within the bound */
	}
	free(ref);
}

static void check_round_trip(const uint8_t *in, size_t len, unsigned pick)
{
	static const int strategies[] = { Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE,
					  Z_FIXED };
	size_t cap = len + len / 8 + 128, n, m = 0, outlen = 0;
	uint8_t *gz = malloc(2 * cap);
	char err[256] = "", *out = NULL;
	bool two = pick & 0x40;

	if (!gz)
		return;
	n = zlib_deflate(in, len, (int)(pick >> 1) % 10, strategies[(pick >> 4) % 5], gz, cap);
	if (n && two)	/* a second member: the same bytes again */
		m = zlib_deflate(in, len, 9, Z_DEFAULT_STRATEGY, gz + n, cap);
	if (!n || (two && !m)) {
		free(gz);
		return;
	}
	if (gunzip_mem(gz, n + m, 2 * len, &out, &outlen, err, sizeof(err)) != 0)
		abort();	/* zlib's own gzip data refused */
	if (outlen != (two ? 2 * len : len) || memcmp(out, in, len) ||
	    (two && memcmp(out + len, in, len)))
		abort();	/* not the bytes that went in */
	free(out);
	free(gz);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned pick;

	if (!size)
		return 0;
	pick = data[0];
	if (pick & 1)
		check_round_trip(data + 1, size - 1, pick);
	else
		check_raw(data + 1, size - 1, bounds[(pick >> 1) & 7]);
	return 0;
}
