/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the GPIO checks on the simulated chip: each step of the
 * output line, the write-cost probe, the board file's unverified facts, and
 * the loopback test with its wire plugged, unplugged, moved and lossy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check/check.h"
#include "check/check_gpio.h"
#include "config/config.h"
#include "gpio/gpio_sim.h"
#include "config/yamlcfg.h"

static struct config *cfg;
static struct check_report rep;
static struct check_gpio_params P;

/* The simulated board, as boards/sim.yaml has it (loopback on line 1). */
static const char board[] =
	"board:\n  name: t\n  confidence: verified\n"
	"gpio:\n  backend: sim\n  chip: sqwave-sim\n  line: 0\n  confidence: verified\n"
	"loopback:\n  chip: sqwave-sim\n  line: 1\n  confidence: verified\n"
	"sim:\n  chip_label: sqwave-sim\n  wire_line: 1\n  wire_delay: 10us\n";

static void setk(const char *assignment)
{
	char err[256];

	if (config_apply_set(cfg, assignment, err, sizeof(err)) != CFG_OK)
		fail_msg("%s: %s", assignment, err);
}

static int setup(void **state)
{
	char err[512];

	(void)state;
	gpio_sim_reset();
	cfg = config_new();
	assert_non_null(cfg);
	if (yamlcfg_load_buffer(cfg, "t.yaml", board, sizeof(board) - 1, CFG_SRC_BOARD, err,
				sizeof(err)))
		fail_msg("%s", err);
	setk("run.half_period=250us");
	check_report_init(&rep);
	P = (struct check_gpio_params){ .cfg = cfg, .root = "/", .timed = true,
					.probe_writes = 20, .loop_edges = 20 };
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	check_report_free(&rep);
	config_free(cfg);
	return 0;
}

static void fresh(void)
{
	check_report_free(&rep);
	check_report_init(&rep);
}

static void has(const char *id, enum check_status st, const char *text)
{
	const struct check_finding *f = check_find(&rep, id);

	if (!f)
		fail_msg("no finding %s", id);
	if (f->status != st || !strstr(f->value, text))
		fail_msg("%s: got %s \"%s\", want %s with \"%s\"", id,
			 check_status_name(f->status), f->value, check_status_name(st), text);
}

static void a_free_fast_line_passes_every_step(void **state)
{
	(void)state;
	check_gpio_output(&rep, &P);
	has("gpio.chip", CHECK_PASS, "gpiochip0 [sqwave-sim], 8 lines (found by label)");
	has("gpio.line", CHECK_PASS, "line 0 \"SIM0\"");
	has("gpio.busy", CHECK_PASS, "unused");
	has("gpio.request", CHECK_PASS, "push-pull output at idle level 0 (physical low)");
	/* Its status is the rule's below, from times that are not asserted. */
	assert_non_null(check_find(&rep, "gpio.write_cost"));
	assert_non_null(strstr(check_find(&rep, "gpio.write_cost")->value,
			       "20 writes: p50/p99/max"));
	assert_int_equal(gpio_sim_write_count(), 21);   /* 20, and the idle at close */
}

static void the_write_cost_rule_fails_slow_writes_and_warns_sleeping_chips(void **state)
{
	(void)state;
	assert_int_equal(check_gpio_write_verdict(1000, 500000, false), CHECK_PASS);
	assert_int_equal(check_gpio_write_verdict(50000, 500000, false), CHECK_PASS);
	assert_int_equal(check_gpio_write_verdict(50001, 500000, false), CHECK_WARN);
	assert_int_equal(check_gpio_write_verdict(1000, 500000, true), CHECK_WARN);
	assert_int_equal(check_gpio_write_verdict(499999, 500000, true), CHECK_WARN);
	assert_int_equal(check_gpio_write_verdict(500000, 500000, false), CHECK_FAIL);
}

static void a_chip_given_by_number_works_and_the_label_is_advised(void **state)
{
	(void)state;
	setk("gpio.chip=0");
	check_gpio_output(&rep, &P);
	has("gpio.chip", CHECK_PASS, "found by number");
	assert_non_null(strstr(check_find(&rep, "gpio.chip")->why, "label (sqwave-sim)"));
}

static void a_busy_line_fails_naming_its_consumer(void **state)
{
	(void)state;
	setk("sim.busy_line=0");
	setk("sim.busy_consumer=GPIO Key Poweroff");
	check_gpio_output(&rep, &P);
	has("gpio.busy", CHECK_FAIL, "used by \"GPIO Key Poweroff\"");
	has("gpio.request", CHECK_SKIP, "busy");
	assert_null(check_find(&rep, "gpio.write_cost"));
}

/* Several lines (docs/lines.md): each line's steps under its own ids, and
 * together one request for all of them, which a busy line fails. */
