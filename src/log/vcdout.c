/* SPDX-License-Identifier: GPL-2.0-or-later */
/* VCD output of a run log: the wave sqwave wrote, as a logic analyzer would
 * have recorded it, with each edge at the middle of its write window. */
#include "log/vcdout.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "rt/edge.h"
#include "log/edgelog.h"

/* A boolean metadata key of the log ("true", "1"); @def if absent. */
static int meta_bool(const struct edgelog_meta *m, const char *key, int def)
{
	char buf[16];
	const char *v = edgelog_meta_get(m, key, buf, sizeof(buf));

	if (!v)
		return def;
	return !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes");
}

int64_t vcdout_write_log(struct edgelog_reader *r, FILE *out, const char *log_name,
			 char *err, size_t errlen)
{
	const struct edgelog_meta *m = edgelog_reader_meta(r);
	int invert = meta_bool(m, "gpio.active_low", 0);
	int level = meta_bool(m, "gpio.idle_level", 0) ^ invert;
	uint64_t last = 0, t;
	int64_t changes = 0;
	struct edge_rec e;
	int got;

	fprintf(out, "$version sqwave %s $end\n", SQW_VERSION);
	fprintf(out, "$comment\n  the wave logged in %s: each edge at the middle of its write "
		"window;\n  times in ns since the log's slot 0 (CLOCK_MONOTONIC %" PRIu64 " ns)\n"
		"$end\n", log_name, m->start_ns);
	fprintf(out, "$timescale 1ns $end\n$scope module sqwave $end\n$var wire 1 ! pin $end\n"
		"$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n%d!\n$end\n", level);
	while ((got = edgelog_reader_next(r, &e)) == 1) {
		uint64_t b = edge_write_begin_ns(&e), end = edge_write_end_ns(&e);
		int v = (e.level ? 1 : 0) ^ invert;

		if ((e.flags & EDGE_F_WRITE_ERR) || v == level)
			continue;
		t = b + (end - b) / 2;
		t = t > m->start_ns ? t - m->start_ns : 0;
		if (t < last)
			t = last;   /* VCD time never goes back; windows never overlap */
		if (t > last || !changes)
			fprintf(out, "#%" PRIu64 "\n", t);
		fprintf(out, "%d!\n", v);
		last = t;
		level = v;
		changes++;
	}
	if (got < 0) {
		snprintf(err, errlen, "%s: read error after %" PRId64 " edges: %s", log_name,
			 changes, strerror(errno));
		return -1;
	}
	/* A last time stamp, so viewers show the final level for a moment. */
	fprintf(out, "#%" PRIu64 "\n", last + m->half_period_ns);
	if (ferror(out)) {
		snprintf(err, errlen, "writing the VCD failed: %s", strerror(errno ? errno : EIO));
		errno = errno ? errno : EIO;
		return -1;
	}
	return changes;
}
