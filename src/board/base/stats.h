/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statistics in constant memory: running moments, a log-linear histogram for
 * percentiles with a bounded relative error, and a 1 us linear histogram. */
#ifndef SQW_STATS_H
#define SQW_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * None of these objects is thread-safe: one thread adds, and readers see the
 * object only when the adder is known to be idle (or under the caller's lock).
 * Adding never allocates.
 */

/* ---- running moments ---- */

/*
 * Welford's update costs a division per sample, a serial dependency chain
 * (16 ns a sample against 5 ns for this on the development VM), and four
 * of these run per edge on the writer thread. So samples are summed in
 * batches of STATS_MOMENTS_BATCH, relative to the batch's first value (no
 * cancellation), and each batch is folded into the running mean and sum of
 * squared deviations with Chan et al.'s parallel form of Welford's update.
 * Read the mean and standard deviation through the functions, which fold
 * the pending batch into a copy; min, max and n are always up to date.
 */
#define STATS_MOMENTS_BATCH 256

struct stats_moments {
	uint64_t n;               /* samples added */
	int64_t min, max;         /* exact; INT64_MAX and INT64_MIN while n == 0 */
	/* folded batches */
	uint64_t fn;
	double mean, m2;          /* m2: sum of squared deviations from mean */
	/* the pending batch */
	uint32_t bn;
	int64_t bref;             /* its first value */
	double bs1, bs2;          /* sum of (x - bref) and of its square */
};

void stats_moments_init(struct stats_moments *m);
static inline void stats_moments_add(struct stats_moments *m, int64_t x);
/* Add @x @count times (no loop: counts in the billions cost one add). */
void stats_moments_add_n(struct stats_moments *m, int64_t x, uint64_t count);
/* Add @o's samples to @m. */
void stats_moments_merge(struct stats_moments *m, const struct stats_moments *o);
/* NaN when empty. */
double stats_moments_mean(const struct stats_moments *m);
/* Population standard deviation (divides by n); NaN when empty, 0 for n == 1. */
double stats_moments_stddev(const struct stats_moments *m);

/* ---- log-linear histogram (HDR style) ---- */

/*
 * Percentiles to within max(0.01 % of the value, 10 ns) of the exact order
 * statistic, in memory that does not grow with the number of values.
 *
 * A value is kept as its distance from a base: magnitudes 0..8191 each have
 * their own bucket (exact); above that, every power of two [2^k, 2^(k+1)) is
 * split into 8192 equal buckets, so a bucket is at most 1/8192 of its
 * magnitude wide and its middle is within 1/16384 (0.0061 %) of any value
 * in it. Negative distances are mirrored: -1 is magnitude 0, -2 magnitude 1
 * (no value is special, INT64_MIN included).
 *
 * The base is 0, or for a histogram made with stats_hist_init_centered(), a
 * center (a pulse width's nominal half period): values from center / 2 up
 * are kept as their distance from it, which makes the ones near it exact
 * (a 500 us pulse within 8.2 us of nominal is counted to the nanosecond);
 * values below center / 2 are kept from 0, so the relative bound holds
 * for every value.
 *
 * Buckets come in pages of 8192 (64 KiB), one page per power of two and
 * sign, allocated the first time a value falls in it (by the thread that
 * adds: never the RT thread). A histogram of latencies uses a handful;
 * one that sees every magnitude up to its highest uses 2 x 2 x 23 pages at
 * most for the default highest. If a page cannot be allocated, its values
 * are still counted (per page, in .lost) and a percentile that falls among
 * them says how uncertain it is.
 *
 * Values more than @highest from their base are counted in .overflow; a
 * rank among them reports the exact min (below) or max (above). Every
 * percentile comes with its error bound (stats_hist_percentile_err()).
 */
#define STATS_HIST_SUB_BITS 13    /* 2^13 buckets per page */
#define STATS_HIST_SUB ((int64_t)1 << STATS_HIST_SUB_BITS)
#define STATS_HIST_NPAGES 51      /* page 0 exact; page j: magnitudes [2^(12+j), 2^(13+j)) */
#define STATS_HIST_DEFAULT_HIGHEST ((int64_t)1 << 34) /* ~17 s in ns */

struct stats_hist {
	int64_t highest;          /* largest magnitude that gets a bucket */
	int64_t center;           /* base of the values >= split; 0 for a plain histogram */
	int64_t split;            /* (center + 1) / 2 */
	uint64_t overflow;        /* values beyond highest: ovf_low + ovf_high */
	uint64_t ovf_low, ovf_high;
	uint64_t lost;            /* values counted only in their page's total */
	/* [set][neg][page]: set 0 holds values < split (from 0), set 1 the
	 * others (from center); neg: below the base */
	uint64_t pcount[2][2][STATS_HIST_NPAGES];
	uint64_t *page[2][2][STATS_HIST_NPAGES];
	uint64_t nopage[2][2];    /* bit j: page j could not be allocated */
	struct stats_moments m;   /* n, exact min and max, mean, stddev of all values */
};

/* A plain histogram (base 0) for values up to @highest (>= 8191) in
 * magnitude. Returns -1 with errno (EINVAL). Allocates nothing yet: pages
 * come with the values. Free with stats_hist_free(). A histogram keeps the
 * moments of its values too (.m): one add feeds both. */
int stats_hist_init(struct stats_hist *h, int64_t highest);
/* The same, with values from @center / 2 up kept relative to @center
 * (0 <= @center <= @highest). */
int stats_hist_init_centered(struct stats_hist *h, int64_t highest, int64_t center);
void stats_hist_free(struct stats_hist *h);
/* Empty it (keeps its pages for reuse). */
void stats_hist_reset(struct stats_hist *h);
static inline void stats_hist_add(struct stats_hist *h, int64_t v);
/* Add @v @count times. */
void stats_hist_add_n(struct stats_hist *h, int64_t v, uint64_t count);
/* Add @o's counts into @h; both must have been initialised alike (asserted).
 * Allocates pages in @h as needed. */
void stats_hist_merge(struct stats_hist *h, const struct stats_hist *o);
/*
 * The nearest-rank percentile @p in [0, 100]: the value of rank
 * ceil(p / 100 * n) (at least 1) in sorted order. p = 0 is the exact min,
 * p = 100 the exact max; 0 when empty. stats_hist_percentile_err() also
 * stores in *@err how far the exact order statistic can be from the
 * answer (0: exact). *@err <= max(0.01 % of the value, 10 ns) unless the
 * rank falls among overflows or values of a page that could not be
 * allocated.
 */
int64_t stats_hist_percentile(const struct stats_hist *h, double p);
/* Every non-empty bucket as [lo, hi] (inclusive) and its count, in no
 * particular order (overflows not included: see .ovf_low, .ovf_high). */
void stats_hist_walk(const struct stats_hist *h,
		     void (*fn)(void *ctx, int64_t lo, int64_t hi, uint64_t count), void *ctx);
int64_t stats_hist_percentile_err(const struct stats_hist *h, double p, int64_t *err);

/* The nearest rank of percentile @p among @n values: ceil(p / 100 * n), at
 * least 1, at most n; exact (integer arithmetic) for any @p with up to six
 * decimals, whatever @n. */
uint64_t stats_rank(double p, uint64_t n);

/* Bucket layout, for tests: the page and bucket of magnitude @mag, and a
 * bucket's lowest magnitude and width. */
static inline unsigned stats_hist_slot_of(uint64_t mag, size_t *idx);
int64_t stats_hist_slot_low(unsigned page, size_t idx);
int64_t stats_hist_slot_width(unsigned page);

/* The percentiles every report shows, in this order. */
#define STATS_NPCT 6
extern const double stats_pct[STATS_NPCT];      /* 0.01, 1, 50, 99, 99.9, 99.99 */
extern const char *const stats_pct_name[STATS_NPCT]; /* "p0.01", "p1", "p50", ... */

/* ---- linear histogram (cyclictest -h compatible) ---- */

struct stats_linhist {
	uint64_t *counts;
	size_t nbuckets;          /* bucket i holds [i * width, (i + 1) * width) */
	int64_t width_ns;         /* 1000 for cyclictest's 1 us buckets */
	uint64_t n;               /* every value added */
	uint64_t overflow;        /* values >= nbuckets * width */
	uint64_t underflow;       /* negative values, counted in bucket 0 as well */
	uint64_t *overflow_at;    /* sample index of the first max_overflow_at overflows */
	size_t max_overflow_at, noverflow_at;
	struct stats_moments m;   /* for the Min/Avg/Max footer lines */
};

/* -1 with errno on bad arguments or no memory. Free with stats_linhist_free(). */
int stats_linhist_init(struct stats_linhist *h, size_t nbuckets, int64_t width_ns,
		       size_t max_overflow_at);
void stats_linhist_free(struct stats_linhist *h);
void stats_linhist_add(struct stats_linhist *h, int64_t v);
/* The same, recording @at (an edge's seq, say) instead of the sample index
 * for an overflow: what the "Overflow at cycle number" line lists. */
void stats_linhist_add_at(struct stats_linhist *h, int64_t v, uint64_t at);

/*
 * Print like `cyclictest -h N -q` does for one thread: "# Histogram", one
 * "%06d %06lu" line per bucket, "# Total:", "# Min/Avg/Max Latencies:" (in
 * bucket units, i.e. us for 1000 ns buckets), "# Histogram Overflows:" and
 * the overflow sample numbers. Tools that parse cyclictest histograms read it.
 */
void stats_linhist_print(FILE *f, const struct stats_linhist *h);

/* ---- the add functions are inline: they run for every edge ---- */

void stats_moments_fold_(struct stats_moments *m); /* internal */

static inline void stats_moments_add(struct stats_moments *m, int64_t x)
{
	double d;

	/* min and max start at the far ends (stats_moments_init): no branch */
	m->min = x < m->min ? x : m->min;
	m->max = x > m->max ? x : m->max;
	m->n++;
	if (m->bn == 0)
		m->bref = x;
	d = (double)x - (double)m->bref;
	m->bs1 += d;
	m->bs2 += d * d;
	if (++m->bn == STATS_MOMENTS_BATCH)
		stats_moments_fold_(m);
}

static inline unsigned stats_hist_slot_of(uint64_t mag, size_t *idx)
{
	unsigned k;

	if (mag < (uint64_t)STATS_HIST_SUB) {
		*idx = (size_t)mag;
		return 0;
	}
	k = 63u - (unsigned)__builtin_clzll(mag); /* mag in [2^k, 2^(k+1)), k >= 13 */
	*idx = (size_t)((mag >> (k - STATS_HIST_SUB_BITS)) - (uint64_t)STATS_HIST_SUB);
	return k - (STATS_HIST_SUB_BITS - 1);
}

uint64_t *stats_hist_page_new_(struct stats_hist *h, int set, int neg, unsigned pg); /* internal */

static inline void stats_hist_add(struct stats_hist *h, int64_t v)
{
	int set = v >= h->split;
	/* v - center cannot overflow: v >= split >= 0 and center >= 0 */
	int64_t d = set ? v - h->center : v;
	int neg = d < 0;
	uint64_t mag = neg ? ~(uint64_t)d : (uint64_t)d;
	uint64_t *p;
	unsigned pg;
	size_t idx;

	stats_moments_add(&h->m, v);
	if (mag > (uint64_t)h->highest) {
		h->overflow++;
		if (neg)
			h->ovf_low++;
		else
			h->ovf_high++;
		return;
	}
	pg = stats_hist_slot_of(mag, &idx);
	h->pcount[set][neg][pg]++;
	p = h->page[set][neg][pg];
	if (__builtin_expect(!p, 0))
		p = stats_hist_page_new_(h, set, neg, pg);
	if (p)
		p[idx]++;
	else
		h->lost++;
}

#endif
