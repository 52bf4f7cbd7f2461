/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Compare a capture, or a scope's readings, with a run's log: load the
 * capture compactly, stream the log for the search, the window and its
 * widths, then residuals, widths side by side and the verdict. No printing. */
#include "compare/compare.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "base/msgbuf.h"
#include "log/loopjoin.h"

#define DEF_WORST 10u
#define DEF_SCOPE_REL 0.001          /* 0.1 %: a 4-digit display */

void compare_opts_init(struct compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->tolerance_ns = -1;
	o->first_seq = -1;
	o->worst = DEF_WORST;
	o->scope_rel = DEF_SCOPE_REL;
	o->scope_abs_ns = -1;
	o->min_coverage = -1;
	for (int p = 0; p < EDGESTATS_NPOL; p++)
		o->scope_count[p] = -1;
}

int compare_opts_scope(struct compare_opts *o, const struct scope_reading *r, const char *source)
{
	static const enum edgestats_polarity pol[SCOPE_NPOL] = { EDGESTATS_POS, EDGESTATS_NEG };
	int p, valid = 0;

	for (p = 0; p < SCOPE_NPOL; p++) {
		const struct scope_stat *st = &r->stat[p];
		int e = pol[p];

		if (!st->valid)
			continue;
		o->scope[e][0].set = o->scope[e][1].set = true;
		o->scope[e][0].ns = llround(st->min_s * 1e9);
		o->scope[e][1].ns = llround(st->max_s * 1e9);
		o->scope_count[e] = st->count_known ? (int64_t)st->count : -1;
		o->scope_count_why[e] = st->count_known ? NULL : st->why;
		o->have_scope = true;
		valid++;
	}
	o->scope_source = source;
	return valid;
}

const char *compare_verdict_name(enum compare_verdict v)
{
	switch (v) {
	case COMPARE_AGREE: return "agree";
	case COMPARE_DISAGREE: return "disagree";
	case COMPARE_NO_OVERLAP: return "no-overlap";
	case COMPARE_AMBIGUOUS: return "ambiguous";
	case COMPARE_TOO_FEW: return "too-few-edges";
	}
	return "?";
}

int compare_verdict_exit(enum compare_verdict v)
{
	switch (v) {
	case COMPARE_AGREE: return SQW_EXIT_OK;
	case COMPARE_DISAGREE: case COMPARE_NO_OVERLAP: return SQW_EXIT_LIMIT;
	case COMPARE_AMBIGUOUS: case COMPARE_TOO_FEW: return SQW_EXIT_USAGE;
	}
	return SQW_EXIT_USAGE;
}

int compare_exit(const struct compare *c)
{
	int code = compare_verdict_exit(c->verdict);

	if (code == SQW_EXIT_OK && c->o->capture && !c->cov.enough)
		return SQW_EXIT_LIMIT;
	return code;
}

/* The log path to open (a stream was copied into a memory file). */
static const char *run_path(const struct compare *c)
{
	return c->run_fd >= 0 ? c->run_path : c->o->run;
}

static enum compare_status open_run(const struct compare *c, struct edgelog_reader **r,
				    char *err, size_t errlen)
{
	enum edgelog_status st;

	*r = edgelog_reader_open(run_path(c), &st, err, errlen);
	if (*r)
		return COMPARE_OK;
	return st == EDGELOG_E_IO ? COMPARE_E_IO : COMPARE_E_INPUT;
}

static int log_sniff(const void *data, size_t len)
{
	return len >= 8 && !memcmp(data, EDGELOG_MAGIC, 8);
}

/* The capture, compactly; refused once it holds more edges than this run
 * could explain. */
