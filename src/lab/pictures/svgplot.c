/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SVG picture of an analysis, drawn for an engineer who has a scope on
 * the pin. Plain SVG 1.1, no script, no external font or style sheet, so it
 * renders the same in any browser or viewer. */
#include "pictures/svgplot.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "stats/loopstats.h"
#include "base/outfile.h"
#include "base/escape.h"
#include "base/utf8.h"
#include "stats/persist.h"
#include "summary/soakview.h"
#include "base/units.h"

#define W 1200
#define FONT "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\""
#define C_POS "#1f77b4"
#define C_NEG "#ff7f0e"
#define C_POS_NOM "#0b3a63"    /* a polarity's nominal: darker than its pulses */
#define C_NEG_NOM "#8f4200"
#define C_LAT "#2ca02c"
#define C_BAD "#d62728"
#define C_GOOD "#2ca02c"
#define C_NONE "#7f7f7f"
#define C_GRID "#e3e3e3"
#define C_TEXT "#222"
#define C_MUTED "#666"
#define C_WARMUP "#d9d9d9"
#define C_PHASE_A "#4c78a8"     /* a soak's phase bands, alternating */
#define C_PHASE_B "#e8a33d"
#define C_BOUNDARY "#444"
#define C_BUSY "#9467bd"
#define C_PPS "#17a2b8"
#define SOAK_MAX_PHASES 64      /* soakview's own limit */
#define PROOF_POINTS 530        /* steps of the proof-of-load lines, at most */
#define PROOF_H 110             /* the proof-of-load strip's plot height */
#define WORST_LABELS 10         /* worst edges labelled with their number, if room */
#define WIDTH_BINS 120          /* bins of the linear pulse-width histogram */
#define MAX_LABELS 256

/* One axis: data range, pixel range, linear or log10. */
struct axis {
	double lo, hi;          /* data */
	double p0, p1;          /* pixels for lo and hi */
	bool log;
};

