/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The binary edge log: writer (append-only, readable after any crash) and a
 * streaming reader that says when a log was cut short. docs/log-format.md. */
#include "edgelog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "print.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the log format is little-endian; add byte swapping for this target"
#endif

#define EDGELOG_MAX_TEXT (1u << 20)

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
	}
	return "unknown";
}

const char *edgelog_meta_get(const struct edgelog_meta *m, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p = m->text;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t llen = eol ? (size_t)(eol - p) : strlen(p);

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

/* ---- writer ---- */

struct edgelog_writer {
	int fd;
	int err;            /* first errno seen; 0 if none */
	uint64_t records;
	uint64_t events;
	char *path;
};

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

struct edgelog_writer *edgelog_writer_open(const char *path, const struct edgelog_meta *meta)
{
	struct edgelog_fixed_header h;
	struct edgelog_writer *w;
	size_t text_len = meta->text ? strlen(meta->text) : 0;
	size_t total;
	char *buf;

	if (text_len > EDGELOG_MAX_TEXT) {
		errno = E2BIG;
		pr_err("log header metadata too large (%zu bytes)", text_len);
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->path = strdup(path);
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (!w->path || w->fd < 0) {
		int e = errno;

		pr_err("cannot create log %s: %s", path, strerror(e));
		free(w->path);
		free(w);
		errno = e;
		return NULL;
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
		int e = errno;

		close(w->fd);
		free(w->path);
		free(w);
		errno = e;
		return NULL;
	}
	memcpy(buf, &h, sizeof(h));
	if (text_len)
		memcpy(buf + sizeof(h), meta->text, text_len);
	if (write_all(w->fd, buf, total) < 0) {
		int e = errno;

		pr_err("cannot write log header to %s: %s", path, strerror(e));
		free(buf);
		close(w->fd);
		free(w->path);
		free(w);
		errno = e;
		return NULL;
	}
	free(buf);
	return w;
}

int edgelog_writer_append(struct edgelog_writer *w, const struct edge_rec *recs, size_t n)
{
	if (w->err) {
		errno = w->err;
		return -1;
	}
	if (write_all(w->fd, recs, n * sizeof(*recs)) < 0) {
		w->err = errno;
		pr_err("writing log %s failed after %llu records: %s", w->path,
		       (unsigned long long)w->records, strerror(w->err));
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
	h.crc = (uint32_t)crc32(0L, payload, (uInt)len);
	if (write_all(w->fd, &h, sizeof(h)) < 0 || write_all(w->fd, payload, len) < 0 ||
	    write_all(w->fd, zeros, pad) < 0) {
		w->err = errno;
		pr_err("writing log %s failed after %llu records: %s", w->path,
		       (unsigned long long)w->records, strerror(w->err));
		return -1;
	}
	w->events++;
	return 0;
}

int edgelog_writer_sync(struct edgelog_writer *w)
{
	if (!w->err && fdatasync(w->fd) < 0 && errno != EINVAL) {
		w->err = errno;
		pr_err("syncing log %s failed: %s", w->path, strerror(w->err));
		return -1;
	}
	return w->err ? -1 : 0;
}

uint64_t edgelog_writer_records(const struct edgelog_writer *w)
{
	return w->records;
}

int edgelog_writer_close(struct edgelog_writer *w, const struct edgelog_footer *f)
{
	int ret = 0;

	if (!w)
		return 0;
	if (!w->err && f) {
		struct edgelog_footer ft = *f;

		ft.seq_marker = UINT64_MAX;
		ft.magic = EDGELOG_FOOTER_MAGIC;
		ft.records = w->records;
		if (write_all(w->fd, &ft, sizeof(ft)) < 0) {
			w->err = errno;
			pr_err("writing the log footer to %s failed: %s", w->path, strerror(w->err));
		}
	}
	if (!w->err && fsync(w->fd) < 0 && errno != EINVAL)
		w->err = errno;
	if (close(w->fd) < 0 && !w->err)
		w->err = errno;
	if (w->err) {
		errno = w->err;
		ret = -1;
	}
	free(w->path);
	free(w);
	return ret;
}

/* ---- reader ---- */

struct edgelog_reader {
	FILE *f;
	struct edgelog_meta meta;
	struct edgelog_footer footer;
	int have_footer;
	int at_end;
	size_t trailing;
};

static void reader_fail(char *err, size_t errlen, enum edgelog_status *st, enum edgelog_status v,
			const char *path, const char *why)
{
	*st = v;
	if (err && errlen)
		snprintf(err, errlen, "%s: %s", path, why);
}

struct edgelog_reader *edgelog_reader_open(const char *path, enum edgelog_status *st,
					   char *err, size_t errlen)
{
	struct edgelog_fixed_header h;
	struct edgelog_reader *r;
	size_t got;

	r = calloc(1, sizeof(*r));
	if (!r) {
		reader_fail(err, errlen, st, EDGELOG_E_IO, path, strerror(errno));
		return NULL;
	}
	r->f = fopen(path, "rb");
	if (!r->f) {
		reader_fail(err, errlen, st, EDGELOG_E_IO, path, strerror(errno));
		free(r);
		return NULL;
	}
	setvbuf(r->f, NULL, _IOFBF, 1 << 20);
	got = fread(&h, 1, sizeof(h), r->f);
	if (got < sizeof(h.magic) || memcmp(h.magic, EDGELOG_MAGIC, sizeof(h.magic))) {
		reader_fail(err, errlen, st, EDGELOG_E_FOREIGN, path,
			    "not a sqwave log (no SQWAVLOG magic at the start)");
		goto fail;
	}
	if (got < sizeof(h)) {
		reader_fail(err, errlen, st, EDGELOG_E_CORRUPT, path,
			    "sqwave log cut short inside its header");
		goto fail;
	}
	if (h.version > EDGELOG_VERSION || h.version == 0) {
		char why[96];

		snprintf(why, sizeof(why), "log format version %u; this sqwave reads up to %u",
			 h.version, EDGELOG_VERSION);
		reader_fail(err, errlen, st, EDGELOG_E_VERSION, path, why);
		goto fail;
	}
	if (h.record_size != sizeof(struct edge_rec) || h.text_len > EDGELOG_MAX_TEXT ||
	    h.records_offset < sizeof(h) + h.text_len || h.records_offset % 32 ||
	    h.half_period_ns == 0) {
		reader_fail(err, errlen, st, EDGELOG_E_CORRUPT, path,
			    "corrupt sqwave log header (inconsistent sizes)");
		goto fail;
	}
	r->meta.version = h.version;
	r->meta.clock_id = h.clock_id;
	r->meta.half_period_ns = h.half_period_ns;
	r->meta.start_ns = h.start_ns;
	r->meta.start_realtime_ns = h.start_realtime_ns;
	r->meta.text = calloc(1, (size_t)h.text_len + 1);
	if (!r->meta.text ||
	    fread(r->meta.text, 1, h.text_len, r->f) != h.text_len ||
	    fseeko(r->f, (off_t)h.records_offset, SEEK_SET) < 0) {
		reader_fail(err, errlen, st, EDGELOG_E_CORRUPT, path,
			    "sqwave log cut short inside its header");
		goto fail;
	}
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

int edgelog_reader_next(struct edgelog_reader *r, struct edge_rec *rec)
{
	for (;;) {
		size_t got;

		if (r->at_end)
			return 0;
		got = fread(rec, 1, sizeof(*rec), r->f);
		if (got < sizeof(*rec)) {
			if (ferror(r->f))
				return -1;
			r->trailing = got;
			r->at_end = 1;
			return 0;
		}
		if (rec->seq == UINT64_MAX && rec->intended_ns == EDGELOG_FOOTER_MAGIC) {
			char rest[sizeof(r->footer) - sizeof(*rec)];

			r->at_end = 1;
			got = fread(rest, 1, sizeof(rest), r->f);
			if (got == sizeof(rest)) {
				memcpy(&r->footer, rec, sizeof(*rec));
				memcpy((char *)&r->footer + sizeof(*rec), rest, sizeof(rest));
				r->have_footer = 1;
			} else {
				r->trailing = sizeof(*rec) + got;
			}
			return 0;
		}
		if (rec->seq != EDGELOG_EVENT_MARKER)
			return 1;
		/* An event (format 2): skip its payload blocks. */
		{
			struct edgelog_event_header h;
			uint64_t skip;

			memcpy(&h, rec, sizeof(h));
			skip = ((uint64_t)h.len + 31) / 32 * 32;
			if (h.len > EDGELOG_EVENT_MAX_PAYLOAD ||
			    fseeko(r->f, (off_t)skip, SEEK_CUR) < 0)
				return -1;
		}
	}
}

const struct edgelog_footer *edgelog_reader_footer(const struct edgelog_reader *r)
{
	return r->have_footer ? &r->footer : NULL;
}

size_t edgelog_reader_trailing_bytes(const struct edgelog_reader *r)
{
	return r->trailing;
}

void edgelog_reader_close(struct edgelog_reader *r)
{
	if (!r)
		return;
	if (r->f)
		fclose(r->f);
	free(r->meta.text);
	free(r);
}
