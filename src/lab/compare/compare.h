/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Compare a capture, or a scope's Tmin/Tmax readings, with a run's log:
 * alignment (align.c), side-by-side widths, residuals and the verdict. */
#ifndef SQW_COMPARE_H
#define SQW_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/align.h"
#include "compare/scopepredict.h"
#include "instrument/scopedialect.h"
#include "capture/capture.h"
#include "log/edgelog.h"
#include "stats/edgestats.h"
#include "base/stats.h"

/* A scope reading: --scope-[pos-|neg-]t{min,max}. */
struct compare_reading {
	bool set;
	int64_t ns;
};

struct compare_opts {
	const char *run;               /* the log; "-": standard input */
	const char *capture;           /* NULL: scope readings only; "-": stdin */
	struct capture_opts copts;
	int64_t tolerance_ns;          /* -1: the capture's resolution */
	int64_t first_seq;             /* -1: search */
	double max_drift_ppm;          /* 0: 500 */
	unsigned worst;                /* disagreements kept, worst first */
	struct compare_reading scope[EDGESTATS_NPOL][2]; /* [polarity][0 tmin, 1 tmax] */
	bool have_scope;
	double scope_rel;              /* relative reading accuracy, or */
	int64_t scope_abs_ns;          /* absolute (>= 0 when given) */
	/* The pulses each polarity's statistics counted (--scope-count, or
	 * read from the scope): -1 unknown. With a count, a reading is judged
	 * against the interval a scope that measured that many of the run's
	 * pulses shows (compare/scopepredict.h), else against the log's
	 * bounds alone; count_why says why a count is unknown, when known. */
	int64_t scope_count[EDGESTATS_NPOL];
	const char *scope_count_why[EDGESTATS_NPOL];
	const char *scope_source;      /* the scope read live (compare --scope), or NULL */
	/* --min-coverage: the share (0..1] of the run's edges a capture must
	 * have covered; < 0 (the default): none, the coverage is stated, not
	 * judged */
	double min_coverage;
};

/* The chance that a scope which did everything right is still judged
 * DISAGREE, for all its readings together: each reading's interval holds
 * 1 - (1 - COMPARE_SCOPE_LEVEL) / (the readings judged by a count), so one
 * reading is judged at 90 %, two at 95 %, four at 97.5 % (Bonferroni). */
#define COMPARE_SCOPE_LEVEL 0.90

/* Defaults: tolerance and first_seq -1, worst 10, scope_rel 0.1 %, scope
 * counts unknown. */
void compare_opts_init(struct compare_opts *o);

/* A scope's statistics read over SCPI (instrument/scopedialect.h) as the
 * readings and counts of @o: each valid width's min and max, its count or
 * why none; @source names the scope (kept, not copied). The readings @r
 * holds must outlive @o. Returns how many widths were valid (0: nothing
 * to compare). */
int compare_opts_scope(struct compare_opts *o, const struct scope_reading *r, const char *source);

enum compare_verdict {
	COMPARE_AGREE = 0,
	COMPARE_DISAGREE,              /* an edge, a count or a width disagrees */
	COMPARE_NO_OVERLAP,            /* the capture fits no part of the run */
	COMPARE_AMBIGUOUS,             /* it fits several places: --first-seq */
	COMPARE_TOO_FEW,               /* fewer than 3 capture edges */
};

const char *compare_verdict_name(enum compare_verdict v); /* "agree", ... */
/* A verdict as compare's exit code (base/exitcode.h), for every kind of
 * compare and its documents' exit_code: 0 agree, 1 disagree or no overlap,
 * 2 ambiguous or too few edges. */
int compare_verdict_exit(enum compare_verdict v);
/* A wave's comparison's exit code: its verdict's, and 1 for an agreement
 * over less of the run than --min-coverage asks (struct compare_coverage). */
struct compare;
int compare_exit(const struct compare *c);

/* One of the worst disagreements. */
struct compare_worst {
	uint64_t seq;
	uint8_t level;
	int64_t cap_t_ps;              /* capture time, the capture's time base */
	double residual_ns;
	int64_t window_ns;             /* the logged write window */
	/* a run --loopback log: the kernel's event for this edge, as capture
	 * (on the log clock) minus event; has_kernel false: no event */
	bool has_kernel;
	double cap_minus_kernel_ns;
};

/* Everything worked out, for the text and the JSON (cmd_compare.c). */
/* What a capture saw of the run (docs/compare.md, "Coverage"): M, the run's
 * edges (the whole log), and N, those inside the capture's covered time
 * (its span less its data gaps, each gap from the edge before it to the
 * first edge after it). Edges outside covered time count neither as
 * missing nor as agreeing. */
