/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sqwave report: rows from documents, and the table in four formats. */
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "msgbuf.h"

#define REPORT_SCHEMA "sqwave-report"
#define REPORT_SCHEMA_VERSION 1

/* @dst from @s, control characters replaced: rows end up on terminals. */
static void copy_clean(char *dst, size_t len, const char *s)
{
	size_t i;

	if (!len)
		return;
	for (i = 0; s && s[i] && i + 1 < len; i++)
		dst[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	dst[i] = '\0';
}

/* The figures of a statistics object (the run's, or a phase's). */
static void row_stats(struct report_row *row, const struct jv *st)
{
	const struct jv *any = jv_path(st, "pulse_width.any"), *wake = jv_get(st, "wake_latency");
	const struct jv *hist = jv_get(any, "histogram");
	size_t i;

	row->have_pulses = jv_int(jv_get(any, "count"), 0) > 0;
	if (row->have_pulses) {
		row->tmin_ns = jv_int(jv_path(any, "tmin.width_ns"), 0);
		row->tmin_lo_ns = jv_int(jv_path(any, "tmin_bound.lo_ns"), row->tmin_ns);
		row->tmax_ns = jv_int(jv_path(any, "tmax.width_ns"), 0);
		row->tmax_hi_ns = jv_int(jv_path(any, "tmax_bound.hi_ns"), row->tmax_ns);
	}
	row->have_wake = jv_int(jv_get(wake, "count"), 0) > 0;
	if (row->have_wake) {
		row->p99_ns = jv_int(jv_path(wake, "percentiles_ns.p99"), 0);
		row->p9999_ns = jv_int(jv_path(wake, "percentiles_ns.p99.99"), 0);
		/* the key holds a dot: look it up directly */
		row->p9999_ns = jv_int(jv_get(jv_get(wake, "percentiles_ns"), "p99.99"), row->p9999_ns);
		row->max_ns = jv_int(jv_get(wake, "max_ns"), 0);
	}
	/* A histogram (counts over [lo, lo + n * bin)) for the SVG, if there is one. */
	if (hist && jv_len(jv_get(hist, "counts")) > 0) {
		size_t n = jv_len(jv_get(hist, "counts"));

		if (n > REPORT_HIST_MAX)
			n = REPORT_HIST_MAX;
		row->hist = calloc(n, sizeof(*row->hist));
		if (row->hist) {
			row->hist_lo_ns = jv_int(jv_get(hist, "lo_ns"), 0);
			row->hist_bin_ns = jv_int(jv_get(hist, "bin_ns"), 0);
			row->nbins = row->hist_bin_ns > 0 ? n : 0;
			for (i = 0; i < row->nbins; i++)
				row->hist[i] = (uint64_t)jv_int(jv_at(jv_get(hist, "counts"), i), 0);
		}
	}
}

/* The proof of a phase's loads, in a few words. */
static void row_proof(struct report_row *row, const struct jv *ph)
{
	const struct jv *loads = jv_path(ph, "proof.loads"), *specs = jv_get(ph, "loads");
	size_t i;

	row->loads[0] = row->proof[0] = '\0';
	for (i = 0; i < jv_len(specs); i++) {
		char name[64];
		const char *spec = jv_str(jv_at(specs, i), "?");

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(spec, ":"), spec);
		msgbuf_add(row->loads, sizeof(row->loads), "%s%s", i ? ", " : "", name);
	}
	for (i = 0; i < jv_len(loads); i++) {
		const struct jv *l = jv_at(loads, i);
		const char *kind = jv_str(jv_get(l, "proof"), "none");
		const char *sep = row->proof[0] ? ", " : "";

		if (!strcmp(kind, "idle"))
			msgbuf_add(row->proof, sizeof(row->proof), "%sidle: CPU %s %.0f%%", sep,
				jv_str(jv_get(l, "cpus"), "?"), jv_num(jv_get(l, "busy_pct"), -1));
		else if (!strcmp(kind, "cpu"))
			msgbuf_add(row->proof, sizeof(row->proof), "%sCPU %s %.0f%%", sep,
				jv_str(jv_get(l, "cpus"), "?"), jv_num(jv_get(l, "busy_pct"), -1));
		else if (!strcmp(kind, "net"))
			msgbuf_add(row->proof, sizeof(row->proof), "%s%s %.0f pkt/s", sep,
				jv_str(jv_get(l, "interface"), "?"),
				jv_num(jv_get(l, "packets_per_s"), -1));
		if (jv_int(jv_get(l, "valid_scores"), 0) > 0)
			msgbuf_add(row->proof, sizeof(row->proof), "%sCoreMark %.0f (%" PRId64 " runs)",
				row->proof[0] ? ", " : "", jv_num(jv_get(l, "mean_score"), 0),
				jv_int(jv_get(l, "valid_scores"), 0));
		else if (jv_get(l, "valid_scores"))
			msgbuf_add(row->proof, sizeof(row->proof), "%sCoreMark no valid score",
				row->proof[0] ? ", " : "");
		if (jv_bool(jv_get(l, "lost"), false))
			msgbuf_add(row->proof, sizeof(row->proof), "%s%s LOST", row->proof[0] ? ", " : "",
				jv_str(jv_get(l, "name"), "?"));
	}
	if (!row->loads[0])
		snprintf(row->loads, sizeof(row->loads), "-");
	if (!row->proof[0])
		snprintf(row->proof, sizeof(row->proof), "-");
	row->load_applied = jv_len(jv_get(ph, "load_not_applied")) == 0;
}

