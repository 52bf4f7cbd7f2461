/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the sigrok session importer (src/capture_sr.c): zips built here
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
	char names[32][16];
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
