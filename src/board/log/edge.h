/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-edge record: what the RT thread measures, what the ring carries and
 * what the log stores. One definition, 32 bytes, shared by every module. */
#ifndef SQW_EDGE_H
#define SQW_EDGE_H

#include <stdint.h>

/* Record flags. */
#define EDGE_F_WARMUP     0x01u /* edge in the warm-up period: logged, not counted */
#define EDGE_F_SATURATED  0x02u /* an offset did not fit in 32 bits and was clamped */
#define EDGE_F_WRITE_ERR  0x04u /* the line write returned an error */
#define EDGE_F_LAST       0x08u /* last edge of the run (stop or end of duration) */
#define EDGE_F_SPIN       0x10u /* spin mode: write_begin is the clock read that ended the spin */
#define EDGE_F_LATE       0x20u /* spin mode: woke at or after the deadline, written at once */
#define EDGE_F_NOEVENT    0x40u /* respond: a write that answers no event (a pulse's end, the
				 * return to idle at the end) */

/*
 * One edge. In a respond log (header mode=respond, docs/log-format.md) the
 * "intended" time is the kernel's timestamp of the input event answered and
 * expirations is the kernel's sequence-number advance since the previous
 * answered event (1: none lost); a record flagged EDGE_F_NOEVENT answers no
 * event and its intended time is when its write was due.
 *
 * All times are CLOCK_MONOTONIC nanoseconds. The absolute intended
 * time is stored once; the measured times are stored as signed offsets from
 * it, which keeps the record at 32 bytes (docs/log-format.md). Offsets beyond
 * +-2.1 s are clamped and flagged EDGE_F_SATURATED.
 *
 * seq counts edges actually written (0, 1, 2, ...); slot counts half periods
 * since the start: intended_ns = start_ns + slot * half_period_ns. Missed
 * periods make slot advance by more than one between two records.
 */
struct edge_rec {
	uint64_t seq;            /* edge number, +1 per written edge */
	uint64_t intended_ns;    /* absolute deadline of this edge's slot */
	int32_t wake_off_ns;     /* wake-up (poll() on the timerfd returned) - intended */
	int32_t write_begin_off_ns; /* just before the line write - intended */
	int32_t write_end_off_ns;   /* just after the line write - intended */
	uint16_t expirations;    /* timerfd expirations read for this edge (1 = on time) */
	uint8_t level;           /* logical level written: 1 = active */
	uint8_t flags;           /* EDGE_F_* */
};

_Static_assert(sizeof(struct edge_rec) == 32, "edge record must stay 32 bytes");

/* Clamp a 64-bit offset into the record's 32-bit field; sets *flags on clamp. */
static inline int32_t edge_off_clamp(int64_t off, uint8_t *flags)
{
	if (off > INT32_MAX) {
		*flags |= EDGE_F_SATURATED;
		return INT32_MAX;
	}
	if (off < INT32_MIN) {
		*flags |= EDGE_F_SATURATED;
		return INT32_MIN;
	}
	return (int32_t)off;
}

static inline uint64_t edge_wake_ns(const struct edge_rec *e)
{
	return e->intended_ns + (uint64_t)(int64_t)e->wake_off_ns;
}

static inline uint64_t edge_write_begin_ns(const struct edge_rec *e)
{
	return e->intended_ns + (uint64_t)(int64_t)e->write_begin_off_ns;
}

static inline uint64_t edge_write_end_ns(const struct edge_rec *e)
{
	return e->intended_ns + (uint64_t)(int64_t)e->write_end_off_ns;
}

#endif
