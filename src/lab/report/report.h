/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sqwave report: the comparison table users publish, one row per run and
 * phase (label, board, kernel, loads and their proof, Tmin/Tmax with
 * bounds, wake latency tail, missed periods, verdict), from JSON summaries
 * of runs (sqwave run --json) and analyses of logs. Rows are made here;
 * cmd_report.c picks the inputs and the output formats. */
#ifndef SQW_REPORT_H
#define SQW_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/jsonread.h"
#include "log/pin.h"
#include "report/boardpair.h"
#include "report/instrow.h"

#define REPORT_HIST_MAX 4096
#define REPORT_MAX_PHASES 1024     /* per document: rows stay bounded by the input */
#define REPORT_PROOF_FIGS 16       /* judged figures a row keeps (proof.c's loads) */

struct report_row {
	char source[512];          /* the file the row came from */
	/* the log the row's figures are of (a summary's run.log_path, a log's
	 * analysis' source.path; "" none) and its records: what an
	 * instrument's comparison of that log names (report_inst_run) */
	char log_path[512];
	bool have_records;
	uint64_t records;
	bool have_start;           /* the run's start (realtime ns), when the document has it */
	uint64_t start_realtime_ns;
	char label[64];
	char phase[64];            /* "run" for a run without phases (as a log's analysis
				    * names it) */
	char board[64];
	char kernel[160];
	bool preempt_rt;
	bool rt_ok;
	char loads[512];           /* "coremark, ping-flood" or "-" */
	char proof[512];           /* "coremark own 97% of CPU 0 (cgroup2; system-wide
				    * 100%), lo 131000 pkt/s, CoreMark 7753 (4 runs)" */
	/* the figures the proof was judged by (src/board/loads/proof.c): a CPU
	 * load's own CPU time where the document has it, else the busy of its
	 * CPUs; a flood's packets/s; an idle phase's busy; CoreMark's valid
	 * scores. value < 0: no sample */
	struct report_proof_fig {
		char load[64];
		const char *figure;    /* own_busy_pct, busy_pct, packets_per_s, valid_scores */
		double value;
		char of[64];           /* the CPUs or the interface ("" for scores) */
	} figs[REPORT_PROOF_FIGS];
	size_t nfigs;
	bool load_applied;
	bool proof_incomplete;     /* the phase's proof had gaps above its bound */
	char proof_state[24];      /* what the proof shows, as the document says it
				    * ("idle proven", "LOAD APPLIED", docs/soak.md);
				    * "idle unproven" when it does not say */
	uint64_t edges, missed;
	struct pin pin;            /* what the pin should do: the document's (log/pin.h);
				    * its nominal_ns are what the row's positive and
				    * negative pulses should measure (0: none) */
	int64_t half_ns;           /* the pin's half period; 0 in a respond run: no grid */
	bool respond;              /* a run of sqwave respond: edges are its writes,
				    * missed its lost events, wake from the event */
	bool have_response;
	int64_t response_max_ns;   /* respond: the latest write end after its event */
	/* respond (report_row_is_respond()): what its own table shows. The
	 * answers and their response latency (event -> write end; p50 and p99
	 * where the document has them), events lost (missed) and those of the
	 * warm-up, events never answered (still queued at the stop; unknown
	 * from an older run or a phase), and the scope's bounds (input edge ->
	 * output edge; the run's row only, max unknown without
	 * respond.irq_bound) */
	uint64_t answers;
	bool have_resp_center;
	int64_t resp_p50_ns, resp_p99_ns;
	bool have_lost_warmup, have_unanswered;
	uint64_t lost_warmup, unanswered;
	bool have_scope_min, have_scope_max;
	int64_t scope_min_ns, scope_max_ns;
	bool have_pulses;
	int64_t tmin_ns, tmin_lo_ns, tmax_ns, tmax_hi_ns;
	bool have_wake;
	int64_t p99_ns, p9999_ns, max_ns;
	bool have_center;          /* p50_ns and mean_ns given (older documents may lack them) */
	int64_t p50_ns, mean_ns;   /* wake latency's median and mean */
	int64_t duration_ns;       /* counted edges and missed slots x half period: the
				    * time the row's figures cover, the same from a log
				    * and its summary; 0 when unknown */
	int64_t lim_tmin_ns, lim_tmax_ns; /* 0: none */
	char verdict[32];          /* PASS, FAIL, LOAD NOT APPLIED, NO LIMITS */
	char run_failure[256];     /* why the whole run failed, whatever the row's own
				    * figures (records dropped, stopped at a break,
				    * ...); "" if it did not */
	/* run --loopback, a row of the whole run only (one of several phases
	 * has none: the document's loopback member is the run's): the kernel's Tmin and
	 * Tmax (any polarity), its lag behind the write window (event -
	 * write_end, p99), edges it did not see and events before their write */
	bool have_lb, lb_have_pulses, lb_have_lag;
	int64_t lb_tmin_ns, lb_tmax_ns, lb_lag_p99_ns;
	uint64_t lb_no_event, lb_early;
	/* pulse-width histogram (any polarity) for the SVG; nbins 0: none;
	 * the pulses off its bins, shorter and longer (its below/above and
	 * shorter/longer: docs/json-summary.md) */
	int64_t hist_lo_ns, hist_bin_ns;
	size_t nbins;
	uint64_t *hist;
	uint64_t hist_shorter, hist_longer;
};

