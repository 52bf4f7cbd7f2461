/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The soak around a run: phases, loads, proof of load, their log events. */
#include "run/soak.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "log/edgelog.h"
#include "loads/load.h"
#include "loads/loadsup.h"
#include "base/msgbuf.h"
#include "config/plan.h"
#include "rt/rtsetup.h"
#include "base/clock.h"

#define SETTLE_MS 500          /* a load that ends this soon after its start is broken */
#define MAX_PENDING 512        /* events held until the log exists */
#define SAMPLE_QUEUE 64        /* samples the sampler holds for the main thread */
#define SAMPLER_STACK (256u * 1024u)
#define SAMPLER_PRIORITY 1     /* SCHED_FIFO: below the RT thread, above every load */

struct soak_phase {
	const struct plan_phase *plan;
	struct load **loads;
	size_t nloads;
	struct proof_req *reqs;    /* one per load, or a load-less phase's idle one */
	size_t nreqs;
	char **specs;
	struct proof_phase proof;
};

struct pending {
	uint64_t t;
	uint16_t type;
	char *payload;
	size_t len;
};

struct soak {
	const struct config *c;
	struct soak_phase *ph;
	size_t nph;
	bool has_loads;
	struct loadsup *sup;
	struct proof_sampler *sampler;
	uint64_t interval;
	uint64_t next_sample;      /* the sampler thread's next reading */
	/* The sampler thread: reads on its own clock, hands samples over
	 * through the queue (under qlock) and rings qfd for the main thread. */
	bool sampling;
	pthread_t sampler_tid;
	pthread_mutex_t qlock;
	pthread_cond_t qcond;
	bool qinit, qstop;
	struct proof_sample *queue;
	size_t qhead, qn;
	uint64_t qdropped;
	int qfd;
	int rt_cpu;
	char sampler_sched[160];   /* how it ran: "SCHED_FIFO 1 ..." or why not */
	uint64_t stop_ns;          /* when soak_stop() ran (0: not yet) */
	uint64_t t0;               /* 0 until attached */
	int cur;                   /* current phase; -1 before t0 */
	struct recorder *rec;
	struct pending pend[MAX_PENDING];
	size_t npend;
	uint64_t dropped_events;
	char containment[PATH_MAX + 256]; /* with "guardian lost" when it was */
};

_Static_assert(PLAN_MAX_LOADS <= PROOF_MAX_LOADS, "a phase's loads must fit its proof table");

/* An event for the log: now if the log exists, else held until it does. */
static void log_event(struct soak *s, uint64_t t, uint16_t type, const char *payload, size_t len)
{
	if (s->rec) {
		if (recorder_event(s->rec, t, type, payload, len) < 0)
			s->dropped_events++;
		return;
	}
	if (s->npend == MAX_PENDING || !(s->pend[s->npend].payload = malloc(len ? len : 1))) {
		s->dropped_events++;
		return;
	}
	memcpy(s->pend[s->npend].payload, payload, len);
	s->pend[s->npend].t = t;
	s->pend[s->npend].type = type;
	s->pend[s->npend].len = len;
	s->npend++;
}

/* The phase a load belongs to: the one whose load list holds it. A load
 * kept across a boundary belongs to the new phase (the supervisor rebinds
 * it); one stopped at the boundary to the old one; the first phase's loads
 * from their start, warm-up included. -1: none (the guardian). */
static int phase_of(const struct soak *s, const struct load *src)
{
	size_t i, j;

	for (i = 0; src && i < s->nph; i++) {
		for (j = 0; j < s->ph[i].nloads; j++) {
			if (s->ph[i].loads[j] == src)
				return (int)i;
		}
	}
	return -1;
}

