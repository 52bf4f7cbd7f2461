/* SPDX-License-Identifier: GPL-2.0-or-later */
/* grid.clock realtime or tai for a run (docs/grid.md): the refusals, slot 0
 * on the shared grid, the sync state and the clock's steps into the log and
 * the run's description. The wave stays on CLOCK_MONOTONIC: the grid clock
 * only places slot 0, and every step of it after that is counted. */
#ifndef SQW_GRIDRUN_H
#define SQW_GRIDRUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/runinfo.h"
#include "config/config.h"
#include "config/outputs.h"
#include "run/clockwatch.h"

struct recorder;

/* grid.start at least this far ahead when the run is checked: the set-up
 * before slot 0 takes up to its lead (100 ms). */
#define GRIDRUN_START_MIN_AHEAD_NS 200000000ull
#define GRIDRUN_START_MAX_AHEAD_NS (86400ull * 1000000000ull)

/* Cross-key checks of the grid keys (monotonic: none may be set but
 * grid.clock), grid.align a whole number of periods of every line of
 * @outs: 0, or -1 with the sentence, naming each key's origin, in @err
 * (exit 2). @respond, @timerlat: what the run is. Reads the clocks. */
int gridrun_check(const struct config *c, const struct outputs *outs, bool respond, bool timerlat,
		  char *err, size_t errlen);

struct gridrun;

/* For a run whose grid.clock is realtime or tai (NULL with errno and @err
 * otherwise, or when the clock cannot be watched): the watch armed, the
 * offset and the sync state read. Caller frees with gridrun_close(). */
struct gridrun *gridrun_open(const struct config *c, char *err, size_t errlen);
void gridrun_close(struct gridrun *g);

/* Slot 0 on CLOCK_MONOTONIC: grid.start, or the first multiple of
 * grid.align at least @lead_ns from now. -1 with @err when grid.start is
 * already closer than @lead_ns (set-up took too long). */
int gridrun_place(struct gridrun *g, uint64_t lead_ns, uint64_t *start_mono_ns, char *err,
		  size_t errlen);

/* The grid as placed (counters still 0 until gridrun_finish()); valid
 * until gridrun_close(). */
const struct run_grid *gridrun_info(const struct gridrun *g);

/* The header's grid lines (EDGELOG_META_GRID_* and _CLOCK_*). */
void gridrun_dump_meta(const struct gridrun *g, FILE *f);

/* The descriptor the main loop polls (POLLIN: the clock was set). */
int gridrun_fd(const struct gridrun *g);
/* After a poll (or at any time): a set of the clock into the log through
 * @rec (a clock event) and *@step. 1: the clock stepped, 0: no set, or a
 * set that moved nothing, -1 with errno. Main loop only. */
int gridrun_poll(struct gridrun *g, struct recorder *rec, struct clockwatch_step *step);
/* A pending set, then the end's read, both logged; *@stepped 1 with the
 * step in *@step when either moved the clock. Then the run's grid
 * description (valid until gridrun_close()). */
const struct run_grid *gridrun_finish(struct gridrun *g, struct recorder *rec,
				      struct clockwatch_step *step, int *stepped);

/* A clock event's payload ("key=value\n" lines, docs/log-format.md). */
int gridrun_event_text(const struct clockwatch_step *st, char *buf, size_t len);

#endif
