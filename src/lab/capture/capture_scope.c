/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Oscilloscope CSV import (Rigol DS1000Z/MSO5000, Siglent SDS, Keysight
 * InfiniiVision, Tektronix MSO/MDO and TDS): analog samples to edges. */
#include "capture/capture_private.h"
#include "base/csvread.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREAMBLE_ROWS 400

enum scope_dialect {
	SD_NONE,
	SD_RIGOL_DS1000Z,
	SD_RIGOL_MSO5000,
	SD_SIGLENT,
	SD_KEYSIGHT,
	SD_TEK,
	SD_TEK_TDS,
	SD_GENERIC,
};

static const char *const scope_names[] = {
	[SD_NONE] = "scope-csv",
	[SD_RIGOL_DS1000Z] = "rigol-ds1000z-csv",
	[SD_RIGOL_MSO5000] = "rigol-mso5000-csv",
	[SD_SIGLENT] = "siglent-csv",
	[SD_KEYSIGHT] = "keysight-csv",
	[SD_TEK] = "tek-csv",
	[SD_TEK_TDS] = "tek-tds-csv",
	[SD_GENERIC] = "scope-csv",
};

struct scope_chan {
	unsigned col;     /* value column */
	int tcol;         /* time column, -1: time from index */
	double dt_s;      /* sample interval the file states, 0 if none */
};

/* What one pass over the data learns about one channel. */
struct scope_acc {
	struct capture_levelscan ls;
	struct capture_levels lv;
	/* time column samples (row index, time, exponent of the last printed
	 * digit), every fstride-th row; the stride doubles when full */
	int64_t *fi, *ft;
	signed char *fq;
	size_t nfit;
	uint64_t fstride;
	int64_t last_row, last_t;   /* the last row with a time */
	int last_q;
	int have_t;
	int64_t first_t, prev_t;
	int64_t nrows;              /* rows up to the last one with a value */
	int64_t pending;            /* rows without a value since the last value */
	int64_t missing;            /* rows without a value inside the data */
	unsigned long end_line;     /* first of the trailing rows without a value */
	/* the time axis, from the samples */
	int uniform;
	long double fit_t0, fit_dt; /* ps */
	int64_t start_ps, end_ps, res_ps;
	char axis_note[200];
};

struct scope {
	struct csvread r;
	enum scope_dialect d;
	size_t data_off;
	unsigned long data_line;
	struct scope_chan *ch;
	unsigned nch;
	int have_t0;      /* t = t0 + (idx0 + i) * dt given by the header */
	int64_t t0_ps;
	double dt_s;
	int64_t idx0;
	struct scope_acc *acc;     /* per channel, after the first pass */
	int scanned;
	/* selected channel */
	struct scope_chan sel;
	struct scope_acc *sa;
	struct capture_analog an;
	int64_t row;
	int64_t prev_t;   /* non-uniform: time of the previous row */
	int64_t prev_row;
	int have_check;   /* check_t holds the last row's time */
	int64_t check_t;
	int done;
};

/* ---- detection --------------------------------------------------------- */

static int line_len(const char *p, const char *end)
{
	const char *e = memchr(p, '\n', (size_t)(end - p));

	return (int)((e ? e : end) - p);
}

static enum scope_dialect scope_detect(const char *d, size_t len)
{
	size_t n = len < 8192 ? len : 8192;
	const char *end = d + n;
	int l;

	if (n >= 3 && (unsigned char)d[0] == 0xef) {
		d += 3;
		n -= 3;
	}
	l = line_len(d, end);
	if ((capture_starts(d, (size_t)l, "X,CH") || capture_starts(d, (size_t)l, "X;CH")) &&
	    capture_memmem(d, (size_t)l, "Start") && capture_memmem(d, (size_t)l, "Increment"))
		return SD_RIGOL_DS1000Z;
	if (capture_starts(d, (size_t)l, "Time(s)") ||
	    (capture_starts(d, (size_t)l, "CH") && capture_memmem(d, (size_t)l, "tInc")))
		return SD_RIGOL_MSO5000;
	if (capture_starts(d, (size_t)l, "x-axis"))
		return SD_KEYSIGHT;
	if (capture_starts(d, (size_t)l, "Record Length")) {
		/* TDS: key, value, empty, time, volts on every row */
		const char *p = d;
		int commas = 0;

		for (int i = 0; i < l; i++)
			commas += p[i] == ',' || p[i] == ';';
		if (commas >= 4 && !capture_memmem(d, (size_t)l, "Analog"))
			return SD_TEK_TDS;
		return SD_SIGLENT;
	}
	if (capture_starts(d, (size_t)l, "Model") || capture_memmem(d, n, "\nTIME,") ||
	    capture_memmem(d, n, "\nTIME;"))
		return SD_TEK;
	if (capture_starts(d, (size_t)l, "Source") || capture_starts(d, (size_t)l, "Sample Rate") ||
	    capture_starts(d, (size_t)l, "Sample Interval") || capture_memmem(d, n, "\nSecond,") ||
	    capture_memmem(d, n, "\nSecond;"))
		return SD_SIGLENT;
	/* generic: "Time,..." header then numbers */
	if (capture_starts(d, (size_t)l, "time") || capture_starts(d, (size_t)l, "second") ||
	    capture_starts(d, (size_t)l, "t,") || capture_starts(d, (size_t)l, "t;") ||
	    capture_starts(d, (size_t)l, "\"time"))
		return SD_GENERIC;
	return SD_NONE;
}

