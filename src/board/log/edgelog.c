/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The binary edge log: writer (append-only, readable after any crash) and a
 * streaming reader that says when a log was cut short. docs/log-format.md. */
#include "log/edgelog.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log/edgecheck.h"
#include "base/crc32.h"
#include "base/msgbuf.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the log format is little-endian; add byte swapping for this target"
#endif

#define EDGELOG_MAX_TEXT (1u << 20)
/* The longest half period a reader believes (config allows 10 s): keeps a
 * flipped high bit from making times absurd (and their arithmetic overflow). */
#define EDGELOG_MAX_HALF_PERIOD_NS 3600000000000ull

_Static_assert(sizeof(struct edge_rec) == 32, "record size");

const char *edgelog_stop_name(uint32_t reason)
{
	switch (reason) {
	case EDGELOG_STOP_DURATION:
		return "duration";
	case EDGELOG_STOP_SIGNAL:
		return "signal";
	case EDGELOG_STOP_ERROR:
		return "error";
	case EDGELOG_STOP_BREAK:
		return "break";
	}
	return "unknown";
}

/* Value of @key in @len bytes of "key=value\n" lines. */
static const char *text_get(const char *p, size_t n, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *end = p + n;

	while (p && p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t llen = eol ? (size_t)(eol - p) : (size_t)(end - p);

		if (llen > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			size_t vlen = llen - klen - 1;

			if (len == 0)
				return NULL;
			if (vlen >= len)
				vlen = len - 1;
			memcpy(buf, p + klen + 1, vlen);
			buf[vlen] = '\0';
			return buf;
		}
		p = eol ? eol + 1 : NULL;
	}
	return NULL;
}

bool edgelog_meta_is_respond(const struct edgelog_meta *m)
{
	char buf[16];
	const char *v = edgelog_meta_get(m, EDGELOG_META_MODE, buf, sizeof(buf));

	return v && !strcmp(v, "respond");
}

/* An integer metadata value; @def when absent, -1 with errno when not one. */
static int meta_int(const struct edgelog_meta *m, const char *key, int64_t def, int64_t *out)
{
	char buf[32], *end;
	const char *v = edgelog_meta_get(m, key, buf, sizeof(buf));
	long long n;

	*out = def;
	if (!v)
		return 0;
	errno = 0;
	n = strtoll(v, &end, 10);
	if (errno || end == v || *end || n < 0)
		return -1;
	*out = n;
	return 0;
}

/* The wave's shape and idle level from the header text: absent, the 50 %
 * wave of the half period; present, consistent with it or refused. */
static int meta_wave(struct edgelog_meta *m, char *why, size_t len)
{
	int64_t half = (int64_t)m->half_period_ns, idle;
	struct wave *w = &m->wave;

	if (meta_int(m, EDGELOG_META_WAVE_HIGH, half, &w->high_ns) < 0 ||
	    meta_int(m, EDGELOG_META_WAVE_LOW, half, &w->low_ns) < 0 ||
	    meta_int(m, EDGELOG_META_WAVE_PHASE, 0, &w->phase_ns) < 0 ||
	    meta_int(m, EDGELOG_META_IDLE_LEVEL, 0, &idle) < 0 || idle > 1 ||
	    w->high_ns <= 0 || w->low_ns <= 0 || w->high_ns > 2 * half ||
	    w->high_ns + w->low_ns != 2 * half || w->phase_ns >= 2 * half) {
		snprintf(why, len, "corrupt sqwave log header (the wave's high %" PRId64 ", low %"
			 PRId64 ", phase %" PRId64 " ns and half period %" PRId64 " ns disagree)",
			 w->high_ns, w->low_ns, w->phase_ns, half);
		return -1;
	}
	m->idle_level = (int)idle;
	return 0;
}

static const char *meta_get_fn(const void *ctx, const char *key, char *buf, size_t len)
{
	return edgelog_meta_get(ctx, key, buf, len);
}

/* The pin description (log/pin.h): the pin.* keys, or what an older log
 * has; a wave's shape must be the one the wave.* keys give. */
static int meta_pin(struct edgelog_meta *m, char *why, size_t len)
{
	char perr[120];
	const struct wave *a = &m->pin.wave, *b = &m->wave;

	if (pin_meta_read(&m->pin, meta_get_fn, m, (int64_t)m->half_period_ns, perr,
			  sizeof(perr)) < 0) {
		snprintf(why, len, "corrupt sqwave log header (%s)", perr);
		return -1;
	}
	if (m->pin.kind == PIN_WAVE && (a->high_ns != b->high_ns || a->low_ns != b->low_ns ||
					a->phase_ns != b->phase_ns ||
					m->pin.idle_level != m->idle_level)) {
		snprintf(why, len, "corrupt sqwave log header (the pin's wave and wave.* disagree)");
		return -1;
	}
	if ((m->pin.kind == PIN_RESPOND) != edgelog_meta_is_respond(m)) {
		snprintf(why, len, "corrupt sqwave log header (pin.kind and run.mode disagree)");
		return -1;
	}
	return 0;
}

const char *edgelog_meta_get(const struct edgelog_meta *m, const char *key, char *buf, size_t len)
{
	return m->text ? text_get(m->text, strlen(m->text), key, buf, len) : NULL;
}

