/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The description of a run that its verdict and its summary read: where it
 * ran, how it ended, its phases and their loads' proof. Filled by the run
 * (and soak.c for the phases), or rebuilt from a log (analyze, soakview);
 * plain data, every pointer owned by whoever filled it. */
#ifndef SQW_RUNINFO_H
#define SQW_RUNINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/clocksync.h"
#include "base/sysinfo.h"
#include "base/wave.h"
#include "log/pin.h"

struct cpuidle_hold;
struct edgestats;
struct phasestats;
struct proof_phase;
struct proof_req;
struct tracebreak_hit;

/* One phase of a run (soak.c fills all but stats). */
struct run_phase {
	const char *name;
	int64_t start_off_ns;          /* from the end of the warm-up */
	int64_t duration_ns;           /* 0: open-ended */
	const struct edgestats *stats; /* the phase's edges */
	const struct proof_phase *proof;
	const struct proof_req *reqs;  /* what its loads had to show */
	size_t nreqs;
	const char *const *load_specs; /* each load in the --load form */
	size_t nloads;
	bool sampled;                  /* proof-of-load samples were taken */
	bool advisory;                 /* its proof is shown, not judged (a run without
					* loads: nothing asked for a comparison) */
	bool gaps_known;               /* max_gap_ns measured (the phase was reached) */
	uint64_t max_gap_ns;           /* longest stretch without a reading */
	uint64_t gap_bound_ns;         /* above it: "proof incomplete" */
};

struct loopstats_result;
struct tlatstats_result;

/* rt.timer timerlat: the tracer's samples of the counted activations
 * (run/tlatrun.h); every latency -1 when there was none. */
struct run_timerlat {
	uint64_t activations;      /* counted activations the tracer sampled */
	uint64_t with_irq, with_thread;
	uint64_t lines_unparsed;   /* trace lines that were not samples */
	uint64_t kernel_lost;      /* the tracer's own "LOST EVENTS" marks */
	int64_t irq_p50_ns, irq_p99_ns, irq_max_ns;
	int64_t thread_p50_ns, thread_p99_ns, thread_max_ns;
	uint64_t worst_intended_ns;  /* the activation with the largest thread latency */
	int64_t worst_irq_ns;        /* its IRQ part (-1: no IRQ sample) */
	int64_t origin_slack_ns;     /* how far before the kernel's expiries the
				      * grid may lie (the trace's resolution) */
};

/*
 * grid.clock realtime or tai (docs/grid.md): slot 0 on a clock that other
 * boards share, and what that clock did during the run. The wave itself runs
 * on CLOCK_MONOTONIC at the offset measured at setup; a step of the grid
 * clock moves the shared grid away from the wave, and is counted here.
 */
struct run_grid {
	const char *clock;            /* "realtime", "tai" */
	uint64_t align_ns;            /* grid.align; 0: grid.start gave the time */
	uint64_t start_ns;            /* slot 0, on that clock */
	int64_t offset_ns;            /* that clock - CLOCK_MONOTONIC at setup */
	uint64_t offset_uncert_ns;    /* the offset is right within +/- this */
	bool sync_known;              /* adjtimex read at setup */
	struct clocksync_state sync;  /* the kernel's sync state at setup */
	unsigned sets;                /* the kernel said the clock was set */
	unsigned steps;               /* ... and it moved (or it moved unnoticed) */
	int64_t step_sum_ns;          /* what the steps added up to */
	int64_t step_largest_ns;      /* the largest one, signed */
	uint64_t step_first_ns;       /* CLOCK_MONOTONIC of the first (0: none) */
	bool end_known;               /* the offset read again at the end */
	int64_t end_offset_ns;
};

