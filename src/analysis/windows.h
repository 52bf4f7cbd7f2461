/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The long view of one run: its figures per window of time (5 minutes by
 * default), the worst of those windows, and the MTBF of limit crossings
 * (docs/analyze.md, "Windows"). Fed edge by edge; one feeding thread. */
#ifndef SQW_WINDOWS_H
#define SQW_WINDOWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt/edge.h"
#include "analysis/edgestats.h"

#define WINDOWS_DEFAULT_NS (INT64_C(300) * 1000000000) /* OSADL's 5 minutes */
#define WINDOWS_MAX_ROWS ((size_t)1 << 20)  /* beyond: a corrupt time, not a run */

struct windows_opts {
	int64_t window_ns;        /* > 0 */
	int64_t half_period_ns;   /* the grid missed slots sit on; 0: none */
	bool respond;             /* a respond log: per-answer figures, no grid */
	/* the per-edge limits (0: not set), as the verdict checks them: a
	 * pulse by its bounds, a wake-up and an answer by their latency */
	int64_t lim_tmin_ns, lim_tmax_ns, lim_wake_ns, lim_response_ns;
};

/* A window's extreme: the figure, the edge it is at (a pulse: the edge
 * that ends it, as sqwave numbers pulses everywhere) and that edge's time
 * after the first counted edge. */
struct windows_peak {
	bool have;
	int64_t value_ns;
	int64_t bound_ns;         /* pulses: the lowest (Tmin) or highest (Tmax)
				   * the write windows allow for that pulse */
	uint64_t seq;
	uint64_t t_ns;
};

struct windows_row {
	uint64_t edges;           /* counted edges in the window */
	uint64_t pulses;          /* counted pulses ending in it */
	uint64_t missed;          /* missed periods (respond: lost events) whose
				   * slots fall in it */
	uint64_t dropped;         /* records missing before an edge in it */
	uint64_t crossings;       /* edges in it that broke a per-edge limit */
	struct windows_peak wake;     /* latest wake-up (respond: answers only) */
	struct windows_peak tmin;     /* shortest pulse (estimate) */
	struct windows_peak tmax;     /* longest pulse (estimate) */
	struct windows_peak response; /* respond: latest answer (write end - event) */
};

struct windows {
	struct windows_opts o;
	bool have_origin;
	uint64_t origin_ns;       /* intended time of the first counted edge */
	uint64_t last_ns;         /* and of the last */
	bool have_prev;
	uint64_t prev_seq;        /* the last record fed, warm-up included */
	struct windows_row *rows; /* one per window from the origin; grows */
	size_t nrows, cap;
	uint64_t beyond;          /* figures too far from the origin to be kept */
	/* limit crossings: edges counted once each, and per limit */
	uint64_t crossings;
	uint64_t cross_tmin, cross_tmax, cross_wake, cross_response;
	bool have_cross;
	uint64_t last_cross_seq;
};

/* Allocated here; NULL with errno. Free with windows_free(). */
struct windows *windows_new(const struct windows_opts *o);
void windows_free(struct windows *w);
/* The per-edge limits (0: none), before the first windows_add(). */
void windows_set_limits(struct windows *w, int64_t tmin_ns, int64_t tmax_ns, int64_t wake_ns,
			int64_t response_ns);

/*
 * One record, in order, with what edgestats made of it: @missed its missed
 * periods (edgestats_last_missed()), @lat its wake latency
 * (edgestats_last_latency()) and @p the counted pulse it closed (NULL:
 * none). Warm-up records only link the sequence. An edge's missed slots
 * are put in the windows their deadlines fall in (the slots just before
 * the edge), so a stall across a boundary counts on both sides. No
 * allocation except one row per window.
 */
void windows_add(struct windows *w, const struct edge_rec *e, uint64_t missed, int64_t lat,
		 const struct edgestats_pulse *p);

/* What the rows add up to, after the last edge. */
struct windows_result {
	int64_t window_ns;
	size_t nrows;
	int64_t observed_ns;      /* first counted edge to the last, plus one half
				   * period (the last edge's slot); 0: no edge */
	bool last_partial;        /* the last window is shorter than window_ns */
	int64_t last_ns;          /* how long the last window is */
	/* the worst window of each figure: its index; SIZE_MAX when no window
	 * has the figure ("the maximum of the window maxima") */
	size_t worst_wake, worst_tmin, worst_tmax, worst_missed, worst_response;
	bool limits;              /* a per-edge limit is set */
	uint64_t crossings, cross_tmin, cross_tmax, cross_wake, cross_response;
	/* observed_ns / crossings; valid when limits && crossings */
	double mtbf_s;
	uint64_t beyond;
};
void windows_result(const struct windows *w, struct windows_result *r);

/* Row @i (< nrows). */
static inline const struct windows_row *windows_row(const struct windows *w, size_t i)
{
	return &w->rows[i];
}

#endif
