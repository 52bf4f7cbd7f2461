/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A comparison as checks of a verdict: each figure with what it was judged
 * against, and the sentence compare's text says, for CI documents. */
#include "compare/comparecheck.h"

#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compare/comparedoc.h"
#include "summary/ciout.h"

static const char *const pol_word[EDGESTATS_NPOL] = { "positive ", "negative ", "" };

/* check names: [polarity][tmin, tmax, coverage], static for the verdict */
static const char *const names[EDGESTATS_NPOL][3] = {
	{ "tmin_pos", "tmax_pos", "coverage_pos" },
	{ "tmin_neg", "tmax_neg", "coverage_neg" },
	{ "tmin_any", "tmax_any", "coverage_any" },
};

static int capture_checks(const struct compare *c, struct verdict_result *v)
{
	const struct compare_coverage *cv = &c->cov;
	struct verdict_check ck = { .name = "edges", .instrument = "capture",
				    .unit = VERDICT_UNIT_COUNT, .has_limit = true };
	char msg[512];

	if (c->aligned) {
		ck.has_observed = true;
		ck.observed = (double)(c->r.disagree + c->r.nmissing + c->r.nextra);
		ck.result = c->verdict == COMPARE_AGREE ? VERDICT_CHECK_PASS : VERDICT_CHECK_FAIL;
		snprintf(msg, sizeof(msg), "the capture %s the log: %zu of its edges paired, %zu "
			 "beyond tolerance, %zu missing in the capture, %zu extra (drift %.3f ppm)",
			 c->verdict == COMPARE_AGREE ? "agrees with" : "disagrees with",
			 c->r.npairs, c->r.disagree, c->r.nmissing, c->r.nextra, c->r.drift_ppm);
	} else {
		ck.result = VERDICT_CHECK_FAIL;
		snprintf(msg, sizeof(msg), "the capture was not placed on the run (%s): nothing "
			 "was cross-checked", compare_verdict_name(c->verdict));
	}
	ck.message = msg;
	if (verdict_result_add_check(v, &ck) < 0)
		return -1;
	/* a figure without a limit is stated, skipped, as the run's limits are */
	ck = (struct verdict_check){ .name = "coverage", .instrument = "capture",
				     .unit = VERDICT_UNIT_PERCENT, .has_observed = true,
				     .observed = cv->fraction * 100, .result = VERDICT_CHECK_SKIP };
	if (c->o->min_coverage >= 0) {
		ck.has_limit = true;
		ck.limit_is_min = true;
		ck.limit = c->o->min_coverage * 100;
		ck.result = cv->enough ? VERDICT_CHECK_PASS : VERDICT_CHECK_FAIL;
	}
	snprintf(msg, sizeof(msg), "the instrument saw %" PRIu64 " of %" PRIu64 " edges (%.3f %%): "
		 "%.6f s covered of a %.6f s span, %zu gaps; edges outside are neither "
		 "missing nor agreeing%s", cv->covered_edges, cv->run_edges, cv->fraction * 100,
		 cv->covered_s, cv->span_s, cv->gaps,
		 c->o->min_coverage >= 0 ? "" : " (no --min-coverage: stated, not judged)");
	ck.message = msg;
	return verdict_result_add_check(v, &ck);
}

/* One reading: the figure, the interval it was judged against (the
 * prediction's with a count, else the log's bounds), +- the tolerance. */
static int reading_check(const struct compare *c, int p, int mx, struct verdict_result *v)
{
	const struct edgestats_widths *lw = &c->ser->width[p];
	const struct scopepredict *pr = &c->pred[p][mx];
	int64_t r = c->o->scope[p][mx].ns, tol = c->scope_tol[p][mx];
	bool pred = c->have_pred[p][mx] && pr->status == SCOPEPREDICT_OK;
	struct verdict_check ck = { .name = names[p][mx], .instrument = "scope",
				    .unit = VERDICT_UNIT_NS, .has_observed = true,
				    .observed = (double)r };
	char msg[768];
	int n;

	ck.result = c->scope_ok[p][mx] ? VERDICT_CHECK_PASS : VERDICT_CHECK_FAIL;
	if (lw->h.m.n) {
		ck.has_interval = true;
		ck.lo = (double)((pred ? pr->lo_ns : mx ? lw->tmax.lo_ns : lw->tmin_bound.lo_ns) - tol);
		ck.hi = (double)((pred ? pr->hi_ns : mx ? lw->tmax_bound.hi_ns : lw->tmin.hi_ns) + tol);
	}
	if (!lw->h.m.n)
		n = snprintf(msg, sizeof(msg), "the scope read a %s of %.3f us; the run made no "
			     "%spulse", mx ? "Tmax" : "Tmin", (double)r / 1000, pol_word[p]);
	else if (pred)
		n = snprintf(msg, sizeof(msg), "the scope's %s %.3f us against what a scope that "
			     "measured %" PRIu64 " of the run's %" PRIu64 " %spulses (%.3g %%) shows: "
			     "expected near %.3f us, in [%.3f, %.3f] us at %.4g %% (+- %.3f us); the "
			     "chance it caught the run's %s pulse is %.3g %%", mx ? "Tmax" : "Tmin",
			     (double)r / 1000, pr->n, pr->m, pol_word[p], pr->coverage * 100,
			     pr->expected_ns / 1000, (double)pr->lo_ns / 1000,
			     (double)pr->hi_ns / 1000, pr->level * 100, (double)tol / 1000,
			     mx ? "longest" : "shortest", pr->p_extreme * 100);
	else
		n = snprintf(msg, sizeof(msg), "the scope's %s %.3f us against the log's bounds "
			     "alone (+- %.3f us): the scope's count %s", mx ? "Tmax" : "Tmin",
			     (double)r / 1000, (double)tol / 1000,
			     c->have_pred[p][mx] ? "does not fit the run" : "is unknown");
	if (!c->scope_ok[p][mx] && lw->h.m.n && n > 0 && (size_t)n < sizeof(msg))
		snprintf(msg + n, sizeof(msg) - (size_t)n, ": DISAGREE, %s",
			 comparedoc_scope_disagree_why(c, p, mx));
	ck.message = msg;
	return verdict_result_add_check(v, &ck);
}

