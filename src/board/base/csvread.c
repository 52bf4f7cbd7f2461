/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared CSV tokenizer and number parsers for the capture importers: slices
 * of a mapped file, one pass, no allocation per field. */
#include "base/csvread.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CSV_DETECT_LINES 16

static char csv_detect_sep(const char *p, const char *end)
{
	unsigned lines = 0, semi = 0, comma = 0, tab = 0;

	while (p < end && lines < CSV_DETECT_LINES) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *le = eol ? eol : end;

		if (le - p > 1 || (le - p == 1 && *p != '\r')) {
			lines++;
			semi += memchr(p, ';', (size_t)(le - p)) != NULL;
			comma += memchr(p, ',', (size_t)(le - p)) != NULL;
			tab += memchr(p, '\t', (size_t)(le - p)) != NULL;
		}
		p = eol ? eol + 1 : end;
	}
	if (lines && semi == lines)
		return ';';
	if (comma)
		return ',';
	if (tab)
		return '\t';
	return ',';
}

int csvread_init(struct csvread *r, const char *data, size_t len, char sep)
{
	memset(r, 0, sizeof(*r));
	if (len >= 3 && (unsigned char)data[0] == 0xef && (unsigned char)data[1] == 0xbb &&
	    (unsigned char)data[2] == 0xbf) {
		data += 3;
		len -= 3;
	}
	r->data = data;
	r->cur = data;
	r->end = data + len;
	r->line = 0;
	r->next_line = 1;
	r->sep = sep ? sep : csv_detect_sep(data, data + len);
	r->dec = r->sep == ',' ? '.' : ',';
	r->cap = 16;
	r->f = malloc(r->cap * sizeof(*r->f));
	if (!r->f) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void csvread_free(struct csvread *r)
{
	free(r->f);
	free(r->scratch);
	r->f = NULL;
	r->scratch = NULL;
	r->cap = 0;
	r->scratch_cap = 0;
}

const char *csvread_why(const struct csvread *r)
{
	switch (r->err) {
	case EINVAL: return "unterminated quote";
	case E2BIG: return "more than 65536 fields in one row";
	case ENOMEM: return "out of memory";
	default: return "malformed CSV";
	}
}

static int csv_grow(struct csvread *r)
{
	unsigned cap = r->cap * 2;
	struct csv_field *f;

	if (r->cap >= CSVREAD_MAX_FIELDS) {
		errno = r->err = E2BIG;
		return -1;
	}
	if (cap > CSVREAD_MAX_FIELDS)
		cap = CSVREAD_MAX_FIELDS;
	f = realloc(r->f, cap * sizeof(*f));
	if (!f) {
		errno = r->err = ENOMEM;
		return -1;
	}
	r->f = f;
	r->cap = cap;
	return 0;
}

static inline void csv_trim(const char **s, const char **e)
{
	while (*s < *e && (**s == ' ' || **s == '\t'))
		(*s)++;
	while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r'))
		(*e)--;
}

static void csv_drop_trailing_empty(struct csvread *r)
{
	while (r->nf && r->f[r->nf - 1].len == 0)
		r->nf--;
}

/* A record with at least one quote: find its end (quotes may span lines),
 * then split it, unescaping quoted fields into the scratch buffer. */
static int csv_next_quoted(struct csvread *r)
{
	const char *p = r->cur, *end = r->end, *q;
	unsigned long nl = 0;
	int inq = 0;
	char *out;
	const char *le;

	for (q = p; q < end; q++) {
		if (*q == '"')
			inq = !inq;
		else if (*q == '\n') {
			if (!inq)
				break;
			nl++;
		}
	}
	if (inq) {
		errno = r->err = EINVAL;
		return CSVREAD_ERR;
	}
	le = q;
	r->cur = q < end ? q + 1 : end;
	r->next_line += nl + 1;
	if (le > p && le[-1] == '\r')
		le--;
	r->rec = p;
	r->rec_len = (size_t)(le - p);
	if (r->scratch_cap < r->rec_len + 1) {
		char *s = realloc(r->scratch, r->rec_len + 1);

		if (!s) {
			errno = r->err = ENOMEM;
			return CSVREAD_ERR;
		}
		r->scratch = s;
		r->scratch_cap = r->rec_len + 1;
	}
	out = r->scratch;
	r->nf = 0;
	q = p;
	for (;;) {
		const char *fs = q, *fe;

		while (q < le && (*q == ' ' || *q == '\t') && *q != r->sep)
			q++;
		if (q < le && *q == '"') {
			char *o = out;

			q++;
			while (q < le) {
				if (*q == '"') {
					if (q + 1 < le && q[1] == '"') {
						*out++ = '"';
						q += 2;
						continue;
					}
					q++;
					break;
				}
				*out++ = *q++;
			}
			while (q < le && *q != r->sep)
				q++;
			fs = o;
			fe = out;
		} else {
			q = fs;
			while (q < le && *q != r->sep)
				q++;
			fe = q;
			csv_trim(&fs, &fe);
		}
		if (r->nf == r->cap && csv_grow(r))
			return CSVREAD_ERR;
		r->f[r->nf].p = fs;
		r->f[r->nf].len = (size_t)(fe - fs);
		r->nf++;
		if (q >= le)
			break;
		q++; /* separator */
	}
	if (r->nf == 1 && r->f[0].len == 0)
		r->nf = 0;
	csv_drop_trailing_empty(r);
	return (int)r->nf;
}

int csvread_next(struct csvread *r)
{
	const char *p = r->cur, *end = r->end, *eol, *le, *fs, *q;
	const char sep = r->sep;
	unsigned nf = 0;

	if (p >= end)
		return CSVREAD_EOF;
	r->line = r->next_line;
	eol = memchr(p, '\n', (size_t)(end - p));
	le = eol ? eol : end;
	if (memchr(p, '"', (size_t)(le - p)))
		return csv_next_quoted(r);
	r->cur = eol ? eol + 1 : end;
	r->next_line++;
	if (le > p && le[-1] == '\r')
		le--;
	r->rec = p;
	r->rec_len = (size_t)(le - p);
	fs = p;
	for (q = p;; q++) {
		if (q == le || *q == sep) {
			const char *s = fs, *e = q;

			if (s < e && (*s == ' ' || e[-1] == ' ' || *s == '\t' || e[-1] == '\t'))
				csv_trim(&s, &e);
			if (nf == r->cap && csv_grow(r))
				return CSVREAD_ERR;
			r->f[nf].p = s;
			r->f[nf].len = (size_t)(e - s);
			nf++;
			if (q == le)
				break;
			fs = q + 1;
		}
	}
	r->nf = nf;
	if (nf == 1 && r->f[0].len == 0)
		r->nf = 0;
	csv_drop_trailing_empty(r);
	return (int)r->nf;
}

int csvread_skip(struct csvread *r)
{
	const char *eol;

	if (r->cur >= r->end)
		return CSVREAD_EOF;
	r->line = r->next_line;
	eol = memchr(r->cur, '\n', (size_t)(r->end - r->cur));
	r->cur = eol ? eol + 1 : r->end;
	r->next_line++;
	return 0;
}

size_t csvread_tell(const struct csvread *r)
{
	return (size_t)(r->cur - r->data);
}

void csvread_seek(struct csvread *r, size_t off, unsigned long line)
{
	size_t len = (size_t)(r->end - r->data);

	r->cur = r->data + (off < len ? off : len);
	r->next_line = line;
	r->nf = 0;
}

int csv_field_is(struct csv_field f, const char *s)
{
	size_t n = strlen(s);

	return f.len == n && strncasecmp(f.p, s, n) == 0;
}

int csv_field_starts(struct csv_field f, const char *prefix)
{
	size_t n = strlen(prefix);

	return f.len >= n && strncasecmp(f.p, prefix, n) == 0;
}

/* ---- numbers ---------------------------------------------------------- */

struct decnum {
	uint64_t mant;   /* up to 19 significant digits */
	int exp10;       /* value = mant * 10^exp10 */
	int quantum;     /* exponent of the last printed digit */
	int neg;
};

static int dec_split(const char *p, size_t len, char dec, struct decnum *d)
{
	const char *e = p + len;
	int ndig = 0, frac = 0, frac_used = 0, int_dropped = 0, any = 0;
	long ex = 0;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	d->mant = 0;
	d->neg = 0;
	if (p < e && (*p == '-' || *p == '+')) {
		d->neg = *p == '-';
		p++;
	}
	for (; p < e && (unsigned)(*p - '0') < 10; p++) {
		any = 1;
		if (ndig < 19) {
			d->mant = d->mant * 10 + (uint64_t)(*p - '0');
			if (d->mant)
				ndig++;
		} else {
			int_dropped++;
		}
	}
	if (p < e && (*p == '.' || *p == dec)) {
		p++;
		for (; p < e && (unsigned)(*p - '0') < 10; p++) {
			any = 1;
			frac++;
			if (ndig < 19) {
				d->mant = d->mant * 10 + (uint64_t)(*p - '0');
				frac_used++;
				if (d->mant)
					ndig++;
			}
		}
	}
	if (!any)
		return -1;
	if (p < e && (*p == 'e' || *p == 'E')) {
		int eneg = 0, edig = 0;

		p++;
		if (p < e && (*p == '-' || *p == '+')) {
			eneg = *p == '-';
			p++;
		}
		for (; p < e && (unsigned)(*p - '0') < 10; p++) {
			if (ex < 100000)
				ex = ex * 10 + (*p - '0');
			edig++;
		}
		if (!edig)
			return -1;
		if (eneg)
			ex = -ex;
	}
	if (p != e)
		return -1;
	d->exp10 = (int)ex + int_dropped - frac_used;
	d->quantum = (int)ex - frac;
	return 0;
}

static const double pow10_tab[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

int csv_parse_double(const char *p, size_t len, char dec, double *out)
{
	struct decnum d;
	double v;

	if (dec_split(p, len, dec, &d))
		return -1;
	if (d.mant == 0) {
		v = 0.0;
	} else if (d.mant < (1ull << 53) && d.exp10 >= -22 && d.exp10 <= 22) {
		v = (double)d.mant;
		v = d.exp10 < 0 ? v / pow10_tab[-d.exp10] : v * pow10_tab[d.exp10];
	} else if (d.exp10 < -400) {
		v = 0.0;
	} else if (d.exp10 > 400) {
		v = HUGE_VAL;
	} else {
		v = (double)((long double)d.mant * powl(10.0L, (long double)d.exp10));
	}
	*out = d.neg ? -v : v;
	return 0;
}

int csv_parse_sample(const char *p, size_t len, char dec, double *out)
{
	static const char *const missing[] = { "nan", "-nan", "+nan", "inf", "+inf", "-inf" };
	struct csv_field f = { p, len };

	if (!csv_parse_double(p, len, dec, out))
		return 0;
	while (f.len && (*f.p == ' ' || *f.p == '\t'))
		f.p++, f.len--;
	while (f.len && (f.p[f.len - 1] == ' ' || f.p[f.len - 1] == '\t'))
		f.len--;
	for (size_t i = 0; i < sizeof(missing) / sizeof(missing[0]); i++)
		if (csv_field_is(f, missing[i])) {
			*out = NAN;
			return 0;
		}
	if (f.len == 0 || (f.len >= 3 && !memcmp(f.p, "***", 3))) {
		*out = NAN;
		return 0;
	}
	return -1;
}

static const uint64_t pow10_u64[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
	1000000000000ull, 10000000000000ull, 100000000000000ull,
	1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
	1000000000000000000ull, 10000000000000000000ull,
};

int csv_parse_scaled(const char *p, size_t len, char dec, int scale, int64_t *out)
{
	struct decnum d;
	uint64_t v;
	int k;

	if (dec_split(p, len, dec, &d))
		return -1;
	k = d.exp10 + scale;
	if (d.mant == 0) {
		v = 0;
	} else if (k >= 0) {
		if (k > 19 || d.mant > UINT64_MAX / pow10_u64[k])
			return -1;
		v = d.mant * pow10_u64[k];
	} else if (k >= -19) {
		uint64_t q = pow10_u64[-k];

		v = d.mant / q;
		if (d.mant % q >= q - q / 2)
			v++;
	} else {
		v = 0;
	}
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*out = d.neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

int csv_parse_i64(const char *p, size_t len, int64_t *out)
{
	const char *e = p + len;
	uint64_t v = 0;
	int neg = 0, any = 0;

	while (p < e && *p == ' ')
		p++;
	while (e > p && (e[-1] == ' ' || e[-1] == '\r'))
		e--;
	if (p < e && (*p == '-' || *p == '+')) {
		neg = *p == '-';
		p++;
	}
	for (; p < e && (unsigned)(*p - '0') < 10; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
		any = 1;
	}
	if (!any || p != e || v > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

int csv_parse_quantum_exp(const char *p, size_t len, char dec, int *exp10)
{
	struct decnum d;

	if (dec_split(p, len, dec, &d))
		return -1;
	*exp10 = d.quantum;
	return 0;
}
