/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sqwave report: rows from documents, and the table in four formats. */
#include "report/report.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/escape.h"
#include "base/msgbuf.h"
#include "base/outfile.h"
#include "base/units.h"
#include "report/docread.h"

#define REPORT_SCHEMA "sqwave-report"
#define REPORT_SCHEMA_VERSION 1
/* The newest sqwave-summary / sqwave-analysis schema_version read here. */
#define REPORT_READS_VERSION 1
#define REPORT_STR_(x) #x
#define REPORT_STR(x) REPORT_STR_(x)

/* @dst from @s, control characters and bytes that are not UTF-8 escaped
 * (\xNN): rows end up on terminals, in Markdown and in SVG text. */
static void copy_clean(char *dst, size_t len, const char *s)
{
	if (!len)
		return;
	outfile_escape(s ? s : "", dst, len);
}

/* Reading one document: report/docread.h (every member checked for its
 * type and range as it is read; the first problem is the document's). */
/* Durations a row holds: within 1e15 ns (11 days) either way, which keeps
 * every sum and difference of the table and the SVG within int64. */
#define RD_DUR_MAX 1000000000000000ll

#define K DOCREAD_KEYS

static double rd_num(struct docread *d, const struct jv *obj, const char *const *keys, double def)
{
	double v;

	return docread_num(d, obj, keys, &v) ? v : def;
}

static uint64_t rd_count(struct docread *d, const struct jv *obj, const char *const *keys)
{
	return (uint64_t)docread_int_or(d, obj, keys, 0, INT64_MAX, 0);
}

/* The figures of a statistics object (the run's, or a phase's). */
static void row_stats(struct docread *d, struct report_row *row, const struct jv *st)
{
#define PW(...) K("pulse_width", "any", __VA_ARGS__)
#define WL(...) K("wake_latency", __VA_ARGS__)
	const struct jv *any = docread_get(d, st, K("pulse_width", "any"), JV_OBJECT);
	const struct jv *wake = docread_get(d, st, K("wake_latency"), JV_OBJECT);
	const struct jv *hist = docread_get(d, st, PW("histogram"), JV_OBJECT);
	const struct jv *counts = docread_get(d, st, PW("histogram", "counts"), JV_ARRAY);
	int64_t missing = INT64_MIN;  /* a figure the count says must be there */

	row->have_pulses = rd_count(d, st, PW("count")) > 0;
	if (row->have_pulses) {
		row->tmin_ns = docread_int_or(d, st, PW("tmin", "width_ns"), 0, RD_DUR_MAX, missing);
		row->tmax_ns = docread_int_or(d, st, PW("tmax", "width_ns"), 0, RD_DUR_MAX, missing);
		if (row->tmin_ns == missing || row->tmax_ns == missing) {
			docread_fail(d, any, K("pulse_width", "any"),
				"has a count but no tmin.width_ns or tmax.width_ns");
			return;
		}
		row->tmin_lo_ns = docread_int_or(d, st, PW("tmin_bound", "lo_ns"), 0, RD_DUR_MAX, row->tmin_ns);
		row->tmax_hi_ns = docread_int_or(d, st, PW("tmax_bound", "hi_ns"), 0, RD_DUR_MAX, row->tmax_ns);
		if (!(row->tmin_lo_ns <= row->tmin_ns && row->tmin_ns <= row->tmax_ns &&
		      row->tmax_ns <= row->tmax_hi_ns))
			docread_fail(d, any, K("pulse_width", "any"),
				"does not hold tmin_bound.lo_ns <= tmin.width_ns <= tmax.width_ns <= "
				"tmax_bound.hi_ns");
	}
	row->have_wake = rd_count(d, st, WL("count")) > 0;
	if (row->have_wake) {
		/* "p99.99" holds a dot: one key, not a path */
		row->p99_ns = docread_int_or(d, st, WL("percentiles_ns", "p99"), -RD_DUR_MAX, RD_DUR_MAX,
				     missing);
		row->p9999_ns = docread_int_or(d, st, WL("percentiles_ns", "p99.99"), -RD_DUR_MAX,
				       RD_DUR_MAX, missing);
		row->max_ns = docread_int_or(d, st, WL("max_ns"), -RD_DUR_MAX, RD_DUR_MAX, missing);
		if (row->p99_ns == missing || row->p9999_ns == missing || row->max_ns == missing) {
			docread_fail(d, wake, K("wake_latency"),
				"has a count but no percentiles_ns.p99, percentiles_ns.p99.99 or max_ns");
			return;
		}
		row->p50_ns = docread_int_or(d, st, WL("percentiles_ns", "p50"), -RD_DUR_MAX, RD_DUR_MAX,
				     missing);
		row->mean_ns = docread_int_or(d, st, WL("mean_ns"), -RD_DUR_MAX, RD_DUR_MAX, missing);
		row->have_center = row->p50_ns != missing && row->mean_ns != missing;
	}
	/* A histogram (counts over [lo, lo + n * bin)) for the SVG, if there is one. */
	if (counts && counts->n > 0 && !d->bad) {
		size_t n = counts->n, i;
		int64_t lo = docread_int_or(d, st, PW("histogram", "lo_ns"), 0, RD_DUR_MAX, 0);
		int64_t bin = docread_int_or(d, st, PW("histogram", "bin_ns"), 1, RD_DUR_MAX, 0);

		if (n > REPORT_HIST_MAX) {
			docread_fail(d, counts, K("pulse_width", "any", "histogram", "counts"),
				"has more than " REPORT_STR(REPORT_HIST_MAX) " bins");
			return;
		}
		if (!bin || d->bad)
			return;
		if (bin > (RD_DUR_MAX - lo) / (int64_t)n) {
			docread_fail(d, hist, K("pulse_width", "any", "histogram"),
				"ends beyond 1e15 ns (lo_ns + bins * bin_ns)");
			return;
		}
		row->hist = calloc(n, sizeof(*row->hist));
		if (!row->hist)
			return;	/* no SVG curve for this row; the table is whole */
		row->hist_lo_ns = lo;
		row->hist_bin_ns = bin;
		row->nbins = n;
		/* beyond the bins: the tracked range's and the bins' own ends */
		row->hist_shorter = rd_count(d, st, PW("histogram", "below")) +
				    rd_count(d, st, PW("histogram", "shorter"));
		row->hist_longer = rd_count(d, st, PW("histogram", "above")) +
				   rd_count(d, st, PW("histogram", "longer"));
		for (i = 0; i < n && !d->bad; i++) {
			const struct jv *c = counts->items[i];

			if (c->type != JV_NUMBER || !c->is_int || c->i < 0)
				docread_fail(d, c, K("pulse_width", "any", "histogram", "counts"),
					"must hold integers from 0");
			else
				row->hist[i] = (uint64_t)c->i;
		}
	}
#undef PW
#undef WL
}

/* What a row's pulses should measure, per polarity (enum pin_polarity;
 * 0: none): its document's pin (log/pin.h: a wave's high and low, a
 * respond run's pulse width for its active level in pulse mode, none
 * else), never the half period. The one place the SVG learns it. */
static const int64_t *row_nominal(const struct report_row *w)
{
	return w->pin.nominal_ns;
}

/* A proof figure rounded with its unit, or "no sample" for the writers' -1. */
static const char *figure(double v, const char *unit, char *buf, size_t len)
{
	if (v < 0)
		snprintf(buf, len, "no sample");
	else
		snprintf(buf, len, "%.0f%s", v, unit);
	return buf;
}

/* A figure the row's proof was judged by (value < 0: no sample). */
static void row_fig(struct report_row *row, const char *load, const char *figure, double value,
		    const char *of)
{
	struct report_proof_fig *g;

	if (row->nfigs == REPORT_PROOF_FIGS)
		return;
	g = &row->figs[row->nfigs++];
	copy_clean(g->load, sizeof(g->load), load);
	g->figure = figure;
	g->value = value;
	copy_clean(g->of, sizeof(g->of), of);
}

