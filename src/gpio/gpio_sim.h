/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulated GPIO chip, seen from tests: line state, the write history,
 * one-shot error injection, the loopback wire, the stimulus schedule and the
 * history file. Open it with gpio_out_open() / gpio_in_open() and
 * GPIO_BACKEND_SIM. */
#ifndef SQW_GPIO_SIM_H
#define SQW_GPIO_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpio/gpio_in.h"
#include "gpio/gpio_out.h"

/*
 * There is one simulated chip per process. Each open on the sim backend
 * (re)configures it from the spec's configuration (sim.num_lines,
 * sim.chip_label, sim.busy_line/busy_consumer, sim.write_cost, sim.wire_*,
 * sim.stim_* (kept while a stimulus runs), sim.history_file; the defaults
 * without one); which lines sqwave has requested, their levels and the
 * histories survive until gpio_sim_reset().
 *
 * The chip is named GPIO_SIM_CHIP_NAME, lives at GPIO_SIM_CHIP_PATH (nothing
 * is opened there), is labelled sim_chip_label (GPIO_SIM_DEFAULT_LABEL if
 * unset) and also answers to GPIO_SIM_CHIP_ALIAS or an empty gpio.chip.
 * Line k is named "SIM<k>", except that with 4 or more lines the last two are
 * both named GPIO_SIM_DUP_NAME, so that ambiguity can be tested.
 */
#define GPIO_SIM_MAX_LINES     1024   /* as sim.num_lines allows (config.c) */
/* Writes and stimulus changes kept; older ones are overwritten. Enough for a
 * complete history file of a 10 s respond run at 1 kHz (10000 stimulus
 * edges, up to 2 bounces each; 20000 writes in pulse mode). */
#define GPIO_SIM_HISTORY       65536
#define GPIO_SIM_STIM_HISTORY  65536
#define GPIO_SIM_CHIP_NAME     "gpiochip0"
#define GPIO_SIM_CHIP_PATH     "/dev/gpiochip0"
#define GPIO_SIM_CHIP_ALIAS    "sim"
#define GPIO_SIM_DEFAULT_LABEL "gpio-sim"
#define GPIO_SIM_DUP_NAME      "SIMDUP"
#define GPIO_SIM_MAX_WRITE_COST_NS 100000000 /* 100 ms */
#define GPIO_SIM_EVENTS        1024   /* events queued for the input, as the
				       * kernel's largest v2 buffer */

/*
 * The wire. sim.wire_line names the line the output is wired to (-1: none).
 * The output is the first line requested as one (a group's first line)
 * while it is held; the writes of other output lines do not reach the wire,
 * so that its queue keeps a single producer when outputs are written from
 * several threads. Every level change of the output (physical) reaches that line; if it is
 * requested as an input with edges, it gets an edge event stamped at the
 * write's time + sim.wire_delay + a uniform 0..sim.wire_jitter (and readable
 * from that time on, not before), with the line's next sequence number, unless it is edge number sim.wire_lose (0 =
 * the first since the output was requested), which the wire loses (no
 * event, no sequence number: the kernel never saw it). A full queue drops
 * the event but its sequence number is spent, as the kernel does. So: not
 * wired (-1), wired to another line than the input, a lost edge, a slow
 * reader, all without hardware. One input with edges at a time.
 *
 * The input's spec applies to every source of its events (wire, stimulus,
 * gpio_sim_line_drive()): a level change the edge choice skips is no event
 * and spends no sequence number; GPIO_CLOCK_REALTIME stamps are the
 * monotonic time plus CLOCK_REALTIME - CLOCK_MONOTONIC read once at the
 * request (readable from the monotonic time on); GPIO_CLOCK_HTE is refused
 * (ENOTSUP: the sim has no timestamp engine); a debounce is refused
 * (ENOTSUP) except on the stimulated line, the only one it is modelled on.
 *
 * The stimulus. When sim.stim_line >= 0 and that line is requested as an
 * input with edges, a thread of the sim (started at the request, stopped
 * and joined at the release; not RT, all signals blocked) toggles its level:
 * stimulus edge k (0, 1, ...) at t0 + k * sim.stim_period + a uniform
 * 0..sim.stim_jitter, never before the previous change, t0 = the request's
 * time + one period, for sim.stim_count edges (0: until the release). Each
 * edge is followed by sim.stim_bounce bounces: the level goes back and
 * forth, sim.stim_bounce_gap apart (2 * stim_bounce more changes), ending at
 * the edge's new level. Every level change is one record of the stimulus
 * history (gpio_sim_stim_get()).
 * Without debounce every change the edge choice takes is an event stamped at
 * its time, queued when it happens. With debounce D the sim does what the
 * kernel's gpiolib-cdev does in software (debounce_irq_handler re-arms a
 * delayed work per interrupt, debounce_work_func reads the level): a change
 * re-arms a timer to its time + D; when no change comes before it expires
 * (a change exactly at the expiry comes after it), the level then is
 * compared with the last one reported (at first the level at the request);
 * a different level becomes the new one reported and, if the edge choice
 * takes it, an event stamped at the expiry, recorded on the last change
 * before it. So a debounce longer than the bounces' span gives one event per
 * stimulus edge, stamped at its last change + D. A timer pending at the
 * release is never reported. The stimulus works with or without the wire;
 * sim.stim_line may not be sim.wire_line.
 *
 * The history file. When sim.history_file is set, the release of the last
 * line sqwave holds on the chip (the output, an input: whichever goes last)
 * writes it (gpio_sim_history_write()); a failure is kept, the first one,
 * for gpio_sim_history_error(), since a release has no message buffer.
 */

