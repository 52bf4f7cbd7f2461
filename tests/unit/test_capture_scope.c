/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the oscilloscope CSV importer (src/lab/capture/capture_scope.c): each
 * vendor layout, threshold/hysteresis/interpolation, time axes, fixtures. */
#include "capture_test_util.h"

/* Square wave sample i: 0 V / 3.3 V, half period @half samples, 2-sample
 * linear ramps starting at i = half * k; first edge rising at i = half. */
static double wave(long i, long half)
{
	long k = i / half, in = i % half;
	double lo = (k & 1) ? 3.3 : 0.0, hi = (k & 1) ? 0.0 : 3.3;

	if (k == 0)
		return 0.0;
	/* ramp from the previous level over samples 0..2 of this half period */
	if (in < 2)
		return hi + (lo - hi) * (double)in / 2.0;
	return lo;
}

/* The wave above crosses 1.65 V at sample half*k + 1. */
static char *rigol_text(long n, long half, const char *sep, int dec_comma)
{
	size_t cap = (size_t)n * 32 + 256, len = 0;
	char *b = malloc(cap);

	len += (size_t)sprintf(b, "X%sCH1%sStart%sIncrement%s\nSequence%sVolt%s%s%s%s%s\n", sep, sep,
			       sep, sep, sep, sep, dec_comma ? "-1,000000e-03" : "-1.000000e-03", sep,
			       dec_comma ? "1,000000e-06" : "1.000000e-06", sep);
	for (long i = 0; i < n; i++) {
		char num[32];

		snprintf(num, sizeof(num), "%.4e", wave(i, half));
		if (dec_comma)
			*strchr(num, '.') = ',';
		len += (size_t)sprintf(b + len, "%ld%s%s%s\n", i, sep, num, sep);
	}
	return b;
}

static void rigol_ds1000z_time_is_start_plus_index_times_increment(void **state)
{
	char *in = rigol_text(1000, 100, ",", 0);
	struct capture *c = open_str(in, "r.csv", NULL);
	const struct capture_info *inf;
	struct edges x;

	(void)state;
	assert_non_null(c);
	inf = capture_info(c);
	assert_string_equal(inf->format, "rigol-ds1000z-csv");
	assert_string_equal(inf->channel_name, "CH1");
	assert_int_equal(inf->resolution_ps, PS_PER_US);
	assert_int_equal(inf->start_ps, -1000 * PS_PER_US);
	assert_int_equal(inf->end_ps, 0);
	assert_int_equal(inf->analog, 1);
	assert_true(fabs(inf->threshold - 1.65) < 1e-9);
	assert_true(fabs(inf->hysteresis - 0.33) < 1e-9);
	assert_int_equal(inf->initial_level, 0);
	x = edges_read(c);
	assert_int_equal(x.n, 9);
	for (size_t k = 0; k < x.n; k++) {
		/* crossing at sample 100 (k + 1) + 1, interpolated exactly */
		assert_int_equal(x.e[k].t_ps, (-1000 + 100 * (int64_t)(k + 1) + 1) * PS_PER_US);
		assert_int_equal(x.e[k].level, (int)(k % 2 == 0));
		assert_int_equal(x.e[k].sample, 100 * (int64_t)(k + 1) + 1);
	}
	edges_free(&x);
	capture_close(c);
	free(in);
}

static void semicolons_and_decimal_commas_give_the_same_edges(void **state)
{
	char *a = rigol_text(1000, 100, ",", 0), *b = rigol_text(1000, 100, ";", 1);
	struct edges xa = edges_of_str(a, "a.csv", NULL), xb = edges_of_str(b, "b.csv", NULL);

	(void)state;
	assert_int_equal(xa.n, 9);
	assert_int_equal(xb.n, xa.n);
	assert_memory_equal(xa.e, xb.e, xa.n * sizeof(*xa.e));
	edges_free(&xa);
	edges_free(&xb);
	free(a);
	free(b);
}

