/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the Saleae importer (src/lab/capture/capture_saleae.c): Logic 2 and 1.x
 * digital CSVs, X gaps, time resolution, errors, the shared fixtures. */
#include "capture_test_util.h"

static const char logic2[] =
	"Time [s],Channel 0,Channel 1,Channel 2\n"
	"0.000000000,0,1,X\n"
	"0.000100010,1,1,X\n"
	"0.000600020,0,1,0\n"
	"0.001100030,1,0,1\n"
	"0.001600000,0,0,X\n"
	"0.002100000,1,0,1\n"
	"0.002500000,X,X,X\n";

static void logic2_transitions_become_edges_at_their_times(void **state)
{
	struct capture *c = open_str(logic2, "l2.csv", "Channel 0");
	const struct capture_info *inf;
	struct edges x;

	(void)state;
	assert_non_null(c);
	inf = capture_info(c);
	assert_string_equal(inf->format, "saleae-logic2-csv");
	assert_int_equal(inf->n_channels, 3);
	assert_int_equal(inf->start_ps, 0);
	assert_int_equal(inf->end_ps, 2500 * PS_PER_US);   /* the final X row */
	assert_int_equal(inf->initial_level, 0);
	assert_int_equal(inf->resolution_ps, 10 * PS_PER_NS);
	x = edges_read(c);
	assert_int_equal(x.n, 5);
	assert_int_equal(x.e[0].t_ps, 100010 * PS_PER_NS);
	assert_int_equal(x.e[0].level, 1);
	assert_int_equal(x.e[0].sample, -1);
	assert_int_equal(x.e[4].t_ps, 2100000 * PS_PER_NS);
	edges_free(&x);
	capture_close(c);
}

static void x_means_no_data_and_the_next_edge_is_flagged(void **state)
{
	struct edges x = edges_of_str(logic2, "l2.csv", "Channel 2");

	(void)state;
	/* X X 0 1 X 1 X: 0->1 at 1.1 ms; X; back at 1 (no edge) */
	assert_int_equal(x.n, 1);
	assert_int_equal(x.e[0].t_ps, 1100030 * PS_PER_NS);
	assert_int_equal(x.e[0].flags, 0);
	edges_free(&x);
}

static void a_gap_inside_a_pulse_marks_the_edge_after_it(void **state)
{
	const char in[] = "Time [s],Channel 0\n0.0,0\n0.001,1\n0.0015,X\n0.0018,1\n0.002,0\n0.003,1\n";
	struct edges x = edges_of_str(in, "g.csv", NULL);

	(void)state;
	assert_int_equal(x.n, 3);
	assert_int_equal(x.e[1].t_ps, 2 * CAPTURE_PS_PER_S / 1000);
	assert_int_equal(x.e[1].flags, CAPTURE_EDGE_F_AFTER_GAP);
	assert_int_equal(x.e[2].flags, 0);
	edges_free(&x);
}

static void logic1_with_spaces_and_15_decimals_reads_the_same(void **state)
{
	const char in[] =
		"Time[s], Channel 0, Channel 1\n"
		"0.000000000000000, 0, 1\n"
		"0.003217000000000, 1, 1\n"
		"0.003719390000000, 0, 1\n"
		"0.004218700000000, 1, 1\n";
	struct capture *c = open_str(in, "l1.csv", NULL);
	struct edges x;

	(void)state;
	assert_non_null(c);
	assert_string_equal(capture_info(c)->format, "saleae-logic1-csv");
	assert_string_equal(capture_info(c)->channel_name, "Channel 0");
	assert_string_equal(capture_info(c)->channel_reason, "first channel with edges");
	x = edges_read(c);
	assert_int_equal(x.n, 3);
	assert_int_equal(x.e[1].t_ps, 3719390 * PS_PER_NS);
	edges_free(&x);
	capture_close(c);
}

static void a_moved_time_base_and_decimal_commas_are_fine(void **state)
{
	const char in[] = "\xef\xbb\xbfTime [s];Channel 0\r\n289,692741059;0\r\n289,693241059;1\r\n"
			  "289,693741069;0\r\n";
	struct capture *c = open_str(in, "dc.csv", NULL);
	struct edges x;

	(void)state;
	assert_non_null(c);
	assert_int_equal(capture_info(c)->start_ps, 289692741059LL * PS_PER_NS);
	x = edges_read(c);
	assert_int_equal(x.n, 2);
	assert_int_equal(x.e[1].t_ps - x.e[0].t_ps, 500010 * PS_PER_NS);
	edges_free(&x);
	capture_close(c);
}

