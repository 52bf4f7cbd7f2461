/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The exit code of a run (docs/sqwave.1), decided from what its session and
 * report say happened: for run, respond and the short run of check --run. */
#ifndef SQW_RUNEXIT_H
#define SQW_RUNEXIT_H

#include "run/runreport.h"

/*
 * 3 when a log could not be closed, else the session's failure code when the
 * run did not happen; 3 when it stopped on an error or an output was lost;
 * 128 + N when signal N cut a run of a set duration short; 1 when a line's
 * verdict failed (a limit, a load's proof, the run's integrity); else 0
 * (PASS or NO LIMITS). A run_end_code_fn for runreport_finish(). Pure.
 */
int runexit_code(const struct run_end *e);

#endif
