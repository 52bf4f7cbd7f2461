/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run plan's data: the phases, the loads and their lifecycle, known to
 * the configuration that owns one (config.c) without the plan's rules,
 * which read the configuration (plan.h: parsing, finalizing, formatting). */
#ifndef SQW_PLANDATA_H
#define SQW_PLANDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Keys of one `load:` entry, in plan_load_table order. */
enum plan_load_key {
	PLK_KIND,
	PLK_NAME,        /* label in the log and summary; default: the kind */
	PLK_PATH,        /* program; empty: the kind's default search */
	PLK_ARGS,        /* argument list (list of strings) */
	PLK_INSTANCES,   /* processes; 0: one per allowed CPU (CPU loads) or 1 */
	PLK_CPUS,        /* CPU list ("0,2-3"); empty: every CPU but rt.cpu */
	PLK_NICE,
	PLK_RESTART,     /* start again when it exits (CoreMark ends after 10-20 s) */
	PLK_GRACE,       /* SIGTERM to SIGKILL */
	PLK_SIZE,        /* ping-flood: payload bytes (-s) */
	PLK_PRELOAD,     /* ping-flood: packets sent before waiting (-l) */
	PLK_TARGET,      /* ping-flood: address */
	PLK_INTERFACE,   /* ping-flood, expect-traffic: interface whose counters prove it */
	PLK_MIN_PPS,     /* ping-flood, expect-traffic: packets/s (rx + tx) at least */
	PLK_NKEYS
};
struct plan_load {
	int64_t num[PLK_NKEYS];  /* BOOL, INT, DURATION, ENUM index */
	char *text[PLK_NKEYS];   /* STRING (owned; never NULL after plan_load_init) */
	bool set[PLK_NKEYS];     /* given explicitly */
	char **args;             /* PLK_ARGS, owned */
	size_t nargs;
	char *origin;            /* "FILE:LINE" or "--load" */
};

struct plan_phase {
	char *name;
	int64_t duration_ns;
	struct plan_load *loads;
	size_t nloads;
	char *origin;
	int64_t start_off_ns;    /* from the end of the warm-up; set by plan_finalize() */
};

struct plan {
	struct plan_phase *phases;
	size_t nphases;
	bool explicit_phases;    /* the profile had phases: (else one implicit phase) */
	bool finalized;          /* plan_finalize() scaled the phases and set run.duration */
	struct plan_load *loads; /* top-level load: / --load, before plan_finalize() */
	size_t nloads;
};

/* An empty plan (no phases, no loads). NULL with errno. plan_free() frees
 * it with every phase and load it holds. */
struct plan *plan_new(void);
void plan_free(struct plan *p);
/* Free a phase's contents (its loads, name, origin), not the phase itself. */
void plan_phase_free(struct plan_phase *ph);
/* Free a load entry's contents (plan_load_init(), plan.h, fills it). */
void plan_load_free(struct plan_load *l);

#endif
