/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU idle states through cpuidle's sysfs: read, restrict, restore, the
 * saved-state file, its sweep and the guardian (cpuidle.h). */
#include "rt/cpuidle.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/child.h"
#include "base/cpulist.h"
#include "base/msgbuf.h"
#include "base/sysinfo.h"

#define GUARD_TIMEOUT_MS 5000
#define STATE_MAGIC "sqwave-idle-states 1"

struct cpuidle_hold {
	struct cpuidle_hold_params p;
	char root[PATH_MAX];
	char file[PATH_MAX];          /* saved-state file; "" when removed */
	struct cpuidle_cpu_result *res;
	size_t n;
	pid_t guard;
	int guard_fd;
	bool released;
};

/* ---- rt.idle_state ---- */

int cpuidle_limit_parse(const char *s, struct cpuidle_limit *lim, char *err, size_t errlen)
{
	char *end;
	long v;
	size_t i;

	memset(lim, 0, sizeof(*lim));
	if (!s || !s[0] || !strcmp(s, "keep")) {
		lim->keep = true;
		return 0;
	}
	if (!strcmp(s, "none")) {
		lim->deepest = -1;
		return 0;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (end != s && !*end) {
		if (errno || v < -1 || v >= CPUIDLE_MAX_STATES)
			goto bad;
		lim->deepest = (int)v;
		return 0;
	}
	/* the kernel's names start with a letter (POLL, C1E, WFI, cpu-sleep-0):
	 * "1x" or "-3" is a mistyped number, not a name */
	if (strlen(s) >= sizeof(lim->name) || !isalpha((unsigned char)s[0]))
		goto bad;
	for (i = 0; s[i]; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
			goto bad;
	}
	snprintf(lim->name, sizeof(lim->name), "%s", s);
	lim->deepest = CPUIDLE_MAX_STATES - 1;
	return 0;
bad:
	msgbuf_set(err, errlen, "'%s' is not an idle-state limit: keep (leave them alone), "
		   "none or -1 (every state off), a state index 0..%d (states deeper than it "
		   "off), or a state's name (C1, POLL)", s, CPUIDLE_MAX_STATES - 1);
	return -1;
}

const char *cpuidle_limit_format(const struct cpuidle_limit *lim, char *buf, size_t len)
{
	if (lim->keep)
		snprintf(buf, len, "keep");
	else if (lim->name[0])
		snprintf(buf, len, "%s", lim->name);
	else if (lim->deepest < 0)
		snprintf(buf, len, "-1 (none)");
	else
		snprintf(buf, len, "%d", lim->deepest);
	return buf;
}

/* ---- reading ---- */

static int state_rel(char *rel, size_t len, int cpu, int k, const char *file)
{
	int n = snprintf(rel, len, "sys/devices/system/cpu/cpu%d/cpuidle/state%d/%s", cpu, k, file);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static long read_long(const char *root, int cpu, int k, const char *file)
{
	char rel[128], buf[64], *end;
	long v;

	if (state_rel(rel, sizeof(rel), cpu, k, file) ||
	    sysinfo_read_line(root, rel, buf, sizeof(buf)) || !buf[0])
		return -1;
	errno = 0;
	v = strtol(buf, &end, 10);
	return errno || *end || v < 0 ? -1 : v;
}

int cpuidle_read(const char *root, int cpu, struct cpuidle_cpu *out)
{
	char rel[128];
	int k;

	memset(out, 0, sizeof(*out));
	out->cpu = cpu;
	for (k = 0; k < CPUIDLE_MAX_STATES; k++) {
		struct cpuidle_state *st = &out->st[k];

		if (state_rel(rel, sizeof(rel), cpu, k, "name") ||
		    sysinfo_read_line(root, rel, st->name, sizeof(st->name)))
			break;
		if (state_rel(rel, sizeof(rel), cpu, k, "desc") == 0)
			sysinfo_read_line(root, rel, st->desc, sizeof(st->desc));
		st->latency_us = read_long(root, cpu, k, "latency");
		st->residency_us = read_long(root, cpu, k, "residency");
		st->disable = (int)read_long(root, cpu, k, "disable");
		if (st->disable > 1)
			st->disable = 1;
	}
	out->nstates = k;
	return k;
}

int cpuidle_limit_index(const struct cpuidle_limit *lim, const struct cpuidle_cpu *c)
{
	int k;

	if (lim->name[0]) {
		for (k = 0; k < c->nstates; k++) {
			if (!strcasecmp(c->st[k].name, lim->name))
				return k;
		}
		return -2;
	}
	return lim->deepest >= c->nstates ? c->nstates - 1 : lim->deepest;
}

int cpuidle_limit_check(const char *root, const struct cpuidle_limit *lim, char *err,
			size_t errlen)
{
	/* the names seen, each with the index it has on the first CPU that
	 * has it (CPUs of one machine mostly agree) */
	char seen[CPUIDLE_MAX_STATES * 2][32], list[1024] = "", buf[4096], cerr[128];
	int idx[CPUIDLE_MAX_STATES * 2], nseen = 0, cpu, k, j, states = 0;
	struct cpuidle_cpu c;
	cpu_set_t set;

	if (!lim->name[0])
		return 0;
	if (sysinfo_read_line(root, "sys/devices/system/cpu/online", buf, sizeof(buf)) ||
	    cpulist_parse(buf, &set, cerr, sizeof(cerr)) < 0)
		cpulist_online(&set);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set) || !cpuidle_read(root, cpu, &c))
			continue;
		if (cpuidle_limit_index(lim, &c) >= 0)
			return 0;
		states += c.nstates;
		for (k = 0; k < c.nstates; k++) {
			for (j = 0; j < nseen && strcmp(seen[j], c.st[k].name); j++)
				;
			if (j == nseen && nseen < CPUIDLE_MAX_STATES * 2) {
				snprintf(seen[nseen], sizeof(seen[nseen]), "%s", c.st[k].name);
				idx[nseen++] = k;
			}
		}
	}
	if (!states) {
		msgbuf_set(err, errlen, "rt.idle_state %s: this machine has no idle states "
			   "(no CPU has sys/devices/system/cpu/cpuN/cpuidle): there is nothing to "
			   "restrict; leave rt.idle_state at keep", lim->name);
		return -1;
	}
	for (j = 0; j < nseen; j++) {
		bool plain = true;

		for (k = 0; seen[j][k]; k++)
			plain = plain && (isalnum((unsigned char)seen[j][k]) || seen[j][k] == '-' ||
					  seen[j][k] == '_');
		/* a name with a space cannot be given: its number can */
		msgbuf_add(list, sizeof(list), "%s%s%s%s (%d)", j ? ", " : "",
			   plain ? "" : "\"", seen[j], plain ? "" : "\"", idx[j]);
	}
	msgbuf_set(err, errlen, "rt.idle_state %s: no CPU of this machine has an idle state of "
		   "that name; the states it has: %s (a name, matched without case, or the "
		   "number)", lim->name, list);
	return -1;
}

