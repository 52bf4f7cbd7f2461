/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end of a run session: each line's verdict computed once, the log
 * closed with the code its command decides, then the summary and the files
 * for CI (summary.h, ciout.h), all from those verdicts. */
#include "run/runreport.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/loopstats.h"
#include "base/exitcode.h"
#include "base/outfile.h"
#include "config/plan.h"
#include "log/edgelog.h"
#include "summary/ciout.h"
#include "summary/kcidb.h"
#include "summary/summary.h"

/* Each line's verdict into @e (again: the old ones freed), and the run's,
 * the worst of them. A line whose verdict is out of memory is lost, said. */
static void judge_lines(const struct run_session *s, struct run_end *e)
{
	const struct config *c = run_session_config(s);
	bool pass = true, fail = false;
	char err[64];
	size_t i;

	for (i = 0; i < e->nlines; i++) {
		struct verdict_result *v = &e->lines[i];

		verdict_result_free(v);
		if (verdict_result_compute(v, c, edgestats_result(run_session_line_stats(s, i)),
					   run_session_line_info(s, i), err, sizeof(err)) < 0) {
			run_session_say(s, RUN_SAY_ERR, "the verdict of line %s: %s",
					run_session_line_name(s, i), err);
			e->lost++;
			pass = false;
			continue;
		}
		fail = fail || v->verdict == VERDICT_FAIL;
		pass = pass && v->verdict == VERDICT_PASS;
	}
	e->verdict = fail ? VERDICT_FAIL : pass ? VERDICT_PASS : VERDICT_NO_LIMITS;
}

/* run --loopback: the kernel's view, from the closed log. The recorder
 * writes the events as they come, later than their records and in batches;
 * the log once closed has them all, and reading it back through the join
 * is the one source that export and analyze read too, so the summary can
 * never say other figures than `sqwave analyze LOG`. A log that cannot be
 * read back (/dev/null, an I/O error) leaves the section out, said. */
static struct loopstats *run_loopback(struct run_session *s, const struct run_info *ri)
{
	struct loopstats *lb = NULL;
	char why[1024];
	int st;

	if (!config_bool(run_session_config(s), CFG_RUN_LOOPBACK) || !ri->log_path ||
	    ri->log_error)
		return NULL;
	if (loopstats_read_log(ri->log_path, &lb, &st, why, sizeof(why)) < 0)
		run_session_say(s, RUN_SAY_WARN, "loopback: no kernel's view in the summary: %s", why);
	return lb;
}

/* One line's (or the run's) summary, JSON, JUnit and results, rendered from
 * its verdict @v; @json, @junit, @results are the paths ("" none); its KCIDB
 * tests into @kcidb (NULL: none), listing the files written. Returns how
 * many of the files were lost (said). */
static unsigned report_line(struct run_session *s, size_t i, const struct verdict_result *v,
			    FILE *text, const char *json, const char *junit, const char *results,
			    struct kcidb_writer *kcidb)
{
	struct kcidb_files kf = { .log = run_session_line_info(s, i)->log_path };
	const struct config *c = run_session_config(s);
	const struct run_info *ri = run_session_line_info(s, i);
	const struct edgestats *stats = run_session_line_stats(s, i);
	struct loopstats *lb;
	struct run_info *lri;
	unsigned lost = 0;
	char why[2048];

	/* The run's description with the loopback view: a copy, the session's
	 * own stays as the session made it (the verdict reads none of it). */
	lb = run_loopback(s, ri);
	lri = malloc(sizeof(*lri));
	if (lri) {
		*lri = *ri;
		lri->loopback = lb ? loopstats_result(lb) : NULL;
		ri = lri;
	}
	summary_print_text_judged(text, c, stats, ri, v);
	fflush(text);
	/* A document that cannot be written is lost, said as such: no part
	 * of it is left for a reader to take for the whole (outfile_close()). */
	if (json[0] && summary_write_json_judged(json, c, stats, ri, v, why, sizeof(why)) < 0) {
		run_session_say(s, RUN_SAY_ERR, "JSON summary %s lost: %s", json, why);
		lost++;
	} else {
		kf.json = json;
	}
	if (junit[0] && ciout_write_junit_judged(junit, c, ri, v, why, sizeof(why)) < 0) {
		run_session_say(s, RUN_SAY_ERR, "JUnit report %s lost: %s", junit, why);
		lost++;
	} else {
		kf.junit = junit;
	}
	if (results[0] && ciout_write_results_judged(results, ri, v, why, sizeof(why)) < 0) {
		run_session_say(s, RUN_SAY_ERR, "results %s lost: %s", results, why);
		lost++;
	} else {
		kf.results = results;
	}
	if (kcidb)
		kcidb_writer_add_line(kcidb, c, ri, v, &kf);
	free(lri);
	loopstats_free(lb);
	return lost;
}

/* Several lines: each line's verdict beside the run's, which is the worst
 * of them: FAIL if one line failed, PASS only if every line passed. @code is
 * the run's exit code once its log is closed: a run that did not end on its
 * own is not judged. */
