/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Capture-to-run alignment: pulse-width block search over the streamed run,
 * then edge tracking, a robust offset/drift fit and residuals (align.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/align.h"

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
	return (double)p->resolution_ps / (double)CAPTURE_PS_PER_NS;
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
/* compact stores                                                      */

/* One more block for a store: grows the pointer array when full. */
static void *block_new(void ***blk, size_t *nblk, size_t *capblk, size_t bytes)
{
	void *p;

	if (*nblk == *capblk) {
		size_t cap = *capblk ? *capblk * 2 : 16;
		void **nb = realloc(*blk, cap * sizeof(*nb));

		if (!nb)
			return NULL;
		*blk = nb;
		*capblk = cap;
	}
	p = malloc(bytes);
	if (p)
		(*blk)[(*nblk)++] = p;
	return p;
}

int align_caps_add(struct align_caps *c, const struct capture_edge *e)
{
	size_t b = c->n >> ALIGN_BLK_SHIFT, o = c->n & ALIGN_BLK_MASK;
	uint64_t *w;

	if (b == c->nblk) {
		/* the times and the bits grow together: one count, two arrays */
		size_t nt = c->nblk, ct = c->capblk, nbits = c->nblk, cbits = c->capblk;
		void **t = (void **)c->t, **bits = (void **)c->bits;
		void *tb = block_new(&t, &nt, &ct, ALIGN_BLK * sizeof(int64_t));
		void *bb;

		c->t = (int64_t **)t;
		if (!tb) {
			errno = ENOMEM;
			return -1;
		}
		bb = block_new(&bits, &nbits, &cbits, ALIGN_BLK / 32 * sizeof(uint64_t));
		c->bits = (uint64_t **)bits;
		if (!bb || ct != cbits) {
			/* keep both arrays the same size: undo this block */
			free(tb);
			free(bb);
			errno = ENOMEM;
			return -1;
		}
		c->nblk++;
		c->capblk = ct;
	}
	c->t[b][o] = e->t_ps;
	w = &c->bits[b][o >> 5];
	if (!(o & 31))
		*w = 0;
	*w |= (uint64_t)((e->level & 1u) | ((e->flags & CAPTURE_EDGE_F_AFTER_GAP) ? 2u : 0u))
	      << (2 * (o & 31));
	c->n++;
	return 0;
}

void align_caps_free(struct align_caps *c)
{
	for (size_t b = 0; b < c->nblk; b++) {
		free(c->t[b]);
		free(c->bits[b]);
	}
	free(c->t);
	free(c->bits);
	memset(c, 0, sizeof(*c));
}

int align_runs_add(struct align_runs *r, const struct edge_rec *e)
{
	size_t b = r->n >> ALIGN_BLK_SHIFT, o = r->n & ALIGN_BLK_MASK;
	struct align_run_edge *x;
	int64_t ww;

	if (!r->n)
		r->base_seq = e->seq;
	if (e->seq < r->base_seq || e->seq - r->base_seq > UINT32_MAX) {
		errno = E2BIG;
		return -1;
	}
	if (b == r->nblk) {
		void **blk = (void **)r->e;
		void *nb = block_new(&blk, &r->nblk, &r->capblk, ALIGN_BLK * sizeof(struct align_run_edge));

		r->e = (struct align_run_edge **)blk;
		if (!nb) {
			errno = ENOMEM;
			return -1;
		}
	}
	x = &r->e[b][o];
	/* uint64_t: defined wrap-around even for absurd (hand-made) times */
	x->wb_ns = (int64_t)edge_write_begin_ns(e);
	ww = (int64_t)e->write_end_off_ns - e->write_begin_off_ns;
	x->ww_ns = ww < 0 ? 0 : (uint32_t)ww;
	x->dseq = (uint32_t)(e->seq - r->base_seq);
	x->wb_off_ns = e->write_begin_off_ns;
	x->level = e->level;
	x->flags = e->flags;
	r->n++;
	return 0;
}

void align_runs_free(struct align_runs *r)
{
	for (size_t b = 0; b < r->nblk; b++)
		free(r->e[b]);
	free(r->e);
	memset(r, 0, sizeof(*r));
}

/* a + b for times, saturating instead of overflowing */
static int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static int64_t dbl_to_i64(double x)
{
	if (!(x == x))
		return 0;
	if (x >= 9.2e18)
		return INT64_MAX;
	if (x <= -9.2e18)
		return INT64_MIN;
	return (int64_t)x;
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
	double *cw, *ct;           /* its M widths (ns) and their tolerances */
	uint64_t count;            /* places it fits */
	bool overflow;             /* count > BLOCK_MAX_MATCHES: uninformative */
	struct blk_match m[BLOCK_MAX_MATCHES];
};

struct align_search {
	const struct align_caps *cap;
	size_t n;
	int64_t span_lo_ps, span_hi_ps;
	struct align_params p;
	double res_ns, slack_ns, drift_max;
	unsigned M, nblk;
	struct blk *blk;
	double *widths;            /* every block's cw and ct */
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

static double cap_width_ns(const struct align_caps *c, size_t i)
{
	return (double)(align_caps_t(c, i + 1) - align_caps_t(c, i)) / (double)CAPTURE_PS_PER_NS;
}

static bool block_clean(const struct align_caps *cap, size_t s, unsigned M)
{
	size_t i;

	for (i = s + 1; i <= s + M; i++)
		if (align_caps_gap(cap, i))
			return false;
	return true;
}

struct align_search *align_search_new(const struct align_caps *cap,
				      int64_t span_lo_ps, int64_t span_hi_ps,
				      const struct align_params *p)
{
	struct align_search *s = calloc(1, sizeof(*s));
	size_t nw, ring = 1, n = cap->n;
	unsigned b, K;

	if (!s)
		return NULL;
	s->cap = cap;
	s->n = n;
	s->span_lo_ps = span_lo_ps;
	s->span_hi_ps = span_hi_ps;
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
	if (!s->mid2 || !s->rw || !s->rtol || !s->ww || !s->lvl || !s->seq)
		goto nomem;
	if (n < 3 || p->first_seq >= 0 || s->M == 0)
		return s;       /* nothing to search: finish() says why */

	K = p->max_blocks ? p->max_blocks : DEF_MAX_BLOCKS;
	if (K > nw / s->M)
		K = (unsigned)(nw / s->M);
	if (K == 0)
		K = 1;
	s->blk = calloc(K, sizeof(*s->blk));
	s->widths = calloc((size_t)K * s->M * 2, sizeof(*s->widths));
	if (!s->blk || !s->widths)
		goto nomem;
	for (b = 0; b < K; b++) {
		size_t st = K > 1 ? (nw - s->M) * b / (K - 1) : 0;
		struct blk *bk;

		/* slide past data gaps: a width across a gap is not measured */
		while (st + s->M <= nw && !block_clean(cap, st, s->M))
			st++;
		if (st + s->M > nw)
			continue;
		if (s->nblk && s->blk[s->nblk - 1].start >= st)
			continue;
		bk = &s->blk[s->nblk];
		bk->start = st;
		bk->cw = s->widths + (size_t)s->nblk * s->M * 2;
		bk->ct = bk->cw + s->M;
		for (unsigned i = 0; i < s->M; i++) {
			bk->cw[i] = cap_width_ns(cap, st + i);
			/* each end within a resolution, the user's slack, the drift, a margin */
			bk->ct[i] = s->res_ns + s->slack_ns + s->drift_max * fabs(bk->cw[i]) + 2.0;
		}
		s->nblk++;
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
	free(s->widths);
	free(s->blk);
	free(s);
}

static void block_try(struct align_search *s, struct blk *bk, uint64_t base)
{
	const unsigned mask = s->ring_mask;
	const double *cw = bk->cw, *ct = bk->ct;
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
		m->inv = s->lvl[k0] ^ (uint8_t)align_caps_level(s->cap, bk->start);
	} else {
		bk->overflow = true;
	}
	bk->count++;
}

void align_search_feed(struct align_search *s, const struct edge_rec *e)
{
	const unsigned mask = s->ring_mask;
	unsigned k = (unsigned)s->fed & mask, b;
	uint64_t wb = edge_write_begin_ns(e), we = edge_write_end_ns(e);

	if (s->p.first_seq >= 0) {
		if (!s->forced_seen && e->seq == (uint64_t)s->p.first_seq) {
			s->forced_seen = true;
			s->forced_ns = (int64_t)(wb + (uint64_t)((int64_t)(we - wb) / 2));
			s->forced_level = e->level;
		}
		s->fed++;
		return;
	}
	if (!s->blk)
		return;
	/* unsigned: defined wrap-around even for absurd (hand-made) times */
	s->mid2[k] = (int64_t)(wb + we);
	s->ww[k] = (double)(int64_t)(we - wb);
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
	dc = (double)(align_caps_t(s->cap, bc->start) - align_caps_t(s->cap, ba->start)) /
	     (double)CAPTURE_PS_PER_NS;
	dr = (double)(int64_t)((uint64_t)c->mid_ns - (uint64_t)a->mid_ns);
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
	int64_t seed_t = align_caps_t(s->cap, w->seed_cap);
	double lo = (double)(s->span_lo_ps - seed_t) / (double)CAPTURE_PS_PER_NS;
	double hi = (double)(s->span_hi_ps - seed_t) / (double)CAPTURE_PS_PER_NS;
	double margin = s->drift_max * 2 * (fabs(lo) + fabs(hi)) + 10e6; /* + 10 ms */

	w->keep_lo_ns = sat_add(w->seed_ns, dbl_to_i64(lo / (1 + w->drift_guess) - margin));
	w->keep_hi_ns = sat_add(w->seed_ns, dbl_to_i64(hi / (1 + w->drift_guess) + margin));
}

enum align_status align_search_finish(struct align_search *s, struct align_window *w)
{
	const struct blk_match **pick = NULL, *best = NULL;
	unsigned b, j, bestsup = 0, groups = 0, bestblk = 0;
	const struct blk_match *rep[64];
	unsigned repblk[64];

	memset(w, 0, sizeof(*w));
	w->span_lo_ps = s->span_lo_ps;
	w->span_hi_ps = s->span_hi_ps;
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
		w->inverted = (s->forced_level ^ align_caps_level(s->cap, 0)) != 0;
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
			double dc = (double)(align_caps_t(s->cap, s->blk[last].start) -
					     align_caps_t(s->cap, s->blk[first].start)) /
				    (double)CAPTURE_PS_PER_NS;
			double dr = (double)(int64_t)((uint64_t)pick[last]->mid_ns -
						      (uint64_t)pick[first]->mid_ns);

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
	const struct align_runs *run;
	size_t nrun;
	const struct align_caps *cap;
	size_t ncap;
	bool inv;
	double res_ns, slack_ns, drift_max;
	int64_t ref_ns, cref_ps;
	struct align_result *r;
	uint64_t *paired;          /* bit per run record */
};

static inline double run_wb(const struct m2 *m, size_t k)
{
	return (double)(int64_t)((uint64_t)align_runs_at(m->run, k)->wb_ns - (uint64_t)m->ref_ns);
}

static inline double run_ww(const struct m2 *m, size_t k)
{
	return (double)align_runs_at(m->run, k)->ww_ns;
}

static inline double run_we(const struct m2 *m, size_t k)
{
	return run_wb(m, k) + run_ww(m, k);
}

static inline double run_mid(const struct m2 *m, size_t k)
{
	return run_wb(m, k) + run_ww(m, k) / 2;
}

static inline double cap_y(const struct m2 *m, size_t i)
{
	return (double)(align_caps_t(m->cap, i) - m->cref_ps) / (double)CAPTURE_PS_PER_NS;
}

static inline bool bit_get(const uint64_t *b, size_t i)
{
	return (b[i >> 6] >> (i & 63)) & 1u;
}

static inline void bit_set(uint64_t *b, size_t i, bool v)
{
	if (v)
		b[i >> 6] |= (uint64_t)1 << (i & 63);
	else
		b[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

/* Capture edge @i's run index, or -1. */
static inline ptrdiff_t pair_get(const struct align_result *r, size_t i)
{
	return (ptrdiff_t)r->pair[i >> ALIGN_BLK_SHIFT][i & ALIGN_BLK_MASK] - 1;
}

static inline void pair_set(struct align_result *r, size_t i, ptrdiff_t k)
{
	r->pair[i >> ALIGN_BLK_SHIFT][i & ALIGN_BLK_MASK] = (uint32_t)(k + 1);
}

static bool level_ok(const struct m2 *m, size_t k, size_t i)
{
	return ((align_runs_at(m->run, k)->level ^ (uint8_t)m->inv) & 1) == align_caps_level(m->cap, i);
}

/* How far a capture edge's predicted interval [@plo, @phi] (log clock) is
 * from run edge @k's write window widened by @tol: 0 if they meet. */
static double window_dist(const struct m2 *m, size_t k, double plo, double phi, double tol)
{
	double wb = run_wb(m, k) - tol, we = run_we(m, k) + tol;

	return phi < wb ? wb - phi : plo > we ? plo - we : 0;
}

/* How far outside its (widened) write window a capture edge may be and still
 * be run edge @k's: halfway to the neighbouring window on that side (@after:
 * the edge is past the window). A window says where the pin changed, however
 * wide it is; only the gaps between windows are shared with the neighbours. */
static double gate_of(const struct m2 *m, size_t k, bool after)
{
	double g = INFINITY;

	if (after && k + 1 < m->nrun)
		g = (run_wb(m, k + 1) - run_we(m, k)) / 2;
	else if (!after && k > 0)
		g = (run_wb(m, k) - run_we(m, k - 1)) / 2;
	return g > 0 ? g : 0;
}

/*
 * The offset interval the walks start from. The seed pair alone may say
 * little: its write window can be milliseconds wide (a write preempted
 * under emulation), and a walk that predicts the next edge from the middle
 * of such an interval pairs it with an edge several pulses away and keeps
 * that shift. The search matched the @M pulse widths that follow the seed
 * (edges seed .. seed + M of both), so their windows narrow the interval;
 * the intersection stops at the first edge that does not fit it (a level
 * that differs, a window it misses: then the block was not what it seemed
 * there, and the seed's own interval is what is known).
 */
static void seed_interval(const struct m2 *m, size_t seed_cap, size_t seed_run, double B,
			  unsigned M, double *olo, double *ohi)
{
	double tol = m->res_ns + m->slack_ns, y0 = cap_y(m, seed_cap);
	double lo = y0 / B - run_we(m, seed_run) - tol, hi = y0 / B - run_wb(m, seed_run) + tol;
	unsigned j;

	for (j = 1; j <= M && seed_cap + j < m->ncap && seed_run + j < m->nrun; j++) {
		size_t i = seed_cap + j, k = seed_run + j;
		double yi = cap_y(m, i);
		/* what a wrong B can add over this distance */
		double grow = m->drift_max * fabs(yi - y0) + 1.0;
		double ilo = yi / B - run_we(m, k) - tol - grow, ihi = yi / B - run_wb(m, k) + tol + grow;

		if (!level_ok(m, k, i) || align_caps_gap(m->cap, i) || ilo > hi || ihi < lo)
			break;
		lo = ilo > lo ? ilo : lo;
		hi = ihi < hi ? ihi : hi;
	}
	*olo = lo;
	*ohi = hi;
}

/*
 * Walk the capture from the seed in direction @dir (+1 or -1) and pair each
 * edge with the run edge of the right level whose write window it falls in
 * (or is nearest to; among windows it meets equally, the nearest midpoint),
 * unless that run edge's window is nearer to a later capture edge of the same
 * level (a glitch inside a pulse must not steal the pulse's real edge). By
 * window, not midpoint: an edge whose write was preempted has a window of
 * milliseconds, the pin may change at either end of it, and the next pulse's
 * midpoint can then be nearer than its own. Pairs keep the order of both.
 *
 * The prediction: run time = y / B - o. Each pair says o lies in an interval
 * (its capture time against its write window, widened by the tolerance); the
 * walk keeps the intersection of those intervals, widened as it goes by what
 * a wrong B could add, so one edge in a wide write window cannot drag the
 * prediction off, and narrow windows pin it down. B is refitted from the
 * pairs every 256 of them.
 */
static void walk(struct m2 *m, size_t seed_cap, size_t seed_run, double B, int dir,
		 double olo, double ohi)
{
	ptrdiff_t i = (ptrdiff_t)seed_cap + dir, last = (ptrdiff_t)seed_run, q = last;
	double tol = m->res_ns + m->slack_ns, dlt = m->drift_max;
	double ylast = cap_y(m, seed_cap);
	/* running sums for refitting B, relative to the seed pair */
	double sx = 0, sy = 0, sxx = 0, sxy = 0, x0 = run_mid(m, seed_run), y0 = cap_y(m, seed_cap);
	size_t ns = 0, misfits = 0;

	for (; i >= 0 && (size_t)i < m->ncap; i += dir) {
		double yi = cap_y(m, (size_t)i), p = yi / B - (olo + ohi) / 2, bd = INFINITY;
		/* the interval the offsets allow, widened by what a wrong B adds */
		double spread = dlt * fabs(yi - ylast) + 1.0;
		double plo = yi / B - ohi - spread, phi = yi / B - olo + spread, bm = INFINITY;
		double ilo, ihi, grow;
		ptrdiff_t k, bk = -1, i2;
		bool lost = false;
		unsigned lvl_i = align_caps_level(m->cap, (size_t)i);

		/* q: the run edge nearest p in walk order, past the last pair */
		if (q == last)
			q = last + dir;
		while (q + dir >= 0 && (size_t)(q + dir) < m->nrun &&
		       (dir > 0 ? run_mid(m, (size_t)(q + dir)) <= p : run_mid(m, (size_t)(q + dir)) >= p))
			q += dir;
		for (k = q - 2 * dir; k != q + 3 * dir; k += dir) {
			double d, dm;

			if (k < 0 || (size_t)k >= m->nrun || (dir > 0 ? k <= last : k >= last))
				continue;
			if (!level_ok(m, (size_t)k, (size_t)i))
				continue;
			d = window_dist(m, (size_t)k, plo, phi, tol);
			dm = fabs(run_mid(m, (size_t)k) - p);
			if (d < bd || (d == bd && dm < bm)) {
				bd = d;
				bm = dm;
				bk = k;
			}
		}
		if (bk < 0 || bd > gate_of(m, (size_t)bk, plo > run_we(m, (size_t)bk)))
			continue;
		for (i2 = i + dir; i2 >= 0 && (size_t)i2 < m->ncap; i2 += dir) {
			double y2 = cap_y(m, (size_t)i2), p2 = y2 / B - (olo + ohi) / 2;
			double d2 = window_dist(m, (size_t)bk, y2 / B - ohi - spread, y2 / B - olo + spread, tol);
			double far = dir > 0 ? run_we(m, (size_t)bk) + tol : run_wb(m, (size_t)bk) - tol;

			/* past the window by more than bd: so are the later ones */
			if (d2 > bd && (p2 - far) * dir > 0)
				break;
			if (align_caps_level(m->cap, (size_t)i2) == lvl_i &&
			    (d2 < bd || (d2 == bd && fabs(p2 - run_mid(m, (size_t)bk)) < bm))) {
				lost = true;
				break;
			}
		}
		if (lost)
			continue;
		pair_set(m->r, (size_t)i, bk);
		bit_set(m->paired, (size_t)bk, true);
		last = bk;
		q = bk;

		/* narrow the offset interval */
		grow = dlt * fabs(yi - ylast) + 1.0;
		olo -= grow;
		ohi += grow;
		ilo = yi / B - run_we(m, (size_t)bk) - tol;
		ihi = yi / B - run_wb(m, (size_t)bk) + tol;
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
		ylast = yi;
		{
			double dx = run_mid(m, (size_t)bk) - x0, dy = yi - y0;

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
						olo += yi * (1 / nb - 1 / B);
						ohi += yi * (1 / nb - 1 / B);
						B = nb;
						dlt = 5e-6 < m->drift_max ? 5e-6 : m->drift_max;
					}
				}
			}
		}
	}
}

#define SWAPF(a, b) do { float t_ = (a); (a) = (b); (b) = t_; } while (0)

/* k-th smallest of a[0..n) (reorders a): Hoare's selection, median-of-three. */
static float select_kth(float *a, size_t n, size_t k)
{
	size_t l = 0, ir = n - 1;

	for (;;) {
		size_t mid, i, j;
		float piv;

		if (ir <= l + 1) {
			if (ir == l + 1 && a[ir] < a[l])
				SWAPF(a[l], a[ir]);
			return a[k];
		}
		mid = l + (ir - l) / 2;
		SWAPF(a[mid], a[l + 1]);
		if (a[l] > a[ir])
			SWAPF(a[l], a[ir]);
		if (a[l + 1] > a[ir])
			SWAPF(a[l + 1], a[ir]);
		if (a[l] > a[l + 1])
			SWAPF(a[l], a[l + 1]);
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
			SWAPF(a[i], a[j]);
		}
		a[l + 1] = a[j];
		a[j] = piv;
		if (j >= k)
			ir = j - 1;
		if (j <= k)
			l = i;
	}
}

