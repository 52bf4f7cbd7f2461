/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the GPIO output and input: every lookup and request failure
 * through the simulated chip, levels and history, the simulated loopback
 * wire, and what the libgpiod backend can show on a machine without chips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "gpio/gpio_in.h"
#include "gpio/gpio_out.h"
#include "gpio/gpio_private.h"
#include "gpio/gpio_sim.h"

/* ---- helpers ----------------------------------------------------------------- */

/* The message of the last failure. */
static char captured[GPIO_MSG_MAX];

#define assert_said(text) do { \
	if (!strstr(captured, (text))) \
		fail_msg("expected \"%s\" in: %s", (text), captured); \
} while (0)

/* The sim's own keys (sim.*) live in a configuration, as in a board file. */
static struct config *cfg;

static void setk(const char *assignment)
{
	char err[256];

	if (config_apply_set(cfg, assignment, err, sizeof(err)) != CFG_OK)
		fail_msg("%s: %s", assignment, err);
}

static struct gpio_out_spec sim_spec(const char *chip, const char *line)
{
	struct gpio_out_spec s = {
		.backend = GPIO_BACKEND_SIM,
		.chip = chip,
		.line = line,
		.consumer = "sqwave",
		.config = cfg,
	};
	return s;
}

static struct gpio_out *open_ok(const struct gpio_out_spec *s)
{
	char err[GPIO_MSG_MAX];
	struct gpio_out *g = gpio_out_open(s, err, sizeof(err));

	if (!g)
		fail_msg("gpio_out_open failed: %s", err);
	return g;
}

/* Open expecting failure; returns errno, leaves the message in captured. */
static int open_fails(const struct gpio_out_spec *s)
{
	struct gpio_out *g;
	int err;

	captured[0] = '\0';
	errno = 0;
	g = gpio_out_open(s, captured, sizeof(captured));
	err = errno;
	if (g) {
		gpio_out_close(g);
		fail_msg("gpio_out_open succeeded: expected a failure");
	}
	return err;
}

static struct gpio_sim_line line_state(unsigned int offset)
{
	struct gpio_sim_line l;

	assert_int_equal(gpio_sim_line_get(offset, &l), 0);
	return l;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int reset_sim(void **state)
{
	(void)state;
	gpio_sim_reset();
	gpio_dev_dir = "/dev";
	config_free(cfg);
	cfg = config_new();
	assert_non_null(cfg);
	setk("sim.chip_label=GPIOB");
	return 0;
}

static int free_cfg(void **state)
{
	(void)state;
	config_free(cfg);
	cfg = NULL;
	return 0;
}

/* ---- levels, history ---------------------------------------------------------- */

static void a_line_opens_at_its_idle_level_without_a_write(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "1");
	struct gpio_sim_line l;
	struct gpio_out *g;

	(void)state;
	s.idle_level = 1;
	g = open_ok(&s);
	assert_non_null(g);
	l = line_state(1);
	assert_true(l.requested);
	assert_int_equal(l.value, 1);
	assert_string_equal(l.consumer, "sqwave");
	assert_int_equal(gpio_sim_write_count(), 0);
	gpio_out_close(g);
}

static void the_idle_level_is_restored_on_close(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "1");
	struct gpio_sim_write w;
	struct gpio_sim_line l;
	struct gpio_out *g;

	(void)state;
	g = open_ok(&s);
	assert_non_null(g);
	assert_int_equal(gpio_out_set(g, 1), 0);
	assert_int_equal(line_state(1).value, 1);
	gpio_out_close(g);

	l = line_state(1);
	assert_false(l.requested);
	assert_int_equal(l.value, 0);
	assert_string_equal(l.consumer, "");
	assert_int_equal(gpio_sim_write_count(), 2);
	assert_int_equal(gpio_sim_write_get(1, &w), 0);
	assert_int_equal(w.level, 0);
}

