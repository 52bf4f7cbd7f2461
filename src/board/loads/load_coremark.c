/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The coremark load: EEMBC CoreMark in a loop, one instance per allowed
 * CPU, its score parsed from every run's output. */
#include "loads/load_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COREMARK_HELP \
	"Debian has no CoreMark package: build it from EEMBC's source " \
	"(https://github.com/eembc/coremark: make PORT_DIR=linux, then install " \
	"coremark.exe as /usr/local/bin/coremark), use meta-oe's coremark recipe on " \
	"Yocto (/usr/bin/coremark), or give the program with path:"

static int coremark_prepare(struct load *l, const struct load_env *env, enum load_error *cls,
			    char *err, size_t errlen)
{
	const char *path = l->spec.text[PLK_PATH];
	char sys[PATH_MAX];
	unsigned n, i;
	bool found;

	/* path:, else coremark in $PATH (or coremark.exe, as EEMBC's build
	 * names it), else meta-oe's /usr/bin/coremark. */
	snprintf(sys, sizeof(sys), "%s/usr/bin/coremark", env->sysroot ? env->sysroot : "");
	if (path[0])
		found = !load_find_program(path, env->path, l->program, sizeof(l->program));
	else
		found = !load_find_program("coremark", env->path, l->program, sizeof(l->program)) ||
			!load_find_program("coremark.exe", env->path, l->program,
					   sizeof(l->program)) ||
			!load_find_program(sys, NULL, l->program, sizeof(l->program));
	if (!found) {
		*cls = LOAD_E_CONFIG;
		if (path[0])
			snprintf(err, errlen, "coremark (%s): path: %s is not an executable file; "
				 COREMARK_HELP, l->spec.origin ? l->spec.origin : "load", path);
		else
			snprintf(err, errlen, "coremark (%s): CoreMark not found (no coremark in "
				 "PATH, no /usr/bin/coremark); " COREMARK_HELP,
				 l->spec.origin ? l->spec.origin : "load");
		return -1;
	}
	n = l->spec.num[PLK_INSTANCES] ? (unsigned)l->spec.num[PLK_INSTANCES] : l->ncpus;
	for (i = 0; i < n; i++) {
		cpu_set_t one;

		/* Instance i on the i-th allowed CPU: every CPU gets its share. */
		CPU_ZERO(&one);
		CPU_SET((size_t)load_nth_cpu(&l->cpus, i % l->ncpus), &one);
		if (load_add_proc(l, (const char *const *)l->spec.args, l->spec.nargs, &one) < 0) {
			*cls = LOAD_E_SYSTEM;
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* "Key   : value" -> value after the colon, or NULL. */
static const char *field(const char *line, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	if (strncmp(line, key, n))
		return NULL;
	p = line + n;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return NULL;
	return p + 1;
}

/*
 * A CoreMark run prints, at its end: "Total time (secs): T",
 * "Iterations/Sec   : X", then either "ERROR! Must execute for at least 10
 * secs for a valid result!" (no score), other errors ("Errors detected"), or
 * "CoreMark 1.0 : N / compiler / flags / memory". A run ends the result at
 * the score line or at "Errors detected".
 */
static bool coremark_parse_line(struct load *l, const char *line, struct load_result *out)
{
	struct load_parse_state *ps = &l->ps;
	const char *v;

	if ((v = field(line, "Total time (secs)"))) {
		ps->seconds = strtod(v, NULL);
		return false;
	}
	if ((v = field(line, "Iterations/Sec"))) {
		char *end;
		double x = strtod(v, &end);

		ps->have_its = end != v;
		ps->its = x;
		return false;
	}
	if (strstr(line, "Must execute for at least 10 secs")) {
		ps->too_short = true;
		return false;
	}
	if ((v = field(line, "CoreMark 1.0"))) {
		char *end;
		double score = strtod(v, &end);

		memset(out, 0, sizeof(*out));
		out->valid = end != v && score > 0;
		out->score = out->valid ? score : 0;
		out->iterations_per_s = ps->have_its ? ps->its : score;
		if (!out->valid)
			snprintf(out->why, sizeof(out->why), "unreadable score line");
		memset(ps, 0, sizeof(*ps));
		return true;
	}
	if (!strncmp(line, "Errors detected", 15) ||
	    !strncmp(line, "Cannot validate operation", 25)) {
		memset(out, 0, sizeof(*out));
		out->valid = false;
		out->iterations_per_s = ps->have_its ? ps->its : 0;
		if (ps->too_short)
			snprintf(out->why, sizeof(out->why), "ran %.1f s, under the 10 s a valid "
				 "score needs", ps->seconds);
		else
			snprintf(out->why, sizeof(out->why), "%s", line[0] == 'E' ?
				 "CoreMark detected errors (CRC mismatch)" :
				 "CoreMark could not validate these seeds");
		memset(ps, 0, sizeof(*ps));
		return true;
	}
	return false;
}

const struct load_ops load_coremark_ops = {
	.kind = "coremark",
	.proof = LOAD_PROOF_CPU,
	.has_results = true,
	.prepare = coremark_prepare,
	.parse_line = coremark_parse_line,
};
