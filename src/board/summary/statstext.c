/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The distribution table of the text summaries: its head and its rows,
 * column for column the same wherever a run's figures are printed. */
#include "summary/statstext.h"

#include "base/units.h"

void statstext_dist_head(FILE *f, const char *unit)
{
	size_t i;

	fprintf(f, "\n  %-16s %10s %10s %10s %9s", unit, "min", "avg", "max", "stddev");
	for (i = 2; i < STATS_NPCT; i++)
		fprintf(f, " %10s", stats_pct_name[i]);
	fprintf(f, "\n");
}

void statstext_dist_row(FILE *f, const char *name, const struct stats_hist *h)
{
	size_t i;

	fprintf(f, "  %-16s", name);
	if (!h->m.n) {
		fprintf(f, " (none)\n");
		return;
	}
	fprintf(f, " %10s %10s %10s %9s", UNITS_US(h->m.min), UNITS_USD(stats_moments_mean(&h->m)),
		UNITS_US(h->m.max), UNITS_USD(stats_moments_stddev(&h->m)));
	for (i = 2; i < STATS_NPCT; i++) {
		int64_t err, v = stats_hist_percentile_err(h, stats_pct[i], &err);

		fprintf(f, " %10s", UNITS_US_ERR(v, err));
	}
	fprintf(f, "\n");
}
