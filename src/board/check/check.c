/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The findings list of `sqwave check`: adding, counting, the result and the
 * exit code, and the three ways of writing it out (text, JSON, JUnit). */
#include "check/check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/outfile.h"
#include "summary/ciout.h"

#ifndef SQW_VERSION
#define SQW_VERSION "unknown"
#endif

static const char *const status_names[CHECK_NSTATUS] = { "PASS", "WARN", "FAIL", "SKIP" };

const char *check_status_name(enum check_status s)
{
	return (unsigned)s < CHECK_NSTATUS ? status_names[s] : "?";
}

const char *check_line_suffix(const char *line, char *buf, size_t len)
{
	size_t k;

	if (!len)
		return buf;
	if (!line[0]) {
		buf[0] = '\0';
		return buf;
	}
	snprintf(buf, len, ".%.*s", CHECK_LINE_ID_LEN, line);
	for (k = 1; buf[k]; k++) {
		char ch = buf[k];

		buf[k] = ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a')
			 : (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ? ch : '_';
	}
	return buf;
}

void check_report_init(struct check_report *r)
{
	memset(r, 0, sizeof(*r));
}

void check_report_free(struct check_report *r)
{
	free(r->v);
	r->v = NULL;
	r->n = r->cap = 0;
}

/* vsnprintf that marks a cut with "...". */
static void text_set(char *buf, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static void text_set(char *buf, size_t len, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, len, fmt, ap);

	if (n >= 0 && (size_t)n >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

struct check_finding *check_add(struct check_report *r, enum check_status status,
				const char *id, const char *fmt, ...)
{
	struct check_finding *f;
	va_list ap;

	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 32;
		struct check_finding *v = realloc(r->v, cap * sizeof(*v));

		if (!v) {
			check_incomplete(r, "out of memory while checking");
			f = &r->scratch;
			goto fill;
		}
		r->v = v;
		r->cap = cap;
	}
	f = &r->v[r->n++];
fill:
	memset(f, 0, sizeof(*f));
	f->status = status;
	snprintf(f->id, sizeof(f->id), "%s", id);
	va_start(ap, fmt);
	text_set(f->value, sizeof(f->value), fmt, ap);
	va_end(ap);
	return f;
}

void check_why(struct check_finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_set(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
}

void check_fix(struct check_finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_set(f->fix, sizeof(f->fix), fmt, ap);
	va_end(ap);
}

void check_incomplete(struct check_report *r, const char *fmt, ...)
{
	va_list ap;

	if (r->incomplete)
		return;   /* the first reason is the one to fix */
	r->incomplete = true;
	va_start(ap, fmt);
	text_set(r->incomplete_why, sizeof(r->incomplete_why), fmt, ap);
	va_end(ap);
}

const struct check_finding *check_find(const struct check_report *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].id, id))
			return &r->v[i];
	return NULL;
}

void check_counts(const struct check_report *r, unsigned counts[CHECK_NSTATUS])
{
	size_t i;

	memset(counts, 0, CHECK_NSTATUS * sizeof(counts[0]));
	for (i = 0; i < r->n; i++)
		counts[r->v[i].status]++;
}

enum check_status check_result(const struct check_report *r, bool strict)
{
	unsigned c[CHECK_NSTATUS];

	check_counts(r, c);
	if (c[CHECK_FAIL] || (strict && c[CHECK_WARN]))
		return CHECK_FAIL;
	return c[CHECK_WARN] ? CHECK_WARN : CHECK_PASS;
}

int check_exit_code(const struct check_report *r, bool strict)
{
	if (r->incomplete)
		return 3;
	return check_result(r, strict) == CHECK_FAIL ? 1 : 0;
}

/* Text from files, the kernel or the user, with control characters escaped:
 * a line name or a consumer must not move the terminal's cursor. */
static void put_clean(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			fputc(ch, f);
	}
}

void check_print_text(FILE *f, const struct check_report *r, bool strict, bool verbose)
{
	unsigned c[CHECK_NSTATUS];
	size_t i, w = 0;

	for (i = 0; i < r->n; i++)
		if (strlen(r->v[i].id) > w)
			w = strlen(r->v[i].id);
	for (i = 0; i < r->n; i++) {
		const struct check_finding *x = &r->v[i];
		bool detail = verbose || x->status == CHECK_WARN || x->status == CHECK_FAIL;

		fprintf(f, "%s %-*s  ", check_status_name(x->status), (int)w, x->id);
		put_clean(f, x->value);
		fputc('\n', f);
		if (detail && x->why[0]) {
			fprintf(f, "     %-*s  why: ", (int)w, "");
			put_clean(f, x->why);
			fputc('\n', f);
		}
		if (detail && x->fix[0]) {
			fprintf(f, "     %-*s  fix: ", (int)w, "");
			put_clean(f, x->fix);
			fputc('\n', f);
		}
	}
	check_counts(r, c);
	fprintf(f, "\ncheck: %u PASS, %u WARN, %u FAIL, %u SKIP: %s%s\n", c[CHECK_PASS],
		c[CHECK_WARN], c[CHECK_FAIL], c[CHECK_SKIP],
		check_status_name(check_result(r, strict)),
		strict && c[CHECK_WARN] && !c[CHECK_FAIL] ? " (--strict: a WARN fails)" : "");
	if (r->incomplete)
		fprintf(f, "check: incomplete: %s\n", r->incomplete_why);
}