/* The proof of a phase's loads, in a few words. */
static void row_proof(struct docread *d, struct report_row *row, const struct jv *ph)
{
	const struct jv *loads = docread_get(d, ph, K("proof", "loads"), JV_ARRAY);
	const struct jv *specs = docread_get(d, ph, K("loads"), JV_ARRAY);
	const struct jv *lna = docread_get(d, ph, K("load_not_applied"), JV_ARRAY);
	char tmp[sizeof(row->proof)], where[sizeof(d->where)], num[32];
	size_t i;

	row->loads[0] = row->proof[0] = '\0';
	for (i = 0; i < jv_len(specs); i++) {
		const struct jv *sp = jv_at(specs, i);

		if (sp->type != JV_STRING) {
			docread_fail(d, sp, K("loads"), "must hold strings");
			return;
		}
		msgbuf_add(row->loads, sizeof(row->loads), "%s%.*s", i ? ", " : "",
			   (int)strcspn(sp->str, ":"), sp->str);
	}
	for (i = 0; i < jv_len(loads); i++) {
		const struct jv *l = jv_at(loads, i);
		const char *kind, *name, *sep = row->proof[0] ? ", " : "";
		int64_t valid;
		double own;

		if (l->type != JV_OBJECT) {
			docread_fail(d, l, K("proof", "loads"), "must hold objects");
			return;
		}
		msgbuf_set(where, sizeof(where), "%s", d->where);
		msgbuf_add(d->where, sizeof(d->where), "proof.loads[%zu].", i);
		kind = docread_str_or(d, l, K("proof"), "none");
		name = docread_str_or(d, l, K("name"), "?");
		/* the writers say -1 (or null) for "no sample": not a figure. A
		 * CPU load is judged by its own CPU time where the document has
		 * it (proof_phase_judge()): that figure first, the system-wide
		 * busy beside it, never alone as if it had judged */
		if (!strcmp(kind, "cpu") && docread_num(d, l, K("own_busy_pct"), &own)) {
			char sys[32];

			msgbuf_add(row->proof, sizeof(row->proof), "%s%s own %s of CPU %s (%s; "
				   "system-wide %s)", sep, name, figure(own, "%", num, sizeof(num)),
				   docread_str_or(d, l, K("cpus"), "?"),
				   docread_str_or(d, l, K("own_source"), "?"),
				   figure(rd_num(d, l, K("busy_pct"), -1), "%", sys, sizeof(sys)));
			row_fig(row, name, "own_busy_pct", own, docread_str_or(d, l, K("cpus"), "?"));
		} else if (!strcmp(kind, "idle") || !strcmp(kind, "cpu")) {
			msgbuf_add(row->proof, sizeof(row->proof), "%s%sCPU %s %s", sep,
				   *kind == 'i' ? "idle: " : "", docread_str_or(d, l, K("cpus"), "?"),
				   figure(rd_num(d, l, K("busy_pct"), -1), "%", num, sizeof(num)));
			row_fig(row, name, "busy_pct", rd_num(d, l, K("busy_pct"), -1),
				docread_str_or(d, l, K("cpus"), "?"));
		} else if (!strcmp(kind, "net")) {
			msgbuf_add(row->proof, sizeof(row->proof), "%s%s %s", sep,
				   docread_str_or(d, l, K("interface"), "?"),
				   figure(rd_num(d, l, K("packets_per_s"), -1), " pkt/s", num,
					  sizeof(num)));
			row_fig(row, name, "packets_per_s", rd_num(d, l, K("packets_per_s"), -1),
				docread_str_or(d, l, K("interface"), "?"));
		}
		valid = docread_int_or(d, l, K("valid_scores"), 0, INT64_MAX, -1);
		if (valid >= 0)
			row_fig(row, name, "valid_scores", (double)valid, "");
		if (valid > 0)
			msgbuf_add(row->proof, sizeof(row->proof), "%sCoreMark %.0f (%" PRId64 " runs)",
				   row->proof[0] ? ", " : "", rd_num(d, l, K("mean_score"), 0), valid);
		else if (valid == 0)
			msgbuf_add(row->proof, sizeof(row->proof), "%sCoreMark no valid score",
				   row->proof[0] ? ", " : "");
		if (docread_bool_or(d, l, K("lost"), false))
			msgbuf_add(row->proof, sizeof(row->proof), "%s%s LOST", row->proof[0] ? ", " : "",
				   docread_str_or(d, l, K("name"), "?"));
		snprintf(d->where, sizeof(d->where), "%s", where);
	}
	/* the names and figures come from the document: escaped for terminals */
	snprintf(tmp, sizeof(tmp), "%s", row->loads[0] ? row->loads : "-");
	copy_clean(row->loads, sizeof(row->loads), tmp);
	/* a phase whose idleness or load the proof does not show says so
	 * first (docs/soak.md: the proof's words) */
	{
		const char *st = docread_str_or(d, ph, K("proof", "state"), "");

		row->proof_incomplete = !strcmp(st, "proof incomplete");
		snprintf(row->proof_state, sizeof(row->proof_state), "%.23s",
			 st[0] ? st : "idle unproven");
		msgbuf_set(tmp, sizeof(tmp), "%s%s",
			   !strcmp(st, "not idle") ? "NOT IDLE, " : !strcmp(st, "idle unproven")
			   ? "IDLE UNPROVEN, " : row->proof_incomplete ? "PROOF INCOMPLETE, " : "",
			   row->proof[0] ? row->proof : "-");
	}
	copy_clean(row->proof, sizeof(row->proof), tmp);
	row->load_applied = jv_len(lna) == 0;
}

/* The proof of a row for the whole run (no phases): whether it was idle,
 * with the figure; "idle unproven" when the document does not show it. */
static void run_row_proof(struct docread *d, struct report_row *row, const struct jv *doc)
{
	const char *idle = docread_str_or(d, doc, K("proof", "idle"), NULL);
	char tmp[sizeof(row->proof)], num[32];

	snprintf(row->proof_state, sizeof(row->proof_state), "%.23s", idle ? idle : "idle unproven");
	if (!idle || (strcmp(idle, "idle proven") && strcmp(idle, "not idle")))
		snprintf(tmp, sizeof(tmp), "%s", idle && strcmp(idle, "idle unproven")
			 ? idle : "IDLE UNPROVEN");
	else {
		snprintf(tmp, sizeof(tmp), "%s: CPU %s %s", *idle == 'n' ? "NOT IDLE" : "idle proven",
			 docread_str_or(d, doc, K("proof", "idle_cpus"), "?"),
			 figure(rd_num(d, doc, K("proof", "idle_busy_pct"), -1), "%", num,
				sizeof(num)));
		row_fig(row, "no-load", "busy_pct", rd_num(d, doc, K("proof", "idle_busy_pct"), -1),
			docread_str_or(d, doc, K("proof", "idle_cpus"), "?"));
	}
	copy_clean(row->proof, sizeof(row->proof), tmp);
}

/*
 * A failure of the whole run that no phase's own figures show: no edges,
 * records dropped, line writes that failed, an incomplete log, a stop on an
 * error or at a trace break. From the summary's verdict.checks; documents
 * without them (analyses, older summaries) from their counts and stop
 * reason. "" when there is none.
 */
static void run_failure(struct docread *d, const struct jv *doc, char *out, size_t len)
{
	static const char *const health[] = { "edges", "dropped", "write_errors", "log_complete",
					      "no_error", "no_break" };
	const struct jv *checks = docread_get(d, doc, K("verdict", "checks"), JV_ARRAY);
	const char *stop = docread_str_or(d, doc, K("run", "stop_reason"),
				  docread_str_or(d, doc, K("source", "log", "footer", "stop_reason"), ""));
	size_t i, k;

	out[0] = '\0';
	if (checks) {
		for (i = 0; i < jv_len(checks); i++) {
			const struct jv *ck = jv_at(checks, i);
			const char *name;

			char where[sizeof(d->where)];
			const char *result, *msg;
			bool phase;

			if (ck->type != JV_OBJECT) {
				docread_fail(d, ck, K("verdict", "checks"), "must hold objects");
				return;
			}
			snprintf(where, sizeof(where), "%s", d->where);
			msgbuf_add(d->where, sizeof(d->where), "verdict.checks[%zu].", i);
			name = docread_str_or(d, ck, K("name"), "");
			result = docread_str_or(d, ck, K("result"), "");
			phase = docread_str_or(d, ck, K("phase"), NULL) != NULL;
			msg = docread_str_or(d, ck, K("message"), name);
			snprintf(d->where, sizeof(d->where), "%s", where);
			if (strcmp(result, "fail"))
				continue;
			for (k = 0; k < sizeof(health) / sizeof(health[0]); k++) {
				if (!strcmp(name, health[k]) && !phase) {
					copy_clean(out, len, msg);
					return;
				}
			}
		}
		return;
	}
	if (rd_count(d, doc, K("counts", "dropped")) > 0 ||
	    rd_count(d, doc, K("counts", "seq_gaps")) > 0)
		snprintf(out, len, "edge records were dropped: the statistics are incomplete");
	else if (rd_count(d, doc, K("counts", "write_errors")) > 0)
		snprintf(out, len, "line writes failed");
	else if (docread_bool_or(d, doc, K("run", "log_error"), false))
		snprintf(out, len, "the edge log could not be written completely");
	else if (!strcmp(stop, "error"))
		snprintf(out, len, "the run stopped on an error");
	else if (!strcmp(stop, "break"))
		snprintf(out, len, "the run stopped at a trace break (--stop-on-break)");
	else if (docread_bool_or(d, doc, K("source", "truncated"), false))
		snprintf(out, len, "the log is truncated: the run was cut short");
}

bool report_row_is_respond(const struct report_row *w)
{
	return w->pin.kind == PIN_RESPOND;
}

/* A respond run's answers from @obj's "respond" member (the run's, or a
 * phase's: answers, events_lost, event_to_write_end only). */
static void row_respond(struct docread *d, struct report_row *row, const struct jv *obj)
{
#define RE(...) K("respond", "event_to_write_end", __VA_ARGS__)
	int64_t none = INT64_MIN;

	row->answers = rd_count(d, obj, K("respond", "answers"));
	row->have_response = docread_get(d, obj, RE("max_ns"), JV_NUMBER) != NULL;
	row->response_max_ns = docread_int_or(d, obj, RE("max_ns"), -RD_DUR_MAX, RD_DUR_MAX, 0);
	row->resp_p50_ns = docread_int_or(d, obj, RE("percentiles_ns", "p50"), -RD_DUR_MAX,
					  RD_DUR_MAX, none);
	row->resp_p99_ns = docread_int_or(d, obj, RE("percentiles_ns", "p99"), -RD_DUR_MAX,
					  RD_DUR_MAX, none);
	row->have_resp_center = row->resp_p50_ns != none && row->resp_p99_ns != none;
	row->have_lost_warmup = docread_get(d, obj, K("respond", "events_lost_warmup"),
					    JV_NUMBER) != NULL;
	row->lost_warmup = rd_count(d, obj, K("respond", "events_lost_warmup"));
	row->have_unanswered = docread_get(d, obj, K("respond", "events_unanswered"),
					   JV_NUMBER) != NULL;
	row->unanswered = rd_count(d, obj, K("respond", "events_unanswered"));
	row->have_scope_min = docread_get(d, obj, K("respond", "scope", "min_ns"), JV_NUMBER) != NULL;
	row->scope_min_ns = docread_int_or(d, obj, K("respond", "scope", "min_ns"), -RD_DUR_MAX,
					   RD_DUR_MAX, 0);
	row->have_scope_max = docread_get(d, obj, K("respond", "scope", "max_ns"), JV_NUMBER) != NULL;
	row->scope_max_ns = docread_int_or(d, obj, K("respond", "scope", "max_ns"), -RD_DUR_MAX,
					   RD_DUR_MAX, 0);
#undef RE
}

