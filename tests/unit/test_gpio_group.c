/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for line groups (gpio_group_*) on the simulated chip: one call
 * per write, masks, levels, refusals; and the sim's write history under two
 * threads writing two single lines at once (per-CPU mode). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "gpio/gpio_out.h"
#include "gpio/gpio_sim.h"

/* ---- helpers ----------------------------------------------------------------- */

static char captured[GPIO_MSG_MAX];

#define assert_said(text) do { \
	if (!strstr(captured, (text))) \
		fail_msg("expected \"%s\" in: %s", (text), captured); \
} while (0)

static struct config *cfg;

static void setk(const char *assignment)
{
	char err[256];

	if (config_apply_set(cfg, assignment, err, sizeof(err)) != CFG_OK)
		fail_msg("%s: %s", assignment, err);
}

static struct gpio_out_spec sim_spec(void)
{
	struct gpio_out_spec s = {
		.backend = GPIO_BACKEND_SIM,
		.chip = "GPIOB",
		.consumer = "sqwave",
		.config = cfg,
	};
	return s;
}

static struct gpio_group *group_ok(const struct gpio_out_spec *s, const char *const *lines,
				   size_t n)
{
	char err[GPIO_MSG_MAX];
	struct gpio_group *g = gpio_group_open(s, lines, n, err, sizeof(err));

	if (!g)
		fail_msg("gpio_group_open failed: %s", err);
	return g;
}

/* Open expecting failure; returns errno, leaves the message in captured. */
static int group_fails(const struct gpio_out_spec *s, const char *const *lines, size_t n)
{
	struct gpio_group *g;
	int err;

	captured[0] = '\0';
	errno = 0;
	g = gpio_group_open(s, lines, n, captured, sizeof(captured));
	err = errno;
	if (g) {
		gpio_group_close(g);
		fail_msg("gpio_group_open succeeded: expected a failure");
	}
	return err;
}

static struct gpio_sim_line line_state(unsigned int offset)
{
	struct gpio_sim_line l;

	assert_int_equal(gpio_sim_line_get(offset, &l), 0);
	return l;
}

static struct gpio_sim_write write_no(uint64_t seq)
{
	struct gpio_sim_write w;

	if (gpio_sim_write_get(seq, &w))
		fail_msg("no write %llu", (unsigned long long)seq);
	return w;
}

