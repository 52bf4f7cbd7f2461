/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Edge statistics per phase. */
#include "analysis/phasestats.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct phasestats {
	size_t n;
	uint64_t *starts;      /* n + 1: the last is the end (UINT64_MAX: open) */
	struct edgestats **st;
	size_t cur;            /* the phase of the last edge: usually the next one's */
	bool *fed;             /* n: phase i has had a record */
	int64_t half_period_ns;
	bool have_last;
	struct edge_rec last;  /* the last record fed, warm-up or outside every phase too */
};

struct phasestats *phasestats_new(int64_t half_period_ns, size_t n, const uint64_t *starts,
				  uint64_t end_ns)
{
	struct phasestats *ps = calloc(1, sizeof(*ps));
	size_t i;

	if (!ps || !n)
		goto fail;
	ps->n = n;
	ps->half_period_ns = half_period_ns;
	ps->starts = calloc(n + 1, sizeof(*ps->starts));
	ps->st = calloc(n, sizeof(*ps->st));
	ps->fed = calloc(n, sizeof(*ps->fed));
	if (!ps->starts || !ps->st || !ps->fed)
		goto fail;
	memcpy(ps->starts, starts, n * sizeof(*starts));
	ps->starts[n] = end_ns ? end_ns : UINT64_MAX;
	for (i = 0; i < n; i++) {
		ps->st[i] = edgestats_new(half_period_ns);
		if (!ps->st[i])
			goto fail;
	}
	return ps;
fail:
	phasestats_free(ps);
	if (!errno)
		errno = EINVAL;
	return NULL;
}

void phasestats_set_pin(struct phasestats *ps, const struct pin *p)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		edgestats_set_pin(ps->st[i], p);
}

void phasestats_free(struct phasestats *ps)
{
	size_t i;

	if (!ps)
		return;
	for (i = 0; ps->st && i < ps->n; i++)
		edgestats_free(ps->st[i]);
	free(ps->st);
	free(ps->fed);
	free(ps->starts);
	free(ps);
}

int phasestats_index(const struct phasestats *ps, uint64_t t)
{
	size_t i;

	for (i = 0; i < ps->n; i++) {
		if (t >= ps->starts[i] && t < ps->starts[i + 1])
			return (int)i;
	}
	return -1;
}

/* Into phase @i. Its first record's sequence gap and missed periods count
 * from the record before it, wherever that went: a phase's statistics start
 * mid-run, and counting from seq 0 made every earlier record "missing". */
static void phase_add(struct phasestats *ps, size_t i, const struct edge_rec *e)
{
	if (!ps->fed[i]) {
		ps->fed[i] = true;
		if (ps->have_last)
			edgestats_seed(ps->st[i], &ps->last);
	}
	edgestats_add(ps->st[i], e);
}

void phasestats_add(struct phasestats *ps, const struct edge_rec *e)
{
	uint64_t t = e->intended_ns;
	int i;

	if (e->flags & EDGE_F_WARMUP)
		goto out;
	/* Edges come in order: the phase rarely changes. */
	if (t >= ps->starts[ps->cur] && t < ps->starts[ps->cur + 1]) {
		phase_add(ps, ps->cur, e);
		goto out;
	}
	i = phasestats_index(ps, t);
	if (i < 0)
		goto out;
	ps->cur = (size_t)i;
	phase_add(ps, (size_t)i, e);
out:
	ps->last = *e;
	ps->have_last = true;
}

int64_t phasestats_ran_ns(const struct phasestats *ps, size_t i, int64_t planned_ns)
{
	uint64_t end, stop;
	int64_t ran;

	if (i >= ps->n || !ps->have_last)
		return 0;
	/* the last slot fed lasts a half period */
	end = ps->last.intended_ns + (uint64_t)(ps->half_period_ns > 0 ? ps->half_period_ns : 0);
	stop = end < ps->starts[i + 1] ? end : ps->starts[i + 1];
	if (stop <= ps->starts[i])
		return 0;
	ran = stop - ps->starts[i] > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)(stop - ps->starts[i]);
	return planned_ns > 0 && ran > planned_ns ? planned_ns : ran;
}

size_t phasestats_count(const struct phasestats *ps)
{
	return ps->n;
}

struct edgestats *phasestats_phase(const struct phasestats *ps, size_t i)
{
	return i < ps->n ? ps->st[i] : NULL;
}