static enum compare_status load_capture(struct compare *c, uint64_t max_edges, char *err,
					size_t errlen)
{
	struct capture_edge e;
	enum compare_status st;
	int got;

	c->cap = capture_open(c->o->capture, &c->o->copts, err, errlen);
	if (!c->cap)
		return errno == ENOENT || errno == EACCES || errno == EIO || errno == ENOMEM ||
		       errno == EISDIR ? COMPARE_E_IO : COMPARE_E_INPUT;
	c->ci = capture_info(c->cap);
	while ((got = capture_next_edge(c->cap, &e)) == 1) {
		if (c->caps.n >= max_edges) {
			msgbuf_set(err, errlen, "%s: more than %" PRIu64 " edges, "
				   "over twice what the run has records: not a capture of this run's "
				   "line (another --channel?)", c->ci->path, max_edges);
			return COMPARE_E_INPUT;
		}
		if (align_caps_add(&c->caps, &e)) {
			msgbuf_set(err, errlen, "%s: out of memory after %zu edges",
				   c->ci->path, c->caps.n);
			return COMPARE_E_IO;
		}
	}
	if (got < 0) {
		st = errno == EIO ? COMPARE_E_IO : COMPARE_E_INPUT;
		msgbuf_set(err, errlen, "%s", capture_error(c->cap));
		return st;
	}
	c->ncap = c->caps.n;
	return COMPARE_OK;
}

/* A scope count given: the pulse the last record closed, kept for the
 * prediction (its polarity's and, if wanted, any polarity's). */
static int pulse_keep(struct compare *c)
{
	struct edgestats_pulse pp;
	enum edgestats_polarity pol;

	if (!c->want_pulses[EDGESTATS_POS] && !c->want_pulses[EDGESTATS_NEG] &&
	    !c->want_pulses[EDGESTATS_ANY])
		return 0;
	if (!edgestats_last_pulse(c->ses, &pp, &pol))
		return 0;
	if (c->want_pulses[pol] &&
	    scopepredict_pulses_add(&c->pulses[pol], pp.width_ns, pp.lo_ns, pp.hi_ns) < 0)
		return -1;
	if (c->want_pulses[EDGESTATS_ANY] &&
	    scopepredict_pulses_add(&c->pulses[EDGESTATS_ANY], pp.width_ns, pp.lo_ns, pp.hi_ns) < 0)
		return -1;
	return 0;
}

/* Pass 1: every record once, into the search and (scope mode) the stats. */
static enum compare_status pass1(struct compare *c, struct align_search *s, char *err,
				 size_t errlen)
{
	struct edge_rec e;
	enum compare_status st;
	int got;

	st = open_run(c, &c->rr, err, errlen);
	if (st)
		return st;
	c->meta = edgelog_reader_meta(c->rr);
	if (c->o->have_scope) {
		c->ses = edgestats_new((int64_t)c->meta->half_period_ns);
		if (!c->ses) {
			msgbuf_set(err, errlen, "out of memory");
			return COMPARE_E_IO;
		}
		edgestats_set_pin(c->ses, &c->meta->pin);
	}
	while ((got = edgelog_reader_next(c->rr, &e)) == 1) {
		if (s)
			align_search_feed(s, &e);
		if (c->ses) {
			edgestats_add(c->ses, &e);
			if (pulse_keep(c) < 0) {
				msgbuf_set(err, errlen, "out of memory (keeping the run's pulse widths "
					   "for the scope's prediction: 24 bytes a pulse)");
				return COMPARE_E_IO;
			}
		}
		c->records++;
	}
	if (got < 0) {
		enum edgelog_status est;
		const char *why = edgelog_reader_error(c->rr, &est);

		/* a corrupt record is bad input (exit 2), a failed read I/O (3) */
		msgbuf_set(err, errlen, "%s", why ? why : strerror(errno));
		return est == EDGELOG_E_IO ? COMPARE_E_IO : COMPARE_E_INPUT;
	}
	c->truncated = !edgelog_reader_footer(c->rr);
	if (c->ses)
		c->ser = edgestats_result(c->ses);
	return COMPARE_OK;
}

/* The kernel's event of the window record just added (INT64_MIN: none). */
static int kernel_add(struct compare *c, const struct loopjoin_edge *je)
{
	if (c->win.n > c->kernel_cap) {
		size_t n = c->kernel_cap ? 2 * c->kernel_cap : 4096;
		int64_t *k = realloc(c->kernel_ns, n * sizeof(*k));

		if (!k)
			return -1;
		c->kernel_ns = k;
		c->kernel_cap = n;
	}
	c->kernel_ns[c->win.n - 1] = je->has_event ? (int64_t)je->event_ns : INT64_MIN;
	return 0;
}

