/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Compare a respond log with a capture of both its pins: the response channel
 * lined up by align.c, each answer's cause and delay, the counts, the verdict. */
#include "compare/respcompare.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/msgbuf.h"
#include "base/stats.h"
#include "base/units.h"

#define RESP_BLOCK_LEN 16u

void respcmp_params_init(struct respcmp_params *p)
{
	memset(p, 0, sizeof(*p));
	p->tolerance_ns = -1;
	p->first_seq = -1;
}

const char *respcmp_stim_class_name(unsigned cls)
{
	switch (cls) {
	case RESPCMP_S_UNSEEN: return "unseen";
	case RESPCMP_S_CAUSE: return "cause";
	case RESPCMP_S_LOST: return "lost";
	case RESPCMP_S_EDGE: return "filtered-edge";
	case RESPCMP_S_DEBOUNCE: return "filtered-debounce";
	case RESPCMP_S_UNEXPLAINED: return "unexplained";
	}
	return "?";
}

static int word_of(const char *v, const char *const *words, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v, words[i]))
			return i;
	return -1;
}

int respcmp_params_from_meta(struct respcmp_params *p, const struct edgelog_meta *m,
			     char *err, size_t errlen)
{
	static const char *const modes[] = { "follow", "toggle", "pulse" };
	static const char *const edges[] = { "both", "rising", "falling" };
	char buf[64];
	const char *v;

	if ((v = edgelog_meta_get(m, "respond.mode", buf, sizeof(buf))) &&
	    (p->mode = word_of(v, modes, 3)) < 0)
		goto bad_mode;
	if ((v = edgelog_meta_get(m, "respond.edge", buf, sizeof(buf))) &&
	    (p->edge = word_of(v, edges, 3)) < 0)
		goto bad_edge;
	if ((v = edgelog_meta_get(m, "respond.debounce", buf, sizeof(buf))) &&
	    units_parse_duration(v, "us", &p->debounce_ns))
		goto bad_dur;
	if ((v = edgelog_meta_get(m, "respond.irq_bound", buf, sizeof(buf))) &&
	    units_parse_duration(v, "us", &p->irq_bound_ns))
		goto bad_dur;
	if ((v = edgelog_meta_get(m, "gpio.idle_level", buf, sizeof(buf)))) {
		if (strcmp(v, "0") && strcmp(v, "1"))
			goto bad_idle;
		p->idle_level = v[0] - '0';
	}
	return 0;
bad_mode:
	msgbuf_set(err, errlen, "header respond.mode=%s: not follow, toggle or pulse", v);
	return -1;
bad_edge:
	msgbuf_set(err, errlen, "header respond.edge=%s: not both, rising or falling", v);
	return -1;
bad_dur:
	msgbuf_set(err, errlen, "header respond key '%s': not a duration", v);
	return -1;
bad_idle:
	msgbuf_set(err, errlen, "header gpio.idle_level=%s: not 0 or 1", v);
	return -1;
}

/* ------------------------------------------------------------------ */
/* the computation */

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Exact percentiles (the same ranks as the shared histograms); sorts @v. */
static void dist_of(struct respcmp_dist *d, double *v, size_t n)
{
	memset(d, 0, sizeof(*d));
	d->n = n;
	if (!n)
		return;
	qsort(v, n, sizeof(*v), dcmp);
	d->min = v[0];
	d->max = v[n - 1];
	d->p50 = v[stats_rank(50, n) - 1];
	d->p99 = v[stats_rank(99, n) - 1];
}

/* The log's writes that change the level: the response edges it expects. */
static int want_build(struct respcmp *c)
{
	int level = c->p.idle_level;

	c->want = calloc(c->nrec ? c->nrec : 1, sizeof(*c->want));
	c->want_rec = calloc(c->nrec ? c->nrec : 1, sizeof(*c->want_rec));
	if (!c->want || !c->want_rec)
		return -1;
	for (size_t k = 0; k < c->nrec; k++) {
		const struct edge_rec *e = &c->rec[k];

		/* a failed write changed nothing we can count on */
		if ((e->flags & EDGE_F_WRITE_ERR) || e->level == level)
			continue;
		c->want[c->nwant] = *e;
		/* consecutive numbers: align reads a gap in seq as a dropped record */
		c->want[c->nwant].seq = c->nwant;
		c->want_rec[c->nwant++] = k;
		level = e->level;
	}
	return 0;
}

static int map_refine(struct respcmp *c);

