/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for config.c: the table, values, precedence, origins, command line. */
#include <getopt.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/config.h"
#include "base/wave.h"
#include "gpio/gpio_out.h"

#define US  INT64_C(1000)
#define MS  INT64_C(1000000)
#define SEC INT64_C(1000000000)

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

static void set_ok(struct config *c, const char *key, const char *value, enum cfg_source src)
{
	char err[512] = "";
	int k = config_lookup(key);

	assert_true(k >= 0);
	if (config_set(c, k, value, src, src == CFG_SRC_CMDLINE ? NULL : "test.yaml", 7,
		       err, sizeof(err)) != CFG_OK)
		fail_msg("%s=%s: %s", key, value, err);
}

static enum cfg_result set_err(struct config *c, const char *key, const char *value,
			       enum cfg_source src, char *err, size_t len)
{
	int k = config_lookup(key);

	assert_true(k >= 0);
	return config_set(c, k, value, src, NULL, 0, err, len);
}

static void the_table_lists_the_keys_in_enum_order(void **state)
{
	/* Written out by hand: this is the check that the table and the enum agree. */
	static const struct {
		enum cfg_key key;
		const char *name;
	} order[] = {
		{ CFG_BOARD_NAME, "board.name" },
		{ CFG_BOARD_DESCRIPTION, "board.description" },
		{ CFG_BOARD_SOC, "board.soc" },
		{ CFG_BOARD_CPUS, "board.cpus" },
		{ CFG_BOARD_NOTES, "board.notes" },
		{ CFG_BOARD_CONFIDENCE, "board.confidence" },
		{ CFG_GPIO_BACKEND, "gpio.backend" },
		{ CFG_GPIO_CHIP, "gpio.chip" },
		{ CFG_GPIO_LINE, "gpio.line" },
		{ CFG_GPIO_FREE_LINES, "gpio.free_lines" },
		{ CFG_GPIO_ACTIVE_LOW, "gpio.active_low" },
		{ CFG_GPIO_DRIVE, "gpio.drive" },
		{ CFG_GPIO_IDLE_LEVEL, "gpio.idle_level" },
		{ CFG_GPIO_CONFIDENCE, "gpio.confidence" },
		{ CFG_LOOPBACK_CHIP, "loopback.chip" },
		{ CFG_LOOPBACK_LINE, "loopback.line" },
		{ CFG_LOOPBACK_CONFIDENCE, "loopback.confidence" },
		{ CFG_INPUT_CHIP, "input.chip" },
		{ CFG_INPUT_LINE, "input.line" },
		{ CFG_INPUT_CONFIDENCE, "input.confidence" },
		{ CFG_MATCH_COMPATIBLE, "match.compatible" },
		{ CFG_MATCH_DMI_BOARD, "match.dmi_board" },
		{ CFG_MATCH_DMI_PRODUCT, "match.dmi_product" },
		{ CFG_SIM_WRITE_COST, "sim.write_cost" },
		{ CFG_SIM_NUM_LINES, "sim.num_lines" },
		{ CFG_SIM_BUSY_LINE, "sim.busy_line" },
		{ CFG_SIM_BUSY_CONSUMER, "sim.busy_consumer" },
		{ CFG_SIM_CHIP_LABEL, "sim.chip_label" },
		{ CFG_SIM_WIRE_LINE, "sim.wire_line" },
		{ CFG_SIM_WIRE_DELAY, "sim.wire_delay" },
		{ CFG_SIM_WIRE_JITTER, "sim.wire_jitter" },
		{ CFG_SIM_WIRE_LOSE, "sim.wire_lose" },
		{ CFG_SIM_STIM_LINE, "sim.stim_line" },
		{ CFG_SIM_STIM_PERIOD, "sim.stim_period" },
		{ CFG_SIM_STIM_JITTER, "sim.stim_jitter" },
		{ CFG_SIM_STIM_COUNT, "sim.stim_count" },
		{ CFG_SIM_STIM_BOUNCE, "sim.stim_bounce" },
		{ CFG_SIM_STIM_BOUNCE_GAP, "sim.stim_bounce_gap" },
		{ CFG_SIM_STIM_PRIORITY, "sim.stim_priority" },
		{ CFG_SIM_STIM_CPU, "sim.stim_cpu" },
		{ CFG_SIM_HISTORY_FILE, "sim.history_file" },
		{ CFG_RUN_HALF_PERIOD, "run.half_period" },
		{ CFG_RUN_HIGH, "run.high" },
		{ CFG_RUN_LOW, "run.low" },
		{ CFG_RUN_PHASE, "run.phase" },
		{ CFG_RUN_DURATION, "run.duration" },
		{ CFG_RUN_SCALE, "run.scale" },
		{ CFG_RUN_WARMUP, "run.warmup" },
		{ CFG_RUN_RING_SIZE, "run.ring_size" },
		{ CFG_RUN_LABEL, "run.label" },
		{ CFG_RUN_DESCRIPTION, "run.description" },
		{ CFG_RUN_CONTAINMENT, "run.containment" },
		{ CFG_RUN_SPIN, "run.spin" },
		{ CFG_RUN_LOOPBACK, "run.loopback" },
		{ CFG_RUN_OUTPUTS, "run.outputs" },
		{ CFG_LINES_HIGH, "run.line_high" },
		{ CFG_LINES_LOW, "run.line_low" },
		{ CFG_LINES_PHASE, "run.line_phase" },
		{ CFG_GRID_CLOCK, "grid.clock" },
		{ CFG_GRID_ALIGN, "grid.align" },
		{ CFG_GRID_START, "grid.start" },
		{ CFG_RESPOND_MODE, "respond.mode" },
		{ CFG_RESPOND_EDGE, "respond.edge" },
		{ CFG_RESPOND_PULSE_WIDTH, "respond.pulse_width" },
		{ CFG_RESPOND_DEBOUNCE, "respond.debounce" },
		{ CFG_RESPOND_EVENT_CLOCK, "respond.event_clock" },
		{ CFG_RESPOND_IRQ_BOUND, "respond.irq_bound" },
		{ CFG_RT_CPU, "rt.cpu" },
		{ CFG_RT_CPUS, "rt.cpus" },
		{ CFG_RT_PRIORITY, "rt.priority" },
		{ CFG_RT_LOCK_MEMORY, "rt.lock_memory" },
		{ CFG_RT_DMA_LATENCY, "rt.dma_latency" },
		{ CFG_RT_ALLOW_NON_RT, "rt.allow_non_rt" },
		{ CFG_RT_IDLE_STATE, "rt.idle_state" },
		{ CFG_RT_IDLE_CPUS, "rt.idle_cpus" },
		{ CFG_RT_TIMER, "rt.timer" },
		{ CFG_LIMITS_TMIN, "limits.tmin" },
		{ CFG_LIMITS_TMAX, "limits.tmax" },
		{ CFG_LIMITS_WAKE_LATENCY_MAX, "limits.wake_latency_max" },
		{ CFG_LIMITS_MISSED_MAX, "limits.missed_max" },
		{ CFG_LIMITS_RESPONSE_MAX, "limits.response_max" },
		{ CFG_LIMITS_WIDTH_ERROR, "limits.width_error" },
		{ CFG_PROOF_INTERVAL, "proof.interval" },
		{ CFG_PROOF_MIN_BUSY, "proof.min_busy" },
		{ CFG_PROOF_IDLE_MAX_BUSY, "proof.idle_max_busy" },
		{ CFG_TRACE_BREAK, "trace.break" },
		{ CFG_TRACE_STOP_ON_BREAK, "trace.stop_on_break" },
		{ CFG_TRACE_MAX_BREAKS, "trace.max_breaks" },
		{ CFG_TRACE_TRACER, "trace.tracer" },
		{ CFG_TRACE_BUFFER_KB, "trace.buffer_kb" },
		{ CFG_TRACE_BUFFER, "trace.buffer" },
		{ CFG_TRACE_EVENTS, "trace.events" },
		{ CFG_OUTPUT_LOG, "output.log" },
		{ CFG_OUTPUT_JSON, "output.json" },
		{ CFG_OUTPUT_QUIET, "output.quiet" },
		{ CFG_OUTPUT_STATUS_INTERVAL, "output.status_interval" },
		{ CFG_OUTPUT_JUNIT, "output.junit" },
		{ CFG_OUTPUT_RESULTS, "output.results" },
		{ CFG_OUTPUT_KCIDB, "output.kcidb" },
		{ CFG_OUTPUT_KCIDB_ORIGIN, "output.kcidb_origin" },
		{ CFG_OUTPUT_KCIDB_URL, "output.kcidb_url" },
	};
	char name[64];
	size_t i;

	(void)state;
	assert_int_equal(sizeof(order) / sizeof(order[0]), CFG_NKEYS);
	for (i = 0; i < CFG_NKEYS; i++) {
		assert_int_equal(order[i].key, i);
		assert_string_equal(config_key_name(order[i].key, name, sizeof(name)),
				    order[i].name);
		assert_int_equal(config_lookup(order[i].name), order[i].key);
	}
}

