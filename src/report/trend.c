/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sqwave report --trend: one point per run, grouped by board over time
 * (trend.h). */
#include "report/trend.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/escape.h"
#include "base/json.h"
#include "base/msgbuf.h"
#include "base/outfile.h"
#include "base/units.h"
#include "report/docread.h"

#define TREND_READS_VERSION 1      /* the newest summary / analysis schema read */
#define TREND_DUR_MAX 1000000000000000ll /* 11 days in ns: figures beyond are corrupt */

/* ---- reading: report/docread.h ---- */

#define K DOCREAD_KEYS

static void copy_clean(char *dst, size_t len, const char *s)
{
	outfile_escape(s ? s : "", dst, len);
}

static int grow(struct trend *t)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		struct trend_point *p = realloc(t->p, cap * sizeof(*p));

		if (!p)
			return -1;
		t->p = p;
		t->cap = cap;
	}
	return 0;
}

int trend_add_doc(struct trend *t, const struct jv *doc, const char *source, char *err,
		  size_t errlen)
{
	struct docread d = { .source = source, .err = err, .errlen = errlen };
	const char *schema = jv_str(jv_get(doc, "schema"), "");
	bool summary = !strcmp(schema, "sqwave-summary");
	const struct jv *cfg, *any;
	struct trend_point p;
	int64_t v, version = 0, start = 0;
	bool have_start;

	if (!summary && strcmp(schema, "sqwave-analysis")) {
		msgbuf_set(err, errlen, "%s: not a sqwave run summary or analysis (schema \"%s\")",
			   OUTFILE_ESC(source), OUTFILE_ESC(schema));
		return -1;
	}
	if (!docread_int(&d, doc, K("schema_version"), 1, INT64_MAX, &version) && !d.bad)
		msgbuf_set(err, errlen, "%s: no schema_version", OUTFILE_ESC(source));
	if (!version)
		return -1;
	if (version > TREND_READS_VERSION) {
		msgbuf_set(err, errlen, "%s: %s schema_version %" PRId64 " is newer than this sqwave "
			   "reads (%d): a newer sqwave wrote it", OUTFILE_ESC(source), schema, version,
			   TREND_READS_VERSION);
		return -1;
	}
	memset(&p, 0, sizeof(p));
	copy_clean(p.source, sizeof(p.source), source);
	copy_clean(p.label, sizeof(p.label), docread_str_or(&d, doc, K("label"), ""));
	if (!p.label[0])
		docread_label_of(p.label, sizeof(p.label), source);
	copy_clean(p.board, sizeof(p.board), docread_str_or(&d, doc, K("board", "name"), "?"));
	copy_clean(p.host, sizeof(p.host), summary ? docread_str_or(&d, doc, K("host", "hostname"), "")
		   : docread_str_or(&d, doc, K("source", "log", "hostname"), ""));
	/* the start: where the run sits on the time axis; without it, nowhere */
	have_start = summary
		? docread_int(&d, doc, K("run", "start_realtime_ns"), 1, INT64_MAX, &start)
		: docread_int(&d, doc, K("source", "log", "start_realtime_ns"), 1, INT64_MAX, &start);
	if (!d.bad && !have_start) {
		msgbuf_set(err, errlen, "%s: no start time (%s): a trend places runs by when they "
			   "started", OUTFILE_ESC(source), summary ? "run.start_realtime_ns"
			   : "source.log.start_realtime_ns: an analysis of a log");
		return -1;
	}
	p.start_ns = (uint64_t)start;
	if (summary)
		docread_int(&d, doc, K("run", "duration_ns"), 0, TREND_DUR_MAX, &p.duration_ns);
	else
		docread_int(&d, doc, K("span_ns"), 0, TREND_DUR_MAX, &p.duration_ns);

	any = docread_get(&d, doc, K("pulse_width", "any"), JV_OBJECT);
	if (any && docread_int(&d, any, K("count"), 0, INT64_MAX, &v) && v > 0) {
		p.have_tmin = docread_int(&d, any, K("tmin", "width_ns"), 0, TREND_DUR_MAX, &p.tmin_ns);
		p.have_tmax = docread_int(&d, any, K("tmax", "width_ns"), 0, TREND_DUR_MAX, &p.tmax_ns);
	}
	if (docread_int(&d, doc, K("wake_latency", "count"), 0, INT64_MAX, &v) && v > 0)
		p.have_wake = docread_int(&d, doc, K("wake_latency", "max_ns"), -TREND_DUR_MAX, TREND_DUR_MAX,
				     &p.wake_max_ns);
	p.have_missed = docread_int(&d, doc, K("counts", "missed_periods"), 0, INT64_MAX, &v);
	p.missed = p.have_missed ? (uint64_t)v : 0;
	p.have_window = docread_int(&d, doc, K("windows", "window_ns"), 1, TREND_DUR_MAX, &p.window_ns);

	cfg = docread_get(&d, doc, K("config"), JV_OBJECT);
	if (cfg) {
		docread_int(&d, cfg, K("limits.tmin", "value"), 0, TREND_DUR_MAX, &p.lim_tmin_ns);
		docread_int(&d, cfg, K("limits.tmax", "value"), 0, TREND_DUR_MAX, &p.lim_tmax_ns);
		docread_int(&d, cfg, K("limits.wake_latency_max", "value"), 0, TREND_DUR_MAX, &p.lim_wake_ns);
	}
	copy_clean(p.verdict, sizeof(p.verdict), docread_str_or(&d, doc, K("verdict", "result"), "?"));
	if (d.bad)
		return -1;
	snprintf(p.key, sizeof(p.key), "%s%s%s", p.board, p.host[0] ? " @ " : "", p.host);
	p.order = t->n;
	if (grow(t) < 0) {
		msgbuf_set(err, errlen, "%s: out of memory", OUTFILE_ESC(source));
		return -1;
	}
	t->p[t->n++] = p;
	return 0;
}

