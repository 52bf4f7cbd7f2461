/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run plan: phase and load key tables, the --load grammar, checks. */
#include "config/plan.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/msgbuf.h"
#include "base/units.h"

#define MS INT64_C(1000000)
#define SEC INT64_C(1000000000)
#define DAY (86400 * SEC)

const char *const plan_load_kinds[PLAN_LOAD_NKINDS + 1] = {
	[PLAN_LOAD_COREMARK] = "coremark",
	[PLAN_LOAD_PING_FLOOD] = "ping-flood",
	[PLAN_LOAD_STRESS_NG] = "stress-ng",
	[PLAN_LOAD_HACKBENCH] = "hackbench",
	[PLAN_LOAD_COMMAND] = "command",
	[PLAN_LOAD_EXPECT_TRAFFIC] = "expect-traffic",
	NULL,
};

#define ROW(k, n, t, d, lo, hi, u, ch, h) \
	[k] = { "load", n, t, d, lo, hi, u, ch, NULL, CFG_IN_PROFILE, h }

const struct cfg_item plan_load_table[PLK_NKEYS] = {
	ROW(PLK_KIND, "kind", CFG_T_ENUM, "coremark", 0, 0, NULL, plan_load_kinds,
	    "what to run: coremark, ping-flood, stress-ng, hackbench, command, expect-traffic"),
	ROW(PLK_NAME, "name", CFG_T_STRING, "", 0, 0, "NAME", NULL,
	    "label in the log and the summary (default: the kind)"),
	ROW(PLK_PATH, "path", CFG_T_STRING, "", 0, 0, "FILE", NULL,
	    "the program (default: the kind's own search; command: required)"),
	ROW(PLK_ARGS, "args", CFG_T_STRING, "", 0, 0, "LIST", NULL,
	    "arguments, a list of strings (never through a shell)"),
	ROW(PLK_INSTANCES, "instances", CFG_T_INT, "0", 0, 1024, NULL, NULL,
	    "processes to run (0: one per allowed CPU for coremark, else 1)"),
	ROW(PLK_CPUS, "cpus", CFG_T_STRING, "", 0, 0, "CPUS", NULL,
	    "CPUs it may use, e.g. 0,2-3 (default: every CPU but rt.cpu)"),
	ROW(PLK_NICE, "nice", CFG_T_INT, "0", -20, 19, NULL, NULL, "nice level"),
	ROW(PLK_RESTART, "restart", CFG_T_BOOL, "true", 0, 1, NULL, NULL,
	    "start it again when it exits (false: an exit is \"load lost\")"),
	ROW(PLK_GRACE, "grace", CFG_T_DURATION, "2s", 0, 60 * SEC, "s", NULL,
	    "time between SIGTERM and SIGKILL when it is stopped"),
	ROW(PLK_SIZE, "size", CFG_T_INT, "56", 0, 65507, "bytes", NULL,
	    "ping-flood: ICMP payload size (ping -s)"),
	ROW(PLK_PRELOAD, "preload", CFG_T_INT, "0", 0, 65536, "packets", NULL,
	    "ping-flood: packets sent without waiting for replies (ping -l)"),
	ROW(PLK_TARGET, "target", CFG_T_STRING, "127.0.0.1", 0, 0, "ADDRESS", NULL,
	    "ping-flood: address to flood"),
	ROW(PLK_INTERFACE, "interface", CFG_T_STRING, "", 0, 0, "IFACE", NULL,
	    "interface whose packet counters prove the flood (default: the route's)"),
	ROW(PLK_MIN_PPS, "min_pps", CFG_T_INT, "0", 0, INT64_C(1) << 40, "packets/s", NULL,
	    "packets/s (rx + tx) the interface must see (ping-flood default 1000)"),
};

#undef ROW
#define ROW(k, n, t, d, lo, hi, u, h) \
	[k] = { "phases", n, t, d, lo, hi, u, NULL, NULL, CFG_IN_PROFILE, h }

const struct cfg_item plan_phase_table[PPK_NKEYS] = {
	ROW(PPK_NAME, "name", CFG_T_STRING, "", 0, 0, "NAME", "name of the phase (idle, loaded)"),
	ROW(PPK_DURATION, "duration", CFG_T_DURATION, "0", 1 * MS, 365 * DAY, "s",
	    "how long the phase lasts"),
};