static void every_row_is_complete_and_sections_are_adjacent(void **state)
{
	int k, j;

	(void)state;
	for (k = 0; k < CFG_NKEYS; k++) {
		const struct cfg_item *it = &config_table[k];

		assert_non_null(it->section);
		assert_non_null(it->name);
		assert_non_null(it->help);
		assert_non_null(it->def);
		assert_true(it->where != 0);
		assert_true(strlen(it->help) < 80);
		if (k > 0 && strcmp(config_table[k - 1].section, it->section)) {
			for (j = 0; j < k; j++)
				assert_string_not_equal(config_table[j].section, it->section);
		}
		/* Long options are unique. */
		for (j = 0; j < k; j++) {
			if (it->opt && config_table[j].opt)
				assert_string_not_equal(it->opt, config_table[j].opt);
		}
	}
}

static void unknown_keys_are_not_found(void **state)
{
	(void)state;
	assert_int_equal(config_lookup("run.half_perod"), -1);
	assert_int_equal(config_lookup("run"), -1);
	assert_int_equal(config_lookup(".name"), -1);
	assert_int_equal(config_lookup("runx.half_period"), -1);
	assert_int_equal(config_lookup(""), -1);
	assert_int_equal(config_lookup(NULL), -1);
}

static void a_new_config_holds_every_default(void **state)
{
	struct config *c = *state;
	char buf[64];
	int k;

	assert_int_equal(config_int(c, CFG_RUN_HALF_PERIOD), 500 * US);
	assert_int_equal(config_int(c, CFG_RUN_DURATION), 60 * SEC);
	assert_int_equal(config_int(c, CFG_RUN_WARMUP), 0);
	assert_int_equal(config_int(c, CFG_RUN_RING_SIZE), 65536);
	assert_int_equal(config_int(c, CFG_RT_CPU), -1);
	assert_int_equal(config_int(c, CFG_RT_PRIORITY), 90);
	assert_int_equal(config_int(c, CFG_RT_DMA_LATENCY), 0);
	assert_true(config_bool(c, CFG_RT_LOCK_MEMORY));
	assert_false(config_bool(c, CFG_RT_ALLOW_NON_RT));
	assert_int_equal(config_int(c, CFG_LIMITS_TMIN), 0);
	assert_int_equal(config_int(c, CFG_LIMITS_MISSED_MAX), -1);
	assert_int_equal(config_int(c, CFG_OUTPUT_STATUS_INTERVAL), 1 * SEC);
	assert_string_equal(config_str(c, CFG_OUTPUT_LOG), "");
	assert_string_equal(config_str(c, CFG_GPIO_BACKEND), "gpiod");
	assert_string_equal(config_str(c, CFG_GPIO_DRIVE), "push-pull");
	assert_string_equal(config_str(c, CFG_GPIO_CONFIDENCE), "unknown");
	assert_string_equal(config_str(c, CFG_SIM_BUSY_CONSUMER), "sim-busy");
	assert_string_equal(config_str(c, CFG_SIM_CHIP_LABEL), "sqwave-sim");
	assert_int_equal(config_int(c, CFG_SIM_NUM_LINES), 8);
	assert_int_equal(config_int(c, CFG_SIM_BUSY_LINE), -1);
	for (k = 0; k < CFG_NKEYS; k++) {
		assert_int_equal(config_source(c, k), CFG_SRC_DEFAULT);
		assert_string_equal(config_origin(c, k, buf, sizeof(buf)), "default");
	}
}