/* ---- writing ---- */

static int write_disable(const char *root, int cpu, int k, int v)
{
	char rel[128], dir[PATH_MAX];

	if (state_rel(rel, sizeof(rel), cpu, k, "") || !sysinfo_path(root, rel, dir, sizeof(dir))) {
		errno = ENAMETOOLONG;
		return -1;
	}
	dir[strlen(dir) - 1] = '\0';	/* the trailing '/' */
	return sysinfo_file_write(dir, "disable", v ? "1" : "0", false);
}

/* ---- the saved-state file ---- */


/* Is the run that wrote "idle.PID.START" gone (a zombie is: it holds
 * nothing any more)? */
static bool run_gone(const char *name)
{
	unsigned long long start;
	char *end, *e2;
	long pid;

	if (strncmp(name, "idle.", 5))
		return false;
	pid = strtol(name + 5, &end, 10);
	if (end == name + 5 || pid <= 0 || *end != '.')
		return false;
	start = strtoull(end + 1, &e2, 10);
	if (*e2 || e2 == end + 1)
		return false;
	if (pid == (long)getpid() && sysinfo_proc_start(getpid(), NULL) == start)
		return false;
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return true;
	{
		char st = '?';
		unsigned long long t = sysinfo_proc_start((pid_t)pid, &st);

		return t != start || st == 'Z' || st == 'X';
	}
}

