/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave compare`: a capture or scope readings against a run's log; the
 * entry main.c dispatches to, its options and help. */
#ifndef SQW_CMD_COMPARE_H
#define SQW_CMD_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "base/exitcode.h"

struct option; /* <getopt.h> */

/* The command on @argc/@argv (argv[0]: the command's name); returns its
 * exit code (base/exitcode.h). Main thread. */
int cmd_compare(int argc, char **argv);

/* The getopt_long table (its options, in the order it tries them; no
 * terminating entry; returns how many, at most @max) and the --help text:
 * what the man page and the bash completion are generated from (helpgen.h),
 * so that neither can differ from the command line. */
size_t cmd_compare_options(struct option *out, size_t max);
void cmd_compare_help(FILE *f);

#endif
