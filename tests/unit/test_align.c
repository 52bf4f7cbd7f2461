/* SPDX-License-Identifier: GPL-2.0-or-later */
/* align: synthetic runs and captures of a window of them (offset, drift,
 * quantization, missing and extra edges), and what compare must say. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare/align.h"

#define HALF 500000             /* ns: 1 kHz */
#define T0   5000000000ll       /* intended time of slot 0 */
#define RES_PS (10 * CAPTURE_PS_PER_NS) /* a 100 MSa/s analyzer */

static uint64_t rng_state;
static uint64_t seed;

static uint64_t rnd(void)
{
	/* splitmix64: reproducible from the printed seed */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double urand(void)
{
	return (double)(rnd() >> 11) / 9007199254740992.0;
}

static int group_setup(void **state)
{
	const char *env = getenv("SQW_TEST_SEED");

	(void)state;
	seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
	printf("# test_align: random inputs from seed %" PRIu64 " (SQW_TEST_SEED=%" PRIu64
	       " to repeat)\n", seed, seed);
	return 0;
}

static int reseed(void **state)
{
	(void)state;
	rng_state = seed;
	return 0;
}

/* A run of @n edges, each woken up to @jitter ns late, writing for up to
 * @ww ns. Level 1 on even edges. */
static struct edge_rec *make_run(size_t n, int64_t jitter, int64_t ww)
{
	struct edge_rec *r = calloc(n, sizeof(*r));
	size_t k;

	assert_non_null(r);
	for (k = 0; k < n; k++) {
		int32_t wake = (int32_t)(2000 + (jitter ? (int64_t)(rnd() % (uint64_t)jitter) : 0));
		int32_t w = (int32_t)(ww > 1 ? ww / 2 + (int64_t)(rnd() % (uint64_t)(ww / 2)) : ww);

		r[k].seq = k;
		r[k].intended_ns = (uint64_t)(T0 + (int64_t)k * HALF);
		r[k].wake_off_ns = wake;
		r[k].write_begin_off_ns = wake + 50;
		r[k].write_end_off_ns = wake + 50 + w;
		r[k].expirations = 1;
		r[k].level = (uint8_t)(k % 2 == 0);
	}
	return r;
}

struct cap {
	struct capture_edge *e;
	size_t n;
	int64_t lo_ps, hi_ps;   /* recorded span */
};

/* What an analyzer with resolution @res_ps sees of run edges [first, last]
 * when its clock runs @ppm fast and its time 0 is at run time @zero_ns:
 * each edge somewhere inside its write window, rounded up to a sample. */
static struct cap make_cap(const struct edge_rec *r, size_t first, size_t last,
			   int64_t zero_ns, double ppm, int64_t res_ps)
{
	struct cap c = { .e = calloc(last - first + 9, sizeof(struct capture_edge)) };
	size_t k;

	assert_non_null(c.e);
	for (k = first; k <= last; k++) {
		double wb = (double)edge_write_begin_ns(&r[k]), we = (double)edge_write_end_ns(&r[k]);
		double t = wb + urand() * (we - wb);
		double tc = (t - (double)zero_ns) * (1 + ppm * 1e-6) * (double)CAPTURE_PS_PER_NS;
		struct capture_edge *e = &c.e[c.n++];

		e->t_ps = (int64_t)ceil(tc / (double)res_ps) * res_ps;
		e->sample = -1;
		e->level = r[k].level;
	}
	/* the recording starts 0.3 half periods before the first edge and ends
	 * 0.3 after the last */
	c.lo_ps = c.e[0].t_ps - (int64_t)(0.3 * HALF) * CAPTURE_PS_PER_NS;
	c.hi_ps = c.e[c.n - 1].t_ps + (int64_t)(0.3 * HALF) * CAPTURE_PS_PER_NS;
	return c;
}

static struct align_params params(void)
{
	struct align_params p = { .resolution_ps = RES_PS, .tolerance_ns = -1, .first_seq = -1 };

	return p;
}

static void cap_delete(struct cap *c, size_t i)
{
	memmove(&c->e[i], &c->e[i + 1], (c->n - i - 1) * sizeof(c->e[0]));
	c->n--;
}

static void cap_insert(struct cap *c, size_t i, int64_t t_ps, uint8_t level)
{
	memmove(&c->e[i + 1], &c->e[i], (c->n - i) * sizeof(c->e[0]));
	c->e[i].t_ps = t_ps;
	c->e[i].level = level;
	c->e[i].sample = -1;
	c->e[i].flags = 0;
	c->n++;
}

static void a_whole_run_with_an_offset_aligns_with_every_edge_inside_its_window(void **state)
{
	struct edge_rec *r = make_run(4000, 20000, 400);
	struct cap c = make_cap(r, 0, 3999, T0 + 1234567, 0, RES_PS);
	struct align_params p = params();
	struct align_window w;
	struct align_result res;
	size_t i;

	(void)state;
	assert_int_equal(align_run(r, 4000, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_FOUND);
	assert_int_equal(w.candidates, 1);
	assert_false(res.inverted);
	assert_int_equal(res.npairs, 4000);
	assert_int_equal(res.nmissing, 0);
	assert_int_equal(res.nextra, 0);
	assert_int_equal(res.disagree, 0);
	assert_int_equal(res.first_seq, 0);
	assert_int_equal(res.last_seq, 3999);
	assert_true(fabs(res.drift_ppm) < 1.0);
	/* capture time 0 is run time T0 + 1234567: the offset says so */
	assert_true(fabs(res.offset_ns - ((double)res.ref_ns - (T0 + 1234567))) < 500);
	for (i = 0; i < c.n; i++) {
		struct align_pair pr;

		assert_true(align_pair_of(&res, i, &pr));
		assert_int_equal(pr.cap, i);
		assert_int_equal(pr.run, i);
	}
	align_result_free(&res);
	free(c.e);
	free(r);
}

static void a_37_ppm_drift_is_fitted_to_a_fraction_of_a_ppm(void **state)
{
	const size_t n = 40000;   /* 20 s */
	struct edge_rec *r = make_run(n, 30000, 300);
	struct cap c = make_cap(r, 100, n - 100, T0 + 777000, 37.0, RES_PS);
	struct align_params p = params();
	struct align_window w;
	struct align_result res;

	(void)state;
	assert_int_equal(align_run(r, n, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_FOUND);
	assert_true(fabs(res.drift_ppm - 37.0) < 0.1);
	assert_int_equal(res.nmissing, 0);
	assert_int_equal(res.nextra, 0);
	assert_int_equal(res.disagree, 0);
	assert_int_equal(res.first_seq, 100);
	assert_int_equal(res.last_seq, n - 100);
	align_result_free(&res);
	free(c.e);
	free(r);
}

static void a_partial_window_says_which_seqs_it_covers(void **state)
{
	const size_t n = 20000;
	struct edge_rec *r = make_run(n, 20000, 500);
	struct cap c = make_cap(r, 7001, 9000, T0 + 3500000000ll, -12.0, RES_PS);
	struct align_params p = params();
	struct align_window w;
	struct align_result res;

	(void)state;
	assert_int_equal(align_run(r, n, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_FOUND);
	assert_int_equal(res.first_seq, 7001);
	assert_int_equal(res.last_seq, 9000);
	assert_int_equal(res.covered, 2000);
	assert_int_equal(res.npairs, 2000);
	{
		struct align_pair pr;

		assert_true(align_pair_of(&res, 0, &pr));
		assert_int_equal(pr.run, 7001);
	}
	assert_int_equal(res.nmissing + res.nextra + res.disagree, 0);
	/* the search kept only a window of the run for pass 2 */
	assert_true(w.keep_lo_ns > (int64_t)r[0].intended_ns);
	assert_true(w.keep_hi_ns < (int64_t)r[n - 1].intended_ns);
	align_result_free(&res);
	free(c.e);
	free(r);
}

static void a_short_pulse_the_capture_missed_is_two_missing_edges(void **state)
{
	const size_t n = 10000;
	struct edge_rec *r = make_run(n, 20000, 300);
	struct cap c = make_cap(r, 2000, 5999, T0, 5.0, RES_PS);
	struct align_params p = params();
	struct align_window w;
	struct align_result res;

	(void)state;
	/* capture edges 1500, 1501 are run seqs 3500, 3501 */
	cap_delete(&c, 1500);
	cap_delete(&c, 1500);
	assert_int_equal(align_run(r, n, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_FOUND);
	assert_int_equal(res.nmissing, 2);
	{
		size_t m0 = align_missing_next(&res, 0), m1 = align_missing_next(&res, m0 + 1);

		assert_int_equal(r[m0].seq, 3500);
		assert_int_equal(r[m1].seq, 3501);
		assert_int_equal(align_missing_next(&res, m1 + 1), SIZE_MAX);
	}
	assert_int_equal(res.nextra, 0);
	assert_int_equal(res.disagree, 0);
	assert_int_equal(res.first_seq, 2000);
	assert_int_equal(res.last_seq, 5999);
	align_result_free(&res);
	free(c.e);
	free(r);
}

static void a_glitch_only_the_capture_saw_is_two_extra_edges(void **state)
{
	const size_t n = 10000;
	struct edge_rec *r = make_run(n, 20000, 300);
	struct cap c = make_cap(r, 1000, 4999, T0 - 1000000, -25.0, RES_PS);
	struct align_params p = params();
	struct align_window w;
	struct align_result res;
	int64_t t;
	size_t i;

	(void)state;
	/* capture edge 800 rises (run seq 1800); a 3 us dip 300 us into the
	 * pulse, and another one 20 us before the pulse ends */
	t = c.e[800].t_ps + 300000 * CAPTURE_PS_PER_NS;
	cap_insert(&c, 801, t, 0);
	cap_insert(&c, 802, t + 3000 * CAPTURE_PS_PER_NS, 1);
	t = c.e[803].t_ps - 20000 * CAPTURE_PS_PER_NS;
	cap_insert(&c, 803, t, 0);
	cap_insert(&c, 804, t + 3000 * CAPTURE_PS_PER_NS, 1);
	assert_int_equal(align_run(r, n, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_FOUND);
	assert_int_equal(res.nextra, 4);
	{
		size_t x = 0;

		for (i = 0; i < 4; i++) {
			x = align_extra_next(&res, i ? x + 1 : 0);
			assert_int_equal(x, 801 + i);
		}
		assert_int_equal(align_extra_next(&res, x + 1), SIZE_MAX);
	}
	assert_int_equal(res.nmissing, 0);
	assert_int_equal(res.disagree, 0);
	assert_int_equal(res.npairs, 4000);
	align_result_free(&res);
	free(c.e);
	free(r);
}

static void an_edge_20us_off_its_window_disagrees_and_is_named(void **state)
{
	const size_t n = 6000;
	struct edge_rec *r = make_run(n, 20000, 300);
	struct cap c = make_cap(r, 0, n - 1, T0 + 42, 0, RES_PS);
	struct align_params p = params();
	struct align_window w;
	struct align_result res;
	size_t i, hits = 0;

	(void)state;
	c.e[3333].t_ps += 20000 * CAPTURE_PS_PER_NS;
	assert_int_equal(align_run(r, n, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_FOUND);
	assert_int_equal(res.disagree, 1);
	for (i = 0; i < c.n; i++) {
		struct align_pair pr;

		if (align_pair_of(&res, i, &pr) && fabs(pr.residual_ns) > res.tolerance_ns) {
			assert_int_equal(r[pr.run].seq, 3333);
			assert_true(pr.residual_ns > 19000 && pr.residual_ns < 20500);
			assert_true(pr.outlier);
			hits++;
		}
	}
	assert_int_equal(hits, 1);
	align_result_free(&res);
	free(c.e);
	free(r);
}

static void a_perfect_wave_is_ambiguous_and_says_how_many_places_fit(void **state)
{
	const size_t n = 5000;
	struct edge_rec *r = make_run(n, 0, 200);
	struct cap c;
	struct align_params p = params();
	struct align_window w;
	struct align_result res;
	size_t k;

	(void)state;
	for (k = 0; k < n; k++) {       /* identical windows: all widths equal */
		r[k].write_begin_off_ns = 2000;
		r[k].write_end_off_ns = 2200;
	}
	c = make_cap(r, 1000, 1999, T0, 0, RES_PS);
	assert_int_equal(align_run(r, n, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_AMBIGUOUS);
	assert_int_equal(w.status, ALIGN_AMBIGUOUS);
	assert_true(w.candidates > 1000);
	align_result_free(&res);

	/* told where the capture starts, it aligns */
	p.first_seq = 1000;
	assert_int_equal(align_run(r, n, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_FOUND);
	assert_int_equal(res.first_seq, 1000);
	assert_int_equal(res.last_seq, 1999);
	assert_int_equal(res.nmissing + res.nextra + res.disagree, 0);
	align_result_free(&res);
	free(c.e);
	free(r);
}

static void a_capture_of_another_run_has_no_overlap(void **state)
{
	const size_t n = 8000;
	struct edge_rec *r = make_run(n, 20000, 300);
	struct edge_rec *other = make_run(2000, 20000, 300);
	struct cap c = make_cap(other, 0, 1999, T0, 0, RES_PS);
	struct align_params p = params();
	struct align_window w;
	struct align_result res;

	(void)state;
	assert_int_equal(align_run(r, n, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_NO_OVERLAP);
	assert_int_equal(w.candidates, 0);
	assert_string_equal(align_status_name(res.status), "no-overlap");
	align_result_free(&res);
	free(c.e);
	free(other);
	free(r);
}

static void an_inverted_probe_is_found_and_said(void **state)
{
	const size_t n = 6000;
	struct edge_rec *r = make_run(n, 20000, 300);
	struct cap c = make_cap(r, 500, 2500, T0, 3.0, RES_PS);
	struct align_params p = params();
	struct align_window w;
	struct align_result res;
	size_t i;

	(void)state;
	for (i = 0; i < c.n; i++)
		c.e[i].level ^= 1;
	assert_int_equal(align_run(r, n, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_FOUND);
	assert_true(res.inverted);
	assert_int_equal(res.first_seq, 500);
	assert_int_equal(res.nmissing + res.nextra + res.disagree, 0);
	align_result_free(&res);
	free(c.e);
	free(r);
}

static void too_few_capture_edges_is_said(void **state)
{
	struct edge_rec *r = make_run(100, 20000, 300);
	struct cap c = make_cap(r, 10, 11, T0, 0, RES_PS);
	struct align_params p = params();
	struct align_window w;
	struct align_result res;

	(void)state;
	assert_int_equal(align_run(r, 100, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_TOO_FEW);
	align_result_free(&res);
	free(c.e);
	free(r);
}

static void a_coarse_analyzer_still_aligns_within_its_resolution(void **state)
{
	const size_t n = 8000;
	const int64_t res_ps = 2000 * CAPTURE_PS_PER_NS; /* 500 kSa/s */
	struct edge_rec *r = make_run(n, 40000, 300);
	struct cap c = make_cap(r, 3000, 5000, T0 + 99, 80.0, res_ps);
	struct align_params p = params();
	struct align_window w;
	struct align_result res;

	(void)state;
	p.resolution_ps = res_ps;
	assert_int_equal(align_run(r, n, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_FOUND);
	assert_int_equal(res.first_seq, 3000);
	assert_int_equal(res.nmissing + res.nextra + res.disagree, 0);
	assert_true(fabs(res.drift_ppm - 80.0) < 5);
	align_result_free(&res);
	free(c.e);
	free(r);
}

/* Edge @k of @r was preempted inside its write: its window is 3 ms wide, and
 * the periods it overran were missed (the later edges move 6 slots on). */
static void stall_write(struct edge_rec *r, size_t n, size_t k)
{
	const int64_t stall = 3000000;

	r[k].write_end_off_ns = r[k].write_begin_off_ns + (int32_t)stall;
	for (size_t j = k + 1; j < n; j++)
		r[j].intended_ns += (uint64_t)stall;
	r[k + 1].expirations = (uint16_t)(1 + stall / HALF);
}

static void an_edge_late_in_a_3ms_write_window_is_paired_by_its_own_window(void **state)
{
	const size_t n = 6000, first = 500, last = 5499;
	/* the pin changed at 99 %, 1 %, 99 % and 99.5 % of the stalled windows:
	 * the nearest midpoint of the same level is the next (or previous)
	 * pulse's, but only this edge's window holds the change */
	const size_t stalled[] = { 1500, 2500, 3500, 4501 };
	const double at[] = { 0.99, 0.01, 0.99, 0.995 };
	struct edge_rec *r = make_run(n, 20000, 300);
	struct cap c;
	struct align_params p = params();
	struct align_window w;
	struct align_result res;
	size_t i, j;

	(void)state;
	for (j = 0; j < 4; j++)
		stall_write(r, n, stalled[j]);
	c = make_cap(r, first, last, T0 - 2000000, 3.0, RES_PS);
	for (j = 0; j < 4; j++) {
		const struct edge_rec *e = &r[stalled[j]];
		double wb = (double)edge_write_begin_ns(e), we = (double)edge_write_end_ns(e);
		double t = (wb + at[j] * (we - wb) - (double)(T0 - 2000000)) * (1 + 3.0e-6);

		c.e[stalled[j] - first].t_ps = (int64_t)ceil(t * CAPTURE_PS_PER_NS / RES_PS) * RES_PS;
	}
	assert_int_equal(align_run(r, n, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_FOUND);
	assert_int_equal(res.npairs, c.n);
	assert_int_equal(res.nmissing, 0);
	assert_int_equal(res.nextra, 0);
	assert_int_equal(res.disagree, 0);
	for (i = 0; i < c.n; i++) {
		struct align_pair pr;

		assert_true(align_pair_of(&res, i, &pr));
		assert_int_equal(pr.run, first + i);
		assert_true(fabs(pr.residual_ns) <= res.tolerance_ns);
	}
	align_result_free(&res);
	free(c.e);
	free(r);
}

/* The capture's first edge is named as the run's first (--first-seq 0), and
 * that edge's write was preempted for 3 ms, the pin changing near the end of
 * it (an emulated board: tests/vm's run-compare). From the seed's window
 * alone the offset is known to 3 ms, six pulses: the walk must take it from
 * the block of narrow windows after the seed, not pair the next edges from
 * the middle of that interval and keep a shift of six edges. */
static void a_seed_in_a_3ms_write_window_keeps_every_edge_on_its_own(void **state)
{
	const size_t n = 4000;
	struct edge_rec *r = make_run(n, 20000, 300);
	struct cap c;
	struct align_params p = params();
	struct align_window w;
	struct align_result res;
	size_t i;

	(void)state;
	stall_write(r, n, 0);
	c = make_cap(r, 0, n - 1, T0 - 2000000, 0.0, RES_PS);
	{
		double wb = (double)edge_write_begin_ns(&r[0]), we = (double)edge_write_end_ns(&r[0]);
		double t = wb + 0.97 * (we - wb) - (double)(T0 - 2000000);

		c.e[0].t_ps = (int64_t)ceil(t * CAPTURE_PS_PER_NS / RES_PS) * RES_PS;
	}
	p.first_seq = 0;
	assert_int_equal(align_run(r, n, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_FOUND);
	assert_int_equal(res.npairs, c.n);
	assert_int_equal(res.nmissing, 0);
	assert_int_equal(res.nextra, 0);
	assert_int_equal(res.disagree, 0);
	for (i = 0; i < c.n; i++) {
		struct align_pair pr;

		assert_true(align_pair_of(&res, i, &pr));
		assert_int_equal(pr.run, i);
	}
	align_result_free(&res);
	free(c.e);
	free(r);
}

/* Writes of mixed widths, the pin changing at different places in them:
 * one write in twenty is 100 ns with the change in its middle, the others
 * 300 ns with the change 5 % in (a chip whose ioctl returns slowly, like
 * the simulated one). A line through the windows' midpoints sits about
 * 90 ns early and puts the narrow writes' changes outside their windows; the
 * offset must be one the windows allow: every edge inside its own,
 * nothing beyond the tolerance. */
static void changes_early_in_writes_of_mixed_widths_all_fall_inside_their_windows(void **state)
{
	const size_t n = 4000;
	struct edge_rec *r = make_run(n, 20000, 0);
	struct cap c;
	struct align_params p = params();
	struct align_window w;
	struct align_result res;
	const int64_t zero = T0 - 1000000;
	size_t k;

	(void)state;
	for (k = 0; k < n; k++)
		r[k].write_end_off_ns = r[k].write_begin_off_ns + (k % 20 == 0 ? 100 : 300);
	c = make_cap(r, 0, n - 1, zero, 4.0, RES_PS);
	for (k = 0; k < n; k++) {
		double wb = (double)edge_write_begin_ns(&r[k]), we = (double)edge_write_end_ns(&r[k]);
		double at = k % 20 == 0 ? 0.5 : 0.05;
		double t = (wb + at * (we - wb) - (double)zero) * (1 + 4.0e-6);

		c.e[k].t_ps = (int64_t)ceil(t * CAPTURE_PS_PER_NS / RES_PS) * RES_PS;
	}
	assert_int_equal(align_run(r, n, c.e, c.n, c.lo_ps, c.hi_ps, &p, &w, &res), 0);
	assert_int_equal(res.status, ALIGN_FOUND);
	assert_int_equal(res.npairs, n);
	assert_int_equal(res.disagree, 0);
	assert_int_equal(res.nmissing, 0);
	assert_int_equal(res.nextra, 0);
	align_result_free(&res);
	free(c.e);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(a_whole_run_with_an_offset_aligns_with_every_edge_inside_its_window, reseed),
		cmocka_unit_test_setup(a_37_ppm_drift_is_fitted_to_a_fraction_of_a_ppm, reseed),
		cmocka_unit_test_setup(a_partial_window_says_which_seqs_it_covers, reseed),
		cmocka_unit_test_setup(a_short_pulse_the_capture_missed_is_two_missing_edges, reseed),
		cmocka_unit_test_setup(a_glitch_only_the_capture_saw_is_two_extra_edges, reseed),
		cmocka_unit_test_setup(an_edge_20us_off_its_window_disagrees_and_is_named, reseed),
		cmocka_unit_test_setup(a_perfect_wave_is_ambiguous_and_says_how_many_places_fit, reseed),
		cmocka_unit_test_setup(a_capture_of_another_run_has_no_overlap, reseed),
		cmocka_unit_test_setup(an_inverted_probe_is_found_and_said, reseed),
		cmocka_unit_test_setup(too_few_capture_edges_is_said, reseed),
		cmocka_unit_test_setup(a_coarse_analyzer_still_aligns_within_its_resolution, reseed),
		cmocka_unit_test_setup(an_edge_late_in_a_3ms_write_window_is_paired_by_its_own_window, reseed),
		cmocka_unit_test_setup(a_seed_in_a_3ms_write_window_keeps_every_edge_on_its_own, reseed),
		cmocka_unit_test_setup(changes_early_in_writes_of_mixed_widths_all_fall_inside_their_windows, reseed),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