static void the_edge_is_interpolated_between_the_samples_around_the_threshold(void **state)
{
	const char in[] = "X,CH1,Start,Increment,\nSequence,Volt,0.0,1.0e-06,\n"
			  "0,0.0,\n1,0.0,\n2,1.0,\n3,3.0,\n4,3.3,\n5,3.3,\n6,0.0,\n7,0.0,\n";
	struct edges x = edges_of_str(in, "i.csv", NULL);

	(void)state;
	assert_int_equal(x.n, 2);
	/* 1.65 V between 1.0 V (sample 2) and 3.0 V (sample 3): 2.325 us */
	assert_int_equal(x.e[0].t_ps, 2325 * PS_PER_NS);
	assert_int_equal(x.e[0].sample, 3);
	assert_int_equal(x.e[1].t_ps, 5500 * PS_PER_NS);
	edges_free(&x);
}

static void noise_inside_the_hysteresis_band_makes_no_edges(void **state)
{
	/* plateaus of 20 samples; the signal wanders across 1.65 V but never
	 * leaves the +-0.165 V band before reaching the other level */
	static const double seg[] = { 0.0, 3.3, 1.6, 1.7, 1.6, 1.7, 3.3, 0.0, 1.6, 1.7, 1.6, 0.0, 3.3 };
	char in[8192];
	size_t len = (size_t)sprintf(in, "X,CH1,Start,Increment,\nSequence,Volt,0.0,1.0e-06,\n");
	long i = 0;
	struct edges x;

	(void)state;
	for (size_t s = 0; s < sizeof(seg) / sizeof(seg[0]); s++) {
		int n = seg[s] == 0.0 || seg[s] == 3.3 ? 20 : 1;

		for (int k = 0; k < n; k++, i++)
			len += (size_t)sprintf(in + len, "%ld,%.2f,\n", i, seg[s]);
	}
	x = edges_of_str(in, "h.csv", NULL);
	assert_int_equal(x.n, 3);
	assert_int_equal(x.e[0].level, 1);
	assert_int_equal(x.e[0].sample, 20);
	assert_int_equal(x.e[1].level, 0);
	assert_int_equal(x.e[1].sample, 64);
	assert_int_equal(x.e[2].level, 1);
	edges_free(&x);
}

static void overshoot_and_spikes_do_not_move_the_levels(void **state)
{
	size_t cap = 200000, len = 0;
	char *b = malloc(cap);
	struct capture *c;

	(void)state;
	len += (size_t)sprintf(b, "X,CH1,Start,Increment,\nSequence,Volt,0,1e-06,\n");
	for (long i = 0; i < 4000; i++) {
		double v = wave(i, 200);

		if (i % 200 == 2)
			v += (i / 200) & 1 ? 1.5 : -1.5;   /* ringing after each edge */
		if (i == 1234)
			v = 40;                            /* one wild spike */
		len += (size_t)sprintf(b + len, "%ld,%.3f,\n", i, v);
	}
	c = open_str(b, "o.csv", NULL);
	assert_non_null(c);
	assert_true(fabs(capture_info(c)->low) < 1e-9);
	assert_true(fabs(capture_info(c)->high - 3.3) < 1e-9);
	capture_close(c);
	free(b);
}

static void a_threshold_and_hysteresis_from_the_user_are_used(void **state)
{
	const char in[] = "X,CH1,Start,Increment,\nSequence,Volt,0.0,1.0e-06,\n"
			  "0,0.0,\n1,0.0,\n2,1.0,\n3,3.0,\n4,3.3,\n5,3.3,\n6,0.0,\n7,0.0,\n";
	struct capture_opts o = { .threshold = 2.0, .hysteresis = 0.2 };
	struct capture *c = t_open_mem(in, strlen(in), "u.csv", &o);
	struct edges x;

	(void)state;
	assert_non_null(c);
	assert_true(capture_info(c)->threshold == 2.0);
	x = edges_read(c);
	assert_int_equal(x.n, 2);
	assert_int_equal(x.e[0].t_ps, 2500 * PS_PER_NS);   /* 2.0 V: halfway from 1 V to 3 V */
	edges_free(&x);
	capture_close(c);
}

