/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading sqwave's own JSON documents (summaries, analyses, comparisons)
 * for report and report --trend: every member checked for its type and
 * range as it is read, the first problem kept with file, line and member. */
#ifndef SQW_DOCREAD_H
#define SQW_DOCREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/jsonread.h"
#include "log/pin.h"

/*
 * A member that is absent or null is "not given" (the writers write null
 * for what they do not know); one of another type or out of range makes
 * the whole document bad input (exit 2, naming the file, the line and the
 * member), never a 0 or a wrapped number in a row that looks measured.
 * Only the first problem is kept: later calls return "not given".
 */
struct docread {
	const char *source;        /* the file, as given */
	char where[64];            /* a prefix of member paths ("phases[2].") */
	char *err;                 /* the caller's buffer of the error contract */
	size_t errlen;
	bool bad;                  /* a problem was found (in err) */
};

/* A member path: DOCREAD_KEYS("run", "half_period_ns"). */
#define DOCREAD_KEYS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Record a problem with @keys (at @at's line, when given): "@what". */
void docread_fail(struct docread *d, const struct jv *at, const char *const *keys,
		  const char *what);
/* @keys below @obj, one member each; NULL when absent or null anywhere on
 * the way, or (with a problem) when one is there with another type than
 * @type (an object on the way). */
const struct jv *docread_get(struct docread *d, const struct jv *obj, const char *const *keys,
			     enum jv_type type);
/* An integer in [@lo, @hi] into *@out: true when given (and valid). */
bool docread_int(struct docread *d, const struct jv *obj, const char *const *keys, int64_t lo,
		 int64_t hi, int64_t *out);
/* The same, or @def when not given. */
int64_t docread_int_or(struct docread *d, const struct jv *obj, const char *const *keys,
		       int64_t lo, int64_t hi, int64_t def);
/* A number (NaN never: JSON has none) into *@out: true when given. */
bool docread_num(struct docread *d, const struct jv *obj, const char *const *keys, double *out);
bool docread_bool_or(struct docread *d, const struct jv *obj, const char *const *keys, bool def);
const char *docread_str_or(struct docread *d, const struct jv *obj, const char *const *keys,
			   const char *def);

/* What the document's pin should do (log/pin.h): its "pin" member, or in a
 * document written before it, what it has (run.half_period_ns, run.high_ns,
 * run.low_ns, run.phase_ns; a respond member makes it a respond run). A pin
 * whose nominal widths are not those its shape gives is a problem. */
void docread_pin(struct docread *d, const struct jv *doc, struct pin *p);

/* A document's default label: its file's name without .sqwlog or .json,
 * so that a run's log and its summary (run --log x.sqwlog --json x.json)
 * share one; escaped for terminals, Markdown and SVG. */
void docread_label_of(char *dst, size_t len, const char *source);

#endif
