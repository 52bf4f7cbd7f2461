/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The documents of a wave's comparison: the text report and the JSON
 * (docs/compare.md), and the alignment member of every compare document. */
#include "compare/comparedoc.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/stats.h"
#include "log/pin.h"
#include "summary/ciout.h"
#include "summary/kcidb.h"
#include "summary/statsjson.h"

#define LIST_MAX 20u                 /* missing/extra edges listed in text */

static const char *const pol_name[EDGESTATS_NPOL] = { "positive", "negative", "any" };

/* ---- text ---- */

static void us(char *buf, size_t len, double ns)
{
	if (isnan(ns))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", ns / 1000);
}

static void print_width_row(FILE *f, const char *name, double cap_ns, bool cap_valid,
			    double log_ns, bool log_valid, const char *bounds, const char *mark)
{
	char a[32], b[32];

	us(a, sizeof(a), cap_valid ? cap_ns : NAN);
	us(b, sizeof(b), log_valid ? log_ns : NAN);
	fprintf(f, "    %-10s %14s %14s  %-24s %s\n", name, a, b, bounds, mark);
}

static void print_widths(FILE *f, const struct compare *c)
{
	int p, i;

	fprintf(f, "\npulse widths over the window, us: the capture as measured%s; the log\n"
		   "write midpoint to midpoint, [lo, hi] = what the line can have done\n",
		   c->r.inverted ? " (inverted probe: labelled by the log's polarity)" : "");
	fprintf(f, "    %-10s %14s %14s  %-24s\n", "", "capture", "log", "log bounds");
	for (p = 0; p < EDGESTATS_NPOL; p++) {
		const struct stats_hist *ch = &c->cw[p];
		const struct edgestats_widths *lw = &c->er->width[p];
		bool cv = ch->m.n > 0, lv = lw->h.m.n > 0;
		char cnt[64], bnd[64];

		fprintf(f, "  %s pulses\n", pol_name[p]);
		snprintf(cnt, sizeof(cnt), "%14" PRIu64 " %14" PRIu64, ch->m.n, lw->h.m.n);
		fprintf(f, "    %-10s %s\n", "count", cnt);
		snprintf(bnd, sizeof(bnd), "[%.3f, %.3f]", (double)lw->tmin_bound.lo_ns / 1000,
			 (double)lw->tmin.hi_ns / 1000);
		print_width_row(f, "Tmin", (double)ch->m.min, cv, (double)lw->tmin.width_ns, lv,
				lv ? bnd : "", cv && lv ? (c->width_ok[p][0] ? "ok" : "DISAGREE") : "");
		snprintf(bnd, sizeof(bnd), "[%.3f, %.3f]", (double)lw->tmax.lo_ns / 1000,
			 (double)lw->tmax_bound.hi_ns / 1000);
		print_width_row(f, "Tmax", (double)ch->m.max, cv, (double)lw->tmax.width_ns, lv,
				lv ? bnd : "", cv && lv ? (c->width_ok[p][1] ? "ok" : "DISAGREE") : "");
		print_width_row(f, "mean", stats_moments_mean(&ch->m), cv, stats_moments_mean(&lw->h.m),
				lv, "", "");
		print_width_row(f, "stddev", stats_moments_stddev(&ch->m), cv,
				stats_moments_stddev(&lw->h.m), lv, "", "");
		for (i = 0; i < STATS_NPCT; i++)
			print_width_row(f, stats_pct_name[i], (double)stats_hist_percentile(ch, stats_pct[i]),
					cv, (double)stats_hist_percentile(&lw->h, stats_pct[i]), lv, "", "");
	}
}

/* A loopback log: the third view, the kernel's event of each edge, against
 * the capture (docs/compare.md, docs/loopback.md). */
static void print_kernel(FILE *f, const struct compare *c)
{
	const struct stats_hist *h = &c->cap_minus_kernel;
	char a[32], b[32], d[32], e[32];

	if (!c->have_kernel)
		return;
	fprintf(f, "\nkernel     the loopback input's events: capture edge (on the log clock) - the "
		   "kernel's event\n");
	if (!h->m.n) {
		fprintf(f, "           no paired edge has an event\n");
		return;
	}
	us(a, sizeof(a), (double)h->m.min);
	us(b, sizeof(b), (double)stats_hist_percentile(h, 50));
	us(d, sizeof(d), (double)stats_hist_percentile(h, 99));
	us(e, sizeof(e), (double)h->m.max);
	fprintf(f, "           %" PRIu64 " of %zu paired edges seen by the kernel; us: min %s  p50 %s  "
		   "p99 %s  max %s\n", h->m.n, c->r.npairs, a, b, d, e);
	fprintf(f, "           (negative: the scope saw the edge before the kernel stamped it, by the "
		   "input path's delay)\n");
	if (c->r.nmissing)
		fprintf(f, "           of the %zu edges missing in the capture, the kernel saw %zu\n",
			   c->r.nmissing, c->kernel_missing_seen);
}

