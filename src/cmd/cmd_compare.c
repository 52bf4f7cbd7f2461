/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave compare RUN [CAPTURE]`: options and reports; the comparison itself
 * is src/lab/compare/compare.c (alignment: src/lab/compare/align.c). */
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

#include "cmd/cmd.h"
#include "cmd/cmdline.h"
#include "compare/compare.h"
#include "cmd/cmd_compare_boards.h"
#include "cmd/cmd_compare_respond.h"
#include "log/edgelog.h"
#include "config/config.h"
#include "base/json.h"
#include "base/outfile.h"
#include "cmd/print.h"
#include "summary/statsjson.h"
#include "base/units.h"

#define COMPARE_SCHEMA "sqwave-compare"
#define COMPARE_SCHEMA_VERSION 1
#define LIST_MAX 20u                 /* missing/extra edges listed in text */

static const char *const pol_name[EDGESTATS_NPOL] = { "positive", "negative", "any" };

static void compare_usage(FILE *f)
{
	fprintf(f,
		"usage: sqwave compare RUN CAPTURE [OPTIONS]\n"
		"       sqwave compare RUN --scope-tmin 444 --scope-tmax 556 [OPTIONS]\n"
		"       sqwave compare RESPOND_LOG CAPTURE [--stimulus CH] [--response CH] [OPTIONS]\n"
		"       sqwave compare RUN_A RUN_B CAPTURE [--channel-a CH] [--channel-b CH] [OPTIONS]\n\n"
		"Line a scope or logic-analyzer capture up with a run's log (find the window\n"
		"it covers, fit offset and drift, pair every edge) and say whether they agree;\n"
		"or check Tmin/Tmax read off a scope's statistics screen against the log.\n"
		"A log of `sqwave respond` is checked against a capture of both pins: each\n"
		"answer's delay from the input edge, and the input's IRQ latency.\n"
		"Two boards' logs on one grid (run --grid realtime|tai) are checked against\n"
		"one capture of both pins: each board against its channel, then the skew\n"
		"between their edges per grid instant, the bounds both logs allow and what\n"
		"is left for the boards' clocks (docs/compare.md, Two boards).\n"
		"RUN or CAPTURE may be - (standard input; at most %zu MiB).\n\n"
		"capture:\n"
		"  --format NAME          capture format (default: detected): %s\n"
		"  --channel CH           channel name or number (default: the only one, or\n"
		"                         the first with edges)\n"
		"  --stimulus CH, --response CH   a respond log's capture: the input's and the\n"
		"                         output's channel (default: the first two channels)\n"
		"  --channel-a CH, --channel-b CH   two boards: board A's and board B's channel\n"
		"                         (default: the first two channels)\n"
		"  --max-skew DUR         two boards: the largest |skew| allowed between them\n"
		"  --skew-csv FILE        two boards: one row per joined edge (skew, bounds)\n"
		"  --threshold V, --hysteresis V, --samplerate HZ   analog / headerless captures\n"
		"  --tolerance DUR        per-edge slack beyond the write window (default: the\n"
		"                         capture's resolution)\n"
		"  --first-seq N          the capture's first edge is run edge N (skip the search;\n"
		"                         for a wave too regular to place)\n"
		"  --max-drift PPM        largest clock-rate difference searched (default 500)\n"
		"  --worst N              disagreements listed (default 10)\n"
		"scope statistics (no capture needed):\n"
		"  --scope-tmin DUR, --scope-tmax DUR            any polarity\n"
		"  --scope-pos-tmin DUR, --scope-pos-tmax DUR    positive pulses\n"
		"  --scope-neg-tmin DUR, --scope-neg-tmax DUR    negative pulses\n"
		"  --scope-resolution DUR|PCT   reading accuracy (default 0.1%%: a 4-digit display)\n"
		"output:\n"
		"  --json FILE            machine-readable result (docs/compare.md; - for stdout,\n"
		"                         the text report then goes to standard error)\n"
		"  -h, --help             this help\n\n"
		"DUR is a duration as for `run`: 444us, 0.5ms, 120ns; a bare number is in %s\n"
		"(--scope-tmin 444 is 444us, like run --tmin 414).\n"
		"exit codes: 0 agree, 1 disagree (or the capture matches no part of the run),\n"
		"            2 bad input (or the capture fits several places: ambiguous), 3 I/O error\n",
		CAPTURE_STREAM_MAX >> 20, capture_format_names(), config_table[CFG_LIMITS_TMIN].unit);
}

/* compare's own options in the config table's grammar. A scope reading is
 * a pulse-width bound, the same thing as limits.tmin: read with its row
 * (444 is 444us, like run --tmin 414). */
static const struct cfg_item opt_tolerance = CMDLINE_DURATION("tolerance", 0, 1000000000, "us");
static const struct cfg_item opt_first_seq = CMDLINE_INT("first-seq", 0, INT64_MAX, NULL);
static const struct cfg_item opt_worst = CMDLINE_INT("worst", 0, 100000, NULL);
static const struct cfg_item opt_max_skew = CMDLINE_DURATION("max-skew", 1, 1000000000, "us");

/* @s for the row @it (named @opt, NULL: the row's) into *@v; says why not. */
static int parse_opt(const struct cfg_item *it, const char *opt, const char *s, int64_t *v)
{
	char err[256];

	if (cmdline_value(it, opt, s, v, err, sizeof(err)) == CFG_OK)
		return 0;
	pr_err("compare: %s", err);
	return -1;
}

static int parse_double(const char *opt, const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*v)) {
		pr_err("compare: --%s '%s': expected a number", opt, s);
		return -1;
	}
	return 0;
}

enum {
	O_FORMAT = 256, O_CHANNEL, O_TOL, O_FIRST, O_DRIFT, O_WORST, O_JSON, O_SRES, O_THR,
	O_HYST, O_RATE, O_STIM, O_RESP, O_CHAN_A, O_CHAN_B, O_MAX_SKEW, O_SKEW_CSV,
	O_SCOPE /* + polarity * 2 + (tmax) */
};

static const struct option compare_cmd_opts[] = {
	{ "format", required_argument, NULL, O_FORMAT },
	{ "channel", required_argument, NULL, O_CHANNEL },
	{ "tolerance", required_argument, NULL, O_TOL },
	{ "first-seq", required_argument, NULL, O_FIRST },
	{ "max-drift", required_argument, NULL, O_DRIFT },
	{ "worst", required_argument, NULL, O_WORST },
	{ "json", required_argument, NULL, O_JSON },
	{ "scope-resolution", required_argument, NULL, O_SRES },
	{ "threshold", required_argument, NULL, O_THR },
	{ "hysteresis", required_argument, NULL, O_HYST },
	{ "samplerate", required_argument, NULL, O_RATE },
	{ "stimulus", required_argument, NULL, O_STIM },
	{ "response", required_argument, NULL, O_RESP },
	{ "channel-a", required_argument, NULL, O_CHAN_A },
	{ "channel-b", required_argument, NULL, O_CHAN_B },
	{ "max-skew", required_argument, NULL, O_MAX_SKEW },
	{ "skew-csv", required_argument, NULL, O_SKEW_CSV },
	{ "scope-pos-tmin", required_argument, NULL, O_SCOPE + 0 },
	{ "scope-pos-tmax", required_argument, NULL, O_SCOPE + 1 },
	{ "scope-neg-tmin", required_argument, NULL, O_SCOPE + 2 },
	{ "scope-neg-tmax", required_argument, NULL, O_SCOPE + 3 },
	{ "scope-tmin", required_argument, NULL, O_SCOPE + 4 },
	{ "scope-tmax", required_argument, NULL, O_SCOPE + 5 },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* The options, for the man page and the completion (main.c). */
size_t cmd_compare_options(struct option *out, size_t max)
{
	return cmdline_options_copy(out, max, compare_cmd_opts);
}

void cmd_compare_help(FILE *f)
{
	compare_usage(f);
}

/* The operands after the options (RUN [RUN_B] CAPTURE) into @o and @bo,
 * and the combinations no comparison can make sense of: 0, or -1 with
 * the message printed. */
static int check_operands(int argc, char **argv, struct compare_opts *o, const char *chan[2],
			  struct compare_boards_opts *bo)
{
	int i;

	/* readings no scope shows: a Tmin above the Tmax of the same polarity
	 * (swapped?) is bad input, not a disagreement with the log */
	for (i = 0; i < 3; i++) {
		static const char *const pol[] = { "pos-", "neg-", "" };

		if (o->scope[i][0].set && o->scope[i][1].set &&
		    o->scope[i][0].ns > o->scope[i][1].ns) {
			pr_err("compare: --scope-%stmin %" PRId64 " ns is above --scope-%stmax %" PRId64
			       " ns: a scope shows no such pulses (swapped?)", pol[i],
			       o->scope[i][0].ns, pol[i], o->scope[i][1].ns);
			return -1;
		}
	}
	if (o->copts.channel && !o->copts.channel[0]) {
		pr_err("compare: --channel: an empty name (give a channel name or number)");
		return -1;
	}
	if (optind < argc)
		o->run = argv[optind++];
	if (optind < argc)
		o->capture = argv[optind++];
	if (optind < argc && o->capture) {
		/* RUN_A RUN_B CAPTURE: two boards */
		bo->run_b = o->capture;
		o->capture = argv[optind++];
	}
	if ((bo->channel[0] || bo->channel[1] || bo->max_skew_ns || bo->skew_csv) && !bo->run_b) {
		pr_err("compare: --channel-a, --channel-b, --max-skew and --skew-csv are for two "
		       "boards: sqwave compare RUN_A RUN_B CAPTURE");
		return -1;
	}
	if (bo->run_b && (o->copts.channel || o->have_scope || chan[0] || chan[1] ||
			  o->first_seq >= 0)) {
		pr_err("compare: two boards: give their channels with --channel-a and --channel-b "
		       "(not --channel, --stimulus, --response, --first-seq or scope readings)");
		return -1;
	}
	if (!o->run || optind < argc || (!o->capture && !o->have_scope)) {
		if (!o->run)
			pr_err("compare: no run log given");
		else if (optind < argc)
			cmdline_unexpected("compare", argv[optind]);
		else
			pr_err("compare: give a CAPTURE file, or scope readings (--scope-tmin ...)");
		compare_usage(stderr);
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct compare_opts *o, const char **json,
		      const char *chan[2], struct compare_boards_opts *bo)
{
	struct cmdline cl = { "compare", compare_cmd_opts, "h", compare_usage, false };
	int ch, idx;
	char *end, err[512];
	int64_t v;

	compare_opts_init(o);
	*json = NULL;
	while ((ch = cmdline_next(&cl, argc, argv, &idx)) >= 0) {
		switch (ch) {
		case O_FORMAT:
			o->copts.format = optarg;
			break;
		case O_CHANNEL:
			o->copts.channel = optarg;
			break;
		case O_STIM:
		case O_RESP:
			if (!optarg[0]) {
				pr_err("compare: --%s: an empty name (give a channel name or number)",
				       ch == O_STIM ? "stimulus" : "response");
				return -1;
			}
			chan[ch == O_RESP] = optarg;
			break;
		case O_TOL:
			if (parse_opt(&opt_tolerance, NULL, optarg, &o->tolerance_ns))
				return -1;
			break;
		case O_THR:
			if (parse_double("threshold", optarg, &o->copts.threshold))
				return -1;
			o->copts.threshold_set = 1;
			break;
		case O_HYST:
			if (parse_double("hysteresis", optarg, &o->copts.hysteresis) ||
			    o->copts.hysteresis < 0) {
				pr_err("compare: --hysteresis: a band width in V, 0 or more");
				return -1;
			}
			break;
		case O_RATE:
			if (capture_samplerate_parse("compare: --samplerate", optarg,
						     &o->copts.samplerate_hz, err, sizeof(err))) {
				pr_err("%s", err);
				return -1;
			}
			break;
		case O_FIRST:
			if (parse_opt(&opt_first_seq, NULL, optarg, &o->first_seq))
				return -1;
			break;
		case O_DRIFT:
			o->max_drift_ppm = strtod(optarg, &end);
			if (end == optarg || *end || !(o->max_drift_ppm > 0 && o->max_drift_ppm <= 10000)) {
				pr_err("compare: --max-drift '%s': expected ppm in (0, 10000]", optarg);
				return -1;
			}
			break;
		case O_WORST:
			if (parse_opt(&opt_worst, NULL, optarg, &v))
				return -1;
			o->worst = (unsigned)v;
			break;
		case O_JSON:
			*json = optarg;
			break;
		case O_CHAN_A:
		case O_CHAN_B:
			if (!optarg[0]) {
				pr_err("compare: --%s: an empty name (give a channel name or number)",
				       compare_cmd_opts[idx].name);
				return -1;
			}
			bo->channel[ch == O_CHAN_B] = optarg;
			break;
		case O_MAX_SKEW:
			if (parse_opt(&opt_max_skew, NULL, optarg, &bo->max_skew_ns))
				return -1;
			break;
		case O_SKEW_CSV:
			bo->skew_csv = optarg;
			break;
		case O_SRES: {
			size_t len = strlen(optarg);

			if (len && optarg[len - 1] == '%') {
				o->scope_rel = strtod(optarg, &end) / 100;
				if (end == optarg || *end != '%' || !(o->scope_rel >= 0 && o->scope_rel < 1)) {
					pr_err("compare: --scope-resolution '%s': expected 0.1%% or a duration",
					       optarg);
					return -1;
				}
				o->scope_abs_ns = -1;
			} else if (parse_opt(&opt_tolerance, "scope-resolution", optarg,
					     &o->scope_abs_ns)) {
				return -1;
			}
			break;
		}
		default:
			if (ch >= O_SCOPE && ch < O_SCOPE + 6) {
				int pol = (ch - O_SCOPE) / 2, mx = (ch - O_SCOPE) % 2;
				struct compare_reading *sr = &o->scope[pol][mx];

				if (parse_opt(&config_table[CFG_LIMITS_TMIN], compare_cmd_opts[idx].name, optarg,
					      &sr->ns))
					return -1;
				sr->set = true;
				o->have_scope = true;
				break;
			}
			return -1;	/* getopt returns only the table's values */
		}
	}
	if (ch != CMDLINE_END)
		return ch == CMDLINE_HELP ? 1 : -1;
	return check_operands(argc, argv, o, chan, bo);
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

static void print_widths(const struct compare *c)
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

/* A loopback log: the third view, the kernel's event of each edge, against
 * the capture (docs/compare.md, docs/loopback.md). */
static void print_kernel(const struct compare *c)
{
	const struct stats_hist *h = &c->cap_minus_kernel;
	char a[32], b[32], d[32], e[32];

	if (!c->have_kernel)
		return;
	printf("\nkernel     the loopback input's events: capture edge (on the log clock) - the "
	       "kernel's event\n");
	if (!h->m.n) {
		printf("           no paired edge has an event\n");
		return;
	}
	us(a, sizeof(a), (double)h->m.min);
	us(b, sizeof(b), (double)stats_hist_percentile(h, 50));
	us(d, sizeof(d), (double)stats_hist_percentile(h, 99));
	us(e, sizeof(e), (double)h->m.max);
	printf("           %" PRIu64 " of %zu paired edges seen by the kernel; us: min %s  p50 %s  "
	       "p99 %s  max %s\n", h->m.n, c->r.npairs, a, b, d, e);
	printf("           (negative: the scope saw the edge before the kernel stamped it, by the "
	       "input path's delay)\n");
	if (c->r.nmissing)
		printf("           of the %zu edges missing in the capture, the kernel saw %zu\n",
		       c->r.nmissing, c->kernel_missing_seen);
}

static void print_capture_report(const struct compare *c)
{
	const struct align_result *r = &c->r;
	const struct capture_info *ci = c->ci;
	char a[32], b[32], d[32], e[32];
	size_t i, k;
	int n;

	printf("capture    %s (%s, channel %s: %s)\n", ci->path, ci->format, ci->channel_name,
	       ci->channel_reason);
	printf("           %zu edges, resolution %.3f ns, span %.9f .. %.9f s\n", c->ncap,
	       capture_ps_to_ns(ci->resolution_ps), capture_ps_to_s(ci->start_ps), capture_ps_to_s(ci->end_ps));
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
	       c->ncap - 1, compare_first_paired_seq(c), compare_last_paired_seq(c));
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
	for (n = 0; n < STATS_NPCT; n++) {
		us(a, sizeof(a), (double)stats_hist_percentile(&c->res_abs, stats_pct[n]));
		printf(" %s %s", stats_pct_name[n], a);
	}
	printf("\n");
	if (c->frac_m.n)
		printf("           the line changes on average %.0f %% into the write window "
		       "(min %.0f %%, max %.0f %%)\n", stats_moments_mean(&c->frac_m) / 10,
		       (double)c->frac_m.min / 10, (double)c->frac_m.max / 10);

	print_widths(c);
	print_kernel(c);

	if (c->nworst) {
		printf("\nworst disagreements (capture time in the capture's time base)\n");
		printf("    %12s %5s %18s %14s %14s\n", "seq", "level", "capture t (s)",
		       "residual us", "window us");
		for (i = 0; i < c->nworst; i++) {
			const struct compare_worst *w = &c->worst[i];

			printf("    %12" PRIu64 " %5u %18.9f %14.3f %14.3f\n", w->seq, w->level,
			       capture_ps_to_s(w->cap_t_ps), w->residual_ns / 1000,
			       (double)w->window_ns / 1000);
		}
	}
	if (r->nmissing) {
		uint64_t seq;
		uint8_t lvl;
		double t;

		printf("\nin the log, not in the capture (%zu):", r->nmissing);
		for (i = 0, k = compare_missing_next(c, 0, &seq, &lvl, &t); k != SIZE_MAX && i < LIST_MAX;
		     i++, k = compare_missing_next(c, k + 1, &seq, &lvl, &t))
			printf("%s seq %" PRIu64 " (level %u, capture t %.9f s)", i ? "," : "", seq, lvl, t);
		printf("%s\n", r->nmissing > LIST_MAX ? ", ..." : "");
	}
	if (r->nextra) {
		int64_t t;
		uint8_t lvl;

		printf("\nin the capture, not in the log (%zu):", r->nextra);
		for (i = 0, k = compare_extra_next(c, 0, &t, &lvl); k != SIZE_MAX && i < LIST_MAX;
		     i++, k = compare_extra_next(c, k + 1, &t, &lvl))
			printf("%s %s at %.9f s", i ? "," : "", lvl ? "rise" : "fall", capture_ps_to_s(t));
		printf("%s\n", r->nextra > LIST_MAX ? ", ..." : "");
	}
}

static void print_scope_report(const struct compare *c)
{
	int p, mx;

	printf("\nscope      readings against the log's prediction for the whole run (%" PRIu64
	       " edges, warm-up excluded), us\n", c->ser->edges);
	printf("    %-16s %12s %24s %12s %10s\n", "", "log", "log bounds", "scope", "+-");
	for (p = 0; p < EDGESTATS_NPOL; p++)
		for (mx = 0; mx < 2; mx++) {
			const struct compare_reading *sr = &c->o->scope[p][mx];
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

int cmd_compare_verdict_exit(enum compare_verdict v)
{
	switch (v) {
	case COMPARE_AGREE: return SQW_EXIT_OK;
	case COMPARE_DISAGREE: case COMPARE_NO_OVERLAP: return SQW_EXIT_LIMIT;
	case COMPARE_AMBIGUOUS: case COMPARE_TOO_FEW: return SQW_EXIT_USAGE;
	}
	return SQW_EXIT_USAGE;
}

static void print_verdict(const struct compare *c)
{
	const char *word = c->verdict == COMPARE_AGREE ? "AGREE"
			   : cmd_compare_verdict_exit(c->verdict) == SQW_EXIT_LIMIT ? "DISAGREE" : "UNDECIDED";

	printf("\nverdict    %s", word);
	if (c->aligned && c->verdict != COMPARE_AGREE) {
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

static void json_alignment(struct json_writer *w, const struct compare *c)
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
		json_kv_uint(w, "capture_first_edge_seq", compare_first_paired_seq(c));
		json_kv_uint(w, "capture_last_edge_seq", compare_last_paired_seq(c));
	}
	json_object_end(w);
}

static void json_edges(struct json_writer *w, const struct compare *c)
{
	const struct align_result *r = &c->r;
	size_t i, k;
	int p;

	json_kv_object_begin(w, "edges");
	json_kv_uint(w, "paired", r->npairs);
	json_kv_uint(w, "in_capture_gaps", r->in_gap);
	json_kv_uint(w, "write_failed", r->write_failed);
	json_kv_array_begin(w, "missing_in_capture");
	{
		uint64_t seq;
		uint8_t lvl;
		double t;

		for (k = compare_missing_next(c, 0, &seq, &lvl, &t); k != SIZE_MAX;
		     k = compare_missing_next(c, k + 1, &seq, &lvl, &t)) {
			json_object_begin(w);
			json_kv_uint(w, "seq", seq);
			json_kv_uint(w, "level", lvl);
			if (c->have_kernel) {	/* the third view: did the kernel see it? */
				int64_t kev;

				if (compare_kernel_at(c, k, &kev))
					json_kv_int(w, "kernel_event_ns", kev);
				else
					json_kv_null(w, "kernel_event_ns");
			}
			json_object_end(w);
		}
	}
	json_array_end(w);
	json_kv_array_begin(w, "extra_in_capture");
	{
		int64_t t;
		uint8_t lvl;

		for (k = compare_extra_next(c, 0, &t, &lvl); k != SIZE_MAX;
		     k = compare_extra_next(c, k + 1, &t, &lvl)) {
			json_object_begin(w);
			json_kv_uint(w, "index", k);
			json_kv_double(w, "t_s", capture_ps_to_s(t));
			json_kv_uint(w, "level", lvl);
			json_object_end(w);
		}
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
		const struct compare_worst *x = &c->worst[i];

		json_object_begin(w);
		json_kv_uint(w, "seq", x->seq);
		json_kv_uint(w, "level", x->level);
		json_kv_double(w, "capture_t_s", capture_ps_to_s(x->cap_t_ps));
		jns(w, "residual_ns", x->residual_ns);
		json_kv_int(w, "window_ns", x->window_ns);
		if (c->have_kernel) {
			if (x->has_kernel)
				jns(w, "capture_minus_kernel_ns", x->cap_minus_kernel_ns);
			else
				json_kv_null(w, "capture_minus_kernel_ns");
		}
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);

	/* the third view (a loopback log): capture minus the kernel's event */
	if (c->have_kernel) {
		json_kv_object_begin(w, "kernel");
		json_kv_uint(w, "paired_with_event", c->cap_minus_kernel.m.n);
		json_kv_uint(w, "missing_in_capture_seen", c->kernel_missing_seen);
		json_kv_object_begin(w, "capture_minus_kernel");
		statsjson_dist(w, &c->cap_minus_kernel);
		json_object_end(w);
		json_object_end(w);
	} else {
		json_kv_null(w, "kernel");
	}

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

static void compare_doc(struct json_writer *w, const void *ctx)
{
	const struct compare *c = ctx;
	int p, mx;

	json_object_begin(w);
	json_kv_string(w, "schema", COMPARE_SCHEMA);
	json_kv_int(w, "schema_version", COMPARE_SCHEMA_VERSION);
	json_kv_object_begin(w, "run");
	json_kv_string(w, "path", c->o->run);
	json_kv_uint(w, "records", c->records);
	json_kv_bool(w, "truncated", c->truncated);
	json_kv_uint(w, "half_period_ns", c->meta->half_period_ns);
	json_object_end(w);
	json_key(w, "pin");
	pin_json_write(w, &c->meta->pin);
	if (c->ci) {
		json_kv_object_begin(w, "capture");
		json_kv_string(w, "path", c->ci->path);
		json_kv_string(w, "format", c->ci->format);
		json_kv_string(w, "channel", c->ci->channel_name);
		json_kv_uint(w, "edges", c->ncap);
		json_kv_double(w, "resolution_ns", capture_ps_to_ns(c->ci->resolution_ps));
		json_kv_double(w, "start_s", capture_ps_to_s(c->ci->start_ps));
		json_kv_double(w, "end_s", capture_ps_to_s(c->ci->end_ps));
		json_object_end(w);
		json_alignment(w, c);
		if (c->aligned)
			json_edges(w, c);
	} else {
		json_kv_null(w, "capture");
	}
	if (c->ser) {
		json_kv_object_begin(w, "scope");
		if (c->o->scope_abs_ns >= 0)
			json_kv_int(w, "resolution_ns", c->o->scope_abs_ns);
		else
			json_kv_double(w, "resolution_relative", c->o->scope_rel);
		json_kv_array_begin(w, "readings");
		for (p = 0; p < EDGESTATS_NPOL; p++)
			for (mx = 0; mx < 2; mx++) {
				const struct edgestats_widths *lw = &c->ser->width[p];

				if (!c->o->scope[p][mx].set)
					continue;
				json_object_begin(w);
				json_kv_string(w, "what", mx ? "tmax" : "tmin");
				json_kv_string(w, "polarity", pol_name[p]);
				json_kv_int(w, "scope_ns", c->o->scope[p][mx].ns);
				json_kv_int(w, "tolerance_ns", c->scope_tol[p][mx]);
				if (lw->h.m.n) {
					json_kv_int(w, "log_ns", mx ? lw->tmax.width_ns : lw->tmin.width_ns);
					json_kv_int(w, "log_lo_ns", mx ? lw->tmax.lo_ns : lw->tmin_bound.lo_ns);
					json_kv_int(w, "log_hi_ns", mx ? lw->tmax_bound.hi_ns : lw->tmin.hi_ns);
				}
				json_kv_bool(w, "agrees", c->scope_ok[p][mx]);
				json_object_end(w);
			}
		json_array_end(w);
		json_object_end(w);
	}
	json_kv_string(w, "verdict", compare_verdict_name(c->verdict));
	json_kv_int(w, "exit_code", cmd_compare_verdict_exit(c->verdict));
	json_object_end(w);
}

/* @json_stdout: the original standard output, for --json - (the text report
 * went to standard error) */
int cmd_compare_write_json(const char *path, FILE *json_stdout, json_document_fn fn,
			   const void *ctx)
{
	char err[512];

	if (!strcmp(path, "-")) {
		struct json_writer w;
		int ret;

		json_init(&w, json_stdout);
		fn(&w, ctx);
		ret = json_finish(&w);
		if (fflush(json_stdout) != 0 || ret < 0) {
			pr_err("writing standard output failed: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if (json_write_document(path, fn, ctx, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */

/* Whether @path is a respond log: its header says run.mode=respond. A
 * stream is read once, by whichever comparison gets it: it is taken for a
 * wave's (docs/compare.md). Anything that does not open is left for the
 * comparison to report. */
static bool log_is_respond(const char *path)
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

/* A respond log: the options that mean nothing for it are refused. */
static int compare_respond(const struct compare_opts *o, const char *chan[2], const char *json,
			   FILE *json_stdout)
{
	struct respcmp_opts ro = {
		.run = o->run, .capture = o->capture, .copts = o->copts,
		.stimulus = chan[0], .response = chan[1], .tolerance_ns = o->tolerance_ns,
		.first_seq = o->first_seq, .max_drift_ppm = o->max_drift_ppm,
	};

	if (o->have_scope || !o->capture) {
		pr_err("compare: %s is a respond log: give a CAPTURE of both pins (scope width "
		       "readings are for a wave's log)", o->run);
		return SQW_EXIT_USAGE;
	}
	if (o->copts.channel) {
		pr_err("compare: %s is a respond log: its capture has two channels, "
		       "--stimulus CH and --response CH (not --channel)", o->run);
		return SQW_EXIT_USAGE;
	}
	return cmd_compare_respond(&ro, o->worst, json, json_stdout);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	struct compare_boards_opts bo = { .o = &o };
	struct compare *c = NULL;
	const char *json, *chan[2] = { NULL, NULL };
	FILE *json_stdout = NULL;
	bool respond;
	enum compare_status st;
	char err[1024];
	int ret;

	ret = parse_args(argc, argv, &o, &json, chan, &bo);
	if (ret)
		return ret > 0 ? SQW_EXIT_OK : SQW_EXIT_USAGE;
	{
		/* src/board/base/outfile.h: --json never over the run log or the capture */
		const struct outfile_arg outs[] = { { "--json", json, false },
						    { "--skew-csv", bo.skew_csv, false } };
		const struct outfile_arg ins[] = { { "the run log", o.run, false },
						   { "the capture", o.capture, false },
						   { "board B's log", bo.run_b, false } };
		char why[1024];

		if (outfile_check(outs, 2, ins, 3, true, why, sizeof(why)) < 0) {
			pr_err("%s", why);
			return SQW_EXIT_USAGE;
		}
	}
	if (json && !strcmp(json, "-")) {
		/* Standard output carries the JSON alone. The report is printed
		 * with printf() throughout this file: rather than thread a stream
		 * through every line, descriptor 1 goes to standard error for it
		 * and the JSON gets a stream on the original standard output. */
		int fd;

		fflush(stdout);
		fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		json_stdout = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!json_stdout || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
			pr_err("compare: --json -: %s", strerror(errno));
			if (json_stdout)
				fclose(json_stdout);
			else if (fd >= 0)
				close(fd);
			return SQW_EXIT_RUNTIME;
		}
	}
	if (bo.run_b) {
		bo.json = json;
		bo.json_stdout = json_stdout;
		ret = cmd_compare_boards(&bo);
		if (json_stdout && fclose(json_stdout) != 0 && ret != SQW_EXIT_RUNTIME) {
			pr_err("writing standard output failed: %s", strerror(errno));
			ret = SQW_EXIT_RUNTIME;
		}
		return ret;
	}
	respond = log_is_respond(o.run);
	if (respond || chan[0] || chan[1]) {
		ret = respond ? compare_respond(&o, chan, json, json_stdout) : SQW_EXIT_USAGE;
		if (!respond)
			pr_err("compare: --stimulus and --response are for a log of `sqwave respond`; "
			       "%s is a wave's (use --channel)", o.run);
		if (json_stdout)
			fclose(json_stdout);
		return ret;
	}
	st = compare_run(&o, &c, err, sizeof(err));
	if (st != COMPARE_OK) {
		pr_err("%s", err);
		if (json_stdout)
			fclose(json_stdout);
		return st == COMPARE_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
	}
	if (c->truncated)
		pr_warn("%s: log is truncated (the run was cut short): using its %" PRIu64
			" complete records", o.run, c->records);
	printf("==== sqwave compare ====\n");
	printf("run        %s: %" PRIu64 " edges, %s%s\n", o.run, c->records,
	       pin_describe(&c->meta->pin, (char[160]){ 0 }, 160),
	       c->truncated ? " (log truncated)" : "");
	if (o.capture)
		print_capture_report(c);
	if (c->ser)
		print_scope_report(c);
	print_verdict(c);
	ret = cmd_compare_verdict_exit(c->verdict);
	if (json && cmd_compare_write_json(json, json_stdout, compare_doc, c) < 0)
		ret = SQW_EXIT_RUNTIME;
	fflush(stdout);
	if (json_stdout && fclose(json_stdout) != 0 && ret != SQW_EXIT_RUNTIME) {
		pr_err("writing standard output failed: %s", strerror(errno));
		ret = SQW_EXIT_RUNTIME;
	}
	compare_free(c);
	return ret;
}
