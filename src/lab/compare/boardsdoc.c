/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two boards on one grid against one capture of both pins: each board's log
 * against its channel (compare.c), their edges joined (boardskew.c), the
 * verdict, the text report, the JSON and the per-edge CSV. */
#include "compare/boardsdoc.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/msgbuf.h"
#include "base/outfile.h"
#include "capture/capture.h"
#include "compare/comparedoc.h"
#include "log/edgelog.h"
#include "summary/soakview.h"

/* ---- the session ---- */

/* The channel names the capture has, for the defaults. */
static enum compare_status default_channels(const struct compare_opts *o, char names[2][128],
					    char *err, size_t errlen)
{
	char why[512];
	struct capture *cp = capture_open(o->capture, &o->copts, why, sizeof(why));
	const struct capture_info *ci;

	if (!cp) {
		msgbuf_set(err, errlen, "%s", why);
		return errno == EIO || errno == ENOMEM ? COMPARE_E_IO : COMPARE_E_INPUT;
	}
	ci = capture_info(cp);
	if (ci->n_channels < 2) {
		msgbuf_set(err, errlen, "%s: %u channel%s: two boards need a capture of both pins "
			   "(--channel-a, --channel-b)", ci->path, ci->n_channels,
			   ci->n_channels == 1 ? "" : "s");
		capture_close(cp);
		return COMPARE_E_INPUT;
	}
	snprintf(names[0], sizeof(names[0]), "%s", ci->channel_names[0]);
	snprintf(names[1], sizeof(names[1]), "%s", ci->channel_names[1]);
	capture_close(cp);
	return COMPARE_OK;
}

/* Read board @b's grid from its log and compare it with its channel. */
static enum compare_status open_board(struct boardsdoc_board *b, const char *run,
				      const struct compare_opts *o, const char *channel, char *err,
				      size_t errlen)
{
	char why[1024];
	bool bad_input = false;
	enum compare_status st;

	b->o = *o;
	b->o.run = run;
	b->o.copts.channel = channel;
	b->sv = soakview_open(run, 0, 0, &bad_input, why, sizeof(why));
	if (!b->sv) {
		msgbuf_set(err, errlen, "%s", why);
		return bad_input ? COMPARE_E_INPUT : COMPARE_E_IO;
	}
	memset(&b->ri, 0, sizeof(b->ri));
	soakview_run_info(b->sv, &b->ri);
	st = compare_run(&b->o, &b->c, why, sizeof(why));
	if (st != COMPARE_OK) {
		msgbuf_set(err, errlen, "board %s: %s", b->name, why);
		return st;
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
		msgbuf_set(err, errlen, "board %s: %s is not on a shared grid (grid.clock monotonic): "
			   "two boards' edges meet only on one; run both with --grid realtime "
			   "(docs/grid.md), or drive both lines from one run (--line A,B: "
			   "docs/lines.md)", b->name, run);
		return COMPARE_E_INPUT;
	}
	if (edgelog_meta_is_respond(b->c->meta)) {
		msgbuf_set(err, errlen, "board %s: %s is a respond log: two boards are compared on a "
			   "wave's grid", b->name, run);
		return COMPARE_E_INPUT;
	}
	b->opened = true;
	return COMPARE_OK;
}

/* Both boards, each against its channel, and whether they can be joined:
 * lines on a monotonic grid meet only if they are lines of one run (the
 * same lines, host and grid instant, phases taken out). */
static enum compare_status open_boards(struct boardsdoc *d, char *err, size_t errlen)
{
	const struct boardsdoc_opts *bo = d->bo;
	const struct compare_opts *o = bo->o;
	const struct boardsdoc_board *a = &d->b[0], *b = &d->b[1];
	const char *chan[2] = { bo->channel[0], bo->channel[1] };
	char names[2][128];
	enum compare_status st;
	int i;