static void a_bare_number_is_read_in_the_keys_unit(void **state)
{
	struct config *c = *state;

	set_ok(c, "run.half_period", "250", CFG_SRC_CMDLINE);
	assert_int_equal(config_int(c, CFG_RUN_HALF_PERIOD), 250 * US);
	set_ok(c, "run.duration", "10", CFG_SRC_CMDLINE);
	assert_int_equal(config_int(c, CFG_RUN_DURATION), 10 * SEC);
	set_ok(c, "sim.write_cost", "1500", CFG_SRC_CMDLINE);
	assert_int_equal(config_int(c, CFG_SIM_WRITE_COST), 1500);
	set_ok(c, "limits.tmax", "584", CFG_SRC_CMDLINE);
	assert_int_equal(config_int(c, CFG_LIMITS_TMAX), 584 * US);
}

static void a_bad_duration_names_the_key_and_the_range(void **state)
{
	struct config *c = *state;
	char err[256];

	assert_int_equal(set_err(c, "run.half_period", "5 parsecs", CFG_SRC_CMDLINE,
				 err, sizeof(err)), CFG_E_TYPE);
	assert_string_equal(err, "run.half_period must be a duration between 1us and 10s "
			    "(bare numbers are us), got \"5 parsecs\"");
	assert_int_equal(set_err(c, "run.half_period", "11s", CFG_SRC_CMDLINE,
				 err, sizeof(err)), CFG_E_RANGE);
	assert_int_equal(set_err(c, "run.half_period", "999ns", CFG_SRC_CMDLINE,
				 err, sizeof(err)), CFG_E_RANGE);
	assert_int_equal(set_err(c, "run.half_period", "99999999999999999999s", CFG_SRC_CMDLINE,
				 err, sizeof(err)), CFG_E_RANGE);
	assert_int_equal(set_err(c, "sim.write_cost", "2ms", CFG_SRC_CMDLINE,
				 err, sizeof(err)), CFG_E_RANGE);
	assert_string_equal(err, "sim.write_cost must be a duration between 0 and 1ms "
			    "(bare numbers are ns), got \"2ms\"");
	/* Nothing was stored. */
	assert_int_equal(config_int(c, CFG_RUN_HALF_PERIOD), 500 * US);
	assert_int_equal(config_source(c, CFG_RUN_HALF_PERIOD), CFG_SRC_DEFAULT);
}

static void a_bad_integer_names_the_key_and_the_range(void **state)
{
	struct config *c = *state;
	char err[256];

	assert_int_equal(set_err(c, "rt.priority", "120", CFG_SRC_CMDLINE, err, sizeof(err)),
			 CFG_E_RANGE);
	assert_string_equal(err, "rt.priority must be an integer between 1 and 99, got \"120\"");
	assert_int_equal(set_err(c, "rt.priority", "high", CFG_SRC_CMDLINE, err, sizeof(err)),
			 CFG_E_TYPE);
	assert_int_equal(set_err(c, "rt.priority", "9x", CFG_SRC_CMDLINE, err, sizeof(err)),
			 CFG_E_TYPE);
	assert_int_equal(set_err(c, "rt.priority", "", CFG_SRC_CMDLINE, err, sizeof(err)),
			 CFG_E_TYPE);
	assert_int_equal(set_err(c, "rt.cpu", "-2", CFG_SRC_CMDLINE, err, sizeof(err)),
			 CFG_E_RANGE);
	assert_int_equal(set_err(c, "limits.missed_max", "99999999999999999999",
				 CFG_SRC_CMDLINE, err, sizeof(err)), CFG_E_RANGE);
	assert_string_equal(err, "limits.missed_max must be an integer of at least -1 periods, "
			    "got \"99999999999999999999\"");
	assert_int_equal(set_err(c, "rt.dma_latency", "10001", CFG_SRC_CMDLINE, err, sizeof(err)),
			 CFG_E_RANGE);
	assert_string_equal(err, "rt.dma_latency must be an integer between -1 and 10000 us, "
			    "got \"10001\"");
	set_ok(c, "rt.cpu", " 3 ", CFG_SRC_CMDLINE);
	assert_int_equal(config_int(c, CFG_RT_CPU), 3);
}

static void bools_accept_the_usual_spellings(void **state)
{
	static const char *const yes[] = { "true", "yes", "on", "1", "True", "YES" };
	static const char *const no[] = { "false", "no", "off", "0", "False", "OFF" };
	struct config *c = *state;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		set_ok(c, "output.quiet", yes[i], CFG_SRC_CMDLINE);
		assert_true(config_bool(c, CFG_OUTPUT_QUIET));
		set_ok(c, "output.quiet", no[i], CFG_SRC_CMDLINE);
		assert_false(config_bool(c, CFG_OUTPUT_QUIET));
	}
	assert_int_equal(set_err(c, "output.quiet", "maybe", CFG_SRC_CMDLINE, err, sizeof(err)),
			 CFG_E_TYPE);
	assert_string_equal(err, "output.quiet must be true or false (also yes/no, on/off, 1/0), "
			    "got \"maybe\"");
}

static void an_enum_lists_its_choices(void **state)
{
	struct config *c = *state;
	char err[256];

	assert_int_equal(set_err(c, "gpio.backend", "gpiod3", CFG_SRC_CMDLINE, err, sizeof(err)),
			 CFG_E_CHOICE);
	assert_string_equal(err, "gpio.backend must be one of gpiod, sim, got \"gpiod3\"");
	set_ok(c, "gpio.backend", "sim", CFG_SRC_CMDLINE);
	assert_string_equal(config_str(c, CFG_GPIO_BACKEND), "sim");
}

static void enum_indexes_match_the_gpio_enums(void **state)
{
	struct config *c = *state;

	set_ok(c, "gpio.backend", "sim", CFG_SRC_CMDLINE);
	assert_int_equal(config_choice(c, CFG_GPIO_BACKEND), GPIO_BACKEND_SIM);
	set_ok(c, "gpio.backend", "gpiod", CFG_SRC_CMDLINE);
	assert_int_equal(config_choice(c, CFG_GPIO_BACKEND), GPIO_BACKEND_GPIOD);
	set_ok(c, "gpio.drive", "open-drain", CFG_SRC_CMDLINE);
	assert_int_equal(config_choice(c, CFG_GPIO_DRIVE), GPIO_DRIVE_OPEN_DRAIN);
	set_ok(c, "gpio.drive", "open-source", CFG_SRC_CMDLINE);
	assert_int_equal(config_choice(c, CFG_GPIO_DRIVE), GPIO_DRIVE_OPEN_SOURCE);
	set_ok(c, "gpio.drive", "push-pull", CFG_SRC_CMDLINE);
	assert_int_equal(config_choice(c, CFG_GPIO_DRIVE), GPIO_DRIVE_PUSH_PULL);
}

