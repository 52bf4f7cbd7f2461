/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the VCD of a run log: midpoints, the physical level of an
 * active-low line, failed writes and repeated levels change nothing; the CSV
 * and the VCD of several logs merged in time order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/outfile.h"
#include "rt/edge.h"
#include "log/edgelist.h"
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

/* ---- several logs ---- */

/* A log at @file: @n edges from slot 1 of a 500 us grid that starts at
 * @start, each written in a 2 us window from +@woff ns. */
static void write_log_at(const char *file, const char *meta, uint64_t start, uint64_t woff,
			 const uint8_t *levels, size_t n)
{
	struct edgelog_meta m = { .clock_id = 1, .half_period_ns = 500000, .start_ns = start,
				  .text = (char *)meta };
	struct edgelog_footer f = { 0 };
	struct edgelog_writer *w;
	size_t i;

	unlink(file);
	w = edgelog_writer_create(file, &m, NULL, 0, NULL, 0);
	assert_non_null(w);
	for (i = 0; i < n; i++) {
		struct edge_rec e = {
			.seq = i, .intended_ns = start + (i + 1) * 500000, .wake_off_ns = woff - 2000,
			.write_begin_off_ns = woff, .write_end_off_ns = woff + 2000,
			.expirations = i == 0 ? 2 : 1, .level = levels[i],
		};
		assert_int_equal(edgelog_writer_append(w, &e, 1), 0);
	}
	assert_int_equal(edgelog_writer_close(w, &f, NULL, 0), 0);
}

static char paths[3][64];

static int logs_setup(void **state)
{
	int i, fd;

	(void)state;
	for (i = 0; i < 3; i++) {
		snprintf(paths[i], sizeof(paths[i]), "/tmp/sqwave-vcdm-XXXXXX");
		fd = mkstemp(paths[i]);
		assert_true(fd >= 0);
		close(fd);
	}
	return 0;
}

static int logs_teardown(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < 3; i++)
		unlink(paths[i]);
	return 0;
}

static void logs_open(struct vcdout_log *logs, size_t n)
{
	enum edgelog_status st;
	char err[256];
	size_t i;

	memset(logs, 0, n * sizeof(*logs));
	for (i = 0; i < n; i++) {
		logs[i].path = paths[i];
		logs[i].r = edgelog_reader_open(paths[i], &st, err, sizeof(err));
		assert_non_null(logs[i].r);
	}
	assert_int_equal(vcdout_line_names(logs, n, err, sizeof(err)), 0);
}

static void logs_close(struct vcdout_log *logs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		edgelog_reader_close(logs[i].r);
}

/* The merged CSV of @n logs (paths[]), as text; *@rows its row count. */
static char *csv_of_logs(size_t n, bool line_column, int64_t *rows)
{
	struct vcdout_log logs[3];
	struct outfile_buf *o = malloc(sizeof(*o));
	char err[256], *buf = NULL;
	size_t len = 0, bad;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(o);
	logs_open(logs, n);
	outfile_buf_init(o, f);
	*rows = vcdout_write_csv(logs, n, line_column, o, &bad, err, sizeof(err));
	outfile_buf_flush(o);
	assert_false(o->err);
	free(o);
	logs_close(logs, n);
	fclose(f);
	return buf;
}

/* Line 2's log starts 250 us after line 0's: its edges fall between line
 * 0's, and its slot 3 is line 0's slot 4 (a tie: line 0 first). */
static void two_logs_merge_into_rows_in_intended_order_with_their_line(void **state)
{
	static const uint8_t lv[] = { 1, 0, 1, 0 };
	int64_t rows;
	char *csv;

	(void)state;
	write_log_at(paths[0], "gpio.line=0\n", START, 10000, lv, 4);
	write_log_at(paths[1], "gpio.line=GPIO2\n", START + 500000, 10000, lv, 3);
	csv = csv_of_logs(2, true, &rows);
	assert_int_equal(rows, 7);
	assert_string_equal(csv,
		"line,seq,level,intended_ns,wake_ns,write_begin_ns,write_end_ns,expirations,flags\n"
		"0,0,1,1000500000,1000508000,1000510000,1000512000,2,0\n"
		"0,1,0,1001000000,1001008000,1001010000,1001012000,1,0\n"
		"GPIO2,0,1,1001000000,1001008000,1001010000,1001012000,2,0\n"
		"0,2,1,1001500000,1001508000,1001510000,1001512000,1,0\n"
		"GPIO2,1,0,1001500000,1001508000,1001510000,1001512000,1,0\n"
		"0,3,0,1002000000,1002008000,1002010000,1002012000,1,0\n"
		"GPIO2,2,1,1002000000,1002008000,1002010000,1002012000,1,0\n");
	free(csv);
}

