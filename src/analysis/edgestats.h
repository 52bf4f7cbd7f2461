/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Streaming statistics over edge records: wake latency, write cost, pulse
 * widths (what the scope should see), missed periods. Constant memory. Used
 * by `run` (fed from the ring by the writer thread) and by `analyze` (fed
 * from the log reader). Not thread-safe: one feeding thread; others read
 * only through edgestats_live() under the caller's lock. */
#ifndef SQW_EDGESTATS_H
#define SQW_EDGESTATS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt/edge.h"
#include "base/stats.h"
#include "base/wave.h"
#include "log/pin.h"

struct edgestats;

/*
 * Missed periods at @e: slots without an edge since @prev (NULL: @e is the
 * first record). The slots advanced minus the edges written, so the count is
 * real even when the record's 16-bit expirations saturated at 65,535 or
 * records were dropped in between; expirations - 1 in the common case.
 */
uint64_t edgestats_missed_slow(const struct edge_rec *prev, const struct edge_rec *e,
			       int64_t half_period_ns);
static inline uint64_t edgestats_missed(const struct edge_rec *prev, const struct edge_rec *e,
					int64_t half_period_ns)
{
	if (prev && e->seq == prev->seq + 1 && e->expirations < UINT16_MAX)
		return e->expirations > 1 ? e->expirations - 1u : 0;
	return edgestats_missed_slow(prev, e, half_period_ns);
}

/* An edge's wake latency as sqwave reports it: from the first deadline after
 * the previous edge, so an edge that skipped slots was late by those too
 * (what cyclictest would report). @missed from edgestats_missed(); the sum
 * saturates at INT64_MAX instead of overflowing. */
static inline int64_t edgestats_wake_latency_missed(const struct edge_rec *e, uint64_t missed,
						    int64_t half_period_ns)
{
	uint64_t late;

	if (!missed || half_period_ns <= 0)
		return e->wake_off_ns;
	if (missed > (uint64_t)(INT64_MAX - INT32_MAX) / (uint64_t)half_period_ns)
		return INT64_MAX;
	late = missed * (uint64_t)half_period_ns;
	return (int64_t)late + e->wake_off_ns;
}

/* An edge's placement error as sqwave reports it: where the line changed
 * (the write window's midpoint) minus the first deadline after the previous
 * edge, like the wake latency. An edge that skipped slots is attributed to
 * the latest slot in the log, which capped its error near half a period and
 * could make a late edge look early or perfect; counted from the slot it
 * should have served, a late edge always shows as late by the slots it
 * skipped. edgestats_after_missed(): @off_ns plus the missed slots,
 * saturating at INT64_MAX. */
static inline int64_t edgestats_after_missed(int64_t off_ns, uint64_t missed,
					     int64_t half_period_ns)
{
	int64_t late;

	if (!missed || half_period_ns <= 0)
		return off_ns;
	if (missed > (uint64_t)INT64_MAX / (uint64_t)half_period_ns)
		return INT64_MAX;
	late = (int64_t)(missed * (uint64_t)half_period_ns);
	return off_ns > 0 && late > INT64_MAX - off_ns ? INT64_MAX : late + off_ns;
}

static inline int64_t edgestats_placement_missed(const struct edge_rec *e, uint64_t missed,
						 int64_t half_period_ns)
{
	/* half, rounded down (an arithmetic shift; see edgestats.c) */
	return edgestats_after_missed(((int64_t)e->write_begin_off_ns +
				       (int64_t)e->write_end_off_ns) >> 1, missed, half_period_ns);
}

/* The same from the record alone: exact unless its expirations saturated
 * (edgestats_last_missed() has the real count then). */
static inline int64_t edgestats_wake_latency(const struct edge_rec *e, int64_t half_period_ns)
{
	return edgestats_wake_latency_missed(e, e->expirations > 1 ? e->expirations - 1u : 0u,
					     half_period_ns);
}

/* Allocated and zeroed here (histogram pages come with the values, see
 * stats.h; pulse widths are centered on the half period). NULL with errno
 * on failure. Caller frees with edgestats_free(). */
struct edgestats *edgestats_new(int64_t half_period_ns);
void edgestats_free(struct edgestats *s);

/* Feed one record, in sequence order. Records flagged EDGE_F_WARMUP are
 * tracked (a pulse needs both ends) but not counted in statistics. */
void edgestats_add(struct edgestats *s, const struct edge_rec *e);

/* Before the first edgestats_add(): the wave has a duty cycle (@w->high_ns
 * != @w->low_ns, their mean the half period): positive pulses are nominally
 * high long, negative ones low (nominal_ns), and missed slots are counted
 * on its grid. A 50 % wave changes nothing. */