/* ---- order: boards by their first start, runs by start ---- */

/* Each comparison counted (trend.h, compares): the sort's cost, for its test. */
static int by_key_start(const void *x, const void *y, void *ctx)
{
	const struct trend_point *a = x, *b = y;
	int k = strcmp(a->key, b->key);

	++*(size_t *)ctx;
	if (k)
		return k;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* One board's runs, contiguous after the first sort. */
struct trend_group {
	size_t first, n;
	uint64_t start;            /* its first run's start */
};

/* Boards by their first start; ties in the order of their keys (the
 * order the first sort left them in). */
static int by_group_start(const void *x, const void *y, void *ctx)
{
	const struct trend_group *a = x, *b = y;

	++*(size_t *)ctx;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* Two sorts, O(n log n): the points by board and start (each board's runs
 * then lie together, its first run first), then the boards by that run. */
void trend_sort(struct trend *t)
{
	struct trend_group *g;
	struct trend_point *out;
	size_t i, k, ng = 0;

	t->compares = 0;
	if (t->n < 2)
		return;
	qsort_r(t->p, t->n, sizeof(*t->p), by_key_start, &t->compares);
	g = malloc(t->n * sizeof(*g));
	out = malloc(t->n * sizeof(*out));
	if (!g || !out) {
		free(g);
		free(out);
		return;	/* grouped by board still */
	}
	for (i = 0; i < t->n; i++) {
		if (i && !strcmp(t->p[i].key, t->p[i - 1].key)) {
			g[ng - 1].n++;
			continue;
		}
		g[ng++] = (struct trend_group){ i, 1, t->p[i].start_ns };
	}
	qsort_r(g, ng, sizeof(*g), by_group_start, &t->compares);
	for (i = k = 0; i < ng; i++) {
		memcpy(out + k, t->p + g[i].first, g[i].n * sizeof(*out));
		k += g[i].n;
	}
	memcpy(t->p, out, t->n * sizeof(*out));
	free(out);
	free(g);
}

void trend_free(struct trend *t)
{
	free(t->p);
	memset(t, 0, sizeof(*t));
}

/* ---- text and JSON ---- */

static const char *utc(uint64_t ns, bool seconds, char *buf, size_t len)
{
	time_t s = (time_t)(ns / 1000000000u);
	struct tm tm;

	gmtime_r(&s, &tm);
	strftime(buf, len, seconds ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d %H:%M", &tm);
	return buf;
}

static const char *us_or_dash(bool have, int64_t ns, char *buf, size_t len)
{
	if (!have)
		return "-";
	snprintf(buf, len, "%.3f", (double)ns / 1e3);
	return buf;
}

/* For the table: 12.3s, 45.0min, 8.0h (what a nightly run's length needs). */
static void human_duration(int64_t ns, char *buf, size_t len)
{
	double s = (double)ns / 1e9;

	if (s < 120)
		snprintf(buf, len, "%.1fs", s);
	else if (s < 7200)
		snprintf(buf, len, "%.1fmin", s / 60);
	else
		snprintf(buf, len, "%.1fh", s / 3600);
}

void trend_write_text(FILE *f, const struct trend *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct trend_point *p = &t->p[i];
		char when[32], dur[32], a[32], b[32], c[32], m[32];

		if (!i || strcmp(p->key, t->p[i - 1].key)) {
			size_t n = 0, j;

			for (j = i; j < t->n && !strcmp(t->p[j].key, p->key); j++)
				n++;
			fprintf(f, "%sboard %s: %zu run%s\n", i ? "\n" : "", p->key, n, n == 1 ? "" : "s");
			fprintf(f, "  %-16s %-20s %9s %12s %12s %12s %8s  %-10s %s\n", "start (UTC)", "label",
				"duration", "Tmin us", "Tmax us", "wake max us", "missed", "verdict",
				"source");
		}
		if (p->duration_ns > 0)
			human_duration(p->duration_ns, dur, sizeof(dur));
		else
			snprintf(dur, sizeof(dur), "-");
		if (p->have_missed)
			snprintf(m, sizeof(m), "%" PRIu64, p->missed);
		else
			snprintf(m, sizeof(m), "-");
		fprintf(f, "  %-16s %-20s %9s %12s %12s %12s %8s  %-10s %s\n",
			utc(p->start_ns, false, when, sizeof(when)), p->label, dur,
			us_or_dash(p->have_tmin, p->tmin_ns, a, sizeof(a)),
			us_or_dash(p->have_tmax, p->tmax_ns, b, sizeof(b)),
			us_or_dash(p->have_wake, p->wake_max_ns, c, sizeof(c)), m, p->verdict, p->source);
	}
}

static void kv_opt(struct json_writer *w, const char *key, bool have, int64_t v)
{
	if (have)
		json_kv_int(w, key, v);
	else
		json_kv_null(w, key);
}

void trend_write_json(FILE *f, const struct trend *t)
{
	struct json_writer w;
	size_t i;

	json_init(&w, f);
	json_object_begin(&w);
	json_kv_string(&w, "schema", TREND_SCHEMA);
	json_kv_int(&w, "schema_version", TREND_SCHEMA_VERSION);
	json_kv_string(&w, "sqwave_version", SQW_VERSION);
	json_kv_array_begin(&w, "boards");
	for (i = 0; i < t->n; i++) {
		const struct trend_point *p = &t->p[i];
		char when[32];

		if (!i || strcmp(p->key, t->p[i - 1].key)) {
			if (i) {
				json_array_end(&w);
				json_object_end(&w);
			}
			json_object_begin(&w);
			json_kv_string(&w, "key", p->key);
			json_kv_string(&w, "board", p->board);
			if (p->host[0])
				json_kv_string(&w, "host", p->host);
			else
				json_kv_null(&w, "host");
			json_kv_array_begin(&w, "runs");
		}
		json_object_begin(&w);
		json_kv_string(&w, "source", p->source);
		json_kv_string(&w, "label", p->label);
		json_kv_uint(&w, "start_realtime_ns", p->start_ns);
		json_kv_string(&w, "start", utc(p->start_ns, true, when, sizeof(when)));
		kv_opt(&w, "duration_ns", p->duration_ns > 0, p->duration_ns);
		kv_opt(&w, "tmin_ns", p->have_tmin, p->tmin_ns);
		kv_opt(&w, "tmax_ns", p->have_tmax, p->tmax_ns);
		kv_opt(&w, "wake_max_ns", p->have_wake, p->wake_max_ns);
		kv_opt(&w, "missed_periods", p->have_missed, (int64_t)p->missed);
		json_kv_object_begin(&w, "limits");
		kv_opt(&w, "tmin_ns", p->lim_tmin_ns > 0, p->lim_tmin_ns);
		kv_opt(&w, "tmax_ns", p->lim_tmax_ns > 0, p->lim_tmax_ns);
		kv_opt(&w, "wake_latency_max_ns", p->lim_wake_ns > 0, p->lim_wake_ns);
		json_object_end(&w);
		json_kv_string(&w, "verdict", p->verdict);
		json_object_end(&w);
	}
	if (t->n) {
		json_array_end(&w);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_object_end(&w);
	json_finish(&w);
}

/* ---- SVG ---- */

size_t trend_time_ticks(uint64_t lo, uint64_t hi, uint64_t *ticks, size_t max, int64_t *step_s)
{
	static const int64_t steps[] = { 60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600,
					 86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400,
					 91 * 86400, 182 * 86400, 364 * 86400 };
	uint64_t lo_s = lo / 1000000000u, hi_s = hi / 1000000000u, s;
	size_t k, n = 0;
	int64_t step = steps[sizeof(steps) / sizeof(steps[0]) - 1];

	for (k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
		if ((hi_s - lo_s) / (uint64_t)steps[k] + 1 <= max) {
			step = steps[k];
			break;
		}
	}
	*step_s = step;
	/* whole steps of UTC time (a week from the epoch's Thursday: fine) */
	for (s = (lo_s + (uint64_t)step - 1) / (uint64_t)step * (uint64_t)step; s <= hi_s && n < max;
	     s += (uint64_t)step)
		ticks[n++] = s * 1000000000u;
	return n;
}

#define TREND_W 980
#define TREND_L 90
#define TREND_R 30
#define TREND_PLOT_H 130
#define TREND_GAP 42
#define TREND_PANEL_HEAD 34

/* One strip of a panel: its y range and where it sits. */
struct strip {
	double lo, hi;             /* in the figure's unit (us, or a count) */
	int top;
	bool log;                  /* missed periods: log(1 + n) */
	bool log_pos;              /* pulse widths over a decade and more: log(v) */
};

static double strip_y(const struct strip *s, double v)
{
	double f;

	if (s->log)
		f = log10(1 + v) / log10(1 + s->hi);
	else if (s->log_pos)
		f = (log10(v > s->lo ? v : s->lo) - log10(s->lo)) / (log10(s->hi) - log10(s->lo));
	else
		f = (v - s->lo) / (s->hi - s->lo);
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return s->top + TREND_PLOT_H - f * TREND_PLOT_H;
}

static void nice_range(double *lo, double *hi)
{
	double span, step;

	if (*hi <= *lo) {
		double pad = fabs(*hi) > 0 ? fabs(*hi) * 0.1 : 1;

		*lo -= pad;
		*hi += pad;
	}
	span = *hi - *lo;
	*lo -= span * 0.08;
	*hi += span * 0.08;
	step = pow(10, floor(log10((*hi - *lo) / 4)));
	*lo = floor(*lo / step) * step;
	*hi = ceil(*hi / step) * step;
}

static void y_ticks(FILE *f, const struct strip *s)
{
	double step, v;

	if (s->log) {
		for (v = 1; v <= s->hi * 1.0001; v *= 10)
			fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\">%g</text>\n"
				   "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>\n",
				TREND_L - 6, strip_y(s, v) + 3, v, TREND_L, strip_y(s, v), TREND_W - TREND_R,
				strip_y(s, v));
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\">0</text>\n",
			TREND_L - 6, strip_y(s, 0) + 3);
		return;
	}
	if (s->log_pos) {
		double d;

		for (d = pow(10, floor(log10(s->lo))); d <= s->hi; d *= 10) {
			static const double m[] = { 1, 2, 5 };
			size_t j;

			for (j = 0; j < 3; j++) {
				v = d * m[j];
				if (v < s->lo || v > s->hi)
					continue;
				fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\">%g"
					   "</text>\n<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
					   "stroke=\"#eee\"/>\n", TREND_L - 6, strip_y(s, v) + 3, v, TREND_L,
					strip_y(s, v), TREND_W - TREND_R, strip_y(s, v));
			}
		}
		return;
	}
	step = pow(10, floor(log10((s->hi - s->lo) / 4)));
	if ((s->hi - s->lo) / step > 10)
		step *= 2;
	if ((s->hi - s->lo) / step > 10)
		step *= 2.5;
	for (v = ceil(s->lo / step) * step; v <= s->hi + step * 1e-9; v += step) {
		if (fabs(v) < step * 1e-6)
			v = 0;	/* no "-0" */
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\">%g</text>\n"
			   "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>\n",
			TREND_L - 6, strip_y(s, v) + 3, v, TREND_L, strip_y(s, v), TREND_W - TREND_R,
			strip_y(s, v));
	}
}

