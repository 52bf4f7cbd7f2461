/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two-board comparisons as rows of report's second table (boardpair.h). */
#include "report/boardpair.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/outfile.h"

/* The newest sqwave-compare schema_version read here. */
#define BOARD_PAIR_READS_VERSION 1
/* Figures beyond 1e15 ns (11 days) are no skew of two boards on one grid. */
#define BP_MAX 1e15

#define K DOCREAD_KEYS

static void copy_clean(char *dst, size_t len, const char *s)
{
	outfile_escape(s ? s : "", dst, len);
}

bool board_pair_is_doc(const struct jv *doc)
{
	return !strcmp(jv_str(jv_get(doc, "schema"), ""), "sqwave-compare") &&
	       !strcmp(jv_str(jv_get(doc, "mode"), ""), "boards");
}

/* A check's state: one of @allowed (NULL-terminated), copied to @dst. */
static void read_state(struct docread *d, const struct jv *checks, const char *name,
		       const char *const *allowed, char *dst, size_t len)
{
	const char *const keys[] = { name, "state", NULL };
	const struct jv *v = docread_get(d, checks, keys, JV_STRING);
	size_t i;

	snprintf(dst, len, "-");
	if (!v) {
		if (!d->bad)
			docread_fail(d, checks, keys, "is missing");
		return;
	}
	for (i = 0; allowed[i]; i++) {
		if (!strcmp(v->str, allowed[i])) {
			snprintf(dst, len, "%s", allowed[i]);
			return;
		}
	}
	docread_fail(d, v, keys, "is not a state compare writes");
}

/* A figure within +/- BP_MAX into *@out; true when given. */
static bool read_ns(struct docread *d, const struct jv *obj, const char *const *keys, double *out)
{
	if (!docread_num(d, obj, keys, out))
		return false;
	if (fabs(*out) <= BP_MAX)
		return true;
	docread_fail(d, docread_get(d, obj, keys, JV_NUMBER), keys,
		     "must be within 1e15 ns either way");
	return false;
}

static void read_skew(struct docread *d, const struct jv *s, struct board_pair *p)
{
	static const char *const skew_states[] = { "NONE", "PASS", "FAIL", "INCONCLUSIVE", NULL };
	static const char *const clock_states[] = { "PASS", "FAIL", "INCONCLUSIVE", "SKIP", NULL };
	const struct jv *checks;
	int64_t v;

	p->joined_known = true;
	p->joined = (uint64_t)docread_int_or(d, s, K("joined"), 0, INT64_MAX, 0);
	p->only_a = (uint64_t)docread_int_or(d, s, K("only_a"), 0, INT64_MAX, 0);
	p->only_b = (uint64_t)docread_int_or(d, s, K("only_b"), 0, INT64_MAX, 0);
	p->opposite = (uint64_t)docread_int_or(d, s, K("opposite_polarity"), 0, INT64_MAX, 0);
	p->beyond_windows = (uint64_t)docread_int_or(d, s, K("beyond_windows"), 0, INT64_MAX, 0);
	p->have_skew = read_ns(d, s, K("p50_ns"), &p->p50_ns) &
		       read_ns(d, s, K("p99_abs_ns"), &p->p99_abs_ns) &
		       read_ns(d, s, K("min_ns"), &p->min_ns) & read_ns(d, s, K("max_ns"), &p->max_ns) &
		       read_ns(d, s, K("clock_offset", "lower_bound_ns"), &p->clock_lower_ns) &
		       read_ns(d, s, K("clock_offset", "upper_bound_ns"), &p->clock_upper_ns);
	if (p->have_skew != (p->joined > 0) && !d->bad)
		docread_fail(d, s, K("joined"), "disagrees with the skew figures (given for joined "
			     "edges only)");
	p->have_common = read_ns(d, s, K("clock_offset", "common_lo_ns"), &p->common_lo_ns) &
			 read_ns(d, s, K("clock_offset", "common_hi_ns"), &p->common_hi_ns);
	p->have_claim = read_ns(d, s, K("clock_offset", "claimed_bound_ns"), &p->claimed_ns);
	checks = docread_get(d, s, K("checks"), JV_OBJECT);
	if (!checks) {
		if (!d->bad)
			docread_fail(d, s, K("checks"), "is missing");
		return;
	}
	read_state(d, checks, "max_skew", skew_states, p->skew_state, sizeof(p->skew_state));
	if (docread_int(d, checks, K("max_skew", "limit_ns"), 1, INT64_MAX, &v))
		p->skew_limit_ns = v;
	read_state(d, checks, "clock_error", clock_states, p->clock_state, sizeof(p->clock_state));
	copy_clean(p->clock_why, sizeof(p->clock_why),
		   docread_str_or(d, checks, K("clock_error", "why"), ""));
}

