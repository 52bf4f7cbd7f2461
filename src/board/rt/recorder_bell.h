/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recorder's bell: what the RT thread rings after a push to wake the
 * recorder thread (run/recorder.[ch]), kept in the RT layer because the RT
 * loop calls it per edge. */
#ifndef SQW_RECORDER_BELL_H
#define SQW_RECORDER_BELL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt/ring.h"

/*
 * How the recorder wakes. It sleeps on an eventfd with a timeout (so that
 * the status line's live figures stay fresh and queued events get written)
 * instead of polling the ring: a few wake-ups a second where the old 1 ms
 * poll made a thousand, each of which could land on the RT CPU. The RT
 * thread rings the bell only when the ring has filled past a level (an
 * eighth of it by default) while the recorder sleeps: a system call every
 * few thousand edges at the fastest rates, none at all at 500 us.
 */
struct recorder_bell {
	struct ring *ring;
	int efd;                       /* eventfd */
	uint64_t level;                /* ring fill that wakes the recorder */
	_Alignas(64) atomic_bool asleep; /* the recorder is (about to be) blocked */
};

/*
 * After pushing into the ring: wake the recorder if the ring has filled
 * past the bell's level and the recorder sleeps. RT-safe: two loads and a
 * compare per call; a fence, an atomic exchange and an eventfd write only
 * when the level is reached (no allocation, no lock). @b may be NULL.
 */
static inline void recorder_bell_ring(struct recorder_bell *b)
{
	uint64_t head, tail;

	if (!b)
		return;
	head = atomic_load_explicit(&b->ring->head, memory_order_relaxed);
	tail = atomic_load_explicit(&b->ring->tail, memory_order_relaxed);
	if (head - tail < b->level)
		return;
	/* Pairs with the recorder's store of asleep then load of head: one of
	 * the two sides sees the other (no lost wake-up). */
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&b->asleep, memory_order_relaxed) &&
	    atomic_exchange_explicit(&b->asleep, false, memory_order_acq_rel)) {
		uint64_t one = 1;

		/* Raw: no cancellation-point bookkeeping (see rtloop.c). */
		(void)syscall(SYS_write, b->efd, &one, sizeof(one));
	}
}

#endif
