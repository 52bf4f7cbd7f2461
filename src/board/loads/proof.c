/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Proof of load: sampling /proc and /sys, per-phase sums, the judgement. */
#include "loads/proof.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "base/msgbuf.h"
#include "base/sysinfo.h"

#define STAT_BUF (512u * 1024u)   /* /proc/stat of a big machine, with its intr line */

struct proof_raw {
	bool have;
	uint64_t t_ns;
	unsigned ncpu;
	bool seen[PROOF_MAX_CPUS];
	uint64_t work[PROOF_MAX_CPUS];  /* busy jiffies */
	uint64_t avail[PROOF_MAX_CPUS]; /* all jiffies but steal */
	uint64_t intr, ctxt;
	double load1;
	size_t nif;
	char ifname[PROOF_MAX_IFS][PROOF_IFNAME];
	uint64_t rx[PROOF_MAX_IFS], tx[PROOF_MAX_IFS];
};

struct proof_own_state {
	struct proof_own_group g;
	bool have;                     /* prev_ns is a reading */
	uint64_t prev_ns;              /* CPU time at the previous reading */
};

struct proof_sampler {
	char root[512];
	char *buf;
	struct proof_raw prev, cur;
	pthread_mutex_t own_lock;      /* own[]: set by the main thread, read by the sampler's */
	size_t nown;
	struct proof_own_state own[PROOF_MAX_LOADS];
	long clk_tck;
	size_t nwant;                  /* interfaces sampled whatever else there is */
	char want[PROOF_MAX_IFS][PROOF_IFNAME];
};

struct proof_sampler *proof_sampler_new(const char *root, char *err, size_t errlen)
{
	struct proof_sampler *s = calloc(1, sizeof(*s));

	if (!s || !(s->buf = malloc(STAT_BUF))) {
		free(s);
		msgbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(s->root, sizeof(s->root), "%s", root ? root : "");
	pthread_mutex_init(&s->own_lock, NULL);
	s->clk_tck = sysconf(_SC_CLK_TCK);
	if (s->clk_tck <= 0)
		s->clk_tck = 100;
	return s;
}

void proof_sampler_free(struct proof_sampler *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->own_lock);
	free(s->buf);
	free(s);
}

