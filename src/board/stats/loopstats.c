/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's view of the wave from the joined stream of a loopback log, and
 * the statement of how far after the write window the kernel sees an edge. */
#include "stats/loopstats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/units.h"
#include "log/edgelog.h"

struct loopstats {
	struct loopstats_result r;
	bool have_prev;
	struct loopjoin_edge prev;
};

struct loopstats *loopstats_new(int64_t half_period_ns)
{
	struct loopstats *s = calloc(1, sizeof(*s));
	int p;

	if (!s)
		return NULL;
	s->r.half_period_ns = half_period_ns;
	if (stats_hist_init(&s->r.from_begin, STATS_HIST_DEFAULT_HIGHEST) < 0 ||
	    stats_hist_init(&s->r.from_end, STATS_HIST_DEFAULT_HIGHEST) < 0)
		goto fail;
	for (p = 0; p < EDGESTATS_NPOL; p++)
		if (stats_hist_init_centered(&s->r.width[p].h, STATS_HIST_DEFAULT_HIGHEST,
					     half_period_ns > 0 &&
					     half_period_ns <= STATS_HIST_DEFAULT_HIGHEST ?
					     half_period_ns : 0) < 0)
			goto fail;
	return s;
fail:
	loopstats_free(s);
	errno = EINVAL;
	return NULL;
}

void loopstats_free(struct loopstats *s)
{
	int p;

	if (!s)
		return;
	stats_hist_free(&s->r.from_begin);
	stats_hist_free(&s->r.from_end);
	for (p = 0; p < EDGESTATS_NPOL; p++)
		stats_hist_free(&s->r.width[p].h);
	free(s);
}

static bool counted(const struct edge_rec *e)
{
	return !(e->flags & (EDGE_F_WARMUP | EDGE_F_WRITE_ERR | EDGE_F_SATURATED));
}

static void width_add(struct edgestats_widths *w, const struct edgestats_pulse *p)
{
	if (!w->h.m.n || p->width_ns < w->tmin.width_ns)
		w->tmin = w->tmin_bound = *p;
	if (!w->h.m.n || p->width_ns > w->tmax.width_ns)
		w->tmax = w->tmax_bound = *p;
	stats_hist_add(&w->h, p->width_ns);
}

void loopstats_add(struct loopstats *s, const struct loopjoin_edge *e)
{
	struct loopstats_result *r = &s->r;
	struct edgestats_where at = { e->rec.seq, e->rec.intended_ns };

	if (counted(&e->rec)) {
		r->edges++;
		if (e->has_event) {
			int64_t fb = (int64_t)(e->event_ns - edge_write_begin_ns(&e->rec));
			int64_t fe = (int64_t)(e->event_ns - edge_write_end_ns(&e->rec));

			r->events++;
			if (!r->from_begin.m.n || fb > r->from_begin.m.max)
				r->from_begin_worst = at;
			if (!r->from_end.m.n || fe > r->from_end.m.max)
				r->from_end_worst = at;
			stats_hist_add(&r->from_begin, fb);
			stats_hist_add(&r->from_end, fe);
			if (fb < 0) {
				if (!r->early || -fb > r->early_worst_ns) {
					r->early_worst_ns = -fb;
					r->early_worst = at;
				}
				r->early++;
			}
		} else {
			r->no_event++;
			if (e->skipped)
				r->skipped++;
		}
		/* A pulse needs both its edges counted, consecutive and seen. */
		if (s->have_prev && counted(&s->prev.rec) && s->prev.has_event && e->has_event &&
		    e->rec.seq == s->prev.rec.seq + 1 && e->rec.level != s->prev.rec.level) {
			struct edgestats_pulse p;
			int pol = s->prev.rec.level ? EDGESTATS_POS : EDGESTATS_NEG;

			p.width_ns = (int64_t)(e->event_ns - s->prev.event_ns);
			p.lo_ns = p.hi_ns = p.width_ns;
			p.at = at;
			width_add(&r->width[pol], &p);
			width_add(&r->width[EDGESTATS_ANY], &p);
		}
	}
	s->prev = *e;
	s->have_prev = true;
}

void loopstats_finish(struct loopstats *s, const struct loopjoin_counts *c)
{
	s->r.kernel_dropped = c->kernel_dropped;
	s->r.extra = c->extra;
	s->r.late = c->late;
	s->r.pairs = c->pairs;
}

const struct loopstats_result *loopstats_result(const struct loopstats *s)
{
	return &s->r;
}