static int map_clocks(struct respcmp *c)
{
	memset(&c->ap, 0, sizeof(c->ap));
	c->ap.resolution_ps = c->resolution_ps > 0 ? c->resolution_ps : 1;
	c->ap.max_drift_ppm = c->p.max_drift_ppm;
	c->ap.tolerance_ns = c->p.tolerance_ns;
	c->ap.first_seq = -1;
	/* an answer's spacing is the stimulus's, rarely regular; short blocks
	 * let a short capture have several, so that one odd edge does not
	 * leave it with none */
	c->ap.block_len = RESP_BLOCK_LEN;
	if (c->p.first_seq >= 0) {
		/* the user names a log seq: the first response edge at or after it */
		size_t k;

		for (k = 0; k < c->nwant && c->rec[c->want_rec[k]].seq < (uint64_t)c->p.first_seq; k++)
			;
		c->ap.first_seq = (int64_t)k;
	}
	if (align_run(c->want, c->nwant, c->resp, c->nresp, c->span_lo_ps, c->span_hi_ps, &c->ap,
		      &c->w, &c->r) < 0)
		return -1;
	if (c->w.status == ALIGN_AMBIGUOUS && c->p.first_seq < 0) {
		/* A stimulus of equal spacing gives answers of equal spacing: no
		 * place to find by the widths. The capture then most likely saw
		 * the whole run (the scope armed before respond started): pair by
		 * order from the first response edge; if it did not, the
		 * residuals say so. */
		align_result_free(&c->r);
		c->ap.first_seq = 0;
		c->by_order = true;
		if (align_run(c->want, c->nwant, c->resp, c->nresp, c->span_lo_ps, c->span_hi_ps,
			      &c->ap, &c->w, &c->r) < 0)
			return -1;
	}
	if (c->r.status != ALIGN_FOUND)
		return 0;
	if (map_refine(c) < 0)
		return -1;
	c->aligned = c->m.npairs > 0;
	return 0;
}

/* ---- the mapping: pair in order, fit, again ---- */

#define GATE_MAX_NS 10000000.0       /* a pairing gate never reaches farther */
#define FIT_ROUNDS 3
#define FIT_ITER_MAX 10

static double want_wb(const struct respcmp *c, size_t k)
{
	return (double)(int64_t)(edge_write_begin_ns(&c->want[k]) - (uint64_t)c->m.ref_ns);
}

static double want_we(const struct respcmp *c, size_t k)
{
	return (double)(int64_t)(edge_write_end_ns(&c->want[k]) - (uint64_t)c->m.ref_ns);
}

/* Capture time @t_ps on the log clock, ns after ref_ns. */
static double to_log(const struct respcmp *c, int64_t t_ps)
{
	return ((double)t_ps / (double)CAPTURE_PS_PER_NS - c->m.offset_ns) / (1 + c->m.drift_ppm * 1e-6);
}

static double rel_ns(const struct respcmp *c, uint64_t t_ns)
{
	return (double)(int64_t)(t_ns - (uint64_t)c->m.ref_ns);
}

/*
 * Each expected edge, in order, takes the next response edge of its level
 * inside its window widened halfway to the neighbouring windows, and never
 * by less than what the mapping can tell (its tolerance and place_ns): in
 * a burst of answers queued during set-up the windows are 30 ns apart, and
 * an edge mapped a little past its own window, into the next one (of the
 * other level), must still be its own window's. Response edges passed
 * over are extra. With @track, the offset follows each pair as the walk
 * goes (a first mapping that is off by its drift).
 */
static void map_pair(struct respcmp *c, bool track)
{
	struct respcmp_map *m = &c->m;
	double b = 1 + m->drift_ppm * 1e-6, a = m->offset_ns, res = (double)c->resolution_ps / 1000;
	double least = m->tolerance_ns + m->place_ns;
	size_t i = 0;

	if (least < res)
		least = res;

	for (size_t k = 0; k < c->nwant; k++)
		m->resp_of_want[k] = SIZE_MAX;
	for (size_t j = 0; j < c->nresp; j++)
		m->want_of_resp[j] = SIZE_MAX;
	for (size_t k = 0; k < c->nwant; k++) {
		double wb = want_wb(c, k), we = want_we(c, k), lo = GATE_MAX_NS, hi = GATE_MAX_NS;

		if (k > 0 && (wb - want_we(c, k - 1)) / 2 < lo)
			lo = (wb - want_we(c, k - 1)) / 2;
		if (k + 1 < c->nwant && (want_wb(c, k + 1) - we) / 2 < hi)
			hi = (want_wb(c, k + 1) - we) / 2;
		lo = lo > least ? lo : least;
		hi = hi > least ? hi : least;
		for (; i < c->nresp; i++) {
			double x = ((double)c->resp[i].t_ps / (double)CAPTURE_PS_PER_NS - a) / b;

			if (x >= wb - lo)
				break;
		}
		if (i < c->nresp) {
			double y = (double)c->resp[i].t_ps / (double)CAPTURE_PS_PER_NS;
			double x = (y - a) / b;

			if (x <= we + hi && (c->resp[i].level ^ (unsigned)m->inverted) == c->want[k].level) {
				m->resp_of_want[k] = i;
				m->want_of_resp[i] = k;
				if (track)
					a += 0.5 * (y - (a + b * (wb + we) / 2));
				i++;
			}
		}
	}
}

/* The slack of a mapped response edge: the sample interval (or --tolerance)
 * and 4 x the fitted line's standard error at the far end. */
static double map_tolerance(const struct respcmp *c)
{
	return (c->p.tolerance_ns >= 0 ? (double)c->p.tolerance_ns : (double)c->resolution_ps / 1000) +
	       4 * c->m.fit_se_ns;
}