static void on_load_event(void *ctx, const struct loadsup_event *e)
{
	struct soak *s = ctx;
	int ph = phase_of(s, e->src);
	struct proof_phase *p = ph >= 0 ? &s->ph[ph].proof : NULL;
	struct proof_load_stat *st;
	char buf[2048];
	size_t n = loadsup_event_format(e, buf, sizeof(buf));
	int m;

	/* the phase goes into the event: analyze attributes it as the run did */
	if (ph >= 0 && n + 32 < sizeof(buf) &&
	    (m = snprintf(buf + n, sizeof(buf) - n, "phase=%d\n", ph)) > 0)
		n += (size_t)m;
	log_event(s, e->t_ns, EDGELOG_EV_LOAD, buf, n);
	if (e->what == LS_GUARD) {
		char t[32];

		snprintf(t, sizeof(t), "%s", "before the run");
		if (s->t0 && e->t_ns >= s->t0)
			snprintf(t, sizeof(t), "t+%.1f s", (double)(e->t_ns - s->t0) / 1e9);
		snprintf(s->containment, sizeof(s->containment), "%s; its guardian was lost at %s: "
			 "a SIGKILL of sqwave after that would have left the loads running",
			 loadsup_containment(s->sup), t);
		return;
	}
	if (!p || !(st = proof_phase_load(p, e->load)))
		return;
	switch (e->what) {
	case LS_RESULT:
		proof_phase_add_result(p, e->load, e->result);
		break;
	case LS_RESTARTED:
		st->restarts++;
		break;
	case LS_KILLED:
		st->kills++;
		break;
	case LS_LOST:
		if (!st->lost) {
			st->lost = true;
			st->lost_t_ns = e->t_ns - s->t0;
			snprintf(st->lost_why, sizeof(st->lost_why), "%s", e->detail ? e->detail : "");
		}
		break;
	default:
		break;
	}
}

static void phase_free(struct soak_phase *ph)
{
	size_t i;

	for (i = 0; i < ph->nloads; i++) {
		load_free(ph->loads[i]);
		free(ph->specs[i]);
	}
	free(ph->loads);
	free(ph->specs);
	free(ph->reqs);
}

/*
 * The idle baseline of an idle-versus-loaded run (and of a run without
 * loads, to be compared with one that has them): each phase without loads
 * must show the CPUs its loads would have used (every CPU but rt.cpu) quiet,
 * or its row compares a loaded machine with a loaded one. Not on a single
 * CPU, where sqwave's own RT thread is the load; not at 100 (off).
 */
static void idle_reqs(struct soak *s, const struct load_env *env, int max_busy)
{
	cpu_set_t cpus = env->online;
	size_t i;

	/* a run without loads proves its idleness too (shown, not judged) */
	if (max_busy >= 100 || CPU_COUNT(&cpus) < 2)
		return;
	if (env->rt_cpu >= 0 && env->rt_cpu < CPU_SETSIZE)
		CPU_CLR((size_t)env->rt_cpu, &cpus);
	for (i = 0; i < s->nph; i++) {
		if (!s->ph[i].nloads) {
			proof_req_idle(&s->ph[i].reqs[0], &cpus, max_busy);
			s->ph[i].nreqs = 1;
		}
	}
}

int soak_pick_rt_cpu(const struct plan *p, const cpu_set_t *allowed)
{
	bool wants = false;
	size_t i, j;
	int cpu;

	for (i = 0; i < p->nphases; i++) {
		for (j = 0; j < p->phases[i].nloads; j++)
			wants |= !p->phases[i].loads[j].text[PLK_CPUS][0];
	}
	if (!wants || CPU_COUNT(allowed) < 2)
		return -1;
	for (cpu = CPU_SETSIZE - 1; cpu >= 0 && !CPU_ISSET((size_t)cpu, allowed); cpu--)
		;
	return cpu;
}