/* Boxes already taken by labels of a plot, so that none overlaps another. */
struct labels {
	double x0[MAX_LABELS], y0[MAX_LABELS], x1[MAX_LABELS], y1[MAX_LABELS];
	size_t n;
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

/* Control characters an SVG cannot carry are left out. */
static void xml_text(FILE *f, const char *s)
{
	escape_xml(f, s, SIZE_MAX, ESCAPE_XML_DROP_CTL);
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

/* A marker: a small triangle pointing down at (x, y) (up when @up). */
static void marker(FILE *f, double x, double y, bool up, const char *color)
{
	fprintf(f, "<path d=\"M%.1f,%.1f l-5,%d h10 z\" fill=\"%s\" stroke=\"#fff\" "
		"stroke-width=\"0.8\"/>\n", x, y, up ? 9 : -9, color);
}

/* Tick label for a value. */
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

/* The same for what is drawn as a solid line. */
static double legend_line(FILE *f, double x, double y, const char *color, const char *label)
{
	line(f, x, y - 4, x + 22, y - 4, color, 2, NULL);
	text(f, x + 28, y, "start", 12, C_TEXT, NULL, label);
	return x + 28 + 7.0 * (double)strlen(label) + 18;
}

/* Keep the box of a marker at (x, y) clear of labels. */
static void label_block(struct labels *lb, double x, double y)
{
	if (lb->n == MAX_LABELS)
		return;
	lb->x0[lb->n] = x - 6;
	lb->x1[lb->n] = x + 6;
	lb->y0[lb->n] = y - 11;
	lb->y1[lb->n] = y + 1;
	lb->n++;
}

/* Place a label of @len characters (font 10) near (x, y): above it, or
 * higher, or below, inside [top, bottom] x [left, right] and clear of every
 * label placed before. Returns false (and places nothing) when no spot is
 * free: labels never overlap, a crowded plot shows fewer numbers. */
static bool label_place(struct labels *lb, double x, double y, size_t len, double left,
			double right, double top, double bottom, double *lx, double *ly)
{
	double w = 6.2 * (double)len + 4, h = 12;
	static const double dy[] = { -13, -26, -39, -52, 22, 35, -65, -78 };
	size_t i, k;

	if (lb->n == MAX_LABELS)
		return false;
	for (i = 0; i < sizeof(dy) / sizeof(dy[0]); i++) {
		double cx = x, by = y + dy[i];
		double x0 = cx - w / 2, x1 = cx + w / 2, y0 = by - h + 2, y1 = by + 2;
		bool free = true;

		if (x0 < left) {
			x1 += left - x0;
			x0 = left;
		}
		if (x1 > right) {
			x0 -= x1 - right;
			x1 = right;
		}
		if (y0 < top || y1 > bottom)
			continue;
		for (k = 0; k < lb->n && free; k++)
			free = x1 <= lb->x0[k] || x0 >= lb->x1[k] || y1 <= lb->y0[k] || y0 >= lb->y1[k];
		if (!free)
			continue;
		lb->x0[lb->n] = x0;
		lb->x1[lb->n] = x1;
		lb->y0[lb->n] = y0;
		lb->y1[lb->n] = y1;
		lb->n++;
		*lx = (x0 + x1) / 2;
		*ly = by;
		return true;
	}
	return false;
}


/* CLOCK_REALTIME of intended time @t of a log, 0 when not known. */
static uint64_t wall_ns(const struct analysis *a, uint64_t t)
{
	const struct edgelog_meta *m = a->src->meta;

	if (!m || !m->start_realtime_ns)
		return 0;
	return m->start_realtime_ns + (t - m->start_ns);
}

/* "2025-06-01 14:03:07.250 UTC" (@ms: with milliseconds). */
static const char *wall_text(uint64_t ns, bool ms, char *buf, size_t len)
{
	time_t s = (time_t)(ns / 1000000000u);
	struct tm tm;
	char d[48];

	gmtime_r(&s, &tm);
	strftime(d, sizeof(d), "%Y-%m-%d %H:%M:%S", &tm);
	if (ms)
		snprintf(buf, len, "%s.%03u UTC", d, (unsigned)(ns / 1000000u % 1000u));
	else
		snprintf(buf, len, "%s UTC", d);
	return buf;
}

/* What each polarity's pulses should measure (ns; 0: nothing, no marker),
 * [EDGESTATS_POS] and [EDGESTATS_NEG]: the source's pin (log/pin.h: a
 * wave's high and low, a respond log's pulse width for its active level in
 * pulse mode and nothing else, a capture's half period when known). The one
 * place the picture learns what the pin should do. */
static void nominal_widths(const struct analysis *a, double nom[2])
{
	nom[EDGESTATS_POS] = (double)a->src->pin.nominal_ns[PIN_POS];
	nom[EDGESTATS_NEG] = (double)a->src->pin.nominal_ns[PIN_NEG];
}

/* The centre of the width axis: the nominal of a square wave, else the
 * mean width (a source that does not know its wave); 0 when neither. */
static double width_centre(const struct analysis *a, const double nom[2])
{
	const struct edgestats_result *r = analysis_stats(a);

	if (nom[EDGESTATS_POS] > 0 && nom[EDGESTATS_POS] == nom[EDGESTATS_NEG])
		return nom[EDGESTATS_POS];
	if (r->width[EDGESTATS_ANY].h.m.n)
		return stats_moments_mean(&r->width[EDGESTATS_ANY].h.m);
	return nom[EDGESTATS_POS] > 0 ? nom[EDGESTATS_POS] : nom[EDGESTATS_NEG];
}

/*
 * The linear width axis (us) over what matters: each polarity's nominal,
 * the limits and 99 % of the pulses, never narrower than +-2 % of the
 * nominal. A square wave's axis is centred on its nominal; a duty wave's
 * (two nominals) and a source without one on the middle of those figures.
 * What lies beyond is drawn at the edge and counted as off scale: a 7 ms
 * pulse must not squeeze the 414..584 us band a scope user reads.
 */
static void width_range(const struct analysis *a, double *lo, double *hi)
{
	const struct edgestats_result *r = analysis_stats(a);
	const struct stats_hist *h = &r->width[EDGESTATS_ANY].h;
	double nom[2], c, d, mn = INFINITY, mx = -INFINITY, v[6];
	size_t i, nv = 0;

	nominal_widths(a, nom);
	c = width_centre(a, nom);
	if (nom[EDGESTATS_POS] > 0)
		v[nv++] = nom[EDGESTATS_POS];
	if (nom[EDGESTATS_NEG] > 0)
		v[nv++] = nom[EDGESTATS_NEG];
	if (a->lim_tmin_ns > 0)
		v[nv++] = (double)a->lim_tmin_ns;
	if (a->lim_tmax_ns > 0)
		v[nv++] = (double)a->lim_tmax_ns;
	if (h->m.n) {
		v[nv++] = (double)stats_hist_percentile(h, 0.5);
		v[nv++] = (double)stats_hist_percentile(h, 99.5);
	}
	for (i = 0; i < nv; i++) {
		mn = fmin(mn, v[i]);
		mx = fmax(mx, v[i]);
	}
	if (!(nom[EDGESTATS_POS] > 0 && nom[EDGESTATS_POS] == nom[EDGESTATS_NEG]) && nv)
		c = (mn + mx) / 2;
	d = c * 0.02;
	for (i = 0; i < nv; i++)
		d = fmax(d, fabs(v[i] - c));
	if (!(d > 0))
		d = 1000;
	d *= 1.4;
	*lo = fmax(0, (c - d) / 1e3);
	*hi = (c + d) / 1e3;
}

/* The nominal widths as lines on a width axis: one per polarity in its
 * colour (class "nominal nominal-pos" / "nominal-neg"), or one grey line
 * for both when they are the same. @vertical: across a histogram at x,
 * else across a plot over time at y; from @a0 to @a1 along the other axis.
 * Returns how many were drawn. */
static int nominal_lines(FILE *f, const struct analysis *a, const struct axis *ax, bool vertical,
			 double a0, double a1)
{
	static const char *const cls[] = { "nominal nominal-pos", "nominal nominal-neg" };
	double nom[2];
	int p, n = 0;

	nominal_widths(a, nom);
	for (p = 0; p < 2; p++) {
		bool both = nom[0] == nom[1];
		double v;

		if (!(nom[p] > 0) || (both && p))
			continue;
		v = ax_map(ax, nom[p] / 1e3);
		fprintf(f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\" stroke-width=\"%s\" stroke-dasharray=\"2,3\"/>\n",
			both ? "nominal nominal-pos nominal-neg" : cls[p], vertical ? v : a0,
			vertical ? a0 : v, vertical ? v : a1, vertical ? a1 : v,
			both ? "#555" : p ? C_NEG_NOM : C_POS_NOM, both ? "1" : "1.4");
		n++;
	}
	return n;
}

/* The legend's nominal entries, as nominal_lines() draws them. */
static double nominal_legend(FILE *f, const struct analysis *a, double lx, double ly)
{
	double nom[2];

	nominal_widths(a, nom);
	if (nom[0] > 0 && nom[0] == nom[1])
		return legend(f, lx, ly, "#555", true, "nominal");
	if (nom[EDGESTATS_POS] > 0)
		lx = legend(f, lx, ly, C_POS_NOM, true, "nominal +");
	if (nom[EDGESTATS_NEG] > 0)
		lx = legend(f, lx, ly, C_NEG_NOM, true, "nominal -");
	return lx;
}

/* ---- the header: what, where, when, and the verdict ---- */

static void header(FILE *f, const struct analysis *a)
{
	const struct analyze_source_info *s = a->src;
	const struct edgestats_result *r = analysis_stats(a);
	const char *base = strrchr(s->path, '/');
	char b1[128], b2[256], b3[64], sub[768], when[64];
	const char *color = !a->verdict ? C_NONE : !strcmp(a->verdict, "PASS") ? C_GOOD
			    : !strcmp(a->verdict, "FAIL") ? C_BAD : C_NONE;

	base = base ? base + 1 : s->path;
	textf(f, 40, 38, "start", 22, C_TEXT, "bold", "sqwave analyze: %s", base);
	if (s->kind == ANALYZE_SRC_LOG) {
		const char *board = analyze_source_meta(a->src, "board.name", b1, sizeof(b1));
		const char *kernel = analyze_source_meta(a->src, "host.kernel", b2, sizeof(b2));
		const char *rt = analyze_source_meta(a->src, "host.preempt_rt", b3, sizeof(b3));

		snprintf(sub, sizeof(sub), "board %s  |  kernel %s  |  PREEMPT_RT %s",
			 board ? board : "?", kernel ? kernel : "?", rt ? rt : "?");
	} else if (s->kind_ops) {
		s->kind_ops->title(s->kind_state, sub, sizeof(sub));	/* a capture's channel */
	} else {
		snprintf(sub, sizeof(sub), "edge list (%s)", s->format);
	}
	text(f, 40, 62, "start", 13, C_MUTED, NULL, sub);
	snprintf(sub, sizeof(sub), "%" PRIu64 " edges over %.3f s", r->edges,
		 a->have_edge ? (double)(int64_t)(a->last.intended_ns - a->first.intended_ns) / 1e9 : 0.0);
	/* the wave the pin should make (a respond log's answers have none) */
	if (s->pin.kind == PIN_WAVE && s->pin.wave.high_ns > 0 && !wave_is_square(&s->pin.wave))
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "  |  high %.3f us, low %.3f us",
			 (double)s->pin.wave.high_ns / 1e3, (double)s->pin.wave.low_ns / 1e3);
	else if (s->half_period_ns > 0 && s->pin.kind == PIN_WAVE)
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "  |  half period %.3f us",
			 (double)s->half_period_ns / 1e3);
	if (s->has_intended)
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "  |  %" PRIu64 " missed periods",
			 r->missed_periods);
	if (s->truncated)
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "  |  TRUNCATED LOG");
	text(f, 40, 82, "start", 13, s->truncated ? C_BAD : C_MUTED, NULL, sub);
	if (a->have_edge && wall_ns(a, a->first.intended_ns))
		textf(f, 40, 102, "start", 13, C_MUTED, NULL, "first edge %s, last %s",
		      wall_text(wall_ns(a, a->first.intended_ns), true, sub, sizeof(sub)),
		      wall_text(wall_ns(a, a->last.intended_ns), true, when, sizeof(when)));

	/* the verdict, where the eye lands first */
	fprintf(f, "<rect x=\"860\" y=\"16\" width=\"300\" height=\"92\" rx=\"6\" fill=\"%s\" "
		"fill-opacity=\"0.12\" stroke=\"%s\" stroke-width=\"2\"/>\n", color, color);
	textf(f, 1010, 50, "middle", 24, color, "bold", "%s", a->verdict ? a->verdict : "NOT JUDGED");
	if (a->lim_tmin_ns > 0 || a->lim_tmax_ns > 0) {
		textf(f, 1010, 74, "middle", 13, C_TEXT, NULL, "%" PRIu64 " pulse%s outside %s..%s us",
		      a->pulses_below + a->pulses_above,
		      a->pulses_below + a->pulses_above == 1 ? "" : "s",
		      a->lim_tmin_ns > 0 ? UNITS_US(a->lim_tmin_ns) : "0",
		      a->lim_tmax_ns > 0 ? UNITS_US(a->lim_tmax_ns) : "inf");
		textf(f, 1010, 94, "middle", 11, C_MUTED, NULL, "(%" PRIu64 " below Tmin, %" PRIu64
		      " above Tmax; bounds)", a->pulses_below, a->pulses_above);
	} else if (a->verdict && !a->limits_set) {
		text(f, 1010, 76, "middle", 12, C_TEXT, NULL, "no limits: nothing was checked");
		text(f, 1010, 94, "middle", 11, C_MUTED, NULL, "(analyze --tmin/--tmax)");
	} else if (a->verdict_why[0]) {
		text(f, 1010, 80, "middle", 12, C_TEXT, NULL, "see the reasons below");
	}
	if (a->verdict_why[0]) {
		char first[160];
		size_t n = strcspn(a->verdict_why, "\n");

		snprintf(first, sizeof(first), "%.*s%s", (int)(n > 150 ? 150 : n), a->verdict_why,
			 n > 150 ? "..." : "");
		text(f, 40, 122, "start", 12, C_BAD, NULL, first);
	}
}

/* ---- histograms ---- */

