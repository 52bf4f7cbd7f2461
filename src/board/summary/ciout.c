/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JUnit XML and LAVA result.txt from the verdict's checks (verdict_checks()):
 * what a CI server and a board farm read, with the figures of every check. */
#include "summary/ciout.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/outfile.h"
#include "base/escape.h"

#ifndef SQW_VERSION
#define SQW_VERSION "unknown"
#endif

const char *ciout_name_part(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (; s && *s && o + 1 < len; s++) {
		char ch = *s;

		buf[o++] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			   (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' ? ch : '_';
	}
	if (o == 0 && len > 1)
		buf[o++] = '_';
	if (len)
		buf[o] = '\0';
	return buf;
}

/* A figure as it is read: durations in us (the scope's unit), 3 decimals
 * (the ns the log holds); counts whole; percent and packets/s to 0.1. */
static const char *figure(double v, enum verdict_unit u, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "?");
	else if (u == VERDICT_UNIT_NS)
		snprintf(buf, len, "%.3f", v / 1000.0);
	else if (u == VERDICT_UNIT_COUNT)
		snprintf(buf, len, "%.0f", v);
	else if (v != 0 && fabs(v) < 0.1)	/* a scope's coverage of an hour */
		snprintf(buf, len, "%.2g", v);
	else
		snprintf(buf, len, "%.1f", v);
	return buf;
}

static const char *unit_word(enum verdict_unit u)
{
	static const char *const words[] = { "", "us", "count", "percent", "pps" };

	return (unsigned)u < sizeof(words) / sizeof(words[0]) ? words[u] : "";
}

/* "lineL" for line L of a run of several lines, "" for a run of one: what
 * tells two lines' checks apart where their documents meet (a LAVA job's
 * test cases, a CI server's merged JUnit files). Returns @buf. */
static const char *line_part(const struct run_info *ri, char *buf, size_t len)
{
	char n[64];

	if (!ri || ri->line_count < 2)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "line%s", ciout_name_part(ri->line_name, n, sizeof(n)));
	return buf;
}

/* ---- result.txt ---- */

static void results_line(FILE *f, const char *line, const struct verdict_check *c)
{
	char p[128], l[128], n[64], v[64];

	if (line[0])
		fprintf(f, "%s.", line);
	if (c->phase)
		fprintf(f, "%s.", ciout_name_part(c->phase, p, sizeof(p)));
	if (c->load)
		fprintf(f, "%s.", ciout_name_part(c->load, l, sizeof(l)));
	if (c->instrument)
		fprintf(f, "%s.", c->instrument);
	fprintf(f, "%s %s", ciout_name_part(c->name, n, sizeof(n)),
		verdict_check_result_name(c->result));
	/* LAVA takes a measurement only as a number with its units */
	if (c->has_observed && isfinite(c->observed) && c->unit != VERDICT_UNIT_NONE)
		fprintf(f, " %s %s", figure(c->observed, c->unit, v, sizeof(v)),
			unit_word(c->unit));
	fputc('\n', f);
}

int ciout_write_results_judged(const char *path, const struct run_info *ri,
			       const struct verdict_result *v, char *err, size_t errlen)
{
	FILE *f = outfile_open(path, err, errlen);
	char line[80];
	size_t i;

	if (!f)
		return -1;
	line_part(ri, line, sizeof(line));
	for (i = 0; i < v->nchecks; i++)
		results_line(f, line, &v->checks[i]);
	return outfile_close(f, path, err, errlen);
}


/* ---- JUnit XML ---- */

/* @s as XML character data or attribute value: markup characters as
 * entities; control characters and bytes that are not UTF-8 (which XML 1.0
 * cannot carry at all) as the text \xNN, as the terminal output shows them. */
void ciout_xml_put(FILE *f, const char *s)
{
	char buf[1024];

	if (s)
		escape_xml(f, outfile_escape(s, buf, sizeof(buf)), SIZE_MAX, ESCAPE_XML_APOS);
}

/* The figures of a check in one line: what was seen, against what, where. */
static void xml_figures(FILE *f, const struct verdict_check *k)
{
	/* "3 count" reads badly: a count goes bare */
	const char *u = k->unit == VERDICT_UNIT_COUNT ? "" : unit_word(k->unit), *sep = "";
	const char *usp = u[0] ? " " : "";
	char v[64];

	if (k->has_observed && isfinite(k->observed)) {
		fprintf(f, "observed %s%s%s", figure(k->observed, k->unit, v, sizeof(v)), usp, u);
		if (k->has_estimate)
			fprintf(f, " (pulse width estimate %s%s%s)",
				figure(k->estimate, k->unit, v, sizeof(v)), usp, u);
		sep = "; ";
	} else if (k->unit != VERDICT_UNIT_NONE) {
		fprintf(f, "not measured");
		sep = "; ";
	}
	if (k->has_limit) {
		fprintf(f, "%s%s %s%s%s", sep, k->limit_is_min ? "at least" : "at most",
			figure(k->limit, k->unit, v, sizeof(v)), usp, u);
		if (k->key) {
			fputs(" (", f);
			ciout_xml_put(f, k->key);
			fputc(')', f);
		}
		sep = "; ";
	}
	if (k->has_interval) {
		fprintf(f, "%sexpected in [%s, ", sep, figure(k->lo, k->unit, v, sizeof(v)));
		fprintf(f, "%s]%s%s", figure(k->hi, k->unit, v, sizeof(v)), usp, u);
		sep = "; ";
	}
	if (k->has_edge)
		fprintf(f, "%sat edge #%" PRIu64 " (t+%.6f s)", sep, k->seq, k->t_s);
}

