/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the sigrok session importer (src/lab/capture/capture_sr.c): zips built here
 * (stored and deflated chunks, numeric order), corruption, the fixture. */
#include "capture_test_util.h"

static const char metadata[] =
	"[global]\nsigrok version=0.5.2\n\n[device 1]\ncapturefile=logic-1\n"
	"total probes=10\nsamplerate=1 MHz\ntotal analog=0\n"
	"probe1=D0\nprobe2=D1\nprobe3=D2\nprobe4=D3\nprobe5=D4\nprobe6=D5\nprobe7=D6\n"
	"probe8=D7\nprobe9=CLK\nprobe10=GPIO\nunitsize=2\n";

/* Samples where GPIO (bit 9) toggles every @half samples starting high at
 * sample @half, spread over @nchunks chunks named logic-1-1.. */
static size_t make_session(unsigned char **zip, size_t samples, unsigned half, int nchunks,
			   int deflate, int shuffle)
{
	uint16_t *s = malloc(samples * sizeof(*s));
	struct zip_in in[32];
	size_t per = samples / (size_t)nchunks, len;
	char names[32][24];
	int k = 0;

	for (size_t i = 0; i < samples; i++)
		s[i] = (uint16_t)(((i / half) & 1) << 9 | (i & 0xff));
	in[k++] = (struct zip_in){ "version", "2", 1, 0 };
	in[k++] = (struct zip_in){ "metadata", metadata, strlen(metadata), deflate };
	for (int c = 0; c < nchunks; c++) {
		int idx = shuffle ? nchunks - 1 - c : c;
		size_t from = (size_t)idx * per, n = idx == nchunks - 1 ? samples - from : per;

		snprintf(names[idx], sizeof(names[idx]), "logic-1-%d", idx + 1);
		in[k++] = (struct zip_in){ names[idx], s + from, n * 2, deflate };
	}
	len = zip_build(in, (size_t)k, zip);
	free(s);
	return len;
}

static void a_session_gives_the_probe_edges_at_sample_times(void **state)
{
	unsigned char *zip;
	size_t len = make_session(&zip, 1000, 100, 1, 1, 0);
	struct capture_opts o = { .channel = "GPIO" };
	struct capture *c = t_open_mem(zip, len, "s.sr", &o);
	const struct capture_info *inf;
	struct edges x;

	(void)state;
	assert_non_null(c);
	inf = capture_info(c);
	assert_string_equal(inf->format, "sigrok-sr");
	assert_int_equal(inf->n_channels, 10);
	assert_string_equal(inf->channel_name, "GPIO");
	assert_int_equal(inf->resolution_ps, PS_PER_US);
	assert_int_equal(inf->end_ps, 1000 * PS_PER_US);
	assert_int_equal(inf->initial_level, 0);
	x = edges_read(c);
	assert_int_equal(x.n, 9);
	for (size_t i = 0; i < x.n; i++) {
		assert_int_equal(x.e[i].sample, (int64_t)(i + 1) * 100);
		assert_int_equal(x.e[i].t_ps, (int64_t)(i + 1) * 100 * PS_PER_US);
		assert_int_equal(x.e[i].level, (int)((i + 1) & 1));
	}
	edges_free(&x);
	capture_close(c);
	free(zip);
}

static void chunks_are_read_in_numeric_order_whatever_the_zip_order(void **state)
{
	unsigned char *a, *b;
	size_t la = make_session(&a, 12000, 37, 12, 1, 0);
	size_t lb = make_session(&b, 12000, 37, 12, 0, 1);  /* stored, logic-1-12 first */
	struct capture_opts o = { .channel = "9" };
	struct capture *ca = t_open_mem(a, la, "a.sr", &o);
	struct capture *cb = t_open_mem(b, lb, "b.sr", &o);
	struct edges xa, xb;

	(void)state;
	assert_non_null(ca);
	assert_non_null(cb);
	/* "9" is the index: no probe name ends in 9 */
	assert_string_equal(capture_info(ca)->channel_name, "GPIO");
	xa = edges_read(ca);
	xb = edges_read(cb);
	assert_int_equal(xa.n, 12000 / 37);
	assert_int_equal(xb.n, xa.n);
	assert_memory_equal(xa.e, xb.e, xa.n * sizeof(*xa.e));
	for (size_t i = 0; i < xa.n; i++)
		assert_int_equal(xa.e[i].sample, (int64_t)(i + 1) * 37);
	edges_free(&xa);
	edges_free(&xb);
	capture_close(ca);
	capture_close(cb);
	free(a);
	free(b);
}