/* A linear histogram of 1 us buckets (the latency one of cyclictest -h). */
static void lat_histogram(FILE *f, const struct analysis *a, double x0, double y0, double x1,
			  double y1)
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
	      width ? "Pulse width" : "Wake-up latency");
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
	if (!width && a->lim_wake_ns > 0 && (double)a->lim_wake_ns / 1e3 <= ax.hi) {
		double px = ax_map(&ax, (double)a->lim_wake_ns / 1e3);

		line(f, px, ay.p1, px, ay.p0, C_BAD, 1.5, "6,3");
		text(f, px + 4, ay.p1 + 28, "start", 11, C_BAD, NULL, "limit");
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

struct width_bins {
	double lo, hi;                  /* us */
	uint64_t n[2][WIDTH_BINS];      /* positive, negative */
	uint64_t below, above;          /* off scale */
};

struct width_walk {
	struct width_bins *b;
	int pol;
};

static void width_bucket(void *ctx, int64_t lo, int64_t hi, uint64_t count)
{
	struct width_walk *w = ctx;
	struct width_bins *b = w->b;
	double v = ((double)lo + (double)hi) / 2e3;

	if (v < b->lo)
		b->below += count;
	else if (v >= b->hi)
		b->above += count;
	else
		b->n[w->pol][(size_t)((v - b->lo) / (b->hi - b->lo) * WIDTH_BINS)] += count;
}

/* What a scope's histogram of widths shows: positive and negative pulses on
 * a linear axis around the nominal width, the limits, what is off scale. */
static void width_histogram(FILE *f, const struct analysis *a, double x0, double y0, double x1,
			    double y1)
{
	const struct edgestats_result *r = analysis_stats(a);
	static struct width_bins b;
	struct width_walk w = { &b, 0 };
	uint64_t cmax = 1;
	struct axis ax, ay;
	size_t i;
	int p;

	memset(&b, 0, sizeof(b));
	width_range(a, &b.lo, &b.hi);
	for (p = 0; p < 2; p++) {
		w.pol = p;
		stats_hist_walk(&r->width[p].h, width_bucket, &w);
		b.below += r->width[p].h.ovf_low;
		b.above += r->width[p].h.ovf_high;
		for (i = 0; i < WIDTH_BINS; i++)
			if (b.n[p][i] > cmax)
				cmax = b.n[p][i];
	}
	ax = (struct axis){ b.lo, b.hi, x0, x1, false };
	ay = (struct axis){ 0.7, pow(10, ceil(log10((double)cmax * 1.5))), y1, y0, true };
	text(f, x0, y0 - 12, "start", 14, C_TEXT, "bold", "Pulse-width histogram (what the scope histograms)");
	axes(f, &ax, &ay, "pulse width (us, linear around the nominal)", "pulses (log scale)");
	for (p = 0; p < 2; p++) {
		for (i = 0; i < WIDTH_BINS; i++) {
			double px = ax_map(&ax, b.lo + (b.hi - b.lo) * (double)i / WIDTH_BINS);
			double pw = (x1 - x0) / WIDTH_BINS;
			double py;

			if (!b.n[p][i])
				continue;
			py = ax_map(&ay, (double)b.n[p][i]);
			rect(f, px, py, pw, ay.p0 - py, p ? C_NEG : C_POS, 0.55);
		}
	}
	nominal_lines(f, a, &ax, true, ay.p1, ay.p0);
	if (a->lim_tmin_ns > 0)
		line(f, ax_map(&ax, (double)a->lim_tmin_ns / 1e3), ay.p1,
		     ax_map(&ax, (double)a->lim_tmin_ns / 1e3), ay.p0, C_BAD, 1.5, "6,3");
	if (a->lim_tmax_ns > 0)
		line(f, ax_map(&ax, (double)a->lim_tmax_ns / 1e3), ay.p1,
		     ax_map(&ax, (double)a->lim_tmax_ns / 1e3), ay.p0, C_BAD, 1.5, "6,3");
	if (b.below)
		textf(f, x0 + 6, ay.p1 + 14, "start", 11, C_BAD, NULL, "< %" PRIu64 " shorter, off scale",
		      b.below);
	if (b.above)
		textf(f, x1 - 6, ay.p1 + 14, "end", 11, C_BAD, NULL, "%" PRIu64 " longer, off scale >",
		      b.above);
	{
		double lx = x0 + 4, ly = y1 + 56;

		lx = legend(f, lx, ly, C_POS, false, "positive");
		lx = legend(f, lx, ly, C_NEG, false, "negative");
		lx = nominal_legend(f, a, lx, ly);
		if (a->lim_tmin_ns > 0 || a->lim_tmax_ns > 0)
			legend(f, lx, ly, C_BAD, true, "limits");
	}
}

/* ---- key numbers ---- */

/* run --loopback: what the kernel saw of the same pulses (docs/loopback.md),
 * two lines under the key numbers. */
static void key_loopback(FILE *f, const struct loopstats_result *lb, double x, double y,
			 double dy)
{
	const struct edgestats_widths *any = &lb->width[EDGESTATS_ANY];

	if (any->h.m.n)
		textf(f, x, y, "start", 12, C_TEXT, NULL, "kernel (loopback): Tmin %.3f us, Tmax "
		      "%.3f us", (double)any->tmin.width_ns / 1e3, (double)any->tmax.width_ns / 1e3);
	else
		text(f, x, y, "start", 12, C_TEXT, NULL, "kernel (loopback): no complete pulse");
	y += dy - 4;
	if (lb->early)
		textf(f, x, y, "start", 11, C_BAD, NULL, "%" PRIu64 " events before their write "
		      "began: the input follows something else", lb->early);
	else
		textf(f, x, y, "start", 11, C_MUTED, NULL, "seen %.3f us after the write ended "
		      "(p99); %" PRIu64 " of %" PRIu64 " edges seen, %" PRIu64 " extra",
		      (double)stats_hist_percentile(&lb->from_end, 99) / 1e3, lb->events, lb->edges,
		      lb->extra);
}

static void key_numbers(FILE *f, const struct analysis *a, double x, double y)
{
	const struct edgestats_result *r = analysis_stats(a);
	const struct edgestats_widths *any = &r->width[EDGESTATS_ANY];
	double dy = 21;
	int i;

	text(f, x, y, "start", 14, C_TEXT, "bold", "What the scope should show");
	y += 8;
	line(f, x, y, x + 400, y, "#ccc", 1, NULL);
	y += 22;
	if (any->h.m.n) {
		textf(f, x, y, "start", 13, C_TEXT, NULL, "Tmin  %.3f us   (pulse #%" PRIu64 ")",
		      (double)any->tmin.width_ns / 1e3, any->tmin.at.seq);
		y += dy;
		textf(f, x, y, "start", 13, C_TEXT, NULL, "Tmax  %.3f us   (pulse #%" PRIu64 ")",
		      (double)any->tmax.width_ns / 1e3, any->tmax.at.seq);
		y += dy - 4;
		textf(f, x, y, "start", 11, C_MUTED, NULL, "bounds %.3f .. %.3f us; a pulse is numbered "
		      "by the edge that ends it", (double)any->tmin_bound.lo_ns / 1e3,
		      (double)any->tmax_bound.hi_ns / 1e3);
		y += dy + 6;
	} else {
		text(f, x, y, "start", 13, C_BAD, NULL, "no complete pulse");
		y += dy + 6;
	}
	{
		static const char *const head[] = { "count", "min us", "mean us", "max us" };

		for (i = 0; i < 4; i++)
			text(f, x + 150 + 83 * i, y, "end", 12, C_MUTED, NULL, head[i]);
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
		textf(f, x + 150, y, "end", 12, color, NULL, "%" PRIu64, m->n);
		if (!m->n)
			continue;
		textf(f, x + 233, y, "end", 12, color, NULL, "%.3f", (double)m->min / 1e3);
		textf(f, x + 316, y, "end", 12, color, NULL, "%.3f", stats_moments_mean(m) / 1e3);
		textf(f, x + 399, y, "end", 12, color, NULL, "%.3f", (double)m->max / 1e3);
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
	if (r->pulses_skipped) {
		textf(f, x, y, "start", 12, C_MUTED, NULL, "%" PRIu64 " pulses not measured (gaps, errors)",
		      r->pulses_skipped);
		y += dy;
	}
	if (a->soak && a->soak->loopback)
		key_loopback(f, a->soak->loopback, x, y, dy);
}

/* ---- the persistence view ---- */

/* A scope's colour grade for density @d in (0, 1]: 1e-4 and below dark
 * blue, through cyan, green and yellow, to red for every period. */
static void grade(double d, char *buf, size_t len)
{
	static const double stops[][3] = {
		{ 20, 40, 160 }, { 0, 170, 220 }, { 40, 200, 60 }, { 250, 220, 0 }, { 230, 30, 30 },
	};
	double t = (log10(d) + 4) / 4, k;
	int i;

	t = t < 0 ? 0 : t > 1 ? 1 : t;
	k = t * 4;
	i = (int)k;
	if (i > 3)
		i = 3;
	k -= i;
	snprintf(buf, len, "#%02x%02x%02x", (unsigned)(stops[i][0] + (stops[i + 1][0] - stops[i][0]) * k),
		 (unsigned)(stops[i][1] + (stops[i + 1][1] - stops[i][1]) * k),
		 (unsigned)(stops[i][2] + (stops[i + 1][2] - stops[i][2]) * k));
}

/* One row of cells @counts (of @n windows) between y0 and y1, runs of one
 * colour merged. */
static void grade_row(FILE *f, const uint64_t *counts, size_t nb, uint64_t n, double x0,
		      double x1, double y0, double y1)
{
	char cur[8] = "", c[8];
	double bw = (x1 - x0) / (double)nb, start = 0;
	size_t i;

	for (i = 0; i <= nb; i++) {
		c[0] = '\0';
		if (i < nb && counts[i])
			grade((double)counts[i] / (double)n, c, sizeof(c));
		if (strcmp(c, cur)) {
			if (cur[0])
				fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
					"fill=\"%s\"/>\n", start, y0, x0 + bw * (double)i - start,
					y1 - y0, cur);
			memcpy(cur, c, sizeof(cur));
			start = x0 + bw * (double)i;
		}
	}
}

/* Pulse-width limit @name of @ns (0: none) as the persistence view's mask
 * on @ax, from @y0 to @y1: a dashed line where the window holds it. One
 * beyond the window is no line at its edge, which would read as a limit
 * there, but an arrow on that edge pointing out and its value, "off scale",
 * as the other pictures mark what lies off their axes; @row keeps Tmin's
 * label and Tmax's apart. */
static void persist_limit(FILE *f, const struct axis *ax, const char *name, int64_t ns,
			  double y0, double y1, int row)
{
	double us = (double)ns / 1e3, px, ty = y1 - 12 - 16 * row;
	bool right = us > ax->hi;
	char val[32], buf[96];

	if (ns <= 0)
		return;
	if (us >= ax->lo && !right) {
		px = ax_map(ax, us);
		fprintf(f, "<line class=\"persist-limit\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"6,3\"/>\n",
			px, y0, px, y1, C_BAD);
		return;
	}
	px = right ? ax->p1 : ax->p0;
	fmt_num(val, sizeof(val), us);
	snprintf(buf, sizeof(buf), "%s limit %s us, off scale", name, val);
	fprintf(f, "<path class=\"persist-limit-off-scale\" d=\"M%.1f,%.1f l%d,-5 v10 z\" "
		"fill=\"%s\"><title>", px, ty - 4, right ? -8 : 8, C_BAD);
	xml_text(f, buf);
	fputs("</title></path>\n", f);
	fprintf(f, "<text class=\"persist-limit-off-scale\" x=\"%.1f\" y=\"%.1f\" "
		"text-anchor=\"%s\" font-size=\"11\" fill=\"%s\">", right ? px - 11 : px + 11, ty,
		right ? "end" : "start", C_BAD);
	xml_text(f, buf);
	fputs("</text>\n", f);
}

/* Every period overlaid on its rising edge (by default; or its intended
 * time), as a scope's infinite persistence shows it: where the line was high
 * or low, and where it changed, graded by how many periods did. */
static void persistence(FILE *f, const struct analysis *a, double x0, double y0, double x1,
			double y1)
{
	const struct persist_view *v = persist_view(a->persist);
	bool intended = v->intended_ref;
	double yh = y0 + (y1 - y0) * 0.22, yl = y0 + (y1 - y0) * 0.78, nom[2], lab_end;
	int lab_row;
	struct axis ax;
	char buf[64];
	double t, step;
	int i;

	textf(f, x0, y0 - 12, "start", 14, C_TEXT, "bold", "Persistence: every period on its %s",
	      intended ? "intended rising edge (analyze --persist-trigger intended)"
		       : "rising edge (a scope triggered on the pin)");
	if (!v->nbins || !v->windows) {
		rect(f, x0, y0, x1 - x0, y1 - y0, "#000", 0.9);
		text(f, (x0 + x1) / 2, (y0 + y1) / 2, "middle", 13, "#ddd", NULL,
		     "not enough complete periods");
		return;
	}
	ax = (struct axis){ (double)v->x0_ns / 1e3, (double)(v->x0_ns + v->span_ns) / 1e3, x0, x1,
			    false };
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#000\"/>\n",
		x0, y0, x1 - x0, y1 - y0);
	/* the graticule */
	step = nice_step(ax.hi - ax.lo, 8);
	for (t = ceil(ax.lo / step) * step; t <= ax.hi + step * 1e-9; t += step) {
		double px = ax_map(&ax, t);

		line(f, px, y0, px, y1, "#333", 1, NULL);
		fmt_num(buf, sizeof(buf), fabs(t) < step * 1e-9 ? 0 : t);
		text(f, px, y1 + 16, "middle", 11, C_MUTED, NULL, buf);
	}
	/* the trigger, and where the wave should fall and rise again: the
	 * fall a high time after the rise, the next rise a period after it
	 * (a respond log has no wave: its pulses answer an input) */
	nominal_widths(a, nom);
	for (i = 0, lab_end = -INFINITY, lab_row = 0; i < 3; i++) {
		static const char *const cls[] = { "persist-trigger", "nominal-fall", "nominal-rise" };
		const char *lab = i == 1 ? (intended ? "intended fall" : "nominal fall")
				  : intended ? "intended rise" : i ? "next rise" : "trigger";
		double at = i == 0 ? 0 : i == 1 ? nom[EDGESTATS_POS] / 1e3
			    : nom[EDGESTATS_NEG] > 0 && nom[EDGESTATS_POS] > 0
			    ? (nom[EDGESTATS_POS] + nom[EDGESTATS_NEG]) / 1e3 : 0;
		double px = ax_map(&ax, at);

		if (i && !(at > 0))
			continue;
		fprintf(f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#888\" stroke-width=\"1.0\" stroke-dasharray=\"3,3\"/>\n",
			cls[i], px, y0, px, y1);
		/* a marker close to the one before (a respond pulse of 40 us):
		 * its label a row lower, never over the other */
		lab_row = px + 3 < lab_end + 4 ? !lab_row : 0;
		text(f, px + 3, y0 + 12 + 12 * lab_row, "start", 10, "#bbb", NULL, lab);
		lab_end = px + 3 + 6.0 * (double)strlen(lab);
	}
	/* the mask a pulse-width limit draws for a scope triggered on the rise */
	if (!intended) {
		persist_limit(f, &ax, "Tmin", a->lim_tmin_ns, y0, y1, 0);
		persist_limit(f, &ax, "Tmax", a->lim_tmax_ns, y0, y1, 1);
	}
	grade_row(f, v->high, v->nbins, v->windows, x0, x1, yh - 2.5, yh + 2.5);
	grade_row(f, v->low, v->nbins, v->windows, x0, x1, yl - 2.5, yl + 2.5);
	grade_row(f, v->edges, v->nbins, v->windows, x0, x1, yh, yl);
	text(f, x0 - 6, yh + 4, "end", 11, C_MUTED, NULL, "1");
	text(f, x0 - 6, yl + 4, "end", 11, C_MUTED, NULL, "0");
	textf(f, (x0 + x1) / 2, y1 + 34, "middle", 12, C_TEXT, NULL,
	      "time from the %s (us)", intended ? "intended rising edge" : "rising edge");
	/* the colour scale */
	{
		static const double ds[] = { 1e-4, 1e-3, 1e-2, 1e-1, 1 };
		static const char *const names[] = { "1e-4", "1e-3", "1%", "10%", "all" };
		double lx = x1 - 5 * 46;

		text(f, lx - 6, y1 + 58, "end", 10, C_MUTED, NULL, "periods there:");
		for (i = 0; i < 5; i++) {
			grade(ds[i], buf, sizeof(buf));
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"40\" height=\"8\" fill=\"%s\"/>\n",
				lx + 46 * i, y1 + 50, buf);
			text(f, lx + 46 * i + 20, y1 + 70, "middle", 9, C_MUTED, NULL, names[i]);
		}
	}
	textf(f, x0, y1 + 52, "start", 11, C_MUTED, NULL, "%" PRIu64 " periods overlaid", v->windows);
	if (v->skipped)
		textf(f, x0, y1 + 66, "start", 11, C_MUTED, NULL,
		      "%" PRIu64 " not counted (gaps, glitches, the first)", v->skipped);
}

