/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rt.timer timerlat: the tracer's set-up and restore, the sample reader,
 * the grid placement and the per-edge samples in the log (tlatrun.h). */
#include "run/tlatrun.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/msgbuf.h"
#include "base/stats.h"
#include "base/sysinfo.h"
#include "log/edgelog.h"
#include "run/recorder.h"

#define INST_PREFIX "sqwave-tlat."
#define BATCH 64                   /* activations per log event */
#define PEND 64                    /* activations waiting for their thread sample */
#define ORIGIN_MAX 64

/* ---- pure parts ---- */

int tlat_parse_line(const char *line, struct tlat_sample *s)
{
	const char *hash = strstr(line, ": #"), *p;
	unsigned long long sec, usec, seq;
	long long lat;
	char ctx[16];
	int n = 0;

	if (!hash || !strstr(hash, "timer_latency"))
		return 0;
	/* the timestamp: "SECONDS.MICROSECONDS" just before ": #" */
	for (p = hash; p > line && p[-1] != ' ' && p[-1] != '\t'; p--)
		;
	if (sscanf(p, "%llu.%6llu%n", &sec, &usec, &n) != 2 || p + n != hash || hash - p < 8)
		return -1;
	if (sscanf(hash + 3, "%llu context %15s timer_latency %lld ns", &seq, ctx, &lat) != 3 ||
	    lat < 0)
		return -1;
	if (!strcmp(ctx, "irq"))
		s->ctx = TLAT_IRQ;
	else if (!strcmp(ctx, "thread"))
		s->ctx = TLAT_THREAD;
	else if (!strcmp(ctx, "user-ret"))
		s->ctx = TLAT_URET;
	else
		return -1;
	if (sec > UINT64_MAX / 1000000000ull - 1)
		return -1;
	s->ts_ns = sec * 1000000000ull + usec * 1000ull;
	s->seqnum = seq;
	s->latency_ns = lat;
	return 1;
}

/* @v reduced onto the grid of @ref: its offset from the nearest grid point,
 * in (-period/2, period/2]. */
static int64_t grid_offset(uint64_t v, uint64_t ref, int64_t period)
{
	int64_t d = (int64_t)(v - ref) % period;

	if (d > period / 2)
		d -= period;
	else if (d <= -period / 2)
		d += period;
	return d;
}

uint64_t tlat_grid_origin(const struct tlat_sample *s, size_t n, int64_t period_ns)
{
	uint64_t ref;
	int64_t lo = 0;
	size_t i;

	if (!n)
		return 0;
	/* stamp - latency is the expiry plus the stamping delay minus the
	 * stamp's truncation to whole us: the earliest of them is the latest
	 * point the grid can be placed without ever understating a latency */
	ref = s[0].ts_ns - (uint64_t)s[0].latency_ns;
	for (i = 1; i < n; i++) {
		int64_t d = grid_offset(s[i].ts_ns - (uint64_t)s[i].latency_ns, ref, period_ns);

		if (d < lo)
			lo = d;
	}
	return ref + (uint64_t)lo;
}

int64_t tlat_slot(const struct tlat_sample *s, uint64_t start_ns, int64_t period_ns)
{
	uint64_t at = s->ts_ns - (uint64_t)s->latency_ns;
	int64_t d;

	if (at + (uint64_t)period_ns / 2 < start_ns)
		return -1;
	d = (int64_t)(at + (uint64_t)period_ns / 2 - start_ns);
	return d / period_ns;
}

/* ---- tracefs ---- */

struct tlat_entry {                /* one activation, as logged */
	uint64_t intended_ns;
	int32_t irq_ns, thread_ns; /* -1: no sample */
};
_Static_assert(sizeof(struct tlat_entry) == 16, "a timerlat entry is 16 bytes");

struct tlatrun {
	char root[PATH_MAX];       /* tracefs */
	char inst[PATH_MAX + 256]; /* the run's instance */
	char fd_path[PATH_MAX + 64];
	char old_period[32];
	bool old_workload;         /* OSNOISE_WORKLOAD was set */
	bool set_options, set_period, made_inst, started;
	int64_t half_ns;
	int cpu;