static void print_lines_verdict(FILE *text, const struct run_session *s,
				const struct run_end *e, int code)
{
	size_t i, pass = 0, fail = 0;

	fprintf(text, "\nlines      %zu, written %s\n", e->nlines,
		run_session_line_info(s, 0)->lines_mode ? run_session_line_info(s, 0)->lines_mode
		: "-");
	for (i = 0; i < e->nlines; i++) {
		const struct run_info *ri = run_session_line_info(s, i);
		const struct verdict_result *v = &e->lines[i];

		pass += v->word && v->verdict == VERDICT_PASS;
		fail += v->word && v->verdict == VERDICT_FAIL;
		fprintf(text, "  line %-8s %-12s log %s\n", OUTFILE_ESC(run_session_line_name(s, i)),
			v->word ? v->word : "NOT JUDGED",
			ri->log_path ? OUTFILE_ESC(ri->log_path) : "-");
	}
	if (code != SQW_EXIT_OK && code != SQW_EXIT_LIMIT)
		fprintf(text, "run verdict NOT JUDGED (exit %d): the run did not end on its own\n",
			code);
	else
		fprintf(text, "run verdict %s: %zu of %zu lines passed, %zu failed\n",
			e->verdict == VERDICT_FAIL ? "FAIL" : e->verdict == VERDICT_PASS ? "PASS"
			: "NO LIMITS", pass, e->nlines, fail);
}

/* What the run was, from the session that ran it: its verdicts included. */
static void end_of(struct run_session *s, int ran, struct run_end *e)
{
	const struct config *c = run_session_config(s);
	size_t n = run_session_lines(s);

	memset(e, 0, sizeof(*e));
	e->status = ran;
	if (ran != SQW_EXIT_OK)
		return;
	e->error = run_session_info(s)->stop_reason == EDGELOG_STOP_ERROR;
	e->signal = run_session_signal(s);
	e->finite = plan_duration(config_plan(c)) != 0;
	e->lines = calloc(n, sizeof(*e->lines));
	if (!e->lines) {
		run_session_say(s, RUN_SAY_ERR, "out of memory");
		e->lost++;
		return;
	}
	e->nlines = n;
	judge_lines(s, e);
}

void runreport_finish(struct run_session *s, int ran, FILE *text, run_end_code_fn code,
		      struct run_end *e)
{
	const struct config *c = run_session_config(s);
	const char *json = config_str(c, CFG_OUTPUT_JSON);
	const char *junit = config_str(c, CFG_OUTPUT_JUNIT);
	const char *results = config_str(c, CFG_OUTPUT_RESULTS);
	const char *kcidb = config_str(c, CFG_OUTPUT_KCIDB);
	struct kcidb_writer *kw = NULL;
	char why[1024];
	int footer, closed;
	size_t i;

	end_of(s, ran, e);
	/* the footer carries the code the run ends with, as its command says */
	footer = code(e);
	e->log_incomplete = run_session_close(s, footer) != footer;
	if (!e->nlines)	/* the run did not happen: nothing to report */
		return;
	if (e->log_incomplete)	/* a fact the verdict reads changed: log_complete */
		judge_lines(s, e);
	/* run --scope: the instrument's reading against the closed log, in
	 * the verdict every document renders (one line: the command sees to it) */
	if (e->lines[0].word) {
		run_session_judge_instrument(s, &e->lines[0]);
		if (e->lines[0].verdict == VERDICT_FAIL)
			e->verdict = VERDICT_FAIL;
	}
	closed = code(e);
	/* A machine reads standard output: it gets that one document alone
	 * (outfile_check refused two), and the text summary goes to stderr. */
	if (!strcmp(json, "-") || !strcmp(junit, "-") || !strcmp(results, "-") ||
	    !strcmp(kcidb, "-"))
		text = stderr;
	/* KCIDB: one document for the run, every line's tests in it */
	if (kcidb[0] && !(kw = kcidb_writer_open(kcidb, config_str(c, CFG_OUTPUT_KCIDB_ORIGIN),
						       config_str(c, CFG_OUTPUT_KCIDB_URL), why,
						       sizeof(why)))) {
		run_session_say(s, RUN_SAY_ERR, "KCIDB tests %s lost: %s", kcidb, why);
		e->lost++;
	}
	for (i = 0; i < e->nlines; i++) {
		char *fj = run_session_line_file(s, i, json), *fu = run_session_line_file(s, i, junit);
		char *fr = run_session_line_file(s, i, results);

		if (e->nlines > 1)
			fprintf(text, "%s=== line %s (%zu of %zu) ===\n", i ? "\n" : "",
				OUTFILE_ESC(run_session_line_name(s, i)), i + 1, e->nlines);
		if (!fj || !fu || !fr) {
			run_session_say(s, RUN_SAY_ERR, "out of memory");
			e->lost++;
		} else if (e->lines[i].word) {
			e->lost += report_line(s, i, &e->lines[i], text, fj, fu, fr, kw);
		}
		free(fj);
		free(fu);
		free(fr);
	}
	if (kw && kcidb_writer_close(kw, why, sizeof(why)) < 0) {
		run_session_say(s, RUN_SAY_ERR, "KCIDB tests %s lost: %s", kcidb, why);
		e->lost++;
	}
	if (e->nlines > 1)
		print_lines_verdict(text, s, e, closed);
}

void runreport_end_free(struct run_end *e)
{
	size_t i;

	for (i = 0; i < e->nlines; i++)
		verdict_result_free(&e->lines[i]);
	free(e->lines);
	e->lines = NULL;
	e->nlines = 0;
}
