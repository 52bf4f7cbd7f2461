/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end-of-run summary (text and JSON) and the verdict against the
 * profile's limits. */
#ifndef SQW_SUMMARY_H
#define SQW_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "analysis/edgestats.h"
#include "analysis/phasestats.h"
#include "loads/proof.h"
#include "base/sysinfo.h"
#include "run/tracebreak.h"

/* One phase of a run (soak.c fills all but stats). */
struct run_phase {
	const char *name;
	int64_t start_off_ns;          /* from the end of the warm-up */
	int64_t duration_ns;           /* 0: open-ended */
	const struct edgestats *stats; /* the phase's edges */
	const struct proof_phase *proof;
	const struct proof_req *reqs;  /* what its loads had to show */
	size_t nreqs;
	const char *const *load_specs; /* each load in the --load form */
	size_t nloads;
	bool sampled;                  /* proof-of-load samples were taken */
	bool advisory;                 /* its proof is shown, not judged (a run without
					* loads: nothing asked for a comparison) */
	bool gaps_known;               /* max_gap_ns measured (the phase was reached) */
	uint64_t max_gap_ns;           /* longest stretch without a reading */
	uint64_t gap_bound_ns;         /* above it: "proof incomplete" */
};

struct run_info {
	const char *board_file;
	const char *profile_file;     /* NULL if none */
	const char *log_path;
	const char *gpio_desc;        /* gpio_out_describe() */
	struct sysinfo_host host;     /* kernel, PREEMPT_RT, cmdline, cpu model */
	bool rt_ok;                   /* SCHED_FIFO + mlockall in force */
	const char *non_rt_reason;    /* why not, when !rt_ok (--allow-non-rt) */
	uint64_t start_realtime_ns, end_realtime_ns;
	uint64_t records_logged;
	uint64_t dropped;             /* ring overflow */
	uint64_t write_errors;
	/* RT thread, measured part only (after warm-up) */
	long minflt, majflt, nivcsw;
	int stop_reason;              /* enum edgelog_stop */
	int stop_signal;              /* signal number when stopped by one */
	bool log_error;               /* log I/O failed (ENOSPC...) */
	/* the soak: phases and their loads (nphases 0: a plain run) */
	const char *label;            /* run.label, "" if none */
	const char *containment;      /* how loads were held; "" without loads */
	size_t nphases;
	const struct run_phase *phases;
	/* their statistics, phase i of phases[i]: what each one ran (NULL:
	 * the planned lengths are shown) */
	const struct phasestats *phasestats;
	int min_busy_pct;             /* proof.min_busy */
	/* the proof of a run without phases in phases[] (its one implicit
	 * phase), for the run-level "proof"; NULL: phases[] or none */
	const struct run_phase *run_proof;
	const char *sampler_sched;    /* soak_sampler_sched(); NULL: unknown (a log) */
	/* --break: traces saved, the first one */
	unsigned breaks;
	char break_text[1024];        /* with what the trace shows, when explained */
	char break_cause[128];        /* short cause ("" if none, or an old log) */
	char break_trace[4200];
	struct tracebreak_hit *break_hits; /* every break handled, in order (owned by the caller) */
	size_t nbreak_hits;
	/* run.spin: the lead the RT thread armed its wake-ups with (0: off);
	 * with auto, the lead at the end and the range it took */
	bool spin_auto;
	int64_t spin_lead_ns, spin_lead_min_ns, spin_lead_max_ns;
	uint64_t spin_rearms;         /* auto: times the lead changed */
	int rt_cpu;                   /* rt.cpu, -1 when not pinned */
	long rt_runtime_us, rt_period_us; /* RT throttling; runtime -1: none */
};

/* NO_LIMITS: nothing failed, but no limits.* key is set, so nothing about
 * the wave was checked (exit 0, as a pass; the text and JSON say so). */
