/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SVG picture of an analysis. Plain SVG 1.1, no script, no external
 * font or style sheet, so it renders the same in any browser or viewer. */
#include "svgplot.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

#define W 1200
#define H 900
#define FONT "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\""
#define C_POS "#1f77b4"
#define C_NEG "#ff7f0e"
#define C_LAT "#2ca02c"
#define C_BAD "#d62728"
#define C_GRID "#e3e3e3"
#define C_TEXT "#222"
#define C_MUTED "#666"
#define WORST_LABELS 5          /* worst edges labelled with their number */

/* One axis: data range, pixel range, linear or log10. */
struct axis {
	double lo, hi;          /* data */
	double p0, p1;          /* pixels for lo and hi */
	bool log;
};

static double ax_map(const struct axis *x, double v)
{
	double f;

	if (x->log) {
		v = v < x->lo ? x->lo : v;
		f = (log10(v) - log10(x->lo)) / (log10(x->hi) - log10(x->lo));
	} else {
		f = (v - x->lo) / (x->hi - x->lo);
	}
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return x->p0 + f * (x->p1 - x->p0);
}

/* A "nice" tick step (1, 2, 5 x 10^k) giving about @n ticks over @range. */
static double nice_step(double range, int n)
{
	double raw = range / n, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

static void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, f);
		}
	}
}

static void text(FILE *f, double x, double y, const char *anchor, int size, const char *color,
		 const char *weight, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" fill=\"%s\"%s%s%s>",
		x, y, anchor, size, color, weight ? " font-weight=\"" : "", weight ? weight : "",
		weight ? "\"" : "");
	xml_text(f, s);
	fputs("</text>\n", f);
}

static void textf(FILE *f, double x, double y, const char *anchor, int size, const char *color,
		  const char *weight, const char *fmt, ...) __attribute__((format(printf, 8, 9)));
static void textf(FILE *f, double x, double y, const char *anchor, int size, const char *color,
		  const char *weight, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	text(f, x, y, anchor, size, color, weight, buf);
}

static void line(FILE *f, double x1, double y1, double x2, double y2, const char *color,
		 double width, const char *dash)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"%.1f\"%s%s%s/>\n", x1, y1, x2, y2, color, width,
		dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
}

static void rect(FILE *f, double x, double y, double w, double h, const char *fill, double opacity)
{
	if (h < 0) {
		y += h;
		h = -h;
	}
	fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
		"fill-opacity=\"%.2f\"/>\n", x, y, w < 0.6 ? 0.6 : w, h < 0.8 ? 0.8 : h, fill, opacity);
}

/* Tick label for a value in @unit_div units (us: 1000 ns). */
static void fmt_num(char *buf, size_t len, double v)
{
	if (fabs(v) >= 1e6 && fabs(v) < 1e12 && v == round(v / 1e6) * 1e6)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (fabs(v) >= 1e6 || (fabs(v) < 1e-3 && v != 0))
		snprintf(buf, len, "%.3g", v);
	else
		snprintf(buf, len, "%.10g", round(v * 1e6) / 1e6);
}

/* Frame, grid, ticks and labels of a plot area. */
static void axes(FILE *f, const struct axis *x, const struct axis *y, const char *xlabel,
		 const char *ylabel)
{
	char buf[64];
	double v, step;

	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fff\" "
		"stroke=\"#999\" stroke-width=\"1\"/>\n", x->p0, y->p1, x->p1 - x->p0, y->p0 - y->p1);
	/* y grid and labels */
	if (y->log) {
		double d;

		for (d = pow(10, floor(log10(y->lo))); d <= y->hi * 1.0001; d *= 10) {
			if (d < y->lo * 0.9999)
				continue;
			v = ax_map(y, d);
			line(f, x->p0, v, x->p1, v, C_GRID, 1, NULL);
			fmt_num(buf, sizeof(buf), d);
			text(f, x->p0 - 6, v + 4, "end", 11, C_MUTED, NULL, buf);
		}
	} else {
		step = nice_step(y->hi - y->lo, 5);
		for (v = ceil(y->lo / step) * step; v <= y->hi + step * 1e-9; v += step) {
			double py = ax_map(y, v);

			line(f, x->p0, py, x->p1, py, C_GRID, 1, NULL);
			fmt_num(buf, sizeof(buf), fabs(v) < step * 1e-9 ? 0 : v);
			text(f, x->p0 - 6, py + 4, "end", 11, C_MUTED, NULL, buf);
		}
	}
	/* x ticks */
	step = nice_step(x->hi - x->lo, 8);
	for (v = ceil(x->lo / step) * step; v <= x->hi + step * 1e-9; v += step) {
		double px = ax_map(x, v);

		line(f, px, y->p0, px, y->p0 + 5, "#999", 1, NULL);
		line(f, px, y->p1, px, y->p0, C_GRID, 0.6, NULL);
		fmt_num(buf, sizeof(buf), fabs(v) < step * 1e-9 ? 0 : v);
		text(f, px, y->p0 + 18, "middle", 11, C_MUTED, NULL, buf);
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#999\" stroke-width=\"1\"/>\n", x->p0, y->p1, x->p1 - x->p0, y->p0 - y->p1);
	text(f, (x->p0 + x->p1) / 2, y->p0 + 36, "middle", 12, C_TEXT, NULL, xlabel);
	fprintf(f, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"middle\" "
		"font-size=\"12\" fill=\"%s\">", x->p0 - 52, (y->p0 + y->p1) / 2, C_TEXT);
	xml_text(f, ylabel);
	fputs("</text>\n", f);
}

