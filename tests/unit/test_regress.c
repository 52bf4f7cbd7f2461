/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report --baseline: the statistics against closed-form cases, and the
 * verdicts on runs whose distributions are known by construction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonread.h"
#include "report/regressdoc.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void binomial_cdf_is_the_sum_of_its_terms(void **state)
{
	(void)state;
	NEAR(regress_binom_cdf(2, 10, 0.5), 56.0 / 1024, 1e-12);
	NEAR(regress_binom_cdf(0, 3, 0.1), 0.729, 1e-12);
	NEAR(regress_binom_cdf(10, 10, 0.5), 1, 0);
}

static void ten_values_bound_their_median_by_the_second_and_ninth(void **state)
{
	uint64_t l, u;

	(void)state;
	/* F(1) = 11/1024 <= 2.5 % < F(2) = 56/1024; F(8) = 1013/1024 >= 97.5 % > F(7) */
	regress_quantile_ranks(10, 0.5, 0.95, &l, &u);
	assert_int_equal(l, 2);
	assert_int_equal(u, 9);
}

static void five_values_bound_no_median_at_95_percent(void **state)
{
	uint64_t l, u;

	(void)state;
	/* 1/32 of samples have every value above the median: more than 2.5 % */
	regress_quantile_ranks(5, 0.5, 0.95, &l, &u);
	assert_int_equal(l, 0);
	assert_int_equal(u, 6);
}

static void poisson_intervals_are_garwoods(void **state)
{
	double lo, hi;

	(void)state;
	NEAR(regress_poisson_cdf(2, 1.0), exp(-1) * 2.5, 1e-12);
	regress_poisson_ci(0, 0.95, &lo, &hi);
	NEAR(lo, 0, 0);
	NEAR(hi, -log(0.025), 1e-9);
	regress_poisson_ci(1, 0.95, &lo, &hi);
	NEAR(lo, -log(0.975), 1e-9);
	NEAR(exp(-hi) * (1 + hi), 0.025, 1e-9);
}

static void exceedances_are_counted_as_draws_without_replacement(void **state)
{
	(void)state;
	NEAR(regress_exceed_p(1, 1000, 1000), 0.5, 1e-12);
	NEAR(regress_exceed_p(2, 3, 3), 0.2, 1e-12);
	NEAR(regress_exceed_p(0, 3, 3), 1, 0);
	NEAR(regress_exceed_p(4, 3, 3), 0, 0);
}

static void the_mann_whitney_count_has_its_closed_form_tails(void **state)
{
	(void)state;
	/* every ordering of m + n values is one of C(m + n, m), equally likely */
	NEAR(regress_mw_cdf(0, 3, 3), 1.0 / 20, 1e-12);
	NEAR(regress_mw_cdf(1, 4, 4), 2.0 / 70, 1e-12);
	NEAR(regress_mw_cdf(1, 2, 3), 2.0 / 10, 1e-12);
	NEAR(regress_mw_cdf(9, 3, 3), 1, 0);
	/* beyond 400 pairs, the normal approximation: its median is mn / 2 */
	NEAR(regress_mw_cdf(30 * 30 / 2, 30, 30), 0.5, 0.02);
}

static void three_runs_a_side_bound_no_shift_four_bound_it_by_their_extremes(void **state)
{
	const double a[] = { 10, 20, 15, 12 }, b[] = { 100, 130, 110, 120 }, c[] = { 7, 7, 7, 7 };
	double lo, hi;
	bool bounded;

	(void)state;
	/* 3 a side: all NEW above all OLD happens 1 time in 20, more than 2.5 % */
	assert_int_equal(regress_rank_interval(a, 3, b, 3, 0.95, &bounded, &lo, &hi), 0);
	assert_false(bounded);
	/* 4 a side: 1 in 70; the interval is the least to the largest difference */
	assert_int_equal(regress_rank_interval(a, 4, b, 4, 0.95, &bounded, &lo, &hi), 0);
	assert_true(bounded);
	NEAR(lo, 100 - 20, 0);
	NEAR(hi, 130 - 10, 0);
	assert_int_equal(regress_rank_interval(c, 4, c, 4, 0.95, &bounded, &lo, &hi), 0);
	assert_true(bounded);
	NEAR(lo, 0, 0);
	NEAR(hi, 0, 0);
}

