/* SPDX-License-Identifier: GPL-2.0-or-later */
/* KCIDB v5 test objects from the verdict's checks (verdict_checks()), as
 * kcidb-io's schema v5.3 defines them: what KernelCI's database takes. */
#include "summary/kcidb.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/json.h"
#include "base/msgbuf.h"
#include "base/outfile.h"
#include "log/edgelog.h"
#include "summary/ciout.h"
#include "stats/loopstats.h"

#ifndef SQW_VERSION
#define SQW_VERSION "unknown"
#endif

struct kcidb_writer {
	FILE *f;
	char *path;
	struct json_writer w;
	char origin[64];
	char base_url[1024];
	/* "HOST:START_NS": the run's, from its first line; each test's id is
	 * "ORIGIN:", this, ':' and its path, so one run's ids are unique, and
	 * the same run written again has the same ones */
	char run_key[128];
};

bool kcidb_origin_ok(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* RFC 3986's unreserved characters, and '/' which separates a path's parts. */
static bool url_plain(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '-' || ch == '.' || ch == '_' || ch == '~' || ch == '/';
}

static size_t url_put(char *buf, size_t len, size_t o, const char *s, bool encode)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		size_t need = !encode || url_plain(ch) ? 1 : 3;

		if (o + need >= len)
			break;
		if (need == 1) {
			buf[o++] = (char)ch;
		} else {
			buf[o++] = '%';
			buf[o++] = hex[ch >> 4];
			buf[o++] = hex[ch & 15];
		}
	}
	buf[o] = '\0';
	return o;
}

const char *kcidb_file_url(const char *path, const char *base_url, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (base_url && base_url[0]) {
		const char *name = strrchr(path, '/');
		size_t bl = strlen(base_url);

		o = url_put(buf, len, 0, base_url, false);
		if (bl && base_url[bl - 1] != '/')
			o = url_put(buf, len, o, "/", false);
		url_put(buf, len, o, name ? name + 1 : path, true);
		return buf;
	}
	o = url_put(buf, len, 0, "file://", false);
	{
		char *abs = realpath(path, NULL);

		if (abs) {
			url_put(buf, len, o, abs, true);
			free(abs);
			return buf;
		}
	}
	/* not there (yet): the working directory before a relative path */
	if (path[0] != '/') {
		char cwd[PATH_MAX];

		if (getcwd(cwd, sizeof(cwd))) {
			o = url_put(buf, len, o, cwd, true);
			if (o == 0 || buf[o - 1] != '/')
				o = url_put(buf, len, o, "/", false);
		}
	}
	url_put(buf, len, o, path, true);
	return buf;
}

struct kcidb_writer *kcidb_writer_open(const char *path, const char *origin,
				       const char *base_url, char *err, size_t errlen)
{
	struct kcidb_writer *k;

	if (!kcidb_origin_ok(origin) || strlen(origin) >= sizeof(k->origin)) {
		msgbuf_set(err, errlen, "output.kcidb_origin \"%s\": a KCIDB origin is "
			   "[a-z0-9_]+, at most %zu characters", origin, sizeof(k->origin) - 1);
		errno = EINVAL;
		return NULL;
	}
	k = calloc(1, sizeof(*k));
	if (!k || !(k->path = strdup(path))) {
		free(k);
		msgbuf_set(err, errlen, "%s", strerror(ENOMEM));
		errno = ENOMEM;
		return NULL;
	}
	k->f = outfile_open(path, err, errlen);
	if (!k->f) {
		int e = errno;

		free(k->path);
		free(k);
		errno = e;
		return NULL;
	}
	snprintf(k->origin, sizeof(k->origin), "%s", origin);
	snprintf(k->base_url, sizeof(k->base_url), "%s", base_url ? base_url : "");
	json_init(&k->w, k->f);
	json_object_begin(&k->w);
	json_kv_object_begin(&k->w, "version");
	json_kv_int(&k->w, "major", KCIDB_MAJOR);
	json_kv_int(&k->w, "minor", KCIDB_MINOR);
	json_object_end(&k->w);
	json_kv_array_begin(&k->w, "tests");
	return k;
}