/*
 * A failure of the whole run that no phase's own figures show: no edges,
 * records dropped, line writes that failed, an incomplete log, a stop on an
 * error or at a trace break. From the summary's verdict.checks; documents
 * without them (analyses, older summaries) from their counts and stop
 * reason. "" when there is none.
 */
static void run_failure(const struct jv *doc, char *out, size_t len)
{
	static const char *const health[] = { "edges", "dropped", "write_errors", "log_complete",
					      "no_error", "no_break" };
	const struct jv *checks = jv_path(doc, "verdict.checks");
	const char *stop = jv_str(jv_path(doc, "run.stop_reason"),
				  jv_str(jv_path(doc, "source.log.footer.stop_reason"), ""));
	size_t i, k;

	out[0] = '\0';
	if (checks) {
		for (i = 0; i < jv_len(checks); i++) {
			const struct jv *ck = jv_at(checks, i);
			const char *name = jv_str(jv_get(ck, "name"), "");

			if (strcmp(jv_str(jv_get(ck, "result"), ""), "fail"))
				continue;
			for (k = 0; k < sizeof(health) / sizeof(health[0]); k++) {
				if (!strcmp(name, health[k]) && !jv_str(jv_get(ck, "phase"), NULL)) {
					copy_clean(out, len, jv_str(jv_get(ck, "message"), name));
					return;
				}
			}
		}
		return;
	}
	if (jv_int(jv_path(doc, "counts.dropped"), 0) > 0 ||
	    jv_int(jv_path(doc, "counts.seq_gaps"), 0) > 0)
		snprintf(out, len, "edge records were dropped: the statistics are incomplete");
	else if (jv_int(jv_path(doc, "counts.write_errors"), 0) > 0)
		snprintf(out, len, "line writes failed");
	else if (jv_bool(jv_path(doc, "run.log_error"), false))
		snprintf(out, len, "the edge log could not be written completely");
	else if (!strcmp(stop, "error"))
		snprintf(out, len, "the run stopped on an error");
	else if (!strcmp(stop, "break"))
		snprintf(out, len, "the run stopped at a trace break (--stop-on-break)");
	else if (jv_bool(jv_path(doc, "source.truncated"), false))
		snprintf(out, len, "the log is truncated: the run was cut short");
}