	pthread_t tid;
	bool running;
	int pipe_fd;
	pthread_mutex_t mu;        /* the fields below, between main and reader */
	pthread_cond_t cv;
	struct tlat_sample origin[ORIGIN_MAX];
	size_t norigin;
	bool placed;
	uint64_t start_ns;
	struct recorder *rec;
	uint64_t warmup_slots;
	bool stopping;
	uint64_t last_intended;    /* stop: the last slot's time */
	uint64_t seen_upto;        /* the latest activation seen (intended) */

	/* reader only */
	struct tlat_entry pend[PEND];
	bool pend_used[PEND];
	struct tlat_entry batch[BATCH];
	size_t nbatch;
	struct stats_hist irq, thread;
	struct run_timerlat res;
	char line[1024];
	size_t linelen;
};

static const char *tracefs_root(const struct tlatrun_params *p, char *buf, size_t len)
{
	if (p->tracefs) {
		snprintf(buf, len, "%s", p->tracefs);
		return buf;
	}
	return sysinfo_tracefs_mount(buf, len) == 0 ? buf : NULL;
}

const char *tlatrun_refusal(const struct tlatrun_params *p, char *buf, size_t len)
{
	char root[PATH_MAX], v[PATH_MAX + 128], rel[64];
	struct stat st;

	if (p->half_ns % 1000 || p->half_ns < 100000 || p->half_ns > 1000000000) {
		msgbuf_set(buf, len, "rt.timer: timerlat takes its period in whole microseconds "
			   "from 100 us to 1 s (osnoise/timerlat_period_us); the half period is "
			   "%" PRId64 " ns", p->half_ns);
		return buf;
	}
	if (p->cpu < 0) {
		msgbuf_set(buf, len, "rt.timer: timerlat needs rt.cpu (--cpu N): the kernel "
			   "gives timerlat_fd only to a thread pinned to that one CPU");
		return buf;
	}
	if (!tracefs_root(p, root, sizeof(root))) {
		msgbuf_set(buf, len, "rt.timer: timerlat needs tracefs, which is not mounted: "
			   "mount -t tracefs nodev /sys/kernel/tracing");
		return buf;
	}
	if (sysinfo_read_line(root, "available_tracers", v, sizeof(v)) < 0) {
		msgbuf_set(buf, len, "rt.timer: timerlat: cannot read %s/available_tracers: %s "
			   "(tracefs needs root)", root, strerror(errno));
		return buf;
	}
	if (!sysinfo_has_word(v, "timerlat")) {
		msgbuf_set(buf, len, "rt.timer: this kernel has no timerlat tracer (tracers: %s); "
			   "it needs CONFIG_TIMERLAT_TRACER=y", v);
		return buf;
	}
	snprintf(rel, sizeof(rel), "osnoise/per_cpu/cpu%d/timerlat_fd", p->cpu);
	snprintf(v, sizeof(v), "%s/%s", root, rel);
	if (stat(v, &st) < 0) {
		char cpu0[PATH_MAX + 64];

		snprintf(cpu0, sizeof(cpu0), "%s/osnoise/per_cpu/cpu0/timerlat_fd", root);
		if (access(cpu0, F_OK) == 0)
			msgbuf_set(buf, len, "rt.timer: timerlat has no %s: is CPU %d present?", rel,
				   p->cpu);
		else
			msgbuf_set(buf, len, "rt.timer: this kernel's timerlat has no timerlat_fd "
				   "(osnoise/per_cpu/cpuN/timerlat_fd, the user-space interface of "
				   "Linux 6.5 and later): it can trace, but cannot wake a program");
		return buf;
	}
	if (sysinfo_read_line(root, "current_tracer", v, sizeof(v)) == 0 &&
	    (!strcmp(v, "timerlat") || !strcmp(v, "osnoise"))) {
		msgbuf_set(buf, len, "rt.timer: the %s tracer is already running (top-level "
			   "current_tracer): osnoise and timerlat have one workload per system; "
			   "stop it (echo nop > %s/current_tracer) or rtla first", v, root);
		return buf;
	}
	return NULL;
}

