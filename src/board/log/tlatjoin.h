/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A timerlat log's edges joined with the tracer's samples (rt.timer
 * timerlat, EDGELOG_EV_TIMERLAT): per edge, the timer IRQ's latency and the
 * kernel thread's, found by the edge's intended time, which is the
 * activation's time on the kernel's grid. The samples come later in the log
 * than their edges (the reader thread lags), so the join reads the log a
 * second time, events only, in step with the caller's edges: constant
 * memory, one pass each. */
#ifndef SQW_TLATJOIN_H
#define SQW_TLATJOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct edgelog_meta;
struct tlatjoin;

/* Whether the header says the run's timer was timerlat (rt.timer). */
bool tlatjoin_log_has_timerlat(const struct edgelog_meta *m);

/* A second reader on @path (a file: a pipe cannot be read twice). NULL with
 * @err. Free with tlatjoin_free(). */
struct tlatjoin *tlatjoin_open(const char *path, char *err, size_t errlen);
void tlatjoin_free(struct tlatjoin *j);

/*
 * The samples of the activation at @intended_ns (calls in increasing order of
 * it): 1 with *irq_ns and *thread_ns (-1: that sample is missing), 0 when the
 * tracer logged nothing for it, -1 when the log's timerlat events are damaged
 * (tlatjoin_error()).
 */
int tlatjoin_find(struct tlatjoin *j, uint64_t intended_ns, int32_t *irq_ns, int32_t *thread_ns);
const char *tlatjoin_error(const struct tlatjoin *j);
/* Activations the log holds samples for, read so far. */
uint64_t tlatjoin_entries(const struct tlatjoin *j);

#endif
