/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict of `sqwave check --run`: the run's own verdict, as its report
 * computed it, beside its log read back through the run's statistics and
 * verdict rules, judged as one finding. */
#ifndef SQW_CHECK_RUN_H
#define SQW_CHECK_RUN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "check/check.h"
#include "stats/edgestats.h"
#include "summary/summary.h"
#include "run/runreport.h"
#include "run/session.h"

struct config;

/* One polarity's widths (or both together): Tmin/Tmax and their bounds. */
struct check_run_widths {
	uint64_t n;               /* counted pulses */
	int64_t tmin_ns, tmax_ns, tmin_lo_ns, tmax_hi_ns;
};

/* What the short run gave, from its log. */
struct check_run_fig {
	struct pin pin;           /* what the pin should do: the log's */
	uint64_t edges, missed;
	uint64_t far;             /* counted pulses far from nominal (check_run_pulse_far) */
	int64_t far_min_ns, far_max_ns; /* the narrowest and widest of them */
	/* PIN_POS, PIN_NEG, and [2] both together */
	struct check_run_widths w[3];
	int64_t wake_p99_ns, wake_max_ns;
	enum verdict verdict;     /* the log's, by the run's own rule (verdict_judge) */
	char violations[1024];    /* its failures, one per line ("" when none) */
};

/* How far off its nominal a pulse of @p may be before it is "far": half the
 * shorter nominal width (250 us for a 50 % wave of 500 us, 50 us for a 100/900
 * wave): an edge that late or early is what a missed period or a stall
 * leaves. 0: @p has no nominal width, nothing is far. */
int64_t check_run_far_ns(const struct pin *p);

/* Whether a pulse of polarity @pol and width @width_ns is far from @p's
 * nominal for it: off by check_run_far_ns() or more. Never for a polarity
 * without a nominal (a respond run's answers: the input times them). */
bool check_run_pulse_far(const struct pin *p, enum pin_polarity pol, int64_t width_ns);

/* A counter of far pulses and the figures: feed each record with
 * check_run_add() (after edgestats_add() on @st), then
 * check_run_figures(). */
void check_run_add(struct check_run_fig *g, const struct edgestats *st);
/* The figures of @st (fed), judged by @c's limits.* with @ri's integrity
 * facts (dropped records, stop reason), as the run judged itself. */
void check_run_figures(struct check_run_fig *g, const struct edgestats *st,
		       const struct config *c, const struct run_info *ri);

/* Read the run's log at @path and fill @g by check_run_add() and
 * check_run_figures() with @c. 0, or -1 with one sentence in @err. */
int check_run_read_log(const char *path, const struct config *c, struct check_run_fig *g,
		       char *err, size_t errlen);

/*
 * The run.verdict finding. @run_failed: the run's own verdict failed (a
 * limit, a load's proof, its integrity). FAIL when either the run or its
 * log says a limit is violated; without any limits.* set, never PASS: WARN "NO LIMITS"
 * with what the board gave and what broke (missed periods, pulses far from
 * nominal); PASS only within limits that are set, each named with its value
 * and origin beside the figures. @log and @dur name the run.
 */
void check_run_judge(struct check_report *r, const struct config *c, bool run_failed,
		     const struct check_run_fig *g, const char *log, const char *dur);
/* The same for @line, one of several (the finding run.verdict.LINE; "" is
 * run.verdict). */
void check_run_judge_line(struct check_report *r, const struct config *c, bool run_failed,
			  const struct check_run_fig *g, const char *line, const char *log,
			  const char *dur);

/* One line of the short run: its log and what it gave. */
struct check_run_line {
	char line[64];            /* gpio.line's item; "" for a run of one line */
	char *log;                /* its log (several lines: LOG.LINE.ext); owned */
	struct check_run_fig fig;
};

/* What the short run of `check --run` gave. Free with check_run_free(). */
struct check_run {
	bool done, judged;        /* it ran; every line's log was read back and judged */
	int exit_code;            /* the run's, by check_run_params.exit_code */
	enum verdict verdict;     /* the run's own (its lines', computed once by its
				   * report): FAIL, PASS, NO_LIMITS; judged only */
	char log[PATH_MAX];       /* the log as given (several lines: each line's below) */
	size_t nlines;
	struct check_run_line *lines; /* nlines, in gpio.line's order */
};

/* The verdict's word of one line: "FAIL" when the run's own verdict failed
 * (@run_failed) or the line's log does, "NO LIMITS", "PASS". */
const char *check_run_word(bool run_failed, const struct check_run_fig *g);

void check_run_free(struct check_run *cr);

struct check_run_params {
	const char *board_path, *profile_path; /* as the check found them; "" none */
	const char *root;         /* check --root: a copied tree is never run */
	int64_t run_ns;           /* run.duration of the run */
	FILE *text;               /* the check's text: the run's summary goes there too */
	FILE *note;               /* the line that says the run starts */
	/* the run's messages (run_session_params.say) */
	void (*say)(void *ctx, enum run_say level, const char *text);
	void *say_ctx;
	/* the command's rule for the run's exit code (docs/sqwave.1), which
	 * the log's footer and check_run.exit_code carry: check gives run's
	 * own. NULL: the session's status alone, nothing judged (0 for a run
	 * that happened) */
	run_end_code_fn exit_code;
};

/*
 * A short run through the run session (the code of `sqwave run`, in this
 * process): the board, profile and every command-line setting of @c, then
 * the duration, no warm-up, a log (output.log, or sqwave-check-STAMP.sqwlog),
 * quiet. Its summary prints as `sqwave run` prints it; its verdict is the
 * run.verdict finding in @r, from the run's own verdict and its logs read
 * back (or SKIP: a copied tree, a FAIL above; FAIL: the run failed; or
 * incomplete: a signal, an unreadable log). @cr says what ran. Main thread.
 */
void check_run_short(struct check_report *r, const struct config *c,
		     const struct check_run_params *p, struct check_run *cr);

#endif
