/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the shared command-line part: what a refused option is
 * told (the closest option, as a mistyped YAML key gets the closest key),
 * and the configuration options every command that loads one takes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmdline.h"
#include "config/config.h"

/* getopt_long over @argv (NULL-terminated) until it refuses something;
 * the sentence for that, or "" if nothing was refused. */
static const char *refused(const struct option *opts, const char *shortopts, char **argv,
			   char *err, size_t len)
{
	int argc = 0, ch;

	while (argv[argc])
		argc++;
	optind = 1;
	opterr = 0;
	err[0] = '\0';
	while ((ch = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		if (ch == '?')
			return cmdline_refused(opts, shortopts, argv, optind, optopt, "run", err, len);
	}
	return err;
}

static struct option run_opts[CMDLINE_CONFIG_OPTIONS + 2];

static void run_like_options(void)
{
	size_t n = cmdline_config_options(run_opts, CMDLINE_CONFIG_OPTIONS);

	run_opts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	run_opts[n] = (struct option){ 0 };
}

static void a_mistyped_option_gets_the_closest_one(void **state)
{
	char err[256];
	char *a[] = { "run", "--durration", "5s", NULL };
	char *b[] = { "run", "--half_period=500", NULL };
	char *c[] = { "run", "--qiuet", NULL };

	(void)state;
	run_like_options();
	assert_string_equal(refused(run_opts, "+b:p:s:h", a, err, sizeof(err)),
			    "unknown option --durration; did you mean --duration? "
			    "('sqwave run --help' lists the options)");
	/* '_' for '-', and the value after '=' is not part of the name */
	assert_string_equal(refused(run_opts, "+b:p:s:h", b, err, sizeof(err)),
			    "unknown option --half_period; did you mean --half-period? "
			    "('sqwave run --help' lists the options)");
	/* two letters swapped are one edit */
	assert_non_null(strstr(refused(run_opts, "+b:p:s:h", c, err, sizeof(err)),
			       "did you mean --quiet?"));
}

static void a_word_far_from_every_option_gets_no_guess(void **state)
{
	char err[256];
	char *a[] = { "run", "--frobnicate", NULL };

	(void)state;
	run_like_options();
	assert_string_equal(refused(run_opts, "+b:p:s:h", a, err, sizeof(err)),
			    "unknown option --frobnicate ('sqwave run --help' lists the options)");
}

static void a_missing_or_unwanted_value_is_named(void **state)
{
	char err[256];
	char *a[] = { "run", "--duration", NULL };
	char *b[] = { "run", "--quiet=yes", NULL };
	char *c[] = { "run", "-b", NULL };
	char *d[] = { "run", "-x", NULL };
	char *e[] = { "run", "--board", NULL };

	(void)state;
	run_like_options();
	assert_non_null(strstr(refused(run_opts, "+b:p:s:h", a, err, sizeof(err)),
			       "--duration needs a value"));
	assert_non_null(strstr(refused(run_opts, "+b:p:s:h", b, err, sizeof(err)),
			       "--quiet takes no value, got \"--quiet=yes\""));
	assert_non_null(strstr(refused(run_opts, "+b:p:s:h", c, err, sizeof(err)),
			       "-b needs a value"));
	assert_non_null(strstr(refused(run_opts, "+b:p:s:h", d, err, sizeof(err)),
			       "unknown option -x"));
	assert_non_null(strstr(refused(run_opts, "+b:p:s:h", e, err, sizeof(err)),
			       "--board needs a value"));
}

static void an_ambiguous_prefix_names_the_candidates(void **state)
{
	static const struct option opts[] = {
		{ "scope-tmin", required_argument, NULL, 1 },
		{ "scope-tmax", required_argument, NULL, 2 },
		{ "json", required_argument, NULL, 3 },
		{ 0 },
	};
	char err[256];
	char *a[] = { "compare", "--scope-t", "400", NULL };

	(void)state;
	assert_string_equal(refused(opts, "", a, err, sizeof(err)),
			    "option --scope-t is ambiguous: it could be --scope-tmin, --scope-tmax "
			    "('sqwave run --help' lists the options)");
}

static void the_configuration_options_map_to_their_keys(void **state)
{
	size_t n, i;
	bool board = false, half = false;

	(void)state;
	run_like_options();
	n = cmdline_config_options(run_opts, CMDLINE_CONFIG_OPTIONS);
	assert_true(n > 10);
	for (i = 0; i < n; i++) {
		if (!strcmp(run_opts[i].name, "board"))
			board = run_opts[i].val == 'b' && run_opts[i].has_arg == required_argument;
		if (!strcmp(run_opts[i].name, "half-period"))
			half = run_opts[i].val == CMDLINE_KEY_VAL + CFG_RUN_HALF_PERIOD;
	}
	assert_true(board && half);
	/* a short buffer is filled, never overrun */
	assert_int_equal(cmdline_config_options(run_opts, 2), 2);
}

static void a_tiny_buffer_is_cut_not_overrun(void **state)
{
	char err[12];
	char *a[] = { "run", "--durration", NULL };

	(void)state;
	run_like_options();
	refused(run_opts, "+b:p:s:h", a, err, sizeof(err));
	assert_int_equal(strlen(err), sizeof(err) - 1);
}

/* ---- the loop's common parts: cmdline_next(), cmdline_args() ---- */

static int usage_calls;
static FILE *usage_to;

static void count_usage(FILE *f)
{
	usage_calls++;
	usage_to = f;
}

static const struct option loop_opts[] = {
	{ "json", required_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* Run the loop over @argv (NULL-terminated): the last value it returned,
 * and in *@json the value of --json. */
static int loop(char **argv, const char **json, int *argc_out)
{
	struct cmdline cl = { "test", loop_opts, "h", count_usage, false };
	int argc = 0, ch;

	while (argv[argc])
		argc++;
	*argc_out = argc;
	usage_calls = 0;
	usage_to = NULL;
	while ((ch = cmdline_next(&cl, argc, argv, NULL)) >= 0)
		if (ch == 'j')
			*json = optarg;
	return ch;
}

static void the_loop_hands_back_own_options_and_handles_help_and_refusals(void **state)
{
	char *ok[] = { "test", "--json", "x.json", "FILE", NULL };
	char *help[] = { "test", "--json", "x", "-h", NULL };
	char *bad[] = { "test", "--jsn", "x", NULL };
	char *missing[] = { "test", "--json", NULL };
	const char *json = NULL;
	struct cmdline cl = { "test", loop_opts, "h", count_usage, true };
	int argc;

	(void)state;
	assert_int_equal(loop(ok, &json, &argc), CMDLINE_END);
	assert_string_equal(json, "x.json");
	assert_int_equal(optind, 3);
	assert_int_equal(usage_calls, 0);
	/* exactly one positional: fine; none allowed: refused, no usage */
	assert_int_equal(cmdline_args(&cl, argc, ok, 1, 1), 0);
	assert_int_equal(cmdline_args(&cl, argc, ok, 0, 0), -1);
	assert_int_equal(usage_calls, 0);
	/* two wanted: the usage, on standard error */
	assert_int_equal(cmdline_args(&cl, argc, ok, 2, -1), -1);
	assert_int_equal(usage_calls, 1);
	assert_ptr_equal(usage_to, stderr);

	assert_int_equal(loop(help, &json, &argc), CMDLINE_HELP);
	assert_int_equal(usage_calls, 1);
	assert_ptr_equal(usage_to, stdout);
	assert_int_equal(loop(bad, &json, &argc), CMDLINE_BAD);
	assert_int_equal(loop(missing, &json, &argc), CMDLINE_BAD);
	assert_int_equal(usage_calls, 0);
	/* a second loop starts over: getopt's state is reset */
	json = NULL;
	assert_int_equal(loop(ok, &json, &argc), CMDLINE_END);
	assert_string_equal(json, "x.json");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_mistyped_option_gets_the_closest_one),
		cmocka_unit_test(a_word_far_from_every_option_gets_no_guess),
		cmocka_unit_test(a_missing_or_unwanted_value_is_named),
		cmocka_unit_test(an_ambiguous_prefix_names_the_candidates),
		cmocka_unit_test(the_configuration_options_map_to_their_keys),
		cmocka_unit_test(a_tiny_buffer_is_cut_not_overrun),
		cmocka_unit_test(the_loop_hands_back_own_options_and_handles_help_and_refusals),
	};

	return cmocka_run_group_tests_name("cmdline", tests, NULL, NULL);
}