/* ---- over time ---- */

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

/* The time axis of the plots over time, from the first edge. */
static struct axis time_axis(const struct analysis *a, double x0, double x1, double *unit,
			     const char **uname)
{
	double span_s = a->have_edge ? (double)(int64_t)(a->last.intended_ns - a->first.intended_ns) / 1e9
				     : 0;

	*unit = time_unit(span_s, uname);
	return (struct axis){ 0, span_s / *unit > 0 ? span_s / *unit : 1, x0, x1, false };
}

/* Where the warm-up ends on @ax (pixels); false without a warm-up. */
static bool warmup_end(const struct analysis *a, const struct axis *ax, double unit, double *px)
{
	double end;

	if (!a->have_edge || !(a->first.flags & EDGE_F_WARMUP))
		return false;
	end = a->have_counted ? (double)(int64_t)(a->first_counted_ns - a->first.intended_ns) / 1e9
			      : (double)(int64_t)(a->last.intended_ns - a->first.intended_ns) / 1e9;
	*px = ax_map(ax, end / unit);
	return true;
}

#define WARMUP_LABEL "warm-up (not counted)"

/* The warm-up, shaded where it lies (its edges are in no statistic). */
static void warmup(FILE *f, const struct analysis *a, const struct axis *ax, double y0, double y1,
		   double unit, bool label)
{
	double end;

	if (!warmup_end(a, ax, unit, &end))
		return;
	rect(f, ax->p0, y0, end - ax->p0, y1 - y0, C_WARMUP, 0.6);
	/* (a soak's picture fits it in among the phases' names); centred on
	 * the band, or from its start when the band is narrower than the text
	 * (11 px: 6.6 px a character), never left of the plot */
	if (label && end - ax->p0 >= 6.6 * (double)strlen(WARMUP_LABEL) + 6)
		text(f, (ax->p0 + end) / 2, y0 + 16, "middle", 11, C_MUTED, NULL, WARMUP_LABEL);
	else if (label)
		text(f, ax->p0 + 3, y0 + 16, "start", 11, C_MUTED, NULL, WARMUP_LABEL);
}

