/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Capture-to-run alignment: pulse-width block search over the streamed run,
 * then edge tracking, a robust offset/drift fit and residuals (align.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"

#define DEF_DRIFT_PPM 500.0
#define DEF_BLOCK_LEN 48u
#define DEF_MAX_BLOCKS 16u
/* Matches kept per block: a block that fits more places than this says
 * nothing about where the capture is (a regular stretch of the wave). */
#define BLOCK_MAX_MATCHES 64u
#define MIN_TOL_NS 1.0          /* floor of the per-edge slack: float rounding */

const char *align_status_name(enum align_status st)
{
	switch (st) {
	case ALIGN_FOUND: return "aligned";
	case ALIGN_AMBIGUOUS: return "ambiguous";
	case ALIGN_NO_OVERLAP: return "no-overlap";
	case ALIGN_TOO_FEW: return "too-few-edges";
	}
	return "?";
}

static double res_ns_of(const struct align_params *p)
{
	return (double)p->resolution_fs / (double)CAPTURE_FS_PER_NS;
}

static double slack_ns_of(const struct align_params *p)
{
	double s = p->tolerance_ns >= 0 ? (double)p->tolerance_ns : res_ns_of(p);

	return s < MIN_TOL_NS ? MIN_TOL_NS : s;
}

static double drift_max_of(const struct align_params *p)
{
	return (p->max_drift_ppm > 0 ? p->max_drift_ppm : DEF_DRIFT_PPM) * 1e-6;
}

/* ------------------------------------------------------------------ */
/* pass 1: where in the run do blocks of capture pulse widths fit?     */

struct blk_match {
	uint64_t seq;              /* run edge at the block's first edge */
	int64_t mid_ns;            /* its write-window midpoint */
	double ww_ns;              /* widest write window in the block */
	uint8_t inv;
};

struct blk {
	size_t start;              /* capture index of the block's first edge */
	uint64_t count;            /* places it fits */
	bool overflow;             /* count > BLOCK_MAX_MATCHES: uninformative */
	unsigned support;
	struct blk_match m[BLOCK_MAX_MATCHES];
};

struct align_search {
	const struct capture_edge *cap;
	size_t n;
	int64_t span_lo_fs, span_hi_fs;
	struct align_params p;
	double res_ns, slack_ns, drift_max;
	unsigned M, nblk;
	struct blk *blk;
	double *cw, *ctol;         /* capture widths (ns) and their tolerance */
	/* the last RING run edges; slot k holds the width from edge k-1 to k */
	unsigned ring_mask;
	int64_t *mid2;             /* write_begin + write_end */
	double *rw, *rtol, *ww;    /* width, its tolerance (< 0: not measurable), window */
	uint8_t *lvl;
	uint64_t *seq;
	uint64_t fed;
	bool forced_seen;          /* first_seq mode: the record was fed */
	int64_t forced_ns;
	uint8_t forced_level;
};

static bool block_clean(const struct capture_edge *cap, size_t s, unsigned M)
{
	size_t i;

	for (i = s + 1; i <= s + M; i++)
		if (cap[i].flags & CAPTURE_EDGE_F_AFTER_GAP)
			return false;
	return true;
}

struct align_search *align_search_new(const struct capture_edge *cap, size_t n,
				      int64_t span_lo_fs, int64_t span_hi_fs,
				      const struct align_params *p)
{
	struct align_search *s = calloc(1, sizeof(*s));
	size_t nw, i, ring = 1;
	unsigned b, K;

	if (!s)
		return NULL;
	s->cap = cap;
	s->n = n;
	s->span_lo_fs = span_lo_fs;
	s->span_hi_fs = span_hi_fs;
	s->p = *p;
	s->res_ns = res_ns_of(p);
	s->slack_ns = slack_ns_of(p);
	s->drift_max = drift_max_of(p);
	nw = n > 0 ? n - 1 : 0;
	s->M = p->block_len ? p->block_len : DEF_BLOCK_LEN;
	if (s->M > nw)
		s->M = (unsigned)nw;
	while (ring < (size_t)s->M + 1)
		ring <<= 1;
	s->ring_mask = (unsigned)ring - 1;
	s->mid2 = calloc(ring, sizeof(*s->mid2));
	s->rw = calloc(ring, sizeof(*s->rw));
	s->rtol = calloc(ring, sizeof(*s->rtol));
	s->ww = calloc(ring, sizeof(*s->ww));
	s->lvl = calloc(ring, 1);
	s->seq = calloc(ring, sizeof(*s->seq));
	s->cw = calloc(nw + 1, sizeof(*s->cw));
	s->ctol = calloc(nw + 1, sizeof(*s->ctol));
	if (!s->mid2 || !s->rw || !s->rtol || !s->ww || !s->lvl || !s->seq || !s->cw || !s->ctol)
		goto nomem;
	for (i = 0; i < nw; i++) {
		s->cw[i] = (double)(cap[i + 1].t_fs - cap[i].t_fs) / (double)CAPTURE_FS_PER_NS;
		/* each end within a resolution, the user's slack, the drift, a margin */
		s->ctol[i] = s->res_ns + s->slack_ns + s->drift_max * s->cw[i] + 2.0;
	}
	if (n < 3 || p->first_seq >= 0)
		return s;       /* nothing to search: finish() says why */

	K = p->max_blocks ? p->max_blocks : DEF_MAX_BLOCKS;
	if (K > nw / s->M)
		K = (unsigned)(nw / s->M);
	if (K == 0)
		K = 1;
	s->blk = calloc(K, sizeof(*s->blk));
	if (!s->blk)
		goto nomem;
	for (b = 0; b < K; b++) {
		size_t st = K > 1 ? (nw - s->M) * b / (K - 1) : 0;

		/* slide past data gaps: a width across a gap is not measured */
		while (st + s->M <= nw && !block_clean(cap, st, s->M))
			st++;
		if (st + s->M > nw)
			continue;
		if (s->nblk && s->blk[s->nblk - 1].start >= st)
			continue;
		s->blk[s->nblk++].start = st;
	}
	return s;
nomem:
	align_search_free(s);
	errno = ENOMEM;
	return NULL;
}

void align_search_free(struct align_search *s)
{
	if (!s)
		return;
	free(s->mid2);
	free(s->rw);
	free(s->rtol);
	free(s->ww);
	free(s->lvl);
	free(s->seq);
	free(s->cw);
	free(s->ctol);
	free(s->blk);
	free(s);
}

static void block_try(struct align_search *s, struct blk *bk, uint64_t base)
{
	const unsigned mask = s->ring_mask;
	const double *cw = s->cw + bk->start, *ct = s->ctol + bk->start;
	double wmax = 0;
	unsigned i;

	for (i = 0; i < s->M; i++) {
		unsigned k = (unsigned)(base + i + 1) & mask;
		double d = cw[i] - s->rw[k];

		if (s->rtol[k] < 0 || fabs(d) > ct[i] + s->rtol[k])
			return;
	}
	for (i = 0; i <= s->M; i++) {
		unsigned k = (unsigned)(base + i) & mask;

		if (s->ww[k] > wmax)
			wmax = s->ww[k];
	}
	if (bk->count < BLOCK_MAX_MATCHES) {
		struct blk_match *m = &bk->m[bk->count];
		unsigned k0 = (unsigned)base & mask;

		m->seq = s->seq[k0];
		m->mid_ns = s->mid2[k0] / 2;
		m->ww_ns = wmax;
		m->inv = s->lvl[k0] ^ s->cap[bk->start].level;
	} else {
		bk->overflow = true;
	}
	bk->count++;
}

void align_search_feed(struct align_search *s, const struct edge_rec *e)
{
	const unsigned mask = s->ring_mask;
	unsigned k = (unsigned)s->fed & mask, b;
	int64_t wb = (int64_t)edge_write_begin_ns(e), we = (int64_t)edge_write_end_ns(e);

	if (s->p.first_seq >= 0) {
		if (!s->forced_seen && e->seq == (uint64_t)s->p.first_seq) {
			s->forced_seen = true;
			s->forced_ns = wb + (we - wb) / 2;
			s->forced_level = e->level;
		}
		s->fed++;
		return;
	}
	if (!s->blk)
		return;
	/* unsigned: defined wrap-around even for absurd (hand-made) times */
	s->mid2[k] = (int64_t)((uint64_t)wb + (uint64_t)we);
	s->ww[k] = (double)(we - wb);
	s->lvl[k] = e->level;
	s->seq[k] = e->seq;
	if (s->fed > 0) {
		unsigned pk = (unsigned)(s->fed - 1) & mask;

		s->rw[k] = (double)(int64_t)((uint64_t)s->mid2[k] - (uint64_t)s->mid2[pk]) / 2.0;
		/* midpoint to midpoint is within half of each window of the truth */
		s->rtol[k] = (s->ww[k] + s->ww[pk]) / 2.0;
		if (s->seq[pk] + 1 != e->seq || (e->flags & EDGE_F_WRITE_ERR) ||
		    (e->flags & EDGE_F_SATURATED))
			s->rtol[k] = -1;        /* a dropped record: no width here */
	} else {
		s->rtol[k] = -1;
	}
	s->fed++;
	if (s->fed < (uint64_t)s->M + 1)
		return;
	for (b = 0; b < s->nblk; b++) {
		struct blk *bk = &s->blk[b];

		/* A block that fits everywhere stops being searched, except the
		 * first one, which keeps counting for the ambiguity report. */
		if (bk->overflow && b != 0)
			continue;
		block_try(s, bk, s->fed - 1 - s->M);
	}
}

/* Could match @a (block @ba) and match @c (block @bc) be the same alignment? */
static bool consistent(const struct align_search *s, const struct blk *ba,
		       const struct blk_match *a, const struct blk *bc, const struct blk_match *c)
{
	double dc, dr, lim;

	if (a->inv != c->inv)
		return false;
	dc = (double)(s->cap[bc->start].t_fs - s->cap[ba->start].t_fs) / (double)CAPTURE_FS_PER_NS;
	dr = (double)(c->mid_ns - a->mid_ns);
	if ((dc > 0) != (dr > 0))
		return false;
	lim = s->drift_max * fabs(dr) + 2 * (s->res_ns + s->slack_ns) + a->ww_ns + c->ww_ns + 1000.0;
	return fabs(dc - dr) <= lim;
}

static bool blk_informative(const struct blk *b)
{
	return b->count > 0 && !b->overflow;
}

/* Blocks (other than @self) with a match consistent with @m; the match from
 * each, in @out if given. */
static unsigned support_of(const struct align_search *s, unsigned self, const struct blk_match *m,
			   const struct blk_match **out)
{
	unsigned b, n = 1, j;

	if (out)
		out[self] = m;
	for (b = 0; b < s->nblk; b++) {
		const struct blk *bk = &s->blk[b];

		if (b == self || !blk_informative(bk))
			continue;
		for (j = 0; j < bk->count; j++)
			if (consistent(s, &s->blk[self], m, bk, &bk->m[j])) {
				if (out)
					out[b] = &bk->m[j];
				n++;
				break;
			}
	}
	return n;
}

static void window_keep(const struct align_search *s, struct align_window *w)
{
	const struct capture_edge *seed = &s->cap[w->seed_cap];
	double lo = (double)(s->span_lo_fs - seed->t_fs) / (double)CAPTURE_FS_PER_NS;
	double hi = (double)(s->span_hi_fs - seed->t_fs) / (double)CAPTURE_FS_PER_NS;
	double margin = s->drift_max * 2 * (fabs(lo) + fabs(hi)) + 10e6; /* + 10 ms */

	w->keep_lo_ns = w->seed_ns + (int64_t)(lo / (1 + w->drift_guess) - margin);
	w->keep_hi_ns = w->seed_ns + (int64_t)(hi / (1 + w->drift_guess) + margin);
}

enum align_status align_search_finish(struct align_search *s, struct align_window *w)
{
	const struct blk_match **pick = NULL, *best = NULL;
	unsigned b, j, bestsup = 0, groups = 0, bestblk = 0;
	const struct blk_match *rep[64];
	unsigned repblk[64];

	memset(w, 0, sizeof(*w));
	w->span_lo_fs = s->span_lo_fs;
	w->span_hi_fs = s->span_hi_fs;
	w->blocks = s->nblk;
	if (s->n < 3) {
		w->status = ALIGN_TOO_FEW;
		return w->status;
	}
	if (s->p.first_seq >= 0) {
		if (!s->forced_seen) {
			w->status = ALIGN_NO_OVERLAP;
			return w->status;
		}
		w->status = ALIGN_FOUND;
		w->candidates = 1;
		w->seed_cap = 0;
		w->seed_seq = (uint64_t)s->p.first_seq;
		w->seed_ns = s->forced_ns;
		w->inverted = (s->forced_level ^ s->cap[0].level) != 0;
		window_keep(s, w);
		return w->status;
	}
	/* the best support any match has */
	for (b = 0; b < s->nblk; b++) {
		struct blk *bk = &s->blk[b];

		if (!blk_informative(bk))
			continue;
		for (j = 0; j < bk->count; j++) {
			unsigned sup = support_of(s, b, &bk->m[j], NULL);

			if (sup > bestsup)
				bestsup = sup;
		}
	}
	if (bestsup == 0) {
		/* nothing informative: either nothing fits, or everything does */
		uint64_t c = s->nblk ? s->blk[0].count : 0;

		/* block 0 is searched to the end: its count is exact */
		for (b = 1; b < s->nblk && !c; b++)
			if (s->blk[b].count > c)
				c = s->blk[b].count;
		w->status = c ? ALIGN_AMBIGUOUS : ALIGN_NO_OVERLAP;
		w->candidates = c;
		return w->status;
	}
	/* distinct alignments with that support */
	for (b = 0; b < s->nblk; b++) {
		struct blk *bk = &s->blk[b];

		if (!blk_informative(bk))
			continue;
		for (j = 0; j < bk->count; j++) {
			unsigned g;

			if (support_of(s, b, &bk->m[j], NULL) != bestsup)
				continue;
			for (g = 0; g < groups && g < 64; g++)
				if (consistent(s, &s->blk[repblk[g]], rep[g], bk, &bk->m[j]))
					break;
			if (g == groups) {
				if (groups < 64) {
					rep[groups] = &bk->m[j];
					repblk[groups] = b;
				}
				groups++;
			}
		}
	}
	if (groups > 1) {
		w->status = ALIGN_AMBIGUOUS;
		w->candidates = groups;
		w->blocks_matched = bestsup;
		return w->status;
	}
	best = rep[0];
	bestblk = repblk[0];
	pick = calloc(s->nblk, sizeof(*pick));
	if (!pick) {
		/* cannot happen in practice; fall back on the one block */
		w->drift_guess = 0;
	} else {
		/* drift from the first and last matched blocks, if far enough apart */
		unsigned first = s->nblk, last = 0;

		support_of(s, bestblk, best, pick);
		for (b = 0; b < s->nblk; b++)
			if (pick[b]) {
				if (first == s->nblk)
					first = b;
				last = b;
			}
		if (first < last) {
			double dc = (double)(s->cap[s->blk[last].start].t_fs -
					     s->cap[s->blk[first].start].t_fs) / (double)CAPTURE_FS_PER_NS;
			double dr = (double)(pick[last]->mid_ns - pick[first]->mid_ns);

			if (dr > 100e6) { /* 100 ms: the windows' noise is well below 1 ppm then */
				w->drift_guess = dc / dr - 1;
				if (fabs(w->drift_guess) > s->drift_max)
					w->drift_guess = 0;
			}
		}
		free(pick);
	}
	w->status = ALIGN_FOUND;
	w->candidates = 1;
	w->blocks_matched = bestsup;
	w->inverted = best->inv != 0;
	w->seed_cap = s->blk[bestblk].start;
	w->seed_seq = best->seq;
	w->seed_ns = best->mid_ns;
	window_keep(s, w);
	return w->status;
}

/* ------------------------------------------------------------------ */
/* pass 2: pair the edges, fit, residuals                              */

struct m2 {
	const struct edge_rec *run;
	size_t nrun;
	const struct capture_edge *cap;
	size_t ncap;
	bool inv;
	double res_ns, slack_ns, drift_max;
	int64_t ref_ns, cref_fs;
	double *wb, *we, *mid;     /* run, ns from ref_ns */
	double *y;                 /* capture, ns from cref_fs */
	ptrdiff_t *pair_run;       /* per capture edge: run index or -1 */
	ptrdiff_t *pair_cap;       /* per run edge: capture index or -1 */
};

static bool level_ok(const struct m2 *m, size_t k, size_t i)
{
	return ((m->run[k].level ^ (uint8_t)m->inv) & 1) == m->cap[i].level;
}

/* How far from run edge @k a capture edge may be and still be its edge:
 * halfway to the neighbouring run edges. */
static double gate_of(const struct m2 *m, size_t k)
{
	double g = INFINITY, tol = (m->we[k] - m->wb[k]) / 2 + m->res_ns + m->slack_ns;

	if (k > 0)
		g = m->mid[k] - m->mid[k - 1];
	if (k + 1 < m->nrun && m->mid[k + 1] - m->mid[k] < g)
		g = m->mid[k + 1] - m->mid[k];
	g /= 2;
	return g > tol ? g : tol;
}

/*
 * Walk the capture from the seed in direction @dir (+1 or -1) and pair each
 * edge with the nearest run edge of the right level, unless that run edge is
 * nearer to a later capture edge of the same level (a glitch inside a pulse
 * must not steal the pulse's real edge).
 *
 * The prediction: run time = y / B - o. Each pair says o lies in an interval
 * (its capture time against its write window, widened by the tolerance); the
 * walk keeps the intersection of those intervals, widened as it goes by what
 * a wrong B could add, so one edge in a wide write window cannot drag the
 * prediction off, and narrow windows pin it down. B is refitted from the
 * pairs every 256 of them.
 */
static void walk(struct m2 *m, size_t seed_cap, size_t seed_run, double B, int dir)
{
	ptrdiff_t i = (ptrdiff_t)seed_cap + dir, last = (ptrdiff_t)seed_run, q = last;
	double tol = m->res_ns + m->slack_ns, dlt = m->drift_max;
	double olo, ohi, ylast = m->y[seed_cap];
	/* running sums for refitting B, relative to the seed pair */
	double sx = 0, sy = 0, sxx = 0, sxy = 0, x0 = m->mid[seed_run], y0 = m->y[seed_cap];
	size_t ns = 0, misfits = 0;

	olo = m->y[seed_cap] / B - m->we[seed_run] - tol;
	ohi = m->y[seed_cap] / B - m->wb[seed_run] + tol;
	for (; i >= 0 && (size_t)i < m->ncap; i += dir) {
		double p = m->y[i] / B - (olo + ohi) / 2, d, bd = INFINITY, ilo, ihi, grow;
		ptrdiff_t k, bk = -1, i2;
		bool lost = false;

		/* q: the run edge nearest p in walk order, past the last pair */
		if (q == last)
			q = last + dir;
		while (q + dir >= 0 && (size_t)(q + dir) < m->nrun &&
		       (dir > 0 ? m->mid[q + dir] <= p : m->mid[q + dir] >= p))
			q += dir;
		for (k = q - 2 * dir; k != q + 3 * dir; k += dir) {
			if (k < 0 || (size_t)k >= m->nrun || (dir > 0 ? k <= last : k >= last))
				continue;
			if (!level_ok(m, (size_t)k, (size_t)i))
				continue;
			d = fabs(m->mid[k] - p);
			if (d < bd) {
				bd = d;
				bk = k;
			}
		}
		if (bk < 0 || bd > gate_of(m, (size_t)bk))
			continue;
		for (i2 = i + dir; i2 >= 0 && (size_t)i2 < m->ncap; i2 += dir) {
			double p2 = m->y[i2] / B - (olo + ohi) / 2;

			if ((p2 - m->mid[bk]) * dir > bd)
				break;
			if (m->cap[i2].level == m->cap[i].level && fabs(p2 - m->mid[bk]) < bd) {
				lost = true;
				break;
			}
		}
		if (lost)
			continue;
		m->pair_run[i] = bk;
		m->pair_cap[bk] = i;
		last = bk;
		q = bk;

		/* narrow the offset interval */
		grow = dlt * fabs(m->y[i] - ylast) + 1.0;
		olo -= grow;
		ohi += grow;
		ilo = m->y[i] / B - m->we[bk] - tol;
		ihi = m->y[i] / B - m->wb[bk] + tol;
		if (ilo > ohi || ihi < olo) {
			/* a disagreeing edge, or the interval went wrong: after a
			 * run of misfits, start again from this pair */
			if (++misfits < 8)
				continue;
			olo = ilo;
			ohi = ihi;
		} else {
			olo = ilo > olo ? ilo : olo;
			ohi = ihi < ohi ? ihi : ohi;
		}
		misfits = 0;
		ylast = m->y[i];
		{
			double dx = m->mid[bk] - x0, dy = m->y[i] - y0;

			sx += dx;
			sy += dy;
			sxx += dx * dx;
			sxy += dx * dy;
			if (++ns % 256 == 0) {
				double var = sxx - sx * sx / (double)ns;

				if (fabs(dx) > 100e6 && var > 0) {
					double nb = (sxy - sx * sy / (double)ns) / var;

					if (fabs(nb - 1) <= m->drift_max) {
						/* keep the mapping at this pair */
						olo += m->y[i] * (1 / nb - 1 / B);
						ohi += m->y[i] * (1 / nb - 1 / B);
						B = nb;
						dlt = 5e-6 < m->drift_max ? 5e-6 : m->drift_max;
					}
				}
			}
		}
	}
}

#define SWAPD(a, b) do { double t_ = (a); (a) = (b); (b) = t_; } while (0)

/* k-th smallest of a[0..n) (reorders a): Hoare's selection, median-of-three. */
static double select_kth(double *a, size_t n, size_t k)
{
	size_t l = 0, ir = n - 1;

	for (;;) {
		size_t mid, i, j;
		double piv;

		if (ir <= l + 1) {
			if (ir == l + 1 && a[ir] < a[l])
				SWAPD(a[l], a[ir]);
			return a[k];
		}
		mid = l + (ir - l) / 2;
		SWAPD(a[mid], a[l + 1]);
		if (a[l] > a[ir])
			SWAPD(a[l], a[ir]);
		if (a[l + 1] > a[ir])
			SWAPD(a[l + 1], a[ir]);
		if (a[l] > a[l + 1])
			SWAPD(a[l], a[l + 1]);
		i = l + 1;
		j = ir;
		piv = a[l + 1];
		for (;;) {
			do
				i++;
			while (a[i] < piv);
			do
				j--;
			while (a[j] > piv);
			if (j < i)
				break;
			SWAPD(a[i], a[j]);
		}
		a[l + 1] = a[j];
		a[j] = piv;
		if (j >= k)
			ir = j - 1;
		if (j <= k)
			l = i;
	}
}

/* Weighted least squares y = A + B x over the pairs not marked outlier. */
static int fit_line(const struct m2 *m, const struct align_result *r, double *A, double *B)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, var, mx, my;
	size_t i;

	for (i = 0; i < r->npairs; i++) {
		const struct align_pair *pr = &r->pairs[i];
		double ww, wt, x, y;

		if (pr->outlier)
			continue;
		ww = m->we[pr->run] - m->wb[pr->run];
		/* a narrow window pins the edge down better than a wide one */
		wt = 1.0 / (ww * ww / 12 + m->res_ns * m->res_ns / 12 + 1);
		x = m->mid[pr->run];
		y = m->y[pr->cap];
		sw += wt;
		sx += wt * x;
		sy += wt * y;
	}
	if (sw == 0)
		return -1;
	mx = sx / sw;
	my = sy / sw;
	sw = 0;
	for (i = 0; i < r->npairs; i++) {
		const struct align_pair *pr = &r->pairs[i];
		double ww, wt, dx, dy;

		if (pr->outlier)
			continue;
		ww = m->we[pr->run] - m->wb[pr->run];
		wt = 1.0 / (ww * ww / 12 + m->res_ns * m->res_ns / 12 + 1);
		dx = m->mid[pr->run] - mx;
		dy = m->y[pr->cap] - my;
		sw += wt;
		sxx += wt * dx * dx;
		sxy += wt * dx * dy;
	}
	var = sxx;
	*B = var > 0 ? sxy / var : 1.0;
	if (!(var > 0) || fabs(*B - 1) > 0.01)
		*B = 1.0;       /* one point, or nonsense: no drift */
	*A = my - *B * mx;
	return 0;
}

