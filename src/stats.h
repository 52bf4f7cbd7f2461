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
/* Add @o's samples to @m. */
void stats_moments_merge(struct stats_moments *m, const struct stats_moments *o);
/* NaN when empty. */
double stats_moments_mean(const struct stats_moments *m);
/* Population standard deviation (divides by n); NaN when empty, 0 for n == 1. */
double stats_moments_stddev(const struct stats_moments *m);

/* ---- log-linear histogram (HDR style) ---- */

/*
 * Values 0..255 ns each have their own bucket (exact). Above that, every
 * power of two [2^k, 2^(k+1)) is split into 128 equal buckets, so a bucket is
 * at most 1/128 of its lower bound wide. A percentile is reported as the
 * middle of its bucket, clamped to the exact min and max: the relative error
 * against the exact sample percentile is at most 1/256 (0.4 %).
 *
 * Values above the highest trackable value are counted in .overflow (their
 * exact maximum is still kept), negative values in .underflow. Both take
 * part in the ranks of percentiles: a rank among the underflows reports the
 * exact min, a rank among the overflows the exact max.
 */
#define STATS_HIST_EXACT_BITS 8   /* values below 2^8 are exact */
#define STATS_HIST_SUB_BITS   7   /* 2^7 buckets per power of two above that */
#define STATS_HIST_DEFAULT_HIGHEST ((int64_t)1 << 34) /* ~17 s in ns */

struct stats_hist {
	uint64_t *counts;
	size_t nbuckets;
	int64_t highest;          /* largest value that gets a bucket */
	uint64_t overflow;        /* values > highest */
	uint64_t underflow;       /* values < 0 */
	struct stats_moments m;   /* n, exact min and max, mean, stddev of all values */
};

/* Allocate the buckets for values up to @highest (>= 255). Returns -1 with
 * errno (EINVAL, ENOMEM). Free with stats_hist_free(). A histogram keeps the
 * moments of its values too (.m): one add feeds both. */
int stats_hist_init(struct stats_hist *h, int64_t highest);
void stats_hist_free(struct stats_hist *h);
void stats_hist_reset(struct stats_hist *h);
static inline void stats_hist_add(struct stats_hist *h, int64_t v);
/* Add @o's counts into @h; both must have been initialised with the same
 * @highest (asserted). */
void stats_hist_merge(struct stats_hist *h, const struct stats_hist *o);
/*
 * The nearest-rank percentile @p in [0, 100]: the value of rank
 * ceil(p / 100 * n) (at least 1) in sorted order, to within the error above.
 * p = 0 is the exact min, p = 100 the exact max. 0 when empty.
 */
int64_t stats_hist_percentile(const struct stats_hist *h, double p);

/* Bucket layout, for tests and for printing: the bucket @v falls in, and that
 * bucket's lowest value and width. */
static inline size_t stats_hist_bucket_of(int64_t v);
int64_t stats_hist_bucket_low(size_t idx);
int64_t stats_hist_bucket_width(size_t idx);

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

static inline size_t stats_hist_bucket_of(int64_t v)
{
	unsigned k;

	if (v < ((int64_t)1 << STATS_HIST_EXACT_BITS))
		return (size_t)v;
	k = 63u - (unsigned)__builtin_clzll((unsigned long long)v); /* v in [2^k, 2^(k+1)) */
	return ((size_t)1 << STATS_HIST_EXACT_BITS) +
	       ((size_t)(k - STATS_HIST_EXACT_BITS) << STATS_HIST_SUB_BITS) +
	       (size_t)((v >> (k - STATS_HIST_SUB_BITS)) - ((int64_t)1 << STATS_HIST_SUB_BITS));
}

static inline void stats_hist_add(struct stats_hist *h, int64_t v)
{
	stats_moments_add(&h->m, v);
	if (v < 0)
		h->underflow++;
	else if (v > h->highest)
		h->overflow++;
	else
		h->counts[stats_hist_bucket_of(v)]++;
}

#endif
