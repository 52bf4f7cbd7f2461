/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Explain a saved --break trace: follow sqwave-rt's timerfd through expiry,
 * interrupt, wake-up and switch-in, and name what made it late. */
#include "analysis/traceexplain.h"

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
};

struct holder {
	char comm[TRACEEXPLAIN_COMM];
	int pid, prio;
	char state[8];
	uint64_t from, to;
	bool nonpreempt;
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
	struct holder cur, longest;
	unsigned holders;
	bool ran, run_exact;
	uint64_t run_ts;
};

struct traceexplain_stream {
	struct cpu_state cpu[NCPU];
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

/* A holder's time on the CPU ends at @ts (it left in @state, "" if not). */
static void holder_end(struct cycle *c, uint64_t ts, const char *state, int prio)
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

static void holder_begin(struct cycle *c, const struct cpu_state *t, uint64_t ts)
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
	holder_end(c, ts, state, prio);
	c->ran = true;
	c->run_exact = exact;
	c->run_ts = ts;
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
	if (!strcmp(pc, RT_COMM))
		learn_rt(s, ppid, pprio);
	if (!strcmp(nc, RT_COMM))
		learn_rt(s, npid, nprio);
	if (c && c->woken && !c->ran && l->cpu == c->wake_cpu) {
		if (npid == s->rt_pid) {
			set_ran(c, l->ts, true, st, pprio);
		} else {
			struct cpu_state next = { .known = true, .pid = npid, .prio = nprio };

			snprintf(next.comm, sizeof(next.comm), "%s", nc);
			holder_end(c, l->ts, st, pprio);
			holder_begin(c, &next, l->ts);
		}
	}
	if (cs && npid >= 0) {
		cs->known = true;
		cs->pid = npid;
		cs->prio = nprio;
		snprintf(cs->comm, sizeof(cs->comm), "%s", nc);
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
	if (strcmp(comm, RT_COMM))
		return;
	learn_rt(s, pid, prio);
	c = cur_cycle(s);
	if (!c || !c->fired || c->ran || (c->woken && (c->by_wakeup || !wakeup)))
		return;
	if (c->woken) {
		/* sched_waking came first; the wake-up is when it became runnable */
		c->wake_ts = l->ts;
		c->cur.from = l->ts;
		c->by_wakeup = true;
		return;
	}
	c->woken = true;
	c->by_wakeup = wakeup;
	c->wake_ts = l->ts;
	c->wake_cpu = target;
	holder_begin(c, cpu_of(s, target), l->ts);
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
			cs->prio = -1;
			snprintf(cs->comm, sizeof(cs->comm), "%s", l.comm);
		}
		cs->known = true;
		cs->pid = l.pid;
	}
	/* sqwave-rt doing anything: it runs (when its switch-in was not traced) */
	if (c && c->woken && !c->ran && l.pid == s->rt_pid && s->rt_pid > 0 &&
	    strcmp(l.event, "sched_switch"))
		set_ran(c, l.ts, false, "", -1);
	/* what the holder does while sqwave-rt waits: need-resched in task
	 * context under preempt-depth or irqs-off is a section that cannot be
	 * preempted */
	if (c && c->woken && !c->ran && l.cpu == c->wake_cpu && l.pid == c->cur.pid &&
	    l.need_resched && !l.hardirq && !l.softirq && (l.depth > 0 || l.irqs_off))
		c->cur.nonpreempt = true;

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
			   const struct cycle *c)
{
	const struct holder *h = &c->longest;
	char why[200];

	if (h->pid < 0) {
		unknown(o, s, RT_COMM " waited after its wake-up, and nothing says which task ran");
		return;
	}
	if (h->pid == 0) {
		snprintf(why, sizeof(why), RT_COMM " waited %s after its wake-up on CPU %d, which "
			 "was idle with no task in the way", US(o->wake_to_run_ns), c->wake_cpu);
		unknown(o, s, why);
		return;
	}
	snprintf(o->holder_comm, sizeof(o->holder_comm), "%s", h->comm);
	o->holder_pid = h->pid;
	o->holder_prio = h->prio;
	snprintf(o->holder_state, sizeof(o->holder_state), "%s", h->state);
	o->holder_ns = (int64_t)(h->to - h->from);
	o->holder_nonpreempt = h->nonpreempt;
	if (h->prio >= 0 && s->rt_prio >= 0 && h->prio <= s->rt_prio) {
		char hp[40], rp[40];

		o->kind = TRACEEXPLAIN_PREEMPTED_BY;
		snprintf(o->text, sizeof(o->text),
			 "A task of %s priority, %s (pid %d, %s), ran on CPU %d for %s after "
			 RT_COMM " (%s) was woken, %s; the timer itself fired %s late.",
			 h->prio < s->rt_prio ? "higher" : "equal", h->comm, h->pid,
			 traceexplain_prio_words(h->prio, hp, sizeof(hp)), c->wake_cpu,
			 US(o->holder_ns), traceexplain_prio_words(s->rt_prio, rp, sizeof(rp)),
			 state_words(h->state), US(o->irq_delay_ns));
		snprintf(o->cause, sizeof(o->cause), "preempted-by %s/%d prio=%d %s cpu=%d", h->comm,
			 h->pid, h->prio, US(o->holder_ns), c->wake_cpu);
		return;
	}
	o->kind = TRACEEXPLAIN_HELD_BY;
	snprintf(o->text, sizeof(o->text),
		 "CPU %d stayed with %s (pid %d, %s) for %s after " RT_COMM " was woken%s, "
		 "%s; the timer itself fired %s late.",
		 c->wake_cpu, h->comm, h->pid,
		 traceexplain_prio_words(h->prio, (char[40]){ 0 }, 40), US(o->holder_ns),
		 h->nonpreempt ? ", need-resched set in a non-preemptible kernel section" : "",
		 state_words(h->state), US(o->irq_delay_ns));
	snprintf(o->cause, sizeof(o->cause), "held-by %s/%d %s state=%s cpu=%d timer+%s", h->comm,
		 h->pid, US(o->holder_ns), h->state[0] ? h->state : "-", c->wake_cpu,
		 US(o->irq_delay_ns));
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
	o->holders = c->holders;
	if (o->marker_value_ns > 0 && o->total_ns < o->marker_value_ns / 2) {
		snprintf(why, sizeof(why), RT_COMM " ran %s after its expiry in the trace, the break "
			 "measured %s: the late wake-up is not in it", US(o->total_ns),
			 US(o->marker_value_ns));
		unknown(o, s, why);
		return;
	}

	if (o->irq_delay_ns >= o->wake_to_run_ns)
		explain_late_irq(s, o, c);
	else
		explain_holder(s, o, c);
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
			snprintf(o->todo, sizeof(o->todo), "%s was in a section the kernel could not "
				 "preempt: without PREEMPT_RT, use a PREEMPT_RT kernel; with it, the "
				 "function tracer on CPU %d shows which section; and keep %s off CPU %d "
				 "(taskset -p, isolcpus=).", o->holder_comm, o->cpu, o->holder_comm,
				 o->cpu);
		else
			snprintf(o->todo, sizeof(o->todo), "Keep %s off CPU %d (taskset -p, or "
				 "isolcpus= and nohz_full= for the RT CPU); if it is a kernel thread, "
				 "%s.", o->holder_comm, o->cpu,
				 "check which work it runs there (sqwave check lists the CPU's "
				 "isolation)");
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