static void a_string_is_one_line_and_text_may_span_lines(void **state)
{
	struct config *c = *state;
	char err[256];

	assert_int_equal(set_err(c, "board.name", "a\nb", CFG_SRC_CMDLINE, err, sizeof(err)),
			 CFG_E_TYPE);
	assert_string_equal(err, "board.name must be one line of text, got \"a\\nb\"");
	set_ok(c, "board.notes", "line one\nline two", CFG_SRC_CMDLINE);
	assert_string_equal(config_str(c, CFG_BOARD_NOTES), "line one\nline two");
	set_ok(c, "output.log", "", CFG_SRC_CMDLINE);
	assert_string_equal(config_str(c, CFG_OUTPUT_LOG), "");
}

static void control_characters_never_get_into_a_value(void **state)
{
	static const char *const bad[] = {
		"t\x1b[31mred", "bell\x07", "del\x7f", "tab\there", "csi\xc2\x9b" "2J", "nel\xc2\x85x",
		"ls\xe2\x80\xa8x",
	};
	struct config *c = *state;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (set_err(c, "board.name", bad[i], CFG_SRC_BOARD, err, sizeof(err)) != CFG_E_TYPE)
			fail_msg("board.name accepted %s", bad[i]);
	}
	assert_int_equal(set_err(c, "board.name", "t\x1b[31m", CFG_SRC_BOARD, err, sizeof(err)),
			 CFG_E_TYPE);
	assert_string_equal(err, "board.name must be one line of text without control characters, "
			    "got \"t\\x1b[31m\" (byte 2)");
	assert_int_equal(set_err(c, "board.name", "c\xc2\x9b", CFG_SRC_BOARD, err, sizeof(err)),
			 CFG_E_TYPE);
	assert_string_equal(err, "board.name must be one line of text without control characters, "
			    "got \"c\\u009b\" (byte 2)");
	/* text keeps its newlines and tabs, not the rest */
	assert_int_equal(set_err(c, "board.notes", "a\n\x1b[2J", CFG_SRC_BOARD, err, sizeof(err)),
			 CFG_E_TYPE);
	set_ok(c, "board.notes", "wire:\tCN8.7\nto:\tCN8.31 \xc2\xb5s \xe2\x80\xa8", CFG_SRC_BOARD);
	/* a no-break space is no space to the parsers: the message shows it */
	assert_int_equal(set_err(c, "rt.priority", "90\xc2\xa0", CFG_SRC_BOARD, err, sizeof(err)),
			 CFG_E_TYPE);
	assert_string_equal(err, "rt.priority must be an integer between 1 and 99, got "
			    "\"90\\u00a0\"");
	/* nor are the invisible ones: a zero-width space, a stray byte-order mark */
	assert_int_equal(set_err(c, "rt.priority", "9\xe2\x80\x8b" "0", CFG_SRC_BOARD, err,
				 sizeof(err)), CFG_E_TYPE);
	assert_string_equal(err, "rt.priority must be an integer between 1 and 99, got "
			    "\"9\\u200b0\"");
	assert_int_equal(set_err(c, "gpio.backend", "sim\xef\xbb\xbf", CFG_SRC_BOARD, err,
				 sizeof(err)), CFG_E_CHOICE);
	assert_string_equal(err, "gpio.backend must be one of gpiod, sim, got \"sim\\ufeff\"");
	/* what is not a control character stays: UTF-8 letters, bytes of other encodings */
	set_ok(c, "board.name", "caf\xc3\xa9 \xe2\x80\x94 \xff", CFG_SRC_BOARD);
	assert_string_equal(config_str(c, CFG_BOARD_NAME), "caf\xc3\xa9 \xe2\x80\x94 \xff");
}

/* A value too long for the log header would load and then fail the run. */
static void the_longest_values_still_fit_the_log_header(void **state)
{
	static char big[CFG_TEXT_MAX + 2];
	struct config *c = *state;
	char *text = NULL, err[256];
	size_t len = 0;
	FILE *f;
	int k;

	for (k = 0; k < CFG_NKEYS; k++) {
		size_t max = config_table[k].type == CFG_T_TEXT ? CFG_TEXT_MAX : CFG_STRING_MAX;

		if (config_table[k].type != CFG_T_STRING && config_table[k].type != CFG_T_TEXT)
			continue;
		memset(big, '\\', sizeof(big) - 1);   /* a backslash is written as two */
		big[max + 1] = '\0';
		assert_int_equal(config_set(c, k, big, CFG_SRC_CMDLINE, NULL, 0, err, sizeof(err)),
				 CFG_E_RANGE);
		big[max] = '\0';
		if (config_set(c, k, big, CFG_SRC_CMDLINE, NULL, 0, err, sizeof(err)) != CFG_OK)
			fail_msg("%s", err);
	}
	memset(big, 'x', sizeof(big) - 1);
	big[CFG_STRING_MAX + 1] = '\0';
	assert_int_equal(set_err(c, "board.name", big, CFG_SRC_BOARD, err, sizeof(err)),
			 CFG_E_RANGE);
	assert_string_equal(err, "board.name must be one line of text of at most 4096 bytes, got "
			    "4097 bytes");
	f = open_memstream(&text, &len);
	assert_non_null(f);
	config_dump(c, f);
	fclose(f);
	/* edgelog.c takes 1 MiB of metadata: a quarter is left for the host
	 * lines and the profile's phases */
	if (len > 768 * 1024)
		fail_msg("the dump of the longest values is %zu bytes", len);
	free(text);
}

static void a_key_in_the_wrong_kind_of_file_is_refused(void **state)
{
	struct config *c = *state;
	char err[256];

	assert_int_equal(set_err(c, "gpio.chip", "GPIOB", CFG_SRC_PROFILE, err, sizeof(err)),
			 CFG_E_PLACE);
	assert_string_equal(err, "gpio.chip belongs in a board file, not in a profile");
	assert_int_equal(set_err(c, "run.duration", "1h", CFG_SRC_BOARD, err, sizeof(err)),
			 CFG_E_PLACE);
	assert_string_equal(err, "run.duration belongs in a profile, not in a board file");
	/* rt is allowed in both; the command line may set anything. */
	set_ok(c, "rt.cpu", "1", CFG_SRC_BOARD);
	set_ok(c, "rt.cpu", "0", CFG_SRC_PROFILE);
	set_ok(c, "gpio.chip", "GPIOB", CFG_SRC_CMDLINE);
	set_ok(c, "run.duration", "1h", CFG_SRC_CMDLINE);
}

