/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host facts from uname(2), /proc and /sys. Best effort: whatever cannot be
 * read stays empty, because a summary without a CPU model is still useful. */
#include "base/sysinfo.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Copy, truncating silently: a cut-off kernel version is still informative. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void trim_right(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

int sysinfo_open_regular(const char *path)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

FILE *sysinfo_fopen(const char *path)
{
	FILE *f;
	int fd = sysinfo_open_regular(path);

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

/* First line of @path into @buf, without the newline; 0 or -1. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = sysinfo_fopen(path);
	int ret = -1;

	buf[0] = '\0';
	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		trim_right(buf);
		ret = 0;
	} else {
		errno = ENODATA;
	}
	fclose(f);
	return ret;
}

char *sysinfo_path(const char *root, const char *rel, char *buf, size_t len)
{
	size_t rl = strlen(root);
	int n;

	while (*rel == '/')
		rel++;
	n = snprintf(buf, len, "%s%s%s", root, rl && root[rl - 1] == '/' ? "" : "/", rel);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return buf;
}

bool sysinfo_root_is_live(const char *root)
{
	struct stat a, b;

	if (stat(root, &a) || stat("/", &b))
		return false;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int sysinfo_read_line(const char *root, const char *rel, char *buf, size_t len)
{
	char path[4096];

	buf[0] = '\0';
	if (!sysinfo_path(root, rel, path, sizeof(path)))
		return -1;
	return read_line(path, buf, len);
}

int sysinfo_file_read(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX + 64];
	ssize_t n;
	int fd, e;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	e = errno;
	close(fd);
	errno = e;
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

size_t sysinfo_read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

int sysinfo_file_write(const char *dir, const char *name, const char *text, bool truncate)
{
	char path[PATH_MAX + 64];
	ssize_t n;
	int fd, e;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC | (truncate ? O_TRUNC : 0));
	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* tracefs's mount point: its own mount, or tracing/ under debugfs. */
bool sysinfo_has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; (p = strstr(p, word)); p += n)
		if ((p == list || isspace((unsigned char)p[-1])) &&
		    (!p[n] || isspace((unsigned char)p[n])))
			return true;
	return false;
}

int sysinfo_tracefs_mount(char *out, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], dbg[PATH_MAX + 16] = "";
	struct stat st;

	out[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		char mnt[PATH_MAX], fstype[64];
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(dash + 3, "%63s", fstype) != 1)
			continue;
		if (!strcmp(fstype, "tracefs") && !out[0])
			snprintf(out, len, "%s", mnt);
		if (!strcmp(fstype, "debugfs") && !dbg[0])
			snprintf(dbg, sizeof(dbg), "%s/tracing", mnt);
	}
	if (f)
		fclose(f);
	if (out[0])
		return 0;
	if (dbg[0] && stat(dbg, &st) == 0 && strlen(dbg) < len) {
		memcpy(out, dbg, strlen(dbg) + 1);
		return 0;
	}
	return -1;
}

bool sysinfo_preempt_rt(const char *root, const char *version)
{
	char buf[16];

	if (sysinfo_read_line(root, "sys/kernel/realtime", buf, sizeof(buf)) == 0 &&
	    !strcmp(buf, "1"))
		return true;
	return version && strstr(version, "PREEMPT_RT");
}

/*
 * The CPU model from a /proc/cpuinfo-style file: "model name" (x86, and
 * ARM kernels that have it), else "Hardware" (32-bit ARM boards), else
 * "Processor" (older ARM), else "cpu model" (MIPS). First match wins.
 */
static int cpuinfo_model(const char *path, char *buf, size_t len)
{
	static const char *const keys[] = { "model name", "Hardware", "Processor", "cpu model" };
	char line[512], found[4][128] = { "" };
	FILE *f = sysinfo_fopen(path);
	size_t i;

	buf[0] = '\0';
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		char *val;

		if (!colon)
			continue;
		*colon = '\0';
		trim_right(line);
		val = colon + 1;
		while (isspace((unsigned char)*val))
			val++;
		trim_right(val);
		for (i = 0; i < 4; i++)
			if (!found[i][0] && !strcmp(line, keys[i]))
				copy_str(found[i], sizeof(found[i]), val);
	}
	fclose(f);
	for (i = 0; i < 4; i++) {
		if (found[i][0]) {
			copy_str(buf, len, found[i]);
			return 0;
		}
	}
	return -1;
}

void sysinfo_host_read(struct sysinfo_host *h)
{
	struct utsname u;
	long n;

	memset(h, 0, sizeof(*h));
	if (uname(&u) == 0) {
		copy_str(h->hostname, sizeof(h->hostname), u.nodename);
		copy_str(h->kernel_release, sizeof(h->kernel_release), u.release);
		copy_str(h->kernel_version, sizeof(h->kernel_version), u.version);
		copy_str(h->machine, sizeof(h->machine), u.machine);
	}
	h->preempt_rt = sysinfo_preempt_rt("/", h->kernel_version);
	read_line("/proc/cmdline", h->cmdline, sizeof(h->cmdline));
	/* Many arm64 kernels name no CPU in cpuinfo: the device tree names the board. */
	if (cpuinfo_model("/proc/cpuinfo", h->cpu_model, sizeof(h->cpu_model)) &&
	    read_line("/proc/device-tree/model", h->cpu_model, sizeof(h->cpu_model)))
		h->cpu_model[0] = '\0';
	n = sysconf(_SC_NPROCESSORS_ONLN);
	h->ncpus = n > 0 ? (int)n : 0;
}

unsigned long long sysinfo_proc_start(pid_t pid, char *state)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "pid (comm) state ppid ...": comm may hold spaces and ')' */
	p = strrchr(buf, ')');
	if (state)
		*state = p && p[1] == ' ' ? p[2] : '?';
	for (i = 0; p && i < 20; i++)
		p = strchr(p + 1, ' ');
	if (p)
		t = strtoull(p + 1, NULL, 10);
	return t;
}
