/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Analog captures: find a trace's two levels from a streamed subset and its
 * extremes, and turn samples into edges with a threshold and hysteresis. */
#include "capture/capture_levels.h"

#include "capture/capture.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int capture_levelscan_init(struct capture_levelscan *ls, size_t cap)
{
	memset(ls, 0, sizeof(*ls));
	if (cap < 16)
		cap = 16;
	ls->v = malloc(cap * sizeof(*ls->v));
	if (!ls->v) {
		errno = ENOMEM;
		return -1;
	}
	ls->cap = cap;
	ls->stride = 1;
	ls->min = INFINITY;
	ls->max = -INFINITY;
	ls->only_bits = 1;
	return 0;
}

void capture_levelscan_free(struct capture_levelscan *ls)
{
	free(ls->v);
	ls->v = NULL;
	ls->n = ls->cap = 0;
}

void capture_levelscan_add(struct capture_levelscan *ls, double v)
{
	/* missing or clipped (nan, +-inf: a .sr float, a scope's overflow) */
	if (!isfinite(v))
		return;
	if (v < ls->min)
		ls->min = v;
	if (v > ls->max)
		ls->max = v;
	if (v != 0 && v != 1)
		ls->only_bits = 0;
	if (ls->seen++ % ls->stride)
		return;
	if (ls->n == ls->cap) {
		/* full: keep every other value, take every other from now on */
		size_t k;

		for (k = 0; 2 * k < ls->n; k++)
			ls->v[k] = ls->v[2 * k];
		ls->n = k;
		ls->stride *= 2;
		if ((ls->seen - 1) % ls->stride)
			return;
	}
	ls->v[ls->n++] = v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static size_t lower_bound(const double *v, size_t n, double x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (v[m] < x)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* Median absolute deviation of sorted v[a..b) around @c, scaled to a
 * standard deviation (1.4826: Gaussian). Uses @tmp (b - a doubles). */
static double robust_sigma(const double *v, size_t a, size_t b, double c, double *tmp)
{
	size_t n = b - a;

	if (!n || !tmp)
		return 0;
	for (size_t i = a; i < b; i++)
		tmp[i - a] = fabs(v[i] - c);
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return 1.4826 * tmp[n / 2];
}

/* The finest step between neighbouring distinct values inside the middle
 * half of sorted v[a..b): the ADC step, for quantized traces. */
static double adc_step(const double *v, size_t a, size_t b)
{
	double lsb = INFINITY;
	size_t qa = a + (b - a) / 4, qb = a + (b - a) * 3 / 4;

	for (size_t i = qa + 1; i <= qb && i < b; i++) {
		double d = v[i] - v[i - 1];

		if (d > 0 && d < lsb)
			lsb = d;
	}
	return lsb;
}

/* The balanced case: two clusters split at the midpoint of their medians. */
static int levels_clusters(const double *v, size_t n, double *tmp, struct capture_levels *lv)
{
	double p1 = v[n / 100], p99 = v[n - 1 - n / 100], mid, sig, s2, lsb, l2;
	size_t k = 0, min_n = n / 2000 + 1;

	if (!(p99 > p1))
		return 0;
	mid = (p1 + p99) / 2;
	for (int it = 0; it < 8; it++) {
		double nm;

		k = lower_bound(v, n, mid);
		if (k == 0 || k == n)
			return 0;
		lv->low = v[k / 2];
		lv->high = v[k + (n - k) / 2];
		nm = (lv->low + lv->high) / 2;
		if (nm == mid)
			break;
		mid = nm;
	}
	/* spread of each cluster: median absolute deviation (robust to the
	 * samples on the edges themselves) */
	sig = robust_sigma(v, 0, k, lv->low, tmp);
	s2 = robust_sigma(v, k, n, lv->high, tmp);
	if (s2 > sig)
		sig = s2;
	/* quantized noise has no spread to speak of: also ask for a separation
	 * of several ADC steps */
	lsb = adc_step(v, 0, k);
	l2 = adc_step(v, k, n);
	if (l2 < lsb)
		lsb = l2;
	return lv->high > lv->low && k >= min_n && n - k >= min_n && lv->high - lv->low > 4 * sig &&
	       (isinf(lsb) || lv->high - lv->low >= 4 * lsb);
}

void capture_levels_from_scan(struct capture_levelscan *ls, struct capture_levels *lv)
{
	double *v = ls->v, *tmp, m, sig, lsb, up, dn, ext, mid;
	size_t n = ls->n, k;

	memset(lv, 0, sizeof(*lv));
	if (!n)
		return;
	if (ls->only_bits) {
		/* 0/1 data is already logic: no clustering, a single sample of
		 * the other level is an edge */
		lv->digital = 1;
		lv->low = 0;
		lv->high = 1;
		lv->bimodal = ls->min == 0 && ls->max == 1;
		return;
	}
	qsort(v, n, sizeof(*v), cmp_double);
	lv->low = lv->high = v[n / 2];
	tmp = malloc(n * sizeof(*tmp));
	if (levels_clusters(v, n, tmp, lv)) {
		lv->bimodal = 1;
		free(tmp);
		return;
	}
	/* One level dominates the subset. The other may still be there, too rare
	 * for the percentiles (a single pulse in a long record): look at the
	 * extremes of the whole trace against the majority level's noise. */
	m = v[n / 2];
	lv->low = lv->high = m;
	sig = robust_sigma(v, 0, n, m, tmp);
	lsb = adc_step(v, 0, n);
	free(tmp);
	up = ls->max - m;
	dn = m - ls->min;
	ext = up >= dn ? up : dn;
	if (!(ext > 10 * sig) || !(ext > 0) || (!isinf(lsb) && ext < 4 * lsb))
		return;
	mid = up >= dn ? m + ext / 2 : m - ext / 2;
	k = lower_bound(v, n, mid);
	if (up >= dn) {
		/* the rare level is above: v[k..n) */
		lv->low = v[k / 2];
		lv->high = n - k >= 3 ? v[k + (n - k) / 2] : ls->max;
	} else {
		lv->high = v[k + (n - k) / 2];
		lv->low = k >= 3 ? v[k / 2] : ls->min;
	}
	lv->bimodal = lv->high > lv->low;
	lv->rare = lv->bimodal;
}

void capture_analog_init(struct capture_analog *a, double thr, double hyst, int digital)
{
	memset(a, 0, sizeof(*a));
	a->thr = thr;
	a->lo = thr - hyst / 2;
	a->hi = thr + hyst / 2;
	a->digital = digital;
	a->state = -1;
}

int capture_analog_feed(struct capture_analog *a, int64_t i, double v, double *x, int *level)
{
	if (!isfinite(v)) {
		a->have_prev = 0;
		return 0;
	}
	if (a->state < 0) {
		a->state = v >= a->thr;
		a->prev_v = v;
		a->have_prev = 1;
		a->cross_x = (double)i;
		return 0;
	}
	if (a->state == 0) {
		if (v >= a->thr && (!a->have_prev || a->prev_v < a->thr))
			a->cross_x = a->have_prev && !a->digital
				     ? (double)(i - 1) + (a->thr - a->prev_v) / (v - a->prev_v)
				     : (double)i;
		a->prev_v = v;
		a->have_prev = 1;
		if (v > a->hi || (a->digital && v >= a->thr)) {
			a->state = 1;
			*x = a->cross_x;
			*level = 1;
			return 1;
		}
	} else {
		if (v < a->thr && (!a->have_prev || a->prev_v >= a->thr))
			a->cross_x = a->have_prev && !a->digital
				     ? (double)(i - 1) + (a->prev_v - a->thr) / (a->prev_v - v)
				     : (double)i;
		a->prev_v = v;
		a->have_prev = 1;
		if (v < a->lo || (a->digital && v < a->thr)) {
			a->state = 0;
			*x = a->cross_x;
			*level = 0;
			return 1;
		}
	}
	return 0;
}

void capture_logic_reset(struct capture_logic *g)
{
	g->level = -1;
	g->seen_known = 0;
	g->gap = 0;
}

enum capture_logic_step capture_logic_step(struct capture_logic *g, int lv, uint8_t *flags)
{
	if (lv < 0) {
		if (g->seen_known)
			g->gap = 1;
		g->level = -1;
		return CAPTURE_LOGIC_NONE;
	}
	if (!g->seen_known) {
		g->seen_known = 1;
		g->level = lv;
		return CAPTURE_LOGIC_FIRST;
	}
	if (g->level < 0) {
		/* back from unknown: the level is known again, but when it
		 * changed is not */
		g->level = lv;
		g->gap = 1;
		return CAPTURE_LOGIC_NONE;
	}
	if (lv == g->level)
		return CAPTURE_LOGIC_NONE;
	g->level = lv;
	*flags = g->gap ? CAPTURE_EDGE_F_AFTER_GAP : 0;
	g->gap = 0;
	return CAPTURE_LOGIC_EDGE;
}

int capture_logic_field(const char *p, size_t len)
{
	if (len == 1 && (p[0] == '0' || p[0] == '1'))
		return p[0] - '0';
	if (len == 1 && (p[0] == 'X' || p[0] == 'x'))
		return -1;
	return -2;
}
