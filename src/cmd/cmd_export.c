/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave export LOG [LOG...]`: one CSV row per edge (--csv), one per event
 * field (--events), the header and counts (--meta), the wave (--vcd); several
 * logs merged (log/vcdout.h). Formats in docs/log-format.md. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd_export.h"
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
		"usage: sqwave export LOG [LOG...] [--csv FILE] [--events FILE] [--meta] [--unchecked]\n"
		"       sqwave export LOG [LOG...] --vcd FILE\n\n"
		"  --csv FILE      one row per edge (FILE - is standard output; one of --csv -,\n"
		"                  --events - and --meta at a time)\n"
		"  --events FILE   one row per field of each event (format 2 logs)\n"
		"  --vcd FILE      the wave (write-window midpoints, physical level) as a VCD,\n"
		"                  for PulseView or GTKWave beside a capture; a run --loopback\n"
		"                  log adds the input as the kernel saw it (wire \"loopback\")\n"
		"  --meta          print the log header, then the counts and the footer\n"
		"  --line-column   with --csv of one log: a first column, line, as several\n"
		"                  logs' CSV has\n"
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
		"several logs (2 to %d, one per line: a multi-line run's, or runs side by\n"
		"side): --csv merges their rows in intended order with a first column, line\n"
		"  (the header's outputs.line, else gpio.line; one line twice is exit 2);\n"
		"  --vcd has one wire per line; --events and --meta give each log in turn\n"
		"  after a line \"# LOG\"; a bad log among them leaves no output file\n"
		"  (docs/log-format.md)\n"
		"exit codes: 0 done (a log cut short is a warning), 2 not a log or corrupt,\n"
		"            3 I/O error\n", edgelist_export_header, VCDOUT_MAX_LOGS);
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

static int csv_row(struct outfile_buf *o, const struct edge_rec *e, struct tlatjoin *tj,
		   const int64_t *grid_off)
{
	outfile_buf_reserve(o);
	vcdout_csv_fields(o, e);
	if (vcdout_csv_tlat_cells(o, tj, e) < 0)
		return -1;
	vcdout_csv_grid_cell(o, grid_off, e);
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
	outfile_buf_reserve(o);
	vcdout_csv_fields(o, e);
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
	if (vcdout_csv_tlat_cells(o, tj, e) < 0)
		return -1;
	vcdout_csv_grid_cell(o, grid_off, e);
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
	{ "line-column", no_argument, NULL, 'l' },
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

/* The buffered writer on @path with @head written; NULL said. */
static struct outfile_buf *export_buf_open(const char *path, const char *head)
{
	char err[1024];
	struct outfile_buf *o = outfile_buf_open(path, err, sizeof(err));

	if (!o) {
		pr_err("%s", err);
		return NULL;
	}
	outfile_buf_str(o, head, strlen(head));
	return o;
}

/* Flush, close and free @o (NULL: nothing); -1 said when a write failed. */
static int export_buf_close(struct outfile_buf *o, const char *path)
{
	char err[1024];

	if (outfile_buf_close(o, path, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		return -1;
	}
	return 0;
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

/* An output of several logs that failed: no partial file is left (a
 * regular file; standard output, a pipe or a device are what they are). */
static void export_unlink(const char *path)
{
	struct stat sb;

	if (path && strcmp(path, "-") && stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
		unlink(path);
}

/* Whether @path can be read a second time from its start: a regular file
 * (under any name: /dev/stdin redirected from a file is one). */
static bool export_rereadable(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The exit code of a failure of the merge (errno as vcdout.h says). */
static int export_fail_code(int e)
{
	return e == EBADMSG || e == EINVAL ? SQW_EXIT_USAGE : SQW_EXIT_RUNTIME;
}

/* Open @n logs into @logs; the exit code (0: all open). */
static int export_open_logs(struct vcdout_log *logs, char **paths, size_t n, bool unchecked)
{
	enum edgelog_status st;
	char err[1024];
	size_t i;

	for (i = 0; i < n; i++) {
		logs[i].path = paths[i];
		logs[i].r = edgelog_reader_open(paths[i], &st, err, sizeof(err));
		if (!logs[i].r) {
			pr_err("%s", err);
			return st == EDGELOG_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
		}
		edgelog_reader_set_checked(logs[i].r, !unchecked);
	}
	return SQW_EXIT_OK;
}

static void export_close_logs(struct vcdout_log *logs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		edgelog_reader_close(logs[i].r);
		logs[i].r = NULL;
	}
}

/* The CSV of several logs (or of one with --line-column): the exit code. */
static int export_multi_csv(struct vcdout_log *logs, size_t n, const char *csv, bool line_column)
{
	struct outfile_buf *o = export_buf_open(csv, "");
	char err[1024];
	size_t bad, i;
	int64_t rows;
	int ret = SQW_EXIT_OK;

	if (!o)
		return SQW_EXIT_RUNTIME;
	rows = vcdout_write_csv(logs, n, line_column, o, &bad, err, sizeof(err));
	if (rows < 0) {
		pr_err("%s; no CSV written", err);
		ret = export_fail_code(errno);
	}
	if (export_buf_close(o, csv) < 0 && ret == SQW_EXIT_OK)
		ret = SQW_EXIT_RUNTIME;
	if (ret != SQW_EXIT_OK) {
		export_unlink(csv);
		return ret;
	}
	for (i = 0; i < n; i++)
		if (!edgelog_reader_footer(logs[i].r))
			export_warn_truncated(logs[i].r, logs[i].path);
	return ret;
}

/* The VCD of several logs: the exit code. */
static int export_multi_vcd(struct vcdout_log *logs, size_t n, const char *vcd)
{
	char err[1024];
	size_t bad, i;
	int64_t changes;
	int ret = SQW_EXIT_OK;
	FILE *out = outfile_open(vcd, err, sizeof(err));

	if (!out) {
		pr_err("%s", err);
		return SQW_EXIT_RUNTIME;
	}
	changes = vcdout_write_vcd(logs, n, out, NULL, &bad, err, sizeof(err));
	if (changes < 0) {
		pr_err("%s; no VCD written", err);
		ret = export_fail_code(errno);
	}
	if (outfile_close(out, vcd, err, sizeof(err)) < 0 && ret == SQW_EXIT_OK) {
		pr_err("%s", err);
		ret = SQW_EXIT_RUNTIME;
	}
	if (ret != SQW_EXIT_OK) {
		export_unlink(vcd);
		return ret;
	}
	for (i = 0; i < n; i++)
		if (!edgelog_reader_footer(logs[i].r))
			export_warn_truncated(logs[i].r, logs[i].path);
	return ret;
}

/* --events and --meta of several logs: each log in turn, after a "# LOG"
 * line (one events header for all), its events numbered from 0. The logs
 * are read here unless @read (the CSV read them: then only --meta's counts
 * are left, and --events reopens each log). The exit code. */
static int export_multi_each(struct vcdout_log *logs, size_t n, const char *events, bool meta,
			     bool read, bool unchecked)
{
	struct outfile_buf *oe = NULL;
	char err[1024], esc[1024];
	int ret = SQW_EXIT_OK;
	size_t i;

	if (events && !(oe = export_buf_open(events, events_head)))
		return SQW_EXIT_RUNTIME;
	for (i = 0; i < n && ret == SQW_EXIT_OK; i++) {
		struct edgelog_reader *r = logs[i].r;
		struct edgelog_event ev;
		struct edge_rec e;
		enum edgelog_status st;
		uint64_t nev = 0;
		int got = 0;

		if (meta) {
			printf("# %s\n", outfile_escape(logs[i].path, esc, sizeof(esc)));
			print_meta(edgelog_reader_meta(r));
		}
		if (oe) {
			outfile_buf_reserve(oe);
			outfile_buf_str(oe, "# ", 2);
			events_field(oe, logs[i].path, strlen(logs[i].path));
			outfile_buf_c(oe, '\n');
		}
		if (read && oe) {
			r = edgelog_reader_open(logs[i].path, &st, err, sizeof(err));
			if (!r) {
				pr_err("%s", err);
				ret = st == EDGELOG_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
				break;
			}
			edgelog_reader_set_checked(r, !unchecked);
		}
		if (!read || oe) {
			while ((got = edgelog_reader_next_item(r, &e, &ev)) > 0)
				if (got == 2 && oe)
					events_write(oe, nev++, &ev);
		}
		if (got < 0) {
			pr_err("%s%s", edgelog_reader_error(r, &st), oe ? "; no events written" : "");
			ret = st == EDGELOG_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
		} else if (!read && !edgelog_reader_footer(r)) {
			export_warn_truncated(r, logs[i].path);
		}
		if (meta && got == 0)
			print_counts(logs[i].r);
		if (r != logs[i].r)
			edgelog_reader_close(r);
	}
	if (export_buf_close(oe, events) < 0 && ret == SQW_EXIT_OK)
		ret = SQW_EXIT_RUNTIME;
	if (ret != SQW_EXIT_OK)
		export_unlink(events);
	return ret;
}

/* Several logs (or one with --line-column): the CSV and the VCD merged,
 * --events and --meta per log. The exit code. */
static int export_multi(char **paths, size_t n, const char *csv, const char *events,
			const char *vcd, bool meta, bool unchecked, bool line_column)
{
	struct vcdout_log logs[VCDOUT_MAX_LOGS];
	char err[1024];
	size_t i;
	int ret;

	memset(logs, 0, sizeof(logs));
	/* --csv with --events reads each log twice: a pipe cannot be */
	for (i = 0; csv && events && n > 1 && i < n; i++) {
		struct stat sb;

		if (stat(paths[i], &sb) == 0 && !S_ISREG(sb.st_mode)) {
			pr_err("%s is not a regular file: --csv and --events of several logs read "
			       "each log twice; export the events on their own", paths[i]);
			return SQW_EXIT_USAGE;
		}
	}
	ret = export_open_logs(logs, paths, n, unchecked);
	if (ret == SQW_EXIT_OK && (csv || vcd) && vcdout_line_names(logs, n, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		ret = SQW_EXIT_USAGE;
	}
	if (ret == SQW_EXIT_OK && n > 1 && vcdout_logs_warn(logs, n, err, sizeof(err)))
		pr_warn("%s", err);
	if (ret == SQW_EXIT_OK && csv)
		ret = export_multi_csv(logs, n, csv, line_column || n > 1);
	if (ret == SQW_EXIT_OK && vcd)
		ret = export_multi_vcd(logs, n, vcd);
	if (ret == SQW_EXIT_OK && (events || meta))
		ret = export_multi_each(logs, n, events, meta, csv != NULL, unchecked);
	export_close_logs(logs, n);
	return ret;
}

/* No output over an input or another output, at most one on standard
 * output (--meta writes there): 0, or -1 with the message printed. */
static int export_check_files(char **logs, int nlogs, const char *csv, const char *events,
			      const char *vcd, bool meta)
{
	/* --meta writes to standard output: one more document there */
	const struct outfile_arg outs[] = { { "--csv", csv, false }, { "--events", events, false },
					    { "--vcd", vcd, false },
					    { "--meta", meta ? "-" : NULL, false } };
	struct outfile_arg ins[VCDOUT_MAX_LOGS];
	char err[1024];
	int i;

	for (i = 0; i < nlogs; i++)
		ins[i] = (struct outfile_arg){ "the log", logs[i], false };
	if (outfile_check(outs, 4, ins, (size_t)nlogs, meta, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		return -1;
	}
	return 0;
}

/* One log: its CSV (each edge joined with its loopback event, its timerlat
 * latencies, its grid time, as the log has them) and events, its meta, or
 * the VCD of its wave. The exit code. */
static int export_one(const char *path, const char *csv, const char *events, const char *vcd,
		      bool meta, bool unchecked)
{
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
	int ret = SQW_EXIT_OK, got;
	char err[1024];

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
	/* Everything that can refuse comes before the outputs are opened: an
	 * early exit has nothing to close. */
	/* A loopback log's CSV joins each edge with its event (loopjoin.h). */
	if (csv && loopjoin_log_has_loopback(edgelog_reader_meta(r)) &&
	    !(lj = loopjoin_new(r, 0, 0))) {
		pr_err("export: %s", strerror(errno));
		ret = SQW_EXIT_RUNTIME;
		goto out;
	}
	/* A timerlat log's CSV: each edge's IRQ and thread latency (tlatjoin.h),
	 * from a second reading of the log, which a pipe cannot give. */
	if (csv && tlatjoin_log_has_timerlat(edgelog_reader_meta(r)) && !export_rereadable(path)) {
		pr_err("%s is not a regular file: a timerlat log's CSV reads the log twice; "
		       "export it from a file", path);
		ret = SQW_EXIT_USAGE;
		goto out;
	}
	if (csv && tlatjoin_log_has_timerlat(edgelog_reader_meta(r)) &&
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
	if (csv && edgelog_meta_get(edgelog_reader_meta(r), EDGELOG_META_GRID_OFFSET, gbuf,
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
	if ((csv && !(oc = export_buf_open(csv, head))) ||
	    (events && !(oe = export_buf_open(events, events_head)))) {
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
	if (export_buf_close(oc, csv) < 0)
		ret = SQW_EXIT_RUNTIME;
	if (export_buf_close(oe, events) < 0)
		ret = SQW_EXIT_RUNTIME;
	edgelog_reader_close(r);
	return ret;
}

int cmd_export(int argc, char **argv)
{
	const char *csv = NULL, *events = NULL, *vcd = NULL;
	bool meta = false, unchecked = false, line_column = false;
	int ch;
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
		case 'l':
			line_column = true;
			break;
		}
	}
	if (ch != CMDLINE_END)
		return ch == CMDLINE_HELP ? SQW_EXIT_OK : SQW_EXIT_USAGE;
	if (optind >= argc || (!csv && !meta && !events && !vcd) ||
	    (vcd && (csv || meta || events)) || (line_column && !csv)) {
		export_usage(stderr);
		return SQW_EXIT_USAGE;
	}
	if (argc - optind > VCDOUT_MAX_LOGS) {
		pr_err("export: %d logs: at most %d at once", argc - optind, VCDOUT_MAX_LOGS);
		return SQW_EXIT_USAGE;
	}
	if (export_check_files(argv + optind, argc - optind, csv, events, vcd, meta) < 0)
		return SQW_EXIT_USAGE;
	if (argc - optind > 1 || line_column)
		return export_multi(argv + optind, (size_t)(argc - optind), csv, events, vcd, meta,
				    unchecked, line_column);
	return export_one(argv[optind], csv, events, vcd, meta, unchecked);
}
