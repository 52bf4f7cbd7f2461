/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulated GPIO backend: one fake chip in memory, a write history for
 * tests, a busy-wait per write to model a slow GPIO controller, and a wire
 * from the output to another line that delivers edge events (loopback). */
#include "gpio/gpio_sim.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "gpio/gpio_private.h"
#include "base/clock.h"

struct sim_line {
	atomic_int value;      /* physical */
	bool requested;
	bool input;            /* requested as an input */
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
	int64_t write_cost_ns;
	struct sim_line lines[GPIO_SIM_MAX_LINES];
	struct gpio_sim_write history[GPIO_SIM_HISTORY];
	atomic_uint_fast64_t count;
	int fail_open;
	int fail_request;
	atomic_int fail_write;

	/* The wire (sim.wire_*): set at configure time, read by the writer. */
	int wire_line;
	int64_t wire_delay_ns, wire_jitter_ns, wire_lose;
	atomic_uint_fast64_t wire_edges;   /* level changes carried since the output's request */
	uint64_t rng;                      /* jitter; the writer's only */
	/* The one input with edge events, and its queue (single producer: the
	 * thread writing the output; single consumer: the reader). */
	atomic_int in_line;                /* -1: none */
	int in_fd;                         /* eventfd that polls readable with events */
	atomic_uint_fast64_t in_seqno;     /* edges the "kernel" saw on the input */
	atomic_uint_fast64_t q_head, q_tail;
	struct gpio_in_event q[GPIO_SIM_EVENTS];
} sim = { .busy_line = -1, .wire_line = -1, .wire_lose = -1, .in_line = -1, .in_fd = -1,
	  .rng = 0x9e3779b97f4a7c15ull };

struct sim_out {
	struct gpio_out base;
	unsigned int offset;
	int active_low;
	int64_t cost_ns;
};

struct sim_in {
	struct gpio_in base;
	unsigned int offset;
};

static void sim_line_name(unsigned int offset, char *buf, size_t len)
{
	if (sim.num_lines >= 4 && offset >= sim.num_lines - 2)
		snprintf(buf, len, "%s", GPIO_SIM_DUP_NAME);
	else
		snprintf(buf, len, "SIM%u", offset);
}

/* The backend's own keys (sim.*), checked: the chip is what they say it is;
 * the lines sqwave holds, their levels and the history persist. */
