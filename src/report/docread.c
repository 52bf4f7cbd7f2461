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

/* A word of the pin's field @f at @keys below @obj (its index), @def when
 * not given. */
static int word_of(struct docread *d, const struct jv *obj, const char *const *keys,
		   enum pin_word_field f, int def)
{
	const char *v = docread_str_or(d, obj, keys, NULL);
	int i;

	if (!v)
		return def;
	if ((i = pin_word(f, v)) >= 0)
		return i;
	docread_fail(d, docread_get(d, obj, keys, JV_STRING), keys, "is none of the known words");
	return def;
}

#define DR_NS_MAX INT64_C(1000000000000) /* 1000 s: beyond any key's range */

void docread_pin(struct docread *d, const struct jv *doc, struct pin *p)
{
	const struct jv *pj = docread_get(d, doc, DOCREAD_KEYS("pin"), JV_OBJECT);
	int64_t half, nom[2];
	struct wave w;

	if (!pj) {	/* a document written before the pin: what it has */
		half = docread_int_or(d, doc, DOCREAD_KEYS("run", "half_period_ns"), 0, DR_NS_MAX, 0);
		if (!half)	/* an analysis has it at the top */
			half = docread_int_or(d, doc, DOCREAD_KEYS("half_period_ns"), 0, DR_NS_MAX, 0);
		if (docread_get(d, doc, DOCREAD_KEYS("respond"), JV_OBJECT)) {
			pin_init_respond(p, "", 0, PIN_FOLLOW, "", PIN_EDGE_BOTH, 0, 0);
			return;
		}
		w = half > 0 ? wave_square(half) : (struct wave){ 0 };
		w.high_ns = docread_int_or(d, doc, DOCREAD_KEYS("run", "high_ns"), 1, DR_NS_MAX,
					   w.high_ns);
		w.low_ns = docread_int_or(d, doc, DOCREAD_KEYS("run", "low_ns"), 1, DR_NS_MAX,
					  w.low_ns);
		w.phase_ns = docread_int_or(d, doc, DOCREAD_KEYS("run", "phase_ns"), 0, DR_NS_MAX, 0);
		pin_init_wave(p, "", &w, 0, PIN_GRID_MONOTONIC, 0);
		return;
	}
	if (word_of(d, pj, DOCREAD_KEYS("kind"), PIN_WORD_KIND, 0) == PIN_RESPOND) {
		pin_init_respond(p, docread_str_or(d, pj, DOCREAD_KEYS("line"), ""),
				 (int)docread_int_or(d, pj, DOCREAD_KEYS("idle_level"), 0, 1, 0),
				 (enum pin_respond_mode)word_of(d, pj, DOCREAD_KEYS("respond_mode"),
								PIN_WORD_MODE, 0),
				 docread_str_or(d, pj, DOCREAD_KEYS("input"), ""),
				 (enum pin_edge)word_of(d, pj, DOCREAD_KEYS("input_edge"), PIN_WORD_EDGE, 0),
				 docread_int_or(d, pj, DOCREAD_KEYS("debounce_ns"), 0, DR_NS_MAX, 0),
				 docread_int_or(d, pj, DOCREAD_KEYS("pulse_ns"), 1, DR_NS_MAX, 0));
	} else {
		w.high_ns = docread_int_or(d, pj, DOCREAD_KEYS("high_ns"), 0, DR_NS_MAX, 0);
		w.low_ns = docread_int_or(d, pj, DOCREAD_KEYS("low_ns"), 0, DR_NS_MAX, 0);
		w.phase_ns = docread_int_or(d, pj, DOCREAD_KEYS("phase_ns"), 0, DR_NS_MAX, 0);
		pin_init_wave(p, docread_str_or(d, pj, DOCREAD_KEYS("line"), ""), &w,
			      (int)docread_int_or(d, pj, DOCREAD_KEYS("idle_level"), 0, 1, 0),
			      (enum pin_grid)word_of(d, pj, DOCREAD_KEYS("grid"), PIN_WORD_GRID, 0),
			      docread_int_or(d, pj, DOCREAD_KEYS("grid_align_ns"), 1, INT64_MAX, 0));
	}
	/* the nominals a document states are the ones its shape gives */
	nom[PIN_POS] = docread_int_or(d, pj, DOCREAD_KEYS("nominal_ns", "positive"), 1, DR_NS_MAX, 0);
	nom[PIN_NEG] = docread_int_or(d, pj, DOCREAD_KEYS("nominal_ns", "negative"), 1, DR_NS_MAX, 0);
	if (!d->bad && (nom[PIN_POS] != p->nominal_ns[PIN_POS] ||
			nom[PIN_NEG] != p->nominal_ns[PIN_NEG]))
		docread_fail(d, pj, DOCREAD_KEYS("pin", "nominal_ns"),
			     "disagrees with the pin's shape");
}
