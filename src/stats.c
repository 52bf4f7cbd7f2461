/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running moments, the log-linear percentile histogram and the cyclictest-style
 * linear histogram. The add functions sit on the writer thread's hot path. */
#include "stats.h"

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

#define EXACT ((int64_t)1 << STATS_HIST_EXACT_BITS)
#define SUB   ((int64_t)1 << STATS_HIST_SUB_BITS)

int64_t stats_hist_bucket_low(size_t idx)
{
	size_t j, k;

	if (idx < (size_t)EXACT)
		return (int64_t)idx;
	j = idx - (size_t)EXACT;
	k = STATS_HIST_EXACT_BITS + j / SUB;
	return (SUB + (int64_t)(j % SUB)) << (k - STATS_HIST_SUB_BITS);
}

int64_t stats_hist_bucket_width(size_t idx)
{
	size_t k;

	if (idx < (size_t)EXACT)
		return 1;
	k = STATS_HIST_EXACT_BITS + (idx - (size_t)EXACT) / SUB;
	return (int64_t)1 << (k - STATS_HIST_SUB_BITS);
}

int stats_hist_init(struct stats_hist *h, int64_t highest)
{
	memset(h, 0, sizeof(*h));
	if (highest < EXACT - 1 || highest > INT64_MAX / 2) {
		errno = EINVAL;
		return -1;
	}
	stats_moments_init(&h->m);
	h->nbuckets = stats_hist_bucket_of(highest) + 1;
	h->counts = calloc(h->nbuckets, sizeof(*h->counts));
	if (!h->counts)
		return -1;
	h->highest = highest;
	return 0;
}

void stats_hist_free(struct stats_hist *h)
{
	free(h->counts);
	h->counts = NULL;
	h->nbuckets = 0;
}

void stats_hist_reset(struct stats_hist *h)
{
	memset(h->counts, 0, h->nbuckets * sizeof(*h->counts));
	h->overflow = h->underflow = 0;
	stats_moments_init(&h->m);
}

void stats_hist_merge(struct stats_hist *h, const struct stats_hist *o)
{
	size_t i;

	assert(h->nbuckets == o->nbuckets && h->highest == o->highest);
	if (o->m.n == 0)
		return;
	for (i = 0; i < h->nbuckets; i++)
		h->counts[i] += o->counts[i];
	h->overflow += o->overflow;
	h->underflow += o->underflow;
	stats_moments_merge(&h->m, &o->m);
}

int64_t stats_hist_percentile(const struct stats_hist *h, double p)
{
	uint64_t rank, cum;
	double x;
	int64_t v;
	size_t i;

	if (h->m.n == 0)
		return 0;
	if (!(p > 0))
		return h->m.min;
	if (p >= 100)
		return h->m.max;
	/* Shave off rounding noise: 7 % of 200 must be rank 14, not 15. */
	x = p * (double)h->m.n / 100.0;
	rank = (uint64_t)ceil(x - x * 1e-12);
	if (rank < 1)
		rank = 1;
	if (rank > h->m.n)
		rank = h->m.n;
	cum = h->underflow;
	if (rank <= cum)
		return h->m.min;
	for (i = 0; i < h->nbuckets; i++) {
		cum += h->counts[i];
		if (rank <= cum)
			break;
	}
	if (i == h->nbuckets)
		return h->m.max;
	/* The middle of the bucket halves the worst-case error. */
	v = stats_hist_bucket_low(i) + stats_hist_bucket_width(i) / 2;
	if (v < h->m.min)
		v = h->m.min;
	if (v > h->m.max)
		v = h->m.max;
	return v;
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
