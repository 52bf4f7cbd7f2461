/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The GPIO input factory: the same lookup and messages as the output, then an
 * input request with edge events, and a poll()-then-read of the events. */
#include "gpio/gpio_in.h"

#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpio/gpio_private.h"

static const char *const gpio_clock_words[] = { "monotonic", "realtime", "hte" };

/* A setting @ops cannot give: true with the sentence in @err. The words name
 * the key (respond.*) because respond is the one command that sets them. */
static bool gpio_in_refuse(const struct gpio_ops *ops, const struct gpio_in_spec *s,
			   char *err, size_t errlen)
{
	const char *what = ops->title ? ops->title : ops->name;

	if ((unsigned int)s->edge > GPIO_EDGE_FALLING || s->debounce_ns < 0 ||
	    (unsigned int)s->clock > GPIO_CLOCK_HTE) {
		snprintf(err, errlen, "an input's edge, debounce or event clock is out of range");
		return true;
	}
	if (s->debounce_ns && !(ops->in_caps & GPIO_IN_CAP_DEBOUNCE)) {
		snprintf(err, errlen, "%s has no debounce setting: build with libgpiod v2 or set "
			 "respond.debounce 0", what);
		return true;
	}
	if (s->clock != GPIO_CLOCK_MONOTONIC &&
	    !(ops->in_caps & (GPIO_IN_CAP_REALTIME | GPIO_IN_CAP_HTE))) {
		snprintf(err, errlen, "%s has no event clock setting (respond.event_clock %s): "
			 "build with libgpiod v2 or set respond.event_clock monotonic", what,
			 gpio_clock_words[s->clock]);
		return true;
	}
	if ((s->clock == GPIO_CLOCK_REALTIME && !(ops->in_caps & GPIO_IN_CAP_REALTIME)) ||
	    (s->clock == GPIO_CLOCK_HTE && !(ops->in_caps & GPIO_IN_CAP_HTE))) {
		snprintf(err, errlen, "%s has no %s event clock (respond.event_clock %s): set "
			 "respond.event_clock monotonic", what,
			 s->clock == GPIO_CLOCK_HTE ? "hardware timestamp engine" : "realtime",
			 gpio_clock_words[s->clock]);
		return true;
	}
	return false;
}

/* The message for a request the backend or kernel refused for another reason
 * than permission or a holder. */
static void gpio_in_msg_failed(char *err, size_t errlen, const struct gpio_ops *ops,
			       const struct gpio_location *loc, const struct gpio_in_spec *s,
			       int e)
{
	/* ENOTSUP is EOPNOTSUPP on Linux: what a kernel without an HTE provider
	 * and the sim's refusals say. */
	if (s->edges && s->clock == GPIO_CLOCK_HTE && (e == EOPNOTSUPP || e == EINVAL))
		snprintf(err, errlen, "cannot request line %u of %s [%s] with hardware "
			 "timestamps (respond.event_clock hte): %s; the kernel needs "
			 "CONFIG_HTE and a timestamp engine that serves this line, or set "
			 "respond.event_clock monotonic", loc->offset, loc->chip.name,
			 loc->chip.label, strerror(e));
	else if (s->edges && s->debounce_ns && e == EOPNOTSUPP)
		snprintf(err, errlen, "cannot request line %u of %s [%s] with a debounce "
			 "(respond.debounce): %s%s", loc->offset, loc->chip.name,
			 loc->chip.label, strerror(e), ops == &gpio_sim_ops ?
			 " (the simulated chip debounces only its stimulated line, "
			 "sim.stim_line)" : "");
	else
		snprintf(err, errlen, "cannot request line %u of %s [%s] as an input%s: "
			 "%s%s", loc->offset, loc->chip.name, loc->chip.label,
			 !s->edges ? "" : s->debounce_ns ? " with edge events and a debounce"
			 : " with edge events", strerror(e),
			 s->edges && (e == EINVAL || e == ENXIO || e == EOPNOTSUPP)
			 ? " (can this chip's lines interrupt? an expander without an "
			   "IRQ line cannot)" : "");
}

