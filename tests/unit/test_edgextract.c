/* SPDX-License-Identifier: GPL-2.0-or-later */
/* edgextract: hand-built packets (unitsize 1, 2, 3, 4, 8), edges at packet
 * boundaries, split samples, lost stretches, and random streams against a
 * sample-by-sample reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "instrument/edgextract.h"

#define MAXEV 4096

struct ev {
	uint64_t sample, value, changed;
};

struct sink {
	struct ev ev[MAXEV];
	size_t n;
};

static void sink_emit(void *ctx, uint64_t sample, uint64_t value, uint64_t changed)
{
	struct sink *s = ctx;

	assert_true(s->n < MAXEV);
	s->ev[s->n++] = (struct ev){ sample, value, changed };
}

/* @n samples of @u bytes each, little-endian, from @v. */
static void pack(unsigned char *out, const uint64_t *v, size_t n, unsigned u)
{
	for (size_t i = 0; i < n; i++)
		for (unsigned b = 0; b < u; b++)
			out[i * u + b] = (unsigned char)(v[i] >> (8 * b));
}

static void a_square_wave_gives_one_change_per_edge_and_its_sample(void **state)
{
	/* D7 high for 128 samples, low for 128, as the demo's incremental
	 * pattern draws it with eight channels */
	static uint64_t v[1024];
	static unsigned char buf[1024];
	static struct sink s;
	struct edgextract x;

	(void)state;
	for (size_t i = 0; i < 1024; i++)
		v[i] = i & 0xff;
	pack(buf, v, 1024, 1);
	assert_int_equal(edgextract_init(&x, 1, 0x80, sink_emit, &s), 0);
	edgextract_feed(&x, buf, sizeof(buf));
	assert_int_equal(s.n, 8);           /* the level at 0, then 7 edges */
	assert_int_equal(s.ev[0].changed, 0);
	assert_int_equal(s.ev[0].value, 0);
	for (size_t k = 1; k < 8; k++) {
		assert_int_equal(s.ev[k].sample, 128 * k);
		assert_int_equal(s.ev[k].changed, 0x80);
		assert_int_equal(s.ev[k].value, (k & 1) ? 0x80 : 0);
	}
	assert_int_equal(x.sample, 1024);
	assert_int_equal(x.changes, 7);
}

static void no_edges_give_the_level_alone(void **state)
{
	static unsigned char buf[4000];
	static struct sink s;
	struct edgextract x;

	(void)state;
	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(edgextract_init(&x, 2, 0xffff, sink_emit, &s), 0);
	edgextract_feed(&x, buf, sizeof(buf));
	edgextract_feed(&x, buf, sizeof(buf));
	assert_int_equal(s.n, 1);
	assert_int_equal(s.ev[0].value, 0x5a5a);
	assert_int_equal(s.ev[0].changed, 0);
	assert_int_equal(x.sample, 4000);
}

/* An edge on the first sample of a packet is an edge against the last
 * sample of the packet before: the time runs on across packets. */
static void an_edge_at_a_packet_boundary_is_seen_once_at_its_sample(void **state)
{
	static struct sink s;
	struct edgextract x;
	uint64_t a[64], b[64];
	unsigned char pa[64 * 4], pb[64 * 4];

	(void)state;
	for (size_t i = 0; i < 64; i++) {
		a[i] = 0x00010000;
		b[i] = 0x00030000;
	}
	pack(pa, a, 64, 4);
	pack(pb, b, 64, 4);
	assert_int_equal(edgextract_init(&x, 4, 0xffffffff, sink_emit, &s), 0);
	edgextract_feed(&x, pa, sizeof(pa));
	edgextract_feed(&x, pb, sizeof(pb));
	assert_int_equal(s.n, 2);
	assert_int_equal(s.ev[1].sample, 64);
	assert_int_equal(s.ev[1].changed, 0x00020000);
	assert_int_equal(s.ev[1].value, 0x00030000);
}

/* A sample split between two packets (a transfer that ends mid-sample) is
 * put back together, and its edge keeps its index. */
static void a_sample_split_across_packets_is_joined(void **state)
{
	static struct sink s;
	struct edgextract x;
	uint64_t v[10] = { 0x0102, 0x0102, 0x0102, 0x8102, 0x8102, 0x8102, 0x8102, 0x0102, 0x0102,
			   0x0102 };
	unsigned char p[20];

	(void)state;
	pack(p, v, 10, 2);
	assert_int_equal(edgextract_init(&x, 2, 0xffff, sink_emit, &s), 0);
	edgextract_feed(&x, p, 7);          /* samples 0-2 and half of 3 */
	edgextract_feed(&x, p + 7, 8);      /* the rest of 3, 4-6, half of 7 */
	edgextract_feed(&x, p + 15, 5);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.ev[1].sample, 3);
	assert_int_equal(s.ev[1].changed, 0x8000);
	assert_int_equal(s.ev[2].sample, 7);
	assert_int_equal(x.sample, 10);
}

