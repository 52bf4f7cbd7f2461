/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The documents of a respond log checked against a capture of its input
 * and output pins: the text report and the JSON (docs/compare.md). */
#include "compare/respdoc.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "compare/comparedoc.h"

static const char *const mode_name[] = { "follow", "toggle", "pulse" };
static const char *const edge_name[] = { "both", "rising", "falling" };

/* The answer status bits, in the order of respcompare.h, as words. */
static const char *const status_word[8] = {
	"uncovered", "no-change", "no-stimulus", "no-response", "early", "late",
	"irq-negative", "outside-window",
};

static void status_words(char *buf, size_t len, unsigned st)
{
	size_t at = 0;

	buf[0] = 0;
	for (unsigned b = 0; b < 8; b++)
		if (st & (1u << b) & RESPCMP_A_BAD) {
			int n = snprintf(buf + at, len - at, "%s%s", at ? "," : "", status_word[b]);

			if (n < 0 || (size_t)n >= len - at)
				break;
			at += (size_t)n;
		}
}

/* @ns in us for a table, "-" when not measured or unbounded. */
static const char *us(char buf[32], double ns)
{
	if (isnan(ns) || isinf(ns))
		snprintf(buf, 32, "-");
	else
		snprintf(buf, 32, "%.3f", ns / 1000);
	return buf;
}

static void print_dist(FILE *f, const char *what, const struct respcmp_dist *d)
{
	if (!d->n) {
		fprintf(f, "           %s: none measured\n", what);
		return;
	}
	fprintf(f, "           %s, us (%zu):\n", what, d->n);
	fprintf(f, "             min %.3f  p50 %.3f  p99 %.3f  max %.3f\n", d->min / 1000,
		   d->p50 / 1000, d->p99 / 1000, d->max / 1000);
}

static void print_verdict(FILE *f, const struct respcmp *c)
{
	fprintf(f, "\nverdict    %s", c->verdict == COMPARE_AGREE ? "AGREE" : "DISAGREE");
	if (c->verdict != COMPARE_AGREE) {
		const char *sep = " (";

		if (c->bad) {
			fprintf(f, "%s%zu answer%s", sep, c->bad, c->bad == 1 ? "" : "s");
			sep = ", ";
		}
		if (c->stim_unexplained) {
			fprintf(f, "%s%zu stimulus edges without an event", sep, c->stim_unexplained);
			sep = ", ";
		}
		if (c->resp_extra) {
			fprintf(f, "%s%zu response edges without a write", sep, c->resp_extra);
			sep = ", ";
		}
		if (c->resp_missing) {
			fprintf(f, "%s%zu writes missing in the capture", sep, c->resp_missing);
			sep = ", ";
		}
		if (strcmp(sep, " ("))
			fprintf(f, ")");
	}
	fprintf(f, "\n");
}

