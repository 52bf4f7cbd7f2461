/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the edge log: round trip, events in file order, truncated,
 * foreign and damaged files (footers that lie, zero tails, bit flips), the
 * writer's lock and its keeping of an old log, a full disk. */
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
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "log/edgelog.h"

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
	char p[96];
	int i;

	(void)state;
	unlink(path);
	for (i = 1; i < 10; i++) {
		snprintf(p, sizeof(p), "%s.~%d~", path, i);
		unlink(p);
	}
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

#define TEXT "board.name=sim\nrun.half_period=500us\n"
#define RECORDS_AT 96          /* (56 + strlen(TEXT) + 1) rounded up to 32 */

/* A log of @n records (an event after record @ev_after when it is < n). */
static void write_log_ev(uint64_t n, int footer, uint64_t ev_after)
{
	struct edgelog_meta m = { 0 };
	struct edgelog_footer f = { 0 };
	struct edgelog_writer *w;
	uint64_t i;

	m.clock_id = 1;
	m.half_period_ns = 500000;
	m.start_ns = 5000000000ull;
	m.start_realtime_ns = 1700000000000000000ull;
	m.text = (char *)TEXT;
	unlink(path);
	w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	assert_non_null(w);
	for (i = 0; i < n; i++) {
		struct edge_rec e = rec_for(i);

		assert_int_equal(edgelog_writer_append(w, &e, 1), 0);
		if (i == ev_after)
			assert_int_equal(edgelog_writer_append_event(w, e.intended_ns, EDGELOG_EV_PHASE,
								     "name=idle\nduration=60s\n", 23), 0);
	}
	f.missed_periods = 7;
	f.dropped = 0;
	assert_int_equal(edgelog_writer_close(w, footer ? &f : NULL, NULL, 0), 0);
}

static void write_log(uint64_t n, int footer)
{
	write_log_ev(n, footer, UINT64_MAX);
}

static void poke(off_t off, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, p, n, off), (ssize_t)n);
	close(fd);
}

static void append(const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_APPEND);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, p, n), (ssize_t)n);
	close(fd);
}

/*
 * The log at path rewritten as format @version writes it, its CRCs computed
 * here from docs/log-format.md (not by the writer's code): 3, each over its
 * block with the crc field 0 (the header with its metadata, an event's
 * header with its payload, the footer's first 56 bytes); 2, the payload's
 * only and none elsewhere; 1 as 2 (it has no events). After a test pokes a
 * field, version 3 makes the CRCs match again, so that the check behind the
 * CRC is what the test meets.
 */
static void rewrite_as(uint32_t version)
{
	struct edgelog_fixed_header h;
	unsigned char *d;
	size_t n, off;
	uLong c;
	FILE *f = fopen(path, "r+b");

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = (size_t)ftell(f);
	rewind(f);
	d = malloc(n);
	assert_non_null(d);
	assert_int_equal(fread(d, 1, n, f), n);
	memcpy(&h, d, sizeof(h));
	h.version = version;
	h.crc = 0;
	if (version >= 3) {
		c = crc32(0L, (const Bytef *)&h, sizeof(h));
		h.crc = (uint32_t)crc32(c, d + sizeof(h), h.text_len);
	}
	memcpy(d, &h, sizeof(h));
	for (off = h.records_offset; off + 32 <= n;) {
		uint64_t seq;

		memcpy(&seq, d + off, 8);
		if (seq == EDGELOG_EVENT_MARKER) {
			struct edgelog_event_header e;

			memcpy(&e, d + off, sizeof(e));
			e.crc = 0;
			c = version >= 3 ? crc32(0L, (const Bytef *)&e, sizeof(e)) : 0;
			e.crc = (uint32_t)crc32(c, d + off + 32, e.len);
			memcpy(d + off, &e, sizeof(e));
			off += 32 + (e.len + 31) / 32 * 32;
		} else if (seq == UINT64_MAX && off + 64 <= n) {
			struct edgelog_footer ft;

			memcpy(&ft, d + off, sizeof(ft));
			ft.crc = version >= 3 ? (uint32_t)crc32(0L, d + off, 56) : 0;
			memcpy(d + off, &ft, sizeof(ft));
			off += 64;
		} else {
			off += 32;
		}
	}
	rewind(f);
	assert_int_equal(fwrite(d, 1, n, f), n);
	fclose(f);
	free(d);
}

