/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every command's command line shares: the options that load a
 * configuration, and the sentence for an option getopt refused. */
#ifndef SQW_CMDLINE_H
#define SQW_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/config.h"

struct option; /* <getopt.h> */

/* getopt_long's value of config key k's long option: CMDLINE_KEY_VAL + k
 * (config_long_options()); apply it with config_apply_option(). */
#define CMDLINE_KEY_VAL 1000

/*
 * The options of a command that loads a configuration, into @out (room for
 * CMDLINE_CONFIG_OPTIONS): --board FILE|NAME ('b'), --profile FILE|NAME
 * ('p'), --set KEY=VALUE ('s'), then every config key's long option (value
 * CMDLINE_KEY_VAL + key). No terminating entry. getopt_long takes the first
 * entry that matches: a command whose own option has a key's name (check's
 * --json) puts its own before these. Returns how many were written.
 */
#define CMDLINE_CONFIG_OPTIONS (3 + CFG_NKEYS)
size_t cmdline_config_options(struct option *out, size_t max);

/* Copy the entries of @in (a table ended by a NULL name) into @out, at
 * most @max; returns how many (no terminating entry). */
size_t cmdline_options_copy(struct option *out, size_t max, const struct option *in);

/* Apply to @c the option getopt_long returned as @ch, @opt being its entry
 * (longindex) and @arg its value: --set ('s') through config_apply_set(), a
 * key's option through config_apply_option(). 1 applied, 0 not one of
 * those two (the caller handles it), -1 refused with one sentence in @err
 * ("--set: unknown key ...", "command line: run.duration must be ..."). */
int cmdline_config_apply(struct config *c, int ch, const struct option *opt, const char *arg,
			 char *err, size_t errlen);

/*
 * A command's own option that is not a configuration key, in the config
 * table's grammar: a row of the table's shape (type, range, the unit of a
 * bare number), read by cmdline_value(). An option that is the same thing
 * as a key (analyze --half-period is run.half_period) is read with the
 * key's own row: &config_table[CFG_RUN_HALF_PERIOD].
 */
#define CMDLINE_INT(opt_, lo, hi, unit_) \
	{ .section = "", .name = opt_, .type = CFG_T_INT, .def = "0", .min = (lo), .max = (hi), \
	  .unit = (unit_), .opt = opt_ }
#define CMDLINE_DURATION(opt_, lo, hi, bare) \
	{ .section = "", .name = opt_, .type = CFG_T_DURATION, .def = "0", .min = (lo), \
	  .max = (hi), .unit = (bare), .opt = opt_ }
#define CMDLINE_CHOICE(opt_, choices_) \
	{ .section = "", .name = opt_, .type = CFG_T_ENUM, .def = "", .choices = (choices_), \
	  .opt = opt_ }

/* Parse @value for the option row @it into *@out, as config_item_parse()
 * does; the message names the option @opt, or the row's .opt when @opt is
 * NULL ("--worst must be an integer between 0 and 100000, got \"x\""). */
enum cfg_result cmdline_value(const struct cfg_item *it, const char *opt, const char *value,
			      int64_t *out, char *err, size_t errlen);

/*
 * getopt_long (called with opterr = 0) returned '?' for @argv's element
 * before @optind with @optopt: one sentence for it in @err, naming the
 * option as given, and for an unknown long option the closest one in
 * @opts ("unknown option --durration; did you mean --duration? (sqwave run
 * --help lists them)"); an ambiguous prefix names the candidates, a value
 * missing or given to an option that takes none says so. @shortopts is the
 * optstring passed to getopt_long, @cmd the command's name ("run"). Returns
 * @err. Prints nothing.
 */
const char *cmdline_refused(const struct option *opts, const char *shortopts, char *const argv[],
			    int optind, int optopt, const char *cmd, char *err, size_t errlen);

/*
 * The loop every command's getopt_long runs, its common parts in one
 * place: --help/-h prints @usage to standard output, an option getopt
 * refused gets cmdline_refused()'s sentence on standard error. Set the
 * four fields, leave @started false; then
 *
 *	while ((ch = cmdline_next(&cl, argc, argv, &idx)) >= 0)
 *		switch (ch) { ...the command's own options... }
 *	if (ch != CMDLINE_END)
 *		return ch == CMDLINE_HELP ? SQW_EXIT_OK : SQW_EXIT_USAGE;
 *
 * and the positional arguments start at optind (cmdline_args()). @idx
 * (may be NULL) is getopt_long's longindex. Main thread only (getopt's
 * globals).
 */
struct cmdline {
	const char *cmd;              /* "analyze", as `sqwave analyze` */
	const struct option *opts;    /* ended by a NULL name, "help" = 'h' */
	const char *shortopts;        /* getopt_long's optstring, with "h" */
	void (*usage)(FILE *f);
	bool started;
};

#define CMDLINE_END (-1)     /* the options are done */
#define CMDLINE_HELP (-2)    /* the help was printed: exit 0 */
#define CMDLINE_BAD (-3)     /* refused, the reason printed: exit 2 */

int cmdline_next(struct cmdline *cl, int argc, char **argv, int *idx);
/*
 * After the options: between @min and @max (-1: no limit) positional
 * arguments. Too few: the usage on standard error; too many: the one
 * sentence for an unexpected argument (cmdline_unexpected()). 0, or -1
 * when printed (exit 2).
 */
int cmdline_args(const struct cmdline *cl, int argc, char **argv, int min, int max);
/* "unexpected argument "ARG"; try 'sqwave CMD --help'" on standard error. */
void cmdline_unexpected(const char *cmd, const char *arg);

/* A percent @s ("99", "99.5", "99%") in [@lo, @hi] into *@frac as a
 * fraction (0.99), or -1 with "@opt 'S': a percent from LO to HI" on
 * standard error (exit 2). */
int cmdline_percent(const char *opt, const char *s, double lo, double hi, double *frac);

#endif
