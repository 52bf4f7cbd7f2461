/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report --baseline's runs, read from summaries, analyses and logs, and
 * its verdicts written as a table, JSON, JUnit and LAVA results. */
#ifndef SQW_REGRESSDOC_H
#define SQW_REGRESSDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/jsonread.h"
#include "report/regress.h"

/* A run from a sqwave-summary or sqwave-analysis document: its top-level
 * figures as phase "run", and each of its phases. 0, or -1 with
 * "SOURCE:LINE: what" in @err (not such a document, a member of another
 * type); *@run is then empty. Free with regress_run_free(). */
int regress_run_from_doc(struct regress_run *run, const struct jv *doc, const char *source,
			 char *err, size_t errlen);
/* A run from a sqwave log, analysed as `analyze` does (its phases rebuilt
 * from its events), keeping each full distribution. 0, or -1 with *@io
 * (true: reading failed, false: bad input) and one sentence in @err. */
int regress_run_from_log(struct regress_run *run, const char *path, bool *io, char *err,
			 size_t errlen);
void regress_run_free(struct regress_run *run);

/* The outputs: a table, JSON (schema sqwave-regress), JUnit (one case per
 * row), LAVA result lines (as run --results). */
void regress_write_text(FILE *f, const struct regress_result *res, const struct regress_opts *o);
void regress_write_json(FILE *f, const struct regress_result *res, const struct regress_opts *o);
void regress_write_junit(FILE *f, const struct regress_result *res);
void regress_write_results(FILE *f, const struct regress_result *res);

#endif