static off_t size_of(void)
{
	struct stat sb;

	assert_int_equal(stat(path, &sb), 0);
	return sb.st_size;
}

/* Open @path and read every record: the last next() return; *n records. */
static int read_status(uint64_t *n, enum edgelog_status *st, char *err, size_t errlen, bool checked)
{
	struct edgelog_reader *r = edgelog_reader_open(path, st, err, errlen);
	struct edge_rec e;
	int rc;

	*n = 0;
	if (!r)
		return -2;
	edgelog_reader_set_checked(r, checked);
	while ((rc = edgelog_reader_next(r, &e)) == 1)
		(*n)++;
	if (rc < 0)
		snprintf(err, errlen, "%s", edgelog_reader_error(r, st));
	edgelog_reader_close(r);
	return rc;
}

static void expect_corrupt(const char *want)
{
	enum edgelog_status st;
	char err[512] = "";
	uint64_t n;
	int rc = read_status(&n, &st, err, sizeof(err), true);

	if (rc != -1 && rc != -2)
		fail_msg("read %llu records, rc %d: wanted '%s'", (unsigned long long)n, rc, want);
	assert_int_equal(st, EDGELOG_E_CORRUPT);
	if (!strstr(err, want))
		fail_msg("'%s' does not say '%s'", err, want);
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

/* A duty-cycle log: 300 us high, 700 us low from an idle-low line, slot 0
 * at @start (the phase included). Records @n edges, edge @bad_at (if < n)
 * moved by @shift ns or given the wrong level (@shift 0). */
static void write_duty_log(const char *text, uint64_t n, uint64_t bad_at, int64_t shift)
{
	struct edgelog_meta m = { 0 };
	struct edgelog_writer *w;
	struct wave wv = { .high_ns = 300000, .low_ns = 700000 };
	uint64_t i;

	m.clock_id = 1;
	m.half_period_ns = 500000;
	m.start_ns = 5000100000ull;
	m.text = (char *)text;
	unlink(path);
	w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	assert_non_null(w);
	for (i = 0; i < n; i++) {
		struct edge_rec e = rec_for(i);

		e.intended_ns = wave_slot_ns(&wv, 0, m.start_ns, i);
		if (i == bad_at && shift)
			e.intended_ns += (uint64_t)shift;
		else if (i == bad_at)
			e.level ^= 1;
		assert_int_equal(edgelog_writer_append(w, &e, 1), 0);
	}
	assert_int_equal(edgelog_writer_close(w, NULL, NULL, 0), 0);
}

static uint64_t count_all(struct edgelog_reader *r)
{
	struct edge_rec e;
	uint64_t n = 0;

	while (edgelog_reader_next(r, &e) == 1)
		n++;
	return n;
}

#define DUTY_TEXT "gpio.idle_level=0\nwave.high_ns=300000\nwave.low_ns=700000\n" \
		  "wave.phase_ns=100000\n"

static void a_duty_cycle_header_reads_back_and_its_grid_is_checked(void **state)
{
	enum edgelog_status st;
	struct edgelog_reader *r;
	const struct edgelog_meta *m;

	(void)state;
	write_duty_log(DUTY_TEXT, 100, 1000, 0);
	r = edgelog_reader_open(path, &st, NULL, 0);
	assert_non_null(r);
	m = edgelog_reader_meta(r);
	assert_int_equal(m->wave.high_ns, 300000);
	assert_int_equal(m->wave.low_ns, 700000);
	assert_int_equal(m->wave.phase_ns, 100000);
	assert_int_equal(m->idle_level, 0);
	assert_int_equal(count_all(r), 100);	/* every record on its slot */
	edgelog_reader_close(r);

	/* one edge 200 us off its slot (where a 50 % grid has one) */
	write_duty_log(DUTY_TEXT, 100, 40, 200000);
	r = edgelog_reader_open(path, &st, NULL, 0);
	assert_non_null(r);
	assert_int_equal(count_all(r), 40);
	assert_non_null(strstr(edgelog_reader_error(r, &st), "not on the log's grid"));
	assert_int_equal(st, EDGELOG_E_CORRUPT);
	edgelog_reader_close(r);

	/* on a slot, but the other level */
	write_duty_log(DUTY_TEXT, 100, 41, 0);
	r = edgelog_reader_open(path, &st, NULL, 0);
	assert_non_null(r);
	assert_int_equal(count_all(r), 41);
	assert_non_null(strstr(edgelog_reader_error(r, &st), "level 1 in slot 41, which writes 0"));
	edgelog_reader_close(r);
}

static void an_old_header_reads_as_a_50_percent_wave_and_a_wrong_one_is_corrupt(void **state)
{
	enum edgelog_status st;
	struct edgelog_reader *r;
	const struct edgelog_meta *m;
	char err[256];

	(void)state;
	write_log(10, 1);	/* no wave keys */
	r = edgelog_reader_open(path, &st, NULL, 0);
	assert_non_null(r);
	m = edgelog_reader_meta(r);
	assert_int_equal(m->wave.high_ns, 500000);
	assert_int_equal(m->wave.low_ns, 500000);
	assert_int_equal(m->wave.phase_ns, 0);
	edgelog_reader_close(r);
	/* high + low not twice the half period */
	write_duty_log("wave.high_ns=300000\nwave.low_ns=600000\n", 4, 100, 0);
	r = edgelog_reader_open(path, &st, err, sizeof(err));
	assert_null(r);
	assert_int_equal(st, EDGELOG_E_CORRUPT);
	assert_non_null(strstr(err, "the wave's high 300000, low 600000"));
}

#define PIN_DUTY "pin.kind=wave\npin.line=0\npin.idle_level=0\npin.high_ns=300000\n" \
		 "pin.low_ns=700000\npin.phase_ns=100000\npin.grid=monotonic\n" \
		 "pin.grid_align_ns=0\npin.nominal_pos_ns=300000\npin.nominal_neg_ns=700000\n"

/* The pin description reads back into the meta; one that contradicts the
 * wave.* keys or run.mode is a corrupt header. */
static void the_pin_reads_back_and_one_that_contradicts_the_header_is_corrupt(void **state)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "gpio.idle_level=0\nwave.high_ns=700000\nwave.low_ns=300000\n"
		  "wave.phase_ns=100000\n" PIN_DUTY, "the pin's wave and wave.* disagree" },
		{ DUTY_TEXT "run.mode=respond\n" PIN_DUTY, "pin.kind and run.mode disagree" },
	};
	enum edgelog_status st;
	struct edgelog_reader *r;
	char err[256];
	size_t i;

	(void)state;
	write_duty_log(DUTY_TEXT PIN_DUTY, 10, 1000, 0);
	r = edgelog_reader_open(path, &st, err, sizeof(err));
	if (!r)
		fail_msg("%s", err);
	assert_int_equal(edgelog_reader_meta(r)->pin.kind, PIN_WAVE);
	assert_int_equal(edgelog_reader_meta(r)->pin.nominal_ns[PIN_POS], 300000);
	assert_int_equal(edgelog_reader_meta(r)->pin.nominal_ns[PIN_NEG], 700000);
	edgelog_reader_close(r);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_duty_log(bad[i].text, 4, 100, 0);
		r = edgelog_reader_open(path, &st, err, sizeof(err));
		assert_null(r);
		assert_int_equal(st, EDGELOG_E_CORRUPT);
		if (!strstr(err, bad[i].why))
			fail_msg("said \"%s\", not \"%s\"", err, bad[i].why);
	}
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

	/* a run killed before its header: said as what it is */
	f = fopen(path, "w");
	fclose(f);
	assert_null(edgelog_reader_open(path, &st, err, sizeof(err)));
	assert_int_equal(st, EDGELOG_E_FOREIGN);
	assert_non_null(strstr(err, "empty file: no header"));
	f = fopen(path, "w");
	fwrite(EDGELOG_MAGIC, 1, 3, f);
	fclose(f);
	assert_null(edgelog_reader_open(path, &st, err, sizeof(err)));
	assert_non_null(strstr(err, "cut short inside its header"));
	f = fopen(path, "w");
	fputs("SQW", f);	/* not the magic's first bytes */
	fputc('X', f);
	fclose(f);
	assert_null(edgelog_reader_open(path, &st, err, sizeof(err)));
	assert_non_null(strstr(err, "not a sqwave log"));
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
	char why[600], err[600];

	(void)state;
	m.half_period_ns = 500000;
	m.start_ns = 5000000000ull;
	m.text = (char *)"board.name=sim\n";
	w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
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
	/* the failure is told to the caller, not printed (one error contract) */
	snprintf(why, sizeof(why), "writing log %s failed after %llu records: %s", path,
		 (unsigned long long)i, strerror(EFBIG));
	assert_string_equal(edgelog_writer_error(w), why);
	assert_int_equal(edgelog_writer_close(w, &ft, err, sizeof(err)), -1);
	assert_int_equal(errno, EFBIG);
	assert_string_equal(err, why);
	setrlimit(RLIMIT_FSIZE, &old);

	r = edgelog_reader_open(path, &st, NULL, 0);
	assert_non_null(r);
	n = read_all(r);
	assert_true(n > 0 && n < 1000);
	assert_null(edgelog_reader_footer(r));
	edgelog_reader_close(r);
}


