/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one UTF-8 decoder of what files and users hand us (RFC 3629), and the
 * character walks built on it. Pure functions: safe from any thread. */
#ifndef SQW_UTF8_H
#define SQW_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The sequence at @p, of at most @avail bytes: its length (1 to 4) with its
 * code point in *@cp when it is well formed (no overlong forms, no
 * surrogates, nothing beyond U+10FFFF); minus the length of its maximal
 * invalid subpart (Unicode table 3-7, at least 1) when it is not, so that a
 * caller replacing bad input by U+FFFD replaces that much; 0 when @avail
 * is 0. A NUL is never a continuation byte: on a terminated string @avail
 * may be SIZE_MAX without reading past the NUL.
 */
int utf8_next(const unsigned char *p, size_t avail, uint32_t *cp);

/* utf8_next()'s length of a well-formed sequence, 0 for none. */
size_t utf8_decode(const unsigned char *p, size_t avail, uint32_t *cp);

/* Whether byte @c starts a character (is not a continuation byte). */
static inline bool utf8_starts_char(unsigned char c)
{
	return (c & 0xc0) != 0x80;
}

/* Characters (bytes that start one) of the terminated @s. */
size_t utf8_chars(const char *s);

#endif
