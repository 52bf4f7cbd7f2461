/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for `boards detect`: fake device-tree and DMI trees for each
 * board file of the repository, and machines no board file fits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define _XOPEN_SOURCE_EXTENDED 1
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/check_detect.h"
#include "config/config.h"
#include "config/yamlcfg.h"

static char root[64];

static void put(const char *rel, const void *content, size_t len)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(content, 1, len, f), len);
	fclose(f);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/sqwave-detect-XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

/* The device tree's compatible property: NUL-separated, as the kernel has it. */
#define COMPAT(lit) put("proc/device-tree/compatible", lit, sizeof(lit))

static const char *const boards[] = {
	"ccmp13-dvk", "qemu-virt-pl061", "rpi4", "rpi5", "sim", "stm32mp135f-dk",
	"stm32mp157f-dk2", "up-squared",
};
#define NBOARDS (sizeof(boards) / sizeof(boards[0]))

/* The one board file of the repository that fits the fake machine, or NULL
 * if none does (and fail on a tie). */
static const char *detected(char *why, size_t len)
{
	struct detect_machine m;
	int best = 0, score;
	const char *winner = NULL;
	size_t i, ties = 0;

	detect_machine_read(root, &m);
	for (i = 0; i < NBOARDS; i++) {
		char path[128], err[512], w[256];
		struct config *c = config_new();

		snprintf(path, sizeof(path), "boards/%s.yaml", boards[i]);
		if (yamlcfg_load(c, path, CFG_SRC_BOARD, err, sizeof(err)) != YAMLCFG_OK)
			fail_msg("%s", err);
		score = detect_board_score(c, &m, w, sizeof(w));
		config_free(c);
		if (score > best) {
			best = score;
			winner = boards[i];
			ties = 0;
			snprintf(why, len, "%s", w);
		} else if (score && score == best) {
			ties++;
		}
	}
	assert_int_equal(ties, 0);
	return winner;
}

static void each_device_tree_board_is_recognised_by_its_own_compatible(void **state)
{
	static const struct { const char *dt; size_t len; const char *board; } cases[] = {
		{ "st,stm32mp135f-dk\0st,stm32mp135", 32, "stm32mp135f-dk" },
		{ "st,stm32mp157f-dk2\0st,stm32mp157", 33, "stm32mp157f-dk2" },
		{ "digi,ccmp13-dvk\0digi,ccmp13\0st,stm32mp133", 42, "ccmp13-dvk" },
		{ "raspberrypi,4-model-b\0brcm,bcm2711", 35, "rpi4" },
		{ "raspberrypi,5-model-b\0brcm,bcm2712", 35, "rpi5" },
		{ "linux,dummy-virt", 17, "qemu-virt-pl061" },
	};
	char why[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *b;

		put("proc/device-tree/compatible", cases[i].dt, cases[i].len);
		b = detected(why, sizeof(why));
		if (!b || strcmp(b, cases[i].board))
			fail_msg("%s: detected %s, want %s", cases[i].dt, b ? b : "none",
				 cases[i].board);
		assert_non_null(strstr(why, "device-tree compatible"));
	}
}

static void the_up_squared_is_recognised_by_its_dmi_board_name(void **state)
{
	char why[256];

	(void)state;
	put("sys/class/dmi/id/board_name", "UP-APL01\n", 9);
	put("sys/class/dmi/id/sys_vendor", "AAEON\n", 6);
	assert_string_equal(detected(why, sizeof(why)), "up-squared");
	assert_string_equal(why, "DMI board name \"UP-APL01\"");
}

static void another_board_of_the_same_soc_is_not_mistaken_for_ours(void **state)
{
	char why[256];

	(void)state;
	COMPAT("myir,myd-yf13x\0st,stm32mp135");
	assert_null(detected(why, sizeof(why)));
	put("proc/device-tree/compatible", "", 0);
	put("sys/class/dmi/id/board_name", "X570 TOMAHAWK\n", 14);
	assert_null(detected(why, sizeof(why)));
}

static void the_sysfs_device_tree_serves_when_proc_has_none(void **state)
{
	struct detect_machine m;

	(void)state;
	put("sys/firmware/devicetree/base/compatible", "linux,dummy-virt", 17);
	put("sys/firmware/devicetree/base/model", "linux,dummy-virt", 17);
	detect_machine_read(root, &m);
	assert_int_equal(m.ncompatible, 1);
	assert_string_equal(m.compatible[0], "linux,dummy-virt");
	assert_string_equal(m.model, "linux,dummy-virt");
	assert_true(detect_machine_known(&m));
}