/* Weighted least squares of capture time on window midpoint, each pair
 * weighted by what its window and the sample interval leave open, outliers
 * (beyond 5 robust sigmas, at least 4) left out until the set holds. */
static int map_fit(struct respcmp *c)
{
	struct respcmp_map *m = &c->m;
	double res = (double)c->resolution_ps / 1000, a = m->offset_ns, b = 1 + m->drift_ppm * 1e-6;
	double *z = malloc((c->nwant ? c->nwant : 1) * sizeof(*z));
	double S = 0, Sx = 0, xm = 0, Sxx = 0, chi = 0, far;
	size_t n = 0, nz, it;

	if (!z)
		return -1;
	for (size_t k = 0; k < c->nwant; k++)
		m->out_of_fit[k] = 0;
	for (it = 0; it < FIT_ITER_MAX; it++) {
		double Sy = 0, Sxy = 0, rs;
		bool changed = false;

		S = Sx = Sxx = 0;
		n = 0;
		for (size_t k = 0; k < c->nwant; k++) {
			size_t i = m->resp_of_want[k];
			double ww, w, x, y;

			if (i == SIZE_MAX || m->out_of_fit[k])
				continue;
			ww = want_we(c, k) - want_wb(c, k);
			w = 1 / ((ww * ww + res * res) / 12 + 1);
			x = (want_wb(c, k) + want_we(c, k)) / 2;
			y = (double)c->resp[i].t_ps / (double)CAPTURE_PS_PER_NS;
			S += w;
			Sx += w * x;
			Sy += w * y;
			n++;
		}
		if (n < 2)
			break;
		xm = Sx / S;
		for (size_t k = 0; k < c->nwant; k++) {
			size_t i = m->resp_of_want[k];
			double ww, w, x, y;

			if (i == SIZE_MAX || m->out_of_fit[k])
				continue;
			ww = want_we(c, k) - want_wb(c, k);
			w = 1 / ((ww * ww + res * res) / 12 + 1);
			x = (want_wb(c, k) + want_we(c, k)) / 2 - xm;
			y = (double)c->resp[i].t_ps / (double)CAPTURE_PS_PER_NS - Sy / S;
			Sxx += w * x * x;
			Sxy += w * x * y;
		}
		b = Sxx > 0 ? Sxy / Sxx : 1;
		a = Sy / S - b * xm;      /* y at x = 0, the reference */
		/* normalized deviations, and their median absolute value */
		nz = 0;
		for (size_t k = 0; k < c->nwant; k++) {
			size_t i = m->resp_of_want[k];
			double ww, d;

			if (i == SIZE_MAX)
				continue;
			ww = want_we(c, k) - want_wb(c, k);
			d = (double)c->resp[i].t_ps / (double)CAPTURE_PS_PER_NS -
			    (a + b * (want_wb(c, k) + want_we(c, k)) / 2);
			z[nz++] = fabs(d) / sqrt((ww * ww + res * res) / 12 + 1);
		}
		qsort(z, nz, sizeof(*z), dcmp);
		rs = 1.4826 * z[nz / 2];
		rs = 5 * rs > 4 ? 5 * rs : 4;
		for (size_t k = 0; k < c->nwant; k++) {
			size_t i = m->resp_of_want[k];
			double ww, d;
			uint8_t out;

			if (i == SIZE_MAX)
				continue;
			ww = want_we(c, k) - want_wb(c, k);
			d = (double)c->resp[i].t_ps / (double)CAPTURE_PS_PER_NS -
			    (a + b * (want_wb(c, k) + want_we(c, k)) / 2);
			out = fabs(d) / sqrt((ww * ww + res * res) / 12 + 1) > rs;
			if (out != m->out_of_fit[k])
				changed = true;
			m->out_of_fit[k] = out;
		}
		if (!changed)
			break;
	}
	if (n < 2) {
		free(z);
		return 0;                 /* too few pairs: the first mapping stays */
	}
	m->offset_ns = a;
	m->drift_ppm = (b - 1) * 1e6;
	/* rms about the midpoints, and the chi-square that scales the error */
	m->fit_rms_ns = 0;
	m->inliers = m->outliers = 0;
	for (size_t k = 0; k < c->nwant; k++) {
		size_t i = m->resp_of_want[k];
		double ww, d;

		if (i == SIZE_MAX)
			continue;
		if (m->out_of_fit[k]) {
			m->outliers++;
			continue;
		}
		ww = want_we(c, k) - want_wb(c, k);
		d = (double)c->resp[i].t_ps / (double)CAPTURE_PS_PER_NS -
		    (a + b * (want_wb(c, k) + want_we(c, k)) / 2);
		m->fit_rms_ns += d * d;
		chi += d * d / ((ww * ww + res * res) / 12 + 1);
		m->inliers++;
	}
	m->fit_rms_ns = sqrt(m->fit_rms_ns / (double)m->inliers);
	nz = 0;
	for (size_t k = 0; k < c->nwant; k++)
		if (m->resp_of_want[k] != SIZE_MAX && !m->out_of_fit[k])
			z[nz++] = want_we(c, k) - want_wb(c, k);
	qsort(z, nz, sizeof(*z), dcmp);
	m->place_ns = nz ? z[nz / 2] / 2 : 0;
	far = fabs(to_log(c, c->span_lo_ps) - xm);
	if (fabs(to_log(c, c->span_hi_ps) - xm) > far)
		far = fabs(to_log(c, c->span_hi_ps) - xm);
	chi = n > 2 ? chi / (double)(n - 2) : 1;
	m->fit_se_ns = sqrt((1 / S + (Sxx > 0 ? far * far / Sxx : 0)) * (chi > 1 ? chi : 1));
	/* the next pairing's gate */
	m->tolerance_ns = map_tolerance(c);
	free(z);
	return 0;
}

