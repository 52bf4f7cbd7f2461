/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UTF-8: one decoder for every reader and escaper of outside text. */
#include "base/utf8.h"

int utf8_next(const unsigned char *p, size_t avail, uint32_t *cp)
{
	unsigned char c, lo = 0x80, hi = 0xbf;
	int n, i;

	if (!avail)
		return 0;
	c = p[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		*cp = c & 0x1fu;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		*cp = c & 0x0fu;
		if (c == 0xe0)
			lo = 0xa0;      /* no overlongs */
		else if (c == 0xed)
			hi = 0x9f;      /* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		*cp = c & 0x07u;
		if (c == 0xf0)
			lo = 0x90;      /* no overlongs */
		else if (c == 0xf4)
			hi = 0x8f;      /* nothing above U+10FFFF */
	} else {
		return -1;
	}
	for (i = 1; i < n; i++) {
		/* A NUL terminator is never a continuation byte: no overread. */
		if ((size_t)i >= avail || p[i] < lo || p[i] > hi)
			return -i;
		*cp = (*cp << 6) | (p[i] & 0x3fu);
		lo = 0x80;
		hi = 0xbf;
	}
	return n;
}

size_t utf8_decode(const unsigned char *p, size_t avail, uint32_t *cp)
{
	int n = utf8_next(p, avail, cp);

	return n > 0 ? (size_t)n : 0;
}

size_t utf8_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += utf8_starts_char((unsigned char)*s);
	return n;
}
