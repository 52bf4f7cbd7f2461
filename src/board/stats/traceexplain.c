/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Explain a saved --break trace: follow sqwave-rt's timerfd through expiry,
 * interrupt, wake-up and switch-in (a respond break: its event's waker,
 * wake-up and switch-in), and name what made it late. */
#include "stats/traceexplain.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msgbuf.h"
#include "base/units.h"

#define RT_COMM "sqwave-rt"
#define MARKER "sqwave: break at edge #"
#define NCPU 512                  /* CPUs followed; events of higher ones are skipped */
#define NCYCLE 64                 /* timer cycles kept: the late one is a few before the marker */
#define MAX_NS 4000000000000000000ull /* 4e18: differences stay within int64 */
#define LINE_MAX_LEN 4096         /* longer lines are skipped (ftrace's are < 1 KiB) */
#define NRT 4                     /* sqwave-rt threads followed for respond (other runs' too) */
#define NEP 32                    /* wake-ups kept per thread: the event's is a few back */
#define NWAKE 256                 /* the last wake-up of any task, by pid modulo this */
#define NLINK 16                  /* the last tasks a sqwave-rt woke (the marker's helper) */

/* ---- one trace line ---- */

struct tline {
	char comm[TRACEEXPLAIN_COMM];  /* task column, as printed ("<...>" if unknown) */
	int pid, cpu;
	bool irqs_off, need_resched, hardirq, softirq;
	int depth;                     /* preempt depth; 0 if not shown */
	uint64_t ts;                   /* ns */
	char event[32];
	const char *args;              /* after "event: " */
};

struct cpu_state {
	bool known;
	int pid, prio;                 /* prio -1: not seen */
	char comm[TRACEEXPLAIN_COMM];
	/* for a respond break's waker: since when the task has the CPU, its
	 * wake-up before that, and the task it took the CPU from (-1: unknown) */
	int64_t since, woken;
	int prev_pid;
	char prev_comm[TRACEEXPLAIN_COMM];
	char irq[40];                  /* the hard interrupt handler running, "" none */
	bool in_hrwake;                /* in an hrtimer_wakeup expiry (a sleeper's timer) */
};

struct holder {
	char comm[TRACEEXPLAIN_COMM];
	int pid, prio;
	char state[8];
	uint64_t from, to;
	bool nonpreempt;
};

/* The tasks that held a woken sqwave-rt's CPU until it ran. */
struct wait {
	struct holder cur, longest;
	unsigned holders;
};

/* One arming of sqwave-rt's timerfd and what followed it. */
struct cycle {
	bool used;
	int rt_pid;
	char addr[24];
	uint64_t expires;
	int cpu;                       /* where it was armed */
	bool at_e;                     /* the CPU's task at the expiry was taken */
	struct cpu_state e_task;
	unsigned gap;                  /* events on the CPU from E to the interrupt */
	bool fired;
	uint64_t now, fire_ts;
	struct cpu_state fire_task;    /* the task the interrupt found */
	bool woken, by_wakeup;
	uint64_t wake_ts;
	int wake_cpu;
	struct wait w;
	bool ran, run_exact;
	uint64_t run_ts;
};

/* respond: one wake-up of a sqwave-rt thread and what followed it, up to
 * its sleep. Its waker is the task (or hard interrupt) on the waking CPU. */
struct episode {
	uint64_t wake_ts;
	int wake_cpu;
	bool by_wakeup;                /* wake_ts is a sched_wakeup (else sched_waking) */
	bool by_timer;                 /* in an hrtimer_wakeup expiry: its own sleep's timer */
	bool before_trace;             /* made up: it ran from the trace's start */
	struct cpu_state waker;        /* the waking CPU's task, with its own history */
	bool waker_hardirq;
	int waker_cpu;
	struct wait w;
	bool ran, run_exact;
	uint64_t run_ts;
	bool slept;
	uint64_t sleep_ts;
};

struct rtthread {
	int pid, prio;
	uint64_t seen;                 /* last line that named it: the slot to reuse is the oldest */
	bool awake;                    /* its latest episode has not slept yet */
	unsigned nep;                  /* episodes ever; the latest is ep[(nep-1) % NEP] */
	struct episode ep[NEP];
};

struct traceexplain_stream {
	struct cpu_state cpu[NCPU];
	struct rtthread rt[NRT];
	struct { int pid, prio; uint64_t ts; } woke[NWAKE]; /* any task's last wake-up */
	struct { int target, rt; } link[NLINK];        /* who a sqwave-rt woke */
	unsigned nlink;
	bool have_first;
	uint64_t first_ts;             /* the first event's time: the trace reaches back to it */
	struct cycle cyc[NCYCLE];
	unsigned ncyc;                 /* cycles ever started; the latest is cyc[(ncyc-1) % NCYCLE] */
	int rt_pid, rt_prio;
	uint64_t lines, events, bad;
	uint64_t kept, written;        /* header: entries-in-buffer/entries-written */
	char tracers[256];             /* header: TRACEEXPLAIN_TRACERS_LINE, "" if absent */
	struct traceexplain at_marker; /* the answer as of the last marker */
};

/* ---- parsing helpers: bounded, no allocation ---- */

