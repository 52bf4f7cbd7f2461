/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A timerlat log's wake-up split in analyze's text and JSON (tlatreport.h). */
#include "summary/tlatreport.h"

#include <inttypes.h>

#include "base/units.h"
#include "summary/statsjson.h"

static void row(FILE *f, const char *name, const struct stats_hist *h)
{
	if (!h->m.n) {
		fprintf(f, "  %-22s (none)\n", name);
		return;
	}
	fprintf(f, "  %-22s p50 %10s  p99 %10s  max %10s us\n", name,
		UNITS_US(stats_hist_percentile(h, 50)), UNITS_US(stats_hist_percentile(h, 99)),
		UNITS_US(h->m.max));
}

void tlatreport_text(FILE *f, const struct tlatstats_result *r)
{
	fprintf(f, "\ntimerlat (rt.timer): %" PRIu64 " of %" PRIu64 " counted edges have the "
		"tracer's IRQ and thread samples", r->with_samples, r->edges);
	if (r->inconsistent)
		fprintf(f, "; %" PRIu64 " disagree (IRQ after the thread, or the thread after "
			"the wake-up)", r->inconsistent);
	fputc('\n', f);
	row(f, "timer IRQ latency", &r->irq);
	row(f, "thread latency", &r->thread);
	row(f, "thread to user", &r->to_user);
	if (r->limit_ns > 0)
		fprintf(f, "  late (wake-up over %s us): %" PRIu64 ": IRQ late %" PRIu64 ", thread "
			"late %" PRIu64 ", both %" PRIu64 ", neither %" PRIu64 "\n",
			UNITS_US(r->limit_ns), r->late, r->late_by[TLAT_SPLIT_IRQ],
			r->late_by[TLAT_SPLIT_THREAD], r->late_by[TLAT_SPLIT_BOTH],
			r->late_by[TLAT_SPLIT_NONE]);
	if (r->have_latest)
		fprintf(f, "  latest wake-up %s us at edge #%" PRIu64 ": IRQ %s + the rest %s us: "
			"%s\n", UNITS_US(r->latest_wake_ns), r->latest_seq, UNITS_US(r->latest_irq_ns),
			UNITS_US(r->latest_wake_ns - r->latest_irq_ns),
			tlat_split_name(r->latest_split));
}

void tlatreport_json(struct json_writer *w, const char *key, const struct tlatstats_result *r)
{
	if (!r) {
		json_kv_null(w, key);
		return;
	}
	json_kv_object_begin(w, key);
	json_kv_uint(w, "edges", r->edges);
	json_kv_uint(w, "with_samples", r->with_samples);
	json_kv_uint(w, "inconsistent", r->inconsistent);
	json_kv_object_begin(w, "irq_latency");
	statsjson_dist(w, &r->irq);
	json_object_end(w);
	json_kv_object_begin(w, "thread_latency");
	statsjson_dist(w, &r->thread);
	json_object_end(w);
	json_kv_object_begin(w, "thread_to_user");
	statsjson_dist(w, &r->to_user);
	json_object_end(w);
	if (r->limit_ns > 0)
		json_kv_int(w, "limit_ns", r->limit_ns);
	else
		json_kv_null(w, "limit_ns");
	json_kv_object_begin(w, "late");
	json_kv_uint(w, "edges", r->late);
	json_kv_uint(w, "irq", r->late_by[TLAT_SPLIT_IRQ]);
	json_kv_uint(w, "thread", r->late_by[TLAT_SPLIT_THREAD]);
	json_kv_uint(w, "both", r->late_by[TLAT_SPLIT_BOTH]);
	json_kv_uint(w, "neither", r->late_by[TLAT_SPLIT_NONE]);
	json_object_end(w);
	if (r->have_latest) {
		json_kv_object_begin(w, "latest");
		json_kv_uint(w, "seq", r->latest_seq);
		json_kv_int(w, "wake_latency_ns", r->latest_wake_ns);
		json_kv_int(w, "irq_ns", r->latest_irq_ns);
		json_kv_int(w, "thread_ns", r->latest_thread_ns);
		json_kv_string(w, "split", tlat_split_name(r->latest_split));
		json_object_end(w);
	} else {
		json_kv_null(w, "latest");
	}
	json_object_end(w);
}