const char *edgelog_event_get(const struct edgelog_event *ev, const char *key, char *buf, size_t len)
{
	return ev->payload ? text_get((const char *)ev->payload, ev->len, key, buf, len) : NULL;
}

int edgelog_respond_stop_format(const struct edgelog_respond_stop *st, char *buf, size_t len)
{
	int n = snprintf(buf, len, "respond.stop_ns=%" PRIu64 "\nrespond.events_lost=%" PRIu64
			 "\nrespond.events_lost_warmup=%" PRIu64 "\nrespond.events_unanswered=%"
			 PRIu64 "\n", st->stop_ns, st->lost, st->lost_warmup, st->unanswered);

	return n > 0 && (size_t)n < len ? n : -1;
}

bool edgelog_respond_stop_parse(const struct edgelog_event *ev, struct edgelog_respond_stop *st)
{
	static const char *const keys[] = { "respond.stop_ns", "respond.events_lost",
					     "respond.events_lost_warmup",
					     "respond.events_unanswered" };
	uint64_t *out[] = { &st->stop_ns, &st->lost, &st->lost_warmup, &st->unanswered };
	char buf[32], *end;
	size_t i;

	if (ev->type != EDGELOG_EV_NOTE)
		return false;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!edgelog_event_get(ev, keys[i], buf, sizeof(buf)) || !buf[0])
			return false;
		errno = 0;
		*out[i] = strtoull(buf, &end, 10);
		if (errno || *end || buf[0] == '-')
			return false;
	}
	return true;
}

const char *edgelog_event_type_name(unsigned type)
{
	static const char *const names[EDGELOG_EV_NTYPES] = {
		[EDGELOG_EV_PHASE] = "phase", [EDGELOG_EV_LOAD] = "load",
		[EDGELOG_EV_SAMPLE] = "sample", [EDGELOG_EV_BREAK] = "break",
		[EDGELOG_EV_LOOPBACK] = "loopback", [EDGELOG_EV_NOTE] = "note",
		[EDGELOG_EV_TIMERLAT] = "timerlat", [EDGELOG_EV_CLOCK] = "clock",
	};

	return type < EDGELOG_EV_NTYPES && names[type] ? names[type] : "unknown";
}

/* ---- writer ---- */

struct edgelog_writer {
	int fd;
	bool created;       /* this writer made the file (abandon removes it empty) */
	int err;            /* first errno seen; 0 if none */
	uint64_t records;
	uint64_t events;
	char *path;
	char msg[512];      /* the first failure in words; "" if none */
};

/*
 * Format 3's CRCs (base/crc32.h: the CRC-32 zlib's crc32() gives). Each
 * covers its block with the crc field taken as 0, so that a flipped bit
 * anywhere in a header, an event's time or type, or the footer is seen,
 * not only one in a payload: format 2's event CRC covered the payload
 * alone, and a bit flipped in time_ns moved a proof sample into another
 * phase unseen.
 */
static uint32_t header_crc(const struct edgelog_fixed_header *h, const void *text)
{
	struct edgelog_fixed_header c = *h;

	c.crc = 0;
	return crc32_update(crc32_update(0, &c, sizeof(c)), text, h->text_len);
}

static uint32_t event_crc(const struct edgelog_event_header *h, const void *payload,
			  uint32_t version)
{
	struct edgelog_event_header c = *h;
	uint32_t v = 0;

	if (version >= 3) {
		c.crc = 0;
		v = crc32_update(v, &c, sizeof(c));
	}
	return crc32_update(v, payload, h->len);
}

