/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict of a run against the profile's limits and its loads' proof:
 * every check with its figures, in one order, computed once after the run
 * (struct verdict_result) and carried as data to every renderer: the
 * summary's text and JSON, the CI outputs, check --run. Pure: prints
 * nothing, keeps no state; every call is safe from any thread (not the RT
 * one). */
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
 * (or an idle phase that was not idle), "PROOF INCOMPLETE" when they are
 * all gaps in the proof. */
const char *verdict_word(const struct config *c, const struct edgestats *s,
				 const struct run_info *ri);

/*
 * One check of the verdict, passed, failed or not made (a limit left unset,
 * a phase never reached). Figures are in @unit: durations in ns, counts,
 * percent of a CPU, packets per second. Every pointer is valid only until the
 * callback returns.
 */
enum verdict_check_result { VERDICT_CHECK_PASS, VERDICT_CHECK_FAIL, VERDICT_CHECK_SKIP };
enum verdict_unit { VERDICT_UNIT_NONE, VERDICT_UNIT_NS, VERDICT_UNIT_COUNT,
		    VERDICT_UNIT_PERCENT, VERDICT_UNIT_PPS };

struct verdict_check {
	const char *name;         /* what was checked ([a-z_]): edges, dropped, write_errors,
				   * log_complete, no_error, tmin, tmax, wake_latency_max,
				   * missed_periods; a load's running, cpu_busy, packets_per_s,
				   * valid_scores */
	enum verdict_check_result result;
	bool in_verdict;          /* false: a phase's own figures against the run's limits
				   * (a failure there always comes with the run's own; the
				   * JSON summary lists them not) */
	const char *key;          /* the limit's key ("limits.tmax"), else NULL */
	const char *phase;        /* NULL: the whole run */
	const char *load;         /* a load's checks: its name, else NULL */
	const char *instrument;   /* an instrument's check (verdict_result_add_check()):
				   * "scope", "capture"; else NULL */
	enum verdict_unit unit;
	bool has_observed, has_limit, has_estimate, has_edge;
	double observed;          /* the figure checked (tmin: the lowest bound) */
	double limit;             /* what it had to be: at least (limit_is_min) or at most */
	bool limit_is_min;
	double estimate;          /* tmin/tmax: the pulse's width estimate */
	bool has_interval;        /* an instrument's reading: where it had to lie */
	double lo, hi;
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
const char *verdict_check_result_name(enum verdict_check_result r);
const char *verdict_unit_name(enum verdict_unit u);

/*
 * The verdict of a run, or of one line of several, computed once after the
 * run by verdict_result_compute() and handed to every renderer as it is:
 * none of them judges again, so none can say another word.
 */
struct verdict_result {
	enum verdict verdict;     /* PASS, FAIL (a violation), NO_LIMITS */
	const char *word;         /* as verdict_word(): "PASS", "NO LIMITS", "FAIL",
				   * "LOAD NOT APPLIED", "PROOF INCOMPLETE"; static */
	bool limits_set;          /* verdict_limits_set() */
	unsigned violations;      /* the failed checks with in_verdict, in order */
	unsigned load_failures;   /* of them, loads' proofs (a phase's checks) */
	size_t nchecks;
	struct verdict_check *checks; /* every check in verdict_checks()'s order, the
				   * phases' own figures included; its strings owned */
};

/*
 * Judge @r (a run's or one line's statistics) with @ri against @c into @v:
 * the one walk of verdict_checks() whose checks every renderer reads. 0, or
 * -1 with errno ENOMEM and "out of memory" in @err (@v then holds nothing
 * to free). The
 * caller frees @v with verdict_result_free(). @v keeps no pointer into @c,
 * @r or @ri.
 */
int verdict_result_compute(struct verdict_result *v, const struct config *c,
			   const struct edgestats_result *r, const struct run_info *ri, char *err,
			   size_t errlen);
void verdict_result_free(struct verdict_result *v);
/*
 * A check made outside the walk, after the run: an instrument's reading
 * judged against the closed log by the lab (run --scope). @ck is copied
 * (name, key and instrument must be static strings; phase, load and
 * message are copied), counted in the verdict (in_verdict is set): a
 * failure makes the verdict FAIL, its word "INSTRUMENT DISAGREES" when the
 * instrument's are the only failures. 0, or -1 with errno ENOMEM (@v
 * unchanged).
 */
int verdict_result_add_check(struct verdict_result *v, const struct verdict_check *ck);
/* Each of @v's violations' sentences to @fn, in order; returns their number. */
typedef void (*verdict_violation_fn)(void *ctx, const char *msg);
unsigned verdict_result_violations(const struct verdict_result *v, verdict_violation_fn fn,
				   void *ctx);
/* @v's violations appended to @why, one line each, as verdict_judge() writes
 * them (cut where @len ends). */
void verdict_result_why(const struct verdict_result *v, char *why, size_t len);

/* Whether any limit of the wave is set (else a run with no other violation
 * is "NO LIMITS"). */
bool verdict_limits_set(const struct config *c);
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