static void print_capture_report(FILE *f, const struct compare *c)
{
	const struct align_result *r = &c->r;
	const struct capture_info *ci = c->ci;
	char a[32], b[32], d[32], e[32];
	size_t i, k;
	int n;

	fprintf(f, "capture    %s (%s, channel %s: %s)\n", ci->path, ci->format, ci->channel_name,
		   ci->channel_reason);
	fprintf(f, "           %zu edges, resolution %.3f ns, span %.9f .. %.9f s\n", c->ncap,
		capture_ps_to_ns(ci->resolution_ps), capture_ps_to_s(ci->start_ps),
		capture_ps_to_s(ci->end_ps));
	for (i = 0; i < ci->n_notes; i++)
		fprintf(f, "           note: %s\n", ci->notes[i]);
	if (!c->aligned) {
		const char *why = "";

		switch (c->w.status) {
		case ALIGN_AMBIGUOUS:
			fprintf(f, "alignment  AMBIGUOUS: the capture's pulse widths fit %" PRIu64
				   " places in the run\n", c->w.candidates);
			why = "the wave is too regular (pulse widths equal within the tolerance) to tell\n"
			      "           where the capture belongs; say where it starts with --first-seq SEQ";
			break;
		case ALIGN_NO_OVERLAP:
			fprintf(f, "alignment  NO OVERLAP: the capture matches no part of the run\n");
			why = c->o->first_seq >= 0 ? "--first-seq names an edge the run does not have"
				: "no block of its pulse widths matches the log's anywhere: is this a\n"
				  "           capture of this run, of this line (--channel)?";
			break;
		case ALIGN_TOO_FEW:
			fprintf(f, "alignment  impossible: the capture has %zu edges (at least 3 needed)\n", c->ncap);
			break;
		case ALIGN_FOUND:
			break;
		}
		if (*why)
			fprintf(f, "           %s\n", why);
		return;
	}
	fprintf(f, "alignment  capture edges 0..%zu are run edges seq %" PRIu64 "..%" PRIu64 "\n",
		   c->ncap - 1, compare_first_paired_seq(c), compare_last_paired_seq(c));
	fprintf(f, "           window: seq %" PRIu64 "..%" PRIu64
		" (%zu run edges inside the capture's span)\n", r->first_seq, r->last_seq, r->covered);
	fprintf(f, "           capture t = %.3f ns + (1 %+.3f ppm) x (log t - %" PRId64 " ns)\n",
		   r->offset_ns, r->drift_ppm, r->ref_ns);
	fprintf(f, "           drift %+.3f ppm (capture clock %s than the board's); fit rms %.1f ns,\n"
		   "           %zu edges in the fit, %zu left out; %u of %u search blocks agreed%s\n",
		   r->drift_ppm, r->drift_ppm >= 0 ? "faster" : "slower", r->fit_rms_ns, r->inliers,
		   r->outliers, c->w.blocks_matched, c->w.blocks,
		   c->o->first_seq >= 0 ? " (--first-seq)" : "");
	if (r->inverted)
		fprintf(f, "           polarity: the capture is inverted against the log's levels\n");
	fprintf(f, "edges      %zu paired, %zu in the log but not in the capture, %zu in the capture "
		   "but not in the log\n", r->npairs, r->nmissing, r->nextra);
	if (r->in_gap || r->write_failed)
		fprintf(f, "           not checked: %zu in capture data gaps, %zu failed writes\n",
			   r->in_gap, r->write_failed);
	fprintf(f, "coverage   the instrument saw %" PRIu64 " of %" PRIu64 " edges (%.3f %%): "
		   "%.6f s covered of a %.6f s span, %zu gap%s;\n"
		   "           run edges outside covered time are counted neither as missing nor as "
		   "agreeing\n", c->cov.covered_edges, c->cov.run_edges, 100.0 * c->cov.fraction,
		   c->cov.covered_s, c->cov.span_s, c->cov.gaps, c->cov.gaps == 1 ? "" : "s");
	if (c->o->min_coverage >= 0)
		fprintf(f, "           %s: --min-coverage asks for %.3f %%\n",
			c->cov.enough ? "enough" : "NOT ENOUGH (exit 1 whatever the edges say)",
			100.0 * c->o->min_coverage);

	us(a, sizeof(a), (double)c->res_m.min);
	us(b, sizeof(b), (double)c->res_m.max);
	us(d, sizeof(d), stats_moments_mean(&c->res_m));
	us(e, sizeof(e), stats_moments_stddev(&c->res_m));
	fprintf(f, "\nresidual   capture edge - logged write window, on the log clock (0 = inside)\n");
	fprintf(f, "           %zu of %zu inside the window, %zu beyond the tolerance of %.1f ns\n"
		   "           (resolution or --tolerance %.1f ns + 4 x fit error %.1f ns)\n",
		   c->inside, r->npairs, r->disagree, r->tolerance_ns,
		   r->tolerance_ns - 4 * r->fit_se_ns, r->fit_se_ns);
	fprintf(f, "           us: min %s  max %s  mean %s  stddev %s\n", a, b, d, e);
	fprintf(f, "           |residual| us:");
	for (n = 0; n < STATS_NPCT; n++) {
		us(a, sizeof(a), (double)stats_hist_percentile(&c->res_abs, stats_pct[n]));
		fprintf(f, " %s %s", stats_pct_name[n], a);
	}
	fprintf(f, "\n");
	if (c->frac_m.n)
		fprintf(f, "           the line changes on average %.0f %% into the write window "
			   "(min %.0f %%, max %.0f %%)\n", stats_moments_mean(&c->frac_m) / 10,
			   (double)c->frac_m.min / 10, (double)c->frac_m.max / 10);

	print_widths(f, c);
	print_kernel(f, c);

	if (c->nworst) {
		fprintf(f, "\nworst disagreements (capture time in the capture's time base)\n");
		fprintf(f, "    %12s %5s %18s %14s %14s\n", "seq", "level", "capture t (s)",
			   "residual us", "window us");
		for (i = 0; i < c->nworst; i++) {
			const struct compare_worst *w = &c->worst[i];

			fprintf(f, "    %12" PRIu64 " %5u %18.9f %14.3f %14.3f\n", w->seq, w->level,
				   capture_ps_to_s(w->cap_t_ps), w->residual_ns / 1000,
				   (double)w->window_ns / 1000);
		}
	}
	if (r->nmissing) {
		uint64_t seq;
		uint8_t lvl;
		double t;

		fprintf(f, "\nin the log, not in the capture (%zu):", r->nmissing);
		for (i = 0, k = compare_missing_next(c, 0, &seq, &lvl, &t); k != SIZE_MAX && i < LIST_MAX;
		     i++, k = compare_missing_next(c, k + 1, &seq, &lvl, &t))
			fprintf(f, "%s seq %" PRIu64 " (level %u, capture t %.9f s)", i ? "," : "", seq, lvl, t);
		fprintf(f, "%s\n", r->nmissing > LIST_MAX ? ", ..." : "");
	}
	if (r->nextra) {
		int64_t t;
		uint8_t lvl;

		fprintf(f, "\nin the capture, not in the log (%zu):", r->nextra);
		for (i = 0, k = compare_extra_next(c, 0, &t, &lvl); k != SIZE_MAX && i < LIST_MAX;
		     i++, k = compare_extra_next(c, k + 1, &t, &lvl))
			fprintf(f, "%s %s at %.9f s", i ? "," : "", lvl ? "rise" : "fall", capture_ps_to_s(t));
		fprintf(f, "%s\n", r->nextra > LIST_MAX ? ", ..." : "");
	}
}