/* Times that interleave strictly: line B's edges 250 us after line A's. */
static void interleaved_logs_alternate_row_by_row(void **state)
{
	static const uint8_t lv[] = { 1, 0, 1, 0, 1, 0 };
	int64_t rows;
	char *csv, *p;
	const char *want = "ABABABABABAB";
	size_t i;

	(void)state;
	write_log_at(paths[0], "outputs.line=A\ngpio.line=0\n", START, 10000, lv, 6);
	write_log_at(paths[1], "outputs.line=B\ngpio.line=0\n", START + 250000, 10000, lv, 6);
	csv = csv_of_logs(2, true, &rows);
	assert_int_equal(rows, 12);
	p = strchr(csv, '\n') + 1;
	for (i = 0; i < 12; i++) {
		assert_int_equal(*p, want[i]);
		p = strchr(p, '\n') + 1;
	}
	assert_int_equal(*p, '\0');
	free(csv);
}

static void one_log_without_line_column_is_todays_csv(void **state)
{
	static const uint8_t lv[] = { 1, 0 };
	int64_t rows;
	char *csv;

	(void)state;
	write_log_at(paths[0], "gpio.line=0\n", START, 10000, lv, 2);
	csv = csv_of_logs(1, false, &rows);
	assert_int_equal(rows, 2);
	assert_int_equal(strncmp(csv, edgelist_export_header, strlen(edgelist_export_header)), 0);
	assert_string_equal(csv + strlen(edgelist_export_header),
			    "0,1,1000500000,1000508000,1000510000,1000512000,2,0\n"
			    "1,0,1001000000,1001008000,1001010000,1001012000,1,0\n");
	free(csv);
}

/* Two wires, each with its idle level at #0 and its own changes at its
 * write-window midpoints; an active-low line at its physical level. */
static void two_logs_give_one_vcd_with_a_wire_each(void **state)
{
	static const uint8_t lv[] = { 1, 0, 1, 0 };
	struct vcdout_log logs[2];
	int64_t n, per[2];
	char err[256], *v = NULL;
	size_t len = 0, bad;
	FILE *f = open_memstream(&v, &len);

	(void)state;
	write_log_at(paths[0], "gpio.line=0\ngpio.idle_level=0\n", START, 10000, lv, 4);
	write_log_at(paths[1], "outputs.line=GPIO17\ngpio.active_low=true\n", START + 250000, 20000,
		     lv, 2);
	logs_open(logs, 2);
	n = vcdout_write_vcd(logs, 2, f, per, &bad, err, sizeof(err));
	logs_close(logs, 2);
	fclose(f);
	assert_int_equal(n, 6);
	assert_int_equal(per[0], 4);
	assert_int_equal(per[1], 2);
	assert_non_null(strstr(v, "$timescale 1ns $end\n$scope module sqwave $end\n"
			       "$var wire 1 ! line0 $end\n$var wire 1 \" GPIO17 $end\n"
			       "$upscope $end\n$enddefinitions $end\n"));
	assert_non_null(strstr(v, "$dumpvars\n0!\n1\"\n$end\n"
			       "#511000\n1!\n#771000\n0\"\n#1011000\n0!\n#1271000\n1\"\n"
			       "#1511000\n1!\n#2011000\n0!\n#2511000\n"));
	free(v);
}

