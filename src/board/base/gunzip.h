/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gzip (RFC 1952) data inflated (RFC 1951) into memory, without zlib: the
 * kernel's /proc/config.gz for check, on a board build that links no zlib. */
#ifndef SQW_GUNZIP_H
#define SQW_GUNZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* Whether @data starts as gzip data does (its two magic bytes). */
static inline bool gunzip_is_gzip(const void *data, size_t len)
{
	return len >= 2 && !memcmp(data, "\x1f\x8b", 2);
}

/*
 * Inflate the gzip data of @len bytes at @in (one member, or several one
 * after another, as `cat a.gz b.gz` makes them) into a new buffer: 0 with
 * *@out (NUL-terminated after *@outlen bytes; the caller frees it) or -1
 * with errno and one sentence in @err: EINVAL for data that is not gzip,
 * is cut short, breaks the deflate rules or fails its CRC-32 or length,
 * EFBIG when it inflates to more than @max bytes, ENOMEM. Every length
 * and distance is checked before it is used. Safe from any thread.
 */
int gunzip_mem(const void *in, size_t len, size_t max, char **out, size_t *outlen, char *err,
	       size_t errlen);

#endif