/* PASS / FAIL / LOAD NOT APPLIED / NO LIMITS for one row. */
static void row_verdict(struct docread *d, struct report_row *row, const struct jv *doc, bool whole_run)
{
	const struct jv *cfg = docread_get(d, doc, K("config"), JV_OBJECT);
	int64_t wmax = docread_int_or(d, cfg, K("limits.wake_latency_max", "value"), 0, RD_DUR_MAX, 0);
	int64_t mmax = docread_int_or(d, cfg, K("limits.missed_max", "value"), -1, INT64_MAX, -1);
	int64_t rmax = docread_int_or(d, cfg, K("limits.response_max", "value"), 0, RD_DUR_MAX, 0);
	bool limits, fail = false;

	row->lim_tmin_ns = docread_int_or(d, cfg, K("limits.tmin", "value"), 0, RD_DUR_MAX, 0);
	row->lim_tmax_ns = docread_int_or(d, cfg, K("limits.tmax", "value"), 0, RD_DUR_MAX, 0);
	limits = row->lim_tmin_ns || row->lim_tmax_ns || wmax || mmax >= 0 ||
		 (row->respond && rmax);
	if (whole_run) {
		fail = !docread_bool_or(d, doc, K("verdict", "pass"), true) &&
		       docread_bool_or(d, doc, K("verdict", "load_applied"), true);
	} else {
		fail |= row->lim_tmin_ns && row->have_pulses && row->tmin_lo_ns < row->lim_tmin_ns;
		fail |= row->lim_tmax_ns && row->have_pulses && row->tmax_hi_ns > row->lim_tmax_ns;
		fail |= wmax && row->have_wake && row->max_ns > wmax;
		fail |= mmax >= 0 && row->missed > (uint64_t)mmax;
		fail |= row->respond && rmax && row->have_response && row->response_max_ns > rmax;
	}
	/* the run as a whole failed: its phases' figures are not the whole
	 * truth (a phase cut short at a break, records lost) */
	run_failure(d, doc, row->run_failure, sizeof(row->run_failure));
	fail |= row->run_failure[0] != '\0';
	snprintf(row->verdict, sizeof(row->verdict), "%s",
		 fail && !row->load_applied ? (row->proof_incomplete ? "FAIL, PROOF INCOMPLETE"
					       : "FAIL, LOAD NOT APPLIED") : fail ? "FAIL" :
		 row->proof_incomplete && !row->load_applied ? "PROOF INCOMPLETE" :
		 !row->load_applied ? "LOAD NOT APPLIED" : !limits ? "NO LIMITS" : "PASS");
}

/* The time a row's figures cover: every counted edge and every missed
 * slot is one half period (from the counts, so a log and its summary give
 * the same figure; a phase cut short by a stop is as long as it ran). */
/* run --loopback: the kernel's view of the whole run (docs/loopback.md). */
static void row_loopback(struct docread *d, struct report_row *row, const struct jv *doc)
{
	const struct jv *lb = docread_get(d, doc, K("loopback"), JV_OBJECT);

	if (!lb)
		return;
	row->have_lb = true;
	row->lb_no_event = rd_count(d, lb, K("no_event"));
	row->lb_early = rd_count(d, lb, K("placement", "before_write_begin"));
	row->lb_have_pulses = docread_get(d, lb, K("pulse_width", "any", "min_ns"), JV_NUMBER) &&
			      docread_get(d, lb, K("pulse_width", "any", "max_ns"), JV_NUMBER);
	row->lb_tmin_ns = docread_int_or(d, lb, K("pulse_width", "any", "min_ns"), -RD_DUR_MAX, RD_DUR_MAX, 0);
	row->lb_tmax_ns = docread_int_or(d, lb, K("pulse_width", "any", "max_ns"), -RD_DUR_MAX, RD_DUR_MAX, 0);
	row->lb_have_lag = docread_get(d, lb, K("from_write_end", "percentiles_ns", "p99"), JV_NUMBER);
	row->lb_lag_p99_ns = docread_int_or(d, lb, K("from_write_end", "percentiles_ns", "p99"), -RD_DUR_MAX,
				    RD_DUR_MAX, 0);
}

static void row_duration(struct report_row *row)
{
	uint64_t slots = row->edges + row->missed;

	row->duration_ns = row->half_ns > 0 && slots >= row->edges &&
			   slots <= (uint64_t)(RD_DUR_MAX / row->half_ns)
			   ? (int64_t)slots * row->half_ns : 0;
}

static struct report_row *new_row(struct report *r)
{
	if (r->n == r->cap) {
		size_t nc = r->cap ? r->cap * 2 : 16;
		struct report_row *n = realloc(r->rows, nc * sizeof(*n));

		if (!n)
			return NULL;
		r->rows = n;
		r->cap = nc;
	}
	memset(&r->rows[r->n], 0, sizeof(r->rows[0]));
	return &r->rows[r->n++];
}

/* A comparison of two boards: a row of the second table. */
static int add_pair(struct report *r, struct docread *d, const struct jv *doc)
{
	struct board_pair p;

	if (!board_pair_read(d, doc, &p))
		return -1;
	if (r->npairs == r->cappairs) {
		size_t cap = r->cappairs ? r->cappairs * 2 : 4;
		struct board_pair *v = realloc(r->pairs, cap * sizeof(*v));

		if (!v) {
			msgbuf_set(d->err, d->errlen, "out of memory");
			return -1;
		}
		r->pairs = v;
		r->cappairs = cap;
	}
	r->pairs[r->npairs++] = p;
	return 0;
}

