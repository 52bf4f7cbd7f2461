/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JSON writer: string escaping with UTF-8 validation, comma and indent
 * bookkeeping, numbers that always parse back. */
#include "base/json.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"
#include "base/utf8.h"

/* Where escaped text goes: a stream, or a bounded buffer (json_escape). */
struct sink {
	FILE *f;
	char *buf;
	size_t len, pos;
};

static void sink_put(struct sink *k, const char *p, size_t n)
{
	size_t i;

	if (k->f) {
		fwrite(p, 1, n, k->f);
		return;
	}
	for (i = 0; i < n; i++, k->pos++)
		if (k->pos + 1 < k->len)
			k->buf[k->pos] = p[i];
}

static void escape(struct sink *k, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	const unsigned char *run = s;   /* start of bytes that need no escaping */
	char esc[16];

	sink_put(k, "\"", 1);
	while (*s) {
		const char *rep = NULL;
		uint32_t cp;
		int n = utf8_next(s, SIZE_MAX, &cp);

		if (n > 0) {
			switch (cp) {
			case '"': rep = "\\\""; break;
			case '\\': rep = "\\\\"; break;
			case '\b': rep = "\\b"; break;
			case '\f': rep = "\\f"; break;
			case '\n': rep = "\\n"; break;
			case '\r': rep = "\\r"; break;
			case '\t': rep = "\\t"; break;
			default:
				/* DEL and the JavaScript line separators are valid JSON
				 * but trip up logs and JS consumers: escape them too. */
				if (cp < 0x20 || cp == 0x7f || cp == 0x2028 || cp == 0x2029) {
					snprintf(esc, sizeof(esc), "\\u%04" PRIx32, cp);
					rep = esc;
				}
			}
		} else {
			rep = "\\ufffd";
			n = -n;
		}
		if (rep) {
			sink_put(k, (const char *)run, (size_t)(s - run));
			sink_put(k, rep, strlen(rep));
			run = s + n;
		}
		s += n;
	}
	sink_put(k, (const char *)run, (size_t)(s - run));
	sink_put(k, "\"", 1);
}

size_t json_escape(char *out, size_t len, const char *s)
{
	struct sink k = { .buf = out, .len = len };

	escape(&k, s);
	if (len)
		out[k.pos < len ? k.pos : len - 1] = '\0';
	return k.pos;
}

/* ---- structure ---- */

void json_init(struct json_writer *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

static void indent(struct json_writer *w, int depth)
{
	int i;

	fputc('\n', w->f);
	for (i = 0; i < depth; i++)
		fputs("  ", w->f);
}

/* Everything a value needs before it: a comma, a newline and the indent. */
static void value_begin(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth == 0)
		return;
	/* Objects take keys, not bare values. */
	assert(w->closer[w->depth - 1] == ']');
	if (w->has_items[w->depth - 1])
		fputc(',', w->f);
	w->has_items[w->depth - 1] = true;
	indent(w, w->depth);
}

static void container_begin(struct json_writer *w, char open, char close)
{
	value_begin(w);
	assert(w->depth < JSON_MAX_DEPTH);
	fputc(open, w->f);
	w->closer[w->depth] = close;
	w->has_items[w->depth] = false;
	w->depth++;
}

static void container_end(struct json_writer *w, char close)
{
	assert(w->depth > 0 && w->closer[w->depth - 1] == close && !w->after_key);
	w->depth--;
	if (w->has_items[w->depth])
		indent(w, w->depth);
	fputc(close, w->f);
}

void json_object_begin(struct json_writer *w)
{
	container_begin(w, '{', '}');
}

void json_object_end(struct json_writer *w)
{
	container_end(w, '}');
}

void json_array_begin(struct json_writer *w)
{
	container_begin(w, '[', ']');
}

void json_array_end(struct json_writer *w)
{
	container_end(w, ']');
}

void json_key(struct json_writer *w, const char *key)
{
	struct sink k = { .f = w->f };

	assert(w->depth > 0 && w->closer[w->depth - 1] == '}' && !w->after_key);
	if (w->has_items[w->depth - 1])
		fputc(',', w->f);
	w->has_items[w->depth - 1] = true;
	indent(w, w->depth);
	escape(&k, key);
	fputs(": ", w->f);
	w->after_key = true;
}