static int mkdir_p(const char *dir)
{
	char tmp[PATH_MAX], *s;

	if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (s = tmp + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(tmp, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

/* The original value of each state the run disables, written to a new file
 * and renamed into place (a reader never sees half of it). */
static int state_file_write(struct cpuidle_hold *h, char *err, size_t errlen)
{
	char tmp[PATH_MAX + 8];
	FILE *f;
	size_t i;
	int k, fd;

	if (mkdir_p(h->p.state_dir) < 0 ||
	    snprintf(h->file, sizeof(h->file), "%s/idle.%d.%llu", h->p.state_dir, (int)getpid(),
		     sysinfo_proc_start(getpid(), NULL)) >= (int)sizeof(h->file)) {
		msgbuf_set(err, errlen, "cannot make the idle states' saved-state directory %s: %s",
			   h->p.state_dir, strerror(errno ? errno : ENAMETOOLONG));
		h->file[0] = '\0';
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.new", h->file);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		msgbuf_set(err, errlen, "cannot write the idle states' saved-state file %s: %s", tmp,
			   strerror(errno));
		if (fd >= 0)
			close(fd);
		h->file[0] = '\0';
		return -1;
	}
	fprintf(f, STATE_MAGIC "\nroot %s\n", h->root);
	for (i = 0; i < h->n; i++) {
		const struct cpuidle_cpu_result *r = &h->res[i];

		for (k = 0; k < r->before.nstates; k++) {
			if (r->action[k] == CPUIDLE_DISABLED)
				fprintf(f, "%d %d %d\n", r->before.cpu, k, r->before.st[k].disable);
		}
	}
	if (fflush(f) != 0 || fsync(fileno(f)) < 0 || ferror(f)) {
		msgbuf_set(err, errlen, "cannot write the idle states' saved-state file %s: %s", tmp,
			   strerror(errno));
		fclose(f);
		unlink(tmp);
		h->file[0] = '\0';
		return -1;
	}
	fclose(f);
	if (rename(tmp, h->file) < 0) {
		msgbuf_set(err, errlen, "cannot write the idle states' saved-state file %s: %s",
			   h->file, strerror(errno));
		unlink(tmp);
		h->file[0] = '\0';
		return -1;
	}
	return 0;
}

int cpuidle_restore_file(const char *path, int *states)
{
	char line[PATH_MAX + 16], root[PATH_MAX] = "";
	int cpu, k, v, bad = 0, n = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f) || strncmp(line, STATE_MAGIC, strlen(STATE_MAGIC))) {
		fclose(f);
		errno = EINVAL;
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "root ", 5)) {
			snprintf(root, sizeof(root), "%.4000s", line + 5);
			continue;
		}
		if (!root[0] || sscanf(line, "%d %d %d", &cpu, &k, &v) != 3)
			continue;
		if (write_disable(root, cpu, k, v) < 0 || read_long(root, cpu, k, "disable") != v)
			bad++;
		else
			n++;
	}
	fclose(f);
	if (states)
		*states += n;
	if (bad) {
		errno = EIO;
		return -1;
	}
	return unlink(path);
}

int cpuidle_sweep(const char *state_dir, int *states)
{
	DIR *d = opendir(state_dir);
	struct dirent *de;
	int files = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[PATH_MAX];

		if (!run_gone(de->d_name) ||
		    snprintf(path, sizeof(path), "%s/%s", state_dir, de->d_name) >= (int)sizeof(path))
			continue;
		if (cpuidle_restore_file(path, states) == 0)
			files++;
	}
	closedir(d);
	return files;
}

const char *cpuidle_root(void)
{
	const char *r = getenv(CPUIDLE_TEST_ROOT_ENV);

	return r && r[0] ? r : "/";
}

const char *cpuidle_state_dir(const char *root, char *buf, size_t len)
{
	if (!strcmp(root, "/"))
		snprintf(buf, len, "%s", CPUIDLE_STATE_DIR);
	else
		snprintf(buf, len, "%s/run/sqwave", root);
	return buf;
}

/* ---- the guardian ---- */

static int spawn_guardian(struct cpuidle_hold *h, char *err, size_t errlen)
{
	char *argv[] = { (char *)h->p.self_exe, (char *)CPUIDLE_GUARD_ARG, h->file, NULL };

	/* Nothing is written to sysfs before the guardian can outlive us. */
	return child_guardian_spawn(argv, GUARD_TIMEOUT_MS, "the idle-state guardian",
				    "a killed run would leave idle states disabled", &h->guard,
				    &h->guard_fd, err, errlen);
}

static void guardian_stop(struct cpuidle_hold *h)
{
	if (h->guard_fd >= 0) {
		close(h->guard_fd);
		h->guard_fd = -1;
	}
	if (h->guard > 0) {
		while (waitpid(h->guard, NULL, 0) < 0 && errno == EINTR)
			;
		h->guard = 0;	/* reaped, or by someone else (ECHILD) */
	}
}

