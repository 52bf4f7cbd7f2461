/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loads that are a program and its arguments: stress-ng, hackbench (from
 * rt-tests; no RAM-per-core refusal, unlike rteval) and any command. */
#include "loads/load_private.h"

#include <stdio.h>
#include <string.h>

/* Resolve @name (path: wins), add the instances with @args (the spec's own
 * args when it has any). */
static int argv_prepare(struct load *l, const struct load_env *env, const char *name,
			const char *install, const char *const *defargs, size_t ndef,
			enum load_error *cls, char *err, size_t errlen)
{
	const char *path = l->spec.text[PLK_PATH][0] ? l->spec.text[PLK_PATH] : name;
	const char *const *args = defargs;
	size_t nargs = ndef;
	unsigned i, inst;

	if (l->spec.nargs) {
		args = (const char *const *)l->spec.args;
		nargs = l->spec.nargs;
	}
	if (load_find_program(path, env->path, l->program, sizeof(l->program))) {
		*cls = LOAD_E_CONFIG;
		snprintf(err, errlen, "%s (%s): %s not found or not executable%s%s",
			 load_name(l), l->spec.origin ? l->spec.origin : "load", path,
			 install ? "; " : "", install ? install : "");
		return -1;
	}
	inst = l->spec.num[PLK_INSTANCES] ? (unsigned)l->spec.num[PLK_INSTANCES] : 1;
	for (i = 0; i < inst; i++) {
		if (load_add_proc(l, args, nargs, &l->cpus) < 0) {
			*cls = LOAD_E_SYSTEM;
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

static int stress_prepare(struct load *l, const struct load_env *env, enum load_error *cls,
			  char *err, size_t errlen)
{
	char n[16];
	const char *def[] = { "--cpu", n, "--quiet" };

	/* Default: one CPU stressor per allowed CPU. */
	snprintf(n, sizeof(n), "%u", l->ncpus);
	return argv_prepare(l, env, "stress-ng", "install stress-ng (Debian: apt install stress-ng)",
			    def, 3, cls, err, errlen);
}

static int hackbench_prepare(struct load *l, const struct load_env *env, enum load_error *cls,
			     char *err, size_t errlen)
{
	/* Two groups of 20 sender and 20 receiver processes over pipes, long
	 * enough that the restarts are rare. */
	static const char *const def[] = { "--pipe", "--groups", "2", "--loops", "100000" };

	return argv_prepare(l, env, "hackbench", "it comes with rt-tests (Debian: apt install "
			    "rt-tests)", def, 5, cls, err, errlen);
}

static int command_prepare(struct load *l, const struct load_env *env, enum load_error *cls,
			   char *err, size_t errlen)
{
	/* path: names the program, args: its arguments; without path: the
	 * first argument is the program. */
	if (!l->spec.text[PLK_PATH][0]) {
		char **args = l->spec.args;
		size_t i;
		int r;

		if (load_find_program(args[0], env->path, l->program, sizeof(l->program))) {
			*cls = LOAD_E_CONFIG;
			snprintf(err, errlen, "%s (%s): %s not found or not executable",
				 load_name(l), l->spec.origin ? l->spec.origin : "load", args[0]);
			return -1;
		}
		for (i = 0, r = 0; i < (l->spec.num[PLK_INSTANCES] ? (size_t)l->spec.num[PLK_INSTANCES]
								    : 1) && !r; i++)
			r = load_add_proc(l, (const char *const *)args + 1, l->spec.nargs - 1,
					  &l->cpus);
		if (r) {
			*cls = LOAD_E_SYSTEM;
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		return 0;
	}
	return argv_prepare(l, env, l->spec.text[PLK_PATH], NULL, NULL, 0, cls, err, errlen);
}

const struct load_ops load_stress_ng_ops = {
	.kind = "stress-ng",
	.proof = LOAD_PROOF_CPU,
	.prepare = stress_prepare,
};

const struct load_ops load_hackbench_ops = {
	.kind = "hackbench",
	.proof = LOAD_PROOF_CPU,
	.prepare = hackbench_prepare,
};

const struct load_ops load_command_ops = {
	.kind = "command",
	.proof = LOAD_PROOF_NONE,
	.prepare = command_prepare,
};