static int scope_probe(const char *d, size_t len, const char *path)
{
	enum scope_dialect sd = scope_detect(d, len);

	(void)path;
	if (sd == SD_GENERIC)
		return 15;
	return sd == SD_NONE ? 0 : 90;
}

/* ---- header parsing ---------------------------------------------------- */

static int all_digits(const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	return 1;
}

/* Value columns a scope export may have: analog channels, an MSO's digital
 * bits and math traces come to a few dozen. Each costs about 300 KiB in the
 * first pass (the level finder and the edge-fit samples), so a header of
 * 65536 columns would cost 20 GB: refused by name instead. */
#define SCOPE_MAX_CHANNELS 256

static int scope_add(struct capture *c, struct scope *s, const char *name, size_t len,
		     unsigned col, int tcol, double dt)
{
	struct scope_chan *nc;
	char buf[64];

	if (s->nch >= SCOPE_MAX_CHANNELS)
		return capture_err(c, s->r.line, "more than %u value columns: no scope export has "
				   "that many channels", SCOPE_MAX_CHANNELS);

	/* "CH1(V)" -> "CH1"; Keysight "1" -> "CH1" */
	while (len && name[len - 1] == ' ')
		len--;
	if (len > 3 && name[len - 1] == ')' && memchr(name, '(', len))
		len = (size_t)((const char *)memchr(name, '(', len) - name);
	if (len && len < 8 && all_digits(name, len)) {
		snprintf(buf, sizeof(buf), "CH%.*s", (int)len, name);
		name = buf;
		len = strlen(buf);
	}
	if (!len) {
		snprintf(buf, sizeof(buf), "CH%u", s->nch + 1);
		name = buf;
		len = strlen(buf);
	}
	nc = realloc(s->ch, (s->nch + 1) * sizeof(*nc));
	if (!nc)
		return -1;
	s->ch = nc;
	s->ch[s->nch].col = col;
	s->ch[s->nch].tcol = tcol;
	s->ch[s->nch].dt_s = dt;
	s->nch++;
	if (capture_add_channel(c, name, len) < 0)
		return -1;
	c->chans[c->n_chans - 1].analog = 1;
	return 0;
}

static int field_num(struct scope *s, struct csv_field f, double *v)
{
	return csv_parse_double(f.p, f.len, s->r.dec, v);
}

/* "Analog:5.000000E-05" or "5e-05" or "-25s" */
static int field_num_loose(struct scope *s, struct csv_field f, double *v)
{
	const char *colon = memchr(f.p, ':', f.len), *eq = memchr(f.p, '=', f.len);

	if (eq) {
		f.len -= (size_t)(eq + 1 - f.p);
		f.p = eq + 1;
	} else if (colon) {
		f.len -= (size_t)(colon + 1 - f.p);
		f.p = colon + 1;
	}
	while (f.len && (f.p[f.len - 1] == 's' || f.p[f.len - 1] == 'S' || f.p[f.len - 1] == ' '))
		f.len--;
	return field_num(s, f, v);
}

static void scope_mark_data(struct scope *s)
{
	s->data_off = csvread_tell(&s->r);
	s->data_line = s->r.next_line;
}

static int scope_hdr_rigol_ds(struct capture *c, struct scope *s)
{
	int nf = csvread_next(&s->r), nf2;
	unsigned startcol = 0;
	double start, inc;

	for (int i = 1; i < nf; i++)
		if (csv_field_is(s->r.f[i], "Start")) {
			startcol = (unsigned)i;
			break;
		}
	if (!startcol || (unsigned)nf < startcol + 2)
		return capture_err(c, s->r.line, "Rigol header without Start,Increment");
	for (unsigned i = 1; i < startcol; i++)
		if (scope_add(c, s, s->r.f[i].p, s->r.f[i].len, i, -1, 0))
			return -1;
	nf2 = csvread_next(&s->r);
	if (nf2 < (int)startcol + 2 || field_num(s, s->r.f[startcol], &start) ||
	    field_num(s, s->r.f[startcol + 1], &inc))
		return capture_err(c, s->r.line, "Rigol second line must give the Start and "
				   "Increment values");
	if (!isfinite(start) || fabs(start) > capture_ps_to_s(CAPTURE_PS_MAX))
		return capture_err(c, s->r.line, "Rigol Start %g s is not a time within +-53 days",
				   start);
	if (!(inc > 0) || !isfinite(inc) || inc > 1e6)
		return capture_err(c, s->r.line, "Rigol Increment %g s is not a sample interval "
				   "(a positive number of seconds)", inc);
	s->have_t0 = 1;
	s->t0_ps = capture_ld_to_ps((long double)start * CAPTURE_PS_PER_S);
	s->dt_s = inc;
	scope_mark_data(s);
	/* the first sequence number (normally 0) */
	if (csvread_next(&s->r) > 0) {
		struct csv_field f = s->r.f[0];

		if (csv_parse_i64(f.p, f.len, &s->idx0))
			s->idx0 = 0;
	}
	return 0;
}