/* Residuals and counts of the final pairing. */
static void map_judge(struct respcmp *c)
{
	struct respcmp_map *m = &c->m;
	double lo = to_log(c, c->span_lo_ps), hi = to_log(c, c->span_hi_ps);

	m->tolerance_ns = map_tolerance(c);
	m->npairs = m->nmissing = m->nextra = m->disagree = 0;
	m->max_abs_res_ns = 0;
	for (size_t k = 0; k < c->nwant; k++) {
		size_t i = m->resp_of_want[k];
		double wb = want_wb(c, k), we = want_we(c, k), x;

		m->res_of_want[k] = NAN;
		if (i == SIZE_MAX) {
			if (wb - m->tolerance_ns > lo && we + m->tolerance_ns < hi)
				m->nmissing++;
			continue;
		}
		m->npairs++;
		x = to_log(c, c->resp[i].t_ps);
		m->res_of_want[k] = x < wb ? x - wb : x > we ? x - we : 0;
		if (fabs(m->res_of_want[k]) > m->max_abs_res_ns)
			m->max_abs_res_ns = fabs(m->res_of_want[k]);
		/* the mapping puts a pin where its window's midpoint would be on
		 * average: beyond the tolerance, place_ns more is still that */
		if (fabs(m->res_of_want[k]) > m->tolerance_ns + m->place_ns)
			m->disagree++;
	}
	for (size_t j = 0; j < c->nresp; j++)
		if (m->want_of_resp[j] == SIZE_MAX)
			m->nextra++;
}

static int map_refine(struct respcmp *c)
{
	struct respcmp_map *m = &c->m;
	size_t nw = c->nwant ? c->nwant : 1;

	m->resp_of_want = malloc(nw * sizeof(*m->resp_of_want));
	m->res_of_want = malloc(nw * sizeof(*m->res_of_want));
	m->out_of_fit = calloc(nw, 1);
	m->want_of_resp = malloc((c->nresp ? c->nresp : 1) * sizeof(*m->want_of_resp));
	if (!m->resp_of_want || !m->res_of_want || !m->out_of_fit || !m->want_of_resp)
		return -1;
	m->ref_ns = c->r.ref_ns;
	m->offset_ns = c->r.offset_ns;
	m->drift_ppm = c->r.drift_ppm;
	m->inverted = c->r.inverted;
	for (int round = 0; round < FIT_ROUNDS; round++) {
		map_pair(c, round == 0);
		if (map_fit(c) < 0)
			return -1;
	}
	map_pair(c, false);
	map_judge(c);
	return 0;
}

/* A cause the kernel may have reported: a stimulus edge, or a burst's first
 * (what a scope triggers on) and its last change (what the kernel's debounce
 * stamps the event after: last + debounce + the input's latency). */
struct cand {
	size_t stim;
	double t;                  /* log clock, rel. ref_ns */
	double span_ns;            /* the burst's last change - its first (0: one edge) */
	uint8_t level;
};

static bool edge_watched(const struct respcmp *c, unsigned level)
{
	return c->p.edge == 0 || (c->p.edge == 1 && level) || (c->p.edge == 2 && !level);
}

static struct cand *cands_build(struct respcmp *c, size_t *ncand)
{
	struct cand *v = calloc(c->nstim ? c->nstim : 1, sizeof(*v));
	int64_t db_ps = c->p.debounce_ns * CAPTURE_PS_PER_NS;
	size_t i = 0, n = 0;

	if (!v)
		return NULL;
	while (i < c->nstim) {
		size_t j = i + 1;
		unsigned before = c->stim[i].level ? 0u : 1u, after;

		/* with debounce, the edges each within the period of the one
		 * before are one burst: one event at most, the line's level at
		 * its end, caused by its first edge */
		if (db_ps > 0)
			while (j < c->nstim && c->stim[j].t_ps - c->stim[j - 1].t_ps < db_ps)
				j++;
		after = c->stim[j - 1].level;
		for (size_t k = i + 1; k < j; k++)
			c->stim_class[k] = RESPCMP_S_DEBOUNCE;
		if (after == before) {
			c->stim_class[i] = RESPCMP_S_DEBOUNCE;
		} else if (!edge_watched(c, after)) {
			c->stim_class[i] = RESPCMP_S_EDGE;
			for (size_t k = i + 1; k < j; k++)
				c->stim_class[k] = RESPCMP_S_EDGE;
		} else {
			v[n].stim = i;
			v[n].t = to_log(c, c->stim[i].t_ps);
			v[n].span_ns = to_log(c, c->stim[j - 1].t_ps) - v[n].t;
			v[n].level = (uint8_t)after;
			n++;
		}
		i = j;
	}
	*ncand = n;
	return v;
}