/* @v with thousands separators ("3,600,000") into @buf. */
static const char *grouped(uint64_t v, char *buf, size_t len)
{
	char d[32];
	size_t n = (size_t)snprintf(d, sizeof(d), "%" PRIu64, v), i, o = 0;

	for (i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = d[i];
	}
	buf[o] = '\0';
	return buf;
}

/* A reading's prediction: null without a count (or with one the law
 * cannot take, its status said). */
static void json_prediction(struct json_writer *w, const struct compare *c, int p, int mx)
{
	static const char *const status[] = { "ok", "no-pulses", "no-count", "count-above-run" };
	const struct scopepredict *pr = &c->pred[p][mx];

	if (!c->have_pred[p][mx]) {
		json_kv_null(w, "prediction");
		return;
	}
	json_kv_object_begin(w, "prediction");
	json_kv_string(w, "status", status[pr->status]);
	json_kv_uint(w, "run_pulses", pr->m);
	if (pr->status == SCOPEPREDICT_OK) {
		json_kv_double(w, "coverage", pr->coverage);
		json_kv_double(w, "level", pr->level);
		json_kv_double(w, "expected_ns", pr->expected_ns);
		json_kv_int(w, "lo_ns", pr->lo_ns);
		json_kv_int(w, "hi_ns", pr->hi_ns);
		json_kv_double(w, "p_caught_extreme", pr->p_extreme);
	}
	json_object_end(w);
}

const char *comparedoc_scope_disagree_why(const struct compare *c, int p, int mx)
{
	const struct edgestats_widths *lw = &c->ser->width[p];
	int64_t r = c->o->scope[p][mx].ns, tol = c->scope_tol[p][mx];
	/* no pulse of the run, whichever the scope sampled, lies outside */
	int64_t blo = lw->tmin_bound.lo_ns, bhi = lw->tmax_bound.hi_ns;
	bool beyond = mx ? r > c->pred[p][mx].hi_ns + tol : r < c->pred[p][mx].lo_ns - tol;

	if (r < blo - tol || r > bhi + tol)
		return "no pulse of the run lies there: the scope measured a pulse the run did not "
		       "make (another signal, a glitch, a threshold off the logic levels?)";
	if (beyond)
		return "more extreme than a sample of this size shows at the interval's level (a "
		       "rare sample, or pulses the log puts elsewhere)";
	return "less extreme than a sample of this size shows at the interval's level: did "
	       "the scope measure fewer pulses than it counted, or not the run's?";
}

