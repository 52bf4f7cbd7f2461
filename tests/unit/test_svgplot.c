/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the SVG picture: labels never overlap, the width axis is
 * linear around the nominal with outliers off scale, and the picture says
 * the verdict and carries the persistence view. Includes the module to
 * reach its helpers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "config.h"
#include "svgplot.c"

#define HALF 500000
#define T0 1000000000000ull

static void labels_never_overlap_however_crowded(void **state)
{
	struct labels lb = { .n = 0 };
	double x[400], y[400], x0[400], y0[400], x1[400], y1[400];
	size_t placed = 0, i, j;
	unsigned seed = 12345;

	(void)state;
	/* a crowd: 400 labels wanting spots inside 200 x 80 pixels */
	for (i = 0; i < 400; i++) {
		double lx, ly;

		seed = seed * 1103515245u + 12345u;
		x[i] = 100 + (seed >> 16) % 200;
		seed = seed * 1103515245u + 12345u;
		y[i] = 60 + (seed >> 16) % 80;
		if (!label_place(&lb, x[i], y[i], 5, 100, 300, 40, 160, &lx, &ly))
			continue;
		x0[placed] = lx - (6.2 * 5 + 4) / 2;
		x1[placed] = lx + (6.2 * 5 + 4) / 2;
		y0[placed] = ly - 10;
		y1[placed] = ly + 2;
		assert_true(x0[placed] >= 100 - 1e-9 && x1[placed] <= 300 + 1e-9);
		assert_true(y0[placed] >= 40 && y1[placed] <= 160);
		placed++;
	}
	assert_true(placed > 5 && placed < 400);
	for (i = 0; i < placed; i++)
		for (j = i + 1; j < placed; j++)
			assert_true(x1[i] <= x0[j] || x1[j] <= x0[i] || y1[i] <= y0[j] ||
				    y1[j] <= y0[i]);
}

static void a_marker_keeps_its_spot_free(void **state)
{
	struct labels lb = { .n = 0 };
	double lx, ly;

	(void)state;
	label_block(&lb, 100, 100);
	assert_true(label_place(&lb, 100, 113, 4, 0, 400, 0, 400, &lx, &ly));
	/* not right above the point (that is the marker's box): higher */
	assert_true(ly + 2 <= 100 - 11 || ly - 10 >= 101);
}

/* An analysis of @n edges of a log; edge @late comes @skip slots late (a
 * stall: @skip missed slots, a pulse of @skip + 1 half periods). */
static struct analysis *log_analysis(uint64_t n, uint64_t late, uint64_t skip)
{
	static const struct analyze_source_info src = {
		.kind = ANALYZE_SRC_LOG, .path = "x.sqwlog", .format = "sqwave-log",
		.has_intended = true, .has_window = true, .half_period_ns = HALF,
	};
	struct analyze_opts o = { .worst_n = 10, .missed_list = 10, .hist_buckets = 1000 };
	struct analysis *a = analysis_new(&o, &src);
	uint64_t i;

	assert_non_null(a);
	analysis_set_limits(a, 450000, 550000, 0);
	for (i = 0; i < n; i++) {
		int32_t lat = 10000 + (int32_t)(i * 7919 % 5000);
		struct edge_rec e = {
			.seq = i, .intended_ns = T0 + (i + (i >= late ? skip : 0)) * HALF,
			.wake_off_ns = lat, .write_begin_off_ns = lat + 100,
			.write_end_off_ns = lat + 300, .expirations = (uint16_t)(i == late ? skip + 1 : 1),
			.level = (uint8_t)(i % 2 == 0), .flags = i < 20 ? EDGE_F_WARMUP : 0,
		};

		analysis_add(a, &e);
	}
	analysis_finish(a);
	return a;
}

static char *render(const struct analysis *a)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	picture(m, a);
	fclose(m);
	return buf;
}

static void the_width_axis_is_linear_around_the_nominal_with_outliers_off_scale(void **state)
{
	struct analysis *a = log_analysis(2000, 1001, 14); /* a 7.5 ms pulse */
	double lo, hi;
	char *svg;

	(void)state;
	width_range(a, &lo, &hi);
	/* the band a scope user reads, not 0..7000 us */
	assert_true(lo > 400 && lo < 450);
	assert_true(hi > 550 && hi < 600);
	svg = render(a);
	assert_non_null(strstr(svg, "1 longer, off scale &gt;"));
	assert_non_null(strstr(svg, "linear around the nominal"));
	assert_null(strstr(svg, "pulse width (us, log"));
	free(svg);
	analysis_free(a);
}

static void the_picture_says_the_verdict_and_overlays_every_period(void **state)
{
	struct analysis *a = log_analysis(2000, 1001, 14);
	struct config *c = config_new();
	char *svg;

	(void)state;
	assert_non_null(c);
	assert_int_equal(config_apply_option(c, "tmin", "450us", NULL, 0), CFG_OK);
	assert_int_equal(config_apply_option(c, "tmax", "550us", NULL, 0), CFG_OK);
	assert_int_equal(analysis_verdict(a, c, NULL), VERDICT_FAIL);
	assert_int_equal(a->pulses_above, 1);
	assert_int_equal(a->pulses_below, 0);
	svg = render(a);
	assert_non_null(strstr(svg, ">FAIL</text>"));
	assert_non_null(strstr(svg, "1 pulse outside 450.000..550.000 us"));
	assert_non_null(strstr(svg, "(0 below Tmin, 1 above Tmax; bounds)"));
	assert_non_null(strstr(svg, "Persistence: every period on its intended rising edge"));
	assert_non_null(strstr(svg, "warm-up (not counted)"));
	assert_non_null(strstr(svg, "periods overlaid"));
	free(svg);
	config_free(c);
	analysis_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(labels_never_overlap_however_crowded),
		cmocka_unit_test(a_marker_keeps_its_spot_free),
		cmocka_unit_test(the_width_axis_is_linear_around_the_nominal_with_outliers_off_scale),
		cmocka_unit_test(the_picture_says_the_verdict_and_overlays_every_period),
	};

	return cmocka_run_group_tests_name("svgplot", tests, NULL, NULL);
}
