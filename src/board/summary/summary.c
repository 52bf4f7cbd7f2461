/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end-of-run summary: the text an RT engineer reads next to the scope,
 * and the JSON of docs/json-summary.md, with the verdict verdict.c gives. */
#include "summary/summary.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "stats/tlatsplit.h"
#include "log/edgelog.h"
#include "base/wave.h"
#include "base/clocksync.h"
#include "base/json.h"
#include "base/cpulist.h"
#include "base/outfile.h"
#include "summary/loopreport.h"
#include "rt/cpuidle.h"
#include "summary/statsjson.h"
#include "summary/statstext.h"
#include "base/units.h"

#ifndef SQW_VERSION
#define SQW_VERSION "unknown"
#endif

#define SUMMARY_SCHEMA "sqwave-summary"
#define SUMMARY_SCHEMA_VERSION 1

/* ---- formatting ---- */

/* Seconds since the first edge, for "where did it happen". */
static double rel_s(const struct edgestats_result *r, uint64_t t)
{
	return (double)(int64_t)(t - r->first_intended_ns) / 1e9;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* ---- text ---- */

/* What spinning did and, where the CPU is scarce, what it cost the rest of
 * the system (a spinning RT thread holds its CPU through each lead). */
static void text_spin(FILE *f, const struct edgestats_result *r, const struct run_info *ri)
{
	double frac = edgestats_spin_fraction(r), pct = isnan(frac) ? 0.0 : frac * 100.0;
	char cpu[32];

	if (!ri->spin_lead_ns && !r->spin_edges) {
		fprintf(f, "spin       off: each edge written at its wake-up (0 %% of the time spinning)\n");
		return;
	}
	if (ri->spin_auto)
		fprintf(f, "spin       auto: wake-ups armed %s us before each deadline at the end "
			"(%s..%s us, changed %" PRIu64 " times)\n", UNITS_US(ri->spin_lead_ns),
			UNITS_US(ri->spin_lead_min_ns), UNITS_US(ri->spin_lead_max_ns), ri->spin_rearms);
	else
		fprintf(f, "spin       wake-ups armed %s us before each deadline, then a clock-read "
			"loop to it\n", UNITS_US(ri->spin_lead_ns));
	fprintf(f, "           %.3f %% of the measured time spinning; %" PRIu64 " late wake-ups "
		"(at or after the deadline) written at once%s\n", pct, r->late_edges,
		r->late_edges ? "  <-- flagged in the log" : "");
	if (ri->rt_cpu >= 0)
		snprintf(cpu, sizeof(cpu), "CPU %d", ri->rt_cpu);
	else
		snprintf(cpu, sizeof(cpu), "its CPU");
	if (ri->host.ncpus == 1)
		fprintf(f, "spin cost  single-CPU system: spinning took %.3f %% of the only CPU from "
			"every other task, the recorder and the kernel's threads included\n", pct);
	if (ri->rt_runtime_us >= 0 && ri->rt_period_us > 0)
		fprintf(f, "spin cost  RT throttling is on (sched_rt_runtime_us %ld of %ld): "
			"real-time tasks may use %.1f %% of a CPU per period; spinning used %.3f %% "
			"of %s, and if the RT thread ever needs more the kernel stops it for the "
			"rest of the period\n", ri->rt_runtime_us, ri->rt_period_us,
			100.0 * (double)ri->rt_runtime_us / (double)ri->rt_period_us, pct, cpu);
}

static void text_extreme(FILE *f, const struct edgestats_result *r, const char *name,
			 const struct edgestats_pulse *p, const char *note)
{
	fprintf(f, "  %-6s %10s us  [%s, %s]  edge #%" PRIu64 " (t+%.6f s)%s\n", name,
		UNITS_US(p->width_ns), UNITS_US(p->lo_ns), UNITS_US(p->hi_ns), p->at.seq,
		rel_s(r, p->at.intended_ns), note);
}

static void text_pulses(FILE *f, const struct edgestats_result *r, const char *name,
			const struct edgestats_widths *w)
{
	if (w->h.m.n == 0) {
		fprintf(f, "%s pulses: none measured\n", name);
		return;
	}
	fprintf(f, "%s pulses: %" PRIu64 "\n", name, w->h.m.n);
	text_extreme(f, r, "Tmin", &w->tmin, "");
	if (w->tmin_bound.lo_ns < w->tmin.lo_ns)
		fprintf(f, "  %-6s %10s us  (lowest bound, edge #%" PRIu64 ")\n", "",
			UNITS_US(w->tmin_bound.lo_ns), w->tmin_bound.at.seq);
	text_extreme(f, r, "Tmax", &w->tmax, "");
	if (w->tmax_bound.hi_ns > w->tmax.hi_ns)
		fprintf(f, "  %-6s %10s us  (highest bound, edge #%" PRIu64 ")\n", "",
			UNITS_US(w->tmax_bound.hi_ns), w->tmax_bound.at.seq);
}

/* --break: which counted edges have a trace, and whether the worst wake-up
 * does (warm-up edges are never traced: tracebreak.h). */
static void text_break_cover(FILE *f, const struct config *c, const struct edgestats_result *r,
			     const struct run_info *ri)
{
	char why[160];
	size_t i;
	int k;

	if (ri->nbreak_hits) {
		fprintf(f, "           traced edges");
		for (i = 0; i < ri->nbreak_hits && i < 8; i++)
			fprintf(f, "%s #%" PRIu64 " (%s %s us)", i ? "," : "", ri->break_hits[i].seq,
				ri->break_hits[i].what == TRACEBREAK_WAKE ? "wake" : "width",
				UNITS_US(ri->break_hits[i].value_ns));
		if (ri->nbreak_hits > 8)
			fprintf(f, " and %zu more", ri->nbreak_hits - 8);
		fputc('\n', f);
	}
	k = tracebreak_cover(ri->break_hits, ri->nbreak_hits, (int)config_int(c, CFG_TRACE_MAX_BREAKS),
			     config_int(c, CFG_TRACE_BREAK), r->wake_worst.seq, r->wake.m.max,
			     why, sizeof(why));
	if (k >= 0 && ri->break_hits[k].saved)
		fprintf(f, "           the worst wake-up, edge #%" PRIu64 " (%s us), has a trace: "
			"%s.break-%d.trace\n", r->wake_worst.seq, UNITS_US(r->wake.m.max),
			ri->log_path ? OUTFILE_ESC(ri->log_path) : "sqwave", k + 1);
	else if (k >= 0)
		fprintf(f, "           the worst wake-up, edge #%" PRIu64 " (%s us), broke but its "
			"trace could not be saved\n", r->wake_worst.seq, UNITS_US(r->wake.m.max));
	else
		fprintf(f, "           the worst wake-up, edge #%" PRIu64 " (%s us), has no trace: %s\n",
			r->wake_worst.seq, UNITS_US(r->wake.m.max), why);
}

static void text_violation(void *ctx, const char *msg)
{
	fprintf(ctx, "  - %s\n", msg);
}

/* What phase @ph's loads showed, one line per load (and one for the machine). */
static void text_proof(FILE *f, const struct run_info *ri, const struct run_phase *ph)
{
	const struct proof_phase *p = ph->proof;
	size_t i, j;

	if (!p->samples) {
		fprintf(f, "  %-14s no samples\n", ph->name);
		return;
	}
	fprintf(f, "  %-14s %s; %" PRIu64 " samples: %.0f IRQs/s, %.0f context switches/s, load %.2f",
		ph->name, verdict_phase_proof_state(ri, ph), p->samples, p->irq_sum / (double)p->samples, p->ctxt_sum / (double)p->samples,
		p->load1_sum / (double)p->samples);
	fprintf(f, "; CPU busy");
	for (i = 0; i < PROOF_MAX_CPUS; i++) {
		if (p->busy_n[i])
			fprintf(f, " %zu:%.0f%%", i, p->busy_sum[i] / (double)p->busy_n[i]);
	}
	fprintf(f, "\n");
	if (ph->gaps_known)
		fprintf(f, "  %-14s   longest gap between readings %.1f s (at most %.1f s)\n", "",
			(double)ph->max_gap_ns / 1e9, (double)ph->gap_bound_ns / 1e9);
	for (i = 0; i < ph->nreqs; i++) {
		const struct proof_req *r = &ph->reqs[i];
		const struct proof_load_stat *st = NULL;
		char cpus[128];

		for (j = 0; j < p->nloads; j++) {
			if (!strcmp(p->loads[j].name, r->name))
				st = &p->loads[j];
		}
		if (r->kind == LOAD_PROOF_IDLE) {
			fprintf(f, "  %-14s   no load: CPUs %s %.0f %% busy (at most %d %%)\n", "",
				cpulist_format(&r->cpus, cpus, sizeof(cpus)),
				proof_phase_busy(p, &r->cpus), r->max_busy);
			continue;
		}
		fprintf(f, "  %-14s   %s:", "", r->name);
		if (r->kind == LOAD_PROOF_CPU) {
			enum proof_own_src src = PROOF_OWN_NONE;
			double own = proof_phase_own(p, r->name, &src);

			cpulist_format(&r->cpus, cpus, sizeof(cpus));
			if (own >= 0)
				fprintf(f, " own CPU time %.0f %% of CPUs %s (%s; system-wide %.0f %%)",
					own, cpus, proof_own_src_name(src), proof_phase_busy(p, &r->cpus));
			else
				fprintf(f, " CPUs %s %.0f %% busy (system-wide; no own CPU time in "
					"the log)", cpus, proof_phase_busy(p, &r->cpus));
		}
		if (r->kind == LOAD_PROOF_NET)
			fprintf(f, " %s %.0f packets/s (at least %" PRId64 ")", r->iface,
				proof_phase_pps(p, r->iface), r->min_pps);
		if (r->results)
			fprintf(f, ", %" PRIu64 " valid scores", st ? st->valid : 0);
		if (r->results && st && st->valid)
			fprintf(f, " (mean %.1f, last %.1f)", st->score_sum / (double)st->valid,
				st->score_last);
		if (st && st->invalid)
			fprintf(f, ", %" PRIu64 " runs without a score", st->invalid);
		if (st && st->restarts)
			fprintf(f, ", %" PRIu64 " restarts", st->restarts);
		if (st && st->kills)
			fprintf(f, ", %" PRIu64 " killed after SIGTERM", st->kills);
		if (st && st->lost)
			fprintf(f, ", LOST at t+%.1f s (%s)", (double)st->lost_t_ns / 1e9, st->lost_why);
		fprintf(f, "\n");
	}
}

/* A run without phases: whether it was idle, with the figures (shown, not
 * judged: nothing asked for a comparison). */
static void text_run_proof(FILE *f, const struct run_info *ri)
{
	const struct run_phase *ph = ri->run_proof;
	const struct proof_req *q = verdict_phase_idle_req(ph);
	char cpus[128];

	fprintf(f, "\nproof      %s", verdict_phase_proof_state(ri, ph));
	if (q && ph->proof && ph->proof->samples)
		fprintf(f, ": CPUs %s %.0f %% busy (at most %d %%: proof.idle_max_busy)",
			cpulist_format(&q->cpus, cpus, sizeof(cpus)), proof_phase_busy(ph->proof, &q->cpus),
			q->max_busy);
	else if (!q)
		fprintf(f, " (no idle rule: a single CPU, or proof.idle_max_busy 100)");
	if (ph->proof)
		fprintf(f, "; %" PRIu64 " samples", ph->proof->samples);
	if (ph->gaps_known)
		fprintf(f, ", longest gap %.1f s (at most %.1f s)", (double)ph->max_gap_ns / 1e9,
			(double)ph->gap_bound_ns / 1e9);
	fprintf(f, "\n");
	if (ri->sampler_sched && ri->sampler_sched[0])
		fprintf(f, "sampler    %s\n", ri->sampler_sched);
}

/* How long phase @i ran: what its edges show (a run stopped early ran its
 * last phase shorter, and the later ones not at all), or the plan. */
static int64_t phase_ran_ns(const struct run_info *ri, size_t i)
{
	const struct run_phase *ph = &ri->phases[i];

	return ri->phasestats ? phasestats_ran_ns(ri->phasestats, i, ph->duration_ns)
			      : ph->duration_ns;
}

/* Whether @ri's phases are a respond run's (their statistics say): writes
 * and lost events, not edges and missed periods. */
static bool phases_respond(const struct run_info *ri)
{
	return ri->nphases && ri->phases[0].stats && edgestats_result(ri->phases[0].stats)->respond;
}

/* The phases: each one's own pulse widths, latency and missed periods, then
 * what its loads showed. */
void summary_phases_text(FILE *f, const struct run_info *ri)
{
	char a[32], b[32], c[32], ran[80];
	size_t i;

	fprintf(f, "\nPhases (times from the end of the warm-up; ran: what the edges show, "
		"\"of\" the plan when stopped early)\n");
	fprintf(f, "  %-14s %8s %16s %10s %22s %22s %9s %9s %9s %7s\n", "phase", "start", "ran",
		phases_respond(ri) ? "writes" : "edges", "Tmin us [lowest]", "Tmax us [highest]",
		"wake p99", "p99.99", "max", phases_respond(ri) ? "lost" : "missed");
	for (i = 0; i < ri->nphases; i++) {
		const struct run_phase *ph = &ri->phases[i];
		const struct edgestats_result *r = ph->stats ? edgestats_result(ph->stats) : NULL;
		const struct edgestats_widths *w = r ? &r->width[EDGESTATS_ANY] : NULL;
		char tmin[48] = "-", tmax[48] = "-";

		if (w && w->h.m.n) {
			snprintf(tmin, sizeof(tmin), "%s [%s]", UNITS_US(w->tmin.width_ns),
				 UNITS_US(w->tmin_bound.lo_ns));
			snprintf(tmax, sizeof(tmax), "%s [%s]", UNITS_US(w->tmax.width_ns),
				 UNITS_US(w->tmax_bound.hi_ns));
		}
		int64_t done = phase_ran_ns(ri, i);

		if (ph->duration_ns && done < ph->duration_ns)
			snprintf(ran, sizeof(ran), "%s of %s", units_format_duration(done, b, sizeof(b)),
				 units_format_duration(ph->duration_ns, c, sizeof(c)));
		else
			snprintf(ran, sizeof(ran), "%s", done ? units_format_duration(done, b, sizeof(b))
							      : "-");
		fprintf(f, "  %-14s %8s %16s %10" PRIu64 " %22s %22s", ph->name,
			units_format_duration(ph->start_off_ns, a, sizeof(a)), ran,
			r ? r->edges : 0, tmin, tmax);
		if (r && r->wake.m.n)
			fprintf(f, " %9s %9s %9s", UNITS_US(stats_hist_percentile(&r->wake, 99.0)),
				UNITS_US(stats_hist_percentile(&r->wake, 99.99)), UNITS_US(r->wake.m.max));
		else
			fprintf(f, " %9s %9s %9s", "-", "-", "-");
		fprintf(f, " %7" PRIu64 "\n", r ? r->missed_periods : 0);
	}
	if (!ri->containment || !ri->containment[0])
		return;
	fprintf(f, "\nLoad proof (loads held by %s)\n", ri->containment);
	for (i = 0; i < ri->nphases; i++) {
		const struct run_phase *ph = &ri->phases[i];

		if (ph->nloads == 0 && ph->sampled) {
			text_proof(f, ri, ph);
			if (!ph->nreqs)	/* else its idle line says so */
				fprintf(f, "  %-14s   (no loads)\n", "");
		} else if (ph->sampled) {
			text_proof(f, ri, ph);
		}
	}
}

/* A wave's figures: edges, missed periods, the distributions, pulses. */
static void text_wave(FILE *f, const struct edgestats_result *r, const struct run_info *ri,
		      uint64_t dropped)
{
	fprintf(f, "edges      %" PRIu64 " counted, %" PRIu64 " warm-up, %" PRIu64 " logged\n",
		r->edges, r->warmup_edges, ri->records_logged);
	fprintf(f, "missed     %" PRIu64 " periods%s\n", r->missed_periods,
		r->missed_periods ? "  <-- the timer fired more than once between edges" : "");
	fprintf(f, "dropped    %" PRIu64 " records", dropped);
	if (r->gap_events)
		fprintf(f, " (%" PRIu64 " places, first before edge #%" PRIu64 " at t+%.6f s)",
			r->gap_events, r->first_gap.seq, rel_s(r, r->first_gap.intended_ns));
	fprintf(f, "\n");
	fprintf(f, "write errs %" PRIu64 "\n", max_u64(ri->write_errors, r->write_errors));
	if (r->saturated)
		fprintf(f, "saturated  %" PRIu64 " edges had an offset beyond +-2.1 s\n", r->saturated);

	statstext_dist_head(f, "us");
	statstext_dist_row(f, "wake latency", &r->wake);
	statstext_dist_row(f, "write cost", &r->write);
	statstext_dist_row(f, "placement", &r->place);
	statstext_dist_row(f, "pulse +", &r->width[EDGESTATS_POS].h);
	statstext_dist_row(f, "pulse -", &r->width[EDGESTATS_NEG].h);
	statstext_dist_row(f, "pulse any", &r->width[EDGESTATS_ANY].h);
	if (r->wake.m.n)
		fprintf(f, "  worst wake-up at edge #%" PRIu64 " (t+%.6f s)\n",
			r->wake_worst.seq, rel_s(r, r->wake_worst.intended_ns));
	if (r->place.m.n)
		fprintf(f, "  placement = write-window midpoint - first deadline after the previous "
			"edge (where the scope sees the edge); worst %s us at edge #%" PRIu64 " (t+%.6f s)\n",
			UNITS_US(r->place_worst_ns), r->place_worst.seq,
			rel_s(r, r->place_worst.intended_ns));
	text_spin(f, r, ri);

	fprintf(f, "\nPulse widths, write midpoint to write midpoint; [lo, hi] is what the "
		"scope can show given the write windows\n");
	text_pulses(f, r, "positive", &r->width[EDGESTATS_POS]);
	text_pulses(f, r, "negative", &r->width[EDGESTATS_NEG]);
	if (r->period_m.n)
		fprintf(f, "period     min %s us (edge #%" PRIu64 "), max %s us (edge #%" PRIu64 ")\n",
			UNITS_US(r->period_m.min), r->period_min_at.seq, UNITS_US(r->period_m.max),
			r->period_max_at.seq);

}

/* One line per figure of a respond run's counters. */
static void text_respond_counts(FILE *f, const struct edgestats_result *r,
				const struct run_info *ri, uint64_t dropped)
{
	char a[32], b[32];

	fprintf(f, "respond    %s, on %s edges of %s\n", ri->respond_mode, ri->respond_edge,
		ri->input_desc ? OUTFILE_ESC(ri->input_desc) : "-");
	fprintf(f, "           event clock %s, debounce %s", ri->event_clock,
		units_format_duration(ri->debounce_ns, a, sizeof(a)));
	if (!strcmp(ri->respond_mode, "pulse"))
		fprintf(f, ", pulse %s", units_format_duration(ri->respond_pulse_ns, b, sizeof(b)));
	fprintf(f, ", warm-up %s\n", units_format_duration(ri->warmup_ns, a, sizeof(a)));
	fprintf(f, "answers    %" PRIu64 " counted, %" PRIu64 " writes in all (%" PRIu64
		" answer no event: pulse ends, the return to idle), %" PRIu64 " warm-up, %" PRIu64
		" logged\n", r->answers, r->edges, r->edges - r->answers, r->warmup_edges,
		ri->records_logged);
	/* follow mode after a lost event, or on one edge only: the answer is
	 * written, the pin does not change, no pulse starts there */
	if (r->level_repeats)
		fprintf(f, "rewrites   %" PRIu64 " counted writes of the level the output had: "
			"answers, but no edge on the pin\n", r->level_repeats);
	/* every event the kernel numbered is answered, lost or unanswered:
	 * none of the three is hidden, in the warm-up either */
	fprintf(f, "lost       %" PRIu64 " events, %" PRIu64 " more in the warm-up (not counted)%s\n",
		r->missed_periods, r->warmup_missed_periods,
		r->missed_periods || r->warmup_missed_periods
		? "  <-- the kernel's sequence numbers skipped them (its event buffer overflowed)"
		: "");
	if (r->respond_end)
		fprintf(f, "unanswered %" PRIu64 " events stamped before the stop, still queued "
			"then%s\n", r->unanswered, r->unanswered
			? "  <-- never answered: the answers fell behind the input" : "");
	else
		fprintf(f, "unanswered not known: the log has no note of the stop (written before "
			"sqwave kept one)\n");
	fprintf(f, "dropped    %" PRIu64 " records\n", dropped);
	fprintf(f, "write errs %" PRIu64 "\n", max_u64(ri->write_errors, r->write_errors));
	if (r->saturated)
		fprintf(f, "saturated  %" PRIu64 " writes had an offset beyond +-2.1 s\n", r->saturated);
}

/*
 * What a scope across the two pins shows, and how it follows from the log
 * (docs/respond.md). The input edge is the input's last change before its
 * event (with bounces: the burst's last). The output changed inside its
 * write window. The kernel stamps the event after that change: by the
 * input's interrupt latency and, with respond.debounce D, once the line
 * has been stable for D (gpiolib-cdev's debounce timer, re-armed at each
 * change, stamps when its work runs). So input edge -> output edge is at
 * least write_begin - event + D and at most write_end - event + D + the
 * rest (the interrupt's latency, how late the debounce timer and work ran
 * past D), bounded only when respond.irq_bound says how long that can be.
 * Only the answers that changed the output count: a rewrite of the level
 * it had shows nothing on the scope.
 */
static void text_respond_scope(FILE *f, const struct edgestats_result *r,
			       const struct run_info *ri)
{
	char d[32];

	fprintf(f, "\nScope across the two pins, input edge -> output edge (the input's last "
		"change before its event -> the output's change), over the %" PRIu64 " counted "
		"answers that changed the output:\n", r->scope_answers);
	if (!r->scope_answers) {
		fprintf(f, "  no answer changed the output\n");
		return;
	}
	units_format_duration(ri->debounce_ns, d, sizeof(d));
	fprintf(f, "  at least %s us (the shortest write begin - event, %s us at answer #%" PRIu64
		", + respond.debounce %s): the output cannot change before its write begins; the "
		"kernel stamps an event no sooner than the input's last change%s\n",
		UNITS_US(r->scope_lo_ns + ri->debounce_ns), UNITS_US(r->scope_lo_ns),
		r->scope_lo_at.seq, d, ri->debounce_ns > 0
		? " + the debounce period (it waits that long for the line to be stable)" : "");
	if (ri->irq_bound_ns > 0)
		fprintf(f, "  at most  %s us (the longest write end - event, %s us at answer #%" PRIu64
			", t+%.6f s, + respond.debounce %s + respond.irq_bound %s us: how much later "
			"than that the kernel may stamp the event, its interrupt latency%s)\n",
			UNITS_US(r->scope_hi_ns + ri->debounce_ns + ri->irq_bound_ns),
			UNITS_US(r->scope_hi_ns), r->scope_hi_at.seq,
			rel_s(r, r->scope_hi_at.intended_ns), d, UNITS_US(ri->irq_bound_ns),
			ri->debounce_ns > 0 ? " and how late the debounce timer and work ran" : "");
	else
		fprintf(f, "  at most  no bound from this run: the kernel stamps an event after the "
			"input's change by its interrupt latency%s, which the log cannot see; the "
			"longest write end - event was %s us (answer #%" PRIu64 ", t+%.6f s). Set "
			"respond.irq_bound from a measurement (a loopback run's event - write end, "
			"sqwave compare of this log with a capture of both pins, or "
			"a scope) for an upper bound\n",
			ri->debounce_ns > 0 ? " (beyond the debounce period)" : "",
			UNITS_US(r->scope_hi_ns), r->scope_hi_at.seq,
			rel_s(r, r->scope_hi_at.intended_ns));
}

/* A respond run's figures: counts, latencies from the event, the scope. */
void summary_respond_text(FILE *f, const struct edgestats_result *r, const struct run_info *ri,
			  uint64_t dropped)
{
	text_respond_counts(f, r, ri, dropped);
	statstext_dist_head(f, "us from event");
	statstext_dist_row(f, "wake-up", &r->wake);
	statstext_dist_row(f, "write begin", &r->resp_begin);
	statstext_dist_row(f, "write end", &r->resp_end);
	statstext_dist_row(f, "write cost", &r->write);
	statstext_dist_row(f, "output pulse +", &r->width[EDGESTATS_POS].h);
	statstext_dist_row(f, "output pulse -", &r->width[EDGESTATS_NEG].h);
	if (r->wake.m.n)
		fprintf(f, "  latest wake-up at answer #%" PRIu64 " (t+%.6f s); the event's "
			"timestamp is the kernel's, taken in its interrupt handler\n",
			r->wake_worst.seq, rel_s(r, r->wake_worst.intended_ns));
	text_respond_scope(f, r, ri);
}

/* rt.timer timerlat: the tracer's IRQ and thread latencies, and whose
 * fault the latest wake-up was (analysis/tlatsplit.h). */
static void text_timerlat(FILE *f, const struct config *c, const struct run_timerlat *t)
{
	fprintf(f, "timer      timerlat (CPU %" PRId64 "): %" PRIu64 " activations sampled, "
		"%" PRIu64 " with an IRQ sample, %" PRIu64 " with a thread sample%s\n",
		config_int(c, CFG_RT_CPU), t->activations, t->with_irq, t->with_thread,
		t->kernel_lost ? " (the trace lost events)" : "");
	if (t->with_irq)
		fprintf(f, "           timer IRQ latency   p50 %s  p99 %s  max %s us\n",
			UNITS_US(t->irq_p50_ns), UNITS_US(t->irq_p99_ns), UNITS_US(t->irq_max_ns));
	if (t->with_thread)
		fprintf(f, "           thread latency      p50 %s  p99 %s  max %s us (kernel, "
			"at the thread's wake-up)\n", UNITS_US(t->thread_p50_ns),
			UNITS_US(t->thread_p99_ns), UNITS_US(t->thread_max_ns));
	if (t->with_thread && t->worst_irq_ns >= 0)
		fprintf(f, "           latest: IRQ %s + thread %s us: %s\n",
			UNITS_US(t->worst_irq_ns), UNITS_US(t->thread_max_ns - t->worst_irq_ns),
			tlat_split_name(tlat_split_of(t->thread_max_ns, t->worst_irq_ns,
						      config_int(c, CFG_LIMITS_WAKE_LATENCY_MAX))));
}

/* grid.clock realtime/tai (docs/grid.md): where slot 0 went on the shared
 * grid, how well the clock was synchronised, and whether it moved. */
/* When the first step was seen, in seconds from slot 0 (its monotonic time:
 * slot 0 on the grid clock minus the offset read at setup). */
static double grid_step_first_s(const struct run_grid *g)
{
	uint64_t slot0_mono = g->start_ns - (uint64_t)g->offset_ns;

	return (double)(int64_t)(g->step_first_ns - slot0_mono) / 1e9;
}

void summary_grid_text(FILE *f, const struct run_grid *g)
{
	char t[48], a[32], d[32];

	fprintf(f, "grid       %s, slot 0 at %s", g->clock,
		clocksync_format_time(g->start_ns, t, sizeof(t)));
	if (g->align_ns)
		fprintf(f, " (a multiple of %s)", units_format_duration((int64_t)g->align_ns, a,
									 sizeof(a)));
	fprintf(f, ", %s - monotonic %" PRId64 " ns +/- %" PRIu64 " ns\n", g->clock, g->offset_ns,
		g->offset_uncert_ns);
	if (g->sync_known)
		fprintf(f, "clock      %s (adjtimex state %s, status 0x%04x), max error %ld us, "
			"estimated error %ld us, TAI offset %d s\n",
			g->sync.synced ? "synchronised" : "NOT SYNCHRONISED: the grid is this host's own",
			clocksync_state_name(g->sync.state), (unsigned)g->sync.status,
			g->sync.maxerror_us, g->sync.esterror_us, g->sync.tai_s);
	if (!g->steps) {
		if (g->sets)
			fprintf(f, "           no step of the clock during the run (%u set%s of it "
				"moved nothing)%s\n", g->sets, g->sets == 1 ? "" : "s",
				g->end_known ? "; offset read again at the end" : "");
		else
			fprintf(f, "           no step of the clock during the run%s\n",
				g->end_known ? " (offset read again at the end)" : "");
		return;
	}
	/* units_format_duration() signs a negative value itself, INT64_MIN's
	 * too: only a positive one needs its '+' */
	fprintf(f, "           CLOCK STEPPED %u time%s during the run, the first %.3f s after "
		"slot 0, by %s%s in all (largest %s%s): edges after a step are off the shared "
		"grid\n", g->steps, g->steps == 1 ? "" : "s", grid_step_first_s(g),
		g->step_sum_ns > 0 ? "+" : "", units_format_duration(g->step_sum_ns, a, sizeof(a)),
		g->step_largest_ns > 0 ? "+" : "",
		units_format_duration(g->step_largest_ns, d, sizeof(d)));
}

void summary_grid_json(struct json_writer *w, const struct run_grid *g)
{
	if (!g) {
		json_kv_null(w, "grid");
		return;
	}
	json_kv_object_begin(w, "grid");
	json_kv_string(w, "clock", g->clock);
	json_kv_uint(w, "align_ns", g->align_ns);
	json_kv_uint(w, "slot0_ns", g->start_ns);
	json_kv_int(w, "offset_ns", g->offset_ns);
	json_kv_uint(w, "offset_uncertainty_ns", g->offset_uncert_ns);
	if (g->sync_known) {
		json_kv_object_begin(w, "sync");
		json_kv_bool(w, "synced", g->sync.synced);
		json_kv_string(w, "state", clocksync_state_name(g->sync.state));
		json_kv_int(w, "status", g->sync.status);
		json_kv_int(w, "maxerror_us", g->sync.maxerror_us);
		json_kv_int(w, "esterror_us", g->sync.esterror_us);
		json_kv_int(w, "tai_offset_s", g->sync.tai_s);
		json_object_end(w);
	} else {
		json_kv_null(w, "sync");
	}
	json_kv_uint(w, "sets", g->sets);
	json_kv_uint(w, "steps", g->steps);
	json_kv_int(w, "step_sum_ns", g->step_sum_ns);
	json_kv_int(w, "step_largest_ns", g->step_largest_ns);
	if (g->steps)
		json_kv_double(w, "step_first_t_s", grid_step_first_s(g));
	else
		json_kv_null(w, "step_first_t_s");
	if (g->end_known)
		json_kv_int(w, "end_offset_ns", g->end_offset_ns);
	else
		json_kv_null(w, "end_offset_ns");
	json_object_end(w);
}

/* The wave this summary describes: its pin's (a line's own wave, run.line_*
 * or run.*); its half period in @half. Returns whether it is shaped (a duty
 * cycle or a phase), not the plain 50 % wave. */
static bool summary_wave(const struct run_info *ri, struct wave *wv, int64_t *half)
{
	*wv = ri->pin.wave;
	*half = pin_half_period(&ri->pin);
	return !wave_is_square(wv) || wv->phase_ns;
}

/* {p50_ns, p99_ns, max_ns}, empty without samples. */
static void json_latency(struct json_writer *w, const char *key, uint64_t n, int64_t p50,
			 int64_t p99, int64_t max)
{
	json_kv_object_begin(w, key);
	if (n) {
		json_kv_int(w, "p50_ns", p50);
		json_kv_int(w, "p99_ns", p99);
		json_kv_int(w, "max_ns", max);
	}
	json_object_end(w);
}

static void json_timerlat(struct json_writer *w, const struct config *c,
			  const struct run_timerlat *t)
{
	json_kv_string(w, "timer", config_choice(c, CFG_RT_TIMER) == 1 ? "timerlat" : "timerfd");
	if (!t) {
		json_kv_null(w, "timerlat");
		return;
	}
	json_kv_object_begin(w, "timerlat");
	json_kv_uint(w, "activations", t->activations);
	json_kv_uint(w, "with_irq", t->with_irq);
	json_kv_uint(w, "with_thread", t->with_thread);
	json_kv_uint(w, "kernel_lost", t->kernel_lost);
	json_kv_uint(w, "lines_unparsed", t->lines_unparsed);
	json_kv_int(w, "grid_slack_ns", t->origin_slack_ns);
	json_latency(w, "irq_latency", t->with_irq, t->irq_p50_ns, t->irq_p99_ns, t->irq_max_ns);
	json_latency(w, "thread_latency", t->with_thread, t->thread_p50_ns, t->thread_p99_ns,
		     t->thread_max_ns);
	if (t->with_thread && t->worst_irq_ns >= 0) {
		json_kv_object_begin(w, "latest");
		json_kv_uint(w, "intended_ns", t->worst_intended_ns);
		json_kv_int(w, "irq_ns", t->worst_irq_ns);
		json_kv_int(w, "thread_ns", t->thread_max_ns);
		json_kv_string(w, "split", tlat_split_name(tlat_split_of(t->thread_max_ns,
			       t->worst_irq_ns, config_int(c, CFG_LIMITS_WAKE_LATENCY_MAX))));
		json_object_end(w);
	} else {
		json_kv_null(w, "latest");
	}
	json_object_end(w);
}

void summary_print_text_judged(FILE *f, const struct config *c, const struct edgestats *s,
			       const struct run_info *ri, const struct verdict_result *v)
{
	const struct edgestats_result *r = edgestats_result(s);
	const struct sysinfo_host *h = &ri->host;
	int64_t dur = (int64_t)(ri->end_realtime_ns - ri->start_realtime_ns);
	uint64_t dropped = max_u64(ri->dropped, r->seq_gaps);

	fprintf(f, "\n==== sqwave summary ====\n");
	if (!ri->rt_ok)
		fprintf(f, "\n*** NON-RT RUN: %s ***\n"
			"*** these timings say nothing about real-time behaviour ***\n\n",
			ri->non_rt_reason && ri->non_rt_reason[0] ? ri->non_rt_reason
								  : "SCHED_FIFO or mlockall not in force");
	/* names from files (a board's name, a chip's label) are escaped: they
	 * must not drive the terminal */
	if (ri->label && ri->label[0])
		fprintf(f, "label      %s\n", OUTFILE_ESC(ri->label));
	fprintf(f, "board      %s (%s)\n", OUTFILE_ESC(config_str(c, CFG_BOARD_NAME)),
		ri->board_file ? OUTFILE_ESC(ri->board_file) : "-");
	if (ri->profile_file)
		fprintf(f, "profile    %s\n", OUTFILE_ESC(ri->profile_file));
	fprintf(f, "gpio       %s\n", ri->gpio_desc ? OUTFILE_ESC(ri->gpio_desc) : "-");
	if (ri->line_count > 1)
		fprintf(f, "line       %s: %zu of %zu lines, written %s\n",
			OUTFILE_ESC(ri->line_name ? ri->line_name : "-"), ri->line_index + 1,
			ri->line_count, ri->lines_mode ? ri->lines_mode : "-");
	fprintf(f, "host       %s, %s, %d CPUs, %s\n", h->hostname[0] ? h->hostname : "-",
		h->cpu_model[0] ? h->cpu_model : "unknown CPU", h->ncpus, h->machine);
	fprintf(f, "kernel     %s %s\n", h->kernel_release, h->kernel_version);
	fprintf(f, "PREEMPT_RT %s\n", h->preempt_rt ? "yes" : "no");
	if (ri->rt_ok) {
		/* where the RT thread was pinned (per-cpu: this line's) */
		int cpu = ri->rt_cpu;

		fprintf(f, "rt         SCHED_FIFO priority %" PRId64 ", ",
			config_int(c, CFG_RT_PRIORITY));
		if (cpu >= 0)
			fprintf(f, "CPU %d, ", cpu);
		else
			fprintf(f, "not pinned, ");
		fprintf(f, "memory %slocked\n", config_bool(c, CFG_RT_LOCK_MEMORY) ? "" : "NOT ");
	} else {
		fprintf(f, "rt         NOT REAL-TIME (%s)\n",
			ri->non_rt_reason && ri->non_rt_reason[0] ? ri->non_rt_reason : "allowed");
	}
	if (ri->idle) {
		char lim[48], idle[4096];

		fprintf(f, "idle       rt.idle_state %s: %s\n",
			cpuidle_limit_format(cpuidle_hold_limit(ri->idle), lim, sizeof(lim)),
			cpuidle_hold_describe_cpu(ri->idle, ri->idle_own_cpu ? ri->idle_cpu : -1,
						  cpuidle_hold_released(ri->idle), idle,
						  sizeof(idle)));
	}
	if (ri->timerlat)
		text_timerlat(f, c, ri->timerlat);
	if (ri->pin.kind == PIN_WAVE)
		fprintf(f, "wave       %s, warm-up %s\n", pin_describe(&ri->pin, (char[160]){ 0 }, 160),
			units_format_duration(config_int(c, CFG_RUN_WARMUP), (char[32]){ 0 }, 32));
	if (ri->grid)
		summary_grid_text(f, ri->grid);
	fprintf(f, "ran        %.3f s, stopped by %s", dur > 0 ? (double)dur / 1e9 : 0.0,
		edgelog_stop_name(ri->stop_reason));
	if (ri->stop_reason == EDGELOG_STOP_SIGNAL && ri->stop_signal > 0)
		fprintf(f, " (%s)", strsignal(ri->stop_signal));
	fprintf(f, "\n");
	if (config_int(c, CFG_RUN_SCALE) != CFG_DECIMAL_ONE) {
		char x[32], o[256], d[32];

		fprintf(f, "scale      %s (run.scale, %s): every phase that many times its planned "
			"length, %s in all\n", config_format(c, CFG_RUN_SCALE, x, sizeof(x)),
			config_origin(c, CFG_RUN_SCALE, o, sizeof(o)),
			config_format(c, CFG_RUN_DURATION, d, sizeof(d)));
	}
	if (ri->respond)
		summary_respond_text(f, r, ri, dropped);
	else
		text_wave(f, r, ri, dropped);
	fprintf(f, "\nRT thread  %ld minor faults, %ld major faults, %ld involuntary context switches\n",
		ri->minflt, ri->majflt, ri->nivcsw);
	fprintf(f, "log        %s%s\n", ri->log_path ? OUTFILE_ESC(ri->log_path) : "-",
		ri->log_error ? "  (INCOMPLETE: I/O error)" : "");
	if (ri->breaks)
		fprintf(f, "breaks     %u trace%s saved; the first at %s\n           trace %s\n",
			ri->breaks, ri->breaks == 1 ? "" : "s", OUTFILE_ESC(ri->break_text),
			ri->break_trace[0] ? OUTFILE_ESC(ri->break_trace) : "(not saved)");
	if (config_int(c, CFG_TRACE_BREAK) && r->edges)
		text_break_cover(f, c, r, ri);

	if (ri->nphases)
		summary_phases_text(f, ri);
	else if (ri->run_proof)
		text_run_proof(f, ri);
	if (ri->loopback)
		loopreport_text(f, ri->loopback);
	fprintf(f, "\nverdict    %s%s%s\n", v->word,
		!v->violations && !v->limits_set ? " (no limits.* set: for a verdict, --tmin/--tmax or a profile's limits)" : "",
		!ri->rt_ok ? " (NON-RT RUN: not a real-time result)" : "");
	verdict_result_violations(v, text_violation, f);
}

void summary_print_text(FILE *f, const struct config *c, const struct edgestats *s,
			const struct run_info *ri)
{
	struct verdict_result v;
	char err[64];

	if (verdict_result_compute(&v, c, edgestats_result(s), ri, err, sizeof(err)) < 0) {
		fprintf(f, "\n==== sqwave summary ====\n\nverdict    NOT JUDGED (%s)\n", err);
		return;
	}
	summary_print_text_judged(f, c, s, ri, &v);
	verdict_result_free(&v);
}

/* ---- JSON ---- */

static void json_config(struct json_writer *w, const struct config *c)
{
	char name[128], buf[1024];
	int k;

	json_kv_object_begin(w, "config");
	for (k = 0; k < CFG_NKEYS; k++) {
		const struct cfg_item *it = &config_table[k];

		snprintf(name, sizeof(name), "%s.%s", it->section, it->name);
		json_kv_object_begin(w, name);
		json_key(w, "value");
		switch (it->type) {
		case CFG_T_BOOL:
			json_bool(w, config_bool(c, (enum cfg_key)k));
			break;
		case CFG_T_INT:
		case CFG_T_DURATION:
			json_int(w, config_int(c, (enum cfg_key)k));
			break;
		case CFG_T_DECIMAL:
			json_double(w, (double)config_int(c, (enum cfg_key)k) / (double)CFG_DECIMAL_ONE);
			break;
		default:
			json_string(w, config_str(c, (enum cfg_key)k));
			break;
		}
		json_kv_string(w, "text", config_format(c, (enum cfg_key)k, buf, sizeof(buf)));
		if (it->type == CFG_T_DURATION || it->type == CFG_T_INT)
			json_kv_string(w, "unit", it->type == CFG_T_DURATION ? "ns" : it->unit);
		json_kv_string(w, "origin", config_origin(c, (enum cfg_key)k, buf, sizeof(buf)));
		json_object_end(w);
	}
	json_object_end(w);
}

/* "proof": whether the run's idle and load were proven (docs/soak.md), and
 * for a run without phases its one sampling's figures. */
static void json_run_proof(struct json_writer *w, const struct run_info *ri)
{
	const struct run_phase *ph = ri->run_proof;
	const char *idle, *load;
	char cpus[256];

	verdict_run_proof_states(ri, &idle, &load);
	json_kv_object_begin(w, "proof");
	json_kv_string(w, "idle", idle);
	json_kv_string(w, "load", load);
	json_kv_string(w, "sampler", ri->sampler_sched && ri->sampler_sched[0] ? ri->sampler_sched
									      : NULL);
	if (ph && ph->proof && !ri->nphases) {
		const struct proof_req *q = verdict_phase_idle_req(ph);

		json_kv_uint(w, "samples", ph->proof->samples);
		if (ph->gaps_known)
			json_kv_uint(w, "max_gap_ns", ph->max_gap_ns);
		else
			json_kv_null(w, "max_gap_ns");
		json_kv_uint(w, "gap_bound_ns", ph->gap_bound_ns);
		if (q) {
			json_kv_string(w, "idle_cpus", cpulist_format(&q->cpus, cpus, sizeof(cpus)));
			json_kv_double(w, "idle_busy_pct", proof_phase_busy(ph->proof, &q->cpus));
			json_kv_int(w, "idle_max_busy_pct", q->max_busy);
		}
	}
	json_object_end(w);
}

/* "breaks": the --break traces, and every traced edge (warm-up edges never
 * are): compare wake_latency's worst. */
static void json_breaks(struct json_writer *w, const struct run_info *ri)
{
	size_t i;

	json_kv_object_begin(w, "breaks");
	json_kv_uint(w, "count", ri->breaks);
	json_kv_string(w, "first", ri->breaks ? ri->break_text : NULL);
	json_kv_string(w, "first_trace", ri->breaks && ri->break_trace[0] ? ri->break_trace : NULL);
	json_kv_string(w, "first_cause", ri->breaks && ri->break_cause[0] ? ri->break_cause : NULL);
	json_kv_array_begin(w, "traced");
	for (i = 0; i < ri->nbreak_hits; i++) {
		json_object_begin(w);
		json_kv_uint(w, "seq", ri->break_hits[i].seq);
		json_kv_string(w, "what", ri->break_hits[i].what == TRACEBREAK_WAKE ? "wake" : "width");
		json_kv_int(w, "value_ns", ri->break_hits[i].value_ns);
		json_kv_bool(w, "saved", ri->break_hits[i].saved);
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

/* "instrument": run --scope's notes as the log has them, each a member
 * of its key=value lines (docs/json-summary.md); the judgement of the
 * reading is the lab's, printed by run after the summary. */
static void json_note(struct json_writer *w, const char *key, const char *text)
{
	if (!text) {
		json_kv_null(w, key);
		return;
	}
	json_kv_object_begin(w, key);
	while (*text) {
		size_t n = strcspn(text, "\n"), k = strcspn(text, "=");

		if (k < n) {
			char name[64], value[512];

			snprintf(name, sizeof(name), "%.*s", (int)k, text);
			snprintf(value, sizeof(value), "%.*s", (int)(n - k - 1), text + k + 1);
			json_kv_string(w, name, value);
		}
		text += n + (text[n] == '\n');
	}
	json_object_end(w);
}

static void json_instrument(struct json_writer *w, const struct run_info *ri)
{
	if (!ri->instrument_note[0])
		return;	/* no --scope: no member */
	json_kv_object_begin(w, "instrument");
	json_note(w, "setup", ri->instrument_note[0]);
	json_note(w, "read", ri->instrument_note[1]);
	json_object_end(w);
}

/* One load of a phase's proof: what it had to show and what it showed. */
static void json_proof_load(struct json_writer *w, const struct proof_phase *p,
			    const struct proof_req *q)
{
	static const char *const kinds[] = { "none", "cpu", "net", "idle" };
	const struct proof_load_stat *st = NULL;
	char cpus[256];
	size_t j;

	for (j = 0; j < p->nloads; j++) {
		if (!strcmp(p->loads[j].name, q->name))
			st = &p->loads[j];
	}
	json_object_begin(w);
	json_kv_string(w, "name", q->name);
	json_kv_string(w, "proof", kinds[q->kind]);
	if (q->kind == LOAD_PROOF_IDLE) {
		json_kv_string(w, "cpus", cpulist_format(&q->cpus, cpus, sizeof(cpus)));
		json_kv_double(w, "busy_pct", proof_phase_busy(p, &q->cpus));
		json_kv_int(w, "max_busy_pct", q->max_busy);
		json_object_end(w);
		return;
	}
	if (q->kind == LOAD_PROOF_CPU) {
		enum proof_own_src src = PROOF_OWN_NONE;
		double own;

		json_kv_string(w, "cpus", cpulist_format(&q->cpus, cpus, sizeof(cpus)));
		json_kv_double(w, "busy_pct", proof_phase_busy(p, &q->cpus));
		own = proof_phase_own(p, q->name, &src);
		if (own >= 0) {
			json_kv_double(w, "own_busy_pct", own);
			json_kv_string(w, "own_source", proof_own_src_name(src));
		}
	}
	if (q->kind == LOAD_PROOF_NET) {
		json_kv_string(w, "interface", q->iface);
		json_kv_double(w, "packets_per_s", proof_phase_pps(p, q->iface));
		json_kv_int(w, "min_packets_per_s", q->min_pps);
	}
	if (q->results) {
		json_kv_uint(w, "valid_scores", st ? st->valid : 0);
		json_kv_uint(w, "runs_without_score", st ? st->invalid : 0);
		if (st && st->valid) {
			json_kv_double(w, "mean_score", st->score_sum / (double)st->valid);
			json_kv_double(w, "last_score", st->score_last);
		}
	}
	json_kv_uint(w, "restarts", st ? st->restarts : 0);
	json_kv_uint(w, "killed", st ? st->kills : 0);
	json_kv_bool(w, "lost", st && st->lost);
	if (st && st->lost) {
		json_kv_int(w, "lost_at_ns", (int64_t)st->lost_t_ns);
		json_kv_string(w, "lost_why", st->lost_why);
	}
	json_object_end(w);
}

/* A sampled phase's "proof": its state, the machine's figures, each load's. */
static void json_phase_proof(struct json_writer *w, const struct run_info *ri,
			     const struct run_phase *ph)
{
	const struct proof_phase *p = ph->proof;
	size_t k;

	json_kv_object_begin(w, "proof");
	json_kv_string(w, "state", verdict_phase_proof_state(ri, ph));
	json_kv_uint(w, "samples", p->samples);
	if (ph->gaps_known)
		json_kv_uint(w, "max_gap_ns", ph->max_gap_ns);
	else
		json_kv_null(w, "max_gap_ns");
	json_kv_uint(w, "gap_bound_ns", ph->gap_bound_ns);
	if (p->samples) {
		json_kv_double(w, "irq_per_s", p->irq_sum / (double)p->samples);
		json_kv_double(w, "ctxt_per_s", p->ctxt_sum / (double)p->samples);
		json_kv_double(w, "load1", p->load1_sum / (double)p->samples);
	}
	json_kv_array_begin(w, "cpu_busy_pct");
	for (k = 0; k < PROOF_MAX_CPUS; k++) {
		if (!p->busy_n[k])
			continue;
		json_object_begin(w);
		json_kv_uint(w, "cpu", k);
		json_kv_double(w, "busy_pct", p->busy_sum[k] / (double)p->busy_n[k]);
		json_object_end(w);
	}
	json_array_end(w);
	json_kv_array_begin(w, "interfaces");
	for (k = 0; k < p->nif; k++) {
		json_object_begin(w);
		json_kv_string(w, "name", p->ifname[k]);
		json_kv_double(w, "packets_per_s",
			       p->pps_n[k] ? p->pps_sum[k] / (double)p->pps_n[k] : 0);
		json_object_end(w);
	}
	json_array_end(w);
	json_kv_array_begin(w, "loads");
	for (k = 0; k < ph->nreqs; k++)
		json_proof_load(w, p, &ph->reqs[k]);
	json_array_end(w);
	json_object_end(w);
}

/* Phase @i of @ri: its statistics, loads, proof and proof's failures. */
static void json_phase(struct json_writer *w, const struct run_info *ri, size_t i)
{
	const struct run_phase *ph = &ri->phases[i];
	const struct edgestats_result *r = ph->stats ? edgestats_result(ph->stats) : NULL;
	const struct proof_phase *p = ph->proof;
	char why[2048] = "", *line, *save;
	size_t j;

	json_object_begin(w);
	json_kv_string(w, "name", ph->name);
	json_kv_int(w, "start_off_ns", ph->start_off_ns);
	json_kv_int(w, "duration_ns", ph->duration_ns);
	json_kv_int(w, "ran_ns", phase_ran_ns(ri, i));
	if (r) {
		json_kv_object_begin(w, "counts");
		json_kv_uint(w, "edges", r->edges);
		json_kv_uint(w, "missed_periods", r->missed_periods);
		json_kv_uint(w, "seq_gaps", r->seq_gaps);
		json_object_end(w);
		statsjson_dist_worst(w, "wake_latency", &r->wake, &r->wake_worst);
		statsjson_pulses_and_period(w, r);
		if (r->respond) {	/* the phase's answers, for report's rows */
			json_kv_object_begin(w, "respond");
			json_kv_uint(w, "answers", r->answers);
			json_kv_uint(w, "events_lost", r->missed_periods);
			statsjson_dist_worst(w, "event_to_write_end", &r->resp_end,
					     &r->resp_worst);
			json_object_end(w);
		}
	}
	json_kv_array_begin(w, "loads");
	for (j = 0; j < ph->nloads; j++)
		json_string(w, ph->load_specs[j]);
	json_array_end(w);
	if (p && ph->sampled)
		json_phase_proof(w, ri, ph);
	if (ph->nreqs && p && !ph->advisory) {
		proof_phase_judge(p, ph->reqs, ph->nreqs, ri->min_busy_pct, why, sizeof(why));
		if (ph->gaps_known)
			proof_gap_judge(ph->max_gap_ns, ph->gap_bound_ns, why, sizeof(why));
	}
	json_kv_array_begin(w, "load_not_applied");
	for (line = strtok_r(why, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		json_string(w, line);
	json_array_end(w);
	json_object_end(w);
}

/* rt.idle_states: per CPU, each state's exit latency and what the run did
 * to it, all read back from sysfs (docs/json-summary.md); null with keep. */
static void json_idle_states(struct json_writer *w, const struct config *c,
			     const struct run_info *ri)
{
	static const char *const actions[] = { "kept", "disabled", "was_disabled" };
	const struct cpuidle_cpu_result *res;
	char lim[48];
	size_t n, i;
	int k;

	if (!ri->idle) {
		json_kv_null(w, "idle_states");
		return;
	}
	res = cpuidle_hold_results(ri->idle, &n);
	json_kv_object_begin(w, "idle_states");
	json_kv_string(w, "limit", cpuidle_limit_format(cpuidle_hold_limit(ri->idle), lim,
							 sizeof(lim)));
	json_kv_string(w, "cpus", config_str(c, CFG_RT_IDLE_CPUS));
	json_kv_array_begin(w, "per_cpu");
	for (i = 0; i < n; i++) {
		const struct cpuidle_cpu_result *r = &res[i];

		if (ri->idle_own_cpu && r->before.cpu != ri->idle_cpu)
			continue;	/* another line's CPU */
		json_object_begin(w);
		json_kv_int(w, "cpu", r->before.cpu);
		json_kv_int(w, "deepest", r->deepest);
		json_kv_array_begin(w, "states");
		for (k = 0; k < r->before.nstates; k++) {
			const struct cpuidle_state *st = &r->before.st[k];

			json_object_begin(w);
			json_kv_int(w, "index", k);
			json_kv_string(w, "name", st->name);
			json_kv_int(w, "latency_us", st->latency_us);
			json_kv_int(w, "residency_us", st->residency_us);
			json_kv_string(w, "action", actions[r->action[k]]);
			json_object_end(w);
		}
		json_array_end(w);
		json_kv_int(w, "disabled", r->ndisabled);
		json_kv_bool(w, "restricted", r->restricted);
		if (cpuidle_hold_released(ri->idle) && r->ndisabled)
			json_kv_bool(w, "restored", r->restored);
		else
			json_kv_null(w, "restored");
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

/* "phases": each phase's statistics and load proof (docs/json-summary.md). */
void summary_phases_json(struct json_writer *w, const struct run_info *ri)
{
	size_t i;

	json_kv_string(w, "label", ri->label);
	json_kv_string(w, "containment", ri->containment);
	json_breaks(w, ri);
	json_run_proof(w, ri);
	json_kv_array_begin(w, "phases");
	for (i = 0; i < ri->nphases; i++)
		json_phase(w, ri, i);
	json_array_end(w);
}

static void json_violation(void *ctx, const char *msg)
{
	json_string(ctx, msg);
}

/* A figure in its unit: durations and counts are integers in JSON. */
static void json_figure(struct json_writer *w, const char *key, bool has, double v,
			enum verdict_unit u)
{
	if (!has)
		json_kv_null(w, key);
	else if (u == VERDICT_UNIT_NS || u == VERDICT_UNIT_COUNT)
		json_kv_int(w, key, (int64_t)llround(v));
	else
		json_kv_double(w, key, round(v * 1000) / 1000);
}

/* One entry of verdict.checks (docs/json-summary.md). */
static void json_check(struct json_writer *w, const struct verdict_check *ck)
{
	if (!ck->in_verdict)
		return;
	json_object_begin(w);
	json_kv_string(w, "name", ck->name);
	json_kv_string(w, "result", verdict_check_result_name(ck->result));
	json_kv_string(w, "key", ck->key);
	json_kv_string(w, "phase", ck->phase);
	json_kv_string(w, "load", ck->load);
	json_kv_string(w, "instrument", ck->instrument);
	json_kv_string(w, "unit", ck->unit ? verdict_unit_name(ck->unit) : NULL);
	json_figure(w, "observed", ck->has_observed, ck->observed, ck->unit);
	json_figure(w, "limit", ck->has_limit, ck->limit, ck->unit);
	json_kv_string(w, "bound", !ck->has_limit ? NULL : ck->limit_is_min ? "min" : "max");
	json_figure(w, "estimate", ck->has_estimate, ck->estimate, ck->unit);
	if (ck->has_interval) {	/* an instrument's reading: where it had to lie */
		json_kv_object_begin(w, "interval");
		json_figure(w, "lo", true, ck->lo, ck->unit);
		json_figure(w, "hi", true, ck->hi, ck->unit);
		json_object_end(w);
	} else {
		json_kv_null(w, "interval");
	}
	if (ck->has_edge) {
		json_kv_uint(w, "seq", ck->seq);
		json_kv_uint(w, "intended_ns", ck->intended_ns);
		json_kv_double(w, "t_s", round(ck->t_s * 1e9) / 1e9);
	} else {
		json_kv_null(w, "seq");
		json_kv_null(w, "intended_ns");
		json_kv_null(w, "t_s");
	}
	json_kv_string(w, "message", ck->message);
	json_object_end(w);
}

/* "respond": what was answered, the latencies from the event, the scope's
 * bounds (text_respond_scope() says how they follow). */
void summary_respond_json(struct json_writer *w, const struct edgestats_result *r,
			  const struct run_info *ri)
{
	json_kv_object_begin(w, "respond");
	json_kv_string(w, "mode", ri->respond_mode);
	json_kv_string(w, "edge", ri->respond_edge);
	json_kv_string(w, "input", ri->input_desc);
	json_kv_string(w, "event_clock", ri->event_clock);
	json_kv_int(w, "debounce_ns", ri->debounce_ns);
	json_kv_int(w, "pulse_width_ns", ri->respond_pulse_ns);
	json_kv_uint(w, "answers", r->answers);
	json_kv_uint(w, "writes", r->edges);
	json_kv_uint(w, "rewrites", r->level_repeats);
	json_kv_uint(w, "events_lost", r->missed_periods);
	json_kv_uint(w, "events_lost_warmup", r->warmup_missed_periods);
	if (r->respond_end)
		json_kv_uint(w, "events_unanswered", r->unanswered);
	else
		json_kv_null(w, "events_unanswered");
	statsjson_dist_worst(w, "event_to_write_begin", &r->resp_begin, &r->resp_worst);
	statsjson_dist_worst(w, "event_to_write_end", &r->resp_end, &r->resp_worst);
	json_kv_object_begin(w, "scope");
	json_kv_uint(w, "answers", r->scope_answers);
	if (r->scope_answers)
		json_kv_int(w, "min_ns", r->scope_lo_ns + ri->debounce_ns);
	else
		json_kv_null(w, "min_ns");
	if (ri->irq_bound_ns > 0 && r->scope_answers)
		json_kv_int(w, "max_ns", r->scope_hi_ns + ri->debounce_ns + ri->irq_bound_ns);
	else
		json_kv_null(w, "max_ns");
	json_kv_int(w, "debounce_ns", ri->debounce_ns);
	json_kv_int(w, "irq_bound_ns", ri->irq_bound_ns);
	json_kv_string(w, "derivation", "input edge (the input's last change before its event) "
		       "-> output edge, over the answers that changed the output: at least "
		       "write_begin - event + debounce_ns (the output changes inside its write "
		       "window; the kernel stamps the event no sooner than the input's last change "
		       "+ the debounce period); at most write_end - event + debounce_ns + "
		       "irq_bound_ns (how much later the kernel may stamp it: the input's interrupt "
		       "latency, and how late the debounce timer and work ran), none when "
		       "irq_bound_ns is 0");
	json_object_end(w);
	json_object_end(w);
}

/* "verdict": the word, the violations and the checks of @v, the phases'
 * own figures left out (in_verdict: they are the JUnit's). */
static void json_verdict(struct json_writer *w, const struct verdict_result *v)
{
	size_t i;

	json_kv_object_begin(w, "verdict");
	json_kv_bool(w, "pass", v->violations == 0);
	json_kv_string(w, "result", v->word);
	json_kv_bool(w, "limits_set", v->limits_set);
	json_kv_bool(w, "load_applied", v->load_failures == 0);
	json_kv_array_begin(w, "violations");
	verdict_result_violations(v, json_violation, w);
	json_array_end(w);
	json_kv_array_begin(w, "checks");
	for (i = 0; i < v->nchecks; i++)
		json_check(w, &v->checks[i]);
	json_array_end(w);
	json_object_end(w);
}

static void json_summary(struct json_writer *w, const struct config *c,
			 const struct edgestats_result *r, const struct run_info *ri,
			 const struct verdict_result *v)
{
	const struct sysinfo_host *h = &ri->host;
	struct wave wv;
	int64_t jhalf;
	bool jshaped = summary_wave(ri, &wv, &jhalf);

	json_object_begin(w);
	json_kv_string(w, "schema", SUMMARY_SCHEMA);
	json_kv_int(w, "schema_version", SUMMARY_SCHEMA_VERSION);
	json_kv_string(w, "sqwave_version", SQW_VERSION);

	json_verdict(w, v);

	json_kv_object_begin(w, "board");
	json_kv_string(w, "name", config_str(c, CFG_BOARD_NAME));
	json_kv_string(w, "file", ri->board_file);
	json_kv_string(w, "gpio", ri->gpio_desc);
	json_object_end(w);
	if (ri->line_count > 1) {	/* one of several lines (docs/lines.md) */
		json_kv_object_begin(w, "line");
		json_kv_string(w, "name", ri->line_name);
		json_kv_uint(w, "index", ri->line_index);
		json_kv_uint(w, "count", ri->line_count);
		json_kv_string(w, "mode", ri->lines_mode);
		if (ri->rt_cpu >= 0)	/* the CPU its RT thread was pinned to */
			json_kv_int(w, "cpu", ri->rt_cpu);
		else
			json_kv_null(w, "cpu");
		json_object_end(w);
	}
	json_kv_string(w, "profile_file", ri->profile_file);

	json_kv_object_begin(w, "host");
	json_kv_string(w, "hostname", h->hostname);
	json_kv_string(w, "kernel_release", h->kernel_release);
	json_kv_string(w, "kernel_version", h->kernel_version);
	json_kv_string(w, "machine", h->machine);
	json_kv_bool(w, "preempt_rt", h->preempt_rt);
	json_kv_string(w, "cmdline", h->cmdline);
	json_kv_string(w, "cpu_model", h->cpu_model);
	json_kv_int(w, "ncpus", h->ncpus);
	json_object_end(w);

	json_kv_object_begin(w, "rt");
	json_kv_bool(w, "ok", ri->rt_ok);
	json_kv_string(w, "non_rt_reason", ri->rt_ok ? NULL : ri->non_rt_reason);
	json_idle_states(w, c, ri);
	json_timerlat(w, c, ri->timerlat);
	json_object_end(w);

	summary_grid_json(w, ri->grid);
	json_instrument(w, ri);

	json_key(w, "pin");
	pin_json_write(w, &ri->pin);

	json_kv_object_begin(w, "run");
	if (ri->pin.kind == PIN_RESPOND)	/* answers to an input: no grid, no period */
		json_kv_null(w, "half_period_ns");
	else
		json_kv_int(w, "half_period_ns", jhalf);
	if (!ri->respond && jshaped) {	/* not a plain 50 % wave: its shape */
		json_kv_int(w, "high_ns", wv.high_ns);
		json_kv_int(w, "low_ns", wv.low_ns);
		json_kv_int(w, "phase_ns", wv.phase_ns);
	}
	json_kv_uint(w, "start_realtime_ns", ri->start_realtime_ns);
	json_kv_uint(w, "end_realtime_ns", ri->end_realtime_ns);
	json_kv_int(w, "duration_ns", (int64_t)(ri->end_realtime_ns - ri->start_realtime_ns));
	json_kv_string(w, "stop_reason", edgelog_stop_name(ri->stop_reason));
	if (ri->stop_reason == EDGELOG_STOP_SIGNAL && ri->stop_signal > 0)
		json_kv_int(w, "stop_signal", ri->stop_signal);
	else
		json_kv_null(w, "stop_signal");
	json_kv_string(w, "log_path", ri->log_path);
	json_kv_bool(w, "log_error", ri->log_error);
	json_kv_uint(w, "first_intended_ns", r->first_intended_ns);
	json_kv_string(w, "spin", ri->spin_auto ? "auto" : ri->spin_lead_ns ? "fixed" : "off");
	json_kv_int(w, "spin_lead_ns", ri->spin_lead_ns);
	json_kv_int(w, "spin_lead_min_ns", ri->spin_lead_min_ns);
	json_kv_int(w, "spin_lead_max_ns", ri->spin_lead_max_ns);
	json_kv_uint(w, "spin_rearms", ri->spin_rearms);
	json_object_end(w);

	json_kv_object_begin(w, "counts");
	json_kv_uint(w, "records_logged", ri->records_logged);
	json_kv_uint(w, "records_seen", r->records);
	json_kv_uint(w, "edges", r->edges);
	json_kv_uint(w, "warmup_edges", r->warmup_edges);
	json_kv_uint(w, "missed_periods", r->missed_periods);
	json_kv_uint(w, "warmup_missed_periods", r->warmup_missed_periods);
	json_kv_uint(w, "dropped", ri->dropped);
	json_kv_uint(w, "seq_gaps", r->seq_gaps);
	json_kv_uint(w, "gap_events", r->gap_events);
	json_kv_uint(w, "largest_gap", r->largest_gap);
	if (r->gap_events)
		statsjson_where(w, "first_gap", &r->first_gap);
	else
		json_kv_null(w, "first_gap");
	json_kv_uint(w, "write_errors", max_u64(ri->write_errors, r->write_errors));
	json_kv_uint(w, "saturated", r->saturated);
	json_kv_uint(w, "level_repeats", r->level_repeats);
	json_kv_uint(w, "pulses_skipped", r->pulses_skipped);
	json_object_end(w);

	statsjson_dist_worst(w, "wake_latency", &r->wake, &r->wake_worst);

	statsjson_dist_worst(w, "write_cost", &r->write, &r->write_worst);

	statsjson_placement_and_spin(w, r);

	statsjson_pulses_and_period(w, r);

	if (ri->respond)
		summary_respond_json(w, r, ri);
	else
		json_kv_null(w, "respond");

	json_kv_object_begin(w, "rusage");
	json_kv_int(w, "minflt", ri->minflt);
	json_kv_int(w, "majflt", ri->majflt);
	json_kv_int(w, "nivcsw", ri->nivcsw);
	json_object_end(w);

	summary_phases_json(w, ri);
	loopreport_json(w, "loopback", ri->loopback);
	json_config(w, c);
	json_object_end(w);
}

struct summary_doc {
	const struct config *c;
	const struct edgestats_result *r;
	const struct run_info *ri;
	const struct verdict_result *v;
};

static void summary_doc(struct json_writer *w, const void *ctx)
{
	const struct summary_doc *d = ctx;

	json_summary(w, d->c, d->r, d->ri, d->v);
}

int summary_write_json_judged(const char *path, const struct config *c,
			      const struct edgestats *s, const struct run_info *ri,
			      const struct verdict_result *v, char *err, size_t errlen)
{
	const struct summary_doc d = { c, edgestats_result(s), ri, v };

	return json_write_document(path, summary_doc, &d, err, errlen);
}

int summary_write_json(const char *path, const struct config *c, const struct edgestats *s,
		       const struct run_info *ri, char *err, size_t errlen)
{
	struct verdict_result v;
	int ret;

	if (verdict_result_compute(&v, c, edgestats_result(s), ri, err, errlen) < 0)
		return -1;
	ret = summary_write_json_judged(path, c, s, ri, &v, err, errlen);
	verdict_result_free(&v);
	return ret;
}
