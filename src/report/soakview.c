/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A soak seen from its log: header plan + events -> per-phase proof. */
#include "report/soakview.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log/edgelog.h"
#include "base/clocksync.h"
#include "base/msgbuf.h"
#include "base/outfile.h"
#include "loads/proof.h"

#define MAX_PHASES 64
#define MAX_LOADS_PER_PHASE 64

struct sv_phase {
	char name[64];
	int64_t start_off_ns, duration_ns;
	size_t nloads;
	char *specs[MAX_LOADS_PER_PHASE];
	size_t nreqs;
	struct proof_req reqs[MAX_LOADS_PER_PHASE];
	struct proof_phase proof;
	bool sampled;
};

/* One proof sample for the plots: its interval's middle and whether the
 * interval crosses a phase boundary (a phase does not count it: no step of
 * a plot may show it either, or one phase's load would appear in another). */
struct sv_point {
	uint64_t mid_ns;
	bool straddles;
	double busy, irq, ctxt, pps;
};

struct soakview {
	struct config *c;
	uint64_t t0;               /* end of the warm-up: phase offsets count from it */
	uint64_t start_ns;
	int64_t half;
	size_t nph;
	struct sv_phase ph[MAX_PHASES];
	char label[128], containment[512];
	unsigned breaks;
	char break_text[1024], break_cause[128], break_trace[4200];
	uint64_t row_t0;
	int64_t row_ns;
	struct soakview_span *rows;   /* grows with the samples: proportional to the input */
	size_t nrows;
	struct sv_point *pts;         /* every sample's figures, by the middle of its interval */
	size_t npts, cappts;
	bool has_grid;                /* grid.clock realtime/tai: the header's grid, its steps */
	struct run_grid grid;
	bool respond;                 /* a respond log: its note at the stop, below */
	bool resp_end;
	uint64_t resp_lost, resp_lost_warmup, resp_unanswered;
};

/* Text from the log's header and events goes to terminals, SVG and the
 * summary: control characters and bytes that are not UTF-8 as \xNN (a run
 * writes words there; a damaged or forged log need not). */
static void clean(char *buf, size_t len)
{
	char tmp[4224];

	if (!len)
		return;
	outfile_escape(buf, tmp, len < sizeof(tmp) ? len : sizeof(tmp));
	memcpy(buf, tmp, strlen(tmp) + 1);
}

static const char *meta_get(const struct edgelog_meta *m, const char *key, char *buf, size_t len)
{
	if (!edgelog_meta_get(m, key, buf, len))
		return NULL;
	clean(buf, len);
	return buf;
}

static const char *ev_get(const struct edgelog_event *ev, const char *key, char *buf, size_t len)
{
	if (!edgelog_event_get(ev, key, buf, len))
		return NULL;
	clean(buf, len);
	return buf;
}

/* "phase.I.WHAT" or "phase.I.WHAT.J" (@j SIZE_MAX: none). */
static const char *meta(const struct edgelog_meta *m, size_t i, const char *what, size_t j,
			char *buf, size_t len)
{
	char key[96];

	if (j == SIZE_MAX)
		snprintf(key, sizeof(key), "phase.%zu.%s", i, what);
	else
		snprintf(key, sizeof(key), "phase.%zu.%s.%zu", i, what, j);
	return meta_get(m, key, buf, len);
}

/* Phase offsets and lengths: up to 10^18 ns (31 years), so that the start
 * of the run plus one stays within uint64. */
#define PHASE_NS_MAX 1000000000000000000ll

/* @s is a whole decimal integer in [0, @max] (a header's "5e8", "abc", ""
 * or "2x" is no number: strtoll would read 5, 0, 0 and 2). */
