/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text for statistics: the table of distributions (min, avg, max, stddev,
 * percentiles, in us), one head and one row format for the run summary, a
 * respond run's and the loopback section, as statsjson is for their JSON. */
#ifndef SQW_STATSTEXT_H
#define SQW_STATSTEXT_H

#include <stdio.h>

#include "base/stats.h"

/* The table's head into @f, after an empty line: @unit ("us", "us from
 * event") over the row names, then min, avg, max, stddev and the
 * percentiles from p50 up, each column as wide as statstext_dist_row's. */
void statstext_dist_head(FILE *f, const char *unit);

/* One row: @name, then @h's min, avg, max and stddev and its percentiles
 * from p50 up (each to the decimals its error bound allows: units_us_err);
 * "(none)" without samples. */
void statstext_dist_row(FILE *f, const char *name, const struct stats_hist *h);

#endif
