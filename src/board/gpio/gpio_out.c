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

/* "gpiochip0 [GPIOB] line 3 \"name\", active-low, open-drain": the part of a
 * description every backend shares. */
static void line_desc(char *buf, size_t len, const struct gpio_chip_desc *cd,
		      unsigned int offset, const char *name, int active_low,
		      enum gpio_drive drive)
{
	buf[0] = '\0';
	msgbuf_add(buf, len, "%s [%s] line %u", cd->name, cd->label, offset);
	if (name[0])
		msgbuf_add(buf, len, " \"%s\"", name);
	if (active_low)
		msgbuf_add(buf, len, ", active-low");
	if (drive != GPIO_DRIVE_PUSH_PULL)
		msgbuf_add(buf, len, ", %s", gpio_drive_name(drive));
}

static void gpio_out_make_desc(struct gpio_out *g)
{
	char *buf = g->desc;
	size_t len = sizeof(g->desc);

	line_desc(buf, len, &g->chip_desc, g->offset, g->line_name, g->active_low, g->drive);
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

/* ---- line groups ----------------------------------------------------------- */

/* A group request the kernel refused: a line taken between our look and our
 * request is named with its new holder, as for one line; else the lines. */
static void report_group_request_error(const struct gpio_ops *ops, void *chip,
				       const struct gpio_out_spec *spec,
				       const struct gpio_location *loc, size_t n, int e,
				       char *err, size_t errlen)
{
	const struct gpio_chip_desc *cd = &loc[0].chip;
	struct gpio_line_desc ld;
	size_t i, k = 0;

	memset(&ld, 0, sizeof(ld));
	if (e == EBUSY) {
		for (i = 0; i < n; i++)
			if (!ops->line_info(chip, loc[i].offset, &ld) && ld.used)
				break;
		if (i < n)
			k = i;
		else
			memset(&ld, 0, sizeof(ld));
	}
	if (gpio_msg_request_refused(err, errlen, &loc[k], &ld, e))
		return;
	msgbuf_set(err, errlen, "cannot request lines ");
	for (i = 0; i < n; i++)
		msgbuf_add(err, errlen, "%s%u", i ? ", " : "", loc[i].offset);
	msgbuf_add(err, errlen, " of %s [%s] together as ", cd->name, cd->label);
	if ((e == EINVAL || e == EOPNOTSUPP) && spec->drive != GPIO_DRIVE_PUSH_PULL)
		msgbuf_add(err, errlen, "%s outputs: %s (does the driver support %s?)",
			   gpio_drive_name(spec->drive), strerror(e),
			   gpio_drive_name(spec->drive));
	else
		msgbuf_add(err, errlen, "outputs: %s", strerror(e));
}

/* Find every line of the group on one chip, each free and listed once. The
 * chip of the first line (open), or NULL with errno and @err. */
static void *group_locate(const struct gpio_ops *ops, const struct gpio_out_spec *s,
			  const char *const *lines, size_t n, struct gpio_location *loc,
			  char *err, size_t errlen)
{
	void *chip = NULL, *c;
	size_t i, j;

	for (i = 0; i < n; i++) {
		/* The rest on the first line's chip, however it was found. */
		c = gpio_lookup_open_free(ops, i ? loc[0].chip.path : s->chip, lines[i],
					  &loc[i], err, errlen);
		if (!c)
			goto fail;
		if (i)
			ops->chip_close(c);
		else
			chip = c;
		for (j = 0; j < i; j++) {
			if (loc[j].offset != loc[i].offset)
				continue;
			if (strcmp(lines[i], lines[j]) == 0)
				msgbuf_set(err, errlen, "line %s is listed twice", lines[i]);
			else
				msgbuf_set(err, errlen, "line %s is listed twice: it is line %u "
					   "of %s [%s], as %s is", lines[i], loc[i].offset,
					   loc[i].chip.name, loc[i].chip.label, lines[j]);
			errno = EEXIST;	/* the caller's list, not the chip: a usage error */
			goto fail;
		}
	}
	return chip;
fail:
	if (chip) {
		int e = errno;

		ops->chip_close(chip);
		errno = e;
	}
	return NULL;
}

struct gpio_group *gpio_group_open(const struct gpio_out_spec *spec, const char *const *lines,
				   size_t n, char *err, size_t errlen)
{
	struct gpio_location *loc;
	struct gpio_out_spec s;
	const struct gpio_ops *ops;
	struct gpio_group *g;
	unsigned int offsets[GPIO_GROUP_MAX];
	void *chip;
	size_t i;
	int e;

	assert(spec);
	if (err && errlen)
		err[0] = '\0';
	if (n < 1 || n > GPIO_GROUP_MAX || !lines) {
		msgbuf_set(err, errlen, "a line group has 1 to %d lines, not %zu", GPIO_GROUP_MAX,
			   lines ? n : 0);
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (!lines[i] || !*lines[i]) {
			msgbuf_set(err, errlen, "line %zu of the group is not given (an offset "
				   "or a line name)", i + 1);
			errno = EINVAL;
			return NULL;
		}
	s = *spec;
	s.idle_level = !!s.idle_level;
	s.active_low = !!s.active_low;
	s.line = NULL;
	if (!s.consumer || !*s.consumer)
		s.consumer = "sqwave";

	ops = gpio_backend_get(s.backend, s.config, err, errlen);
	if (!ops)
		return NULL;
	if (!ops->request_group) {
		msgbuf_set(err, errlen, "%s cannot request lines together", ops->title);
		errno = ENOTSUP;
		return NULL;
	}
	/* A location is over 1 KiB: 32 of them do not belong on the stack. */
	loc = calloc(n, sizeof(*loc));
	if (!loc) {
		msgbuf_set(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	chip = group_locate(ops, &s, lines, n, loc, err, errlen);
	if (!chip) {
		e = errno;
		free(loc);
		errno = e;
		return NULL;
	}
	for (i = 0; i < n; i++)
		offsets[i] = loc[i].offset;
	g = ops->request_group(chip, offsets, n, &s);
	if (!g) {
		e = errno;
		report_group_request_error(ops, chip, &s, loc, n, e, err, errlen);
		ops->chip_close(chip);
		free(loc);
		errno = e;
		return NULL;
	}
	g->ops = ops;
	g->chip = chip;
	g->n = n;
	g->idle_level = s.idle_level;
	g->active_low = s.active_low;
	g->drive = s.drive;
	g->chip_desc = loc[0].chip;
	for (i = 0; i < n; i++) {
		char *buf = g->desc[i];
		size_t len = sizeof(g->desc[i]), used;

		g->offsets[i] = offsets[i];
		gpio_strlcpy(g->line_names[i], loc[i].line.name, sizeof(g->line_names[i]));
		line_desc(buf, len, &g->chip_desc, offsets[i], g->line_names[i], g->active_low,
			  g->drive);
		used = strlen(buf);
		if (ops->describe_group)
			ops->describe_group(g, buf + used, len - used);
		else if (ops->describe)
			ops->describe(NULL, buf + used, len - used);
	}
	free(loc);
	return g;
}

int gpio_group_set(struct gpio_group *g, uint32_t mask, uint32_t levels)
{
	assert(g->n == GPIO_GROUP_MAX || !(mask >> g->n));
	if (!mask)
		return 0;
	return g->ops->set_group(g, mask, levels & mask);
}

int gpio_group_close(struct gpio_group *g)
{
	const struct gpio_ops *ops;
	uint32_t all;
	void *chip;
	int ret = 0, e = 0;

	if (!g)
		return 0;
	ops = g->ops;
	chip = g->chip;
	all = g->n == GPIO_GROUP_MAX ? UINT32_MAX : (UINT32_C(1) << g->n) - 1;
	if (ops->set_group(g, all, g->idle_level ? all : 0)) {
		e = errno;
		ret = -1;
	}
	ops->release_group(g);
	ops->chip_close(chip);
	if (ret)
		errno = e;
	return ret;
}

size_t gpio_group_count(const struct gpio_group *g)
{
	return g->n;
}

unsigned int gpio_group_offset(const struct gpio_group *g, size_t i)
{
	assert(i < g->n);
	return g->offsets[i];
}

const char *gpio_group_describe(const struct gpio_group *g, size_t i)
{
	assert(i < g->n);
	return g->desc[i];
}

const struct gpio_chip_desc *gpio_group_chip(const struct gpio_group *g)
{
	return &g->chip_desc;
}

const char *gpio_out_gpiod_api(void)
{
#ifdef SQW_GPIOD_NONE
	return "none";
#else
	return gpio_gpiod_ops.name;
#endif
}
