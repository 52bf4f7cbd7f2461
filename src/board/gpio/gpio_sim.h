/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulated GPIO chip, seen from tests: line state, the write history,
 * one-shot error injection, the loopback wire, the stimulus schedule, the
 * events a full queue dropped and the history file. Open it with
 * gpio_out_open() / gpio_in_open() and GPIO_BACKEND_SIM. */
#ifndef SQW_GPIO_SIM_H
#define SQW_GPIO_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpio/gpio_in.h"
#include "gpio/gpio_out.h"

/*
 * There is one simulated chip per process. Each open on the sim backend
 * (re)configures it from the spec's configuration (sim.num_lines,
 * sim.chip_label, sim.busy_line/busy_consumer, sim.write_cost, sim.wire_*,
 * sim.stim_* (kept while a stimulus runs), sim.history_file; the defaults
 * without one); which lines sqwave has requested, their levels and the
 * histories survive until gpio_sim_reset().
 *
 * The chip is named GPIO_SIM_CHIP_NAME, lives at GPIO_SIM_CHIP_PATH (nothing
 * is opened there), is labelled sim_chip_label (GPIO_SIM_DEFAULT_LABEL if
 * unset) and also answers to GPIO_SIM_CHIP_ALIAS or an empty gpio.chip.
 * Line k is named "SIM<k>", except that with 4 or more lines the last two are
 * both named GPIO_SIM_DUP_NAME, so that ambiguity can be tested.
 */
#define GPIO_SIM_MAX_LINES     1024   /* as sim.num_lines allows (config.c) */
/* Writes, stimulus changes, wire events and dropped events kept in memory;
 * older ones are overwritten. The history file has no such limit: its
 * writer thread streams them while the run lasts, and needs to fall this
 * far behind (a second of writes at 64 kHz, of changes at 16 kHz) to lose
 * one. Kept small: a run locks them in memory (mlockall), which takes
 * longer the more there is. */
#define GPIO_SIM_HISTORY       65536
#define GPIO_SIM_STIM_HISTORY  16384
#define GPIO_SIM_WIRE_HISTORY  16384
#define GPIO_SIM_DROP_HISTORY  16384
#define GPIO_SIM_CHIP_NAME     "gpiochip0"
#define GPIO_SIM_CHIP_PATH     "/dev/gpiochip0"
#define GPIO_SIM_CHIP_ALIAS    "sim"
#define GPIO_SIM_DEFAULT_LABEL "gpio-sim"
#define GPIO_SIM_DUP_NAME      "SIMDUP"
#define GPIO_SIM_MAX_WRITE_COST_NS 100000000 /* 100 ms */
#define GPIO_SIM_EVENTS        1024   /* events queued for the input, as the
				       * kernel's largest v2 buffer */

