/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Message buffers: set and append with a visible mark where a text was cut. */
#include "base/msgbuf.h"

#include "base/escape.h"

#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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
	char e[ESCAPE_CHAR_MAX];

	msgbuf_out_put(o, e, escape_char(e, ch, flags));
}
