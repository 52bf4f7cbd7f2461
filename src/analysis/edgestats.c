/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-edge statistics, fed record by record by the writer thread (run) or the
 * log reader (analyze). edgestats_add() is on the hot path: no allocation. */
#include "analysis/edgestats.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct edgestats {
	struct edgestats_result r;
	bool have_prev, have_prev2;
	bool prev_linked;         /* prev2 -> prev had no gap */
	struct edge_rec prev, prev2;
	uint64_t next_seq;        /* the seq the next record should carry */
	bool any_stale;           /* width[EDGESTATS_ANY] needs recomputing */
	/* the last record's missed periods and latency */
	uint64_t last_missed;
	int64_t last_latency;
	/* the pulse the last edgestats_add() closed, for edgestats_last_pulse() */
	bool last_valid;
	enum edgestats_polarity last_pol;
	struct edgestats_pulse last;
	/* edgestats_set_edge_window(): every record's window, in 64 bits */
	bool fixed_window;
	int64_t win_lo_ns, win_hi_ns;
	/* edgestats_set_wave(): a duty cycle's high and low */
	bool duty;
	struct wave wave;
	/* A respond log: the pin's level now (-1: not known, after a failed
	 * write) and the write that last changed it, where its next pulse
	 * starts; a write of the level the pin has is no edge. pin_linked: no
	 * record is missing since that write. */
	int pin_level;
	bool have_pin, pin_linked;
	struct edge_rec pin;
};

/* An offset really clamped: EDGE_F_SATURATED and one at the bound. The RT
 * loop also sets the flag when only the 16-bit expirations saturated: the
 * times are then exact, and the count comes from the intended times. */
static inline bool offsets_clamped(const struct edge_rec *e)
{
	return (e->flags & EDGE_F_SATURATED) &&
	       (e->wake_off_ns == INT32_MAX || e->wake_off_ns == INT32_MIN ||
		e->write_begin_off_ns == INT32_MAX || e->write_begin_off_ns == INT32_MIN ||
		e->write_end_off_ns == INT32_MAX || e->write_end_off_ns == INT32_MIN);
}

uint64_t edgestats_missed_slow(const struct edge_rec *prev, const struct edge_rec *e,
			       int64_t half_period_ns)
{
	uint64_t own = e->expirations > 1 ? e->expirations - 1u : 0, d, slots, seq_adv;

	if (!prev || half_period_ns <= 0 || e->seq <= prev->seq || e->intended_ns <= prev->intended_ns)
		return own;
	/* slot advance - seq advance, the slots rounded (an edge list's
	 * intended times need not sit exactly on a grid) */
	d = e->intended_ns - prev->intended_ns;
	slots = d / (uint64_t)half_period_ns;
	if (d % (uint64_t)half_period_ns >= ((uint64_t)half_period_ns + 1) / 2)
		slots++;
	seq_adv = e->seq - prev->seq;
	if (slots <= seq_adv)
		return e->seq == prev->seq + 1 ? own : 0;
	return slots - seq_adv > own ? slots - seq_adv : own;
}

static const int64_t hist_highest = STATS_HIST_DEFAULT_HIGHEST;

struct edgestats *edgestats_new(int64_t half_period_ns)
{
	struct edgestats *s;
	int i;

	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->r.half_period_ns = half_period_ns;
	for (i = 0; i < EDGESTATS_NPOL; i++)
		s->r.nominal_ns[i] = half_period_ns;
	stats_moments_init(&s->r.period_m);
	if (stats_hist_init(&s->r.wake, hist_highest) ||
	    stats_hist_init(&s->r.write, hist_highest) ||
	    stats_hist_init(&s->r.place, hist_highest) ||
	    stats_hist_init(&s->r.resp_begin, hist_highest) ||
	    stats_hist_init(&s->r.resp_end, hist_highest))
		goto fail;
	/* Widths are near the half period: centered there, the usual ones
	 * are counted to the nanosecond (stats.h). */
	for (i = 0; i < EDGESTATS_NPOL; i++)
		if (stats_hist_init_centered(&s->r.width[i].h, hist_highest,
					     half_period_ns > 0 && half_period_ns <= hist_highest
					     ? half_period_ns : 0))
			goto fail;
	return s;
fail:
	edgestats_free(s);
	errno = ENOMEM;
	return NULL;
}