int kcidb_writer_close(struct kcidb_writer *k, char *err, size_t errlen)
{
	int ret;

	json_array_end(&k->w);
	json_object_end(&k->w);
	json_finish(&k->w);
	ret = outfile_close(k->f, k->path, err, errlen);
	free(k->path);
	free(k);
	return ret;
}

/* KCIDB's date-time: RFC 3339, UTC, microseconds. */
static const char *time_text(uint64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000u);
	struct tm tm;
	char day[32];

	gmtime_r(&t, &tm);
	strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%06u+00:00", day, (unsigned)(ns % 1000000000u / 1000u));
	return buf;
}

/* What a test says of one line, beside its own figures. */
struct line_ctx {
	struct kcidb_writer *k;
	const struct config *c;
	const struct run_info *ri;
	const struct kcidb_files *files;
	char line[80];          /* "lineNAME", a path part */
};

/* The check's figure as KCIDB's number: seconds with a metric prefix (a
 * dashboard shows "556.2 us"), counts without a unit (dimensionless), "%",
 * packets/s. The same figure the summary's JSON has, in seconds. */
static void number_put(struct json_writer *w, double v, enum verdict_unit u)
{
	json_kv_object_begin(w, "number");
	json_kv_double(w, "value", u == VERDICT_UNIT_NS ? v / 1e9 : v);
	if (u == VERDICT_UNIT_NS) {
		json_kv_string(w, "unit", "s");
		json_kv_string(w, "prefix", "metric");
	} else if (u == VERDICT_UNIT_PERCENT) {
		json_kv_string(w, "unit", "%");
	} else if (u == VERDICT_UNIT_PPS) {
		json_kv_string(w, "unit", "packet/s");
		json_kv_string(w, "prefix", "metric");
	}
	json_object_end(w);
}

static void files_put(struct kcidb_writer *k, const char *const *paths, size_t n)
{
	char url[4096];
	size_t i;

	json_kv_array_begin(&k->w, "output_files");
	for (i = 0; i < n; i++) {
		const char *p = paths[i], *base;

		if (!p || !p[0] || !strcmp(p, "-"))
			continue;
		base = strrchr(p, '/');
		base = base ? base + 1 : p;
		if (!base[0])
			continue;
		json_object_begin(&k->w);
		json_kv_string(&k->w, "name", base);
		json_kv_string(&k->w, "url", kcidb_file_url(p, k->base_url, url, sizeof(url)));
		json_object_end(&k->w);
	}
	json_array_end(&k->w);
}

/* The members every test has: id, build_id, origin, path, the start and
 * length (@secs NAN: none), the files. */
static void test_head(struct kcidb_writer *k, const char *run_key, const char *kernel,
		      const char *path, uint64_t start_ns, double secs,
		      const char *const *files, size_t nfiles)
{
	struct json_writer *w = &k->w;
	char buf[512];

	json_object_begin(w);
	snprintf(buf, sizeof(buf), "%s:%s:%s", k->origin, run_key, path);
	json_kv_string(w, "id", buf);
	/* sqwave knows the kernel it ran on, not the KCIDB build that made it:
	 * a submitter replaces this with its build's id (docs/ci.md) */
	snprintf(buf, sizeof(buf), "%s:%s", k->origin, kernel && kernel[0] ? kernel : "unknown");
	json_kv_string(w, "build_id", buf);
	json_kv_string(w, "origin", k->origin);
	json_kv_string(w, "path", path);
	json_kv_string(w, "start_time", time_text(start_ns, buf, sizeof(buf)));
	if (isfinite(secs))
		json_kv_double(w, "duration", secs);
	files_put(k, files, nfiles);
}

/* The members every test of a line has. */
static void test_begin(struct line_ctx *x, const char *path, uint64_t start_ns, double secs)
{
	const char *const files[4] = { x->files->log, x->files->json, x->files->junit,
				       x->files->results };

	test_head(x->k, x->k->run_key, x->ri->host.kernel_release, path, start_ns, secs, files, 4);
}