static void low_probes_in_a_two_byte_sample_are_found_too(void **state)
{
	unsigned char *zip;
	size_t len = make_session(&zip, 600, 1000, 3, 1, 0);
	struct capture_opts o = { .channel = "D7" };
	struct capture *c = t_open_mem(zip, len, "s.sr", &o);
	struct edges x;

	(void)state;
	assert_non_null(c);
	x = edges_read(c);
	/* D7 = bit 7 of the counter: toggles every 128 samples */
	assert_int_equal(x.n, 4);
	assert_int_equal(x.e[0].sample, 128);
	edges_free(&x);
	capture_close(c);
	free(zip);
}

static void corrupt_or_truncated_sessions_are_errors_not_crashes(void **state)
{
	unsigned char *zip;
	size_t len = make_session(&zip, 4000, 100, 4, 1, 0);
	struct capture_opts o = { .channel = "GPIO", .format = "sr" };
	struct capture *c;
	struct edges x;

	(void)state;
	/* cut anywhere: no end-of-directory record, or data out of bounds */
	for (size_t cut = 1; cut < len; cut += len / 37 + 1) {
		c = t_open_mem(zip, cut, "cut.sr", &o);
		if (c) {
			x = edges_read(c);
			edges_free(&x);
			capture_close(c);
		}
	}
	assert_null(t_open_mem(zip, len - 10, "cut.sr", &o));
	assert_true(error_mentions("cut.sr"));
	/* a flipped byte inside the compressed data: deflate or CRC error */
	for (size_t at = 120; at < len - 200; at += 97) {
		zip[at] ^= 0x55;
		c = t_open_mem(zip, len, "flip.sr", &o);
		if (c) {
			x = edges_read(c);
			edges_free(&x);
			capture_close(c);
		}
		zip[at] ^= 0x55;
	}
	free(zip);
}

static void a_zip_without_metadata_is_not_a_session(void **state)
{
	struct zip_in in[] = { { "readme.txt", "hello", 5, 0 } };
	unsigned char *zip;
	size_t len = zip_build(in, 1, &zip);

	(void)state;
	assert_null(t_open_mem(zip, len, "other.zip", NULL));
	assert_true(error_mentions("metadata"));
	free(zip);
}

static void a_session_without_channels_says_so(void **state)
{
	const char md[] = "[device 1]\ncapturefile=logic-1\ntotal probes=0\nsamplerate=1 kHz\n";
	struct zip_in in[] = { { "version", "2", 1, 0 }, { "metadata", md, sizeof(md) - 1, 1 } };
	unsigned char *zip;
	size_t len = zip_build(in, 2, &zip);

	(void)state;
	assert_null(t_open_mem(zip, len, "a.sr", NULL));
	assert_true(error_mentions("no channels"));
	free(zip);
}

