/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict of a run against limits.* and its loads' proofs: every check
 * with its figures, the violations' sentences, the verdict's word, kept in
 * one struct verdict_result that summary/ and check/ render. Prints nothing. */
#include "stats/verdict.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "log/edgelog.h"
#include "loads/proof.h"

/* Seconds since the first edge, for "where did it happen". */
static double rel_s(const struct edgestats_result *r, uint64_t t)
{
	return (double)(int64_t)(t - r->first_intended_ns) / 1e9;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

struct why_buf {
	char *buf;
	size_t len, pos;
	unsigned count;
};

/* Where the checks go: each one to @on_check, the verdict's failures'
 * sentences to @on_violation; @failed counts those, @load_failed those of
 * a phase (in the verdict, only its loads' proofs are a phase's), and
 * @gap_failed of those the gaps in a proof ("proof incomplete"). */
struct check_sink {
	verdict_check_fn on_check;
	verdict_violation_fn on_violation;
	void *ctx;
	unsigned failed, load_failed, gap_failed;
};

static void emit(struct check_sink *k, struct verdict_check *ck)
{
	if (ck->result == VERDICT_CHECK_FAIL && ck->in_verdict) {
		k->failed++;
		if (ck->phase) {
			k->load_failed++;
			k->gap_failed += strstr(ck->message, ": proof incomplete: ") != NULL;
		}
		if (k->on_violation)
			k->on_violation(k->ctx, ck->message);
	}
	if (k->on_check)
		k->on_check(k->ctx, ck);
}

static void check_pass(struct check_sink *k, struct verdict_check *ck)
{
	ck->result = VERDICT_CHECK_PASS;
	ck->message = NULL;
	emit(k, ck);
}

/* A failure (or, with @res VERDICT_CHECK_SKIP, why the check was not made). */
static void check_end(struct check_sink *k, struct verdict_check *ck, enum verdict_check_result res,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void check_end(struct check_sink *k, struct verdict_check *ck, enum verdict_check_result res,
		      const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ck->result = res;
	ck->message = msg;
	emit(k, ck);
	ck->message = NULL;	/* msg ends here */
}

static void check_at(struct verdict_check *ck, const struct edgestats_result *r,
		     const struct edgestats_where *at)
{
	ck->has_edge = true;
	ck->seq = at->seq;
	ck->intended_ns = at->intended_ns;
	ck->t_s = rel_s(r, at->intended_ns);
}

/* The run's own health: anything here makes its figures incomplete. */
static void check_integrity(const struct edgestats_result *r, const struct run_info *ri,
			    struct check_sink *k)
{
	uint64_t dropped = max_u64(ri->dropped, r->seq_gaps);
	uint64_t write_errors = max_u64(ri->write_errors, r->write_errors);
	struct verdict_check ck;

	ck = (struct verdict_check){ .name = "edges", .in_verdict = true,
				     .unit = VERDICT_UNIT_COUNT, .has_observed = true,
				     .observed = (double)r->edges, .has_limit = true, .limit = 1,
				     .limit_is_min = true };
	if (r->edges == 0)
		check_end(k, &ck, VERDICT_CHECK_FAIL,
			  "no edges were counted: the run ended before the warm-up did");
	else
		check_pass(k, &ck);
	ck = (struct verdict_check){ .name = "dropped", .in_verdict = true,
				     .unit = VERDICT_UNIT_COUNT, .has_observed = true,
				     .observed = (double)dropped, .has_limit = true };
	if (dropped)
		check_end(k, &ck, VERDICT_CHECK_FAIL, "%" PRIu64 " edge records were dropped (ring "
			  "overflow): the log and the statistics are incomplete", dropped);
	else
		check_pass(k, &ck);
	ck = (struct verdict_check){ .name = "write_errors", .in_verdict = true,
				     .unit = VERDICT_UNIT_COUNT, .has_observed = true,
				     .observed = (double)write_errors, .has_limit = true };
	if (write_errors)
		check_end(k, &ck, VERDICT_CHECK_FAIL, "%" PRIu64 " line writes failed", write_errors);
	else
		check_pass(k, &ck);
	ck = (struct verdict_check){ .name = "log_complete", .in_verdict = true };
	if (ri->log_error)
		check_end(k, &ck, VERDICT_CHECK_FAIL,
			  "the edge log could not be written completely (I/O error)");
	else
		check_pass(k, &ck);
	ck = (struct verdict_check){ .name = "no_error", .in_verdict = true };
	if (ri->stop_reason == EDGELOG_STOP_ERROR)
		check_end(k, &ck, VERDICT_CHECK_FAIL, "the run stopped on an error");
	else
		check_pass(k, &ck);
	/* --stop-on-break: the run is cut short where it broke */
	ck = (struct verdict_check){ .name = "no_break", .in_verdict = true };
	if (ri->stop_reason == EDGELOG_STOP_BREAK)
		check_end(k, &ck, VERDICT_CHECK_FAIL, "the run stopped at a trace break "
			  "(--stop-on-break): %s", ri->break_text);
	else
		check_pass(k, &ck);
	/* grid.clock realtime/tai: a step moved the shared grid off the wave */
	if (ri->grid) {
		const struct run_grid *g = ri->grid;

		ck = (struct verdict_check){ .name = "clock_steps", .in_verdict = true,
					     .key = "grid.clock", .unit = VERDICT_UNIT_COUNT,
					     .has_observed = true, .observed = (double)g->steps,
					     .has_limit = true };
		if (g->steps)
			check_end(k, &ck, VERDICT_CHECK_FAIL, "grid.clock %s was stepped %u time%s "
				  "during the run (largest %+.6f s): the edges after it are off "
				  "the shared grid", g->clock, g->steps, g->steps == 1 ? "" : "s",
				  (double)g->step_largest_ns / 1e9);
		else
			check_pass(k, &ck);
	}
}

/*
 * The limits.* keys against @r: the whole run's figures (@phase NULL), or a
 * phase's own (not part of the verdict: a phase's pulses, wake-ups and
 * missed periods are a subset of the run's, so it can only fail where the
 * run fails too; a phase without pulses is skipped, not failed).
 */
/* respond: the latest answer (write end - event) against limits.response_max. */
static void check_response(const struct config *c, const struct edgestats_result *r,
			   const char *phase, struct check_sink *k)
{
	int64_t max = config_int(c, CFG_LIMITS_RESPONSE_MAX);
	struct verdict_check ck = { .name = "response_max", .in_verdict = !phase,
				    .key = "limits.response_max", .phase = phase,
				    .unit = VERDICT_UNIT_NS, .has_limit = max > 0,
				    .limit = (double)max };

	if (r->resp_end.m.n) {
		ck.has_observed = true;
		ck.observed = (double)r->resp_end.m.max;
		check_at(&ck, r, &r->resp_worst);
	}
	if (max <= 0)
		check_end(k, &ck, VERDICT_CHECK_SKIP, "limits.response_max is not set");
	else if (!r->resp_end.m.n && phase)
		check_end(k, &ck, VERDICT_CHECK_SKIP, "no answer in this phase");
	else if (!r->resp_end.m.n)
		check_end(k, &ck, VERDICT_CHECK_FAIL,
			  "limits.response_max is set but no answer was measured");
	else if (r->resp_end.m.max > max)
		check_end(k, &ck, VERDICT_CHECK_FAIL, "the latest answer ended its write %s us after "
			  "its event at answer #%" PRIu64 " (t+%.6f s), above limits.response_max %s us",
			  UNITS_US(r->resp_end.m.max), r->resp_worst.seq, ck.t_s, UNITS_US(max));
	else
		check_pass(k, &ck);
}

/* How far the pulses of polarity @pol may have strayed from its nominal
 * width, conservatively (the bounds, not the estimates): 0 without pulses
 * of it or without a nominal; *@at the pulse, *@est its estimate's error. */
static int64_t width_error_of(const struct edgestats_result *r, int pol,
			      const struct edgestats_pulse **at, int64_t *est)
{
	const struct edgestats_widths *wd = &r->width[pol];
	int64_t nom = r->nominal_ns[pol], below, above;

	if (nom <= 0 || !wd->h.m.n)
		return 0;
	below = nom - wd->tmin_bound.lo_ns;
	above = wd->tmax_bound.hi_ns - nom;
	if (below >= above) {
		*at = &wd->tmin_bound;
		*est = nom - wd->tmin_bound.width_ns;
		return below;
	}
	*at = &wd->tmax_bound;
	*est = wd->tmax_bound.width_ns - nom;
	return above;
}

/* limits.width_error: every pulse within that of its own level's nominal
 * width (high for positive pulses, low for negative: a duty cycle's
 * polarities each against their own), conservatively. */
static void check_width_error(const struct config *c, const struct edgestats_result *r,
			      const char *phase, struct check_sink *k)
{
	int64_t lim = config_int(c, CFG_LIMITS_WIDTH_ERROR), worst = -1, est = 0;
	const struct edgestats_pulse *at = NULL;
	bool nominal = r->nominal_ns[EDGESTATS_POS] > 0 || r->nominal_ns[EDGESTATS_NEG] > 0;
	bool pulses = false;
	int pol, wpol = EDGESTATS_POS;
	struct verdict_check ck = { .name = "width_error", .in_verdict = !phase,
				    .key = "limits.width_error", .phase = phase,
				    .unit = VERDICT_UNIT_NS, .has_limit = lim > 0,
				    .limit = (double)lim };

	for (pol = EDGESTATS_POS; pol <= EDGESTATS_NEG; pol++) {
		const struct edgestats_pulse *p = NULL;
		int64_t e = 0, d = width_error_of(r, pol, &p, &e);

		if (!p)
			continue;
		pulses = true;
		if (d > worst) {
			worst = d;
			at = p;
			est = e;
			wpol = pol;
		}
	}
	if (pulses) {
		ck.has_observed = ck.has_estimate = true;
		ck.observed = (double)worst;
		ck.estimate = (double)est;
		check_at(&ck, r, &at->at);
	}
	if (lim <= 0)
		check_end(k, &ck, VERDICT_CHECK_SKIP, "limits.width_error is not set");
	else if (!nominal)
		check_end(k, &ck, VERDICT_CHECK_SKIP, "the pin has no nominal width (a respond "
			  "run's answers: the input times them)");
	else if (!pulses && phase)
		check_end(k, &ck, VERDICT_CHECK_SKIP, "no complete pulse in this phase");
	else if (!pulses)
		check_end(k, &ck, VERDICT_CHECK_FAIL,
			  "limits.width_error is set but no complete pulse was measured");
	else if (worst > lim)
		check_end(k, &ck, VERDICT_CHECK_FAIL,
			  "a %s pulse may have been %s us off its nominal %s us (width %s us, "
			  "window [%s, %s] us) at edge #%" PRIu64 " (t+%.6f s): above "
			  "limits.width_error %s us", wpol == EDGESTATS_POS ? "positive" : "negative",
			  UNITS_US(worst), UNITS_US(r->nominal_ns[wpol]), UNITS_US(at->width_ns),
			  UNITS_US(at->lo_ns), UNITS_US(at->hi_ns), at->at.seq, ck.t_s,
			  UNITS_US(lim));
	else
		check_pass(k, &ck);
}

static void check_limits(const struct config *c, const struct edgestats_result *r,
			 const char *phase, struct check_sink *k)
{
	const struct edgestats_widths *any = &r->width[EDGESTATS_ANY];
	const struct edgestats_pulse *lo = &any->tmin_bound, *hi = &any->tmax_bound;
	int64_t tmin = config_int(c, CFG_LIMITS_TMIN);
	int64_t tmax = config_int(c, CFG_LIMITS_TMAX);
	int64_t wake_max = config_int(c, CFG_LIMITS_WAKE_LATENCY_MAX);
	int64_t missed_max = config_int(c, CFG_LIMITS_MISSED_MAX);
	bool pulses = any->h.m.n > 0;
	struct verdict_check ck;

	/* Conservative: the narrowest the line may have been. */
	ck = (struct verdict_check){ .name = "tmin", .in_verdict = !phase, .key = "limits.tmin",
				     .phase = phase, .unit = VERDICT_UNIT_NS, .has_limit = tmin > 0,
				     .limit = (double)tmin, .limit_is_min = true };
	if (pulses) {
		ck.has_observed = ck.has_estimate = true;
		ck.observed = (double)lo->lo_ns;
		ck.estimate = (double)lo->width_ns;
		check_at(&ck, r, &lo->at);
	}
	if (tmin <= 0)
		check_end(k, &ck, VERDICT_CHECK_SKIP, "limits.tmin is not set");
	else if (!pulses && phase)
		check_end(k, &ck, VERDICT_CHECK_SKIP, "no complete pulse in this phase");
	else if (!pulses)
		check_end(k, &ck, VERDICT_CHECK_FAIL,
			  "limits.tmin is set but no complete pulse was measured");
	else if (lo->lo_ns < tmin)
		check_end(k, &ck, VERDICT_CHECK_FAIL,
			  "the shortest pulse may have been %s us (estimate %s us, "
			  "window [%s, %s] us) at edge #%" PRIu64 " (t+%.6f s): "
			  "below limits.tmin %s us",
			  UNITS_US(lo->lo_ns), UNITS_US(lo->width_ns), UNITS_US(lo->lo_ns),
			  UNITS_US(lo->hi_ns), lo->at.seq, ck.t_s, UNITS_US(tmin));
	else
		check_pass(k, &ck);

	ck = (struct verdict_check){ .name = "tmax", .in_verdict = !phase, .key = "limits.tmax",
				     .phase = phase, .unit = VERDICT_UNIT_NS, .has_limit = tmax > 0,
				     .limit = (double)tmax };
	if (pulses) {
		ck.has_observed = ck.has_estimate = true;
		ck.observed = (double)hi->hi_ns;
		ck.estimate = (double)hi->width_ns;
		check_at(&ck, r, &hi->at);
	}
	if (tmax <= 0)
		check_end(k, &ck, VERDICT_CHECK_SKIP, "limits.tmax is not set");
	else if (!pulses && phase)
		check_end(k, &ck, VERDICT_CHECK_SKIP, "no complete pulse in this phase");
	else if (!pulses)
		check_end(k, &ck, VERDICT_CHECK_FAIL,
			  "limits.tmax is set but no complete pulse was measured");
	else if (hi->hi_ns > tmax)
		check_end(k, &ck, VERDICT_CHECK_FAIL,
			  "the longest pulse may have been %s us (estimate %s us, "
			  "window [%s, %s] us) at edge #%" PRIu64 " (t+%.6f s): "
			  "above limits.tmax %s us",
			  UNITS_US(hi->hi_ns), UNITS_US(hi->width_ns), UNITS_US(hi->lo_ns),
			  UNITS_US(hi->hi_ns), hi->at.seq, ck.t_s, UNITS_US(tmax));
	else
		check_pass(k, &ck);

	check_width_error(c, r, phase, k);

	ck = (struct verdict_check){ .name = "wake_latency_max", .in_verdict = !phase,
				     .key = "limits.wake_latency_max", .phase = phase,
				     .unit = VERDICT_UNIT_NS, .has_limit = wake_max > 0,
				     .limit = (double)wake_max };
	if (r->wake.m.n) {
		ck.has_observed = true;
		ck.observed = (double)r->wake.m.max;
		check_at(&ck, r, &r->wake_worst);
	}
	if (wake_max <= 0)
		check_end(k, &ck, VERDICT_CHECK_SKIP, "limits.wake_latency_max is not set");
	else if (!r->wake.m.n)
		check_end(k, &ck, VERDICT_CHECK_SKIP, "no wake-up was measured");
	else if (r->wake.m.max > wake_max)
		check_end(k, &ck, VERDICT_CHECK_FAIL, "the worst wake-up latency %s us at edge #%" PRIu64
			  " (t+%.6f s) exceeds limits.wake_latency_max %s us",
			  UNITS_US(r->wake.m.max), r->wake_worst.seq, ck.t_s, UNITS_US(wake_max));
	else
		check_pass(k, &ck);

	ck = (struct verdict_check){ .name = "missed_periods", .in_verdict = !phase,
				     .key = "limits.missed_max", .phase = phase,
				     .unit = VERDICT_UNIT_COUNT, .has_observed = true,
				     .observed = (double)r->missed_periods,
				     .has_limit = missed_max >= 0, .limit = (double)missed_max };
	if (missed_max < 0)
		check_end(k, &ck, VERDICT_CHECK_SKIP, "limits.missed_max is not set");
	else if (r->missed_periods > (uint64_t)missed_max)
		check_end(k, &ck, VERDICT_CHECK_FAIL, "%" PRIu64 " %s, limits.missed_max is %" PRId64,
			  r->missed_periods, r->respond ? "events were lost" : "periods were missed",
			  missed_max);
	else
		check_pass(k, &ck);
	if (r->respond)
		check_response(c, r, phase, k);
}

/* A phase's proof has gaps above its bound (a phase that was reached). */
static bool proof_gappy(const struct run_phase *ph)
{
	return ph->proof && ph->gaps_known && ph->max_gap_ns > ph->gap_bound_ns;
}

/* The idle requirement of a phase without loads; NULL: none was set. */
const struct proof_req *verdict_phase_idle_req(const struct run_phase *ph)
{
	size_t i;

	for (i = 0; i < ph->nreqs; i++) {
		if (ph->reqs[i].kind == LOAD_PROOF_IDLE)
			return &ph->reqs[i];
	}
	return NULL;
}

/* A phase with loads (a summary's phases carry them as requirements too). */
static bool phase_loaded(const struct run_phase *ph)
{
	return ph->nloads || (ph->nreqs && !verdict_phase_idle_req(ph));
}

/*
 * What a phase's proof says, in the words of docs/soak.md: with loads
 * "LOAD APPLIED", "LOAD NOT APPLIED" or "proof incomplete" (gaps above
 * the bound, nothing failed); without "idle proven", "not idle", "proof
 * incomplete" or "idle unproven" (no samples, no idle rule: one CPU,
 * proof.idle_max_busy 100); "no proof" when nothing was sampled.
 */
const char *verdict_phase_proof_state(const struct run_info *ri, const struct run_phase *ph)
{
	const struct proof_req *q = verdict_phase_idle_req(ph);
	char why[2048] = "";

	if (!ph->proof || !ph->sampled)
		return "no proof";
	if (phase_loaded(ph)) {
		if (proof_phase_judge(ph->proof, ph->reqs, ph->nreqs, ri->min_busy_pct, why,
				      sizeof(why)))
			return "LOAD NOT APPLIED";
		return proof_gappy(ph) ? "proof incomplete" : "LOAD APPLIED";
	}
	if (!q || !ph->proof->samples)
		return proof_gappy(ph) && q ? "proof incomplete" : "idle unproven";
	if (proof_phase_judge(ph->proof, q, 1, ri->min_busy_pct, why, sizeof(why)))
		return "not idle";
	return proof_gappy(ph) ? "proof incomplete" : "idle proven";
}

/* The worse of two states (the run's word from its phases'). */
static const char *worse_state(const char *a, const char *b)
{
	static const char *const order[] = { "LOAD NOT APPLIED", "not idle", "proof incomplete",
					     "idle unproven", "no proof", "LOAD APPLIED",
					     "idle proven" };
	size_t i;

	if (!a)
		return b;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (!strcmp(a, order[i]) || !strcmp(b, order[i]))
			return !strcmp(a, order[i]) ? a : b;
	}
	return a;
}

/* The run's idle and load words: the worst of its phases' (NULL: no
 * phase of that kind). A run without phases in phases[] has run_proof. */
void verdict_run_proof_states(const struct run_info *ri, const char **idle, const char **load)
{
	size_t i, n = ri->nphases ? ri->nphases : ri->run_proof ? 1 : 0;

	*idle = *load = NULL;
	for (i = 0; i < n; i++) {
		const struct run_phase *ph = ri->nphases ? &ri->phases[i] : ri->run_proof;
		const char *st = verdict_phase_proof_state(ri, ph);

		if (phase_loaded(ph))
			*load = worse_state(*load, st);
		else
			*idle = worse_state(*idle, st);
	}
}

/*
 * What one load of a phase had to show, as checks. proof_phase_judge() is
 * the judge and writes the sentences; the figures come from the same
 * proof_phase_* readings under the same conditions, one failure per line of
 * its judgement, in its order. Should the two ever disagree (the judge grew
 * a rule), its lines are taken as they are, as failures without figures.
 */
static void check_one_load(const struct run_info *ri, const struct run_phase *ph,
			   const struct proof_req *q, struct check_sink *k)
{
	const struct proof_phase *p = ph->proof;
	const struct proof_load_stat *st = NULL;
	struct verdict_check cks[4];
	char why[2048] = "", *lines[8], *save, *line, msg[2200];
	size_t n = 0, nlines = 0, nfail = 0, i, j;
	bool lost;

	for (j = 0; j < p->nloads; j++) {
		if (!strcmp(p->loads[j].name, q->name))
			st = &p->loads[j];
	}
	lost = st && st->lost;
	proof_phase_judge(p, q, 1, ri->min_busy_pct, why, sizeof(why));
	for (line = strtok_r(why, "\n", &save); line && nlines < 8; line = strtok_r(NULL, "\n", &save))
		lines[nlines++] = line;

	if (q->kind != LOAD_PROOF_IDLE)
		cks[n++] = (struct verdict_check){ .name = "running", .in_verdict = true,
						   .phase = ph->name, .load = q->name,
						   .result = lost ? VERDICT_CHECK_FAIL : VERDICT_CHECK_PASS };
	if (q->kind == LOAD_PROOF_IDLE) {
		double b = proof_phase_busy(p, &q->cpus);

		/* no sample, no judgement (proof_phase_judge agrees) */
		cks[n++] = (struct verdict_check){
			.name = "idle_busy", .in_verdict = true, .phase = ph->name, .load = q->name,
			.key = "proof.idle_max_busy", .unit = VERDICT_UNIT_PERCENT,
			.has_observed = b >= 0, .observed = b, .has_limit = true,
			.limit = q->max_busy,
			.result = b < 0 ? VERDICT_CHECK_SKIP : b > q->max_busy ? VERDICT_CHECK_FAIL : VERDICT_CHECK_PASS };
	}
	if (q->kind == LOAD_PROOF_CPU) {
		double b = proof_phase_own(p, q->name, NULL);

		/* the load's own CPU time; the system-wide figure in older logs */
		if (b < 0)
			b = proof_phase_busy(p, &q->cpus);
		cks[n++] = (struct verdict_check){
			.name = "cpu_busy", .in_verdict = true, .phase = ph->name, .load = q->name,
			.unit = VERDICT_UNIT_PERCENT, .has_observed = b >= 0, .observed = b,
			.has_limit = true, .limit = ri->min_busy_pct, .limit_is_min = true,
			.result = lost ? VERDICT_CHECK_SKIP : b < ri->min_busy_pct ? VERDICT_CHECK_FAIL : VERDICT_CHECK_PASS };
	}
	if (q->kind == LOAD_PROOF_NET) {
		double pps = proof_phase_pps(p, q->iface);

		cks[n++] = (struct verdict_check){
			.name = "packets_per_s", .in_verdict = true, .phase = ph->name, .load = q->name,
			.unit = VERDICT_UNIT_PPS, .has_observed = pps >= 0, .observed = pps,
			.has_limit = true, .limit = (double)q->min_pps, .limit_is_min = true,
			.result = lost ? VERDICT_CHECK_SKIP : pps < (double)q->min_pps ? VERDICT_CHECK_FAIL
										  : VERDICT_CHECK_PASS };
	}
	if (q->results) {
		uint64_t valid = st ? st->valid : 0;

		cks[n++] = (struct verdict_check){
			.name = "valid_scores", .in_verdict = true, .phase = ph->name, .load = q->name,
			.unit = VERDICT_UNIT_COUNT, .has_observed = true, .observed = (double)valid,
			.has_limit = true, .limit = 1, .limit_is_min = true,
			.result = lost ? VERDICT_CHECK_SKIP : valid ? VERDICT_CHECK_PASS : VERDICT_CHECK_FAIL };
	}
	for (i = 0; i < n; i++)
		nfail += cks[i].result == VERDICT_CHECK_FAIL;
	if (nfail != nlines) {
		for (i = 0; i < nlines; i++) {
			struct verdict_check ck = { .name = "load_not_applied", .in_verdict = true,
						    .phase = ph->name, .load = q->name };

			check_end(k, &ck, VERDICT_CHECK_FAIL, "phase %s: %s", ph->name, lines[i]);
		}
		return;
	}
	for (i = 0, j = 0; i < n; i++) {
		if (cks[i].result == VERDICT_CHECK_FAIL) {
			snprintf(msg, sizeof(msg), "phase %s: %s", ph->name, lines[j++]);
			cks[i].message = msg;
		} else if (cks[i].result == VERDICT_CHECK_SKIP) {
			cks[i].message = q->kind == LOAD_PROOF_IDLE ? "no proof-of-load sample in "
								       "the phase"
								     : "the load was lost";
		}
		emit(k, &cks[i]);
	}
}

/* Every phase whose loads did not show: "phase NAME: load not applied: ...". */
static void check_phase_loads(const struct run_info *ri, const struct run_phase *ph,
			      struct check_sink *k)
{
	size_t j;

	if (!ph->nreqs || !ph->proof || ph->advisory)
		return;
	for (j = 0; j < ph->nreqs; j++)
		check_one_load(ri, ph, &ph->reqs[j], k);
	if (ph->gaps_known) {
		struct verdict_check ck = {
			.name = "proof_gaps", .in_verdict = true, .phase = ph->name,
			.key = "proof.interval", .unit = VERDICT_UNIT_NS, .has_observed = true,
			.observed = (double)ph->max_gap_ns, .has_limit = true,
			.limit = (double)ph->gap_bound_ns };
		char why[256] = "";

		if (proof_gap_judge(ph->max_gap_ns, ph->gap_bound_ns, why, sizeof(why))) {
			why[strcspn(why, "\n")] = '\0';
			check_end(k, &ck, VERDICT_CHECK_FAIL, "phase %s: %s", ph->name, why);
		} else {
			check_pass(k, &ck);
		}
	}
}

/* Phase @ph's own figures against the limits; all skipped if it has none. */
static void check_phase_limits(const struct config *c, const struct run_phase *ph,
			       struct check_sink *k)
{
	static const char *const names[] = { "tmin", "tmax", "wake_latency_max", "missed_periods" };
	static const char *const keys[] = { "limits.tmin", "limits.tmax", "limits.wake_latency_max",
					    "limits.missed_max" };
	const struct edgestats_result *r = ph->stats ? edgestats_result(ph->stats) : NULL;
	size_t i;

	if (r && r->edges) {
		check_limits(c, r, ph->name, k);
		return;
	}
	for (i = 0; i < 4; i++) {
		struct verdict_check ck = { .name = names[i], .key = keys[i], .phase = ph->name,
					    .unit = i == 3 ? VERDICT_UNIT_COUNT : VERDICT_UNIT_NS };

		check_end(k, &ck, VERDICT_CHECK_SKIP, "no edges in this phase (not reached)");
	}
}

/*
 * Every check in a fixed order (verdict.h), each phase's own figures
 * against the limits with @phase_limits. The result, verdict_judge(),
 * verdict_word() and verdict_checks() all come from here, so they cannot
 * disagree.
 */
static void check_all(const struct config *c, const struct edgestats_result *r,
		      const struct run_info *ri, struct check_sink *k, bool phase_limits)
{
	size_t i;

	check_integrity(r, ri, k);
	check_limits(c, r, NULL, k);
	for (i = 0; i < ri->nphases; i++) {
		if (phase_limits)
			check_phase_limits(c, &ri->phases[i], k);
		check_phase_loads(ri, &ri->phases[i], k);
	}
}

/* The verdict's word from what the walk counted. */
static const char *word_of(const struct config *c, const struct check_sink *k)
{
	if (!k->failed)
		return verdict_limits_set(c) ? "PASS" : "NO LIMITS";
	if (k->failed != k->load_failed)
		return "FAIL";
	return k->gap_failed == k->failed ? "PROOF INCOMPLETE" : "LOAD NOT APPLIED";
}

static enum verdict verdict_of(const struct config *c, const struct check_sink *k)
{
	if (k->failed)
		return VERDICT_FAIL;
	return verdict_limits_set(c) ? VERDICT_PASS : VERDICT_NO_LIMITS;
}

unsigned verdict_checks(const struct config *c, const struct edgestats *s,
			const struct run_info *ri, verdict_check_fn fn, void *ctx)
{
	struct check_sink k = { .on_check = fn, .ctx = ctx };

	check_all(c, edgestats_result(s), ri, &k, true);
	return k.failed;
}

const char *verdict_check_result_name(enum verdict_check_result r)
{
	return r == VERDICT_CHECK_PASS ? "pass" : r == VERDICT_CHECK_FAIL ? "fail" : "skip";
}

const char *verdict_unit_name(enum verdict_unit u)
{
	static const char *const names[] = { "", "ns", "count", "percent", "packets/s" };

	return (unsigned)u < sizeof(names) / sizeof(names[0]) ? names[u] : "";
}

/* Whether any limit of the wave is set: without one, a run with no other
 * violation is "NO LIMITS", not a pass (nothing was checked). The load
 * proof is not a limit of the wave. As report.c's row verdict. */
bool verdict_limits_set(const struct config *c)
{
	return config_int(c, CFG_LIMITS_TMIN) > 0 || config_int(c, CFG_LIMITS_TMAX) > 0 ||
	       config_int(c, CFG_LIMITS_WAKE_LATENCY_MAX) > 0 ||
	       config_int(c, CFG_LIMITS_MISSED_MAX) >= 0 ||
	       config_int(c, CFG_LIMITS_RESPONSE_MAX) > 0 ||
	       config_int(c, CFG_LIMITS_WIDTH_ERROR) > 0;
}

const char *verdict_word(const struct config *c, const struct edgestats *s,
			 const struct run_info *ri)
{
	struct check_sink k = { 0 };

	check_all(c, edgestats_result(s), ri, &k, false);
	return word_of(c, &k);
}

static void why_append(void *ctx, const char *msg)
{
	struct why_buf *w = ctx;
	int n;

	if (w->pos >= w->len)
		return;
	n = snprintf(w->buf + w->pos, w->len - w->pos, "%s\n", msg);
	if (n > 0)
		w->pos += (size_t)n < w->len - w->pos ? (size_t)n : w->len - w->pos - 1;
}

/* @why ready to take lines after what the caller already has in it. */
static struct why_buf why_start(char *why, size_t len)
{
	struct why_buf w = { .buf = why, .len = len };

	if (len) {
		w.pos = strnlen(why, len - 1);
		why[w.pos] = '\0';
	}
	return w;
}

enum verdict verdict_judge(const struct config *c, const struct edgestats *s,
			   const struct run_info *ri, char *why, size_t len)
{
	struct why_buf w = why_start(why, len);
	struct check_sink k = { .on_violation = len ? why_append : NULL, .ctx = &w };

	check_all(c, edgestats_result(s), ri, &k, false);
	return verdict_of(c, &k);
}

/* ---- the result: one walk, kept ---- */

/* The checks as verdict_result_compute() collects them; @nomem: a copy
 * failed, the result is dropped. */
struct keep {
	struct verdict_result *v;
	size_t cap;
	bool nomem;
};

static char *dup_or_null(const char *s, bool *nomem)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*nomem = true;
	return d;
}

