/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for yamlcfg.c: every error class with its FILE:LINE:COL, and
 * every shipped board file and profile. Run from the repository root. */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/config.h"
#include "config/plan.h"
#include "config/yamlcfg.h"

#define US  INT64_C(1000)
#define SEC INT64_C(1000000000)
#define DATA "tests/data/yaml/"

static int setup(void **state)
{
	*state = config_new();
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	config_free(*state);
	return 0;
}

static void load_ok(struct config *c, const char *path, enum cfg_source src)
{
	char err[1024] = "";

	if (yamlcfg_load(c, path, src, err, sizeof(err)) != YAMLCFG_OK)
		fail_msg("%s: %s", path, err);
}

/* Load @path expecting result @want and the message @msg exactly. */
static void load_fails(const char *path, enum cfg_source src, enum yamlcfg_result want,
		       const char *msg)
{
	struct config *c = config_new();
	char err[1024] = "";
	enum yamlcfg_result r;

	assert_non_null(c);
	r = yamlcfg_load(c, path, src, err, sizeof(err));
	if (r != want)
		fail_msg("%s: want %s, got %s: %s", path, yamlcfg_result_str(want),
			 yamlcfg_result_str(r), err);
	assert_string_equal(err, msg);
	config_free(c);
}

static void a_valid_board_file_sets_its_keys_with_file_and_line(void **state)
{
	struct config *c = *state;
	char buf[128];

	load_ok(c, DATA "board-ok.yaml", CFG_SRC_BOARD);
	assert_string_equal(config_str(c, CFG_BOARD_NAME), "test-board");
	assert_string_equal(config_str(c, CFG_GPIO_BACKEND), "sim");
	assert_string_equal(config_str(c, CFG_GPIO_LINE), "0");
	assert_int_equal(config_int(c, CFG_RT_CPU), 1);
	assert_int_equal(config_source(c, CFG_GPIO_CHIP), CFG_SRC_BOARD);
	assert_string_equal(config_origin(c, CFG_GPIO_CHIP, buf, sizeof(buf)),
			    DATA "board-ok.yaml:9");
	assert_string_equal(config_origin(c, CFG_RT_CPU, buf, sizeof(buf)),
			    DATA "board-ok.yaml:12");
	assert_string_equal(config_origin(c, CFG_RUN_DURATION, buf, sizeof(buf)), "default");
}

static void a_block_scalar_keeps_its_lines_but_not_the_final_newline(void **state)
{
	struct config *c = *state;

	load_ok(c, DATA "board-ok.yaml", CFG_SRC_BOARD);
	assert_string_equal(config_str(c, CFG_BOARD_NOTES), "first line\nsecond line");
}

static void the_profile_overrides_the_board_and_the_command_line_both(void **state)
{
	struct config *c = *state;
	char err[256], buf[128];

	/* The command line may come first: it still wins. */
	assert_int_equal(config_apply_set(c, "limits.tmax=700us", err, sizeof(err)), CFG_OK);
	load_ok(c, DATA "board-ok.yaml", CFG_SRC_BOARD);
	load_ok(c, DATA "profile-ok.yaml", CFG_SRC_PROFILE);
	assert_int_equal(config_int(c, CFG_RT_CPU), 0);          /* profile over board */
	assert_string_equal(config_origin(c, CFG_RT_CPU, buf, sizeof(buf)),
			    DATA "profile-ok.yaml:6");
	assert_int_equal(config_int(c, CFG_LIMITS_TMAX), 700 * US); /* command line */
	assert_int_equal(config_int(c, CFG_RUN_HALF_PERIOD), 250 * US);
	assert_int_equal(config_int(c, CFG_RUN_DURATION), 5 * SEC); /* bare number: s */
	assert_int_equal(config_check_required(c, err, sizeof(err)), CFG_OK);
}

static void a_profile_loaded_before_the_board_still_wins(void **state)
{
	struct config *c = *state;

	load_ok(c, DATA "profile-ok.yaml", CFG_SRC_PROFILE);
	load_ok(c, DATA "board-ok.yaml", CFG_SRC_BOARD);
	assert_int_equal(config_int(c, CFG_RT_CPU), 0);
}

static void null_values_are_empty_strings_and_empty_sections(void **state)
{
	struct config *c = *state;

	load_ok(c, DATA "nulls.yaml", CFG_SRC_PROFILE);
	assert_false(config_bool(c, CFG_RT_LOCK_MEMORY));
	assert_string_equal(config_str(c, CFG_OUTPUT_LOG), "");
	assert_int_equal(config_source(c, CFG_OUTPUT_JSON), CFG_SRC_PROFILE);
}

static void a_syntax_error_reports_libyamls_problem_and_position(void **state)
{
	(void)state;
	load_fails(DATA "syntax-error.yaml", CFG_SRC_PROFILE, YAMLCFG_E_SYNTAX,
		   DATA "syntax-error.yaml:4:1: YAML syntax error: found unexpected end of "
		   "stream (while scanning a quoted scalar that started on line 2); a board "
		   "file or profile is a mapping of sections of key: value lines");
	load_fails(DATA "bad-indent.yaml", CFG_SRC_PROFILE, YAMLCFG_E_SYNTAX,
		   DATA "bad-indent.yaml:3:2: YAML syntax error: did not find expected key "
		   "(while parsing a block mapping that started on line 1); a board file or "
		   "profile is a mapping of sections of key: value lines");
}

