/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report --baseline's statistics and verdicts: per phase and figure, NEW
 * against OLD with an interval of the difference (docs/report.md). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/msgbuf.h"
#include "base/stats.h"
#include "report/regress.h"

static const char *const fig_names[REGRESS_NFIGS] = {
	[REGRESS_TMIN_POS] = "tmin_positive",  [REGRESS_TMAX_POS] = "tmax_positive",
	[REGRESS_TMIN_NEG] = "tmin_negative",  [REGRESS_TMAX_NEG] = "tmax_negative",
	[REGRESS_WAKE_P99] = "wake_p99",       [REGRESS_WAKE_P9999] = "wake_p99_99",
	[REGRESS_WAKE_MAX] = "wake_max",       [REGRESS_MISSED] = "missed_periods",
};

const char *regress_fig_name(enum regress_fig f)
{
	return fig_names[f];
}

const char *regress_call_name(enum regress_call c)
{
	switch (c) {
	case REGRESS_WORSE:
		return "regression";
	case REGRESS_BETTER:
		return "improved";
	case REGRESS_UNJUDGED:
		return "not judged";
	default:
		return "no regression";
	}
}

void regress_opts_default(struct regress_opts *o)
{
	o->confidence = 0.95;
	o->min_step_ns = 1000;
	o->min_step_pct = 10.0;
	o->min_missed_ppm = 100.0;
}

int regress_side_check(const struct regress_run *runs, size_t n, const char *side, char *err,
		       size_t errlen)
{
	const struct regress_run *first = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!runs[i].line[0])
			continue;
		if (first && strcmp(first->line, runs[i].line)) {
			msgbuf_set(err, errlen, "%s runs of two lines, %s (%s) and %s (%s): give one "
				   "line's runs a side", side, first->line, first->source,
				   runs[i].line, runs[i].source);
			return -1;
		}
		if (!first)
			first = &runs[i];
	}
	return 0;
}

/* ---- distributions ---- */

#define CF_EPS 1e-15
#define CF_TINY 1e-300
#define CF_MAXIT 1000000

/* The continued fraction of the incomplete beta function (Lentz). Its
 * iterations grow as the square root of a and b: a few thousand for the
 * millions of edges of an hour's log. */
static double beta_cf(double a, double b, double x)
{
	double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d = 1 - qab * x / qap, h;
	int m;

	if (fabs(d) < CF_TINY)
		d = CF_TINY;
	d = 1 / d;
	h = d;
	for (m = 1; m <= CF_MAXIT; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((qam + m2) * (a + m2)), del;

		d = 1 + aa * d;
		d = fabs(d) < CF_TINY ? 1 / CF_TINY : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		d = fabs(d) < CF_TINY ? 1 / CF_TINY : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < CF_EPS)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return bt * beta_cf(a, b, x) / a;
	return 1 - bt * beta_cf(b, a, 1 - x) / b;
}

double regress_binom_cdf(uint64_t k, uint64_t n, double p)
{
	if (k >= n || p <= 0)
		return 1;
	if (p >= 1)
		return 0;
	return beta_inc((double)(n - k), (double)k + 1, 1 - p);
}

/* The regularized upper incomplete gamma function Q(a, x). */
static double gamma_q(double a, double x)
{
	double lpre;
	int i;

	if (x <= 0)
		return 1;
	lpre = -x + a * log(x) - lgamma(a);
	if (x < a + 1) {
		double ap = a, sum = 1 / a, del = sum;

		for (i = 0; i < CF_MAXIT; i++) {
			ap += 1;
			del *= x / ap;
			sum += del;
			if (fabs(del) < fabs(sum) * CF_EPS)
				break;
		}
		return 1 - sum * exp(lpre);
	} else {
		double b = x + 1 - a, c = 1 / CF_TINY, d = 1 / b, h = d;

		for (i = 1; i <= CF_MAXIT; i++) {
			double an = -i * (i - a), del;

			b += 2;
			d = an * d + b;
			if (fabs(d) < CF_TINY)
				d = CF_TINY;
			c = b + an / c;
			if (fabs(c) < CF_TINY)
				c = CF_TINY;
			d = 1 / d;
			del = d * c;
			h *= del;
			if (fabs(del - 1) < CF_EPS)
				break;
		}
		return exp(lpre) * h;
	}
}