static bool parse_u64(const char *s, const char **end, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (max - (uint64_t)(*p - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*out = v;
	if (end)
		*end = p;
	return true;
}

static bool parse_int(const char *s, const char **end, int *out)
{
	uint64_t v;
	bool neg = *s == '-';

	if (!parse_u64(s + neg, end, 0x7fffffff, &v))
		return false;
	*out = neg ? -(int)v : (int)v;
	return true;
}

/* "SEC.FRAC" (1 to 9 fraction digits) to ns, exactly: no floating point. */
static bool parse_ts(const char *s, const char **end, uint64_t *ns)
{
	uint64_t sec, frac;
	const char *p, *q;
	int digits;

	if (!parse_u64(s, &p, MAX_NS / 1000000000u, &sec) || *p != '.')
		return false;
	if (!parse_u64(p + 1, &q, 999999999u, &frac))
		return false;
	digits = (int)(q - (p + 1));
	if (digits > 9)
		return false;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000u + frac;
	*end = q;
	return true;
}

/* "key=" at the start of @args or after a space. */
static const char *find_key(const char *args, const char *key)
{
	size_t n = strlen(key);
	const char *p = args;

	while ((p = strstr(p, key))) {
		if ((p == args || p[-1] == ' ') && p[n] == '=')
			return p + n + 1;
		p += n;
	}
	return NULL;
}

static bool key_u64(const char *args, const char *key, uint64_t *out)
{
	const char *v = find_key(args, key);

	return v && parse_u64(v, NULL, MAX_NS, out);
}

static bool key_int(const char *args, const char *key, int *out)
{
	const char *v = find_key(args, key);

	return v && parse_int(v, NULL, out);
}

/* A string value: up to " @next=" when given (a comm may hold spaces),
 * else to the next space; printable ASCII only (the text ends up in a
 * log line and on a terminal). */
static bool key_str(const char *args, const char *key, const char *next, char *out, size_t len)
{
	const char *v = find_key(args, key), *e = NULL;
	size_t n, i;

	if (!v)
		return false;
	if (next) {
		char pat[24];

		snprintf(pat, sizeof(pat), " %s=", next);
		e = strstr(v, pat);
	}
	if (!e)
		e = v + strcspn(v, " ");
	n = (size_t)(e - v);
	if (n >= len)
		n = len - 1;
	for (i = 0; i < n; i++)
		out[i] = v[i] > 0x20 && v[i] < 0x7f ? v[i] : (v[i] == ' ' ? ' ' : '?');
	out[n] = '\0';
	return true;
}

static void copy_clean(char *dst, size_t len, const char *src, size_t n)
{
	size_t i;

	if (n >= len)
		n = len - 1;
	for (i = 0; i < n; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
	dst[n] = '\0';
}

/* The TASK-PID column names sqwave-rt: its comm, or a truncation of it
 * (older kernels cut the column; "<...>" means unknown and never matches). */
static bool is_rt_comm(const char *comm)
{
	size_t n = strlen(comm);

	return n >= 8 && n <= strlen(RT_COMM) && !strncmp(comm, RT_COMM, n);
}

/*
 * "  TASK-PID  [CPU] FLAGS  SEC.USEC: EVENT: ARGS". The comm may hold
 * spaces, dashes and brackets: the CPU is the first "[digits] " that
 * follows "-digits". The flags column is optional (irq-info off).
 */
static bool line_parse(const char *s, struct tline *l)
{
	const char *b, *p = NULL, *q, *dash, *start;
	uint64_t v;

	memset(l, 0, sizeof(*l));
	for (b = strchr(s, '['); b; b = strchr(b + 1, '[')) {
		if (!parse_u64(b + 1, &p, NCPU * 64, &v) || *p != ']' || p[1] != ' ')
			continue;
		q = b;
		while (q > s && q[-1] == ' ')
			q--;
		dash = q;
		while (dash > s && dash[-1] >= '0' && dash[-1] <= '9')
			dash--;
		if (dash == q || dash == s || dash[-1] != '-')
			continue;
		if (!parse_int(dash, NULL, &l->pid))
			continue;
		start = s;
		while (*start == ' ')
			start++;
		if (start > dash - 1)
			continue;
		copy_clean(l->comm, sizeof(l->comm), start, (size_t)(dash - 1 - start));
		l->cpu = (int)v;
		p += 2;
		break;
	}
	if (!b || !p)
		return false;
	while (*p == ' ')
		p++;
	if (!parse_ts(p, &q, &l->ts) || *q != ':') {
		/* flags first: "d.h2." (5) or "d.h2" (4) */
		size_t n = strcspn(p, " ");

		if (n < 4 || n > 6)
			return false;
		l->irqs_off = p[0] == 'd' || p[0] == 'D';
		l->need_resched = p[1] == 'N' || p[1] == 'n' || p[1] == 'p' || p[1] == 'L';
		l->hardirq = p[2] == 'h' || p[2] == 'H' || p[2] == 'z' || p[2] == 'Z';
		l->softirq = p[2] == 's';
		l->depth = p[3] >= '0' && p[3] <= '9' ? p[3] - '0' :
			   (p[3] >= 'a' && p[3] <= 'f' ? p[3] - 'a' + 10 : 0);
		p += n;
		while (*p == ' ')
			p++;
		if (!parse_ts(p, &q, &l->ts) || *q != ':')
			return false;
	}
	p = q + 1;
	while (*p == ' ')
		p++;
	q = p + strcspn(p, ": ");
	if (*q != ':' || q == p || (size_t)(q - p) >= sizeof(l->event))
		return false;
	memcpy(l->event, p, (size_t)(q - p));
	l->event[q - p] = '\0';
	l->args = q[1] == ' ' ? q + 2 : q + 1;
	return true;
}

/* ---- the stream ---- */

struct traceexplain_stream *traceexplain_stream_new(void)
{
	struct traceexplain_stream *s = calloc(1, sizeof(*s));

	if (s)
		s->rt_pid = s->rt_prio = -1;
	return s;
}

void traceexplain_stream_free(struct traceexplain_stream *s)
{
	free(s);
}

static struct cycle *cur_cycle(struct traceexplain_stream *s)
{
	struct cycle *c = s->ncyc ? &s->cyc[(s->ncyc - 1) % NCYCLE] : NULL;

	return c && c->used && c->rt_pid == s->rt_pid ? c : NULL;
}

static struct cpu_state *cpu_of(struct traceexplain_stream *s, int cpu)
{
	return cpu >= 0 && cpu < NCPU ? &s->cpu[cpu] : NULL;
}

static void learn_rt(struct traceexplain_stream *s, int pid, int prio)
{
	if (pid <= 0)
		return;
	s->rt_pid = pid;
	if (prio >= 0)
		s->rt_prio = prio;
}

/* respond: the slot of sqwave-rt thread @pid (@make: taking the least
 * recently named one when it has none), or NULL. */
static struct rtthread *rt_find(struct traceexplain_stream *s, int pid, bool make)
{
	struct rtthread *old = NULL;
	unsigned i;

	if (pid <= 0)
		return NULL;
	for (i = 0; i < NRT; i++) {
		if (s->rt[i].pid == pid) {
			s->rt[i].seen = s->lines;
			return &s->rt[i];
		}
		if (!old || s->rt[i].seen < old->seen)
			old = &s->rt[i];
	}
	if (!make)
		return NULL;
	memset(old, 0, sizeof(*old));
	old->pid = pid;
	old->prio = -1;
	old->seen = s->lines;
	return old;
}

static struct episode *rt_cur(struct rtthread *t)
{
	return t && t->nep ? &t->ep[(t->nep - 1) % NEP] : NULL;
}

/* A holder's time on the CPU ends at @ts (it left in @state, "" if not). */
static void holder_end(struct wait *c, uint64_t ts, const char *state, int prio)
{
	c->cur.to = ts;
	snprintf(c->cur.state, sizeof(c->cur.state), "%s", state);
	if (prio >= 0)
		c->cur.prio = prio;
	if (!c->holders || c->cur.to - c->cur.from > c->longest.to - c->longest.from ||
	    (c->longest.pid == 0 && c->cur.pid != 0))
		c->longest = c->cur;
	c->holders++;
}

static void holder_begin(struct wait *c, const struct cpu_state *t, uint64_t ts)
{
	memset(&c->cur, 0, sizeof(c->cur));
	if (t && t->known) {
		memcpy(c->cur.comm, t->comm, sizeof(c->cur.comm));
		c->cur.pid = t->pid;
		c->cur.prio = t->prio;
	} else {
		c->cur.pid = -1;
		c->cur.prio = -1;
	}
	c->cur.from = ts;
}

static void set_ran(struct cycle *c, uint64_t ts, bool exact, const char *state, int prio)
{
	holder_end(&c->w, ts, state, prio);
	c->ran = true;
	c->run_exact = exact;
	c->run_ts = ts;
}

/* respond: a sched_switch for each followed sqwave-rt: the end of a wait
 * for its CPU, its switch-in, its sleep (a state other than R). */
static void rt_switch(struct traceexplain_stream *s, const struct tline *l, int ppid,
		      const char *st, int pprio, const char *nc, int npid, int nprio)
{
	unsigned i;

	for (i = 0; i < NRT; i++) {
		struct rtthread *t = &s->rt[i];
		struct episode *e = rt_cur(t);

		if (t->pid <= 0)
			continue;
		if (ppid == t->pid && !t->awake && !t->nep && st[0] && st[0] != 'R' &&
		    s->have_first) {
			/* it ran from before the trace's first event: an episode
			 * without its wake-up, so that "running at T" is known */
			e = &t->ep[t->nep++ % NEP];
			memset(e, 0, sizeof(*e));
			e->before_trace = e->ran = true;
			e->wake_ts = e->run_ts = s->first_ts;
			e->wake_cpu = l->cpu;
			e->waker.pid = -1;
			t->awake = true;
		}
		if (!e || !t->awake)
			continue;
		if (!e->ran && l->cpu == e->wake_cpu) {
			if (npid == t->pid) {
				holder_end(&e->w, l->ts, st, pprio);
				e->ran = e->run_exact = true;
				e->run_ts = l->ts;
			} else {
				struct cpu_state next = { .known = true, .pid = npid, .prio = nprio };

				snprintf(next.comm, sizeof(next.comm), "%s", nc);
				holder_end(&e->w, l->ts, st, pprio);
				holder_begin(&e->w, &next, l->ts);
			}
		}
		if (ppid == t->pid && st[0] && st[0] != 'R') {
			if (!e->ran) {
				e->ran = true;
				e->run_ts = l->ts;
			}
			e->slept = true;
			e->sleep_ts = l->ts;
			t->awake = false;
		}
	}
}

/* respond: sqwave-rt @pid woken (@wakeup: sched_wakeup, else sched_waking)
 * by the task or interrupt on @l's CPU. */
static void rt_wakeup(struct traceexplain_stream *s, const struct tline *l, int pid, int prio,
		      int target, bool wakeup)
{
	struct rtthread *t = rt_find(s, pid, true);
	struct cpu_state *cs = cpu_of(s, l->cpu);
	struct episode *e = rt_cur(t);

	if (!t)
		return;
	if (prio >= 0)
		t->prio = prio;
	if (t->awake && e && !e->ran) {
		/* sched_waking came first; the wake-up is when it became runnable */
		if (wakeup && !e->by_wakeup) {
			e->wake_ts = l->ts;
			e->w.cur.from = l->ts;
			e->by_wakeup = true;
		}
		return;
	}
	e = &t->ep[t->nep++ % NEP];
	memset(e, 0, sizeof(*e));
	t->awake = true;
	e->wake_ts = l->ts;
	e->wake_cpu = target;
	e->by_wakeup = wakeup;
	e->waker_hardirq = l->hardirq;
	e->waker_cpu = l->cpu;
	if (cs) {
		e->waker = *cs;
		e->by_timer = l->hardirq && cs->in_hrwake;
	} else {
		e->waker.pid = -1;
	}
	holder_begin(&e->w, cpu_of(s, target), l->ts);
}

static void on_switch(struct traceexplain_stream *s, const struct tline *l, struct cycle *c)
{
	char pc[TRACEEXPLAIN_COMM] = "", nc[TRACEEXPLAIN_COMM] = "", st[8] = "";
	int ppid = -1, npid = -1, pprio = -1, nprio = -1;
	struct cpu_state *cs = cpu_of(s, l->cpu);

	key_str(l->args, "prev_comm", "prev_pid", pc, sizeof(pc));
	key_str(l->args, "next_comm", "next_pid", nc, sizeof(nc));
	key_str(l->args, "prev_state", NULL, st, sizeof(st));
	key_int(l->args, "prev_pid", &ppid);
	key_int(l->args, "next_pid", &npid);
	key_int(l->args, "prev_prio", &pprio);
	key_int(l->args, "next_prio", &nprio);
	if (!strcmp(pc, RT_COMM)) {
		struct rtthread *t = rt_find(s, ppid, true);

		learn_rt(s, ppid, pprio);
		if (t && pprio >= 0)
			t->prio = pprio;
	}
	if (!strcmp(nc, RT_COMM)) {
		struct rtthread *t = rt_find(s, npid, true);

		learn_rt(s, npid, nprio);
		if (t && nprio >= 0)
			t->prio = nprio;
	}
	rt_switch(s, l, ppid, st, pprio, nc, npid, nprio);
	if (c && c->woken && !c->ran && l->cpu == c->wake_cpu) {
		if (npid == s->rt_pid) {
			set_ran(c, l->ts, true, st, pprio);
		} else {
			struct cpu_state next = { .known = true, .pid = npid, .prio = nprio };

			snprintf(next.comm, sizeof(next.comm), "%s", nc);
			holder_end(&c->w, l->ts, st, pprio);
			holder_begin(&c->w, &next, l->ts);
		}
	}
	if (cs && npid >= 0) {
		const unsigned k = (unsigned)npid % NWAKE;

		cs->known = true;
		cs->pid = npid;
		cs->prio = nprio;
		snprintf(cs->comm, sizeof(cs->comm), "%s", nc);
		/* for the waker of a respond break: since when, woken when, and
		 * from whom it took the CPU */
		cs->since = (int64_t)l->ts;
		cs->woken = s->woke[k].pid == npid && s->woke[k].ts <= l->ts ?
			    (int64_t)s->woke[k].ts : -1;
		cs->prev_pid = ppid;
		snprintf(cs->prev_comm, sizeof(cs->prev_comm), "%s", pc);
	}
}

static void on_wakeup(struct traceexplain_stream *s, const struct tline *l, struct cycle *c,
		      bool wakeup)
{
	char comm[TRACEEXPLAIN_COMM] = "";
	int pid = -1, prio = -1, target = l->cpu;

	key_str(l->args, "comm", "pid", comm, sizeof(comm));
	key_int(l->args, "pid", &pid);
	key_int(l->args, "prio", &prio);
	key_int(l->args, "target_cpu", &target);
	if (pid > 0) {
		/* any task's wake-up (sched_wakeup after sched_waking: the later) */
		s->woke[(unsigned)pid % NWAKE].pid = pid;
		s->woke[(unsigned)pid % NWAKE].prio = prio;
		s->woke[(unsigned)pid % NWAKE].ts = l->ts;
		/* a sqwave-rt waking a task: the --break helper that writes the
		 * marker is woken by its own run's sqwave-rt */
		if (is_rt_comm(l->comm) && l->pid > 0 && !l->hardirq) {
			s->link[s->nlink % NLINK].target = pid;
			s->link[s->nlink % NLINK].rt = l->pid;
			s->nlink++;
		}
	}
	if (strcmp(comm, RT_COMM))
		return;
	learn_rt(s, pid, prio);
	rt_wakeup(s, l, pid, prio, target, wakeup);
	c = cur_cycle(s);
	if (!c || !c->fired || c->ran || (c->woken && (c->by_wakeup || !wakeup)))
		return;
	if (c->woken) {
		/* sched_waking came first; the wake-up is when it became runnable */
		c->wake_ts = l->ts;
		c->w.cur.from = l->ts;
		c->by_wakeup = true;
		return;
	}
	c->woken = true;
	c->by_wakeup = wakeup;
	c->wake_ts = l->ts;
	c->wake_cpu = target;
	holder_begin(&c->w, cpu_of(s, target), l->ts);
}

static void on_hrtimer_start(struct traceexplain_stream *s, const struct tline *l)
{
	char fn[40] = "", addr[24] = "";
	uint64_t e;
	struct cycle *c;

	if (!key_str(l->args, "function", NULL, fn, sizeof(fn)) || strcmp(fn, "timerfd_tmrproc") ||
	    !key_str(l->args, "hrtimer", NULL, addr, sizeof(addr)) || !key_u64(l->args, "expires", &e))
		return;
	if (l->pid != s->rt_pid && !is_rt_comm(l->comm))
		return;
	learn_rt(s, l->pid, -1);
	c = &s->cyc[s->ncyc++ % NCYCLE];
	memset(c, 0, sizeof(*c));
	c->used = true;
	c->rt_pid = s->rt_pid;
	snprintf(c->addr, sizeof(c->addr), "%s", addr);
	c->expires = e;
	c->cpu = l->cpu;
}

static void on_expire(struct traceexplain_stream *s, const struct tline *l, struct cycle *c)
{
	char fn[40] = "", addr[24] = "";
	uint64_t now;
	struct cpu_state *cs = cpu_of(s, l->cpu);

	if (!c || c->fired || !key_str(l->args, "function", NULL, fn, sizeof(fn)) ||
	    strcmp(fn, "timerfd_tmrproc") || !key_str(l->args, "hrtimer", NULL, addr, sizeof(addr)) ||
	    strcmp(addr, c->addr) || !key_u64(l->args, "now", &now))
		return;
	c->fired = true;
	c->now = now;
	c->fire_ts = l->ts;
	if (cs)
		c->fire_task = *cs;
	if (!c->at_e) {
		c->at_e = true;
		c->e_task = c->fire_task;
	}
}

/* sqwave's marker (tracebreak.c): "sqwave: break at edge #N (intended T
 * ns): wake latency V ns, threshold H ns". */
static void on_marker(struct traceexplain_stream *s, const struct tline *l);

/* The interrupt that delivered the timer: not a gap event. */
static bool is_timer_entry(const struct tline *l)
{
	return !strcmp(l->event, "local_timer_entry") ||
	       (!strcmp(l->event, "irq_handler_entry") && strstr(l->args, "timer"));
}

static void header_line(struct traceexplain_stream *s, const char *line)
{
	const char *p = strstr(line, "entries-in-buffer/entries-written:");
	uint64_t a, b;

	if (!strncmp(line, TRACEEXPLAIN_TRACERS_LINE, strlen(TRACEEXPLAIN_TRACERS_LINE))) {
		p = line + strlen(TRACEEXPLAIN_TRACERS_LINE);
		while (*p == ' ')
			p++;
		/* " " marks "the line was there, and listed nothing" */
		snprintf(s->tracers, sizeof(s->tracers), "%.255s", *p ? p : " ");
		return;
	}
	if (!p)
		return;
	p += strlen("entries-in-buffer/entries-written:");
	while (*p == ' ')
		p++;
	if (parse_u64(p, &p, UINT64_MAX, &a) && *p == '/' && parse_u64(p + 1, NULL, UINT64_MAX, &b)) {
		s->kept = a;
		s->written = b;
	}
}

/* respond: what any line says of a followed sqwave-rt: its first event
 * after a wake-up is its run (when the switch-in was not traced), and a
 * holder's need-resched as for the timer's cycle. */
static void rt_line(struct traceexplain_stream *s, const struct tline *l)
{
	unsigned i;

	for (i = 0; i < NRT; i++) {
		struct rtthread *t = &s->rt[i];
		struct episode *e = rt_cur(t);

		if (t->pid <= 0 || !t->awake || !e || e->ran)
			continue;
		if (l->pid == t->pid && strcmp(l->event, "sched_switch")) {
			holder_end(&e->w, l->ts, "", -1);
			e->ran = true;
			e->run_ts = l->ts;
		} else if (l->cpu == e->wake_cpu && l->pid == e->w.cur.pid && l->need_resched &&
			   !l->hardirq && !l->softirq && (l->depth > 0 || l->irqs_off)) {
			e->w.cur.nonpreempt = true;
		}
	}
}

void traceexplain_line(struct traceexplain_stream *s, const char *line, size_t len)
{
	char buf[LINE_MAX_LEN];
	struct tline l;
	struct cycle *c;
	struct cpu_state *cs;

	s->lines++;
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (len >= sizeof(buf)) {
		s->bad++;
		return;
	}
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (len != strlen(buf)) {   /* a NUL inside: not text */
		s->bad++;
		return;
	}
	if (buf[0] == '#') {
		header_line(s, buf);
		return;
	}
	if (!line_parse(buf, &l)) {
		if (len)
			s->bad++;
		return;
	}
	s->events++;
	if (!s->have_first) {
		s->have_first = true;
		s->first_ts = l.ts;
	}
	c = cur_cycle(s);
	cs = cpu_of(s, l.cpu);
	/* The task the expiry found on the armed CPU: the one current when
	 * the first event at or after E arrives (before this event counts). */
	if (c && !c->fired && !c->at_e && l.ts >= c->expires) {
		struct cpu_state *ec = cpu_of(s, c->cpu);

		c->at_e = true;
		if (ec)
			c->e_task = *ec;
	}
	if (cs) {
		if (!cs->known || cs->pid != l.pid) {
			const unsigned k = (unsigned)l.pid % NWAKE;
			bool w = l.pid > 0 && s->woke[k].pid == l.pid && s->woke[k].ts <= l.ts;

			/* its switch-in was not traced: its wake-up may have been */
			cs->prio = w ? s->woke[k].prio : -1;
			snprintf(cs->comm, sizeof(cs->comm), "%s", l.comm);
			cs->since = -1;
			cs->woken = w ? (int64_t)s->woke[k].ts : -1;
			cs->prev_pid = -1;
			cs->prev_comm[0] = '\0';
		}
		cs->known = true;
		cs->pid = l.pid;
		/* out of the hard interrupt: no handler, no timer expiry runs */
		if (!l.hardirq) {
			cs->irq[0] = '\0';
			cs->in_hrwake = false;
		}
		if (!strcmp(l.event, "irq_handler_entry"))
			copy_clean(cs->irq, sizeof(cs->irq), l.args, strlen(l.args));
		else if (!strcmp(l.event, "irq_handler_exit"))
			cs->irq[0] = '\0';
		else if (!strcmp(l.event, "hrtimer_expire_entry"))
			cs->in_hrwake = strstr(l.args, "function=hrtimer_wakeup") != NULL;
		else if (!strcmp(l.event, "hrtimer_expire_exit"))
			cs->in_hrwake = false;
	}
	rt_line(s, &l);
	/* sqwave-rt doing anything: it runs (when its switch-in was not traced) */
	if (c && c->woken && !c->ran && l.pid == s->rt_pid && s->rt_pid > 0 &&
	    strcmp(l.event, "sched_switch"))
		set_ran(c, l.ts, false, "", -1);
	/* what the holder does while sqwave-rt waits: need-resched in task
	 * context under preempt-depth or irqs-off is a section that cannot be
	 * preempted */
	if (c && c->woken && !c->ran && l.cpu == c->wake_cpu && l.pid == c->w.cur.pid &&
	    l.need_resched && !l.hardirq && !l.softirq && (l.depth > 0 || l.irqs_off))
		c->w.cur.nonpreempt = true;

	if (!strcmp(l.event, "sched_switch"))
		on_switch(s, &l, c);
	else if (!strcmp(l.event, "sched_wakeup"))
		on_wakeup(s, &l, c, true);
	else if (!strcmp(l.event, "sched_waking"))
		on_wakeup(s, &l, c, false);
	else if (!strcmp(l.event, "hrtimer_start"))
		on_hrtimer_start(s, &l);
	else if (!strcmp(l.event, "hrtimer_expire_entry"))
		on_expire(s, &l, c);
	else if (!strcmp(l.event, "tracing_mark_write") || !strcmp(l.event, "print"))
		on_marker(s, &l);
	/* after the dispatch: the timer's own expiry line is not in the gap */
	c = cur_cycle(s);
	if (c && c->at_e && !c->fired && l.cpu == c->cpu && !is_timer_entry(&l))
		c->gap++;
}

/* ---- the answer ---- */

/* ns as "1242.000 us", exactly. */
static const char *us(int64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%s us", UNITS_US(ns));
	return buf;
}

#define US(ns) us((ns), (char[32]){ 0 }, 32)

static const char *state_words(const char *st)
{
	switch (st[0]) {
	case 'D': return "until it blocked (state D: waiting in the kernel, e.g. for I/O)";
	case 'S': return "until it slept (state S)";
	case 'R': return "until it was preempted at last (state R)";
	case '\0': return "and still had it when sqwave-rt ran";
	default: return "until it left (state other than R, S, D)";
	}
}

static void unknown(struct traceexplain *o, const struct traceexplain_stream *s, const char *why)
{
	char wrap[96] = "";

	o->kind = TRACEEXPLAIN_UNKNOWN;
	if (s->written > s->kept)
		snprintf(wrap, sizeof(wrap), "; the buffer wrapped: %" PRIu64 " of %" PRIu64
			 " events kept", s->kept, s->written);
	snprintf(o->text, sizeof(o->text), "The trace does not say why: %s%s.", why, wrap);
	snprintf(o->cause, sizeof(o->cause), "unknown: %.100s", why);
}

/* The interrupt's delay is the larger part of the wake-up latency: what
 * the CPU did between the expiry and the interrupt. */
static void explain_late_irq(const struct traceexplain_stream *s, struct traceexplain *o,
			     const struct cycle *c)
{
	const struct cpu_state *t = c->fire_task.known ? &c->fire_task : &c->e_task;
	bool idle = c->e_task.known && c->e_task.pid == 0 && t->known && t->pid == 0;

	if (!t->known) {
		unknown(o, s, "the timer interrupt came late, and nothing says what ran on the CPU");
		return;
	}
	snprintf(o->holder_comm, sizeof(o->holder_comm), "%s", t->comm);
	o->holder_pid = t->pid;
	o->holder_prio = t->prio;
	o->holder_ns = o->irq_delay_ns;
	if (idle) {
		o->kind = TRACEEXPLAIN_LATE_IRQ_IDLE;
		snprintf(o->text, sizeof(o->text),
			 "The timer interrupt came %s late on CPU %d, which was idle with %s "
			 "from the expiry to the interrupt, so the delay came from outside this "
			 "kernel (a hypervisor not running the vCPU, an SMI or firmware, a deep "
			 "idle state); " RT_COMM " then ran %s after its wake-up.",
			 US(o->irq_delay_ns), c->cpu,
			 c->gap ? "only other interrupts traced on it" : "nothing traced on it",
			 US(o->wake_to_run_ns));
		snprintf(o->cause, sizeof(o->cause), "late-irq-idle +%s cpu=%d",
			 US(o->irq_delay_ns), c->cpu);
	} else {
		o->kind = TRACEEXPLAIN_LATE_IRQ_BUSY;
		snprintf(o->text, sizeof(o->text),
			 "The timer interrupt came %s late on CPU %d while %s (pid %d) ran "
			 "there, with interrupts off or in another handler; " RT_COMM " then "
			 "ran %s after its wake-up.", US(o->irq_delay_ns), c->cpu, t->comm, t->pid,
			 US(o->wake_to_run_ns));
		snprintf(o->cause, sizeof(o->cause), "late-irq-busy %s/%d +%s cpu=%d", t->comm,
			 t->pid, US(o->irq_delay_ns), c->cpu);
	}
}

/* The interrupt was on time and the RT thread waited after its wake-up:
 * the task that kept its CPU longest in that wait is the answer. */
static void explain_holder(const struct traceexplain_stream *s, struct traceexplain *o,
			   const struct holder *h, int cpu, const char *tail, const char *ctail)
{
	char why[200];

	if (h->pid < 0) {
		unknown(o, s, RT_COMM " waited after its wake-up, and nothing says which task ran");
		return;
	}
	if (h->pid == 0) {
		snprintf(why, sizeof(why), RT_COMM " waited %s after its wake-up on CPU %d, which "
			 "was idle with no task in the way", US(o->wake_to_run_ns), cpu);
		unknown(o, s, why);
		return;
	}
	snprintf(o->holder_comm, sizeof(o->holder_comm), "%s", h->comm);
	o->holder_pid = h->pid;
	o->holder_prio = h->prio;
	snprintf(o->holder_state, sizeof(o->holder_state), "%s", h->state);
	o->holder_ns = (int64_t)(h->to - h->from);
	o->holder_nonpreempt = h->nonpreempt;
	if (h->prio >= 0 && o->rt_prio >= 0 && h->prio <= o->rt_prio) {
		char hp[40], rp[40];

		o->kind = TRACEEXPLAIN_PREEMPTED_BY;
		snprintf(o->text, sizeof(o->text),
			 "A task of %s priority, %s (pid %d, %s), ran on CPU %d for %s after "
			 RT_COMM " (%s) was woken, %s; %s.",
			 h->prio < o->rt_prio ? "higher" : "equal", h->comm, h->pid,
			 traceexplain_prio_words(h->prio, hp, sizeof(hp)), cpu,
			 US(o->holder_ns), traceexplain_prio_words(o->rt_prio, rp, sizeof(rp)),
			 state_words(h->state), tail);
		snprintf(o->cause, sizeof(o->cause), "preempted-by %s/%d prio=%d %s cpu=%d", h->comm,
			 h->pid, h->prio, US(o->holder_ns), cpu);
		return;
	}
	o->kind = TRACEEXPLAIN_HELD_BY;
	snprintf(o->text, sizeof(o->text),
		 "CPU %d stayed with %s (pid %d, %s) for %s after " RT_COMM " was woken%s, "
		 "%s; %s.",
		 cpu, h->comm, h->pid,
		 traceexplain_prio_words(h->prio, (char[40]){ 0 }, 40), US(o->holder_ns),
		 h->nonpreempt ? ", need-resched set in a non-preemptible kernel section" : "",
		 state_words(h->state), tail);
	snprintf(o->cause, sizeof(o->cause), "held-by %s/%d %s state=%s cpu=%d %s", h->comm,
		 h->pid, US(o->holder_ns), h->state[0] ? h->state : "-", cpu, ctail);
}

/* The explanation as of the marker just read: the cycle of the late
 * wake-up is the last one armed for an expiry at or before T. */
static void explain(const struct traceexplain_stream *s, struct traceexplain *o)
{
	const struct cycle *c = NULL, *last = NULL;
	unsigned i, n = s->ncyc < NCYCLE ? s->ncyc : NCYCLE;
	char why[200];

	o->rt_pid = s->rt_pid;
	o->rt_prio = s->rt_prio;
	o->cpu = -1;
	o->expires_ns = o->irq_ns = o->wakeup_ns = o->run_ns = -1;
	o->irq_delay_ns = o->wake_to_run_ns = o->total_ns = o->holder_ns = -1;
	o->holder_pid = o->holder_prio = -1;
	if (s->rt_pid <= 0) {
		unknown(o, s, "no " RT_COMM " thread before the marker (sched events not traced?)");
		return;
	}
	for (i = 0; i < n; i++) {
		const struct cycle *k = &s->cyc[(s->ncyc - 1 - i) % NCYCLE];

		if (!k->used || k->rt_pid != s->rt_pid)
			continue;
		if (!last)
			last = k;
		if (k->expires <= o->intended_ns && (!c || k->expires > c->expires))
			c = k;
	}
	if (!c)
		c = last;
	if (!c) {
		unknown(o, s, "no timerfd hrtimer_start of " RT_COMM " before the marker "
			"(timer events not traced, or the buffer lost them)");
		return;
	}
	o->expires_ns = (int64_t)c->expires;
	o->cpu = c->cpu;
	if (!c->fired) {
		snprintf(why, sizeof(why), "the timer for %" PRIu64 " ns has no hrtimer_expire_entry "
			 "before the marker", c->expires);
		unknown(o, s, why);
		return;
	}
	o->irq_ns = (int64_t)c->now;
	o->irq_delay_ns = (int64_t)c->now - (int64_t)c->expires;
	if (o->irq_delay_ns < 0) {
		unknown(o, s, "the timer fired before its expiry (the trace is inconsistent)");
		return;
	}
	if (!c->woken) {
		unknown(o, s, "no sched_wakeup of " RT_COMM " after its timer fired");
		return;
	}
	o->cpu = c->wake_cpu;
	o->wakeup_ns = (int64_t)c->wake_ts;
	if (!c->ran) {
		unknown(o, s, "no sched_switch to " RT_COMM " after its wake-up");
		return;
	}
	o->run_ns = (int64_t)c->run_ts;
	o->run_exact = c->run_exact;
	o->wake_to_run_ns = (int64_t)c->run_ts - (int64_t)c->wake_ts;
	o->total_ns = (int64_t)c->run_ts - (int64_t)c->expires;
	o->gap_events = c->gap;
	o->holders = c->w.holders;
	if (o->marker_value_ns > 0 && o->total_ns < o->marker_value_ns / 2) {
		snprintf(why, sizeof(why), RT_COMM " ran %s after its expiry in the trace, the break "
			 "measured %s: the late wake-up is not in it", US(o->total_ns),
			 US(o->marker_value_ns));
		unknown(o, s, why);
		return;
	}

	if (o->irq_delay_ns >= o->wake_to_run_ns) {
		explain_late_irq(s, o, c);
	} else {
		char tail[80], ctail[48];

		snprintf(tail, sizeof(tail), "the timer itself fired %s late", US(o->irq_delay_ns));
		snprintf(ctail, sizeof(ctail), "timer+%s", US(o->irq_delay_ns));
		explain_holder(s, o, &c->w.longest, c->wake_cpu, tail, ctail);
	}
}

/* The fields a respond explanation starts from: nothing known. */
static void respond_init(struct traceexplain *o)
{
	o->respond = true;
	o->cpu = o->waker_cpu = -1;
	o->expires_ns = o->irq_ns = o->wakeup_ns = o->run_ns = -1;
	o->irq_delay_ns = o->wake_to_run_ns = o->total_ns = o->holder_ns = -1;
	o->wake_delay_ns = o->waker_woken_ns = o->waker_run_ns = -1;
	o->holder_pid = o->holder_prio = o->waker_pid = o->waker_prio = o->waker_prev_pid = -1;
}

/* "the stimulus thread sqwave (pid 5732, normal, nice 0) on CPU 0", "the
 * hard interrupt irq=45 name=gpio on CPU 1 (over bash, pid 12)". */
static void waker_words(const struct traceexplain *o, char *buf, size_t len)
{
	char pw[40];

	if (o->waker_irq[0])
		snprintf(buf, len, "the hard interrupt %s on CPU %d (over %s, pid %d)", o->waker_irq,
			 o->waker_cpu, o->waker_comm, o->waker_pid);
	else
		snprintf(buf, len, "%s (pid %d, %s) on CPU %d", o->waker_comm, o->waker_pid,
			 traceexplain_prio_words(o->waker_prio, pw, sizeof(pw)), o->waker_cpu);
}

/* The wake-up itself came late: who woke sqwave-rt, and what made that
 * task late (woken late itself, or waiting for its CPU, and behind whom). */
static void explain_late_wakeup(const struct traceexplain_stream *s, struct traceexplain *o)
{
	char by[160], hist[200] = "";
	int64_t t = (int64_t)o->intended_ns;
	bool waited = false;

	(void)s;
	waker_words(o, by, sizeof(by));
	if (!o->waker_irq[0] && o->waker_run_ns < 0 && o->waker_woken_ns >= 0) {
		/* its switch-in is not in the trace, its wake-up is */
		snprintf(hist, sizeof(hist), ", which had itself been woken %s %s the event",
			 US(o->waker_woken_ns > t ? o->waker_woken_ns - t : t - o->waker_woken_ns),
			 o->waker_woken_ns >= t ? "after" : "before");
	} else if (!o->waker_irq[0] && o->waker_run_ns >= 0) {
		int64_t from = o->waker_woken_ns > t ? o->waker_woken_ns : t;
		int64_t wait = o->waker_run_ns - from;

		waited = o->waker_prev_pid > 0 && wait >= 0 && 2 * wait >= o->wake_delay_ns;
		if (o->waker_run_ns <= t)
			snprintf(hist, sizeof(hist), ", which had the CPU since %s before the event",
				 US(t - o->waker_run_ns));
		else if (o->waker_woken_ns >= 0 && o->waker_woken_ns <= o->waker_run_ns)
			snprintf(hist, sizeof(hist), ", which had itself been woken %s %s the event "
				 "and got its CPU %s after that%s%s%s", US(o->waker_woken_ns > t ?
				 o->waker_woken_ns - t : t - o->waker_woken_ns),
				 o->waker_woken_ns >= t ? "after" : "before",
				 US(o->waker_run_ns - o->waker_woken_ns),
				 o->waker_prev_pid > 0 ? ", from " : "",
				 o->waker_prev_pid > 0 ? o->waker_prev_comm : "", "");
		else
			snprintf(hist, sizeof(hist), ", which got its CPU %s after the event%s%s",
				 US(o->waker_run_ns - t), o->waker_prev_pid > 0 ? ", from " : "",
				 o->waker_prev_pid > 0 ? o->waker_prev_comm : "");
	}
	o->kind = TRACEEXPLAIN_LATE_WAKEUP;
	snprintf(o->text, sizeof(o->text),
		 "The wake-up itself came late: " RT_COMM " was woken %s after the event by %s%s; "
		 RT_COMM " then ran %s after its wake-up.", US(o->wake_delay_ns), by, hist,
		 US(o->wake_to_run_ns));
	if (waited)
		snprintf(o->cause, sizeof(o->cause), "late-wakeup %s/%d +%s cpu=%d after %s/%d",
			 o->waker_comm, o->waker_pid, US(o->wake_delay_ns), o->waker_cpu,
			 o->waker_prev_comm, o->waker_prev_pid);
	else
		snprintf(o->cause, sizeof(o->cause), "late-wakeup %s%s/%d +%s cpu=%d",
			 o->waker_irq[0] ? "hardirq-over-" : "", o->waker_comm, o->waker_pid,
			 US(o->wake_delay_ns), o->waker_cpu);
}

/*
 * A respond break's episode (explain_respond): of this run's sqwave-rt, the
 * last one woken at or before T + V; NULL when the trace has none, and @o
 * then says why.
 */
static const struct episode *respond_episode(const struct traceexplain_stream *s,
					     struct traceexplain *o, int marker_pid)
{
	const struct rtthread *t = NULL;
	const struct episode *e = NULL;
	uint64_t T = o->intended_ns, W = UINT64_MAX;
	unsigned i, n;
	int rt = -1;

	/* this run's sqwave-rt: the one that woke the marker's writer (the
	 * --break helper); other runs' sqwave-rt may be in the trace too */
	for (i = 0; i < NLINK && i < s->nlink; i++) {
		unsigned k = (s->nlink - 1 - i) % NLINK;

		if (s->link[k].target == marker_pid) {
			rt = s->link[k].rt;
			break;
		}
	}
	if (rt <= 0)
		rt = s->rt_pid;
	for (i = 0; i < NRT; i++)
		if (rt > 0 && s->rt[i].pid == rt)
			t = &s->rt[i];
	if (!t || !t->nep) {
		unknown(o, s, "no wake-up of " RT_COMM " before the marker (sched events not traced?)");
		return NULL;
	}
	o->rt_pid = t->pid;
	o->rt_prio = t->prio;
	if (!s->have_first || s->first_ts > T) {
		unknown(o, s, "the trace begins after the event (the buffer lost it, or tracing "
			"had restarted after an earlier break)");
		return NULL;
	}
	n = t->nep < NEP ? t->nep : NEP;
	if (o->marker_value_ns > 0) {
		W = T + (uint64_t)o->marker_value_ns;
	} else {
		/* no measured wake-up: the first one after the event, if any */
		for (W = T, i = 0; i < n; i++) {
			const struct episode *k = &t->ep[(t->nep - 1 - i) % NEP];

			if (k->wake_ts >= T)
				W = k->wake_ts;
		}
	}
	for (i = 0; i < n && !e; i++) {
		const struct episode *k = &t->ep[(t->nep - 1 - i) % NEP];

		if (k->wake_ts <= W)
			e = k;
	}
	if (!e)
		unknown(o, s, "no wake-up of " RT_COMM " before it read the event (the buffer lost it)");
	return e;
}

/* A respond break where sqwave-rt was awake since before the event @e. */
static void explain_respond_awake(const struct traceexplain_stream *s, struct traceexplain *o,
				  const struct episode *e)
{
	uint64_t T = o->intended_ns;
	char why[200], tail[240], ctail[64];

	if (e->slept && e->sleep_ts < T) {
		snprintf(why, sizeof(why), RT_COMM " slept from before the event and no "
			 "wake-up of it follows until it read the event");
		unknown(o, s, why);
		return;
	}
	if (!e->ran) {
		unknown(o, s, "no sched_switch to " RT_COMM " after its wake-up");
		return;
	}
	if (e->run_ts > T) {
		/* woken for an earlier event, it still waited for its CPU */
		o->total_ns = (int64_t)(e->run_ts - T);
		snprintf(tail, sizeof(tail), "the event came %s after that wake-up (for an "
			 "earlier event) and waited with it", US((int64_t)(T - e->wake_ts)));
		snprintf(ctail, sizeof(ctail), "queued+%s", US((int64_t)(T - e->wake_ts)));
		explain_holder(s, o, &e->w.longest, e->wake_cpu, tail, ctail);
		return;
	}
	o->kind = TRACEEXPLAIN_QUEUED;
	o->total_ns = o->marker_value_ns;
	snprintf(why, sizeof(why), "%s before it", US((int64_t)(T - e->run_ts)));
	snprintf(o->text, sizeof(o->text),
		 "The event waited: " RT_COMM " was still busy on CPU %d when it came, "
		 "running since %s (answering earlier events), and read it %s after it "
		 "without sleeping in between: events came faster than it answers them.",
		 e->wake_cpu, e->before_trace ? "before the trace began" : why,
		 US(o->marker_value_ns));
	snprintf(o->cause, sizeof(o->cause), "queued running cpu=%d +%s", e->wake_cpu,
		 US(o->marker_value_ns));
}

/* A respond break where sqwave-rt was asleep at the event and woken after it. */
static void explain_respond_woken(const struct traceexplain_stream *s, struct traceexplain *o,
				  const struct episode *e)
{
	uint64_t T = o->intended_ns;
	char why[200], tail[240], ctail[64], by[160];

	o->wake_delay_ns = (int64_t)(e->wake_ts - T);
	o->waker_cpu = e->waker_cpu;
	if (e->waker.known) {
		snprintf(o->waker_comm, sizeof(o->waker_comm), "%s", e->waker.comm);
		o->waker_pid = e->waker.pid;
		o->waker_prio = e->waker.prio;
		if (e->waker_hardirq)
			snprintf(o->waker_irq, sizeof(o->waker_irq), "%s",
				 e->by_timer ? "its sleep's timer (hrtimer_wakeup)" :
				 e->waker.irq[0] ? e->waker.irq : "(handler not traced)");
		o->waker_woken_ns = e->waker.woken;
		o->waker_run_ns = e->waker.since;
		o->waker_prev_pid = e->waker.prev_pid;
		snprintf(o->waker_prev_comm, sizeof(o->waker_prev_comm), "%s", e->waker.prev_comm);
	}
	if (!e->ran) {
		unknown(o, s, "no sched_switch to " RT_COMM " after its wake-up");
		return;
	}
	o->total_ns = (int64_t)(e->run_ts - T);
	if (o->marker_value_ns > 0 && o->total_ns < o->marker_value_ns / 2) {
		snprintf(why, sizeof(why), RT_COMM " ran %s after the event in the trace, the break "
			 "measured %s: the late wake-up is not in it", US(o->total_ns),
			 US(o->marker_value_ns));
		unknown(o, s, why);
		return;
	}
	if (e->by_timer) {
		/* its own sleep's timer woke it, not the event: it slept to a
		 * pulse's end (or its poll timed out) while the event waited */
		o->kind = TRACEEXPLAIN_QUEUED;
		snprintf(o->text, sizeof(o->text),
			 "The event waited: " RT_COMM " was asleep on its own timer when it came "
			 "(the end of the previous pulse in pulse mode, or its poll timeout), which "
			 "woke it %s after the event on CPU %d; it then ran %s after its wake-up.",
			 US(o->wake_delay_ns), e->waker_cpu, US(o->wake_to_run_ns));
		snprintf(o->cause, sizeof(o->cause), "queued timer cpu=%d +%s", e->waker_cpu,
			 US(o->wake_delay_ns));
		return;
	}
	if (!e->waker.known) {
		unknown(o, s, "nothing says what ran on the CPU that woke " RT_COMM);
		return;
	}
	if (o->wake_delay_ns >= o->wake_to_run_ns) {
		explain_late_wakeup(s, o);
		return;
	}
	waker_words(o, by, sizeof(by));
	snprintf(tail, sizeof(tail), "the wake-up itself came %s after the event, from %s",
		 US(o->wake_delay_ns), by);
	snprintf(ctail, sizeof(ctail), "wake+%s", US(o->wake_delay_ns));
	explain_holder(s, o, &e->w.longest, e->wake_cpu, tail, ctail);
}

/*
 * A respond break: T is the event's timestamp and sqwave-rt woke V later
 * (the marker's value): the episode of sqwave-rt in which it read the
 * event is the last one woken at or before T + V. Woken after T: who woke
 * it and when (late wake-up) or who held its CPU from then on (holder);
 * awake since before T: the event waited (queued), or sqwave-rt waited for
 * its CPU since an earlier event's wake-up (holder).
 */
static void explain_respond(const struct traceexplain_stream *s, struct traceexplain *o,
			    int marker_pid)
{
	const struct episode *e;

	respond_init(o);
	e = respond_episode(s, o, marker_pid);
	if (!e)
		return;
	o->cpu = e->wake_cpu;
	if (!e->before_trace)
		o->wakeup_ns = (int64_t)e->wake_ts;
	if (e->ran) {
		o->run_ns = (int64_t)e->run_ts;
		o->run_exact = e->run_exact;
		o->wake_to_run_ns = (int64_t)(e->run_ts - e->wake_ts);
	}
	o->holders = e->w.holders;
	if (e->wake_ts < o->intended_ns)
		explain_respond_awake(s, o, e);
	else
		explain_respond_woken(s, o, e);
}

static void on_marker(struct traceexplain_stream *s, const struct tline *l)
{
	const char *p = strstr(l->args, MARKER), *q;
	struct traceexplain *o = &s->at_marker;
	uint64_t seq, t, v;

	if (!p || !parse_u64(p + strlen(MARKER), &q, MAX_NS, &seq) || strncmp(q, " (intended ", 11) ||
	    !parse_u64(q + 11, &q, MAX_NS, &t))
		return;
	memset(o, 0, sizeof(*o));
	o->marker = true;
	o->seq = seq;
	o->intended_ns = t;
	o->marker_value_ns = -1;
	q = strstr(q, "): wake latency ");
	if (q && parse_u64(q + 16, NULL, MAX_NS, &v))
		o->marker_value_ns = (int64_t)v;
	/* a respond break says so at its end; a marker without it is a run's */
	if (strstr(l->args, TRACEEXPLAIN_MARKER_EVENT))
		explain_respond(s, o, l->pid);
	else
		explain(s, o);
}

/* Whether @name is a word of the tracer list @list. */
static bool has_tracer(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = strstr(list, name); p; p = strstr(p + 1, name))
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0' || p[n] == '\n'))
			return true;
	return false;
}

/* The irqsoff tracer shows where interrupts were off: offered only where
 * the traced kernel has it, else the kernel option that brings it. */
static void irqsoff_advice(const struct traceexplain *o, char *buf, size_t len)
{
	if (!o->tracers[0])
		snprintf(buf, len, "run again with --break and trace.tracer=irqsoff, where the "
			 "kernel has that tracer (CONFIG_IRQSOFF_TRACER; see available_tracers), to "
			 "see where interrupts were off");
	else if (has_tracer(o->tracers, "irqsoff"))
		snprintf(buf, len, "run again with --break and trace.tracer=irqsoff to see where "
			 "interrupts were off");
	else
		snprintf(buf, len, "this kernel has no irqsoff tracer (it offers: %.120s): build one "
			 "with CONFIG_IRQSOFF_TRACER to see where interrupts were off, or trace "
			 "the function tracer's calls on CPU %d", o->tracers[0] == ' ' ? "none" :
			 o->tracers, o->cpu);
}

/* A late wake-up of a respond break: act on the waker, or on the task
 * that kept the waker from its CPU. */
static void advise_late_wakeup(struct traceexplain *o)
{
	bool irq_thread = !strncmp(o->waker_comm, "irq/", 4);
	bool waited = strstr(o->cause, " after ") != NULL;

	if (o->waker_irq[0])
		snprintf(o->todo, sizeof(o->todo), "The interrupt that woke " RT_COMM " came late "
			 "on CPU %d, while %s ran there: look for interrupts kept off there "
			 "(trace.tracer=irqsoff where the kernel has it), or steer the input's "
			 "interrupt to a quieter CPU (/proc/irq/N/smp_affinity_list).", o->waker_cpu,
			 o->waker_comm);
	else if (waited)
		snprintf(o->todo, sizeof(o->todo), "Keep %s (pid %d) off CPU %d (taskset -p, "
			 "isolcpus=), or run %s above it (chrt -f -p N %d)%s.", o->waker_prev_comm,
			 o->waker_prev_pid, o->waker_cpu, o->waker_comm, o->waker_pid,
			 irq_thread ? ", or steer its interrupt to a quiet CPU "
			 "(/proc/irq/N/smp_affinity_list)" : "");
	else if (irq_thread)
		snprintf(o->todo, sizeof(o->todo), "The interrupt thread %s (pid %d) was woken late "
			 "itself: its hard interrupt came late, or was held off on CPU %d; trace the "
			 "irq events there, and keep that CPU for the input's interrupt "
			 "(/proc/irq/N/smp_affinity_list, chrt -f -p N %d).", o->waker_comm,
			 o->waker_pid, o->waker_cpu, o->waker_pid);
	else if (!strcmp(o->waker_comm, "sqwave"))
		snprintf(o->todo, sizeof(o->todo), "The waker is a thread of sqwave itself: on the "
			 "simulated board, the stimulus thread (not real-time), so the lateness is "
			 "the simulation's; measure on the board, where the input's interrupt (or "
			 "its irq/NN thread) wakes " RT_COMM ".");
	else
		snprintf(o->todo, sizeof(o->todo), "Make %s (pid %d) run sooner on CPU %d: a "
			 "real-time priority (chrt -f -p N %d) or a quieter CPU (taskset -p, "
			 "isolcpus=).", o->waker_comm, o->waker_pid, o->waker_cpu, o->waker_pid);
}

/* What to do about the explanation: one sentence per kind, naming the
 * task, the CPU and the command that acts on them. */
static void advise(struct traceexplain *o)
{
	char irq[300];
	int rt_fifo = o->rt_prio >= 0 && o->rt_prio < 99 ? 99 - o->rt_prio : 0;
	bool irq_thread = !strncmp(o->holder_comm, "irq/", 4);

	switch (o->kind) {
	case TRACEEXPLAIN_LATE_IRQ_IDLE:
		snprintf(o->todo, sizeof(o->todo), "Hold the CPU out of deep idle states "
			 "(rt.dma_latency=0 holds /dev/cpu_dma_latency), and look below the kernel: "
			 "sqwave check names a virtual machine (pin its vCPU on the host, or run "
			 "on the bare board) and SMIs or firmware on x86.");
		break;
	case TRACEEXPLAIN_LATE_IRQ_BUSY:
		irqsoff_advice(o, irq, sizeof(irq));
		snprintf(o->todo, sizeof(o->todo), "Move %s off CPU %d (taskset -p) or isolate that "
			 "CPU (isolcpus=, nohz_full=); %s.", o->holder_comm, o->cpu, irq);
		break;
	case TRACEEXPLAIN_PREEMPTED_BY:
		if (irq_thread)
			snprintf(o->todo, sizeof(o->todo), "Move that interrupt off CPU %d "
				 "(/proc/irq/N/smp_affinity_list) or run %s below the RT thread "
				 "(chrt -f -p N %d, with N under rt.priority %d).", o->cpu,
				 o->holder_comm, o->holder_pid, rt_fifo);
		else
			snprintf(o->todo, sizeof(o->todo), "Run %s below the RT thread (chrt -f -p N "
				 "%d, with N under rt.priority %d), raise rt.priority, or move it off "
				 "CPU %d (taskset -p).", o->holder_comm, o->holder_pid, rt_fifo,
				 o->cpu);
		break;
	case TRACEEXPLAIN_HELD_BY:
		if (o->holder_nonpreempt)
			snprintf(o->todo, sizeof(o->todo), "The task %s was in a section the kernel "
				 "could not preempt: without PREEMPT_RT, use a PREEMPT_RT kernel; "
				 "with it, the function tracer on CPU %d shows which section; and "
				 "keep %s off CPU %d (taskset -p, isolcpus=).", o->holder_comm, o->cpu, o->holder_comm,
				 o->cpu);
		else
			snprintf(o->todo, sizeof(o->todo), "Keep %s off CPU %d (taskset -p, or "
				 "isolcpus= and nohz_full= for the RT CPU); if it is a kernel thread, "
				 "%s.", o->holder_comm, o->cpu,
				 "check which work it runs there (sqwave check lists the CPU's "
				 "isolation)");
		break;
	case TRACEEXPLAIN_LATE_WAKEUP:
		advise_late_wakeup(o);
		break;
	case TRACEEXPLAIN_QUEUED:
		snprintf(o->todo, sizeof(o->todo), "Space the input's events wider than an answer "
			 "takes (in pulse mode an answer lasts respond.pulse_width: the next event is "
			 "read after the pulse's end), or filter bounces with respond.debounce: every "
			 "event is answered in order, so a burst queues.");
		break;
	default:
		snprintf(o->todo, sizeof(o->todo), "Save a trace that shows it: run again with "
			 "--break, the sched and timer events (the default trace.events) and a "
			 "larger trace.buffer_kb.");
		break;
	}
}

void traceexplain_stream_end(const struct traceexplain_stream *s, struct traceexplain *out)
{
	if (s->at_marker.marker) {
		*out = s->at_marker;
	} else {
		memset(out, 0, sizeof(*out));
		out->rt_pid = s->rt_pid;
		out->rt_prio = s->rt_prio;
		out->cpu = -1;
		out->marker_value_ns = -1;
		out->expires_ns = out->irq_ns = out->wakeup_ns = out->run_ns = -1;
		out->irq_delay_ns = out->wake_to_run_ns = out->total_ns = out->holder_ns = -1;
		out->holder_pid = out->holder_prio = -1;
		unknown(out, s, s->events ? "no sqwave break marker in it (not saved by run --break?)"
			: "it is not an ftrace text (no event lines)");
	}
	out->is_trace = s->events > 0;
	out->lines = s->lines;
	out->bad_lines = s->bad;
	memcpy(out->tracers, s->tracers, sizeof(out->tracers));
	advise(out);
}

void traceexplain_text(const char *text, size_t len, struct traceexplain *out)
{
	struct traceexplain_stream *s = traceexplain_stream_new();
	size_t i = 0;

	if (!s) {
		memset(out, 0, sizeof(*out));
		snprintf(out->text, sizeof(out->text), "out of memory");
		snprintf(out->cause, sizeof(out->cause), "unknown: out of memory");
		return;
	}
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) + 1 : len - i;

		traceexplain_line(s, text + i, n);
		i += n;
	}
	traceexplain_stream_end(s, out);
	traceexplain_stream_free(s);
}

