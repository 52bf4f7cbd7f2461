/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The load supervisor: start, read, restart, flag, stop. */
#include "loads/loadsup.h"
#include "base/msgbuf.h"
#include "base/clock.h"
#include "base/escape.h"
#include "base/units.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FAST_EXIT_NS 1000000000ull  /* a process that ends sooner "exits at once" */
#define FAST_EXITS_LOST 5           /* ... this many times in a row: lost */
#define BACKOFF_NS 100000000ull     /* first retry after a fast exit; doubles */
#define STOP_SLACK_NS 5000000000ull /* after SIGKILL: how long to wait for the last */
#define DRAIN_MAX 65536             /* bytes read from one load's output per wake-up */

struct ls_inst {
	pid_t pid;                  /* 0: not running */
	int out;                    /* output pipe (non-blocking); -1 */
	char buf[1024];             /* a partial line */
	size_t blen;
	char last[160];             /* last non-empty output line */
	uint64_t started_ns;
	unsigned fast_exits;
	uint64_t restart_at;        /* 0: none due */
	bool lost;
	unsigned restarts;
};

struct ls_load {
	struct load *load;
	struct contain_group *g;
	struct ls_inst *inst;
	size_t ninst;
	bool stopping;
	bool killed;                /* SIGKILL sent while stopping */
};

struct loadsup {
	struct loadsup_params p;
	struct contain *c;
	struct ls_load *run;
	size_t nrun;
};

const char *loadsup_what_name(enum loadsup_what w)
{
	static const char *const names[] = {
		[LS_STARTED] = "started", [LS_RESTARTED] = "restarted", [LS_EXITED] = "exited",
		[LS_KILLED] = "killed", [LS_STOPPED] = "stopped", [LS_LOST] = "lost",
		[LS_RESULT] = "result", [LS_GUARD] = "guardian-lost",
	};

	return (unsigned)w < sizeof(names) / sizeof(names[0]) ? names[w] : "?";
}

/* @s with control characters and backslashes escaped, so one value stays
 * on one line of the payload. */
static size_t put_value(char *buf, size_t len, size_t o, const char *s)
{
	for (; *s && o + ESCAPE_CHAR_MAX + 1 < len; s++)
		o += escape_char(buf + o, (unsigned char)*s, 0);
	return o;
}

size_t loadsup_event_format(const struct loadsup_event *e, char *buf, size_t len)
{
	size_t o = 0;
	int n;

	if (len < 8)
		return 0;
	n = snprintf(buf, len, "event=%s\nload=", loadsup_what_name(e->what));
	o = (size_t)n < len ? (size_t)n : len - 1;
	o = put_value(buf, len, o, e->load);
	n = snprintf(buf + o, len - o, "\ninst=%u\npid=%d\n", e->inst, (int)e->pid);
	o += (size_t)n < len - o ? (size_t)n : len - o - 1;
	if (e->what == LS_EXITED || e->what == LS_LOST || e->what == LS_KILLED ||
	    e->what == LS_STOPPED) {
		n = snprintf(buf + o, len - o, "status=%d\nsignal=%d\nran_ns=%" PRId64 "\n",
			     e->status, e->signal, e->ran_ns);
		o += (size_t)n < len - o ? (size_t)n : len - o - 1;
	}
	if (e->result) {
		n = snprintf(buf + o, len - o, "valid=%d\nscore=%.3f\niterations_per_s=%.3f\n",
			     e->result->valid, e->result->score, e->result->iterations_per_s);
		o += (size_t)n < len - o ? (size_t)n : len - o - 1;
		if (!e->result->valid && o + 8 < len) {
			memcpy(buf + o, "why=", 4);
			o = put_value(buf, len, o + 4, e->result->why);
			buf[o++] = '\n';
		}
	}
	if (e->detail && e->detail[0] && o + 12 < len) {
		memcpy(buf + o, "detail=", 7);
		o = put_value(buf, len, o + 7, e->detail);
		buf[o++] = '\n';
	}
	buf[o] = '\0';
	return o;
}

static void emit(struct loadsup *s, struct ls_load *l, unsigned i, enum loadsup_what what,
		 uint64_t now, int status, int sig, const char *detail,
		 const struct load_result *res)
{
	struct ls_inst *in = &l->inst[i];
	struct loadsup_event e = {
		.t_ns = now, .what = what, .load = load_name(l->load), .inst = i, .pid = in->pid,
		.status = status, .signal = sig, .detail = detail, .result = res,
		.ran_ns = in->started_ns && now > in->started_ns ? (int64_t)(now - in->started_ns) : 0,
		.src = l->load,
	};

	if (s->p.event)
		s->p.event(s->p.ctx, &e);
}

