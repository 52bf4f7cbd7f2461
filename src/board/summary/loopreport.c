/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text and JSON of the kernel's view of the pin: counts, the write-to-event
 * latency, the kernel's pulse widths, placement and the uncertainty statement. */
#include "summary/loopreport.h"

#include <inttypes.h>

#include "base/json.h"
#include "base/units.h"
#include "summary/statsjson.h"
#include "summary/statstext.h"

static void text_widths(FILE *f, const char *name, const struct edgestats_widths *w)
{
	if (!w->h.m.n)
		return;
	fprintf(f, "%-10s Tmin %s us (edge #%" PRIu64 "), Tmax %s us (edge #%" PRIu64 ")\n", name,
		UNITS_US(w->tmin.width_ns), w->tmin.at.seq, UNITS_US(w->tmax.width_ns),
		w->tmax.at.seq);
}

void loopreport_text(FILE *f, const struct loopstats_result *r)
{
	char text[2048];

	fprintf(f, "\nLoopback, the kernel's view of the pin (the input's event times; "
		"docs/loopback.md)\n");
	fprintf(f, "events     %" PRIu64 " of %" PRIu64 " counted edges seen, %" PRIu64
		" not (%" PRIu64 " lost on the wire); %" PRIu64 " dropped by the kernel, %"
		PRIu64 " extra, %" PRIu64 " too late to pair\n", r->events, r->edges,
		r->no_event, r->skipped, r->kernel_dropped, r->extra, r->late);
	statstext_dist_head(f, "us");
	statstext_dist_row(f, "event - w.begin", &r->from_begin);
	statstext_dist_row(f, "event - w.end", &r->from_end);
	statstext_dist_row(f, "kernel pulse +", &r->width[EDGESTATS_POS].h);
	statstext_dist_row(f, "kernel pulse -", &r->width[EDGESTATS_NEG].h);
	text_widths(f, "kernel +", &r->width[EDGESTATS_POS]);
	text_widths(f, "kernel -", &r->width[EDGESTATS_NEG]);
	if (!r->events)
		fprintf(f, "placement  no event to place\n");
	else if (!r->early)
		fprintf(f, "placement  every event at or after its write began\n");
	else
		fprintf(f, "placement  %" PRIu64 " event%s before %s write began, the earliest by %s us "
			"(edge #%" PRIu64 "): the input follows something else, or the clocks "
			"disagree\n", r->early, r->early == 1 ? "" : "s",
			r->early == 1 ? "its" : "their", UNITS_US(r->early_worst_ns),
			r->early_worst.seq);
	loopstats_statement(r, text, sizeof(text));
	if (text[0])
		fprintf(f, "uncertainty %s\n", text);
}

void loopreport_json(struct json_writer *w, const char *key, const struct loopstats_result *r)
{
	char text[2048];
	int64_t lo, hi;

	if (!r) {
		json_kv_null(w, key);
		return;
	}
	json_kv_object_begin(w, key);
	json_kv_uint(w, "edges", r->edges);
	json_kv_uint(w, "events", r->events);
	json_kv_uint(w, "no_event", r->no_event);
	json_kv_uint(w, "lost_on_wire", r->skipped);
	json_kv_uint(w, "kernel_dropped", r->kernel_dropped);
	json_kv_uint(w, "extra", r->extra);
	json_kv_uint(w, "late", r->late);
	json_kv_uint(w, "pairs", r->pairs);
	statsjson_dist_worst(w, "from_write_begin", &r->from_begin, &r->from_begin_worst);
	statsjson_dist_worst(w, "from_write_end", &r->from_end, &r->from_end_worst);
	json_kv_object_begin(w, "placement");
	json_kv_uint(w, "before_write_begin", r->early);
	if (r->early) {
		json_kv_int(w, "earliest_ns", r->early_worst_ns);
		statsjson_where(w, "earliest_at", &r->early_worst);
	} else {
		json_kv_null(w, "earliest_ns");
		json_kv_null(w, "earliest_at");
	}
	json_object_end(w);
	json_kv_object_begin(w, "pulse_width");
	statsjson_widths(w, "positive", &r->width[EDGESTATS_POS]);
	statsjson_widths(w, "negative", &r->width[EDGESTATS_NEG]);
	statsjson_widths(w, "any", &r->width[EDGESTATS_ANY]);
	json_object_end(w);
	if (loopstats_delay_bounds(r, &lo, &hi)) {
		json_kv_object_begin(w, "delay_bounds");
		json_kv_int(w, "lo_ns", lo);
		json_kv_int(w, "hi_ns", hi);
		json_kv_bool(w, "constant_fits", lo <= hi && !r->early);
		json_object_end(w);
	} else {
		json_kv_null(w, "delay_bounds");
	}
	loopstats_statement(r, text, sizeof(text));
	if (text[0])
		json_kv_string(w, "statement", text);
	else
		json_kv_null(w, "statement");
	json_object_end(w);
}