static void events_come_back_in_file_order_and_next_skips_them(void **state)
{
	enum edgelog_status st;
	struct edgelog_reader *r;
	struct edgelog_event ev;
	struct edge_rec e;
	char order[32] = "", buf[32];
	size_t k = 0;
	int rc;

	(void)state;
	write_log_ev(5, 1, 2);
	r = edgelog_reader_open(path, &st, NULL, 0);
	assert_non_null(r);
	while ((rc = edgelog_reader_next_item(r, &e, &ev)) > 0) {
		order[k++] = rc == 1 ? 'r' : 'e';
		if (rc == 2) {
			assert_int_equal(ev.type, EDGELOG_EV_PHASE);
			assert_int_equal(ev.time_ns, rec_for(2).intended_ns);
			assert_int_equal(ev.len, 23);
			assert_string_equal((const char *)ev.payload, "name=idle\nduration=60s\n");
			assert_string_equal(edgelog_event_get(&ev, "duration", buf, sizeof(buf)), "60s");
			assert_string_equal(edgelog_event_get(&ev, "name", buf, sizeof(buf)), "idle");
			assert_null(edgelog_event_get(&ev, "dur", buf, sizeof(buf)));
		}
	}
	assert_int_equal(rc, 0);
	assert_string_equal(order, "rrrerr");
	assert_int_equal(edgelog_reader_events(r, 0), 1);
	assert_int_equal(edgelog_reader_events(r, EDGELOG_EV_PHASE), 1);
	assert_non_null(edgelog_reader_footer(r));
	edgelog_reader_close(r);

	r = edgelog_reader_open(path, &st, NULL, 0);
	assert_int_equal(read_all(r), 5);
	assert_non_null(edgelog_reader_footer(r));
	edgelog_reader_close(r);
}

