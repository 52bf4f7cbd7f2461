/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the man page and completion generator: roff escaping, the
 * metavar read from a help text, and a completion and option list that
 * hold exactly a command's table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmdline.h"
#include "cmd/helpgen.h"

/* What @fn writes to a FILE, as a string the caller frees. A tmpfile, not
 * open_memstream: GCC 12 for armhf takes the memstream's buffer, written
 * through a pointer to a local, for a dangling pointer (-Wdangling-pointer). */
static char *captured(void (*fn)(FILE *, void *), void *arg)
{
	FILE *f = tmpfile();
	long len;
	char *buf;

	assert_non_null(f);
	fn(f, arg);
	assert_int_equal(fflush(f), 0);
	len = ftell(f);
	assert_true(len >= 0);
	rewind(f);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void roff(FILE *f, void *arg)
{
	helpgen_roff_text(f, arg);
}

static void roff_escapes_dashes_backslashes_leading_dots_and_utf8(void **state)
{
	char *s;

	(void)state;
	s = captured(roff, ".quiet\n'x\n  --tmin 5\\us \xc2\xb5s\nlast");
	assert_string_equal(s, "\\&.quiet\n\\&'x\n  \\-\\-tmin 5\\eus \\[u00B5]s\nlast\n");
	free(s);
	/* a byte that starts no UTF-8 sequence is not passed through raw */
	s = captured(roff, "a\xff" "b\n");
	assert_string_equal(s, "a?b\n");
	free(s);
}

static void the_metavar_is_the_word_after_the_option_in_the_help(void **state)
{
	const char *help = "  --jsonl X\n  --json FILE   out\n  --board FILE|NAME  b\n"
			   "  --quiet   no text\n  see --quiet-ish\n";
	char mv[32];

	(void)state;
	assert_string_equal(helpgen_metavar(help, "json", mv, sizeof(mv)), "FILE");
	assert_string_equal(helpgen_metavar(help, "board", mv, sizeof(mv)), "FILE|NAME");
	assert_string_equal(helpgen_metavar(help, "quiet", mv, sizeof(mv)), "");
	assert_string_equal(helpgen_metavar(help, "absent", mv, sizeof(mv)), "");
}

/* A command of two options and a subcommand word. */
static size_t fake_options(struct option *out, size_t max)
{
	static const struct option opts[] = {
		{ "alpha", required_argument, NULL, 'a' },
		{ "beta", no_argument, NULL, 'b' },
		{ "gamma", required_argument, NULL, 'g' },
		{ "alpha", no_argument, NULL, 'A' }, /* never reached: getopt takes the first */
		{ 0 },
	};

	return cmdline_options_copy(out, max, opts);
}

static void fake_help(FILE *f)
{
	fprintf(f, "usage: sqwave fake [--alpha FILE] [--beta] [--gamma N]\n"
		   ".starts with a dot\n");
}

static const char *const fake_words[] = { "detect", NULL };
static const struct helpgen_cmd fake = { "fake", "a fake command", fake_options, fake_help,
					 fake_words, NULL };

static void completion(FILE *f, void *arg)
{
	char err[128];

	(void)arg;
	assert_int_equal(helpgen_completion(f, "sqwave", "--help", &fake, 1, err, sizeof(err)), 0);
}

static void the_completion_offers_exactly_the_tables_options_and_words(void **state)
{
	char *s = captured(completion, NULL);

	(void)state;
	assert_non_null(strstr(s, "\tfake)\n\t\to=\"--alpha --beta --gamma\"\n"));
	/* --alpha's value is a file (FILE in the help), --gamma's is not */
	assert_non_null(strstr(s, "\t\t--alpha)\n\t\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"));
	assert_non_null(strstr(s, "\t\t--gamma)\n\t\t\treturn ;;\n"));
	assert_null(strstr(s, "--beta)"));
	assert_non_null(strstr(s, "args=\"detect\""));
	assert_non_null(strstr(s, "compgen -W \"fake --help\""));
	assert_non_null(strstr(s, "complete -F _sqwave sqwave\n"));
	free(s);
}

static void list(FILE *f, void *arg)
{
	char err[128];

	(void)arg;
	assert_int_equal(helpgen_list(f, &fake, 1, err, sizeof(err)), 0);
}

static void the_option_list_marks_the_options_that_take_a_value(void **state)
{
	char *s = captured(list, NULL);

	(void)state;
	assert_string_equal(s, "fake --alpha =\nfake --beta\nfake --gamma =\n");
	free(s);
}

static void man(FILE *f, void *arg)
{
	char err[128];

	(void)arg;
	assert_int_equal(helpgen_man(f, &fake, 1, err, sizeof(err)), 0);
}

static void the_man_section_holds_each_commands_help_escaped(void **state)
{
	char *s = captured(man, NULL);

	(void)state;
	assert_true(!strncmp(s, ".SH OPTIONS\n", 12));
	assert_non_null(strstr(s, ".SS \"sqwave fake\"\na fake command\n.PP\n.nf\n"
				  "usage: sqwave fake [\\-\\-alpha FILE] [\\-\\-beta] [\\-\\-gamma N]\n"
				  "\\&.starts with a dot\n.fi\n"));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(roff_escapes_dashes_backslashes_leading_dots_and_utf8),
		cmocka_unit_test(the_metavar_is_the_word_after_the_option_in_the_help),
		cmocka_unit_test(the_completion_offers_exactly_the_tables_options_and_words),
		cmocka_unit_test(the_option_list_marks_the_options_that_take_a_value),
		cmocka_unit_test(the_man_section_holds_each_commands_help_escaped),
	};

	return cmocka_run_group_tests_name("helpgen", tests, NULL, NULL);
}
