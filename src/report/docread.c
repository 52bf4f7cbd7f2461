/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checked reading of sqwave's JSON documents (docread.h). */
#include "report/docread.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/msgbuf.h"
#include "base/outfile.h"

void docread_fail(struct docread *d, const struct jv *at, const char *const *keys,
		  const char *what)
{
	char path[256] = "";
	size_t i;

	if (d->bad)
		return;
	d->bad = true;
	for (i = 0; keys[i]; i++)
		msgbuf_add(path, sizeof(path), "%s%s", i ? "." : "", keys[i]);
	if (at)
		msgbuf_set(d->err, d->errlen, "%s:%zu: %s%s %s", OUTFILE_ESC(d->source), at->line,
			   d->where, path, what);
	else
		msgbuf_set(d->err, d->errlen, "%s: %s%s %s", OUTFILE_ESC(d->source), d->where, path,
			   what);
}

const struct jv *docread_get(struct docread *d, const struct jv *obj, const char *const *keys,
			     enum jv_type type)
{
	static const char *const names[] = { "null", "a boolean", "a number", "a string",
					     "an array", "an object" };
	const struct jv *v = obj;
	size_t i;

	for (i = 0; v && keys[i]; i++) {
		enum jv_type want = keys[i + 1] ? JV_OBJECT : type;

		v = jv_get(v, keys[i]);
		if (!v || v->type == JV_NULL)
			return NULL;
		if (v->type != want) {
			char what[64];
			const char *part[8] = { NULL };
			size_t k;

			snprintf(what, sizeof(what), "must be %s, not %s", names[want], names[v->type]);
			for (k = 0; k <= i && k < 7; k++)
				part[k] = keys[k];
			docread_fail(d, v, part, what);
			return NULL;
		}
	}
	return v;
}

bool docread_int(struct docread *d, const struct jv *obj, const char *const *keys, int64_t lo,
		 int64_t hi, int64_t *out)
{
	const struct jv *v = docread_get(d, obj, keys, JV_NUMBER);
	char what[96];

	if (!v)
		return false;
	if (v->is_int && v->i >= lo && v->i <= hi) {
		*out = v->i;
		return true;
	}
	snprintf(what, sizeof(what), "must be an integer from %" PRId64 " to %" PRId64, lo, hi);
	docread_fail(d, v, keys, what);
	return false;
}

int64_t docread_int_or(struct docread *d, const struct jv *obj, const char *const *keys,
		       int64_t lo, int64_t hi, int64_t def)
{
	int64_t v;

	return docread_int(d, obj, keys, lo, hi, &v) ? v : def;
}

bool docread_num(struct docread *d, const struct jv *obj, const char *const *keys, double *out)
{
	const struct jv *v = docread_get(d, obj, keys, JV_NUMBER);

	if (v)
		*out = v->num;
	return v != NULL;
}

bool docread_bool_or(struct docread *d, const struct jv *obj, const char *const *keys, bool def)
{
	const struct jv *v = docread_get(d, obj, keys, JV_BOOL);

	return v ? v->b : def;
}

const char *docread_str_or(struct docread *d, const struct jv *obj, const char *const *keys,
			   const char *def)
{
	const struct jv *v = docread_get(d, obj, keys, JV_STRING);

	return v ? v->str : def;
}

void docread_label_of(char *dst, size_t len, const char *source)
{
	const char *slash = strrchr(source, '/'), *name = slash ? slash + 1 : source;
	size_t n = strlen(name);
	char tmp[512];

	if (!len)
		return;
	if (n > 7 && !strcmp(name + n - 7, ".sqwlog"))
		n -= 7;
	else if (n > 5 && !strcmp(name + n - 5, ".json"))
		n -= 5;
	snprintf(tmp, sizeof(tmp), "%.*s", (int)n, name);
	outfile_escape(tmp, dst, len);
}