	if (!strcmp(o->run, "-") || !strcmp(bo->run_b, "-") || capture_path_is_stream(o->capture)) {
		msgbuf_set(err, errlen, "compare: two boards: RUN_A, RUN_B and CAPTURE are each read "
			   "more than once: give files, not standard input");
		return COMPARE_E_INPUT;
	}
	if (!chan[0] || !chan[1]) {
		st = default_channels(o, names, err, errlen);
		if (st)
			return st;
		if (!chan[0])
			chan[0] = strcmp(chan[1] ? chan[1] : "", names[0]) ? names[0] : names[1];
		if (!chan[1])
			chan[1] = strcmp(chan[0], names[1]) ? names[1] : names[0];
	}
	for (i = 0; i < 2; i++) {
		st = open_board(&d->b[i], i ? bo->run_b : o->run, o, chan[i], err, errlen);
		if (st)
			return st;
	}
	if ((a->ri.grid == &a->mono || b->ri.grid == &b->mono) &&
	    (a->ri.grid != &a->mono || b->ri.grid != &b->mono || strcmp(a->lines, b->lines) ||
	     strcmp(a->host, b->host) || a->mono.start_ns != b->mono.start_ns)) {
		msgbuf_set(err, errlen, "compare: %s and %s are not two lines of one run (their "
			   "outputs.lines, host or first grid instant differ) and not both on a shared "
			   "grid: run both with --grid realtime (docs/grid.md)", o->run, bo->run_b);
		return COMPARE_E_INPUT;
	}
	if (a->c->ci->channel == b->c->ci->channel) {
		msgbuf_set(err, errlen, "compare: boards A and B are given the same channel (%s)",
			   a->c->ci->channel_name);
		return COMPARE_E_INPUT;
	}
	return COMPARE_OK;
}

/* The verdict: a board that does not agree with its channel decides it
 * first (its own exit code); then no common instant, then the checks. */
static void decide(struct boardsdoc *d)
{
	int i;

	d->decided = true;
	for (i = 0; i < 2; i++) {
		const struct compare *c = d->b[i].c;

		if (c->verdict != COMPARE_AGREE) {
			d->verdict = compare_verdict_name(c->verdict);
			d->exit_code = compare_verdict_exit(c->verdict);
			return;
		}
	}
	d->verdict = "agree";
	d->exit_code = SQW_EXIT_OK;
	if (!d->s.n || d->s.skew_check == BOARDSKEW_FAIL || d->s.clock_check == BOARDSKEW_FAIL) {
		d->verdict = d->s.n ? "disagree" : "no-overlap";
		d->exit_code = SQW_EXIT_LIMIT;
	}
}

enum compare_status boardsdoc_run(struct boardsdoc *d, const struct boardsdoc_opts *bo, char *err,
				  size_t errlen)
{
	enum compare_status st;

	*d = (struct boardsdoc){ .bo = bo, .b = { { .name = "A" }, { .name = "B" } } };
	st = open_boards(d, err, errlen);
	if (st)
		return st;
	d->ready = true;
	if (d->b[0].c->aligned && d->b[1].c->aligned) {
		struct boardskew_side sa = { d->b[0].c, d->b[0].ri.grid };
		struct boardskew_side sb = { d->b[1].c, d->b[1].ri.grid };
		char why[1024];

		switch (boardskew_compute(&sa, &sb, bo->max_skew_ns, &d->s, why, sizeof(why))) {
		case BOARDSKEW_OK:
			break;
		case BOARDSKEW_E_INPUT:
			msgbuf_set(err, errlen, "compare: %s", why);
			return COMPARE_E_INPUT;
		default:
			msgbuf_set(err, errlen, "compare: out of memory joining the boards' edges");
			return COMPARE_E_IO;
		}
		d->joined = true;
	}
	decide(d);
	return COMPARE_OK;
}

void boardsdoc_close(struct boardsdoc *d)
{
	int i;

	if (d->joined)
		boardskew_free(&d->s);
	for (i = 0; i < 2; i++) {
		if (d->b[i].c)
			compare_free(d->b[i].c);
		if (d->b[i].sv)
			soakview_free(d->b[i].sv);
	}
	memset(d, 0, sizeof(*d));
}

static void us(char *buf, size_t len, double ns)
{
	if (isnan(ns))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", ns / 1000);
}


/* ---- text ---- */