void respdoc_print_text(FILE *f, const struct respdoc *x)
{
	const struct respcmp_run *run = x->run;
	const struct respcmp *c = run->c;
	const struct respcmp_map *r = &c->m;
	double dt = (double)c->resolution_ps / 1000;
	size_t listed = 0;

	fprintf(f, "==== sqwave compare ====\n");
	fprintf(f, "run        %s: respond log, %zu records, %zu answers (mode %s, edge %s, "
		   "debounce %.3f us, irq_bound %.3f us)%s\n", x->o->run, c->nrec, c->nans,
		   mode_name[c->p.mode], edge_name[c->p.edge], (double)c->p.debounce_ns / 1000,
		   (double)c->p.irq_bound_ns / 1000, run->truncated ? " (log truncated)" : "");
	fprintf(f, "capture    %s (%s): stimulus %s (%zu edges), response %s (%zu edges)\n",
		   strcmp(x->o->capture, "-") ? x->o->capture : "<stdin>", run->capture_format,
		   run->stim_name, c->nstim, run->resp_name, c->nresp);
	fprintf(f, "           sample interval %.3f ns, span %.9f .. %.9f s\n", dt,
		   capture_ps_to_s(c->span_lo_ps), capture_ps_to_s(c->span_hi_ps));
	if (!c->aligned) {
		fprintf(f, "mapping    %s: the response channel matches %s\n",
			   c->verdict == COMPARE_TOO_FEW ? "impossible" : "NO OVERLAP",
			   c->verdict == COMPARE_TOO_FEW ? "too few of the log's writes (3 edges needed)"
							 : "no part of the log's writes (is --response the output pin?)");
		fprintf(f, "\nverdict    %s\n", c->verdict == COMPARE_TOO_FEW ? "UNDECIDED" : "DISAGREE");
		return;
	}
	fprintf(f, "mapping    the response channel's %zu edges against the log's %zu level-changing "
		   "writes:\n           %s;\n           then paired in order within their write windows, "
		   "offset and drift fitted again\n", c->nresp, c->nwant,
		   c->by_order ? "placed by order from the first write (their spacing is too regular to "
				 "place; if the capture began later, give --first-seq)"
			       : "placed by their spacing (the window search of a wave's compare)");
	fprintf(f, "           capture t = %.3f ns + (1 %+.3f ppm) x (log t - %" PRId64 " ns)\n",
		   r->offset_ns, r->drift_ppm, r->ref_ns);
	fprintf(f, "           fit rms %.1f ns about the windows' midpoints over %zu edges "
		   "(%zu left out);\n"
		   "           tolerance %.1f ns (sample interval or --tolerance + 4 x fit error %.1f ns);\n"
		   "           %zu of %zu paired response edges outside their write window by more\n"
		   "           than the tolerance and place_ns (below: where in its window the pin changed);\n"
		   "           residual (response edge - its write window) at most %.1f ns\n",
		   r->fit_rms_ns, r->inliers, r->outliers, r->tolerance_ns, r->fit_se_ns, r->disagree,
		   r->npairs, r->max_abs_res_ns);
	fprintf(f, "answers    %zu checked, %zu outside the capture's span; %zu disagree", c->checked,
		   c->nans - c->checked, c->bad);
	if (c->bad) {
		const char *sep = " (";

		for (unsigned b = 0; b < 8; b++)
			if (c->bad_by[b]) {
				fprintf(f, "%s%s %zu", sep, status_word[b], c->bad_by[b]);
				sep = ", ";
			}
		fprintf(f, ")");
	}
	fprintf(f, "\n");
	print_dist(f, "delay: stimulus edge -> response edge, the capture's, on the log's clock",
		   &c->delay);
	print_dist(f, c->p.debounce_ns > 0 ? "IRQ latency: the stimulus's last change + debounce -> "
		   "the kernel's timestamp (log clock)"
		   : "IRQ latency: stimulus edge -> the kernel's timestamp (log clock)", &c->irq);
	if (c->irq.n)
		fprintf(f, "           respond.irq_bound should be set from this: at least %.3f us (the max)\n",
			   c->irq.max / 1000);
	fprintf(f, "           bounds: delay >= write_begin - event%s - %.3f ns (one sample); ",
		   c->p.debounce_ns > 0 ? " + debounce + the burst's span" : "", dt);
	if (c->p.irq_bound_ns > 0)
		fprintf(f, "<= write_end - event%s + irq_bound + %.3f ns\n",
			   c->p.debounce_ns > 0 ? " + debounce + the burst's span" : "", dt);
	else
		fprintf(f, "no upper bound (irq_bound 0)\n");
	fprintf(f, "           IRQ latency >= -%.1f ns (the tolerance, and %.1f ns: half the "
		   "median write\n"
		   "           window, where in its window the pin changed is not in the log)\n",
		   r->tolerance_ns + r->place_ns, r->place_ns);
	fprintf(f, "stimulus   %zu edges: %zu caused an answer, %zu lost by the kernel (the log's seqno\n"
		   "           gaps: %zu events), %zu filtered by respond.edge, %zu inside debounce bursts,\n"
		   "           %zu before the first or after the last answer, %zu the log has no event for\n",
		   c->nstim, c->stim_cause, c->stim_lost_kernel, c->kernel_lost, c->stim_filtered_edge,
		   c->stim_filtered_debounce, c->stim_outside, c->stim_unexplained);
	/* the run's own view, from its log: what a scope may show, and the
	 * events it never answered, beside what this capture shows */
	if (c->scope_answers) {
		fprintf(f, "scope      the log's bounds, input edge (its last change) -> output edge, over "
			   "%zu counted answers that changed the output: at least %.3f us, ",
			   c->scope_answers, (double)c->scope_min_ns / 1000);
		if (c->p.irq_bound_ns > 0)
			fprintf(f, "at most %.3f us\n", (double)c->scope_max_ns / 1000);
		else
			fprintf(f, "no upper bound (irq_bound 0)\n");
	}
	if (run->have_stop)
		fprintf(f, "events     lost %" PRIu64 " (%" PRIu64 " more in the warm-up), unanswered %"
			   PRIu64 " (still queued at the stop: no answer to compare), as the run "
			   "counted them\n", run->events_lost, run->events_lost_warmup,
			   run->events_unanswered);
	else
		fprintf(f, "events     lost and unanswered not known: the log has no note of the stop\n");
	fprintf(f, "counts     events without a stimulus edge %zu, answers without a response edge %zu,\n"
		   "           response edges without a write %zu, writes (answers or not) missing in "
		   "the capture %zu\n", c->events_no_stim, c->answers_no_resp, c->resp_extra,
		   c->resp_missing);
	for (size_t a = 0; a < c->nans && listed < x->worst; a++) {
		const struct respcmp_answer *an = &c->ans[a];
		char words[160], d[4][32];

		if (!(an->status & RESPCMP_A_BAD))
			continue;
		if (!listed++)
			fprintf(f, "\ndisagreeing answers (first %u)\n    %10s %12s %12s %12s %12s  %s\n",
				   x->worst, "seq", "delay us", "lo us", "hi us", "irq us", "why");
		status_words(words, sizeof(words), an->status);
		fprintf(f, "    %10" PRIu64 " %12s %12s %12s %12s  %s\n", an->seq, us(d[0], an->delay_ns),
			   us(d[1], an->lo_ns), us(d[2], an->hi_ns), us(d[3], an->irq_ns), words);
	}
	print_verdict(f, c);
}

