/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running moments, the log-linear percentile histogram and the cyclictest-style
 * linear histogram. The add functions sit on the writer thread's hot path. */
#include "base/stats.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const double stats_pct[STATS_NPCT] = { 0.01, 1, 50, 99, 99.9, 99.99 };
const char *const stats_pct_name[STATS_NPCT] = {
	"p0.01", "p1", "p50", "p99", "p99.9", "p99.99",
};

/* ---- moments ---- */

void stats_moments_init(struct stats_moments *m)
{
	memset(m, 0, sizeof(*m));
	m->min = INT64_MAX;
	m->max = INT64_MIN;
}

/* Chan et al.: combine (na, ma, m2a) with (nb, mb, m2b). */
static void moments_combine(uint64_t *na, double *ma, double *m2a,
			    uint64_t nb, double mb, double m2b)
{
	double n, d;

	if (nb == 0)
		return;
	if (*na == 0) {
		*na = nb;
		*ma = mb;
		*m2a = m2b;
		return;
	}
	n = (double)*na + (double)nb;
	d = mb - *ma;
	*m2a += m2b + d * d * (double)*na * (double)nb / n;
	*ma += d * (double)nb / n;
	*na += nb;
}

void stats_moments_fold_(struct stats_moments *m)
{
	double bn = m->bn, bm2;

	if (m->bn == 0)
		return;
	bm2 = m->bs2 - m->bs1 * m->bs1 / bn;
	if (bm2 < 0)
		bm2 = 0;
	moments_combine(&m->fn, &m->mean, &m->m2, m->bn, (double)m->bref + m->bs1 / bn, bm2);
	m->bn = 0;
	m->bs1 = m->bs2 = 0;
}

void stats_moments_add_n(struct stats_moments *m, int64_t x, uint64_t count)
{
	if (count == 0)
		return;
	if (x < m->min)
		m->min = x;
	if (x > m->max)
		m->max = x;
	stats_moments_fold_(m);
	moments_combine(&m->fn, &m->mean, &m->m2, count, (double)x, 0.0);
	m->n += count;
}

void stats_moments_merge(struct stats_moments *m, const struct stats_moments *o)
{
	struct stats_moments b = *o;

	if (o->n == 0)
		return;
	stats_moments_fold_(m);
	stats_moments_fold_(&b);
	if (b.min < m->min)
		m->min = b.min;
	if (b.max > m->max)
		m->max = b.max;
	moments_combine(&m->fn, &m->mean, &m->m2, b.fn, b.mean, b.m2);
	m->n += b.n;
}

double stats_moments_mean(const struct stats_moments *m)
{
	struct stats_moments c = *m;

	if (m->n == 0)
		return NAN;
	stats_moments_fold_(&c);
	return c.mean;
}

double stats_moments_stddev(const struct stats_moments *m)
{
	struct stats_moments c = *m;

	if (m->n == 0)
		return NAN;
	stats_moments_fold_(&c);
	/* m2 can come out a hair below zero after a merge; never report NaN. */
	return c.m2 > 0 ? sqrt(c.m2 / (double)c.n) : 0.0;
}

/* ---- log-linear histogram ---- */

#define SUB STATS_HIST_SUB
#define PAGE_BYTES ((size_t)SUB * sizeof(uint64_t))

int64_t stats_hist_slot_low(unsigned page, size_t idx)
{
	if (page == 0)
		return (int64_t)idx;
	return (SUB + (int64_t)idx) << (page - 1);
}

int64_t stats_hist_slot_width(unsigned page)
{
	return page == 0 ? 1 : (int64_t)1 << (page - 1);
}

int stats_hist_init_centered(struct stats_hist *h, int64_t highest, int64_t center)
{
	memset(h, 0, sizeof(*h));
	if (highest < SUB - 1 || highest > INT64_MAX / 2 || center < 0 || center > highest) {
		errno = EINVAL;
		return -1;
	}
	stats_moments_init(&h->m);
	h->highest = highest;
	h->center = center;
	h->split = (center + 1) / 2;
	return 0;
}

int stats_hist_init(struct stats_hist *h, int64_t highest)
{
	return stats_hist_init_centered(h, highest, 0);
}

void stats_hist_free(struct stats_hist *h)
{
	int s, n, j;

	for (s = 0; s < 2; s++)
		for (n = 0; n < 2; n++)
			for (j = 0; j < STATS_HIST_NPAGES; j++) {
				free(h->page[s][n][j]);
				h->page[s][n][j] = NULL;
			}
}