/*
 * The wire. sim.wire_line names the line the output is wired to (-1: none).
 * The output is the first line requested as one (a group's first line)
 * while it is held; the writes of other output lines do not reach the wire,
 * so that its queue keeps a single producer when outputs are written from
 * several threads. Every level change of the output (physical) reaches that line; if it is
 * requested as an input with edges, it gets an edge event stamped at the
 * write's time + sim.wire_delay + a uniform 0..sim.wire_jitter (and readable
 * from that time on, not before), with the line's next sequence number,
 * unless it is edge number sim.wire_lose (0 = the first since the output
 * was requested), which the wire loses (no event, no sequence number: the
 * kernel never saw it). So: not wired (-1), wired to another line than the
 * input, a lost edge, a slow reader, all without hardware. One input with
 * edges at a time. Every change the wire carries is a record
 * (gpio_sim_wire_get()): its write, the event's stamp and number, or why
 * there is none.
 *
 * The queue. GPIO_SIM_EVENTS events, whatever their source (wire,
 * stimulus, gpio_sim_line_drive()). A new event is always queued: when the
 * queue is full its oldest event is pushed out first, as the v2 uAPI does
 * (gpiolib-cdev.c, linereq_put_event(), since Linux 5.10), so that a reader
 * of sequence numbers sees every loss as a gap before an event it reads,
 * also at the end of a run. Each event pushed out is a record
 * (gpio_sim_drop_get(), "drop" rows): its number and stamp; its stimulus
 * change or wire record, final before, still says it was queued. The v1
 * uAPI of libgpiod 1.6 (lineevent_irq_thread()) would instead drop the
 * newest events of its 16-event queue and number none, so the gpiod1
 * backend (gpio_in_has_seqno() false) cannot count a loss at all.
 *
 * The input's spec applies to every source of its events (wire, stimulus,
 * gpio_sim_line_drive()): a level change the edge choice skips is no event
 * and spends no sequence number; GPIO_CLOCK_REALTIME stamps are the
 * monotonic time plus CLOCK_REALTIME - CLOCK_MONOTONIC read once at the
 * request (readable from the monotonic time on); GPIO_CLOCK_HTE is refused
 * (ENOTSUP: the sim has no timestamp engine); a debounce is refused
 * (ENOTSUP) except on the stimulated line, the only one it is modelled on.
 *
 * The stimulus. When sim.stim_line >= 0 and that line is requested as an
 * input with edges, a thread of the sim (started at the request, stopped
 * and joined at the release; not RT, all signals blocked) toggles its level:
 * stimulus edge k (0, 1, ...) is due at t0 + k * sim.stim_period + a
 * uniform 0..sim.stim_jitter, never before the previous one was due, t0 =
 * the request's time + one period, for sim.stim_count edges (0: until the
 * release). Each edge is followed by sim.stim_bounce bounces: the level goes
 * back and forth, due sim.stim_bounce_gap apart (2 * stim_bounce more
 * changes), ending at the edge's new level. The thread sleeps until a change
 * is due, sets the level and then reads the clock: a change's time (t_ns)
 * is when the level actually changed, at or after it was due (due_ns), later
 * when the thread woke late (a busy machine), as a scope would see it.
 * Every level change is one record of the stimulus history
 * (gpio_sim_stim_get()).
 * Without debounce every change the edge choice takes is an event stamped at
 * its time (after the change, never before), queued when it happens. With
 * debounce D the sim does what the kernel's gpiolib-cdev does in software
 * (debounce_irq_handler re-arms a delayed work per interrupt,
 * debounce_work_func reads the level): a change re-arms a timer to its
 * actual time + D. The timer runs out when the next change comes at or
 * after that time (a change exactly at the expiry comes after it), or, for
 * the last change, when the thread saw it run out before the release
 * stopped it (else it is pending): the level then is compared with the last one
 * reported (at first the level at the request); a different level becomes
 * the new one reported and, if the edge choice takes it, an event stamped
 * at the expiry (the change's t_ns + D), recorded on that change. This is
 * decided on the recorded times alone, however late the thread woke: the
 * record explains every event. So a debounce longer than the bounces' span
 * gives one event per stimulus edge, stamped D after its last change. A
 * timer pending at the release is never reported: its change is recorded
 * "pending". The stimulus works with or without the wire; sim.stim_line
 * may not be sim.wire_line.
 *
 * The history file. When sim.history_file is set, the first request of a
 * line opens it and starts a writer thread of the sim (not RT, all signals
 * blocked) that streams every record into it while lines are held, one
 * pass every 20 ms; the release of the last line sqwave holds on the chip
 * (the output, an input: whichever goes last) stops it, writes the rest and
 * an "end" row, and closes the file: the file is complete after that
 * release, however long the run. The writers (the RT threads, the stimulus)
 * only fill the in-memory rings: no lock, no allocation, no I/O. A writer
 * thread that falls more than GPIO_SIM_HISTORY records behind loses the
 * records overwritten before it read them: the file says so (a "gap" row
 * where they were, "incomplete" in the end row) and the release keeps that
 * as an error. A failure (cannot open, cannot write) is kept, the first
 * one, for gpio_sim_history_error(), since a request or a release has no
 * message buffer. The file holds every record since gpio_sim_reset(): a
 * later first request with the same sim.history_file appends to it.
 *
 * Its rows (CSV; the first six columns as before the streaming writer, so
 * that readers of them still read the file; readers skip kinds they do not
 * know):
 *   kind,t_ns,offset,level,value_or_reported,seqno_or_call,event_ns,due_ns_or_call,note
 *   write,T,LINE,LEVEL,VALUE,CALL,,,        a line written (struct gpio_sim_write)
 *   stim,T,LINE,LEVEL,REPORTED,SEQNO,EVENT,DUE,edge|bounce[ pending]
 *                                          a stimulus change (struct gpio_sim_stim);
 *                                          EVENT empty without an event
 *   wire,T,LINE,VALUE,QUEUED,SEQNO,EVENT,CALL,queued|lost|skipped|unheard
 *                                          a change the wire carried (struct gpio_sim_wire)
 *   drop,T,LINE,RISING,0,SEQNO,EVENT,,evicted
 *                                          a queued event a full queue pushed out
 *                                          (struct gpio_sim_drop): the stim or wire
 *                                          row of that SEQNO and EVENT was not read
 *   gap,T,,,,N,,,KIND                       N records of KIND lost before written
 *   end,T,,,COMPLETE,ROWS,,,complete|incomplete
 *                                          the last row of each stretch the chip was
 *                                          held: COMPLETE 1 when no gap came before it
 * Times are CLOCK_MONOTONIC ns; rows of one kind are in their order, the
 * kinds interleaved as the writer thread found them.
 */