static void jns(struct json_writer *w, const char *key, double ns)
{
	if (isnan(ns) || isinf(ns))
		json_kv_null(w, key);
	else
		json_kv_double(w, key, round(ns * 1000) / 1000);
}

static void json_dist(struct json_writer *w, const char *key, const struct respcmp_dist *d)
{
	json_kv_object_begin(w, key);
	json_kv_uint(w, "count", d->n);
	if (d->n) {
		jns(w, "min_ns", d->min);
		jns(w, "p50_ns", d->p50);
		jns(w, "p99_ns", d->p99);
		jns(w, "max_ns", d->max);
	}
	json_object_end(w);
}

static void json_respond(struct json_writer *w, const struct respdoc *x)
{
	const struct respcmp *c = x->run->c;
	size_t listed = 0;

	json_kv_object_begin(w, "respond");
	json_kv_string(w, "mode", mode_name[c->p.mode]);
	json_kv_string(w, "edge", edge_name[c->p.edge]);
	json_kv_int(w, "debounce_ns", c->p.debounce_ns);
	json_kv_int(w, "irq_bound_ns", c->p.irq_bound_ns);
	json_kv_string(w, "stimulus_channel", x->run->stim_name);
	json_kv_uint(w, "stimulus_edges", c->nstim);
	json_kv_string(w, "response_channel", x->run->resp_name);
	json_kv_uint(w, "response_edges", c->nresp);
	json_kv_uint(w, "expected_response_edges", c->nwant);
	json_kv_bool(w, "paired_by_order", c->by_order);
	json_kv_uint(w, "answers", c->nans);
	json_kv_uint(w, "checked", c->checked);
	json_kv_uint(w, "disagree", c->bad);
	json_dist(w, "delay", &c->delay);
	json_dist(w, "irq_latency", &c->irq);
	json_kv_object_begin(w, "stimulus");
	json_kv_uint(w, "cause", c->stim_cause);
	json_kv_uint(w, "lost_by_kernel", c->stim_lost_kernel);
	json_kv_uint(w, "kernel_lost_events", c->kernel_lost);
	json_kv_uint(w, "filtered_by_edge", c->stim_filtered_edge);
	json_kv_uint(w, "filtered_by_debounce", c->stim_filtered_debounce);
	json_kv_uint(w, "outside_answers", c->stim_outside);
	json_kv_uint(w, "without_event", c->stim_unexplained);
	json_object_end(w);
	json_kv_object_begin(w, "scope");	/* the run summary's bounds, from the log */
	json_kv_uint(w, "answers", c->scope_answers);
	if (c->scope_answers)
		json_kv_int(w, "min_ns", c->scope_min_ns);
	else
		json_kv_null(w, "min_ns");
	if (c->scope_answers && c->p.irq_bound_ns > 0)
		json_kv_int(w, "max_ns", c->scope_max_ns);
	else
		json_kv_null(w, "max_ns");
	json_object_end(w);
	if (x->run->have_stop) {
		json_kv_uint(w, "events_lost", x->run->events_lost);
		json_kv_uint(w, "events_lost_warmup", x->run->events_lost_warmup);
		json_kv_uint(w, "events_unanswered", x->run->events_unanswered);
	} else {
		json_kv_null(w, "events_lost");
		json_kv_null(w, "events_lost_warmup");
		json_kv_null(w, "events_unanswered");
	}
	json_kv_uint(w, "events_without_stimulus", c->events_no_stim);
	json_kv_uint(w, "answers_without_response", c->answers_no_resp);
	json_kv_uint(w, "response_edges_without_write", c->resp_extra);
	json_kv_uint(w, "writes_missing_in_capture", c->resp_missing);
	json_kv_array_begin(w, "disagreeing");
	for (size_t a = 0; a < c->nans && listed < x->worst; a++) {
		const struct respcmp_answer *an = &c->ans[a];

		if (!(an->status & RESPCMP_A_BAD))
			continue;
		listed++;
		json_object_begin(w);
		json_kv_uint(w, "seq", an->seq);
		jns(w, "delay_ns", an->delay_ns);
		jns(w, "lo_ns", an->lo_ns);
		jns(w, "hi_ns", an->hi_ns);
		jns(w, "irq_ns", an->irq_ns);
		json_kv_array_begin(w, "why");
		for (unsigned b = 0; b < 8; b++)
			if (an->status & (1u << b) & RESPCMP_A_BAD)
				json_string(w, status_word[b]);
		json_array_end(w);
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

/* The response channel's alignment, as every compare document states one. */
static void alignment_of(const struct respcmp *c, struct comparedoc_alignment *a)
{
	const struct respcmp_map *r = &c->m;

	*a = (struct comparedoc_alignment){
		.form = COMPAREDOC_RESPOND, .w = &c->w, .aligned = c->aligned,
		.first_seq_given = c->p.first_seq, .verdict = compare_verdict_name(c->verdict),
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
	a->place_ns = r->place_ns;
	a->inliers = r->inliers;
	a->outliers = r->outliers;
	a->paired = r->npairs;
	a->missing = r->nmissing;
	a->extra = r->nextra;
	a->disagree = r->disagree;
	a->max_abs_res_ns = r->max_abs_res_ns;
}

void respdoc_json(struct json_writer *w, const void *respdoc)
{
	const struct respdoc *x = respdoc;
	const struct respcmp *c = x->run->c;
	struct comparedoc_alignment a;

	json_object_begin(w);
	json_kv_string(w, "schema", COMPARE_SCHEMA);
	json_kv_int(w, "schema_version", COMPARE_SCHEMA_VERSION);
	json_kv_object_begin(w, "run");
	json_kv_string(w, "path", x->o->run);
	json_kv_string(w, "mode", "respond");
	json_kv_uint(w, "records", c->nrec);
	json_kv_bool(w, "truncated", x->run->truncated);
	json_kv_uint(w, "half_period_ns", x->run->half_period_ns);
	json_object_end(w);
	/* the response channel is the one lined up with the log, as compare's
	 * one channel is for a wave */
	json_kv_object_begin(w, "capture");
	json_kv_string(w, "path", strcmp(x->o->capture, "-") ? x->o->capture : "<stdin>");
	json_kv_string(w, "format", x->run->capture_format);
	json_kv_string(w, "channel", x->run->resp_name);
	json_kv_uint(w, "edges", c->nresp);
	json_kv_double(w, "resolution_ns", capture_ps_to_ns(c->resolution_ps));
	json_kv_double(w, "start_s", capture_ps_to_s(c->span_lo_ps));
	json_kv_double(w, "end_s", capture_ps_to_s(c->span_hi_ps));
	json_object_end(w);
	alignment_of(c, &a);
	comparedoc_json_alignment(w, &a);
	if (c->aligned)
		json_respond(w, x);
	json_kv_string(w, "verdict", compare_verdict_name(c->verdict));
	json_kv_int(w, "exit_code", compare_verdict_exit(c->verdict));
	json_object_end(w);
}