void edgestats_set_wave(struct edgestats *s, const struct wave *w)
{
	if (wave_is_square(w))
		return;
	/* The width histograms stay centred on the half period: the "any"
	 * one is their merge, which needs one centre (stats.h); a width far
	 * from it is kept within 0.01 %, not to the nanosecond. */
	s->duty = true;
	s->wave = *w;
	s->r.nominal_ns[EDGESTATS_POS] = w->high_ns;
	s->r.nominal_ns[EDGESTATS_NEG] = w->low_ns;
}

/* A duty cycle's slots from @prev to @e: on its grid, the time after an
 * edge to level L is seg(L), seg(!L), seg(L), ...; the nearest count. */
static uint64_t duty_slots(const struct wave *w, const struct edge_rec *prev, uint64_t d)
{
	uint64_t per = wave_period(w), q = d / per, rem = d % per;
	uint64_t a = wave_seg(w, prev->level);

	if (rem >= a + (per - a) / 2)
		return 2 * q + 2;
	return 2 * q + (rem >= a / 2 ? 1 : 0);
}

void edgestats_free(struct edgestats *s)
{
	int i;

	if (!s)
		return;
	stats_hist_free(&s->r.wake);
	stats_hist_free(&s->r.write);
	stats_hist_free(&s->r.place);
	stats_hist_free(&s->r.resp_begin);
	stats_hist_free(&s->r.resp_end);
	for (i = 0; i < EDGESTATS_NPOL; i++)
		stats_hist_free(&s->r.width[i].h);
	free(s);
}

/* The write window, relative to the intended time: the record's, or the
 * one edgestats_set_edge_window() gave (wider than 32 bits hold). */
static inline int64_t wb_off(const struct edgestats *s, const struct edge_rec *e)
{
	return s->fixed_window ? s->win_lo_ns : (int64_t)e->write_begin_off_ns;
}

static inline int64_t we_off(const struct edgestats *s, const struct edge_rec *e)
{
	return s->fixed_window ? s->win_hi_ns : (int64_t)e->write_end_off_ns;
}

/* Twice the midpoint of the write window, relative to the intended time. */
static inline int64_t mid2_off(const struct edgestats *s, const struct edge_rec *e)
{
	return wb_off(s, e) + we_off(s, e);
}

void edgestats_set_respond(struct edgestats *s, int idle_level)
{
	s->r.respond = true;
	s->pin_level = idle_level ? 1 : 0;
}

void edgestats_respond_end(struct edgestats *s, uint64_t lost, uint64_t lost_warmup,
			   uint64_t unanswered)
{
	struct edgestats_result *r = &s->r;

	if (lost > r->missed_periods)
		r->missed_periods = lost;
	if (lost_warmup > r->warmup_missed_periods)
		r->warmup_missed_periods = lost_warmup;
	r->unanswered = unanswered;
	r->respond_end = true;
}

void edgestats_set_pin(struct edgestats *s, const struct pin *p)
{
	if (p->kind == PIN_RESPOND)
		edgestats_set_respond(s, p->idle_level);
	else
		edgestats_set_wave(s, &p->wave);
	s->r.nominal_ns[EDGESTATS_POS] = p->nominal_ns[PIN_POS];
	s->r.nominal_ns[EDGESTATS_NEG] = p->nominal_ns[PIN_NEG];
	s->r.nominal_ns[EDGESTATS_ANY] = pin_half_period(p);
}

void edgestats_set_edge_window(struct edgestats *s, int64_t lo_ns, int64_t hi_ns)
{
	s->fixed_window = true;
	s->win_lo_ns = lo_ns;
	s->win_hi_ns = hi_ns;
}

/* Half, rounded down. GCC shifts signed values arithmetically; a plain "/ 2"
 * compiled to a 64-bit idiv here, the slowest instruction on the hot path. */
