/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Durations: exact decimal parsing into int64 nanoseconds and back. */
#include "base/units.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct unit {
	const char *name;
	int64_t ns;
};

static const struct unit units_table[] = {
	{ "ns", 1 },
	{ "us", 1000 },
	{ "\xc2\xb5s", 1000 },          /* U+00B5 MICRO SIGN */
	{ "\xce\xbcs", 1000 },          /* U+03BC GREEK SMALL LETTER MU */
	{ "ms", 1000000 },
	{ "s", 1000000000 },
	{ "m", 60 * INT64_C(1000000000) },
	{ "min", 60 * INT64_C(1000000000) },
	{ "h", 3600 * INT64_C(1000000000) },
	{ "d", 86400 * INT64_C(1000000000) },
};

/* More fraction digits than this can never be a whole number of ns for any
 * unit above (the largest, d, has 2^16 * 5^11 as its powers of 2 and 5). */
#define UNITS_MAX_FRAC_DIGITS 18

static bool units_is_space(char ch)
{
	return ch == ' ' || ch == '\t';
}

static int64_t units_match(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(units_table) / sizeof(units_table[0]); i++) {
		if (strlen(units_table[i].name) == len &&
		    memcmp(units_table[i].name, s, len) == 0)
			return units_table[i].ns;
	}
	return 0;
}

int64_t units_unit_ns(const char *unit)
{
	return unit ? units_match(unit, strlen(unit)) : 0;
}

uint64_t units_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

int units_parse_duration(const char *s, const char *bare_unit, int64_t *ns)
{
	uint64_t ipart = 0, fnum = 0, fden = 1, total, part;
	bool digits = false, ovf = false;
	const char *u, *end;
	unsigned fdigits = 0;
	int64_t mult;

	if (!s) {
		errno = EINVAL;
		return -1;
	}
	while (units_is_space(*s))
		s++;
	for (; *s >= '0' && *s <= '9'; s++) {
		digits = true;
		if (__builtin_mul_overflow(ipart, 10, &ipart) ||
		    __builtin_add_overflow(ipart, (uint64_t)(*s - '0'), &ipart))
			ovf = true;
	}
	if (*s == '.') {
		const char *f = ++s, *last = s;

		/* Trailing zeros of the fraction carry no value: skip them. */
		for (; *s >= '0' && *s <= '9'; s++) {
			digits = true;
			if (*s != '0')
				last = s + 1;
		}
		for (; f < last; f++) {
			if (++fdigits > UNITS_MAX_FRAC_DIGITS) {
				errno = EINVAL;
				return -1;
			}
			fnum = fnum * 10 + (uint64_t)(*f - '0');
			fden *= 10;
		}
	}
	if (!digits) {
		errno = EINVAL;
		return -1;
	}

	/* The unit: everything up to trailing spaces. */
	while (units_is_space(*s))
		s++;
	u = s;
	end = s + strlen(s);
	while (end > u && units_is_space(end[-1]))
		end--;
	if (end == u) {
		if (!bare_unit) {
			if (ipart != 0 || fnum != 0) {
				errno = EINVAL;
				return -1;
			}
			*ns = 0;
			return 0;
		}
		mult = units_unit_ns(bare_unit);
	} else {
		mult = units_match(u, (size_t)(end - u));
	}
	if (mult <= 0) {
		errno = EINVAL;
		return -1;
	}

	if (fnum) {
		/* fnum / fden units must be a whole number of ns. */
		uint64_t g = units_gcd((uint64_t)mult, fden);
		uint64_t m = (uint64_t)mult / g, d = fden / g;

		if (fnum % d != 0) {
			errno = EINVAL;
			return -1;
		}
		if (__builtin_mul_overflow(fnum / d, m, &part))
			ovf = true;
	} else {
		part = 0;
	}
	if (ovf || __builtin_mul_overflow(ipart, (uint64_t)mult, &total) ||
	    __builtin_add_overflow(total, part, &total) || total > (uint64_t)INT64_MAX) {
		errno = ERANGE;
		return -1;
	}
	*ns = (int64_t)total;
	return 0;
}

/* Exact decimal text of @v in @unit_ns units, or 0 if it needs too many digits. */
static int units_format_in(uint64_t v, uint64_t unit_ns, const char *name,
			   char *out, size_t len)
{
	char frac[UNITS_MAX_FRAC_DIGITS + 1];
	uint64_t rem = v % unit_ns;
	unsigned n = 0;

	while (rem && n < UNITS_MAX_FRAC_DIGITS) {
		rem *= 10;
		frac[n++] = (char)('0' + rem / unit_ns);
		rem %= unit_ns;
	}
	if (rem)
		return 0;
	frac[n] = '\0';
	return snprintf(out, len, "%llu%s%s%s", (unsigned long long)(v / unit_ns),
			n ? "." : "", frac, name);
}

const char *units_format_duration(int64_t ns, char *buf, size_t len)
{
	static const struct unit out_units[] = {
		{ "ns", 1 },
		{ "us", 1000 },
		{ "ms", 1000000 },
		{ "s", 1000000000 },
		{ "h", 3600 * INT64_C(1000000000) },
	};
	char best[48] = "", cand[48];
	bool best_dot = false, neg = ns < 0;
	uint64_t v = neg ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	size_t i;

	if (v == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	for (i = 0; i < sizeof(out_units) / sizeof(out_units[0]); i++) {
		int n = units_format_in(v, (uint64_t)out_units[i].ns, out_units[i].name,
					cand, sizeof(cand));
		bool dot;

		if (n <= 0)
			continue;
		dot = strchr(cand, '.') != NULL;
		/* Shorter wins; on a tie a whole number beats a fraction. */
		if (!best[0] || (size_t)n < strlen(best) ||
		    ((size_t)n == strlen(best) && best_dot && !dot)) {
			memcpy(best, cand, sizeof(best));
			best_dot = dot;
		}
	}
	snprintf(buf, len, "%s%s", neg ? "-" : "", best);
	return buf;
}

const char *units_us(int64_t ns, char *buf, size_t len)
{
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(buf, len, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", a / 1000, a % 1000);
	return buf;
}

const char *units_us_err(int64_t ns, int64_t err, char *buf, size_t len)
{
	static const char pad[] = "    ";
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns, unit;
	int dec;

	dec = err <= 0 ? 3 : err <= 5 ? 2 : err <= 50 ? 1 : 0;
	if (dec == 3)
		return units_us(ns, buf, len);
	unit = dec == 2 ? 10 : dec == 1 ? 100 : 1000;
	a = a / unit + (a % unit >= unit / 2);	/* in units of the last digit */
	if (dec == 0)
		snprintf(buf, len, "%s%" PRIu64 "%s", ns < 0 && a ? "-" : "", a, pad);
	else
		snprintf(buf, len, "%s%" PRIu64 ".%0*" PRIu64 "%s", ns < 0 && a ? "-" : "",
			 a / (dec == 2 ? 100 : 10), dec, a % (dec == 2 ? 100 : 10), pad + 1 + dec);
	return buf;
}

const char *units_us_double(double ns, char *buf, size_t len)
{
	if (isnan(ns))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", ns / 1000.0);
	return buf;
}
