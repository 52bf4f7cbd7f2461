/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Line a capture's edges up with a run's edges: find the window of the run the
 * capture covers, fit offset and drift, pair the edges, report the rest. */
#ifndef SQW_ALIGN_H
#define SQW_ALIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture/capture.h"
#include "log/edge.h"

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
 * Memory: the capture's edges and the run's records around the window are
 * held compactly (struct align_caps: 8 bytes + 2 bits an edge; struct
 * align_runs: 24 bytes a record), in blocks (growing never copies), and the
 * result adds 4 bytes + 1 bit per capture edge and 2 bits per run record:
 * about 40 bytes per capture edge in all when the window holds as many run
 * edges as the capture (docs/compare.md).
 *
 * Pure computation: no I/O, no messages. Every object is used by one thread.
 */

/* ---- compact edge stores ---- */

#define ALIGN_BLK_SHIFT 16
#define ALIGN_BLK ((size_t)1 << ALIGN_BLK_SHIFT)
#define ALIGN_BLK_MASK (ALIGN_BLK - 1)

/* A capture's edges: the time and two bits (level, after a gap) each. */
struct align_caps {
	int64_t **t;               /* blocks of ALIGN_BLK times (ps) */
	uint64_t **bits;           /* blocks of ALIGN_BLK 2-bit fields */
	size_t n, nblk, capblk;
};

/* Append one edge (in time order). 0, or -1 with errno ENOMEM. */
int align_caps_add(struct align_caps *c, const struct capture_edge *e);
void align_caps_free(struct align_caps *c);

static inline int64_t align_caps_t(const struct align_caps *c, size_t i)
{
	return c->t[i >> ALIGN_BLK_SHIFT][i & ALIGN_BLK_MASK];
}

static inline unsigned align_caps_level(const struct align_caps *c, size_t i)
{
	return (unsigned)(c->bits[i >> ALIGN_BLK_SHIFT][(i & ALIGN_BLK_MASK) >> 5] >> (2 * (i & 31))) & 1u;
}

static inline bool align_caps_gap(const struct align_caps *c, size_t i)
{
	return (c->bits[i >> ALIGN_BLK_SHIFT][(i & ALIGN_BLK_MASK) >> 5] >> (2 * (i & 31) + 1)) & 1u;
}

/* A run record as the matching needs it (24 bytes, not 32). */
struct align_run_edge {
	int64_t wb_ns;             /* write begin, log clock */
	uint32_t ww_ns;            /* write window: write end - write begin */
	uint32_t dseq;             /* seq - the store's base_seq */
	int32_t wb_off_ns;         /* write begin - intended (the intended time:
				    * wb_ns - wb_off_ns; boardskew.c joins on it) */
	uint8_t level;
	uint8_t flags;             /* EDGE_F_* */
};

_Static_assert(sizeof(struct align_run_edge) == 24, "docs/compare.md counts 24 bytes a record");

struct align_runs {
	struct align_run_edge **e; /* blocks of ALIGN_BLK */
	size_t n, nblk, capblk;
	uint64_t base_seq;         /* seq of the first record added */
};

/* Append a record (in log order). 0, or -1 with errno ENOMEM, or E2BIG when
 * its seq is 2^32 or more past the first one's. */
int align_runs_add(struct align_runs *r, const struct edge_rec *e);
void align_runs_free(struct align_runs *r);

static inline const struct align_run_edge *align_runs_at(const struct align_runs *r, size_t k)
{
	return &r->e[k >> ALIGN_BLK_SHIFT][k & ALIGN_BLK_MASK];
}

static inline uint64_t align_runs_seq(const struct align_runs *r, size_t k)
{
	return r->base_seq + align_runs_at(r, k)->dseq;
}

/* ---- parameters and results ---- */

struct align_params {
	int64_t resolution_ps;     /* capture resolution (capture_info.resolution_ps) */
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
	int64_t span_lo_ps, span_hi_ps; /* as given to align_search_new() */
};

struct align_search;

