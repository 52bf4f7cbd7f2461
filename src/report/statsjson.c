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

struct binner {
	int64_t lo, bin, min, max;
	size_t n;
	uint64_t *counts;
};

/* A bucket of the histogram is up to 0.01 % wide: the one holding the
 * minimum (or the maximum) can have its middle outside [min, max], and so
 * outside the bins. Its values are within, so its middle is taken as the
 * nearest of min and max: every value lands in a bin. */
static void bin_bucket(void *ctx, int64_t lo, int64_t hi, uint64_t count)
{
	struct binner *b = ctx;
	int64_t mid = lo + (hi - lo) / 2, k;

	mid = mid < b->min ? b->min : mid > b->max ? b->max : mid;
	k = (mid - b->lo) / b->bin;
	if (k >= 0 && (size_t)k < b->n)
		b->counts[k] += count;
}

/* "histogram": the distribution in at most HIST_BINS_MAX bins of 1, 2 or 5
 * x 10^k us from the minimum to the maximum, each bucket in the bin of its
 * middle (what a scope's histogram shows; sqwave report overlays them). */
static void statsjson_histogram(struct json_writer *w, const struct stats_hist *h)
{
	static const int64_t steps[] = { 1, 2, 5 };
	struct binner b = { 0 };
	int64_t span, unit = 1000;
	size_t i;

	if (!h->m.n)
		return;
	span = h->m.max - h->m.min;
	for (i = 0;; i++) {
		b.bin = steps[i % 3] * unit;
		if (span / b.bin < HIST_BINS_MAX)
			break;
		if (i % 3 == 2) {
			if (unit > INT64_MAX / 100)
				break;
			unit *= 10;
		}
	}
	b.min = h->m.min;
	b.max = h->m.max;
	b.lo = h->m.min - ((h->m.min % b.bin) + b.bin) % b.bin;
	b.n = (size_t)((h->m.max - b.lo) / b.bin + 1);
	b.counts = calloc(b.n, sizeof(*b.counts));
	if (!b.counts)
		return;
	stats_hist_walk(h, bin_bucket, &b);
	json_kv_object_begin(w, "histogram");
	json_kv_int(w, "lo_ns", b.lo);
	json_kv_int(w, "bin_ns", b.bin);
	json_kv_uint(w, "below", h->ovf_low);
	json_kv_uint(w, "above", h->ovf_high);
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