/* A limit across a strip, labelled at its right end. */
static void limit_line(FILE *f, const struct strip *s, double v, const char *name, bool below)
{
	double y = strip_y(s, v);

	fprintf(f, "<line class=\"limit\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#c00\" "
		   "stroke-width=\"1.2\" stroke-dasharray=\"6,3\"><title>%s %g us</title></line>\n",
		TREND_L, y, TREND_W - TREND_R, y, name, v);
	fprintf(f, "<text class=\"limit-label\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#c00\" "
		   "font-size=\"10\">%s %g</text>\n", TREND_W - TREND_R - 2, below ? y + 11 : y - 3, name, v);
}

/* One series of points over a panel's runs [b, e): a line between runs
 * that both have the figure, broken where one does not (a gap, not 0). */
static void series(FILE *f, const struct trend *t, size_t b, size_t e, const struct strip *s,
		   double (*x)(const void *, uint64_t), const void *xc,
		   bool (*get)(const struct trend_point *, double *), const char *color,
		   const char *cls)
{
	bool open = false;
	size_t i;
	double v;

	for (i = b; i < e; i++) {
		if (!get(&t->p[i], &v)) {
			if (open)
				fprintf(f, "\"/>\n");
			open = false;
			continue;
		}
		if (!open)
			fprintf(f, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.4\" "
				   "points=\"", cls, color);
		open = true;
		fprintf(f, "%.1f,%.1f ", x(xc, t->p[i].start_ns), strip_y(s, v));
	}
	if (open)
		fprintf(f, "\"/>\n");
	for (i = b; i < e; i++) {
		if (!get(&t->p[i], &v))
			continue;
		fprintf(f, "<circle class=\"%s-point\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.6\" fill=\"%s\">"
			   "<title>", cls, x(xc, t->p[i].start_ns), strip_y(s, v), color);
		escape_xml(f, t->p[i].label, 64, 0);
		fprintf(f, ": %g%s</title></circle>\n", v, s->log ? "" : " us");
	}
}