/* "a-1" and "a_1" are two lines, and one VCD name: each wire keeps one. */
static void lines_alike_in_the_vcd_get_wires_of_their_own(void **state)
{
	static const uint8_t lv[] = { 1 };
	struct vcdout_log logs[2];
	char err[256], *v = NULL;
	size_t len = 0, bad;
	FILE *f = open_memstream(&v, &len);

	(void)state;
	write_log_at(paths[0], "outputs.line=a-1\n", START, 10000, lv, 1);
	write_log_at(paths[1], "outputs.line=a_1\n", START, 10000, lv, 1);
	logs_open(logs, 2);
	assert_int_equal(vcdout_write_vcd(logs, 2, f, NULL, &bad, err, sizeof(err)), 2);
	logs_close(logs, 2);
	fclose(f);
	assert_non_null(strstr(v, "$var wire 1 ! a_1 $end\n$var wire 1 \" a_1_1 $end\n"));
	free(v);
}

/* The text of the first $comment of @v: no '$' in it, so no word of a
 * name ends it early or reads as a command. */
static void comment_has_no_dollar(const char *v)
{
	const char *c = strstr(v, "$comment\n"), *e;

	assert_non_null(c);
	c += strlen("$comment\n");
	e = strstr(c, "\n$end\n");
	assert_non_null(e);
	assert_null(memchr(c, '$', (size_t)(e - c)));
}

/* A line or a log may be named anything, "$end" too: the comment that
 * names them says it as \x24, and the VCD reads back. */
static void a_name_with_end_cannot_end_the_comment(void **state)
{
	static const uint8_t lv[] = { 1, 0 };
	struct vcdout_log logs[2];
	char err[256], *v = NULL;
	size_t len = 0, bad;
	int64_t changes;
	FILE *f = open_memstream(&v, &len);

	(void)state;
	write_log_at(paths[0], "outputs.line=a $end $var x\n", START, 10000, lv, 2);
	write_log_at(paths[1], "outputs.line=b\n", START, 10000, lv, 2);
	logs_open(logs, 2);
	assert_int_equal(vcdout_write_vcd(logs, 2, f, NULL, &bad, err, sizeof(err)), 4);
	logs_close(logs, 2);
	fclose(f);
	comment_has_no_dollar(v);
	assert_non_null(strstr(v, "  a \\x24end \\x24var x: "));
	assert_non_null(strstr(v, "$var wire 1 ! a__end__var_x $end\n"));
	free(v);
	/* one log, named with it */
	write_log("", lv, NULL, 2);
	{
		enum edgelog_status st;
		struct edgelog_reader *r = edgelog_reader_open(path, &st, err, sizeof(err));

		assert_non_null(r);
		v = NULL;
		f = open_memstream(&v, &len);
		changes = vcdout_write_log(r, f, "runs/$end $comment.sqwlog", err, sizeof(err));
		edgelog_reader_close(r);
		fclose(f);
		unlink(path);
	}
	assert_int_equal(changes, 2);
	comment_has_no_dollar(v);
	assert_non_null(strstr(v, "the wave logged in runs/\\x24end \\x24comment.sqwlog:"));
	free(v);
}

static void two_logs_of_one_line_are_refused_naming_both(void **state)
{
	static const uint8_t lv[] = { 1 };
	struct vcdout_log logs[2];
	enum edgelog_status st;
	char err[512];
	size_t i;

	(void)state;
	write_log_at(paths[0], "gpio.line=3\n", START, 10000, lv, 1);
	write_log_at(paths[1], "run.gpio=gpiochip0 [x] line 3 (simulated)\n", START, 10000, lv, 1);
	memset(logs, 0, sizeof(logs));
	for (i = 0; i < 2; i++) {
		logs[i].path = paths[i];
		logs[i].r = edgelog_reader_open(paths[i], &st, err, sizeof(err));
		assert_non_null(logs[i].r);
	}
	assert_int_equal(vcdout_line_names(logs, 2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, paths[0]));
	assert_non_null(strstr(err, paths[1]));
	assert_non_null(strstr(err, "'3'"));
	logs_close(logs, 2);
}