uint64_t *stats_hist_page_new_(struct stats_hist *h, int set, int neg, unsigned pg)
{
	uint64_t *p;

	/* A page that could not be had once is not asked for again: its
	 * values stay counted in pcount only, and percentiles say so. */
	if (h->nopage[set][neg] & (1ull << pg))
		return NULL;
	p = calloc((size_t)SUB, sizeof(*p));
	if (!p) {
		h->nopage[set][neg] |= 1ull << pg;
		return NULL;
	}
	h->page[set][neg][pg] = p;
	return p;
}

void stats_hist_reset(struct stats_hist *h)
{
	int s, n, j;

	for (s = 0; s < 2; s++)
		for (n = 0; n < 2; n++) {
			for (j = 0; j < STATS_HIST_NPAGES; j++)
				if (h->page[s][n][j])
					memset(h->page[s][n][j], 0, PAGE_BYTES);
			h->nopage[s][n] = 0;
		}
	memset(h->pcount, 0, sizeof(h->pcount));
	h->overflow = h->ovf_low = h->ovf_high = h->lost = 0;
	stats_moments_init(&h->m);
}

void stats_hist_merge(struct stats_hist *h, const struct stats_hist *o)
{
	int s, n, j;
	size_t i;

	assert(h->highest == o->highest && h->center == o->center);
	if (o->m.n == 0)
		return;
	for (s = 0; s < 2; s++)
		for (n = 0; n < 2; n++)
			for (j = 0; j < STATS_HIST_NPAGES; j++) {
				const uint64_t *src = o->page[s][n][j];
				uint64_t *dst = h->page[s][n][j];
				uint64_t in_src = 0;

				if (!o->pcount[s][n][j])
					continue;
				h->pcount[s][n][j] += o->pcount[s][n][j];
				if (src && !dst)
					dst = stats_hist_page_new_(h, s, n, (unsigned)j);
				if (src)
					for (i = 0; i < (size_t)SUB; i++)
						in_src += src[i];
				if (src && dst)
					for (i = 0; i < (size_t)SUB; i++)
						dst[i] += src[i];
				else
					in_src = 0;
				/* what o could not place, or we cannot take, is lost to both */
				h->lost += o->pcount[s][n][j] - in_src;
			}
	h->overflow += o->overflow;
	h->ovf_low += o->ovf_low;
	h->ovf_high += o->ovf_high;
	stats_moments_merge(&h->m, &o->m);
}

void stats_hist_add_n(struct stats_hist *h, int64_t v, uint64_t count)
{
	int set = v >= h->split;
	int64_t d = set ? v - h->center : v;
	int neg = d < 0;
	uint64_t mag = neg ? ~(uint64_t)d : (uint64_t)d;
	uint64_t *p;
	unsigned pg;
	size_t idx;

	if (count == 0)
		return;
	stats_moments_add_n(&h->m, v, count);
	if (mag > (uint64_t)h->highest) {
		h->overflow += count;
		if (neg)
			h->ovf_low += count;
		else
			h->ovf_high += count;
		return;
	}
	pg = stats_hist_slot_of(mag, &idx);
	h->pcount[set][neg][pg] += count;
	p = h->page[set][neg][pg];
	if (!p)
		p = stats_hist_page_new_(h, set, neg, pg);
	if (p)
		p[idx] += count;
	else
		h->lost += count;
}

uint64_t stats_rank(double p, uint64_t n)
{
	const uint64_t D = 100000000ull;	/* percent in millionths: 100 % = 1e8 */
	double scaled = p * 1e6;
	uint64_t pm, a, b, qa, ra, low, rank;
	double x;

	if (n == 0)
		return 0;
	if (!(p > 0))
		return 1;
	if (p >= 100)
		return n;
	pm = (uint64_t)llround(scaled);
	if (fabs(scaled - (double)pm) < 1e-6) {
		/* ceil(n * pm / 1e8) without 128-bit integers (32-bit targets):
		 * n * pm = a * 2^32 + b with a = hi(n) * pm, b = lo(n) * pm,
		 * each below 2^59 because pm < 2^27. */
		a = (n >> 32) * pm;
		b = (n & 0xffffffffull) * pm;
		qa = a / D;
		ra = a % D;
		low = (ra << 32) + b;	/* < 2^27 * 2^32 + 2^59 < 2^61 */
		rank = (qa << 32) + low / D + (low % D != 0);
	} else {
		/* Not a decimal percentage: doubles, shaving off rounding noise. */
		x = p * (double)n / 100.0;
		rank = (uint64_t)ceil(x - x * 1e-12);
	}
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return rank;
}

/* The values [lo, hi] a bucket (or a page, or an overflow range) can hold,
 * narrowed by the exact extremes; the middle and how far from it they are. */
