/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Comparisons of one log as rows of report's instruments table (instrow.h). */
#include "report/instrow.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/msgbuf.h"
#include "base/outfile.h"
#include "base/units.h"

/* The newest sqwave-compare schema_version read here. */
#define INST_ROW_READS_VERSION 1
/* A width beyond 1000 s is no pulse of a wave (docread.c's bound). */
#define IR_NS_MAX INT64_C(1000000000000)

#define K DOCREAD_KEYS

static void copy_clean(char *dst, size_t len, const char *s)
{
	outfile_escape(s ? s : "", dst, len);
}

bool inst_row_is_doc(const struct jv *doc)
{
	return !strcmp(jv_str(jv_get(doc, "schema"), ""), "sqwave-compare") &&
	       !jv_get(doc, "mode");
}

/* A member that must be there: absent or null is a problem. */
static void need(struct docread *d, const struct jv *obj, const char *const *keys, bool given)
{
	if (!given && !d->bad)
		docread_fail(d, obj, keys, "is missing");
}

static int64_t need_int(struct docread *d, const struct jv *obj, const char *const *keys,
			int64_t lo, int64_t hi)
{
	int64_t v = 0;

	need(d, obj, keys, docread_int(d, obj, keys, lo, hi, &v));
	return v;
}

/* A number in [@lo, @hi] that must be there. */
static double need_num(struct docread *d, const struct jv *obj, const char *const *keys,
		       double lo, double hi)
{
	double v = 0;

	if (!docread_num(d, obj, keys, &v)) {
		need(d, obj, keys, false);
		return 0;
	}
	if (!(v >= lo && v <= hi)) {
		char what[96];

		snprintf(what, sizeof(what), "must be a number from %g to %g", lo, hi);
		docread_fail(d, docread_get(d, obj, keys, JV_NUMBER), keys, what);
	}
	return v;
}

static bool need_bool(struct docread *d, const struct jv *obj, const char *const *keys)
{
	need(d, obj, keys, docread_get(d, obj, keys, JV_BOOL) != NULL);
	return docread_bool_or(d, obj, keys, false);
}

/* A word of @allowed (NULL-terminated) at @keys into @dst. */
static void need_word(struct docread *d, const struct jv *obj, const char *const *keys,
		      const char *const *allowed, char *dst, size_t len)
{
	const struct jv *v = docread_get(d, obj, keys, JV_STRING);
	size_t i;

	snprintf(dst, len, "?");
	if (!v) {
		need(d, obj, keys, false);
		return;
	}
	for (i = 0; allowed[i]; i++) {
		if (!strcmp(v->str, allowed[i])) {
			snprintf(dst, len, "%s", allowed[i]);
			return;
		}
	}
	docread_fail(d, v, keys, "is not a word compare writes");
}

static void read_capture(struct docread *d, const struct jv *doc, const struct jv *cap,
			 struct inst_row *w)
{
	static const char *const statuses[] = { "aligned", "ambiguous", "no-overlap",
						"too-few-edges", NULL };
	const struct jv *cov = docread_get(d, doc, K("coverage"), JV_OBJECT);
	const struct jv *any = docread_get(d, doc, K("widths", "any"), JV_OBJECT);

