/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave compare`: options in; then one of the three comparisons (a wave's
 * log, a respond log, two boards: src/lab/compare/) and its documents
 * (comparedoc, respdoc, boardsdoc); messages and the exit code out. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "summary/kcidb.h"
#include "base/outfile.h"
#include "cmd/cmd_compare.h"
#include "cmd/cmdline.h"
#include "cmd/print.h"
#include "compare/boardsdoc.h"
#include "compare/comparecheck.h"
#include "compare/comparedoc.h"
#include "compare/respdoc.h"
#include "config/config.h"
#include "instrument/scopedialect.h"

static void compare_usage(FILE *f)
{
	fprintf(f,
		"usage: sqwave compare RUN CAPTURE [OPTIONS]\n"
		"       sqwave compare RUN --scope-tmin 444 --scope-tmax 556 [--scope-count N] [OPTIONS]\n"
		"       sqwave compare RUN --scope HOST[:PORT]|/dev/usbtmcN [--channel CH] [OPTIONS]\n"
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
		"                         the first with edges); with --scope, the scope's\n"
		"                         analog channel (default 1)\n"
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
		"  --min-coverage PCT     the share of the run's edges the capture must cover\n"
		"                         (its covered time, less its gaps): below, exit 1 even\n"
		"                         when every edge it saw agrees (default: stated only)\n"
		"scope statistics (no capture needed):\n"
		"  --scope-tmin DUR, --scope-tmax DUR            any polarity\n"
		"  --scope-pos-tmin DUR, --scope-pos-tmax DUR    positive pulses\n"
		"  --scope-neg-tmin DUR, --scope-neg-tmax DUR    negative pulses\n"
		"  --scope-count N, --scope-pos-count N, --scope-neg-count N   the pulses the\n"
		"                         statistics counted: the reading is judged against what a\n"
		"                         scope that measured N of the run's pulses shows (an\n"
		"                         interval per reading; 10 %% false DISAGREE for all)\n"
		"  --scope TARGET         read min, max and count of +width and -width from a\n"
		"                         scope set up with `sqwave scope --setup` (or by hand the\n"
		"                         same way) on --channel CH (default 1): HOST[:PORT]\n"
		"                         (LXI raw socket, port 5025) or /dev/usbtmcN\n"
		"  --scope-resolution DUR|PCT   reading accuracy (default 0.1%%: a 4-digit display)\n"
		"output:\n"
		"  --json FILE            machine-readable result (docs/compare.md; - for stdout,\n"
		"                         the text report then goes to standard error)\n"
		"  --junit FILE           the checks as JUnit XML: the capture's edges and\n"
		"                         coverage, each scope reading with its interval and\n"
		"                         the scope's coverage (docs/ci.md; - for stdout)\n"
		"  --results FILE         the same checks as LAVA result.txt lines (docs/ci.md)\n"
		"  --kcidb FILE           the verdict as a KCIDB v5 test, sqwave.lineNAME.compare\n"
		"                         (docs/ci.md; a wave's log only; - for stdout)\n"
		"  --kcidb-origin ORIGIN  its KCIDB origin ([a-z0-9_]+; default sqwave)\n"
		"  --kcidb-url URL        base URL of the log and capture (default: file://)\n"
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
static const struct cfg_item opt_count = CMDLINE_INT("scope-count", 0, INT64_MAX, NULL);

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
	O_HYST, O_RATE, O_STIM, O_RESP, O_CHAN_A, O_CHAN_B, O_MAX_SKEW, O_SKEW_CSV, O_KCIDB,
	O_KCIDB_ORIGIN, O_KCIDB_URL, O_SCOPE_AT, O_JUNIT, O_RESULTS, O_MIN_COV,
	O_COUNT /* + polarity */, O_SCOPE = O_COUNT + 3 /* + polarity * 2 + (tmax) */
};

static const struct option compare_cmd_opts[] = {
	{ "format", required_argument, NULL, O_FORMAT },
	{ "channel", required_argument, NULL, O_CHANNEL },
	{ "tolerance", required_argument, NULL, O_TOL },
	{ "first-seq", required_argument, NULL, O_FIRST },
	{ "max-drift", required_argument, NULL, O_DRIFT },
	{ "worst", required_argument, NULL, O_WORST },
	{ "json", required_argument, NULL, O_JSON },
	{ "min-coverage", required_argument, NULL, O_MIN_COV },
	{ "junit", required_argument, NULL, O_JUNIT },
	{ "results", required_argument, NULL, O_RESULTS },
	{ "kcidb", required_argument, NULL, O_KCIDB },
	{ "kcidb-origin", required_argument, NULL, O_KCIDB_ORIGIN },
	{ "kcidb-url", required_argument, NULL, O_KCIDB_URL },
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
	{ "scope-pos-count", required_argument, NULL, O_COUNT + 0 },
	{ "scope-neg-count", required_argument, NULL, O_COUNT + 1 },
	{ "scope-count", required_argument, NULL, O_COUNT + 2 },
	{ "scope", required_argument, NULL, O_SCOPE_AT },
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

/* The command line: a comparison's options and where its documents go. */
struct args {
	struct compare_opts o;
	struct boardsdoc_opts bo;      /* two boards: RUN_B and their options */
	const char *chan[2];           /* a respond log's: --stimulus, --response */
	const char *json;              /* --json FILE, or - */
	const char *junit;             /* --junit FILE, or - (a wave's log only) */
	const char *results;           /* --results FILE, or - (a wave's log only) */
	const char *kcidb;             /* --kcidb FILE, or - (a wave's log only) */
	const char *kcidb_origin;      /* --kcidb-origin, default "sqwave" */
	const char *kcidb_url;         /* --kcidb-url, default "" (file://) */
	const char *skew_csv;          /* two boards: --skew-csv FILE */
	const char *scope_at;          /* --scope TARGET: read the scope live */
	bool count_given;              /* a --scope-*count */
	int scope_channel;             /* --scope: the scope's channel */
};

/* What the options say together, and the files: RUN [CAPTURE], or RUN_A
 * RUN_B CAPTURE. 0, or -1 (said). */
static int check_args(struct args *a, int argc, char **argv)
{
	struct compare_opts *o = &a->o;
	int idx;

	/* readings no scope shows: a Tmin above the Tmax of the same polarity
	 * (swapped?) is bad input, not a disagreement with the log */
	for (idx = 0; idx < 3; idx++) {
		static const char *const pol[] = { "pos-", "neg-", "" };

		if (o->scope[idx][0].set && o->scope[idx][1].set &&
		    o->scope[idx][0].ns > o->scope[idx][1].ns) {
			pr_err("compare: --scope-%stmin %" PRId64 " ns is above --scope-%stmax %" PRId64
			       " ns: a scope shows no such pulses (swapped?)", pol[idx],
			       o->scope[idx][0].ns, pol[idx], o->scope[idx][1].ns);
			return -1;
		}
	}
	if (a->scope_at && o->have_scope) {
		pr_err("compare: --scope reads the scope's statistics: give them by hand "
		       "(--scope-tmin ...) or read them (--scope), not both");
		return -1;
	}
	if (a->count_given && !o->have_scope) {
		pr_err("compare: --scope-count is the count of scope readings: give them too "
		       "(--scope-tmax ...)");
		return -1;
	}
	if (a->scope_at) {
		a->scope_channel = o->copts.channel ? scopedialect_channel_parse(o->copts.channel) : 1;
		if (a->scope_channel < 0) {
			pr_err("compare: --channel '%s': the scope's analog channel, 1 to 8 (or CH1, "
			       "C1, CHAN1)", o->copts.channel);
			return -1;
		}
		o->copts.channel = NULL;
		o->have_scope = true;	/* readings to come */
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
		a->bo.run_b = o->capture;
		o->capture = argv[optind++];
	}
	if ((a->bo.channel[0] || a->bo.channel[1] || a->bo.max_skew_ns || a->skew_csv) &&
	    !a->bo.run_b) {
		pr_err("compare: --channel-a, --channel-b, --max-skew and --skew-csv are for two "
		       "boards: sqwave compare RUN_A RUN_B CAPTURE");
		return -1;
	}
	if (a->bo.run_b && (o->copts.channel || o->have_scope || a->chan[0] || a->chan[1] ||
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

/* 0, 1 for --help, or -1 (said) */
/* An output option: where a document goes. 0, or -1 (said). */
static int parse_output(struct args *a, int ch, const char *arg)
{
	switch (ch) {
	case O_JSON:
		a->json = arg;
		break;
	case O_KCIDB:
		a->kcidb = arg;
		break;
	case O_JUNIT:
		a->junit = arg;
		break;
	case O_RESULTS:
		a->results = arg;
		break;
	case O_KCIDB_ORIGIN:
		if (!kcidb_origin_ok(arg)) {
			pr_err("compare: --kcidb-origin '%s': a KCIDB origin is [a-z0-9_]+", arg);
			return -1;
		}
		a->kcidb_origin = arg;
		break;
	default:	/* O_KCIDB_URL */
		a->kcidb_url = arg;
		break;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	struct cmdline cl = { "compare", compare_cmd_opts, "h", compare_usage, false };
	struct compare_opts *o = &a->o;
	int ch, idx;
	char *end, err[512];
	int64_t v;

	memset(a, 0, sizeof(*a));
	a->kcidb_origin = "sqwave";
	a->kcidb_url = "";
	compare_opts_init(o);
	a->bo.o = o;
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
			a->chan[ch == O_RESP] = optarg;
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
		case O_MIN_COV:
			if (parse_double("min-coverage", optarg, &o->min_coverage))
				return -1;
			if (!(o->min_coverage > 0 && o->min_coverage <= 100)) {
				pr_err("compare: --min-coverage '%s': a percent above 0, at most 100",
				       optarg);
				return -1;
			}
			o->min_coverage /= 100;
			break;
		case O_WORST:
			if (parse_opt(&opt_worst, NULL, optarg, &v))
				return -1;
			o->worst = (unsigned)v;
			break;
		case O_JSON:
		case O_KCIDB:
		case O_JUNIT:
		case O_RESULTS:
		case O_KCIDB_ORIGIN:
		case O_KCIDB_URL:
			if (parse_output(a, ch, optarg))
				return -1;
			break;
		case O_CHAN_A:
		case O_CHAN_B:
			if (!optarg[0]) {
				pr_err("compare: --%s: an empty name (give a channel name or number)",
				       compare_cmd_opts[idx].name);
				return -1;
			}
			a->bo.channel[ch == O_CHAN_B] = optarg;
			break;
		case O_MAX_SKEW:
			if (parse_opt(&opt_max_skew, NULL, optarg, &a->bo.max_skew_ns))
				return -1;
			break;
		case O_SKEW_CSV:
			a->skew_csv = optarg;
			break;
		case O_SCOPE_AT:
			a->scope_at = optarg;
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
			if (ch >= O_COUNT && ch < O_COUNT + 3) {
				if (parse_opt(&opt_count, compare_cmd_opts[idx].name, optarg,
					      &o->scope_count[ch - O_COUNT]))
					return -1;
				a->count_given = true;
				break;
			}
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
	return check_args(a, argc, argv);
}

/* A comparison's status as the exit code. */
static int status_exit(enum compare_status st)
{
	return st == COMPARE_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
}

/* --json: @fn's document of @doc; said, and -1, on failure. */
static int write_json(const char *path, json_document_fn fn, const void *doc)
{
	char err[1024];

	if (json_write_document(path, fn, doc, err, sizeof(err)) == 0)
		return 0;
	pr_err("%s", err);
	return -1;
}

/* A wave's log against a capture, or against scope readings. */
/* --scope: the instrument's statistics as compare's readings and counts;
 * 0, or the exit code (said). */
static int scope_fill(struct args *a, struct scope_reading *r)
{
	struct compare_opts *o = &a->o;
	char err[1024];
	int p;

	if (scopedialect_read_target(a->scope_at, SCPI_TIMEOUT_MS, a->scope_channel, r, err,
				     sizeof(err)) < 0) {
		pr_err("compare: %s", err);
		return SQW_EXIT_RUNTIME;
	}
	o->have_scope = false;
	for (p = 0; p < SCOPE_NPOL; p++)
		if (!r->stat[p].valid)
			pr_warn("compare: %s: %s", a->scope_at, r->stat[p].why);
	if (!compare_opts_scope(o, r, a->scope_at)) {
		pr_err("compare: %s (%s): no valid width statistics on channel %d: nothing to "
		       "compare (was it set up, and did it trigger?)", a->scope_at,
		       scopedialect_family(r->d), a->scope_channel);
		return SQW_EXIT_RUNTIME;
	}
	return 0;
}

static int compare_wave(struct args *a, FILE *out)
{
	struct compare *c;
	char err[1024];
	enum compare_status st;
	struct scope_reading sr;
	int ret;

	if (a->scope_at && (ret = scope_fill(a, &sr)) != 0)
		return ret;
	st = compare_run(&a->o, &c, err, sizeof(err));

	if (st != COMPARE_OK) {
		pr_err("%s", err);
		return status_exit(st);
	}
	if (c->truncated)
		pr_warn("%s: log is truncated (the run was cut short): using its %" PRIu64
			" complete records", a->o.run, c->records);
	comparedoc_print_text(out, c);
	ret = compare_exit(c);
	if (a->json && write_json(a->json, comparedoc_json, c) < 0)
		ret = SQW_EXIT_RUNTIME;
	if (a->kcidb && comparedoc_kcidb(c, a->kcidb, a->kcidb_origin, a->kcidb_url, err,
					 sizeof(err)) < 0) {
		pr_err("%s", err);
		ret = SQW_EXIT_RUNTIME;
	}
	if ((a->junit || a->results) &&
	    comparecheck_write(c, a->junit, a->results, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		ret = SQW_EXIT_RUNTIME;
	}
	compare_free(c);
	return ret;
}

/* A respond log against a capture of both pins: the options that mean
 * nothing for it are refused. */
static int compare_respond(const struct args *a, FILE *out)
{
	const struct compare_opts *o = &a->o;
	struct respcmp_opts ro = {
		.run = o->run, .capture = o->capture, .copts = o->copts,
		.stimulus = a->chan[0], .response = a->chan[1], .tolerance_ns = o->tolerance_ns,
		.first_seq = o->first_seq, .max_drift_ppm = o->max_drift_ppm,
	};
	struct respcmp_run run;
	struct respdoc d = { .o = &ro, .run = &run, .worst = o->worst };
	enum compare_status st;
	char err[1024];
	int ret;

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
	st = respcmp_run(&ro, &run, err, sizeof(err));
	if (st != COMPARE_OK) {
		pr_err("%s", err);
		return status_exit(st);
	}
	if (run.truncated)
		pr_warn("%s: log is truncated (the run was cut short): using its %zu complete records",
			o->run, run.c->nrec);
	respdoc_print_text(out, &d);
	ret = compare_verdict_exit(run.c->verdict);
	if (a->json && write_json(a->json, respdoc_json, &d) < 0)
		ret = SQW_EXIT_RUNTIME;
	respcmp_run_free(&run);
	return ret;
}

/* Two boards on one grid against one capture of both pins. A failure once
 * both boards were opened still gives the report's head (each board, the
 * capture). */
static int compare_boards(const struct args *a, FILE *out)
{
	struct boardsdoc d;
	char err[2048];
	enum compare_status st = boardsdoc_run(&d, &a->bo, err, sizeof(err));
	int i, ret;

	for (i = 0; i < 2; i++)
		if (d.b[i].opened && d.b[i].c->truncated)
			pr_warn("board %s: %s is truncated (the run was cut short): using its %" PRIu64
				" complete records", d.b[i].name, d.b[i].o.run, d.b[i].c->records);
	if (st != COMPARE_OK) {
		pr_err("%s", err);
		boardsdoc_print_text(out, &d);	/* the head, when both boards were opened */
		boardsdoc_close(&d);
		return status_exit(st);
	}
	boardsdoc_print_text(out, &d);
	ret = d.exit_code;
	if (a->skew_csv && d.joined && boardsdoc_write_csv(a->skew_csv, &d, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		ret = SQW_EXIT_RUNTIME;
	}
	if (a->json && write_json(a->json, boardsdoc_json, &d) < 0)
		ret = SQW_EXIT_RUNTIME;
	boardsdoc_close(&d);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	struct args a;
	FILE *out;
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? SQW_EXIT_OK : SQW_EXIT_USAGE;
	{
		/* src/board/base/outfile.h: --json never over the run log or the capture */
		const struct outfile_arg outs[] = { { "--json", a.json, false },
						    { "--skew-csv", a.skew_csv, false },
						    { "--kcidb", a.kcidb, false },
						    { "--junit", a.junit, false },
						    { "--results", a.results, false } };
		const struct outfile_arg ins[] = { { "the run log", a.o.run, false },
						   { "the capture", a.o.capture, false },
						   { "board B's log", a.bo.run_b, false } };
		char why[1024];

		if (outfile_check(outs, 5, ins, 3, true, why, sizeof(why)) < 0) {
			pr_err("%s", why);
			return SQW_EXIT_USAGE;
		}
	}
	/* --json -: standard output carries the JSON alone, the text report
	 * goes to standard error */
	out = (a.json && !strcmp(a.json, "-")) || (a.kcidb && !strcmp(a.kcidb, "-")) ||
	      (a.junit && !strcmp(a.junit, "-")) || (a.results && !strcmp(a.results, "-"))
	      ? stderr : stdout;
	if ((a.kcidb || a.junit || a.results) && (a.bo.run_b || respcmp_log_is_respond(a.o.run))) {
		pr_err("compare: %s is for a wave's log against its capture or scope readings "
		       "(not two boards, not a respond log)",
		       a.kcidb ? "--kcidb" : a.junit ? "--junit" : "--results");
		return SQW_EXIT_USAGE;
	}
	if (a.o.min_coverage >= 0 && (a.bo.run_b || !a.o.capture ||
				      respcmp_log_is_respond(a.o.run))) {
		pr_err("compare: --min-coverage is for a wave's log against a capture (what a "
		       "scope's count covers is judged by its interval)");
		return SQW_EXIT_USAGE;
	}
	if (a.bo.run_b)
		return compare_boards(&a, out);
	if (respcmp_log_is_respond(a.o.run))
		return compare_respond(&a, out);
	if (a.chan[0] || a.chan[1]) {
		pr_err("compare: --stimulus and --response are for a log of `sqwave respond`; "
		       "%s is a wave's (use --channel)", a.o.run);
		return SQW_EXIT_USAGE;
	}
	return compare_wave(&a, out);
}