static bool get_tmin(const struct trend_point *p, double *v)
{
	*v = (double)p->tmin_ns / 1e3;
	return p->have_tmin;
}

static bool get_tmax(const struct trend_point *p, double *v)
{
	*v = (double)p->tmax_ns / 1e3;
	return p->have_tmax;
}

static bool get_wake(const struct trend_point *p, double *v)
{
	*v = (double)p->wake_max_ns / 1e3;
	return p->have_wake;
}

static bool get_missed(const struct trend_point *p, double *v)
{
	*v = (double)p->missed;
	return p->have_missed;
}

struct xaxis {
	uint64_t lo, hi;
};

static double x_of(const void *ctx, uint64_t ns)
{
	const struct xaxis *ax = ctx;

	return TREND_L + (double)(ns - ax->lo) / (double)(ax->hi - ax->lo) *
			 (TREND_W - TREND_L - TREND_R);
}

/* Runs without a figure: a grey cross at the strip's top, away from any
 * value, so a gap reads as "not given", never as 0. */
static void gaps(FILE *f, const struct trend *t, size_t b, size_t e, const struct strip *s,
		 const struct xaxis *ax, bool (*get)(const struct trend_point *, double *),
		 const char *what)
{
	size_t i;
	double v;

	for (i = b; i < e; i++) {
		if (get(&t->p[i], &v))
			continue;
		fprintf(f, "<text class=\"gap\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#999\" "
			   "font-size=\"12\">&#215;<title>", x_of(ax, t->p[i].start_ns), s->top + 12);
		escape_xml(f, t->p[i].label, 64, 0);
		fprintf(f, ": no %s</title></text>\n", what);
	}
}

