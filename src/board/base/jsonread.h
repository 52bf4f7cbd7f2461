/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small JSON reader (RFC 8259) for sqwave's own documents: a tree of
 * values, with bounds on size, depth and node count, and errors that name
 * the line and column. The writer is json.c. */
#ifndef SQW_JSONREAD_H
#define SQW_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum jv_type { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT };

struct jv {
	enum jv_type type;
	bool b;
	double num;
	bool is_int;              /* an integer that fits int64 (num may round it) */
	int64_t i;
	char *str;                /* STRING: UTF-8, NUL-terminated (\u0000 is refused) */
	size_t len;               /* STRING bytes */
	char **keys;              /* OBJECT */
	struct jv **items;        /* ARRAY and OBJECT values */
	size_t n;
	size_t line;              /* where the value begins, from 1 */
};

#define JSONREAD_MAX_BYTES (256u << 20)
#define JSONREAD_MAX_DEPTH 64
/* Values in one document: about 100 bytes each in memory, so at most some
 * 200 MB whatever the file holds; sqwave's largest (64 phases with
 * 4096-bin histograms, a week's timeline) hold well under 1 M. */
#define JSONREAD_MAX_NODES 2000000u

/* Parse @len bytes. NULL with "LINE:COL: what is wrong" (or "LINE: ..."
 * for a member name given twice) in @err. Stricter than RFC 8259 where
 * sqwave's writer never goes: strings are UTF-8 without NUL or lone
 * surrogates, member names are unique. A leading byte order mark is
 * skipped. Caller frees with jv_free(). */
struct jv *jsonread_parse(const char *buf, size_t len, char *err, size_t errlen);
/* Read and parse a regular file (at most JSONREAD_MAX_BYTES; a directory,
 * pipe or device is refused without blocking or reading); NULL with
 * "FILE:LINE:COL: ..." or "FILE: reason" in @err, and *@io true when the
 * file could not be read or memory ran out (as opposed to not being JSON). */
struct jv *jsonread_file(const char *path, bool *io, char *err, size_t errlen);
void jv_free(struct jv *v);

/* Lookups that tolerate NULL and wrong types (they return NULL/defaults). */
const struct jv *jv_get(const struct jv *obj, const char *key);
/* "a.b.c": nested object members. */
const struct jv *jv_path(const struct jv *obj, const char *path);
const struct jv *jv_at(const struct jv *arr, size_t i);
size_t jv_len(const struct jv *arr);
const char *jv_str(const struct jv *v, const char *def);
double jv_num(const struct jv *v, double def);
int64_t jv_int(const struct jv *v, int64_t def);
bool jv_bool(const struct jv *v, bool def);

#endif