void check_write_json(struct json_writer *w, const struct check_report *r)
{
	size_t i;

	json_array_begin(w);
	for (i = 0; i < r->n; i++) {
		const struct check_finding *x = &r->v[i];

		json_object_begin(w);
		json_kv_string(w, "id", x->id);
		json_kv_string(w, "status", check_status_name(x->status));
		json_kv_string(w, "value", x->value);
		json_kv_string(w, "why", x->why);
		json_kv_string(w, "fix", x->fix);
		json_object_end(w);
	}
	json_array_end(w);
}

/* ---- JUnit ---- */

/* Whether finding @x makes the check fail: a FAIL, a WARN with @strict. */
static bool finding_fails(const struct check_finding *x, bool strict)
{
	return x->status == CHECK_FAIL || (strict && x->status == CHECK_WARN);
}

/* The finding's words: its value, then why and fix where it has them. */
static void junit_finding_text(FILE *f, const struct check_finding *x)
{
	ciout_xml_put(f, x->value);
	if (x->why[0]) {
		fputs("\nwhy: ", f);
		ciout_xml_put(f, x->why);
	}
	if (x->fix[0]) {
		fputs("\nfix: ", f);
		ciout_xml_put(f, x->fix);
	}
}

int check_write_junit(const char *path, const struct check_report *r,
		      const struct check_junit_info *ji, char *err, size_t errlen)
{
	double secs = ji->end_realtime_ns > ji->start_realtime_ns
		      ? (double)(ji->end_realtime_ns - ji->start_realtime_ns) / 1e9 : 0;
	time_t t0 = (time_t)(ji->start_realtime_ns / 1000000000u);
	size_t i, fails = 0, skips = 0, n = r->n + (r->incomplete ? 1 : 0);
	char suite[256], timestamp[32];
	struct tm tm;
	FILE *f;

	for (i = 0; i < r->n; i++) {
		fails += finding_fails(&r->v[i], ji->strict);
		skips += r->v[i].status == CHECK_SKIP;
	}
	/* JUnit's timestamp has no zone: UTC, as CI servers assume */
	gmtime_r(&t0, &tm);
	strftime(timestamp, sizeof(timestamp), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(suite, sizeof(suite), "sqwave.check.%s", ji->board && ji->board[0] ? ji->board : "_");
	f = outfile_open(path, err, errlen);
	if (!f)
		return -1;
	/* the xUnit plugin's junit-10.xsd: no skipped count on <testsuites> */
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"sqwave check\" tests=\"%zu\" failures=\"%zu\" errors=\"%d\" "
		"time=\"%.3f\">\n  <testsuite name=\"", n, fails, r->incomplete, secs);
	ciout_xml_put(f, suite);
	fprintf(f, "\" id=\"0\" package=\"sqwave\" tests=\"%zu\" failures=\"%zu\" "
		"errors=\"%d\" skipped=\"%zu\" time=\"%.3f\" timestamp=\"%s\" hostname=\"",
		n, fails, r->incomplete, skips, secs, timestamp);
	ciout_xml_put(f, ji->hostname && ji->hostname[0] ? ji->hostname : "localhost");
	fputs("\">\n    <properties>\n", f);
	ciout_xml_property(f, "sqwave_version", SQW_VERSION);
	ciout_xml_property(f, "board", ji->board);
	ciout_xml_property(f, "board_file", ji->board_file);
	ciout_xml_property(f, "profile", ji->profile);
	ciout_xml_property(f, "root", ji->root);
	ciout_xml_property(f, "kernel", ji->kernel);
	ciout_xml_property(f, "strict", ji->strict ? "yes" : "no");
	ciout_xml_property(f, "result", check_status_name(check_result(r, ji->strict)));
	fputs("    </properties>\n", f);
	for (i = 0; i < r->n; i++) {
		const struct check_finding *x = &r->v[i];

		fputs("    <testcase classname=\"", f);
		ciout_xml_put(f, suite);
		fputs("\" name=\"", f);
		ciout_xml_put(f, x->id);
		fputs("\" time=\"0\">\n", f);
		if (finding_fails(x, ji->strict)) {
			fputs("      <failure message=\"", f);
			ciout_xml_put(f, x->value);
			fprintf(f, "\" type=\"%s\">", check_status_name(x->status));
			junit_finding_text(f, x);
			fputs("</failure>\n", f);
		} else if (x->status == CHECK_SKIP) {
			fputs("      <skipped message=\"", f);
			ciout_xml_put(f, x->value);
			fputs("\"/>\n", f);
		}
		/* every finding's own words, a WARN that does not fail too */
		fprintf(f, "      <system-out>%s ", check_status_name(x->status));
		junit_finding_text(f, x);
		fputs("</system-out>\n    </testcase>\n", f);
	}
	if (r->incomplete) {	/* exit 3: the check itself could not be made */
		fputs("    <testcase classname=\"", f);
		ciout_xml_put(f, suite);
		fputs("\" name=\"incomplete\" time=\"0\">\n      <error message=\"", f);
		ciout_xml_put(f, r->incomplete_why);
		fputs("\" type=\"incomplete\"/>\n    </testcase>\n", f);
	}
	fputs("    <system-out/>\n    <system-err/>\n  </testsuite>\n</testsuites>\n", f);
	return outfile_close(f, path, err, errlen);
}
