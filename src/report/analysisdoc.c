/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The documents of an analysis: the text report, the JSON document
 * (schema sqwave-analysis, docs/analyze.md) and the per-edge CSV, and the
 * session that reads one source into them as `sqwave analyze` does. */
#include "report/analysisdoc.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/loopstats.h"
#include "base/wave.h"
#include "base/exitcode.h"
#include "base/json.h"
#include "base/msgbuf.h"
#include "base/outfile.h"
#include "base/units.h"
#include "config/config.h"
#include "report/loopreport.h"
#include "report/tlatreport.h"
#include "report/soakview.h"
#include "report/statsjson.h"
#include "report/summary.h"

#define ANALYSIS_SCHEMA "sqwave-analysis"
#define ANALYSIS_SCHEMA_VERSION 1
#define TEXT_TIMELINE_ROWS 60    /* longer timelines are merged for the terminal */

/* ---- formatting (as in the run summary: us with 3 decimals, exact) ---- */

static bool is_capture(const struct analysis *a)
{
	return a->src->kind == ANALYZE_SRC_CAPTURE;
}

/* A respond log (its pin's kind): a run of its own kind, its answers and
 * the output's pulses, never a wave's half period, period or duty cycle. */
static bool is_respond(const struct analysis *a)
{
	return a->src->pin.kind == PIN_RESPOND;
}

/* Where an edge is, in the terms the user searches by: the capture's own
 * time base for a capture, seconds since the first edge otherwise. */
static const char *when(const struct analysis *a, uint64_t intended, char *buf, size_t len)
{
	if (is_capture(a))
		snprintf(buf, len, "t=%.9f s",
			 (double)(a->src->capture_start_ns + (int64_t)intended) / 1e9);
	else
		snprintf(buf, len, "t+%.6f s",
			 (double)(int64_t)(intended - analysis_stats(a)->first_intended_ns) / 1e9);
	return buf;
}

#define WHEN(a, t) when((a), (t), (char[48]){ 0 }, 48)

/* The same in ns, as the JSON's t_ns: the capture's time base, or from the
 * first edge (the document's one origin, docs/analyze.md). */
static int64_t doc_t_ns(const struct analysis *a, uint64_t intended)
{
	return is_capture(a) ? a->src->capture_start_ns + (int64_t)intended
			     : (int64_t)(intended - analysis_stats(a)->first_intended_ns);
}

/* A span of time in the unit that fits it, with 3 or 4 figures: "820.512 us",
 * "12.345 ms", "2.000 s", "45.0 min", "8.00 h". */
static const char *span_text(int64_t ns, char *buf, size_t len)
{
	double v = (double)ns, m = v < 0 ? -v : v;

	if (m < 1e6)
		snprintf(buf, len, "%.3f us", v / 1e3);
	else if (m < 1e9)
		snprintf(buf, len, "%.3f ms", v / 1e6);
	else if (m < 120e9)
		snprintf(buf, len, "%.3f s", v / 1e9);
	else if (m < 7200e9)
		snprintf(buf, len, "%.1f min", v / 60e9);
	else
		snprintf(buf, len, "%.2f h", v / 3600e9);
	return buf;
}

#define SPAN(ns) span_text((ns), (char[32]){ 0 }, 32)


#define META(a, k) analyze_source_meta((a)->src, (k), (char[512]){ 0 }, 512)
/* For the terminal: metadata and names come from a file someone else made. */
#define ESC(s) ((s) ? OUTFILE_ESC(s) : NULL)

/* ---- text ---- */

static void text_dist(FILE *f, const char *name, const struct stats_hist *h)
{
	size_t i;

	fprintf(f, "  %-12s %9" PRIu64, name, h->m.n);
	if (h->m.n == 0) {
		fprintf(f, "  (none)\n");
		return;
	}
	fprintf(f, " %10s %10s %10s %9s", UNITS_US(h->m.min), UNITS_USD(stats_moments_mean(&h->m)),
		UNITS_US(h->m.max), UNITS_USD(stats_moments_stddev(&h->m)));
	for (i = 0; i < STATS_NPCT; i++) {
		int64_t err, v;

		if (!strcmp(stats_pct_name[i], "p99.9"))
			continue; /* the set: p0.01 p1 p50 p99 p99.99 */
		v = stats_hist_percentile_err(h, stats_pct[i], &err);
		fprintf(f, " %10s", UNITS_US_ERR(v, err));
	}
	fprintf(f, "\n");
}

/* Placement error's meaning, and what spinning cost: the lead each spin held the CPU. */
static void text_spin(FILE *f, const struct edgestats_result *r)
{
	double frac = edgestats_spin_fraction(r);

	fprintf(f, "  placement = write-window midpoint - first deadline after the previous edge; worst %s us at edge #%"
		PRIu64 "\n", UNITS_US(r->place_worst_ns), r->place_worst.seq);
	if (!r->spin_edges)
		fprintf(f, "spin       none: edges written at the wake-up (0 %% of the time spinning)\n");
	else
		fprintf(f, "spin       %" PRIu64 " edges spun to their deadline, %.3f %% of the time "
			"spinning; %" PRIu64 " late wake-ups written at once\n", r->spin_edges,
			isnan(frac) ? 0.0 : frac * 100.0, r->late_edges);
}

static void text_extreme(FILE *f, const struct analysis *a, const char *name,
			 const struct edgestats_pulse *p)
{
	fprintf(f, "  %-5s %11s us  [%s, %s]  edge #%" PRIu64 " (%s)\n", name, UNITS_US(p->width_ns),
		UNITS_US(p->lo_ns), UNITS_US(p->hi_ns), p->at.seq, WHEN(a, p->at.intended_ns));
}

static void text_source(FILE *f, const struct analysis *a)
{
	const struct analyze_source_info *s = a->src;
	const struct edgestats_result *r = analysis_stats(a);

	fprintf(f, "file       %s (%s)\n", OUTFILE_ESC(s->path), s->format);
	if (s->kind == ANALYZE_SRC_LOG) {
		const char *board = ESC(META(a, EDGELOG_META_BOARD_NAME));
		const char *bf = ESC(META(a, EDGELOG_META_BOARD_FILE));
		const char *k = ESC(META(a, EDGELOG_META_KERNEL));
		const char *rt = ESC(META(a, EDGELOG_META_PREEMPT_RT));
		const char *host = ESC(META(a, EDGELOG_META_HOST));

		fprintf(f, "board      %s (%s)\n", board ? board : "-", bf ? bf : "-");
		fprintf(f, "host       %s, %s, PREEMPT_RT %s\n", host ? host : "-", k ? k : "-",
			rt ? rt : "-");
		if (s->footer)
			fprintf(f, "log        complete: %" PRIu64 " records, stopped by %s, exit %d\n",
				s->footer->records, edgelog_stop_name(s->footer->stop_reason),
				s->footer->exit_code);
		else if (s->zero_bytes)
			fprintf(f, "log        TRUNCATED: ends in %" PRIu64 " zero bytes where records "
				"should be (a power loss); analyzed the %" PRIu64 " complete records\n",
				s->zero_bytes, r->records);
		else
			fprintf(f, "log        TRUNCATED: no footer (the run was cut short); analyzed "
				"the %" PRIu64 " complete records%s\n", r->records,
				s->trailing_bytes ? ", ignored a partial last record" : "");
		if (s->footer && s->footer->missed_periods != r->missed_periods + r->warmup_missed_periods)
			fprintf(f, "note       the footer counts %" PRIu64 " missed periods, the records %"
				PRIu64 "\n", s->footer->missed_periods,
				r->missed_periods + r->warmup_missed_periods);
		if (s->events)
			fprintf(f, "events     %" PRIu64 " (sqwave export --events)\n", s->events);
	} else if (s->kind == ANALYZE_SRC_CAPTURE) {
		const struct capture_info *c = s->capture;
		unsigned i;

		fprintf(f, "channel    %s (%s; %u channel%s)\n", c->channel_name, c->channel_reason,
			c->n_channels, c->n_channels == 1 ? "" : "s");
		fprintf(f, "capture    %.9f .. %.9f s", capture_ps_to_s(c->start_ps),
			capture_ps_to_s(c->end_ps));
		if (c->samplerate_hz > 0)
			fprintf(f, ", %g Sa/s", c->samplerate_hz);
		fprintf(f, ", resolution %g ns\n", (double)c->resolution_ps / 1e3);
		if (c->analog)
			fprintf(f, "analog     levels %g / %g V, threshold %g V, hysteresis %g V\n",
				c->low, c->high, c->threshold, c->hysteresis);
		for (i = 0; i < c->n_notes; i++)
			fprintf(f, "note       %s\n", c->notes[i]);
	}
	if (s->pin.kind == PIN_WAVE && wave_period(&s->pin.wave))	/* respond: no grid */
		fprintf(f, "wave       %s%s\n", pin_describe(&s->pin, (char[160]){ 0 }, 160),
			s->half_period_inferred ? " (from the intended times)"
			: s->kind == ANALYZE_SRC_EDGE_CSV ? " (given)" : "");
}

