/* SPDX-License-Identifier: GPL-2.0-or-later */
/* VCD output of a run log: the wave sqwave wrote, as a logic analyzer would
 * have recorded it, with each edge at the middle of its write window; the
 * CSV and the VCD of several logs merged in time order. */
#include "log/vcdout.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"
#include "rt/edge.h"
#include "log/edgelist.h"
#include "log/edgelog.h"
#include "log/loopjoin.h"
#include "log/tlatjoin.h"

/* A boolean metadata key of the log ("true", "1"); @def if absent. */
static int meta_bool(const struct edgelog_meta *m, const char *key, int def)
{
	char buf[16];
	const char *v = edgelog_meta_get(m, key, buf, sizeof(buf));

	if (!v)
		return def;
	return !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes");
}

/* The input's changes not written yet: the kernel's events come after their
 * write and may come after later writes too (a slow wire), so they wait
 * here until the pin's changes have passed them. */
#define VCD_LB_PENDING 4096

struct vcd_out {
	FILE *out;
	uint64_t start_ns, last;
	bool any;                  /* a time stamp was written */
	int64_t changes;
	struct { uint64_t t; int v; } lb[VCD_LB_PENDING];
	size_t lb_head, lb_n;
	int lb_level;              /* the input's level after the pending changes */
};

/* A change of wire @id to @v at @t_ns on the log's clock. */
static void vcd_change(struct vcd_out *o, uint64_t t_ns, int v, char id)
{
	uint64_t t = t_ns > o->start_ns ? t_ns - o->start_ns : 0;

	if (t < o->last)
		t = o->last;   /* VCD time never goes back */
	if (t > o->last || !o->any)
		fprintf(o->out, "#%" PRIu64 "\n", t);
	fprintf(o->out, "%d%c\n", v, id);
	o->last = t;
	o->any = true;
}

/* Write the input's pending changes up to @t_ns (all: UINT64_MAX). */
static void vcd_lb_flush(struct vcd_out *o, uint64_t t_ns)
{
	while (o->lb_n && o->lb[o->lb_head].t <= t_ns) {
		vcd_change(o, o->lb[o->lb_head].t, o->lb[o->lb_head].v, '"');
		o->lb_head = (o->lb_head + 1) % VCD_LB_PENDING;
		o->lb_n--;
	}
}

static void vcd_lb_add(struct vcd_out *o, uint64_t t_ns, int v)
{
	if (v == o->lb_level)
		return;        /* the kernel missed the edge before: no change */
	if (o->lb_n == VCD_LB_PENDING) {
		o->lb_n--;     /* a wire slower than 4096 edges: written early, clamped */
		vcd_change(o, o->lb[o->lb_head].t, o->lb[o->lb_head].v, '"');
		o->lb_head = (o->lb_head + 1) % VCD_LB_PENDING;
	}
	o->lb[(o->lb_head + o->lb_n++) % VCD_LB_PENDING].t = t_ns;
	o->lb[(o->lb_head + o->lb_n - 1) % VCD_LB_PENDING].v = v;
	o->lb_level = v;
}

/* @s as text of a $comment, into @buf: safe for a terminal (control
 * characters as \xNN) and every '$' as \x24, so that no word of it ends the
 * comment ("$end") or reads as a command: a line or a file may be named
 * anything. Returns @buf. */
static const char *vcd_comment(const char *s, char *buf, size_t len)
{
	char esc[1024];
	const char *p;
	size_t i = 0;

	outfile_escape(s, esc, sizeof(esc));
	for (p = esc; *p && i + 5 <= len; p++) {
		if (*p == '$') {
			memcpy(buf + i, "\\x24", 4);
			i += 4;
		} else {
			buf[i++] = *p;
		}
	}
	buf[i] = '\0';
	return buf;
}

#define VCD_COMMENT(s) vcd_comment((s), (char[2048]){ 0 }, 2048)

