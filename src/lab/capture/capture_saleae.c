/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Saleae Logic 2 and Logic 1.x digital CSV import: one row per transition
 * (or per sample), times in seconds, X for "no data". */
#include "capture/capture_private.h"
#include "base/csvread.h"
#include "base/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GCD_ROWS 20000

struct saleae {
	struct csvread r;
	size_t data_off;
	unsigned long data_line;
	int sample_numbers;   /* first column counts samples, not seconds */
	double rate;
	unsigned nch;
	/* stream */
	unsigned col;
	struct capture_logic lg; /* the selected column's level */
	int64_t prev_t;
	int done;
};

static int saleae_header(const char *d, size_t n)
{
	if (n >= 3 && (unsigned char)d[0] == 0xef)
		d += 3, n -= 3;
	if (capture_starts(d, n, "Time [s]"))
		return 2;
	if (capture_starts(d, n, "Time[s]") || capture_starts(d, n, "Sample Number") ||
	    capture_starts(d, n, "Sample Num"))
		return 1;
	return 0;
}

static int saleae_probe(const char *d, size_t len, const char *path)
{
	(void)path;
	return saleae_header(d, len < 256 ? len : 256) ? 90 : 0;
}

static int saleae_time(struct capture *c, struct saleae *s, struct csv_field f, int64_t *t)
{
	if (s->sample_numbers) {
		int64_t n;

		if (csv_parse_i64(f.p, f.len, &n))
			return capture_err(c, s->r.line, "sample number '%.*s' is not an integer",
					   (int)(f.len > 40 ? 40 : f.len), f.p);
		*t = capture_sample_ps(n, s->rate);
		return 0;
	}
	if (csv_parse_scaled(f.p, f.len, s->r.dec, 12, t) || !capture_ps_ok(*t))
		return capture_err(c, s->r.line, "time '%.*s' is not a number of seconds "
				   "within +-53 days", (int)(f.len > 40 ? 40 : f.len), f.p);
	return 0;
}

static int saleae_open(struct capture *c)
{
	struct saleae *s = calloc(1, sizeof(*s));
	int nf, ver;
	int64_t t, prev = 0, g = 0, q_ps = 1;
	int qexp;
	unsigned rows = 0;

	if (!s)
		return -1;
	c->priv = s;
	if (csvread_init(&s->r, c->data, c->len, 0))
		return -1;
	ver = saleae_header(c->data, c->len);
	nf = csvread_next(&s->r);
	if (nf == CSVREAD_ERR)
		return capture_err(c, s->r.line, "%s", csvread_why(&s->r));
	if (nf < 2 || !ver)
		return capture_err(c, 1, "not a Saleae CSV header (Time [s],Channel 0,...)");
	s->sample_numbers = capture_starts(s->r.f[0].p, s->r.f[0].len, "Sample");
	c->info.format = ver == 2 ? "saleae-logic2-csv" : "saleae-logic1-csv";
	for (int i = 1; i < nf; i++)
		if (capture_add_channel(c, s->r.f[i].p, s->r.f[i].len) < 0)
			return -1;
	s->nch = (unsigned)nf - 1;
	s->data_off = csvread_tell(&s->r);
	s->data_line = s->r.next_line;
	s->rate = c->opts.samplerate_hz;
	if (s->sample_numbers && !(s->rate > 0))
		return capture_err(c, 1, "sample numbers without a samplerate; give the samplerate");
	/* first rows: start time, analog check, time resolution */
	while ((nf = csvread_next(&s->r)) != CSVREAD_EOF && rows < GCD_ROWS) {
		if (nf < 0)
			return capture_err(c, s->r.line, "%s", csvread_why(&s->r));
		if (nf == 0)
			continue;
		if (saleae_time(c, s, s->r.f[0], &t))
			return -1;
		if (!rows) {
			c->info.start_ps = t;
			if (!s->sample_numbers && !csv_parse_quantum_exp(s->r.f[0].p, s->r.f[0].len,
									    s->r.dec, &qexp)) {
				for (int k = qexp + 12; k > 0 && q_ps < CAPTURE_PS_PER_S; k--)
					q_ps *= 10;
			}
			for (unsigned i = 0; i < s->nch && i + 1 < (unsigned)nf; i++) {
				struct csv_field f = s->r.f[i + 1];

				if (!(f.len == 1 && (f.p[0] == '0' || f.p[0] == '1' || f.p[0] == 'X' ||
						     f.p[0] == 'x')))
					return capture_err(c, s->r.line, "'%.*s' is not 0, 1 or X: Saleae "
							   "analog exports are not supported",
							   (int)(f.len > 40 ? 40 : f.len), f.p);
			}
		} else if (t > prev) {
			/* whole ps (Logic 1.x prints doubles with 15 decimals: the
			 * parse rounded them) */
			g = (int64_t)units_gcd((uint64_t)g, (uint64_t)(t - prev));
		} else if (t < prev) {
			return capture_err(c, s->r.line, "time goes backwards");
		}
		prev = t;
		rows++;
	}
	if (!rows)
		return capture_err(c, s->r.line, "no data rows");
	if (s->sample_numbers) {
		c->info.samplerate_hz = s->rate;
		c->info.resolution_ps = capture_sample_ps(1, s->rate);
	} else if (g > 0 && g >= q_ps && g <= 10 * CAPTURE_PS_PER_NS * 1000) {
		c->info.resolution_ps = g;
		capture_note(c, "resolution=%.6g ns: the finest step between transitions "
			     "(the file does not state the samplerate)", (double)g / 1000.0);
	} else {
		c->info.resolution_ps = q_ps;
		capture_note(c, "resolution=%.6g ns: the printed precision of the time column",
			     (double)q_ps / 1000.0);
	}
	/* end: the last row's time (transitions only: the last change, or an X row) */
	{
		const char *end = s->r.end, *p = end;
		struct csvread lr;

		while (p > s->r.data && (p[-1] == '\n' || p[-1] == '\r' || p[-1] == ' '))
			p--;
		while (p > s->r.data && p[-1] != '\n')
			p--;
		if (csvread_init(&lr, p, (size_t)(end - p), s->r.sep))
			return -1;
		if (csvread_next(&lr) > 0) {
			s->r.line = 0;
			if (!saleae_time(c, s, lr.f[0], &t)) {
				c->info.end_ps = t;
				c->info.end_known = 1;
			}
		}
		csvread_free(&lr);
		if (!c->info.end_known)
			return capture_err(c, 0, "cannot read the time of the last row (truncated file?)");
	}
	return 0;
}