int loopstats_read_log(const char *path, struct loopstats **out, int *st, char *err,
		       size_t errlen)
{
	enum edgelog_status est;
	struct edgelog_reader *r;
	struct loopjoin *j = NULL;
	struct loopjoin_edge e;
	struct loopstats *s = NULL;
	int got, code = SQW_EXIT_USAGE;

	*out = NULL;
	r = edgelog_reader_open(path, &est, err, errlen);
	if (!r) {
		code = est == EDGELOG_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
		goto fail;
	}
	if (!loopjoin_log_has_loopback(edgelog_reader_meta(r))) {
		edgelog_reader_close(r);
		return 0;
	}
	j = loopjoin_new(r, 0, 0);
	s = loopstats_new((int64_t)edgelog_reader_meta(r)->half_period_ns);
	if (!j || !s) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		code = SQW_EXIT_RUNTIME;
		goto fail;
	}
	while ((got = loopjoin_next_edge(j, &e)) == 1)
		loopstats_add(s, &e);
	if (got < 0) {
		edgelog_reader_error(r, &est);
		code = est == EDGELOG_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
		if (strncmp(loopjoin_error(j), path, strlen(path)))
			snprintf(err, errlen, "%s: %s", path, loopjoin_error(j));
		else
			snprintf(err, errlen, "%s", loopjoin_error(j));
		goto fail;
	}
	loopstats_finish(s, loopjoin_counts(j));
	loopjoin_free(j);
	edgelog_reader_close(r);
	*out = s;
	return 1;
fail:
	loopstats_free(s);
	loopjoin_free(j);
	if (r)
		edgelog_reader_close(r);
	if (st)
		*st = code;
	return -1;
}

bool loopstats_delay_bounds(const struct loopstats_result *r, int64_t *lo, int64_t *hi)
{
	if (!r->from_begin.m.n)
		return false;
	*lo = r->from_end.m.max;
	*hi = r->from_begin.m.min;
	return true;
}

void loopstats_statement(const struct loopstats_result *r, char *buf, size_t len)
{
	char a[32], b[32], c[32], d[32], e[32], f[32];
	int64_t lo, hi;
	size_t n;

	if (!len)
		return;
	buf[0] = '\0';
	if (!loopstats_delay_bounds(r, &lo, &hi))
		return;
	n = (size_t)snprintf(buf, len, "the kernel saw each edge %s .. %s us after its write ended "
			     "(p50 %s, p99 %s us%s) and %s .. %s us after it began",
			     units_us(r->from_end.m.min, a, sizeof(a)),
			     units_us(r->from_end.m.max, b, sizeof(b)),
			     units_us(stats_hist_percentile(&r->from_end, 50), c, sizeof(c)),
			     units_us(stats_hist_percentile(&r->from_end, 99), d, sizeof(d)),
			     r->from_end.m.min < 0 ? "; negative: before the write call returned" : "",
			     units_us(r->from_begin.m.min, e, sizeof(e)),
			     units_us(r->from_begin.m.max, f, sizeof(f)));
	if (n >= len)
		return;
	if (r->early) {
		snprintf(buf + n, len - n, "; but %" PRIu64 " event%s came before %s write began "
			 "(the earliest by %s us, edge %" PRIu64 "): the input follows something "
			 "else, or the clocks disagree, and the timestamps bound nothing",
			 r->early, r->early == 1 ? "" : "s", r->early == 1 ? "its" : "their",
			 units_us(r->early_worst_ns, a, sizeof(a)), r->early_worst.seq);
		return;
	}
	/* The pin changed at p in [wb, we] and the kernel stamped it at
	 * event = p + d, d >= 0: per edge, event - we <= d <= event - wb, and
	 * event - max(event - wb) <= wb <= p <= event. */
	if (lo <= hi)
		snprintf(buf + n, len - n, ": the input path's delay. The pin changed inside the "
			 "write window, so each edge lies between its event minus %s us and its "
			 "event (the kernel's timestamp bounds it from above); a constant delay "
			 "would be %s .. %s us (the largest event - write_end .. the smallest "
			 "event - write_begin)",
			 units_us(r->from_begin.m.max, a, sizeof(a)), units_us(lo, b, sizeof(b)),
			 units_us(hi, c, sizeof(c)));
	else
		snprintf(buf + n, len - n, ": the input path's delay. The pin changed inside the "
			 "write window, so each edge lies between its event minus %s us and its "
			 "event (the kernel's timestamp bounds it from above); no constant delay "
			 "fits every edge: it varied by at least %s us (the largest event - "
			 "write_end minus the smallest event - write_begin)",
			 units_us(r->from_begin.m.max, a, sizeof(a)), units_us(lo - hi, b, sizeof(b)));
}
