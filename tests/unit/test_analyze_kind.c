/* SPDX-License-Identifier: GPL-2.0-or-later */
/* analyze's registered kind of edge source: a kind registered here (a
 * made-up one) gets every file that is neither a log nor an edge list,
 * with what the caller gave, and the documents describe it through its
 * hooks; with no kind registered a capture is refused in one clear
 * sentence, and logs and edge lists are read as before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stats/analyze.h"
#include "base/json.h"
#include "base/jsonread.h"
#include "log/edgelog.h"
#include "summary/analysisdoc.h"

static char tmpdir[] = "/tmp/sqwave-test-analyze-kind.XXXXXX";

/*
 * The made-up kind: "FAKE ORIGIN LO HI END" on the first line, then one
 * edge a line, "T LEVEL" (ns from its start), "gap" for a place without
 * data. Its state keeps what open was given, for the tests to check.
 */
struct fake {
	char path[256], name[64], format[32];
	int fd;
	const void *opts;
	int64_t origin, lo, hi, end;
	FILE *f;
	uint64_t seq, gaps, edges;
};

static int fake_probes;

static int fake_probe(const void *data, size_t len)
{
	fake_probes++;
	return len >= 4 && !memcmp(data, "FAKE", 4);
}

static void *fake_open(const char *path, int fd, const char *name, const char *format,
		       const void *opts, bool *io, char *err, size_t errlen)
{
	struct fake *k = calloc(1, sizeof(*k));
	long long o, lo, hi, end;

	assert_non_null(k);
	snprintf(k->path, sizeof(k->path), "%s", path);
	snprintf(k->name, sizeof(k->name), "%s", name);
	snprintf(k->format, sizeof(k->format), "%s", format ? format : "(none)");
	k->fd = fd;
	k->opts = opts;
	/* a stream is given as its memory file, read from its start */
	k->f = fd >= 0 ? fdopen(dup(fd), "r") : fopen(path, "r");
	if (!k->f || fscanf(k->f, "FAKE %lld %lld %lld %lld", &o, &lo, &hi, &end) != 4) {
		snprintf(err, errlen, "%s: not a fake", name);
		*io = false;
		if (k->f)
			fclose(k->f);
		free(k);
		return NULL;
	}
	k->origin = o;
	k->lo = lo;
	k->hi = hi;
	k->end = end;
	return k;
}

static void fake_describe(const void *state, const char **format, int64_t *origin_ns,
			  int64_t *edge_lo_ns, int64_t *edge_hi_ns)
{
	const struct fake *k = state;

	*format = "fake-1";
	*origin_ns = k->origin;
	*edge_lo_ns = k->lo;
	*edge_hi_ns = k->hi;
}

static int fake_next(void *state, struct edge_rec *e)
{
	struct fake *k = state;
	char word[16];
	long long t;
	int level;

	for (;;) {
		if (fscanf(k->f, "%15s", word) != 1)
			return 0;
		if (strcmp(word, "gap"))
			break;
		k->seq++;
		k->gaps++;
	}
	if (sscanf(word, "%lld", &t) != 1 || fscanf(k->f, "%d", &level) != 1)
		return -1;
	memset(e, 0, sizeof(*e));
	e->seq = k->seq++;
	e->intended_ns = (uint64_t)t;
	e->wake_off_ns = e->write_begin_off_ns = (int32_t)k->lo;
	e->write_end_off_ns = (int32_t)k->hi;
	e->expirations = 1;
	e->level = (uint8_t)level;
	k->edges++;
	return 1;
}

static const char *fake_error(const void *state, bool *io)
{
	(void)state;
	*io = false;
	return "fake: a bad line";
}

static void fake_end(const void *state, int64_t *end_ns, uint64_t *gaps)
{
	const struct fake *k = state;

	*end_ns = k->end;
	*gaps = k->gaps;
}

static struct fake *closed_last;

static void fake_close(void *state)
{
	struct fake *k = state;

	fclose(k->f);
	closed_last = k;
	free(k);
}

static void fake_text(FILE *f, const void *state)
{
	fprintf(f, "fake       %" PRIu64 " edges read\n", ((const struct fake *)state)->edges);
}

