/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SCPI transport: a raw TCP socket (LXI port 5025) or a character device
 * (/dev/usbtmc*, a pty standing in for one), newline-terminated lines. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include <linux/usb/tmc.h>

#include "base/msgbuf.h"
#include "instrument/scpi.h"

struct scpi {
	int fd;
	int timeout_ms;
	/* /dev/usbtmc*: the driver answers poll() for service requests only,
	 * so a reply is read with a blocking read() bounded by the driver's
	 * own timeout (set to ours) */
	bool usbtmc;
	char target[256];
	char buf[SCPI_LINE_MAX];      /* bytes read past the last line */
	size_t nbuf;
};

const char *scpi_target(const struct scpi *s)
{
	return s->target;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait up to @ms for @events on @fd: 1 ready, 0 timed out, -1 error. */
static int wait_fd(int fd, short events, int ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	int64_t end = now_ms() + ms;
	int r;

	for (;;) {
		int64_t left = end - now_ms();

		r = poll(&p, 1, left > 0 ? (int)left : 0);
		if (r >= 0 || errno != EINTR)
			return r > 0 ? 1 : r;
	}
}

/* HOST[:PORT] or [V6]:PORT into @host and @port. -1 when malformed. */
static int split_host(const char *target, char *host, size_t hostlen, char *port, size_t portlen)
{
	const char *colon;
	size_t n;

	if (target[0] == '[') {
		const char *close = strchr(target, ']');

		if (!close)
			return -1;
		n = (size_t)(close - target - 1);
		colon = close[1] == ':' ? close + 1 : NULL;
		if (close[1] && !colon)
			return -1;
		target++;
	} else {
		colon = strchr(target, ':');
		if (colon && strchr(colon + 1, ':'))
			return -1;	/* a bare IPv6 address: give it as [addr]:port */
		n = colon ? (size_t)(colon - target) : strlen(target);
	}
	if (!n || n >= hostlen)
		return -1;
	memcpy(host, target, n);
	host[n] = '\0';
	if (colon && (!colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1)))
		return -1;
	snprintf(port, portlen, "%s", colon ? colon + 1 : "5025");
	return 0;
}

/* Connect to one address within @ms; the socket, or -1 with errno. */
static int connect_one(const struct addrinfo *ai, int ms)
{
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
			ai->ai_protocol);
	int soerr = 0;
	socklen_t len = sizeof(soerr);
	int r;

	if (fd < 0)
		return -1;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		return fd;
	if (errno != EINPROGRESS)
		goto fail;
	r = wait_fd(fd, POLLOUT, ms);
	if (r <= 0) {
		if (r == 0)
			errno = ETIMEDOUT;
		goto fail;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) < 0)
		goto fail;
	if (soerr) {
		errno = soerr;
		goto fail;
	}
	return fd;
fail:
	r = errno;
	close(fd);
	errno = r;
	return -1;
}

static int open_socket(struct scpi *s, const char *target, char *err, size_t errlen)
{
	char host[256], port[16];
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *ai;
	int r;

	if (split_host(target, host, sizeof(host), port, sizeof(port)) < 0) {
		msgbuf_set(err, errlen, "scope '%s': expected HOST[:PORT], [IPv6]:PORT or a device "
			   "path (/dev/usbtmc0)", target);
		return -1;
	}
	r = getaddrinfo(host, port, &hints, &res);
	if (r) {
		msgbuf_set(err, errlen, "scope %s: %s", target, gai_strerror(r));
		return -1;
	}
	errno = 0;
	for (ai = res; ai && s->fd < 0; ai = ai->ai_next)
		s->fd = connect_one(ai, s->timeout_ms);
	r = errno;
	freeaddrinfo(res);
	if (s->fd < 0) {
		msgbuf_set(err, errlen, "scope %s: cannot connect: %s", target,
			   r == ETIMEDOUT ? "no answer (is it on the network, and SCPI over raw "
					    "socket enabled?)" : strerror(r));
		return -1;
	}
	return 0;
}

static int open_file(struct scpi *s, const char *path, char *err, size_t errlen)
{
	const char *base = strrchr(path, '/');

	s->fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (s->fd < 0) {
		msgbuf_set(err, errlen, "scope %s: %s%s", path, strerror(errno),
			   errno == EACCES ? " (a udev rule giving your group the usbtmc device?)" : "");
		return -1;
	}
	s->usbtmc = !strncmp(base ? base + 1 : path, "usbtmc", 6);
	if (s->usbtmc) {
		__u32 ms = (__u32)s->timeout_ms;

		/* best effort: an old driver keeps its own 5 s */
		(void)ioctl(s->fd, USBTMC_IOCTL_SET_TIMEOUT, &ms);
	}
	return 0;
}

struct scpi *scpi_open(const char *target, int timeout_ms, char *err, size_t errlen)
{
	struct scpi *s;
	int r;

