/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real-time loop: where the line gets toggled. Wakes on an absolute
 * timerfd (or, rt.timer timerlat, on the kernel's timerlat_fd), writes the
 * line, pushes one edge record into the ring. */
#ifndef SQW_RTLOOP_H
#define SQW_RTLOOP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>

#include "rt/edge.h"
#include "gpio/gpio_out.h"
#include "rt/ring.h"
#include "rt/tracebreak_rt.h"
#include "base/wave.h"

/*
 * One edge: poll() the timerfd, read the clock (wake), read the clock and
 * write the line and read the clock again (write window), then read() the
 * expiration count. The read comes last because reading a periodic timerfd
 * re-arms its hrtimer inside the kernel: done before the write, that cost
 * (a few us under virtualization) delayed every edge (docs/benchmarks.md).
 *
 * Missed-period policy: the timerfd is armed once, absolute, at start_ns
 * (minus the spin lead, below) with the half period as interval; it is never
 * re-armed relative to "now". Each edge is written for the latest slot due
 * when the thread woke (intended = start + slot * half period: the grid
 * keeps its phase). When slots passed without an edge, the next edge's
 * record says how many slots it advanced (expirations = n: n - 1 missed)
 * and they are counted as missed periods, never hidden. The level toggles
 * once per written edge, so every record is a real edge on the pin. At the
 * end (duration reached or stop requested) a line that is not at its idle
 * level gets one more edge, on the next slot, back to idle (flagged
 * EDGE_F_LAST): every transition the pin makes is in the log.
 *
 * Spin mode (lead > 0): the timer fires `lead` before each deadline; the
 * thread then reads the clock in a tight loop until the intended time and
 * writes the edge at once, so the edge lands a clock read after its
 * deadline instead of a wake-up latency after it. A slot is due when its
 * wake-up time (intended - lead) has passed. The record keeps the wake-up
 * time; write_begin is the clock read that ended the spin; every edge is
 * flagged EDGE_F_SPIN. A wake-up at or after the deadline is written at
 * once, counted (late) and flagged EDGE_F_LATE. A spin never lasts longer
 * than the lead. With spin_auto, the lead follows the wake-up latency: the
 * p99.9 of each window of recent edges (1,024 first, then 4,096), plus an
 * eighth and 1 us, capped at spin_max_ns; it grows at once and shrinks when
 * a quarter lower, and each change re-arms the timer (absolute, on the
 * grid) between two edges. All of it in fixed fields: no allocation, no
 * lock, no printing.
 *
 * Duty cycle (wave.high_ns != wave.low_ns, base/wave.h): the slots are no
 * longer evenly spaced, and a periodic timerfd has one interval. The timer
 * is then one-shot and, after each edge's write and read, re-armed
 * ABSOLUTE at the next slot's intended time (next_intended, from the grid,
 * never from "now"; a time already past fires at once). One timerfd and one
 * extra settime per edge, after the write, rather than two periodic
 * timerfds offset by the first segment: those would need a poll over two
 * descriptors, two reads per edge and an order between two timers that
 * fire close together, for no gain in accuracy. The equal-halves path keeps
 * the periodic timer, armed once, untouched. A level belongs to its slot
 * (even slots leave idle), so after a late wake-up the edge goes to the
 * latest due slot whose level the line needs: expirations stays odd and a
 * missed pair of slots is one whole pulse missed, counted (with high +
 * low = 2 x half_ns, missed x half_ns is still the missed time exactly).
 * Duty refuses spin and timerlat (EINVAL): the session says so first.
 */
#define RTLOOP_AUTO_TOP 5         /* p99.9 of 4,096 values is the 5th largest */
#define RTLOOP_AUTO_FIRST 1024
#define RTLOOP_AUTO_WINDOW 4096

struct recorder_bell;

struct rtloop {
	/* Set before rtloop_thread() starts; read-only afterwards. */
	struct gpio_out *gpio;
	struct ring *ring;
	int tfd;                  /* from rtloop_open() */
	int tl_fd;                /* timerlat_fd (RT thread only), -1: none */
	clockid_t clock;          /* CLOCK_MONOTONIC */
	uint64_t start_ns;        /* intended time of slot 0 */
	int64_t half_ns;          /* (high + low) / 2: the mean slot */
	/* high and low (both 0: the half period each); phase_ns is not read
	 * here: start_ns already includes it */
	struct wave wave;
	uint64_t total_slots;     /* slots to run incl. warm-up; 0 = until stopped */
	uint64_t warmup_slots;
	int idle_level;
	size_t stack_prefault;
	int64_t spin_ns;          /* spin lead (0: off); with spin_auto, the first one */
	bool spin_auto;
	int64_t spin_max_ns;      /* spin_auto: the largest lead it may choose */
	struct recorder_bell *bell; /* rung after each push (may be NULL); set before go */
	struct tracebreak_rt *brk;  /* --break: checked after each push (may be NULL) */
	/* rt.timer timerlat (docs/timerlat.md): the kernel's timerlat_fd of
	 * rt.cpu, opened and armed by the RT thread itself (the kernel wants
	 * its one reader pinned there); NULL: the timerfd. */
	const char *tl_path;
	int tl_arm_reads;         /* activations read before the go (>= 1) */

	/* Shared: written by one side, read by the other, all atomic. */
	atomic_bool go;           /* set by the main thread once start_ns is final */
	atomic_bool stop_req;     /* set by the main thread (signal, I/O error) */
	atomic_bool done;         /* set by the RT thread when it has left the loop */
	atomic_uint_fast64_t edges;
	atomic_uint_fast64_t missed;
	atomic_uint_fast64_t write_errors;
	atomic_uint_fast64_t late; /* spin mode: wake-ups at or after the deadline */
	/* timerlat: RTLOOP_TL_* or -errno of the open or an arming read */
	atomic_int tl_state;

	/* Valid once done is set. */
	int error;                /* errno of a failed timerfd read/arm, else 0 */
	struct rusage ru_start;   /* RT thread, at the first measured edge */
	struct rusage ru_end;     /* RT thread, at the end */
	bool ru_started;
	int64_t lead_min_ns, lead_max_ns; /* the leads used (spin mode) */
	uint64_t rearms;          /* spin_auto: lead changes */

	/* RT thread private bookkeeping (rtloop_open() sets duty once). */
	bool duty;                /* wave.high_ns != wave.low_ns: one-shot timer, re-armed */
	uint64_t served;          /* slot of the last edge + 1 (0: none yet) */
	uint64_t next_intended;   /* intended time of slot `served` */
	uint64_t seq;
	int level;
	bool stopping;            /* the next edge is the last one (back to idle) */
	int64_t lead;             /* the spin lead in force (0: off) */
	int64_t lead_next;        /* spin_auto: the lead to re-arm with */
	int64_t last_lat;         /* wake - the first unserved slot's wake-up time */
	uint64_t prev_mid;        /* previous edge's write-window midpoint (0: none) */
	uint32_t win_n, win_size; /* spin_auto: the window */
	int64_t top[RTLOOP_AUTO_TOP]; /* its largest latencies, descending */
};

/* tl_state: the main thread asks for arming once the tracer runs; the RT
 * thread answers armed (the kernel's timer grid has begun) or -errno. */
#define RTLOOP_TL_IDLE 0
#define RTLOOP_TL_ARM 1
#define RTLOOP_TL_ARMED 2

/* The half every RT loop shares (the flags, counters, error, rusage and
 * edge numbering), zeroed; rtloop_open() and respond_open() start with it.
 * Non-RT. */
void rtloop_shared_init(struct rtloop *l);

/* Prepare @l (zeroes the bookkeeping, creates the timerfd). Non-RT. Returns
 * -1 with errno set (EINVAL: a spin lead not below half the half period; a
 * duty cycle whose high + low is not 2 x half_ns, or with spin or timerlat). */
int rtloop_open(struct rtloop *l);
/* rtloop_open() without the timer (tfd -1): a lane of rt/rtgroup.h, whose
 * thread has one timer for every lane. Same checks, same errors. Non-RT. */
int rtloop_prepare(struct rtloop *l);
void rtloop_close(struct rtloop *l);

/* The RT thread's body: pthread start routine, argument a struct rtloop *.
 * It names itself "sqwave-rt", prefaults its stack, then waits for @go (so
 * that the thread, and with it the real-time status, exists before the log
 * header is written), waits for slot 0 (rtloop_wait_until()), arms the
 * timer at start_ns - lead and loops. Set stop_req before go, or before
 * slot 0 is near, to end it without an edge. */
void *rtloop_thread(void *arg);

/* Slot 0 may lie hours ahead (grid.start, grid.align): the RT thread arms
 * its timer RTLOOP_ARM_LEAD_NS before slot 0's wake-up and waits until
 * then in sleeps of at most RTLOOP_START_POLL_NS, so that a stop before
 * slot 0 ends the run at once, with no edge, instead of at slot 0. */
#define RTLOOP_ARM_LEAD_NS 20000000ull     /* 20 ms */
#define RTLOOP_START_POLL_NS 10000000ull   /* 10 ms */

/* Sleep until @clk reads @t (in steps of at most RTLOOP_START_POLL_NS);
 * true as soon as *@stop is set. RT thread, before its loop (it may sleep:
 * nothing there is timed). */
bool rtloop_wait_until(clockid_t clk, uint64_t t, atomic_bool *stop);
/* When to arm for a first wake-up at @first_ns: RTLOOP_ARM_LEAD_NS before
 * it (0 when that is before the clock's epoch). */
static inline uint64_t rtloop_arm_at(uint64_t first_ns)
{
	return first_ns > RTLOOP_ARM_LEAD_NS ? first_ns - RTLOOP_ARM_LEAD_NS : 0;
}

/*
 * Bookkeeping for one edge after a wake-up at @wake_ns: picks the edge's
 * slot (the latest one whose wake-up time, intended - lead, has passed at
 * @wake_ns; never one already served; with a duty cycle the latest such
 * slot of the level the line needs), fills seq, intended time, level,
 * expirations (slots advanced since the previous edge: 1 = on time) and the
 * warm-up flag of @rec, adds the missed periods, and returns the intended
 * time. RT thread only (and unit tests).
 */
uint64_t rtloop_account(struct rtloop *l, uint64_t wake_ns, struct edge_rec *rec);

/*
 * Spin mode, after rtloop_account(): the clock read at which to write the
 * edge. A wake-up at or after @intended_ns returns @wake_ns at once and
 * flags EDGE_F_LATE; otherwise reads l->clock until it reaches
 * @intended_ns, for at most l->lead. Flags EDGE_F_SPIN either way. RT thread
 * only (and unit tests).
 */
uint64_t rtloop_spin(struct rtloop *l, uint64_t wake_ns, uint64_t intended_ns, uint8_t *flags);
/* Where a spin that began at @wake_ns stops: @intended_ns, or one lead after
 * @wake_ns if that comes first. */
uint64_t rtloop_spin_until(const struct rtloop *l, uint64_t wake_ns, uint64_t intended_ns);

/* spin_auto: feed one wake-up latency (l->last_lat); at the end of a
 * window, sets lead_next. RT thread only (and unit tests). */
void rtloop_auto_add(struct rtloop *l, int64_t lat);

/* After rtloop_account and the write: whether this edge ends the run (sets
 * l->stopping when one more edge is needed to return to idle). */
bool rtloop_is_last(struct rtloop *l);

#endif