static void a_lower_source_never_overrides_a_higher_one(void **state)
{
	struct config *c = *state;
	char buf[64];

	/* Command line first, files later: the command line still wins. */
	set_ok(c, "rt.priority", "80", CFG_SRC_CMDLINE);
	set_ok(c, "rt.priority", "70", CFG_SRC_PROFILE);
	set_ok(c, "rt.priority", "60", CFG_SRC_BOARD);
	assert_int_equal(config_int(c, CFG_RT_PRIORITY), 80);
	assert_int_equal(config_source(c, CFG_RT_PRIORITY), CFG_SRC_CMDLINE);
	assert_string_equal(config_origin(c, CFG_RT_PRIORITY, buf, sizeof(buf)), "command line");

	/* Board, then profile: the profile overrides the board's recommendation. */
	set_ok(c, "rt.cpu", "1", CFG_SRC_BOARD);
	assert_int_equal(config_int(c, CFG_RT_CPU), 1);
	set_ok(c, "rt.cpu", "0", CFG_SRC_PROFILE);
	assert_int_equal(config_int(c, CFG_RT_CPU), 0);
	set_ok(c, "rt.cpu", "2", CFG_SRC_BOARD);
	assert_int_equal(config_int(c, CFG_RT_CPU), 0);

	/* The same source twice: the later value wins. */
	set_ok(c, "run.duration", "10s", CFG_SRC_CMDLINE);
	set_ok(c, "run.duration", "20s", CFG_SRC_CMDLINE);
	assert_int_equal(config_int(c, CFG_RUN_DURATION), 20 * SEC);
}

static void a_value_that_does_not_apply_is_still_checked(void **state)
{
	struct config *c = *state;
	char err[256];

	set_ok(c, "rt.priority", "80", CFG_SRC_CMDLINE);
	assert_int_equal(set_err(c, "rt.priority", "200", CFG_SRC_PROFILE, err, sizeof(err)),
			 CFG_E_RANGE);
}

static void the_origin_names_file_and_line(void **state)
{
	struct config *c = *state;
	char err[256], buf[64];

	assert_int_equal(config_set(c, CFG_GPIO_CHIP, "GPIOB", CFG_SRC_BOARD,
				    "boards/x.yaml", 12, err, sizeof(err)), CFG_OK);
	assert_string_equal(config_origin(c, CFG_GPIO_CHIP, buf, sizeof(buf)),
			    "boards/x.yaml:12");
	assert_int_equal(config_source(c, CFG_GPIO_CHIP), CFG_SRC_BOARD);
	assert_int_equal(config_set(c, CFG_GPIO_CHIP, "GPIOC", CFG_SRC_CMDLINE, NULL, 0,
				    err, sizeof(err)), CFG_OK);
	assert_string_equal(config_origin(c, CFG_GPIO_CHIP, buf, sizeof(buf)), "command line");
}

static void every_value_formats_to_text_that_sets_it_again(void **state)
{
	static const char *const values[][2] = {
		{ "run.half_period", "1.5ms" }, { "run.duration", "0" },
		{ "run.warmup", "90s" }, { "limits.tmin", "414us" },
		{ "rt.cpu", "-1" }, { "output.quiet", "yes" },
		{ "board.notes", "two\nlines \\ and a backslash" },
		{ "gpio.drive", "open-drain" }, { "sim.write_cost", "1234ns" },
	};
	struct config *c = *state, *d = config_new();
	char buf[256], err[256];
	size_t i;
	int k;

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		set_ok(c, values[i][0], values[i][1], CFG_SRC_CMDLINE);
	assert_string_equal(config_format(c, CFG_RUN_HALF_PERIOD, buf, sizeof(buf)), "1.5ms");
	assert_string_equal(config_format(c, CFG_RUN_WARMUP, buf, sizeof(buf)), "90s");
	assert_string_equal(config_format(c, CFG_OUTPUT_QUIET, buf, sizeof(buf)), "true");
	assert_string_equal(config_format(c, CFG_RUN_DURATION, buf, sizeof(buf)), "0");
	for (k = 0; k < CFG_NKEYS; k++) {
		char again[256];

		config_format(c, k, buf, sizeof(buf));
		if (config_set(d, k, buf, CFG_SRC_CMDLINE, NULL, 0, err, sizeof(err)) != CFG_OK)
			fail_msg("%s: %s", buf, err);
		assert_string_equal(config_format(d, k, again, sizeof(again)), buf);
	}
	assert_string_equal(config_str(d, CFG_BOARD_NOTES), "two\nlines \\ and a backslash");
	config_free(d);
}

static void the_dump_is_one_escaped_line_per_key(void **state)
{
	struct config *c = *state;
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f;
	int n = 0;

	set_ok(c, "board.notes", "one\ntwo\\three", CFG_SRC_CMDLINE);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	config_dump(c, f);
	fclose(f);
	assert_non_null(strstr(text, "board.notes=one\\ntwo\\\\three\n"));
	assert_non_null(strstr(text, "run.half_period=500us\n"));
	assert_non_null(strstr(text, "rt.lock_memory=true\n"));
	assert_non_null(strstr(text, "output.log=\n"));
	assert_int_equal(strncmp(text, "board.name=\n", 12), 0);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		n++;
	assert_int_equal(n, CFG_NKEYS);
	free(text);
}