static void a_tab_gets_a_plain_answer(void **state)
{
	(void)state;
	load_fails(DATA "tab-indent.yaml", CFG_SRC_PROFILE, YAMLCFG_E_SYNTAX,
		   DATA "tab-indent.yaml:2:1: YAML syntax error: a tab character; YAML "
		   "indents with spaces only");
}

static void the_top_level_must_be_a_mapping(void **state)
{
	(void)state;
	load_fails(DATA "top-level-list.yaml", CFG_SRC_PROFILE, YAMLCFG_E_STRUCTURE,
		   DATA "top-level-list.yaml:1:1: the top level must be a mapping of sections "
		   "(\"section:\" lines with indented \"key: value\" lines), found a list; a "
		   "profile has the sections run, grid, respond, rt, limits, proof, trace, output, phases and load");
}

static void a_section_must_be_a_mapping(void **state)
{
	(void)state;
	load_fails(DATA "section-not-mapping.yaml", CFG_SRC_PROFILE, YAMLCFG_E_STRUCTURE,
		   DATA "section-not-mapping.yaml:1:6: section run must be a mapping of key: "
		   "value lines, found a single value; run has the keys half_period, high, low, "
		   "phase, duration, scale, warmup, ring_size, label, description, containment, spin, loopback, outputs, line_high, line_low and line_phase");
}

static void an_unknown_section_lists_the_valid_ones_and_suggests_one(void **state)
{
	(void)state;
	load_fails(DATA "unknown-section.yaml", CFG_SRC_PROFILE, YAMLCFG_E_SECTION,
		   DATA "unknown-section.yaml:3:1: unknown section \"limts\"; did you mean "
		   "limits? a profile has the sections run, grid, respond, rt, limits, proof, trace, output, phases "
		   "and load");
}

static void an_unknown_key_lists_the_sections_keys_and_suggests_one(void **state)
{
	(void)state;
	load_fails(DATA "unknown-key.yaml", CFG_SRC_PROFILE, YAMLCFG_E_KEY,
		   DATA "unknown-key.yaml:3:3: unknown key \"half_perod\" in section run; did "
		   "you mean half_period? run has the keys half_period, high, low, phase, "
		   "duration, scale, warmup, ring_size, label, description, containment, spin, loopback, outputs, line_high, line_low and line_phase");
}

static void a_duplicate_key_names_the_first_line(void **state)
{
	(void)state;
	load_fails(DATA "duplicate-key.yaml", CFG_SRC_PROFILE, YAMLCFG_E_KEY,
		   DATA "duplicate-key.yaml:4:3: duplicate key run.duration (first set on "
		   "line 2); set each key once");
	load_fails(DATA "duplicate-section.yaml", CFG_SRC_PROFILE, YAMLCFG_E_SECTION,
		   DATA "duplicate-section.yaml:5:1: duplicate section run (first on line 1); "
		   "write each section once");
}

static void a_list_where_a_value_belongs_is_a_type_error(void **state)
{
	(void)state;
	load_fails(DATA "list-value.yaml", CFG_SRC_PROFILE, YAMLCFG_E_VALUE,
		   DATA "list-value.yaml:3:5: run.duration must be a single value, a duration "
		   "between 0 and 8760h (bare numbers are s), found a list");
}

static void an_out_of_range_value_names_key_range_and_position(void **state)
{
	(void)state;
	load_fails(DATA "out-of-range.yaml", CFG_SRC_PROFILE, YAMLCFG_E_VALUE,
		   DATA "out-of-range.yaml:4:13: rt.priority must be an integer between 1 and "
		   "99, got \"120\"");
	load_fails(DATA "no-value.yaml", CFG_SRC_PROFILE, YAMLCFG_E_VALUE,
		   DATA "no-value.yaml:3:8: rt.cpu has no value; it must be an integer between "
		   "-1 and 1023");
	load_fails(DATA "escaped-nul.yaml", CFG_SRC_PROFILE, YAMLCFG_E_VALUE,
		   DATA "escaped-nul.yaml:2:8: rt.cpu contains a NUL character; it must be an "
		   "integer between -1 and 1023");
}

static void a_bad_choice_lists_the_choices(void **state)
{
	(void)state;
	load_fails(DATA "bad-enum.yaml", CFG_SRC_BOARD, YAMLCFG_E_VALUE,
		   DATA "bad-enum.yaml:4:12: gpio.backend must be one of gpiod, sim, got "
		   "\"gpiod2\"");
}

static void a_section_in_the_wrong_kind_of_file_says_where_it_belongs(void **state)
{
	(void)state;
	load_fails(DATA "board-section-in-profile.yaml", CFG_SRC_PROFILE, YAMLCFG_E_PLACE,
		   DATA "board-section-in-profile.yaml:3:1: section gpio belongs in a board "
		   "file, not in a profile; a profile has the sections run, grid, respond, rt, limits, proof, "
		   "trace, output, phases and load");
	load_fails(DATA "profile-ok.yaml", CFG_SRC_BOARD, YAMLCFG_E_PLACE,
		   DATA "profile-ok.yaml:2:1: section run belongs in a profile, not in a board "
		   "file; a board file has the sections board, gpio, loopback, input, match, sim and rt");
}

