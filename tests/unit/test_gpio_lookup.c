/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the chip and line lookup against a fake backend with
 * several chips: numbers, labels, names across chips, permissions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "gpio/gpio_lookup.h"
#include "gpio/gpio_private.h"

/* Three chips: gpiochip0 [GPIOA] 4 lines PA0..PA3, gpiochip1 [GPIOB] 4 lines
 * PB0, PB1, LED, PB3, gpiochip2 [exp] 2 lines LED, X (line names repeat
 * across chips on purpose). A chip can be made unopenable. */
struct fake_chip {
	const char *label;
	const char *names[4];
	unsigned int n;
};

static const struct fake_chip fake_chips[] = {
	{ "GPIOA", { "PA0", "PA1", "PA2", "PA3" }, 4 },
	{ "GPIOB", { "PB0", "PB1", "LED", "PB3" }, 4 },
	{ "exp", { "LED", "X" }, 2 },
};
#define NCHIPS 3

static int denied_chip = -1;   /* this chip's open fails with EACCES */
static int used_line = -1;     /* gpiochip1's line of this offset is used by "other" */

static int fake_index(const char *path)
{
	int i;

	for (i = 0; i < NCHIPS; i++) {
		char p[32];

		snprintf(p, sizeof(p), "/fake/gpiochip%d", i);
		if (!strcmp(p, path))
			return i;
	}
	return -1;
}

static void *fake_chip_open(const char *path)
{
	int i = fake_index(path);

	if (i < 0) {
		errno = ENOENT;
		return NULL;
	}
	if (i == denied_chip) {
		errno = EACCES;
		return NULL;
	}
	return (void *)&fake_chips[i];
}

static void fake_chip_close(void *chip)
{
	(void)chip;
}

static int fake_chip_info(void *chip, struct gpio_chip_desc *cd)
{
	const struct fake_chip *c = chip;
	int i = (int)(c - fake_chips);

	memset(cd, 0, sizeof(*cd));
	snprintf(cd->path, sizeof(cd->path), "/fake/gpiochip%d", i);
	snprintf(cd->name, sizeof(cd->name), "gpiochip%d", i);
	snprintf(cd->label, sizeof(cd->label), "%s", c->label);
	cd->num_lines = c->n;
	return 0;
}

static int fake_chip_list(struct gpio_chip_desc **chips)
{
	int i;

	*chips = calloc(NCHIPS, sizeof(**chips));
	for (i = 0; i < NCHIPS; i++) {
		if (i == denied_chip) {
			snprintf((*chips)[i].path, GPIO_PATH_MAX, "/fake/gpiochip%d", i);
			snprintf((*chips)[i].name, GPIO_NAME_MAX, "gpiochip%d", i);
			(*chips)[i].open_errno = EACCES;
		} else {
			fake_chip_info((void *)&fake_chips[i], &(*chips)[i]);
		}
	}
	return NCHIPS;
}

static int fake_line_info(void *chip, unsigned int offset, struct gpio_line_desc *ld)
{
	const struct fake_chip *c = chip;

	if (offset >= c->n) {
		errno = EINVAL;
		return -1;
	}
	memset(ld, 0, sizeof(*ld));
	snprintf(ld->name, sizeof(ld->name), "%s", c->names[offset]);
	if (c == &fake_chips[1] && (int)offset == used_line) {
		ld->used = true;
		snprintf(ld->consumer, sizeof(ld->consumer), "other");
	}
	return 0;
}

static const struct gpio_ops fake_ops = {
	.name = "fake",
	.chip_list = fake_chip_list,
	.chip_open = fake_chip_open,
	.chip_close = fake_chip_close,
	.chip_info = fake_chip_info,
	.line_info = fake_line_info,
};

static char msg[GPIO_MSG_MAX];

static int reset(void **state)
{
	(void)state;
	denied_chip = -1;
	used_line = -1;
	msg[0] = '\0';
	return 0;
}

/* Look up; returns 0 or errno. */
static int look(const char *chip, const char *line, struct gpio_location *loc)
{
	void *c;

	errno = 0;
	c = gpio_lookup_open(&fake_ops, chip, line, loc, msg, sizeof(msg));
	if (c) {
		fake_chip_close(c);
		return 0;
	}
	assert_true(errno != 0);
	return errno;
}

#define assert_said(text) do { \
	if (!strstr(msg, (text))) \
		fail_msg("expected \"%s\" in: %s", (text), msg); \
} while (0)

