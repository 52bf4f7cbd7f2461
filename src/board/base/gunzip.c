/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small inflate (RFC 1951) and gzip reader (RFC 1952): stored, fixed and
 * dynamic Huffman blocks, decoded a bit at a time; for files of a few
 * hundred kilobytes (a kernel config), not for speed. */
#include "base/gunzip.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/crc32.h"
#include "base/msgbuf.h"

#define MAXBITS 15      /* the longest deflate code */
#define NLIT 288        /* literal/length symbols (286 and 287 are never used) */
#define NDIST 30        /* distance symbols */

/* The input, read a bit at a time, least significant bit first. */
struct in_bits {
	const unsigned char *p, *end;
	uint32_t bits;      /* bits not yet used, the next one lowest */
	int nbits;
	bool short_input;   /* asked for bits past the end */
};

/* The output: grows by doubling up to max. */
struct out_buf {
	char *buf;
	size_t len, cap, max;
	bool too_big, no_mem;
};

/* A canonical Huffman code: how many codes of each length, and the
 * symbols in code order. */
struct huff {
	uint16_t count[MAXBITS + 1];
	uint16_t symbol[NLIT];
};

static int bits_get(struct in_bits *b, int n)
{
	uint32_t v;

	while (b->nbits < n) {
		if (b->p == b->end) {
			b->short_input = true;
			return 0;
		}
		b->bits |= (uint32_t)*b->p++ << b->nbits;
		b->nbits += 8;
	}
	v = b->bits & ((1u << n) - 1);
	b->bits >>= n;
	b->nbits -= n;
	return (int)v;
}

/* Room for @need more bytes, the NUL after the last one included (the
 * buffer never grows past max + 1): false when memory runs out. */
static bool out_room(struct out_buf *o, size_t need)
{
	size_t cap;
	char *nb;

	if (o->len + need <= o->cap)
		return true;
	cap = o->cap ? o->cap * 2 : 65536;
	if (cap > o->max + 1)
		cap = o->max + 1;
	if (cap < o->len + need)
		cap = o->len + need;
	nb = realloc(o->buf, cap);
	if (!nb) {
		o->no_mem = true;
		return false;
	}
	o->buf = nb;
	o->cap = cap;
	return true;
}

/* One byte out: false past the bound (too_big) or out of memory. */
static bool out_put(struct out_buf *o, char c)
{
	if (o->len >= o->max) {
		o->too_big = true;
		return false;
	}
	if (!out_room(o, 2))
		return false;
	o->buf[o->len++] = c;
	return true;
}

/* The code of @n symbols with code lengths @len[]: 0, or -1 when the
 * lengths over-subscribe the code space (an incomplete code is allowed:
 * deflate's single distance code is one). */
static int huff_build(struct huff *h, const uint8_t *len, int n)
{
	uint16_t offs[MAXBITS + 1];
	int left = 1, i;

	memset(h->count, 0, sizeof(h->count));
	for (i = 0; i < n; i++)
		h->count[len[i]]++;
	for (i = 1; i <= MAXBITS; i++) {
		left = left * 2 - h->count[i];
		if (left < 0)
			return -1;
	}
	offs[1] = 0;
	for (i = 1; i < MAXBITS; i++)
		offs[i + 1] = (uint16_t)(offs[i] + h->count[i]);
	for (i = 0; i < n; i++)
		if (len[i])
			h->symbol[offs[len[i]]++] = (uint16_t)i;
	return 0;
}

/* The next symbol: a code read a bit at a time, most significant first
 * (deflate packs Huffman codes so), found among the codes of its length.
 * -1 for a code that is not in the table or input that ends. */
static int huff_decode(struct in_bits *b, const struct huff *h)
{
	int code = 0, first = 0, index = 0, n;

	for (n = 1; n <= MAXBITS; n++) {
		code |= bits_get(b, 1);
		if (b->short_input)
			return -1;
		if (code - first < h->count[n])
			return h->symbol[index + code - first];
		index += h->count[n];
		first = (first + h->count[n]) << 1;
		code <<= 1;
	}
	return -1;
}

