/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hardware-noise step of `sqwave check`: the kernel's hwlat tracer for
 * a while (largest gap, crossings of the threshold, their MTBF) and the SMI
 * count of x86 before and after, judged against the run's half period. */
#ifndef SQW_CHECK_NOISE_H
#define SQW_CHECK_NOISE_H

#include <stdbool.h>
#include <stdint.h>

#include "check/check.h"

/* hwlatdetect's and the kernel's defaults: a 1 s window, 0.5 s of it spent
 * spinning with interrupts off, gaps above 10 us recorded. */
#define NOISE_HWLAT_WINDOW_US 1000000u
#define NOISE_HWLAT_WIDTH_US 500000u
#define NOISE_HWLAT_THRESHOLD_NS INT64_C(10000)
#define NOISE_HWLAT_DEFAULT_NS INT64_C(10000000000)   /* check --hwlat: 10 s */

/* One sample of the hwlat tracer, one line of tracefs's "trace". */
struct hwlat_sample {
	unsigned seq;              /* "#N", since the tracer started */
	int cpu;                   /* "[001]": where it was taken; -1 unknown */
	uint64_t inner_us;         /* the gap between two clock reads */
	uint64_t outer_us;         /* the gap between two read pairs */
	int64_t ts_sec, ts_nsec;   /* "ts:": wall time of the sample */
	int count;                 /* "count:" (kernels since 5.14): crossings
				    * in the sample; -1 where not printed */
	uint64_t nmi_total_us;     /* "nmi-total:" (0 where not printed) */
	unsigned nmi_count;        /* "nmi-count:" (0 where not printed) */
};

/* Parse one line of "trace" as the kernel's trace_hwlat_print() writes it
 * (4.9 up: "#5  inner/outer(us):   12/14  ts:1700000000.123456789",
 * with " count:3" since 5.14, " nmi-total:N nmi-count:N" when NMIs came).
 * 1 a sample, 0 anything else (a header line, another event). Pure. */
int hwlat_parse_line(const char *line, struct hwlat_sample *s);

/* What a run's samples add up to. Zero it before the first add. */
struct hwlat_stats {
	uint64_t samples;          /* sample lines */
	uint64_t crossings;        /* threshold crossings: the sum of "count:",
				    * or one a sample where a sample has none
				    * (as hwlatdetect counts) */
	uint64_t max_inner_us, max_outer_us;
	uint64_t max_gap_us;       /* the larger of the two, over all samples */
	int max_cpu;               /* the CPU of the largest gap (-1 unknown) */
	unsigned max_seq;          /* and its sample number */
	uint64_t nmis;             /* NMIs inside samples */
};
void hwlat_stats_add(struct hwlat_stats *st, const struct hwlat_sample *s);

/* Mean time between threshold crossings over @run_ns of wall time (as
 * hwlatdetect reports it): @run_ns / crossings; 0 when none crossed. */
int64_t hwlat_mtbf_ns(const struct hwlat_stats *st, int64_t run_ns);

/* What the step found, for the JSON report. */
struct check_noise_result {
	bool tracer_known;         /* available_tracers was read */
	bool has_hwlat;            /* and lists hwlat */
	bool ran;                  /* the tracer ran and its trace was read */
	int64_t run_ns;            /* how long it ran (wall time) */
	int64_t threshold_ns;
	struct hwlat_stats st;
	int64_t mtbf_ns;
	bool smi_known;            /* MSR_SMI_COUNT read on every online CPU */
	bool smi_delta;            /* before and after the hwlat run */
	uint64_t smi_since_boot;   /* the largest count of one CPU */
	uint64_t smi_during;       /* the largest increase on one CPU */
	int smi_cpus;
};

struct check_noise_params {
	const char *root;          /* "/" live; a fake tree in tests */
	bool tree;                 /* @root is a copied tree: nothing is run or opened */
	const char *tracefs;       /* NULL: @root's sys/kernel/tracing, else its
				    * sys/kernel/debug/tracing (tests: a dir) */
	int64_t hwlat_ns;          /* run the tracer this long; 0: not run */
	int64_t threshold_ns;      /* tracing_thresh for the run (>= 1 us) */
	/* The nominal widths of the run's pulses (each line's pin: high and
	 * low, the half period of a 50 % wave): the shortest and the longest */
	int64_t short_ns, long_ns;
	int64_t tmin_ns, tmax_ns, wake_max_ns, width_error_ns; /* limits.*; 0: unset */
	/* Called while the tracer runs, with the tracefs directory (tests look
	 * at the settings there); NULL: none. */
	void (*running)(void *ctx, const char *tracefs);
	void *running_ctx;
	struct check_noise_result *out; /* filled when not NULL */
};

/*
 * The noise.hwlat and noise.smi findings into @r. With @p->hwlat_ns: set
 * hwlat_detector/{width,window}, tracing_thresh, tracing_on and
 * current_tracer=hwlat in the top-level tracefs (the tracer's knobs are
 * global), wait (SIGINT, SIGTERM, SIGHUP and SIGQUIT end the wait early:
 * the report is then incomplete), read "trace", and put back every setting
 * it changed, on every path. Refuses to touch tracefs when another tracer
 * is in use. Reads host.hypervisor from @r (check_sys_all() first): in a
 * virtual machine the gaps are said to be the hypervisor's. Main thread.
 */
void check_noise(struct check_report *r, const struct check_noise_params *p);

#endif