static int sim_configure(const struct config *cfg, char *err, size_t errlen)
{
	struct config *defaults = NULL;
	const char *label;
	int64_t num_lines, busy;
	int ret = -1;

	if (!cfg) {
		defaults = config_new();
		if (!defaults) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		cfg = defaults;
	}
	num_lines = config_int(cfg, CFG_SIM_NUM_LINES);
	busy = config_int(cfg, CFG_SIM_BUSY_LINE);
	if (num_lines < 1 || num_lines > GPIO_SIM_MAX_LINES) {
		snprintf(err, errlen, "sim.num_lines is %lld: the simulated chip has 1..%u lines",
			 (long long)num_lines, GPIO_SIM_MAX_LINES);
		goto out;
	}
	if (busy < -1 || busy >= num_lines) {
		snprintf(err, errlen, "sim.busy_line is %lld: -1 (none) or an offset 0..%lld",
			 (long long)busy, (long long)num_lines - 1);
		goto out;
	}
	if (config_int(cfg, CFG_SIM_WIRE_LINE) >= num_lines) {
		snprintf(err, errlen, "sim.wire_line is %lld: -1 (not wired) or an offset 0..%lld",
			 (long long)config_int(cfg, CFG_SIM_WIRE_LINE), (long long)num_lines - 1);
		goto out;
	}
	label = config_str(cfg, CFG_SIM_CHIP_LABEL);
	if (strlen(label) >= GPIO_NAME_MAX) {
		snprintf(err, errlen, "sim.chip_label \"%.48s...\" is too long: at most %d characters",
			 label, GPIO_NAME_MAX - 1);
		goto out;
	}
	gpio_strlcpy(sim.label, *label ? label : GPIO_SIM_DEFAULT_LABEL, sizeof(sim.label));
	sim.num_lines = (unsigned int)num_lines;
	sim.busy_line = (int)busy;
	gpio_strlcpy(sim.busy_consumer, config_str(cfg, CFG_SIM_BUSY_CONSUMER),
		     sizeof(sim.busy_consumer));
	sim.write_cost_ns = config_int(cfg, CFG_SIM_WRITE_COST);
	sim.wire_line = (int)config_int(cfg, CFG_SIM_WIRE_LINE);
	sim.wire_delay_ns = config_int(cfg, CFG_SIM_WIRE_DELAY);
	sim.wire_jitter_ns = config_int(cfg, CFG_SIM_WIRE_JITTER);
	sim.wire_lose = config_int(cfg, CFG_SIM_WIRE_LOSE);
	ret = 0;
out:
	config_free(defaults);
	return ret;
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

static int sim_chip_list(struct gpio_chip_desc **chips)
{
	int err = sim_take_error(&sim.fail_open);

	*chips = calloc(1, sizeof(**chips));
	if (!*chips)
		return -1;
	sim_chip_desc(*chips);
	if (err) {
		/* Like a chip the scan may not open: known by name only. */
		memset((*chips)->label, 0, sizeof((*chips)->label));
		(*chips)->num_lines = 0;
		(*chips)->open_errno = err;
	}
	return 1;
}

static void *sim_chip_open(const char *path)
{
	if (sim_take_error(&sim.fail_open))
		return NULL;
	if (strcmp(path, GPIO_SIM_CHIP_PATH) != 0) {
		errno = ENOENT;
		return NULL;
	}
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
		ld->output = !sim.lines[offset].input;
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
static void sim_prefault(void)
{
	volatile char *p = (volatile char *)sim.history;
	size_t i;

	for (i = 0; i < sizeof(sim.history); i += 4096)
		p[i] = p[i];
	p = (volatile char *)sim.q;
	for (i = 0; i < sizeof(sim.q); i += 4096)
		p[i] = p[i];
}

/* Queue an event for the input (single producer) and signal its fd. A full
 * queue drops it; its sequence number is spent all the same. */
static void sim_queue_push(uint64_t t_ns, int value)
{
	uint64_t seq = atomic_fetch_add(&sim.in_seqno, 1) + 1, head, tail, one = 1;
	struct gpio_in_event *ev;

	head = atomic_load_explicit(&sim.q_head, memory_order_relaxed);
	tail = atomic_load_explicit(&sim.q_tail, memory_order_acquire);
	if (head - tail >= GPIO_SIM_EVENTS)
		return;
	ev = &sim.q[head % GPIO_SIM_EVENTS];
	ev->t_ns = t_ns;
	ev->seqno = seq;
	ev->rising = value;
	atomic_store_explicit(&sim.q_head, head + 1, memory_order_release);
	/* An eventfd write only fails when its counter would overflow. */
	if (sim.in_fd >= 0 && write(sim.in_fd, &one, sizeof(one)) < 0)
		return;
}

/* The wired line follows @value; the input sees the change as an edge event
 * unless the wire loses it. Writer thread (RT): atomics, one eventfd write. */
static void sim_wire_carry(unsigned int from, int value, int64_t t)
{
	int wl = sim.wire_line;
	int64_t delay;
	uint64_t n;

	if (wl < 0 || (unsigned int)wl >= sim.num_lines || (unsigned int)wl == from)
		return;
	if (atomic_exchange(&sim.lines[wl].value, value) == value)
		return;
	n = atomic_fetch_add(&sim.wire_edges, 1);
	if ((int64_t)n == sim.wire_lose || atomic_load(&sim.in_line) != wl)
		return;
	delay = sim.wire_delay_ns;
	if (sim.wire_jitter_ns > 0) {
		sim.rng ^= sim.rng << 13;
		sim.rng ^= sim.rng >> 7;
		sim.rng ^= sim.rng << 17;
		delay += (int64_t)(sim.rng % (uint64_t)(sim.wire_jitter_ns + 1));
	}
	sim_queue_push((uint64_t)(t + delay), value);
}

/* Line @offset if it may be requested: NULL with errno (an injected failure,
 * EINVAL beyond the chip, EBUSY held). */
static struct sim_line *sim_line_to_request(unsigned int offset)
{
	if (sim_take_error(&sim.fail_request))
		return NULL;
	if (offset >= sim.num_lines) {
		errno = EINVAL;
		return NULL;
	}
	if (sim.lines[offset].requested || (int)offset == sim.busy_line) {
		errno = EBUSY;
		return NULL;
	}
	return &sim.lines[offset];
}

static struct gpio_out *sim_request(void *chip, unsigned int offset,
				    const struct gpio_out_spec *spec)
{
	struct sim_line *l;
	struct sim_out *s;
	int value;

	(void)chip;
	l = sim_line_to_request(offset);
	if (!l)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	sim_prefault();
	s->offset = offset;
	s->active_low = spec->active_low;
	s->cost_ns = sim.write_cost_ns;
	l->requested = true;
	l->input = false;
	l->active_low = spec->active_low;
	l->drive = spec->drive;
	gpio_strlcpy(l->consumer, spec->consumer, sizeof(l->consumer));
	value = spec->idle_level ^ spec->active_low;
	atomic_store(&l->value, value);
	/* The wire settles at the idle level without an event. */
	if (sim.wire_line >= 0 && (unsigned int)sim.wire_line < sim.num_lines &&
	    (unsigned int)sim.wire_line != offset)
		atomic_store(&sim.lines[sim.wire_line].value, value);
	atomic_store(&sim.wire_edges, 0);
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

	t = (int64_t)clock_mono_ns();
	if (s->cost_ns > 0) {
		int64_t end = t + s->cost_ns;

		while ((t = (int64_t)clock_mono_ns()) < end)
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
	sim_wire_carry(s->offset, level ^ s->active_low, t);
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
	const struct sim_out *s = g ? container_of(g, const struct sim_out, base) : NULL;

	if (s && s->cost_ns)
		snprintf(buf, len, " (simulated, %lld ns per write)",
			 (long long)s->cost_ns);
	else
		snprintf(buf, len, " (simulated)");
}

/* ---- input ------------------------------------------------------------------ */

static struct gpio_in *sim_in_request(void *chip, unsigned int offset,
				      const struct gpio_in_spec *spec)
{
	struct sim_line *l;
	struct sim_in *in;

	(void)chip;
	l = sim_line_to_request(offset);
	if (!l)
		return NULL;
	/* One input with events at a time: one queue. */
	if (spec->edges && atomic_load(&sim.in_line) >= 0) {
		errno = EBUSY;
		return NULL;
	}
	in = calloc(1, sizeof(*in));
	if (!in)
		return NULL;
	in->offset = offset;
	in->base.has_seqno = true;
	if (spec->edges) {
		sim.in_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (sim.in_fd < 0) {
			int e = errno;

			free(in);
			errno = e;
			return NULL;
		}
		sim_prefault();
		atomic_store(&sim.q_head, 0);
		atomic_store(&sim.q_tail, 0);
		atomic_store(&sim.in_seqno, 0);
		atomic_store(&sim.in_line, (int)offset);
	}
	l->requested = true;
	l->input = true;
	gpio_strlcpy(l->consumer, spec->consumer, sizeof(l->consumer));
	return &in->base;
}

static int sim_in_fd(struct gpio_in *g)
{
	(void)g;
	return sim.in_fd;
}

static int sim_in_read(struct gpio_in *g, struct gpio_in_event *ev, size_t max)
{
	uint64_t head, tail, counter, now;
	size_t n = 0;

	(void)g;
	if (read(sim.in_fd, &counter, sizeof(counter)) < 0 && errno != EAGAIN)
		return -1;
	now = (uint64_t)(int64_t)clock_mono_ns();
	tail = atomic_load_explicit(&sim.q_tail, memory_order_relaxed);
	head = atomic_load_explicit(&sim.q_head, memory_order_acquire);
	/* An event is readable once it has happened (its stamp is the write's
	 * time plus the wire's delay), as on a real line. */
	while (tail != head && n < max && sim.q[tail % GPIO_SIM_EVENTS].t_ns <= now)
		ev[n++] = sim.q[tail++ % GPIO_SIM_EVENTS];
	atomic_store_explicit(&sim.q_tail, tail, memory_order_release);
	if (tail != head) {
		/* Left some behind (too many, or not yet happened): keep the fd
		 * readable. A reader polls again at once until they are due: a
		 * spin of at most sim.wire_delay + jitter, fine for a simulator. */
		uint64_t one = 1;

		if (write(sim.in_fd, &one, sizeof(one)) < 0)
			return -1;
	}
	return (int)n;
}

static int sim_in_get(struct gpio_in *g)
{
	struct sim_in *in = container_of(g, struct sim_in, base);

	return atomic_load(&sim.lines[in->offset].value);
}

static void sim_in_release(struct gpio_in *g)
{
	struct sim_in *in = container_of(g, struct sim_in, base);
	struct sim_line *l = &sim.lines[in->offset];

	if (atomic_load(&sim.in_line) == (int)in->offset && g->edges) {
		atomic_store(&sim.in_line, -1);
		close(sim.in_fd);
		sim.in_fd = -1;
	}
	l->requested = false;
	l->input = false;
	l->consumer[0] = '\0';
	free(in);
}

const struct gpio_ops gpio_sim_ops = {
	.name = "sim",
	.configure = sim_configure,
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
	.in_request = sim_in_request,
	.in_fd = sim_in_fd,
	.in_read = sim_in_read,
	.in_get = sim_in_get,
	.in_release = sim_in_release,
};

/* ---- test access (gpio_sim.h) --------------------------------------------- */

void gpio_sim_reset(void)
{
	unsigned int i;

	for (i = 0; i < GPIO_SIM_MAX_LINES; i++) {
		atomic_store(&sim.lines[i].value, 0);
		sim.lines[i].requested = false;
		sim.lines[i].input = false;
		sim.lines[i].active_low = false;
		sim.lines[i].drive = GPIO_DRIVE_PUSH_PULL;
		sim.lines[i].consumer[0] = '\0';
	}
	memset(sim.history, 0, sizeof(sim.history));
	atomic_store(&sim.count, 0);
	sim.fail_open = 0;
	sim.fail_request = 0;
	atomic_store(&sim.fail_write, 0);
	atomic_store(&sim.wire_edges, 0);
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

int gpio_sim_line_drive(unsigned int offset, int value, uint64_t t_ns)
{
	if (offset >= GPIO_SIM_MAX_LINES || (sim.lines[offset].requested &&
					     !sim.lines[offset].input)) {
		errno = EINVAL;
		return -1;
	}
	value = !!value;
	if (atomic_exchange(&sim.lines[offset].value, value) != value &&
	    atomic_load(&sim.in_line) == (int)offset)
		sim_queue_push(t_ns, value);
	return 0;
}