static void a_damaged_event_is_corrupt(void **state)
{
	/* the event header after record 2: RECORDS_AT + 3 x 32 */
	const off_t ev = RECORDS_AT + 3 * 32;
	static const struct {
		off_t off;
		uint32_t v;
		size_t n;
		const char *want;
	} bad[] = {
		{ 16, 0, 2, "type 0" },                  /* type */
		{ 16, 99, 2, "type 99" },
		{ 18, 1, 2, "reserved 1/0" },             /* reserved0 */
		{ 28, 5, 4, "reserved 0/5" },             /* reserved1 */
		{ 20, 70000, 4, "length 70000" },         /* len over the maximum */
		{ 24, 12345, 4, "does not match its CRC" },
		{ 32, 'N', 1, "does not match its CRC" }, /* a payload byte */
		{ 60, 1, 1, "does not match its CRC or padding" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_log_ev(5, 1, 2);
		poke(ev + bad[i].off, &bad[i].v, bad[i].n);
		expect_corrupt(bad[i].want);
	}
}

/* Format 3: a bit flipped in an event's time or type (a proof sample moved
 * into another phase), in the header or its metadata, or in the footer's
 * counts is corrupt; format 2 logs, whose CRC covered the payload only,
 * still read, events and all. */
static void a_flipped_bit_outside_a_payload_is_corrupt_from_format_3(void **state)
{
	const off_t ev = RECORDS_AT + 3 * 32;
	static const struct {
		off_t off;          /* < 0: from the end of the file */
		unsigned char bit;
		const char *want;
	} flips[] = {
		{ RECORDS_AT + 3 * 32 + 8 + 5, 0x10, "(phase, 23 bytes): its header or payload does not match its CRC" },
		{ RECORDS_AT + 3 * 32 + 16, 0x02, "(sample, 23 bytes): its header or payload does not match its CRC" },
		{ 40 + 2, 0x01, "the header or its metadata does not match its CRC" },  /* start_ns */
		{ 48 + 7, 0x01, "the header or its metadata does not match its CRC" },  /* start_realtime_ns */
		{ 24, 0x02, "the header or its metadata does not match its CRC" },      /* clock_id */
		{ 56 + 3, 0x20, "the header or its metadata does not match its CRC" },  /* the text */
		{ -64 + 32, 0x01, "the footer at offset" },                              /* missed periods */
		{ -64 + 48, 0x01, "the footer at offset" },                              /* exit code */
	};
	enum edgelog_status st;
	struct edgelog_reader *r;
	struct edgelog_event e;
	struct edge_rec rec;
	unsigned char b;
	size_t i;
	int rc, events = 0;

	(void)state;
	for (i = 0; i < sizeof(flips) / sizeof(flips[0]); i++) {
		off_t at;
		int fd;

		write_log_ev(5, 1, 2);
		at = flips[i].off < 0 ? size_of() + flips[i].off : flips[i].off;
		fd = open(path, O_RDWR);
		assert_int_equal(pread(fd, &b, 1, at), 1);
		b ^= flips[i].bit;
		assert_int_equal(pwrite(fd, &b, 1, at), 1);
		close(fd);
		expect_corrupt(flips[i].want);
	}

	/* the same log as format 2 writes it reads, event and footer */
	write_log_ev(5, 1, 2);
	rewrite_as(2);
	r = edgelog_reader_open(path, &st, NULL, 0);
	assert_non_null(r);
	assert_int_equal(edgelog_reader_meta(r)->version, 2);
	while ((rc = edgelog_reader_next_item(r, &rec, &e)) > 0)
		events += rc == 2;
	assert_int_equal(rc, 0);
	assert_int_equal(events, 1);
	assert_non_null(edgelog_reader_footer(r));
	edgelog_reader_close(r);
	/* and its event's time is outside its CRC, as format 2 defined it */
	b = 0x10;
	poke(ev + 8 + 5, &b, 1);
	r = edgelog_reader_open(path, &st, NULL, 0);
	assert_non_null(r);
	while ((rc = edgelog_reader_next_item(r, &rec, &e)) > 0)
		;
	assert_int_equal(rc, 0);
	edgelog_reader_close(r);
	/* a format-2 header with something in format 3's CRC field is corrupt */
	write_log(3, 1);
	rewrite_as(2);
	b = 1;
	poke(28, &b, 1);
	expect_corrupt("inconsistent sizes");
}

static void an_event_in_a_version_1_log_is_corrupt_and_version_1_still_reads(void **state)
{
	uint32_t v1 = 1;
	enum edgelog_status st;
	struct edgelog_reader *r;

	(void)state;
	write_log_ev(5, 1, 2);
	rewrite_as(v1);
	expect_corrupt("format 1 log");
	write_log(5, 1);
	rewrite_as(v1);
	r = edgelog_reader_open(path, &st, NULL, 0);
	assert_non_null(r);
	assert_int_equal(edgelog_reader_meta(r)->version, 1);
	assert_int_equal(read_all(r), 5);
	assert_non_null(edgelog_reader_footer(r));
	edgelog_reader_close(r);
}

static void a_footer_that_lies_or_is_not_last_is_corrupt(void **state)
{
	struct edge_rec more = rec_for(10);
	uint64_t lie = 10000;
	char junk[32];

	(void)state;
	write_log(10, 1);
	poke(size_of() - 64 + 16, &lie, 8);       /* records written */
	expect_corrupt("the footer at offset 416 does not match its CRC");
	rewrite_as(3);
	expect_corrupt("the footer says 10000 records but the log holds 10");

	write_log(10, 1);
	memset(junk, 0x5a, sizeof(junk));
	append(junk, 5);
	expect_corrupt("data after the footer");

	write_log(10, 1);                         /* a footer, then more records */
	append(&more, sizeof(more));
	expect_corrupt("data after the footer");

	write_log(10, 1);                         /* a footer with a bad stop reason */
	lie = 77;
	poke(size_of() - 64 + 52, &lie, 4);
	expect_corrupt("stop reason 77");

	write_log(10, 1);                         /* format 2: no footer CRC */
	rewrite_as(2);
	lie = 1;
	poke(size_of() - 64 + 56, &lie, 4);
	expect_corrupt("reserved 1");
}

static void zeros_at_the_end_are_a_log_cut_short_not_records(void **state)
{
	static const size_t tails[] = { 4096, 100, 32, 7 };
	static char zeros[4096];
	enum edgelog_status st;
	struct edgelog_reader *r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		write_log(10, 0);
		append(zeros, tails[i]);
		r = edgelog_reader_open(path, &st, NULL, 0);
		assert_non_null(r);
		assert_int_equal(read_all(r), 10);
		assert_null(edgelog_reader_footer(r));
		assert_int_equal(edgelog_reader_zero_bytes(r), tails[i]);
		edgelog_reader_close(r);
	}
	/* zeros from the first record on: a log of no records, cut short */
	write_log(0, 0);
	append(zeros, 4096);
	r = edgelog_reader_open(path, &st, NULL, 0);
	assert_non_null(r);
	assert_int_equal(read_all(r), 0);
	assert_int_equal(edgelog_reader_zero_bytes(r), 4096);
	edgelog_reader_close(r);
}

