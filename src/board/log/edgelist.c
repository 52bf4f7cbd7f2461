/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The edge-list CSV reader (docs/analyze.md, "Edge-list CSV"): a chunk of the
 * file at a time through csvread, every row validated by edgecheck. */
#include "log/edgelist.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/csvread.h"
#include "log/edgecheck.h"
#include "log/edgelog.h"

#define CSV_CHUNK (1u << 20)     /* read a chunk at a time */
#define CSV_LOOKAHEAD 64         /* rows read ahead to infer the half period */

const struct edgelist_name edgelist_names[] = {
	{ "seq", EDGELIST_SEQ, -1 },
	{ "level", EDGELIST_LEVEL, -1 },
	{ "intended_ns", EDGELIST_INTENDED, 0 },
	{ "intended_s", EDGELIST_INTENDED, 9 },
	{ "measured_ns", EDGELIST_MEASURED, 0 },
	{ "measured_s", EDGELIST_MEASURED, 9 },
	{ "wake_ns", EDGELIST_WAKE, 0 },
	{ "write_begin_ns", EDGELIST_WBEGIN, 0 },
	{ "write_end_ns", EDGELIST_WEND, 0 },
	{ "expirations", EDGELIST_EXPIRATIONS, -1 },
	{ "flags", EDGELIST_FLAGS, -1 },
	{ "loopback_ns", EDGELIST_LOOPBACK, 0 },
	{ "loopback_from_begin_ns", EDGELIST_LB_FROM_BEGIN, 0 },
	{ "loopback_from_end_ns", EDGELIST_LB_FROM_END, 0 },
};
const size_t edgelist_nnames = sizeof(edgelist_names) / sizeof(edgelist_names[0]);

const char edgelist_export_header[] =
	"seq,level,intended_ns,wake_ns,write_begin_ns,write_end_ns,expirations,flags\n";
const char edgelist_export_header_loopback[] =
	"seq,level,intended_ns,wake_ns,write_begin_ns,write_end_ns,expirations,flags,"
	"loopback_ns,loopback_from_begin_ns,loopback_from_end_ns\n";

/* ---- sniffing ---- */

enum edgelist_sniff edgelist_sniff(const char *p, size_t n)
{
	const char *end = p + n;

