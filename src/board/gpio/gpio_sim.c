/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulated GPIO backend: one fake chip in memory, a write history for
 * tests, a busy-wait per write to model a slow GPIO controller, a wire from
 * the output to another line that delivers edge events (loopback), and a
 * stimulus thread that toggles an input on a schedule (respond). */
#include "gpio/gpio_sim.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "gpio/gpio_private.h"
#include "base/clock.h"

/* One record of the chip's record: a write, a stimulus change or a wire
 * event (which fields mean what: sim_row_put()). Every field is an
 * atomic written relaxed, so that a reader racing a writer that laps it
 * reads a stale or a torn record it then refuses (stamp), never undefined
 * behaviour. */
struct sim_slot {
	atomic_uint_fast64_t stamp;  /* 1 + the record's number once whole; 0 while written */
	_Atomic int64_t t_ns;
	_Atomic int64_t event_ns;    /* stim, wire: the event's stamp (0: none) */
	_Atomic int64_t due_ns;      /* stim: when it was scheduled */
	atomic_uint_fast64_t u;      /* write: its call; stim, wire, drop: the event's seqno */
	atomic_uint_fast64_t call;   /* wire: the write call that carried it */
	atomic_uint offset;
	atomic_int level, value;     /* value: write physical; stim, wire: queued.
				      * level: drop: the event was rising */
	atomic_int flags;            /* SIM_F_* */
};

#define SIM_F_BOUNCE   0x01      /* stim: a bounce step, not the edge */
#define SIM_F_PENDING  0x02      /* stim: its debounce was pending at the release */
/* wire: what became of the change (one of these) */
#define SIM_F_LOST     0x10      /* sim.wire_lose: no event, no number */
#define SIM_F_SKIPPED  0x40      /* the edge choice took no event of it */
#define SIM_F_UNHEARD  0x80      /* the wired line is not the input with edges */

/* A record ring: its size's slots, the last ones kept. Writers on several
 * threads (one RT thread per line) take their numbers with one fetch_add
 * each (reserved), fill and stamp their slots, then move count over every
 * stamped slot: count is the prefix of whole records, whoever finished
 * last. No lock, no writer waits; a reader (a test, the file's writer
 * thread) checks the stamp around its copy. */
struct sim_ring {
	struct sim_slot *slot;             /* size, allocated at a request */
	uint64_t size;
	atomic_uint_fast64_t reserved;
	atomic_uint_fast64_t count;
};

/* The rings, in the order of the file writer's cursors. SIM_R_DROP: the
 * events a full queue pushed out (sim_queue_evict()). */
enum { SIM_R_WRITE, SIM_R_STIM, SIM_R_WIRE, SIM_R_DROP, SIM_R_N };

/* One event of the input's queue. Its fields are atomics written relaxed:
 * a producer that finds the queue full reuses the oldest event's slot while
 * the reader may be copying it, and the reader then throws its copy away
 * (sim_in_read()), never reading undefined behaviour. */
