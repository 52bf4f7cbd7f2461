/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report --baseline's runs (from summaries, analyses and logs) and its
 * outputs: the table, JSON (sqwave-regress), JUnit and LAVA results. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/json.h"
#include "base/msgbuf.h"
#include "base/outfile.h"
#include "base/stats.h"
#include "report/docread.h"
#include "report/regressdoc.h"
#include "stats/edgestats.h"
#include "summary/analysisdoc.h"
#include "summary/ciout.h"

#define K DOCREAD_KEYS
/* The newest sqwave-summary / sqwave-analysis schema_version read here. */
#define REGRESS_READS_VERSION 1
#define REGRESS_MAX_PHASES 1024

static const char *const pct_keys[] = { "p0.01", "p1", "p50", "p99", "p99.9", "p99.99" };
static const double pct_vals[] = { 0.01, 1, 50, 99, 99.9, 99.99 };

void regress_run_free(struct regress_run *run)
{
	size_t i;

	for (i = 0; i < run->nph; i++) {
		free(run->ph[i].wake.k);
		free(run->ph[i].pos.k);
		free(run->ph[i].neg.k);
	}
	free(run->ph);
	run->ph = NULL;
	run->nph = 0;
}

static struct regress_phase *new_phase(struct regress_run *run, const char *name)
{
	struct regress_phase *p = realloc(run->ph, (run->nph + 1) * sizeof(*p));

	if (!p)
		return NULL;
	run->ph = p;
	p = &run->ph[run->nph++];
	memset(p, 0, sizeof(*p));
	msgbuf_set(p->name, sizeof(p->name), "%s", name);
	return p;
}

static int cmp_knot(const void *a, const void *b)
{
	const struct regress_knot *x = a, *y = b;

	return (x->r0 > y->r0) - (x->r0 < y->r0);
}

/* A summary's distribution object @o: its min, max and percentiles (each
 * +- its error) at their nearest ranks. -1: out of memory. */
static int dist_of_doc(struct docread *d, const struct jv *o, struct regress_dist *out)
{
	int64_t n = 0, v, e;
	size_t i, j;

	memset(out, 0, sizeof(*out));
	if (!o || !docread_int(d, o, K("count"), 0, INT64_MAX, &n) || !n)
		return 0;
	if (!docread_int(d, o, K("min_ns"), INT64_MIN, INT64_MAX, &out->min) ||
	    !docread_int(d, o, K("max_ns"), out->min, INT64_MAX, &out->max))
		return 0;
	out->k = calloc(8, sizeof(*out->k));
	if (!out->k)
		return -1;
	out->n = (uint64_t)n;
	out->k[out->nk++] = (struct regress_knot){ 1, 1, out->min, out->min };
	for (i = 0; i < 6; i++) {
		uint64_t r = stats_rank(pct_vals[i], out->n);

		if (!docread_int(d, o, K("percentiles_ns", pct_keys[i]), out->min, out->max, &v))
			continue;
		e = docread_int_or(d, o, K("percentiles_error_ns", pct_keys[i]), 0, INT64_MAX / 4, 0);
		out->k[out->nk++] = (struct regress_knot){ r, r, v - e, v + e };
	}
	out->k[out->nk++] = (struct regress_knot){ out->n, out->n, out->max, out->max };
	qsort(out->k, out->nk, sizeof(*out->k), cmp_knot);
	/* one knot a rank: the exact extremes over a percentile at their rank */
	for (i = 1, j = 0; i < out->nk; i++) {
		if (out->k[i].r0 == out->k[j].r0) {
			if (out->k[i].hi - out->k[i].lo < out->k[j].hi - out->k[j].lo)
				out->k[j] = out->k[i];
		} else {
			out->k[++j] = out->k[i];
		}
	}
	out->nk = j + 1;
	return 0;
}