/* @rel under the root into @buf (at most @len - 1 bytes, NUL-terminated). */
static ssize_t read_rel(const struct proof_sampler *s, const char *rel, char *buf, size_t len)
{
	char path[1024];
	size_t got = 0;
	int fd;

	snprintf(path, sizeof(path), "%s%s", s->root, rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	got = len ? sysinfo_read_full(fd, buf, len - 1) : 0;
	close(fd);
	buf[got] = '\0';
	return (ssize_t)got;
}

static int parse_stat(struct proof_sampler *s, struct proof_raw *r)
{
	char *line, *save;

	if (read_rel(s, "/proc/stat", s->buf, STAT_BUF) <= 0)
		return -1;
	for (line = strtok_r(s->buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long v[10] = { 0 };
		unsigned cpu;
		int n;

		if (!strncmp(line, "cpu", 3) && line[3] >= '0' && line[3] <= '9') {
			n = sscanf(line + 3, "%u %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0],
				   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
			if (n < 5 || cpu >= PROOF_MAX_CPUS)
				continue;
			/* user nice system idle iowait irq softirq steal (guest is in user) */
			r->seen[cpu] = true;
			r->work[cpu] = v[0] + v[1] + v[2] + v[5] + v[6];
			r->avail[cpu] = r->work[cpu] + v[3] + v[4];
			if (cpu + 1 > r->ncpu)
				r->ncpu = cpu + 1;
		} else if (!strncmp(line, "intr ", 5)) {
			r->intr = strtoull(line + 5, NULL, 10);
		} else if (!strncmp(line, "ctxt ", 5)) {
			r->ctxt = strtoull(line + 5, NULL, 10);
		}
	}
	return r->ncpu ? 0 : -1;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

int proof_sampler_want(struct proof_sampler *s, const char *iface)
{
	size_t i;

	if (!iface[0] || strlen(iface) >= PROOF_IFNAME)
		return -1;
	for (i = 0; i < s->nwant; i++) {
		if (!strcmp(s->want[i], iface))
			return 0;
	}
	if (s->nwant == PROOF_MAX_IFS)
		return -1;
	snprintf(s->want[s->nwant++], PROOF_IFNAME, "%s", iface);
	return 0;
}

static bool wanted(const struct proof_sampler *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nwant; i++) {
		if (!strcmp(s->want[i], name))
			return true;
	}
	return false;
}

/*
 * The interfaces' packet counters: the wanted ones (a load's proof needs
 * them) whatever else there is, then the others in name order up to
 * PROOF_MAX_IFS. A board with veth, CAN and bridge interfaces has more
 * than the log line holds; the one a flood goes through is never cut.
 */
static void read_net(struct proof_sampler *s, struct proof_raw *r)
{
	char path[1024], val[64], (*all)[PROOF_IFNAME] = NULL;
	size_t nall = 0, cap = 0, i;
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "%s/sys/class/net", s->root);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= PROOF_IFNAME)
			continue;
		if (nall == cap) {
			char (*n)[PROOF_IFNAME];

			if (cap >= 65536)
				break;
			n = realloc(all, (cap ? 2 * cap : 64) * PROOF_IFNAME);
			if (!n)
				break;
			all = n;
			cap = cap ? 2 * cap : 64;
		}
		memcpy(all[nall++], de->d_name, strlen(de->d_name) + 1);	/* < PROOF_IFNAME */
	}
	closedir(d);
	if (nall)
		qsort(all, nall, PROOF_IFNAME, cmp_names);
	for (i = 0; i < nall && r->nif < PROOF_MAX_IFS; i++) {
		if (wanted(s, all[i]))
			snprintf(r->ifname[r->nif++], PROOF_IFNAME, "%s", all[i]);
	}
	for (i = 0; i < nall && r->nif < PROOF_MAX_IFS; i++) {
		if (!wanted(s, all[i]))
			snprintf(r->ifname[r->nif++], PROOF_IFNAME, "%s", all[i]);
	}
	free(all);
	qsort(r->ifname, r->nif, PROOF_IFNAME, cmp_names);
	for (i = 0; i < r->nif; i++) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/rx_packets", r->ifname[i]);
		r->rx[i] = read_rel(s, path, val, sizeof(val)) > 0 ? strtoull(val, NULL, 10) : 0;
		snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/tx_packets", r->ifname[i]);
		r->tx[i] = read_rel(s, path, val, sizeof(val)) > 0 ? strtoull(val, NULL, 10) : 0;
	}
}

const char *proof_own_src_name(enum proof_own_src k)
{
	return k == PROOF_OWN_CGROUP2 ? "cgroup2" : k == PROOF_OWN_PROCESSES ? "processes" : "";
}

int proof_own_src_parse(const char *name)
{
	if (!strcmp(name, "cgroup2"))
		return PROOF_OWN_CGROUP2;
	if (!strcmp(name, "processes"))
		return PROOF_OWN_PROCESSES;
	return -1;
}

void proof_sampler_set_groups(struct proof_sampler *s, const struct proof_own_group *g, size_t n)
{
	struct proof_own_state old[PROOF_MAX_LOADS];
	size_t nold, i, j;

	pthread_mutex_lock(&s->own_lock);
	nold = s->nown;
	memcpy(old, s->own, nold * sizeof(old[0]));
	s->nown = 0;
	for (i = 0; i < n && s->nown < PROOF_MAX_LOADS; i++) {
		struct proof_own_state *st = &s->own[s->nown++];

		memset(st, 0, sizeof(*st));
		st->g = g[i];
		for (j = 0; j < nold; j++) {
			if (!strcmp(old[j].g.name, g[i].name) && old[j].g.src == g[i].src &&
			    !strcmp(old[j].g.dir, g[i].dir)) {
				st->have = old[j].have;
				st->prev_ns = old[j].prev_ns;
			}
		}
	}
	pthread_mutex_unlock(&s->own_lock);
}