static void text_counts(FILE *f, const struct analysis *a)
{
	const struct edgestats_result *r = analysis_stats(a);
	const struct analyze_source_info *s = a->src;
	int64_t head, tail;
	int hl, tl;

	if (a->have_edge)
		fprintf(f, "span       %.6f s from the first edge to the last\n",
			(double)(int64_t)(a->last.intended_ns - a->first.intended_ns) / 1e9);
	fprintf(f, "edges      %" PRIu64 " counted", r->edges);
	if (r->warmup_edges)
		fprintf(f, ", %" PRIu64 " warm-up (not counted)", r->warmup_edges);
	fprintf(f, "\n");
	if (s->has_intended && !is_respond(a))	/* respond: its lost events, below */
		fprintf(f, "missed     %" PRIu64 " periods in %" PRIu64 " places%s\n",
			r->missed_periods, a->missed_events,
			r->missed_periods ? "  <-- the timer fired more than once between edges" : "");
	if (s->kind == ANALYZE_SRC_CAPTURE) {
		if (s->capture_gaps)
			fprintf(f, "gaps       %" PRIu64 " places without data: no pulse measured across them\n",
				s->capture_gaps);
	} else {
		uint64_t at_end, dropped = analysis_dropped(a, &at_end);

		fprintf(f, "dropped    %" PRIu64 " records", dropped);
		if (r->gap_events)
			fprintf(f, " (%" PRIu64 " places, first before edge #%" PRIu64 ")",
				r->gap_events, r->first_gap.seq);
		if (at_end)
			fprintf(f, ", %" PRIu64 " of them after the last record (the footer's count)",
				at_end);
		fprintf(f, "\n");
	}
	if (r->write_errors)
		fprintf(f, "write errs %" PRIu64 "\n", r->write_errors);
	if (r->pulses_skipped)
		fprintf(f, "skipped    %" PRIu64 " pulses not measured (a gap, an error or a repeated level "
			"at one end)\n", r->pulses_skipped);
	if (analysis_partial(a, &head, &hl, &tail, &tl))
		fprintf(f, "partial    %s us at level %d before the first edge, %s us at level %d "
			"after the last (not pulses)\n", UNITS_US(head), hl, UNITS_US(tail), tl);
	else if (a->have_edge && s->kind == ANALYZE_SRC_LOG)
		fprintf(f, "partial    none: the line idles before edge #%" PRIu64 " and after edge #%"
			PRIu64 "\n", a->first.seq, a->last.seq);
}

/* What was running at @t: "  loaded: coremark, ping-flood" (a soak's log). */
static void text_running(FILE *f, const struct analysis *a, uint64_t t)
{
	const char *name = soakview_phase_at(a->sv, t);
	size_t i, j;

	fprintf(f, "  %s", name[0] ? OUTFILE_ESC(name) : "(warm-up)");
	for (i = 0; i < a->soak->nphases; i++) {
		const struct run_phase *ph = &a->soak->phases[i];

		if (strcmp(ph->name, name))
			continue;
		fputc(':', f);
		for (j = 0; j < ph->nloads; j++)
			fprintf(f, "%s %.*s", j ? "," : "", (int)strcspn(ph->load_specs[j], ":"),
				ph->load_specs[j]);
		if (!ph->nloads)
			fprintf(f, " no loads");
	}
}

static void text_worst(FILE *f, const struct analysis *a)
{
	size_t i;

	if (!a->nworst)
		return;
	fprintf(f, "\n%zu worst edges, by %s\n", a->nworst,
		a->src->has_intended ? "wake latency"
				     : "distance of the pulse ending there from its polarity's mean");
	fprintf(f, "  %12s %20s %11s %8s %14s %14s%s\n", "edge", "where",
		a->src->has_intended ? "latency us" : "off us", "level", "before us", "after us",
		a->soak && a->soak->nphases ? "  phase: its loads" : "");
	for (i = 0; i < a->nworst; i++) {
		const struct analyze_worst *w = &a->worst[i];

		fprintf(f, "  %12" PRIu64 " %20s %11s %8s %14s %14s", w->seq,
			WHEN(a, w->intended_ns), UNITS_US(a->src->has_intended ? w->latency_ns : w->score_ns),
			w->level ? "rise" : "fall", w->has_before ? UNITS_US(w->before_ns) : "-",
			w->has_after ? UNITS_US(w->after_ns) : "-");
		if (a->soak && a->soak->nphases)
			text_running(f, a, w->intended_ns);
		fputc('\n', f);
	}
}

static void text_missed(FILE *f, const struct analysis *a)
{
	size_t i;

	if (!a->missed_events)
		return;
	fprintf(f, "\nmissed periods: %" PRIu64 " in %" PRIu64 " places", analysis_stats(a)->missed_periods,
		a->missed_events);
	if (a->missed_events > a->nmissed)
		fprintf(f, " (the first %zu listed; --missed N for more)", a->nmissed);
	fprintf(f, "\n");
	for (i = 0; i < a->nmissed && i < 20; i++)
		fprintf(f, "  edge #%-12" PRIu64 " %20s  %" PRIu64 " period%s\n", a->missed[i].seq,
			WHEN(a, a->missed[i].intended_ns), a->missed[i].periods,
			a->missed[i].periods == 1 ? "" : "s");
	if (a->nmissed > 20)
		fprintf(f, "  ... %zu more in --json\n", a->nmissed - 20);
}

static void text_timeline(FILE *f, const struct analysis *a)
{
	size_t i, j, step;
	char row[32], start[32];

	if (!a->nminutes)
		return;
	step = (a->nminutes + TEXT_TIMELINE_ROWS - 1) / TEXT_TIMELINE_ROWS;
	/* rows in the duration grammar (20s, 1min, 2h30min), never "0.333 min" */
	units_format_duration(a->o.minute_ns * (int64_t)step, row, sizeof(row));
	fprintf(f, "\ntimeline, %s a row (from the first edge)\n", row);
	fprintf(f, "  %10s %10s %8s %12s %12s %12s%s\n", "start", is_respond(a) ? "writes" : "edges",
		is_respond(a) ? "lost" : "missed", "max lat us",
		"Tmin us", "Tmax us", a->sv ? "    CPU %    IRQ/s  pkt/s" : "");
	for (i = 0; i < a->nminutes; i += step) {
		struct analyze_span s = a->minutes[i];
		struct soakview_span pr = { 0 };
		int64_t tmin = 0, tmax = 0;
		bool any;

		for (j = i; j < i + step && j < a->nminutes; j++) {
			const struct soakview_span *sp = a->sv ? soakview_span(a->sv, j) : NULL;

			if (j > i)
				analyze_span_merge(&s, &a->minutes[j]);
			if (sp) {
				pr.samples += sp->samples;
				pr.busy_sum += sp->busy_sum;
				pr.irq_sum += sp->irq_sum;
				pr.pps_sum += sp->pps_sum;
			}
		}
		any = s.pulses[0] || s.pulses[1];
		if (any) {
			tmin = !s.pulses[0] ? s.wmin[1] : !s.pulses[1] ? s.wmin[0]
			       : s.wmin[0] < s.wmin[1] ? s.wmin[0] : s.wmin[1];
			tmax = !s.pulses[0] ? s.wmax[1] : !s.pulses[1] ? s.wmax[0]
			       : s.wmax[0] > s.wmax[1] ? s.wmax[0] : s.wmax[1];
		}
		units_format_duration(a->o.minute_ns * (int64_t)i, start, sizeof(start));
		fprintf(f, "  %10s %10" PRIu64 " %8" PRIu64 " %12s %12s %12s", start, s.edges, s.missed,
			s.lat_max != INT64_MIN ? UNITS_US(s.lat_max) : "-", any ? UNITS_US(tmin) : "-",
			any ? UNITS_US(tmax) : "-");
		/* what the machine did meanwhile: a soak's proof-of-load samples */
		if (pr.samples)
			fprintf(f, " %8.0f %8.0f %6.0f", pr.busy_sum / (double)pr.samples,
				pr.irq_sum / (double)pr.samples, pr.pps_sum / (double)pr.samples);
		fputc('\n', f);
	}
}

/* ---- the long view: windows (windows.h) ---- */

#define TEXT_WINDOW_ROWS 100     /* more windows: only the worst ones in the text */

/* The wall clock of @off_ns after the first counted edge, from a log's
 * start_realtime; false for other sources (no wall clock). */
static bool window_realtime(const struct analysis *a, uint64_t off_ns, uint64_t *rt)
{
	const struct edgelog_meta *m = a->src->meta;

	if (a->src->kind != ANALYZE_SRC_LOG || !m || !m->start_realtime_ns || !a->win->have_origin)
		return false;
	*rt = m->start_realtime_ns + (a->win->origin_ns + off_ns - m->start_ns);
	return true;
}