/* The polarity of the event a record answers, or -1 when the log cannot
 * say (toggle and pulse over both edges). */
static int event_level(const struct respcmp *c, const struct edge_rec *e)
{
	if (c->p.edge == 1)
		return 1;
	if (c->p.edge == 2)
		return 0;
	return c->p.mode == 0 ? e->level : -1;
}

static int answers_walk(struct respcmp *c)
{
	struct cand *cd = NULL;
	size_t ncand = 0, j = 0, q = 0, wk = 0, nirq = 0, ndel = 0;
	const size_t *resp_of = c->m.resp_of_want;
	const double *res_of = c->m.res_of_want;
	/* a mapped time is good to the tolerance and the place in its window */
	double tol = c->m.tolerance_ns + c->m.place_ns, dt = (double)c->resolution_ps / 1000;
	double *irq = NULL, *del = NULL;
	double lo_span = to_log(c, c->span_lo_ps), hi_span = to_log(c, c->span_hi_ps);
	double db = (double)c->p.debounce_ns;
	bool first = true;
	int ret = -1;

	cd = cands_build(c, &ncand);
	irq = calloc(c->nans ? c->nans : 1, sizeof(*irq));
	del = calloc(c->nans ? c->nans : 1, sizeof(*del));
	if (!cd || !irq || !del)
		goto out;
	for (size_t a = 0; a < c->nans; a++) {
		struct respcmp_answer *x = &c->ans[a];
		const struct edge_rec *e = NULL;
		double ev = rel_ns(c, x->event_ns);
		int pol;
		size_t i;
		double span;

		/* the record and its expected response edge */
		while (wk < c->nwant && c->rec[c->want_rec[wk]].seq < x->seq)
			wk++;
		e = &c->rec[x->rec];
		if (ev - tol < lo_span || ev + (double)x->we_off_ns + tol > hi_span) {
			x->status |= RESPCMP_A_UNCOVERED;
			continue;
		}
		c->checked++;
		/* its cause: the last unclaimed one of its polarity at or before
		 * the kernel's timestamp */
		pol = event_level(c, e);
		span = 0;
		if (q < j)
			q = j;
		while (q < ncand && cd[q].t <= ev + tol)
			q++;
		for (i = q; i > j && pol >= 0 && cd[i - 1].level != (unsigned)pol; i--)
			;
		if (i == j) {
			x->status |= RESPCMP_A_NO_STIM;
			c->events_no_stim++;
		} else {
			size_t skipped = i - 1 - j, lost = 0;

			i--;
			if (!first) {
				size_t said = e->expirations > 0 ? e->expirations - 1u : 0;

				lost = skipped < said ? skipped : said;
				c->kernel_lost += said;
			}
			for (size_t s = j; s < i; s++)
				c->stim_class[cd[s].stim] = first ? RESPCMP_S_UNSEEN
							   : s - j < lost ? RESPCMP_S_LOST
							   : RESPCMP_S_UNEXPLAINED;
			if (!first) {
				c->stim_lost_kernel += lost;
				c->stim_unexplained += skipped - lost;
			} else {
				c->stim_outside += skipped;
			}
			c->stim_class[cd[i].stim] = RESPCMP_S_CAUSE;
			c->stim_cause++;
			x->stim = cd[i].stim;
			/* the kernel stamps no sooner than the burst's last change
			 * + the debounce period: the rest is the input's own
			 * latency, what respond.irq_bound covers */
			span = cd[i].span_ns;
			x->irq_ns = ev - (cd[i].t + span) - db;
			irq[nirq++] = x->irq_ns;
			if (x->irq_ns < -tol)
				x->status |= RESPCMP_A_IRQ_NEG;
			j = i + 1;
		}
		first = false;
		/* its response */
		if (wk < c->nwant && c->rec[c->want_rec[wk]].seq == x->seq) {
			x->resp = resp_of[wk];
			if (x->resp == SIZE_MAX) {
				x->status |= RESPCMP_A_NO_RESP;
				c->answers_no_resp++;
			} else {
				x->residual_ns = res_of[wk];
				if (fabs(x->residual_ns) > tol)
					x->status |= RESPCMP_A_WINDOW;
			}
		} else {
			x->status |= RESPCMP_A_NO_CHANGE;
		}
		/* the delay is from the burst's first edge: its span, the
		 * debounce and the input's latency come before the stamp */
		x->lo_ns = (double)x->wb_off_ns + db + span - dt;
		x->hi_ns = c->p.irq_bound_ns > 0 ? (double)x->we_off_ns + db + span +
						   (double)c->p.irq_bound_ns + dt
						 : INFINITY;
		if (x->stim != SIZE_MAX && x->resp != SIZE_MAX) {
			/* on the log's clock, as the bounds are: a capture clock
			 * 40 ppm slow shows a 16 ms answer 0.6 us short */
			x->delay_ns = capture_ps_to_ns(c->resp[x->resp].t_ps - c->stim[x->stim].t_ps) /
				      (1 + c->m.drift_ppm * 1e-6);
			del[ndel++] = x->delay_ns;
			if (x->delay_ns < x->lo_ns)
				x->status |= RESPCMP_A_EARLY;
			if (x->delay_ns > x->hi_ns)
				x->status |= RESPCMP_A_LATE;
		}
		if (x->status & RESPCMP_A_BAD) {
			c->bad++;
			for (unsigned b = 0; b < 8; b++)
				if (x->status & RESPCMP_A_BAD & (1u << b))
					c->bad_by[b]++;
		}
	}
	for (size_t s = j; s < ncand; s++)
		if (c->stim_class[cd[s].stim] == RESPCMP_S_UNSEEN)
			c->stim_outside++;
	dist_of(&c->irq, irq, nirq);
	dist_of(&c->delay, del, ndel);
	ret = 0;
out:
	free(cd);
	free(irq);
	free(del);
	return ret;
}