/* "usage_usec N" of a cgroup v2 directory's cpu.stat, in ns. */
static int own_cgroup2(const struct proof_own_group *g, uint64_t *ns)
{
	char path[600], buf[1024], *u;
	size_t got;
	int fd;

	snprintf(path, sizeof(path), "%s/cpu.stat", g->dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	got = sysinfo_read_full(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[got] = '\0';
	u = strstr(buf, "usage_usec ");
	if (!u || (u != buf && u[-1] != '\n'))
		return -1;
	*ns = strtoull(u + 11, NULL, 10) * 1000u;
	return 0;
}

/* utime + stime of the live processes in @g's process groups, in ns. */
static int own_processes(struct proof_sampler *s, const struct proof_own_group *g, uint64_t *ns)
{
	char path[1024], buf[1024];
	unsigned long long ticks = 0;
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/proc", s->root);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		unsigned long long ut, st;
		char *rp;
		int pgrp, k;
		size_t i;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (read_rel(s, path, buf, sizeof(buf)) <= 0 || !(rp = strrchr(buf, ')')))
			continue;
		/* after "pid (comm)": state ppid pgrp session tty tpgid flags minflt
		 * cminflt majflt cmajflt utime stime */
		if (sscanf(rp + 1, " %*c %*d %d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &pgrp,
			   &ut, &st) != 3)
			continue;
		for (i = 0, k = 0; i < g->npgids && !k; i++)
			k = g->pgids[i] == (pid_t)pgrp;
		if (k)
			ticks += ut + st;
	}
	closedir(d);
	*ns = (uint64_t)(ticks * (1000000000ull / (unsigned long long)s->clk_tck));
	return 0;
}

/* Each load's own CPU time over the interval of @dt_ns into @out. */
static void read_own(struct proof_sampler *s, uint64_t dt_ns, struct proof_sample *out)
{
	size_t i;

	pthread_mutex_lock(&s->own_lock);
	for (i = 0; i < s->nown; i++) {
		struct proof_own_state *st = &s->own[i];
		unsigned ncpus = st->g.ncpus ? st->g.ncpus : out->ncpu;
		uint64_t ns = 0;
		int rc = st->g.src == PROOF_OWN_CGROUP2 ? own_cgroup2(&st->g, &ns) :
			 st->g.src == PROOF_OWN_PROCESSES ? own_processes(s, &st->g, &ns) : -1;
		bool had = st->have;
		uint64_t prev = st->prev_ns;

		st->have = rc == 0;
		st->prev_ns = ns;
		if (rc < 0 || !had || !dt_ns || !ncpus || out->nown == PROOF_MAX_LOADS)
			continue;
		snprintf(out->own_name[out->nown], sizeof(out->own_name[0]), "%s", st->g.name);
		/* processes that ended take their time along: never below 0 */
		out->own_busy[out->nown] = ns > prev ?
			(float)(100.0 * (double)(ns - prev) / ((double)dt_ns * ncpus)) : 0;
		if (out->own_busy[out->nown] > 100)
			out->own_busy[out->nown] = 100;
		out->own_src[out->nown] = (unsigned char)st->g.src;
		out->nown++;
	}
	pthread_mutex_unlock(&s->own_lock);
}

static double rate(uint64_t a, uint64_t b, double dt)
{
	return b >= a && dt > 0 ? (double)(b - a) / dt : 0;
}

int proof_sampler_read(struct proof_sampler *s, uint64_t now, struct proof_sample *out,
		       char *err, size_t errlen)
{
	struct proof_raw *r = &s->cur, *p = &s->prev;
	char val[128];
	double dt;
	unsigned c;
	size_t i, j;

	memset(r, 0, sizeof(*r));
	r->t_ns = now;
	if (parse_stat(s, r) < 0) {
		msgbuf_set(err, errlen, "cannot read %s/proc/stat", s->root);
		return -1;
	}
	if (read_rel(s, "/proc/loadavg", val, sizeof(val)) > 0)
		r->load1 = strtod(val, NULL);
	read_net(s, r);
	r->have = true;
	if (!p->have || now <= p->t_ns) {
		memset(out, 0, sizeof(*out));
		read_own(s, 0, out);	/* the loads' first readings */
		*p = *r;
		return 0;
	}
	dt = (double)(now - p->t_ns) / 1e9;
	memset(out, 0, sizeof(*out));
	out->t_ns = now;
	out->dt_ns = now - p->t_ns;
	out->ncpu = r->ncpu;
	for (c = 0; c < r->ncpu; c++) {
		uint64_t da = r->avail[c] - p->avail[c], dw = r->work[c] - p->work[c];

		if (!r->seen[c] || !p->seen[c] || r->avail[c] < p->avail[c] || r->work[c] < p->work[c])
			out->busy[c] = -1;
		else
			out->busy[c] = da ? (float)(100.0 * (double)dw / (double)da) : 0;
		if (out->busy[c] > 100)
			out->busy[c] = 100;
	}
	out->irq_s = rate(p->intr, r->intr, dt);
	out->ctxt_s = rate(p->ctxt, r->ctxt, dt);
	out->load1 = r->load1;
	for (i = 0; i < r->nif; i++) {
		for (j = 0; j < p->nif; j++) {
			if (strcmp(r->ifname[i], p->ifname[j]))
				continue;
			snprintf(out->ifname[out->nif], PROOF_IFNAME, "%s", r->ifname[i]);
			out->rx_pps[out->nif] = rate(p->rx[j], r->rx[i], dt);
			out->tx_pps[out->nif] = rate(p->tx[j], r->tx[i], dt);
			out->nif++;
			break;
		}
	}
	read_own(s, out->dt_ns, out);
	*p = *r;
	return 1;
}

size_t proof_sample_format(const struct proof_sample *s, char *buf, size_t len)
{
	size_t o;
	unsigned c;
	size_t i;
	int n;

#define PUT(...)                                                          \
	do {                                                              \
		n = snprintf(buf + o, len - o, __VA_ARGS__);              \
		o += n > 0 && (size_t)n < len - o ? (size_t)n : 0;        \
	} while (0)

	if (!len)
		return 0;
	o = 0;
	buf[0] = '\0';
	PUT("dt_ns=%" PRIu64 "\ncpu=", s->dt_ns);
	for (c = 0; c < s->ncpu; c++) {
		if (s->busy[c] >= 0)
			PUT("%s%u:%.1f", o && buf[o - 1] != '=' ? "," : "", c, (double)s->busy[c]);
	}
	PUT("\nirq_s=%.1f\nctxt_s=%.1f\nload1=%.2f\nnet=", s->irq_s, s->ctxt_s, s->load1);
	for (i = 0; i < s->nif; i++)
		PUT("%s%s:%.1f/%.1f", i ? "," : "", s->ifname[i], s->rx_pps[i], s->tx_pps[i]);
	PUT("\n");
	/* each load's own CPU time: "own=NAME:PCT:SOURCE,..." (absent in older logs) */
	if (s->nown) {
		PUT("own=");
		for (i = 0; i < s->nown; i++)
			PUT("%s%s:%.1f:%s", i ? "," : "", s->own_name[i], (double)s->own_busy[i],
			    proof_own_src_name((enum proof_own_src)s->own_src[i]));
		PUT("\n");
	}
#undef PUT
	return o;
}

/* A rate of a sample: a finite number from 0, all of @v ("nan", "inf" or
 * "1e400" in a damaged log would carry into every mean). */
static int sample_rate(const char *v, double *out)
{
	char *end;
	double d = strtod(v, &end);

	if (end == v || *end || !isfinite(d) || d < 0)
		return -1;
	*out = d;
	return 0;
}

int proof_sample_parse(const char *text, size_t len, uint64_t t_ns, struct proof_sample *out)
{
	char buf[4096], *line, *save;
	bool have_cpu = false;
	unsigned c;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, text, len);
	buf[len] = '\0';
	memset(out, 0, sizeof(*out));
	for (c = 0; c < PROOF_MAX_CPUS; c++)
		out->busy[c] = -1;
	out->t_ns = t_ns;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *v = strchr(line, '='), *item, *s2;

		if (!v)
			continue;
		*v++ = '\0';
		if (!strcmp(line, "dt_ns")) {
			char *end;

			errno = 0;
			out->dt_ns = strtoull(v, &end, 10);
			if (errno || end == v || *end || *v == '-')
				return -1;
		} else if (!strcmp(line, "irq_s")) {
			if (sample_rate(v, &out->irq_s) < 0)
				return -1;
		} else if (!strcmp(line, "ctxt_s")) {
			if (sample_rate(v, &out->ctxt_s) < 0)
				return -1;
		} else if (!strcmp(line, "load1")) {
			if (sample_rate(v, &out->load1) < 0)
				return -1;
		} else if (!strcmp(line, "cpu")) {
			have_cpu = true;
			for (item = strtok_r(v, ",", &s2); item; item = strtok_r(NULL, ",", &s2)) {
				unsigned cpu;
				float b;

				if (sscanf(item, "%u:%f", &cpu, &b) != 2 || cpu >= PROOF_MAX_CPUS ||
				    !(b >= 0 && b <= 100))
					return -1;
				out->busy[cpu] = b;
				if (cpu + 1 > out->ncpu)
					out->ncpu = cpu + 1;
			}
		} else if (!strcmp(line, "own")) {
			for (item = strtok_r(v, ",", &s2); item && out->nown < PROOF_MAX_LOADS;
			     item = strtok_r(NULL, ",", &s2)) {
				char *c2 = strrchr(item, ':'), *c1, *end;
				int src;
				float b;

				if (!c2)
					return -1;
				*c2 = '\0';
				c1 = strrchr(item, ':');
				if (!c1 || c1 == item || c1 - item >= 64 ||
				    (src = proof_own_src_parse(c2 + 1)) < 0)
					return -1;
				*c1 = '\0';
				b = strtof(c1 + 1, &end);
				if (end == c1 + 1 || *end || !(b >= 0 && b <= 100))
					return -1;
				snprintf(out->own_name[out->nown], sizeof(out->own_name[0]), "%s", item);
				out->own_busy[out->nown] = b;
				out->own_src[out->nown] = (unsigned char)src;
				out->nown++;
			}
		} else if (!strcmp(line, "net")) {
			for (item = strtok_r(v, ",", &s2); item && out->nif < PROOF_MAX_IFS;
			     item = strtok_r(NULL, ",", &s2)) {
				char *colon = strrchr(item, ':');
				double rx, tx;

				if (!colon || colon == item || colon - item >= PROOF_IFNAME ||
				    sscanf(colon + 1, "%lf/%lf", &rx, &tx) != 2 || !(rx >= 0) ||
				    !(tx >= 0) || !isfinite(rx) || !isfinite(tx))
					return -1;
				snprintf(out->ifname[out->nif], PROOF_IFNAME, "%.*s",
					 (int)(colon - item), item);
				out->rx_pps[out->nif] = rx;
				out->tx_pps[out->nif] = tx;
				out->nif++;
			}
		}
	}
	return have_cpu && out->dt_ns ? 0 : -1;
}