static void active_low_inverts_the_physical_level(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "2");
	struct gpio_sim_write w;
	struct gpio_out *g;

	(void)state;
	s.active_low = 1;
	s.idle_level = 0;
	g = open_ok(&s);
	assert_non_null(g);
	assert_true(line_state(2).active_low);
	assert_int_equal(line_state(2).value, 1); /* idle (inactive) = high */

	assert_int_equal(gpio_out_set(g, 1), 0);
	assert_int_equal(line_state(2).value, 0);
	assert_int_equal(gpio_sim_write_get(0, &w), 0);
	assert_int_equal(w.level, 1);
	assert_int_equal(w.value, 0);

	gpio_out_close(g);
	assert_int_equal(line_state(2).value, 1);
}

static void the_history_records_each_write_in_order(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "3");
	struct gpio_sim_write w;
	int64_t before, last = 0;
	struct gpio_out *g;
	uint64_t i;

	(void)state;
	g = open_ok(&s);
	assert_non_null(g);
	before = now_ns();
	for (i = 0; i < 100; i++)
		assert_int_equal(gpio_out_set(g, (int)(i & 1) ? 0 : 1), 0);
	assert_int_equal(gpio_sim_write_count(), 100);
	for (i = 0; i < 100; i++) {
		assert_int_equal(gpio_sim_write_get(i, &w), 0);
		assert_int_equal(w.offset, 3);
		assert_int_equal(w.level, (i & 1) ? 0 : 1);
		assert_int_equal(w.value, w.level);
		assert_true(w.t_ns >= before);
		assert_true(w.t_ns >= last);
		last = w.t_ns;
	}
	assert_int_equal(gpio_sim_write_get(100, &w), -1);
	assert_int_equal(errno, ENOENT);
	gpio_out_close(g);
}

static void the_history_wraps_but_keeps_counting(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "0");
	uint64_t i, n = GPIO_SIM_HISTORY + 10;
	struct gpio_sim_write w;
	struct gpio_out *g;

	(void)state;
	g = open_ok(&s);
	assert_non_null(g);
	for (i = 0; i < n; i++)
		assert_int_equal(gpio_out_set(g, (int)(i & 1)), 0);
	assert_int_equal(gpio_sim_write_count(), n);
	assert_int_equal(gpio_sim_write_get(9, &w), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(gpio_sim_write_get(10, &w), 0);
	assert_int_equal(w.level, 0);
	assert_int_equal(gpio_sim_write_get(n - 1, &w), 0);
	assert_int_equal(w.level, (int)((n - 1) & 1));
	gpio_out_close(g);
}

/* The history file's rows of one kind, counted; its end row's fields. */
static int history_rows(const char *path, const char *kind, char *end, size_t endlen)
{
	char line[256];
	size_t k = strlen(kind);
	FILE *f = fopen(path, "r");
	int n = 0;

	assert_non_null(f);
	end[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, kind, k) && line[k] == ',')
			n++;
		if (!strncmp(line, "end,", 4))
			snprintf(end, endlen, "%s", line);
	}
	fclose(f);
	return n;
}

static void a_history_file_keeps_more_writes_than_the_memory_does(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "0");
	char path[128], set[200], end[256], line[256];
	struct timespec ms = { 0, 1000000 };
	uint64_t i, n = 2 * GPIO_SIM_HISTORY + 10;
	struct gpio_out *g;
	FILE *f;
	int j, level = 0;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/sqwave-test-out-%ld.csv", (long)getpid());
	snprintf(set, sizeof(set), "sim.history_file=%s", path);
	setk(set);
	g = open_ok(&s);
	/* In steps the writer thread can keep up with (the test waits for it,
	 * however long it takes): more writes than the memory keeps, all in
	 * the file. */
	for (i = 0; i < n; i++) {
		assert_int_equal(gpio_out_set(g, (int)(i & 1) ? 0 : 1), 0);
		if (i % 20000 == 19999)
			for (j = 0; j < 20000 && gpio_sim_history_pending(); j++)
				nanosleep(&ms, NULL);
	}
	assert_true(gpio_sim_write_count() > GPIO_SIM_HISTORY);
	gpio_out_close(g);
	assert_int_equal(gpio_sim_history_error(captured, sizeof(captured)), 0);
	assert_int_equal(history_rows(path, "write", end, sizeof(end)), (int)n + 1);
	assert_int_equal(history_rows(path, "gap", end, sizeof(end)), 0);
	assert_non_null(strstr(end, ",1,"));
	assert_non_null(strstr(end, "complete\n"));
	/* every write in order: levels alternating, then the idle level */
	f = fopen(path, "r");
	assert_non_null(f);
	i = 0;
	while (fgets(line, sizeof(line), f)) {
		long long t;
		unsigned int off;
		int lv, v;
		unsigned long long call;

		if (strncmp(line, "write,", 6))
			continue;
		assert_int_equal(sscanf(line, "write,%lld,%u,%d,%d,%llu", &t, &off, &lv, &v, &call),
				 5);
		assert_int_equal(call, i);
		assert_int_equal(lv, i < n ? !level : 0);
		level = lv;
		i++;
	}
	fclose(f);
	assert_int_equal(i, n + 1);
	unlink(path);
}

