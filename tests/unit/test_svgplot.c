/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the SVG picture: labels never overlap, the width axis is
 * linear around the nominal with outliers off scale, the picture says the
 * verdict and carries the persistence view, and a soak's picture shows its
 * phases and proof of load (and nothing of it for a log without phases).
 * Includes the module to reach its helpers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "log/edgelog.h"
#include "summary/soakview.h"
#include "pictures/svgplot.c"

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

/* An analysis of @n edges of a log with limits @tmin_ns, @tmax_ns; edge
 * @late comes @skip slots late (a stall: @skip missed slots, a pulse of
 * @skip + 1 half periods). */
static struct analysis *log_analysis_lim(uint64_t n, uint64_t late, uint64_t skip, bool intended,
					 int64_t tmin_ns, int64_t tmax_ns)
{
	static const struct analyze_source_info src = {
		.kind = ANALYZE_SRC_LOG, .path = "x.sqwlog", .format = "sqwave-log",
		.has_intended = true, .has_window = true, .half_period_ns = HALF,
		.pin = { .kind = PIN_WAVE, .wave = { HALF, HALF, 0 }, .nominal_ns = { HALF, HALF } },
	};
	struct analyze_opts o = { .worst_n = 10, .missed_list = 10, .hist_buckets = 1000,
				  .persist_intended = intended };
	struct analysis *a = analysis_new(&o, &src);
	uint64_t i;

	assert_non_null(a);
	analysis_set_limits(a, tmin_ns, tmax_ns, 0);
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

static struct analysis *log_analysis_on(uint64_t n, uint64_t late, uint64_t skip, bool intended)
{
	return log_analysis_lim(n, late, skip, intended, 450000, 550000);
}

static struct analysis *log_analysis(uint64_t n, uint64_t late, uint64_t skip)
{
	return log_analysis_on(n, late, skip, false);
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

/* (not inlined: gcc 12+ takes the memstream's buffer for a dangling local) */
static __attribute__((noinline)) char *render(const struct analysis *a)
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
	/* a log's persistence triggers on the pin's rising edge, as a scope's */
	assert_non_null(strstr(svg, "Persistence: every period on its rising edge (a scope "
				    "triggered on the pin)"));
	assert_non_null(strstr(svg, ">trigger</text>"));
	assert_null(strstr(svg, "intended rise"));
	assert_non_null(strstr(svg, "warm-up (not counted)"));
	/* the warm-up's 10 ms band is narrower than its name: the name starts
	 * in the band, never left of the plot (x 100) */
	{
		const char *w = strstr(svg, ">warm-up (not counted)</text>");

		const char *anchor;

		while (strncmp(w, "<text", 5))
			w--;
		anchor = strstr(w, "text-anchor=\"");
		assert_true(strtod(strstr(w, " x=\"") + 4, NULL) >= 100);
		assert_true(!strncmp(anchor, "text-anchor=\"start\"", 19) && anchor < strchr(w, '>'));
	}
	assert_non_null(strstr(svg, "periods overlaid"));
	free(svg);
	config_free(c);
	analysis_free(a);
}

/* Asked for, the view triggers on the intended times, and says so. */
static void the_persistence_view_can_trigger_on_the_intended_grid(void **state)
{
	struct analysis *a = log_analysis_on(2000, 1001, 14, true);
	char *svg;

	(void)state;
	svg = render(a);
	assert_non_null(strstr(svg, "Persistence: every period on its intended rising edge "
				    "(analyze --persist-trigger intended)"));
	assert_non_null(strstr(svg, "intended rise"));
	free(svg);
	analysis_free(a);
}

/* ---- what each polarity should measure ---- */

/* The @nth (0-based) element whose class list holds @token: the value of
 * its attribute @attr; false when there is none. */
static bool class_attr(const char *svg, const char *token, size_t nth, const char *attr,
		       double *v)
{
	const char *p = svg;
	char a[16];

	snprintf(a, sizeof(a), " %s=\"", attr);
	while ((p = strstr(p, "class=\""))) {
		const char *c = p + strlen("class=\""), *end = strchr(c, '"'), *t;
		size_t n = strlen(token);

		p = end;
		for (t = c; t < end; t = t + strcspn(t, " \"") + (t[strcspn(t, " \"")] == ' ')) {
			if (!strncmp(t, token, n) && (t[n] == ' ' || t[n] == '"'))
				break;
		}
		if (t >= end || nth--)
			continue;
		t = strstr(end, a);
		assert_non_null(t);
		*v = strtod(t + strlen(a), NULL);
		return true;
	}
	return false;
}

/* The persistence view (x 100..700 for -250..1250 us, y 520..720) draws a
 * limit inside its window as a mask line at its value; one beyond it as no
 * line at the window's edge (that would read as a 1250 us limit) but an
 * arrow on that edge, pointing out, with the limit's value, off scale. */
static void a_limit_beyond_the_persistence_window_is_marked_off_scale_not_clamped(void **state)
{
	struct analysis *a = log_analysis_lim(2000, 1001, 14, false, 450000, 1350000);
	const char *p;
	double x;
	char *svg;

	(void)state;
	svg = render(a);
	/* Tmin: a line where 450 us is */
	assert_true(class_attr(svg, "persist-limit", 0, "x1", &x));
	assert_true(fabs(-250 + (x - 100) / 600 * 1500 - 450) < 3);
	/* Tmax: no line, at the edge or anywhere */
	assert_false(class_attr(svg, "persist-limit", 1, "x1", &x));
	/* but an arrow with its tip on the right edge, and the value */
	p = strstr(svg, "<path class=\"persist-limit-off-scale\" d=\"M700.0,");
	assert_non_null(p);
	assert_non_null(strstr(p, "l-8,-5"));                /* pointing right, out */
	assert_non_null(strstr(svg, ">Tmax limit 1350 us, off scale</text>"));
	/* its label inside the view, left of the arrow */
	p = strstr(svg, "<text class=\"persist-limit-off-scale\" x=\"");
	assert_non_null(p);
	x = strtod(p + strlen("<text class=\"persist-limit-off-scale\" x=\""), NULL);
	assert_true(x > 100 && x < 700);
	assert_non_null(strstr(p, "text-anchor=\"end\""));
	free(svg);
	analysis_free(a);

	/* both inside: two lines, no off-scale mark */
	a = log_analysis(2000, 1001, 14);
	svg = render(a);
	assert_true(class_attr(svg, "persist-limit", 1, "x1", &x));
	assert_true(fabs(-250 + (x - 100) / 600 * 1500 - 550) < 3);
	assert_null(strstr(svg, "persist-limit-off-scale"));
	free(svg);
	analysis_free(a);
}

/* A log of a duty wave (@high, @low, idle low), 4000 edges 10..15 us
 * late, or (@respond) a respond log of mode @mode (pulses of @pulse_ns):
 * meta and source are static, the analysis the caller's. Its pin is what
 * the log's reader gives (log/pin.h). */
static struct analysis *wave_analysis(int64_t high, int64_t low, bool respond,
				      enum pin_respond_mode mode, int64_t pulse_ns)
{
	static struct edgelog_meta m;
	static struct analyze_source_info src;
	struct analyze_opts o = { .worst_n = 10, .missed_list = 10, .hist_buckets = 1000 };
	struct analysis *a;
	uint64_t i;

	m = (struct edgelog_meta){ .clock_id = 1, .half_period_ns = (uint64_t)(high + low) / 2,
				   .start_ns = T0, .text = (char *)"",
				   .wave = { .high_ns = high, .low_ns = low } };
	src = (struct analyze_source_info){
		.kind = ANALYZE_SRC_LOG, .path = "w.sqwlog", .format = "sqwave-log",
		.has_intended = true, .has_window = true, .half_period_ns = (high + low) / 2,
		.meta = &m, .respond = respond,
	};
	if (respond)
		pin_init_respond(&src.pin, "0", 0, mode, "2", PIN_EDGE_BOTH, 0, pulse_ns);
	else
		pin_init_wave(&src.pin, "0", &m.wave, 0, PIN_GRID_MONOTONIC, 0);
	m.pin = src.pin;
	a = analysis_new(&o, &src);
	assert_non_null(a);
	for (i = 0; i < 4000; i++) {
		int32_t lat = 10000 + (int32_t)(i * 7919 % 5000);
		struct edge_rec e = {
			.seq = i, .intended_ns = wave_slot_ns(&m.wave, 0, T0, i), .wake_off_ns = lat,
			.write_begin_off_ns = lat + 100, .write_end_off_ns = lat + 300,
			.expirations = 1, .level = (uint8_t)wave_slot_level(0, i),
		};

		analysis_add(a, &e);
	}
	analysis_finish(a);
	return a;
}

/* The width histogram (x 680..1160) and the plot of widths over time (y
 * 1060..850) place each polarity's nominal where the wave says, not at the
 * half period; the persistence view (x 100..700, three half periods from
 * -half/2) has its nominal fall a high time after the trigger and the next
 * rise a period after it. */
static void a_duty_waves_markers_are_at_each_polaritys_nominal(void **state)
{
	const int64_t high = 300000, low = 700000, half = (high + low) / 2;
	struct analysis *a = wave_analysis(high, low, false, PIN_FOLLOW, 0);
	double lo, hi, x, y;
	char *svg = render(a);

	(void)state;
	width_range(a, &lo, &hi);
	assert_true(class_attr(svg, "nominal-pos", 0, "x1", &x));
	assert_true(fabs(lo + (x - 680) / 480 * (hi - lo) - (double)high / 1e3) < 2);
	assert_true(class_attr(svg, "nominal-neg", 0, "x1", &x));
	assert_true(fabs(lo + (x - 680) / 480 * (hi - lo) - (double)low / 1e3) < 2);
	/* the plot over time: the same two, across it */
	assert_true(class_attr(svg, "nominal-pos", 1, "y1", &y));
	assert_true(fabs(lo + (1060 - y) / 210 * (hi - lo) - (double)high / 1e3) < 2);
	assert_true(class_attr(svg, "nominal-neg", 1, "y1", &y));
	assert_true(fabs(lo + (1060 - y) / 210 * (hi - lo) - (double)low / 1e3) < 2);
	assert_false(class_attr(svg, "nominal-pos", 2, "y1", &y));
	/* the persistence view */
	assert_true(class_attr(svg, "nominal-fall", 0, "x1", &x));
	assert_true(fabs(-(double)half / 2e3 + (x - 100) / 600 * 3 * (double)half / 1e3 -
			 (double)high / 1e3) < 4);
	assert_true(class_attr(svg, "nominal-rise", 0, "x1", &x));
	assert_true(fabs(-(double)half / 2e3 + (x - 100) / 600 * 3 * (double)half / 1e3 -
			 (double)(high + low) / 1e3) < 4);
	assert_non_null(strstr(svg, "high 300.000 us, low 700.000 us"));
	free(svg);
	analysis_free(a);
}

/* A respond log answers an input: no nominal square wave anywhere; in
 * pulse mode the active level's pulses have the configured width as their
 * nominal, and nothing else. */
static void a_respond_log_has_no_nominal_wave_and_a_pulse_has_its_width(void **state)
{
	struct analysis *a = wave_analysis(500000, 500000, true, PIN_FOLLOW, 0);
	double lo, hi, x;
	char *svg = render(a);

	(void)state;
	assert_false(class_attr(svg, "nominal", 0, "x1", &x));
	assert_false(class_attr(svg, "nominal-fall", 0, "x1", &x));
	assert_false(class_attr(svg, "nominal-rise", 0, "x1", &x));
	assert_null(strstr(svg, "half period"));
	free(svg);
	analysis_free(a);

	a = wave_analysis(500000, 500000, true, PIN_PULSE, 40000);
	svg = render(a);
	width_range(a, &lo, &hi);
	assert_true(class_attr(svg, "nominal-pos", 0, "x1", &x));
	assert_true(fabs(lo + (x - 680) / 480 * (hi - lo) - 40) < 1);
	assert_false(class_attr(svg, "nominal-neg", 0, "x1", &x));
	assert_true(class_attr(svg, "nominal-fall", 0, "x1", &x));
	assert_false(class_attr(svg, "nominal-rise", 0, "x1", &x));
	/* the fall 40 us after the trigger (16 px): its label under the
	 * trigger's, not over it */
	{
		const char *t = strstr(svg, ">trigger</text>"), *n = strstr(svg, ">nominal fall</text>");
		double tx, ty, nx, ny;

		assert_non_null(t);
		assert_non_null(n);
		while (strncmp(t, "<text", 5))
			t--;
		while (strncmp(n, "<text", 5))
			n--;
		tx = strtod(strstr(t, " x=\"") + 4, NULL);
		ty = strtod(strstr(t, " y=\"") + 4, NULL);
		nx = strtod(strstr(n, " x=\"") + 4, NULL);
		ny = strtod(strstr(n, " y=\"") + 4, NULL);
		assert_true(nx >= tx + 6.0 * 7 || fabs(ny - ty) >= 11);
	}
	free(svg);
	analysis_free(a);
}

/* The widths (us) that the points of every polyline of class @cls stand
 * for on the width axis [lo, hi] of the plot over time (y 1060..850):
 * their least and greatest. */
static void polyline_widths(const char *svg, const char *cls, double lo, double hi, double *wmin,
			    double *wmax)
{
	char key[64];
	const char *p = svg;

	snprintf(key, sizeof(key), "class=\"%s\"", cls);
	*wmin = INFINITY;
	*wmax = -INFINITY;
	while ((p = strstr(p, key))) {
		p = strstr(p, "points=\"") + strlen("points=\"");
		while (*p && *p != '"') {
			char *end;
			double w;

			strtod(p, &end);
			w = lo + (1060 - strtod(end + 1, &end)) / 210 * (hi - lo);
			*wmin = fmin(*wmin, w);
			*wmax = fmax(*wmax, w);
			p = end;
			while (*p == ' ')
				p++;
		}
	}
}

/* The widths (us) the @nth rect of class @cls spans on that axis. */
static void band_widths(const char *svg, const char *cls, size_t nth, double lo, double hi,
			double *bot, double *top)
{
	char key[64];
	const char *p = svg;
	double y, h;

	snprintf(key, sizeof(key), "class=\"%s\"", cls);
	for (p = strstr(p, key); nth--; p = strstr(p + 1, key))
		assert_non_null(p);
	assert_non_null(p);
	y = strtod(strstr(p, " y=\"") + 4, NULL);
	h = strtod(strstr(p, " height=\"") + 9, NULL);
	*top = lo + (1060 - y) / 210 * (hi - lo);
	*bot = lo + (1060 - y - h) / 210 * (hi - lo);
}

/*
 * An ugly run's widths over time (issue 29: a solid block of min..max bars
 * on an hour with stalls and pulses far off): two edges in every 40 (a
 * rising and a falling one) come 400 us late, so every span has pulses of
 * 900 us and of 100 us of either polarity, and one stall of 7 ms is off
 * the axis. The plot shows where the run's pulses were as bands
 * (p25..p75 at the 500 us the edges were meant for), each span's extremes
 * as lines at the widths the edges made, the stall as a red mark at the
 * edge counted under the plot; no bar spans the plot.
 */
static void an_ugly_runs_widths_over_time_show_the_bulk_and_each_spans_extremes(void **state)
{
	static const struct analyze_source_info src = {
		.kind = ANALYZE_SRC_LOG, .path = "u.sqwlog", .format = "sqwave-log",
		.has_intended = true, .has_window = true, .half_period_ns = HALF,
		.pin = { .kind = PIN_WAVE, .wave = { HALF, HALF, 0 }, .nominal_ns = { HALF, HALF } },
	};
	struct analyze_opts o = { .worst_n = 10, .missed_list = 10, .hist_buckets = 1000 };
	struct analysis *a = analysis_new(&o, &src);
	double lo, hi, wmin, wmax, bot, top;
	uint64_t i, slot = 0;
	const char *p;
	char *svg;

	(void)state;
	assert_non_null(a);
	for (i = 0; i < 20000; i++) {
		int32_t lat = 10000 + (int32_t)(i * 7919 % 2000) +
			      (i % 40 == 20 || i % 40 == 1 ? 400000 : 0);
		bool stall = i == 10001;	/* 14 slots missed: a pulse of 7.5 ms */
		struct edge_rec e = {
			.seq = i, .intended_ns = T0 + (slot += stall ? 15 : 1) * HALF,
			.wake_off_ns = lat, .write_begin_off_ns = lat + 100,
			.write_end_off_ns = lat + 300, .expirations = (uint16_t)(stall ? 15 : 1),
			.level = (uint8_t)(i % 2 == 0),
		};

		analysis_add(a, &e);
	}
	analysis_finish(a);
	svg = render(a);
	width_range(a, &lo, &hi);
	/* the run's middle half: at the 500 us the edges were meant for */
	band_widths(svg, "bulk-band", 1, lo, hi, &bot, &top);
	assert_true(bot > 495 && top < 505);
	/* each span's extremes: the 900 and 100 us pulses the late edges made */
	polyline_widths(svg, "env-max", lo, hi, &wmin, &wmax);
	assert_true(wmin > 895 && wmin < 905 && wmax <= hi + 0.1);	/* the stall: clipped */
	polyline_widths(svg, "env-min", lo, hi, &wmin, &wmax);
	assert_true(fabs(wmin - 100) < 5 && wmax < 120);
	/* the stall, off the axis: one span, marked at the top edge */
	assert_true(hi < 7500);
	assert_int_equal(count(svg, "class=\"off-scale-rug\""), 1);
	assert_non_null(strstr(svg, "1 span off scale (red at the edge), longest "));
	/* no bar in the pulses' colours over the plot: the bands only */
	for (p = strstr(svg, "<rect "); p; p = strstr(p + 1, "<rect ")) {
		const char *e = strchr(p, '>');
		const char *c = strstr(p, "fill=\"" C_POS "\"");

		if ((!c || c > e) && (!(c = strstr(p, "fill=\"" C_NEG "\"")) || c > e))
			continue;
		if (strtod(strstr(p, " y=\"") + 4, NULL) < 850)
			continue;	/* the histogram's bars and the legend above */
		assert_true(strstr(p, "class=\"bulk-band\"") && strstr(p, "class=\"bulk-band\"") < e);
	}
	free(svg);
	analysis_free(a);
}


/* ---- a soak ---- */

#define SEC 1000000000ull
#define SOAK_HALF 1000000ull

static char soak_path[64];

static int make_soak_path(void **state)
{
	int fd;

	(void)state;
	snprintf(soak_path, sizeof(soak_path), "/tmp/sqwave-svg-XXXXXX");
	fd = mkstemp(soak_path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int remove_soak_path(void **state)
{
	(void)state;
	unlink(soak_path);
	return 0;
}

static void sample(struct edgelog_writer *w, uint64_t t, double busy, double pps)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "dt_ns=1000000000\ncpu=0:%.1f,1:%.1f\nirq_s=100.0\n"
		 "ctxt_s=200.0\nload1=1.00\nnet=lo:%.1f/%.1f\n", busy, busy, pps / 2, pps / 2);
	assert_int_equal(edgelog_writer_append_event(w, t, EDGELOG_EV_SAMPLE, buf, strlen(buf)), 0);
}

/* A log of 2 s warm-up, then idle 20 s, loaded 36 s, and a 4 s phase whose
 * long name cannot fit its band; a sample a second (CPU 3 % idle, 95 %
 * loaded; 10 or 40000 packets/s). @phased false: a plain run's one phase. */
static void write_soak_log(bool phased)
{
	struct edgelog_meta m = { .clock_id = 1, .half_period_ns = SOAK_HALF, .start_ns = T0,
				  .text = phased ? (char *)
		"run.warmup=2s\nphase.count=3\n"
		"phase.0.name=idle\nphase.0.start_off_ns=0\nphase.0.duration_ns=20000000000\n"
		"phase.0.loads=0\n"
		"phase.1.name=coremark+flood\nphase.1.start_off_ns=20000000000\n"
		"phase.1.duration_ns=36000000000\nphase.1.loads=0\n"
		"phase.2.name=cooldown-with-a-long-name\nphase.2.start_off_ns=56000000000\n"
		"phase.2.duration_ns=4000000000\nphase.2.loads=0\n"
		"loads.containment=cgroup2 (x)\n"
		: (char *)"run.warmup=2s\nphase.count=1\nphase.0.name=run\n"
		"phase.0.start_off_ns=0\nphase.0.duration_ns=62000000000\nphase.0.loads=0\n" };
	struct edgelog_footer f = { 0 };
	struct edgelog_writer *w = edgelog_writer_create(soak_path, &m, NULL, 0, NULL, 0);
	uint64_t t;

	assert_non_null(w);
	for (t = T0 + SEC; phased && t <= T0 + 62 * SEC; t += SEC) {
		bool loaded = t > T0 + 22 * SEC && t <= T0 + 58 * SEC;

		sample(w, t, loaded ? 95 : 3, loaded ? 40000 : 10);
	}
	assert_int_equal(edgelog_writer_close(w, &f, NULL, 0), 0);
}

/* The analysis of 62 s of edges (the first 2 s warm-up), in 2 s timeline
 * rows, with the soak view of the log written (NULL: not attached). */
static struct analysis *soak_analysis_rows(struct soakview **sv, bool attach, int64_t row_ns)
{
	static const struct analyze_source_info src = {
		.kind = ANALYZE_SRC_LOG, .path = "soak.sqwlog", .format = "sqwave-log",
		.has_intended = true, .has_window = true, .half_period_ns = SOAK_HALF,
		.pin = { .kind = PIN_WAVE, .wave = { SOAK_HALF, SOAK_HALF, 0 },
			 .nominal_ns = { SOAK_HALF, SOAK_HALF } },
	};
	struct analyze_opts o = { .worst_n = 10, .missed_list = 10, .hist_buckets = 1000,
				  .minute_ns = row_ns };
	struct analysis *a = analysis_new(&o, &src);
	char err[512];
	bool bad;
	uint64_t i;

	assert_non_null(a);
	*sv = soakview_open(soak_path, T0, o.minute_ns, &bad, err, sizeof(err));
	if (!*sv)
		fail_msg("%s", err);
	if (attach)
		analysis_set_soak(a, NULL, *sv, NULL);
	for (i = 0; i <= 62 * SEC / SOAK_HALF; i++) {
		int32_t lat = 10000 + (int32_t)(i * 7919 % 5000);
		struct edge_rec e = {
			.seq = i, .intended_ns = T0 + i * SOAK_HALF, .wake_off_ns = lat,
			.write_begin_off_ns = lat + 100, .write_end_off_ns = lat + 300,
			.expirations = 1, .level = (uint8_t)(i % 2 == 0),
			.flags = i * SOAK_HALF < 2 * SEC ? EDGE_F_WARMUP : 0,
		};

		analysis_add(a, &e);
	}
	analysis_finish(a);
	return a;
}

static struct analysis *soak_analysis(struct soakview **sv, bool attach)
{
	return soak_analysis_rows(sv, attach, 2 * (int64_t)SEC);
}

/* The x of every "class=\"phase-boundary\" x1=" in order, up to @max. */
static size_t boundaries(const char *svg, double *x, size_t max)
{
	const char *key = "class=\"phase-boundary\" x1=\"";
	size_t n = 0;

	for (; n < max && (svg = strstr(svg, key)); svg += strlen(key))
		x[n++] = strtod(svg + strlen(key), NULL);
	return n;
}

/* The smallest and largest y of the polyline of class @cls. */
static void polyline_y(const char *svg, const char *cls, double *ymin, double *ymax)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "class=\"%s\"", cls);
	p = strstr(svg, key);
	assert_non_null(p);
	p = strstr(p, "points=\"");
	assert_non_null(p);
	p += strlen("points=\"");
	*ymin = INFINITY;
	*ymax = -INFINITY;
	while (*p && *p != '"') {
		char *end;
		double y;

		strtod(p, &end);			/* x */
		assert_true(*end == ',');
		y = strtod(end + 1, &end);
		*ymin = fmin(*ymin, y);
		*ymax = fmax(*ymax, y);
		p = end;
		while (*p == ' ')
			p++;
	}
}