int64_t vcdout_write_log(struct edgelog_reader *r, FILE *out, const char *log_name,
			 char *err, size_t errlen)
{
	const struct edgelog_meta *m = edgelog_reader_meta(r);
	int invert = meta_bool(m, "gpio.active_low", 0);
	int level = meta_bool(m, "gpio.idle_level", 0) ^ invert;
	struct loopjoin *lj = NULL;
	struct loopjoin_edge je;
	struct vcd_out *o;
	int got;

	o = calloc(1, sizeof(*o));
	if (loopjoin_log_has_loopback(m))
		lj = loopjoin_new(r, 0, 0);
	if (!o || (loopjoin_log_has_loopback(m) && !lj)) {
		snprintf(err, errlen, "%s: %s", log_name, strerror(ENOMEM));
		free(o);
		loopjoin_free(lj);
		errno = ENOMEM;
		return -1;
	}
	o->out = out;
	o->start_ns = m->start_ns;
	o->lb_level = level;
	fprintf(out, "$version sqwave %s $end\n", SQW_VERSION);
	fprintf(out, "$comment\n  the wave logged in %s: each edge at the middle of its write "
		"window;\n  times in ns since the log's slot 0 (CLOCK_MONOTONIC %" PRIu64 " ns)\n"
		"$end\n", VCD_COMMENT(log_name), m->start_ns);
	if (lj)
		fprintf(out, "$comment\n  loopback: the input as the kernel saw it, each edge at "
			"its event's time\n$end\n");
	fprintf(out, "$timescale 1ns $end\n$scope module sqwave $end\n$var wire 1 ! pin $end\n"
		"%s$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n%d!\n",
		lj ? "$var wire 1 \" loopback $end\n" : "", level);
	if (lj)
		fprintf(out, "%d\"\n", level);
	fprintf(out, "$end\n");
	for (;;) {
		uint64_t b, end;
		int v;

		if (lj) {
			got = loopjoin_next_edge(lj, &je);
		} else {
			got = edgelog_reader_next(r, &je.rec);
			je.has_event = false;
		}
		if (got != 1)
			break;
		b = edge_write_begin_ns(&je.rec);
		end = edge_write_end_ns(&je.rec);
		v = (je.rec.level ? 1 : 0) ^ invert;
		if (je.has_event)
			vcd_lb_add(o, je.event_ns, v);
		if ((je.rec.flags & EDGE_F_WRITE_ERR) || v == level)
			continue;
		vcd_lb_flush(o, b + (end - b) / 2);
		vcd_change(o, b + (end - b) / 2, v, '!');
		level = v;
		o->changes++;
	}
	if (got < 0) {
		snprintf(err, errlen, "%s: read error after %" PRId64 " edges: %s", log_name,
			 o->changes, lj ? loopjoin_error(lj) : strerror(errno));
		free(o);
		loopjoin_free(lj);
		return -1;
	}
	vcd_lb_flush(o, UINT64_MAX);
	loopjoin_free(lj);
	/* A last time stamp, so viewers show the final level for a moment. */
	fprintf(out, "#%" PRIu64 "\n", o->last + m->half_period_ns);
	got = ferror(out);
	{
		int64_t changes = o->changes;

		free(o);
		if (got) {
			snprintf(err, errlen, "writing the VCD failed: %s",
				 strerror(errno ? errno : EIO));
			errno = errno ? errno : EIO;
			return -1;
		}
		return changes;
	}
}

/* ---- the CSV's cells ---- */

void vcdout_csv_fields(struct outfile_buf *o, const struct edge_rec *e)
{
	outfile_buf_u64(o, e->seq);
	outfile_buf_c(o, ',');
	outfile_buf_u64(o, e->level);
	outfile_buf_c(o, ',');
	outfile_buf_u64(o, e->intended_ns);
	outfile_buf_c(o, ',');
	outfile_buf_u64(o, edge_wake_ns(e));
	outfile_buf_c(o, ',');
	outfile_buf_u64(o, edge_write_begin_ns(e));
	outfile_buf_c(o, ',');
	outfile_buf_u64(o, edge_write_end_ns(e));
	outfile_buf_c(o, ',');
	outfile_buf_u64(o, e->expirations);
	outfile_buf_c(o, ',');
	outfile_buf_u64(o, e->flags);
}

int vcdout_csv_tlat_cells(struct outfile_buf *o, struct tlatjoin *tj, const struct edge_rec *e)
{
	int32_t irq = -1, thr = -1;
	int got;

	if (!tj)
		return 0;
	got = tlatjoin_find(tj, e->intended_ns, &irq, &thr);
	if (got < 0)
		return -1;
	outfile_buf_c(o, ',');
	if (got && irq >= 0)
		outfile_buf_i64(o, irq);
	outfile_buf_c(o, ',');
	if (got && thr >= 0)
		outfile_buf_i64(o, thr);
	return 0;
}

