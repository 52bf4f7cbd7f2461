/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loads: the factory, what every kind shares, program search. */
#include "loads/load_private.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "base/msgbuf.h"

/* One row per enum plan_load_kind. */
static const struct load_ops *const load_kinds[PLAN_LOAD_NKINDS] = {
	[PLAN_LOAD_COREMARK] = &load_coremark_ops,
	[PLAN_LOAD_PING_FLOOD] = &load_ping_ops,
	[PLAN_LOAD_STRESS_NG] = &load_stress_ng_ops,
	[PLAN_LOAD_HACKBENCH] = &load_hackbench_ops,
	[PLAN_LOAD_COMMAND] = &load_command_ops,
	[PLAN_LOAD_EXPECT_TRAFFIC] = &load_traffic_ops,
};

int load_find_program(const char *name, const char *path, char *out, size_t len)
{
	struct stat st;
	const char *p;

	if (!name[0])
		return -1;
	if (strchr(name, '/')) {
		if (stat(name, &st) < 0 || !S_ISREG(st.st_mode) || access(name, X_OK) < 0)
			return -1;
		snprintf(out, len, "%s", name);
		return 0;
	}
	if (!path)
		path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin";
	for (p = path; *p;) {
		const char *colon = strchr(p, ':');
		size_t dlen = colon ? (size_t)(colon - p) : strlen(p);
		char cand[PATH_MAX];

		if (dlen && dlen + strlen(name) + 2 < sizeof(cand)) {
			snprintf(cand, sizeof(cand), "%.*s/%s", (int)dlen, p, name);
			if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
				snprintf(out, len, "%s", cand);
				return 0;
			}
		}
		if (!colon)
			break;
		p = colon + 1;
	}
	return -1;
}

int load_nth_cpu(const cpu_set_t *set, unsigned n)
{
	int c;

	for (c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET((size_t)c, set) && n-- == 0)
			return c;
	}
	return -1;
}

int load_add_proc(struct load *l, const char *const *args, size_t nargs, const cpu_set_t *cpus)
{
	struct load_proc *np = realloc(l->procs, (l->nprocs + 1) * sizeof(*np));
	struct load_proc *p;
	size_t i;

	if (!np)
		return -1;
	l->procs = np;
	p = &np[l->nprocs];
	memset(p, 0, sizeof(*p));
	p->argv = calloc(nargs + 2, sizeof(char *));
	if (!p->argv)
		return -1;
	l->nprocs++;	/* from here on load_free() frees it */
	p->argv[0] = strdup(l->program);
	if (!p->argv[0])
		return -1;
	for (i = 0; i < nargs; i++) {
		p->argv[i + 1] = strdup(args[i]);
		if (!p->argv[i + 1])
			return -1;
	}
	p->cpus = *cpus;
	p->nice = (int)l->spec.num[PLK_NICE];
	return 0;
}

struct load *load_new(const struct plan_load *spec, const struct load_env *env,
		      enum load_error *cls, char *err, size_t errlen)
{
	struct load *l = calloc(1, sizeof(*l));
	char msg[256];

	if (!l) {
		*cls = LOAD_E_SYSTEM;
		msgbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	l->ops = load_kinds[spec->num[PLK_KIND]];
	if (plan_load_copy(&l->spec, spec) < 0) {
		free(l);
		*cls = LOAD_E_SYSTEM;
		msgbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	if (spec->text[PLK_CPUS] && spec->text[PLK_CPUS][0]) {
		cpu_set_t missing;

		if (cpulist_parse(spec->text[PLK_CPUS], &l->cpus, msg, sizeof(msg)) < 0) {
			*cls = LOAD_E_CONFIG;
			msgbuf_set(err, errlen, "%s (%s): load.cpus: %s", load_name(l),
				 spec->origin ? spec->origin : "load", msg);
			goto fail;
		}
		CPU_XOR(&missing, &l->cpus, &env->online);
		CPU_AND(&missing, &missing, &l->cpus);
		if (CPU_COUNT(&l->cpus) == 0 || CPU_COUNT(&missing)) {
			char have[128];

			*cls = LOAD_E_CONFIG;
			msgbuf_set(err, errlen, "%s (%s): load.cpus %s names CPUs this machine "
				 "does not offer (online: %s)", load_name(l),
				 spec->origin ? spec->origin : "load", spec->text[PLK_CPUS],
				 cpulist_format(&env->online, have, sizeof(have)));
			goto fail;
		}
	} else {
		/* Every CPU but the RT thread's; on a single CPU, that one. */
		l->cpus = env->online;
		if (env->rt_cpu >= 0 && env->rt_cpu < CPU_SETSIZE && CPU_COUNT(&l->cpus) > 1)
			CPU_CLR((size_t)env->rt_cpu, &l->cpus);
	}
	l->ncpus = (unsigned)CPU_COUNT(&l->cpus);
	if (l->ops->prepare(l, env, cls, err, errlen) < 0)
		goto fail;
	return l;
fail:
	load_free(l);
	return NULL;
}

void load_free(struct load *l)
{
	size_t i, j;

	if (!l)
		return;
	for (i = 0; i < l->nprocs; i++) {
		for (j = 0; l->procs[i].argv && l->procs[i].argv[j]; j++)
			free(l->procs[i].argv[j]);
		free(l->procs[i].argv);
	}
	free(l->procs);
	plan_load_free(&l->spec);
	free(l);
}

const char *load_name(const struct load *l)
{
	return plan_load_name(&l->spec);
}

const char *load_kind_name(const struct load *l)
{
	return l->ops->kind;
}

const struct plan_load *load_spec(const struct load *l)
{
	return &l->spec;
}

size_t load_nprocs(const struct load *l)
{
	return l->nprocs;
}

const struct load_proc *load_proc(const struct load *l, size_t i)
{
	return i < l->nprocs ? &l->procs[i] : NULL;
}

enum load_proof load_proof_kind(const struct load *l)
{
	return l->ops->proof;
}

const cpu_set_t *load_cpus(const struct load *l)
{
	return &l->cpus;
}

const char *load_interface(const struct load *l)
{
	return l->interface;
}

int64_t load_min_pps(const struct load *l)
{
	return l->min_pps;
}

bool load_restart(const struct load *l)
{
	return l->spec.num[PLK_RESTART] != 0;
}

int64_t load_grace_ns(const struct load *l)
{
	return l->spec.num[PLK_GRACE];
}

bool load_has_results(const struct load *l)
{
	return l->ops->has_results;
}

const char *load_program(const struct load *l)
{
	return l->program;
}

bool load_output_line(struct load *l, const char *line, struct load_result *out)
{
	if (!l->ops->parse_line)
		return false;
	return l->ops->parse_line(l, line, out);
}
