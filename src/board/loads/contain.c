/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Containment of loads: process groups, cgroups (v2 or the v1 freezer), the
 * exec wrapper every load starts through, and the guardian. */
#include "loads/contain.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/child.h"
#include "base/cpulist.h"
#include "base/msgbuf.h"
#include "base/sysinfo.h"

extern char **environ;

#define MAX_PGIDS 4096          /* live process groups one guardian tracks */
#define MAX_CGROUPS 256
/* Exec wrapper, from spawn to exec (and the guardian to "ready"): only a
 * stuck one is caught; on a single-core board whose RT thread leaves little
 * CPU (an emulated one, throttled at 95 %) a start can take seconds. */
#define SPAWN_TIMEOUT_MS 30000
#define SWEEP_TRIES 400         /* x 5 ms: how long a cgroup may take to empty */

struct contain_group {
	char name[64];
	char cg[2][PATH_MAX];       /* cgroup dirs: [0] v2 or freezer, [1] v1 pids ("" if none) */
	pid_t *pgids;
	size_t npgids, cap;
};

struct contain {
	enum contain_kind kind;
	char self_exe[PATH_MAX];
	char top[2][PATH_MAX];      /* sqwave.<pid> dirs ("" if none) */
	char desc[PATH_MAX + 128];
	pid_t guard;                /* guardian pid; 0 when gone */
	int guard_fd;               /* write end of its pipe; -1 when closed */
	struct contain_group **groups;
	size_t ngroups;
	unsigned next_id;
};

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

const char *contain_kind_name(enum contain_kind k)
{
	switch (k) {
	case CONTAIN_CGROUP2:
		return "cgroup2";
	case CONTAIN_FREEZER:
		return "freezer";
	case CONTAIN_PGROUP:
		return "pgroup";
	default:
		return "auto";
	}
}

/* ---- cgroup files ---- */

/* Call @fn for each pid in @dir/cgroup.procs; returns how many. */
static int cgroup_each(const char *dir, void (*fn)(pid_t pid))
{
	char path[PATH_MAX + 32], line[32];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		long pid = strtol(line, NULL, 10);

		if (pid > 0) {
			n++;
			if (fn)
				fn((pid_t)pid);
		}
	}
	fclose(f);
	return n;
}

static void kill9(pid_t pid)
{
	kill(pid, SIGKILL);
}

/* SIGKILL everything in the cgroup at @dir and wait (bounded) until it is
 * empty. Shared by sqwave and the guardian. */
static void cgroup_kill_all(enum contain_kind kind, const char *dir)
{
	char state[64];
	int i, t;

	if (!dir[0])
		return;
	for (i = 0; i < SWEEP_TRIES && cgroup_each(dir, NULL) > 0; i++) {
		if (kind == CONTAIN_CGROUP2) {
			/* cgroup.kill (5.14+) kills new forks too; else freeze, kill, thaw. */
			if (sysinfo_file_write(dir, "cgroup.kill", "1", false) < 0) {
				sysinfo_file_write(dir, "cgroup.freeze", "1", false);
				cgroup_each(dir, kill9);
				sysinfo_file_write(dir, "cgroup.freeze", "0", false);
			}
		} else {
			/* Frozen, nothing forks away while the pids are read. */
			sysinfo_file_write(dir, "freezer.state", "FROZEN", false);
			for (t = 0; t < 200; t++) {
				if (sysinfo_file_read(dir, "freezer.state", state, sizeof(state)) < 0 ||
				    strncmp(state, "FREEZING", 8))
					break;
				sleep_ms(1);
			}
			cgroup_each(dir, kill9);
			sysinfo_file_write(dir, "freezer.state", "THAWED", false);
		}
		sleep_ms(5);
	}
}

static void rmdir_retry(const char *dir)
{
	int i;

	if (!dir[0])
		return;
	for (i = 0; i < 100 && rmdir(dir) < 0 && errno == EBUSY; i++)
		sleep_ms(5);
}

