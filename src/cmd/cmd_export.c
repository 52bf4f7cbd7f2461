/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave export LOG`: one CSV row per edge (--csv), one per event field
 * (--events), the header and counts (--meta). Formats in docs/log-format.md. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmdline.h"
#include "log/edgelist.h"
#include "log/edgelog.h"
#include "base/outfile.h"
#include "log/loopjoin.h"
#include "log/tlatjoin.h"
#include "log/vcdout.h"
#include "cmd/print.h"

static void export_usage(FILE *f)
{
	fprintf(f,
		"usage: sqwave export LOG [--csv FILE] [--events FILE] [--meta] [--unchecked]\n"
		"       sqwave export LOG --vcd FILE\n\n"
		"  --csv FILE      one row per edge (FILE - is standard output; one of --csv -,\n"
		"                  --events - and --meta at a time)\n"
		"  --events FILE   one row per field of each event (format 2 logs)\n"
		"  --vcd FILE      the wave (write-window midpoints, physical level) as a VCD,\n"
		"                  for PulseView or GTKWave beside a capture; a run --loopback\n"
		"                  log adds the input as the kernel saw it (wire \"loopback\")\n"
		"  --meta          print the log header, then the counts and the footer\n"
		"  --unchecked     write records even when they are inconsistent (a damaged\n"
		"                  log); by default the first one stops the export, exit 2\n"
		"  -h, --help      this help\n\n"
		"CSV columns (times in ns on the log's clock, CLOCK_MONOTONIC):\n"
		"  %s"
		"flags: 1 warm-up, 2 clamped, 4 write error, 8 last edge\n"
		"a run --loopback log adds loopback_ns,loopback_from_begin_ns,loopback_from_end_ns:\n"
		"  the kernel's time of the edge on the input, minus write_begin, minus write_end\n"
		"  (empty: the kernel saw no event for that edge; docs/loopback.md)\n"
		"a timerlat log adds irq_latency_ns,thread_latency_ns (docs/timerlat.md);\n"
		"a grid.clock realtime/tai log adds intended_grid_ns: the intended time on\n"
		"  that clock, the same for every board on the grid (docs/grid.md)\n"
		"events columns: event,time_ns,type,key,value (docs/log-format.md)\n"
		"exit codes: 0 done (a log cut short is a warning), 2 not a log or corrupt,\n"
		"            3 I/O error\n", edgelist_export_header);
}

/* A CSV field: quoted when it must be, control characters as \xNN. */
static void events_field(struct outfile_buf *o, const char *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	bool quote = false;
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] == ',' || p[i] == '"' || p[i] == ' ')
			quote = true;
	if (quote)
		outfile_buf_c(o, '"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		outfile_buf_reserve(o);
		if (c < 0x20 || c == 0x7f) {
			outfile_buf_str(o, "\\x", 2);
			outfile_buf_c(o, hex[c >> 4]);
			outfile_buf_c(o, hex[c & 15]);
		} else {
			if (c == '"')
				outfile_buf_c(o, '"');
			outfile_buf_c(o, (char)c);
		}
	}
	if (quote)
		outfile_buf_c(o, '"');
}

static void events_row_start(struct outfile_buf *o, uint64_t n, const struct edgelog_event *ev)
{
	const char *type = edgelog_event_type_name(ev->type);

	outfile_buf_reserve(o);
	outfile_buf_u64(o, n);
	outfile_buf_c(o, ',');
	outfile_buf_u64(o, ev->time_ns);
	outfile_buf_c(o, ',');
	outfile_buf_str(o, type, strlen(type));
	outfile_buf_c(o, ',');
}

/* Event @n: text events a row per "key=value" line; loopback a row per
 * (seq, time) pair, the edge's seq as the key. */
static void events_write(struct outfile_buf *o, uint64_t n, const struct edgelog_event *ev)
{
	const char *p = (const char *)ev->payload, *end = p + ev->len;

	if (ev->type == EDGELOG_EV_LOOPBACK) {
		size_t i;

		for (i = 0; i + 16 <= ev->len; i += 16) {
			uint64_t seq, t;

			memcpy(&seq, ev->payload + i, 8);
			memcpy(&t, ev->payload + i + 8, 8);
			events_row_start(o, n, ev);
			outfile_buf_u64(o, seq);
			outfile_buf_c(o, ',');
			outfile_buf_u64(o, t);
			outfile_buf_c(o, '\n');
		}
		return;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *eq = memchr(p, '=', (size_t)(le - p));

		if (le > p) {
			events_row_start(o, n, ev);
			events_field(o, p, (size_t)((eq ? eq : le) - p));
			outfile_buf_c(o, ',');
			if (eq)
				events_field(o, eq + 1, (size_t)(le - eq - 1));
			outfile_buf_c(o, '\n');
		}
		p = le + 1;
	}
}

/* The columns every record has, without the row's end. */
static void csv_fields(struct outfile_buf *o, const struct edge_rec *e)
{
	outfile_buf_reserve(o);
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

/* A timerlat log's two cells more: the activation's IRQ and thread
 * latency, empty where the tracer gave none. 0, or -1 (the join's error). */
static int csv_tlat_cells(struct outfile_buf *o, struct tlatjoin *tj, const struct edge_rec *e)
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

/* A grid log's last cell: the intended time on the grid clock (docs/grid.md). */
static void csv_grid_cell(struct outfile_buf *o, const int64_t *grid_off, const struct edge_rec *e)
{
	if (!grid_off)
		return;
	outfile_buf_c(o, ',');
	outfile_buf_u64(o, e->intended_ns + (uint64_t)*grid_off);
}

static int csv_row(struct outfile_buf *o, const struct edge_rec *e, struct tlatjoin *tj,
		   const int64_t *grid_off)
{
	csv_fields(o, e);
	if (csv_tlat_cells(o, tj, e) < 0)
		return -1;
	csv_grid_cell(o, grid_off, e);
	outfile_buf_c(o, '\n');
	return 0;
}

/* A row of a loopback log: the edge's columns, then the kernel's time of it
 * and its distance from the write window, or three empty cells. */
static int csv_row_loopback(struct outfile_buf *o, const struct loopjoin_edge *j,
			    struct tlatjoin *tj, const int64_t *grid_off)
{
	const struct edge_rec *e = &j->rec;

	/* the row stays under the 256 bytes one reserve leaves room for */
	csv_fields(o, e);
	outfile_buf_c(o, ',');
	if (j->has_event) {
		outfile_buf_u64(o, j->event_ns);
		outfile_buf_c(o, ',');
		outfile_buf_i64(o, (int64_t)(j->event_ns - edge_write_begin_ns(e)));
		outfile_buf_c(o, ',');
		outfile_buf_i64(o, (int64_t)(j->event_ns - edge_write_end_ns(e)));
	} else {
		outfile_buf_str(o, ",,", 2);	/* three empty cells */
	}
	if (csv_tlat_cells(o, tj, e) < 0)
		return -1;
	csv_grid_cell(o, grid_off, e);
	outfile_buf_c(o, '\n');
	return 0;
}

/* The header's metadata, a line at a time, safe for a terminal. */
static void print_meta(const struct edgelog_meta *m)
{
	const char *p = m->text;

	printf("format_version=%" PRIu32 "\nclock_id=%" PRId32 "\nhalf_period_ns=%" PRIu64
	       "\nstart_ns=%" PRIu64 "\nstart_realtime_ns=%" PRIu64 "\n", m->version, m->clock_id,
	       m->half_period_ns, m->start_ns, m->start_realtime_ns);
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[4096], esc[4096];

		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		printf("%s\n", outfile_escape(line, esc, sizeof(esc)));
		p = nl ? nl + 1 : p + strlen(p);
	}
}

static void print_counts(const struct edgelog_reader *r)
{
	const struct edgelog_footer *f = edgelog_reader_footer(r);
	unsigned t;

	printf("records=%" PRIu64 "\nevents=%" PRIu64 "\n", edgelog_reader_records(r),
	       edgelog_reader_events(r, 0));
	for (t = 1; t < EDGELOG_EV_NTYPES; t++)
		if (edgelog_reader_events(r, t))
			printf("events.%s=%" PRIu64 "\n", edgelog_event_type_name(t),
			       edgelog_reader_events(r, t));
	if (f)
		printf("footer.records=%" PRIu64 "\nfooter.dropped=%" PRIu64
		       "\nfooter.missed_periods=%" PRIu64 "\nfooter.end_realtime_ns=%" PRIu64
		       "\nfooter.exit_code=%" PRId32 "\nfooter.stop_reason=%s\n", f->records, f->dropped,
		       f->missed_periods, f->end_realtime_ns, f->exit_code,
		       edgelog_stop_name(f->stop_reason));
	else if (edgelog_reader_zero_bytes(r))
		printf("footer=none (truncated: ends in %" PRIu64 " zero bytes)\n",
		       edgelog_reader_zero_bytes(r));
	else
		printf("footer=none (truncated%s)\n",
		       edgelog_reader_trailing_bytes(r) ? ", partial last record" : "");
}

static const struct option export_opts[] = {
	{ "csv", required_argument, NULL, 'c' },
	{ "events", required_argument, NULL, 'e' },
	{ "meta", no_argument, NULL, 'm' },
	{ "unchecked", no_argument, NULL, 'u' },
	{ "vcd", required_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* The options, for the man page and the completion (main.c). */
size_t cmd_export_options(struct option *out, size_t max)
{
	return cmdline_options_copy(out, max, export_opts);
}

void cmd_export_help(FILE *f)
{
	export_usage(f);
}

/* --vcd: the wave alone (vcdout.c). The exit code. */
static int export_vcd(struct edgelog_reader *r, const char *vcd, const char *path)
{
	FILE *out;
	int64_t changes;
	char err[1024];

	out = outfile_open(vcd, err, sizeof(err));
	if (!out) {
		pr_err("%s", err);
		return SQW_EXIT_RUNTIME;
	}
	changes = vcdout_write_log(r, out, path, err, sizeof(err));
	if (changes < 0)
		pr_err("%s", err);
	else if (!edgelog_reader_footer(r))
		pr_warn("%s: log is truncated (no footer: the run was cut short); exported "
			"%" PRId64 " edges", path, changes);
	if (outfile_close(out, vcd, err, sizeof(err)) < 0 && changes >= 0) {
		pr_err("%s", err);
		changes = -1;
	}
	return changes < 0 ? SQW_EXIT_RUNTIME : SQW_EXIT_OK;
}

static const char events_head[] = "event,time_ns,type,key,value\n";

/* Open @path for the buffered writer *@o (allocated) and write @head.
 * 0, or -1 said, *@o freed and NULL. */
static int export_buf_open(struct outfile_buf **o, const char *path, const char *head)
{
	char err[1024];
	FILE *f = outfile_open(path, err, sizeof(err));

	if (!f) {
		pr_err("%s", err);
		free(*o);
		*o = NULL;
		return -1;
	}
	outfile_buf_init(*o, f);
	outfile_buf_str(*o, head, strlen(head));
	return 0;
}

/* Flush, close and free @o (NULL: nothing); -1 said when a write failed.
 * @err_errno: errno was the buffer's own failure (the CSV's wording). */
static int export_buf_close(struct outfile_buf *o, const char *path, bool err_errno)
{
	char err[1024];
	int ret = 0;

	if (!o)
		return 0;
	outfile_buf_flush(o);
	if (err_errno && o->err)
		errno = o->err_no;
	if (outfile_close(o->f, path, err, sizeof(err)) < 0 || o->err) {
		pr_err("writing %s failed: %s", strcmp(path, "-") ? path : "standard output",
		       strerror(o->err ? o->err_no : errno));
		ret = -1;
	}
	free(o);
	return ret;
}

/* A log without its footer: what was exported of it. */
static void export_warn_truncated(struct edgelog_reader *r, const char *path)
{
	if (edgelog_reader_zero_bytes(r))
		pr_warn("%s: log is truncated: it ends in %" PRIu64 " zero bytes where records "
			"should be (what a power loss leaves); exported the %" PRIu64
			" complete records", path, edgelog_reader_zero_bytes(r),
			edgelog_reader_records(r));
	else
		pr_warn("%s: log is truncated (no footer: the run was cut short); exported the %"
			PRIu64 " complete records%s", path, edgelog_reader_records(r),
			edgelog_reader_trailing_bytes(r) ? ", ignored a partial last record" : "");
}

/* What the CSV's loopback columns could not say: events that are in no row. */
static void export_warn_loopback(const struct loopjoin_counts *c, const char *path)
{
	if (c->extra || c->late)
		pr_warn("%s: %" PRIu64 " loopback events are in no row: %" PRIu64 " for no edge, %"
			PRIu64 " too late for the join's window (docs/loopback.md)", path,
			c->extra + c->late, c->extra, c->late);
}

int cmd_export(int argc, char **argv)
{
	const char *csv = NULL, *events = NULL, *vcd = NULL, *path;
	enum edgelog_status st;
	struct edgelog_reader *r;
	struct edgelog_event ev;
	struct outfile_buf *oc = NULL, *oe = NULL;
	struct loopjoin *lj = NULL;
	struct loopjoin_edge je;
	struct tlatjoin *tj = NULL;
	struct edge_rec e;
	char head[512], gbuf[32];
	int64_t grid_off_v = 0;
	const int64_t *grid_off = NULL;
	uint64_t nev = 0;
	bool meta = false, unchecked = false;
	int ch, ret = SQW_EXIT_OK, got;
	char err[1024];
	struct cmdline cl = { "export", export_opts, "c:e:muh", export_usage, false };

	while ((ch = cmdline_next(&cl, argc, argv, NULL)) >= 0) {
		switch (ch) {
		case 'v':
			vcd = optarg;
			break;
		case 'c':
			csv = optarg;
			break;
		case 'e':
			events = optarg;
			break;
		case 'm':
			meta = true;
			break;
		case 'u':
			unchecked = true;
			break;
		}
	}
	if (ch != CMDLINE_END)
		return ch == CMDLINE_HELP ? SQW_EXIT_OK : SQW_EXIT_USAGE;
	if (optind != argc - 1 || (!csv && !meta && !events && !vcd) ||
	    (vcd && (csv || meta || events))) {
		export_usage(stderr);
		return SQW_EXIT_USAGE;
	}
	path = argv[optind];
	{
		/* --meta writes to standard output: one more document there */
		const struct outfile_arg outs[] = { { "--csv", csv, false }, { "--events", events, false },
						    { "--vcd", vcd, false },
						    { "--meta", meta ? "-" : NULL, false } };
		const struct outfile_arg ins[] = { { "the log", path, false } };

		if (outfile_check(outs, 4, ins, 1, meta, err, sizeof(err)) < 0) {
			pr_err("%s", err);
			return SQW_EXIT_USAGE;
		}
	}
	r = edgelog_reader_open(path, &st, err, sizeof(err));
	if (!r) {
		pr_err("%s", err);
		return st == EDGELOG_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
	}
	edgelog_reader_set_checked(r, !unchecked);
	if (vcd) {	/* the wave alone: vcdout.c */
		ret = export_vcd(r, vcd, path);
		edgelog_reader_close(r);
		return ret;
	}
	if (meta)
		print_meta(edgelog_reader_meta(r));
	if ((csv && !(oc = malloc(sizeof(*oc)))) || (events && !(oe = malloc(sizeof(*oe))))) {
		pr_err("export: %s", strerror(ENOMEM));
		ret = SQW_EXIT_RUNTIME;
		goto out;
	}
	/* A loopback log's CSV joins each edge with its event (loopjoin.h). */
	if (oc && loopjoin_log_has_loopback(edgelog_reader_meta(r)) &&
	    !(lj = loopjoin_new(r, 0, 0))) {
		pr_err("export: %s", strerror(errno));
		ret = SQW_EXIT_RUNTIME;
		goto out;
	}
	/* A timerlat log's CSV: each edge's IRQ and thread latency (tlatjoin.h). */
	if (oc && tlatjoin_log_has_timerlat(edgelog_reader_meta(r)) &&
	    !(tj = tlatjoin_open(path, err, sizeof(err)))) {
		pr_err("export: a timerlat log's CSV reads the log twice: %s", err);
		ret = SQW_EXIT_RUNTIME;
		goto out;
	}
	snprintf(head, sizeof(head), "%s", lj ? edgelist_export_header_loopback
					      : edgelist_export_header);
	if (tj)
		snprintf(head + strlen(head) - 1, sizeof(head) - strlen(head) + 1,
			 ",irq_latency_ns,thread_latency_ns\n");
	/* A grid log's CSV: each edge's intended time on the grid clock. */
	if (oc && edgelog_meta_get(edgelog_reader_meta(r), EDGELOG_META_GRID_OFFSET, gbuf,
				   sizeof(gbuf))) {
		char *end;

		errno = 0;
		grid_off_v = strtoll(gbuf, &end, 10);
		if (errno || end == gbuf || *end) {
			pr_err("%s: the header's " EDGELOG_META_GRID_OFFSET " is not a number", path);
			ret = SQW_EXIT_USAGE;
			goto out;
		}
		grid_off = &grid_off_v;
		snprintf(head + strlen(head) - 1, sizeof(head) - strlen(head) + 1,
			 ",intended_grid_ns\n");
	}
	if ((oc && export_buf_open(&oc, csv, head) < 0) ||
	    (oe && export_buf_open(&oe, events, events_head) < 0)) {
		ret = SQW_EXIT_RUNTIME;
		goto out;
	}
	if (lj) {
		while ((got = loopjoin_next(lj, &je, &ev)) > 0) {
			if (got == 1 && csv_row_loopback(oc, &je, tj, grid_off) < 0)
				break;
			else if (got == 2 && oe)
				events_write(oe, nev++, &ev);
		}
	} else {
		while ((got = edgelog_reader_next_item(r, &e, &ev)) > 0) {
			if (got == 1 && oc && csv_row(oc, &e, tj, grid_off) < 0)
				break;
			else if (got == 2 && oe)
				events_write(oe, nev++, &ev);
		}
	}
	if (got > 0) {	/* the join's own error: the timerlat events are damaged */
		pr_err("%s: %s", path, tlatjoin_error(tj));
		ret = SQW_EXIT_USAGE;
	} else if (got < 0) {
		const char *why = lj ? loopjoin_error(lj) : edgelog_reader_error(r, &st);

		edgelog_reader_error(r, &st);
		/* the reader's errors name the log; the join's own do not */
		pr_err("%s%s%s (exported the %" PRIu64 " records before it)",
		       strncmp(why, path, strlen(path)) ? path : "",
		       strncmp(why, path, strlen(path)) ? ": " : "", why,
		       lj ? loopjoin_counts(lj)->records : edgelog_reader_records(r));
		ret = st == EDGELOG_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
	} else if (!edgelog_reader_footer(r)) {
		export_warn_truncated(r, path);
	}
	if (meta && got == 0)
		print_counts(r);
	if (lj && got == 0)
		export_warn_loopback(loopjoin_counts(lj), path);
out:
	loopjoin_free(lj);
	tlatjoin_free(tj);
	if (export_buf_close(oc, csv, true) < 0 || export_buf_close(oe, events, false) < 0)
		ret = SQW_EXIT_RUNTIME;
	edgelog_reader_close(r);
	return ret;
}
