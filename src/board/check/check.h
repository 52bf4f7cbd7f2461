/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The findings of `sqwave check` (and `run --preflight`): each one PASS,
 * WARN, FAIL or SKIP with the value seen, why it matters and the fix; the
 * exit code they add up to; text and JSON (docs/check.md). */
#ifndef SQW_CHECK_H
#define SQW_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/json.h"

enum check_status { CHECK_PASS, CHECK_WARN, CHECK_FAIL, CHECK_SKIP, CHECK_NSTATUS };

#define CHECK_TEXT 640

struct check_finding {
	enum check_status status;
	char id[40];               /* "kernel.preempt_rt": stable, for scripts */
	char value[CHECK_TEXT];    /* what was seen */
	char why[CHECK_TEXT];      /* why it matters ("" if nothing to say) */
	char fix[CHECK_TEXT];      /* the command or setting that fixes it ("") */
};

/*
 * A list of findings, in the order they were made. Not thread-safe. Adding
 * allocates; if that fails the finding goes to a scratch slot and the report
 * is marked incomplete (exit 3), so a caller never has to check.
 */
struct check_report {
	struct check_finding *v;
	size_t n, cap;
	struct check_finding scratch;
	bool incomplete;           /* something could not be checked at all */
	char incomplete_why[256];
};

void check_report_init(struct check_report *r);
void check_report_free(struct check_report *r);

/* Append a finding with @id and its value; returns it for check_why() and
 * check_fix(). Text is cut to CHECK_TEXT with "...". */
struct check_finding *check_add(struct check_report *r, enum check_status status,
				const char *id, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void check_why(struct check_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void check_fix(struct check_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Mark the report as not a complete check (exit 3), with the reason. */
void check_incomplete(struct check_report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The first finding with @id, or NULL. */
const struct check_finding *check_find(const struct check_report *r, const char *id);

/* How many findings of each status. */
void check_counts(const struct check_report *r, unsigned counts[CHECK_NSTATUS]);

/* What the findings add up to: FAIL if any FAIL (or, @strict, any WARN),
 * else WARN if any WARN, else PASS. */
enum check_status check_result(const struct check_report *r, bool strict);

/* The exit code: 3 if incomplete, else 1 for a FAIL result, else 0. */
int check_exit_code(const struct check_report *r, bool strict);

/* The id suffix of one line of several (gpio.line.LINE, run.verdict.LINE):
 * ".LINE", the name cut to CHECK_LINE_ID_LEN characters, in the ids'
 * grammar (upper case lowered, anything but [a-z0-9] as '_'); "" for the
 * line of a run of one (@line ""). Returns @buf. */
#define CHECK_LINE_ID_LEN 20
const char *check_line_suffix(const char *line, char *buf, size_t len);

/* "PASS", "WARN", "FAIL", "SKIP". */
const char *check_status_name(enum check_status s);

/* One line per finding ("WARN power.governor  cpu0: schedutil ..."), then
 * "why:" and "fix:" lines under the ones that are not PASS (under every one
 * with @verbose), then the counts and the result. */
void check_print_text(FILE *f, const struct check_report *r, bool strict, bool verbose);

/* The findings as a JSON array under the current key of @w: objects with
 * id, status, value, why, fix. */
void check_write_json(struct json_writer *w, const struct check_report *r);

/* What a JUnit file of the findings says about the check (docs/check.md):
 * strings NULL or "" where unknown. */
struct check_junit_info {
	const char *board;            /* the suite: sqwave.check.BOARD */
	const char *board_file, *profile, *root, *hostname, *kernel;
	bool strict;                  /* a WARN fails, as in the exit code */
	uint64_t start_realtime_ns, end_realtime_ns;   /* the check's span */
};

/*
 * The findings of @r as JUnit XML to @path ("-": standard output): one
 * suite, a test case per finding named by its id; a finding that fails the
 * check (FAIL, WARN with strict) is a <failure> of type FAIL or WARN, a SKIP
 * <skipped>, each with the value as its message and value, why and fix as
 * its text; an incomplete check adds the case "incomplete" with an <error>.
 * 0, or -1 with errno and the reason in @err (a failed write is an error,
 * the file removed: outfile_close()).
 */
int check_write_junit(const char *path, const struct check_report *r,
		      const struct check_junit_info *ji, char *err, size_t errlen);

#endif