/* The figures of one phase object (the document itself for the run). */
static int phase_of_doc(struct docread *d, struct regress_run *run, const struct jv *o,
			const char *name)
{
	struct regress_phase *p = new_phase(run, name);
	int64_t v;

	if (!p)
		return -1;
	if (dist_of_doc(d, docread_get(d, o, K("wake_latency"), JV_OBJECT), &p->wake) < 0 ||
	    dist_of_doc(d, docread_get(d, o, K("pulse_width", "positive"), JV_OBJECT), &p->pos) < 0 ||
	    dist_of_doc(d, docread_get(d, o, K("pulse_width", "negative"), JV_OBJECT), &p->neg) < 0)
		return -1;
	if (docread_int(d, o, K("counts", "edges"), 0, INT64_MAX, &v))
		p->edges = (uint64_t)v;
	if (docread_int(d, o, K("counts", "missed_periods"), 0, INT64_MAX, &v))
		p->missed = (uint64_t)v;
	return 0;
}

int regress_run_from_doc(struct regress_run *run, const struct jv *doc, const char *source,
			 char *err, size_t errlen)
{
	struct docread d = { .source = source, .err = err, .errlen = errlen };
	const char *schema = jv_str(jv_get(doc, "schema"), "");
	const struct jv *phases;
	int64_t version;
	size_t i;

	memset(run, 0, sizeof(*run));
	msgbuf_set(run->source, sizeof(run->source), "%s", source);
	if (strcmp(schema, "sqwave-summary") && strcmp(schema, "sqwave-analysis")) {
		msgbuf_set(err, errlen, "%s: not a sqwave run summary or analysis (schema \"%s\"): "
			   "a regression verdict compares runs", OUTFILE_ESC(source),
			   OUTFILE_ESC(schema));
		return -1;
	}
	version = docread_int_or(&d, doc, K("schema_version"), 1, INT64_MAX, 0);
	if (!d.bad && (!version || version > REGRESS_READS_VERSION)) {
		msgbuf_set(err, errlen, "%s: %s schema_version %" PRId64 " is not one this sqwave "
			   "reads (1..%d)", OUTFILE_ESC(source), schema, version,
			   REGRESS_READS_VERSION);
		return -1;
	}
	msgbuf_set(run->label, sizeof(run->label), "%s", docread_str_or(&d, doc, K("label"), ""));
	msgbuf_set(run->line, sizeof(run->line), "%s", docread_str_or(&d, doc, K("pin", "line"), ""));
	if (!run->label[0])
		docread_label_of(run->label, sizeof(run->label), source);
	phases = docread_get(&d, doc, K("phases"), JV_ARRAY);
	if (jv_len(phases) > REGRESS_MAX_PHASES)
		docread_fail(&d, phases, K("phases"), "holds too many phases");
	if (!d.bad && phase_of_doc(&d, run, doc, "run") < 0)
		goto oom;
	for (i = 0; !d.bad && i < jv_len(phases); i++) {
		const struct jv *ph = jv_at(phases, i);

		msgbuf_set(d.where, sizeof(d.where), "phases[%zu].", i);
		if (!ph || ph->type != JV_OBJECT) {
			docread_fail(&d, ph, K("phases"), "must be objects");
			break;
		}
		if (phase_of_doc(&d, run, ph, docread_str_or(&d, ph, K("name"), "?")) < 0)
			goto oom;
	}
	if (!d.bad)
		return 0;
	regress_run_free(run);
	return -1;
oom:
	regress_run_free(run);
	msgbuf_set(err, errlen, "%s: %s", OUTFILE_ESC(source), strerror(ENOMEM));
	return -1;
}

/* ---- a log: the full distributions of its histograms ---- */

struct knots {
	struct regress_knot *k;
	size_t n, cap;
	bool oom;
};

static void knot_add(void *ctx, int64_t lo, int64_t hi, uint64_t count)
{
	struct knots *ks = ctx;

	if (ks->n == ks->cap) {
		size_t cap = ks->cap ? 2 * ks->cap : 256;
		struct regress_knot *k = realloc(ks->k, cap * sizeof(*k));

		if (!k) {
			ks->oom = true;
			return;
		}
		ks->k = k;
		ks->cap = cap;
	}
	/* r0 holds the count until the ranks are laid out */
	ks->k[ks->n++] = (struct regress_knot){ count, 0, lo, hi };
}

