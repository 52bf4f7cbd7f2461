/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared CSV tokenizer for the capture importers: fields are slices of the
 * caller's buffer (no per-field allocation); BOM, CRLF, quotes, ';' + decimal comma. */
#ifndef SQW_CSVREAD_H
#define SQW_CSVREAD_H

#include <stddef.h>
#include <stdint.h>

/*
 * Ownership: the reader never copies the input; fields point into it (or,
 * for quoted fields with doubled quotes, into a scratch buffer owned by the
 * reader). Fields are valid until the next csvread_next() call. Free the
 * reader's field array and scratch buffer with csvread_free(). Not
 * thread-safe; one reader per thread.
 *
 * The input need not be NUL-terminated; nothing past data + len is read.
 */
struct csv_field {
	const char *p;
	size_t len;
};

struct csvread {
	const char *data;        /* start of the input (after a BOM) */
	const char *cur;         /* next unread byte */
	const char *end;         /* one past the last byte */
	unsigned long line;      /* 1-based line of the record last returned */
	unsigned long next_line; /* line where the next record starts */
	char sep;                /* ',', ';' or '\t' */
	char dec;                /* '.', or ',' when sep is not ',' */
	unsigned nf;             /* fields in the record last returned */
	unsigned cap;            /* capacity of f[] */
	struct csv_field *f;
	char *scratch;           /* unescaped quoted fields */
	size_t scratch_cap;
	const char *rec;         /* start of the record last returned */
	size_t rec_len;          /* its length without the line end */
	int err;                 /* after CSVREAD_ERR: EINVAL (unterminated quote),
				  * E2BIG (too many fields), ENOMEM */
};

/* Fields one record may have: a row of more is an error, not an allocation. */
#define CSVREAD_MAX_FIELDS 65536

enum csvread_result {
	CSVREAD_EOF = -1,        /* no more records */
	CSVREAD_ERR = -2,        /* unterminated quote, too many fields or out of
				  * memory (r->err and errno say which) */
};

/* What the last CSVREAD_ERR was, as a phrase for "FILE:LINE: ...":
 * "unterminated quote", "more than 65536 fields in one row", "out of memory". */
const char *csvread_why(const struct csvread *r);

/*
 * Start reading @data. @sep: ',', ';', '\t', or 0 to detect it from the
 * first lines (';' when every one of them has one, else ',' , else tab).
 * The decimal separator is ',' when the field separator is not ','.
 * Returns 0, or -1 with errno set (ENOMEM).
 */
int csvread_init(struct csvread *r, const char *data, size_t len, char sep);
void csvread_free(struct csvread *r);

/*
 * Next record. Returns the number of fields (0 for a blank line), or
 * CSVREAD_EOF / CSVREAD_ERR. Trailing empty fields are dropped (Rigol ends
 * every line with a separator), spaces around unquoted fields are trimmed
 * ("Time[s], Channel 0"), a final line without a newline is a record.
 */
int csvread_next(struct csvread *r);

/* Skip the next line without splitting it. Returns 0, or CSVREAD_EOF. */
int csvread_skip(struct csvread *r);

/* Byte offset of the next unread record, and rewinding to one (with its line). */
size_t csvread_tell(const struct csvread *r);
void csvread_seek(struct csvread *r, size_t off, unsigned long line);

/* Field @i of the current record as an empty slice when i >= nf. */
static inline struct csv_field csvread_field(const struct csvread *r, unsigned i)
{
	struct csv_field none = { "", 0 };

	return i < r->nf ? r->f[i] : none;
}

/* Case-insensitive comparison of a field with a C string. */
int csv_field_is(struct csv_field f, const char *s);
/* The field starts with @prefix (case-insensitive). */
int csv_field_starts(struct csv_field f, const char *prefix);

/*
 * Numbers. All return 0 on success, -1 if the field is not entirely a
 * number (surrounding spaces and a leading '+' are allowed). @dec is the
 * decimal separator; ',' also accepts '.'.
 *
 * csv_parse_double: fast path exact for up to 19 significant digits and
 * |exponent| <= 22, otherwise within an ulp or two.
 * csv_parse_scaled: the decimal value times 10^@scale, rounded half away
 * from zero to an integer; -1 with *out untouched on overflow. With scale 12
 * a time in seconds becomes exact picoseconds (the importers' unit).
 * csv_parse_quantum_exp: the exponent of the last printed digit
 * ("0.001250" -> -6, "1.5E-03" -> -4), the printing resolution.
 */
int csv_parse_double(const char *p, size_t len, char dec, double *out);
/* An analog sample: a number, or NAN for a sample that is missing or
 * clipped (empty, "****", nan, -nan, inf, +inf, -inf: what scopes and
 * libsigrok's %g print); -1 for anything else (text is not a sample). */
int csv_parse_sample(const char *p, size_t len, char dec, double *out);
int csv_parse_scaled(const char *p, size_t len, char dec, int scale, int64_t *out);
int csv_parse_i64(const char *p, size_t len, int64_t *out);
int csv_parse_quantum_exp(const char *p, size_t len, char dec, int *exp10);

#endif
