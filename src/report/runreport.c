/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end of a run session: verdict and exit code, the log closed with it,
 * then the summary and the files for CI (summary.h, ciout.h). */
#include "report/runreport.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/loopstats.h"
#include "base/exitcode.h"
#include "base/outfile.h"
#include "config/plan.h"
#include "log/edgelog.h"
#include "report/ciout.h"
#include "report/summary.h"

/* The exit code of a run that happened: its verdict, then what stopped it.
 * Several lines: a limit one line broke fails the run. */
static int run_exit_code(const struct run_session *s)
{
	const struct config *c = run_session_config(s);
	const struct run_info *ri = run_session_info(s);
	char why[2048] = "";
	int sig = run_session_signal(s);
	size_t i;

	if (ri->stop_reason == EDGELOG_STOP_ERROR)
		return SQW_EXIT_RUNTIME;
	if (sig && plan_duration(config_plan(c)))
		return 128 + sig;
	for (i = 0; i < run_session_lines(s); i++) {
		if (verdict_judge(c, run_session_line_stats(s, i), run_session_line_info(s, i), why,
				  sizeof(why)) == VERDICT_FAIL)
			return SQW_EXIT_LIMIT;
	}
	return SQW_EXIT_OK;
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

/* One line's (or the run's) summary, JSON, JUnit and results; @json,
 * @junit, @results are the paths ("" none). Returns @ret or
 * SQW_EXIT_RUNTIME. */
static int report_line(struct run_session *s, size_t i, FILE *text, const char *json,
		       const char *junit, const char *results, int ret)
{
	const struct config *c = run_session_config(s);
	const struct run_info *ri = run_session_line_info(s, i);
	const struct edgestats *stats = run_session_line_stats(s, i);
	struct loopstats *lb;
	struct run_info *lri;
	char why[2048];

	/* The run's description with the loopback view: a copy, the session's
	 * own stays as the session made it. */
	lb = run_loopback(s, ri);
	lri = malloc(sizeof(*lri));
	if (lri) {
		*lri = *ri;
		lri->loopback = lb ? loopstats_result(lb) : NULL;
		ri = lri;
	}
	summary_print_text(text, c, stats, ri);
	fflush(text);
	/* A document that cannot be written is lost, said as such: no part
	 * of it is left for a reader to take for the whole (outfile_close()). */
	if (json[0] && summary_write_json(json, c, stats, ri, why, sizeof(why)) < 0) {
		run_session_say(s, RUN_SAY_ERR, "JSON summary %s lost: %s", json, why);
		ret = SQW_EXIT_RUNTIME;
	}
	if (junit[0] && ciout_write_junit(junit, c, stats, ri, why, sizeof(why)) < 0) {
		run_session_say(s, RUN_SAY_ERR, "JUnit report %s lost: %s", junit, why);
		ret = SQW_EXIT_RUNTIME;
	}
	if (results[0] && ciout_write_results(results, c, stats, ri, why, sizeof(why)) < 0) {
		run_session_say(s, RUN_SAY_ERR, "results %s lost: %s", results, why);
		ret = SQW_EXIT_RUNTIME;
	}
	free(lri);
	loopstats_free(lb);
	return ret;
}

/* Line @i's file of several: @base with ".LINE" ("" stays "", "-" stays
 * "-": one document on standard output is refused for several lines
 * before the run, see cmd_run). */
/* Several lines: each line's verdict beside the run's, which is the worst
 * of them: FAIL if one line failed, PASS only if every line passed. */
static void print_lines_verdict(FILE *text, const struct run_session *s, int code)
{
	const struct config *c = run_session_config(s);
	size_t i, n = run_session_lines(s), pass = 0, fail = 0;
	char why[2048];

	fprintf(text, "\nlines      %zu, written %s\n", n,
		run_session_line_info(s, 0)->lines_mode ? run_session_line_info(s, 0)->lines_mode
		: "-");
	for (i = 0; i < n; i++) {
		const struct run_info *ri = run_session_line_info(s, i);
		enum verdict v = verdict_judge(c, run_session_line_stats(s, i), ri, why, sizeof(why));

		pass += v == VERDICT_PASS;
		fail += v == VERDICT_FAIL;
		fprintf(text, "  line %-8s %-12s log %s\n", OUTFILE_ESC(run_session_line_name(s, i)),
			verdict_word(c, run_session_line_stats(s, i), ri),
			ri->log_path ? OUTFILE_ESC(ri->log_path) : "-");
	}
	if (code != SQW_EXIT_OK && code != SQW_EXIT_LIMIT)
		fprintf(text, "run verdict NOT JUDGED (exit %d): the run did not end on its own\n",
			code);
	else
		fprintf(text, "run verdict %s: %zu of %zu lines passed, %zu failed\n",
			fail ? "FAIL" : pass == n ? "PASS" : "NO LIMITS", pass, n, fail);
}

int runreport_finish(struct run_session *s, int ran, FILE *text)
{
	const struct config *c = run_session_config(s);
	const struct run_info *ri = run_session_info(s);
	const char *json = config_str(c, CFG_OUTPUT_JSON);
	const char *junit = config_str(c, CFG_OUTPUT_JUNIT);
	const char *results = config_str(c, CFG_OUTPUT_RESULTS);
	int ret = run_session_close(s, ran == SQW_EXIT_OK ? run_exit_code(s) : ran);
	int code = ret;
	size_t i, n = run_session_lines(s);

	if (!ri->end_realtime_ns)	/* the run did not happen: nothing to report */
		return ret;
	/* A machine reads standard output: it gets that one document alone
	 * (outfile_check refused two), and the text summary goes to stderr. */
	if (!strcmp(json, "-") || !strcmp(junit, "-") || !strcmp(results, "-"))
		text = stderr;
	for (i = 0; i < n; i++) {
		char *fj = run_session_line_file(s, i, json), *fu = run_session_line_file(s, i, junit);
		char *fr = run_session_line_file(s, i, results);

		if (n > 1)
			fprintf(text, "%s=== line %s (%zu of %zu) ===\n", i ? "\n" : "",
				OUTFILE_ESC(run_session_line_name(s, i)), i + 1, n);
		if (!fj || !fu || !fr) {
			run_session_say(s, RUN_SAY_ERR, "out of memory");
			ret = SQW_EXIT_RUNTIME;
		} else {
			ret = report_line(s, i, text, fj, fu, fr, ret);
		}
		free(fj);
		free(fu);
		free(fr);
	}
	if (n > 1)
		print_lines_verdict(text, s, code);
	return ret;
}
