/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave check --run`'s verdict: the run's own verdict as its report gave
 * it, the log read back and the run's verdict rules applied to it, and one
 * finding that says what the board gave, what broke, and by which limits it
 * was judged (or that none were set). */
#include "check/check_run.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/exitcode.h"
#include "base/msgbuf.h"
#include "base/sysinfo.h"
#include "base/units.h"
#include "config/cfgpath.h"
#include "config/config.h"
#include "config/plan.h"
#include "log/edgelog.h"
#include "run/runreport.h"

int64_t check_run_far_ns(const struct pin *p)
{
	int64_t a = p->nominal_ns[PIN_POS], b = p->nominal_ns[PIN_NEG];

	if (a <= 0 || b <= 0)
		return (a > 0 ? a : b) / 2;
	return (a < b ? a : b) / 2;
}

bool check_run_pulse_far(const struct pin *p, enum pin_polarity pol, int64_t width_ns)
{
	int64_t nom = p->nominal_ns[pol], off = width_ns - nom, far = check_run_far_ns(p);

	if (nom <= 0 || far <= 0)
		return false;
	if (off < 0)
		off = -off;
	return off >= far;
}

void check_run_add(struct check_run_fig *g, const struct edgestats *st)
{
	struct edgestats_pulse p;
	enum edgestats_polarity pol;

	if (!edgestats_last_pulse(st, &p, &pol) ||
	    !check_run_pulse_far(&g->pin, pol == EDGESTATS_POS ? PIN_POS : PIN_NEG, p.width_ns))
		return;
	if (!g->far || p.width_ns < g->far_min_ns)
		g->far_min_ns = p.width_ns;
	if (!g->far || p.width_ns > g->far_max_ns)
		g->far_max_ns = p.width_ns;
	g->far++;
}

static void widths_of(struct check_run_widths *w, const struct edgestats_widths *e)
{
	w->n = e->h.m.n;
	w->tmin_ns = e->tmin.width_ns;
	w->tmax_ns = e->tmax.width_ns;
	w->tmin_lo_ns = e->tmin_bound.lo_ns;
	w->tmax_hi_ns = e->tmax_bound.hi_ns;
}

void check_run_figures(struct check_run_fig *g, const struct edgestats *st,
		       const struct config *c, const struct run_info *ri)
{
	const struct edgestats_result *res = edgestats_result(st);

	g->edges = res->edges;
	g->missed = res->missed_periods;
	widths_of(&g->w[PIN_POS], &res->width[EDGESTATS_POS]);
	widths_of(&g->w[PIN_NEG], &res->width[EDGESTATS_NEG]);
	widths_of(&g->w[2], &res->width[EDGESTATS_ANY]);
	g->wake_p99_ns = stats_hist_percentile(&res->wake, 99);
	g->wake_max_ns = res->wake.m.n ? res->wake.m.max : 0;
	g->violations[0] = '\0';
	g->verdict = verdict_judge(c, st, ri, g->violations, sizeof(g->violations));
}

int check_run_read_log(const char *path, const struct config *c, struct check_run_fig *g,
		       char *err, size_t errlen)
{
	const struct edgelog_footer *ft;
	struct edgelog_reader *lr;
	struct edgestats *st;
	enum edgelog_status s;
	struct run_info ri;
	struct edge_rec e;
	int got;

	memset(g, 0, sizeof(*g));
	memset(&ri, 0, sizeof(ri));
	lr = edgelog_reader_open(path, &s, err, errlen);
	if (!lr)
		return -1;
	g->pin = edgelog_reader_meta(lr)->pin;
	st = edgestats_new((int64_t)edgelog_reader_meta(lr)->half_period_ns);
	if (!st) {
		edgelog_reader_close(lr);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	edgestats_set_pin(st, &g->pin);
	ri.pin = g->pin;
	while ((got = edgelog_reader_next(lr, &e)) == 1) {
		edgestats_add(st, &e);
		check_run_add(g, st);
	}
	if (got < 0) {
		snprintf(err, errlen, "%.400s: %s", path, edgelog_reader_error(lr, &s));
		edgelog_reader_close(lr);
		edgestats_free(st);
		return -1;
	}
	/* What the log's footer says of the run, as analyze reads it. */
	ri.records_logged = edgelog_reader_records(lr);
	ri.rt_ok = true;
	ft = edgelog_reader_footer(lr);
	if (ft) {
		ri.dropped = ft->dropped;
		ri.stop_reason = (int)ft->stop_reason;
	}
	check_run_figures(g, st, c, &ri);
	edgelog_reader_close(lr);
	edgestats_free(st);
	return 0;
}

/* The limits.* keys that are set, with value and origin, into @buf. */
static void limits_named(const struct config *c, char *buf, size_t len)
{
	static const enum cfg_key keys[] = { CFG_LIMITS_TMIN, CFG_LIMITS_TMAX,
					     CFG_LIMITS_WIDTH_ERROR, CFG_LIMITS_WAKE_LATENCY_MAX,
					     CFG_LIMITS_MISSED_MAX };
	char name[64], val[64], where[512];
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		int64_t v = config_int(c, keys[i]);

		if (keys[i] == CFG_LIMITS_MISSED_MAX ? v < 0 : v <= 0)
			continue;
		msgbuf_add(buf, len, "%s%s %s (%s)", buf[0] ? ", " : "",
			   config_key_name(keys[i], name, sizeof(name)),
			   config_format(c, keys[i], val, sizeof(val)),
			   config_origin(c, keys[i], where, sizeof(where)));
	}
}

/* The nominal widths of @p in words: "500.000 us", or per polarity
 * ("+ 300.000 us, - 700.000 us") when they differ. */
static const char *nominal_words(const struct pin *p, char *buf, size_t len)
{
	const int64_t *n = p->nominal_ns;

	if (n[PIN_POS] == n[PIN_NEG])
		snprintf(buf, len, "%s us", UNITS_US(n[PIN_POS]));
	else if (n[PIN_POS] > 0 && n[PIN_NEG] > 0)
		snprintf(buf, len, "+ %s us, - %s us", UNITS_US(n[PIN_POS]), UNITS_US(n[PIN_NEG]));
	else
		snprintf(buf, len, "%s %s us", n[PIN_POS] > 0 ? "+" : "-",
			 UNITS_US(n[PIN_POS] > 0 ? n[PIN_POS] : n[PIN_NEG]));
	return buf;
}

/* What broke, whatever the limits: missed periods, pulses far from nominal. */
static void what_broke(const struct check_run_fig *g, char *buf, size_t len)
{
	char nom[96];

	buf[0] = '\0';
	if (g->missed)
		msgbuf_add(buf, len, "%" PRIu64 " missed period%s", g->missed,
			   g->missed == 1 ? "" : "s");
	if (g->far)
		msgbuf_add(buf, len, "%s%" PRIu64 " pulse%s far from the nominal %s (off by "
			   "%s us or more; from %s to %s us)", buf[0] ? ", " : "", g->far,
			   g->far == 1 ? "" : "s", nominal_words(&g->pin, nom, sizeof(nom)),
			   UNITS_US(check_run_far_ns(&g->pin)), UNITS_US(g->far_min_ns),
			   UNITS_US(g->far_max_ns));
}

/* The pulse widths the run gave: Tmin/Tmax with their bounds, per polarity
 * when the two have different nominal widths (a duty cycle). */
static void widths_words(const struct check_run_fig *g, char *buf, size_t len)
{
	static const char *const sign[] = { "+", "-" };
	const int64_t *n = g->pin.nominal_ns;
	int i;

	buf[0] = '\0';
	if (n[PIN_POS] == n[PIN_NEG]) {
		msgbuf_add(buf, len, "Tmin/Tmax %s/%s us (bounds %s/%s us; ", UNITS_US(g->w[2].tmin_ns),
			   UNITS_US(g->w[2].tmax_ns), UNITS_US(g->w[2].tmin_lo_ns),
			   UNITS_US(g->w[2].tmax_hi_ns));
		return;
	}
	for (i = PIN_POS; i <= PIN_NEG; i++) {
		const struct check_run_widths *w = &g->w[i];

		if (!w->n)
			msgbuf_add(buf, len, "%s%s pulses none", i ? "; " : "", sign[i]);
		else
			msgbuf_add(buf, len, "%s%s pulses Tmin/Tmax %s/%s us (bounds %s/%s us)",
				   i ? "; " : "", sign[i], UNITS_US(w->tmin_ns),
				   UNITS_US(w->tmax_ns), UNITS_US(w->tmin_lo_ns),
				   UNITS_US(w->tmax_hi_ns));
	}
	msgbuf_add(buf, len, " (");
}

void check_run_judge(struct check_report *r, const struct config *c, bool run_failed,
		     const struct check_run_fig *g, const char *log, const char *dur)
{
	check_run_judge_line(r, c, run_failed, g, "", log, dur);
}

void check_run_judge_line(struct check_report *r, const struct config *c, bool run_failed,
			  const struct check_run_fig *g, const char *line, const char *log,
			  const char *dur)
{
	char id[80], sfx[CHECK_LINE_ID_LEN + 2], figs[600], widths[300], broke[400], lim[700];
	char first[300];
	char viol[sizeof(g->violations)];
	struct check_finding *f;
	char *nl;

	/* one line of several: its own finding, run.verdict.LINE as gpio.line.LINE */
	snprintf(id, sizeof(id), "run.verdict%s", check_line_suffix(line, sfx, sizeof(sfx)));

	widths_words(g, widths, sizeof(widths));
	snprintf(figs, sizeof(figs), "%swake p99/max %s/%s us; %" PRIu64 " missed periods; %"
		 PRIu64 " pulses far from nominal; %" PRIu64 " edges in %s)", widths,
		 UNITS_US(g->wake_p99_ns), UNITS_US(g->wake_max_ns), g->missed, g->far, g->edges,
		 dur);
	what_broke(g, broke, sizeof(broke));
	limits_named(c, lim, sizeof(lim));
	if (run_failed || g->verdict == VERDICT_FAIL) {
		/* the first violation in the value, every one in why, on one line */
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(g->violations, "\n"),
			 g->violations);
		snprintf(viol, sizeof(viol), "%s", g->violations);
		while ((nl = strchr(viol, '\n')))
			*nl = nl[1] ? ';' : '.';
		f = check_add(r, CHECK_FAIL, id, "%s; this board gave %s today",
			      first[0] ? first : "the run's limits are violated (its summary "
			      "above names each)", figs);
		check_why(f, "limits: %s.%s%s Log %s; `sqwave analyze %s` for the worst edges",
			  lim[0] ? lim : "none of the wave (a load or integrity check failed)",
			  viol[0] ? " Violated: " : "", viol[0] ? viol : "",
			  log, log);
		check_fix(f, "the run's summary above names each violated limit");
		return;
	}
	if (g->verdict == VERDICT_NO_LIMITS) {
		f = check_add(r, CHECK_WARN, id, "NO LIMITS: this board gave %s today; "
			      "%s%s", figs, broke[0] ? "what broke: " : "nothing broke (0 missed "
			      "periods, no pulse far from nominal)", broke);
		check_why(f, "no limits.* key is set (board file, profile or command line), so "
			  "nothing about the wave was judged: a run without limits is never a "
			  "PASS. Log %s; `sqwave analyze %s` for the worst edges", log, log);
		check_fix(f, "give the limits the wave must keep: --tmin and --tmax (limits.tmin, "
			  "limits.tmax), --max-latency, --max-missed, or a profile with a limits: "
			  "section (--profile quick)");
		return;
	}
	f = check_add(r, CHECK_PASS, id, "within %s; this board gives %s today%s%s",
		      lim, figs, broke[0] ? "; not limited: " : "", broke);
	check_why(f, "judged by the limits that are set (the others are not checked); log %s; "
		  "`sqwave analyze %s` for the worst edges", log, log);
}

/* ---- the short run ------------------------------------------------------------------ */

static void run_say(const struct check_run_params *p, enum run_say level, const char *text)
{
	if (p->say)
		p->say(p->say_ctx, level, text);
}

/* The run's own configuration, as `sqwave run` would make it from the
 * check's board, profile and command-line settings, then --duration DUR
 * --warmup 0 --log LOG --quiet. NULL with the reason said (a usage error). */
static struct config *run_config(const struct config *c, const struct check_run_params *p,
				 const char *log, char *board_path, char *profile_path)
{
	struct config *n = config_new();
	char name[64], val[512], err[1024], dur[48];
	int k;

	if (!n) {
		run_say(p, RUN_SAY_ERR, "out of memory");
		return NULL;
	}
	for (k = 0; k < CFG_NKEYS; k++) {
		if (config_source(c, (enum cfg_key)k) != CFG_SRC_CMDLINE)
			continue;
		config_key_name((enum cfg_key)k, name, sizeof(name));
		if (config_set(n, (enum cfg_key)k, config_format(c, (enum cfg_key)k, val, sizeof(val)),
			       CFG_SRC_CMDLINE, NULL, 0, err, sizeof(err)) != CFG_OK)
			goto usage;
	}
	units_format_duration(p->run_ns, dur, sizeof(dur));
	if (config_set(n, CFG_RUN_DURATION, dur, CFG_SRC_CMDLINE, NULL, 0, err, sizeof(err)) ||
	    config_set(n, CFG_RUN_WARMUP, "0", CFG_SRC_CMDLINE, NULL, 0, err, sizeof(err)) ||
	    config_set(n, CFG_OUTPUT_LOG, log, CFG_SRC_CMDLINE, NULL, 0, err, sizeof(err)) ||
	    config_set(n, CFG_OUTPUT_QUIET, "true", CFG_SRC_CMDLINE, NULL, 0, err, sizeof(err)))
		goto usage;
	if (cfgpath_load(n, p->board_path[0] ? p->board_path : NULL,
			 p->profile_path[0] ? p->profile_path : NULL, board_path, profile_path, err,
			 sizeof(err)) ||
	    plan_finalize(config_plan_mut(n), n, err, sizeof(err)) != CFG_OK)
		goto usage;
	return n;
usage:
	run_say(p, RUN_SAY_ERR, err);
	config_free(n);
	return NULL;
}

/* The run's lines and each one's log, as the session that ran named them
 * (several lines: LOG.LINE.ext). 0, or -1 (out of memory). */
static int check_run_lines(const struct run_session *s, struct check_run *cr)
{
	size_t i, n = run_session_lines(s);

	cr->lines = calloc(n, sizeof(*cr->lines));
	if (!cr->lines)
		return -1;
	cr->nlines = n;
	for (i = 0; i < n; i++) {
		struct check_run_line *ln = &cr->lines[i];

		if (n > 1)
			snprintf(ln->line, sizeof(ln->line), "%s", run_session_line_name(s, i));
		ln->log = strdup(run_session_line_info(s, i)->log_path);
		if (!ln->log)
			return -1;
	}
	return 0;
}

/* Without the command's rule: the session's status, nothing judged. */
static int status_only(const struct run_end *e)
{
	return e->status;
}

/* The run itself: what it ended with into @e (the caller frees it with
 * runreport_end_free()), its exit code by @p's rule; its lines and their
 * logs into @cr. */
static int run_once(const struct config *c, const struct check_run_params *p, const char *log,
		    struct check_run *cr, struct run_end *e)
{
	char board_path[PATH_MAX], profile_path[PATH_MAX], err[2048];
	struct config *n = run_config(c, p, log, board_path, profile_path);
	run_end_code_fn code = p->exit_code ? p->exit_code : status_only;
	struct run_session *s;
	int ret;

	memset(e, 0, sizeof(*e));
	e->status = SQW_EXIT_USAGE;
	if (!n)
		return code(e);
	s = run_session_init(&(struct run_session_params){
		.cfg = n, .board_file = board_path[0] ? board_path : "--chip/--line",
		.profile_file = profile_path[0] ? profile_path : NULL,
		.say = p->say, .say_ctx = p->say_ctx }, &e->status, err, sizeof(err));
	if (!s) {
		run_say(p, RUN_SAY_ERR, err);
	} else {
		runreport_finish(s, run_session_run(s), p->text, code, e);
		if (check_run_lines(s, cr) < 0) {
			run_say(p, RUN_SAY_ERR, "out of memory");
			e->lost++;
		}
		run_session_fini(s);
	}
	ret = code(e);
	config_free(n);
	return ret;
}

/* Whether the run failed to run or to keep what it made: no verdict of it
 * stands (the exit code says which). */
static bool run_broke(const struct run_end *e)
{
	return e->status != SQW_EXIT_OK || e->error || e->log_incomplete || e->lost;
}

/* The run.verdict findings of a run that ended on its own: each line's log
 * read back, judged beside the run's own verdict. */
static void judge_logs(struct check_report *r, const struct config *c, struct check_run *cr,
		       const char *dur)
{
	char err[512];
	size_t i, failed = 0;
	struct check_finding *f;
	bool run_failed = cr->verdict == VERDICT_FAIL;

	for (i = 0; i < cr->nlines; i++) {
		struct check_run_line *ln = &cr->lines[i];

		if (check_run_read_log(ln->log, c, &ln->fig, err, sizeof(err))) {
			check_incomplete(r, "cannot read the run's log: %s", err);
			return;
		}
	}
	cr->judged = true;
	if (cr->nlines == 1) {
		check_run_judge(r, c, run_failed, &cr->lines[0].fig, cr->log, dur);
		return;
	}
	/* Several lines: each judged by its own log; the run's verdict is
	 * every line's and the loads', so it is no one line's. */
	for (i = 0; i < cr->nlines; i++) {
		failed += cr->lines[i].fig.verdict == VERDICT_FAIL;
		check_run_judge_line(r, c, false, &cr->lines[i].fig, cr->lines[i].line,
				     cr->lines[i].log, dur);
	}
	if (run_failed && !failed) {
		f = check_add(r, CHECK_FAIL, "run.verdict", "the run failed (exit %d) on what is no "
			      "one line's: a load's proof or the run's integrity", cr->exit_code);
		check_why(f, "every line's own figures are within its limits above; the run's "
			  "summary names what failed");
	}
}

void check_run_short(struct check_report *r, const struct config *c,
		     const struct check_run_params *p, struct check_run *cr)
{
	char dur[48], stamp[32];
	struct check_finding *f;
	unsigned cnt[CHECK_NSTATUS];
	time_t t = time(NULL);
	struct run_end e;
	struct tm tm;

	if (!sysinfo_root_is_live(p->root)) {
		f = check_add(r, CHECK_SKIP, "run.verdict", "not run: --root %s is a copied tree, "
			      "and a run would measure this machine, not its board", p->root);
		check_fix(f, "run sqwave check --run on the board itself");
		return;
	}
	check_counts(r, cnt);
	if (cnt[CHECK_FAIL]) {
		f = check_add(r, CHECK_SKIP, "run.verdict", "not run: %u FAIL above", cnt[CHECK_FAIL]);
		check_fix(f, "fix the FAILs first; the run would fail on them too");
		return;
	}
	if (config_str(c, CFG_OUTPUT_LOG)[0]) {
		snprintf(cr->log, sizeof(cr->log), "%s", config_str(c, CFG_OUTPUT_LOG));
	} else {
		localtime_r(&t, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		snprintf(cr->log, sizeof(cr->log), "sqwave-check-%s.sqwlog", stamp);
	}
	units_format_duration(p->run_ns, dur, sizeof(dur));
	fprintf(p->note, "check: running `sqwave run` for %s (log %s)\n", dur, cr->log);
	fflush(p->text);
	cr->exit_code = run_once(c, p, cr->log, cr, &e);
	cr->done = true;
	cr->verdict = e.verdict;
	if (run_broke(&e)) {
		f = check_add(r, CHECK_FAIL, "run.verdict", "the run failed (exit %d)",
			      cr->exit_code);
		check_why(f, "its messages above say why");
	} else if (e.signal && e.finite) {
		check_incomplete(r, "the run was stopped by signal %d", e.signal);
	} else {
		judge_logs(r, c, cr, dur);
	}
	runreport_end_free(&e);
}

const char *check_run_word(bool run_failed, const struct check_run_fig *g)
{
	return run_failed || g->verdict == VERDICT_FAIL ? "FAIL"
	       : g->verdict == VERDICT_NO_LIMITS ? "NO LIMITS" : "PASS";
}

void check_run_free(struct check_run *cr)
{
	size_t i;

	for (i = 0; cr->lines && i < cr->nlines; i++)
		free(cr->lines[i].log);
	free(cr->lines);
	cr->lines = NULL;
	cr->nlines = 0;
}
