/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The extreme of a sample of N of M pulses without replacement: its mean,
 * an interval and the chance it is the run's own extreme. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/scopepredict.h"

void scopepredict_pulses_init(struct scopepredict_pulses *p)
{
	memset(p, 0, sizeof(*p));
}

int scopepredict_pulses_add(struct scopepredict_pulses *p, int64_t est, int64_t lo, int64_t hi)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 4096;
		int64_t *a[3] = { p->est, p->lo, p->hi };
		int i;

		for (i = 0; i < 3; i++) {
			int64_t *r = realloc(a[i], cap * sizeof(*r));

			if (!r)
				return -1;
			a[i] = r;
			if (i == 0)
				p->est = r;
			else if (i == 1)
				p->lo = r;
			else
				p->hi = r;
		}
		p->cap = cap;
	}
	p->est[p->n] = est;
	p->lo[p->n] = lo;
	p->hi[p->n] = hi;
	p->n++;
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

void scopepredict_pulses_sort(struct scopepredict_pulses *p)
{
	if (!p->n)
		return;
	qsort(p->est, p->n, sizeof(int64_t), cmp_i64);
	qsort(p->lo, p->n, sizeof(int64_t), cmp_i64);
	qsort(p->hi, p->n, sizeof(int64_t), cmp_i64);
}

void scopepredict_pulses_free(struct scopepredict_pulses *p)
{
	free(p->est);
	free(p->lo);
	free(p->hi);
	scopepredict_pulses_init(p);
}

/* The i-th smallest (0-based) of the values whose sample maximum we want:
 * @a itself for the largest; for the smallest, the negated values (the
 * smallest of a sample is minus the largest of the negated sample). */
static inline int64_t val(const int64_t *a, size_t m, size_t i, bool max)
{
	return max ? a[i] : -a[m - 1 - i];
}

/*
 * X, the largest of n drawn from m sorted values v_1 <= ... <= v_m:
 * F(k) = P(X <= v_k) = C(k, n) / C(m, n), 0 for k < n. From the top,
 * F(m) = 1 and F(k - 1) = F(k) (k - n) / k: a product of ratios each in
 * (0, 1], kept as a sum of logs, so nothing overflows or loses the small
 * tail for m in the millions. The walk stops where F is below what a
 * double holds: the rest weighs nothing.
 */
void scopepredict_law(const int64_t *a, size_t m, uint64_t n, bool max, double level, double *mean,
		      int64_t *lo, int64_t *hi)
{
	double tail = (1 - level) / 2, lf = 0, f = 1, sum = 0;
	size_t k, klo = m, khi = m;

	for (k = m; k >= 1; k--) {
		double fprev;

		/* F(k) = f; F(k - 1): */
		if (k <= n) {
			fprev = 0;
		} else {
			lf += log1p(-(double)n / (double)k);
			fprev = exp(lf);
		}
		sum += (double)val(a, m, k - 1, max) * (f - fprev);
		/* F is a product of rounded ratios: a relative 1e-9 keeps an F
		 * that is exactly the tail (C(3,3)/C(6,3) = 1/20) on the side
		 * the exact law puts it */
		if (f > tail * (1 + 1e-9))
			klo = k;           /* the smallest k with F(k) > tail, so far */
		if (f >= (1 - tail) * (1 - 1e-9))
			khi = k;           /* the smallest k with F(k) >= 1 - tail */
		if (fprev == 0)
			break;
		f = fprev;
	}
	if (mean)
		*mean = max ? sum : -sum;
	/* P(X < v_klo) = F(klo - 1) <= tail; P(X > v_khi) = 1 - F(khi) <= tail */
	if (lo)
		*lo = max ? val(a, m, klo - 1, max) : -val(a, m, khi - 1, max);
	if (hi)
		*hi = max ? val(a, m, khi - 1, max) : -val(a, m, klo - 1, max);
}

/* The chance a sample of n holds a value equal to the extreme of @a: one
 * minus the chance all n come from the k0 values short of it. */
static double p_extreme(const int64_t *a, size_t m, uint64_t n, bool max)
{
	int64_t ext = max ? a[m - 1] : a[0];
	size_t k0 = 0, i;
	double lp = 0;

	for (i = 0; i < m; i++)
		if (a[i] != ext)
			k0++;
	if (k0 < n)
		return 1;
	/* C(k0, n) / C(m, n) = prod_{j=0}^{n-1} (k0 - j) / (m - j) */
	for (i = 0; i < n; i++) {
		lp += log((double)(k0 - i) / (double)(m - i));
		if (lp < -745)
			return 1;
	}
	return 1 - exp(lp);
}

void scopepredict_extreme(const struct scopepredict_pulses *p, uint64_t n, bool max, double level,
			  struct scopepredict *out)
{
	int64_t unused;

	memset(out, 0, sizeof(*out));
	out->m = p->n;
	out->n = n;
	if (!p->n) {
		out->status = SCOPEPREDICT_NO_PULSES;
		return;
	}
	if (!n) {
		out->status = SCOPEPREDICT_NO_COUNT;
		return;
	}
	if (n > p->n) {
		out->status = SCOPEPREDICT_TOO_MANY;
		return;
	}
	out->coverage = (double)n / (double)p->n;
	out->level = level;
	scopepredict_law(p->est, p->n, n, max, level, &out->expected_ns, NULL, NULL);
	/* the true width lies in [lo, hi] of its pulse: the extreme of the
	 * true widths lies between the extremes of the bounds */
	scopepredict_law(p->lo, p->n, n, max, level, NULL, &out->lo_ns, &unused);
	scopepredict_law(p->hi, p->n, n, max, level, NULL, &unused, &out->hi_ns);
	out->p_extreme = p_extreme(p->est, p->n, n, max);
}