static void a_board_file_without_a_required_key_is_refused(void **state)
{
	(void)state;
	load_fails(DATA "missing-line.yaml", CFG_SRC_BOARD, YAMLCFG_E_MISSING,
		   DATA "missing-line.yaml:3:1: section gpio lacks the required key line; a "
		   "board file must set board.name, gpio.chip and gpio.line (gpio.line: \"\" "
		   "when the pin is not known)");
	load_fails(DATA "missing-board-section.yaml", CFG_SRC_BOARD, YAMLCFG_E_MISSING,
		   DATA "missing-board-section.yaml: missing required key board.name; a board "
		   "file must set board.name, gpio.chip and gpio.line (gpio.line: \"\" when "
		   "the pin is not known)");
}

static void an_empty_file_is_an_error(void **state)
{
	(void)state;
	load_fails(DATA "empty.yaml", CFG_SRC_PROFILE, YAMLCFG_E_STRUCTURE,
		   DATA "empty.yaml: is empty; a profile is a mapping of the sections run, grid, respond, rt, "
		   "limits, proof, trace, output, phases and load");
	load_fails(DATA "empty.yaml", CFG_SRC_BOARD, YAMLCFG_E_STRUCTURE,
		   DATA "empty.yaml: is empty; a board file is a mapping of the sections board, "
		   "gpio, loopback, input, match, sim and rt");
}

static void anchors_and_aliases_are_refused(void **state)
{
	(void)state;
	load_fails(DATA "anchors.yaml", CFG_SRC_PROFILE, YAMLCFG_E_STRUCTURE,
		   DATA "anchors.yaml:2:16: anchors and aliases (&hp, *hp) are not supported; "
		   "write the value out");
}

static void a_second_document_is_refused(void **state)
{
	(void)state;
	load_fails(DATA "two-documents.yaml", CFG_SRC_PROFILE, YAMLCFG_E_STRUCTURE,
		   DATA "two-documents.yaml:3:1: a second YAML document starts here; a profile "
		   "holds one document");
}

static void an_unreadable_file_gives_the_system_error(void **state)
{
	(void)state;
	load_fails(DATA "does-not-exist.yaml", CFG_SRC_PROFILE, YAMLCFG_E_IO,
		   DATA "does-not-exist.yaml: cannot open: No such file or directory");
	load_fails("tests/data/yaml", CFG_SRC_PROFILE, YAMLCFG_E_IO,
		   "tests/data/yaml: is a directory, not a regular file; a board file or profile "
		   "is a text file");
	load_fails("/dev/zero", CFG_SRC_BOARD, YAMLCFG_E_IO,
		   "/dev/zero: is a device, not a regular file; a board file or profile is a "
		   "text file");
}

/* Opening a FIFO nobody writes to waits forever: it is refused instead
 * (the alarm ends the test binary if it ever waits again). */
static void a_fifo_is_refused_without_waiting_for_a_writer(void **state)
{
	char dir[] = "/tmp/sqwave-test-fifo-XXXXXX", path[64], link[64], err[512], want[512];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/board.yaml", dir);
	snprintf(link, sizeof(link), "%s/link.yaml", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(symlink("board.yaml", link), 0);
	alarm(20);
	snprintf(want, sizeof(want), "%s: is a FIFO (named pipe), not a regular file; a board "
		 "file or profile is a text file", path);
	load_fails(path, CFG_SRC_BOARD, YAMLCFG_E_IO, want);
	snprintf(want, sizeof(want), "%s: is a FIFO (named pipe), not a regular file; a board "
		 "file or profile is a text file", link);
	load_fails(link, CFG_SRC_PROFILE, YAMLCFG_E_IO, want);
	alarm(0);
	/* a socket is not even opened (open() would fail with ENXIO) */
	{
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);

		assert_true(fd >= 0);
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/sock.yaml", dir);
		assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
		snprintf(want, sizeof(want), "%s: is a socket, not a regular file; a board file "
			 "or profile is a text file", sa.sun_path);
		load_fails(sa.sun_path, CFG_SRC_BOARD, YAMLCFG_E_IO, want);
		close(fd);
		unlink(sa.sun_path);
	}
	(void)err;
	unlink(link);
	unlink(path);
	rmdir(dir);
}

static void a_binary_file_is_not_text(void **state)
{
	static const char bin[] = "run:\n  dur\0ation: 1s\n";
	struct config *c = *state;
	char err[512];

	assert_int_equal(yamlcfg_load_buffer(c, "x.bin", bin, sizeof(bin) - 1, CFG_SRC_PROFILE,
					     err, sizeof(err)), YAMLCFG_E_SYNTAX);
	assert_string_equal(err, "x.bin:2:6: contains a NUL byte: this is not a text file; a "
			    "board file or profile is YAML text");
	assert_int_equal(yamlcfg_load_buffer(c, "x.bin", "\xff\xfa\xfe", 3, CFG_SRC_PROFILE,
					     err, sizeof(err)), YAMLCFG_E_SYNTAX);
	assert_string_equal(err, "x.bin:1:1: not UTF-8 text: invalid leading UTF-8 octet (byte "
			    "0xff); save the file as UTF-8: a board file or profile is UTF-8 text");
}