	w->have_capture = true;
	snprintf(d->where, sizeof(d->where), "capture.");
	copy_clean(w->format, sizeof(w->format), docread_str_or(d, cap, K("format"), "?"));
	copy_clean(w->channel, sizeof(w->channel), docread_str_or(d, cap, K("channel"), "?"));
	w->cap_edges = (uint64_t)need_int(d, cap, K("edges"), 0, INT64_MAX);
	w->resolution_ns = need_num(d, cap, K("resolution_ns"), 0, 1e12);
	d->where[0] = '\0';
	need_word(d, doc, K("alignment", "status"), statuses, w->alignment, sizeof(w->alignment));
	if (cov) {
		snprintf(d->where, sizeof(d->where), "coverage.");
		w->have_coverage = true;
		w->run_edges = (uint64_t)need_int(d, cov, K("run_edges"), 0, INT64_MAX);
		w->covered_edges = (uint64_t)need_int(d, cov, K("covered_edges"), 0, INT64_MAX);
		w->fraction = need_num(d, cov, K("fraction"), 0, 1);
		w->gaps = (uint64_t)need_int(d, cov, K("gaps"), 0, INT64_MAX);
		w->span_s = need_num(d, cov, K("span_s"), 0, 1e9);
		w->covered_s = need_num(d, cov, K("covered_s"), 0, 1e9);
		/* compare --min-coverage; a document without it asked for none */
		w->have_min = docread_num(d, cov, K("min_fraction"), &w->min_fraction);
		w->enough = docread_bool_or(d, cov, K("enough"), true);
		if (!d->bad && w->have_min && !(w->min_fraction >= 0 && w->min_fraction <= 1))
			docread_fail(d, cov, K("min_fraction"), "must be a number from 0 to 1");
		if (!d->bad && w->have_min && w->enough != (w->fraction >= w->min_fraction))
			docread_fail(d, cov, K("enough"), "does not follow from fraction and min_fraction");
		/* what the table says of it must hold together */
		if (!d->bad && w->covered_edges > w->run_edges)
			docread_fail(d, cov, K("covered_edges"), "is more than run_edges");
		if (!d->bad && w->covered_edges && strcmp(w->alignment, "aligned"))
			docread_fail(d, cov, K("covered_edges"), "must be 0: the capture was not aligned");
		if (!d->bad && w->covered_s > w->span_s)
			docread_fail(d, cov, K("covered_s"), "is more than span_s");
		d->where[0] = '\0';
	}
	/* the capture's extremes beside the log's bounds; none without pulses */
	if (any && docread_get(d, any, K("capture", "min_ns"), JV_NUMBER) &&
	    docread_get(d, any, K("log", "tmin_lo_ns"), JV_NUMBER)) {
		snprintf(d->where, sizeof(d->where), "widths.any.");
		w->have_widths = true;
		w->cap_tmin_ns = need_int(d, any, K("capture", "min_ns"), 0, IR_NS_MAX);
		w->cap_tmax_ns = need_int(d, any, K("capture", "max_ns"), 0, IR_NS_MAX);
		w->tmin_lo_ns = need_int(d, any, K("log", "tmin_lo_ns"), -IR_NS_MAX, IR_NS_MAX);
		w->tmin_hi_ns = need_int(d, any, K("log", "tmin_hi_ns"), -IR_NS_MAX, IR_NS_MAX);
		w->tmax_lo_ns = need_int(d, any, K("log", "tmax_lo_ns"), -IR_NS_MAX, IR_NS_MAX);
		w->tmax_hi_ns = need_int(d, any, K("log", "tmax_hi_ns"), -IR_NS_MAX, IR_NS_MAX);
		w->tmin_agrees = need_bool(d, any, K("tmin_agrees"));
		w->tmax_agrees = need_bool(d, any, K("tmax_agrees"));
		d->where[0] = '\0';
	}
}

static void read_reading(struct docread *d, const struct jv *rd, struct inst_reading *x)
{
	static const char *const whats[] = { "tmin", "tmax", NULL };
	static const char *const pols[] = { "positive", "negative", "any", NULL };
	static const char *const statuses[] = { "ok", "no-pulses", "no-count", "count-above-run",
						NULL };
	const struct jv *p = docread_get(d, rd, K("prediction"), JV_OBJECT);
	int64_t v;

	need_word(d, rd, K("what"), whats, x->what, sizeof(x->what));
	need_word(d, rd, K("polarity"), pols, x->polarity, sizeof(x->polarity));
	x->scope_ns = need_int(d, rd, K("scope_ns"), 0, IR_NS_MAX);
	x->tolerance_ns = need_int(d, rd, K("tolerance_ns"), 0, IR_NS_MAX);
	x->have_log = docread_int(d, rd, K("log_lo_ns"), -IR_NS_MAX, IR_NS_MAX, &x->log_lo_ns) &
		      docread_int(d, rd, K("log_hi_ns"), -IR_NS_MAX, IR_NS_MAX, &x->log_hi_ns);
	x->have_count = docread_int(d, rd, K("count"), 0, INT64_MAX, &v);
	x->count = x->have_count ? (uint64_t)v : 0;
	x->agrees = need_bool(d, rd, K("agrees"));
	if (!p) {
		if (x->have_count && !d->bad)
			docread_fail(d, rd, K("prediction"), "is missing for a reading with a count");
		return;
	}
	if (!x->have_count && !d->bad) {
		docread_fail(d, p, K("prediction"), "is given for a reading without a count");
		return;
	}
	need_word(d, rd, K("prediction", "status"), statuses, x->status, sizeof(x->status));
	x->run_pulses = (uint64_t)need_int(d, rd, K("prediction", "run_pulses"), 0, INT64_MAX);
	if (strcmp(x->status, "ok"))
		return;
	x->coverage = need_num(d, rd, K("prediction", "coverage"), 0, 1);
	x->level = need_num(d, rd, K("prediction", "level"), 0, 1);
	x->expected_ns = need_num(d, rd, K("prediction", "expected_ns"), 0, 1e12);
	x->lo_ns = need_int(d, rd, K("prediction", "lo_ns"), 0, IR_NS_MAX);
	x->hi_ns = need_int(d, rd, K("prediction", "hi_ns"), 0, IR_NS_MAX);
	x->p_caught = need_num(d, rd, K("prediction", "p_caught_extreme"), 0, 1);
	if (!d->bad && x->lo_ns > x->hi_ns)
		docread_fail(d, p, K("prediction", "lo_ns"), "is above hi_ns");
}

