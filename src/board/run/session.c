/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run session: the stages `sqwave run` sets up around the RT loop (the
 * outputs, signals, line, ring, RT setup, threads, log), its main loop and
 * the teardown in the reverse order. Prints only through the caller's say(). */
#include "run/session.h"

#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stats/phasestats.h"
#include "base/clock.h"
#include "base/exitcode.h"
#include "base/msgbuf.h"
#include "base/outfile.h"
#include "base/sysinfo.h"
#include "base/units.h"
#include "base/wave.h"
#include "config/outputs.h"
#include "config/plan.h"
#include "gpio/gpio_in.h"
#include "gpio/gpio_lookup.h"
#include "gpio/gpio_out.h"
#include "gpio/gpio_sim.h"
#include "loads/contain.h"
#include "log/edgelog.h"
#include "rt/cpuidle.h"
#include "rt/respond.h"
#include "rt/ring.h"
#include "rt/rtgroup.h"
#include "rt/rtloop.h"
#include "rt/rtsetup.h"
#include "run/gridrun.h"
#include "run/loopback.h"
#include "summary/kcidb.h"
#include "run/recorder.h"
#include "run/tlatrun.h"
#include "run/tracebreak.h"

#define RUN_LEAD_NS 100000000ull      /* first edge 100 ms after setup */
#define RUN_GRID_OFFSET_NS 250000ull  /* slot 0 at x.250 ms */
#define RUN_RT_STACK (256u * 1024u)
#define WRITER_STACK (256u * 1024u)
#define LOOPBACK_STACK (64u * 1024u)
#define LOOPBACK_GRACE_NS 100000000ll /* events still due after the last edge */

/* One output line: its line, ring, loop, recorder, statistics and log.
 * ln[0] is the run's only one unless gpio.line names several
 * (config/outputs.h); each then has everything, its own log included. */
struct run_line {
	struct output_def def;
	struct gpio_out_spec spec;
	struct gpio_out *gpio;    /* per-cpu or one line: its own request */
	struct ring ring;
	struct rtloop loop;
	struct recorder *rec;
	struct edgestats *stats;
	struct phasestats *pstats;
	struct edgelog_writer *log; /* reserved at init, started with the header */
	bool log_started;
	struct edgelog_meta meta;
	struct pin pin;           /* what this line should do (log/pin.h) */
	char *log_path;
	pthread_t rt_tid;
	bool rt_started;
	char gpio_desc[256];
};

struct run_session {
	struct run_session_params p;
	struct config *c;
	struct run_info ri;
	struct outputs outs;      /* the lines (one unless gpio.line names several) */
	struct run_line ln[OUTPUTS_MAX]; /* outs.n of them */
	struct gpio_group *group; /* run.outputs together, several lines: one request */
	struct rtgroup grp;       /* ... and one RT thread over every line's loop */
	struct run_info *line_ri; /* several lines: each line's description */
	struct gpio_in *lb_in;
	struct loopback_reader *lb;
	struct respond resp;      /* sqwave respond: the RT loop, over loop */
	struct gpio_in *in;       /* sqwave respond: its input */
	uint64_t warmup_ns;       /* sqwave respond: run.warmup */
	struct rtsetup rs;
	struct rtsetup_params rp;
	struct soak *soak;
	struct tracebreak *tb;
	struct tlatrun *tl;       /* rt.timer timerlat */
	struct run_timerlat tl_res;
	struct gridrun *grid;     /* grid.clock realtime or tai */
	struct run_phase *phases;
	uint64_t *starts, measure0;
	bool instr_started;       /* params.instrument was called at measure0 */
	bool rt_ok, closed;
	int sfd, sig;
	sigset_t oldsigs, stop_sigs;
	char input_desc[256];
	char why[2048];
};

void run_session_say(const struct run_session *s, enum run_say level, const char *fmt, ...)
{
	char text[8192];
	va_list ap;

	if (!s->p.say)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	s->p.say(s->p.say_ctx, level, text);
}

/* Duration formatted for messages. */
static const char *dur(int64_t ns, char *buf, size_t len)
{
	units_format_duration(ns, buf, len);
	return buf;
}

/* respond's input and output must be two lines: one line as both would be
 * requested twice (and is busy at the second request, which read as "is
 * another sqwave running?"). Found from where the lookup puts them, chip
 * and offset, not from their names ("0" and "SIM0" are one line); nothing
 * is requested. A line that cannot be found is left to its request to say
 * why. */
static int respond_check_lines(const struct run_session *s, char *err, size_t errlen)
{
	const struct config *c = s->c;
	char oi[256], oo[256], chip[GPIO_NAME_MAX];
	unsigned int off;

	if (gpio_same_line((enum gpio_backend)config_choice(c, CFG_GPIO_BACKEND), c,
			   config_str(c, CFG_INPUT_CHIP), config_str(c, CFG_INPUT_LINE),
			   config_str(c, CFG_GPIO_CHIP), config_str(c, CFG_GPIO_LINE), &off, chip,
			   sizeof(chip), NULL, 0) != 1)
		return 0;
	msgbuf_set(err, errlen, "input and output are the same line: input.line (\"%s\", %s) and "
		   "gpio.line (\"%s\", %s) are both line %u of %s; respond reads its events on "
		   "one line and answers on another", config_str(c, CFG_INPUT_LINE),
		   config_origin(c, CFG_INPUT_LINE, oi, sizeof(oi)), config_str(c, CFG_GPIO_LINE),
		   config_origin(c, CFG_GPIO_LINE, oo, sizeof(oo)), off, chip);
	return -1;
}

/* respond's cross-key checks: what of run's keys it cannot honour. */
static int respond_check_config(const struct run_session *s, char *err, size_t errlen)
{
	const struct config *c = s->c;

	if (config_bool(c, CFG_RUN_LOOPBACK)) {
		msgbuf_set(err, errlen, "run.loopback does not apply to respond: its input is "
			   "the stimulus (input.line), and one process reads one event queue");
		return -1;
	}
	if (config_int(c, CFG_RUN_SPIN)) {
		msgbuf_set(err, errlen, "run.spin does not apply to respond: an answer is due "
			   "when its event comes, there is no deadline to spin to");
		return -1;
	}
	if (!config_str(c, CFG_INPUT_LINE)[0]) {
		msgbuf_set(err, errlen, "respond needs an input line: the board file's input "
			   "section (input.line), or --input-line LINE");
		return -1;
	}
	return respond_check_lines(s, err, errlen);
}

/* A duty cycle or a phase (run.high, run.low, run.phase; config.c has
 * resolved them) with what cannot honour it yet: respond (no grid), spin
 * and timerlat (one periodic wake-up), loopback (its pulse figures assume
 * equal halves). trace.break judges each pulse against its own level's
 * time (tracebreak_rt_check_wave()). The key that asked for the shape is
 * named with its origin. */
static int session_check_wave(const struct run_session *s, char *err, size_t errlen)
{
	static const struct {
		enum cfg_key key;
		const char *why;
	} no_duty[] = {
		{ CFG_RUN_SPIN, "a spin needs one wake-up lead per slot of one length" },
		{ CFG_RT_TIMER, "the kernel's timerlat wakes on its own grid, once per half period" },
		{ CFG_RUN_LOOPBACK, "the loopback figures assume equal halves" },
	};
	const struct config *c = s->c;
	struct wave w;
	enum cfg_key asked;
	char a[32], o[256], b[64], o2[256];
	size_t i;

	config_wave(c, &w);
	if (wave_is_square(&w) && !w.phase_ns)
		return 0;
	asked = !wave_is_square(&w)
		? (config_source(c, CFG_RUN_HIGH) >= config_source(c, CFG_RUN_LOW) ? CFG_RUN_HIGH
										 : CFG_RUN_LOW)
		: CFG_RUN_PHASE;
	config_key_name(asked, b, sizeof(b));
	config_format(c, asked, a, sizeof(a));
	config_origin(c, asked, o, sizeof(o));
	if (s->p.respond) {
		msgbuf_set(err, errlen, "%s (%s, %s) does not apply to respond: its answers have "
			   "no grid", b, a, o);
		return -1;
	}
	for (i = 0; i < sizeof(no_duty) / sizeof(no_duty[0]); i++) {
		enum cfg_key k = no_duty[i].key;
		char kn[64], v[32];

		/* a phase alone: only timerlat, whose grid is the kernel's */
		if (wave_is_square(&w) && k != CFG_RT_TIMER)
			continue;
		if (k == CFG_RT_TIMER ? config_choice(c, k) == 0
		    : config_table[k].type == CFG_T_BOOL ? !config_bool(c, k) : !config_int(c, k))
			continue;
		msgbuf_set(err, errlen, "%s (%s, %s) and %s (%s, %s) do not go together yet: %s; "
			   "a duty cycle or a phase runs on the timerfd without them",
			   b, a, o, config_key_name(k, kn, sizeof(kn)),
			   config_format(c, k, v, sizeof(v)), config_origin(c, k, o2, sizeof(o2)),
			   no_duty[i].why);
		return -1;
	}
	return 0;
}

/* Several lines (config/outputs.h) with what drives one line only: each
 * named with where it was set. 0, or -1 with @err (usage). */
static int session_check_lines(const struct run_session *s, char *err, size_t errlen)
{
	static const struct {
		enum cfg_key key;
		const char *why;
	} one_line[] = {
		{ CFG_RUN_SPIN, "each line would need its own spin before its own deadline" },
		{ CFG_RT_TIMER, "the kernel's timerlat wakes one thread on its own grid" },
		{ CFG_TRACE_BREAK, "one break helper watches one RT loop" },
		{ CFG_RUN_LOOPBACK, "the board's loopback input is wired to one output" },
	};
	const struct config *c = s->c;
	char kn[64], v[64], o[256], lo[256];
	size_t i;

	if (s->outs.n < 2)
		return 0;
	config_origin(c, CFG_GPIO_LINE, lo, sizeof(lo));
	if (s->p.respond) {
		msgbuf_set(err, errlen, "gpio.line (\"%s\", %s) names %zu lines, and respond "
			   "answers one input on one output", config_str(c, CFG_GPIO_LINE), lo,
			   s->outs.n);
		return -1;
	}
	for (i = 0; i < sizeof(one_line) / sizeof(one_line[0]); i++) {
		enum cfg_key k = one_line[i].key;

		if (k == CFG_RT_TIMER ? config_choice(c, k) == 0
		    : config_table[k].type == CFG_T_BOOL ? !config_bool(c, k) : !config_int(c, k))
			continue;
		msgbuf_set(err, errlen, "gpio.line (\"%s\", %s) names %zu lines, and %s (%s, %s) "
			   "drives one line only: %s", config_str(c, CFG_GPIO_LINE), lo, s->outs.n,
			   config_key_name(k, kn, sizeof(kn)), config_format(c, k, v, sizeof(v)),
			   config_origin(c, k, o, sizeof(o)), one_line[i].why);
		return -1;
	}
	return 0;
}