static void a_rank_between_two_knots_lies_between_them(void **state)
{
	struct regress_knot k[] = { { 1, 1, 5, 5 }, { 50, 50, 90, 92 }, { 100, 100, 200, 200 } };
	struct regress_dist d = { .n = 100, .min = 5, .max = 200, .k = k, .nk = 3 };
	int64_t lo, hi;

	(void)state;
	regress_dist_rank(&d, 50, &lo, &hi);
	assert_int_equal(lo, 90);
	assert_int_equal(hi, 92);
	regress_dist_rank(&d, 70, &lo, &hi);
	assert_int_equal(lo, 90);
	assert_int_equal(hi, 200);
}

/* A run of one phase "run" whose @n wake-ups are base + 0..n-1 ns, each
 * rank known exactly (as a log gives them), pulses alike around 500 us,
 * and @missed of @n slots missed. */
static void make_run(struct regress_run *r, const char *name, uint64_t n, int64_t base,
		     uint64_t missed)
{
	struct regress_dist *ds[3];
	size_t i, j;

	memset(r, 0, sizeof(*r));
	snprintf(r->source, sizeof(r->source), "%s", name);
	snprintf(r->label, sizeof(r->label), "%s", name);
	r->from_log = true;
	r->ph = calloc(1, sizeof(*r->ph));
	assert_non_null(r->ph);
	r->nph = 1;
	snprintf(r->ph->name, sizeof(r->ph->name), "run");
	r->ph->edges = n;
	r->ph->missed = missed;
	ds[0] = &r->ph->wake;
	ds[1] = &r->ph->pos;
	ds[2] = &r->ph->neg;
	for (j = 0; j < 3; j++) {
		int64_t b = j ? 500000 : base;

		ds[j]->n = n;
		ds[j]->k = calloc(n, sizeof(*ds[j]->k));
		assert_non_null(ds[j]->k);
		ds[j]->nk = n;
		for (i = 0; i < n; i++)
			ds[j]->k[i] = (struct regress_knot){ i + 1, i + 1, b + (int64_t)i, b + (int64_t)i };
		ds[j]->min = b;
		ds[j]->max = b + (int64_t)n - 1;
	}
}

static const struct regress_row *row_of(const struct regress_result *res, enum regress_fig f)
{
	size_t i;

	for (i = 0; i < res->n; i++)
		if (res->rows[i].fig == f && !strcmp(res->rows[i].phase, "run"))
			return &res->rows[i];
	fail_msg("no row %s", regress_fig_name(f));
	return NULL;
}