/* Mount points of the cgroup2 hierarchy and the v1 freezer and pids ones. */
static void cgroup_mounts(char *v2, char *freezer, char *pids, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];

	v2[0] = freezer[0] = pids[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char mnt[PATH_MAX], fstype[64], super[1024];
		const char *dash = strstr(line, " - ");
		char *tok, *save;

		/* id parent maj:min root mountpoint opts [optional...] - fstype source super */
		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(dash + 3, "%63s %*s %1023s", fstype, super) != 2)
			continue;
		if (!strcmp(fstype, "cgroup2")) {
			/* prefer /sys/fs/cgroup over other mounts of the same tree */
			if (!v2[0] || !strcmp(mnt, "/sys/fs/cgroup"))
				snprintf(v2, len, "%s", mnt);
			continue;
		}
		if (strcmp(fstype, "cgroup"))
			continue;
		for (tok = strtok_r(super, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (!strcmp(tok, "freezer") && !freezer[0])
				snprintf(freezer, len, "%s", mnt);
			if (!strcmp(tok, "pids") && !pids[0])
				snprintf(pids, len, "%s", mnt);
		}
	}
	fclose(f);
}


/* Is the run that made directory @name ("sqwave.PID.START", or an older
 * "sqwave.PID") gone? */
static bool run_gone(const char *name)
{
	char *end;
	long pid;
	unsigned long long start = 0;

	if (strncmp(name, "sqwave.", 7))
		return false;
	pid = strtol(name + 7, &end, 10);
	if (end == name + 7 || pid <= 0 || pid == (long)getpid())
		return false;
	if (*end == '.') {
		char *e2;

		start = strtoull(end + 1, &e2, 10);
		if (*e2 || e2 == end + 1)
			return false;
	} else if (*end) {
		return false;
	}
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return true;
	/* alive: the same run, or a later process with its pid */
	return start && sysinfo_proc_start((pid_t)pid, NULL) != start;
}

/* sqwave.* directories under @root of runs that are gone (killed with their
 * guardian: `pkill -9 -f sqwave`, an OOM kill): kill what is left in them
 * and remove them. Returns the processes killed; *@dirs counts the
 * directories removed. */
static int sweep_stale(enum contain_kind kind, const char *root, int *dirs)
{
	DIR *d = opendir(root);
	struct dirent *de;
	int killed = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char top[PATH_MAX], sub[PATH_MAX];
		DIR *t;
		struct dirent *te;

		if (!run_gone(de->d_name))
			continue;
		if (snprintf(top, sizeof(top), "%s/%s", root, de->d_name) >= (int)sizeof(top))
			continue;
		t = opendir(top);
		while (t && (te = readdir(t))) {
			struct stat sb;

			if (te->d_name[0] == '.' ||
			    snprintf(sub, sizeof(sub), "%s/%s", top, te->d_name) >= (int)sizeof(sub) ||
			    stat(sub, &sb) < 0 || !S_ISDIR(sb.st_mode))
				continue;
			killed += cgroup_each(sub, NULL);
			cgroup_kill_all(kind, sub);
			rmdir(sub);
		}
		if (t)
			closedir(t);
		if (rmdir(top) == 0 && dirs)
			(*dirs)++;
	}
	closedir(d);
	return killed;
}

/*
 * sqwave's own cgroup in the hierarchy @ctrl names in /proc/self/cgroup
 * ("" for cgroup2's "0::", else a v1 controller such as "freezer"), as a
 * path under the mount ("" for the root). The loads' cgroups go under it,
 * so that whoever stops sqwave's cgroup (systemd stopping the unit, a
 * container's end) stops the loads too.
 */
