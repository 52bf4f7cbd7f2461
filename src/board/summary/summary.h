/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end-of-run summary, text and JSON: the renderers of a run's figures
 * and of its verdict, which stats/verdict.h computes once and they are given. */
#ifndef SQW_SUMMARY_H
#define SQW_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "stats/edgestats.h"
#include "stats/phasestats.h"
#include "stats/runinfo.h"
#include "stats/verdict.h"
#include "loads/proof.h"
#include "base/sysinfo.h"
#include "rt/tracebreak_rt.h"

/* Human summary of @s and @ri to @f, ending with the verdict @v
 * (verdict_result_compute() of the same run): its word and violations as
 * they are, never judged again. */
void summary_print_text_judged(FILE *f, const struct config *c, const struct edgestats *s,
			       const struct run_info *ri, const struct verdict_result *v);
/* The same for a caller that has no verdict yet: it is computed here, once. */
void summary_print_text(FILE *f, const struct config *c, const struct edgestats *s,
			const struct run_info *ri);

/* The phases of @ri (label, containment, breaks, each phase's statistics and
 * load proof): the text section, and the JSON members "label",
 * "containment", "breaks" and "phases" of the current object. Shared by the
 * run summary and analyze. */
struct json_writer;
void summary_phases_text(FILE *f, const struct run_info *ri);
void summary_phases_json(struct json_writer *w, const struct run_info *ri);
/* grid.clock realtime/tai: the grid, the clock's sync state and steps
 * (the "grid" lines; the "grid" key, null for NULL). analyze uses them too. */
void summary_grid_text(FILE *f, const struct run_grid *g);
void summary_grid_json(struct json_writer *w, const struct run_grid *g);

/* A respond run's figures (@ri->respond): what was answered, the latencies
 * from the event, and the bounds of what a scope across the two pins shows,
 * with how they follow from the log; text and the JSON "respond" member.
 * The summary's, and analyze's for a respond log. */
void summary_respond_text(FILE *f, const struct edgestats_result *r, const struct run_info *ri,
			  uint64_t dropped);
void summary_respond_json(struct json_writer *w, const struct edgestats_result *r,
			  const struct run_info *ri);

/* JSON summary (docs/json-summary.md) to @path, its "verdict" member @v as
 * it is; -1 with errno and the reason in @err on failure (no part of it
 * left: outfile_close()). */
int summary_write_json_judged(const char *path, const struct config *c,
			      const struct edgestats *s, const struct run_info *ri,
			      const struct verdict_result *v, char *err, size_t errlen);
/* The same, the verdict computed here, once. */
int summary_write_json(const char *path, const struct config *c, const struct edgestats *s,
		       const struct run_info *ri, char *err, size_t errlen);

#endif