int soak_choose_rt_cpu(struct config *c, char *note, size_t len)
{
	cpu_set_t allowed, online;
	char val[16], err[256];
	int cpu;

	if (len)
		note[0] = '\0';
	if (config_int(c, CFG_RT_CPU) >= 0)
		return 0;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0) {
		msgbuf_set(note, len, "cannot read this process's CPUs: %s", strerror(errno));
		return -1;
	}
	cpulist_online(&online);
	CPU_AND(&allowed, &allowed, &online);
	cpu = soak_pick_rt_cpu(config_plan(c), &allowed);
	if (cpu < 0)
		return 0;
	snprintf(val, sizeof(val), "%d", cpu);
	if (config_set(c, CFG_RT_CPU, val, CFG_SRC_DEFAULT, NULL, 0, err, sizeof(err)) != CFG_OK) {
		msgbuf_set(note, len, "cannot choose rt.cpu: %s", err);
		return -1;
	}
	msgbuf_set(note, len, "rt.cpu is not set: the RT thread runs on CPU %d and the loads on "
		   "the other CPUs (set rt.cpu in the board file, or --set rt.cpu=N, to choose)",
		   cpu);
	return 1;
}

struct soak *soak_new(const struct config *c, char *err, size_t errlen, int *exit)
{
	const struct plan *plan = config_plan(c);
	struct load_env env = { .rt_cpu = (int)config_int(c, CFG_RT_CPU), .sysroot = "",
				.root = geteuid() == 0 };
	struct soak *s = calloc(1, sizeof(*s));
	size_t i, j;

