/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPSC ring: acquire/release on head and tail, nothing else shared. */
#include "rt/ring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ring_init(struct ring *r, size_t capacity)
{
	size_t n = 2;

	if (capacity < 2 || capacity > ((size_t)1 << 30)) {
		errno = EINVAL;
		return -1;
	}
	while (n < capacity)
		n <<= 1;
	r->slots = aligned_alloc(64, n * sizeof(*r->slots));
	if (!r->slots)
		return -1;
	/* Touch every page now so the RT thread never faults on the ring. */
	memset(r->slots, 0, n * sizeof(*r->slots));
	r->mask = n - 1;
	atomic_init(&r->head, 0);
	atomic_init(&r->tail, 0);
	atomic_init(&r->dropped, 0);
	return 0;
}

void ring_free(struct ring *r)
{
	free(r->slots);
	r->slots = NULL;
}

int ring_push(struct ring *r, const struct edge_rec *rec)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);

	if (head - tail > r->mask) {
		atomic_fetch_add_explicit(&r->dropped, 1, memory_order_relaxed);
		return -1;
	}
	r->slots[head & r->mask] = *rec;
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
	return 0;
}

size_t ring_pop(struct ring *r, struct edge_rec *out, size_t max)
{
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
	size_t n = 0;

	while (tail + n != head && n < max) {
		out[n] = r->slots[(tail + n) & r->mask];
		n++;
	}
	if (n)
		atomic_store_explicit(&r->tail, tail + n, memory_order_release);
	return n;
}

uint64_t ring_dropped(const struct ring *r)
{
	return atomic_load_explicit(&r->dropped, memory_order_relaxed);
}

size_t ring_capacity(const struct ring *r)
{
	return (size_t)r->mask + 1;
}
