/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict for CI and board farms: JUnit XML and LAVA's result.txt, both
 * made from the checks of the run's struct verdict_result, the data the
 * summary's verdict is printed from: neither judges again. */
#ifndef SQW_CIOUT_H
#define SQW_CIOUT_H

#include <stddef.h>
#include <stdio.h>

#include "summary/summary.h"

/*
 * JUnit XML (docs/ci.md) of @v's checks to @path ("-": standard output): one
 * test suite for the run (its health checks and limits) and, when the run
 * has phases, one per phase (the phase's own figures against the limits and
 * its loads' proofs); a test case per check, a failure carrying the sentence and the
 * figures, a check not made (a limit left unset) as skipped. A line of a run
 * of several (@ri's line_count > 1) is in every suite's name and classname:
 * "sqwave.BOARD[.LABEL].lineL[.phase.P]".
 * 0, or -1 with errno and the reason in @err (nothing is left half-written
 * silently: a failed write or close is an error).
 */
int ciout_write_junit_judged(const char *path, const struct config *c, const struct run_info *ri,
			     const struct verdict_result *v, char *err, size_t errlen);
/* The same, the verdict computed here, once, from @s. */
int ciout_write_junit(const char *path, const struct config *c, const struct edgestats *s,
		      const struct run_info *ri, char *err, size_t errlen);

/*
 * LAVA result.txt (docs/ci.md) of @v's checks to @path ("-": standard output):
 * one line per check, "NAME RESULT" or "NAME RESULT MEASUREMENT UNITS"; RESULT
 * is pass, fail or skip; MEASUREMENT a plain decimal number; UNITS one word per NAME
 * (us, count, percent, pps). NAME is the check, "PHASE.CHECK" for a phase's
 * figures, "PHASE.LOAD.CHECK" for a load's proof; a line of a run of several
 * (@ri's line_count > 1; @ri NULL: one line) prefixes "lineL." to each. 0,
 * or -1 as above.
 */
int ciout_write_results_judged(const char *path, const struct run_info *ri,
			       const struct verdict_result *v, char *err, size_t errlen);
/* The same, the verdict computed here, once. */
int ciout_write_results(const char *path, const struct config *c, const struct edgestats *s,
			const struct run_info *ri, char *err, size_t errlen);

/*
 * JUnit XML of @v's checks (those of no phase) as one test suite named
 * @suite (also every case's classname), for a document that is not a
 * run's (compare --junit): @nprops name/value pairs as its properties
 * after sqwave_version. 0, or -1 as above.
 */
int ciout_write_junit_suite(const char *path, const char *suite, const char *const (*props)[2],
			    size_t nprops, const struct verdict_result *v, char *err, size_t errlen);

/* @s (NULL: nothing) to @f as XML character data or an attribute value, as
 * every JUnit file here writes it: markup characters as entities, control
 * characters and bytes that are not UTF-8 (which XML 1.0 cannot carry) as
 * the text \xNN, cut at 1 KiB as the terminal output is. */
void ciout_xml_put(FILE *f, const char *s);
/* One <property name="@name" value="@value"/> line of a suite's
 * <properties> (@value NULL: ""); @name is written as it is. */
void ciout_xml_property(FILE *f, const char *name, const char *value);

/* @s as a result-name part: letters, digits, '_' and '-' kept, anything
 * else (the '.' that joins the parts too) '_', cut to fit @len; "" becomes
 * "_". Returns @buf. */
const char *ciout_name_part(const char *s, char *buf, size_t len);

#endif
