/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave analyze`: one edge reader over logs, edge-list CSVs and the
 * registered kind (captures), and the streaming analysis on top of
 * edgestats (docs/analyze.md). */
#include "stats/analyze.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "log/edgelist.h"
#include "base/msgbuf.h"
#include "base/spool.h"
#include "stats/persist.h"
#include "base/units.h"

/* ==== edge sources ==== */

/*
 * One kind of edge source: a sqwave log, an edge-list CSV, or the
 * registered kind (analyze_kind_register(): captures, whose formats are a
 * family of their own behind capture_ops). The factory,
 * analyze_source_open(), picks the kind by --format or by the file's first
 * bytes; the rest of analyze only sees these ops.
 */
struct analyze_source_ops {
	const char *name;       /* the --format word ("log", "edges"); NULL: the registered kind */
	/* From the first bytes of the file: this kind? (NULL: the fallback) */
	bool (*probe)(const void *head, size_t len);
	/* Open @path; 0, or -1 after src_fail(). Fills s->info. */
	int (*open)(struct analyze_source *s, const char *path,
		    const struct analyze_source_opts *o);
	/* The next edge: 1, 0 at the end, -1 after src_fail(). */
	int (*next)(struct analyze_source *s, struct edge_rec *e);
	/* Optional: up to @max records at once, lent until the next call
	 * (> 0), or <= 0 at the end or an error (next() then says which).
	 * A source that has it is fed in batches, and in a second thread. */
	long (*next_batch)(struct analyze_source *s, const struct edge_rec **recs, size_t max);
	/* Optional: what only the end tells (a log's footer) into s->info. */
	void (*end)(struct analyze_source *s);
	void (*close)(struct analyze_source *s);
};

struct analyze_source {
	const struct analyze_source_ops *ops;
	struct analyze_source_info info;
	enum analyze_status err_st;
	char err[512];
	bool failed;
	struct edgelog_reader *log;
	struct edgelist *csv;
	void *kind_state;               /* the registered kind's */
	/* a stream (stdin, a pipe) copied into a memory file */
	int spool_fd;
	char spool_path[40];
};

static void src_fail(struct analyze_source *s, enum analyze_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void src_fail(struct analyze_source *s, enum analyze_status st, const char *fmt, ...)
{
	va_list ap;

	if (s->failed)
		return;
	va_start(ap, fmt);
	msgbuf_vset(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	s->err_st = st;
	s->failed = true;
}

/* ---- a sqwave log ---- */

static bool log_probe(const void *head, size_t len)
{
	return edgelist_sniff(head, len) == EDGELIST_SNIFF_LOG;
}

static int log_open(struct analyze_source *s, const char *path,
		    const struct analyze_source_opts *o)
{
	enum edgelog_status est;
	char why[512];

	(void)o;
	s->log = edgelog_reader_open(path, &est, why, sizeof(why));
	if (!s->log) {
		src_fail(s, est == EDGELOG_E_IO ? ANALYZE_E_IO : ANALYZE_E_INPUT, "%s", why);
		return -1;
	}
	s->info.kind = ANALYZE_SRC_LOG;
	s->info.format = "sqwave-log";
	s->info.has_window = true;
	s->info.meta = edgelog_reader_meta(s->log);
	s->info.respond = edgelog_meta_is_respond(s->info.meta);
	s->info.half_period_ns = (int64_t)s->info.meta->half_period_ns;
	return 0;
}

static int log_next(struct analyze_source *s, struct edge_rec *e)
{
	int rc = edgelog_reader_next(s->log, e);

	if (rc < 0) {
		enum edgelog_status est;
		const char *why = edgelog_reader_error(s->log, &est);

		src_fail(s, est == EDGELOG_E_IO ? ANALYZE_E_IO : ANALYZE_E_INPUT, "%s", why);
	}
	return rc;
}

static long log_next_batch(struct analyze_source *s, const struct edge_rec **recs, size_t max)
{
	return edgelog_reader_next_batch(s->log, recs, max);
}

static void log_end(struct analyze_source *s)
{
	s->info.footer = edgelog_reader_footer(s->log);
	s->info.truncated = !s->info.footer;
	s->info.trailing_bytes = edgelog_reader_trailing_bytes(s->log);
	s->info.zero_bytes = edgelog_reader_zero_bytes(s->log);
	s->info.events = edgelog_reader_events(s->log, 0);
}

static void log_close(struct analyze_source *s)
{
	edgelog_reader_close(s->log);
}

static const struct analyze_source_ops log_ops = {
	.name = "log", .probe = log_probe, .open = log_open, .next = log_next,
	.next_batch = log_next_batch, .end = log_end, .close = log_close,
};

/* ---- an edge-list CSV ---- */

static bool csv_probe(const void *head, size_t len)
{
	return edgelist_sniff(head, len) == EDGELIST_SNIFF_CSV;
}

static int csv_open(struct analyze_source *s, const char *path,
		    const struct analyze_source_opts *o)
{
	enum edgelist_status est;
	const struct edgelist_info *li;
	char why[512];

	s->csv = edgelist_open(path, o->half_period_ns, &est, why, sizeof(why));
	if (!s->csv) {
		src_fail(s, est == EDGELIST_E_IO ? ANALYZE_E_IO : ANALYZE_E_INPUT, "%s", why);
		return -1;
	}
	li = edgelist_info(s->csv);
	s->info.kind = ANALYZE_SRC_EDGE_CSV;
	s->info.format = li->format;
	s->info.has_intended = li->has_intended;
	s->info.has_window = li->has_window;
	s->info.half_period_ns = li->half_period_ns;
	s->info.half_period_inferred = li->half_period_inferred;
	return 0;
}

static int csv_next(struct analyze_source *s, struct edge_rec *e)
{
	int rc = edgelist_next(s->csv, e);

	if (rc < 0) {
		enum edgelist_status est;
		const char *why = edgelist_error(s->csv, &est);

		src_fail(s, est == EDGELIST_E_IO ? ANALYZE_E_IO : ANALYZE_E_INPUT, "%s", why);
	}
	return rc;
}

static void csv_close(struct analyze_source *s)
{
	edgelist_close(s->csv);
}

static const struct analyze_source_ops csv_ops = {
	.name = "edges", .probe = csv_probe, .open = csv_open, .next = csv_next,
	.close = csv_close,
};

/* ---- the registered kind (captures): its hooks behind these ops ---- */

/* The kind of every source that is neither a log nor an edge list; NULL:
 * none (a build that reads no captures). Set before any source is opened. */
static const struct analyze_kind_ops *registered;

void analyze_kind_register(const struct analyze_kind_ops *ops)
{
	registered = ops;
}

const struct analyze_kind_ops *analyze_kind_registered(void)
{
	return registered;
}

static int kind_open(struct analyze_source *s, const char *path,
		     const struct analyze_source_opts *o)
{
	const struct analyze_kind_ops *k = registered;
	char why[512];
	bool io = false;

	s->kind_state = k->open(path, s->spool_fd, s->info.path, o->format, o->kind_opts, &io, why,
				sizeof(why));
	if (!s->kind_state) {
		src_fail(s, io ? ANALYZE_E_IO : ANALYZE_E_INPUT, "%s", why);
		return -1;
	}
	s->info.kind = ANALYZE_SRC_REGISTERED;
	s->info.kind_ops = k;
	s->info.kind_state = s->kind_state;
	s->info.has_intended = false;
	k->describe(s->kind_state, &s->info.format, &s->info.origin_ns, &s->info.edge_lo_ns,
		    &s->info.edge_hi_ns);
	s->info.has_edge_window = true;
	return 0;
}

static int kind_next(struct analyze_source *s, struct edge_rec *e)
{
	int rc = s->info.kind_ops->next(s->kind_state, e);

	if (rc < 0) {
		bool io = false;
		const char *why = s->info.kind_ops->error(s->kind_state, &io);

		src_fail(s, io ? ANALYZE_E_IO : ANALYZE_E_INPUT, "%s", why);
	}
	return rc;
}

static void kind_end(struct analyze_source *s)
{
	s->info.kind_ops->end(s->kind_state, &s->info.end_ns, &s->info.gaps);
	s->info.has_end = true;
}

static void kind_close(struct analyze_source *s)
{
	s->info.kind_ops->close(s->kind_state);
}

static const struct analyze_source_ops registered_ops = {
	.name = NULL, .probe = NULL, .open = kind_open, .next = kind_next, .end = kind_end,
	.close = kind_close,
};

/* The kinds in the order they are tried; the last one, the registered
 * kind, takes what the others did not (and says if it is none of its own). */
static const struct analyze_source_ops *const source_kinds[] = {
	&log_ops, &csv_ops, &registered_ops,
};
#define NKINDS (sizeof(source_kinds) / sizeof(source_kinds[0]))

/* What a stream's sniff saw: whether it refused the stream. */
struct stream_sniffed {
	bool refused;
};

/* A stream is refused early unless its start looks like something sqwave
 * reads: a log, an edge list or one of the registered kind's. */
static int stream_sniff(void *ctx, const void *data, size_t len)
{
	struct stream_sniffed *sn = ctx;
	bool ok = edgelist_sniff(data, len) != EDGELIST_SNIFF_OTHER ||
		  (registered && (!registered->probe || registered->probe(data, len)));

	sn->refused = !ok;
	return ok;
}

/* Without a registered kind: what a source that is neither a log nor an
 * edge list is told, as bad input. */
static void src_fail_no_kind(struct analyze_source *s, const char *fmt)
{
	if (fmt)
		src_fail(s, ANALYZE_E_INPUT, "--format %s: this build of sqwave reads logs (log) and "
			 "edge lists (edges) only, no captures", fmt);
	else
		src_fail(s, ANALYZE_E_INPUT, "%s: neither a sqwave log nor an edge list, and this "
			 "build of sqwave reads no captures", s->info.path);
}

/* The kind of @path from --format @fmt (another name than the log's and
 * the edge list's goes to the registered kind) or its first bytes; NULL:
 * the registered kind's, and none is registered. */
static const struct analyze_source_ops *source_kind(const char *fmt, const char *head, size_t n)
{
	size_t k;

	for (k = 0; k + 1 < NKINDS; k++) {
		if (fmt ? !strcmp(fmt, source_kinds[k]->name) : source_kinds[k]->probe(head, n))
			return source_kinds[k];
	}
	return registered ? source_kinds[NKINDS - 1] : NULL;
}

/* What the pin should do: a log's header says; an edge list or a capture
 * is a 50 % wave of its half period when one is known (given or inferred),
 * else a wave of unknown shape without nominal widths. */
static void source_pin(struct analyze_source_info *si)
{
	struct wave w = { 0 };

	if (si->meta) {
		si->pin = si->meta->pin;
		return;
	}
	if (si->half_period_ns > 0)
		w = wave_square(si->half_period_ns);
	pin_init_wave(&si->pin, "", &w, 0, PIN_GRID_MONOTONIC, 0);
}

struct analyze_source *analyze_source_open(const char *path, const struct analyze_source_opts *opts,
					   enum analyze_status *st, char *err, size_t errlen)
{
	static const struct analyze_source_opts none;
	struct analyze_source *s;
	struct stat sb;
	char head[4096];
	ssize_t n;
	int fd;

	if (!opts)
		opts = &none;
	s = calloc(1, sizeof(*s));
	if (!s) {
		*st = ANALYZE_E_IO;
		msgbuf_set(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	s->info.path = path;
	s->info.has_intended = true;
	s->spool_fd = -1;
	if (spool_is_stream(path)) {
		/* stdin, a pipe, process substitution: held in memory (bounded), so
		 * that detection can look at the start and the reader still gets
		 * it; devices and terminals are refused there */
		struct stream_sniffed sn = { false };
		char why[512];

		s->spool_fd = spool_open(path, SPOOL_STREAM_MAX, stream_sniff, &sn, why, sizeof(why));
		s->info.path = strcmp(path, "-") ? path : "<stdin>";
		if (s->spool_fd < 0 && sn.refused && !registered) {
			src_fail_no_kind(s, NULL);
			goto fail;
		}
		if (s->spool_fd < 0) {
			src_fail(s, errno == EIO || errno == ENOMEM ? ANALYZE_E_IO : ANALYZE_E_INPUT, "%s",
				 why);
			goto fail;
		}
		snprintf(s->spool_path, sizeof(s->spool_path), "/proc/self/fd/%d", s->spool_fd);
		path = s->spool_path;
	}
	s->info.open_path = path;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		src_fail(s, ANALYZE_E_IO, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (fstat(fd, &sb) < 0) {
		src_fail(s, ANALYZE_E_IO, "%s: %s", path, strerror(errno));
		close(fd);
		goto fail;
	}
	/* Not a file (streams were spooled above): bad input (exit 2), like
	 * anything else that is not a log or a capture. */
	if (!S_ISREG(sb.st_mode)) {
		src_fail(s, ANALYZE_E_INPUT, "%s: is %s, not a file (save the data to a file first)",
			 path, S_ISDIR(sb.st_mode) ? "a directory" : S_ISFIFO(sb.st_mode) ? "a pipe"
			 : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device" : "not a regular file");
		close(fd);
		goto fail;
	}
	do
		n = pread(fd, head, sizeof(head), 0);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0) {
		src_fail(s, ANALYZE_E_IO, "%s: read error: %s", path, strerror(errno));
		goto fail;
	}
	if (n == 0) {
		src_fail(s, ANALYZE_E_INPUT, "%s: empty file", path);
		goto fail;
	}
	s->ops = source_kind(opts->format, head, (size_t)n);
	if (!s->ops) {
		src_fail_no_kind(s, opts->format);
		goto fail;
	}
	if (s->ops->open(s, path, opts) < 0) {
		s->ops = NULL;	/* nothing to close */
		goto fail;
	}
	source_pin(&s->info);
	*st = ANALYZE_OK;
	return s;
fail:
	*st = s->err_st;
	msgbuf_set(err, errlen, "%s", s->err);
	analyze_source_close(s);
	return NULL;
}

int analyze_source_next(struct analyze_source *s, struct edge_rec *e)
{
	int rc;

	/* a log's reader keeps its own end and error: one call per record */
	if (!s->ops->next_batch) {
		if (s->failed)
			return -1;
		if (s->info.ended)
			return 0;
	}
	rc = s->ops->next(s, e);
	if (rc == 0 && !s->info.ended) {
		s->info.ended = true;
		if (s->ops->end)
			s->ops->end(s);
	}
	return rc;
}

long analyze_source_next_batch(struct analyze_source *s, const struct edge_rec **recs, size_t max)
{
	return s->ops->next_batch ? s->ops->next_batch(s, recs, max) : 0;
}

bool analyze_source_batched(const struct analyze_source *s)
{
	return s->ops->next_batch != NULL;
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
	if (s->ops)
		s->ops->close(s);
	if (s->spool_fd >= 0)
		close(s->spool_fd);
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
		a->o.minute_ns = ANALYZE_TIMELINE_ROW_DEFAULT_NS;
	a->src = src;
	a->pending = SIZE_MAX;
	a->bin_ns = 1000000; /* 1 ms, doubled as the data outgrows the bins */
	for (i = 0; i < ANALYZE_TIME_BINS; i++)
		span_init(&a->bins[i]);
	a->es = edgestats_new(src->half_period_ns);
	if (a->es)
		edgestats_set_pin(a->es, &src->pin);
	if (a->es && src->has_edge_window)
		edgestats_set_edge_window(a->es, src->edge_lo_ns, src->edge_hi_ns);
	if (!a->es || stats_linhist_init(&a->hist, a->o.hist_buckets ? a->o.hist_buckets : 1, 1000, 64))
		goto fail;
	{
		struct windows_opts wo = {
			.window_ns = a->o.window_ns > 0 ? a->o.window_ns : WINDOWS_DEFAULT_NS,
			.half_period_ns = src->has_intended ? src->half_period_ns : 0,
			.respond = src->respond,
		};

		a->o.window_ns = wo.window_ns;
		if (!(a->win = windows_new(&wo)))
			goto fail;
	}
	if (!(a->persist = persist_new(src->half_period_ns,
				       src->has_intended && a->o.persist_intended)))
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
	persist_free(a->persist);
	windows_free(a->win);
	stats_linhist_free(&a->hist);
	free(a->worst);
	free(a->missed);
	free(a->minutes);
	free(a);
}

void analysis_set_edge_cb(struct analysis *a,
			  void (*cb)(void *ctx, const struct edge_rec *e, int64_t latency_ns,
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

/* One edge after edgestats has taken it: what the rest of the analysis needs. */
struct analyze_item {
	struct edge_rec e;
	struct edgestats_pulse p;
	uint64_t missed;
	int64_t lat;
	bool hp;
	enum edgestats_polarity pol;
};

/* The statistics (edgestats): the first half of analysis_add(). */
static void stage_stats(struct edgestats *es, const struct edge_rec *e, struct analyze_item *it)
{
	edgestats_add(es, e);
	it->e = *e;
	it->pol = EDGESTATS_POS;
	it->hp = edgestats_last_pulse(es, &it->p, &it->pol);
	/* the real count: 16-bit expirations saturate in a long stall */
	it->missed = edgestats_last_missed(es);
	it->lat = edgestats_last_latency(es);
}

void analysis_set_soak(struct analysis *a, struct phasestats *ps, const struct soakview *sv,
		       const struct run_info *ri)
{
	a->ps = ps;
	a->sv = sv;
	a->soak = ri;
}

/* Whether pulse @p of polarity @pol may lie further than limits.width_error
 * from its level's nominal width (the pin's; none: never), by its bounds as
 * the verdict judges. */
static bool pulse_off_nominal(const struct analysis *a, const struct edgestats_pulse *p,
			      enum edgestats_polarity pol)
{
	int64_t nom = a->src->pin.nominal_ns[pol == EDGESTATS_POS ? PIN_POS : PIN_NEG];

	return nom > 0 && (p->lo_ns < nom - a->lim_width_error_ns ||
			   p->hi_ns > nom + a->lim_width_error_ns);
}

/* Everything else: the second half. Touches no edgestats state, so it can
 * run in another thread than stage_stats() (analysis_feed()). */
static void stage_rest(struct analysis *a, const struct analyze_item *it)
{
	const struct edge_rec *e = &it->e;
	struct edgestats_pulse p = it->p;
	enum edgestats_polarity pol = it->pol;
	bool hp = it->hp;
	uint64_t t;
	struct analyze_span *m, *b;
	uint64_t missed = it->missed;
	int64_t lat = it->lat;

	if (a->ps)
		phasestats_add(a->ps, e);
	if (a->persist)
		/* where the line changed: the write-window midpoint (a
		 * capture's edge time); a missing record or a failed write
		 * leaves what the line did unknown */
		persist_add(a->persist, (int64_t)e->intended_ns +
				(((int64_t)e->write_begin_off_ns + e->write_end_off_ns) >> 1),
			    (int64_t)e->intended_ns, e->level, !(e->flags & EDGE_F_WARMUP),
			    (a->have_edge && e->seq != a->last.seq + 1) || (e->flags & EDGE_F_WRITE_ERR));

	if (!a->have_edge) {
		a->first = *e;
		a->have_edge = true;
	}
	a->last = *e;

	if (a->edge_cb) {
		if (a->cb_have)
			a->edge_cb(a->edge_ctx, &a->cb_edge, a->cb_lat,
				   a->cb_has_before ? &a->cb_before : NULL, hp ? &p : NULL);
		a->cb_edge = *e;
		a->cb_lat = lat;
		a->cb_have = true;
		a->cb_has_before = hp;
		a->cb_before = p;
	}
	windows_add(a->win, e, missed, lat, hp ? &p : NULL);
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
	if (!a->have_counted) {
		a->have_counted = true;
		a->first_counted_ns = e->intended_ns;
	}

	t = since_first(a, e->intended_ns);
	m = minute_row(a, t);
	b = plot_bin(a, t);
	if (m)
		m->edges++;
	if (b)
		b->edges++;
	if (missed) {
		uint64_t n = missed;

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
		if (a->lim_wake_ns > 0 && lat > a->lim_wake_ns)
			a->wakes_above++;
	}
	if (hp) {
		/* against the limits as the verdict checks them: by the bounds */
		if (a->lim_tmin_ns > 0 && p.lo_ns < a->lim_tmin_ns)
			a->pulses_below++;
		if (a->lim_tmax_ns > 0 && p.hi_ns > a->lim_tmax_ns)
			a->pulses_above++;
		if (a->lim_width_error_ns > 0 && pulse_off_nominal(a, &p, pol))
			a->pulses_off++;
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

void analysis_add(struct analysis *a, const struct edge_rec *e)
{
	struct analyze_item it;

	stage_stats(a->es, e, &it);
	stage_rest(a, &it);
}

/* ---- feeding a whole source: two threads for a long log ---- */

#define FEED_CHUNK 2048          /* items per handoff */
#define FEED_SLOTS 4             /* chunks in flight */
#define FEED_STACK (256u * 1024u)

struct feed {
	struct analysis *a;
	struct analyze_source *s;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct analyze_item *items;   /* FEED_SLOTS x FEED_CHUNK */
	size_t count[FEED_SLOTS];     /* items in a full slot */
	bool full[FEED_SLOTS];
	bool done;                    /* the producer has published its last chunk */
	bool quit;                    /* the consumer gave up (never, today; for safety) */
	int rc;                       /* the source's last return: 0 or -1 */
};

/* The producer: read, validate, edgestats; a chunk at a time. */
static void *feed_thread(void *arg)
{
	struct feed *f = arg;
	/* local copies: the consumer writes the analysis next to these fields */
	struct edgestats *es = f->a->es;
	struct analyze_source *s = f->s;
	size_t slot = 0, n;
	int rc = 1;

	while (rc == 1) {
		struct analyze_item *it;
		struct edge_rec e;

		pthread_mutex_lock(&f->lock);
		while (f->full[slot] && !f->quit)
			pthread_cond_wait(&f->cond, &f->lock);
		pthread_mutex_unlock(&f->lock);
		if (f->quit)
			break;
		it = f->items + slot * FEED_CHUNK;
		n = 0;
		while (n < FEED_CHUNK) {
			const struct edge_rec *recs;
			long k = analyze_source_next_batch(s, &recs, FEED_CHUNK - n), i;

			if (k <= 0) {
				/* the end or an error: the source says which, as next() would */
				rc = analyze_source_next(s, &e);
				break;
			}
			for (i = 0; i < k; i++)
				stage_stats(es, &recs[i], &it[n++]);
		}
		pthread_mutex_lock(&f->lock);
		f->count[slot] = n;
		f->full[slot] = true;
		if (rc != 1) {
			f->rc = rc;
			f->done = true;
		}
		pthread_cond_broadcast(&f->cond);
		pthread_mutex_unlock(&f->lock);
		slot = (slot + 1) % FEED_SLOTS;
	}
	return NULL;
}

static int feed_threaded(struct analysis *a, struct analyze_source *s, bool *started)
{
	struct feed f = { .a = a, .s = s };
	pthread_attr_t attr;
	pthread_t tid;
	size_t slot = 0, i;
	int rc;

	*started = false;
	f.items = malloc(sizeof(*f.items) * FEED_SLOTS * FEED_CHUNK);
	if (!f.items)
		return 0;
	pthread_mutex_init(&f.lock, NULL);
	pthread_cond_init(&f.cond, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, FEED_STACK);
	if (pthread_create(&tid, &attr, feed_thread, &f) != 0) {
		pthread_attr_destroy(&attr);
		pthread_cond_destroy(&f.cond);
		pthread_mutex_destroy(&f.lock);
		free(f.items);
		return 0;
	}
	pthread_attr_destroy(&attr);
	*started = true;
	for (;;) {
		bool last;
		size_t n;

		pthread_mutex_lock(&f.lock);
		while (!f.full[slot])
			pthread_cond_wait(&f.cond, &f.lock);
		n = f.count[slot];
		pthread_mutex_unlock(&f.lock);
		for (i = 0; i < n; i++)
			stage_rest(a, &f.items[slot * FEED_CHUNK + i]);
		pthread_mutex_lock(&f.lock);
		f.full[slot] = false;
		/* the producer marks done with the chunk that ends the source */
		last = f.done && !f.full[(slot + 1) % FEED_SLOTS];
		pthread_cond_broadcast(&f.cond);
		pthread_mutex_unlock(&f.lock);
		slot = (slot + 1) % FEED_SLOTS;
		if (last)
			break;
	}
	pthread_join(tid, NULL);
	rc = f.rc;
	pthread_cond_destroy(&f.cond);
	pthread_mutex_destroy(&f.lock);
	free(f.items);
	return rc;
}

int analysis_feed(struct analysis *a, struct analyze_source *s)
{
	struct edge_rec e;
	bool started;
	int rc;

	/* A log is where millions of edges come from: read and validate them,
	 * and run edgestats, in a second thread while this one does the rest
	 * (on a machine with a CPU to spare). */
	if (analyze_source_batched(s) && a->o.threads != 1 && sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		rc = feed_threaded(a, s, &started);
		if (started)
			return rc;
	}
	if (analyze_source_batched(s)) {
		const struct edge_rec *recs;
		long k, i;

		while ((k = analyze_source_next_batch(s, &recs, 4096)) > 0)
			for (i = 0; i < k; i++)
				analysis_add(a, &recs[i]);
	}
	/* the end or an error (as next() says it), or every edge of another source */
	while ((rc = analyze_source_next(s, &e)) == 1)
		analysis_add(a, &e);
	return rc;
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
		a->edge_cb(a->edge_ctx, &a->cb_edge, a->cb_lat,
			   a->cb_has_before ? &a->cb_before : NULL, NULL);
	a->cb_have = false;
	a->pending = SIZE_MAX;
	if (a->nworst)
		qsort(a->worst, a->nworst, sizeof(*a->worst), worst_cmp);
	persist_finish(a->persist);
	/* a respond log's own counts at its stop: exact lost events, and the
	 * events it never answered */
	if (a->src->respond && a->soak && a->soak->respond_end)
		edgestats_respond_end(a->es, a->soak->resp_lost, a->soak->resp_lost_warmup,
				      a->soak->resp_unanswered);
	a->finished = true;
}

/* A violation line into a->verdict_why. */
static void violation(struct analysis *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void violation(struct analysis *a, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	msgbuf_vset(line, sizeof(line), fmt, ap);
	va_end(ap);
	msgbuf_add(a->verdict_why, sizeof(a->verdict_why), "%s\n", line);
}

/* A source without a run behind it: its edges against the limits alone. */
static bool limits_check(struct analysis *a, const struct config *c)
{
	const struct edgestats_result *r = analysis_stats(a);
	const struct edgestats_widths *any = &r->width[EDGESTATS_ANY];
	int64_t tmin = config_int(c, CFG_LIMITS_TMIN), tmax = config_int(c, CFG_LIMITS_TMAX);
	int64_t wmax = config_int(c, CFG_LIMITS_WAKE_LATENCY_MAX);
	int64_t mmax = config_int(c, CFG_LIMITS_MISSED_MAX);

	if (r->edges == 0)
		violation(a, "no edges were counted");
	if ((tmin > 0 || tmax > 0) && any->h.m.n == 0)
		violation(a, "limits.%s is set but no complete pulse was measured",
			  tmin > 0 ? "tmin" : "tmax");
	if (tmin > 0 && a->pulses_below)
		violation(a, "%" PRIu64 " pulse%s may have been shorter than limits.tmin %s us "
			  "(the shortest %s us, pulse #%" PRIu64 ")", a->pulses_below,
			  a->pulses_below == 1 ? "" : "s", UNITS_US(tmin),
			  UNITS_US(any->tmin_bound.lo_ns), any->tmin_bound.at.seq);
	if (tmax > 0 && a->pulses_above)
		violation(a, "%" PRIu64 " pulse%s may have been longer than limits.tmax %s us "
			  "(the longest %s us, pulse #%" PRIu64 ")", a->pulses_above,
			  a->pulses_above == 1 ? "" : "s", UNITS_US(tmax),
			  UNITS_US(any->tmax_bound.hi_ns), any->tmax_bound.at.seq);
	if (a->lim_width_error_ns > 0 && a->pulses_off)
		violation(a, "%" PRIu64 " pulse%s may have been further than limits.width_error %s us "
			  "from the nominal width of their level", a->pulses_off,
			  a->pulses_off == 1 ? "" : "s", UNITS_US(a->lim_width_error_ns));
	if (a->src->has_intended && wmax > 0 && a->wakes_above)
		violation(a, "%" PRIu64 " wake-up%s later than limits.wake_latency_max %s us (the "
			  "worst %s us at edge #%" PRIu64 ")", a->wakes_above,
			  a->wakes_above == 1 ? "" : "s", UNITS_US(wmax), UNITS_US(r->wake.m.max),
			  r->wake_worst.seq);
	if (a->src->has_intended && mmax >= 0 && r->missed_periods > (uint64_t)mmax)
		violation(a, "%" PRIu64 " periods were missed, limits.missed_max is %" PRId64,
			  r->missed_periods, mmax);
	return a->verdict_why[0] != '\0';
}

enum verdict analysis_verdict(struct analysis *a, const struct config *c,
				      const struct run_info *ri)
{
	struct verdict_result vr;
	enum verdict v;
	char err[64];

	a->verdict_why[0] = '\0';
	/* the verdict's own rule, so that a respond log's response_max counts */
	a->limits_set = verdict_limits_set(c);
	if (a->src->kind != ANALYZE_SRC_LOG || !ri) {
		v = limits_check(a, c) ? VERDICT_FAIL
		    : a->limits_set ? VERDICT_PASS : VERDICT_NO_LIMITS;
		a->verdict = v == VERDICT_FAIL ? "FAIL" : v == VERDICT_PASS ? "PASS" : "NO LIMITS";
		return v;
	}
	/* a log as its run was judged, once: the word (LOAD NOT APPLIED too)
	 * and the violations of one result */
	if (verdict_result_compute(&vr, c, edgestats_result(a->es), ri, err, sizeof(err)) < 0) {
		a->verdict = NULL;	/* not judged: the documents say so */
		return VERDICT_NO_LIMITS;
	}
	verdict_result_why(&vr, a->verdict_why, sizeof(a->verdict_why));
	a->verdict = vr.word;
	v = vr.verdict;
	verdict_result_free(&vr);
	return v;
}

void analysis_set_limits(struct analysis *a, int64_t tmin_ns, int64_t tmax_ns, int64_t wake_ns)
{
	a->lim_tmin_ns = tmin_ns;
	a->lim_tmax_ns = tmax_ns;
	a->lim_wake_ns = wake_ns;
	windows_set_limits(a->win, tmin_ns, tmax_ns, wake_ns, a->win->o.lim_response_ns);
}

void analysis_set_width_limit(struct analysis *a, int64_t width_error_ns)
{
	a->lim_width_error_ns = width_error_ns;
}

void analysis_set_response_limit(struct analysis *a, int64_t response_ns)
{
	windows_set_limits(a->win, a->win->o.lim_tmin_ns, a->win->o.lim_tmax_ns, a->win->o.lim_wake_ns,
			   response_ns);
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

uint64_t analysis_dropped(const struct analysis *a, uint64_t *at_end)
{
	const struct edgestats_result *r = edgestats_result(a->es);
	const struct edgelog_footer *f = a->src->footer;

	*at_end = 0;
	if (a->src->kind == ANALYZE_SRC_REGISTERED)
		return 0;
	/* Records the ring dropped after the last one written leave no gap in
	 * seq: only the footer knows them. */
	if (f && f->dropped > r->seq_gaps) {
		*at_end = f->dropped - r->seq_gaps;
		return f->dropped;
	}
	return r->seq_gaps;
}

bool analysis_partial(const struct analysis *a, int64_t *head_ns, int *head_level,
		      int64_t *tail_ns, int *tail_level)
{
	if (!a->src->has_end || !a->have_edge || !a->src->ended)
		return false;
	*head_ns = (int64_t)a->first.intended_ns;
	*head_level = a->first.level ? 0 : 1;
	*tail_ns = a->src->end_ns - (int64_t)a->last.intended_ns;
	*tail_level = a->last.level;
	return true;
}

const char *analyze_source_meta(const struct analyze_source_info *si, const char *key, char *buf,
				size_t len)
{
	const char *v = si->meta ? edgelog_meta_get(si->meta, key, buf, len) : NULL;

	return v && v[0] ? v : NULL;
}
