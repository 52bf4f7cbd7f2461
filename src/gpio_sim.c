/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulated GPIO backend: one fake chip in memory, a write history for
 * tests, and a busy-wait per write to model a slow GPIO controller. */
#include "gpio_sim.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpio_private.h"
#include "print.h"

struct sim_line {
	atomic_int value;      /* physical */
	bool requested;
	bool active_low;
	enum gpio_drive drive;
	char consumer[GPIO_NAME_MAX];
};

/* The chip. Static, so the history is allocated and zeroed before main(). */
static struct {
	char label[GPIO_NAME_MAX];
	unsigned int num_lines;
	int busy_line;
	char busy_consumer[GPIO_NAME_MAX];
	struct sim_line lines[GPIO_SIM_MAX_LINES];
	struct gpio_sim_write history[GPIO_SIM_HISTORY];
	atomic_uint_fast64_t count;
	int fail_open;
	int fail_request;
	atomic_int fail_write;
} sim = { .busy_line = -1 };

struct sim_out {
	struct gpio_out base;
	unsigned int offset;
	int active_low;
	int64_t cost_ns;
};

static int64_t sim_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sim_line_name(unsigned int offset, char *buf, size_t len)
{
	if (sim.num_lines >= 4 && offset >= sim.num_lines - 2)
		snprintf(buf, len, "%s", GPIO_SIM_DUP_NAME);
	else
		snprintf(buf, len, "SIM%u", offset);
}

