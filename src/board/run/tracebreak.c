/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Trace breaks: tracefs set-up, the helper thread that marks, stops and
 * saves the trace (the RT thread's half: rt/tracebreak_rt.c). */
#include "run/tracebreak.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "log/edgelog.h"
#include "base/msgbuf.h"
#include "run/recorder.h"
#include "base/sysinfo.h"
#include "stats/traceexplain.h"
#include "base/clock.h"
#include "rt/rtsetup.h"

struct tracebreak {
	struct tracebreak_params p;
	struct tracebreak_rt rt;
	char dir[PATH_MAX];          /* tracefs, or the run's instance in it */
	bool instance_made;          /* dir is our instance: removed at the end */
	char events[1024];           /* enabled in the instance */
	char log_path[PATH_MAX];
	int marker_fd, on_fd;
	char saved_on[8];
	char saved_tracer[64];
	char saved_kb[32];
	char saved_clock[32];
	bool tracer_set, kb_set, clock_set;
	pthread_t tid;
	bool started;
	atomic_bool quit;
	struct recorder *rec;
	atomic_bool *stop;
	atomic_uint count;           /* breaks fully handled (trace saved, event queued) */
	char first_trace[PATH_MAX + 64];
	char first_text[1024];
	char first_cause[128];
	struct tracebreak_hit *hits; /* p.max_breaks of them, count used */
	int prio;                    /* SCHED_FIFO priority for marking; 0: none */
};

/* A tracefs setting: its first line. */
static int file_read(const char *dir, const char *name, char *buf, size_t len)
{
	if (sysinfo_file_read(dir, name, buf, len) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * The events a break's trace shows by default: who ran (sched), which
 * interrupt and timer fired (irq, timer, and the architecture's vectors
 * where it has them). Those this kernel lacks are skipped quietly.
 */
static const char *const default_events[] = {
	"sched:sched_switch", "sched:sched_wakeup", "sched:sched_waking",
	"sched:sched_migrate_task", "irq:irq_handler_entry", "irq:irq_handler_exit",
	"irq:softirq_entry", "irq:softirq_exit", "timer:hrtimer_start", "timer:hrtimer_cancel",
	"timer:hrtimer_expire_entry", "timer:hrtimer_expire_exit",
	"irq_vectors:local_timer_entry", "irq_vectors:local_timer_exit",
	"irq_vectors:reschedule_entry", "irq_vectors:call_function_single_entry",
	"ipi:ipi_raise", "ipi:ipi_entry",
};

/* Enable SYSTEM or SYSTEM:EVENT in @dir; -1 if this kernel lacks it. */
static int event_enable(struct tracebreak *tb, const char *spec)
{
	char rel[256];
	const char *colon = strchr(spec, ':');
	size_t o = strlen(tb->events);

	if (colon)
		snprintf(rel, sizeof(rel), "events/%.*s/%s/enable", (int)(colon - spec), spec,
			 colon + 1);
	else
		snprintf(rel, sizeof(rel), "events/%s/enable", spec);
	if (!spec[0] || strstr(spec, "..") || strchr(spec, '/') || sysinfo_file_write(tb->dir, rel, "1", true) < 0)
		return -1;
	snprintf(tb->events + o, sizeof(tb->events) - o, "%s%s", o ? "," : "", spec);
	return 0;
}

static int events_enable(struct tracebreak *tb, const char *list, char *err, size_t errlen)
{
	char buf[1024], *item, *save;
	size_t i;

	snprintf(buf, sizeof(buf), "%s", list && list[0] ? list : "default");
	for (item = strtok_r(buf, ", \t", &save); item; item = strtok_r(NULL, ", \t", &save)) {
		if (!strcmp(item, "none"))
			continue;
		if (!strcmp(item, "default")) {
			for (i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++)
				event_enable(tb, default_events[i]);
			continue;
		}
		if (event_enable(tb, item) < 0) {
			msgbuf_set(err, errlen, "trace.events: this kernel has no trace event \"%s\" "
			     "(SYSTEM or SYSTEM:EVENT, as in %s/available_events)", item, tb->dir);
			return -1;
		}
	}
	return 0;
}

/* Remove the instances of runs that are gone (killed before their end);
 * returns how many. */
static int instances_sweep(const char *root)
{
	int n = 0;
	char path[PATH_MAX + 300];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/instances", root);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(de->d_name, "sqwave-", 7))
			continue;
		pid = strtol(de->d_name + 7, &end, 10);
		if (*end || pid <= 0 || pid == getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/instances/%s", root, de->d_name);
		n += rmdir(path) == 0;
	}
	closedir(d);
	return n;
}

int tracebreak_sweep(void)
{
	char root[PATH_MAX];

	return sysinfo_tracefs_mount(root, sizeof(root)) == 0 ? instances_sweep(root) : 0;
}

static int instance_make(struct tracebreak *tb, char *err, size_t errlen)
{
	char root[PATH_MAX], inst[PATH_MAX + 64];

	snprintf(root, sizeof(root), "%s", tb->dir);
	instances_sweep(root);
	snprintf(inst, sizeof(inst), "%s/instances/sqwave-%ld", root, (long)getpid());
	if (strlen(inst) >= sizeof(tb->dir)) {
		msgbuf_set(err, errlen, "--break: tracefs path too long: %s", root);
		return -1;
	}
	memcpy(tb->dir, inst, strlen(inst) + 1);
	if (mkdir(tb->dir, 0755) < 0 && errno != EEXIST) {
		msgbuf_set(err, errlen, "--break: cannot create the run's tracefs instance %s: %s "
		     "(trace.buffer=top traces into the top-level buffer instead)", tb->dir,
		     strerror(errno));
		return -1;
	}
	tb->instance_made = true;
	return 0;
}

struct tracebreak *tracebreak_new(const struct tracebreak_params *p, char *err, size_t errlen)
{
	struct tracebreak *tb = calloc(1, sizeof(*tb));
	char path[PATH_MAX + 64];
	struct stat st;

	if (!tb) {
		msgbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	tb->p = *p;
	if (tb->p.max_breaks < 1)
		tb->p.max_breaks = 1;
	tb->marker_fd = tb->on_fd = -1;
	tb->rt.efd = -1;
	/* every break's edge, for the summary; allocated before the run */
	tb->hits = calloc((size_t)tb->p.max_breaks, sizeof(*tb->hits));
	if (!tb->hits) {
		free(tb);
		msgbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(tb->log_path, sizeof(tb->log_path), "%s", p->log_path ? p->log_path : "sqwave");
	if (p->tracefs) {
		snprintf(tb->dir, sizeof(tb->dir), "%s", p->tracefs);
	} else if (sysinfo_tracefs_mount(tb->dir, sizeof(tb->dir)) < 0) {
		if (stat("/sys/kernel/tracing", &st) == 0)
			msgbuf_set(err, errlen, "--break needs ftrace, and tracefs is not mounted: "
			     "mount -t tracefs nodev /sys/kernel/tracing");
		else
			msgbuf_set(err, errlen, "--break needs ftrace, and this kernel has no tracefs "
			     "(/sys/kernel/tracing is missing: CONFIG_FTRACE is off)");
		goto fail;
	}
	if (!p->top && instance_make(tb, err, errlen) < 0)
		goto fail;
	snprintf(path, sizeof(path), "%s/trace_marker", tb->dir);
	tb->marker_fd = open(path, O_WRONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/tracing_on", tb->dir);
	tb->on_fd = open(path, O_RDWR | O_CLOEXEC);
	if (tb->marker_fd < 0 || tb->on_fd < 0) {
		msgbuf_set(err, errlen, "--break: cannot open %s/%s: %s (tracefs needs root)", tb->dir,
		     tb->marker_fd < 0 ? "trace_marker" : "tracing_on", strerror(errno));
		goto fail;
	}
	if (tb->instance_made && events_enable(tb, p->events, err, errlen) < 0)
		goto fail;
	file_read(tb->dir, "tracing_on", tb->saved_on, sizeof(tb->saved_on));
	if (p->tracer && p->tracer[0]) {
		file_read(tb->dir, "current_tracer", tb->saved_tracer, sizeof(tb->saved_tracer));
		if (sysinfo_file_write(tb->dir, "current_tracer", p->tracer, true) < 0) {
			char avail[512] = "?";
			int e = errno;

			file_read(tb->dir, "available_tracers", avail, sizeof(avail));
			msgbuf_set(err, errlen, "--tracer %s: cannot select it (%s); this kernel offers: %s",
			     p->tracer, strerror(e), avail);
			goto fail;
		}
		tb->tracer_set = true;
	}
	if (p->buffer_kb > 0) {
		char kb[32];

		file_read(tb->dir, "buffer_size_kb", tb->saved_kb, sizeof(tb->saved_kb));
		snprintf(kb, sizeof(kb), "%d", p->buffer_kb);
		if (sysinfo_file_write(tb->dir, "buffer_size_kb", kb, true) < 0) {
			msgbuf_set(err, errlen, "trace.buffer_kb %d: cannot set %s/buffer_size_kb: %s",
			     p->buffer_kb, tb->dir, strerror(errno));
			goto fail;
		}
		tb->kb_set = true;
	}
	/* Trace timestamps on CLOCK_MONOTONIC, the log's clock: an edge's
	 * intended time and the trace's events line up without conversion. */
	if (file_read(tb->dir, "trace_clock", tb->saved_clock, sizeof(tb->saved_clock)) == 0) {
		char *sel = strchr(tb->saved_clock, '['), *end;

		if (sel && (end = strchr(sel, ']'))) {
			memmove(tb->saved_clock, sel + 1, (size_t)(end - sel - 1));
			tb->saved_clock[end - sel - 1] = '\0';
			tb->clock_set = sysinfo_file_write(tb->dir, "trace_clock", "mono", true) == 0;
		}
	}
	tb->rt.efd = eventfd(0, EFD_CLOEXEC);
	if (tb->rt.efd < 0) {
		msgbuf_set(err, errlen, "eventfd: %s", strerror(errno));
		goto fail;
	}
	tb->rt.threshold_ns = p->threshold_ns;
	atomic_init(&tb->count, 0);
	atomic_init(&tb->rt.armed, true);
	atomic_init(&tb->quit, false);
	/* Tracing on for the run; whatever was in the buffer is not ours. */
	sysinfo_file_write(tb->dir, "trace", "", true);
	if (pwrite(tb->on_fd, "1", 1, 0) != 1) {
		msgbuf_set(err, errlen, "cannot switch tracing on: %s", strerror(errno));
		goto fail;
	}
	return tb;
fail:
	tracebreak_free(tb);
	return NULL;
}

struct tracebreak_rt *tracebreak_rt(struct tracebreak *tb)
{
	return tb ? &tb->rt : NULL;
}

/* The helper at its real-time priority (rtsetup: the one place that sets
 * a policy); refused (unprivileged), it waits at SCHED_OTHER. */
static void set_fifo(int prio)
{
	if (prio > 0)
		(void)rtsetup_thread_policy(prio);
}

/* Copy the trace buffer to @path. */
static int save_trace(struct tracebreak *tb, const char *path)
{
	char src[PATH_MAX + 16], buf[65536], avail[512];
	int in, out, ret = 0;
	ssize_t n;

	snprintf(src, sizeof(src), "%s/trace", tb->dir);
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return -1;
	}
	/* First the tracers this kernel offers, so that the explanation of
	 * the trace, here or on another machine, suggests only those. */
	if (file_read(tb->dir, "available_tracers", avail, sizeof(avail)) == 0) {
		size_t k = strlen(avail);
		int m;

		while (k && avail[k - 1] == ' ')
			avail[--k] = '\0';
		m = snprintf(buf, sizeof(buf), TRACEEXPLAIN_TRACERS_LINE " %s\n", avail);
		if (m < 0 || (size_t)m >= sizeof(buf) || write(out, buf, (size_t)m) != m)
			ret = -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, (size_t)n) != n) {
			ret = -1;
			break;
		}
	}
	if (n < 0)
		ret = -1;
	close(in);
	if (close(out) < 0)
		ret = -1;
	return ret;
}

static void *helper(void *arg)
{
	struct tracebreak *tb = arg;
	bool done = false;	/* handled one and left the RT side disarmed */

	set_fifo(tb->prio);
	for (;;) {
		char marker[256], path[PATH_MAX + 64], ev[PATH_MAX + 1024], why[256];
		struct traceexplain x;
		uint64_t v, t;
		unsigned no;
		int n, saved;
		const char *what;

		if (read(tb->rt.efd, &v, sizeof(v)) != sizeof(v) && errno == EINTR)
			continue;
		/* Nothing pending (a stale ring, or the quit bell): a break the
		 * RT thread rang just before the end is still handled. */
		if (done || atomic_load_explicit(&tb->rt.armed, memory_order_acquire)) {
			if (atomic_load(&tb->quit))
				break;
			continue;
		}
		t = clock_mono_ns();
		what = tb->rt.what == TRACEBREAK_WAKE ? "wake latency" : "pulse width";
		/* Mark and stop first: the buffer must keep what caused it. A
		 * respond break says so: its T is an event, and the explainer
		 * follows the event's wake-up instead of a timerfd. */
		n = snprintf(marker, sizeof(marker), "sqwave: break at edge #%" PRIu64 " (intended %"
			     PRIu64 " ns): %s %" PRId64 " ns, threshold %" PRId64 " ns%s\n",
			     tb->rt.seq, tb->rt.intended_ns, what, tb->rt.value_ns,
			     tb->rt.threshold_ns, tb->p.respond ? TRACEEXPLAIN_MARKER_EVENT : "");
		(void)!write(tb->marker_fd, marker, (size_t)n);
		(void)!pwrite(tb->on_fd, "0", 1, 0);
		/* The copy is slow work: not at real-time priority. */
		if (tb->prio)
			(void)rtsetup_thread_policy(0);
		no = atomic_load(&tb->count) + 1;
		snprintf(path, sizeof(path), "%s.break-%u.trace", tb->log_path, no);
		saved = save_trace(tb, path) == 0;
		/* What the saved trace shows, in one sentence (a read of the file
		 * just written, bounded: traceexplain.h); not knowing is an answer. */
		memset(&x, 0, sizeof(x));
		if (saved && traceexplain_file(path, &x, why, sizeof(why)) < 0) {
			snprintf(x.cause, sizeof(x.cause), "unknown: the saved trace cannot be read");
			snprintf(x.text, sizeof(x.text), "The saved trace cannot be read: %s.", why);
		}
		if (no <= (unsigned)tb->p.max_breaks)
			tb->hits[no - 1] = (struct tracebreak_hit){ .seq = tb->rt.seq,
				.value_ns = tb->rt.value_ns, .what = tb->rt.what, .saved = saved != 0 };
		if (no == 1) {
			snprintf(tb->first_trace, sizeof(tb->first_trace), "%s", saved ? path : "");
			snprintf(tb->first_text, sizeof(tb->first_text), "edge #%" PRIu64 ": %s %.3f us "
				 "(threshold %.3f us)%s%s", tb->rt.seq, what, tb->rt.value_ns / 1e3,
				 tb->rt.threshold_ns / 1e3, saved ? "; " : "", saved ? x.text : "");
			snprintf(tb->first_cause, sizeof(tb->first_cause), "%s", saved ? x.cause : "");
		}
		n = snprintf(ev, sizeof(ev), "seq=%" PRIu64 "\nintended_ns=%" PRIu64 "\nwhat=%s\n"
			     "value_ns=%" PRId64 "\nthreshold_ns=%" PRId64 "\ntrace=%s\n%s%s%s%s%s%s",
			     tb->rt.seq, tb->rt.intended_ns,
			     tb->rt.what == TRACEBREAK_WAKE ? "wake" : "width", tb->rt.value_ns,
			     tb->rt.threshold_ns, saved ? path : "",
			     saved ? "cause=" : "", saved ? x.cause : "", saved ? "\n" : "",
			     saved ? "explain=" : "", saved ? x.text : "", saved ? "\n" : "");
		if (tb->rec && n > 0)
			recorder_event(tb->rec, t, EDGELOG_EV_BREAK, ev, (size_t)n);
		done = true;
		if (tb->p.stop_on_break) {
			if (tb->stop)
				atomic_store(tb->stop, true);
		} else if ((int)no < tb->p.max_breaks && !atomic_load(&tb->quit)) {
			/* Trace again from an empty buffer, and listen again. */
			sysinfo_file_write(tb->dir, "trace", "", true);
			(void)!pwrite(tb->on_fd, "1", 1, 0);
			done = false;
			atomic_store_explicit(&tb->rt.armed, true, memory_order_release);
		}
		atomic_store(&tb->count, no);	/* last: readers see a finished break */
		if (atomic_load(&tb->quit))
			break;
		set_fifo(tb->prio);
	}
	return NULL;
}

int tracebreak_start(struct tracebreak *tb, struct recorder *rec, atomic_bool *stop)
{
	int err;

	tb->rec = rec;
	tb->stop = stop;
	/* Marking runs just below the RT thread's priority (if we may): under
	 * a CPU load a normal thread could wait long enough for the ring
	 * buffer to forget the cause. */
	tb->prio = tb->p.rt_priority > 1 ? tb->p.rt_priority - 1 : 0;
	err = pthread_create(&tb->tid, NULL, helper, tb);
	if (!err)
		tb->started = true;
	return err;
}

void tracebreak_stop(struct tracebreak *tb)
{
	if (!tb || !tb->started)
		return;
	{
		uint64_t one = 1;

		atomic_store(&tb->quit, true);
		(void)!write(tb->rt.efd, &one, sizeof(one));
		pthread_join(tb->tid, NULL);
		tb->started = false;
	}
}

void tracebreak_free(struct tracebreak *tb)
{
	if (!tb)
		return;
	tracebreak_stop(tb);
	if (tb->on_fd >= 0 && tb->saved_on[0])
		(void)!pwrite(tb->on_fd, tb->saved_on, 1, 0);
	if (tb->tracer_set && tb->saved_tracer[0])
		sysinfo_file_write(tb->dir, "current_tracer", tb->saved_tracer, true);
	if (tb->kb_set && tb->saved_kb[0])
		sysinfo_file_write(tb->dir, "buffer_size_kb", tb->saved_kb, true);
	if (tb->clock_set && tb->saved_clock[0])
		sysinfo_file_write(tb->dir, "trace_clock", tb->saved_clock, true);
	if (tb->marker_fd >= 0)
		close(tb->marker_fd);
	if (tb->on_fd >= 0)
		close(tb->on_fd);
	if (tb->rt.efd >= 0)
		close(tb->rt.efd);
	/* Our instance goes with its buffer (every file in it is closed). */
	if (tb->instance_made)
		(void)rmdir(tb->dir);
	free(tb->hits);
	free(tb);
}

const char *tracebreak_dir(const struct tracebreak *tb)
{
	return tb ? tb->dir : "";
}

const char *tracebreak_events(const struct tracebreak *tb)
{
	return tb ? tb->events : "";
}

unsigned tracebreak_count(struct tracebreak *tb)
{
	return tb ? atomic_load(&tb->count) : 0;
}

const char *tracebreak_first_trace(const struct tracebreak *tb)
{
	return tb ? tb->first_trace : "";
}

const char *tracebreak_first_text(const struct tracebreak *tb)
{
	return tb ? tb->first_text : "";
}

const char *tracebreak_first_cause(const struct tracebreak *tb)
{
	return tb ? tb->first_cause : "";
}

size_t tracebreak_hits(const struct tracebreak *tb, struct tracebreak_hit *out, size_t max)
{
	size_t n, i;

	if (!tb)
		return 0;
	n = atomic_load(&((struct tracebreak *)tb)->count);	/* C11: atomic_load takes no const */
	if (n > (size_t)tb->p.max_breaks)
		n = (size_t)tb->p.max_breaks;
	for (i = 0; i < n && i < max; i++)
		out[i] = tb->hits[i];
	return n;
}
