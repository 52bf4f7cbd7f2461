/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave capture`: a logic analyzer's edges through libsigrok; the entry
 * main.c dispatches to, its options and help. */
#ifndef SQW_CMD_CAPTURE_H
#define SQW_CMD_CAPTURE_H

#include <stddef.h>
#include <stdio.h>

#include "base/exitcode.h"

struct option; /* <getopt.h> */

/* The command on @argc/@argv (argv[0]: the command's name); returns its
 * exit code (base/exitcode.h). Main thread. */
int cmd_capture(int argc, char **argv);

/* The getopt_long table (its options, in the order it tries them; no
 * terminating entry; returns how many, at most @max) and the --help text:
 * what the man page and the bash completion are generated from (helpgen.h),
 * so that neither can differ from the command line. */
size_t cmd_capture_options(struct option *out, size_t max);
void cmd_capture_help(FILE *f);

#endif