/* What the scope's count means for one reading, in words (docs/compare.md,
 * Scope statistics and their coverage). */
static void print_coverage(FILE *f, const struct compare *c, int p, int mx)
{
	const struct scopepredict *pr = &c->pred[p][mx];
	const char *ext = mx ? "Tmax" : "Tmin", *pulse = mx ? "longest" : "shortest";
	const char *kind = p == EDGESTATS_ANY ? "" : p == EDGESTATS_POS ? "positive " : "negative ";
	int64_t r = c->o->scope[p][mx].ns, tol = c->scope_tol[p][mx];
	char n[32], m[32];

	if (!c->have_pred[p][mx]) {
		if (c->o->scope_count_why[p])
			fprintf(f, "           %s %s: the scope's count is unknown (%s): the interval "
				   "cannot be given; judged against the log's bounds alone\n", ext,
				pol_name[p], c->o->scope_count_why[p]);
		return;
	}
	grouped(pr->n, n, sizeof(n));
	grouped(pr->m, m, sizeof(m));
	switch (pr->status) {
	case SCOPEPREDICT_OK:
		fprintf(f, "           %s %s: the scope measured %s of %s %spulses (%.3g %%): the "
			   "%s it shows is the %s of a sample;\n           the chance it caught the "
			   "run's %s pulse is %.3g %%; its %s is expected near %.3f us,\n"
			   "           in [%.3f, %.3f] us (%.4g %%)", ext, pol_name[p], n, m, kind,
			pr->coverage * 100, ext, mx ? "largest" : "smallest", pulse,
			pr->p_extreme * 100, ext, pr->expected_ns / 1000, (double)pr->lo_ns / 1000,
			(double)pr->hi_ns / 1000, pr->level * 100);
		if (c->scope_ok[p][mx])
			fprintf(f, ": the reading %.3f us lies in it\n", (double)r / 1000);
		else
			fprintf(f, ":\n           DISAGREE: the reading %.3f us lies %s it (+- %.3f us): %s\n",
				(double)r / 1000, r < pr->lo_ns - tol ? "below" : "above",
				(double)tol / 1000, comparedoc_scope_disagree_why(c, p, mx));
		break;
	case SCOPEPREDICT_TOO_MANY:
		fprintf(f, "           %s %s: the scope counted %s %spulses, the run made %s: its "
			   "statistics cover more than the run's counted edges (reset before they "
			   "began?); no interval, judged against the log's bounds alone\n", ext,
			pol_name[p], n, kind, m);
		break;
	case SCOPEPREDICT_NO_COUNT:
		fprintf(f, "           %s %s: the scope counted no pulse: its reading is of nothing "
			   "the run made; judged against the log's bounds alone\n", ext, pol_name[p]);
		break;
	case SCOPEPREDICT_NO_PULSES:
		fprintf(f, "           %s %s: the run made no %spulse\n", ext, pol_name[p], kind);
		break;
	}
}

static void print_scope_report(FILE *f, const struct compare *c)
{
	int p, mx;

	fprintf(f, "\nscope      readings against the log's prediction for the whole run (%" PRIu64
		   " edges, warm-up excluded), us\n", c->ser->edges);
	fprintf(f, "    %-16s %12s %24s %12s %10s\n", "", "log", "log bounds", "scope", "+-");
	for (p = 0; p < EDGESTATS_NPOL; p++)
		for (mx = 0; mx < 2; mx++) {
			const struct compare_reading *sr = &c->o->scope[p][mx];
			const struct edgestats_widths *lw = &c->ser->width[p];
			char name[32], bnd[64];

			if (!sr->set)
				continue;
			snprintf(name, sizeof(name), "%s %s", mx ? "Tmax" : "Tmin", pol_name[p]);
			snprintf(bnd, sizeof(bnd), "[%.3f, %.3f]",
				 (double)(mx ? lw->tmax.lo_ns : lw->tmin_bound.lo_ns) / 1000,
				 (double)(mx ? lw->tmax_bound.hi_ns : lw->tmin.hi_ns) / 1000);
			fprintf(f, "    %-16s %12.3f %24s %12.3f %10.3f  %s\n", name,
				   (double)(mx ? lw->tmax.width_ns : lw->tmin.width_ns) / 1000, bnd,
				   (double)sr->ns / 1000, (double)c->scope_tol[p][mx] / 1000,
				   c->scope_ok[p][mx] ? "ok" : "DISAGREE");
		}
	if (c->o->scope_source)
		fprintf(f, "           read from %s\n", c->o->scope_source);
	for (p = 0; p < EDGESTATS_NPOL; p++)
		for (mx = 0; mx < 2; mx++)
			if (c->o->scope[p][mx].set)
				print_coverage(f, c, p, mx);
	fprintf(f, "           (a reading agrees if it lies in the log's bounds, or with the "
		   "scope's count in the\n            interval of a scope that measured that many "
		   "pulses, +- the scope's resolution:\n            %s)\n",
		c->o->scope_abs_ns >= 0 ? "--scope-resolution" :
		"--scope-resolution, by default 0.1 % of the reading");
}

