/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a GPIO output backend implements (ops) and what gpio_out.c shares
 * with the backends. Included by gpio_*.c and unit tests only. */
#ifndef SQW_GPIO_PRIVATE_H
#define SQW_GPIO_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "gpio_out.h"

/* The kernel's limit for chip names, labels, line names and consumers
 * (GPIO_MAX_NAME_SIZE), terminating NUL included. */
#define GPIO_NAME_MAX 32
#define GPIO_PATH_MAX 256

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif

/* One chip as the lookup sees it. */
struct gpio_chip_desc {
	char path[GPIO_PATH_MAX];   /* "/dev/gpiochip0" */
	char name[GPIO_NAME_MAX];   /* "gpiochip0" */
	char label[GPIO_NAME_MAX];  /* "9030000.pl061"; "unknown" if the kernel has none */
	unsigned int num_lines;
	int open_errno;             /* scan only: 0, or why the chip could not be
				     * opened (then only path and name are set) */
};

/* One line as the lookup sees it. */
struct gpio_line_desc {
	char name[GPIO_NAME_MAX];   /* "" if unnamed */
	bool used;
	char consumer[GPIO_NAME_MAX]; /* "" if unused or if the holder gave none */
};

/*
 * A backend. Everything except set() runs at open/close time on the main
 * thread and may allocate. All return -1 (or NULL) with errno set and print
 * nothing: gpio_out.c turns errno into the message, so every backend fails
 * with the same words.
 */
struct gpio_ops {
	const char *name;       /* "libgpiod-v2", "libgpiod-v1", "sim" */
	/* Optional: reject a spec the backend cannot serve (prints why). */
	int (*check_spec)(const struct gpio_out_spec *spec);
	/* Optional: the chips there are, in order. NULL: gpio_out.c scans
	 * gpio_dev_dir for gpiochipN and asks chip_open()/chip_info(). Returns
	 * the count, *chips is malloc'ed (caller frees). */
	int (*chip_list)(const struct gpio_out_spec *spec,
			 struct gpio_chip_desc **chips);
	/* Optional: a chip name that always means the only chip ("sim"). */
	const char *chip_alias;
	/* Open a chip by path; ENOTTY or ENODEV: not a GPIO chip. */
	void *(*chip_open)(const struct gpio_out_spec *spec, const char *path);
	void (*chip_close)(void *chip);
	int (*chip_info)(void *chip, struct gpio_chip_desc *desc);
	int (*line_info)(void *chip, unsigned int offset, struct gpio_line_desc *desc);
	/* Request @offset as an output at spec->idle_level (logical), honouring
	 * active_low and drive. Returns a backend object that embeds struct
	 * gpio_out; gpio_out.c fills in the common part. @chip stays open until
	 * after release(). */
	struct gpio_out *(*request)(void *chip, unsigned int offset,
				    const struct gpio_out_spec *spec);
	/* RT thread: set the logical level. No allocation, no locks, no output. */
	int (*set)(struct gpio_out *g, int level);
	/* Release the line and free the backend object (not the chip). */
	void (*release)(struct gpio_out *g);
	/* " (libgpiod 2.1.3, v2 API)": appended to gpio_out_describe(). */
	void (*describe)(const struct gpio_out *g, char *buf, size_t len);
};

/* The common part of every backend's object. */
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

/* Defined by whichever of gpio_gpiod1.c / gpio_gpiod2.c the build picked. */
#ifndef SQW_GPIOD_NONE
extern const struct gpio_ops gpio_gpiod_ops;
#endif
extern const struct gpio_ops gpio_sim_ops;

/* Where the default chip scan looks for gpiochipN ("/dev"). Tests may point
 * it elsewhere; not thread-safe. */
extern const char *gpio_dev_dir;

/* Copy @src into @dst of size @len, truncating, always terminated. */
void gpio_strlcpy(char *dst, const char *src, size_t len);

#endif
