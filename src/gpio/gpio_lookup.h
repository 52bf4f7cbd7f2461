/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding a GPIO chip and line by the names users give them, once for the
 * output, the loopback input and `sqwave check` (which reports each step). */
#ifndef SQW_GPIO_LOOKUP_H
#define SQW_GPIO_LOOKUP_H

#include <stdbool.h>
#include <stddef.h>

/* The kernel's limit for chip names, labels, line names and consumers
 * (GPIO_MAX_NAME_SIZE), terminating NUL included. */
#define GPIO_NAME_MAX 32
#define GPIO_PATH_MAX 256
/* Messages built by the GPIO modules are cut at this size (with "..."). */
#define GPIO_MSG_MAX 1024

/* Same order as the choices of gpio.backend in config.c. */
enum gpio_backend { GPIO_BACKEND_GPIOD, GPIO_BACKEND_SIM };

struct config;

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
	bool output;                /* configured as an output now */
	char consumer[GPIO_NAME_MAX]; /* "" if unused or if the holder gave none */
};

/* Which step of a lookup failed. */
enum gpio_lookup_step {
	GPIO_STEP_NONE = 0,     /* it did not fail */
	GPIO_STEP_BACKEND,      /* no such backend in this build, or its keys are wrong */
	GPIO_STEP_CHIP,         /* chip not found, not a chip, no permission, ambiguous label */
	GPIO_STEP_LINE,         /* offset out of range, name not found or ambiguous */
};

/* Where a chip and a line were found. */
struct gpio_location {
	struct gpio_chip_desc chip;
	const char *chip_how;       /* "path", "name", "number", "label", "alias"
				     * or "line name" (every chip searched) */
	unsigned int offset;
	bool by_name;               /* the line was given by name */
	struct gpio_line_desc line; /* its info when looked up */
	/* A line given by name: where else a line of that name is ("gpiochip3
	 * [GPIOD] line 4, ..."), "" if nowhere. Names are not unique. */
	char elsewhere[GPIO_MSG_MAX / 2];
	enum gpio_lookup_step failed;
};

/*
 * Find @chip and @line on @backend (whose own keys, e.g. sim.*, are read from
 * @cfg; NULL: the backend's defaults) without requesting anything. @chip is a
 * path (has a '/'), a chip name ("gpiochip0"), a chip number ("0", as
 * gpioset takes it), a label ("GPIOB"), the backend's alias ("sim"), or empty
 * to search every chip for a line given by name. @line is an offset or a line
 * name. Returns 0 and fills @loc, or -1 with errno (ENODEV not found, EACCES
 * permission, EINVAL ambiguous or out of range, ENOENT no such line name,
 * ENOTSUP no such backend) and one message in @err; @loc->failed says which
 * step failed. Main thread; prints nothing.
 */
int gpio_locate(enum gpio_backend backend, const struct config *cfg, const char *chip,
		const char *line, struct gpio_location *loc, char *err, size_t errlen);

/*
 * Every line of the chip @chip (as for gpio_locate) into *@lines (malloc'ed,
 * caller frees), its description into @cd. Returns the number of lines, or
 * -1 with errno and @err.
 */
int gpio_chip_lines(enum gpio_backend backend, const struct config *cfg, const char *chip,
		    struct gpio_chip_desc *cd, struct gpio_line_desc **lines,
		    char *err, size_t errlen);

/* The message for a line that is in use, its consumer named ("line 3 of
 * gpiochip0 [9030000.pl061] is busy: used by \"GPIO Key Poweroff\""). */
void gpio_msg_busy(char *err, size_t errlen, const struct gpio_chip_desc *cd,
		   unsigned int offset, const struct gpio_line_desc *ld);

/*
 * Whether @line_a of @chip_a and @line_b of @chip_b (as gpio_locate() takes
 * them) are one line, by chip and offset: 1 (its offset and chip name into
 * @offset and @chip_name, either may be NULL), 0 not, -1 when one cannot
 * be located (why in @err). Requests nothing. Main thread.
 */
int gpio_same_line(enum gpio_backend backend, const struct config *cfg, const char *chip_a,
		   const char *line_a, const char *chip_b, const char *line_b, unsigned int *offset,
		   char *chip_name, size_t chip_len, char *err, size_t errlen);

/*
 * Whether one of the output lines @lines (@n of them, on chip @chip as
 * gpio.chip names it) is one of the board's inputs that @cfg names
 * (loopback.chip/line, input.chip/line), both located, chip and offset
 * compared: 1 with the sentence, naming the output and the input key with
 * their origins, in @err (a usage error: exit 2); 0 when none is; -1 when
 * an output line cannot be located (@err says why). An input that cannot be
 * located is not checked. Main thread; requests nothing.
 */
int gpio_outputs_on_inputs(enum gpio_backend backend, const struct config *cfg, const char *chip,
			   const char *const *lines, size_t n, char *err, size_t errlen);

/* Where the chip scan looks for gpiochipN ("/dev"). Tests may point it
 * elsewhere; not thread-safe. */
extern const char *gpio_dev_dir;

#endif