static void fixture_session_matches_the_reference_sample_indices(void **state)
{
	static long ref[4096];
	struct capture_opts o = { .channel = "D2" };
	struct capture *c;
	struct edges x;
	size_t n;

	(void)state;
	SKIP_WITHOUT_FIXTURES();
	n = reference_indices(ref, 4096);
	c = t_open(FIXTURES "/demo_inc8k.sr", &o);
	assert_non_null(c);
	assert_int_equal(capture_info(c)->end_ps, CAPTURE_PS_PER_S / 2);
	x = edges_read(c);
	assert_int_equal(x.n, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(x.e[i].sample, ref[i]);
	edges_free(&x);
	capture_close(c);
}

/* ---- every session sigrok reads ---------------------------------------- */

/* The edges of bit @bit in @n samples of @us bytes, computed here from the
 * samples themselves: sample index of each change. */
static size_t expected_edges(const unsigned char *smp, size_t n, unsigned us, unsigned bit,
			     int64_t *idx, size_t max)
{
	size_t k = 0;

	for (size_t i = 1; i < n && k < max; i++) {
		int a = (smp[(i - 1) * us + bit / 8] >> (bit % 8)) & 1;
		int b = (smp[i * us + bit / 8] >> (bit % 8)) & 1;

		if (a != b)
			idx[k++] = (int64_t)i;
	}
	return k;
}

/* n / rate in ps, rounded half up, for n * 1e12 < 2^63 */
static int64_t ps_of(int64_t n, int64_t rate)
{
	return (n * CAPTURE_PS_PER_S + rate / 2) / rate;
}

/* A session of one logic chunk (named @chunk) and the given metadata. */
static size_t session_of(unsigned char **zip, const char *version, const char *md,
			 const char *chunk, const void *data, size_t len)
{
	struct zip_in in[3];
	size_t k = 0;

	if (version)
		in[k++] = (struct zip_in){ "version", version, strlen(version), 0 };
	in[k++] = (struct zip_in){ "metadata", md, strlen(md), 1 };
	in[k++] = (struct zip_in){ chunk, data, len, 1 };
	return zip_build(in, k, zip);
}

static void format_1_sessions_with_blanks_around_equals_read_like_format_2(void **state)
{
	/* what sigrok 0.2 wrote: [device 1], capturefile = logic-1, probeN = name,
	 * total probes = N, one data file without a chunk number */
	const char md1[] = "[global]\nsigrok version = 0.2.0\n\n[device 1]\ndriver = demo\n"
			   "capturefile = logic-1\nunitsize = 1\ntotal probes = 8\n"
			   "samplerate = 200 kHz\nprobe1 = D0\nprobe2 = D1\nprobe3 = GPIO\n";
	const char md2[] = "[global]\r\nsigrok version=0.5.2\r\n[device 1]\r\ncapturefile=logic-1\r\n"
			   "total probes=3\r\nsamplerate=200 kHz\r\nprobe1=D0\r\nprobe2=D1\r\n"
			   "probe3=GPIO\r\nunitsize=1\r\n";
	unsigned char smp[3000], *z1, *z2;
	int64_t want[1024];
	size_t nw, l1, l2;
	struct capture_opts o = { .channel = "GPIO" };
	struct capture *c1, *c2;
	struct edges x1, x2;

	(void)state;
	for (size_t i = 0; i < sizeof(smp); i++)
		smp[i] = (unsigned char)(((i / 7) & 1) << 2 | ((i / 3) & 1));
	nw = expected_edges(smp, sizeof(smp), 1, 2, want, 1024);
	l1 = session_of(&z1, "1", md1, "logic-1", smp, sizeof(smp));
	l2 = session_of(&z2, "2", md2, "logic-1-1", smp, sizeof(smp));
	c1 = t_open_mem(z1, l1, "v1.sr", &o);
	if (!c1)
		fail_msg("format 1: %s", t_error());
	c2 = t_open_mem(z2, l2, "v2.sr", &o);
	if (!c2)
		fail_msg("format 2: %s", t_error());
	assert_int_equal(capture_info(c1)->n_channels, 8);
	assert_true(capture_info(c1)->samplerate_hz == 200000.0);
	x1 = edges_read(c1);
	x2 = edges_read(c2);
	assert_int_equal(x1.n, nw);
	assert_int_equal(x2.n, nw);
	for (size_t i = 0; i < nw; i++) {
		assert_int_equal(x1.e[i].sample, want[i]);
		assert_int_equal(x1.e[i].t_ps, ps_of(want[i], 200000));
		assert_int_equal(x2.e[i].t_ps, x1.e[i].t_ps);
	}
	edges_free(&x1);
	edges_free(&x2);
	capture_close(c1);
	capture_close(c2);
	free(z1);
	free(z2);
}

static void sample_rates_are_read_as_sigrok_reads_them(void **state)
{
	static const struct {
		const char *text;
		int64_t hz;
	} rates[] = {
		{ "1MHz", 1000000 }, { "1.515151 MHz", 1515151 }, { "12.500000 MHz", 12500000 },
		{ "2 mHz", 2000000 },             /* mis-cased in real files: sigrok reads MHz */
		{ "1.5151519 MHz", 1515151 },     /* whole Hz, truncated as sigrok does */
		{ "256 kHz", 256000 }, { "5 Hz", 5 }, { "5", 5 }, { "3 GHz", 3000000000LL },
		{ "100 khz", 100000 }, { " 1 MHz ", 1000000 },
	};
	unsigned char smp[64], *zip;
	int64_t want[64];
	size_t nw;

	(void)state;
	for (size_t i = 0; i < sizeof(smp); i++)
		smp[i] = (unsigned char)((i * i / 5) & 1);
	nw = expected_edges(smp, sizeof(smp), 1, 0, want, 64);
	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
		char md[256];
		size_t len;
		struct capture *c;
		struct edges x;

		snprintf(md, sizeof(md), "[device 1]\ncapturefile=logic-1\ntotal probes=1\n"
			 "samplerate=%s\nprobe1=D0\nunitsize=1\n", rates[r].text);
		len = session_of(&zip, "2", md, "logic-1-1", smp, sizeof(smp));
		c = t_open_mem(zip, len, "rate.sr", NULL);
		if (!c)
			fail_msg("'%s': %s", rates[r].text, t_error());
		assert_true(capture_info(c)->samplerate_hz == (double)rates[r].hz);
		x = edges_read(c);
		assert_int_equal(x.n, nw);
		for (size_t i = 0; i < nw; i++)
			assert_int_equal(x.e[i].t_ps, ps_of(want[i], rates[r].hz));
		edges_free(&x);
		capture_close(c);
		free(zip);
	}
}