/* ---- a soak's phases ---- */

/* Where a soak's phases lie on a time axis (pixels), clipped to the run; a
 * phase the run never reached is not shown. */
struct soak_bands {
	size_t n;
	bool shown[SOAK_MAX_PHASES];
	double x0[SOAK_MAX_PHASES], x1[SOAK_MAX_PHASES];
	const char *name[SOAK_MAX_PHASES];
};

/* The phases of a soak's log (analyze's soak view); 0 for every other
 * source and for a log of one phase (a plain run's "run": the phase is the
 * whole run), whose picture stays as it was. */
static size_t soak_nphases(const struct analysis *a)
{
	size_t n = a->sv && a->have_edge ? soakview_nphases(a->sv) : 0;

	return n < 2 ? 0 : n > SOAK_MAX_PHASES ? SOAK_MAX_PHASES : n;
}

/* Seconds from the first edge to intended time @t (negative before it). */
static double since_first_s(const struct analysis *a, uint64_t t)
{
	return (double)(int64_t)(t - a->first.intended_ns) / 1e9;
}

static void soak_bands_get(const struct analysis *a, const struct axis *ax, double unit,
			   struct soak_bands *sb)
{
	uint64_t starts[SOAK_MAX_PHASES];
	size_t i;

	sb->n = soak_nphases(a);
	if (!sb->n)
		return;
	/* phases start at the end of the warm-up (soakview counts from it) */
	soakview_phase_starts(a->sv, starts);
	for (i = 0; i < sb->n; i++) {
		struct run_phase ph;
		double t0, t1;

		soakview_phase(a->sv, i, &ph);
		sb->name[i] = ph.name;
		t0 = since_first_s(a, starts[i]) / unit;
		/* a phase lasts until the next begins; the last for its duration
		 * (none given: to the end of the run) */
		t1 = i + 1 < sb->n ? since_first_s(a, starts[i + 1]) / unit
		     : ph.duration_ns > 0 ? since_first_s(a, starts[i] + (uint64_t)ph.duration_ns) / unit
		     : ax->hi;
		t0 = fmax(t0, ax->lo);
		t1 = fmin(t1, ax->hi);
		sb->shown[i] = t0 < ax->hi && t1 > t0;
		sb->x0[i] = ax_map(ax, t0);
		sb->x1[i] = ax_map(ax, t1);
	}
}

/* Each phase's time shaded, alternating two light tints. */
static void soak_bands_draw(FILE *f, const struct soak_bands *sb, double y0, double y1)
{
	size_t i;

	for (i = 0; i < sb->n; i++) {
		if (!sb->shown[i])
			continue;
		fprintf(f, "<rect class=\"phase-band\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
			"height=\"%.1f\" fill=\"%s\" fill-opacity=\"%s\"/>\n", sb->x0[i], y0,
			sb->x1[i] - sb->x0[i], y1 - y0, i % 2 ? C_PHASE_B : C_PHASE_A,
			i % 2 ? "0.13" : "0.10");
	}
}

/* A line where one phase ends and the next begins. */
static void soak_boundaries(FILE *f, const struct soak_bands *sb, double y0, double y1)
{
	size_t i;

	for (i = 1; i < sb->n; i++) {
		if (!sb->shown[i])
			continue;
		fprintf(f, "<line class=\"phase-boundary\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"" C_BOUNDARY "\" stroke-width=\"1.2\" "
			"stroke-dasharray=\"5,3\"/>\n", sb->x0[i], y0, sb->x0[i], y1);
	}
}

static bool box_free(const struct labels *lb, double x0, double x1, double y0, double y1)
{
	size_t k;

	for (k = 0; k < lb->n; k++)
		if (!(x1 <= lb->x0[k] || x0 >= lb->x1[k] || y1 <= lb->y0[k] || y0 >= lb->y1[k]))
			return false;
	return true;
}

static void label_take(struct labels *lb, double x0, double x1, double y0, double y1)
{
	if (lb->n == MAX_LABELS)
		return;
	lb->x0[lb->n] = x0;
	lb->x1[lb->n] = x1;
	lb->y0[lb->n] = y0;
	lb->y1[lb->n] = y1;
	lb->n++;
}

/* The first @n characters of UTF-8 @s and an ellipsis, into @buf. */
static void utf8_shorten(const char *s, size_t n, char *buf, size_t len)
{
	size_t i = 0, chars = 0;

	/* stops only where a character begins: never inside one */
	for (; s[i]; i++) {
		if (utf8_starts_char((unsigned char)s[i]) && (chars++ == n || i + 8 > len))
			break;
		buf[i] = s[i];
	}
	memcpy(buf + i, "\xe2\x80\xa6", 4);
}

/*
 * Label @name at the top of a plot (baseline @y0 + 16) inside [@lo, @hi],
 * clear of every label in @lb (which it joins): centred, else just beside
 * what it would hit; a name that does not fit is shortened
 * ("coremark+fl..."), or left out when not three characters would.
 */
