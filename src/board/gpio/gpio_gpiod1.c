/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The libgpiod v1 backend (libgpiod 1.6, kirkstone BSPs, Debian 12): built
 * when the Makefile picks GPIOD=v1. set() is one ioctl. Input events carry
 * no sequence numbers in this API, and it has no debounce or event clock
 * setting (gpio_in.c refuses those: in_caps is 0). */
#include <errno.h>
#include <gpiod.h>
#include <linux/gpio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpio/gpio_private.h"
#include "base/clock.h"

struct gpiod1_out {
	struct gpio_out base;
	struct gpiod_line *line; /* owned by the chip, which outlives us */
};

static void *gpiod1_chip_open(const char *path)
{
	struct gpiod_chip *chip;
	struct stat st;

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
	ld->output = gpiod_line_direction(line) == GPIOD_LINE_DIRECTION_OUTPUT;
	if (ld->used)
		gpio_strlcpy(ld->consumer, gpiod_line_consumer(line),
			     sizeof(ld->consumer));
	return 0;
}

/* The request flags of an output of @spec. */
static int gpiod1_out_flags(const struct gpio_out_spec *spec)
{
	int flags = 0;

	if (spec->active_low)
		flags |= GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW;
	if (spec->drive == GPIO_DRIVE_OPEN_DRAIN)
		flags |= GPIOD_LINE_REQUEST_FLAG_OPEN_DRAIN;
	else if (spec->drive == GPIO_DRIVE_OPEN_SOURCE)
		flags |= GPIOD_LINE_REQUEST_FLAG_OPEN_SOURCE;
	return flags;
}