static enum yamlcfg_result load_text(const char *text, enum cfg_source src, char *err,
				     size_t errlen)
{
	struct config *c = config_new();
	enum yamlcfg_result r;

	assert_non_null(c);
	r = yamlcfg_load_buffer(c, "b.yaml", text, strlen(text), src, err, errlen);
	config_free(c);
	return r;
}

#define BOARD_HEAD "board:\n  name: t\ngpio:\n  backend: sim\n  chip: sqwave-sim\n  line: 0\n"

/* libyaml gives encoding errors as a byte offset only: the position is the
 * bad byte's, however the lines end, after a byte-order mark too. */
static void an_encoding_error_names_the_line_and_column_of_its_byte(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "board:\n  name: t\n  notes: caf\xe9 au lait\n",	/* Latin-1 */
		  "b.yaml:3:13: not UTF-8 text: invalid trailing UTF-8 octet (byte 0xe9)" },
		{ "board:\r\n  name: t\r\n  soc: \xff\r\n",	/* CRLF */
		  "b.yaml:3:8: not UTF-8 text: invalid leading UTF-8 octet (byte 0xff)" },
		{ "board:\r  name: t\r  soc: \xff\r",		/* old Mac CR */
		  "b.yaml:3:8: not UTF-8 text: invalid leading UTF-8 octet (byte 0xff)" },
		{ "\xef\xbb\xbf" "board:\n  name: \xc3\xa9\xc3\xa9\xc0\xae\n",	/* BOM, two é */
		  "b.yaml:2:11: not UTF-8 text: invalid length of a UTF-8 sequence (byte 0xc0)" },
		{ "\xef\xbb\xbf" "\xff: 1\n",
		  "b.yaml:1:1: not UTF-8 text: invalid leading UTF-8 octet (byte 0xff)" },
		{ "board:\n  name: t\n  soc: ab\xe2\x82",
		  "b.yaml:3:10: not UTF-8 text: incomplete UTF-8 octet sequence (byte 0xe2)" },
		{ "board:\n  name: t\x1b[31m\n",
		  "b.yaml:2:10: YAML syntax error: control characters are not allowed (U+001B); "
		  "write escapes such as \\t in a \"double-quoted\" value instead" },
	};
	char err[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(load_text(cases[i].text, CFG_SRC_BOARD, err, sizeof(err)),
				 YAMLCFG_E_SYNTAX);
		if (strncmp(err, cases[i].want, strlen(cases[i].want)))
			fail_msg("case %zu: want \"%s\", got \"%s\"", i, cases[i].want, err);
	}
}

static void utf16_is_told_to_be_saved_as_utf8(void **state)
{
	static const char le[] = "\xff\xfe" "b\0o\0a\0r\0d\0:\0\n\0", be_nobom[] = "\0b\0o";
	char err[512];
	struct config *c = *state;

	assert_int_equal(yamlcfg_load_buffer(c, "u.yaml", le, sizeof(le) - 1, CFG_SRC_BOARD, err,
					     sizeof(err)), YAMLCFG_E_SYNTAX);
	assert_string_equal(err, "u.yaml: is UTF-16 (or UTF-32) text; save it as UTF-8: a board "
			    "file or profile is UTF-8 text");
	assert_int_equal(yamlcfg_load_buffer(c, "u.yaml", be_nobom, sizeof(be_nobom) - 1,
					     CFG_SRC_BOARD, err, sizeof(err)), YAMLCFG_E_SYNTAX);
	assert_non_null(strstr(err, "UTF-16"));
}

/* [st,stm32mp135f-dk] is two items in YAML; "a, b" is one string: neither
 * ever matches a device tree, so both are errors, not a silent non-match. */
static void a_compatible_string_split_or_joined_by_mistake_is_refused(void **state)
{
	char err[512];

	(void)state;
	assert_int_equal(load_text(BOARD_HEAD "match:\n  compatible: [st,stm32mp135f-dk, "
				   "st,stm32mp135]\n", CFG_SRC_BOARD, err, sizeof(err)),
			 YAMLCFG_E_VALUE);
	assert_string_equal(err, "b.yaml:8:16: match.compatible: \"st\" and \"stm32mp135f-dk\" are "
			    "two items: in a [flow, list] a comma separates items; quote a value "
			    "that has a comma (\"st,stm32mp135f-dk\") or write one \"- \" line per "
			    "value");
	assert_int_equal(load_text(BOARD_HEAD "match:\n  dmi_board: [UP-APL01,UP-APL03]\n",
				   CFG_SRC_BOARD, err, sizeof(err)), YAMLCFG_E_VALUE);
	assert_int_equal(strncmp(err, "b.yaml:8:15: match.dmi_board: \"UP-APL01\" and", 44), 0);
	/* with a blank after the comma it is the two items it looks like */
	assert_int_equal(load_text(BOARD_HEAD "match:\n  dmi_board: [UP-APL01, UP-APL03]\n",
				   CFG_SRC_BOARD, err, sizeof(err)), YAMLCFG_OK);
	assert_int_equal(load_text(BOARD_HEAD "match:\n  compatible: st,stm32mp135f-dk, "
				   "st,stm32mp135\n", CFG_SRC_BOARD, err, sizeof(err)),
			 YAMLCFG_E_VALUE);
	assert_string_equal(err, "b.yaml:8:15: match.compatible: \"st,stm32mp135f-dk, "
			    "st,stm32mp135\" has a blank; a device-tree compatible string has "
			    "none: write one string per \"- \" line");
	assert_int_equal(load_text(BOARD_HEAD "match:\n  compatible:\n    - a,b\n    - \"c,d\t\"\n",
				   CFG_SRC_BOARD, err, sizeof(err)), YAMLCFG_E_VALUE);
	assert_int_equal(strncmp(err, "b.yaml:10:7: match.compatible: \"c,d\\x09\" has a blank",
				 52), 0);
}