static void band_label(FILE *f, struct labels *lb, const char *name, double lo, double hi,
		       double y0, const char *color)
{
	const double cw = 6.6, pad = 6, ty0 = y0 + 5, ty1 = y0 + 20;
	size_t full = utf8_chars(name), len;

	for (len = full; len >= 3 || (len == full && len); len--) {
		double w = cw * (double)len + pad, x = (lo + hi) / 2 - w / 2;
		char buf[96];
		size_t k;
		bool ok;

		if (w > hi - lo)
			continue;
		x = fmin(fmax(x, lo), hi - w);
		ok = box_free(lb, x, x + w, ty0, ty1);
		for (k = 0; k < lb->n && !ok; k++) {
			if (lb->y1[k] <= ty0 || lb->y0[k] >= ty1)
				continue;
			x = lb->x1[k] + 2;
			if (x >= lo && x + w <= hi && box_free(lb, x, x + w, ty0, ty1)) {
				ok = true;
				break;
			}
			x = lb->x0[k] - 2 - w;
			ok = x >= lo && x + w <= hi && box_free(lb, x, x + w, ty0, ty1);
		}
		if (!ok)
			continue;
		if (len == full)
			snprintf(buf, sizeof(buf), "%s", name);
		else
			utf8_shorten(name, len - 1, buf, sizeof(buf));
		label_take(lb, x, x + w, ty0, ty1);
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"2\" "
			"fill=\"#fff\" fill-opacity=\"0.8\"/>\n", x, ty0 + 1, w, ty1 - ty0 - 2);
		fprintf(f, "<text class=\"phase-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
			"font-size=\"11\" fill=\"%s\">", x + w / 2, y0 + 16, color);
		xml_text(f, buf);
		fputs("</text>\n", f);
		return;
	}
}

/* The warm-up's and each phase's name at the top of its band. The boxes
 * join @lb, so the worst edges' labels keep off them. */
static void soak_labels(FILE *f, const struct analysis *a, const struct soak_bands *sb,
			struct labels *lb, const struct axis *ax, double unit, double y0)
{
	double wend;
	size_t i;

	if (warmup_end(a, ax, unit, &wend))
		band_label(f, lb, WARMUP_LABEL, ax->p0 + 3, wend - 3, y0, C_MUTED);
	for (i = 0; i < sb->n; i++)
		if (sb->shown[i])
			band_label(f, lb, sb->name[i], sb->x0[i] + 3, sb->x1[i] - 3, y0, C_TEXT);
}

/* Wall-clock labels along the top of a time axis (logs). */
static void wall_ticks(FILE *f, const struct analysis *a, const struct axis *ax, double y,
		       double unit)
{
	double step = nice_step(ax->hi - ax->lo, 4), v;
	char buf[64];

	if (!a->have_edge || !wall_ns(a, a->first.intended_ns))
		return;
	for (v = ceil(ax->lo / step) * step; v <= ax->hi + step * 1e-9; v += step) {
		uint64_t t = a->first.intended_ns + (uint64_t)llround(v * unit * 1e9);

		/* the time of day ("2025-06-01 " cut, " UTC" too); the date is in
		 * the header */
		wall_text(wall_ns(a, t), step * unit < 1, buf, sizeof(buf));
		buf[strlen(buf) - 4] = '\0';
		/* clear of the y axis' top label at the left edge */
		text(f, ax_map(ax, v), y, ax_map(ax, v) - ax->p0 < 30 ? "start" : "middle", 9,
		     C_MUTED, NULL, buf + 11);
	}
}

/* Where worst edge @w is marked in a plot over time. */
static void worst_at(const struct analysis *a, const struct analyze_worst *w,
		     const struct axis *ax, const struct axis *ay, double unit, bool latency,
		     double *px, double *py)
{
	const struct edgestats_result *r = analysis_stats(a);
	double t = (double)(int64_t)(w->intended_ns - r->first_intended_ns) / 1e9 / unit;
	double v = latency ? (double)w->latency_ns / 1e3
			   : (double)(w->has_before ? w->before_ns : 0) / 1e3;

	*px = ax_map(ax, t);
	*py = ax_map(ay, v) - 1;
}

/* The pulse-width plot's reference lines (nominal, limits), its legend,
 * and what the bands and lines are; how many spans had a pulse off scale
 * and the extremes beyond the axis, under the plot. */
static void width_lines(FILE *f, const struct analysis *a, const struct axis *ay, double x0,
			double y0, double x1, double y1, uint64_t off)
{
	const struct edgestats_widths *any = &analysis_stats(a)->width[EDGESTATS_ANY];
	double lx = x1 - 560, ly = y0 - 12;
	char lo[48] = "", hi[48] = "";

	nominal_lines(f, a, ay, false, x0, x1);
	if (a->lim_tmin_ns > 0) {
		double py = ax_map(ay, (double)a->lim_tmin_ns / 1e3);

		line(f, x0, py, x1, py, C_BAD, 1.5, "6,3");
	}
	if (a->lim_tmax_ns > 0) {
		double py = ax_map(ay, (double)a->lim_tmax_ns / 1e3);

		line(f, x0, py, x1, py, C_BAD, 1.5, "6,3");
	}
	lx = legend_line(f, lx, ly, C_POS, "positive");
	lx = legend_line(f, lx, ly, C_NEG, "negative");
	lx = nominal_legend(f, a, lx, ly);
	if (a->lim_tmin_ns > 0 || a->lim_tmax_ns > 0)
		lx = legend(f, lx, ly, C_BAD, true, "limits");
	text(f, x0, y1 + 52, "start", 11, C_MUTED, NULL,
	     "lines: each span's shortest and longest pulse; bands: the run's p1..p99, p25..p75");
	if (!off)
		return;
	if (any->h.m.n && (double)any->tmin.width_ns / 1e3 < ay->lo)
		snprintf(lo, sizeof(lo), ", shortest %.3f us", (double)any->tmin.width_ns / 1e3);
	if (any->h.m.n && (double)any->tmax.width_ns / 1e3 > ay->hi)
		snprintf(hi, sizeof(hi), ", longest %.3f us", (double)any->tmax.width_ns / 1e3);
	textf(f, x1 - 6, y1 + 52, "end", 11, C_BAD, NULL, "%" PRIu64 " span%s off scale "
	      "(red at the edge)%s%s", off, off == 1 ? "" : "s", lo, hi);
}

/* Where most of a polarity's pulses were over the whole run, as bands
 * across the plot over time: p1..p99 light, p25..p75 darker (class
 * "bulk-band"), for each span's extremes to be read against. */
static void bulk_bands(FILE *f, const struct analysis *a, const struct axis *ay, double x0,
		       double x1)
{
	static const double pct[2][2] = { { 1, 99 }, { 25, 75 } };
	const struct edgestats_result *r = analysis_stats(a);
	int p, k;

	for (p = 0; p < 2; p++) {
		const struct stats_hist *h = &r->width[p].h;

		if (!h->m.n)
			continue;
		for (k = 0; k < 2; k++) {
			double top = ax_map(ay, (double)stats_hist_percentile(h, pct[k][1]) / 1e3);
			double bot = ax_map(ay, (double)stats_hist_percentile(h, pct[k][0]) / 1e3);

			fprintf(f, "<rect class=\"bulk-band\" x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" "
				"height=\"%.2f\" fill=\"%s\" fill-opacity=\"%s\"/>\n", x0, top, x1 - x0,
				fmax(bot - top, 0.8), p ? C_NEG : C_POS, k ? "0.22" : "0.10");
		}
	}
}

/*
 * Each span's shortest and longest pulse of each polarity as step lines
 * (the envelope a scope's min/max acquisition draws; class "env-min",
 * "env-max"), clipped to the axis. A span with a pulse beyond it gets a red
 * tick at that edge (class "off-scale-rug"): many read as a strip along the
 * edge, never as a block over the plot (an ugly hour's every span has a
 * pulse far off). Returns how many spans had one.
 */