static void required_board_keys_are_checked_after_all_sources(void **state)
{
	struct config *c = *state;
	char err[256];

	assert_int_equal(config_check_required(c, err, sizeof(err)), CFG_E_MISSING);
	assert_string_equal(err, "board.name is not set: a board file must set it "
			    "(or pass --set board.name=VALUE)");
	assert_int_equal(config_set(c, CFG_BOARD_NAME, "x", CFG_SRC_BOARD, "b.yaml", 2,
				    err, sizeof(err)), CFG_OK);
	assert_int_equal(config_set(c, CFG_GPIO_CHIP, "GPIOA", CFG_SRC_BOARD, "b.yaml", 4,
				    err, sizeof(err)), CFG_OK);
	/* An unknown pin is an explicit empty value in the board file. */
	assert_int_equal(config_set(c, CFG_GPIO_LINE, "", CFG_SRC_BOARD, "b.yaml", 5,
				    err, sizeof(err)), CFG_OK);
	assert_int_equal(config_check_required(c, err, sizeof(err)), CFG_E_MISSING);
	assert_string_equal(err, "gpio.line is empty (b.yaml:5): the board file does not know "
			    "it; see board.notes and pass --set gpio.line=VALUE");
	assert_int_equal(config_apply_set(c, "gpio.line=7", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_check_required(c, err, sizeof(err)), CFG_OK);
}

static void high_and_low_resolve_into_the_wave_and_its_mean_half_period(void **state)
{
	struct config *c = *state;
	struct wave w;
	char err[512], o[64];

	(void)state;
	/* nothing set: the 50 % wave, nothing derived */
	assert_int_equal(config_resolve_wave(c, err, sizeof(err)), CFG_OK);
	config_wave(c, &w);
	assert_int_equal(w.high_ns, 500000);
	assert_int_equal(w.low_ns, 500000);
	assert_int_equal(w.phase_ns, 0);
	assert_int_equal(config_source(c, CFG_RUN_HALF_PERIOD), CFG_SRC_DEFAULT);
	/* high alone: low is the half period, the half period their mean */
	assert_int_equal(config_apply_option(c, "high", "300us", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_resolve_wave(c, err, sizeof(err)), CFG_OK);
	config_wave(c, &w);
	assert_int_equal(w.high_ns, 300000);
	assert_int_equal(w.low_ns, 500000);
	assert_int_equal(config_int(c, CFG_RUN_HALF_PERIOD), 400000);
	assert_string_equal(config_origin(c, CFG_RUN_LOW, o, sizeof(o)), "the half period");
}

static void contradictory_wave_keys_are_refused_naming_their_origins(void **state)
{
	struct config *c = *state;
	char err[512];

	(void)state;
	assert_int_equal(config_set(c, CFG_RUN_HALF_PERIOD, "400us", CFG_SRC_PROFILE, "p.yaml", 3,
				    err, sizeof(err)), CFG_OK);
	assert_int_equal(config_apply_option(c, "high", "300us", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_apply_option(c, "low", "700us", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_resolve_wave(c, err, sizeof(err)), CFG_E_RANGE);
	assert_string_equal(err, "run.high (300us, command line) and run.low (700us, command "
			    "line) contradict run.half_period (400us, p.yaml:3): high + low must "
			    "be the period (2 x the half period), or leave one of the three out");
	assert_int_equal(config_set(c, CFG_RUN_HALF_PERIOD, "500us", CFG_SRC_PROFILE, "p.yaml", 3,
				    err, sizeof(err)), CFG_OK);
	assert_int_equal(config_resolve_wave(c, err, sizeof(err)), CFG_OK);
	/* a phase of the period or more */
	assert_int_equal(config_set(c, CFG_RUN_PHASE, "1ms", CFG_SRC_PROFILE, "p.yaml", 9,
				    err, sizeof(err)), CFG_OK);
	assert_int_equal(config_resolve_wave(c, err, sizeof(err)), CFG_E_RANGE);
	assert_string_equal(err, "run.phase (1ms, p.yaml:9) must be below the period (1ms): a "
			    "phase of a whole period is none");
	assert_int_equal(config_apply_option(c, "phase", "999us", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_resolve_wave(c, err, sizeof(err)), CFG_OK);
	/* an odd sum of nanoseconds has no exact mean */
	{
		struct config *d = config_new();

		assert_non_null(d);
		assert_int_equal(config_apply_option(d, "low", "700001ns", err, sizeof(err)),
				 CFG_OK);
		assert_int_equal(config_resolve_wave(d, err, sizeof(err)), CFG_E_RANGE);
		assert_non_null(strstr(err, "must be an even number of nanoseconds"));
		config_free(d);
	}
	/* below the table's 1 us */
	assert_int_equal(config_apply_option(c, "low", "500ns", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_resolve_wave(c, err, sizeof(err)), CFG_E_RANGE);
	assert_string_equal(err, "run.low (500ns, command line) must be 0 (the half period) or "
			    "at least 1us");
}

static void contradictory_limits_are_an_error_naming_both_origins(void **state)
{
	struct config *c = *state;
	char err[512];

	(void)state;
	assert_int_equal(config_check_limits(c, err, sizeof(err)), CFG_OK);
	assert_int_equal(config_set(c, CFG_LIMITS_TMAX, "400us", CFG_SRC_PROFILE, "p.yaml", 7,
				    err, sizeof(err)), CFG_OK);
	assert_int_equal(config_check_limits(c, err, sizeof(err)), CFG_OK); /* tmin unset */
	assert_int_equal(config_apply_option(c, "tmin", "600", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_check_limits(c, err, sizeof(err)), CFG_E_RANGE);
	assert_string_equal(err, "limits.tmin (600us, command line) must be below limits.tmax "
			    "(400us, p.yaml:7): no pulse could meet both");
	assert_int_equal(config_apply_option(c, "tmin", "400us", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_check_limits(c, err, sizeof(err)), CFG_E_RANGE);
	assert_int_equal(config_apply_option(c, "tmin", "399us", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_check_limits(c, err, sizeof(err)), CFG_OK);
	/* a latency limit beyond the half period is no contradiction */
	assert_int_equal(config_apply_option(c, "max-latency", "2ms", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_check_limits(c, err, sizeof(err)), CFG_OK);
}

static void take_moves_checked_values_and_keeps_precedence_and_origin(void **state)
{
	struct config *c = *state, *scratch = config_new();
	char err[256], buf[256];

	(void)state;
	assert_non_null(scratch);
	assert_int_equal(config_set(scratch, CFG_RUN_DURATION, "10", CFG_SRC_PROFILE, "p.yaml", 3,
				    err, sizeof(err)), CFG_OK);
	assert_int_equal(config_set(scratch, CFG_RUN_LABEL, "idle", CFG_SRC_PROFILE, "p.yaml", 4,
				    err, sizeof(err)), CFG_OK);
	assert_int_equal(config_set(scratch, CFG_RUN_HALF_PERIOD, "250", CFG_SRC_PROFILE, "p.yaml",
				    5, err, sizeof(err)), CFG_OK);
	/* the command line already set the half period: the profile's does not apply */
	assert_int_equal(config_apply_option(c, "half-period", "100us", err, sizeof(err)), CFG_OK);
	config_take(c, scratch);
	assert_int_equal(config_int(c, CFG_RUN_DURATION), 10 * 1000000000LL);
	assert_string_equal(config_str(c, CFG_RUN_LABEL), "idle");
	assert_string_equal(config_origin(c, CFG_RUN_LABEL, buf, sizeof(buf)), "p.yaml:4");
	assert_int_equal(config_int(c, CFG_RUN_HALF_PERIOD), 100000);
	assert_int_equal(config_source(c, CFG_RUN_HALF_PERIOD), CFG_SRC_CMDLINE);
	/* moved, not copied */
	assert_int_equal(config_source(scratch, CFG_RUN_LABEL), CFG_SRC_DEFAULT);
	config_free(scratch);
}

static void long_options_map_back_to_their_keys(void **state)
{
	struct option opts[CFG_NKEYS + 1];
	size_t n, i;
	bool seen_quiet = false, seen_half = false;

	(void)state;
	n = config_long_options(opts, CFG_NKEYS, 1000);
	assert_true(n > 10 && n <= CFG_NKEYS);
	assert_int_equal(config_long_options(opts, 2, 1000), n);
	n = config_long_options(opts, CFG_NKEYS, 1000);
	for (i = 0; i < n; i++) {
		int k = opts[i].val - 1000;

		assert_true(k >= 0 && k < CFG_NKEYS);
		assert_string_equal(opts[i].name, config_table[k].opt);
		assert_int_equal(opts[i].has_arg, config_table[k].type == CFG_T_BOOL ?
				 no_argument : required_argument);
		assert_null(opts[i].flag);
		if (!strcmp(opts[i].name, "quiet"))
			seen_quiet = k == CFG_OUTPUT_QUIET;
		if (!strcmp(opts[i].name, "half-period"))
			seen_half = k == CFG_RUN_HALF_PERIOD;
	}
	assert_true(seen_quiet);
	assert_true(seen_half);
}

static void getopt_long_and_the_table_parse_a_command_line(void **state)
{
	struct config *c = *state;
	char *argv[] = { "sqwave", "--half-period", "250us", "--quiet", "--cpu=2",
			 "--set", "rt.lock_memory=off", "--tmax", "584", NULL };
	struct option opts[CFG_NKEYS + 2];
	char err[256];
	size_t n;
	int v, idx;

	n = config_long_options(opts, CFG_NKEYS, 0x100);
	opts[n++] = (struct option){ "set", required_argument, NULL, 'S' };
	opts[n] = (struct option){ 0 };
	optind = 1;
	while ((v = getopt_long(9, argv, "", opts, &idx)) != -1) {
		if (v == 'S')
			assert_int_equal(config_apply_set(c, optarg, err, sizeof(err)), CFG_OK);
		else if (v >= 0x100)
			assert_int_equal(config_apply_option(c, opts[idx].name, optarg, err,
							     sizeof(err)), CFG_OK);
		else
			fail_msg("unexpected getopt result %d", v);
	}
	assert_int_equal(config_int(c, CFG_RUN_HALF_PERIOD), 250 * US);
	assert_true(config_bool(c, CFG_OUTPUT_QUIET));
	assert_int_equal(config_int(c, CFG_RT_CPU), 2);
	assert_false(config_bool(c, CFG_RT_LOCK_MEMORY));
	assert_int_equal(config_int(c, CFG_LIMITS_TMAX), 584 * US);
	assert_int_equal(config_source(c, CFG_RT_CPU), CFG_SRC_CMDLINE);
}

static void a_value_option_without_a_value_is_an_error(void **state)
{
	struct config *c = *state;
	char err[256];

	assert_int_equal(config_apply_option(c, "half-period", NULL, err, sizeof(err)),
			 CFG_E_TYPE);
	assert_string_equal(err, "--half-period needs a value: a duration between 1us and 10s "
			    "(bare numbers are us)");
	assert_int_equal(config_apply_option(c, "no-such-option", "1", err, sizeof(err)),
			 CFG_E_UNKNOWN_KEY);
	assert_string_equal(err, "unknown option --no-such-option");
	assert_int_equal(config_apply_option(c, "allow-non-rt", NULL, err, sizeof(err)), CFG_OK);
	assert_true(config_bool(c, CFG_RT_ALLOW_NON_RT));
}

static void set_suggests_the_closest_key_for_a_typo(void **state)
{
	struct config *c = *state;
	char err[256];

	assert_int_equal(config_apply_set(c, "run.half_perod=1", err, sizeof(err)),
			 CFG_E_UNKNOWN_KEY);
	assert_string_equal(err, "unknown key \"run.half_perod\" in --set; did you mean "
			    "run.half_period? (--help lists every key)");
	assert_int_equal(config_apply_set(c, "run.half-period=1", err, sizeof(err)),
			 CFG_E_UNKNOWN_KEY);
	assert_non_null(strstr(err, "did you mean run.half_period?"));
	assert_int_equal(config_apply_set(c, "banana=1", err, sizeof(err)), CFG_E_UNKNOWN_KEY);
	assert_null(strstr(err, "did you mean"));
	assert_int_equal(config_apply_set(c, "no equals sign", err, sizeof(err)),
			 CFG_E_UNKNOWN_KEY);
	assert_string_equal(err, "--set needs SECTION.NAME=VALUE, got \"no equals sign\"");
	assert_int_equal(config_apply_set(c, "=5", err, sizeof(err)), CFG_E_UNKNOWN_KEY);
	assert_int_equal(config_apply_set(c, "output.json=a=b.json", err, sizeof(err)), CFG_OK);
	assert_string_equal(config_str(c, CFG_OUTPUT_JSON), "a=b.json");
}

/* The section name fuzz_yamlcfg found (tests/fuzz/seeds/fuzz_yamlcfg/
 * bom-section-overflow): byte-order marks, each shown as \ufeff, that
 * filled the buffer up to the "...", the closing quote and the NUL. Every
 * length of buffer gets a quoted text inside it that says it was cut. */
static void a_quoted_value_too_long_for_its_buffer_is_cut_inside_it(void **state)
{
	static const char name[] = "UTboa\xef\xbb\xbf" "bo~rlimi8\xef\xbb\xbf" "boar\xef\xbb\xbf"
				   "bolimi8\xef\xbb\xbf" "boar\xef\xbb\xbf" "boaoutboarlimi?saoutboarlimi?s";
	struct {
		char q[80];
		char guard[8];
	} b;
	size_t len, i, n;

	(void)state;
	for (len = 16; len <= sizeof(b.q); len++) {
		memset(&b, 'x', sizeof(b));
		config_quote(name, b.q, len);
		n = strlen(b.q);
		assert_true(n < len);
		for (i = len; i < sizeof(b); i++)
			assert_int_equal(((char *)&b)[i], 'x');
		assert_int_equal(b.q[0], '"');
		assert_int_equal(b.q[n - 1], '"');
		/* cut, and said so, or whole */
		if (strcmp(b.q, "\"UTboa\\ufeffbo~rlimi8\\ufeffboar\\ufeffbolimi8\\ufeffboar"
				 "\\ufeffboaoutboarlimi?saoutboarlimi?s\""))
			assert_memory_equal(b.q + n - 4, "...\"", 4);
	}
	/* never half an escape before the dots */
	config_quote("ab\xef\xbb\xbf\xef\xbb\xbf\xef\xbb\xbf", b.q, 16);
	assert_string_equal(b.q, "\"ab\\ufeff...\"");
}

static void help_shows_every_option_and_key_with_default_and_range(void **state)
{
	char *text = NULL, name[64];
	size_t len = 0;
	FILE *f;
	int k;

	(void)state;
	f = open_memstream(&text, &len);
	config_print_help(f);
	fclose(f);
	assert_non_null(strstr(text, "--half-period DURATION"));
	assert_non_null(strstr(text, "run.half_period; default 500us; a duration between 1us "
				     "and 10s (bare numbers are us)"));
	assert_non_null(strstr(text, "--quiet "));
	assert_non_null(strstr(text, "--log FILE"));
	assert_non_null(strstr(text, "one of gpiod, sim"));
	for (k = 0; k < CFG_NKEYS; k++) {
		config_key_name(k, name, sizeof(name));
		assert_non_null(strstr(text, name));
		if (config_table[k].opt) {
			char opt[64];

			snprintf(opt, sizeof(opt), "--%s", config_table[k].opt);
			assert_non_null(strstr(text, opt));
		}
	}
	free(text);
}

static void a_getter_of_the_wrong_type_is_a_programmer_error(void **state)
{
	struct config *c = *state;
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* Keep the expected assertion message out of the test output. */
		if (!freopen("/dev/null", "w", stderr))
			_exit(2);
		(void)config_bool(c, CFG_RUN_HALF_PERIOD);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

static void run_spin_takes_a_duration_or_auto(void **state)
{
	struct config *c = config_new();
	char err[256], buf[64];

	(void)state;
	assert_non_null(c);
	assert_int_equal(config_int(c, CFG_RUN_SPIN), 0);
	assert_int_equal(config_apply_option(c, "spin", "auto", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_int(c, CFG_RUN_SPIN), CFG_SPIN_AUTO);
	assert_string_equal(config_format(c, CFG_RUN_SPIN, buf, sizeof(buf)), "auto");
	assert_int_equal(config_apply_set(c, "run.spin=20us", err, sizeof(err)), CFG_OK);
	assert_int_equal(config_int(c, CFG_RUN_SPIN), 20000);
	assert_string_equal(config_format(c, CFG_RUN_SPIN, buf, sizeof(buf)), "20us");
	assert_int_equal(config_apply_set(c, "run.spin=fast", err, sizeof(err)), CFG_E_TYPE);
	assert_string_equal(err, "run.spin must be a duration between 0 and 1s (bare numbers are "
			    "us), or auto, got \"fast\"");
	assert_int_equal(config_apply_set(c, "run.spin=2s", err, sizeof(err)), CFG_E_RANGE);
	assert_int_equal(config_int(c, CFG_RUN_SPIN), 20000);
	config_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_table_lists_the_keys_in_enum_order),
		cmocka_unit_test_setup_teardown(high_and_low_resolve_into_the_wave_and_its_mean_half_period,
						setup, teardown),
		cmocka_unit_test_setup_teardown(contradictory_wave_keys_are_refused_naming_their_origins,
						setup, teardown),
		cmocka_unit_test(every_row_is_complete_and_sections_are_adjacent),
		cmocka_unit_test(unknown_keys_are_not_found),
		cmocka_unit_test(run_spin_takes_a_duration_or_auto),
		cmocka_unit_test_setup_teardown(a_new_config_holds_every_default, setup, teardown),
		cmocka_unit_test_setup_teardown(a_bare_number_is_read_in_the_keys_unit, setup, teardown),
		cmocka_unit_test_setup_teardown(a_bad_duration_names_the_key_and_the_range, setup, teardown),
		cmocka_unit_test_setup_teardown(a_bad_integer_names_the_key_and_the_range, setup, teardown),
		cmocka_unit_test_setup_teardown(bools_accept_the_usual_spellings, setup, teardown),
		cmocka_unit_test_setup_teardown(an_enum_lists_its_choices, setup, teardown),
		cmocka_unit_test_setup_teardown(enum_indexes_match_the_gpio_enums, setup, teardown),
		cmocka_unit_test_setup_teardown(a_string_is_one_line_and_text_may_span_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(control_characters_never_get_into_a_value, setup, teardown),
		cmocka_unit_test_setup_teardown(the_longest_values_still_fit_the_log_header, setup, teardown),
		cmocka_unit_test_setup_teardown(a_key_in_the_wrong_kind_of_file_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(a_lower_source_never_overrides_a_higher_one, setup, teardown),
		cmocka_unit_test_setup_teardown(a_value_that_does_not_apply_is_still_checked, setup, teardown),
		cmocka_unit_test_setup_teardown(the_origin_names_file_and_line, setup, teardown),
		cmocka_unit_test_setup_teardown(every_value_formats_to_text_that_sets_it_again, setup, teardown),
		cmocka_unit_test_setup_teardown(the_dump_is_one_escaped_line_per_key, setup, teardown),
		cmocka_unit_test_setup_teardown(required_board_keys_are_checked_after_all_sources, setup, teardown),
		cmocka_unit_test_setup_teardown(contradictory_limits_are_an_error_naming_both_origins, setup, teardown),
		cmocka_unit_test_setup_teardown(take_moves_checked_values_and_keeps_precedence_and_origin, setup, teardown),
		cmocka_unit_test(long_options_map_back_to_their_keys),
		cmocka_unit_test_setup_teardown(getopt_long_and_the_table_parse_a_command_line, setup, teardown),
		cmocka_unit_test_setup_teardown(a_value_option_without_a_value_is_an_error, setup, teardown),
		cmocka_unit_test_setup_teardown(set_suggests_the_closest_key_for_a_typo, setup, teardown),
		cmocka_unit_test(help_shows_every_option_and_key_with_default_and_range),
		cmocka_unit_test(a_quoted_value_too_long_for_its_buffer_is_cut_inside_it),
		cmocka_unit_test_setup_teardown(a_getter_of_the_wrong_type_is_a_programmer_error, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