static double pair_weight(const struct m2 *m, size_t k)
{
	double ww = run_ww(m, k);

	/* a narrow window pins the edge down better than a wide one */
	return 1.0 / (ww * ww / 12 + m->res_ns * m->res_ns / 12 + 1);
}

/* Weighted least squares y = A + B x over the pairs not marked outlier. */
static int fit_line(const struct m2 *m, double *A, double *B)
{
	const struct align_result *r = m->r;
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, mx, my;
	size_t i;

	for (i = 0; i < m->ncap; i++) {
		ptrdiff_t k = pair_get(r, i);
		double wt;

		if (k < 0 || bit_get(r->outlier, i))
			continue;
		wt = pair_weight(m, (size_t)k);
		sw += wt;
		sx += wt * run_mid(m, (size_t)k);
		sy += wt * cap_y(m, i);
	}
	if (sw == 0)
		return -1;
	mx = sx / sw;
	my = sy / sw;
	for (i = 0; i < m->ncap; i++) {
		ptrdiff_t k = pair_get(r, i);
		double wt, dx, dy;

		if (k < 0 || bit_get(r->outlier, i))
			continue;
		wt = pair_weight(m, (size_t)k);
		dx = run_mid(m, (size_t)k) - mx;
		dy = cap_y(m, i) - my;
		sxx += wt * dx * dx;
		sxy += wt * dx * dy;
	}
	*B = sxx > 0 ? sxy / sxx : 1.0;
	if (!(sxx > 0) || fabs(*B - 1) > 0.01)
		*B = 1.0;       /* one point, or nonsense: no drift */
	*A = my - *B * mx;
	return 0;
}

