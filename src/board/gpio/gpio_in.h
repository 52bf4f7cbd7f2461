/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An input line with kernel edge events (libgpiod v2, libgpiod v1 or the sim):
 * the loopback input that sees the output's edges, and the line respond answers. */
#ifndef SQW_GPIO_IN_H
#define SQW_GPIO_IN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "gpio/gpio_lookup.h"

/* Which edges give events. Same order as config.c's cfg_edges (respond.edge). */
enum gpio_edge { GPIO_EDGE_BOTH = 0, GPIO_EDGE_RISING, GPIO_EDGE_FALLING };

/* The clock the kernel stamps events on. Same order as config.c's
 * cfg_event_clocks (respond.event_clock). HTE: a hardware timestamp engine
 * (libgpiod v2 on a kernel and SoC that have one). */
enum gpio_event_clock { GPIO_CLOCK_MONOTONIC = 0, GPIO_CLOCK_REALTIME, GPIO_CLOCK_HTE };

struct gpio_in_spec {
	enum gpio_backend backend;
	const char *chip;       /* as gpio_locate() */
	const char *line;
	const char *consumer;   /* "sqwave-loopback" */
	/* Request edge events (on the edges and clock below). false: only read
	 * the level (the line keeps its input direction); the three fields
	 * below are then ignored. */
	bool edges;
	/* Events the kernel may queue before it drops some (libgpiod v2; the
	 * kernel caps it at 1024, v1 has a fixed 16); 0: the kernel's default. */
	unsigned int event_buffer;
	const struct config *config; /* backend keys, as struct gpio_out_spec */
	/* A zero-initialised spec keeps the loopback's choice: both edges, no
	 * debounce, CLOCK_MONOTONIC. */
	enum gpio_edge edge;          /* which edges give events (spec->edges true) */
	int64_t debounce_ns;          /* the kernel's debounce; 0: none. The
				       * kernel's software debounce stamps an
				       * event when the line has been stable
				       * for this long, not at the edge */
	enum gpio_event_clock clock;  /* the events' timestamp clock */
};

/* One edge event, as the kernel reported it. */
struct gpio_in_event {
	uint64_t t_ns;          /* on gpio_in_clockid(), taken in the kernel's
				 * IRQ handler (a thread, for a sleeping chip;
				 * with debounce: when the line had been
				 * stable for the debounce period) */
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
 * Request the line as an input, with edge events if spec->edges on
 * spec->edge, spec->clock and with spec->debounce_ns (the loopback asks for
 * none: software debounce timestamps from a workqueue and would hide the
 * edges it is there to see). NULL with errno and one message in @err (the
 * same words as gpio_out_open()); a setting the backend or the kernel
 * refuses (ENOTSUP: debounce or realtime on libgpiod v1, HTE on the sim;
 * EOPNOTSUPP or EINVAL: HTE without a provider) is named in it. Prints
 * nothing. Main thread; the buffer gpio_in_read() reads into is allocated
 * here. Close with gpio_in_close().
 */
struct gpio_in *gpio_in_open(const struct gpio_in_spec *spec, char *err, size_t errlen);

/* The physical level now (0/1), or -1 with errno. */
int gpio_in_get(struct gpio_in *g);

/*
 * Wait up to @timeout_ns (0: do not wait) for events, then read up to @max of
 * them into @ev (the caller's), in the kernel's order. Returns how many (0:
 * none in time, a signal, or a wake-up that found nothing to read, which the
 * sim can give after racing its stimulus: call again), or -1 with errno.
 * One thread at a time, which may be the RT thread: no allocation, no lock,
 * no printing, only a poll() and a read() into the backend's buffer
 * preallocated at gpio_in_open() (libgpiod v2's edge event buffer, v1's
 * struct gpioevent_data array, the sim's lock-free queue and eventfd).
 */
int gpio_in_read(struct gpio_in *g, struct gpio_in_event *ev, size_t max, int64_t timeout_ns);

/* The clock the events are stamped on: CLOCK_MONOTONIC, or CLOCK_REALTIME
 * for GPIO_CLOCK_REALTIME. HTE stamps come from the timestamp engine's own
 * counter, not a kernel clock; CLOCK_MONOTONIC is returned for them (the
 * nearest: both count from boot), so compare them with clock reads with
 * care. Any thread. */
clockid_t gpio_in_clockid(const struct gpio_in *g);

/* Whether events carry sequence numbers (so that drops can be seen). */
bool gpio_in_has_seqno(const struct gpio_in *g);

/* "gpiochip3 [GPIOD] line 13 (libgpiod 2.1.3, v2 API)". */
const char *gpio_in_describe(const struct gpio_in *g);
const struct gpio_chip_desc *gpio_in_chip(const struct gpio_in *g);
unsigned int gpio_in_offset(const struct gpio_in *g);

/* Release the line and free. NULL is a no-op. */
void gpio_in_close(struct gpio_in *g);

#endif