static bool whole_int(const char *s, long long max, long long *out)
{
	char *end;
	long long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

/* A whole decimal integer, signed, as the run wrote it: the whole range
 * of int64, -9223372036854775808 too. */
static bool signed_int(const char *s, long long *out)
{
	const char *d = *s == '-' ? s + 1 : s;
	char *end;
	long long v;

	if (*d < '0' || *d > '9')
		return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* |@v|, for every int64 (INT64_MIN's too). */
static uint64_t magnitude(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* grid.clock realtime/tai: the header's grid lines (gridrun_dump_meta()).
 * -1 on a missing or malformed one. */
static int read_grid(struct soakview *v, const struct edgelog_meta *m, char *err, size_t errlen)
{
	static const char *const keys[] = { EDGELOG_META_GRID_SLOT0, EDGELOG_META_GRID_OFFSET,
					    EDGELOG_META_GRID_UNCERT };
	long long n[3];
	char buf[64];
	size_t i;

	if (config_choice(v->c, CFG_GRID_CLOCK) == GRID_CLOCK_MONOTONIC)
		return 0;
	for (i = 0; i < 3; i++)
		if (!edgelog_meta_get(m, keys[i], buf, sizeof(buf)) || !signed_int(buf, &n[i]) ||
		    (i != 1 && n[i] < 0)) {
			msgbuf_set(err, errlen, "grid.clock %s, but the header's %s is %s",
				   config_str(v->c, CFG_GRID_CLOCK), keys[i],
				   edgelog_meta_get(m, keys[i], buf, sizeof(buf)) ? "not a number"
				   : "missing");
			return -1;
		}
	v->has_grid = true;
	v->grid.clock = config_str(v->c, CFG_GRID_CLOCK);
	v->grid.align_ns = config_str(v->c, CFG_GRID_START)[0] ? 0
			   : (uint64_t)config_int(v->c, CFG_GRID_ALIGN);
	v->grid.start_ns = (uint64_t)n[0];
	v->grid.offset_ns = n[1];
	v->grid.offset_uncert_ns = (uint64_t)n[2];
	/* the sync state: all of it, or none (a log of a host without adjtimex) */
	if (edgelog_meta_get(m, EDGELOG_META_CLOCK_SYNCED, buf, sizeof(buf))) {
		struct clocksync_state *st = &v->grid.sync;
		long long x[4] = { 0 };
		const char *const nk[] = { EDGELOG_META_CLOCK_MAXERR, EDGELOG_META_CLOCK_ESTERR,
					   EDGELOG_META_CLOCK_TAI, EDGELOG_META_CLOCK_STATUS };
		char state[32] = "";
		int s2;

		st->synced = !strcmp(buf, "yes");
		for (i = 0; i < 3; i++)
			if (edgelog_meta_get(m, nk[i], buf, sizeof(buf)))
				signed_int(buf, &x[i]);
		if (edgelog_meta_get(m, nk[3], buf, sizeof(buf)))
			x[3] = strtoll(buf, NULL, 16);
		st->maxerror_us = (long)x[0];
		st->esterror_us = (long)x[1];
		st->tai_s = (int)x[2];
		st->status = (int)x[3];
		edgelog_meta_get(m, EDGELOG_META_CLOCK_STATE, state, sizeof(state));
		st->state = -1;
		for (s2 = 0; s2 <= 5; s2++)
			if (!strcmp(state, clocksync_state_name(s2)))
				st->state = s2;
		v->grid.sync_known = true;
	}
	return 0;
}

/* A clock event (gridrun_event_text()): a set, a step, the end's read.
 * -1 with @err when a step's size is not a number or the steps add up
 * beyond int64 (+-292 years): no run's clock moves so, and a figure taken
 * as 0 would say the grid held. */
static int take_clock(struct soakview *v, const struct edgelog_event *ev, char *err,
		      size_t errlen)
{
	struct run_grid *g = &v->grid;
	char src[16] = "", moved[8] = "", buf[32];
	long long delta = 0, off = 0;
	int64_t sum;

	ev_get(ev, "source", src, sizeof(src));
	ev_get(ev, "moved", moved, sizeof(moved));
	if (ev_get(ev, "offset_ns", buf, sizeof(buf)))
		signed_int(buf, &off);
	if (!strcmp(src, "kernel"))
		g->sets++;
	if (!strcmp(moved, "yes")) {
		if (!ev_get(ev, "delta_ns", buf, sizeof(buf)) || !signed_int(buf, &delta)) {
			msgbuf_set(err, errlen, "the clock event at %" PRIu64 " ns moved the grid "
				   "by a delta_ns that is %s", ev->time_ns,
				   ev_get(ev, "delta_ns", buf, sizeof(buf)) ? "not a number" : "missing");
			return -1;
		}
		if (__builtin_add_overflow(g->step_sum_ns, (int64_t)delta, &sum)) {
			msgbuf_set(err, errlen, "the clock events' steps add up beyond +-292 years "
				   "(delta_ns %lld at %" PRIu64 " ns): no run's clock moved so",
				   delta, ev->time_ns);
			return -1;
		}
		g->steps++;
		g->step_sum_ns = sum;
		if (!g->step_first_ns)
			g->step_first_ns = ev->time_ns;
		if (magnitude(delta) > magnitude(g->step_largest_ns))
			g->step_largest_ns = delta;
	}
	if (!strcmp(src, "end")) {
		g->end_known = true;
		g->end_offset_ns = off;
	}
	return 0;
}

/* The plan from the header: phase.N.{name,start_off_ns,duration_ns,loads,
 * load.M,proof.M}. -1 on a malformed line. */
static int read_plan(struct soakview *v, const struct edgelog_meta *m, char *err, size_t errlen)
{
	char buf[2048];
	size_t i, j;
	long long n;

	if (!meta_get(m, "phase.count", buf, sizeof(buf)))
		return 0;
	if (!whole_int(buf, MAX_PHASES, &n)) {
		msgbuf_set(err, errlen, "header: phase.count %s is not 0..%d", buf, MAX_PHASES);
		return -1;
	}
	v->nph = (size_t)n;
	for (i = 0; i < v->nph; i++) {
		struct sv_phase *p = &v->ph[i];
		long long loads;

		long long off, dur;

		if (!meta(m, i, "name", SIZE_MAX, p->name, sizeof(p->name)) ||
		    !meta(m, i, "start_off_ns", SIZE_MAX, buf, sizeof(buf)) ||
		    !whole_int(buf, PHASE_NS_MAX, &off) ||
		    !meta(m, i, "duration_ns", SIZE_MAX, buf, sizeof(buf)) ||
		    !whole_int(buf, PHASE_NS_MAX, &dur) ||
		    !meta(m, i, "loads", SIZE_MAX, buf, sizeof(buf)) ||
		    !whole_int(buf, MAX_LOADS_PER_PHASE, &loads)) {
			msgbuf_set(err, errlen, "header: phase %zu is incomplete or out of range", i);
			return -1;
		}
		p->start_off_ns = off;
		p->duration_ns = dur;
		if (i && p->start_off_ns < v->ph[i - 1].start_off_ns) {
			msgbuf_set(err, errlen, "header: phase %zu starts before phase %zu", i, i - 1);
			return -1;
		}
		for (j = 0; j < (size_t)loads; j++) {
			if (!meta(m, i, "load", j, buf, sizeof(buf)) ||
			    !(p->specs[p->nloads] = strdup(buf))) {
				msgbuf_set(err, errlen, "header: phase %zu load %zu missing", i, j);
				return -1;
			}
			p->nloads++;
			/* "NAME|KIND|CPUS|IFACE|MIN_PPS|RESULTS" (soak.c) */
			if (meta(m, i, "proof", j, buf, sizeof(buf))) {
				char *bar = strchr(buf, '|');

				if (!bar || (*bar = '\0', proof_req_parse(&p->reqs[p->nreqs], buf,
									  bar + 1) < 0)) {
					msgbuf_set(err, errlen, "header: phase %zu proof %zu malformed", i, j);
					return -1;
				}
				p->nreqs++;
			}
		}
		/* a phase without loads: its idle requirement, if the run set one */
		if (!loads && meta(m, i, "proof", 0, buf, sizeof(buf))) {
			char *bar = strchr(buf, '|');

			if (!bar || (*bar = '\0', proof_req_parse(&p->reqs[0], buf, bar + 1) < 0) ||
			    p->reqs[0].kind != LOAD_PROOF_IDLE) {
				msgbuf_set(err, errlen, "header: phase %zu proof 0 malformed", i);
				return -1;
			}
			p->nreqs = 1;
		}
		p->sampled = p->nreqs > 0 || meta_get(m, "loads.containment", buf, 8);
	}
	return 0;
}

static int phase_at(const struct soakview *v, uint64_t t)
{
	size_t i;

	if (t < v->t0)
		return -1;
	for (i = v->nph; i-- > 0;) {
		if (t - v->t0 >= (uint64_t)v->ph[i].start_off_ns)
			return (int)i;
	}
	return -1;
}

static struct soakview_span *row_for(struct soakview *v, uint64_t t)
{
	uint64_t idx;

	if (!v->row_ns || t < v->row_t0)
		return NULL;
	idx = (t - v->row_t0) / (uint64_t)v->row_ns;
	/* one row per sample at most: a corrupt time cannot make it huge */
	if (idx >= v->nrows) {
		struct soakview_span *nr;

		if (idx > v->nrows + 16 && idx > 4 * (v->nrows + 1024))
			return NULL;
		nr = realloc(v->rows, (size_t)(idx + 1) * sizeof(*nr));
		if (!nr)
			return NULL;
		memset(nr + v->nrows, 0, (size_t)(idx + 1 - v->nrows) * sizeof(*nr));
		v->rows = nr;
		v->nrows = (size_t)idx + 1;
	}
	return &v->rows[idx];
}

/* Phase boundary @i (0..nph): phase i's start, or for i == nph the last
 * phase's end; false when there is no such boundary. */
static bool boundary_at(const struct soakview *v, size_t i, uint64_t *at)
{
	if (i < v->nph)
		*at = v->t0 + (uint64_t)v->ph[i].start_off_ns;
	else if (i == v->nph && v->nph && v->ph[v->nph - 1].duration_ns > 0)
		*at = v->t0 + (uint64_t)v->ph[v->nph - 1].start_off_ns +
		      (uint64_t)v->ph[v->nph - 1].duration_ns;
	else
		return false;
	return true;
}

/* Whether [@a, @b] crosses a phase's start or the last phase's end. */
static bool crosses_boundary(const struct soakview *v, uint64_t a, uint64_t b)
{
	uint64_t at;
	size_t i;

	for (i = 0; boundary_at(v, i, &at); i++)
		if (a < at && at < b)
			return true;
	return false;
}

/* A sample's point for soakview_window(); one per sample event, so the
 * array is proportional to the input. Without memory the plots lose the
 * point, the phases' proof does not. */
static void add_point(struct soakview *v, uint64_t end_ns, uint64_t dt_ns, double busy,
		      double irq, double ctxt, double pps)
{
	uint64_t start = end_ns >= dt_ns ? end_ns - dt_ns : 0;
	struct sv_point *p;

	if (v->npts == v->cappts) {
		size_t nc = v->cappts ? v->cappts * 2 : 256;

		p = realloc(v->pts, nc * sizeof(*p));
		if (!p)
			return;
		v->pts = p;
		v->cappts = nc;
	}
	p = &v->pts[v->npts++];
	p->mid_ns = start + (end_ns - start) / 2;
	p->straddles = crosses_boundary(v, start, end_ns);
	p->busy = busy;
	p->irq = irq;
	p->ctxt = ctxt;
	p->pps = pps;
}

static int point_cmp(const void *a, const void *b)
{
	const struct sv_point *x = a, *y = b;

	return x->mid_ns < y->mid_ns ? -1 : x->mid_ns > y->mid_ns;
}

static void take_sample(struct soakview *v, const struct edgelog_event *ev)
{
	struct proof_sample s;
	struct soakview_span *row;
	double busy = 0, pps = 0;
	unsigned c, nc = 0;
	size_t i;
	int p;

	if (proof_sample_parse((const char *)ev->payload, ev->len, ev->time_ns, &s) < 0)
		return;
	p = ev->time_ns >= s.dt_ns ? phase_at(v, ev->time_ns - s.dt_ns) : -1;
	/* counted in a phase when the whole interval lies inside it, as the run
	 * counts it (soak.c) */
	if (p >= 0 && ((size_t)p + 1 == v->nph ||
		       ev->time_ns <= v->t0 + (uint64_t)v->ph[p + 1].start_off_ns))
		proof_phase_add_sample(&v->ph[p].proof, &s);
	for (c = 0; c < s.ncpu; c++) {
		if (s.busy[c] >= 0) {
			busy += s.busy[c];
			nc++;
		}
	}
	for (i = 0; i < s.nif; i++) {
		if (s.rx_pps[i] + s.tx_pps[i] > pps)
			pps = s.rx_pps[i] + s.tx_pps[i];
	}
	add_point(v, ev->time_ns, s.dt_ns, nc ? busy / nc : 0, s.irq_s, s.ctxt_s, pps);
	row = row_for(v, ev->time_ns);
	if (!row)
		return;
	row->samples++;
	row->busy_sum += nc ? busy / nc : 0;
	row->irq_sum += s.irq_s;
	row->ctxt_sum += s.ctxt_s;
	row->pps_sum += pps;
}

static void take_load(struct soakview *v, const struct edgelog_event *ev)
{
	char what[32], load[64], buf[256];
	struct proof_load_stat *st;
	int p = phase_at(v, ev->time_ns);

	/* The run names the phase the load belongs to (a load stopped at a
	 * boundary, one lost in the warm-up); logs before that: by time. */
	if (ev_get(ev, "phase", buf, sizeof(buf))) {
		char *end;
		long ph = strtol(buf, &end, 10);

		if (end == buf || *end || ph < 0 || (size_t)ph >= v->nph)
			return;
		p = (int)ph;
	}

	if (p < 0 || !ev_get(ev, "event", what, sizeof(what)) ||
	    !ev_get(ev, "load", load, sizeof(load)) ||
	    !(st = proof_phase_load(&v->ph[p].proof, load)))
		return;
	if (!strcmp(what, "result")) {
		struct load_result r = { 0 };

		r.valid = ev_get(ev, "valid", buf, sizeof(buf)) && !strcmp(buf, "1");
		r.score = ev_get(ev, "score", buf, sizeof(buf)) ? strtod(buf, NULL) : 0;
		r.iterations_per_s = ev_get(ev, "iterations_per_s", buf, sizeof(buf))
					     ? strtod(buf, NULL) : 0;
		if (ev_get(ev, "why", buf, sizeof(buf)))
			snprintf(r.why, sizeof(r.why), "%.95s", buf);
		/* a score that is no finite positive number is no valid score */
		if (r.valid && !(r.score > 0 && isfinite(r.score)))
			r.valid = false;
		if (!isfinite(r.iterations_per_s))
			r.iterations_per_s = 0;
		proof_phase_add_result(&v->ph[p].proof, load, &r);
	} else if (!strcmp(what, "restarted")) {
		st->restarts++;
	} else if (!strcmp(what, "killed")) {
		st->kills++;
	} else if (!strcmp(what, "lost") && !st->lost) {
		st->lost = true;
		st->lost_t_ns = ev->time_ns - v->t0;
		if (ev_get(ev, "detail", buf, sizeof(buf)))
			snprintf(st->lost_why, sizeof(st->lost_why), "%.159s", buf);
	}
}

/* A respond log's note at the stop: the RT loop's counts (the last note
 * that has them all is the one). */
static void take_note(struct soakview *v, const struct edgelog_event *ev)
{
	struct edgelog_respond_stop st;

	if (!edgelog_respond_stop_parse(ev, &st))
		return;
	v->resp_lost = st.lost;
	v->resp_lost_warmup = st.lost_warmup;
	v->resp_unanswered = st.unanswered;
	v->resp_end = true;
}

static void take_break(struct soakview *v, const struct edgelog_event *ev)
{
	char seq[32] = "?", what[16] = "?", value[32] = "0", thr[32] = "0", why[640] = "";

	if (v->breaks++)
		return;
	ev_get(ev, "seq", seq, sizeof(seq));
	ev_get(ev, "what", what, sizeof(what));
	ev_get(ev, "value_ns", value, sizeof(value));
	ev_get(ev, "threshold_ns", thr, sizeof(thr));
	snprintf(v->break_text, sizeof(v->break_text), "edge #%s: %s %.3f us (threshold %.3f us)",
		 seq, !strcmp(what, "wake") ? "wake latency" : "pulse width",
		 strtod(value, NULL) / 1e3, strtod(thr, NULL) / 1e3);
	/* what its trace shows: logs from before traceexplain have neither key */
	if (ev_get(ev, "explain", why, sizeof(why)) && why[0]) {
		size_t o = strlen(v->break_text);

		snprintf(v->break_text + o, sizeof(v->break_text) - o, "; %s", why);
	}
	if (!ev_get(ev, "cause", v->break_cause, sizeof(v->break_cause)))
		v->break_cause[0] = '\0';
	if (!ev_get(ev, "trace", v->break_trace, sizeof(v->break_trace)))
		v->break_trace[0] = '\0';
}

struct soakview *soakview_open(const char *path, uint64_t t0_ns, int64_t row_ns,
			       bool *bad_input, char *err, size_t errlen)
{
	struct soakview *v = calloc(1, sizeof(*v));
	enum edgelog_status st;
	struct edgelog_reader *r;
	const struct edgelog_meta *m;
	char msg[512], buf[64];
	int bad;

	*bad_input = false;
	if (!v || !(v->c = config_new())) {
		free(v);
		msgbuf_set(err, errlen, "out of memory");
		return NULL;
	}
	r = edgelog_reader_open(path, &st, msg, sizeof(msg));
	if (!r) {
		*bad_input = st != EDGELOG_E_IO;
		msgbuf_set(err, errlen, "%s", msg);
		soakview_free(v);
		return NULL;
	}
	m = edgelog_reader_meta(r);
	v->start_ns = m->start_ns;
	v->half = (int64_t)m->half_period_ns;
	config_apply_meta(v->c, m->text, &bad);
	{
		int64_t warm = config_int(v->c, CFG_RUN_WARMUP);
		uint64_t slots = v->half > 0 ? ((uint64_t)warm + (uint64_t)v->half - 1) / (uint64_t)v->half : 0;

		v->t0 = v->start_ns + slots * (uint64_t)v->half;
	}
	v->row_t0 = t0_ns;
	v->row_ns = row_ns;
	snprintf(v->label, sizeof(v->label), "%s", config_str(v->c, CFG_RUN_LABEL));
	clean(v->label, sizeof(v->label));
	if (!meta_get(m, "loads.containment", v->containment, sizeof(v->containment)))
		v->containment[0] = '\0';
	if (read_plan(v, m, msg, sizeof(msg)) < 0) {
		*bad_input = true;
		msgbuf_set(err, errlen, "%s: %s", path, msg);
		edgelog_reader_close(r);
		soakview_free(v);
		return NULL;
	}
	if (read_grid(v, m, msg, sizeof(msg)) < 0) {
		*bad_input = true;
		msgbuf_set(err, errlen, "%s: %s", path, msg);
		edgelog_reader_close(r);
		soakview_free(v);
		return NULL;
	}
	(void)buf;
	v->respond = edgelog_meta_is_respond(m);
	if (m->version >= 2 && (v->nph || v->has_grid || v->respond)) {
		struct edge_rec rec;
		struct edgelog_event ev;
		int k;

		edgelog_reader_set_checked(r, false);	/* analyze validated the edges */
		while ((k = edgelog_reader_next_item(r, &rec, &ev)) > 0) {
			if (k != 2)
				continue;
			if (ev.type == EDGELOG_EV_SAMPLE)
				take_sample(v, &ev);
			else if (ev.type == EDGELOG_EV_LOAD)
				take_load(v, &ev);
			else if (ev.type == EDGELOG_EV_BREAK)
				take_break(v, &ev);
			else if (ev.type == EDGELOG_EV_NOTE && v->respond)
				take_note(v, &ev);
			else if (ev.type == EDGELOG_EV_CLOCK && v->has_grid &&
				 take_clock(v, &ev, msg, sizeof(msg)) < 0)
				break;
		}
		if (k > 0) {	/* a clock event no run writes */
			*bad_input = true;
			msgbuf_set(err, errlen, "%s: %s", path, msg);
			edgelog_reader_close(r);
			soakview_free(v);
			return NULL;
		}
		if (k < 0) {
			enum edgelog_status es;
			const char *e = edgelog_reader_error(r, &es);

			*bad_input = es != EDGELOG_E_IO;
			msgbuf_set(err, errlen, "%s", e ? e : "read error");
			edgelog_reader_close(r);
			soakview_free(v);
			return NULL;
		}
	}
	edgelog_reader_close(r);
	/* in time order for soakview_window()'s search (a log's events are;
	 * a forged one's need not be) */
	if (v->npts)
		qsort(v->pts, v->npts, sizeof(v->pts[0]), point_cmp);
	return v;
}

void soakview_free(struct soakview *v)
{
	size_t i, j;

	if (!v)
		return;
	for (i = 0; i < v->nph; i++)
		for (j = 0; j < v->ph[i].nloads; j++)
			free(v->ph[i].specs[j]);
	config_free(v->c);
	free(v->rows);
	free(v->pts);
	free(v);
}

const struct config *soakview_config(const struct soakview *v)
{
	return v->c;
}

size_t soakview_nphases(const struct soakview *v)
{
	return v->nph;
}

void soakview_phase_starts(const struct soakview *v, uint64_t *starts)
{
	size_t i;

	for (i = 0; i < v->nph; i++)
		starts[i] = v->t0 + (uint64_t)v->ph[i].start_off_ns;
}

void soakview_phase(const struct soakview *v, size_t i, struct run_phase *out)
{
	const struct sv_phase *p = &v->ph[i];

	memset(out, 0, sizeof(*out));
	out->name = p->name;
	out->start_off_ns = p->start_off_ns;
	out->duration_ns = p->duration_ns;
	out->proof = &p->proof;
	out->reqs = p->reqs;
	out->nreqs = p->nreqs;
	out->load_specs = (const char *const *)p->specs;
	out->nloads = p->nloads;
	out->sampled = p->sampled;
}

void soakview_run_info(const struct soakview *v, struct run_info *ri)
{
	ri->label = v->label;
	ri->containment = v->containment;
	ri->min_busy_pct = (int)config_int(v->c, CFG_PROOF_MIN_BUSY);
	ri->breaks = v->breaks;
	snprintf(ri->break_text, sizeof(ri->break_text), "%s", v->break_text);
	snprintf(ri->break_cause, sizeof(ri->break_cause), "%s", v->break_cause);
	snprintf(ri->break_trace, sizeof(ri->break_trace), "%s", v->break_trace);
	ri->grid = v->has_grid ? &v->grid : NULL;
	ri->respond_end = v->resp_end;
	ri->resp_lost = v->resp_lost;
	ri->resp_lost_warmup = v->resp_lost_warmup;
	ri->resp_unanswered = v->resp_unanswered;
}

const struct soakview_span *soakview_span(const struct soakview *v, size_t i)
{
	return i < v->nrows && v->rows[i].samples ? &v->rows[i] : NULL;
}

const char *soakview_phase_at(const struct soakview *v, uint64_t t_ns)
{
	int p = phase_at(v, t_ns);

	return p >= 0 ? v->ph[p].name : "";
}

bool soakview_window(const struct soakview *v, uint64_t t0_ns, uint64_t t1_ns,
		     struct soakview_span *out)
{
	size_t lo = 0, hi = v->npts, i;

	memset(out, 0, sizeof(*out));
	while (lo < hi) {	/* the first point at or after t0 */
		size_t m = lo + (hi - lo) / 2;

		if (v->pts[m].mid_ns < t0_ns)
			lo = m + 1;
		else
			hi = m;
	}
	for (i = lo; i < v->npts && v->pts[i].mid_ns < t1_ns; i++) {
		if (v->pts[i].straddles)
			continue;
		out->samples++;
		out->busy_sum += v->pts[i].busy;
		out->irq_sum += v->pts[i].irq;
		out->ctxt_sum += v->pts[i].ctxt;
		out->pps_sum += v->pts[i].pps;
	}
	return out->samples > 0;
}

size_t soakview_cuts(const struct soakview *v, uint64_t from, uint64_t to, uint64_t step_ns,
		     uint64_t *cuts, size_t max)
{
	uint64_t t = from, at;
	size_t n = 0, i;

	if (!max || to <= from)
		return 0;
	cuts[n++] = from;
	while (n < max && t < to) {
		/* the next grid line (from @from on), or the phase boundary before it */
		uint64_t k = step_ns ? (t - from) / step_ns + 1 : 0;
		uint64_t next = step_ns && k <= (to - from) / step_ns ? from + k * step_ns : to;

		for (i = 0; boundary_at(v, i, &at); i++)
			if (at > t && at < next)
				next = at;
		cuts[n++] = next;
		t = next;
	}
	return n;
}