static void xml_case(FILE *f, const char *suite, const struct verdict_check *c)
{
	char l[128], n[64];

	fputs("    <testcase classname=\"", f);
	ciout_xml_put(f, suite);
	fputs("\" name=\"", f);
	if (c->load)
		fprintf(f, "%s.", ciout_name_part(c->load, l, sizeof(l)));
	if (c->instrument)
		fprintf(f, "%s.", c->instrument);
	fprintf(f, "%s\" time=\"0\">\n", ciout_name_part(c->name, n, sizeof(n)));
	if (c->result == VERDICT_CHECK_FAIL) {
		fputs("      <failure message=\"", f);
		ciout_xml_put(f, c->message);
		fputs("\" type=\"", f);
		ciout_xml_put(f, c->key ? c->key : c->load ? "load not applied"
			      : c->instrument ? "instrument disagrees" : "run");
		fputs("\">", f);
		ciout_xml_put(f, c->message);
		fputc('\n', f);
		xml_figures(f, c);
		fputs("</failure>\n", f);
	} else if (c->result == VERDICT_CHECK_SKIP) {
		fputs("      <skipped message=\"", f);
		ciout_xml_put(f, c->message);
		fputs("\"/>\n", f);
	}
	fputs("      <system-out>", f);
	/* a passed check of an instrument says what its reading means */
	if (c->result == VERDICT_CHECK_PASS && c->message) {
		ciout_xml_put(f, c->message);
		fputc('\n', f);
	}
	xml_figures(f, c);
	fputs("</system-out>\n    </testcase>\n", f);
}

void ciout_xml_property(FILE *f, const char *name, const char *value)
{
	fprintf(f, "      <property name=\"%s\" value=\"", name);
	ciout_xml_put(f, value ? value : "");
	fputs("\"/>\n", f);
}

struct suite_counts {
	size_t tests, failures, skipped;
};

static struct suite_counts count_suite(const struct verdict_result *v, const char *phase)
{
	struct suite_counts k = { 0 };
	size_t i;

	for (i = 0; i < v->nchecks; i++) {
		const struct verdict_check *c = &v->checks[i];

		if (phase ? !c->phase || strcmp(c->phase, phase) : c->phase != NULL)
			continue;
		k.tests++;
		k.failures += c->result == VERDICT_CHECK_FAIL;
		k.skipped += c->result == VERDICT_CHECK_SKIP;
	}
	return k;
}

/* One <testsuite>: the run's checks (@phase NULL) or one phase's. */
static void xml_suite(FILE *f, const struct config *c, const struct run_info *ri,
		      const struct verdict_result *v, size_t id, const char *phase, double secs,
		      uint64_t start_realtime_ns)
{
	time_t t0 = (time_t)(start_realtime_ns / 1000000000u);
	char timestamp[32];
	struct tm tm;

	struct suite_counts k = count_suite(v, phase);
	char name[512], line[80];
	size_t i;

	/* JUnit's timestamp has no zone: UTC, as CI servers assume */
	gmtime_r(&t0, &tm);
	strftime(timestamp, sizeof(timestamp), "%Y-%m-%dT%H:%M:%S", &tm);
	/* a line of several is in the name, the classname of every case: GitLab
	 * and Jenkins know a case by classname and name, and would take two
	 * lines' "tmax" for one test */
	line_part(ri, line, sizeof(line));
	snprintf(name, sizeof(name), "sqwave.%s%s%s%s%s%s%s", config_str(c, CFG_BOARD_NAME),
		 ri->label && ri->label[0] ? "." : "", ri->label ? ri->label : "",
		 line[0] ? "." : "", line, phase ? ".phase." : "", phase ? phase : "");
	fputs("  <testsuite name=\"", f);
	ciout_xml_put(f, name);
	fprintf(f, "\" id=\"%zu\" package=\"sqwave\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"%zu\" time=\"%.3f\" timestamp=\"%s\" hostname=\"", id, k.tests,
		k.failures, k.skipped, secs, timestamp);
	ciout_xml_put(f, ri->host.hostname[0] ? ri->host.hostname : "localhost");
	fputs("\">\n    <properties>\n", f);
	ciout_xml_property(f, "sqwave_version", SQW_VERSION);
	ciout_xml_property(f, "board", config_str(c, CFG_BOARD_NAME));
	ciout_xml_property(f, "board_file", ri->board_file);
	ciout_xml_property(f, "profile", ri->profile_file);
	ciout_xml_property(f, "label", ri->label);
	if (line[0])
		ciout_xml_property(f, "line", ri->line_name);
	if (phase)
		ciout_xml_property(f, "phase", phase);
	ciout_xml_property(f, "kernel", ri->host.kernel_release);
	ciout_xml_property(f, "preempt_rt", ri->host.preempt_rt ? "yes" : "no");
	ciout_xml_property(f, "realtime", ri->rt_ok ? "yes" : "no (not a real-time result)");
	ciout_xml_property(f, "log", ri->log_path);
	fputs("    </properties>\n", f);
	for (i = 0; i < v->nchecks; i++) {
		const struct verdict_check *cc = &v->checks[i];

		if (phase ? !cc->phase || strcmp(cc->phase, phase) : cc->phase != NULL)
			continue;
		xml_case(f, name, cc);
	}
	fputs("    <system-out/>\n    <system-err/>\n  </testsuite>\n", f);
}