static void a_history_writer_that_falls_behind_says_the_file_is_incomplete(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "0");
	char path[128], set[200], end[256], line[256];
	uint64_t i, n = GPIO_SIM_HISTORY + 10, lost = 0;
	struct gpio_out *g;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/sqwave-test-out-%ld.csv", (long)getpid());
	snprintf(set, sizeof(set), "sim.history_file=%s", path);
	setk(set);
	gpio_sim_history_hold(true);
	g = open_ok(&s);
	for (i = 0; i < n; i++)
		assert_int_equal(gpio_out_set(g, (int)(i & 1)), 0);
	assert_int_equal(gpio_sim_history_pending(), n);
	gpio_out_close(g);                   /* one more write: the idle level */
	gpio_sim_history_hold(false);
	assert_int_equal(gpio_sim_history_error(captured, sizeof(captured)), -1);
	assert_said("is incomplete: 11 writes, 0 stimulus changes, 0 wire events and 0 "
		    "dropped events were overwritten before its writer thread got them");
	assert_int_equal(history_rows(path, "write", end, sizeof(end)), GPIO_SIM_HISTORY);
	assert_non_null(strstr(end, ",0,"));
	assert_non_null(strstr(end, "incomplete\n"));
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long k;

		if (sscanf(line, "gap,%*d,,,,%llu,,,write", &k) == 1)
			lost += k;
	}
	fclose(f);
	assert_int_equal(lost, 11);
	unlink(path);
}

static void a_write_costs_the_configured_time(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "0");
	struct gpio_sim_write w;
	struct gpio_out *g;
	int64_t t0, t1;

	(void)state;
	setk("sim.write_cost=200us");
	g = open_ok(&s);
	assert_non_null(g);
	t0 = now_ns();
	assert_int_equal(gpio_out_set(g, 1), 0);
	t1 = now_ns();
	assert_true(t1 - t0 >= 200000);
	assert_int_equal(gpio_sim_write_get(0, &w), 0);
	assert_true(w.t_ns - t0 >= 200000); /* the level changes after the cost */
	assert_non_null(strstr(gpio_out_describe(g), "200000 ns per write"));
	gpio_out_close(g);
}

static void a_failed_write_returns_its_errno(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "0");
	struct gpio_out *g;

	(void)state;
	g = open_ok(&s);
	assert_non_null(g);
	gpio_sim_fail_next_write(EIO);
	errno = 0;
	assert_int_equal(gpio_out_set(g, 1), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(line_state(0).value, 0);
	assert_int_equal(gpio_sim_write_count(), 0);
	assert_int_equal(gpio_out_set(g, 1), 0);
	gpio_out_close(g);
}

static void a_close_that_cannot_restore_idle_says_so_and_still_releases(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "0");
	struct gpio_out *g;

	(void)state;
	g = open_ok(&s);
	assert_non_null(g);
	gpio_sim_fail_next_write(EIO);
	errno = 0;
	assert_int_equal(gpio_out_close(g), -1);
	assert_int_equal(errno, EIO);
	assert_false(line_state(0).requested);
}