/* A legend entry: swatch and label; returns the x after it. */
static double legend(FILE *f, double x, double y, const char *color, bool dashed, const char *label)
{
	if (dashed)
		line(f, x, y - 4, x + 22, y - 4, color, 2, "6,3");
	else
		rect(f, x, y - 10, 22, 10, color, 0.6);
	text(f, x + 28, y, "start", 12, C_TEXT, NULL, label);
	return x + 28 + 7.0 * (double)strlen(label) + 18;
}

static const char *meta(const struct analysis *a, const char *key, char *buf, size_t len)
{
	const char *v = a->src->meta ? edgelog_meta_get(a->src->meta, key, buf, len) : NULL;

	return v && v[0] ? v : NULL;
}

/* A limit from the log's metadata (limits.tmin...), 0 when unset. */
static int64_t meta_limit(const struct analysis *a, const char *key)
{
	char buf[64];
	const char *v = meta(a, key, buf, sizeof(buf));
	int64_t ns;

	if (!v || units_parse_duration(v, NULL, &ns) < 0 || ns <= 0)
		return 0;
	return ns;
}

static void title(FILE *f, const struct analysis *a)
{
	const struct analyze_source_info *s = a->src;
	const struct edgestats_result *r = analysis_stats(a);
	const char *base = strrchr(s->path, '/');
	char b1[128], b2[256], b3[64], sub[768];

	base = base ? base + 1 : s->path;
	textf(f, 40, 38, "start", 22, C_TEXT, "bold", "sqwave analyze: %s", base);
	if (s->kind == ANALYZE_SRC_LOG) {
		const char *board = meta(a, "board.name", b1, sizeof(b1));
		const char *kernel = meta(a, "host.kernel", b2, sizeof(b2));
		const char *rt = meta(a, "host.preempt_rt", b3, sizeof(b3));

		snprintf(sub, sizeof(sub), "board %s  |  kernel %s  |  PREEMPT_RT %s",
			 board ? board : "?", kernel ? kernel : "?", rt ? rt : "?");
	} else if (s->kind == ANALYZE_SRC_CAPTURE) {
		snprintf(sub, sizeof(sub), "capture %s, channel %s", s->format,
			 s->capture->channel_name);
	} else {
		snprintf(sub, sizeof(sub), "edge list (%s)", s->format);
	}
	text(f, 40, 62, "start", 13, C_MUTED, NULL, sub);
	snprintf(sub, sizeof(sub), "%" PRIu64 " edges over %.3f s", r->edges,
		 a->have_edge ? (double)(int64_t)(a->last.intended_ns - a->first.intended_ns) / 1e9 : 0.0);
	if (s->half_period_ns > 0)
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "  |  half period %.3f us",
			 (double)s->half_period_ns / 1e3);
	if (s->has_intended)
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "  |  %" PRIu64 " missed periods",
			 r->missed_periods);
	if (s->truncated)
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "  |  TRUNCATED LOG");
	text(f, 40, 82, "start", 13, s->truncated ? C_BAD : C_MUTED, NULL, sub);
}