static int scope_hdr_rigol_mso(struct capture *c, struct scope *s)
{
	int nf = csvread_next(&s->r), tcol = -1;
	double v;

	for (int i = 0; i < nf; i++) {
		struct csv_field f = s->r.f[i];

		if (csv_field_starts(f, "Time")) {
			tcol = i;
		} else if (csv_field_starts(f, "t0")) {
			if (field_num_loose(s, f, &v) || !isfinite(v) ||
			    fabs(v) > capture_ps_to_s(CAPTURE_PS_MAX))
				return capture_err(c, s->r.line, "cannot read '%.*s' as a time within "
						   "+-53 days", (int)(f.len > 40 ? 40 : f.len), f.p);
			s->t0_ps = capture_ld_to_ps((long double)v * CAPTURE_PS_PER_S);
			s->have_t0 |= 1;
		} else if (csv_field_starts(f, "tInc")) {
			if (field_num_loose(s, f, &v) || !(v > 0) || !isfinite(v) || v > 1e6)
				return capture_err(c, s->r.line, "'%.*s' is not a sample interval (a "
						   "positive number of seconds)", (int)(f.len > 40 ? 40 : f.len),
						   f.p);
			s->dt_s = v;
			s->have_t0 |= 2;
		}
	}
	for (int i = 0; i < nf; i++) {
		struct csv_field f = s->r.f[i];

		if (i == tcol || csv_field_starts(f, "t0") || csv_field_starts(f, "tInc"))
			continue;
		if (scope_add(c, s, f.p, f.len, (unsigned)i, tcol, s->have_t0 & 2 ? s->dt_s : 0))
			return -1;
	}
	if (tcol < 0 && s->have_t0 != 3)
		return capture_err(c, s->r.line, "Rigol header has neither a time column nor t0 and tInc");
	if (tcol >= 0)
		s->have_t0 = 0;
	scope_mark_data(s);
	return 0;
}

static int scope_hdr_keysight(struct capture *c, struct scope *s)
{
	int nf = csvread_next(&s->r);

	for (int i = 1; i < nf; i++)
		if (scope_add(c, s, s->r.f[i].p, s->r.f[i].len, (unsigned)i, 0, 0))
			return -1;
	/* units row: "second,Volt,..." */
	{
		size_t off = csvread_tell(&s->r);
		unsigned long line = s->r.next_line;
		double v;

		if (csvread_next(&s->r) > 0 && field_num(s, s->r.f[0], &v))
			off = csvread_tell(&s->r), line = s->r.next_line;
		csvread_seek(&s->r, off, line);
	}
	scope_mark_data(s);
	return 0;
}

static int scope_hdr_siglent(struct capture *c, struct scope *s)
{
	double dt = 0, v;
	char names[8][16];
	unsigned nnames = 0;

	for (int row = 0; row < PREAMBLE_ROWS; row++) {
		int nf = csvread_next(&s->r);
		struct csv_field f0, f1;

		if (nf == CSVREAD_EOF)
			return capture_err(c, s->r.line, "no 'Second,Volt' header row (truncated file?)");
		if (nf <= 0)
			continue;
		f0 = s->r.f[0];
		f1 = csvread_field(&s->r, 1);
		if (csv_field_is(f0, "Second") || csv_field_starts(f0, "Time")) {
			for (int i = 1; i < nf; i++) {
				struct csv_field f = s->r.f[i];

				if ((csv_field_is(f, "Volt") || csv_field_is(f, "Value") ||
				     csv_field_is(f, "V")) && (unsigned)(i - 1) < nnames)
					f = (struct csv_field){ names[i - 1], strlen(names[i - 1]) };
				else if (csv_field_is(f, "Volt") || csv_field_is(f, "Value") ||
					 csv_field_is(f, "V"))
					f = (struct csv_field){ "", 0 };
				if (scope_add(c, s, f.p, f.len, (unsigned)i, 0, dt))
					return -1;
			}
			scope_mark_data(s);
			return 0;
		}
		if (csv_field_is(f0, "Sample Rate") && !field_num_loose(s, f1, &v) && v > 0) {
			dt = 1 / v;
		} else if (csv_field_is(f0, "Sample Interval") && !field_num_loose(s, f1, &v) && v > 0) {
			dt = v;
		} else if ((csv_field_is(f0, "Source") || csv_field_is(f0, "Vertical Scale") ||
			    csv_field_is(f0, "Vertical Units") || csv_field_is(f0, "Vertical Offset")) &&
			   f1.len >= 3 && nnames < 8) {
			const char *colon = memchr(f1.p, ':', f1.len);
			size_t l = colon ? (size_t)(colon - f1.p) : f1.len;
			int dup = 0;

			if (l >= sizeof(names[0]))
				l = sizeof(names[0]) - 1;
			for (unsigned k = 0; k < nnames; k++)
				dup |= strlen(names[k]) == l && !memcmp(names[k], f1.p, l);
			if (!dup && capture_starts(f1.p, l, "C")) {
				memcpy(names[nnames], f1.p, l);
				names[nnames++][l] = 0;
			}
		}
	}
	return capture_err(c, s->r.line, "no 'Second,Volt' header row in the first %d rows",
			   PREAMBLE_ROWS);
}