/* A polarity's count as what the scope saw of the run. */
static int coverage_check(const struct compare *c, int p, struct verdict_result *v)
{
	const struct scopepredict *pr = c->have_pred[p][1] ? &c->pred[p][1] : &c->pred[p][0];
	bool have = c->have_pred[p][0] || c->have_pred[p][1];
	struct verdict_check ck = { .name = names[p][2], .instrument = "scope",
				    .unit = VERDICT_UNIT_PERCENT };
	char msg[512];

	if (!have) {
		ck.result = VERDICT_CHECK_SKIP;
		snprintf(msg, sizeof(msg), "the scope's count of %spulses is unknown (%s): what it "
			 "saw of the run cannot be said", pol_word[p],
			 c->o->scope_count_why[p] ? c->o->scope_count_why[p] : "no --scope-count");
	} else if (pr->status == SCOPEPREDICT_NO_PULSES) {
		ck.result = VERDICT_CHECK_SKIP;
		snprintf(msg, sizeof(msg), "the run made no %spulse", pol_word[p]);
	} else {
		ck.has_observed = true;
		ck.observed = pr->m ? (double)pr->n * 100 / (double)pr->m : 0;
		ck.has_limit = true;
		ck.limit = 100;
		ck.result = pr->status == SCOPEPREDICT_OK ? VERDICT_CHECK_PASS : VERDICT_CHECK_FAIL;
		snprintf(msg, sizeof(msg), "the scope measured %" PRIu64 " of the run's %" PRIu64
			 " %spulses%s", pr->n, pr->m, pol_word[p],
			 pr->status == SCOPEPREDICT_TOO_MANY ? ": more than the run made (its "
			 "statistics reset before the counted edges began?)"
			 : pr->status == SCOPEPREDICT_NO_COUNT ? ": none" : "");
	}
	ck.message = msg;
	return verdict_result_add_check(v, &ck);
}

int comparecheck_add(const struct compare *c, struct verdict_result *v)
{
	int p, mx;

	if (c->o->capture && capture_checks(c, v) < 0)
		return -1;
	if (!c->ser)
		return 0;
	for (p = 0; p < EDGESTATS_NPOL; p++) {
		bool any = false;

		for (mx = 0; mx < 2; mx++) {
			if (!c->o->scope[p][mx].set)
				continue;
			any = true;
			if (reading_check(c, p, mx, v) < 0)
				return -1;
		}
		if (any && coverage_check(c, p, v) < 0)
			return -1;
	}
	return 0;
}

int comparecheck_write(const struct compare *c, const char *junit, const char *results,
		       char *err, size_t errlen)
{
	struct verdict_result v = { 0 };
	char board[128], line[80], bpart[128], lpart[80], suite[320];
	const char *props[4][2] = {
		{ "log", c->o->run },
		{ "capture", c->o->capture },
		{ "scope", c->o->scope_source },
		{ "verdict", compare_verdict_name(c->verdict) },
	};
	int ret = 0;

	if (comparecheck_add(c, &v) < 0) {
		verdict_result_free(&v);
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return -1;
	}
	if (!edgelog_meta_get(c->meta, "board.name", board, sizeof(board)))
		snprintf(board, sizeof(board), "_");
	if (!edgelog_meta_get(c->meta, "pin.line", line, sizeof(line)) &&
	    !edgelog_meta_get(c->meta, "gpio.line", line, sizeof(line)))
		snprintf(line, sizeof(line), "_");
	snprintf(suite, sizeof(suite), "sqwave.%s.line%s.compare",
		 ciout_name_part(board, bpart, sizeof(bpart)),
		 ciout_name_part(line, lpart, sizeof(lpart)));
	if (junit && ciout_write_junit_suite(junit, suite, props, 4, &v, err, errlen) < 0)
		ret = -1;
	if (!ret && results && ciout_write_results_judged(results, NULL, &v, err, errlen) < 0)
		ret = -1;
	verdict_result_free(&v);
	return ret;
}
