/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a scope that measured N of a run's M pulses shows as Tmin/Tmax: the
 * extreme of a sample drawn without replacement, its law from the log. */
#ifndef SQW_SCOPEPREDICT_H
#define SQW_SCOPEPREDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The run's pulses of one polarity: each one's width estimate and the
 * bounds its write windows allow (stats/edgestats.h, struct
 * edgestats_pulse). 24 bytes a pulse: 86 MB for the 3.6 M pulses of an
 * hour of a 500 us wave. */
struct scopepredict_pulses {
	int64_t *est, *lo, *hi;
	size_t n, cap;
};

void scopepredict_pulses_init(struct scopepredict_pulses *p);
/* 0, or -1 when out of memory (the pulses so far are kept). */
int scopepredict_pulses_add(struct scopepredict_pulses *p, int64_t est, int64_t lo, int64_t hi);
/* Before scopepredict_extreme(): each array sorted on its own. */
void scopepredict_pulses_sort(struct scopepredict_pulses *p);
void scopepredict_pulses_free(struct scopepredict_pulses *p);

enum scopepredict_status {
	SCOPEPREDICT_OK = 0,
	SCOPEPREDICT_NO_PULSES,     /* the run has no pulse of this polarity */
	SCOPEPREDICT_NO_COUNT,      /* the scope measured nothing (N = 0) */
	SCOPEPREDICT_TOO_MANY,      /* N > M: the scope counted pulses the run did not make */
};

struct scopepredict {
	enum scopepredict_status status;
	uint64_t m, n;              /* the run's pulses, the scope's count */
	double coverage;            /* n / m */
	double expected_ns;         /* mean of the sample's extreme, from the estimates */
	/* The interval holding the extreme the scope shows with probability
	 * level at least: its lower end from the pulses' lower bounds, its
	 * upper end from their upper bounds (the true width of each pulse
	 * lies between them), so the write windows widen it. */
	int64_t lo_ns, hi_ns;
	double p_extreme;           /* chance the sample held the run's extreme estimate */
	double level;               /* the interval's coverage, as asked */
};

/*
 * The law of the extreme (@max: the largest, else the smallest) of @n
 * pulses drawn without replacement from @p's (sorted) pulses: for the
 * largest, P(extreme <= w_(k)) = C(k, n) / C(M, n), computed as a product
 * of ratios in logs (stable for M in the millions; time O(M) at worst).
 * @level: the interval's coverage (0.90). A status other than OK leaves
 * the figures 0.
 */
void scopepredict_extreme(const struct scopepredict_pulses *p, uint64_t n, bool max, double level,
			  struct scopepredict *out);

/* The same law on one sorted array @a of @m values: mean, and the ends
 * [*lo, *hi] (each tail at most (1 - level) / 2), for the unit tests. */
void scopepredict_law(const int64_t *a, size_t m, uint64_t n, bool max, double level, double *mean,
		      int64_t *lo, int64_t *hi);

#endif