bool board_pair_read(struct docread *d, const struct jv *doc, struct board_pair *p)
{
	const struct jv *boards, *skew;
	int64_t version = 0;
	size_t i;

	memset(p, 0, sizeof(*p));
	copy_clean(p->source, sizeof(p->source), d->source);
	if (!docread_int(d, doc, K("schema_version"), 1, INT64_MAX, &version)) {
		if (!d->bad)
			docread_fail(d, NULL, K("schema_version"), "is missing");
		return false;
	}
	if (version > BOARD_PAIR_READS_VERSION) {
		docread_fail(d, jv_get(doc, "schema_version"), K("schema_version"),
			     "is newer than this sqwave reads (1): a newer sqwave wrote it");
		return false;
	}
	boards = docread_get(d, doc, K("boards"), JV_ARRAY);
	if (jv_len(boards) != 2) {
		if (!d->bad)
			docread_fail(d, boards, K("boards"), "must hold two boards, A and B");
		return false;
	}
	for (i = 0; i < 2 && !d->bad; i++) {
		const struct jv *b = jv_at(boards, i);

		snprintf(d->where, sizeof(d->where), "boards[%zu].", i);
		if (b->type != JV_OBJECT) {
			docread_fail(d, b, K("boards"), "must hold objects");
			break;
		}
		docread_label_of(p->label[i], sizeof(p->label[i]),
				 docread_str_or(d, b, K("path"), "?"));
		copy_clean(p->channel[i], sizeof(p->channel[i]),
			   docread_str_or(d, b, K("channel"), "?"));
		copy_clean(p->board_verdict[i], sizeof(p->board_verdict[i]),
			   docread_str_or(d, b, K("verdict"), "?"));
		if (!i)
			copy_clean(p->clock, sizeof(p->clock),
				   docread_str_or(d, b, K("grid", "clock"), "?"));
	}
	d->where[0] = '\0';
	skew = docread_get(d, doc, K("skew"), JV_OBJECT);
	if (skew) {
		snprintf(d->where, sizeof(d->where), "skew.");
		read_skew(d, skew, p);
		d->where[0] = '\0';
	}
	copy_clean(p->verdict, sizeof(p->verdict), docread_str_or(d, doc, K("verdict"), ""));
	if (!p->verdict[0] && !d->bad)
		docread_fail(d, NULL, K("verdict"), "is missing");
	p->exit_code = (int)docread_int_or(d, doc, K("exit_code"), 0, 3, -1);
	if (p->exit_code < 0 && !d->bad)
		docread_fail(d, NULL, K("exit_code"), "is missing");
	return !d->bad;
}

const char *board_pair_verdict(const struct board_pair *p)
{
	if (p->exit_code != 0 || strcmp(p->verdict, "agree"))
		return "FAIL";
	if (!strcmp(p->skew_state, "INCONCLUSIVE") || !strcmp(p->clock_state, "INCONCLUSIVE"))
		return "INCONCLUSIVE";
	if (!strcmp(p->skew_state, "PASS") || !strcmp(p->clock_state, "PASS"))
		return "PASS";
	return "NO LIMITS";
}

/* ---- the table ---- */

enum {
	C_A, C_B, C_GRID, C_JOINED, C_ONLY, C_P50, C_P99, C_RANGE, C_OUTSIDE, C_CLOCKS,
	C_COMMON, C_MAX_SKEW, C_CLOCK_ERROR, C_VERDICT
};
static const struct {
	const char *head;
	bool right;
} cols[BOARD_PAIR_NCOLS] = {
	[C_A] = { "board A", false },
	[C_B] = { "board B", false },
	[C_GRID] = { "grid", false },
	[C_JOINED] = { "joined", true },
	[C_ONLY] = { "only A/B", true },
	[C_P50] = { "skew p50 us", true },
	[C_P99] = { "|skew| p99 us", true },
	[C_RANGE] = { "skew min..max us", true },
	[C_OUTSIDE] = { "beyond windows", true },
	[C_CLOCKS] = { "clocks apart us", true },
	[C_COMMON] = { "common offset us", true },
	[C_MAX_SKEW] = { "max_skew", false },
	[C_CLOCK_ERROR] = { "clock_error", false },
	[C_VERDICT] = { "verdict", false },
};

const char *board_pair_head(size_t col, bool *right)
{
	*right = cols[col].right;
	return cols[col].head;
}

static void us(char *c, size_t len, double ns)
{
	snprintf(c, len, "%.3f", ns / 1000);
}

