/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Streaming statistics over edge records: wake latency, write cost, pulse
 * widths (what the scope should see), missed periods. Constant memory. Used
 * by `run` (fed from the ring by the writer thread) and by `analyze` (fed
 * from the log reader). Not thread-safe: one feeding thread; others read
 * only through edgestats_live() under the caller's lock. */
#ifndef SQW_EDGESTATS_H
#define SQW_EDGESTATS_H

#include <stdint.h>

#include "edge.h"
#include "stats.h"

struct edgestats;

/* All memory allocated and zeroed here. NULL with errno on failure.
 * Caller frees with edgestats_free(). */
struct edgestats *edgestats_new(int64_t half_period_ns);
void edgestats_free(struct edgestats *s);

/* Feed one record, in sequence order. Records flagged EDGE_F_WARMUP are
 * tracked (a pulse needs both ends) but not counted in statistics. */
void edgestats_add(struct edgestats *s, const struct edge_rec *e);

/* A small copy for the once-a-second status line. */
struct edgestats_live {
	uint64_t edges;            /* counted (non-warm-up) edges */
	uint64_t missed_periods;
	uint64_t seq_gaps;         /* records missing from the sequence (dropped) */
	int64_t wake_min_ns, wake_max_ns;
	double wake_avg_ns;
	int64_t width_min_ns, width_max_ns; /* any polarity; 0 if no pulse yet */
};
void edgestats_live(const struct edgestats *s, struct edgestats_live *out);

#endif
