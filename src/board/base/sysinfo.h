/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Facts about the host for logs and summaries: kernel, PREEMPT_RT, command
 * line, CPU model. */
#ifndef SQW_SYSINFO_H
#define SQW_SYSINFO_H

#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>
#include <stdio.h>

struct sysinfo_host {
	char hostname[64];
	char kernel_release[128];
	char kernel_version[256];
	char machine[32];
	bool preempt_rt;            /* /sys/kernel/realtime == 1 or "PREEMPT_RT" in version */
	char cmdline[1024];         /* /proc/cmdline */
	char cpu_model[128];
	int ncpus;
};

/* Fill @h; fields that cannot be read are left empty. Never fails. */
void sysinfo_host_read(struct sysinfo_host *h);

/*
 * Whether the kernel is PREEMPT_RT: @root's sys/kernel/realtime reads "1"
 * (mainline PREEMPT_RT kernels have it), or @version (what `uname -v` says,
 * the same text as proc/sys/kernel/version) names PREEMPT_RT (patched
 * kernels without that file). The one rule `run` reports and `check` judges.
 * @root is "/" on a live system; tests give a fake tree.
 */
bool sysinfo_preempt_rt(const char *root, const char *version);

/*
 * The first line of @root/@rel into @buf, without the newline (trailing
 * white space removed). Returns 0, or -1 with errno (@buf is then "").
 * @rel is relative ("proc/cmdline"). Every file `check` reads goes through
 * here or sysinfo_path(), so that one root directory redirects them all.
 */
int sysinfo_read_line(const char *root, const char *rel, char *buf, size_t len);

/* @path opened for reading only if it is a regular file (as every /proc
 * and /sys file is): a FIFO or a device under a copied --root tree is
 * refused (-1 or NULL, errno EINVAL) instead of waited on or read for ever.
 * sysinfo_open_regular() gives the descriptor, sysinfo_fopen() a stream. */
int sysinfo_open_regular(const char *path);
FILE *sysinfo_fopen(const char *path);

/* The control files of the kernel's pseudo file systems (cgroupfs, tracefs)
 * at @dir/@name, with one read or one write each. sysinfo_file_read(): up
 * to @len - 1 bytes, NUL-terminated; 0 or -1 with errno.
 * sysinfo_file_write(): all of @text in one write(), opened with O_TRUNC
 * when @truncate (tracefs's "trace": empty it); 0, or -1 with errno. */
int sysinfo_file_read(const char *dir, const char *name, char *buf, size_t len);
/* read() from @fd until @len bytes, the end, or an error (EINTR retried):
 * the bytes read. For files read whole (/proc, a JSON document). */
size_t sysinfo_read_full(int fd, void *buf, size_t len);
int sysinfo_file_write(const char *dir, const char *name, const char *text, bool truncate);
/* tracefs's mount point (its own mount, or tracing/ under debugfs) in
 * @out; -1 if neither is mounted. */
int sysinfo_tracefs_mount(char *out, size_t len);
/* Whether @word is a whole word of the blank-separated @list (a kernel's
 * available_tracers, osnoise/options). */
bool sysinfo_has_word(const char *list, const char *word);

/* Whether @root is this running system's own root directory (the same
 * directory as "/"), not a copied or fake tree. False if it cannot be
 * examined. */
bool sysinfo_root_is_live(const char *root);

/* Start time (field 22 of /proc/PID/stat, clock ticks since boot) of
 * process @pid: with the pid it names one process for good. 0 if
 * unreadable; *@state (may be NULL) its state letter ('Z': a zombie). */
unsigned long long sysinfo_proc_start(pid_t pid, char *state);

/* @root/@rel into @buf ("/" + "proc/cmdline" -> "/proc/cmdline"); returns
 * @buf, or NULL if it does not fit. */
char *sysinfo_path(const char *root, const char *rel, char *buf, size_t len);

#endif