bool inst_row_read(struct docread *d, const struct jv *doc, struct inst_row *w)
{
	static const char *const verdicts[] = { "agree", "disagree", "no-overlap", "ambiguous",
						"too-few-edges", NULL };
	const struct jv *cap, *readings;
	int64_t version = 0;
	size_t i;

	memset(w, 0, sizeof(*w));
	copy_clean(w->source, sizeof(w->source), d->source);
	if (!docread_int(d, doc, K("schema_version"), 1, INT64_MAX, &version)) {
		need(d, NULL, K("schema_version"), false);
		return false;
	}
	if (version > INST_ROW_READS_VERSION) {
		docread_fail(d, jv_get(doc, "schema_version"), K("schema_version"),
			     "is newer than this sqwave reads (1): a newer sqwave wrote it");
		return false;
	}
	if (docread_get(d, doc, K("respond"), JV_OBJECT)) {
		docread_fail(d, NULL, K("respond"), "is there: a respond log's comparison "
			     "(stimulus and response); report's instruments table takes a wave's");
		return false;
	}
	copy_clean(w->log_path, sizeof(w->log_path), docread_str_or(d, doc, K("run", "path"), ""));
	need(d, doc, K("run", "path"), w->log_path[0] != '\0');
	docread_label_of(w->log_label, sizeof(w->log_label), w->log_path);
	w->records = (uint64_t)need_int(d, doc, K("run", "records"), 0, INT64_MAX);
	{
		int64_t t;

		w->have_start = docread_int(d, doc, K("run", "start_realtime_ns"), 0, INT64_MAX, &t);
		w->start_realtime_ns = w->have_start ? (uint64_t)t : 0;
	}
	cap = docread_get(d, doc, K("capture"), JV_OBJECT);
	if (cap)
		read_capture(d, doc, cap, w);
	readings = docread_get(d, doc, K("scope", "readings"), JV_ARRAY);
	if (jv_len(readings) > INST_ROW_READINGS && !d->bad)
		docread_fail(d, readings, K("scope", "readings"), "holds more than 8 readings");
	for (i = 0; i < jv_len(readings) && i < INST_ROW_READINGS && !d->bad; i++) {
		const struct jv *rd = jv_at(readings, i);

		snprintf(d->where, sizeof(d->where), "scope.readings[%zu].", i);
		if (rd->type != JV_OBJECT) {
			docread_fail(d, rd, K("scope", "readings"), "must hold objects");
			break;
		}
		read_reading(d, rd, &w->readings[i]);
		w->nreadings = i + 1;
	}
	d->where[0] = '\0';
	if (!cap && !w->nreadings && !d->bad)
		docread_fail(d, NULL, K("capture"), "is null and there is no scope reading: no "
			     "instrument");
	need_word(d, doc, K("verdict"), verdicts, w->verdict, sizeof(w->verdict));
	w->exit_code = (int)need_int(d, doc, K("exit_code"), 0, 3);
	return !d->bad;
}

const char *inst_row_verdict(const struct inst_row *w)
{
	if (!strcmp(w->verdict, "agree"))
		return "AGREE";
	if (!strcmp(w->verdict, "disagree") || !strcmp(w->verdict, "no-overlap"))
		return "DISAGREE";
	return "UNDECIDED";
}

/* ---- the table ---- */