/* Key numbers, right of the histogram. */
static void key_numbers(FILE *f, const struct analysis *a, double x, double y)
{
	const struct edgestats_result *r = analysis_stats(a);
	const struct edgestats_widths *any = &r->width[EDGESTATS_ANY];
	double dy = 21;
	int i;

	text(f, x, y, "start", 14, C_TEXT, "bold", "What the scope should show");
	y += 8;
	line(f, x, y, x + 470, y, "#ccc", 1, NULL);
	y += 22;
	if (any->h.m.n) {
		textf(f, x, y, "start", 13, C_TEXT, NULL, "Tmin  %.3f us   (edge #%" PRIu64 ")",
		      (double)any->tmin.width_ns / 1e3, any->tmin.at.seq);
		y += dy;
		textf(f, x, y, "start", 13, C_TEXT, NULL, "Tmax  %.3f us   (edge #%" PRIu64 ")",
		      (double)any->tmax.width_ns / 1e3, any->tmax.at.seq);
		y += dy + 6;
	} else {
		text(f, x, y, "start", 13, C_BAD, NULL, "no complete pulse");
		y += dy + 6;
	}
	{
		static const char *const head[] = { "count", "min us", "mean us", "max us" };

		for (i = 0; i < 4; i++)
			text(f, x + 170 + 95 * i, y, "end", 12, C_MUTED, NULL, head[i]);
	}
	for (i = 0; i < 4; i++) {
		static const char *const names[] = { "pulse +", "pulse -", "period", "latency" };
		const struct stats_moments *m = i == 0 ? &r->width[EDGESTATS_POS].h.m
					      : i == 1 ? &r->width[EDGESTATS_NEG].h.m
					      : i == 2 ? &r->period_m : &r->wake.m;
		const char *color = i == 0 ? C_POS : i == 1 ? C_NEG : i == 2 ? C_TEXT : C_LAT;

		if (i == 3 && !a->src->has_intended)
			break;
		y += dy;
		text(f, x, y, "start", 12, color, "bold", names[i]);
		textf(f, x + 170, y, "end", 12, color, NULL, "%" PRIu64, m->n);
		if (!m->n)
			continue;
		textf(f, x + 265, y, "end", 12, color, NULL, "%.3f", (double)m->min / 1e3);
		textf(f, x + 360, y, "end", 12, color, NULL, "%.3f", stats_moments_mean(m) / 1e3);
		textf(f, x + 455, y, "end", 12, color, NULL, "%.3f", (double)m->max / 1e3);
	}
	y += dy + 6;
	if (!isnan(analysis_duty_cycle(a))) {
		textf(f, x, y, "start", 13, C_TEXT, NULL, "duty cycle %.3f %%",
		      analysis_duty_cycle(a) * 100);
		y += dy;
	}
	if (a->src->has_intended && r->wake.m.n) {
		textf(f, x, y, "start", 13, C_TEXT, NULL, "latency p99 %.3f us, p99.99 %.3f us",
		      (double)stats_hist_percentile(&r->wake, 99) / 1e3,
		      (double)stats_hist_percentile(&r->wake, 99.99) / 1e3);
		y += dy;
	}
	if (r->pulses_skipped)
		textf(f, x, y, "start", 12, C_MUTED, NULL, "%" PRIu64 " pulses not measured (gaps, errors)",
		      r->pulses_skipped);
}

