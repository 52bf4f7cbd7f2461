/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Logic samples to edges: XOR with the previous sample, whole 8-byte words
 * without a change skipped (a square wave is almost all such words). */
#include "instrument/edgextract.h"

#include <string.h>

int edgextract_init(struct edgextract *x, unsigned unitsize, uint64_t mask,
		    edgextract_emit_fn emit, void *ctx)
{
	if (unitsize < 1 || unitsize > 8 || !mask || !emit)
		return -1;
	memset(x, 0, sizeof(*x));
	x->unitsize = unitsize;
	x->mask = unitsize == 8 ? mask : mask & ((UINT64_C(1) << (8 * unitsize)) - 1);
	if (!x->mask)
		return -1;
	x->emit = emit;
	x->ctx = ctx;
	return 0;
}

/* One sample of @u bytes, little-endian (bit i = channel i, as libsigrok
 * packs it), whatever the host's byte order. */
static inline uint64_t sample_at(const unsigned char *p, unsigned u)
{
	uint64_t v = 0;

	for (unsigned i = u; i-- > 0;)
		v = (v << 8) | p[i];
	return v;
}

/* The 8-byte word whose every @u-byte lane holds @v's bytes as they sit in
 * memory: a word of samples equals it in the lanes where nothing changed,
 * with no assumption about the host's byte order. */
static uint64_t lanes_of(uint64_t v, unsigned u)
{
	unsigned char b[8];
	uint64_t w;

	for (unsigned i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * (i % u)));
	memcpy(&w, b, 8);
	return w;
}

static inline void one_sample(struct edgextract *x, uint64_t v)
{
	v &= x->mask;
	if (!x->have_prev) {
		x->have_prev = 1;
		x->prev = v;
		x->emit(x->ctx, x->sample, v, 0);
	} else if (v != x->prev) {
		x->changes++;
		x->emit(x->ctx, x->sample, v, v ^ x->prev);
		x->prev = v;
	}
	x->sample++;
}

/* Whole samples from @p (@n of them), the hot loop: for a unitsize that
 * divides 8, words of 8/u samples equal to the previous sample are skipped
 * four words at a time; a word with a change is walked sample by sample. */
static void feed_samples(struct edgextract *x, const unsigned char *p, size_t n)
{
	const unsigned u = x->unitsize;
	const unsigned char *end = p + n * u;

	if (!x->have_prev && p < end) {
		one_sample(x, sample_at(p, u));
		p += u;
	}
	if (8 % u == 0) {
		const uint64_t per_word = 8 / u;
		const uint64_t lmask = lanes_of(x->mask, u);
		uint64_t lprev = lanes_of(x->prev, u);

		while (end - p >= 8) {
			uint64_t w0, w1, w2, w3;

			if (end - p >= 32) {
				memcpy(&w0, p, 8);
				memcpy(&w1, p + 8, 8);
				memcpy(&w2, p + 16, 8);
				memcpy(&w3, p + 24, 8);
				if (!(((w0 ^ lprev) | (w1 ^ lprev) | (w2 ^ lprev) | (w3 ^ lprev)) & lmask)) {
					p += 32;
					x->sample += 4 * per_word;
					continue;
				}
			}
			memcpy(&w0, p, 8);
			if (!((w0 ^ lprev) & lmask)) {
				p += 8;
				x->sample += per_word;
				continue;
			}
			for (unsigned k = 0; k < per_word; k++, p += u)
				one_sample(x, sample_at(p, u));
			lprev = lanes_of(x->prev, u);
		}
	}
	for (; p < end; p += u)
		one_sample(x, sample_at(p, u));
}

void edgextract_feed(struct edgextract *x, const void *data, size_t len)
{
	const unsigned char *p = data;
	const unsigned u = x->unitsize;

	if (x->npart) {
		size_t take = u - x->npart < len ? u - x->npart : len;

		memcpy(x->part + x->npart, p, take);
		x->npart += (unsigned)take;
		p += take;
		len -= take;
		if (x->npart < u)
			return;
		x->npart = 0;
		one_sample(x, sample_at(x->part, u));
	}
	feed_samples(x, p, len / u);
	p += len / u * u;
	x->npart = (unsigned)(len % u);
	memcpy(x->part, p, x->npart);
}

void edgextract_skip(struct edgextract *x, uint64_t n)
{
	x->sample += n;
	x->have_prev = 0;
	x->npart = 0;
}