/* @cap (time order) must stay valid and unchanged until align_search_free();
 * [@span_lo_ps, @span_hi_ps] is the capture's recorded span (capture_info
 * start_ps/end_ps): run edges inside it should be in the capture. NULL with
 * errno (ENOMEM) on failure. */
struct align_search *align_search_new(const struct align_caps *cap,
				      int64_t span_lo_ps, int64_t span_hi_ps,
				      const struct align_params *p);
/* Every run record, in log order. */
void align_search_feed(struct align_search *s, const struct edge_rec *e);
/* After the last record. Fills *w; returns w->status. */
enum align_status align_search_finish(struct align_search *s, struct align_window *w);
void align_search_free(struct align_search *s);

/* One matched edge, worked out on demand by align_pair_of(). */
struct align_pair {
	size_t cap;                /* capture edge index */
	size_t run;                /* run record index (in the store, or for
				    * align_run() in the caller's array) */
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
	size_t run_first, run_last; /* their indices (as align_pair.run) */
	double span_lo_ns, span_hi_ns; /* the capture's span on the log clock */
	size_t npairs;             /* paired capture edges */
	size_t nmissing;           /* run edges inside the window with no capture edge */
	size_t nextra;             /* capture edges with no run edge */
	size_t in_gap;             /* run edges not checked: inside a capture data gap */
	size_t write_failed;       /* run edges whose write failed: no edge expected */
	double tolerance_ns;       /* per-edge slack used for the verdict: the
				    * resolution (or --tolerance) + 4 fit_se_ns */
	size_t disagree;           /* pairs with |residual| > tolerance_ns */
	/* private: what the accessors below read */
	const struct align_caps *caps;
	const struct align_runs *runs;
	struct align_caps *own_caps;  /* align_run() only */
	struct align_runs *own_runs;
	size_t run_offset;         /* added to run indices (align_run()) */
	uint32_t **pair;           /* per capture edge: run index + 1, 0 = none */
	size_t pair_nblk;
	uint64_t *outlier;         /* bit per capture edge */
	uint64_t *missing;         /* bit per run record */
	double fit_a, fit_b;       /* y = fit_a + fit_b x, ns from the reference pair */
	int64_t cref_ps;
};

/*
 * Pass 2. @run: the run records kept after pass 1 (seq order); @cap: the
 * whole capture; @w from align_search_finish() (status FOUND). Run edges
 * inside the capture's span without a capture edge are "missing". Returns 0
 * (res->status is NO_OVERLAP if the seed edge is not in @run), or -1 with
 * errno (ENOMEM). @run and @cap must outlive @res (the accessors read
 * them). Free with align_result_free() either way.
 */
int align_match(const struct align_runs *run, const struct align_caps *cap,
		const struct align_window *w, const struct align_params *p,
		struct align_result *res);
void align_result_free(struct align_result *res);

/* Capture edge @i's pair: true with *out filled, false if it has none (it is
 * an extra edge). */
bool align_pair_of(const struct align_result *res, size_t i, struct align_pair *out);
/* The next run index >= @from that is missing from the capture, or SIZE_MAX
 * (indices as align_pair.run). */
size_t align_missing_next(const struct align_result *res, size_t from);
/* The next capture index >= @from without a pair, or SIZE_MAX. */
size_t align_extra_next(const struct align_result *res, size_t from);

/* Both passes over arrays (tests, small runs). Returns 0 (res->status says
 * whether it aligned; only FOUND fills the rest) or -1 with errno. Run
 * indices in the result are into @run. Free with align_result_free(). */
int align_run(const struct edge_rec *run, size_t nrun, const struct capture_edge *cap,
	      size_t ncap, int64_t span_lo_ps, int64_t span_hi_ps,
	      const struct align_params *p, struct align_window *w, struct align_result *res);

/* Map a capture time to the log clock with a result's fit (ns, relative to
 * res->ref_ns). */
double align_cap_to_log(const struct align_result *res, int64_t t_ps);

#endif