/* One line written (gpio_out_set(), the idle level written by
 * gpio_out_close(), each line of a gpio_group_set() mask and of the idle
 * levels gpio_group_close() writes). Requesting a line sets its level
 * without a write record. A group's call gives one record per line of its
 * mask, consecutive, with the same t_ns and call. */
struct gpio_sim_write {
	int64_t t_ns;          /* CLOCK_MONOTONIC when the level took effect,
				* i.e. after the modelled write cost (one per call) */
	unsigned int offset;
	int level;             /* logical, as passed to gpio_out_set() */
	int value;             /* physical: level, inverted if active-low */
	uint64_t call;         /* the set call that wrote it (0 = the first since
				* reset): a single line's write has one of its own */
};

/* One level change of the stimulus, in the history once final (without
 * debounce at once; with debounce when its timer ran out, the next change
 * re-armed it, or the release found it pending). */
struct gpio_sim_stim {
	int64_t t_ns;          /* CLOCK_MONOTONIC: when the level changed (read
				* just after it did) */
	int64_t due_ns;        /* when the schedule had it due (<= t_ns) */
	unsigned int offset;   /* sim.stim_line */
	int level;             /* physical, after the change */
	bool reported;         /* an event for it was queued for the reader (a
				* full queue may push it out later: a
				* gpio_sim_drop with its seqno says so) */
	uint64_t seqno;        /* that event's sequence number; 0: no event */
	int64_t event_ns;      /* that event's stamp (CLOCK_MONOTONIC): t_ns
				* without debounce, t_ns + D with it; 0: no
				* event */
	bool bounce;           /* a bounce step, not the edge itself */
	bool pending;          /* its debounce timer was pending at the release */
};

/* What became of a change the wire carried. */
enum gpio_sim_wire_fate {
	GPIO_SIM_WIRE_QUEUED,  /* an event, queued for the input (a full queue
				* may push it out later: gpio_sim_drop) */
	GPIO_SIM_WIRE_LOST,    /* sim.wire_lose: no event, no sequence number */
	GPIO_SIM_WIRE_SKIPPED, /* the input's edge choice takes no such edge */
	GPIO_SIM_WIRE_UNHEARD, /* the wired line is not the input with edges */
};

/* One level change the wire carried to sim.wire_line. */
struct gpio_sim_wire {
	int64_t t_ns;          /* CLOCK_MONOTONIC: the write's time (the wire
				* changed with the output) */
	uint64_t call;         /* the set call that wrote it (gpio_sim_write) */
	unsigned int offset;   /* sim.wire_line */
	int value;             /* the wired line's level after it */
	enum gpio_sim_wire_fate fate;
	uint64_t seqno;        /* the event's sequence number (0: none) */
	int64_t event_ns;      /* its stamp: t_ns + the wire's delay (0: none) */
};

/* One queued event a full queue pushed out to make room for a new one:
 * the reader never gets it, and sees its number missing. */
struct gpio_sim_drop {
	int64_t t_ns;          /* CLOCK_MONOTONIC: the new event's stamp, when
				* it pushed this one out */
	unsigned int offset;   /* the input's line */
	int rising;            /* the dropped event's type */
	uint64_t seqno;        /* its sequence number */
	int64_t event_ns;      /* its stamp (CLOCK_MONOTONIC): that of its
				* stimulus change's or wire change's event */
};

