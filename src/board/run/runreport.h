/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end of a run session: each line's verdict computed once, the log closed
 * with the exit code its command decides, then its summary, JSON, JUnit and
 * LAVA results from those verdicts. `sqwave run`, `respond` and `check --run`
 * end a run through here. */
#ifndef SQW_RUNREPORT_H
#define SQW_RUNREPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "run/session.h"
#include "stats/verdict.h"

/* What a run ended with: what its command maps to an exit code
 * (docs/sqwave.1), and what its report renders. Filled by runreport_finish(),
 * freed by runreport_end_free(). */
struct run_end {
	int status;               /* run_session_run()'s: SQW_EXIT_OK the run happened;
				   * else the code of its failure (said), nothing judged */
	bool error;               /* it stopped on an error (the RT loop, a write, the log) */
	int signal;               /* the signal that stopped it; 0 none */
	bool finite;              /* run.duration was set: a signal cut it short */
	bool log_incomplete;      /* closing a log failed (said) */
	unsigned lost;            /* outputs not made (said): a document not written, a
				   * line's verdict or files out of memory */
	size_t nlines;            /* the run's lines; 0 when it did not happen */
	struct verdict_result *lines; /* each line's verdict (nlines), computed once; an
				   * entry with no word was lost (out of memory) */
	enum verdict verdict;     /* the run's, the worst of its lines': FAIL when one
				   * failed, PASS when every one passed, else NO_LIMITS */
};

/* The command's rule: the exit code of a run that ended as @e says, at the
 * moment it is asked (runreport_finish() asks before the log is closed, for
 * its footer, and before the line verdict of several). */
typedef int (*run_end_code_fn)(const struct run_end *e);

/*
 * @ran is what run_session_run() returned. When the run happened: each
 * line's verdict (limits.*, integrity, the loads' proofs) into @e, computed
 * once; then run_session_close() with @code(@e) in the log's footer; then
 * the text summary on @text (on stderr instead when output.json,
 * output.junit or output.results is "-": a machine reads standard output),
 * the files the configuration names and, with several lines, the run's
 * verdict line, every one rendered from @e's verdicts. A log that could not
 * be closed is a fact the verdict reads (its log_complete check): the
 * verdicts are computed again then, so that the summary says why. Failures
 * are said through the session and recorded in @e; the caller's exit code is
 * @code(@e) once this returns. Main thread; the caller frees @e with
 * runreport_end_free() and still @s with run_session_fini().
 */
void runreport_finish(struct run_session *s, int ran, FILE *text, run_end_code_fn code,
		      struct run_end *e);
void runreport_end_free(struct run_end *e);

#endif
