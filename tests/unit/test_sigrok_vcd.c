/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sigrok_vcd: the file sqwave capture writes, read back by sqwave's own VCD
 * importer: times on the sample grid, gaps as x, the facts at the end. */
#include "capture_test_util.h"

#include <stdlib.h>
#include <unistd.h>

#include "instrument/sigrok_vcd.h"

static char path[64];

static int setup(void **state)
{
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/test_sigrok_vcd.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

/* D0 at bit 0 and D7 at bit 7, as libsigrok packs eight channels. */
static void writer_open(struct sigrok_vcd *w, uint64_t rate)
{
	static const char *const names[] = { "D0", "D7" };
	static const unsigned bits[] = { 0, 7 };
	struct sigrok_vcd_head h = { .rate_hz = rate, .nch = 2, .names = names, .bits = bits,
				     .device_channels = 8, .comment = "  a test\n" };
	char err[256];

	assert_int_equal(sigrok_vcd_open(w, path, &h, err, sizeof(err)), 0);
}

static struct capture *reader_open(const char *chan)
{
	struct capture_opts o = { .channel = chan };
	char err[256];
	struct capture *c = capture_open(path, &o, err, sizeof(err));

	if (!c)
		fail_msg("%s", err);
	return c;
}

static void edges_at_256khz_read_back_at_their_samples(void **state)
{
	struct sigrok_vcd w;
	struct capture *c;
	struct edges x;
	char err[256];

	(void)state;
	writer_open(&w, 256000);
	sigrok_vcd_change(&w, 0, 0, 0);
	sigrok_vcd_change(&w, 128, 0x80, 0x80);
	sigrok_vcd_change(&w, 256, 0x00, 0x80);
	sigrok_vcd_change(&w, 300, 0x01, 0x01);
	assert_int_equal(sigrok_vcd_close(&w, 512, "  facts\n", err, sizeof(err)), 0);
	c = reader_open("D7");
	assert_true(capture_info(c)->samplerate_hz == 256000);
	assert_int_equal(capture_info(c)->end_ps, 2000 * PS_PER_US);   /* 512 samples */
	x = edges_read(c);
	assert_int_equal(x.n, 2);
	assert_int_equal(x.e[0].t_ps, 500 * PS_PER_US);
	assert_int_equal(x.e[0].level, 1);
	assert_int_equal(x.e[1].t_ps, 1000 * PS_PER_US);
	assert_int_equal(x.e[1].sample, 256);
	edges_free(&x);
	capture_close(c);
}

/* 24 MHz: a sample is 41,666.67 ps, so the file's ticks are 1 ps rounded
 * and the reader snaps them back to the samples the analyzer counted. */
static void a_rate_of_no_whole_ps_period_snaps_back_to_its_samples(void **state)
{
	struct sigrok_vcd w;
	struct capture *c;
	struct edges x;
	char err[256];

	(void)state;
	writer_open(&w, 24000000);
	sigrok_vcd_change(&w, 0, 0, 0);
	sigrok_vcd_change(&w, 12000, 0x80, 0x80);
	sigrok_vcd_change(&w, 24001, 0x00, 0x80);
	assert_int_equal(sigrok_vcd_close(&w, 36000, NULL, err, sizeof(err)), 0);
	c = reader_open("D7");
	x = edges_read(c);
	assert_int_equal(x.n, 2);
	assert_int_equal(x.e[0].sample, 12000);
	assert_int_equal(x.e[0].t_ps, 500 * PS_PER_US);
	assert_int_equal(x.e[1].sample, 24001);
	edges_free(&x);
	capture_close(c);
}

/* A lost stretch: x on every wire, the level known again without an edge,
 * and the next edge flagged as after a gap (no pulse measured across). */
static void a_gap_is_x_on_every_wire_and_flags_the_next_edge(void **state)
{
	struct sigrok_vcd w;
	struct capture *c;
	struct edges x;
	char err[256];

	(void)state;
	writer_open(&w, 1000000);
	sigrok_vcd_change(&w, 0, 0, 0);
	sigrok_vcd_change(&w, 100, 0x81, 0x81);
	sigrok_vcd_gap(&w, 200);
	sigrok_vcd_change(&w, 400, 0x80, 0);
	sigrok_vcd_change(&w, 500, 0x00, 0x80);
	assert_int_equal(sigrok_vcd_close(&w, 600, NULL, err, sizeof(err)), 0);
	c = reader_open("D7");
	x = edges_read(c);
	assert_int_equal(x.n, 2);
	assert_int_equal(x.e[0].flags & CAPTURE_EDGE_F_AFTER_GAP, 0);
	assert_int_equal(x.e[1].t_ps, 500 * PS_PER_US);
	assert_int_not_equal(x.e[1].flags & CAPTURE_EDGE_F_AFTER_GAP, 0);
	edges_free(&x);
	capture_close(c);
	/* D0 fell inside the gap: its fall is not an edge anyone saw */
	c = reader_open("D0");
	x = edges_read(c);
	assert_int_equal(x.n, 1);
	edges_free(&x);
	capture_close(c);
}

static void a_file_that_cannot_be_created_is_named(void **state)
{
	static const char *const names[] = { "D0" };
	static const unsigned bits[] = { 0 };
	struct sigrok_vcd_head h = { .rate_hz = 1000, .nch = 1, .names = names, .bits = bits };
	struct sigrok_vcd w;
	char err[256];

	(void)state;
	assert_int_equal(sigrok_vcd_open(&w, "/nonexistent/dir/x.vcd", &h, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/dir/x.vcd"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(edges_at_256khz_read_back_at_their_samples, setup, teardown),
		cmocka_unit_test_setup_teardown(a_rate_of_no_whole_ps_period_snaps_back_to_its_samples,
						setup, teardown),
		cmocka_unit_test_setup_teardown(a_gap_is_x_on_every_wire_and_flags_the_next_edge, setup,
						teardown),
		cmocka_unit_test(a_file_that_cannot_be_created_is_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
