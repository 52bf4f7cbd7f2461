/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Lock-free single-producer/single-consumer ring of edge records: the only
 * channel from the RT thread to the rest of the program. */
#ifndef SQW_RING_H
#define SQW_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "log/edge.h"

struct ring {
	_Alignas(64) atomic_uint_fast64_t head; /* written by the producer only */
	_Alignas(64) atomic_uint_fast64_t tail; /* written by the consumer only */
	_Alignas(64) atomic_uint_fast64_t dropped; /* producer: records lost to a full ring */
	uint64_t mask;
	struct edge_rec *slots;
};

/* Allocate a ring of at least @capacity records (rounded up to a power of
 * two) and touch every page. Returns -1 with errno set. Not thread-safe;
 * call before the threads start. Free with ring_free(). */
int ring_init(struct ring *r, size_t capacity);
void ring_free(struct ring *r);

/* Producer (RT thread) only. Never blocks, never allocates. Returns 0, or -1
 * when the ring is full: the record is dropped and counted. */
int ring_push(struct ring *r, const struct edge_rec *rec);

/* Consumer only. Copies up to @max records into @out; returns how many. */
size_t ring_pop(struct ring *r, struct edge_rec *out, size_t max);

/* Safe from any thread. */
uint64_t ring_dropped(const struct ring *r);
size_t ring_capacity(const struct ring *r);

#endif