static void channel_numbers_pick_channel_names(void **state)
{
	struct capture *c = open_str(logic2, "l2.csv", "1");

	(void)state;
	assert_non_null(c);
	assert_string_equal(capture_info(c)->channel_name, "Channel 1");
	capture_close(c);
	c = open_str(logic2, "l2.csv", "channel2");
	assert_non_null(c);
	assert_string_equal(capture_info(c)->channel_name, "Channel 2");
	capture_close(c);
}

static void malformed_rows_are_errors_with_their_line(void **state)
{
	const char bad_time[] = "Time [s],Channel 0\n0.0,0\n0.001,1\nabc,0\n";
	const char bad_value[] = "Time [s],Channel 0\n0.0,0\n0.001,1\n0.002,7\n";
	const char backwards[] = "Time [s],Channel 0\n0.0,0\n0.002,1\n0.001,0\n";
	const char analog[] = "Time [s],Channel 0\n0.0,0.25\n0.001,3.3\n";
	const char *const cases[] = { bad_time, bad_value, backwards };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct capture *c = open_str(cases[i], "m.csv", NULL);
		struct edges x;

		/* found while opening (the first rows are read ahead) or while reading */
		if (c) {
			x = edges_read(c);
			assert_int_equal(x.result, -1);
			edges_free(&x);
			capture_close(c);
		}
		assert_true(error_mentions("m.csv:4:"));
	}
	assert_null(open_str(analog, "an.csv", NULL));
	assert_true(error_mentions("analog"));
}

static void fixture_saleae_files_match_the_true_edges_within_10_ns(void **state)
{
	static const char *const files[] = { FIXTURES "/synth_1khz_j5us_saleae2.csv",
					     FIXTURES "/synth_1khz_j5us_saleae1.csv" };
	struct truth tr;

	(void)state;
	SKIP_WITHOUT_FIXTURES();
	truth_load(&tr, 5);
	for (size_t f = 0; f < 2; f++) {
		struct capture *c = t_open(files[f], NULL);
		struct edges x;

		assert_non_null(c);
		assert_string_equal(capture_info(c)->channel_name, "Channel 0");
		assert_int_equal(capture_info(c)->resolution_ps, 10 * PS_PER_NS);
		assert_int_equal(capture_info(c)->initial_level, 0);
		assert_int_equal(capture_info(c)->end_ps, 1002708780 * PS_PER_NS);
		x = edges_read(c);
		edges_match_truth(&x, &tr, 1e9, 10e-9);
		edges_free(&x);
		capture_close(c);
	}
}

/* Logic 2 writes a row per instant: a repeated time with another level is
 * refused (it read as a pulse of 0 s); the same row twice is harmless. */
static void a_repeated_time_with_another_level_is_refused(void **state)
{
	const char in[] = "Time [s],Channel 0,Channel 1\n0.000000000,0,1\n0.000001000,1,1\n"
			  "0.000001000,1,0\n0.000002000,0,0\n0.000002000,1,0\n0.000003000,0,0\n";
	struct capture *c = open_str(in, "dup.csv", "Channel 0");
	struct edges x;

	(void)state;
	assert_non_null(c);
	x = edges_read(c);
	assert_int_equal(x.result, -1);
	assert_int_equal(x.n, 2);
	assert_true(error_mentions("dup.csv:6: time '0.000002000' repeats the row before with another level"));
	edges_free(&x);
	capture_close(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(logic2_transitions_become_edges_at_their_times),
		cmocka_unit_test(x_means_no_data_and_the_next_edge_is_flagged),
		cmocka_unit_test(a_gap_inside_a_pulse_marks_the_edge_after_it),
		cmocka_unit_test(logic1_with_spaces_and_15_decimals_reads_the_same),
		cmocka_unit_test(a_moved_time_base_and_decimal_commas_are_fine),
		cmocka_unit_test(channel_numbers_pick_channel_names),
		cmocka_unit_test(malformed_rows_are_errors_with_their_line),
		cmocka_unit_test(a_repeated_time_with_another_level_is_refused),
		cmocka_unit_test(fixture_saleae_files_match_the_true_edges_within_10_ns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
