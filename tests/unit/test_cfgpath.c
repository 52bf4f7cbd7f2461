/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for board files and profiles by short name: the search order,
 * which one wins, the listing and its origins, the messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define _XOPEN_SOURCE_EXTENDED 1
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/cfgpath.h"
#include "config/config.h"

static char top[64], oldcwd[PATH_MAX];

static void put(const char *rel, const char *content)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	for (p = path + strlen(top) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static char etc[128], share[128], xdg[128];

/* A working directory with ./boards, and the XDG, /etc and share directories
 * all under one temporary tree. */
static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/sqwave-cfgpath-XXXXXX");
	if (!mkdtemp(top) || !getcwd(oldcwd, sizeof(oldcwd)))
		return -1;
	snprintf(etc, sizeof(etc), "%s/etc", top);
	snprintf(share, sizeof(share), "%s/share", top);
	snprintf(xdg, sizeof(xdg), "%s/xdg", top);
	cfgpath_etc_dir = etc;
	cfgpath_data_dir = share;
	setenv("XDG_CONFIG_HOME", xdg, 1);
	mkdir(top, 0755);
	put("cwd/boards/local.yaml", "x");
	put("cwd/boards/both.yaml", "cwd");
	put("xdg/sqwave/boards/mine.yaml", "x");
	put("etc/boards/both.yaml", "etc");
	put("etc/boards/site.yaml", "x");
	put("share/boards/stm32mp135f-dk.yaml", "x");
	put("share/boards/both.yaml", "share");
	put("share/config/quick.yaml", "x");
	put("cwd/notes.txt", "x");
	put("cwd/plain.yaml", "x");
	if (chdir(top) || chdir("cwd"))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (chdir(oldcwd))
		return -1;
	nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	unsetenv("XDG_CONFIG_HOME");
	return 0;
}

static void resolves(enum cfgpath_kind kind, const char *arg, const char *want_suffix,
		     const char *want_origin)
{
	char out[PATH_MAX], origin[PATH_MAX + 32], err[1024];
	size_t n = strlen(want_suffix);

	if (cfgpath_resolve(kind, arg, out, sizeof(out), origin, sizeof(origin), err,
			    sizeof(err)))
		fail_msg("%s: %s", arg, err);
	if (strlen(out) < n || strcmp(out + strlen(out) - n, want_suffix))
		fail_msg("%s resolved to %s, want ...%s", arg, out, want_suffix);
	if (!strstr(origin, want_origin))
		fail_msg("%s came from %s, want %s", arg, origin, want_origin);
}

static void a_short_name_is_found_along_the_search_path_in_order(void **state)
{
	(void)state;
	resolves(CFGPATH_BOARD, "local", "boards/local.yaml", "./boards");
	resolves(CFGPATH_BOARD, "mine", "xdg/sqwave/boards/mine.yaml", "$XDG_CONFIG_HOME");
	resolves(CFGPATH_BOARD, "site", "etc/boards/site.yaml", "/etc/boards");
	resolves(CFGPATH_BOARD, "stm32mp135f-dk", "share/boards/stm32mp135f-dk.yaml",
		 "installed");
	resolves(CFGPATH_BOARD, "stm32mp135f-dk.yaml", "share/boards/stm32mp135f-dk.yaml",
		 "installed");
	resolves(CFGPATH_PROFILE, "quick", "share/config/quick.yaml", "installed");
}

static void the_first_directory_with_a_name_wins(void **state)
{
	(void)state;
	resolves(CFGPATH_BOARD, "both", "./boards/both.yaml", "./boards");
	assert_int_equal(unlink("boards/both.yaml"), 0);
	resolves(CFGPATH_BOARD, "both", "etc/boards/both.yaml", "etc");
}

static void a_file_is_taken_as_given(void **state)
{
	(void)state;
	resolves(CFGPATH_BOARD, "plain.yaml", "plain.yaml", "file");
	resolves(CFGPATH_BOARD, "./boards/local.yaml", "./boards/local.yaml", "file");
}