static int saleae_select(struct capture *c, unsigned ch, int bit)
{
	struct saleae *s = c->priv;

	(void)bit;
	s->col = ch + 1;
	capture_logic_reset(&s->lg);
	s->done = 0;
	s->prev_t = INT64_MIN;
	c->info.initial_level = -1;
	csvread_seek(&s->r, s->data_off, s->data_line);
	return 1;
}

static int saleae_next(struct capture *c, struct capture_edge *e)
{
	struct saleae *s = c->priv;
	int nf;

	if (s->done)
		return 0;
	while ((nf = csvread_next(&s->r)) != CSVREAD_EOF) {
		struct csv_field f;
		int64_t t;
		int lv;

		if (nf < 0)
			return capture_err(c, s->r.line, "%s", csvread_why(&s->r));
		if (nf == 0)
			continue;
		if (saleae_time(c, s, s->r.f[0], &t))
			return -1;
		if (t < s->prev_t)
			return capture_err(c, s->r.line, "time goes backwards");
		if ((unsigned)nf <= s->col)
			return capture_err(c, s->r.line, "%d fields, expected %u (truncated row?)", nf,
					   s->nch + 1);
		f = s->r.f[s->col];
		lv = capture_logic_field(f.p, f.len);
		if (lv < -1)
			return capture_err(c, s->r.line, "'%.*s' is not 0, 1 or X",
					   (int)(f.len > 40 ? 40 : f.len), f.p);
		/* Saleae writes one row per instant; two rows of one time with
		 * different levels would be a pulse of 0 s */
		if (t == s->prev_t && lv >= 0 && s->lg.level >= 0 && lv != s->lg.level)
			return capture_err(c, s->r.line, "time '%.*s' repeats the row before with "
					   "another level (not a Saleae export, or an edited one)",
					   (int)(s->r.f[0].len > 40 ? 40 : s->r.f[0].len), s->r.f[0].p);
		s->prev_t = t;
		switch (capture_logic_step(&s->lg, lv, &e->flags)) {
		case CAPTURE_LOGIC_FIRST:
			if (t == c->info.start_ps)
				c->info.initial_level = lv;
			break;
		case CAPTURE_LOGIC_EDGE:
			e->t_ps = t;
			e->sample = -1;
			if (s->sample_numbers) {
				int64_t n;

				if (!csv_parse_i64(s->r.f[0].p, s->r.f[0].len, &n))
					e->sample = n;
			}
			e->level = (uint8_t)lv;
			return 1;
		case CAPTURE_LOGIC_NONE:
			break;
		}
	}
	s->done = 1;
	c->info.end_known = 1;
	return 0;
}

/* One pass over the rows: which columns change (X rows reset a column). */
static int saleae_scan(struct capture *c, signed char *has_edge)
{
	struct saleae *s = c->priv;
	signed char *lv = malloc(s->nch ? s->nch : 1);
	int nf;

	if (!lv)
		return -1;
	memset(lv, -1, s->nch);
	for (unsigned k = 0; k < s->nch; k++)
		has_edge[k] = 0;
	csvread_seek(&s->r, s->data_off, s->data_line);
	while ((nf = csvread_next(&s->r)) != CSVREAD_EOF) {
		if (nf < 0) {
			free(lv);
			return capture_err(c, s->r.line, "%s", csvread_why(&s->r));
		}
		for (unsigned k = 0; k < s->nch && k + 1 < (unsigned)nf; k++) {
			struct csv_field f = s->r.f[k + 1];
			int v = f.len == 1 && (f.p[0] == '0' || f.p[0] == '1') ? f.p[0] - '0' : -1;

			if (v >= 0 && lv[k] >= 0 && v != lv[k])
				has_edge[k] = 1;
			lv[k] = (signed char)v;
		}
		if (s->nch && has_edge[0])
			break;
	}
	free(lv);
	csvread_seek(&s->r, s->data_off, s->data_line);
	return 0;
}

static void saleae_close(struct capture *c)
{
	struct saleae *s = c->priv;

	if (!s)
		return;
	csvread_free(&s->r);
	free(s);
	c->priv = NULL;
}

const struct capture_ops capture_saleae_ops = {
	.name = "saleae-csv",
	.probe = saleae_probe,
	.open = saleae_open,
	.select = saleae_select,
	.next = saleae_next,
	.close = saleae_close,
	.scan = saleae_scan,
};