static int64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int reset_sim(void **state)
{
	(void)state;
	gpio_sim_reset();
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

/* Lines 1, 2 (by name) and 3: bits 0, 1, 2. */
static const char *const three[] = { "1", "SIM2", "3" };

/* ---- opening ----------------------------------------------------------------- */

static void a_group_opens_every_line_at_its_idle_level_without_a_write(void **state)
{
	struct gpio_out_spec s = sim_spec();
	struct gpio_group *g;
	unsigned int i;

	(void)state;
	s.idle_level = 1;
	g = group_ok(&s, three, 3);
	assert_int_equal(gpio_group_count(g), 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(gpio_group_offset(g, i), i + 1);
		assert_true(line_state(i + 1).requested);
		assert_int_equal(line_state(i + 1).value, 1);
		assert_string_equal(line_state(i + 1).consumer, "sqwave");
	}
	assert_false(line_state(0).requested);
	assert_false(line_state(4).requested);
	assert_int_equal(gpio_sim_write_count(), 0);
	assert_string_equal(gpio_group_describe(g, 1),
			    "gpiochip0 [GPIOB] line 2 \"SIM2\" (simulated)");
	assert_string_equal(gpio_group_chip(g)->name, "gpiochip0");
	gpio_group_close(g);
}

static void a_description_says_active_low_drive_and_cost(void **state)
{
	struct gpio_out_spec s = sim_spec();
	struct gpio_group *g;

	(void)state;
	setk("sim.write_cost=1us");
	s.active_low = 1;
	s.drive = GPIO_DRIVE_OPEN_DRAIN;
	g = group_ok(&s, three, 3);
	assert_string_equal(gpio_group_describe(g, 2), "gpiochip0 [GPIOB] line 3 \"SIM3\", "
			    "active-low, open-drain (simulated, 1000 ns per write)");
	assert_int_equal(line_state(3).drive, GPIO_DRIVE_OPEN_DRAIN);
	gpio_group_close(g);
}

/* ---- writing ----------------------------------------------------------------- */

static void a_masked_set_writes_only_its_lines_in_one_call(void **state)
{
	struct gpio_out_spec s = sim_spec();
	struct gpio_sim_write a, b, c;
	struct gpio_group *g;

	(void)state;
	g = group_ok(&s, three, 3);

	/* lines 1 and 3 high; line 2 not in the mask, even though its level bit is */
	assert_int_equal(gpio_group_set(g, 0x5, 0x7), 0);
	assert_int_equal(line_state(1).value, 1);
	assert_int_equal(line_state(2).value, 0);
	assert_int_equal(line_state(3).value, 1);
	assert_int_equal(gpio_sim_write_count(), 2);
	a = write_no(0);
	b = write_no(1);
	assert_int_equal(a.offset, 1);
	assert_int_equal(b.offset, 3);
	assert_int_equal(a.level, 1);
	assert_int_equal(b.level, 1);
	assert_true(a.call == b.call);
	assert_true(a.t_ns == b.t_ns);

	/* line 2 alone: a call of its own; 1 and 3 keep their levels */
	assert_int_equal(gpio_group_set(g, 0x2, 0x2), 0);
	assert_int_equal(gpio_sim_write_count(), 3);
	c = write_no(2);
	assert_int_equal(c.offset, 2);
	assert_true(c.call != a.call);
	assert_int_equal(line_state(1).value, 1);
	assert_int_equal(line_state(2).value, 1);
	assert_int_equal(line_state(3).value, 1);

	/* all three low: three records, one call */
	assert_int_equal(gpio_group_set(g, 0x7, 0x0), 0);
	assert_int_equal(gpio_sim_write_count(), 6);
	a = write_no(3);
	b = write_no(4);
	c = write_no(5);
	assert_true(a.call == b.call && b.call == c.call);
	assert_true(a.call > write_no(2).call);
	assert_int_equal(a.offset + b.offset + c.offset, 6);
	assert_int_equal(a.level | b.level | c.level, 0);
	assert_int_equal(line_state(2).value, 0);

	/* an empty mask writes nothing */
	assert_int_equal(gpio_group_set(g, 0, 0x7), 0);
	assert_int_equal(gpio_sim_write_count(), 6);
	gpio_group_close(g);
}

static void active_low_inverts_every_line_of_the_group(void **state)
{
	struct gpio_out_spec s = sim_spec();
	struct gpio_group *g;

	(void)state;
	s.active_low = 1;
	g = group_ok(&s, three, 3);
	assert_int_equal(line_state(1).value, 1);  /* idle (inactive) = high */
	assert_int_equal(line_state(2).value, 1);
	assert_int_equal(line_state(3).value, 1);
	assert_int_equal(gpio_group_set(g, 0x3, 0x1), 0);
	assert_int_equal(line_state(1).value, 0);
	assert_int_equal(line_state(2).value, 1);
	assert_int_equal(write_no(0).level, 1);
	assert_int_equal(write_no(0).value, 0);
	assert_int_equal(write_no(1).level, 0);
	assert_int_equal(write_no(1).value, 1);
	gpio_group_close(g);
	assert_int_equal(line_state(1).value, 1);
}

static void close_restores_every_idle_level_in_one_call(void **state)
{
	struct gpio_out_spec s = sim_spec();
	struct gpio_sim_write w;
	struct gpio_group *g;
	uint64_t i, call;

	(void)state;
	s.idle_level = 1;
	g = group_ok(&s, three, 3);
	assert_int_equal(gpio_group_set(g, 0x7, 0x0), 0);
	call = write_no(0).call;
	assert_int_equal(gpio_group_close(g), 0);
	assert_int_equal(gpio_sim_write_count(), 6);
	for (i = 3; i < 6; i++) {
		w = write_no(i);
		assert_int_equal(w.level, 1);
		assert_true(w.call == call + 1);
		assert_int_equal(w.offset, i - 2);
	}
	for (i = 1; i <= 3; i++) {
		assert_false(line_state((unsigned int)i).requested);
		assert_int_equal(line_state((unsigned int)i).value, 1);
	}
	assert_int_equal(gpio_group_close(NULL), 0);
}

static void a_failed_group_write_returns_its_errno_and_records_nothing(void **state)
{
	struct gpio_out_spec s = sim_spec();
	struct gpio_group *g;

	(void)state;
	g = group_ok(&s, three, 3);
	gpio_sim_fail_next_write(EIO);
	errno = 0;
	assert_int_equal(gpio_group_set(g, 0x7, 0x7), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(gpio_sim_write_count(), 0);
	assert_int_equal(line_state(1).value, 0);
	gpio_group_close(g);
}

/*
 * The modelled write cost is the call's, not each line's: 8 lines cost one.
 * Counted, not timed: the 8 records are one call (the next write is the next
 * call) and one instant, at least the cost after the call began (a cost per
 * line would put them a cost apart), and the cost was spent once: the sim
 * spends it spinning until the clock has passed it, so this thread's own
 * CPU time for the call is at most one cost and a few clock reads, however
 * busy the machine (a preempted spin uses no CPU time); eight costs would be
 * eight times that on a quiet machine. How long the call took on the wall
 * clock is not asserted: a busy machine stretches it.
 */
static void a_group_write_costs_one_write(void **state)
{
	static const char *const eight[] = { "0", "1", "2", "3", "4", "5", "6", "7" };
	struct gpio_out_spec s = sim_spec();
	struct gpio_group *g;
	int64_t t0, cpu0, cpu;
	uint64_t i, call;

	(void)state;
	setk("sim.num_lines=16");
	setk("sim.write_cost=1ms");
	g = group_ok(&s, eight, 8);
	t0 = now_ns(CLOCK_MONOTONIC);
	cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	assert_int_equal(gpio_group_set(g, 0xff, 0xff), 0);
	cpu = now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	assert_true(now_ns(CLOCK_MONOTONIC) - t0 >= 1000000);
	assert_int_equal(gpio_sim_write_count(), 8);
	call = write_no(0).call;
	for (i = 0; i < 8; i++) {
		assert_true(write_no(i).call == call);
		assert_true(write_no(i).t_ns == write_no(0).t_ns);
	}
	assert_true(write_no(0).t_ns >= t0 + 1000000);	/* the level changed after the cost */
	if (cpu >= 2000000)
		fail_msg("a write of 8 lines spent %lld ns of CPU: the cost is per call (1 ms)",
			 (long long)cpu);
	assert_int_equal(gpio_group_set(g, 0xff, 0x00), 0);
	assert_int_equal(gpio_sim_write_count(), 16);
	for (i = 8; i < 16; i++)
		assert_true(write_no(i).call == call + 1);
	gpio_group_close(g);
}

static void a_group_of_32_lines_takes_every_bit(void **state)
{
	char names[GPIO_GROUP_MAX][8];
	const char *lines[GPIO_GROUP_MAX];
	struct gpio_out_spec s = sim_spec();
	struct gpio_group *g;
	unsigned int i;

	(void)state;
	setk("sim.num_lines=40");
	for (i = 0; i < GPIO_GROUP_MAX; i++) {
		snprintf(names[i], sizeof(names[i]), "%u", i + 4);
		lines[i] = names[i];
	}
	g = group_ok(&s, lines, GPIO_GROUP_MAX);
	assert_int_equal(gpio_group_set(g, UINT32_MAX, 0x80000001u), 0);
	assert_int_equal(gpio_sim_write_count(), GPIO_GROUP_MAX);
	assert_int_equal(line_state(4).value, 1);
	assert_int_equal(line_state(5).value, 0);
	assert_int_equal(line_state(35).value, 1);
	assert_true(write_no(0).call == write_no(31).call);
	gpio_group_close(g);
	assert_int_equal(gpio_sim_write_count(), 2 * GPIO_GROUP_MAX);
	assert_int_equal(line_state(35).value, 0);
}

/* ---- refusals ---------------------------------------------------------------- */

static void a_line_listed_twice_is_refused(void **state)
{
	static const char *const same[] = { "1", "2", "1" };
	static const char *const alias[] = { "2", "SIM2" };
	struct gpio_out_spec s = sim_spec();

	(void)state;
	assert_int_equal(group_fails(&s, same, 3), EEXIST);
	assert_string_equal(captured, "line 1 is listed twice");
	assert_int_equal(group_fails(&s, alias, 2), EEXIST);
	assert_string_equal(captured, "line SIM2 is listed twice: it is line 2 of gpiochip0 "
			    "[GPIOB], as 2 is");
	assert_false(line_state(1).requested);
	assert_false(line_state(2).requested);
}

static void a_busy_line_is_refused_by_its_name(void **state)
{
	static const char *const held[] = { "5", "6" };
	struct gpio_out_spec s = sim_spec();
	struct gpio_group *other;

	(void)state;
	setk("sim.busy_line=3");
	setk("sim.busy_consumer=GPIO Key Poweroff");
	assert_int_equal(group_fails(&s, three, 3), EBUSY);
	assert_string_equal(captured, "line 3 of gpiochip0 [GPIOB] is busy: used by "
			    "\"GPIO Key Poweroff\"");
	assert_false(line_state(1).requested);

	/* a line another group holds */
	other = group_ok(&s, held, 2);
	{
		static const char *const mine[] = { "4", "6" };

		assert_int_equal(group_fails(&s, mine, 2), EBUSY);
	}
	assert_said("line 6 of gpiochip0 [GPIOB] is busy");
	assert_said("is another sqwave running?");
	assert_false(line_state(4).requested);
	gpio_group_close(other);
}

static void a_line_that_is_not_there_is_named(void **state)
{
	static const char *const lines[] = { "1", "NOPE" };
	static const char *const far[] = { "1", "99" };
	struct gpio_out_spec s = sim_spec();

	(void)state;
	group_fails(&s, lines, 2);
	assert_said("NOPE");
	assert_int_equal(group_fails(&s, far, 2), EINVAL);
	assert_said("99");
	assert_false(line_state(1).requested);
}

static void a_group_has_1_to_32_lines(void **state)
{
	const char *lines[GPIO_GROUP_MAX + 1];
	struct gpio_out_spec s = sim_spec();
	size_t i;

	(void)state;
	for (i = 0; i <= GPIO_GROUP_MAX; i++)
		lines[i] = "1";
	assert_int_equal(group_fails(&s, lines, 0), EINVAL);
	assert_string_equal(captured, "a line group has 1 to 32 lines, not 0");
	assert_int_equal(group_fails(&s, lines, GPIO_GROUP_MAX + 1), EINVAL);
	assert_string_equal(captured, "a line group has 1 to 32 lines, not 33");
	assert_int_equal(group_fails(&s, NULL, 2), EINVAL);
	lines[1] = "";
	assert_int_equal(group_fails(&s, lines, 2), EINVAL);
	assert_said("line 2 of the group is not given");
	assert_false(line_state(1).requested);
}

static void a_refused_request_leaves_every_line_free(void **state)
{
	struct gpio_out_spec s = sim_spec();

	(void)state;
	gpio_sim_fail_next_request(EACCES);
	assert_int_equal(group_fails(&s, three, 3), EACCES);
	assert_said("permission denied: cannot request line 1 of gpiochip0 [GPIOB]");
	gpio_sim_fail_next_request(EIO);
	assert_int_equal(group_fails(&s, three, 3), EIO);
	assert_string_equal(captured, "cannot request lines 1, 2, 3 of gpiochip0 [GPIOB] "
			    "together as outputs: Input/output error");
	assert_false(line_state(1).requested);
	assert_false(line_state(3).requested);
}

/* ---- the history file -------------------------------------------------------- */

static void the_history_file_gives_a_groups_lines_one_call(void **state)
{
	static const char *const two[] = { "1", "2" };
	char path[128], set[200], line[256];
	struct gpio_out_spec s = sim_spec();
	struct gpio_group *g;
	FILE *f;
	int n = 0;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/sqwave-test-group-%ld.csv", (long)getpid());
	snprintf(set, sizeof(set), "sim.history_file=%s", path);
	setk(set);
	g = group_ok(&s, two, 2);
	assert_int_equal(gpio_group_set(g, 0x3, 0x3), 0);
	gpio_group_close(g);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "kind,t_ns,offset,level,value_or_reported,seqno_or_call,"
			    "event_ns,due_ns_or_call,note\n");
	while (fgets(line, sizeof(line), f)) {
		struct gpio_sim_write w;
		char want[128];

		if (!strncmp(line, "end,", 4))
			break;
		w = write_no((uint64_t)n);
		snprintf(want, sizeof(want), "write,%lld,%u,%d,%d,%d,,,\n", (long long)w.t_ns,
			 w.offset, w.level, w.value, n / 2);
		assert_string_equal(line, want);
		n++;
	}
	fclose(f);
	unlink(path);
	assert_int_equal(n, 4);
}

/* ---- per-CPU mode: single lines written from two threads ---------------------- */

#define RACE_WRITES 10000

struct racer {
	struct gpio_out *out;
	pthread_barrier_t *go;
	int failed;
};

static void *racer_main(void *arg)
{
	struct racer *r = arg;
	int i;

	pthread_barrier_wait(r->go);
	for (i = 0; i < RACE_WRITES; i++)
		if (gpio_out_set(r->out, !(i & 1)))
			r->failed++;
	return NULL;
}

/* Line 1 is active-low and line 2 not, so a record torn between the two
 * writers (one's offset, the other's value) breaks value == level ^ al. */
static void two_threads_writing_two_lines_lose_and_tear_no_write(void **state)
{
	struct gpio_out_spec s1 = sim_spec(), s2 = sim_spec();
	struct racer r[2];
	pthread_barrier_t go;
	pthread_t th[2];
	unsigned char *seen;
	int next[2] = { 1, 1 }, k;
	uint64_t i, n;

	(void)state;
	s1.line = "1";
	s1.active_low = 1;
	s2.line = "2";
	r[0].out = gpio_out_open(&s1, captured, sizeof(captured));
	r[1].out = gpio_out_open(&s2, captured, sizeof(captured));
	assert_non_null(r[0].out);
	assert_non_null(r[1].out);
	pthread_barrier_init(&go, NULL, 2);
	for (k = 0; k < 2; k++) {
		r[k].go = &go;
		r[k].failed = 0;
		assert_int_equal(pthread_create(&th[k], NULL, racer_main, &r[k]), 0);
	}
	for (k = 0; k < 2; k++)
		pthread_join(th[k], NULL);
	pthread_barrier_destroy(&go);
	assert_int_equal(r[0].failed + r[1].failed, 0);

	n = gpio_sim_write_count();
	assert_int_equal(n, 2 * RACE_WRITES);
	seen = calloc(n, 1);
	assert_non_null(seen);
	for (i = 0; i < n; i++) {
		struct gpio_sim_write w = write_no(i);

		if (w.offset != 1 && w.offset != 2)
			fail_msg("write %llu: offset %u", (unsigned long long)i, w.offset);
		k = (int)w.offset - 1;
		/* each line alternates 1, 0, 1, ... in its own order */
		if (w.level != next[k] || w.value != (w.level ^ (k == 0)))
			fail_msg("write %llu on line %u: level %d value %d, expected level %d",
				 (unsigned long long)i, w.offset, w.level, w.value, next[k]);
		next[k] = !next[k];
		/* every call number once */
		if (w.call >= n || seen[w.call]++)
			fail_msg("write %llu: call %llu twice or out of range",
				 (unsigned long long)i, (unsigned long long)w.call);
	}
	free(seen);
	assert_int_equal(line_state(1).value, 1);  /* last level 0, active-low */
	assert_int_equal(line_state(2).value, 0);
	gpio_out_close(r[0].out);
	gpio_out_close(r[1].out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(a_group_opens_every_line_at_its_idle_level_without_a_write, reset_sim),
		cmocka_unit_test_setup(a_description_says_active_low_drive_and_cost, reset_sim),
		cmocka_unit_test_setup(a_masked_set_writes_only_its_lines_in_one_call, reset_sim),
		cmocka_unit_test_setup(active_low_inverts_every_line_of_the_group, reset_sim),
		cmocka_unit_test_setup(close_restores_every_idle_level_in_one_call, reset_sim),
		cmocka_unit_test_setup(a_failed_group_write_returns_its_errno_and_records_nothing, reset_sim),
		cmocka_unit_test_setup(a_group_write_costs_one_write, reset_sim),
		cmocka_unit_test_setup(a_group_of_32_lines_takes_every_bit, reset_sim),
		cmocka_unit_test_setup(a_line_listed_twice_is_refused, reset_sim),
		cmocka_unit_test_setup(a_busy_line_is_refused_by_its_name, reset_sim),
		cmocka_unit_test_setup(a_line_that_is_not_there_is_named, reset_sim),
		cmocka_unit_test_setup(a_group_has_1_to_32_lines, reset_sim),
		cmocka_unit_test_setup(a_refused_request_leaves_every_line_free, reset_sim),
		cmocka_unit_test_setup(the_history_file_gives_a_groups_lines_one_call, reset_sim),
		cmocka_unit_test_setup(two_threads_writing_two_lines_lose_and_tear_no_write, reset_sim),
	};

	return cmocka_run_group_tests(tests, NULL, free_cfg);
}
