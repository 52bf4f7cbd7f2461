/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report --baseline: is NEW worse than OLD beyond what run-to-run variation
 * explains, per phase and figure (docs/report.md, "Regression verdict"). */
#ifndef SQW_REGRESS_H
#define SQW_REGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


#define REGRESS_SCHEMA "sqwave-regress"
#define REGRESS_SCHEMA_VERSION 1

/*
 * A distribution as one run knows it: "the values of ranks r0..r1 (1-based,
 * sorted) lie in [lo, hi]", knots in rank order. A log gives every rank (its
 * histogram's buckets, exact to a bucket's width); a summary gives the ranks
 * of its percentiles, min and max; a rank between two knots lies between
 * them. n 0: no values.
 */
struct regress_knot {
	uint64_t r0, r1;
	int64_t lo, hi;
};
struct regress_dist {
	uint64_t n;
	int64_t min, max;
	struct regress_knot *k;    /* owned (regress_run_free()) */
	size_t nk;
};

enum regress_fig {
	REGRESS_TMIN_POS,
	REGRESS_TMAX_POS,
	REGRESS_TMIN_NEG,
	REGRESS_TMAX_NEG,
	REGRESS_WAKE_P99,
	REGRESS_WAKE_P9999,
	REGRESS_WAKE_MAX,
	REGRESS_MISSED,
	REGRESS_NFIGS
};

/* The figure's name in every output ("tmin_positive", "wake_p99", ...). */
const char *regress_fig_name(enum regress_fig f);

/* One phase of a run (the whole run: "run"). */
struct regress_phase {
	char name[64];
	struct regress_dist wake, pos, neg;  /* wake-up latency; positive, negative pulses */
	uint64_t edges, missed;    /* counted edges, missed periods */
};

/* One run: its phases, read from a log or a JSON summary/analysis. */
struct regress_run {
	char source[512];          /* the file, as given */
	char label[64];
	char line[64];             /* the line as gpio.line names it ("": unknown) */
	bool from_log;             /* full distributions; else a summary's percentiles */
	struct regress_phase *ph;  /* owned */
	size_t nph;
};

/* Runs are read, and verdicts written, by report/regressdoc.h. */

/* How a verdict is reached: the documented defaults (docs/report.md). */
struct regress_opts {
	double confidence;         /* of every interval: 0.95 */
	int64_t min_step_ns;       /* a time figure's least practical step: 1 us */
	double min_step_pct;       /* ... or this % of OLD's figure, the larger: 10 */
	double min_missed_ppm;     /* missed periods per million slots: 100 */
};
void regress_opts_default(struct regress_opts *o);

/* Whether the @n runs of one side (@side: "OLD", "NEW", "the series") are of
 * one line: a side mixing lines (result.0 and result.3 of a two-line run)
 * would judge them as one. 0, or -1 with the two lines and their files in
 * @err. A line not known ("") matches any. */
int regress_side_check(const struct regress_run *runs, size_t n, const char *side, char *err,
		       size_t errlen);

enum regress_call {
	REGRESS_SAME,              /* no regression: within the interval and the step */
	REGRESS_WORSE,             /* a regression */
	REGRESS_BETTER,            /* improved beyond the step */
	REGRESS_UNJUDGED           /* no interval, no data: no verdict */
};
const char *regress_call_name(enum regress_call c);

/* One verdict: a phase's figure, OLD against NEW. Times in ns, missed
 * periods in per million slots. have_lo/have_hi false: that bound unknown. */
struct regress_row {
	char phase[64];
	enum regress_fig fig;
	size_t n_old, n_new;       /* runs with the figure */
	bool have_old, have_new;
	double old_v, new_v, diff; /* medians over the runs (one run: its figure) */
	bool have_lo, have_hi;
	double lo, hi;             /* the interval of NEW - OLD */
	double step;               /* the least practical step */
	double p;                  /* the exceedance test's p (method "exceedances"), else -1 */
	const char *method;        /* "ranks", "order statistics", "exceedances",
				    * "poisson", "none" */
	const char *basis;         /* what the runs gave: "logs", "summaries", "logs and summaries",
				    * "none" (no run has the figure) */
	enum regress_call call;
	char why[200];             /* one sentence: what the method found */
	/* report --trend --steps: the run where the figure stepped (the first
	 * run after the change point), or SIZE_MAX: none */
	size_t at;
};

struct regress_result {
	struct regress_row *rows;  /* owned (regress_result_free()) */
	size_t n;
	bool trend;                /* rows of a series (at) rather than OLD vs NEW */
	size_t n_old, n_new;       /* runs given on each side (trend: the series, in n_old) */
	const struct regress_run *old, *nw; /* the caller's runs (trend: the series in old),
				    * for their names; they outlive the result */
};

/* Every phase (OLD's order, then NEW's own) and figure, OLD's @nold runs
 * against NEW's @nnew. 0, or -1 (out of memory) with @err. */
int regress_judge(const struct regress_run *old, size_t nold, const struct regress_run *nw,
		  size_t nnew, const struct regress_opts *o, struct regress_result *res, char *err,
		  size_t errlen);
/* The same over a series in order: for each phase and figure, the split of
 * the runs into before and after (at least three each) that is called a
 * regression with the widest margin, earliest on ties; at = its first run
 * after. Fewer than REGRESS_TREND_MIN runs (no split whose rank interval
 * can be bounded at 95 %: 3 and 5): every row unjudged. */
#define REGRESS_TREND_MIN 8
int regress_trend(const struct regress_run *runs, size_t n, const struct regress_opts *o,
		  struct regress_result *res, char *err, size_t errlen);
void regress_result_free(struct regress_result *res);
/* Whether a row is a regression (the command's exit 1). */
bool regress_any(const struct regress_result *res);

/* ---- the statistics, for the tests ---- */

/* P(X <= k), X ~ Binomial(n, p). */
double regress_binom_cdf(uint64_t k, uint64_t n, double p);
/* P(X <= k), X ~ Poisson(lambda). */
double regress_poisson_cdf(uint64_t k, double lambda);
/* Ranks l <= u of n sorted values with P(x_(l) <= q_p <= x_(u)) >= conf
 * for the p-quantile q_p, equal tails; l 0: no lower bound, u n+1: no upper. */
void regress_quantile_ranks(uint64_t n, double p, double conf, uint64_t *l, uint64_t *u);
/* The exact (Garwood) interval of a Poisson mean from a count k. */
void regress_poisson_ci(uint64_t k, double conf, double *lo, double *hi);
/* P(the k largest of m + n values all come from the n), under one
 * distribution: C(n, k) / C(m + n, k). */
double regress_exceed_p(uint64_t k, uint64_t n, uint64_t m);
/* The median of @n values (sorted in place). */
double regress_median(double *v, size_t n);
/* P(U <= c), U the Mann-Whitney count of m OLD and n NEW values of one
 * distribution (pairs with NEW above OLD): exact up to 400 pairs, else
 * normal. */
double regress_mw_cdf(uint64_t c, size_t m, size_t n);
/* The Hodges-Lehmann interval at @conf of the shift from @a to @b: the
 * order statistics of the pairwise differences b_j - a_i that the
 * Mann-Whitney distribution gives; *@bounded false when the sizes allow
 * none at @conf. 0, or -1: out of memory. */
int regress_rank_interval(const double *a, size_t na, const double *b, size_t nb, double conf,
			  bool *bounded, double *lo, double *hi);
/* The bounds of the value of rank @r in @d (INT64_MIN/INT64_MAX: none). */
void regress_dist_rank(const struct regress_dist *d, uint64_t r, int64_t *lo, int64_t *hi);

#endif
