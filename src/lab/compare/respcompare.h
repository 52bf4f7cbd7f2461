/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Compare a respond log with a two-channel capture of its input (stimulus)
 * and output (response) pins: clock mapping, per-answer delays, the verdict. */
#ifndef SQW_RESPCOMPARE_H
#define SQW_RESPCOMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/align.h"
#include "compare/compare.h"
#include "capture/capture.h"
#include "log/edgelog.h"
#include "log/edge.h"

/*
 * The model (docs/compare.md, "A respond log"):
 *
 *  1. The log's writes that change the output's level are its expected
 *     response edges (a follow-mode write of the level the line already has
 *     is none; a failed write is none). align.c's window search over their
 *     widths places the capture's response channel and gives a first
 *     offset and drift; the response edges are then paired in
 *     order, each with the next capture edge of its level inside its write
 *     window widened halfway to the neighbouring windows, and never by less
 *     than the tolerance + place_ns (a burst of answers 100 ns apart is
 *     paired edge for edge: align.c's walk, made for a wave, is not), and
 *     offset + drift are fitted again, weighted by the windows, outliers
 *     left out (respcmp_map). A response edge disagrees with its write
 *     when it is outside its window by more than the tolerance + place_ns
 *     (a mapped time is good to no better). A response whose
 *     spacing is too regular to place (AMBIGUOUS) is paired by order from
 *     the log's first response edge, and the report says so.
 *  2. The stimulus channel's edges, mapped with that fit, are the causes of
 *     the log's events. Without debounce every stimulus edge is one kernel
 *     event (bounces included, each its own event); with respond.debounce
 *     the edges closer than the debounce period to the one before form a
 *     burst, reported by the kernel as at most one event, caused by the
 *     burst's FIRST edge (the one a scope triggers on). Events and causes
 *     are walked in order: an event claims the last unclaimed cause of its
 *     polarity at or before its timestamp (+ tolerance + place_ns); those it
 *     skips are events the kernel lost if the record's expirations say so
 *     (seqno advance - 1), else stimulus edges the log has no event for.
 *  3. Per answer: measured delay = response edge - cause, the capture's
 *     difference rescaled to the log's clock by the fitted drift. The
 *     kernel stamps the event no sooner than the burst's last change +
 *     respond.debounce D (span: last - first change of the burst, 0
 *     without debounce), so the delay must be at least write_begin - event
 *     + D + span - one sample interval, at most write_end - event + D +
 *     span + respond.irq_bound + one sample interval when irq_bound is set
 *     (the bounds of the run summary's scope, from the burst's first edge);
 *     the input's IRQ latency, event - (last change + D) on the log clock,
 *     must be >= -(tolerance + place_ns): it is what irq_bound covers.
 *
 * Pure computation: no I/O in respcmp_compute(); respcmp_run() reads the
 * log and the capture. No messages printed. One thread per object.
 */

/* Answer status bits. */
#define RESPCMP_A_UNCOVERED 0x01u /* outside the capture's span: not checked */
#define RESPCMP_A_NO_CHANGE 0x02u /* its write left the level as it was: no edge */
#define RESPCMP_A_NO_STIM   0x04u /* no stimulus edge caused it */
#define RESPCMP_A_NO_RESP   0x08u /* its response edge is not in the capture */
#define RESPCMP_A_EARLY     0x10u /* delay below the log's lower bound */
#define RESPCMP_A_LATE      0x20u /* delay above write_end - event + irq_bound */
#define RESPCMP_A_IRQ_NEG   0x40u /* cause after the kernel's timestamp */
#define RESPCMP_A_WINDOW    0x80u /* response edge outside its write window (by more
				      * than the map's tolerance + place_ns) */
#define RESPCMP_A_BAD (RESPCMP_A_NO_STIM | RESPCMP_A_NO_RESP | RESPCMP_A_EARLY | \
		       RESPCMP_A_LATE | RESPCMP_A_IRQ_NEG | RESPCMP_A_WINDOW)

