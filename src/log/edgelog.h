/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The binary edge log (docs/log-format.md): header, 32-byte records, footer.
 * Writer for `sqwave run`, reader for export/analyze/compare. */
#ifndef SQW_EDGELOG_H
#define SQW_EDGELOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/magic.h"
#include "base/wave.h"
#include "log/pin.h"
#include "rt/edge.h"

#define EDGELOG_MAGIC MAGIC_EDGELOG    /* 8 bytes, no NUL */
/* 3: CRCs over the header with its metadata, each event's header with its
 * payload, and the footer; 2 added event records. 1 and 2 are still read. */
#define EDGELOG_VERSION 3u
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
	uint32_t crc;             /* 3: zlib crc32 of these 56 bytes (this field 0)
				   * and the metadata text; 1, 2: 0 */
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
	uint32_t crc;             /* 3: zlib crc32 of bytes 0..55; 1, 2: 0 */
	uint32_t reserved;        /* 0 */
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
	uint32_t crc;             /* zlib crc32: 3, of these 32 bytes (this field 0)
				   * and the payload; 1, 2: of the payload only */
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
	EDGELOG_EV_TIMERLAT = 7,  /* binary: rt.timer timerlat's samples, (u64 intended_ns,
				   * i32 irq_ns, i32 thread_ns) per activation, -1: none */
	EDGELOG_EV_CLOCK = 8,     /* text: grid.clock was set (or found moved at the end) */
	EDGELOG_EV_NTYPES         /* one past the last: a reader refuses types >= this */
};

/* "phase", "load", ... ("unknown" for anything else). */
const char *edgelog_event_type_name(unsigned type);

/* An event as the reader returns it. */
struct edgelog_event {
	uint64_t time_ns;         /* on the log's clock */
	uint16_t type;            /* enum edgelog_event_type */
	uint32_t len;             /* payload bytes */
	/* @len bytes and a NUL after them (text events read as a C string, binary
	 * ones by @len). Owned by the reader, valid until its next call. */
	const unsigned char *payload;
};

/* Value for @key in a text event's "key=value\n" lines, copied into @buf
 * (NUL-terminated, cut to @len - 1 bytes); NULL if absent. */
const char *edgelog_event_get(const struct edgelog_event *ev, const char *key, char *buf, size_t len);

/* A respond log's note at the stop (an EDGELOG_EV_NOTE, docs/log-format.md,
 * "A respond log"): the stop on the event clock, and the RT loop's counts
 * then, from the kernel's sequence numbers. */
struct edgelog_respond_stop {
	uint64_t stop_ns;
	uint64_t lost;            /* events lost after the warm-up */
	uint64_t lost_warmup;     /* events lost in the warm-up */
	uint64_t unanswered;      /* stamped before the stop, still queued then */
};
/* Its text (the event's payload) into @buf; its length, or -1 when @len is
 * too small. */
int edgelog_respond_stop_format(const struct edgelog_respond_stop *st, char *buf, size_t len);
/* Whether @ev is that note: true with *@st filled. */
bool edgelog_respond_stop_parse(const struct edgelog_event *ev, struct edgelog_respond_stop *st);

enum edgelog_stop {
	EDGELOG_STOP_DURATION = 0, /* ran the configured duration */
	EDGELOG_STOP_SIGNAL = 1,   /* SIGINT or SIGTERM */
	EDGELOG_STOP_ERROR = 2,    /* GPIO or I/O error */
	EDGELOG_STOP_BREAK = 3,    /* a trace break with --stop-on-break */
};

/* "duration", "signal", "error" (or "unknown"): the footer's stop_reason in words. */
const char *edgelog_stop_name(uint32_t reason);

/* Metadata keys the run writes and the readers look up (docs/log-format.md);
 * besides these, every configuration key as "section.name" (config_dump()). */
#define EDGELOG_META_VERSION     "sqwave.version"
#define EDGELOG_META_BOARD_FILE  "run.board_file"
#define EDGELOG_META_PROFILE     "run.profile_file"
#define EDGELOG_META_GPIO        "run.gpio"
#define EDGELOG_META_MODE        "run.mode"       /* "respond" in a respond log; else a wave */

#define EDGELOG_META_INPUT       "run.input"      /* respond: the input line answered */
#define EDGELOG_META_RT          "run.rt"
#define EDGELOG_META_IDLE_STATES "run.idle_states" /* rt.idle_state as set and read back */
#define EDGELOG_META_HOST        "host.name"
#define EDGELOG_META_KERNEL      "host.kernel"
#define EDGELOG_META_MACHINE     "host.machine"
#define EDGELOG_META_PREEMPT_RT  "host.preempt_rt"
#define EDGELOG_META_CMDLINE     "host.cmdline"
#define EDGELOG_META_CPU         "host.cpu"
#define EDGELOG_META_NCPUS       "host.ncpus"
#define EDGELOG_META_BOARD_NAME  "board.name"     /* the config key board.name */
/* The wave's shape in ns (base/wave.h), written when it is not a plain 50 %
 * wave: high + low = 2 x half_period_ns; start_ns includes the phase.
 * Absent (older logs, 50 % waves): high = low = the half period, phase 0. */