static inline int64_t half_floor(int64_t x)
{
	return x >> 1;
}

/* The extremes of @w for pulse @p; @first: @w has none yet. */
static void extremes_add(struct edgestats_widths *w, const struct edgestats_pulse *p, bool first)
{
	if (first || p->width_ns < w->tmin.width_ns)
		w->tmin = *p;
	if (first || p->width_ns > w->tmax.width_ns)
		w->tmax = *p;
	if (first || p->lo_ns < w->tmin_bound.lo_ns)
		w->tmin_bound = *p;
	if (first || p->hi_ns > w->tmax_bound.hi_ns)
		w->tmax_bound = *p;
}

static void pulse_add(struct edgestats *s, const struct edge_rec *a, const struct edge_rec *b)
{
	struct edgestats_widths *w;
	struct edgestats_pulse p;
	int64_t d = (int64_t)(b->intended_ns - a->intended_ns);

	p.width_ns = d + half_floor(mid2_off(s, b) - mid2_off(s, a));
	p.lo_ns = d + wb_off(s, b) - we_off(s, a);
	p.hi_ns = d + we_off(s, b) - wb_off(s, a);
	/* A pulse is numbered by the edge that ends it, everywhere (summary,
	 * analyze's worst edges, JSON, CSV): that edge is where a scope
	 * triggered on the pulse shows it, and where it is known complete. */
	p.at.seq = b->seq;
	p.at.intended_ns = b->intended_ns;
	s->last_pol = a->level ? EDGESTATS_POS : EDGESTATS_NEG;
	s->last = p;
	s->last_valid = true;
	w = &s->r.width[s->last_pol];
	extremes_add(w, &p, w->h.m.n == 0);
	stats_hist_add(&w->h, p.width_ns);
	/* Both polarities together are computed on demand (edgestats_result). */
	s->any_stale = true;
}

static void period_add(struct edgestats *s, const struct edge_rec *a, const struct edge_rec *b)
{
	struct edgestats_result *r = &s->r;
	int64_t t = (int64_t)(b->intended_ns - a->intended_ns) +
		    half_floor(mid2_off(s, b) - mid2_off(s, a));
	struct edgestats_where at = { b->seq, b->intended_ns }; /* the edge ending it */

	if (r->period_m.n == 0 || t < r->period_m.min)
		r->period_min_at = at;
	if (r->period_m.n == 0 || t > r->period_m.max)
		r->period_max_at = at;
	stats_moments_add(&r->period_m, t);
}

/* edgestats_missed() on a duty cycle's grid: the slow path's slot count
 * from the times, not from the half period. */
static uint64_t missed_duty(const struct edgestats *s, const struct edge_rec *e)
{
	const struct edge_rec *prev = s->have_prev ? &s->prev : NULL;
	uint64_t own = e->expirations > 1 ? e->expirations - 1u : 0, slots, seq_adv;

	if (prev && e->seq == prev->seq + 1 && e->expirations < UINT16_MAX)
		return own;
	if (!prev || e->seq <= prev->seq || e->intended_ns <= prev->intended_ns)
		return own;
	slots = duty_slots(&s->wave, prev, e->intended_ns - prev->intended_ns);
	seq_adv = e->seq - prev->seq;
	if (slots <= seq_adv)
		return e->seq == prev->seq + 1 ? own : 0;
	return slots - seq_adv > own ? slots - seq_adv : own;
}

static inline bool usable(const struct edge_rec *e)
{
	return !(e->flags & (EDGE_F_WARMUP | EDGE_F_WRITE_ERR)) && !offsets_clamped(e);
}

/*
 * A respond log's pin, after record @e (@linked: no record missing before
 * it). The output changes only at a write of the other level: a write of
 * the level it has (follow mode after a lost event, or a bounce the kernel
 * reported half of) answers its event but is no edge and starts no pulse;
 * a pulse runs from the write that changed the pin to the next one that
 * changed it back, as the scope shows it (compare counts edges the same
 * way). A failed write leaves the level unknown; missing records break the
 * chain: no pulse is measured across either.
 */
