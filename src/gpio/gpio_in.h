/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An input line with kernel edge events: the loopback input that sees the
 * output's edges (libgpiod v2, libgpiod v1 or the simulated wire). */
#ifndef SQW_GPIO_IN_H
#define SQW_GPIO_IN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpio/gpio_lookup.h"

struct gpio_in_spec {
	enum gpio_backend backend;
	const char *chip;       /* as gpio_locate() */
	const char *line;
	const char *consumer;   /* "sqwave-loopback" */
	/* Request edge events on both edges, timestamped on CLOCK_MONOTONIC.
	 * false: only read the level (the line keeps its input direction). */
	bool edges;
	/* Events the kernel may queue before it drops some (libgpiod v2; the
	 * kernel caps it at 1024, v1 has a fixed 16); 0: the kernel's default. */
	unsigned int event_buffer;
	const struct config *config; /* backend keys, as struct gpio_out_spec */
};

/* One edge event, as the kernel reported it. */
struct gpio_in_event {
	uint64_t t_ns;          /* CLOCK_MONOTONIC, taken in the kernel's IRQ
				 * handler (a thread, for a sleeping chip) */
	uint64_t seqno;         /* the line's event sequence number (1, 2, ...)
				 * counting events the kernel dropped; 0 when the
				 * API has none (libgpiod v1) */
	int rising;             /* as reported. The kernel reads the level back
				 * in a thread, so a fast pulse can be reported
				 * with the wrong type: derive polarity from the
				 * order of events instead. */
};

struct gpio_in;

/*
 * Request the line as an input (never with debounce: software debounce
 * timestamps from a workqueue, and the STM32 has no hardware debounce), with
 * edge events on both edges if spec->edges. NULL with errno and one message
 * in @err (the same words as gpio_out_open()). Prints nothing. Main thread.
 * Close with gpio_in_close().
 */
struct gpio_in *gpio_in_open(const struct gpio_in_spec *spec, char *err, size_t errlen);

/* The physical level now (0/1), or -1 with errno. */
int gpio_in_get(struct gpio_in *g);

/*
 * Wait up to @timeout_ns (0: do not wait) for events, then read up to @max of
 * them into @ev, in the kernel's order. Returns how many (0: none in time),
 * or -1 with errno. One thread at a time; never the RT thread.
 */
int gpio_in_read(struct gpio_in *g, struct gpio_in_event *ev, size_t max, int64_t timeout_ns);

/* Whether events carry sequence numbers (so that drops can be seen). */
bool gpio_in_has_seqno(const struct gpio_in *g);

/* "gpiochip3 [GPIOD] line 13 (libgpiod 2.1.3, v2 API)". */
const char *gpio_in_describe(const struct gpio_in *g);
const struct gpio_chip_desc *gpio_in_chip(const struct gpio_in *g);
unsigned int gpio_in_offset(const struct gpio_in *g);

/* Release the line and free. NULL is a no-op. */
void gpio_in_close(struct gpio_in *g);

#endif
