/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The subcommands and the exit codes they share (docs/sqwave.1). */
#ifndef SQW_CMD_H
#define SQW_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "base/exitcode.h"


int cmd_run(int argc, char **argv);
int cmd_respond(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_boards(int argc, char **argv);

int cmd_report(int argc, char **argv);
int cmd_trace_explain(int argc, char **argv);

/* Each command's getopt_long table (its options, in the order it tries
 * them; no terminating entry; returns how many, at most @max) and its
 * --help text: what main.c's man page and bash completion are generated
 * from (helpgen.h), so that neither can differ from the command line. */
struct option;
#define CMD_OPTIONS_MAX 256
size_t cmd_run_options(struct option *out, size_t max);
size_t cmd_respond_options(struct option *out, size_t max);
size_t cmd_export_options(struct option *out, size_t max);
size_t cmd_analyze_options(struct option *out, size_t max);
size_t cmd_compare_options(struct option *out, size_t max);
size_t cmd_check_options(struct option *out, size_t max);
size_t cmd_boards_options(struct option *out, size_t max);
size_t cmd_report_options(struct option *out, size_t max);
size_t cmd_trace_explain_options(struct option *out, size_t max);
void cmd_run_help(FILE *f);
void cmd_respond_help(FILE *f);
void cmd_export_help(FILE *f);
void cmd_analyze_help(FILE *f);
void cmd_compare_help(FILE *f);
void cmd_check_help(FILE *f);
void cmd_boards_help(FILE *f);
void cmd_report_help(FILE *f);
void cmd_trace_explain_help(FILE *f);

#endif