/* After a lost stretch the level is known again but not when it changed:
 * no edge, and the count has moved on by what was lost. */
static void a_lost_stretch_moves_the_count_and_is_no_edge(void **state)
{
	static struct sink s;
	struct edgextract x;
	unsigned char lo[100], hi[100];

	(void)state;
	memset(lo, 0, sizeof(lo));
	memset(hi, 1, sizeof(hi));
	assert_int_equal(edgextract_init(&x, 1, 1, sink_emit, &s), 0);
	edgextract_feed(&x, lo, sizeof(lo));
	edgextract_skip(&x, 1000);
	edgextract_feed(&x, hi, sizeof(hi));
	edgextract_feed(&x, lo, sizeof(lo));
	assert_int_equal(s.n, 3);
	assert_int_equal(s.ev[1].sample, 1100);
	assert_int_equal(s.ev[1].changed, 0);   /* known again, not an edge */
	assert_int_equal(s.ev[1].value, 1);
	assert_int_equal(s.ev[2].sample, 1200);
	assert_int_equal(s.ev[2].changed, 1);
}

static void unwatched_channels_make_no_edges(void **state)
{
	static struct sink s;
	struct edgextract x;
	unsigned char p[256];

	(void)state;
	for (size_t i = 0; i < sizeof(p); i++)
		p[i] = (unsigned char)(i & 0x7f);   /* D0-D6 busy, D7 low */
	assert_int_equal(edgextract_init(&x, 1, 0x80, sink_emit, &s), 0);
	edgextract_feed(&x, p, sizeof(p));
	assert_int_equal(s.n, 1);
	assert_int_equal(x.changes, 0);
}

static void a_unitsize_out_of_range_is_refused(void **state)
{
	struct edgextract x;
	struct sink *s = NULL;

	(void)state;
	assert_int_equal(edgextract_init(&x, 0, 1, sink_emit, s), -1);
	assert_int_equal(edgextract_init(&x, 9, 1, sink_emit, s), -1);
	assert_int_equal(edgextract_init(&x, 1, 0x100, sink_emit, s), -1); /* no channel of a byte */
}

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Random streams with rare changes, cut into random packets, against the
 * plainest reading: every sample compared with the one before. */
static void random_streams_agree_with_a_sample_by_sample_reading(void **state)
{
	static struct sink s;
	static uint64_t v[3000];
	static unsigned char buf[3000 * 8];
	uint64_t seed = (uint64_t)time(NULL);

	(void)state;
	printf("seed %" PRIu64 "\n", seed);
	rng = seed;
	for (unsigned round = 0; round < 200; round++) {
		unsigned u = 1 + (unsigned)(rnd() % 8);
		uint64_t full = u == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * u)) - 1;
		uint64_t mask = rnd() & full, cur = rnd() & full;
		size_t n = 1 + (size_t)(rnd() % 3000), off = 0, k = 0;
		struct edgextract x;
		uint64_t prev = 0;

		if (!mask)
			mask = 1;
		for (size_t i = 0; i < n; i++) {
			if (rnd() % 97 == 0)
				cur ^= (UINT64_C(1) << (rnd() % (8 * u)));
			v[i] = cur;
		}
		pack(buf, v, n, u);
		s.n = 0;
		assert_int_equal(edgextract_init(&x, u, mask, sink_emit, &s), 0);
		while (off < n * u) {
			size_t len = 1 + (size_t)(rnd() % 300);

			if (len > n * u - off)
				len = n * u - off;
			edgextract_feed(&x, buf + off, len);
			off += len;
		}
		for (size_t i = 0; i < n; i++) {
			uint64_t m = v[i] & mask;

			if (i == 0 || m != prev) {
				assert_true(k < s.n);
				assert_int_equal(s.ev[k].sample, i);
				assert_int_equal(s.ev[k].value, m);
				assert_int_equal(s.ev[k].changed, i ? m ^ prev : 0);
				k++;
			}
			prev = m;
		}
		assert_int_equal(k, s.n);
		assert_int_equal(x.sample, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_square_wave_gives_one_change_per_edge_and_its_sample),
		cmocka_unit_test(no_edges_give_the_level_alone),
		cmocka_unit_test(an_edge_at_a_packet_boundary_is_seen_once_at_its_sample),
		cmocka_unit_test(a_sample_split_across_packets_is_joined),
		cmocka_unit_test(a_lost_stretch_moves_the_count_and_is_no_edge),
		cmocka_unit_test(unwatched_channels_make_no_edges),
		cmocka_unit_test(a_unitsize_out_of_range_is_refused),
		cmocka_unit_test(random_streams_agree_with_a_sample_by_sample_reading),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