static int64_t pct_answer(const struct stats_hist *h, int64_t lo, int64_t hi, int64_t *err)
{
	int64_t r;

	if (lo < h->m.min)
		lo = h->m.min;
	if (hi > h->m.max)
		hi = h->m.max;
	if (hi < lo)	/* cannot happen with consistent counts; be safe */
		hi = lo;
	r = lo + (int64_t)(((uint64_t)hi - (uint64_t)lo + 1) / 2);
	if (r > hi)
		r = hi;
	*err = r - lo > hi - r ? r - lo : hi - r;
	return r;
}

/* Values of magnitudes [mlo, mhi] on side @neg of set @set, as values. */
static void set_range(const struct stats_hist *h, int set, int neg, int64_t mlo, int64_t mhi,
		      int64_t *lo, int64_t *hi)
{
	int64_t base = set ? h->center : 0;

	if (neg) {
		*lo = base - 1 - mhi;
		*hi = base - 1 - mlo;
	} else {
		*lo = base + mlo;
		*hi = base + mhi;
	}
	/* each set holds one side of split only */
	if (set == 0 && *hi > h->split - 1)
		*hi = h->split - 1;
	if (set == 1 && *lo < h->split)
		*lo = h->split;
}

/* The rank-th value (1-based) within page (set, neg, pg), which holds it. */
static int64_t page_find(const struct stats_hist *h, int set, int neg, unsigned pg,
			 uint64_t rank, int64_t *err)
{
	const uint64_t *p = h->page[set][neg][pg];
	int64_t w = stats_hist_slot_width(pg), lo, hi;
	uint64_t cum = 0, placed = 0;
	size_t i, k;

	if (p) {
		for (i = 0; i < (size_t)SUB; i++)
			placed += p[i];
	}
	/* Counted in the page but not placed in a bucket (no memory for the
	 * page, or lost in a merge): the answer is somewhere in the page. */
	if (!p || placed != h->pcount[set][neg][pg]) {
		set_range(h, set, neg, stats_hist_slot_low(pg, 0),
			  stats_hist_slot_low(pg, (size_t)SUB - 1) + w - 1, &lo, &hi);
		return pct_answer(h, lo, hi, err);
	}
	/* In value order: a negative side's magnitudes run downwards. */
	for (k = 0; k < (size_t)SUB; k++) {
		i = neg ? (size_t)SUB - 1 - k : k;
		cum += p[i];
		if (rank <= cum)
			break;
	}
	if (k == (size_t)SUB)
		i = neg ? 0 : (size_t)SUB - 1;
	set_range(h, set, neg, stats_hist_slot_low(pg, i), stats_hist_slot_low(pg, i) + w - 1,
		  &lo, &hi);
	return pct_answer(h, lo, hi, err);
}

int64_t stats_hist_percentile_err(const struct stats_hist *h, double p, int64_t *err)
{
	uint64_t rank, cum;
	int set, neg, step, j;

	*err = 0;
	if (h->m.n == 0)
		return 0;
	if (!(p > 0))
		return h->m.min;
	if (p >= 100)
		return h->m.max;
	rank = stats_rank(p, h->m.n);
	/* The first and last ranks are the exact extremes. */
	if (rank == 1)
		return h->m.min;
	if (rank == h->m.n)
		return h->m.max;

	/* In value order: low overflows, set 0 below 0 (largest magnitude
	 * first), set 0 from 0, set 1 below center, set 1 from center, high
	 * overflows. */
	/* Among the overflows only the extreme is known: report it, with the
	 * distance to the tracked range as the error. */
	if (rank <= h->ovf_low) {
		int64_t top = -2 - h->highest;

		*err = (h->m.max < top ? h->m.max : top) - h->m.min;
		return h->m.min;
	}
	cum = h->ovf_low;
	for (set = 0; set < 2; set++) {
		for (neg = 1; neg >= 0; neg--) {
			step = neg ? -1 : 1;
			for (j = neg ? STATS_HIST_NPAGES - 1 : 0; j >= 0 && j < STATS_HIST_NPAGES;
			     j += step) {
				uint64_t c = h->pcount[set][neg][j];

				if (rank <= cum + c)
					return page_find(h, set, neg, (unsigned)j, rank - cum, err);
				cum += c;
			}
		}
	}
	{
		int64_t bottom = h->center + h->highest + 1;

		*err = h->m.max - (h->m.min > bottom ? h->m.min : bottom);
	}
	return h->m.max;
}