enum verdict { VERDICT_PASS = 0, VERDICT_FAIL = 1, VERDICT_NO_LIMITS = 2 };

/* Check the limits.* keys; each violation appended to @why as a line. */
enum verdict verdict_judge(const struct config *c, const struct edgestats *s,
				     const struct run_info *ri, char *why, size_t len);
/* The verdict's word, as the summary prints it: "PASS", "NO LIMITS", "FAIL",
 * or "LOAD NOT APPLIED" when the only failures are loads that did not show
 * (or an idle phase that was not idle). */
const char *verdict_word(const struct config *c, const struct edgestats *s,
				 const struct run_info *ri);

/*
 * One check of the verdict, passed, failed or not made (a limit left unset,
 * a phase never reached). Figures are in @unit: durations in ns, counts,
 * percent of a CPU, packets per second. Every pointer is valid only until the
 * callback returns.
 */
enum verdict_result { VERDICT_CHECK_PASS, VERDICT_CHECK_FAIL, VERDICT_CHECK_SKIP };
enum verdict_unit { VERDICT_UNIT_NONE, VERDICT_UNIT_NS, VERDICT_UNIT_COUNT,
		    VERDICT_UNIT_PERCENT, VERDICT_UNIT_PPS };

struct verdict_check {
	const char *name;         /* what was checked ([a-z_]): edges, dropped, write_errors,
				   * log_complete, no_error, tmin, tmax, wake_latency_max,
				   * missed_periods; a load's running, cpu_busy, packets_per_s,
				   * valid_scores */
	enum verdict_result result;
	bool in_verdict;          /* false: a phase's own figures against the run's limits
				   * (a failure there always comes with the run's own) */
	const char *key;          /* the limit's key ("limits.tmax"), else NULL */
	const char *phase;        /* NULL: the whole run */
	const char *load;         /* a load's checks: its name, else NULL */
	enum verdict_unit unit;
	bool has_observed, has_limit, has_estimate, has_edge;
	double observed;          /* the figure checked (tmin: the lowest bound) */
	double limit;             /* what it had to be: at least (limit_is_min) or at most */
	bool limit_is_min;
	double estimate;          /* tmin/tmax: the pulse's width estimate */
	uint64_t seq;             /* has_edge: where, as edge number, intended time and */
	uint64_t intended_ns;     /* seconds after the first counted edge */
	double t_s;
	const char *message;      /* FAIL: the violation's sentence; SKIP: why not checked */
};

typedef void (*verdict_check_fn)(void *ctx, const struct verdict_check *ck);

/*
 * Every check, in a fixed order: the run's (edges, dropped, write errors,
 * log, error, then each limit), then per phase its own figures against the
 * limits (in_verdict false) and its loads' proofs. The failures with
 * in_verdict are the verdict's violations, in the same order and with the
 * same sentences. Returns their number (0: a pass).
 */
unsigned verdict_checks(const struct config *c, const struct edgestats *s,
			const struct run_info *ri, verdict_check_fn fn, void *ctx);

/* "pass", "fail", "skip"; "ns", "count", "percent", "packets/s" ("" for none). */
const char *verdict_result_name(enum verdict_result r);
const char *verdict_unit_name(enum verdict_unit u);

/* Human summary to @f. */
void summary_print_text(FILE *f, const struct config *c, const struct edgestats *s,
			const struct run_info *ri);

/* The phases of @ri (label, containment, breaks, each phase's statistics and
 * load proof): the text section, and the JSON members "label",
 * "containment", "breaks" and "phases" of the current object. Shared by the
 * run summary and analyze. */
struct json_writer;
void summary_phases_text(FILE *f, const struct run_info *ri);
void summary_phases_json(struct json_writer *w, const struct run_info *ri);

/* JSON summary (docs/json-summary.md) to @path; -1 with errno on failure. */
int summary_write_json(const char *path, const struct config *c, const struct edgestats *s,
		       const struct run_info *ri);

#endif