int cpuidle_guard_main(int argc, char **argv)
{
	char buf[64];

	if (argc < 2)
		return 2;
	if (child_guardian_ready("sqw-idleguard") < 0)
		return 1;
	/* sqwave holds the other end: its end (normal or SIGKILL) is ours. */
	for (;;) {
		ssize_t n = read(0, buf, sizeof(buf));

		if (n == 0 || (n < 0 && errno != EINTR))
			break;
	}
	/* A run that restored its states removed the file first. */
	if (access(argv[1], F_OK) == 0)
		return cpuidle_restore_file(argv[1], NULL) == 0 ? 0 : 1;
	return 0;
}

/* ---- the hold ---- */

/* Whether every state of @r deeper than its limit reads back disabled. */
static bool read_back_restricted(const char *root, const struct cpuidle_cpu_result *r)
{
	int k;

	if (!r->before.nstates)
		return false;
	for (k = r->deepest + 1; k < r->before.nstates; k++) {
		if (read_long(root, r->before.cpu, k, "disable") != 1)
			return false;
	}
	return true;
}

/* Put back what was written, in reverse; read each back. */
static int restore_all(struct cpuidle_hold *h)
{
	size_t i = h->n;
	int bad = 0, k;

	while (i-- > 0) {
		struct cpuidle_cpu_result *r = &h->res[i];

		r->restored = true;
		for (k = r->before.nstates - 1; k >= 0; k--) {
			int v = r->before.st[k].disable;

			if (!r->written[k])
				continue;
			if (write_disable(h->root, r->before.cpu, k, v) < 0 ||
			    read_long(h->root, r->before.cpu, k, "disable") != v) {
				r->restored = false;
				bad++;
			}
		}
	}
	return bad;
}