static int scope_hdr_tek(struct capture *c, struct scope *s)
{
	size_t pre_off = csvread_tell(&s->r);
	unsigned long pre_line = s->r.next_line;

	for (int row = 0; row < PREAMBLE_ROWS; row++) {
		int nf = csvread_next(&s->r);

		if (nf == CSVREAD_EOF)
			break;
		if (nf <= 0 || !csv_field_is(s->r.f[0], "TIME"))
			continue;
		/* the column header: TIME,CH1,,TIME,D11,... */
		{
			int tcol = -1;
			unsigned nf_hdr = (unsigned)nf;
			struct csv_field *hdr = malloc(nf_hdr * sizeof(*hdr));
			size_t data_off = csvread_tell(&s->r);
			unsigned long data_line = s->r.next_line;
			double *dts = calloc(nf_hdr, sizeof(*dts));

			if (!hdr || !dts) {
				free(hdr);
				free(dts);
				return -1;
			}
			memcpy(hdr, s->r.f, nf_hdr * sizeof(*hdr));
			/* Sample Interval per block, from the preamble */
			csvread_seek(&s->r, pre_off, pre_line);
			while (csvread_tell(&s->r) < data_off) {
				int n2 = csvread_next(&s->r);

				for (int i = 0; i + 1 < n2 && (unsigned)i < nf_hdr; i++) {
					double v;

					if (csv_field_is(s->r.f[i], "Sample Interval") &&
					    !field_num(s, s->r.f[i + 1], &v) && v > 0)
						dts[i] = v;
				}
				if (n2 == CSVREAD_EOF)
					break;
			}
			for (unsigned i = 0; i < nf_hdr; i++) {
				if (csv_field_is(hdr[i], "TIME")) {
					tcol = (int)i;
					continue;
				}
				if (!hdr[i].len)
					continue;
				if (scope_add(c, s, hdr[i].p, hdr[i].len, i, tcol,
					      tcol >= 0 ? dts[tcol] : 0)) {
					free(hdr);
					free(dts);
					return -1;
				}
			}
			free(hdr);
			free(dts);
			csvread_seek(&s->r, data_off, data_line);
			scope_mark_data(s);
			return 0;
		}
	}
	return capture_err(c, s->r.line, "no 'TIME,CH1' header row in the first %d rows",
			   PREAMBLE_ROWS);
}

static int scope_hdr_tds(struct capture *c, struct scope *s)
{
	double dt = 0, v;
	char name[32] = "CH1";

	for (int row = 0; row < 40; row++) {
		int nf = csvread_next(&s->r);

		if (nf == CSVREAD_EOF)
			break;
		if (nf < 2)
			continue;
		if (csv_field_is(s->r.f[0], "Sample Interval") && !field_num(s, s->r.f[1], &v) && v > 0)
			dt = v;
		else if (csv_field_is(s->r.f[0], "Source") && s->r.f[1].len < sizeof(name))
			snprintf(name, sizeof(name), "%.*s", (int)s->r.f[1].len, s->r.f[1].p);
	}
	if (scope_add(c, s, name, strlen(name), 4, 3, dt))
		return -1;
	csvread_seek(&s->r, 0, 1);
	scope_mark_data(s);
	return 0;
}

static int scope_hdr_generic(struct capture *c, struct scope *s)
{
	int nf = csvread_next(&s->r);

	if (nf == CSVREAD_ERR)
		return capture_err(c, s->r.line, "%s", csvread_why(&s->r));
	if (nf < 2)
		return capture_err(c, s->r.line, "expected a header row: time, channel names");
	for (int i = 1; i < nf; i++)
		if (scope_add(c, s, s->r.f[i].p, s->r.f[i].len, (unsigned)i, 0, 0))
			return -1;
	scope_mark_data(s);
	return 0;
}

static int scope_open(struct capture *c)
{
	struct scope *s = calloc(1, sizeof(*s));
	int r;

	if (!s)
		return -1;
	c->priv = s;
	if (csvread_init(&s->r, c->data, c->len, 0))
		return -1;
	s->d = scope_detect(c->data, c->len);
	if (s->d == SD_NONE)
		return capture_err(c, 1, "not a Rigol, Siglent, Keysight or Tektronix CSV header");
	c->info.format = scope_names[s->d];
	switch (s->d) {
	case SD_RIGOL_DS1000Z: r = scope_hdr_rigol_ds(c, s); break;
	case SD_RIGOL_MSO5000: r = scope_hdr_rigol_mso(c, s); break;
	case SD_KEYSIGHT: r = scope_hdr_keysight(c, s); break;
	case SD_SIGLENT: r = scope_hdr_siglent(c, s); break;
	case SD_TEK: r = scope_hdr_tek(c, s); break;
	case SD_TEK_TDS: r = scope_hdr_tds(c, s); break;
	default: r = scope_hdr_generic(c, s); break;
	}
	if (r)
		return -1;
	if (!s->nch)
		return capture_err(c, s->data_line, "no channel columns");
	return 0;
}

/* ---- time axis and levels (one pass over every channel) ------------- */