static void robust_fit(struct m2 *m, struct align_result *r, double *A, double *B)
{
	double *dev = malloc((r->npairs + 1) * sizeof(*dev));
	int iter;
	size_t i;

	*A = 0;
	*B = 1;
	for (i = 0; i < r->npairs; i++)
		r->pairs[i].outlier = (m->cap[r->pairs[i].cap].flags & CAPTURE_EDGE_F_AFTER_GAP) != 0;
	for (iter = 0; iter < 10; iter++) {
		size_t n = 0, changed = 0;
		double scale = 0;

		if (fit_line(m, r, A, B) < 0)
			break;
		if (dev) {
			for (i = 0; i < r->npairs; i++) {
				const struct align_pair *pr = &r->pairs[i];

				if (!(m->cap[pr->cap].flags & CAPTURE_EDGE_F_AFTER_GAP))
					dev[n++] = fabs((m->y[pr->cap] - *A) / *B - m->mid[pr->run]);
			}
			if (n)
				scale = 1.4826 * select_kth(dev, n, n / 2);
		}
		for (i = 0; i < r->npairs; i++) {
			struct align_pair *pr = &r->pairs[i];
			double d = fabs((m->y[pr->cap] - *A) / *B - m->mid[pr->run]);
			double lim = 5 * scale;
			double own = (m->we[pr->run] - m->wb[pr->run]) / 2 + m->res_ns + m->slack_ns;
			bool out;

			if (lim < own)
				lim = own;
			out = d > lim || (m->cap[pr->cap].flags & CAPTURE_EDGE_F_AFTER_GAP);
			if (out != pr->outlier) {
				pr->outlier = out;
				changed++;
			}
		}
		if (!changed)
			break;
	}
	free(dev);
}