#undef ROW

int plan_load_init(struct plan_load *l)
{
	char err[160];
	int k;

	memset(l, 0, sizeof(*l));
	for (k = 0; k < PLK_NKEYS; k++) {
		if (k == PLK_ARGS)
			continue;
		if (plan_load_set(l, (enum plan_load_key)k, plan_load_table[k].def, err,
				  sizeof(err)) != CFG_OK) {
			plan_load_free(l);
			errno = ENOMEM;
			return -1;
		}
		l->set[k] = false;
	}
	return 0;
}

enum cfg_result plan_load_set(struct plan_load *l, enum plan_load_key k, const char *value,
			      char *err, size_t errlen)
{
	const struct cfg_item *it = &plan_load_table[k];
	char name[32];
	enum cfg_result r;
	int64_t num = 0;

	if (k == PLK_ARGS) {
		msgbuf_set(err, errlen, "load.args is a list of strings, one argument each");
		return CFG_E_TYPE;
	}
	snprintf(name, sizeof(name), "load.%s", it->name);
	r = config_item_parse(it, name, value, &num, err, errlen);
	if (r != CFG_OK)
		return r;
	/* A name is a word: it keys the log header's lines and the report. */
	if (k == PLK_NAME && strspn(value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_-+.") != strlen(value)) {
		char q[64];

		msgbuf_set(err, errlen, "load.name must be a word of letters, digits and _-+. "
			 "(flood-eth0), got %s", config_quote(value, q, sizeof(q)));
		return CFG_E_TYPE;
	}
	if (it->type == CFG_T_STRING) {
		char *t = strdup(value);

		if (!t) {
			msgbuf_set(err, errlen, "out of memory");
			return CFG_E_NOMEM;
		}
		free(l->text[k]);
		l->text[k] = t;
	}
	l->num[k] = num;
	l->set[k] = true;
	return CFG_OK;
}

int plan_load_add_arg(struct plan_load *l, const char *arg)
{
	char **a = realloc(l->args, (l->nargs + 1) * sizeof(*a));

	if (!a)
		return -1;
	l->args = a;
	a[l->nargs] = strdup(arg);
	if (!a[l->nargs])
		return -1;
	l->nargs++;
	l->set[PLK_ARGS] = true;
	return 0;
}

int plan_load_copy(struct plan_load *dst, const struct plan_load *src)
{
	size_t i;
	int k;

	memset(dst, 0, sizeof(*dst));
	memcpy(dst->num, src->num, sizeof(dst->num));
	memcpy(dst->set, src->set, sizeof(dst->set));
	for (k = 0; k < PLK_NKEYS; k++) {
		if (src->text[k] && !(dst->text[k] = strdup(src->text[k])))
			goto fail;
	}
	for (i = 0; i < src->nargs; i++) {
		if (plan_load_add_arg(dst, src->args[i]) < 0)
			goto fail;
	}
	dst->set[PLK_ARGS] = src->set[PLK_ARGS];
	if (src->origin && !(dst->origin = strdup(src->origin)))
		goto fail;
	return 0;
fail:
	plan_load_free(dst);
	errno = ENOMEM;
	return -1;
}

int plan_load_key_lookup(const char *name, int *near)
{
	size_t best = 99;
	int k;

	if (near)
		*near = -1;
	for (k = 0; k < PLK_NKEYS; k++) {
		size_t dist;

		if (!strcmp(plan_load_table[k].name, name))
			return k;
		dist = config_distance(name, plan_load_table[k].name);
		if (dist < best && dist <= 2 && dist * 3 <= strlen(name) + 2) {
			best = dist;
			if (near)
				*near = k;
		}
	}
	return -1;
}

static bool kind_takes_args(int kind)
{
	return kind == PLAN_LOAD_STRESS_NG || kind == PLAN_LOAD_HACKBENCH ||
	       kind == PLAN_LOAD_COMMAND || kind == PLAN_LOAD_COREMARK;
}

/* Next ':'-separated token of *@s into @out (unescaping '\:' and '\\');
 * *@too_long when it did not fit. */
static bool next_token(const char **s, char *out, size_t len, bool *too_long)
{
	const char *p = *s;
	size_t o = 0;

	if (!p)
		return false;
	for (; *p && *p != ':'; p++) {
		if (*p == '\\' && (p[1] == ':' || p[1] == '\\'))
			p++;
		if (o + 1 < len)
			out[o++] = *p;
		else
			*too_long = true;
	}
	out[o] = '\0';
	*s = *p ? p + 1 : NULL;
	return true;
}

enum cfg_result plan_add_cmdline_load(struct plan *p, const char *spec, char *err, size_t errlen)
{
	struct plan_load l, *nl;
	const char *s = spec;
	bool in_args = false, too_long = false;
	enum cfg_result r;
	char tok[4096], q[64];

	if (plan_load_init(&l) < 0) {
		msgbuf_set(err, errlen, "out of memory");
		return CFG_E_NOMEM;
	}
	next_token(&s, tok, sizeof(tok), &too_long);
	r = plan_load_set(&l, PLK_KIND, tok, err, errlen);
	if (r != CFG_OK)
		goto fail;
	while (next_token(&s, tok, sizeof(tok), &too_long)) {
		char *eq = strchr(tok, '=');
		int k = -1;

		if (too_long) {
			msgbuf_set(err, errlen, "--load: a part longer than %zu characters",
				 sizeof(tok) - 1);
			r = CFG_E_RANGE;
			goto fail;
		}
		if (!in_args && eq && eq != tok) {
			*eq = '\0';
			k = plan_load_key_lookup(tok, NULL);
			if (k < 0 || k == PLK_ARGS || k == PLK_KIND)
				*eq = '=';
		}
		if (k >= 0 && k != PLK_ARGS && k != PLK_KIND) {
			r = plan_load_set(&l, (enum plan_load_key)k, eq + 1, err, errlen);
			if (r != CFG_OK)
				goto fail;
			continue;
		}
		if (!kind_takes_args((int)l.num[PLK_KIND])) {
			msgbuf_set(err, errlen,
				 "--load %s: %s is not KEY=VALUE; %s takes only load keys "
				 "(size=, preload=, target=, interface=, min_pps=, cpus=, nice=, "
				 "instances=, path=, name=, restart=, grace=)",
				 plan_load_kinds[l.num[PLK_KIND]], config_quote(tok, q, sizeof(q)),
				 plan_load_kinds[l.num[PLK_KIND]]);
			r = CFG_E_TYPE;
			goto fail;
		}
		in_args = true;
		if (plan_load_add_arg(&l, tok) < 0) {
			msgbuf_set(err, errlen, "out of memory");
			r = CFG_E_NOMEM;
			goto fail;
		}
	}
	l.origin = strdup("--load");
	nl = realloc(p->loads, (p->nloads + 1) * sizeof(*nl));
	if (!l.origin || !nl) {
		msgbuf_set(err, errlen, "out of memory");
		r = CFG_E_NOMEM;
		goto fail;
	}
	p->loads = nl;
	p->loads[p->nloads++] = l;
	return CFG_OK;
fail:
	plan_load_free(&l);
	return r;
}

int plan_take(struct plan *dst, struct plan *src)
{
	struct plan_load *nl;
	size_t i;

	if (src->nloads) {
		nl = realloc(dst->loads, (dst->nloads + src->nloads) * sizeof(*nl));
		if (!nl)
			return -1;
		dst->loads = nl;
		for (i = 0; i < src->nloads; i++)
			dst->loads[dst->nloads++] = src->loads[i];
		free(src->loads);
		src->loads = NULL;
		src->nloads = 0;
	}
	if (src->explicit_phases) {
		for (i = 0; i < dst->nphases; i++)
			plan_phase_free(&dst->phases[i]);
		free(dst->phases);
		dst->phases = src->phases;
		dst->nphases = src->nphases;
		dst->explicit_phases = true;
		src->phases = NULL;
		src->nphases = 0;
		src->explicit_phases = false;
	}
	return 0;
}

const char *plan_load_name(const struct plan_load *l)
{
	return l->text[PLK_NAME] && l->text[PLK_NAME][0] ? l->text[PLK_NAME]
							: plan_load_kinds[l->num[PLK_KIND]];
}

/* @s with ':' and '\' escaped, appended at buf+*o. */
static void put_escaped(char *buf, size_t len, size_t *o, const char *s)
{
	for (; *s && *o + 2 < len; s++) {
		if (*s == ':' || *s == '\\')
			buf[(*o)++] = '\\';
		buf[(*o)++] = *s;
	}
	buf[*o < len ? *o : len - 1] = '\0';
}

const char *plan_load_format(const struct plan_load *l, char *buf, size_t len)
{
	size_t o = 0, i;
	int k;

	if (!len)
		return buf;
	buf[0] = '\0';
	put_escaped(buf, len, &o, plan_load_kinds[l->num[PLK_KIND]]);
	for (k = 0; k < PLK_NKEYS; k++) {
		char v[64];

		if (k == PLK_KIND || k == PLK_ARGS || !l->set[k])
			continue;
		switch (plan_load_table[k].type) {
		case CFG_T_BOOL:
			snprintf(v, sizeof(v), "%s", l->num[k] ? "true" : "false");
			break;
		case CFG_T_DURATION:
			units_format_duration(l->num[k], v, sizeof(v));
			break;
		case CFG_T_INT:
			snprintf(v, sizeof(v), "%" PRId64, l->num[k]);
			break;
		default:
			v[0] = '\0';
		}
		if (o + 2 >= len)
			break;
		buf[o++] = ':';
		put_escaped(buf, len, &o, plan_load_table[k].name);
		if (o + 2 >= len)
			break;
		buf[o++] = '=';
		put_escaped(buf, len, &o, plan_load_table[k].type == CFG_T_STRING ? l->text[k] : v);
	}
	for (i = 0; i < l->nargs && o + 2 < len; i++) {
		buf[o++] = ':';
		put_escaped(buf, len, &o, l->args[i]);
	}
	buf[o < len ? o : len - 1] = '\0';
	return buf;
}

bool plan_load_equal(const struct plan_load *a, const struct plan_load *b)
{
	char fa[2048], fb[2048];

	return !strcmp(plan_load_format(a, fa, sizeof(fa)), plan_load_format(b, fb, sizeof(fb)));
}

/* Kind-specific checks of one load. */
static enum cfg_result load_check(const struct plan_load *l, char *err, size_t errlen)
{
	int kind = (int)l->num[PLK_KIND];
	const char *where = l->origin ? l->origin : "load";
	char q[64];

	if (kind == PLAN_LOAD_COMMAND && !l->text[PLK_PATH][0] && !l->nargs) {
		msgbuf_set(err, errlen, "%s: a command load needs path: (the program) or args: "
			 "(program first)", where);
		return CFG_E_MISSING;
	}
	if (kind == PLAN_LOAD_EXPECT_TRAFFIC && !l->text[PLK_INTERFACE][0]) {
		msgbuf_set(err, errlen, "%s: expect-traffic needs interface: (whose rx/tx packet "
			 "counters must show the flood)", where);
		return CFG_E_MISSING;
	}
	if (kind == PLAN_LOAD_EXPECT_TRAFFIC && l->num[PLK_MIN_PPS] <= 0) {
		msgbuf_set(err, errlen, "%s: expect-traffic needs min_pps: (packets per second the "
			 "interface must see)", where);
		return CFG_E_MISSING;
	}
	if (l->nargs && !kind_takes_args(kind)) {
		msgbuf_set(err, errlen, "%s: %s takes no args: (use its keys: size, preload, target, "
			 "interface, min_pps)", where, plan_load_kinds[kind]);
		return CFG_E_PLACE;
	}
	if (kind == PLAN_LOAD_EXPECT_TRAFFIC && l->set[PLK_INSTANCES]) {
		msgbuf_set(err, errlen, "%s: expect-traffic runs no process; instances: does not apply",
			 where);
		return CFG_E_PLACE;
	}
	if (l->text[PLK_TARGET][0] == '-') {
		msgbuf_set(err, errlen, "%s: target %s is not an address", where,
			 config_quote(l->text[PLK_TARGET], q, sizeof(q)));
		return CFG_E_TYPE;
	}
	return CFG_OK;
}

/* @ns (>= 0) times run.scale (@scale millionths, > 0), rounded to the ns;
 * -1 past @max. In 64 bits (32-bit targets have no __int128): the whole
 * millionths and the rest apart, the rest's product below 2^63. */
static int64_t plan_scaled(int64_t ns, int64_t scale, int64_t max)
{
	int64_t q = ns / CFG_DECIMAL_ONE, r = ns % CFG_DECIMAL_ONE, whole, v;

	if (__builtin_mul_overflow(q, scale, &whole))
		return -1;
	if (__builtin_add_overflow(whole, (r * scale + CFG_DECIMAL_ONE / 2) / CFG_DECIMAL_ONE, &v))
		return -1;
	return v > max ? -1 : v;
}

/* Every phase (or the one of run.duration) times run.scale, each still a
 * phase's length (at least 1 ms) and the whole within run.duration's range. */
static enum cfg_result plan_scale(struct plan *p, const struct config *c, char *err,
				  size_t errlen)
{
	int64_t scale = config_int(c, CFG_RUN_SCALE), sum = 0, d;
	const struct cfg_item *pd = &plan_phase_table[PPK_DURATION];
	const struct cfg_item *rd = &config_table[CFG_RUN_DURATION];
	char a[32], b[32], m[32], x[32], what[160], origin[256];
	size_t i;

	if (scale == CFG_DECIMAL_ONE)
		return CFG_OK;
	config_format(c, CFG_RUN_SCALE, x, sizeof(x));
	config_origin(c, CFG_RUN_SCALE, origin, sizeof(origin));
	for (i = 0; i < p->nphases; i++) {
		struct plan_phase *ph = &p->phases[i];

		if (!ph->duration_ns)
			continue;	/* until SIGINT: no length to scale */
		d = plan_scaled(ph->duration_ns, scale, rd->max);
		if (d < 0 || d < pd->min || d > rd->max - sum) {
			if (p->explicit_phases)
				snprintf(what, sizeof(what), "phase %s (%s)", ph->name, ph->origin);
			else
				snprintf(what, sizeof(what), "the run");
			msgbuf_set(err, errlen, "run.scale %s (%s) makes %s last %s; scaled, each phase "
				 "must last at least %s and all of them at most %s",
				 x, origin, what,
				 d < 0 ? "too long" : units_format_duration(d, a, sizeof(a)),
				 units_format_duration(pd->min, b, sizeof(b)),
				 units_format_duration(rd->max, m, sizeof(m)));
			return CFG_E_RANGE;
		}
		ph->duration_ns = d;
		sum += d;
	}
	return CFG_OK;
}

enum cfg_result plan_finalize(struct plan *p, struct config *c, char *err, size_t errlen)
{
	int64_t dur = config_int(c, CFG_RUN_DURATION), off = 0, sum = 0;
	enum cfg_result r;
	char a[32], b[32], origin[256], why[320];
	size_t i, j;

	if (p->finalized)
		return CFG_OK;
	if (!p->explicit_phases) {
		struct plan_phase *ph;

		if (p->nphases)	/* finalized already */
			return CFG_OK;
		ph = calloc(1, sizeof(*ph));
		if (!ph || !(ph->name = strdup("run")) || !(ph->origin = strdup("run.duration"))) {
			if (ph)
				free(ph->name);
			free(ph);
			msgbuf_set(err, errlen, "out of memory");
			return CFG_E_NOMEM;
		}
		ph->duration_ns = dur;
		ph->loads = p->loads;
		ph->nloads = p->nloads;
		p->loads = NULL;
		p->nloads = 0;
		p->phases = ph;
		p->nphases = 1;
	} else {
		if (p->nloads) {
			msgbuf_set(err, errlen, "%s: loads outside phases: with phases:, give each "
				 "phase its own load: list (--load applies only to a run without "
				 "phases)", p->loads[0].origin ? p->loads[0].origin : "load");
			return CFG_E_PLACE;
		}
		for (i = 0; i < p->nphases; i++)
			sum += p->phases[i].duration_ns;
		if (config_source(c, CFG_RUN_DURATION) != CFG_SRC_DEFAULT && dur != sum) {
			msgbuf_set(err, errlen, "run.duration (%s, %s) disagrees with the phases, which "
				 "last %s in all; leave run.duration out when the profile has phases "
				 "(--scale runs every phase shorter or longer)",
				 units_format_duration(dur, a, sizeof(a)),
				 config_origin(c, CFG_RUN_DURATION, origin, sizeof(origin)),
				 units_format_duration(sum, b, sizeof(b)));
			return CFG_E_RANGE;
		}
		for (i = 0; i < p->nphases; i++) {
			for (j = 0; j < i; j++) {
				if (!strcmp(p->phases[i].name, p->phases[j].name)) {
					msgbuf_set(err, errlen, "%s: phase name \"%s\" is used twice "
						 "(first at %s); name each phase once",
						 p->phases[i].origin, p->phases[i].name,
						 p->phases[j].origin);
					return CFG_E_RANGE;
				}
			}
		}
	}
	r = plan_scale(p, c, err, errlen);
	if (r != CFG_OK)
		return r;
	/* run.duration says what runs: the phases' sum (the default 60 s of a
	 * profile with phases was recorded, while its phases lasted 120 s) */
	sum = plan_duration(p);
	if (p->explicit_phases || sum != dur) {
		if (p->explicit_phases)
			snprintf(why, sizeof(why), "the phases' sum%s",
				 config_int(c, CFG_RUN_SCALE) != CFG_DECIMAL_ONE ? " x run.scale" : "");
		else
			snprintf(why, sizeof(why), "run.duration (%s) x run.scale",
				 config_origin(c, CFG_RUN_DURATION, origin, sizeof(origin)));
		if (config_set_derived(c, CFG_RUN_DURATION, sum, why)) {
			msgbuf_set(err, errlen, "out of memory");
			return CFG_E_NOMEM;
		}
	}
	p->finalized = true;
	for (i = 0; i < p->nphases; i++) {
		p->phases[i].start_off_ns = off;
		off += p->phases[i].duration_ns;
		if (p->phases[i].nloads > PLAN_MAX_LOADS) {
			msgbuf_set(err, errlen, "%s: phase \"%s\" has %zu loads; at most %d run in one "
				 "phase", p->phases[i].origin, p->phases[i].name, p->phases[i].nloads,
				 PLAN_MAX_LOADS);
			return CFG_E_RANGE;
		}
		for (j = 0; j < p->phases[i].nloads; j++) {
			const struct plan_load *l = &p->phases[i].loads[j];
			size_t k;

			r = load_check(l, err, errlen);
			if (r != CFG_OK)
				return r;
			/* A load's name is its key in the proof, the status and the
			 * log: two of one name in a phase would merge. */
			for (k = 0; k < j; k++) {
				if (!strcmp(plan_load_name(&p->phases[i].loads[k]), plan_load_name(l))) {
					msgbuf_set(err, errlen, "%s: a second load named \"%s\" in phase "
						 "\"%s\" (the first at %s); give one a name: (name=... "
						 "with --load)", l->origin ? l->origin : "load",
						 plan_load_name(l), p->phases[i].name,
						 p->phases[i].loads[k].origin ? p->phases[i].loads[k].origin
									       : "load");
					return CFG_E_RANGE;
				}
			}
		}
	}
	return CFG_OK;
}

int64_t plan_duration(const struct plan *p)
{
	int64_t sum = 0;
	size_t i;

	for (i = 0; i < p->nphases; i++)
		sum += p->phases[i].duration_ns;
	return sum;
}

void plan_dump(const struct plan *p, FILE *f)
{
	char buf[2048];
	size_t i, j;

	fprintf(f, "phase.count=%zu\n", p->nphases);
	for (i = 0; i < p->nphases; i++) {
		const struct plan_phase *ph = &p->phases[i];

		fprintf(f, "phase.%zu.name=%s\n", i, ph->name);
		fprintf(f, "phase.%zu.start_off_ns=%" PRId64 "\n", i, ph->start_off_ns);
		fprintf(f, "phase.%zu.duration_ns=%" PRId64 "\n", i, ph->duration_ns);
		fprintf(f, "phase.%zu.loads=%zu\n", i, ph->nloads);
		for (j = 0; j < ph->nloads; j++)
			fprintf(f, "phase.%zu.load.%zu=%s\n", i, j,
				plan_load_format(&ph->loads[j], buf, sizeof(buf)));
	}
}