/* The osnoise options line lists each option, NO_ before the cleared ones. */
static int workload_option(const char *root, bool *set)
{
	char v[1024];

	if (sysinfo_read_line(root, "osnoise/options", v, sizeof(v)) < 0)
		return -1;
	if (sysinfo_has_word(v, "NO_OSNOISE_WORKLOAD"))
		*set = false;
	else if (sysinfo_has_word(v, "OSNOISE_WORKLOAD"))
		*set = true;
	else {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

/* Put back what a run (or a killed one, from its instance's name) changed. */
static void restore(const char *root, const char *inst, bool made_inst, bool started,
		    bool set_options, bool old_workload, bool set_period, const char *old_period)
{
	if (started)
		sysinfo_file_write(inst, "current_tracer", "nop", true);
	if (made_inst)
		rmdir(inst);
	if (set_period)
		sysinfo_file_write(root, "osnoise/timerlat_period_us", old_period, true);
	if (set_options && old_workload)
		sysinfo_file_write(root, "osnoise/options", "OSNOISE_WORKLOAD", true);
}

int tlatrun_sweep(void)
{
	char root[PATH_MAX], path[PATH_MAX + 300], inst[PATH_MAX + 600];
	struct dirent *de;
	int n = 0;
	DIR *d;

	if (sysinfo_tracefs_mount(root, sizeof(root)) < 0)
		return 0;
	snprintf(path, sizeof(path), "%s/instances", root);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		long pid, period;
		int w, used = 0;

		if (strncmp(de->d_name, INST_PREFIX, strlen(INST_PREFIX)))
			continue;
		if (sscanf(de->d_name + strlen(INST_PREFIX), "%ld.P%ld.W%d%n", &pid, &period, &w,
			   &used) != 3 || de->d_name[strlen(INST_PREFIX) + (size_t)used] || pid <= 0)
			continue;
		if (pid == getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;	/* its run is alive */
		{
			char per[32];

			snprintf(inst, sizeof(inst), "%s/%s", path, de->d_name);
			snprintf(per, sizeof(per), "%ld", period);
			restore(root, inst, true, true, true, w == 1, period > 0, per);
		}
		n++;
	}
	closedir(d);
	return n;
}

/* ---- the reader ---- */

static void flush_batch(struct tlatrun *t)
{
	if (!t->nbatch)
		return;
	if (t->rec)
		recorder_event(t->rec, t->batch[0].intended_ns, EDGELOG_EV_TIMERLAT, t->batch,
			       t->nbatch * sizeof(t->batch[0]));
	t->nbatch = 0;
}

static void count(struct tlatrun *t, const struct tlat_entry *e, uint64_t slot)
{
	struct run_timerlat *r = &t->res;

	if (slot < t->warmup_slots)
		return;
	r->activations++;
	if (e->irq_ns >= 0) {
		r->with_irq++;
		stats_hist_add(&t->irq, e->irq_ns);
	}
	if (e->thread_ns >= 0) {
		r->with_thread++;
		stats_hist_add(&t->thread, e->thread_ns);
		if (e->thread_ns > r->thread_max_ns) {
			r->thread_max_ns = e->thread_ns;
			r->worst_intended_ns = e->intended_ns;
			r->worst_irq_ns = e->irq_ns;
		}
	}
}

/* An activation is complete (its thread sample came, or a later one did):
 * into the batch and the figures. */
static void emit(struct tlatrun *t, size_t k)
{
	struct tlat_entry *e = &t->pend[k];
	uint64_t slot = (e->intended_ns - t->start_ns) / (uint64_t)t->half_ns;

	t->pend_used[k] = false;
	if (t->last_intended && e->intended_ns > t->last_intended)
		return;	/* the grid ran on after the last edge */
	count(t, e, slot);
	t->batch[t->nbatch++] = *e;
	if (t->nbatch == BATCH)
		flush_batch(t);
}

/* Emit every pending activation before @intended (all: UINT64_MAX), oldest first. */
static void emit_before(struct tlatrun *t, uint64_t intended)
{
	for (;;) {
		size_t k, best = PEND;

		for (k = 0; k < PEND; k++)
			if (t->pend_used[k] && t->pend[k].intended_ns < intended &&
			    (best == PEND || t->pend[k].intended_ns < t->pend[best].intended_ns))
				best = k;
		if (best == PEND)
			return;
		emit(t, best);
	}
}

static void sample(struct tlatrun *t, const struct tlat_sample *s)
{
	int64_t slot;
	uint64_t at;
	size_t k;
	bool placed;

	pthread_mutex_lock(&t->mu);
	placed = t->placed && t->rec;
	if (!t->placed && s->ctx == TLAT_IRQ && t->norigin < ORIGIN_MAX) {
		t->origin[t->norigin++] = *s;
		pthread_cond_broadcast(&t->cv);
	}
	pthread_mutex_unlock(&t->mu);
	if (!placed || s->ctx == TLAT_URET)
		return;
	slot = tlat_slot(s, t->start_ns, t->half_ns);
	if (slot < 0)
		return;
	at = t->start_ns + (uint64_t)slot * (uint64_t)t->half_ns;
	k = (size_t)slot % PEND;
	if (t->pend_used[k] && t->pend[k].intended_ns != at)
		emit(t, k);	/* an older one never got its thread sample */
	if (!t->pend_used[k]) {
		emit_before(t, at);	/* keep the log in order */
		t->pend_used[k] = true;
		t->pend[k] = (struct tlat_entry){ .intended_ns = at, .irq_ns = -1, .thread_ns = -1 };
	}
	if (s->latency_ns > INT32_MAX)
		return;
	if (s->ctx == TLAT_IRQ)
		t->pend[k].irq_ns = (int32_t)s->latency_ns;
	else
		t->pend[k].thread_ns = (int32_t)s->latency_ns;
	if (s->ctx == TLAT_THREAD) {
		emit_before(t, at);	/* older ones that never got theirs first */
		emit(t, k);
	}
	pthread_mutex_lock(&t->mu);
	if (at > t->seen_upto)
		t->seen_upto = at;
	pthread_mutex_unlock(&t->mu);
}

static void feed_line(struct tlatrun *t, const char *line)
{
	struct tlat_sample s;
	int r = tlat_parse_line(line, &s);

	if (r > 0)
		sample(t, &s);
	else if (strstr(line, "LOST") && strstr(line, "EVENTS"))
		t->res.kernel_lost++;
	else if (r < 0 || (line[0] && line[0] != '#'))
		t->res.lines_unparsed++;
}

static void *reader(void *arg)
{
	struct tlatrun *t = arg;
	char buf[8192];
	uint64_t quiet_since = 0;

	pthread_setname_np(pthread_self(), "sqw-timerlat");
	for (;;) {
		struct pollfd pfd = { .fd = t->pipe_fd, .events = POLLIN };
		bool stopping, done;
		ssize_t n;

		poll(&pfd, 1, 50);
		n = read(t->pipe_fd, buf, sizeof(buf));
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n' || t->linelen == sizeof(t->line) - 1) {
				t->line[t->linelen] = '\0';
				feed_line(t, t->line);
				t->linelen = 0;
			} else {
				t->line[t->linelen++] = buf[i];
			}
		}
		pthread_mutex_lock(&t->mu);
		stopping = t->stopping;
		done = stopping && t->seen_upto >= t->last_intended;
		pthread_mutex_unlock(&t->mu);
		if (stopping) {
			uint64_t now = clock_mono_ns();

			if (!quiet_since)
				quiet_since = now;
			if (done || now - quiet_since > 250000000ull)
				break;
		} else if (n <= 0) {
			flush_batch(t);	/* nothing more now: let the log have it */
		}
	}
	emit_before(t, UINT64_MAX);
	flush_batch(t);
	return NULL;
}

