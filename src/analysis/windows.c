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

/* A new last row for @windows windows from @idx; NULL when the rows are
 * full or memory ran out (the caller counts the figure in beyond). */
static struct windows_row *row_append(struct windows *w, uint64_t idx, uint64_t windows)
{
	struct windows_row *r;

	if (w->nrows >= WINDOWS_MAX_ROWS)
		return NULL;
	if (w->nrows == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 16;

		r = realloc(w->rows, cap * sizeof(*r));
		if (!r)
			return NULL;
		w->rows = r;
		w->cap = cap;
	}
	r = &w->rows[w->nrows++];
	memset(r, 0, sizeof(*r));
	r->index = idx;
	r->windows = windows;
	r->missed_most_at = idx;
	return r;
}

/* The window after the last row's windows (0: no row yet). */
static uint64_t next_window(const struct windows *w)
{
	const struct windows_row *last = w->nrows ? &w->rows[w->nrows - 1] : NULL;

	return last ? last->index + last->windows : 0;
}

/* The window of time @t after the origin (negative: the first). */
static uint64_t window_of(const struct windows *w, int64_t t)
{
	return t > 0 ? (uint64_t)t / (uint64_t)w->o.window_ns : 0;
}

/* The row of window @idx: the last row when it is that window alone, else
 * a new one. NULL, counted in beyond, when @idx lies before the rows'
 * end (a time out of order) or no row can be added. */
static struct windows_row *row_at_window(struct windows *w, uint64_t idx)
{
	struct windows_row *r;

	if (w->nrows) {
		struct windows_row *last = &w->rows[w->nrows - 1];

		if (last->index == idx && last->windows == 1)
			return last;
		if (idx < last->index + last->windows) {
			w->beyond++;
			return NULL;
		}
	}
	r = row_append(w, idx, 1);
	if (!r)
		w->beyond++;
	return r;
}

static struct windows_row *row_at(struct windows *w, int64_t t)
{
	return row_at_window(w, window_of(w, t));
}

