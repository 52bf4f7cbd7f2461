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
/* Rows kept at most (about 200 MB); beyond, figures are counted, not placed.
 * Rows grow with the records, never with the time they span. */
#define WINDOWS_MAX_ROWS ((size_t)1 << 20)

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

/*
 * A row: one window with an edge (or a pulse, or missed slots), or a
 * stall's run of windows that have missed slots and no edge. Windows with
 * nothing in them have no row. Rows are in window order.
 */
struct windows_row {
	uint64_t index;           /* its (first) window: 0 is the first counted edge's */
	uint64_t windows;         /* 1; or more: a stall's windows, no edge in them */
	uint64_t edges;           /* counted edges in the window */
	uint64_t pulses;          /* counted pulses ending in it */
	uint64_t missed;          /* missed periods (respond: lost events) whose
				   * slots fall in it (a stall's: in all its windows) */
	uint64_t missed_most;     /* the most missed periods of one of its windows */
	uint64_t missed_most_at;  /* that window (the first with that many) */
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
	struct windows_row *rows; /* in window order (above); grows */
	size_t nrows, cap;
	uint64_t beyond;          /* figures not placed: rows full, or a time
				   * before the last row's (out of order) */
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
 * none), with times in order (as every source's check makes them).
 * Warm-up records only link the sequence. An edge's missed slots are put
 * in the windows their deadlines fall in (the slots just before the edge),
 * so a stall across a boundary counts on both sides; the windows a stall
 * spans without an edge are one row, whatever its length. Time and
 * memory per record are bounded: at most two rows (a stall's and the
 * edge's), allocated as they come.
 */
void windows_add(struct windows *w, const struct edge_rec *e, uint64_t missed, int64_t lat,
		 const struct edgestats_pulse *p);

/* What the rows add up to, after the last edge. */
struct windows_result {
	int64_t window_ns;
	uint64_t nwindows;        /* windows from the first counted edge's to the last's */
	size_t nrows;             /* rows (above): windows_row(w, 0..nrows-1) */
	int64_t observed_ns;      /* first counted edge to the last, plus one half
				   * period (the last edge's slot); 0: no edge */
	bool last_partial;        /* the last window is shorter than window_ns */
	int64_t last_ns;          /* how long the last window is */
	/* the worst window of each figure: its row; SIZE_MAX when no window
	 * has the figure ("the maximum of the window maxima"). Missed: the row
	 * whose missed_most is the largest (its missed_most_at the window). */
	size_t worst_wake, worst_tmin, worst_tmax, worst_missed, worst_response;
	bool limits;              /* a per-edge limit is set */
	uint64_t crossings, cross_tmin, cross_tmax, cross_wake, cross_response;
	/* observed_ns / crossings; valid when limits && crossings */
	double mtbf_s;
	uint64_t beyond;
};
void windows_result(const struct windows *w, struct windows_result *r);

/* Row @i (< nrows), not window @i: windows without anything have no row. */
static inline const struct windows_row *windows_row(const struct windows *w, size_t i)
{
	return &w->rows[i];
}

#endif
