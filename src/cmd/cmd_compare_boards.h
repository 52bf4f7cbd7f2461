/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave compare RUN_A RUN_B CAPTURE`: two boards on one grid against one
 * capture of both pins (the join: src/lab/compare/boardskew.c). */
#ifndef SQW_CMD_COMPARE_BOARDS_H
#define SQW_CMD_COMPARE_BOARDS_H

#include <stdint.h>
#include <stdio.h>

#include "compare/compare.h"

struct compare_boards_opts {
	const struct compare_opts *o;  /* board A's run, the capture, the shared options */
	const char *run_b;
	const char *channel[2];        /* A's and B's channel; NULL: the first two */
	int64_t max_skew_ns;           /* --max-skew; 0: none */
	const char *skew_csv;          /* --skew-csv FILE: one row per joined edge */
	const char *json;
	FILE *json_stdout;             /* --json -: the original standard output */
};

/* Compare both boards, print the report, write the JSON and the CSV.
 * Returns the exit code. */
int cmd_compare_boards(const struct compare_boards_opts *bo);

#endif
