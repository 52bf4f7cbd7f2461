/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The documents of a wave's comparison (text and JSON schema sqwave-compare,
 * docs/compare.md), and the alignment member every kind of compare writes. */
#ifndef SQW_COMPAREDOC_H
#define SQW_COMPAREDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/json.h"
#include "compare/compare.h"

/* The schema of every compare document: a wave's, a respond log's and two
 * boards' (respdoc.h, boardsdoc.h). */
#define COMPARE_SCHEMA "sqwave-compare"
#define COMPARE_SCHEMA_VERSION 1

/*
 * The text report of @c (compare_run()'s result) to @f: the run, the
 * capture's alignment, edges, residuals and widths, the scope readings,
 * the verdict. The truncated log's warning is the caller's to give.
 */
void comparedoc_print_text(FILE *f, const struct compare *c);

/* Why the scope's reading [@p][@mx] (outside its interval) disagrees, in
 * words: a static sentence. */
const char *comparedoc_scope_disagree_why(const struct compare *c, int p, int mx);

/* The JSON document of @compare (a const struct compare *), for
 * json_write_document() or json_write_stream(). */
void comparedoc_json(struct json_writer *w, const void *compare);

/*
 * An alignment as the documents state it, in the three forms of the
 * schema. Filled from a wave's comparison by comparedoc_alignment_of(),
 * from a respond log's by respdoc.c; written by comparedoc_json_alignment(),
 * the one writer of it.
 */
enum comparedoc_form {
	COMPAREDOC_WAVE,          /* "alignment": {the search, the fit, the window covered} */
	COMPAREDOC_RESPOND,       /* "alignment": {the search, the fit, the pairing's counts} */
	COMPAREDOC_BOARD,         /* in a board of boards[]: "alignment" (a word), the counts */
};

struct comparedoc_alignment {
	enum comparedoc_form form;
	const struct align_window *w;  /* the window search */
	bool aligned;
	int64_t first_seq_given;       /* --first-seq; < 0: the search placed it */
	const char *verdict;           /* BOARD: the comparison's verdict, said when not aligned */
	/* the fit and the pairing (aligned only) */
	bool inverted;
	int64_t ref_ns;
	double offset_ns, drift_ppm, fit_rms_ns, fit_se_ns, tolerance_ns;
	size_t inliers, outliers, paired, missing, extra, disagree;
	/* WAVE: the run edges inside the capture's span, and the run seqs of
	 * the capture's first and last paired edges */
	uint64_t first_seq, last_seq, capture_first_seq, capture_last_seq;
	size_t covered;
	/* RESPOND: half the median write window, the largest |residual| */
	double place_ns, max_abs_res_ns;
};

/* @a as @form states the alignment of the wave comparison @c (WAVE or
 * BOARD). */
void comparedoc_alignment_of(const struct compare *c, enum comparedoc_form form,
			     struct comparedoc_alignment *a);
/* The alignment member(s) of @a, inside the object being written. */
void comparedoc_json_alignment(struct json_writer *w, const struct comparedoc_alignment *a);

/*
 * The comparison @c as one KCIDB v5 test (docs/ci.md) in a document of its
 * own at @path ("-": standard output): path "sqwave.lineNAME.compare" (the
 * log's line), beside the run's own tests (`run --kcidb`), status PASS
 * (agree), FAIL (disagree) or ERROR (no overlap, ambiguous, too few edges:
 * not cross-checked), the largest |residual| as its number, the log and the
 * capture as output_files, the alignment in misc. @origin and @base_url as
 * kcidb_writer_open() takes them. 0, or -1 with errno and @err.
 */
int comparedoc_kcidb(const struct compare *c, const char *path, const char *origin,
		     const char *base_url, char *err, size_t errlen);

#endif