static void probes_beyond_the_sample_bits_are_left_out_with_a_note(void **state)
{
	const char md[] = "[device 1]\ncapturefile=logic-1\ntotal probes=16\nsamplerate=1 MHz\n"
			  "probe1=D0\nprobe8=D7\nprobe10=D9\nunitsize=1\n";
	unsigned char smp[100], *zip;
	size_t len;
	struct capture *c;
	struct capture_opts o = { .channel = "D7" };

	(void)state;
	for (size_t i = 0; i < sizeof(smp); i++)
		smp[i] = (unsigned char)(((i / 3) & 1) << 7);
	len = session_of(&zip, "2", md, "logic-1-1", smp, sizeof(smp));
	c = t_open_mem(zip, len, "p.sr", &o);
	if (!c)
		fail_msg("%s", t_error());
	assert_int_equal(capture_info(c)->n_channels, 8);
	assert_int_equal(capture_info(c)->n_notes >= 1, 1);
	assert_non_null(strstr(capture_info(c)->notes[0], "probes 9..16"));
	capture_close(c);
	o.channel = "D9";
	assert_null(t_open_mem(zip, len, "p.sr", &o));
	assert_true(error_mentions("no channel 'D9'"));
	free(zip);
}

static void unnamed_probes_keep_sigrok_names_and_are_never_chosen_automatically(void **state)
{
	/* probe 3 has no name: sigrok calls it "2" and leaves it disabled */
	const char md[] = "[device 1]\ncapturefile=logic-1\ntotal probes=5\nsamplerate=1 MHz\n"
			  "probe1=D0\nprobe2=D1\nprobe4=D3\nprobe5=GPIO\nunitsize=1\n";
	unsigned char smp[200], *zip;
	size_t len;
	struct capture *c;
	struct capture_opts o = { .channel = "2" };

	(void)state;
	for (size_t i = 0; i < sizeof(smp); i++)
		smp[i] = (unsigned char)(((i / 2) & 1) << 2 | ((i / 10) & 1) << 4);
	len = session_of(&zip, "2", md, "logic-1-1", smp, sizeof(smp));
	c = t_open_mem(zip, len, "u.sr", NULL);
	if (!c)
		fail_msg("%s", t_error());
	assert_string_equal(capture_info(c)->channel_names[2], "2");
	assert_string_equal(capture_info(c)->channel_name, "GPIO");
	assert_string_equal(capture_info(c)->channel_reason, "first channel with edges");
	capture_close(c);
	c = t_open_mem(zip, len, "u.sr", &o);  /* asked for by name: read */
	assert_non_null(c);
	assert_string_equal(capture_info(c)->channel_name, "2");
	capture_close(c);
	free(zip);
}

/* A capture long enough to wrap femtoseconds: 5 Hz for a week and a bit. */
static void a_week_at_5_hz_keeps_every_edge_exact(void **state)
{
	const size_t n = 5 * 86400 * 7 + 5 * 3600;    /* 7 days 1 hour */
	unsigned char *smp = malloc(n), *zip;
	int64_t *want = malloc(4096 * sizeof(*want));
	size_t nw, len;
	const char md[] = "[device 1]\ncapturefile=logic-1\ntotal probes=1\nsamplerate=5 Hz\n"
			  "probe1=D0\nunitsize=1\n";
	struct capture *c;
	struct edges x;

	(void)state;
	assert_non_null(smp);
	for (size_t i = 0; i < n; i++)
		smp[i] = (unsigned char)((i / 1801) & 1);
	nw = expected_edges(smp, n, 1, 0, want, 4096);
	len = session_of(&zip, "2", md, "logic-1-1", smp, n);
	c = t_open_mem(zip, len, "week.sr", NULL);
	if (!c)
		fail_msg("%s", t_error());
	assert_int_equal(capture_info(c)->end_ps, (int64_t)n * 200000000000LL);
	x = edges_read(c);
	assert_int_equal(x.n, nw);
	for (size_t i = 0; i < nw; i++) {
		assert_int_equal(x.e[i].t_ps, want[i] * 200000000000LL);
		assert_true(x.e[i].t_ps > 0);
	}
	/* the last edge is more than a week in: never wrapped */
	assert_true(capture_ps_to_s(x.e[nw - 1].t_ps) > 7 * 86400.0);
	edges_free(&x);
	capture_close(c);
	free(zip);
	free(smp);
	free(want);
}

