/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The man page's OPTIONS section and the bash completion, written from the
 * commands' getopt_long tables and --help texts: they cannot drift. */
#include "cmd/helpgen.h"
#include "config/config.h"
#include "base/msgbuf.h"
#include "base/utf8.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* @c's --help text, allocated (caller frees), or NULL with @err set. */
static char *help_text(const struct helpgen_cmd *c, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		msgbuf_set(err, errlen, "%s --help: %s", c->name, strerror(errno));
		return NULL;
	}
	c->help(f);
	if (ferror(f) || fclose(f)) {
		msgbuf_set(err, errlen, "%s --help: cannot hold the text", c->name);
		free(buf);
		return NULL;
	}
	return buf;
}

void helpgen_roff_text(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	bool bol = true;
	uint32_t cp;
	int n;

	for (; *p; p++) {
		if (bol && (*p == '.' || *p == '\''))
			fputs("\\&", out);
		bol = *p == '\n';
		if (*p == '\\') {
			fputs("\\e", out);
		} else if (*p == '-') {
			fputs("\\-", out);
		} else if (*p < 0x80) {
			fputc(*p, out);
		} else {
			/* UTF-8 to a groff Unicode escape; a stray byte stays '?' */
			n = utf8_next(p, SIZE_MAX, &cp);
			if (n > 0) {
				fprintf(out, "\\[u%04X]", (unsigned)cp);
			} else {
				fputc('?', out);
				n = -n;
			}
			p += n - 1;
		}
	}
	if (!bol)
		fputc('\n', out);
}

const char *helpgen_metavar(const char *help, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name), k;
	const char *p;

	if (len)
		buf[0] = '\0';
	for (p = help; (p = strstr(p, "--")) != NULL; p += 2) {
		if (strncmp(p + 2, name, n) || (p[2 + n] != ' ' && p[2 + n] != '='))
			continue;
		if (p > help && (isalnum((unsigned char)p[-1]) || p[-1] == '-'))
			continue;
		p += 3 + n;
		for (k = 0; (isupper((unsigned char)p[k]) || p[k] == '|' || p[k] == '_') && k + 1 < len;
		     k++)
			buf[k] = p[k];
		if (len)
			buf[k] = '\0';
		if (k)
			return buf;
	}
	return buf;
}

#define MAXOPTS 512

/* Whether entry @k of @opts has the name of an earlier one: getopt_long
 * takes the first (check's --json is its report, not output.json). */
static bool shadowed(const struct option *opts, size_t k)
{
	size_t j;

	for (j = 0; j < k; j++) {
		if (!strcmp(opts[j].name, opts[k].name))
			return true;
	}
	return false;
}

int helpgen_man(FILE *out, const struct helpgen_cmd *cmds, size_t n, char *err, size_t errlen)
{
	size_t i;
	char *text;

	fputs(".SH OPTIONS\n"
	      "Each command's options, as \\fBsqwave\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR prints\n"
	      "them (this section is generated from the same option and configuration\n"
	      "tables). Every command also takes \\fB\\-h\\fR, \\fB\\-\\-help\\fR.\n",
	      out);
	for (i = 0; i < n; i++) {
		text = help_text(&cmds[i], err, errlen);
		if (!text)
			return -1;
		fprintf(out, ".SS \"sqwave %s\"\n", cmds[i].name);
		helpgen_roff_text(out, cmds[i].summary);
		fputs(".PP\n.nf\n", out);
		helpgen_roff_text(out, text);
		fputs(".fi\n", out);
		free(text);
	}
	if (ferror(out)) {
		msgbuf_set(err, errlen, "writing the man page failed");
		return -1;
	}
	return 0;
}

int helpgen_list(FILE *out, const struct helpgen_cmd *cmds, size_t n, char *err, size_t errlen)
{
	static struct option opts[MAXOPTS];
	size_t i, k, m;

	for (i = 0; i < n; i++) {
		m = cmds[i].options(opts, MAXOPTS);
		for (k = 0; k < m; k++) {
			if (!shadowed(opts, k))
				fprintf(out, "%s --%s%s\n", cmds[i].name, opts[k].name,
					opts[k].has_arg == no_argument ? "" : " =");
		}
	}
	if (ferror(out)) {
		msgbuf_set(err, errlen, "writing the option list failed");
		return -1;
	}
	return 0;
}

/* How a value of option @o of a command is completed. */
enum value_kind { V_NONE, V_BOARD, V_PROFILE, V_KEY, V_FORMAT, V_FILE, V_DIR, V_CHOICE };

