/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The libgpiod v1 backend (libgpiod 1.6, kirkstone BSPs, Debian 12): built
 * when the Makefile picks GPIOD=v1. set() is one ioctl. */
#include <errno.h>
#include <gpiod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpio_private.h"

struct gpiod1_out {
	struct gpio_out base;
	struct gpiod_line *line; /* owned by the chip, which outlives us */
};

static void *gpiod1_chip_open(const struct gpio_out_spec *spec, const char *path)
{
	struct gpiod_chip *chip;
	struct stat st;

	(void)spec;
	/* ENOTTY / ENODEV when @path is not a GPIO chip. libgpiod also says
	 * ENOENT for a device with no GPIO entry in sysfs: not a chip either. */
	chip = gpiod_chip_open(path);
	if (!chip && errno == ENOENT && stat(path, &st) == 0)
		errno = ENODEV;
	return chip;
}

static void gpiod1_chip_close(void *chip)
{
	/* Also frees the chip's line objects. */
	gpiod_chip_close(chip);
}

static int gpiod1_chip_info(void *chip, struct gpio_chip_desc *cd)
{
	gpio_strlcpy(cd->name, gpiod_chip_name(chip), sizeof(cd->name));
	gpio_strlcpy(cd->label, gpiod_chip_label(chip), sizeof(cd->label));
	cd->num_lines = gpiod_chip_num_lines(chip);
	cd->open_errno = 0;
	return 0;
}

static int gpiod1_line_info(void *chip, unsigned int offset,
			    struct gpio_line_desc *ld)
{
	struct gpiod_line *line;

	/* Re-reads the line info from the kernel every time. */
	line = gpiod_chip_get_line(chip, offset);
	if (!line)
		return -1;
	memset(ld, 0, sizeof(*ld));
	gpio_strlcpy(ld->name, gpiod_line_name(line), sizeof(ld->name));
	ld->used = gpiod_line_is_used(line);
	if (ld->used)
		gpio_strlcpy(ld->consumer, gpiod_line_consumer(line),
			     sizeof(ld->consumer));
	return 0;
}

static struct gpio_out *gpiod1_request(void *chip, unsigned int offset,
				       const struct gpio_out_spec *spec)
{
	struct gpiod1_out *o;
	int flags = 0, err;

	if (spec->active_low)
		flags |= GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW;
	if (spec->drive == GPIO_DRIVE_OPEN_DRAIN)
		flags |= GPIOD_LINE_REQUEST_FLAG_OPEN_DRAIN;
	else if (spec->drive == GPIO_DRIVE_OPEN_SOURCE)
		flags |= GPIOD_LINE_REQUEST_FLAG_OPEN_SOURCE;

	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->line = gpiod_chip_get_line(chip, offset);
	/* The default value is logical: the kernel applies active-low. */
	if (!o->line ||
	    gpiod_line_request_output_flags(o->line, spec->consumer, flags,
					    spec->idle_level)) {
		err = errno;
		free(o);
		errno = err;
		return NULL;
	}
	return &o->base;
}

/* RT thread. gpiod_line_set_value() builds a one-line bulk on the stack and
 * makes one GPIOHANDLE_SET_LINE_VALUES_IOCTL (lib/core.c). */
static int gpiod1_set(struct gpio_out *g, int level)
{
	struct gpiod1_out *o = container_of(g, struct gpiod1_out, base);

	return gpiod_line_set_value(o->line, level);
}

static void gpiod1_release(struct gpio_out *g)
{
	struct gpiod1_out *o = container_of(g, struct gpiod1_out, base);

	gpiod_line_release(o->line);
	free(o);
}

static void gpiod1_describe(const struct gpio_out *g, char *buf, size_t len)
{
	(void)g;
	snprintf(buf, len, " (libgpiod %s, v1 API)", gpiod_version_string());
}

const struct gpio_ops gpio_gpiod_ops = {
	.name = "libgpiod-v1",
	.chip_open = gpiod1_chip_open,
	.chip_close = gpiod1_chip_close,
	.chip_info = gpiod1_chip_info,
	.line_info = gpiod1_line_info,
	.request = gpiod1_request,
	.set = gpiod1_set,
	.release = gpiod1_release,
	.describe = gpiod1_describe,
};