/* What the log's header says about the run (respcmp_params_from_meta()). */
struct respcmp_params {
	int mode;                  /* enum respond_mode: 0 follow, 1 toggle, 2 pulse */
	int edge;                  /* 0 both, 1 rising, 2 falling (respond.edge) */
	int64_t debounce_ns;       /* respond.debounce */
	int64_t irq_bound_ns;      /* respond.irq_bound; 0: not known */
	int idle_level;            /* the output's level before the first write */
	/* the comparison's own */
	int64_t tolerance_ns;      /* < 0: the capture's resolution */
	int64_t first_seq;         /* >= 0: the capture's first response edge is
				    * the write of this log seq; -1: search */
	double max_drift_ppm;      /* 0: 500 */
};

void respcmp_params_init(struct respcmp_params *p);

/* One answer: a record that answers an event (not EDGE_F_NOEVENT). */
struct respcmp_answer {
	uint64_t seq;              /* the record's */
	size_t rec;                /* the record's index in respcmp.rec */
	uint64_t event_ns;         /* the kernel's timestamp, log clock */
	int64_t wb_off_ns, we_off_ns; /* write window - event */
	uint8_t level;             /* written */
	uint8_t status;            /* RESPCMP_A_* */
	size_t stim;               /* cause: stimulus edge index, SIZE_MAX none */
	size_t resp;               /* response edge index, SIZE_MAX none */
	double irq_ns;             /* event - (the cause's last change + debounce), log
				    * clock: the input's latency irq_bound covers */
	double delay_ns;           /* response - cause: the capture's difference on the
				    * log's clock (divided by 1 + drift) */
	double lo_ns, hi_ns;       /* the log's bounds on delay_ns (hi: INFINITY
				    * when irq_bound is 0) */
	double residual_ns;        /* response edge - write window (align.h) */
};

/* The capture's time base on the log's clock, and the response pairing:
 *     capture_ns = offset_ns + (1 + drift_ppm 1e-6) (log_ns - ref_ns) */
struct respcmp_map {
	int64_t ref_ns;
	double offset_ns, drift_ppm;
	bool inverted;             /* capture level = not log level */
	double fit_rms_ns;         /* of the inliers, about their windows' midpoints */
	double fit_se_ns;          /* the fitted line's standard error at the far end */
	double tolerance_ns;       /* resolution (or --tolerance) + 4 fit_se_ns */
	double place_ns;           /* half the median write window of the fit: the
				    * fit puts the pin's change at its window's
				    * midpoint on average, the log cannot say where
				    * in the window it is, so a mapped time (a
				    * stimulus edge's, a response edge's) may be
				    * off by this much */
	size_t npairs, inliers, outliers;
	size_t nmissing;           /* expected edges inside the span, not in the capture */
	size_t nextra;             /* response edges no write explains */
	size_t disagree;           /* pairs outside their write window by more than
				    * tolerance + place_ns */
	double max_abs_res_ns;     /* the largest |response edge - write window| */
	size_t *resp_of_want;      /* per expected edge: its response edge, SIZE_MAX none */
	size_t *want_of_resp;      /* per response edge: its expected edge, SIZE_MAX none */
	double *res_of_want;       /* response edge - write window, log clock (0 inside) */
	uint8_t *out_of_fit;       /* per expected edge: left out of the fit */
};

/* Percentiles of a measured quantity (exact: every value is held). */
struct respcmp_dist {
	size_t n;
	double min, p50, p99, max;
};

struct respcmp {
	struct respcmp_params p;
	/* inputs, owned */
	struct edge_rec *rec;
	size_t nrec;
	struct capture_edge *stim, *resp;
	size_t nstim, nresp;
	int64_t resolution_ps, span_lo_ps, span_hi_ps;
	/* the mapping */
	struct edge_rec *want;     /* the expected response edges, seq renumbered 0.. */
	size_t *want_rec;          /* per expected edge: its record index */
	size_t nwant;
	struct align_params ap;
	struct align_window w;
	struct align_result r;     /* align's search and seed only */
	struct respcmp_map m;      /* the mapping used (its own pairing and fit) */
	bool aligned, by_order;
	/* per answer */
	struct respcmp_answer *ans;
	size_t nans;
	size_t checked, bad;       /* answers inside the span; of those, not agreeing */
	size_t bad_by[8];          /* per status bit (index = bit number) */
	struct respcmp_dist irq, delay;
	/* stimulus edges: per edge a class, and the counts */
	uint8_t *stim_class;       /* RESPCMP_S_* */
	size_t stim_cause, stim_lost_kernel, stim_filtered_edge, stim_filtered_debounce,
	       stim_unexplained, stim_outside;
	size_t kernel_lost;        /* events the log says the kernel lost (covered answers) */
	size_t events_no_stim, answers_no_resp, resp_extra, resp_missing;
	/* the run summary's scope bounds, from the log alone: over the
	 * counted answers that changed the output, the least write_begin -
	 * event + debounce and the largest write_end - event + debounce +
	 * irq_bound (scope_max_ns unbounded when irq_bound is 0) */
	size_t scope_answers;
	int64_t scope_min_ns, scope_max_ns;
	enum compare_verdict verdict;
};