static uint32_t footer_crc(const struct edgelog_footer *f)
{
	return crc32_update(0, f, offsetof(struct edgelog_footer, crc));
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The writer's first failure: errno @e, and the sentence for the caller
 * (edgelog_writer_error(), edgelog_writer_close()). Later failures keep the
 * first one: it is what went wrong. */
static void writer_fail(struct edgelog_writer *w, int e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void writer_fail(struct edgelog_writer *w, int e, const char *fmt, ...)
{
	va_list ap;

	if (w->err)
		return;
	w->err = e;
	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
	va_end(ap);
}

/* Write-lock @fd's whole file; 0, or -1 with errno EBUSY and the holder's
 * pid in *pid (0 when unknown). */
static int lock_file(int fd, pid_t *pid)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	*pid = 0;
	if (fcntl(fd, F_SETLK, &fl) == 0)
		return 0;
	if (errno != EAGAIN && errno != EACCES)
		return -1;
	fl = (struct flock){ .l_type = F_WRLCK, .l_whence = SEEK_SET };
	if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
		*pid = fl.l_pid;
	errno = EBUSY;
	return -1;
}

/* Rename @path aside to the first free "@path.~N~" without replacing
 * anything; its name in @bak. 0, or -1 with errno. */
static int keep_aside(const char *path, char *bak, size_t baklen)
{
	unsigned n;

	for (n = 1; n < 100000; n++) {
		if ((size_t)snprintf(bak, baklen, "%s.~%u~", path, n) >= baklen) {
			errno = ENAMETOOLONG;
			return -1;
		}
		if (renameat2(AT_FDCWD, path, AT_FDCWD, bak, RENAME_NOREPLACE) == 0)
			return 0;
		if (errno == EEXIST)
			continue;
		if (errno != EINVAL && errno != ENOSYS)
			return -1;
		/* A filesystem without RENAME_NOREPLACE: check, then rename. */
		if (access(bak, F_OK) == 0)
			continue;
		return rename(path, bak);
	}
	errno = EEXIST;
	return -1;
}

/* Open @path for the log and lock it, as the header comment in edgelog.h
 * says, changing nothing: an existing file is opened as it is (*@created
 * false), a missing one created empty (*@created true). The fd, or -1 with
 * errno and @err. */
static int reserve_log_file(const char *path, bool *created, char *err, size_t errlen)
{
	struct stat st;
	pid_t holder;
	int fd = -1, e, tries;

	/* O_NONBLOCK: a FIFO without a reader fails at once (ENXIO) instead of
	 * blocking with the stop signals blocked. No O_TRUNC, no rename: not
	 * before every output of the run is known to be ours. */
	for (tries = 0; fd < 0 && tries < 3; tries++) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK | O_CLOEXEC, 0644);
		*created = fd >= 0;
		if (fd < 0 && errno == EEXIST)
			fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 && errno != ENOENT)	/* ENOENT: removed in between, again */
			break;
	}
	if (fd < 0) {
		e = errno;
		if (e == ENXIO)
			msgbuf_set(err, errlen, "cannot create log %s: it is a FIFO or socket with no reader "
				"(the log must be a file)", path);
		else
			msgbuf_set(err, errlen, "cannot create log %s: %s", path, strerror(e));
		errno = e == ENXIO ? EINVAL : e;
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		msgbuf_set(err, errlen, "cannot create log %s: %s", path, strerror(e));
		goto fail;
	}
	if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode)) {
		e = EINVAL;
		msgbuf_set(err, errlen, "cannot create log %s: it is a %s (the log must be a file)", path,
			S_ISFIFO(st.st_mode) ? "FIFO" : S_ISSOCK(st.st_mode) ? "socket" : "special file");
		goto fail;
	}
	if (S_ISREG(st.st_mode) && lock_file(fd, &holder) < 0) {
		e = errno;
		if (e == EBUSY && holder > 0)
			msgbuf_set(err, errlen, "log %s is being written by another process (pid %ld): "
				"two runs cannot share a log", path, (long)holder);
		else if (e == EBUSY)
			msgbuf_set(err, errlen, "log %s is being written by another process: two "
				"runs cannot share a log", path);
		else
			msgbuf_set(err, errlen, "cannot lock log %s: %s", path, strerror(e));
		goto fail;
	}
	return fd;
fail:
	/* A file this call created is removed, unless another process locked
	 * it first (EBUSY): it is that process's log now. */
	if (*created && e != EBUSY)
		unlink(path);
	close(fd);
	errno = e;
	return -1;
}

struct edgelog_writer *edgelog_writer_reserve(const char *path, char *err, size_t errlen)
{
	struct edgelog_writer *w = calloc(1, sizeof(*w));
	int e;

	if (!w || !(w->path = strdup(path))) {
		msgbuf_set(err, errlen, "cannot create log %s: %s", path, strerror(ENOMEM));
		free(w);
		errno = ENOMEM;
		return NULL;
	}
	w->fd = reserve_log_file(path, &w->created, err, errlen);
	if (w->fd < 0) {
		e = errno;
		free(w->path);
		free(w);
		errno = e;
		return NULL;
	}
	return w;
}