#define FIT_MAX 16384
#define LEVEL_SAMPLES 65536      /* level-finder values kept per channel */
#define LEVEL_TOTAL (1u << 20)   /* ... and over all channels */

static int scope_value(struct capture *c, struct scope *s, struct csv_field f, double *v)
{
	if (!field_num(s, f, v))
		return 0;
	/* clipped or missing samples (NAN) */
	if (!csv_parse_sample(f.p, f.len, s->r.dec, v))
		return 0;
	return capture_err(c, s->r.line, "'%.*s' is not a number", (int)(f.len > 40 ? 40 : f.len), f.p);
}

static int scope_time(struct capture *c, struct scope *s, struct csv_field f, int64_t *t)
{
	if (!csv_parse_scaled(f.p, f.len, s->r.dec, 12, t) && capture_ps_ok(*t))
		return 0;
	return capture_err(c, s->r.line, "time '%.*s' is not a number of seconds within +-53 days",
			   (int)(f.len > 40 ? 40 : f.len), f.p);
}

static int is_blank_line(const char *p, const char *end)
{
	return p >= end || *p == '\n' || (*p == '\r' && (p + 1 >= end || p[1] == '\n'));
}

static void acc_free(struct scope_acc *a)
{
	capture_levelscan_free(&a->ls);
	free(a->fi);
	free(a->ft);
	free(a->fq);
}

static void acc_fit_add(struct scope_acc *a, int64_t row, int64_t t, int q)
{
	if ((uint64_t)row % a->fstride)
		return;
	if (a->nfit == FIT_MAX) {
		size_t k;

		for (k = 0; 2 * k < a->nfit; k++) {
			a->fi[k] = a->fi[2 * k];
			a->ft[k] = a->ft[2 * k];
			a->fq[k] = a->fq[2 * k];
		}
		a->nfit = k;
		a->fstride *= 2;
		if ((uint64_t)row % a->fstride)
			return;
	}
	a->fi[a->nfit] = row;
	a->ft[a->nfit] = t;
	a->fq[a->nfit++] = (signed char)q;
}

static long double pow10_ld(int e)
{
	long double q = 1;

	for (int k = e; k > 0 && q < 1e30L; k--)
		q *= 10;
	for (int k = e; k < 0; k++)
		q /= 10;
	return q;
}

/* The time axis of one channel from its samples (see capture-formats.md). */
static int acc_axis(struct capture *c, struct scope *s, const struct scope_chan *sc,
		    struct scope_acc *a)
{
	a->uniform = 1;
	if (s->have_t0 || sc->tcol < 0) {
		double dt = sc->dt_s > 0 ? sc->dt_s : s->dt_s;

		if (!(dt > 0)) {
			if (!(c->opts.samplerate_hz > 0))
				return capture_err(c, 0, "no sample interval in the file; give the samplerate");
			dt = 1 / c->opts.samplerate_hz;
		}
		a->fit_dt = (long double)dt * CAPTURE_PS_PER_S;
		a->fit_t0 = (long double)s->t0_ps + (long double)s->idx0 * a->fit_dt;
	} else if (a->nfit >= 2 && a->last_t > a->first_t) {
		long double mi = 0, mt = 0, sxx = 0, sxy = 0, maxres = 0;
		long double base = (long double)a->ft[0];
		long double given = (long double)sc->dt_s * CAPTURE_PS_PER_S, dtf;
		int nonuni = 0;

		/* the last row's time closes the fit */
		if (a->fi[a->nfit - 1] != a->last_row) {
			if (a->nfit == FIT_MAX)
				a->nfit--;
			a->fi[a->nfit] = a->last_row;
			a->ft[a->nfit] = a->last_t;
			a->fq[a->nfit++] = (signed char)a->last_q;
		}
		for (size_t i = 0; i < a->nfit; i++) {
			mi += a->fi[i];
			mt += (long double)a->ft[i] - base;
		}
		mi /= a->nfit;
		mt /= a->nfit;
		for (size_t i = 0; i < a->nfit; i++) {
			long double dx = a->fi[i] - mi, dy = (long double)a->ft[i] - base - mt;

			sxx += dx * dx;
			sxy += dx * dy;
		}
		dtf = sxx > 0 ? sxy / sxx : 0;
		if (given > 0 && fabsl(dtf - given) <= 1e-3L * given)
			dtf = given;
		else if (given > 0)
			capture_note(c, "stated sample interval %.6g s does not match the time column "
				     "(%.6g s); using the time column", sc->dt_s,
				     (double)(dtf / CAPTURE_PS_PER_S));
		a->fit_dt = dtf;
		/* t0: mean of (t - i*dt), which averages out the printing rounding */
		a->fit_t0 = base + mt - mi * dtf;
		/* uniform if every printed time is the line rounded to its digits */
		for (size_t i = 0; i < a->nfit; i++) {
			long double res = fabsl((long double)a->ft[i] - (a->fit_t0 + a->fi[i] * dtf));

			if (res > maxres)
				maxres = res;
			if (res > pow10_ld(a->fq[i] + 12) + 1e-3L * dtf)
				nonuni = 1;
		}
		if (!(dtf > 0) || nonuni) {
			a->uniform = 0;
			snprintf(a->axis_note, sizeof(a->axis_note), "time axis=printed time column: not "
				 "uniform (off by up to %.3g s from a straight line)",
				 (double)(maxres / CAPTURE_PS_PER_S));
		} else {
			snprintf(a->axis_note, sizeof(a->axis_note), "time axis=rebuilt as t0 + i*dt, "
				 "dt=%.9g s (the printed times are rounded)",
				 (double)(dtf / CAPTURE_PS_PER_S));
		}
	} else if (a->have_t && a->nrows > 1) {
		return capture_err(c, 0, "the time column does not advance (every row at %.12g s)",
				   capture_ps_to_s(a->first_t));
	} else {
		a->uniform = 0;
	}
	if (a->uniform) {
		if (!(a->fit_dt >= 1))
			return capture_err(c, 0, "sample interval %.3g s is below 1 ps",
					   (double)(a->fit_dt / CAPTURE_PS_PER_S));
		a->res_ps = capture_ld_to_ps(a->fit_dt);
		a->start_ps = capture_ld_to_ps(a->fit_t0);
		a->end_ps = capture_ld_to_ps(a->fit_t0 + (long double)a->nrows * a->fit_dt);
	} else {
		a->res_ps = a->nfit >= 2 && a->last_row > a->fi[0]
			    ? (a->last_t - a->ft[0]) / (a->last_row - a->fi[0]) : 1;
		a->start_ps = a->have_t ? a->first_t : 0;
		a->end_ps = a->have_t ? a->last_t : 0;
	}
	if (!capture_ps_ok(a->start_ps) || !capture_ps_ok(a->end_ps))
		return capture_err(c, 0, "the time axis (%.6g s to %.6g s) is beyond the +-53 days "
				   "sqwave holds", (double)(a->fit_t0 / CAPTURE_PS_PER_S),
				   (double)((a->fit_t0 + (long double)a->nrows * a->fit_dt) / CAPTURE_PS_PER_S));
	return 0;
}