struct sim_qslot {
	atomic_uint_fast64_t t_ns;   /* the stamp, on the input's clock */
	atomic_uint_fast64_t due_ns; /* CLOCK_MONOTONIC: readable from then on */
	atomic_uint_fast64_t seqno;
	atomic_int rising;
};

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
	/* The record: writes, stimulus changes, wire events. The rings are
	 * allocated at the first request of a line (main thread) and kept for
	 * the process, so that a build for hardware does not lock megabytes of
	 * .bss it never uses (mlockall locks it all). */
	struct sim_ring ring[SIM_R_N];
	atomic_uint_fast64_t calls;        /* set calls that wrote, for the records' call */
	int fail_open;
	int fail_request;
	atomic_int fail_write;

	/* The wire (sim.wire_*): set at configure time, read by the writer. */
	int wire_line;
	atomic_int wire_from;              /* the output line it hangs on; -1: none yet */
	int64_t wire_delay_ns, wire_jitter_ns, wire_lose;
	atomic_uint_fast64_t wire_edges;   /* level changes carried since the output's request */
	uint64_t rng;                      /* jitter; the writer's only */
	/* The one input with edge events, and its queue (single producer: the
	 * thread writing the output or the stimulus; single consumer: the
	 * reader; both move the tail, the producer only past an event it
	 * pushes out of a full queue). */
	atomic_int in_line;                /* -1: none */
	int in_fd;                         /* eventfd that polls readable with events */
	atomic_uint_fast64_t in_seqno;     /* edges the "kernel" saw on the input */
	atomic_uint_fast64_t q_head, q_tail;
	struct sim_qslot q[GPIO_SIM_EVENTS];
	/* The input's choices (set at its request, before any producer runs). */
	enum gpio_edge in_edge;
	int64_t in_debounce_ns;
	int64_t in_clock_off_ns;           /* added to monotonic stamps (realtime) */

	/* The stimulus (sim.stim_*): set at configure time, read by its thread. */
	int stim_line;
	int64_t stim_period_ns, stim_jitter_ns, stim_count, stim_bounce, stim_gap_ns;
	int stim_priority, stim_cpu;       /* the stimulus thread's placement */
	uint64_t stim_rng;                 /* jitter; the stimulus thread's only */
	pthread_t stim_thread;
	bool stim_running;                 /* a thread to join (main thread's) */
	atomic_bool stim_finished;         /* the schedule has run out */
	pthread_mutex_t stim_mu;           /* guards stim_stop, for stim_cv */
	pthread_cond_t stim_cv;            /* on CLOCK_MONOTONIC */
	bool stim_cv_ready;
	bool stim_stop;
	bool stim_hold;                    /* gpio_sim_stim_hold(): guarded by stim_mu */
	uint64_t stim_base;                /* the stim ring's count at the input's request */

	/* sim.history_file, and the first failure to write it. */
	char history_file[4096];
	char history_err[256];
	/* Its writer: a thread of the sim that streams the rings into the file
	 * while a line is held (started at the first request, stopped and
	 * joined at the last release, which completes the file). */
	struct {
		pthread_t thread;
		bool running;              /* a thread to join (main thread's) */
		bool stop;                 /* guarded by mu, for cv */
		bool hold;                 /* gpio_sim_history_hold(): guarded by mu */
		pthread_mutex_t mu;
		pthread_cond_t cv;         /* on CLOCK_MONOTONIC */
		bool cv_ready;
		FILE *f;
		char path[4096];           /* the file written since the reset ("": none) */
		atomic_uint_fast64_t next[SIM_R_N]; /* per ring, the next record to write */
		uint64_t lost[SIM_R_N];    /* records overwritten before they were written */
		uint64_t rows;             /* rows written since the file was opened */
	} out;
} sim = { .busy_line = -1, .wire_line = -1, .wire_from = -1, .wire_lose = -1, .in_line = -1,
	  .in_fd = -1,
	  .rng = 0x9e3779b97f4a7c15ull, .stim_line = -1, .stim_rng = 0x2545f4914f6cdd1dull,
	  .stim_mu = PTHREAD_MUTEX_INITIALIZER, .out = { .mu = PTHREAD_MUTEX_INITIALIZER } };

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
	if (config_int(cfg, CFG_SIM_STIM_LINE) >= num_lines) {
		snprintf(err, errlen, "sim.stim_line is %lld: -1 (no stimulus) or an offset 0..%lld",
			 (long long)config_int(cfg, CFG_SIM_STIM_LINE), (long long)num_lines - 1);
		goto out;
	}
	if (config_int(cfg, CFG_SIM_STIM_LINE) >= 0 &&
	    config_int(cfg, CFG_SIM_STIM_LINE) == config_int(cfg, CFG_SIM_WIRE_LINE)) {
		snprintf(err, errlen, "sim.stim_line and sim.wire_line are both %lld: a line is "
			 "either driven by the stimulus or wired to the output",
			 (long long)config_int(cfg, CFG_SIM_STIM_LINE));
		goto out;
	}
	if (strlen(config_str(cfg, CFG_SIM_HISTORY_FILE)) >= sizeof(sim.history_file)) {
		snprintf(err, errlen, "sim.history_file is too long: at most %zu characters",
			 sizeof(sim.history_file) - 1);
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
	/* The running stimulus keeps the schedule it started with. */
	if (!sim.stim_running) {
		sim.stim_line = (int)config_int(cfg, CFG_SIM_STIM_LINE);
		sim.stim_period_ns = config_int(cfg, CFG_SIM_STIM_PERIOD);
		sim.stim_jitter_ns = config_int(cfg, CFG_SIM_STIM_JITTER);
		sim.stim_count = config_int(cfg, CFG_SIM_STIM_COUNT);
		sim.stim_bounce = config_int(cfg, CFG_SIM_STIM_BOUNCE);
		sim.stim_gap_ns = config_int(cfg, CFG_SIM_STIM_BOUNCE_GAP);
		sim.stim_priority = (int)config_int(cfg, CFG_SIM_STIM_PRIORITY);
		sim.stim_cpu = (int)config_int(cfg, CFG_SIM_STIM_CPU);
	}
	gpio_strlcpy(sim.history_file, config_str(cfg, CFG_SIM_HISTORY_FILE),
		     sizeof(sim.history_file));
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

/* Allocate the rings, once: 0, or -1 with errno (ENOMEM). Main thread, at
 * a request, before any thread may write them. */
static int sim_histories_alloc(void)
{
	static const uint64_t size[SIM_R_N] = { GPIO_SIM_HISTORY, GPIO_SIM_STIM_HISTORY,
						GPIO_SIM_WIRE_HISTORY, GPIO_SIM_DROP_HISTORY };
	int i;

	for (i = 0; i < SIM_R_N; i++) {
		sim.ring[i].size = size[i];
		if (!sim.ring[i].slot)
			sim.ring[i].slot = calloc(size[i], sizeof(*sim.ring[i].slot));
		if (!sim.ring[i].slot) {
			errno = ENOMEM;
			return -1;
		}
	}
	return 0;
}

/* Touch every page of the rings and the queue now, so that the RT
 * thread's first writes do not page-fault when memory is not locked
 * (contents unchanged). */
static void sim_prefault(void)
{
	volatile char *p;
	size_t i;
	int r;

	for (r = 0; r < SIM_R_N; r++) {
		p = (volatile char *)sim.ring[r].slot;
		for (i = 0; i < sim.ring[r].size * sizeof(struct sim_slot); i += 4096)
			p[i] = p[i];
	}
	p = (volatile char *)sim.q;
	for (i = 0; i < sizeof(sim.q); i += 4096)
		p[i] = p[i];
}

/* One record for a ring; which fields mean what: sim_row_put(). */
struct sim_rec {
	int64_t t_ns, event_ns, due_ns;
	uint64_t u, call;
	unsigned int offset;
	int level, value, flags;
};

/* Write record number @seq into its slot of @r (the writer's own: it
 * reserved @seq). The stamp goes to 0 first and to 1 + @seq last, so that
 * a reader that sees the same stamp before and after its copy has a whole
 * record. The slot is the writer's alone unless another writer laps it by
 * its size in records while it is between its reservation and its stamp. */
static void sim_ring_put(struct sim_ring *r, uint64_t seq, const struct sim_rec *rec)
{
	struct sim_slot *w = &r->slot[seq % r->size];

	atomic_store_explicit(&w->stamp, 0, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&w->t_ns, rec->t_ns, memory_order_relaxed);
	atomic_store_explicit(&w->event_ns, rec->event_ns, memory_order_relaxed);
	atomic_store_explicit(&w->due_ns, rec->due_ns, memory_order_relaxed);
	atomic_store_explicit(&w->u, rec->u, memory_order_relaxed);
	atomic_store_explicit(&w->call, rec->call, memory_order_relaxed);
	atomic_store_explicit(&w->offset, rec->offset, memory_order_relaxed);
	atomic_store_explicit(&w->level, rec->level, memory_order_relaxed);
	atomic_store_explicit(&w->value, rec->value, memory_order_relaxed);
	atomic_store_explicit(&w->flags, rec->flags, memory_order_relaxed);
	/* Sequentially consistent, as the loads of sim_ring_advance(): of
	 * two writers finishing side by side, one sees the other's stamp. */
	atomic_store(&w->stamp, seq + 1);
}

/* Move @r's count over every whole record after it. Whichever writer
 * finishes last moves it past the others' records; none waits for another. */
static void sim_ring_advance(struct sim_ring *r)
{
	uint_fast64_t c = atomic_load(&r->count);

	while (atomic_load(&r->slot[c % r->size].stamp) == c + 1)
		if (atomic_compare_exchange_weak(&r->count, &c, c + 1))
			c++;
}

/* One record appended to @r (a single writer's: the stimulus thread, the
 * wire's writer). Atomics only, for the RT thread. */
static void sim_ring_append(struct sim_ring *r, const struct sim_rec *rec)
{
	sim_ring_put(r, atomic_fetch_add(&r->reserved, 1), rec);
	sim_ring_advance(r);
}

/* Record @seq of @r, whole: 0, or -1 (ENOENT) if it has not happened yet,
 * was overwritten, or was overwritten while copied. Any thread. */
static int sim_ring_get(struct sim_ring *r, uint64_t seq, struct sim_rec *rec)
{
	uint64_t n = atomic_load_explicit(&r->count, memory_order_acquire), stamp;
	const struct sim_slot *slot;

	if (!r->slot || seq >= n || n - seq > r->size) {
		errno = ENOENT;
		return -1;
	}
	slot = &r->slot[seq % r->size];
	stamp = atomic_load_explicit(&slot->stamp, memory_order_acquire);
	rec->t_ns = atomic_load_explicit(&slot->t_ns, memory_order_relaxed);
	rec->event_ns = atomic_load_explicit(&slot->event_ns, memory_order_relaxed);
	rec->due_ns = atomic_load_explicit(&slot->due_ns, memory_order_relaxed);
	rec->u = atomic_load_explicit(&slot->u, memory_order_relaxed);
	rec->call = atomic_load_explicit(&slot->call, memory_order_relaxed);
	rec->offset = atomic_load_explicit(&slot->offset, memory_order_relaxed);
	rec->level = atomic_load_explicit(&slot->level, memory_order_relaxed);
	rec->value = atomic_load_explicit(&slot->value, memory_order_relaxed);
	rec->flags = atomic_load_explicit(&slot->flags, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	/* A writer may have lapped us before or while we copied. */
	if (stamp != seq + 1 ||
	    atomic_load_explicit(&slot->stamp, memory_order_relaxed) != stamp) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

/*
 * The queue is full and @tail is its oldest event: push it out to make
 * room, and record it in the drop ring (stamped @t_ns, the new event's
 * time), with its sequence number. The reader may take that event at the
 * same time: whichever moves the tail past it first has it, so an event is
 * either read or recorded dropped, never both. The slot is read before the
 * tail moves; only the producer (us) writes slots. Producer only.
 */
static void sim_queue_evict(uint64_t tail, uint64_t t_ns)
{
	const struct sim_qslot *q = &sim.q[tail % GPIO_SIM_EVENTS];
	struct sim_rec rec = { .t_ns = (int64_t)t_ns };

	rec.offset = (unsigned int)atomic_load(&sim.in_line);
	rec.u = atomic_load_explicit(&q->seqno, memory_order_relaxed);
	rec.level = atomic_load_explicit(&q->rising, memory_order_relaxed);
	rec.event_ns = (int64_t)atomic_load_explicit(&q->due_ns, memory_order_relaxed);
	if (!atomic_compare_exchange_strong_explicit(&sim.q_tail, &tail, tail + 1,
						     memory_order_acq_rel, memory_order_acquire))
		return;                /* read meanwhile: there is room now */
	sim_ring_append(&sim.ring[SIM_R_DROP], &rec);
}

/*
 * The input's line changed to @value at @t (CLOCK_MONOTONIC), as the
 * "kernel" sees it: an event if the edge choice takes it, stamped @t on the
 * input's clock and readable from @t on, with the line's next sequence
 * number. The new event is always queued: a full queue pushes its oldest
 * out first, as the v2 uAPI does since Linux 5.10 (gpiolib-cdev.c,
 * linereq_put_event(): kfifo_skip() of the oldest, then kfifo_in()), so a
 * reader sees every loss as a gap in the numbers of what it reads, the
 * newest event always among them. Returns that sequence number (0: the edge
 * choice skipped it). Single producer (the wire's writer, the stimulus
 * thread or a test's gpio_sim_line_drive(), one at a time); atomics and
 * one eventfd write, so the RT thread may be the wire's writer.
 */
static uint64_t sim_queue_push(uint64_t t_ns, int value)
{
	uint64_t seq, head, tail, one = 1;
	struct sim_qslot *q;

	if ((sim.in_edge == GPIO_EDGE_RISING && !value) ||
	    (sim.in_edge == GPIO_EDGE_FALLING && value))
		return 0;
	seq = atomic_fetch_add(&sim.in_seqno, 1) + 1;
	head = atomic_load_explicit(&sim.q_head, memory_order_relaxed);
	tail = atomic_load_explicit(&sim.q_tail, memory_order_acquire);
	if (head - tail >= GPIO_SIM_EVENTS)
		sim_queue_evict(tail, t_ns);
	q = &sim.q[head % GPIO_SIM_EVENTS];
	atomic_store_explicit(&q->t_ns, (uint64_t)((int64_t)t_ns + sim.in_clock_off_ns),
			      memory_order_relaxed);
	atomic_store_explicit(&q->due_ns, t_ns, memory_order_relaxed);
	atomic_store_explicit(&q->seqno, seq, memory_order_relaxed);
	atomic_store_explicit(&q->rising, value, memory_order_relaxed);
	atomic_store_explicit(&sim.q_head, head + 1, memory_order_release);
	/* An eventfd write only fails when its counter would overflow. */
	if (sim.in_fd >= 0 && write(sim.in_fd, &one, sizeof(one)) < 0)
		return seq;
	return seq;
}

/* The wired line follows @value, written by set call @call at @t; the
 * input sees the change as an edge event unless the wire loses it. Each
 * change is a record of the wire ring: what became of it. Writer thread
 * (RT): atomics, one eventfd write. */
static void sim_wire_carry(unsigned int from, int value, int64_t t, uint64_t call)
{
	struct sim_rec rec = { .t_ns = t, .call = call, .level = value };
	int wl = sim.wire_line;
	int64_t delay;
	uint64_t n;

	if (wl < 0 || (unsigned int)wl >= sim.num_lines || (unsigned int)wl == from)
		return;
	if (atomic_exchange(&sim.lines[wl].value, value) == value)
		return;
	rec.offset = (unsigned int)wl;
	n = atomic_fetch_add(&sim.wire_edges, 1);
	if ((int64_t)n == sim.wire_lose) {
		rec.flags = SIM_F_LOST;
	} else if (atomic_load(&sim.in_line) != wl) {
		rec.flags = SIM_F_UNHEARD;
	} else {
		delay = sim.wire_delay_ns;
		if (sim.wire_jitter_ns > 0) {
			sim.rng ^= sim.rng << 13;
			sim.rng ^= sim.rng >> 7;
			sim.rng ^= sim.rng << 17;
			delay += (int64_t)(sim.rng % (uint64_t)(sim.wire_jitter_ns + 1));
		}
		rec.u = sim_queue_push((uint64_t)(t + delay), value);
		rec.event_ns = rec.u ? t + delay : 0;
		rec.value = rec.u != 0;
		rec.flags = !rec.u ? SIM_F_SKIPPED : 0;
	}
	sim_ring_append(&sim.ring[SIM_R_WIRE], &rec);
}

static void sim_history_at_request(void);
static void sim_history_at_release(void);

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

/* Line @l (at @offset) now held as an output of @spec, at its idle level.
 * The first output line requested carries the wire while it is held: the
 * wire is the one pin's, and its queue has one producer. */
static void sim_take_output(struct sim_line *l, unsigned int offset,
			    const struct gpio_out_spec *spec)
{
	int value = spec->idle_level ^ spec->active_low, none = -1;

	l->requested = true;
	l->input = false;
	l->active_low = spec->active_low;
	l->drive = spec->drive;
	gpio_strlcpy(l->consumer, spec->consumer, sizeof(l->consumer));
	atomic_store(&l->value, value);
	if (!atomic_compare_exchange_strong(&sim.wire_from, &none, (int)offset))
		return;
	/* The wire settles at the idle level without an event. */
	if (sim.wire_line >= 0 && (unsigned int)sim.wire_line < sim.num_lines &&
	    (unsigned int)sim.wire_line != offset)
		atomic_store(&sim.lines[sim.wire_line].value, value);
	atomic_store(&sim.wire_edges, 0);
}

/* Line @offset no longer held as an output; it keeps driving its last level,
 * as most drivers do. */
static void sim_drop_output(unsigned int offset)
{
	struct sim_line *l = &sim.lines[offset];
	int from = (int)offset;

	l->requested = false;
	l->consumer[0] = '\0';
	atomic_compare_exchange_strong(&sim.wire_from, &from, -1);
}

static struct gpio_out *sim_request(void *chip, unsigned int offset,
				    const struct gpio_out_spec *spec)
{
	struct sim_line *l;
	struct sim_out *s;

	(void)chip;
	l = sim_line_to_request(offset);
	if (!l)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s || sim_histories_alloc()) {
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	sim_prefault();
	s->offset = offset;
	s->active_low = spec->active_low;
	s->cost_ns = sim.write_cost_ns;
	sim_take_output(l, offset, spec);
	sim_history_at_request();
	return &s->base;
}

/*
 * One set call: the lines @offsets[i] whose bit i is in @mask (non-zero) to
 * the logical levels of @levels, one history record each, all with the same
 * time and call number; one modelled write cost for the call. Any number of
 * threads may write at once, each its own lines: atomics only, no lock, no
 * wait on another writer (sim_history_advance()). The wire hears its own
 * line only, so only that line's writer touches its queue and generator.
 */
static int sim_write(const unsigned int *offsets, size_t n, uint32_t mask, uint32_t levels,
		     int active_low, int64_t cost_ns)
{
	struct sim_ring *w;
	uint64_t seq, call;
	int64_t t;
	int err, from;
	size_t i;

	t = (int64_t)clock_mono_ns();
	if (cost_ns > 0) {
		int64_t end = t + cost_ns;

		while ((t = (int64_t)clock_mono_ns()) < end)
			;
	}
	err = atomic_exchange(&sim.fail_write, 0);
	if (err) {
		errno = err;
		return -1;
	}
	call = atomic_fetch_add(&sim.calls, 1);
	w = &sim.ring[SIM_R_WRITE];
	seq = atomic_fetch_add(&w->reserved, (uint_fast64_t)__builtin_popcount(mask));
	for (i = 0; i < n; i++) {
		struct sim_rec rec = { .t_ns = t, .u = call, .offset = offsets[i] };

		if (!(mask & (UINT32_C(1) << i)))
			continue;
		rec.level = (int)((levels >> i) & 1);
		rec.value = rec.level ^ active_low;
		atomic_store(&sim.lines[offsets[i]].value, rec.value);
		sim_ring_put(w, seq++, &rec);
	}
	sim_ring_advance(w);
	from = atomic_load_explicit(&sim.wire_from, memory_order_relaxed);
	for (i = 0; i < n; i++)
		if ((mask & (UINT32_C(1) << i)) && (int)offsets[i] == from)
			sim_wire_carry(offsets[i], (int)((levels >> i) & 1) ^ active_low, t, call);
	return 0;
}

/* RT thread: a busy-wait, a clock read and a few atomic stores. */
static int sim_set(struct gpio_out *g, int level)
{
	struct sim_out *s = container_of(g, struct sim_out, base);

	return sim_write(&s->offset, 1, 1, (uint32_t)level, s->active_low, s->cost_ns);
}

static void sim_release(struct gpio_out *g)
{
	struct sim_out *s = container_of(g, struct sim_out, base);

	sim_drop_output(s->offset);
	free(s);
	sim_history_at_release();
}

/* ---- line group --------------------------------------------------------------- */

struct sim_group {
	struct gpio_group base;
	unsigned int offsets[GPIO_GROUP_MAX];
	int active_low;
	int64_t cost_ns;
};

/* Every line or none: the request is one, as the kernel's is. */
static struct gpio_group *sim_request_group(void *chip, const unsigned int *offsets, size_t n,
					    const struct gpio_out_spec *spec)
{
	struct sim_group *s;
	size_t i, j;

	(void)chip;
	if (sim_take_error(&sim.fail_request))
		return NULL;
	for (i = 0; i < n; i++) {
		if (offsets[i] >= sim.num_lines) {
			errno = EINVAL;
			return NULL;
		}
		if (sim.lines[offsets[i]].requested || (int)offsets[i] == sim.busy_line) {
			errno = EBUSY;
			return NULL;
		}
		for (j = 0; j < i; j++)
			if (offsets[j] == offsets[i]) {
				errno = EINVAL;
				return NULL;
			}
	}
	s = calloc(1, sizeof(*s));
	if (!s || sim_histories_alloc()) {
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	sim_prefault();
	s->active_low = spec->active_low;
	s->cost_ns = sim.write_cost_ns;
	for (i = 0; i < n; i++) {
		s->offsets[i] = offsets[i];
		sim_take_output(&sim.lines[offsets[i]], offsets[i], spec);
	}
	sim_history_at_request();
	return &s->base;
}

/* RT thread: one call, as sim_set(). */
static int sim_set_group(struct gpio_group *g, uint32_t mask, uint32_t levels)
{
	struct sim_group *s = container_of(g, struct sim_group, base);

	return sim_write(s->offsets, g->n, mask, levels, s->active_low, s->cost_ns);
}

static void sim_release_group(struct gpio_group *g)
{
	struct sim_group *s = container_of(g, struct sim_group, base);
	size_t i;

	for (i = 0; i < g->n; i++)
		sim_drop_output(s->offsets[i]);
	free(s);
	sim_history_at_release();
}

static void sim_describe_cost(int64_t cost_ns, char *buf, size_t len)
{
	if (cost_ns)
		snprintf(buf, len, " (simulated, %lld ns per write)", (long long)cost_ns);
	else
		snprintf(buf, len, " (simulated)");
}

static void sim_describe(const struct gpio_out *g, char *buf, size_t len)
{
	const struct sim_out *s = g ? container_of(g, const struct sim_out, base) : NULL;

	sim_describe_cost(s ? s->cost_ns : 0, buf, len);
}

static void sim_describe_group(const struct gpio_group *g, char *buf, size_t len)
{
	const struct sim_group *s = container_of(g, const struct sim_group, base);

	sim_describe_cost(s->cost_ns, buf, len);
}

/* ---- the stimulus ------------------------------------------------------------ */

/* The last stretch before a change the stimulus thread spins through
 * rather than sleeps: a wake-up takes tens of microseconds, and a bounce
 * gap (sim.stim_bounce_gap, 2 us by default) is shorter than that. */
#define SIM_STIM_SPIN_NS 50000

/* Sleep until @t (CLOCK_MONOTONIC), the last SIM_STIM_SPIN_NS spinning,
 * and past it while a test holds the thread (gpio_sim_stim_hold()), or
 * until the input's release stops us: false when stopped. The stimulus
 * thread only. */
static bool sim_stim_sleep(int64_t t)
{
	int64_t now, wake = t - SIM_STIM_SPIN_NS;
	struct timespec ts = { .tv_sec = wake / 1000000000, .tv_nsec = wake % 1000000000 };
	bool stop;

	pthread_mutex_lock(&sim.stim_mu);
	while (!sim.stim_stop && (sim.stim_hold || (now = (int64_t)clock_mono_ns()) < t)) {
		if (sim.stim_hold) {
			pthread_cond_wait(&sim.stim_cv, &sim.stim_mu);
		} else if (now < wake) {
			pthread_cond_timedwait(&sim.stim_cv, &sim.stim_mu, &ts);
		} else {
			pthread_mutex_unlock(&sim.stim_mu);
			while ((int64_t)clock_mono_ns() < t)
				;
			pthread_mutex_lock(&sim.stim_mu);
		}
	}
	stop = sim.stim_stop;
	pthread_mutex_unlock(&sim.stim_mu);
	return !stop;
}

/* The kernel's report of change @r's level at @t: the event, queued
 * (a full queue may push it out later: a drop record says so). */
static void sim_stim_report(struct sim_rec *r, int64_t t)
{
	r->u = sim_queue_push((uint64_t)t, r->level);
	r->value = r->u != 0;
	r->event_ns = r->u ? t : 0;
}

/* Debounce timer of change @r ran out at @expiry: the work reads the level,
 * @r's, and reports it if it is not the last one reported (*@reported).
 * Then @r is final. The stimulus thread only. */
static void sim_stim_settle(struct sim_rec *r, int64_t expiry, int *reported)
{
	if (r->level != *reported) {
		*reported = r->level;
		sim_stim_report(r, expiry);
	}
	sim_ring_append(&sim.ring[SIM_R_STIM], r);
}

/*
 * The stimulus thread: the schedule of gpio_sim.h, one level change at a
 * time. It sleeps until each change is due, changes the level and then
 * reads the clock: that reading is the change's time in the record and its
 * event's stamp, so a late thread (a busy machine) is recorded late, as a
 * scope would see it, and the stamp never comes before the change. With
 * debounce it models gpiolib-cdev: every change re-arms a timer to its
 * actual time + D; when the level stays put until then, the timer runs out
 * at that time (the work's stamp) and the level is compared with the last
 * one reported, and only a different one is reported (if the edge choice
 * takes it). Whether it ran out is decided on the recorded times alone
 * (the next change came at or after it), however late the thread woke, so
 * that the record explains every event; the last change's timer, if the
 * thread has not seen it run out when the release stops it, is pending. A
 * change's record is appended once final: at once without debounce, else
 * when its timer ran out, the next change re-armed it, or the release found
 * it pending.
 */
static void *sim_stim_main(void *arg)
{
	const int64_t period = sim.stim_period_ns, debounce = sim.in_debounce_ns;
	const int64_t bounces = sim.stim_bounce, gap = sim.stim_gap_ns;
	struct sim_ring *ring = &sim.ring[SIM_R_STIM];
	int64_t t0 = *(const int64_t *)arg + period, last = 0, base = 0, pend = -1, now;
	int level = atomic_load(&sim.lines[sim.stim_line].value), edge_level = level;
	int reported = level;
	struct sim_rec open = { 0 };       /* with debounce: the last change, not yet final */
	bool have = false;
	int next = level;
	uint64_t k = 0;
	int64_t b = 0, t = 0;

	free(arg);
	/* Wake as close to a change as the kernel can (the default slack of a
	 * normal thread's timers is 50 us). */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	for (;;) {
		/* The next change, computed once (the jitter draws a number). */
		if (!have && (!sim.stim_count || k < (uint64_t)sim.stim_count)) {
			if (b == 0) {
				t = t0 + (int64_t)k * period;
				if (sim.stim_jitter_ns > 0) {
					sim.stim_rng ^= sim.stim_rng << 13;
					sim.stim_rng ^= sim.stim_rng >> 7;
					sim.stim_rng ^= sim.stim_rng << 17;
					t += (int64_t)(sim.stim_rng %
						       (uint64_t)(sim.stim_jitter_ns + 1));
				}
				if (t < last)
					t = last;
				edge_level = !level;
				next = edge_level;
				base = t;
			} else {
				/* Bounce step b: away from the new level when odd,
				 * back to it when even. */
				t = base + b * gap;
				next = (b & 1) ? !edge_level : edge_level;
			}
			have = true;
		}
		/* The debounce timer expires first (the kernel's work runs before a
		 * change that comes exactly at its expiry). */
		if (pend >= 0 && (!have || pend <= t)) {
			if (!sim_stim_sleep(pend))
				break;
			sim_stim_settle(&open, pend, &reported);
			pend = -1;
			continue;
		}
		if (!have || !sim_stim_sleep(t))
			break;
		have = false;
		level = next;
		last = t;
		atomic_store(&sim.lines[sim.stim_line].value, level);
		now = (int64_t)clock_mono_ns();
		if (pend >= 0 && now >= pend)      /* woken late: it ran out before */
			sim_stim_settle(&open, pend, &reported);
		else if (pend >= 0)                /* re-armed before it ran out */
			sim_ring_append(ring, &open);
		pend = -1;
		open = (struct sim_rec){ .t_ns = now, .due_ns = t, .level = level,
					 .offset = (unsigned int)sim.stim_line,
					 .flags = b ? SIM_F_BOUNCE : 0 };
		if (debounce > 0) {
			pend = now + debounce;
		} else {
			sim_stim_report(&open, now);
			sim_ring_append(ring, &open);
		}
		if (++b > 2 * bounces) {
			b = 0;
			k++;
		}
	}
	/* The release cancels a timer the thread has not seen run out. */
	if (pend >= 0) {
		open.flags |= SIM_F_PENDING;
		sim_ring_append(ring, &open);
	}
	atomic_store(&sim.stim_finished, true);
	return NULL;
}

/* Start the stimulus for the input just requested at @now. 0, or -1 with errno. */
/* The stimulus thread, placed as sim.stim_priority and sim.stim_cpu ask:
 * as an interrupt source is, on its own CPU at a real-time priority, so
 * that what a benchmark measures is the responder's path and not the
 * stimulus waiting for a CPU. An errno (EPERM) when it cannot be. */
static int sim_stim_create(void *arg)
{
	pthread_attr_t at;
	int e;

	if (!sim.stim_priority && sim.stim_cpu < 0)
		return pthread_create(&sim.stim_thread, NULL, sim_stim_main, arg);
	if ((e = pthread_attr_init(&at)))
		return e;
	if (sim.stim_priority) {
		struct sched_param sp = { .sched_priority = sim.stim_priority };

		e = pthread_attr_setinheritsched(&at, PTHREAD_EXPLICIT_SCHED);
		if (!e)
			e = pthread_attr_setschedpolicy(&at, SCHED_FIFO);
		if (!e)
			e = pthread_attr_setschedparam(&at, &sp);
	}
	if (!e && sim.stim_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(sim.stim_cpu, &set);
		e = pthread_attr_setaffinity_np(&at, sizeof(set), &set);
	}
	if (!e)
		e = pthread_create(&sim.stim_thread, &at, sim_stim_main, arg);
	pthread_attr_destroy(&at);
	return e;
}

static int sim_stim_start(int64_t now)
{
	pthread_condattr_t ca;
	sigset_t all, old;
	int64_t *arg;
	int e;

	if (!sim.stim_cv_ready) {
		if (pthread_condattr_init(&ca) ||
		    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) ||
		    pthread_cond_init(&sim.stim_cv, &ca)) {
			errno = ENOMEM;
			return -1;
		}
		pthread_condattr_destroy(&ca);
		sim.stim_cv_ready = true;
	}
	arg = malloc(sizeof(*arg));
	if (!arg)
		return -1;
	*arg = now;
	sim.stim_stop = false;
	atomic_store(&sim.stim_finished, false);
	sim.stim_base = atomic_load(&sim.ring[SIM_R_STIM].count);
	/* Signals stay with the threads that wait for them (none here). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = sim_stim_create(arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		free(arg);
		errno = e;
		return -1;
	}
	sim.stim_running = true;
	return 0;
}

static void sim_stim_stop(void)
{
	if (!sim.stim_running)
		return;
	pthread_mutex_lock(&sim.stim_mu);
	sim.stim_stop = true;
	pthread_cond_signal(&sim.stim_cv);
	pthread_mutex_unlock(&sim.stim_mu);
	pthread_join(sim.stim_thread, NULL);
	sim.stim_running = false;
}

/* ---- the history file ----------------------------------------------------------- */

/* The writer thread's pace: a pass over the rings every 20 ms keeps it far
 * ahead of any wave the sim can run (the rings hold a second of writes at
 * 64 kHz, of stimulus changes and wire events at 16 kHz). */
#define SIM_OUT_PERIOD_NS 20000000

static const char *const sim_ring_name[SIM_R_N] = { "writes", "stimulus changes",
						    "wire events", "dropped events" };
static const char *const sim_row_kind[SIM_R_N] = { "write", "stim", "wire", "drop" };

/* Whether sqwave holds no line of the chip any more. */
static bool sim_none_requested(void)
{
	unsigned int i;

	for (i = 0; i < GPIO_SIM_MAX_LINES; i++)
		if (sim.lines[i].requested)
			return false;
	return true;
}

/* Keep the first failure of the history file for gpio_sim_history_error(). */
__attribute__((format(printf, 1, 2)))
static void sim_history_fail(const char *fmt, ...)
{
	va_list ap;

	if (sim.history_err[0])
		return;
	va_start(ap, fmt);
	vsnprintf(sim.history_err, sizeof(sim.history_err), fmt, ap);
	va_end(ap);
}

/* One row of the file (gpio_sim.h: the columns of each kind). */
static void sim_row_put(int kind, const struct sim_rec *r)
{
	static const char *const wire_note[] = { "queued", "lost", "skipped", "unheard" };
	char ev[24] = "";
	int w;

	if (r->event_ns)
		snprintf(ev, sizeof(ev), "%lld", (long long)r->event_ns);
	if (kind == SIM_R_WRITE) {
		fprintf(sim.out.f, "write,%lld,%u,%d,%d,%llu,,,\n", (long long)r->t_ns, r->offset,
			r->level, r->value, (unsigned long long)r->u);
	} else if (kind == SIM_R_STIM) {
		fprintf(sim.out.f, "stim,%lld,%u,%d,%d,%llu,%s,%lld,%s%s\n", (long long)r->t_ns,
			r->offset, r->level, r->value, (unsigned long long)r->u, ev,
			(long long)r->due_ns, r->flags & SIM_F_BOUNCE ? "bounce" : "edge",
			r->flags & SIM_F_PENDING ? " pending" : "");
	} else if (kind == SIM_R_WIRE) {
		w = r->flags & SIM_F_LOST ? 1 : r->flags & SIM_F_SKIPPED ? 2 :
		    r->flags & SIM_F_UNHEARD ? 3 : 0;
		fprintf(sim.out.f, "wire,%lld,%u,%d,%d,%llu,%s,%llu,%s\n", (long long)r->t_ns,
			r->offset, r->level, r->value, (unsigned long long)r->u, ev,
			(unsigned long long)r->call, wire_note[w]);
	} else {
		fprintf(sim.out.f, "drop,%lld,%u,%d,0,%llu,%s,,evicted\n", (long long)r->t_ns,
			r->offset, r->level, (unsigned long long)r->u, ev);
	}
	sim.out.rows++;
}

/* Write every whole record not yet in the file. Records a writer overwrote
 * before they got here are a "gap" row and counted: the file says where it
 * is incomplete. The writer thread while it runs, then the main thread. */
static void sim_out_drain(void)
{
	struct sim_rec rec;
	uint64_t n, skip, next;
	int k;

	for (k = 0; k < SIM_R_N; k++) {
		struct sim_ring *r = &sim.ring[k];

		if (!r->slot)
			continue;
		n = atomic_load_explicit(&r->count, memory_order_acquire);
		next = atomic_load(&sim.out.next[k]);
		while (next < n) {
			skip = 0;
			if (n - next > r->size)
				skip = n - r->size - next;
			else if (sim_ring_get(r, next, &rec))
				skip = 1;      /* lapped while copied */
			if (skip) {
				fprintf(sim.out.f, "gap,%lld,,,,%llu,,,%s\n",
					(long long)clock_mono_ns(), (unsigned long long)skip,
					sim_row_kind[k]);
				sim.out.lost[k] += skip;
				next += skip;
			} else {
				sim_row_put(k, &rec);
				next++;
			}
			atomic_store(&sim.out.next[k], next);
		}
	}
	/* What is written is on disk: a run that dies keeps all but the last
	 * pass, and a test may read how far it got. */
	fflush(sim.out.f);
}

/* The writer thread: a pass every SIM_OUT_PERIOD_NS until the last
 * release stops it (which then makes the last pass itself). Not RT. */
static void *sim_out_main(void *arg)
{
	struct timespec ts;
	int64_t t;
	bool stop;

	(void)arg;
	for (;;) {
		t = (int64_t)clock_mono_ns() + SIM_OUT_PERIOD_NS;
		ts.tv_sec = t / 1000000000;
		ts.tv_nsec = t % 1000000000;
		pthread_mutex_lock(&sim.out.mu);
		if (!sim.out.stop)
			pthread_cond_timedwait(&sim.out.cv, &sim.out.mu, &ts);
		while (sim.out.hold && !sim.out.stop)
			pthread_cond_wait(&sim.out.cv, &sim.out.mu);
		stop = sim.out.stop;
		pthread_mutex_unlock(&sim.out.mu);
		if (stop)
			return NULL;
		sim_out_drain();
	}
}

/* At a request (main thread, the rings allocated): with sim.history_file
 * set and no file open, open it and start its writer thread. The file
 * written since the last reset is continued (appended to); another is
 * started with the header and every record since the reset. A failure is
 * kept for gpio_sim_history_error(), never the request's: the line works
 * without its record. */
static void sim_history_at_request(void)
{
	bool same = !strcmp(sim.out.path, sim.history_file);
	pthread_condattr_t ca;
	sigset_t all, old;
	int e;

	if (sim.out.f || !sim.history_file[0])
		return;
	sim.out.f = fopen(sim.history_file, same ? "a" : "w");
	if (!sim.out.f) {
		sim_history_fail("cannot write sim.history_file %s: %s", sim.history_file,
				 strerror(errno));
		return;
	}
	if (!same) {
		gpio_strlcpy(sim.out.path, sim.history_file, sizeof(sim.out.path));
		for (e = 0; e < SIM_R_N; e++)
			atomic_store(&sim.out.next[e], 0);
		memset(sim.out.lost, 0, sizeof(sim.out.lost));
		fputs("kind,t_ns,offset,level,value_or_reported,seqno_or_call,event_ns,"
		      "due_ns_or_call,note\n", sim.out.f);
	}
	sim.out.rows = 0;
	if (!sim.out.cv_ready) {
		if (pthread_condattr_init(&ca))
			return;                /* no thread: the release writes it all */
		if (!pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) &&
		    !pthread_cond_init(&sim.out.cv, &ca))
			sim.out.cv_ready = true;
		pthread_condattr_destroy(&ca);
		if (!sim.out.cv_ready)
			return;
	}
	sim.out.stop = false;
	/* Signals stay with the threads that wait for them (none here). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&sim.out.thread, NULL, sim_out_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	sim.out.running = !e;
}

/* At a release: when it was the last line held, stop the writer thread,
 * write what is left and the "end" row, and close the file; a failure, or
 * records lost before they were written, is kept for
 * gpio_sim_history_error(). */
static void sim_history_at_release(void)
{
	uint64_t lost;
	int e, k;

	if (!sim.out.f || !sim_none_requested())
		return;
	if (sim.out.running) {
		pthread_mutex_lock(&sim.out.mu);
		sim.out.stop = true;
		pthread_cond_signal(&sim.out.cv);
		pthread_mutex_unlock(&sim.out.mu);
		pthread_join(sim.out.thread, NULL);
		sim.out.running = false;
	}
	sim_out_drain();
	for (lost = 0, k = 0; k < SIM_R_N; k++)
		lost += sim.out.lost[k];
	fprintf(sim.out.f, "end,%lld,,,%d,%llu,,,%s\n", (long long)clock_mono_ns(), !lost,
		(unsigned long long)sim.out.rows, lost ? "incomplete" : "complete");
	e = ferror(sim.out.f) ? (errno ? errno : EIO) : 0;
	if (fclose(sim.out.f) && !e)
		e = errno;
	sim.out.f = NULL;
	if (e)
		sim_history_fail("cannot write sim.history_file %s: %s", sim.out.path,
				 strerror(e));
	else if (lost)
		sim_history_fail("sim.history_file %s is incomplete: %llu %s, %llu %s, %llu %s "
				 "and %llu %s were overwritten before its writer thread got "
				 "them (the simulated chip keeps the last %u, %u, %u and %u)",
				 sim.out.path,
				 (unsigned long long)sim.out.lost[SIM_R_WRITE],
				 sim_ring_name[SIM_R_WRITE],
				 (unsigned long long)sim.out.lost[SIM_R_STIM],
				 sim_ring_name[SIM_R_STIM],
				 (unsigned long long)sim.out.lost[SIM_R_WIRE],
				 sim_ring_name[SIM_R_WIRE],
				 (unsigned long long)sim.out.lost[SIM_R_DROP],
				 sim_ring_name[SIM_R_DROP], GPIO_SIM_HISTORY, GPIO_SIM_STIM_HISTORY,
				 GPIO_SIM_WIRE_HISTORY, GPIO_SIM_DROP_HISTORY);
}

/* ---- input ------------------------------------------------------------------ */

static struct gpio_in *sim_in_request(void *chip, unsigned int offset,
				      const struct gpio_in_spec *spec)
{
	bool stim = spec->edges && (int)offset == sim.stim_line;
	struct sim_line *l;
	struct sim_in *in;
	int64_t now;

	(void)chip;
	l = sim_line_to_request(offset);
	if (!l)
		return NULL;
	/* One input with events at a time: one queue. */
	if (spec->edges && atomic_load(&sim.in_line) >= 0) {
		errno = EBUSY;
		return NULL;
	}
	/* Debounce needs a timer the wire's writer (the RT thread) cannot run:
	 * only the stimulus models it. HTE never gets here (in_caps). */
	if (spec->edges && spec->debounce_ns > 0 && !stim) {
		errno = ENOTSUP;
		return NULL;
	}
	in = calloc(1, sizeof(*in));
	if (!in || sim_histories_alloc()) {
		free(in);
		errno = ENOMEM;
		return NULL;
	}
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
		sim.in_edge = spec->edge;
		sim.in_debounce_ns = spec->debounce_ns;
		now = (int64_t)clock_mono_ns();
		sim.in_clock_off_ns = spec->clock == GPIO_CLOCK_REALTIME ?
			(int64_t)clock_now_ns(CLOCK_REALTIME) - now : 0;
		atomic_store(&sim.in_line, (int)offset);
		if (stim && sim_stim_start(now)) {
			int e = errno;

			atomic_store(&sim.in_line, -1);
			close(sim.in_fd);
			sim.in_fd = -1;
			free(in);
			errno = e;
			return NULL;
		}
	}
	l->requested = true;
	l->input = true;
	gpio_strlcpy(l->consumer, spec->consumer, sizeof(l->consumer));
	sim_history_at_request();
	return &in->base;
}

static int sim_in_fd(struct gpio_in *g)
{
	(void)g;
	return sim.in_fd;
}

/* May run on the RT thread: an eventfd read, atomics, copies out of the
 * preallocated queue and at most one eventfd write. Each event is copied,
 * then taken by moving the tail past it; when a producer pushed it out of
 * a full queue first (sim_queue_evict(), its slot maybe reused), the copy
 * is thrown away and the next oldest tried. Bounded: every failed take is
 * an event some producer queued meanwhile. */
static int sim_in_read(struct gpio_in *g, struct gpio_in_event *ev, size_t max)
{
	uint64_t head, tail, counter, now;
	const struct sim_qslot *q;
	size_t n = 0, tries;

	(void)g;
	if (read(sim.in_fd, &counter, sizeof(counter)) < 0 && errno != EAGAIN)
		return -1;
	now = (uint64_t)(int64_t)clock_mono_ns();
	tail = atomic_load_explicit(&sim.q_tail, memory_order_acquire);
	for (tries = 0; n < max && tries < max + GPIO_SIM_EVENTS; tries++) {
		head = atomic_load_explicit(&sim.q_head, memory_order_acquire);
		if (tail == head)
			break;
		q = &sim.q[tail % GPIO_SIM_EVENTS];
		/* An event is readable once it has happened (the wire's: the
		 * write's time plus its delay), as on a real line. */
		if (atomic_load_explicit(&q->due_ns, memory_order_relaxed) > now)
			break;
		ev[n].t_ns = atomic_load_explicit(&q->t_ns, memory_order_relaxed);
		ev[n].seqno = atomic_load_explicit(&q->seqno, memory_order_relaxed);
		ev[n].rising = atomic_load_explicit(&q->rising, memory_order_relaxed);
		/* On failure @tail is the queue's tail now: try from there. */
		if (atomic_compare_exchange_strong_explicit(&sim.q_tail, &tail, tail + 1,
							    memory_order_acq_rel,
							    memory_order_acquire)) {
			tail++;
			n++;
		}
	}
	if (tail != atomic_load_explicit(&sim.q_head, memory_order_acquire)) {
		/* Left some behind (too many, or not yet happened): keep the fd
		 * readable. A reader polls again at once until they are due: a
		 * spin of at most sim.wire_delay + jitter, the wire's only (the
		 * stimulus queues an event when it happens, never before). */
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
		/* The stimulus stops (a pending debounce is never reported,
		 * its change is recorded pending) before its queue goes. */
		sim_stim_stop();
		atomic_store(&sim.in_line, -1);
		close(sim.in_fd);
		sim.in_fd = -1;
	}
	l->requested = false;
	l->input = false;
	l->consumer[0] = '\0';
	free(in);
	sim_history_at_release();
}

const struct gpio_ops gpio_sim_ops = {
	.name = "sim",
	.title = "the simulated chip",
	.in_caps = GPIO_IN_CAP_DEBOUNCE | GPIO_IN_CAP_REALTIME,
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
	.request_group = sim_request_group,
	.set_group = sim_set_group,
	.release_group = sim_release_group,
	.describe_group = sim_describe_group,
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
	for (i = 0; i < SIM_R_N; i++) {
		if (sim.ring[i].slot)
			memset(sim.ring[i].slot, 0, sim.ring[i].size * sizeof(struct sim_slot));
		atomic_store(&sim.ring[i].reserved, 0);
		atomic_store(&sim.ring[i].count, 0);
	}
	sim.stim_base = 0;
	sim.stim_hold = false;
	sim.out.path[0] = '\0';
	sim.out.hold = false;
	atomic_store(&sim.calls, 0);
	atomic_store(&sim.wire_from, -1);
	sim.fail_open = 0;
	sim.fail_request = 0;
	atomic_store(&sim.fail_write, 0);
	atomic_store(&sim.wire_edges, 0);
	atomic_store(&sim.stim_finished, false);
	sim.history_err[0] = '\0';
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
	return atomic_load_explicit(&sim.ring[SIM_R_WRITE].count, memory_order_acquire);
}

int gpio_sim_write_get(uint64_t seq, struct gpio_sim_write *w)
{
	struct sim_rec r;

	if (sim_ring_get(&sim.ring[SIM_R_WRITE], seq, &r))
		return -1;
	w->t_ns = r.t_ns;
	w->call = r.u;
	w->offset = r.offset;
	w->level = r.level;
	w->value = r.value;
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
	/* The stimulus is the line's one driver (and its queue's one producer). */
	if (sim.stim_running && (int)offset == sim.stim_line) {
		errno = EBUSY;
		return -1;
	}
	value = !!value;
	if (atomic_exchange(&sim.lines[offset].value, value) != value &&
	    atomic_load(&sim.in_line) == (int)offset)
		sim_queue_push(t_ns, value);
	return 0;
}

uint64_t gpio_sim_stim_count(void)
{
	return atomic_load_explicit(&sim.ring[SIM_R_STIM].count, memory_order_acquire) -
	       sim.stim_base;
}

int gpio_sim_stim_get(uint64_t n, struct gpio_sim_stim *st)
{
	struct sim_rec r;

	if (sim_ring_get(&sim.ring[SIM_R_STIM], sim.stim_base + n, &r))
		return -1;
	st->t_ns = r.t_ns;
	st->due_ns = r.due_ns;
	st->offset = r.offset;
	st->level = r.level;
	st->reported = r.value;
	st->seqno = r.u;
	st->event_ns = r.event_ns;
	st->bounce = r.flags & SIM_F_BOUNCE;
	st->pending = r.flags & SIM_F_PENDING;
	return 0;
}

bool gpio_sim_stim_finished(void)
{
	return atomic_load(&sim.stim_finished);
}

void gpio_sim_stim_hold(bool hold)
{
	pthread_mutex_lock(&sim.stim_mu);
	sim.stim_hold = hold;
	if (sim.stim_cv_ready)
		pthread_cond_broadcast(&sim.stim_cv);
	pthread_mutex_unlock(&sim.stim_mu);
}

uint64_t gpio_sim_wire_count(void)
{
	return atomic_load_explicit(&sim.ring[SIM_R_WIRE].count, memory_order_acquire);
}

int gpio_sim_wire_get(uint64_t n, struct gpio_sim_wire *w)
{
	struct sim_rec r;

	if (sim_ring_get(&sim.ring[SIM_R_WIRE], n, &r))
		return -1;
	w->t_ns = r.t_ns;
	w->call = r.call;
	w->offset = r.offset;
	w->value = r.level;
	w->event_ns = r.event_ns;
	w->seqno = r.u;
	w->fate = r.flags & SIM_F_LOST ? GPIO_SIM_WIRE_LOST :
		  r.flags & SIM_F_SKIPPED ? GPIO_SIM_WIRE_SKIPPED :
		  r.flags & SIM_F_UNHEARD ? GPIO_SIM_WIRE_UNHEARD : GPIO_SIM_WIRE_QUEUED;
	return 0;
}

uint64_t gpio_sim_drop_count(void)
{
	return atomic_load_explicit(&sim.ring[SIM_R_DROP].count, memory_order_acquire);
}

int gpio_sim_drop_get(uint64_t n, struct gpio_sim_drop *d)
{
	struct sim_rec r;

	if (sim_ring_get(&sim.ring[SIM_R_DROP], n, &r))
		return -1;
	d->t_ns = r.t_ns;
	d->offset = r.offset;
	d->rising = r.level;
	d->seqno = r.u;
	d->event_ns = r.event_ns;
	return 0;
}

void gpio_sim_history_hold(bool hold)
{
	pthread_mutex_lock(&sim.out.mu);
	sim.out.hold = hold;
	if (sim.out.cv_ready)
		pthread_cond_broadcast(&sim.out.cv);
	pthread_mutex_unlock(&sim.out.mu);
}

uint64_t gpio_sim_history_pending(void)
{
	uint64_t n = 0;
	int k;

	if (!sim.out.f)
		return 0;
	for (k = 0; k < SIM_R_N; k++)
		n += atomic_load(&sim.ring[k].count) - atomic_load(&sim.out.next[k]);
	return n;
}

int gpio_sim_history_error(char *err, size_t errlen)
{
	if (!sim.history_err[0])
		return 0;
	snprintf(err, errlen, "%s", sim.history_err);
	errno = EIO;
	return -1;
}
