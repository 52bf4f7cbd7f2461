/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A comparison as checks of a verdict (stats/verdict.h): what every CI
 * document renders, for compare's own JUnit and result.txt and for a run's
 * verdict when run --scope judges its scope against the closed log. */
#ifndef SQW_COMPARECHECK_H
#define SQW_COMPARECHECK_H

#include "compare/compare.h"
#include "stats/verdict.h"

/*
 * Append the checks of @c (compare_run()'s result) to @v with
 * verdict_result_add_check(), instrument "capture" or "scope", in order:
 * with a capture "edges" (the edges that disagree, are missing or extra:
 * at most 0; a capture that does not place fails it) and "coverage" (the
 * percent of the run's edges in the capture's covered time, at least
 * --min-coverage; skipped, with its figure, without one); with scope readings, per reading "tmin_pos" ... "tmax_any"
 * (the reading in ns, the interval it was judged against, its coverage in
 * words), then per polarity read "coverage_pos" ... (the scope's count as
 * a percent of the run's pulses: fails when it counted more pulses than
 * the run made, or none; skipped when the count is unknown). Figures and
 * sentences are the ones compare's text and JSON state. 0, or -1 with
 * errno ENOMEM (the checks so far are kept).
 */
int comparecheck_add(const struct compare *c, struct verdict_result *v);

/*
 * compare --junit, --results: @c's checks as JUnit XML at @junit, one suite
 * "sqwave.BOARD.lineL.compare" (the log's board and line; properties: the
 * log, the capture or scope, the verdict), and as LAVA result.txt lines
 * ("capture.edges pass 0 count") at @results; either NULL: not written;
 * "-": standard output. 0, or -1 with one sentence in @err (ENOMEM, or the
 * file that could not be written, nothing of it left half-written).
 */
int comparecheck_write(const struct compare *c, const char *junit, const char *results,
		       char *err, size_t errlen);

#endif