/* The run summary's scope bounds from the log (docs/respond.md): the
 * counted answers that changed the output. */
static void scope_bounds(struct respcmp *c)
{
	for (size_t k = 0; k < c->nwant; k++) {
		const struct edge_rec *e = &c->rec[c->want_rec[k]];
		int64_t lo = e->write_begin_off_ns + c->p.debounce_ns;
		int64_t hi = e->write_end_off_ns + c->p.debounce_ns + c->p.irq_bound_ns;

		if (e->flags & (EDGE_F_NOEVENT | EDGE_F_WARMUP))
			continue;
		if (!c->scope_answers || lo < c->scope_min_ns)
			c->scope_min_ns = lo;
		if (!c->scope_answers || hi > c->scope_max_ns)
			c->scope_max_ns = hi;
		c->scope_answers++;
	}
}

static void decide(struct respcmp *c)
{
	if (!c->aligned) {
		c->verdict = c->w.status == ALIGN_AMBIGUOUS ? COMPARE_AMBIGUOUS
			     : c->w.status == ALIGN_TOO_FEW ? COMPARE_TOO_FEW : COMPARE_NO_OVERLAP;
		return;
	}
	c->resp_extra = c->m.nextra;
	c->resp_missing = c->m.nmissing;
	for (size_t i = 0; i < c->nstim; i++) {
		if (c->stim_class[i] == RESPCMP_S_EDGE)
			c->stim_filtered_edge++;
		else if (c->stim_class[i] == RESPCMP_S_DEBOUNCE)
			c->stim_filtered_debounce++;
	}
	c->verdict = c->bad || c->stim_unexplained || c->events_no_stim || c->resp_extra ||
		     c->resp_missing || c->m.disagree ? COMPARE_DISAGREE : COMPARE_AGREE;
}

struct respcmp *respcmp_compute(const struct respcmp_params *p, struct edge_rec *rec, size_t nrec,
				struct capture_edge *stim, size_t nstim, struct capture_edge *resp,
				size_t nresp, int64_t res_ps, int64_t span_lo_ps, int64_t span_hi_ps)
{
	struct respcmp *c = calloc(1, sizeof(*c));

	if (!c) {
		free(rec);
		free(stim);
		free(resp);
		errno = ENOMEM;
		return NULL;
	}
	c->p = *p;
	c->rec = rec;
	c->nrec = nrec;
	c->stim = stim;
	c->nstim = nstim;
	c->resp = resp;
	c->nresp = nresp;
	c->resolution_ps = res_ps > 0 ? res_ps : 1;
	c->span_lo_ps = span_lo_ps;
	c->span_hi_ps = span_hi_ps;
	c->stim_class = calloc(nstim ? nstim : 1, 1);
	c->ans = calloc(nrec ? nrec : 1, sizeof(*c->ans));
	if (!c->stim_class || !c->ans || want_build(c) < 0 || map_clocks(c) < 0)
		goto nomem;
	for (size_t k = 0; k < nrec; k++) {
		const struct edge_rec *e = &rec[k];
		struct respcmp_answer *x;

		if (e->flags & EDGE_F_NOEVENT)
			continue;
		x = &c->ans[c->nans++];
		x->seq = e->seq;
		x->rec = k;
		x->event_ns = e->intended_ns;
		x->wb_off_ns = e->write_begin_off_ns;
		x->we_off_ns = e->write_end_off_ns;
		x->level = e->level;
		x->stim = x->resp = SIZE_MAX;
		x->irq_ns = x->delay_ns = x->residual_ns = NAN;
	}
	scope_bounds(c);
	if (c->aligned && answers_walk(c) < 0)
		goto nomem;
	decide(c);
	return c;
nomem:
	respcmp_free(c);
	errno = ENOMEM;
	return NULL;
}