struct gpio_in *gpio_in_open(const struct gpio_in_spec *spec, char *err, size_t errlen)
{
	struct gpio_in_spec s;
	const struct gpio_ops *ops;
	struct gpio_location loc;
	struct gpio_in *g;
	void *chip;
	int e;

	assert(spec);
	if (err && errlen)
		err[0] = '\0';
	s = *spec;
	if (!s.consumer || !*s.consumer)
		s.consumer = "sqwave-loopback";
	ops = gpio_backend_get(s.backend, s.config, err, errlen);
	if (!ops)
		return NULL;
	if (!ops->in_request) {
		snprintf(err, errlen, "the %s GPIO backend has no input lines", ops->name);
		errno = ENOTSUP;
		return NULL;
	}
	if (s.edges && gpio_in_refuse(ops, &s, err, errlen)) {
		errno = ENOTSUP;
		return NULL;
	}
	chip = gpio_lookup_open_free(ops, s.chip, s.line, &loc, err, errlen);
	if (!chip)
		return NULL;
	g = ops->in_request(chip, loc.offset, &s);
	if (!g) {
		e = errno;
		if (!gpio_msg_request_refused(err, errlen, &loc, &loc.line, e))
			gpio_in_msg_failed(err, errlen, ops, &loc, &s, e);
		goto err_chip;
	}
	g->ops = ops;
	g->chip = chip;
	g->offset = loc.offset;
	g->edges = s.edges;
	g->clock = s.edges ? s.clock : GPIO_CLOCK_MONOTONIC;
	g->chip_desc = loc.chip;
	gpio_strlcpy(g->line_name, loc.line.name, sizeof(g->line_name));
	snprintf(g->desc, sizeof(g->desc), "%s [%s] line %u", loc.chip.name,
		 loc.chip.label, loc.offset);
	if (g->line_name[0])
		msgbuf_add(g->desc, sizeof(g->desc), " \"%s\"", g->line_name);
	if (ops->describe) {
		size_t used = strlen(g->desc);

		ops->describe(NULL, g->desc + used, sizeof(g->desc) - used);
	}
	return g;

err_chip:
	ops->chip_close(chip);
	errno = e;
	return NULL;
}

int gpio_in_get(struct gpio_in *g)
{
	return g->ops->in_get(g);
}

int gpio_in_read(struct gpio_in *g, struct gpio_in_event *ev, size_t max, int64_t timeout_ns)
{
	struct pollfd pfd = { .fd = g->ops->in_fd(g), .events = POLLIN };
	int ms, r;

	if (!g->edges || !max) {
		errno = EINVAL;
		return -1;
	}
	ms = timeout_ns <= 0 ? 0 : timeout_ns >= 3600000000000LL ? 3600000
		: (int)((timeout_ns + 999999) / 1000000);
	r = poll(&pfd, 1, ms);
	if (r < 0)
		return errno == EINTR ? 0 : -1;
	if (r == 0)
		return 0;
	if (pfd.revents & (POLLERR | POLLNVAL)) {
		errno = EIO;
		return -1;
	}
	return g->ops->in_read(g, ev, max);
}

clockid_t gpio_in_clockid(const struct gpio_in *g)
{
	return g->clock == GPIO_CLOCK_REALTIME ? CLOCK_REALTIME : CLOCK_MONOTONIC;
}

bool gpio_in_has_seqno(const struct gpio_in *g)
{
	return g->has_seqno;
}

const char *gpio_in_describe(const struct gpio_in *g)
{
	return g->desc;
}

const struct gpio_chip_desc *gpio_in_chip(const struct gpio_in *g)
{
	return &g->chip_desc;
}

unsigned int gpio_in_offset(const struct gpio_in *g)
{
	return g->offset;
}

void gpio_in_close(struct gpio_in *g)
{
	const struct gpio_ops *ops;
	void *chip;

	if (!g)
		return;
	ops = g->ops;
	chip = g->chip;
	ops->in_release(g);
	ops->chip_close(chip);
}