enum { C_SOURCE, C_RUN, C_INSTRUMENT, C_VERDICT, C_READING, C_PREDICTION, C_COVERAGE };
static const struct {
	const char *head;
	bool right;
} cols[INST_ROW_NCOLS] = {
	[C_SOURCE] = { "compare", false },
	[C_RUN] = { "run", false },
	[C_INSTRUMENT] = { "instrument", false },
	[C_VERDICT] = { "verdict", false },
	[C_READING] = { "reading us", false },
	[C_PREDICTION] = { "prediction us", false },
	[C_COVERAGE] = { "coverage", false },
};

const char *inst_row_head(size_t col, bool *right)
{
	*right = cols[col].right;
	return cols[col].head;
}

/* "Tmin any" */
static const char *reading_name(const struct inst_reading *x, char *buf, size_t len)
{
	snprintf(buf, len, "T%s %s", x->what + 1, x->polarity);
	return buf;
}

/* The reading, the prediction and the coverage (@cov NULL: said by the
 * reading before) of scope reading @x, appended ("; " between readings),
 * the first two after @prefix. */
static void reading_cells(const struct inst_reading *x, const char *prefix, char *reading,
			  char *pred, char *cov)
{
	char name[32];

	reading_name(x, name, sizeof(name));
	msgbuf_add(reading, INST_ROW_CELL, "%s%s%s %s%s", reading[0] ? "; " : "", prefix, name,
		   UNITS_US(x->scope_ns), x->agrees ? "" : " (outside)");
	msgbuf_add(pred, INST_ROW_CELL, "%s%s", pred[0] ? "; " : "", prefix);
	if (!x->status[0])
		msgbuf_add(pred, INST_ROW_CELL, "%s: no count: not judged by coverage", name);
	else if (!strcmp(x->status, "ok"))
		msgbuf_add(pred, INST_ROW_CELL, "%s ~%s in [%s, %s] (%.0f %%), extreme caught %.1f %%",
			   name, UNITS_USD(x->expected_ns), UNITS_US(x->lo_ns), UNITS_US(x->hi_ns),
			   x->level * 100, x->p_caught * 100);
	else if (!strcmp(x->status, "count-above-run"))
		msgbuf_add(pred, INST_ROW_CELL, "%s: count %" PRIu64 " above the run's %" PRIu64
			   " pulses: not judged by coverage", name, x->count, x->run_pulses);
	else if (!strcmp(x->status, "no-count"))
		msgbuf_add(pred, INST_ROW_CELL, "%s: a count of 0: not judged by coverage", name);
	else
		msgbuf_add(pred, INST_ROW_CELL, "%s: no pulses in the run", name);
	if (x->have_log && strcmp(x->status, "ok"))
		msgbuf_add(pred, INST_ROW_CELL, ", log [%s, %s]", UNITS_US(x->log_lo_ns),
			   UNITS_US(x->log_hi_ns));
	if (cov) {
		if (cov[0])
			msgbuf_add(cov, INST_ROW_CELL, "; ");
		if (x->have_count && x->status[0] && strcmp(x->status, "no-pulses"))
			msgbuf_add(cov, INST_ROW_CELL, "scope %" PRIu64 " of %" PRIu64 " pulses%s",
				   x->count, x->run_pulses, "");
		else if (x->have_count)
			msgbuf_add(cov, INST_ROW_CELL, "scope %" PRIu64 " pulses", x->count);
		else
			msgbuf_add(cov, INST_ROW_CELL, "scope: count unknown");
		if (!strcmp(x->status, "ok"))
			msgbuf_add(cov, INST_ROW_CELL, " (%.3f %%)", x->coverage * 100);
	}
}

/* Whether reading @i counted what reading @i - 1 did (one coverage said once). */
static bool same_count(const struct inst_row *w, size_t i)
{
	const struct inst_reading *a, *b = &w->readings[i];

	if (!i)
		return false;
	a = &w->readings[i - 1];
	return a->have_count == b->have_count && a->count == b->count &&
	       a->run_pulses == b->run_pulses && !strcmp(a->status, b->status);
}