void vcdout_csv_grid_cell(struct outfile_buf *o, const int64_t *grid_off, const struct edge_rec *e)
{
	if (!grid_off)
		return;
	outfile_buf_c(o, ',');
	outfile_buf_u64(o, e->intended_ns + (uint64_t)*grid_off);
}

/* ---- several logs ---- */

/* @n bytes of @p into @buf as one name: control characters as '?'. */
static void name_copy(char *buf, size_t len, const char *p, size_t n)
{
	size_t i;

	if (n >= len)
		n = len - 1;
	for (i = 0; i < n; i++)
		buf[i] = (unsigned char)p[i] < 0x20 || p[i] == 0x7f ? '?' : p[i];
	buf[n] = '\0';
}

int vcdout_line_name(const struct edgelog_meta *m, char *buf, size_t len)
{
	char v[1024];
	const char *p;

	buf[0] = '\0';
	if ((p = edgelog_meta_get(m, "outputs.line", v, sizeof(v))) && *p)
		goto found;
	if ((p = edgelog_meta_get(m, "gpio.line", v, sizeof(v))) && *p)
		goto found;
	/* run.gpio: `gpiochip0 [label] line 3 "SIM3" (...)`: the name, else 3 */
	if ((p = edgelog_meta_get(m, EDGELOG_META_GPIO, v, sizeof(v))) && (p = strstr(p, " line "))) {
		const char *q;

		p += 6;
		q = p + strspn(p, "0123456789");
		if (q > p && q[0] == ' ' && q[1] == '"' && strchr(q + 2, '"')) {
			name_copy(buf, len, q + 2, (size_t)(strchr(q + 2, '"') - (q + 2)));
			return 1;
		}
		if (q > p) {
			name_copy(buf, len, p, (size_t)(q - p));
			return 1;
		}
	}
	return 0;
found:
	name_copy(buf, len, p, strlen(p));
	return 1;
}

int vcdout_line_names(struct vcdout_log *logs, size_t n, char *err, size_t errlen)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (!vcdout_line_name(edgelog_reader_meta(logs[i].r), logs[i].name,
				      sizeof(logs[i].name))) {
			const char *base = strrchr(logs[i].path, '/');

			name_copy(logs[i].name, sizeof(logs[i].name), base ? base + 1 : logs[i].path,
				  strlen(base ? base + 1 : logs[i].path));
		}
		for (j = 0; j < i; j++) {
			if (strcmp(logs[i].name, logs[j].name))
				continue;
			snprintf(err, errlen, "%s and %s are both of line '%s': one line, one log "
				 "(the header's outputs.line, else gpio.line, names it)", logs[j].path,
				 logs[i].path, logs[i].name);
			errno = EINVAL;
			return -1;
		}
	}
	return 0;
}

#define HOUR_NS 3600000000000ull

int vcdout_logs_warn(const struct vcdout_log *logs, size_t n, char *warn, size_t len)
{
	char h0[256], h[256];
	const char *host0 = NULL;
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t i, lo_i = 0, hi_i = 0, host_i = 0;

	warn[0] = '\0';
	for (i = 0; i < n; i++) {
		const struct edgelog_meta *m = edgelog_reader_meta(logs[i].r);
		const char *host = edgelog_meta_get(m, EDGELOG_META_HOST, h, sizeof(h));

		if (m->start_ns < lo) {
			lo = m->start_ns;
			lo_i = i;
		}
		if (m->start_ns > hi) {
			hi = m->start_ns;
			hi_i = i;
		}
		if (!host)
			continue;
		if (!host0) {
			host0 = edgelog_meta_get(m, EDGELOG_META_HOST, h0, sizeof(h0));
			host_i = i;
		} else if (strcmp(host0, host)) {
			snprintf(warn, len, "%s and %s were written on different hosts (%s, %s): their "
				 "CLOCK_MONOTONIC times are unrelated, so the merged order means nothing",
				 logs[host_i].path, logs[i].path, OUTFILE_ESC(host0), OUTFILE_ESC(host));
			return 1;
		}
	}
	if (hi - lo > HOUR_NS) {
		snprintf(warn, len, "%s and %s started %.1f h apart (start_ns): runs that far apart "
			 "may not share a boot, and the merged file spans the time between them",
			 logs[lo_i].path, logs[hi_i].path, (double)(hi - lo) / 3.6e12);
		return 1;
	}
	return 0;
}