/* ---- the run ---- */

const char *tlatrun_fd_path(const struct tlatrun *t)
{
	return t->fd_path;
}

static int set_up(struct tlatrun *t, char *err, size_t errlen)
{
	char v[64], name[128], pipe[PATH_MAX + 300];

	if (workload_option(t->root, &t->old_workload) < 0 ||
	    sysinfo_read_line(t->root, "osnoise/timerlat_period_us", t->old_period, sizeof(t->old_period)) < 0) {
		msgbuf_set(err, errlen, "rt.timer: cannot read %s/osnoise/options and "
			   "timerlat_period_us: %s", t->root, strerror(errno));
		return -1;
	}
	snprintf(name, sizeof(name), INST_PREFIX "%ld.P%s.W%d", (long)getpid(), t->old_period,
		 t->old_workload ? 1 : 0);
	snprintf(t->inst, sizeof(t->inst), "%s/instances/%s", t->root, name);
	/* the instance first: its name is what a later run restores from */
	if (mkdir(t->inst, 0700) < 0) {
		msgbuf_set(err, errlen, "rt.timer: cannot create the tracefs instance %s: %s",
			   t->inst, strerror(errno));
		return -1;
	}
	t->made_inst = true;
	t->set_options = true;
	if (sysinfo_file_write(t->root, "osnoise/options", "NO_OSNOISE_WORKLOAD", true) < 0) {
		msgbuf_set(err, errlen, "rt.timer: cannot set NO_OSNOISE_WORKLOAD in "
			   "osnoise/options: %s", strerror(errno));
		return -1;
	}
	t->set_period = true;
	snprintf(v, sizeof(v), "%" PRId64, t->half_ns / 1000);
	if (sysinfo_file_write(t->root, "osnoise/timerlat_period_us", v, true) < 0) {
		msgbuf_set(err, errlen, "rt.timer: cannot set osnoise/timerlat_period_us to %s: %s",
			   v, strerror(errno));
		return -1;
	}
	snprintf(v, sizeof(v), "%d", TLATRUN_BUFFER_KB);
	if (sysinfo_file_write(t->inst, "trace_clock", "mono", true) < 0 ||
	    sysinfo_file_write(t->inst, "buffer_size_kb", v, true) < 0) {
		msgbuf_set(err, errlen, "rt.timer: cannot set the instance's trace_clock (mono) "
			   "and buffer: %s", strerror(errno));
		return -1;
	}
	t->started = true;
	if (sysinfo_file_write(t->inst, "current_tracer", "timerlat", true) < 0 ||
	    sysinfo_file_write(t->inst, "tracing_on", "1", true) < 0) {
		msgbuf_set(err, errlen, "rt.timer: cannot start timerlat in %s: %s%s", t->inst,
			   strerror(errno), errno == EBUSY ? " (osnoise runs elsewhere)" : "");
		return -1;
	}
	snprintf(pipe, sizeof(pipe), "%s/trace_pipe", t->inst);
	t->pipe_fd = open(pipe, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (t->pipe_fd < 0) {
		msgbuf_set(err, errlen, "rt.timer: cannot open %s: %s", pipe, strerror(errno));
		return -1;
	}
	return 0;
}

struct tlatrun *tlatrun_open(const struct tlatrun_params *p, char *err, size_t errlen)
{
	struct tlatrun *t = calloc(1, sizeof(*t));
	int e;

	if (!t || stats_hist_init(&t->irq, STATS_HIST_DEFAULT_HIGHEST) < 0 ||
	    stats_hist_init(&t->thread, STATS_HIST_DEFAULT_HIGHEST) < 0) {
		msgbuf_set(err, errlen, "rt.timer: out of memory");
		if (t) {
			stats_hist_free(&t->irq);
			free(t);
		}
		return NULL;
	}
	t->pipe_fd = -1;
	t->half_ns = p->half_ns;
	t->cpu = p->cpu;
	t->res.thread_max_ns = -1;
	t->res.worst_irq_ns = -1;
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	if (!tracefs_root(p, t->root, sizeof(t->root))) {
		msgbuf_set(err, errlen, "rt.timer: tracefs is not mounted");
		tlatrun_close(t);
		return NULL;
	}
	snprintf(t->fd_path, sizeof(t->fd_path), "%s/osnoise/per_cpu/cpu%d/timerlat_fd", t->root,
		 p->cpu);
	if (set_up(t, err, errlen) < 0) {
		tlatrun_close(t);
		return NULL;
	}
	if ((e = pthread_create(&t->tid, NULL, reader, t))) {
		msgbuf_set(err, errlen, "rt.timer: cannot start the timerlat reader: %s", strerror(e));
		tlatrun_close(t);
		return NULL;
	}
	t->running = true;
	return t;
}

int tlatrun_place(struct tlatrun *t, uint64_t not_before, uint64_t *start_ns, char *err,
		  size_t errlen)
{
	struct timespec until;
	uint64_t origin, h = (uint64_t)t->half_ns, k;
	int rc = 0;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 2;
	pthread_mutex_lock(&t->mu);
	while (t->norigin < TLATRUN_ORIGIN_SAMPLES && rc == 0)
		rc = pthread_cond_timedwait(&t->cv, &t->mu, &until);
	if (t->norigin < TLATRUN_ORIGIN_SAMPLES) {
		size_t got = t->norigin;

		pthread_mutex_unlock(&t->mu);
		msgbuf_set(err, errlen, "rt.timer: the timerlat tracer gave %zu IRQ samples in 2 s "
			   "of arming (%d wanted): its samples do not reach %s/trace_pipe", got,
			   TLATRUN_ORIGIN_SAMPLES, t->inst);
		return -1;
	}
	origin = tlat_grid_origin(t->origin, t->norigin, t->half_ns);
	k = not_before > origin ? (not_before - origin + h - 1) / h : 0;
	t->start_ns = origin + k * h;
	t->placed = true;
	pthread_mutex_unlock(&t->mu);
	t->res.origin_slack_ns = 1000;	/* the trace's stamps are whole us */
	*start_ns = t->start_ns;
	return 0;
}

void tlatrun_attach(struct tlatrun *t, struct recorder *rec, uint64_t warmup_slots)
{
	pthread_mutex_lock(&t->mu);
	t->warmup_slots = warmup_slots;
	t->rec = rec;
	pthread_mutex_unlock(&t->mu);
}

void tlatrun_stop(struct tlatrun *t, uint64_t last_intended_ns)
{
	if (!t || !t->running)
		return;
	pthread_mutex_lock(&t->mu);
	t->last_intended = last_intended_ns ? last_intended_ns : 1;
	t->stopping = true;
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->tid, NULL);
	t->running = false;
}

