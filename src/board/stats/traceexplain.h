/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a saved --break trace shows: the late wake-up of the marked edge
 * explained in one sentence (who held the CPU, how late the interrupt or,
 * for respond, the event's waker came, or that the event queued). */
#ifndef SQW_TRACEEXPLAIN_H
#define SQW_TRACEEXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum traceexplain_kind {
	TRACEEXPLAIN_UNKNOWN = 0,     /* the trace does not say; .text gives the reason */
	TRACEEXPLAIN_HELD_BY,         /* woken, but a lower-priority task kept the CPU */
	TRACEEXPLAIN_PREEMPTED_BY,    /* woken, but a task of higher or equal priority ran */
	TRACEEXPLAIN_LATE_IRQ_IDLE,   /* the timer interrupt came late to an idle CPU */
	TRACEEXPLAIN_LATE_IRQ_BUSY,   /* the timer interrupt came late while a task ran */
	TRACEEXPLAIN_LATE_WAKEUP,     /* respond: the event's wake-up itself came late
				       * (its waker, e.g. the irq thread, ran late) */
	TRACEEXPLAIN_QUEUED,          /* respond: the event waited, sqwave-rt was still
				       * busy (running, or asleep to a pulse's end) */
};

#define TRACEEXPLAIN_COMM 17      /* a kernel comm: 15 characters and a NUL, and one spare */

/*
 * The answer. Times are ns on the trace's clock (mono: the log's); trace
 * timestamps have µs resolution, hrtimer's now/expires ns. Fields the
 * trace did not give are -1 (or "" for strings).
 */
struct traceexplain {
	enum traceexplain_kind kind;
	bool is_trace;                /* at least one ftrace event line was read */
	bool marker;                  /* a sqwave break marker was found */
	uint64_t seq;                 /* the marker's edge number */
	uint64_t intended_ns;         /* the marker's intended time T */
	int64_t marker_value_ns;      /* its wake latency (or width); -1 if absent */
	int rt_pid, rt_prio;          /* sqwave-rt, kernel priority (lower is higher) */
	int cpu;                      /* where sqwave-rt was woken */
	int64_t expires_ns;           /* the late timer's expiry E */
	int64_t irq_ns;               /* its hrtimer_expire_entry now= X */
	int64_t wakeup_ns;            /* sched_wakeup of sqwave-rt */
	int64_t run_ns;               /* sched_switch to it (or its first event) */
	bool run_exact;               /* run_ns is a sched_switch, not its first event */
	int64_t irq_delay_ns;         /* X - E */
	int64_t wake_to_run_ns;       /* run - wakeup */
	int64_t total_ns;             /* run - E */
	/* the task that held the CPU longest between wake-up and run (or, for
	 * a late interrupt, the one the interrupt found running) */
	char holder_comm[TRACEEXPLAIN_COMM];
	int holder_pid, holder_prio;
	char holder_state[8];         /* prev_state when it left the CPU ("D", "R+"), "" if it did not */
	int64_t holder_ns;            /* how long it held the CPU after the wake-up */
	bool holder_nonpreempt;       /* need-resched (N) seen in its task context with
				       * preempt-depth > 0 or irqs off */
	unsigned holders;             /* tasks that ran between wake-up and run */
	unsigned gap_events;          /* events traced on the CPU between E and the interrupt */
	uint64_t lines, bad_lines;    /* lines read, lines that were not trace lines */
	char cause[128];              /* short, one line: "held-by git/18758 ..." */
	char text[640];               /* the sentence, or why the trace does not say */
	/* the tracers the traced kernel offered, from the "# sqwave
	 * available_tracers: ..." line run --break writes at the top of a saved
	 * trace; "" when the trace does not say (saved by another tool) */
	char tracers[256];
	char todo[512];               /* what to do about it, one sentence */
	/* respond breaks (the marker ends with TRACEEXPLAIN_MARKER_EVENT): T is
	 * the event's timestamp; the wake-up of sqwave-rt after it, by whom */
	bool respond;
	int64_t wake_delay_ns;        /* wakeup - T */
	char waker_comm[TRACEEXPLAIN_COMM]; /* the task on the waking CPU ("" unknown) */
	int waker_pid, waker_prio, waker_cpu;
	char waker_irq[40];           /* the hard interrupt it ran in ("" if none) */
	int64_t waker_woken_ns;       /* the waker's own last wake-up before, -1 unknown */
	int64_t waker_run_ns;         /* when it got its CPU, -1 unknown */
	char waker_prev_comm[TRACEEXPLAIN_COMM]; /* who had that CPU before it */
	int waker_prev_pid;
};

/* The stream form, for a trace arriving line by line: fixed state (one
 * allocation in _new), O(1) per line. Not thread-safe; one per reader. */
struct traceexplain_stream;

struct traceexplain_stream *traceexplain_stream_new(void);
/* One line of the trace text, with or without its newline; any bytes. */
void traceexplain_line(struct traceexplain_stream *s, const char *line, size_t len);
/* The explanation of the LAST marker seen (or UNKNOWN with the reason). */
void traceexplain_stream_end(const struct traceexplain_stream *s, struct traceexplain *out);
void traceexplain_stream_free(struct traceexplain_stream *s);

/* A whole trace in memory (tests): lines split at '\n'. */
void traceexplain_text(const char *text, size_t len, struct traceexplain *out);

/*
 * Read the trace file @path streaming (bounded memory whatever its size or
 * content) and explain it into @out. 0 with @out filled (kind may be
 * UNKNOWN; out->is_trace false: not an ftrace text), -1 on an I/O error
 * (open/read), -2 when @path is a directory or a device (bad input), with
 * the reason in @err. A FIFO or pipe is read as a stream; "-" is standard
 * input (a terminal there is refused, -2). Never prints.
 */
int traceexplain_file(const char *path, struct traceexplain *out, char *err, size_t errlen);

/* "held-by", "preempted-by", "late-irq-idle", "late-irq-busy",
 * "late-wakeup", "queued", "unknown". */
const char *traceexplain_kind_name(enum traceexplain_kind k);
/* The header line a saved trace starts with to say which tracers its
 * kernel offered (run --break writes it; traceexplain reads it). */
#define TRACEEXPLAIN_TRACERS_LINE "# sqwave available_tracers:"
/* What ends the marker of a respond break (run/tracebreak.c writes it):
 * T is an input event's kernel timestamp and sqwave-rt was to be woken by
 * that event, not by its timerfd. A marker without it is a run's. */
#define TRACEEXPLAIN_MARKER_EVENT "; respond: T is an input event"

/* A kernel priority as sched_switch prints it (prio=9: lower is higher) in
 * the words chrt and the board file use: "RT priority 90" (0..98: 99 - prio),
 * "normal, nice 0" (100..139), "priority unknown" (< 0), else "kernel
 * prio N". Into @buf; returns @buf. */
const char *traceexplain_prio_words(int kprio, char *buf, size_t len);

#endif
