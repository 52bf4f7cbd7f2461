/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave report RUN...`: the comparison table of several runs and phases,
 * as text (default), Markdown, JSON and an SVG of their pulse widths. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd_report.h"
#include "cmd/cmdline.h"
#include "log/edgelog.h"
#include "base/jsonread.h"
#include "base/outfile.h"
#include "cmd/print.h"
#include "cmd/sources.h"
#include "stats/analyze.h"
#include "summary/analysisdoc.h"
#include "config/config.h"
#include "report/regressdoc.h"
#include "report/report.h"
#include "report/trend.h"

static void report_usage(FILE *f)
{
	fprintf(f,
		"usage: sqwave report RUN... [--markdown FILE] [--json FILE] [--svg FILE]\n"
		"       sqwave report --baseline OLD [--baseline OLD]... NEW... [--json FILE]\n"
		"                     [--junit FILE] [--results FILE]\n"
		"       sqwave report --trend [--steps] RUN...\n\n"
		"One row per run and phase: label, board, kernel (RT or non-RT), duration,\n"
		"frequency, loads and their proof (CPU busy, packets/s, CoreMark score),\n"
		"edges, Tmin/Tmax with bounds, wake latency p50/mean/p99/p99.99/max, missed\n"
		"periods, verdict (docs/report.md says what each means). RUN is a\n"
		"run's log (its phases, loads and proof come from its events), a JSON\n"
		"summary of a run (sqwave run --json) or of an analysis (analyze --json);\n"
		"a comparison of two boards on one grid (compare RUN_A RUN_B CAPTURE\n"
		"--json) is a row of a second table: both boards, the skew between them,\n"
		"how far apart their clocks were, the checks; a comparison of one log with\n"
		"an analyzer's capture or a scope's readings (compare RUN CAPTURE|--scope\n"
		"... --json) a row of the instruments table: the run it checks, what the\n"
		"instrument read beside what the log predicts, its coverage, its verdict.\n\n"
		"  --markdown FILE   the table in Markdown\n"
		"  --json FILE       the rows as JSON (schema sqwave-report)\n"
		"  --svg FILE        every row's pulse-width distribution overlaid\n"
		"                    (one of them may be '-': standard output, instead of the text)\n"
		"  --trend           the long view instead: one point per run (Tmin, Tmax,\n"
		"                    worst wake-up, missed periods), runs grouped by board\n"
		"                    and host, ordered by start; --svg draws a panel per\n"
		"                    board over a date axis, --json the points (schema\n"
		"                    sqwave-trend); exit 0 whatever the verdicts\n"
		"  --baseline OLD    (repeatable) the regression verdict instead: is RUN...\n"
		"                    (NEW) worse than the OLD runs beyond their variation, per\n"
		"                    phase and figure (Tmin/Tmax per polarity, wake p99,\n"
		"                    p99.99, max, missed periods); exit 1 on a regression\n"
		"  --steps           with --trend: the same verdict over the runs in the order\n"
		"                    given, each figure's step and the first run after it\n"
		"  --junit FILE      (--baseline, --steps) one test case per phase and figure\n"
		"  --results FILE    (--baseline, --steps) LAVA result lines, as run's\n"
		"  --min-step TIME   least practical step of a time figure (default 1us) ...\n"
		"  --min-step-pct N  ... or N %% of OLD's figure, the larger (default 10)\n"
		"  --min-missed-ppm N  of missed periods, per million slots (default 100)\n"
		"  -q, --quiet       no text table on stdout\n"
		"  -h, --help        this help\n\n"
		"Exit: 0 every row passed (or had no limits), 1 a row failed or its load\n"
		"was not applied (or a comparison did not exit 0), 2 bad input,\n"
		"3 I/O error. With --baseline or --steps: 0 no regression, 1 a regression\n"
		"(docs/report.md, \"Regression verdict\", says how each figure is judged).\n");
}

static int write_to(const char *path, void (*fn)(FILE *, const struct report *),
		    const struct report *r)
{
	char err[512];
	FILE *f = outfile_open(path, err, sizeof(err));

	if (!f) {
		pr_err("%s", err);
		return -1;
	}
	fn(f, r);
	if (outfile_close(f, path, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		return -1;
	}
	return 0;
}

static int write_trend(const char *path, void (*fn)(FILE *, const struct trend *),
		       const struct trend *t)
{
	char err[512];
	FILE *f = outfile_open(path, err, sizeof(err));

	if (!f) {
		pr_err("%s", err);
		return -1;
	}
	fn(f, t);
	if (outfile_close(f, path, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		return -1;
	}
	return 0;
}

enum input_kind { IN_OTHER, IN_LOG, IN_JSON };

/* What an input is by its first bytes: a sqwave log (its magic), a JSON
 * document (an object or an array, after white space and a byte order
 * mark), or something else. Regular files only, opened without blocking:
 * a FIFO nobody writes to, a directory or a device (IN_JSON) is left to
 * jsonread_file() to refuse. */
static enum input_kind input_kind(const char *path)
{
	unsigned char head[512];
	struct stat st;
	enum input_kind k = IN_JSON;
	ssize_t n;
	size_t i = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return IN_JSON;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return IN_JSON;
	}
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	if (n >= 8 && !memcmp(head, EDGELOG_MAGIC, 8))
		return IN_LOG;
	if (n <= 0)
		return IN_JSON;	/* empty: the parser says so, with its position */
	if (n >= 3 && !memcmp(head, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < (size_t)n && strchr(" \t\r\n", head[i]))
		i++;
	if (i < (size_t)n && head[i] != '{' && head[i] != '[')
		k = IN_OTHER;
	return k;
}

/* A log's rows come from its analysis, the same document analyze --json
 * writes (its phases rebuilt from the log's events). */
static struct jv *log_doc(const char *path, int *rc, char *err, size_t errlen)
{
	char *text = NULL, msg[512];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct jv *doc = NULL;
	enum analyze_status st;

	if (!f) {
		snprintf(err, errlen, "out of memory");
		*rc = SQW_EXIT_RUNTIME;
		return NULL;
	}
	if (analysisdoc_json_of(path, f, &st, err, errlen) < 0)
		*rc = st == ANALYZE_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
	else
		*rc = SQW_EXIT_OK;
	if (fclose(f) != 0 && !*rc) {
		snprintf(err, errlen, "out of memory");
		*rc = SQW_EXIT_RUNTIME;
	}
	if (!*rc) {
		doc = jsonread_parse(text, len, msg, sizeof(msg));
		if (!doc) {
			snprintf(err, errlen, "%s: its analysis: %s", path, msg);
			*rc = SQW_EXIT_RUNTIME;
		}
	}
	free(text);
	return doc;
}

/* report --baseline and --trend --steps: what the options asked for. */
struct regress_args {
	const char **base;         /* the OLD runs, in the order given */
	size_t nbase;
	bool steps;
	const char *json, *junit, *results;
	bool quiet;
	struct regress_opts o;
};

static const struct cfg_item opt_min_step = CMDLINE_DURATION("min-step", 0, INT64_C(3600000000000), "us");
static const struct cfg_item opt_min_pct = CMDLINE_INT("min-step-pct", 0, 1000, "");
static const struct cfg_item opt_min_ppm = CMDLINE_INT("min-missed-ppm", 0, 1000000, "");

/* One option of the verdict's into @ra: 0, or -1 refused (said). */
static int regress_option(struct regress_args *ra, int ch, const char *arg)
{
	const struct cfg_item *it = ch == 'M' ? &opt_min_step : ch == 'P' ? &opt_min_pct : &opt_min_ppm;
	char err[256];
	int64_t v;

	switch (ch) {
	case 'B':
		ra->base[ra->nbase++] = arg;
		return 0;
	case 'S':
		ra->steps = true;
		return 0;
	case 'J':
		ra->junit = arg;
		return 0;
	case 'R':
		ra->results = arg;
		return 0;
	}
	if (cmdline_value(it, NULL, arg, &v, err, sizeof(err)) != CFG_OK) {
		pr_err("%s", err);
		return -1;
	}
	if (ch == 'M')
		ra->o.min_step_ns = v;
	else if (ch == 'P')
		ra->o.min_step_pct = (double)v;
	else
		ra->o.min_missed_ppm = (double)v;
	return 0;
}

/* One run for the verdict: a log's full distributions, or a summary's. */
static int regress_read(struct regress_run *run, const char *path)
{
	enum input_kind kind = input_kind(path);
	char err[1024];
	bool io = false;
	struct jv *doc;
	int r;

	if (kind == IN_OTHER) {
		pr_err("%s: neither a sqwave log nor a JSON summary or analysis", OUTFILE_ESC(path));
		return SQW_EXIT_USAGE;
	}
	if (kind == IN_LOG) {
		r = regress_run_from_log(run, path, &io, err, sizeof(err));
	} else {
		doc = jsonread_file(path, &io, err, sizeof(err));
		r = doc ? regress_run_from_doc(run, doc, path, err, sizeof(err)) : -1;
		jv_free(doc);
	}
	if (r < 0) {
		pr_err("%s", err);
		return io ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
	}
	return SQW_EXIT_OK;
}

static int regress_write(const char *path, const struct regress_result *res,
			 const struct regress_opts *o, char kind)
{
	char err[512];
	FILE *f = outfile_open(path, err, sizeof(err));

	if (!f) {
		pr_err("%s", err);
		return -1;
	}
	if (kind == 'j')
		regress_write_json(f, res, o);
	else if (kind == 'J')
		regress_write_junit(f, res);
	else
		regress_write_results(f, res);
	if (outfile_close(f, path, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		return -1;
	}
	return 0;
}

/* The verdict: OLD (--baseline) against NEW (@news), or the steps of the
 * series @news (--steps); exit 0, 1 (a regression), 2 or 3. */
static int report_regress(struct regress_args *ra, char **news, size_t nnew)
{
	size_t nall = ra->nbase + nnew, i;
	struct regress_run *runs = calloc(nall + 1, sizeof(*runs));
	struct regress_result res;
	char err[512];
	int ret = SQW_EXIT_OK;

	if (!runs) {
		pr_err("out of memory");
		return SQW_EXIT_RUNTIME;
	}
	for (i = 0; i < nall && ret == SQW_EXIT_OK; i++)
		ret = regress_read(&runs[i], i < ra->nbase ? ra->base[i] : news[i - ra->nbase]);
	/* one line a side: a side of two lines would be judged as one */
	if (ret == SQW_EXIT_OK &&
	    (ra->steps ? regress_side_check(runs, nall, "the series", err, sizeof(err)) < 0
	     : regress_side_check(runs, ra->nbase, "OLD", err, sizeof(err)) < 0 ||
	       regress_side_check(runs + ra->nbase, nnew, "NEW", err, sizeof(err)) < 0)) {
		pr_err("%s", err);
		ret = SQW_EXIT_USAGE;
	}
	if (ret == SQW_EXIT_OK &&
	    (ra->steps ? regress_trend(runs, nall, &ra->o, &res, err, sizeof(err))
		       : regress_judge(runs, ra->nbase, runs + ra->nbase, nnew, &ra->o, &res, err,
				       sizeof(err))) < 0) {
		pr_err("%s", err);
		ret = SQW_EXIT_RUNTIME;
	}
	if (ret == SQW_EXIT_OK) {
		bool on_stdout = (ra->json && !strcmp(ra->json, "-")) ||
				 (ra->junit && !strcmp(ra->junit, "-")) ||
				 (ra->results && !strcmp(ra->results, "-"));

		if (!ra->quiet && !on_stdout)
			regress_write_text(stdout, &res, &ra->o);
		if ((ra->json && regress_write(ra->json, &res, &ra->o, 'j') < 0) ||
		    (ra->junit && regress_write(ra->junit, &res, &ra->o, 'J') < 0) ||
		    (ra->results && regress_write(ra->results, &res, &ra->o, 'R') < 0))
			ret = SQW_EXIT_RUNTIME;
		else if (regress_any(&res))
			ret = SQW_EXIT_LIMIT;
		regress_result_free(&res);
	}
	for (i = 0; i < nall; i++)
		regress_run_free(&runs[i]);
	free(runs);
	return ret;
}

/* The verdict's checks of the command line, then the verdict itself. */
static int report_regress_cmd(struct regress_args *ra, bool trend, const char *md, const char *svg,
			      int argc, char **argv)
{
	struct outfile_arg outs[3] = { { "--json", ra->json, false }, { "--junit", ra->junit, false },
				       { "--results", ra->results, false } };
	size_t nin = ra->nbase + (size_t)(argc - optind), i;
	struct outfile_arg *ins;
	char err[1024];
	int r;

	if (md || svg || (trend && ra->nbase) || (ra->steps && !trend) || (!ra->nbase && !ra->steps)) {
		pr_err("%s", md || svg ? "the regression verdict writes text, --json, --junit and "
		       "--results, not --markdown or --svg"
		       : trend && ra->nbase ? "--baseline compares two sets of runs; --trend --steps "
		       "a series" : ra->steps ? "--steps goes with --trend"
		       : "--junit and --results go with --baseline OLD or --trend --steps");
		return SQW_EXIT_USAGE;
	}
	if (optind >= argc || (ra->steps && argc - optind < REGRESS_TREND_MIN)) {
		pr_err("%s", ra->steps ? "report --trend --steps needs 8 runs or more (a rank "
		       "interval at 95 % needs 3 runs on one side of a step, 5 on the other)" : "report --baseline OLD needs the NEW runs: sqwave report "
		       "--baseline OLD.json NEW.json");
		return SQW_EXIT_USAGE;
	}
	ins = calloc(nin + 1, sizeof(*ins));
	if (!ins) {
		pr_err("out of memory");
		return SQW_EXIT_RUNTIME;
	}
	for (i = 0; i < nin; i++)
		ins[i] = (struct outfile_arg){ "a run", i < ra->nbase ? ra->base[i]
					       : argv[optind + (int)(i - ra->nbase)], false };
	r = outfile_check(outs, 3, ins, nin, !ra->quiet, err, sizeof(err));
	free(ins);
	if (r < 0) {
		pr_err("%s", err);
		return SQW_EXIT_USAGE;
	}
	return report_regress(ra, argv + optind, (size_t)(argc - optind));
}

static const struct option report_opts[] = {
	{ "markdown", required_argument, NULL, 'm' },
	{ "json", required_argument, NULL, 'j' },
	{ "svg", required_argument, NULL, 's' },
	{ "trend", no_argument, NULL, 't' },
	{ "baseline", required_argument, NULL, 'B' },
	{ "steps", no_argument, NULL, 'S' },
	{ "junit", required_argument, NULL, 'J' },
	{ "results", required_argument, NULL, 'R' },
	{ "min-step", required_argument, NULL, 'M' },
	{ "min-step-pct", required_argument, NULL, 'P' },
	{ "min-missed-ppm", required_argument, NULL, 'N' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* The options, for the man page and the completion (main.c). */
size_t cmd_report_options(struct option *out, size_t max)
{
	return cmdline_options_copy(out, max, report_opts);
}

void cmd_report_help(FILE *f)
{
	report_usage(f);
}

int cmd_report(int argc, char **argv)
{
	const char *md = NULL, *json = NULL, *svg = NULL;
	struct report rep = { 0 };
	bool quiet = false, trend = false;
	struct trend tr = { 0 };
	int ch, i, on_stdout, ret = SQW_EXIT_OK;
	struct cmdline cl = { "report", report_opts, "qh", report_usage, false };
	struct regress_args ra = { 0 };
	bool bad = false;

	regress_opts_default(&ra.o);
	ra.base = calloc((size_t)argc + 1, sizeof(*ra.base));
	if (!ra.base) {
		pr_err("out of memory");
		return SQW_EXIT_RUNTIME;
	}
	while ((ch = cmdline_next(&cl, argc, argv, NULL)) >= 0) {
		switch (ch) {
		default:	/* the regression verdict's */
			if (regress_option(&ra, ch, optarg) < 0)
				bad = true;
			break;
		case 'm':
			md = optarg;
			break;
		case 'j':
			json = optarg;
			break;
		case 's':
			svg = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 't':
			trend = true;
			break;
		}
	}
	if (ch != CMDLINE_END || bad) {
		free(ra.base);
		if (bad)
			return SQW_EXIT_USAGE;
		return ch == CMDLINE_HELP ? SQW_EXIT_OK : SQW_EXIT_USAGE;
	}
	sources_register();	/* a log's rows are its analysis (analysisdoc_json_of) */
	if (ra.nbase || ra.steps || ra.junit || ra.results) {
		ra.json = json;
		ra.quiet = quiet;
		ret = report_regress_cmd(&ra, trend, md, svg, argc, argv);
		free(ra.base);
		return ret;
	}
	free(ra.base);
	if (trend && md) {
		pr_err("report --trend writes text, --json and --svg, not --markdown");
		return SQW_EXIT_USAGE;
	}
	if (optind >= argc) {
		pr_err("report needs at least one run: sqwave report RUN.sqwlog|RUN.json...");
		return SQW_EXIT_USAGE;
	}
	/* a document on standard output is there alone: no text table */
	on_stdout = (md && !strcmp(md, "-")) || (json && !strcmp(json, "-")) ||
		    (svg && !strcmp(svg, "-"));
	for (i = optind; i < argc; i++) {
		if (!strcmp(argv[i], "-")) {
			pr_err("report reads files, not standard input: save the summary to a file");
			return SQW_EXIT_USAGE;
		}
	}
	/* No output over a run it reads (a log is not to be replaced by a table),
	 * and one document at most on standard output. */
	{
		struct outfile_arg outs[3] = { { "--markdown", md, false }, { "--json", json, false },
					       { "--svg", svg, false } };
		struct outfile_arg *ins = calloc((size_t)(argc - optind), sizeof(*ins));
		char err[1024];
		int r;

		if (!ins) {
			pr_err("out of memory");
			return SQW_EXIT_RUNTIME;
		}
		for (i = optind; i < argc; i++)
			ins[i - optind] = (struct outfile_arg){ "a run", argv[i], false };
		r = outfile_check(outs, 3, ins, (size_t)(argc - optind), !quiet, err, sizeof(err));
		free(ins);
		if (r < 0) {
			pr_err("%s", err);
			return SQW_EXIT_USAGE;
		}
	}
	for (i = optind; i < argc; i++) {
		char err[1024];
		bool io = false;
		int rc = 0;
		enum input_kind kind = input_kind(argv[i]);
		struct jv *doc = NULL;

		if (kind == IN_OTHER) {
			/* a capture, an edge list, a trace: its analysis is what report reads */
			pr_err("%s: neither a sqwave log nor a JSON summary or analysis (a capture "
			       "or an edge list? sqwave analyze FILE --json FILE.json, then report "
			       "that)", OUTFILE_ESC(argv[i]));
			report_free(&rep);
			return SQW_EXIT_USAGE;
		}
		doc = kind == IN_LOG ? log_doc(argv[i], &rc, err, sizeof(err))
				     : jsonread_file(argv[i], &io, err, sizeof(err));

		if (!doc || (trend ? trend_add_doc(&tr, doc, argv[i], err, sizeof(err))
			     : report_add_doc(&rep, doc, argv[i], err, sizeof(err))) < 0) {
			pr_err("%s", err);
			jv_free(doc);
			report_free(&rep);
			trend_free(&tr);
			return rc ? rc : doc || !io ? SQW_EXIT_USAGE : SQW_EXIT_RUNTIME;
		}
		jv_free(doc);
	}
	if (trend) {
		trend_sort(&tr);
		if (!quiet && !on_stdout)
			trend_write_text(stdout, &tr);
		if (json && write_trend(json, trend_write_json, &tr) < 0)
			ret = SQW_EXIT_RUNTIME;
		if (svg && write_trend(svg, trend_write_svg, &tr) < 0)
			ret = SQW_EXIT_RUNTIME;
		trend_free(&tr);
		return ret;
	}
	if (!quiet && !on_stdout)
		report_write_text(stdout, &rep);
	if (md && write_to(md, report_write_markdown, &rep) < 0)
		ret = SQW_EXIT_RUNTIME;
	if (json && write_to(json, report_write_json, &rep) < 0)
		ret = SQW_EXIT_RUNTIME;
	if (svg && write_to(svg, report_write_svg, &rep) < 0)
		ret = SQW_EXIT_RUNTIME;
	if (ret == SQW_EXIT_OK && !report_all_pass(&rep))
		ret = SQW_EXIT_LIMIT;
	report_free(&rep);
	return ret;
}
