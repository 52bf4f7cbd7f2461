/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the VCD of a run log: midpoints, the physical level of an
 * active-low line, failed writes and repeated levels change nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt/edge.h"
#include "log/edgelog.h"
#include "log/vcdout.h"

static char path[64];

#define START 1000000000ull

/* A log of edges at slots 1.., each written in a 2 us window from +10 us. */
static void write_log(const char *meta, const uint8_t *levels, const uint8_t *flags, size_t n)
{
	struct edgelog_meta m = { .clock_id = 1, .half_period_ns = 500000, .start_ns = START };
	struct edgelog_footer f = { 0 };
	struct edgelog_writer *w;
	size_t i;
	int fd;

	snprintf(path, sizeof(path), "/tmp/sqwave-vcd-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	m.text = (char *)meta;
	w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	assert_non_null(w);
	for (i = 0; i < n; i++) {
		struct edge_rec e = {
			.seq = i, .intended_ns = START + (i + 1) * 500000, .wake_off_ns = 8000,
			.write_begin_off_ns = 10000, .write_end_off_ns = 12000,
			.expirations = i == 0 ? 2 : 1,	/* slot 0 passed without an edge */
			.level = levels[i], .flags = flags ? flags[i] : 0,
		};
		assert_int_equal(edgelog_writer_append(w, &e, 1), 0);
	}
	assert_int_equal(edgelog_writer_close(w, &f, NULL, 0), 0);
}

static char *vcd_of_log(int64_t *changes)
{
	enum edgelog_status st;
	struct edgelog_reader *r;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	r = edgelog_reader_open(path, &st, err, sizeof(err));
	assert_non_null(r);
	*changes = vcdout_write_log(r, f, "x.sqwlog", err, sizeof(err));
	edgelog_reader_close(r);
	fclose(f);
	unlink(path);
	return buf;
}

static void each_edge_is_at_its_write_windows_middle(void **state)
{
	static const uint8_t lv[] = { 1, 0, 1, 0 };
	int64_t n;
	char *v;

	(void)state;
	write_log("gpio.active_low=false\ngpio.idle_level=0\n", lv, NULL, 4);
	v = vcd_of_log(&n);
	assert_int_equal(n, 4);
	assert_non_null(strstr(v, "$timescale 1ns $end"));
	assert_non_null(strstr(v, "$var wire 1 ! pin $end"));
	assert_non_null(strstr(v, "$dumpvars\n0!\n$end\n#511000\n1!\n#1011000\n0!\n#1511000\n1!\n"
			       "#2011000\n0!\n#2511000\n"));
	free(v);
}

static void an_active_low_line_is_written_at_its_physical_level(void **state)
{
	static const uint8_t lv[] = { 1, 0 };
	int64_t n;
	char *v;

	(void)state;
	write_log("gpio.active_low=true\ngpio.idle_level=0\n", lv, NULL, 2);
	v = vcd_of_log(&n);
	assert_non_null(strstr(v, "$dumpvars\n1!\n$end\n#511000\n0!\n#1011000\n1!\n"));
	free(v);
}

static void a_failed_write_and_a_repeated_level_change_nothing(void **state)
{
	static const uint8_t lv[] = { 1, 0, 0, 1 };
	static const uint8_t fl[] = { 0, EDGE_F_WRITE_ERR, 0, 0 };
	int64_t n;
	char *v;

	(void)state;
	write_log("gpio.idle_level=0\n", lv, fl, 4);
	v = vcd_of_log(&n);
	assert_int_equal(n, 3);
	assert_non_null(strstr(v, "#511000\n1!\n#1511000\n0!\n#2011000\n1!\n"));
	assert_null(strstr(v, "#1011000"));
	free(v);
}

/* A loopback log: the input as a second wire at its events' times, in time
 * order with the pin (edge 0's event comes just before edge 1's write); an
 * edge without an event leaves the input as it was. */
static void a_loopback_log_adds_the_input_at_its_event_times(void **state)
{
	static const uint8_t lv[] = { 1, 0, 1, 0 };
	/* edge 0 seen 495 us after its write began, edge 2 not at all */
	uint64_t pairs[] = { 0, START + 500000 + 10000 + 495000,
			     1, START + 1000000 + 10000 + 3000,
			     3, START + 2000000 + 10000 + 3000 };
	struct edgelog_meta m = { .clock_id = 1, .half_period_ns = 500000, .start_ns = START,
				  .text = (char *)"gpio.idle_level=0\nrun.loopback=true\n" };
	struct edgelog_footer f = { 0 };
	struct edgelog_writer *w;
	int64_t n;
	size_t i;
	char *v;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/sqwave-vcd-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	assert_non_null(w);
	for (i = 0; i < 4; i++) {
		struct edge_rec e = {
			.seq = i, .intended_ns = START + (i + 1) * 500000, .wake_off_ns = 8000,
			.write_begin_off_ns = 10000, .write_end_off_ns = 12000,
			.expirations = i == 0 ? 2 : 1, .level = lv[i],
		};
		assert_int_equal(edgelog_writer_append(w, &e, 1), 0);
	}
	assert_int_equal(edgelog_writer_append_event(w, pairs[1], EDGELOG_EV_LOOPBACK, pairs,
						     sizeof(pairs)), 0);
	assert_int_equal(edgelog_writer_close(w, &f, NULL, 0), 0);
	v = vcd_of_log(&n);
	assert_int_equal(n, 4);
	assert_non_null(strstr(v, "$var wire 1 ! pin $end\n$var wire 1 \" loopback $end\n"));
	assert_non_null(strstr(v, "$dumpvars\n0!\n0\"\n$end\n"
			       "#511000\n1!\n#1005000\n1\"\n#1011000\n0!\n#1013000\n0\"\n"
			       "#1511000\n1!\n#2011000\n0!\n#2511000\n"));
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_edge_is_at_its_write_windows_middle),
		cmocka_unit_test(an_active_low_line_is_written_at_its_physical_level),
		cmocka_unit_test(a_failed_write_and_a_repeated_level_change_nothing),
		cmocka_unit_test(a_loopback_log_adds_the_input_at_its_event_times),
	};

	return cmocka_run_group_tests_name("vcdout", tests, NULL, NULL);
}