static void respond_pin(struct edgestats *s, const struct edge_rec *e, bool linked)
{
	struct edgestats_result *r = &s->r;

	if (!linked)
		s->pin_linked = false;
	if (e->flags & EDGE_F_WRITE_ERR) {
		s->pin_level = -1;
		return;
	}
	if (e->level == s->pin_level) {
		if (!(e->flags & EDGE_F_WARMUP))
			r->level_repeats++;
		return;
	}
	if (!(e->flags & EDGE_F_WARMUP) && s->have_pin && !(s->pin.flags & EDGE_F_WARMUP)) {
		if (s->pin_linked && s->pin_level >= 0 && usable(&s->pin) && usable(e))
			pulse_add(s, &s->pin, e);
		else
			r->pulses_skipped++;
	}
	/* after a failed write, this one may have rewritten what that one set:
	 * where the level began is not known, so no pulse starts here */
	s->pin_linked = s->pin_level >= 0;
	if (!(e->flags & (EDGE_F_WARMUP | EDGE_F_NOEVENT)) && !offsets_clamped(e)) {
		struct edgestats_where at = { e->seq, e->intended_ns };

		if (!r->scope_answers || e->write_begin_off_ns < r->scope_lo_ns) {
			r->scope_lo_ns = e->write_begin_off_ns;
			r->scope_lo_at = at;
		}
		if (!r->scope_answers || e->write_end_off_ns > r->scope_hi_ns) {
			r->scope_hi_ns = e->write_end_off_ns;
			r->scope_hi_at = at;
		}
		r->scope_answers++;
	}
	s->pin = *e;
	s->have_pin = true;
	s->pin_level = e->level;
}

