/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict for KernelCI's database: a KCIDB v5 I/O document (kcidb-io's
 * schema v5.3) whose test objects are every line's checks (docs/ci.md). */
#ifndef SQW_KCIDB_H
#define SQW_KCIDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/json.h"
#include "config/config.h"
#include "stats/runinfo.h"
#include "stats/verdict.h"

/* The KCIDB schema version written: {"major": 5, "minor": 3}. */
#define KCIDB_MAJOR 5
#define KCIDB_MINOR 3

/* A document being written: opened once per run, a line added at a time
 * (each line's test objects), closed once. Main thread only. */
struct kcidb_writer;

/* The files of a line its tests list as output_files: paths as the run
 * wrote them (NULL or "": none, or not written). */
struct kcidb_files {
	const char *log, *json, *junit, *results;
};

/*
 * Open @path ("-": standard output) for a document whose tests have the
 * origin @origin (output.kcidb_origin) and whose files' URLs are formed
 * from @base_url (output.kcidb_url, "" or NULL: file://; docs/ci.md). NULL
 * with errno and the reason in @err: the file cannot be created, an origin
 * that is not [a-z0-9_]+. The caller ends it with kcidb_writer_close()
 * (which frees it), whatever happened between.
 */
struct kcidb_writer *kcidb_writer_open(const char *path, const char *origin,
				       const char *base_url, char *err, size_t errlen);

/*
 * Line @ri->line_index's tests from its verdict @v: one per check, path
 * "sqwave.lineNAME[.PHASE[.LOAD]].CHECK", and one for the line itself,
 * "sqwave.lineNAME", with the line's verdict. @files are listed with each.
 * Writes nothing that can fail by itself (a write error is kept for close).
 */
void kcidb_writer_add_line(struct kcidb_writer *k, const struct config *c,
			   const struct run_info *ri, const struct verdict_result *v,
			   const struct kcidb_files *files);

/* One test of another source than a run's checks (a capture compared
 * with the log: src/lab/compare/comparedoc.c), in the same tree: its id is
 * "ORIGIN:@run_key:@path", its build "ORIGIN:@kernel_release". */
struct kcidb_test {
	const char *path;             /* "sqwave.line0.compare" */
	const char *run_key;          /* "HOST:START_NS", as a run's tests have it */
	const char *kernel_release;   /* "" or NULL: "unknown" */
	const char *status;           /* "PASS", "FAIL", "ERROR", ... */
	uint64_t start_ns;            /* realtime */
	double duration_s;            /* NAN: not said */
	bool has_number;              /* the figure, as a check's (ns become seconds) */
	double number;
	enum verdict_unit unit;
	const char *comment;          /* NULL: none */
	const char *const *files;     /* paths for output_files, @nfiles of them */
	size_t nfiles;
	/* misc's own members, written inside misc after "sqwave_version" */
	void (*misc)(struct json_writer *w, const void *ctx);
	const void *misc_ctx;
};
void kcidb_writer_add_test(struct kcidb_writer *k, const struct kcidb_test *t);

/* End the document and close its file; @k is freed. 0, or -1 with errno and
 * the reason in @err (a failed write removes a regular file: outfile_close). */
int kcidb_writer_close(struct kcidb_writer *k, char *err, size_t errlen);

/* Whether @s is a KCIDB origin: [a-z0-9_]+. */
bool kcidb_origin_ok(const char *s);

/* @path as a KCIDB output_files URL into @buf: @base_url (not empty) with
 * @path's last component appended (a '/' added between when @base_url has
 * none), else "file://" and @path made absolute (realpath(3), else the
 * working directory before a relative one), both with every byte outside
 * RFC 3986's unreserved set and '/' percent-encoded. Cut to fit @len.
 * Returns @buf. */
const char *kcidb_file_url(const char *path, const char *base_url, char *buf, size_t len);

#endif