void edgestats_set_wave(struct edgestats *s, const struct wave *w);

/* Before the first edgestats_add(): the records are a respond log's (see
 * struct edgestats_result's respond members): lost events are each record's
 * expirations - 1, latencies count from the event alone, and the output
 * starts at @idle_level (gpio.idle_level): a write of the level the pin has
 * is no edge. */
void edgestats_set_respond(struct edgestats *s, int idle_level);

/* Before the first edgestats_add(): what the pin should do (log/pin.h),
 * the way every reader sets it: a wave's shape (edgestats_set_wave()) or a
 * respond run (edgestats_set_respond()), and the nominal width of each
 * polarity from @p (0: none, a respond run's answers that the input times). */
void edgestats_set_pin(struct edgestats *s, const struct pin *p);

/* Before the first edgestats_add(): every record's write window is
 * [@lo_ns, @hi_ns] around its intended time, whatever its 32-bit offsets
 * say. A capture's edge uncertainty (its sample interval) can exceed the
 * +-2.1 s the offsets hold; pulse bounds then come from these. */
void edgestats_set_edge_window(struct edgestats *s, int64_t lo_ns, int64_t hi_ns);

/* Before the first edgestats_add(): the record that came just before this
 * object's first one, seen elsewhere (a phase's statistics start mid-run).
 * The first record's sequence gap and missed periods count from it, as the
 * run's do; it is neither counted nor the start of a counted pulse. */
void edgestats_seed(struct edgestats *s, const struct edge_rec *before);

/* A small copy for the once-a-second status line. */
struct edgestats_live {
	uint64_t edges;            /* counted (non-warm-up) edges */
	uint64_t missed_periods;
	uint64_t seq_gaps;         /* records missing from the sequence (dropped) */
	int64_t wake_min_ns, wake_max_ns;
	double wake_avg_ns;
	int64_t width_min_ns, width_max_ns; /* any polarity; 0 if no pulse yet */
	int64_t width_error_ns;    /* furthest estimate from its polarity's nominal (0: none) */
};
void edgestats_live(const struct edgestats *s, struct edgestats_live *out);

/* ---- full results, for the summary and `analyze` ---- */

/* Where something happened: the edge (for a pulse or a period, its first edge). */
struct edgestats_where {
	uint64_t seq;
	uint64_t intended_ns;
};

/*
 * One pulse, as the scope would see it. The line changes somewhere inside
 * each edge's write window [write_begin, write_end], so the width lies in
 * [lo, hi] = [next.write_begin - this.write_end, next.write_end - this.write_begin];
 * the estimate is midpoint to midpoint.
 */
struct edgestats_pulse {
	int64_t width_ns;         /* estimate */
	int64_t lo_ns, hi_ns;     /* bounds from the write windows */
	struct edgestats_where at;
};

enum edgestats_polarity {
	EDGESTATS_POS = 0,        /* level 1 while the pulse lasts */
	EDGESTATS_NEG = 1,        /* level 0 */
	EDGESTATS_ANY = 2,        /* both together */
	EDGESTATS_NPOL
};

struct edgestats_widths {
	struct stats_hist h;      /* of the estimates; moments in h.m */
	struct edgestats_pulse tmin, tmax; /* shortest and longest estimate */
	/* The conservative extremes: the lowest lower bound and the highest upper
	 * bound over all pulses (may come from other pulses than tmin/tmax).
	 * Limits are checked against these. */
	struct edgestats_pulse tmin_bound, tmax_bound;
};

struct edgestats_result {
	int64_t half_period_ns;
	/* The nominal width of each polarity: the pin's (edgestats_set_pin():
	 * high, low; 0 when it has none) or edgestats_set_wave()'s, else the
	 * half period; for ANY, the half period (0: a respond run). */
	int64_t nominal_ns[EDGESTATS_NPOL];
	uint64_t records;          /* every record fed, warm-up included */
	uint64_t first_intended_ns; /* of the first record fed: "t+" times count from it */
	uint64_t warmup_edges;
	uint64_t edges;            /* counted (non-warm-up) edges */
	uint64_t missed_periods;   /* sum of expirations - 1 over counted edges */
	uint64_t warmup_missed_periods;
	uint64_t seq_gaps;         /* records missing from the sequence (dropped) */
	uint64_t gap_events;       /* places where records are missing */
	uint64_t largest_gap;      /* most records missing in one place */
	struct edgestats_where first_gap, last_gap; /* the record just after the gap */
	uint64_t write_errors;     /* counted edges flagged EDGE_F_WRITE_ERR */
	uint64_t saturated;        /* counted edges with an offset clamped to +-2.1 s */
	uint64_t level_repeats;    /* consecutive records writing the same level (a
				    * respond log: counted writes of the level the pin
				    * had, no edge) */
	uint64_t pulses_skipped;   /* counted-edge pairs not measured (gap, error, ...) */

