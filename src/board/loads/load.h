/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loads: what a soak runs beside the wave (CoreMark, a ping flood,
 * stress-ng, hackbench, any command) and what proves each one ran. A load
 * is built from a plan entry by one factory; each kind is a small ops table
 * (load_private.h, load_<kind>.c). Processes are started and supervised by
 * loadsup.c; this module only says what to run and reads its output. */
#ifndef SQW_LOAD_H
#define SQW_LOAD_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/plan.h"

/* What the machine offers a load. */
struct load_env {
	int rt_cpu;                 /* rt.cpu; -1: none */
	cpu_set_t online;           /* CPUs this process may use */
	const char *path;           /* $PATH for program search; NULL: getenv("PATH") */
	const char *sysroot;        /* prefix for /sys and /usr/bin lookups (tests); "" */
	bool root;                  /* euid 0 (ping -f needs it) */
};

/* One process to keep running. */
struct load_proc {
	char **argv;                /* argv[0] = the resolved program path; NULL-terminated */
	cpu_set_t cpus;
	int nice;
	bool discard_stdout;        /* chatty stdout (ping -f dots): only stderr is read */
};

/* What proves the load ran (proof.c checks it per phase). */
enum load_proof {
	LOAD_PROOF_NONE,
	LOAD_PROOF_CPU,             /* its CPUs were busy */
	LOAD_PROOF_NET,             /* its interface carried packets */
	LOAD_PROOF_IDLE,            /* no load: the loads' CPUs stayed quiet (proof.c) */
};

/* One result line of a load's output (CoreMark's score). */
struct load_result {
	bool valid;                 /* a "CoreMark 1.0 : N" score */
	double score;               /* the score (valid) */
	double iterations_per_s;    /* "Iterations/Sec", valid or not */
	char why[96];               /* why not valid ("ran 4.1 s, under 10 s") */
};

/* Why load_new() refused. */
enum load_error {
	LOAD_E_CONFIG = 1,          /* missing program, BusyBox ping, bad CPU list: exit 2 */
	LOAD_E_SYSTEM,              /* cannot inspect the system: exit 3 */
};

struct load;

/*
 * Check that @spec can run here (its program exists and is the right kind,
 * its CPUs exist, its interface exists) and build its processes. NULL with
 * *@cls and a message naming the load, what is missing and where to get it.
 * Caller frees with load_free(). Non-RT, setup time.
 */
struct load *load_new(const struct plan_load *spec, const struct load_env *env,
		      enum load_error *cls, char *err, size_t errlen);
void load_free(struct load *l);

const char *load_name(const struct load *l);
const char *load_kind_name(const struct load *l);
const struct plan_load *load_spec(const struct load *l);
size_t load_nprocs(const struct load *l);
const struct load_proc *load_proc(const struct load *l, size_t i);
enum load_proof load_proof_kind(const struct load *l);
/* Union of the CPUs its processes may use. */
const cpu_set_t *load_cpus(const struct load *l);
/* LOAD_PROOF_NET: the interface and the packets/s it must see. */
const char *load_interface(const struct load *l);
int64_t load_min_pps(const struct load *l);
bool load_restart(const struct load *l);
int64_t load_grace_ns(const struct load *l);
/* Whether its output carries results (CoreMark): a phase without one valid
 * result did not apply the load. */
bool load_has_results(const struct load *l);

/* One line of a process's output (without the newline). Returns true and
 * fills @out when the line completes a result. */
bool load_output_line(struct load *l, const char *line, struct load_result *out);

/* The program's location for messages ("/usr/bin/coremark"). */
const char *load_program(const struct load *l);

/* Search $PATH (or @path) for an executable @name; a name with a '/' is
 * taken as is. 0 with the path in @out, or -1 (not found/not executable). */
int load_find_program(const char *name, const char *path, char *out, size_t len);

#endif