static void a_3_ghz_capture_keeps_sub_nanosecond_times(void **state)
{
	const char md[] = "[device 1]\ncapturefile=logic-1\ntotal probes=1\nsamplerate=3 GHz\n"
			  "probe1=D0\nunitsize=1\n";
	unsigned char smp[40] = { 0, 1, 0, 0, 1, 1, 1, 0 }, *zip;
	size_t len = session_of(&zip, "2", md, "logic-1-1", smp, sizeof(smp));
	struct edges x;
	struct capture *c = t_open_mem(zip, len, "fast.sr", NULL);

	(void)state;
	assert_non_null(c);
	assert_int_equal(capture_info(c)->resolution_ps, 333);
	x = edges_read(c);
	assert_int_equal(x.n, 4);
	assert_int_equal(x.e[0].t_ps, 333);     /* 1 / 3 GHz */
	assert_int_equal(x.e[1].t_ps, 667);     /* 2 / 3 GHz, rounded */
	assert_int_equal(x.e[2].t_ps, 1333);
	assert_int_equal(x.e[3].t_ps, 2333);
	edges_free(&x);
	capture_close(c);
	free(zip);
}

static void a_mixed_session_reads_its_logic_and_its_analog_channels(void **state)
{
	const char md[] = "[device 1]\ncapturefile=logic-1\ntotal probes=2\nsamplerate=1 MHz\n"
			  "total analog=1\nprobe1=D0\nprobe2=D1\nanalog3=A0\nunitsize=1\n";
	unsigned char smp[400], an[400 * 4], *zip;
	struct zip_in in[4];
	size_t len;
	struct capture_opts o = { .channel = "A0" };
	struct capture *c;
	struct edges x;

	(void)state;
	for (size_t i = 0; i < 400; i++) {
		/* A0: 0 V / 3.3 V every 50 samples, with one sample at 1.1 V on each
		 * rise: the threshold (1.65 V) is crossed at 0.5 / (3.3 - 1.1) past it */
		float v = (i / 50) & 1 ? ((i % 50) ? 3.3f : 1.1f) : 0.0f;
		uint32_t u;

		smp[i] = (unsigned char)((i / 25) & 1) << 1;
		memcpy(&u, &v, 4);
		for (int b = 0; b < 4; b++)
			an[i * 4 + (size_t)b] = (unsigned char)(u >> (8 * b));
	}
	in[0] = (struct zip_in){ "version", "2", 1, 0 };
	in[1] = (struct zip_in){ "metadata", md, strlen(md), 1 };
	in[2] = (struct zip_in){ "logic-1-1", smp, sizeof(smp), 1 };
	in[3] = (struct zip_in){ "analog-1-3-1", an, sizeof(an), 1 };
	len = zip_build(in, 4, &zip);
	/* the logic channels work as in a logic-only session */
	c = t_open_mem(zip, len, "mix.sr", NULL);
	if (!c)
		fail_msg("%s", t_error());
	assert_int_equal(capture_info(c)->n_channels, 3);
	assert_string_equal(capture_info(c)->channel_name, "D1");
	x = edges_read(c);
	assert_int_equal(x.n, 15);
	assert_int_equal(x.e[0].t_ps, 25 * PS_PER_US);
	edges_free(&x);
	capture_close(c);
	/* the analog channel through the threshold, interpolated */
	c = t_open_mem(zip, len, "mix.sr", &o);
	if (!c)
		fail_msg("%s", t_error());
	assert_true(capture_info(c)->analog);
	x = edges_read(c);
	assert_int_equal(x.n, 7);
	/* rise at 50: from 0 V (49) to 1.1 V (50) to 3.3 V (51): crossing 1.65 V
	 * at 50 + 0.55 / 2.2 = 50.25 samples */
	assert_int_equal(x.e[0].level, 1);
	assert_int_equal(x.e[0].t_ps, 50250000);
	/* fall at 100: 3.3 V (99) to 0 V (100): halfway */
	assert_int_equal(x.e[1].t_ps, 99500000);
	edges_free(&x);
	capture_close(c);
	free(zip);
}