/* misc: where the test comes from, as sqwave's own documents name it. */
static void misc_begin(struct line_ctx *x)
{
	struct json_writer *w = &x->k->w;

	json_kv_object_begin(w, "misc");
	json_kv_string(w, "sqwave_version", SQW_VERSION);
	json_kv_string(w, "board", config_str(x->c, CFG_BOARD_NAME));
	json_kv_string(w, "label", x->ri->label ? x->ri->label : "");
	json_kv_string(w, "line", x->ri->line_name ? x->ri->line_name
						  : config_str(x->c, CFG_GPIO_LINE));
	json_kv_string(w, "kernel", x->ri->host.kernel_release);
	json_kv_bool(w, "preempt_rt", x->ri->host.preempt_rt);
	json_kv_bool(w, "realtime", x->ri->rt_ok);
}

/* A phase's start and length, as the JUnit suites have them. */
static void phase_span(const struct line_ctx *x, const char *phase, uint64_t *start,
		       double *secs)
{
	const struct run_info *ri = x->ri;
	double run = ri->end_realtime_ns > ri->start_realtime_ns
		     ? (double)(ri->end_realtime_ns - ri->start_realtime_ns) / 1e9 : 0;
	int64_t warmup = config_int(x->c, CFG_RUN_WARMUP);
	size_t i;

	*start = ri->start_realtime_ns;
	*secs = run;
	for (i = 0; phase && i < ri->nphases; i++) {
		const struct run_phase *ph = &ri->phases[i];

		if (strcmp(ph->name, phase))
			continue;
		*start = ri->start_realtime_ns + (uint64_t)warmup +
			 (uint64_t)(ph->start_off_ns > 0 ? ph->start_off_ns : 0);
		*secs = (double)ph->duration_ns / 1e9;
		if (!ph->duration_ns && i + 1 == ri->nphases)   /* open-ended: to the end */
			*secs = run - (double)(warmup + ph->start_off_ns) / 1e9;
		if (*secs < 0)
			*secs = 0;
		return;
	}
}

/* KCIDB's status of a check: a limit left unset still measured its figure,
 * which is v5's DONE ("completed ... produced a performance measurement");
 * a check that measured nothing either is SKIP. */
static const char *check_status(const struct verdict_check *ck)
{
	if (ck->result == VERDICT_CHECK_PASS)
		return "PASS";
	if (ck->result == VERDICT_CHECK_FAIL)
		return "FAIL";
	return ck->has_observed && isfinite(ck->observed) ? "DONE" : "SKIP";
}

static void check_test(struct line_ctx *x, const struct verdict_check *ck)
{
	struct json_writer *w = &x->k->w;
	char path[512], p[128], l[128], n[64];
	double secs;
	uint64_t start;

	snprintf(path, sizeof(path), "sqwave.%s%s%s%s%s%s%s.%s", x->line,
		 ck->phase ? "." : "", ck->phase ? ciout_name_part(ck->phase, p, sizeof(p)) : "",
		 ck->load ? "." : "", ck->load ? ciout_name_part(ck->load, l, sizeof(l)) : "",
		 ck->instrument ? "." : "", ck->instrument ? ck->instrument : "",
		 ciout_name_part(ck->name, n, sizeof(n)));
	phase_span(x, ck->phase, &start, &secs);
	test_begin(x, path, start, secs);
	json_kv_string(w, "status", check_status(ck));
	if (ck->has_observed && isfinite(ck->observed))
		number_put(w, ck->observed, ck->unit);
	if (ck->message && ck->message[0])
		json_kv_string(w, "comment", ck->message);
	misc_begin(x);
	json_kv_string(w, "check", ck->name);
	if (ck->phase)
		json_kv_string(w, "phase", ck->phase);
	if (ck->load)
		json_kv_string(w, "load", ck->load);
	if (ck->instrument)
		json_kv_string(w, "instrument", ck->instrument);
	json_kv_bool(w, "in_verdict", ck->in_verdict);
	if (ck->has_interval) {
		json_kv_object_begin(w, "interval");
		json_key(w, "lo");
		json_object_begin(w);
		number_put(w, ck->lo, ck->unit);
		json_object_end(w);
		json_key(w, "hi");
		json_object_begin(w);
		number_put(w, ck->hi, ck->unit);
		json_object_end(w);
		json_object_end(w);
	}
	if (ck->has_limit && isfinite(ck->limit)) {
		json_kv_object_begin(w, "limit");
		if (ck->key)
			json_kv_string(w, "key", ck->key);
		json_kv_string(w, "bound", ck->limit_is_min ? "at least" : "at most");
		number_put(w, ck->limit, ck->unit);
		json_object_end(w);
	}
	if (ck->has_estimate && isfinite(ck->estimate)) {
		json_key(w, "pulse_width_estimate");
		json_object_begin(w);
		number_put(w, ck->estimate, ck->unit);
		json_object_end(w);
	}
	if (ck->has_edge) {
		json_kv_object_begin(w, "edge");
		json_kv_uint(w, "seq", ck->seq);
		json_kv_double(w, "t_s", ck->t_s);
		json_object_end(w);
	}
	json_object_end(w);	/* misc */
	json_object_end(w);	/* the test */
}