static void fake_json(struct json_writer *w, const void *state)
{
	json_kv_uint(w, "edges", ((const struct fake *)state)->edges);
}

static void fake_title(const void *state, char *buf, size_t len)
{
	(void)state;
	snprintf(buf, len, "a fake source");
}

static const struct analyze_kind_ops fake_kind = {
	.name = "fake", .probe = fake_probe, .open = fake_open, .describe = fake_describe,
	.next = fake_next, .error = fake_error, .end = fake_end, .close = fake_close,
	.text = fake_text, .json = fake_json, .title = fake_title,
};

/* Edges at 1000, 1500 (gap) 2500, 3000 ns; the data ends at 4200. */
static const char fake_text_file[] = "FAKE -7000 -30 10 4200\n1000 1\n1500 0\ngap\n2500 1\n3000 0\n";

static const char *write_file(const char *name, const char *text)
{
	static char path[2][256];
	static int turn;
	char *p = path[turn++ % 2];
	FILE *f;

	snprintf(p, 256, "%s/%s", tmpdir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return p;
}

static void a_registered_kind_reads_what_is_neither_log_nor_edge_list(void **state)
{
	const char *path = write_file("one.fake", fake_text_file);
	int opts = 42;
	struct analyze_source_opts so = { .kind_opts = &opts };
	const struct analyze_source_info *si;
	struct analyze_source *s;
	enum analyze_status st;
	struct edge_rec e[8];
	char err[256];
	int n = 0;

	(void)state;
	analyze_kind_register(&fake_kind);
	assert_ptr_equal(analyze_kind_registered(), &fake_kind);
	s = analyze_source_open(path, &so, &st, err, sizeof(err));
	assert_non_null(s);
	si = analyze_source_info(s);
	assert_int_equal(si->kind, ANALYZE_SRC_REGISTERED);
	assert_ptr_equal(si->kind_ops, &fake_kind);
	{
		const struct fake *k = si->kind_state;

		/* what the caller gave reached the kind, a file by its path */
		assert_string_equal(k->path, path);
		assert_string_equal(k->name, path);
		assert_int_equal(k->fd, -1);
		assert_ptr_equal(k->opts, &opts);
		assert_string_equal(k->format, "(none)");
	}
	/* what the kind says of itself */
	assert_string_equal(si->format, "fake-1");
	assert_false(si->has_intended);
	assert_int_equal(si->origin_ns, -7000);
	assert_true(si->has_edge_window);
	assert_int_equal(si->edge_lo_ns, -30);
	assert_int_equal(si->edge_hi_ns, 10);
	assert_false(si->has_end);
	while (n < 8 && analyze_source_next(s, &e[n]) == 1)
		n++;
	assert_int_equal(n, 4);
	assert_int_equal(e[2].seq, 3);	/* after the gap */
	/* the end: its data's end and gaps */
	assert_true(si->ended);
	assert_true(si->has_end);
	assert_int_equal(si->end_ns, 4200);
	assert_int_equal(si->gaps, 1);
	analyze_source_close(s);
	assert_non_null(closed_last);
	/* a --format that is neither "log" nor "edges" is the kind's to judge */
	so.format = "fakefmt";
	s = analyze_source_open(path, &so, &st, err, sizeof(err));
	assert_non_null(s);
	assert_string_equal(((const struct fake *)analyze_source_info(s)->kind_state)->format, "fakefmt");
	analyze_source_close(s);
	/* and its refusal is the kind's own sentence */
	assert_null(analyze_source_open(write_file("bad.fake", "hello\n"), NULL, &st, err, sizeof(err)));
	assert_int_equal(st, ANALYZE_E_INPUT);
	assert_string_equal(err + strlen(err) - strlen(": not a fake"), ": not a fake");
	analyze_kind_register(NULL);
}

/* The analysis and its documents take the kind's times, window, end and
 * description through its hooks. */
static void the_documents_describe_a_registered_source_through_its_hooks(void **state)
{
	const char *path = write_file("doc.fake", fake_text_file);
	char err[256], *text = NULL, jpath[300];
	size_t tlen = 0;
	bool io;
	const struct analyze_opts ao = { .worst_n = 3, .hist_buckets = 100 };
	struct analysisdoc d;
	enum analyze_status st;
	struct jv *doc;
	int64_t head, tail;
	int hl, tl;
	FILE *f;

	(void)state;
	analyze_kind_register(&fake_kind);
	assert_int_equal(analysisdoc_open(&d, path, NULL, &ao, NULL, NULL, 0, &st, err, sizeof(err)), 0);
	assert_int_equal(analysisdoc_feed(&d, &st, err, sizeof(err)), 0);
	/* the partial segments from the kind's end: 1000 ns before the first
	 * edge, 4200 - 3000 after the last */
	assert_true(analysis_partial(d.a, &head, &hl, &tail, &tl));
	assert_int_equal(head, 1000);
	assert_int_equal(tail, 1200);
	/* a pulse's bounds widen by the kind's window: 1000..1500 is 500 ns,
	 * and may have been 500 - 40 .. 500 + 40 */
	assert_int_equal(analysis_stats(d.a)->width[EDGESTATS_ANY].tmin.width_ns, 500);
	assert_int_equal(analysis_stats(d.a)->width[EDGESTATS_ANY].tmin_bound.lo_ns, 460);
	f = open_memstream(&text, &tlen);
	assert_non_null(f);
	analysisdoc_print_text(f, d.a);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(text, "fake       4 edges read\n"));
	assert_non_null(strstr(text, "gaps       1 places without data"));
	/* times in the kind's own time base: origin + edge time */
	assert_non_null(strstr(text, "t=-0.000006000 s"));
	snprintf(jpath, sizeof(jpath), "%s/doc.json", tmpdir);
	assert_int_equal(analysisdoc_write_json(jpath, d.a), 0);
	doc = jsonread_file(jpath, &io, err, sizeof(err));
	assert_non_null(doc);
	assert_string_equal(jv_str(jv_path(doc, "source.kind"), ""), "fake");
	assert_string_equal(jv_str(jv_path(doc, "source.format"), ""), "fake-1");
	assert_int_equal(jv_int(jv_path(doc, "source.fake.edges"), -1), 4);
	assert_int_equal(jv_path(doc, "source.log")->type, JV_NULL);
	assert_int_equal(jv_int(jv_path(doc, "counts.gap_events"), -1), 1);
	assert_int_equal(jv_int(jv_path(doc, "counts.seq_gaps"), -1), 0);
	assert_int_equal(jv_int(jv_path(doc, "counts.dropped"), -1), 0);
	jv_free(doc);
	free(text);
	analysisdoc_close(&d);
	analyze_kind_register(NULL);
}

