/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcidb: KCIDB v5 test objects from a run's checks, read back as JSON: the
 * paths, the statuses v5 defines, the figures in seconds, ids, URLs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "summary/kcidb.h"
#include "base/jsonread.h"
#include "log/edgelog.h"
#include "stats/edgestats.h"
#include "stats/loopstats.h"

#define HALF 500000
#define T0   1000000000ull

struct fixture {
	struct config *c;
	struct edgestats *s;
	struct run_info ri;
	struct verdict_result v;
	char path[64];
	struct jv *doc;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (!f)
		return -1;
	f->c = config_new();
	f->s = edgestats_new(HALF);
	if (!f->c || !f->s)
		return -1;
	f->ri.board_file = "boards/sim.yaml";
	f->ri.log_path = "run.sqwlog";
	f->ri.line_name = "3";
	snprintf(f->ri.host.hostname, sizeof(f->ri.host.hostname), "board-7");
	snprintf(f->ri.host.kernel_release, sizeof(f->ri.host.kernel_release), "6.6.0-rt15");
	f->ri.rt_ok = true;
	f->ri.start_realtime_ns = 1700000000000000000ull;
	f->ri.end_realtime_ns = f->ri.start_realtime_ns + 2500000000ull;
	f->ri.stop_reason = EDGELOG_STOP_DURATION;
	snprintf(f->path, sizeof(f->path), "%s/sqw-kcidb-XXXXXX", tmp ? tmp : "/tmp");
	fd = mkstemp(f->path);
	if (fd < 0)
		return -1;
	close(fd);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->path);
	jv_free(f->doc);
	verdict_result_free(&f->v);
	edgestats_free(f->s);
	config_free(f->c);
	free(f);
	return 0;
}

static void set(struct fixture *f, enum cfg_key key, const char *value)
{
	char err[256];

	if (config_set(f->c, key, value, CFG_SRC_CMDLINE, NULL, 0, err, sizeof(err)) != CFG_OK) {
		print_error("config_set: %s\n", err);
		fail();
	}
}

/* @n edges woken 10 us late, 2 us writes; edge @slow @extra ns later. */
static void feed_wave(struct fixture *f, uint64_t n, int64_t slow, int32_t extra)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		struct edge_rec e = {
			.seq = i, .intended_ns = T0 + i * HALF, .wake_off_ns = 10000,
			.write_begin_off_ns = 11000, .write_end_off_ns = 13000, .expirations = 1,
			.level = (uint8_t)(i % 2 == 0),
		};

		if ((int64_t)i == slow) {
			e.wake_off_ns += extra;
			e.write_begin_off_ns += extra;
			e.write_end_off_ns += extra;
		}
		edgestats_add(f->s, &e);
	}
	f->ri.records_logged = n;
}

/* The run judged, written as one line's tests, read back. */
static void write_doc(struct fixture *f)
{
	const struct kcidb_files files = { .log = f->ri.log_path, .json = "out dir/run.json" };
	struct kcidb_writer *k;
	char err[256] = "";
	bool io = false;

	assert_int_equal(verdict_result_compute(&f->v, f->c, edgestats_result(f->s), &f->ri, err,
						sizeof(err)), 0);
	k = kcidb_writer_open(f->path, config_str(f->c, CFG_OUTPUT_KCIDB_ORIGIN),
			      config_str(f->c, CFG_OUTPUT_KCIDB_URL), err, sizeof(err));
	assert_non_null(k);
	kcidb_writer_add_line(k, f->c, &f->ri, &f->v, &files);
	assert_int_equal(kcidb_writer_close(k, err, sizeof(err)), 0);
	f->doc = jsonread_file(f->path, &io, err, sizeof(err));
	if (!f->doc)
		print_error("%s\n", err);
	assert_non_null(f->doc);
}

static const struct jv *test_at(const struct fixture *f, const char *path)
{
	const struct jv *tests = jv_get(f->doc, "tests");
	size_t i;

	for (i = 0; i < jv_len(tests); i++)
		if (!strcmp(jv_str(jv_get(jv_at(tests, i), "path"), ""), path))
			return jv_at(tests, i);
	print_error("no test %s\n", path);
	fail();
	return NULL;
}

