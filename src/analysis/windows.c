/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Figures per window of time, the worst window of each, and the MTBF of
 * limit crossings (windows.h). */
#include "analysis/windows.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct windows *windows_new(const struct windows_opts *o)
{
	struct windows *w;

	if (!o || o->window_ns <= 0) {
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->o = *o;
	if (w->o.respond)
		w->o.half_period_ns = 0;	/* no grid: lost events sit at their answer */
	return w;
}

void windows_set_limits(struct windows *w, int64_t tmin_ns, int64_t tmax_ns, int64_t wake_ns,
			int64_t response_ns)
{
	w->o.lim_tmin_ns = tmin_ns;
	w->o.lim_tmax_ns = tmax_ns;
	w->o.lim_wake_ns = wake_ns;
	w->o.lim_response_ns = response_ns;
}

void windows_free(struct windows *w)
{
	if (!w)
		return;
	free(w->rows);
	free(w);
}

/* The row of time @t after the origin (negative: the first), NULL when it
 * is beyond what a run can be or memory ran out (counted in beyond). */
static struct windows_row *row_at(struct windows *w, int64_t t)
{
	uint64_t idx = t > 0 ? (uint64_t)t / (uint64_t)w->o.window_ns : 0;

	if (idx >= WINDOWS_MAX_ROWS) {
		w->beyond++;
		return NULL;
	}
	if (idx >= w->nrows) {
		if (idx >= w->cap) {
			size_t cap = w->cap ? w->cap : 16;
			struct windows_row *r;

			while (cap <= idx)
				cap *= 2;
			r = realloc(w->rows, cap * sizeof(*r));
			if (!r) {
				w->beyond++;
				return NULL;
			}
			w->rows = r;
			w->cap = cap;
		}
		memset(&w->rows[w->nrows], 0, (idx + 1 - w->nrows) * sizeof(*w->rows));
		w->nrows = idx + 1;
	}
	return &w->rows[idx];
}

static int64_t since(const struct windows *w, uint64_t intended)
{
	return (int64_t)(intended - w->origin_ns);
}

static void peak(struct windows_peak *pk, bool higher, int64_t v, int64_t bound, uint64_t seq,
		 int64_t t)
{
	if (pk->have && (higher ? v <= pk->value_ns : v >= pk->value_ns))
		return;	/* ties keep the earlier edge */
	pk->have = true;
	pk->value_ns = v;
	pk->bound_ns = bound;
	pk->seq = seq;
	pk->t_ns = t > 0 ? (uint64_t)t : 0;
}

/* An edge that broke a limit: once per edge, whichever limits it broke. */
static void crossing(struct windows *w, struct windows_row *r, uint64_t seq)
{
	if (w->have_cross && w->last_cross_seq == seq)
		return;
	w->have_cross = true;
	w->last_cross_seq = seq;
	w->crossings++;
	if (r)
		r->crossings++;
}

/* @n missed slots before the edge at @t: the slots at t - j x half period
 * (j = 1..n), each in the window its deadline falls in; without a grid
 * (respond, an unknown period) all in the edge's window. */
static void add_missed(struct windows *w, int64_t t, uint64_t n)
{
	int64_t hp = w->o.half_period_ns, wn = w->o.window_ns;
	uint64_t left = n;
	int64_t lo;

	if (hp <= 0 || t <= 0) {
		struct windows_row *r = row_at(w, t);

		if (r)
			r->missed += n;
		return;
	}
	/* from the edge's window back: c(lo) = slots at or after lo */
	lo = (t / wn) * wn;
	while (left) {
		uint64_t at_or_after = (uint64_t)((t - lo) / hp);
		uint64_t here;
		struct windows_row *r;

		if (at_or_after > n)
			at_or_after = n;
		here = at_or_after - (n - left);
		if (lo <= 0)
			here = left;	/* slots before the first counted edge: its window */
		r = row_at(w, lo);
		if (r)
			r->missed += here;
		left -= here;
		lo -= wn;
	}
}

void windows_add(struct windows *w, const struct edge_rec *e, uint64_t missed, int64_t lat,
		 const struct edgestats_pulse *p)
{
	bool noevent = w->o.respond && (e->flags & EDGE_F_NOEVENT);
	struct windows_row *r;
	uint64_t gap = w->have_prev && e->seq > w->prev_seq + 1 ? e->seq - w->prev_seq - 1 : 0;
	int64_t t;

	w->have_prev = true;
	w->prev_seq = e->seq;
	if (e->flags & EDGE_F_WARMUP)
		return;
	if (!w->have_origin) {
		w->have_origin = true;
		w->origin_ns = e->intended_ns;
	}
	w->last_ns = e->intended_ns;
	t = since(w, e->intended_ns);

	/* the pulse this edge ends (p->at is this edge: pulses are numbered
	 * by their end), then the edge's own figures */
	if (p) {
		int64_t tp = since(w, p->at.intended_ns);
		struct windows_row *pr = row_at(w, tp);

		if (pr) {
			pr->pulses++;
			peak(&pr->tmin, false, p->width_ns, p->lo_ns, p->at.seq, tp);
			peak(&pr->tmax, true, p->width_ns, p->hi_ns, p->at.seq, tp);
		}
		if (w->o.lim_tmin_ns > 0 && p->lo_ns < w->o.lim_tmin_ns) {
			w->cross_tmin++;
			crossing(w, pr, p->at.seq);
		}
		if (w->o.lim_tmax_ns > 0 && p->hi_ns > w->o.lim_tmax_ns) {
			w->cross_tmax++;
			crossing(w, pr, p->at.seq);
		}
	}
	r = row_at(w, t);
	if (r) {
		r->edges++;
		r->dropped += gap;
	}
	if (missed)
		add_missed(w, t, missed);
	if (noevent)
		return;
	if (r)
		peak(&r->wake, true, lat, lat, e->seq, t);
	if (w->o.lim_wake_ns > 0 && lat > w->o.lim_wake_ns) {
		w->cross_wake++;
		crossing(w, r, e->seq);
	}
	if (w->o.respond && !(e->flags & EDGE_F_WRITE_ERR) && !(e->flags & EDGE_F_SATURATED)) {
		int64_t resp = e->write_end_off_ns;

		if (r)
			peak(&r->response, true, resp, resp, e->seq, t);
		if (w->o.lim_response_ns > 0 && resp > w->o.lim_response_ns) {
			w->cross_response++;
			crossing(w, r, e->seq);
		}
	}
}

/* The index of the worst row by @pick, SIZE_MAX when none has it. */
static size_t worst_row(const struct windows *w, const struct windows_peak *(*pick)(const struct windows_row *),
			bool higher)
{
	size_t i, best = SIZE_MAX;

	for (i = 0; i < w->nrows; i++) {
		const struct windows_peak *pk = pick(&w->rows[i]), *b;

		if (!pk->have)
			continue;
		b = best == SIZE_MAX ? NULL : pick(&w->rows[best]);
		if (!b || (higher ? pk->value_ns > b->value_ns : pk->value_ns < b->value_ns))
			best = i;
	}
	return best;
}

static const struct windows_peak *pick_wake(const struct windows_row *r) { return &r->wake; }
static const struct windows_peak *pick_tmin(const struct windows_row *r) { return &r->tmin; }
static const struct windows_peak *pick_tmax(const struct windows_row *r) { return &r->tmax; }
static const struct windows_peak *pick_resp(const struct windows_row *r) { return &r->response; }

void windows_result(const struct windows *w, struct windows_result *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->window_ns = w->o.window_ns;
	r->nrows = w->nrows;
	r->beyond = w->beyond;
	if (w->have_origin)
		r->observed_ns = since(w, w->last_ns) + (w->o.half_period_ns > 0 ? w->o.half_period_ns : 0);
	if (r->nrows) {
		int64_t full = (int64_t)(r->nrows - 1) * w->o.window_ns;

		r->last_ns = r->observed_ns - full;
		if (r->last_ns > w->o.window_ns)
			r->last_ns = w->o.window_ns;	/* the last slot ends past the window */
		if (r->last_ns < 0)
			r->last_ns = 0;
		r->last_partial = r->last_ns < w->o.window_ns;
	}
	r->worst_wake = worst_row(w, pick_wake, true);
	r->worst_tmin = worst_row(w, pick_tmin, false);
	r->worst_tmax = worst_row(w, pick_tmax, true);
	r->worst_response = worst_row(w, pick_resp, true);
	r->worst_missed = SIZE_MAX;
	for (i = 0; i < w->nrows; i++) {
		if (w->rows[i].missed &&
		    (r->worst_missed == SIZE_MAX || w->rows[i].missed > w->rows[r->worst_missed].missed))
			r->worst_missed = i;
	}
	r->limits = w->o.lim_tmin_ns > 0 || w->o.lim_tmax_ns > 0 || w->o.lim_wake_ns > 0 ||
		    (w->o.respond && w->o.lim_response_ns > 0);
	r->crossings = w->crossings;
	r->cross_tmin = w->cross_tmin;
	r->cross_tmax = w->cross_tmax;
	r->cross_wake = w->cross_wake;
	r->cross_response = w->cross_response;
	if (r->limits && r->crossings)
		r->mtbf_s = (double)r->observed_ns / 1e9 / (double)r->crossings;
}
