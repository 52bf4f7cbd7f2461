/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The output line: one interface over libgpiod v2, libgpiod v1 and the
 * simulated backend. The board file chooses; the build picks v1 or v2. */
#ifndef SQW_GPIO_OUT_H
#define SQW_GPIO_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "gpio/gpio_lookup.h"

/* Same order as the choices of gpio.drive in config.c. */
enum gpio_drive { GPIO_DRIVE_PUSH_PULL, GPIO_DRIVE_OPEN_DRAIN, GPIO_DRIVE_OPEN_SOURCE };

struct gpio_out_spec {
	enum gpio_backend backend;
	const char *chip;      /* path, name, number, label (gpio_locate()) */
	const char *line;      /* offset in decimal, or a line name */
	int active_low;
	enum gpio_drive drive;
	int idle_level;        /* logical level requested at open and restored at close */
	const char *consumer;  /* "sqwave" */
	/* Where the backend reads its own keys (the simulated chip's sim.*);
	 * NULL: the backend's defaults. Must outlive gpio_out_open(). */
	const struct config *config;
};

struct gpio_out;

/* The output line of the configuration @c: gpio.backend, chip, line,
 * active_low, drive, idle_level; @s points into @c, which must outlive it. */
void gpio_out_spec_from_config(const struct config *c, struct gpio_out_spec *s);

/*
 * Request the line as an output at spec->idle_level. Returns NULL with errno
 * set and one message in @err that a user can act on: the chip that was not
 * found (and the chips that exist), permission denied (and how to get it), a
 * line name that is ambiguous (and where it was found), an offset out of
 * range (and the line count), a busy line (and its current consumer), a
 * drive the driver refuses. Prints nothing. Caller closes with
 * gpio_out_close().
 */
struct gpio_out *gpio_out_open(const struct gpio_out_spec *spec, char *err, size_t errlen);

/* Set the logical level (1 = active). RT-safe: no allocation, no locks, one
 * ioctl (or, simulated, a store and an optional busy-wait). Returns 0 or -1. */
int gpio_out_set(struct gpio_out *g, int level);

/* Restore the idle level, release the line and free. NULL is a no-op.
 * Returns 0, or -1 with errno if the idle level could not be written (the
 * line is released anyway). */
int gpio_out_close(struct gpio_out *g);

/* Human-readable description, e.g.
 * "gpiochip0 [9030000.pl061] line 0 \"name\" (libgpiod 2.1.3, v2 API)". */
const char *gpio_out_describe(const struct gpio_out *g);

/* Where the line is: chip (path, name, label) and offset. */
const struct gpio_chip_desc *gpio_out_chip(const struct gpio_out *g);
unsigned int gpio_out_offset(const struct gpio_out *g);
/* Physical level of the idle state: idle_level, inverted if active-low. */
int gpio_out_idle_value(const struct gpio_out *g);

/*
 * A line group: several output lines of one chip in one request, written
 * together ("together" mode). Lines that change at the same instant are set
 * by one call, one ioctl, so that a scope sees only the driver's own skew
 * between them.
 */
#define GPIO_GROUP_MAX 32

struct gpio_group;

/*
 * Request the @n lines @lines (each an offset in decimal or a line name, as
 * spec->line is; spec->line is not read) of spec->chip in ONE request, each
 * an output at spec->idle_level with spec's active_low and drive. Line i is
 * bit i of gpio_group_set()'s masks. A chip left empty is the one the first
 * line's name is found on; every line is then looked up there. Returns NULL
 * with errno and one sentence in @err as gpio_out_open() does, naming the
 * line that failed (not found, busy, ...); EINVAL for @n outside
 * 1..GPIO_GROUP_MAX, EEXIST for a line listed twice, by the same or another
 * name ("line X is listed twice").
 * Prints nothing. Main thread; the caller closes with gpio_group_close().
 */
struct gpio_group *gpio_group_open(const struct gpio_out_spec *spec, const char *const *lines,
				   size_t n, char *err, size_t errlen);

/*
 * Set the lines whose bit is set in @mask (bit i: line i) to the logical
 * levels of the same bits of @levels, the others untouched, in one call (one
 * ioctl; simulated: one write record per line, one call number). RT-safe:
 * no allocation, no locks, no output. Bits at or above the group's count are
 * a programmer error; a mask of 0 writes nothing and returns 0. One thread
 * at a time per group. Returns 0, or -1 with errno.
 */
int gpio_group_set(struct gpio_group *g, uint32_t mask, uint32_t levels);

/* Restore every line's idle level (one call), release the lines and free.
 * NULL is a no-op. Returns 0, or -1 with errno if the idle levels could not
 * be written (the lines are released anyway). */
int gpio_group_close(struct gpio_group *g);

/* The number of lines, and line @i's offset on the chip (@i < count). */
size_t gpio_group_count(const struct gpio_group *g);
unsigned int gpio_group_offset(const struct gpio_group *g, size_t i);
/* Line @i as gpio_out_describe() describes a single line. */
const char *gpio_group_describe(const struct gpio_group *g, size_t i);
/* The chip of every line. */
const struct gpio_chip_desc *gpio_group_chip(const struct gpio_group *g);

/* Backend compiled for GPIO_BACKEND_GPIOD: "libgpiod-v2", "libgpiod-v1" or "none". */
const char *gpio_out_gpiod_api(void);

/* "push-pull", "open-drain", "open-source". */
const char *gpio_drive_name(enum gpio_drive drive);

#endif
