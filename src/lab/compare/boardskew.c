/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two boards, one capture: join their paired edges on the shared grid and
 * split the skew into what the write windows allow and what the clocks did
 * (the model: boardskew.h). */
#include "compare/boardskew.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msgbuf.h"

/* One paired edge of one board, as the join needs it. */
struct side_edge {
	uint64_t grid_ns;
	int64_t cap_ps;
	uint64_t seq;
	int32_t wb_off, we_off;        /* write window - intended */
	uint8_t level;
};

const char *boardskew_check_name(enum boardskew_check c)
{
	static const char *const n[] = { "NONE", "PASS", "FAIL", "INCONCLUSIVE", "SKIP" };

	return (unsigned)c < sizeof(n) / sizeof(n[0]) ? n[c] : "?";
}

/* Board @s's paired capture edges in capture order (which is grid order:
 * its fit is monotonic), each with its grid instant. NULL with *n = 0 on
 * ENOMEM. */
static struct side_edge *side_edges(const struct boardskew_side *s, size_t *n)
{
	const struct compare *c = s->c;
	struct side_edge *v = malloc((c->r.npairs ? c->r.npairs : 1) * sizeof(*v));
	size_t i, k = 0;

	*n = 0;
	if (!v)
		return NULL;
	for (i = 0; i < c->caps.n && k < c->r.npairs; i++) {
		struct align_pair p;
		const struct align_run_edge *re;

		if (!align_pair_of(&c->r, i, &p))
			continue;
		re = align_runs_at(&c->win, p.run);
		/* the grid instant the edge was shifted from (run.phase) */
		v[k].grid_ns = (uint64_t)(re->wb_ns - re->wb_off_ns) + (uint64_t)s->g->offset_ns -
			       (uint64_t)c->meta->wave.phase_ns;
		v[k].cap_ps = align_caps_t(&c->caps, i);
		v[k].seq = align_runs_seq(&c->win, p.run);
		v[k].wb_off = re->wb_off_ns;
		v[k].we_off = (int32_t)((int64_t)re->wb_off_ns + re->ww_ns);
		v[k].level = re->level;
		k++;
	}
	*n = k;
	return v;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* Nearest-rank percentile of a sorted array. */
static double rank_of(const double *v, size_t n, double p)
{
	size_t r = (size_t)ceil(p * (double)n);

	return v[r ? r - 1 : 0];
}

/* Why the clock check cannot be judged, or "" when it can; E from both
 * logs' maximum errors. */
static void clock_claim(const struct run_grid *ga, const struct run_grid *gb, struct boardskew *s)
{
	const struct run_grid *g[2] = { ga, gb };
	int i;

	s->clock_bound_ns = -1;
	s->clock_skip[0] = 0;
	if (!strcmp(ga->clock, "monotonic") && !strcmp(gb->clock, "monotonic")) {
		/* two lines of one run (docs/lines.md): one clock, nothing to bound */
		snprintf(s->clock_skip, sizeof(s->clock_skip),
			 "both logs are lines of one run on one CLOCK_MONOTONIC: no clock error "
			 "between them");
		return;
	}
	for (i = 0; i < 2; i++) {
		const char *who = i ? "B" : "A";

		if (!g[i]->sync_known) {
			snprintf(s->clock_skip, sizeof(s->clock_skip),
				 "board %s's log has no clock sync state", who);
			return;
		}
		if (!g[i]->sync.synced) {
			snprintf(s->clock_skip, sizeof(s->clock_skip),
				 "board %s's clock was not synchronised at setup: it claims no error bound",
				 who);
			return;
		}
		if (g[i]->steps) {
			snprintf(s->clock_skip, sizeof(s->clock_skip),
				 "board %s's clock was stepped during the run: its grid moved", who);
			return;
		}
	}
	s->clock_bound_ns = ((double)ga->sync.maxerror_us + (double)gb->sync.maxerror_us) * 1000.0;
}

/* The checks, from the figures the join left in @s. */
static void judge(struct boardskew *s, double max_abs_skew)
{
	double res = s->resolution_ns;

	s->skew_check = BOARDSKEW_NONE;
	if (s->max_skew_ns > 0) {
		if (!s->n)
			s->skew_check = BOARDSKEW_INCONCLUSIVE;   /* no skew measured */
		else if (s->skew_over)
			s->skew_check = BOARDSKEW_FAIL;
		else if (max_abs_skew + res <= (double)s->max_skew_ns)
			s->skew_check = BOARDSKEW_PASS;
		else
			s->skew_check = BOARDSKEW_INCONCLUSIVE;
	}
	if (s->clock_skip[0])
		s->clock_check = BOARDSKEW_SKIP;
	else if (!s->n)
		s->clock_check = BOARDSKEW_INCONCLUSIVE;  /* no edge to bound the clocks by */
	else if (s->clock_lower_ns > s->clock_bound_ns)
		s->clock_check = BOARDSKEW_FAIL;
	else if (s->clock_upper_ns <= s->clock_bound_ns)
		s->clock_check = BOARDSKEW_PASS;
	else
		s->clock_check = BOARDSKEW_INCONCLUSIVE;
}

/* Figures over the joined edges. */
static int figures(struct boardskew *s)
{
	double *v, sum = 0, max_abs = 0;
	size_t i;

	s->clock_lower_ns = 0;
	s->clock_upper_ns = 0;
	s->common = s->n > 0;
	s->common_lo_ns = -INFINITY;
	s->common_hi_ns = INFINITY;
	for (i = 0; i < s->n; i++) {
		const struct boardskew_edge *e = &s->e[i];
		double clo = boardskew_clock_lo(e), chi = boardskew_clock_hi(e);
		double away = clo > 0 ? clo : chi < 0 ? -chi : 0;
		double far = fabs(clo) > fabs(chi) ? fabs(clo) : fabs(chi);

		sum += e->skew_ns;
		if (fabs(e->skew_ns) > max_abs)
			max_abs = fabs(e->skew_ns);
		if (e->skew_ns < e->lo_ns || e->skew_ns > e->hi_ns)
			s->beyond_windows++;
		if (s->max_skew_ns > 0 && fabs(e->skew_ns) - s->resolution_ns > (double)s->max_skew_ns)
			s->skew_over++;
		if (away > s->clock_lower_ns)
			s->clock_lower_ns = away;
		if (far > s->clock_upper_ns)
			s->clock_upper_ns = far;
		if (clo > s->common_lo_ns)
			s->common_lo_ns = clo;
		if (chi < s->common_hi_ns)
			s->common_hi_ns = chi;
	}
	if (s->common_lo_ns > s->common_hi_ns)
		s->common = false;
	if (!s->n) {
		s->skew_min = s->skew_max = s->skew_p50 = s->skew_p99_abs = s->skew_mean = NAN;
		judge(s, 0);
		return 0;
	}
	v = malloc(s->n * sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < s->n; i++)
		v[i] = s->e[i].skew_ns;
	qsort(v, s->n, sizeof(*v), cmp_double);
	s->skew_min = v[0];
	s->skew_max = v[s->n - 1];
	s->skew_p50 = rank_of(v, s->n, 0.5);
	for (i = 0; i < s->n; i++)
		v[i] = fabs(v[i]);
	qsort(v, s->n, sizeof(*v), cmp_double);
	s->skew_p99_abs = rank_of(v, s->n, 0.99);
	s->skew_mean = sum / (double)s->n;
	free(v);
	judge(s, max_abs);
	return 0;
}

/* Merge-join the two boards' edges on their grid instants. */
static int join(struct boardskew *s, const struct side_edge *a, size_t na,
		const struct side_edge *b, size_t nb, double drift_a_ppm)
{
	size_t i = 0, j = 0;
	uint64_t a_lo = na ? a[0].grid_ns : 0, a_hi = na ? a[na - 1].grid_ns : 0;
	uint64_t b_lo = nb ? b[0].grid_ns : 0, b_hi = nb ? b[nb - 1].grid_ns : 0;
	double scale = 1.0 / (1.0 + drift_a_ppm * 1e-6);

	s->e = malloc((na < nb ? (na ? na : 1) : (nb ? nb : 1)) * sizeof(*s->e));
	if (!s->e)
		return -1;
	while (i < na || j < nb) {
		if (j >= nb || (i < na && a[i].grid_ns < b[j].grid_ns)) {
			if (nb && a[i].grid_ns >= b_lo && a[i].grid_ns <= b_hi)
				s->only_a++;
			i++;
		} else if (i >= na || b[j].grid_ns < a[i].grid_ns) {
			if (na && b[j].grid_ns >= a_lo && b[j].grid_ns <= a_hi)
				s->only_b++;
			j++;
		} else {
			struct boardskew_edge *e = &s->e[s->n++];

			e->grid_ns = a[i].grid_ns;
			e->seq_a = a[i].seq;
			e->seq_b = b[j].seq;
			e->level_a = a[i].level;
			e->level_b = b[j].level;
			e->skew_ns = (double)(b[j].cap_ps - a[i].cap_ps) / 1000.0 * scale -
				     (double)s->phase_diff_ns;
			e->lo_ns = (double)b[j].wb_off - (double)a[i].we_off - s->slack_ns;
			e->hi_ns = (double)b[j].we_off - (double)a[i].wb_off + s->slack_ns;
			if (e->level_a != e->level_b)
				s->opposite++;
			i++;
			j++;
		}
	}
	return 0;
}

enum boardskew_status boardskew_compute(const struct boardskew_side *a,
					const struct boardskew_side *b, int64_t max_skew_ns,
					struct boardskew *out, char *err, size_t errlen)
{
	const struct boardskew_side *side[2] = { a, b };
	struct side_edge *ea = NULL, *eb = NULL;
	size_t na, nb;
	int i, ret;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < 2; i++) {
		const struct boardskew_side *x = side[i];

		if (!x->g) {
			msgbuf_set(err, errlen, "board %s (%s) is not on a shared grid (grid.clock "
				   "monotonic): two boards' edges meet only on one; run both with "
				   "--grid realtime (docs/grid.md)", i ? "B" : "A", x->c->o->run);
			return BOARDSKEW_E_INPUT;
		}
		if (!x->c->aligned || x->c->r.status != ALIGN_FOUND) {
			msgbuf_set(err, errlen, "board %s: its channel of the capture is not aligned "
				   "with its log", i ? "B" : "A");
			return BOARDSKEW_E_INPUT;
		}
	}
	if (strcmp(a->g->clock, b->g->clock)) {
		msgbuf_set(err, errlen, "board A's grid is on %s, board B's on %s: no shared grid",
			   a->g->clock, b->g->clock);
		return BOARDSKEW_E_INPUT;
	}
	out->max_skew_ns = max_skew_ns;
	out->phase_diff_ns = b->c->meta->wave.phase_ns - a->c->meta->wave.phase_ns;
	out->resolution_ns = (double)a->c->ci->resolution_ps / 1000.0;
	out->slack_ns = a->c->r.tolerance_ns + b->c->r.tolerance_ns +
			(double)a->g->offset_uncert_ns + (double)b->g->offset_uncert_ns;
	clock_claim(a->g, b->g, out);
	ea = side_edges(a, &na);
	eb = side_edges(b, &nb);
	ret = ea && eb ? join(out, ea, na, eb, nb, a->c->r.drift_ppm) : -1;
	free(ea);
	free(eb);
	if (ret < 0 || figures(out) < 0) {
		boardskew_free(out);
		return BOARDSKEW_E_NOMEM;
	}
	return BOARDSKEW_OK;
}

void boardskew_free(struct boardskew *s)
{
	free(s->e);
	s->e = NULL;
	s->n = 0;
}
