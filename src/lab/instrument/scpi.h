/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SCPI over a raw socket (LXI, HOST[:5025]) or a character device
 * (/dev/usbtmc*): one line out, one line in, every wait bounded. */
#ifndef SQW_SCPI_H
#define SQW_SCPI_H

#include <stddef.h>

#define SCPI_PORT 5025            /* the LXI raw-socket port */
#define SCPI_TIMEOUT_MS 5000      /* default wait for a connection or a reply */
#define SCPI_LINE_MAX 4096        /* longest reply line kept */

struct scpi;

/*
 * Open @target: a path (it starts with '/' or '.': /dev/usbtmc0, a pty)
 * is opened read-write as a file; anything else is HOST[:PORT] (PORT
 * 5025 by default; [v6addr]:PORT for IPv6) and connected within
 * @timeout_ms. NULL on failure, with one sentence in @err. Caller closes
 * with scpi_close(). One thread at a time per object.
 */
struct scpi *scpi_open(const char *target, int timeout_ms, char *err, size_t errlen);
void scpi_close(struct scpi *s);

/* The target as given, for messages. */
const char *scpi_target(const struct scpi *s);

/* Send @line and a newline. 0, or -1 with a sentence in @err. */
int scpi_write(struct scpi *s, const char *line, char *err, size_t errlen);

/*
 * Send @line (a query) and read one reply line into @out (@outlen bytes,
 * without its line end; a longer reply is cut to fit). 0, or -1 with a
 * sentence in @err: no reply within the timeout ("no reply to 'X' within
 * 5.0 s"), the connection closed, an I/O error.
 */
int scpi_query(struct scpi *s, const char *line, char *out, size_t outlen, char *err,
	       size_t errlen);

#endif