struct report {
	struct report_row *rows;
	size_t n, cap;
	/* two boards on one grid (compare RUN_A RUN_B CAPTURE --json): the
	 * second table, one row per comparison (report/boardpair.h) */
	struct board_pair *pairs;
	size_t npairs, cappairs;
	/* an instrument on one run (compare RUN CAPTURE|--scope ... --json):
	 * the third table, one row per comparison (report/instrow.h) */
	struct inst_row *insts;
	size_t ninsts, capinsts;
};

/* Rows of one document (a sqwave-summary or sqwave-analysis JSON): one per
 * phase, or one for the run; a two-board comparison (sqwave-compare, mode
 * "boards") is a row of the second table, a comparison of one log (an
 * analyzer's capture, a scope's readings) a row of the instruments table. 0, or -1 with a reason and no row added (not a
 * sqwave document, a newer schema, a member the table uses that has another
 * type or is out of range: "SOURCE:LINE: phases[1].counts.edges must be ..."). */
int report_add_doc(struct report *r, const struct jv *doc, const char *source, char *err,
		   size_t errlen);
void report_free(struct report *r);

/* Whether @w is a respond run's row (its pin's kind): a run of its own kind
 * (its own table, its own JSON members; docs/report.md). */
bool report_row_is_respond(const struct report_row *w);

/* The run instrument row @i checks, when it is among the rows: the first
 * row whose log has the comparison's log's file name (the part after its
 * last '/': the documents may have been made in other directories) and
 * its number of records. false: none (its log alone names the run). */
bool report_inst_run(const struct report *r, size_t i, struct inst_run *run);

/* The table as aligned text, as Markdown, as JSON (schema sqwave-report):
 * the runs of the wave, then respond's runs (their answers), then the
 * two-board comparisons, then the instruments, each table only when it
 * has rows. */
void report_write_text(FILE *f, const struct report *r);
void report_write_markdown(FILE *f, const struct report *r);
void report_write_json(FILE *f, const struct report *r);
/* Pulse-width distributions of every row overlaid (log counts), each
 * row's Tmin and Tmax marked, the limits and each row's nominal widths
 * drawn (class "nominal nominal-pos" / "nominal-neg"), the legend under the
 * plot inside the picture. */
void report_write_svg(FILE *f, const struct report *r);

/* The SVG's width axis, [lo, hi] ns, over what matters: every row's
 * nominal widths, its limits and its bulk (the bins of its histogram that
 * hold the 0.5th and 99.5th percentile; a row without a histogram: its
 * Tmin/Tmax bounds), with a margin; lo >= 0, lo < hi; logarithmic (log)
 * when those span a decade or more. What lies beyond is off scale. */
struct report_axis {
	int64_t lo, hi;
	bool log;
};
void report_svg_axis(const struct report *r, struct report_axis *ax);

/* Whether every row passed (exit 0) or one did not (exit 1); a two-board
 * row and an instrument's pass when their comparison's exit code was 0. */
bool report_all_pass(const struct report *r);

#endif
