/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The libgpiod v2 backend (libgpiod 2.x): built when the Makefile picks
 * GPIOD=v2. One preallocated line request; set() is one ioctl. Inputs get
 * edge events (rising, falling or both; debounce; monotonic, realtime or HTE
 * stamps) with line sequence numbers. */
#include <errno.h>
#include <gpiod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpio/gpio_private.h"

struct gpiod2_out {
	struct gpio_out base;
	struct gpiod_line_request *request;
	unsigned int offset;
};

static void *gpiod2_chip_open(const char *path)
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

static void gpiod2_chip_close(void *chip)
{
	gpiod_chip_close(chip);
}

static int gpiod2_chip_info(void *chip, struct gpio_chip_desc *cd)
{
	struct gpiod_chip_info *info;

	info = gpiod_chip_get_info(chip);
	if (!info)
		return -1;
	gpio_strlcpy(cd->path, gpiod_chip_get_path(chip), sizeof(cd->path));
	gpio_strlcpy(cd->name, gpiod_chip_info_get_name(info), sizeof(cd->name));
	gpio_strlcpy(cd->label, gpiod_chip_info_get_label(info), sizeof(cd->label));
	if (!cd->label[0])
		gpio_strlcpy(cd->label, "unknown", sizeof(cd->label));
	cd->num_lines = gpiod_chip_info_get_num_lines(info);
	cd->open_errno = 0;
	gpiod_chip_info_free(info);
	return 0;
}

static int gpiod2_line_info(void *chip, unsigned int offset,
			    struct gpio_line_desc *ld)
{
	struct gpiod_line_info *info;

	info = gpiod_chip_get_line_info(chip, offset);
	if (!info)
		return -1;
	memset(ld, 0, sizeof(*ld));
	gpio_strlcpy(ld->name, gpiod_line_info_get_name(info), sizeof(ld->name));
	ld->used = gpiod_line_info_is_used(info);
	ld->output = gpiod_line_info_get_direction(info) == GPIOD_LINE_DIRECTION_OUTPUT;
	if (ld->used)
		gpio_strlcpy(ld->consumer, gpiod_line_info_get_consumer(info),
			     sizeof(ld->consumer));
	gpiod_line_info_free(info);
	return 0;
}

static enum gpiod_line_drive gpiod2_drive(enum gpio_drive drive)
{
	switch (drive) {
	case GPIO_DRIVE_OPEN_DRAIN:
		return GPIOD_LINE_DRIVE_OPEN_DRAIN;
	case GPIO_DRIVE_OPEN_SOURCE:
		return GPIOD_LINE_DRIVE_OPEN_SOURCE;
	case GPIO_DRIVE_PUSH_PULL:
		break;
	}
	return GPIOD_LINE_DRIVE_PUSH_PULL;
}

/* The @n lines @offsets with @settings, under @consumer, in one request: the
 * request, or NULL with errno. @event_buffer: events the kernel may queue (0:
 * its default). */
static struct gpiod_line_request *gpiod2_request_lines(void *chip, const unsigned int *offsets,
						       size_t n,
						       struct gpiod_line_settings *settings,
						       const char *consumer,
						       unsigned int event_buffer)
{
	struct gpiod_request_config *req_cfg = NULL;
	struct gpiod_line_config *line_cfg;
	struct gpiod_line_request *req = NULL;
	int err = ENOMEM;

	line_cfg = gpiod_line_config_new();
	if (!line_cfg)
		goto out;
	if (gpiod_line_config_add_line_settings(line_cfg, offsets, n, settings)) {
		err = errno;
		goto out;
	}
	req_cfg = gpiod_request_config_new();
	if (!req_cfg)
		goto out;
	gpiod_request_config_set_consumer(req_cfg, consumer);
	if (event_buffer)
		gpiod_request_config_set_event_buffer_size(req_cfg, event_buffer);
	req = gpiod_chip_request_lines(chip, req_cfg, line_cfg);
	if (!req)
		err = errno;
out:
	gpiod_request_config_free(req_cfg);
	gpiod_line_config_free(line_cfg);
	if (!req)
		errno = err;
	return req;
}

/* @n lines as outputs at spec->idle_level, in one request: the request, or
 * NULL with errno. */
static struct gpiod_line_request *gpiod2_request_out(void *chip, const unsigned int *offsets,
						     size_t n, const struct gpio_out_spec *spec)
{
	struct gpiod_line_settings *settings;
	struct gpiod_line_request *req = NULL;
	int err;

	settings = gpiod_line_settings_new();
	if (!settings) {
		errno = ENOMEM;
		return NULL;
	}
	/* The output value is logical: the kernel applies active-low. */
	if (gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT) ||
	    gpiod_line_settings_set_drive(settings, gpiod2_drive(spec->drive)) ||
	    gpiod_line_settings_set_output_value(settings, spec->idle_level ?
						 GPIOD_LINE_VALUE_ACTIVE :
						 GPIOD_LINE_VALUE_INACTIVE)) {
		err = errno;
		gpiod_line_settings_free(settings);
		errno = err;
		return NULL;
	}
	gpiod_line_settings_set_active_low(settings, spec->active_low);
	req = gpiod2_request_lines(chip, offsets, n, settings, spec->consumer, 0);
	err = errno;
	gpiod_line_settings_free(settings);
	errno = err;
	return req;
}