/* Pass 2: the records around the capture, compactly; a loopback log's
 * through the join, each with its kernel event (loopjoin.h). */
static enum compare_status pass2(struct compare *c, char *err, size_t errlen)
{
	struct edgelog_reader *r;
	struct loopjoin *lj = NULL;
	struct loopjoin_edge je;
	enum compare_status st;
	int got;

	st = open_run(c, &r, err, errlen);
	if (st)
		return st;
	if (loopjoin_log_has_loopback(edgelog_reader_meta(r))) {
		lj = loopjoin_new(r, 0, 0);
		if (!lj) {
			edgelog_reader_close(r);
			msgbuf_set(err, errlen, "out of memory");
			return COMPARE_E_IO;
		}
		c->have_kernel = true;
	}
	je.has_event = false;
	while ((got = lj ? loopjoin_next_edge(lj, &je) : edgelog_reader_next(r, &je.rec)) == 1) {
		const struct edge_rec *e = &je.rec;

		if ((int64_t)edge_write_end_ns(e) < c->w.keep_lo_ns)
			continue;
		if ((int64_t)edge_write_begin_ns(e) > c->w.keep_hi_ns)
			break;
		if (align_runs_add(&c->win, e) || (lj && kernel_add(c, &je) < 0)) {
			loopjoin_free(lj);
			edgelog_reader_close(r);
			st = errno == E2BIG ? COMPARE_E_INPUT : COMPARE_E_IO;
			msgbuf_set(err, errlen, "%s: %s around the capture's window", c->o->run,
				   errno == E2BIG ? "seq jumps by 2^32 or more" : "out of memory");
			return st;
		}
	}
	if (got < 0) {
		enum edgelog_status est;
		const char *why = lj ? loopjoin_error(lj) : edgelog_reader_error(r, &est);

		edgelog_reader_error(r, &est);
		msgbuf_set(err, errlen, "%s", why ? why : strerror(errno));
		st = est == EDGELOG_E_IO ? COMPARE_E_IO : COMPARE_E_INPUT;
		loopjoin_free(lj);
		edgelog_reader_close(r);
		return st;
	}
	loopjoin_free(lj);
	edgelog_reader_close(r);
	return COMPARE_OK;
}

bool compare_kernel_at(const struct compare *c, size_t k, int64_t *event_ns)
{
	if (!c->have_kernel || k >= c->win.n || c->kernel_ns[k] == INT64_MIN)
		return false;
	*event_ns = c->kernel_ns[k];
	return true;
}

/* Pass 3: the log's widths over the aligned window; warm-up edges count
 * here, since the capture saw them. */
static enum compare_status pass3(struct compare *c, char *err, size_t errlen)
{
	struct edgelog_reader *r;
	struct edge_rec e;
	enum compare_status st;
	int got;

	c->es = edgestats_new((int64_t)c->meta->half_period_ns);
	if (!c->es) {
		msgbuf_set(err, errlen, "out of memory");
		return COMPARE_E_IO;
	}
	edgestats_set_pin(c->es, &c->meta->pin);
	st = open_run(c, &r, err, errlen);
	if (st)
		return st;
	while ((got = edgelog_reader_next(r, &e)) == 1) {
		if (e.seq < c->r.first_seq)
			continue;
		if (e.seq > c->r.last_seq)
			break;
		e.flags &= (uint8_t)~EDGE_F_WARMUP;
		edgestats_add(c->es, &e);
	}
	edgelog_reader_close(r);
	if (got < 0) {
		msgbuf_set(err, errlen, "%s: read error: %s", c->o->run, strerror(errno));
		return COMPARE_E_IO;
	}
	c->er = edgestats_result(c->es);
	return COMPARE_OK;
}

