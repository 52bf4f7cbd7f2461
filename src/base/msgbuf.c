/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Message buffers: set and append with a visible mark where a text was cut. */
#include "base/msgbuf.h"

#include <assert.h>
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

void msgbuf_out_init(struct msgbuf_out *o, char *buf, size_t len)
{
	assert(buf && len >= 4);
	o->buf = buf;
	o->len = len;
	o->used = 0;
	o->cut = false;
	buf[0] = '\0';
}

/* A piece did not fit: "..." where it would have gone; the invariant
 * used + 3 < len keeps room for it. */
static void out_cut(struct msgbuf_out *o)
{
	memcpy(o->buf + o->used, "...", 4);
	o->used += 3;
	o->cut = true;
}

static bool out_fits(const struct msgbuf_out *o, size_t n)
{
	return !o->cut && n < o->len - o->used - 3;
}

void msgbuf_out_put(struct msgbuf_out *o, const char *s, size_t n)
{
	if (o->cut)
		return;
	if (!out_fits(o, n)) {
		out_cut(o);
		return;
	}
	memcpy(o->buf + o->used, s, n);
	o->used += n;
	o->buf[o->used] = '\0';
}

void msgbuf_out_add(struct msgbuf_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->cut)
		return;
	/* vsnprintf writes at most len - used bytes with its NUL; a piece that
	 * would not leave room for the dots is taken back. */
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->used, o->len - o->used, fmt, ap);
	va_end(ap);
	if (n < 0 || !out_fits(o, (size_t)n)) {
		out_cut(o);
		return;
	}
	o->used += (size_t)n;
}

void msgbuf_out_char(struct msgbuf_out *o, unsigned char ch, unsigned flags)
{
	char e[MSGBUF_ESC_MAX];

	msgbuf_out_put(o, e, msgbuf_escape_char(e, ch, flags));
}

size_t msgbuf_utf8_decode(const unsigned char *p, size_t avail, uint32_t *cp)
{
	size_t n, i;

	if (!avail)
		return 0;
	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, *cp = p[0] & 0x1fu;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, *cp = p[0] & 0x0fu;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, *cp = p[0] & 0x07u;
	else
		return 0;
	if (avail < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (p[i] & 0x3fu);
	}
	if ((n == 3 && *cp < 0x800) || (n == 4 && (*cp < 0x10000 || *cp > 0x10ffff)) ||
	    (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return n;
}