static const uint16_t len_base[29] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
	35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
};
static const uint8_t len_extra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
};
static const uint16_t dist_base[NDIST] = {
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
	257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
};
static const uint8_t dist_extra[NDIST] = {
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
};

/* A block's data in its codes, up to the end-of-block symbol. */
static const char *inflate_codes(struct in_bits *b, struct out_buf *o, const struct huff *lit,
				 const struct huff *dist, size_t member_start)
{
	for (;;) {
		int sym = huff_decode(b, lit), len, d;
		size_t dist_n;

		if (sym < 0)
			return b->short_input ? "it ends inside a block" : "a code that is not in its table";
		if (sym < 256) {
			if (!out_put(o, (char)sym))
				return "";
			continue;
		}
		if (sym == 256)
			return NULL;
		sym -= 257;
		if (sym >= 29)
			return "a length symbol out of range";
		len = len_base[sym] + bits_get(b, len_extra[sym]);
		d = huff_decode(b, dist);
		if (d < 0)
			return b->short_input ? "it ends inside a block" : "a code that is not in its table";
		if (d >= NDIST)
			return "a distance symbol out of range";
		dist_n = dist_base[d] + (size_t)bits_get(b, dist_extra[d]);
		if (b->short_input)
			return "it ends inside a block";
		if (dist_n > o->len - member_start)
			return "a distance back past the start of the data";
		while (len--)
			if (!out_put(o, o->buf[o->len - dist_n]))
				return "";
	}
}

/* The fixed codes of block type 1. */
static void fixed_codes(struct huff *lit, struct huff *dist)
{
	uint8_t len[NLIT];
	int i;

	for (i = 0; i < 144; i++)
		len[i] = 8;
	for (; i < 256; i++)
		len[i] = 9;
	for (; i < 280; i++)
		len[i] = 7;
	for (; i < NLIT; i++)
		len[i] = 8;
	huff_build(lit, len, NLIT);
	for (i = 0; i < NDIST; i++)
		len[i] = 5;
	huff_build(dist, len, NDIST);
}

/* The codes of a block of type 2, from its header. */
static const char *dynamic_codes(struct in_bits *b, struct huff *lit, struct huff *dist)
{
	static const uint8_t order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2,
					   14, 1, 15 };
	uint8_t len[NLIT + NDIST] = { 0 };
	struct huff cl;
	int nlit = bits_get(b, 5) + 257, ndist = bits_get(b, 5) + 1, ncl = bits_get(b, 4) + 4, i;

	if (nlit > 286 || ndist > NDIST)
		return "more codes than deflate has";
	for (i = 0; i < ncl; i++)
		len[order[i]] = (uint8_t)bits_get(b, 3);
	if (b->short_input)
		return "it ends inside a block header";
	if (huff_build(&cl, len, 19) < 0)
		return "over-subscribed code lengths";
	for (i = 0; i < nlit + ndist;) {
		int sym = huff_decode(b, &cl), rep, val = 0;

		if (sym < 0)
			return b->short_input ? "it ends inside a block header" : "a bad code length code";
		if (sym < 16) {
			len[i++] = (uint8_t)sym;
			continue;
		}
		if (sym == 16) {
			if (!i)
				return "a repeat with nothing to repeat";
			val = len[i - 1];
			rep = 3 + bits_get(b, 2);
		} else if (sym == 17) {
			rep = 3 + bits_get(b, 3);
		} else {
			rep = 11 + bits_get(b, 7);
		}
		if (i + rep > nlit + ndist)
			return "code lengths past the codes";
		while (rep--)
			len[i++] = (uint8_t)val;
	}
	if (b->short_input)
		return "it ends inside a block header";
	if (!len[256])
		return "no end-of-block code";
	if (huff_build(lit, len, nlit) < 0 || huff_build(dist, len + nlit, ndist) < 0)
		return "over-subscribed codes";
	return NULL;
}