static uint64_t width_envelopes(FILE *f, const struct analysis *a, const struct axis *ax,
				const struct axis *ay, double unit)
{
	uint64_t off = 0;
	size_t i;
	int p, k;

	for (p = 0; p < 2; p++) {
		for (k = 0; k < 2; k++) {
			bool open = false;

			for (i = 0; i <= a->nbins; i++) {
				const struct analyze_span *b = &a->bins[i < a->nbins ? i : 0];
				double px, pw, py;

				if (i == a->nbins || !b->pulses[p]) {
					if (open)
						fputs("\"/>\n", f);
					open = false;
					continue;
				}
				px = ax_map(ax, (double)i * (double)a->bin_ns / 1e9 / unit);
				pw = ax_map(ax, (double)(i + 1) * (double)a->bin_ns / 1e9 / unit) - px;
				py = ax_map(ay, (double)(k ? b->wmax[p] : b->wmin[p]) / 1e3);
				if (!open)
					fprintf(f, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" "
						"stroke-width=\"1.2\" stroke-linejoin=\"round\" points=\"",
						k ? "env-max" : "env-min", p ? C_NEG : C_POS);
				fprintf(f, "%s%.1f,%.1f %.1f,%.1f", open ? " " : "", px, py, px + pw, py);
				open = true;
			}
		}
	}
	for (i = 0; i < a->nbins; i++) {
		const struct analyze_span *b = &a->bins[i];
		double px = ax_map(ax, (double)i * (double)a->bin_ns / 1e9 / unit);
		double pw = ax_map(ax, (double)(i + 1) * (double)a->bin_ns / 1e9 / unit) - px;
		bool hi = false, lo = false;

		for (p = 0; p < 2; p++) {
			hi |= b->pulses[p] && (double)b->wmax[p] / 1e3 > ay->hi;
			lo |= b->pulses[p] && (double)b->wmin[p] / 1e3 < ay->lo;
		}
		if (hi)
			fprintf(f, "<rect class=\"off-scale-rug\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
				"height=\"4\" fill=\"" C_BAD "\"/>\n", px, ay->p1, fmax(pw, 1));
		if (lo)
			fprintf(f, "<rect class=\"off-scale-rug\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
				"height=\"4\" fill=\"" C_BAD "\"/>\n", px, ay->p0 - 4, fmax(pw, 1));
		off += hi || lo;
	}
	return off;
}

/* The worst edges, where a user should look in a trace; labels where
 * they fit, never over each other or over a marker. */
static void worst_marks(FILE *f, const struct analysis *a, const struct axis *ax,
			const struct axis *ay, struct labels *lb, double unit, bool latency,
			double x0, double y0, double x1, double y1)
{
	size_t i;

	if (a->nworst && (latency || !a->src->has_intended)) {
		size_t n = a->nworst;
		double wx[WORST_LABELS], wy[WORST_LABELS];

		for (i = n; i-- > 0;) {
			double px, py;

			worst_at(a, &a->worst[i], ax, ay, unit, latency, &px, &py);
			marker(f, px, py, false, C_BAD);
			/* the worst first, as many as the list holds */
			if (i < WORST_LABELS) {
				wx[i] = px;
				wy[i] = py;
			}
		}
		for (i = 0; i < n && lb->n + WORST_LABELS < MAX_LABELS; i++) {
			double px, py;

			worst_at(a, &a->worst[i], ax, ay, unit, latency, &px, &py);
			label_block(lb, px, py);
		}
		for (i = 0; i < n && i < WORST_LABELS; i++) {
			double lx, ly;
			char num[32];
			size_t k;

			/* one label for one spike: the worst edge of a stall names it */
			for (k = 0; k < i && fabs(wx[k] - wx[i]) >= 12; k++)
				;
			if (k < i)
				continue;
			snprintf(num, sizeof(num), "#%" PRIu64, a->worst[i].seq);
			if (label_place(lb, wx[i], wy[i], strlen(num), x0, x1, y0, y1, &lx, &ly))
				text(f, lx, ly, "middle", 10, C_BAD, NULL, num);
		}
		marker(f, x1 - 180, y0 - 13, false, C_BAD);
		textf(f, x1 - 168, y0 - 12, "start", 12, C_TEXT, NULL, "worst %zu edges (%s)", n,
		      latency ? "by latency" : "by width");
	}
}

static void over_time(FILE *f, const struct analysis *a, double x0, double y0, double x1,
		      double y1, bool latency)
{
	double unit, wlo = INFINITY, whi = -INFINITY;
	const char *uname;
	struct axis ax, ay;
	struct labels lb = { .n = 0 };
	struct soak_bands sb;
	char xlabel[96];
	uint64_t off = 0;
	size_t i;

	ax = time_axis(a, x0, x1, &unit, &uname);
	snprintf(xlabel, sizeof(xlabel), "time since the first edge (%s)%s", uname,
		 a->have_edge && wall_ns(a, a->first.intended_ns) ? "; UTC time of day above" : "");
	if (latency) {
		for (i = 0; i < a->nbins; i++) {
			const struct analyze_span *b = &a->bins[i];

			if (b->lat_max != INT64_MIN) {
				wlo = fmin(wlo, (double)(b->lat_max > 0 ? b->lat_max : 1));
				whi = fmax(whi, (double)b->lat_max);
			}
		}
		if (a->lim_wake_ns > 0)
			whi = fmax(whi, (double)a->lim_wake_ns);
		if (!isfinite(wlo)) {
			wlo = 1000;
			whi = 1000;
		}
		wlo /= 1e3;
		whi /= 1e3;
		ay = (struct axis){ pow(10, floor(log10(wlo > 0.01 ? wlo : 0.01))),
				    pow(10, ceil(log10(whi > 0.01 ? whi * 1.2 : 0.1))), y1, y0, true };
	} else {
		width_range(a, &wlo, &whi);
		ay = (struct axis){ wlo, whi, y1, y0, false };
	}
	textf(f, x0, y0 - 12, "start", 14, C_TEXT, "bold", "%s",
	      latency ? "Worst wake-up latency over time"
		      : "Pulse width min..max over time (linear around the nominal)");
	axes(f, &ax, &ay, xlabel, latency ? "max latency (us, log scale)" : "pulse width (us)");
	soak_bands_get(a, &ax, unit, &sb);
	warmup(f, a, &ax, y0, y1, unit, !sb.n);
	soak_bands_draw(f, &sb, y0, y1);
	wall_ticks(f, a, &ax, y0 - 2, unit);
	if (!latency) {
		bulk_bands(f, a, &ay, x0, x1);
		off = width_envelopes(f, a, &ax, &ay, unit);
	}
	for (i = 0; latency && i < a->nbins; i++) {
		const struct analyze_span *b = &a->bins[i];
		double px = ax_map(&ax, (double)i * (double)a->bin_ns / 1e9 / unit);
		double pw = ax_map(&ax, (double)(i + 1) * (double)a->bin_ns / 1e9 / unit) - px;

		if (b->lat_max != INT64_MIN) {
			double py = ax_map(&ay, (double)b->lat_max / 1e3);

			rect(f, px, py, pw, ay.p0 - py, C_LAT, 0.75);
		}
	}
	if (!latency) {
		width_lines(f, a, &ay, x0, y0, x1, y1, off);
	} else if (a->lim_wake_ns > 0) {
		double py = ax_map(&ay, (double)a->lim_wake_ns / 1e3);

		line(f, x0, py, x1, py, C_BAD, 1.5, "6,3");
	}
	/* a soak's phases: where each begins, and its name over the data */
	soak_boundaries(f, &sb, y0, y1);
	if (sb.n)
		soak_labels(f, a, &sb, &lb, &ax, unit, y0);
	worst_marks(f, a, &ax, &ay, &lb, unit, latency, x0, y0, x1, y1);
}

/* ---- a soak's proof of load ---- */

/*
 * The steps of the proof lines: the timeline's rows (a->o.minute_ns from
 * the log's start), merged so that there are at most PROOF_POINTS of them,
 * and cut at every phase boundary, so that no step straddles two phases
 * (a 60 s row over a 20 s idle phase would show the next phase's flood
 * during idle). Each step is the mean of the samples whose interval lies
 * in one phase and whose middle falls in the step (soakview_window()).
 */
struct proof_steps {
	uint64_t cut[PROOF_POINTS + SOAK_MAX_PHASES + 2];
	size_t n;                  /* points in cut[]: n - 1 steps */
	int64_t step_ns;           /* the grid's step (merged rows) */
};

static void proof_steps_get(const struct analysis *a, struct proof_steps *ps)
{
	uint64_t origin = a->src->meta ? a->src->meta->start_ns : a->first.intended_ns;
	/* soakview's rows start at the log's start, at most a row before the
	 * first edge the analysis' rows start at: one more */
	size_t n = a->nminutes + 1, step = (n + PROOF_POINTS - 1) / PROOF_POINTS;

	ps->step_ns = a->o.minute_ns * (int64_t)step;
	ps->n = soakview_cuts(a->sv, origin, origin + (uint64_t)a->o.minute_ns * n,
			      (uint64_t)ps->step_ns, ps->cut, sizeof(ps->cut) / sizeof(ps->cut[0]));
}

