/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The binary edge log (docs/log-format.md): header, 32-byte records, footer.
 * Writer for `sqwave run`, reader for export/analyze/compare. */
#ifndef SQW_EDGELOG_H
#define SQW_EDGELOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "edge.h"

#define EDGELOG_MAGIC "SQWAVLOG"      /* 8 bytes, no NUL */
#define EDGELOG_VERSION 2u          /* 2 adds event records; 1 is still read */
#define EDGELOG_FOOTER_MAGIC 0x544f4f4656575153ull /* bytes on disk: "SQWVFOOT" */

/* Fixed part of the header, little-endian on disk, followed by
 * text_len bytes of "key=value\n" metadata and zero padding up to
 * records_offset (a multiple of 32). */
struct edgelog_fixed_header {
	char magic[8];
	uint32_t version;
	uint32_t record_size;     /* 32 */
	uint32_t records_offset;  /* where record 0 starts */
	uint32_t text_len;
	int32_t clock_id;         /* CLOCK_MONOTONIC */
	uint32_t reserved;
	uint64_t half_period_ns;
	uint64_t start_ns;        /* intended time of slot 0, on clock_id */
	uint64_t start_realtime_ns; /* CLOCK_REALTIME at start_ns (for humans) */
};

_Static_assert(sizeof(struct edgelog_fixed_header) == 56, "header layout");

/* The footer: two 32-byte blocks after the last record. The first has
 * seq = UINT64_MAX and intended_ns = EDGELOG_FOOTER_MAGIC, which no record can. */
struct edgelog_footer {
	uint64_t seq_marker;      /* UINT64_MAX */
	uint64_t magic;           /* EDGELOG_FOOTER_MAGIC */
	uint64_t records;         /* records written */
	uint64_t dropped;         /* records lost to a full ring */
	uint64_t missed_periods;  /* sum of (expirations - 1) */
	uint64_t end_realtime_ns;
	int32_t exit_code;        /* the exit code the run ended with */
	uint32_t stop_reason;     /* enum edgelog_stop */
	uint64_t reserved;
};

_Static_assert(sizeof(struct edgelog_footer) == 64, "footer is two records");

/*
 * Event records (format 2): things that are not edges but must be in the log
 * next to them (phase boundaries, load events, proof-of-load samples, trace
 * breaks, loopback timestamps). An event is one 32-byte header block whose
 * first u64 is EDGELOG_EVENT_MARKER (no edge has a seq that high), followed
 * by its payload padded with zeros to a multiple of 32 bytes. Events are
 * written by the writer thread between records, in the order they were
 * queued; their time orders them, not their place among the edges.
 */
#define EDGELOG_EVENT_MARKER 0xfffffffffffffffeull
#define EDGELOG_EVENT_MAX_PAYLOAD 65536u

struct edgelog_event_header {
	uint64_t marker;          /* EDGELOG_EVENT_MARKER */
	uint64_t time_ns;         /* on the log's clock */
	uint16_t type;            /* enum edgelog_event_type */
	uint16_t reserved0;       /* 0 */
	uint32_t len;             /* payload bytes, <= EDGELOG_EVENT_MAX_PAYLOAD */
	uint32_t crc;             /* zlib crc32 of the payload */
	uint32_t reserved1;       /* 0 */
};

_Static_assert(sizeof(struct edgelog_event_header) == 32, "event header is one record");

enum edgelog_event_type {
	EDGELOG_EV_PHASE = 1,     /* text: a phase began (docs/log-format.md) */
	EDGELOG_EV_LOAD = 2,      /* text: a load started, restarted, exited, was killed or lost */
	EDGELOG_EV_SAMPLE = 3,    /* text: one proof-of-load sample (CPU busy, IRQs, packets, ...) */
	EDGELOG_EV_BREAK = 4,     /* text: a --break threshold was crossed; the trace saved */
	EDGELOG_EV_LOOPBACK = 5,  /* binary: loopback input edges, (u64 seq, u64 event_ns) pairs */
	EDGELOG_EV_NOTE = 6,      /* text: anything else the run wants kept */
};

enum edgelog_stop {
	EDGELOG_STOP_DURATION = 0, /* ran the configured duration */
	EDGELOG_STOP_SIGNAL = 1,   /* SIGINT or SIGTERM */
	EDGELOG_STOP_ERROR = 2,    /* GPIO or I/O error */
};

/* "duration", "signal", "error" (or "unknown"): the footer's stop_reason in words. */
const char *edgelog_stop_name(uint32_t reason);

/* Metadata: the text part of the header, as key/value pairs. */
struct edgelog_meta {
	uint32_t version;
	int32_t clock_id;
	uint64_t half_period_ns;
	uint64_t start_ns;
	uint64_t start_realtime_ns;
	char *text;               /* "key=value\n"..., NUL-terminated */
};

/* Value for @key in meta->text, copied into @buf; NULL if absent. */
const char *edgelog_meta_get(const struct edgelog_meta *m, const char *key, char *buf, size_t len);

/* ---- writer: non-RT threads only ---- */
struct edgelog_writer;

/* Create @path and write the header. Returns NULL with errno and a message. */
struct edgelog_writer *edgelog_writer_open(const char *path, const struct edgelog_meta *meta);
/* Append records; -1 with errno on I/O error (ENOSPC...): records already
 * written stay readable. */
int edgelog_writer_append(struct edgelog_writer *w, const struct edge_rec *recs, size_t n);
/* Append one event (format above): @len bytes of @payload (text events:
 * "key=value\n" lines). Writer thread only, like append. -1 with errno
 * (EINVAL: @len too large). */
int edgelog_writer_append_event(struct edgelog_writer *w, uint64_t time_ns, uint16_t type,
				const void *payload, size_t len);
/* fdatasync the records written so far (once a second from the writer
 * thread, so a power loss costs at most a second). -1 after any I/O error. */
int edgelog_writer_sync(struct edgelog_writer *w);
/* Records appended so far. */
uint64_t edgelog_writer_records(const struct edgelog_writer *w);
/* Write the footer (unless an I/O error happened before), fsync, close, free.
 * Returns -1 if anything failed since open. */
int edgelog_writer_close(struct edgelog_writer *w, const struct edgelog_footer *f);

/* ---- reader: streaming, constant memory ---- */
struct edgelog_reader;

enum edgelog_status {
	EDGELOG_OK = 0,
	EDGELOG_E_IO,        /* cannot open/read: errno */
	EDGELOG_E_FOREIGN,   /* not a sqwave log (bad magic) */
	EDGELOG_E_VERSION,   /* a newer format version */
	EDGELOG_E_CORRUPT,   /* header fields inconsistent */
};

/* Open and validate the header; on failure returns NULL and sets *st (and a
 * one-line reason in @err). Caller closes with edgelog_reader_close(). */
struct edgelog_reader *edgelog_reader_open(const char *path, enum edgelog_status *st,
					   char *err, size_t errlen);
const struct edgelog_meta *edgelog_reader_meta(const struct edgelog_reader *r);
/* Next record: 1 got one, 0 end of records (footer or end of file), -1 read
 * error. Event records are skipped. */
int edgelog_reader_next(struct edgelog_reader *r, struct edge_rec *rec);
/* After next() returned 0: the footer, or NULL when the log was cut short. */
const struct edgelog_footer *edgelog_reader_footer(const struct edgelog_reader *r);
/* After next() returned 0: bytes of an incomplete last record (cut mid-write). */
size_t edgelog_reader_trailing_bytes(const struct edgelog_reader *r);
void edgelog_reader_close(struct edgelog_reader *r);

#endif
