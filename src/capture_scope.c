/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Oscilloscope CSV import (Rigol DS1000Z/MSO5000, Siglent SDS, Keysight
 * InfiniiVision, Tektronix MSO/MDO and TDS): analog samples to edges. */
#include "capture_private.h"
#include "csvread.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEVEL_SAMPLES 65536
#define FIT_MAX 65536
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

struct scope {
	struct csvread r;
	enum scope_dialect d;
	size_t data_off;
	unsigned long data_line;
	struct scope_chan *ch;
	unsigned nch;
	int have_t0;      /* t = t0 + (idx0 + i) * dt given by the header */
	int64_t t0_fs;
	double dt_s;
	int64_t idx0;
	/* selected channel */
	struct scope_chan sel;
	int uniform;
	long double fit_t0, fit_dt;  /* fs */
	int64_t nrows;
	struct capture_analog an;
	int64_t row;
	int64_t prev_t;   /* non-uniform: time of the previous row */
	int64_t prev_row;
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

static int scope_add(struct capture *c, struct scope *s, const char *name, size_t len,
		     unsigned col, int tcol, double dt)
{
	struct scope_chan *nc;
	char buf[64];

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
	s->have_t0 = 1;
	s->t0_fs = (int64_t)llroundl((long double)start * CAPTURE_FS_PER_S);
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
			if (field_num_loose(s, f, &v))
				return capture_err(c, s->r.line, "cannot read '%.*s'", (int)f.len, f.p);
			s->t0_fs = (int64_t)llroundl((long double)v * CAPTURE_FS_PER_S);
			s->have_t0 |= 1;
		} else if (csv_field_starts(f, "tInc")) {
			if (field_num_loose(s, f, &v))
				return capture_err(c, s->r.line, "cannot read '%.*s'", (int)f.len, f.p);
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

/* ---- time axis and levels (first pass) --------------------------------- */

static int scope_value(struct capture *c, struct scope *s, struct csv_field f, double *v)
{
	if (!field_num(s, f, v))
		return 0;
	/* clipped or missing samples */
	if (f.len == 0 || (f.len >= 3 && (!memcmp(f.p, "***", 3) || csv_field_is(f, "nan") ||
					  csv_field_is(f, "inf") || csv_field_is(f, "-inf") ||
					  csv_field_is(f, "+inf")))) {
		*v = NAN;
		return 0;
	}
	return capture_err(c, s->r.line, "'%.*s' is not a number", (int)(f.len > 40 ? 40 : f.len), f.p);
}

static int scope_time(struct capture *c, struct scope *s, struct csv_field f, int64_t *t)
{
	if (!csv_parse_scaled(f.p, f.len, s->r.dec, 15, t))
		return 0;
	return capture_err(c, s->r.line, "time '%.*s' is not a number (or beyond +-9223 s)",
			   (int)(f.len > 40 ? 40 : f.len), f.p);
}

static int is_blank_line(const char *p, const char *end)
{
	return p >= end || *p == '\n' || (*p == '\r' && (p + 1 >= end || p[1] == '\n'));
}

static int scope_first_pass(struct capture *c, struct scope *s, struct capture_levels *lv)
{
	double *vals = malloc(LEVEL_SAMPLES * sizeof(*vals));
	int64_t *fi = malloc(FIT_MAX * sizeof(*fi)), *ft = malloc(FIT_MAX * sizeof(*ft));
	signed char *fq = malloc(FIT_MAX);
	size_t nv = 0, nfit = 0;
	int64_t row = 0, stride, est;
	const char *last = NULL;
	int qexp = 0, have_q = 0, ret = -1;
	const struct scope_chan *sc = &s->sel;

	if (!vals || !fi || !ft || !fq)
		goto out;
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
		est = n ? (int64_t)((size_t)(s->r.end - (s->r.data + s->data_off)) / (bytes / (size_t)n + 1))
			: 0;
		stride = est / (LEVEL_SAMPLES / 2) + 1;
	}
	csvread_seek(&s->r, s->data_off, s->data_line);
	for (;;) {
		const char *p = s->r.cur;
		int nf;

		if (p >= s->r.end)
			break;
		if (is_blank_line(p, s->r.end)) {
			csvread_skip(&s->r);
			continue;
		}
		last = p;
		if (row % stride) {
			csvread_skip(&s->r);
			row++;
			continue;
		}
		nf = csvread_next(&s->r);
		if (nf < 0) {
			capture_err(c, s->r.line, "malformed CSV (unterminated quote)");
			goto out;
		}
		if ((unsigned)nf <= sc->col || (sc->tcol >= 0 && nf <= sc->tcol)) {
			/* Tek blocks of different lengths: this channel has ended */
			if (s->d == SD_TEK && nf > 0 && csvread_field(&s->r, sc->col).len == 0) {
				row++;
				continue;
			}
			capture_err(c, s->r.line, "%d fields, expected at least %u (truncated row?)", nf,
				    sc->col + 1);
			goto out;
		}
		if (nv < LEVEL_SAMPLES) {
			if (scope_value(c, s, s->r.f[sc->col], &vals[nv]))
				goto out;
			if (!isnan(vals[nv]))
				nv++;
		}
		if (sc->tcol >= 0 && nfit < FIT_MAX) {
			if (scope_time(c, s, s->r.f[sc->tcol], &ft[nfit]))
				goto out;
			{
				struct csv_field f = s->r.f[sc->tcol];

				if (csv_parse_quantum_exp(f.p, f.len, s->r.dec, &qexp))
					qexp = -15;
				fq[nfit] = (signed char)(qexp < -30 ? -30 : qexp > 30 ? 30 : qexp);
				have_q = 1;
			}
			fi[nfit++] = row;
		}
		row++;
	}
	s->nrows = row;
	if (!row) {
		capture_err(c, s->data_line, "no data rows (truncated file?)");
		goto out;
	}
	/* the last row's time closes the fit */
	if (sc->tcol >= 0 && last && (nfit == 0 || fi[nfit - 1] != row - 1)) {
		struct csvread lr;

		if (csvread_init(&lr, last, (size_t)(s->r.end - last), s->r.sep))
			goto out;
		if (csvread_next(&lr) > sc->tcol) {
			int64_t t;

			if (!csv_parse_scaled(lr.f[sc->tcol].p, lr.f[sc->tcol].len, s->r.dec, 15, &t)) {
				if (nfit == FIT_MAX)
					nfit--;
				if (csv_parse_quantum_exp(lr.f[sc->tcol].p, lr.f[sc->tcol].len, s->r.dec, &qexp))
					qexp = -15;
				fq[nfit] = (signed char)(qexp < -30 ? -30 : qexp > 30 ? 30 : qexp);
				fi[nfit] = row - 1;
				ft[nfit++] = t;
			}
		}
		csvread_free(&lr);
	}
	capture_levels_find(vals, nv, lv);
	/* time axis */
	s->uniform = 1;
	if (s->have_t0 || sc->tcol < 0) {
		double dt = sc->dt_s > 0 ? sc->dt_s : s->dt_s;

		if (!(dt > 0)) {
			if (!(c->opts.samplerate_hz > 0)) {
				capture_err(c, 0, "no sample interval in the file; give the samplerate");
				goto out;
			}
			dt = 1 / c->opts.samplerate_hz;
		}
		s->fit_dt = (long double)dt * CAPTURE_FS_PER_S;
		s->fit_t0 = (long double)s->t0_fs + (long double)s->idx0 * s->fit_dt;
	} else if (nfit >= 2) {
		long double mi = 0, mt = 0, sxx = 0, sxy = 0, maxres = 0, tol = 0;
		long double base = (long double)ft[0];
		long double given = (long double)sc->dt_s * CAPTURE_FS_PER_S, dtf;

		for (size_t i = 0; i < nfit; i++) {
			mi += fi[i];
			mt += (long double)ft[i] - base;
		}
		mi /= nfit;
		mt /= nfit;
		for (size_t i = 0; i < nfit; i++) {
			long double dx = fi[i] - mi, dy = (long double)ft[i] - base - mt;

			sxx += dx * dx;
			sxy += dx * dy;
		}
		dtf = sxx > 0 ? sxy / sxx : 0;
		if (given > 0 && fabsl(dtf - given) <= 1e-3L * given)
			dtf = given;
		else if (given > 0)
			capture_note(c, "stated sample interval %.6g s does not match the time column "
				     "(%.6g s); using the time column", sc->dt_s,
				     (double)(dtf / CAPTURE_FS_PER_S));
		s->fit_dt = dtf;
		/* t0: mean of (t - i*dt), which averages out the printing rounding */
		s->fit_t0 = base + mt - mi * dtf;
		/* uniform if every printed time is the line rounded to its digits */
		(void)have_q;
		for (size_t i = 0; i < nfit; i++) {
			long double res = fabsl((long double)ft[i] - (s->fit_t0 + fi[i] * dtf));
			long double q = 1;

			for (int k = fq[i] + 15; k > 0 && q < 1e30L; k--)
				q *= 10;
			for (int k = fq[i] + 15; k < 0; k++)
				q /= 10;
			if (res > maxres)
				maxres = res;
			if (res > q + 1e-3L * dtf)
				tol = -1;
		}
		if (tol >= 0)
			tol = maxres;
		if (!(dtf > 0) || tol < 0) {
			s->uniform = 0;
			capture_note(c, "time axis=printed time column: not uniform (off by up to %.3g s "
				     "from a straight line)", (double)(maxres / CAPTURE_FS_PER_S));
		} else {
			capture_note(c, "time axis=rebuilt as t0 + i*dt, dt=%.9g s (the printed times are "
				     "rounded)", (double)(dtf / CAPTURE_FS_PER_S));
		}
	} else {
		s->uniform = 0;
	}
	if (s->uniform) {
		c->info.resolution_fs = (int64_t)llroundl(s->fit_dt);
		c->info.samplerate_hz = (double)(CAPTURE_FS_PER_S / s->fit_dt);
		c->info.start_fs = (int64_t)llroundl(s->fit_t0);
		c->info.end_fs = (int64_t)llroundl(s->fit_t0 + (long double)s->nrows * s->fit_dt);
	} else {
		c->info.resolution_fs = nfit >= 2 ? (ft[nfit - 1] - ft[0]) / (fi[nfit - 1] - fi[0] ? fi[nfit - 1] - fi[0] : 1) : 0;
		c->info.samplerate_hz = 0;
		c->info.start_fs = nfit ? ft[0] : 0;
		c->info.end_fs = nfit ? ft[nfit - 1] : 0;
	}
	c->info.end_known = 1;
	ret = 0;
out:
	free(vals);
	free(fi);
	free(ft);
	free(fq);
	return ret;
}

static int scope_select(struct capture *c, unsigned ch, int bit)
{
	struct scope *s = c->priv;
	struct capture_levels lv;

	(void)bit;
	s->sel = s->ch[ch];
	c->info.n_notes = 0;
	if (scope_first_pass(c, s, &lv))
		return -1;
	capture_analog_setup(c, &lv, &s->an);
	s->row = 0;
	s->prev_row = -1;
	s->done = !lv.bimodal && !c->opts.threshold_set && c->opts.threshold == 0;
	c->info.initial_level = -1;
	csvread_seek(&s->r, s->data_off, s->data_line);
	return s->done ? 0 : 1;
}

static int scope_next(struct capture *c, struct capture_edge *e)
{
	struct scope *s = c->priv;
	const unsigned col = s->sel.col;
	const int tcol = s->uniform ? -1 : s->sel.tcol;

	if (s->done)
		return 0;
	for (;;) {
		int nf = csvread_next(&s->r), lvl;
		double v, x;
		int64_t t = 0;

		if (nf == CSVREAD_EOF)
			break;
		if (nf < 0)
			return capture_err(c, s->r.line, "malformed CSV (unterminated quote)");
		if (nf == 0)
			continue;
		if ((unsigned)nf <= col || nf <= tcol) {
			if (s->d == SD_TEK && csvread_field(&s->r, col).len == 0) {
				s->row++;
				continue;
			}
			return capture_err(c, s->r.line, "%d fields, expected at least %u (truncated row?)",
					   nf, col + 1);
		}
		if (scope_value(c, s, s->r.f[col], &v))
			return -1;
		if (tcol >= 0 && scope_time(c, s, s->r.f[tcol], &t))
			return -1;
		if (capture_analog_feed(&s->an, s->row, v, &x, &lvl)) {
			if (tcol < 0) {
				e->t_fs = (int64_t)llroundl(s->fit_t0 + (long double)x * s->fit_dt);
			} else {
				/* between the previous row's time and this one's */
				long double frac = x - (long double)(s->row - 1);

				e->t_fs = s->prev_row == s->row - 1
					  ? (int64_t)llroundl((long double)s->prev_t + frac * (t - s->prev_t)) : t;
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
	return 0;
}

static void scope_close(struct capture *c)
{
	struct scope *s = c->priv;

	if (!s)
		return;
	csvread_free(&s->r);
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
};