static int cmp_knot_lo(const void *a, const void *b)
{
	const struct regress_knot *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Every bucket of @h as a knot, in value order, the overflows at either
 * end; the exact min and max bound the first and last. A histogram whose
 * buckets do not hold every value (a page it could not allocate) is one
 * knot, min to max. -1: out of memory. */
static int dist_of_hist(const struct stats_hist *h, struct regress_dist *out)
{
	struct knots ks = { 0 };
	uint64_t total = 0, r = 1;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!h->m.n)
		return 0;
	out->n = h->m.n;
	out->min = h->m.min;
	out->max = h->m.max;
	if (h->ovf_low)
		knot_add(&ks, INT64_MIN, INT64_MIN, h->ovf_low);
	stats_hist_walk(h, knot_add, &ks);
	if (h->ovf_high)
		knot_add(&ks, INT64_MAX, INT64_MAX, h->ovf_high);
	if (ks.oom) {
		free(ks.k);
		return -1;
	}
	qsort(ks.k, ks.n, sizeof(*ks.k), cmp_knot_lo);
	for (i = 0; i < ks.n; i++)
		total += ks.k[i].r0;
	if (total != out->n) {
		ks.n = 0;
		knot_add(&ks, out->min, out->max, out->n);
		if (ks.oom)
			return -1;
	}
	for (i = 0; i < ks.n; i++) {
		uint64_t c = ks.k[i].r0;

		ks.k[i].r0 = r;
		ks.k[i].r1 = r + c - 1;
		r += c;
		/* an overflow's knot: from the exact extreme on its side */
		if (ks.k[i].lo < out->min || ks.k[i].lo == INT64_MAX)
			ks.k[i].lo = out->min;
		if (ks.k[i].hi > out->max || ks.k[i].hi == INT64_MIN)
			ks.k[i].hi = out->max;
	}
	out->k = ks.k;
	out->nk = ks.n;
	return 0;
}

static int phase_of_stats(struct regress_run *run, const char *name, const struct edgestats *es)
{
	const struct edgestats_result *r = edgestats_result(es);
	struct regress_phase *p = new_phase(run, name);

	if (!p)
		return -1;
	p->edges = r->edges;
	p->missed = r->missed_periods;
	if (dist_of_hist(&r->wake, &p->wake) < 0 ||
	    dist_of_hist(&r->width[EDGESTATS_POS].h, &p->pos) < 0 ||
	    dist_of_hist(&r->width[EDGESTATS_NEG].h, &p->neg) < 0)
		return -1;
	return 0;
}

int regress_run_from_log(struct regress_run *run, const char *path, bool *io, char *err,
			 size_t errlen)
{
	const struct analyze_opts ao = {
		.worst_n = ANALYZE_WORST_DEFAULT,
		.missed_list = ANALYZE_MISSED_LIST_DEFAULT,
		.hist_buckets = ANALYZE_HIST_BUCKETS_DEFAULT,
	};
	struct analysisdoc d;
	enum analyze_status st;
	const char *label;
	size_t i;
	int ret = 0;

	memset(run, 0, sizeof(*run));
	msgbuf_set(run->source, sizeof(run->source), "%s", path);
	run->from_log = true;
	*io = false;
	if (analysisdoc_open(&d, path, NULL, &ao, NULL, NULL, 0, &st, err, errlen) < 0) {
		*io = st == ANALYZE_E_IO;
		return -1;
	}
	if (analysisdoc_feed(&d, &st, err, errlen) < 0) {
		*io = st == ANALYZE_E_IO;
		ret = -1;
		goto out;
	}
	msgbuf_set(run->line, sizeof(run->line), "%s", d.a->src->pin.line);
	label = d.sri.label;
	if (label && label[0])
		msgbuf_set(run->label, sizeof(run->label), "%s", label);
	else
		docread_label_of(run->label, sizeof(run->label), path);
	if (phase_of_stats(run, "run", d.a->es) < 0)
		goto oom;
	for (i = 0; i < d.sri.nphases; i++)
		if (phase_of_stats(run, d.sri.phases[i].name, d.sri.phases[i].stats) < 0)
			goto oom;
	goto out;
oom:
	regress_run_free(run);
	msgbuf_set(err, errlen, "%s: %s", OUTFILE_ESC(path), strerror(ENOMEM));
	*io = true;
	ret = -1;
out:
	analysisdoc_close(&d);
	return ret;
}