#define EDGELOG_META_WAVE_HIGH   "wave.high_ns"
#define EDGELOG_META_WAVE_LOW    "wave.low_ns"
#define EDGELOG_META_WAVE_PHASE  "wave.phase_ns"
/* A run of several lines (docs/lines.md): one log per line, each with these
 * (absent from a run of one line): how many, this one's index (0-based, in
 * gpio.line's order), the mode, this log's line as gpio.line names it, and
 * every line of the run, comma-separated. */
#define EDGELOG_META_OUTPUTS_COUNT "outputs.count"
#define EDGELOG_META_OUTPUTS_INDEX "outputs.index"
#define EDGELOG_META_OUTPUTS_MODE  "outputs.mode"
#define EDGELOG_META_OUTPUTS_LINE  "outputs.line"
#define EDGELOG_META_OUTPUTS_LINES "outputs.lines"
#define EDGELOG_META_OUTPUTS_CPU   "outputs.cpu"
#define EDGELOG_META_IDLE_LEVEL  "gpio.idle_level" /* the config key: the first edge leaves it */
/* grid.clock realtime/tai (docs/grid.md): slot 0 on that clock, its offset
 * to CLOCK_MONOTONIC (the log's clock) and that offset's +/- uncertainty,
 * in ns; the kernel's sync state (adjtimex) at setup */
#define EDGELOG_META_GRID_SLOT0    "grid.slot0_ns"
#define EDGELOG_META_GRID_OFFSET   "grid.offset_ns"
#define EDGELOG_META_GRID_UNCERT   "grid.offset_uncertainty_ns"
#define EDGELOG_META_CLOCK_SYNCED  "clock.synced"
#define EDGELOG_META_CLOCK_STATE   "clock.state"
#define EDGELOG_META_CLOCK_STATUS  "clock.status"
#define EDGELOG_META_CLOCK_MAXERR  "clock.maxerror_us"
#define EDGELOG_META_CLOCK_ESTERR  "clock.esterror_us"
#define EDGELOG_META_CLOCK_TAI     "clock.tai_offset_s"

/* Metadata: the text part of the header, as key/value pairs. */
struct edgelog_meta {
	uint32_t version;
	int32_t clock_id;
	uint64_t half_period_ns;
	uint64_t start_ns;
	uint64_t start_realtime_ns;
	char *text;               /* "key=value\n"..., NUL-terminated */
	/* Reader only (the writer's are in @text): the wave's shape and the
	 * idle level, from the text or the 50 % defaults; slot k's intended
	 * time is wave_slot_ns(&wave, idle_level, start_ns, k). */
	struct wave wave;
	int idle_level;
	/* Reader only: what the pin should do (log/pin.h), from the pin.* keys
	 * or, in an older log, from what it has. Every reader takes the run's
	 * kind, the wave and the nominal widths from here. */
	struct pin pin;
};

/* Value for @key in meta->text, copied into @buf; NULL if absent. */
const char *edgelog_meta_get(const struct edgelog_meta *m, const char *key, char *buf, size_t len);

/* Whether @m is a respond log's header (run.mode=respond): its records'
 * intended times are input events, not a grid (rt/edge.h). */
bool edgelog_meta_is_respond(const struct edgelog_meta *m);

/* ---- writer: non-RT threads only ---- */
struct edgelog_writer;

/*
 * Create the log @path and write the header. A log is never destroyed and
 * never shared:
 *  - a regular file is locked (fcntl write lock, held until close); one that
 *    another process holds is refused (EBUSY) naming that process;
 *  - an existing non-empty file is first renamed aside to "PATH.~N~" (the
 *    first free N, as `cp --backup=numbered` does); its new name is copied
 *    to @kept ("" when nothing was kept; @kept may be NULL);
 *  - a FIFO or socket is refused (EINVAL) without blocking; a character
 *    device (/dev/null) is written as it is.
 * Returns NULL with errno and the reason in @err. Prints nothing.
 * Caller closes with edgelog_writer_close(). Note that a POSIX lock is
 * released when the process closes any descriptor of the file: do not open
 * the log elsewhere in the writing process.
 */
struct edgelog_writer *edgelog_writer_create(const char *path, const struct edgelog_meta *meta,
					     char *kept, size_t keptlen, char *err, size_t errlen);
/*
 * edgelog_writer_create() in two steps, for a run of several logs that
 * must refuse before it changes any of them. Reserve: open and lock @path
 * as above (every refusal above but the header's size happens here),
 * changing nothing: an existing file is left as it is, a missing one is
 * created empty. Then start (the old log kept aside, the header written;
 * -1 with errno and @err) and go on as after create, or abandon: close,
 * and remove the file only if the writer made it and it is still empty.
 * After a failed start, abandon too.
 */
