/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run's exit code from what happened: the one place that maps a run's end
 * and verdict to 0, 1, 2, 3 or 128 + N. */
#include "cmd/runexit.h"

#include "base/exitcode.h"

int runexit_code(const struct run_end *e)
{
	if (e->log_incomplete)	/* whatever else: its footer is not the run's */
		return SQW_EXIT_RUNTIME;
	if (e->status != SQW_EXIT_OK)
		return e->status;
	if (e->error || e->lost)
		return SQW_EXIT_RUNTIME;
	if (e->signal && e->finite)
		return 128 + e->signal;
	return e->verdict == VERDICT_FAIL ? SQW_EXIT_LIMIT : SQW_EXIT_OK;
}
