/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave compare RUN [CAPTURE]`: line a scope/analyzer capture up with a run
 * (src/align.c) or check a scope's Tmin/Tmax readings against the log. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "align.h"
#include "capture.h"
#include "cmd.h"
#include "edgelog.h"
#include "edgestats.h"
#include "json.h"
#include "outfile.h"
#include "statsjson.h"
#include "print.h"
#include "stats.h"
#include "units.h"

#define COMPARE_SCHEMA "sqwave-compare"
#define COMPARE_SCHEMA_VERSION 1
#define DEF_WORST 10u
#define LIST_MAX 20u                 /* missing/extra edges listed in text */
#define DEF_SCOPE_REL 0.001          /* --scope-resolution default: 0.1 % */

static const char *const pol_name[EDGESTATS_NPOL] = { "positive", "negative", "any" };

/* A scope reading: --scope-[pos-|neg-]t{min,max}. */
struct scope_reading {
	bool set;
	int64_t ns;
};

struct cmp_opts {
	const char *run, *capture, *json;
	struct capture_opts copts;
	int64_t tolerance_ns;        /* -1: the capture's resolution */
	int64_t first_seq;           /* -1: search */
	double max_drift_ppm;
	unsigned worst;
	struct scope_reading scope[EDGESTATS_NPOL][2]; /* [polarity][0 tmin, 1 tmax] */
	bool have_scope;
	double scope_rel;            /* relative resolution, or */
	int64_t scope_abs_ns;        /* absolute (>= 0 when given) */
};

/* Everything worked out, for the text and the JSON. */
struct cmp {
	const struct cmp_opts *o;
	/* run */
	const struct edgelog_meta *meta;
	uint64_t records;
	bool truncated;
	/* capture */
	const struct capture_info *ci;
	struct capture_edge *cap;
	size_t ncap;
	struct align_params ap;
	struct align_window w;
	struct align_result r;
	struct edge_rec *win;        /* run records kept in pass 2 */
	size_t nwin;
	bool aligned;
	/* side by side, over the window; polarity in log terms */
	struct stats_hist cw[EDGESTATS_NPOL];
	struct edgestats *es;        /* log widths over the window */
	const struct edgestats_result *er;
	double cw_tol_ns;            /* a capture width's uncertainty */
	bool width_ok[EDGESTATS_NPOL][2];
	/* residuals */
	struct stats_moments res_m, frac_m;
	struct stats_hist res_abs;
	size_t inside;
	size_t *worst;               /* pair indices, worst first */
	size_t nworst;
	/* scope mode: the whole run */
	struct edgestats *ses;
	const struct edgestats_result *ser;
	bool scope_ok[EDGESTATS_NPOL][2];
	int64_t scope_tol[EDGESTATS_NPOL][2];
	/* verdict */
	bool agree;
	const char *verdict;
	int exit_code;
	FILE *json_stdout;           /* --json -: the original standard output */
};

static void compare_usage(FILE *f)
{
	fprintf(f,
		"usage: sqwave compare RUN CAPTURE [OPTIONS]\n"
		"       sqwave compare RUN --scope-tmin 444us --scope-tmax 556us [OPTIONS]\n\n"
		"Line a scope or logic-analyzer capture up with a run's log (find the window\n"
		"it covers, fit offset and drift, pair every edge) and say whether they agree;\n"
		"or check Tmin/Tmax read off a scope's statistics screen against the log.\n\n"
		"capture:\n"
		"  --format NAME          capture format (default: detected): %s\n"
		"  --channel CH           channel name or number (default: the only one, or\n"
		"                         the first with edges)\n"
		"  --tolerance DUR        per-edge slack beyond the write window (default: the\n"
		"                         capture's resolution)\n"
		"  --first-seq N          the capture's first edge is run edge N (skip the search;\n"
		"                         for a wave too regular to place)\n"
		"  --max-drift PPM        largest clock-rate difference searched (default 500)\n"
		"  --worst N              disagreements listed (default %u)\n"
		"scope statistics (no capture needed):\n"
		"  --scope-tmin DUR, --scope-tmax DUR            any polarity\n"
		"  --scope-pos-tmin DUR, --scope-pos-tmax DUR    positive pulses\n"
		"  --scope-neg-tmin DUR, --scope-neg-tmax DUR    negative pulses\n"
		"  --scope-resolution DUR|PCT   reading accuracy (default 0.1%%: a 4-digit display)\n"
		"output:\n"
		"  --json FILE            machine-readable result (docs/compare.md; - for stdout,\n"
		"                         the text report then goes to standard error)\n\n"
		"DUR takes a unit: 444us, 0.5ms, 120ns.\n"
		"exit codes: 0 agree, 1 disagree (or the capture matches no part of the run),\n"
		"            2 bad input (or the capture fits several places: ambiguous), 3 I/O error\n",
		capture_format_names(), DEF_WORST);
}

static int parse_dur(const char *opt, const char *s, int64_t *ns)
{
	if (units_parse_duration(s, NULL, ns) == 0)
		return 0;
	pr_err("compare: --%s '%s': expected a duration with a unit (444us, 0.5ms, 120ns)", opt, s);
	return -1;
}

enum {
	O_FORMAT = 256, O_CHANNEL, O_TOL, O_FIRST, O_DRIFT, O_WORST, O_JSON, O_SRES,
	O_SCOPE /* + polarity * 2 + (tmax) */
};

static int parse_args(int argc, char **argv, struct cmp_opts *o)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, O_FORMAT },
		{ "channel", required_argument, NULL, O_CHANNEL },
		{ "tolerance", required_argument, NULL, O_TOL },
		{ "first-seq", required_argument, NULL, O_FIRST },
		{ "max-drift", required_argument, NULL, O_DRIFT },
		{ "worst", required_argument, NULL, O_WORST },
		{ "json", required_argument, NULL, O_JSON },
		{ "scope-resolution", required_argument, NULL, O_SRES },
		{ "scope-pos-tmin", required_argument, NULL, O_SCOPE + 0 },
		{ "scope-pos-tmax", required_argument, NULL, O_SCOPE + 1 },
		{ "scope-neg-tmin", required_argument, NULL, O_SCOPE + 2 },
		{ "scope-neg-tmax", required_argument, NULL, O_SCOPE + 3 },
		{ "scope-tmin", required_argument, NULL, O_SCOPE + 4 },
		{ "scope-tmax", required_argument, NULL, O_SCOPE + 5 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int ch;
	char *end;

	memset(o, 0, sizeof(*o));
	o->tolerance_ns = -1;
	o->first_seq = -1;
	o->worst = DEF_WORST;
	o->scope_rel = DEF_SCOPE_REL;
	o->scope_abs_ns = -1;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case O_FORMAT:
			o->copts.format = optarg;
			break;
		case O_CHANNEL:
			o->copts.channel = optarg;
			break;
		case O_TOL:
			if (parse_dur("tolerance", optarg, &o->tolerance_ns))
				return -1;
			break;
		case O_FIRST:
			errno = 0;
			o->first_seq = (int64_t)strtoll(optarg, &end, 10);
			if (errno || *end || o->first_seq < 0) {
				pr_err("compare: --first-seq '%s': expected an edge number (0, 1, ...)", optarg);
				return -1;
			}
			break;
		case O_DRIFT:
			o->max_drift_ppm = strtod(optarg, &end);
			if (*end || !(o->max_drift_ppm > 0 && o->max_drift_ppm <= 10000)) {
				pr_err("compare: --max-drift '%s': expected ppm in (0, 10000]", optarg);
				return -1;
			}
			break;
		case O_WORST:
			o->worst = (unsigned)strtoul(optarg, &end, 10);
			if (*end || o->worst > 100000) {
				pr_err("compare: --worst '%s': expected a count", optarg);
				return -1;
			}
			break;
		case O_JSON:
			o->json = optarg;
			break;
		case O_SRES: {
			size_t len = strlen(optarg);

			if (len && optarg[len - 1] == '%') {
				o->scope_rel = strtod(optarg, &end) / 100;
				if (*end != '%' || !(o->scope_rel >= 0 && o->scope_rel < 1)) {
					pr_err("compare: --scope-resolution '%s': expected 0.1%% or a duration",
					       optarg);
					return -1;
				}
				o->scope_abs_ns = -1;
			} else if (parse_dur("scope-resolution", optarg, &o->scope_abs_ns)) {
				return -1;
			}
			break;
		}
		case 'h':
			compare_usage(stdout);
			return 1;
		default:
			if (ch >= O_SCOPE && ch < O_SCOPE + 6) {
				int pol = (ch - O_SCOPE) / 2, mx = (ch - O_SCOPE) % 2;
				struct scope_reading *sr = &o->scope[pol][mx];

				if (parse_dur(opts[8 + (ch - O_SCOPE)].name, optarg, &sr->ns))
					return -1;
				sr->set = true;
				o->have_scope = true;
				break;
			}
			compare_usage(stderr);
			return -1;
		}
	}
	if (optind < argc)
		o->run = argv[optind++];
	if (optind < argc)
		o->capture = argv[optind++];
	if (!o->run || optind < argc || (!o->capture && !o->have_scope)) {
		if (!o->run)
			pr_err("compare: no run log given");
		else if (optind < argc)
			pr_err("compare: unexpected argument '%s'", argv[optind]);
		else
			pr_err("compare: give a CAPTURE file, or scope readings (--scope-tmin ...)");
		compare_usage(stderr);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */

static int open_run(const char *path, struct edgelog_reader **r)
{
	enum edgelog_status st;
	char err[512];

	*r = edgelog_reader_open(path, &st, err, sizeof(err));
	if (*r)
		return 0;
	pr_err("%s", err);
	return st == EDGELOG_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
}

static int capture_exit_code(int err)
{
	switch (err) {
	case ENOENT: case EACCES: case EIO: case EISDIR: case ENOMEM: case EPERM: case EMFILE:
		return SQW_EXIT_RUNTIME;
	default:
		return SQW_EXIT_USAGE;
	}
}

static int load_capture(struct cmp *c, struct capture **capp)
{
	struct capture *cp = capture_open(c->o->capture, &c->o->copts);
	struct capture_edge e;
	size_t cap_alloc = 0;
	int got;

	if (!cp)
		return capture_exit_code(errno);
	*capp = cp;
	while ((got = capture_next_edge(cp, &e)) == 1) {
		if (c->ncap == cap_alloc) {
			size_t na = cap_alloc ? cap_alloc * 2 : 4096;
			struct capture_edge *ne = realloc(c->cap, na * sizeof(*ne));

			if (!ne) {
				pr_err("compare: out of memory reading %s", c->o->capture);
				return SQW_EXIT_RUNTIME;
			}
			c->cap = ne;
			cap_alloc = na;
		}
		c->cap[c->ncap++] = e;
	}
	if (got < 0)
		return SQW_EXIT_USAGE;  /* the importer said what is wrong */
	c->ci = capture_info(cp);
	return 0;
}

/* Pass 1: every record once, into the search and (scope mode) the stats. */
static int pass1(struct cmp *c, struct align_search *s, struct edgelog_reader **rp)
{
	struct edgelog_reader *r;
	struct edge_rec e;
	int ret, got;

	ret = open_run(c->o->run, &r);
	if (ret)
		return ret;
	*rp = r;
	c->meta = edgelog_reader_meta(r);
	if (c->o->have_scope) {
		c->ses = edgestats_new((int64_t)c->meta->half_period_ns);
		if (!c->ses) {
			pr_err("compare: out of memory");
			return SQW_EXIT_RUNTIME;
		}
	}
	while ((got = edgelog_reader_next(r, &e)) == 1) {
		if (s)
			align_search_feed(s, &e);
		if (c->ses)
			edgestats_add(c->ses, &e);
		c->records++;
	}
	if (got < 0) {
		pr_err("%s: read error after %" PRIu64 " records: %s", c->o->run, c->records,
		       strerror(errno));
		return SQW_EXIT_RUNTIME;
	}
	c->truncated = !edgelog_reader_footer(r);
	if (c->truncated)
		pr_warn("%s: log is truncated (the run was cut short): using its %" PRIu64
			" complete records", c->o->run, c->records);
	if (c->ses)
		c->ser = edgestats_result(c->ses);
	return 0;
}

/* Pass 2: the records around the capture. */
static int pass2(struct cmp *c)
{
	struct edgelog_reader *r;
	struct edge_rec e;
	size_t alloc = 0;
	int ret, got;

	ret = open_run(c->o->run, &r);
	if (ret)
		return ret;
	while ((got = edgelog_reader_next(r, &e)) == 1) {
		if ((int64_t)edge_write_end_ns(&e) < c->w.keep_lo_ns)
			continue;
		if ((int64_t)edge_write_begin_ns(&e) > c->w.keep_hi_ns)
			break;
		if (c->nwin == alloc) {
			size_t na = alloc ? alloc * 2 : 4096;
			struct edge_rec *nw = realloc(c->win, na * sizeof(*nw));

			if (!nw) {
				edgelog_reader_close(r);
				pr_err("compare: out of memory");
				return SQW_EXIT_RUNTIME;
			}
			c->win = nw;
			alloc = na;
		}
		c->win[c->nwin++] = e;
	}
	edgelog_reader_close(r);
	if (got < 0) {
		pr_err("%s: read error: %s", c->o->run, strerror(errno));
		return SQW_EXIT_RUNTIME;
	}
	return 0;
}

static double fs_to_ns(int64_t fs)
{
	return (double)fs / (double)CAPTURE_FS_PER_NS;
}

static int cmp_abs_residual(const void *a, const void *b, void *arg)
{
	const struct align_pair *p = arg;
	double x = fabs(p[*(const size_t *)a].residual_ns), y = fabs(p[*(const size_t *)b].residual_ns);

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Side-by-side statistics and residuals over the aligned window. */
static int window_stats(struct cmp *c)
{
	const struct align_result *r = &c->r;
	double drift = fabs(r->drift_ppm) * 1e-6;
	size_t i, k;
	int p;

	for (p = 0; p < EDGESTATS_NPOL; p++)
		if (stats_hist_init(&c->cw[p], STATS_HIST_DEFAULT_HIGHEST) < 0)
			return -1;
	if (stats_hist_init(&c->res_abs, STATS_HIST_DEFAULT_HIGHEST) < 0)
		return -1;
	stats_moments_init(&c->res_m);
	stats_moments_init(&c->frac_m);
	/* capture pulses, as the instrument measured them, labelled by the
	 * log's polarity (an inverted probe sees a positive pulse as negative) */
	for (i = 0; i + 1 < c->ncap; i++) {
		int64_t wns;
		int pol;

		if (c->cap[i + 1].flags & CAPTURE_EDGE_F_AFTER_GAP)
			continue;
		wns = llround(fs_to_ns(c->cap[i + 1].t_fs - c->cap[i].t_fs));
		pol = (c->cap[i].level ^ (uint8_t)r->inverted) ? EDGESTATS_POS : EDGESTATS_NEG;
		stats_hist_add(&c->cw[pol], wns);
		stats_hist_add(&c->cw[EDGESTATS_ANY], wns);
	}
	/* the log's prediction for the same window; warm-up edges count here,
	 * since the capture saw them */
	c->es = edgestats_new((int64_t)c->meta->half_period_ns);
	if (!c->es)
		return -1;
	for (k = r->run_first; k <= r->run_last && k < c->nwin; k++) {
		struct edge_rec e = c->win[k];

		e.flags &= (uint8_t)~EDGE_F_WARMUP;
		edgestats_add(c->es, &e);
	}
	c->er = edgestats_result(c->es);
	c->cw_tol_ns = r->tolerance_ns + fs_to_ns(c->ap.resolution_fs);
	for (p = 0; p < EDGESTATS_NPOL; p++) {
		const struct edgestats_widths *lw = &c->er->width[p];
		const struct stats_hist *ch = &c->cw[p];
		double slack = c->cw_tol_ns;

		if (!ch->m.n || !lw->h.m.n) {
			c->width_ok[p][0] = c->width_ok[p][1] = ch->m.n == lw->h.m.n;
			continue;
		}
		/* the true Tmin is in [lowest lo, hi of the shortest estimate];
		 * Tmax in [lo of the longest estimate, highest hi] */
		c->width_ok[p][0] = (double)ch->m.min >= (double)lw->tmin_bound.lo_ns - slack - drift * (double)ch->m.min &&
				    (double)ch->m.min <= (double)lw->tmin.hi_ns + slack + drift * (double)ch->m.min;
		c->width_ok[p][1] = (double)ch->m.max >= (double)lw->tmax.lo_ns - slack - drift * (double)ch->m.max &&
				    (double)ch->m.max <= (double)lw->tmax_bound.hi_ns + slack + drift * (double)ch->m.max;
	}
	for (i = 0; i < r->npairs; i++) {
		const struct align_pair *pr = &r->pairs[i];
		const struct edge_rec *e = &c->win[pr->run];
		double ww = (double)(e->write_end_off_ns - e->write_begin_off_ns);

		stats_moments_add(&c->res_m, llround(pr->residual_ns));
		stats_hist_add(&c->res_abs, llround(fabs(pr->residual_ns)));
		if (pr->residual_ns == 0)
			c->inside++;
		if (ww > 0 && pr->residual_ns == 0)
			stats_moments_add(&c->frac_m, llround(1000 * pr->from_begin_ns / ww));
	}
	c->worst = malloc((r->npairs + 1) * sizeof(*c->worst));
	if (!c->worst)
		return -1;
	for (i = 0; i < r->npairs; i++)
		c->worst[i] = i;
	qsort_r(c->worst, r->npairs, sizeof(*c->worst), cmp_abs_residual, r->pairs);
	for (c->nworst = 0; c->nworst < r->npairs && c->nworst < c->o->worst; c->nworst++)
		if (fabs(r->pairs[c->worst[c->nworst]].residual_ns) <= r->tolerance_ns)
			break;
	return 0;
}

static void scope_check(struct cmp *c)
{
	int p, mx;

	for (p = 0; p < EDGESTATS_NPOL; p++)
		for (mx = 0; mx < 2; mx++) {
			const struct scope_reading *sr = &c->o->scope[p][mx];
			const struct edgestats_widths *lw = &c->ser->width[p];
			int64_t tol, lo, hi;

			c->scope_ok[p][mx] = true;
			if (!sr->set)
				continue;
			tol = c->o->scope_abs_ns >= 0 ? c->o->scope_abs_ns
						      : llround(c->o->scope_rel * (double)sr->ns);
			c->scope_tol[p][mx] = tol;
			if (!lw->h.m.n) {
				c->scope_ok[p][mx] = false;
				continue;
			}
			lo = mx ? lw->tmax.lo_ns : lw->tmin_bound.lo_ns;
			hi = mx ? lw->tmax_bound.hi_ns : lw->tmin.hi_ns;
			c->scope_ok[p][mx] = sr->ns >= lo - tol && sr->ns <= hi + tol;
		}
}

/* ------------------------------------------------------------------ */
/* text */

static void us(char *buf, size_t len, double ns)
{
	if (isnan(ns))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", ns / 1000);
}

static void print_width_row(const char *name, double cap_ns, bool cap_valid, double log_ns,
			    bool log_valid, const char *bounds, const char *mark)
{
	char a[32], b[32];

	us(a, sizeof(a), cap_valid ? cap_ns : NAN);
	us(b, sizeof(b), log_valid ? log_ns : NAN);
	printf("    %-10s %14s %14s  %-24s %s\n", name, a, b, bounds, mark);
}

static void print_widths(const struct cmp *c)
{
	int p, i;

	printf("\npulse widths over the window, us: the capture as measured%s; the log\n"
	       "write midpoint to midpoint, [lo, hi] = what the line can have done\n",
	       c->r.inverted ? " (inverted probe: labelled by the log's polarity)" : "");
	printf("    %-10s %14s %14s  %-24s\n", "", "capture", "log", "log bounds");
	for (p = 0; p < EDGESTATS_NPOL; p++) {
		const struct stats_hist *ch = &c->cw[p];
		const struct edgestats_widths *lw = &c->er->width[p];
		bool cv = ch->m.n > 0, lv = lw->h.m.n > 0;
		char cnt[64], bnd[64];

		printf("  %s pulses\n", pol_name[p]);
		snprintf(cnt, sizeof(cnt), "%14" PRIu64 " %14" PRIu64, ch->m.n, lw->h.m.n);
		printf("    %-10s %s\n", "count", cnt);
		snprintf(bnd, sizeof(bnd), "[%.3f, %.3f]", (double)lw->tmin_bound.lo_ns / 1000,
			 (double)lw->tmin.hi_ns / 1000);
		print_width_row("Tmin", (double)ch->m.min, cv, (double)lw->tmin.width_ns, lv,
				lv ? bnd : "", cv && lv ? (c->width_ok[p][0] ? "ok" : "DISAGREE") : "");
		snprintf(bnd, sizeof(bnd), "[%.3f, %.3f]", (double)lw->tmax.lo_ns / 1000,
			 (double)lw->tmax_bound.hi_ns / 1000);
		print_width_row("Tmax", (double)ch->m.max, cv, (double)lw->tmax.width_ns, lv,
				lv ? bnd : "", cv && lv ? (c->width_ok[p][1] ? "ok" : "DISAGREE") : "");
		print_width_row("mean", stats_moments_mean(&ch->m), cv, stats_moments_mean(&lw->h.m),
				lv, "", "");
		print_width_row("stddev", stats_moments_stddev(&ch->m), cv,
				stats_moments_stddev(&lw->h.m), lv, "", "");
		for (i = 0; i < STATS_NPCT; i++)
			print_width_row(stats_pct_name[i], (double)stats_hist_percentile(ch, stats_pct[i]),
					cv, (double)stats_hist_percentile(&lw->h, stats_pct[i]), lv, "", "");
	}
}

static void print_capture_report(const struct cmp *c)
{
	const struct align_result *r = &c->r;
	const struct capture_info *ci = c->ci;
	char a[32], b[32], d[32], e[32];
	size_t i;
	int k;

	printf("capture    %s (%s, channel %s: %s)\n", ci->path, ci->format, ci->channel_name,
	       ci->channel_reason);
	printf("           %zu edges, resolution %.3f ns, span %.9f .. %.9f s\n", c->ncap,
	       fs_to_ns(ci->resolution_fs), capture_fs_to_s(ci->start_fs), capture_fs_to_s(ci->end_fs));
	for (i = 0; i < ci->n_notes; i++)
		printf("           note: %s\n", ci->notes[i]);
	if (!c->aligned) {
		const char *why = "";

		switch (c->w.status) {
		case ALIGN_AMBIGUOUS:
			printf("alignment  AMBIGUOUS: the capture's pulse widths fit %" PRIu64
			       " places in the run\n", c->w.candidates);
			why = "the wave is too regular (pulse widths equal within the tolerance) to tell\n"
			      "           where the capture belongs; say where it starts with --first-seq SEQ";
			break;
		case ALIGN_NO_OVERLAP:
			printf("alignment  NO OVERLAP: the capture matches no part of the run\n");
			why = c->o->first_seq >= 0 ? "--first-seq names an edge the run does not have"
				: "no block of its pulse widths matches the log's anywhere: is this a\n"
				  "           capture of this run, of this line (--channel)?";
			break;
		case ALIGN_TOO_FEW:
			printf("alignment  impossible: the capture has %zu edges (at least 3 needed)\n", c->ncap);
			break;
		case ALIGN_FOUND:
			break;
		}
		if (*why)
			printf("           %s\n", why);
		return;
	}
	printf("alignment  capture edges 0..%zu are run edges seq %" PRIu64 "..%" PRIu64 "\n",
	       c->ncap - 1, c->win[r->pairs[0].run].seq, c->win[r->pairs[r->npairs - 1].run].seq);
	printf("           window: seq %" PRIu64 "..%" PRIu64 " (%zu run edges inside the capture's span)\n",
	       r->first_seq, r->last_seq, r->covered);
	printf("           capture t = %.3f ns + (1 %+.3f ppm) x (log t - %" PRId64 " ns)\n",
	       r->offset_ns, r->drift_ppm, r->ref_ns);
	printf("           drift %+.3f ppm (capture clock %s than the board's); fit rms %.1f ns,\n"
	       "           %zu edges in the fit, %zu left out; %u of %u search blocks agreed%s\n",
	       r->drift_ppm, r->drift_ppm >= 0 ? "faster" : "slower", r->fit_rms_ns, r->inliers,
	       r->outliers, c->w.blocks_matched, c->w.blocks,
	       c->o->first_seq >= 0 ? " (--first-seq)" : "");
	if (r->inverted)
		printf("           polarity: the capture is inverted against the log's levels\n");
	printf("edges      %zu paired, %zu in the log but not in the capture, %zu in the capture "
	       "but not in the log\n", r->npairs, r->nmissing, r->nextra);
	if (r->in_gap || r->write_failed)
		printf("           not checked: %zu in capture data gaps, %zu failed writes\n",
		       r->in_gap, r->write_failed);

	us(a, sizeof(a), (double)c->res_m.min);
	us(b, sizeof(b), (double)c->res_m.max);
	us(d, sizeof(d), stats_moments_mean(&c->res_m));
	us(e, sizeof(e), stats_moments_stddev(&c->res_m));
	printf("\nresidual   capture edge - logged write window, on the log clock (0 = inside)\n");
	printf("           %zu of %zu inside the window, %zu beyond the tolerance of %.1f ns\n"
	       "           (resolution or --tolerance %.1f ns + 4 x fit error %.1f ns)\n",
	       c->inside, r->npairs, r->disagree, r->tolerance_ns,
	       r->tolerance_ns - 4 * r->fit_se_ns, r->fit_se_ns);
	printf("           us: min %s  max %s  mean %s  stddev %s\n", a, b, d, e);
	printf("           |residual| us:");
	for (k = 0; k < STATS_NPCT; k++) {
		us(a, sizeof(a), (double)stats_hist_percentile(&c->res_abs, stats_pct[k]));
		printf(" %s %s", stats_pct_name[k], a);
	}
	printf("\n");
	if (c->frac_m.n)
		printf("           the line changes on average %.0f %% into the write window "
		       "(min %.0f %%, max %.0f %%)\n", stats_moments_mean(&c->frac_m) / 10,
		       (double)c->frac_m.min / 10, (double)c->frac_m.max / 10);

	print_widths(c);

	if (c->nworst) {
		printf("\nworst disagreements (capture time in the capture's time base)\n");
		printf("    %12s %5s %18s %14s %14s\n", "seq", "level", "capture t (s)",
		       "residual us", "window us");
		for (i = 0; i < c->nworst; i++) {
			const struct align_pair *pr = &r->pairs[c->worst[i]];
			const struct edge_rec *er = &c->win[pr->run];

			printf("    %12" PRIu64 " %5u %18.9f %14.3f %14.3f\n", er->seq, er->level,
			       capture_fs_to_s(c->cap[pr->cap].t_fs), pr->residual_ns / 1000,
			       (double)(er->write_end_off_ns - er->write_begin_off_ns) / 1000);
		}
	}
	if (r->nmissing) {
		printf("\nin the log, not in the capture (%zu):", r->nmissing);
		for (i = 0; i < r->nmissing && i < LIST_MAX; i++) {
			const struct edge_rec *er = &c->win[r->missing[i]];

			printf("%s seq %" PRIu64 " (level %u, capture t %.9f s)", i ? "," : "", er->seq,
			       er->level, (r->offset_ns + (1 + r->drift_ppm * 1e-6) *
					    ((double)(int64_t)(edge_write_begin_ns(er) / 2 + edge_write_end_ns(er) / 2) -
					     (double)r->ref_ns)) / 1e9);
		}
		printf("%s\n", r->nmissing > LIST_MAX ? ", ..." : "");
	}
	if (r->nextra) {
		printf("\nin the capture, not in the log (%zu):", r->nextra);
		for (i = 0; i < r->nextra && i < LIST_MAX; i++) {
			const struct capture_edge *ce = &c->cap[r->extra[i]];

			printf("%s %s at %.9f s", i ? "," : "", ce->level ? "rise" : "fall",
			       capture_fs_to_s(ce->t_fs));
		}
		printf("%s\n", r->nextra > LIST_MAX ? ", ..." : "");
	}
}

static void print_scope_report(const struct cmp *c)
{
	int p, mx;

	printf("\nscope      readings against the log's prediction for the whole run (%" PRIu64
	       " edges, warm-up excluded), us\n", c->ser->edges);
	printf("    %-16s %12s %24s %12s %10s\n", "", "log", "log bounds", "scope", "+-");
	for (p = 0; p < EDGESTATS_NPOL; p++)
		for (mx = 0; mx < 2; mx++) {
			const struct scope_reading *sr = &c->o->scope[p][mx];
			const struct edgestats_widths *lw = &c->ser->width[p];
			char name[32], bnd[64];

			if (!sr->set)
				continue;
			snprintf(name, sizeof(name), "%s %s", mx ? "Tmax" : "Tmin", pol_name[p]);
			snprintf(bnd, sizeof(bnd), "[%.3f, %.3f]",
				 (double)(mx ? lw->tmax.lo_ns : lw->tmin_bound.lo_ns) / 1000,
				 (double)(mx ? lw->tmax_bound.hi_ns : lw->tmin.hi_ns) / 1000);
			printf("    %-16s %12.3f %24s %12.3f %10.3f  %s\n", name,
			       (double)(mx ? lw->tmax.width_ns : lw->tmin.width_ns) / 1000, bnd,
			       (double)sr->ns / 1000, (double)c->scope_tol[p][mx] / 1000,
			       c->scope_ok[p][mx] ? "ok" : "DISAGREE");
		}
	printf("           (a reading agrees if it lies in the log's bounds +- the scope's resolution:\n"
	       "            %s)\n", c->o->scope_abs_ns >= 0 ? "--scope-resolution" :
	       "--scope-resolution, by default 0.1 % of the reading");
}

/* ------------------------------------------------------------------ */
/* JSON (schema in docs/compare.md) */

static void jns(struct json_writer *w, const char *key, double ns)
{
	if (isnan(ns))
		json_kv_null(w, key);
	else
		json_kv_double(w, key, round(ns * 1000) / 1000);
}

static void json_log_widths(struct json_writer *w, const char *key, const struct edgestats_widths *lw)
{
	json_kv_object_begin(w, key);
	json_kv_object_begin(w, "widths");
	statsjson_dist(w, &lw->h);
	json_object_end(w);
	if (lw->h.m.n) {
		json_kv_int(w, "tmin_ns", lw->tmin.width_ns);
		json_kv_int(w, "tmin_lo_ns", lw->tmin_bound.lo_ns);
		json_kv_int(w, "tmin_hi_ns", lw->tmin.hi_ns);
		json_kv_uint(w, "tmin_seq", lw->tmin.at.seq);
		json_kv_int(w, "tmax_ns", lw->tmax.width_ns);
		json_kv_int(w, "tmax_lo_ns", lw->tmax.lo_ns);
		json_kv_int(w, "tmax_hi_ns", lw->tmax_bound.hi_ns);
		json_kv_uint(w, "tmax_seq", lw->tmax.at.seq);
	}
	json_object_end(w);
}

static void json_alignment(struct json_writer *w, const struct cmp *c)
{
	const struct align_result *r = &c->r;

	json_kv_object_begin(w, "alignment");
	json_kv_string(w, "status", align_status_name(c->aligned ? ALIGN_FOUND : c->w.status));
	json_kv_uint(w, "candidates", c->w.candidates);
	json_kv_uint(w, "search_blocks", c->w.blocks);
	json_kv_uint(w, "blocks_agreeing", c->w.blocks_matched);
	if (c->o->first_seq >= 0)
		json_kv_int(w, "first_seq_given", c->o->first_seq);
	if (c->aligned) {
		json_kv_bool(w, "inverted", r->inverted);
		json_kv_int(w, "ref_ns", r->ref_ns);
		jns(w, "offset_ns", r->offset_ns);
		json_kv_double(w, "drift_ppm", round(r->drift_ppm * 1000) / 1000);
		jns(w, "fit_rms_ns", r->fit_rms_ns);
		jns(w, "fit_se_ns", r->fit_se_ns);
		json_kv_uint(w, "fit_edges", r->inliers);
		json_kv_uint(w, "fit_left_out", r->outliers);
		json_kv_uint(w, "first_seq", r->first_seq);
		json_kv_uint(w, "last_seq", r->last_seq);
		json_kv_uint(w, "covered", r->covered);
		json_kv_uint(w, "capture_first_edge_seq", c->win[r->pairs[0].run].seq);
		json_kv_uint(w, "capture_last_edge_seq", c->win[r->pairs[r->npairs - 1].run].seq);
	}
	json_object_end(w);
}

static void json_edges(struct json_writer *w, const struct cmp *c)
{
	const struct align_result *r = &c->r;
	size_t i;
	int p;

	json_kv_object_begin(w, "edges");
	json_kv_uint(w, "paired", r->npairs);
	json_kv_uint(w, "in_capture_gaps", r->in_gap);
	json_kv_uint(w, "write_failed", r->write_failed);
	json_kv_array_begin(w, "missing_in_capture");
	for (i = 0; i < r->nmissing; i++) {
		json_object_begin(w);
		json_kv_uint(w, "seq", c->win[r->missing[i]].seq);
		json_kv_uint(w, "level", c->win[r->missing[i]].level);
		json_object_end(w);
	}
	json_array_end(w);
	json_kv_array_begin(w, "extra_in_capture");
	for (i = 0; i < r->nextra; i++) {
		const struct capture_edge *ce = &c->cap[r->extra[i]];

		json_object_begin(w);
		json_kv_uint(w, "index", r->extra[i]);
		json_kv_double(w, "t_s", capture_fs_to_s(ce->t_fs));
		json_kv_uint(w, "level", ce->level);
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);

	json_kv_object_begin(w, "residual");
	jns(w, "tolerance_ns", r->tolerance_ns);
	json_kv_uint(w, "inside_window", c->inside);
	json_kv_uint(w, "beyond_tolerance", r->disagree);
	json_kv_int(w, "min_ns", c->res_m.n ? c->res_m.min : 0);
	json_kv_int(w, "max_ns", c->res_m.n ? c->res_m.max : 0);
	jns(w, "mean_ns", stats_moments_mean(&c->res_m));
	jns(w, "stddev_ns", stats_moments_stddev(&c->res_m));
	json_kv_object_begin(w, "abs");
	statsjson_dist(w, &c->res_abs);
	json_object_end(w);
	if (c->frac_m.n)
		json_kv_double(w, "mean_position_in_window", stats_moments_mean(&c->frac_m) / 1000);
	json_kv_array_begin(w, "worst");
	for (i = 0; i < c->nworst; i++) {
		const struct align_pair *pr = &r->pairs[c->worst[i]];
		const struct edge_rec *er = &c->win[pr->run];

		json_object_begin(w);
		json_kv_uint(w, "seq", er->seq);
		json_kv_uint(w, "level", er->level);
		json_kv_double(w, "capture_t_s", capture_fs_to_s(c->cap[pr->cap].t_fs));
		jns(w, "residual_ns", pr->residual_ns);
		json_kv_int(w, "window_ns", er->write_end_off_ns - er->write_begin_off_ns);
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);

	json_kv_object_begin(w, "widths");
	for (p = 0; p < EDGESTATS_NPOL; p++) {
		json_kv_object_begin(w, pol_name[p]);
		json_kv_object_begin(w, "capture");
		statsjson_dist(w, &c->cw[p]);
		json_object_end(w);
		json_log_widths(w, "log", &c->er->width[p]);
		json_kv_bool(w, "tmin_agrees", c->width_ok[p][0]);
		json_kv_bool(w, "tmax_agrees", c->width_ok[p][1]);
		json_object_end(w);
	}
	json_object_end(w);
}

static int write_json(const struct cmp *c)
{
	const char *path = c->o->json;
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : c->json_stdout;
	struct json_writer w;
	int p, mx, ret;

	if (!f) {
		pr_err("cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	json_init(&w, f);
	json_object_begin(&w);
	json_kv_string(&w, "schema", COMPARE_SCHEMA);
	json_kv_int(&w, "schema_version", COMPARE_SCHEMA_VERSION);
	json_kv_object_begin(&w, "run");
	json_kv_string(&w, "path", c->o->run);
	json_kv_uint(&w, "records", c->records);
	json_kv_bool(&w, "truncated", c->truncated);
	json_kv_uint(&w, "half_period_ns", c->meta->half_period_ns);
	json_object_end(&w);
	if (c->ci) {
		json_kv_object_begin(&w, "capture");
		json_kv_string(&w, "path", c->ci->path);
		json_kv_string(&w, "format", c->ci->format);
		json_kv_string(&w, "channel", c->ci->channel_name);
		json_kv_uint(&w, "edges", c->ncap);
		json_kv_double(&w, "resolution_ns", fs_to_ns(c->ci->resolution_fs));
		json_kv_double(&w, "start_s", capture_fs_to_s(c->ci->start_fs));
		json_kv_double(&w, "end_s", capture_fs_to_s(c->ci->end_fs));
		json_object_end(&w);
		json_alignment(&w, c);
		if (c->aligned)
			json_edges(&w, c);
	} else {
		json_kv_null(&w, "capture");
	}
	if (c->ser) {
		json_kv_object_begin(&w, "scope");
		if (c->o->scope_abs_ns >= 0)
			json_kv_int(&w, "resolution_ns", c->o->scope_abs_ns);
		else
			json_kv_double(&w, "resolution_relative", c->o->scope_rel);
		json_kv_array_begin(&w, "readings");
		for (p = 0; p < EDGESTATS_NPOL; p++)
			for (mx = 0; mx < 2; mx++) {
				const struct edgestats_widths *lw = &c->ser->width[p];

				if (!c->o->scope[p][mx].set)
					continue;
				json_object_begin(&w);
				json_kv_string(&w, "what", mx ? "tmax" : "tmin");
				json_kv_string(&w, "polarity", pol_name[p]);
				json_kv_int(&w, "scope_ns", c->o->scope[p][mx].ns);
				json_kv_int(&w, "tolerance_ns", c->scope_tol[p][mx]);
				if (lw->h.m.n) {
					json_kv_int(&w, "log_ns", mx ? lw->tmax.width_ns : lw->tmin.width_ns);
					json_kv_int(&w, "log_lo_ns", mx ? lw->tmax.lo_ns : lw->tmin_bound.lo_ns);
					json_kv_int(&w, "log_hi_ns", mx ? lw->tmax_bound.hi_ns : lw->tmin.hi_ns);
				}
				json_kv_bool(&w, "agrees", c->scope_ok[p][mx]);
				json_object_end(&w);
			}
		json_array_end(&w);
		json_object_end(&w);
	}
	json_kv_string(&w, "verdict", c->verdict);
	json_kv_int(&w, "exit_code", c->exit_code);
	json_object_end(&w);
	ret = json_finish(&w);
	if (f == c->json_stdout && fflush(f) != 0)
		ret = -1;
	if ((f != c->json_stdout && fclose(f) != 0) || ret < 0) {
		pr_err("writing %s failed: %s", strcmp(path, "-") ? path : "standard output",
		       strerror(errno));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */

static void decide(struct cmp *c)
{
	int p, mx;

	c->agree = true;
	c->exit_code = SQW_EXIT_OK;
	c->verdict = "agree";
	if (c->o->capture) {
		if (!c->aligned) {
			c->agree = false;
			if (c->w.status == ALIGN_NO_OVERLAP) {
				c->verdict = "no-overlap";
				c->exit_code = SQW_EXIT_LIMIT;
			} else {
				c->verdict = c->w.status == ALIGN_AMBIGUOUS ? "ambiguous" : "too-few-edges";
				c->exit_code = SQW_EXIT_USAGE;
			}
			return;
		}
		if (c->r.disagree || c->r.nmissing || c->r.nextra)
			c->agree = false;
		for (p = 0; p < EDGESTATS_NPOL; p++)
			if (!c->width_ok[p][0] || !c->width_ok[p][1])
				c->agree = false;
	}
	if (c->ser)
		for (p = 0; p < EDGESTATS_NPOL; p++)
			for (mx = 0; mx < 2; mx++)
				if (!c->scope_ok[p][mx])
					c->agree = false;
	if (!c->agree) {
		c->verdict = "disagree";
		c->exit_code = SQW_EXIT_LIMIT;
	}
}

static void print_verdict(const struct cmp *c)
{
	printf("\nverdict    %s", c->agree ? "AGREE" : c->exit_code == SQW_EXIT_LIMIT ? "DISAGREE" :
	       "UNDECIDED");
	if (c->aligned && !c->agree) {
		const char *sep = " (";

		if (c->r.disagree) {
			printf("%s%zu edges beyond tolerance", sep, c->r.disagree);
			sep = ", ";
		}
		if (c->r.nmissing) {
			printf("%s%zu missing in the capture", sep, c->r.nmissing);
			sep = ", ";
		}
		if (c->r.nextra) {
			printf("%s%zu extra in the capture", sep, c->r.nextra);
			sep = ", ";
		}
		if (strcmp(sep, " ("))
			printf(")");
	}
	printf("\n");
}

static void cmp_free(struct cmp *c)
{
	int p;

	for (p = 0; p < EDGESTATS_NPOL; p++)
		stats_hist_free(&c->cw[p]);
	stats_hist_free(&c->res_abs);
	edgestats_free(c->es);
	edgestats_free(c->ses);
	align_result_free(&c->r);
	free(c->worst);
	free(c->win);
	free(c->cap);
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_opts o;
	struct cmp c = { .o = &o };
	struct capture *cp = NULL;
	struct align_search *s = NULL;
	struct edgelog_reader *rr = NULL;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret > 0 ? SQW_EXIT_OK : SQW_EXIT_USAGE;
	{
		/* src/outfile.h: --json never over the run log or the capture */
		const struct outfile_arg outs[] = { { "--json", o.json, false } };
		const struct outfile_arg ins[] = { { "the run log", o.run, false },
						   { "the capture", o.capture, false } };
		char why[1024];

		if (outfile_check(outs, 1, ins, 2, true, why, sizeof(why)) < 0) {
			pr_err("%s", why);
			return SQW_EXIT_USAGE;
		}
	}
	if (o.json && !strcmp(o.json, "-")) {
		/* Standard output carries the JSON alone. The report is printed
		 * with printf() throughout this file: rather than thread a stream
		 * through every line, descriptor 1 goes to standard error for it
		 * and the JSON gets a stream on the original standard output. */
		int fd;

		fflush(stdout);
		fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		c.json_stdout = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!c.json_stdout || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
			pr_err("compare: --json -: %s", strerror(errno));
			if (c.json_stdout)
				fclose(c.json_stdout);
			else if (fd >= 0)
				close(fd);
			return SQW_EXIT_RUNTIME;
		}
	}
	if (o.capture) {
		ret = load_capture(&c, &cp);
		if (ret)
			goto out;
		c.ap.resolution_fs = c.ci->resolution_fs > 0 ? c.ci->resolution_fs : CAPTURE_FS_PER_NS;
		c.ap.max_drift_ppm = o.max_drift_ppm;
		c.ap.tolerance_ns = o.tolerance_ns;
		c.ap.first_seq = o.first_seq;
		s = align_search_new(c.cap, c.ncap, c.ci->start_fs, c.ci->end_fs, &c.ap);
		if (!s) {
			pr_err("compare: out of memory");
			ret = SQW_EXIT_RUNTIME;
			goto out;
		}
	}
	ret = pass1(&c, s, &rr);
	if (ret)
		goto out;
	printf("==== sqwave compare ====\n");
	printf("run        %s: %" PRIu64 " edges, half period %.3f us%s\n", o.run, c.records,
	       (double)c.meta->half_period_ns / 1000, c.truncated ? " (log truncated)" : "");
	if (s) {
		align_search_finish(s, &c.w);
		if (c.w.status == ALIGN_FOUND) {
			ret = pass2(&c);
			if (ret)
				goto out;
			if (align_match(c.win, c.nwin, c.cap, c.ncap, &c.w, &c.ap, &c.r) < 0) {
				pr_err("compare: out of memory");
				ret = SQW_EXIT_RUNTIME;
				goto out;
			}
			c.w.status = c.r.status;
			c.aligned = c.r.status == ALIGN_FOUND && c.r.npairs > 0;
			if (c.aligned && window_stats(&c) < 0) {
				pr_err("compare: out of memory");
				ret = SQW_EXIT_RUNTIME;
				goto out;
			}
		}
		print_capture_report(&c);
	}
	if (c.ser) {
		scope_check(&c);
		print_scope_report(&c);
	}
	decide(&c);
	print_verdict(&c);
	ret = c.exit_code;
	if (o.json && write_json(&c) < 0)
		ret = SQW_EXIT_RUNTIME;
out:
	fflush(stdout);
	if (c.json_stdout && fclose(c.json_stdout) != 0 && ret != SQW_EXIT_RUNTIME) {
		pr_err("writing standard output failed: %s", strerror(errno));
		ret = SQW_EXIT_RUNTIME;
	}
	align_search_free(s);
	if (rr)
		edgelog_reader_close(rr);
	capture_close(cp);
	cmp_free(&c);
	return ret;
}