	*exit = 3;
	if (!s || !(s->ph = calloc(plan->nphases ? plan->nphases : 1, sizeof(*s->ph)))) {
		free(s);
		msgbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	s->c = c;
	s->cur = -1;
	s->qfd = -1;
	s->rt_cpu = env.rt_cpu;
	s->nph = plan->nphases;
	s->interval = (uint64_t)config_int(c, CFG_PROOF_INTERVAL);
	cpulist_online(&env.online);
	for (i = 0; i < s->nph; i++) {
		const struct plan_phase *pp = &plan->phases[i];
		struct soak_phase *ph = &s->ph[i];

		ph->plan = pp;
		ph->loads = calloc(pp->nloads + 1, sizeof(*ph->loads));
		ph->reqs = calloc(pp->nloads + 1, sizeof(*ph->reqs));
		ph->specs = calloc(pp->nloads + 1, sizeof(*ph->specs));
		if (!ph->loads || !ph->reqs || !ph->specs) {
			msgbuf_set(err, errlen, "out of memory");
			goto fail;
		}
		for (j = 0; j < pp->nloads; j++) {
			enum load_error cls;
			char spec[2048];

			ph->loads[j] = load_new(&pp->loads[j], &env, &cls, err, errlen);
			if (!ph->loads[j]) {
				*exit = cls == LOAD_E_CONFIG ? 2 : 3;
				goto fail;
			}
			ph->nloads++;
			proof_req_from_load(&ph->reqs[j], ph->loads[j]);
			ph->nreqs++;
			ph->specs[j] = strdup(plan_load_format(&pp->loads[j], spec, sizeof(spec)));
			if (!ph->specs[j]) {
				msgbuf_set(err, errlen, "out of memory");
				goto fail;
			}
			s->has_loads = true;
		}
	}
	idle_reqs(s, &env, (int)config_int(c, CFG_PROOF_IDLE_MAX_BUSY));
	return s;
fail:
	soak_free(s);
	return NULL;
}

/* The sampler thread: SCHED_FIFO at the lowest priority off rt.cpu, so
 * that a load on every other CPU cannot hold it off; one reading per
 * proof.interval on an absolute clock. No allocation, no log: a sample
 * goes into the queue (dropped and counted when the main thread has not
 * taken SAMPLE_QUEUE of them: the phase then shows the hole as a gap). */
static void *sampler_main(void *arg)
{
	struct soak *s = arg;
	struct proof_sample smp;
	char err[256];
	uint64_t next;
	int fifo = rtsetup_helper_fifo(SAMPLER_PRIORITY, s->rt_cpu), fifo_errno = errno;

	pthread_mutex_lock(&s->qlock);
	if (fifo == 0)
		snprintf(s->sampler_sched, sizeof(s->sampler_sched), "SCHED_FIFO %d%s",
			 SAMPLER_PRIORITY, s->rt_cpu >= 0 ? ", off rt.cpu" : "");
	else
		snprintf(s->sampler_sched, sizeof(s->sampler_sched), "SCHED_OTHER (SCHED_FIFO "
			 "refused: %s): a load can hold it off; its gaps are measured",
			 strerror(fifo_errno));
	next = s->next_sample;
	while (!s->qstop) {
		struct timespec ts = { .tv_sec = (time_t)(next / 1000000000u),
				       .tv_nsec = (long)(next % 1000000000u) };
		uint64_t now;
		int got;

		if (pthread_cond_timedwait(&s->qcond, &s->qlock, &ts) != ETIMEDOUT)
			continue;	/* woken to stop, or early */
		pthread_mutex_unlock(&s->qlock);
		now = clock_mono_ns();
		got = proof_sampler_read(s->sampler, now, &smp, err, sizeof(err));
		pthread_mutex_lock(&s->qlock);
		if (got == 1) {
			uint64_t one = 1;

			if (s->qn == SAMPLE_QUEUE) {
				s->qdropped++;
			} else {
				s->queue[(s->qhead + s->qn) % SAMPLE_QUEUE] = smp;
				s->qn++;
			}
			if (write(s->qfd, &one, sizeof(one)) < 0) {
				/* the counter is full: the main thread has the word already */
			}
		}
		next += s->interval;
		if (next <= now)	/* late: no burst of catch-up readings (the gap shows) */
			next = now + s->interval;
	}
	pthread_mutex_unlock(&s->qlock);
	return NULL;
}

static void sampler_stop(struct soak *s)
{
	if (!s->sampling)
		return;
	pthread_mutex_lock(&s->qlock);
	s->qstop = true;
	pthread_cond_signal(&s->qcond);
	pthread_mutex_unlock(&s->qlock);
	pthread_join(s->sampler_tid, NULL);
	s->sampling = false;
}

/* Set up the sampler (its first reading now) and start its thread. */
static int sampler_start(struct soak *s, char *err, size_t errlen)
{
	pthread_condattr_t ca;
	pthread_attr_t ta;
	struct proof_sample unused;
	char why[512];
	size_t i, j;
	int e;

	s->sampler = proof_sampler_new("", err, errlen);
	if (!s->sampler)
		return -1;
	for (i = 0; i < s->nph; i++) {
		for (j = 0; j < s->ph[i].nloads; j++) {
			if (s->ph[i].reqs[j].kind == LOAD_PROOF_NET)
				proof_sampler_want(s->sampler, s->ph[i].reqs[j].iface);
		}
	}
	if (proof_sampler_read(s->sampler, clock_mono_ns(), &unused, why, sizeof(why)) < 0) {
		msgbuf_set(err, errlen, "proof of load: %s", why);
		return -1;
	}
	s->queue = calloc(SAMPLE_QUEUE, sizeof(*s->queue));
	s->qfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!s->queue || s->qfd < 0) {
		msgbuf_set(err, errlen, "proof of load: %s", strerror(s->queue ? errno : ENOMEM));
		return -1;
	}
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&s->qlock, NULL);
	pthread_cond_init(&s->qcond, &ca);
	pthread_condattr_destroy(&ca);
	s->qinit = true;
	s->next_sample = clock_mono_ns() + s->interval;
	pthread_attr_init(&ta);
	pthread_attr_setstacksize(&ta, SAMPLER_STACK);
	e = pthread_create(&s->sampler_tid, &ta, sampler_main, s);
	pthread_attr_destroy(&ta);
	if (e) {
		msgbuf_set(err, errlen, "proof of load: cannot start the sampler thread: %s",
			   strerror(e));
		return -1;
	}
	pthread_setname_np(s->sampler_tid, "sqwave-proof");
	s->sampling = true;
	return 0;
}

void soak_free(struct soak *s)
{
	size_t i;

	if (!s)
		return;
	sampler_stop(s);
	loadsup_free(s->sup);
	proof_sampler_free(s->sampler);
	free(s->queue);
	if (s->qfd >= 0)
		close(s->qfd);
	if (s->qinit) {
		pthread_mutex_destroy(&s->qlock);
		pthread_cond_destroy(&s->qcond);
	}
	for (i = 0; i < s->nph; i++)
		phase_free(&s->ph[i]);
	for (i = 0; i < s->npend; i++)
		free(s->pend[i].payload);
	free(s->ph);
	free(s);
}