void board_pair_cells(const struct board_pair *p, char c[][BOARD_PAIR_CELL])
{
	char a[64], b[64];
	size_t k;
	int i;

	for (k = 0; k < BOARD_PAIR_NCOLS; k++)
		snprintf(c[k], BOARD_PAIR_CELL, "-");
	for (i = 0; i < 2; i++)
		snprintf(c[C_A + i], BOARD_PAIR_CELL, "%s (%s)%s%s", p->label[i], p->channel[i],
			 strcmp(p->board_verdict[i], "agree") ? ": " : "",
			 strcmp(p->board_verdict[i], "agree") ? p->board_verdict[i] : "");
	snprintf(c[C_GRID], BOARD_PAIR_CELL, "%s", p->clock);
	if (p->joined_known) {
		snprintf(c[C_JOINED], BOARD_PAIR_CELL, "%" PRIu64, p->joined);
		snprintf(c[C_ONLY], BOARD_PAIR_CELL, "%" PRIu64 "/%" PRIu64, p->only_a, p->only_b);
	}
	if (p->have_skew) {
		us(c[C_P50], BOARD_PAIR_CELL, p->p50_ns);
		us(c[C_P99], BOARD_PAIR_CELL, p->p99_abs_ns);
		us(a, sizeof(a), p->min_ns);
		us(b, sizeof(b), p->max_ns);
		snprintf(c[C_RANGE], BOARD_PAIR_CELL, "%s..%s", a, b);
		snprintf(c[C_OUTSIDE], BOARD_PAIR_CELL, "%" PRIu64, p->beyond_windows);
		us(a, sizeof(a), p->clock_lower_ns);
		us(b, sizeof(b), p->clock_upper_ns);
		snprintf(c[C_CLOCKS], BOARD_PAIR_CELL, "%s..%s", a, b);
		if (p->have_common) {
			us(a, sizeof(a), p->common_lo_ns);
			us(b, sizeof(b), p->common_hi_ns);
			snprintf(c[C_COMMON], BOARD_PAIR_CELL, "%s..%s", a, b);
		} else {
			snprintf(c[C_COMMON], BOARD_PAIR_CELL, "none (moved)");
		}
	}
	if (p->skew_limit_ns) {
		us(a, sizeof(a), (double)p->skew_limit_ns);
		snprintf(c[C_MAX_SKEW], BOARD_PAIR_CELL, "%s (%s us)", p->skew_state, a);
	} else if (p->joined_known && strcmp(p->skew_state, "NONE")) {
		snprintf(c[C_MAX_SKEW], BOARD_PAIR_CELL, "%s", p->skew_state);
	}
	if (p->joined_known) {
		if (p->have_claim) {
			us(a, sizeof(a), p->claimed_ns);
			snprintf(c[C_CLOCK_ERROR], BOARD_PAIR_CELL, "%s (claimed %s us)",
				 p->clock_state, a);
		} else {
			snprintf(c[C_CLOCK_ERROR], BOARD_PAIR_CELL, "%s%s%s", p->clock_state,
				 p->clock_why[0] ? ": " : "", p->clock_why);
		}
	}
	snprintf(c[C_VERDICT], BOARD_PAIR_CELL, "%s%s%s%s", board_pair_verdict(p),
		 strcmp(p->verdict, "agree") ? " (" : "", strcmp(p->verdict, "agree") ? p->verdict : "",
		 strcmp(p->verdict, "agree") ? ")" : "");
}

static void json_ns(struct json_writer *w, const char *key, bool have, double ns)
{
	if (have)
		json_kv_double(w, key, ns);
	else
		json_kv_null(w, key);
}

void board_pair_write_json(struct json_writer *w, const struct board_pair *p)
{
	int i;

	json_object_begin(w);
	json_kv_string(w, "source", p->source);
	json_kv_array_begin(w, "boards");
	for (i = 0; i < 2; i++) {
		json_object_begin(w);
		json_kv_string(w, "label", p->label[i]);
		json_kv_string(w, "channel", p->channel[i]);
		json_kv_string(w, "verdict", p->board_verdict[i]);
		json_object_end(w);
	}
	json_array_end(w);
	json_kv_string(w, "grid_clock", p->clock);
	if (p->joined_known) {
		json_kv_uint(w, "joined", p->joined);
		json_kv_uint(w, "only_a", p->only_a);
		json_kv_uint(w, "only_b", p->only_b);
		json_kv_uint(w, "opposite_polarity", p->opposite);
		json_kv_uint(w, "beyond_windows", p->beyond_windows);
	} else {
		json_kv_null(w, "joined");
	}
	json_ns(w, "skew_p50_ns", p->have_skew, p->p50_ns);
	json_ns(w, "skew_p99_abs_ns", p->have_skew, p->p99_abs_ns);
	json_ns(w, "skew_min_ns", p->have_skew, p->min_ns);
	json_ns(w, "skew_max_ns", p->have_skew, p->max_ns);
	json_ns(w, "clock_lower_bound_ns", p->have_skew, p->clock_lower_ns);
	json_ns(w, "clock_upper_bound_ns", p->have_skew, p->clock_upper_ns);
	json_ns(w, "common_lo_ns", p->have_common, p->common_lo_ns);
	json_ns(w, "common_hi_ns", p->have_common, p->common_hi_ns);
	json_ns(w, "claimed_bound_ns", p->have_claim, p->claimed_ns);
	if (p->joined_known) {
		json_kv_string(w, "max_skew", p->skew_state);
		json_kv_string(w, "clock_error", p->clock_state);
	} else {
		json_kv_null(w, "max_skew");
		json_kv_null(w, "clock_error");
	}
	if (p->skew_limit_ns)
		json_kv_int(w, "max_skew_limit_ns", p->skew_limit_ns);
	else
		json_kv_null(w, "max_skew_limit_ns");
	json_kv_string(w, "compare_verdict", p->verdict);
	json_kv_int(w, "exit_code", p->exit_code);
	json_kv_string(w, "verdict", board_pair_verdict(p));
	json_object_end(w);
}