static void a_flat_trace_has_no_edges_and_the_note_says_why(void **state)
{
	const char in[] = "X,CH1,Start,Increment,\nSequence,Volt,0.0,1.0e-06,\n"
			  "0,0.01,\n1,-0.01,\n2,0.02,\n3,0.0,\n4,-0.02,\n5,0.01,\n";
	struct capture *c = open_str(in, "f.csv", NULL);
	struct edges x;
	int noted = 0;

	(void)state;
	assert_non_null(c);
	x = edges_read(c);
	assert_int_equal(x.n, 0);
	for (unsigned i = 0; i < capture_info(c)->n_notes; i++)
		noted |= strstr(capture_info(c)->notes[i], "one level only") != NULL;
	assert_true(noted);
	edges_free(&x);
	capture_close(c);
}

static void two_rigol_channels_default_to_the_first_with_edges(void **state)
{
	char in[8192];
	size_t len = (size_t)sprintf(in, "X,CH1,CH2,Start,Increment,\nSequence,Volt,Volt,0.0,1e-06,\n");
	struct capture *c;

	(void)state;
	for (long i = 0; i < 200; i++)
		len += (size_t)sprintf(in + len, "%ld,%.3f,%.3f,\n", i, (i % 3) * 0.01, wave(i, 50));
	c = open_str(in, "2.csv", NULL);
	assert_non_null(c);
	assert_string_equal(capture_info(c)->channel_name, "CH2");
	assert_string_equal(capture_info(c)->channel_reason, "first channel with edges");
	capture_close(c);
	c = open_str(in, "2.csv", "1");
	assert_non_null(c);
	assert_string_equal(capture_info(c)->channel_name, "CH1");
	capture_close(c);
}

static void rigol_mso5000_memory_and_screen_layouts(void **state)
{
	char mem[8192], scr[16384];
	size_t lm = (size_t)sprintf(mem, "CH1(V),t0 = -25s, tInc = 2e-06s,\n");
	size_t ls = (size_t)sprintf(scr, "Time(s),CH1(V),CH2(V)\n");
	struct edges xm, xs;

	(void)state;
	for (long i = 0; i < 300; i++) {
		lm += (size_t)sprintf(mem + lm, "%.3e,\n", wave(i, 100));
		/* time printed to 5 significant digits: duplicate stamps */
		ls += (size_t)sprintf(scr + ls, "%.4e,%.3e,0.0\n", 1.0 + (double)i * 2e-6, wave(i, 100));
	}
	xm = edges_of_str(mem, "m.csv", NULL);
	assert_int_equal(xm.n, 2);
	assert_int_equal(xm.e[0].t_ps, -25 * CAPTURE_PS_PER_S + 101 * 2 * PS_PER_US);
	xs = edges_of_str(scr, "s.csv", "CH1");
	assert_int_equal(xs.n, 2);
	/* rebuilt from the row index, not the rounded stamps */
	print_message("5-digit stamps: edge off by %.3g s\n",
		      capture_ps_to_s(xs.e[0].t_ps - (CAPTURE_PS_PER_S + 202 * PS_PER_US)));
	assert_true(llabs(xs.e[0].t_ps - (CAPTURE_PS_PER_S + 202 * PS_PER_US)) < PS_PER_US);
	edges_free(&xm);
	edges_free(&xs);
}

static void siglent_preamble_and_bin2csv_variants(void **state)
{
	char a[16384], b[16384];
	size_t la = (size_t)sprintf(a, "Record Length,Analog:300\nSample Rate,500000.0\n"
				    "Vertical Scale,CH2: 1.00\nVertical Offset,CH2:0.00000\n"
				    "Horizontal Scale, 0.000100000\nSecond,Volt\n");
	size_t lb = (size_t)sprintf(b, "Record Length,Analog:300,\nSample Interval,Analog:2.000000E-06,\n"
				    "Vertical Units,CH3:V,,\nSecond,Value\n");
	struct capture *c;
	struct edges xa, xb;

	(void)state;
	for (long i = 0; i < 300; i++) {
		la += (size_t)sprintf(a + la, "%.11f,%.5f\n", -0.0002 + (double)i * 2e-6, wave(i, 100));
		lb += (size_t)sprintf(b + lb, "%+.6E,%+.6E\n", -0.0002 + (double)i * 2e-6, wave(i, 100));
	}
	c = open_str(a, "sa.csv", NULL);
	assert_non_null(c);
	assert_string_equal(capture_info(c)->format, "siglent-csv");
	assert_string_equal(capture_info(c)->channel_name, "CH2");
	assert_int_equal(capture_info(c)->resolution_ps, 2 * PS_PER_US);
	xa = edges_read(c);
	capture_close(c);
	xb = edges_of_str(b, "sb.csv", "CH3");
	assert_int_equal(xa.n, 2);
	assert_int_equal(xb.n, 2);
	assert_true(llabs(xa.e[0].t_ps - (-200 + 202) * PS_PER_US) < PS_PER_NS / 10);
	assert_true(llabs(xb.e[1].t_ps - (-200 + 402) * PS_PER_US) < PS_PER_NS / 10);
	edges_free(&xa);
	edges_free(&xb);
}

