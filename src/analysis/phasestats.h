/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Edge statistics per phase of a run: each edge counts in the phase its
 * intended time falls in. Used by the recorder (run) and by analyze (log).
 * A pulse that straddles a boundary counts in the run's overall figures
 * only; a phase's first edge counts its sequence gap and missed periods
 * from the record before it, so the phases add up to the run's counts. Not
 * thread-safe: one feeding thread. */
#ifndef SQW_PHASESTATS_H
#define SQW_PHASESTATS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/edgestats.h"

struct phasestats;

/* Phase i covers intended times [starts[i], starts[i + 1]) and the last one
 * [starts[n - 1], end_ns) (end_ns 0: open-ended). NULL with errno.
 * Caller frees with phasestats_free(). */
struct phasestats *phasestats_new(int64_t half_period_ns, size_t n, const uint64_t *starts,
				  uint64_t end_ns);
/* Before the first record: what the pin should do, for every phase's
 * statistics (edgestats_set_pin()). */
void phasestats_set_pin(struct phasestats *ps, const struct pin *p);
void phasestats_free(struct phasestats *ps);

/* Feed one record (in sequence order); edges outside every phase (the
 * warm-up) are ignored here. */
void phasestats_add(struct phasestats *ps, const struct edge_rec *e);

/* How long phase @i ran: from its start to the end of the last slot fed
 * (warm-up and every phase's records count), at most @planned_ns (0: open)
 * and 0 if it was not reached. A run stopped early (SIGINT) shows here
 * what ran, not what the plan said. */
int64_t phasestats_ran_ns(const struct phasestats *ps, size_t i, int64_t planned_ns);

size_t phasestats_count(const struct phasestats *ps);
/* The statistics of phase @i (feeding must have stopped to read results). */
struct edgestats *phasestats_phase(const struct phasestats *ps, size_t i);
/* The phase of intended time @t_ns, or -1. */
int phasestats_index(const struct phasestats *ps, uint64_t t_ns);

#endif