static void closing_null_does_nothing(void **state)
{
	(void)state;
	gpio_out_close(NULL);
}

/* ---- chip lookup --------------------------------------------------------------- */

static void a_chip_is_found_by_label_name_number_path_or_alias(void **state)
{
	static const char *const chips[] = {
		"GPIOB", "gpiochip0", "0", "/dev/gpiochip0", "sim", "",
	};
	struct gpio_out *g;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(chips) / sizeof(chips[0]); i++) {
		struct gpio_out_spec s = sim_spec(chips[i], "1");

		g = open_ok(&s);
		if (!g)
			fail_msg("chip \"%s\" was not found", chips[i]);
		gpio_out_close(g);
	}
}

static void a_missing_chip_lists_the_chips_there_are(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOZ", "1");

	(void)state;
	assert_int_equal(open_fails(&s), ENODEV);
	assert_said("GPIO chip \"GPIOZ\" not found: chips present: gpiochip0 [GPIOB]");
}

static void a_missing_chip_path_says_it_does_not_exist(void **state)
{
	struct gpio_out_spec s = sim_spec("/dev/gpiochip7", "1");

	(void)state;
	assert_int_equal(open_fails(&s), ENOENT);
	assert_said("GPIO chip \"/dev/gpiochip7\" does not exist: chips present: "
		    "gpiochip0 [GPIOB]");
}

static void a_chip_we_may_not_open_says_how_to_fix_it(void **state)
{
	struct gpio_out_spec s = sim_spec("/dev/gpiochip0", "1");

	(void)state;
	gpio_sim_fail_next_open(EACCES);
	assert_int_equal(open_fails(&s), EACCES);
	assert_said("permission denied: cannot open GPIO chip /dev/gpiochip0 (Permission denied)");
	assert_said("run sqwave as root");
	assert_said("\"gpio\"");
	assert_said("udev rule");
}

static void a_label_hidden_by_permissions_is_explained(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "1");

	(void)state;
	gpio_sim_fail_next_open(EACCES);
	assert_int_equal(open_fails(&s), EACCES);
	/* The headline is the permission problem, not "not found". */
	if (strncmp(captured, "permission denied: GPIO chip \"GPIOB\" may be one of the 1 chip "
		    "this user may not open", 70) != 0)
		fail_msg("headline: %s", captured);
	assert_null(strstr(captured, "not found"));
	assert_said("gpiochip0 [cannot open: Permission denied]");
	assert_said("udev rule");
}

/* ---- line lookup --------------------------------------------------------------- */

static void a_line_is_found_by_name(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "SIM2");
	struct gpio_out *g;

	(void)state;
	g = open_ok(&s);
	assert_non_null(g);
	assert_true(line_state(2).requested);
	assert_string_equal(gpio_out_describe(g),
			    "gpiochip0 [GPIOB] line 2 \"SIM2\" (simulated)");
	gpio_out_close(g);
}

static void an_ambiguous_line_name_names_every_match(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", GPIO_SIM_DUP_NAME);

	(void)state;
	assert_int_equal(open_fails(&s), EINVAL);
	assert_said("line name \"SIMDUP\" is ambiguous: gpiochip0 [GPIOB] has 2 "
		    "lines of that name (offsets 6, 7)");
	assert_false(line_state(6).requested);
	assert_false(line_state(7).requested);
}

static void an_unknown_line_name_lists_the_names_there_are(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "PB1");

	(void)state;
	assert_int_equal(open_fails(&s), ENOENT);
	assert_said("no line named \"PB1\" on gpiochip0 [GPIOB]; its line names: "
		    "SIM0, SIM1, SIM2");
}

static void an_offset_beyond_the_chip_names_its_line_count(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "8");

	(void)state;
	assert_int_equal(open_fails(&s), EINVAL);
	assert_said("line 8 is out of range: gpiochip0 [GPIOB] has 8 lines "
		    "(offsets 0..7)");
}