static struct gpio_out *gpiod1_request(void *chip, unsigned int offset,
				       const struct gpio_out_spec *spec)
{
	struct gpiod1_out *o;
	int flags = gpiod1_out_flags(spec), err;

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

/* ---- line group ------------------------------------------------------------- */

/*
 * v1 has no subset write: GPIOHANDLE_SET_LINE_VALUES_IOCTL writes every line
 * of the handle. So the object keeps the last logical level of each line and
 * set_group() writes those for the lines outside the mask: still one ioctl.
 */
struct gpiod1_group {
	struct gpio_group base;
	struct gpiod_line_bulk bulk;       /* lines owned by the chip */
	int values[GPIO_GROUP_MAX];        /* logical, as last written */
	int next[GPIO_GROUP_MAX];          /* set_group()'s scratch */
};

static struct gpio_group *gpiod1_request_group(void *chip, const unsigned int *offsets,
					       size_t n, const struct gpio_out_spec *spec)
{
	unsigned int offs[GPIO_GROUP_MAX];
	struct gpiod1_group *o;
	size_t i;
	int err;

	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	/* libgpiod 1.6 takes the offsets as unsigned int *, not const. */
	for (i = 0; i < n; i++) {
		offs[i] = offsets[i];
		o->values[i] = spec->idle_level;
	}
	gpiod_line_bulk_init(&o->bulk);
	/* The default values are logical: the kernel applies active-low. */
	if (gpiod_chip_get_lines(chip, offs, (unsigned int)n, &o->bulk) ||
	    gpiod_line_request_bulk_output_flags(&o->bulk, spec->consumer,
						 gpiod1_out_flags(spec), o->values)) {
		err = errno;
		free(o);
		errno = err;
		return NULL;
	}
	return &o->base;
}

/* RT thread. gpiod_line_set_value_bulk() fills a struct gpiohandle_data on
 * the stack and makes one GPIOHANDLE_SET_LINE_VALUES_IOCTL (lib/core.c). */
static int gpiod1_set_group(struct gpio_group *g, uint32_t mask, uint32_t levels)
{
	struct gpiod1_group *o = container_of(g, struct gpiod1_group, base);
	size_t i;

	for (i = 0; i < g->n; i++)
		o->next[i] = mask & (UINT32_C(1) << i) ? (int)((levels >> i) & 1) :
							 o->values[i];
	if (gpiod_line_set_value_bulk(&o->bulk, o->next))
		return -1;
	memcpy(o->values, o->next, g->n * sizeof(o->values[0]));
	return 0;
}

static void gpiod1_release_group(struct gpio_group *g)
{
	struct gpiod1_group *o = container_of(g, struct gpiod1_group, base);

	gpiod_line_release_bulk(&o->bulk);
	free(o);
}

/* ---- input ------------------------------------------------------------------ */

#define GPIOD1_EVENTS 16 /* the v1 kernel queue holds 16 events per line */

struct gpiod1_in {
	struct gpio_in base;
	struct gpiod_line *line; /* owned by the chip */
	int64_t realtime_off_ns; /* CLOCK_REALTIME - CLOCK_MONOTONIC at request */
	struct gpioevent_data events[GPIOD1_EVENTS];
};

static struct gpio_in *gpiod1_in_request(void *chip, unsigned int offset,
					 const struct gpio_in_spec *spec)
{
	struct gpiod1_in *in;
	int ret, err;

	in = calloc(1, sizeof(*in));
	if (!in)
		return NULL;
	in->line = gpiod_chip_get_line(chip, offset);
	in->realtime_off_ns = (int64_t)(clock_now_ns(CLOCK_REALTIME) - clock_mono_ns());
	/* Debounce and the clock never get here (in_caps: gpio_in.c refuses
	 * them); the edge choice is one of the three v1 requests. */
	if (!in->line)
		ret = -1;
	else if (spec->edges && spec->edge == GPIO_EDGE_RISING)
		ret = gpiod_line_request_rising_edge_events(in->line, spec->consumer);
	else if (spec->edges && spec->edge == GPIO_EDGE_FALLING)
		ret = gpiod_line_request_falling_edge_events(in->line, spec->consumer);
	else if (spec->edges)
		ret = gpiod_line_request_both_edges_events(in->line, spec->consumer);
	else
		ret = gpiod_line_request_input(in->line, spec->consumer);
	if (ret) {
		err = errno;
		free(in);
		errno = err;
		return NULL;
	}
	return &in->base;
}

static int gpiod1_in_fd(struct gpio_in *g)
{
	struct gpiod1_in *in = container_of(g, struct gpiod1_in, base);

	return gpiod_line_event_get_fd(in->line);
}

/* Kernels before 5.7 stamped v1 events with CLOCK_REALTIME; from 5.7 on with
 * CLOCK_MONOTONIC. A stamp far in the monotonic future is a realtime one. */
static uint64_t gpiod1_event_ns(const struct gpiod1_in *in, uint64_t stamp)
{
	int64_t t = (int64_t)stamp;

	if (t > (int64_t)clock_now_ns(CLOCK_MONOTONIC) + 86400LL * 1000000000 &&
	    in->realtime_off_ns > 0)
		t -= in->realtime_off_ns;
	return (uint64_t)t;
}

/*
 * The kernel's own records (struct gpioevent_data: u64 ns, u32 id), read from
 * the request's fd, not gpiod_line_event_read_multiple(): libgpiod 1.6 hands
 * events out in a struct timespec, whose layout is that of the time_t libgpiod
 * was built with. sqwave builds with 64-bit time_t everywhere (y2038), and on
 * 32-bit ARM Debian's libgpiod 1.6 has a 32-bit one: the timestamps came out
 * as garbage (caught by make test-vm on the PL061's power-button line).
 * May run on the RT thread: one read() into in->events, allocated with the
 * object at request time.
 */
static int gpiod1_in_read(struct gpio_in *g, struct gpio_in_event *ev, size_t max)
{
	struct gpiod1_in *in = container_of(g, struct gpiod1_in, base);
	size_t want = max < GPIOD1_EVENTS ? max : GPIOD1_EVENTS;
	ssize_t got;
	int i, n;

	got = read(gpiod_line_event_get_fd(in->line), in->events,
		   want * sizeof(in->events[0]));
	if (got < 0)
		return -1;
	n = (int)((size_t)got / sizeof(in->events[0]));
	for (i = 0; i < n; i++) {
		ev[i].t_ns = gpiod1_event_ns(in, in->events[i].timestamp);
		ev[i].seqno = 0;
		ev[i].rising = in->events[i].id == GPIOEVENT_EVENT_RISING_EDGE;
	}
	return n;
}

static int gpiod1_in_get(struct gpio_in *g)
{
	struct gpiod1_in *in = container_of(g, struct gpiod1_in, base);

	return gpiod_line_get_value(in->line);
}

static void gpiod1_in_release(struct gpio_in *g)
{
	struct gpiod1_in *in = container_of(g, struct gpiod1_in, base);

	gpiod_line_release(in->line);
	free(in);
}

const struct gpio_ops gpio_gpiod_ops = {
	.name = "libgpiod-v1",
	.title = "libgpiod v1",
	.in_caps = 0,
	.chip_open = gpiod1_chip_open,
	.chip_close = gpiod1_chip_close,
	.chip_info = gpiod1_chip_info,
	.line_info = gpiod1_line_info,
	.request = gpiod1_request,
	.set = gpiod1_set,
	.release = gpiod1_release,
	.describe = gpiod1_describe,
	.request_group = gpiod1_request_group,
	.set_group = gpiod1_set_group,
	.release_group = gpiod1_release_group,
	.in_request = gpiod1_in_request,
	.in_fd = gpiod1_in_fd,
	.in_read = gpiod1_in_read,
	.in_get = gpiod1_in_get,
	.in_release = gpiod1_in_release,
};
