/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON for statistics (see statsjson.h); the schemas that use it are in
 * docs/json-summary.md, docs/analyze.md and docs/compare.md. */
#include "report/statsjson.h"

#include <stdlib.h>
#include <string.h>

#include <math.h>
#include <stddef.h>

void statsjson_ns(struct json_writer *w, const char *key, double ns)
{
	if (isnan(ns))
		json_kv_null(w, key);
	else
		json_kv_int(w, key, (int64_t)llround(ns));
}

void statsjson_dist(struct json_writer *w, const struct stats_hist *h)
{
	size_t i;

	json_kv_uint(w, "count", h->m.n);
	if (h->m.n) {
		json_kv_int(w, "min_ns", h->m.min);
		json_kv_int(w, "max_ns", h->m.max);
	} else {
		json_kv_null(w, "min_ns");
		json_kv_null(w, "max_ns");
	}
	statsjson_ns(w, "mean_ns", stats_moments_mean(&h->m));
	statsjson_ns(w, "stddev_ns", stats_moments_stddev(&h->m));
	json_kv_object_begin(w, "percentiles_ns");
	for (i = 0; i < STATS_NPCT; i++) {
		if (h->m.n)
			json_kv_int(w, stats_pct_name[i], stats_hist_percentile(h, stats_pct[i]));
		else
			json_kv_null(w, stats_pct_name[i]);
	}
	json_object_end(w);
	json_kv_object_begin(w, "percentiles_error_ns");
	for (i = 0; i < STATS_NPCT; i++) {
		int64_t err;

		if (h->m.n) {
			stats_hist_percentile_err(h, stats_pct[i], &err);
			json_kv_int(w, stats_pct_name[i], err);
		} else {
			json_kv_null(w, stats_pct_name[i]);
		}
	}
	json_object_end(w);
	json_kv_uint(w, "overflow", h->overflow);
}

void statsjson_where(struct json_writer *w, const char *key, const struct edgestats_where *at)
{
	json_kv_object_begin(w, key);
	json_kv_uint(w, "seq", at->seq);
	json_kv_uint(w, "intended_ns", at->intended_ns);
	json_object_end(w);
}

void statsjson_pulse(struct json_writer *w, const char *key, const struct edgestats_pulse *p,
		     bool valid)
{
	if (!valid) {
		json_kv_null(w, key);
		return;
	}
	json_kv_object_begin(w, key);
	json_kv_int(w, "width_ns", p->width_ns);
	json_kv_int(w, "lo_ns", p->lo_ns);
	json_kv_int(w, "hi_ns", p->hi_ns);
	json_kv_uint(w, "seq", p->at.seq);
	json_kv_uint(w, "intended_ns", p->at.intended_ns);
	json_object_end(w);
}

#define HIST_BINS_MAX 4000
#define HIST_BULK_BINS 20       /* bins across the bulk (p0.5..p99.5), at least */
#define HIST_BULK_MARGIN 4      /* the range: the bulk and 4 of its widths either side
				 * (at least half the median) */

struct binner {
	int64_t lo, bin, min, max;
	int64_t rlo, rhi;       /* the values binned; the rest is shorter or longer */
	size_t n;
	uint64_t *counts;
	uint64_t shorter, longer;
};

/* A bucket of the histogram is up to 0.01 % wide: the one holding the
 * minimum (or the maximum) can have its middle outside [min, max], and so
 * outside the bins. Its values are within, so its middle is taken as the
 * nearest of min and max: every value lands in a bin, or (a range cut
 * short of the extremes) in shorter or longer. */
static void bin_bucket(void *ctx, int64_t lo, int64_t hi, uint64_t count)
{
	struct binner *b = ctx;
	int64_t mid = lo + (hi - lo) / 2, k;

	mid = mid < b->min ? b->min : mid > b->max ? b->max : mid;
	if (mid < b->rlo) {
		b->shorter += count;
		return;
	}
	if (mid > b->rhi) {
		b->longer += count;
		return;
	}
	k = (mid - b->lo) / b->bin;
	if (k >= 0 && (size_t)k < b->n)
		b->counts[k] += count;
}

/* The smallest bin of 1, 2 or 5 x 10^k us that spans @span in fewer than
 * HIST_BINS_MAX bins. */
static int64_t hist_bin(int64_t span)
{
	static const int64_t steps[] = { 1, 2, 5 };
	int64_t unit = 1000, bin;
	size_t i;

	for (i = 0;; i++) {
		bin = steps[i % 3] * unit;
		if (span / bin < HIST_BINS_MAX)
			return bin;
		if (i % 3 == 2) {
			if (unit > INT64_MAX / 100)
				return bin;
			unit *= 10;
		}
	}
}

/*
 * "histogram": the distribution in at most HIST_BINS_MAX bins of 1, 2 or 5
 * x 10^k us, each bucket in the bin of its middle (what a scope's histogram
 * shows; sqwave report overlays them). The bins run from the minimum to the
 * maximum when that takes bins of 1 us, or leaves HIST_BULK_BINS or more
 * across the bulk (p0.5 to p99.5); else (a 2 s stall beside 500 us pulses:
 * bins of 1 ms would hold the whole bulk in one) they cover the bulk and
 * HIST_BULK_MARGIN of its widths (at least half the median) either side,
 * and the pulses beyond are counted in "shorter" and "longer", as a scope's
 * histogram counts what is off its screen.
 */