bool soak_has_loads(const struct soak *s)
{
	return s->has_loads;
}

size_t soak_nphases(const struct soak *s)
{
	return s->nph;
}

int soak_start(struct soak *s, char *err, size_t errlen)
{
	struct loadsup_params lp = {
		.containment = (enum contain_kind)config_choice(s->c, CFG_RUN_CONTAINMENT),
		.self_exe = "/proc/self/exe",
		.event = on_load_event,
		.ctx = s,
	};
	char why[512];

	/* A run with loads samples from before its loads start, and fails when
	 * it cannot; a run without starts its sampler in soak_attach(), after
	 * the threads the run cannot do without (under a small RLIMIT_MEMLOCK
	 * with mlockall, a thread started first may leave no room for them). */
	if (!s->has_loads)
		return 0;
	if (sampler_start(s, why, sizeof(why)) < 0) {
		sampler_stop(s);
		msgbuf_set(s->sampler_sched, sizeof(s->sampler_sched), "none: %s", why);
		msgbuf_set(err, errlen, "%s", why);
		return -1;
	}
	s->sup = loadsup_new(&lp, err, errlen);
	if (!s->sup)
		return -1;
	if (loadsup_switch(s->sup, s->ph[0].loads, s->ph[0].nloads, clock_mono_ns(), err, errlen) < 0 ||
	    (s->ph[0].nloads && loadsup_settle(s->sup, SETTLE_MS, err, errlen) < 0)) {
		loadsup_stop_all(s->sup, clock_mono_ns());
		return -1;
	}
	return 0;
}

void soak_dump_meta(const struct soak *s, FILE *f)
{
	char buf[512];
	size_t i, j;

	if (!s->has_loads)
		return;
	fprintf(f, "loads.containment=%s\n", s->sup ? loadsup_containment(s->sup) : "");
	for (i = 0; i < s->nph; i++) {
		for (j = 0; j < s->ph[i].nreqs; j++) {
			proof_req_format(&s->ph[i].reqs[j], buf, sizeof(buf));
			fprintf(f, "phase.%zu.proof.%zu=%s|%s\n", i, j, s->ph[i].reqs[j].name, buf);
		}
	}
}

void soak_phase_starts(const struct soak *s, uint64_t t0, uint64_t *starts)
{
	size_t i;

	for (i = 0; i < s->nph; i++)
		starts[i] = t0 + (uint64_t)s->ph[i].plan->start_off_ns;
}

void soak_attach(struct soak *s, struct recorder *rec, uint64_t t0)
{
	size_t i;

	s->rec = rec;
	s->t0 = t0;
	for (i = 0; i < s->npend; i++) {
		if (recorder_event(rec, s->pend[i].t, s->pend[i].type, s->pend[i].payload,
				   s->pend[i].len) < 0)
			s->dropped_events++;
		free(s->pend[i].payload);
	}
	s->npend = 0;
	/* a run without loads: its idle proof, sampled from here (soak_start) */
	if (!s->has_loads && !s->sampling) {
		char why[512];

		if (sampler_start(s, why, sizeof(why)) < 0) {
			sampler_stop(s);
			msgbuf_set(s->sampler_sched, sizeof(s->sampler_sched), "none: %s", why);
		}
	}
}

