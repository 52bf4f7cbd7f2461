/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Proof of load: what the machine did while the loads ran, sampled once a
 * second outside the RT thread (CPU busy per CPU, interrupts and context
 * switches per second, packets per interface, load average), and per phase
 * the judgement "load not applied" when a CPU load left its CPUs idle, a
 * flood did not arrive, a CoreMark gave no valid score or a load was lost.
 * Reads /proc and /sys under a root directory so that tests use fake trees. */
#ifndef SQW_PROOF_H
#define SQW_PROOF_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "loads/load.h"

#define PROOF_MAX_CPUS 256
#define PROOF_MAX_IFS 16
#define PROOF_MAX_LOADS 16
#define PROOF_IFNAME 32
/* The name of a phase's idle requirement (proof_req_idle) */
#define PROOF_IDLE_NAME "no-load"

/* Where a load's own CPU time is read (docs/soak.md): its cgroup v2
 * directory's cpu.stat, or the utime + stime of its processes (the
 * process-group fallback: what a process used between the last reading and
 * its end is lost, so the figure can only come out low). */
enum proof_own_src { PROOF_OWN_NONE, PROOF_OWN_CGROUP2, PROOF_OWN_PROCESSES };
/* "cgroup2", "processes" ("" for none); and back (-1: unknown). */
const char *proof_own_src_name(enum proof_own_src k);
int proof_own_src_parse(const char *name);

#define PROOF_OWN_PGIDS 64
struct proof_own_group {
	char name[64];                 /* the load's name */
	enum proof_own_src src;
	char dir[512];                 /* PROOF_OWN_CGROUP2: the cgroup directory */
	size_t npgids;                 /* PROOF_OWN_PROCESSES: its process groups */
	pid_t pgids[PROOF_OWN_PGIDS];
	unsigned ncpus;                /* CPUs it may run on (0: all of the sample's) */
};

/* One interval between two readings. */
struct proof_sample {
	uint64_t t_ns;                 /* end of the interval (CLOCK_MONOTONIC) */
	uint64_t dt_ns;                /* its length */
	unsigned ncpu;                 /* cpu[] entries: CPU numbers 0..ncpu-1 */
	float busy[PROOF_MAX_CPUS];    /* percent of the time the CPU could run; <0: absent */
	double irq_s, ctxt_s;          /* interrupts, context switches per second */
	double load1;                  /* 1-minute load average at the end */
	size_t nif;
	char ifname[PROOF_MAX_IFS][PROOF_IFNAME];
	double rx_pps[PROOF_MAX_IFS], tx_pps[PROOF_MAX_IFS];
	/* each load's own CPU time: percent of its CPUs' time (<0: absent) */
	size_t nown;
	char own_name[PROOF_MAX_LOADS][64];
	float own_busy[PROOF_MAX_LOADS];
	unsigned char own_src[PROOF_MAX_LOADS];   /* enum proof_own_src */
};

struct proof_sampler;

/* @root: "" for the real system, or a directory holding proc/ and sys/.
 * NULL with a message. Caller frees with proof_sampler_free(). */
struct proof_sampler *proof_sampler_new(const char *root, char *err, size_t errlen);
void proof_sampler_free(struct proof_sampler *s);
/* Sample @iface's packets in every reading, however many interfaces the
 * machine has (a load's proof needs it). -1 when the name is too long or
 * PROOF_MAX_IFS are wanted already. */
int proof_sampler_want(struct proof_sampler *s, const char *iface);
/* The loads whose own CPU time the next readings take (replacing the
 * previous table; a load kept by name keeps its previous reading). Safe to
 * call from another thread than proof_sampler_read()'s. */
void proof_sampler_set_groups(struct proof_sampler *s, const struct proof_own_group *g,
			      size_t n);
/* Read the counters at @now. 1 with @out filled (the interval since the
 * previous read), 0 on the first read, -1 with a message (/proc/stat
 * unreadable). */
int proof_sampler_read(struct proof_sampler *s, uint64_t now, struct proof_sample *out,
		       char *err, size_t errlen);

/* A sample as the text of a log event ("key=value" lines), and back.
 * format returns the length (at most @len - 1); parse returns 0, or -1 when
 * the text is not a sample. */
size_t proof_sample_format(const struct proof_sample *s, char *buf, size_t len);
int proof_sample_parse(const char *text, size_t len, uint64_t t_ns, struct proof_sample *out);