/* Cross-key checks the table cannot express. 0, or -1 with @err (usage). */
static int session_check_config(const struct run_session *s, char *err, size_t errlen)
{
	const struct config *c = s->c;
	int64_t half = config_int(c, CFG_RUN_HALF_PERIOD);
	int64_t duration = plan_duration(config_plan(c));
	const struct plan *plan = config_plan(c);
	struct cpuidle_limit lim;
	char a[32], b[32], q[32], why[512];
	size_t i;

	/* a malformed value, or a state name no CPU here has: configuration */
	if (cpuidle_limit_parse(config_str(c, CFG_RT_IDLE_STATE), &lim, why, sizeof(why)) < 0 ||
	    cpuidle_limit_check(cpuidle_root(), &lim, why, sizeof(why)) < 0) {
		char origin[256];

		msgbuf_set(err, errlen, "%s: %s%s",
			   config_origin(c, CFG_RT_IDLE_STATE, origin, sizeof(origin)),
			   lim.name[0] ? "" : "rt.idle_state ", why);
		return -1;
	}
	if (gridrun_check(c, &s->outs, s->p.respond, config_choice(c, CFG_RT_TIMER) == 1, err,
			  errlen) < 0)
		return -1;
	if (session_check_lines(s, err, errlen) < 0)
		return -1;
	if (session_check_wave(s, err, errlen) < 0)
		return -1;
	if (s->p.respond && config_choice(c, CFG_RT_TIMER) == 1) {
		msgbuf_set(err, errlen, "rt.timer: timerlat does not apply to respond: its loop "
			   "wakes on input events, not on a timer");
		return -1;
	}
	if (s->p.respond)
		return respond_check_config(s, err, errlen);
	if (config_choice(c, CFG_RT_TIMER) == 1) {
		const struct tlatrun_params tp = { .cpu = (int)config_int(c, CFG_RT_CPU),
						   .half_ns = half };

		if (config_int(c, CFG_RUN_SPIN)) {
			msgbuf_set(err, errlen, "rt.timer: timerlat and run.spin do not go together: "
				   "the kernel's timer wakes the thread at the deadline, there is "
				   "no earlier wake-up to spin from");
			return -1;
		}
		if (config_int(c, CFG_TRACE_BREAK)) {
			msgbuf_set(err, errlen, "rt.timer: timerlat and trace.break do not go "
				   "together yet: both take tracefs for the run");
			return -1;
		}
		if (tlatrun_refusal(&tp, why, sizeof(why))) {
			char origin[256];

			msgbuf_set(err, errlen, "%s: %s", config_origin(c, CFG_RT_TIMER, origin,
				   sizeof(origin)), why);
			return -1;
		}
	}
	if (duration && duration < 2 * half) {
		msgbuf_set(err, errlen, "run.duration (%s) is shorter than one period "
			   "(2 x run.half_period = %s)", dur(duration, a, sizeof(a)),
			   dur(2 * half, b, sizeof(b)));
		return -1;
	}
	if (config_int(c, CFG_RUN_SPIN) > half / 4) {
		char origin[256];

		/* A spin takes the RT CPU for its whole length every half period:
		 * a quarter of the time at most leaves the rest to everything else. */
		msgbuf_set(err, errlen, "run.spin (%s, %s) must be at most a quarter of "
			   "run.half_period (%s): between 0 (off) and %s, or auto",
			   dur(config_int(c, CFG_RUN_SPIN), a, sizeof(a)),
			   config_origin(c, CFG_RUN_SPIN, origin, sizeof(origin)),
			   dur(half, b, sizeof(b)), dur(half / 4, q, sizeof(q)));
		return -1;
	}
	if (config_int(c, CFG_RUN_WARMUP) % half)
		run_session_say(s, RUN_SAY_WARN,
				"run.warmup is not a whole number of half periods; rounded up");
	if (duration % (2 * half))
		run_session_say(s, RUN_SAY_WARN, "run.duration (%s) is not a whole number of "
				"periods; rounded up", dur(duration, a, sizeof(a)));
	for (i = 0; plan->explicit_phases && i < plan->nphases; i++) {
		if (plan->phases[i].duration_ns < 2 * half) {
			msgbuf_set(err, errlen, "%s: phase %s (%s) is shorter than one period",
				   plan->phases[i].origin, plan->phases[i].name,
				   dur(plan->phases[i].duration_ns, a, sizeof(a)));
			return -1;
		}
	}
	return 0;
}

/* What runs killed with their guardian left (loads in sqwave.* cgroups,
 * tracing instances) would disturb this measurement; and loads on "every
 * CPU but the RT one" need an RT CPU, chosen (and said) when the board
 * file has none. Not for a preflight: it measures nothing, changes nothing. */
static void session_prepare_host(struct run_session *s)
{
	int dirs = 0, procs, inst, chose, idle_files, idle_states = 0;
	char dir[4096];

	if (s->p.preflight)
		return;
	procs = contain_sweep(&dirs);
	inst = tracebreak_sweep() + tlatrun_sweep();
	idle_files = cpuidle_sweep(cpuidle_state_dir(cpuidle_root(), dir, sizeof(dir)),
				   &idle_states);
	if (procs || dirs || inst)
		run_session_say(s, RUN_SAY_WARN, "cleared what a killed sqwave run left: %d load "
				"process%s, %d cgroup%s, %d trace instance%s", procs,
				procs == 1 ? "" : "es", dirs, dirs == 1 ? "" : "s", inst,
				inst == 1 ? "" : "s");
	if (idle_files)
		run_session_say(s, RUN_SAY_WARN, "restored the idle states a killed sqwave run "
				"left disabled: %d `disable` value%s from %d saved-state file%s in "
				"%s", idle_states, idle_states == 1 ? "" : "s", idle_files,
				idle_files == 1 ? "" : "s", dir);
	chose = soak_choose_rt_cpu(s->c, s->why, sizeof(s->why));
	if (chose > 0)
		run_session_say(s, RUN_SAY_INFO, "%s", s->why);
	else if (chose < 0)
		run_session_say(s, RUN_SAY_WARN, "%s", s->why);
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

char *run_line_path(const char *base, const char *line)
{
	const char *slash = strrchr(base, '/'), *dot = strrchr(base, '.');
	size_t stem = dot && (!slash || dot > slash) && dot != (slash ? slash + 1 : base)
		? (size_t)(dot - base) : strlen(base);
	size_t len = strlen(base) + strlen(line) + 2, k;
	struct stat sb;
	char *p;

	/* A sink (/dev/null) is no name to derive others from: /dev/null.0
	 * would be a regular file created in /dev. Every line writes to it. */
	if (stat(base, &sb) == 0 && S_ISCHR(sb.st_mode))
		return strdup(base);
	p = malloc(len);
	if (!p)
		return NULL;
	snprintf(p, len, "%.*s.%s%s", (int)stem, base, line, base + stem);
	for (k = stem + 1; p[k] && k < stem + 1 + strlen(line); k++) {
		char ch = p[k];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '-' || ch == '_'))
			p[k] = '_';
	}
	return p;
}

/* Several lines: whether @base (of option @what) can give each line its
 * own file. Standard output ("-") and a pipe or socket cannot keep the
 * lines' documents apart: refused (-1, @err). A character device
 * (/dev/null) takes every line's (run_line_path()). */
static int lines_base_ok(const char *base, const char *what, size_t n, char *err, size_t errlen)
{
	struct stat sb;

	if (!strcmp(base, "-")) {
		msgbuf_set(err, errlen, "%s -: gpio.line names %zu lines, and each gets its own "
			   "document (FILE.LINE.ext): give a file name", what, n);
		return -1;
	}
	/* /dev/stdout, /dev/fd/1, /proc/self/fd/1: a descriptor's name, not a
	 * file to derive LINE names from (they would be created in /dev) */
	if ((!strncmp(base, "/dev/", 5) || !strncmp(base, "/proc/", 6)) &&
	    !(stat(base, &sb) == 0 && S_ISCHR(sb.st_mode))) {
		msgbuf_set(err, errlen, "%s %s names a descriptor or device, not a file: gpio.line "
			   "names %zu lines, and each gets its own file (FILE.LINE.ext): give a "
			   "file name (or /dev/null)", what, base, n);
		return -1;
	}
	if (base[0] && stat(base, &sb) == 0 && (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode))) {
		msgbuf_set(err, errlen, "%s %s is a %s: gpio.line names %zu lines, and each gets "
			   "its own file (FILE.LINE.ext), which one %s cannot keep apart: give a "
			   "file name (or /dev/null)", what, base, S_ISFIFO(sb.st_mode) ? "pipe"
			   : "socket", n, S_ISFIFO(sb.st_mode) ? "pipe" : "socket");
		return -1;
	}
	return 0;
}

/* The logs' paths (one per line), and before anything is written: no
 * output over an input or another output. 0, or -1 with @err (usage). */
static int session_check_outputs(struct run_session *s, char *err, size_t errlen)
{
	const char *json = config_str(s->c, CFG_OUTPUT_JSON);
	const char *junit = config_str(s->c, CFG_OUTPUT_JUNIT);
	const char *results = config_str(s->c, CFG_OUTPUT_RESULTS);
	const char *kcidb = config_str(s->c, CFG_OUTPUT_KCIDB);
	const char *log = config_str(s->c, CFG_OUTPUT_LOG);
	struct outfile_arg outs[4 * OUTPUTS_MAX + 1];
	const struct outfile_arg ins[] = { { "the board file", s->p.board_file, false },
					   { "the profile", s->p.profile_file, false } };
	char *base = log[0] ? strdup(log) : default_log_path();
	size_t i, n = 0;

	s->ri.board_file = s->p.board_file;
	s->ri.profile_file = s->p.profile_file;
	if (kcidb[0] && !kcidb_origin_ok(config_str(s->c, CFG_OUTPUT_KCIDB_ORIGIN))) {
		char where[256];

		msgbuf_set(err, errlen, "output.kcidb_origin \"%s\" (%s): a KCIDB origin is [a-z0-9_]+",
			   config_str(s->c, CFG_OUTPUT_KCIDB_ORIGIN),
			   config_origin(s->c, CFG_OUTPUT_KCIDB_ORIGIN, where, sizeof(where)));
		free(base);
		return -1;
	}
	if (!base) {
		msgbuf_set(err, errlen, "%s", strerror(ENOMEM));
		return -1;
	}
	if (s->outs.n > 1 && lines_base_ok(base, "--log", s->outs.n, err, errlen) < 0) {
		free(base);
		return -1;
	}
	for (i = 0; i < s->outs.n; i++) {
		s->ln[i].log_path = s->outs.n == 1 ? strdup(base)
				    : run_line_path(base, s->outs.o[i].line);
		if (!s->ln[i].log_path) {
			free(base);
			msgbuf_set(err, errlen, "%s", strerror(ENOMEM));
			return -1;
		}
		outs[n++] = (struct outfile_arg){ "--log", s->ln[i].log_path, true };
	}
	free(base);
	s->ri.log_path = s->ln[0].log_path;
	if (s->outs.n == 1) {
		outs[n++] = (struct outfile_arg){ "--json", json, false };
		outs[n++] = (struct outfile_arg){ "--junit", junit, false };
		outs[n++] = (struct outfile_arg){ "--results", results, false };
		outs[n++] = (struct outfile_arg){ "--kcidb", kcidb, false };
		return outfile_check(outs, n, ins, 2, true, err, errlen) < 0 ? -1 : 0;
	}
	/* KCIDB: one document for every line (it may be standard output) */
	outs[n++] = (struct outfile_arg){ "--kcidb", kcidb, false };
	/* Several lines: one summary, JUnit and results file per line, named
	 * as the logs are (report/runreport.c); none on standard output. */
	{
		const char *const what[3] = { "--json", "--junit", "--results" };
		const char *const base3[3] = { json, junit, results };
		char *paths[3 * OUTPUTS_MAX];
		size_t k, np = 0;
		int ret = 0;

		for (k = 0; k < 3; k++) {
			if (lines_base_ok(base3[k], what[k], s->outs.n, err, errlen) < 0)
				return -1;
			for (i = 0; base3[k][0] && i < s->outs.n; i++) {
				paths[np] = run_line_path(base3[k], s->outs.o[i].line);
				if (!paths[np]) {
					ret = -1;
					msgbuf_set(err, errlen, "%s", strerror(ENOMEM));
					break;
				}
				outs[n++] = (struct outfile_arg){ what[k], paths[np++], false };
			}
		}
		if (ret == 0)
			ret = outfile_check(outs, n, ins, 2, true, err, errlen) < 0 ? -1 : 0;
		for (k = 0; k < np; k++)
			free(paths[k]);
		return ret;
	}
}