static void several_lines_are_each_checked_and_requested_together(void **state)
{
	(void)state;
	setk("gpio.line=0,3");
	check_gpio_output(&rep, &P);
	has("gpio.line.0", CHECK_PASS, "line 0");
	has("gpio.line.3", CHECK_PASS, "line 3");
	has("gpio.request.3", CHECK_PASS, "output");
	assert_non_null(check_find(&rep, "gpio.write_cost.0"));
	has("gpio.group", CHECK_PASS, "2 lines requested together");
	assert_null(check_find(&rep, "gpio.line"));
	fresh();
	setk("sim.busy_line=3");
	check_gpio_output(&rep, &P);
	has("gpio.busy.0", CHECK_PASS, "unused");
	has("gpio.busy.3", CHECK_FAIL, "busy");
	has("gpio.group", CHECK_FAIL, "line 3");
	fresh();
	setk("gpio.line=0,0");
	check_gpio_output(&rep, &P);
	has("gpio.line", CHECK_FAIL, "listed twice");
}

static void a_chip_we_may_not_open_fails_as_permission_not_absence(void **state)
{
	const struct check_finding *f;

	(void)state;
	gpio_sim_fail_next_open(EACCES);
	check_gpio_output(&rep, &P);
	f = check_find(&rep, "gpio.chip");
	assert_int_equal(f->status, CHECK_FAIL);
	assert_int_equal(strncmp(f->value, "permission denied", 17), 0);
	assert_null(strstr(f->value, "not found"));
	assert_non_null(strstr(f->fix, "udev rule"));
}

static void an_ambiguous_line_name_fails_at_the_line_step(void **state)
{
	(void)state;
	setk("gpio.line=SIMDUP");
	check_gpio_output(&rep, &P);
	has("gpio.chip", CHECK_PASS, "sqwave-sim");
	has("gpio.line", CHECK_FAIL, "ambiguous");
	has("gpio.request", CHECK_SKIP, "not found");
}

static void a_refused_drive_mode_fails_the_request_with_the_fix(void **state)
{
	(void)state;
	setk("gpio.drive=open-drain");
	gpio_sim_fail_next_request(EINVAL);
	check_gpio_output(&rep, &P);
	has("gpio.request", CHECK_FAIL, "as an open-drain output");
	assert_non_null(strstr(check_find(&rep, "gpio.request")->fix, "push-pull"));
}

/* A simulated write costs at least sim.write_cost (a busy-wait): only that
 * lower bound is relied on, never how fast the machine is. */
static void slow_writes_warn_and_writes_slower_than_the_half_period_fail(void **state)
{
	(void)state;
	P.probe_writes = 4;
	setk("sim.write_cost=30us");          /* more than a tenth of 250 us */
	check_gpio_output(&rep, &P);
	assert_int_not_equal(check_find(&rep, "gpio.write_cost")->status, CHECK_PASS);
	fresh();
	setk("sim.write_cost=300us");
	check_gpio_output(&rep, &P);
	has("gpio.write_cost", CHECK_FAIL, "4 writes");
	assert_non_null(strstr(check_find(&rep, "gpio.write_cost")->why, "cannot keep up"));
}

static void preflight_requests_the_line_but_never_toggles_it(void **state)
{
	(void)state;
	P.timed = false;
	check_gpio_output(&rep, &P);
	check_gpio_loopback(&rep, &P);
	has("gpio.request", CHECK_PASS, "output");
	has("loopback.line", CHECK_PASS, "SIM1");
	assert_null(check_find(&rep, "gpio.write_cost"));
	assert_null(check_find(&rep, "loopback.wired"));
	assert_int_equal(gpio_sim_write_count(), 1);   /* the idle level at close */
}

static void unverified_facts_of_the_board_file_are_each_a_reminder(void **state)
{
	static const char inferred[] =
		"board:\n  name: x\n  confidence: inferred\n"
		"gpio:\n  backend: sim\n  chip: GPIOD\n  line: 1\n  confidence: inferred\n"
		"loopback:\n  chip: GPIOG\n  line: 3\n  confidence: unknown\n";
	char err[512];

	(void)state;
	check_gpio_facts(&rep, &P);
	has("facts.board", CHECK_PASS, "verified");
	fresh();
	config_free(cfg);
	cfg = config_new();
	P.cfg = cfg;
	assert_int_equal(yamlcfg_load_buffer(cfg, "dk2.yaml", inferred, sizeof(inferred) - 1,
					     CFG_SRC_BOARD, err, sizeof(err)), YAMLCFG_OK);
	check_gpio_facts(&rep, &P);
	has("facts.board", CHECK_WARN, "inferred (board.confidence, dk2.yaml:3)");
	has("facts.gpio", CHECK_WARN, "gpio.chip \"GPIOD\" and gpio.line \"1\" are inferred");
	assert_non_null(strstr(check_find(&rep, "facts.gpio")->fix, "gpioinfo GPIOD"));
	has("facts.loopback", CHECK_WARN, "are unknown");
}

/* Edges written and edges seen, from "N of M ...": a loaded machine can
 * skip slots, so the loop writes 20 edges or fewer, never more. */
static void counts(const char *id, unsigned *seen, unsigned *written)
{
	const struct check_finding *f = check_find(&rep, id);

	assert_non_null(f);
	if (sscanf(f->value, "%u of %u", seen, written) != 2)
		fail_msg("%s: no counts in \"%s\"", id, f->value);
	assert_true(*written >= 2 && *written <= 20);
}