static void a_line_is_named_by_outputs_line_then_gpio_line_then_run_gpio(void **state)
{
	struct edgelog_meta m = { 0 };
	char name[64];

	(void)state;
	m.text = (char *)"outputs.line=GPIO5\ngpio.line=5\n";
	assert_int_equal(vcdout_line_name(&m, name, sizeof(name)), 1);
	assert_string_equal(name, "GPIO5");
	m.text = (char *)"gpio.line=5\nrun.gpio=gpiochip0 [x] line 6 \"SIM6\" (simulated)\n";
	assert_int_equal(vcdout_line_name(&m, name, sizeof(name)), 1);
	assert_string_equal(name, "5");
	m.text = (char *)"run.gpio=gpiochip0 [x] line 6 \"SIM6\" (simulated)\n";
	assert_int_equal(vcdout_line_name(&m, name, sizeof(name)), 1);
	assert_string_equal(name, "SIM6");
	m.text = (char *)"run.gpio=gpiochip0 [x] line 7 (simulated)\n";
	assert_int_equal(vcdout_line_name(&m, name, sizeof(name)), 1);
	assert_string_equal(name, "7");
	m.text = (char *)"board.name=x\n";
	assert_int_equal(vcdout_line_name(&m, name, sizeof(name)), 0);
}

static void logs_of_other_hosts_or_hours_apart_are_warned_of(void **state)
{
	static const uint8_t lv[] = { 1 };
	struct vcdout_log logs[2];
	char warn[512];

	(void)state;
	write_log_at(paths[0], "gpio.line=0\nhost.name=a\n", START, 10000, lv, 1);
	write_log_at(paths[1], "gpio.line=1\nhost.name=a\n", START + 3000000000000ull, 10000, lv, 1);
	logs_open(logs, 2);
	assert_int_equal(vcdout_logs_warn(logs, 2, warn, sizeof(warn)), 0);
	assert_string_equal(warn, "");
	logs_close(logs, 2);
	write_log_at(paths[1], "gpio.line=1\nhost.name=b\n", START, 10000, lv, 1);
	logs_open(logs, 2);
	assert_int_equal(vcdout_logs_warn(logs, 2, warn, sizeof(warn)), 1);
	assert_non_null(strstr(warn, "different hosts"));
	logs_close(logs, 2);
	write_log_at(paths[1], "gpio.line=1\nhost.name=a\n", START + 3700000000000ull, 10000, lv, 1);
	logs_open(logs, 2);
	assert_int_equal(vcdout_logs_warn(logs, 2, warn, sizeof(warn)), 1);
	assert_non_null(strstr(warn, "1.0 h apart"));
	logs_close(logs, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_edge_is_at_its_write_windows_middle),
		cmocka_unit_test(an_active_low_line_is_written_at_its_physical_level),
		cmocka_unit_test(a_failed_write_and_a_repeated_level_change_nothing),
		cmocka_unit_test(a_loopback_log_adds_the_input_at_its_event_times),
		cmocka_unit_test_setup_teardown(two_logs_merge_into_rows_in_intended_order_with_their_line,
						logs_setup, logs_teardown),
		cmocka_unit_test_setup_teardown(interleaved_logs_alternate_row_by_row, logs_setup,
						logs_teardown),
		cmocka_unit_test_setup_teardown(one_log_without_line_column_is_todays_csv, logs_setup,
						logs_teardown),
		cmocka_unit_test_setup_teardown(two_logs_give_one_vcd_with_a_wire_each, logs_setup,
						logs_teardown),
		cmocka_unit_test_setup_teardown(lines_alike_in_the_vcd_get_wires_of_their_own,
						logs_setup, logs_teardown),
		cmocka_unit_test_setup_teardown(a_name_with_end_cannot_end_the_comment, logs_setup,
						logs_teardown),
		cmocka_unit_test_setup_teardown(two_logs_of_one_line_are_refused_naming_both,
						logs_setup, logs_teardown),
		cmocka_unit_test(a_line_is_named_by_outputs_line_then_gpio_line_then_run_gpio),
		cmocka_unit_test_setup_teardown(logs_of_other_hosts_or_hours_apart_are_warned_of,
						logs_setup, logs_teardown),
	};

	return cmocka_run_group_tests_name("vcdout", tests, NULL, NULL);
}