/* One deflate stream into @o. */
static const char *inflate_stream(struct in_bits *b, struct out_buf *o)
{
	size_t start = o->len;
	struct huff lit, dist;
	const char *why;
	int last;

	do {
		int type;

		last = bits_get(b, 1);
		type = bits_get(b, 2);
		if (b->short_input)
			return "it ends before a block";
		if (type == 0) {
			size_t n;

			/* stored: from the next byte, LEN and its complement */
			b->bits = 0;
			b->nbits = 0;
			if (b->end - b->p < 4)
				return "it ends inside a block header";
			n = (size_t)b->p[0] | (size_t)b->p[1] << 8;
			if ((size_t)(b->p[2] | b->p[3] << 8) != (~n & 0xffffu))
				return "a stored block's length and its complement differ";
			b->p += 4;
			if ((size_t)(b->end - b->p) < n)
				return "it ends inside a block";
			while (n--)
				if (!out_put(o, (char)*b->p++))
					return "";
			continue;
		}
		if (type == 1)
			fixed_codes(&lit, &dist);
		else if (type == 2 && (why = dynamic_codes(b, &lit, &dist)))
			return why;
		else if (type == 3)
			return "a block of the reserved type 3";
		if ((why = inflate_codes(b, o, &lit, &dist, start)))
			return why;
	} while (!last);
	return NULL;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One gzip member at b->p: its header, its deflate data and its trailer. */
static const char *gunzip_member(struct in_bits *b, struct out_buf *o)
{
	const unsigned char *p = b->p;
	size_t start = o->len, avail = (size_t)(b->end - p);
	unsigned flags;
	const char *why;

	if (avail < 10 || p[0] != 0x1f || p[1] != 0x8b)
		return "not gzip data";
	if (p[2] != 8)
		return "a compression method other than deflate";
	flags = p[3];
	if (flags & 0xe0)
		return "reserved header flags set";
	p += 10;
	if (flags & 0x04) {	/* FEXTRA */
		size_t n;

		if (b->end - p < 2)
			return "it ends inside its header";
		n = (size_t)p[0] | (size_t)p[1] << 8;
		p += 2;
		if ((size_t)(b->end - p) < n)
			return "it ends inside its header";
		p += n;
	}
	for (unsigned f = 0x08; f <= 0x10; f <<= 1) {	/* FNAME, FCOMMENT: up to a NUL */
		if (!(flags & f))
			continue;
		while (p < b->end && *p)
			p++;
		if (p == b->end)
			return "it ends inside its header";
		p++;
	}
	if (flags & 0x02) {	/* FHCRC */
		if (b->end - p < 2)
			return "it ends inside its header";
		p += 2;
	}
	b->p = p;
	b->bits = 0;
	b->nbits = 0;
	if ((why = inflate_stream(b, o)))
		return why;
	/* the trailer starts at the next whole byte */
	b->bits = 0;
	b->nbits = 0;
	if (b->end - b->p < 8)
		return "it ends before its CRC and length";
	if (crc32_update(0, o->buf ? o->buf + start : "", o->len - start) != le32(b->p))
		return "its CRC-32 does not match its data";
	if ((uint32_t)(o->len - start) != le32(b->p + 4))
		return "its length does not match its data";
	b->p += 8;
	return NULL;
}

int gunzip_mem(const void *in, size_t len, size_t max, char **out, size_t *outlen, char *err,
	       size_t errlen)
{
	struct in_bits b = { .p = in, .end = (const unsigned char *)in + len };
	struct out_buf o = { .max = max };
	const char *why = NULL;

	do
		why = gunzip_member(&b, &o);
	while (!why && b.p < b.end && gunzip_is_gzip(b.p, (size_t)(b.end - b.p)));
	if (!why && b.p != b.end)
		why = "data after its end that is not gzip";
	if (!why && !out_room(&o, 1))
		why = "";
	if (why) {
		int e = o.no_mem ? ENOMEM : o.too_big ? EFBIG : EINVAL;

		if (e == ENOMEM)
			msgbuf_set(err, errlen, "%s", strerror(ENOMEM));
		else if (e == EFBIG)
			msgbuf_set(err, errlen, "inflates to more than %zu bytes", max);
		else
			msgbuf_set(err, errlen, "corrupt gzip data: %s", why);
		free(o.buf);
		errno = e;
		return -1;
	}
	o.buf[o.len] = '\0';
	*out = o.buf;
	*outlen = o.len;
	return 0;
}