/* ---- values ---- */

void json_string(struct json_writer *w, const char *s)
{
	struct sink k = { .f = w->f };

	if (!s) {
		json_null(w);
		return;
	}
	value_begin(w);
	escape(&k, s);
}

void json_int(struct json_writer *w, int64_t v)
{
	value_begin(w);
	fprintf(w->f, "%" PRId64, v);
}

void json_uint(struct json_writer *w, uint64_t v)
{
	value_begin(w);
	fprintf(w->f, "%" PRIu64, v);
}

void json_double(struct json_writer *w, double v)
{
	char buf[40];

	if (!isfinite(v)) {
		json_null(w);
		return;
	}
	value_begin(w);
	/* The shortest of 15 or 17 digits that reads back as the same double. */
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, w->f);
}

void json_bool(struct json_writer *w, bool v)
{
	value_begin(w);
	fputs(v ? "true" : "false", w->f);
}

void json_null(struct json_writer *w)
{
	value_begin(w);
	fputs("null", w->f);
}

void json_kv_string(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	json_string(w, s);
}

void json_kv_int(struct json_writer *w, const char *key, int64_t v)
{
	json_key(w, key);
	json_int(w, v);
}

void json_kv_uint(struct json_writer *w, const char *key, uint64_t v)
{
	json_key(w, key);
	json_uint(w, v);
}

void json_kv_double(struct json_writer *w, const char *key, double v)
{
	json_key(w, key);
	json_double(w, v);
}

void json_kv_bool(struct json_writer *w, const char *key, bool v)
{
	json_key(w, key);
	json_bool(w, v);
}

void json_kv_null(struct json_writer *w, const char *key)
{
	json_key(w, key);
	json_null(w);
}

void json_kv_object_begin(struct json_writer *w, const char *key)
{
	json_key(w, key);
	json_object_begin(w);
}

void json_kv_array_begin(struct json_writer *w, const char *key)
{
	json_key(w, key);
	json_array_begin(w);
}

int json_finish(struct json_writer *w)
{
	assert(w->depth == 0 && !w->after_key);
	fputc('\n', w->f);
	if (ferror(w->f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* The one writer of a document, on a stream: json_write_document() and
 * json_write_stream() alike. -1 with errno when the stream had an error. */
static int json_write_value(FILE *f, json_document_fn fn, const void *ctx)
{
	struct json_writer w;

	json_init(&w, f);
	fn(&w, ctx);
	errno = 0;
	return json_finish(&w);
}

int json_write_stream(FILE *f, const char *name, json_document_fn fn, const void *ctx, char *err,
		      size_t errlen)
{
	bool bad = json_write_value(f, fn, ctx) < 0;
	int e = errno;

	/* flushed even after a failed write: the flush's errno says why
	 * (ENOSPC), where the writer's end knows only that it failed */
	if (fflush(f) != 0) {
		bad = true;
		e = errno;
	}
	if (!bad)
		return 0;
	e = e ? e : EIO;
	if (err && errlen)
		snprintf(err, errlen, "writing %s failed: %s", name, strerror(e));
	errno = e;
	return -1;
}

int json_write_document(const char *path, json_document_fn fn, const void *ctx, char *err,
			size_t errlen)
{
	char why[512];
	FILE *f;
	int e;

	if (!strcmp(path, "-"))
		return json_write_stream(stdout, "standard output", fn, ctx, err, errlen);
	f = outfile_open(path, why, sizeof(why));
	if (!f) {
		e = errno;
		if (err && errlen)
			snprintf(err, errlen, "%s", why);
		errno = e;
		return -1;
	}
	/* a failed write is outfile_close()'s to say: it removes a partial file */
	json_write_value(f, fn, ctx);
	if (outfile_close(f, path, why, sizeof(why)) < 0) {
		e = errno ? errno : EIO;
		if (err && errlen)
			snprintf(err, errlen, "%s", why);
		errno = e;
		return -1;
	}
	return 0;
}