static void a_huge_offset_is_out_of_range_not_wrapped(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "18446744073709551617");

	(void)state;
	assert_int_equal(open_fails(&s), EINVAL);
	assert_said("is out of range");
}

static void a_missing_line_is_asked_for(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", NULL);

	(void)state;
	assert_int_equal(open_fails(&s), EINVAL);
	assert_said("no GPIO line given");
}

/* ---- busy lines and request failures -------------------------------------------- */

static void a_busy_line_names_its_consumer(void **state)
{
	struct gpio_out_spec s = sim_spec("9030000.pl061", "3");

	(void)state;
	setk("sim.chip_label=9030000.pl061");
	setk("sim.busy_line=3");
	setk("sim.busy_consumer=GPIO Key Poweroff");
	assert_int_equal(open_fails(&s), EBUSY);
	assert_said("line 3 of gpiochip0 [9030000.pl061] is busy: used by "
		    "\"GPIO Key Poweroff\"");
}

static void a_busy_line_without_a_consumer_name_says_so(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "SIM3");

	(void)state;
	setk("sim.busy_line=3");
	setk("sim.busy_consumer=");
	assert_int_equal(open_fails(&s), EBUSY);
	assert_said("line 3 of gpiochip0 [GPIOB] is busy: used by the kernel or "
		    "another process (no consumer name)");
}

static void the_lines_next_to_a_busy_one_are_free(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "4");
	struct gpio_out *g;

	(void)state;
	setk("sim.busy_line=3");
	setk("sim.busy_consumer=led");
	g = open_ok(&s);
	assert_non_null(g);
	gpio_out_close(g);
}

static void a_line_we_already_hold_is_busy(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "5");
	struct gpio_out *g;

	(void)state;
	g = open_ok(&s);
	assert_non_null(g);
	assert_int_equal(open_fails(&s), EBUSY);
	assert_said("line 5 of gpiochip0 [GPIOB] is busy: used by \"sqwave\" "
		    "(is another sqwave running?)");
	gpio_out_close(g);
	g = open_ok(&s);
	assert_non_null(g);
	gpio_out_close(g);
}

static void a_line_taken_during_the_request_is_reported_busy(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "1");

	(void)state;
	gpio_sim_fail_next_request(EBUSY);
	assert_int_equal(open_fails(&s), EBUSY);
	assert_said("line 1 of gpiochip0 [GPIOB] is busy");
}

static void a_request_we_may_not_make_says_how_to_fix_it(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "1");

	(void)state;
	gpio_sim_fail_next_request(EPERM);
	assert_int_equal(open_fails(&s), EPERM);
	assert_said("permission denied: cannot request line 1 of gpiochip0 [GPIOB] "
		    "(Operation not permitted); run sqwave as root");
}

static void a_refused_drive_mode_is_named(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "1");

	(void)state;
	s.drive = GPIO_DRIVE_OPEN_SOURCE;
	gpio_sim_fail_next_request(EINVAL);
	assert_int_equal(open_fails(&s), EINVAL);
	assert_said("as an open-source output");
	assert_said("does the driver support open-source?");
}

static void drive_and_active_low_reach_the_line_and_the_description(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "1");
	struct gpio_out *g;

	(void)state;
	s.drive = GPIO_DRIVE_OPEN_DRAIN;
	s.active_low = 1;
	g = open_ok(&s);
	assert_non_null(g);
	assert_int_equal(line_state(1).drive, GPIO_DRIVE_OPEN_DRAIN);
	assert_string_equal(gpio_out_describe(g), "gpiochip0 [GPIOB] line 1 "
			    "\"SIM1\", active-low, open-drain (simulated)");
	gpio_out_close(g);
}

static void an_impossible_sim_chip_is_rejected(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "0");

	(void)state;
	/* every size the config table allows (1..1024) is a chip the sim makes */
	setk("sim.num_lines=1024");
	gpio_out_close(open_ok(&s));

	assert_int_equal(reset_sim(NULL), 0);
	s = sim_spec("GPIOB", "0");
	setk("sim.busy_line=8");
	assert_int_equal(open_fails(&s), EINVAL);
	assert_said("sim.busy_line is 8: -1 (none) or an offset 0..7");

	assert_int_equal(reset_sim(NULL), 0);
	s = sim_spec("GPIOB", "0");
	setk("sim.wire_line=8");
	assert_int_equal(open_fails(&s), EINVAL);
	assert_said("sim.wire_line is 8");
}

