/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The man page's OPTIONS section and the bash completion, generated from
 * each command's getopt_long table and --help text (docs/packaging.md). */
#ifndef SQW_HELPGEN_H
#define SQW_HELPGEN_H

#include <stddef.h>
#include <stdio.h>

struct option; /* <getopt.h> */

/* One command as the generators see it. @options writes the command's
 * getopt_long table (no terminating entry, at most @max; returns how
 * many), @help its --help text. @words: the words that may stand where
 * the command's first argument goes ("detect" for boards), NULL-ended, or
 * NULL when that argument is a file. @formats: the --format names the
 * command takes, space-separated, or NULL. */
struct helpgen_cmd {
	const char *name;
	const char *summary;
	size_t (*options)(struct option *out, size_t max);
	void (*help)(FILE *f);
	const char *const *words;
	const char *formats;
};

/* The OPTIONS section of the man page, in roff: a subsection per command
 * holding its --help text, escaped. 0, or -1 with one sentence in @err. */
int helpgen_man(FILE *out, const struct helpgen_cmd *cmds, size_t n, char *err, size_t errlen);

/* A bash completion script for @prog ("sqwave"): commands, each command's
 * long options (exactly its table's), and their values: board and profile
 * short names (read from `PROG boards` when completing), --set keys,
 * --format names, a configuration key's choices, files where the help
 * shows FILE, LOG, TRACE, RUN or CAPTURE, directories for DIR, nothing
 * for other values. @extra: words completed beside the commands
 * ("--help --version"). 0, or -1 with one sentence in @err. */
int helpgen_completion(FILE *out, const char *prog, const char *extra,
		       const struct helpgen_cmd *cmds, size_t n, char *err, size_t errlen);

/* Every option of every command, one "COMMAND --NAME" line each, with " ="
 * appended when it takes a value: what the tests check the man page, the
 * completion and --help against. 0, or -1 with one sentence in @err. */
int helpgen_list(FILE *out, const struct helpgen_cmd *cmds, size_t n, char *err, size_t errlen);

/* @s as roff text in no-fill mode to @out: backslashes and dashes escaped,
 * a line's leading '.' or '\'' made text, non-ASCII UTF-8 as \[uXXXX]. */
void helpgen_roff_text(FILE *out, const char *s);

/* The metavar the help text @help shows after "--@name " (FILE, N,
 * DURATION) into @buf, "" when none. */
const char *helpgen_metavar(const char *help, const char *name, char *buf, size_t len);

#endif