/* Keep the @o->worst largest |residual|s beyond the tolerance: a min-heap. */
static void worst_push(struct compare *c, const struct compare_worst *w)
{
	struct compare_worst *h = c->worst, t;
	size_t n = c->nworst, i;

	if (!c->o->worst)
		return;
	if (n == c->o->worst) {
		if (fabs(w->residual_ns) <= fabs(h[0].residual_ns))
			return;
		/* replace the root and sift down */
		h[0] = *w;
		for (i = 0;;) {
			size_t l = 2 * i + 1, rr = l + 1, m = i;

			if (l < n && fabs(h[l].residual_ns) < fabs(h[m].residual_ns))
				m = l;
			if (rr < n && fabs(h[rr].residual_ns) < fabs(h[m].residual_ns))
				m = rr;
			if (m == i)
				break;
			t = h[i];
			h[i] = h[m];
			h[m] = t;
			i = m;
		}
		return;
	}
	h[n] = *w;
	for (i = n; i > 0;) {
		size_t p = (i - 1) / 2;

		if (fabs(h[p].residual_ns) <= fabs(h[i].residual_ns))
			break;
		t = h[i];
		h[i] = h[p];
		h[p] = t;
		i = p;
	}
	c->nworst++;
}

static int worst_cmp(const void *a, const void *b)
{
	double x = fabs(((const struct compare_worst *)a)->residual_ns);
	double y = fabs(((const struct compare_worst *)b)->residual_ns);

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Side-by-side statistics and residuals over the aligned window. */
static int window_stats(struct compare *c)
{
	const struct align_result *r = &c->r;
	double drift = fabs(r->drift_ppm) * 1e-6;
	size_t i;
	int p;

	/* capture pulses, as the instrument measured them, labelled by the
	 * log's polarity (an inverted probe sees a positive pulse as negative) */
	for (i = 0; i + 1 < c->ncap; i++) {
		int64_t wns;
		int pol;

		if (align_caps_gap(&c->caps, i + 1))
			continue;
		wns = llround(capture_ps_to_ns(align_caps_t(&c->caps, i + 1) - align_caps_t(&c->caps, i)));
		pol = (align_caps_level(&c->caps, i) ^ (unsigned)r->inverted) ? EDGESTATS_POS
									       : EDGESTATS_NEG;
		stats_hist_add(&c->cw[pol], wns);
		stats_hist_add(&c->cw[EDGESTATS_ANY], wns);
	}
	c->cw_tol_ns = r->tolerance_ns + capture_ps_to_ns(c->ap.resolution_ps);
	for (p = 0; p < EDGESTATS_NPOL; p++) {
		const struct edgestats_widths *lw = &c->er->width[p];
		const struct stats_hist *ch = &c->cw[p];
		double slack = c->cw_tol_ns, mn = (double)ch->m.min, mx = (double)ch->m.max;

		if (!ch->m.n || !lw->h.m.n) {
			c->width_ok[p][0] = c->width_ok[p][1] = ch->m.n == lw->h.m.n;
			continue;
		}
		/* the true Tmin is in [lowest lo, hi of the shortest estimate];
		 * Tmax in [lo of the longest estimate, highest hi] */
		c->width_ok[p][0] = mn >= (double)lw->tmin_bound.lo_ns - slack - drift * mn &&
				    mn <= (double)lw->tmin.hi_ns + slack + drift * mn;
		c->width_ok[p][1] = mx >= (double)lw->tmax.lo_ns - slack - drift * mx &&
				    mx <= (double)lw->tmax_bound.hi_ns + slack + drift * mx;
	}
	c->worst = calloc(c->o->worst ? c->o->worst : 1, sizeof(*c->worst));
	if (!c->worst)
		return -1;
	for (i = 0; i < c->ncap; i++) {
		struct align_pair pr;
		const struct align_run_edge *re;
		double ww, cmk;
		int64_t kev;
		bool kgot;

		if (!align_pair_of(r, i, &pr))
			continue;
		re = align_runs_at(&c->win, pr.run);
		ww = (double)re->ww_ns;
		stats_moments_add(&c->res_m, llround(pr.residual_ns));
		stats_hist_add(&c->res_abs, llround(fabs(pr.residual_ns)));
		if (pr.residual_ns == 0)
			c->inside++;
		if (ww > 0 && pr.residual_ns == 0)
			stats_moments_add(&c->frac_m, llround(1000 * pr.from_begin_ns / ww));
		/* the capture's edge on the log clock is write_begin + from_begin */
		kgot = compare_kernel_at(c, pr.run, &kev);
		cmk = kgot ? pr.from_begin_ns - (double)(kev - re->wb_ns) : 0;
		if (kgot)
			stats_hist_add(&c->cap_minus_kernel, llround(cmk));
		if (fabs(pr.residual_ns) > r->tolerance_ns) {
			struct compare_worst w = {
				.seq = align_runs_seq(&c->win, pr.run),
				.level = re->level,
				.cap_t_ps = align_caps_t(&c->caps, i),
				.residual_ns = pr.residual_ns,
				.window_ns = re->ww_ns,
				.has_kernel = kgot,
				.cap_minus_kernel_ns = cmk,
			};

			worst_push(c, &w);
		}
	}
	qsort(c->worst, c->nworst, sizeof(*c->worst), worst_cmp);
	for (i = align_missing_next(r, 0); i != SIZE_MAX; i = align_missing_next(r, i + 1)) {
		int64_t kev;

		if (compare_kernel_at(c, i, &kev))
			c->kernel_missing_seen++;
	}
	return 0;
}

static void scope_check(struct compare *c)
{
	int p, mx, judged = 0;
	double level;

	/* the readings a count lets us predict share the false-alarm chance */
	for (p = 0; p < EDGESTATS_NPOL; p++)
		for (mx = 0; mx < 2; mx++)
			if (c->o->scope[p][mx].set && c->o->scope_count[p] >= 0 &&
			    c->ser->width[p].h.m.n)
				judged++;
	level = 1 - (1 - COMPARE_SCOPE_LEVEL) / (judged ? judged : 1);
	for (p = 0; p < EDGESTATS_NPOL; p++)
		for (mx = 0; mx < 2; mx++) {
			const struct compare_reading *sr = &c->o->scope[p][mx];
			const struct edgestats_widths *lw = &c->ser->width[p];
			int64_t tol, lo, hi;

			c->scope_ok[p][mx] = true;
			if (!sr->set)
				continue;
			tol = c->o->scope_abs_ns >= 0 ? c->o->scope_abs_ns
						      : llround(c->o->scope_rel * (double)sr->ns);
			c->scope_tol[p][mx] = tol;
			if (!lw->h.m.n) {
				c->scope_ok[p][mx] = false;
				continue;
			}
			lo = mx ? lw->tmax.lo_ns : lw->tmin_bound.lo_ns;
			hi = mx ? lw->tmax_bound.hi_ns : lw->tmin.hi_ns;
			if (c->o->scope_count[p] >= 0) {
				struct scopepredict *pr = &c->pred[p][mx];

				scopepredict_pulses_sort(&c->pulses[p]);
				scopepredict_extreme(&c->pulses[p], (uint64_t)c->o->scope_count[p], mx,
						     level, pr);
				c->have_pred[p][mx] = true;
				/* N > M or N = 0: no interval; the bounds alone */
				if (pr->status == SCOPEPREDICT_OK) {
					lo = pr->lo_ns;
					hi = pr->hi_ns;
				}
			}
			c->scope_ok[p][mx] = sr->ns >= lo - tol && sr->ns <= hi + tol;
		}
	for (p = 0; p < EDGESTATS_NPOL; p++)
		scopepredict_pulses_free(&c->pulses[p]);
}

/* The capture's coverage of the run: its span less its data gaps, and
 * the run's edges in that time (the window's, less those in gaps). */
static void coverage_measure(struct compare *c)
{
	struct compare_coverage *v = &c->cov;
	int64_t gap_ps = 0;

	v->run_edges = c->records;
	for (size_t i = 1; i < c->caps.n; i++)
		if (align_caps_gap(&c->caps, i)) {
			v->gaps++;
			gap_ps += align_caps_t(&c->caps, i) - align_caps_t(&c->caps, i - 1);
		}
	v->span_s = capture_ps_to_s(c->ci->end_ps - c->ci->start_ps);
	v->covered_s = v->span_s - capture_ps_to_s(gap_ps);
	if (v->covered_s < 0)
		v->covered_s = 0;
	if (c->aligned && c->r.covered >= c->r.in_gap)
		v->covered_edges = c->r.covered - c->r.in_gap;
	v->fraction = v->run_edges ? (double)v->covered_edges / (double)v->run_edges : 0;
	v->enough = c->o->min_coverage < 0 || v->fraction >= c->o->min_coverage;
}

static void decide(struct compare *c)
{
	int p, mx;
	bool agree = true;

	if (c->o->capture) {
		if (!c->aligned) {
			c->verdict = c->w.status == ALIGN_AMBIGUOUS ? COMPARE_AMBIGUOUS
				     : c->w.status == ALIGN_TOO_FEW ? COMPARE_TOO_FEW
				     : COMPARE_NO_OVERLAP;
			return;
		}
		if (c->r.disagree || c->r.nmissing || c->r.nextra)
			agree = false;
		for (p = 0; p < EDGESTATS_NPOL; p++)
			if (!c->width_ok[p][0] || !c->width_ok[p][1])
				agree = false;
	}
	if (c->ser)
		for (p = 0; p < EDGESTATS_NPOL; p++)
			for (mx = 0; mx < 2; mx++)
				if (!c->scope_ok[p][mx])
					agree = false;
	c->verdict = agree ? COMPARE_AGREE : COMPARE_DISAGREE;
}

/* Records the log can hold at most: its size over a record's. */
static uint64_t run_records_max(const struct compare *c)
{
	struct stat st;

	if (stat(run_path(c), &st) || st.st_size <= 0)
		return 0;
	return (uint64_t)st.st_size / sizeof(struct edge_rec);
}

enum compare_status compare_run(const struct compare_opts *o, struct compare **out,
				char *err, size_t errlen)
{
	struct compare *c = calloc(1, sizeof(*c));
	struct align_search *s = NULL;
	enum compare_status st = COMPARE_OK;

	*out = NULL;
	if (!c) {
		msgbuf_set(err, errlen, "out of memory");
		return COMPARE_E_IO;
	}
	c->o = o;
	c->run_fd = -1;
	stats_moments_init(&c->res_m);
	stats_moments_init(&c->frac_m);
	for (int p = 0; p < EDGESTATS_NPOL; p++)
		if (stats_hist_init(&c->cw[p], STATS_HIST_DEFAULT_HIGHEST) < 0)
			goto nomem;
	if (stats_hist_init(&c->res_abs, STATS_HIST_DEFAULT_HIGHEST) < 0 ||
	    stats_hist_init(&c->cap_minus_kernel, STATS_HIST_DEFAULT_HIGHEST) < 0)
		goto nomem;
	c->hist_live = true;
	if (o->capture && !strcmp(o->run, "-") && !strcmp(o->capture, "-")) {
		msgbuf_set(err, errlen, "only one of RUN and CAPTURE can be standard input");
		st = COMPARE_E_INPUT;
		goto out;
	}
	if (capture_path_is_stream(o->run)) {
		/* the log is read three times: hold a stream in memory (bounded) */
		c->run_fd = capture_spool(o->run, CAPTURE_STREAM_MAX, log_sniff, err, errlen);
		if (c->run_fd < 0) {
			st = errno == EIO || errno == ENOMEM ? COMPARE_E_IO : COMPARE_E_INPUT;
			goto out;
		}
		snprintf(c->run_path, sizeof(c->run_path), "/proc/self/fd/%d", c->run_fd);
	}
	for (int p = 0; p < EDGESTATS_NPOL; p++)
		c->want_pulses[p] = o->scope_count[p] >= 0 &&
				    (o->scope[p][0].set || o->scope[p][1].set);
	if (o->capture) {
		st = load_capture(c, 2 * run_records_max(c) + 4096, err, errlen);
		if (st)
			goto out;
		c->ap.resolution_ps = c->ci->resolution_ps > 0 ? c->ci->resolution_ps : 1;
		c->ap.max_drift_ppm = o->max_drift_ppm;
		c->ap.tolerance_ns = o->tolerance_ns;
		c->ap.first_seq = o->first_seq;
		s = align_search_new(&c->caps, c->ci->start_ps, c->ci->end_ps, &c->ap);
		if (!s)
			goto nomem;
	}
	st = pass1(c, s, err, errlen);
	if (st)
		goto out;
	if (s) {
		align_search_finish(s, &c->w);
		if (c->w.status == ALIGN_FOUND) {
			st = pass2(c, err, errlen);
			if (st)
				goto out;
			if (align_match(&c->win, &c->caps, &c->w, &c->ap, &c->r) < 0)
				goto nomem;
			c->w.status = c->r.status;
			c->aligned = c->r.status == ALIGN_FOUND && c->r.npairs > 0;
			if (c->aligned) {
				st = pass3(c, err, errlen);
				if (st)
					goto out;
				if (window_stats(c) < 0)
					goto nomem;
			}
		}
	}
	if (o->capture)
		coverage_measure(c);
	if (c->ser)
		scope_check(c);
	decide(c);
	align_search_free(s);
	*out = c;
	return COMPARE_OK;
nomem:
	msgbuf_set(err, errlen, "out of memory");
	st = COMPARE_E_IO;
out:
	align_search_free(s);
	compare_free(c);
	return st;
}

void compare_free(struct compare *c)
{
	if (!c)
		return;
	for (int p = 0; p < EDGESTATS_NPOL; p++)
		stats_hist_free(&c->cw[p]);
	stats_hist_free(&c->res_abs);
	stats_hist_free(&c->cap_minus_kernel);
	free(c->kernel_ns);
	edgestats_free(c->es);
	edgestats_free(c->ses);
	for (int p = 0; p < EDGESTATS_NPOL; p++)
		scopepredict_pulses_free(&c->pulses[p]);
	align_result_free(&c->r);
	align_caps_free(&c->caps);
	align_runs_free(&c->win);
	free(c->worst);
	if (c->rr)
		edgelog_reader_close(c->rr);
	capture_close(c->cap);
	if (c->run_fd >= 0)
		close(c->run_fd);
	free(c);
}

size_t compare_missing_next(const struct compare *c, size_t from, uint64_t *seq, uint8_t *level,
			    double *cap_t_s)
{
	size_t k = align_missing_next(&c->r, from);
	const struct align_run_edge *re;
	double mid;

	if (k == SIZE_MAX)
		return k;
	re = align_runs_at(&c->win, k);
	*seq = align_runs_seq(&c->win, k);
	*level = re->level;
	mid = (double)(int64_t)((uint64_t)re->wb_ns + re->ww_ns / 2 - (uint64_t)c->r.ref_ns);
	*cap_t_s = (c->r.offset_ns + (1 + c->r.drift_ppm * 1e-6) * mid) / 1e9;
	return k;
}

size_t compare_extra_next(const struct compare *c, size_t from, int64_t *t_ps, uint8_t *level)
{
	size_t i = align_extra_next(&c->r, from);

	if (i == SIZE_MAX)
		return i;
	*t_ps = align_caps_t(&c->caps, i);
	*level = (uint8_t)align_caps_level(&c->caps, i);
	return i;
}

static uint64_t paired_seq(const struct compare *c, int dir)
{
	struct align_pair pr;

	if (!c->aligned)
		return 0;
	for (size_t k = 0; k < c->ncap; k++) {
		size_t i = dir > 0 ? k : c->ncap - 1 - k;

		if (align_pair_of(&c->r, i, &pr))
			return align_runs_seq(&c->win, pr.run);
	}
	return 0;
}

uint64_t compare_first_paired_seq(const struct compare *c)
{
	return paired_seq(c, +1);
}

uint64_t compare_last_paired_seq(const struct compare *c)
{
	return paired_seq(c, -1);
}
