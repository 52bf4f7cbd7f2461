/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The respond loop: the RT thread of `sqwave respond`. It waits for the input
 * line's edge events and answers each one on the output line. */
#ifndef SQW_RESPOND_H
#define SQW_RESPOND_H

#include <stdbool.h>
#include <stdint.h>

#include "gpio/gpio_in.h"
#include "rt/rtloop.h"

/* Same order as the config table's respond.mode words. */
enum respond_mode {
	RESPOND_FOLLOW = 0,       /* write the level the event reports */
	RESPOND_TOGGLE,           /* flip the output per event */
	RESPOND_PULSE,            /* active for pulse_ns per event, then idle */
};

#define RESPOND_BATCH 16            /* events read per wake-up at most */
#define RESPOND_POLL_NS 50000000ll  /* the stop request is seen this soon */
#define RESPOND_STOP_GRACE_NS 50000000ll /* at the stop, events stamped before it
					  * are waited for this long at most */

/*
 * Per event, in the kernel's order: read the clock (wake), work out the
 * level, read the clock, write the line, read the clock, push one record
 * (docs/log-format.md, a respond log): intended = the event's timestamp,
 * offsets from it, expirations = the sequence-number advance (events the
 * kernel lost are counted into loop->missed, never hidden). Every event gets
 * its own answer, even one that waited behind others: its record says how
 * late. Pulse mode then sleeps (absolute, on the event clock) until the
 * answer's write end + pulse_ns and writes idle, a record flagged EDGE_F_NOEVENT; an
 * event that came during a pulse is answered after it. At the end, a line
 * left away from its idle level gets one more write back (NOEVENT and
 * EDGE_F_LAST), so that every transition of the pin is in the log.
 *
 * Nothing else: no allocation, no locks, no printing, no file I/O; the
 * event read is a poll() and a read() into the backend's buffer.
 */
struct respond {
	/* Set before respond_thread() starts; read-only afterwards. */
	struct rtloop *loop;      /* the shared half: gpio, ring, bell, brk, clock (the
				   * event clock), idle_level, stack_prefault, go,
				   * stop_req, done, the counters (edges = writes,
				   * missed = events lost), error and rusage */
	struct gpio_in *in;       /* requested with edge events */
	enum respond_mode mode;
	int64_t pulse_ns;
	uint64_t end_ns;          /* no event after this is answered (0: until stop_req) */
	uint64_t warmup_end_ns;   /* events before this are flagged warm-up */

	/* RT thread private. */
	uint64_t seqno;           /* the last event's sequence number (0: none yet) */
	uint64_t events;          /* events read */
	int level;                /* logical level of the output now */
	struct gpio_in_event ev[RESPOND_BATCH];

	/* Set by the RT thread, read after it is joined: the counts the run
	 * keeps in its log at the stop (docs/log-format.md). loop->missed is
	 * every event lost, exact (a record's 16-bit expirations saturate);
	 * of those, lost_warmup were stamped in the warm-up. unanswered:
	 * events stamped before stop_ns but still queued when the loop ended
	 * (read at the stop, never answered); a gap in their sequence numbers
	 * is lost events too. stop_ns: end_ns, or when the loop saw the stop
	 * request or failed, on the event clock. */
	uint64_t lost_warmup;
	uint64_t unanswered;
	uint64_t stop_ns;
};

/* Prepare @r (zeroes the RT bookkeeping, the level at idle). Non-RT. */
void respond_open(struct respond *r);

/* The RT thread's body: pthread start routine, argument a struct respond *.
 * Names itself "sqwave-rt", prefaults its stack, waits for loop->go, then
 * answers until stop_req or end_ns, writes idle if needed, reads what is
 * still queued (respond_drain()); sets loop->done. */
void *respond_thread(void *arg);

/*
 * One event read at @wake_ns: the level to write for it, and its record's
 * bookkeeping (seq, intended, expirations, level, warm-up flag; the offsets
 * are the caller's). Counts lost events into loop->missed. RT thread only
 * (and unit tests).
 */
int respond_account(struct respond *r, const struct gpio_in_event *ev, struct edge_rec *rec);

/*
 * At the stop: @n events read from the queue after the last answer (the
 * rest of a batch, then whatever gpio_in_read() still has), in order. Those
 * stamped before r->stop_ns count as unanswered and their sequence-number
 * gaps as lost; true once one at or after r->stop_ns was seen (the rest
 * are not the run's). RT thread only (and unit tests).
 */
bool respond_unanswered(struct respond *r, const struct gpio_in_event *ev, size_t n);

#endif
