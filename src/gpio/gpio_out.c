/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The GPIO output factory: picks the backend, finds the chip and the line
 * (gpio_lookup.c), requests the line, and turns failures into messages. */
#include "gpio/gpio_out.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "gpio/gpio_private.h"

const char *gpio_drive_name(enum gpio_drive drive)
{
	switch (drive) {
	case GPIO_DRIVE_PUSH_PULL:
		return "push-pull";
	case GPIO_DRIVE_OPEN_DRAIN:
		return "open-drain";
	case GPIO_DRIVE_OPEN_SOURCE:
		return "open-source";
	}
	return "?";
}

void gpio_out_spec_from_config(const struct config *c, struct gpio_out_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->backend = (enum gpio_backend)config_choice(c, CFG_GPIO_BACKEND);
	s->chip = config_str(c, CFG_GPIO_CHIP);
	s->line = config_str(c, CFG_GPIO_LINE);
	s->active_low = config_bool(c, CFG_GPIO_ACTIVE_LOW);
	s->drive = (enum gpio_drive)config_choice(c, CFG_GPIO_DRIVE);
	s->idle_level = (int)config_int(c, CFG_GPIO_IDLE_LEVEL);
	s->consumer = "sqwave";
	s->config = c;
}

static void report_request_error(const struct gpio_ops *ops, void *chip,
				 const struct gpio_out_spec *spec,
				 const struct gpio_location *loc, int e,
				 char *err, size_t errlen)
{
	const struct gpio_chip_desc *cd = &loc->chip;
	struct gpio_line_desc ld;

	memset(&ld, 0, sizeof(ld));
	/* Taken between our look and our request: name the new holder. */
	if (e == EBUSY && (ops->line_info(chip, loc->offset, &ld) || !ld.used))
		memset(&ld, 0, sizeof(ld));
	if (gpio_msg_request_refused(err, errlen, loc, &ld, e))
		return;
	switch (e) {
	case EINVAL:
	case EOPNOTSUPP:
		if (spec->drive != GPIO_DRIVE_PUSH_PULL) {
			snprintf(err, errlen, "cannot request line %u of %s [%s] as an %s "
				 "output: %s (does the driver support %s?)", loc->offset,
				 cd->name, cd->label, gpio_drive_name(spec->drive),
				 strerror(e), gpio_drive_name(spec->drive));
			break;
		}
		/* fall through */
	default:
		snprintf(err, errlen, "cannot request line %u of %s [%s] as an output: %s",
			 loc->offset, cd->name, cd->label, strerror(e));
		break;
	}
}

static void gpio_out_make_desc(struct gpio_out *g)
{
	char *buf = g->desc;
	size_t len = sizeof(g->desc);

	buf[0] = '\0';
	msgbuf_add(buf, len, "%s [%s] line %u", g->chip_desc.name,
		     g->chip_desc.label, g->offset);
	if (g->line_name[0])
		msgbuf_add(buf, len, " \"%s\"", g->line_name);
	if (g->active_low)
		msgbuf_add(buf, len, ", active-low");
	if (g->drive != GPIO_DRIVE_PUSH_PULL)
		msgbuf_add(buf, len, ", %s", gpio_drive_name(g->drive));
	if (g->ops->describe) {
		size_t used = strlen(buf);

		g->ops->describe(g, buf + used, len - used);
	}
}

struct gpio_out *gpio_out_open(const struct gpio_out_spec *spec, char *err, size_t errlen)
{
	struct gpio_out_spec s;
	const struct gpio_ops *ops;
	struct gpio_location loc;
	struct gpio_out *g;
	void *chip;
	int e;

	assert(spec);
	if (err && errlen)
		err[0] = '\0';
	s = *spec;
	s.idle_level = !!s.idle_level;
	s.active_low = !!s.active_low;
	if (!s.consumer || !*s.consumer)
		s.consumer = "sqwave";

	ops = gpio_backend_get(s.backend, s.config, err, errlen);
	if (!ops)
		return NULL;
	chip = gpio_lookup_open_free(ops, s.chip, s.line, &loc, err, errlen);
	if (!chip)
		return NULL;
	g = ops->request(chip, loc.offset, &s);
	if (!g) {
		e = errno;
		report_request_error(ops, chip, &s, &loc, e, err, errlen);
		ops->chip_close(chip);
		errno = e;
		return NULL;
	}
	g->ops = ops;
	g->chip = chip;
	g->offset = loc.offset;
	g->idle_level = s.idle_level;
	g->active_low = s.active_low;
	g->drive = s.drive;
	g->chip_desc = loc.chip;
	gpio_strlcpy(g->line_name, loc.line.name, sizeof(g->line_name));
	gpio_out_make_desc(g);
	return g;
}

int gpio_out_set(struct gpio_out *g, int level)
{
	return g->ops->set(g, level != 0);
}

int gpio_out_close(struct gpio_out *g)
{
	const struct gpio_ops *ops;
	void *chip;
	int ret = 0, e = 0;

	if (!g)
		return 0;
	ops = g->ops;
	chip = g->chip;
	if (ops->set(g, g->idle_level)) {
		e = errno;
		ret = -1;
	}
	ops->release(g);
	ops->chip_close(chip);
	if (ret)
		errno = e;
	return ret;
}

const char *gpio_out_describe(const struct gpio_out *g)
{
	return g->desc;
}

const struct gpio_chip_desc *gpio_out_chip(const struct gpio_out *g)
{
	return &g->chip_desc;
}

unsigned int gpio_out_offset(const struct gpio_out *g)
{
	return g->offset;
}

int gpio_out_idle_value(const struct gpio_out *g)
{
	return g->idle_level ^ g->active_low;
}

const char *gpio_out_gpiod_api(void)
{
#ifdef SQW_GPIOD_NONE
	return "none";
#else
	return gpio_gpiod_ops.name;
#endif
}