/* Rewrite a zip's central directory with entry @dup listed twice (the second
 * copy renamed @name, same length): two entries over one deflate stream. */
static size_t zip_dup_entry(unsigned char *z, size_t len, unsigned dup, const char *name,
			    unsigned char **out)
{
	size_t eocd = len - 22, cd = z[eocd + 16] | z[eocd + 17] << 8 | (size_t)z[eocd + 18] << 16;
	size_t cdsize = z[eocd + 12] | z[eocd + 13] << 8, p = cd, e = 0, elen = 0;
	unsigned n = z[eocd + 10], i;
	unsigned char *b;

	for (i = 0; i <= dup; i++) {
		size_t l = 46 + (size_t)(z[p + 28] | z[p + 29] << 8) + (z[p + 30] | z[p + 31] << 8) +
			   (z[p + 32] | z[p + 33] << 8);

		e = p;
		elen = l;
		p += l;
	}
	b = malloc(len + elen);
	memcpy(b, z, cd + cdsize);
	memcpy(b + cd + cdsize, z + e, elen);
	memcpy(b + cd + cdsize + 46, name, strlen(name));
	memcpy(b + cd + cdsize + elen, z + eocd, 22);
	put16(b + cd + cdsize + elen + 8, n + 1);
	put16(b + cd + cdsize + elen + 10, n + 1);
	put32(b + cd + cdsize + elen + 12, (uint32_t)(cdsize + elen));
	*out = b;
	return len + elen;
}

static void zip_bombs_are_refused_and_real_compression_is_not(void **state)
{
	const char md[] = "[device 1]\ncapturefile=logic-1\ntotal probes=1\nsamplerate=1 MHz\n"
			  "probe1=D0\nunitsize=1\n";
	const size_t n = 4 << 20;
	unsigned char *smp = calloc(n, 1), *zip, *bomb;
	size_t len, blen;
	struct capture *c;
	struct edges x;

	(void)state;
	/* 4 MiB of a slow wave: deflate packs it about 1000:1, and that is fine */
	for (size_t i = n / 2; i < n; i++)
		smp[i] = 1;
	len = session_of(&zip, "2", md, "logic-1-1", smp, n);
	assert_true(len < n / 500);
	c = t_open_mem(zip, len, "slow.sr", NULL);
	if (!c)
		fail_msg("%s", t_error());
	x = edges_read(c);
	assert_int_equal(x.n, 1);
	assert_int_equal(x.e[0].sample, (int64_t)(n / 2));
	edges_free(&x);
	capture_close(c);
	/* one deflate stream listed twice: refused, not inflated twice */
	blen = zip_dup_entry(zip, len, 2, "logic-1-2", &bomb);
	assert_null(t_open_mem(bomb, blen, "bomb.sr", NULL));
	assert_true(error_mentions("overlap"));
	free(bomb);
	/* a directory claiming more than deflate can give */
	{
		size_t eocd = len - 22, p = zip[eocd + 16] | zip[eocd + 17] << 8 |
					   (size_t)zip[eocd + 18] << 16;

		for (int k = 0; k < 2; k++)
			p += 46 + (size_t)(zip[p + 28] | zip[p + 29] << 8);
		put32(zip + p + 24, 0x7fffffffu);
		assert_null(t_open_mem(zip, len, "lie.sr", NULL));
		assert_true(error_mentions("more than deflate can produce"));
	}
	free(zip);
	free(smp);
}

static void automatic_choice_finds_the_one_probe_of_512_that_toggles(void **state)
{
	const unsigned us = 64, nprobes = 512;
	const size_t n = 20000;
	unsigned char *smp = calloc(n, us), *zip;
	char *md = malloc(nprobes * 16 + 256);
	size_t len, off;
	struct capture *c;

	(void)state;
	off = (size_t)sprintf(md, "[device 1]\ncapturefile=logic-1\ntotal probes=%u\n"
			      "samplerate=1 MHz\nunitsize=%u\n", nprobes, us);
	for (unsigned k = 1; k <= nprobes; k++)
		off += (size_t)sprintf(md + off, "probe%u=P%u\n", k, k - 1);
	for (size_t i = n / 2; i < n; i++)
		smp[i * us + us - 1] = 0x80;   /* only P511, halfway */
	len = session_of(&zip, "2", md, "logic-1-1", smp, n * us);
	c = t_open_mem(zip, len, "wide.sr", NULL);
	if (!c)
		fail_msg("%s", t_error());
	assert_string_equal(capture_info(c)->channel_name, "P511");
	assert_string_equal(capture_info(c)->channel_reason, "first channel with edges");
	capture_close(c);
	free(zip);
	free(md);
	free(smp);
}