static void a_soak_shows_its_phases_and_the_proof_of_its_load(void **state)
{
	struct soakview *sv;
	struct analysis *a;
	double span, x[16], ymin, ymax;
	const double sy0 = 1370 + 90, sy1 = sy0 + PROOF_H;
	const char *p;
	char *svg;

	(void)state;
	write_soak_log(true);
	a = soak_analysis(&sv, true);
	svg = render(a);
	/* one band per phase in each plot over time and in the strip */
	assert_int_equal(count(svg, "class=\"phase-band\""), 3 * 3);
	assert_int_equal(count(svg, ">idle</text>"), 2);
	assert_int_equal(count(svg, ">coremark+flood</text>"), 2);
	/* the name too long for its 4 s band: shortened, inside it */
	assert_null(strstr(svg, ">cooldown-with-a-long-name<"));
	p = strstr(svg, ">cool");
	assert_non_null(p);
	assert_non_null(strstr(p, "\xe2\x80\xa6</text>"));
	assert_true(strstr(p, "\xe2\x80\xa6</text>") - p < 16);
	/* where idle ends and the load begins: 2 s warm-up + 20 s, on a 62 s
	 * axis from x 100 to 1160; the next 36 s later */
	span = (double)(a->last.intended_ns - a->first.intended_ns) / 1e9;
	assert_int_equal(boundaries(svg, x, 16), 2 * 3);
	assert_true(fabs(x[0] - (100 + 22 / span * 1060)) < 0.1);
	assert_true(fabs(x[1] - (100 + 58 / span * 1060)) < 0.1);
	assert_true(fabs(x[4] - x[0]) < 1e-9);	/* the strip: the same time axis */
	/* the strip, its scales and its lines */
	assert_non_null(strstr(svg, ">Proof of load over time</text>"));
	assert_non_null(strstr(svg, ">CPU busy (%)</text>"));
	assert_non_null(strstr(svg, ">pkt/s</text>"));
	assert_non_null(strstr(svg, ">100k</text>"));
	assert_non_null(strstr(svg, "packets/s, busiest interface (right, log)"));
	polyline_y(svg, "proof-busy", &ymin, &ymax);
	assert_true(ymin < sy0 + 0.06 * PROOF_H);	/* 95 % busy */
	assert_true(ymax > sy1 - 0.04 * PROOF_H);	/* 3 % */
	polyline_y(svg, "proof-pps", &ymin, &ymax);
	assert_true(ymin < sy0 + 0.2 * PROOF_H);	/* 40000 of 100k, log */
	assert_true(ymax > sy1 - 0.21 * PROOF_H);	/* 10 */
	free(svg);
	analysis_free(a);
	soakview_free(sv);
}