/* ---- outputs ---- */

static bool fig_is_time(enum regress_fig f)
{
	return f != REGRESS_MISSED;
}

/* A figure for the table: us with 3 decimals, missed periods per million. */
static const char *fmt_val(char *buf, size_t len, enum regress_fig f, bool have, double v)
{
	if (!have)
		snprintf(buf, len, "-");
	else if (fig_is_time(f))
		snprintf(buf, len, "%.3f", v / 1000);
	else
		snprintf(buf, len, "%.1f", v);
	return buf;
}

static const char *fmt_interval(char *buf, size_t len, const struct regress_row *w)
{
	char a[32], b[32];

	if (!w->have_lo && !w->have_hi) {
		snprintf(buf, len, "-");
		return buf;
	}
	snprintf(buf, len, "[%s, %s]", w->have_lo ? fmt_val(a, sizeof(a), w->fig, true, w->lo) : "-inf",
		 w->have_hi ? fmt_val(b, sizeof(b), w->fig, true, w->hi) : "+inf");
	return buf;
}

static const char *run_name(const struct regress_result *res, size_t i)
{
	return res->old[i].label[0] ? res->old[i].label : res->old[i].source;
}

static void text_head(FILE *f, const struct regress_result *res, const struct regress_opts *o)
{
	if (res->trend)
		fprintf(f, "regression steps over %zu runs in the order given; ", res->n_old);
	else
		fprintf(f, "regression verdict: OLD %zu run%s, NEW %zu run%s; ", res->n_old,
			res->n_old == 1 ? "" : "s", res->n_new, res->n_new == 1 ? "" : "s");
	fprintf(f, "intervals of NEW - OLD at %.0f %%\nleast practical step: %.3f us or %g %% "
		"of OLD, the larger; missed periods %g per million slots\n", 100 * o->confidence,
		(double)o->min_step_ns / 1000, o->min_step_pct, o->min_missed_ppm);
	if (!res->trend && res->n_old && res->n_new && res->old[0].line[0] && res->nw[0].line[0] &&
	    strcmp(res->old[0].line, res->nw[0].line))
		fprintf(f, "OLD of line %s, NEW of line %s\n", OUTFILE_ESC(res->old[0].line),
			OUTFILE_ESC(res->nw[0].line));
	if (!res->trend && res->n_old == 1 && res->n_new == 1)
		fprintf(f, "one run each: no variation known; each figure is judged by what the "
			"runs' own distributions support\n");
	fprintf(f, "times in us, missed periods per million slots\n\n");
}

void regress_write_text(FILE *f, const struct regress_result *res, const struct regress_opts *o)
{
	char a[32], b[32], c[32], iv[80], st[32];
	size_t i;

	text_head(f, res, o);
	fprintf(f, "%-16s %-15s %12s %12s %12s %27s %10s %-17s %s\n", "phase", "figure", "OLD",
		"NEW", "NEW-OLD", "interval", "step", "method", res->trend ? "step at" : "verdict");
	for (i = 0; i < res->n; i++) {
		const struct regress_row *w = &res->rows[i];
		bool both = w->have_old && w->have_new;

		fprintf(f, "%-16s %-15s %12s %12s %12s %27s %10s %-17s ", OUTFILE_ESC(w->phase),
			regress_fig_name(w->fig), fmt_val(a, sizeof(a), w->fig, w->have_old, w->old_v),
			fmt_val(b, sizeof(b), w->fig, w->have_new, w->new_v),
			fmt_val(c, sizeof(c), w->fig, both, w->diff), fmt_interval(iv, sizeof(iv), w),
			fmt_val(st, sizeof(st), w->fig, both, w->step), w->method);
		if (res->trend && w->at != SIZE_MAX)
			fprintf(f, "%s at %s\n", w->call == REGRESS_WORSE ? "REGRESSION" : "improved",
				OUTFILE_ESC(run_name(res, w->at)));
		else
			fprintf(f, "%s\n", w->call == REGRESS_WORSE ? "REGRESSION"
					   : regress_call_name(w->call));
	}
	fputc('\n', f);
	for (i = 0; i < res->n; i++) {
		const struct regress_row *w = &res->rows[i];

		if (w->call == REGRESS_WORSE || w->call == REGRESS_UNJUDGED)
			fprintf(f, "%s %s/%s: %s\n", w->call == REGRESS_WORSE ? "REGRESSION" : "not judged",
				OUTFILE_ESC(w->phase), regress_fig_name(w->fig), w->why);
	}
	if (regress_any(res)) {
		fputs("verdict: REGRESSION\n", f);
	} else {
		size_t unjudged = 0;

		for (i = 0; i < res->n; i++)
			unjudged += res->rows[i].call == REGRESS_UNJUDGED;
		/* what was not judged is not cleared: say how much of it there is */
		if (unjudged)
			fprintf(f, "verdict: no regression (of the figures judged; %zu not judged, "
				"listed above)\n", unjudged);
		else
			fputs("verdict: no regression\n", f);
	}
}