/* One log of a merge: its joins, its next edge (if @have) and its key. */
struct merge_src {
	struct loopjoin *lj;           /* a loopback log's CSV */
	struct tlatjoin *tj;           /* a timerlat log's CSV */
	int64_t grid_off;
	bool grid;
	bool have;                     /* @je is the next edge, not written yet */
	struct loopjoin_edge je;
	uint64_t key;                  /* the merge's order: intended time, or midpoint */
	int invert, level;             /* VCD: physical level, and the wire's now */
	int64_t changes;
};

/* Each log's sources; -1 said (@bad, @err) as vcdout_write_csv() says. */
static int merge_open(struct vcdout_log *logs, size_t n, struct merge_src *s, bool csv,
		      size_t *bad, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct edgelog_meta *m = edgelog_reader_meta(logs[i].r);
		char gbuf[32], terr[512];

		*bad = i;
		s[i].invert = meta_bool(m, "gpio.active_low", 0);
		s[i].level = meta_bool(m, "gpio.idle_level", 0) ^ s[i].invert;
		if (!csv)
			continue;
		if (loopjoin_log_has_loopback(m) && !(s[i].lj = loopjoin_new(logs[i].r, 0, 0))) {
			snprintf(err, errlen, "%s: %s", logs[i].path, strerror(errno));
			return -1;
		}
		if (tlatjoin_log_has_timerlat(m) &&
		    !(s[i].tj = tlatjoin_open(logs[i].path, terr, sizeof(terr)))) {
			snprintf(err, errlen, "%s: a timerlat log's CSV reads the log twice: %s",
				 logs[i].path, terr);
			return -1;
		}
		if (edgelog_meta_get(m, EDGELOG_META_GRID_OFFSET, gbuf, sizeof(gbuf))) {
			char *end;

			errno = 0;
			s[i].grid_off = strtoll(gbuf, &end, 10);
			if (errno || end == gbuf || *end) {
				snprintf(err, errlen, "%s: the header's " EDGELOG_META_GRID_OFFSET
					 " is not a number", logs[i].path);
				errno = EBADMSG;
				return -1;
			}
			s[i].grid = true;
		}
	}
	return 0;
}

static void merge_close(struct merge_src *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		loopjoin_free(s[i].lj);
		tlatjoin_free(s[i].tj);
	}
}

/* The next edge of log @i into s[i] (have false at its end); -1 said. */
static int merge_pull(struct vcdout_log *logs, size_t i, struct merge_src *s, bool by_intended,
		      char *err, size_t errlen)
{
	struct merge_src *x = &s[i];
	int got;

	if (x->lj) {
		got = loopjoin_next_edge(x->lj, &x->je);
	} else {
		got = edgelog_reader_next(logs[i].r, &x->je.rec);
		x->je.has_event = false;
	}
	x->have = got == 1;
	if (got < 0) {
		enum edgelog_status st = EDGELOG_E_CORRUPT;
		const char *why = x->lj ? loopjoin_error(x->lj) : edgelog_reader_error(logs[i].r, &st);
		size_t pl = strlen(logs[i].path);

		edgelog_reader_error(logs[i].r, &st);
		/* the reader's errors name the log; the join's own do not */
		snprintf(err, errlen, "%s%s%s", strncmp(why, logs[i].path, pl) ? logs[i].path : "",
			 strncmp(why, logs[i].path, pl) ? ": " : "", why);
		errno = st == EDGELOG_E_IO ? EIO : EBADMSG;
		return -1;
	}
	if (x->have) {
		uint64_t b = edge_write_begin_ns(&x->je.rec), e = edge_write_end_ns(&x->je.rec);

		x->key = by_intended ? x->je.rec.intended_ns : b + (e - b) / 2;
	}
	return 0;
}

/* The log whose edge comes next (the earliest key, the first log on a tie);
 * n when every log has ended. */