void respcmp_free(struct respcmp *c)
{
	if (!c)
		return;
	align_result_free(&c->r);
	free(c->m.resp_of_want);
	free(c->m.want_of_resp);
	free(c->m.res_of_want);
	free(c->m.out_of_fit);
	free(c->rec);
	free(c->stim);
	free(c->resp);
	free(c->want);
	free(c->want_rec);
	free(c->ans);
	free(c->stim_class);
	free(c);
}

/* ------------------------------------------------------------------ */
/* reading the inputs */

/* A respond log's note at the stop (docs/log-format.md): lost and
 * unanswered events as the run counted them. */
static void take_stop_note(const struct edgelog_event *ev, struct respcmp_run *run)
{
	struct edgelog_respond_stop st;

	if (!edgelog_respond_stop_parse(ev, &st))
		return;
	run->events_lost = st.lost;
	run->events_lost_warmup = st.lost_warmup;
	run->events_unanswered = st.unanswered;
	run->have_stop = true;
}

static enum compare_status read_log(const struct respcmp_opts *o, struct respcmp_params *p,
				    struct edge_rec **recs, size_t *n, struct respcmp_run *run,
				    char *err, size_t errlen)
{
	enum edgelog_status est;
	struct edgelog_reader *r = edgelog_reader_open(o->run, &est, err, errlen);
	enum compare_status st = COMPARE_OK;
	struct edgelog_event ev;
	char why[256];
	size_t cap = 0;
	int got;

	*recs = NULL;
	*n = 0;
	if (!r)
		return est == EDGELOG_E_IO ? COMPARE_E_IO : COMPARE_E_INPUT;
	if (!edgelog_meta_is_respond(edgelog_reader_meta(r))) {
		msgbuf_set(err, errlen, "%s: not a respond log (no run.mode=respond)", o->run);
		st = COMPARE_E_INPUT;
		goto out;
	}
	if (respcmp_params_from_meta(p, edgelog_reader_meta(r), why, sizeof(why)) < 0) {
		msgbuf_set(err, errlen, "%s: %s", o->run, why);
		st = COMPARE_E_INPUT;
		goto out;
	}
	for (;;) {
		if (*n == cap) {
			size_t nc = cap ? 2 * cap : 4096;
			struct edge_rec *nr = realloc(*recs, nc * sizeof(**recs));

			if (!nr) {
				msgbuf_set(err, errlen, "%s: out of memory after %zu records",
					   o->run, *n);
				st = COMPARE_E_IO;
				goto out;
			}
			*recs = nr;
			cap = nc;
		}
		got = edgelog_reader_next_item(r, &(*recs)[*n], &ev);
		if (got == 2) {	/* the note at the stop: the run's own counts */
			take_stop_note(&ev, run);
			continue;
		}
		if (got != 1)
			break;
		(*n)++;
	}
	if (got < 0) {
		const char *w = edgelog_reader_error(r, &est);

		msgbuf_set(err, errlen, "%s", w ? w : strerror(errno));
		st = est == EDGELOG_E_IO ? COMPARE_E_IO : COMPARE_E_INPUT;
		goto out;
	}
	run->truncated = !edgelog_reader_footer(r);
	run->half_period_ns = edgelog_reader_meta(r)->half_period_ns;
out:
	edgelog_reader_close(r);
	if (st != COMPARE_OK) {
		free(*recs);
		*recs = NULL;
	}
	return st;
}

static enum compare_status open_errno(void)
{
	return errno == ENOENT || errno == EACCES || errno == EIO || errno == ENOMEM ||
	       errno == EISDIR ? COMPARE_E_IO : COMPARE_E_INPUT;
}

static struct capture *cap_open(const struct respcmp_opts *o, int fd, const char *channel,
				char *err, size_t errlen)
{
	struct capture_opts co = o->copts;

	co.channel = channel;
	return fd >= 0 ? capture_open_fd(fd, "<stdin>", &co, err, errlen)
		       : capture_open(o->capture, &co, err, errlen);
}