static void keysight_two_header_rows_and_numbered_channels(void **state)
{
	char in[16384];
	size_t len = (size_t)sprintf(in, "x-axis,1,2\nsecond,Volt,Volt\n");
	struct capture *c;
	struct edges x;

	(void)state;
	for (long i = 0; i < 300; i++)
		len += (size_t)sprintf(in + len, "%.5E,0.0,%.3f\n", -84.48e-6 + (double)i * 2e-6,
				       wave(i, 100));
	c = open_str(in, "k.csv", "2");
	assert_non_null(c);
	assert_string_equal(capture_info(c)->format, "keysight-csv");
	assert_string_equal(capture_info(c)->channel_name, "CH2");
	x = edges_read(c);
	assert_int_equal(x.n, 2);
	assert_true(llabs(x.e[0].t_ps - (int64_t)llround((-84.48e-6 + 202e-6) * 1e12)) < PS_PER_NS);
	edges_free(&x);
	capture_close(c);
}

static void tektronix_long_header_with_an_analog_and_a_digital_block(void **state)
{
	char in[32768];
	size_t len = (size_t)sprintf(in,
		"Model,MDO3014\nFirmware Version,1.20\n\n"
		"Waveform Type,ANALOG,,Waveform Type,DIGITAL\nPoint Format,Y,,Point Format,Y\n"
		"Horizontal Units,s,,Horizontal Units,s\nSample Interval,2e-06,,Sample Interval,2e-06\n"
		"Record Length,300,,Record Length,300\nVertical Units,V,,Threshold Used,1.65\n"
		",,,,\n,,,,\nLabel,GPIO,,Label,CLK,\nTIME,CH1,,TIME,D0\n");
	struct capture *c;
	struct edges x;

	(void)state;
	for (long i = 0; i < 300; i++) {
		double t = -2e-4 + (double)i * 2e-6;

		len += (size_t)sprintf(in + len, "%.6e,%.4f,,%.6e,%d\n", t, wave(i, 100), t,
				       (int)((i / 30) & 1));
	}
	c = open_str(in, "t.csv", NULL);
	assert_non_null(c);
	assert_string_equal(capture_info(c)->format, "tek-csv");
	assert_int_equal(capture_info(c)->n_channels, 2);
	assert_string_equal(capture_info(c)->channel_name, "CH1");
	x = edges_read(c);
	assert_int_equal(x.n, 2);
	edges_free(&x);
	capture_close(c);
	x = edges_of_str(in, "t.csv", "D0");
	assert_int_equal(x.n, 9);
	/* a digital column is 0/1 samples: the edge is the first sample at the
	 * new level (i = 30), as a logic analyzer reports it, not halfway */
	assert_int_equal(x.e[0].t_ps, (-200 + 60) * PS_PER_US);
	edges_free(&x);
}

static void tektronix_tds_key_value_columns_beside_the_data(void **state)
{
	char in[16384];
	size_t len = 0;
	static const char *const keys[] = { "Record Length,3.000000e+02", "Sample Interval,2.000000e-06",
					    "Trigger Point,1.000000e+02", "Source,CH2" };

	(void)state;
	for (long i = 0; i < 300; i++)
		len += (size_t)sprintf(in + len, "%s,,%.12f,%.5f,\n", i < 4 ? keys[i] : ",",
				       -2e-4 + (double)i * 2e-6, wave(i, 100));
	{
		struct capture *c = open_str(in, "tds.csv", NULL);
		struct edges x;

		assert_non_null(c);
		assert_string_equal(capture_info(c)->format, "tek-tds-csv");
		assert_string_equal(capture_info(c)->channel_name, "CH2");
		x = edges_read(c);
		assert_int_equal(x.n, 2);
		edges_free(&x);
		capture_close(c);
	}
}