int ciout_write_junit_judged(const char *path, const struct config *c, const struct run_info *ri,
			     const struct verdict_result *v, char *err, size_t errlen)
{
	struct suite_counts all = { 0 };
	double secs = ri->end_realtime_ns > ri->start_realtime_ns
		      ? (double)(ri->end_realtime_ns - ri->start_realtime_ns) / 1e9 : 0;
	uint64_t measure0 = ri->start_realtime_ns + (uint64_t)config_int(c, CFG_RUN_WARMUP);
	FILE *f;
	size_t i;

	f = outfile_open(path, err, errlen);
	if (!f)
		return -1;
	for (i = 0; i < v->nchecks; i++) {
		all.tests++;
		all.failures += v->checks[i].result == VERDICT_CHECK_FAIL;
	}
	/* The Jenkins xUnit plugin validates against its junit-10.xsd, whose
	 * <testsuites> has only name, time, tests, failures and errors: a
	 * skipped count there gets the whole file refused (each <testsuite>
	 * may carry one, and does). */
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"sqwave run\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"time=\"%.3f\">\n", all.tests, all.failures, secs);
	xml_suite(f, c, ri, v, 0, NULL, secs, ri->start_realtime_ns);
	for (i = 0; i < ri->nphases; i++) {
		const struct run_phase *ph = &ri->phases[i];
		double psecs = (double)ph->duration_ns / 1e9;

		if (!ph->duration_ns && i + 1 == ri->nphases)   /* open-ended: to the end */
			psecs = secs - (double)(config_int(c, CFG_RUN_WARMUP) + ph->start_off_ns) / 1e9;
		if (psecs < 0)
			psecs = 0;
		xml_suite(f, c, ri, v, i + 1, ph->name, psecs,
			  measure0 + (uint64_t)(ph->start_off_ns > 0 ? ph->start_off_ns : 0));
	}
	fputs("</testsuites>\n", f);
	return outfile_close(f, path, err, errlen);
}

int ciout_write_junit_suite(const char *path, const char *suite, const char *const (*props)[2],
			    size_t nprops, const struct verdict_result *v, char *err, size_t errlen)
{
	struct suite_counts k = count_suite(v, NULL);
	FILE *f = outfile_open(path, err, errlen);
	size_t i;

	if (!f)
		return -1;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"");
	ciout_xml_put(f, suite);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" time=\"0\">\n"
		"  <testsuite name=\"", k.tests, k.failures);
	ciout_xml_put(f, suite);
	fprintf(f, "\" id=\"0\" package=\"sqwave\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"%zu\" time=\"0\">\n    <properties>\n", k.tests, k.failures, k.skipped);
	ciout_xml_property(f, "sqwave_version", SQW_VERSION);
	for (i = 0; i < nprops; i++)
		ciout_xml_property(f, props[i][0], props[i][1]);
	fputs("    </properties>\n", f);
	for (i = 0; i < v->nchecks; i++)
		if (!v->checks[i].phase)
			xml_case(f, suite, &v->checks[i]);
	fputs("    <system-out/>\n    <system-err/>\n  </testsuite>\n</testsuites>\n", f);
	return outfile_close(f, path, err, errlen);
}

/* ---- for a caller without a verdict ---- */

/* @s judged once, then JUnit (@junit) or the results written from it. */
static int write_unjudged(const char *path, const struct config *c, const struct edgestats *s,
			  const struct run_info *ri, bool junit, char *err, size_t errlen)
{
	struct verdict_result v;
	int ret;

	if (verdict_result_compute(&v, c, edgestats_result(s), ri, err, errlen) < 0)
		return -1;
	ret = junit ? ciout_write_junit_judged(path, c, ri, &v, err, errlen)
		    : ciout_write_results_judged(path, ri, &v, err, errlen);
	verdict_result_free(&v);
	return ret;
}

int ciout_write_junit(const char *path, const struct config *c, const struct edgestats *s,
		      const struct run_info *ri, char *err, size_t errlen)
{
	return write_unjudged(path, c, s, ri, true, err, errlen);
}

int ciout_write_results(const char *path, const struct config *c, const struct edgestats *s,
			const struct run_info *ri, char *err, size_t errlen)
{
	return write_unjudged(path, c, s, ri, false, err, errlen);
}
