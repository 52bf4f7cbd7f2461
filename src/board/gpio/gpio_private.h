/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a GPIO backend implements (ops) and the helpers the factories share.
 * Included by gpio_*.c and unit tests only. */
#ifndef SQW_GPIO_PRIVATE_H
#define SQW_GPIO_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpio/gpio_in.h"
#include "gpio/gpio_lookup.h"
#include "base/msgbuf.h"
#include "gpio/gpio_out.h"

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif

/*
 * A backend. Everything except set() (and the input reads) runs at open or
 * close time on the main thread and may allocate. All return -1 (or NULL)
 * with errno set and print nothing: gpio_lookup.c and the factories turn
 * errno into the message, so every backend fails with the same words.
 * Backends call nothing in the factories; only the helpers below.
 */
/* What an input request can give besides both edges on CLOCK_MONOTONIC
 * (struct gpio_ops.in_caps; rising or falling only, every backend can).
 * gpio_in_open() refuses the rest with ENOTSUP and one sentence before any
 * request, so that each backend fails with the same words. */
#define GPIO_IN_CAP_DEBOUNCE 0x1u
#define GPIO_IN_CAP_REALTIME 0x2u
#define GPIO_IN_CAP_HTE      0x4u

struct gpio_ops {
	const char *name;       /* "libgpiod-v2", "libgpiod-v1", "sim" */
	const char *title;      /* in sentences: "libgpiod v1", "the simulated chip" */
	unsigned int in_caps;   /* GPIO_IN_CAP_* */
	/* Optional: read and check the backend's own keys from @cfg (NULL:
	 * defaults). -1 with a message in @err (it names the key). */
	int (*configure)(const struct config *cfg, char *err, size_t errlen);
	/* Optional: the chips there are, in order. NULL: gpio_lookup.c scans
	 * gpio_dev_dir for gpiochipN and asks chip_open()/chip_info(). Returns
	 * the count, *chips is malloc'ed (caller frees). */
	int (*chip_list)(struct gpio_chip_desc **chips);
	/* Optional: a chip name that always means the only chip ("sim"). */
	const char *chip_alias;
	/* Open a chip by path; ENOTTY or ENODEV: not a GPIO chip. */
	void *(*chip_open)(const char *path);
	void (*chip_close)(void *chip);
	int (*chip_info)(void *chip, struct gpio_chip_desc *desc);
	int (*line_info)(void *chip, unsigned int offset, struct gpio_line_desc *desc);

	/* Output. Request @offset as an output at spec->idle_level (logical),
	 * honouring active_low and drive. Returns a backend object that embeds
	 * struct gpio_out; the factory fills in the common part. @chip stays
	 * open until after release(). */
	struct gpio_out *(*request)(void *chip, unsigned int offset,
				    const struct gpio_out_spec *spec);
	/* RT thread: set the logical level. No allocation, no locks, no output. */
	int (*set)(struct gpio_out *g, int level);
	/* Release the line and free the backend object (not the chip). */
	void (*release)(struct gpio_out *g);
	/* " (libgpiod 2.1.3, v2 API)": appended to the descriptions. @g is
	 * NULL for a group's lines when the backend has no describe_group. */
	void (*describe)(const struct gpio_out *g, char *buf, size_t len);

	/* A line group (gpio_group_open()). Request the @n distinct @offsets
	 * as outputs in one request, as request() does one. Returns a backend
	 * object that embeds struct gpio_group, with everything set() needs
	 * allocated; the factory fills in the common part. */
	struct gpio_group *(*request_group)(void *chip, const unsigned int *offsets, size_t n,
					    const struct gpio_out_spec *spec);
	/* RT thread: the lines of @mask (non-zero, below bit n) to the logical
	 * levels of @levels in one call. No allocation, no locks, no output. */
	int (*set_group)(struct gpio_group *g, uint32_t mask, uint32_t levels);
	/* Release the lines and free the backend object (not the chip). */
	void (*release_group)(struct gpio_group *g);
	/* Optional: as describe(), for a group's lines. */
	void (*describe_group)(const struct gpio_group *g, char *buf, size_t len);