static void a_wired_loopback_sees_every_edge_with_its_latency(void **state)
{
	unsigned seen, written;

	(void)state;
	check_gpio_loopback(&rep, &P);
	has("loopback.line", CHECK_PASS, "edge events on both edges");
	has("loopback.wired", CHECK_PASS, "edges arrived");
	counts("loopback.wired", &seen, &written);
	assert_int_equal(seen, written);
	has("loopback.events", CHECK_PASS, "no event dropped");
	has("loopback.latency", CHECK_PASS, "from write begin ");
	has("loopback.polarity", CHECK_PASS, "follows");
	assert_false(rep.incomplete);
	/* No event comes before its write began plus the 10 us wire. */
	{
		double p50;
		const char *v = strstr(check_find(&rep, "loopback.latency")->value,
				       "from write begin ");

		assert_non_null(v);
		assert_int_equal(sscanf(v, "from write begin %lf", &p50), 1);
		assert_true(p50 >= 10.0);
	}
}

static void an_unplugged_wire_is_not_wired(void **state)
{
	(void)state;
	setk("sim.wire_line=-1");
	check_gpio_loopback(&rep, &P);
	has("loopback.wired", CHECK_FAIL, "not wired: no event on gpiochip0 [sqwave-sim] line 1");
}

static void a_wire_on_the_neighbouring_pin_is_found(void **state)
{
	(void)state;
	setk("sim.wire_line=2");
	check_gpio_loopback(&rep, &P);
	has("loopback.wired", CHECK_FAIL, "wired to another line: gpiochip0 [sqwave-sim] "
	    "line 2 \"SIM2\" follows the output");
}

static void a_lost_edge_is_a_failure_that_names_it(void **state)
{
	unsigned lost, written;

	(void)state;
	setk("sim.wire_lose=5");
	check_gpio_loopback(&rep, &P);
	counts("loopback.wired", &lost, &written);
	if (written < 6)
		skip();   /* the machine was too busy to write edge 5 */
	has("loopback.wired", CHECK_FAIL, "edges never reached the input (first: edge 5)");
	assert_int_equal(lost, 1);
	has("loopback.polarity", CHECK_PASS, "follows");
}

static void the_output_line_cannot_be_its_own_loopback(void **state)
{
	(void)state;
	setk("loopback.line=0");
	check_gpio_loopback(&rep, &P);
	has("loopback.line", CHECK_FAIL, "is the output line itself");
}

static void without_a_loopback_section_the_test_is_skipped_with_a_hint(void **state)
{
	(void)state;
	setk("loopback.chip=");
	setk("loopback.line=");
	check_gpio_loopback(&rep, &P);
	has("loopback.line", CHECK_SKIP, "no loopback input");
}

static void under_a_copied_tree_a_real_chip_is_not_checked_on_this_machine(void **state)
{
	(void)state;
	P.tree = true;
	P.root = "/nonexistent-tree";
	setk("gpio.backend=gpiod");
	check_gpio_output(&rep, &P);
	check_gpio_loopback(&rep, &P);
	has("gpio.chip", CHECK_SKIP, "is a copied tree");
	has("loopback.line", CHECK_SKIP, "is a copied tree");
	assert_null(check_find(&rep, "gpio.request"));
	assert_null(check_find(&rep, "loopback.wired"));
	/* the simulated board belongs to no machine: checked under a tree too */
	fresh();
	setk("gpio.backend=sim");
	check_gpio_output(&rep, &P);
	has("gpio.request", CHECK_PASS, "push-pull output");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(a_free_fast_line_passes_every_step),
		T(the_write_cost_rule_fails_slow_writes_and_warns_sleeping_chips),
		T(a_chip_given_by_number_works_and_the_label_is_advised),
		T(a_busy_line_fails_naming_its_consumer),
		T(several_lines_are_each_checked_and_requested_together),
		T(a_chip_we_may_not_open_fails_as_permission_not_absence),
		T(an_ambiguous_line_name_fails_at_the_line_step),
		T(a_refused_drive_mode_fails_the_request_with_the_fix),
		T(slow_writes_warn_and_writes_slower_than_the_half_period_fail),
		T(preflight_requests_the_line_but_never_toggles_it),
		T(unverified_facts_of_the_board_file_are_each_a_reminder),
		T(a_wired_loopback_sees_every_edge_with_its_latency),
		T(an_unplugged_wire_is_not_wired),
		T(a_wire_on_the_neighbouring_pin_is_found),
		T(a_lost_edge_is_a_failure_that_names_it),
		T(the_output_line_cannot_be_its_own_loopback),
		T(without_a_loopback_section_the_test_is_skipped_with_a_hint),
		T(under_a_copied_tree_a_real_chip_is_not_checked_on_this_machine),
	};

	return cmocka_run_group_tests_name("check_gpio (simulated chip and wire)", tests, NULL,
					   NULL);
}