static void histogram(FILE *f, const struct analysis *a, double x0, double y0, double x1, double y1)
{
	const struct stats_linhist *h = &a->hist;
	bool width = a->o.hist_of_width || !a->src->has_intended;
	size_t i, lo = SIZE_MAX, hi = 0;
	uint64_t cmax = 1;
	struct axis ax, ay;
	char label[128];

	for (i = 0; i < h->nbuckets; i++) {
		if (!h->counts[i])
			continue;
		if (lo == SIZE_MAX)
			lo = i;
		hi = i;
		if (h->counts[i] > cmax)
			cmax = h->counts[i];
	}
	if (lo == SIZE_MAX)
		lo = hi = 0;
	if (!width)
		lo = 0;
	ax = (struct axis){ (double)lo, (double)hi + 1 + (double)(hi + 1 - lo) * 0.04, x0, x1, false };
	if (ax.hi - ax.lo < 10) {
		double mid = (ax.hi + ax.lo) / 2;

		ax.lo = width ? floor(mid - 5) : 0;
		ax.hi = ax.lo + 10;
	}
	ay = (struct axis){ 0.7, pow(10, ceil(log10((double)cmax * 1.5))), y1, y0, true };
	textf(f, x0, y0 - 12, "start", 14, C_TEXT, "bold", "%s histogram, 1 us buckets",
	      width ? "Pulse width" : "Wake latency");
	axes(f, &ax, &ay, width ? "pulse width (us)" : "wake-up latency (us)", "edges (log scale)");
	for (i = lo; i <= hi && i < h->nbuckets; i++) {
		double px, pw, py;

		if (!h->counts[i])
			continue;
		px = ax_map(&ax, (double)i);
		pw = ax_map(&ax, (double)i + 1) - px;
		py = ax_map(&ay, (double)h->counts[i]);
		rect(f, px, py, pw > 1.5 ? pw - 0.5 : pw, ay.p0 - py, width ? C_POS : C_LAT, 0.85);
	}
	if (h->m.n) {
		double pmax = ax_map(&ax, (double)h->m.max / 1e3);

		line(f, pmax, ay.p1, pmax, ay.p0, C_BAD, 1.5, "5,3");
		textf(f, pmax - 4, ay.p1 + 14, "end", 11, C_BAD, NULL, "max %.3f us",
		      (double)h->m.max / 1e3);
	}
	if (h->overflow) {
		snprintf(label, sizeof(label), "%" PRIu64 " above %zu us (overflow)", h->overflow,
			 h->nbuckets);
		text(f, x1 - 6, ay.p1 + 30, "end", 11, C_BAD, NULL, label);
	}
}

/* Time axis in a readable unit. */
static double time_unit(double span_s, const char **name)
{
	if (span_s > 7200) {
		*name = "h";
		return 3600;
	}
	if (span_s > 600) {
		*name = "min";
		return 60;
	}
	if (span_s < 0.5) {
		*name = "ms";
		return 1e-3;
	}
	*name = "s";
	return 1;
}

