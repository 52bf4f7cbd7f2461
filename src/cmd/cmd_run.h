/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave run` and `sqwave respond` (one option set, one run session): the
 * entries main.c dispatches to, their options and help. */
#ifndef SQW_CMD_RUN_H
#define SQW_CMD_RUN_H

#include <stddef.h>
#include <stdio.h>

#include "base/exitcode.h"

struct option; /* <getopt.h> */

/* The commands on @argc/@argv (argv[0]: the command's name); each returns
 * its exit code (base/exitcode.h). Main thread. */
int cmd_run(int argc, char **argv);
int cmd_respond(int argc, char **argv);

/* The getopt_long table (its options, in the order it tries them; no
 * terminating entry; returns how many, at most @max) and the --help text:
 * what the man page and the bash completion are generated from (helpgen.h),
 * so that neither can differ from the command line. */
size_t cmd_run_options(struct option *out, size_t max);
size_t cmd_respond_options(struct option *out, size_t max);
void cmd_run_help(FILE *f);
void cmd_respond_help(FILE *f);

#endif