	if (!target || !target[0]) {
		msgbuf_set(err, errlen, "scope: no target given (HOST[:PORT] or /dev/usbtmcN)");
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		msgbuf_set(err, errlen, "scope %s: out of memory", target);
		return NULL;
	}
	s->fd = -1;
	s->timeout_ms = timeout_ms > 0 ? timeout_ms : SCPI_TIMEOUT_MS;
	snprintf(s->target, sizeof(s->target), "%s", target);
	r = target[0] == '/' || target[0] == '.' ? open_file(s, target, err, errlen)
						   : open_socket(s, target, err, errlen);
	if (r < 0) {
		free(s);
		return NULL;
	}
	return s;
}

void scpi_close(struct scpi *s)
{
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

int scpi_write(struct scpi *s, const char *line, char *err, size_t errlen)
{
	size_t len = strlen(line), off = 0;
	char *msg = malloc(len + 1);

	if (!msg) {
		msgbuf_set(err, errlen, "scope %s: out of memory", s->target);
		return -1;
	}
	memcpy(msg, line, len);
	msg[len++] = '\n';
	/* one write() is one USBTMC message: the whole line at once */
	while (off < len) {
		ssize_t w;

		if (!s->usbtmc && wait_fd(s->fd, POLLOUT, s->timeout_ms) <= 0) {
			msgbuf_set(err, errlen, "scope %s: cannot send '%s': %s", s->target, line,
				   "the instrument takes no input");
			free(msg);
			return -1;
		}
		w = send(s->fd, msg + off, len - off, MSG_NOSIGNAL);
		if (w < 0 && errno == ENOTSOCK)
			w = write(s->fd, msg + off, len - off);
		if (w < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w <= 0) {
			msgbuf_set(err, errlen, "scope %s: cannot send '%s': %s", s->target, line,
				   w < 0 ? strerror(errno) : "closed");
			free(msg);
			return -1;
		}
		off += (size_t)w;
	}
	free(msg);
	return 0;
}

/* Forget what is buffered or already waiting: a late reply to an earlier
 * query that timed out must not be taken for the next one's. */
static void drain(struct scpi *s)
{
	char junk[512];

	s->nbuf = 0;
	if (s->usbtmc)
		return;
	while (wait_fd(s->fd, POLLIN, 0) > 0) {
		ssize_t r = read(s->fd, junk, sizeof(junk));

		if (r <= 0)
			break;
	}
}

/* One line from the buffer into @out; true when there was one. */
static bool take_line(struct scpi *s, char *out, size_t outlen)
{
	char *nl = memchr(s->buf, '\n', s->nbuf);
	size_t n, keep;

	if (!nl) {
		if (s->nbuf < sizeof(s->buf))
			return false;
		nl = s->buf + s->nbuf - 1;	/* a line longer than we keep: cut */
	}
	n = (size_t)(nl - s->buf);
	keep = n;
	if (keep && s->buf[keep - 1] == '\r')
		keep--;
	if (outlen) {
		size_t c = keep < outlen - 1 ? keep : outlen - 1;

		memcpy(out, s->buf, c);
		out[c] = '\0';
	}
	memmove(s->buf, nl + 1, s->nbuf - n - 1);
	s->nbuf -= n + 1;
	return true;
}

int scpi_query(struct scpi *s, const char *line, char *out, size_t outlen, char *err,
	       size_t errlen)
{
	int64_t end;

	drain(s);
	if (scpi_write(s, line, err, errlen) < 0)
		return -1;
	end = now_ms() + s->timeout_ms;
	while (!take_line(s, out, outlen)) {
		int64_t left = end - now_ms();
		ssize_t r;

		if (!s->usbtmc) {
			int w = left > 0 ? wait_fd(s->fd, POLLIN, (int)left) : 0;

			if (w <= 0) {
				msgbuf_set(err, errlen, "scope %s: no reply to '%s' within %.1f s%s",
					   s->target, line, s->timeout_ms / 1000.0,
					   w < 0 ? "" : " (a command the instrument does not know?)");
				return -1;
			}
		} else if (left <= 0) {
			msgbuf_set(err, errlen, "scope %s: no reply to '%s' within %.1f s", s->target,
				   line, s->timeout_ms / 1000.0);
			return -1;
		}
		r = read(s->fd, s->buf + s->nbuf, sizeof(s->buf) - s->nbuf);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0 && s->usbtmc && errno == ETIMEDOUT) {
			msgbuf_set(err, errlen, "scope %s: no reply to '%s' within %.1f s", s->target,
				   line, s->timeout_ms / 1000.0);
			return -1;
		}
		if (r <= 0) {
			msgbuf_set(err, errlen, "scope %s: reading the reply to '%s': %s", s->target,
				   line, r < 0 ? strerror(errno) : "the instrument closed the connection");
			return -1;
		}
		s->nbuf += (size_t)r;
		/* a USBTMC message is one reply, whatever its end */
		if (s->usbtmc && !memchr(s->buf, '\n', s->nbuf) && s->nbuf < sizeof(s->buf))
			s->buf[s->nbuf++] = '\n';
	}
	return 0;
}
