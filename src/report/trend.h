/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sqwave report --trend: many runs of a few boards over months, one point
 * per run (Tmin, Tmax, worst wake-up, missed periods) grouped by board and
 * ordered by start time, as a table, JSON (schema sqwave-trend) and an SVG
 * with a panel per board (docs/report.md, "Trend"). Points are made here
 * from JSON summaries and analyses; cmd_report.c picks the inputs. */
#ifndef SQW_TREND_H
#define SQW_TREND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/jsonread.h"

#define TREND_SCHEMA "sqwave-trend"
#define TREND_SCHEMA_VERSION 1

/* One run. A figure the document does not give is absent (have_* false):
 * a gap in the picture, null in JSON, "-" in the table, never 0. */
struct trend_point {
	char source[512];
	char label[64];
	char board[64];            /* board.name ("?": none) */
	char host[64];             /* the host name ("": none) */
	char key[136];             /* what groups runs: "board @ host" */
	uint64_t start_ns;         /* CLOCK_REALTIME of the run's start */
	int64_t duration_ns;       /* 0: unknown */
	bool have_tmin, have_tmax, have_wake, have_missed;
	int64_t tmin_ns, tmax_ns, wake_max_ns;
	uint64_t missed;
	bool have_window;          /* an analysis: its worst 5-minute (or --window) wake-up */
	int64_t window_ns;
	int64_t lim_tmin_ns, lim_tmax_ns, lim_wake_ns;  /* 0: not set */
	char verdict[32];          /* "PASS", "FAIL", "NO LIMITS", ... ("?": none) */
	size_t order;              /* the order given, for ties */
	/* a run of sqwave respond (trend_point_is_respond()): its answers,
	 * the response latency (event -> write end: p99, worst), lost events
	 * (missed), those never answered and the scope's bounds; its Tmin and
	 * Tmax are the output's pulses, its wake-up from the event */
	bool respond;
	uint64_t answers;
	bool have_resp, have_unanswered, have_scope_min, have_scope_max;
	int64_t resp_p99_ns, resp_max_ns, scope_min_ns, scope_max_ns;
	uint64_t unanswered;
};

/* Whether @p is a respond run's: a run of its own kind (its own rows in the
 * table, its own JSON members). One place to ask. */
bool trend_point_is_respond(const struct trend_point *p);

struct trend {
	struct trend_point *p;
	size_t n, cap;
	size_t compares;           /* comparisons the last trend_sort() made (its test) */
};

/* The point of one document (a sqwave-summary or sqwave-analysis JSON).
 * 0, or -1 with "SOURCE:LINE: what" in @err and no point added: another
 * document, a newer schema, no start time, a figure of the wrong type. */
int trend_add_doc(struct trend *t, const struct jv *doc, const char *source, char *err,
		  size_t errlen);
/* Group by board (key), boards in the order their first run starts (ties:
 * by key), runs by start time (ties: the order given). O(n log n). */
void trend_sort(struct trend *t);
void trend_free(struct trend *t);

/* After trend_sort(). */
void trend_write_text(FILE *f, const struct trend *t);
void trend_write_json(FILE *f, const struct trend *t);
/* A panel per board: Tmin and Tmax with limits.tmin/tmax, the worst
 * wake-up with limits.wake_latency_max (each run's limits where that run
 * is), missed periods per run; a time axis fitted to the runs; a run
 * without a figure leaves a gap in its line. */
void trend_write_svg(FILE *f, const struct trend *t);

/* The time axis' ticks for [@lo, @hi] (ns since the epoch) over @px
 * pixels: whole steps of UTC time, the smallest step from a second to a
 * year whose labels (the time of day, with the date when [@lo, @hi] spans
 * two UTC days, the date alone for steps of a day and more; 10 px text at
 * 6.4 px a character) stand 20 px apart, and at most @max ticks; returns
 * how many went into @ticks, the step in *@step_s. For the SVG and its
 * tests. */
size_t trend_time_axis(uint64_t lo, uint64_t hi, double px, uint64_t *ticks, size_t max,
		       int64_t *step_s);

#endif