void edgestats_add(struct edgestats *s, const struct edge_rec *rec)
{
	struct edgestats_result *r = &s->r;
	/* A local copy: the counters written below could alias *rec, which
	 * would make the compiler reload it after every store. */
	const struct edge_rec ec = *rec, *e = &ec;
	bool linked = true;
	/* A respond log has no grid: its latencies count from the event and
	 * its lost events are in the record alone. */
	int64_t half = r->respond ? 0 : r->half_period_ns;
	bool noevent = r->respond && (e->flags & EDGE_F_NOEVENT);
	uint64_t missed = noevent ? 0 : r->respond
		? (e->expirations > 1 ? e->expirations - 1u : 0)
		: s->duty ? missed_duty(s, e) : edgestats_missed(s->have_prev ? &s->prev : NULL, e, half);

	s->last_valid = false;
	s->last_missed = missed;
	if (r->records++ == 0)
		r->first_intended_ns = e->intended_ns;
	if (e->seq != s->next_seq) {
		/* Records lost between the RT thread and us (a full ring). A seq
		 * that goes backwards is not a loss, but still breaks the chain. */
		linked = false;
		if (e->seq > s->next_seq) {
			uint64_t missing = e->seq - s->next_seq;

			r->seq_gaps += missing;
			if (missing > r->largest_gap)
				r->largest_gap = missing;
			r->last_gap.seq = e->seq;
			r->last_gap.intended_ns = e->intended_ns;
			if (r->gap_events++ == 0)
				r->first_gap = r->last_gap;
		}
	}
	s->next_seq = e->seq + 1;

	if (e->flags & EDGE_F_WARMUP) {
		r->warmup_edges++;
		r->warmup_missed_periods += missed;
		s->last_latency = edgestats_wake_latency_missed(e, missed, half);
	} else {
		/* Lateness from the first deadline after the previous edge, as
		 * cyclictest measures it: an edge that served a later slot
		 * (expirations > 1) was late by the slots it skipped too. */
		int64_t wake = edgestats_wake_latency_missed(e, missed, half);
		int64_t cost = (int64_t)e->write_end_off_ns - (int64_t)e->write_begin_off_ns;

		s->last_latency = noevent ? 0 : wake;
		r->edges++;
		r->missed_periods += missed;
		if (e->flags & EDGE_F_WRITE_ERR)
			r->write_errors++;
		if (offsets_clamped(e))
			r->saturated++;
		if (!noevent && wake > r->wake.m.max) {
			r->wake_worst.seq = e->seq;
			r->wake_worst.intended_ns = e->intended_ns;
		}
		if (!noevent)
			stats_hist_add(&r->wake, wake);
		if (cost > r->write.m.max) {
			r->write_worst.seq = e->seq;
			r->write_worst.intended_ns = e->intended_ns;
		}
		stats_hist_add(&r->write, cost);
		if (r->respond && !noevent)
			r->answers++;
		if (r->respond && !noevent && !(e->flags & EDGE_F_WRITE_ERR) &&
		    !offsets_clamped(e)) {
			if (r->resp_end.m.n == 0 || e->write_end_off_ns > r->resp_end.m.max) {
				r->resp_worst.seq = e->seq;
				r->resp_worst.intended_ns = e->intended_ns;
			}
			stats_hist_add(&r->resp_begin, e->write_begin_off_ns);
			stats_hist_add(&r->resp_end, e->write_end_off_ns);
		}
		if (!noevent && !(e->flags & EDGE_F_WRITE_ERR) && !offsets_clamped(e)) {
			int64_t place = edgestats_after_missed(half_floor(mid2_off(s, e)), missed,
							       half);
			int64_t worst = r->place_worst_ns;

			if (r->place.m.n == 0 || (place < 0 ? -place : place) >
						  (worst < 0 ? -worst : worst)) {
				r->place_worst_ns = place;
				r->place_worst.seq = e->seq;
				r->place_worst.intended_ns = e->intended_ns;
			}
			stats_hist_add(&r->place, place);
		}
		if (e->flags & EDGE_F_SPIN) {
			int64_t spun = (int64_t)e->write_begin_off_ns - (int64_t)e->wake_off_ns;

			r->spin_edges++;
			if (e->flags & EDGE_F_LATE)
				r->late_edges++;
			if (spun > 0 && !offsets_clamped(e))
				r->spin_ns += spun;
		}
		if (r->edges == 1)
			r->counted_first_ns = e->intended_ns;
		r->counted_last_ns = e->intended_ns;

		/* A pulse counts only when both its edges do: the one that starts
		 * at the last warm-up edge is left out. A respond log's pulses
		 * run from write to write that changed the pin (respond_pin()). */
		if (r->respond) {
			/* below, for every record */
		} else if (s->have_prev && !(s->prev.flags & EDGE_F_WARMUP)) {
			if (linked && usable(&s->prev) && usable(e) && s->prev.level != e->level) {
				pulse_add(s, &s->prev, e);
			} else {
				r->pulses_skipped++;
				if (linked && s->prev.level == e->level)
					r->level_repeats++;
			}
		}
		if (!r->respond && e->level && s->have_prev2 && linked && s->prev_linked &&
		    s->prev2.level && !s->prev.level &&
		    usable(&s->prev2) && usable(&s->prev) && usable(e))
			period_add(s, &s->prev2, e);
	}

	if (r->respond)
		respond_pin(s, e, linked);
	s->prev2 = s->prev;
	s->have_prev2 = s->have_prev;
	s->prev_linked = linked;
	s->prev = *e;
	s->have_prev = true;
}

void edgestats_seed(struct edgestats *s, const struct edge_rec *before)
{
	s->prev = *before;
	/* as after a warm-up edge: no pulse or period starts at it */
	s->prev.flags |= EDGE_F_WARMUP;
	s->have_prev = true;
	s->have_prev2 = false;
	s->prev_linked = false;
	s->next_seq = before->seq + 1;
	/* a respond log's pin: at that write's level, no pulse from it */
	s->pin = s->prev;
	s->have_pin = true;
	s->pin_linked = false;
	s->pin_level = before->flags & EDGE_F_WRITE_ERR ? -1 : before->level;
}

double edgestats_spin_fraction(const struct edgestats_result *r)
{
	double span;

	if (r->edges == 0)
		return NAN;
	span = (double)(r->counted_last_ns - r->counted_first_ns) + (double)r->half_period_ns;
	return span > 0 ? (double)r->spin_ns / span : NAN;
}