/* Enter phase @i at its boundary time @t. */
static void enter_phase(struct soak *s, size_t i, uint64_t t)
{
	const struct plan_phase *pp = s->ph[i].plan;
	char buf[256], err[512];
	int n;

	s->cur = (int)i;
	n = snprintf(buf, sizeof(buf), "index=%zu\nname=%s\nstart_off_ns=%" PRId64
		     "\nduration_ns=%" PRId64 "\n", i, pp->name, pp->start_off_ns, pp->duration_ns);
	log_event(s, t, EDGELOG_EV_PHASE, buf, n > 0 ? (size_t)n : 0);
	/* A load that cannot start is lost (its events say why, and the
	 * phase's verdict with them); the note keeps the whole message. */
	if (i > 0 && s->sup &&
	    loadsup_switch(s->sup, s->ph[i].loads, s->ph[i].nloads, clock_mono_ns(), err,
			   sizeof(err)) < 0)
		log_event(s, clock_mono_ns(), EDGELOG_EV_NOTE, err, strlen(err));
}

/* A sample the sampler thread took at smp->t_ns: into the log, and into
 * the phase that holds its whole interval. */
static void take_sample(struct soak *s, const struct proof_sample *sp)
{
	const struct proof_sample smp = *sp;
	uint64_t now = smp.t_ns;
	char buf[4096];
	size_t n;

	n = proof_sample_format(&smp, buf, sizeof(buf));
	log_event(s, now, EDGELOG_EV_SAMPLE, buf, n);
	/* Counted in a phase only when the whole interval lies inside it
	 * (analyze's soakview counts the log's samples alike). */
	if (s->t0 && now - smp.dt_ns >= s->t0) {
		uint64_t from = now - smp.dt_ns - s->t0;
		size_t i = s->nph;

		while (i-- > 0 && from < (uint64_t)s->ph[i].plan->start_off_ns)
			;
		if (i < s->nph && (i + 1 == s->nph ||
				   now - s->t0 <= (uint64_t)s->ph[i + 1].plan->start_off_ns))
			proof_phase_add_sample(&s->ph[i].proof, &smp);
	}
}

/* Tell the sampler where each running load's own CPU time is: its cgroup
 * v2 directory, else its process groups (docs/soak.md). */
static void own_groups(struct soak *s)
{
	static struct proof_own_group g[PROOF_MAX_LOADS];	/* main thread only */
	const struct load *l;
	size_t n = 0, i, k, npg;
	const pid_t *pg;
	const char *cg2;

	if (!s->sampler)
		return;
	for (i = 0; n < PROOF_MAX_LOADS && (l = loadsup_group_at(s->sup, i, &cg2, &pg, &npg)); i++) {
		struct proof_own_group *o = &g[n];

		if (load_proof_kind(l) != LOAD_PROOF_CPU)
			continue;
		memset(o, 0, sizeof(*o));
		snprintf(o->name, sizeof(o->name), "%s", load_name(l));
		o->ncpus = (unsigned)CPU_COUNT(load_cpus(l));
		if (cg2[0] && strlen(cg2) < sizeof(o->dir)) {
			o->src = PROOF_OWN_CGROUP2;
			snprintf(o->dir, sizeof(o->dir), "%s", cg2);
		} else {
			o->src = PROOF_OWN_PROCESSES;
			for (k = 0; k < npg && k < PROOF_OWN_PGIDS; k++)
				o->pgids[k] = pg[k];
			o->npgids = k;
		}
		n++;
	}
	proof_sampler_set_groups(s->sampler, g, n);
}

/* The samples the sampler thread queued, in order. */
static void drain_samples(struct soak *s)
{
	uint64_t word;

	if (!s->qinit)
		return;
	if (read(s->qfd, &word, sizeof(word)) < 0) {
		/* EAGAIN: nothing rang; the queue is looked at anyway */
	} else {
		own_groups(s);	/* for the next reading: new processes count from their start */
	}
	for (;;) {
		static struct proof_sample smp;	/* main thread only; 2 kB off the stack */
		bool have;

		pthread_mutex_lock(&s->qlock);
		have = s->qn > 0;
		if (have) {
			smp = s->queue[s->qhead];
			s->qhead = (s->qhead + 1) % SAMPLE_QUEUE;
			s->qn--;
		}
		pthread_mutex_unlock(&s->qlock);
		if (!have)
			break;
		take_sample(s, &smp);
	}
}

