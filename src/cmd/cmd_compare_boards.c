/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave compare RUN_A RUN_B CAPTURE`: each board's log against its channel
 * of the capture (analysis/compare.c), their edges joined on the shared grid
 * (analysis/boardskew.c), the text report, the JSON and the per-edge CSV. */
#include "cmd/cmd_compare_boards.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/boardskew.h"
#include "base/json.h"
#include "base/outfile.h"
#include "capture/capture.h"
#include "cmd/cmd.h"
#include "cmd/cmd_compare_respond.h"
#include "cmd/print.h"
#include "log/edgelog.h"
#include "summary/soakview.h"

#define COMPARE_SCHEMA "sqwave-compare"
#define COMPARE_SCHEMA_VERSION 1

/* One board: its log's view (for the grid) and its comparison. */
struct board {
	const char *name;              /* "A", "B" */
	struct compare_opts o;
	struct soakview *sv;
	struct run_info ri;
	struct compare *c;
	/* A line of a run of several on grid.clock monotonic (docs/lines.md):
	 * its grid is the run's own CLOCK_MONOTONIC, offset 0, exact. */
	struct run_grid mono;
	char lines[1024], host[256];
};

struct ctx {
	const struct compare_boards_opts *bo;
	struct board b[2];
	struct boardskew s;
	bool joined;                   /* s is filled */
	const char *verdict;           /* "agree", "disagree", or a board's own */
	int exit_code;
};

static void us(char *buf, size_t len, double ns)
{
	if (isnan(ns))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", ns / 1000);
}

/* The channel names the capture has, for the defaults. */
static int default_channels(const struct compare_opts *o, char names[2][128])
{
	char err[512];
	struct capture *cp = capture_open(o->capture, &o->copts, err, sizeof(err));
	const struct capture_info *ci;

	if (!cp) {
		pr_err("%s", err);
		return errno == EIO || errno == ENOMEM ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
	}
	ci = capture_info(cp);
	if (ci->n_channels < 2) {
		pr_err("%s: %u channel%s: two boards need a capture of both pins (--channel-a, "
		       "--channel-b)", ci->path, ci->n_channels, ci->n_channels == 1 ? "" : "s");
		capture_close(cp);
		return SQW_EXIT_USAGE;
	}
	snprintf(names[0], sizeof(names[0]), "%s", ci->channel_names[0]);
	snprintf(names[1], sizeof(names[1]), "%s", ci->channel_names[1]);
	capture_close(cp);
	return 0;
}

/* Read board @b's grid from its log and compare it with its channel. */
static int open_board(struct board *b, const char *run, const struct compare_opts *o,
		      const char *channel)
{
	char err[1024];
	bool bad_input = false;
	enum compare_status st;

	b->o = *o;
	b->o.run = run;
	b->o.copts.channel = channel;
	b->sv = soakview_open(run, 0, 0, &bad_input, err, sizeof(err));
	if (!b->sv) {
		pr_err("%s", err);
		return bad_input ? SQW_EXIT_USAGE : SQW_EXIT_RUNTIME;
	}
	memset(&b->ri, 0, sizeof(b->ri));
	soakview_run_info(b->sv, &b->ri);
	st = compare_run(&b->o, &b->c, err, sizeof(err));
	if (st != COMPARE_OK) {
		pr_err("board %s: %s", b->name, err);
		return st == COMPARE_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
	}
	b->lines[0] = b->host[0] = '\0';
	edgelog_meta_get(b->c->meta, EDGELOG_META_OUTPUTS_LINES, b->lines, sizeof(b->lines));
	edgelog_meta_get(b->c->meta, EDGELOG_META_HOST, b->host, sizeof(b->host));
	if (!b->ri.grid && b->lines[0]) {	/* a line of one run: its own clock */
		memset(&b->mono, 0, sizeof(b->mono));
		b->mono.clock = "monotonic";
		b->mono.start_ns = b->c->meta->start_ns - (uint64_t)b->c->meta->wave.phase_ns;
		b->ri.grid = &b->mono;
	}
	if (!b->ri.grid) {
		pr_err("board %s: %s is not on a shared grid (grid.clock monotonic): two boards' "
		       "edges meet only on one; run both with --grid realtime (docs/grid.md), or "
		       "drive both lines from one run (--line A,B: docs/lines.md)", b->name, run);
		return SQW_EXIT_USAGE;
	}
	if (edgelog_meta_is_respond(b->c->meta)) {
		pr_err("board %s: %s is a respond log: two boards are compared on a wave's grid",
		       b->name, run);
		return SQW_EXIT_USAGE;
	}
	if (b->c->truncated)
		pr_warn("board %s: %s is truncated (the run was cut short): using its %" PRIu64
			" complete records", b->name, run, b->c->records);
	return 0;
}

/* ---- text ---- */

static void print_board(const struct board *b)
{
	const struct compare *c = b->c;
	const struct run_grid *g = b->ri.grid;

	printf("board %s    %s: %" PRIu64 " edges, half period %.3f us", b->name, b->o.run,
	       c->records, (double)c->meta->half_period_ns / 1000);
	if (g) {
		printf(", grid %s (offset +/- %" PRIu64 " ns", g->clock, g->offset_uncert_ns);
		if (g->sync_known && g->sync.synced)
			printf(", synchronised, max error %ld us", g->sync.maxerror_us);
		else if (g->sync_known)
			printf(", NOT SYNCHRONISED");
		if (g->steps)
			printf(", %u step%s", g->steps, g->steps == 1 ? "" : "s");
		printf(")");
	}
	printf("\n           channel %s: %s", c->ci->channel_name, compare_verdict_name(c->verdict));
	if (c->aligned)
		printf(", %zu paired, %zu missing, %zu extra, %zu beyond tolerance, drift %+.1f ppm",
		       c->r.npairs, c->r.nmissing, c->r.nextra, c->r.disagree, c->r.drift_ppm);
	printf("\n");
}

static int cmp_worst(const void *x, const void *y)
{
	double a = fabs((*(const struct boardskew_edge *const *)x)->skew_ns);
	double b = fabs((*(const struct boardskew_edge *const *)y)->skew_ns);

	return (a < b) - (a > b);
}

static void print_worst(const struct boardskew *s, unsigned worst)
{
	const struct boardskew_edge **v;
	size_t i, n = s->n < worst ? s->n : worst;
	char a[32], lo[32], hi[32], clo[32], chi[32];

	if (!n || !(v = malloc(s->n * sizeof(*v))))
		return;
	for (i = 0; i < s->n; i++)
		v[i] = &s->e[i];
	qsort(v, s->n, sizeof(*v), cmp_worst);
	printf("\nlargest skews (us): grid instant, seq A, seq B, skew, what the windows allow, "
	       "the clocks' share\n");
	for (i = 0; i < n; i++) {
		const struct boardskew_edge *e = v[i];

		us(a, sizeof(a), e->skew_ns);
		us(lo, sizeof(lo), e->lo_ns);
		us(hi, sizeof(hi), e->hi_ns);
		us(clo, sizeof(clo), boardskew_clock_lo(e));
		us(chi, sizeof(chi), boardskew_clock_hi(e));
		printf("  %" PRIu64 ".%09" PRIu64 "  %8" PRIu64 " %8" PRIu64 "  %10s  [%s, %s]  [%s, %s]%s\n",
		       e->grid_ns / 1000000000u, e->grid_ns % 1000000000u, e->seq_a, e->seq_b, a, lo,
		       hi, clo, chi, e->level_a != e->level_b ? "  opposite polarity" : "");
	}
	free(v);
}

static void print_skew(const struct ctx *x)
{
	const struct boardskew *s = &x->s;
	char a[32], b[32], c[32], d[32], e[32];

	printf("\njoined     %zu edges on common grid instants (only A: %zu, only B: %zu, "
	       "opposite polarity: %zu)\n", s->n, s->only_a, s->only_b, s->opposite);
	if (!s->n)
		return;
	us(a, sizeof(a), s->skew_min);
	us(b, sizeof(b), s->skew_p50);
	us(c, sizeof(c), s->skew_p99_abs);
	us(d, sizeof(d), s->skew_max);
	us(e, sizeof(e), s->skew_mean);
	printf("skew B-A   min %s  p50 %s  |p99| %s  max %s  mean %s us (capture resolution %.3f ns)\n",
	       a, b, c, d, e, s->resolution_ns);
	if (s->phase_diff_ns) {
		us(a, sizeof(a), (double)s->phase_diff_ns);
		printf("           B's run.phase - A's = %s us: taken out of every skew (the edges "
		       "meet on the instant they were shifted from)\n", a);
	}
	printf("windows    %zu of %zu skews lie outside what both write windows allow "
	       "(slack %.1f ns: both fits' tolerance, both offsets' uncertainty)\n",
	       s->beyond_windows, s->n, s->slack_ns);
	us(a, sizeof(a), s->clock_lower_ns);
	us(b, sizeof(b), s->clock_upper_ns);
	printf("clocks     B's grid clock - A's: at least %s us apart at some edge, at most %s us "
	       "at every edge", a, b);
	if (s->common) {
		us(a, sizeof(a), s->common_lo_ns);
		us(b, sizeof(b), s->common_hi_ns);
		printf(";\n           a constant offset lies in [%s, %s] us\n", a, b);
	} else {
		printf(";\n           no constant offset fits every edge (the clocks moved "
		       "against each other during the capture)\n");
	}
	printf("\nchecks\n");
	us(a, sizeof(a), fmax(fabs(s->skew_min), fabs(s->skew_max)));
	if (s->skew_check == BOARDSKEW_NONE) {
		printf("  max_skew     -             max |skew| %s us; no limit (--max-skew)\n", a);
	} else {
		us(b, sizeof(b), (double)s->max_skew_ns);
		printf("  max_skew     %-12s  max |skew| %s us against %s us", boardskew_check_name(s->skew_check),
		       a, b);
		if (s->skew_over)
			printf(": %zu edges beyond it", s->skew_over);
		printf("\n");
	}
	if (s->clock_check == BOARDSKEW_SKIP) {
		printf("  clock_error  SKIP          %s\n", s->clock_skip);
	} else {
		us(a, sizeof(a), s->clock_lower_ns);
		us(b, sizeof(b), s->clock_upper_ns);
		us(c, sizeof(c), s->clock_bound_ns);
		printf("  clock_error  %-12s  the clocks are %s..%s us apart; both claim at most %s us "
		       "(max error A %ld us + B %ld us)\n", boardskew_check_name(s->clock_check), a, b, c,
		       x->b[0].ri.grid->sync.maxerror_us, x->b[1].ri.grid->sync.maxerror_us);
	}
	print_worst(s, x->bo->o->worst);
}

/* ---- JSON ---- */

static void json_board(struct json_writer *w, const struct board *b)
{
	const struct compare *c = b->c;
	const struct run_grid *g = b->ri.grid;

	json_object_begin(w);
	json_kv_string(w, "name", b->name);
	json_kv_string(w, "path", b->o.run);
	json_kv_uint(w, "records", c->records);
	json_kv_bool(w, "truncated", c->truncated);
	json_kv_uint(w, "half_period_ns", c->meta->half_period_ns);
	json_kv_string(w, "channel", c->ci->channel_name);
	if (g) {
		json_kv_object_begin(w, "grid");
		json_kv_string(w, "clock", g->clock);
		json_kv_int(w, "offset_ns", g->offset_ns);
		json_kv_uint(w, "offset_uncertainty_ns", g->offset_uncert_ns);
		if (g->sync_known) {
			json_kv_bool(w, "synced", g->sync.synced);
			json_kv_int(w, "maxerror_us", g->sync.maxerror_us);
		} else {
			json_kv_null(w, "synced");
			json_kv_null(w, "maxerror_us");
		}
		json_kv_uint(w, "steps", g->steps);
		json_object_end(w);
	} else {
		json_kv_null(w, "grid");
	}
	json_kv_string(w, "alignment", c->aligned ? "aligned" : compare_verdict_name(c->verdict));
	if (c->aligned) {
		json_kv_uint(w, "paired", c->r.npairs);
		json_kv_uint(w, "missing", c->r.nmissing);
		json_kv_uint(w, "extra", c->r.nextra);
		json_kv_uint(w, "beyond_tolerance", c->r.disagree);
		json_kv_double(w, "drift_ppm", c->r.drift_ppm);
		json_kv_double(w, "tolerance_ns", c->r.tolerance_ns);
	}
	json_kv_string(w, "verdict", compare_verdict_name(c->verdict));
	json_object_end(w);
}

static void json_check(struct json_writer *w, const char *name, enum boardskew_check st,
		       const char *why)
{
	json_kv_object_begin(w, name);
	json_kv_string(w, "state", boardskew_check_name(st));
	if (why)
		json_kv_string(w, "why", why);
}

static void json_skew(struct json_writer *w, const struct boardskew *s)
{
	json_kv_object_begin(w, "skew");
	json_kv_uint(w, "joined", s->n);
	json_kv_uint(w, "only_a", s->only_a);
	json_kv_uint(w, "only_b", s->only_b);
	json_kv_uint(w, "opposite_polarity", s->opposite);
	json_kv_double(w, "resolution_ns", s->resolution_ns);
	json_kv_double(w, "slack_ns", s->slack_ns);
	json_kv_double(w, "min_ns", s->skew_min);
	json_kv_double(w, "p50_ns", s->skew_p50);
	json_kv_double(w, "p99_abs_ns", s->skew_p99_abs);
	json_kv_double(w, "max_ns", s->skew_max);
	json_kv_double(w, "mean_ns", s->skew_mean);
	json_kv_uint(w, "beyond_windows", s->beyond_windows);
	json_kv_int(w, "phase_diff_ns", s->phase_diff_ns);
	json_kv_object_begin(w, "clock_offset");
	json_kv_double(w, "lower_bound_ns", s->n ? s->clock_lower_ns : NAN);
	json_kv_double(w, "upper_bound_ns", s->n ? s->clock_upper_ns : NAN);
	if (s->common) {
		json_kv_double(w, "common_lo_ns", s->common_lo_ns);
		json_kv_double(w, "common_hi_ns", s->common_hi_ns);
	} else {
		json_kv_null(w, "common_lo_ns");
		json_kv_null(w, "common_hi_ns");
	}
	json_kv_double(w, "claimed_bound_ns", s->clock_bound_ns >= 0 ? s->clock_bound_ns : NAN);
	json_object_end(w);
	json_kv_object_begin(w, "checks");
	json_check(w, "max_skew", s->skew_check, NULL);
	if (s->max_skew_ns > 0)
		json_kv_int(w, "limit_ns", s->max_skew_ns);
	else
		json_kv_null(w, "limit_ns");
	json_kv_uint(w, "edges_over", s->skew_over);
	json_object_end(w);
	json_check(w, "clock_error", s->clock_check,
		   s->clock_check == BOARDSKEW_SKIP ? s->clock_skip : NULL);
	json_object_end(w);
	json_object_end(w);
	json_object_end(w);
}

static void boards_doc(struct json_writer *w, const void *vctx)
{
	const struct ctx *x = vctx;
	const struct capture_info *ci = x->b[0].c->ci;

	json_object_begin(w);
	json_kv_string(w, "schema", COMPARE_SCHEMA);
	json_kv_int(w, "schema_version", COMPARE_SCHEMA_VERSION);
	json_kv_string(w, "mode", "boards");
	json_kv_array_begin(w, "boards");
	json_board(w, &x->b[0]);
	json_board(w, &x->b[1]);
	json_array_end(w);
	json_kv_object_begin(w, "capture");
	json_kv_string(w, "path", ci->path);
	json_kv_string(w, "format", ci->format);
	json_kv_double(w, "resolution_ns", capture_ps_to_ns(ci->resolution_ps));
	json_kv_double(w, "start_s", capture_ps_to_s(ci->start_ps));
	json_kv_double(w, "end_s", capture_ps_to_s(ci->end_ps));
	json_object_end(w);
	if (x->joined)
		json_skew(w, &x->s);
	else
		json_kv_null(w, "skew");
	json_kv_string(w, "verdict", x->verdict);
	json_kv_int(w, "exit_code", x->exit_code);
	json_object_end(w);
}

/* ---- CSV ---- */

static int write_csv(const char *path, const struct boardskew *s)
{
	char err[512];
	FILE *f = outfile_open(path, err, sizeof(err));
	size_t i;

	if (!f) {
		pr_err("%s", err);
		return -1;
	}
	fprintf(f, "intended_grid_ns,seq_a,seq_b,level_a,level_b,skew_ns,allowed_lo_ns,"
		   "allowed_hi_ns,clock_lo_ns,clock_hi_ns\n");
	for (i = 0; i < s->n; i++) {
		const struct boardskew_edge *e = &s->e[i];

		fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%u,%.3f,%.3f,%.3f,%.3f,%.3f\n",
			e->grid_ns, e->seq_a, e->seq_b, e->level_a, e->level_b, e->skew_ns, e->lo_ns,
			e->hi_ns, boardskew_clock_lo(e), boardskew_clock_hi(e));
	}
	if (outfile_close(f, path, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		return -1;
	}
	return 0;
}

/* ---- the command ---- */

/* The verdict: a board that does not agree with its channel decides it
 * first (its own exit code); then no common instant, then the checks. */
static void decide(struct ctx *x)
{
	int i;

	for (i = 0; i < 2; i++) {
		const struct compare *c = x->b[i].c;

		if (c->verdict != COMPARE_AGREE) {
			x->verdict = compare_verdict_name(c->verdict);
			x->exit_code = cmd_compare_verdict_exit(c->verdict);
			return;
		}
	}
	x->verdict = "agree";
	x->exit_code = SQW_EXIT_OK;
	if (!x->s.n || x->s.skew_check == BOARDSKEW_FAIL || x->s.clock_check == BOARDSKEW_FAIL) {
		x->verdict = x->s.n ? "disagree" : "no-overlap";
		x->exit_code = SQW_EXIT_LIMIT;
	}
}

static void print_verdict(const struct ctx *x)
{
	printf("\nverdict    %s", !strcmp(x->verdict, "agree") ? "AGREE" : x->exit_code == SQW_EXIT_LIMIT
	       ? "DISAGREE" : "UNDECIDED");
	if (strcmp(x->verdict, "agree"))
		printf(" (%s)", x->verdict);
	printf("\n");
}

int cmd_compare_boards(const struct compare_boards_opts *bo)
{
	struct ctx x = { .bo = bo, .b = { { .name = "A" }, { .name = "B" } } };
	const struct compare_opts *o = bo->o;
	char names[2][128];
	const char *chan[2] = { bo->channel[0], bo->channel[1] };
	char err[1024];
	int i, ret = 0;

	if (!strcmp(o->run, "-") || !strcmp(bo->run_b, "-") || capture_path_is_stream(o->capture)) {
		pr_err("compare: two boards: RUN_A, RUN_B and CAPTURE are each read more than "
		       "once: give files, not standard input");
		return SQW_EXIT_USAGE;
	}
	if (!chan[0] || !chan[1]) {
		ret = default_channels(o, names);
		if (ret)
			return ret;
		if (!chan[0])
			chan[0] = strcmp(chan[1] ? chan[1] : "", names[0]) ? names[0] : names[1];
		if (!chan[1])
			chan[1] = strcmp(chan[0], names[1]) ? names[1] : names[0];
	}
	for (i = 0; i < 2 && !ret; i++)
		ret = open_board(&x.b[i], i ? bo->run_b : o->run, o, chan[i]);
	/* Lines on a monotonic grid meet only if they are lines of one run:
	 * the same lines, host and grid instant (phases taken out). */
	if (!ret && (x.b[0].ri.grid == &x.b[0].mono || x.b[1].ri.grid == &x.b[1].mono) &&
	    (x.b[0].ri.grid != &x.b[0].mono || x.b[1].ri.grid != &x.b[1].mono ||
	     strcmp(x.b[0].lines, x.b[1].lines) || strcmp(x.b[0].host, x.b[1].host) ||
	     x.b[0].mono.start_ns != x.b[1].mono.start_ns)) {
		pr_err("compare: %s and %s are not two lines of one run (their outputs.lines, "
		       "host or first grid instant differ) and not both on a shared grid: run "
		       "both with --grid realtime (docs/grid.md)", o->run, bo->run_b);
		ret = SQW_EXIT_USAGE;
	}
	if (!ret && x.b[0].c->ci->channel == x.b[1].c->ci->channel) {
		pr_err("compare: boards A and B are given the same channel (%s)",
		       x.b[0].c->ci->channel_name);
		ret = SQW_EXIT_USAGE;
	}
	if (ret)
		goto out;
	printf("==== sqwave compare: two boards ====\n");
	print_board(&x.b[0]);
	print_board(&x.b[1]);
	printf("capture    %s (%s, resolution %.3f ns)\n", x.b[0].c->ci->path, x.b[0].c->ci->format,
	       capture_ps_to_ns(x.b[0].c->ci->resolution_ps));
	if (x.b[0].c->aligned && x.b[1].c->aligned) {
		struct boardskew_side sa = { x.b[0].c, x.b[0].ri.grid };
		struct boardskew_side sb = { x.b[1].c, x.b[1].ri.grid };
		enum boardskew_status st = boardskew_compute(&sa, &sb, bo->max_skew_ns, &x.s, err,
							     sizeof(err));

		if (st != BOARDSKEW_OK) {
			if (st == BOARDSKEW_E_INPUT)
				pr_err("compare: %s", err);
			else
				pr_err("compare: out of memory joining the boards' edges");
			ret = st == BOARDSKEW_E_INPUT ? SQW_EXIT_USAGE : SQW_EXIT_RUNTIME;
			goto out;
		}
		x.joined = true;
		print_skew(&x);
	}
	decide(&x);
	print_verdict(&x);
	ret = x.exit_code;
	if (bo->skew_csv && x.joined && write_csv(bo->skew_csv, &x.s) < 0)
		ret = SQW_EXIT_RUNTIME;
	if (bo->json && cmd_compare_write_json(bo->json, bo->json_stdout, boards_doc, &x) < 0)
		ret = SQW_EXIT_RUNTIME;
	fflush(stdout);
out:
	if (x.joined)
		boardskew_free(&x.s);
	for (i = 0; i < 2; i++) {
		if (x.b[i].c)
			compare_free(x.b[i].c);
		if (x.b[i].sv)
			soakview_free(x.b[i].sv);
	}
	return ret;
}
