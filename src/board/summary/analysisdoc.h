/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The documents of an analysis (text, JSON schema sqwave-analysis, per-edge
 * CSV: docs/analyze.md) and the session that reads one source into them. */
#ifndef SQW_ANALYSISDOC_H
#define SQW_ANALYSISDOC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/analyze.h"
#include "summary/summary.h"

struct config;
struct phasestats;
struct soakview;
struct loopstats;

/*
 * One source analysed as `sqwave analyze` does it: the source, its
 * analysis, a soak's log's phases and loads (soakview), and the limits it
 * is judged by (the log's own, then the caller's over them). The fields are
 * the session's: read them, free nothing; analysisdoc_close() frees all.
 * One thread.
 */
struct analysisdoc {
	struct analyze_source *src;
	struct analysis *a;
	struct soakview *sv;
	struct phasestats *ps;
	struct run_phase *phases;
	struct run_info sri;
	struct config *vc;
	struct loopstats *lb;      /* a run --loopback log: the kernel's view (sri.loopback) */
	struct tlatstats *tl;      /* a timerlat log: each wake-up split (sri.timerlat_split) */
};

/*
 * Open @path (@so may be NULL: detect), make its analysis with @ao, and set
 * the limits: the log's header, then the run options @limit_opt[i] =
 * @limit_val[i] (e.g. "tmin", "500us") over it. 0, or -1 with *@st (input:
 * a foreign or corrupt file, a bad or contradictory limit; I/O: cannot read,
 * out of memory) and one sentence in @err; *@d is then closed.
 */
int analysisdoc_open(struct analysisdoc *d, const char *path, const struct analyze_source_opts *so,
		     const struct analyze_opts *ao, const char *const *limit_opt,
		     const char *const *limit_val, size_t nlimits, enum analyze_status *st, char *err,
		     size_t errlen);
/* Every edge of the source into the analysis (analysis_feed()), finish it
 * and judge it (analysis_verdict()). 0, or -1 with *@st and the source's
 * error in @err (the edges before it stay analysed, not judged). */
int analysisdoc_feed(struct analysisdoc *d, enum analyze_status *st, char *err, size_t errlen);
/* Free everything analysisdoc_open() made; safe on a closed session. */
void analysisdoc_close(struct analysisdoc *d);

/* The text report of @a (after analysis_finish()) to @f. */
void analysisdoc_print_text(FILE *f, const struct analysis *a);
/* The JSON document of @a to @path ("-": standard output). 0, or -1 with errno. */
int analysisdoc_write_json(const char *path, const struct analysis *a);
/* @path's JSON document, as `sqwave analyze PATH --json` writes it, to
 * @out (for report's rows). 0, or -1 with *@st and the reason in @err. */
int analysisdoc_json_of(const char *path, FILE *out, enum analyze_status *st, char *err,
			size_t errlen);

/*
 * The per-edge CSV, a row per edge with the pulses on both sides: opened
 * on @path ("-": standard output) before analysisdoc_feed(), it sets @a's
 * edge callback. NULL with the reason in @err. Close (and free) with
 * analysisdoc_csv_close(): 0, or -1 with "writing PATH failed: why" in @err.
 */
struct analysisdoc_csv;
struct analysisdoc_csv *analysisdoc_csv_open(const char *path, struct analysis *a, char *err,
					     size_t errlen);
/* The rows written so far. */
uint64_t analysisdoc_csv_rows(const struct analysisdoc_csv *co);
int analysisdoc_csv_close(struct analysisdoc_csv *co, char *err, size_t errlen);

#endif