static enum value_kind value_kind(const struct helpgen_cmd *c, const struct option *o,
				  const char *help, const struct cfg_item **key)
{
	static const char *const files[] = { "FILE", "LOG", "TRACE", "RUN", "CAPTURE", NULL };
	char mv[32];
	size_t i;

	*key = NULL;
	if (!strcmp(o->name, "board"))
		return V_BOARD;
	if (!strcmp(o->name, "profile"))
		return V_PROFILE;
	if (!strcmp(o->name, "set"))
		return V_KEY;
	if (!strcmp(o->name, "format") && c->formats)
		return V_FORMAT;
	for (i = 0; i < CFG_NKEYS; i++) {
		if (config_table[i].opt && !strcmp(config_table[i].opt, o->name) &&
		    config_table[i].type == CFG_T_ENUM && config_table[i].choices) {
			*key = &config_table[i];
			return V_CHOICE;
		}
	}
	helpgen_metavar(help, o->name, mv, sizeof(mv));
	if (!strcmp(mv, "DIR"))
		return V_DIR;
	for (i = 0; files[i]; i++) {
		if (!strcmp(mv, files[i]))
			return V_FILE;
	}
	return V_NONE;
}

/* The options of @opts (@m of them) whose value is completed as @kind,
 * as one case pattern "--a|--b", and whether there was any. */
static bool pattern(FILE *out, const struct helpgen_cmd *c, const struct option *opts, size_t m,
		    const char *help, enum value_kind kind)
{
	const struct cfg_item *key;
	size_t k;
	bool any = false;

	for (k = 0; k < m; k++) {
		if (opts[k].has_arg == no_argument || shadowed(opts, k) ||
		    value_kind(c, &opts[k], help, &key) != kind || kind == V_CHOICE)
			continue;
		fprintf(out, "%s--%s", any ? "|" : "\t\t", opts[k].name);
		any = true;
	}
	return any;
}

static const char names_fn[] =
	"# The short names of the board files (boards) or profiles (profiles) that\n"
	"# --board NAME and --profile NAME find: `sqwave boards` lists them.\n"
	"_%s_names()\n"
	"{\n"
	"\t\"$1\" boards 2>/dev/null | awk -v k=\"$2,\" '/^[a-z]/ { on = ($1 == k); next }\n"
	"\t\ton && /^  [^ (]/ { print $1 }'\n"
	"}\n\n";