/* Per kept row: the channel's value (NaN: none) and time into its
 * accumulators; times must not go backwards. */
static int acc_row(struct capture *c, struct scope *s, unsigned k, int64_t row)
{
	const struct scope_chan *sc = &s->ch[k];
	struct scope_acc *a = &s->acc[k];
	struct csv_field vf = csvread_field(&s->r, sc->col);
	struct csv_field tf = sc->tcol >= 0 ? csvread_field(&s->r, (unsigned)sc->tcol)
					    : (struct csv_field){ "", 0 };
	double v;

	if (!vf.len || (sc->tcol >= 0 && !tf.len))
		return 0;
	if (scope_value(c, s, vf, &v))
		return -1;
	if (sc->tcol >= 0) {
		int64_t t;
		int q;

		if (scope_time(c, s, tf, &t))
			return -1;
		if (a->have_t && t < a->prev_t)
			return capture_err(c, s->r.line, "time goes backwards (%.12g s after %.12g s)",
					   capture_ps_to_s(t), capture_ps_to_s(a->prev_t));
		if (!a->have_t)
			a->first_t = t;
		if (csv_parse_quantum_exp(tf.p, tf.len, s->r.dec, &q))
			q = -12;
		q = q < -30 ? -30 : q > 30 ? 30 : q;
		acc_fit_add(a, row, t, q);
		a->have_t = 1;
		a->prev_t = t;
		a->last_t = t;
		a->last_row = row;
		a->last_q = q;
	}
	capture_levelscan_add(&a->ls, v);
	a->nrows = row + 1;
	return 0;
}

/*
 * The data's end, read backwards: for every channel, the last row with a
 * value (rows after it end the data: an Agilent record's last row has a
 * time and no values) and its time (to close the axis fit). Costs the rows
 * after the last value, not the file. @rows and @last_line: the rows counted
 * by the first pass and the file line of the last one.
 */
static int scope_tail(struct scope *s, int64_t rows, unsigned long last_line)
{
	const char *start = s->r.data + s->data_off, *e = s->r.end;
	unsigned left = s->nch;
	int64_t row = rows;
	unsigned long line = last_line + 1;
	struct csvread lr;

	for (unsigned k = 0; k < s->nch; k++)
		s->acc[k].nrows = 0;
	while (left && e > start) {
		const char *le = e, *ls;
		int nf;

		if (le[-1] == '\n')
			le--;
		ls = le;
		while (ls > start && ls[-1] != '\n')
			ls--;
		e = ls;
		line--;
		if (is_blank_line(ls, s->r.end))
			continue;
		row--;
		if (csvread_init(&lr, ls, (size_t)(le - ls), s->r.sep))
			return -1;
		nf = csvread_next(&lr);
		for (unsigned k = 0; k < s->nch && nf >= 0; k++) {
			const struct scope_chan *sc = &s->ch[k];
			struct scope_acc *a = &s->acc[k];
			struct csv_field vf = csvread_field(&lr, sc->col);
			struct csv_field tf = sc->tcol >= 0 ? csvread_field(&lr, (unsigned)sc->tcol)
							    : (struct csv_field){ "x", 1 };

			if (a->nrows || !vf.len || !tf.len)
				continue;
			a->nrows = row + 1;
			a->pending = rows - row - 1;
			a->end_line = line + 1;
			if (sc->tcol >= 0 && !csv_parse_scaled(tf.p, tf.len, s->r.dec, 12, &a->last_t)) {
				int q;

				if (csv_parse_quantum_exp(tf.p, tf.len, s->r.dec, &q))
					q = -12;
				a->last_q = q < -30 ? -30 : q > 30 ? 30 : q;
				a->last_row = row;
				a->have_t = 1;
			}
			left--;
		}
		csvread_free(&lr);
	}
	return 0;
}