double regress_poisson_cdf(uint64_t k, double lambda)
{
	return lambda <= 0 ? 1 : gamma_q((double)k + 1, lambda);
}

/* The least j in [0, n] with P(Bin(n, p) <= j) >= target (n when none). */
static uint64_t binom_first_at_least(uint64_t n, double p, double target)
{
	uint64_t lo = 0, hi = n;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (regress_binom_cdf(mid, n, p) >= target)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * x_(l) <= q_p exactly when at least l values are <= q_p: P = 1 - F(l - 1)
 * with F the Binomial(n, p) CDF, and x_(u) >= q_p when at most u - 1 are
 * below it: F(u - 1). Each tail gets half of 1 - conf: l is the largest
 * rank with F(l - 1) <= tail, u the smallest with F(u - 1) >= 1 - tail.
 */
void regress_quantile_ranks(uint64_t n, double p, double conf, uint64_t *l, uint64_t *u)
{
	double tail = (1 - conf) / 2;
	uint64_t j;

	if (!n) {
		*l = 0;
		*u = 1;
		return;
	}
	/* the largest j with F(j) <= tail: one below the first with F(j) > tail */
	j = binom_first_at_least(n, p, nextafter(tail, 1));
	*l = j;	/* F(j - 1) <= tail, so l = j (0: F(0) > tail, no lower bound) */
	j = binom_first_at_least(n, p, 1 - tail);
	*u = j + 1;	/* n + 1 when only F(n) reaches it: no upper bound */
}

/* The lambda in [0, hi] where the decreasing P(X <= k; lambda) is @target. */
static double poisson_solve(uint64_t k, double target)
{
	double lo = 0, hi = (double)k + 20 * sqrt((double)k + 1) + 40;
	int i;

	for (i = 0; i < 200 && hi - lo > 1e-12 * (hi + 1); i++) {
		double mid = (lo + hi) / 2;

		if (regress_poisson_cdf(k, mid) > target)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void regress_poisson_ci(uint64_t k, double conf, double *lo, double *hi)
{
	double tail = (1 - conf) / 2;

	*lo = k ? poisson_solve(k - 1, 1 - tail) : 0;
	*hi = poisson_solve(k, tail);
}

double regress_exceed_p(uint64_t k, uint64_t n, uint64_t m)
{
	double p = 1;
	uint64_t i;

	if (k > n)
		return 0;
	for (i = 0; i < k && p > 1e-300; i++)
		p *= (double)(n - i) / (double)(m + n - i);
	return i < k ? 0 : p;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double regress_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The number of orderings of m + n values whose Mann-Whitney count (pairs
 * with NEW's value above OLD's) is u, u = 0..mn, into @f (mn + 1): f(m, n,
 * u) = f(m - 1, n, u - n) + f(m, n - 1, u), a row of m at a time. -1: out
 * of memory. */
static int mw_counts(size_t m, size_t n, double *f)
{
	size_t len = m * n + 1, i, j, u;
	double *prev = calloc((n + 1) * len, sizeof(double)), *cur = calloc((n + 1) * len, sizeof(double));

	if (!prev || !cur) {
		free(prev);
		free(cur);
		return -1;
	}
	for (j = 0; j <= n; j++)
		prev[j * len] = 1;	/* no OLD value: one ordering, count 0 */
	for (i = 1; i <= m; i++) {
		double *t;

		memset(cur, 0, (n + 1) * len * sizeof(double));
		cur[0] = 1;	/* no NEW value */
		for (j = 1; j <= n; j++)
			for (u = 0; u <= i * j; u++)
				cur[j * len + u] = (u >= j ? prev[j * len + u - j] : 0) +
						   cur[(j - 1) * len + u];
		t = prev;
		prev = cur;
		cur = t;
	}
	memcpy(f, prev + n * len, len * sizeof(double));
	free(prev);
	free(cur);
	return 0;
}

static double norm_cdf(double x)
{
	return 0.5 * erfc(-x / sqrt(2));
}

/* Exact up to this many pairs; beyond, the normal approximation (its
 * error there is below a thousandth of the tail). */
#define MW_EXACT_PAIRS 400

double regress_mw_cdf(uint64_t c, size_t m, size_t n)
{
	double mn = (double)m * (double)n, sd = sqrt(mn * (double)(m + n + 1) / 12), *f, tot = 0,
	       below = 0;
	size_t u;

	if (c >= (uint64_t)mn)
		return 1;
	if (mn > MW_EXACT_PAIRS || !(f = malloc(((size_t)mn + 1) * sizeof(double))) ||
	    mw_counts(m, n, f) < 0) {
		if (mn <= MW_EXACT_PAIRS)
			free(f);
		return norm_cdf(((double)c + 0.5 - mn / 2) / sd);
	}
	for (u = 0; u <= (size_t)mn; u++) {
		tot += f[u];
		below += u <= c ? f[u] : 0;
	}
	free(f);
	return below / tot;
}

/* The least count c with P(U <= c) > @tail (so c - 1 is the largest at or
 * below it). */
static uint64_t mw_first_above(size_t m, size_t n, double tail)
{
	uint64_t lo = 0, hi = (uint64_t)m * n;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (regress_mw_cdf(mid, m, n) > tail)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * The Hodges-Lehmann interval of a shift: with c the largest count whose
 * P(U <= c) is at most (1 - conf) / 2, it runs from the (c + 1)th smallest
 * of the m x n differences b_j - a_i to the (c + 1)th largest. When even
 * U = 0 is likelier than that (3 runs a side: 1/20), there is none.
 */
int regress_rank_interval(const double *a, size_t na, const double *b, size_t nb, double conf,
			  bool *bounded, double *lo, double *hi)
{
	size_t npair = na * nb, i, j, k = 0;
	uint64_t c1 = mw_first_above(na, nb, (1 - conf) / 2);	/* c + 1 */
	double *d;

	*bounded = false;
	if (!na || !nb || c1 == 0)
		return 0;
	d = malloc(npair * sizeof(*d));
	if (!d)
		return -1;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			d[k++] = b[j] - a[i];
	qsort(d, npair, sizeof(*d), cmp_double);
	*lo = d[c1 - 1];
	*hi = d[npair - c1];
	*bounded = true;
	free(d);
	return 0;
}

void regress_dist_rank(const struct regress_dist *d, uint64_t r, int64_t *lo, int64_t *hi)
{
	size_t a = 0, b = d->nk;

	*lo = INT64_MIN;
	*hi = INT64_MAX;
	/* the last knot starting at or before r: its lo bounds r from below */
	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (d->k[mid].r0 <= r)
			a = mid + 1;
		else
			b = mid;
	}
	if (a)
		*lo = d->k[a - 1].lo;
	/* the first knot ending at or after r: its hi bounds r from above */
	a = 0;
	b = d->nk;
	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (d->k[mid].r1 < r)
			a = mid + 1;
		else
			b = mid;
	}
	if (a < d->nk)
		*hi = d->k[a].hi;
}

/* ---- one figure of one phase, OLD against NEW ---- */

static bool fig_lower_worse(enum regress_fig f)
{
	return f == REGRESS_TMIN_POS || f == REGRESS_TMIN_NEG;
}

static bool fig_extreme(enum regress_fig f)
{
	return f != REGRESS_WAKE_P99 && f != REGRESS_WAKE_P9999 && f != REGRESS_MISSED;
}

static double fig_pct(enum regress_fig f)
{
	return f == REGRESS_WAKE_P99 ? 99.0 : 99.99;
}

static const struct regress_dist *fig_dist(const struct regress_phase *ph, enum regress_fig f)
{
	switch (f) {
	case REGRESS_TMIN_POS:
	case REGRESS_TMAX_POS:
		return &ph->pos;
	case REGRESS_TMIN_NEG:
	case REGRESS_TMAX_NEG:
		return &ph->neg;
	default:
		return &ph->wake;
	}
}

static const struct regress_phase *phase_of(const struct regress_run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nph; i++)
		if (!strcmp(r->ph[i].name, name))
			return &r->ph[i];
	return NULL;
}

static double mid_of(int64_t lo, int64_t hi)
{
	if (lo == INT64_MIN)
		return (double)hi;
	if (hi == INT64_MAX)
		return (double)lo;
	return (double)lo / 2 + (double)hi / 2;
}

/* The figure of one run's phase into *@v: false when the run has none
 * (no pulses, no wake-ups, no slots). Missed periods per million slots. */
static bool fig_value(const struct regress_phase *ph, enum regress_fig f, double *v)
{
	const struct regress_dist *d = fig_dist(ph, f);
	int64_t lo, hi;

	if (f == REGRESS_MISSED) {
		uint64_t slots = ph->edges + ph->missed;

		*v = slots ? 1e6 * (double)ph->missed / (double)slots : 0;
		return slots > 0;
	}
	if (!d->n)
		return false;
	if (fig_extreme(f)) {
		*v = (double)(fig_lower_worse(f) ? d->min : d->max);
		return true;
	}
	regress_dist_rank(d, stats_rank(fig_pct(f), d->n), &lo, &hi);
	*v = mid_of(lo, hi);
	return true;
}

/* The interval of the p-quantile of one run from its order statistics. */
static void quantile_ci(const struct regress_dist *d, double pct, double conf, int64_t *lo,
			int64_t *hi)
{
	uint64_t l, u;
	int64_t a, b;

	regress_quantile_ranks(d->n, pct / 100, conf, &l, &u);
	*lo = INT64_MIN;
	*hi = INT64_MAX;
	if (l >= 1) {
		regress_dist_rank(d, l, &a, &b);
		*lo = a;
	}
	if (u <= d->n) {
		regress_dist_rank(d, u, &a, &b);
		*hi = b;
	}
}

/* Values of @d above @m (@above) or below it: at least this many. */
static uint64_t count_beyond(const struct regress_dist *d, int64_t m, bool above)
{
	size_t i;

	if (above) {
		for (i = 0; i < d->nk; i++)
			if (d->k[i].lo > m)
				return d->n - d->k[i].r0 + 1;
		return 0;
	}
	for (i = d->nk; i-- > 0;)
		if (d->k[i].hi < m)
			return d->k[i].r1;
	return 0;
}

/* One run each, an extreme: a max (or min) of one run has no interval,
 * and how far two maxima of one distribution fall apart depends on its
 * tail, which one run does not show. Not judged; the row says how many of
 * NEW's values lie beyond OLD's extreme, k of n, and how likely that many
 * are under one distribution, p = C(n, k) / C(m + n, k), to read, not to
 * gate on (at p < 5 % a heavy tail makes it now and then by chance). */
static void judge_extreme(struct regress_row *w, const struct regress_dist *o,
			  const struct regress_dist *n)
{
	bool up = !fig_lower_worse(w->fig);
	uint64_t k = count_beyond(n, up ? o->max : o->min, up);

	w->method = "exceedances";
	w->p = regress_exceed_p(k, n->n, o->n);
	w->call = REGRESS_UNJUDGED;
	msgbuf_set(w->why, sizeof(w->why), "one run each: a %s of one run has no interval; %llu "
		   "of NEW's %llu values %s OLD's (p %.3g under one distribution)",
		   up ? "max" : "min", (unsigned long long)k, (unsigned long long)n->n,
		   up ? "above" : "below", w->p);
}

static void set_bound(struct regress_row *w, bool hi, double v, bool known)
{
	if (hi) {
		w->have_hi = known;
		w->hi = v;
	} else {
		w->have_lo = known;
		w->lo = v;
	}
}

/* One run each, a quantile: each run's order-statistic interval at
 * 1 - (1 - conf) / 2, so that both hold together at conf, and their
 * difference: [NEW lo - OLD hi, NEW hi - OLD lo]. */
static void judge_quantile(struct regress_row *w, const struct regress_dist *o,
			   const struct regress_dist *n, const struct regress_opts *op)
{
	double conf1 = 1 - (1 - op->confidence) / 2;
	int64_t olo, ohi, nlo, nhi;

	quantile_ci(o, fig_pct(w->fig), conf1, &olo, &ohi);
	quantile_ci(n, fig_pct(w->fig), conf1, &nlo, &nhi);
	set_bound(w, false, (double)nlo - (double)ohi, nlo != INT64_MIN && ohi != INT64_MAX);
	set_bound(w, true, (double)nhi - (double)olo, nhi != INT64_MAX && olo != INT64_MIN);
	w->method = "order statistics";
	msgbuf_set(w->why, sizeof(w->why), "one run each: no variation known; the quantile's "
		   "interval from each run's own %llu and %llu values%s",
		   (unsigned long long)o->n, (unsigned long long)n->n,
		   w->have_lo && w->have_hi ? "" : " (too few for a bound)");
}

/* One run each, missed periods: counts over slots, each an exact Poisson
 * interval at 1 - (1 - conf) / 2, the rates' difference per million. */
static void judge_missed(struct regress_row *w, const struct regress_phase *o,
			 const struct regress_phase *n, const struct regress_opts *op)
{
	double conf1 = 1 - (1 - op->confidence) / 2, olo, ohi, nlo, nhi;
	double so = (double)(o->edges + o->missed), sn = (double)(n->edges + n->missed);

	regress_poisson_ci(o->missed, conf1, &olo, &ohi);
	regress_poisson_ci(n->missed, conf1, &nlo, &nhi);
	set_bound(w, false, 1e6 * (nlo / sn - ohi / so), true);
	set_bound(w, true, 1e6 * (nhi / sn - olo / so), true);
	w->method = "poisson";
	msgbuf_set(w->why, sizeof(w->why), "one run each: no variation known; %llu missed of "
		   "%.0f slots against %llu of %.0f, as Poisson counts",
		   (unsigned long long)n->missed, sn, (unsigned long long)o->missed, so);
}

/* The call from the interval: beyond the step on the worse side. */
static void call_of_interval(struct regress_row *w)
{
	bool up = !fig_lower_worse(w->fig);
	bool worse = up ? w->have_lo && w->lo > w->step : w->have_hi && w->hi < -w->step;
	bool better = up ? w->have_hi && w->hi < -w->step : w->have_lo && w->lo > w->step;

	w->call = worse ? REGRESS_WORSE : better ? REGRESS_BETTER : REGRESS_SAME;
}

/* What the runs of a side gave, for the row's basis. */
static const char *basis_of(size_t logs, size_t docs)
{
	return !docs && !logs ? "none" : !docs ? "logs" : !logs ? "summaries" : "logs and summaries";
}

struct side_vals {
	double *v;
	size_t n, logs;
	const struct regress_phase *one;  /* the phase of the last run with the figure */
};

static void side_collect(const struct regress_run *runs, size_t n, const char *phase,
			 enum regress_fig f, struct side_vals *s)
{
	size_t i;

	s->n = s->logs = 0;
	for (i = 0; i < n; i++) {
		const struct regress_phase *ph = phase_of(&runs[i], phase);

		if (ph && fig_value(ph, f, &s->v[s->n])) {
			s->n++;
			s->logs += runs[i].from_log;
			s->one = ph;
		}
	}
}

/* The row of @phase's figure @f: @old's runs against @nw's. -1: out of memory. */
static int judge_row(const struct regress_run *old, size_t nold, const struct regress_run *nw,
		     size_t nnew, const char *phase, enum regress_fig f,
		     const struct regress_opts *op, bool screen, struct regress_row *w)
{
	struct side_vals a = { 0 }, b = { 0 };
	int ret = 0;

	memset(w, 0, sizeof(*w));
	msgbuf_set(w->phase, sizeof(w->phase), "%s", phase);
	w->fig = f;
	w->p = -1;
	w->at = SIZE_MAX;
	w->method = "none";
	w->call = REGRESS_UNJUDGED;
	a.v = malloc((nold + 1) * sizeof(double));
	b.v = malloc((nnew + 1) * sizeof(double));
	if (!a.v || !b.v) {
		ret = -1;
		goto out;
	}
	side_collect(old, nold, phase, f, &a);
	side_collect(nw, nnew, phase, f, &b);
	w->n_old = a.n;
	w->n_new = b.n;
	w->basis = basis_of(a.logs + b.logs, a.n + b.n - a.logs - b.logs);
	w->have_old = a.n > 0;
	w->have_new = b.n > 0;
	if (!a.n || !b.n) {
		msgbuf_set(w->why, sizeof(w->why), "no %s run has it (%s)", a.n ? "NEW" : "OLD",
			   f == REGRESS_MISSED ? "no slots" : f >= REGRESS_WAKE_P99 ? "no wake-ups"
			   : "no pulses of this polarity");
		if (a.n)
			w->old_v = regress_median(a.v, a.n);
		if (b.n)
			w->new_v = regress_median(b.v, b.n);
		goto out;
	}
	w->old_v = regress_median(a.v, a.n);
	w->new_v = regress_median(b.v, b.n);
	w->diff = w->new_v - w->old_v;
	w->step = f == REGRESS_MISSED ? op->min_missed_ppm
		  : fmax((double)op->min_step_ns, op->min_step_pct / 100 * fabs(w->old_v));
	if (a.n >= 2 && b.n >= 2 && screen && fabs(w->diff) <= w->step) {
		/* a split of a series whose medians are within the step: no
		 * interval (its cost, times every split) can make it a step */
		w->call = REGRESS_SAME;
		w->method = "ranks";
	} else if (a.n >= 2 && b.n >= 2) {
		bool bounded;

		if (regress_rank_interval(a.v, a.n, b.v, b.n, op->confidence, &bounded, &w->lo,
					  &w->hi) < 0) {
			ret = -1;
			goto out;
		}
		w->have_lo = w->have_hi = bounded;
		w->method = "ranks";
		msgbuf_set(w->why, sizeof(w->why), "%zu OLD and %zu NEW runs, the shift's rank "
			   "interval (Hodges-Lehmann)%s", a.n, b.n, bounded ? ""
			   : ": too few runs to bound it (4 a side, or 3 and 5, at 95 %)");
		call_of_interval(w);
	} else if (a.n == 1 && b.n == 1) {
		if (f == REGRESS_MISSED) {
			judge_missed(w, a.one, b.one, op);
			call_of_interval(w);
		} else if (fig_extreme(f)) {
			judge_extreme(w, fig_dist(a.one, f), fig_dist(b.one, f));
		} else {
			judge_quantile(w, fig_dist(a.one, f), fig_dist(b.one, f), op);
			call_of_interval(w);
		}
	} else {
		msgbuf_set(w->why, sizeof(w->why), "one run on one side, %zu on the other: its "
			   "run-to-run variation is unknown (give two or more a side, or one each)",
			   a.n > b.n ? a.n : b.n);
	}
out:
	free(a.v);
	free(b.v);
	return ret;
}

/* ---- every phase and figure ---- */

/* The phase names of @runs, in the order they first appear, into @names. */
static size_t phase_names(const struct regress_run *runs, size_t n, const char **names,
			  size_t nn, size_t max)
{
	size_t i, j, k;

	for (i = 0; i < n; i++)
		for (j = 0; j < runs[i].nph; j++) {
			for (k = 0; k < nn && strcmp(names[k], runs[i].ph[j].name); k++)
				;
			if (k == nn && nn < max)
				names[nn++] = runs[i].ph[j].name;
		}
	return nn;
}

static size_t count_phases(const struct regress_run *runs, size_t n)
{
	size_t i, t = 0;

	for (i = 0; i < n; i++)
		t += runs[i].nph;
	return t;
}

/* How far a called row lies beyond its step (the larger, the clearer). */
static double margin(const struct regress_row *w)
{
	bool up = !fig_lower_worse(w->fig);

	if (w->call == REGRESS_WORSE)
		return up ? w->lo - w->step : -w->hi - w->step;
	if (w->call == REGRESS_BETTER)
		return up ? -w->hi - w->step : w->lo - w->step;
	return -INFINITY;
}

/* The best split of the series for @phase's @f into *@best. */
static int trend_row(const struct regress_run *runs, size_t n, const char *phase,
		     enum regress_fig f, const struct regress_opts *o, struct regress_row *best)
{
	struct regress_row w;
	size_t k;
	int rank_best = 0;

	if (judge_row(runs, n, runs, 0, phase, f, o, true, best) < 0)
		return -1;
	best->n_new = 0;
	msgbuf_set(best->why, sizeof(best->why), n < REGRESS_TREND_MIN ? "fewer than 8 runs: no "
		   "split has the runs either side a rank interval needs" : "no split of the runs "
		   "differs beyond its variation");
	best->call = n < REGRESS_TREND_MIN ? REGRESS_UNJUDGED : REGRESS_SAME;
	best->method = "ranks";
	for (k = 3; n >= REGRESS_TREND_MIN && k + 3 <= n; k++) {
		int rank;

		if (judge_row(runs, k, runs + k, n - k, phase, f, o, true, &w) < 0)
			return -1;
		/* a regression before an improvement, then the clearer, then the earlier */
		rank = w.call == REGRESS_WORSE ? 2 : w.call == REGRESS_BETTER ? 1 : 0;
		if (rank && (rank > rank_best || (rank == rank_best && margin(&w) > margin(best)))) {
			*best = w;
			best->at = k;
			rank_best = rank;
		}
	}
	return 0;
}

/* Every phase (OLD's order, then NEW's own) and figure: OLD against NEW,
 * or (@trend) the steps of the series @old. -1: out of memory. */
static int judge_all(const struct regress_run *old, size_t nold, const struct regress_run *nw,
		     size_t nnew, bool trend, const struct regress_opts *o,
		     struct regress_result *res, char *err, size_t errlen)
{
	size_t max = count_phases(old, nold) + count_phases(nw, nnew), nn, i;
	const char **names = calloc(max + 1, sizeof(*names));
	int f, r;

	memset(res, 0, sizeof(*res));
	res->trend = trend;
	res->n_old = nold;
	res->n_new = nnew;
	res->old = old;
	res->nw = nw;
	nn = names ? phase_names(old, nold, names, 0, max) : 0;
	nn = names ? phase_names(nw, nnew, names, nn, max) : 0;
	res->rows = names ? calloc(nn * REGRESS_NFIGS + 1, sizeof(*res->rows)) : NULL;
	for (i = 0; res->rows && i < nn; i++)
		for (f = 0; f < REGRESS_NFIGS; f++) {
			r = trend ? trend_row(old, nold, names[i], (enum regress_fig)f, o,
					      &res->rows[res->n])
				  : judge_row(old, nold, nw, nnew, names[i], (enum regress_fig)f, o,
					      false, &res->rows[res->n]);
			if (r < 0)
				goto oom;
			res->n++;
		}
	if (!res->rows)
		goto oom;
	free(names);
	return 0;
oom:
	free(names);
	regress_result_free(res);
	msgbuf_set(err, errlen, "%s: %s", trend ? "report --trend --steps" : "report --baseline",
		   strerror(ENOMEM));
	return -1;
}

int regress_judge(const struct regress_run *old, size_t nold, const struct regress_run *nw,
		  size_t nnew, const struct regress_opts *o, struct regress_result *res, char *err,
		  size_t errlen)
{
	return judge_all(old, nold, nw, nnew, false, o, res, err, errlen);
}

int regress_trend(const struct regress_run *runs, size_t n, const struct regress_opts *o,
		  struct regress_result *res, char *err, size_t errlen)
{
	return judge_all(runs, n, NULL, 0, true, o, res, err, errlen);
}

void regress_result_free(struct regress_result *res)
{
	free(res->rows);
	res->rows = NULL;
	res->n = 0;
}

bool regress_any(const struct regress_result *res)
{
	size_t i;

	for (i = 0; i < res->n; i++)
		if (res->rows[i].call == REGRESS_WORSE)
			return true;
	return false;
}