static void the_document_is_v5_with_one_test_per_check_and_one_for_the_line(void **state)
{
	struct fixture *f = *state;

	feed_wave(f, 100, -1, 0);
	write_doc(f);
	assert_int_equal(jv_int(jv_path(f->doc, "version.major"), 0), 5);
	assert_int_equal(jv_int(jv_path(f->doc, "version.minor"), 0), KCIDB_MINOR);
	assert_int_equal(jv_len(jv_get(f->doc, "tests")), f->v.nchecks + 1);
	assert_string_equal(jv_str(jv_get(test_at(f, "sqwave.line3"), "status"), ""), "DONE");
	assert_string_equal(jv_str(jv_get(test_at(f, "sqwave.line3.edges"), "status"), ""),
			    "PASS");
}

static void a_violated_limit_fails_and_its_figure_is_in_seconds(void **state)
{
	struct fixture *f = *state;
	const struct jv *t;

	feed_wave(f, 100, 50, 30000);
	set(f, CFG_LIMITS_TMAX, "510us");
	write_doc(f);
	t = test_at(f, "sqwave.line3.tmax");
	assert_string_equal(jv_str(jv_get(t, "status"), ""), "FAIL");
	/* the slow edge made a pulse 530 us long (500 + 30), its highest
	 * bound 2 us more (the 2 us write window) */
	assert_true(fabs(jv_num(jv_path(t, "number.value"), 0) - 532e-6) < 1e-12);
	assert_string_equal(jv_str(jv_path(t, "number.unit"), ""), "s");
	assert_string_equal(jv_str(jv_path(t, "number.prefix"), ""), "metric");
	assert_string_equal(jv_str(jv_path(t, "misc.limit.key"), ""), "limits.tmax");
	assert_true(jv_num(jv_path(t, "misc.limit.number.value"), 0) == 510e-6);
	assert_string_equal(jv_str(jv_get(test_at(f, "sqwave.line3"), "status"), ""), "FAIL");
}

static void a_limit_left_unset_is_done_with_its_figure_a_count_has_no_unit(void **state)
{
	struct fixture *f = *state;
	const struct jv *t;

	feed_wave(f, 100, -1, 0);
	write_doc(f);
	t = test_at(f, "sqwave.line3.wake_latency_max");
	assert_string_equal(jv_str(jv_get(t, "status"), ""), "DONE");
	assert_true(jv_num(jv_path(t, "number.value"), 0) == 10e-6);
	t = test_at(f, "sqwave.line3.edges");
	assert_null(jv_path(t, "number.unit"));
	assert_int_equal(jv_int(jv_path(t, "number.value"), 0), 100);
}

static void a_run_stopped_on_its_error_is_an_error_not_a_verdict(void **state)
{
	struct fixture *f = *state;

	feed_wave(f, 100, -1, 0);
	f->ri.stop_reason = EDGELOG_STOP_ERROR;
	write_doc(f);
	assert_string_equal(jv_str(jv_get(test_at(f, "sqwave.line3"), "status"), ""), "ERROR");
	assert_string_equal(jv_str(jv_get(test_at(f, "sqwave.line3.no_error"), "status"), ""),
			    "FAIL");
}

static void the_loopback_is_the_line_s_cross_check_in_misc(void **state)
{
	struct fixture *f = *state;
	struct loopstats_result lb = { .edges = 100, .events = 99, .no_event = 1 };
	const struct jv *x;

	feed_wave(f, 100, -1, 0);
	write_doc(f);
	assert_null(jv_path(test_at(f, "sqwave.line3"), "misc.cross_check"));
	jv_free(f->doc);
	verdict_result_free(&f->v);
	f->ri.loopback = &lb;
	write_doc(f);
	x = jv_path(test_at(f, "sqwave.line3"), "misc.cross_check");
	assert_string_equal(jv_str(jv_get(x, "instrument"), ""), "loopback");
	assert_int_equal(jv_int(jv_get(x, "seen"), 0), 99);
	assert_string_equal(jv_str(jv_get(x, "verdict"), ""), "disagrees");
	jv_free(f->doc);
	verdict_result_free(&f->v);
	lb.events = 100;
	lb.no_event = 0;
	write_doc(f);
	x = jv_path(test_at(f, "sqwave.line3"), "misc.cross_check");
	assert_string_equal(jv_str(jv_get(x, "verdict"), ""), "agrees");
}