static void own_cgroup(const char *ctrl, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[PATH_MAX + 128];

	out[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		bool match = false;

		if (!c2)
			continue;
		/* "ID:CONTROLLERS:PATH" */
		*c1 = '\0';
		*c2 = '\0';
		if (!ctrl[0]) {
			match = !strcmp(line, "0") && !c1[1];
		} else {
			char *tok, *save;

			for (tok = strtok_r(c1 + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
				match |= !strcmp(tok, ctrl);
		}
		if (match) {
			char *path = c2 + 1;

			path[strcspn(path, "\n")] = '\0';
			snprintf(out, len, "%s", strcmp(path, "/") ? path : "");
			break;
		}
	}
	if (f)
		fclose(f);
}

/* Make @root@sub/sqwave.PID.START (@sub: sqwave's own cgroup). */
static int make_top(const char *root, const char *sub, char *out, size_t len, char *why,
		    size_t wlen)
{
	if (!root[0]) {
		msgbuf_set(why, wlen, "not mounted");
		return -1;
	}
	if (snprintf(out, len, "%s%s/sqwave.%d.%llu", root, sub, (int)getpid(),
		     sysinfo_proc_start(getpid(), NULL)) >= (int)len) {
		msgbuf_set(why, wlen, "path too long");
		out[0] = '\0';
		return -1;
	}
	if (mkdir(out, 0755) < 0 && errno != EEXIST) {
		msgbuf_set(why, wlen, "cannot create %s: %s", out, strerror(errno));
		out[0] = '\0';
		return -1;
	}
	return 0;
}

int contain_sweep(int *dirs)
{
	char v2[PATH_MAX], frz[PATH_MAX], pids[PATH_MAX], own[PATH_MAX],
	     dir[2 * PATH_MAX];
	const char *roots[3] = { v2, frz, pids }, *ctrls[3] = { "", "freezer", "pids" };
	enum contain_kind kinds[3] = { CONTAIN_CGROUP2, CONTAIN_FREEZER, CONTAIN_FREEZER };
	int killed = 0, i;

	if (dirs)
		*dirs = 0;
	cgroup_mounts(v2, frz, pids, sizeof(v2));
	for (i = 0; i < 3; i++) {
		if (!roots[i][0])
			continue;
		/* at the root (runs from before loads went under sqwave's own
		 * cgroup) and beside our own */
		killed += sweep_stale(kinds[i], roots[i], dirs);
		own_cgroup(ctrls[i], own, sizeof(own));
		if (own[0]) {
			snprintf(dir, sizeof(dir), "%s%s", roots[i], own);
			killed += sweep_stale(kinds[i], dir, dirs);
		}
	}
	return killed;
}

/* ---- the guardian's pipe ---- */

static void guard_say(struct contain *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void guard_say(struct contain *c, const char *fmt, ...)
{
	char buf[PATH_MAX + 16];
	va_list ap;
	int n;

	if (c->guard_fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof(buf))
		(void)!write(c->guard_fd, buf, (size_t)n);
}

static int spawn_guardian(struct contain *c, char *err, size_t errlen)
{
	char *argv[] = { c->self_exe, (char *)CONTAIN_GUARD_ARG, NULL };
	int fd;

	/* No load may start before the guardian is there to outlive us. */
	if (child_guardian_spawn(argv, SPAWN_TIMEOUT_MS, "the load guardian",
				 "loads would not be stopped if sqwave died", &c->guard, &fd, err,
				 errlen) < 0)
		return -1;
	/* Above the fds a load's wrapper gets (0 to 4), so that dup2 onto them
	 * never overwrites it before it is passed on as fd 4. */
	c->guard_fd = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	if (c->guard_fd < 0)
		c->guard_fd = fd;
	else
		close(fd);
	/* A guardian that died reads nothing: writes must not kill us. */
	signal(SIGPIPE, SIG_IGN);
	guard_say(c, "kind %s\n", contain_kind_name(c->kind));
	if (c->top[0][0])
		guard_say(c, "top %s\n", c->top[0]);
	if (c->top[1][0])
		guard_say(c, "top %s\n", c->top[1]);
	return 0;
}

/* ---- containment ---- */

struct contain *contain_new(enum contain_kind want, const char *self_exe,
			    const char *cgroup_root, char *err, size_t errlen)
{
	char v2[PATH_MAX], frz[PATH_MAX], pids[PATH_MAX], why2[PATH_MAX + 64] = "",
	     whyf[PATH_MAX + 64] = "", own2[PATH_MAX] = "", ownf[PATH_MAX] = "";
	struct contain *c = calloc(1, sizeof(*c));

	if (!c) {
		msgbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	c->guard_fd = -1;
	snprintf(c->self_exe, sizeof(c->self_exe), "%s", self_exe);
	if (cgroup_root) {
		snprintf(v2, sizeof(v2), "%s", want == CONTAIN_FREEZER ? "" : cgroup_root);
		snprintf(frz, sizeof(frz), "%s", want == CONTAIN_FREEZER ? cgroup_root : "");
		pids[0] = '\0';
	} else {
		cgroup_mounts(v2, frz, pids, sizeof(v2));
	}
	if (!cgroup_root)
		contain_sweep(NULL);
	/* Under sqwave's own cgroup (tests: at their root). */
	if (!cgroup_root)
		own_cgroup("", own2, sizeof(own2));
	if (want == CONTAIN_AUTO || want == CONTAIN_CGROUP2) {
		if (make_top(v2, own2, c->top[0], sizeof(c->top[0]), why2, sizeof(why2)) == 0)
			c->kind = CONTAIN_CGROUP2;
	}
	if (!c->kind && (want == CONTAIN_AUTO || want == CONTAIN_FREEZER)) {
		if (!cgroup_root)
			own_cgroup("freezer", ownf, sizeof(ownf));
		if (make_top(frz, ownf, c->top[0], sizeof(c->top[0]), whyf, sizeof(whyf)) == 0) {
			c->kind = CONTAIN_FREEZER;
			/* The pids controller counts what is left; optional. */
			if (pids[0]) {
				char ownp[PATH_MAX] = "";

				own_cgroup("pids", ownp, sizeof(ownp));
				make_top(pids, ownp, c->top[1], sizeof(c->top[1]), why2, 0);
			}
		}
	}
	if (!c->kind && want != CONTAIN_AUTO && want != CONTAIN_PGROUP) {
		msgbuf_set(err, errlen, "run.containment %s: %s cgroup %s",
		     contain_kind_name(want), want == CONTAIN_CGROUP2 ? "cgroup2" : "freezer",
		     want == CONTAIN_CGROUP2 ? why2 : whyf);
		free(c);
		return NULL;
	}
	if (!c->kind) {
		c->kind = CONTAIN_PGROUP;
		if (want == CONTAIN_PGROUP)
			snprintf(c->desc, sizeof(c->desc), "process groups only (run.containment)");
		else
			snprintf(c->desc, sizeof(c->desc), "process groups only (no cgroup: cgroup2 "
				 "%.1000s; freezer %.1000s)", why2, whyf);
	} else {
		snprintf(c->desc, sizeof(c->desc), "%s (%s)", contain_kind_name(c->kind), c->top[0]);
	}
	if (spawn_guardian(c, err, errlen) < 0) {
		rmdir(c->top[0]);
		if (c->top[1][0])
			rmdir(c->top[1]);
		free(c);
		return NULL;
	}
	return c;
}

pid_t contain_guard_pid(const struct contain *c)
{
	return c ? c->guard : 0;
}

void contain_guard_reaped(struct contain *c)
{
	if (!c)
		return;
	c->guard = 0;
	if (c->guard_fd >= 0) {
		close(c->guard_fd);
		c->guard_fd = -1;
	}
}

enum contain_kind contain_kind(const struct contain *c)
{
	return c->kind;
}

const char *contain_describe(const struct contain *c)
{
	return c->desc;
}

struct contain_group *contain_group_new(struct contain *c, const char *name, char *err,
					size_t errlen)
{
	struct contain_group *g = calloc(1, sizeof(*g)), **ng;
	char safe[48];
	size_t i;
	int k;

	if (!g) {
		msgbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	/* A directory name from the load's name: letters, digits, -_. only. */
	for (i = 0; name[i] && i + 1 < sizeof(safe); i++)
		safe[i] = (char)(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.",
					name[i]) ? name[i] : '_');
	safe[i] = '\0';
	snprintf(g->name, sizeof(g->name), "%u-%s", c->next_id++, safe);
	for (k = 0; k < 2; k++) {
		if (!c->top[k][0])
			continue;
		{
			char path[sizeof(g->cg[k])];

			if (snprintf(path, sizeof(path), "%s/%s", c->top[k], g->name) >=
			    (int)sizeof(path)) {
				msgbuf_set(err, errlen, "cgroup path too long: %s", c->top[k]);
				if (k)
					rmdir(g->cg[0]);
				free(g);
				return NULL;
			}
			memcpy(g->cg[k], path, sizeof(path));
		}
		if (mkdir(g->cg[k], 0755) < 0 && errno != EEXIST) {
			msgbuf_set(err, errlen, "cannot create the load's cgroup %s: %s", g->cg[k],
			     strerror(errno));
			if (k)
				rmdir(g->cg[0]);
			free(g);
			return NULL;
		}
		guard_say(c, "cg %s\n", g->cg[k]);
	}
	ng = realloc(c->groups, (c->ngroups + 1) * sizeof(*ng));
	if (!ng) {
		contain_group_free(c, g);
		msgbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	c->groups = ng;
	c->groups[c->ngroups++] = g;
	return g;
}

static int group_add_pgid(struct contain_group *g, pid_t pgid)
{
	if (g->npgids == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 8;
		pid_t *np = realloc(g->pgids, cap * sizeof(*np));

		if (!np)
			return -1;
		g->pgids = np;
		g->cap = cap;
	}
	g->pgids[g->npgids++] = pgid;
	return 0;
}

pid_t contain_spawn(struct contain *c, struct contain_group *g, const struct load_proc *p,
		    int out_fd, char *err, size_t errlen)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	char nice[16], cpus[1024], parent[16], msg[PATH_MAX + 64] = "";
	char **argv;
	size_t n = 0, nargs = 0, i;
	int st[2], r, k;
	pid_t pid;
	struct pollfd pfd;
	ssize_t got = 0;

	while (p->argv[nargs])
		nargs++;
	argv = calloc(nargs + 16, sizeof(*argv));
	if (!argv || pipe2(st, O_CLOEXEC) < 0) {
		free(argv);
		msgbuf_set(err, errlen, "cannot start %s: %s", p->argv[0], strerror(errno));
		return -1;
	}
	snprintf(nice, sizeof(nice), "%d", p->nice);
	snprintf(parent, sizeof(parent), "%d", (int)getpid());
	cpulist_format(&p->cpus, cpus, sizeof(cpus));
	argv[n++] = c->self_exe;
	argv[n++] = (char *)CONTAIN_EXEC_ARG;
	argv[n++] = (char *)"--parent";
	argv[n++] = parent;
	argv[n++] = (char *)"--nice";
	argv[n++] = nice;
	if (c->guard_fd >= 0) {
		argv[n++] = (char *)"--guard";	/* fd 4: see contain_exec_main() */
		argv[n++] = (char *)"4";
	}
	argv[n++] = (char *)"--cpus";
	argv[n++] = cpus;
	for (k = 0; k < 2; k++) {
		if (g->cg[k][0]) {
			argv[n++] = (char *)"--cgroup";
			argv[n++] = g->cg[k];
		}
	}
	argv[n++] = (char *)"--";
	for (i = 0; i < nargs; i++)
		argv[n++] = p->argv[i];
	argv[n] = NULL;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (out_fd >= 0 && !p->discard_stdout)
		posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	else
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	if (out_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, out_fd, 2);
	else
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, st[1], 3);
	if (c->guard_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, c->guard_fd, 4);
	child_spawnattr_init(&attr);
	r = posix_spawn(&pid, c->self_exe, &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close(st[1]);
	free(argv);
	if (r) {
		close(st[0]);
		msgbuf_set(err, errlen, "cannot start %s: posix_spawn: %s", p->argv[0], strerror(r));
		return -1;
	}
	/* The wrapper itself told the guardian its process group, before it
	 * could exec or fork: were we killed right here, the guardian still
	 * takes the load and anything it started. */
	/* The wrapper's status pipe closes on exec (success) or carries why. */
	pfd.fd = st[0];
	pfd.events = POLLIN;
	for (;;) {
		ssize_t m;

		r = poll(&pfd, 1, SPAWN_TIMEOUT_MS);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			msgbuf_set(err, errlen, "cannot start %s: the exec wrapper did not exec within "
			     "%d ms", p->argv[0], SPAWN_TIMEOUT_MS);
			kill(-pid, SIGKILL);
			waitpid(pid, NULL, 0);
			close(st[0]);
			guard_say(c, "-pg %d\n", (int)pid);
			return -1;
		}
		m = read(st[0], msg + got, sizeof(msg) - 1 - (size_t)got);
		if (m < 0 && errno == EINTR)
			continue;
		if (m <= 0)
			break;
		got += m;
		if ((size_t)got >= sizeof(msg) - 1)
			break;
	}
	close(st[0]);
	if (got > 0) {
		msg[got] = '\0';
		msg[strcspn(msg, "\n")] = '\0';
		waitpid(pid, NULL, 0);
		guard_say(c, "-pg %d\n", (int)pid);
		msgbuf_set(err, errlen, "cannot start %s: %s", p->argv[0], msg);
		return -1;
	}
	if (group_add_pgid(g, pid) < 0) {
		kill(-pid, SIGKILL);
		waitpid(pid, NULL, 0);
		guard_say(c, "-pg %d\n", (int)pid);
		msgbuf_set(err, errlen, "out of memory");
		return -1;
	}
	return pid;
}

void contain_group_signal(struct contain *c, struct contain_group *g, int sig)
{
	size_t i;

	for (i = 0; i < g->npgids; i++)
		kill(-g->pgids[i], sig);
	/* SIGTERM goes to the process groups only: a cgroup member that left
	 * its group is caught by the SIGKILL that follows the grace period. */
	if (sig == SIGKILL && c->kind != CONTAIN_PGROUP)
		cgroup_kill_all(c->kind, g->cg[0]);
}

void contain_group_release(struct contain *c, struct contain_group *g, pid_t pgid)
{
	size_t i;

	for (i = 0; i < g->npgids; i++) {
		if (g->pgids[i] != pgid)
			continue;
		kill(-pgid, SIGKILL);
		g->pgids[i] = g->pgids[--g->npgids];
		guard_say(c, "-pg %d\n", (int)pgid);
		return;
	}
}

/* Live (not zombie) processes whose process group is one of @g's. */
static int pgroup_count(const struct contain_group *g)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[300], buf[512], *rp;
		long pgrp;
		char state;
		size_t i;
		int fd;
		ssize_t m;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		m = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (m <= 0)
			continue;
		buf[m] = '\0';
		/* "pid (comm) state ppid pgrp ...": comm may hold spaces and ')' */
		rp = strrchr(buf, ')');
		if (!rp || sscanf(rp + 1, " %c %*d %ld", &state, &pgrp) != 2 || state == 'Z')
			continue;
		for (i = 0; i < g->npgids; i++) {
			if (g->pgids[i] == (pid_t)pgrp) {
				n++;
				break;
			}
		}
	}
	closedir(d);
	return n;
}

const char *contain_group_cgroup2(const struct contain *c, const struct contain_group *g)
{
	return c->kind == CONTAIN_CGROUP2 ? g->cg[0] : "";
}

const pid_t *contain_group_pgids(const struct contain_group *g, size_t *n)
{
	*n = g->npgids;
	return g->pgids;
}

int contain_group_count(const struct contain *c, const struct contain_group *g)
{
	if (c->kind == CONTAIN_PGROUP)
		return pgroup_count(g);
	return cgroup_each(g->cg[0], NULL);
}

void contain_group_free(struct contain *c, struct contain_group *g)
{
	size_t i;
	int k;

	if (!g)
		return;
	for (k = 0; k < 2; k++)
		rmdir_retry(g->cg[k]);
	for (i = 0; i < c->ngroups; i++) {
		if (c->groups[i] == g) {
			c->groups[i] = c->groups[--c->ngroups];
			break;
		}
	}
	free(g->pgids);
	free(g);
}

void contain_free(struct contain *c)
{
	int k;

	if (!c)
		return;
	while (c->ngroups)
		contain_group_free(c, c->groups[c->ngroups - 1]);
	free(c->groups);
	if (c->guard_fd >= 0) {
		guard_say(c, "done\n");
		close(c->guard_fd);
	}
	/* The guardian sweeps once more and removes the directories; wait for
	 * it so nothing of ours outlives this call. */
	if (c->guard > 0) {
		int i;

		for (i = 0; i < 1000; i++) {
			pid_t r = waitpid(c->guard, NULL, WNOHANG);

			if (r == c->guard || (r < 0 && errno == ECHILD))
				break;
			sleep_ms(5);
		}
	}
	for (k = 0; k < 2; k++)
		rmdir_retry(c->top[k]);
	free(c);
}

/* ---- the exec wrapper: runs in the child, between spawn and exec ---- */

static void wrapper_fail(const char *step, const char *what, int e)
{
	char buf[PATH_MAX + 128];
	int n = snprintf(buf, sizeof(buf), "%s %s: %s\n", step, what, strerror(e));

	if (n > 0)
		(void)!write(3, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
	_exit(127);
}

int contain_exec_main(int argc, char **argv)
{
	const char *cgroups[4];
	size_t ncg = 0, i;
	cpu_set_t cpus;
	int nice = 0, a;
	long parent = 0;
	bool have_cpus = false;
	char why[256];
	const char *step = "";

	fcntl(3, F_SETFD, FD_CLOEXEC);	/* the status pipe closes on exec */
	/* First of all, "--guard 4": tell the guardian our process group (our
	 * pid: spawned with a group of its own), so that no moment exists in
	 * which a load runs that the guardian does not know of. */
	for (a = 1; a + 1 < argc && strcmp(argv[a], "--"); a++) {
		if (!strcmp(argv[a], "--guard")) {
			int gfd = atoi(argv[a + 1]);
			char say[32];
			int n = snprintf(say, sizeof(say), "pg %d\n", (int)getpid());

			(void)!write(gfd, say, (size_t)n);
			close(gfd);
			break;
		}
	}
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--") && a + 1 < argc)
			break;
		if (a + 1 >= argc)
			wrapper_fail("usage", argv[a], EINVAL);
		if (!strcmp(argv[a], "--parent"))
			parent = strtol(argv[++a], NULL, 10);
		else if (!strcmp(argv[a], "--nice"))
			nice = atoi(argv[++a]);
		else if (!strcmp(argv[a], "--guard"))
			a++;	/* done above */
		else if (!strcmp(argv[a], "--cpus")) {
			if (cpulist_parse(argv[++a], &cpus, why, sizeof(why)) < 0)
				wrapper_fail("cpus", argv[a], EINVAL);
			have_cpus = CPU_COUNT(&cpus) > 0;
		} else if (!strcmp(argv[a], "--cgroup") && ncg < 4)
			cgroups[ncg++] = argv[++a];
		else
			wrapper_fail("usage", argv[a], EINVAL);
	}
	if (a >= argc)
		wrapper_fail("usage", "no program", EINVAL);
	/* Die with sqwave's main thread; if it is already gone, do not start. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (parent && getppid() != (pid_t)parent)
		_exit(127);
	for (i = 0; i < ncg; i++) {
		if (sysinfo_file_write(cgroups[i], "cgroup.procs", "0", false) < 0)
			wrapper_fail("joining cgroup", cgroups[i], errno);
	}
	if (contain_load_place(have_cpus ? &cpus : NULL, nice, &step) < 0)
		wrapper_fail(step, argv[a + 1], errno);
	child_close_from(4);
	execv(argv[a + 1], argv + a + 1);
	wrapper_fail("exec", argv[a + 1], errno);
	return 127;
}

int contain_load_place(const cpu_set_t *cpus, int nice, const char **what)
{
	if (cpus && CPU_COUNT(cpus) > 0 && sched_setaffinity(0, sizeof(*cpus), cpus) < 0) {
		*what = "setting CPUs";
		return -1;
	}
	if (nice && setpriority(PRIO_PROCESS, 0, nice) < 0) {
		*what = "setting nice";
		return -1;
	}
	return 0;
}

/* ---- the guardian: a process of its own, from before the first load to
 * after the last ---- */

int contain_guard_main(int argc, char **argv)
{
	/* On the heap, not static: every process of sqwave locks its .bss. */
	pid_t *pgids = calloc(MAX_PGIDS, sizeof(*pgids));
	char (*cgs)[PATH_MAX] = calloc(MAX_CGROUPS, PATH_MAX), (*tops)[PATH_MAX] = calloc(2, PATH_MAX);
	size_t npg = 0, ncg = 0, ntop = 0, i, j;
	enum contain_kind kind = CONTAIN_PGROUP;
	char line[PATH_MAX + 16];
	FILE *in = fdopen(0, "r");

	(void)argc;
	(void)argv;
	if (!pgids || !cgs || !tops)
		return 1;
	/* Not "sqwave-...": `pkill sqwave` must not take the guardian with
	 * sqwave (then nothing would stop the loads). Ready: sqwave starts
	 * loads only after this word. */
	if (child_guardian_ready("sqw-guardian") < 0)
		return 1;
	while (in && fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "kind ", 5)) {
			kind = !strcmp(line + 5, "cgroup2") ? CONTAIN_CGROUP2 :
			       !strcmp(line + 5, "freezer") ? CONTAIN_FREEZER : CONTAIN_PGROUP;
		} else if (!strncmp(line, "pg ", 3) && npg < MAX_PGIDS) {
			pgids[npg++] = (pid_t)strtol(line + 3, NULL, 10);
		} else if (!strncmp(line, "-pg ", 4)) {
			pid_t p = (pid_t)strtol(line + 4, NULL, 10);

			for (i = 0; i < npg; i++) {
				if (pgids[i] == p) {
					pgids[i] = pgids[--npg];
					break;
				}
			}
		} else if (!strncmp(line, "cg ", 3) && ncg < MAX_CGROUPS) {
			snprintf(cgs[ncg++], PATH_MAX, "%.4000s", line + 3);
		} else if (!strncmp(line, "top ", 4) && ntop < 2) {
			snprintf(tops[ntop++], PATH_MAX, "%.4000s", line + 4);
		}
	}
	/* sqwave ended (or died): nothing it started may outlive it. */
	for (i = 0; i < npg; i++) {
		if (pgids[i] > 1)
			kill(-pgids[i], SIGKILL);
	}
	/* (a v1 pids cgroup has no freezer.state: its members are killed one
	 * by one, and they are the freezer cgroup's members anyway) */
	for (i = 0; i < ncg; i++)
		cgroup_kill_all(kind, cgs[i]);
	for (j = 0; j < ncg; j++)
		rmdir_retry(cgs[j]);
	for (j = 0; j < ntop; j++)
		rmdir_retry(tops[j]);
	return 0;
}