static void zeros_followed_by_data_are_corrupt(void **state)
{
	static char zeros[4096];
	struct edge_rec more = rec_for(10);

	(void)state;
	write_log(10, 0);
	append(zeros, sizeof(zeros));
	append(&more, sizeof(more));
	expect_corrupt("zero bytes at offset 416");
}

static void a_records_offset_with_any_bit_flipped_is_corrupt(void **state)
{
	enum edgelog_status st;
	char err[256];
	uint32_t off;
	int bit;

	(void)state;
	for (bit = 0; bit < 32; bit++) {
		write_log(10, 1);
		off = RECORDS_AT ^ (1u << bit);
		poke(16, &off, 4);
		if (edgelog_reader_open(path, &st, err, sizeof(err)))
			fail_msg("records_offset %u (bit %d flipped) was accepted", off, bit);
		assert_int_equal(st, EDGELOG_E_CORRUPT);
	}
}

/* Every single-bit flip of the header and the first records: the log is
 * refused, or read with all its records. Never fewer records with success. */
static void no_bit_flip_of_the_header_gives_a_wrong_count(void **state)
{
	static unsigned char orig[RECORDS_AT + 64];
	enum edgelog_status st;
	char err[512];
	uint64_t n;
	size_t byte;
	int bit, rc, fd;

	(void)state;
	write_log(10, 1);
	fd = open(path, O_RDONLY);
	assert_int_equal(read(fd, orig, sizeof(orig)), (ssize_t)sizeof(orig));
	close(fd);
	for (byte = 0; byte < sizeof(orig); byte++) {
		for (bit = 0; bit < 8; bit++) {
			unsigned char b = (unsigned char)(orig[byte] ^ (1u << bit));

			poke((off_t)byte, &b, 1);
			rc = read_status(&n, &st, err, sizeof(err), true);
			if (rc == 0 && n != 10)
				fail_msg("byte %zu bit %d: %llu records with success", byte, bit,
					 (unsigned long long)n);
			poke((off_t)byte, &orig[byte], 1);
		}
	}
}

