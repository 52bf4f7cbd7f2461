/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict of a run against the profile's limits and its loads' proof:
 * every check with its figures, in one order, for the summary's text and
 * JSON, the CI outputs and check --run alike. Pure: prints nothing, keeps
 * no state; every call is safe from any thread (not the RT one). */
#ifndef SQW_VERDICT_H
#define SQW_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "stats/edgestats.h"
#include "stats/runinfo.h"

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

/* The verdict's failures against @r: their count, each sentence to @fn
 * (NULL: only count). verdict_judge() and the summary's text and JSON. */
typedef void (*verdict_violation_fn)(void *ctx, const char *msg);
unsigned verdict_violations(const struct config *c, const struct edgestats_result *r,
			    const struct run_info *ri, verdict_violation_fn fn, void *ctx);
/* verdict_checks() on @r, with (@phase_limits) or without each phase's own
 * figures against the run's limits (the JSON summary lists them without). */
unsigned verdict_checks_result(const struct config *c, const struct edgestats_result *r,
			       const struct run_info *ri, bool phase_limits, verdict_check_fn fn,
			       void *ctx);
/* The verdict's word for @nviol violations (verdict_violations()). */
const char *verdict_word_n(const struct config *c, const struct run_info *ri, unsigned nviol);
/* Whether any limit of the wave is set (else a run with no other violation
 * is "NO LIMITS"). */
bool verdict_limits_set(const struct config *c);
/* How many of the verdict's failures are loads' proofs ("load not applied"). */
unsigned verdict_load_failures(const struct run_info *ri);

/* What phase @ph's proof says (docs/soak.md): "LOAD APPLIED", "LOAD NOT
 * APPLIED", "proof incomplete", "idle proven", "not idle", "idle unproven"
 * or "no proof". A static string. */
const char *verdict_phase_proof_state(const struct run_info *ri, const struct run_phase *ph);
/* The run's idle and load words: the worst of its phases' (NULL: no phase
 * of that kind). */
void verdict_run_proof_states(const struct run_info *ri, const char **idle, const char **load);
/* The idle requirement of a phase without loads; NULL: none was set. */
const struct proof_req *verdict_phase_idle_req(const struct run_phase *ph);

#endif
