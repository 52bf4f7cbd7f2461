/* SPDX-License-Identifier: GPL-2.0-or-later */
/* edgelist: sniffing, quoted files, the export's own header read back, the
 * shared validation with the right line (also for rows read ahead), and
 * measured times too far from the intended ones refused, not clamped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log/edgelist.h"
#include "stats/edgestats.h"

static char dir[] = "/tmp/sqwave-test-edgelist.XXXXXX";
static char path[300];

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/edges.csv", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return rmdir(dir);
}

static void put(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Read @text: the number of edges, or -1 with the reason in @err. */
static int read_text(const char *text, struct edge_rec *out, int max, char *err, size_t len,
		     enum edgelist_status *st)
{
	struct edgelist *l;
	struct edge_rec e;
	int n = 0, rc;

	put(text);
	l = edgelist_open(path, 0, st, err, len);
	if (!l)
		return -1;
	while ((rc = edgelist_next(l, &e)) == 1)
		if (n < max)
			out[n++] = e;
	if (rc < 0)
		snprintf(err, len, "%s", edgelist_error(l, st));
	edgelist_close(l);
	return rc < 0 ? -1 : n;
}

static void files_are_sniffed_by_their_first_line(void **state)
{
	static const struct {
		const char *head;
		enum edgelist_sniff want;
	} cases[] = {
		{ "SQWAVLOG\x02", EDGELIST_SNIFF_LOG },
		{ "seq,level,measured_ns\n", EDGELIST_SNIFF_CSV },
		{ "\"seq\",\"level\",\"measured_ns\"\n", EDGELIST_SNIFF_CSV },
		{ "\xef\xbb\xbf# comment\n\n  SEQ;level;measured_s\n", EDGELIST_SNIFF_CSV },
		{ "sequence,level\n", EDGELIST_SNIFF_OTHER },
		{ "$timescale 1ns $end\n", EDGELIST_SNIFF_OTHER },
		{ "", EDGELIST_SNIFF_OTHER },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(edgelist_sniff(cases[i].head, strlen(cases[i].head)), cases[i].want);
}

static void an_edge_list_with_every_field_quoted_reads(void **state)
{
	struct edge_rec e[4];
	enum edgelist_status st;
	char err[512];

	(void)state;
	assert_int_equal(read_text("\"seq\",\"level\",\"intended_ns\",\"measured_ns\"\n"
				   "\"0\",\"1\",\"1000000\",\"1000100\"\n"
				   "\"1\",\"0\",\"1500000\",\"1500300\"\n", e, 4, err, sizeof(err), &st), 2);
	assert_int_equal(e[1].intended_ns, 1500000);
	assert_int_equal(e[1].wake_off_ns, 300);
	assert_int_equal(e[1].level, 0);
	/* the header decides the separator, not a comment with commas in it */
	assert_int_equal(read_text("\xef\xbb\xbf# a comment, with commas\r\n"
				   "\"seq\";\"level\";\"measured_ns\"\r\n\"0\";\"1\";\"7\"\r\n",
				   e, 4, err, sizeof(err), &st), 1);
	assert_int_equal(e[0].intended_ns, 7);
}

static void the_export_header_is_what_the_reader_reads(void **state)
{
	char text[512];
	struct edge_rec e[2];
	enum edgelist_status st;
	char err[512];
	struct edgelist *l;

	(void)state;
	snprintf(text, sizeof(text), "%s0,1,1000000,1005000,1005200,1006000,1,0\n"
		 "1,0,1500000,1505000,1505200,1506000,1,0\n", edgelist_export_header);
	assert_int_equal(read_text(text, e, 2, err, sizeof(err), &st), 2);
	assert_int_equal(e[1].write_end_off_ns, 6000);
	put(text);
	l = edgelist_open(path, 0, &st, err, sizeof(err));
	assert_non_null(l);
	assert_string_equal(edgelist_info(l)->format, "sqwave-export-csv");
	assert_true(edgelist_info(l)->has_window);
	assert_int_equal(edgelist_info(l)->half_period_ns, 500000);
	edgelist_close(l);
}

/* A loopback log's export: the same edges, its three columns more ignored,
 * empty cells (no event) included; a column given twice still refused. */
static void the_loopback_export_header_reads_the_same_edges(void **state)
{
	char text[768];
	struct edge_rec e[2];
	enum edgelist_status st;
	char err[512];

	(void)state;
	snprintf(text, sizeof(text), "%s0,1,1000000,1005000,1005200,1006000,1,0,1009000,3800,3000\n"
		 "1,0,1500000,1505000,1505200,1506000,1,0,,,\n", edgelist_export_header_loopback);
	assert_int_equal(read_text(text, e, 2, err, sizeof(err), &st), 2);
	assert_int_equal(e[0].write_begin_off_ns, 5200);
	assert_int_equal(e[1].write_end_off_ns, 6000);
	assert_int_equal(e[1].level, 0);
	assert_int_equal(strncmp(edgelist_export_header_loopback, edgelist_export_header,
				 strlen(edgelist_export_header) - 1), 0);
	assert_int_equal(read_text("seq,level,measured_ns,loopback_ns,loopback_ns\n0,1,5,6,6\n",
				   e, 2, err, sizeof(err), &st), -1);
	assert_non_null(strstr(err, "given twice"));
}

static void a_measured_time_more_than_2_1_s_off_is_refused_not_clamped(void **state)
{
	struct edge_rec e[2];
	enum edgelist_status st;
	char err[512];

	(void)state;
	assert_int_equal(read_text("seq,level,intended_ns,measured_ns\n0,1,1000000000,3200000000\n",
				   e, 2, err, sizeof(err), &st), -1);
	assert_int_equal(st, EDGELIST_E_INPUT);
	assert_non_null(strstr(err, "edges.csv:2: the wake-up is 2.200 s from the intended time"));
	assert_int_equal(read_text("seq,level,intended_ns,measured_ns\n0,1,9223372036854775807,"
				   "-9223372036854775807\n", e, 2, err, sizeof(err), &st), -1);
	assert_non_null(strstr(err, ":2: the wake-up"));
	/* 2.1 s late is still a record */
	assert_int_equal(read_text("seq,level,intended_ns,measured_ns\n0,1,1000000000,3100000000\n",
				   e, 2, err, sizeof(err), &st), 1);
	assert_int_equal(e[0].wake_off_ns, 2100000000);
}

static void a_bad_row_after_the_read_ahead_and_inside_it_names_its_line(void **state)
{
	char *text = malloc(1 << 16), *p = text;
	struct edge_rec e[1];
	enum edgelist_status st;
	char err[512];
	int i;

	(void)state;
	assert_non_null(text);
	p += sprintf(p, "seq,level,intended_ns,measured_ns\n# a comment\n");
	for (i = 0; i < 100; i++)	/* line 3 + i */
		p += sprintf(p, "%d,%d,%d,%d\n", i, (i + 1) % 2, 1000000 + i * 500000,
			     1000100 + i * 500000 - (i == 80 ? 600000 : 0) - (i == 20 ? 800000 : 0));
	assert_int_equal(read_text(text, e, 1, err, sizeof(err), &st), -1);
	/* row 20 (line 23) was read ahead; its measured time goes back past row 19's */
	assert_non_null(strstr(err, "edges.csv:23: measured time goes backwards"));
	free(text);
}

static void a_stall_in_an_edge_list_counts_in_full(void **state)
{
	struct edge_rec e[4];
	enum edgelist_status st;
	struct edgestats *s;
	char err[512];
	int i, n;

	(void)state;
	/* the third edge 100,000 half periods after the second */
	n = read_text("seq,level,intended_ns,measured_ns\n0,1,0,10\n1,0,500,510\n"
		      "2,1,50000500,50000510\n3,0,50001000,50001010\n", e, 4, err, sizeof(err), &st);
	assert_int_equal(n, 4);
	assert_int_equal(e[2].expirations, UINT16_MAX);
	s = edgestats_new(500);
	assert_non_null(s);
	for (i = 0; i < n; i++)
		edgestats_add(s, &e[i]);
	assert_int_equal(edgestats_result(s)->missed_periods, 99999);
	edgestats_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(files_are_sniffed_by_their_first_line),
		cmocka_unit_test(an_edge_list_with_every_field_quoted_reads),
		cmocka_unit_test(the_export_header_is_what_the_reader_reads),
		cmocka_unit_test(the_loopback_export_header_reads_the_same_edges),
		cmocka_unit_test(a_measured_time_more_than_2_1_s_off_is_refused_not_clamped),
		cmocka_unit_test(a_bad_row_after_the_read_ahead_and_inside_it_names_its_line),
		cmocka_unit_test(a_stall_in_an_edge_list_counts_in_full),
	};

	return cmocka_run_group_tests_name("edgelist", tests, setup, teardown);
}