static void a_shifted_latency_is_a_regression_of_its_quantiles_only(void **state)
{
	struct regress_run r[2];
	struct regress_result res;
	struct regress_opts o;
	char err[256];

	(void)state;
	regress_opts_default(&o);
	make_run(&r[0], "old", 10000, 10000, 0);
	make_run(&r[1], "new", 10000, 30000, 0);	/* every wake-up 20 us later */
	assert_int_equal(regress_judge(&r[0], 1, &r[1], 1, &o, &res, err, sizeof(err)), 0);
	assert_int_equal(row_of(&res, REGRESS_WAKE_P99)->call, REGRESS_WORSE);
	assert_string_equal(row_of(&res, REGRESS_WAKE_P99)->method, "order statistics");
	{
		/* each side's interval at 97.5 %, so that both hold at 95 %: rank r
		 * is base + r - 1 here */
		uint64_t l, u;

		regress_quantile_ranks(10000, 0.99, 0.975, &l, &u);
		NEAR(row_of(&res, REGRESS_WAKE_P99)->lo, (30000.0 + l - 1) - (10000.0 + u - 1), 0);
		NEAR(row_of(&res, REGRESS_WAKE_P99)->hi, (30000.0 + u - 1) - (10000.0 + l - 1), 0);
	}
	/* a max of one run has no interval: not judged, its exceedances said */
	assert_int_equal(row_of(&res, REGRESS_WAKE_MAX)->call, REGRESS_UNJUDGED);
	assert_true(row_of(&res, REGRESS_WAKE_MAX)->p < 1e-6);
	assert_int_equal(row_of(&res, REGRESS_TMAX_POS)->call, REGRESS_UNJUDGED);	/* an extreme, one run each */
	assert_int_equal(row_of(&res, REGRESS_MISSED)->call, REGRESS_SAME);
	assert_true(regress_any(&res));
	regress_result_free(&res);
	/* the other way round it is an improvement, never a regression */
	assert_int_equal(regress_judge(&r[1], 1, &r[0], 1, &o, &res, err, sizeof(err)), 0);
	assert_int_equal(row_of(&res, REGRESS_WAKE_P99)->call, REGRESS_BETTER);
	assert_false(regress_any(&res));
	regress_result_free(&res);
	regress_run_free(&r[0]);
	regress_run_free(&r[1]);
}

static void a_shift_below_the_step_is_not_a_regression(void **state)
{
	struct regress_run r[2];
	struct regress_result res;
	struct regress_opts o;
	char err[256];

	(void)state;
	regress_opts_default(&o);
	make_run(&r[0], "old", 10000, 10000, 0);
	make_run(&r[1], "new", 10000, 10500, 0);	/* proven, but half a microsecond */
	assert_int_equal(regress_judge(&r[0], 1, &r[1], 1, &o, &res, err, sizeof(err)), 0);
	assert_true(row_of(&res, REGRESS_WAKE_P99)->lo > 0);
	assert_int_equal(row_of(&res, REGRESS_WAKE_P99)->call, REGRESS_SAME);
	assert_false(regress_any(&res));
	regress_result_free(&res);
	regress_run_free(&r[0]);
	regress_run_free(&r[1]);
}

static void missed_periods_are_compared_as_rates(void **state)
{
	struct regress_run r[2];
	struct regress_result res;
	struct regress_opts o;
	char err[256];

	(void)state;
	regress_opts_default(&o);
	make_run(&r[0], "old", 10000, 10000, 0);
	make_run(&r[1], "new", 10000, 10000, 3);	/* 300 ppm from 3 counts: not proven */
	assert_int_equal(regress_judge(&r[0], 1, &r[1], 1, &o, &res, err, sizeof(err)), 0);
	assert_int_equal(row_of(&res, REGRESS_MISSED)->call, REGRESS_SAME);
	regress_result_free(&res);
	r[1].ph->missed = 200;
	assert_int_equal(regress_judge(&r[0], 1, &r[1], 1, &o, &res, err, sizeof(err)), 0);
	assert_int_equal(row_of(&res, REGRESS_MISSED)->call, REGRESS_WORSE);
	assert_string_equal(row_of(&res, REGRESS_MISSED)->method, "poisson");
	regress_result_free(&res);
	/* a rate: the same 100 missed over a hundred times the slots is better */
	r[0].ph->missed = 100;
	r[0].ph->edges = 10000;
	r[1].ph->missed = 100;
	r[1].ph->edges = 1000000;
	assert_int_equal(regress_judge(&r[0], 1, &r[1], 1, &o, &res, err, sizeof(err)), 0);
	assert_int_equal(row_of(&res, REGRESS_MISSED)->call, REGRESS_BETTER);
	regress_result_free(&res);
	assert_int_equal(regress_judge(&r[1], 1, &r[0], 1, &o, &res, err, sizeof(err)), 0);
	assert_int_equal(row_of(&res, REGRESS_MISSED)->call, REGRESS_WORSE);
	regress_result_free(&res);
	regress_run_free(&r[0]);
	regress_run_free(&r[1]);
}

