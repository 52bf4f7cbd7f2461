/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave capture`: record a logic analyzer's edges through libsigrok into
 * a VCD that compare reads, and say what the capture covered. */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd_capture.h"
#include "cmd/cmdline.h"
#include "cmd/print.h"
#include "base/cpulist.h"
#include "base/json.h"
#include "base/outfile.h"
#include "capture/capture.h"
#include "instrument/sigrok_session.h"
#include "instrument/usbirq.h"

#define CAPTURE_SCHEMA "sqwave-capture"
#define CAPTURE_SCHEMA_VERSION 1

static void capture_usage(FILE *f)
{
	fprintf(f,
		"usage: sqwave capture --driver NAME[:KEY=VALUE...] -o FILE.vcd [options]\n\n"
		"Drive a logic analyzer through libsigrok (fx2lafw, and any driver libsigrok has)\n"
		"and write its edges as they arrive to a VCD that compare, analyze and export\n"
		"read: one wire per channel, x over every stretch the analyzer did not see, the\n"
		"acquisition's facts in $comment blocks. Memory stays the same for hours.\n"
		"The status line (standard error) and the summary say samples, edges per\n"
		"channel, the time covered and the interruptions (docs/instruments.md).\n\n"
		"  -d, --driver NAME[:K=V]  libsigrok driver and its scan options: fx2lafw,\n"
		"                           fx2lafw:conn=1.5, demo\n"
		"  -o, --output FILE        the VCD to write\n"
		"  -C, --channels LIST      logic channels by name or index (D0,D7); default all\n"
		"  -r, --samplerate RATE    24M, 256k, 1000000 (default: the device's)\n"
		"  -t, --duration TIME      stop after TIME (10s, 1h); default: until SIGINT/SIGTERM\n"
		"      --threshold V        the input threshold, where the device has one\n"
		"      --trigger SPEC       start at CHANNEL=0|1|r|f|e[,...] (as sigrok-cli --triggers)\n"
		"  -c, --config KEY=VALUE   a device option (repeatable): on the device, else on\n"
		"                           the channel group that takes it (pattern=incremental)\n"
		"      --cpu LIST           keep the capture and every thread libsigrok and\n"
		"                           libusb start on these CPUs (0, 2-3), and warn when\n"
		"                           the analyzer's USB host controller may interrupt\n"
		"                           another; on the board under test, every CPU but\n"
		"                           rt.cpu (docs/instruments.md)\n"
		"      --json FILE          the summary as JSON (schema sqwave-capture)\n"
		"  -h, --help               this help\n\n"
		"exit: 0 done (stopped by a signal when no --duration was given), 2 usage, no\n"
		"      device, or a build without libsigrok, 3 I/O or the device ended early,\n"
		"      128+N a --duration capture stopped early by signal N (the file is whole\n"
		"      and says what it covered)\n");
}

enum { O_THRESHOLD = 256, O_TRIGGER, O_JSON, O_CPU };

static const struct option capture_opts[] = {
	{ "driver", required_argument, NULL, 'd' },
	{ "output", required_argument, NULL, 'o' },
	{ "channels", required_argument, NULL, 'C' },
	{ "samplerate", required_argument, NULL, 'r' },
	{ "duration", required_argument, NULL, 't' },
	{ "threshold", required_argument, NULL, O_THRESHOLD },
	{ "trigger", required_argument, NULL, O_TRIGGER },
	{ "config", required_argument, NULL, 'c' },
	{ "cpu", required_argument, NULL, O_CPU },
	{ "json", required_argument, NULL, O_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct cfg_item opt_duration = CMDLINE_DURATION("duration", 1000000, INT64_C(8640000000000000), "s");

size_t cmd_capture_options(struct option *out, size_t max)
{
	return cmdline_options_copy(out, max, capture_opts);
}

void cmd_capture_help(FILE *f)
{
	capture_usage(f);
}

/* The watcher: signals (blocked everywhere else) and the status line, off
 * the acquisition's thread. */
struct watch {
	struct sigrok_capture *cap;
	atomic_bool done;
	int signo;
	double wanted_s;
};

static void status_line(const struct sigrok_progress *p, double wanted_s, int tty)
{
	double rate = p->rate_hz ? (double)p->rate_hz : 1;
	double span = (double)p->samples / rate, cov = (double)(p->samples - p->lost) / rate;

	fprintf(stderr, "%scapture %.1f s%s%.0f s, %" PRIu64 " samples, %" PRIu64 " edges, "
		"covered %.1f %%, %" PRIu64 " interruptions%s", tty ? "\r" : "", span,
		wanted_s > 0 ? " of " : "", wanted_s > 0 ? wanted_s : 0.0, p->samples, p->edges,
		span > 0 ? 100.0 * cov / span : 100.0, p->intr, tty ? "\033[K" : "\n");
	fflush(stderr);
}

static void *watch_main(void *arg)
{
	struct watch *w = arg;
	sigset_t set;
	struct timespec tick = { 0, 200000000 };
	int n = 0, tty = isatty(STDERR_FILENO);
	struct sigrok_progress p;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	while (!atomic_load(&w->done)) {
		int s = sigtimedwait(&set, NULL, &tick);

		if (s == SIGINT || s == SIGTERM) {
			if (!w->signo)
				w->signo = s;
			sigrok_capture_stop(w->cap);
		}
		/* a line a second on a terminal, one in ten seconds in a log */
		if (++n % (tty ? 5 : 50) == 0) {
			sigrok_capture_progress(w->cap, &p);
			status_line(&p, w->wanted_s, tty);
		}
	}
	if (tty && n >= 5)
		fputc('\n', stderr);
	return NULL;
}

/* What the summary says: the capture, and where it ran. */
struct capture_doc {
	const struct sigrok_result *r;
	const char *cpus_asked;    /* --cpu, or NULL */
	char cpus[128];            /* the affinity in effect, read back */
};

static void capture_json(struct json_writer *w, const void *ctx)
{
	const struct capture_doc *doc = ctx;
	const struct sigrok_result *r = doc->r;
	double rate = (double)r->rate_hz;

	json_object_begin(w);
	json_kv_string(w, "schema", CAPTURE_SCHEMA);
	json_kv_int(w, "schema_version", CAPTURE_SCHEMA_VERSION);
	json_kv_string(w, "driver", r->driver);
	json_kv_string(w, "device", r->device);
	json_kv_string(w, "libsigrok", r->libsigrok);
	json_kv_uint(w, "samplerate_hz", r->rate_hz);
	json_kv_array_begin(w, "channels");
	for (unsigned k = 0; k < r->nch; k++) {
		json_object_begin(w);
		json_kv_string(w, "name", r->names[k]);
		json_kv_uint(w, "edges", r->edges[k]);
		json_object_end(w);
	}
	json_array_end(w);
	json_kv_uint(w, "samples", r->samples);
	json_kv_uint(w, "lost_samples", r->lost);
	json_kv_double(w, "span_s", (double)r->samples / rate);
	json_kv_double(w, "covered_s", (double)(r->samples - r->lost) / rate);
	json_kv_double(w, "covered_fraction",
		       r->samples ? (double)(r->samples - r->lost) / (double)r->samples : 0.0);
	if (r->wanted)
		json_kv_double(w, "planned_s", (double)r->wanted / rate);
	else
		json_kv_null(w, "planned_s");
	json_kv_uint(w, "interruptions_total", r->nintr);
	json_kv_array_begin(w, "interruptions");
	for (size_t i = 0; i < r->nintr && i < SIGROK_MAX_INTR; i++) {
		json_object_begin(w);
		json_kv_double(w, "from_s", (double)r->intr[i].from / rate);
		if (r->intr[i].len)
			json_kv_double(w, "length_s", (double)r->intr[i].len / rate);
		else
			json_kv_null(w, "length_s");
		json_kv_string(w, "why", r->intr[i].why);
		json_object_end(w);
	}
	json_array_end(w);
	json_kv_int(w, "start_realtime_ns", (int64_t)r->start_rt.tv_sec * 1000000000 + r->start_rt.tv_nsec);
	json_kv_int(w, "end_realtime_ns", (int64_t)r->end_rt.tv_sec * 1000000000 + r->end_rt.tv_nsec);
	json_kv_string(w, "cpus", doc->cpus);
	if (doc->cpus_asked)
		json_kv_string(w, "cpus_asked", doc->cpus_asked);
	else
		json_kv_null(w, "cpus_asked");
	json_kv_bool(w, "stopped_by_signal", r->stopped);
	json_kv_bool(w, "ended_early", r->ended_early);
	if (r->ended_early)
		json_kv_string(w, "end_reason", r->end_why);
	else
		json_kv_null(w, "end_reason");
	json_object_end(w);
}

static void capture_text(const struct capture_doc *doc, const char *path)
{
	const struct sigrok_result *r = doc->r;
	double rate = (double)r->rate_hz, span = (double)r->samples / rate;
	double cov = (double)(r->samples - r->lost) / rate;
	char rs[32];

	snprintf(rs, sizeof(rs), "%.10g", rate);
	printf("capture      %s (VCD, %u channel%s)\n", path, r->nch, r->nch == 1 ? "" : "s");
	printf("device       %s: %s (libsigrok %s)\n", r->driver, r->device, r->libsigrok);
	printf("samplerate   %s Hz\n", rs);
	printf("cpus         %s (%s)\n", doc->cpus, doc->cpus_asked ? "--cpu" : "inherited");
	printf("span         %.6f s (%" PRIu64 " samples)\n", span, r->samples);
	printf("covered      %.6f s (%.3f %%), %zu interruption%s, %" PRIu64 " samples lost\n", cov,
	       span > 0 ? 100.0 * cov / span : 0.0, r->nintr, r->nintr == 1 ? "" : "s", r->lost);
	for (size_t i = 0; i < r->nintr && i < SIGROK_MAX_INTR; i++) {
		if (r->intr[i].len)
			printf("  lost       %.6f s from %.6f s: %s\n", (double)r->intr[i].len / rate,
			       (double)r->intr[i].from / rate, r->intr[i].why);
		else
			printf("  ended      at %.6f s: %s\n", (double)r->intr[i].from / rate, r->intr[i].why);
	}
	printf("edges       ");
	for (unsigned k = 0; k < r->nch; k++)
		printf(" %s %" PRIu64 "%s", r->names[k], r->edges[k], k + 1 < r->nch ? "," : "\n");
	if (r->stopped && r->wanted)
		printf("stopped      by a signal after %.6f s of the %.6f s asked for: the capture "
		       "covers the %.6f s above\n", span, (double)r->wanted / rate, cov);
	else if (r->stopped)
		printf("stopped      by a signal: the capture covers the %.6f s above\n", cov);
	if (r->ended_early)
		printf("ended early  the device stopped: %s\n", r->end_why);
}

/* With --cpu: say when the analyzer's USB host controller interrupts a
 * CPU outside it (the RT CPU, on the board under test), which --cpu cannot
 * move. Nothing when the device is not on USB or the controller's
 * interrupts are not in sysfs. */
static void usb_irq_warn(const struct sigrok_capture *cap, const cpu_set_t *cpus)
{
	struct usbirq u;
	char msg[512];

	if (usbirq_find("", sigrok_capture_connid(cap), &u) == 1 &&
	    usbirq_outside(&u, cpus, msg, sizeof(msg)))
		pr_warn("capture: %s", msg);
}

/* The test hook (docs/instruments.md): SQWAVE_CAPTURE_DROP=FROM:COUNT
 * loses samples [FROM, FROM+COUNT) as an overrun would. */
static int drop_hook(struct sigrok_opts *o)
{
	const char *s = getenv("SQWAVE_CAPTURE_DROP");
	char *e;

	if (!s || !*s)
		return 0;
	o->drop_from = strtoull(s, &e, 10);
	if (*e != ':')
		goto bad;
	o->drop_len = strtoull(e + 1, &e, 10);
	if (*e || !o->drop_len)
		goto bad;
	return 0;
bad:
	pr_err("capture: SQWAVE_CAPTURE_DROP=%s: expected FROM:COUNT (samples)", OUTFILE_ESC(s));
	return -1;
}

static int capture_args(int argc, char **argv, struct sigrok_opts *o, const char **json,
			const char **cpus)
{
	struct cmdline cl = { "capture", capture_opts, "d:o:C:r:t:c:h", capture_usage, false };
	char err[256], *end;
	int ch;
	int64_t ns;
	double hz;

	while ((ch = cmdline_next(&cl, argc, argv, NULL)) >= 0) {
		switch (ch) {
		case 'd': o->driver = optarg; break;
		case 'o': o->output = optarg; break;
		case 'C': o->channels = optarg; break;
		case 'r':
			if (capture_samplerate_parse("capture: --samplerate", optarg, &hz, err, sizeof(err))) {
				pr_err("%s", err);
				return -1;
			}
			o->samplerate_hz = (uint64_t)llround(hz);
			break;
		case 't':
			if (cmdline_value(&opt_duration, NULL, optarg, &ns, err, sizeof(err)) != CFG_OK) {
				pr_err("capture: %s", err);
				return -1;
			}
			o->duration_s = (double)ns / 1e9;
			break;
		case O_THRESHOLD:
			o->threshold_v = strtod(optarg, &end);
			if (end == optarg || *end || !isfinite(o->threshold_v)) {
				pr_err("capture: --threshold '%s': a voltage (1.6)", OUTFILE_ESC(optarg));
				return -1;
			}
			o->has_threshold = true;
			break;
		case O_TRIGGER: o->trigger = optarg; break;
		case 'c':
			if (o->nconfig == SIGROK_MAX_CONFIG) {
				pr_err("capture: at most %d --config options", SIGROK_MAX_CONFIG);
				return -1;
			}
			o->config[o->nconfig++] = optarg;
			break;
		case O_JSON: *json = optarg; break;
		case O_CPU: *cpus = optarg; break;
		default: return -1;
		}
	}
	if (ch != CMDLINE_END)
		return ch == CMDLINE_HELP ? 1 : -1;
	if (cmdline_args(&cl, argc, argv, 0, 0) < 0)
		return -1;
	if (!o->driver || !o->output) {
		pr_err("capture: %s is required (sqwave capture --help)", o->driver ? "--output" : "--driver");
		return -1;
	}
	return drop_hook(o);
}

int cmd_capture(int argc, char **argv)
{
	struct sigrok_opts o = { 0 };
	struct sigrok_result r;
	const char *json = NULL;
	struct capture_doc doc = { &r, NULL, "" };
	cpu_set_t got;
	char err[512];
	bool usage;
	sigset_t set, old;
	pthread_t th;
	struct watch w = { 0 };
	int rc = capture_args(argc, argv, &o, &json, &doc.cpus_asked), exitc = SQW_EXIT_OK;

	if (rc)
		return rc > 0 ? SQW_EXIT_OK : SQW_EXIT_USAGE;
	/* --cpu before any thread starts (libsigrok's, libusb's event thread,
	 * the watcher): they inherit the main thread's affinity */
	if (doc.cpus_asked && cpulist_thread_pin(doc.cpus_asked, &got, &usage, err, sizeof(err)) < 0) {
		pr_err("capture: --cpu: %s", OUTFILE_ESC(err));
		return usage ? SQW_EXIT_USAGE : SQW_EXIT_RUNTIME;
	}
	if (!doc.cpus_asked)
		cpulist_online(&got);
	cpulist_format(&got, doc.cpus, sizeof(doc.cpus));
	/* SIGINT and SIGTERM go to the watcher alone: libsigrok's threads
	 * (libusb's) inherit the mask */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	w.cap = sigrok_capture_open(&o, &usage, err, sizeof(err));
	if (!w.cap) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		pr_err("capture: %s", OUTFILE_ESC(err));
		return usage ? SQW_EXIT_USAGE : SQW_EXIT_RUNTIME;
	}
	if (doc.cpus_asked)
		usb_irq_warn(w.cap, &got);
	w.wanted_s = o.duration_s;
	if (pthread_create(&th, NULL, watch_main, &w)) {
		sigrok_capture_free(w.cap);
		pr_err("capture: cannot start the status thread");
		return SQW_EXIT_RUNTIME;
	}
	if (sigrok_capture_run(w.cap, err, sizeof(err)) < 0) {
		pr_err("capture: %s", OUTFILE_ESC(err));
		exitc = SQW_EXIT_RUNTIME;
	}
	atomic_store(&w.done, true);
	pthread_join(th, NULL);
	if (sigrok_capture_finish(w.cap, &r, err, sizeof(err)) < 0) {
		pr_err("capture: %s: %s", OUTFILE_ESC(o.output), OUTFILE_ESC(err));
		exitc = SQW_EXIT_RUNTIME;
	}
	sigrok_capture_free(w.cap);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (exitc == SQW_EXIT_OK || r.samples) {
		capture_text(&doc, o.output);
		if (json && json_write_document(json, capture_json, &doc, err, sizeof(err)) < 0) {
			pr_err("capture: %s", OUTFILE_ESC(err));
			exitc = SQW_EXIT_RUNTIME;
		}
	}
	if (exitc == SQW_EXIT_OK && r.ended_early)
		exitc = SQW_EXIT_RUNTIME;
	if (exitc == SQW_EXIT_OK && w.signo && o.duration_s > 0)
		exitc = 128 + w.signo;
	return exitc;
}
