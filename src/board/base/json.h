/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one JSON writer: streams pretty-printed JSON (2-space indent) to a
 * FILE *, escapes every string and keeps track of commas and nesting. */
#ifndef SQW_JSON_H
#define SQW_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

/*
 * The caller owns the FILE and the struct (usually on the stack); the writer
 * allocates nothing. One thread per writer. Misuse (a value where a key is
 * due, unbalanced ends, nesting deeper than JSON_MAX_DEPTH) is a programmer
 * error and asserts.
 *
 * Strings are written as UTF-8. Control characters are escaped (\n, \t, ...,
 * \u00XX), as are DEL, U+2028 and U+2029; bytes that are not valid UTF-8 are
 * replaced by \ufffd, one per maximal invalid subsequence. Doubles that are
 * NaN or infinite are written as null.
 */
struct json_writer {
	FILE *f;
	int depth;
	bool after_key;                   /* a key was written, its value is due */
	bool has_items[JSON_MAX_DEPTH];   /* per open container: anything written yet */
	char closer[JSON_MAX_DEPTH];      /* '}' or ']' */
};

void json_init(struct json_writer *w, FILE *f);

void json_object_begin(struct json_writer *w);
void json_object_end(struct json_writer *w);
void json_array_begin(struct json_writer *w);
void json_array_end(struct json_writer *w);

/* Inside an object: the key of the next value. */
void json_key(struct json_writer *w, const char *key);

/* Values: at the top level, as an array element, or after json_key(). */
void json_string(struct json_writer *w, const char *s);   /* NULL writes null */
void json_int(struct json_writer *w, int64_t v);
void json_uint(struct json_writer *w, uint64_t v);
void json_double(struct json_writer *w, double v);
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);

/* Key and value in one call. */
void json_kv_string(struct json_writer *w, const char *key, const char *s);
void json_kv_int(struct json_writer *w, const char *key, int64_t v);
void json_kv_uint(struct json_writer *w, const char *key, uint64_t v);
void json_kv_double(struct json_writer *w, const char *key, double v);
void json_kv_bool(struct json_writer *w, const char *key, bool v);
void json_kv_null(struct json_writer *w, const char *key);
void json_kv_object_begin(struct json_writer *w, const char *key);
void json_kv_array_begin(struct json_writer *w, const char *key);

/* After the top-level value: writes the final newline. Returns -1 (errno
 * set, EIO if unknown) when the stream had an error; does not close it. */
int json_finish(struct json_writer *w);

/*
 * One JSON document to @path ("-": standard output, through
 * json_write_stream()): @fn writes the top-level value through @w; then the
 * final newline, and the file is closed. 0, or -1 with errno and one
 * sentence in @err (may be NULL): "cannot create PATH: ...", "writing PATH
 * failed: ..." (a regular file is then removed: outfile_close()). Prints
 * nothing. Every command's --json goes through it.
 */
typedef void (*json_document_fn)(struct json_writer *w, const void *ctx);
int json_write_document(const char *path, json_document_fn fn, const void *ctx, char *err,
			size_t errlen);
/*
 * The same document to the open stream @f (standard output for "-", a
 * memory stream), written by the same code: then @f is flushed, not closed
 * (the caller owns it). 0, or -1 with errno and "writing @name failed: ..."
 * in @err (may be NULL). Prints nothing.
 */
int json_write_stream(FILE *f, const char *name, json_document_fn fn, const void *ctx, char *err,
		      size_t errlen);

/* Escape @s into @out as a quoted JSON string (with the quotes); returns the
 * length it needs, like snprintf. For tests and for one-off strings. */
size_t json_escape(char *out, size_t len, const char *s);

#endif