static void a_bad_record_is_named_and_unchecked_reads_it_anyway(void **state)
{
	enum edgelog_status st;
	uint8_t level = 5;
	char err[256];
	uint64_t n;

	(void)state;
	write_log(10, 1);
	poke(RECORDS_AT + 3 * 32 + 30, &level, 1);
	expect_corrupt("record 3 (offset 192): level 5");
	assert_int_equal(read_status(&n, &st, err, sizeof(err), false), 0);
	assert_int_equal(n, 10);
}

static void a_batch_reads_what_next_reads(void **state)
{
	enum edgelog_status st;
	struct edgelog_reader *a, *b;
	const struct edge_rec *recs;
	struct edge_rec e;
	long k, i;
	uint64_t n = 0;

	(void)state;
	write_log_ev(3000, 1, 1500);
	a = edgelog_reader_open(path, &st, NULL, 0);
	b = edgelog_reader_open(path, &st, NULL, 0);
	assert_non_null(a);
	assert_non_null(b);
	while ((k = edgelog_reader_next_batch(a, &recs, 700)) > 0) {
		assert_true(k <= 700);
		for (i = 0; i < k; i++, n++) {
			assert_int_equal(edgelog_reader_next(b, &e), 1);
			assert_memory_equal(&recs[i], &e, sizeof(e));
		}
	}
	assert_int_equal(k, 0);
	assert_int_equal(n, 3000);
	assert_int_equal(edgelog_reader_next(b, &e), 0);
	assert_non_null(edgelog_reader_footer(a));
	edgelog_reader_close(a);
	edgelog_reader_close(b);
}

