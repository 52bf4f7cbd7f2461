/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave analyze`: edge sources (log, edge-list CSV, a registered kind such
 * as captures) behind one reader, and the streaming analysis of their edges
 * (docs/analyze.md). */
#ifndef SQW_ANALYZE_H
#define SQW_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "log/edge.h"
#include "log/edgelog.h"
#include "stats/edgestats.h"
#include "stats/phasestats.h"
#include "base/stats.h"
#include "stats/verdict.h"
#include "stats/windows.h"

/*
 * ---- edge sources ----
 *
 * Every source yields struct edge_rec, so one set of statistics (edgestats)
 * serves all of them:
 *  - a sqwave log: the records as logged;
 *  - an edge-list CSV: intended time and offsets from its columns (a plain
 *    list has one measured time: wake-up, write begin and write end are all
 *    that time);
 *  - a source of the registered kind (below; the binary registers captures):
 *    intended_ns is the edge time (in ns from the source's start, its
 *    origin_ns in its own time base), offsets its edge window. A gap in the
 *    data skips one seq, so the pulse across it is not measured.
 * Sources read in constant memory. One thread per source. Each kind is one
 * row of an ops table in analyze.c (open, next, an optional batch read, end,
 * close) behind this one interface; the registered kind is the last row,
 * and captures have their formats behind capture_ops (docs/design.md: why
 * two levels).
 */
enum analyze_kind {
	ANALYZE_SRC_LOG,
	ANALYZE_SRC_EDGE_CSV,
	ANALYZE_SRC_REGISTERED,     /* the kind of analyze_kind_register() */
};

enum analyze_status {
	ANALYZE_OK = 0,
	ANALYZE_E_INPUT,     /* foreign, corrupt or malformed input: exit 2 */
	ANALYZE_E_IO,        /* cannot open or read: exit 3 */
};

/*
 * ---- the registered kind ----
 *
 * Logs and edge lists are analyze's own. One more kind of source can be
 * registered by the program that links it (sqwave's command layer
 * registers the captures: capture/capture_source.h, cmd/sources.c). It
 * takes every file the log and edge-list readers do not claim and every
 * --format other than "log" and "edges"; with none registered such a file
 * is refused as bad input ("this build of sqwave reads no captures").
 *
 * The hooks use no type of analysis/ (the kind's state is a void *), so a
 * kind may live in a layer below it. The kind owns its state from open()
 * to close(); analyze calls the hooks of one source from one thread at a
 * time, and the documents' hooks (text, json, title) until the source is
 * closed. Every hook but the optional probe is required.
 */
struct json_writer;
struct analyze_kind_ops {
	/* the JSON's source.kind, and the name of the member that describes it */
	const char *name;
	/* The first bytes of a stream (up to 64 KiB): may they be this kind's?
	 * 0 refuses the stream before it is read to its bound. */
	int (*probe)(const void *data, size_t len);
	/* Open @path, or @fd when >= 0 (a stream held in memory, the caller's:
	 * read from offset 0 during the call only); @name is the source in
	 * messages and descriptions ("<stdin>"), @format --format (NULL:
	 * detect), @opts analyze_source_opts.kind_opts (NULL: the defaults).
	 * The state, or NULL with one sentence in @err and *@io true for an
	 * I/O cause (exit 3), false for bad input (exit 2). */
	void *(*open)(const char *path, int fd, const char *name, const char *format,
		      const void *opts, bool *io, char *err, size_t errlen);
	/* What open found: the format's name (the kind's, valid until close),
	 * the source's own time of edge time 0 (ns), and where around an
	 * edge's time the line changed: [t + *edge_lo_ns, t + *edge_hi_ns]
	 * (lo <= 0 <= hi; edgestats takes the pulse bounds from it). */
	void (*describe)(const void *state, const char **format, int64_t *origin_ns,
			 int64_t *edge_lo_ns, int64_t *edge_hi_ns);
	/* The next edge in time order (see "edge sources"): 1, 0 at the end,
	 * -1 on an error (then error()). */
	int (*next)(void *state, struct edge_rec *e);
	/* After next() returned -1: the sentence, and whether it is I/O. */
	const char *(*error)(const void *state, bool *io);
	/* After next() returned 0: the end of the data (ns from edge time 0)
	 * and the places without data (gaps). */
	void (*end)(const void *state, int64_t *end_ns, uint64_t *gaps);
	void (*close)(void *state);
	/* The documents: the text report's lines after "file" (each ends in
	 * a newline), the members of its JSON object (source.NAME), the SVG's
	 * subtitle (one line into @buf). */
	void (*text)(FILE *f, const void *state);
	void (*json)(struct json_writer *w, const void *state);
	void (*title)(const void *state, char *buf, size_t len);
};

/* Register @ops (NULL: none) as the kind of every source that is neither a
 * log nor an edge list; one at a time, a second replaces the first. The
 * caller keeps @ops alive. Call from the main thread before any source is
 * opened (not thread-safe). */
void analyze_kind_register(const struct analyze_kind_ops *ops);
/* The registered kind, or NULL. */
const struct analyze_kind_ops *analyze_kind_registered(void);

struct analyze_source_opts {
	/* NULL: detect. "log", "edges" (edge-list CSV), or a name of the
	 * registered kind's (a capture format) */
	const char *format;
	/* the registered kind's own options (captures: struct capture_opts,
	 * whose format is the one above); NULL: its defaults */
	const void *kind_opts;
	int64_t half_period_ns;  /* edge CSV without expirations: 0 = infer */
};

struct analyze_source_info {
	enum analyze_kind kind;
	const char *path;
	const char *format;         /* "sqwave-log", "sqwave-export-csv",
				     * "edge-csv", or the registered kind's format */
	bool has_intended;          /* intended times exist: latency, missed periods */
	bool has_window;            /* wake-up and write window exist: write cost */
	int64_t half_period_ns;     /* 0 when unknown */
	bool half_period_inferred;  /* edge list: from its intended times, not given */
	/* log: header and metadata; NULL otherwise */
	const struct edgelog_meta *meta;
	/* What the pin should do (log/pin.h): a log's own; an edge list's or a
	 * capture's, a 50 % wave of half_period_ns when it is known, else a
	 * wave without nominal widths. Every figure's nominal comes from here. */
	struct pin pin;
	bool respond;               /* a respond log (edgelog_meta_is_respond()) */
	const char *open_path;      /* where the data can be opened again (a spooled
				     * stream: its memory file); == path otherwise */
	/* after the last edge (analyze_source_next() returned 0): */
	bool ended;
	bool truncated;             /* log without footer */
	size_t trailing_bytes;      /* of a partial last record */
	uint64_t zero_bytes;        /* log: zero-filled tail (power loss), cut short */
	uint64_t events;            /* log: event records read (format 2) */
	const struct edgelog_footer *footer; /* log with footer, else NULL */
	/* a source of the registered kind (ANALYZE_SRC_REGISTERED); else NULL and 0: */
	const struct analyze_kind_ops *kind_ops; /* its kind, whose hooks describe it */
	const void *kind_state;     /* the kind's state, for those hooks */
	int64_t origin_ns;          /* its own time of edge time 0: times are shown there */
	bool has_edge_window;       /* edge_lo_ns, edge_hi_ns say where around an */
	int64_t edge_lo_ns, edge_hi_ns; /* edge's time the line changed */
	bool has_end;               /* after the end: */
	int64_t end_ns;             /* the end of its data, ns from edge time 0 */
	uint64_t gaps;              /* places without data (edges after a gap) */
};

/*
 * Open @path (@opts may be NULL). Returns NULL with *st set and a one-line
 * reason in @err ("FILE:LINE: what" for a malformed edge CSV). Caller closes
 * with analyze_source_close().
 */
struct analyze_source *analyze_source_open(const char *path, const struct analyze_source_opts *opts,
					   enum analyze_status *st, char *err, size_t errlen);
/* Next edge: 1, 0 at the end, -1 on an error (reason and status through
 * analyze_source_error(); edges before it stay valid). */
int analyze_source_next(struct analyze_source *s, struct edge_rec *e);
/* Sources that can lend records in batches (logs): up to @max records at
 * *@recs, valid until the next call; <= 0 at the end or on an error (then
 * analyze_source_next() says which). 0 for sources that cannot. */
long analyze_source_next_batch(struct analyze_source *s, const struct edge_rec **recs, size_t max);
bool analyze_source_batched(const struct analyze_source *s);
const struct analyze_source_info *analyze_source_info(const struct analyze_source *s);
/* The value of the log's metadata @key (EDGELOG_META_*) into @buf, NULL
 * when the source is not a log or the value is absent or empty. */
const char *analyze_source_meta(const struct analyze_source_info *si, const char *key, char *buf,
				size_t len);
/* After next() returned -1: the reason, and whether it is bad input or I/O. */
const char *analyze_source_error(const struct analyze_source *s, enum analyze_status *st);
void analyze_source_close(struct analyze_source *s);

/* ---- the analysis ---- */

#define ANALYZE_WORST_DEFAULT 10
#define ANALYZE_MISSED_LIST_DEFAULT 100
#define ANALYZE_HIST_BUCKETS_DEFAULT 1000 /* 1 us buckets: 0 .. 999 us */
#define ANALYZE_TIME_BINS 512             /* for plots over time */
#define ANALYZE_TIMELINE_ROW_DEFAULT_NS INT64_C(60000000000) /* a minute */

struct analyze_opts {
	unsigned worst_n;         /* N worst edges kept (0: none) */
	unsigned missed_list;     /* missed-period events listed (0: none) */
	size_t hist_buckets;      /* 1 us buckets of the linear histogram */
	bool hist_of_width;       /* histogram of pulse widths, not latency */
	int64_t minute_ns;        /* timeline row length; 0: ANALYZE_TIMELINE_ROW_DEFAULT_NS */
	unsigned threads;         /* analysis_feed(): 0 as useful (2 for a log), 1 one */
	/* the persistence view triggered on the intended times (sources that
	 * have them), not on the pin's rising edge as a scope is (the default) */
	bool persist_intended;
	int64_t window_ns;        /* the long view's window (windows.h); 0: WINDOWS_DEFAULT_NS */
};

/* An edge among the N worst. For sources with intended times, ranked by
 * wake latency; for captures by how far the pulse ending at the edge is from
 * that polarity's mean width so far (its "score"). */
struct analyze_worst {
	uint64_t seq;
	uint64_t intended_ns;
	int64_t latency_ns;       /* wake - intended (has_intended) */
	int64_t score_ns;         /* what it is ranked by */
	uint8_t level;            /* written at this edge */
	bool has_before, has_after;
	int64_t before_ns, after_ns; /* pulse ending / starting at this edge */
};

/* A read that found more than one timer expiration. */
struct analyze_missed {
	uint64_t seq;             /* the edge written late */
	uint64_t intended_ns;
	uint64_t periods;         /* slots without an edge before this one (the real count) */
};

/* One row of the timeline (a minute) or one plot bin. */
struct analyze_span {
	uint64_t edges;           /* counted edges starting in it */
	uint64_t missed;          /* missed periods */
	uint64_t pulses[2];       /* counted pulses starting in it, + and - */
	int64_t lat_max;          /* INT64_MIN when no latency */
	uint64_t lat_max_seq;
	int64_t wmin[2], wmax[2]; /* pulse widths, + and -; valid when pulses[i] */
};

struct analysis {
	struct analyze_opts o;
	const struct analyze_source_info *src;
	struct edgestats *es;
	/* the linear histogram (latency, or widths): cyclictest -h */
	struct stats_linhist hist;
	/* first and last edge of all (warm-up included), counted */
	bool have_edge;
	struct edge_rec first, last;
	uint64_t missed_events;
	struct analyze_missed *missed; /* first o.missed_list events */
	size_t nmissed;
	/* worst: a min-heap on score while adding, sorted by analysis_finish() */
	struct analyze_worst *worst;
	size_t nworst;
	size_t pending;           /* index in worst[] of the last edge, awaiting its after pulse; SIZE_MAX: none */
	/* per-polarity running sums of widths, for capture scores */
	double wsum[2];
	uint64_t wn[2];
	uint64_t timeline_beyond;  /* edges too far from the first for the timeline */
	/* timeline: one row per minute, grows (80 bytes a minute: a week is 0.8 MB) */
	struct analyze_span *minutes;
	size_t nminutes, cap_minutes;
	bool min_cached;          /* the row last used, to skip a division per edge */
	size_t min_idx;
	uint64_t min_lo;
	/* plot bins: ANALYZE_TIME_BINS of bin_ns; pairs merge when time outgrows them */
	struct analyze_span bins[ANALYZE_TIME_BINS];
	int64_t bin_ns;
	size_t nbins;
	bool bin_cached;          /* as min_cached */
	size_t bin_idx;
	uint64_t bin_lo;
	/* per-edge callback: each edge with the pulses on both sides, one edge late */
	void (*edge_cb)(void *ctx, const struct edge_rec *e, int64_t latency_ns,
			const struct edgestats_pulse *before, const struct edgestats_pulse *after);
	void *edge_ctx;
	bool cb_have;
	struct edge_rec cb_edge;
	int64_t cb_lat;
	bool cb_has_before;
	struct edgestats_pulse cb_before;
	bool finished;
	/* the first counted edge (after the warm-up) */
	bool have_counted;
	uint64_t first_counted_ns;
	/* the limits pulses are counted against (analysis_set_limits(); 0:
	 * none) and what broke them: pulses whose bounds are outside, as the
	 * verdict checks, and wake-ups later than the limit */
	int64_t lim_tmin_ns, lim_tmax_ns, lim_wake_ns;
	uint64_t pulses_below, pulses_above, wakes_above;
	/* limits.width_error (analysis_set_width_limit(); 0: none): pulses whose
	 * bounds leave their own polarity's nominal width by more */
	int64_t lim_width_error_ns;
	uint64_t pulses_off;
	/* figures per window, the worst window, crossings (windows.h) */
	struct windows *win;
	/* every period overlaid on its rising edge (persist.h) */
	struct persist *persist;
	/* analysis_verdict(): "PASS", "FAIL", "NO LIMITS" (NULL: not judged),
	 * and the violations, one a line */
	const char *verdict;
	bool limits_set;
	char verdict_why[2048];
	/* a soak's log: per-phase statistics (fed with the rest) and what the
	 * run's summary shows of its phases and loads; NULL for other sources */
	struct phasestats *ps;
	const struct run_info *soak;
	const struct soakview *sv;
	/* analysis_feed() runs edgestats in another thread: keep its memory
	 * (allocated just after) off the cache lines this thread writes */
	char pad_[128];
};

/* Add @b's edges, pulses and extremes into @a. */
void analyze_span_merge(struct analyze_span *a, const struct analyze_span *b);

/* Allocate; NULL with errno. @src must outlive the analysis (its end fields
 * are read by the reports). Free with analysis_free(). */
struct analysis *analysis_new(const struct analyze_opts *o, const struct analyze_source_info *src);
void analysis_free(struct analysis *a);
/* Called for every edge, with its wake latency (missed periods included:
 * edgestats_wake_latency_missed()) and the pulse before and after it (NULL
 * when not counted), one edge late; the last edge at analysis_finish(). */
void analysis_set_edge_cb(struct analysis *a,
			  void (*cb)(void *ctx, const struct edge_rec *e, int64_t latency_ns,
				     const struct edgestats_pulse *before,
				     const struct edgestats_pulse *after),
			  void *ctx);
/* A soak's log (soakview.h): per-phase statistics in @ps (fed by the
 * analysis), and the phases, loads and proof for the reports (@ri's phases
 * point into @ps and @sv). All stay the caller's, alive until the reports
 * are written. */
struct soakview;
struct run_info;
struct persist;
void analysis_set_soak(struct analysis *a, struct phasestats *ps, const struct soakview *sv,
		       const struct run_info *ri);
/* Count pulses and wake-ups against limits (0: none), before feeding. */
void analysis_set_limits(struct analysis *a, int64_t tmin_ns, int64_t tmax_ns, int64_t wake_ns);
/* limits.width_error (0: none): pulses counted off their nominal, before feeding. */
void analysis_set_width_limit(struct analysis *a, int64_t width_error_ns);
/* A respond log's limits.response_max (0: none), for the windows' crossings. */
void analysis_set_response_limit(struct analysis *a, int64_t response_ns);
/* Feed one edge in order. No allocation except one timeline row a minute. */
void analysis_add(struct analysis *a, const struct edge_rec *e);
/* Every edge of @s into @a, as analysis_add() would, until the end (0) or an
 * error of the source (-1: analyze_source_error()). A log is read,
 * validated and fed to edgestats in a second thread while the caller's does
 * the rest (the callback runs in the caller's thread). */
int analysis_feed(struct analysis *a, struct analyze_source *s);
/* After the last edge: flushes the callback, sorts the worst list. */
void analysis_finish(struct analysis *a);
const struct edgestats_result *analysis_stats(const struct analysis *a);

/*
 * After analysis_finish(): the verdict against the limits.* of @c, kept in
 * a->verdict and a->verdict_why for the reports. A log is judged as its run
 * was, once (verdict_result_compute(): @ri carries what its header and
 * footer say, its phases and loads); other sources against the limits only,
 * with the count of pulses and wake-ups beyond them. Returns the verdict (a
 * log out of memory: not judged, a->verdict NULL, VERDICT_NO_LIMITS).
 */
struct config;
enum verdict analysis_verdict(struct analysis *a, const struct config *c,
				      const struct run_info *ri);

/* Counted edges and period/duty helpers for the reports. NaN when unknown. */
double analysis_duty_cycle(const struct analysis *a);
/* Records dropped (ring overflow): the log footer's count when it says more
 * than the gaps in seq (drops after the last record leave none); *at_end
 * those after the last record. 0 for the registered kind (captures), whose
 * seq gaps are its gaps. */
uint64_t analysis_dropped(const struct analysis *a, uint64_t *at_end);
/* Partial segments of a source that knows its end (a capture): the time
 * from its start to the first edge and from the last edge to its end (ns);
 * false for other sources. */
bool analysis_partial(const struct analysis *a, int64_t *head_ns, int *head_level,
		      int64_t *tail_ns, int *tail_level);

/* The documents of an analysis (text, JSON, CSV) are report/analysisdoc.h's. */

#endif
