/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON for statistics: one way to write a distribution, a pulse and a set of
 * pulse widths, shared by the run summary, analyze and compare. */
#ifndef SQW_STATSJSON_H
#define SQW_STATSJSON_H

#include <stdbool.h>

#include "stats/edgestats.h"
#include "base/json.h"
#include "base/stats.h"

/* @ns rounded to a whole ns; null when NaN (no samples). */
void statsjson_ns(struct json_writer *w, const char *key, double ns);

/* The members of a distribution, into the current object: count, min_ns,
 * max_ns, mean_ns, stddev_ns, percentiles_ns {p0.01 ...},
 * percentiles_error_ns {p0.01 ...} (how far each can be from the exact order
 * statistic: 0 = exact), overflow. */
void statsjson_dist(struct json_writer *w, const struct stats_hist *h);

/* {"seq", "intended_ns"} */
void statsjson_where(struct json_writer *w, const char *key, const struct edgestats_where *at);

/* {"width_ns", "lo_ns", "hi_ns", "seq", "intended_ns"}, or null when !valid. */
void statsjson_pulse(struct json_writer *w, const char *key, const struct edgestats_pulse *p,
		     bool valid);

/* {distribution members, tmin, tmax, tmin_bound, tmax_bound} */
void statsjson_widths(struct json_writer *w, const char *key, const struct edgestats_widths *wd);

/* {distribution members, worst: {seq, intended_ns} or null} */
void statsjson_dist_worst(struct json_writer *w, const char *key, const struct stats_hist *h,
			  const struct edgestats_where *worst);

/* The result's "pulse_width" {positive, negative, any} and "period"
 * {count, min_ns, max_ns, min_at, max_at, mean_ns, stddev_ns} members. */
void statsjson_pulses_and_period(struct json_writer *w, const struct edgestats_result *r);

/* "placement_error": {distribution members, worst} (write-window midpoint
 * minus intended) and "spin": {edges, late, spin_ns, fraction}. */
void statsjson_placement_and_spin(struct json_writer *w, const struct edgestats_result *r);

#endif