static void a_chip_number_means_that_gpiochip_as_gpioset_takes_it(void **state)
{
	struct gpio_location loc;

	(void)state;
	assert_int_equal(look("1", "0", &loc), 0);
	assert_string_equal(loc.chip.label, "GPIOB");
	assert_string_equal(loc.chip_how, "number");
	assert_int_equal(look("7", "0", &loc), ENODEV);
	assert_said("GPIO chip \"7\" not found: chips present: gpiochip0 [GPIOA], "
		    "gpiochip1 [GPIOB], gpiochip2 [exp]");
}

static void each_way_of_naming_a_chip_says_how_it_was_found(void **state)
{
	struct gpio_location loc;

	(void)state;
	assert_int_equal(look("GPIOA", "1", &loc), 0);
	assert_string_equal(loc.chip_how, "label");
	assert_int_equal(look("gpiochip2", "1", &loc), 0);
	assert_string_equal(loc.chip_how, "name");
	assert_int_equal(look("/fake/gpiochip1", "1", &loc), 0);
	assert_string_equal(loc.chip_how, "path");
	assert_int_equal(loc.offset, 1);
	assert_false(loc.by_name);
}

static void a_line_name_that_other_chips_also_have_is_found_and_they_are_named(void **state)
{
	struct gpio_location loc;

	(void)state;
	assert_int_equal(look("GPIOB", "LED", &loc), 0);
	assert_int_equal(loc.offset, 2);
	assert_true(loc.by_name);
	assert_string_equal(loc.elsewhere, "gpiochip2 [exp] line 0");
	assert_int_equal(look("GPIOA", "PA2", &loc), 0);
	assert_string_equal(loc.elsewhere, "");
}

static void without_a_chip_a_unique_line_name_finds_its_chip(void **state)
{
	struct gpio_location loc;

	(void)state;
	assert_int_equal(look("", "PB3", &loc), 0);
	assert_string_equal(loc.chip.label, "GPIOB");
	assert_int_equal(loc.offset, 3);
	assert_string_equal(loc.chip_how, "line name");
}

static void without_a_chip_a_repeated_line_name_is_refused_naming_each(void **state)
{
	struct gpio_location loc;

	(void)state;
	assert_int_equal(look(NULL, "LED", &loc), EINVAL);
	assert_int_equal(loc.failed, GPIO_STEP_CHIP);
	assert_said("line name \"LED\" is not unique: gpiochip1 [GPIOB] line 2, "
		    "gpiochip2 [exp] line 0; give the chip too");
}

static void without_a_chip_an_offset_is_not_enough(void **state)
{
	struct gpio_location loc;

	(void)state;
	assert_int_equal(look("", "3", &loc), EINVAL);
	assert_said("no GPIO chip given");
	assert_said("gpiochip1 [GPIOB]");
}

static void a_label_on_a_chip_we_may_not_open_is_a_permission_problem(void **state)
{
	struct gpio_location loc;

	(void)state;
	denied_chip = 1;
	assert_int_equal(look("GPIOB", "1", &loc), EACCES);
	assert_int_equal(loc.failed, GPIO_STEP_CHIP);
	assert_int_equal(strncmp(msg, "permission denied", 17), 0);
	assert_null(strstr(msg, "not found"));
	assert_said("gpiochip1 [cannot open: Permission denied]");
	assert_said("udev rule");
	/* By name or number, the open itself says permission denied. */
	assert_int_equal(look("1", "1", &loc), EACCES);
	assert_int_equal(strncmp(msg, "permission denied: cannot open GPIO chip "
				 "/fake/gpiochip1", 56), 0);
}

static void a_line_search_blocked_by_permissions_says_so(void **state)
{
	struct gpio_location loc;

	(void)state;
	denied_chip = 1;
	assert_int_equal(look("", "PB3", &loc), EACCES);
	assert_int_equal(strncmp(msg, "permission denied", 17), 0);
}

static void a_missing_line_name_says_where_that_name_is(void **state)
{
	struct gpio_location loc;

	(void)state;
	assert_int_equal(look("GPIOA", "X", &loc), ENOENT);
	assert_int_equal(loc.failed, GPIO_STEP_LINE);
	assert_said("no line named \"X\" on gpiochip0 [GPIOA]; its line names: PA0, "
		    "PA1, PA2, PA3; a line of that name is on gpiochip2 [exp] line 1");
}