static void json_num_or_null(struct json_writer *w, const char *key, bool have, double v)
{
	if (have)
		json_kv_double(w, key, v);
	else
		json_kv_null(w, key);
}

static void json_runs(struct json_writer *w, const char *key, const struct regress_run *runs,
		      size_t n)
{
	size_t i;

	json_kv_array_begin(w, key);
	for (i = 0; i < n; i++) {
		json_object_begin(w);
		json_kv_string(w, "source", runs[i].source);
		json_kv_string(w, "label", runs[i].label);
		json_kv_string(w, "line", runs[i].line);
		json_kv_string(w, "from", runs[i].from_log ? "log" : "summary");
		json_object_end(w);
	}
	json_array_end(w);
}

static void json_row(struct json_writer *w, const struct regress_result *res,
		     const struct regress_row *r)
{
	bool both = r->have_old && r->have_new;

	json_object_begin(w);
	json_kv_string(w, "phase", r->phase);
	json_kv_string(w, "figure", regress_fig_name(r->fig));
	json_kv_string(w, "unit", fig_is_time(r->fig) ? "ns" : "per_million_slots");
	json_kv_string(w, "worse_when", r->fig == REGRESS_TMIN_POS || r->fig == REGRESS_TMIN_NEG
					? "lower" : "higher");
	json_kv_uint(w, "old_runs", r->n_old);
	json_kv_uint(w, "new_runs", r->n_new);
	json_num_or_null(w, "old", r->have_old, r->old_v);
	json_num_or_null(w, "new", r->have_new, r->new_v);
	json_num_or_null(w, "diff", both, r->diff);
	json_num_or_null(w, "lo", r->have_lo, r->lo);
	json_num_or_null(w, "hi", r->have_hi, r->hi);
	json_num_or_null(w, "step", both, r->step);
	json_num_or_null(w, "p", r->p >= 0, r->p);
	json_kv_string(w, "method", r->method);
	json_kv_string(w, "basis", r->basis);
	json_kv_string(w, "verdict", regress_call_name(r->call));
	json_kv_string(w, "why", r->why);
	if (res->trend && r->at != SIZE_MAX) {
		json_kv_object_begin(w, "at");
		json_kv_uint(w, "index", r->at);
		json_kv_string(w, "source", res->old[r->at].source);
		json_kv_string(w, "label", res->old[r->at].label);
		json_object_end(w);
	} else {
		json_kv_null(w, "at");
	}
	json_object_end(w);
}

void regress_write_json(FILE *f, const struct regress_result *res, const struct regress_opts *o)
{
	struct json_writer w;
	size_t i;

	json_init(&w, f);
	json_object_begin(&w);
	json_kv_string(&w, "schema", REGRESS_SCHEMA);
	json_kv_int(&w, "schema_version", REGRESS_SCHEMA_VERSION);
	json_kv_string(&w, "sqwave_version", SQW_VERSION);
	json_kv_string(&w, "mode", res->trend ? "trend" : "baseline");
	json_kv_double(&w, "confidence", o->confidence);
	json_kv_int(&w, "min_step_ns", o->min_step_ns);
	json_kv_double(&w, "min_step_pct", o->min_step_pct);
	json_kv_double(&w, "min_missed_ppm", o->min_missed_ppm);
	json_runs(&w, "old", res->trend ? NULL : res->old, res->trend ? 0 : res->n_old);
	json_runs(&w, "new", res->nw, res->trend ? 0 : res->n_new);
	json_runs(&w, "series", res->trend ? res->old : NULL, res->trend ? res->n_old : 0);
	json_kv_bool(&w, "regression", regress_any(res));
	json_kv_array_begin(&w, "rows");
	for (i = 0; i < res->n; i++)
		json_row(&w, res, &res->rows[i]);
	json_array_end(&w);
	json_object_end(&w);
	json_finish(&w);
}