/* "2026-12-02 07:50:24.123 UTC" */
static const char *wall_clock(uint64_t rt_ns, char *buf, size_t len)
{
	time_t s = (time_t)(rt_ns / 1000000000u);
	struct tm tm;
	char d[32];

	gmtime_r(&s, &tm);
	strftime(d, sizeof(d), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03u UTC", d, (unsigned)(rt_ns % 1000000000u / 1000000u));
	return buf;
}

/* A figure @off_ns after the windows' origin (the first counted edge), as
 * every other time of the document says it (when(): from the first edge,
 * or the capture's time base), and its wall clock. */
static const char *window_when(const struct analysis *a, uint64_t off_ns, char *buf, size_t len)
{
	uint64_t rt;
	char wc[48], t[48];

	when(a, a->win->origin_ns + off_ns, t, sizeof(t));
	if (window_realtime(a, off_ns, &rt))
		snprintf(buf, len, "%s, %s", t, wall_clock(rt, wc, sizeof(wc)));
	else
		snprintf(buf, len, "%s", t);
	return buf;
}

static bool window_shown(const struct windows_row *r)
{
	return r->edges || r->pulses || r->missed || r->dropped;
}

/* The time row @r covers: its windows, the last row only to the end of
 * the observed time. */
static int64_t window_covers(const struct windows_result *wr, size_t i, const struct windows_row *r)
{
	int64_t len = (int64_t)r->windows * wr->window_ns;

	if (i + 1 == wr->nrows)
		len += wr->last_ns - wr->window_ns;	/* the last window's own length */
	return len;
}

/* The worst window of a figure: row @i's peak (@pick), SIZE_MAX: none. */
static void text_worst_window(FILE *f, const struct analysis *a, const char *what, size_t i,
			      const struct windows_peak *(*pick)(const struct windows_row *),
			      const char *unit_note)
{
	const struct windows_row *r;
	const struct windows_peak *pk;

	if (i == SIZE_MAX) {
		fprintf(f, "  %-14s -\n", what);
		return;
	}
	r = windows_row(a->win, i);
	pk = pick(r);
	fprintf(f, "  %-14s %s us%s in window %" PRIu64 " at edge #%" PRIu64 " (%s)\n", what,
		UNITS_US(pk->value_ns), unit_note, r->index, pk->seq,
		window_when(a, pk->t_ns, (char[96]){ 0 }, 96));
}

static const struct windows_peak *peak_wake(const struct windows_row *r) { return &r->wake; }
static const struct windows_peak *peak_resp(const struct windows_row *r) { return &r->response; }
static const struct windows_peak *peak_tmin(const struct windows_row *r) { return &r->tmin; }
static const struct windows_peak *peak_tmax(const struct windows_row *r) { return &r->tmax; }

static void text_windows(FILE *f, const struct analysis *a)
{
	struct windows_result wr;
	char wlen[32], obs[32];
	size_t i;
	uint64_t shown = 0;
	bool skipped = false;

	windows_result(a->win, &wr);
	if (!wr.nrows)
		return;
	units_format_duration(wr.window_ns, wlen, sizeof(wlen));
	fprintf(f, "\nwindows, %s each from the first counted edge (%s): %" PRIu64 " (the maximum "
		"of the window maxima below)\n", wlen, WHEN(a, a->win->origin_ns), wr.nwindows);
	fprintf(f, "  %6s %10s %10s %8s %8s %12s %10s %12s %12s %9s%s\n", "window", "start",
		is_respond(a) ? "writes" : "edges", is_respond(a) ? "lost" : "missed", "dropped",
		"max wake us", "at edge", "Tmin us", "Tmax us", "crossings",
		is_respond(a) ? "  max resp us" : "");
	for (i = 0; i < wr.nrows; i++) {
		const struct windows_row *r = windows_row(a->win, i);
		bool worst = i == wr.worst_wake || i == wr.worst_tmin || i == wr.worst_tmax ||
			     i == wr.worst_missed || i == wr.worst_response;
		bool last = i + 1 == wr.nrows;

		if (!window_shown(r))
			continue;
		if (wr.nwindows > TEXT_WINDOW_ROWS && !worst && !last) {
			skipped = true;
			continue;
		}
		shown += r->windows;
		{
			char start[32], edge[24] = "-", len[32] = "", idx[48];

			/* from the first counted edge, as the windows are cut */
			if (r->index)
				span_text(wr.window_ns * (int64_t)r->index, start, sizeof(start));
			else
				snprintf(start, sizeof(start), "0");
			if (last && wr.last_partial) {
				span_text(wr.last_ns, len, sizeof(len));
				msgbuf_add(start, sizeof(start), "*");
			}
			if (r->windows > 1)
				snprintf(idx, sizeof(idx), "%" PRIu64 "-%" PRIu64, r->index,
					 r->index + r->windows - 1);
			else
				snprintf(idx, sizeof(idx), "%" PRIu64, r->index);
			if (r->wake.have)
				snprintf(edge, sizeof(edge), "#%" PRIu64, r->wake.seq);
			fprintf(f, "  %6s %10s %10" PRIu64 " %8" PRIu64 " %8" PRIu64 " %12s %10s %12s %12s %9"
				PRIu64, idx, start, r->edges, r->missed, r->dropped,
				r->wake.have ? UNITS_US(r->wake.value_ns) : "-", edge,
				r->tmin.have ? UNITS_US(r->tmin.value_ns) : "-",
				r->tmax.have ? UNITS_US(r->tmax.value_ns) : "-", r->crossings);
			if (is_respond(a))
				fprintf(f, " %13s", r->response.have ? UNITS_US(r->response.value_ns) : "-");
			if (r->windows > 1)
				fprintf(f, "   stalled: %" PRIu64 " windows, %s, no edge", r->windows,
					SPAN(window_covers(&wr, i, r)));
			if (len[0])
				fprintf(f, "   * partial: %s", len);
			fputc('\n', f);
		}
	}
	if (skipped)
		fprintf(f, "  (%" PRIu64 " of %" PRIu64 " windows shown: the worst and the last; "
			"every one that has something is in --json)\n", shown, wr.nwindows);
	fprintf(f, "worst window\n");
	if (a->src->has_intended)
		text_worst_window(f, a, is_respond(a) ? "wake-up" : "wake latency", wr.worst_wake,
				  peak_wake, "");
	if (is_respond(a))
		text_worst_window(f, a, "answer", wr.worst_response, peak_resp, "");
	text_worst_window(f, a, "Tmin", wr.worst_tmin, peak_tmin, " (shortest)");
	text_worst_window(f, a, "Tmax", wr.worst_tmax, peak_tmax, " (longest)");
	if (a->src->has_intended) {
		if (wr.worst_missed == SIZE_MAX)
			fprintf(f, "  %-14s none in any window\n", is_respond(a) ? "lost events" : "missed");
		else
			fprintf(f, "  %-14s %" PRIu64 " in window %" PRIu64 "\n", is_respond(a)
				? "lost events" : "missed", windows_row(a->win, wr.worst_missed)->missed_most,
				windows_row(a->win, wr.worst_missed)->missed_most_at);
	}
	span_text(wr.observed_ns, obs, sizeof(obs));
	if (!wr.limits)
		fprintf(f, "limit crossings: no per-edge limit is set (limits.tmin, limits.tmax, "
			"limits.wake_latency_max%s): no MTBF\n", is_respond(a) ? ", limits.response_max" : "");
	else if (!wr.crossings)
		fprintf(f, "limit crossings: no crossing in %s\n", obs);
	else {
		char resp[48] = "";

		if (is_respond(a))
			snprintf(resp, sizeof(resp), ", answer %" PRIu64, wr.cross_response);
		fprintf(f, "limit crossings: %" PRIu64 " edge%s in %s (tmin %" PRIu64 ", tmax %" PRIu64
			", wake %" PRIu64 "%s): MTBF %s\n", wr.crossings, wr.crossings == 1 ? "" : "s",
			obs, wr.cross_tmin, wr.cross_tmax, wr.cross_wake, resp,
			SPAN((int64_t)llround(wr.mtbf_s * 1e9)));
	}
	if (wr.beyond)
		fprintf(f, "  (%" PRIu64 " figures could not be placed in a window: rows full or a time "
			"out of order)\n", wr.beyond);
}

/* The verdict, as the run summary ends: the word, what counted beyond the
 * limits, each violation. */
static void text_verdict(FILE *f, const struct analysis *a)
{
	char *copy, *line, *save;

	if (!a->verdict)
		return;
	fprintf(f, "\nverdict    %s", a->verdict);
	if (a->lim_tmin_ns > 0 || a->lim_tmax_ns > 0 || a->lim_width_error_ns > 0) {
		fprintf(f, "  (%" PRIu64 " pulses below limits.tmin, %" PRIu64 " above limits.tmax",
			a->pulses_below, a->pulses_above);
		if (a->lim_width_error_ns > 0)
			fprintf(f, ", %" PRIu64 " off their nominal by more than limits.width_error",
				a->pulses_off);
		fprintf(f, ")");
	} else if (!a->limits_set)
		fprintf(f, "  (no limits: the log's or --tmin/--tmax for a verdict)");
	fprintf(f, "\n");
	copy = strdup(a->verdict_why);
	for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		fprintf(f, "  - %s\n", line);
	free(copy);
}

/* A respond log's description, from its header, for summary.c's
 * renderers: @buf holds the strings. */
struct respond_meta {
	struct run_info ri;
	char mode[16], edge[16], clock[16], input[256];
};

static void respond_meta(const struct analysis *a, struct respond_meta *m)
{
	const struct analyze_source_info *s = a->src;
	char v[64];
	int64_t ns;

	memset(m, 0, sizeof(*m));
	m->ri.respond = true;
	m->ri.respond_mode = analyze_source_meta(s, "respond.mode", m->mode, sizeof(m->mode))
		? m->mode : "?";
	m->ri.respond_edge = analyze_source_meta(s, "respond.edge", m->edge, sizeof(m->edge))
		? m->edge : "?";
	m->ri.event_clock = analyze_source_meta(s, "respond.event_clock", m->clock,
						sizeof(m->clock)) ? m->clock : "?";
	m->ri.input_desc = analyze_source_meta(s, EDGELOG_META_INPUT, m->input, sizeof(m->input))
		? m->input : NULL;
	if (analyze_source_meta(s, "respond.pulse_width", v, sizeof(v)) &&
	    units_parse_duration(v, "us", &ns) == 0)
		m->ri.respond_pulse_ns = ns;
	if (analyze_source_meta(s, "respond.debounce", v, sizeof(v)) &&
	    units_parse_duration(v, "us", &ns) == 0)
		m->ri.debounce_ns = ns;
	if (analyze_source_meta(s, "respond.irq_bound", v, sizeof(v)) &&
	    units_parse_duration(v, "us", &ns) == 0)
		m->ri.irq_bound_ns = ns;
	if (analyze_source_meta(s, "run.warmup", v, sizeof(v)) &&
	    units_parse_duration(v, "us", &ns) == 0)
		m->ri.warmup_ns = ns;
	m->ri.records_logged = analysis_stats(a)->records;
}

void analysisdoc_print_text(FILE *f, const struct analysis *a)
{
	const struct edgestats_result *r = analysis_stats(a);
	double duty = analysis_duty_cycle(a);
	size_t i;

	fprintf(f, "==== sqwave analyze ====\n");
	text_source(f, a);
	text_counts(f, a);
	if (is_respond(a)) {	/* the answers, then the output's pulses below */
		struct respond_meta m;

		respond_meta(a, &m);
		fprintf(f, "\n");
		summary_respond_text(f, r, &m.ri, r->seq_gaps);
	}

	fprintf(f, "\n  %-12s %9s %10s %10s %10s %9s", "us", "count", "min", "avg", "max", "stddev");
	for (i = 0; i < STATS_NPCT; i++)
		if (strcmp(stats_pct_name[i], "p99.9"))
			fprintf(f, " %10s", stats_pct_name[i]);
	fprintf(f, "\n");
	if (a->src->has_intended)
		text_dist(f, a->src->has_window ? "wake latency" : "latency", &r->wake);
	if (a->src->has_window)
		text_dist(f, "write cost", &r->write);
	/* a respond log: event -> the write window is in its section above,
	 * and its output's pulses are two kinds, not one wave's */
	if (a->src->has_intended && !is_respond(a))
		text_dist(f, "placement", &r->place);
	text_dist(f, "pulse +", &r->width[EDGESTATS_POS].h);
	text_dist(f, "pulse -", &r->width[EDGESTATS_NEG].h);
	if (!is_respond(a))
		text_dist(f, "pulse any", &r->width[EDGESTATS_ANY].h);
	if (a->src->has_intended && !is_respond(a))
		text_spin(f, r);

	fprintf(f, "\nPulse widths %s; only pulses with an edge at both ends count\n",
		a->src->has_window ? "write midpoint to write midpoint, [lo, hi] from the write windows"
		: a->src->kind == ANALYZE_SRC_CAPTURE
		? "edge to edge, [lo, hi] what the line can have done between the samples"
		: "edge to edge");
	if (r->width[EDGESTATS_ANY].h.m.n) {
		const struct edgestats_widths *w = &r->width[EDGESTATS_ANY];

		text_extreme(f, a, "Tmin", &w->tmin);
		text_extreme(f, a, "Tmax", &w->tmax);
		if (a->src->has_window || a->src->kind == ANALYZE_SRC_CAPTURE) {
			fprintf(f, "  shortest possible %s us (edge #%" PRIu64 "), longest possible %s us "
				"(edge #%" PRIu64 ")\n", UNITS_US(w->tmin_bound.lo_ns), w->tmin_bound.at.seq,
				UNITS_US(w->tmax_bound.hi_ns), w->tmax_bound.at.seq);
		}
	} else {
		fprintf(f, "  no complete pulse\n");
	}
	if (r->period_m.n)
		fprintf(f, "period     %" PRIu64 " (rise to rise): min %s us (edge #%" PRIu64 "), avg %s us, "
			"max %s us (edge #%" PRIu64 ")\n", r->period_m.n, UNITS_US(r->period_m.min),
			r->period_min_at.seq, UNITS_USD(stats_moments_mean(&r->period_m)),
			UNITS_US(r->period_m.max), r->period_max_at.seq);
	if (!isnan(duty) && !is_respond(a))
		fprintf(f, "duty cycle %.4f %% (mean positive / (mean positive + mean negative))\n",
			duty * 100.0);
	text_worst(f, a);
	text_missed(f, a);
	text_timeline(f, a);
	text_windows(f, a);
	if (a->soak && (a->soak->nphases || a->soak->breaks)) {
		if (a->soak->label && a->soak->label[0])
			fprintf(f, "\nlabel      %s\n", OUTFILE_ESC(a->soak->label));
		if (a->soak->breaks)
			fprintf(f, "breaks     %u; the first at %s\n           trace %s\n",
				a->soak->breaks, OUTFILE_ESC(a->soak->break_text),
				a->soak->break_trace[0] ? OUTFILE_ESC(a->soak->break_trace)
				: "(not saved)");
		if (a->soak->nphases)
			summary_phases_text(f, a->soak);
	}
	if (a->soak && a->soak->loopback)
		loopreport_text(f, a->soak->loopback);
	if (a->soak && a->soak->timerlat_split)
		tlatreport_text(f, a->soak->timerlat_split);
	if (a->soak && a->soak->grid) {
		fputc('\n', f);
		summary_grid_text(f, a->soak->grid);
	}
	text_verdict(f, a);
}

/* ---- JSON (docs/analyze.md) ---- */

/* A capture time in ps under a femtosecond key, or null if it does not fit. */
static void json_fs(struct json_writer *w, const char *key, int64_t ps)
{
	if (ps > INT64_MAX / 1000 || ps < -(INT64_MAX / 1000))
		json_kv_null(w, key);
	else
		json_kv_int(w, key, ps * 1000);
}

static void json_source(struct json_writer *w, const struct analysis *a)
{
	const struct analyze_source_info *s = a->src;
	static const char *const kinds[] = { "log", "edge-csv", "capture" };

	json_kv_object_begin(w, "source");
	json_kv_string(w, "path", s->path);
	json_kv_string(w, "kind", kinds[s->kind]);
	json_kv_string(w, "format", s->format);
	json_kv_bool(w, "truncated", s->truncated);
	json_kv_uint(w, "trailing_bytes", s->trailing_bytes);
	json_kv_uint(w, "zero_bytes", s->zero_bytes);
	json_kv_uint(w, "events", s->events);
	if (s->kind == ANALYZE_SRC_LOG) {
		json_kv_object_begin(w, "log");
		json_kv_int(w, "format_version", s->meta->version);
		json_kv_uint(w, "start_realtime_ns", s->meta->start_realtime_ns);
		json_kv_string(w, "board_name", META(a, EDGELOG_META_BOARD_NAME));
		json_kv_string(w, "board_file", META(a, EDGELOG_META_BOARD_FILE));
		json_kv_string(w, "gpio", META(a, EDGELOG_META_GPIO));
		json_kv_string(w, "hostname", META(a, EDGELOG_META_HOST));
		json_kv_string(w, "kernel", META(a, EDGELOG_META_KERNEL));
		json_kv_string(w, "preempt_rt", META(a, EDGELOG_META_PREEMPT_RT));
		json_kv_string(w, "sqwave_version", META(a, EDGELOG_META_VERSION));
		if (s->footer) {
			json_kv_object_begin(w, "footer");
			json_kv_uint(w, "records", s->footer->records);
			json_kv_uint(w, "dropped", s->footer->dropped);
			json_kv_uint(w, "missed_periods", s->footer->missed_periods);
			json_kv_uint(w, "end_realtime_ns", s->footer->end_realtime_ns);
			json_kv_int(w, "exit_code", s->footer->exit_code);
			json_kv_string(w, "stop_reason", edgelog_stop_name(s->footer->stop_reason));
			json_object_end(w);
		} else {
			json_kv_null(w, "footer");
		}
		json_object_end(w);
	} else {
		json_kv_null(w, "log");
	}
	if (s->kind == ANALYZE_SRC_CAPTURE) {
		const struct capture_info *c = s->capture;
		unsigned i;

		json_kv_object_begin(w, "capture");
		json_kv_string(w, "channel", c->channel_name);
		json_kv_string(w, "channel_reason", c->channel_reason);
		json_kv_uint(w, "channels", c->n_channels);
		if (c->samplerate_hz > 0)
			json_kv_double(w, "samplerate_hz", c->samplerate_hz);
		else
			json_kv_null(w, "samplerate_hz");
		json_kv_int(w, "resolution_ps", c->resolution_ps);
		json_kv_int(w, "start_ps", c->start_ps);
		json_kv_int(w, "end_ps", c->end_ps);
		/* the femtosecond keys of schema 1, for old readers: null where
		 * femtoseconds no longer fit (beyond +-2.5 h) */
		json_fs(w, "resolution_fs", c->resolution_ps);
		json_fs(w, "start_fs", c->start_ps);
		json_fs(w, "end_fs", c->end_ps);
		json_kv_int(w, "edge_lo_ps", c->edge_lo_ps);
		json_kv_int(w, "edge_hi_ps", c->edge_hi_ps);
		json_kv_int(w, "start_ns", s->capture_start_ns);
		if (c->initial_level >= 0)
			json_kv_int(w, "initial_level", c->initial_level);
		else
			json_kv_null(w, "initial_level");
		json_kv_bool(w, "analog", c->analog);
		if (c->analog) {
			json_kv_double(w, "threshold_v", c->threshold);
			json_kv_double(w, "hysteresis_v", c->hysteresis);
		}
		json_kv_uint(w, "gaps", s->capture_gaps);
		json_kv_array_begin(w, "notes");
		for (i = 0; i < c->n_notes; i++)
			json_string(w, c->notes[i]);
		json_array_end(w);
		json_object_end(w);
	} else {
		json_kv_null(w, "capture");
	}
	json_object_end(w);
}

static void json_segment(struct json_writer *w, const char *key, int64_t ns, int level)
{
	json_kv_object_begin(w, key);
	json_kv_int(w, "duration_ns", ns);
	json_kv_int(w, "level", level);
	json_object_end(w);
}

static void json_span_widths(struct json_writer *w, const struct analyze_span *s)
{
	static const char *const names[2] = { "positive", "negative" };
	int i;

	for (i = 0; i < 2; i++) {
		json_kv_object_begin(w, names[i]);
		json_kv_uint(w, "count", s->pulses[i]);
		if (s->pulses[i]) {
			json_kv_int(w, "min_ns", s->wmin[i]);
			json_kv_int(w, "max_ns", s->wmax[i]);
		} else {
			json_kv_null(w, "min_ns");
			json_kv_null(w, "max_ns");
		}
		json_object_end(w);
	}
}

/* A soak's log: what the report and a reader need of the run (board,
 * kernel, RT, limits) and its phases, as in the run's JSON summary. */
static void json_soak(struct json_writer *w, const struct analysis *a)
{
	const struct config *c;
	char buf[256];
	static const enum cfg_key limits[] = { CFG_LIMITS_TMIN, CFG_LIMITS_TMAX,
					       CFG_LIMITS_WAKE_LATENCY_MAX, CFG_LIMITS_MISSED_MAX,
					       CFG_LIMITS_RESPONSE_MAX, CFG_LIMITS_WIDTH_ERROR };
	size_t i;

	if (!a->sv)
		return;
	c = soakview_config(a->sv);
	json_kv_object_begin(w, "board");
	json_kv_string(w, "name", config_str(c, CFG_BOARD_NAME));
	json_object_end(w);
	json_kv_object_begin(w, "host");
	if (edgelog_meta_get(a->src->meta, EDGELOG_META_KERNEL, buf, sizeof(buf)))
		buf[strcspn(buf, " ")] = '\0';
	else
		buf[0] = '\0';
	json_kv_string(w, "kernel_release", buf);
	json_kv_bool(w, "preempt_rt", edgelog_meta_get(a->src->meta, EDGELOG_META_PREEMPT_RT, buf,
						       sizeof(buf)) && !strcmp(buf, "yes"));
	json_object_end(w);
	json_kv_object_begin(w, "rt");
	json_kv_bool(w, "ok", !edgelog_meta_get(a->src->meta, EDGELOG_META_RT, buf, sizeof(buf)) ||
				      !strcmp(buf, "yes"));
	json_object_end(w);
	json_kv_object_begin(w, "run");
	if (is_respond(a))	/* its header's half period only centres histograms */
		json_kv_null(w, "half_period_ns");
	else
		json_kv_int(w, "half_period_ns", a->src->half_period_ns);
	if (a->src->meta && !is_respond(a) &&
	    (!wave_is_square(&a->src->meta->wave) || a->src->meta->wave.phase_ns)) {
		json_kv_int(w, "high_ns", a->src->meta->wave.high_ns);
		json_kv_int(w, "low_ns", a->src->meta->wave.low_ns);
		json_kv_int(w, "phase_ns", a->src->meta->wave.phase_ns);
	}
	json_object_end(w);
	/* the limits the run had, as the summary's "config" gives them */
	json_kv_object_begin(w, "config");
	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		json_kv_object_begin(w, config_key_name(limits[i], buf, sizeof(buf)));
		json_kv_int(w, "value", config_int(c, limits[i]));
		json_object_end(w);
	}
	json_object_end(w);
	summary_phases_json(w, a->soak);
}

