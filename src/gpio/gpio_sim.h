/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulated GPIO chip, seen from tests: line state, the write history,
 * one-shot error injection and the loopback wire. Open it with
 * gpio_out_open() / gpio_in_open() and GPIO_BACKEND_SIM. */
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
 * sim.chip_label, sim.busy_line/busy_consumer, sim.write_cost, sim.wire_*;
 * the defaults without one); which lines sqwave has requested, their levels
 * and the history survive until gpio_sim_reset().
 *
 * The chip is named GPIO_SIM_CHIP_NAME, lives at GPIO_SIM_CHIP_PATH (nothing
 * is opened there), is labelled sim_chip_label (GPIO_SIM_DEFAULT_LABEL if
 * unset) and also answers to GPIO_SIM_CHIP_ALIAS or an empty gpio.chip.
 * Line k is named "SIM<k>", except that with 4 or more lines the last two are
 * both named GPIO_SIM_DUP_NAME, so that ambiguity can be tested.
 */
#define GPIO_SIM_MAX_LINES     1024   /* as sim.num_lines allows (config.c) */
#define GPIO_SIM_HISTORY       4096   /* writes kept; older ones are overwritten */
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
 * Every level change of the output (physical) reaches that line; if it is
 * requested as an input with edges, it gets an edge event stamped at the
 * write's time + sim.wire_delay + a uniform 0..sim.wire_jitter (and readable
 * from that time on, not before), with the line's next sequence number, unless it is edge number sim.wire_lose (0 =
 * the first since the output was requested), which the wire loses (no
 * event, no sequence number: the kernel never saw it). A full queue drops
 * the event but its sequence number is spent, as the kernel does. So: not
 * wired (-1), wired to another line than the input, a lost edge, a slow
 * reader, all without hardware. One input with edges at a time.
 */

/* One write (gpio_out_set(), and the idle level written by gpio_out_close()).
 * Requesting the line sets its level without a write record. */
struct gpio_sim_write {
	int64_t t_ns;          /* CLOCK_MONOTONIC when the level took effect,
				* i.e. after the modelled write cost */
	unsigned int offset;
	int level;             /* logical, as passed to gpio_out_set() */
	int value;             /* physical: level, inverted if active-low */
};

/* One line now. */
struct gpio_sim_line {
	int value;             /* physical level (what a scope would see) */
	bool requested;        /* held by a gpio_out (not the sim's busy holder) */
	bool active_low;       /* as requested */
	enum gpio_drive drive; /* as requested */
	char consumer[32];     /* of the request; "" if not requested */
};

/* Forget everything: requests, levels, history, pending errors. Do not call
 * while a sim gpio_out is open. Not thread-safe. */
void gpio_sim_reset(void);

/* State of line @offset. Returns 0, or -1 (EINVAL) if @offset is beyond
 * GPIO_SIM_MAX_LINES. Safe from any thread; may be torn while a write runs. */
int gpio_sim_line_get(unsigned int offset, struct gpio_sim_line *line);

/* Writes since the last reset, including those the history has overwritten.
 * Safe from any thread. */
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

#endif
