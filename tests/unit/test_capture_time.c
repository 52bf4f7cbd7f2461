/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for capture time arithmetic (src/lab/capture/capture.c): 64x64/64 division
 * without __int128, sample times at any rate, sample-rate spellings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "capture/capture_private.h"

static uint64_t rs = 88172645463325252ull;

static uint64_t xorshift(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

/* The reference: schoolbook division of the 128-bit product, decimal-free,
 * written differently from the code under test (32-bit limbs). */
static int ref_muldiv(int64_t a, int64_t b, int64_t c, int64_t *out)
{
	int neg = (a < 0) != (b < 0);
	uint64_t ua = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, ub = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
	uint32_t x[4] = { 0 }, q[4] = { 0 };
	uint64_t r = 0;

	/* x = ua * ub in 32-bit limbs, little end first */
	for (int i = 0; i < 2; i++) {
		uint64_t carry = 0;
		uint32_t ai = (uint32_t)(ua >> (32 * i));

		for (int j = 0; j < 2; j++) {
			uint64_t t = (uint64_t)ai * (uint32_t)(ub >> (32 * j)) + x[i + j] + carry;

			x[i + j] = (uint32_t)t;
			carry = t >> 32;
		}
		x[i + 2] += (uint32_t)carry;
	}
	/* divide by c one limb at a time (c < 2^32 keeps it exact) */
	if ((uint64_t)c >> 32)
		return -1;
	for (int i = 3; i >= 0; i--) {
		uint64_t cur = r << 32 | x[i];

		q[i] = (uint32_t)(cur / (uint64_t)c);
		r = cur % (uint64_t)c;
	}
	if (q[3] || q[2])
		return -1;
	{
		uint64_t qq = (uint64_t)q[1] << 32 | q[0];

		if (2 * r >= (uint64_t)c)   /* half away from zero */
			qq++;
		if (qq > (uint64_t)INT64_MAX)
			return -1;
		*out = neg ? -(int64_t)qq : (int64_t)qq;
	}
	return 0;
}

static void muldiv_is_exact_beyond_64_bit_products(void **state)
{
	(void)state;
	for (int k = 0; k < 200000; k++) {
		int64_t a = (int64_t)(xorshift() >> (xorshift() % 63)) * (k & 1 ? -1 : 1);
		int64_t b = (int64_t)(xorshift() >> (20 + xorshift() % 43));
		int64_t c = (int64_t)(xorshift() >> 33) + 1, want;

		if (ref_muldiv(a, b, c, &want))
			continue;
		if (capture_muldiv_round(a, b, c) != want)
			fail_msg("%" PRId64 " * %" PRId64 " / %" PRId64 ": %" PRId64 ", want %" PRId64,
				 a, b, c, capture_muldiv_round(a, b, c), want);
	}
	/* a quotient beyond 64 bits saturates, never wraps */
	assert_int_equal(capture_muldiv_round(INT64_MAX, INT64_MAX, 3), INT64_MAX);
	assert_int_equal(capture_muldiv_round(-INT64_MAX, INT64_MAX, 3), -INT64_MAX);
	assert_int_equal(capture_muldiv_round(INT64_MIN, 1, 1), -INT64_MAX);
}

static void sample_times_are_exact_at_integer_rates(void **state)
{
	static const int64_t rates[] = { 1, 5, 3, 7, 256000, 1515151, 12500000, 24000000,
					 100000000, 2147483647, 3000000000LL, 1000000000000LL };

	(void)state;
	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
		for (int k = 0; k < 20000; k++) {
			/* any sample index of a capture up to 53 days long */
			int64_t n = (int64_t)(xorshift() % (uint64_t)(4.6e6 * (double)rates[r])), want;

			if (ref_muldiv(n, CAPTURE_PS_PER_S, rates[r], &want))
				continue;
			if (capture_sample_ps(n, (double)rates[r]) != want)
				fail_msg("sample %" PRId64 " at %" PRId64 " Hz: %" PRId64 " ps, want %" PRId64,
					 n, rates[r], capture_sample_ps(n, (double)rates[r]), want);
		}
	}
	/* rates with decimals as users type them: 2.5 Hz is 400 ms a sample */
	assert_int_equal(capture_sample_ps(3, 2.5), 1200000000000LL);
	assert_int_equal(capture_sample_ps(1, 0.001), 1000LL * CAPTURE_PS_PER_S);
	/* beyond the range: saturated, and the factory refuses it */
	assert_int_equal(capture_sample_ps(INT64_MAX / 2, 1e-6), INT64_MAX);
	assert_false(capture_ps_ok(capture_sample_ps(INT64_MAX / 2, 1e-6)));
	assert_true(capture_ps_ok(capture_sample_ps(7 * 86400 * 1000000LL, 1e6)));
}