/* "verdict": as the run summary's, plus what counted beyond the limits. */
static void json_verdict(struct json_writer *w, const struct analysis *a)
{
	char *copy, *line, *save;

	if (!a->verdict) {
		json_kv_null(w, "verdict");
		return;
	}
	json_kv_object_begin(w, "verdict");
	json_kv_string(w, "result", a->verdict);
	json_kv_bool(w, "pass", !strcmp(a->verdict, "PASS") || !strcmp(a->verdict, "NO LIMITS"));
	json_kv_bool(w, "limits_set", a->limits_set);
	json_kv_int(w, "tmin_ns", a->lim_tmin_ns);
	json_kv_int(w, "tmax_ns", a->lim_tmax_ns);
	json_kv_uint(w, "pulses_below_tmin", a->pulses_below);
	json_kv_uint(w, "pulses_above_tmax", a->pulses_above);
	json_kv_int(w, "width_error_ns", a->lim_width_error_ns);
	json_kv_uint(w, "pulses_off_nominal", a->pulses_off);
	json_kv_uint(w, "wake_ups_above_max", a->wakes_above);
	json_kv_array_begin(w, "violations");
	copy = strdup(a->verdict_why);
	for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		json_string(w, line);
	free(copy);
	json_array_end(w);
	json_object_end(w);
}