static size_t merge_next(const struct merge_src *s, size_t n)
{
	size_t i, best = n;

	for (i = 0; i < n; i++)
		if (s[i].have && (best == n || s[i].key < s[best].key))
			best = i;
	return best;
}

/* @name as a CSV cell: quoted when it holds a comma, a quote or a space. */
static void csv_name(struct outfile_buf *o, const char *name)
{
	bool quote = strpbrk(name, ",\" ") != NULL;

	if (quote)
		outfile_buf_c(o, '"');
	for (; *name; name++) {
		if (*name == '"')
			outfile_buf_c(o, '"');
		outfile_buf_c(o, *name);
	}
	if (quote)
		outfile_buf_c(o, '"');
}

int64_t vcdout_write_csv(struct vcdout_log *logs, size_t n, bool line_column,
			 struct outfile_buf *o, size_t *bad, char *err, size_t errlen)
{
	struct merge_src s[VCDOUT_MAX_LOGS];
	bool lb = false, tl = false, grid = false;
	int64_t rows = 0;
	size_t i;
	const char *head;

	assert(n >= 1 && n <= VCDOUT_MAX_LOGS);
	memset(s, 0, sizeof(s));
	*bad = n;
	if (merge_open(logs, n, s, true, bad, err, errlen) < 0)
		goto fail;
	for (i = 0; i < n; i++) {
		lb |= s[i].lj != NULL;
		tl |= s[i].tj != NULL;
		grid |= s[i].grid;
	}
	if (line_column)
		outfile_buf_str(o, "line,", 5);
	head = lb ? edgelist_export_header_loopback : edgelist_export_header;
	outfile_buf_str(o, head, strlen(head) - 1);
	if (tl)
		outfile_buf_str(o, ",irq_latency_ns,thread_latency_ns", 33);
	if (grid)
		outfile_buf_str(o, ",intended_grid_ns", 17);
	outfile_buf_c(o, '\n');
	for (i = 0; i < n; i++)
		if (merge_pull(logs, i, s, true, err, errlen) < 0) {
			*bad = i;
			goto fail;
		}
	while ((i = merge_next(s, n)) < n) {
		const struct loopjoin_edge *j = &s[i].je;
		const struct edge_rec *e = &j->rec;

		/* a row stays under the 256 bytes one reserve leaves room for:
		 * the name is at most VCDOUT_NAME_MAX bytes, twice that quoted */
		outfile_buf_reserve(o);
		if (line_column) {
			csv_name(o, logs[i].name);
			outfile_buf_c(o, ',');
			outfile_buf_reserve(o);
		}
		vcdout_csv_fields(o, e);
		if (lb && j->has_event) {
			outfile_buf_c(o, ',');
			outfile_buf_u64(o, j->event_ns);
			outfile_buf_c(o, ',');
			outfile_buf_i64(o, (int64_t)(j->event_ns - edge_write_begin_ns(e)));
			outfile_buf_c(o, ',');
			outfile_buf_i64(o, (int64_t)(j->event_ns - edge_write_end_ns(e)));
		} else if (lb) {
			outfile_buf_str(o, ",,,", 3);	/* three empty cells */
		}
		if (s[i].tj && vcdout_csv_tlat_cells(o, s[i].tj, e) < 0) {
			snprintf(err, errlen, "%s: %s", logs[i].path, tlatjoin_error(s[i].tj));
			errno = EBADMSG;
			*bad = i;
			goto fail;
		} else if (tl && !s[i].tj) {
			outfile_buf_str(o, ",,", 2);
		}
		if (grid)
			vcdout_csv_grid_cell(o, s[i].grid ? &s[i].grid_off : NULL, e);
		if (grid && !s[i].grid)
			outfile_buf_c(o, ',');
		outfile_buf_c(o, '\n');
		rows++;
		if (merge_pull(logs, i, s, true, err, errlen) < 0) {
			*bad = i;
			goto fail;
		}
	}
	merge_close(s, n);
	return rows;
fail:
	{
		int e = errno;

		merge_close(s, n);
		errno = e;
		return -1;
	}
}

/* @name as a VCD reference: letters, digits and '_' (viewers split names
 * on '.', '[' and spaces); "line" before a leading digit. */
