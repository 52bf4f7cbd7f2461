/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Outputs of every command: never one of the inputs, never an existing log,
 * every write checked; a fast buffered writer for million-row CSVs; text
 * from files made safe for the terminal. */
#ifndef SQW_OUTFILE_H
#define SQW_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A file named on the command line. */
struct outfile_arg {
	const char *what;         /* how the user named it: "--csv", "the board file" */
	const char *path;         /* NULL or "": none; "-": standard output (a document
				   * written there without a file, such as export
				   * --meta, is given as "-" too) */
	bool keeps_old;           /* an output that keeps an existing log aside itself (--log) */
};

/*
 * Before anything is opened for writing: refuse (-1, the reason in @err)
 * two outputs on standard output ("-": a document there is read alone), an
 * output that is one of the inputs or another output (compared by device and
 * inode, so other names and links count; an output that does not exist yet
 * by its directory and name), standard output ("-", or @stdout_used: the
 * command prints to it) redirected into an input, and an output that is an
 * existing sqwave log unless it keeps_old. 0 when all is well.
 */
int outfile_check(const struct outfile_arg *outs, size_t nout, const struct outfile_arg *ins,
		  size_t nin, bool stdout_used, char *err, size_t errlen);

/* Whether @path ("-", "" or NULL: nothing to check) can be created now
 * without creating it: an existing file that is no directory and can be
 * written, or a name in a directory that can be written. 0, or -1 with errno
 * and the reason in @err ("cannot create PATH: ..."), as outfile_open()
 * would fail. For a command that must refuse before it changes anything. */
int outfile_creatable(const char *path, char *err, size_t errlen);

/* Open @path for writing ("-": stdout). NULL with errno and the reason in @err. */
FILE *outfile_open(const char *path, char *err, size_t errlen);
/* Flush and close (stdout: flush only); -1 with errno and the reason in
 * @err if any write failed (ENOSPC, EFBIG, EPIPE...): then @path, when it
 * is a regular file, is removed (said in @err), so that no part of a
 * document is left where a reader would take it for the whole. */
int outfile_close(FILE *f, const char *path, char *err, size_t errlen);

/* ---- text from a file, for the terminal ---- */

/* @s with control characters (C0, DEL, C1) and bytes that are not UTF-8
 * written as \xNN, cut to fit @len, as escape_terminal() (base/escape.h)
 * does: call that where a cut must be said. Returns @buf. For names and
 * metadata read from files: they must not move the cursor, clear the
 * screen or retitle the terminal. */
const char *outfile_escape(const char *s, char *buf, size_t len);
#define OUTFILE_ESC(s) outfile_escape((s), (char[1024]){ 0 }, 1024)

/* ---- a buffered writer for large CSVs (printf is too slow per field) ---- */

#define OUTFILE_BUF 65536

struct outfile_buf {
	FILE *f;
	size_t len;
	bool err;                 /* a write failed (errno as it was then in err_no) */
	int err_no;
	char buf[OUTFILE_BUF];
};

/* A writer on @path ("-": standard output), allocated and opened in one
 * step, so that no writer exists that is not open: NULL with errno and the
 * reason in @err. Caller ends it with outfile_buf_close(). */
struct outfile_buf *outfile_buf_open(const char *path, char *err, size_t errlen);
/* Flush, close and free @o (NULL: nothing, 0). -1 with the reason in @err
 * when a write failed (the buffer's first failure, else the close's); the
 * partial file removed as outfile_close() does. */
int outfile_buf_close(struct outfile_buf *o, const char *path, char *err, size_t errlen);
/* A writer on an open stream (a memory stream in tests): the caller owns
 * @f and the struct, and flushes before closing @f. */
void outfile_buf_init(struct outfile_buf *o, FILE *f);
/* Write what is buffered. */
void outfile_buf_flush(struct outfile_buf *o);
/* Call before each row: room for a row of up to 256 bytes. */
static inline void outfile_buf_reserve(struct outfile_buf *o)
{
	if (o->len > sizeof(o->buf) - 256)
		outfile_buf_flush(o);
}

static inline void outfile_buf_c(struct outfile_buf *o, char c)
{
	o->buf[o->len++] = c;
}

/* Any bytes (a header line, a text field). */
void outfile_buf_str(struct outfile_buf *o, const char *s, size_t n);

extern const char outfile_digits2[200]; /* "00" "01" ... "99" */

static inline void outfile_buf_u64(struct outfile_buf *o, uint64_t u)
{
	char t[20];
	size_t n = sizeof(t);

	/* two digits per division: the divisions are what a row costs */
	while (u >= 100) {
		unsigned d = (unsigned)(u % 100);

		u /= 100;
		t[--n] = outfile_digits2[2 * d + 1];
		t[--n] = outfile_digits2[2 * d];
	}
	if (u >= 10) {
		t[--n] = outfile_digits2[2 * u + 1];
		t[--n] = outfile_digits2[2 * u];
	} else {
		t[--n] = (char)('0' + u);
	}
	memcpy(o->buf + o->len, t + n, sizeof(t) - n);
	o->len += sizeof(t) - n;
}

static inline void outfile_buf_i64(struct outfile_buf *o, int64_t v)
{
	if (v < 0) {
		o->buf[o->len++] = '-';
		outfile_buf_u64(o, -(uint64_t)v);
	} else {
		outfile_buf_u64(o, (uint64_t)v);
	}
}

#endif