	/* Input. Request @offset as an input (edge events if spec->edges, on
	 * spec->edge, spec->clock, with spec->debounce_ns; ENOTSUP for a
	 * setting the backend cannot give). Returns a backend object that
	 * embeds struct gpio_in; the buffer in_read() fills is allocated here. */
	struct gpio_in *(*in_request)(void *chip, unsigned int offset,
				      const struct gpio_in_spec *spec);
	/* A file descriptor that polls readable when events are queued. */
	int (*in_fd)(struct gpio_in *g);
	/* Read the events queued (the fd polled readable): count or -1. May
	 * run on the RT thread: no allocation, no lock, no output. */
	int (*in_read)(struct gpio_in *g, struct gpio_in_event *ev, size_t max);
	/* Physical level now. */
	int (*in_get)(struct gpio_in *g);
	void (*in_release)(struct gpio_in *g);
};

/* The common part of every backend's output object. */
struct gpio_out {
	const struct gpio_ops *ops;
	void *chip;
	unsigned int offset;
	int idle_level;
	int active_low;
	enum gpio_drive drive;
	struct gpio_chip_desc chip_desc;
	char line_name[GPIO_NAME_MAX];
	char desc[2 * GPIO_PATH_MAX];
};

/* The common part of every backend's line group. */
struct gpio_group {
	const struct gpio_ops *ops;
	void *chip;
	size_t n;
	unsigned int offsets[GPIO_GROUP_MAX]; /* bit i of a mask: offsets[i] */
	int idle_level;
	int active_low;
	enum gpio_drive drive;
	struct gpio_chip_desc chip_desc;
	char line_names[GPIO_GROUP_MAX][GPIO_NAME_MAX];
	char desc[GPIO_GROUP_MAX][2 * GPIO_PATH_MAX];
};

/* The common part of every backend's input object. */
struct gpio_in {
	const struct gpio_ops *ops;
	void *chip;
	unsigned int offset;
	bool edges;
	enum gpio_event_clock clock; /* as requested */
	bool has_seqno;         /* set by the backend */
	struct gpio_chip_desc chip_desc;
	char line_name[GPIO_NAME_MAX];
	char desc[2 * GPIO_PATH_MAX];
};

/* Defined by whichever of gpio_gpiod1.c / gpio_gpiod2.c the build picked. */
#ifndef SQW_GPIOD_NONE
extern const struct gpio_ops gpio_gpiod_ops;
#endif
extern const struct gpio_ops gpio_sim_ops;

/* ---- gpio_lookup.c: shared by the factories ---- */

/* The backend's ops, configured from @cfg; NULL with errno (ENOTSUP: not
 * built) and @err. */
const struct gpio_ops *gpio_backend_get(enum gpio_backend backend, const struct config *cfg,
					char *err, size_t errlen);

/* Find and open the chip, find the line and read its info (gpio_locate()).
 * Returns the open chip (close with ops->chip_close) or NULL. */
void *gpio_lookup_open(const struct gpio_ops *ops, const char *chip, const char *line,
		       struct gpio_location *loc, char *err, size_t errlen);

/* The same for a line to request: also NULL (EBUSY, its consumer named in
 * @err) when the line is in use. What both factories do before a request. */
void *gpio_lookup_open_free(const struct gpio_ops *ops, const char *chip, const char *line,
			    struct gpio_location *loc, char *err, size_t errlen);

/* "...; run sqwave as root, or give your user access: ..." */
void gpio_msg_permission_hint(char *buf, size_t len);

/* The message for a request the kernel refused that both factories share:
 * no permission (EACCES, EPERM) or busy (EBUSY, held by @holder's consumer).
 * Returns true with @err filled for those, false for any other @e. */
bool gpio_msg_request_refused(char *err, size_t errlen, const struct gpio_location *loc,
			      const struct gpio_line_desc *holder, int e);

/* Copy @src into @dst of size @len, truncating, always terminated. */
void gpio_strlcpy(char *dst, const char *src, size_t len);

#endif