static void print_verdict(FILE *f, const struct compare *c)
{
	const char *word = c->verdict == COMPARE_AGREE ? "AGREE"
			   : compare_verdict_exit(c->verdict) == SQW_EXIT_LIMIT ? "DISAGREE" : "UNDECIDED";

	fprintf(f, "\nverdict    %s", word);
	if (c->aligned && c->verdict != COMPARE_AGREE) {
		const char *sep = " (";

		if (c->r.disagree) {
			fprintf(f, "%s%zu edges beyond tolerance", sep, c->r.disagree);
			sep = ", ";
		}
		if (c->r.nmissing) {
			fprintf(f, "%s%zu missing in the capture", sep, c->r.nmissing);
			sep = ", ";
		}
		if (c->r.nextra) {
			fprintf(f, "%s%zu extra in the capture", sep, c->r.nextra);
			sep = ", ";
		}
		if (strcmp(sep, " ("))
			fprintf(f, ")");
	}
	fprintf(f, "\n");
}

/* ---- JSON (schema in docs/compare.md) ---- */

static void jns(struct json_writer *w, const char *key, double ns)
{
	if (isnan(ns))
		json_kv_null(w, key);
	else
		json_kv_double(w, key, round(ns * 1000) / 1000);
}

static void json_log_widths(struct json_writer *w, const char *key,
			    const struct edgestats_widths *lw)
{
	json_kv_object_begin(w, key);
	json_kv_object_begin(w, "widths");
	statsjson_dist(w, &lw->h);
	json_object_end(w);
	if (lw->h.m.n) {
		json_kv_int(w, "tmin_ns", lw->tmin.width_ns);
		json_kv_int(w, "tmin_lo_ns", lw->tmin_bound.lo_ns);
		json_kv_int(w, "tmin_hi_ns", lw->tmin.hi_ns);
		json_kv_uint(w, "tmin_seq", lw->tmin.at.seq);
		json_kv_int(w, "tmax_ns", lw->tmax.width_ns);
		json_kv_int(w, "tmax_lo_ns", lw->tmax.lo_ns);
		json_kv_int(w, "tmax_hi_ns", lw->tmax_bound.hi_ns);
		json_kv_uint(w, "tmax_seq", lw->tmax.at.seq);
	}
	json_object_end(w);
}

void comparedoc_alignment_of(const struct compare *c, enum comparedoc_form form,
			     struct comparedoc_alignment *a)
{
	const struct align_result *r = &c->r;

	*a = (struct comparedoc_alignment){
		.form = form, .w = &c->w, .aligned = c->aligned, .first_seq_given = c->o->first_seq,
		.verdict = compare_verdict_name(c->verdict),
	};
	if (!c->aligned)
		return;
	a->inverted = r->inverted;
	a->ref_ns = r->ref_ns;
	a->offset_ns = r->offset_ns;
	a->drift_ppm = r->drift_ppm;
	a->fit_rms_ns = r->fit_rms_ns;
	a->fit_se_ns = r->fit_se_ns;
	a->tolerance_ns = r->tolerance_ns;
	a->inliers = r->inliers;
	a->outliers = r->outliers;
	a->paired = r->npairs;
	a->missing = r->nmissing;
	a->extra = r->nextra;
	a->disagree = r->disagree;
	a->first_seq = r->first_seq;
	a->last_seq = r->last_seq;
	a->covered = r->covered;
	a->capture_first_seq = compare_first_paired_seq(c);
	a->capture_last_seq = compare_last_paired_seq(c);
}

/* A board's: its alignment in a word, then its counts, beside its other
 * members (boardsdoc.c). */
static void json_alignment_board(struct json_writer *w, const struct comparedoc_alignment *a)
{
	json_kv_string(w, "alignment", a->aligned ? "aligned" : a->verdict);
	if (!a->aligned)
		return;
	json_kv_uint(w, "paired", a->paired);
	json_kv_uint(w, "missing", a->missing);
	json_kv_uint(w, "extra", a->extra);
	json_kv_uint(w, "beyond_tolerance", a->disagree);
	json_kv_double(w, "drift_ppm", a->drift_ppm);
	json_kv_double(w, "tolerance_ns", a->tolerance_ns);
}