static void a_log_without_phases_is_drawn_as_before(void **state)
{
	struct soakview *sv, *sv2;
	struct analysis *with = NULL, *without;
	char *s1, *s2;

	(void)state;
	write_soak_log(false);
	with = soak_analysis(&sv, true);
	without = soak_analysis(&sv2, false);
	s1 = render(with);
	s2 = render(without);
	assert_string_equal(s1, s2);
	assert_null(strstr(s1, "phase-"));
	assert_null(strstr(s1, "Proof of load"));
	assert_non_null(strstr(s1, ">warm-up (not counted)</text>"));
	free(s1);
	free(s2);
	analysis_free(with);
	analysis_free(without);
	soakview_free(sv);
	soakview_free(sv2);
}

/* In 60 s timeline rows, the first row once held the 20 s idle phase
 * and the flood after it, so the flood's packets/s were drawn over idle.
 * Every step of the strip lies in one phase: left of the first boundary
 * the line is at idle's 10 packets/s, right of it at the flood's 40000. */
static void the_proof_strip_never_draws_one_phase_in_another(void **state)
{
	struct soakview *sv;
	struct analysis *a;
	double x[16];
	const double sy0 = 1370 + 90, sy1 = sy0 + PROOF_H;
	const char *p;
	char *svg;
	size_t idle = 0, flood = 0;

	(void)state;
	write_soak_log(true);
	a = soak_analysis_rows(&sv, true, 60 * (int64_t)SEC);
	svg = render(a);
	assert_int_equal(boundaries(svg, x, 16), 2 * 3);
	p = strstr(svg, "class=\"proof-pps\"");
	assert_non_null(p);
	for (; p; p = strstr(p + 1, "class=\"proof-pps\"")) {
		const char *q = strstr(p, "points=\"") + strlen("points=\"");

		/* a step is two points at one height, from ax to bx */
		while (*q && *q != '"') {
			char *end;
			double ax = strtod(q, &end), ay = strtod(end + 1, &end);
			double bx = strtod(end, &end), by = strtod(end + 1, &end);

			assert_true(ay == by);
			if (ax < x[4] - 0.5) {		/* begins in idle (or the warm-up) */
				assert_true(bx <= x[4] + 0.5);	/* and ends there */
				assert_true(ay > sy1 - 0.21 * PROOF_H);
				idle++;
			} else if (ax < x[5] - 0.5) {	/* begins in the flood */
				assert_true(bx <= x[5] + 0.5);
				assert_true(ay < sy0 + 0.2 * PROOF_H);
				flood++;
			}
			q = end;
			while (*q == ' ')
				q++;
		}
	}
	assert_true(idle > 0 && flood > 0);
	free(svg);
	analysis_free(a);
	soakview_free(sv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(labels_never_overlap_however_crowded),
		cmocka_unit_test(a_marker_keeps_its_spot_free),
		cmocka_unit_test(the_width_axis_is_linear_around_the_nominal_with_outliers_off_scale),
		cmocka_unit_test(the_picture_says_the_verdict_and_overlays_every_period),
		cmocka_unit_test(the_persistence_view_can_trigger_on_the_intended_grid),
		cmocka_unit_test(a_limit_beyond_the_persistence_window_is_marked_off_scale_not_clamped),
		cmocka_unit_test(a_duty_waves_markers_are_at_each_polaritys_nominal),
		cmocka_unit_test(a_respond_log_has_no_nominal_wave_and_a_pulse_has_its_width),
		cmocka_unit_test(an_ugly_runs_widths_over_time_show_the_bulk_and_each_spans_extremes),
		cmocka_unit_test_setup_teardown(a_soak_shows_its_phases_and_the_proof_of_its_load,
						make_soak_path, remove_soak_path),
		cmocka_unit_test_setup_teardown(a_log_without_phases_is_drawn_as_before,
						make_soak_path, remove_soak_path),
		cmocka_unit_test_setup_teardown(the_proof_strip_never_draws_one_phase_in_another,
						make_soak_path, remove_soak_path),
	};

	return cmocka_run_group_tests_name("svgplot", tests, NULL, NULL);
}