static void an_irregular_time_column_is_used_as_printed(void **state)
{
	const char in[] = "Time(s),CH1(V)\n0.0,0\n1e-6,0\n2e-6,0\n10e-6,3.3\n11e-6,3.3\n"
			  "12e-6,3.3\n30e-6,0\n31e-6,0\n";
	struct edges x = edges_of_str(in, "irr.csv", NULL);

	(void)state;
	assert_int_equal(x.n, 2);
	assert_int_equal(x.e[0].t_ps, 6 * PS_PER_US);     /* halfway from 2 us to 10 us */
	assert_int_equal(x.e[1].t_ps, 21 * PS_PER_US);
	edges_free(&x);
}

static void malformed_scope_files_are_errors_with_their_line(void **state)
{
	const char bad[] = "X,CH1,Start,Increment,\nSequence,Volt,0.0,1.0e-06,\n0,0.0,\n1,3.3,\n2,volts,\n";
	const char no_header[] = "Model,MDO3014\nFirmware Version,1.20\n";

	(void)state;
	assert_null(open_str(bad, "bad.csv", NULL));
	assert_true(error_mentions("bad.csv:5:"));
	assert_null(open_str(no_header, "nohdr.csv", NULL));
	assert_true(error_mentions("TIME"));
}

/* ---- shared fixtures ---------------------------------------------------- */

static void fixture_rigol_matches_the_true_edges_within_a_sample(void **state)
{
	struct truth tr;
	struct capture *c;
	struct edges x;
	double worst;

	(void)state;
	SKIP_WITHOUT_FIXTURES();
	truth_load(&tr, 4);
	c = t_open(FIXTURES "/synth_1khz_j5us_rigol.csv", NULL);
	assert_non_null(c);
	assert_int_equal(capture_info(c)->resolution_ps, 2 * PS_PER_US);
	assert_int_equal(capture_info(c)->start_ps, -10 * CAPTURE_PS_PER_S / 1000);
	assert_int_equal(capture_info(c)->end_ps, 1190 * CAPTURE_PS_PER_S / 1000);
	x = edges_read(c);
	worst = edges_match_truth(&x, &tr, 1e9, 2e-6);
	print_message("rigol: worst edge error %.3g s\n", worst);
	assert_true(worst < 1e-6);   /* interpolation does much better than a sample */
	edges_free(&x);
	capture_close(c);
}

static void fixture_short_scope_files_match_the_true_edges(void **state)
{
	static const char *const files[] = {
		FIXTURES "/synth_1khz_j5us_keysight_short.csv",
		FIXTURES "/synth_1khz_j5us_siglent_short.csv",
		FIXTURES "/synth_1khz_j5us_tek_short.csv",
	};
	struct truth tr;

	(void)state;
	SKIP_WITHOUT_FIXTURES();
	truth_load(&tr, 4);
	for (size_t f = 0; f < 3; f++) {
		struct capture *c = t_open(files[f], NULL);
		struct edges x;
		double worst;

		assert_non_null(c);
		assert_int_equal(capture_info(c)->resolution_ps, 2 * PS_PER_US);
		assert_true(llabs(capture_info(c)->start_ps + 10 * CAPTURE_PS_PER_S / 1000) < PS_PER_NS);
		assert_true(llabs(capture_info(c)->end_ps - 40 * CAPTURE_PS_PER_S / 1000) < PS_PER_NS);
		x = edges_read(c);
		worst = edges_match_truth(&x, &tr, 0.04, 2e-6);
		assert_true(worst < 1e-6);
		edges_free(&x);
		capture_close(c);
	}
}

/* ---- records that end oddly, axes that lie ---------------------------- */