void stats_hist_walk(const struct stats_hist *h,
		     void (*fn)(void *ctx, int64_t lo, int64_t hi, uint64_t count), void *ctx)
{
	int set, neg, j;
	size_t i;

	for (set = 0; set < 2; set++) {
		for (neg = 0; neg < 2; neg++) {
			for (j = 0; j < STATS_HIST_NPAGES; j++) {
				const uint64_t *p = h->page[set][neg][j];
				int64_t w = stats_hist_slot_width((unsigned)j), lo, hi;

				if (!h->pcount[set][neg][j])
					continue;
				if (!p) {
					set_range(h, set, neg, stats_hist_slot_low((unsigned)j, 0),
						  stats_hist_slot_low((unsigned)j, (size_t)SUB - 1) + w - 1,
						  &lo, &hi);
					fn(ctx, lo, hi, h->pcount[set][neg][j]);
					continue;
				}
				for (i = 0; i < (size_t)SUB; i++) {
					if (!p[i])
						continue;
					set_range(h, set, neg, stats_hist_slot_low((unsigned)j, i),
						  stats_hist_slot_low((unsigned)j, i) + w - 1, &lo, &hi);
					fn(ctx, lo, hi, p[i]);
				}
			}
		}
	}
}

int64_t stats_hist_percentile(const struct stats_hist *h, double p)
{
	int64_t err;

	return stats_hist_percentile_err(h, p, &err);
}

/* ---- linear histogram ---- */

int stats_linhist_init(struct stats_linhist *h, size_t nbuckets, int64_t width_ns,
		       size_t max_overflow_at)
{
	memset(h, 0, sizeof(*h));
	if (nbuckets == 0 || width_ns <= 0 || nbuckets > (size_t)INT64_MAX / (size_t)width_ns) {
		errno = EINVAL;
		return -1;
	}
	h->counts = calloc(nbuckets, sizeof(*h->counts));
	if (!h->counts)
		return -1;
	if (max_overflow_at) {
		h->overflow_at = calloc(max_overflow_at, sizeof(*h->overflow_at));
		if (!h->overflow_at) {
			free(h->counts);
			h->counts = NULL;
			return -1;
		}
	}
	h->nbuckets = nbuckets;
	h->width_ns = width_ns;
	h->max_overflow_at = max_overflow_at;
	stats_moments_init(&h->m);
	return 0;
}

void stats_linhist_free(struct stats_linhist *h)
{
	free(h->counts);
	free(h->overflow_at);
	h->counts = NULL;
	h->overflow_at = NULL;
	h->nbuckets = 0;
}

void stats_linhist_add(struct stats_linhist *h, int64_t v)
{
	stats_linhist_add_at(h, v, h->n);
}

void stats_linhist_add_at(struct stats_linhist *h, int64_t v, uint64_t at)
{
	uint64_t idx;

	stats_moments_add(&h->m, v);
	if (v < 0) {
		/* cyclictest has no negative latencies; keep them visible in bucket 0. */
		h->underflow++;
		v = 0;
	}
	idx = (uint64_t)(v / h->width_ns);
	if (idx >= h->nbuckets) {
		if (h->noverflow_at < h->max_overflow_at)
			h->overflow_at[h->noverflow_at++] = at;
		h->overflow++;
	} else {
		h->counts[idx]++;
	}
	h->n++;
}

/* cyclictest prints latencies as unsigned longs in whole units, truncated. */
static unsigned long linhist_units(const struct stats_linhist *h, double ns)
{
	if (!(ns > 0))
		return 0;
	return (unsigned long)(ns / (double)h->width_ns);
}

void stats_linhist_print(FILE *f, const struct stats_linhist *h)
{
	uint64_t total = 0;
	size_t i;

	fprintf(f, "# Histogram\n");
	for (i = 0; i < h->nbuckets; i++) {
		fprintf(f, "%06zu %06" PRIu64 "\n", i, h->counts[i]);
		total += h->counts[i];
	}
	fprintf(f, "# Total: %09" PRIu64 "\n", total);
	fprintf(f, "# Min Latencies: %05lu\n",
		h->m.n ? linhist_units(h, (double)h->m.min) : 0);
	fprintf(f, "# Avg Latencies: %05lu\n",
		h->m.n ? linhist_units(h, stats_moments_mean(&h->m)) : 0);
	fprintf(f, "# Max Latencies: %05lu\n",
		h->m.n ? linhist_units(h, (double)h->m.max) : 0);
	fprintf(f, "# Histogram Overflows: %05" PRIu64 "\n", h->overflow);
	fprintf(f, "# Histogram Overflow at cycle number:\n");
	fprintf(f, "# Thread 0:");
	for (i = 0; i < h->noverflow_at; i++)
		fprintf(f, " %05" PRIu64, h->overflow_at[i]);
	if (h->noverflow_at < h->overflow)
		fprintf(f, " # %05" PRIu64 " others", h->overflow - h->noverflow_at);
	fprintf(f, "\n\n");
}