/* A copied tree (--root) with a FIFO where a property was: not waited on
 * (the alarm ends the binary if it ever is), the next source is read. */
static void a_property_that_is_not_a_file_is_passed_over(void **state)
{
	struct detect_machine m;
	char path[256];

	(void)state;
	put("sys/firmware/devicetree/base/compatible", "linux,dummy-virt", 17);
	snprintf(path, sizeof(path), "%s/proc", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/device-tree", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/device-tree/compatible", root);
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(20);
	detect_machine_read(root, &m);
	alarm(0);
	assert_int_equal(m.ncompatible, 1);
	assert_string_equal(m.compatible[0], "linux,dummy-virt");
	/* nor is a device read as a property */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/dev/zero", path), 0);
	detect_machine_read(root, &m);
	assert_int_equal(m.ncompatible, 1);
	assert_string_equal(m.compatible[0], "linux,dummy-virt");
	/* the DMI names the same; a padded one is read without its blanks */
	put("sys/class/dmi/id/product_name", "UP-APL01  \nx\n", 13);
	snprintf(path, sizeof(path), "%s/sys/class/dmi/id/board_name", root);
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(20);
	detect_machine_read(root, &m);
	alarm(0);
	assert_string_equal(m.dmi_board, "");
	assert_string_equal(m.dmi_product, "UP-APL01");
}

static void a_machine_with_nothing_to_match_on_says_so(void **state)
{
	struct detect_machine m;

	(void)state;
	detect_machine_read(root, &m);
	assert_false(detect_machine_known(&m));
}

static void the_board_string_outranks_the_socs(void **state)
{
	struct detect_machine m;
	struct config *c = config_new();
	char err[256], why[128];
	int board, soc;

	(void)state;
	COMPAT("st,stm32mp135f-dk\0st,stm32mp135");
	detect_machine_read(root, &m);
	assert_int_equal(config_apply_set(c, "match.compatible=st,stm32mp135", err,
					  sizeof(err)), CFG_OK);
	soc = detect_board_score(c, &m, why, sizeof(why));
	assert_int_equal(config_apply_set(c, "match.compatible=st,stm32mp135f-dk", err,
					  sizeof(err)), CFG_OK);
	board = detect_board_score(c, &m, why, sizeof(why));
	assert_true(soc > 0);
	assert_true(board > soc);
	config_free(c);
}

static void a_match_list_in_a_board_file_is_one_value_per_item(void **state)
{
	static const char yaml[] = "board:\n  name: x\ngpio:\n  chip: a\n  line: 1\n"
				   "match:\n  compatible:\n    - vendor,one\n    - vendor,two\n";
	static const char bad[] = "board:\n  name: x\ngpio:\n  chip: a\n  line: 1\n"
				  "match:\n  compatible:\n    - [nested]\n";
	struct config *c = config_new();
	char err[512];

	(void)state;
	assert_int_equal(yamlcfg_load_buffer(c, "b.yaml", yaml, sizeof(yaml) - 1, CFG_SRC_BOARD,
					     err, sizeof(err)), YAMLCFG_OK);
	assert_string_equal(config_str(c, CFG_MATCH_COMPATIBLE), "vendor,one\nvendor,two");
	assert_int_equal(yamlcfg_load_buffer(c, "bad.yaml", bad, sizeof(bad) - 1, CFG_SRC_BOARD,
					     err, sizeof(err)), YAMLCFG_E_VALUE);
	assert_non_null(strstr(err, "bad.yaml:8:7: match.compatible is a list of single values"));
	config_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(each_device_tree_board_is_recognised_by_its_own_compatible, setup, teardown),
		cmocka_unit_test_setup_teardown(the_up_squared_is_recognised_by_its_dmi_board_name, setup, teardown),
		cmocka_unit_test_setup_teardown(another_board_of_the_same_soc_is_not_mistaken_for_ours, setup, teardown),
		cmocka_unit_test_setup_teardown(the_sysfs_device_tree_serves_when_proc_has_none, setup, teardown),
		cmocka_unit_test_setup_teardown(a_property_that_is_not_a_file_is_passed_over, setup, teardown),
		cmocka_unit_test_setup_teardown(a_machine_with_nothing_to_match_on_says_so, setup, teardown),
		cmocka_unit_test_setup_teardown(the_board_string_outranks_the_socs, setup, teardown),
		cmocka_unit_test_setup_teardown(a_match_list_in_a_board_file_is_one_value_per_item, setup, teardown),
	};

	return cmocka_run_group_tests_name("check_detect (fake device-tree and DMI trees)", tests,
					   NULL, NULL);
}