struct compare_coverage {
	uint64_t run_edges;            /* M */
	uint64_t covered_edges;        /* N (0 when the capture did not align) */
	double fraction;               /* N / M */
	size_t gaps;                   /* the capture's data gaps */
	double span_s, covered_s;      /* the capture's span, less its gaps */
	bool enough;                   /* fraction >= o->min_coverage (true without one) */
};

struct compare {
	const struct compare_opts *o;
	/* run */
	const struct edgelog_meta *meta;
	uint64_t records;
	bool truncated;                /* no footer: the run was cut short */
	/* capture */
	const struct capture_info *ci; /* NULL without a capture */
	size_t ncap;
	struct align_caps caps;
	struct align_runs win;         /* run records kept around the window */
	struct align_params ap;
	struct align_window w;
	struct align_result r;
	bool aligned;
	/* side by side, over the window; polarity in log terms */
	struct stats_hist cw[EDGESTATS_NPOL];
	struct edgestats *es;          /* log widths over the window */
	const struct edgestats_result *er;
	double cw_tol_ns;              /* a capture width's uncertainty */
	bool width_ok[EDGESTATS_NPOL][2];
	/* residuals */
	struct stats_moments res_m, frac_m;
	struct stats_hist res_abs;
	size_t inside;
	struct compare_worst *worst;   /* worst first */
	size_t nworst;
	/* The third view (a run --loopback log, docs/loopback.md): the kernel's
	 * event time of each run record kept in the window (INT64_MIN: none),
	 * and over the paired capture edges whose run edge has one, capture
	 * (on the log clock) minus the kernel's event. */
	bool have_kernel;
	int64_t *kernel_ns;            /* [win.n] */
	size_t kernel_cap;
	struct stats_hist cap_minus_kernel;
	size_t kernel_missing_seen;    /* edges missing in the capture the kernel saw */
	/* scope readings: against the whole run */
	struct edgestats *ses;
	const struct edgestats_result *ser;
	bool scope_ok[EDGESTATS_NPOL][2];
	int64_t scope_tol[EDGESTATS_NPOL][2];
	/* coverage (with a capture) */
	struct compare_coverage cov;
	/* with a count: what a scope that measured it shows (status OK: the
	 * reading was judged against [lo_ns, hi_ns] +- the tolerance) */
	struct scopepredict pred[EDGESTATS_NPOL][2];
	bool have_pred[EDGESTATS_NPOL][2];
	/* verdict */
	enum compare_verdict verdict;
	/* private */
	struct scopepredict_pulses pulses[EDGESTATS_NPOL]; /* while the log is read */
	bool want_pulses[EDGESTATS_NPOL];
	struct capture *cap;
	struct edgelog_reader *rr;     /* holds meta */
	int run_fd;                    /* a run read from a stream, else -1 */
	char run_path[40];
	bool hist_live;
};

enum compare_status {
	COMPARE_OK = 0,
	COMPARE_E_INPUT,               /* a bad log or capture, or usage: exit 2 */
	COMPARE_E_IO,                  /* cannot open or read, no memory: exit 3 */
};

/*
 * Do the comparison @o asks for. On COMPARE_OK, *out holds the result
 * (compare_free() it); else *out is NULL and @err holds one line: "FILE:LINE:
 * what" for bad input. Memory: at most about 48 bytes per capture edge
 * (align.h) plus constants; a capture with more than twice as many edges as
 * the log has records (it cannot be of this run) is refused before it fills
 * memory. Warnings (a truncated log) are in the result, not printed.
 */
enum compare_status compare_run(const struct compare_opts *o, struct compare **out,
				char *err, size_t errlen);
void compare_free(struct compare *c);

/* Iterate over the log edges missing in the capture: returns the next
 * window index >= @from (SIZE_MAX at the end) with its seq, level and where
 * the capture should have had it (seconds, the capture's time base). */
size_t compare_missing_next(const struct compare *c, size_t from, uint64_t *seq, uint8_t *level,
			    double *cap_t_s);
/* A loopback log: the kernel's event time of window record @k (an index
 * compare_missing_next() returned), true; false when it has none. */
bool compare_kernel_at(const struct compare *c, size_t k, int64_t *event_ns);
/* Iterate over the capture edges the log does not have: the next capture
 * index >= @from (SIZE_MAX at the end), its time and level. */
size_t compare_extra_next(const struct compare *c, size_t from, int64_t *t_ps, uint8_t *level);
/* The run seq paired with the capture's first / last paired edge. */
uint64_t compare_first_paired_seq(const struct compare *c);
uint64_t compare_last_paired_seq(const struct compare *c);

#endif