/* One channel's edges, and the capture's facts. */
static enum compare_status read_channel(const struct respcmp_opts *o, int fd, const char *channel,
					struct capture_edge **out, size_t *n, unsigned *index,
					char *name, size_t namelen, struct respcmp_run *run,
					int64_t span[3], char *err, size_t errlen)
{
	struct capture *cp = cap_open(o, fd, channel, err, errlen);
	const struct capture_info *ci;
	enum compare_status st = COMPARE_OK;
	struct capture_edge e;
	size_t cap = 0;
	int got;

	*out = NULL;
	*n = 0;
	if (!cp)
		return open_errno();
	ci = capture_info(cp);
	while ((got = capture_next_edge(cp, &e)) == 1) {
		if (*n == cap) {
			size_t nc = cap ? 2 * cap : 4096;
			struct capture_edge *ne = realloc(*out, nc * sizeof(**out));

			if (!ne) {
				msgbuf_set(err, errlen, "%s: out of memory after %zu edges",
					   ci->path, *n);
				st = COMPARE_E_IO;
				goto out;
			}
			*out = ne;
			cap = nc;
		}
		(*out)[(*n)++] = e;
	}
	if (got < 0) {
		st = errno == EIO ? COMPARE_E_IO : COMPARE_E_INPUT;
		msgbuf_set(err, errlen, "%s", capture_error(cp));
		goto out;
	}
	*index = ci->channel;
	snprintf(name, namelen, "%s", ci->channel_name);
	snprintf(run->capture_format, sizeof(run->capture_format), "%s", ci->format);
	run->samplerate_hz = ci->samplerate_hz;
	if (ci->resolution_ps > span[2])
		span[2] = ci->resolution_ps;
	span[0] = ci->start_ps;
	span[1] = ci->end_ps;
out:
	capture_close(cp);
	if (st != COMPARE_OK) {
		free(*out);
		*out = NULL;
	}
	return st;
}

enum compare_status respcmp_run(const struct respcmp_opts *o, struct respcmp_run *out,
				char *err, size_t errlen)
{
	struct respcmp_params p;
	struct edge_rec *recs = NULL;
	struct capture_edge *se = NULL, *re = NULL;
	size_t nrec = 0, ns = 0, nr = 0;
	unsigned si = 0, ri = 0;
	int64_t span[3] = { 0, 0, 1 };
	char c0[128] = "", c1[128] = "";
	enum compare_status st;
	int fd = -1;

	memset(out, 0, sizeof(*out));
	respcmp_params_init(&p);
	p.tolerance_ns = o->tolerance_ns;
	p.first_seq = o->first_seq;
	p.max_drift_ppm = o->max_drift_ppm;
	if (!strcmp(o->run, "-") && !strcmp(o->capture, "-")) {
		msgbuf_set(err, errlen, "only one of RUN and CAPTURE can be standard input");
		return COMPARE_E_INPUT;
	}
	st = read_log(o, &p, &recs, &nrec, out, err, errlen);
	if (st)
		return st;
	if (capture_path_is_stream(o->capture)) {
		/* each channel is one pass over the capture: hold a stream */
		fd = capture_spool(o->capture, CAPTURE_STREAM_MAX, capture_probe_any, err, errlen);
		if (fd < 0) {
			st = errno == EIO || errno == ENOMEM ? COMPARE_E_IO : COMPARE_E_INPUT;
			goto out;
		}
	}
	if (!o->stimulus || !o->response) {
		/* the defaults: the capture's first two channels, in file order */
		struct capture *cp = cap_open(o, fd, NULL, err, errlen);
		const struct capture_info *ci;

		if (!cp) {
			st = open_errno();
			goto out;
		}
		ci = capture_info(cp);
		if (ci->n_channels < 2) {
			msgbuf_set(err, errlen, "%s: %u channel%s: a respond log needs "
				   "a capture of both pins (stimulus and response)", ci->path,
				   ci->n_channels, ci->n_channels == 1 ? "" : "s");
			st = COMPARE_E_INPUT;
			capture_close(cp);
			goto out;
		}
		snprintf(c0, sizeof(c0), "%s", ci->channel_names[0]);
		snprintf(c1, sizeof(c1), "%s", ci->channel_names[1]);
		capture_close(cp);
	}
	st = read_channel(o, fd, o->stimulus ? o->stimulus : c0, &se, &ns, &si, out->stim_name,
			  sizeof(out->stim_name), out, span, err, errlen);
	if (st)
		goto out;
	st = read_channel(o, fd, o->response ? o->response : c1, &re, &nr, &ri, out->resp_name,
			  sizeof(out->resp_name), out, span, err, errlen);
	if (st)
		goto out;
	if (si == ri) {
		msgbuf_set(err, errlen, "%s: --stimulus and --response name the same "
			   "channel (%s)", strcmp(o->capture, "-") ? o->capture : "<stdin>",
			   out->stim_name);
		st = COMPARE_E_INPUT;
		goto out;
	}
	out->c = respcmp_compute(&p, recs, nrec, se, ns, re, nr, span[2], span[0], span[1]);
	recs = NULL;
	se = re = NULL;
	if (!out->c) {
		msgbuf_set(err, errlen, "out of memory");
		st = COMPARE_E_IO;
	}
out:
	if (fd >= 0)
		close(fd);
	free(recs);
	free(se);
	free(re);
	return st;
}

void respcmp_run_free(struct respcmp_run *run)
{
	respcmp_free(run->c);
	run->c = NULL;
}

bool respcmp_log_is_respond(const char *path)
{
	enum edgelog_status st;
	struct edgelog_reader *r;
	char why[256];
	bool yes;

	if (capture_path_is_stream(path))
		return false;
	r = edgelog_reader_open(path, &st, why, sizeof(why));
	if (!r)
		return false;
	yes = edgelog_meta_is_respond(edgelog_reader_meta(r));
	edgelog_reader_close(r);
	return yes;
}