void tlatrun_result(const struct tlatrun *t, struct run_timerlat *r)
{
	*r = t->res;
	r->irq_p50_ns = r->with_irq ? stats_hist_percentile(&t->irq, 50) : -1;
	r->irq_p99_ns = r->with_irq ? stats_hist_percentile(&t->irq, 99) : -1;
	r->irq_max_ns = r->with_irq ? stats_hist_percentile(&t->irq, 100) : -1;
	r->thread_max_ns = r->with_thread ? r->thread_max_ns : -1;
	r->thread_p50_ns = r->with_thread ? stats_hist_percentile(&t->thread, 50) : -1;
	r->thread_p99_ns = r->with_thread ? stats_hist_percentile(&t->thread, 99) : -1;
}

void tlatrun_close(struct tlatrun *t)
{
	if (!t)
		return;
	if (t->running) {
		pthread_mutex_lock(&t->mu);
		t->stopping = true;
		t->last_intended = 1;
		pthread_mutex_unlock(&t->mu);
		pthread_join(t->tid, NULL);
	}
	if (t->pipe_fd >= 0)
		close(t->pipe_fd);
	restore(t->root, t->inst, t->made_inst, t->started, t->set_options, t->old_workload,
		t->set_period, t->old_period);
	stats_hist_free(&t->irq);
	stats_hist_free(&t->thread);
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->cv);
	free(t);
}
