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

bool trend_point_is_respond(const struct trend_point *p)
{
	return p->respond;
}

/* A respond run's figures, from the document's "respond" member. */
static void trend_respond(struct docread *d, const struct jv *doc, struct trend_point *p)
{
#define RE(...) K("respond", "event_to_write_end", __VA_ARGS__)
	int64_t v;

	p->respond = docread_get(d, doc, K("respond"), JV_OBJECT) != NULL;
	if (!p->respond)
		return;
	if (docread_int(d, doc, K("respond", "answers"), 0, INT64_MAX, &v))
		p->answers = (uint64_t)v;
	p->have_resp = docread_int(d, doc, RE("max_ns"), -TREND_DUR_MAX, TREND_DUR_MAX,
				   &p->resp_max_ns) &&
		       docread_int(d, doc, RE("percentiles_ns", "p99"), -TREND_DUR_MAX, TREND_DUR_MAX,
				   &p->resp_p99_ns);
	p->have_unanswered = docread_int(d, doc, K("respond", "events_unanswered"), 0, INT64_MAX, &v);
	p->unanswered = p->have_unanswered ? (uint64_t)v : 0;
	p->have_scope_min = docread_int(d, doc, K("respond", "scope", "min_ns"), -TREND_DUR_MAX,
					TREND_DUR_MAX, &p->scope_min_ns);
	p->have_scope_max = docread_int(d, doc, K("respond", "scope", "max_ns"), -TREND_DUR_MAX,
					TREND_DUR_MAX, &p->scope_max_ns);
#undef RE
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
	trend_respond(&d, doc, &p);
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

		bool board = !i || strcmp(p->key, t->p[i - 1].key);

		if (board) {
			size_t n = 0, j;

			for (j = i; j < t->n && !strcmp(t->p[j].key, p->key); j++)
				n++;
			fprintf(f, "%sboard %s: %zu run%s\n", i ? "\n" : "", p->key, n, n == 1 ? "" : "s");
		}
		if (p->duration_ns > 0)
			human_duration(p->duration_ns, dur, sizeof(dur));
		else
			snprintf(dur, sizeof(dur), "-");
		if (p->have_missed)
			snprintf(m, sizeof(m), "%" PRIu64, p->missed);
		else
			snprintf(m, sizeof(m), "-");
		/* the head again wherever the kind of run changes: a respond run
		 * shows its answers, never a wave's figures */
		if (trend_point_is_respond(p)) {
			char u[32], x[32], sc[80];

			if (board || !trend_point_is_respond(&t->p[i - 1]))
				fprintf(f, "  %-16s %-20s %9s %8s %12s %12s %8s %10s %24s  %-10s %s\n",
					"start (UTC)", "label", "duration", "answers", "resp p99 us",
					"resp max us", "lost", "unanswered", "scope us", "verdict",
					"source");
			if (p->have_unanswered)
				snprintf(u, sizeof(u), "%" PRIu64, p->unanswered);
			else
				snprintf(u, sizeof(u), "-");
			snprintf(sc, sizeof(sc), "%s..%s", us_or_dash(p->have_scope_min, p->scope_min_ns, a,
								     sizeof(a)),
				 p->have_scope_max ? us_or_dash(true, p->scope_max_ns, b, sizeof(b)) : "?");
			fprintf(f, "  %-16s %-20s %9s %8" PRIu64 " %12s %12s %8s %10s %24s  %-10s %s\n",
				utc(p->start_ns, false, when, sizeof(when)), p->label, dur, p->answers,
				us_or_dash(p->have_resp, p->resp_p99_ns, c, sizeof(c)),
				us_or_dash(p->have_resp, p->resp_max_ns, x, sizeof(x)), m, u,
				p->have_scope_min ? sc : "-", p->verdict, p->source);
			continue;
		}
		if (board || trend_point_is_respond(&t->p[i - 1]))
			fprintf(f, "  %-16s %-20s %9s %12s %12s %12s %8s  %-10s %s\n", "start (UTC)", "label",
				"duration", "Tmin us", "Tmax us", "wake max us", "missed", "verdict",
				"source");
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
		json_kv_string(&w, "kind", trend_point_is_respond(p) ? "respond" : "wave");
		if (trend_point_is_respond(p)) {
			json_kv_object_begin(&w, "respond");
			json_kv_uint(&w, "answers", p->answers);
			kv_opt(&w, "response_p99_ns", p->have_resp, p->resp_p99_ns);
			kv_opt(&w, "response_max_ns", p->have_resp, p->resp_max_ns);
			kv_opt(&w, "events_lost", p->have_missed, (int64_t)p->missed);
			kv_opt(&w, "events_unanswered", p->have_unanswered, (int64_t)p->unanswered);
			kv_opt(&w, "scope_min_ns", p->have_scope_min, p->scope_min_ns);
			kv_opt(&w, "scope_max_ns", p->have_scope_max, p->scope_max_ns);
			json_object_end(&w);
		} else {
			json_kv_null(&w, "respond");
		}
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

/* The steps of the date axis, from seconds to a year. */
static const int64_t time_steps[] = { 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600,
				      2 * 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400,
				      7 * 86400, 14 * 86400, 28 * 86400, 91 * 86400, 182 * 86400,
				      364 * 86400 };
#define NSTEPS (sizeof(time_steps) / sizeof(time_steps[0]))

/* The ticks of @step seconds in [@lo, @hi]: whole steps of UTC time (a
 * week from the epoch's Thursday: fine), at most @max. */
static size_t ticks_of(uint64_t lo, uint64_t hi, int64_t step, uint64_t *ticks, size_t max)
{
	uint64_t lo_s = lo / 1000000000u, hi_s = hi / 1000000000u, s;
	size_t n = 0;

	for (s = (lo_s + (uint64_t)step - 1) / (uint64_t)step * (uint64_t)step; s <= hi_s && n < max;
	     s += (uint64_t)step)
		ticks[n++] = s * 1000000000u;
	return n;
}

/* How many ticks of @step seconds [@lo, @hi] holds. */
static uint64_t ticks_count(uint64_t lo, uint64_t hi, int64_t step)
{
	uint64_t lo_s = lo / 1000000000u, hi_s = hi / 1000000000u, st = (uint64_t)step;
	uint64_t first = (lo_s + st - 1) / st;

	return hi_s / st >= first ? hi_s / st - first + 1 : 0;
}

/* Whether [@lo, @hi] lies in one UTC day. */
static bool one_utc_day(uint64_t lo, uint64_t hi)
{
	return lo / 1000000000u / 86400 == hi / 1000000000u / 86400;
}

/* A date tick's label for @step: the date for a day and more, the time
 * of day below (with the month and day when the axis spans two days),
 * seconds below a minute. */
static void tick_label(uint64_t ns, int64_t step, bool one_day, char *buf, size_t len)
{
	time_t s = (time_t)(ns / 1000000000u);
	struct tm tm;

	gmtime_r(&s, &tm);
	strftime(buf, len, step >= 86400 ? "%Y-%m-%d" : step < 60 ? (one_day ? "%H:%M:%S"
		 : "%m-%d %H:%M:%S") : one_day ? "%H:%M" : "%m-%d %H:%M", &tm);
}

size_t trend_time_axis(uint64_t lo, uint64_t hi, double px, uint64_t *ticks, size_t max,
		       int64_t *step_s)
{
	bool day = one_utc_day(lo, hi);
	double span_s = (double)(hi - lo) / 1e9;
	size_t k;

	/* the smallest step whose labels, 10 px text at 6.4 px a character
	 * (a DejaVu Sans digit is 6.36), stand 20 px apart or more */
	for (k = 0; k < NSTEPS; k++) {
		char lab[32];

		tick_label(lo, time_steps[k], day, lab, sizeof(lab));
		if ((double)time_steps[k] / span_s * px < 6.4 * (double)strlen(lab) + 20 ||
		    ticks_count(lo, hi, time_steps[k]) > max)
			continue;
		*step_s = time_steps[k];
		return ticks_of(lo, hi, time_steps[k], ticks, max);
	}
	*step_s = time_steps[NSTEPS - 1];
	return ticks_of(lo, hi, *step_s, ticks, max);
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
		/* 1, 2 and 5 of each decade where they stand 12 px apart (10 px
		 * text), else each decade, else every other: never over each
		 * other, however many decades */
		double d, decade = TREND_PLOT_H / (log10(s->hi) - log10(s->lo));
		size_t nm = decade * log10(2) >= 12 ? 3 : 1, every = decade >= 12 ? 1 : decade >= 6 ? 2 : 3;
		long e = 0;

		for (d = pow(10, floor(log10(s->lo))); d <= s->hi; d *= 10, e++) {
			static const double m[] = { 1, 2, 5 };
			size_t j;

			if (e % (long)every)
				continue;
			for (j = 0; j < nm; j++) {
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

struct xaxis {
	uint64_t lo, hi;
};

static double x_of(const void *ctx, uint64_t ns)
{
	const struct xaxis *ax = ctx;

	return TREND_L + (double)(ns - ax->lo) / (double)(ax->hi - ax->lo) *
			 (TREND_W - TREND_L - TREND_R);
}

/* The labels of a strip's limits: their boxes, so that none goes over
 * another or over a point of the strip's runs [b, e) (@get), and what to
 * write where once the lines are drawn. */
#define TREND_MAX_LABELS 64
struct lab_boxes {
	double x0[TREND_MAX_LABELS], x1[TREND_MAX_LABELS], y0[TREND_MAX_LABELS], y1[TREND_MAX_LABELS];
	double lx[TREND_MAX_LABELS], ly[TREND_MAX_LABELS];
	char text[TREND_MAX_LABELS][64];
	size_t n;
	const struct trend *t;
	size_t b, e;
	const struct strip *s;
	const struct xaxis *ax;
	bool (*get[2])(const struct trend_point *, double *);
};

/* Take the box [x0, x1] x [y0, y1] for a label if it is clear of every
 * other and of every point (a point's box: 4 px either side). */
static bool lab_take(struct lab_boxes *lb, double x0, double x1, double y0, double y1)
{
	size_t k, i;
	double v;

	if (lb->n == TREND_MAX_LABELS)
		return false;
	for (k = 0; k < lb->n; k++)
		if (!(x1 <= lb->x0[k] || x0 >= lb->x1[k] || y1 <= lb->y0[k] || y0 >= lb->y1[k]))
			return false;
	for (k = 0; k < 2; k++) {
		for (i = lb->b; lb->get[k] && i < lb->e; i++) {
			double x = x_of(lb->ax, lb->t->p[i].start_ns), y;

			if (x + 4 <= x0 || x - 4 >= x1 || !lb->get[k](&lb->t->p[i], &v))
				continue;
			y = strip_y(lb->s, v);
			if (!(y + 4 <= y0 || y - 4 >= y1))
				return false;
		}
	}
	lb->x0[lb->n] = x0;
	lb->x1[lb->n] = x1;
	lb->y0[lb->n] = y0;
	lb->y1[lb->n++] = y1;
	return true;
}

/* The limits a run had (0: none). */
static int64_t lim_tmin(const struct trend_point *p)
{
	return p->lim_tmin_ns;
}

static int64_t lim_tmax(const struct trend_point *p)
{
	return p->lim_tmax_ns;
}

static int64_t lim_wake(const struct trend_point *p)
{
	return p->lim_wake_ns;
}

/* Run @i's stretch of the time axis (pixels): from half-way after the run
 * before it to half-way to the run after; the first and the last as far
 * out as their neighbour is (a lone run: 12 px either side), within the
 * plot. */
static void run_stretch(const struct trend *t, size_t b, size_t e, size_t i,
			const struct xaxis *ax, double *x0, double *x1)
{
	double x = x_of(ax, t->p[i].start_ns);
	double prev = i > b ? x_of(ax, t->p[i - 1].start_ns) : NAN;
	double next = i + 1 < e ? x_of(ax, t->p[i + 1].start_ns) : NAN;

	*x0 = i > b ? (prev + x) / 2 : i + 1 < e ? x - (next - x) / 2 : x - 12;
	*x1 = i + 1 < e ? (x + next) / 2 : i > b ? x + (x - prev) / 2 : x + 12;
	*x0 = fmax(*x0, TREND_L);
	*x1 = fmin(*x1, TREND_W - TREND_R);
}

/*
 * A limit as each run of [b, e) had it, where that run is: a step line
 * (class "limit"), each run's value over its stretch (run_stretch()), a
 * step where it changes, broken over a run without it. Each value is
 * labelled where it begins (class "limit-label"), above the line (below:
 * @below), when the label fits clear of every other in @lb.
 */
static void limit_steps(FILE *f, const struct trend *t, size_t b, size_t e, const struct strip *s,
			const struct xaxis *ax, int64_t (*get)(const struct trend_point *),
			const char *name, bool below, struct lab_boxes *lb)
{
	bool open = false;
	int64_t prev = 0;
	size_t i, k;

	for (i = b; i <= e; i++) {
		int64_t v = i < e ? get(&t->p[i]) : 0;
		double x0, x1, y, w, lx;
		char lab[64];

		if (!v) {
			if (open)
				fprintf(f, "\"><title>%s</title></polyline>\n", name);
			open = false;
			prev = 0;
			continue;
		}
		run_stretch(t, b, e, i, ax, &x0, &x1);
		y = strip_y(s, (double)v / 1e3);
		if (!open)
			fprintf(f, "<polyline class=\"limit\" fill=\"none\" stroke=\"#c00\" "
				   "stroke-width=\"1.2\" stroke-dasharray=\"6,3\" points=\"");
		fprintf(f, "%s%.1f,%.1f %.1f,%.1f", open ? " " : "", x0, y, x1, y);
		open = true;
		if (v == prev)
			continue;
		prev = v;
		/* a new value: its label (10 px text), kept for after the line,
		 * where it begins, else where the run's stretch ends; on its
		 * side of the line (tmin's below), else on the other; inside
		 * the strip, clear of the points and the other labels */
		snprintf(lab, sizeof(lab), "%s %g", name, (double)v / 1e3);
		w = 6.4 * (double)strlen(lab);
		for (k = 0; k < 4; k++) {
			bool under = (k >= 2) != below;
			double ly = under ? y + 11 : y - 3;

			lx = k % 2 ? x1 - 2 - w : x0 + 2;
			lx = fmax(TREND_L + 2, fmin(lx, TREND_W - TREND_R - 2 - w));
			if (ly - 9 < s->top || ly + 2 > s->top + TREND_PLOT_H ||
			    !lab_take(lb, lx, lx + w, ly - 9, ly + 2))
				continue;
			lb->lx[lb->n - 1] = lx;
			lb->ly[lb->n - 1] = ly;
			snprintf(lb->text[lb->n - 1], sizeof(lb->text[0]), "%s", lab);
			break;
		}
	}
}

/* The labels limit_steps() kept, over every line of the strip. */
static void limit_labels(FILE *f, const struct lab_boxes *lb)
{
	size_t k;

	for (k = 0; k < lb->n; k++)
		fprintf(f, "<text class=\"limit-label\" x=\"%.1f\" y=\"%.1f\" fill=\"#c00\" "
			   "font-size=\"10\">%s</text>\n", lb->lx[k], lb->ly[k], lb->text[k]);
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

/* A respond run's pulses are its answers to the input, no wave's: it has
 * no point in the pulse-width strip, and its worst answer (event to write
 * end) stands in the latency strip where a wave's worst wake-up does. */
static bool get_tmin(const struct trend_point *p, double *v)
{
	*v = (double)p->tmin_ns / 1e3;
	return p->have_tmin && !trend_point_is_respond(p);
}

static bool get_tmax(const struct trend_point *p, double *v)
{
	*v = (double)p->tmax_ns / 1e3;
	return p->have_tmax && !trend_point_is_respond(p);
}

static bool get_wake(const struct trend_point *p, double *v)
{
	if (trend_point_is_respond(p)) {
		*v = (double)p->resp_max_ns / 1e3;
		return p->have_resp;
	}
	*v = (double)p->wake_max_ns / 1e3;
	return p->have_wake;
}

/* Whether runs @b..@e hold a respond run (the strips' titles say so). */
static bool any_respond(const struct trend *t, size_t b, size_t e)
{
	size_t i;

	for (i = b; i < e; i++)
		if (trend_point_is_respond(&t->p[i]))
			return true;
	return false;
}

static bool get_missed(const struct trend_point *p, double *v)
{
	*v = (double)p->missed;
	return p->have_missed;
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
		/* a respond run has no wave's pulse widths to miss */
		if (get(&t->p[i], &v) || (get == get_tmax && trend_point_is_respond(&t->p[i])))
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
	/* the limits' labels, clear of the strips' points (static: 7 kB each) */
	static struct lab_boxes wl, ll;
	char first[32], last[32];
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
	for (i = b; i < e; i++) {	/* every run's limits, not the last one's */
		if (t->p[i].lim_tmin_ns)
			widen(&lo, &hi, &any, (double)t->p[i].lim_tmin_ns / 1e3);
		if (t->p[i].lim_tmax_ns)
			widen(&lo, &hi, &any, (double)t->p[i].lim_tmax_ns / 1e3);
	}
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
	wl = (struct lab_boxes){ .t = t, .b = b, .e = e, .s = &w, .ax = ax,
				 .get = { get_tmin, get_tmax } };
	strip_frame(f, &w, w.log_pos ? "pulse width, us (log scale): Tmax (red), Tmin (blue) per run"
		    : "pulse width, us: Tmax (red), Tmin (blue) per run");
	limit_steps(f, t, b, e, &w, ax, lim_tmin, "limits.tmin", true, &wl);
	limit_steps(f, t, b, e, &w, ax, lim_tmax, "limits.tmax", false, &wl);
	series(f, t, b, e, &w, x_of, ax, get_tmax, "#d62728", "tmax");
	series(f, t, b, e, &w, x_of, ax, get_tmin, "#1f77b4", "tmin");
	limit_labels(f, &wl);
	gaps(f, t, b, e, &w, ax, get_tmax, "pulse widths");

	/* the worst wake-up, with its limit */
	lo = hi = 0;
	any = range_of(t, b, e, get_wake, &lo, &hi);
	for (i = b; i < e; i++)
		if (t->p[i].lim_wake_ns)
			widen(&lo, &hi, &any, (double)t->p[i].lim_wake_ns / 1e3);
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
	ll = (struct lab_boxes){ .t = t, .b = b, .e = e, .s = &l, .ax = ax, .get = { get_wake } };
	strip_frame(f, &l, any_respond(t, b, e)
		    ? "worst wake-up latency per run (respond: worst answer, event to write end), us"
		    : "worst wake-up latency per run, us");
	limit_steps(f, t, b, e, &l, ax, lim_wake, "limits.wake_latency_max", false, &ll);
	series(f, t, b, e, &l, x_of, ax, get_wake, "#2ca02c", "wake");
	limit_labels(f, &ll);
	gaps(f, t, b, e, &l, ax, get_wake, "wake-up latency");

	/* missed periods, a log scale from 0 */
	lo = hi = 0;
	any = range_of(t, b, e, get_missed, &lo, &hi);
	m.lo = 0;
	m.hi = pow(10, ceil(log10(1 + (hi > 9 ? hi : 9))));
	strip_frame(f, &m, any_respond(t, b, e) ? "missed periods per run (respond: events lost; "
		    "log scale)" : "missed periods per run (log scale)");
	series(f, t, b, e, &m, x_of, ax, get_missed, "#ff7f0e", "missed");
	gaps(f, t, b, e, &m, ax, get_missed, "missed-period count");

	/* the date axis under the last strip, grid lines through all three;
	 * its labels as wide as they are and never over each other */
	nt = trend_time_axis(ax->lo, ax->hi, TREND_W - TREND_L - TREND_R, ticks, 32, &step);
	for (i = 0; i < nt; i++) {
		double x = x_of(ax, ticks[i]);
		char lab[32];

		tick_label(ticks[i], step, one_utc_day(ax->lo, ax->hi), lab, sizeof(lab));
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n"
			   "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n"
			   "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n",
			x, w.top, x, w.top + TREND_PLOT_H, x, l.top, x, l.top + TREND_PLOT_H, x, m.top,
			x, m.top + TREND_PLOT_H);
		fprintf(f, "<text class=\"x-tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
			   "font-size=\"10\">%s</text>\n", x, m.top + TREND_PLOT_H + 14, lab);
	}
	/* times of day alone: the date they are of in the axis' title */
	first[0] = '\0';
	if (one_utc_day(ax->lo, ax->hi) && step < 86400) {
		time_t d = (time_t)(ax->lo / 1000000000u);
		struct tm tm;

		gmtime_r(&d, &tm);
		strftime(first, sizeof(first), "%Y-%m-%d", &tm);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\">run start "
		   "(UTC%s%s)</text>\n</g>\n", (TREND_L + TREND_W - TREND_R) / 2,
		m.top + TREND_PLOT_H + 30, first[0] ? ", " : "", first);
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
	/* one time axis for every board: their runs line up in time. It
	 * fits the runs, from the first start to the last end, with 4 % of
	 * that either side (at least 30 s): runs of minutes fill it as runs of
	 * months do */
	for (b = 0; b < t->n; b++) {
		uint64_t end = t->p[b].start_ns + (uint64_t)t->p[b].duration_ns;

		if (t->p[b].start_ns < ax.lo)
			ax.lo = t->p[b].start_ns;
		if (end > ax.hi)
			ax.hi = end;
	}
	if (!t->n)
		ax.lo = 0, ax.hi = 1;
	{
		uint64_t span = ax.hi - ax.lo, pad = span / 25;

		if (pad < UINT64_C(30000000000))
			pad = UINT64_C(30000000000);
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