static struct gpio_out *gpiod2_request(void *chip, unsigned int offset,
				       const struct gpio_out_spec *spec)
{
	struct gpiod2_out *o;
	int err;

	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->offset = offset;
	o->request = gpiod2_request_out(chip, &offset, 1, spec);
	if (!o->request) {
		err = errno;
		free(o);
		errno = err;
		return NULL;
	}
	return &o->base;
}

/* RT thread. gpiod_line_request_set_value() builds the values on the stack
 * and makes one GPIO_V2_LINE_SET_VALUES_IOCTL (lib/line-request.c). */
static int gpiod2_set(struct gpio_out *g, int level)
{
	struct gpiod2_out *o = container_of(g, struct gpiod2_out, base);

	return gpiod_line_request_set_value(o->request, o->offset, level ?
					    GPIOD_LINE_VALUE_ACTIVE :
					    GPIOD_LINE_VALUE_INACTIVE);
}

static void gpiod2_release(struct gpio_out *g)
{
	struct gpiod2_out *o = container_of(g, struct gpiod2_out, base);

	gpiod_line_request_release(o->request);
	free(o);
}

static void gpiod2_describe(const struct gpio_out *g, char *buf, size_t len)
{
	(void)g;
	snprintf(buf, len, " (libgpiod %s, v2 API)", gpiod_api_version());
}

/* ---- line group ------------------------------------------------------------- */

struct gpiod2_group {
	struct gpio_group base;
	struct gpiod_line_request *request;
	/* set_group()'s arguments, built here: nothing on the RT path allocates. */
	unsigned int offsets[GPIO_GROUP_MAX];
	enum gpiod_line_value values[GPIO_GROUP_MAX];
};

static struct gpio_group *gpiod2_request_group(void *chip, const unsigned int *offsets,
					       size_t n, const struct gpio_out_spec *spec)
{
	struct gpiod2_group *o;
	int err;

	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->request = gpiod2_request_out(chip, offsets, n, spec);
	if (!o->request) {
		err = errno;
		free(o);
		errno = err;
		return NULL;
	}
	return &o->base;
}

/* RT thread. gpiod_line_request_set_values_subset() maps the offsets to the
 * request's bits and makes one GPIO_V2_LINE_SET_VALUES_IOCTL with that mask
 * (lib/line-request.c): the lines not in @mask keep their levels. */
static int gpiod2_set_group(struct gpio_group *g, uint32_t mask, uint32_t levels)
{
	struct gpiod2_group *o = container_of(g, struct gpiod2_group, base);
	size_t i, k = 0;

	for (i = 0; i < g->n; i++) {
		if (!(mask & (UINT32_C(1) << i)))
			continue;
		o->offsets[k] = g->offsets[i];
		o->values[k++] = (levels >> i) & 1 ? GPIOD_LINE_VALUE_ACTIVE :
						     GPIOD_LINE_VALUE_INACTIVE;
	}
	return gpiod_line_request_set_values_subset(o->request, k, o->offsets, o->values);
}

static void gpiod2_release_group(struct gpio_group *g)
{
	struct gpiod2_group *o = container_of(g, struct gpiod2_group, base);

	gpiod_line_request_release(o->request);
	free(o);
}

/* ---- input ------------------------------------------------------------------ */

#define GPIOD2_EVENTS 64 /* read at most this many per call */

struct gpiod2_in {
	struct gpio_in base;
	struct gpiod_line_request *request;
	struct gpiod_edge_event_buffer *events;
	unsigned int offset;
};

static enum gpiod_line_edge gpiod2_edge(enum gpio_edge edge)
{
	switch (edge) {
	case GPIO_EDGE_RISING:
		return GPIOD_LINE_EDGE_RISING;
	case GPIO_EDGE_FALLING:
		return GPIOD_LINE_EDGE_FALLING;
	case GPIO_EDGE_BOTH:
		break;
	}
	return GPIOD_LINE_EDGE_BOTH;
}

/* The kernel refuses HTE at request time when no provider serves the line
 * (EOPNOTSUPP without CONFIG_HTE, EINVAL or the provider's error else):
 * gpio_in.c names the setting. */