static int has_note(const struct capture_info *ci, const char *needle)
{
	for (unsigned i = 0; i < ci->n_notes; i++)
		if (strstr(ci->notes[i], needle))
			return 1;
	return 0;
}

/* Which chunks hold the data is sigrok's rule (its session driver opens
 * entries by name): a bare "logic-1" alone, else "logic-1-1", "-2", ... up
 * to the first missing number. A session that lost chunk 2 is read up to
 * the hole (with a note), not joined across it; one that lost its data is
 * refused, not read as 0 edges. */
static void chunks_are_the_ones_sigrok_reads_and_lost_data_is_refused(void **state)
{
	const char md[] = "[device 1]\ncapturefile=logic-1\ntotal probes=1\nsamplerate=1 MHz\n"
			  "probe1=D0\nunitsize=1\n";
	unsigned char a[100], b[100], *zip;
	struct zip_in in[5];
	size_t len;
	struct capture *c;
	struct edges x;
	const struct capture_info *ci;

	(void)state;
	for (size_t i = 0; i < 100; i++) {
		a[i] = (unsigned char)((i / 10) & 1);   /* edges at 10, 20, ..., 90 */
		b[i] = (unsigned char)((i / 7) & 1);
	}
	in[0] = (struct zip_in){ "version", "2", 1, 0 };
	in[1] = (struct zip_in){ "metadata", md, strlen(md), 1 };
	/* chunks 1 and 3: chunk 2 is lost; only chunk 1 is the capture */
	in[2] = (struct zip_in){ "logic-1-1", a, sizeof(a), 1 };
	in[3] = (struct zip_in){ "logic-1-3", b, sizeof(b), 1 };
	len = zip_build(in, 4, &zip);
	c = t_open_mem(zip, len, "gap.sr", NULL);
	if (!c)
		fail_msg("%s", t_error());
	ci = capture_info(c);
	assert_int_equal(ci->end_ps, 100 * PS_PER_US);
	x = edges_read(c);
	assert_int_equal(x.result, 0);
	assert_int_equal(x.n, 9);
	assert_int_equal(x.e[8].t_ps, 90 * PS_PER_US);
	assert_true(has_note(ci, "'logic-1-3' not read: chunk 2 is missing"));
	edges_free(&x);
	capture_close(c);
	free(zip);
	/* a bare "logic-1" is the data alone, whatever chunks sit beside it */
	in[2] = (struct zip_in){ "logic-1-1", b, sizeof(b), 1 };
	in[3] = (struct zip_in){ "logic-1", a, sizeof(a), 1 };
	len = zip_build(in, 4, &zip);
	c = t_open_mem(zip, len, "both.sr", NULL);
	if (!c)
		fail_msg("%s", t_error());
	assert_int_equal(capture_info(c)->end_ps, 100 * PS_PER_US);
	x = edges_read(c);
	assert_int_equal(x.n, 9);
	assert_int_equal(x.e[0].t_ps, 10 * PS_PER_US);
	edges_free(&x);
	capture_close(c);
	free(zip);
	/* no chunk 1 ("logic-1-01" is not it, sigrok never opens it), no chunk
	 * at all, or a capturefile with no entry: refused, naming what is missing */
	in[2] = (struct zip_in){ "logic-1-01", a, sizeof(a), 1 };
	in[3] = (struct zip_in){ "logic-1-2", b, sizeof(b), 1 };
	len = zip_build(in, 4, &zip);
	assert_null(t_open_mem(zip, len, "lost.sr", NULL));
	assert_true(error_mentions("lost.sr: no logic data: no 'logic-1' or 'logic-1-1' entry"));
	free(zip);
	len = zip_build(in, 2, &zip);
	assert_null(t_open_mem(zip, len, "none.sr", NULL));
	assert_true(error_mentions("no logic data"));
	free(zip);
	/* two entries of one name: which one is the data? */
	in[2] = (struct zip_in){ "logic-1-1", a, sizeof(a), 1 };
	in[3] = (struct zip_in){ "logic-1-1", b, sizeof(b), 1 };
	len = zip_build(in, 4, &zip);
	assert_null(t_open_mem(zip, len, "dup.sr", NULL));
	assert_true(error_mentions("two zip entries named 'logic-1-1'"));
	free(zip);
	/* an analog channel without its data */
	{
		const char amd[] = "[device 1]\nsamplerate=1 MHz\ntotal analog=1\nanalog1=A0\n";

		in[1] = (struct zip_in){ "metadata", amd, strlen(amd), 1 };
		len = zip_build(in, 2, &zip);
		assert_null(t_open_mem(zip, len, "an.sr", NULL));
		assert_true(error_mentions("no data for analog channel 'A0': no 'analog-1-1-1'"));
		free(zip);
	}
}