static int sim_check_spec(const struct gpio_out_spec *spec)
{
	if (spec->sim_num_lines < 1 || spec->sim_num_lines > GPIO_SIM_MAX_LINES) {
		pr_err("sim.num_lines is %u: the simulated chip has 1..%u lines",
		       spec->sim_num_lines, GPIO_SIM_MAX_LINES);
		errno = EINVAL;
		return -1;
	}
	if (spec->sim_busy_line < -1 ||
	    spec->sim_busy_line >= (int)spec->sim_num_lines) {
		pr_err("sim.busy_line is %d: -1 (none) or an offset 0..%u",
		       spec->sim_busy_line, spec->sim_num_lines - 1);
		errno = EINVAL;
		return -1;
	}
	if (spec->sim_write_cost_ns < 0 ||
	    spec->sim_write_cost_ns > GPIO_SIM_MAX_WRITE_COST_NS) {
		pr_err("sim.write_cost is %lld ns: 0..%d ns",
		       (long long)spec->sim_write_cost_ns,
		       GPIO_SIM_MAX_WRITE_COST_NS);
		errno = EINVAL;
		return -1;
	}
	if (spec->sim_chip_label &&
	    strlen(spec->sim_chip_label) >= GPIO_NAME_MAX) {
		pr_err("sim.chip_label \"%s\" is too long: at most %d characters",
		       spec->sim_chip_label, GPIO_NAME_MAX - 1);
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* The chip is what the spec says it is; sqwave's own requests persist. */
static void sim_configure(const struct gpio_out_spec *spec)
{
	const char *label = spec->sim_chip_label;

	gpio_strlcpy(sim.label, label && *label ? label : GPIO_SIM_DEFAULT_LABEL,
		     sizeof(sim.label));
	sim.num_lines = spec->sim_num_lines;
	sim.busy_line = spec->sim_busy_line;
	gpio_strlcpy(sim.busy_consumer, spec->sim_busy_consumer,
		     sizeof(sim.busy_consumer));
}

static int sim_take_error(int *slot)
{
	int err = *slot;

	*slot = 0;
	if (err)
		errno = err;
	return err;
}

static void sim_chip_desc(struct gpio_chip_desc *cd)
{
	memset(cd, 0, sizeof(*cd));
	gpio_strlcpy(cd->path, GPIO_SIM_CHIP_PATH, sizeof(cd->path));
	gpio_strlcpy(cd->name, GPIO_SIM_CHIP_NAME, sizeof(cd->name));
	gpio_strlcpy(cd->label, sim.label, sizeof(cd->label));
	cd->num_lines = sim.num_lines;
}

static int sim_chip_list(const struct gpio_out_spec *spec,
			 struct gpio_chip_desc **chips)
{
	int err = sim_take_error(&sim.fail_open);

	*chips = calloc(1, sizeof(**chips));
	if (!*chips)
		return -1;
	sim_configure(spec);
	sim_chip_desc(*chips);
	if (err) {
		/* Like a chip the scan may not open: known by name only. */
		memset((*chips)->label, 0, sizeof((*chips)->label));
		(*chips)->num_lines = 0;
		(*chips)->open_errno = err;
	}
	return 1;
}

static void *sim_chip_open(const struct gpio_out_spec *spec, const char *path)
{
	if (sim_take_error(&sim.fail_open))
		return NULL;
	if (strcmp(path, GPIO_SIM_CHIP_PATH) != 0) {
		errno = ENOENT;
		return NULL;
	}
	sim_configure(spec);
	return &sim;
}

static void sim_chip_close(void *chip)
{
	(void)chip;
}

static int sim_chip_info(void *chip, struct gpio_chip_desc *cd)
{
	(void)chip;
	sim_chip_desc(cd);
	return 0;
}

static int sim_line_info(void *chip, unsigned int offset,
			 struct gpio_line_desc *ld)
{
	(void)chip;
	if (offset >= sim.num_lines) {
		errno = EINVAL;
		return -1;
	}
	memset(ld, 0, sizeof(*ld));
	sim_line_name(offset, ld->name, sizeof(ld->name));
	if (sim.lines[offset].requested) {
		ld->used = true;
		gpio_strlcpy(ld->consumer, sim.lines[offset].consumer,
			     sizeof(ld->consumer));
	} else if ((int)offset == sim.busy_line) {
		ld->used = true;
		gpio_strlcpy(ld->consumer, sim.busy_consumer,
			     sizeof(ld->consumer));
	}
	return 0;
}

/* The history is in .bss: touch every page now, so that the RT thread's first
 * writes do not page-fault when memory is not locked (contents unchanged). */
static void sim_prefault_history(void)
{
	volatile char *p = (volatile char *)sim.history;
	size_t i;

	for (i = 0; i < sizeof(sim.history); i += 4096)
		p[i] = p[i];
}

static struct gpio_out *sim_request(void *chip, unsigned int offset,
				    const struct gpio_out_spec *spec)
{
	struct sim_line *l;
	struct sim_out *s;

	(void)chip;
	if (sim_take_error(&sim.fail_request))
		return NULL;
	if (offset >= sim.num_lines) {
		errno = EINVAL;
		return NULL;
	}
	l = &sim.lines[offset];
	if (l->requested || (int)offset == sim.busy_line) {
		errno = EBUSY;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	sim_prefault_history();
	s->offset = offset;
	s->active_low = spec->active_low;
	s->cost_ns = spec->sim_write_cost_ns;
	l->requested = true;
	l->active_low = spec->active_low;
	l->drive = spec->drive;
	gpio_strlcpy(l->consumer, spec->consumer, sizeof(l->consumer));
	atomic_store(&l->value, spec->idle_level ^ spec->active_low);
	return &s->base;
}

/* RT thread: a busy-wait, a clock read and a few stores. */
static int sim_set(struct gpio_out *g, int level)
{
	struct sim_out *s = container_of(g, struct sim_out, base);
	struct gpio_sim_write *w;
	uint64_t n;
	int64_t t;
	int err;

	t = sim_now_ns();
	if (s->cost_ns > 0) {
		int64_t end = t + s->cost_ns;

		while ((t = sim_now_ns()) < end)
			;
	}
	err = atomic_exchange(&sim.fail_write, 0);
	if (err) {
		errno = err;
		return -1;
	}
	atomic_store(&sim.lines[s->offset].value, level ^ s->active_low);
	n = atomic_load_explicit(&sim.count, memory_order_relaxed);
	w = &sim.history[n % GPIO_SIM_HISTORY];
	w->t_ns = t;
	w->offset = s->offset;
	w->level = level;
	w->value = level ^ s->active_low;
	atomic_store_explicit(&sim.count, n + 1, memory_order_release);
	return 0;
}

static void sim_release(struct gpio_out *g)
{
	struct sim_out *s = container_of(g, struct sim_out, base);
	struct sim_line *l = &sim.lines[s->offset];

	/* A released output keeps driving its last level, as most drivers do. */
	l->requested = false;
	l->consumer[0] = '\0';
	free(s);
}

static void sim_describe(const struct gpio_out *g, char *buf, size_t len)
{
	const struct sim_out *s = container_of(g, struct sim_out, base);

	if (s->cost_ns)
		snprintf(buf, len, " (simulated, %lld ns per write)",
			 (long long)s->cost_ns);
	else
		snprintf(buf, len, " (simulated)");
}

const struct gpio_ops gpio_sim_ops = {
	.name = "sim",
	.check_spec = sim_check_spec,
	.chip_list = sim_chip_list,
	.chip_alias = GPIO_SIM_CHIP_ALIAS,
	.chip_open = sim_chip_open,
	.chip_close = sim_chip_close,
	.chip_info = sim_chip_info,
	.line_info = sim_line_info,
	.request = sim_request,
	.set = sim_set,
	.release = sim_release,
	.describe = sim_describe,
};

/* ---- test access (gpio_sim.h) --------------------------------------------- */

void gpio_sim_reset(void)
{
	unsigned int i;

	for (i = 0; i < GPIO_SIM_MAX_LINES; i++) {
		atomic_store(&sim.lines[i].value, 0);
		sim.lines[i].requested = false;
		sim.lines[i].active_low = false;
		sim.lines[i].drive = GPIO_DRIVE_PUSH_PULL;
		sim.lines[i].consumer[0] = '\0';
	}
	memset(sim.history, 0, sizeof(sim.history));
	atomic_store(&sim.count, 0);
	sim.fail_open = 0;
	sim.fail_request = 0;
	atomic_store(&sim.fail_write, 0);
}

int gpio_sim_line_get(unsigned int offset, struct gpio_sim_line *line)
{
	const struct sim_line *l;

	if (offset >= GPIO_SIM_MAX_LINES) {
		errno = EINVAL;
		return -1;
	}
	l = &sim.lines[offset];
	line->value = atomic_load(&l->value);
	line->requested = l->requested;
	line->active_low = l->active_low;
	line->drive = l->drive;
	gpio_strlcpy(line->consumer, l->consumer, sizeof(line->consumer));
	return 0;
}

uint64_t gpio_sim_write_count(void)
{
	return atomic_load_explicit(&sim.count, memory_order_acquire);
}

int gpio_sim_write_get(uint64_t seq, struct gpio_sim_write *w)
{
	uint64_t n = gpio_sim_write_count();

	if (seq >= n || n - seq > GPIO_SIM_HISTORY) {
		errno = ENOENT;
		return -1;
	}
	*w = sim.history[seq % GPIO_SIM_HISTORY];
	/* The writer may have lapped us while we copied. */
	if (gpio_sim_write_count() - seq > GPIO_SIM_HISTORY) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

void gpio_sim_fail_next_open(int err)
{
	sim.fail_open = err;
}

void gpio_sim_fail_next_request(int err)
{
	sim.fail_request = err;
}

void gpio_sim_fail_next_write(int err)
{
	atomic_store(&sim.fail_write, err);
}
