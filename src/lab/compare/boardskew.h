/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two boards on one grid, one capture of both pins: the skew between their
 * edges per grid instant, the bounds both logs allow, what is left for the
 * boards' clocks, and the verdict (docs/compare.md, "Two boards"). */
#ifndef SQW_BOARDSKEW_H
#define SQW_BOARDSKEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/compare.h"
#include "stats/runinfo.h"

/*
 * The model. Both runs put slot 0 on one grid of a shared clock
 * (grid.clock realtime or tai, docs/grid.md), so an edge's instant on that
 * grid, g = intended + the logged offset, names the same instant on both
 * boards; each board's own comparison (compare.c) has already paired its
 * channel's capture edges with its log's records. An edge of A and an edge
 * of B with the same g are joined. Per joined edge:
 *
 *   skew s = t_B - t_A            the capture's two times (one instrument,
 *                                 one time base), rescaled by A's fitted drift
 *
 * A board whose run had a phase (run.phase, docs/configuration.md) put
 * its edges that long after the grid instant: its edges are joined on the
 * instant they were shifted from (g - phase), and the skew is measured
 * against the difference meant, s = t_B - t_A - (phase_B - phase_A), so
 * two boards offset on purpose are compared as two in phase would be.
 *
 * Each board's pin changed inside its write window, [wb, we] after its
 * intended time on its own clock, so if the two grid clocks agreed exactly,
 *
 *   lo = (wb_B - we_A) - slack  <=  s  <=  hi = (we_B - wb_A) + slack
 *
 * with slack = both comparisons' per-edge tolerance (the capture's
 * resolution and the fits' error) + both offsets' uncertainty. What lies
 * outside is the clocks' doing: B's grid clock ahead of A's by c gives
 * s = (d_B - d_A) - c, so at each edge
 *
 *   c in [lo - s, hi - s]
 *
 * Over the capture: |c| is at least the largest distance of such an interval
 * from 0 (a disagreement the windows cannot explain) and at most the largest
 * magnitude of its ends; the intervals' intersection, when not empty, is
 * where a constant offset between the clocks lies.
 *
 * Checks, each with the measurement beside it:
 *  - max_skew (--max-skew L): every |s| within L. PASS when every |s| +
 *    resolution <= L, FAIL when some |s| - resolution > L, else
 *    INCONCLUSIVE; NONE without a limit. No joined edge: INCONCLUSIVE
 *    (this check and the next: nothing was measured).
 *  - clock_error: the clocks agree within what they claim, the sum of both
 *    logs' adjtimex maximum errors E. PASS when |c| <= E is proven at every
 *    edge (the upper bound), FAIL when some edge proves |c| > E (the lower
 *    bound), else INCONCLUSIVE (the windows are too wide to tell). SKIP when
 *    a clock was not synchronised at setup, its sync state is unknown, or a
 *    clock was stepped during the run (its grid moved; the skew is still
 *    measured).
 *
 * Pure computation on two finished comparisons: no I/O, no messages.
 */

enum boardskew_check {
	BOARDSKEW_NONE = 0,            /* no limit given */
	BOARDSKEW_PASS,
	BOARDSKEW_FAIL,
	BOARDSKEW_INCONCLUSIVE,
	BOARDSKEW_SKIP,                /* why: boardskew.clock_skip */
};

const char *boardskew_check_name(enum boardskew_check c); /* "PASS", ... */

/* One board: its comparison with its channel of the capture and its grid. */
struct boardskew_side {
	const struct compare *c;       /* COMPARE_OK, with a capture */
	const struct run_grid *g;      /* the log's grid (soakview); NULL: none */
};

/* One joined edge. */
struct boardskew_edge {
	uint64_t grid_ns;              /* the instant on the shared grid */
	uint64_t seq_a, seq_b;
	uint8_t level_a, level_b;
	double skew_ns;                /* t_B - t_A */
	double lo_ns, hi_ns;           /* what the write windows allow */
};

struct boardskew {
	/* inputs, as given */
	int64_t max_skew_ns;           /* 0: no limit */
	int64_t phase_diff_ns;         /* B's run.phase - A's: taken out of every skew */
	double slack_ns;               /* in lo/hi: tolerances + offset uncertainties */
	double resolution_ns;          /* the capture's */
	/* the join */
	struct boardskew_edge *e;      /* grid order */
	size_t n;
	size_t only_a, only_b;         /* paired in one channel, no edge of the other
					* board on that instant, inside both spans */
	size_t opposite;               /* joined edges of opposite polarity */
	/* skew */
	double skew_min, skew_p50, skew_p99_abs, skew_max, skew_mean;
	size_t beyond_windows;         /* edges whose s lies outside [lo, hi] */
	/* the clocks' share */
	double clock_lower_ns;         /* |c| is at least this at some edge */
	double clock_upper_ns;         /* |c| is at most this at every edge */
	bool common;                   /* the intervals intersect: */
	double common_lo_ns, common_hi_ns;
	double clock_bound_ns;         /* E, the clocks' claimed error (-1: none) */
	/* checks and verdict */
	enum boardskew_check skew_check, clock_check;
	char clock_skip[160];          /* why clock_error is SKIP */
	size_t skew_over;              /* edges with |s| - resolution > max_skew */
};

enum boardskew_status {
	BOARDSKEW_OK = 0,
	BOARDSKEW_E_INPUT,             /* not two boards on one grid: exit 2 */
	BOARDSKEW_E_NOMEM,
};

/*
 * Join @a and @b (their comparisons must both have aligned: status FOUND).
 * @max_skew_ns: the limit on |s| (0: none). On BOARDSKEW_OK *out is filled
 * (boardskew_free() it); BOARDSKEW_E_INPUT says why in @err: a log without a
 * grid, grids of two clocks, or a grid that is not one (slot times that
 * differ by no whole number of half periods is allowed: the join finds no
 * common instant and says so through n == 0).
 */
enum boardskew_status boardskew_compute(const struct boardskew_side *a,
					const struct boardskew_side *b, int64_t max_skew_ns,
					struct boardskew *out, char *err, size_t errlen);
void boardskew_free(struct boardskew *s);

/* The clock offset interval of joined edge @e: [lo - s, hi - s]. */
static inline double boardskew_clock_lo(const struct boardskew_edge *e)
{
	return e->lo_ns - e->skew_ns;
}

static inline double boardskew_clock_hi(const struct boardskew_edge *e)
{
	return e->hi_ns - e->skew_ns;
}

#endif