	struct stats_hist wake;        /* wake - intended; moments in wake.m */
	struct edgestats_where wake_worst;
	struct stats_hist write;       /* write_end - write_begin */
	struct edgestats_where write_worst;
	/* Where the edge landed: write-window midpoint minus the first deadline
	 * after the previous edge (edgestats_placement_missed(): the intended
	 * time unless slots were missed); worst: the one largest in magnitude
	 * (signed). */
	struct stats_hist place;
	struct edgestats_where place_worst;
	int64_t place_worst_ns;

	/* Spin mode (EDGE_F_SPIN): time spent spinning, write_begin - wake
	 * summed over counted edges, and the late wake-ups (EDGE_F_LATE). */
	uint64_t spin_edges;
	uint64_t late_edges;
	int64_t spin_ns;
	/* intended times of the first and last counted edge, for fractions */
	uint64_t counted_first_ns, counted_last_ns;

	struct edgestats_widths width[EDGESTATS_NPOL];

	/* Rise to rise (midpoint to midpoint), over three consecutive records. */
	struct stats_moments period_m;
	struct edgestats_where period_min_at, period_max_at;

	/* A respond log (edgestats_set_respond()). The record's intended time
	 * is the event's timestamp, so wake is event -> wake-up, place event ->
	 * write-window midpoint, missed_periods the events the kernel lost;
	 * writes that answer no event (EDGE_F_NOEVENT: a pulse's end, the
	 * return to idle) are writes but no answer. A pulse runs from a write
	 * that changed the pin to the next one that changed it back; a write
	 * of the level the pin had (level_repeats) answers its event but is no
	 * edge. There is no period. */
	bool respond;
	uint64_t answers;              /* counted writes that answer an event */
	struct stats_hist resp_begin;  /* write_begin - event */
	struct stats_hist resp_end;    /* write_end - event: the answer's latency */
	struct edgestats_where resp_worst; /* the largest write_end - event */
	/* The answers a scope across the two pins sees: counted answers that
	 * changed the output (not a rewrite, no clamped offset). Of those,
	 * the least write_begin - event and the largest write_end - event,
	 * where the scope's bounds come from (docs/respond.md). */
	uint64_t scope_answers;
	int64_t scope_lo_ns, scope_hi_ns;
	struct edgestats_where scope_lo_at, scope_hi_at;
	/* edgestats_respond_end(): the run's own counts at its stop are in
	 * missed_periods and warmup_missed_periods, and unanswered is the
	 * events still queued then (respond_end false: not known, a log
	 * written before they were kept) */
	bool respond_end;
	uint64_t unanswered;
};

/*
 * After the last edgestats_add() of a respond log: the RT loop's own counts
 * at the stop (the log's note at the stop, docs/log-format.md), from the
 * kernel's sequence numbers: @lost events lost after the warm-up and
 * @lost_warmup in it, exact where a record's 16-bit expirations saturated
 * or events were lost among those still queued; @unanswered events stamped
 * before the stop and never answered. The records' own sums are kept when
 * larger (a count is never lowered).
 */
void edgestats_respond_end(struct edgestats *s, uint64_t lost, uint64_t lost_warmup,
			   uint64_t unanswered);

/* The share of the measured time spent spinning: spin_ns over the span of
 * the counted edges' slots ((last - first) + one half period). 0 without
 * spin; NaN without a counted edge. */
double edgestats_spin_fraction(const struct edgestats_result *r);

/* The pulse the last edgestats_add() closed (from the previous edge to the
 * one just added), if it was counted: true with *p and its polarity, false
 * when that edge closed no counted pulse. For per-edge reports (analyze). */
bool edgestats_last_pulse(const struct edgestats *s, struct edgestats_pulse *p,
			  enum edgestats_polarity *pol);
/* Missed periods and wake latency of the record the last edgestats_add()
 * took (as counted in the results). */
uint64_t edgestats_last_missed(const struct edgestats *s);
int64_t edgestats_last_latency(const struct edgestats *s);

/* Everything measured so far. Call it, and read through the pointer, only
 * while nobody is feeding (after the writer thread has stopped): it computes
 * width[EDGESTATS_ANY] from the two polarities, which edgestats_add() leaves
 * to it. Valid until the next edgestats_add() or edgestats_free(). */
const struct edgestats_result *edgestats_result(const struct edgestats *s);

#endif