static size_t run_index_of(const struct edge_rec *run, size_t n, uint64_t seq, bool *found)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (run[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < n && run[lo].seq == seq;
	return lo;
}

double align_cap_to_log(const struct align_result *res, int64_t t_fs)
{
	return ((double)t_fs / (double)CAPTURE_FS_PER_NS - res->offset_ns) / (1 + res->drift_ppm * 1e-6);
}

int align_match(const struct edge_rec *run, size_t nrun, const struct capture_edge *cap,
		size_t ncap, const struct align_window *w, const struct align_params *p,
		struct align_result *r)
{
	struct m2 m = { .run = run, .nrun = nrun, .cap = cap, .ncap = ncap };
	size_t i, k, seed_run, gi;
	double A, B, ss = 0, glo, ghi;
	size_t nin = 0;
	bool found;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	r->status = w->status;
	if (w->status != ALIGN_FOUND)
		return 0;
	seed_run = run_index_of(run, nrun, w->seed_seq, &found);
	if (!found || w->seed_cap >= ncap) {
		r->status = ALIGN_NO_OVERLAP;
		return 0;
	}
	m.inv = w->inverted;
	m.res_ns = res_ns_of(p);
	m.slack_ns = slack_ns_of(p);
	m.drift_max = drift_max_of(p);
	m.ref_ns = (int64_t)(edge_write_begin_ns(&run[seed_run]) / 2 + edge_write_end_ns(&run[seed_run]) / 2);
	m.cref_fs = cap[w->seed_cap].t_fs;
	m.wb = malloc(nrun * sizeof(double));
	m.we = malloc(nrun * sizeof(double));
	m.mid = malloc(nrun * sizeof(double));
	m.y = malloc(ncap * sizeof(double));
	m.pair_run = malloc(ncap * sizeof(*m.pair_run));
	m.pair_cap = malloc(nrun * sizeof(*m.pair_cap));
	r->pairs = malloc(ncap * sizeof(*r->pairs));
	r->extra = malloc(ncap * sizeof(*r->extra));
	r->missing = malloc(nrun * sizeof(*r->missing));
	if (!m.wb || !m.we || !m.mid || !m.y || !m.pair_run || !m.pair_cap || !r->pairs ||
	    !r->extra || !r->missing) {
		errno = ENOMEM;
		goto out;
	}
	for (k = 0; k < nrun; k++) {
		m.wb[k] = (double)((int64_t)edge_write_begin_ns(&run[k]) - m.ref_ns);
		m.we[k] = (double)((int64_t)edge_write_end_ns(&run[k]) - m.ref_ns);
		m.mid[k] = (m.wb[k] + m.we[k]) / 2;
		m.pair_cap[k] = -1;
	}
	for (i = 0; i < ncap; i++) {
		m.y[i] = (double)(cap[i].t_fs - m.cref_fs) / (double)CAPTURE_FS_PER_NS;
		m.pair_run[i] = -1;
	}
	m.pair_run[w->seed_cap] = (ptrdiff_t)seed_run;
	m.pair_cap[seed_run] = (ptrdiff_t)w->seed_cap;
	walk(&m, w->seed_cap, seed_run, 1 + w->drift_guess, +1);
	walk(&m, w->seed_cap, seed_run, 1 + w->drift_guess, -1);

	for (i = 0; i < ncap; i++) {
		if (m.pair_run[i] >= 0) {
			struct align_pair *pr = &r->pairs[r->npairs++];

			pr->cap = i;
			pr->run = (size_t)m.pair_run[i];
		} else {
			r->extra[r->nextra++] = i;
		}
	}
	robust_fit(&m, r, &A, &B);
	r->status = ALIGN_FOUND;
	r->inverted = m.inv;
	r->ref_ns = m.ref_ns;
	/* capture_ns (absolute in the capture's time base) = offset + B (log - ref) */
	r->offset_ns = A + (double)m.cref_fs / (double)CAPTURE_FS_PER_NS;
	r->drift_ppm = (B - 1) * 1e6;
	for (i = 0; i < r->npairs; i++) {
		struct align_pair *pr = &r->pairs[i];
		double x = (m.y[pr->cap] - A) / B, wb = m.wb[pr->run], we = m.we[pr->run];

		pr->residual_ns = x < wb ? x - wb : x > we ? x - we : 0;
		pr->from_begin_ns = x - wb;
		if (pr->outlier) {
			r->outliers++;
		} else {
			double d = x - m.mid[pr->run];

			r->inliers++;
			ss += d * d;
			nin++;
		}
	}
	r->fit_rms_ns = nin ? sqrt(ss / (double)nin) : NAN;
	/* The fitted line is itself uncertain (the edges sit anywhere in their
	 * windows): its standard error at the far end of the capture, from the
	 * weights (inverse variances), scaled up by the reduced chi-square if the
	 * scatter is larger than the windows explain. Times 4, it is added to the
	 * per-edge slack: a few ns for thousands of edges. */
	if (nin > 2) {
		double sw = 0, swx = 0, swxx = 0, chi = 0, xm, far = 0;

		for (i = 0; i < r->npairs; i++) {
			const struct align_pair *pr = &r->pairs[i];
			double ww = m.we[pr->run] - m.wb[pr->run];
			double wt = 1.0 / (ww * ww / 12 + m.res_ns * m.res_ns / 12 + 1);
			double d = (m.y[pr->cap] - A) / B - m.mid[pr->run];

			if (pr->outlier)
				continue;
			sw += wt;
			swx += wt * m.mid[pr->run];
			chi += wt * d * d;
		}
		xm = swx / sw;
		for (i = 0; i < r->npairs; i++) {
			const struct align_pair *pr = &r->pairs[i];
			double ww = m.we[pr->run] - m.wb[pr->run];
			double wt = 1.0 / (ww * ww / 12 + m.res_ns * m.res_ns / 12 + 1);
			double dx = m.mid[pr->run] - xm;

			if (fabs(dx) > far)
				far = fabs(dx);
			if (!pr->outlier)
				swxx += wt * dx * dx;
		}
		chi /= (double)(nin - 2);
		if (swxx > 0)
			r->fit_se_ns = sqrt((1.0 / sw + far * far / swxx) * (chi > 1 ? chi : 1));
	}
	r->tolerance_ns = m.slack_ns + 4 * r->fit_se_ns;
	for (i = 0; i < r->npairs; i++)
		if (fabs(r->pairs[i].residual_ns) > r->tolerance_ns &&
		    !(cap[r->pairs[i].cap].flags & CAPTURE_EDGE_F_AFTER_GAP))
			r->disagree++;

	/* the window: run edges inside the capture's span, or paired */
	r->span_lo_ns = ((double)(w->span_lo_fs - m.cref_fs) / (double)CAPTURE_FS_PER_NS - A) / B;
	r->span_hi_ns = ((double)(w->span_hi_fs - m.cref_fs) / (double)CAPTURE_FS_PER_NS - A) / B;
	r->run_first = nrun;
	r->run_last = 0;
	for (k = 0; k < nrun; k++) {
		bool inside = m.wb[k] - r->tolerance_ns > r->span_lo_ns &&
			      m.we[k] + r->tolerance_ns < r->span_hi_ns;

		if (inside || m.pair_cap[k] >= 0) {
			if (r->run_first == nrun)
				r->run_first = k;
			r->run_last = k;
		}
	}
	if (r->run_first == nrun) {
		r->run_first = r->run_last = seed_run;
	}
	r->first_seq = run[r->run_first].seq;
	r->last_seq = run[r->run_last].seq;
	r->covered = r->run_last - r->run_first + 1;
	/* missing: unpaired run edges in the window, unless the capture had no
	 * data there (a gap before a flagged edge) or the write failed */
	gi = 0;
	glo = ghi = -INFINITY;
	for (k = r->run_first; k <= r->run_last; k++) {
		if (m.pair_cap[k] >= 0)
			continue;
		if (run[k].flags & EDGE_F_WRITE_ERR) {
			r->write_failed++;
			continue;
		}
		while (gi < ncap && ghi < m.mid[k]) {
			gi++;
			if (gi < ncap && (cap[gi].flags & CAPTURE_EDGE_F_AFTER_GAP)) {
				glo = (m.y[gi - 1] - A) / B;
				ghi = (m.y[gi] - A) / B;
			}
		}
		if (m.mid[k] >= glo - r->tolerance_ns && m.mid[k] <= ghi + r->tolerance_ns) {
			r->in_gap++;
			continue;
		}
		r->missing[r->nmissing++] = k;
	}
	ret = 0;
out:
	free(m.wb);
	free(m.we);
	free(m.mid);
	free(m.y);
	free(m.pair_run);
	free(m.pair_cap);
	if (ret < 0)
		align_result_free(r);
	return ret;
}

void align_result_free(struct align_result *r)
{
	free(r->pairs);
	free(r->missing);
	free(r->extra);
	r->pairs = NULL;
	r->missing = NULL;
	r->extra = NULL;
	r->npairs = r->nmissing = r->nextra = 0;
}

int align_run(const struct edge_rec *run, size_t nrun, const struct capture_edge *cap,
	      size_t ncap, int64_t span_lo_fs, int64_t span_hi_fs,
	      const struct align_params *p, struct align_window *w, struct align_result *res)
{
	struct align_search *s = align_search_new(cap, ncap, span_lo_fs, span_hi_fs, p);
	size_t k, lo, hi;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!s)
		return -1;
	for (k = 0; k < nrun; k++)
		align_search_feed(s, &run[k]);
	align_search_finish(s, w);
	align_search_free(s);
	res->status = w->status;
	if (w->status != ALIGN_FOUND)
		return 0;
	for (lo = 0; lo < nrun && (int64_t)edge_write_end_ns(&run[lo]) < w->keep_lo_ns; lo++)
		;
	for (hi = lo; hi < nrun && (int64_t)edge_write_begin_ns(&run[hi]) <= w->keep_hi_ns; hi++)
		;
	ret = align_match(run + lo, hi - lo, cap, ncap, w, p, res);
	if (ret == 0 && res->status == ALIGN_FOUND) {
		/* indices into the caller's array */
		for (k = 0; k < res->npairs; k++)
			res->pairs[k].run += lo;
		for (k = 0; k < res->nmissing; k++)
			res->missing[k] += lo;
		res->run_first += lo;
		res->run_last += lo;
	}
	return ret;
}