struct cpuidle_hold *cpuidle_hold_new(const struct cpuidle_hold_params *p, char *err,
				      size_t errlen)
{
	struct cpuidle_hold *h = calloc(1, sizeof(*h));
	size_t i;
	int k, total = 0;

	if (!h || !(h->res = calloc(p->ncpus ? p->ncpus : 1, sizeof(*h->res)))) {
		free(h);
		msgbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	h->p = *p;
	h->guard_fd = -1;
	h->n = p->ncpus;
	snprintf(h->root, sizeof(h->root), "%s", p->root);
	for (i = 0; i < h->n; i++) {
		struct cpuidle_cpu_result *r = &h->res[i];

		cpuidle_read(h->root, p->cpus[i], &r->before);
		r->deepest = cpuidle_limit_index(&p->limit, &r->before);
		if (r->before.nstates && r->deepest == -2) {
			msgbuf_set(err, errlen, "rt.idle_state %s: CPU %d has no idle state of that "
				   "name (it has %d states, state0 %s)", p->limit.name, p->cpus[i],
				   r->before.nstates, r->before.st[0].name);
			cpuidle_hold_free(h);
			return NULL;
		}
		for (k = r->deepest + 1; k < r->before.nstates; k++) {
			if (r->before.st[k].disable == 0) {
				r->action[k] = CPUIDLE_DISABLED;
				r->ndisabled++;
			} else {
				r->action[k] = CPUIDLE_WAS_DISABLED;
			}
		}
		total += r->ndisabled;
	}
	if (!total) {	/* nothing to write: no file, no guardian */
		for (i = 0; i < h->n; i++)
			h->res[i].restricted = read_back_restricted(h->root, &h->res[i]);
		return h;
	}
	if (state_file_write(h, err, errlen) < 0 ||
	    (p->self_exe && spawn_guardian(h, err, errlen) < 0)) {
		if (h->file[0])
			unlink(h->file);
		h->file[0] = '\0';
		cpuidle_hold_free(h);
		return NULL;
	}
	for (i = 0; i < h->n; i++) {
		struct cpuidle_cpu_result *r = &h->res[i];

		for (k = 0; k < r->before.nstates; k++) {
			if (r->action[k] != CPUIDLE_DISABLED)
				continue;
			if (write_disable(h->root, r->before.cpu, k, 1) < 0) {
				int e = errno;

				msgbuf_set(err, errlen, "cannot disable idle state %d (%s) of CPU %d: "
					   "%s%s", k, r->before.st[k].name, r->before.cpu, strerror(e),
					   e == EACCES || e == EPERM ? " (run as root, or leave "
					   "rt.idle_state at keep)" : "");
				cpuidle_hold_release(h, NULL, 0);
				cpuidle_hold_free(h);
				return NULL;
			}
			r->written[k] = true;
		}
		r->restricted = read_back_restricted(h->root, r);
	}
	return h;
}

int cpuidle_hold_release(struct cpuidle_hold *h, char *err, size_t errlen)
{
	int bad;

	if (!h || h->released)
		return 0;
	h->released = true;
	bad = restore_all(h);
	if (!bad && h->file[0]) {
		unlink(h->file);
		h->file[0] = '\0';
	}
	/* With the file gone the guardian has nothing to do; with it kept
	 * (a value did not read back) the guardian tries once more. */
	guardian_stop(h);
	if (bad) {
		msgbuf_set(err, errlen, "%d idle state%s did not read back their original "
			   "`disable` value; the next run tries again from %s", bad,
			   bad == 1 ? "" : "s", h->file[0] ? h->file : "(no saved-state file)");
		return -1;
	}
	return 0;
}

void cpuidle_hold_free(struct cpuidle_hold *h)
{
	if (!h)
		return;
	guardian_stop(h);
	free(h->res);
	free(h);
}

const struct cpuidle_cpu_result *cpuidle_hold_results(const struct cpuidle_hold *h, size_t *n)
{
	*n = h ? h->n : 0;
	return h ? h->res : NULL;
}

bool cpuidle_hold_released(const struct cpuidle_hold *h)
{
	return h && h->released;
}

const struct cpuidle_limit *cpuidle_hold_limit(const struct cpuidle_hold *h)
{
	return &h->p.limit;
}

const char *cpuidle_hold_state_file(const struct cpuidle_hold *h)
{
	return h->file;
}

pid_t cpuidle_hold_guard_pid(const struct cpuidle_hold *h)
{
	return h ? h->guard : 0;
}

const char *cpuidle_hold_describe(const struct cpuidle_hold *h, bool after, char *buf,
				  size_t len)
{
	return cpuidle_hold_describe_cpu(h, -1, after, buf, len);
}

const char *cpuidle_hold_describe_cpu(const struct cpuidle_hold *h, int cpu, bool after,
				      char *buf, size_t len)
{
	struct msgbuf_out o;
	size_t i;
	int k;
	bool first = true;

	msgbuf_out_init(&o, buf, len);
	for (i = 0; h && i < h->n; i++) {
		const struct cpuidle_cpu_result *r = &h->res[i];
		const char *sep = ": disabled ";
		int was = 0;

		if (cpu >= 0 && r->before.cpu != cpu)
			continue;
		msgbuf_out_add(&o, "%scpu%d", first ? "" : "; ", r->before.cpu);
		first = false;
		if (!r->before.nstates) {
			msgbuf_out_add(&o, ": no cpuidle states (nothing to restrict)");
			continue;
		}
		if (r->deepest >= 0)
			msgbuf_out_add(&o, " deepest %d (%s)", r->deepest, r->before.st[r->deepest].name);
		else
			msgbuf_out_add(&o, " deepest -1 (none)");
		for (k = 0; k < r->before.nstates; k++) {
			if (r->action[k] == CPUIDLE_WAS_DISABLED)
				was++;
			if (r->action[k] != CPUIDLE_DISABLED)
				continue;
			msgbuf_out_add(&o, "%s%s %ld us", sep, r->before.st[k].name,
				       r->before.st[k].latency_us);
			sep = ", ";
		}
		if (!r->ndisabled)
			msgbuf_out_add(&o, ": none to disable");
		if (was) {
			sep = "; already disabled ";
			for (k = 0; k < r->before.nstates; k++) {
				if (r->action[k] != CPUIDLE_WAS_DISABLED)
					continue;
				msgbuf_out_add(&o, "%s%s %ld us", sep, r->before.st[k].name,
					       r->before.st[k].latency_us);
				sep = ", ";
			}
		}
		msgbuf_out_add(&o, "; %s", r->restricted ? "restricted (read back)"
						      : "NOT restricted (read back)");
		if (after && r->ndisabled)
			msgbuf_out_add(&o, ", %s", r->restored ? "restored (read back)"
							  : "NOT restored (read back)");
	}
	return buf;
}