struct run_info {
	/* run --scope (run/session.h, params.instrument): the instrument's
	 * notes as logged, "key=value" lines, [0] at the setup, [1] at the
	 * read; NULL: none. Owned by the session. */
	char *instrument_note[2];
	const char *board_file;
	const char *profile_file;     /* NULL if none */
	const char *log_path;
	const char *gpio_desc;        /* gpio_out_describe() */
	/* A run of several lines (docs/lines.md): this description is line
	 * line_index's (0-based) of line_count, gpio.line's line_name, written
	 * lines_mode ("together" or "per-cpu"). line_count 0 or 1: one line. */
	size_t line_count, line_index;
	const char *line_name;
	const char *lines_mode;
	/* what this line's pin should do (log/pin.h): its kind, its own wave
	 * (run.line_* or run.*), its nominal widths, the input it answers */
	struct pin pin;
	struct sysinfo_host host;     /* kernel, PREEMPT_RT, cmdline, cpu model */
	bool rt_ok;                   /* SCHED_FIFO + mlockall in force */
	const char *non_rt_reason;    /* why not, when !rt_ok (--allow-non-rt) */
	uint64_t start_realtime_ns, end_realtime_ns;
	uint64_t records_logged;
	uint64_t dropped;             /* ring overflow */
	uint64_t write_errors;
	/* RT thread, measured part only (after warm-up) */
	long minflt, majflt, nivcsw;
	int stop_reason;              /* enum edgelog_stop */
	int stop_signal;              /* signal number when stopped by one */
	bool log_error;               /* log I/O failed (ENOSPC...) */
	/* the soak: phases and their loads (nphases 0: a plain run) */
	const char *label;            /* run.label, "" if none */
	const char *containment;      /* how loads were held; "" without loads */
	size_t nphases;
	const struct run_phase *phases;
	/* their statistics, phase i of phases[i]: what each one ran (NULL:
	 * the planned lengths are shown) */
	const struct phasestats *phasestats;
	int min_busy_pct;             /* proof.min_busy */
	/* the proof of a run without phases in phases[] (its one implicit
	 * phase), for the run-level "proof"; NULL: phases[] or none */
	const struct run_phase *run_proof;
	const char *sampler_sched;    /* soak_sampler_sched(); NULL: unknown (a log) */
	/* --break: traces saved, the first one */
	unsigned breaks;
	char break_text[1024];        /* with what the trace shows, when explained */
	char break_cause[128];        /* short cause ("" if none, or an old log) */
	char break_trace[4200];
	struct tracebreak_hit *break_hits; /* every break handled, in order (owned by the caller) */
	size_t nbreak_hits;
	/* run.spin: the lead the RT thread armed its wake-ups with (0: off);
	 * with auto, the lead at the end and the range it took */
	bool spin_auto;
	int64_t spin_lead_ns, spin_lead_min_ns, spin_lead_max_ns;
	uint64_t spin_rearms;         /* auto: times the lead changed */
	/* sqwave respond: the input answered ("" in a run of the wave), the
	 * answer's mode and, from respond.irq_bound, how long an input edge may
	 * take to its kernel timestamp (0: not known, no upper bound) */
	bool respond;
	const char *input_desc;
	const char *respond_mode;     /* "follow", "toggle", "pulse" */
	const char *respond_edge;     /* "both", "rising", "falling" */
	int64_t respond_pulse_ns;
	int64_t debounce_ns, warmup_ns;
	int64_t irq_bound_ns;
	const char *event_clock;      /* "monotonic", "realtime", "hte" */
	/* respond, read back from a log: its note at the stop (docs/log-format.md),
	 * the RT loop's counts then (the run puts them in its statistics
	 * itself: edgestats_respond_end()); respond_end false: none */
	bool respond_end;
	uint64_t resp_lost, resp_lost_warmup, resp_unanswered;
	int rt_cpu;                   /* rt.cpu, -1 when not pinned */
	/* rt.idle_state: what was disabled and restored, read back (NULL:
	 * keep, or a log) */
	const struct cpuidle_hold *idle;
	/* idle_own_cpu: the idle states shown are those of idle_cpu alone (the
	 * CPU of this line's RT thread, rt.idle_cpus rt); false: every CPU's */
	bool idle_own_cpu;
	int idle_cpu;
	long rt_runtime_us, rt_period_us; /* RT throttling; runtime -1: none */
	/* run --loopback: the kernel's view of the pin, read back from the
	 * closed log (loopstats.h); NULL: no loopback, or not read. Owned by
	 * whoever set it. */
	const struct loopstats_result *loopback;
	/* rt.timer: timerlat (NULL: the timerfd, or a log) */
	const struct run_timerlat *timerlat;
	/* a timerlat log, read back: each wake-up's split (analysis/tlatstats.h);
	 * NULL: not one, or not read */
	const struct tlatstats_result *timerlat_split;
	/* grid.clock realtime/tai (NULL: slot 0 was placed from now) */
	const struct run_grid *grid;
};

#endif