static enum gpiod_line_clock gpiod2_clock(enum gpio_event_clock clock)
{
	switch (clock) {
	case GPIO_CLOCK_REALTIME:
		return GPIOD_LINE_CLOCK_REALTIME;
	case GPIO_CLOCK_HTE:
		return GPIOD_LINE_CLOCK_HTE;
	case GPIO_CLOCK_MONOTONIC:
		break;
	}
	return GPIOD_LINE_CLOCK_MONOTONIC;
}

static struct gpio_in *gpiod2_in_request(void *chip, unsigned int offset,
					 const struct gpio_in_spec *spec)
{
	struct gpiod_line_settings *settings;
	struct gpiod2_in *in;
	int err;

	settings = gpiod_line_settings_new();
	in = calloc(1, sizeof(*in));
	if (!settings || !in || (spec->edges && !(in->events =
						  gpiod_edge_event_buffer_new(GPIOD2_EVENTS)))) {
		err = ENOMEM;
		goto fail;
	}
	if (gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT) ||
	    (spec->edges &&
	     (gpiod_line_settings_set_edge_detection(settings, gpiod2_edge(spec->edge)) ||
	      gpiod_line_settings_set_event_clock(settings, gpiod2_clock(spec->clock))))) {
		err = errno;
		goto fail;
	}
	/* The kernel takes microseconds: round up, so that a debounce is never
	 * shorter than asked (and 1 ns is not none). */
	if (spec->edges && spec->debounce_ns > 0)
		gpiod_line_settings_set_debounce_period_us(settings, (unsigned long)
							   ((spec->debounce_ns + 999) / 1000));
	in->offset = offset;
	in->base.has_seqno = true;
	in->request = gpiod2_request_lines(chip, &offset, 1, settings, spec->consumer,
					  spec->edges ? spec->event_buffer : 0);
	if (!in->request) {
		err = errno;
		goto fail;
	}
	gpiod_line_settings_free(settings);
	return &in->base;
fail:
	gpiod_line_settings_free(settings);
	if (in && in->events)
		gpiod_edge_event_buffer_free(in->events);
	free(in);
	errno = err;
	return NULL;
}

static int gpiod2_in_fd(struct gpio_in *g)
{
	struct gpiod2_in *in = container_of(g, struct gpiod2_in, base);

	return gpiod_line_request_get_fd(in->request);
}

/* May run on the RT thread: gpiod_line_request_read_edge_events() is one
 * read() of the request's fd into @in->events' storage, allocated with the
 * buffer at request time (lib/edge-event.c), then a copy of each event. */
static int gpiod2_in_read(struct gpio_in *g, struct gpio_in_event *ev, size_t max)
{
	struct gpiod2_in *in = container_of(g, struct gpiod2_in, base);
	struct gpiod_edge_event *e;
	int i, n;

	n = gpiod_line_request_read_edge_events(in->request, in->events,
						max < GPIOD2_EVENTS ? max : GPIOD2_EVENTS);
	for (i = 0; i < n; i++) {
		e = gpiod_edge_event_buffer_get_event(in->events, (unsigned long)i);
		ev[i].t_ns = gpiod_edge_event_get_timestamp_ns(e);
		ev[i].seqno = gpiod_edge_event_get_line_seqno(e);
		ev[i].rising = gpiod_edge_event_get_event_type(e) ==
			       GPIOD_EDGE_EVENT_RISING_EDGE;
	}
	return n;
}

static int gpiod2_in_get(struct gpio_in *g)
{
	struct gpiod2_in *in = container_of(g, struct gpiod2_in, base);
	enum gpiod_line_value v = gpiod_line_request_get_value(in->request, in->offset);

	return v == GPIOD_LINE_VALUE_ERROR ? -1 : v == GPIOD_LINE_VALUE_ACTIVE;
}

static void gpiod2_in_release(struct gpio_in *g)
{
	struct gpiod2_in *in = container_of(g, struct gpiod2_in, base);

	gpiod_line_request_release(in->request);
	if (in->events)
		gpiod_edge_event_buffer_free(in->events);
	free(in);
}

const struct gpio_ops gpio_gpiod_ops = {
	.name = "libgpiod-v2",
	.title = "libgpiod v2",
	.in_caps = GPIO_IN_CAP_DEBOUNCE | GPIO_IN_CAP_REALTIME | GPIO_IN_CAP_HTE,
	.chip_open = gpiod2_chip_open,
	.chip_close = gpiod2_chip_close,
	.chip_info = gpiod2_chip_info,
	.line_info = gpiod2_line_info,
	.request = gpiod2_request,
	.set = gpiod2_set,
	.release = gpiod2_release,
	.describe = gpiod2_describe,
	.request_group = gpiod2_request_group,
	.set_group = gpiod2_set_group,
	.release_group = gpiod2_release_group,
	.in_request = gpiod2_in_request,
	.in_fd = gpiod2_in_fd,
	.in_read = gpiod2_in_read,
	.in_get = gpiod2_in_get,
	.in_release = gpiod2_in_release,
};