/* A comparison of one log: a row of the instruments table. */
static int add_inst(struct report *r, struct docread *d, const struct jv *doc)
{
	struct inst_row w;

	if (!inst_row_read(d, doc, &w))
		return -1;
	if (r->ninsts == r->capinsts) {
		size_t cap = r->capinsts ? r->capinsts * 2 : 4;
		struct inst_row *v = realloc(r->insts, cap * sizeof(*v));

		if (!v) {
			msgbuf_set(d->err, d->errlen, "out of memory");
			return -1;
		}
		r->insts = v;
		r->capinsts = cap;
	}
	r->insts[r->ninsts++] = w;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

bool report_inst_run(const struct report *r, size_t i, struct inst_run *run)
{
	const struct inst_row *w = &r->insts[i];
	size_t k;

	for (k = 0; k < r->n; k++) {
		const struct report_row *row = &r->rows[k];

		/* the log's name and records, and its start where both say it:
		 * two runs to the same file name with as many records differ there */
		if (row->log_path[0] && row->have_records && row->records == w->records &&
		    !strcmp(base_name(row->log_path), base_name(w->log_path)) &&
		    (!row->have_start || !w->have_start ||
		     row->start_realtime_ns == w->start_realtime_ns)) {
			run->label = row->label;
			run->source = row->source;
			return true;
		}
	}
	return false;
}

int report_add_doc(struct report *r, const struct jv *doc, const char *source, char *err,
		   size_t errlen)
{
	struct docread d = { .source = source, .err = err, .errlen = errlen };
	const char *schema = jv_str(jv_get(doc, "schema"), "");
	const struct jv *phases;
	size_t i, first = r->n;
	struct report_row base;
	int64_t version, recs = 0, start = 0;

	if (board_pair_is_doc(doc))
		return add_pair(r, &d, doc);
	if (inst_row_is_doc(doc))
		return add_inst(r, &d, doc);
	if (strcmp(schema, "sqwave-summary") && strcmp(schema, "sqwave-analysis")) {
		msgbuf_set(err, errlen, "%s: not a sqwave run summary or analysis, nor a comparison "
			   "(schema \"%s\")", OUTFILE_ESC(source), OUTFILE_ESC(schema));
		return -1;
	}
	version = docread_int_or(&d, doc, K("schema_version"), 1, INT64_MAX, 0);
	if (d.bad || !version) {
		if (!d.bad)
			msgbuf_set(err, errlen, "%s: no schema_version", OUTFILE_ESC(source));
		return -1;
	}
	/* docs/json-summary.md: a reader refuses a version it does not know */
	if (version > REPORT_READS_VERSION) {
		msgbuf_set(err, errlen, "%s: %s schema_version %" PRId64 " is newer than this sqwave "
			   "reads (%d): a newer sqwave wrote it", OUTFILE_ESC(source), schema, version,
			   REPORT_READS_VERSION);
		return -1;
	}
	phases = docread_get(&d, doc, K("phases"), JV_ARRAY);
	if (jv_len(phases) > REPORT_MAX_PHASES)
		docread_fail(&d, phases, K("phases"), "holds more than " REPORT_STR(REPORT_MAX_PHASES)
			" phases");
	memset(&base, 0, sizeof(base));
	copy_clean(base.source, sizeof(base.source), source);
	copy_clean(base.label, sizeof(base.label), docread_str_or(&d, doc, K("label"), ""));
	copy_clean(base.board, sizeof(base.board), docread_str_or(&d, doc, K("board", "name"), "?"));
	copy_clean(base.kernel, sizeof(base.kernel), docread_str_or(&d, doc, K("host", "kernel_release"), "?"));
	base.preempt_rt = docread_bool_or(&d, doc, K("host", "preempt_rt"), false);
	base.rt_ok = docread_bool_or(&d, doc, K("rt", "ok"), true);
	/* the log the figures are of, for an instrument's comparison of it */
	if (!strcmp(schema, "sqwave-summary")) {
		copy_clean(base.log_path, sizeof(base.log_path),
			   docread_str_or(&d, doc, K("run", "log_path"), ""));
		base.have_records = docread_int(&d, doc, K("counts", "records_logged"), 0, INT64_MAX,
						&recs);
		base.have_start = docread_int(&d, doc, K("run", "start_realtime_ns"), 0, INT64_MAX,
					      &start);
	} else if (!strcmp(docread_str_or(&d, doc, K("source", "kind"), ""), "log")) {
		copy_clean(base.log_path, sizeof(base.log_path),
			   docread_str_or(&d, doc, K("source", "path"), ""));
		base.have_records = docread_int(&d, doc, K("counts", "records"), 0, INT64_MAX,
						&recs);
		base.have_start = docread_int(&d, doc, K("source", "log", "start_realtime_ns"), 0,
					      INT64_MAX, &start);
	}
	base.start_realtime_ns = base.have_start ? (uint64_t)start : 0;
	base.records = base.have_records ? (uint64_t)recs : 0;
	/* What the pin should do: the run's kind and its wave from the
	 * document's pin, never from its half period alone. A respond run
	 * has no frequency, and its rows cover the time it ran. */
	docread_pin(&d, doc, &base.pin);
	base.respond = base.pin.kind == PIN_RESPOND;
	base.half_ns = pin_half_period(&base.pin);
	if (!base.label[0])
		docread_label_of(base.label, sizeof(base.label), source);
	if (d.bad)
		return -1;
	if (jv_len(phases) == 0) {
		struct report_row *row = new_row(r);

		if (!row)
			goto nomem;
		*row = base;
		/* the whole run: the name a log's analysis gives its one phase */
		snprintf(row->phase, sizeof(row->phase), "run");
		row->edges = rd_count(&d, doc, K("counts", "edges"));
		row->missed = rd_count(&d, doc, K("counts", "missed_periods"));
		row_duration(row);
		if (base.respond) {
			row->duration_ns = docread_int_or(&d, doc, K("run", "duration_ns"), 0, RD_DUR_MAX, 0);
			row_respond(&d, row, doc);
		}
		row_stats(&d, row, doc);
		snprintf(row->loads, sizeof(row->loads), "-");
		run_row_proof(&d, row, doc);
		row->load_applied = true;
		row_loopback(&d, row, doc);
		row_verdict(&d, row, doc, true);
	}
	for (i = 0; i < jv_len(phases) && !d.bad; i++) {
		const struct jv *ph = jv_at(phases, i);
		struct report_row *row;

		if (ph->type != JV_OBJECT) {
			docread_fail(&d, ph, K("phases"), "must hold objects");
			break;
		}
		snprintf(d.where, sizeof(d.where), "phases[%zu].", i);
		row = new_row(r);
		if (!row)
			goto nomem;
		*row = base;
		copy_clean(row->phase, sizeof(row->phase), docread_str_or(&d, ph, K("name"), "?"));
		row->edges = rd_count(&d, ph, K("counts", "edges"));
		row->missed = rd_count(&d, ph, K("counts", "missed_periods"));
		row_duration(row);
		if (row->respond) {	/* its answers, and the time it ran */
			row->duration_ns = docread_int_or(&d, ph, K("ran_ns"), 0, RD_DUR_MAX, 0);
			/* its one phase is the whole run: the run's answers, with
			 * what only the run has (unanswered, the scope) */
			row_respond(&d, row, jv_len(phases) == 1 ? doc : ph);
		}
		row_stats(&d, row, ph);
		row_proof(&d, row, ph);
		d.where[0] = '\0';
		if (jv_len(phases) == 1)	/* its one phase is the whole run */
			row_loopback(&d, row, doc);
		row_verdict(&d, row, doc, false);
	}
	if (!d.bad)
		return 0;
	/* a bad document adds no row */
	while (r->n > first)
		free(r->rows[--r->n].hist);
	return -1;
nomem:
	while (r->n > first)
		free(r->rows[--r->n].hist);
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
	r->n = r->cap = 0;
	free(r->pairs);
	r->pairs = NULL;
	r->npairs = r->cappairs = 0;
	free(r->insts);
	r->insts = NULL;
	r->ninsts = r->capinsts = 0;
}

bool report_all_pass(const struct report *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (strcmp(r->rows[i].verdict, "PASS") && strcmp(r->rows[i].verdict, "NO LIMITS"))
			return false;
	}
	for (i = 0; i < r->npairs; i++) {
		if (r->pairs[i].exit_code != 0)
			return false;
	}
	for (i = 0; i < r->ninsts; i++) {
		if (r->insts[i].exit_code != 0)
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
		units_us(ns, buf, len);
	return buf;
}

/* "2.0 s", "10.0 min", "1.00 h" (a table's precision), or "-". */
static const char *dur(int64_t ns, char *buf, size_t len)
{
	double s = (double)ns / 1e9;

	if (ns <= 0)
		snprintf(buf, len, "-");
	else if (s < 60)
		snprintf(buf, len, "%.1f s", s);
	else if (s < 3600)
		snprintf(buf, len, "%.1f min", s / 60);
	else
		snprintf(buf, len, "%.2f h", s / 3600);
	return buf;
}

/* The columns: heading, and whether its cells are figures (right-aligned). */
enum {
	COL_LABEL, COL_PHASE, COL_BOARD, COL_KERNEL, COL_DURATION, COL_FREQ, COL_LOADS,
	COL_PROOF, COL_EDGES, COL_TMIN, COL_TMAX, COL_P50, COL_MEAN, COL_P99, COL_P9999,
	COL_MAX, COL_MISSED, COL_LB_T, COL_LB_LAG, COL_LB_LOST, COL_VERDICT, NCOLS
};
static const struct {
	const char *head;
	bool right;
} cols[NCOLS] = {
	[COL_LABEL] = { "label", false },
	[COL_PHASE] = { "phase", false },
	[COL_BOARD] = { "board", false },
	[COL_KERNEL] = { "kernel", false },
	[COL_DURATION] = { "duration", true },
	[COL_FREQ] = { "freq Hz", true },
	[COL_LOADS] = { "loads", false },
	[COL_PROOF] = { "proof of load", false },
	[COL_EDGES] = { "edges", true },
	[COL_TMIN] = { "Tmin us [lowest]", true },
	[COL_TMAX] = { "Tmax us [highest]", true },
	[COL_P50] = { "wake p50 us", true },
	[COL_MEAN] = { "mean us", true },
	[COL_P99] = { "p99 us", true },
	[COL_P9999] = { "p99.99 us", true },
	[COL_MAX] = { "max us", true },
	[COL_MISSED] = { "missed", true },
	[COL_LB_T] = { "kernel Tmin..Tmax us", true },
	[COL_LB_LAG] = { "kernel lag p99 us", true },
	[COL_LB_LOST] = { "kernel unseen", true },
	[COL_VERDICT] = { "verdict", false },
};

static void cells(const struct report_row *w, char c[][600])
{
	char a[32], b[32];

	snprintf(c[COL_LABEL], 600, "%s", w->label);
	snprintf(c[COL_PHASE], 600, "%s", w->phase[0] ? w->phase : "-");
	snprintf(c[COL_BOARD], 600, "%s", w->board);
	/* what the kernel is, either way: a table of RT and non-RT rows */
	snprintf(c[COL_KERNEL], 600, "%s %s", w->kernel, w->preempt_rt ? "(RT)" : "(non-RT)");
	dur(w->duration_ns, c[COL_DURATION], 600);
	if (w->half_ns)
		snprintf(c[COL_FREQ], 600, "%.6g", 1e9 / (2.0 * (double)w->half_ns));
	else
		snprintf(c[COL_FREQ], 600, "-");
	snprintf(c[COL_LOADS], 600, "%s", w->loads);
	snprintf(c[COL_PROOF], 600, "%s", w->proof);
	snprintf(c[COL_EDGES], 600, "%" PRIu64, w->edges);
	snprintf(c[COL_TMIN], 600, "%s [%s]", us(w->tmin_ns, w->have_pulses, a, sizeof(a)),
		 us(w->tmin_lo_ns, w->have_pulses, b, sizeof(b)));
	snprintf(c[COL_TMAX], 600, "%s [%s]", us(w->tmax_ns, w->have_pulses, a, sizeof(a)),
		 us(w->tmax_hi_ns, w->have_pulses, b, sizeof(b)));
	us(w->p50_ns, w->have_wake && w->have_center, c[COL_P50], 600);
	us(w->mean_ns, w->have_wake && w->have_center, c[COL_MEAN], 600);
	us(w->p99_ns, w->have_wake, c[COL_P99], 600);
	us(w->p9999_ns, w->have_wake, c[COL_P9999], 600);
	us(w->max_ns, w->have_wake, c[COL_MAX], 600);
	snprintf(c[COL_MISSED], 600, "%" PRIu64, w->missed);
	/* the kernel's view: "-" without loopback (or on a phase's row) */
	if (w->have_lb && w->lb_have_pulses)
		snprintf(c[COL_LB_T], 600, "%s..%s", us(w->lb_tmin_ns, true, a, sizeof(a)),
			 us(w->lb_tmax_ns, true, b, sizeof(b)));
	else
		snprintf(c[COL_LB_T], 600, "-");
	us(w->lb_lag_p99_ns, w->have_lb && w->lb_have_lag, c[COL_LB_LAG], 600);
	if (w->have_lb)
		snprintf(c[COL_LB_LOST], 600, "%" PRIu64 "%s", w->lb_no_event,
			 w->lb_early ? " (early!)" : "");
	else
		snprintf(c[COL_LB_LOST], 600, "-");
	snprintf(c[COL_VERDICT], 600, "%s%s", w->verdict, w->rt_ok ? "" : " (non-RT run)");
}

/* A respond run's table: its answers, never a wave's frequency, period or
 * duty cycle. */
enum {
	RCOL_LABEL, RCOL_PHASE, RCOL_BOARD, RCOL_KERNEL, RCOL_DURATION, RCOL_LOADS, RCOL_PROOF,
	RCOL_ANSWERS, RCOL_P50, RCOL_P99, RCOL_MAX, RCOL_LOST, RCOL_UNANSWERED, RCOL_SCOPE,
	RCOL_TMIN, RCOL_TMAX, RCOL_VERDICT, NRCOLS
};
static const struct {
	const char *head;
	bool right;
} rcols[NRCOLS] = {
	[RCOL_LABEL] = { "label", false },
	[RCOL_PHASE] = { "phase", false },
	[RCOL_BOARD] = { "board", false },
	[RCOL_KERNEL] = { "kernel", false },
	[RCOL_DURATION] = { "duration", true },
	[RCOL_LOADS] = { "loads", false },
	[RCOL_PROOF] = { "proof of load", false },
	[RCOL_ANSWERS] = { "answers", true },
	[RCOL_P50] = { "response p50 us", true },
	[RCOL_P99] = { "p99 us", true },
	[RCOL_MAX] = { "max us", true },
	[RCOL_LOST] = { "lost (warm-up)", true },
	[RCOL_UNANSWERED] = { "unanswered", true },
	[RCOL_SCOPE] = { "scope us", true },
	[RCOL_TMIN] = { "output Tmin us", true },
	[RCOL_TMAX] = { "output Tmax us", true },
	[RCOL_VERDICT] = { "verdict", false },
};

static void respond_cells(const struct report_row *w, char c[][600])
{
	char a[32], b[32];

	snprintf(c[RCOL_LABEL], 600, "%s", w->label);
	snprintf(c[RCOL_PHASE], 600, "%s", w->phase[0] ? w->phase : "-");
	snprintf(c[RCOL_BOARD], 600, "%s", w->board);
	snprintf(c[RCOL_KERNEL], 600, "%s %s", w->kernel, w->preempt_rt ? "(RT)" : "(non-RT)");
	dur(w->duration_ns, c[RCOL_DURATION], 600);
	snprintf(c[RCOL_LOADS], 600, "%s", w->loads);
	snprintf(c[RCOL_PROOF], 600, "%s", w->proof);
	snprintf(c[RCOL_ANSWERS], 600, "%" PRIu64, w->answers);
	/* the response latency: event -> the answer's write end */
	us(w->resp_p50_ns, w->have_resp_center, c[RCOL_P50], 600);
	us(w->resp_p99_ns, w->have_resp_center, c[RCOL_P99], 600);
	us(w->response_max_ns, w->have_response, c[RCOL_MAX], 600);
	if (w->have_lost_warmup)
		snprintf(c[RCOL_LOST], 600, "%" PRIu64 " (%" PRIu64 ")", w->missed, w->lost_warmup);
	else
		snprintf(c[RCOL_LOST], 600, "%" PRIu64, w->missed);
	if (w->have_unanswered)
		snprintf(c[RCOL_UNANSWERED], 600, "%" PRIu64, w->unanswered);
	else
		snprintf(c[RCOL_UNANSWERED], 600, "-");
	/* input edge -> output edge: at least .. at most ("?": no irq_bound) */
	if (w->have_scope_min)
		snprintf(c[RCOL_SCOPE], 600, "%s..%s", us(w->scope_min_ns, true, a, sizeof(a)),
			 w->have_scope_max ? us(w->scope_max_ns, true, b, sizeof(b)) : "?");
	else
		snprintf(c[RCOL_SCOPE], 600, "-");
	us(w->tmin_ns, w->have_pulses, c[RCOL_TMIN], 600);
	us(w->tmax_ns, w->have_pulses, c[RCOL_TMAX], 600);
	snprintf(c[RCOL_VERDICT], 600, "%s%s", w->verdict, w->rt_ok ? "" : " (non-RT run)");
}

/* A table to write: its columns and rows, as cells. The run tables and
 * the two-board table go through the same writers; @map (NULL: every row
 * in order) picks the report's rows a run table shows. */
#define TABLE_MAXCOLS 24
_Static_assert(NCOLS <= TABLE_MAXCOLS && NRCOLS <= TABLE_MAXCOLS &&
	       BOARD_PAIR_NCOLS <= TABLE_MAXCOLS && INST_ROW_NCOLS <= TABLE_MAXCOLS &&
	       INST_ROW_CELL == 600 && BOARD_PAIR_CELL == 600, "table columns");
_Static_assert(BOARD_PAIR_CELL == 600, "one cell size");

struct table {
	size_t ncols, nrows;
	const char *(*head)(size_t col, bool *right);
	void (*cells)(const struct report *r, const size_t *map, size_t row, char c[][600]);
	const size_t *map;
};

static const char *run_head(size_t col, bool *right)
{
	*right = cols[col].right;
	return cols[col].head;
}

static void run_cells(const struct report *r, const size_t *map, size_t row, char c[][600])
{
	cells(&r->rows[map ? map[row] : row], c);
}

static const char *respond_head(size_t col, bool *right)
{
	*right = rcols[col].right;
	return rcols[col].head;
}

static void respond_run_cells(const struct report *r, const size_t *map, size_t row,
			      char c[][600])
{
	respond_cells(&r->rows[map[row]], c);
}

static void pair_cells(const struct report *r, const size_t *map, size_t row, char c[][600])
{
	(void)map;
	board_pair_cells(&r->pairs[row], c);
}

static void inst_cells(const struct report *r, const size_t *map, size_t row, char c[][600])
{
	struct inst_run run;

	(void)map;
	inst_row_cells(&r->insts[row], report_inst_run(r, row, &run) ? &run : NULL, c);
}

static void table_text(FILE *f, const struct report *r, const struct table *t)
{
	size_t width[TABLE_MAXCOLS], i, k;
	char c[TABLE_MAXCOLS][600];
	bool right[TABLE_MAXCOLS];

	for (k = 0; k < t->ncols; k++)
		width[k] = strlen(t->head(k, &right[k]));
	for (i = 0; i < t->nrows; i++) {
		t->cells(r, t->map, i, c);
		for (k = 0; k < t->ncols; k++)
			if (strlen(c[k]) > width[k])
				width[k] = strlen(c[k]);
	}
	for (k = 0; k + 1 < t->ncols; k++)
		fprintf(f, right[k] ? "%*s  " : "%-*s  ", (int)width[k], t->head(k, &right[k]));
	fprintf(f, "%s\n", t->head(t->ncols - 1, &right[k]));
	for (i = 0; i < t->nrows; i++) {
		t->cells(r, t->map, i, c);
		for (k = 0; k + 1 < t->ncols; k++)
			fprintf(f, right[k] ? "%*s  " : "%-*s  ", (int)width[k], c[k]);
		fprintf(f, "%s\n", c[t->ncols - 1]);
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

static void table_markdown(FILE *f, const struct report *r, const struct table *t)
{
	char c[TABLE_MAXCOLS][600];
	bool right;
	size_t i, k;

	fputc('|', f);
	for (k = 0; k < t->ncols; k++)
		md_cell(f, t->head(k, &right));
	fputs("\n|", f);
	for (k = 0; k < t->ncols; k++) {
		t->head(k, &right);
		fputs(right ? " ---: |" : " --- |", f);
	}
	fputc('\n', f);
	for (i = 0; i < t->nrows; i++) {
		t->cells(r, t->map, i, c);
		fputc('|', f);
		for (k = 0; k < t->ncols; k++)
			md_cell(f, c[k]);
		fputc('\n', f);
	}
}

/* The wave's run table (when it has rows, or nothing else to show), the
 * respond runs' table, the two-board table, then the instruments' (each
 * when it has rows), a blank line between. */
static void write_tables(FILE *f, const struct report *r,
			 void (*fn)(FILE *, const struct report *, const struct table *))
{
	size_t *wave = calloc(r->n ? r->n : 1, sizeof(*wave)), *resp = calloc(r->n ? r->n : 1,
									       sizeof(*resp));
	size_t nw = 0, nr = 0, i;
	bool any = false;

	if (!wave || !resp) {	/* out of memory: every row in one table */
		free(wave);
		free(resp);
		wave = resp = NULL;
		nw = r->n;
	}
	for (i = 0; wave && i < r->n; i++) {
		if (report_row_is_respond(&r->rows[i]))
			resp[nr++] = i;
		else
			wave[nw++] = i;
	}
	{
		const struct table runs = { NCOLS, nw, run_head, run_cells, wave };
		const struct table answers = { NRCOLS, nr, respond_head, respond_run_cells, resp };
		const struct table pairs = { BOARD_PAIR_NCOLS, r->npairs, board_pair_head, pair_cells,
					     NULL };
		const struct table insts = { INST_ROW_NCOLS, r->ninsts, inst_row_head, inst_cells,
					     NULL };

		if (nw || (!nr && !r->npairs && !r->ninsts)) {
			fn(f, r, &runs);
			any = true;
		}
		if (nr) {
			if (any)
				fputc('\n', f);
			fn(f, r, &answers);
			any = true;
		}
		if (r->npairs) {
			if (any)
				fputc('\n', f);
			fn(f, r, &pairs);
			any = true;
		}
		if (r->ninsts) {
			if (any)
				fputc('\n', f);
			fn(f, r, &insts);
		}
	}
	free(wave);
	free(resp);
}

void report_write_text(FILE *f, const struct report *r)
{
	size_t i;

	write_tables(f, r, table_text);
	/* why a row failed that its own figures do not say, once per run */
	for (i = 0; i < r->n; i++) {
		if (r->rows[i].run_failure[0] &&
		    (!i || strcmp(r->rows[i].source, r->rows[i - 1].source)))
			fprintf(f, "FAIL: %s (%s): %s\n", r->rows[i].label, r->rows[i].source,
				r->rows[i].run_failure);
	}
}

void report_write_markdown(FILE *f, const struct report *r)
{
	write_tables(f, r, table_markdown);
}

static void opt_int(struct json_writer *w, const char *key, bool have, int64_t v)
{
	if (have)
		json_kv_int(w, key, v);
	else
		json_kv_null(w, key);
}

void report_write_json(FILE *f, const struct report *r)
{
	struct json_writer w;
	size_t i, k;

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
		json_kv_string(&w, "proof_state", w0->proof_state[0] ? w0->proof_state
			       : "idle unproven");
		json_kv_bool(&w, "proof_incomplete", w0->proof_incomplete);
		json_kv_array_begin(&w, "proof_figures");
		for (k = 0; k < w0->nfigs; k++) {
			const struct report_proof_fig *g = &w0->figs[k];

			json_object_begin(&w);
			json_kv_string(&w, "load", g->load);
			json_kv_string(&w, "figure", g->figure);
			if (g->value >= 0)
				json_kv_double(&w, "value", g->value);
			else
				json_kv_null(&w, "value");
			if (g->of[0])
				json_kv_string(&w, "of", g->of);
			else
				json_kv_null(&w, "of");
			json_object_end(&w);
		}
		json_array_end(&w);
		if (w0->duration_ns)
			json_kv_int(&w, "duration_ns", w0->duration_ns);
		else
			json_kv_null(&w, "duration_ns");
		if (w0->half_ns) {
			json_kv_int(&w, "half_period_ns", w0->half_ns);
			json_kv_double(&w, "frequency_hz", 1e9 / (2.0 * (double)w0->half_ns));
		} else {
			json_kv_null(&w, "half_period_ns");
			json_kv_null(&w, "frequency_hz");
		}
		json_kv_uint(&w, "edges", w0->edges);
		json_kv_uint(&w, "missed_periods", w0->missed);
		if (w0->have_pulses) {
			json_kv_int(&w, "tmin_ns", w0->tmin_ns);
			json_kv_int(&w, "tmin_lowest_ns", w0->tmin_lo_ns);
			json_kv_int(&w, "tmax_ns", w0->tmax_ns);
			json_kv_int(&w, "tmax_highest_ns", w0->tmax_hi_ns);
		}
		if (w0->have_wake && w0->have_center) {
			json_kv_int(&w, "wake_p50_ns", w0->p50_ns);
			json_kv_int(&w, "wake_mean_ns", w0->mean_ns);
		}
		if (w0->have_wake) {
			json_kv_int(&w, "wake_p99_ns", w0->p99_ns);
			json_kv_int(&w, "wake_p99_99_ns", w0->p9999_ns);
			json_kv_int(&w, "wake_max_ns", w0->max_ns);
		}
		json_kv_string(&w, "kind", report_row_is_respond(w0) ? "respond" : "wave");
		if (report_row_is_respond(w0)) {	/* what its table shows */
			json_kv_object_begin(&w, "respond");
			json_kv_uint(&w, "answers", w0->answers);
			opt_int(&w, "response_p50_ns", w0->have_resp_center, w0->resp_p50_ns);
			opt_int(&w, "response_p99_ns", w0->have_resp_center, w0->resp_p99_ns);
			opt_int(&w, "response_max_ns", w0->have_response, w0->response_max_ns);
			json_kv_uint(&w, "events_lost", w0->missed);
			opt_int(&w, "events_lost_warmup", w0->have_lost_warmup, (int64_t)w0->lost_warmup);
			opt_int(&w, "events_unanswered", w0->have_unanswered, (int64_t)w0->unanswered);
			opt_int(&w, "scope_min_ns", w0->have_scope_min, w0->scope_min_ns);
			opt_int(&w, "scope_max_ns", w0->have_scope_max, w0->scope_max_ns);
			json_object_end(&w);
		} else {
			json_kv_null(&w, "respond");
		}
		if (w0->have_lb) {
			json_kv_object_begin(&w, "loopback");
			if (w0->lb_have_pulses) {
				json_kv_int(&w, "tmin_ns", w0->lb_tmin_ns);
				json_kv_int(&w, "tmax_ns", w0->lb_tmax_ns);
			} else {
				json_kv_null(&w, "tmin_ns");
				json_kv_null(&w, "tmax_ns");
			}
			if (w0->lb_have_lag)
				json_kv_int(&w, "lag_p99_ns", w0->lb_lag_p99_ns);
			else
				json_kv_null(&w, "lag_p99_ns");
			json_kv_uint(&w, "no_event", w0->lb_no_event);
			json_kv_uint(&w, "before_write_begin", w0->lb_early);
			json_object_end(&w);
		} else {
			json_kv_null(&w, "loopback");
		}
		json_kv_string(&w, "verdict", w0->verdict);
		if (w0->run_failure[0])
			json_kv_string(&w, "run_failure", w0->run_failure);
		else
			json_kv_null(&w, "run_failure");
		json_object_end(&w);
	}
	json_array_end(&w);
	json_kv_array_begin(&w, "pairs");
	for (i = 0; i < r->npairs; i++)
		board_pair_write_json(&w, &r->pairs[i]);
	json_array_end(&w);
	json_kv_array_begin(&w, "instruments");
	for (i = 0; i < r->ninsts; i++) {
		struct inst_run run;

		inst_row_write_json(&w, &r->insts[i], report_inst_run(r, i, &run) ? &run : NULL);
	}
	json_array_end(&w);
	json_object_end(&w);
	json_finish(&w);
}

/*
 * SVG. The width axis is made from what matters: every row's nominal
 * widths, its limits and its bulk (p0.5 to p99.5 of its histogram), never
 * below 0; logarithmic when those span a decade or more (rows of 100 us and
 * 5 ms waves), linear otherwise, with a fifth of the span either side for
 * what lies just beyond the limits (analyze's 1.4 x the half span). What lies further (a 2 s stall beside 500 us
 * pulses, a glitch of 15 us) is off scale: counted, and its Tmin or Tmax
 * marked at the edge, as analyze's histogram does. A row without a
 * histogram has only its Tmin and Tmax bounds to show: they are its bulk.
 */

/* A row's bulk: from the bin that holds its 0.5th percentile to the one
 * that holds its 99.5th (the pulses off the bins count at their ends);
 * false without a histogram. */
static bool row_bulk(const struct report_row *w, int64_t *lo, int64_t *hi)
{
	uint64_t total = w->hist_shorter + w->hist_longer, acc, r_lo, r_hi;
	bool have_lo;
	size_t k;

	for (k = 0; k < w->nbins; k++)
		total += w->hist[k];
	if (!w->nbins || !total)
		return false;
	r_lo = total / 200 + 1;                 /* nearest rank of p0.5 */
	r_hi = total - total / 200;             /* and of p99.5 */
	acc = w->hist_shorter;
	*lo = w->hist_lo_ns;
	*hi = w->hist_lo_ns + (int64_t)w->nbins * w->hist_bin_ns;
	have_lo = acc >= r_lo;
	for (k = 0; k < w->nbins; k++) {
		acc += w->hist[k];
		if (!have_lo && acc >= r_lo) {
			*lo = w->hist_lo_ns + (int64_t)k * w->hist_bin_ns;
			have_lo = true;
		}
		if (acc >= r_hi) {
			*hi = w->hist_lo_ns + (int64_t)(k + 1) * w->hist_bin_ns;
			break;
		}
	}
	return true;
}

void report_svg_axis(const struct report *r, struct report_axis *ax)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, blo, bhi;
	size_t i, k;

#define TAKE(v) do { if ((v) < lo) lo = (v); if ((v) > hi) hi = (v); } while (0)
	for (i = 0; i < r->n; i++) {
		const struct report_row *w = &r->rows[i];

		for (k = 0; k < 2; k++)
			if (row_nominal(w)[k])
				TAKE(row_nominal(w)[k]);
		if (row_bulk(w, &blo, &bhi)) {
			TAKE(blo);
			TAKE(bhi);
		} else if (w->have_pulses) {
			TAKE(w->tmin_lo_ns);
			TAKE(w->tmax_hi_ns);
		}
		if (w->lim_tmin_ns)
			TAKE(w->lim_tmin_ns);
		if (w->lim_tmax_ns)
			TAKE(w->lim_tmax_ns);
	}
#undef TAKE
	if (lo == INT64_MAX) {       /* nothing at all: around the nominal, or 0..1 us */
		lo = 0;
		hi = 1000;
	}
	if (lo == hi) {             /* one figure: half of it either side */
		lo = lo / 2;
		hi = lo * 3 + 1000;
	}
	ax->log = lo > 0 && hi / lo >= 10;
	if (ax->log) {
		ax->lo = lo - lo / 8;
		ax->hi = hi + hi / 8 < hi ? hi : hi + hi / 8;
	} else {
		int64_t pad = (hi - lo) / 5;

		ax->lo = lo > pad ? lo - pad : 0;
		ax->hi = hi + pad;
	}
}

/* Where @ns lies on the axis, 0..1 (off scale: at the nearer end). */
static double axis_frac(const struct report_axis *ax, int64_t ns)
{
	double f;

	if (ax->log) {
		double v = ns > 0 ? (double)ns : (double)ax->lo;

		f = (log10(v) - log10((double)ax->lo)) /
		    (log10((double)ax->hi) - log10((double)ax->lo));
	} else {
		f = (double)(ns - ax->lo) / (double)(ax->hi - ax->lo);
	}
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

/* Text for SVG: the markup characters escaped, at most @max characters
 * (cut before a UTF-8 character, never inside one, "..." said). */
static void svg_text(FILE *f, const char *s, size_t max)
{
	escape_xml(f, s, max, 0);
}

/* The SVG's width ticks: "nice" steps (1, 2, 5 x 10^k) on a linear axis,
 * 1, 2, 5 of each decade on a log one. Returns how many went into @t. */
static size_t axis_ticks(const struct report_axis *ax, int64_t *t, size_t max)
{
	size_t n = 0;

	if (ax->log) {
		double d;

		for (d = 1; d <= (double)ax->hi && n < max; d *= 10) {
			static const int m[] = { 1, 2, 5 };
			size_t j;

			for (j = 0; j < 3 && n < max; j++) {
				double v = d * m[j];

				if (v >= (double)ax->lo && v <= (double)ax->hi)
					t[n++] = (int64_t)v;
			}
		}
	} else {
		double span = (double)(ax->hi - ax->lo), step = pow(10, floor(log10(span / 8))), v;

		if (span / step > 40)
			step *= 5;
		else if (span / step > 16)
			step *= 2;
		for (v = ceil((double)ax->lo / step) * step; v <= (double)ax->hi && n < max; v += step)
			t[n++] = (int64_t)llround(v);
	}
	return n;
}

/* A tick's label: its width in us. */
static void tick_label(int64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%g", (double)ns / 1e3);
}

/*
 * Of the @n ticks at pixels @x, every @stride-th from the first, with the
 * smallest stride whose labels (12 px text centred on the tick: 7.7 px a
 * character, a DejaVu Sans digit's advance, and 6 px between) never
 * overlap: evenly thinned. The ticks kept move to the front; returns how
 * many.
 */
static size_t ticks_thin(int64_t *t, double *x, size_t n)
{
	size_t stride, k, m;

	for (stride = 1; stride < n; stride++) {
		double right = -INFINITY;
		bool ok = true;

		for (k = 0; k < n && ok; k += stride) {
			char lab[32];
			double w;

			tick_label(t[k], lab, sizeof(lab));
			w = 7.7 * (double)strlen(lab);
			ok = x[k] - w / 2 >= right + 6;
			right = x[k] + w / 2;
		}
		if (ok)
			break;
	}
	for (k = m = 0; k < n; k += stride, m++) {
		t[m] = t[k];
		x[m] = x[k];
	}
	return m;
}

#define SVG_LEGEND_MAX 48          /* legend lines; more rows are counted, not listed */
#define SVG_NOMINALS 16            /* nominal widths drawn; rows share a few */

/* Each row's nominal widths as dotted lines from @top to @bottom, every
 * value once: "nominal 500" for both polarities (a square wave), "nominal +
 * 300" and "nominal - 700" for a duty wave; labels above the plot where
 * they fit, never over each other (the line's title says it either way). */
static void svg_nominals(FILE *f, const struct report *r, const struct report_axis *ax, double x0,
			 double x1, int top, int bottom)
{
	static const char *const cls[] = { "", "nominal nominal-pos", "nominal nominal-neg",
					   "nominal nominal-pos nominal-neg" };
	static const char *const name[] = { "", "nominal + ", "nominal - ", "nominal " };
	struct {
		int64_t ns;
		unsigned pols;      /* bit 0: positive pulses, bit 1: negative */
	} m[SVG_NOMINALS];
	double lab_x0[2 * SVG_NOMINALS], lab_x1[2 * SVG_NOMINALS];
	int lab_row[2 * SVG_NOMINALS];
	size_t n = 0, nlab = 0, i, k;

	for (i = 0; i < r->n; i++) {
		for (k = 0; k < 2; k++) {
			int64_t v = row_nominal(&r->rows[i])[k];
			size_t j;

			if (!v)
				continue;
			for (j = 0; j < n && m[j].ns != v; j++)
				;
			if (j == n && n == SVG_NOMINALS)
				continue;
			if (j == n) {
				m[n].ns = v;
				m[n++].pols = 0;
			}
			m[j].pols |= 1u << k;
		}
	}
	for (i = 0; i < n; i++) {
		double x = x0 + axis_frac(ax, m[i].ns) * (x1 - x0), w;
		char lab[64];
		int row;

		snprintf(lab, sizeof(lab), "%s%g", name[m[i].pols], (double)m[i].ns / 1e3);
		fprintf(f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			   "stroke=\"#888\" stroke-dasharray=\"2,3\"><title>%s us</title></line>\n",
			cls[m[i].pols], x, top, x, bottom, lab);
		/* 10 px text: about 6 px a character */
		w = 6.0 * (double)strlen(lab);
		for (row = 0; row < 2; row++) {
			for (k = 0; k < nlab; k++)
				if (lab_row[k] == row && !(x + w / 2 + 4 <= lab_x0[k] ||
							   x - w / 2 - 4 >= lab_x1[k]))
					break;
			if (k == nlab)
				break;
		}
		if (row == 2)
			continue;
		lab_x0[nlab] = x - w / 2;
		lab_x1[nlab] = x + w / 2;
		lab_row[nlab++] = row;
		fprintf(f, "<text class=\"nominal-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
			   "fill=\"#666\" font-size=\"10\">%s</text>\n", x, top - 4 - 11 * row, lab);
	}
}

/* The figures a row's proof was judged by, for the SVG's legend under
 * its verdict: "proof: coremark own 27% of CPU 0, lo 12 pkt/s", "" without. */
static void figs_text(const struct report_row *w, char *buf, size_t len)
{
	char num[32];
	size_t k;

	buf[0] = '\0';
	for (k = 0; k < w->nfigs; k++) {
		const struct report_proof_fig *g = &w->figs[k];
		const char *sep = k ? ", " : "proof: ";

		if (!strcmp(g->figure, "own_busy_pct"))
			msgbuf_add(buf, len, "%s%s own %s of CPU %s", sep, g->load,
				   figure(g->value, "%", num, sizeof(num)), g->of);
		else if (!strcmp(g->figure, "busy_pct"))
			msgbuf_add(buf, len, "%s%sCPU %s %s", sep,
				   strcmp(g->load, "no-load") ? "" : !strcmp(w->proof_state, "not idle")
				   ? "NOT IDLE: " : "idle: ", g->of, figure(g->value, "%", num, sizeof(num)));
		else if (!strcmp(g->figure, "packets_per_s"))
			msgbuf_add(buf, len, "%s%s %s", sep, g->of,
				   figure(g->value, " pkt/s", num, sizeof(num)));
		else
			msgbuf_add(buf, len, "%s%s %.0f valid scores", sep, g->load, g->value);
	}
}

/* The legend's second lines: the rows it lists whose proof has figures. */
static size_t legend_proof_lines(const struct report *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->n && i < SVG_LEGEND_MAX; i++)
		n += r->rows[i].nfigs > 0;
	return n;
}

/* The pulses no curve shows, beyond either end of the axis (bins off it,
 * and what the documents counted off their bins), under the axis' ends:
 * "< N shorter, off scale", "N longer, off scale >" (class "off-scale"). */
static void svg_off_scale(FILE *f, const struct report *r, const struct report_axis *ax,
			  double x0, double x1, int y)
{
	uint64_t shorter = 0, longer = 0;
	size_t i, k;

	for (i = 0; i < r->n; i++) {
		const struct report_row *w = &r->rows[i];

		shorter += w->hist_shorter;
		longer += w->hist_longer;
		for (k = 0; k < w->nbins; k++) {
			int64_t b0 = w->hist_lo_ns + (int64_t)k * w->hist_bin_ns;

			if (b0 < ax->lo)
				shorter += w->hist[k];
			else if (b0 + w->hist_bin_ns > ax->hi)
				longer += w->hist[k];
		}
	}
	if (shorter)
		fprintf(f, "<text class=\"off-scale\" x=\"%.1f\" y=\"%d\" text-anchor=\"start\" "
			   "fill=\"#c00\" font-size=\"11\">&lt; %" PRIu64 " shorter, off scale</text>\n",
			x0, y, shorter);
	if (longer)
		fprintf(f, "<text class=\"off-scale\" x=\"%.1f\" y=\"%d\" text-anchor=\"end\" "
			   "fill=\"#c00\" font-size=\"11\">%" PRIu64 " longer, off scale &gt;</text>\n",
			x1, y, longer);
}

/* The plot of report_write_svg: its frame in pixels and its two scales,
 * the width axis and the counts' log scale up to 10^maxlog. */
struct svg_frame {
	const struct report_axis *ax;
	int left, right, top, bottom;   /* right: the width axis' end */
	double maxlog;
};

static const char *const svg_colors[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
					  "#9467bd", "#8c564b", "#e377c2", "#17becf" };

/* A row's colour, and where a width and a count lie in the plot. */
static const char *svg_color(size_t row)
{
	return svg_colors[row % (sizeof(svg_colors) / sizeof(svg_colors[0]))];
}

static double svg_x(const struct svg_frame *fr, int64_t ns)
{
	return fr->left + axis_frac(fr->ax, ns) * (fr->right - fr->left);
}

static double svg_y(const struct svg_frame *fr, double count)
{
	return fr->bottom - log10(count + 1) / fr->maxlog * (fr->bottom - fr->top);
}

/* The limits across the plot, each value once (rows of one run share
 * them), each labelled inside the plot. */
static void svg_limits(FILE *f, const struct report *r, const struct svg_frame *fr)
{
	int64_t lims[2 * SVG_LEGEND_MAX];
	size_t i, k, nlim = 0;

	for (i = 0; i < r->n; i++) {
		const struct report_row *w = &r->rows[i];
		int64_t v[2] = { w->lim_tmin_ns, w->lim_tmax_ns };
		size_t j;

		for (j = 0; j < 2; j++) {
			bool seen = false, left;
			double x, lw;
			char lab[64];

			if (!v[j])
				continue;
			for (k = 0; k < nlim; k++)
				seen |= lims[k] == (v[j] * 2 + (int64_t)j);
			if (seen || nlim == sizeof(lims) / sizeof(lims[0]))
				continue;
			lims[nlim++] = v[j] * 2 + (int64_t)j;
			x = svg_x(fr, v[j]);
			fprintf(f, "<line class=\"limit\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
				   "stroke=\"#c00\" stroke-width=\"1.5\" stroke-dasharray=\"6,3\">"
				   "<title>limits.%s %.3f us</title></line>\n", x, fr->top, x,
				fr->bottom, j ? "tmax" : "tmin", (double)v[j] / 1e3);
			/* the label inside the plot, on the side away from the bulk
			 * (Tmin's left of its line, Tmax's right) where it fits */
			snprintf(lab, sizeof(lab), "%s limit %g", j ? "Tmax" : "Tmin",
				 (double)v[j] / 1e3);
			lw = 6.5 * (double)strlen(lab);
			left = j ? x + 4 + lw > fr->right : x - 4 - lw >= fr->left;
			fprintf(f, "<text class=\"limit-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"%s\" "
				   "fill=\"#c00\" font-size=\"11\">%s</text>\n", left ? x - 4 : x + 4,
				fr->top + 14 + (int)((nlim - 1) % 4) * 13, left ? "end" : "start", lab);
		}
	}
}

/* Each row's step line over the bins on the axis, and its Tmin and Tmax
 * marked under it (an arrow at the edge when off scale). */
static void svg_curves(FILE *f, const struct report *r, const struct svg_frame *fr)
{
	const struct report_axis *ax = fr->ax;
	const int L = fr->left, B = fr->bottom;
	size_t i, k;

	for (i = 0; i < r->n; i++) {
		const struct report_row *w = &r->rows[i];
		const char *col = svg_color(i);

		if (w->nbins) {
			fprintf(f, "<polyline class=\"curve\" fill=\"none\" stroke=\"%s\" "
				   "stroke-width=\"1.5\" points=\"", col);
			for (k = 0; k < w->nbins; k++) {
				int64_t x0 = w->hist_lo_ns + (int64_t)k * w->hist_bin_ns;

				if (x0 < ax->lo || x0 + w->hist_bin_ns > ax->hi)
					continue;
				fprintf(f, "%.1f,%.1f %.1f,%.1f ", svg_x(fr, x0),
					svg_y(fr, (double)w->hist[k]), svg_x(fr, x0 + w->hist_bin_ns),
					svg_y(fr, (double)w->hist[k]));
			}
			fprintf(f, "\"/>\n");
		}
		/* Tmin and Tmax: where the scope's extremes lie, histogram or not */
		if (w->have_pulses) {
			fprintf(f, "<line class=\"tmin\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
				   "stroke=\"%s\" stroke-width=\"2\"/>\n", svg_x(fr, w->tmin_ns), B - 10,
				svg_x(fr, w->tmin_ns), B, col);
			fprintf(f, "<line class=\"tmax\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
				   "stroke=\"%s\" stroke-width=\"2\"/>\n", svg_x(fr, w->tmax_ns), B - 10,
				svg_x(fr, w->tmax_ns), B, col);
			/* off scale: marked at the edge, an arrow pointing out */
			if (w->tmin_ns < ax->lo)
				fprintf(f, "<path class=\"off-scale-mark\" d=\"M%d,%d l7,-5 v10 z\" "
					   "fill=\"%s\"><title>Tmin %.3f us, off scale</title></path>\n",
					L - 9, B - 14, col, (double)w->tmin_ns / 1e3);
			if (w->tmax_ns > ax->hi)
				fprintf(f, "<path class=\"off-scale-mark\" d=\"M%d,%d l-7,-5 v10 z\" "
					   "fill=\"%s\"><title>Tmax %.3f us, off scale</title></path>\n",
					fr->right + 9, B - 14, col, (double)w->tmax_ns / 1e3);
		}
	}
}

/* The legend from @ly down, one line per row under the plot, and under a
 * row whose proof has figures a second: what its load's proof was judged
 * by; lines @width pixels wide from @left. */
static void svg_legend(FILE *f, const struct report *r, int left, int width, int ly)
{
	/* legend characters that fit (12 px sans-serif, under 7 px each) */
	const size_t legmax = (size_t)(width - 24) / 7;
	size_t i;

	fprintf(f, "<g class=\"legend\">\n");
	for (i = 0; i < r->n && i < SVG_LEGEND_MAX; i++, ly += 18) {
		const struct report_row *w = &r->rows[i];
		const char *col = svg_color(i);
		char name[600], a[32], b[32], figs[512];

		if (w->have_pulses)
			snprintf(name, sizeof(name), "%s%s%s: %s, Tmin %s us, Tmax %s us%s", w->label,
				 w->phase[0] ? " / " : "", w->phase, w->verdict,
				 us(w->tmin_ns, true, a, sizeof(a)), us(w->tmax_ns, true, b, sizeof(b)),
				 w->nbins ? "" : " (no histogram)");
		else
			snprintf(name, sizeof(name), "%s%s%s: %s, no pulses", w->label,
				 w->phase[0] ? " / " : "", w->phase, w->verdict);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/>\n", left,
			ly - 5, col);
		fprintf(f, "<text x=\"%d\" y=\"%d\">", left + 22, ly);
		svg_text(f, name, legmax);
		figs_text(w, figs, sizeof(figs));
		if (figs[0]) {
			/* 11 px text: under 6.5 px a character */
			fprintf(f, "<tspan class=\"legend-proof\" x=\"%d\" dy=\"16\" font-size=\"11\" "
				   "fill=\"#444\">", left + 34);
			svg_text(f, figs, (size_t)(width - 36) / 6.5);
			fprintf(f, "</tspan>");
			ly += 18;
		}
		fprintf(f, "</text>\n");
	}
	if (r->n > SVG_LEGEND_MAX)
		fprintf(f, "<text x=\"%d\" y=\"%d\">... and %zu more rows (the table lists them)"
			   "</text>\n", left + 22, ly, r->n - SVG_LEGEND_MAX);
	fprintf(f, "</g>\n");
}

