/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave compare RESPOND_LOG CAPTURE`: the report of a respond log against a
 * capture of both pins (the comparison: src/lab/compare/respcompare.c). */
#ifndef SQW_CMD_COMPARE_RESPOND_H
#define SQW_CMD_COMPARE_RESPOND_H

#include <stdio.h>

#include "compare/respcompare.h"
#include "base/json.h"

/* Compare, print the text report on standard output, write the JSON to
 * @json (NULL: none; "-": @json_stdout, which the caller closes), list at
 * most @worst disagreeing answers. Returns the exit code. */
int cmd_compare_respond(const struct respcmp_opts *o, unsigned worst, const char *json,
			FILE *json_stdout);

/* --json FILE, or - on @json_stdout (the original standard output: the text
 * went to standard error), of a comparison that @fn writes; said, and -1, on
 * failure. A wave's and a respond log's comparison alike (cmd_compare.c). */
int cmd_compare_write_json(const char *path, FILE *json_stdout, json_document_fn fn,
			   const void *ctx);

/* A wave's comparison verdict as compare's exit code (0 agree, 1 disagree or
 * no overlap, 2 ambiguous or too few edges). */
int cmd_compare_verdict_exit(enum compare_verdict v);

#endif
