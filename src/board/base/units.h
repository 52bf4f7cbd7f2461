/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Durations with units ("500us", "1.5ms", "1h"): exact parse and shortest format. */
#ifndef SQW_UNITS_H
#define SQW_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a non-negative duration into nanoseconds, exactly (integer
 * arithmetic only: "500us" is 500000, "0.1s" is 100000000).
 *
 * Accepted: a decimal number ("500", "0.5", ".5", "5.") optionally followed
 * by spaces and a unit: ns, us, µs (U+00B5 or U+03BC), ms, s, m or min, h, d.
 * Surrounding spaces are ignored. A number without a unit is in @bare_unit
 * (one of the units above); if @bare_unit is NULL, only "0" may be bare.
 *
 * Returns 0 and stores *@ns, or -1 with errno EINVAL (empty, negative, no
 * digits, unknown unit, finer than 1 ns, trailing garbage) or ERANGE (does
 * not fit in int64_t nanoseconds). *@ns is untouched on error.
 * Pure function; safe from any thread.
 */
int units_parse_duration(const char *s, const char *bare_unit, int64_t *ns);

/*
 * Write the shortest exact text for @ns into @buf ("500us", "1.5ms", "60s",
 * "1h", "0"), using ns, us, ms, s and h (never m or d, which read ambiguously
 * in logs). On a tie the form without a decimal point wins. Negative values
 * get a leading '-'. units_parse_duration() reads the result back to the
 * same @ns for any non-negative value. Truncates like snprintf. Returns @buf.
 * Pure function; safe from any thread.
 */
const char *units_format_duration(int64_t ns, char *buf, size_t len);

/* Nanoseconds in one @unit ("us" -> 1000), or 0 if @unit is not a unit. */
int64_t units_unit_ns(const char *unit);

/* @ns as microseconds with 3 decimals, exactly ("-1.500"): how summaries
 * and reports print times. */
const char *units_us(int64_t ns, char *buf, size_t len);
/*
 * @ns as microseconds with the digits it has, for a value known to within
 * +-@err ns: 3 decimals when exact, 2 when @err <= 5 ns, 1 when <= 50 ns,
 * none beyond (rounded half away from zero), so the last digit printed is
 * right to within one. Each decimal left out is replaced by a trailing space
 * (and the point too, when there are none), so that numbers printed in a
 * right-aligned column keep their points aligned ("500.74 ", "12.345").
 */
const char *units_us_err(int64_t ns, int64_t err, char *buf, size_t len);
/* A mean or stddev in ns as microseconds, 3 decimals; "-" when NaN. */
const char *units_us_double(double ns, char *buf, size_t len);
/* For several in one printf: each use gets its own buffer. */
#define UNITS_US(ns) units_us((ns), (char[32]){ 0 }, 32)
#define UNITS_US_ERR(ns, err) units_us_err((ns), (err), (char[40]){ 0 }, 40)
#define UNITS_USD(ns) units_us_double((ns), (char[32]){ 0 }, 32)

/* Greatest common divisor (0 and 0: 0). */
uint64_t units_gcd(uint64_t a, uint64_t b);

#endif