/* Line @i's file of option @base (its own name with several lines, as
 * report/runreport.c writes it). Malloc'ed; NULL: out of memory. */
char *run_session_line_file(const struct run_session *s, size_t i, const char *base)
{
	if (!base[0] || !strcmp(base, "-") || s->outs.n < 2)
		return strdup(base);
	return run_line_path(base, s->outs.o[i].line);
}

/* Before anything is created or renamed, every output: each line's
 * --json, --junit and --results file and the run's --kcidb can be created, and each line's log
 * is reserved (opened and locked, nothing changed: edgelog.h). A run
 * refused here, or later before its logs start, changes no file (the
 * reservations are abandoned by run_session_fini()). -1 with @err. */
static int session_reserve_outputs(struct run_session *s, char *err, size_t errlen)
{
	const char *const docs[3] = { config_str(s->c, CFG_OUTPUT_JSON),
				      config_str(s->c, CFG_OUTPUT_JUNIT),
				      config_str(s->c, CFG_OUTPUT_RESULTS) };
	size_t i, k;

	for (k = 0; k < 3; k++) {
		for (i = 0; docs[k][0] && i < s->outs.n; i++) {
			char *path = run_session_line_file(s, i, docs[k]);
			int ret;

			if (!path) {
				msgbuf_set(err, errlen, "%s", strerror(ENOMEM));
				return -1;
			}
			ret = outfile_creatable(path, err, errlen);
			free(path);
			if (ret < 0)
				return -1;
		}
	}
	if (outfile_creatable(config_str(s->c, CFG_OUTPUT_KCIDB), err, errlen) < 0)
		return -1;
	for (i = 0; i < s->outs.n; i++) {
		s->ln[i].log = edgelog_writer_reserve(s->ln[i].log_path, err, errlen);
		if (!s->ln[i].log)
			return -1;
	}
	return 0;
}

/* Signals: blocked in every thread, taken synchronously by the main one. */
static int session_block_signals(struct run_session *s, char *err, size_t errlen)
{
	sigset_t sigs;

	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGPIPE);
	sigaddset(&sigs, SIGCHLD);	/* the loads */
	pthread_sigmask(SIG_BLOCK, &sigs, &s->oldsigs);
	sigemptyset(&s->stop_sigs);
	sigaddset(&s->stop_sigs, SIGINT);
	sigaddset(&s->stop_sigs, SIGTERM);
	sigaddset(&s->stop_sigs, SIGHUP);
	sigdelset(&sigs, SIGPIPE);
	s->sfd = signalfd(-1, &sigs, SFD_CLOEXEC | SFD_NONBLOCK);
	if (s->sfd < 0) {
		msgbuf_set(err, errlen, "signalfd: %s", strerror(errno));
		return -1;
	}
	/* A file-size limit must be an I/O error (EFBIG), like a full disk, not death. */
	signal(SIGXFSZ, SIG_IGN);
	return 0;
}