/* PASS / FAIL / LOAD NOT APPLIED / NO LIMITS for one row. */
static void row_verdict(struct report_row *row, const struct jv *doc, bool whole_run)
{
	const struct jv *cfg = jv_get(doc, "config");
	int64_t wmax = jv_int(jv_path(jv_get(cfg, "limits.wake_latency_max"), "value"), 0);
	int64_t mmax = jv_int(jv_path(jv_get(cfg, "limits.missed_max"), "value"), -1);
	bool limits, fail = false;

	row->lim_tmin_ns = jv_int(jv_get(jv_get(cfg, "limits.tmin"), "value"), 0);
	row->lim_tmax_ns = jv_int(jv_get(jv_get(cfg, "limits.tmax"), "value"), 0);
	limits = row->lim_tmin_ns || row->lim_tmax_ns || wmax || mmax >= 0;
	if (whole_run) {
		fail = !jv_bool(jv_path(doc, "verdict.pass"), true) &&
		       jv_bool(jv_path(doc, "verdict.load_applied"), true);
	} else {
		fail |= row->lim_tmin_ns && row->have_pulses && row->tmin_lo_ns < row->lim_tmin_ns;
		fail |= row->lim_tmax_ns && row->have_pulses && row->tmax_hi_ns > row->lim_tmax_ns;
		fail |= wmax && row->have_wake && row->max_ns > wmax;
		fail |= mmax >= 0 && row->missed > (uint64_t)mmax;
	}
	/* the run as a whole failed: its phases' figures are not the whole
	 * truth (a phase cut short at a break, records lost) */
	run_failure(doc, row->run_failure, sizeof(row->run_failure));
	fail |= row->run_failure[0] != '\0';
	snprintf(row->verdict, sizeof(row->verdict), "%s",
		 fail && !row->load_applied ? "FAIL, LOAD NOT APPLIED" : fail ? "FAIL" :
		 !row->load_applied ? "LOAD NOT APPLIED" : !limits ? "NO LIMITS" : "PASS");
}

static struct report_row *new_row(struct report *r)
{
	struct report_row *n = realloc(r->rows, (r->n + 1) * sizeof(*n));

	if (!n)
		return NULL;
	r->rows = n;
	memset(&n[r->n], 0, sizeof(n[0]));
	return &n[r->n++];
}

int report_add_doc(struct report *r, const struct jv *doc, const char *source, char *err,
		   size_t errlen)
{
	const char *schema = jv_str(jv_get(doc, "schema"), "");
	const struct jv *phases = jv_get(doc, "phases");
	struct report_row base;
	size_t i;

	if (strcmp(schema, "sqwave-summary") && strcmp(schema, "sqwave-analysis")) {
		msgbuf_set(err, errlen, "%s: not a sqwave run summary or analysis (schema \"%s\")", source,
		     schema);
		return -1;
	}
	if (jv_int(jv_get(doc, "schema_version"), 0) < 1) {
		msgbuf_set(err, errlen, "%s: no schema_version", source);
		return -1;
	}
	memset(&base, 0, sizeof(base));
	copy_clean(base.source, sizeof(base.source), source);
	copy_clean(base.label, sizeof(base.label), jv_str(jv_get(doc, "label"), ""));
	copy_clean(base.board, sizeof(base.board), jv_str(jv_path(doc, "board.name"), "?"));
	{
		char k[160];

		snprintf(k, sizeof(k), "%s", jv_str(jv_path(doc, "host.kernel_release"), "?"));
		copy_clean(base.kernel, sizeof(base.kernel), k);
	}
	base.preempt_rt = jv_bool(jv_path(doc, "host.preempt_rt"), false);
	base.rt_ok = jv_bool(jv_path(doc, "rt.ok"), true);
	base.half_ns = jv_int(jv_path(doc, "run.half_period_ns"), 0);
	if (!base.label[0]) {
		const char *slash = strrchr(source, '/');

		copy_clean(base.label, sizeof(base.label), slash ? slash + 1 : source);
	}
	if (jv_len(phases) == 0) {
		struct report_row *row = new_row(r);

		if (!row)
			goto nomem;
		*row = base;
		row->edges = (uint64_t)jv_int(jv_path(doc, "counts.edges"), 0);
		row->missed = (uint64_t)jv_int(jv_path(doc, "counts.missed_periods"), 0);
		row_stats(row, doc);
		snprintf(row->loads, sizeof(row->loads), "-");
		snprintf(row->proof, sizeof(row->proof), "-");
		row->load_applied = true;
		row_verdict(row, doc, true);
		return 0;
	}
	for (i = 0; i < jv_len(phases); i++) {
		const struct jv *ph = jv_at(phases, i);
		struct report_row *row = new_row(r);

		if (!row)
			goto nomem;
		*row = base;
		copy_clean(row->phase, sizeof(row->phase), jv_str(jv_get(ph, "name"), "?"));
		row->edges = (uint64_t)jv_int(jv_path(ph, "counts.edges"), 0);
		row->missed = (uint64_t)jv_int(jv_path(ph, "counts.missed_periods"), 0);
		row_stats(row, ph);
		row_proof(row, ph);
		row_verdict(row, doc, false);
	}
	return 0;
nomem:
	msgbuf_set(err, errlen, "out of memory");
	return -1;
}