static void a_last_row_with_a_time_but_no_values_ends_the_data_with_a_note(void **state)
{
	/* what an Agilent MSO7000 writes at the end of a record */
	char in[8192];
	size_t len = (size_t)sprintf(in, "x-axis,1,2\nsecond,Volt,Volt\n");
	struct capture *c;
	const struct capture_info *inf;
	struct edges x;
	int noted = 0;

	(void)state;
	for (long i = 0; i < 100; i++)
		len += (size_t)sprintf(in + len, "%.6E,%.3f,0.0\n", (double)i * 1e-6, wave(i, 30));
	len += (size_t)sprintf(in + len, "1.000000E-04,,\n");
	c = open_str(in, "agilent.csv", "1");
	if (!c)
		fail_msg("%s", t_error());
	inf = capture_info(c);
	for (unsigned k = 0; k < inf->n_notes; k++)
		noted |= strstr(inf->notes[k], "data ends at line 103") != NULL;
	assert_true(noted);
	/* 100 samples: the row without values is not one */
	assert_int_equal(inf->end_ps, 100 * PS_PER_US);
	x = edges_read(c);
	assert_int_equal(x.n, 3);
	edges_free(&x);
	capture_close(c);
}

static void a_row_without_a_value_inside_the_data_is_a_missing_sample(void **state)
{
	/* Rigol: t = Start + X * Increment; rows 50 and 51 lost their value
	 * (",," and a line of separators): the edges after them keep their times */
	char in[8192], ref[8192];
	size_t len = (size_t)sprintf(in, "X,CH1,Start,Increment,\nSequence,Volt,0.0,1.0e-06,\n");
	size_t rl = (size_t)sprintf(ref, "%s", in);
	struct edges x, y;
	struct capture *c;
	const struct capture_info *inf;
	int noted = 0;

	(void)state;
	for (long i = 0; i < 200; i++) {
		rl += (size_t)sprintf(ref + rl, "%ld,%.3f,\n", i, wave(i, 30));
		if (i == 50)
			len += (size_t)sprintf(in + len, "%ld,,\n", i);
		else if (i == 51)
			len += (size_t)sprintf(in + len, ",,,\n");
		else
			len += (size_t)sprintf(in + len, "%ld,%.3f,\n", i, wave(i, 30));
	}
	c = open_str(in, "gap.csv", NULL);
	if (!c)
		fail_msg("%s", t_error());
	inf = capture_info(c);
	x = edges_read(c);
	/* counted as the rows are read: the note is there at the end */
	for (unsigned k = 0; k < inf->n_notes; k++)
		noted |= strstr(inf->notes[k], "missing=2 rows") != NULL;
	assert_true(noted);
	capture_close(c);
	y = edges_of_str(ref, "ref.csv", NULL);
	assert_int_equal(x.n, y.n);
	for (size_t k = 0; k < x.n; k++)
		assert_int_equal(x.e[k].t_ps, y.e[k].t_ps);
	assert_int_equal(x.e[x.n - 1].t_ps, y.e[y.n - 1].t_ps);
	edges_free(&x);
	edges_free(&y);
}

static void scope_times_that_go_backwards_or_stand_still_are_refused(void **state)
{
	char back[4096], still[4096], shuffled[4096];
	size_t lb = (size_t)sprintf(back, "Time,CH1\n");
	size_t ls = (size_t)sprintf(still, "Time,CH1\n");
	size_t lh = (size_t)sprintf(shuffled, "Time,CH1\n");

	(void)state;
	for (long i = 0; i < 200; i++) {
		/* one row (line 102) steps back by 3 samples */
		lb += (size_t)sprintf(back + lb, "%.7f,%.3f\n", (double)(i == 100 ? 97 : i) * 1e-6,
				      wave(i, 40));
		ls += (size_t)sprintf(still + ls, "0.0010000,%.3f\n", wave(i, 40));
	}
	for (long i = 0; i < 200; i++)
		lh += (size_t)sprintf(shuffled + lh, "%.7f,%.3f\n", (double)((i * 37) % 200) * 1e-6,
				      wave(i, 40));
	assert_null(open_str(back, "back.csv", NULL));
	assert_true(error_mentions("back.csv:102:"));
	assert_true(error_mentions("backwards"));
	assert_null(open_str(still, "still.csv", NULL));
	assert_true(error_mentions("does not advance"));
	assert_null(open_str(shuffled, "shuf.csv", NULL));
	assert_true(error_mentions("backwards"));
}