static void print_board(FILE *f, const struct boardsdoc_board *b)
{
	const struct compare *c = b->c;
	const struct run_grid *g = b->ri.grid;

	fprintf(f, "board %s    %s: %" PRIu64 " edges, half period %.3f us", b->name, b->o.run,
		   c->records, (double)c->meta->half_period_ns / 1000);
	if (g) {
		fprintf(f, ", grid %s (offset +/- %" PRIu64 " ns", g->clock, g->offset_uncert_ns);
		if (g->sync_known && g->sync.synced)
			fprintf(f, ", synchronised, max error %ld us", g->sync.maxerror_us);
		else if (g->sync_known)
			fprintf(f, ", NOT SYNCHRONISED");
		if (g->steps)
			fprintf(f, ", %u step%s", g->steps, g->steps == 1 ? "" : "s");
		fprintf(f, ")");
	}
	fprintf(f, "\n           channel %s: %s", c->ci->channel_name,
		compare_verdict_name(c->verdict));
	if (c->aligned)
		fprintf(f, ", %zu paired, %zu missing, %zu extra, %zu beyond tolerance, drift %+.1f ppm",
			   c->r.npairs, c->r.nmissing, c->r.nextra, c->r.disagree, c->r.drift_ppm);
	fprintf(f, "\n");
}

static int cmp_worst(const void *x, const void *y)
{
	double a = fabs((*(const struct boardskew_edge *const *)x)->skew_ns);
	double b = fabs((*(const struct boardskew_edge *const *)y)->skew_ns);

	return (a < b) - (a > b);
}

static void print_worst(FILE *f, const struct boardskew *s, unsigned worst)
{
	const struct boardskew_edge **v;
	size_t i, n = s->n < worst ? s->n : worst;
	char a[32], lo[32], hi[32], clo[32], chi[32];

	if (!n || !(v = malloc(s->n * sizeof(*v))))
		return;
	for (i = 0; i < s->n; i++)
		v[i] = &s->e[i];
	qsort(v, s->n, sizeof(*v), cmp_worst);
	fprintf(f, "\nlargest skews (us): grid instant, seq A, seq B, skew, what the windows allow, "
		   "the clocks' share\n");
	for (i = 0; i < n; i++) {
		const struct boardskew_edge *e = v[i];

		us(a, sizeof(a), e->skew_ns);
		us(lo, sizeof(lo), e->lo_ns);
		us(hi, sizeof(hi), e->hi_ns);
		us(clo, sizeof(clo), boardskew_clock_lo(e));
		us(chi, sizeof(chi), boardskew_clock_hi(e));
		fprintf(f, "  %" PRIu64 ".%09" PRIu64 "  %8" PRIu64 " %8" PRIu64
			   "  %10s  [%s, %s]  [%s, %s]%s\n", e->grid_ns / 1000000000u,
			   e->grid_ns % 1000000000u, e->seq_a, e->seq_b, a, lo, hi, clo, chi,
			   e->level_a != e->level_b ? "  opposite polarity" : "");
	}
	free(v);
}