/* A .sr float that is inf or nan is a missing sample (an overrange reading),
 * never a level: one inf once made the levels 0 V and inf V and the
 * capture 0 edges with exit 0. */
static void non_finite_analog_samples_are_skipped_not_levels(void **state)
{
	const char md[] = "[device 1]\nsamplerate=1 MHz\ntotal analog=1\nanalog1=A0\n";
	unsigned char an[1000 * 4], *zip;
	struct zip_in in[3];
	size_t len;
	struct capture *c;
	struct edges x;

	(void)state;
	for (size_t i = 0; i < 1000; i++) {
		float v = (i / 50) & 1 ? 3.3f : 0.0f;
		uint32_t u;

		if (i % 97 == 3)
			v = INFINITY;
		if (i % 89 == 5)
			v = NAN;
		memcpy(&u, &v, 4);
		for (int b = 0; b < 4; b++)
			an[i * 4 + (size_t)b] = (unsigned char)(u >> (8 * b));
	}
	in[0] = (struct zip_in){ "version", "2", 1, 0 };
	in[1] = (struct zip_in){ "metadata", md, strlen(md), 1 };
	in[2] = (struct zip_in){ "analog-1-1-1", an, sizeof(an), 1 };
	len = zip_build(in, 3, &zip);
	c = t_open_mem(zip, len, "inf.sr", NULL);
	if (!c)
		fail_msg("%s", t_error());
	x = edges_read(c);
	assert_int_equal(x.result, 0);
	assert_int_equal(x.n, 19);
	for (size_t i = 0; i < x.n; i++) {
		/* each edge is halfway between samples k-1 and k = 50, 100, ...
		 * (0 V to 3.3 V), or, where sample k is missing (100, 450), at the
		 * next one */
		int64_t k = (int64_t)(i + 1) * 50;
		int missing = k % 97 == 3 || k % 89 == 5;

		assert_int_equal(x.e[i].t_ps, missing ? (k + 1) * PS_PER_US : k * PS_PER_US - PS_PER_US / 2);
		assert_int_equal(x.e[i].level, (i + 1) & 1);
	}
	edges_free(&x);
	capture_close(c);
	free(zip);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_session_gives_the_probe_edges_at_sample_times),
		cmocka_unit_test(chunks_are_read_in_numeric_order_whatever_the_zip_order),
		cmocka_unit_test(low_probes_in_a_two_byte_sample_are_found_too),
		cmocka_unit_test(corrupt_or_truncated_sessions_are_errors_not_crashes),
		cmocka_unit_test(a_zip_without_metadata_is_not_a_session),
		cmocka_unit_test(a_session_without_channels_says_so),
		cmocka_unit_test(fixture_session_matches_the_reference_sample_indices),
		cmocka_unit_test(format_1_sessions_with_blanks_around_equals_read_like_format_2),
		cmocka_unit_test(sample_rates_are_read_as_sigrok_reads_them),
		cmocka_unit_test(probes_beyond_the_sample_bits_are_left_out_with_a_note),
		cmocka_unit_test(unnamed_probes_keep_sigrok_names_and_are_never_chosen_automatically),
		cmocka_unit_test(a_week_at_5_hz_keeps_every_edge_exact),
		cmocka_unit_test(a_3_ghz_capture_keeps_sub_nanosecond_times),
		cmocka_unit_test(a_mixed_session_reads_its_logic_and_its_analog_channels),
		cmocka_unit_test(zip_bombs_are_refused_and_real_compression_is_not),
		cmocka_unit_test(automatic_choice_finds_the_one_probe_of_512_that_toggles),
		cmocka_unit_test(chunks_are_the_ones_sigrok_reads_and_lost_data_is_refused),
		cmocka_unit_test(non_finite_analog_samples_are_skipped_not_levels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
