/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave run`: load board + profile + command line, open the line, set up
 * RT, run the RT and writer threads, report. The main thread only waits for
 * signals, prints the status line and tears down in reverse order. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "config/cfgpath.h"
#include "report/ciout.h"
#include "cmd/cmd.h"
#include "cmd/cmdline.h"
#include "config/config.h"
#include "loads/contain.h"
#include "log/edgelog.h"
#include "analysis/edgestats.h"
#include "gpio/gpio_in.h"
#include "gpio/gpio_out.h"
#include "run/loopback.h"
#include "base/outfile.h"
#include "analysis/phasestats.h"
#include "config/plan.h"
#include "cmd/print.h"
#include "run/recorder.h"
#include "rt/ring.h"
#include "rt/rtloop.h"
#include "rt/rtsetup.h"
#include "run/soak.h"
#include "run/tracebreak.h"
#include "report/summary.h"
#include "base/sysinfo.h"
#include "base/clock.h"
#include "base/units.h"

#define RUN_LEAD_NS 100000000ull      /* first edge 100 ms after setup */
#define RUN_GRID_OFFSET_NS 250000ull  /* slot 0 at x.250 ms */
#define RUN_RT_STACK (256u * 1024u)
#define WRITER_STACK (256u * 1024u)
#define LOOPBACK_STACK (64u * 1024u)
#define LOOPBACK_GRACE_NS 100000000ll /* events still due after the last edge */

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
		"  -h, --help          this help\n\n"
		"Precedence: command line > profile > board file > defaults.\n"
		"Durations take units: ns, us, ms, s, m, h.\n\n");
	config_print_help(f);
}

/* Duration formatted for messages. */
static const char *dur(int64_t ns, char *buf, size_t len)
{
	units_format_duration(ns, buf, len);
	return buf;
}

/* Limits the run has already broken, from the live figures ("" if none). */
static const char *status_limits(const struct config *c, const struct edgestats_live *l,
				 char *buf, size_t len)
{
	int64_t tmin = config_int(c, CFG_LIMITS_TMIN), tmax = config_int(c, CFG_LIMITS_TMAX);
	int64_t wmax = config_int(c, CFG_LIMITS_WAKE_LATENCY_MAX);
	int64_t mmax = config_int(c, CFG_LIMITS_MISSED_MAX);
	bool pulses = l->width_max_ns > 0;

	snprintf(buf, len, "%s%s%s%s", pulses && tmin && l->width_min_ns < tmin ? " tmin" : "",
		 pulses && tmax && l->width_max_ns > tmax ? " tmax" : "",
		 l->edges && wmax && l->wake_max_ns > wmax ? " wake_latency_max" : "",
		 mmax >= 0 && l->missed_periods > (uint64_t)mmax ? " missed_max" : "");
	return buf;
}

/*
 * The status line: wall clock, progress and ETA, phase, the last interval's
 * worst wake-up and pulse widths, the run's extremes, limits already broken
 * and each load's state. On a terminal it rewrites itself; otherwise it is
 * one plain line per interval (journald, CI logs).
 */
static void status_print(struct recorder *rec, const struct ring *ring, const struct config *c,
			 const struct soak *soak, uint64_t t0, uint64_t measure0, bool tty)
{
	struct edgestats_live live;
	struct recorder_interval iv;
	uint64_t dropped = ring_dropped(ring), now = clock_now_ns(CLOCK_MONOTONIC);
	int64_t elapsed = (int64_t)(now - t0);
	int64_t total = plan_duration(config_plan(c)) + config_int(c, CFG_RUN_WARMUP);
	char e[32], tot[32], clock[16], eta[16] = "-", lim[96], loads[256], ivs[96], ws[48];
	time_t wall = time(NULL), end;
	struct tm tm;

	if (elapsed < 0)
		elapsed = 0;
	recorder_live(rec, &live);
	recorder_interval(rec, &iv);
	localtime_r(&wall, &tm);
	strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	units_format_duration(elapsed / 1000000000 * 1000000000, e, sizeof(e));
	if (plan_duration(config_plan(c))) {
		units_format_duration(total / 1000000000 * 1000000000, tot, sizeof(tot));
		end = wall + (total > elapsed ? (total - elapsed + 999999999) / 1000000000 : 0);
		localtime_r(&end, &tm);
		strftime(eta, sizeof(eta), "%H:%M:%S", &tm);
	} else {
		snprintf(tot, sizeof(tot), "until stopped");
	}
	if (iv.edges)
		snprintf(ivs, sizeof(ivs), "wake max %.1f us, width %s us",
			 iv.wake_max_ns / 1e3,
			 iv.pulses ? (snprintf(ws, sizeof(ws), "%.1f-%.1f", iv.width_min_ns / 1e3,
					       iv.width_max_ns / 1e3), ws) : "-");
	else
		snprintf(ivs, sizeof(ivs), "no edges");
	soak_load_status(soak, loads, sizeof(loads));
	status_limits(c, &live, lim, sizeof(lim));
	/* No pulse measured yet (warm-up, or the first drain still to come):
	 * say so rather than print widths of 0. */
	if (live.width_max_ns)
		snprintf(ws, sizeof(ws), "%.1f-%.1f us", live.width_min_ns / 1e3,
			 live.width_max_ns / 1e3);
	else
		snprintf(ws, sizeof(ws), "-");
	fprintf(stderr,
		"%s%s %s/%s ETA %s | %s | edges %llu | last: %s | all: width %s, "
		"wake max %.1f us, missed %llu, dropped %llu%s%s%s%s",
		tty ? "\r" : "", clock, e, tot, eta,
		now < measure0 ? "warm-up" : soak_phase_name(soak)[0] ? soak_phase_name(soak) : "run",
		(unsigned long long)live.edges, ivs, ws,
		live.edges ? live.wake_max_ns / 1e3 : 0.0, (unsigned long long)live.missed_periods,
		(unsigned long long)dropped, loads[0] ? " | " : "", loads,
		lim[0] ? " | LIMIT" : "", lim);
	fputs(tty ? "\033[K" : "\n", stderr);
	fflush(stderr);
}

static char *default_log_path(void)
{
	char buf[64];
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "sqwave-%Y%m%d-%H%M%S.sqwlog", &tm);
	return strdup(buf);
}

/* The header's metadata: resolved configuration, host and line. */
static char *meta_text(const struct config *c, const struct run_info *ri, bool rt_ok,
		       const struct soak *soak)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fprintf(f, EDGELOG_META_VERSION "=%s\n", SQW_VERSION);
	fprintf(f, EDGELOG_META_BOARD_FILE "=%s\n", ri->board_file);
	fprintf(f, EDGELOG_META_PROFILE "=%s\n", ri->profile_file ? ri->profile_file : "");
	fprintf(f, EDGELOG_META_GPIO "=%s\n", ri->gpio_desc);
	fprintf(f, EDGELOG_META_RT "=%s\n", rt_ok ? "yes" : "no");
	fprintf(f, EDGELOG_META_HOST "=%s\n", ri->host.hostname);
	fprintf(f, EDGELOG_META_KERNEL "=%s %s\n", ri->host.kernel_release, ri->host.kernel_version);
	fprintf(f, EDGELOG_META_MACHINE "=%s\n", ri->host.machine);
	fprintf(f, EDGELOG_META_PREEMPT_RT "=%s\n", ri->host.preempt_rt ? "yes" : "no");
	fprintf(f, EDGELOG_META_CMDLINE "=%s\n", ri->host.cmdline);
	fprintf(f, EDGELOG_META_CPU "=%s\n", ri->host.cpu_model);
	fprintf(f, EDGELOG_META_NCPUS "=%d\n", ri->host.ncpus);
	config_dump(c, f);
	plan_dump(config_plan(c), f);
	soak_dump_meta(soak, f);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static char board_path[PATH_MAX], profile_path[PATH_MAX];

/* run's own options first (getopt_long takes the first match), then the
 * configuration's; also for the man page and the completion (main.c). */
size_t cmd_run_options(struct option *out, size_t max)
{
	static const struct option own[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "preflight", no_argument, NULL, 'P' },
		{ "load", required_argument, NULL, 'L' },
		{ 0 },
	};
	size_t n = cmdline_options_copy(out, max, own);

	return n + cmdline_config_options(out + n, max - n);
}

void cmd_run_help(FILE *f)
{
	run_usage(f);
}

static int load_config(struct config *c, int argc, char **argv, const char **board,
		       const char **profile, bool *preflight)
{
	struct option opts[CMDLINE_CONFIG_OPTIONS + 4];
	size_t n;
	char err[1024];
	int ch, idx = 0;

	n = cmd_run_options(opts, sizeof(opts) / sizeof(opts[0]) - 1);
	opts[n] = (struct option){ 0 };

	/* The command line is applied first: it wins over files by source rank. */
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+b:p:s:h", opts, &idx)) != -1) {
		switch (ch) {
		case 'b':
			*board = optarg;
			continue;
		case 'p':
			*profile = optarg;
			continue;
		case 'h':
			run_usage(stdout);
			return 1;
		case 'P':
			*preflight = true;
			continue;
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
				cmdline_refused(opts, "+b:p:s:h", argv, optind, optopt, "run", err,
						sizeof(err));
			}
			pr_err("%s", err);
			return -1;
		}
	}
	if (optind < argc) {
		pr_err("unexpected argument \"%s\"; try 'sqwave run --help'", argv[optind]);
		return -1;
	}
	/* Short names are looked up (cfgpath.h); the paths replace them. */
	if (cfgpath_load(c, *board, *profile, board_path, profile_path, err, sizeof(err))) {
		pr_err("%s", err);
		return -1;
	}
	*board = board_path[0] ? board_path : "--chip/--line";
	*profile = profile_path[0] ? profile_path : NULL;
	if (plan_finalize(config_plan_mut(c), c, err, sizeof(err)) != CFG_OK) {
		pr_err("%s", err);
		return -1;
	}
	return 0;
}

/* Cross-key checks the table cannot express. */
static int check_config(const struct config *c)
{
	int64_t half = config_int(c, CFG_RUN_HALF_PERIOD);
	int64_t duration = plan_duration(config_plan(c));
	const struct plan *plan = config_plan(c);
	char a[32], b[32], q[32];
	size_t i;

	if (duration && duration < 2 * half) {
		pr_err("run.duration (%s) is shorter than one period (2 x run.half_period = %s)",
		       dur(duration, a, sizeof(a)), dur(2 * half, b, sizeof(b)));
		return -1;
	}
	if (config_int(c, CFG_RUN_SPIN) > half / 4) {
		char origin[256];

		/* A spin takes the RT CPU for its whole length every half period:
		 * a quarter of the time at most leaves the rest to everything else. */
		pr_err("run.spin (%s, %s) must be at most a quarter of run.half_period (%s): "
		       "between 0 (off) and %s, or auto", dur(config_int(c, CFG_RUN_SPIN), a, sizeof(a)),
		       config_origin(c, CFG_RUN_SPIN, origin, sizeof(origin)),
		       dur(half, b, sizeof(b)), dur(half / 4, q, sizeof(q)));
		return -1;
	}
	if (config_int(c, CFG_RUN_WARMUP) % half)
		pr_warn("run.warmup is not a whole number of half periods; rounded up");
	if (duration % (2 * half))
		pr_warn("run.duration (%s) is not a whole number of periods; rounded up",
			dur(duration, a, sizeof(a)));
	for (i = 0; plan->explicit_phases && i < plan->nphases; i++) {
		if (plan->phases[i].duration_ns < 2 * half) {
			pr_err("%s: phase %s (%s) is shorter than one period", plan->phases[i].origin,
			       plan->phases[i].name, dur(plan->phases[i].duration_ns, a, sizeof(a)));
			return -1;
		}
	}
	return 0;
}

static uint64_t div_ceil(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

int cmd_run(int argc, char **argv)
{
	struct config *c = config_new();
	struct run_info ri;
	struct gpio_out_spec spec;
	struct gpio_out *gpio = NULL;
	struct gpio_in *lb_in = NULL;
	struct loopback_reader *lb = NULL;
	struct ring ring = { 0 };
	struct rtloop loop = { .tfd = -1 };
	struct rtsetup rs = { .dma_fd = -1 };
	struct rtsetup_params rp;
	struct recorder *rec = NULL;
	struct edgestats *stats = NULL;
	struct phasestats *pstats = NULL;
	struct soak *soak = NULL;
	struct tracebreak *tb = NULL;
	struct run_phase *phases = NULL;
	uint64_t *starts = NULL, measure0;
	int sfd = -1;
	size_t i;
	struct edgelog_writer *log = NULL;
	struct edgelog_meta meta = { 0 };
	struct edgelog_footer footer = { 0 };
	pthread_t rt_tid;
	bool rt_started = false, rt_ok, quiet, tty, preflight = false;
	const char *board = NULL, *profile = NULL, *json, *junit, *results;
	FILE *text_out = stdout;
	char *log_path = NULL;
	sigset_t sigs, oldsigs, stop_sigs;
	int64_t half, status_every, duration;
	uint64_t t0, next_status;
	int ret = SQW_EXIT_RUNTIME, err, sig = 0;
	char why[2048], gpio_desc[256], log_kept[4096];

	memset(&ri, 0, sizeof(ri));
	/* One malloc arena for every thread: with mlockall(MCL_FUTURE) each
	 * extra arena (64 MiB reserved, made by a thread's first free()) would
	 * count against RLIMIT_MEMLOCK and lock address space for nothing. */
	mallopt(M_ARENA_MAX, 1);
	if (!c) {
		pr_err("out of memory");
		return SQW_EXIT_RUNTIME;
	}
	err = load_config(c, argc, argv, &board, &profile, &preflight);
	if (err) {
		config_free(c);
		return err > 0 ? SQW_EXIT_OK : SQW_EXIT_USAGE;
	}
	if (check_config(c) < 0) {
		config_free(c);
		return SQW_EXIT_USAGE;
	}
	duration = plan_duration(config_plan(c));
	/* What runs killed with their guardian left (loads in sqwave.*
	 * cgroups, tracing instances) would disturb this measurement. Not for
	 * --preflight: it measures nothing and changes nothing. */
	if (!preflight) {
		int dirs = 0, procs = contain_sweep(&dirs), inst = tracebreak_sweep();

		if (procs || dirs || inst)
			pr_warn("cleared what a killed sqwave run left: %d load process%s, %d "
				"cgroup%s, %d trace instance%s", procs, procs == 1 ? "" : "es", dirs,
				dirs == 1 ? "" : "s", inst, inst == 1 ? "" : "s");
	}
	/* Loads on "every CPU but the RT one" need an RT CPU: one is chosen
	 * (and said) when the board file has none. Not for --preflight. */
	if (!preflight) {
		int chose = soak_choose_rt_cpu(c, why, sizeof(why));

		if (chose > 0)
			pr_info("%s", why);
		else if (chose < 0)
			pr_warn("%s", why);
	}
	/* Every load of every phase must be able to run here before anything
	 * starts (a missing CoreMark, a BusyBox ping: exit 2). */
	soak = soak_new(c, why, sizeof(why), &err);
	if (!soak) {
		pr_err("%s", why);
		config_free(c);
		return err == 2 ? SQW_EXIT_USAGE : SQW_EXIT_RUNTIME;
	}
	quiet = config_bool(c, CFG_OUTPUT_QUIET);
	half = config_int(c, CFG_RUN_HALF_PERIOD);
	status_every = config_int(c, CFG_OUTPUT_STATUS_INTERVAL);
	json = config_str(c, CFG_OUTPUT_JSON);
	junit = config_str(c, CFG_OUTPUT_JUNIT);
	results = config_str(c, CFG_OUTPUT_RESULTS);
	log_path = config_str(c, CFG_OUTPUT_LOG)[0] ? strdup(config_str(c, CFG_OUTPUT_LOG))
						    : default_log_path();
	ri.board_file = board;
	ri.profile_file = profile;
	ri.log_path = log_path;
	{
		/* Before anything is written: no output over an input or another output. */
		const struct outfile_arg outs[] = { { "--log", log_path, true }, { "--json", json, false },
						    { "--junit", junit, false },
						    { "--results", results, false } };
		const struct outfile_arg ins[] = { { "the board file", board, false },
						   { "the profile", profile, false } };

		if (!log_path || outfile_check(outs, 4, ins, 2, true, why, sizeof(why)) < 0) {
			pr_err("%s", log_path ? why : strerror(ENOMEM));
			soak_free(soak);
			free(log_path);
			config_free(c);
			return SQW_EXIT_USAGE;
		}
		/* A machine reads standard output: it gets that one document alone
		 * (outfile_check refuses two), and the text summary goes to
		 * standard error. */
		if (!strcmp(json, "-") || !strcmp(junit, "-") || !strcmp(results, "-"))
			text_out = stderr;
	}
	sysinfo_host_read(&ri.host);

	/* Signals: blocked in every thread, taken synchronously by this one. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGPIPE);
	sigaddset(&sigs, SIGCHLD);	/* the loads */
	pthread_sigmask(SIG_BLOCK, &sigs, &oldsigs);
	sigemptyset(&stop_sigs);
	sigaddset(&stop_sigs, SIGINT);
	sigaddset(&stop_sigs, SIGTERM);
	sigaddset(&stop_sigs, SIGHUP);
	sigdelset(&sigs, SIGPIPE);
	sfd = signalfd(-1, &sigs, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		pr_err("signalfd: %s", strerror(errno));
		goto out;
	}
	/* A file-size limit must be an I/O error (EFBIG), like a full disk, not death. */
	signal(SIGXFSZ, SIG_IGN);

	if (preflight) {	/* the checks of `sqwave check`, nothing timed */
		ret = cmd_check_preflight(c, board, profile);
		goto out;
	}

	/* 1. Everything that allocates. */
	gpio_out_spec_from_config(c, &spec);
	gpio = gpio_out_open(&spec, why, sizeof(why));
	if (!gpio) {
		pr_err("%s", why);
		goto out;
	}
	/* A copy: the summary is printed after the line is closed. */
	snprintf(gpio_desc, sizeof(gpio_desc), "%s", gpio_out_describe(gpio));
	ri.gpio_desc = gpio_desc;
	if (config_bool(c, CFG_RUN_LOOPBACK)) {	/* run --loopback: the input, now */
		lb_in = loopback_input_open(c, why, sizeof(why));
		if (!lb_in) {
			if (errno == ENOENT && !why[0]) {
				pr_err("run.loopback needs the board file's loopback section "
				       "(loopback.chip, loopback.line)");
				ret = SQW_EXIT_USAGE;
			} else {
				pr_err("loopback input: %s", why);
			}
			goto out;
		}
	}
	if (strstr(ri.gpio_desc, "cp2112") || strstr(ri.gpio_desc, "ftdi"))
		pr_warn("%s is a USB GPIO adapter: every write is a USB round trip (0.1-1 ms), "
			"too slow for a %s half period", ri.gpio_desc, dur(half, why, sizeof(why)));
	rp.cpu = (int)config_int(c, CFG_RT_CPU);
	rp.priority = (int)config_int(c, CFG_RT_PRIORITY);
	rp.lock_memory = config_bool(c, CFG_RT_LOCK_MEMORY);
	rp.dma_latency_us = (int)config_int(c, CFG_RT_DMA_LATENCY);
	rp.stack_size = RUN_RT_STACK;
	if (ring_init(&ring, (size_t)config_int(c, CFG_RUN_RING_SIZE)) < 0) {
		pr_err("cannot allocate the edge ring: %s", strerror(errno));
		goto out;
	}
	stats = edgestats_new(half);
	if (!stats) {
		pr_err("cannot allocate statistics: %s", strerror(errno));
		goto out;
	}
	loop.gpio = gpio;
	loop.ring = &ring;
	loop.clock = CLOCK_MONOTONIC;
	loop.half_ns = half;
	loop.warmup_slots = div_ceil((uint64_t)config_int(c, CFG_RUN_WARMUP), (uint64_t)half);
	loop.total_slots = duration
		? loop.warmup_slots + 2 * div_ceil((uint64_t)duration, 2 * (uint64_t)half)
		: 0;
	loop.idle_level = spec.idle_level;
	loop.stack_prefault = RUN_RT_STACK / 2;
	loop.spin_auto = config_int(c, CFG_RUN_SPIN) == CFG_SPIN_AUTO;
	loop.spin_ns = loop.spin_auto ? 0 : config_int(c, CFG_RUN_SPIN);
	loop.spin_max_ns = loop.spin_auto ? half / 4 : 0;
	if (rtloop_open(&loop) < 0) {
		pr_err("timerfd_create: %s", strerror(errno));
		goto out;
	}

	/* 2. Privileged setup, after allocation. */
	rt_ok = rtsetup_process_enter(&rs, &rp) == 0;
	if (!rt_ok && !config_bool(c, CFG_RT_ALLOW_NON_RT)) {
		pr_err("real-time setup refused:\n%s(or pass --allow-non-rt to run anyway, marked non-RT)",
		       rs.problems);
		goto out;
	}

	/* Every thread but the RT one stays off rt.cpu: this one, and through
	 * inheritance each thread it creates from here (the RT thread is
	 * pinned by its own attributes). */
	if (rtsetup_nonrt_affinity(rp.cpu) < 0)
		pr_warn("cannot keep the other threads off CPU %d (%s): they may disturb the RT "
			"thread", rp.cpu, errno == ENOENT ? "it is the only CPU allowed"
							  : strerror(errno));

	/* 3. The RT thread (waiting for the start), the log, the writer, go. */
	err = rtsetup_thread_create(&rs, &rt_tid, rtloop_thread, &loop,
				    config_bool(c, CFG_RT_ALLOW_NON_RT));
	if (err) {
		pr_err("cannot start the RT thread:\n%s", rs.problems);
		goto out;
	}
	rt_started = true;
	rt_ok = rt_ok && rs.fifo;
	ri.rt_ok = rt_ok;
	ri.non_rt_reason = rt_ok ? NULL : rs.problems;
	if (!rt_ok)
		pr_warn("NON-RT RUN (--allow-non-rt): results are not real-time results:\n%s",
			rs.problems);

	/* The first phase's loads, before anything is measured: a load that
	 * cannot start, or ends at once, stops the run here. */
	if (soak_start(soak, why, sizeof(why)) < 0) {
		pr_err("%s", why);
		goto out;
	}
	if (config_int(c, CFG_TRACE_BREAK)) {
		tb = tracebreak_new(&(struct tracebreak_params){
			.threshold_ns = config_int(c, CFG_TRACE_BREAK),
			.stop_on_break = config_bool(c, CFG_TRACE_STOP_ON_BREAK),
			.max_breaks = (int)config_int(c, CFG_TRACE_MAX_BREAKS),
			.tracer = config_str(c, CFG_TRACE_TRACER),
			.buffer_kb = (int)config_int(c, CFG_TRACE_BUFFER_KB),
			.top = config_choice(c, CFG_TRACE_BUFFER) == 1,
			.events = config_str(c, CFG_TRACE_EVENTS),
			.log_path = log_path,
			.rt_priority = (int)config_int(c, CFG_RT_PRIORITY) }, why, sizeof(why));
		if (!tb) {
			pr_err("%s", why);
			goto out;
		}
		loop.brk = tracebreak_rt(tb);	/* read by the RT thread after go */
	}

	loop.start_ns = clock_now_ns(CLOCK_MONOTONIC) + RUN_LEAD_NS;
	/* Slot 0 a quarter millisecond off the millisecond grid: periodic
	 * scheduler ticks (HZ 100/250/1000) fall on that grid, and an edge due
	 * on a tick wakes after the tick's work (measured: docs/benchmarks.md). */
	loop.start_ns -= loop.start_ns % 1000000ull;
	loop.start_ns += RUN_GRID_OFFSET_NS;
	meta.clock_id = CLOCK_MONOTONIC;
	meta.half_period_ns = (uint64_t)half;
	meta.start_ns = loop.start_ns;
	meta.start_realtime_ns = clock_now_ns(CLOCK_REALTIME) +
				 (loop.start_ns - clock_now_ns(CLOCK_MONOTONIC));
	meta.text = meta_text(c, &ri, rt_ok, soak);
	if (!meta.text) {
		pr_err("cannot allocate the log header: %s", strerror(errno));
		goto out;
	}
	/* Locked, never truncated: another run's log is refused, an old log kept aside. */
	log = edgelog_writer_create(log_path, &meta, log_kept, sizeof(log_kept), why,
				    sizeof(why));
	if (!log) {
		pr_err("%s", why);
		goto out;
	}
	if (log_kept[0])
		pr_info("%s existed: kept it as %s", log_path, log_kept);
	ri.start_realtime_ns = meta.start_realtime_ns;
	/* A small stack: with mlockall(MCL_FUTURE) every byte of it is locked,
	 * and an unprivileged RLIMIT_MEMLOCK would refuse a default 8 MiB one. */
	measure0 = loop.start_ns + loop.warmup_slots * (uint64_t)half;
	starts = calloc(soak_nphases(soak), sizeof(*starts));
	if (!starts) {
		pr_err("out of memory");
		goto out;
	}
	soak_phase_starts(soak, measure0, starts);
	/* The last phase is open-ended: it keeps the edge that returns the line
	 * to idle after the last slot, as the run's own figures do. */
	pstats = phasestats_new(half, soak_nphases(soak), starts, 0);
	rec = pstats ? recorder_new(&(struct recorder_params){
		.ring = &ring, .log = log, .stats = stats, .phases = pstats,
		.half_period_ns = half, .stop_req = &loop.stop_req,
		.stack_size = WRITER_STACK }) : NULL;
	if (!rec) {
		pr_err("cannot allocate the recorder: %s", strerror(errno));
		goto out;
	}
	err = recorder_start(rec);
	if (err) {
		pr_err("cannot start the writer thread: %s", strerror(err));
		goto out;
	}
	soak_attach(soak, rec, measure0);
	loop.bell = recorder_bell(rec);	/* read by the RT thread after go */
	if (tb && (err = tracebreak_start(tb, rec, &loop.stop_req))) {
		pr_err("cannot start the trace-break thread: %s", strerror(err));
		goto out;
	}
	if (lb_in && !(lb = loopback_reader_start(lb_in, rec, LOOPBACK_STACK))) {
		pr_err("cannot start the loopback reader: %s", strerror(errno));
		goto out;
	}
	atomic_store_explicit(&loop.go, true, memory_order_release);

	/* 4. Wait: signals, status line, end of the loop. */
	tty = isatty(STDERR_FILENO);
	t0 = loop.start_ns;
	next_status = t0 + (uint64_t)status_every;
	while (!atomic_load(&loop.done)) {
		struct pollfd fds[1 + 256];
		struct signalfd_siginfo si;
		uint64_t now = clock_now_ns(CLOCK_MONOTONIC), due = soak_next_due(soak);
		int64_t wait_ms = 100;
		size_t n;

		/* Wake for a signal, a load's output, the next status line, phase,
		 * sample or restart, and at least every 100 ms for the loop's end. */
		if (!quiet && status_every && next_status > now &&
		    (int64_t)((next_status - now) / 1000000) < wait_ms)
			wait_ms = (int64_t)((next_status - now) / 1000000);
		if (due != UINT64_MAX && (int64_t)((due > now ? due - now : 0) / 1000000) < wait_ms)
			wait_ms = (int64_t)((due > now ? due - now : 0) / 1000000);
		fds[0].fd = sfd;
		fds[0].events = POLLIN;
		n = 1 + soak_pollfds(soak, fds + 1, 256);
		if (poll(fds, n, (int)wait_ms) < 0 && errno != EINTR) {
			pr_err("poll: %s", strerror(errno));
			atomic_store(&loop.stop_req, true);
		}
		now = clock_now_ns(CLOCK_MONOTONIC);
		while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
			int s = (int)si.ssi_signo;

			if (s == SIGCHLD) {
				soak_sigchld(soak, now);
				continue;
			}
			if (!sig) {
				sig = s;
				if (!quiet && tty)
					fputc('\n', stderr);
				pr_info("%s: stopping at the next edge", strsignal(s));
			}
			atomic_store(&loop.stop_req, true);
		}
		soak_read(soak, fds + 1, n - 1, now);
		soak_tick(soak, now);
		if (!quiet && status_every && now >= next_status) {
			status_print(rec, &ring, c, soak, t0, measure0, tty);
			next_status += (uint64_t)status_every;
			if (next_status <= now)
				next_status = now + (uint64_t)status_every;
		}
	}
	if (!quiet && status_every && tty)
		fputc('\n', stderr);
	ret = SQW_EXIT_OK;
	/* the loads end with the wave, before the summary is made */
	soak_stop(soak);

out:
	if (rt_started) {
		if (!atomic_load(&loop.go)) {	/* setup failed after the thread started */
			atomic_store(&loop.stop_req, true);
			atomic_store(&loop.go, true);
		}
		pthread_join(rt_tid, NULL);
	}
	/* The break helper's last events go through the recorder: stop it first. */
	if (tb) {
		tracebreak_stop(tb);	/* joined: a break being saved is finished */
		ri.breaks = tracebreak_count(tb);
		snprintf(ri.break_text, sizeof(ri.break_text), "%s", tracebreak_first_text(tb));
		snprintf(ri.break_cause, sizeof(ri.break_cause), "%s", tracebreak_first_cause(tb));
		snprintf(ri.break_trace, sizeof(ri.break_trace), "%s", tracebreak_first_trace(tb));
		ri.nbreak_hits = tracebreak_hits(tb, NULL, 0);
		ri.break_hits = calloc(ri.nbreak_hits ? ri.nbreak_hits : 1, sizeof(*ri.break_hits));
		ri.nbreak_hits = ri.break_hits ? tracebreak_hits(tb, ri.break_hits, ri.nbreak_hits) : 0;
		tracebreak_free(tb);
		tb = NULL;
	}
	if (lb) {	/* the last edges' events, then into the log before it closes */
		uint64_t dropped, unlogged, n;

		n = loopback_reader_stop(lb, atomic_load(&loop.edges), LOOPBACK_GRACE_NS,
					 &dropped, &unlogged);
		pr_info("loopback: %llu edge events of %s logged for %llu edges "
			"(%llu dropped by the kernel, %llu not logged)", (unsigned long long)n,
			gpio_in_describe(lb_in), (unsigned long long)atomic_load(&loop.edges),
			(unsigned long long)dropped, (unsigned long long)unlogged);
	}
	recorder_finish(rec);
	/* The writer thread stopped the run on a log error; the writer kept
	 * its reason for us to print. */
	if (rec && log && recorder_log_error(rec))
		pr_err("%s", edgelog_writer_error(log));
	gpio_in_close(lb_in);
	/* Back to idle, released, before anything slow. */
	if (gpio_out_close(gpio))
		pr_warn("could not restore the idle level of %s: %s", gpio_desc, strerror(errno));
	if (rs.p.stack_size)
		rtsetup_process_exit(&rs);
	rtloop_close(&loop);

	if (ret == SQW_EXIT_OK && !preflight) {
		ri.end_realtime_ns = clock_now_ns(CLOCK_REALTIME);
		ri.dropped = ring_dropped(&ring);
		ri.write_errors = atomic_load(&loop.write_errors);
		ri.stop_reason = loop.error || ri.write_errors || recorder_log_error(rec)
			? EDGELOG_STOP_ERROR : sig ? EDGELOG_STOP_SIGNAL
			: ri.breaks && config_bool(c, CFG_TRACE_STOP_ON_BREAK) ? EDGELOG_STOP_BREAK
			: EDGELOG_STOP_DURATION;
		ri.stop_signal = sig;
		ri.log_error = recorder_log_error(rec);
		ri.records_logged = edgelog_writer_records(log);
		ri.spin_auto = loop.spin_auto;
		ri.spin_lead_ns = loop.lead;
		ri.spin_lead_min_ns = loop.lead_min_ns;
		ri.spin_lead_max_ns = loop.lead_max_ns;
		ri.spin_rearms = loop.rearms;
		ri.rt_cpu = rs.pinned ? rp.cpu : -1;
		if (rtsetup_rt_throttling(&ri.rt_runtime_us, &ri.rt_period_us) != 1)
			ri.rt_runtime_us = -1;
		if (loop.ru_started) {
			ri.minflt = loop.ru_end.ru_minflt - loop.ru_start.ru_minflt;
			ri.majflt = loop.ru_end.ru_majflt - loop.ru_start.ru_majflt;
			ri.nivcsw = loop.ru_end.ru_nivcsw - loop.ru_start.ru_nivcsw;
		}
		if (loop.error)
			pr_err("the RT loop failed: %s", strerror(loop.error));
		ri.label = config_str(c, CFG_RUN_LABEL);
		ri.containment = soak_containment(soak);
		ri.min_busy_pct = (int)config_int(c, CFG_PROOF_MIN_BUSY);
		ri.sampler_sched = soak_sampler_sched(soak);
		phases = calloc(soak_nphases(soak), sizeof(*phases));
		for (i = 0; phases && i < soak_nphases(soak); i++) {
			soak_phase_result(soak, i, &phases[i]);
			phases[i].stats = phasestats_phase(pstats, i);
		}
		if (phases && (soak_has_loads(soak) || config_plan(c)->explicit_phases)) {
			ri.phases = phases;
			ri.nphases = soak_nphases(soak);
			ri.phasestats = pstats;
		} else if (phases && soak_nphases(soak) == 1) {
			ri.run_proof = &phases[0];	/* a plain run: its idle proof */
		}
		why[0] = '\0';
		ret = verdict_judge(c, stats, &ri, why, sizeof(why)) == VERDICT_FAIL
			? SQW_EXIT_LIMIT : SQW_EXIT_OK;
		if (ri.stop_reason == EDGELOG_STOP_ERROR)
			ret = SQW_EXIT_RUNTIME;
		else if (sig && duration)
			ret = 128 + sig;
	}
	if (log) {
		/* The footer carries the exit code the run ends with. */
		footer.dropped = ring_dropped(&ring);
		footer.missed_periods = atomic_load(&loop.missed);
		footer.end_realtime_ns = ri.end_realtime_ns ? ri.end_realtime_ns
							     : clock_now_ns(CLOCK_REALTIME);
		footer.stop_reason = (uint32_t)ri.stop_reason;
		footer.exit_code = ret;
		if (edgelog_writer_close(log, &footer, why, sizeof(why)) < 0) {
			/* a failure the writer thread met is printed above */
			if (!ri.log_error && !(rec && recorder_log_error(rec)))
				pr_err("%s", why);
			if (ret != SQW_EXIT_RUNTIME) {
				ri.log_error = true;
				ret = SQW_EXIT_RUNTIME;
			}
		}
		log = NULL;
	}
	/* The log is closed and no load runs: from here SIGINT/SIGTERM stop us
	 * at once, even in an open() of a --json FIFO nobody reads (SIGPIPE
	 * stays blocked: a closed pipe is EPIPE, an I/O error). */
	soak_stop(soak);
	pthread_sigmask(SIG_UNBLOCK, &stop_sigs, NULL);
	if (ri.end_realtime_ns) {	/* the run happened: report it */
		summary_print_text(text_out, c, stats, &ri);
		fflush(text_out);
		if (json[0] && summary_write_json(json, c, stats, &ri) < 0) {
			pr_err("cannot write the JSON summary %s: %s", json, strerror(errno));
			ret = SQW_EXIT_RUNTIME;
		}
		if (junit[0] && ciout_write_junit(junit, c, stats, &ri, why, sizeof(why)) < 0) {
			pr_err("cannot write the JUnit report: %s", why);
			ret = SQW_EXIT_RUNTIME;
		}
		if (results[0] && ciout_write_results(results, c, stats, &ri, why, sizeof(why)) < 0) {
			pr_err("cannot write the results: %s", why);
			ret = SQW_EXIT_RUNTIME;
		}
	}
	soak_free(soak);	/* stops the loads on every path out */
	free(phases);
	free(starts);
	free(ri.break_hits);
	phasestats_free(pstats);
	if (sfd >= 0)
		close(sfd);
	recorder_free(rec);
	if (stats)
		edgestats_free(stats);
	ring_free(&ring);
	free(meta.text);
	free(log_path);
	config_free(c);
	pthread_sigmask(SIG_SETMASK, &oldsigs, NULL);
	return ret;
}