static void vcd_name(char *buf, size_t len, const char *name)
{
	size_t i = 0;

	if (isdigit((unsigned char)*name) || !*name)
		i = (size_t)snprintf(buf, len, "line");
	for (; *name && i + 1 < len; name++)
		buf[i++] = isalnum((unsigned char)*name) ? *name : '_';
	buf[i] = '\0';
}

int64_t vcdout_write_vcd(struct vcdout_log *logs, size_t n, FILE *out, int64_t *changes,
			 size_t *bad, char *err, size_t errlen)
{
	struct merge_src s[VCDOUT_MAX_LOGS];
	char refs[VCDOUT_MAX_LOGS][VCDOUT_NAME_MAX + 48];
	struct vcd_out *o;
	uint64_t start = UINT64_MAX, tail = 0;
	int64_t total = 0;
	size_t i;

	assert(n >= 1 && n <= VCDOUT_MAX_LOGS);
	memset(s, 0, sizeof(s));
	*bad = n;
	o = calloc(1, sizeof(*o));
	if (!o) {
		snprintf(err, errlen, "the VCD: %s", strerror(ENOMEM));
		errno = ENOMEM;
		return -1;
	}
	merge_open(logs, n, s, false, bad, err, errlen);	/* no joins: cannot fail */
	for (i = 0; i < n; i++) {
		const struct edgelog_meta *m = edgelog_reader_meta(logs[i].r);

		if (m->start_ns < start)
			start = m->start_ns;
		if (m->half_period_ns > tail)
			tail = m->half_period_ns;
	}
	o->out = out;
	o->start_ns = start;
	fprintf(out, "$version sqwave %s $end\n", SQW_VERSION);
	fprintf(out, "$comment\n  the waves logged in %zu logs, one wire per line: each edge at the "
		"middle of its write window;\n  times in ns since the earliest slot 0 "
		"(CLOCK_MONOTONIC %" PRIu64 " ns)\n", n, start);
	for (i = 0; i < n; i++)
		fprintf(out, "  %s: %s\n", VCD_COMMENT(logs[i].name), VCD_COMMENT(logs[i].path));
	fprintf(out, "$end\n$timescale 1ns $end\n$scope module sqwave $end\n");
	for (i = 0; i < n; i++) {
		size_t j;

		vcd_name(refs[i], VCDOUT_NAME_MAX + 8, logs[i].name);
		/* two names alike but for the characters replaced: the later one
		 * gets its log's number, so each wire has a name of its own (the
		 * names are different lines: this ends before the buffer does) */
		for (j = 0; j < i; j++)
			if (!strcmp(refs[i], refs[j]) && strlen(refs[i]) + 4 < sizeof(refs[i])) {
				snprintf(refs[i] + strlen(refs[i]), 4, "_%zu", i);
				j = (size_t)-1;	/* again, against every name */
			}
		fprintf(out, "$var wire 1 %c %s $end\n", (char)('!' + i), refs[i]);
	}
	fprintf(out, "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n");
	for (i = 0; i < n; i++)
		fprintf(out, "%d%c\n", s[i].level, (char)('!' + i));
	fprintf(out, "$end\n");
	for (i = 0; i < n; i++)
		if (merge_pull(logs, i, s, false, err, errlen) < 0) {
			*bad = i;
			goto fail;
		}
	while ((i = merge_next(s, n)) < n) {
		const struct edge_rec *e = &s[i].je.rec;
		int v = (e->level ? 1 : 0) ^ s[i].invert;

		if (!(e->flags & EDGE_F_WRITE_ERR) && v != s[i].level) {
			vcd_change(o, s[i].key, v, (char)('!' + i));
			s[i].level = v;
			s[i].changes++;
			total++;
		}
		if (merge_pull(logs, i, s, false, err, errlen) < 0) {
			*bad = i;
			goto fail;
		}
	}
	fprintf(out, "#%" PRIu64 "\n", o->last + tail);
	free(o);
	if (changes)
		for (i = 0; i < n; i++)
			changes[i] = s[i].changes;
	if (ferror(out)) {
		snprintf(err, errlen, "writing the VCD failed: %s", strerror(errno ? errno : EIO));
		errno = errno ? errno : EIO;
		return -1;
	}
	return total;
fail:
	free(o);
	return -1;
}
