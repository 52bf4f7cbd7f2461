/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The outputs of a run: gpio.line split into lines, each with its own wave
 * (run.line_high, run.line_low, run.line_phase over run.*) and, run.outputs per-cpu,
 * its own CPU (rt.cpus). One line is the run of before: one output with
 * the run's wave. docs/lines.md. */
#ifndef SQW_OUTPUTS_H
#define SQW_OUTPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "base/wave.h"
#include "config/config.h"

/* At most this many lines in one run (a group write's mask is 32 bits). */
#define OUTPUTS_MAX 32
#define OUTPUTS_LINE_LEN 64

/* Same order as run.outputs' choices in config.c. */
enum outputs_mode {
	OUTPUTS_TOGETHER,	/* one RT thread; lines due at one instant: one write */
	OUTPUTS_PER_CPU,	/* one RT thread per line, each on its own CPU */
};

struct output_def {
	char line[OUTPUTS_LINE_LEN]; /* as gpio.line names it: offset or name */
	struct wave wave;            /* high, low, phase: resolved, never 0 */
	int64_t half_ns;             /* (high + low) / 2: the mean slot */
	int cpu;                     /* per-cpu: the RT thread's CPU; together: rt.cpu */
};

struct outputs {
	size_t n;                    /* 1 .. OUTPUTS_MAX */
	enum outputs_mode mode;
	struct output_def o[OUTPUTS_MAX];
};

/*
 * The outputs of @c (after config_resolve_wave()): gpio.line's items in
 * order, each with run's wave unless run.line_high, run.line_low or run.line_phase
 * give it one (one value for every line, or one per line), and per-cpu the
 * CPU of each (rt.cpus in order, else rt.cpu and the next online CPUs).
 * Returns 0, or -1 with one sentence in @err that names the key and where
 * it was set: an empty item or a line listed twice, more than OUTPUTS_MAX
 * lines, a list of another length, a time that is not a duration or breaks
 * the wave's rules (high and low at least 1us, an even period, a phase
 * below it), run.line_* or rt.cpus with one line, rt.cpus with together, a
 * CPU listed twice or offline, fewer online CPUs than lines.
 */
int outputs_resolve(const struct config *c, struct outputs *out, char *err, size_t errlen);

#endif