void report_free(struct report *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->rows[i].hist);
	free(r->rows);
	r->rows = NULL;
	r->n = 0;
}

bool report_all_pass(const struct report *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (strcmp(r->rows[i].verdict, "PASS") && strcmp(r->rows[i].verdict, "NO LIMITS"))
			return false;
	}
	return true;
}

/* "444.123" (us, to the ns), or "-". */
static const char *us(int64_t ns, bool have, char *buf, size_t len)
{
	if (!have)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", (double)ns / 1e3);
	return buf;
}

static void cells(const struct report_row *w, char c[][600])
{
	char a[32], b[32];

	snprintf(c[0], 600, "%s", w->label);
	snprintf(c[1], 600, "%s", w->phase[0] ? w->phase : "-");
	snprintf(c[2], 600, "%s", w->board);
	snprintf(c[3], 600, "%s%s", w->kernel, w->preempt_rt ? " (RT)" : "");
	snprintf(c[4], 600, "%s", w->loads);
	snprintf(c[5], 600, "%s", w->proof);
	snprintf(c[6], 600, "%" PRIu64, w->edges);
	snprintf(c[7], 600, "%s [%s]", us(w->tmin_ns, w->have_pulses, a, sizeof(a)),
		 us(w->tmin_lo_ns, w->have_pulses, b, sizeof(b)));
	snprintf(c[8], 600, "%s [%s]", us(w->tmax_ns, w->have_pulses, a, sizeof(a)),
		 us(w->tmax_hi_ns, w->have_pulses, b, sizeof(b)));
	us(w->p99_ns, w->have_wake, c[9], 600);
	us(w->p9999_ns, w->have_wake, c[10], 600);
	us(w->max_ns, w->have_wake, c[11], 600);
	snprintf(c[12], 600, "%" PRIu64, w->missed);
	snprintf(c[13], 600, "%s%s", w->verdict, w->rt_ok ? "" : " (non-RT)");
}

#define NCOLS 14
static const char *const heads[NCOLS] = {
	"label", "phase", "board", "kernel", "loads", "proof of load", "edges",
	"Tmin us [lowest]", "Tmax us [highest]", "wake p99 us", "p99.99 us", "max us", "missed",
	"verdict",
};

void report_write_text(FILE *f, const struct report *r)
{
	size_t width[NCOLS], i, k;
	char c[NCOLS][600];

	for (k = 0; k < NCOLS; k++)
		width[k] = strlen(heads[k]);
	for (i = 0; i < r->n; i++) {
		cells(&r->rows[i], c);
		for (k = 0; k < NCOLS; k++)
			if (strlen(c[k]) > width[k])
				width[k] = strlen(c[k]);
	}
	for (k = 0; k + 1 < NCOLS; k++)
		fprintf(f, k >= 6 && k <= 12 ? "%*s  " : "%-*s  ", (int)width[k], heads[k]);
	fprintf(f, "%s\n", heads[NCOLS - 1]);
	for (i = 0; i < r->n; i++) {
		cells(&r->rows[i], c);
		for (k = 0; k + 1 < NCOLS; k++)
			fprintf(f, k >= 6 && k <= 12 ? "%*s  " : "%-*s  ", (int)width[k], c[k]);
		fprintf(f, "%s\n", c[NCOLS - 1]);
	}
	/* why a row failed that its own figures do not say, once per run */
	for (i = 0; i < r->n; i++) {
		if (r->rows[i].run_failure[0] &&
		    (!i || strcmp(r->rows[i].source, r->rows[i - 1].source)))
			fprintf(f, "FAIL: %s (%s): %s\n", r->rows[i].label, r->rows[i].source,
				r->rows[i].run_failure);
	}
}