/* @n more missed periods in a row of one window. */
static void row_missed(struct windows_row *r, uint64_t n)
{
	r->missed += n;
	r->missed_most = r->missed;
	r->missed_most_at = r->index;
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

/*
 * The missed slots of an edge at @t (> 0, ns after the origin) on a grid of
 * @hp: slot j (1..n) is at t - j x hp; a slot before the origin counts as at
 * the origin. slots_from(lo) is how many are at or after @lo (>= 0).
 */
struct stall {
	uint64_t t, hp, wn, n;
};

static uint64_t slots_from(const struct stall *st, uint64_t lo)
{
	uint64_t k;

	if (lo == 0)
		return st->n;
	if (lo > st->t)
		return 0;
	k = (st->t - lo) / st->hp;	/* j <= (t - lo) / hp */
	return k < st->n ? k : st->n;
}

/* Window @k's slots, for a window wholly inside the stall: q or q + 1,
 * where wn = q x hp + r; q + 1 exactly when (t - k x wn) mod hp < r. */
static uint64_t window_slots(const struct stall *st, uint64_t k)
{
	return slots_from(st, k * st->wn) - slots_from(st, (k + 1) * st->wn);
}

/* Of the windows @a..@b (@a >= 1, wholly inside the stall, @a <= @b), the
 * first with the most slots, found in O(1): the count is q + 1 at the first
 * k >= a with d_k = (t - k x wn) mod hp < r, and d_(k+1) = d_k - r while it
 * stays >= 0, so that k is a + d_a / r (when d_a >= r). */
static uint64_t stall_most_at(const struct stall *st, uint64_t a, uint64_t b)
{
	uint64_t r = st->wn % st->hp, d = (st->t - a * st->wn) % st->hp, k;

	if (!r || d < r)
		return a;
	k = a + d / r;
	return k <= b ? k : a;
}

/* The row of a stall's windows @a..@b with @total slots; @first: window @a
 * is the stall's first, partly covered (its count is all the slots before
 * its end), else @a is wholly inside. */
static void stall_row(struct windows *w, const struct stall *st, uint64_t a, uint64_t b,
		      uint64_t total, bool first)
{
	struct windows_row *r = row_append(w, a, b - a + 1);
	uint64_t m, mat;

	if (!r) {
		w->beyond++;
		return;
	}
	r->missed = total;
	m = first ? st->n - slots_from(st, (a + 1) * st->wn) : window_slots(st, a);
	mat = a;
	if (first && a < b) {	/* the windows after the first: whole */
		uint64_t k = stall_most_at(st, a + 1, b), c = window_slots(st, k);

		if (c > m) {
			m = c;
			mat = k;
		}
	} else if (!first && a < b) {
		mat = stall_most_at(st, a, b);
		m = window_slots(st, mat);
	}
	r->missed_most = m;
	r->missed_most_at = mat;
}

/* @n missed slots before the edge at @t: the slots at t - j x half period
 * (j = 1..n), each in the window its deadline falls in; without a grid
 * (respond, an unknown period) all in the edge's window. The windows
 * between the previous edge's and this one's that hold slots become one
 * row, its totals and its busiest window worked out, never walked: time
 * and memory do not depend on the stall's length. */
static void add_missed(struct windows *w, int64_t t, uint64_t n)
{
	struct stall st;
	struct windows_row *r;
	uint64_t ke, kf, next, edge_n, first_n;
	bool kf_is_last;

	if (w->o.half_period_ns <= 0 || t <= 0) {
		r = row_at(w, t);
		if (r)
			row_missed(r, n);
		return;
	}
	st = (struct stall){ (uint64_t)t, (uint64_t)w->o.half_period_ns,
			     (uint64_t)w->o.window_ns, n };
	ke = st.t / st.wn;
	/* the earliest slot's window (a slot before the origin: window 0) */
	kf = n <= st.t / st.hp ? (st.t - n * st.hp) / st.wn : 0;
	next = next_window(w);
	if (w->nrows && (ke + 1 < next || (ke + 1 == next && w->rows[w->nrows - 1].windows > 1))) {
		w->beyond++;	/* out of order: before the rows already made */
		return;
	}
	/* the slots never go before the last row: a valid source keeps them
	 * after the previous edge; anything earlier joins the first window */
	kf_is_last = false;
	if (w->nrows && kf + 1 <= next) {
		if (w->rows[w->nrows - 1].windows == 1 && next - 1 <= ke) {
			kf = next - 1;
			kf_is_last = true;
		} else {
			kf = next;
		}
	}
	if (kf > ke)
		kf = ke;
	edge_n = slots_from(&st, ke * st.wn);
	if (kf < ke) {
		uint64_t mid_n;

		first_n = n - slots_from(&st, (kf + 1) * st.wn);
		mid_n = n - first_n - edge_n;
		if (kf_is_last) {
			row_missed(&w->rows[w->nrows - 1], first_n);
			if (mid_n) {	/* windows kf+1..ke-1, trimmed to those with slots */
				uint64_t jmax = (st.t - (kf + 1) * st.wn) / st.hp;
				uint64_t jmin = (st.t - ke * st.wn) / st.hp + 1;
				uint64_t a = (st.t - (jmax < n ? jmax : n) * st.hp) / st.wn;
				uint64_t b = (st.t - jmin * st.hp) / st.wn;

				stall_row(w, &st, a, b, mid_n, false);
			}
		} else if (first_n + mid_n) {
			/* kf through the last window before ke that has a slot */
			uint64_t jmin = (st.t - ke * st.wn) / st.hp + 1;
			uint64_t b = jmin <= n ? (st.t - jmin * st.hp) / st.wn : kf;

			if (b < kf)
				b = kf;
			stall_row(w, &st, kf, b, first_n + mid_n, true);
		}
	} else {
		edge_n = n;	/* every slot (and any before the rows) in the edge's window */
	}
	r = row_at_window(w, ke);
	if (r && edge_n)
		row_missed(r, edge_n);
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

	/* the slots it missed first: their windows come before its own */
	if (missed)
		add_missed(w, t, missed);
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
	r->nwindows = next_window(w);
	r->beyond = w->beyond;
	if (w->have_origin)
		r->observed_ns = since(w, w->last_ns) + (w->o.half_period_ns > 0 ? w->o.half_period_ns : 0);
	if (r->nwindows) {
		int64_t full = (int64_t)(r->nwindows - 1) * w->o.window_ns;

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
		if (w->rows[i].missed_most && (r->worst_missed == SIZE_MAX ||
		    w->rows[i].missed_most > w->rows[r->worst_missed].missed_most))
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