void comparedoc_json_alignment(struct json_writer *w, const struct comparedoc_alignment *a)
{
	if (a->form == COMPAREDOC_BOARD) {
		json_alignment_board(w, a);
		return;
	}
	json_kv_object_begin(w, "alignment");
	json_kv_string(w, "status", align_status_name(a->aligned ? ALIGN_FOUND : a->w->status));
	json_kv_uint(w, "candidates", a->w->candidates);
	json_kv_uint(w, "search_blocks", a->w->blocks);
	json_kv_uint(w, "blocks_agreeing", a->w->blocks_matched);
	if (a->first_seq_given >= 0)
		json_kv_int(w, "first_seq_given", a->first_seq_given);
	if (a->aligned) {
		json_kv_bool(w, "inverted", a->inverted);
		json_kv_int(w, "ref_ns", a->ref_ns);
		jns(w, "offset_ns", a->offset_ns);
		json_kv_double(w, "drift_ppm", round(a->drift_ppm * 1000) / 1000);
		jns(w, "fit_rms_ns", a->fit_rms_ns);
		jns(w, "fit_se_ns", a->fit_se_ns);
		json_kv_uint(w, "fit_edges", a->inliers);
		json_kv_uint(w, "fit_left_out", a->outliers);
		if (a->form == COMPAREDOC_WAVE) {
			json_kv_uint(w, "first_seq", a->first_seq);
			json_kv_uint(w, "last_seq", a->last_seq);
			json_kv_uint(w, "covered", a->covered);
			json_kv_uint(w, "capture_first_edge_seq", a->capture_first_seq);
			json_kv_uint(w, "capture_last_edge_seq", a->capture_last_seq);
		} else {
			jns(w, "tolerance_ns", a->tolerance_ns);
			jns(w, "place_ns", a->place_ns);
			json_kv_uint(w, "paired", a->paired);
			json_kv_uint(w, "beyond_tolerance", a->disagree);
			jns(w, "max_abs_residual_ns", a->max_abs_res_ns);
		}
	}
	json_object_end(w);
}

static void json_edges(struct json_writer *w, const struct compare *c)
{
	const struct align_result *r = &c->r;
	size_t i, k;
	int p;

	json_kv_object_begin(w, "edges");
	json_kv_uint(w, "paired", r->npairs);
	json_kv_uint(w, "in_capture_gaps", r->in_gap);
	json_kv_uint(w, "write_failed", r->write_failed);
	json_kv_array_begin(w, "missing_in_capture");
	{
		uint64_t seq;
		uint8_t lvl;
		double t;

		for (k = compare_missing_next(c, 0, &seq, &lvl, &t); k != SIZE_MAX;
		     k = compare_missing_next(c, k + 1, &seq, &lvl, &t)) {
			json_object_begin(w);
			json_kv_uint(w, "seq", seq);
			json_kv_uint(w, "level", lvl);
			if (c->have_kernel) {	/* the third view: did the kernel see it? */
				int64_t kev;

				if (compare_kernel_at(c, k, &kev))
					json_kv_int(w, "kernel_event_ns", kev);
				else
					json_kv_null(w, "kernel_event_ns");
			}
			json_object_end(w);
		}
	}
	json_array_end(w);
	json_kv_array_begin(w, "extra_in_capture");
	{
		int64_t t;
		uint8_t lvl;

		for (k = compare_extra_next(c, 0, &t, &lvl); k != SIZE_MAX;
		     k = compare_extra_next(c, k + 1, &t, &lvl)) {
			json_object_begin(w);
			json_kv_uint(w, "index", k);
			json_kv_double(w, "t_s", capture_ps_to_s(t));
			json_kv_uint(w, "level", lvl);
			json_object_end(w);
		}
	}
	json_array_end(w);
	json_object_end(w);

	json_kv_object_begin(w, "residual");
	jns(w, "tolerance_ns", r->tolerance_ns);
	json_kv_uint(w, "inside_window", c->inside);
	json_kv_uint(w, "beyond_tolerance", r->disagree);
	json_kv_int(w, "min_ns", c->res_m.n ? c->res_m.min : 0);
	json_kv_int(w, "max_ns", c->res_m.n ? c->res_m.max : 0);
	jns(w, "mean_ns", stats_moments_mean(&c->res_m));
	jns(w, "stddev_ns", stats_moments_stddev(&c->res_m));
	json_kv_object_begin(w, "abs");
	statsjson_dist(w, &c->res_abs);
	json_object_end(w);
	if (c->frac_m.n)
		json_kv_double(w, "mean_position_in_window", stats_moments_mean(&c->frac_m) / 1000);
	json_kv_array_begin(w, "worst");
	for (i = 0; i < c->nworst; i++) {
		const struct compare_worst *x = &c->worst[i];

		json_object_begin(w);
		json_kv_uint(w, "seq", x->seq);
		json_kv_uint(w, "level", x->level);
		json_kv_double(w, "capture_t_s", capture_ps_to_s(x->cap_t_ps));
		jns(w, "residual_ns", x->residual_ns);
		json_kv_int(w, "window_ns", x->window_ns);
		if (c->have_kernel) {
			if (x->has_kernel)
				jns(w, "capture_minus_kernel_ns", x->cap_minus_kernel_ns);
			else
				json_kv_null(w, "capture_minus_kernel_ns");
		}
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);

	/* the third view (a loopback log): capture minus the kernel's event */
	if (c->have_kernel) {
		json_kv_object_begin(w, "kernel");
		json_kv_uint(w, "paired_with_event", c->cap_minus_kernel.m.n);
		json_kv_uint(w, "missing_in_capture_seen", c->kernel_missing_seen);
		json_kv_object_begin(w, "capture_minus_kernel");
		statsjson_dist(w, &c->cap_minus_kernel);
		json_object_end(w);
		json_object_end(w);
	} else {
		json_kv_null(w, "kernel");
	}

	json_kv_object_begin(w, "widths");
	for (p = 0; p < EDGESTATS_NPOL; p++) {
		json_kv_object_begin(w, pol_name[p]);
		json_kv_object_begin(w, "capture");
		statsjson_dist(w, &c->cw[p]);
		json_object_end(w);
		json_log_widths(w, "log", &c->er->width[p]);
		json_kv_bool(w, "tmin_agrees", c->width_ok[p][0]);
		json_kv_bool(w, "tmax_agrees", c->width_ok[p][1]);
		json_object_end(w);
	}
	json_object_end(w);
}