/* "counts" and "partial": what was read, what was not counted. */
static void json_counts(struct json_writer *w, const struct analysis *a)
{
	const struct edgestats_result *r = analysis_stats(a);
	const struct analyze_source_info *s = a->src;
	int64_t head, tail;
	int hl, tl;

	json_kv_object_begin(w, "counts");
	json_kv_uint(w, "records", r->records);
	json_kv_uint(w, "edges", r->edges);
	json_kv_uint(w, "warmup_edges", r->warmup_edges);
	if (s->has_intended) {
		json_kv_uint(w, "missed_periods", r->missed_periods);
		json_kv_uint(w, "missed_events", a->missed_events);
	} else {
		json_kv_null(w, "missed_periods");
		json_kv_null(w, "missed_events");
	}
	{
		uint64_t at_end, dropped = analysis_dropped(a, &at_end);

		json_kv_uint(w, "dropped", dropped);
		json_kv_uint(w, "dropped_at_end", at_end);
	}
	json_kv_uint(w, "seq_gaps", s->kind == ANALYZE_SRC_CAPTURE ? 0 : r->seq_gaps);
	json_kv_uint(w, "gap_events", s->kind == ANALYZE_SRC_CAPTURE ? s->capture_gaps : r->gap_events);
	json_kv_uint(w, "write_errors", r->write_errors);
	json_kv_uint(w, "saturated", r->saturated);
	json_kv_uint(w, "level_repeats", r->level_repeats);
	json_kv_uint(w, "pulses_skipped", r->pulses_skipped);
	json_object_end(w);

	json_kv_object_begin(w, "partial");
	if (analysis_partial(a, &head, &hl, &tail, &tl)) {
		json_segment(w, "head", head, hl);
		json_segment(w, "tail", tail, tl);
	} else {
		json_kv_null(w, "head");
		json_kv_null(w, "tail");
	}
	json_object_end(w);
}