struct run_session *run_session_init(const struct run_session_params *p, int *exit_code,
				     char *err, size_t errlen)
{
	struct run_session *s = calloc(1, sizeof(*s));
	int soak_exit = 0;
	size_t i;

	*exit_code = SQW_EXIT_RUNTIME;
	if (!s) {
		msgbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	/* One malloc arena for every thread: with mlockall(MCL_FUTURE) each
	 * extra arena (64 MiB reserved, made by a thread's first free()) would
	 * count against RLIMIT_MEMLOCK and lock address space for nothing. */
	mallopt(M_ARENA_MAX, 1);
	s->p = *p;
	s->c = p->cfg;
	s->sfd = -1;
	s->rs.dma_fd = -1;
	s->grp.tfd = -1;
	for (i = 0; i < OUTPUTS_MAX; i++)
		s->ln[i].loop.tfd = -1;
	if (outputs_resolve(s->c, &s->outs, err, errlen) < 0 ||
	    session_check_config(s, err, errlen) < 0) {
		*exit_code = SQW_EXIT_USAGE;
		free(s);
		return NULL;
	}
	session_prepare_host(s);
	/* Every load of every phase must be able to run here before anything
	 * starts (a missing CoreMark, a BusyBox ping: exit 2). */
	s->soak = soak_new(s->c, err, errlen, &soak_exit);
	if (!s->soak) {
		*exit_code = soak_exit == 2 ? SQW_EXIT_USAGE : SQW_EXIT_RUNTIME;
		free(s);
		return NULL;
	}
	if (session_check_outputs(s, err, errlen) < 0) {
		*exit_code = SQW_EXIT_USAGE;
		soak_free(s->soak);
		for (i = 0; i < s->outs.n; i++)
			free(s->ln[i].log_path);
		free(s);
		return NULL;
	}
	sysinfo_host_read(&s->ri.host);
	/* A preflight writes nothing: its outputs are not reserved (a log
	 * another run holds, or one not yet creatable, stops no check). */
	if (session_block_signals(s, err, errlen) < 0 ||
	    (!s->p.preflight && session_reserve_outputs(s, err, errlen) < 0)) {
		run_session_fini(s);
		return NULL;
	}
	return s;
}

/* respond's input: the board's input line, with the edges, debounce and
 * event clock respond.* asks for, and the kernel's largest event buffer. */
static int session_open_input(struct run_session *s)
{
	const struct config *c = s->c;
	struct gpio_in_spec spec = {
		.backend = (enum gpio_backend)config_choice(c, CFG_GPIO_BACKEND),
		.chip = config_str(c, CFG_INPUT_CHIP),
		.line = config_str(c, CFG_INPUT_LINE),
		.consumer = "sqwave-respond",
		.edges = true,
		.event_buffer = 1024,
		.config = c,
		.edge = (enum gpio_edge)config_choice(c, CFG_RESPOND_EDGE),
		.debounce_ns = config_int(c, CFG_RESPOND_DEBOUNCE),
		.clock = (enum gpio_event_clock)config_choice(c, CFG_RESPOND_EVENT_CLOCK),
	};

	s->in = gpio_in_open(&spec, s->why, sizeof(s->why));
	if (!s->in) {
		run_session_say(s, RUN_SAY_ERR, "input line: %s", s->why);
		return errno == ENOTSUP ? SQW_EXIT_USAGE : SQW_EXIT_RUNTIME;
	}
	snprintf(s->input_desc, sizeof(s->input_desc), "%s", gpio_in_describe(s->in));
	s->ri.respond = true;
	s->ri.input_desc = s->input_desc;
	s->ri.respond_mode = config_str(c, CFG_RESPOND_MODE);
	s->ri.respond_edge = config_str(c, CFG_RESPOND_EDGE);
	s->ri.respond_pulse_ns = config_int(c, CFG_RESPOND_PULSE_WIDTH);
	s->ri.debounce_ns = config_int(c, CFG_RESPOND_DEBOUNCE);
	s->ri.warmup_ns = config_int(c, CFG_RUN_WARMUP);
	s->ri.irq_bound_ns = config_int(c, CFG_RESPOND_IRQ_BOUND);
	s->ri.event_clock = config_str(c, CFG_RESPOND_EVENT_CLOCK);
	return SQW_EXIT_OK;
}

/* 1. Everything that allocates: the line, the loopback input, the ring,
 * the statistics, the RT loop's timer. */
/* Line @i's loop, ring and statistics (everything but the request). */
static int session_open_line(struct run_session *s, size_t i)
{
	const struct config *c = s->c;
	struct run_line *ln = &s->ln[i];
	const struct output_def *d = &s->outs.o[i];
	int64_t half = d->half_ns;
	int64_t duration = plan_duration(config_plan(c));
	uint64_t h = (uint64_t)half;
	struct rtloop *loop = &ln->loop;

	if (ring_init(&ln->ring, (size_t)config_int(c, CFG_RUN_RING_SIZE)) < 0) {
		run_session_say(s, RUN_SAY_ERR, "cannot allocate the edge ring: %s", strerror(errno));
		return SQW_EXIT_RUNTIME;
	}
	ln->stats = edgestats_new(half);
	if (!ln->stats) {
		run_session_say(s, RUN_SAY_ERR, "cannot allocate statistics: %s", strerror(errno));
		return SQW_EXIT_RUNTIME;
	}
	pin_init_wave(&ln->pin, d->line, &d->wave, ln->spec.idle_level,
		      (enum pin_grid)config_choice(c, CFG_GRID_CLOCK), config_int(c, CFG_GRID_ALIGN));
	edgestats_set_pin(ln->stats, &ln->pin);
	loop->gpio = ln->gpio;
	loop->ring = &ln->ring;
	loop->clock = CLOCK_MONOTONIC;
	loop->half_ns = half;
	loop->wave = d->wave;
	loop->warmup_slots = ((uint64_t)config_int(c, CFG_RUN_WARMUP) + h - 1) / h;
	/* A duty cycle warms up whole periods: the first counted edge leaves
	 * idle, and warm-up slots x half is their time exactly. */
	if (!wave_is_square(&loop->wave))
		loop->warmup_slots += loop->warmup_slots & 1;
	loop->total_slots = duration
		? loop->warmup_slots + 2 * (((uint64_t)duration + 2 * h - 1) / (2 * h)) : 0;
	loop->idle_level = ln->spec.idle_level;
	loop->stack_prefault = RUN_RT_STACK / 2;
	loop->spin_auto = config_int(c, CFG_RUN_SPIN) == CFG_SPIN_AUTO;
	loop->spin_ns = loop->spin_auto ? 0 : config_int(c, CFG_RUN_SPIN);
	loop->spin_max_ns = loop->spin_auto ? half / 4 : 0;
	return SQW_EXIT_OK;
}

/* Per-cpu: one line named twice (an offset and its name) would find
 * itself busy at its second request; said as what it is. True when said. */
static bool session_same_line_twice(struct run_session *s)
{
	struct gpio_location loc[OUTPUTS_MAX];
	size_t i, j;
	char o[256];

	for (i = 0; i < s->outs.n; i++) {
		if (gpio_locate(s->ln[i].spec.backend, s->c, s->ln[i].spec.chip,
				s->ln[i].spec.line, &loc[i], s->why, sizeof(s->why)) < 0)
			return false;	/* the request says why, as for one line */
		for (j = 0; j < i; j++) {
			if (loc[j].offset != loc[i].offset || strcmp(loc[j].chip.path, loc[i].chip.path))
				continue;
			run_session_say(s, RUN_SAY_ERR, "gpio.line (\"%s\", %s): line %s is listed "
					"twice: it is line %u of %s, as %s is",
					config_str(s->c, CFG_GPIO_LINE),
					config_origin(s->c, CFG_GPIO_LINE, o, sizeof(o)),
					s->outs.o[i].line, loc[i].offset, loc[i].chip.name,
					s->outs.o[j].line);
			return true;
		}
	}
	return false;
}

/* The lines: one request each (one line, or per-cpu), or one for all
 * (together). Their descriptions are copies: the summary is printed after
 * the lines are closed. */
static int session_open_gpio(struct run_session *s)
{
	size_t i;

	const char *lines[OUTPUTS_MAX];

	for (i = 0; i < s->outs.n; i++) {
		gpio_out_spec_from_config(s->c, &s->ln[i].spec);
		s->ln[i].spec.line = s->outs.o[i].line;
		lines[i] = s->outs.o[i].line;
	}
	/* never drive the board's loopback or respond input (a lookup that
	 * fails here is said by the request below) */
	if (gpio_outputs_on_inputs(s->ln[0].spec.backend, s->c, s->ln[0].spec.chip, lines,
				   s->outs.n, s->why, sizeof(s->why)) == 1) {
		run_session_say(s, RUN_SAY_ERR, "%s", s->why);
		return SQW_EXIT_USAGE;
	}
	if (s->outs.n > 1 && s->outs.mode == OUTPUTS_TOGETHER) {
		s->group = gpio_group_open(&s->ln[0].spec, lines, s->outs.n, s->why,
					   sizeof(s->why));
		if (!s->group && errno == EEXIST) {	/* one line by two names: usage */
			char o[256];

			run_session_say(s, RUN_SAY_ERR, "gpio.line (\"%s\", %s): %s",
					config_str(s->c, CFG_GPIO_LINE),
					config_origin(s->c, CFG_GPIO_LINE, o, sizeof(o)), s->why);
			return SQW_EXIT_USAGE;
		}
		if (!s->group) {
			run_session_say(s, RUN_SAY_ERR, "%s", s->why);
			return SQW_EXIT_RUNTIME;
		}
		for (i = 0; i < s->outs.n; i++)
			snprintf(s->ln[i].gpio_desc, sizeof(s->ln[i].gpio_desc), "%s",
				 gpio_group_describe(s->group, i));
	} else {
		if (s->outs.n > 1 && session_same_line_twice(s))
			return SQW_EXIT_USAGE;
		for (i = 0; i < s->outs.n; i++) {
			s->ln[i].gpio = gpio_out_open(&s->ln[i].spec, s->why, sizeof(s->why));
			if (!s->ln[i].gpio) {
				run_session_say(s, RUN_SAY_ERR, "%s", s->why);
				return SQW_EXIT_RUNTIME;
			}
			snprintf(s->ln[i].gpio_desc, sizeof(s->ln[i].gpio_desc), "%s",
				 gpio_out_describe(s->ln[i].gpio));
		}
	}
	s->ri.gpio_desc = s->ln[0].gpio_desc;
	return SQW_EXIT_OK;
}

/* The CPU line @i's RT thread is pinned to (-1: none): its own with
 * run.outputs per-cpu, else the one RT thread's (rt.cpu). */
static int session_line_cpu(const struct run_session *s, size_t i)
{
	return s->outs.mode == OUTPUTS_PER_CPU && s->outs.n > 1 ? s->outs.o[i].cpu : s->rp.cpu;
}

/* The one CPU whose idle states line @i's documents describe: its RT
 * thread's, when rt.idle_cpus rt restricted the RT CPUs; -1: every CPU
 * the run restricted (rt.idle_cpus all, or a thread not pinned). */
static int session_idle_cpu(const struct run_session *s, size_t i)
{
	return config_choice(s->c, CFG_RT_IDLE_CPUS) == 0 ? session_line_cpu(s, i) : -1;
}

static int session_open(struct run_session *s)
{
	const struct config *c = s->c;
	int64_t half = config_int(c, CFG_RUN_HALF_PERIOD);
	struct rtloop *loop = &s->ln[0].loop;
	size_t i;
	int ret;

	if ((ret = session_open_gpio(s)) != SQW_EXIT_OK)
		return ret;
	if (config_bool(c, CFG_RUN_LOOPBACK)) {	/* run --loopback: the input, now */
		s->lb_in = loopback_input_open(c, s->why, sizeof(s->why));
		if (!s->lb_in) {
			if (errno == ENOENT && !s->why[0]) {
				run_session_say(s, RUN_SAY_ERR, "run.loopback needs the board file's "
						"loopback section (loopback.chip, loopback.line)");
				return SQW_EXIT_USAGE;
			}
			run_session_say(s, RUN_SAY_ERR, "loopback input: %s", s->why);
			return SQW_EXIT_RUNTIME;
		}
	}
	if (s->p.respond && (ret = session_open_input(s)) != SQW_EXIT_OK)
		return ret;
	if (strstr(s->ln[0].gpio_desc, "cp2112") || strstr(s->ln[0].gpio_desc, "ftdi"))
		run_session_say(s, RUN_SAY_WARN, "%s is a USB GPIO adapter: every write is a USB "
				"round trip (0.1-1 ms), too slow for a %s half period",
				s->ln[0].gpio_desc, dur(half, s->why, sizeof(s->why)));
	s->rp.cpu = s->outs.mode == OUTPUTS_PER_CPU && s->outs.n > 1 ? s->outs.o[0].cpu
		    : (int)config_int(c, CFG_RT_CPU);
	s->rp.priority = (int)config_int(c, CFG_RT_PRIORITY);
	s->rp.lock_memory = config_bool(c, CFG_RT_LOCK_MEMORY);
	s->rp.dma_latency_us = (int)config_int(c, CFG_RT_DMA_LATENCY);
	s->rp.stack_size = RUN_RT_STACK;
	/* checked in session_check_config() */
	cpuidle_limit_parse(config_str(c, CFG_RT_IDLE_STATE), &s->rp.idle_limit, s->why,
			    sizeof(s->why));
	s->rp.idle_all_cpus = config_choice(c, CFG_RT_IDLE_CPUS) == 1;
	/* every RT thread's CPU: rt.idle_cpus rt restricts each line's */
	CPU_ZERO(&s->rp.rt_cpus);
	for (i = 0; i < s->outs.n; i++)
		if (session_line_cpu(s, i) >= 0)
			CPU_SET(session_line_cpu(s, i), &s->rp.rt_cpus);
	s->rp.idle_root = cpuidle_root();
	s->rp.self_exe = "/proc/self/exe";
	for (i = 0; i < s->outs.n; i++) {
		if ((ret = session_open_line(s, i)) != SQW_EXIT_OK)
			return ret;
	}
	if (s->p.respond) {	/* no timer: the events pace the loop */
		loop->clock = gpio_in_clockid(s->in);
		loop->warmup_slots = loop->total_slots = 0;
		s->warmup_ns = (uint64_t)config_int(c, CFG_RUN_WARMUP);
		s->resp.loop = loop;
		s->resp.in = s->in;
		s->resp.mode = (enum respond_mode)config_choice(c, CFG_RESPOND_MODE);
		s->resp.pulse_ns = config_int(c, CFG_RESPOND_PULSE_WIDTH);
		pin_init_respond(&s->ln[0].pin, s->outs.o[0].line, s->ln[0].spec.idle_level,
				 (enum pin_respond_mode)s->resp.mode, config_str(c, CFG_INPUT_LINE),
				 (enum pin_edge)config_choice(c, CFG_RESPOND_EDGE),
				 config_int(c, CFG_RESPOND_DEBOUNCE), s->resp.pulse_ns);
		edgestats_set_pin(s->ln[0].stats, &s->ln[0].pin);
		respond_open(&s->resp);
		return SQW_EXIT_OK;
	}
	if (config_choice(c, CFG_RT_TIMER) == 1) {	/* the tracer runs from here */
		s->tl = tlatrun_open(&(struct tlatrun_params){ .cpu = s->rp.cpu, .half_ns = half },
				     s->why, sizeof(s->why));
		if (!s->tl) {
			run_session_say(s, RUN_SAY_ERR, "%s", s->why);
			return SQW_EXIT_RUNTIME;
		}
		loop->tl_path = tlatrun_fd_path(s->tl);
		loop->tl_arm_reads = TLATRUN_ARM_READS;
	}
	if (s->group) {	/* together: one thread, one timer, every line a lane */
		s->grp.gpio = s->group;
		s->grp.n = s->outs.n;
		s->grp.clock = CLOCK_MONOTONIC;
		s->grp.stack_prefault = RUN_RT_STACK / 2;
		for (i = 0; i < s->outs.n; i++)
			s->grp.lanes[i] = &s->ln[i].loop;
		if (rtgroup_open(&s->grp) < 0) {
			run_session_say(s, RUN_SAY_ERR, "timerfd_create: %s", strerror(errno));
			return SQW_EXIT_RUNTIME;
		}
		return SQW_EXIT_OK;
	}
	for (i = 0; i < s->outs.n; i++) {
		if (rtloop_open(&s->ln[i].loop) < 0) {
			run_session_say(s, RUN_SAY_ERR, "%s: %s", loop->tl_path ? "rt.timer: timerlat"
					: "timerfd_create", strerror(errno));
			return SQW_EXIT_RUNTIME;
		}
	}
	return SQW_EXIT_OK;
}

/* run.outputs per-cpu: the non-RT threads (this one, and the recorders,
 * status and helpers it starts) off every line's CPU. When every allowed
 * CPU runs a line, they stay spread over all of them (said): piled onto
 * one line's CPU they would disturb that line alone (docs/benchmarks.md). */
static void session_nonrt_off_lines(struct run_session *s)
{
	cpu_set_t set;
	size_t i;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return;
	for (i = 0; i < s->outs.n; i++)
		CPU_CLR(s->outs.o[i].cpu, &set);
	if (CPU_COUNT(&set) == 0) {
		run_session_say(s, RUN_SAY_WARN, "run.outputs per-cpu: every CPU runs a line's RT "
				"thread, so the recorders and the main thread share them all; leave "
				"one CPU without a line (rt.cpus) to keep them off");
		return;
	}
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		run_session_say(s, RUN_SAY_WARN, "cannot keep the other threads off the lines' "
				"CPUs (%s): they may disturb the RT threads", strerror(errno));
}

/* 2. Privileged setup, after allocation; then the RT thread, which waits
 * for the go. */
static int session_enter_rt(struct run_session *s)
{
	bool allow = config_bool(s->c, CFG_RT_ALLOW_NON_RT);

	s->rt_ok = rtsetup_process_enter(&s->rs, &s->rp) == 0;
	if (!s->rt_ok && !allow) {
		run_session_say(s, RUN_SAY_ERR, "real-time setup refused:\n%s(or pass "
				"--allow-non-rt to run anyway, marked non-RT)", s->rs.problems);
		return SQW_EXIT_RUNTIME;
	}
	/* Every thread but the RT one stays off rt.cpu: this one, and through
	 * inheritance each thread it creates from here (the RT thread is
	 * pinned by its own attributes). Per-cpu: off every line's CPU. */
	if (s->outs.mode == OUTPUTS_PER_CPU && s->outs.n > 1)
		session_nonrt_off_lines(s);
	else if (rtsetup_nonrt_affinity(s->rp.cpu) < 0)
		run_session_say(s, RUN_SAY_WARN, "cannot keep the other threads off CPU %d (%s): "
				"they may disturb the RT thread", s->rp.cpu,
				errno == ENOENT ? "it is the only CPU allowed" : strerror(errno));
	if (s->group) {	/* together: one RT thread for every line */
		if (rtsetup_thread_create(&s->rs, &s->ln[0].rt_tid, rtgroup_thread, &s->grp, allow)) {
			run_session_say(s, RUN_SAY_ERR, "cannot start the RT thread:\n%s",
					s->rs.problems);
			return SQW_EXIT_RUNTIME;
		}
		s->ln[0].rt_started = true;
	} else if (s->outs.n > 1) {	/* per-cpu: one RT thread per line, on its CPU */
		size_t i;
		bool fifo = true, pinned = true;

		for (i = 0; i < s->outs.n; i++) {
			s->rs.fifo = false;
			if (rtsetup_thread_create_on(&s->rs, s->outs.o[i].cpu, &s->ln[i].rt_tid,
						     rtloop_thread, &s->ln[i].loop, allow)) {
				run_session_say(s, RUN_SAY_ERR, "cannot start the RT thread of line "
						"%s:\n%s", s->outs.o[i].line, s->rs.problems);
				return SQW_EXIT_RUNTIME;
			}
			s->ln[i].rt_started = true;
			fifo = fifo && s->rs.fifo;
			pinned = pinned && s->rs.pinned;
		}
		s->rs.fifo = fifo;
		s->rs.pinned = pinned;
	} else {
		if (rtsetup_thread_create(&s->rs, &s->ln[0].rt_tid, s->p.respond ? respond_thread
					  : rtloop_thread, s->p.respond ? (void *)&s->resp
					  : (void *)&s->ln[0].loop, allow)) {
			run_session_say(s, RUN_SAY_ERR, "cannot start the RT thread:\n%s",
					s->rs.problems);
			return SQW_EXIT_RUNTIME;
		}
		s->ln[0].rt_started = true;
	}
	s->rt_ok = s->rt_ok && s->rs.fifo;
	s->ri.rt_ok = s->rt_ok;
	s->ri.non_rt_reason = s->rt_ok ? NULL : s->rs.problems;
	if (!s->rt_ok)
		run_session_say(s, RUN_SAY_WARN, "NON-RT RUN (--allow-non-rt): results are not "
				"real-time results:\n%s", s->rs.problems);
	return SQW_EXIT_OK;
}

/* The header's metadata: resolved configuration, host and line. */
static char *meta_text(const struct run_session *s, size_t line)
{
	const struct run_info *ri = &s->ri;
	const struct wave *w = &s->ln[line].loop.wave;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fprintf(f, EDGELOG_META_VERSION "=%s\n", SQW_VERSION);
	fprintf(f, EDGELOG_META_BOARD_FILE "=%s\n", ri->board_file);
	fprintf(f, EDGELOG_META_PROFILE "=%s\n", ri->profile_file ? ri->profile_file : "");
	fprintf(f, EDGELOG_META_GPIO "=%s\n", s->ln[line].gpio_desc);
	if (s->outs.n > 1) {
		size_t i;

		fprintf(f, EDGELOG_META_OUTPUTS_COUNT "=%zu\n", s->outs.n);
		fprintf(f, EDGELOG_META_OUTPUTS_INDEX "=%zu\n", line);
		fprintf(f, EDGELOG_META_OUTPUTS_MODE "=%s\n",
			s->outs.mode == OUTPUTS_PER_CPU ? "per-cpu" : "together");
		fprintf(f, EDGELOG_META_OUTPUTS_LINE "=%s\n", s->outs.o[line].line);
		fprintf(f, EDGELOG_META_OUTPUTS_LINES "=");
		for (i = 0; i < s->outs.n; i++)
			fprintf(f, "%s%s", i ? "," : "", s->outs.o[i].line);
		fprintf(f, "\n");
		if (s->outs.mode == OUTPUTS_PER_CPU)
			fprintf(f, EDGELOG_META_OUTPUTS_CPU "=%d\n", s->outs.o[line].cpu);
	}
	if (ri->respond) {
		fprintf(f, EDGELOG_META_MODE "=respond\n");
		fprintf(f, EDGELOG_META_INPUT "=%s\n", ri->input_desc);
	}
	fprintf(f, EDGELOG_META_RT "=%s\n", s->rt_ok ? "yes" : "no");
	if (s->rs.idle) {
		char idle[4096];

		fprintf(f, EDGELOG_META_IDLE_STATES "=%s\n",
			cpuidle_hold_describe_cpu(s->rs.idle, session_idle_cpu(s, line), false, idle,
						  sizeof(idle)));
	}
	fprintf(f, EDGELOG_META_HOST "=%s\n", ri->host.hostname);
	fprintf(f, EDGELOG_META_KERNEL "=%s %s\n", ri->host.kernel_release, ri->host.kernel_version);
	fprintf(f, EDGELOG_META_MACHINE "=%s\n", ri->host.machine);
	fprintf(f, EDGELOG_META_PREEMPT_RT "=%s\n", ri->host.preempt_rt ? "yes" : "no");
	fprintf(f, EDGELOG_META_CMDLINE "=%s\n", ri->host.cmdline);
	fprintf(f, EDGELOG_META_CPU "=%s\n", ri->host.cpu_model);
	fprintf(f, EDGELOG_META_NCPUS "=%d\n", ri->host.ncpus);
	if (!wave_is_square(w) || w->phase_ns || s->outs.n > 1) {
		fprintf(f, EDGELOG_META_WAVE_HIGH "=%" PRId64 "\n", w->high_ns);
		fprintf(f, EDGELOG_META_WAVE_LOW "=%" PRId64 "\n", w->low_ns);
		fprintf(f, EDGELOG_META_WAVE_PHASE "=%" PRId64 "\n", w->phase_ns);
	}
	pin_meta_write(&s->ln[line].pin, f);
	config_dump(s->c, f);
	plan_dump(config_plan(s->c), f);
	soak_dump_meta(s->soak, f);
	if (s->grid)
		gridrun_dump_meta(s->grid, f);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* 3a. The first phase's loads, before anything is measured (a load that
 * cannot start, or ends at once, stops the run here), and the break helper. */
static int session_start_loads(struct run_session *s)
{
	const struct config *c = s->c;

	if (soak_start(s->soak, s->why, sizeof(s->why)) < 0) {
		run_session_say(s, RUN_SAY_ERR, "%s", s->why);
		return SQW_EXIT_RUNTIME;
	}
	if (!config_int(c, CFG_TRACE_BREAK))
		return SQW_EXIT_OK;
	s->tb = tracebreak_new(&(struct tracebreak_params){
		.threshold_ns = config_int(c, CFG_TRACE_BREAK),
		.stop_on_break = config_bool(c, CFG_TRACE_STOP_ON_BREAK),
		.max_breaks = (int)config_int(c, CFG_TRACE_MAX_BREAKS),
		.tracer = config_str(c, CFG_TRACE_TRACER),
		.buffer_kb = (int)config_int(c, CFG_TRACE_BUFFER_KB),
		.top = config_choice(c, CFG_TRACE_BUFFER) == 1,
		.events = config_str(c, CFG_TRACE_EVENTS),
		.log_path = s->ln[0].log_path,
		.rt_priority = (int)config_int(c, CFG_RT_PRIORITY),
		.respond = s->p.respond }, s->why, sizeof(s->why));
	if (!s->tb) {
		run_session_say(s, RUN_SAY_ERR, "%s", s->why);
		return SQW_EXIT_RUNTIME;
	}
	s->ln[0].loop.brk = tracebreak_rt(s->tb);	/* read by the RT thread after go */
	return SQW_EXIT_OK;
}

/* rt.timer timerlat: the RT thread arms the kernel's timer (its first
 * reads of timerlat_fd), and slot 0 goes on the grid the tracer's samples
 * show, the lead from now. */
static int session_place_timerlat(struct run_session *s)
{
	uint64_t until = clock_mono_ns() + 3000000000ull;
	int st;

	atomic_store_explicit(&s->ln[0].loop.tl_state, RTLOOP_TL_ARM, memory_order_release);
	while ((st = atomic_load_explicit(&s->ln[0].loop.tl_state, memory_order_acquire)) ==
		       RTLOOP_TL_ARM && clock_mono_ns() < until)
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	if (st != RTLOOP_TL_ARMED) {
		run_session_say(s, RUN_SAY_ERR, "rt.timer: the RT thread could not arm %s: %s",
				tlatrun_fd_path(s->tl), st < 0 ? strerror(-st)
				: "no activation of the kernel's timer in 3 s");
		return SQW_EXIT_RUNTIME;
	}
	if (tlatrun_place(s->tl, clock_now_ns(s->ln[0].loop.clock) + RUN_LEAD_NS, &s->ln[0].loop.start_ns,
			  s->why, sizeof(s->why)) < 0) {
		run_session_say(s, RUN_SAY_ERR, "%s", s->why);
		return SQW_EXIT_RUNTIME;
	}
	return SQW_EXIT_OK;
}

/* 3b. The log: its first edge's time, the header, the file (locked, never
 * truncated: another run's log is refused, an old log kept aside). */
static int session_create_log(struct run_session *s)
{
	char kept[4096];
	size_t i;

	if (s->tl) {
		int ret = session_place_timerlat(s);

		if (ret != SQW_EXIT_OK)
			return ret;
	} else if (config_choice(s->c, CFG_GRID_CLOCK) != GRID_CLOCK_MONOTONIC) {
		/* slot 0 on the shared grid: exactly on it, no tick offset */
		s->grid = gridrun_open(s->c, s->why, sizeof(s->why));
		if (!s->grid || gridrun_place(s->grid, RUN_LEAD_NS, &s->ln[0].loop.start_ns, s->why,
					      sizeof(s->why)) < 0) {
			run_session_say(s, RUN_SAY_ERR, "%s", s->why);
			return SQW_EXIT_RUNTIME;
		}
	} else {
		s->ln[0].loop.start_ns = clock_now_ns(s->ln[0].loop.clock) + RUN_LEAD_NS;
		/* Slot 0 a quarter millisecond off the millisecond grid: periodic
		 * scheduler ticks (HZ 100/250/1000) fall on that grid, and an edge
		 * due on a tick wakes after the tick's work (docs/benchmarks.md). */
		s->ln[0].loop.start_ns -= s->ln[0].loop.start_ns % 1000000ull;
		s->ln[0].loop.start_ns += RUN_GRID_OFFSET_NS;
	}
	/* run.phase (run.line_phase): every edge that much after its grid
	 * instant; slot 0's intended time (the header's start_ns) includes it.
	 * Every line starts on the same grid instant. */
	for (i = 1; i < s->outs.n; i++)
		s->ln[i].loop.start_ns = s->ln[0].loop.start_ns;
	for (i = 0; i < s->outs.n; i++)
		s->ln[i].loop.start_ns += (uint64_t)s->ln[i].loop.wave.phase_ns;
	if (s->grid) {
		const struct run_grid *g = gridrun_info(s->grid);

		if (g->sync_known && !g->sync.synced)
			run_session_say(s, RUN_SAY_WARN, "grid.clock %s: the kernel says the clock "
					"is not synchronised (adjtimex status 0x%04x, state %s): "
					"the grid is this host's own, not one another board shares",
					g->clock, (unsigned)g->sync.status,
					clocksync_state_name(g->sync.state));
	}
	if (s->p.respond) {	/* answer from the start, count after the warm-up */
		int64_t duration = plan_duration(config_plan(s->c));

		s->resp.warmup_end_ns = s->ln[0].loop.start_ns + s->warmup_ns;
		s->resp.end_ns = duration ? s->resp.warmup_end_ns + (uint64_t)duration : 0;
	}
	for (i = 0; i < s->outs.n; i++) {
		struct run_line *ln = &s->ln[i];

		ln->meta.clock_id = (uint32_t)ln->loop.clock;
		ln->meta.half_period_ns = (uint64_t)ln->loop.half_ns;
		ln->meta.start_ns = ln->loop.start_ns;
		ln->meta.start_realtime_ns = clock_now_ns(CLOCK_REALTIME) +
					     (ln->loop.start_ns - clock_now_ns(ln->loop.clock));
		/* exact on a realtime grid: it is the grid's instant */
		if (s->grid && config_choice(s->c, CFG_GRID_CLOCK) == GRID_CLOCK_REALTIME)
			ln->meta.start_realtime_ns = gridrun_info(s->grid)->start_ns;
		ln->meta.text = meta_text(s, i);
		if (!ln->meta.text) {
			run_session_say(s, RUN_SAY_ERR, "cannot allocate the log header: %s",
					strerror(errno));
			return SQW_EXIT_RUNTIME;
		}
		/* reserved at init: every line's log was ours before this one
		 * changes anything */
		if (edgelog_writer_start(ln->log, &ln->meta, kept, sizeof(kept), s->why,
					 sizeof(s->why)) < 0) {
			run_session_say(s, RUN_SAY_ERR, "%s", s->why);
			return SQW_EXIT_RUNTIME;
		}
		ln->log_started = true;
		if (kept[0])
			run_session_say(s, RUN_SAY_INFO, "%s existed: kept it as %s", ln->log_path,
					kept);
	}
	s->ri.start_realtime_ns = s->ln[0].meta.start_realtime_ns;
	return SQW_EXIT_OK;
}

/* 3c. The recorder (ring -> log + statistics), the break helper and the
 * loopback reader; then go. */
/* Line @i's phase statistics and recorder, started. */
static int session_start_recorder(struct run_session *s, size_t i)
{
	struct run_line *ln = &s->ln[i];
	int err;

	/* The last phase is open-ended: it keeps the edge that returns the line
	 * to idle after the last slot, as the run's own figures do. */
	ln->pstats = phasestats_new(ln->loop.half_ns, soak_nphases(s->soak), s->starts, 0);
	if (ln->pstats)
		phasestats_set_pin(ln->pstats, &ln->pin);
	/* A small stack: with mlockall(MCL_FUTURE) every byte of it is locked,
	 * and an unprivileged RLIMIT_MEMLOCK would refuse a default 8 MiB one.
	 * A log that fails stops the whole run (together: the group's flag). */
	ln->rec = ln->pstats ? recorder_new(&(struct recorder_params){
		.ring = &ln->ring, .log = ln->log, .stats = ln->stats, .phases = ln->pstats,
		.half_period_ns = ln->loop.half_ns,
		.stop_req = s->group ? &s->grp.stop_req : &ln->loop.stop_req,
		.stack_size = WRITER_STACK }) : NULL;
	if (!ln->rec) {
		run_session_say(s, RUN_SAY_ERR, "cannot allocate the recorder: %s", strerror(errno));
		return SQW_EXIT_RUNTIME;
	}
	if (i > 0)
		recorder_mirror(s->ln[i - 1].rec, ln->rec);
	err = recorder_start(ln->rec);
	if (err) {
		run_session_say(s, RUN_SAY_ERR, "cannot start the writer thread: %s", strerror(err));
		return SQW_EXIT_RUNTIME;
	}
	ln->loop.bell = recorder_bell(ln->rec);	/* read by the RT thread after go */
	return SQW_EXIT_OK;
}

static int session_start_threads(struct run_session *s)
{
	uint64_t half = (uint64_t)s->ln[0].loop.half_ns;
	size_t i;
	int err;

	s->measure0 = s->ln[0].loop.start_ns + s->ln[0].loop.warmup_slots * half + s->warmup_ns;
	s->starts = calloc(soak_nphases(s->soak), sizeof(*s->starts));
	if (!s->starts) {
		run_session_say(s, RUN_SAY_ERR, "out of memory");
		return SQW_EXIT_RUNTIME;
	}
	soak_phase_starts(s->soak, s->measure0, s->starts);
	for (i = 0; i < s->outs.n; i++) {
		if ((err = session_start_recorder(s, i)) != SQW_EXIT_OK)
			return err;
	}
	soak_attach(s->soak, s->ln[0].rec, s->measure0);
	if (s->tl)
		tlatrun_attach(s->tl, s->ln[0].rec, s->ln[0].loop.warmup_slots);
	if (s->tb && (err = tracebreak_start(s->tb, s->ln[0].rec, &s->ln[0].loop.stop_req))) {
		run_session_say(s, RUN_SAY_ERR, "cannot start the trace-break thread: %s",
				strerror(err));
		return SQW_EXIT_RUNTIME;
	}
	if (s->lb_in && !(s->lb = loopback_reader_start(s->lb_in, s->ln[0].rec, LOOPBACK_STACK))) {
		run_session_say(s, RUN_SAY_ERR, "cannot start the loopback reader: %s",
				strerror(errno));
		return SQW_EXIT_RUNTIME;
	}
	if (s->group)
		atomic_store_explicit(&s->grp.go, true, memory_order_release);
	for (i = 0; i < s->outs.n; i++)
		atomic_store_explicit(&s->ln[i].loop.go, true, memory_order_release);
	return SQW_EXIT_OK;
}

/* Limits the run has already broken, from the live figures ("" if none). */
static const char *status_limits(const struct config *c, const struct edgestats_live *l,
				 char *buf, size_t len)
{
	int64_t tmin = config_int(c, CFG_LIMITS_TMIN), tmax = config_int(c, CFG_LIMITS_TMAX);
	int64_t wmax = config_int(c, CFG_LIMITS_WAKE_LATENCY_MAX);
	int64_t mmax = config_int(c, CFG_LIMITS_MISSED_MAX);
	int64_t werr = config_int(c, CFG_LIMITS_WIDTH_ERROR);
	bool pulses = l->width_max_ns > 0;

	snprintf(buf, len, "%s%s%s%s%s", pulses && tmin && l->width_min_ns < tmin ? " tmin" : "",
		 pulses && tmax && l->width_max_ns > tmax ? " tmax" : "",
		 pulses && werr && l->width_error_ns > werr ? " width_error" : "",
		 l->edges && wmax && l->wake_max_ns > wmax ? " wake_latency_max" : "",
		 mmax >= 0 && l->missed_periods > (uint64_t)mmax ? " missed_max" : "");
	return buf;
}

/* Several lines: the figures above are line 0's; each other line's
 * width range, wake-up maximum and missed periods follow, so that no
 * line's trouble is out of sight while the run lasts. */
static void status_lines(const struct run_session *s, FILE *out)
{
	size_t i;

	if (s->outs.n > 1)
		fprintf(out, " | line %s above", s->outs.o[0].line);
	for (i = 1; i < s->outs.n; i++) {
		struct edgestats_live live;

		recorder_live(s->ln[i].rec, &live);
		fprintf(out, " | line %s: ", s->outs.o[i].line);
		if (live.width_max_ns)
			fprintf(out, "width %.1f-%.1f us, ", live.width_min_ns / 1e3,
				live.width_max_ns / 1e3);
		fprintf(out, "wake max %.1f us, missed %llu",
			live.edges ? live.wake_max_ns / 1e3 : 0.0,
			(unsigned long long)live.missed_periods);
	}
}

/*
 * The status line: wall clock, progress and ETA, phase, the last interval's
 * worst wake-up and pulse widths, the run's extremes, limits already broken
 * and each load's state. On a terminal it rewrites itself; otherwise it is
 * one plain line per interval (journald, CI logs).
 */
static void status_print(const struct run_session *s, uint64_t t0, bool tty)
{
	FILE *out = s->p.status;
	const struct config *c = s->c;
	struct edgestats_live live;
	struct recorder_interval iv;
	uint64_t dropped = ring_dropped(&s->ln[0].ring), now = clock_now_ns(CLOCK_MONOTONIC);
	int64_t elapsed = (int64_t)(now - t0);
	int64_t total = plan_duration(config_plan(c)) + config_int(c, CFG_RUN_WARMUP);
	char e[32], tot[32], clock[16], eta[16] = "-", lim[96], loads[256], ivs[96], ws[48];
	time_t wall = time(NULL), end;
	struct tm tm;

	if (elapsed < 0)
		elapsed = 0;
	recorder_live(s->ln[0].rec, &live);
	recorder_interval(s->ln[0].rec, &iv);
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
	soak_load_status(s->soak, loads, sizeof(loads));
	status_limits(c, &live, lim, sizeof(lim));
	/* No pulse measured yet (warm-up, or the first drain still to come):
	 * say so rather than print widths of 0. */
	if (live.width_max_ns)
		snprintf(ws, sizeof(ws), "%.1f-%.1f us", live.width_min_ns / 1e3,
			 live.width_max_ns / 1e3);
	else
		snprintf(ws, sizeof(ws), "-");
	fprintf(out,
		"%s%s %s/%s ETA %s | %s | edges %llu | last: %s | all: width %s, "
		"wake max %.1f us, missed %llu, dropped %llu%s%s%s%s",
		tty ? "\r" : "", clock, e, tot, eta,
		now < s->measure0 ? "warm-up"
		: soak_phase_name(s->soak)[0] ? soak_phase_name(s->soak) : "run",
		(unsigned long long)live.edges, ivs, ws,
		live.edges ? live.wake_max_ns / 1e3 : 0.0, (unsigned long long)live.missed_periods,
		(unsigned long long)dropped, loads[0] ? " | " : "", loads,
		lim[0] ? " | LIMIT" : "", lim);
	status_lines(s, out);
	fputs(tty ? "\033[K" : "\n", out);
	fflush(out);
}

/* Every RT loop asked to end at its next edge (together: the group, which
 * passes it on to its lanes). */
static void session_request_stop(struct run_session *s)
{
	size_t i;

	if (s->group)
		atomic_store(&s->grp.stop_req, true);
	for (i = 0; i < s->outs.n; i++)
		atomic_store(&s->ln[i].loop.stop_req, true);
}

/* Whether one of the loops (or a recorder for it) asked to stop: then the
 * whole run ends, every line with it. */
static bool session_stop_asked(const struct run_session *s)
{
	size_t i;

	if (s->group && atomic_load(&s->grp.stop_req))
		return true;
	for (i = 0; i < s->outs.n; i++) {
		if (atomic_load(&s->ln[i].loop.stop_req))
			return true;
	}
	return false;
}

/* Whether every RT loop has left its loop. */
static bool session_loops_done(const struct run_session *s)
{
	size_t i;

	if (s->group)
		return atomic_load(&s->grp.done);
	for (i = 0; i < s->outs.n; i++) {
		if (!atomic_load(&s->ln[i].loop.done))
			return false;
	}
	return true;
}

/* The signals that arrived: a load's SIGCHLD, or the first stop signal. */
static void session_take_signals(struct run_session *s, uint64_t now, bool newline)
{
	struct signalfd_siginfo si;

	while (read(s->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		int sig = (int)si.ssi_signo;

		if (sig == SIGCHLD) {
			soak_sigchld(s->soak, now);
			continue;
		}
		if (!s->sig) {
			const struct rtloop *l0 = &s->ln[0].loop;
			uint64_t mono = clock_now_ns(l0->clock);

			s->sig = sig;
			if (newline)	/* off the status line */
				fputc('\n', s->p.status);
			/* before slot 0 (grid.start, grid.align): the RT threads
			 * have armed nothing yet and end at once (rtloop.h) */
			if (!s->p.respond && !atomic_load(&l0->edges) &&
			    l0->start_ns > mono + 2 * RTLOOP_ARM_LEAD_NS)
				run_session_say(s, RUN_SAY_INFO, "%s: stopping now, before the first "
						"edge (slot 0 was %.1f s away): the log has none",
						strsignal(sig), (double)(l0->start_ns - mono) / 1e9);
			else
				run_session_say(s, RUN_SAY_INFO, "%s: stopping at the next edge",
						strsignal(sig));
		}
		session_request_stop(s);
	}
}

/* A step of the grid clock, said as it happens (it is in the log). */
static void say_step(const struct run_session *s, const struct clockwatch_step *st,
		     bool newline)
{
	char d[32];

	if (newline)	/* off the status line */
		fputc('\n', s->p.status);
	run_session_say(s, RUN_SAY_WARN, "grid.clock %s %s by %s%s: the wave keeps its "
			"period, but its edges are now off the shared grid by that much",
			config_str(s->c, CFG_GRID_CLOCK), st->notified ? "was stepped"
			: "moved without the kernel's notice", st->delta_ns > 0 ? "+" : "",
			dur(st->delta_ns, d, sizeof(d)));
}

/* The grid clock was set: logged, and said if it moved. */
static void session_take_clock(struct run_session *s, bool newline)
{
	struct clockwatch_step st;
	int got = gridrun_poll(s->grid, s->ln[0].rec, &st);

	if (got < 0)
		run_session_say(s, RUN_SAY_WARN, "grid.clock: reading the clock watch failed: %s",
				strerror(errno));
	else if (got)
		say_step(s, &st, newline);
}

/* 4. Wait: signals, status line, phases and loads, end of the loop. */
/* params.instrument at the counted edges' start (@start) or after the
 * loops (its note into the log, at @now on the log's clock). */
static void session_instrument(struct run_session *s, bool start, uint64_t now)
{
	char note[1024] = "";

	if (!s->p.instrument || !s->ln[0].rec)
		return;
	s->p.instrument(s->p.instrument_ctx, start, note, sizeof(note));
	if (!note[0])
		return;
	if (recorder_event(s->ln[0].rec, now, EDGELOG_EV_NOTE, note, strlen(note)) < 0)
		run_session_say(s, RUN_SAY_WARN, "the instrument's reading was not logged: %s",
				strerror(errno));
	/* and for the summary (its "instrument" member) */
	free(s->ri.instrument_note[!start]);
	s->ri.instrument_note[!start] = strdup(note);
}

static void session_wait(struct run_session *s)
{
	int64_t status_every = config_int(s->c, CFG_OUTPUT_STATUS_INTERVAL);
	bool status = s->p.status && !config_bool(s->c, CFG_OUTPUT_QUIET) && status_every;
	bool tty = s->p.status && isatty(fileno(s->p.status));
	bool newline = s->p.status && !config_bool(s->c, CFG_OUTPUT_QUIET) && tty;
	uint64_t t0 = s->ln[0].loop.start_ns, next_status = t0 + (uint64_t)status_every;

	while (!session_loops_done(s)) {
		struct pollfd fds[2 + 256];
		uint64_t now = clock_now_ns(CLOCK_MONOTONIC), due = soak_next_due(s->soak);
		int64_t wait_ms = 100;
		size_t n;

		/* Wake for a signal, a load's output, the next status line, phase,
		 * sample or restart, and at least every 100 ms for the loop's end. */
		if (status && next_status > now && (int64_t)((next_status - now) / 1000000) < wait_ms)
			wait_ms = (int64_t)((next_status - now) / 1000000);
		if (due != UINT64_MAX && (int64_t)((due > now ? due - now : 0) / 1000000) < wait_ms)
			wait_ms = (int64_t)((due > now ? due - now : 0) / 1000000);
		/* an instrument is reset when the counted edges begin: wake then */
		if (s->p.instrument && !s->instr_started && s->measure0 > now &&
		    (int64_t)((s->measure0 - now) / 1000000) + 1 < wait_ms)
			wait_ms = (int64_t)((s->measure0 - now) / 1000000) + 1;
		fds[0].fd = s->sfd;
		fds[0].events = POLLIN;
		fds[1].fd = s->grid ? gridrun_fd(s->grid) : -1;	/* negative: ignored */
		fds[1].events = POLLIN;
		n = 2 + soak_pollfds(s->soak, fds + 2, 256);
		if (poll(fds, n, (int)wait_ms) < 0 && errno != EINTR) {
			run_session_say(s, RUN_SAY_ERR, "poll: %s", strerror(errno));
			session_request_stop(s);
		}
		now = clock_now_ns(CLOCK_MONOTONIC);
		session_take_signals(s, now, newline);
		if (s->grid && fds[1].revents)
			session_take_clock(s, newline);
		if (s->outs.n > 1 && session_stop_asked(s))
			session_request_stop(s);	/* one line failed: the run ends */
		soak_read(s->soak, fds + 2, n - 2, now);
		soak_tick(s->soak, now);
		if (s->p.instrument && !s->instr_started && now >= s->measure0) {
			s->instr_started = true;
			session_instrument(s, true, clock_now_ns(s->ln[0].loop.clock));
		}
		if (status && now >= next_status) {
			status_print(s, t0, tty);
			next_status += (uint64_t)status_every;
			if (next_status <= now)
				next_status = now + (uint64_t)status_every;
		}
	}
	if (status && tty)
		fputc('\n', s->p.status);
}

/* The break helper's results into the run's description, then free it. */
static void session_stop_tracebreak(struct run_session *s)
{
	struct run_info *ri = &s->ri;

	tracebreak_stop(s->tb);	/* joined: a break being saved is finished */
	ri->breaks = tracebreak_count(s->tb);
	snprintf(ri->break_text, sizeof(ri->break_text), "%s", tracebreak_first_text(s->tb));
	snprintf(ri->break_cause, sizeof(ri->break_cause), "%s", tracebreak_first_cause(s->tb));
	snprintf(ri->break_trace, sizeof(ri->break_trace), "%s", tracebreak_first_trace(s->tb));
	ri->nbreak_hits = tracebreak_hits(s->tb, NULL, 0);
	ri->break_hits = calloc(ri->nbreak_hits ? ri->nbreak_hits : 1, sizeof(*ri->break_hits));
	ri->nbreak_hits = ri->break_hits ? tracebreak_hits(s->tb, ri->break_hits, ri->nbreak_hits)
					 : 0;
	tracebreak_free(s->tb);
	s->tb = NULL;
}

/* respond: the RT loop's counts at the stop into the log, a note (it has
 * no record: docs/log-format.md, "A respond log"), before it closes. */
static void session_respond_note(struct run_session *s)
{
	const struct respond *r = &s->resp;
	const struct edgelog_respond_stop st = {
		.stop_ns = r->stop_ns, .lost = atomic_load(&s->ln[0].loop.missed) - r->lost_warmup,
		.lost_warmup = r->lost_warmup, .unanswered = r->unanswered };
	char text[256];
	int n = edgelog_respond_stop_format(&st, text, sizeof(text));

	if (n > 0 &&
	    recorder_event(s->ln[0].rec, r->stop_ns, EDGELOG_EV_NOTE, text, (size_t)n) < 0)
		run_session_say(s, RUN_SAY_WARN, "the respond counts at the stop were not "
				"logged: %s", strerror(errno));
}

/* 5. Every thread stopped, in the reverse order of their start; the line
 * back to idle and released before anything slow. */
static void session_stop(struct run_session *s)
{
	size_t i;

	for (i = 0; i < s->outs.n; i++) {
		if (!s->ln[i].rt_started)
			continue;
		if (!atomic_load(s->group ? &s->grp.go : &s->ln[i].loop.go)) {
			/* setup failed after the thread started */
			session_request_stop(s);
			atomic_store(&s->grp.go, true);
			atomic_store(&s->ln[i].loop.go, true);
		}
		pthread_join(s->ln[i].rt_tid, NULL);
		s->ln[i].rt_started = false;
		if (s->p.respond && s->ln[i].rec)
			session_respond_note(s);
	}
	/* the instrument's reading, once the wave has stopped */
	if (s->instr_started)
		session_instrument(s, false, clock_now_ns(s->ln[0].loop.clock));
	/* The break helper's last events go through the recorder: stop it first. */
	if (s->tb)
		session_stop_tracebreak(s);
	if (s->tl) {	/* the last activations' samples, then the tracer put back */
		tlatrun_stop(s->tl, s->ln[0].loop.served ? s->ln[0].loop.next_intended -
				    (uint64_t)s->ln[0].loop.half_ns : 0);
		tlatrun_result(s->tl, &s->tl_res);
		s->ri.timerlat = &s->tl_res;
		tlatrun_close(s->tl);
		s->tl = NULL;
	}
	if (s->grid) {	/* the clock read once more, into the log before it closes */
		struct clockwatch_step st;
		int stepped;

		s->ri.grid = gridrun_finish(s->grid, s->ln[0].rec, &st, &stepped);
		if (stepped)
			say_step(s, &st, false);
	}
	if (s->lb) {	/* the last edges' events, then into the log before it closes */
		uint64_t dropped, unlogged, n;

		n = loopback_reader_stop(s->lb, atomic_load(&s->ln[0].loop.edges), LOOPBACK_GRACE_NS,
					 &dropped, &unlogged);
		s->lb = NULL;
		run_session_say(s, RUN_SAY_INFO, "loopback: %llu edge events of %s logged for %llu "
				"edges (%llu dropped by the kernel, %llu not logged)",
				(unsigned long long)n, gpio_in_describe(s->lb_in),
				(unsigned long long)atomic_load(&s->ln[0].loop.edges),
				(unsigned long long)dropped, (unsigned long long)unlogged);
	}
	for (i = 0; i < s->outs.n; i++) {
		struct run_line *ln = &s->ln[i];

		recorder_finish(ln->rec);
		/* The writer thread stopped the run on a log error; the writer
		 * kept its reason for us to say. */
		if (ln->rec && ln->log && recorder_log_error(ln->rec))
			run_session_say(s, RUN_SAY_ERR, "%s", edgelog_writer_error(ln->log));
	}
	gpio_in_close(s->lb_in);
	s->lb_in = NULL;
	gpio_in_close(s->in);
	s->in = NULL;
	for (i = 0; i < s->outs.n; i++) {
		if (gpio_out_close(s->ln[i].gpio))
			run_session_say(s, RUN_SAY_WARN, "could not restore the idle level of %s: %s",
					s->ln[i].gpio_desc, strerror(errno));
		s->ln[i].gpio = NULL;
	}
	if (s->group && gpio_group_close(s->group))
		run_session_say(s, RUN_SAY_WARN, "could not restore the idle level of %s and the "
				"other lines: %s", s->ln[0].gpio_desc, strerror(errno));
	s->group = NULL;
	/* The simulated chip wrote its history file (sim.history_file) at the
	 * last release, where no message could be given. */
	if (config_choice(s->c, CFG_GPIO_BACKEND) == GPIO_BACKEND_SIM &&
	    gpio_sim_history_error(s->why, sizeof(s->why)) < 0)
		run_session_say(s, RUN_SAY_WARN, "sim.history_file: %s", s->why);
	if (s->rs.p.stack_size) {
		rtsetup_process_exit(&s->rs);
		if (s->rs.idle_error[0])
			run_session_say(s, RUN_SAY_WARN, "idle states: %s", s->rs.idle_error);
	}
	for (i = 0; i < s->outs.n; i++)
		rtloop_close(&s->ln[i].loop);
	rtgroup_close(&s->grp);
}

/* 6. What the run was, for the verdict and the summary. */
/* The figures of line @i into @ri (the run's description otherwise), and
 * its phases (@phases: soak_nphases() of them, the run's proof, this line's
 * statistics). */
static void line_results(struct run_session *s, size_t i, struct run_info *ri,
			 struct run_phase *phases)
{
	const struct config *c = s->c;
	const struct run_line *ln = &s->ln[i];
	const struct rtloop *loop = &ln->loop;
	size_t k;

	ri->log_path = ln->log_path;
	ri->gpio_desc = ln->gpio_desc;
	if (s->p.respond)	/* the RT loop's exact counts, as its log keeps them */
		edgestats_respond_end(ln->stats, atomic_load(&loop->missed) - s->resp.lost_warmup,
				      s->resp.lost_warmup, s->resp.unanswered);
	ri->pin = ln->pin;
	ri->dropped = ring_dropped(&ln->ring);
	ri->write_errors = atomic_load(&loop->write_errors);
	ri->log_error = recorder_log_error(ln->rec);
	ri->records_logged = edgelog_writer_records(ln->log);
	ri->spin_auto = loop->spin_auto;
	ri->spin_lead_ns = loop->lead;
	ri->spin_lead_min_ns = loop->lead_min_ns;
	ri->spin_lead_max_ns = loop->lead_max_ns;
	ri->spin_rearms = loop->rearms;
	ri->rt_cpu = !s->rs.pinned ? -1 : session_line_cpu(s, i);
	ri->idle_cpu = session_idle_cpu(s, i);
	ri->idle_own_cpu = ri->idle_cpu >= 0;
	if (loop->ru_started) {
		ri->minflt = loop->ru_end.ru_minflt - loop->ru_start.ru_minflt;
		ri->majflt = loop->ru_end.ru_majflt - loop->ru_start.ru_majflt;
		ri->nivcsw = loop->ru_end.ru_nivcsw - loop->ru_start.ru_nivcsw;
	}
	for (k = 0; phases && k < soak_nphases(s->soak); k++) {
		soak_phase_result(s->soak, k, &phases[k]);
		phases[k].stats = phasestats_phase(ln->pstats, k);
	}
	if (phases && (soak_has_loads(s->soak) || config_plan(c)->explicit_phases)) {
		ri->phases = phases;
		ri->nphases = soak_nphases(s->soak);
		ri->phasestats = ln->pstats;
	} else if (phases && soak_nphases(s->soak) == 1) {
		ri->run_proof = &phases[0];	/* a plain run: its idle proof */
	}
}

static void session_results(struct run_session *s)
{
	const struct config *c = s->c;
	struct run_info *ri = &s->ri;
	size_t i, np = soak_nphases(s->soak);
	bool failed = false;

	ri->end_realtime_ns = clock_now_ns(CLOCK_REALTIME);
	for (i = 0; i < s->outs.n; i++) {
		const struct rtloop *loop = &s->ln[i].loop;

		if (loop->error && (i == 0 || !s->group))
			run_session_say(s, RUN_SAY_ERR, "the RT loop%s%s failed: %s",
					s->outs.n > 1 && !s->group ? " of line " : "",
					s->outs.n > 1 && !s->group ? s->outs.o[i].line : "",
					strerror(loop->error));
		failed = failed || loop->error || atomic_load(&loop->write_errors) ||
			 recorder_log_error(s->ln[i].rec);
	}
	ri->stop_reason = failed ? EDGELOG_STOP_ERROR : s->sig ? EDGELOG_STOP_SIGNAL
		: ri->breaks && config_bool(c, CFG_TRACE_STOP_ON_BREAK) ? EDGELOG_STOP_BREAK
		: EDGELOG_STOP_DURATION;
	ri->stop_signal = s->sig;
	ri->idle = s->rs.idle;
	if (rtsetup_rt_throttling(&ri->rt_runtime_us, &ri->rt_period_us) != 1)
		ri->rt_runtime_us = -1;
	ri->label = config_str(c, CFG_RUN_LABEL);
	ri->containment = soak_containment(s->soak);
	ri->min_busy_pct = (int)config_int(c, CFG_PROOF_MIN_BUSY);
	ri->sampler_sched = soak_sampler_sched(s->soak);
	/* one array of phases per line, line 0's first */
	s->phases = calloc(np * s->outs.n, sizeof(*s->phases));
	line_results(s, 0, ri, s->phases);
	if (s->outs.n < 2)
		return;
	s->line_ri = calloc(s->outs.n, sizeof(*s->line_ri));
	for (i = 0; s->line_ri && i < s->outs.n; i++) {
		s->line_ri[i] = *ri;
		s->line_ri[i].phases = NULL;
		s->line_ri[i].nphases = 0;
		s->line_ri[i].phasestats = NULL;
		s->line_ri[i].run_proof = NULL;
		line_results(s, i, &s->line_ri[i], s->phases ? s->phases + i * np : NULL);
		s->line_ri[i].line_count = s->outs.n;
		s->line_ri[i].line_index = i;
		s->line_ri[i].line_name = s->outs.o[i].line;
		s->line_ri[i].lines_mode = s->outs.mode == OUTPUTS_PER_CPU ? "per-cpu" : "together";
	}
}

int run_session_run(struct run_session *s)
{
	int ret = session_open(s);

	if (ret == SQW_EXIT_OK)
		ret = session_enter_rt(s);
	if (ret == SQW_EXIT_OK)
		ret = session_start_loads(s);
	if (ret == SQW_EXIT_OK)
		ret = session_create_log(s);
	if (ret == SQW_EXIT_OK)
		ret = session_start_threads(s);
	if (ret == SQW_EXIT_OK) {
		session_wait(s);
		/* the loads end with the wave, before the summary is made */
		soak_stop(s->soak);
	}
	session_stop(s);
	if (ret == SQW_EXIT_OK)
		session_results(s);
	return ret;
}

const struct run_info *run_session_info(const struct run_session *s)
{
	return &s->ri;
}

void run_session_judge_instrument(struct run_session *s, struct verdict_result *v)
{
	if (s->p.instrument_judge && s->ri.log_path && s->ri.log_path[0])
		s->p.instrument_judge(s->p.instrument_ctx, s->ri.log_path, v);
}

const struct edgestats *run_session_stats(const struct run_session *s)
{
	return s->ln[0].stats;
}

size_t run_session_lines(const struct run_session *s)
{
	return s->outs.n;
}

const struct run_info *run_session_line_info(const struct run_session *s, size_t i)
{
	return s->outs.n > 1 && s->line_ri ? &s->line_ri[i] : &s->ri;
}

const struct edgestats *run_session_line_stats(const struct run_session *s, size_t i)
{
	return s->ln[i].stats;
}

const char *run_session_line_name(const struct run_session *s, size_t i)
{
	return s->outs.o[i].line;
}

const struct config *run_session_config(const struct run_session *s)
{
	return s->c;
}

int run_session_signal(const struct run_session *s)
{
	return s->sig;
}

int run_session_close(struct run_session *s, int exit_code)
{
	size_t i;

	if (s->closed)
		return exit_code;
	s->closed = true;
	for (i = 0; i < s->outs.n; i++) {
		struct run_line *ln = &s->ln[i];
		struct edgelog_footer footer = { 0 };

		if (!ln->log)
			continue;
		if (!ln->log_started) {	/* reserved only: the run never wrote it */
			edgelog_writer_abandon(ln->log);
			ln->log = NULL;
			continue;
		}
		/* The footer carries the exit code the run ends with. */
		footer.dropped = ring_dropped(&ln->ring);
		footer.missed_periods = atomic_load(&ln->loop.missed);
		footer.end_realtime_ns = s->ri.end_realtime_ns ? s->ri.end_realtime_ns
							       : clock_now_ns(CLOCK_REALTIME);
		footer.stop_reason = (uint32_t)s->ri.stop_reason;
		footer.exit_code = exit_code;
		if (edgelog_writer_close(ln->log, &footer, s->why, sizeof(s->why)) < 0) {
			/* a failure the writer thread met was said in the stop */
			if (!s->ri.log_error && !(ln->rec && recorder_log_error(ln->rec)))
				run_session_say(s, RUN_SAY_ERR, "%s", s->why);
			if (exit_code != SQW_EXIT_RUNTIME) {
				s->ri.log_error = true;
				exit_code = SQW_EXIT_RUNTIME;
			}
		}
		ln->log = NULL;
	}
	/* The log is closed and no load runs: from here SIGINT/SIGTERM stop us
	 * at once, even in an open() of a --json FIFO nobody reads (SIGPIPE
	 * stays blocked: a closed pipe is EPIPE, an I/O error). */
	soak_stop(s->soak);
	pthread_sigmask(SIG_UNBLOCK, &s->stop_sigs, NULL);
	return exit_code;
}

/* Whether anything session_stop() undoes is still there (the run never
 * ran, or failed before its stop). */
static bool session_needs_stop(const struct run_session *s)
{
	size_t i;

	if (s->group || s->lb_in || s->in)
		return true;
	for (i = 0; i < s->outs.n; i++) {
		if (s->ln[i].rt_started || s->ln[i].gpio)
			return true;
	}
	return false;
}

void run_session_fini(struct run_session *s)
{
	size_t i;

	if (!s)
		return;
	if (!s->closed)
		run_session_close(s, SQW_EXIT_RUNTIME);
	if (session_needs_stop(s))	/* run_session_run() never ran */
		session_stop(s);
	tlatrun_close(s->tl);	/* NULL after session_stop() */
	gridrun_close(s->grid);
	soak_free(s->soak);	/* stops the loads on every path out */
	free(s->phases);
	free(s->line_ri);
	free(s->starts);
	free(s->ri.break_hits);
	free(s->ri.instrument_note[0]);
	free(s->ri.instrument_note[1]);
	rtsetup_process_free(&s->rs);
	if (s->sfd >= 0)
		close(s->sfd);
	for (i = 0; i < s->outs.n; i++) {
		struct run_line *ln = &s->ln[i];

		phasestats_free(ln->pstats);
		recorder_free(ln->rec);
		if (ln->stats)
			edgestats_free(ln->stats);
		ring_free(&ln->ring);
		free(ln->meta.text);
		free(ln->log_path);
	}
	pthread_sigmask(SIG_SETMASK, &s->oldsigs, NULL);
	free(s);
}
