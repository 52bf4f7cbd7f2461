/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The persistence view: every period of the wave overlaid on its rising edge,
 * as a scope's infinite-persistence screen shows it, in bounded memory. */
#ifndef SQW_PERSIST_H
#define SQW_PERSIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A window is one period and a quarter on either side: from half a half
 * period before a rising edge's reference time to half a half period after
 * the next one (3 half periods, PERSIST_BINS bins). The reference is the
 * rising edge itself, where the line changed (what a scope triggered on the
 * pin's rising edge shows: the rise is sharp, the fall spreads by the pulse
 * widths), or, with @intended_ref, the edge's intended time (the grid a log
 * was meant to follow: latency shows as the spread of the rise itself). For every complete window the view counts, per bin,
 * whether the line was high, low, or changed there: a 2-D density of (time
 * since the reference, level) with two levels and the transitions between
 * them. The line changes where the source says the edge was (write-window
 * midpoint for a log, the capture's edge time).
 *
 * Memory is fixed at persist_new(): the counters and a short history of
 * changes. A window whose data has a gap (a seq gap, a capture's unknown
 * data) or more changes than the history holds (glitches) is not counted
 * but tallied as skipped. One thread; feed changes in time order.
 */
#define PERSIST_BINS 480
#define PERSIST_HISTORY 64      /* changes remembered: more than any sane window holds */
#define PERSIST_ESTIMATE 33     /* changes looked at to find an unknown half period */

struct persist;

struct persist_view {
	int64_t half_ns;          /* the half period the windows use (0: none found) */
	int64_t x0_ns;            /* bin 0 starts here, from the reference (-half/2) */
	int64_t span_ns;          /* the bins cover [x0, x0 + span): 3 half periods */
	size_t nbins;             /* PERSIST_BINS (0: no view) */
	uint64_t windows;         /* complete windows counted */
	uint64_t skipped;         /* windows not counted (gaps, glitches) */
	const uint64_t *high, *low; /* per bin: windows where the line was 1 / 0 there */
	const uint64_t *edges;    /* per bin: changes of the line there */
	bool intended_ref;        /* windows start at intended times (else at the rise) */
};

/* @half_ns: the source's half period (0: found from the first changes);
 * @intended_ref: windows start at the rising edges' intended times. NULL
 * with errno. Free with persist_free(). */
struct persist *persist_new(int64_t half_ns, bool intended_ref);
void persist_free(struct persist *p);

/* The line changed to @level at @t_ns (the edge's intended time
 * @intended_ns); @counted: outside the warm-up (a window opens only on a
 * counted rising edge); @gap: data is missing before this change. */
void persist_add(struct persist *p, int64_t t_ns, int64_t intended_ns, int level, bool counted,
		 bool gap);
/* After the last change: counts what can be, and fills the view. */
void persist_finish(struct persist *p);
/* Valid after persist_finish(), until persist_free(). */
const struct persist_view *persist_view(const struct persist *p);

#endif
