/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave analyze FILE`: what a scope should show for a run or a capture,
 * as text, JSON, per-edge CSV, cyclictest histogram and SVG (docs/analyze.md). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze.h"
#include "base/outfile.h"
#include "base/units.h"
#include "capture/capture.h"
#include "cmd/cmd_analyze.h"
#include "cmd/cmdline.h"
#include "cmd/print.h"
#include "cmd/sources.h"
#include "summary/analysisdoc.h"
#include "pictures/svgplot.h"

static void analyze_usage(FILE *f)
{
	char row[32], win[32];

	fprintf(f,
		"usage: sqwave analyze FILE [OPTIONS]\n\n"
		"FILE is a sqwave log, an edge-list CSV (seq,level,intended_ns,measured_ns; or\n"
		"sqwave export's CSV) or a capture (sigrok CSV/VCD/.sr, Saleae CSV, scope CSV,\n"
		"DSView/WaveForms/ScanaStudio CSV). FILE may be - (standard input) or a pipe:\n"
		"it is held in memory, at most %zu MiB.\n\n"
		"outputs (FILE - is standard output, one at most; the text report then goes\n"
		"to standard error):\n"
		"  --json FILE          everything, schema sqwave-analysis (docs/analyze.md)\n"
		"  --csv FILE           one row per edge, with the pulse widths on both sides\n"
		"  --svg FILE           a picture: verdict, histograms, persistence, widths over time\n"
		"  --histogram FILE     1 us histogram in cyclictest -h format\n"
		"  --quiet              no text report\n"
		"  -h, --help           this help\n"
		"analysis:\n"
		"  --worst N            the N worst edges (default %d)\n"
		"  --missed N           list at most N missed-period places (default %d)\n"
		"  --hist-buckets N     1 us buckets of the histogram (default %d)\n"
		"  --histogram-of WHAT  latency (default for logs) or width\n"
		"  --timeline DUR       timeline row length (default %s)\n"
		"  --window DUR         the long view's window: maxima per window, the worst\n"
		"                       window, MTBF of limit crossings (default %s)\n"
		"  --persist-trigger T  the SVG's persistence view triggers on the pin's rising\n"
		"                       edge as a scope does (edge, default) or on the intended time\n"
		"input:\n"
		"  --format NAME        log, edges, or a capture format: %s\n"
		"  --channel CH         capture channel (name, suffix or number)\n"
		"  --threshold V, --hysteresis V, --samplerate HZ   analog / headerless captures\n"
		"  --half-period DUR    edge list: the half period (default: from the intended times)\n"
		"verdict (a log's own limits, or these, as for run):\n"
		"  --tmin DUR, --tmax DUR, --max-latency DUR, --max-missed N,\n"
		"  --max-width-error DUR (a pulse off its level's nominal width by more fails)\n"
		"DUR is a duration as for `run`: 500us, 20s, 1min; a bare number is in the unit\n"
		"of the run option of that name (--half-period 500 is 500us), else seconds.\n"
		"exit codes: 0 done (whatever the verdict), 2 bad input (foreign, corrupt,\n"
		"malformed) or contradictory limits, 3 I/O error\n",
		CAPTURE_STREAM_MAX >> 20, ANALYZE_WORST_DEFAULT, ANALYZE_MISSED_LIST_DEFAULT, ANALYZE_HIST_BUCKETS_DEFAULT,
		/* in the form the timeline's own heading prints it */
		units_format_duration(ANALYZE_TIMELINE_ROW_DEFAULT_NS, row, sizeof(row)),
		units_format_duration(WINDOWS_DEFAULT_NS, win, sizeof(win)),
		capture_format_names());
}

/* analyze's own options in the config table's grammar; --half-period is
 * run.half_period's own row (500 is 500us, as for run). */
static const char *const hist_of_choices[] = { "latency", "width", NULL };
static const struct cfg_item opt_worst = CMDLINE_INT("worst", 0, 100000, NULL);
static const struct cfg_item opt_missed = CMDLINE_INT("missed", 0, 10000000, NULL);
static const struct cfg_item opt_buckets = CMDLINE_INT("hist-buckets", 1, 10000000, NULL);
static const struct cfg_item opt_hist_of = CMDLINE_CHOICE("histogram-of", hist_of_choices);
static const char *const persist_trigger_choices[] = { "edge", "intended", NULL };
static const struct cfg_item opt_persist_trigger =
	CMDLINE_CHOICE("persist-trigger", persist_trigger_choices);
static const struct cfg_item opt_timeline =
	CMDLINE_DURATION("timeline", 1000000, INT64_C(7) * 86400 * 1000000000, "s");
static const struct cfg_item opt_window =
	CMDLINE_DURATION("window", 1000000, INT64_C(7) * 86400 * 1000000000, "s");

/* @optarg for the row @it into *@v; says why not. */
static int parse_opt(const struct cfg_item *it, const char *arg, int64_t *v)
{
	char err[256];

	if (cmdline_value(it, NULL, arg, v, err, sizeof(err)) != CFG_OK) {
		pr_err("%s", err);
		return -1;
	}
	return 0;
}

static int parse_double(const char *opt, const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*v)) {
		pr_err("%s: '%s' is not a number", opt, s);
		return -1;
	}
	return 0;
}

enum {
	OPT_JSON = 256, OPT_CSV, OPT_SVG, OPT_HIST, OPT_WORST, OPT_MISSED, OPT_BUCKETS, OPT_HIST_OF,
	OPT_TIMELINE, OPT_FORMAT, OPT_CHANNEL, OPT_THRESHOLD, OPT_HYST, OPT_RATE, OPT_HALF, OPT_QUIET,
	OPT_LIMIT, OPT_PERSIST_TRIGGER, OPT_WINDOW,
};

static const struct option analyze_opts[] = {
	{ "json", required_argument, NULL, OPT_JSON },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "histogram", required_argument, NULL, OPT_HIST },
	{ "worst", required_argument, NULL, OPT_WORST },
	{ "missed", required_argument, NULL, OPT_MISSED },
	{ "hist-buckets", required_argument, NULL, OPT_BUCKETS },
	{ "histogram-of", required_argument, NULL, OPT_HIST_OF },
	{ "timeline", required_argument, NULL, OPT_TIMELINE },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "persist-trigger", required_argument, NULL, OPT_PERSIST_TRIGGER },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "channel", required_argument, NULL, OPT_CHANNEL },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "hysteresis", required_argument, NULL, OPT_HYST },
	{ "samplerate", required_argument, NULL, OPT_RATE },
	{ "half-period", required_argument, NULL, OPT_HALF },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	/* the limits: run's own options (config table), over a log's */
	{ "tmin", required_argument, NULL, OPT_LIMIT },
	{ "tmax", required_argument, NULL, OPT_LIMIT },
	{ "max-latency", required_argument, NULL, OPT_LIMIT },
	{ "max-missed", required_argument, NULL, OPT_LIMIT },
	{ "max-width-error", required_argument, NULL, OPT_LIMIT },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* The options, for the man page and the completion (main.c). */
size_t cmd_analyze_options(struct option *out, size_t max)
{
	return cmdline_options_copy(out, max, analyze_opts);
}

void cmd_analyze_help(FILE *f)
{
	analyze_usage(f);
}

/* What analyze's command line asks for. */
struct analyze_args {
	struct analyze_opts ao;
	struct analyze_source_opts so;
	struct capture_opts cap;	/* so.kind_opts: the capture kind's */
	const char *json, *csv, *svg, *hist, *path;
	const char *limit_opt[16], *limit_val[16];
	size_t nlimits;
	bool quiet;
	FILE *text_out;
};

/* One of analyze's own options into @aa: 0, or -1 refused (said why). */
static int analyze_option(struct analyze_args *aa, int ch, int idx)
{
	char err[1024];
	int64_t v;

	switch (ch) {
	case OPT_LIMIT:	/* applied (and checked) once the source says its own */
		if (aa->nlimits == sizeof(aa->limit_opt) / sizeof(aa->limit_opt[0])) {
			pr_err("--%s: too many limit options", analyze_opts[idx].name);
			return -1;
		}
		aa->limit_opt[aa->nlimits] = analyze_opts[idx].name;
		aa->limit_val[aa->nlimits++] = optarg;
		return 0;
	case OPT_JSON: aa->json = optarg; return 0;
	case OPT_CSV: aa->csv = optarg; return 0;
	case OPT_SVG: aa->svg = optarg; return 0;
	case OPT_HIST: aa->hist = optarg; return 0;
	case OPT_QUIET: aa->quiet = true; return 0;
	case OPT_FORMAT: aa->so.format = optarg; return 0;
	case OPT_CHANNEL: aa->cap.channel = optarg; return 0;
	case OPT_WORST:
		if (parse_opt(&opt_worst, optarg, &v))
			return -1;
		aa->ao.worst_n = (unsigned)v;
		return 0;
	case OPT_MISSED:
		if (parse_opt(&opt_missed, optarg, &v))
			return -1;
		aa->ao.missed_list = (unsigned)v;
		return 0;
	case OPT_BUCKETS:
		if (parse_opt(&opt_buckets, optarg, &v))
			return -1;
		aa->ao.hist_buckets = (size_t)v;
		return 0;
	case OPT_HIST_OF:
		if (parse_opt(&opt_hist_of, optarg, &v))
			return -1;
		aa->ao.hist_of_width = v == 1;
		return 0;
	case OPT_TIMELINE:
		return parse_opt(&opt_timeline, optarg, &aa->ao.minute_ns);
	case OPT_WINDOW:
		return parse_opt(&opt_window, optarg, &aa->ao.window_ns);
	case OPT_PERSIST_TRIGGER:
		if (parse_opt(&opt_persist_trigger, optarg, &v))
			return -1;
		aa->ao.persist_intended = v == 1;
		return 0;
	case OPT_HALF:
		return parse_opt(&config_table[CFG_RUN_HALF_PERIOD], optarg, &aa->so.half_period_ns);
	case OPT_THRESHOLD:
		if (parse_double("--threshold", optarg, &aa->cap.threshold))
			return -1;
		aa->cap.threshold_set = 1;
		return 0;
	case OPT_HYST:
		return parse_double("--hysteresis", optarg, &aa->cap.hysteresis);
	case OPT_RATE:
		if (capture_samplerate_parse("--samplerate", optarg, &aa->cap.samplerate_hz, err,
					     sizeof(err))) {
			pr_err("%s", err);
			return -1;
		}
		return 0;
	default:
		return -1;	/* getopt returns only the table's values */
	}
}

/* The command line into @aa: 0, or the exit code to return now. */
static int analyze_parse(struct analyze_args *aa, int argc, char **argv)
{
	struct cmdline cl = { "analyze", analyze_opts, "h", analyze_usage, false };
	int ch, idx = 0;
	char err[1024];

	while ((ch = cmdline_next(&cl, argc, argv, &idx)) >= 0)
		if (analyze_option(aa, ch, idx) < 0)
			return SQW_EXIT_USAGE;
	if (ch != CMDLINE_END)
		return ch == CMDLINE_HELP ? SQW_EXIT_OK : SQW_EXIT_USAGE;
	if (cmdline_args(&cl, argc, argv, 1, 1) < 0)
		return SQW_EXIT_USAGE;
	aa->path = argv[optind];
	{
		/* Before anything is opened for writing: an output over the input
		 * would destroy it (a mapped capture would even kill us: SIGBUS). */
		const struct outfile_arg outs[] = {
			{ "--json", aa->json, false }, { "--csv", aa->csv, false },
			{ "--svg", aa->svg, false }, { "--histogram", aa->hist, false },
		};
		const struct outfile_arg ins[] = { { "the input", aa->path, false } };

		if (outfile_check(outs, 4, ins, 1, !aa->quiet, err, sizeof(err)) < 0) {
			pr_err("%s", err);
			return SQW_EXIT_USAGE;
		}
	}
	/* An output on standard output is there alone (outfile_check refuses
	 * two), for a program to read: the text report goes to standard error. */
	if ((aa->json && !strcmp(aa->json, "-")) || (aa->csv && !strcmp(aa->csv, "-")) ||
	    (aa->svg && !strcmp(aa->svg, "-")) || (aa->hist && !strcmp(aa->hist, "-")))
		aa->text_out = stderr;
	return SQW_EXIT_OK;
}

static int exit_of(enum analyze_status st)
{
	return st == ANALYZE_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
}

/* What a short log says of itself, on the terminal. */
static void analyze_warn_truncated(const char *path, const struct analysis *a)
{
	if (a->src->truncated && a->src->zero_bytes)
		pr_warn("%s: log is truncated: it ends in %" PRIu64 " zero bytes where records should "
			"be (what a power loss leaves); analyzed its %" PRIu64 " complete records",
			path, a->src->zero_bytes, analysis_stats(a)->records);
	else if (a->src->truncated)
		pr_warn("%s: log is truncated (no footer: the run was cut short); analyzed its %"
			PRIu64 " complete records%s", path, analysis_stats(a)->records,
			a->src->trailing_bytes ? ", ignored a partial last record" : "");
}

/* The outputs after the text: JSON, histogram, SVG. The exit code. */
static int analyze_write(const struct analyze_args *aa, const struct analysis *a)
{
	char err[1024];
	int ret = SQW_EXIT_OK;

	if (aa->json && analysisdoc_write_json(aa->json, a) < 0) {
		pr_err("writing %s failed: %s", aa->json, strerror(errno));
		ret = SQW_EXIT_RUNTIME;
	}
	if (aa->hist) {
		FILE *f = outfile_open(aa->hist, err, sizeof(err));

		if (!f) {
			pr_err("%s", err);
			ret = SQW_EXIT_RUNTIME;
		} else {
			stats_linhist_print(f, &a->hist);
			if (outfile_close(f, aa->hist, err, sizeof(err)) < 0) {
				pr_err("%s", err);
				ret = SQW_EXIT_RUNTIME;
			}
		}
	}
	if (aa->svg && svgplot_analysis(aa->svg, a, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		ret = SQW_EXIT_RUNTIME;
	}
	return ret;
}

int cmd_analyze(int argc, char **argv)
{
	struct analyze_args aa = {
		.ao = {
			.worst_n = ANALYZE_WORST_DEFAULT,
			.missed_list = ANALYZE_MISSED_LIST_DEFAULT,
			.hist_buckets = ANALYZE_HIST_BUCKETS_DEFAULT,
		},
		.text_out = stdout,
	};
	struct analysisdoc d;
	struct analysisdoc_csv *co = NULL;
	enum analyze_status st;
	int ret;
	char err[1024];

	ret = analyze_parse(&aa, argc, argv);
	if (ret || !aa.path)
		return ret;
	aa.so.kind_opts = &aa.cap;
	sources_register();
	if (analysisdoc_open(&d, aa.path, &aa.so, &aa.ao, aa.limit_opt, aa.limit_val, aa.nlimits,
			     &st, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		return exit_of(st);
	}
	if (aa.csv) {
		co = analysisdoc_csv_open(aa.csv, d.a, err, sizeof(err));
		if (!co) {
			pr_err("%s", err);
			ret = SQW_EXIT_RUNTIME;
			goto out;
		}
	}
	if (analysisdoc_feed(&d, &st, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		/* kept, as export keeps the records before a bad one: it says so */
		if (co && strcmp(aa.csv, "-"))
			pr_warn("%s is incomplete: it holds the %" PRIu64 " edges read before the error",
				aa.csv, analysisdoc_csv_rows(co));
		ret = exit_of(st);
		goto out;
	}
	analyze_warn_truncated(aa.path, d.a);
	if (!aa.quiet)
		analysisdoc_print_text(aa.text_out, d.a);
	ret = analyze_write(&aa, d.a);
out:
	if (analysisdoc_csv_close(co, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		ret = SQW_EXIT_RUNTIME;
	}
	analysisdoc_close(&d);
	return ret;
}
