/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the edge log: round trip, truncated and foreign files, a
 * full disk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "edgelog.h"

static char path[64];

static int make_path(void **state)
{
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/sqwave-test-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int remove_path(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static struct edge_rec rec_for(uint64_t i)
{
	struct edge_rec e = { 0 };

	e.seq = i;
	e.intended_ns = 5000000000ull + i * 500000ull;
	e.wake_off_ns = (int32_t)(1000 + i);
	e.write_begin_off_ns = (int32_t)(1500 + i);
	e.write_end_off_ns = (int32_t)(2500 + i);
	e.expirations = 1;
	e.level = (uint8_t)((i + 1) & 1);
	return e;
}

static void write_log(uint64_t n, int footer)
{
	struct edgelog_meta m = { 0 };
	struct edgelog_footer f = { 0 };
	struct edgelog_writer *w;
	uint64_t i;

	m.clock_id = 1;
	m.half_period_ns = 500000;
	m.start_ns = 5000000000ull;
	m.start_realtime_ns = 1700000000000000000ull;
	m.text = (char *)"board.name=sim\nrun.half_period=500us\n";
	w = edgelog_writer_open(path, &m);
	assert_non_null(w);
	for (i = 0; i < n; i++) {
		struct edge_rec e = rec_for(i);

		assert_int_equal(edgelog_writer_append(w, &e, 1), 0);
	}
	f.missed_periods = 7;
	f.dropped = 0;
	assert_int_equal(edgelog_writer_close(w, footer ? &f : NULL), 0);
}

static uint64_t read_all(struct edgelog_reader *r)
{
	struct edge_rec e;
	uint64_t n = 0;

	while (edgelog_reader_next(r, &e) == 1) {
		struct edge_rec want = rec_for(n);

		assert_memory_equal(&e, &want, sizeof(e));
		n++;
	}
	return n;
}

static void a_log_reads_back_exactly_what_was_written(void **state)
{
	enum edgelog_status st;
	struct edgelog_reader *r;
	const struct edgelog_meta *m;
	const struct edgelog_footer *f;
	char buf[64];

	(void)state;
	write_log(1000, 1);
	r = edgelog_reader_open(path, &st, NULL, 0);
	assert_non_null(r);
	m = edgelog_reader_meta(r);
	assert_int_equal(m->half_period_ns, 500000);
	assert_int_equal(m->start_ns, 5000000000ull);
	assert_string_equal(edgelog_meta_get(m, "board.name", buf, sizeof(buf)), "sim");
	assert_string_equal(edgelog_meta_get(m, "run.half_period", buf, sizeof(buf)), "500us");
	assert_null(edgelog_meta_get(m, "board", buf, sizeof(buf)));
	assert_int_equal(read_all(r), 1000);
	f = edgelog_reader_footer(r);
	assert_non_null(f);
	assert_int_equal(f->records, 1000);
	assert_int_equal(f->missed_periods, 7);
	assert_int_equal(edgelog_reader_trailing_bytes(r), 0);
	edgelog_reader_close(r);
}

static void records_are_32_bytes_on_disk(void **state)
{
	struct stat a, b;

	(void)state;
	write_log(0, 1);
	assert_int_equal(stat(path, &a), 0);
	write_log(1000, 1);
	assert_int_equal(stat(path, &b), 0);
	assert_int_equal(b.st_size - a.st_size, 1000 * 32);
}

static void a_log_cut_anywhere_reads_up_to_its_last_complete_record(void **state)
{
	struct stat sb;
	off_t full, cut;

	(void)state;
	write_log(10, 1);
	assert_int_equal(stat(path, &sb), 0);
	full = sb.st_size;
	/* every cut from the footer back into the records */
	for (cut = full - 1; cut >= full - 64 - 3 * 32; cut--) {
		enum edgelog_status st;
		struct edgelog_reader *r;
		uint64_t n;
		off_t records_end = full - 64;

		assert_int_equal(truncate(path, cut), 0);
		r = edgelog_reader_open(path, &st, NULL, 0);
		assert_non_null(r);
		n = read_all(r);
		assert_null(edgelog_reader_footer(r));
		if (cut >= records_end) {
			assert_int_equal(n, 10);
			assert_int_equal(edgelog_reader_trailing_bytes(r), cut - records_end);
		} else {
			assert_int_equal(n, 10 - (records_end - cut + 31) / 32);
			assert_int_equal(edgelog_reader_trailing_bytes(r), (cut - records_end + 320) % 32);
		}
		edgelog_reader_close(r);
	}
}

static void a_log_without_footer_is_reported_as_truncated(void **state)
{
	enum edgelog_status st;
	struct edgelog_reader *r;

	(void)state;
	write_log(5, 0);
	r = edgelog_reader_open(path, &st, NULL, 0);
	assert_non_null(r);
	assert_int_equal(read_all(r), 5);
	assert_null(edgelog_reader_footer(r));
	edgelog_reader_close(r);
}

static void a_foreign_file_is_rejected_with_a_reason(void **state)
{
	enum edgelog_status st;
	char err[256];
	FILE *f = fopen(path, "w");

	(void)state;
	fputs("seq,level\n1,0\n", f);
	fclose(f);
	assert_null(edgelog_reader_open(path, &st, err, sizeof(err)));
	assert_int_equal(st, EDGELOG_E_FOREIGN);
	assert_non_null(strstr(err, "not a sqwave log"));

	f = fopen(path, "w");
	fclose(f);
	assert_null(edgelog_reader_open(path, &st, err, sizeof(err)));
	assert_int_equal(st, EDGELOG_E_FOREIGN);
}

static void a_newer_format_version_is_refused(void **state)
{
	enum edgelog_status st;
	uint32_t v = EDGELOG_VERSION + 1;
	char err[256];
	FILE *f;

	(void)state;
	write_log(3, 1);
	f = fopen(path, "r+");
	fseek(f, 8, SEEK_SET);
	fwrite(&v, sizeof(v), 1, f);
	fclose(f);
	assert_null(edgelog_reader_open(path, &st, err, sizeof(err)));
	assert_int_equal(st, EDGELOG_E_VERSION);
	assert_non_null(strstr(err, "version"));
}

static void a_header_cut_short_or_inconsistent_is_corrupt(void **state)
{
	enum edgelog_status st;
	uint32_t bad = 31;
	char err[256];
	FILE *f;

	(void)state;
	write_log(3, 1);
	assert_int_equal(truncate(path, 40), 0);
	assert_null(edgelog_reader_open(path, &st, err, sizeof(err)));
	assert_int_equal(st, EDGELOG_E_CORRUPT);

	write_log(3, 1);
	f = fopen(path, "r+");
	fseek(f, 12, SEEK_SET);	/* record_size */
	fwrite(&bad, sizeof(bad), 1, f);
	fclose(f);
	assert_null(edgelog_reader_open(path, &st, err, sizeof(err)));
	assert_int_equal(st, EDGELOG_E_CORRUPT);
}

static void a_full_disk_fails_the_writer_and_keeps_what_was_written(void **state)
{
	struct edgelog_meta m = { 0 };
	struct edgelog_footer ft = { 0 };
	struct edgelog_writer *w;
	struct edgelog_reader *r;
	enum edgelog_status st;
	struct rlimit old, lim;
	uint64_t i, n;
	int failed = 0;

	(void)state;
	m.half_period_ns = 500000;
	m.start_ns = 5000000000ull;
	m.text = (char *)"board.name=sim\n";
	w = edgelog_writer_open(path, &m);
	assert_non_null(w);
	/* A file-size limit makes write() fail like a full disk would. */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 4096;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (i = 0; i < 1000; i++) {
		struct edge_rec e = rec_for(i);

		if (edgelog_writer_append(w, &e, 1) < 0) {
			failed = 1;
			break;
		}
	}
	assert_true(failed);
	assert_int_equal(edgelog_writer_close(w, &ft), -1);
	setrlimit(RLIMIT_FSIZE, &old);

	r = edgelog_reader_open(path, &st, NULL, 0);
	assert_non_null(r);
	n = read_all(r);
	assert_true(n > 0 && n < 1000);
	assert_null(edgelog_reader_footer(r));
	edgelog_reader_close(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_log_reads_back_exactly_what_was_written, make_path, remove_path),
		cmocka_unit_test_setup_teardown(records_are_32_bytes_on_disk, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_log_cut_anywhere_reads_up_to_its_last_complete_record, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_log_without_footer_is_reported_as_truncated, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_foreign_file_is_rejected_with_a_reason, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_newer_format_version_is_refused, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_header_cut_short_or_inconsistent_is_corrupt, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_full_disk_fails_the_writer_and_keeps_what_was_written, make_path, remove_path),
	};

	return cmocka_run_group_tests_name("edgelog", tests, NULL, NULL);
}
