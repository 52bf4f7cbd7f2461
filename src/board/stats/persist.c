/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The persistence view: windows opened on rising edges, closed once the
 * changes past their end are known, counted into per-bin difference arrays
 * (constant time per segment, whatever the number of bins). */
#include "stats/persist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PERSIST_OPEN 4          /* windows open at once (they overlap by half) */

struct change {
	int64_t t;
	int level;
};

struct window {
	int64_t start, end;
};

struct pending {
	int64_t t, intended;
	int level;
	bool counted, gap;
};

struct persist {
	int64_t half, span;
	bool intended_ref;
	bool estimating;
	struct pending est[PERSIST_ESTIMATE];
	size_t nest;
	struct change hist[PERSIST_HISTORY]; /* ring, oldest at (head - n) */
	size_t head, n;
	bool wrapped;                         /* a change fell out of the ring */
	struct window win[PERSIST_OPEN];
	size_t nwin;
	int64_t hdiff[PERSIST_BINS + 1], ldiff[PERSIST_BINS + 1];
	uint64_t high[PERSIST_BINS], low[PERSIST_BINS], edges[PERSIST_BINS];
	uint64_t windows, skipped;
	bool finished;
	struct persist_view view;
};

struct persist *persist_new(int64_t half_ns, bool intended_ref)
{
	struct persist *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->intended_ref = intended_ref;
	p->half = half_ns > 0 ? half_ns : 0;
	p->span = 3 * p->half;
	p->estimating = p->half == 0;
	return p;
}

void persist_free(struct persist *p)
{
	free(p);
}

static size_t bin_of(const struct persist *p, int64_t x)
{
	int64_t b = x * PERSIST_BINS / p->span;

	return b < 0 ? 0 : b >= PERSIST_BINS ? PERSIST_BINS - 1 : (size_t)b;
}

/* The line was at @level during [a, b) of a window (relative times). */
static void segment(struct persist *p, int64_t a, int64_t b, int level)
{
	int64_t *d = level ? p->hdiff : p->ldiff;

	if (b <= a)
		return;
	d[bin_of(p, a)]++;
	d[bin_of(p, b - 1) + 1]--;
}

static const struct change *hist_at(const struct persist *p, size_t i)
{
	return &p->hist[(p->head + PERSIST_HISTORY - p->n + i) % PERSIST_HISTORY];
}

/* Count window @w from the changes remembered (all of those inside it are,
 * unless the ring lost some: then it is skipped). */
static void window_count(struct persist *p, const struct window *w)
{
	int64_t cur = 0;
	size_t i = p->n;
	int level;

	/* from the newest back: a window holds a few changes, the ring many */
	while (i > 0 && hist_at(p, i - 1)->t > w->start)
		i--;
	if (i == 0) {
		/* the level at its start is unknown (the first rising edge of a
		 * source, or history lost to glitches) */
		p->skipped++;
		return;
	}
	level = hist_at(p, i - 1)->level;
	for (; i < p->n && hist_at(p, i)->t < w->end; i++) {
		int64_t x = hist_at(p, i)->t - w->start;

		segment(p, cur, x, level);
		p->edges[bin_of(p, x)]++;
		cur = x;
		level = hist_at(p, i)->level;
	}
	segment(p, cur, p->span, level);
	p->windows++;
}

static void process(struct persist *p, int64_t t, int64_t intended, int level, bool counted,
		    bool gap)
{
	size_t i, k;

	if (gap) {
		/* what the line did across the gap is not known */
		p->skipped += p->nwin;
		p->nwin = 0;
		p->n = 0;
		p->wrapped = false;
	}
	/* every change before @t is known: windows that end by then are done */
	for (i = k = 0; i < p->nwin; i++) {
		if (p->win[i].end <= t)
			window_count(p, &p->win[i]);
		else
			p->win[k++] = p->win[i];
	}
	p->nwin = k;
	p->hist[p->head] = (struct change){ t, level ? 1 : 0 };
	p->head = (p->head + 1) % PERSIST_HISTORY;
	if (p->n < PERSIST_HISTORY)
		p->n++;
	else
		p->wrapped = true;
	if (level && counted) {
		int64_t ref = p->intended_ref ? intended : t;
		struct window w = { ref - p->half / 2, ref - p->half / 2 + p->span };

		if (p->nwin < PERSIST_OPEN && (!p->wrapped || w.start >= hist_at(p, 0)->t))
			p->win[p->nwin++] = w;
		else
			p->skipped++;
	}
}

/* The half period of a source that does not say it: the median spacing of
 * its first changes (robust to a few late ones). */
static void estimate(struct persist *p)
{
	int64_t d[PERSIST_ESTIMATE];
	size_t i, n = 0, j;

	for (i = 1; i < p->nest; i++) {
		int64_t v = p->est[i].t - p->est[i - 1].t;

		if (!p->est[i].gap && v > 0)
			d[n++] = v;
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && d[j - 1] > d[j]; j--) {
			int64_t x = d[j];

			d[j] = d[j - 1];
			d[j - 1] = x;
		}
	p->estimating = false;
	if (n >= 2) {
		p->half = d[n / 2];
		p->span = 3 * p->half;
	}
	if (!p->half)
		return;
	for (i = 0; i < p->nest; i++)
		process(p, p->est[i].t, p->est[i].intended, p->est[i].level, p->est[i].counted,
			p->est[i].gap);
}

void persist_add(struct persist *p, int64_t t_ns, int64_t intended_ns, int level, bool counted,
		 bool gap)
{
	if (p->finished)
		return;
	if (p->estimating) {
		p->est[p->nest++] = (struct pending){ t_ns, intended_ns, level, counted, gap };
		if (p->nest == PERSIST_ESTIMATE)
			estimate(p);
		return;
	}
	if (p->half)
		process(p, t_ns, intended_ns, level, counted, gap);
}

void persist_finish(struct persist *p)
{
	int64_t h = 0, l = 0;
	size_t i;

	if (p->finished)
		return;
	if (p->estimating)
		estimate(p);
	/* windows still open reach past the last change: not complete */
	p->finished = true;
	memset(&p->view, 0, sizeof(p->view));
	p->view.intended_ref = p->intended_ref;
	if (!p->half)
		return;
	for (i = 0; i < PERSIST_BINS; i++) {
		h += p->hdiff[i];
		l += p->ldiff[i];
		p->high[i] = (uint64_t)h;
		p->low[i] = (uint64_t)l;
	}
	p->view = (struct persist_view){
		.half_ns = p->half, .x0_ns = -p->half / 2, .span_ns = p->span,
		.nbins = PERSIST_BINS, .windows = p->windows, .skipped = p->skipped,
		.high = p->high, .low = p->low, .edges = p->edges, .intended_ref = p->intended_ref,
	};
}

const struct persist_view *persist_view(const struct persist *p)
{
	return &p->view;
}