static void ids_carry_the_origin_and_are_unique_build_id_is_the_kernel(void **state)
{
	struct fixture *f = *state;
	const struct jv *tests;
	size_t i, j;

	set(f, CFG_OUTPUT_KCIDB_ORIGIN, "my_lab");
	feed_wave(f, 100, -1, 0);
	write_doc(f);
	tests = jv_get(f->doc, "tests");
	for (i = 0; i < jv_len(tests); i++) {
		const char *id = jv_str(jv_get(jv_at(tests, i), "id"), "");

		assert_int_equal(strncmp(id, "my_lab:", 7), 0);
		assert_string_equal(jv_str(jv_get(jv_at(tests, i), "origin"), ""), "my_lab");
		assert_string_equal(jv_str(jv_get(jv_at(tests, i), "build_id"), ""),
				    "my_lab:6.6.0-rt15");
		for (j = 0; j < i; j++)
			assert_string_not_equal(id, jv_str(jv_get(jv_at(tests, j), "id"), ""));
	}
}

static void output_files_name_the_file_and_point_at_it(void **state)
{
	struct fixture *f = *state;
	const struct jv *files;

	set(f, CFG_OUTPUT_KCIDB_URL, "https://lab.example/job7");
	feed_wave(f, 100, -1, 0);
	write_doc(f);
	files = jv_get(test_at(f, "sqwave.line3.tmin"), "output_files");
	assert_int_equal(jv_len(files), 2);
	assert_string_equal(jv_str(jv_get(jv_at(files, 0), "name"), ""), "run.sqwlog");
	assert_string_equal(jv_str(jv_get(jv_at(files, 0), "url"), ""),
			    "https://lab.example/job7/run.sqwlog");
	assert_string_equal(jv_str(jv_get(jv_at(files, 1), "name"), ""), "run.json");
}

static void a_file_url_is_absolute_and_percent_encoded(void **state)
{
	char url[512], cwd[400], want[512];

	(void)state;
	assert_string_equal(kcidb_file_url("/var/log/a b%.json", "", url, sizeof(url)),
			    "file:///var/log/a%20b%25.json");
	assert_string_equal(kcidb_file_url("d/r.sqwlog", "https://x/y/", url, sizeof(url)),
			    "https://x/y/r.sqwlog");
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(want, sizeof(want), "file://%s/no-such-dir/r.txt", cwd);
	/* a cwd that needs encoding would differ: this test's does not */
	if (!strpbrk(cwd, " %#?"))
		assert_string_equal(kcidb_file_url("no-such-dir/r.txt", NULL, url, sizeof(url)),
				    want);
}

static void an_origin_is_lowercase_letters_digits_and_underscores(void **state)
{
	(void)state;
	assert_true(kcidb_origin_ok("sqwave"));
	assert_true(kcidb_origin_ok("lab_2"));
	assert_false(kcidb_origin_ok(""));
	assert_false(kcidb_origin_ok("Lab"));
	assert_false(kcidb_origin_ok("a:b"));
	assert_false(kcidb_origin_ok("a-b"));
}

static void a_bad_origin_opens_nothing(void **state)
{
	struct fixture *f = *state;
	char err[256] = "";

	set(f, CFG_OUTPUT_KCIDB_ORIGIN, "My-Lab");
	unlink(f->path);
	assert_null(kcidb_writer_open(f->path, "My-Lab", "", err, sizeof(err)));
	assert_non_null(strstr(err, "output.kcidb_origin"));
	assert_int_equal(access(f->path, F_OK), -1);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(the_document_is_v5_with_one_test_per_check_and_one_for_the_line),
		T(a_violated_limit_fails_and_its_figure_is_in_seconds),
		T(a_limit_left_unset_is_done_with_its_figure_a_count_has_no_unit),
		T(a_run_stopped_on_its_error_is_an_error_not_a_verdict),
		T(the_loopback_is_the_line_s_cross_check_in_misc),
		T(ids_carry_the_origin_and_are_unique_build_id_is_the_kernel),
		T(output_files_name_the_file_and_point_at_it),
		T(a_file_url_is_absolute_and_percent_encoded),
		T(an_origin_is_lowercase_letters_digits_and_underscores),
		T(a_bad_origin_opens_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
