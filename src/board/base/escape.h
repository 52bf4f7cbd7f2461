/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The escapers of text that came from outside (files, users) on its way
 * out: one line of text, a terminal, XML/SVG character data. Never
 * allocate; safe from any thread on buffers and streams of the caller's. */
#ifndef SQW_ESCAPE_H
#define SQW_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* escape_char(): a quoted value, so '"' and a newline are escaped too */
#define ESCAPE_QUOTED 1u
/* Max bytes escape_char() writes. */
#define ESCAPE_CHAR_MAX 4

/*
 * @ch as it goes into one line of text: a backslash doubled, a control
 * character (and DEL) as \xHH; with ESCAPE_QUOTED also '"' as \" and
 * a newline as \n. Writes at most ESCAPE_CHAR_MAX bytes at @out (not
 * terminated) and returns how many; the caller bounds its buffer.
 */
size_t escape_char(char *out, unsigned char ch, unsigned flags);

/*
 * @s for a terminal, into @buf of @len bytes, always terminated: control
 * characters (C0, DEL, C1) and bytes that are not UTF-8 as \xNN, the rest
 * as it is, cut before an escape or a character that does not fit (never
 * inside one). True when all of @s went in, false when it was cut, so the
 * caller can say so. @s NULL is the empty text.
 */
bool escape_terminal(const char *s, char *buf, size_t len);

/* escape_xml(): ' as &apos; too (XML attribute values in single quotes) */
#define ESCAPE_XML_APOS 1u
/* escape_xml(): control characters but tab left out (XML 1.0 cannot carry
 * them; an SVG label loses them rather than fail to load) */
#define ESCAPE_XML_DROP_CTL 2u

/*
 * @s as XML character data or attribute value to @f: & < > " as entities
 * (and ' with ESCAPE_XML_APOS), at most @max characters (SIZE_MAX: all),
 * a longer text cut before a character and ended in "...". True when all of
 * @s went out, false when it was cut. @s NULL writes nothing.
 */
bool escape_xml(FILE *f, const char *s, size_t max, unsigned flags);

#endif