static void a_small_sim_chip_has_no_duplicate_names(void **state)
{
	struct gpio_out_spec s = sim_spec("GPIOB", "SIM2");
	struct gpio_out *g;

	(void)state;
	setk("sim.num_lines=3");
	g = open_ok(&s);
	assert_non_null(g);
	gpio_out_close(g);
}

/* ---- the libgpiod backend on a machine without GPIO chips ------------------------ */

static char tmpdir[64];

static int make_fake_dev(void **state)
{
	char path[128];
	int fd;

	(void)state;
	gpio_sim_reset();
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/sqwave-gpio-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	/* Files named like chips that are not chips, and one that is unrelated. */
	snprintf(path, sizeof(path), "%s/gpiochip0", tmpdir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	if (fd < 0)
		return -1;
	close(fd);
	snprintf(path, sizeof(path), "%s/gpiochip12", tmpdir);
	if (symlink("/dev/null", path))
		return -1;
	snprintf(path, sizeof(path), "%s/gpiochipx", tmpdir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	if (fd < 0)
		return -1;
	close(fd);
	gpio_dev_dir = tmpdir;
	return 0;
}

static int remove_fake_dev(void **state)
{
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/gpiochip0", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/gpiochip12", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/gpiochipx", tmpdir);
	unlink(path);
	rmdir(tmpdir);
	gpio_dev_dir = "/dev";
	return 0;
}

static struct gpio_out_spec gpiod_spec(const char *chip, const char *line)
{
	struct gpio_out_spec s = sim_spec(chip, line);

	s.backend = GPIO_BACKEND_GPIOD;
	return s;
}

#ifdef SQW_GPIOD_NONE

static void the_gpiod_backend_says_it_was_not_built(void **state)
{
	struct gpio_out_spec s = gpiod_spec("GPIOB", "1");

	(void)state;
	assert_int_equal(open_fails(&s), ENOTSUP);
	assert_said("this sqwave was built without libgpiod");
	assert_string_equal(gpio_out_gpiod_api(), "none");
}

#else

static void without_chips_the_gpiod_backend_asks_about_the_kernel(void **state)
{
	struct gpio_out_spec s = gpiod_spec("GPIOB", "1");

	(void)state;
	assert_int_equal(open_fails(&s), ENODEV);
	assert_said("GPIO chip \"GPIOB\" not found: no GPIO chips found (is the "
		    "GPIO character device enabled in this kernel?)");
}

static void a_file_that_is_not_a_chip_is_named(void **state)
{
	struct gpio_out_spec s;
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/gpiochip0", tmpdir);
	s = gpiod_spec(path, "1");
	assert_int_equal(open_fails(&s), ENOTTY);
	assert_said("is not a GPIO chip");

	snprintf(path, sizeof(path), "%s/gpiochip12", tmpdir);
	s = gpiod_spec(path, "1");
	open_fails(&s);
	assert_said("is not a GPIO chip");
}

static void a_missing_gpiod_chip_path_says_it_does_not_exist(void **state)
{
	struct gpio_out_spec s;
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/gpiochip3", tmpdir);
	s = gpiod_spec(path, "1");
	assert_int_equal(open_fails(&s), ENOENT);
	assert_said("does not exist: no GPIO chips found");
}

static void the_gpiod_api_names_the_build(void **state)
{
	(void)state;
#ifdef SQW_GPIOD_v1
	assert_string_equal(gpio_out_gpiod_api(), "libgpiod-v1");
#else
	assert_string_equal(gpio_out_gpiod_api(), "libgpiod-v2");
#endif
}

#endif

int main(void)
{
	const struct CMUnitTest sim_tests[] = {
		cmocka_unit_test_setup(a_line_opens_at_its_idle_level_without_a_write, reset_sim),
		cmocka_unit_test_setup(the_idle_level_is_restored_on_close, reset_sim),
		cmocka_unit_test_setup(active_low_inverts_the_physical_level, reset_sim),
		cmocka_unit_test_setup(the_history_records_each_write_in_order, reset_sim),
		cmocka_unit_test_setup(the_history_wraps_but_keeps_counting, reset_sim),
		cmocka_unit_test_setup(a_history_file_keeps_more_writes_than_the_memory_does, reset_sim),
		cmocka_unit_test_setup(a_history_writer_that_falls_behind_says_the_file_is_incomplete, reset_sim),
		cmocka_unit_test_setup(a_write_costs_the_configured_time, reset_sim),
		cmocka_unit_test_setup(a_failed_write_returns_its_errno, reset_sim),
		cmocka_unit_test_setup(a_close_that_cannot_restore_idle_says_so_and_still_releases, reset_sim),
		cmocka_unit_test(closing_null_does_nothing),
		cmocka_unit_test_setup(a_chip_is_found_by_label_name_number_path_or_alias, reset_sim),
		cmocka_unit_test_setup(a_missing_chip_lists_the_chips_there_are, reset_sim),
		cmocka_unit_test_setup(a_missing_chip_path_says_it_does_not_exist, reset_sim),
		cmocka_unit_test_setup(a_chip_we_may_not_open_says_how_to_fix_it, reset_sim),
		cmocka_unit_test_setup(a_label_hidden_by_permissions_is_explained, reset_sim),
		cmocka_unit_test_setup(a_line_is_found_by_name, reset_sim),
		cmocka_unit_test_setup(an_ambiguous_line_name_names_every_match, reset_sim),
		cmocka_unit_test_setup(an_unknown_line_name_lists_the_names_there_are, reset_sim),
		cmocka_unit_test_setup(an_offset_beyond_the_chip_names_its_line_count, reset_sim),
		cmocka_unit_test_setup(a_huge_offset_is_out_of_range_not_wrapped, reset_sim),
		cmocka_unit_test_setup(a_missing_line_is_asked_for, reset_sim),
		cmocka_unit_test_setup(a_busy_line_names_its_consumer, reset_sim),
		cmocka_unit_test_setup(a_busy_line_without_a_consumer_name_says_so, reset_sim),
		cmocka_unit_test_setup(the_lines_next_to_a_busy_one_are_free, reset_sim),
		cmocka_unit_test_setup(a_line_we_already_hold_is_busy, reset_sim),
		cmocka_unit_test_setup(a_line_taken_during_the_request_is_reported_busy, reset_sim),
		cmocka_unit_test_setup(a_request_we_may_not_make_says_how_to_fix_it, reset_sim),
		cmocka_unit_test_setup(a_refused_drive_mode_is_named, reset_sim),
		cmocka_unit_test_setup(drive_and_active_low_reach_the_line_and_the_description, reset_sim),
		cmocka_unit_test_setup(an_impossible_sim_chip_is_rejected, reset_sim),
		cmocka_unit_test_setup(a_small_sim_chip_has_no_duplicate_names, reset_sim),
	};
	const struct CMUnitTest gpiod_tests[] = {
#ifdef SQW_GPIOD_NONE
		cmocka_unit_test(the_gpiod_backend_says_it_was_not_built),
#else
		cmocka_unit_test(without_chips_the_gpiod_backend_asks_about_the_kernel),
		cmocka_unit_test(a_file_that_is_not_a_chip_is_named),
		cmocka_unit_test(a_missing_gpiod_chip_path_says_it_does_not_exist),
		cmocka_unit_test(the_gpiod_api_names_the_build),
#endif
	};
	int failed;

	failed = cmocka_run_group_tests_name("gpio_out (simulated chip)", sim_tests,
					     NULL, free_cfg);
	failed += cmocka_run_group_tests_name("gpio_out (libgpiod, no chips)",
					      gpiod_tests, make_fake_dev,
					      remove_fake_dev);
	return failed ? 1 : 0;
}
