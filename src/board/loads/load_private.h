/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the load module: the struct and the ops each kind provides.
 * Only load.c and load_<kind>.c include this. */
#ifndef SQW_LOAD_PRIVATE_H
#define SQW_LOAD_PRIVATE_H

#include <limits.h>

#include "loads/load.h"

struct load_ops {
	const char *kind;
	enum load_proof proof;
	bool has_results;           /* output lines carry results (parse_line) */
	/*
	 * Resolve the program into l->program and fill l->procs (load_add_proc)
	 * from l->spec and @env. l->cpus (the allowed set) and l->ninst (0 when
	 * the spec says "default") are set before. 0, or -1 with *@cls and a
	 * message in @err.
	 */
	int (*prepare)(struct load *l, const struct load_env *env, enum load_error *cls,
		       char *err, size_t errlen);
	/* A line of output; true with @out when it completes a result. */
	bool (*parse_line)(struct load *l, const char *line, struct load_result *out);
};

struct load_parse_state {
	bool have_its;
	double its;
	bool too_short;
	double seconds;
};

struct load {
	const struct load_ops *ops;
	struct plan_load spec;      /* own copy */
	char program[PATH_MAX];
	cpu_set_t cpus;             /* allowed: spec.cpus, else online minus rt.cpu */
	unsigned ncpus;
	struct load_proc *procs;
	size_t nprocs;
	char interface[64];         /* LOAD_PROOF_NET */
	int64_t min_pps;
	struct load_parse_state ps; /* parse_line's state between lines */
};

/* Append a process running argv (copied; argv[0] replaced by l->program)
 * on @cpus. -1 with errno. */
int load_add_proc(struct load *l, const char *const *args, size_t nargs, const cpu_set_t *cpus);

/* The ops of each kind (load_<kind>.c). */
extern const struct load_ops load_coremark_ops;
extern const struct load_ops load_ping_ops;
extern const struct load_ops load_stress_ng_ops;
extern const struct load_ops load_hackbench_ops;
extern const struct load_ops load_command_ops;
extern const struct load_ops load_traffic_ops;

/* The n-th CPU (0-based) of @set; -1 if it has fewer. */
int load_nth_cpu(const cpu_set_t *set, unsigned n);

#endif
