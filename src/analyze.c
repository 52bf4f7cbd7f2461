/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave analyze`: one edge reader over logs, edge-list CSVs and captures,
 * and the streaming analysis on top of edgestats (docs/analyze.md). */
#include "analyze.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvread.h"

/* ==== edge sources ==== */

#define CSV_CHUNK (1u << 20)     /* edge CSVs are read a chunk at a time */
#define CSV_LOOKAHEAD 64         /* rows read ahead to infer the half period */

/* Column indexes of an edge CSV; -1 when absent. */
enum csv_col {
	COL_SEQ, COL_LEVEL, COL_INTENDED, COL_MEASURED, COL_WAKE, COL_WBEGIN, COL_WEND,
	COL_EXPIRATIONS, COL_FLAGS, NCOLS
};

static const struct {
	const char *name;
	enum csv_col col;
	int scale;               /* 0: integer ns; 9: decimal seconds */
} csv_names[] = {
	{ "seq", COL_SEQ, -1 },
	{ "level", COL_LEVEL, -1 },
	{ "intended_ns", COL_INTENDED, 0 },
	{ "intended_s", COL_INTENDED, 9 },
	{ "measured_ns", COL_MEASURED, 0 },
	{ "measured_s", COL_MEASURED, 9 },
	{ "wake_ns", COL_WAKE, 0 },
	{ "write_begin_ns", COL_WBEGIN, 0 },
	{ "write_end_ns", COL_WEND, 0 },
	{ "expirations", COL_EXPIRATIONS, -1 },
	{ "flags", COL_FLAGS, -1 },
};

struct analyze_source {
	struct analyze_source_info info;
	enum analyze_status err_st;
	char err[512];
	bool failed;
	/* log */
	struct edgelog_reader *log;
	/* capture */
	struct capture *cap;
	int64_t cap_start_ps;
	uint64_t cap_seq;
	int32_t cap_lo_ns, cap_hi_ns;   /* where around an edge the line changed */
	/* a stream (stdin, a pipe) copied into a memory file */
	int spool_fd;
	char spool_path[40];
	/* edge CSV */
	FILE *f;
	char *buf;
	size_t len;              /* bytes in buf */
	size_t region;           /* bytes of buf handed to the tokenizer */
	bool eof;
	struct csvread cr;
	bool cr_live;
	char sep;
	unsigned long line_base; /* file line of the region's first line */
	int col[NCOLS];
	int scale[NCOLS];
	unsigned ncols;          /* fields in the header */
	bool have_prev;
	uint64_t prev_seq;
	uint64_t prev_t;         /* intended (or measured) of the previous row */
	struct edge_rec la[CSV_LOOKAHEAD];
	size_t la_n, la_pos;
	bool la_done;
	uint64_t prev_intended;
	bool have_prev_intended;
};

static void src_fail(struct analyze_source *s, enum analyze_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void src_fail(struct analyze_source *s, enum analyze_status st, const char *fmt, ...)
{
	va_list ap;

	if (s->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	s->err_st = st;
	s->failed = true;
}

/* ---- edge CSV ---- */

/* Hand the complete lines in buf to the tokenizer, reading more as needed.
 * Returns 1 when there is a region, 0 at the end of the file, -1 on error. */
static int csv_refill(struct analyze_source *s)
{
	size_t keep = s->len - s->region, got, end;
	const char *nl;
	unsigned long lines = 0;
	const char *p;

	/* the lines of the region just done */
	for (p = s->buf; p < s->buf + s->region && (p = memchr(p, '\n', (size_t)(s->buf + s->region - p)));
	     p++)
		lines++;
	s->line_base += lines;
	memmove(s->buf, s->buf + s->region, keep);
	s->len = keep;
	s->region = 0;
	for (;;) {
		if (!s->eof) {
			got = fread(s->buf + s->len, 1, CSV_CHUNK - s->len, s->f);
			s->len += got;
			if (got == 0) {
				if (ferror(s->f)) {
					src_fail(s, ANALYZE_E_IO, "%s: read error: %s", s->info.path,
						 strerror(errno));
					return -1;
				}
				s->eof = true;
			}
		}
		if (s->len == 0)
			return 0;
		nl = NULL;
		for (end = s->len; end > 0; end--)
			if (s->buf[end - 1] == '\n') {
				nl = s->buf + end - 1;
				break;
			}
		if (nl) {
			s->region = (size_t)(nl - s->buf) + 1;
			break;
		}
		if (s->eof) {
			s->region = s->len;
			break;
		}
		if (s->len == CSV_CHUNK) {
			src_fail(s, ANALYZE_E_INPUT, "%s:%lu: line longer than %u bytes", s->info.path,
				 s->line_base, CSV_CHUNK);
			return -1;
		}
	}
	if (csvread_init(&s->cr, s->buf, s->region, s->sep) < 0) {
		src_fail(s, ANALYZE_E_IO, "%s: %s", s->info.path, strerror(errno));
		return -1;
	}
	s->cr_live = true;
	if (!s->sep)
		s->sep = s->cr.sep;
	return 1;
}

static unsigned long csv_line(const struct analyze_source *s)
{
	return s->line_base + s->cr.line - 1;
}

/* Next row that is neither blank nor a '#' comment: fields, 0 at the end, -1. */
static int csv_row(struct analyze_source *s)
{
	int n;

	for (;;) {
		if (!s->cr_live) {
			n = csv_refill(s);
			if (n <= 0)
				return n;
		}
		n = csvread_next(&s->cr);
		if (n == CSVREAD_EOF) {
			csvread_free(&s->cr);
			s->cr_live = false;
			n = csv_refill(s);
			if (n <= 0)
				return n;
			continue;
		}
		if (n == CSVREAD_ERR) {
			src_fail(s, ANALYZE_E_INPUT, "%s:%lu: unterminated quote", s->info.path,
				 csv_line(s));
			return -1;
		}
		if (n == 0)
			continue;
		if (csvread_field(&s->cr, 0).len && csvread_field(&s->cr, 0).p[0] == '#')
			continue;
		return n;
	}
}

static int csv_header(struct analyze_source *s)
{
	int n = csv_row(s), i, k;
	char name[64];

	if (n <= 0) {
		if (!s->failed)
			src_fail(s, ANALYZE_E_INPUT, "%s: empty edge list (no header line)",
				 s->info.path);
		return -1;
	}
	for (k = 0; k < NCOLS; k++)
		s->col[k] = -1;
	s->ncols = (unsigned)n;
	for (i = 0; i < n; i++) {
		struct csv_field f = csvread_field(&s->cr, (unsigned)i);
		size_t j;

		for (j = 0; j < sizeof(csv_names) / sizeof(csv_names[0]); j++) {
			if (!csv_field_is(f, csv_names[j].name))
				continue;
			k = csv_names[j].col;
			if (s->col[k] >= 0) {
				snprintf(name, sizeof(name), "%.*s", (int)f.len, f.p);
				src_fail(s, ANALYZE_E_INPUT, "%s:%lu: column '%s' given twice",
					 s->info.path, csv_line(s), name);
				return -1;
			}
			s->col[k] = i;
			s->scale[k] = csv_names[j].scale;
		}
	}
	if (s->col[COL_SEQ] < 0 || s->col[COL_LEVEL] < 0 ||
	    (s->col[COL_MEASURED] < 0 && (s->col[COL_WBEGIN] < 0 || s->col[COL_WEND] < 0))) {
		src_fail(s, ANALYZE_E_INPUT,
			 "%s:%lu: an edge list needs the columns seq, level and measured_ns (or "
			 "measured_s); intended_ns is optional (docs/analyze.md)",
			 s->info.path, csv_line(s));
		return -1;
	}
	if (s->col[COL_MEASURED] < 0 || (s->col[COL_WAKE] >= 0 && s->col[COL_WBEGIN] >= 0 &&
					 s->col[COL_WEND] >= 0)) {
		if (s->col[COL_INTENDED] < 0) {
			src_fail(s, ANALYZE_E_INPUT, "%s:%lu: write_begin_ns/write_end_ns need "
				 "intended_ns", s->info.path, csv_line(s));
			return -1;
		}
		s->info.format = "sqwave-export-csv";
		s->info.has_window = s->col[COL_WAKE] >= 0;
	} else {
		s->info.format = "edge-csv";
	}
	s->info.has_intended = s->col[COL_INTENDED] >= 0;
	return 0;
}

/* Field @col of the current row as a time in ns (may be negative). */
static int csv_time(struct analyze_source *s, enum csv_col col, int64_t *v)
{
	struct csv_field f = csvread_field(&s->cr, (unsigned)s->col[col]);
	int rc;

	if (s->scale[col] > 0)
		rc = csv_parse_scaled(f.p, f.len, '.', s->scale[col], v);
	else
		rc = csv_parse_i64(f.p, f.len, v);
	if (rc < 0) {
		src_fail(s, ANALYZE_E_INPUT, "%s:%lu: %s: '%.*s' is not %s", s->info.path,
			 csv_line(s), col == COL_INTENDED ? "intended time" : col == COL_MEASURED ? "measured time" :
			 col == COL_WAKE ? "wake_ns" : col == COL_WBEGIN ? "write_begin_ns" : "write_end_ns",
			 (int)(f.len > 40 ? 40 : f.len), f.p,
			 s->scale[col] > 0 ? "a time in seconds" : "an integer number of ns");
		return -1;
	}
	return 0;
}

static int csv_uint(struct analyze_source *s, enum csv_col col, const char *what, int64_t max,
		    int64_t *v)
{
	struct csv_field f = csvread_field(&s->cr, (unsigned)s->col[col]);

	if (csv_parse_i64(f.p, f.len, v) < 0 || *v < 0 || *v > max) {
		src_fail(s, ANALYZE_E_INPUT, "%s:%lu: %s: '%.*s' is not an integer in 0..%" PRId64,
			 s->info.path, csv_line(s), what, (int)(f.len > 40 ? 40 : f.len), f.p, max);
		return -1;
	}
	return 0;
}

/* One data row into @e (expirations not yet inferred): 1, 0 end, -1 error. */
static int csv_parse_row(struct analyze_source *s, struct edge_rec *e)
{
	int n = csv_row(s), need = 0, k;
	int64_t seq, level, intended, measured, wb, we, wake, v;
	uint64_t t;

	if (n <= 0)
		return n;
	for (k = 0; k < NCOLS; k++)
		if (s->col[k] + 1 > need)
			need = s->col[k] + 1;
	if (n < need) {
		src_fail(s, ANALYZE_E_INPUT, "%s:%lu: %d fields, the header has %u", s->info.path,
			 csv_line(s), n, s->ncols);
		return -1;
	}
	memset(e, 0, sizeof(*e));
	if (csv_uint(s, COL_SEQ, "seq", INT64_MAX - 1, &seq) < 0 ||
	    csv_uint(s, COL_LEVEL, "level", 1, &level) < 0)
		return -1;
	if (s->have_prev && (uint64_t)seq <= s->prev_seq) {
		src_fail(s, ANALYZE_E_INPUT, "%s:%lu: seq %" PRId64 " after %" PRIu64
			 ": seq must increase", s->info.path, csv_line(s), seq, s->prev_seq);
		return -1;
	}
	if (s->col[COL_MEASURED] >= 0) {
		if (csv_time(s, COL_MEASURED, &measured) < 0)
			return -1;
		wb = we = wake = measured;
	} else {
		if (csv_time(s, COL_WBEGIN, &wb) < 0 || csv_time(s, COL_WEND, &we) < 0)
			return -1;
		measured = wb + (we - wb) / 2;
		wake = wb;
	}
	if (s->col[COL_WBEGIN] >= 0 && s->col[COL_WEND] >= 0 && s->col[COL_MEASURED] >= 0 &&
	    (csv_time(s, COL_WBEGIN, &wb) < 0 || csv_time(s, COL_WEND, &we) < 0))
		return -1;
	if (s->col[COL_WAKE] >= 0 && csv_time(s, COL_WAKE, &wake) < 0)
		return -1;
	if (s->col[COL_INTENDED] >= 0) {
		if (csv_time(s, COL_INTENDED, &intended) < 0)
			return -1;
	} else {
		intended = measured;
	}
	if (we < wb) {
		src_fail(s, ANALYZE_E_INPUT, "%s:%lu: write_end_ns is before write_begin_ns",
			 s->info.path, csv_line(s));
		return -1;
	}
	t = (uint64_t)(s->info.has_intended ? intended : measured);
	if (s->have_prev && (int64_t)(t - s->prev_t) < 0) {
		src_fail(s, ANALYZE_E_INPUT, "%s:%lu: %s time goes backwards", s->info.path,
			 csv_line(s), s->info.has_intended ? "intended" : "measured");
		return -1;
	}
	e->seq = (uint64_t)seq;
	e->level = (uint8_t)level;
	e->intended_ns = (uint64_t)intended;
	e->wake_off_ns = edge_off_clamp(wake - intended, &e->flags);
	e->write_begin_off_ns = edge_off_clamp(wb - intended, &e->flags);
	e->write_end_off_ns = edge_off_clamp(we - intended, &e->flags);
	e->expirations = 0; /* inferred later */
	if (s->col[COL_EXPIRATIONS] >= 0) {
		if (csv_uint(s, COL_EXPIRATIONS, "expirations", UINT16_MAX, &v) < 0)
			return -1;
		e->expirations = (uint16_t)(v ? v : 1);
	}
	if (s->col[COL_FLAGS] >= 0) {
		if (csv_uint(s, COL_FLAGS, "flags", UINT8_MAX, &v) < 0)
			return -1;
		e->flags |= (uint8_t)v;
	}
	s->have_prev = true;
	s->prev_seq = (uint64_t)seq;
	s->prev_t = t;
	return 1;
}

/* Read ahead to infer the half period: the smallest positive step between
 * the intended times of consecutive records. */
static int csv_lookahead(struct analyze_source *s)
{
	int64_t best = 0;
	size_t i;
	int rc = 1;

	while (s->la_n < CSV_LOOKAHEAD && (rc = csv_parse_row(s, &s->la[s->la_n])) == 1)
		s->la_n++;
	if (rc < 0)
		return -1;
	for (i = 1; i < s->la_n; i++) {
		int64_t d = (int64_t)(s->la[i].intended_ns - s->la[i - 1].intended_ns);

		if (s->la[i].seq == s->la[i - 1].seq + 1 && d > 0 && (best == 0 || d < best))
			best = d;
	}
	if (!s->info.half_period_ns && s->info.has_intended)
		s->info.half_period_ns = best;
	s->la_done = true;
	return 0;
}

static int csv_next(struct analyze_source *s, struct edge_rec *e)
{
	int rc;

	if (!s->la_done && csv_lookahead(s) < 0)
		return -1;
	if (s->la_pos < s->la_n) {
		*e = s->la[s->la_pos++];
	} else {
		rc = csv_parse_row(s, e);
		if (rc <= 0)
			return rc;
	}
	if (!e->expirations) {
		uint64_t k = 1;
		int64_t half = s->info.half_period_ns;

		if (half > 0 && s->have_prev_intended) {
			int64_t d = (int64_t)(e->intended_ns - s->prev_intended);

			k = d > half ? (uint64_t)((d + half / 2) / half) : 1;
			if (k > UINT16_MAX)
				k = UINT16_MAX;
		}
		e->expirations = (uint16_t)k;
	}
	s->prev_intended = e->intended_ns;
	s->have_prev_intended = true;
	return 1;
}

static int csv_open(struct analyze_source *s, FILE *f, int64_t half_period_ns)
{
	s->f = f;
	s->buf = malloc(CSV_CHUNK);
	if (!s->buf) {
		src_fail(s, ANALYZE_E_IO, "%s: %s", s->info.path, strerror(errno));
		return -1;
	}
	s->line_base = 1;
	s->info.kind = ANALYZE_SRC_EDGE_CSV;
	s->info.half_period_ns = half_period_ns;
	return csv_header(s);
}

/* ---- detection ---- */

/* The first line that is not blank and not a comment starts with "seq". */
static bool looks_like_edge_csv(const char *p, size_t n)
{
	const char *end = p + n;

	if (n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		while (p < le && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p < le && *p != '#')
			return le - p >= 4 && !strncasecmp(p, "seq", 3) &&
			       (p[3] == ',' || p[3] == ';' || p[3] == '\t' || p[3] == ' ' ||
				p[3] == '"');
		if (!nl)
			break;
		p = nl + 1;
	}
	return false;
}

/* A stream is refused early unless its start looks like something sqwave
 * reads: a log, an edge list or a capture. */
static int stream_sniff(const void *data, size_t len)
{
	return (len >= 8 && !memcmp(data, EDGELOG_MAGIC, 8)) || looks_like_edge_csv(data, len) ||
	       capture_probe_any(data, len);
}

/* A capture's edge uncertainty as record offsets, in whole ns outwards. The
 * offsets hold +-2.1 s: a coarser sample interval (under 0.5 Sa/s) widens the
 * bounds by that much only, and its edges still count (flagging them as
 * saturated would drop every pulse). */
static int32_t clamp_off(int64_t off)
{
	return off > INT32_MAX ? INT32_MAX : off < INT32_MIN ? INT32_MIN : (int32_t)off;
}

static void capture_edge_offsets(struct analyze_source *s)
{
	const struct capture_info *ci = s->info.capture;
	int64_t lo = -((-ci->edge_lo_ps + CAPTURE_PS_PER_NS - 1) / CAPTURE_PS_PER_NS);
	int64_t hi = (ci->edge_hi_ps + CAPTURE_PS_PER_NS - 1) / CAPTURE_PS_PER_NS;

	s->cap_lo_ns = clamp_off(lo);
	s->cap_hi_ns = clamp_off(hi);
}

struct analyze_source *analyze_source_open(const char *path, const struct analyze_source_opts *opts,
					   enum analyze_status *st, char *err, size_t errlen)
{
	static const struct analyze_source_opts none;
	struct analyze_source *s;
	char head[4096];
	size_t n;
	FILE *f;
	const char *fmt;

	if (!opts)
		opts = &none;
	fmt = opts->format;
	s = calloc(1, sizeof(*s));
	if (!s) {
		*st = ANALYZE_E_IO;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	s->info.path = path;
	s->info.has_intended = true;
	s->spool_fd = -1;
	if (capture_path_is_stream(path)) {
		/* stdin, a pipe, process substitution: held in memory (bounded), so
		 * that detection can look at the start and the reader still gets it */
		char why[512];

		s->spool_fd = capture_spool(path, CAPTURE_STREAM_MAX, stream_sniff, why, sizeof(why));
		if (s->spool_fd < 0) {
			src_fail(s, errno == EIO || errno == ENOMEM ? ANALYZE_E_IO : ANALYZE_E_INPUT, "%s",
				 why);
			goto fail;
		}
		snprintf(s->spool_path, sizeof(s->spool_path), "/proc/self/fd/%d", s->spool_fd);
		s->info.path = path = strcmp(path, "-") ? path : "<stdin>";
	}
	f = fopen(s->spool_fd >= 0 ? s->spool_path : path, "rb");
	if (!f) {
		src_fail(s, ANALYZE_E_IO, "%s: %s", path, strerror(errno));
		goto fail;
	}
	n = fread(head, 1, sizeof(head), f);
	if (ferror(f)) {
		src_fail(s, ANALYZE_E_IO, "%s: read error: %s", path, strerror(errno));
		fclose(f);
		goto fail;
	}
	if (n == 0) {
		src_fail(s, ANALYZE_E_INPUT, "%s: empty file", path);
		fclose(f);
		goto fail;
	}
	if ((!fmt && n >= 8 && !memcmp(head, EDGELOG_MAGIC, 8)) || (fmt && !strcmp(fmt, "log"))) {
		enum edgelog_status est;
		char why[512];

		fclose(f);
		s->log = edgelog_reader_open(s->spool_fd >= 0 ? s->spool_path : path, &est, why,
					     sizeof(why));
		if (!s->log) {
			src_fail(s, est == EDGELOG_E_IO ? ANALYZE_E_IO : ANALYZE_E_INPUT, "%s", why);
			goto fail;
		}
		s->info.kind = ANALYZE_SRC_LOG;
		s->info.format = "sqwave-log";
		s->info.has_window = true;
		s->info.meta = edgelog_reader_meta(s->log);
		s->info.half_period_ns = (int64_t)s->info.meta->half_period_ns;
		*st = ANALYZE_OK;
		return s;
	}
	if ((!fmt && looks_like_edge_csv(head, n)) || (fmt && !strcmp(fmt, "edges"))) {
		rewind(f);
		/* Read ahead now: the half period must be known before the
		 * statistics are set up (missed periods count in latency). */
		if (csv_open(s, f, opts->half_period_ns) < 0 || csv_lookahead(s) < 0)
			goto fail;
		*st = ANALYZE_OK;
		return s;
	}
	fclose(f);
	{
		struct capture_opts co = opts->capture;
		char why[512];

		co.format = fmt;
		s->cap = s->spool_fd >= 0 ? capture_open_fd(s->spool_fd, path, &co, why, sizeof(why))
					  : capture_open(path, &co, why, sizeof(why));
		if (!s->cap) {
			src_fail(s, errno == ENOENT || errno == EACCES || errno == EIO || errno == ENOMEM
				 ? ANALYZE_E_IO : ANALYZE_E_INPUT, "%s", why);
			goto fail;
		}
	}
	s->info.kind = ANALYZE_SRC_CAPTURE;
	s->info.capture = capture_info(s->cap);
	s->info.format = s->info.capture->format;
	s->info.has_intended = false;
	s->cap_start_ps = s->info.capture->start_ps;
	s->info.capture_start_ns = s->cap_start_ps / CAPTURE_PS_PER_NS;
	capture_edge_offsets(s);
	*st = ANALYZE_OK;
	return s;
fail:
	*st = s->err_st;
	snprintf(err, errlen, "%s", s->err);
	analyze_source_close(s);
	return NULL;
}

/* ps to ns, rounded half away from zero. */
static int64_t ps_to_ns(int64_t ps)
{
	return ps >= 0 ? (ps + CAPTURE_PS_PER_NS / 2) / CAPTURE_PS_PER_NS
		       : -((-ps + CAPTURE_PS_PER_NS / 2) / CAPTURE_PS_PER_NS);
}

static void source_end(struct analyze_source *s)
{
	s->info.ended = true;
	if (s->log) {
		s->info.footer = edgelog_reader_footer(s->log);
		s->info.truncated = !s->info.footer;
		s->info.trailing_bytes = edgelog_reader_trailing_bytes(s->log);
	}
}

int analyze_source_next(struct analyze_source *s, struct edge_rec *e)
{
	int rc;

	if (s->failed)
		return -1;
	if (s->info.ended)
		return 0;
	switch (s->info.kind) {
	case ANALYZE_SRC_LOG:
		rc = edgelog_reader_next(s->log, e);
		if (rc < 0)
			src_fail(s, ANALYZE_E_IO, "%s: read error: %s", s->info.path, strerror(errno));
		break;
	case ANALYZE_SRC_EDGE_CSV:
		rc = csv_next(s, e);
		break;
	case ANALYZE_SRC_CAPTURE: {
		struct capture_edge ce;

		rc = capture_next_edge(s->cap, &ce);
		if (rc < 0) {
			src_fail(s, ANALYZE_E_INPUT, "%s", capture_error(s->cap));
			break;
		}
		if (rc == 0)
			break;
		memset(e, 0, sizeof(*e));
		if ((ce.flags & CAPTURE_EDGE_F_AFTER_GAP) && s->cap_seq) {
			/* a skipped seq: edgestats measures no pulse across the gap */
			s->cap_seq++;
			s->info.capture_gaps++;
		}
		e->seq = s->cap_seq++;
		e->intended_ns = (uint64_t)ps_to_ns(ce.t_ps - s->cap_start_ps);
		/* the "write window" of a capture edge: where, given the sample
		 * resolution, the line really changed; pulse bounds come from it */
		e->wake_off_ns = e->write_begin_off_ns = s->cap_lo_ns;
		e->write_end_off_ns = s->cap_hi_ns;
		e->expirations = 1;
		e->level = ce.level ? 1 : 0;
		break;
	}
	default:
		rc = -1;
	}
	if (rc == 0)
		source_end(s);
	return rc;
}

const struct analyze_source_info *analyze_source_info(const struct analyze_source *s)
{
	return &s->info;
}

const char *analyze_source_error(const struct analyze_source *s, enum analyze_status *st)
{
	if (st)
		*st = s->err_st;
	return s->err;
}

void analyze_source_close(struct analyze_source *s)
{
	if (!s)
		return;
	edgelog_reader_close(s->log);
	capture_close(s->cap);
	if (s->spool_fd >= 0)
		close(s->spool_fd);
	if (s->cr_live)
		csvread_free(&s->cr);
	if (s->f)
		fclose(s->f);
	free(s->buf);
	free(s);
}

/* ==== the analysis ==== */

static void span_init(struct analyze_span *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->lat_max = INT64_MIN;
}

void analyze_span_merge(struct analyze_span *a, const struct analyze_span *b)
{
	int i;

	a->edges += b->edges;
	a->missed += b->missed;
	if (b->lat_max > a->lat_max) {
		a->lat_max = b->lat_max;
		a->lat_max_seq = b->lat_max_seq;
	}
	for (i = 0; i < 2; i++) {
		if (!b->pulses[i])
			continue;
		if (!a->pulses[i] || b->wmin[i] < a->wmin[i])
			a->wmin[i] = b->wmin[i];
		if (!a->pulses[i] || b->wmax[i] > a->wmax[i])
			a->wmax[i] = b->wmax[i];
		a->pulses[i] += b->pulses[i];
	}
}

static void span_pulse(struct analyze_span *sp, int pol, int64_t w)
{
	if (!sp->pulses[pol] || w < sp->wmin[pol])
		sp->wmin[pol] = w;
	if (!sp->pulses[pol] || w > sp->wmax[pol])
		sp->wmax[pol] = w;
	sp->pulses[pol]++;
}

struct analysis *analysis_new(const struct analyze_opts *o, const struct analyze_source_info *src)
{
	struct analysis *a = calloc(1, sizeof(*a));
	size_t i;

	if (!a)
		return NULL;
	a->o = *o;
	if (!a->o.minute_ns)
		a->o.minute_ns = 60000000000LL;
	a->src = src;
	a->pending = SIZE_MAX;
	a->bin_ns = 1000000; /* 1 ms, doubled as the data outgrows the bins */
	for (i = 0; i < ANALYZE_TIME_BINS; i++)
		span_init(&a->bins[i]);
	a->es = edgestats_new(src->half_period_ns);
	if (!a->es || stats_linhist_init(&a->hist, a->o.hist_buckets ? a->o.hist_buckets : 1, 1000, 64))
		goto fail;
	if (a->o.worst_n && !(a->worst = calloc(a->o.worst_n, sizeof(*a->worst))))
		goto fail;
	if (a->o.missed_list && !(a->missed = calloc(a->o.missed_list, sizeof(*a->missed))))
		goto fail;
	return a;
fail:
	analysis_free(a);
	errno = ENOMEM;
	return NULL;
}

void analysis_free(struct analysis *a)
{
	if (!a)
		return;
	edgestats_free(a->es);
	stats_linhist_free(&a->hist);
	free(a->worst);
	free(a->missed);
	free(a->minutes);
	free(a);
}

void analysis_set_edge_cb(struct analysis *a,
			  void (*cb)(void *ctx, const struct edge_rec *e,
				     const struct edgestats_pulse *before,
				     const struct edgestats_pulse *after),
			  void *ctx)
{
	a->edge_cb = cb;
	a->edge_ctx = ctx;
}

/* ---- worst-N: a min-heap on score, ties keep the earlier edge ---- */

static bool worse(const struct analyze_worst *x, const struct analyze_worst *y)
{
	return x->score_ns > y->score_ns || (x->score_ns == y->score_ns && x->seq < y->seq);
}

static void heap_swap(struct analyze_worst *h, size_t i, size_t j)
{
	struct analyze_worst t = h[i];

	h[i] = h[j];
	h[j] = t;
}

/* Returns where the new element ends up. */
static size_t worst_offer(struct analysis *a, const struct analyze_worst *w)
{
	struct analyze_worst *h = a->worst;
	size_t i, n = a->nworst;

	if (n < a->o.worst_n) {
		i = a->nworst++;
		h[i] = *w;
		while (i > 0 && worse(&h[(i - 1) / 2], &h[i])) {
			heap_swap(h, i, (i - 1) / 2);
			i = (i - 1) / 2;
		}
		return i;
	}
	if (!worse(w, &h[0]))
		return SIZE_MAX;
	h[0] = *w;
	i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < n && worse(&h[m], &h[l]))
			m = l;
		if (r < n && worse(&h[m], &h[r]))
			m = r;
		if (m == i)
			return i;
		heap_swap(h, i, m);
		i = m;
	}
}

/* ---- time spans ---- */

static struct analyze_span *minute_row(struct analysis *a, uint64_t t)
{
	uint64_t idx;

	if (a->min_cached && t - a->min_lo < (uint64_t)a->o.minute_ns)
		return &a->minutes[a->min_idx];
	idx = t / (uint64_t)a->o.minute_ns;

	/* about 2 years of minutes; beyond that a time is corrupt, not a run */
	if (idx >= (1u << 20)) {
		a->timeline_beyond++;
		return NULL;
	}
	if (idx >= a->nminutes) {
		if (idx >= a->cap_minutes) {
			size_t cap = a->cap_minutes ? a->cap_minutes : 64;
			struct analyze_span *m;

			while (cap <= idx)
				cap *= 2;
			m = realloc(a->minutes, cap * sizeof(*m));
			if (!m) {
				a->timeline_beyond++;
				return NULL;
			}
			a->minutes = m;
			a->cap_minutes = cap;
		}
		while (a->nminutes <= idx)
			span_init(&a->minutes[a->nminutes++]);
	}
	a->min_cached = true;
	a->min_idx = idx;
	a->min_lo = idx * (uint64_t)a->o.minute_ns;
	return &a->minutes[idx];
}

static struct analyze_span *plot_bin(struct analysis *a, uint64_t t)
{
	uint64_t idx;

	if (a->bin_cached && t - a->bin_lo < (uint64_t)a->bin_ns)
		return &a->bins[a->bin_idx];
	if (t > (uint64_t)INT64_MAX / 2)
		return NULL;
	idx = t / (uint64_t)a->bin_ns;
	while (idx >= ANALYZE_TIME_BINS) {
		size_t i;

		for (i = 0; i < ANALYZE_TIME_BINS / 2; i++) {
			struct analyze_span m = a->bins[2 * i];

			analyze_span_merge(&m, &a->bins[2 * i + 1]);
			a->bins[i] = m;
		}
		for (; i < ANALYZE_TIME_BINS; i++)
			span_init(&a->bins[i]);
		a->bin_ns *= 2;
		idx = t / (uint64_t)a->bin_ns;
	}
	if (idx + 1 > a->nbins)
		a->nbins = idx + 1;
	a->bin_cached = true;
	a->bin_idx = idx;
	a->bin_lo = idx * (uint64_t)a->bin_ns;
	return &a->bins[idx];
}

/* Time since the first edge; a time before it counts as 0. */
static uint64_t since_first(const struct analysis *a, uint64_t intended)
{
	int64_t d = (int64_t)(intended - a->first.intended_ns);

	return d > 0 ? (uint64_t)d : 0;
}

void analysis_add(struct analysis *a, const struct edge_rec *e)
{
	struct edgestats_pulse p;
	enum edgestats_polarity pol = EDGESTATS_POS;
	bool hp;
	uint64_t t;
	struct analyze_span *m, *b;
	int64_t lat = edgestats_wake_latency(e, a->src->half_period_ns);

	edgestats_add(a->es, e);
	hp = edgestats_last_pulse(a->es, &p, &pol);
	if (!a->have_edge) {
		a->first = *e;
		a->have_edge = true;
	}
	a->last = *e;

	if (a->edge_cb) {
		if (a->cb_have)
			a->edge_cb(a->edge_ctx, &a->cb_edge, a->cb_has_before ? &a->cb_before : NULL,
				   hp ? &p : NULL);
		a->cb_edge = *e;
		a->cb_have = true;
		a->cb_has_before = hp;
		a->cb_before = p;
	}
	if (a->pending != SIZE_MAX) {
		/* the heap has not moved since the previous edge went in */
		if (hp) {
			a->worst[a->pending].has_after = true;
			a->worst[a->pending].after_ns = p.width_ns;
		}
		a->pending = SIZE_MAX;
	}
	if (e->flags & EDGE_F_WARMUP)
		return;

	t = since_first(a, e->intended_ns);
	m = minute_row(a, t);
	b = plot_bin(a, t);
	if (m)
		m->edges++;
	if (b)
		b->edges++;
	if (e->expirations > 1) {
		uint32_t n = e->expirations - 1u;

		if (a->nmissed < a->o.missed_list) {
			a->missed[a->nmissed].seq = e->seq;
			a->missed[a->nmissed].intended_ns = e->intended_ns;
			a->missed[a->nmissed].periods = n;
			a->nmissed++;
		}
		a->missed_events++;
		if (m)
			m->missed += n;
		if (b)
			b->missed += n;
	}
	if (a->src->has_intended) {
		if (m && lat > m->lat_max) {
			m->lat_max = lat;
			m->lat_max_seq = e->seq;
		}
		if (b && lat > b->lat_max) {
			b->lat_max = lat;
			b->lat_max_seq = e->seq;
		}
		if (!a->o.hist_of_width)
			stats_linhist_add_at(&a->hist, lat, e->seq);
	}
	if (hp) {
		uint64_t tp = since_first(a, p.at.intended_ns);
		int ip = pol == EDGESTATS_POS ? 0 : 1;

		m = minute_row(a, tp);
		if (m)
			span_pulse(m, ip, p.width_ns);
		b = plot_bin(a, tp);
		if (b)
			span_pulse(b, ip, p.width_ns);
		if (a->o.hist_of_width || !a->src->has_intended)
			stats_linhist_add_at(&a->hist, p.width_ns, p.at.seq);
	}
	if (a->o.worst_n) {
		struct analyze_worst w = {
			.seq = e->seq,
			.intended_ns = e->intended_ns,
			.latency_ns = lat,
			.level = e->level,
			.has_before = hp,
			.before_ns = hp ? p.width_ns : 0,
		};
		bool rank = true;

		if (a->src->has_intended) {
			w.score_ns = lat;
		} else if (hp) {
			int ip = pol == EDGESTATS_POS ? 0 : 1;
			double mean = a->wn[ip] ? a->wsum[ip] / (double)a->wn[ip] : (double)p.width_ns;

			w.score_ns = (int64_t)llround(fabs((double)p.width_ns - mean));
		} else {
			rank = false;
		}
		if (rank)
			a->pending = worst_offer(a, &w);
	}
	if (hp) {
		int ip = pol == EDGESTATS_POS ? 0 : 1;

		a->wsum[ip] += (double)p.width_ns;
		a->wn[ip]++;
	}
}

static int worst_cmp(const void *x, const void *y)
{
	const struct analyze_worst *a = x, *b = y;

	return worse(a, b) ? -1 : worse(b, a) ? 1 : 0;
}

void analysis_finish(struct analysis *a)
{
	if (a->finished)
		return;
	if (a->edge_cb && a->cb_have)
		a->edge_cb(a->edge_ctx, &a->cb_edge, a->cb_has_before ? &a->cb_before : NULL, NULL);
	a->cb_have = false;
	a->pending = SIZE_MAX;
	if (a->nworst)
		qsort(a->worst, a->nworst, sizeof(*a->worst), worst_cmp);
	a->finished = true;
}

const struct edgestats_result *analysis_stats(const struct analysis *a)
{
	return edgestats_result(a->es);
}

double analysis_duty_cycle(const struct analysis *a)
{
	const struct edgestats_result *r = edgestats_result(a->es);
	double pos = stats_moments_mean(&r->width[EDGESTATS_POS].h.m);
	double neg = stats_moments_mean(&r->width[EDGESTATS_NEG].h.m);

	if (isnan(pos) || isnan(neg) || pos + neg <= 0)
		return NAN;
	return pos / (pos + neg);
}

bool analysis_partial(const struct analysis *a, int64_t *head_ns, int *head_level,
		      int64_t *tail_ns, int *tail_level)
{
	const struct capture_info *ci = a->src->capture;
	int64_t end_ns;

	if (!ci || !a->have_edge || !a->src->ended)
		return false;
	end_ns = ps_to_ns(ci->end_ps - ci->start_ps);
	*head_ns = (int64_t)a->first.intended_ns;
	*head_level = a->first.level ? 0 : 1;
	*tail_ns = end_ns - (int64_t)a->last.intended_ns;
	*tail_level = a->last.level;
	return true;
}