static void every_way_of_writing_a_list_that_yaml_has_reads_the_same(void **state)
{
	static const char *const forms[] = {
		"match:\n  compatible:\n    - st,stm32mp135f-dk\n    - 'st,stm32mp135'\n",
		"match:\n  compatible:\n  - \"st,stm32mp135f-dk\"\n  - st,stm32mp135\n",
		"match:\n  compatible: [\"st,stm32mp135f-dk\", 'st,stm32mp135']\n",
		"match: {compatible: [\"st,stm32mp135f-dk\",\"st,stm32mp135\"]}\n",
		"match:\n  compatible: [ \"st,stm32mp135f-dk\" ,\n    \"st,stm32mp135\" ]\n",
	};
	char err[512], text[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct config *c = config_new();

		assert_non_null(c);
		snprintf(text, sizeof(text), BOARD_HEAD "%s", forms[i]);
		if (yamlcfg_load_buffer(c, "b.yaml", text, strlen(text), CFG_SRC_BOARD, err,
					sizeof(err)))
			fail_msg("form %zu: %s", i, err);
		assert_string_equal(config_str(c, CFG_MATCH_COMPATIBLE),
				    "st,stm32mp135f-dk\nst,stm32mp135");
		config_free(c);
	}
}

/* 010 is 8 or 10 depending on the YAML version a reader follows. */
static void an_integer_with_a_leading_zero_is_ambiguous_and_refused(void **state)
{
	static const char ok[] = "rt:\n  cpu: 0\n  dma_latency: -1\n  priority: \"010\"\n";
	struct config *c = *state;
	char err[512];

	assert_int_equal(load_text("rt:\n  priority: 010\n", CFG_SRC_PROFILE, err, sizeof(err)),
			 YAMLCFG_E_VALUE);
	assert_string_equal(err, "b.yaml:2:13: rt.priority: \"010\" has a leading zero: YAML 1.1 "
			    "reads it as an octal number, YAML 1.2 as a decimal one; write it "
			    "without the zero");
	assert_int_equal(load_text("rt:\n  cpu: -01\n", CFG_SRC_PROFILE, err, sizeof(err)),
			 YAMLCFG_E_VALUE);
	assert_int_equal(load_text("load:\n  - kind: coremark\n    instances: 02\n",
				   CFG_SRC_PROFILE, err, sizeof(err)), YAMLCFG_E_VALUE);
	assert_string_equal(err, "b.yaml:3:16: load.instances: \"02\" has a leading zero: YAML "
			    "1.1 reads it as an octal number, YAML 1.2 as a decimal one; write it "
			    "without the zero");
	/* 0, -1, 10 and a quoted "010" (a string: no octal reading) are fine */
	assert_int_equal(yamlcfg_load_buffer(c, "b.yaml", ok, sizeof(ok) - 1, CFG_SRC_PROFILE, err,
					     sizeof(err)), YAMLCFG_OK);
	assert_int_equal(config_int(c, CFG_RT_PRIORITY), 10);
	assert_int_equal(config_int(c, CFG_RT_CPU), 0);
}

/* One board, written as editors and people write YAML: the same values,
 * and the same line in each origin, whatever the line ends or the style. */
static void a_board_reads_the_same_in_every_style_and_line_ending(void **state)
{
	static const char *const forms[] = {
		"board:\n  name: dk\n  cpus: 1\ngpio:\n  chip: GPIOB\n  line: 1\n"
		"rt:\n  priority: 95\n",
		"board:\r\n  name: dk\r\n  cpus: 1\r\ngpio:\r\n  chip: GPIOB\r\n  line: 1\r\n"
		"rt:\r\n  priority: 95\r\n",
		"board:\r  name: dk\r  cpus: 1\rgpio:\r  chip: GPIOB\r  line: 1\r"
		"rt:\r  priority: 95\r",
		"\xef\xbb\xbf" "board:\n  name: dk\n  cpus: 1\ngpio:\n  chip: GPIOB\n  line: 1\n"
		"rt:\n  priority: 95\n",
		"board: {name: \"dk\",\n  cpus: 1}\t# one core\ngpio: {chip: 'GPIOB',\n  line: \"1\"}\n"
		"rt: {priority: !!int 95}\n",
		"%YAML 1.1\n---\nboard:\n  name: !!str dk\n  cpus: 1\ngpio:\n  chip: GPIOB\n"
		"  line: 1\nrt:\n  priority: 95\n...\n",
	};
	static const int line_of_priority[] = { 8, 8, 8, 8, 5, 10 };
	char err[512], buf[64], want[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct config *c = config_new();

		assert_non_null(c);
		if (yamlcfg_load_buffer(c, "b.yaml", forms[i], strlen(forms[i]), CFG_SRC_BOARD, err,
					sizeof(err)))
			fail_msg("form %zu: %s", i, err);
		assert_string_equal(config_str(c, CFG_BOARD_NAME), "dk");
		assert_string_equal(config_str(c, CFG_GPIO_CHIP), "GPIOB");
		assert_string_equal(config_str(c, CFG_GPIO_LINE), "1");
		assert_int_equal(config_int(c, CFG_BOARD_CPUS), 1);
		assert_int_equal(config_int(c, CFG_RT_PRIORITY), 95);
		snprintf(want, sizeof(want), "b.yaml:%d", line_of_priority[i]);
		if (strcmp(config_origin(c, CFG_RT_PRIORITY, buf, sizeof(buf)), want))
			fail_msg("form %zu: rt.priority from %s, want %s", i, buf, want);
		config_free(c);
	}
}

