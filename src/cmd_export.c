/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave export LOG --csv FILE`: one CSV row per edge, so a run can be
 * looked at with any tool today. Columns documented in docs/log-format.md. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "edgelog.h"
#include "print.h"
#include "vcdout.h"

static void export_usage(FILE *f)
{
	fprintf(f,
		"usage: sqwave export LOG --csv FILE    (FILE - is standard output)\n"
		"       sqwave export LOG --vcd FILE    (the wave, for PulseView or GTKWave)\n"
		"       sqwave export LOG --meta        (print the log header)\n\n"
		"CSV columns (times in ns on the log's clock, CLOCK_MONOTONIC):\n"
		"  seq,level,intended_ns,wake_ns,write_begin_ns,write_end_ns,expirations,flags\n"
		"flags: 1 warm-up, 2 clamped offset, 4 write error, 8 last edge\n");
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "csv", required_argument, NULL, 'c' },
		{ "meta", no_argument, NULL, 'm' },
		{ "vcd", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *csv = NULL, *vcd = NULL, *path;
	enum edgelog_status st;
	struct edgelog_reader *r;
	const struct edgelog_meta *m;
	struct edge_rec e;
	uint64_t n = 0;
	FILE *out;
	int ch, meta = 0, ret = SQW_EXIT_OK, got;
	char err[512];

	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:mh", opts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			csv = optarg;
			break;
		case 'm':
			meta = 1;
			break;
		case 'v':
			vcd = optarg;
			break;
		case 'h':
			export_usage(stdout);
			return SQW_EXIT_OK;
		default:
			export_usage(stderr);
			return SQW_EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || (!csv && !meta && !vcd) || (vcd && (csv || meta))) {
		export_usage(stderr);
		return SQW_EXIT_USAGE;
	}
	path = argv[optind];
	r = edgelog_reader_open(path, &st, err, sizeof(err));
	if (!r) {
		pr_err("%s", err);
		return st == EDGELOG_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
	}
	m = edgelog_reader_meta(r);
	if (vcd) {	/* the wave alone: vcdout.c */
		int64_t changes;

		out = strcmp(vcd, "-") ? fopen(vcd, "w") : stdout;
		if (!out) {
			pr_err("cannot create %s: %s", vcd, strerror(errno));
			edgelog_reader_close(r);
			return SQW_EXIT_RUNTIME;
		}
		changes = vcdout_write_log(r, out, path, err, sizeof(err));
		if (changes < 0)
			pr_err("%s", err);
		else if (!edgelog_reader_footer(r))
			pr_warn("%s: log is truncated (no footer: the run was cut short); exported "
				"%" PRId64 " edges", path, changes);
		if (((out != stdout && fclose(out) != 0) || (out == stdout && fflush(out) != 0)) &&
		    changes >= 0) {
			pr_err("writing %s failed: %s", vcd, strerror(errno));
			changes = -1;
		}
		edgelog_reader_close(r);
		return changes < 0 ? SQW_EXIT_RUNTIME : SQW_EXIT_OK;
	}
	if (meta) {
		printf("format_version=%u\nclock_id=%d\nhalf_period_ns=%" PRIu64
		       "\nstart_ns=%" PRIu64 "\nstart_realtime_ns=%" PRIu64 "\n%s",
		       m->version, m->clock_id, m->half_period_ns, m->start_ns,
		       m->start_realtime_ns, m->text);
		if (!csv) {
			const struct edgelog_footer *f;

			while ((got = edgelog_reader_next(r, &e)) == 1)
				n++;
			f = edgelog_reader_footer(r);
			printf("records=%" PRIu64 "\n", n);
			if (f)
				printf("footer.records=%" PRIu64 "\nfooter.dropped=%" PRIu64
				       "\nfooter.missed_periods=%" PRIu64 "\nfooter.end_realtime_ns=%"
				       PRIu64 "\nfooter.exit_code=%d\nfooter.stop_reason=%s\n",
				       f->records, f->dropped, f->missed_periods, f->end_realtime_ns,
				       f->exit_code, edgelog_stop_name(f->stop_reason));
			else
				printf("footer=none (truncated%s)\n",
				       edgelog_reader_trailing_bytes(r) ? ", partial last record" : "");
			edgelog_reader_close(r);
			return got < 0 ? SQW_EXIT_RUNTIME : SQW_EXIT_OK;
		}
	}
	out = strcmp(csv, "-") ? fopen(csv, "w") : stdout;
	if (!out) {
		pr_err("cannot create %s: %s", csv, strerror(errno));
		edgelog_reader_close(r);
		return SQW_EXIT_RUNTIME;
	}
	fprintf(out, "seq,level,intended_ns,wake_ns,write_begin_ns,write_end_ns,expirations,flags\n");
	while ((got = edgelog_reader_next(r, &e)) == 1) {
		fprintf(out, "%" PRIu64 ",%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%u\n",
			e.seq, e.level, e.intended_ns, edge_wake_ns(&e), edge_write_begin_ns(&e),
			edge_write_end_ns(&e), e.expirations, e.flags);
		n++;
	}
	if (got < 0) {
		pr_err("%s: read error after %" PRIu64 " records: %s", path, n, strerror(errno));
		ret = SQW_EXIT_RUNTIME;
	} else if (!edgelog_reader_footer(r)) {
		pr_warn("%s: log is truncated (no footer: the run was cut short); exported the %"
			PRIu64 " complete records%s", path, n,
			edgelog_reader_trailing_bytes(r) ? ", ignored a partial last record" : "");
	}
	if ((out != stdout && fclose(out) != 0) || (out == stdout && fflush(out) != 0)) {
		pr_err("writing %s failed: %s", csv, strerror(errno));
		ret = SQW_EXIT_RUNTIME;
	}
	edgelog_reader_close(r);
	return ret;
}
