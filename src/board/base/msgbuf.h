/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The caller's message buffer of the one error contract: library modules
 * write their one sentence into (char *buf, size_t len) through these. */
#ifndef SQW_MSGBUF_H
#define SQW_MSGBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Set (msgbuf_set) or append to (msgbuf_add) the NUL-terminated text in
 * @buf of @len bytes. @buf may be NULL or @len 0: nothing is written (the
 * caller wants the status only). A text cut short to fit ends in "..." so
 * that the reader knows. Never allocates; safe from any thread on a buffer
 * of its own.
 */
void msgbuf_set(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void msgbuf_add(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void msgbuf_vset(char *buf, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/*
 * A text built piece by piece in @buf of @len bytes (at least 4): every
 * piece is written whole or not at all, and only while room is left for
 * "..." and the NUL after it, so that a text that did not fit ends in
 * "..." at a piece boundary (never half an escape) and nothing is written
 * past @buf + @len. Once a piece did not fit (@cut), later ones are
 * dropped. @buf always holds a terminated text. Never allocates.
 */
struct msgbuf_out {
	char *buf;
	size_t len;
	size_t used;	/* bytes of text; buf[used] is the NUL */
	bool cut;	/* a piece did not fit: the text ends in "..." */
};

void msgbuf_out_init(struct msgbuf_out *o, char *buf, size_t len);
/* The @n bytes at @s as one piece. */
void msgbuf_out_put(struct msgbuf_out *o, const char *s, size_t n);
/* The formatted text as one piece. */
void msgbuf_out_add(struct msgbuf_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* @ch escaped as escape_char() does (base/escape.h), as one piece. */
void msgbuf_out_char(struct msgbuf_out *o, unsigned char ch, unsigned flags);

#endif
