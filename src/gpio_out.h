/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The output line: one interface over libgpiod v2, libgpiod v1 and the
 * simulated backend. The board file chooses; the build picks v1 or v2. */
#ifndef SQW_GPIO_OUT_H
#define SQW_GPIO_OUT_H

#include <stddef.h>
#include <stdint.h>

enum gpio_backend { GPIO_BACKEND_GPIOD, GPIO_BACKEND_SIM };
enum gpio_drive { GPIO_DRIVE_PUSH_PULL, GPIO_DRIVE_OPEN_DRAIN, GPIO_DRIVE_OPEN_SOURCE };

struct gpio_out_spec {
	enum gpio_backend backend;
	const char *chip;      /* label, path or chip name */
	const char *line;      /* offset in decimal, or a line name */
	int active_low;
	enum gpio_drive drive;
	int idle_level;        /* logical level requested at open and restored at close */
	const char *consumer;  /* "sqwave" */
	/* simulated backend only */
	int64_t sim_write_cost_ns;
	unsigned sim_num_lines;
	int sim_busy_line;     /* -1: none */
	const char *sim_busy_consumer;
	const char *sim_chip_label;
};

struct gpio_out;

/*
 * Request the line as an output at spec->idle_level. Returns NULL with errno
 * set and a message printed (pr_err) that a user can act on: the chip that
 * was not found (and the labels that exist), a line name that is ambiguous
 * (and where it was found), an offset out of range (and the line count), a
 * busy line (and its current consumer). Caller closes with gpio_out_close().
 */
struct gpio_out *gpio_out_open(const struct gpio_out_spec *spec);

/* Set the logical level (1 = active). RT-safe: no allocation, no locks, one
 * ioctl (or, simulated, a store and an optional busy-wait). Returns 0 or -1. */
int gpio_out_set(struct gpio_out *g, int level);

/* Restore the idle level, release the line and free. NULL is a no-op. */
void gpio_out_close(struct gpio_out *g);

/* Human-readable description, e.g.
 * "gpiochip0 [9030000.pl061] line 0 \"name\" (libgpiod 2.1.3, v2 API)". */
const char *gpio_out_describe(const struct gpio_out *g);

/* Backend compiled for GPIO_BACKEND_GPIOD: "libgpiod-v2", "libgpiod-v1" or "none". */
const char *gpio_out_gpiod_api(void);

#endif