/* What one load must show. */
struct proof_req {
	char name[64];
	enum load_proof kind;
	cpu_set_t cpus;                /* LOAD_PROOF_CPU */
	char iface[PROOF_IFNAME];      /* LOAD_PROOF_NET */
	int64_t min_pps;
	int max_busy;                  /* LOAD_PROOF_IDLE: CPUs at most this % busy */
	bool results;                  /* must give a valid result (CoreMark) */
};
/* From a load; and as the log header's line "KIND|CPUS|IFACE|FIGURE|RESULTS"
 * (FIGURE: min_pps, or max_busy for "idle"; the name as the key's last
 * part), and back. */
void proof_req_from_load(struct proof_req *r, const struct load *l);
/* A phase without loads in a run with loads: its idle baseline is only one
 * if @cpus (where the loads would run) were at most @max_busy % busy. */
void proof_req_idle(struct proof_req *r, const cpu_set_t *cpus, int max_busy);
size_t proof_req_format(const struct proof_req *r, char *buf, size_t len);
int proof_req_parse(struct proof_req *r, const char *name, const char *text);

struct proof_load_stat {
	char name[64];
	uint64_t valid, invalid;       /* results */
	double score_sum, score_last;
	char invalid_why[96];
	bool lost;
	uint64_t lost_t_ns;
	char lost_why[160];
	uint64_t restarts, kills;
	double own_sum;                /* own CPU time, percent of its CPUs */
	uint64_t own_n;
	unsigned char own_src;         /* enum proof_own_src of the last sample */
};

/* Everything one phase showed. Zero it to start. */
struct proof_phase {
	uint64_t samples;
	double busy_sum[PROOF_MAX_CPUS];
	uint64_t busy_n[PROOF_MAX_CPUS];
	double irq_sum, ctxt_sum, load1_sum;
	size_t nif;
	char ifname[PROOF_MAX_IFS][PROOF_IFNAME];
	double pps_sum[PROOF_MAX_IFS];  /* rx + tx */
	uint64_t pps_n[PROOF_MAX_IFS];
	size_t nloads;
	struct proof_load_stat loads[PROOF_MAX_LOADS];
	/* Coverage (CLOCK_MONOTONIC, absolute): where the first counted
	 * interval began (0: none yet), where the last ended, and the longest
	 * time between two readings of one interval or between two intervals
	 * (a sample lost on the way) */
	uint64_t first_from_ns, last_t_ns, max_gap_ns;
};

/* A phase's proof has a gap when no reading came for longer than this
 * many proof.interval: "proof incomplete" (docs/soak.md). */
#define PROOF_GAP_INTERVALS 2

void proof_phase_add_sample(struct proof_phase *p, const struct proof_sample *s);
/* The stat of the load @name in @p (made on first use); NULL if full. */
struct proof_load_stat *proof_phase_load(struct proof_phase *p, const char *name);
void proof_phase_add_result(struct proof_phase *p, const char *load, const struct load_result *r);
/* The longest stretch of [@start_ns, @end_ns) without a reading at each
 * end: the longest gap of proof_phase_add_sample() and the stretches before
 * the first counted interval and after the last; @end_ns - @start_ns
 * without samples. */
uint64_t proof_phase_max_gap(const struct proof_phase *p, uint64_t start_ns, uint64_t end_ns);
/* "proof incomplete: ..." appended to @why (within @len) when @gap_ns is
 * above @bound_ns; returns 1 then, else 0. */
int proof_gap_judge(uint64_t gap_ns, uint64_t bound_ns, char *why, size_t len);
/* Mean busy percent of @cpus over the phase; -1 without samples. */
double proof_phase_busy(const struct proof_phase *p, const cpu_set_t *cpus);
/* Mean own CPU time of the load @name (percent of its CPUs), with its
 * source into *@src (may be NULL); -1 when no sample had it (an older log). */
double proof_phase_own(const struct proof_phase *p, const char *name, enum proof_own_src *src);
/* Mean rx + tx packets/s of @iface; -1 without samples of it. */
double proof_phase_pps(const struct proof_phase *p, const char *iface);

/*
 * Judge a phase whose loads had @reqs: each failure appends one line
 * "load not applied: ..." to @why (NUL-terminated, within @len). Returns the
 * number of failures. A phase without samples and with loads that need them
 * fails ("no proof-of-load samples").
 */
int proof_phase_judge(const struct proof_phase *p, const struct proof_req *reqs, size_t n,
		      int min_busy_pct, char *why, size_t len);

#endif