/* The indentation mistakes people make, named as such. */
static void a_key_or_section_at_the_wrong_depth_is_named_as_such(void **state)
{
	char err[512];

	(void)state;
	assert_int_equal(load_text("board:\nname: t\n", CFG_SRC_BOARD, err, sizeof(err)),
			 YAMLCFG_E_SECTION);
	assert_string_equal(err, "b.yaml:2:1: \"name\" is a key of section board, not a section: "
			    "indent it under its section (two spaces)");
	assert_int_equal(load_text("gpio:\n  chip: x\nline: 1\n", CFG_SRC_BOARD, err,
				   sizeof(err)), YAMLCFG_E_SECTION);
	assert_string_equal(err, "b.yaml:3:1: \"line\" is a key of section gpio or loopback or input, not "
			    "a section: indent it under its section (two spaces)");
	assert_int_equal(load_text(BOARD_HEAD "  loopback:\n    line: 2\n", CFG_SRC_BOARD, err,
				   sizeof(err)), YAMLCFG_E_KEY);
	assert_string_equal(err, "b.yaml:7:3: \"loopback\" is a section, not a key of gpio: write "
			    "\"loopback:\" at the start of a line, without indentation");
	assert_int_equal(load_text("run.duration: 10s\n", CFG_SRC_PROFILE, err, sizeof(err)),
			 YAMLCFG_E_SECTION);
	assert_string_equal(err, "b.yaml:1:1: \"run.duration\" is written as section run: and, "
			    "indented under it, duration: (the dotted name is for --set)");
	/* a key of the other kind of file is just unknown here */
	assert_int_equal(load_text("duration: 10s\n", CFG_SRC_BOARD, err, sizeof(err)),
			 YAMLCFG_E_SECTION);
	assert_int_equal(strncmp(err, "b.yaml:1:1: unknown section \"duration\"", 38), 0);
}

/* Chip labels as the kernels name them: a colon (x86 ACPI), blanks (the UP
 * board's HAT header), a '#' inside a word; a comment after them is not part. */
static void chip_labels_with_colons_blanks_and_hashes_read_whole(void **state)
{
	static const struct {
		const char *text, *chip;
	} cases[] = {
		{ "board: {name: ehl}\ngpio: {chip: INTC1020:00, line: 3}\n", "INTC1020:00" },
		{ "board:\n  name: ehl\ngpio:\n  chip: INT34C5:00\n  line: 3\n", "INT34C5:00" },
		{ "board:\n  name: up\ngpio:\n  chip: Raspberry Pi compatible UP GPIO  # HAT\n"
		  "  line: 5\n", "Raspberry Pi compatible UP GPIO" },
		{ "board: {name: x}\ngpio: {chip: GPIO#B, line: 1}\n", "GPIO#B" },
	};
	char err[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct config *c = config_new();

		assert_non_null(c);
		if (yamlcfg_load_buffer(c, "b.yaml", cases[i].text, strlen(cases[i].text),
					CFG_SRC_BOARD, err, sizeof(err)))
			fail_msg("case %zu: %s", i, err);
		assert_string_equal(config_str(c, CFG_GPIO_CHIP), cases[i].chip);
		config_free(c);
	}
}

static void merge_keys_are_named_as_such(void **state)
{
	char err[512];

	(void)state;
	assert_int_equal(load_text("board:\n  name: t\n  <<: {soc: x}\n", CFG_SRC_BOARD, err,
				   sizeof(err)), YAMLCFG_E_STRUCTURE);
	assert_string_equal(err, "b.yaml:3:3: merge keys (<<) are not supported; write the keys "
			    "out");
	assert_int_equal(load_text("<<: {run: {}}\n", CFG_SRC_PROFILE, err, sizeof(err)),
			 YAMLCFG_E_STRUCTURE);
	assert_string_equal(err, "b.yaml:1:1: merge keys (<<) are not supported; write the "
			    "sections out");
}

