/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the VCD importer (src/lab/capture/capture_vcd.c): timescales, identifiers,
 * scopes, $dumpvars, x/z, vectors, 64-bit times, errors, shared fixtures. */
#include "capture_test_util.h"

static const char sigrok_vcd[] =
	"$date Sun Nov 29 17:41:56 2026 $end\n"
	"$version libsigrok 0.5.2 $end\n"
	"$comment\n  Acquisition with 2/2 channels at 1 MHz\n$end\n"
	"$timescale 1 us $end\n"
	"$scope module libsigrok $end\n"
	"$var wire 1 ! D0 $end\n"
	"$var wire 1 \" D1 $end\n"
	"$upscope $end\n"
	"$enddefinitions $end\n"
	"#0 0! 0\"\n"
	"#5 1!\n"
	"#10 0! 1\"\n"
	"#15 1!\n"
	"#20\n";

static void sigrok_vcd_gives_edges_and_the_final_timestamp_ends_the_capture(void **state)
{
	struct capture *c = open_str(sigrok_vcd, "x.vcd", "D1");
	const struct capture_info *in;
	struct edges x;

	(void)state;
	assert_non_null(c);
	in = capture_info(c);
	assert_string_equal(in->format, "vcd");
	assert_string_equal(in->channel_name, "libsigrok.D1");
	assert_int_equal(in->end_known, 1);
	assert_int_equal(in->end_ps, 20 * PS_PER_US);
	assert_int_equal(in->resolution_ps, PS_PER_US);
	assert_true(in->samplerate_hz == 1e6);
	assert_int_equal(in->initial_level, 0);
	x = edges_read(c);
	assert_int_equal(x.n, 1);
	assert_int_equal(x.e[0].t_ps, 10 * PS_PER_US);
	assert_int_equal(x.e[0].sample, 10);
	assert_int_equal(x.e[0].level, 1);
	edges_free(&x);
	capture_close(c);
}

static void the_default_channel_is_the_first_with_edges(void **state)
{
	struct capture *c = open_str(sigrok_vcd, "x.vcd", NULL);

	(void)state;
	assert_non_null(c);
	assert_string_equal(capture_info(c)->channel_name, "libsigrok.D0");
	assert_string_equal(capture_info(c)->channel_reason, "first channel with edges");
	capture_close(c);
}

static void sigrok_times_are_snapped_to_the_sample_grid(void **state)
{
	/* 256 kHz at 10 ns: libsigrok writes round(n / rate) -> 391, 781 */
	const char in[] =
		"$comment Acquisition with 1/1 channels at 256 kHz $end\n"
		"$timescale 10 ns $end $scope module libsigrok $end $var wire 1 ! D0 $end\n"
		"$upscope $end $enddefinitions $end\n#0 0!\n#391 1!\n#781 0!\n#1172\n";
	struct edges x = edges_of_str(in, "g.vcd", NULL);

	(void)state;
	assert_int_equal(x.n, 2);
	assert_int_equal(x.e[0].t_ps, 3906250LL);     /* 1 / 256 kHz exactly */
	assert_int_equal(x.e[1].t_ps, 2 * 3906250LL);
	assert_int_equal(x.e[1].sample, 2);
	edges_free(&x);
}

