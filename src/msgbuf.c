/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Message buffers: set and append with a visible mark where a text was cut. */
#include "msgbuf.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

size_t msgbuf_escape_char(char *out, unsigned char ch, unsigned flags)
{
	static const char hex[] = "0123456789abcdef";
	bool quoted = flags & MSGBUF_ESC_QUOTED;

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

/* Write at @off; a text that did not fit ends in "...". */
static void put(char *buf, size_t len, size_t off, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf + off, len - off, fmt, ap);

	if (n >= 0 && (size_t)n >= len - off && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

void msgbuf_vset(char *buf, size_t len, const char *fmt, va_list ap)
{
	if (!buf || !len)
		return;
	put(buf, len, 0, fmt, ap);
}

void msgbuf_set(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msgbuf_vset(buf, len, fmt, ap);
	va_end(ap);
}

void msgbuf_add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	if (!buf || !len)
		return;
	used = strnlen(buf, len);
	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	put(buf, len, used, fmt, ap);
	va_end(ap);
}