void soak_tick(struct soak *s, uint64_t now)
{
	if (!s->t0)
		return;
	bool switched = false;

	while ((size_t)(s->cur + 1) < s->nph &&
	       now >= s->t0 + (uint64_t)s->ph[s->cur + 1].plan->start_off_ns) {
		enter_phase(s, (size_t)(s->cur + 1),
			    s->t0 + (uint64_t)s->ph[s->cur + 1].plan->start_off_ns);
		switched = true;
	}
	/* Stopping the old loads may have taken their grace period: what
	 * follows (a sample's interval, restarts) is timed from now. */
	if (switched)
		now = clock_mono_ns();
	drain_samples(s);
	if (!s->has_loads)
		return;
	loadsup_tick(s->sup, now);
}

uint64_t soak_next_due(const struct soak *s)
{
	uint64_t due = UINT64_MAX;

	if (s->t0 && (size_t)(s->cur + 1) < s->nph)
		due = s->t0 + (uint64_t)s->ph[s->cur + 1].plan->start_off_ns;
	if (s->has_loads && s->sup) {
		if (loadsup_next_due(s->sup) < due)
			due = loadsup_next_due(s->sup);
	}
	return due;
}

size_t soak_pollfds(const struct soak *s, struct pollfd *fds, size_t max)
{
	size_t n = 0;

	if (s->sampling && max) {	/* a sample is ready */
		fds[n].fd = s->qfd;
		fds[n].events = POLLIN;
		fds[n++].revents = 0;
	}
	return n + (s->sup ? loadsup_pollfds(s->sup, fds + n, max - n) : 0);
}

void soak_read(struct soak *s, const struct pollfd *fds, size_t n, uint64_t now)
{
	if (s->sup)
		loadsup_read(s->sup, fds, n, now);
}

void soak_sigchld(struct soak *s, uint64_t now)
{
	if (s->sup)
		loadsup_reap(s->sup, now);
}

const char *soak_phase_name(const struct soak *s)
{
	return s->cur >= 0 ? s->ph[s->cur].plan->name : "";
}

const char *soak_load_status(const struct soak *s, char *buf, size_t len)
{
	if (!s->sup) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	return loadsup_status(s->sup, buf, len);
}

void soak_stop(struct soak *s)
{
	if (!s->stop_ns) {
		s->stop_ns = clock_mono_ns();
		/* the last samples, into the log while it is open */
		sampler_stop(s);
		drain_samples(s);
	}
	if (s->sup)
		loadsup_stop_all(s->sup, clock_mono_ns());
}

const char *soak_containment(const struct soak *s)
{
	if (s->containment[0])
		return s->containment;
	return s->sup ? loadsup_containment(s->sup) : "";
}

void soak_phase_result(const struct soak *s, size_t i, struct run_phase *out)
{
	const struct soak_phase *ph = &s->ph[i];

	memset(out, 0, sizeof(*out));
	out->name = ph->plan->name;
	out->start_off_ns = ph->plan->start_off_ns;
	out->duration_ns = ph->plan->duration_ns;
	out->proof = &ph->proof;
	out->reqs = ph->reqs;
	out->nreqs = ph->nreqs;
	out->load_specs = (const char *const *)ph->specs;
	out->nloads = ph->nloads;
	out->sampled = s->qinit;
	out->advisory = !s->has_loads;
	out->gap_bound_ns = PROOF_GAP_INTERVALS * s->interval;
	/* how long the phase really ran: to its end, or to the stop */
	if (s->t0 && s->qinit) {
		uint64_t start = s->t0 + (uint64_t)ph->plan->start_off_ns, end = s->stop_ns;

		if (ph->plan->duration_ns && i + 1 < s->nph &&
		    start + (uint64_t)ph->plan->duration_ns < end)
			end = start + (uint64_t)ph->plan->duration_ns;
		out->gaps_known = end > start;
		out->max_gap_ns = out->gaps_known ? proof_phase_max_gap(&ph->proof, start, end) : 0;
	}
}

const char *soak_sampler_sched(const struct soak *s)
{
	return s->sampler_sched;
}