	if (n >= 8 && !memcmp(p, EDGELOG_MAGIC, 8))
		return EDGELIST_SNIFF_LOG;
	if (n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		while (p < le && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p < le && *p != '#') {
			/* the first column, quoted or not */
			if (*p == '"')
				p++;
			return le - p >= 4 && !strncasecmp(p, "seq", 3) &&
			       (p[3] == ',' || p[3] == ';' || p[3] == '\t' || p[3] == ' ' || p[3] == '"')
			       ? EDGELIST_SNIFF_CSV : EDGELIST_SNIFF_OTHER;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return EDGELIST_SNIFF_OTHER;
}

/* ---- the reader ---- */

struct edgelist {
	struct edgelist_info info;
	const char *path;
	FILE *f;
	char *buf;
	size_t len;              /* bytes in buf */
	size_t region;           /* bytes of buf handed to the tokenizer */
	bool eof;
	struct csvread cr;
	bool cr_live;
	char sep;
	unsigned long line_base; /* file line of the region's first line */
	int col[EDGELIST_NCOLS];
	int scale[EDGELIST_NCOLS];
	unsigned ncols;          /* fields in the header */
	int need;                /* fields a row must have */
	/* the rows read ahead, and their lines */
	struct edge_rec la[CSV_LOOKAHEAD];
	unsigned long la_line[CSV_LOOKAHEAD];
	size_t la_n, la_pos;
	bool have_prev_intended;
	uint64_t prev_intended;
	struct edgecheck chk;
	bool failed;
	enum edgelist_status err_st;
	char err[512];
};

static int el_fail(struct edgelist *l, enum edgelist_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int el_fail(struct edgelist *l, enum edgelist_status st, const char *fmt, ...)
{
	va_list ap;

	if (!l->failed) {
		va_start(ap, fmt);
		vsnprintf(l->err, sizeof(l->err), fmt, ap);
		va_end(ap);
		l->err_st = st;
		l->failed = true;
	}
	return -1;
}

/* The separator of the header line (the first that is neither blank nor a
 * '#' comment): a comment line must not decide it. 0 (let csvread guess)
 * when there is no such line yet. */
static char header_sep(const char *p, size_t n)
{
	const char *end = p + n;

	if (n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end, *q;
		bool quoted = false;
		char best = 0;

		while (p < le && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p < le && *p != '#') {
			for (q = p; q < le; q++) {
				if (*q == '"')
					quoted = !quoted;
				else if (!quoted && (*q == ',' || *q == ';' || *q == '\t') &&
					 (!best || *q == ','))
					best = *q;
			}
			return best;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

/* Hand the complete lines in buf to the tokenizer, reading more as needed.
 * Returns 1 when there is a region, 0 at the end of the file, -1 on error. */
static int refill(struct edgelist *l)
{
	size_t keep = l->len - l->region, got, end;
	const char *nl, *p;
	unsigned long lines = 0;

	/* the lines of the region just done */
	for (p = l->buf; p < l->buf + l->region &&
	     (p = memchr(p, '\n', (size_t)(l->buf + l->region - p))); p++)
		lines++;
	l->line_base += lines;
	memmove(l->buf, l->buf + l->region, keep);
	l->len = keep;
	l->region = 0;
	for (;;) {
		if (!l->eof) {
			got = fread(l->buf + l->len, 1, CSV_CHUNK - l->len, l->f);
			l->len += got;
			if (got == 0) {
				if (ferror(l->f))
					return el_fail(l, EDGELIST_E_IO, "%s: read error: %s", l->path,
						       strerror(errno));
				l->eof = true;
			}
		}
		if (l->len == 0)
			return 0;
		nl = NULL;
		for (end = l->len; end > 0; end--)
			if (l->buf[end - 1] == '\n') {
				nl = l->buf + end - 1;
				break;
			}
		if (nl) {
			l->region = (size_t)(nl - l->buf) + 1;
			break;
		}
		if (l->eof) {
			l->region = l->len;
			break;
		}
		if (l->len == CSV_CHUNK)
			return el_fail(l, EDGELIST_E_INPUT, "%s:%lu: line longer than %u bytes",
				       l->path, l->line_base, CSV_CHUNK);
	}
	if (!l->sep)
		l->sep = header_sep(l->buf, l->region);
	if (csvread_init(&l->cr, l->buf, l->region, l->sep) < 0)
		return el_fail(l, EDGELIST_E_IO, "%s: %s", l->path, strerror(errno));
	l->cr_live = true;
	if (!l->sep)
		l->sep = l->cr.sep;
	return 1;
}

static unsigned long cur_line(const struct edgelist *l)
{
	return l->line_base + l->cr.line - 1;
}

/* Next row that is neither blank nor a '#' comment: fields, 0 at the end, -1. */
static int next_row(struct edgelist *l)
{
	int n;

	for (;;) {
		if (!l->cr_live) {
			n = refill(l);
			if (n <= 0)
				return n;
		}
		errno = 0;
		n = csvread_next(&l->cr);
		if (n == CSVREAD_EOF) {
			csvread_free(&l->cr);
			l->cr_live = false;
			continue;
		}
		if (n == CSVREAD_ERR) {
			if (errno == ENOMEM)
				return el_fail(l, EDGELIST_E_IO, "%s:%lu: out of memory", l->path,
					       cur_line(l));
			if (errno == E2BIG)
				return el_fail(l, EDGELIST_E_INPUT, "%s:%lu: too many fields",
					       l->path, cur_line(l));
			return el_fail(l, EDGELIST_E_INPUT, "%s:%lu: unterminated quote", l->path,
				       cur_line(l));
		}
		if (n == 0)
			continue;
		if (csvread_field(&l->cr, 0).len && csvread_field(&l->cr, 0).p[0] == '#')
			continue;
		return n;
	}
}

static int read_header(struct edgelist *l)
{
	int n = next_row(l), i, k;
	char name[64];
	size_t j;

	if (n <= 0) {
		if (!l->failed)
			el_fail(l, EDGELIST_E_INPUT, "%s: empty edge list (no header line)", l->path);
		return -1;
	}
	for (k = 0; k < EDGELIST_NCOLS; k++)
		l->col[k] = -1;
	l->ncols = (unsigned)n;
	for (i = 0; i < n; i++) {
		struct csv_field f = csvread_field(&l->cr, (unsigned)i);

		for (j = 0; j < edgelist_nnames; j++) {
			if (!csv_field_is(f, edgelist_names[j].name))
				continue;
			k = edgelist_names[j].col;
			if (l->col[k] >= 0) {
				snprintf(name, sizeof(name), "%.*s", (int)(f.len > 40 ? 40 : f.len), f.p);
				return el_fail(l, EDGELIST_E_INPUT, "%s:%lu: column '%s' given twice",
					       l->path, cur_line(l), name);
			}
			l->col[k] = i;
			l->scale[k] = edgelist_names[j].scale;
		}
	}
	if (l->col[EDGELIST_SEQ] < 0 || l->col[EDGELIST_LEVEL] < 0 ||
	    (l->col[EDGELIST_MEASURED] < 0 && (l->col[EDGELIST_WBEGIN] < 0 || l->col[EDGELIST_WEND] < 0)))
		return el_fail(l, EDGELIST_E_INPUT,
			       "%s:%lu: an edge list needs the columns seq, level and measured_ns (or "
			       "measured_s); intended_ns is optional (docs/analyze.md)",
			       l->path, cur_line(l));
	if (l->col[EDGELIST_MEASURED] < 0 ||
	    (l->col[EDGELIST_WAKE] >= 0 && l->col[EDGELIST_WBEGIN] >= 0 && l->col[EDGELIST_WEND] >= 0)) {
		if (l->col[EDGELIST_INTENDED] < 0)
			return el_fail(l, EDGELIST_E_INPUT, "%s:%lu: write_begin_ns/write_end_ns need "
				       "intended_ns", l->path, cur_line(l));
		l->info.format = "sqwave-export-csv";
		l->info.has_window = l->col[EDGELIST_WAKE] >= 0;
	} else {
		l->info.format = "edge-csv";
	}
	l->info.has_intended = l->col[EDGELIST_INTENDED] >= 0;
	for (k = 0; k < EDGELIST_LOOPBACK; k++)	/* the columns read */
		if (l->col[k] + 1 > l->need)
			l->need = l->col[k] + 1;
	return 0;
}

static const char *col_what(enum edgelist_col col)
{
	switch (col) {
	case EDGELIST_INTENDED: return "intended time";
	case EDGELIST_MEASURED: return "measured time";
	case EDGELIST_WAKE: return "wake_ns";
	case EDGELIST_WBEGIN: return "write_begin_ns";
	case EDGELIST_WEND: return "write_end_ns";
	default: return "value";
	}
}

/* Field @col of the current row as a time in ns (may be negative). */
static int field_time(struct edgelist *l, enum edgelist_col col, int64_t *v)
{
	struct csv_field f = csvread_field(&l->cr, (unsigned)l->col[col]);
	int rc;

	if (l->scale[col] > 0)
		rc = csv_parse_scaled(f.p, f.len, '.', l->scale[col], v);
	else
		rc = csv_parse_i64(f.p, f.len, v);
	if (rc < 0)
		return el_fail(l, EDGELIST_E_INPUT, "%s:%lu: %s: '%.*s' is not %s", l->path,
			       cur_line(l), col_what(col), (int)(f.len > 40 ? 40 : f.len), f.p,
			       l->scale[col] > 0 ? "a time in seconds" : "an integer number of ns");
	return 0;
}

static int field_uint(struct edgelist *l, enum edgelist_col col, const char *what, int64_t max,
		      int64_t *v)
{
	struct csv_field f = csvread_field(&l->cr, (unsigned)l->col[col]);

	if (csv_parse_i64(f.p, f.len, v) < 0 || *v < 0 || *v > max)
		return el_fail(l, EDGELIST_E_INPUT, "%s:%lu: %s: '%.*s' is not an integer in 0..%"
			       PRId64, l->path, cur_line(l), what, (int)(f.len > 40 ? 40 : f.len), f.p,
			       max);
	return 0;
}

/* A measured time as an offset from the intended one. A record holds
 * +-2.1 s; more is refused, never clamped (an intended time that far off is
 * not this edge's). */
static int offset_of(struct edgelist *l, const char *what, int64_t t, int64_t intended,
		     int32_t *off)
{
	int64_t d;

	if (__builtin_sub_overflow(t, intended, &d) || d > INT32_MAX || d < INT32_MIN)
		return el_fail(l, EDGELIST_E_INPUT, "%s:%lu: %s is %.3f s from the intended time: "
			       "more than the +-2.147 s an edge record holds (is the intended time "
			       "this edge's?)", l->path, cur_line(l), what,
			       ((double)t - (double)intended) / 1e9);
	*off = (int32_t)d;
	return 0;
}

/* One data row into @e (expirations 0 when not given: inferred later):
 * 1, 0 end, -1 error. */
static int parse_row(struct edgelist *l, struct edge_rec *e)
{
	int n = next_row(l);
	int64_t seq, level, intended, measured, wb, we, wake, v;

	if (n <= 0)
		return n;
	if (n < l->need)
		return el_fail(l, EDGELIST_E_INPUT, "%s:%lu: %d fields, the header has %u", l->path,
			       cur_line(l), n, l->ncols);
	memset(e, 0, sizeof(*e));
	if (field_uint(l, EDGELIST_SEQ, "seq", INT64_MAX - 1, &seq) < 0 ||
	    field_uint(l, EDGELIST_LEVEL, "level", 1, &level) < 0)
		return -1;
	if (l->col[EDGELIST_MEASURED] >= 0) {
		if (field_time(l, EDGELIST_MEASURED, &measured) < 0)
			return -1;
		wb = we = wake = measured;
	} else {
		if (field_time(l, EDGELIST_WBEGIN, &wb) < 0 || field_time(l, EDGELIST_WEND, &we) < 0)
			return -1;
		wake = wb;
	}
	if (l->col[EDGELIST_WBEGIN] >= 0 && l->col[EDGELIST_WEND] >= 0 &&
	    l->col[EDGELIST_MEASURED] >= 0 &&
	    (field_time(l, EDGELIST_WBEGIN, &wb) < 0 || field_time(l, EDGELIST_WEND, &we) < 0))
		return -1;
	if (l->col[EDGELIST_WAKE] >= 0 && field_time(l, EDGELIST_WAKE, &wake) < 0)
		return -1;
	if (l->col[EDGELIST_INTENDED] >= 0) {
		if (field_time(l, EDGELIST_INTENDED, &intended) < 0)
			return -1;
	} else {
		intended = l->col[EDGELIST_MEASURED] >= 0 ? measured : wb;
	}
	e->seq = (uint64_t)seq;
	e->level = (uint8_t)level;
	e->intended_ns = (uint64_t)intended;
	if (offset_of(l, "the wake-up", wake, intended, &e->wake_off_ns) < 0 ||
	    offset_of(l, "the write begin", wb, intended, &e->write_begin_off_ns) < 0 ||
	    offset_of(l, "the write end", we, intended, &e->write_end_off_ns) < 0)
		return -1;
	if (l->col[EDGELIST_EXPIRATIONS] >= 0) {
		if (field_uint(l, EDGELIST_EXPIRATIONS, "expirations", UINT16_MAX, &v) < 0)
			return -1;
		e->expirations = (uint16_t)(v ? v : 1);
	}
	if (l->col[EDGELIST_FLAGS] >= 0) {
		if (field_uint(l, EDGELIST_FLAGS, "flags", UINT8_MAX, &v) < 0)
			return -1;
		e->flags = (uint8_t)v;
	}
	return 1;
}

/* Read ahead to infer the half period: the smallest positive step between
 * the intended times of consecutive records. */
static int lookahead(struct edgelist *l)
{
	int64_t best = 0;
	size_t i;
	int rc = 1;

	while (l->la_n < CSV_LOOKAHEAD && (rc = parse_row(l, &l->la[l->la_n])) == 1)
		l->la_line[l->la_n++] = cur_line(l);
	if (rc < 0)
		return -1;
	for (i = 1; i < l->la_n; i++) {
		int64_t d = (int64_t)(l->la[i].intended_ns - l->la[i - 1].intended_ns);

		if (l->la[i].seq == l->la[i - 1].seq + 1 && d > 0 && (best == 0 || d < best))
			best = d;
	}
	if (!l->info.half_period_ns && l->info.has_intended) {
		l->info.half_period_ns = best;
		l->info.half_period_inferred = best > 0;
	}
	return 0;
}

struct edgelist *edgelist_open(const char *path, int64_t half_period_ns, enum edgelist_status *st,
			       char *err, size_t errlen)
{
	struct edgelist *l = calloc(1, sizeof(*l));
	struct stat sb;

	if (!l) {
		*st = EDGELIST_E_IO;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	l->path = path;
	l->line_base = 1;
	l->info.half_period_ns = half_period_ns;
	l->f = fopen(path, "rb");
	if (!l->f) {
		el_fail(l, EDGELIST_E_IO, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (fstat(fileno(l->f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		el_fail(l, EDGELIST_E_INPUT, "%s: is a directory, not an edge list", path);
		goto fail;
	}
	l->buf = malloc(CSV_CHUNK);
	if (!l->buf) {
		el_fail(l, EDGELIST_E_IO, "%s: %s", path, strerror(errno));
		goto fail;
	}
	/* The half period must be known before the statistics are set up
	 * (missed periods count in latency): read ahead now. */
	if (read_header(l) < 0 || lookahead(l) < 0)
		goto fail;
	edgecheck_init(&l->chk, l->info.half_period_ns, false, 0);
	if (!l->info.has_intended)
		l->chk.time_name = "measured";
	*st = EDGELIST_OK;
	return l;
fail:
	*st = l->err_st;
	snprintf(err, errlen, "%s", l->err);
	edgelist_close(l);
	return NULL;
}

const struct edgelist_info *edgelist_info(const struct edgelist *l)
{
	return &l->info;
}

int edgelist_next(struct edgelist *l, struct edge_rec *e)
{
	unsigned long line;
	char why[256];
	int rc;

	if (l->failed)
		return -1;
	if (l->la_pos < l->la_n) {
		line = l->la_line[l->la_pos];
		*e = l->la[l->la_pos++];
	} else {
		rc = parse_row(l, e);
		if (rc <= 0)
			return rc;
		line = cur_line(l);
	}
	if (!e->expirations) {
		uint64_t k = 1;
		int64_t half = l->info.half_period_ns;

		/* a step of k half periods: k - 1 missed (16 bits hold it up to
		 * 65,535; beyond, the statistics count from the times) */
		if (half > 0 && l->have_prev_intended && e->intended_ns > l->prev_intended) {
			uint64_t d = e->intended_ns - l->prev_intended;

			k = d > (uint64_t)half ? (d + (uint64_t)half / 2) / (uint64_t)half : 1;
			if (k > UINT16_MAX)
				k = UINT16_MAX;
		}
		e->expirations = (uint16_t)k;
	}
	if (edgecheck_record(&l->chk, e, why, sizeof(why)) < 0)
		return el_fail(l, EDGELIST_E_INPUT, "%s:%lu: %s", l->path, line, why);
	l->prev_intended = e->intended_ns;
	l->have_prev_intended = true;
	return 1;
}

const char *edgelist_error(const struct edgelist *l, enum edgelist_status *st)
{
	if (st)
		*st = l->err_st;
	return l->err;
}

void edgelist_close(struct edgelist *l)
{
	if (!l)
		return;
	if (l->cr_live)
		csvread_free(&l->cr);
	if (l->f)
		fclose(l->f);
	free(l->buf);
	free(l);
}