int helpgen_completion(FILE *out, const char *prog, const char *extra,
		       const struct helpgen_cmd *cmds, size_t n, char *err, size_t errlen)
{
	static struct option opts[MAXOPTS];
	const struct cfg_item *key;
	char *help, name[64];
	size_t i, k, m, j;

	fprintf(out, "# SPDX-License-Identifier: GPL-2.0-or-later\n"
		     "# bash completion for %s, generated by `%s --generate bash-completion`\n"
		     "# from each command's option table (docs/packaging.md): do not edit.\n\n",
		prog, prog);
	fprintf(out, names_fn, prog);
	fprintf(out, "_%s()\n{\n"
		     "\tlocal cur prev sq=$1 cmd=\"\" i o=\"\" args=\"\"\n"
		     "\tCOMPREPLY=()\n"
		     "\tcur=${COMP_WORDS[COMP_CWORD]}\n"
		     "\tprev=${COMP_WORDS[COMP_CWORD - 1]}\n"
		     "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
		     "\t\tcase ${COMP_WORDS[i]} in\n"
		     "\t\t-*) ;;\n"
		     "\t\t*) cmd=${COMP_WORDS[i]}; break ;;\n"
		     "\t\tesac\n"
		     "\tdone\n"
		     "\tif [ -z \"$cmd\" ]; then\n"
		     "\t\tCOMPREPLY=($(compgen -W \"",
		prog);
	for (i = 0; i < n; i++)
		fprintf(out, "%s ", cmds[i].name);
	fprintf(out, "%s\" -- \"$cur\"))\n"
		     "\t\treturn\n"
		     "\tfi\n"
		     "\t# --opt=value: the value, as if it were the next word\n"
		     "\tif [[ $cur == --*=* ]]; then\n"
		     "\t\tprev=${cur%%%%=*}\n"
		     "\t\tcur=${cur#*=}\n"
		     "\telif [ $((COMP_CWORD - 1)) -le \"$i\" ]; then\n"
		     "\t\tprev=\"\"\n"
		     "\tfi\n"
		     "\tcase $cmd in\n",
		extra ? extra : "");
	for (i = 0; i < n; i++) {
		const struct helpgen_cmd *c = &cmds[i];

		help = help_text(c, err, errlen);
		if (!help)
			return -1;
		m = c->options(opts, MAXOPTS);
		fprintf(out, "\t%s)\n\t\to=\"", c->name);
		for (k = 0; k < m; k++) {
			if (!shadowed(opts, k))
				fprintf(out, "%s--%s", k ? " " : "", opts[k].name);
		}
		fprintf(out, "\"\n\t\tcase $prev in\n");
		if (pattern(out, c, opts, m, help, V_BOARD))
			fprintf(out, ")\n\t\t\tCOMPREPLY=($(compgen -W \"$(_%s_names \"$sq\" boards)\" -- \"$cur\")\n"
				     "\t\t\t\t   $(compgen -f -X '!*.yaml' -- \"$cur\") $(compgen -d -- \"$cur\"))\n"
				     "\t\t\treturn ;;\n", prog);
		if (pattern(out, c, opts, m, help, V_PROFILE))
			fprintf(out, ")\n\t\t\tCOMPREPLY=($(compgen -W \"$(_%s_names \"$sq\" profiles)\" -- \"$cur\")\n"
				     "\t\t\t\t   $(compgen -f -X '!*.yaml' -- \"$cur\") $(compgen -d -- \"$cur\"))\n"
				     "\t\t\treturn ;;\n", prog);
		if (pattern(out, c, opts, m, help, V_KEY)) {
			fprintf(out, ")\n\t\t\tcompopt -o nospace 2>/dev/null\n\t\t\tCOMPREPLY=($(compgen -W \"");
			for (j = 0; j < CFG_NKEYS; j++)
				fprintf(out, "%s%s=", j ? " " : "",
					config_key_name((enum cfg_key)j, name, sizeof(name)));
			fprintf(out, "\" -- \"$cur\"))\n\t\t\treturn ;;\n");
		}
		if (pattern(out, c, opts, m, help, V_FORMAT))
			fprintf(out, ")\n\t\t\tCOMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n\t\t\treturn ;;\n",
				c->formats);
		if (pattern(out, c, opts, m, help, V_FILE))
			fprintf(out, ")\n\t\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n\t\t\treturn ;;\n");
		if (pattern(out, c, opts, m, help, V_DIR))
			fprintf(out, ")\n\t\t\tCOMPREPLY=($(compgen -d -- \"$cur\"))\n\t\t\treturn ;;\n");
		for (k = 0; k < m; k++) {
			if (opts[k].has_arg == no_argument || shadowed(opts, k) ||
			    value_kind(c, &opts[k], help, &key) != V_CHOICE)
				continue;
			fprintf(out, "\t\t--%s)\n\t\t\tCOMPREPLY=($(compgen -W \"", opts[k].name);
			for (j = 0; key->choices[j]; j++)
				fprintf(out, "%s%s", j ? " " : "", key->choices[j]);
			fprintf(out, "\" -- \"$cur\"))\n\t\t\treturn ;;\n");
		}
		/* a value with nothing to offer: not an option, not a file */
		if (pattern(out, c, opts, m, help, V_NONE))
			fprintf(out, ")\n\t\t\treturn ;;\n");
		fprintf(out, "\t\tesac\n");
		if (c->words) {
			fprintf(out, "\t\targs=\"");
			for (j = 0; c->words[j]; j++)
				fprintf(out, "%s%s", j ? " " : "", c->words[j]);
			fprintf(out, "\"\n");
		}
		fprintf(out, "\t\t;;\n");
		free(help);
	}
	fprintf(out, "\t*) return ;;\n"
		     "\tesac\n"
		     "\tif [[ $cur == -* ]]; then\n"
		     "\t\tCOMPREPLY=($(compgen -W \"$o\" -- \"$cur\"))\n"
		     "\telif [ -n \"$args\" ]; then\n"
		     "\t\tCOMPREPLY=($(compgen -W \"$args\" -- \"$cur\"))\n"
		     "\telse\n"
		     "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
		     "\tfi\n"
		     "}\n"
		     "complete -F _%s %s\n",
		prog, prog);
	if (ferror(out)) {
		msgbuf_set(err, errlen, "writing the completion failed");
		return -1;
	}
	return 0;
}
