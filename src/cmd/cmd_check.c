/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave check`: the bring-up checklist, run. Options, the order of the
 * checks, the optional short run and its verdict, text and JSON output.
 * Also `run --preflight`, which is the same checks without the timed ones. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config/cfgpath.h"
#include "check/check.h"
#include "check/check_gpio.h"
#include "check/check_noise.h"
#include "check/check_run.h"
#include "check/preflight.h"
#include "check/check_sys.h"
#include "cmd/cmd_check.h"
#include "cmd/cmdline.h"
#include "config/config.h"
#include "log/edge.h"
#include "gpio/gpio_out.h"
#include "base/json.h"
#include "base/outfile.h"
#include "cmd/print.h"
#include "cmd/runexit.h"
#include "base/sysinfo.h"
#include "base/units.h"

struct check_opts {
	const char *board, *profile, *json, *junit, *root;
	char board_path[PATH_MAX], profile_path[PATH_MAX];
	int64_t run_ns;            /* --run DUR; 0: no run */
	int64_t hwlat_ns;          /* --hwlat[=DUR]; 0: not run */
	int64_t hwlat_thresh_ns;   /* --hwlat-threshold DUR */
	bool strict, verbose;
	unsigned int edges, writes;
};

/* The verdict of the whole short run: FAIL when the run's own verdict
 * failed or any line's log did, else NO LIMITS or PASS as its lines (one set
 * of limits); null when its logs were not read. */
static const char *run_word(const struct check_run *cr)
{
	bool run_failed = cr->verdict == VERDICT_FAIL;
	size_t i;

	if (!cr->judged)
		return NULL;
	for (i = 0; i < cr->nlines; i++)
		if (!strcmp(check_run_word(run_failed, &cr->lines[i].fig), "FAIL"))
			return "FAIL";
	return check_run_word(run_failed, &cr->lines[0].fig);
}

/* One polarity's widths of check --run: null without a pulse of it. */
static void run_widths_json(struct json_writer *w, const char *key, const struct check_run_widths *cw)
{
	if (!cw->n) {
		json_kv_null(w, key);
		return;
	}
	json_kv_object_begin(w, key);
	json_kv_uint(w, "count", cw->n);
	json_kv_int(w, "tmin_ns", cw->tmin_ns);
	json_kv_int(w, "tmax_ns", cw->tmax_ns);
	json_kv_int(w, "tmin_bound_ns", cw->tmin_lo_ns);
	json_kv_int(w, "tmax_bound_ns", cw->tmax_hi_ns);
	json_object_end(w);
}

/* One line's figures of check --run, into the current object. */
static void run_figs_json(struct json_writer *w, const struct check_run_fig *g)
{
	json_kv_uint(w, "edges", g->edges);
	json_kv_uint(w, "missed_periods", g->missed);
	json_kv_uint(w, "pulses_far", g->far);
	json_kv_int(w, "pulses_far_off_ns", check_run_far_ns(&g->pin));
	json_kv_int(w, "tmin_ns", g->w[2].tmin_ns);
	json_kv_int(w, "tmax_ns", g->w[2].tmax_ns);
	json_kv_int(w, "tmin_bound_ns", g->w[2].tmin_lo_ns);
	json_kv_int(w, "tmax_bound_ns", g->w[2].tmax_hi_ns);
	run_widths_json(w, "positive", &g->w[PIN_POS]);
	run_widths_json(w, "negative", &g->w[PIN_NEG]);
	json_key(w, "pin");
	pin_json_write(w, &g->pin);
	json_kv_int(w, "wake_p99_ns", g->wake_p99_ns);
	json_kv_int(w, "wake_max_ns", g->wake_max_ns);
}

static void check_usage(FILE *f)
{
	fprintf(f,
		"usage: sqwave check [--board FILE|NAME] [--profile FILE|NAME] [--json FILE]\n"
		"                    [--junit FILE] [--strict] [--hwlat[=DURATION]]\n"
		"                    [--run DURATION] [OPTIONS]\n\n"
		"Check this machine and the board's GPIO lines for a real-time square wave:\n"
		"kernel and scheduler, CPU isolation and power management, process limits,\n"
		"the output line and what a write costs, the board file's unverified facts,\n"
		"and the loopback wire. Every finding is listed: PASS, WARN, FAIL or SKIP,\n"
		"with the value seen, why it matters, and the fix (docs/check.md).\n\n"
		"  --board FILE|NAME   board file, or a name looked up like `sqwave boards`\n"
		"  --profile FILE|NAME profile: half period, rt.cpu, rt.priority, ...\n"
		"  --json FILE         also write the findings as JSON (- : stdout, text to stderr)\n"
		"  --junit FILE        also write the findings as JUnit XML, a test case each\n"
		"                      (- : stdout); the --run's own: --set output.junit=FILE\n"
		"  --strict            a WARN fails too (exit 1)\n"
		"  --hwlat[=DURATION]  run the kernel's hwlat tracer (default %gs): hardware noise\n"
		"  --hwlat-threshold DURATION  gaps above this count (default %gus)\n"
		"  --run DURATION      end with a short real run (`sqwave run`) and its verdict\n"
		"  --edges N           edges of the loopback test (default %d)\n"
		"  --writes N          writes of the write-cost probe (default %d)\n"
		"  --root DIR          read /proc and /sys under DIR (tests, a copied tree)\n"
		"  -v, --verbose       why and fix for PASS lines too\n"
		"  --set KEY=VALUE     and every run option below (--cpu, --priority, --chip...)\n"
		"  -h, --help          this help\n\n"
		"exit: 0 no FAIL, 1 a FAIL (or a WARN with --strict), 2 usage, 3 could not check\n\n",
		(double)NOISE_HWLAT_DEFAULT_NS / 1e9, (double)NOISE_HWLAT_THRESHOLD_NS / 1e3,
		CHECK_EDGES, CHECK_WRITES);
	config_print_help(f);
}

/* check's own options, in the config table's grammar */
static const struct cfg_item opt_run = CMDLINE_DURATION("run", 1000000, INT64_C(86400000000000), "s");
static const struct cfg_item opt_hwlat = CMDLINE_DURATION("hwlat", 1000000, INT64_C(86400000000000), "s");
static const struct cfg_item opt_hwlat_thresh = CMDLINE_DURATION("hwlat-threshold", 1000, 1000000000, "us");
static const struct cfg_item opt_edges = CMDLINE_INT("edges", 2, 1000000, NULL);
static const struct cfg_item opt_writes = CMDLINE_INT("writes", 2, 1000000, NULL);

static int parse_count(const struct cfg_item *it, const char *s, unsigned int *out)
{
	char err[256];
	int64_t v;

	if (cmdline_value(it, NULL, s, &v, err, sizeof(err)) != CFG_OK) {
		pr_err("%s", err);
		return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

/* check's own options first: getopt_long takes the first match, and
 * check's --json and --junit are its report, not the run's output.json and
 * output.junit; then the
 * configuration's. Also for the man page and the completion (main.c). */
size_t cmd_check_options(struct option *out, size_t max)
{
	static const struct option own[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "junit", required_argument, NULL, 'U' },
		{ "strict", no_argument, NULL, 'S' },
		{ "run", required_argument, NULL, 'r' },
		{ "hwlat", optional_argument, NULL, 'H' },
		{ "hwlat-threshold", required_argument, NULL, 'T' },
		{ "root", required_argument, NULL, 'R' },
		{ "edges", required_argument, NULL, 'E' },
		{ "writes", required_argument, NULL, 'W' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	size_t n = cmdline_options_copy(out, max, own);

	return n + cmdline_config_options(out + n, max - n);
}

void cmd_check_help(FILE *f)
{
	check_usage(f);
}

/* Whether check's text goes to stderr: a report of it is on stdout. */
static bool check_text_moved(const struct check_opts *o)
{
	return (o->json && !strcmp(o->json, "-")) || (o->junit && !strcmp(o->junit, "-"));
}

/* Options into @c and @o. 0, 1 (--help), or -1 (usage error, said). */
static int check_parse(struct config *c, int argc, char **argv, struct check_opts *o)
{
	struct option opts[CMDLINE_CONFIG_OPTIONS + 16];
	size_t n;
	char err[1024];
	int ch, idx = 0;

	n = cmd_check_options(opts, sizeof(opts) / sizeof(opts[0]) - 1);
	opts[n] = (struct option){ 0 };

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+b:p:s:vh", opts, &idx)) != -1) {
		switch (ch) {
		case 'b':
			o->board = optarg;
			continue;
		case 'p':
			o->profile = optarg;
			continue;
		case 'j':
			o->json = optarg;
			continue;
		case 'U':
			o->junit = optarg;
			continue;
		case 'S':
			o->strict = true;
			continue;
		case 'R':
			o->root = optarg;
			continue;
		case 'v':
			o->verbose = true;
			continue;
		case 'h':
			check_usage(stdout);
			return 1;
		case 'r':
			if (cmdline_value(&opt_run, NULL, optarg, &o->run_ns, err, sizeof(err)) != CFG_OK) {
				pr_err("%s", err);
				return -1;
			}
			continue;
		case 'H':
			o->hwlat_ns = NOISE_HWLAT_DEFAULT_NS;
			if (optarg && cmdline_value(&opt_hwlat, NULL, optarg, &o->hwlat_ns, err,
						    sizeof(err)) != CFG_OK) {
				pr_err("%s", err);
				return -1;
			}
			continue;
		case 'T':
			if (cmdline_value(&opt_hwlat_thresh, NULL, optarg, &o->hwlat_thresh_ns, err,
					  sizeof(err)) != CFG_OK) {
				pr_err("%s", err);
				return -1;
			}
			continue;
		case 'E':
			if (parse_count(&opt_edges, optarg, &o->edges))
				return -1;
			continue;
		case 'W':
			if (parse_count(&opt_writes, optarg, &o->writes))
				return -1;
			continue;
		default:	/* --set, a run option (the config table's), or refused */
			switch (cmdline_config_apply(c, ch, &opts[idx], optarg, err, sizeof(err))) {
			case 1:
				continue;
			case 0:
				cmdline_refused(opts, "+b:p:s:vh", argv, optind, optopt, "check", err,
						sizeof(err));
			}
			pr_err("%s", err);
			return -1;
		}
	}
	if (optind < argc) {
		pr_err("unexpected argument \"%s\"; try 'sqwave check --help'", argv[optind]);
		return -1;
	}
	if (cfgpath_load(c, o->board, o->profile, o->board_path, o->profile_path, err,
			 sizeof(err))) {
		pr_err("%s", err);
		return -1;
	}
	/* The run's documents are the short run's: asked for on the command
	 * line without --run, nothing would write them, and nothing would
	 * say so (a profile's or board file's are left as they are) */
	if (!o->run_ns) {
		static const enum cfg_key run_docs[] = { CFG_OUTPUT_JSON, CFG_OUTPUT_JUNIT,
							 CFG_OUTPUT_RESULTS, CFG_OUTPUT_KCIDB };
		size_t k;

		for (k = 0; k < sizeof(run_docs) / sizeof(run_docs[0]); k++) {
			char key[64];

			if (config_source(c, run_docs[k]) != CFG_SRC_CMDLINE ||
			    !config_str(c, run_docs[k])[0])
				continue;
			pr_err("%s is a document of the short run, and there is none without "
			       "--run DURATION; check's own findings: --json FILE, --junit FILE",
			       config_key_name(run_docs[k], key, sizeof(key)));
			return -1;
		}
	}
	/* check's reports and the short run's documents are one set of
	 * outputs: two on standard output would interleave (check --json - or
	 * check's text, beside --junit - or --set output.json=-); without --run
	 * the run's are not written at all */
	{
		bool text_moved = check_text_moved(o);
		const struct outfile_arg outs[] = {
			{ "--json", o->json, false },
			{ "--junit", o->junit, false },
			{ "check's text", text_moved ? NULL : "-", false },
			{ "output.json", o->run_ns ? config_str(c, CFG_OUTPUT_JSON) : NULL, false },
			{ "output.junit", o->run_ns ? config_str(c, CFG_OUTPUT_JUNIT) : NULL, false },
			{ "output.results", o->run_ns ? config_str(c, CFG_OUTPUT_RESULTS) : NULL, false },
			{ "output.kcidb", o->run_ns ? config_str(c, CFG_OUTPUT_KCIDB) : NULL, false },
		};

		if (outfile_check(outs, sizeof(outs) / sizeof(outs[0]), NULL, 0, false, err,
				  sizeof(err)) < 0) {
			pr_err("%s", err);
			return -1;
		}
	}
	return 0;
}

/* ---- JSON ------------------------------------------------------------------------------ */

struct check_doc {
	const struct config *c;
	const struct check_opts *o;
	const struct check_report *r;
	const struct check_run *cr;
	const struct check_noise_result *nr;
};

/* What the noise step measured: null where it did not. */
static void noise_doc(struct json_writer *w, const struct check_noise_result *nr)
{
	json_kv_object_begin(w, "noise");
	json_kv_bool(w, "hwlat_tracer", nr->has_hwlat);
	if (nr->ran) {
		json_kv_object_begin(w, "hwlat");
		json_kv_int(w, "duration_ns", nr->run_ns);
		json_kv_int(w, "threshold_ns", nr->threshold_ns);
		json_kv_uint(w, "width_us", NOISE_HWLAT_WIDTH_US);
		json_kv_uint(w, "window_us", NOISE_HWLAT_WINDOW_US);
		json_kv_uint(w, "samples", nr->st.samples);
		json_kv_uint(w, "crossings", nr->st.crossings);
		json_kv_uint(w, "max_gap_us", nr->st.max_gap_us);
		json_kv_uint(w, "max_inner_us", nr->st.max_inner_us);
		json_kv_uint(w, "max_outer_us", nr->st.max_outer_us);
		if (nr->st.crossings)
			json_kv_int(w, "mtbf_ns", nr->mtbf_ns);
		else
			json_kv_null(w, "mtbf_ns");
		json_object_end(w);
	} else {
		json_kv_null(w, "hwlat");
	}
	if (nr->smi_known) {
		json_kv_object_begin(w, "smi");
		json_kv_int(w, "cpus", nr->smi_cpus);
		json_kv_uint(w, "since_boot", nr->smi_since_boot);
		if (nr->smi_delta)
			json_kv_uint(w, "during_hwlat", nr->smi_during);
		else
			json_kv_null(w, "during_hwlat");
		json_object_end(w);
	} else {
		json_kv_null(w, "smi");
	}
	json_object_end(w);
}

static void check_doc(struct json_writer *w, const void *ctx)
{
	const struct check_doc *d = ctx;
	const struct config *c = d->c;
	const struct check_opts *o = d->o;
	const struct check_report *r = d->r;
	const struct check_run *cr = d->cr;
	unsigned cnt[CHECK_NSTATUS];
	struct check_sys_host h;

	check_counts(r, cnt);
	json_object_begin(w);
	json_kv_string(w, "schema", "sqwave-check");
	json_kv_int(w, "schema_version", 1);
	json_kv_string(w, "sqwave_version", SQW_VERSION);
	json_kv_object_begin(w, "board");
	json_kv_string(w, "name", config_str(c, CFG_BOARD_NAME));
	json_kv_string(w, "file", o->board_path[0] ? o->board_path : NULL);
	json_object_end(w);
	json_kv_string(w, "profile", o->profile_path[0] ? o->profile_path : NULL);
	json_kv_bool(w, "strict", o->strict);
	json_kv_string(w, "root", o->root);
	json_kv_bool(w, "tree", !sysinfo_root_is_live(o->root));
	check_sys_host_read(o->root, &h);
	json_kv_object_begin(w, "host");
	json_kv_string(w, "hostname", h.hostname[0] ? h.hostname : NULL);
	json_kv_string(w, "kernel_release", h.kernel[0] ? h.kernel : NULL);
	if (h.ncpus)
		json_kv_int(w, "cpus", h.ncpus);
	else
		json_kv_null(w, "cpus");
	json_object_end(w);
	json_kv_string(w, "result", check_status_name(check_result(r, o->strict)));
	json_kv_int(w, "exit_code", check_exit_code(r, o->strict));
	json_kv_string(w, "incomplete", r->incomplete ? r->incomplete_why : NULL);
	json_kv_object_begin(w, "counts");
	json_kv_uint(w, "pass", cnt[CHECK_PASS]);
	json_kv_uint(w, "warn", cnt[CHECK_WARN]);
	json_kv_uint(w, "fail", cnt[CHECK_FAIL]);
	json_kv_uint(w, "skip", cnt[CHECK_SKIP]);
	json_object_end(w);
	json_key(w, "findings");
	check_write_json(w, r);
	noise_doc(w, d->nr);
	if (cr->done) {
		size_t i;

		json_kv_object_begin(w, "run");
		json_kv_string(w, "log", cr->log);
		json_kv_int(w, "exit_code", cr->exit_code);
		json_kv_int(w, "duration_ns", o->run_ns);
		json_kv_string(w, "verdict", run_word(cr));
		json_kv_bool(w, "limits_set", cr->judged &&
			     cr->lines[0].fig.verdict != VERDICT_NO_LIMITS);
		if (cr->judged)	/* the first line's figures: the only one's */
			run_figs_json(w, &cr->lines[0].fig);
		if (cr->judged && cr->nlines > 1) {	/* each line's own */
			json_kv_array_begin(w, "lines");
			for (i = 0; i < cr->nlines; i++) {
				json_object_begin(w);
				json_kv_string(w, "line", cr->lines[i].line);
				json_kv_string(w, "log", cr->lines[i].log);
				json_kv_string(w, "verdict", check_run_word(false, &cr->lines[i].fig));
				run_figs_json(w, &cr->lines[i].fig);
				json_object_end(w);
			}
			json_array_end(w);
		} else {
			json_kv_null(w, "lines");
		}
		json_object_end(w);
	} else {
		json_kv_null(w, "run");
	}
	json_object_end(w);
}

static int write_json(const char *path, const struct config *c, const struct check_opts *o,
		      const struct check_report *r, const struct check_run *cr,
		      const struct check_noise_result *nr, char *err, size_t errlen)
{
	const struct check_doc d = { c, o, r, cr, nr };

	return json_write_document(path, check_doc, &d, err, errlen);
}

/* The findings as JUnit (check_write_junit()), from @t0 (the check's
 * start) to now, with the host as the JSON names it. */
static int write_junit(const char *path, const struct config *c, const struct check_opts *o,
		       const struct check_report *r, const struct timespec *t0, char *err,
		       size_t errlen)
{
	struct check_sys_host h;
	struct timespec t1;
	struct check_junit_info ji = {
		.board = config_str(c, CFG_BOARD_NAME),
		.board_file = o->board_path,
		.profile = o->profile_path,
		.root = o->root,
		.strict = o->strict,
		.start_realtime_ns = (uint64_t)t0->tv_sec * 1000000000u + (uint64_t)t0->tv_nsec,
	};

	clock_gettime(CLOCK_REALTIME, &t1);
	ji.end_realtime_ns = (uint64_t)t1.tv_sec * 1000000000u + (uint64_t)t1.tv_nsec;
	check_sys_host_read(o->root, &h);
	ji.hostname = h.hostname;
	ji.kernel = h.kernel;
	return check_write_junit(path, r, &ji, err, errlen);
}

int cmd_check(int argc, char **argv)
{
	struct check_opts o = { .root = "/", .edges = CHECK_EDGES, .writes = CHECK_WRITES };
	struct check_run cr = { 0 };
	struct check_noise_result nr;
	struct check_noise_params np = { 0 };
	struct config *c = config_new();
	char err[512];
	struct check_report r;
	struct timespec t0;
	FILE *text;
	int ret;

	if (!c) {
		pr_err("out of memory");
		return SQW_EXIT_RUNTIME;
	}
	ret = check_parse(c, argc, argv, &o);
	if (ret) {
		config_free(c);
		return ret > 0 ? SQW_EXIT_OK : SQW_EXIT_USAGE;
	}
	/* With the JSON or the JUnit on stdout, the text goes to stderr. */
	text = check_text_moved(&o) ? stderr : stdout;
	clock_gettime(CLOCK_REALTIME, &t0);
	check_report_init(&r);
	check_print_header(text, c, o.board_path, o.profile_path, o.root);
	fflush(text);
	np.hwlat_ns = o.hwlat_ns;
	np.threshold_ns = o.hwlat_thresh_ns ? o.hwlat_thresh_ns / 1000 * 1000
			  : NOISE_HWLAT_THRESHOLD_NS;
	np.out = &nr;
	if (o.hwlat_ns)
		fprintf(stderr, "check: the hwlat tracer runs for %s after the system checks\n",
			units_format_duration(o.hwlat_ns, (char[32]){ 0 }, 32));
	check_collect_all(&r, c, o.root, true, o.edges, o.writes, &np);
	if (o.run_ns)	/* the run's summary where the check's text goes */
		check_run_short(&r, c, &(struct check_run_params){
			.board_path = o.board_path, .profile_path = o.profile_path,
			.root = o.root, .run_ns = o.run_ns, .text = text, .note = stderr,
			.say = print_session_say, .exit_code = runexit_code }, &cr);
	if (cr.done)
		fputc('\n', text);
	check_print_text(text, &r, o.strict, o.verbose);
	ret = check_exit_code(&r, o.strict);
	if (o.json && write_json(o.json, c, &o, &r, &cr, &nr, err, sizeof(err))) {
		pr_err("the JSON report: %s", err);
		ret = SQW_EXIT_RUNTIME;
	}
	if (o.junit && write_junit(o.junit, c, &o, &r, &t0, err, sizeof(err))) {
		pr_err("the JUnit report: %s", err);
		ret = SQW_EXIT_RUNTIME;
	}
	if (fflush(stdout) || ferror(stdout)) {
		pr_err("cannot write to standard output: %s", strerror(errno));
		ret = SQW_EXIT_RUNTIME;
	}
	check_report_free(&r);
	check_run_free(&cr);
	config_free(c);
	return ret;
}