void inst_row_cells(const struct inst_row *w, const struct inst_run *run,
		    char c[][INST_ROW_CELL])
{
	bool both = w->have_capture && w->nreadings;
	size_t k, i;

	for (k = 0; k < INST_ROW_NCOLS; k++)
		c[k][0] = '\0';
	snprintf(c[C_SOURCE], INST_ROW_CELL, "%s", w->source);
	if (run)
		snprintf(c[C_RUN], INST_ROW_CELL, "%s (%s)", run->label, run->source);
	else
		snprintf(c[C_RUN], INST_ROW_CELL, "%s (its log only)", w->log_label);
	if (w->have_capture) {
		msgbuf_add(c[C_INSTRUMENT], INST_ROW_CELL, "analyzer: %s %s, %g ns", w->format,
			   w->channel, w->resolution_ns);
	}
	if (w->nreadings) {
		msgbuf_add(c[C_INSTRUMENT], INST_ROW_CELL, "%sscope:", both ? "; " : "");
		for (i = 0; i < w->nreadings; i++) {
			size_t j;

			for (j = 0; j < i && strcmp(w->readings[j].polarity, w->readings[i].polarity);
			     j++)
				;
			if (j == i)
				msgbuf_add(c[C_INSTRUMENT], INST_ROW_CELL, "%s%s", i ? ", " : " ",
					   w->readings[i].polarity);
		}
	}
	snprintf(c[C_VERDICT], INST_ROW_CELL, "%s%s%s%s", inst_row_verdict(w),
		 strcmp(w->verdict, "agree") && strcmp(w->verdict, "disagree") ? " (" : "",
		 strcmp(w->verdict, "agree") && strcmp(w->verdict, "disagree") ? w->verdict : "",
		 strcmp(w->verdict, "agree") && strcmp(w->verdict, "disagree") ? ")" : "");
	if (w->have_widths) {
		char a[32], b[32];

		msgbuf_add(c[C_READING], INST_ROW_CELL, "%sTmin any %s%s, Tmax any %s%s",
			   both ? "capture " : "", UNITS_US(w->cap_tmin_ns),
			   w->tmin_agrees ? "" : " (outside)", UNITS_US(w->cap_tmax_ns),
			   w->tmax_agrees ? "" : " (outside)");
		units_us(w->tmin_lo_ns, a, sizeof(a));
		units_us(w->tmin_hi_ns, b, sizeof(b));
		msgbuf_add(c[C_PREDICTION], INST_ROW_CELL, "%sTmin any in [%s, %s], ",
			   both ? "capture " : "", a, b);
		units_us(w->tmax_lo_ns, a, sizeof(a));
		units_us(w->tmax_hi_ns, b, sizeof(b));
		msgbuf_add(c[C_PREDICTION], INST_ROW_CELL, "Tmax any in [%s, %s] (the log's bounds)",
			   a, b);
	}
	if (w->have_coverage) {
		msgbuf_add(c[C_COVERAGE], INST_ROW_CELL,
			   "%" PRIu64 " of %" PRIu64 " edges (%.3f %%), %" PRIu64 " gap%s, %.3f of "
			   "%.3f s covered", w->covered_edges, w->run_edges, w->fraction * 100,
			   w->gaps, w->gaps == 1 ? "" : "s", w->covered_s, w->span_s);
		if (strcmp(w->alignment, "aligned"))
			msgbuf_add(c[C_COVERAGE], INST_ROW_CELL, ": not aligned (%s), nothing counted",
				   w->alignment);
		if (w->have_min)
			msgbuf_add(c[C_COVERAGE], INST_ROW_CELL, "; at least %.3f %% asked: %s",
				   w->min_fraction * 100, w->enough ? "enough" : "NOT ENOUGH");
	} else if (w->have_capture) {
		msgbuf_add(c[C_COVERAGE], INST_ROW_CELL, "capture: not given%s%s",
			   strcmp(w->alignment, "aligned") ? ", not aligned: " : "",
			   strcmp(w->alignment, "aligned") ? w->alignment : "");
	}
	for (i = 0; i < w->nreadings; i++) {
		const struct inst_reading *x = &w->readings[i];

		reading_cells(x, both && !i ? "scope " : "", c[C_READING], c[C_PREDICTION],
			      same_count(w, i) ? NULL : c[C_COVERAGE]);
	}
	for (k = 0; k < INST_ROW_NCOLS; k++)
		if (!c[k][0])
			snprintf(c[k], INST_ROW_CELL, "-");
}