struct edgelog_writer *edgelog_writer_reserve(const char *path, char *err, size_t errlen);
int edgelog_writer_start(struct edgelog_writer *w, const struct edgelog_meta *meta, char *kept,
			 size_t keptlen, char *err, size_t errlen);
void edgelog_writer_abandon(struct edgelog_writer *w);
/* Append records; -1 with errno on I/O error (ENOSPC...): records already
 * written stay readable, and edgelog_writer_error() says what failed. */
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
/* The first failure since create, as one sentence ("writing log PATH failed
 * after N records: No space left on device"); "" if none. Set once, before
 * the failing call returns: another thread may read it after that call's
 * failure is published to it (the recorder's log_error flag). */
const char *edgelog_writer_error(const struct edgelog_writer *w);
/* Write the footer (unless an I/O error happened before), fsync, close, free.
 * Returns -1 with errno and the first failure since create in @err (may be
 * NULL; "" on success). Prints nothing. */
int edgelog_writer_close(struct edgelog_writer *w, const struct edgelog_footer *f,
			 char *err, size_t errlen);

/* ---- reader: streaming, constant memory ---- */
struct edgelog_reader;

enum edgelog_status {
	EDGELOG_OK = 0,
	EDGELOG_E_IO,        /* cannot open/read: errno (exit 3) */
	EDGELOG_E_FOREIGN,   /* not a sqwave log: bad magic, a directory (exit 2) */
	EDGELOG_E_VERSION,   /* a newer format version (exit 2) */
	EDGELOG_E_CORRUPT,   /* header, record, event or footer inconsistent (exit 2) */
};

/*
 * Open and validate the header; on failure returns NULL and sets *st (and a
 * one-line reason in @err, starting with @path). Reads sequentially with
 * read() in large blocks, so a pipe works too. Caller closes with
 * edgelog_reader_close().
 */
struct edgelog_reader *edgelog_reader_open(const char *path, enum edgelog_status *st,
					   char *err, size_t errlen);
const struct edgelog_meta *edgelog_reader_meta(const struct edgelog_reader *r);

/*
 * Every record is validated (src/log/edgecheck.h: levels, seq, time order, the
 * write window, the log's grid and expirations) unless @on is false (export
 * --unchecked: a damaged log's records as they are). The framing (events,
 * footer, what follows it) is checked either way. Call before reading.
 */
void edgelog_reader_set_checked(struct edgelog_reader *r, bool on);

/*
 * Next item in file order: 1 a record in *rec, 2 an event in *ev (format 2;
 * payload valid until the next call), 0 the end (footer, end of the file,
 * or a zero-filled tail), -1 an error: bad input or I/O, said by
 * edgelog_reader_error(); errno is EBADMSG (bad input) or the I/O error.
 * Items before an error stay valid.
 */
int edgelog_reader_next_item(struct edgelog_reader *r, struct edge_rec *rec,
			     struct edgelog_event *ev);
/* Next record, events skipped (still validated): 1, 0 at the end, -1. */
int edgelog_reader_next(struct edgelog_reader *r, struct edge_rec *rec);
/* Up to @max records at once, as next() would return them (events skipped,
 * everything validated): n > 0 with *recs pointing at them inside the
 * reader (valid until its next call), 0 at the end, -1. For loops over
 * millions of records: no copy, no call per record. */
long edgelog_reader_next_batch(struct edgelog_reader *r, const struct edge_rec **recs, size_t max);
/* After -1: the reason ("PATH: record N at offset X: what"), and *st
 * EDGELOG_E_CORRUPT (bad input) or EDGELOG_E_IO; @st may be NULL. */
const char *edgelog_reader_error(const struct edgelog_reader *r, enum edgelog_status *st);

/* After the end: the footer, or NULL when the log was cut short. A footer is
 * only returned when it agrees with the file: its record count is the
 * records read, and nothing follows it (else the reader fails, CORRUPT). */
const struct edgelog_footer *edgelog_reader_footer(const struct edgelog_reader *r);
/* After the end: bytes of an incomplete last record or event (cut mid-write). */
size_t edgelog_reader_trailing_bytes(const struct edgelog_reader *r);
/* After the end: zero bytes the log ends with, where records should be (a
 * power loss: the file grew but its last blocks were never written). The log
 * counts as cut short; the zeros are not records. */
uint64_t edgelog_reader_zero_bytes(const struct edgelog_reader *r);
/* Records and events read so far; events of one @type (0: all types). */
uint64_t edgelog_reader_records(const struct edgelog_reader *r);
uint64_t edgelog_reader_events(const struct edgelog_reader *r, unsigned type);
void edgelog_reader_close(struct edgelog_reader *r);

#endif