/* A Markdown cell: '|' escaped. */
static void md_cell(FILE *f, const char *s)
{
	fputc(' ', f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputs(" |", f);
}

void report_write_markdown(FILE *f, const struct report *r)
{
	char c[NCOLS][600];
	size_t i, k;

	fputc('|', f);
	for (k = 0; k < NCOLS; k++)
		md_cell(f, heads[k]);
	fputs("\n|", f);
	for (k = 0; k < NCOLS; k++)
		fputs(k >= 6 && k <= 12 ? " ---: |" : " --- |", f);
	fputc('\n', f);
	for (i = 0; i < r->n; i++) {
		cells(&r->rows[i], c);
		fputc('|', f);
		for (k = 0; k < NCOLS; k++)
			md_cell(f, c[k]);
		fputc('\n', f);
	}
}

void report_write_json(FILE *f, const struct report *r)
{
	struct json_writer w;
	size_t i;

	json_init(&w, f);
	json_object_begin(&w);
	json_kv_string(&w, "schema", REPORT_SCHEMA);
	json_kv_int(&w, "schema_version", REPORT_SCHEMA_VERSION);
	json_kv_array_begin(&w, "rows");
	for (i = 0; i < r->n; i++) {
		const struct report_row *w0 = &r->rows[i];

		json_object_begin(&w);
		json_kv_string(&w, "source", w0->source);
		json_kv_string(&w, "label", w0->label);
		if (w0->phase[0])
			json_kv_string(&w, "phase", w0->phase);
		else
			json_kv_null(&w, "phase");
		json_kv_string(&w, "board", w0->board);
		json_kv_string(&w, "kernel", w0->kernel);
		json_kv_bool(&w, "preempt_rt", w0->preempt_rt);
		json_kv_bool(&w, "rt_ok", w0->rt_ok);
		json_kv_string(&w, "loads", w0->loads);
		json_kv_string(&w, "proof", w0->proof);
		json_kv_bool(&w, "load_applied", w0->load_applied);
		json_kv_uint(&w, "edges", w0->edges);
		json_kv_uint(&w, "missed_periods", w0->missed);
		if (w0->have_pulses) {
			json_kv_int(&w, "tmin_ns", w0->tmin_ns);
			json_kv_int(&w, "tmin_lowest_ns", w0->tmin_lo_ns);
			json_kv_int(&w, "tmax_ns", w0->tmax_ns);
			json_kv_int(&w, "tmax_highest_ns", w0->tmax_hi_ns);
		}
		if (w0->have_wake) {
			json_kv_int(&w, "wake_p99_ns", w0->p99_ns);
			json_kv_int(&w, "wake_p99_99_ns", w0->p9999_ns);
			json_kv_int(&w, "wake_max_ns", w0->max_ns);
		}
		json_kv_string(&w, "verdict", w0->verdict);
		if (w0->run_failure[0])
			json_kv_string(&w, "run_failure", w0->run_failure);
		else
			json_kv_null(&w, "run_failure");
		json_object_end(&w);
	}
	json_array_end(&w);
	json_object_end(&w);
	json_finish(&w);
}

/* SVG: one polyline per row over a linear width axis. */
void report_write_svg(FILE *f, const struct report *r)
{
	static const char *const colors[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
					      "#9467bd", "#8c564b", "#e377c2", "#17becf" };
	const int W = 960, H = 540, L = 70, R = 230, T = 40, B = 60;
	int64_t lo = INT64_MAX, hi = INT64_MIN, half = 0;
	double maxlog = 1;
	size_t i, k;

	for (i = 0; i < r->n; i++) {
		const struct report_row *w = &r->rows[i];

		if (w->half_ns)
			half = w->half_ns;
		for (k = 0; k < w->nbins; k++) {
			if (!w->hist[k])
				continue;
			if (w->hist_lo_ns + (int64_t)k * w->hist_bin_ns < lo)
				lo = w->hist_lo_ns + (int64_t)k * w->hist_bin_ns;
			if (w->hist_lo_ns + (int64_t)(k + 1) * w->hist_bin_ns > hi)
				hi = w->hist_lo_ns + (int64_t)(k + 1) * w->hist_bin_ns;
			if (log10((double)w->hist[k] + 1) > maxlog)
				maxlog = log10((double)w->hist[k] + 1);
		}
		if (w->lim_tmin_ns && w->lim_tmin_ns < lo)
			lo = w->lim_tmin_ns;
		if (w->lim_tmax_ns && w->lim_tmax_ns > hi)
			hi = w->lim_tmax_ns;
	}
	if (lo >= hi) {
		lo = half ? half / 2 : 0;
		hi = half ? half * 3 / 2 : 1000;
	}
	/* Symmetric around the half period, so the nominal width is centred. */
	if (half) {
		int64_t span = llabs(half - lo) > llabs(hi - half) ? llabs(half - lo) : llabs(hi - half);

		lo = half - span - span / 20;
		hi = half + span + span / 20;
	}
#define X(ns) (L + (double)((ns) - lo) / (double)(hi - lo) * (W - L - R))
#define Y(c) (H - B - log10((double)(c) + 1) / maxlog * (H - T - B))
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
	fprintf(f, "<title>sqwave report: pulse-width distributions</title>\n");
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
	fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"15\">Pulse widths of %zu run%s "
		   "(count, log scale)</text>\n", L, r->n, r->n == 1 ? "" : "s/phases");
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, H - B,
		W - R, H - B);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, T, L,
		H - B);
	for (k = 0; k <= 8; k++) {
		int64_t ns = lo + (hi - lo) * (int64_t)k / 8;

		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.1f</text>\n", X(ns),
			H - B + 18, (double)ns / 1e3);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">pulse width (us)</text>\n",
		(L + W - R) / 2, H - 18);
	for (k = 0; k <= (size_t)maxlog; k++)
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">1e%zu</text>\n", L - 6,
			Y(pow(10, (double)k) - 1) + 4, k);
	if (half)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\" "
			   "stroke-dasharray=\"2,3\"/>\n", X(half), T, X(half), H - B);
	for (i = 0; i < r->n; i++) {
		const struct report_row *w = &r->rows[i];
		const char *col = colors[i % (sizeof(colors) / sizeof(colors[0]))];
		char name[200];

		if (w->lim_tmin_ns)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c00\" "
				   "stroke-width=\"1.5\"><title>limits.tmin %.3f us</title></line>\n",
				X(w->lim_tmin_ns), T, X(w->lim_tmin_ns), H - B, w->lim_tmin_ns / 1e3);
		if (w->lim_tmax_ns)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c00\" "
				   "stroke-width=\"1.5\"><title>limits.tmax %.3f us</title></line>\n",
				X(w->lim_tmax_ns), T, X(w->lim_tmax_ns), H - B, w->lim_tmax_ns / 1e3);
		if (w->nbins) {
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
				col);
			for (k = 0; k < w->nbins; k++) {
				int64_t x0 = w->hist_lo_ns + (int64_t)k * w->hist_bin_ns;

				if (x0 < lo || x0 + w->hist_bin_ns > hi)
					continue;
				fprintf(f, "%.1f,%.1f %.1f,%.1f ", X(x0), Y(w->hist[k]),
					X(x0 + w->hist_bin_ns), Y(w->hist[k]));
			}
			fprintf(f, "\"/>\n");
		}
		snprintf(name, sizeof(name), "%s%s%s", w->label, w->phase[0] ? " / " : "", w->phase);
		fprintf(f, "<rect x=\"%d\" y=\"%zu\" width=\"12\" height=\"3\" fill=\"%s\"/>\n",
			W - R + 12, (size_t)T + 8 + i * 18, col);
		fprintf(f, "<text x=\"%d\" y=\"%zu\">", W - R + 30, (size_t)T + 12 + i * 18);
		for (k = 0; name[k]; k++) {
			if (name[k] == '<')
				fputs("&lt;", f);
			else if (name[k] == '&')
				fputs("&amp;", f);
			else if (name[k] == '>')
				fputs("&gt;", f);
			else
				fputc(name[k], f);
		}
		fprintf(f, " (%s)%s</text>\n", w->verdict, w->nbins ? "" : " no histogram");
	}
	fprintf(f, "</svg>\n");
#undef X
#undef Y
}