static void xml_put(FILE *f, const char *s)
{
	char buf[1024];

	escape_xml(f, outfile_escape(s, buf, sizeof(buf)), SIZE_MAX, ESCAPE_XML_APOS);
}

/* A row's figures in a sentence, for a failure's text and the results. */
static void row_sentence(char *buf, size_t len, const struct regress_result *res,
			 const struct regress_row *w)
{
	char a[32], b[32], c[32], iv[80], st[32];
	bool both = w->have_old && w->have_new;

	msgbuf_set(buf, len, "OLD %s NEW %s NEW-OLD %s interval %s step %s %s (%s, %s): %s",
		   fmt_val(a, sizeof(a), w->fig, w->have_old, w->old_v),
		   fmt_val(b, sizeof(b), w->fig, w->have_new, w->new_v),
		   fmt_val(c, sizeof(c), w->fig, both, w->diff), fmt_interval(iv, sizeof(iv), w),
		   fmt_val(st, sizeof(st), w->fig, both, w->step),
		   fig_is_time(w->fig) ? "us" : "per million slots", w->method, w->basis, w->why);
	if (res->trend && w->at != SIZE_MAX)
		msgbuf_add(buf, len, "; stepped at %s", run_name(res, w->at));
}

void regress_write_junit(FILE *f, const struct regress_result *res)
{
	size_t i, fails = 0, skips = 0;
	char s[600];

	for (i = 0; i < res->n; i++) {
		fails += res->rows[i].call == REGRESS_WORSE;
		skips += res->rows[i].call == REGRESS_UNJUDGED;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"sqwave-regress\" "
		"tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n  <testsuite name=\"sqwave-regress\" "
		"tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", res->n, fails,
		res->n, fails, skips);
	for (i = 0; i < res->n; i++) {
		const struct regress_row *w = &res->rows[i];

		row_sentence(s, sizeof(s), res, w);
		fputs("    <testcase classname=\"sqwave.regress.", f);
		xml_put(f, w->phase);
		fprintf(f, "\" name=\"%s\">\n", regress_fig_name(w->fig));
		if (w->call == REGRESS_WORSE || w->call == REGRESS_UNJUDGED) {
			fputs(w->call == REGRESS_WORSE ? "      <failure message=\"regression: "
				: "      <skipped message=\"not judged: ", f);
			xml_put(f, w->why);
			fputs("\">", f);
			xml_put(f, s);
			fputs(w->call == REGRESS_WORSE ? "</failure>\n" : "</skipped>\n", f);
		}
		fputs("      <system-out>", f);
		xml_put(f, s);
		fputs("</system-out>\n    </testcase>\n", f);
	}
	fputs("    <system-out/>\n    <system-err/>\n  </testsuite>\n</testsuites>\n", f);
}

/* LAVA: "regress.PHASE.FIGURE pass|fail|skip NEW-OLD UNIT", the unit one
 * word per name (us, ppm); a row without a difference has no measurement. */
void regress_write_results(FILE *f, const struct regress_result *res)
{
	size_t i;

	for (i = 0; i < res->n; i++) {
		const struct regress_row *w = &res->rows[i];
		char n[64];

		fprintf(f, "regress.%s.%s %s", ciout_name_part(w->phase, n, sizeof(n)),
			regress_fig_name(w->fig), w->call == REGRESS_WORSE ? "fail"
			: w->call == REGRESS_UNJUDGED ? "skip" : "pass");
		if (w->have_old && w->have_new)
			fprintf(f, " %.3f %s", fig_is_time(w->fig) ? w->diff / 1000 : w->diff,
				fig_is_time(w->fig) ? "us" : "ppm");
		fputc('\n', f);
	}
}
