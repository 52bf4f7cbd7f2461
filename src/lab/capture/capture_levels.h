/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Levels of a trace: logic samples that may be unknown (X, x/z), the two
 * levels of an analog trace (streamed collection, then robust clustering)
 * and the threshold-with-hysteresis edge finder. */
#ifndef SQW_CAPTURE_LEVELS_H
#define SQW_CAPTURE_LEVELS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Collection: every value of a trace goes through capture_levelscan_add()
 * once (in file order). It keeps the extremes, whether every value was
 * exactly 0 or 1, and a subset spread over the whole trace (every stride-th
 * value, the stride doubling whenever the subset is full, so the subset
 * covers the trace evenly whatever its length). Memory: @cap doubles.
 * Not thread-safe; one collection per trace.
 */
struct capture_levelscan {
	double *v;
	size_t n, cap;
	uint64_t seen;      /* values added (NaN excluded) */
	uint64_t stride;    /* keep values whose index is a multiple of it */
	double min, max;
	int only_bits;      /* every value was exactly 0 or 1 */
};

/* Returns 0, or -1 with errno (ENOMEM). */
int capture_levelscan_init(struct capture_levelscan *ls, size_t cap);
void capture_levelscan_add(struct capture_levelscan *ls, double v); /* NaN: ignored */
void capture_levelscan_free(struct capture_levelscan *ls);

struct capture_levels {
	double low, high;   /* the two levels */
	int bimodal;        /* 1: the trace has two distinct levels */
	int digital;        /* every value is 0 or 1: levels 0 and 1, no finder */
	int rare;           /* one level is rare (found from the extremes) */
};

/*
 * The two levels of a collected trace (reorders ls->v):
 *  - digital 0/1 data: 0 and 1, bimodal if both occur;
 *  - else two clusters split at the midpoint of their medians, iterated from
 *    the 1st/99th percentiles: robust to overshoot, ringing, spikes and the
 *    samples on the edges, whatever the duty cycle, as long as both levels
 *    are in the subset;
 *  - else, if one extreme lies further from the majority level than 10
 *    robust standard deviations (and 4 ADC steps), the other level is there
 *    however rare it is: its median in the subset, or the extreme itself if
 *    the subset holds fewer than 3 of its samples.
 */
void capture_levels_from_scan(struct capture_levelscan *ls, struct capture_levels *lv);

/*
 * Edge finder: threshold with hysteresis. Works in sample-index units; the
 * caller maps a fractional index to time. Analog: the edge is placed by
 * linear interpolation at the last threshold crossing before the band was
 * left. Digital: at the first sample at the new level (as a logic analyzer
 * reports it; interpolating between 0 and 1 would invent a half sample).
 */
struct capture_analog {
	double thr, lo, hi;  /* threshold, band bottom and top */
	int digital;
	int state;           /* -1 before the first sample, else 0/1 */
	int have_prev;
	double prev_v;
	double cross_x;      /* fractional index of the last threshold crossing */
};

void capture_analog_init(struct capture_analog *a, double thr, double hyst, int digital);
/* Feed sample @i with value @v. Returns 1 with *x (fractional index of the
 * edge) and *level when an edge completes, else 0. The first sample sets
 * the initial level (see a->state). NaN samples are skipped. */
int capture_analog_feed(struct capture_analog *a, int64_t i, double v, double *x, int *level);

/*
 * Logic samples that may be unknown (an analyzer's X, a VCD's x or z):
 * the one rule every importer of them follows. The first known level is
 * the initial level, not an edge; an unknown stretch is a data gap, so the
 * next change of level is flagged CAPTURE_EDGE_F_AFTER_GAP (the pulse
 * across it is not measured), and a level that comes back from unknown is
 * no edge (when it changed is not known).
 */
struct capture_logic {
	int level;       /* -1 unknown (before data or in a gap) */
	int seen_known;  /* a known level was seen */
	int gap;         /* unknown data since the last edge */
};

enum capture_logic_step {
	CAPTURE_LOGIC_NONE = 0,  /* no edge */
	CAPTURE_LOGIC_EDGE = 1,  /* the level changed: an edge */
	CAPTURE_LOGIC_FIRST = 2, /* the first known level: the initial level */
};

void capture_logic_reset(struct capture_logic *g);
/* One sample of level @lv (0, 1, or -1 for unknown); for an edge, its
 * flags in *@flags. */
enum capture_logic_step capture_logic_step(struct capture_logic *g, int lv, uint8_t *flags);
/* A logic CSV field: "0" or "1" -> 0 or 1, "X" or "x" -> -1 (unknown),
 * anything else -2. */
int capture_logic_field(const char *p, size_t len);

#endif
