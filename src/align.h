/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Line a capture's edges up with a run's edges: find the window of the run the
 * capture covers, fit offset and drift, pair the edges, report the rest. */
#ifndef SQW_ALIGN_H
#define SQW_ALIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture.h"
#include "edge.h"

/*
 * The run's edges are struct edge_rec (log clock, ns); the capture's are
 * struct capture_edge (capture clock, fs, arbitrary time 0). The model is
 *
 *     capture_ns = offset_ns + (1 + drift) * (log_ns - ref_ns)
 *
 * with ref_ns a run time picked by the fit (keeps the numbers small).
 *
 * Two passes, so a 1 h run never has to be in memory:
 *   1. align_search_new() takes the capture; align_search_feed() sees every
 *      run record once, in order, and matches blocks of consecutive capture
 *      pulse widths against the run's (constant work per record, constant
 *      memory); align_search_finish() picks the alignment, or says it is
 *      ambiguous or that there is none, and names the run time range to keep.
 *   2. The caller reads the run again, keeps the records inside that range
 *      and calls align_match(): edge pairing, robust fit, residuals, missing
 *      and extra edges.
 * align_run() does both on arrays (tests, small runs).
 *
 * Pure computation: no I/O, no messages. Every object is used by one thread.
 */

struct align_params {
	int64_t resolution_fs;     /* capture resolution (capture_info.resolution_fs) */
	double max_drift_ppm;      /* largest clock-rate error searched; 0: 500 ppm */
	unsigned block_len;        /* pulse widths per search block; 0: 48 */
	unsigned max_blocks;       /* blocks spread over the capture; 0: 16 */
	int64_t tolerance_ns;      /* extra slack per edge; < 0: the resolution */
	int64_t first_seq;         /* >= 0: the capture's first edge is this run
				    * seq (skips the search); -1: search */
};

enum align_status {
	ALIGN_FOUND = 0,
	ALIGN_AMBIGUOUS,           /* the widths fit several places: candidates > 1 */
	ALIGN_NO_OVERLAP,          /* the widths fit nowhere in the run */
	ALIGN_TOO_FEW,             /* fewer than 3 capture edges */
};

const char *align_status_name(enum align_status st);

/* What pass 1 found. */
struct align_window {
	enum align_status status;
	uint64_t candidates;       /* distinct places the capture fits (>= 1 if found) */
	bool candidates_capped;    /* candidates is a lower bound */
	unsigned blocks, blocks_matched; /* search blocks used, consistent with the pick */
	bool inverted;             /* capture level = !log level */
	/* Seed: capture edge seed_cap is run edge seed_seq at run time seed_ns. */
	size_t seed_cap;
	uint64_t seed_seq;
	int64_t seed_ns;
	double drift_guess;        /* from the matched blocks (0 if only one) */
	/* Keep run records whose write window touches [keep_lo_ns, keep_hi_ns]. */
	int64_t keep_lo_ns, keep_hi_ns;
	int64_t span_lo_fs, span_hi_fs; /* as given to align_search_new() */
};

struct align_search;

/* @cap (n edges, time order) must stay valid until align_search_free();
 * [@span_lo_fs, @span_hi_fs] is the capture's recorded span (capture_info
 * start_fs/end_fs): run edges inside it should be in the capture. NULL with
 * errno (ENOMEM) on failure. */
struct align_search *align_search_new(const struct capture_edge *cap, size_t n,
				      int64_t span_lo_fs, int64_t span_hi_fs,
				      const struct align_params *p);
/* Every run record, in log order. */
void align_search_feed(struct align_search *s, const struct edge_rec *e);
/* After the last record. Fills *w; returns w->status. */
enum align_status align_search_finish(struct align_search *s, struct align_window *w);
void align_search_free(struct align_search *s);

/* One matched edge. */
struct align_pair {
	size_t cap;                /* index into the capture's edges */
	size_t run;                /* index into the run records given to align_match() */
	double residual_ns;        /* capture edge (on the log clock) - write window:
				    * 0 inside, signed distance outside */
	double from_begin_ns;      /* capture edge - write_begin (log clock) */
	bool outlier;              /* left out of the final fit */
};

struct align_result {
	enum align_status status;
	bool inverted;
	/* the fit (see the model above) */
	int64_t ref_ns;
	double offset_ns;          /* capture time (ns) at ref_ns */
	double drift_ppm;
	double fit_rms_ns;         /* of the inliers, about the line */
	double fit_se_ns;          /* standard error of the line at the capture's far end */
	size_t inliers, outliers;
	/* the covered window: run edges whose time falls inside the capture's span */
	uint64_t first_seq, last_seq;
	size_t covered;            /* run records in [first_seq, last_seq] */
	size_t run_first, run_last; /* their indices in the run array */
	double span_lo_ns, span_hi_ns; /* the capture's span on the log clock */
	/* pairs, in capture order; caller frees all arrays with align_result_free() */
	struct align_pair *pairs;
	size_t npairs;
	size_t *missing;           /* run indices inside the window with no capture edge */
	size_t nmissing;
	size_t *extra;             /* capture indices with no run edge */
	size_t nextra;
	size_t in_gap;             /* run edges not checked: inside a capture data gap */
	size_t write_failed;       /* run edges whose write failed: no edge expected */
	double tolerance_ns;       /* per-edge slack used for the verdict: the
				    * resolution (or --tolerance) + 4 fit_se_ns */
	size_t disagree;           /* pairs with |residual| > tolerance_ns */
};

/*
 * Pass 2. @run: the run records kept after pass 1 (seq order); @cap: the
 * whole capture; @w from align_search_finish() (status FOUND). Run edges
 * inside the capture's span without a capture edge are "missing". Returns 0
 * (res->status is NO_OVERLAP if the seed edge is not in @run), or -1 with
 * errno (ENOMEM). Free with align_result_free() either way.
 */
int align_match(const struct edge_rec *run, size_t nrun, const struct capture_edge *cap,
		size_t ncap, const struct align_window *w, const struct align_params *p,
		struct align_result *res);
void align_result_free(struct align_result *res);

/* Both passes over arrays. Returns 0 (res->status says whether it aligned;
 * only FOUND fills the rest) or -1 with errno. Free with align_result_free(). */
int align_run(const struct edge_rec *run, size_t nrun, const struct capture_edge *cap,
	      size_t ncap, int64_t span_lo_fs, int64_t span_hi_fs,
	      const struct align_params *p, struct align_window *w, struct align_result *res);

/* Map a capture time to the log clock with a result's fit (ns, relative to
 * res->ref_ns). */
double align_cap_to_log(const struct align_result *res, int64_t t_fs);

#endif