/* "worst": the N worst edges, ranked. */
static void json_worst(struct json_writer *w, const struct analysis *a)
{
	const struct analyze_source_info *s = a->src;
	size_t i;

	json_kv_object_begin(w, "worst");
	json_kv_string(w, "ranked_by", s->has_intended ? "wake_latency" : "width_deviation");
	json_kv_array_begin(w, "edges");
	for (i = 0; i < a->nworst; i++) {
		const struct analyze_worst *x = &a->worst[i];

		json_object_begin(w);
		json_kv_uint(w, "seq", x->seq);
		json_kv_uint(w, "intended_ns", x->intended_ns);
		json_kv_int(w, "t_ns", doc_t_ns(a, x->intended_ns));
		if (s->has_intended)
			json_kv_int(w, "latency_ns", x->latency_ns);
		else
			json_kv_null(w, "latency_ns");
		json_kv_int(w, "score_ns", x->score_ns);
		json_kv_int(w, "level", x->level);
		if (a->sv)
			json_kv_string(w, "phase", soakview_phase_at(a->sv, x->intended_ns));
		if (x->has_before)
			json_kv_int(w, "pulse_before_ns", x->before_ns);
		else
			json_kv_null(w, "pulse_before_ns");
		if (x->has_after)
			json_kv_int(w, "pulse_after_ns", x->after_ns);
		else
			json_kv_null(w, "pulse_after_ns");
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

/* "missed": the places with more than one expiration. */
static void json_missed(struct json_writer *w, const struct analysis *a)
{
	const struct edgestats_result *r = analysis_stats(a);
	size_t i;

	json_kv_object_begin(w, "missed");
	json_kv_uint(w, "events", a->missed_events);
	json_kv_uint(w, "periods", r->missed_periods);
	json_kv_bool(w, "list_complete", a->nmissed == a->missed_events);
	json_kv_array_begin(w, "list");
	for (i = 0; i < a->nmissed; i++) {
		json_object_begin(w);
		json_kv_uint(w, "seq", a->missed[i].seq);
		json_kv_uint(w, "intended_ns", a->missed[i].intended_ns);
		json_kv_int(w, "t_ns", (int64_t)(a->missed[i].intended_ns - r->first_intended_ns));
		json_kv_uint(w, "periods", a->missed[i].periods);
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

/* "timeline": a row a minute, rows without edges left out. */
static void json_timeline(struct json_writer *w, const struct analysis *a)
{
	size_t i;

	json_kv_object_begin(w, "timeline");
	json_kv_int(w, "step_ns", a->o.minute_ns);
	json_kv_uint(w, "edges_outside", a->timeline_beyond);
	json_kv_array_begin(w, "rows");
	for (i = 0; i < a->nminutes; i++) {
		const struct analyze_span *m = &a->minutes[i];

		/* Rows without edges are left out: a stall of days (or a time
		 * jump) must not make the output grow with time, only with edges. */
		if (!m->edges && !m->pulses[0] && !m->pulses[1] && !m->missed)
			continue;
		json_object_begin(w);
		json_kv_int(w, "start_ns", (int64_t)i * a->o.minute_ns);
		json_kv_uint(w, "edges", m->edges);
		json_kv_uint(w, "missed_periods", m->missed);
		if (m->lat_max != INT64_MIN) {
			json_kv_int(w, "latency_max_ns", m->lat_max);
			json_kv_uint(w, "latency_max_seq", m->lat_max_seq);
		} else {
			json_kv_null(w, "latency_max_ns");
			json_kv_null(w, "latency_max_seq");
		}
		json_span_widths(w, m);
		if (a->sv && soakview_span(a->sv, i)) {
			const struct soakview_span *sp = soakview_span(a->sv, i);

			json_kv_object_begin(w, "proof");
			json_kv_uint(w, "samples", sp->samples);
			json_kv_double(w, "cpu_busy_pct", sp->busy_sum / (double)sp->samples);
			json_kv_double(w, "irq_per_s", sp->irq_sum / (double)sp->samples);
			json_kv_double(w, "ctxt_per_s", sp->ctxt_sum / (double)sp->samples);
			json_kv_double(w, "packets_per_s", sp->pps_sum / (double)sp->samples);
			json_object_end(w);
		}
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

/* A window's extreme: the figure, where, when. */
static void json_peak(struct json_writer *w, const struct analysis *a, const char *key,
		      const struct windows_peak *pk, bool bound, int64_t window)
{
	uint64_t rt;
	char wc[48];

	if (!pk || !pk->have) {
		json_kv_null(w, key);
		return;
	}
	json_kv_object_begin(w, key);
	if (window >= 0)
		json_kv_int(w, "window", window);
	json_kv_int(w, "value_ns", pk->value_ns);
	if (bound)
		json_kv_int(w, "bound_ns", pk->bound_ns);
	json_kv_uint(w, "seq", pk->seq);
	json_kv_uint(w, "offset_ns", pk->t_ns);
	/* the document's one time origin, as the worst edges' t_ns */
	json_kv_int(w, "t_ns", doc_t_ns(a, a->win->origin_ns + pk->t_ns));
	if (window_realtime(a, pk->t_ns, &rt)) {
		json_kv_uint(w, "realtime_ns", rt);
		json_kv_string(w, "wall_clock", wall_clock(rt, wc, sizeof(wc)));
	} else {
		json_kv_null(w, "realtime_ns");
		json_kv_null(w, "wall_clock");
	}
	json_object_end(w);
}

/* The window of the worst row @i (SIZE_MAX: none, -1). */
static int64_t worst_window(const struct analysis *a, size_t i)
{
	return i == SIZE_MAX ? -1 : (int64_t)windows_row(a->win, i)->index;
}

static void json_windows(struct json_writer *w, const struct analysis *a)
{
	struct windows_result wr;
	size_t i;

	windows_result(a->win, &wr);
	json_kv_object_begin(w, "windows");
	json_kv_int(w, "window_ns", wr.window_ns);
	/* where the windows start (the first counted edge), on the document's
	 * time origin: a row's start_ns and a peak's offset_ns count from it */
	if (a->win->have_origin)
		json_kv_int(w, "origin_t_ns", doc_t_ns(a, a->win->origin_ns));
	else
		json_kv_null(w, "origin_t_ns");
	json_kv_uint(w, "count", wr.nwindows);
	json_kv_int(w, "observed_ns", wr.observed_ns);
	json_kv_bool(w, "last_partial", wr.last_partial);
	json_kv_int(w, "last_window_ns", wr.last_ns);
	json_kv_uint(w, "outside", wr.beyond);
	json_kv_array_begin(w, "rows");
	for (i = 0; i < wr.nrows; i++) {
		const struct windows_row *r = windows_row(a->win, i);

		if (!window_shown(r))
			continue;	/* nothing happened: no row */
		json_object_begin(w);
		json_kv_uint(w, "index", r->index);
		json_kv_uint(w, "windows", r->windows);	/* > 1: a stall's windows, no edge */
		json_kv_int(w, "start_ns", wr.window_ns * (int64_t)r->index);
		json_kv_int(w, "length_ns", window_covers(&wr, i, r));
		json_kv_bool(w, "partial", i + 1 == wr.nrows && wr.last_partial);
		json_kv_uint(w, "edges", r->edges);
		json_kv_uint(w, "pulses", r->pulses);
		json_kv_uint(w, "missed_periods", r->missed);
		json_kv_uint(w, "dropped", r->dropped);
		json_kv_uint(w, "crossings", r->crossings);
		json_peak(w, a, "wake_max", a->src->has_intended ? &r->wake : NULL, false, -1);
		json_peak(w, a, "tmin", &r->tmin, true, -1);
		json_peak(w, a, "tmax", &r->tmax, true, -1);
		json_peak(w, a, "response_max", is_respond(a) ? &r->response : NULL, false, -1);
		json_object_end(w);
	}
	json_array_end(w);
	json_kv_object_begin(w, "worst");
	json_peak(w, a, "wake_max", wr.worst_wake != SIZE_MAX && a->src->has_intended
		  ? &windows_row(a->win, wr.worst_wake)->wake : NULL, false,
		  worst_window(a, wr.worst_wake));
	json_peak(w, a, "tmin", wr.worst_tmin != SIZE_MAX ? &windows_row(a->win, wr.worst_tmin)->tmin
		  : NULL, true, worst_window(a, wr.worst_tmin));
	json_peak(w, a, "tmax", wr.worst_tmax != SIZE_MAX ? &windows_row(a->win, wr.worst_tmax)->tmax
		  : NULL, true, worst_window(a, wr.worst_tmax));
	json_peak(w, a, "response_max", wr.worst_response != SIZE_MAX && is_respond(a)
		  ? &windows_row(a->win, wr.worst_response)->response : NULL, false,
		  worst_window(a, wr.worst_response));
	if (wr.worst_missed != SIZE_MAX) {
		json_kv_object_begin(w, "missed_periods");
		json_kv_uint(w, "window", windows_row(a->win, wr.worst_missed)->missed_most_at);
		json_kv_uint(w, "count", windows_row(a->win, wr.worst_missed)->missed_most);
		json_object_end(w);
	} else {
		json_kv_null(w, "missed_periods");
	}
	json_object_end(w);
	json_kv_object_begin(w, "crossings");
	json_kv_bool(w, "limits_set", wr.limits);
	json_kv_uint(w, "edges", wr.crossings);
	json_kv_uint(w, "tmin", wr.cross_tmin);
	json_kv_uint(w, "tmax", wr.cross_tmax);
	json_kv_uint(w, "wake_latency_max", wr.cross_wake);
	json_kv_uint(w, "response_max", wr.cross_response);
	if (wr.limits && wr.crossings)
		json_kv_double(w, "mtbf_s", wr.mtbf_s);
	else
		json_kv_null(w, "mtbf_s");
	{
		char obs[32], line[128];

		span_text(wr.observed_ns, obs, sizeof(obs));
		if (!wr.limits)
			snprintf(line, sizeof(line), "no per-edge limit is set");
		else if (!wr.crossings)
			snprintf(line, sizeof(line), "no crossing in %s", obs);
		else
			snprintf(line, sizeof(line), "%" PRIu64 " in %s: MTBF %s", wr.crossings, obs,
				 SPAN((int64_t)llround(wr.mtbf_s * 1e9)));
		json_kv_string(w, "statement", line);
	}
	json_object_end(w);
	json_object_end(w);
}

/* "histogram": the linear histogram's nonzero buckets. */
static void json_histogram(struct json_writer *w, const struct analysis *a)
{
	const struct analyze_source_info *s = a->src;
	size_t i;

	json_kv_object_begin(w, "histogram");
	json_kv_string(w, "of", a->o.hist_of_width || !s->has_intended ? "pulse_width" : "wake_latency");
	json_kv_int(w, "bucket_ns", a->hist.width_ns);
	json_kv_uint(w, "buckets", a->hist.nbuckets);
	json_kv_uint(w, "count", a->hist.n);
	json_kv_uint(w, "overflow", a->hist.overflow);
	json_kv_uint(w, "underflow", a->hist.underflow);
	json_kv_array_begin(w, "nonzero");
	for (i = 0; i < a->hist.nbuckets; i++) {
		if (!a->hist.counts[i])
			continue;
		json_array_begin(w);
		json_uint(w, i);
		json_uint(w, a->hist.counts[i]);
		json_array_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

static void json_analysis(struct json_writer *w, const struct analysis *a)
{
	const struct edgestats_result *r = analysis_stats(a);
	const struct analyze_source_info *s = a->src;
	double duty = analysis_duty_cycle(a);

	json_object_begin(w);
	json_kv_string(w, "schema", ANALYSIS_SCHEMA);
	json_kv_int(w, "schema_version", ANALYSIS_SCHEMA_VERSION);
	json_kv_string(w, "sqwave_version", SQW_VERSION);
	json_source(w, a);
	json_key(w, "pin");
	pin_json_write(w, &s->pin);
	json_verdict(w, a);
	if (is_respond(a)) {
		struct respond_meta m;

		respond_meta(a, &m);
		summary_respond_json(w, r, &m.ri);
	} else {
		json_kv_null(w, "respond");
	}
	if (s->half_period_ns > 0 && !is_respond(a))	/* a respond log has no wave */
		json_kv_int(w, "half_period_ns", s->half_period_ns);
	else
		json_kv_null(w, "half_period_ns");
	if (a->have_edge) {
		json_kv_uint(w, "first_intended_ns", a->first.intended_ns);
		json_kv_uint(w, "last_intended_ns", a->last.intended_ns);
		json_kv_int(w, "span_ns", (int64_t)(a->last.intended_ns - a->first.intended_ns));
	} else {
		json_kv_null(w, "first_intended_ns");
		json_kv_null(w, "last_intended_ns");
		json_kv_null(w, "span_ns");
	}

	json_counts(w, a);

	if (s->has_intended) {
		statsjson_dist_worst(w, "wake_latency", &r->wake, &r->wake_worst);
	} else {
		json_kv_null(w, "wake_latency");
	}
	if (s->has_window) {
		statsjson_dist_worst(w, "write_cost", &r->write, &r->write_worst);
	} else {
		json_kv_null(w, "write_cost");
	}
	if (s->has_intended) {
		statsjson_placement_and_spin(w, r);
	} else {
		json_kv_null(w, "placement_error");
		json_kv_null(w, "spin");
	}

	statsjson_pulses_and_period(w, r);
	if (isnan(duty) || is_respond(a))
		json_kv_null(w, "duty_cycle");
	else
		json_kv_double(w, "duty_cycle", duty);

	json_worst(w, a);
	json_missed(w, a);
	json_timeline(w, a);
	json_windows(w, a);
	json_histogram(w, a);
	json_soak(w, a);
	loopreport_json(w, "loopback", a->soak ? a->soak->loopback : NULL);
	tlatreport_json(w, "timerlat", a->soak ? a->soak->timerlat_split : NULL);
	summary_grid_json(w, a->soak ? a->soak->grid : NULL);
	json_object_end(w);
}

/* The limits to judge @src by: a log's header (its run's configuration),
 * then the command line's --tmin, --tmax, --max-latency, --max-missed over
 * it. NULL with *@st and the reason in @err (input: a bad or contradictory
 * limit). */
static struct config *verdict_config(const struct analyze_source_info *src,
				     const char *const *opt, const char *const *val, size_t n,
				     enum analyze_status *st, char *err, size_t errlen)
{
	struct config *c = config_new();
	size_t i;
	int bad;

	if (!c) {
		snprintf(err, errlen, "analyze: %s", strerror(ENOMEM));
		*st = ANALYZE_E_IO;
		return NULL;
	}
	if (src->kind == ANALYZE_SRC_LOG && src->meta && src->meta->text)
		config_apply_meta(c, src->meta->text, &bad);
	for (i = 0; i < n; i++) {
		if (config_apply_option(c, opt[i], val[i], err, errlen) != CFG_OK)
			goto usage;
	}
	if (config_check_limits(c, err, errlen) == CFG_OK)
		return c;
usage:
	config_free(c);
	*st = ANALYZE_E_INPUT;
	return NULL;
}

/* What a log's header and footer say of its run, for its verdict. */
static void verdict_run_info(const struct analysis *a, struct run_info *ri)
{
	const struct analyze_source_info *s = a->src;
	char buf[16];

	if (s->kind != ANALYZE_SRC_LOG)
		return;
	ri->records_logged = analysis_stats(a)->records;
	ri->rt_ok = !edgelog_meta_get(s->meta, EDGELOG_META_RT, buf, sizeof(buf)) ||
		    !strcmp(buf, "yes");
	if (s->footer) {
		ri->dropped = s->footer->dropped;
		ri->stop_reason = (int)s->footer->stop_reason;
	}
}

/* For a log: open its soak view, per-phase statistics and the run_info the
 * phase writers read, and hand them to the analysis. 0 (also for other
 * sources: nothing to do), or -1 with *@st and a message. */
static int soak_setup(struct analysis *a, struct soakview **sv, struct phasestats **ps,
		      struct run_phase **phases, struct run_info *sri, struct loopstats **lb,
		      enum analyze_status *st, char *err, size_t errlen)
{
	const struct analyze_source_info *si = a->src;
	bool bad;
	size_t i, n;
	int lst;

	if (si->kind != ANALYZE_SRC_LOG)
		return 0;
	*sv = soakview_open(si->open_path, si->meta->start_ns,
			    a->o.minute_ns ? a->o.minute_ns : ANALYZE_TIMELINE_ROW_DEFAULT_NS, &bad, err, errlen);
	if (!*sv) {
		*st = bad ? ANALYZE_E_INPUT : ANALYZE_E_IO;
		return -1;
	}
	soakview_run_info(*sv, sri);
	/* A loopback log: the kernel's view, a pass of its own through the join
	 * (the soak view reads the log once more too). */
	if (loopstats_read_log(si->open_path, lb, &lst, err, errlen) < 0) {
		*st = lst == SQW_EXIT_RUNTIME ? ANALYZE_E_IO : ANALYZE_E_INPUT;
		return -1;
	}
	sri->loopback = *lb ? loopstats_result(*lb) : NULL;
	n = soakview_nphases(*sv);
	if (n) {
		uint64_t starts[64];

		soakview_phase_starts(*sv, starts);
		*ps = phasestats_new(si->half_period_ns, n, starts, 0);
		if (*ps)
			phasestats_set_pin(*ps, &si->pin);
		*phases = calloc(n, sizeof(**phases));
		if (!*ps || !*phases) {
			snprintf(err, errlen, "analyze: %s", strerror(ENOMEM));
			*st = ANALYZE_E_IO;
			return -1;
		}
		for (i = 0; i < n; i++) {
			soakview_phase(*sv, i, &(*phases)[i]);
			(*phases)[i].stats = phasestats_phase(*ps, i);
		}
		sri->phases = *phases;
		sri->nphases = n;
		sri->phasestats = *ps;
	}
	analysis_set_soak(a, *ps, *sv, sri);
	return 0;
}

/* ---- per-edge CSV: a row per edge, formatted by hand (millions of rows) ---- */

struct analysisdoc_csv {
	struct outfile_buf ob;
	const struct analysis *a;
	const char *path;
	uint64_t rows;
};

/* Seconds with 9 decimals, exactly, from ns. */
static void out_s9(struct outfile_buf *o, int64_t ns)
{
	uint64_t u = ns < 0 ? -(uint64_t)ns : (uint64_t)ns, frac = u % 1000000000u;
	int i;
	char t[9];

	if (ns < 0)
		outfile_buf_c(o, '-');
	outfile_buf_u64(o, u / 1000000000u);
	outfile_buf_c(o, '.');
	for (i = 8; i >= 0; i--) {
		t[i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	memcpy(o->buf + o->len, t, 9);
	o->len += 9;
}

static void csv_edge(void *ctx, const struct edge_rec *e, int64_t latency_ns,
		     const struct edgestats_pulse *before, const struct edgestats_pulse *after)
{
	struct analysisdoc_csv *co = ctx;
	struct outfile_buf *o = &co->ob;
	const struct analyze_source_info *s = co->a->src;
	int64_t t = s->kind == ANALYZE_SRC_CAPTURE
		    ? s->capture_start_ns + (int64_t)e->intended_ns
		    : (int64_t)(e->intended_ns - co->a->first.intended_ns);

	co->rows++;
	outfile_buf_reserve(o);
	outfile_buf_u64(o, e->seq);
	outfile_buf_c(o, ',');
	outfile_buf_u64(o, e->level);
	outfile_buf_c(o, ',');
	out_s9(o, t);
	outfile_buf_c(o, ',');
	if (s->has_intended) {
		outfile_buf_u64(o, e->intended_ns);
		outfile_buf_c(o, ',');
		outfile_buf_i64(o, latency_ns);
	} else {
		outfile_buf_c(o, ',');
	}
	outfile_buf_c(o, ',');
	if (s->has_window)
		outfile_buf_i64(o, (int64_t)e->write_end_off_ns - e->write_begin_off_ns);
	outfile_buf_c(o, ',');
	outfile_buf_u64(o, e->expirations);
	outfile_buf_c(o, ',');
	outfile_buf_u64(o, e->flags);
	outfile_buf_c(o, ',');
	if (before)
		outfile_buf_i64(o, before->width_ns);
	outfile_buf_c(o, ',');
	if (after)
		outfile_buf_i64(o, after->width_ns);
	outfile_buf_c(o, '\n');
}

/* The per-edge CSV's columns, the header row of the file. */
static const char csv_head[] = "seq,level,t_s,intended_ns,latency_ns,write_cost_ns,"
			       "expirations,flags,pulse_before_ns,pulse_after_ns\n";

struct analysisdoc_csv *analysisdoc_csv_open(const char *path, struct analysis *a, char *err,
					     size_t errlen)
{
	struct analysisdoc_csv *co = malloc(sizeof(*co));
	FILE *f = co ? outfile_open(path, err, errlen) : NULL;

	if (!f) {
		if (!co)
			snprintf(err, errlen, "%s", strerror(ENOMEM));
		free(co);
		return NULL;
	}
	outfile_buf_init(&co->ob, f);
	co->a = a;
	co->path = path;
	co->rows = 0;
	outfile_buf_str(&co->ob, csv_head, sizeof(csv_head) - 1);
	analysis_set_edge_cb(a, csv_edge, co);
	return co;
}

uint64_t analysisdoc_csv_rows(const struct analysisdoc_csv *co)
{
	return co->rows;
}

int analysisdoc_csv_close(struct analysisdoc_csv *co, char *err, size_t errlen)
{
	int ret = 0;

	if (!co)
		return 0;
	outfile_buf_flush(&co->ob);
	if (co->ob.err)
		errno = co->ob.err_no;
	if (outfile_close(co->ob.f, co->path, err, errlen) < 0 || co->ob.err) {
		snprintf(err, errlen, "writing %s failed: %s",
			 strcmp(co->path, "-") ? co->path : "standard output",
			 strerror(co->ob.err ? co->ob.err_no : errno));
		ret = -1;
	}
	free(co);
	return ret;
}

/* ---- the session: one source into one analysis ---- */

int analysisdoc_open(struct analysisdoc *d, const char *path, const struct analyze_source_opts *so,
		     const struct analyze_opts *ao, const char *const *limit_opt,
		     const char *const *limit_val, size_t nlimits, enum analyze_status *st, char *err,
		     size_t errlen)
{
	memset(d, 0, sizeof(*d));
	d->src = analyze_source_open(path, so, st, err, errlen);
	if (!d->src)
		return -1;
	d->a = analysis_new(ao, analyze_source_info(d->src));
	if (!d->a) {
		snprintf(err, errlen, "analyze: %s", strerror(errno));
		*st = ANALYZE_E_IO;
		goto fail;
	}
	/* A soak's log: its phases, loads and proof, as the run's summary had them. */
	if (soak_setup(d->a, &d->sv, &d->ps, &d->phases, &d->sri, &d->lb, st, err, errlen) < 0)
		goto fail;
	/* The limits: a log's own, from its header, and the command line's over them. */
	d->vc = verdict_config(d->a->src, limit_opt, limit_val, nlimits, st, err, errlen);
	if (!d->vc)
		goto fail;
	analysis_set_limits(d->a, config_int(d->vc, CFG_LIMITS_TMIN), config_int(d->vc, CFG_LIMITS_TMAX),
			    config_int(d->vc, CFG_LIMITS_WAKE_LATENCY_MAX));
	analysis_set_response_limit(d->a, config_int(d->vc, CFG_LIMITS_RESPONSE_MAX));
	analysis_set_width_limit(d->a, config_int(d->vc, CFG_LIMITS_WIDTH_ERROR));
	/* A timerlat log: each wake-up split, judged by the same limit. */
	if (d->a->src->kind == ANALYZE_SRC_LOG) {
		int tst;

		if (tlatstats_read_log(d->a->src->open_path, config_int(d->vc,
				       CFG_LIMITS_WAKE_LATENCY_MAX), &d->tl, &tst, err, errlen) < 0) {
			*st = tst == SQW_EXIT_RUNTIME ? ANALYZE_E_IO : ANALYZE_E_INPUT;
			goto fail;
		}
		d->sri.timerlat_split = d->tl ? tlatstats_result(d->tl) : NULL;
	}
	*st = ANALYZE_OK;
	return 0;
fail:
	analysisdoc_close(d);
	return -1;
}

int analysisdoc_feed(struct analysisdoc *d, enum analyze_status *st, char *err, size_t errlen)
{
	int got = analysis_feed(d->a, d->src);

	analysis_finish(d->a);
	if (got < 0) {
		snprintf(err, errlen, "%s", analyze_source_error(d->src, st));
		return -1;
	}
	verdict_run_info(d->a, &d->sri);
	analysis_verdict(d->a, d->vc, &d->sri);
	*st = ANALYZE_OK;
	return 0;
}

void analysisdoc_close(struct analysisdoc *d)
{
	config_free(d->vc);
	loopstats_free(d->lb);
	tlatstats_free(d->tl);
	analysis_free(d->a);
	free(d->phases);
	phasestats_free(d->ps);
	soakview_free(d->sv);
	analyze_source_close(d->src);
	memset(d, 0, sizeof(*d));
}

static void analysis_doc(struct json_writer *w, const void *ctx)
{
	json_analysis(w, ctx);
}

int analysisdoc_write_json(const char *path, const struct analysis *a)
{
	return json_write_document(path, analysis_doc, a, NULL, 0);
}

int analysisdoc_json_of(const char *path, FILE *out, enum analyze_status *st, char *err,
			size_t errlen)
{
	const struct analyze_opts ao = {
		.worst_n = ANALYZE_WORST_DEFAULT,
		.missed_list = ANALYZE_MISSED_LIST_DEFAULT,
		.hist_buckets = ANALYZE_HIST_BUCKETS_DEFAULT,
	};
	struct analysisdoc d;
	struct json_writer w;
	int ret = 0;

	/* The log's own limits, as `analyze LOG` judges it: without them the
	 * document's verdict passed a log that failed them (report's row said
	 * PASS under limits its pulses broke). */
	if (analysisdoc_open(&d, path, NULL, &ao, NULL, NULL, 0, st, err, errlen) < 0)
		return -1;
	if (analysisdoc_feed(&d, st, err, errlen) < 0) {
		ret = -1;
		goto out;
	}
	json_init(&w, out);
	json_analysis(&w, d.a);
	if (json_finish(&w) < 0) {
		snprintf(err, errlen, "analyze: %s", strerror(errno));
		*st = ANALYZE_E_IO;
		ret = -1;
	}
out:
	analysisdoc_close(&d);
	return ret;
}
