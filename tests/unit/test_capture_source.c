/* SPDX-License-Identifier: GPL-2.0-or-later */
/* capture_source: a capture read as analyze's registered kind gives every
 * edge the importer gives, at its time from the capture's start, skips a
 * seq after a gap, and the analysis documents describe it as the capture
 * says (held against the importer's own reading of the same file). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats/analyze.h"
#include "base/jsonread.h"
#include "capture/capture.h"
#include "cmd/sources.h"
#include "summary/analysisdoc.h"

static char tmpdir[] = "/tmp/sqwave-test-capture-source.XXXXXX";

/* Starts at 100.4 ns (a start that rounds), an unknown stretch after the
 * second edge, ends at 3000.6 ns (rounding the span is not rounding its ends). */
static const char vcd[] =
	"$timescale 100ps $end\n$scope module top $end\n$var wire 1 ! sig $end\n"
	"$upscope $end\n$enddefinitions $end\n#1004\n0!\n#6000\n1!\n#11006\n0!\n#16000\nx!\n"
	"#21000\n1!\n#26004\n0!\n#28000\n1!\n#30006\n";

static const char *vcd_path(void)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/gap.vcd", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(vcd, f);
	assert_int_equal(fclose(f), 0);
	return path;
}

static void every_capture_edge_is_a_record_at_its_time_from_the_start(void **state)
{
	const char *path = vcd_path();
	char err[256];
	struct capture *c = capture_open(path, NULL, err, sizeof(err));
	const struct capture_info *ci;
	const struct analyze_source_info *si;
	struct analyze_source *s;
	enum analyze_status st;
	struct capture_edge ce;
	struct edge_rec e;
	uint64_t seq = 0, gaps = 0, n = 0;
	int64_t start_ns;

	(void)state;
	assert_non_null(c);
	ci = capture_info(c);
	start_ns = capture_ps_round_ns(ci->start_ps);
	s = analyze_source_open(path, NULL, &st, err, sizeof(err));
	assert_non_null(s);
	si = analyze_source_info(s);
	assert_int_equal(si->kind, ANALYZE_SRC_REGISTERED);
	assert_string_equal(si->kind_ops->name, "capture");
	assert_string_equal(si->format, ci->format);
	assert_int_equal(si->origin_ns, start_ns);
	/* the window: whole ns outwards of where the line may have changed */
	assert_true(si->edge_lo_ns * CAPTURE_PS_PER_NS <= ci->edge_lo_ps);
	assert_true((si->edge_lo_ns + 1) * CAPTURE_PS_PER_NS > ci->edge_lo_ps);
	assert_true(si->edge_hi_ns * CAPTURE_PS_PER_NS >= ci->edge_hi_ps);
	while (capture_next_edge(c, &ce) == 1) {
		assert_int_equal(analyze_source_next(s, &e), 1);
		if ((ce.flags & CAPTURE_EDGE_F_AFTER_GAP) && n) {
			seq++;
			gaps++;
		}
		assert_int_equal(e.seq, seq++);
		assert_int_equal((int64_t)e.intended_ns, capture_ps_round_ns(ce.t_ps) - start_ns);
		assert_int_equal(e.level, ce.level);
		assert_int_equal(e.wake_off_ns, si->edge_lo_ns);
		assert_int_equal(e.write_begin_off_ns, si->edge_lo_ns);
		assert_int_equal(e.write_end_off_ns, si->edge_hi_ns);
		n++;
	}
	assert_int_equal(analyze_source_next(s, &e), 0);
	assert_true(n >= 4);
	assert_int_equal(gaps, 1);	/* the file has one, or this test tests nothing */
	assert_true(si->has_end);
	assert_int_equal(si->end_ns, capture_ps_round_ns(ci->end_ps - ci->start_ps));
	assert_int_equal(si->gaps, gaps);
	analyze_source_close(s);
	capture_close(c);
}

/* The analysis document's source.capture and counts, as the capture says. */
static void the_document_describes_the_capture_as_the_importer_reads_it(void **state)
{
	const char *path = vcd_path();
	char err[256], *json = NULL;
	size_t len = 0;
	struct capture *c = capture_open(path, NULL, err, sizeof(err));
	const struct capture_info *ci;
	enum analyze_status st;
	struct capture_edge ce;
	int64_t last_ps = 0;
	struct jv *doc;
	FILE *f;

	(void)state;
	assert_non_null(c);
	ci = capture_info(c);
	while (capture_next_edge(c, &ce) == 1)
		last_ps = ce.t_ps;
	f = open_memstream(&json, &len);
	assert_non_null(f);
	assert_int_equal(analysisdoc_json_of(path, f, &st, err, sizeof(err)), 0);
	assert_int_equal(fclose(f), 0);
	doc = jsonread_parse(json, len, err, sizeof(err));
	assert_non_null(doc);
	assert_string_equal(jv_str(jv_path(doc, "source.kind"), ""), "capture");
	assert_string_equal(jv_str(jv_path(doc, "source.capture.channel"), ""), ci->channel_name);
	assert_int_equal(jv_int(jv_path(doc, "source.capture.start_ps"), -1), ci->start_ps);
	assert_int_equal(jv_int(jv_path(doc, "source.capture.end_ps"), -1), ci->end_ps);
	assert_int_equal(jv_int(jv_path(doc, "source.capture.start_ns"), -1),
			 capture_ps_round_ns(ci->start_ps));
	assert_int_equal(jv_int(jv_path(doc, "source.capture.gaps"), -1), 1);
	assert_int_equal(jv_int(jv_path(doc, "counts.gap_events"), -1), 1);
	assert_int_equal(jv_int(jv_path(doc, "counts.seq_gaps"), -1), 0);
	assert_int_equal(jv_int(jv_path(doc, "partial.tail.duration_ns"), -1),
			 capture_ps_round_ns(ci->end_ps - ci->start_ps) -
			 (capture_ps_round_ns(last_ps) - capture_ps_round_ns(ci->start_ps)));
	jv_free(doc);
	free(json);
	capture_close(c);
}

static int setup(void **state)
{
	(void)state;
	sources_register();
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	analyze_kind_register(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_capture_edge_is_a_record_at_its_time_from_the_start),
		cmocka_unit_test(the_document_describes_the_capture_as_the_importer_reads_it),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