static void a_second_writer_of_the_same_log_is_refused_naming_the_first(void **state)
{
	struct edgelog_meta m = { .half_period_ns = 500000, .start_ns = 5000000000ull, .text = (char *)TEXT };
	struct edgelog_writer *w;
	char want[64];
	pid_t child;
	int status;

	(void)state;
	w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	assert_non_null(w);
	snprintf(want, sizeof(want), "(pid %ld)", (long)getpid());
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		char err[512], kept[256];
		struct edgelog_writer *w2 = edgelog_writer_create(path, &m, kept, sizeof(kept), err,
								  sizeof(err));

		_exit(!w2 && errno == EBUSY && strstr(err, want) && !kept[0] ? 0 : 1);
	}
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* the first one's log is intact: only its header so far */
	assert_int_equal(size_of(), RECORDS_AT);
	assert_int_equal(edgelog_writer_close(w, NULL, NULL, 0), 0);
}

static void an_existing_log_is_kept_aside_never_truncated(void **state)
{
	struct edgelog_meta m = { .half_period_ns = 500000, .start_ns = 5000000000ull, .text = (char *)TEXT };
	struct edgelog_writer *w;
	char kept[256], err[256], want[96];
	struct stat sb;
	int i;

	(void)state;
	write_log(7, 1);
	for (i = 1; i <= 2; i++) {
		w = edgelog_writer_create(path, &m, kept, sizeof(kept), err, sizeof(err));
		assert_non_null(w);
		snprintf(want, sizeof(want), "%s.~%d~", path, i);
		assert_string_equal(kept, want);
		assert_int_equal(edgelog_writer_close(w, NULL, NULL, 0), 0);
	}
	snprintf(want, sizeof(want), "%s.~1~", path);
	assert_int_equal(stat(want, &sb), 0);
	assert_int_equal(sb.st_size, RECORDS_AT + 7 * 32 + 64);
	/* an empty file is simply used */
	assert_int_equal(truncate(path, 0), 0);
	w = edgelog_writer_create(path, &m, kept, sizeof(kept), err, sizeof(err));
	assert_non_null(w);
	assert_string_equal(kept, "");
	assert_int_equal(edgelog_writer_close(w, NULL, NULL, 0), 0);
}

/* Reserving changes nothing: an old log stays as it is until the start
 * keeps it aside, a missing one is made empty and abandoning removes it,
 * and a log another process writes is refused at the reservation. */
