/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave run` and `sqwave respond`: the command line into a configuration,
 * then the run session (run/session.h, timed wave or answers to the input's
 * events) and its report (run/runreport.h), or with --preflight the checks
 * that move nothing (check/preflight.h); its messages printed, its exit code
 * decided from what the run ended with (cmd/runexit.h). */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check/preflight.h"
#include "cmd/cmd_run.h"
#include "cmd/cmdline.h"
#include "cmd/print.h"
#include "cmd/runexit.h"
#include "config/cfgpath.h"
#include "config/config.h"
#include "config/plan.h"
#include "run/runreport.h"
#include "run/session.h"
#ifndef SQW_BOARD_BUILD
#include "base/msgbuf.h"
#include "compare/comparecheck.h"
#include "compare/comparedoc.h"
#include "instrument/scopedialect.h"
#endif

/* What run's command line gave besides the configuration. */
struct run_args {
	const char *cmd;              /* "run" or "respond" */
	const char *board, *profile;  /* after load_config: the paths found */
	bool preflight;
	const char *scope;            /* --scope TARGET, or NULL */
	const char *scope_channel;    /* --scope-channel CH */
	char board_path[PATH_MAX], profile_path[PATH_MAX];
};

static void run_usage(FILE *f)
{
	fprintf(f,
		"usage: sqwave run --board FILE|NAME [--profile FILE|NAME] [--set KEY=VALUE ...] [OPTIONS]\n"
		"       sqwave run --chip CHIP --line LINE [--profile FILE|NAME] [OPTIONS]\n\n"
		"Toggle the board's output line every half period from a SCHED_FIFO thread\n"
		"woken by an absolute timerfd; log every edge; print a summary and a verdict.\n\n"
		"  --board FILE|NAME   board file (boards/*.yaml): the line, the backend; a\n"
		"                      NAME is looked up (`sqwave boards` lists them)\n"
		"  --profile FILE|NAME run profile (config/*.yaml): duration, limits\n"
		"  --set KEY=VALUE     set any key (section.name), see the list below\n"
		"  --load KIND[:KEY=VALUE...][:ARG...]\n"
		"                      run a load beside the wave (repeatable): coremark,\n"
		"                      ping-flood, stress-ng, hackbench, command, expect-traffic;\n"
		"                      e.g. --load coremark --load ping-flood:size=1400\n"
		"                      (a profile's phases: and load: lists do more)\n"

		"  --preflight         the checks of `sqwave check` that do not move the pin:\n"
		"                      exit 0 no FAIL, 1 a FAIL; then stop (docs/check.md)\n"
		"  --scope TARGET      an oscilloscope on the pin (lab build): its +width and\n"
		"                      -width statistics set up and reset over SCPI when the\n"
		"                      counted edges begin, read at the end, logged as notes\n"
		"                      and judged with what their count covers; HOST[:PORT] or\n"
		"                      /dev/usbtmcN (docs/instruments.md)\n"
		"  --scope-channel CH  the scope's channel on the pin (default 1)\n"
		"  -h, --help          this help\n\n"
		"Precedence: command line > profile > board file > defaults.\n"
		"Durations take units: ns, us, ms, s, m, h.\n\n");
	config_print_help(f);
}

/* run's own options first (getopt_long takes the first match), then the
 * configuration's; also for the man page and the completion (main.c). */
static size_t options_of(struct option *out, size_t max, bool run)
{
	static const struct option own[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "preflight", no_argument, NULL, 'P' },
		{ "load", required_argument, NULL, 'L' },
		{ 0 },
	};
	/* run's alone: a scope across respond's two pins measures delays */
	static const struct option scope[] = {
		{ "scope", required_argument, NULL, 'S' },
		{ "scope-channel", required_argument, NULL, 'C' },
		{ 0 },
	};
	size_t n = cmdline_options_copy(out, max, own);

	if (run)
		n += cmdline_options_copy(out + n, max - n, scope);
	return n + cmdline_config_options(out + n, max - n);
}

size_t cmd_run_options(struct option *out, size_t max)
{
	return options_of(out, max, true);
}

void cmd_run_help(FILE *f)
{
	run_usage(f);
}

static void respond_usage(FILE *f)
{
	fprintf(f,
		"usage: sqwave respond --board FILE|NAME [--profile FILE|NAME] [--set KEY=VALUE ...] [OPTIONS]\n"
		"       sqwave respond --chip CHIP --line LINE --input-line LINE [OPTIONS]\n\n"
		"Answer every edge event of the board's input line on its output line from a\n"
		"SCHED_FIFO thread (follow the input, toggle, or a pulse per event); log each\n"
		"event's kernel timestamp and sequence number, the wake-up and the write; print\n"
		"the response latency, what a scope between the two pins will show, and a\n"
		"verdict (docs/respond.md).\n\n"
		"  --board FILE|NAME   board file (boards/*.yaml): the output line (gpio), the\n"
		"                      input line (input), the backend\n"
		"  --profile FILE|NAME profile (config/*.yaml): duration, respond.*, limits\n"
		"  --set KEY=VALUE     set any key (section.name), see the list below\n"
		"  --load KIND[:KEY=VALUE...][:ARG...]\n"
		"                      run a load beside the answers (repeatable), as for run\n"
		"  --preflight         the checks of `sqwave check` that do not move the pin\n"
		"  -h, --help          this help\n\n"
		"Precedence: command line > profile > board file > defaults.\n"
		"Durations take units: ns, us, ms, s, m, h.\n\n");
	config_print_help(f);
}

size_t cmd_respond_options(struct option *out, size_t max)
{
	return options_of(out, max, false);
}

void cmd_respond_help(FILE *f)
{
	respond_usage(f);
}

/* Options into @c and @a. 0, 1 (--help), or -1 (usage error, said). */
static int load_config(struct config *c, int argc, char **argv, struct run_args *a)
{
	struct option opts[CMDLINE_CONFIG_OPTIONS + 6];
	size_t n;
	char err[1024];
	int ch, idx = 0;

	n = options_of(opts, sizeof(opts) / sizeof(opts[0]) - 1, !strcmp(a->cmd, "run"));
	opts[n] = (struct option){ 0 };

	/* The command line is applied first: it wins over files by source rank. */
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+b:p:s:h", opts, &idx)) != -1) {
		switch (ch) {
		case 'b':
			a->board = optarg;
			continue;
		case 'p':
			a->profile = optarg;
			continue;
		case 'h':
			if (!strcmp(a->cmd, "respond"))
				respond_usage(stdout);
			else
				run_usage(stdout);
			return 1;
		case 'P':
			a->preflight = true;
			continue;
		case 'S':
		case 'C':
#ifdef SQW_BOARD_BUILD
			pr_err("--%s: talking to a scope and judging its reading is the lab's: this "
			       "board build has no instruments; use the full build (make without "
			       "BOARD=1), or read the scope after the run with `sqwave scope` there",
			       ch == 'S' ? "scope" : "scope-channel");
			return -1;
#else
			if (ch == 'S')
				a->scope = optarg;
			else
				a->scope_channel = optarg;
			continue;
#endif
		case 'L':
			if (plan_add_cmdline_load(config_plan_mut(c), optarg, err, sizeof(err)) != CFG_OK) {
				pr_err("--load %s: %s", optarg, err);
				return -1;
			}
			continue;
		default:	/* --set, a configuration key's option, or refused */
			switch (cmdline_config_apply(c, ch, &opts[idx], optarg, err, sizeof(err))) {
			case 1:
				continue;
			case 0:
				cmdline_refused(opts, "+b:p:s:h", argv, optind, optopt, a->cmd, err,
						sizeof(err));
			}
			pr_err("%s", err);
			return -1;
		}
	}
	if (optind < argc) {
		pr_err("unexpected argument \"%s\"; try 'sqwave %s --help'", argv[optind], a->cmd);
		return -1;
	}
	/* Short names are looked up (cfgpath.h); the paths replace them. */
	if (cfgpath_load(c, a->board, a->profile, a->board_path, a->profile_path, err,
			 sizeof(err))) {
		pr_err("%s", err);
		return -1;
	}
	a->board = a->board_path[0] ? a->board_path : "--chip/--line";
	a->profile = a->profile_path[0] ? a->profile_path : NULL;
	if (plan_finalize(config_plan_mut(c), c, err, sizeof(err)) != CFG_OK) {
		pr_err("%s", err);
		return -1;
	}
	return 0;
}

#ifndef SQW_BOARD_BUILD
/* run --scope: the scope beside the run, and what it read. */
struct run_scope {
	const char *target;
	int channel;
	bool setup_ok, read_ok;
	struct scope_reading r;
	char err[1024];
	struct compare_opts o;        /* the judgement, after the run */
	struct compare *c;
};

static void note_stat(struct msgbuf_out *o, const char *pol, const struct scope_stat *st)
{
	if (!st->valid) {
		msgbuf_out_add(o, "%s_valid=0\n", pol);
		return;
	}
	msgbuf_out_add(o, "%s_valid=1\n%s_min_ns=%lld\n%s_max_ns=%lld\n", pol, pol,
		       llround(st->min_s * 1e9), pol, llround(st->max_s * 1e9));
	if (st->count_known)
		msgbuf_out_add(o, "%s_count=%llu\n", pol, (unsigned long long)st->count);
}

/* The session's instrument hook (run/session.h): main thread, never the
 * RT thread; a few lines of SCPI at the counted edges' start and at the
 * end, a note for the log each time. */
static void run_scope_hook(void *ctx, bool start, char *note, size_t len)
{
	struct run_scope *sc = ctx;
	struct msgbuf_out o;

	msgbuf_out_init(&o, note, len);
	msgbuf_out_add(&o, "instrument=scope\nphase=%s\ntarget=%s\nchannel=%d\n",
		       start ? "setup" : "read", sc->target, sc->channel);
	if (start) {
		sc->setup_ok = !scopedialect_setup_target(sc->target, SCPI_TIMEOUT_MS, sc->channel,
							  &sc->r, sc->err, sizeof(sc->err));
	} else {
		if (!sc->setup_ok) {
			note[0] = '\0';
			return;
		}
		sc->read_ok = !scopedialect_read_target(sc->target, SCPI_TIMEOUT_MS, sc->channel,
							&sc->r, sc->err, sizeof(sc->err));
	}
	if (start ? !sc->setup_ok : !sc->read_ok) {
		pr_warn("--scope: %s", sc->err);
		msgbuf_out_add(&o, "error=%s\n", sc->err);
		return;
	}
	msgbuf_out_add(&o, "idn=%s\ndialect=%s\n", sc->r.idn, scopedialect_name(sc->r.d));
	if (!start) {
		note_stat(&o, "pos", &sc->r.stat[SCOPE_POS]);
		note_stat(&o, "neg", &sc->r.stat[SCOPE_NEG]);
	}
}

/* A scope's reading that could not be judged: a skipped check, said, so
 * that no document shows the run as cross-checked when it was not. */
static void run_scope_unjudged(struct verdict_result *v, const char *why)
{
	struct verdict_check ck = { .name = "reading", .instrument = "scope",
				    .result = VERDICT_CHECK_SKIP, .message = why };

	pr_warn("--scope: %s", why);
	if (verdict_result_add_check(v, &ck) < 0)
		pr_warn("--scope: out of memory: the skipped reading is not in the documents");
}

/* The session's judge hook (run/session.h): once the log is closed, the
 * scope's reading against it, as `compare LOG --scope` would
 * (docs/instruments.md), its checks in the run's verdict; the comparison
 * is kept for its text after the summary. */
static void run_scope_judge(void *ctx, const char *log, struct verdict_result *v)
{
	struct run_scope *sc = ctx;
	char err[1024], why[1200];

	if (!sc->setup_ok || !sc->read_ok) {
		snprintf(why, sizeof(why), "the scope's reading is not judged: %s",
			 sc->setup_ok || sc->err[0] ? sc->err
			 : "the run ended before its counted edges began (never set up)");
		run_scope_unjudged(v, why);
		return;
	}
	compare_opts_init(&sc->o);
	sc->o.run = log;
	if (!compare_opts_scope(&sc->o, &sc->r, sc->target)) {
		snprintf(why, sizeof(why), "%s measured no valid width on channel %d: nothing to "
			 "judge", sc->target, sc->channel);
		run_scope_unjudged(v, why);
		return;
	}
	if (compare_run(&sc->o, &sc->c, err, sizeof(err)) != COMPARE_OK) {
		snprintf(why, sizeof(why), "judging the reading: %s", err);
		run_scope_unjudged(v, why);
		return;
	}
	if (comparecheck_add(sc->c, v) < 0)
		pr_warn("--scope: out of memory: the reading's checks are not all in the documents");
}

/* After the summary: the comparison's text, as `compare LOG --scope` says it. */
static void run_scope_print(struct run_scope *sc, FILE *out)
{
	if (!sc->c)
		return;
	fprintf(out, "\n");
	comparedoc_print_text(out, sc->c);
	compare_free(sc->c);
	sc->c = NULL;
}
#endif

static int run_or_respond(int argc, char **argv, const char *cmd)
{
	struct config *c = config_new();
	struct run_args a = { .cmd = cmd };
	struct run_session *s;
	char err[2048];
	int ret;

	if (!c) {
		pr_err("out of memory");
		return SQW_EXIT_RUNTIME;
	}
	ret = load_config(c, argc, argv, &a);
	if (ret) {
		config_free(c);
		return ret > 0 ? SQW_EXIT_OK : SQW_EXIT_USAGE;
	}
	struct run_session_params sp = {
		.cfg = c, .board_file = a.board, .profile_file = a.profile,
		.respond = !strcmp(cmd, "respond"), .preflight = a.preflight, .status = stderr,
		.say = print_session_say };
#ifndef SQW_BOARD_BUILD
	struct run_scope sc = { .target = a.scope, .channel = 1 };

	if (a.scope_channel && !a.scope) {
		pr_err("--scope-channel is the channel of --scope TARGET");
		config_free(c);
		return SQW_EXIT_USAGE;
	}
	if (a.scope_channel && (sc.channel = scopedialect_channel_parse(a.scope_channel)) < 0) {
		pr_err("--scope-channel '%s': an analog channel, 1 to 8 (or CH1, C1, CHAN1)",
		       a.scope_channel);
		config_free(c);
		return SQW_EXIT_USAGE;
	}
	if (a.scope && !a.preflight) {
		sp.instrument = run_scope_hook;
		sp.instrument_judge = run_scope_judge;
		sp.instrument_ctx = &sc;
	}
#endif
	s = run_session_init(&sp, &ret, err, sizeof(err));
	if (!s) {
		pr_err("%s", err);
		config_free(c);
		return ret;
	}
#ifndef SQW_BOARD_BUILD
	if (a.scope && run_session_lines(s) > 1) {
		pr_err("--scope watches one line; this run has %zu (gpio.line)",
		       run_session_lines(s));
		run_session_fini(s);
		config_free(c);
		return SQW_EXIT_USAGE;
	}
#endif
	if (a.preflight) {	/* the checks of `sqwave check`, nothing timed */
		ret = check_preflight(stdout, c, a.board, a.profile);
	} else {
		struct run_end end;

		runreport_finish(s, run_session_run(s), stdout, runexit_code, &end);
		ret = runexit_code(&end);
#ifndef SQW_BOARD_BUILD
		/* where the summary's text went: stderr when a document is on stdout */
		run_scope_print(&sc, !strcmp(config_str(c, CFG_OUTPUT_JSON), "-") ||
				     !strcmp(config_str(c, CFG_OUTPUT_JUNIT), "-") ||
				     !strcmp(config_str(c, CFG_OUTPUT_RESULTS), "-") ||
				     !strcmp(config_str(c, CFG_OUTPUT_KCIDB), "-") ? stderr : stdout);
#endif
		runreport_end_free(&end);
	}
	run_session_fini(s);
	config_free(c);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	return run_or_respond(argc, argv, "run");
}

int cmd_respond(int argc, char **argv)
{
	return run_or_respond(argc, argv, "respond");
}
