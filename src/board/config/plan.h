/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run plan: the phases of a run and the loads each applies (a profile's
 * `phases:` and `load:` lists, `--load` on the command line). Two small key
 * tables in the shape of config_table hold every load and phase key. */
#ifndef SQW_PLAN_H
#define SQW_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "config/plandata.h"

/* Load kinds; the order of plan_load_kinds[] (the `kind:` choices). */
enum plan_load_kind {
	PLAN_LOAD_COREMARK,
	PLAN_LOAD_PING_FLOOD,
	PLAN_LOAD_STRESS_NG,
	PLAN_LOAD_HACKBENCH,
	PLAN_LOAD_COMMAND,
	PLAN_LOAD_EXPECT_TRAFFIC,  /* no process: a flood from another machine must arrive */
	PLAN_LOAD_NKINDS
};
extern const char *const plan_load_kinds[PLAN_LOAD_NKINDS + 1];

extern const struct cfg_item plan_load_table[PLK_NKEYS];

/* Keys of one `phases:` entry (besides its `load:` list). */
enum plan_phase_key {
	PPK_NAME,
	PPK_DURATION,
	PPK_NKEYS
};
extern const struct cfg_item plan_phase_table[PPK_NKEYS];

/* A load entry with every default; plan_load_free() frees its contents. */
int plan_load_init(struct plan_load *l);
/* Set one key from text (@name names it in messages). Not for PLK_ARGS. */
enum cfg_result plan_load_set(struct plan_load *l, enum plan_load_key k, const char *value,
			      char *err, size_t errlen);
/* Append one argument. -1 with errno. */
int plan_load_add_arg(struct plan_load *l, const char *arg);
/* Copy (deep). -1 with errno. */
int plan_load_copy(struct plan_load *dst, const struct plan_load *src);
/* Find a load key by name; -1 if unknown (then *@near is the likely typo or -1). */
int plan_load_key_lookup(const char *name, int *near);

/*
 * A load from the command line: "KIND[:KEY=VALUE...][:ARG...]", ':'
 * separated, '\:' for a literal colon. KEY=VALUE tokens naming a load key
 * come first; the first other token starts the argument list (stress-ng,
 * hackbench, command: "command:/usr/bin/x:--fast"). Appended to @p's
 * top-level loads. CFG_OK, or an error class with the reason in @err.
 */
enum cfg_result plan_add_cmdline_load(struct plan *p, const char *spec, char *err,
				      size_t errlen);

/* Move @src's phases and top-level loads into @dst (loads appended after
 * @dst's own), leaving @src empty. -1 with errno (ENOMEM). */
int plan_take(struct plan *dst, struct plan *src);

/* The canonical one-line form of @l (the --load grammar). Returns @buf. */
const char *plan_load_format(const struct plan_load *l, char *buf, size_t len);
/* Name shown for @l: its name, else its kind. */
/* At most this many loads in one phase (the proof's table per phase). */
#define PLAN_MAX_LOADS 16
const char *plan_load_name(const struct plan_load *l);

/*
 * After every source: turn the plan into its final phases. Without explicit
 * phases, one phase "run" of run.duration holds the top-level loads. With
 * phases, run.duration must be unset or equal their sum, and top-level loads
 * are refused (give each phase its loads). Fills start offsets. CFG_OK or
 * CFG_E_RANGE/CFG_E_PLACE with @err.
 */
enum cfg_result plan_finalize(struct plan *p, struct config *c, char *err, size_t errlen);

/* Total duration of the phases (0: open-ended, the one phase has duration 0). */
int64_t plan_duration(const struct plan *p);

/* Whether two loads are the same (kept running across a phase boundary). */
bool plan_load_equal(const struct plan_load *a, const struct plan_load *b);

/* "phase.N.KEY=VALUE" lines for the log header (docs/log-format.md). */
void plan_dump(const struct plan *p, FILE *f);

#endif
