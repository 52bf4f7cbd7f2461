/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two boards on one grid in report's table: one row per two-board
 * comparison (`sqwave compare RUN_A RUN_B CAPTURE --json`): both boards,
 * how many edges met on the grid, the skew between them, what the clocks
 * account for, the checks and the comparison's verdict (docs/report.md,
 * "Two boards"). */
#ifndef SQW_BOARDPAIR_H
#define SQW_BOARDPAIR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/json.h"
#include "report/docread.h"

struct board_pair {
	char source[512];          /* the comparison's JSON, as given */
	char label[2][64];         /* board A's and B's: its log's name without
				    * .sqwlog, the label report gives that log */
	char channel[2][64];       /* its channel of the capture */
	char board_verdict[2][24]; /* each board against its channel: "agree", ... */
	char clock[16];            /* the grid's clock: "realtime", "tai" */
	bool joined_known;         /* the comparison joined the boards (skew not null) */
	uint64_t joined, only_a, only_b, opposite, beyond_windows;
	bool have_skew;            /* joined > 0: the figures below */
	double p50_ns, p99_abs_ns, min_ns, max_ns;
	double clock_lower_ns, clock_upper_ns;
	bool have_common;
	double common_lo_ns, common_hi_ns;
	bool have_claim;
	double claimed_ns;         /* both clocks' claimed maximum error */
	char skew_state[16];       /* max_skew: NONE, PASS, FAIL, INCONCLUSIVE */
	int64_t skew_limit_ns;     /* 0: none */
	char clock_state[16];      /* clock_error: ... or SKIP */
	char clock_why[160];       /* why SKIP */
	char verdict[24];          /* the comparison's: "agree", "disagree", ... */
	int exit_code;             /* the comparison's */
};

/* Whether @doc is a comparison of two boards (schema sqwave-compare,
 * mode "boards"). */
bool board_pair_is_doc(const struct jv *doc);

/* Read @doc (board_pair_is_doc) into @p; false with the problem in @d. */
bool board_pair_read(struct docread *d, const struct jv *doc, struct board_pair *p);

/* The row's verdict word: PASS (a check passed, none failed or was
 * inconclusive), NO LIMITS (the boards agree with their channels but no
 * check had a bound), INCONCLUSIVE, or FAIL (the comparison's exit code
 * was not 0). */
const char *board_pair_verdict(const struct board_pair *p);

/* The table's columns: heading and whether its cells are figures
 * (right-aligned); a row's cells (BOARD_PAIR_CELL bytes each, "-" for
 * nothing to show). report.c writes them as text and Markdown. */
enum { BOARD_PAIR_NCOLS = 14, BOARD_PAIR_CELL = 600 };
const char *board_pair_head(size_t col, bool *right);
void board_pair_cells(const struct board_pair *p, char c[][BOARD_PAIR_CELL]);

/* @p as one JSON object (an element of report's "pairs"). */
void board_pair_write_json(struct json_writer *w, const struct board_pair *p);

#endif