bool edgestats_last_pulse(const struct edgestats *s, struct edgestats_pulse *p,
			  enum edgestats_polarity *pol)
{
	if (!s->last_valid)
		return false;
	*p = s->last;
	*pol = s->last_pol;
	return true;
}

uint64_t edgestats_last_missed(const struct edgestats *s)
{
	return s->last_missed;
}

int64_t edgestats_last_latency(const struct edgestats *s)
{
	return s->last_latency;
}

/* The largest distance of @m's extremes from @nominal. */
static int64_t max_err(const struct stats_moments *m, int64_t nominal)
{
	int64_t below = nominal - m->min, above = m->max - nominal;

	return below > above ? below : above;
}

void edgestats_live(const struct edgestats *s, struct edgestats_live *out)
{
	const struct edgestats_result *r = &s->r;
	const struct stats_moments *pos = &r->width[EDGESTATS_POS].h.m;
	const struct stats_moments *neg = &r->width[EDGESTATS_NEG].h.m;

	memset(out, 0, sizeof(*out));
	out->edges = r->edges;
	out->missed_periods = r->missed_periods;
	out->seq_gaps = r->seq_gaps;
	if (r->wake.m.n) {
		out->wake_min_ns = r->wake.m.min;
		out->wake_max_ns = r->wake.m.max;
		out->wake_avg_ns = stats_moments_mean(&r->wake.m);
	}
	if (pos->n && neg->n) {
		out->width_min_ns = pos->min < neg->min ? pos->min : neg->min;
		out->width_max_ns = pos->max > neg->max ? pos->max : neg->max;
	} else if (pos->n || neg->n) {
		out->width_min_ns = pos->n ? pos->min : neg->min;
		out->width_max_ns = pos->n ? pos->max : neg->max;
	}
	/* how far each polarity strayed from its own nominal, so far */
	if (pos->n && r->nominal_ns[EDGESTATS_POS] > 0)
		out->width_error_ns = max_err(pos, r->nominal_ns[EDGESTATS_POS]);
	if (neg->n && r->nominal_ns[EDGESTATS_NEG] > 0 &&
	    max_err(neg, r->nominal_ns[EDGESTATS_NEG]) > out->width_error_ns)
		out->width_error_ns = max_err(neg, r->nominal_ns[EDGESTATS_NEG]);
}

/* The earlier of two pulses, for ties between the polarities. */
static const struct edgestats_pulse *earlier(const struct edgestats_pulse *a,
					     const struct edgestats_pulse *b)
{
	return a->at.seq <= b->at.seq ? a : b;
}

static void widths_combine(struct edgestats_widths *any, const struct edgestats_widths *a,
			   const struct edgestats_widths *b)
{
	stats_hist_reset(&any->h);
	stats_hist_merge(&any->h, &a->h);
	stats_hist_merge(&any->h, &b->h);
	if (!a->h.m.n || !b->h.m.n) {
		const struct edgestats_widths *one = a->h.m.n ? a : b;

		any->tmin = one->tmin;
		any->tmax = one->tmax;
		any->tmin_bound = one->tmin_bound;
		any->tmax_bound = one->tmax_bound;
		return;
	}
#define PICK(field, key, better) \
	any->field = a->field.key == b->field.key ? *earlier(&a->field, &b->field) : \
		     a->field.key better b->field.key ? a->field : b->field
	PICK(tmin, width_ns, <);
	PICK(tmax, width_ns, >);
	PICK(tmin_bound, lo_ns, <);
	PICK(tmax_bound, hi_ns, >);
#undef PICK
}

const struct edgestats_result *edgestats_result(const struct edgestats *s)
{
	/* The combined widths are a cache over the two polarities; the object
	 * itself was allocated writable by edgestats_new(). */
	struct edgestats *w = (struct edgestats *)s;

	if (w->any_stale) {
		widths_combine(&w->r.width[EDGESTATS_ANY], &w->r.width[EDGESTATS_POS],
			       &w->r.width[EDGESTATS_NEG]);
		w->any_stale = false;
	}
	return &w->r;
}