int traceexplain_file(const char *path, struct traceexplain *out, char *err, size_t errlen)
{
	struct traceexplain_stream *s;
	char buf[LINE_MAX_LEN + 1];
	size_t n = 0;
	bool skipping = false;
	struct stat st;
	FILE *f;
	int c;

	memset(out, 0, sizeof(*out));
	/* A directory or a device is no trace: /dev/zero would be read for
	 * ever, a terminal waited on. Told before opening, which would wait for
	 * a FIFO's writer (a pipe is fine: a trace copied from the board,
	 * streamed). "-" is standard input. */
	if (!strcmp(path, "-") ? fstat(0, &st) == 0 && (isatty(0) || (!S_ISREG(st.st_mode) &&
							  !S_ISFIFO(st.st_mode)))
			       : stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
				 !S_ISFIFO(st.st_mode)) {
		msgbuf_set(err, errlen, "%s: is %s, not a trace file", path,
			   S_ISDIR(st.st_mode) ? "a directory" : isatty(0) && !strcmp(path, "-") ?
			   "a terminal" : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" :
			   "a special file");
		return -2;
	}
	f = strcmp(path, "-") ? fopen(path, "re") : fdopen(dup(0), "r");
	if (!f) {
		msgbuf_set(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	s = traceexplain_stream_new();
	if (!s) {
		fclose(f);
		msgbuf_set(err, errlen, "out of memory");
		return -1;
	}
	/* Byte by byte into a fixed buffer: a line keeps its length whatever it
	 * holds (a NUL makes it a bad line, not two lines), and a line longer
	 * than the buffer is skipped whole and counted once as a bad line. */
	while ((c = getc_unlocked(f)) != EOF) {
		if (c == '\n') {
			if (!skipping)
				traceexplain_line(s, buf, n);
			skipping = false;
			n = 0;
			continue;
		}
		if (skipping)
			continue;
		if (n == sizeof(buf)) {
			traceexplain_line(s, buf, n);   /* too long: counted as a bad line */
			skipping = true;
			continue;
		}
		buf[n++] = (char)c;
	}
	if (n && !skipping)
		traceexplain_line(s, buf, n);
	if (ferror(f)) {
		msgbuf_set(err, errlen, "%s: read error: %s", path, strerror(errno));
		fclose(f);
		traceexplain_stream_free(s);
		return -1;
	}
	fclose(f);
	traceexplain_stream_end(s, out);
	traceexplain_stream_free(s);
	return 0;
}

const char *traceexplain_kind_name(enum traceexplain_kind k)
{
	switch (k) {
	case TRACEEXPLAIN_HELD_BY: return "held-by";
	case TRACEEXPLAIN_PREEMPTED_BY: return "preempted-by";
	case TRACEEXPLAIN_LATE_IRQ_IDLE: return "late-irq-idle";
	case TRACEEXPLAIN_LATE_IRQ_BUSY: return "late-irq-busy";
	case TRACEEXPLAIN_LATE_WAKEUP: return "late-wakeup";
	case TRACEEXPLAIN_QUEUED: return "queued";
	case TRACEEXPLAIN_UNKNOWN: break;
	}
	return "unknown";
}

const char *traceexplain_prio_words(int kprio, char *buf, size_t len)
{
	/* the kernel's prio: MAX_RT_PRIO - 1 - rt_priority for RT tasks,
	 * 120 + nice for the others (include/linux/sched/prio.h) */
	if (kprio < 0)
		snprintf(buf, len, "priority unknown");
	else if (kprio <= 98)
		snprintf(buf, len, "RT priority %d", 99 - kprio);
	else if (kprio >= 100 && kprio <= 139)
		snprintf(buf, len, "normal, nice %d", kprio - 120);
	else
		snprintf(buf, len, "kernel prio %d", kprio);
	return buf;
}