void edgelog_writer_abandon(struct edgelog_writer *w)
{
	struct stat a, b;

	if (!w)
		return;
	/* a file this writer made, if it is still that file and empty */
	if (w->created && fstat(w->fd, &a) == 0 && a.st_size == 0 &&
	    stat(w->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		unlink(w->path);
	close(w->fd);
	free(w->path);
	free(w);
}

/* A reserved file that holds an older log (or anything): ours now
 * (locked), kept under another name, and a new file in its place. */
static int keep_old_log(struct edgelog_writer *w, char *kept, size_t keptlen, char *err,
			size_t errlen)
{
	struct stat st;
	pid_t holder;
	char bak[4096];
	int fd2, e;

	if (fstat(w->fd, &st) < 0) {
		e = errno;
		msgbuf_set(err, errlen, "cannot create log %s: %s", w->path, strerror(e));
		errno = e;
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_size == 0)
		return 0;
	if (keep_aside(w->path, bak, sizeof(bak)) < 0) {
		e = errno;
		msgbuf_set(err, errlen, "%s exists and could not be kept aside: %s (not "
			"overwriting it)", w->path, strerror(e));
		errno = e;
		return -1;
	}
	fd2 = open(w->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd2 < 0 || lock_file(fd2, &holder) < 0) {
		e = errno;
		msgbuf_set(err, errlen, "cannot create log %s after keeping the previous one "
			"as %s: %s", w->path, bak, strerror(e));
		if (fd2 >= 0)
			close(fd2);
		errno = e;
		return -1;
	}
	close(w->fd);
	w->fd = fd2;
	w->created = true;
	if (kept && keptlen)
		snprintf(kept, keptlen, "%s", bak);
	return 0;
}

int edgelog_writer_start(struct edgelog_writer *w, const struct edgelog_meta *meta, char *kept,
			 size_t keptlen, char *err, size_t errlen)
{
	struct edgelog_fixed_header h;
	size_t text_len = meta->text ? strlen(meta->text) : 0;
	size_t total;
	char *buf;
	int e;

	if (kept && keptlen)
		kept[0] = '\0';
	if (text_len > EDGELOG_MAX_TEXT) {
		msgbuf_set(err, errlen, "log header metadata too large (%zu bytes)", text_len);
		errno = E2BIG;
		return -1;
	}
	if (keep_old_log(w, kept, keptlen, err, errlen) < 0)
		return -1;
	if (fcntl(w->fd, F_SETFL, fcntl(w->fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		e = errno;
		msgbuf_set(err, errlen, "cannot create log %s: %s", w->path, strerror(e));
		errno = e;
		return -1;
	}

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, EDGELOG_MAGIC, sizeof(h.magic));
	h.version = EDGELOG_VERSION;
	h.record_size = sizeof(struct edge_rec);
	h.text_len = (uint32_t)text_len;
	total = (sizeof(h) + text_len + 1 + 31) & ~(size_t)31;
	h.records_offset = (uint32_t)total;
	h.clock_id = meta->clock_id;
	h.half_period_ns = meta->half_period_ns;
	h.start_ns = meta->start_ns;
	h.start_realtime_ns = meta->start_realtime_ns;

	buf = calloc(1, total);
	if (!buf) {
		e = errno;
		msgbuf_set(err, errlen, "cannot create log %s: %s", w->path, strerror(e));
		errno = e;
		return -1;
	}
	if (text_len)
		memcpy(buf + sizeof(h), meta->text, text_len);
	h.crc = header_crc(&h, buf + sizeof(h));
	memcpy(buf, &h, sizeof(h));
	if (write_all(w->fd, buf, total) < 0) {
		e = errno;
		msgbuf_set(err, errlen, "cannot write log header to %s: %s", w->path, strerror(e));
		free(buf);
		errno = e;
		return -1;
	}
	free(buf);
	return 0;
}

struct edgelog_writer *edgelog_writer_create(const char *path, const struct edgelog_meta *meta,
					     char *kept, size_t keptlen, char *err, size_t errlen)
{
	struct edgelog_writer *w = edgelog_writer_reserve(path, err, errlen);
	int e;

	if (kept && keptlen)
		kept[0] = '\0';
	if (!w)
		return NULL;
	if (edgelog_writer_start(w, meta, kept, keptlen, err, errlen) < 0) {
		e = errno;
		edgelog_writer_abandon(w);
		errno = e;
		return NULL;
	}
	return w;
}

int edgelog_writer_append(struct edgelog_writer *w, const struct edge_rec *recs, size_t n)
{
	if (w->err) {
		errno = w->err;
		return -1;
	}
	if (write_all(w->fd, recs, n * sizeof(*recs)) < 0) {
		writer_fail(w, errno, "writing log %s failed after %llu records: %s", w->path,
			    (unsigned long long)w->records, strerror(errno));
		errno = w->err;
		return -1;
	}
	w->records += n;
	return 0;
}

int edgelog_writer_append_event(struct edgelog_writer *w, uint64_t time_ns, uint16_t type,
				const void *payload, size_t len)
{
	static const char zeros[32];
	struct edgelog_event_header h;
	size_t pad = (32 - len % 32) % 32;

	if (w->err) {
		errno = w->err;
		return -1;
	}
	if (len > EDGELOG_EVENT_MAX_PAYLOAD) {
		errno = EINVAL;
		return -1;
	}
	memset(&h, 0, sizeof(h));
	h.marker = EDGELOG_EVENT_MARKER;
	h.time_ns = time_ns;
	h.type = type;
	h.len = (uint32_t)len;
	h.crc = event_crc(&h, payload, EDGELOG_VERSION);
	if (write_all(w->fd, &h, sizeof(h)) < 0 || write_all(w->fd, payload, len) < 0 ||
	    write_all(w->fd, zeros, pad) < 0) {
		writer_fail(w, errno, "writing log %s failed after %llu records: %s", w->path,
			    (unsigned long long)w->records, strerror(errno));
		errno = w->err;
		return -1;
	}
	w->events++;
	return 0;
}

int edgelog_writer_sync(struct edgelog_writer *w)
{
	if (!w->err && fdatasync(w->fd) < 0 && errno != EINVAL) {
		writer_fail(w, errno, "syncing log %s failed: %s", w->path, strerror(errno));
		return -1;
	}
	return w->err ? -1 : 0;
}

const char *edgelog_writer_error(const struct edgelog_writer *w)
{
	return w->msg;
}

uint64_t edgelog_writer_records(const struct edgelog_writer *w)
{
	return w->records;
}

int edgelog_writer_close(struct edgelog_writer *w, const struct edgelog_footer *f,
			 char *err, size_t errlen)
{
	int ret = 0;

	msgbuf_set(err, errlen, "%s", "");
	if (!w)
		return 0;
	if (!w->err && f) {
		struct edgelog_footer ft = *f;

		ft.seq_marker = UINT64_MAX;
		ft.magic = EDGELOG_FOOTER_MAGIC;
		ft.records = w->records;
		ft.crc = 0;
		ft.reserved = 0;
		ft.crc = footer_crc(&ft);
		if (write_all(w->fd, &ft, sizeof(ft)) < 0)
			writer_fail(w, errno, "writing the log footer to %s failed: %s", w->path,
				    strerror(errno));
	}
	if (!w->err && fsync(w->fd) < 0 && errno != EINVAL)
		writer_fail(w, errno, "syncing log %s failed: %s", w->path, strerror(errno));
	if (close(w->fd) < 0)
		writer_fail(w, errno, "closing log %s failed: %s", w->path, strerror(errno));
	if (w->err) {
		msgbuf_set(err, errlen, "%s", w->msg);
		errno = w->err;
		ret = -1;
	}
	free(w->path);
	free(w);
	return ret;
}

/* ---- reader ---- */

#define READ_CHUNK (1u << 20)
/* room for a whole event (header, payload, padding) after a partial block */
#define READ_BUF (READ_CHUNK + EDGELOG_EVENT_MAX_PAYLOAD + 64)

struct edgelog_reader {
	int fd;
	char *path;
	struct edgelog_meta meta;
	unsigned char *buf;
	size_t pos, len;          /* unread bytes: buf[pos..len) */
	uint64_t off;             /* file offset of buf[pos] */
	bool eof;                 /* read() returned 0 */
	bool at_end, have_footer, failed, checked;
	struct edgelog_footer footer;
	size_t trailing;
	uint64_t zeros;
	uint64_t records;
	uint64_t events[EDGELOG_EV_NTYPES];
	struct edgecheck chk;
	unsigned char *payload;   /* EDGELOG_EVENT_MAX_PAYLOAD + 1 */
	struct edge_rec one;      /* next_batch()'s record from the slow path */
	enum edgelog_status err_st;
	char err[512];
};

static void reader_fail(char *err, size_t errlen, enum edgelog_status *st, enum edgelog_status v,
			const char *path, const char *why)
{
	*st = v;
	msgbuf_set(err, errlen, "%s: %s", path, why);
}

/* Fail the reader: -1 with errno EBADMSG (bad input) or the I/O error. */
static int rd_fail(struct edgelog_reader *r, enum edgelog_status st, int e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int rd_fail(struct edgelog_reader *r, enum edgelog_status st, int e, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!r->failed) {
		n = snprintf(r->err, sizeof(r->err), "%s: ", r->path);
		va_start(ap, fmt);
		if (n > 0 && (size_t)n < sizeof(r->err))
			vsnprintf(r->err + n, sizeof(r->err) - (size_t)n, fmt, ap);
		va_end(ap);
		r->err_st = st;
		r->failed = true;
	}
	errno = e;
	return -1;
}

/* Make at least @need bytes available at buf + pos unless the file ends
 * first. 0, or -1 on a read error. */
static int fill(struct edgelog_reader *r, size_t need)
{
	if (r->len - r->pos >= need || r->eof)
		return 0;
	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
	}
	while (r->len < need || r->len < READ_CHUNK) {
		ssize_t n = read(r->fd, r->buf + r->len, READ_BUF - r->len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return rd_fail(r, EDGELOG_E_IO, errno, "read error at offset %" PRIu64 ": %s",
				       r->off + r->len, strerror(errno));
		}
		if (n == 0) {
			r->eof = true;
			break;
		}
		r->len += (size_t)n;
		if (r->len >= need)
			break;	/* enough for now; a pipe need not be drained */
	}
	return 0;
}

static size_t avail(const struct edgelog_reader *r)
{
	return r->len - r->pos;
}

static void consume(struct edgelog_reader *r, size_t n)
{
	r->pos += n;
	r->off += n;
}

static bool all_zero(const unsigned char *p, size_t n)
{
	while (n && !*p) {
		p++;
		n--;
	}
	return n == 0;
}

/* At an all-zero block: zeros to the end are a power loss's tail (the log
 * ends there, cut short); anything after them is corruption. */
static int zero_tail(struct edgelog_reader *r)
{
	uint64_t start = r->off;

	for (;;) {
		size_t n = avail(r), i;
		const unsigned char *p = r->buf + r->pos;

		for (i = 0; i < n && !p[i]; i++)
			;
		if (i < n)
			return rd_fail(r, EDGELOG_E_CORRUPT, EBADMSG,
				       "%" PRIu64 " zero bytes at offset %" PRIu64 " where records "
				       "should be, then data at offset %" PRIu64 ": corrupt",
				       r->off + i - start, start, r->off + i);
		consume(r, n);
		if (r->eof)
			break;
		if (fill(r, READ_CHUNK) < 0)
			return -1;
		if (!avail(r))
			break;
	}
	r->zeros = r->off - start;
	r->at_end = true;
	return 0;
}

/* The footer at buf + pos (64 bytes available): check it and that nothing follows. */
static int read_footer(struct edgelog_reader *r)
{
	struct edgelog_footer f;
	uint64_t at = r->off;

	memcpy(&f, r->buf + r->pos, sizeof(f));
	if (f.magic != EDGELOG_FOOTER_MAGIC)
		return rd_fail(r, EDGELOG_E_CORRUPT, EBADMSG, "a block at offset %" PRIu64 " starts "
			       "like the footer but has no footer magic: corrupt", at);
	if (f.stop_reason > EDGELOG_STOP_BREAK || f.reserved || (r->meta.version < 3 && f.crc))
		return rd_fail(r, EDGELOG_E_CORRUPT, EBADMSG, "the footer at offset %" PRIu64
			       " is corrupt (stop reason %" PRIu32 ", reserved %" PRIu64 ")", at,
			       f.stop_reason, (uint64_t)f.reserved << 32 | (r->meta.version < 3 ? f.crc : 0u));
	if (r->meta.version >= 3 && footer_crc(&f) != f.crc)
		return rd_fail(r, EDGELOG_E_CORRUPT, EBADMSG, "the footer at offset %" PRIu64
			       " does not match its CRC: corrupt", at);
	consume(r, sizeof(f));
	if (fill(r, 1) < 0)
		return -1;
	if (avail(r))
		return rd_fail(r, EDGELOG_E_CORRUPT, EBADMSG, "data after the footer (footer at "
			       "offset %" PRIu64 ", more at %" PRIu64 "): corrupt", at, r->off);
	if (f.records != r->records)
		return rd_fail(r, EDGELOG_E_CORRUPT, EBADMSG, "the footer says %" PRIu64 " records "
			       "but the log holds %" PRIu64 ": corrupt", f.records, r->records);
	r->footer = f;
	r->have_footer = true;
	r->at_end = true;
	return 0;
}

/* The event at buf + pos (32 bytes available). 1 read into *ev, 0 the log
 * ends inside it (cut short), -1 error. */
static int read_event(struct edgelog_reader *r, struct edgelog_event *ev)
{
	struct edgelog_event_header h;
	uint64_t at = r->off;
	size_t total;

	memcpy(&h, r->buf + r->pos, sizeof(h));
	if (r->meta.version < 2)
		return rd_fail(r, EDGELOG_E_CORRUPT, EBADMSG, "an event record at offset %" PRIu64
			       " in a format %" PRIu32 " log (events came with format 2): corrupt",
			       at, r->meta.version);
	if (h.type == 0 || h.type >= EDGELOG_EV_NTYPES || h.reserved0 || h.reserved1 ||
	    h.len > EDGELOG_EVENT_MAX_PAYLOAD)
		return rd_fail(r, EDGELOG_E_CORRUPT, EBADMSG, "event at offset %" PRIu64 ": type %u, "
			       "length %" PRIu32 ", reserved %u/%" PRIu32 ": corrupt", at, h.type,
			       h.len, h.reserved0, h.reserved1);
	total = sizeof(h) + ((size_t)h.len + 31) / 32 * 32;
	if (fill(r, total) < 0)
		return -1;
	if (avail(r) < total) {
		r->trailing = avail(r);
		consume(r, avail(r));
		r->at_end = true;
		return 0;
	}
	if (event_crc(&h, r->buf + r->pos + sizeof(h), r->meta.version) != h.crc ||
	    !all_zero(r->buf + r->pos + sizeof(h) + h.len, total - sizeof(h) - h.len))
		return rd_fail(r, EDGELOG_E_CORRUPT, EBADMSG, "event at offset %" PRIu64 " (%s, %"
			       PRIu32 " bytes): its %s does not match its CRC or padding: corrupt",
			       at, edgelog_event_type_name(h.type), h.len,
			       r->meta.version >= 3 ? "header or payload" : "payload");
	memcpy(r->payload, r->buf + r->pos + sizeof(h), h.len);
	r->payload[h.len] = '\0';
	consume(r, total);
	r->events[h.type]++;
	ev->time_ns = h.time_ns;
	ev->type = h.type;
	ev->len = h.len;
	ev->payload = r->payload;
	return 1;
}

struct edgelog_reader *edgelog_reader_open(const char *path, enum edgelog_status *st,
					   char *err, size_t errlen)
{
	struct edgelog_fixed_header h;
	struct edgelog_reader *r;
	struct stat sb;
	size_t pad;
	char why[160];

	r = calloc(1, sizeof(*r));
	if (r)
		r->fd = -1;
	if (!r || !(r->path = strdup(path)) || !(r->buf = malloc(READ_BUF)) ||
	    !(r->payload = malloc(EDGELOG_EVENT_MAX_PAYLOAD + 1))) {
		reader_fail(err, errlen, st, EDGELOG_E_IO, path, strerror(ENOMEM));
		goto fail;
	}
	r->checked = true;
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		reader_fail(err, errlen, st, EDGELOG_E_IO, path, strerror(errno));
		goto fail;
	}
	if (fstat(r->fd, &sb) < 0) {
		reader_fail(err, errlen, st, EDGELOG_E_IO, path, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(sb.st_mode)) {
		reader_fail(err, errlen, st, EDGELOG_E_FOREIGN, path,
			    "is a directory, not a sqwave log");
		goto fail;
	}
	if (S_ISREG(sb.st_mode))
		posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (fill(r, sizeof(h)) < 0) {
		reader_fail(err, errlen, st, EDGELOG_E_IO, path, r->err + strlen(path) + 2);
		goto fail;
	}
	/* A run killed between creating its log and writing the header
	 * leaves an empty file, or the magic's first bytes: said as such
	 * (still not a log: another reader may try its own kind). */
	if (avail(r) < sizeof(h.magic) && !memcmp(r->buf, EDGELOG_MAGIC, avail(r))) {
		reader_fail(err, errlen, st, EDGELOG_E_FOREIGN, path, avail(r) ?
			    "sqwave log cut short inside its header (a part of its magic only)" :
			    "empty file: no header (a run stopped before it wrote one leaves this)");
		goto fail;
	}
	if (avail(r) < sizeof(h.magic) || memcmp(r->buf, EDGELOG_MAGIC, sizeof(h.magic))) {
		reader_fail(err, errlen, st, EDGELOG_E_FOREIGN, path,
			    "not a sqwave log (no SQWAVLOG magic at the start)");
		goto fail;
	}
	if (avail(r) < sizeof(h)) {
		reader_fail(err, errlen, st, EDGELOG_E_CORRUPT, path,
			    "sqwave log cut short inside its header");
		goto fail;
	}
	memcpy(&h, r->buf, sizeof(h));
	if (h.version > EDGELOG_VERSION || h.version == 0) {
		snprintf(why, sizeof(why), "log format version %" PRIu32 "; this sqwave reads up to %u",
			 h.version, EDGELOG_VERSION);
		reader_fail(err, errlen, st, EDGELOG_E_VERSION, path, why);
		goto fail;
	}
	/* The writer pads the text (plus a NUL) to the next multiple of 32:
	 * anything else, or a records_offset past the end of a file, is a
	 * damaged header, never a log of 0 records. */
	pad = h.records_offset >= sizeof(h) + (uint64_t)h.text_len
	      ? h.records_offset - sizeof(h) - h.text_len : SIZE_MAX;
	if (h.record_size != sizeof(struct edge_rec) || h.text_len > EDGELOG_MAX_TEXT ||
	    pad > 32 || h.records_offset % 32 || (h.version < 3 && h.crc) ||
	    h.half_period_ns == 0 || h.half_period_ns > EDGELOG_MAX_HALF_PERIOD_NS) {
		snprintf(why, sizeof(why), "corrupt sqwave log header (inconsistent sizes: record %"
			 PRIu32 ", text %" PRIu32 ", records at %" PRIu32 ", half period %" PRIu64 " ns)",
			 h.record_size, h.text_len, h.records_offset, h.half_period_ns);
		reader_fail(err, errlen, st, EDGELOG_E_CORRUPT, path, why);
		goto fail;
	}
	if (S_ISREG(sb.st_mode) && (uint64_t)sb.st_size < h.records_offset) {
		snprintf(why, sizeof(why), "sqwave log cut short inside its header (%" PRIu64
			 " bytes, records would start at %" PRIu32 ")", (uint64_t)sb.st_size,
			 h.records_offset);
		reader_fail(err, errlen, st, EDGELOG_E_CORRUPT, path, why);
		goto fail;
	}
	if (fill(r, h.records_offset) < 0) {
		reader_fail(err, errlen, st, EDGELOG_E_IO, path, r->err + strlen(path) + 2);
		goto fail;
	}
	if (avail(r) < h.records_offset) {
		reader_fail(err, errlen, st, EDGELOG_E_CORRUPT, path,
			    "sqwave log cut short inside its header");
		goto fail;
	}
	if (memchr(r->buf + sizeof(h), '\0', h.text_len) ||
	    !all_zero(r->buf + sizeof(h) + h.text_len, pad)) {
		reader_fail(err, errlen, st, EDGELOG_E_CORRUPT, path,
			    "corrupt sqwave log header (a NUL in the metadata, or padding not zero)");
		goto fail;
	}
	if (h.version >= 3 && header_crc(&h, r->buf + sizeof(h)) != h.crc) {
		reader_fail(err, errlen, st, EDGELOG_E_CORRUPT, path,
			    "corrupt sqwave log header (the header or its metadata does not match "
			    "its CRC)");
		goto fail;
	}
	r->meta.version = h.version;
	r->meta.clock_id = h.clock_id;
	r->meta.half_period_ns = h.half_period_ns;
	r->meta.start_ns = h.start_ns;
	r->meta.start_realtime_ns = h.start_realtime_ns;
	r->meta.text = malloc((size_t)h.text_len + 1);
	if (!r->meta.text) {
		reader_fail(err, errlen, st, EDGELOG_E_IO, path, strerror(ENOMEM));
		goto fail;
	}
	memcpy(r->meta.text, r->buf + sizeof(h), h.text_len);
	r->meta.text[h.text_len] = '\0';
	if (meta_wave(&r->meta, why, sizeof(why)) < 0 || meta_pin(&r->meta, why, sizeof(why)) < 0) {
		reader_fail(err, errlen, st, EDGELOG_E_CORRUPT, path, why);
		goto fail;
	}
	consume(r, h.records_offset);
	/* A respond log's intended times are events: no grid to check. */
	edgecheck_init(&r->chk, (int64_t)h.half_period_ns, !edgelog_meta_is_respond(&r->meta),
		       h.start_ns);
	if (edgelog_meta_is_respond(&r->meta))
		edgecheck_set_respond(&r->chk);
	else if (!wave_is_square(&r->meta.wave))
		edgecheck_set_wave(&r->chk, &r->meta.wave, r->meta.idle_level);
	*st = EDGELOG_OK;
	return r;
fail:
	edgelog_reader_close(r);
	return NULL;
}

const struct edgelog_meta *edgelog_reader_meta(const struct edgelog_reader *r)
{
	return &r->meta;
}

void edgelog_reader_set_checked(struct edgelog_reader *r, bool on)
{
	r->checked = on;
}

/* Everything but the common record: the end, a short block, zeros, the
 * footer, an event, a refused record. */
static int next_slow(struct edgelog_reader *r, struct edge_rec *rec, struct edgelog_event *ev)
{
	char why[256];
	int rc;

	if (r->failed)
		return -1;
	if (r->at_end)
		return 0;
	if (fill(r, sizeof(*rec)) < 0)
		return -1;
	if (avail(r) < sizeof(*rec)) {
		if (avail(r) && all_zero(r->buf + r->pos, avail(r)))
			return zero_tail(r);
		r->trailing = avail(r);
		consume(r, avail(r));
		r->at_end = true;
		return 0;
	}
	memcpy(rec, r->buf + r->pos, sizeof(*rec));
	if (rec->seq == UINT64_MAX) {
		if (fill(r, sizeof(r->footer)) < 0)
			return -1;
		if (avail(r) < sizeof(r->footer)) {
			r->trailing = avail(r);
			consume(r, avail(r));
			r->at_end = true;
			return 0;
		}
		return read_footer(r) < 0 ? -1 : 0;
	}
	if (rec->seq == EDGELOG_EVENT_MARKER) {
		rc = read_event(r, ev);
		return rc == 1 ? 2 : rc;
	}
	if (rec->intended_ns == 0 && all_zero(r->buf + r->pos, sizeof(*rec)))
		return zero_tail(r);
	if (r->checked && edgecheck_record(&r->chk, rec, why, sizeof(why)) < 0)
		return rd_fail(r, EDGELOG_E_CORRUPT, EBADMSG, "record %" PRIu64 " (offset %" PRIu64
			       "): %s: corrupt", r->records, r->off, why);
	consume(r, sizeof(*rec));
	r->records++;
	return 1;
}

int edgelog_reader_next_item(struct edgelog_reader *r, struct edge_rec *rec,
			     struct edgelog_event *ev)
{
	/* The common case: a whole record in the buffer, a plausible seq, and
	 * the checker's fast path. */
	if (avail(r) >= sizeof(*rec) && !r->at_end) {
		char why[1];

		memcpy(rec, r->buf + r->pos, sizeof(*rec));
		if (rec->seq < EDGELOG_EVENT_MARKER && rec->intended_ns != 0 &&
		    (!r->checked || edgecheck_record(&r->chk, rec, why, 0) == 0)) {
			consume(r, sizeof(*rec));
			r->records++;
			return 1;
		}
	}
	return next_slow(r, rec, ev);
}

long edgelog_reader_next_batch(struct edgelog_reader *r, const struct edge_rec **recs, size_t max)
{
	const struct edge_rec *p = (const struct edge_rec *)(void *)(r->buf + r->pos);
	size_t n = 0, have = avail(r) / sizeof(*p);
	char why[1];
	int rc;

	/* The buffer holds whole records at multiples of 32 from an aligned
	 * start: hand them out in place while they take the fast path. */
	if (!r->at_end && !r->failed) {
		if (have > max)
			have = max;
		while (n < have && p[n].seq < EDGELOG_EVENT_MARKER && p[n].intended_ns != 0 &&
		       (!r->checked || edgecheck_record(&r->chk, &p[n], why, 0) == 0))
			n++;
	}
	if (n) {
		consume(r, n * sizeof(*p));
		r->records += n;
		*recs = p;
		return (long)n;
	}
	rc = edgelog_reader_next(r, &r->one);
	*recs = &r->one;
	return rc;
}

int edgelog_reader_next(struct edgelog_reader *r, struct edge_rec *rec)
{
	struct edgelog_event ev;
	int rc;

	while ((rc = edgelog_reader_next_item(r, rec, &ev)) == 2)
		;
	return rc;
}

const char *edgelog_reader_error(const struct edgelog_reader *r, enum edgelog_status *st)
{
	if (st)
		*st = r->err_st;
	return r->err;
}

const struct edgelog_footer *edgelog_reader_footer(const struct edgelog_reader *r)
{
	return r->have_footer ? &r->footer : NULL;
}

size_t edgelog_reader_trailing_bytes(const struct edgelog_reader *r)
{
	return r->trailing;
}

uint64_t edgelog_reader_zero_bytes(const struct edgelog_reader *r)
{
	return r->zeros;
}

uint64_t edgelog_reader_records(const struct edgelog_reader *r)
{
	return r->records;
}

uint64_t edgelog_reader_events(const struct edgelog_reader *r, unsigned type)
{
	uint64_t n = 0;
	unsigned i;

	if (type)
		return type < EDGELOG_EV_NTYPES ? r->events[type] : 0;
	for (i = 0; i < EDGELOG_EV_NTYPES; i++)
		n += r->events[i];
	return n;
}

void edgelog_reader_close(struct edgelog_reader *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	free(r->meta.text);
	free(r->payload);
	free(r->buf);
	free(r->path);
	free(r);
}
