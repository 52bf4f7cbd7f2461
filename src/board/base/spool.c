/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A stream (standard input, a pipe) copied into a memory file, bounded and
 * sniffed early, for the readers of files. */
#include "base/spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msgbuf.h"

int spool_is_stream(const char *path)
{
	struct stat st;

	if (!strcmp(path, "-"))
		return 1;
	if (stat(path, &st))
		return 0;   /* the open will say why */
	return !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

static void err_name(char *err, size_t errlen, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void err_name(char *err, size_t errlen, const char *name, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	msgbuf_set(err, errlen, "%s: %s", name, what);
}

/* Write all of @len bytes, retrying short writes. */
static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int spool_open(const char *path, size_t max, int (*sniff)(void *ctx, const void *data, size_t len),
	       void *ctx, char *err, size_t errlen)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	int in = -1, mfd = -1, e = 0, sniffed = !sniff;
	size_t total = 0, bufsize = 1 << 16, have = 0;
	char *buf = NULL;
	struct stat st;

	in = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(0);
	if (in < 0) {
		e = errno;
		err_name(err, errlen, name, "cannot open: %s", strerror(e));
		goto out;
	}
	if (fstat(in, &st)) {
		e = errno;
		err_name(err, errlen, name, "cannot read: %s", strerror(e));
		goto out;
	}
	if (isatty(in)) {
		e = ENODEV;
		err_name(err, errlen, name, "is a terminal: give a file, or pipe one in (... < FILE)");
		goto out;
	}
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		/* /dev/zero and friends never end; no capture is a device */
		e = ENODEV;
		err_name(err, errlen, name, "is a %s device, not a capture or log file",
			 S_ISCHR(st.st_mode) ? "character" : "block");
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		e = EISDIR;
		err_name(err, errlen, name, "is a directory");
		goto out;
	}
	buf = malloc(bufsize);
	mfd = memfd_create("sqwave-input", MFD_CLOEXEC);
	if (!buf || mfd < 0) {
		e = errno ? errno : ENOMEM;
		err_name(err, errlen, name, "cannot hold the input in memory: %s", strerror(e));
		goto out;
	}
	for (;;) {
		ssize_t r = read(in, buf + have, bufsize - have);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			err_name(err, errlen, name, "read error: %s", strerror(e));
			goto out;
		}
		have += (size_t)r;
		if (r > 0 && have < bufsize)
			continue;
		/* a full buffer, or the end */
		if (!sniffed) {
			sniffed = 1;
			if (have && !sniff(ctx, buf, have)) {
				e = EINVAL;
				err_name(err, errlen, name, "not a format sqwave reads (judged from its "
					 "first %zu bytes)", have);
				goto out;
			}
		}
		if (total + have > max) {
			e = EFBIG;
			err_name(err, errlen, name, "more than %zu MiB from a pipe: save it to a file and "
				 "give the file (a file is read in place, a stream has to be held in memory)",
				 max >> 20);
			goto out;
		}
		if (have && write_all(mfd, buf, have)) {
			e = errno ? errno : ENOSPC;
			err_name(err, errlen, name, "cannot hold the input in memory: %s", strerror(e));
			goto out;
		}
		total += have;
		have = 0;
		if (r == 0)
			break;
	}
	if (!total) {
		e = EINVAL;
		err_name(err, errlen, name, "empty input");
		goto out;
	}
	if (lseek(mfd, 0, SEEK_SET) < 0) {
		e = errno;
		err_name(err, errlen, name, "cannot rewind the copy: %s", strerror(e));
		goto out;
	}
out:
	free(buf);
	if (in >= 0)
		close(in);
	if (e) {
		if (mfd >= 0)
			close(mfd);
		errno = e;
		return -1;
	}
	return mfd;
}