void comparedoc_json(struct json_writer *w, const void *compare)
{
	const struct compare *c = compare;
	int p, mx;

	json_object_begin(w);
	json_kv_string(w, "schema", COMPARE_SCHEMA);
	json_kv_int(w, "schema_version", COMPARE_SCHEMA_VERSION);
	json_kv_object_begin(w, "run");
	json_kv_string(w, "path", c->o->run);
	json_kv_uint(w, "records", c->records);
	/* what names the run beside its log's name: a report joins on it */
	json_kv_uint(w, "start_realtime_ns", c->meta->start_realtime_ns);
	json_kv_bool(w, "truncated", c->truncated);
	json_kv_uint(w, "half_period_ns", c->meta->half_period_ns);
	json_object_end(w);
	json_key(w, "pin");
	pin_json_write(w, &c->meta->pin);
	if (c->ci) {
		json_kv_object_begin(w, "capture");
		json_kv_string(w, "path", c->ci->path);
		json_kv_string(w, "format", c->ci->format);
		json_kv_string(w, "channel", c->ci->channel_name);
		json_kv_uint(w, "edges", c->ncap);
		json_kv_double(w, "resolution_ns", capture_ps_to_ns(c->ci->resolution_ps));
		json_kv_double(w, "start_s", capture_ps_to_s(c->ci->start_ps));
		json_kv_double(w, "end_s", capture_ps_to_s(c->ci->end_ps));
		json_object_end(w);
		{
			struct comparedoc_alignment a;

			comparedoc_alignment_of(c, COMPAREDOC_WAVE, &a);
			comparedoc_json_alignment(w, &a);
		}
		if (c->aligned)
			json_edges(w, c);
		json_kv_object_begin(w, "coverage");
		json_kv_uint(w, "run_edges", c->cov.run_edges);
		json_kv_uint(w, "covered_edges", c->cov.covered_edges);
		json_kv_double(w, "fraction", c->cov.fraction);
		json_kv_uint(w, "gaps", c->cov.gaps);
		json_kv_double(w, "span_s", c->cov.span_s);
		json_kv_double(w, "covered_s", c->cov.covered_s);
		if (c->o->min_coverage >= 0)
			json_kv_double(w, "min_fraction", c->o->min_coverage);
		else
			json_kv_null(w, "min_fraction");
		json_kv_bool(w, "enough", c->cov.enough);
		json_object_end(w);
	} else {
		json_kv_null(w, "capture");
	}
	if (c->ser) {
		json_kv_object_begin(w, "scope");
		if (c->o->scope_abs_ns >= 0)
			json_kv_int(w, "resolution_ns", c->o->scope_abs_ns);
		else
			json_kv_double(w, "resolution_relative", c->o->scope_rel);
		json_kv_array_begin(w, "readings");
		for (p = 0; p < EDGESTATS_NPOL; p++)
			for (mx = 0; mx < 2; mx++) {
				const struct edgestats_widths *lw = &c->ser->width[p];

				if (!c->o->scope[p][mx].set)
					continue;
				json_object_begin(w);
				json_kv_string(w, "what", mx ? "tmax" : "tmin");
				json_kv_string(w, "polarity", pol_name[p]);
				json_kv_int(w, "scope_ns", c->o->scope[p][mx].ns);
				json_kv_int(w, "tolerance_ns", c->scope_tol[p][mx]);
				if (lw->h.m.n) {
					json_kv_int(w, "log_ns", mx ? lw->tmax.width_ns : lw->tmin.width_ns);
					json_kv_int(w, "log_lo_ns", mx ? lw->tmax.lo_ns : lw->tmin_bound.lo_ns);
					json_kv_int(w, "log_hi_ns", mx ? lw->tmax_bound.hi_ns : lw->tmin.hi_ns);
				}
				if (c->o->scope_count[p] >= 0)
					json_kv_int(w, "count", c->o->scope_count[p]);
				else
					json_kv_null(w, "count");
				json_prediction(w, c, p, mx);
				json_kv_bool(w, "agrees", c->scope_ok[p][mx]);
				json_object_end(w);
			}
		json_array_end(w);
		json_object_end(w);
	}
	json_kv_string(w, "verdict", compare_verdict_name(c->verdict));
	json_kv_int(w, "exit_code", compare_exit(c));
	json_object_end(w);
}

