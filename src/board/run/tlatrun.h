/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rt.timer timerlat (docs/timerlat.md): the kernel's timerlat tracer wakes
 * the RT loop through osnoise/per_cpu/cpuN/timerlat_fd (Linux 6.5+, rtla's
 * -U), and its samples give each edge's timer IRQ latency beside the
 * thread's. This module sets the tracer up for the run and puts every
 * setting back, reads its samples in a non-RT thread, places the run's slot
 * 0 on the kernel's timer grid, and logs the samples per edge
 * (EDGELOG_EV_TIMERLAT). The RT side is rt/rtloop.c's tl_* fields. */
#ifndef SQW_TLATRUN_H
#define SQW_TLATRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/runinfo.h"

struct recorder;

/* Activations the RT thread reads before the go: the first starts the
 * kernel's grid, the rest give the tracer samples to place the grid by. */
#define TLATRUN_ARM_READS 12
#define TLATRUN_ORIGIN_SAMPLES 8   /* IRQ samples the grid is placed by */
#define TLATRUN_BUFFER_KB 4096     /* the run's instance, per CPU */

struct tlatrun_params {
	const char *tracefs;       /* NULL: the mounted one (tests: a copied tree) */
	int cpu;                   /* rt.cpu: >= 0 */
	int64_t half_ns;           /* the half period: whole us, 100 us .. 1 s */
};

/*
 * What the kernel allows, checked before anything is written; NULL when
 * timerlat can drive this run, else the refusal (a sentence naming what is
 * missing: tracefs, CONFIG_TIMERLAT_TRACER, timerlat_fd and Linux 6.5, a
 * tracer in use, the period's range). Pure reads.
 */
const char *tlatrun_refusal(const struct tlatrun_params *p, char *buf, size_t len);

struct tlatrun;

/*
 * Set the tracer up: save osnoise/options and osnoise/timerlat_period_us,
 * set NO_OSNOISE_WORKLOAD and the half period, and start timerlat in a run
 * instance (instances/sqwave-tlat.PID.P<old period>.W<old workload>, so a
 * later run's tlatrun_sweep() can put them back after a kill) with the mono
 * trace clock; then start the sample reader. NULL with @err on failure,
 * everything put back.
 */
struct tlatrun *tlatrun_open(const struct tlatrun_params *p, char *err, size_t errlen);
/* The timerlat_fd the RT thread opens (valid until tlatrun_close()). */
const char *tlatrun_fd_path(const struct tlatrun *t);

/*
 * After the RT thread armed: wait (at most 2 s) for the tracer's IRQ
 * samples of the arming activations and place slot 0 on the kernel's grid,
 * at the first point at or after @not_before. The grid comes from the
 * samples' mono timestamps minus their latency; the trace prints whole
 * microseconds, so the placement is the earliest the samples allow: at most
 * 1 us before the kernel's expiries, never after (a latency is never
 * understated). 0, or -1 with @err.
 */
int tlatrun_place(struct tlatrun *t, uint64_t not_before, uint64_t *start_ns, char *err,
		  size_t errlen);

/* From here the reader logs each activation at or after @start_ns through
 * @rec, and counts those at or after slot @warmup_slots. */
void tlatrun_attach(struct tlatrun *t, struct recorder *rec, uint64_t warmup_slots);

/* The RT loop has ended at slot @last_intended_ns: drain the samples up to
 * it (at most a quarter second more), log them, stop the reader. */
void tlatrun_stop(struct tlatrun *t, uint64_t last_intended_ns);

/* The figures so far (final after tlatrun_stop()). */
void tlatrun_result(const struct tlatrun *t, struct run_timerlat *r);

/* Put every setting back, remove the instance, free. NULL is fine. */
void tlatrun_close(struct tlatrun *t);

/* Restore and remove the instances of runs that are gone; how many. */
int tlatrun_sweep(void);

/* ---- pure parts (unit-tested) ---- */

enum tlat_ctx { TLAT_IRQ, TLAT_THREAD, TLAT_URET };

struct tlat_sample {
	uint64_t ts_ns;            /* the trace's timestamp (whole us, mono) */
	uint64_t seqnum;           /* the kernel's activation count */
	enum tlat_ctx ctx;
	int64_t latency_ns;
};

/* One trace_pipe line: 1 a timerlat sample, 0 another line, -1 a sample
 * line that does not parse. The format: "... 54.029328: #1 context irq
 * timer_latency 932 ns" (contexts irq, thread, user-ret). */
int tlat_parse_line(const char *line, struct tlat_sample *s);

/* The grid's origin from @n IRQ samples of a grid of @period_ns: the
 * earliest point the samples allow (stamp - latency, reduced onto the grid
 * of the first one). */
uint64_t tlat_grid_origin(const struct tlat_sample *s, size_t n, int64_t period_ns);

/* The slot of a sample on the grid starting at @start_ns (stamp - latency,
 * to the nearest point; -1 before it). */
int64_t tlat_slot(const struct tlat_sample *s, uint64_t start_ns, int64_t period_ns);

#endif
