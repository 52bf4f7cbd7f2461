/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Logic samples to edges, as an analyzer streams them: packet after packet,
 * any unitsize up to 8 bytes, the sample count carried across packets. */
#ifndef SQW_EDGEXTRACT_H
#define SQW_EDGEXTRACT_H

#include <stddef.h>
#include <stdint.h>

/*
 * What the extractor reports, one call per sample at which a watched
 * channel changed (not one per edge: a sample where three channels change
 * is one call with three bits in @changed):
 *   @sample   the sample's index, counted from the first sample fed
 *             (edgextract_skip()'s samples included)
 *   @value    the sample (bit i = channel i, little-endian as libsigrok
 *             packs logic data), masked to the watched channels
 *   @changed  the bits that differ from the previous sample; 0 when the
 *             level is known again after nothing (the first sample, or the
 *             first after edgextract_skip()): the levels, no edge
 * The callback runs on the thread that called edgextract_feed().
 */
typedef void (*edgextract_emit_fn)(void *ctx, uint64_t sample, uint64_t value, uint64_t changed);

/*
 * The state between packets: a few words, no allocation (the memory is
 * the same after an hour as after a second). Fill with edgextract_init();
 * one thread feeds it.
 */
struct edgextract {
	unsigned unitsize;         /* bytes per sample, 1..8 */
	uint64_t mask;             /* the watched channels */
	uint64_t prev;             /* the previous sample, masked */
	int have_prev;             /* 0 before the first sample and after a skip */
	uint64_t sample;           /* index of the next sample */
	unsigned char part[8];     /* a sample split across packets: its bytes so far */
	unsigned npart;
	uint64_t changes;          /* calls of emit with changed != 0 */
	edgextract_emit_fn emit;
	void *ctx;
};

/* Start at sample 0 with no level known. @unitsize 1..8 (returns -1
 * otherwise); @mask the channels to watch (bit i = channel i), nonzero. */
int edgextract_init(struct edgextract *x, unsigned unitsize, uint64_t mask,
		    edgextract_emit_fn emit, void *ctx);

/* Feed @len bytes of samples. A packet need not hold whole samples: the
 * bytes of a split one wait for the next packet. */
void edgextract_feed(struct edgextract *x, const void *data, size_t len);

/* @n samples are lost (an overrun, a dropped transfer): the count moves on
 * by @n, and the level after them is reported as known again, not as an
 * edge (when it changed is not known). A split sample is dropped with
 * them. */
void edgextract_skip(struct edgextract *x, uint64_t n);

#endif