static void a_reserved_log_changes_nothing_until_it_starts(void **state)
{
	struct edgelog_meta m = { .half_period_ns = 500000, .start_ns = 5000000000ull, .text = (char *)TEXT };
	struct edgelog_writer *w, *held;
	char kept[256], err[256], want[96];
	struct stat a, b;
	pid_t child;
	int status;

	(void)state;
	write_log(7, 1);
	assert_int_equal(stat(path, &a), 0);
	w = edgelog_writer_reserve(path, err, sizeof(err));
	assert_non_null(w);
	edgelog_writer_abandon(w);
	assert_int_equal(stat(path, &b), 0);
	assert_int_equal(b.st_size, a.st_size);
	assert_int_equal(b.st_ino, a.st_ino);
	snprintf(want, sizeof(want), "%s.~1~", path);
	assert_int_equal(access(want, F_OK), -1);
	/* started: the old one kept aside, the header written */
	w = edgelog_writer_reserve(path, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(edgelog_writer_start(w, &m, kept, sizeof(kept), err, sizeof(err)), 0);
	assert_string_equal(kept, want);
	assert_int_equal(edgelog_writer_close(w, NULL, NULL, 0), 0);
	assert_int_equal(size_of(), RECORDS_AT);
	unlink(want);
	/* a name not there: made empty, and gone again when abandoned */
	unlink(path);
	w = edgelog_writer_reserve(path, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(size_of(), 0);
	edgelog_writer_abandon(w);
	assert_int_equal(access(path, F_OK), -1);
	/* held by another process: refused when reserved, the file untouched */
	held = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	assert_non_null(held);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		struct edgelog_writer *w2 = edgelog_writer_reserve(path, err, sizeof(err));
		int ok = !w2 && errno == EBUSY && strstr(err, "another process");

		/* the parent's writer, copied by fork(): freed here too, so that
		 * a leak check of this child (make valgrind) finds nothing. Its
		 * fd closed here holds no lock of this process's, and the file
		 * (not empty) stays */
		edgelog_writer_abandon(held);
		_exit(ok ? 0 : 1);
	}
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(size_of(), RECORDS_AT);
	assert_int_equal(edgelog_writer_close(held, NULL, NULL, 0), 0);
}

static void a_fifo_is_refused_at_once(void **state)
{
	struct edgelog_meta m = { .half_period_ns = 500000, .text = (char *)TEXT };
	char err[256];

	(void)state;
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(10);	/* a blocking open() would hang here: fail instead */
	assert_null(edgelog_writer_create(path, &m, NULL, 0, err, sizeof(err)));
	alarm(0);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err, "FIFO"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_duty_cycle_header_reads_back_and_its_grid_is_checked,
						make_path, remove_path),
		cmocka_unit_test_setup_teardown(
			an_old_header_reads_as_a_50_percent_wave_and_a_wrong_one_is_corrupt,
			make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_log_reads_back_exactly_what_was_written, make_path, remove_path),
		cmocka_unit_test_setup_teardown(the_pin_reads_back_and_one_that_contradicts_the_header_is_corrupt,
						make_path, remove_path),
		cmocka_unit_test_setup_teardown(records_are_32_bytes_on_disk, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_log_cut_anywhere_reads_up_to_its_last_complete_record, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_log_without_footer_is_reported_as_truncated, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_foreign_file_is_rejected_with_a_reason, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_newer_format_version_is_refused, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_header_cut_short_or_inconsistent_is_corrupt, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_full_disk_fails_the_writer_and_keeps_what_was_written, make_path, remove_path),
		cmocka_unit_test_setup_teardown(events_come_back_in_file_order_and_next_skips_them, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_damaged_event_is_corrupt, make_path, remove_path),
		cmocka_unit_test_setup_teardown(an_event_in_a_version_1_log_is_corrupt_and_version_1_still_reads, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_flipped_bit_outside_a_payload_is_corrupt_from_format_3, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_footer_that_lies_or_is_not_last_is_corrupt, make_path, remove_path),
		cmocka_unit_test_setup_teardown(zeros_at_the_end_are_a_log_cut_short_not_records, make_path, remove_path),
		cmocka_unit_test_setup_teardown(zeros_followed_by_data_are_corrupt, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_records_offset_with_any_bit_flipped_is_corrupt, make_path, remove_path),
		cmocka_unit_test_setup_teardown(no_bit_flip_of_the_header_gives_a_wrong_count, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_bad_record_is_named_and_unchecked_reads_it_anyway, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_batch_reads_what_next_reads, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_second_writer_of_the_same_log_is_refused_naming_the_first, make_path, remove_path),
		cmocka_unit_test_setup_teardown(an_existing_log_is_kept_aside_never_truncated, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_reserved_log_changes_nothing_until_it_starts,
						make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_fifo_is_refused_at_once, make_path, remove_path),
	};

	return cmocka_run_group_tests_name("edgelog", tests, NULL, NULL);
}