/* Stimulus edge classes. */
enum {
	RESPCMP_S_UNSEEN = 0,      /* before the first or after the last covered answer */
	RESPCMP_S_CAUSE,           /* caused an answered event */
	RESPCMP_S_LOST,            /* an event the kernel lost (the log's seqno gap) */
	RESPCMP_S_EDGE,            /* of the polarity respond.edge does not watch */
	RESPCMP_S_DEBOUNCE,        /* inside a debounce burst (its first edge is the cause) */
	RESPCMP_S_UNEXPLAINED,     /* no event, no seqno gap: the log never saw it */
};

/*
 * The comparison over arrays (unit tests; respcmp_run() underneath). Takes
 * ownership of @rec, @stim and @resp (malloc'd; freed by respcmp_free()
 * even on failure). @res_ps: the capture's sample interval; [@span_lo_ps,
 * @span_hi_ps] its recorded span. Returns the result, or NULL with errno
 * ENOMEM. Never fails on content: what does not fit is in the verdict.
 */
struct respcmp *respcmp_compute(const struct respcmp_params *p, struct edge_rec *rec, size_t nrec,
				struct capture_edge *stim, size_t nstim, struct capture_edge *resp,
				size_t nresp, int64_t res_ps, int64_t span_lo_ps, int64_t span_hi_ps);
void respcmp_free(struct respcmp *c);

/* Read respond.* and gpio.idle_level from a log's header into @p (the
 * comparison's own fields are left alone). 0, or -1 with "what: why". */
int respcmp_params_from_meta(struct respcmp_params *p, const struct edgelog_meta *m,
			     char *err, size_t errlen);

/* What `sqwave compare RESPOND_LOG CAPTURE` reads. */
struct respcmp_opts {
	const char *run;           /* "-": standard input */
	const char *capture;       /* "-": standard input */
	struct capture_opts copts; /* .channel is ignored */
	const char *stimulus;      /* channel; NULL: the capture's first */
	const char *response;      /* channel; NULL: the capture's second */
	int64_t tolerance_ns, first_seq;
	double max_drift_ppm;
};

/* The run and the capture as read, for the report. */
struct respcmp_run {
	struct respcmp *c;
	bool truncated;            /* the log has no footer */
	uint64_t half_period_ns;   /* the header's (run.half_period) */
	/* the log's note at the stop (docs/log-format.md): the run's own
	 * counts of lost events (after and in the warm-up) and of events it
	 * never answered; have_stop false: a log without one */
	bool have_stop;
	uint64_t events_lost, events_lost_warmup, events_unanswered;
	char capture_format[32];
	char stim_name[128], resp_name[128];
	double samplerate_hz;
};

/*
 * Read the respond log and both channels of the capture, then compute.
 * Memory: 32 bytes per log record, 24 per capture edge, plus align's.
 * COMPARE_OK with @out filled (respcmp_run_free()), else a status and one
 * sentence ("FILE:LINE: what" for bad input) in @err.
 */
enum compare_status respcmp_run(const struct respcmp_opts *o, struct respcmp_run *out,
				char *err, size_t errlen);
void respcmp_run_free(struct respcmp_run *run);

/* Whether @path is a respond log: its header says run.mode=respond. A
 * stream is read once, by whichever comparison gets it: it is taken for a
 * wave's (docs/compare.md). Anything that does not open is false, left for
 * the comparison to report. */
bool respcmp_log_is_respond(const char *path);

/* The stimulus edge class's name ("cause", "lost", ...). */
const char *respcmp_stim_class_name(unsigned cls);

#endif