static void one_run_against_several_is_not_judged(void **state)
{
	struct regress_run r[3];
	struct regress_result res;
	struct regress_opts o;
	char err[256];

	(void)state;
	regress_opts_default(&o);
	make_run(&r[0], "old1", 1000, 10000, 0);
	make_run(&r[1], "old2", 1000, 10000, 0);
	make_run(&r[2], "new", 1000, 90000, 0);
	assert_int_equal(regress_judge(r, 2, &r[2], 1, &o, &res, err, sizeof(err)), 0);
	assert_int_equal(row_of(&res, REGRESS_WAKE_P99)->call, REGRESS_UNJUDGED);
	assert_false(regress_any(&res));
	regress_result_free(&res);
	regress_run_free(&r[0]);
	regress_run_free(&r[1]);
	regress_run_free(&r[2]);
}

static void shorter_pulses_in_every_new_run_are_a_regression_of_tmin(void **state)
{
	struct regress_run r[8];
	struct regress_result res;
	struct regress_opts o;
	char err[256];
	size_t i;

	(void)state;
	regress_opts_default(&o);
	for (i = 0; i < 8; i++) {
		make_run(&r[i], i < 4 ? "old" : "new", 1000, 10000, 0);
		/* NEW's shortest positive pulse 100 us shorter: lower is worse */
		r[i].ph->pos.min -= i < 4 ? (int64_t)i * 1000 : 100000 + (int64_t)i * 1000;
		r[i].ph->pos.k[0].lo = r[i].ph->pos.k[0].hi = r[i].ph->pos.min;
	}
	assert_int_equal(regress_judge(r, 4, r + 4, 4, &o, &res, err, sizeof(err)), 0);
	assert_int_equal(row_of(&res, REGRESS_TMIN_POS)->call, REGRESS_WORSE);
	assert_string_equal(row_of(&res, REGRESS_TMIN_POS)->method, "ranks");
	assert_true(row_of(&res, REGRESS_TMIN_POS)->hi < 0);
	assert_int_equal(row_of(&res, REGRESS_TMIN_NEG)->call, REGRESS_SAME);
	regress_result_free(&res);
	/* and the other way round, longer shortest pulses are better */
	assert_int_equal(regress_judge(r + 4, 4, r, 4, &o, &res, err, sizeof(err)), 0);
	assert_int_equal(row_of(&res, REGRESS_TMIN_POS)->call, REGRESS_BETTER);
	regress_result_free(&res);
	for (i = 0; i < 8; i++)
		regress_run_free(&r[i]);
}

static void a_side_of_two_lines_is_refused_an_unknown_line_matches(void **state)
{
	struct regress_run r[3] = { { .source = "a", .line = "0" }, { .source = "b", .line = "" },
				    { .source = "c", .line = "3" } };
	char err[256];

	(void)state;
	assert_int_equal(regress_side_check(r, 2, "OLD", err, sizeof(err)), 0);
	assert_int_equal(regress_side_check(r, 3, "OLD", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "OLD runs of two lines, 0 (a) and 3 (c)"));
}

static void a_series_names_the_first_run_after_its_step(void **state)
{
	struct regress_run r[10];
	struct regress_result res;
	struct regress_opts o;
	char err[256], name[16];
	size_t i;

	(void)state;
	regress_opts_default(&o);
	for (i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "n%zu", i);
		make_run(&r[i], name, 1000, (i < 5 ? 10000 : 60000) + 100 * (int64_t)(i % 3), 0);
	}
	assert_int_equal(regress_trend(r, 10, &o, &res, err, sizeof(err)), 0);
	assert_int_equal(row_of(&res, REGRESS_WAKE_P99)->call, REGRESS_WORSE);
	assert_int_equal(row_of(&res, REGRESS_WAKE_P99)->at, 5);
	assert_int_equal(row_of(&res, REGRESS_TMAX_POS)->at, SIZE_MAX);
	regress_result_free(&res);
	/* seven runs: no split has a bounded interval either side */
	assert_int_equal(regress_trend(r, 7, &o, &res, err, sizeof(err)), 0);
	assert_int_equal(row_of(&res, REGRESS_WAKE_P99)->call, REGRESS_UNJUDGED);
	regress_result_free(&res);
	for (i = 0; i < 10; i++)
		regress_run_free(&r[i]);
}