/* One line written (gpio_out_set(), the idle level written by
 * gpio_out_close(), each line of a gpio_group_set() mask and of the idle
 * levels gpio_group_close() writes). Requesting a line sets its level
 * without a write record. A group's call gives one record per line of its
 * mask, consecutive, with the same t_ns and call. */
struct gpio_sim_write {
	int64_t t_ns;          /* CLOCK_MONOTONIC when the level took effect,
				* i.e. after the modelled write cost (one per call) */
	unsigned int offset;
	int level;             /* logical, as passed to gpio_out_set() */
	int value;             /* physical: level, inverted if active-low */
	uint64_t call;         /* the set call that wrote it (0 = the first since
				* reset): a single line's write has one of its own */
};

/* One level change of the stimulus. */
struct gpio_sim_stim {
	int64_t t_ns;          /* CLOCK_MONOTONIC: when the level changed */
	unsigned int offset;   /* sim.stim_line */
	int level;             /* physical, after the change */
	bool reported;         /* an event for it was queued for the reader */
	uint64_t seqno;        /* that event's sequence number; 0: no event.
				* Non-zero with reported false: a full queue
				* dropped it (the number is spent). With
				* debounce both are final once D has passed. */
};

/* One line now. */
struct gpio_sim_line {
	int value;             /* physical level (what a scope would see) */
	bool requested;        /* held by a gpio_out (not the sim's busy holder) */
	bool active_low;       /* as requested */
	enum gpio_drive drive; /* as requested */
	char consumer[32];     /* of the request; "" if not requested */
};

/* Forget everything: requests, levels, histories, pending errors. Do not call
 * while a sim gpio_out or gpio_in is open. Not thread-safe. */
void gpio_sim_reset(void);

/* State of line @offset. Returns 0, or -1 (EINVAL) if @offset is beyond
 * GPIO_SIM_MAX_LINES. Safe from any thread; may be torn while a write runs. */
int gpio_sim_line_get(unsigned int offset, struct gpio_sim_line *line);

/* Writes since the last reset, including those the history has overwritten:
 * every record up to it is whole. Outputs of different lines (a gpio_out
 * each, or groups) may be written from as many threads at once: each write
 * takes its records' numbers atomically and no record is torn or lost; the
 * count moves past a record once every earlier one is whole. Safe from any
 * thread. */
uint64_t gpio_sim_write_count(void);

/* Write number @seq (0 = first since reset). Returns 0, or -1 with errno
 * ENOENT if it has not happened yet or was overwritten (seq < count -
 * GPIO_SIM_HISTORY). Safe from any thread. */
int gpio_sim_write_get(uint64_t seq, struct gpio_sim_write *w);

/* One-shot failures with errno @err (0 cancels): the next chip open (scan or
 * path), the next line request, the next write. Main thread; the write one
 * is an atomic flag and may be armed while the RT thread runs. */
void gpio_sim_fail_next_open(int err);
void gpio_sim_fail_next_request(int err);
void gpio_sim_fail_next_write(int err);

/* Something outside drives line @offset (not requested as an output) to
 * @value: its level changes and, if it is the input with edges, an event
 * stamped @t_ns is queued. For tests of an input that toggles on its own.
 * Main thread; not while an output write may run. 0, or -1 (EINVAL). */
int gpio_sim_line_drive(unsigned int offset, int value, uint64_t t_ns);

/* Stimulus changes since the stimulated input's request (the history is
 * cleared there), including those the history has overwritten. Any thread. */
uint64_t gpio_sim_stim_count(void);

/* Stimulus change @n (0 = first). 0, or -1 with errno ENOENT (not yet, or
 * overwritten). Any thread; final after the release. */
int gpio_sim_stim_get(uint64_t n, struct gpio_sim_stim *s);

/* Whether the stimulus has run out of its sim.stim_count edges (and of the
 * debounce timer after the last). Any thread. */
bool gpio_sim_stim_finished(void);

/* Write the history as CSV to @path: a header line
 * "kind,t_ns,offset,level,value_or_reported,seqno_or_call", then every write
 * in order ("write,t_ns,offset,level,value,call": six fields; the sixth, the
 * call number, came last so that readers of the first five still read the
 * file) and every stimulus
 * change in order ("stim,t_ns,offset,level,reported,seqno"), since the last
 * gpio_sim_reset() (the stimulus: since its input's request). -1 with errno
 * and @err when a history overflowed (EOVERFLOW: the file would be
 * incomplete, none is written) or the file cannot be written. Main thread,
 * not while the RT thread writes. */
int gpio_sim_history_write(const char *path, char *err, size_t errlen);

/* The first failure of a release's history file write: 0 (none), or -1
 * with its sentence in @err. Cleared by gpio_sim_reset(). */
int gpio_sim_history_error(char *err, size_t errlen);

#endif