void inst_row_write_json(struct json_writer *jw, const struct inst_row *w,
			 const struct inst_run *run)
{
	size_t i;

	json_object_begin(jw);
	json_kv_string(jw, "source", w->source);
	json_kv_string(jw, "log_path", w->log_path);
	json_kv_string(jw, "label", run ? run->label : w->log_label);
	json_kv_string(jw, "joined", run ? run->source : NULL);
	if (w->have_capture) {
		json_kv_object_begin(jw, "capture");
		json_kv_string(jw, "format", w->format);
		json_kv_string(jw, "channel", w->channel);
		json_kv_uint(jw, "edges", w->cap_edges);
		json_kv_double(jw, "resolution_ns", w->resolution_ns);
		json_kv_string(jw, "alignment", w->alignment);
		if (w->have_widths) {
			json_kv_int(jw, "tmin_ns", w->cap_tmin_ns);
			json_kv_int(jw, "tmax_ns", w->cap_tmax_ns);
			json_kv_int(jw, "log_tmin_lo_ns", w->tmin_lo_ns);
			json_kv_int(jw, "log_tmin_hi_ns", w->tmin_hi_ns);
			json_kv_int(jw, "log_tmax_lo_ns", w->tmax_lo_ns);
			json_kv_int(jw, "log_tmax_hi_ns", w->tmax_hi_ns);
			json_kv_bool(jw, "tmin_agrees", w->tmin_agrees);
			json_kv_bool(jw, "tmax_agrees", w->tmax_agrees);
		} else {
			json_kv_null(jw, "tmin_ns");
			json_kv_null(jw, "tmax_ns");
			json_kv_null(jw, "log_tmin_lo_ns");
			json_kv_null(jw, "log_tmin_hi_ns");
			json_kv_null(jw, "log_tmax_lo_ns");
			json_kv_null(jw, "log_tmax_hi_ns");
			json_kv_null(jw, "tmin_agrees");
			json_kv_null(jw, "tmax_agrees");
		}
		json_object_end(jw);
	} else {
		json_kv_null(jw, "capture");
	}
	if (w->have_coverage) {
		json_kv_object_begin(jw, "coverage");
		json_kv_uint(jw, "run_edges", w->run_edges);
		json_kv_uint(jw, "covered_edges", w->covered_edges);
		json_kv_double(jw, "fraction", w->fraction);
		json_kv_uint(jw, "gaps", w->gaps);
		json_kv_double(jw, "span_s", w->span_s);
		json_kv_double(jw, "covered_s", w->covered_s);
		if (w->have_min)
			json_kv_double(jw, "min_fraction", w->min_fraction);
		else
			json_kv_null(jw, "min_fraction");
		json_kv_bool(jw, "enough", w->enough);
		json_object_end(jw);
	} else {
		json_kv_null(jw, "coverage");
	}
	json_kv_array_begin(jw, "readings");
	for (i = 0; i < w->nreadings; i++) {
		const struct inst_reading *x = &w->readings[i];

		json_object_begin(jw);
		json_kv_string(jw, "what", x->what);
		json_kv_string(jw, "polarity", x->polarity);
		json_kv_int(jw, "scope_ns", x->scope_ns);
		json_kv_int(jw, "tolerance_ns", x->tolerance_ns);
		if (x->have_log) {
			json_kv_int(jw, "log_lo_ns", x->log_lo_ns);
			json_kv_int(jw, "log_hi_ns", x->log_hi_ns);
		} else {
			json_kv_null(jw, "log_lo_ns");
			json_kv_null(jw, "log_hi_ns");
		}
		if (x->have_count)
			json_kv_uint(jw, "count", x->count);
		else
			json_kv_null(jw, "count");
		if (x->status[0]) {
			json_kv_object_begin(jw, "prediction");
			json_kv_string(jw, "status", x->status);
			json_kv_uint(jw, "run_pulses", x->run_pulses);
			if (!strcmp(x->status, "ok")) {
				json_kv_double(jw, "coverage", x->coverage);
				json_kv_double(jw, "level", x->level);
				json_kv_double(jw, "expected_ns", x->expected_ns);
				json_kv_int(jw, "lo_ns", x->lo_ns);
				json_kv_int(jw, "hi_ns", x->hi_ns);
				json_kv_double(jw, "p_caught_extreme", x->p_caught);
			}
			json_object_end(jw);
		} else {
			json_kv_null(jw, "prediction");
		}
		json_kv_bool(jw, "agrees", x->agrees);
		json_object_end(jw);
	}
	json_array_end(jw);
	json_kv_string(jw, "compare_verdict", w->verdict);
	json_kv_int(jw, "exit_code", w->exit_code);
	json_kv_string(jw, "verdict", inst_row_verdict(w));
	json_object_end(jw);
}