/* One check into the result, its strings copied (the walk's end with it). */
static void keep_check(void *ctx, const struct verdict_check *ck)
{
	struct keep *kp = ctx;
	struct verdict_result *v = kp->v;
	struct verdict_check *d;

	if (kp->nomem)
		return;
	if (v->nchecks == kp->cap) {
		size_t cap = kp->cap ? 2 * kp->cap : 32;
		struct verdict_check *n = realloc(v->checks, cap * sizeof(*n));

		if (!n) {
			kp->nomem = true;
			return;
		}
		v->checks = n;
		kp->cap = cap;
	}
	d = &v->checks[v->nchecks++];
	*d = *ck;
	/* name and key are this file's literals; the rest may be the caller's */
	d->phase = dup_or_null(ck->phase, &kp->nomem);
	d->load = dup_or_null(ck->load, &kp->nomem);
	d->message = dup_or_null(ck->message, &kp->nomem);
}

int verdict_result_compute(struct verdict_result *v, const struct config *c,
			   const struct edgestats_result *r, const struct run_info *ri, char *err,
			   size_t errlen)
{
	struct keep kp = { .v = v };
	struct check_sink k = { .on_check = keep_check, .ctx = &kp };

	memset(v, 0, sizeof(*v));
	check_all(c, r, ri, &k, true);
	if (kp.nomem) {
		verdict_result_free(v);
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return -1;
	}
	v->verdict = verdict_of(c, &k);
	v->word = word_of(c, &k);
	v->limits_set = verdict_limits_set(c);
	v->violations = k.failed;
	v->load_failures = k.load_failed;
	return 0;
}