void proof_req_from_load(struct proof_req *r, const struct load *l)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", load_name(l));
	r->kind = load_proof_kind(l);
	r->cpus = *load_cpus(l);
	snprintf(r->iface, sizeof(r->iface), "%s", load_interface(l));
	r->min_pps = load_min_pps(l);
	r->results = load_has_results(l);
}

void proof_req_idle(struct proof_req *r, const cpu_set_t *cpus, int max_busy)
{
	cpu_set_t set = *cpus;	/* @cpus may be r's own */

	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", PROOF_IDLE_NAME);
	r->kind = LOAD_PROOF_IDLE;
	r->cpus = set;
	r->max_busy = max_busy;
}

size_t proof_req_format(const struct proof_req *r, char *buf, size_t len)
{
	static const char *const kinds[] = { "none", "cpu", "net", "idle" };
	char cpus[256];
	int n;

	n = snprintf(buf, len, "%s|%s|%s|%" PRId64 "|%d", kinds[r->kind],
		     cpulist_format(&r->cpus, cpus, sizeof(cpus)), r->iface,
		     r->kind == LOAD_PROOF_IDLE ? (int64_t)r->max_busy : r->min_pps, r->results);
	return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

int proof_req_parse(struct proof_req *r, const char *name, const char *text)
{
	char buf[512], *f[5], *p = buf, err[128], *end;
	long long pps;
	size_t i;

	memset(r, 0, sizeof(*r));
	if (strlen(text) >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%s", text);
	for (i = 0; i < 5; i++) {
		f[i] = strsep(&p, "|");
		if (!f[i])
			return -1;
	}
	if (p)
		return -1;	/* more than five fields */
	snprintf(r->name, sizeof(r->name), "%s", name);
	if (!strcmp(f[0], "none"))
		r->kind = LOAD_PROOF_NONE;
	else if (!strcmp(f[0], "cpu"))
		r->kind = LOAD_PROOF_CPU;
	else if (!strcmp(f[0], "net"))
		r->kind = LOAD_PROOF_NET;
	else if (!strcmp(f[0], "idle"))
		r->kind = LOAD_PROOF_IDLE;
	else
		return -1;
	if (cpulist_parse(f[1], &r->cpus, err, sizeof(err)) < 0 || strlen(f[2]) >= PROOF_IFNAME)
		return -1;
	snprintf(r->iface, sizeof(r->iface), "%s", f[2]);
	errno = 0;
	pps = strtoll(f[3], &end, 10);
	if (errno || end == f[3] || *end || pps < 0 || (strcmp(f[4], "0") && strcmp(f[4], "1")))
		return -1;
	if (r->kind == LOAD_PROOF_IDLE) {
		if (pps > 100)
			return -1;
		r->max_busy = (int)pps;
	} else {
		r->min_pps = pps;
	}
	r->results = f[4][0] == '1';
	return 0;
}

void proof_phase_add_sample(struct proof_phase *p, const struct proof_sample *s)
{
	uint64_t from = s->t_ns >= s->dt_ns ? s->t_ns - s->dt_ns : 0, gap = s->dt_ns;
	unsigned c;
	size_t i, j;

	/* a hole between the last interval and this one: a reading lost */
	if (p->last_t_ns && from > p->last_t_ns && from - p->last_t_ns > gap)
		gap = from - p->last_t_ns;
	if (gap > p->max_gap_ns)
		p->max_gap_ns = gap;
	if (!p->first_from_ns)
		p->first_from_ns = from ? from : 1;
	if (s->t_ns > p->last_t_ns)
		p->last_t_ns = s->t_ns;
	p->samples++;
	for (c = 0; c < s->ncpu && c < PROOF_MAX_CPUS; c++) {
		if (s->busy[c] < 0)
			continue;
		p->busy_sum[c] += s->busy[c];
		p->busy_n[c]++;
	}
	p->irq_sum += s->irq_s;
	p->ctxt_sum += s->ctxt_s;
	p->load1_sum += s->load1;
	for (i = 0; i < s->nif; i++) {
		for (j = 0; j < p->nif && strcmp(p->ifname[j], s->ifname[i]); j++)
			;
		if (j == p->nif) {
			if (p->nif == PROOF_MAX_IFS)
				continue;
			snprintf(p->ifname[p->nif++], PROOF_IFNAME, "%s", s->ifname[i]);
		}
		p->pps_sum[j] += s->rx_pps[i] + s->tx_pps[i];
		p->pps_n[j]++;
	}
	for (i = 0; i < s->nown; i++) {
		struct proof_load_stat *st = proof_phase_load(p, s->own_name[i]);

		if (!st)
			continue;
		st->own_sum += s->own_busy[i];
		st->own_n++;
		st->own_src = s->own_src[i];
	}
}

struct proof_load_stat *proof_phase_load(struct proof_phase *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nloads; i++) {
		if (!strcmp(p->loads[i].name, name))
			return &p->loads[i];
	}
	if (p->nloads == PROOF_MAX_LOADS)
		return NULL;
	memset(&p->loads[p->nloads], 0, sizeof(p->loads[0]));
	snprintf(p->loads[p->nloads].name, sizeof(p->loads[0].name), "%s", name);
	return &p->loads[p->nloads++];
}

void proof_phase_add_result(struct proof_phase *p, const char *load, const struct load_result *r)
{
	struct proof_load_stat *st = proof_phase_load(p, load);

	if (!st)
		return;
	if (r->valid) {
		st->valid++;
		st->score_sum += r->score;
		st->score_last = r->score;
	} else {
		st->invalid++;
		snprintf(st->invalid_why, sizeof(st->invalid_why), "%s", r->why);
	}
}

uint64_t proof_phase_max_gap(const struct proof_phase *p, uint64_t start_ns, uint64_t end_ns)
{
	uint64_t gap = p->max_gap_ns;

	if (end_ns <= start_ns)
		return gap;
	if (!p->samples)
		return end_ns - start_ns;
	if (p->first_from_ns > start_ns && p->first_from_ns - start_ns > gap)
		gap = p->first_from_ns - start_ns;
	if (end_ns > p->last_t_ns && end_ns - p->last_t_ns > gap)
		gap = end_ns - p->last_t_ns;
	return gap;
}

int proof_gap_judge(uint64_t gap_ns, uint64_t bound_ns, char *why, size_t len)
{
	size_t o = strlen(why);

	if (gap_ns <= bound_ns)
		return 0;
	if (o < len)
		snprintf(why + o, len - o, "proof incomplete: no proof-of-load reading for %.1f s "
			 "(at most %.1f s: %d x proof.interval); the sampler was held off\n",
			 (double)gap_ns / 1e9, (double)bound_ns / 1e9, PROOF_GAP_INTERVALS);
	return 1;
}

double proof_phase_busy(const struct proof_phase *p, const cpu_set_t *cpus)
{
	double sum = 0;
	unsigned c, n = 0;

	for (c = 0; c < PROOF_MAX_CPUS; c++) {
		if (!CPU_ISSET(c, cpus) || !p->busy_n[c])
			continue;
		sum += p->busy_sum[c] / (double)p->busy_n[c];
		n++;
	}
	return n ? sum / n : -1;
}

double proof_phase_own(const struct proof_phase *p, const char *name, enum proof_own_src *src)
{
	size_t j;

	for (j = 0; j < p->nloads; j++) {
		if (strcmp(p->loads[j].name, name) || !p->loads[j].own_n)
			continue;
		if (src)
			*src = (enum proof_own_src)p->loads[j].own_src;
		return p->loads[j].own_sum / (double)p->loads[j].own_n;
	}
	return -1;
}

double proof_phase_pps(const struct proof_phase *p, const char *iface)
{
	size_t j;

	for (j = 0; j < p->nif; j++) {
		if (!strcmp(p->ifname[j], iface))
			return p->pps_n[j] ? p->pps_sum[j] / (double)p->pps_n[j] : -1;
	}
	return -1;
}

int proof_phase_judge(const struct proof_phase *p, const struct proof_req *reqs, size_t n,
		      int min_busy_pct, char *why, size_t len)
{
	size_t o = strlen(why), i, j;
	int fails = 0;

#define FAIL(...)                                                               \
	do {                                                                    \
		int m_ = snprintf(why + o, o < len ? len - o : 0, __VA_ARGS__); \
		if (m_ > 0 && o + (size_t)m_ < len)                             \
			o += (size_t)m_;                                        \
		fails++;                                                        \
	} while (0)

	for (i = 0; i < n; i++) {
		const struct proof_req *r = &reqs[i];
		const struct proof_load_stat *st = NULL;
		char cpus[128];

		for (j = 0; j < p->nloads; j++) {
			if (!strcmp(p->loads[j].name, r->name))
				st = &p->loads[j];
		}
		if (st && st->lost) {
			FAIL("load not applied: %s was lost (%s)\n", r->name, st->lost_why);
			continue;
		}
		if (r->kind == LOAD_PROOF_CPU) {
			double b = proof_phase_busy(p, &r->cpus);
			enum proof_own_src src = PROOF_OWN_NONE;
			double own = proof_phase_own(p, r->name, &src);

			cpulist_format(&r->cpus, cpus, sizeof(cpus));
			/* the load's own CPU time where the log has it: a machine busy
			 * with something else proves nothing of this load */
			if (own >= 0) {
				if (own < min_busy_pct)
					FAIL("load not applied: %s: own CPU time %.0f %% of CPUs %s "
					     "(%s; system-wide %.0f %%): below %d %%\n", r->name, own,
					     cpus, proof_own_src_name(src), b, min_busy_pct);
			} else if (b < 0)
				FAIL("load not applied: %s: no proof-of-load samples of CPUs %s\n",
				     r->name, cpus);
			else if (b < min_busy_pct)
				FAIL("load not applied: %s: CPUs %s were %.0f %% busy (at least %d %% "
				     "needed)\n", r->name, cpus, b, min_busy_pct);
		}
		if (r->kind == LOAD_PROOF_IDLE) {
			double b = proof_phase_busy(p, &r->cpus);

			/* no samples (a phase shorter than proof.interval): not judged */
			cpulist_format(&r->cpus, cpus, sizeof(cpus));
			if (b > r->max_busy)
				FAIL("not idle: CPUs %s were %.0f %% busy with no load of sqwave's "
				     "running (at most %d %%: proof.idle_max_busy); something else "
				     "loaded the machine\n", cpus, b, r->max_busy);
		}
		if (r->kind == LOAD_PROOF_NET) {
			double pps = proof_phase_pps(p, r->iface);

			if (pps < 0)
				FAIL("load not applied: %s: no packet counts of %s\n", r->name,
				     r->iface);
			else if (pps < (double)r->min_pps)
				FAIL("load not applied: %s: %s carried %.0f packets/s (at least %" PRId64
				     " needed): the flood did not arrive\n", r->name, r->iface, pps,
				     r->min_pps);
		}
		if (r->results && (!st || !st->valid)) {
			if (st && st->invalid)
				FAIL("load not applied: %s gave no valid score (%" PRIu64 " runs "
				     "without: %s)\n", r->name, st->invalid, st->invalid_why);
			else
				FAIL("load not applied: %s gave no score (no run finished in the "
				     "phase)\n", r->name);
		}
	}
#undef FAIL
	return fails;
}