/* Channels that look flat in the subset: every value once, for the extremes
 * a rare level shows in (one more pass, only when some channel needs it). */
static int scope_extremes(struct capture *c, struct scope *s)
{
	int need = 0;

	for (unsigned k = 0; k < s->nch; k++) {
		capture_levels_from_scan(&s->acc[k].ls, &s->acc[k].lv);
		if (!s->acc[k].lv.bimodal) {
			need = 1;
			s->acc[k].ls.min = INFINITY;
			s->acc[k].ls.max = -INFINITY;
			s->acc[k].ls.only_bits = 1;
		}
	}
	if (!need)
		return 0;
	csvread_seek(&s->r, s->data_off, s->data_line);
	for (;;) {
		int nf;

		if (s->r.cur >= s->r.end)
			break;
		if (is_blank_line(s->r.cur, s->r.end)) {
			csvread_skip(&s->r);
			continue;
		}
		nf = csvread_next(&s->r);
		if (nf < 0)
			return capture_err(c, s->r.line, "%s", csvread_why(&s->r));
		for (unsigned k = 0; k < s->nch; k++) {
			struct scope_acc *a = &s->acc[k];
			struct csv_field vf;
			double v;

			if (a->lv.bimodal)
				continue;
			vf = csvread_field(&s->r, s->ch[k].col);
			if (!vf.len)
				continue;
			if (scope_value(c, s, vf, &v))
				return -1;
			if (isnan(v))
				continue;
			if (v < a->ls.min)
				a->ls.min = v;
			if (v > a->ls.max)
				a->ls.max = v;
			if (v != 0 && v != 1)
				a->ls.only_bits = 0;
		}
	}
	for (unsigned k = 0; k < s->nch; k++)
		if (!s->acc[k].lv.bimodal)
			capture_levels_from_scan(&s->acc[k].ls, &s->acc[k].lv);
	return 0;
}

/*
 * The first pass, every channel at once: rows spread over the file (every
 * stride-th, the stride from the length of the first rows) give each
 * channel's level subset and time-axis samples, every row is counted; the
 * tail gives where each channel's data ends; channels that look flat get
 * one more pass for their extremes. Whether every row's time advances is
 * checked as the edges are read (scope_next).
 */
static int scope_first_pass(struct capture *c, struct scope *s)
{
	size_t per = LEVEL_TOTAL / (s->nch ? s->nch : 1);
	int64_t row = 0, stride;
	unsigned k;

	if (per > LEVEL_SAMPLES)
		per = LEVEL_SAMPLES;
	s->acc = calloc(s->nch, sizeof(*s->acc));
	if (!s->acc)
		return -1;
	for (k = 0; k < s->nch; k++) {
		struct scope_acc *a = &s->acc[k];

		a->fstride = 1;
		a->fi = malloc(FIT_MAX * sizeof(*a->fi));
		a->ft = malloc(FIT_MAX * sizeof(*a->ft));
		a->fq = malloc(FIT_MAX);
		if (!a->fi || !a->ft || !a->fq || capture_levelscan_init(&a->ls, per < 4096 ? 4096 : per))
			return -1;
	}
	/* rows to expect, from the length of the first few */
	{
		const char *p = s->r.data + s->data_off, *end = s->r.end;
		size_t bytes = 0;
		int n = 0;

		while (p < end && n < 64) {
			int l = line_len(p, end);

			bytes += (size_t)l + 1;
			n++;
			p += l + 1;
		}
		stride = n ? (int64_t)((size_t)(end - (s->r.data + s->data_off)) / (bytes / (size_t)n + 1))
			     / (int64_t)per + 1 : 1;
	}
	csvread_seek(&s->r, s->data_off, s->data_line);
	for (;;) {
		int nf;

		if (s->r.cur >= s->r.end)
			break;
		if (is_blank_line(s->r.cur, s->r.end)) {
			csvread_skip(&s->r);
			continue;
		}
		if (row % stride) {
			csvread_skip(&s->r);
			row++;
			continue;
		}
		nf = csvread_next(&s->r);
		if (nf < 0)
			return capture_err(c, s->r.line, "%s", csvread_why(&s->r));
		for (k = 0; k < s->nch; k++)
			if (acc_row(c, s, k, row))
				return -1;
		row++;
	}
	if (scope_tail(s, row, s->r.line))
		return -1;
	for (k = 0; k < s->nch; k++)
		if (!s->acc[k].nrows)
			return capture_err(c, s->data_line, "no data rows for %s (truncated file?)",
					   c->chans[k].name);
	if (scope_extremes(c, s))
		return -1;
	for (k = 0; k < s->nch; k++)
		if (acc_axis(c, s, &s->ch[k], &s->acc[k]))
			return -1;
	s->scanned = 1;
	return 0;
}