static void strip_frame(FILE *f, const struct strip *s, const char *title)
{
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>\n",
		TREND_L, s->top, TREND_W - TREND_L - TREND_R, TREND_PLOT_H);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#333\">%s</text>\n", TREND_L + 4,
		s->top - 4, title);
	y_ticks(f, s);
}

/* The range of @get over [b, e) and the limits @lim (0: none), in us. */
static bool range_of(const struct trend *t, size_t b, size_t e,
		     bool (*get)(const struct trend_point *, double *), double *lo, double *hi)
{
	bool any = false;
	size_t i;
	double v;

	for (i = b; i < e; i++) {
		if (!get(&t->p[i], &v))
			continue;
		if (!any || v < *lo)
			*lo = v;
		if (!any || v > *hi)
			*hi = v;
		any = true;
	}
	return any;
}

static void widen(double *lo, double *hi, bool *any, double v)
{
	if (!*any || v < *lo)
		*lo = v;
	if (!*any || v > *hi)
		*hi = v;
	*any = true;
}

static void panel(FILE *f, const struct trend *t, size_t b, size_t e, int top, const struct xaxis *ax)
{
	struct strip w = { .top = top + TREND_PANEL_HEAD + 16 };
	struct strip l = { .top = w.top + TREND_PLOT_H + TREND_GAP };
	struct strip m = { .top = l.top + TREND_PLOT_H + TREND_GAP, .log = true };
	double lo = 0, hi = 0, dummy;
	bool any;
	uint64_t ticks[32];
	int64_t step;
	size_t i, nt;
	int64_t ltmin = 0, ltmax = 0, lwake = 0;
	char first[32], last[32];

	for (i = b; i < e; i++) {
		if (t->p[i].lim_tmin_ns)
			ltmin = t->p[i].lim_tmin_ns;
		if (t->p[i].lim_tmax_ns)
			ltmax = t->p[i].lim_tmax_ns;
		if (t->p[i].lim_wake_ns)
			lwake = t->p[i].lim_wake_ns;
	}
	fprintf(f, "<g class=\"panel\">\n<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">",
		TREND_L, top + 18);
	escape_xml(f, t->p[b].key, 120, 0);
	fprintf(f, "</text>\n<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555\">%zu run%s, %s to %s "
		   "UTC</text>\n", TREND_L, top + 32, e - b, e - b == 1 ? "" : "s",
		utc(t->p[b].start_ns, false, first, sizeof(first)),
		utc(t->p[e - 1].start_ns, false, last, sizeof(last)));

	/* pulse widths: Tmin and Tmax, with their limits */
	any = range_of(t, b, e, get_tmin, &lo, &hi);
	{
		double lo2 = 0, hi2 = 0;

		if (range_of(t, b, e, get_tmax, &lo2, &hi2)) {
			widen(&lo, &hi, &any, lo2);
			widen(&lo, &hi, &any, hi2);
		}
	}
	if (ltmin)
		widen(&lo, &hi, &any, (double)ltmin / 1e3);
	if (ltmax)
		widen(&lo, &hi, &any, (double)ltmax / 1e3);
	if (!any)
		lo = 0, hi = 1;
	if (lo > 0 && hi / lo >= 10) {
		/* Tmin near zero and Tmax of milliseconds: both readable */
		w.log_pos = true;
		w.lo = pow(10, floor(log10(lo)));
		w.hi = pow(10, ceil(log10(hi)));
	} else {
		nice_range(&lo, &hi);
		w.lo = lo < 0 ? 0 : lo;
		w.hi = hi;
	}
	strip_frame(f, &w, w.log_pos ? "pulse width, us (log scale): Tmax (red), Tmin (blue) per run"
		    : "pulse width, us: Tmax (red), Tmin (blue) per run");
	if (ltmin)
		limit_line(f, &w, (double)ltmin / 1e3, "limits.tmin", true);
	if (ltmax)
		limit_line(f, &w, (double)ltmax / 1e3, "limits.tmax", false);
	series(f, t, b, e, &w, x_of, ax, get_tmax, "#d62728", "tmax");
	series(f, t, b, e, &w, x_of, ax, get_tmin, "#1f77b4", "tmin");
	gaps(f, t, b, e, &w, ax, get_tmax, "pulse widths");

	/* the worst wake-up, with its limit */
	lo = hi = 0;
	any = range_of(t, b, e, get_wake, &lo, &hi);
	if (lwake)
		widen(&lo, &hi, &any, (double)lwake / 1e3);
	if (!any)
		lo = 0, hi = 1;
	{
		double dlo = 0;

		/* from 0, unless a wake-up came early (a negative latency) */
		range_of(t, b, e, get_wake, &dlo, &dummy);
		widen(&lo, &hi, &any, 0);
		nice_range(&lo, &hi);
		l.lo = dlo < 0 ? lo : 0;
		l.hi = hi;
	}
	strip_frame(f, &l, "worst wake-up latency per run, us");
	if (lwake)
		limit_line(f, &l, (double)lwake / 1e3, "limits.wake_latency_max", false);
	series(f, t, b, e, &l, x_of, ax, get_wake, "#2ca02c", "wake");
	gaps(f, t, b, e, &l, ax, get_wake, "wake-up latency");

	/* missed periods, a log scale from 0 */
	lo = hi = 0;
	any = range_of(t, b, e, get_missed, &lo, &hi);
	m.lo = 0;
	m.hi = pow(10, ceil(log10(1 + (hi > 9 ? hi : 9))));
	strip_frame(f, &m, "missed periods per run (log scale)");
	series(f, t, b, e, &m, x_of, ax, get_missed, "#ff7f0e", "missed");
	gaps(f, t, b, e, &m, ax, get_missed, "missed-period count");

	/* the date axis under the last strip, grid lines through all three */
	nt = trend_time_ticks(ax->lo, ax->hi, ticks, 8, &step);
	for (i = 0; i < nt; i++) {
		double x = x_of(ax, ticks[i]);
		char lab[32];
		time_t s = (time_t)(ticks[i] / 1000000000u);
		struct tm tm;

		gmtime_r(&s, &tm);
		strftime(lab, sizeof(lab), step >= 86400 ? "%Y-%m-%d" : "%m-%d %H:%M", &tm);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n"
			   "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n"
			   "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n",
			x, w.top, x, w.top + TREND_PLOT_H, x, l.top, x, l.top + TREND_PLOT_H, x, m.top,
			x, m.top + TREND_PLOT_H);
		fprintf(f, "<text class=\"x-tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
			   "font-size=\"10\">%s</text>\n", x, m.top + TREND_PLOT_H + 14, lab);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">run start (UTC)"
		   "</text>\n</g>\n", (TREND_L + TREND_W - TREND_R) / 2, m.top + TREND_PLOT_H + 30);
}