static void statsjson_histogram(struct json_writer *w, const struct stats_hist *h)
{
	struct binner b = { 0 };
	int64_t p_lo, p_hi, bulk, margin;
	size_t i;

	if (!h->m.n)
		return;
	b.min = b.rlo = h->m.min;
	b.max = b.rhi = h->m.max;
	b.bin = hist_bin(h->m.max - h->m.min);
	p_lo = stats_hist_percentile(h, 0.5);
	p_hi = stats_hist_percentile(h, 99.5);
	bulk = p_hi - p_lo;
	if (b.bin > 1000 && b.bin > bulk / HIST_BULK_BINS) {
		margin = HIST_BULK_MARGIN * bulk;
		if (margin < stats_hist_percentile(h, 50) / 2)
			margin = stats_hist_percentile(h, 50) / 2;
		if (p_lo - margin > b.rlo)
			b.rlo = p_lo - margin;
		if (p_hi + margin < b.rhi)
			b.rhi = p_hi + margin;
		b.bin = hist_bin(b.rhi - b.rlo);
	}
	b.lo = b.rlo - ((b.rlo % b.bin) + b.bin) % b.bin;
	b.n = (size_t)((b.rhi - b.lo) / b.bin + 1);
	b.counts = calloc(b.n, sizeof(*b.counts));
	if (!b.counts)
		return;
	stats_hist_walk(h, bin_bucket, &b);
	json_kv_object_begin(w, "histogram");
	json_kv_int(w, "lo_ns", b.lo);
	json_kv_int(w, "bin_ns", b.bin);
	json_kv_uint(w, "below", h->ovf_low);
	json_kv_uint(w, "above", h->ovf_high);
	json_kv_uint(w, "shorter", b.shorter);
	json_kv_uint(w, "longer", b.longer);
	json_kv_array_begin(w, "counts");
	for (i = 0; i < b.n; i++)
		json_uint(w, b.counts[i]);
	json_array_end(w);
	json_object_end(w);
	free(b.counts);
}

void statsjson_widths(struct json_writer *w, const char *key, const struct edgestats_widths *wd)
{
	bool any = wd->h.m.n > 0;

	json_kv_object_begin(w, key);
	statsjson_dist(w, &wd->h);
	statsjson_pulse(w, "tmin", &wd->tmin, any);
	statsjson_pulse(w, "tmax", &wd->tmax, any);
	statsjson_pulse(w, "tmin_bound", &wd->tmin_bound, any);
	statsjson_pulse(w, "tmax_bound", &wd->tmax_bound, any);
	if (!strcmp(key, "any"))
		statsjson_histogram(w, &wd->h);
	json_object_end(w);
}

void statsjson_dist_worst(struct json_writer *w, const char *key, const struct stats_hist *h,
			  const struct edgestats_where *worst)
{
	json_kv_object_begin(w, key);
	statsjson_dist(w, h);
	if (h->m.n)
		statsjson_where(w, "worst", worst);
	else
		json_kv_null(w, "worst");
	json_object_end(w);
}

void statsjson_pulses_and_period(struct json_writer *w, const struct edgestats_result *r)
{
	json_kv_object_begin(w, "pulse_width");
	statsjson_widths(w, "positive", &r->width[EDGESTATS_POS]);
	statsjson_widths(w, "negative", &r->width[EDGESTATS_NEG]);
	statsjson_widths(w, "any", &r->width[EDGESTATS_ANY]);
	/* a duty cycle: what each polarity should be (a 50 % wave's is the
	 * half period, in "run"; a respond run's, where it has one, is in
	 * "pin") */
	if (r->nominal_ns[EDGESTATS_POS] > 0 && r->nominal_ns[EDGESTATS_NEG] > 0 &&
	    r->nominal_ns[EDGESTATS_POS] != r->nominal_ns[EDGESTATS_NEG]) {
		json_kv_object_begin(w, "nominal_ns");
		json_kv_int(w, "positive", r->nominal_ns[EDGESTATS_POS]);
		json_kv_int(w, "negative", r->nominal_ns[EDGESTATS_NEG]);
		json_object_end(w);
	}
	json_object_end(w);

	json_kv_object_begin(w, "period");
	json_kv_uint(w, "count", r->period_m.n);
	if (r->period_m.n) {
		json_kv_int(w, "min_ns", r->period_m.min);
		json_kv_int(w, "max_ns", r->period_m.max);
		statsjson_where(w, "min_at", &r->period_min_at);
		statsjson_where(w, "max_at", &r->period_max_at);
	} else {
		json_kv_null(w, "min_ns");
		json_kv_null(w, "max_ns");
		json_kv_null(w, "min_at");
		json_kv_null(w, "max_at");
	}
	statsjson_ns(w, "mean_ns", stats_moments_mean(&r->period_m));
	statsjson_ns(w, "stddev_ns", stats_moments_stddev(&r->period_m));
	json_object_end(w);
}

void statsjson_placement_and_spin(struct json_writer *w, const struct edgestats_result *r)
{
	double frac = edgestats_spin_fraction(r);

	statsjson_dist_worst(w, "placement_error", &r->place, &r->place_worst);
	json_kv_object_begin(w, "spin");
	json_kv_uint(w, "edges", r->spin_edges);
	json_kv_uint(w, "late", r->late_edges);
	json_kv_int(w, "spin_ns", r->spin_ns);
	if (isnan(frac))
		json_kv_null(w, "fraction");
	else
		json_kv_double(w, "fraction", frac);
	json_object_end(w);
}