static void a_step_back_between_the_rows_sampled_at_open_is_found_while_reading(void **state)
{
	/* 300000 rows: the first pass samples some rows only; row 150001 (line
	 * 150003) steps back and is found when the edges are read */
	const long n = 300000;
	char *in = malloc(32 * (size_t)n);
	size_t len = (size_t)sprintf(in, "Time,CH1\n");
	struct capture *c;
	struct edges x;

	(void)state;
	for (long i = 0; i < n; i++)
		len += (size_t)sprintf(in + len, "%.7f,%.1f\n", (double)(i == 150001 ? i - 5 : i) * 1e-6,
				       (i / 1000) & 1 ? 3.3 : 0.0);
	c = open_str(in, "late.csv", "CH1");
	if (!c)
		fail_msg("%s", t_error());
	x = edges_read(c);
	assert_int_equal(x.result, -1);
	assert_true(error_mentions("late.csv:150003:"));
	assert_true(error_mentions("backwards"));
	edges_free(&x);
	capture_close(c);
	free(in);
}

static void absurd_rigol_start_and_increment_are_refused(void **state)
{
	static const char *const hdr[] = {
		"X,CH1,Start,Increment,\nSequence,Volt,0.0,-1.0e-06,\n",    /* backwards */
		"X,CH1,Start,Increment,\nSequence,Volt,0.0,0.0,\n",         /* standing */
		"X,CH1,Start,Increment,\nSequence,Volt,1e300,1.0e-06,\n",   /* far away */
		"X,CH1,Start,Increment,\nSequence,Volt,0.0,nan,\n",
		"CH1(V),t0 = 0s, tInc = -2e-06s,\n",
	};

	(void)state;
	for (size_t h = 0; h < sizeof(hdr) / sizeof(hdr[0]); h++) {
		char in[4096];
		size_t len = (size_t)sprintf(in, "%s", hdr[h]);

		for (long i = 0; i < 50; i++) {
			if (h == 4)   /* MSO5000 "Save Memory": values only */
				len += (size_t)sprintf(in + len, "%.3f,\n", wave(i, 10));
			else
				len += (size_t)sprintf(in + len, "%ld,%.3f,\n", i, wave(i, 10));
		}
		assert_null(open_str(in, "rigol.csv", NULL));
		assert_true(error_mentions("rigol.csv:"));
	}
}

static void a_01_table_with_a_rare_level_has_every_edge_at_its_sample(void **state)
{
	/* 20000 samples at 1 us of 0/1, three 30-sample pulses: 0.45 % high */
	const long n = 20000, starts[3] = { 3000, 9000, 17001 };
	size_t cap = 64 * (size_t)n, len;
	char *in = malloc(cap);
	struct edges x;

	(void)state;
	len = (size_t)sprintf(in, "Time,CH1\n");
	for (long i = 0; i < n; i++) {
		int v = 0;

		for (int k = 0; k < 3; k++)
			v |= i >= starts[k] && i < starts[k] + 30;
		len += (size_t)sprintf(in + len, "%.6f,%d\n", (double)i * 1e-6, v);
	}
	x = edges_of_str(in, "bits.csv", NULL);
	assert_int_equal(x.n, 6);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(x.e[2 * k].t_ps, starts[k] * PS_PER_US);
		assert_int_equal(x.e[2 * k].level, 1);
		assert_int_equal(x.e[2 * k + 1].t_ps, (starts[k] + 30) * PS_PER_US);
	}
	edges_free(&x);
	free(in);
}

static void an_analog_trace_with_one_short_pulse_finds_its_two_edges(void **state)
{
	/* 200000 samples of 0 V with +-10 mV noise and one 40-sample 3.3 V pulse
	 * (0.02 %): the subset the level finder sorts may not even hold it */
	const long n = 200000, at = 123457;
	char *in = malloc(24 * (size_t)n + 64);
	size_t len = (size_t)sprintf(in, "X,CH1,Start,Increment,\nSequence,Volt,0.0,1.0e-06,\n");
	uint32_t r = 12345;
	struct edges x;

	(void)state;
	for (long i = 0; i < n; i++) {
		double v = i >= at && i < at + 40 ? 3.3 : 0.0;

		r = r * 1103515245u + 12345u;
		v += ((double)(r >> 16 & 0x7fff) / 32767.0 - 0.5) * 0.02;
		len += (size_t)sprintf(in + len, "%ld,%.4f,\n", i, v);
	}
	x = edges_of_str(in, "rare.csv", NULL);
	assert_int_equal(x.n, 2);
	/* steps of one sample: the crossing is within a sample of the step */
	assert_true(llabs(x.e[0].t_ps - at * PS_PER_US) <= PS_PER_US);
	assert_true(llabs(x.e[1].t_ps - (at + 40) * PS_PER_US) <= PS_PER_US);
	edges_free(&x);
	free(in);
}