static void a_summary_gives_its_percentiles_and_a_bad_member_its_line(void **state)
{
	const char *doc = "{\"schema\": \"sqwave-summary\", \"schema_version\": 1,\n"
		"\"counts\": {\"edges\": 1000, \"missed_periods\": 2},\n"
		"\"wake_latency\": {\"count\": 1000, \"min_ns\": 5, \"max_ns\": 900,\n"
		" \"percentiles_ns\": {\"p50\": 20, \"p99\": 80, \"p99.9\": 300},\n"
		" \"percentiles_error_ns\": {\"p99\": 1}},\n"
		"\"phases\": [{\"name\": \"load\", \"counts\": {\"edges\": \"many\"}}]}\n";
	struct regress_run run;
	char err[256];
	struct jv *v;
	int64_t lo, hi;
	char *bad;

	(void)state;
	v = jsonread_parse(doc, strlen(doc), err, sizeof(err));
	assert_non_null(v);
	assert_int_equal(regress_run_from_doc(&run, v, "s.json", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "s.json:6:"));
	assert_non_null(strstr(err, "phases[0].counts.edges"));
	jv_free(v);
	bad = strdup(doc);
	assert_non_null(bad);
	strcpy(strstr(bad, "\"many\""), "3}}]}\n");
	v = jsonread_parse(bad, strlen(bad), err, sizeof(err));
	assert_non_null(v);
	assert_int_equal(regress_run_from_doc(&run, v, "s.json", err, sizeof(err)), 0);
	assert_int_equal(run.nph, 2);
	assert_false(run.from_log);
	assert_int_equal(run.ph[0].missed, 2);
	regress_dist_rank(&run.ph[0].wake, 990, &lo, &hi);	/* p99's rank, +- its error */
	assert_int_equal(lo, 79);
	assert_int_equal(hi, 81);
	regress_dist_rank(&run.ph[0].wake, 995, &lo, &hi);	/* between p99 and p99.9 */
	assert_int_equal(lo, 79);
	assert_int_equal(hi, 300);
	assert_int_equal(run.ph[1].wake.n, 0);
	regress_run_free(&run);
	jv_free(v);
	free(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(binomial_cdf_is_the_sum_of_its_terms),
		cmocka_unit_test(ten_values_bound_their_median_by_the_second_and_ninth),
		cmocka_unit_test(five_values_bound_no_median_at_95_percent),
		cmocka_unit_test(poisson_intervals_are_garwoods),
		cmocka_unit_test(exceedances_are_counted_as_draws_without_replacement),
		cmocka_unit_test(the_mann_whitney_count_has_its_closed_form_tails),
		cmocka_unit_test(three_runs_a_side_bound_no_shift_four_bound_it_by_their_extremes),
		cmocka_unit_test(a_rank_between_two_knots_lies_between_them),
		cmocka_unit_test(a_shifted_latency_is_a_regression_of_its_quantiles_only),
		cmocka_unit_test(a_shift_below_the_step_is_not_a_regression),
		cmocka_unit_test(missed_periods_are_compared_as_rates),
		cmocka_unit_test(one_run_against_several_is_not_judged),
		cmocka_unit_test(shorter_pulses_in_every_new_run_are_a_regression_of_tmin),
		cmocka_unit_test(a_side_of_two_lines_is_refused_an_unknown_line_matches),
		cmocka_unit_test(a_series_names_the_first_run_after_its_step),
		cmocka_unit_test(a_summary_gives_its_percentiles_and_a_bad_member_its_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
