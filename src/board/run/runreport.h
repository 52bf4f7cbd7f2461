/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end of a run session: its verdict, the exit code its log's footer
 * carries, then its summary, JSON, JUnit and LAVA results. `sqwave run` and
 * `check --run` end a run through here. */
#ifndef SQW_RUNREPORT_H
#define SQW_RUNREPORT_H

#include <stdio.h>

#include "run/session.h"

/*
 * @ran is what run_session_run() returned. When the run happened: the
 * verdict (limits.*, integrity) and the exit code (0, 1 a limit violated,
 * 3 an error met, 128 + N a finite run stopped by signal N); then
 * run_session_close() with that code; then the text summary on @text (on
 * stderr instead when output.json, output.junit or output.results is "-":
 * a machine reads standard output), and the files the configuration names.
 * Failures are said through the session. Returns the run's exit code.
 * Main thread; the caller still frees @s with run_session_fini().
 */
int runreport_finish(struct run_session *s, int ran, FILE *text);

#endif