static void the_first_scope_channel_with_edges_is_found_in_one_pass(void **state)
{
	char in[65536];
	size_t len = (size_t)sprintf(in, "X,CH1,CH2,CH3,CH4,Start,Increment,\n"
					 "Sequence,Volt,Volt,Volt,Volt,0.0,1.0e-06,\n");
	struct capture *c;

	(void)state;
	for (long i = 0; i < 1000; i++)
		len += (size_t)sprintf(in + len, "%ld,0.01,0.02,-0.01,%.3f,\n", i, wave(i, 100));
	c = open_str(in, "four.csv", NULL);
	assert_non_null(c);
	assert_string_equal(capture_info(c)->channel_name, "CH4");
	assert_string_equal(capture_info(c)->channel_reason, "first channel with edges");
	capture_close(c);
}

static void a_row_of_a_million_empty_fields_is_called_what_it_is(void **state)
{
	size_t n = 1000000, len;
	char *in = malloc(n + 64);

	(void)state;
	len = (size_t)sprintf(in, "Time,CH1\n0.0,0\n");
	memset(in + len, ',', n);
	len += n;
	len += (size_t)sprintf(in + len, "1\n");
	in[len] = 0;
	assert_null(open_str(in, "wide.csv", NULL));
	assert_true(error_mentions("wide.csv:3:"));
	assert_true(error_mentions("more than 65536 fields"));
	free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rigol_ds1000z_time_is_start_plus_index_times_increment),
		cmocka_unit_test(semicolons_and_decimal_commas_give_the_same_edges),
		cmocka_unit_test(the_edge_is_interpolated_between_the_samples_around_the_threshold),
		cmocka_unit_test(noise_inside_the_hysteresis_band_makes_no_edges),
		cmocka_unit_test(overshoot_and_spikes_do_not_move_the_levels),
		cmocka_unit_test(a_threshold_and_hysteresis_from_the_user_are_used),
		cmocka_unit_test(a_flat_trace_has_no_edges_and_the_note_says_why),
		cmocka_unit_test(two_rigol_channels_default_to_the_first_with_edges),
		cmocka_unit_test(rigol_mso5000_memory_and_screen_layouts),
		cmocka_unit_test(siglent_preamble_and_bin2csv_variants),
		cmocka_unit_test(keysight_two_header_rows_and_numbered_channels),
		cmocka_unit_test(tektronix_long_header_with_an_analog_and_a_digital_block),
		cmocka_unit_test(tektronix_tds_key_value_columns_beside_the_data),
		cmocka_unit_test(an_irregular_time_column_is_used_as_printed),
		cmocka_unit_test(malformed_scope_files_are_errors_with_their_line),
		cmocka_unit_test(fixture_rigol_matches_the_true_edges_within_a_sample),
		cmocka_unit_test(fixture_short_scope_files_match_the_true_edges),
		cmocka_unit_test(a_last_row_with_a_time_but_no_values_ends_the_data_with_a_note),
		cmocka_unit_test(a_row_without_a_value_inside_the_data_is_a_missing_sample),
		cmocka_unit_test(scope_times_that_go_backwards_or_stand_still_are_refused),
		cmocka_unit_test(a_step_back_between_the_rows_sampled_at_open_is_found_while_reading),
		cmocka_unit_test(absurd_rigol_start_and_increment_are_refused),
		cmocka_unit_test(a_01_table_with_a_rare_level_has_every_edge_at_its_sample),
		cmocka_unit_test(an_analog_trace_with_one_short_pulse_finds_its_two_edges),
		cmocka_unit_test(the_first_scope_channel_with_edges_is_found_in_one_pass),
		cmocka_unit_test(a_row_of_a_million_empty_fields_is_called_what_it_is),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
