/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end of a run session: verdict and exit code, the log closed with it,
 * then the summary and the files for CI (summary.h, ciout.h). */
#include "report/runreport.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/loopstats.h"
#include "base/exitcode.h"
#include "config/plan.h"
#include "log/edgelog.h"
#include "report/ciout.h"
#include "report/summary.h"

/* The exit code of a run that happened: its verdict, then what stopped it. */
static int run_exit_code(const struct run_session *s)
{
	const struct config *c = run_session_config(s);
	const struct run_info *ri = run_session_info(s);
	char why[2048] = "";
	int sig = run_session_signal(s);

	if (ri->stop_reason == EDGELOG_STOP_ERROR)
		return SQW_EXIT_RUNTIME;
	if (sig && plan_duration(config_plan(c)))
		return 128 + sig;
	return verdict_judge(c, run_session_stats(s), ri, why, sizeof(why)) == VERDICT_FAIL
		? SQW_EXIT_LIMIT : SQW_EXIT_OK;
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

int runreport_finish(struct run_session *s, int ran, FILE *text)
{
	const struct config *c = run_session_config(s);
	const struct run_info *ri = run_session_info(s);
	const struct edgestats *stats = run_session_stats(s);
	struct loopstats *lb;
	struct run_info *lri;
	const char *json = config_str(c, CFG_OUTPUT_JSON);
	const char *junit = config_str(c, CFG_OUTPUT_JUNIT);
	const char *results = config_str(c, CFG_OUTPUT_RESULTS);
	int ret = run_session_close(s, ran == SQW_EXIT_OK ? run_exit_code(s) : ran);
	char why[2048];

	if (!ri->end_realtime_ns)	/* the run did not happen: nothing to report */
		return ret;
	/* The run's description with the loopback view: a copy, the session's
	 * own stays as the session made it. */
	lb = run_loopback(s, ri);
	lri = malloc(sizeof(*lri));
	if (lri) {
		*lri = *ri;
		lri->loopback = lb ? loopstats_result(lb) : NULL;
		ri = lri;
	}
	/* A machine reads standard output: it gets that one document alone
	 * (outfile_check refused two), and the text summary goes to stderr. */
	if (!strcmp(json, "-") || !strcmp(junit, "-") || !strcmp(results, "-"))
		text = stderr;
	summary_print_text(text, c, stats, ri);
	fflush(text);
	if (json[0] && summary_write_json(json, c, stats, ri) < 0) {
		run_session_say(s, RUN_SAY_ERR, "cannot write the JSON summary %s: %s", json,
				strerror(errno));
		ret = SQW_EXIT_RUNTIME;
	}
	if (junit[0] && ciout_write_junit(junit, c, stats, ri, why, sizeof(why)) < 0) {
		run_session_say(s, RUN_SAY_ERR, "cannot write the JUnit report: %s", why);
		ret = SQW_EXIT_RUNTIME;
	}
	if (results[0] && ciout_write_results(results, c, stats, ri, why, sizeof(why)) < 0) {
		run_session_say(s, RUN_SAY_ERR, "cannot write the results: %s", why);
		ret = SQW_EXIT_RUNTIME;
	}
	free(lri);
	loopstats_free(lb);
	return ret;
}
