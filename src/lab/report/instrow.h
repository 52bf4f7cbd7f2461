/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The instrument in report's tables: one row per comparison of one log
 * (`sqwave compare RUN CAPTURE|--scope ... --json`): the run it checks, the
 * instrument (an analyzer's capture, a scope's readings), its verdict, what
 * it read beside what the log predicts, and how much of the run it saw
 * (docs/report.md, "Instruments"). Only what the document holds. */
#ifndef SQW_INSTROW_H
#define SQW_INSTROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/json.h"
#include "report/docread.h"

#define INST_ROW_READINGS 8        /* compare writes at most 6: Tmin/Tmax x 3 polarities */

/* One scope reading (compare's scope.readings[]) and what was predicted
 * for it. */
struct inst_reading {
	char what[8];              /* "tmin", "tmax" */
	char polarity[12];         /* "positive", "negative", "any" */
	int64_t scope_ns, tolerance_ns;
	bool have_log;             /* the log's bounds of that extreme */
	int64_t log_lo_ns, log_hi_ns;
	bool have_count;           /* the pulses the scope counted (null: unknown) */
	uint64_t count;
	char status[20];           /* the prediction's: "ok", "no-pulses", "no-count",
				    * "count-above-run"; "" no prediction (no count) */
	uint64_t run_pulses;       /* M, with a prediction */
	double coverage, level, expected_ns, p_caught; /* status "ok" only */
	int64_t lo_ns, hi_ns;
	bool agrees;
};

struct inst_row {
	char source[512];          /* the comparison's JSON, as given */
	char log_path[512];        /* run.path: the log as given to compare */
	char log_label[64];        /* its file's name without .sqwlog */
	uint64_t records;          /* run.records */
	bool have_start;           /* run.start_realtime_ns (a compare before it had none) */
	uint64_t start_realtime_ns;
	/* an analyzer's capture (capture not null) */
	bool have_capture;
	char format[32], channel[128];
	uint64_t cap_edges;
	double resolution_ns;
	char alignment[24];        /* alignment.status */
	bool have_coverage;        /* coverage not null */
	uint64_t run_edges, covered_edges, gaps;
	double fraction, span_s, covered_s;
	bool have_min;             /* coverage.min_fraction given (compare --min-coverage) */
	double min_fraction;
	bool enough;               /* coverage.enough (true when absent: no minimum) */
	bool have_widths;          /* widths.any: the capture's extremes and the log's bounds */
	int64_t cap_tmin_ns, cap_tmax_ns, tmin_lo_ns, tmin_hi_ns, tmax_lo_ns, tmax_hi_ns;
	bool tmin_agrees, tmax_agrees;
	/* a scope's readings (scope not null) */
	struct inst_reading readings[INST_ROW_READINGS];
	size_t nreadings;
	char verdict[24];          /* compare's: "agree", "disagree", ... */
	int exit_code;             /* compare's */
};

/* Whether @doc is a comparison of one log (schema sqwave-compare, without
 * mode "boards"). */
bool inst_row_is_doc(const struct jv *doc);

/* Read @doc (inst_row_is_doc) into @w; false with the problem in @d. */
bool inst_row_read(struct docread *d, const struct jv *doc, struct inst_row *w);

/* The verdict word: AGREE, DISAGREE (disagree, no-overlap), UNDECIDED
 * (ambiguous, too-few-edges). */
const char *inst_row_verdict(const struct inst_row *w);

/* The run a row checks, as report found it among its inputs (NULL: not
 * given): its label and the document it came from. */
struct inst_run {
	const char *label, *source;
};

/* The table's columns (INST_ROW_CELL bytes a cell, "-" for nothing to
 * show); report.c writes them as text and Markdown. */
enum { INST_ROW_NCOLS = 7, INST_ROW_CELL = 600 };
const char *inst_row_head(size_t col, bool *right);
void inst_row_cells(const struct inst_row *w, const struct inst_run *run,
		    char c[][INST_ROW_CELL]);

/* @w as one JSON object (an element of report's "instruments"). */
void inst_row_write_json(struct json_writer *jw, const struct inst_row *w,
			 const struct inst_run *run);

#endif