static void a_huge_file_is_refused_before_parsing(void **state)
{
	char path[] = "/tmp/sqwave-test-huge-XXXXXX", err[512], want[512];
	struct config *c = *state;
	static char block[64 * 1024];
	FILE *f;
	int fd, i;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	memset(block, '#', sizeof(block));
	for (i = 0; i < YAMLCFG_MAX_BYTES / (int)sizeof(block) + 1; i++)
		assert_int_equal(fwrite(block, sizeof(block), 1, f), 1);
	fclose(f);
	assert_int_equal(yamlcfg_load(c, path, CFG_SRC_PROFILE, err, sizeof(err)), YAMLCFG_E_IO);
	snprintf(want, sizeof(want), "%s: is larger than %d bytes; a board file or profile is "
		 "a short text file", path, YAMLCFG_MAX_BYTES);
	assert_string_equal(err, want);
	unlink(path);
}

static void a_failed_load_stores_nothing(void **state)
{
	struct config *c = *state;
	char err[512];

	assert_int_equal(yamlcfg_load(c, DATA "partly-valid.yaml", CFG_SRC_PROFILE, err,
				      sizeof(err)), YAMLCFG_E_VALUE);
	assert_string_equal(err, DATA "partly-valid.yaml:4:11: run.warmup must be a duration "
			    "between 0 and 1h (bare numbers are s), got \"1 fortnight\"");
	assert_int_equal(config_source(c, CFG_RUN_DURATION), CFG_SRC_DEFAULT);
	assert_int_equal(config_int(c, CFG_RUN_HALF_PERIOD), 500 * US);
}

static void every_error_is_one_line(void **state)
{
	static const char *const inputs[] = {
		"run:\n  \"half\\nperiod\": 1\n",
		"\"li\\nmits\":\n  tmax: 1\n",
		"run:\n  duration: \"1\\ns\"\n",
		"[\n",
		"run: {duration: 1s, duration: 2s}\n",
		"? [a, b]\n: 1\n",
		"run:\n  ? [a]\n  : 1\n",
		"!!binary aGVsbG8=\n",
		"run:\n  duration: !!int 1\n",
		"%YAML 1.1\n---\nrun: {}\n...\n---\n",
	};
	struct config *c = *state;
	char err[1024];
	size_t i;

	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		err[0] = '\0';
		(void)yamlcfg_load_buffer(c, "in.yaml", inputs[i], strlen(inputs[i]),
					  CFG_SRC_PROFILE, err, sizeof(err));
		assert_null(strchr(err, '\n'));
	}
}

static void random_mutations_of_shipped_files_never_crash(void **state)
{
	unsigned seed = (unsigned)time(NULL);
	struct config *c = *state;
	char *text, err[1024];
	glob_t g;
	size_t i, n;
	int iter;

	(void)state;
	printf("random seed %u\n", seed);
	srand(seed);
	assert_int_equal(glob("boards/*.yaml", 0, NULL, &g), 0);
	assert_int_equal(glob("config/*.yaml", GLOB_APPEND, NULL, &g), 0);
	for (iter = 0; iter < 3000; iter++) {
		FILE *f = fopen(g.gl_pathv[(size_t)rand() % g.gl_pathc], "r");
		char buf[8192];

		assert_non_null(f);
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		text = malloc(n + 1);
		memcpy(text, buf, n);
		for (i = 0; n && i < 1 + (size_t)rand() % 8; i++) {
			size_t at = (size_t)rand() % n;

			switch (rand() % 3) {
			case 0:
				text[at] = (char)(rand() & 0xff);
				break;
			case 1:
				text[at] = "\n :-[]{}&*!|>'\"#\t"[rand() % 17];
				break;
			default:
				n = at; /* truncate */
			}
		}
		(void)yamlcfg_load_buffer(c, "mutated.yaml", text, n,
					  rand() & 1 ? CFG_SRC_BOARD : CFG_SRC_PROFILE,
					  err, sizeof(err));
		free(text);
	}
	globfree(&g);
}

