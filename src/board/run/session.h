/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run session: everything `sqwave run` (and `check --run`) sets up
 * around the RT loop, run, and torn down in the reverse order of setup. */
#ifndef SQW_SESSION_H
#define SQW_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stats/edgestats.h"
#include "config/config.h"
#include "run/soak.h"	/* struct run_info, the run's description */
#include "stats/verdict.h"

/*
 * Lifecycle, all from one thread (the caller's, which becomes the run's
 * main thread):
 *
 *	s = run_session_init(&params, &code, err, errlen);
 *	code = run_session_run(s);	  // or the preflight, which runs nothing
 *	... the verdict from run_session_info() and run_session_stats() ...
 *	code = run_session_close(s, code);  // the log's footer carries @code
 *	... the summary, JSON, JUnit ...
 *	run_session_fini(s);
 *
 * The session prints nothing itself: what it has to say while it runs (a
 * warning, a setup failure in order with what the teardown then says, the
 * signal that stops it) goes to the caller's say(); the status line goes to
 * params.status. Exit codes are enum sqw_exit (base/exitcode.h).
 */
struct run_session;

enum run_say { RUN_SAY_ERR, RUN_SAY_WARN, RUN_SAY_INFO };

struct run_session_params {
	struct config *cfg;       /* finalized (plan_finalize); the caller's, kept until fini */
	const char *board_file;   /* the board file's path, or "--chip/--line" */
	const char *profile_file; /* the profile's path; NULL if none */
	bool respond;             /* sqwave respond: answer the input's events
				   * (rt/respond.h) instead of the timed wave */
	bool preflight;           /* nothing will run: no sweep of a killed run's
				   * leftovers, no RT CPU chosen for the loads,
				   * no output reserved */
	FILE *status;             /* the status line (output.status_interval); NULL: none */
	/* one message, without prefix or newline; called from the caller's thread */
	void (*say)(void *ctx, enum run_say level, const char *text);
	void *say_ctx;
	/* An instrument beside the run (run --scope, set by the command in the
	 * lab build; NULL: none). Called from the main thread, never from an
	 * RT thread: with @start true once, when the run's counted edges begin
	 * (the first counted slot has come: after the warm-up), and, if it
	 * was, with @start false once the RT loops have ended, before the log
	 * closes. What it writes into @note ("key=value" lines, "" for none)
	 * is logged as a note event (docs/log-format.md). Its failures are its
	 * own to say; the run goes on. */
	void (*instrument)(void *ctx, bool start, char *note, size_t notelen);
	/* And once the log is closed, before the verdict is rendered (main
	 * thread; NULL: none): the instrument's reading judged against the
	 * closed log at @log, each check appended to @v, the run's verdict,
	 * with verdict_result_add_check(), so that the summary, its JSON,
	 * JUnit, result.txt and KCIDB carry it and a disagreement fails the
	 * run (exit 1). Not called when the run was not judged. */
	void (*instrument_judge)(void *ctx, const char *log, struct verdict_result *v);
	void *instrument_ctx;
};

/*
 * Check the configuration's cross-key rules, clear what a killed run left,
 * make the loads, check the outputs (never over an input or another
 * output), read the host, and block the stop signals (taken through a
 * signalfd until run_session_close()). Returns the session, or NULL with
 * @exit_code (SQW_EXIT_USAGE, SQW_EXIT_RUNTIME) and one sentence in @err.
 * Free with run_session_fini().
 */
struct run_session *run_session_init(const struct run_session_params *p, int *exit_code,
				     char *err, size_t errlen);

/*
 * The run: open the line and everything that allocates, the privileged
 * setup, the RT thread, the loads, the log, the recorder and the helpers;
 * then wait (signals, status line, phases) until the loop ends; then stop
 * every thread, put the line back to idle and release it. SQW_EXIT_OK when
 * the run happened (run_session_info() then describes it); otherwise the
 * exit code of the failure, which has been said.
 */
int run_session_run(struct run_session *s);

/* What the run was and what it measured; valid until run_session_fini(). */
const struct run_info *run_session_info(const struct run_session *s);

/* params.instrument_judge on line 0's verdict @v, if there is one and the
 * log has a path. */
void run_session_judge_instrument(struct run_session *s, struct verdict_result *v);
const struct edgestats *run_session_stats(const struct run_session *s);
const struct config *run_session_config(const struct run_session *s);
/* The lines of the run (gpio.line: one, or several; config/outputs.h), and
 * line @i's own description (its log, line, figures and phases; the run's
 * when there is one line) and statistics, valid as run_session_info(). */
/* A file of line @line in a run of several: @base with ".LINE" before its
 * extension ("run.sqwlog", line 2: "run.2.sqwlog"; "out.json": "out.2.json"),
 * the line's name kept to letters, digits, '-' and '_'; a @base that is a
 * character device (/dev/null) is every line's, itself. Malloc'ed; NULL:
 * out of memory. */
char *run_line_path(const char *base, const char *line);
/* Line @i's file of the output @base (--json, --junit, --results): @base
 * itself in a run of one line, for "" (none) and "-", else
 * run_line_path(). Malloc'ed; NULL: out of memory. */
char *run_session_line_file(const struct run_session *s, size_t i, const char *base);
size_t run_session_lines(const struct run_session *s);
const struct run_info *run_session_line_info(const struct run_session *s, size_t i);
const struct edgestats *run_session_line_stats(const struct run_session *s, size_t i);
const char *run_session_line_name(const struct run_session *s, size_t i);
/* The stop signal's number (0 if none). */
int run_session_signal(const struct run_session *s);

/*
 * Close the log with @exit_code in its footer, end the loads, and let the
 * stop signals kill again (the outputs after this may block on a FIFO).
 * Returns @exit_code, or SQW_EXIT_RUNTIME when the log could not be
 * completed (said). Once; run_session_fini() does it if the caller did not.
 */
int run_session_close(struct run_session *s, int exit_code);

/* Say @fmt through the session's say() (for the caller's outputs). */
void run_session_say(const struct run_session *s, enum run_say level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Free everything, restore the signal mask init found. NULL is allowed. */
void run_session_fini(struct run_session *s);

#endif