static int scope_scan(struct capture *c, signed char *has_edge)
{
	struct scope *s = c->priv;

	if (!s->scanned && scope_first_pass(c, s))
		return -1;
	for (unsigned k = 0; k < s->nch; k++)
		has_edge[k] = (signed char)s->acc[k].lv.bimodal;
	return 0;
}

static int scope_select(struct capture *c, unsigned ch, int bit)
{
	struct scope *s = c->priv;
	struct scope_acc *a;
	int edges;

	(void)bit;
	if (!s->scanned && scope_first_pass(c, s))
		return -1;
	s->sel = s->ch[ch];
	s->sa = a = &s->acc[ch];
	c->info.n_notes = 0;
	if (a->axis_note[0])
		capture_note(c, "%s", a->axis_note);
	if (a->pending)
		capture_note(c, "data ends at line %lu: the %lld row%s from there %s no value",
			     a->end_line, (long long)a->pending, a->pending == 1 ? "" : "s",
			     a->pending == 1 ? "has" : "have");
	a->missing = 0;
	edges = capture_analog_setup(c, &a->lv, &s->an);
	c->info.resolution_ps = a->res_ps;
	c->info.samplerate_hz = a->uniform ? (double)(CAPTURE_PS_PER_S / a->fit_dt) : 0;
	c->info.start_ps = a->start_ps;
	c->info.end_ps = a->end_ps;
	c->info.end_known = 1;
	capture_set_edge_window(c, a->res_ps, c->info.analog);
	s->row = 0;
	s->prev_row = -1;
	s->have_check = 0;
	s->done = !edges;
	c->info.initial_level = -1;
	csvread_seek(&s->r, s->data_off, s->data_line);
	return s->done ? 0 : 1;
}

static int scope_next(struct capture *c, struct capture_edge *e)
{
	struct scope *s = c->priv;
	struct scope_acc *a = s->sa;
	const unsigned col = s->sel.col;
	const int tcol = s->sel.tcol;     /* every row's time is checked */

	if (s->done)
		return 0;
	while (s->row < a->nrows) {
		struct csv_field vf, tf;
		double v, x;
		int64_t t = 0;
		int nf, lvl;

		/* rows as the first pass counted them: blank lines are not rows,
		 * a line of empty fields is */
		if (s->r.cur >= s->r.end)
			break;
		if (is_blank_line(s->r.cur, s->r.end)) {
			csvread_skip(&s->r);
			continue;
		}
		nf = csvread_next(&s->r);
		if (nf < 0)
			return capture_err(c, s->r.line, "%s", csvread_why(&s->r));
		vf = csvread_field(&s->r, col);
		tf = tcol >= 0 ? csvread_field(&s->r, (unsigned)tcol) : (struct csv_field){ "x", 1 };
		if (!vf.len || !tf.len) {
			/* a missing sample: no edge across it */
			s->an.have_prev = 0;
			a->missing++;
			s->row++;
			continue;
		}
		if (scope_value(c, s, vf, &v))
			return -1;
		if (tcol >= 0) {
			if (scope_time(c, s, tf, &t))
				return -1;
			if (s->have_check && t < s->check_t)
				return capture_err(c, s->r.line, "time goes backwards (%.12g s after %.12g s)",
						   capture_ps_to_s(t), capture_ps_to_s(s->check_t));
			s->have_check = 1;
			s->check_t = t;
		}
		if (capture_analog_feed(&s->an, s->row, v, &x, &lvl)) {
			if (a->uniform) {
				e->t_ps = capture_ld_to_ps(a->fit_t0 + (long double)x * a->fit_dt);
			} else {
				/* between the previous row's time and this one's */
				long double frac = x - (long double)(s->row - 1);

				e->t_ps = s->prev_row == s->row - 1 && frac >= 0
					  ? capture_ld_to_ps((long double)s->prev_t + frac * (t - s->prev_t)) : t;
			}
			e->sample = (int64_t)ceil(x);
			e->level = (uint8_t)lvl;
			e->flags = 0;
			s->prev_t = t;
			s->prev_row = s->row;
			s->row++;
			return 1;
		}
		if (c->info.initial_level < 0 && s->an.state >= 0)
			c->info.initial_level = s->an.state;
		s->prev_t = t;
		s->prev_row = s->row;
		s->row++;
	}
	s->done = 1;
	c->info.end_known = 1;
	if (a->missing)
		capture_note(c, "missing=%lld row%s without a value inside the data (skipped as "
			     "missing samples)", (long long)a->missing, a->missing == 1 ? "" : "s");
	return 0;
}

static void scope_close(struct capture *c)
{
	struct scope *s = c->priv;

	if (!s)
		return;
	csvread_free(&s->r);
	for (unsigned k = 0; s->acc && k < s->nch; k++)
		acc_free(&s->acc[k]);
	free(s->acc);
	free(s->ch);
	free(s);
	c->priv = NULL;
}

const struct capture_ops capture_scope_ops = {
	.name = "scope-csv",
	.probe = scope_probe,
	.open = scope_open,
	.select = scope_select,
	.next = scope_next,
	.close = scope_close,
	.scan = scope_scan,
};