/* Step @i's mean of @pps (packets/s of the busiest interface) or CPU busy,
 * and where it lies in time (axis units). False when no sample is in it. */
static bool proof_step(const struct analysis *a, const struct proof_steps *ps, size_t i, bool pps,
		       double unit, double *v, double *t0, double *t1)
{
	struct soakview_span sp;

	if (!soakview_window(a->sv, ps->cut[i], ps->cut[i + 1], &sp))
		return false;
	*v = (pps ? sp.pps_sum : sp.busy_sum) / (double)sp.samples;
	*t0 = since_first_s(a, ps->cut[i]) / unit;
	*t1 = since_first_s(a, ps->cut[i + 1]) / unit;
	return true;
}

/* A soak's picture has the proof-of-load strip: a log with phases, or one
 * phase with loads whose proof was sampled (a run with --load). A plain run
 * samples too (its idle proof, in the summary), but has no load to show. */
static bool soak_strip(const struct analysis *a)
{
	struct soakview_span sp;
	struct run_phase ph;

	if (!a->sv || !a->have_edge)
		return false;
	if (soak_nphases(a))
		return true;
	if (soakview_nphases(a->sv) != 1)
		return false;
	soakview_phase(a->sv, 0, &ph);
	return ph.nloads > 0 && soakview_window(a->sv, 0, UINT64_MAX, &sp);
}

/* One proof line as steps, each step's mean held across its time; broken
 * where no sample fell (class @cls names it for tools and tests). */
static void proof_line(FILE *f, const struct analysis *a, const struct proof_steps *ps,
		       const struct axis *ax, const struct axis *ay, double unit, bool pps,
		       const char *cls, const char *color)
{
	bool open = false;
	size_t i;

	for (i = 0; i + 1 < ps->n; i++) {
		double v, t0, t1, y;

		if (!proof_step(a, ps, i, pps, unit, &v, &t0, &t1) || t0 >= ax->hi) {
			if (open)
				fputs("\"/>\n", f);
			open = false;
			continue;
		}
		y = ax_map(ay, v);
		if (!open)
			fprintf(f, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" "
				"stroke-width=\"1.8\" stroke-linejoin=\"round\" points=\"", cls, color);
		fprintf(f, "%s%.1f,%.1f %.1f,%.1f", open ? " " : "", ax_map(ax, t0), y,
			ax_map(ax, t1), y);
		open = true;
	}
	if (open)
		fputs("\"/>\n", f);
}

/* "1", "10", "100", "1k" ... "10M": a decade's short name. */
static void fmt_decade(char *buf, size_t len, double d)
{
	static const char *const sfx[] = { "", "k", "M", "G" };
	int e = (int)lround(log10(d)), k = e / 3 > 3 ? 3 : e / 3;

	snprintf(buf, len, "%.0f%s", pow(10, e - 3 * k), sfx[k]);
}

/*
 * Under a soak's plots over time, on the same time axis: the proof that the
 * load was there. CPU busy (the mean over every CPU, 0..100 %, left scale)
 * and packets/s of the busiest interface (log scale, right), one step per
 * timeline row, the phases shaded as above.
 */
static void proof_strip(FILE *f, const struct analysis *a, double x0, double y0, double x1,
			double y1)
{
	const char *uname;
	double unit, pmax = 0, lx, ly = y0 - 12, d;
	struct axis ax = time_axis(a, x0, x1, &unit, &uname), ay = { 0, 100, y1, y0, false }, ap;
	struct soak_bands sb;
	struct proof_steps steps_, *ps = &steps_;
	size_t i, steps = 0;
	char xlabel[96], buf[32];

	proof_steps_get(a, ps);
	for (i = 0; i + 1 < ps->n; i++) {
		double v, t0, t1;

		if (proof_step(a, ps, i, false, unit, &v, &t0, &t1))
			steps++;
		if (proof_step(a, ps, i, true, unit, &v, &t0, &t1))
			pmax = fmax(pmax, v);
	}
	snprintf(xlabel, sizeof(xlabel), "time since the first edge (%s)", uname);
	text(f, x0, y0 - 12, "start", 14, C_TEXT, "bold", "Proof of load over time");
	axes(f, &ax, &ay, xlabel, "CPU busy (%)");
	soak_bands_get(a, &ax, unit, &sb);
	warmup(f, a, &ax, y0, y1, unit, false);
	soak_bands_draw(f, &sb, y0, y1);
	/* packets/s on the right: decades from 1, a flood and an idle
	 * machine's few packets on one scale */
	ap = (struct axis){ 1, pow(10, fmax(1, ceil(log10(fmax(pmax * 1.5, 1))))), y1, y0, true };
	for (d = 1; d <= ap.hi * 1.0001; d *= 10) {
		double py = ax_map(&ap, d);

		/* every other decade when they crowd */
		if (ax_map(&ap, 10) - ax_map(&ap, 1) > -13 && (int)lround(log10(d)) % 2)
			continue;
		line(f, x1, py, x1 + 4, py, C_PPS, 1, NULL);
		fmt_decade(buf, sizeof(buf), d);
		text(f, x1 + 6, py + 4, "start", 10, C_PPS, NULL, buf);
	}
	text(f, x1 + 2, y0 - 12, "start", 10, C_PPS, NULL, "pkt/s");
	soak_boundaries(f, &sb, y0, y1);
	proof_line(f, a, ps, &ax, &ay, unit, false, "proof-busy", C_BUSY);
	proof_line(f, a, ps, &ax, &ap, unit, true, "proof-pps", C_PPS);
	/* the legend, on the title's line */
	lx = x1 - 600;
	line(f, lx, ly - 4, lx + 22, ly - 4, C_BUSY, 2, NULL);
	text(f, lx + 28, ly, "start", 12, C_TEXT, NULL, "CPU busy %, mean of all CPUs (left)");
	lx += 28 + 7.0 * 35 + 18;
	line(f, lx, ly - 4, lx + 22, ly - 4, C_PPS, 2, NULL);
	text(f, lx + 28, ly, "start", 12, C_TEXT, NULL, "packets/s, busiest interface (right, log)");
	if (!steps) {
		text(f, (x0 + x1) / 2, (y0 + y1) / 2, "middle", 12, C_MUTED, NULL,
		     "no proof-of-load samples in this log");
	} else if (steps < 12) {
		/* a short soak in minute rows is a few steps: say how to get more */
		units_format_duration(ps->step_ns, buf, sizeof(buf));
		textf(f, x1, y1 + 36, "end", 10, C_MUTED, NULL,
		      "one step per %s row, cut at phase boundaries "
		      "(--timeline for finer)", buf);
	}
}

static void picture(FILE *f, const struct analysis *a)
{
	bool lat = a->src->has_intended, soak = soak_strip(a);
	int h = (lat ? 1440 : 1160) + (soak ? 200 : 0);

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" " FONT ">\n", W, h, W, h);
	fprintf(f, "<title>sqwave analyze</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fafafa\"/>\n");
	header(f, a);
	if (lat) {
		lat_histogram(f, a, 100, 170, 560, 390);
		width_histogram(f, a, 680, 170, 1160, 390);
		persistence(f, a, 100, 520, 700, 720);
		key_numbers(f, a, 760, 500);
		over_time(f, a, 100, 850, 1160, 1060, false);
		over_time(f, a, 100, 1160, 1160, 1370, true);
	} else {
		width_histogram(f, a, 100, 170, 640, 390);
		key_numbers(f, a, 740, 170);
		persistence(f, a, 100, 520, 1160, 720);
		over_time(f, a, 100, 870, 1160, 1080, false);
	}
	if (soak)
		proof_strip(f, a, 100, (lat ? 1370 : 1080) + 90, 1160, (lat ? 1370 : 1080) + 90 + PROOF_H);
	fprintf(f, "</svg>\n");
}

int svgplot_analysis(const char *path, const struct analysis *a, char *err, size_t errlen)
{
	FILE *f = outfile_open(path, err, errlen);

	if (!f)
		return -1;
	picture(f, a);
	return outfile_close(f, path, err, errlen);
}