void comparedoc_print_text(FILE *f, const struct compare *c)
{
	fprintf(f, "==== sqwave compare ====\n");
	fprintf(f, "run        %s: %" PRIu64 " edges, %s%s\n", c->o->run, c->records,
		pin_describe(&c->meta->pin, (char[160]){ 0 }, 160),
		c->truncated ? " (log truncated)" : "");
	if (c->o->capture)
		print_capture_report(f, c);
	if (c->ser)
		print_scope_report(f, c);
	print_verdict(f, c);
}

/* ---- KCIDB ---- */

/* misc of the compare test: the verdict's word and the alignment. */
static void kcidb_misc(struct json_writer *w, const void *ctx)
{
	const struct compare *c = ctx;
	struct comparedoc_alignment a;
	char buf[256];

	comparedoc_alignment_of(c, COMPAREDOC_WAVE, &a);
	json_kv_string(w, "board", edgelog_meta_get(c->meta, "board.name", buf, sizeof(buf)));
	json_kv_string(w, "check", "compare");
	json_kv_string(w, "verdict", compare_verdict_name(c->verdict));
	json_kv_string(w, "capture_format", c->ci ? c->ci->format : NULL);
	json_kv_bool(w, "aligned", a.aligned);
	if (a.aligned) {
		json_kv_double(w, "offset_ns", a.offset_ns);
		json_kv_double(w, "drift_ppm", a.drift_ppm);
		json_kv_uint(w, "paired", a.paired);
		json_kv_uint(w, "missing", a.missing);
		json_kv_uint(w, "extra", a.extra);
		json_kv_uint(w, "disagree", a.disagree);
	}
}

int comparedoc_kcidb(const struct compare *c, const char *path, const char *origin,
		     const char *base_url, char *err, size_t errlen)
{
	struct kcidb_writer *k = kcidb_writer_open(path, origin, base_url, err, errlen);
	char host[128], kernel[256], line[80], name[64], key[192], tpath[128];
	const char *files[2] = { c->o->run, c->o->capture };
	struct kcidb_test t = { .duration_s = NAN, .unit = VERDICT_UNIT_NS, .misc = kcidb_misc,
				.misc_ctx = c };

	if (!k)
		return -1;
	if (!edgelog_meta_get(c->meta, EDGELOG_META_HOST, host, sizeof(host)) || !host[0])
		snprintf(host, sizeof(host), "localhost");
	/* host.kernel is "RELEASE VERSION": the release names the build */
	if (edgelog_meta_get(c->meta, EDGELOG_META_KERNEL, kernel, sizeof(kernel)))
		kernel[strcspn(kernel, " ")] = '\0';
	else
		kernel[0] = '\0';
	if (!edgelog_meta_get(c->meta, "pin.line", line, sizeof(line)) &&
	    !edgelog_meta_get(c->meta, "gpio.line", line, sizeof(line)))
		snprintf(line, sizeof(line), "_");
	snprintf(key, sizeof(key), "%s:%" PRIu64, host, c->meta->start_realtime_ns);
	snprintf(tpath, sizeof(tpath), "sqwave.line%s.compare",
		 ciout_name_part(line, name, sizeof(name)));
	t.path = tpath;
	t.run_key = key;
	t.kernel_release = kernel;
	t.status = c->verdict == COMPARE_AGREE ? "PASS" : c->verdict == COMPARE_DISAGREE ? "FAIL"
		   : "ERROR";
	t.start_ns = c->meta->start_realtime_ns;
	if (c->res_m.n) {
		t.has_number = true;
		t.number = fmax(fabs((double)c->res_m.min), fabs((double)c->res_m.max));
	}
	t.files = files;
	t.nfiles = 2;
	kcidb_writer_add_test(k, &t);
	return kcidb_writer_close(k, err, errlen);
}