/* SVG: one step line per row over the width axis, the limits and each
 * row's nominal widths drawn across the plot, each row's Tmin and Tmax
 * marked under it, and the legend under the plot, inside the picture. */
void report_write_svg(FILE *f, const struct report *r)
{
	const int W = 960, L = 80, R = 40, T = 50, PH = 380;
	const int B = T + PH;              /* the width axis' line */
	size_t nleg = r->n > SVG_LEGEND_MAX ? SVG_LEGEND_MAX + 1 : r->n;
	const int LY = B + 70;             /* the legend's first line */
	/* a row whose proof has figures takes a second line for them */
	const int H = LY + (int)(nleg + legend_proof_lines(r)) * 18 + 16;
	struct report_axis ax;
	struct svg_frame fr = { &ax, L, W - R, T, B, 1 };
	int64_t ticks[64];
	double tick_x[64];
	size_t i, k, nt;

	report_svg_axis(r, &ax);
	for (i = 0; i < r->n; i++) {
		const struct report_row *w = &r->rows[i];

		for (k = 0; k < w->nbins; k++)
			if (w->hist[k] && log10((double)w->hist[k] + 1) > fr.maxlog)
				fr.maxlog = log10((double)w->hist[k] + 1);
	}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H);
	fprintf(f, "<title>sqwave report: pulse-width distributions</title>\n");
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
	fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"15\">Pulse widths of %zu %s "
		   "(count, log scale)</text>\n", L, r->n, r->n == 1 ? "row" : "rows");
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, B,
		W - R, B);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, T, L, B);
	nt = axis_ticks(&ax, ticks, sizeof(ticks) / sizeof(ticks[0]));
	for (k = 0; k < nt; k++)
		tick_x[k] = svg_x(&fr, ticks[k]);
	nt = ticks_thin(ticks, tick_x, nt);
	for (k = 0; k < nt; k++) {
		char lab[32];

		tick_label(ticks[k], lab, sizeof(lab));
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>\n",
			tick_x[k], B, tick_x[k], B + 4);
		fprintf(f, "<text class=\"x-tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			tick_x[k], B + 18, lab);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">pulse width (us%s)</text>\n",
		(L + W - R) / 2, B + 40, ax.log ? ", log scale" : "");
	svg_off_scale(f, r, &ax, L, W - R, B + 40);
	for (k = 0; k <= (size_t)fr.maxlog; k++)
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">1e%zu</text>\n", L - 6,
			svg_y(&fr, pow(10, (double)k) - 1) + 4, k);
	svg_nominals(f, r, &ax, L, W - R, T, B);
	svg_limits(f, r, &fr);
	svg_curves(f, r, &fr);
	svg_legend(f, r, L, W - L - R, LY);
	fprintf(f, "</svg>\n");
}
