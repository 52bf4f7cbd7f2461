/* SPDX-License-Identifier: GPL-2.0-or-later */
/* VCD output of a run log: the wave sqwave wrote, as a logic analyzer would
 * have recorded it, with each edge at the middle of its write window. */
#include "log/vcdout.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rt/edge.h"
#include "log/edgelog.h"
#include "log/loopjoin.h"

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
		"$end\n", log_name, m->start_ns);
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
