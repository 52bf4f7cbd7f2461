/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave scope`: set an oscilloscope's width statistics up over SCPI, or
 * read them; the entry main.c dispatches to, its options and help. */
#ifndef SQW_CMD_SCOPE_H
#define SQW_CMD_SCOPE_H

#include <stddef.h>
#include <stdio.h>

#include "base/exitcode.h"

struct option; /* <getopt.h> */

/* The command on @argc/@argv (argv[0]: the command's name); returns its
 * exit code (base/exitcode.h). Main thread. */
int cmd_scope(int argc, char **argv);

/* The getopt_long table and the --help text (helpgen.h). */
size_t cmd_scope_options(struct option *out, size_t max);
void cmd_scope_help(FILE *f);

#endif
