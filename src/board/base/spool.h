/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inputs that are not regular files (standard input, a pipe, process
 * substitution): held in an anonymous memory file, so that readers of files
 * (the log reader, analyze, the capture importers) read them in place. */
#ifndef SQW_SPOOL_H
#define SQW_SPOOL_H

#include <stddef.h>

/* Bytes read from a stream at most: a file is read in place, a stream has
 * to be held in memory. */
#define SPOOL_STREAM_MAX ((size_t)512 << 20)

/* 1 if @path is "-" or names something that is not a regular file or a
 * directory (a pipe, process substitution, a socket, a device), else 0 (a
 * path that does not exist too: its open says why). Safe from any thread. */
int spool_is_stream(const char *path);

/*
 * Copy the stream @path ("-": standard input) into an anonymous memory file
 * and return its descriptor (a regular file, readable from offset 0, also
 * through /proc/self/fd/N; the caller closes it), or -1 with errno and one
 * line "NAME: what" in @err (NAME "<stdin>" for "-"): a device or a terminal
 * (ENODEV: refused, /dev/zero never ends), a directory (EISDIR), more than
 * @max bytes (EFBIG), an empty stream (EINVAL), a read error (EIO or the
 * read's errno). @sniff, if not NULL, is shown the first bytes (up to 64
 * KiB, or all if less) with @ctx and may refuse the stream early by
 * returning 0 (EINVAL, "not a format sqwave reads"), so that garbage is not
 * read to the bound. Safe from any thread; reads standard input for "-".
 */
int spool_open(const char *path, size_t max, int (*sniff)(void *ctx, const void *data, size_t len),
	       void *ctx, char *err, size_t errlen);

#endif