/* The line's own cross-check by an instrument, when the run had one: the
 * loopback, the kernel's view of the pin (docs/loopback.md). A capture is
 * compared on the bench after the run (sqwave compare): not here. */
static void cross_check_put(struct line_ctx *x)
{
	const struct loopstats_result *lb = x->ri->loopback;
	struct json_writer *w = &x->k->w;

	if (!lb)
		return;
	json_kv_object_begin(w, "cross_check");
	json_kv_string(w, "instrument", "loopback");
	json_kv_uint(w, "edges", lb->edges);
	json_kv_uint(w, "seen", lb->events);
	json_kv_uint(w, "not_seen", lb->no_event);
	json_kv_uint(w, "early", lb->early);
	json_kv_string(w, "verdict", lb->edges && lb->events == lb->edges && !lb->early ? "agrees"
				       : "disagrees");
	json_object_end(w);
}

static void line_test(struct line_ctx *x, const struct verdict_result *v)
{
	const struct run_info *ri = x->ri;
	struct json_writer *w = &x->k->w;
	char path[128];
	double secs = ri->end_realtime_ns > ri->start_realtime_ns
		      ? (double)(ri->end_realtime_ns - ri->start_realtime_ns) / 1e9 : 0;
	const char *status;

	/* a run that stopped on its own error says nothing of the kernel */
	if (ri->stop_reason == EDGELOG_STOP_ERROR || ri->log_error)
		status = "ERROR";
	else
		status = v->verdict == VERDICT_FAIL ? "FAIL"
			 : v->verdict == VERDICT_PASS ? "PASS" : "DONE";
	snprintf(path, sizeof(path), "sqwave.%s", x->line);
	test_begin(x, path, ri->start_realtime_ns, secs);
	json_kv_string(w, "status", status);
	misc_begin(x);
	json_kv_string(w, "verdict", v->word ? v->word : "");
	json_kv_uint(w, "checks", v->nchecks);
	cross_check_put(x);
	json_object_end(w);	/* misc */
	json_object_end(w);
}

void kcidb_writer_add_line(struct kcidb_writer *k, const struct config *c,
			   const struct run_info *ri, const struct verdict_result *v,
			   const struct kcidb_files *files)
{
	struct line_ctx x = { .k = k, .c = c, .ri = ri, .files = files };
	char name[64];
	size_t i;

	if (!k->run_key[0])
		snprintf(k->run_key, sizeof(k->run_key), "%s:%" PRIu64,
			 ri->host.hostname[0] ? ri->host.hostname : "localhost",
			 ri->start_realtime_ns);
	snprintf(x.line, sizeof(x.line), "line%s",
		 ciout_name_part(ri->line_name ? ri->line_name : config_str(c, CFG_GPIO_LINE),
				 name, sizeof(name)));
	line_test(&x, v);
	for (i = 0; i < v->nchecks; i++)
		check_test(&x, &v->checks[i]);
}

void kcidb_writer_add_test(struct kcidb_writer *k, const struct kcidb_test *t)
{
	struct json_writer *w = &k->w;

	test_head(k, t->run_key, t->kernel_release, t->path, t->start_ns, t->duration_s,
		  t->files, t->nfiles);
	json_kv_string(w, "status", t->status);
	if (t->has_number && isfinite(t->number))
		number_put(w, t->number, t->unit);
	if (t->comment && t->comment[0])
		json_kv_string(w, "comment", t->comment);
	json_kv_object_begin(w, "misc");
	json_kv_string(w, "sqwave_version", SQW_VERSION);
	if (t->misc)
		t->misc(w, t->misc_ctx);
	json_object_end(w);	/* misc */
	json_object_end(w);
}