static void every_shipped_board_file_loads(void **state)
{
	char err[512];
	glob_t g;
	size_t i;

	(void)state;
	assert_int_equal(glob("boards/*.yaml", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 8);
	for (i = 0; i < g.gl_pathc; i++) {
		struct config *c = config_new();

		load_ok(c, g.gl_pathv[i], CFG_SRC_BOARD);
		assert_true(config_str(c, CFG_BOARD_NAME)[0] != '\0');
		/* A board whose pin is unknown says so, and so does the check. */
		if (!strcmp(config_str(c, CFG_GPIO_CONFIDENCE), "unknown"))
			assert_int_equal(config_check_required(c, err, sizeof(err)),
					 CFG_E_MISSING);
		else if (config_check_required(c, err, sizeof(err)) != CFG_OK)
			fail_msg("%s: %s", g.gl_pathv[i], err);
		config_free(c);
	}
	globfree(&g);
}

static void every_shipped_profile_loads_on_top_of_the_sim_board(void **state)
{
	char err[512];
	glob_t g;
	size_t i;

	(void)state;
	assert_int_equal(glob("config/*.yaml", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 5);
	for (i = 0; i < g.gl_pathc; i++) {
		struct config *c = config_new();

		load_ok(c, "boards/sim.yaml", CFG_SRC_BOARD);
		load_ok(c, g.gl_pathv[i], CFG_SRC_PROFILE);
		assert_int_equal(config_check_required(c, err, sizeof(err)), CFG_OK);
		if (plan_finalize(config_plan_mut(c), c, err, sizeof(err)) != CFG_OK)
			fail_msg("%s: %s", g.gl_pathv[i], err);
		config_free(c);
	}
	globfree(&g);
}

static void make_run_gets_ten_seconds_of_500us_on_the_simulated_board(void **state)
{
	struct config *c = *state;

	load_ok(c, "boards/sim.yaml", CFG_SRC_BOARD);
	load_ok(c, "config/quick.yaml", CFG_SRC_PROFILE);
	assert_string_equal(config_str(c, CFG_GPIO_BACKEND), "sim");
	assert_int_equal(config_int(c, CFG_RUN_HALF_PERIOD), 500 * US);
	assert_int_equal(config_int(c, CFG_RUN_DURATION), 10 * SEC);
}

static void the_ccmp13_board_needs_the_pin_from_the_command_line(void **state)
{
	struct config *c = *state;
	char err[512];

	load_ok(c, "boards/ccmp13-dvk.yaml", CFG_SRC_BOARD);
	assert_string_equal(config_str(c, CFG_GPIO_CONFIDENCE), "unknown");
	assert_int_equal(config_check_required(c, err, sizeof(err)), CFG_E_MISSING);
	assert_non_null(strstr(err, "gpio.chip is empty (boards/ccmp13-dvk.yaml:"));
	assert_non_null(strstr(err, "pass --set gpio.chip=VALUE"));
	assert_int_equal(config_apply_set(c, "gpio.chip=GPIOA", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_apply_option(c, "line", "3", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_check_required(c, err, sizeof(err)), CFG_OK);
}

static void the_digi_profile_carries_digis_loaded_rt_bounds(void **state)
{
	struct config *c = *state;

	struct plan *p = config_plan_mut(c);
	char err[512];

	load_ok(c, "config/digi-square-signal.yaml", CFG_SRC_PROFILE);
	assert_int_equal(config_int(c, CFG_LIMITS_TMIN), 414 * US);
	assert_int_equal(config_int(c, CFG_LIMITS_TMAX), 584 * US);
	/* an idle hour, then an hour under CoreMark and a ping flood */
	assert_int_equal(plan_finalize(p, c, err, sizeof(err)), CFG_OK);
	assert_int_equal(p->nphases, 2);
	assert_int_equal(p->phases[0].duration_ns, 3600 * SEC);
	assert_int_equal(p->phases[0].nloads, 0);
	assert_int_equal(p->phases[1].nloads, 2);
	assert_int_equal(p->phases[1].loads[0].num[PLK_KIND], PLAN_LOAD_COREMARK);
	assert_int_equal(p->phases[1].loads[1].num[PLK_KIND], PLAN_LOAD_PING_FLOOD);
	assert_int_equal(plan_duration(p), 7200 * SEC);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(a_valid_board_file_sets_its_keys_with_file_and_line),
		T(a_block_scalar_keeps_its_lines_but_not_the_final_newline),
		T(the_profile_overrides_the_board_and_the_command_line_both),
		T(a_profile_loaded_before_the_board_still_wins),
		T(null_values_are_empty_strings_and_empty_sections),
		T(a_syntax_error_reports_libyamls_problem_and_position),
		T(a_tab_gets_a_plain_answer),
		T(the_top_level_must_be_a_mapping),
		T(a_section_must_be_a_mapping),
		T(an_unknown_section_lists_the_valid_ones_and_suggests_one),
		T(an_unknown_key_lists_the_sections_keys_and_suggests_one),
		T(a_duplicate_key_names_the_first_line),
		T(a_list_where_a_value_belongs_is_a_type_error),
		T(an_out_of_range_value_names_key_range_and_position),
		T(a_bad_choice_lists_the_choices),
		T(a_section_in_the_wrong_kind_of_file_says_where_it_belongs),
		T(a_board_file_without_a_required_key_is_refused),
		T(an_empty_file_is_an_error),
		T(anchors_and_aliases_are_refused),
		T(a_second_document_is_refused),
		T(an_unreadable_file_gives_the_system_error),
		T(a_fifo_is_refused_without_waiting_for_a_writer),
		T(a_binary_file_is_not_text),
		T(an_encoding_error_names_the_line_and_column_of_its_byte),
		T(utf16_is_told_to_be_saved_as_utf8),
		T(a_compatible_string_split_or_joined_by_mistake_is_refused),
		T(every_way_of_writing_a_list_that_yaml_has_reads_the_same),
		T(a_board_reads_the_same_in_every_style_and_line_ending),
		T(chip_labels_with_colons_blanks_and_hashes_read_whole),
		T(merge_keys_are_named_as_such),
		T(a_key_or_section_at_the_wrong_depth_is_named_as_such),
		T(an_integer_with_a_leading_zero_is_ambiguous_and_refused),
		T(a_huge_file_is_refused_before_parsing),
		T(a_failed_load_stores_nothing),
		T(every_error_is_one_line),
		T(random_mutations_of_shipped_files_never_crash),
		T(every_shipped_board_file_loads),
		T(every_shipped_profile_loads_on_top_of_the_sim_board),
		T(make_run_gets_ten_seconds_of_500us_on_the_simulated_board),
		T(the_ccmp13_board_needs_the_pin_from_the_command_line),
		T(the_digi_profile_carries_digis_loaded_rt_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