struct loadsup *loadsup_new(const struct loadsup_params *p, char *err, size_t errlen)
{
	struct loadsup *s = calloc(1, sizeof(*s));

	if (!s) {
		msgbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	s->p = *p;
	s->c = contain_new(p->containment, p->self_exe, NULL, err, errlen);
	if (!s->c) {
		free(s);
		return NULL;
	}
	/* Orphans of the loads come to us, to be reaped here, not by init. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	return s;
}

const char *loadsup_containment(const struct loadsup *s)
{
	return contain_describe(s->c);
}

/* Lines of @in's output: keep the last, hand each to the load's parser. */
static void take_lines(struct loadsup *s, struct ls_load *l, unsigned i, uint64_t now, bool eof)
{
	struct ls_inst *in = &l->inst[i];
	size_t start = 0, k;

	for (k = 0; k < in->blen; k++) {
		if (in->buf[k] != '\n' && !(eof && k + 1 == in->blen))
			continue;
		{
			struct load_result res;
			size_t end = in->buf[k] == '\n' ? k : k + 1;
			char line[sizeof(in->buf) + 1];

			memcpy(line, in->buf + start, end - start);
			line[end - start] = '\0';
			if (line[strspn(line, " \t\r")])
				snprintf(in->last, sizeof(in->last), "%.159s", line);
			if (load_output_line(l->load, line, &res))
				emit(s, l, i, LS_RESULT, now, 0, 0, NULL, &res);
			start = k + 1;
		}
	}
	memmove(in->buf, in->buf + start, in->blen - start);
	in->blen -= start;
	/* A line longer than the buffer: keep its end, as a line of its own. */
	if (in->blen == sizeof(in->buf)) {
		in->buf[in->blen - 1] = '\n';
		take_lines(s, l, i, now, false);
	}
}

/* Read what @in's pipe holds now (non-blocking), at most DRAIN_MAX bytes:
 * a load that writes without end (`yes`) must not keep the main loop from
 * its other work (poll() says when there is more). Close it at EOF. */
static void drain(struct loadsup *s, struct ls_load *l, unsigned i, uint64_t now)
{
	struct ls_inst *in = &l->inst[i];
	size_t got = 0;

	while (in->out >= 0 && got < DRAIN_MAX) {
		ssize_t n = read(in->out, in->buf + in->blen, sizeof(in->buf) - in->blen);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			take_lines(s, l, i, now, true);
			close(in->out);
			in->out = -1;
			return;
		}
		in->blen += (size_t)n;
		got += (size_t)n;
		take_lines(s, l, i, now, false);
	}
}

static int start_inst(struct loadsup *s, struct ls_load *l, unsigned i, uint64_t now,
		      char *err, size_t errlen)
{
	struct ls_inst *in = &l->inst[i];
	int p[2];
	pid_t pid;

	/* Only our end is non-blocking: a load writing into a full pipe waits. */
	if (pipe2(p, O_CLOEXEC) < 0) {
		msgbuf_set(err, errlen, "%s: pipe: %s", load_name(l->load), strerror(errno));
		return -1;
	}
	if (fcntl(p[0], F_SETFL, O_NONBLOCK) < 0) {
		msgbuf_set(err, errlen, "%s: pipe: %s", load_name(l->load), strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	pid = contain_spawn(s->c, l->g, load_proc(l->load, i), p[1], err, errlen);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	if (in->out >= 0)
		close(in->out);
	in->out = p[0];
	in->blen = 0;
	in->last[0] = '\0';	/* a new process: the old one's last line is not its */
	in->pid = pid;
	in->started_ns = now;
	in->restart_at = 0;
	emit(s, l, i, in->restarts ? LS_RESTARTED : LS_STARTED, now, 0, 0, NULL, NULL);
	return 0;
}

static int start_load(struct loadsup *s, struct load *load, uint64_t now, char *err, size_t errlen)
{
	struct ls_load *nr = realloc(s->run, (s->nrun + 1) * sizeof(*nr)), *l;
	size_t i;
	int ret = 0;

	if (!nr) {
		msgbuf_set(err, errlen, "out of memory");
		return -1;
	}
	s->run = nr;
	l = &s->run[s->nrun];
	memset(l, 0, sizeof(*l));
	l->load = load;
	l->ninst = load_nprocs(load);
	l->inst = calloc(l->ninst ? l->ninst : 1, sizeof(*l->inst));
	if (!l->inst) {
		msgbuf_set(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < l->ninst; i++)
		l->inst[i].out = -1;
	s->nrun++;
	if (!l->ninst)
		return 0;	/* expect-traffic: nothing to run */
	l->g = contain_group_new(s->c, load_name(load), err, errlen);
	if (!l->g) {
		/* Nothing of it can run: every process is lost, and says why. */
		for (i = 0; i < l->ninst; i++) {
			emit(s, l, (unsigned)i, LS_LOST, now, -1, 0, err, NULL);
			l->inst[i].lost = true;
		}
		return -1;
	}
	for (i = 0; i < l->ninst; i++) {
		char why[512];

		if (start_inst(s, l, (unsigned)i, now, why, sizeof(why)) < 0) {
			if (!ret)
				msgbuf_set(err, errlen, "load %s: %s", load_name(load), why);
			emit(s, l, (unsigned)i, LS_LOST, now, -1, 0, why, NULL);
			l->inst[i].lost = true;
			ret = -1;
		}
	}
	return ret;
}

static struct ls_inst *find_pid(struct loadsup *s, pid_t pid, struct ls_load **lp, unsigned *ip)
{
	size_t j, i;

	for (j = 0; j < s->nrun; j++) {
		for (i = 0; i < s->run[j].ninst; i++) {
			if (s->run[j].inst[i].pid == pid) {
				*lp = &s->run[j];
				*ip = (unsigned)i;
				return &s->run[j].inst[i];
			}
		}
	}
	return NULL;
}

/* One process of a load ended with @status (from waitpid). */
static void ended(struct loadsup *s, struct ls_load *l, unsigned i, int status, uint64_t now)
{
	struct ls_inst *in = &l->inst[i];
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	uint64_t ran = now - in->started_ns;
	char why[256];

	/* Its process group goes with it (orphans of a load are the load). */
	contain_group_release(s->c, l->g, in->pid);
	drain(s, l, i, now);
	if (l->stopping) {
		emit(s, l, i, LS_STOPPED, now, code, sig, in->last, NULL);
		in->pid = 0;
		return;
	}
	emit(s, l, i, LS_EXITED, now, code, sig, in->last, NULL);
	if (!load_restart(l->load)) {
		snprintf(why, sizeof(why), "ended (restart: false)%s%s", in->last[0] ? ": " : "",
			 in->last);
		emit(s, l, i, LS_LOST, now, code, sig, why, NULL);
		in->lost = true;
		in->pid = 0;
		return;
	}
	if (ran < FAST_EXIT_NS) {
		if (++in->fast_exits >= FAST_EXITS_LOST) {
			snprintf(why, sizeof(why), "exits at once (%u times in a row)%s%s",
				 in->fast_exits, in->last[0] ? ": " : "", in->last);
			emit(s, l, i, LS_LOST, now, code, sig, why, NULL);
			in->lost = true;
			in->pid = 0;
			return;
		}
		in->restart_at = now + (BACKOFF_NS << (in->fast_exits - 1));
	} else {
		in->fast_exits = 0;
		in->restart_at = now;
	}
	in->pid = 0;
	in->restarts++;
}

void loadsup_reap(struct loadsup *s, uint64_t now)
{
	for (;;) {
		struct ls_load *l;
		struct ls_inst *in;
		unsigned i;
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid <= 0)
			return;
		in = find_pid(s, pid, &l, &i);
		if (in) {
			ended(s, l, i, status, now);
		} else if (pid == contain_guard_pid(s->c)) {
			/* The guardian ended under us (OOM killer, a stray kill):
			 * the loads now go only with sqwave's own end. Say so. */
			struct loadsup_event e = { .t_ns = now, .what = LS_GUARD, .load = "",
						   .pid = pid, .status = WIFEXITED(status)
						   ? WEXITSTATUS(status) : -1,
						   .signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0,
						   .detail = "the guardian ended during the run: a "
						   "SIGKILL of sqwave would now leave the loads running" };

			contain_guard_reaped(s->c);
			if (s->p.event)
				s->p.event(s->p.ctx, &e);
		}
		/* else: an orphan of a load (we are its subreaper): reaped */
	}
}

void loadsup_tick(struct loadsup *s, uint64_t now)
{
	size_t j, i;

	for (j = 0; j < s->nrun; j++) {
		struct ls_load *l = &s->run[j];

		for (i = 0; i < l->ninst; i++) {
			struct ls_inst *in = &l->inst[i];
			char why[512];

			if (l->stopping || in->pid || in->lost || !in->restart_at || in->restart_at > now)
				continue;
			if (start_inst(s, l, (unsigned)i, now, why, sizeof(why)) < 0) {
				emit(s, l, (unsigned)i, LS_LOST, now, -1, 0, why, NULL);
				in->lost = true;
			}
		}
	}
}

uint64_t loadsup_next_due(const struct loadsup *s)
{
	uint64_t due = UINT64_MAX;
	size_t j, i;

	for (j = 0; j < s->nrun; j++) {
		for (i = 0; i < s->run[j].ninst; i++) {
			const struct ls_inst *in = &s->run[j].inst[i];

			if (!in->pid && !in->lost && in->restart_at && in->restart_at < due)
				due = in->restart_at;
		}
	}
	return due;
}

size_t loadsup_pollfds(const struct loadsup *s, struct pollfd *fds, size_t max)
{
	size_t n = 0, j, i;

	for (j = 0; j < s->nrun; j++) {
		for (i = 0; i < s->run[j].ninst && n < max; i++) {
			if (s->run[j].inst[i].out < 0)
				continue;
			fds[n].fd = s->run[j].inst[i].out;
			fds[n].events = POLLIN;
			fds[n].revents = 0;
			n++;
		}
	}
	return n;
}

void loadsup_read(struct loadsup *s, const struct pollfd *fds, size_t n, uint64_t now)
{
	size_t k, j, i;

	for (k = 0; k < n; k++) {
		if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		for (j = 0; j < s->nrun; j++) {
			for (i = 0; i < s->run[j].ninst; i++) {
				if (s->run[j].inst[i].out == fds[k].fd)
					drain(s, &s->run[j], (unsigned)i, now);
			}
		}
	}
}

/* Stop the loads flagged stopping: SIGTERM, grace, SIGKILL; wait until no
 * process of theirs is left; forget them. Returns how many needed SIGKILL. */
static int stop_flagged(struct loadsup *s)
{
	uint64_t t0 = clock_mono_ns(), grace = 0;
	int killed = 0;
	size_t j, i;

	for (j = 0; j < s->nrun; j++) {
		struct ls_load *l = &s->run[j];

		if (!l->stopping || !l->g)
			continue;
		if ((uint64_t)load_grace_ns(l->load) > grace)
			grace = (uint64_t)load_grace_ns(l->load);
		l->killed = false;
		contain_group_signal(s->c, l->g, SIGTERM);
	}
	for (;;) {
		struct timespec ts = { 0, 10000000 };
		uint64_t now = clock_mono_ns();
		bool left = false;

		loadsup_reap(s, now);
		for (j = 0; j < s->nrun; j++) {
			struct ls_load *l = &s->run[j];
			int count;

			if (!l->stopping || !l->g)
				continue;
			for (i = 0; i < l->ninst; i++) {
				drain(s, l, (unsigned)i, now);
				left |= l->inst[i].pid != 0;	/* not reaped yet */
			}
			count = contain_group_count(s->c, l->g);
			left |= count > 0;
			if (count > 0 && !l->killed && now - t0 >= (uint64_t)load_grace_ns(l->load)) {
				for (i = 0; i < l->ninst; i++) {
					if (l->inst[i].pid)
						emit(s, l, (unsigned)i, LS_KILLED, now, -1, SIGKILL,
						     "still running after SIGTERM and the grace period",
						     NULL);
				}
				contain_group_signal(s->c, l->g, SIGKILL);
				l->killed = true;
				killed++;
			}
		}
		/* Unkillable (D state) past the slack: stop waiting; the guardian stays. */
		if (!left || now - t0 >= grace + STOP_SLACK_NS)
			break;
		nanosleep(&ts, NULL);
	}
	/* Forget the stopped loads. */
	for (j = 0; j < s->nrun;) {
		struct ls_load *l = &s->run[j];

		if (!l->stopping) {
			j++;
			continue;
		}
		for (i = 0; i < l->ninst; i++) {
			if (l->inst[i].out >= 0)
				close(l->inst[i].out);
		}
		contain_group_free(s->c, l->g);
		free(l->inst);
		s->run[j] = s->run[--s->nrun];
	}
	return killed;
}

int loadsup_switch(struct loadsup *s, struct load *const *loads, size_t n, uint64_t now,
		   char *err, size_t errlen)
{
	size_t j, k;
	int ret = 0;

	bool taken[PLAN_MAX_LOADS] = { false };

	if (n > PLAN_MAX_LOADS) {
		msgbuf_set(err, errlen, "%zu loads in one phase: at most %d", n, PLAN_MAX_LOADS);
		return -1;
	}
	/* Keep the equal ones (rebound to this phase's load; each of this
	 * phase's loads takes one running load at most), stop the rest. */
	for (j = 0; j < s->nrun; j++) {
		struct ls_load *l = &s->run[j];

		l->stopping = true;
		for (k = 0; k < n; k++) {
			if (!taken[k] && plan_load_equal(load_spec(l->load), load_spec(loads[k]))) {
				taken[k] = true;
				size_t i;

				l->load = loads[k];
				l->stopping = false;
				/* a new phase gives a lost process another chance */
				for (i = 0; i < l->ninst; i++) {
					if (l->inst[i].lost) {
						l->inst[i].lost = false;
						l->inst[i].fast_exits = 0;
						l->inst[i].restart_at = now;
						l->inst[i].restarts++;
					}
				}
				break;
			}
		}
	}
	stop_flagged(s);
	for (k = 0; k < n; k++) {
		bool running = false;

		for (j = 0; j < s->nrun && !running; j++)
			running = s->run[j].load == loads[k];
		if (running)
			continue;
		if (start_load(s, loads[k], now, err, errlen) < 0)
			ret = -1;
	}
	return ret;
}

int loadsup_settle(struct loadsup *s, unsigned ms, char *err, size_t errlen)
{
	uint64_t end = clock_mono_ns() + (uint64_t)ms * 1000000ull;
	size_t j, i;

	while (clock_mono_ns() < end) {
		struct timespec ts = { 0, 10000000 };
		uint64_t now = clock_mono_ns();

		loadsup_reap(s, now);
		for (j = 0; j < s->nrun; j++) {
			struct ls_load *l = &s->run[j];

			for (i = 0; i < l->ninst; i++) {
				struct ls_inst *in = &l->inst[i];

				drain(s, l, (unsigned)i, now);
				if (in->pid == 0) {
					msgbuf_set(err, errlen, "load %s ended at once (%s%s%s); a load "
					       "must keep running for its phase", load_name(l->load),
					       in->lost ? "lost" : "exited",
					       in->last[0] ? ": " : "", in->last);
					return -1;
				}
			}
		}
		nanosleep(&ts, NULL);
	}
	return 0;
}

int loadsup_stop_all(struct loadsup *s, uint64_t now)
{
	size_t j;

	(void)now;
	for (j = 0; j < s->nrun; j++)
		s->run[j].stopping = true;
	return stop_flagged(s);
}

void loadsup_free(struct loadsup *s)
{
	if (!s)
		return;
	loadsup_stop_all(s, clock_mono_ns());
	free(s->run);
	contain_free(s->c);
	/* reap what is left (the guardian) */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	free(s);
}

const char *loadsup_status(const struct loadsup *s, char *buf, size_t len)
{
	struct msgbuf_out o;
	size_t j, i;

	msgbuf_out_init(&o, buf, len);
	for (j = 0; j < s->nrun; j++) {
		const struct ls_load *l = &s->run[j];
		unsigned up = 0, lost = 0;

		for (i = 0; i < l->ninst; i++) {
			up += l->inst[i].pid != 0;
			lost += l->inst[i].lost;
		}
		if (!l->ninst)
			msgbuf_out_add(&o, "%s%s", o.used ? ", " : "", load_name(l->load));
		else
			msgbuf_out_add(&o, "%s%s %u/%zu%s", o.used ? ", " : "", load_name(l->load),
				       up, l->ninst, lost ? " LOST" : "");
	}
	return buf;
}

const struct load *loadsup_group_at(const struct loadsup *s, size_t i, const char **cg2,
				    const pid_t **pgids, size_t *npg)
{
	if (!s || i >= s->nrun || !s->run[i].g)
		return NULL;
	*cg2 = contain_group_cgroup2(s->c, s->run[i].g);
	*pgids = contain_group_pgids(s->run[i].g, npg);
	return s->run[i].load;
}