static void an_unknown_name_says_where_it_looked_and_what_there_is(void **state)
{
	char out[PATH_MAX], err[2048];

	(void)state;
	assert_int_equal(cfgpath_resolve(CFGPATH_BOARD, "stm32mp135", out, sizeof(out), NULL, 0,
					 err, sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "no board file or board named \"stm32mp135\""));
	assert_non_null(strstr(err, "./boards"));
	assert_non_null(strstr(err, etc));
	assert_non_null(strstr(err, "known: both, local, mine, site, stm32mp135f-dk"));
	assert_non_null(strstr(err, "did you mean stm32mp135f-dk?"));
	assert_int_equal(cfgpath_resolve(CFGPATH_PROFILE, "", out, sizeof(out), NULL, 0, err,
					 sizeof(err)), -1);
}

/* Names come from users and scripts: a dot name is not a name (not "...yaml"
 * looked up), a long one cannot be a file name, and what is echoed back is
 * escaped. */
static void odd_names_are_refused_or_escaped_never_echoed_raw(void **state)
{
	char out[PATH_MAX], err[2048], lng[400];

	(void)state;
	assert_int_equal(cfgpath_resolve(CFGPATH_BOARD, "..", out, sizeof(out), NULL, 0, err,
					 sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err, "\"..\" is no board name (`sqwave boards` lists them: names of "
			    "at most 127 characters, not starting with a dot) and no file of that "
			    "name is here");
	put("cwd/boards/.hidden.yaml", "x");
	assert_int_equal(cfgpath_resolve(CFGPATH_BOARD, ".hidden", out, sizeof(out), NULL, 0,
					 err, sizeof(err)), -1);
	memset(lng, 'x', sizeof(lng) - 1);
	lng[sizeof(lng) - 1] = '\0';
	assert_int_equal(cfgpath_resolve(CFGPATH_PROFILE, lng, out, sizeof(out), NULL, 0, err,
					 sizeof(err)), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	assert_true(strlen(err) < 400);
	/* as long as the listing takes (127), not as long as a file name (250) */
	lng[128] = '\0';
	assert_int_equal(cfgpath_resolve(CFGPATH_PROFILE, lng, out, sizeof(out), NULL, 0, err,
					 sizeof(err)), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	lng[127] = '\0';
	assert_int_equal(cfgpath_resolve(CFGPATH_PROFILE, lng, out, sizeof(out), NULL, 0, err,
					 sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(cfgpath_resolve(CFGPATH_BOARD, "a\x1b[2Jb", out, sizeof(out), NULL, 0,
					 err, sizeof(err)), -1);
	assert_null(strchr(err, '\x1b'));
	assert_string_equal(err, "\"a\\x1b[2Jb\": a file name with a control character (a "
			    "newline) cannot be recorded in the log; rename the file");
	assert_int_equal(cfgpath_resolve(CFGPATH_BOARD, "\xc3\xa9t\xc3\xa9", out, sizeof(out),
					 NULL, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "named \"\xc3\xa9t\xc3\xa9\": looked for \xc3\xa9t\xc3\xa9.yaml"));
	/* a path goes into the log header as one line: no newline in it */
	put("cwd/nl\nboard.name=x.yaml", "x");
	assert_int_equal(cfgpath_resolve(CFGPATH_BOARD, "./nl\nboard.name=x.yaml", out,
					 sizeof(out), NULL, 0, err, sizeof(err)), -1);
	assert_string_equal(err, "\"./nl\\nboard.name=x.yaml\": a file name with a control "
			    "character (a newline) cannot be recorded in the log; rename the file");
	/* by name too; and the listing leaves such a file out */
	put("cwd/boards/nl\nx.yaml", "x");
	assert_int_equal(cfgpath_resolve(CFGPATH_BOARD, "nl\nx", out, sizeof(out), NULL, 0, err,
					 sizeof(err)), -1);
	assert_int_equal(errno, EINVAL);
	{
		struct cfgpath_entry *e;
		int n = cfgpath_list(CFGPATH_BOARD, &e), i;

		for (i = 0; i < n; i++)
			assert_null(strchr(e[i].name, '\n'));
		free(e);
	}
}

/* What `sqwave boards` skips, lookup skips too, and says so when nothing
 * else has the name. */
static void a_name_that_is_not_a_regular_file_is_skipped_and_named(void **state)
{
	char out[PATH_MAX], err[2048];

	(void)state;
	assert_int_equal(mkfifo("boards/site.yaml", 0600), 0);
	assert_int_equal(mkdir("boards/gone.yaml", 0755), 0);
	resolves(CFGPATH_BOARD, "site", "etc/boards/site.yaml", "/etc/boards");
	assert_int_equal(cfgpath_resolve(CFGPATH_BOARD, "gone", out, sizeof(out), NULL, 0, err,
					 sizeof(err)), -1);
	assert_non_null(strstr(err, "; ./boards/gone.yaml is there but is not a regular file one "
			       "can read; known: "));
}

static void the_listing_marks_names_an_earlier_directory_hides(void **state)
{
	struct cfgpath_entry *e;
	int n, i, both = 0, hidden = 0;

	(void)state;
	n = cfgpath_list(CFGPATH_BOARD, &e);
	assert_int_equal(n, 7);
	for (i = 0; i < n; i++) {
		if (strcmp(e[i].name, "both"))
			continue;
		both++;
		hidden += e[i].shadowed;
		if (!e[i].shadowed)
			assert_string_equal(e[i].path, "./boards/both.yaml");
	}
	assert_int_equal(both, 3);
	assert_int_equal(hidden, 2);
	assert_string_equal(e[0].name, "both");   /* ./boards first, by name */
	assert_string_equal(e[1].name, "local");
	free(e);
}

static void without_xdg_config_home_the_home_config_is_searched(void **state)
{
	struct cfgpath_dir d[CFGPATH_MAX_DIRS];
	int n;

	(void)state;
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", top, 1);
	n = cfgpath_dirs(CFGPATH_PROFILE, d, CFGPATH_MAX_DIRS);
	assert_true(n >= 4);
	assert_string_equal(d[0].path, "./config");
	assert_non_null(strstr(d[1].path, "/.config/sqwave/config"));
	assert_string_equal(d[1].origin, "~/.config/sqwave/config");
}

static void loading_without_a_board_needs_chip_and_line(void **state)
{
	char bp[PATH_MAX], pp[PATH_MAX], err[512];
	struct config *c = config_new();

	(void)state;
	assert_int_equal(cfgpath_load(c, NULL, NULL, bp, pp, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--board FILE|NAME is required, or --chip and --line"));
	assert_int_equal(config_apply_option(c, "chip", "0", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_apply_option(c, "line", "5", err, sizeof(err)), CFG_OK);
	assert_int_equal(cfgpath_load(c, NULL, NULL, bp, pp, err, sizeof(err)), 0);
	assert_string_equal(config_str(c, CFG_BOARD_NAME), "none");
	assert_string_equal(bp, "");
	config_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_short_name_is_found_along_the_search_path_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(the_first_directory_with_a_name_wins, setup, teardown),
		cmocka_unit_test_setup_teardown(a_file_is_taken_as_given, setup, teardown),
		cmocka_unit_test_setup_teardown(an_unknown_name_says_where_it_looked_and_what_there_is, setup, teardown),
		cmocka_unit_test_setup_teardown(odd_names_are_refused_or_escaped_never_echoed_raw,
						setup, teardown),
		cmocka_unit_test_setup_teardown(a_name_that_is_not_a_regular_file_is_skipped_and_named,
						setup, teardown),
		cmocka_unit_test_setup_teardown(the_listing_marks_names_an_earlier_directory_hides, setup, teardown),
		cmocka_unit_test_setup_teardown(without_xdg_config_home_the_home_config_is_searched, setup, teardown),
		cmocka_unit_test_setup_teardown(loading_without_a_board_needs_chip_and_line, setup, teardown),
	};

	return cmocka_run_group_tests_name("cfgpath", tests, NULL, NULL);
}