static void robust_fit(struct m2 *m, double *A, double *B)
{
	struct align_result *r = m->r;
	float *dev = malloc((r->npairs + 1) * sizeof(*dev));
	int iter;
	size_t i;

	*A = 0;
	*B = 1;
	for (i = 0; i < m->ncap; i++)
		bit_set(r->outlier, i, pair_get(r, i) >= 0 && align_caps_gap(m->cap, i));
	for (iter = 0; iter < 10; iter++) {
		size_t n = 0, changed = 0;
		double scale = 0;

		if (fit_line(m, A, B) < 0)
			break;
		if (dev) {
			for (i = 0; i < m->ncap; i++) {
				ptrdiff_t k = pair_get(r, i);

				if (k >= 0 && !align_caps_gap(m->cap, i))
					dev[n++] = (float)fabs((cap_y(m, i) - *A) / *B - run_mid(m, (size_t)k));
			}
			if (n)
				scale = 1.4826 * select_kth(dev, n, n / 2);
		}
		for (i = 0; i < m->ncap; i++) {
			ptrdiff_t k = pair_get(r, i);
			double d, lim = 5 * scale, own;
			bool out;

			if (k < 0)
				continue;
			d = fabs((cap_y(m, i) - *A) / *B - run_mid(m, (size_t)k));
			own = run_ww(m, (size_t)k) / 2 + m->res_ns + m->slack_ns;
			if (lim < own)
				lim = own;
			out = d > lim || align_caps_gap(m->cap, i);
			if (out != bit_get(r->outlier, i)) {
				bit_set(r->outlier, i, out);
				changed++;
			}
		}
		if (!changed)
			break;
	}
	free(dev);
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

/*
 * The offset, from the windows. The weighted fit above goes through the
 * windows' midpoints, but the pin does not change in the middle of a write:
 * where it changes early in wide windows (a simulated chip, a GPIO ioctl
 * that returns slowly), the line sits tens of ns below the truth and a
 * change in a narrow window falls outside it. With the fit's drift kept,
 * each pair allows the offsets that put its capture edge inside its window
 * (widened by a resolution); the offset taken is the middle of the stretch
 * that most pairs allow (nearest the fit's among equals), and only if more
 * pairs allow it than allow the fit's. Gaps and unpaired edges take no part.
 * Memory: two floats per pair, freed here; without it the fit's offset stays.
 */
static void offset_by_windows(const struct m2 *m, double B, double *A)
{
	const struct align_result *r = m->r;
	size_t n = 0, i, a, b, cnt = 0, best = 0, at_zero = 0;
	float *lo = malloc((r->npairs + 1) * sizeof(*lo)), *hi = malloc((r->npairs + 1) * sizeof(*hi));
	double best_mid = 0;

	if (!lo || !hi)
		goto out;
	for (i = 0; i < m->ncap; i++) {
		ptrdiff_t k = pair_get(r, i);
		double y;

		if (k < 0 || align_caps_gap(m->cap, i))
			continue;
		y = cap_y(m, i) - *A;
		lo[n] = (float)(y - B * run_we(m, (size_t)k) - m->res_ns);
		hi[n] = (float)(y - B * run_wb(m, (size_t)k) + m->res_ns);
		if (lo[n] <= 0 && hi[n] >= 0)
			at_zero++;
		n++;
	}
	if (n == 0)
		goto out;
	qsort(lo, n, sizeof(*lo), cmp_float);
	qsort(hi, n, sizeof(*hi), cmp_float);
	/* sweep: entering at lo[a], leaving after hi[b] */
	for (a = 0, b = 0; a < n;) {
		if (lo[a] <= hi[b]) {
			cnt++;
			if (cnt > best || (cnt == best &&
					   fabs(((double)lo[a] + hi[b]) / 2) < fabs(best_mid))) {
				best = cnt;
				best_mid = ((double)lo[a] + hi[b]) / 2;
			}
			a++;
		} else {
			cnt--;
			b++;
		}
	}
	if (best > at_zero)
		*A += best_mid;
out:
	free(lo);
	free(hi);
}

static size_t run_index_of(const struct align_runs *run, uint64_t seq, bool *found)
{
	size_t lo = 0, hi = run->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (align_runs_seq(run, mid) < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < run->n && align_runs_seq(run, lo) == seq;
	return lo;
}

double align_cap_to_log(const struct align_result *res, int64_t t_ps)
{
	return ((double)t_ps / (double)CAPTURE_PS_PER_NS - res->offset_ns) / (1 + res->drift_ppm * 1e-6);
}

/* The residual of capture edge @i against run edge @k, with the final fit. */
static void pair_residual(const struct m2 *m, size_t i, size_t k, double *res, double *from_begin)
{
	const struct align_result *r = m->r;
	double x = (cap_y(m, i) - r->fit_a) / r->fit_b, wb = run_wb(m, k), we = run_we(m, k);

	*res = x < wb ? x - wb : x > we ? x - we : 0;
	*from_begin = x - wb;
}

static void m2_init(struct m2 *m, const struct align_result *r)
{
	memset(m, 0, sizeof(*m));
	m->run = r->runs;
	m->nrun = r->runs->n;
	m->cap = r->caps;
	m->ncap = r->caps->n;
	m->ref_ns = r->ref_ns;
	m->cref_ps = r->cref_ps;
	m->r = (struct align_result *)r;
}

/* The result's tables for @ncap capture and @nrun run edges, and the walk's
 * "paired" bits; on failure errno is ENOMEM and the caller frees both. */
static int match_alloc(struct m2 *m, struct align_result *r, size_t ncap, size_t nrun)
{
	size_t nb = (ncap + ALIGN_BLK - 1) >> ALIGN_BLK_SHIFT;

	r->pair = calloc(nb ? nb : 1, sizeof(*r->pair));
	r->pair_nblk = nb;
	r->outlier = calloc((ncap + 63) / 64 + 1, sizeof(*r->outlier));
	r->missing = calloc((nrun + 63) / 64 + 1, sizeof(*r->missing));
	m->paired = calloc((nrun + 63) / 64 + 1, sizeof(*m->paired));
	if (!r->pair || !r->outlier || !r->missing || !m->paired) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t b = 0; b < nb; b++) {
		r->pair[b] = calloc(ALIGN_BLK, sizeof(**r->pair));
		if (!r->pair[b]) {
			errno = ENOMEM;
			return -1;
		}
	}
	return 0;
}

/* The fit's scatter: inliers, outliers and their RMS residual; returns the
 * number of inliers. */
static size_t match_scatter(const struct m2 *m, struct align_result *r, double A, double B)
{
	size_t i, nin = 0;
	double ss = 0;

	for (i = 0; i < m->ncap; i++) {
		ptrdiff_t kk = pair_get(r, i);

		if (kk < 0)
			continue;
		if (bit_get(r->outlier, i)) {
			r->outliers++;
		} else {
			double d = (cap_y(m, i) - A) / B - run_mid(m, (size_t)kk);

			r->inliers++;
			ss += d * d;
			nin++;
		}
	}
	r->fit_rms_ns = nin ? sqrt(ss / (double)nin) : NAN;
	return nin;
}

/* The fitted line is itself uncertain (the edges sit anywhere in their
 * windows): its standard error at the far end of the capture, from the
 * weights (inverse variances), scaled up by the reduced chi-square if the
 * scatter is larger than the windows explain. Times 4, it is added to the
 * per-edge slack: a few ns for thousands of edges. Needs @nin > 2 inliers. */
static void match_fit_se(const struct m2 *m, struct align_result *r, double A, double B, size_t nin)
{
	double sw = 0, swx = 0, swxx = 0, chi = 0, xm, far = 0;
	size_t i;

	for (i = 0; i < m->ncap; i++) {
		ptrdiff_t kk = pair_get(r, i);
		double wt, d;

		if (kk < 0 || bit_get(r->outlier, i))
			continue;
		wt = pair_weight(m, (size_t)kk);
		d = (cap_y(m, i) - A) / B - run_mid(m, (size_t)kk);
		sw += wt;
		swx += wt * run_mid(m, (size_t)kk);
		chi += wt * d * d;
	}
	xm = swx / sw;
	for (i = 0; i < m->ncap; i++) {
		ptrdiff_t kk = pair_get(r, i);
		double dx;

		if (kk < 0)
			continue;
		dx = run_mid(m, (size_t)kk) - xm;
		if (fabs(dx) > far)
			far = fabs(dx);
		if (!bit_get(r->outlier, i))
			swxx += pair_weight(m, (size_t)kk) * dx * dx;
	}
	chi /= (double)(nin - 2);
	if (swxx > 0)
		r->fit_se_ns = sqrt((1.0 / sw + far * far / swxx) * (chi > 1 ? chi : 1));
}

/* Paired edges whose residual is beyond the tolerance (gaps excepted). */
static void match_count_disagree(const struct m2 *m, struct align_result *r)
{
	for (size_t i = 0; i < m->ncap; i++) {
		ptrdiff_t kk = pair_get(r, i);
		double res, fb;

		if (kk < 0 || align_caps_gap(m->cap, i))
			continue;
		pair_residual(m, i, (size_t)kk, &res, &fb);
		if (fabs(res) > r->tolerance_ns)
			r->disagree++;
	}
}

/* The window: run edges inside the capture's span, or paired. */
static void match_window(const struct m2 *m, struct align_result *r, const struct align_window *w,
			 double A, double B, size_t seed_run)
{
	const struct align_runs *run = m->run;

	r->span_lo_ns = ((double)(w->span_lo_ps - m->cref_ps) / (double)CAPTURE_PS_PER_NS - A) / B;
	r->span_hi_ns = ((double)(w->span_hi_ps - m->cref_ps) / (double)CAPTURE_PS_PER_NS - A) / B;
	r->run_first = run->n;
	r->run_last = 0;
	for (size_t k = 0; k < run->n; k++) {
		bool inside = run_wb(m, k) - r->tolerance_ns > r->span_lo_ns &&
			      run_we(m, k) + r->tolerance_ns < r->span_hi_ns;

		if (inside || bit_get(m->paired, k)) {
			if (r->run_first == run->n)
				r->run_first = k;
			r->run_last = k;
		}
	}
	if (r->run_first == run->n)
		r->run_first = r->run_last = seed_run;
	r->first_seq = align_runs_seq(run, r->run_first);
	r->last_seq = align_runs_seq(run, r->run_last);
	r->covered = r->run_last - r->run_first + 1;
}

/* Missing: unpaired run edges in the window, unless the capture had no
 * data there (a gap before a flagged edge) or the write failed. */
static void match_missing(const struct m2 *m, struct align_result *r, double A, double B)
{
	const struct align_caps *cap = m->cap;
	size_t gi = 0;
	double glo = -INFINITY, ghi = -INFINITY;

	for (size_t k = r->run_first; k <= r->run_last; k++) {
		double mid;

		if (bit_get(m->paired, k))
			continue;
		if (align_runs_at(m->run, k)->flags & EDGE_F_WRITE_ERR) {
			r->write_failed++;
			continue;
		}
		mid = run_mid(m, k);
		while (gi < cap->n && ghi < mid) {
			gi++;
			if (gi < cap->n && align_caps_gap(cap, gi)) {
				glo = (cap_y(m, gi - 1) - A) / B;
				ghi = (cap_y(m, gi) - A) / B;
			}
		}
		if (mid >= glo - r->tolerance_ns && mid <= ghi + r->tolerance_ns) {
			r->in_gap++;
			continue;
		}
		bit_set(r->missing, k, true);
		r->nmissing++;
	}
}

int align_match(const struct align_runs *run, const struct align_caps *cap,
		const struct align_window *w, const struct align_params *p,
		struct align_result *r)
{
	struct m2 m = { .run = run, .nrun = run->n, .cap = cap, .ncap = cap->n, .r = r };
	size_t i, seed_run, nin;
	double A, B;
	bool found;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	r->status = w->status;
	r->caps = cap;
	r->runs = run;
	r->fit_b = 1;
	if (w->status != ALIGN_FOUND)
		return 0;
	seed_run = run_index_of(run, w->seed_seq, &found);
	if (!found || w->seed_cap >= cap->n) {
		r->status = ALIGN_NO_OVERLAP;
		return 0;
	}
	if (run->n >= UINT32_MAX) {
		errno = E2BIG;
		return -1;
	}
	m.inv = w->inverted;
	m.res_ns = res_ns_of(p);
	m.slack_ns = slack_ns_of(p);
	m.drift_max = drift_max_of(p);
	{
		const struct align_run_edge *se = align_runs_at(run, seed_run);

		m.ref_ns = (int64_t)((uint64_t)se->wb_ns + se->ww_ns / 2);
	}
	m.cref_ps = align_caps_t(cap, w->seed_cap);
	r->ref_ns = m.ref_ns;
	r->cref_ps = m.cref_ps;
	if (match_alloc(&m, r, cap->n, run->n) < 0)
		goto out;
	pair_set(r, w->seed_cap, (ptrdiff_t)seed_run);
	bit_set(m.paired, seed_run, true);
	{
		double olo, ohi, B0 = 1 + w->drift_guess;
		unsigned M = p->block_len ? p->block_len : DEF_BLOCK_LEN;

		seed_interval(&m, w->seed_cap, seed_run, B0, M, &olo, &ohi);
		walk(&m, w->seed_cap, seed_run, B0, +1, olo, ohi);
		walk(&m, w->seed_cap, seed_run, B0, -1, olo, ohi);
	}

	for (i = 0; i < cap->n; i++) {
		if (pair_get(r, i) >= 0)
			r->npairs++;
		else
			r->nextra++;
	}
	robust_fit(&m, &A, &B);
	offset_by_windows(&m, B, &A);
	r->status = ALIGN_FOUND;
	r->inverted = m.inv;
	r->fit_a = A;
	r->fit_b = B;
	/* capture_ns (absolute in the capture's time base) = offset + B (log - ref) */
	r->offset_ns = A + (double)m.cref_ps / (double)CAPTURE_PS_PER_NS;
	r->drift_ppm = (B - 1) * 1e6;
	nin = match_scatter(&m, r, A, B);
	if (nin > 2)
		match_fit_se(&m, r, A, B, nin);
	r->tolerance_ns = m.slack_ns + 4 * r->fit_se_ns;
	match_count_disagree(&m, r);
	match_window(&m, r, w, A, B, seed_run);
	match_missing(&m, r, A, B);
	ret = 0;
out:
	free(m.paired);
	if (ret < 0)
		align_result_free(r);
	return ret;
}

void align_result_free(struct align_result *r)
{
	for (size_t b = 0; r->pair && b < r->pair_nblk; b++)
		free(r->pair[b]);
	free(r->pair);
	free(r->outlier);
	free(r->missing);
	if (r->own_caps) {
		align_caps_free(r->own_caps);
		free(r->own_caps);
	}
	if (r->own_runs) {
		align_runs_free(r->own_runs);
		free(r->own_runs);
	}
	r->pair = NULL;
	r->outlier = r->missing = NULL;
	r->own_caps = NULL;
	r->own_runs = NULL;
	r->npairs = r->nmissing = r->nextra = 0;
}

bool align_pair_of(const struct align_result *r, size_t i, struct align_pair *out)
{
	struct m2 m;
	ptrdiff_t k;

	if (r->status != ALIGN_FOUND || !r->pair || i >= r->caps->n)
		return false;
	k = pair_get(r, i);
	if (k < 0)
		return false;
	m2_init(&m, r);
	out->cap = i;
	out->run = (size_t)k + r->run_offset;
	pair_residual(&m, i, (size_t)k, &out->residual_ns, &out->from_begin_ns);
	out->outlier = bit_get(r->outlier, i);
	return true;
}

size_t align_missing_next(const struct align_result *r, size_t from)
{
	size_t k = from < r->run_offset ? 0 : from - r->run_offset;

	if (r->status != ALIGN_FOUND || !r->missing)
		return SIZE_MAX;
	for (; k < r->runs->n; k++) {
		if (!(k & 63) && !r->missing[k >> 6]) {
			k += 63;
			continue;
		}
		if (bit_get(r->missing, k))
			return k + r->run_offset;
	}
	return SIZE_MAX;
}

size_t align_extra_next(const struct align_result *r, size_t from)
{
	if (r->status != ALIGN_FOUND || !r->pair)
		return SIZE_MAX;
	for (size_t i = from; i < r->caps->n; i++)
		if (pair_get(r, i) < 0)
			return i;
	return SIZE_MAX;
}

int align_run(const struct edge_rec *run, size_t nrun, const struct capture_edge *cap,
	      size_t ncap, int64_t span_lo_ps, int64_t span_hi_ps,
	      const struct align_params *p, struct align_window *w, struct align_result *res)
{
	struct align_caps *caps = calloc(1, sizeof(*caps));
	struct align_runs *runs = calloc(1, sizeof(*runs));
	struct align_search *s = NULL;
	size_t k, lo, hi;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (!caps || !runs)
		goto fail;
	for (k = 0; k < ncap; k++)
		if (align_caps_add(caps, &cap[k]))
			goto fail;
	s = align_search_new(caps, span_lo_ps, span_hi_ps, p);
	if (!s)
		goto fail;
	for (k = 0; k < nrun; k++)
		align_search_feed(s, &run[k]);
	align_search_finish(s, w);
	align_search_free(s);
	if (w->status != ALIGN_FOUND) {
		/* nothing for the accessors to read */
		res->status = w->status;
		align_caps_free(caps);
		align_runs_free(runs);
		free(caps);
		free(runs);
		return 0;
	}
	for (lo = 0; lo < nrun && (int64_t)edge_write_end_ns(&run[lo]) < w->keep_lo_ns; lo++)
		;
	for (hi = lo; hi < nrun && (int64_t)edge_write_begin_ns(&run[hi]) <= w->keep_hi_ns; hi++)
		if (align_runs_add(runs, &run[hi]))
			goto fail;
	ret = align_match(runs, caps, w, p, res);
	res->own_caps = caps;
	res->own_runs = runs;
	if (ret == 0 && res->status == ALIGN_FOUND) {
		/* indices into the caller's array */
		res->run_offset = lo;
		res->run_first += lo;
		res->run_last += lo;
	}
	return ret;
fail:
	if (caps)
		align_caps_free(caps);
	if (runs)
		align_runs_free(runs);
	free(caps);
	free(runs);
	return -1;
}