/* A child writing @text into a pipe; returns the read end. */
static int pipe_from_child(const char *text, pid_t *pid)
{
	int fd[2];

	assert_int_equal(pipe(fd), 0);
	*pid = fork();
	assert_true(*pid >= 0);
	if (*pid == 0) {
		size_t len = strlen(text);

		close(fd[0]);
		signal(SIGPIPE, SIG_DFL);
		_exit(write(fd[1], text, len) == (ssize_t)len ? 0 : 1);
	}
	close(fd[1]);
	return fd[0];
}

/* analyze_source_open("-") with @text on standard input. */
static struct analyze_source *open_stdin(const char *text, enum analyze_status *st, char *err,
					 size_t errlen)
{
	int saved = dup(0);
	pid_t pid;
	int rd = pipe_from_child(text, &pid);
	struct analyze_source *s;

	assert_int_equal(dup2(rd, 0), 0);
	close(rd);
	s = analyze_source_open("-", NULL, st, err, errlen);
	dup2(saved, 0);
	close(saved);
	waitpid(pid, NULL, 0);
	return s;
}

static void a_stream_is_probed_by_the_kind_and_opened_from_memory(void **state)
{
	struct analyze_source *s;
	enum analyze_status st;
	char err[256];

	(void)state;
	analyze_kind_register(&fake_kind);
	fake_probes = 0;
	s = open_stdin(fake_text_file, &st, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(fake_probes, 1);
	{
		const struct fake *k = analyze_source_info(s)->kind_state;

		assert_true(k->fd >= 0);
		assert_string_equal(k->name, "<stdin>");
	}
	analyze_source_close(s);
	/* a start the kind does not know is refused before it is read whole */
	assert_null(open_stdin("hello, not fake\n", &st, err, sizeof(err)));
	assert_int_equal(st, ANALYZE_E_INPUT);
	assert_non_null(strstr(err, "not a format sqwave reads"));
	analyze_kind_register(NULL);
}

static const char vcd[] = "$timescale 1ns $end\n$scope module top $end\n$var wire 1 ! sig $end\n"
			  "$upscope $end\n$enddefinitions $end\n#0\n0!\n#500\n1!\n#1000\n0!\n";

static void without_a_kind_a_capture_is_refused_and_logs_still_read(void **state)
{
	const char *cap = write_file("cap.vcd", vcd);
	const char *list = write_file("list.csv", "seq,level,intended_ns,measured_ns\n0,1,1000,1100\n"
				      "1,0,501000,501200\n");
	struct analyze_source_opts as_vcd = { .format = "vcd" };
	struct analyze_source *s;
	enum analyze_status st;
	char err[256], want[512];

	(void)state;
	analyze_kind_register(NULL);
	assert_null(analyze_kind_registered());
	assert_null(analyze_source_open(cap, NULL, &st, err, sizeof(err)));
	assert_int_equal(st, ANALYZE_E_INPUT);
	snprintf(want, sizeof(want), "%s: neither a sqwave log nor an edge list, and this build of "
		 "sqwave reads no captures", cap);
	assert_string_equal(err, want);
	assert_null(analyze_source_open(cap, &as_vcd, &st, err, sizeof(err)));
	assert_int_equal(st, ANALYZE_E_INPUT);
	assert_string_equal(err, "--format vcd: this build of sqwave reads logs (log) and edge "
			    "lists (edges) only, no captures");
	assert_null(open_stdin(vcd, &st, err, sizeof(err)));
	assert_int_equal(st, ANALYZE_E_INPUT);
	assert_string_equal(err, "<stdin>: neither a sqwave log nor an edge list, and this build "
			    "of sqwave reads no captures");
	/* an edge list, from a file and from a pipe, as ever */
	s = analyze_source_open(list, NULL, &st, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(analyze_source_info(s)->kind, ANALYZE_SRC_EDGE_CSV);
	analyze_source_close(s);
	s = open_stdin("seq,level,intended_ns,measured_ns\n0,1,1000,1100\n", &st, err, sizeof(err));
	assert_non_null(s);
	analyze_source_close(s);
	/* and a log */
	{
		char log[256];
		struct edgelog_meta m = { .version = 1, .clock_id = 1, .half_period_ns = 500000,
					  .start_ns = 1000000, .text = "board.name=test\n" };
		struct edge_rec r[2] = {
			{ .seq = 0, .intended_ns = 1000000, .expirations = 1, .level = 1 },
			{ .seq = 1, .intended_ns = 1500000, .expirations = 1, .level = 0 },
		};
		struct edgelog_writer *w;

		snprintf(log, sizeof(log), "%s/plain.sqwlog", tmpdir);
		w = edgelog_writer_create(log, &m, NULL, 0, NULL, 0);
		assert_non_null(w);
		assert_int_equal(edgelog_writer_append(w, r, 2), 0);
		assert_int_equal(edgelog_writer_close(w, NULL, NULL, 0), 0);
		s = analyze_source_open(log, NULL, &st, err, sizeof(err));
		assert_non_null(s);
		assert_int_equal(analyze_source_info(s)->kind, ANALYZE_SRC_LOG);
		analyze_source_close(s);
	}
}

static int make_dir(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_registered_kind_reads_what_is_neither_log_nor_edge_list),
		cmocka_unit_test(the_documents_describe_a_registered_source_through_its_hooks),
		cmocka_unit_test(a_stream_is_probed_by_the_kind_and_opened_from_memory),
		cmocka_unit_test(without_a_kind_a_capture_is_refused_and_logs_still_read),
	};

	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