#define TREND_PANEL_H (TREND_PANEL_HEAD + 16 + 3 * TREND_PLOT_H + 2 * TREND_GAP + 50)

void trend_write_svg(FILE *f, const struct trend *t)
{
	size_t b, e, nboards = 0;
	struct xaxis ax = { UINT64_MAX, 0 };
	int H, top = 40;

	for (b = 0; b < t->n; b = e) {
		for (e = b; e < t->n && !strcmp(t->p[e].key, t->p[b].key); e++)
			;
		nboards++;
	}
	/* one time axis for every board: their runs line up in time */
	for (b = 0; b < t->n; b++) {
		if (t->p[b].start_ns < ax.lo)
			ax.lo = t->p[b].start_ns;
		if (t->p[b].start_ns > ax.hi)
			ax.hi = t->p[b].start_ns;
	}
	if (!t->n)
		ax.lo = 0, ax.hi = 1;
	{
		uint64_t span = ax.hi - ax.lo, pad = span / 25;

		if (pad < UINT64_C(1800000000000))
			pad = UINT64_C(1800000000000);	/* at least half an hour either side */
		ax.lo = ax.lo > pad ? ax.lo - pad : 0;
		ax.hi += pad;
	}
	H = top + (int)nboards * TREND_PANEL_H + 10;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		TREND_W, H, TREND_W, H);
	fprintf(f, "<title>sqwave report --trend</title>\n");
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", TREND_W, H);
	fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"16\">Trend of %zu run%s on %zu board%s: "
		   "one point per run; a grey &#215; is a run without that figure</text>\n", TREND_L,
		t->n, t->n == 1 ? "" : "s", nboards, nboards == 1 ? "" : "s");
	for (b = 0; b < t->n; b = e) {
		for (e = b; e < t->n && !strcmp(t->p[e].key, t->p[b].key); e++)
			;
		panel(f, t, b, e, top, &ax);
		top += TREND_PANEL_H;
	}
	fprintf(f, "</svg>\n");
}
