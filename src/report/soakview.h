/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A soak seen from its log: the phases and loads its header names, and what
 * its events say (proof-of-load samples, load results and losses, trace
 * breaks), rebuilt into the same per-phase form the run's summary used, for
 * analyze and report. Reads the header and the events; the edges are the
 * caller's (phasestats with soakview_phase_starts()). */
#ifndef SQW_SOAKVIEW_H
#define SQW_SOAKVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "report/summary.h"

struct soakview;

/* Per-minute (or per-bin) proof figures for timelines and plots. */
struct soakview_span {
	uint64_t samples;
	double busy_sum;              /* mean CPU busy over every CPU, summed per sample */
	double irq_sum, ctxt_sum;
	double pps_sum;               /* packets/s of the busiest interface, summed */
};

/*
 * Open @path's header and events. A log without phases (format 1, or a run
 * without loads and phases) gives a view with no phases. NULL with a
 * message and *@bad_input (true: the log is malformed, exit 2; false: I/O).
 * @row_ns, @t0_ns: the timeline's row length and origin, for
 * soakview_span() (0: no timeline figures).
 */
struct soakview *soakview_open(const char *path, uint64_t t0_ns, int64_t row_ns,
			       bool *bad_input, char *err, size_t errlen);
void soakview_free(struct soakview *v);

/* The configuration the run had (its header's keys over the defaults). */
const struct config *soakview_config(const struct soakview *v);
size_t soakview_nphases(const struct soakview *v);
/* Where each phase begins, as intended times (phasestats' boundaries). */
void soakview_phase_starts(const struct soakview *v, uint64_t *starts);
/* Phase @i for the summary writers; stats left NULL for the caller. */
void soakview_phase(const struct soakview *v, size_t i, struct run_phase *out);
/* run_info's soak members (label, containment, breaks, min_busy; a respond
 * log's counts at its stop, its note); the phases array is the caller's. */
void soakview_run_info(const struct soakview *v, struct run_info *ri);
/* Timeline row @i's proof figures; NULL when the row has no sample. */
const struct soakview_span *soakview_span(const struct soakview *v, size_t i);
/* The proof figures of the samples whose interval's middle falls in
 * [@t0_ns, @t1_ns) (intended times), as one span. A sample whose interval
 * crosses a phase's start or the last phase's end is left out, as the
 * phases leave it out: a plot's step shows one phase's samples only. False
 * when no sample is there. */
bool soakview_window(const struct soakview *v, uint64_t t0_ns, uint64_t t1_ns,
		     struct soakview_span *out);
/* The steps of a plot from @from to @to: every @step_ns (0: one step),
 * and cut at every phase boundary in between, so that no step straddles
 * one. Writes at most @max points (the first @from, the last @to when
 * they fit) into @cuts; returns how many. */
size_t soakview_cuts(const struct soakview *v, uint64_t from, uint64_t to, uint64_t step_ns,
		     uint64_t *cuts, size_t max);
/* The phase an intended time falls in, and its name ("" outside). */
const char *soakview_phase_at(const struct soakview *v, uint64_t t_ns);

#endif