/* One line now. */
struct gpio_sim_line {
	int value;             /* physical level (what a scope would see) */
	bool requested;        /* held by a gpio_out (not the sim's busy holder) */
	bool active_low;       /* as requested */
	enum gpio_drive drive; /* as requested */
	char consumer[32];     /* of the request; "" if not requested */
};

/* Forget everything: requests, levels, histories, pending errors. Do not call
 * while a sim gpio_out or gpio_in is open. Not thread-safe. */
void gpio_sim_reset(void);

/* State of line @offset. Returns 0, or -1 (EINVAL) if @offset is beyond
 * GPIO_SIM_MAX_LINES. Safe from any thread; may be torn while a write runs. */
int gpio_sim_line_get(unsigned int offset, struct gpio_sim_line *line);

/* Writes since the last reset, including those the history has overwritten:
 * every record up to it is whole. Outputs of different lines (a gpio_out
 * each, or groups) may be written from as many threads at once: each write
 * takes its records' numbers atomically and no record is torn or lost; the
 * count moves past a record once every earlier one is whole. Safe from any
 * thread. */
uint64_t gpio_sim_write_count(void);

/* Write number @seq (0 = first since reset). Returns 0, or -1 with errno
 * ENOENT if it has not happened yet or was overwritten (seq < count -
 * GPIO_SIM_HISTORY). Safe from any thread. */
int gpio_sim_write_get(uint64_t seq, struct gpio_sim_write *w);

/* One-shot failures with errno @err (0 cancels): the next chip open (scan or
 * path), the next line request, the next write. Main thread; the write one
 * is an atomic flag and may be armed while the RT thread runs. */
void gpio_sim_fail_next_open(int err);
void gpio_sim_fail_next_request(int err);
void gpio_sim_fail_next_write(int err);

/* Something outside drives line @offset (not requested as an output) to
 * @value: its level changes and, if it is the input with edges, an event
 * stamped @t_ns is queued. For tests of an input that toggles on its own.
 * Main thread; not while an output write may run. 0, or -1 (EINVAL). */
int gpio_sim_line_drive(unsigned int offset, int value, uint64_t t_ns);

/* Stimulus changes since the stimulated input's request (counted from
 * there), including those the history has overwritten. Any thread. */
uint64_t gpio_sim_stim_count(void);

/* Stimulus change @n (0 = first). 0, or -1 with errno ENOENT (not yet, or
 * overwritten). Any thread; final after the release. */
int gpio_sim_stim_get(uint64_t n, struct gpio_sim_stim *s);

/* Whether the stimulus has run out of its sim.stim_count edges (and of the
 * debounce timer after the last). Any thread. */
bool gpio_sim_stim_finished(void);

/* Hold the stimulus thread (true) before its next change or debounce
 * expiry, however late that makes it, until let go (false): a test's way
 * to make it late without assuming how fast it runs. Main thread;
 * gpio_sim_reset() lets it go. */
void gpio_sim_stim_hold(bool hold);

/* Changes the wire carried since the last reset, including those the
 * history has overwritten. Any thread. */
uint64_t gpio_sim_wire_count(void);

/* Wire change @n (0 = first). 0, or -1 with errno ENOENT (not yet, or
 * overwritten). Any thread. */
int gpio_sim_wire_get(uint64_t n, struct gpio_sim_wire *w);

/* Events full queues pushed out since the last reset, including those
 * the history has overwritten. Any thread. */
uint64_t gpio_sim_drop_count(void);

/* Dropped event @n (0 = first). 0, or -1 with errno ENOENT (not yet, or
 * overwritten). Any thread. */
int gpio_sim_drop_get(uint64_t n, struct gpio_sim_drop *d);

/* Hold the history file's writer thread (true) so that it writes nothing,
 * however far behind that leaves it, until let go (false) or stopped by
 * the last release: a test's way to make it fall behind. Main thread;
 * gpio_sim_reset() lets it go. */
void gpio_sim_history_hold(bool hold);

/* Records made but not yet in the history file (0 when no file is open).
 * Any thread. */
uint64_t gpio_sim_history_pending(void);

/* The first failure of the history file (cannot open or write it, records
 * lost before they were written): 0 (none), or -1 with its sentence in
 * @err. Cleared by gpio_sim_reset(). */
int gpio_sim_history_error(char *err, size_t errlen);

#endif
