/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command lines' shared part: configuration options and the sentence
 * for a refused option, with the closest option as a YAML key gets it. */
#include "cmd/cmdline.h"
#include "base/msgbuf.h"
#include "cmd/print.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t cmdline_config_options(struct option *out, size_t max)
{
	static const struct option first[] = {
		{ "board", required_argument, NULL, 'b' },
		{ "profile", required_argument, NULL, 'p' },
		{ "set", required_argument, NULL, 's' },
	};
	size_t n = 0, i;

	for (i = 0; i < sizeof(first) / sizeof(first[0]) && n < max; i++)
		out[n++] = first[i];
	if (n < max) {
		size_t k = config_long_options(out + n, max - n, CMDLINE_KEY_VAL);

		n += k < max - n ? k : max - n;
	}
	return n;
}

size_t cmdline_options_copy(struct option *out, size_t max, const struct option *in)
{
	size_t n = 0;

	for (; in[n].name && n < max; n++)
		out[n] = in[n];
	return n;
}

int cmdline_config_apply(struct config *c, int ch, const struct option *opt, const char *arg,
			 char *err, size_t errlen)
{
	char why[1024];

	if (ch == 's') {
		if (config_apply_set(c, arg, why, sizeof(why)) == CFG_OK)
			return 1;
		msgbuf_set(err, errlen, "--set: %s", why);
		return -1;
	}
	if (ch < CMDLINE_KEY_VAL || ch >= CMDLINE_KEY_VAL + CFG_NKEYS)
		return 0;
	if (config_apply_option(c, opt->name, arg, why, sizeof(why)) == CFG_OK)
		return 1;
	msgbuf_set(err, errlen, "command line: %s", why);
	return -1;
}

/* The long option whose value is @val, or NULL. */
static const struct option *by_val(const struct option *opts, int val)
{
	for (; opts->name; opts++) {
		if (opts->val == val && !opts->flag)
			return opts;
	}
	return NULL;
}

/* An unknown or ambiguous "--name[=value]". */
static void refused_long(const struct option *opts, const char *arg, char *err, size_t len)
{
	char name[64];
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg), best = 99, limit, prefixed = 0, d;
	const struct option *o, *near = NULL;

	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, arg, n);
	name[n] = '\0';
	for (o = opts; o->name; o++) {
		if (!strncmp(o->name, name, n))
			prefixed++;
	}
	if (n && prefixed > 1) {
		msgbuf_add(err, len, "option --%s is ambiguous: it could be", name);
		prefixed = 0;
		for (o = opts; o->name; o++) {
			if (!strncmp(o->name, name, n))
				msgbuf_add(err, len, "%s --%s", prefixed++ ? "," : "", o->name);
		}
		return;
	}
	for (o = opts; o->name; o++) {
		d = config_distance(name, o->name);
		if (d < best) {
			best = d;
			near = o;
		}
	}
	/* the rule of config_closest_key(): at most two edits, and fewer than a
	 * third of the word */
	limit = n / 3 > 2 ? 2 : n / 3 < 1 ? 1 : n / 3;
	msgbuf_add(err, len, "unknown option --%s", name);
	if (near && best <= limit)
		msgbuf_add(err, len, "; did you mean --%s?", near->name);
}

const char *cmdline_refused(const struct option *opts, const char *shortopts, char *const argv[],
			    int optind, int optopt, const char *cmd, char *err, size_t errlen)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	const struct option *o;
	const char *s;

	if (!errlen)
		return err;
	err[0] = '\0';
	if (!arg)
		arg = "";
	if (!strncmp(arg, "--", 2) && arg[2]) {
		o = optopt ? by_val(opts, optopt) : NULL;
		if (!o)
			refused_long(opts, arg + 2, err, errlen);
		else if (o->has_arg == no_argument)
			msgbuf_add(err, errlen, "--%s takes no value, got \"%s\"", o->name, arg);
		else
			msgbuf_add(err, errlen, "--%s needs a value", o->name);
	} else if (optopt > 0 && optopt < 128) {
		s = strchr(shortopts, optopt);
		if (s && s[1] == ':')
			msgbuf_add(err, errlen, "-%c needs a value", optopt);
		else
			msgbuf_add(err, errlen, "unknown option -%c", optopt);
	} else {
		msgbuf_add(err, errlen, "unknown option %s", arg);
	}
	msgbuf_add(err, errlen, " ('sqwave %s --help' lists the options)", cmd);
	return err;
}

enum cfg_result cmdline_value(const struct cfg_item *it, const char *opt, const char *value,
			      int64_t *out, char *err, size_t errlen)
{
	char name[64];

	snprintf(name, sizeof(name), "--%s", opt ? opt : it->opt ? it->opt : it->name);
	return config_item_parse(it, name, value, out, err, errlen);
}

int cmdline_next(struct cmdline *cl, int argc, char **argv, int *idx)
{
	char err[512];
	int ch;

	if (!cl->started) {
		optind = 1;
		opterr = 0;
		cl->started = true;
	}
	ch = getopt_long(argc, argv, cl->shortopts, cl->opts, idx);
	if (ch == -1)
		return CMDLINE_END;
	if (ch == 'h') {
		cl->usage(stdout);
		return CMDLINE_HELP;
	}
	if (ch == '?' || ch == ':') {
		pr_err("%s", cmdline_refused(cl->opts, cl->shortopts, argv, optind, optopt, cl->cmd, err,
					     sizeof(err)));
		return CMDLINE_BAD;
	}
	return ch;
}

void cmdline_unexpected(const char *cmd, const char *arg)
{
	pr_err("unexpected argument \"%s\"; try 'sqwave %s --help'", arg, cmd);
}

int cmdline_percent(const char *opt, const char *s, double lo, double hi, double *frac)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end != s && *end == '%')
		end++;
	if (errno || end == s || *end || !(v >= lo && v <= hi)) {
		pr_err("%s '%s': a percent from %g to %g", opt, s, lo, hi);
		return -1;
	}
	*frac = v / 100;
	return 0;
}

int cmdline_args(const struct cmdline *cl, int argc, char **argv, int min, int max)
{
	int n = argc - optind;

	if (n < min) {
		cl->usage(stderr);
		return -1;
	}
	if (max >= 0 && n > max) {
		cmdline_unexpected(cl->cmd, argv[optind + max]);
		return -1;
	}
	return 0;
}