static void every_timescale_from_1_fs_to_100_s_is_understood(void **state)
{
	static const struct {
		const char *ts;
		int64_t tick_fs;
	} cases[] = {
		{ "1 fs", 1 }, { "10fs", 10 }, { "100 fs", 100 }, { "1ps", 1000 },
		{ "10 ns", 10000000 }, { "100us", 100000000000LL }, { "1 ms", 1000000000000LL },
		{ "\n\t10\n\tms\n", 10000000000000LL }, { "1 s", 1000000000000000LL },
		{ "100 s", 100000000000000000LL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char in[512];
		struct edges x;

		snprintf(in, sizeof(in),
			 "$timescale %s $end\n$scope module top $end\n$var wire 1 ! a $end\n"
			 "$upscope $end\n$enddefinitions $end\n#0\n0!\n#3000\n1!\n#7000\n", cases[i].ts);
		x = edges_of_str(in, "t.vcd", NULL);
		assert_int_equal(x.n, 1);
		assert_int_equal(x.e[0].t_ps, 3 * cases[i].tick_fs);
		edges_free(&x);
	}
}

static void a_bad_timescale_is_refused_with_its_line(void **state)
{
	const char in[] = "$date today $end\n$timescale 3000000 ns $end\n$enddefinitions $end\n";

	(void)state;
	assert_null(open_str(in, "bad.vcd", NULL));
	assert_true(error_mentions("bad.vcd:2:"));
	assert_true(error_mentions("1, 10 or 100"));
}

static void identifiers_may_be_several_characters_and_contain_hash_and_dollar(void **state)
{
	const char in[] =
		"$timescale 1 ns $end\n$scope module top $end\n"
		"$var wire 1 #$ odd $end\n$var wire 1 GP gpio $end\n$var wire 1 # hash $end\n"
		"$upscope $end\n$enddefinitions $end\n"
		"#0\n0#$\n0GP\n0#\n#10\n1#$\n1#\n#20\n1GP\n#30\n0GP\n0#$\n#40\n";
	struct edges x = edges_of_str(in, "ids.vcd", "gpio");
	struct edges y = edges_of_str(in, "ids.vcd", "odd");
	struct edges z = edges_of_str(in, "ids.vcd", "hash");

	(void)state;
	assert_int_equal(x.n, 2);
	assert_int_equal(x.e[0].t_ps, 20 * PS_PER_NS);
	assert_int_equal(x.e[1].t_ps, 30 * PS_PER_NS);
	assert_int_equal(y.n, 2);
	assert_int_equal(y.e[0].t_ps, 10 * PS_PER_NS);
	assert_int_equal(z.n, 1);
	edges_free(&x);
	edges_free(&y);
	edges_free(&z);
}

static const char nested_vcd[] =
	"$timescale 1ps $end\n"
	"$scope module top $end\n"
	"$scope module dut $end\n"
	"$var wire 1 ! gpio $end\n"
	"$var reg 4 \"# state [3:0] $end\n"
	"$upscope $end\n"
	"$scope module ref $end\n"
	"$var wire 1 % gpio $end\n"
	"$upscope $end\n"
	"$var real 64 & vref $end\n"
	"$upscope $end\n"
	"$enddefinitions $end\n"
	"$comment initial values follow $end\n"
	"#0\n$dumpvars\n0!\nbxxxx \"#\n0%\nr1.65 &\n$end\n"
	"#1000\n1!\nb1 \"#\n"
	"#2000\n0!\nb10 \"#\n1%\n"
	"#3000\n1!\nb11 \"#\n"
	"#4000\n0!\nb100 \"#\n"
	"#5000\n";

static void nested_scopes_make_dotted_names_and_suffixes_select(void **state)
{
	struct capture *c = open_str(nested_vcd, "n.vcd", "dut.gpio");
	struct edges x;

	(void)state;
	assert_non_null(c);
	assert_string_equal(capture_info(c)->channel_name, "top.dut.gpio");
	assert_int_equal(capture_info(c)->n_channels, 4);
	x = edges_read(c);
	assert_int_equal(x.n, 4);
	assert_int_equal(x.e[0].t_ps, 1000);
	capture_close(c);
	edges_free(&x);
}

static void a_name_in_two_scopes_is_ambiguous_and_the_error_lists_channels(void **state)
{
	(void)state;
	assert_null(open_str(nested_vcd, "n.vcd", "gpio"));
	assert_true(error_mentions("ambiguous"));
	assert_true(error_mentions("top.ref.gpio"));
	assert_null(open_str(nested_vcd, "n.vcd", "nosuch"));
	assert_true(error_mentions("no channel 'nosuch'"));
	assert_true(error_mentions("top.dut.state[3:0]"));
}

static void a_vector_bit_is_selectable_and_a_whole_vector_is_not(void **state)
{
	struct edges b0 = edges_of_str(nested_vcd, "n.vcd", "state[0]");
	struct edges b1 = edges_of_str(nested_vcd, "n.vcd", "dut.state[1]");
	struct edges b2 = edges_of_str(nested_vcd, "n.vcd", "state[2]");
	struct capture *c = open_str(nested_vcd, "n.vcd", "state[2]");

	(void)state;
	/* x -> 1 (#1000) is the first known level, not an edge; 1 -> 0 at #2000 is */
	assert_int_equal(b0.n, 3);
	assert_int_equal(b0.e[0].t_ps, 2000);
	assert_int_equal(b0.e[0].level, 0);
	assert_int_equal(b0.e[0].flags, 0);
	assert_int_equal(b1.n, 2);
	assert_int_equal(b1.e[0].t_ps, 2000);
	assert_int_equal(b1.e[1].t_ps, 4000);
	/* b1 extends with zeros: bit 2 goes 0 -> 1 only at #4000 */
	assert_int_equal(b2.n, 1);
	assert_int_equal(b2.e[0].t_ps, 4000);
	assert_non_null(c);
	assert_string_equal(capture_info(c)->channel_name, "top.dut.state[2]");
	capture_close(c);
	assert_null(open_str(nested_vcd, "n.vcd", "state"));
	assert_true(error_mentions("choose a bit"));
	assert_null(open_str(nested_vcd, "n.vcd", "state[7]"));
	assert_true(error_mentions("outside"));
	edges_free(&b0);
	edges_free(&b1);
	edges_free(&b2);
}

static void a_real_variable_is_not_a_logic_signal(void **state)
{
	(void)state;
	assert_null(open_str(nested_vcd, "n.vcd", "vref"));
	assert_true(error_mentions("real"));
}

static void dumpvars_before_the_first_timestamp_sets_the_initial_level(void **state)
{
	const char in[] =
		"$timescale 10us $end\n$scope module top $end\n$var wire 1 GP gpio $end\n"
		"$upscope $end\n$enddefinitions $end\n$dumpvars 0GP $end\n"
		"#322\n1GP\n#372\n0GP\n#422\n";
	struct capture *c = open_str(in, "d.vcd", NULL);
	const struct capture_info *inf;
	struct edges x;

	(void)state;
	assert_non_null(c);
	inf = capture_info(c);
	assert_int_equal(inf->initial_level, 0);
	assert_int_equal(inf->start_ps, 322 * 10 * PS_PER_US);
	x = edges_read(c);
	assert_int_equal(x.n, 2);
	assert_int_equal(x.e[0].level, 1);
	assert_int_equal(inf->end_ps, 422 * 10 * PS_PER_US);
	edges_free(&x);
	capture_close(c);
}

static void x_and_z_are_gaps_not_edges(void **state)
{
	const char in[] =
		"$timescale 1ns $end $scope module t $end $var wire 1 a sig $end $upscope $end\n"
		"$enddefinitions $end\n#0 0a\n#10 1a\n#20 xa\n#30 1a\n#40 0a\n#50 Za\n#60 0a\n#70 1a\n"
		"#80 $dumpoff xa $end #90 $dumpon 1a $end #100 0a #110\n";
	struct edges x = edges_of_str(in, "xz.vcd", NULL);

	(void)state;
	assert_int_equal(x.n, 4);
	assert_int_equal(x.e[0].t_ps, 10 * PS_PER_NS);
	assert_int_equal(x.e[0].flags, 0);
	assert_int_equal(x.e[1].t_ps, 40 * PS_PER_NS);          /* 1 -> x -> 1 -> 0 */
	assert_int_equal(x.e[1].flags, CAPTURE_EDGE_F_AFTER_GAP);
	assert_int_equal(x.e[2].t_ps, 70 * PS_PER_NS);          /* 0 -> z -> 0 -> 1 */
	assert_int_equal(x.e[2].flags, CAPTURE_EDGE_F_AFTER_GAP);
	assert_int_equal(x.e[3].t_ps, 100 * PS_PER_NS);         /* $dumpoff gap */
	assert_int_equal(x.e[3].flags, CAPTURE_EDGE_F_AFTER_GAP);
	edges_free(&x);
}

static void times_beyond_32_bits_are_exact(void **state)
{
	const char in[] =
		"$timescale 1 ps $end $scope module t $end $var wire 1 ! a $end $upscope $end\n"
		"$enddefinitions $end\n#0 0!\n#3600000000000000 1!\n#3600000000000001 0!\n"
		"#7200000000000000\n";
	struct edges x = edges_of_str(in, "long.vcd", NULL);

	(void)state;
	assert_int_equal(x.n, 2);
	assert_int_equal(x.e[0].t_ps, 3600LL * CAPTURE_PS_PER_S);      /* one hour */
	assert_int_equal(x.e[1].t_ps - x.e[0].t_ps, 1);                /* one ps later */
	edges_free(&x);
}

static void a_time_beyond_53_days_is_an_error_not_a_wrapped_value(void **state)
{
	/* 5e6 s: 58 days, 5e18 ps: it fits an int64_t, but not the range that
	 * keeps differences of times in one */
	const char in[] =
		"$timescale 1 s $end $scope module t $end $var wire 1 ! a $end $upscope $end\n"
		"$enddefinitions $end\n#0 0!\n#5000000 1!\n";
	const char in64[] =
		"$timescale 1 fs $end $scope module t $end $var wire 1 ! a $end $upscope $end\n"
		"$enddefinitions $end\n#0 0!\n#99999999999999999999 1!\n";
	struct capture *c = open_str(in, "far.vcd", NULL);
	struct capture_edge e;

	(void)state;
	assert_null(c);
	assert_true(error_mentions("far.vcd:4:"));
	assert_true(error_mentions("53 days"));
	c = open_str(in64, "far.vcd", NULL);
	assert_null(c);
	assert_true(error_mentions("64 bits"));
	(void)e;
}

static void time_going_backwards_is_an_error_with_its_line(void **state)
{
	const char in[] =
		"$timescale 1 ns $end $scope module t $end $var wire 1 ! a $end $upscope $end\n"
		"$enddefinitions $end\n#0 0!\n#20 1!\n#10 0!\n#30\n";
	struct capture *c = open_str(in, "back.vcd", NULL);
	struct edges x;

	(void)state;
	/* the rise at #20 waits for the time to advance (values of one time
	 * are one change), so the open's first look already meets #10 */
	if (c) {
		x = edges_read(c);
		assert_int_equal(x.result, -1);
		assert_int_equal(x.n, 0);
		capture_close(c);
		edges_free(&x);
	}
	assert_true(error_mentions("back.vcd:5:"));
	assert_true(error_mentions("backwards"));
}

/* Values of one timestamp are one change: a simulator's delta-cycle glitch
 * ("#10 1! 0! 1!") or a timestamp written twice is no pulse of 0 ns (it
 * made Tmin 0); the last value of the time counts, as in sigrok. */
static void changes_within_one_timestamp_are_one_change(void **state)
{
	const char in[] =
		"$timescale 1 ns $end $scope module t $end $var wire 1 ! a $end\n"
		"$var wire 4 \" v [3:0] $end $upscope $end\n$enddefinitions $end\n"
		"#0 0! b0000 \"\n"
		"#10\n1!\n0!\n1!\nb0001 \"\nb0000 \"\nb0001 \"\n"   /* ends high: one rise */
		"#20 0!\n#20 1!\n#20 0!\nb0000 \"\n"               /* twice written: one fall */
		"#30 1!\n0!\nb0001 \"\nb0000 \"\n"                  /* back where it was: nothing */
		"#40\nx!\n1!\n"                                      /* x then 1 at one time: a rise */
		"#50 0!";                                            /* at the end, no final stamp */
	struct edges x = edges_of_str(in, "glitch.vcd", "a");
	static const int64_t want_ns[] = { 10, 20, 40, 50 };

	(void)state;
	assert_int_equal(x.n, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(x.e[i].t_ps, want_ns[i] * PS_PER_NS);
		assert_int_equal(x.e[i].level, (i + 1) & 1);
		assert_int_equal(x.e[i].flags, 0);
	}
	edges_free(&x);
	x = edges_of_str(in, "glitch.vcd", "v[0]");
	assert_int_equal(x.n, 2);
	assert_int_equal(x.e[0].t_ps, 10 * PS_PER_NS);
	assert_int_equal(x.e[1].t_ps, 20 * PS_PER_NS);
	edges_free(&x);
}

/* "$timescale 250 ps" or "1000 ns" is no IEEE 1364 timescale, but sigrok
 * reads it as written (4 GHz, 1 MHz): so does sqwave, with a note; 0 or
 * more than a million is refused. */
static void a_timescale_of_any_multiple_reads_as_written(void **state)
{
	const char ps250[] = "$timescale 250 ps $end $scope module m $end $var wire 1 ! a $end "
			     "$upscope $end $enddefinitions $end\n#0 0!\n#10 1!\n#20 0!\n#30\n";
	const char ns1000[] = "$timescale 1000ns $end $scope module m $end $var wire 1 ! a $end "
			      "$upscope $end $enddefinitions $end\n#0 0!\n#10 1!\n#20 0!\n#30\n";
	const char zero[] = "$timescale 0 ns $end $scope module m $end $var wire 1 ! a $end "
			    "$upscope $end $enddefinitions $end\n#0 0!\n";
	const char huge[] = "$timescale 2000000 s $end $scope module m $end $var wire 1 ! a $end "
			    "$upscope $end $enddefinitions $end\n#0 0!\n";
	struct edges x = edges_of_str(ps250, "ps250.vcd", NULL);

	(void)state;
	assert_int_equal(x.n, 2);
	assert_int_equal(x.e[0].t_ps, 2500);
	assert_int_equal(x.e[1].t_ps, 5000);
	edges_free(&x);
	x = edges_of_str(ns1000, "ns1000.vcd", NULL);
	assert_int_equal(x.n, 2);
	assert_int_equal(x.e[0].t_ps, 10 * PS_PER_US);
	assert_int_equal(x.e[1].t_ps, 20 * PS_PER_US);
	edges_free(&x);
	assert_null(open_str(zero, "zero.vcd", NULL));
	assert_true(error_mentions("zero.vcd:1: $timescale '0ns'"));
	assert_null(open_str(huge, "huge.vcd", NULL));
	assert_true(error_mentions("up to 1000000"));
}

static void a_truncated_header_is_an_error_not_a_crash(void **state)
{
	const char *cuts[] = {
		"$timescale 1 ns $end $scope module t $end $var wire 1 ! a",
		"$timescale 1 ns",
		"$timescale 1 ns $end $scope module t $end $var wire 1 ! a $end $upscope $end\n",
		"$version x $end $comment never ends",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		assert_null(open_str_fmt(cuts[i], "cut.vcd", NULL, "vcd"));
		assert_true(error_mentions("cut.vcd"));
	}
}

static void garbage_in_the_value_section_is_reported(void **state)
{
	const char in[] =
		"$timescale 1 ns $end $scope module t $end $var wire 1 ! a $end $upscope $end\n"
		"$enddefinitions $end\n#0 0!\n#10 1!\n#20 ?!\n#30\n";
	struct capture *c = open_str(in, "junk.vcd", "a");
	struct edges x;

	(void)state;
	assert_non_null(c);
	x = edges_read(c);
	assert_int_equal(x.result, -1);
	/* and it stays failed */
	assert_int_equal(capture_next_edge(c, &x.e[0]), -1);
	capture_close(c);
	edges_free(&x);
	assert_true(error_mentions("junk.vcd:5:"));
}

/* ---- shared fixtures ---------------------------------------------------- */

static void fixture_1ps_vcd_matches_the_true_edges_to_the_picosecond(void **state)
{
	struct truth tr;
	struct capture *c;
	struct edges x;

	(void)state;
	SKIP_WITHOUT_FIXTURES();
	truth_load(&tr, 5);
	c = t_open(FIXTURES "/synth_1khz_j5us_1ps.vcd", NULL);
	assert_non_null(c);
	assert_string_equal(capture_info(c)->channel_name, "top.dut.gpio");
	assert_int_equal(capture_info(c)->resolution_ps, 1);
	assert_int_equal(capture_info(c)->end_ps, 1007708770000LL);
	x = edges_read(c);
	edges_match_truth(&x, &tr, 1e9, 1e-12);
	edges_free(&x);
	capture_close(c);
}

static void fixture_10ns_vcd_matches_within_10_ns(void **state)
{
	struct truth tr;
	struct capture *c;
	struct edges x;

	(void)state;
	SKIP_WITHOUT_FIXTURES();
	truth_load(&tr, 5);
	c = t_open(FIXTURES "/synth_1khz_j5us_10ns.vcd", NULL);
	assert_non_null(c);
	assert_string_equal(capture_info(c)->channel_name, "libsigrok.Channel_0");
	assert_int_equal(capture_info(c)->resolution_ps, 10 * PS_PER_NS);
	x = edges_read(c);
	edges_match_truth(&x, &tr, 1e9, 10e-9);
	edges_free(&x);
	capture_close(c);
}

static void fixture_10us_vcd_matches_within_its_coarse_tick(void **state)
{
	struct truth tr;
	struct capture *c;
	struct edges x;

	(void)state;
	SKIP_WITHOUT_FIXTURES();
	truth_load(&tr, 5);
	c = t_open(FIXTURES "/synth_1khz_j5us_10us.vcd", NULL);
	assert_non_null(c);
	assert_int_equal(capture_info(c)->resolution_ps, 10 * PS_PER_US);
	assert_int_equal(capture_info(c)->start_ps, 3220 * PS_PER_US);
	x = edges_read(c);
	edges_match_truth(&x, &tr, 1e9, 5e-6);
	assert_int_equal(capture_info(c)->end_ps, 1007710 * PS_PER_US);
	edges_free(&x);
	capture_close(c);
}

static void fixture_sigrok_vcd_matches_the_reference_sample_indices(void **state)
{
	static long ref[4096];
	size_t n;
	struct capture_opts o = { .channel = "D2" };
	struct capture *c;
	struct edges x;

	(void)state;
	SKIP_WITHOUT_FIXTURES();
	n = reference_indices(ref, 4096);
	c = t_open(FIXTURES "/demo_inc8k.vcd", &o);
	assert_non_null(c);
	x = edges_read(c);
	assert_int_equal(x.n, n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(x.e[i].sample, ref[i]);
		assert_int_equal(x.e[i].t_ps, ref[i] * 125 * PS_PER_US);
	}
	assert_int_equal(capture_info(c)->end_ps, CAPTURE_PS_PER_S / 2);
	edges_free(&x);
	capture_close(c);
}

static void the_one_signal_of_20000_that_toggles_is_found_in_one_pass(void **state)
{
	/* 20,000 signals; only the last one changes (and an alias of it) */
	const unsigned n = 20000;
	size_t cap = (size_t)n * 64 + 4096, len;
	char *in = malloc(cap);
	struct capture *c;

	(void)state;
	len = (size_t)sprintf(in, "$timescale 1 ns $end\n$scope module top $end\n");
	for (unsigned k = 0; k < n; k++)
		len += (size_t)sprintf(in + len, "$var wire 1 s%u sig%u $end\n", k, k);
	len += (size_t)sprintf(in + len, "$var wire 1 s%u alias $end\n", n - 1);
	len += (size_t)sprintf(in + len, "$upscope $end\n$enddefinitions $end\n#0\n");
	for (unsigned k = 0; k < n; k++)
		len += (size_t)sprintf(in + len, "0s%u\n", k);
	for (unsigned t = 1; t <= 200; t++)
		len += (size_t)sprintf(in + len, "#%u\n%ds%u\n", t * 100, (int)(t & 1), n - 1);
	c = open_str(in, "wide.vcd", NULL);
	if (!c)
		fail_msg("%s", t_error());
	assert_string_equal(capture_info(c)->channel_name, "top.sig19999");
	assert_string_equal(capture_info(c)->channel_reason, "first channel with edges");
	capture_close(c);
	free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sigrok_vcd_gives_edges_and_the_final_timestamp_ends_the_capture),
		cmocka_unit_test(the_default_channel_is_the_first_with_edges),
		cmocka_unit_test(sigrok_times_are_snapped_to_the_sample_grid),
		cmocka_unit_test(every_timescale_from_1_fs_to_100_s_is_understood),
		cmocka_unit_test(a_bad_timescale_is_refused_with_its_line),
		cmocka_unit_test(identifiers_may_be_several_characters_and_contain_hash_and_dollar),
		cmocka_unit_test(nested_scopes_make_dotted_names_and_suffixes_select),
		cmocka_unit_test(a_name_in_two_scopes_is_ambiguous_and_the_error_lists_channels),
		cmocka_unit_test(a_vector_bit_is_selectable_and_a_whole_vector_is_not),
		cmocka_unit_test(a_real_variable_is_not_a_logic_signal),
		cmocka_unit_test(dumpvars_before_the_first_timestamp_sets_the_initial_level),
		cmocka_unit_test(x_and_z_are_gaps_not_edges),
		cmocka_unit_test(times_beyond_32_bits_are_exact),
		cmocka_unit_test(a_time_beyond_53_days_is_an_error_not_a_wrapped_value),
		cmocka_unit_test(the_one_signal_of_20000_that_toggles_is_found_in_one_pass),
		cmocka_unit_test(time_going_backwards_is_an_error_with_its_line),
		cmocka_unit_test(changes_within_one_timestamp_are_one_change),
		cmocka_unit_test(a_timescale_of_any_multiple_reads_as_written),
		cmocka_unit_test(a_truncated_header_is_an_error_not_a_crash),
		cmocka_unit_test(garbage_in_the_value_section_is_reported),
		cmocka_unit_test(fixture_1ps_vcd_matches_the_true_edges_to_the_picosecond),
		cmocka_unit_test(fixture_10ns_vcd_matches_within_10_ns),
		cmocka_unit_test(fixture_10us_vcd_matches_within_its_coarse_tick),
		cmocka_unit_test(fixture_sigrok_vcd_matches_the_reference_sample_indices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
