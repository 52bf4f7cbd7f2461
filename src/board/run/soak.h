/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The soak around a run: the phases' clock, their loads (through the
 * supervisor), the proof-of-load samples, and the events that go into the
 * log. The run session (run/session.c) drives it from its main thread; nothing here prints. */
#ifndef SQW_SOAK_H
#define SQW_SOAK_H

#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "stats/phasestats.h"
#include "config/plan.h"
#include "loads/proof.h"
#include "run/recorder.h"
#include "stats/runinfo.h"

struct soak;

/*
 * The RT thread's CPU for a run whose loads would take "every CPU but
 * rt.cpu" while rt.cpu is unset: the highest CPU of @allowed (CPU 0 usually
 * carries more interrupts and housekeeping), so that the loads go on the
 * others. -1 when no such load is planned, or @allowed has a single CPU
 * (the loads and the RT thread share it either way).
 */
int soak_pick_rt_cpu(const struct plan *p, const cpu_set_t *allowed);
/*
 * The same for a configuration: with rt.cpu unset (-1), sets it to
 * soak_pick_rt_cpu() of this process's allowed CPUs and writes a sentence
 * saying so into @note; returns 1 then, 0 when nothing was chosen (@note
 * ""), -1 with a message in @note when the affinity cannot be read.
 */
int soak_choose_rt_cpu(struct config *c, char *note, size_t len);

/*
 * Build every phase's loads from the configuration's plan (plan_finalize()
 * done), checking that each can run here. NULL with a message and *@exit
 * (2: configuration, a missing program; 3: the system). A plan without
 * loads gives a soak that samples nothing and starts nothing.
 */
struct soak *soak_new(const struct config *c, char *err, size_t errlen, int *exit);
/* Stop every load (if still running), end containment, free. */
void soak_free(struct soak *s);

bool soak_has_loads(const struct soak *s);
size_t soak_nphases(const struct soak *s);

/* Containment, the first phase's loads, and a short settle: before the RT
 * thread measures anything. 0, or -1 with a message (loads stopped again). */
int soak_start(struct soak *s, char *err, size_t errlen);
/* "containment=...", "phase.N.proof.LOAD=..." lines for the log header. */
void soak_dump_meta(const struct soak *s, FILE *f);
/* Measurement starts at @t0 (the end of the warm-up, CLOCK_MONOTONIC):
 * phases are timed from it; events so far and from now on go to @rec. A run
 * without loads starts its proof sampler here (one that cannot start is
 * said in soak_sampler_sched(), and the run goes on). */
void soak_attach(struct soak *s, struct recorder *rec, uint64_t t0);
/* Absolute start of each phase (intended-time boundaries for phasestats). */
void soak_phase_starts(const struct soak *s, uint64_t t0, uint64_t *starts);

/* Main-loop hooks: fds to poll, what they said, SIGCHLD, timed work. */
size_t soak_pollfds(const struct soak *s, struct pollfd *fds, size_t max);
void soak_read(struct soak *s, const struct pollfd *fds, size_t n, uint64_t now);
void soak_sigchld(struct soak *s, uint64_t now);
/* Phase switches, samples and restarts that are due at @now. */
void soak_tick(struct soak *s, uint64_t now);
uint64_t soak_next_due(const struct soak *s);

/* The current phase's name ("" before the first). */
const char *soak_phase_name(const struct soak *s);
/* "coremark 3/3, ping-flood 1/1" */
const char *soak_load_status(const struct soak *s, char *buf, size_t len);

/* End of the run: stop the loads (grace, then SIGKILL). */
void soak_stop(struct soak *s);
/* How the proof sampler ran ("SCHED_FIFO 1, off rt.cpu", or why it was
 * SCHED_OTHER, or "none: why"); "" before soak_start(). */
const char *soak_sampler_sched(const struct soak *s);
/* Containment in use ("" without loads). */
const char *soak_containment(const struct soak *s);
/* Phase @i for the summary (after soak_stop()): everything but its edge
 * statistics, which the caller adds. Valid until soak_free(). */
void soak_phase_result(const struct soak *s, size_t i, struct run_phase *out);

#endif