int verdict_result_add_check(struct verdict_result *v, const struct verdict_check *ck)
{
	struct verdict_check *n = realloc(v->checks, (v->nchecks + 1) * sizeof(*n));
	bool nomem = false;
	struct verdict_check d = *ck;

	if (!n)
		return -1;
	v->checks = n;
	d.in_verdict = true;
	d.phase = dup_or_null(ck->phase, &nomem);
	d.load = dup_or_null(ck->load, &nomem);
	d.message = dup_or_null(ck->message, &nomem);
	if (nomem) {
		free((char *)d.phase);
		free((char *)d.load);
		free((char *)d.message);
		errno = ENOMEM;
		return -1;
	}
	v->checks[v->nchecks++] = d;
	if (d.result != VERDICT_CHECK_FAIL)
		return 0;
	/* the run's own failures keep their word; alone, the instrument's say so */
	if (!v->violations++)
		v->word = "INSTRUMENT DISAGREES";
	v->verdict = VERDICT_FAIL;
	return 0;
}

void verdict_result_free(struct verdict_result *v)
{
	size_t i;

	for (i = 0; i < v->nchecks; i++) {
		free((char *)v->checks[i].phase);
		free((char *)v->checks[i].load);
		free((char *)v->checks[i].message);
	}
	free(v->checks);
	memset(v, 0, sizeof(*v));
}

unsigned verdict_result_violations(const struct verdict_result *v, verdict_violation_fn fn,
				   void *ctx)
{
	unsigned n = 0;
	size_t i;

	for (i = 0; i < v->nchecks; i++) {
		const struct verdict_check *ck = &v->checks[i];

		if (ck->result != VERDICT_CHECK_FAIL || !ck->in_verdict)
			continue;
		n++;
		if (fn)
			fn(ctx, ck->message);
	}
	return n;
}

void verdict_result_why(const struct verdict_result *v, char *why, size_t len)
{
	struct why_buf w = why_start(why, len);

	if (len)
		verdict_result_violations(v, why_append, &w);
}
