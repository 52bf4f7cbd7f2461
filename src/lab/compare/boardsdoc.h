/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two boards on one grid against one capture of both pins: each board's log
 * compared with its channel, their edges joined (boardskew.h), the verdict,
 * and its documents: text, JSON and the per-edge CSV (docs/compare.md). */
#ifndef SQW_BOARDSDOC_H
#define SQW_BOARDSDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/json.h"
#include "compare/boardskew.h"
#include "compare/compare.h"
#include "stats/runinfo.h"

struct soakview;

/* What `sqwave compare RUN_A RUN_B CAPTURE` reads. */
struct boardsdoc_opts {
	const struct compare_opts *o;  /* board A's run, the capture, the shared options */
	const char *run_b;
	const char *channel[2];        /* A's and B's channel; NULL: the capture's first two */
	int64_t max_skew_ns;           /* --max-skew; 0: none */
};

/* One board: its log's view (for the grid) and its comparison. */
struct boardsdoc_board {
	const char *name;              /* "A", "B" */
	struct compare_opts o;
	struct soakview *sv;
	struct run_info ri;
	struct compare *c;
	/* A line of a run of several on grid.clock monotonic (docs/lines.md):
	 * its grid is the run's own CLOCK_MONOTONIC, offset 0, exact. */
	struct run_grid mono;
	char lines[1024], host[256];
	bool opened;                   /* compared, on a grid, a wave's: warn of c->truncated */
};

/*
 * The session: the fields are boardsdoc_run()'s, read them, free nothing;
 * boardsdoc_close() frees all. One thread.
 */
struct boardsdoc {
	const struct boardsdoc_opts *bo;
	struct boardsdoc_board b[2];
	bool ready;                    /* both boards opened and fit to be joined */
	struct boardskew s;
	bool joined;                   /* s is filled */
	bool decided;                  /* verdict and exit_code are set */
	const char *verdict;           /* "agree", "disagree", "no-overlap", or a board's own */
	int exit_code;                 /* the verdict's (base/exitcode.h) */
};

/*
 * Open both boards' logs (their grids), compare each with its channel of
 * the capture (@bo's, else the capture's first two), join their edges and
 * decide the verdict. COMPARE_OK with *@d decided; else a status (INPUT:
 * what is not two boards on one grid, a bad log or capture; IO) and one
 * sentence in @err, and *@d holds what was done before (its report's head
 * when ready). Either way boardsdoc_close() it.
 */
enum compare_status boardsdoc_run(struct boardsdoc *d, const struct boardsdoc_opts *bo, char *err,
				  size_t errlen);
void boardsdoc_close(struct boardsdoc *d);

/* The text report to @f, as far as @d got: each board and the capture
 * (ready), the skew, windows, clocks and checks (joined), the verdict
 * (decided). The boards' truncated logs are the caller's to warn of. */
void boardsdoc_print_text(FILE *f, const struct boardsdoc *d);

/* The JSON document of @boardsdoc (a decided const struct boardsdoc *), for
 * json_write_document() or json_write_stream(). */
void boardsdoc_json(struct json_writer *w, const void *boardsdoc);

/* --skew-csv: one row per joined edge of @d (joined) to @path. 0, or -1 with one sentence
 * in @err (a failed write leaves no file: outfile_close()). */
int boardsdoc_write_csv(const char *path, const struct boardsdoc *d, char *err, size_t errlen);

#endif