static void rate_spellings_are_read_as_sigrok_reads_them(void **state)
{
	static const struct {
		const char *s;
		double hz;
	} ok[] = {
		{ "1MHz", 1e6 }, { "1 MHz", 1e6 }, { "1.515151 MHz", 1515151 },
		{ "12.500000 MHz", 12500000 }, { "2 mHz", 2e6 }, { "2 mhz", 2e6 },
		{ "1.9999999 kHz", 1999 }, { "256 kHz", 256000 }, { "3 GHz", 3e9 }, { "1 THz", 1e12 },
		{ "100", 100 }, { "100 Hz", 100 }, { "2.5", 2.5 }, { "1e6", 1e6 }, { " 5 Hz ", 5 },
	};
	static const char *const bad[] = { "", "MHz", "fast", "-1 MHz", "0", "1 MHz x", "1 pHz",
					   "0.0000001 Hz x", "nan" };
	double hz;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (capture_parse_rate(ok[i].s, strlen(ok[i].s), &hz))
			fail_msg("'%s' refused", ok[i].s);
		if (hz != ok[i].hz)
			fail_msg("'%s': %.17g Hz, want %.17g", ok[i].s, hz, ok[i].hz);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!capture_parse_rate(bad[i], strlen(bad[i]), &hz))
			fail_msg("'%s' accepted as %g Hz", bad[i], hz);
}

/* --samplerate takes what capture files state ("1GHz"), not only plain Hz */
static void the_samplerate_option_takes_rates_with_their_prefixes(void **state)
{
	char err[256] = "";
	double hz = 0;

	(void)state;
	assert_int_equal(capture_samplerate_parse("--samplerate", "1GHz", &hz, err, sizeof(err)), 0);
	assert_true(hz == 1e9);
	assert_int_equal(capture_samplerate_parse("--samplerate", "256 kHz", &hz, err, sizeof(err)), 0);
	assert_true(hz == 256000);
	assert_int_equal(capture_samplerate_parse("--samplerate", "2500000", &hz, err, sizeof(err)), 0);
	assert_true(hz == 2500000);
	assert_int_equal(capture_samplerate_parse("--samplerate", "-1MHz", &hz, err, sizeof(err)), -1);
	assert_string_equal(err, "--samplerate '-1MHz': a positive rate in Hz, or with k, M or G "
			    "(1GHz, 256 kHz, 1e6)");
	assert_int_equal(capture_samplerate_parse("--samplerate", "fast", &hz, err, sizeof(err)), -1);
	assert_int_equal(capture_samplerate_parse("--samplerate", "0", &hz, err, sizeof(err)), -1);
}

static void long_double_times_saturate_instead_of_overflowing(void **state)
{
	(void)state;
	assert_int_equal(capture_ld_to_ps(1e30L), INT64_MAX);
	assert_int_equal(capture_ld_to_ps(-1e30L), -INT64_MAX);
	assert_int_equal(capture_ld_to_ps(NAN), INT64_MAX);
	assert_int_equal(capture_ld_to_ps(1234.5L), 1235);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(muldiv_is_exact_beyond_64_bit_products),
		cmocka_unit_test(sample_times_are_exact_at_integer_rates),
		cmocka_unit_test(rate_spellings_are_read_as_sigrok_reads_them),
		cmocka_unit_test(the_samplerate_option_takes_rates_with_their_prefixes),
		cmocka_unit_test(long_double_times_saturate_instead_of_overflowing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