static void the_line_info_names_the_consumer_of_a_used_line(void **state)
{
	struct gpio_location loc;

	(void)state;
	used_line = 1;
	assert_int_equal(look("GPIOB", "PB1", &loc), 0);
	assert_true(loc.line.used);
	assert_string_equal(loc.line.consumer, "other");
	gpio_msg_busy(msg, sizeof(msg), &loc.chip, loc.offset, &loc.line);
	assert_string_equal(msg, "line 1 of gpiochip1 [GPIOB] is busy: used by \"other\"");
}

static void a_long_message_is_cut_with_dots_not_overrun(void **state)
{
	char small[16] = "";

	(void)state;
	msgbuf_add(small, sizeof(small), "%s", "0123456789abcdefghij");
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_string_equal(small + sizeof(small) - 4, "...");
}

/* The simulated board's loopback (line 1) and respond input (line 2, by
 * name), as a board file gives them. */
static struct config *sim_board(void)
{
	static const char *const sets[] = {
		"gpio.backend=sim", "gpio.chip=sqwave-sim", "sim.chip_label=sqwave-sim",
		"gpio.line=0,3", "loopback.chip=sqwave-sim", "loopback.line=1",
		"input.chip=sqwave-sim", "input.line=SIM2",
	};
	struct config *c = config_new();
	char err[256];
	size_t i;

	assert_non_null(c);
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		assert_int_equal(config_apply_set(c, sets[i], err, sizeof(err)), CFG_OK);
	return c;
}

static void an_output_on_the_boards_loopback_or_respond_input_is_found(void **state)
{
	struct config *c = sim_board();
	const char *free_lines[] = { "0", "3" }, *on_loop[] = { "0", "SIM1" }, *on_in[] = { "2" };
	const char *missing[] = { "0", "NOPE" };
	char err[1024];

	(void)state;
	assert_int_equal(gpio_outputs_on_inputs(GPIO_BACKEND_SIM, c, "sqwave-sim", free_lines, 2,
						err, sizeof(err)), 0);
	/* by name or offset, the same line: chip and offset are compared */
	assert_int_equal(gpio_outputs_on_inputs(GPIO_BACKEND_SIM, c, "sqwave-sim", on_loop, 2,
						err, sizeof(err)), 1);
	assert_non_null(strstr(err, "line SIM1 is the board's loopback input"));
	assert_non_null(strstr(err, "loopback.line \"1\", command line"));
	assert_int_equal(gpio_outputs_on_inputs(GPIO_BACKEND_SIM, c, "sqwave-sim", on_in, 1,
						err, sizeof(err)), 1);
	assert_non_null(strstr(err, "line 2 is the board's input"));
	assert_non_null(strstr(err, "input.line \"SIM2\""));
	/* an output that is not there: the lookup's own message */
	assert_int_equal(gpio_outputs_on_inputs(GPIO_BACKEND_SIM, c, "sqwave-sim", missing, 2,
						err, sizeof(err)), -1);
	/* an input line that is not on this board is nothing to drive */
	assert_int_equal(config_apply_set(c, "input.line=NOPE", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_apply_set(c, "loopback.line=", err, sizeof(err)), CFG_OK);
	assert_int_equal(gpio_outputs_on_inputs(GPIO_BACKEND_SIM, c, "sqwave-sim", on_in, 1,
						err, sizeof(err)), 0);
	config_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(a_chip_number_means_that_gpiochip_as_gpioset_takes_it, reset),
		cmocka_unit_test_setup(each_way_of_naming_a_chip_says_how_it_was_found, reset),
		cmocka_unit_test_setup(a_line_name_that_other_chips_also_have_is_found_and_they_are_named, reset),
		cmocka_unit_test_setup(without_a_chip_a_unique_line_name_finds_its_chip, reset),
		cmocka_unit_test_setup(without_a_chip_a_repeated_line_name_is_refused_naming_each, reset),
		cmocka_unit_test_setup(without_a_chip_an_offset_is_not_enough, reset),
		cmocka_unit_test_setup(a_label_on_a_chip_we_may_not_open_is_a_permission_problem, reset),
		cmocka_unit_test_setup(a_line_search_blocked_by_permissions_says_so, reset),
		cmocka_unit_test_setup(a_missing_line_name_says_where_that_name_is, reset),
		cmocka_unit_test_setup(the_line_info_names_the_consumer_of_a_used_line, reset),
		cmocka_unit_test(a_long_message_is_cut_with_dots_not_overrun),
		cmocka_unit_test(an_output_on_the_boards_loopback_or_respond_input_is_found),
	};

	return cmocka_run_group_tests_name("gpio_lookup", tests, NULL, NULL);
}