static void over_time(FILE *f, const struct analysis *a, double x0, double y0, double x1,
		      double y1, bool latency)
{
	const struct edgestats_result *r = analysis_stats(a);
	double span_s = a->have_edge ? (double)(int64_t)(a->last.intended_ns - a->first.intended_ns) / 1e9
				     : 0, unit, wlo = INFINITY, whi = -INFINITY;
	const char *uname;
	struct axis ax, ay;
	char xlabel[64];
	int64_t tmin_lim = meta_limit(a, "limits.tmin"), tmax_lim = meta_limit(a, "limits.tmax");
	size_t i;
	int p;

	unit = time_unit(span_s, &uname);
	snprintf(xlabel, sizeof(xlabel), "time since the first edge (%s)", uname);
	ax = (struct axis){ 0, span_s / unit > 0 ? span_s / unit : 1, x0, x1, false };
	for (i = 0; i < a->nbins; i++) {
		const struct analyze_span *b = &a->bins[i];

		for (p = 0; p < 2 && !latency; p++) {
			if (!b->pulses[p])
				continue;
			wlo = fmin(wlo, (double)b->wmin[p]);
			whi = fmax(whi, (double)b->wmax[p]);
		}
		if (latency && b->lat_max != INT64_MIN) {
			wlo = fmin(wlo, (double)(b->lat_max > 0 ? b->lat_max : 1));
			whi = fmax(whi, (double)b->lat_max);
		}
	}
	if (!latency && a->src->half_period_ns > 0) {
		wlo = fmin(wlo, (double)a->src->half_period_ns);
		whi = fmax(whi, (double)a->src->half_period_ns);
	}
	if (!latency && tmin_lim)
		wlo = fmin(wlo, (double)tmin_lim);
	if (!latency && tmax_lim)
		whi = fmax(whi, (double)tmax_lim);
	if (!isfinite(wlo)) {
		wlo = 0;
		whi = 1000;
	}
	wlo /= 1e3;
	whi /= 1e3;
	if (latency || (wlo > 0 && whi / wlo > 20)) {
		ay = (struct axis){ pow(10, floor(log10(wlo > 0.01 ? wlo : 0.01))),
				    pow(10, ceil(log10(whi > 0.01 ? whi * 1.2 : 0.1))), y1, y0, true };
	} else {
		double pad = (whi - wlo) * 0.12 + 0.5;

		ay = (struct axis){ wlo - pad, whi + pad, y1, y0, false };
	}
	textf(f, x0, y0 - 12, "start", 14, C_TEXT, "bold", "%s",
	      latency ? "Worst wake-up latency over time" : "Pulse width min..max over time");
	axes(f, &ax, &ay, xlabel, latency ? "max latency (us, log scale)" : "pulse width (us)");
	for (i = 0; i < a->nbins; i++) {
		const struct analyze_span *b = &a->bins[i];
		double px = ax_map(&ax, (double)i * (double)a->bin_ns / 1e9 / unit);
		double pw = ax_map(&ax, (double)(i + 1) * (double)a->bin_ns / 1e9 / unit) - px;

		if (latency) {
			if (b->lat_max != INT64_MIN) {
				double py = ax_map(&ay, (double)b->lat_max / 1e3);

				rect(f, px, py, pw, ay.p0 - py, C_LAT, 0.75);
			}
			continue;
		}
		for (p = 0; p < 2; p++) {
			double ylo, yhi;

			if (!b->pulses[p])
				continue;
			ylo = ax_map(&ay, (double)b->wmin[p] / 1e3);
			yhi = ax_map(&ay, (double)b->wmax[p] / 1e3);
			rect(f, px, yhi, pw, ylo - yhi, p ? C_NEG : C_POS, 0.55);
		}
	}
	if (!latency) {
		double lx = x0 + 10, ly = y0 - 12;

		if (a->src->half_period_ns > 0) {
			double py = ax_map(&ay, (double)a->src->half_period_ns / 1e3);

			line(f, x0, py, x1, py, "#555", 1, "2,3");
		}
		if (tmin_lim) {
			double py = ax_map(&ay, (double)tmin_lim / 1e3);

			line(f, x0, py, x1, py, C_BAD, 1.5, "6,3");
		}
		if (tmax_lim) {
			double py = ax_map(&ay, (double)tmax_lim / 1e3);

			line(f, x0, py, x1, py, C_BAD, 1.5, "6,3");
		}
		lx = x1 - 520;
		lx = legend(f, lx, ly, C_POS, false, "positive pulses");
		lx = legend(f, lx, ly, C_NEG, false, "negative pulses");
		if (a->src->half_period_ns > 0)
			lx = legend(f, lx, ly, "#555", true, "nominal");
		if (tmin_lim || tmax_lim)
			legend(f, lx, ly, C_BAD, true, "limits");
	}
	/* the worst edges, where a user should look in a trace */
	if (a->nworst && (latency || !a->src->has_intended)) {
		size_t n = a->nworst;

		for (i = n; i-- > 0;) {
			const struct analyze_worst *w = &a->worst[i];
			double t = (double)(int64_t)(w->intended_ns - r->first_intended_ns) / 1e9 / unit;
			double px = ax_map(&ax, t);
			double v = latency ? (double)w->latency_ns / 1e3
					   : (double)(w->has_before ? w->before_ns : 0) / 1e3;
			double py = ax_map(&ay, v);

			fprintf(f, "<path d=\"M%.1f,%.1f l-5,-9 h10 z\" fill=\"%s\" stroke=\"#fff\" "
				"stroke-width=\"0.8\"/>\n", px, py - 1, C_BAD);
			if (i < WORST_LABELS)
				textf(f, px, py - 13, "middle", 10, C_BAD, NULL, "#%" PRIu64, w->seq);
		}
		fprintf(f, "<path d=\"M%.1f,%.1f l-5,-9 h10 z\" fill=\"%s\"/>\n", x1 - 180, y0 - 13, C_BAD);
		textf(f, x1 - 168, y0 - 12, "start", 12, C_TEXT, NULL, "worst %zu edges (%s)", n,
		      latency ? "by latency" : "by width");
	}
}

int svgplot_analysis(const char *path, const struct analysis *a)
{
	bool to_stdout = !strcmp(path, "-");
	FILE *f = to_stdout ? stdout : fopen(path, "we");
	bool lat = a->src->has_intended;
	int ret = 0;

	if (!f)
		return -1;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" " FONT ">\n", W, H, W, H);
	fprintf(f, "<title>sqwave analyze</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fafafa\"/>\n");
	title(f, a);
	histogram(f, a, 100, 130, 640, 390);
	key_numbers(f, a, 700, 130);
	if (lat) {
		over_time(f, a, 100, 470, 1160, 620, false);
		over_time(f, a, 100, 700, 1160, 840, true);
	} else {
		over_time(f, a, 100, 470, 1160, 840, false);
	}
	fprintf(f, "</svg>\n");
	if (to_stdout)
		return fflush(f) ? -1 : 0;
	if (ferror(f))
		ret = -1;
	if (fclose(f) && !ret)
		ret = -1;
	return ret;
}