static void print_skew(FILE *f, const struct boardsdoc *x)
{
	const struct boardskew *s = &x->s;
	char a[32], b[32], c[32], d[32], e[32];

	fprintf(f, "\njoined     %zu edges on common grid instants (only A: %zu, only B: %zu, "
		   "opposite polarity: %zu)\n", s->n, s->only_a, s->only_b, s->opposite);
	if (!s->n)
		return;
	us(a, sizeof(a), s->skew_min);
	us(b, sizeof(b), s->skew_p50);
	us(c, sizeof(c), s->skew_p99_abs);
	us(d, sizeof(d), s->skew_max);
	us(e, sizeof(e), s->skew_mean);
	fprintf(f, "skew B-A   min %s  p50 %s  |p99| %s  max %s  mean %s us (capture resolution "
		   "%.3f ns)\n", a, b, c, d, e, s->resolution_ns);
	if (s->phase_diff_ns) {
		us(a, sizeof(a), (double)s->phase_diff_ns);
		fprintf(f, "           B's run.phase - A's = %s us: taken out of every skew (the edges "
			   "meet on the instant they were shifted from)\n", a);
	}
	fprintf(f, "windows    %zu of %zu skews lie outside what both write windows allow "
		   "(slack %.1f ns: both fits' tolerance, both offsets' uncertainty)\n",
		   s->beyond_windows, s->n, s->slack_ns);
	us(a, sizeof(a), s->clock_lower_ns);
	us(b, sizeof(b), s->clock_upper_ns);
	fprintf(f, "clocks     B's grid clock - A's: at least %s us apart at some edge, at most %s us "
		   "at every edge", a, b);
	if (s->common) {
		us(a, sizeof(a), s->common_lo_ns);
		us(b, sizeof(b), s->common_hi_ns);
		fprintf(f, ";\n           a constant offset lies in [%s, %s] us\n", a, b);
	} else {
		fprintf(f, ";\n           no constant offset fits every edge (the clocks moved "
			   "against each other during the capture)\n");
	}
	fprintf(f, "\nchecks\n");
	us(a, sizeof(a), fmax(fabs(s->skew_min), fabs(s->skew_max)));
	if (s->skew_check == BOARDSKEW_NONE) {
		fprintf(f, "  max_skew     -             max |skew| %s us; no limit (--max-skew)\n", a);
	} else {
		us(b, sizeof(b), (double)s->max_skew_ns);
		fprintf(f, "  max_skew     %-12s  max |skew| %s us against %s us",
			   boardskew_check_name(s->skew_check), a, b);
		if (s->skew_over)
			fprintf(f, ": %zu edges beyond it", s->skew_over);
		fprintf(f, "\n");
	}
	if (s->clock_check == BOARDSKEW_SKIP) {
		fprintf(f, "  clock_error  SKIP          %s\n", s->clock_skip);
	} else {
		us(a, sizeof(a), s->clock_lower_ns);
		us(b, sizeof(b), s->clock_upper_ns);
		us(c, sizeof(c), s->clock_bound_ns);
		fprintf(f, "  clock_error  %-12s  the clocks are %s..%s us apart; both claim at most "
			   "%s us (max error A %ld us + B %ld us)\n", boardskew_check_name(s->clock_check),
			   a, b, c, x->b[0].ri.grid->sync.maxerror_us, x->b[1].ri.grid->sync.maxerror_us);
	}
	print_worst(f, s, x->bo->o->worst);
}

/* ---- JSON ---- */

static void json_board(struct json_writer *w, const struct boardsdoc_board *b)
{
	const struct compare *c = b->c;
	const struct run_grid *g = b->ri.grid;
	struct comparedoc_alignment a;

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
	comparedoc_alignment_of(c, COMPAREDOC_BOARD, &a);
	comparedoc_json_alignment(w, &a);
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

void boardsdoc_json(struct json_writer *w, const void *boardsdoc)
{
	const struct boardsdoc *x = boardsdoc;
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

static void print_verdict(FILE *f, const struct boardsdoc *d)
{
	fprintf(f, "\nverdict    %s", !strcmp(d->verdict, "agree") ? "AGREE"
		: d->exit_code == SQW_EXIT_LIMIT ? "DISAGREE" : "UNDECIDED");
	if (strcmp(d->verdict, "agree"))
		fprintf(f, " (%s)", d->verdict);
	fprintf(f, "\n");
}

void boardsdoc_print_text(FILE *f, const struct boardsdoc *d)
{
	const struct capture_info *ci;

	if (!d->ready)
		return;
	ci = d->b[0].c->ci;
	fprintf(f, "==== sqwave compare: two boards ====\n");
	print_board(f, &d->b[0]);
	print_board(f, &d->b[1]);
	fprintf(f, "capture    %s (%s, resolution %.3f ns)\n", ci->path, ci->format,
		capture_ps_to_ns(ci->resolution_ps));
	if (d->joined)
		print_skew(f, d);
	if (d->decided)
		print_verdict(f, d);
}

/* ---- CSV ---- */

int boardsdoc_write_csv(const char *path, const struct boardsdoc *d, char *err, size_t errlen)
{
	const struct boardskew *s = &d->s;
	FILE *f = outfile_open(path, err, errlen);
	size_t i;

	if (!f)
		return -1;
	fprintf(f, "intended_grid_ns,seq_a,seq_b,level_a,level_b,skew_ns,allowed_lo_ns,"
		   "allowed_hi_ns,clock_lo_ns,clock_hi_ns\n");
	for (i = 0; i < s->n; i++) {
		const struct boardskew_edge *e = &s->e[i];

		fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%u,%.3f,%.3f,%.3f,%.3f,%.3f\n",
			e->grid_ns, e->seq_a, e->seq_b, e->level_a, e->level_b, e->skew_ns, e->lo_ns,
			e->hi_ns, boardskew_clock_lo(e), boardskew_clock_hi(e));
	}
	return outfile_close(f, path, err, errlen);
}
