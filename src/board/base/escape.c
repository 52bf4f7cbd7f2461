/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Escaping outside text for a line, a terminal and XML: one of each. */
#include "base/escape.h"

#include <stdint.h>
#include <string.h>

#include "base/utf8.h"

static const char hex[] = "0123456789abcdef";

size_t escape_char(char *out, unsigned char ch, unsigned flags)
{
	bool quoted = flags & ESCAPE_QUOTED;

	if (ch == '\\' || (quoted && ch == '"')) {
		out[0] = '\\';
		out[1] = (char)ch;
		return 2;
	}
	if (quoted && ch == '\n') {
		out[0] = '\\';
		out[1] = 'n';
		return 2;
	}
	if (ch < 0x20 || ch == 0x7f) {
		out[0] = '\\';
		out[1] = 'x';
		out[2] = hex[ch >> 4];
		out[3] = hex[ch & 15];
		return 4;
	}
	out[0] = (char)ch;
	return 1;
}

/* Length of the valid UTF-8 sequence at @p (of at most @n bytes) that is
 * printable: not a C1 control (U+0080..U+009F); 0 if invalid. */
static size_t utf8_printable(const unsigned char *p, size_t n)
{
	uint32_t cp;
	size_t len = utf8_decode(p, n, &cp);

	return len && !(cp >= 0x80 && cp <= 0x9f) ? len : 0;
}

bool escape_terminal(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, n = s ? strlen(s) : 0, k;

	if (!len)
		return !n;
	while (n) {
		if (*p >= 0x20 && *p < 0x7f) {
			if (o + 1 >= len)
				break;
			buf[o++] = (char)*p++;
			n--;
		} else if (*p >= 0x80 && (k = utf8_printable(p, n))) {
			if (o + k >= len)
				break;
			memcpy(buf + o, p, k);
			o += k;
			p += k;
			n -= k;
		} else {
			/* C0 and C1 controls, DEL, bytes that are not UTF-8 */
			if (o + 4 >= len)
				break;
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[*p >> 4];
			buf[o++] = hex[*p & 15];
			p++;
			n--;
		}
	}
	buf[o] = '\0';
	return !n;
}

bool escape_xml(FILE *f, const char *s, size_t max, unsigned flags)
{
	size_t chars = 0;

	for (; s && *s; s++) {
		if (utf8_starts_char((unsigned char)*s) && ++chars > max) {
			fputs("...", f);
			return false;
		}
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'':
			fputs(flags & ESCAPE_XML_APOS ? "&apos;" : "'", f);
			break;
		default:
			if (!(flags & ESCAPE_XML_DROP_CTL) || (unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, f);
		}
	}
	return true;
}
