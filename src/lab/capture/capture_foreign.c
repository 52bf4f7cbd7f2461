/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Other analyzer software's CSV exports (DSView, Digilent WaveForms, Ikalogic
 * ScanaStudio, and any "time + one 0/1 column per channel" table): read them,
 * or refuse the ones that carry no samples (protocol-decoder exports) by name. */
#include "capture/capture_private.h"
#include "base/csvread.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAD 8192           /* bytes the probe looks at */
#define PREAMBLE_ROWS 64    /* comment or key: value rows before the header */
#define LEVEL_SAMPLES 65536

enum fg_kind {
	FG_NONE,
	FG_DSVIEW,
	FG_WAVEFORMS,
	FG_SCANA,
	FG_GENERIC,
};

static const char *const fg_names[] = {
	[FG_NONE] = "analyzer-csv",
	[FG_DSVIEW] = "dsview-csv",
	[FG_WAVEFORMS] = "waveforms-csv",
	[FG_SCANA] = "scanastudio-csv",
	[FG_GENERIC] = "analyzer-csv",
};

static const char *const fg_products[] = {
	[FG_NONE] = "analyzer",
	[FG_DSVIEW] = "DSView",
	[FG_WAVEFORMS] = "Digilent WaveForms",
	[FG_SCANA] = "Ikalogic ScanaStudio",
	[FG_GENERIC] = "analyzer",
};

struct fg {
	struct csvread r;
	enum fg_kind kind;
	size_t data_off;
	unsigned long data_line;
	int tcol;           /* 0, or -1: no time column (time = row / rate) */
	int time_samples;   /* the time column counts samples */
	int unit_exp;       /* a time without its own unit is 10^unit_exp s */
	double rate;        /* 0 unknown */
	double count;       /* samples the file says it holds, 0 unknown */
	unsigned nch;
	/* stream */
	unsigned col;
	int analog;
	struct capture_analog an;
	struct capture_logic lg;
	int64_t prev_t, row;
	int done;
};

/* ---- recognising ------------------------------------------------------- */

static enum fg_kind fg_product(const char *d, size_t n)
{
	if (capture_memmem(d, n, "DSView"))
		return FG_DSVIEW;
	if (capture_memmem(d, n, "WaveForms") || capture_memmem(d, n, "Digilent"))
		return FG_WAVEFORMS;
	if (capture_memmem(d, n, "ScanaStudio") || capture_memmem(d, n, "Ikalogic") ||
	    capture_memmem(d, n, "IKALOGIC"))
		return FG_SCANA;
	return FG_NONE;
}

static int is_comment(const char *p, size_t l)
{
	return l && (p[0] == ';' || p[0] == '#');
}

/* A time header: "Time(s)", "Time (s)", "Time [ms]", "Time", "t", "Sample". */
static int time_header(struct csv_field f, int *unit_exp, int *samples)
{
	static const struct { const char *u; int e; } units[] = {
		{ "(s)", 0 }, { "[s]", 0 }, { "(ms)", -3 }, { "[ms]", -3 }, { "(us)", -6 },
		{ "[us]", -6 }, { "(\xc2\xb5s)", -6 }, { "[\xc2\xb5s]", -6 }, { "(ns)", -9 },
		{ "[ns]", -9 }, { "(ps)", -12 }, { "[ps]", -12 },
	};

	*samples = 0;
	*unit_exp = 0;
	if (csv_field_starts(f, "sample") || csv_field_is(f, "index") || csv_field_is(f, "n")) {
		*samples = 1;
		return 1;
	}
	if (!csv_field_starts(f, "time") && !csv_field_is(f, "t"))
		return 0;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t ul = strlen(units[i].u);

		if (f.len >= ul && !memcmp(f.p + f.len - ul, units[i].u, ul)) {
			*unit_exp = units[i].e;
			break;
		}
	}
	return 1;
}

/*
 * A time as analyzers print it: "4.647 800 ms" (digits grouped by spaces, a
 * unit), "1.5e-3", "0,0015" (decimal comma). Returns 0 with ps, or -1.
 */
static int fg_time(const char *p, size_t len, char dec, int unit_exp, int64_t *ps)
{
	char buf[64];
	size_t n = 0, e = len;
	int exp = unit_exp;

	while (e && (p[e - 1] == ' ' || p[e - 1] == '\t' || p[e - 1] == '\r'))
		e--;
	/* a unit at the end */
	{
		static const struct { const char *u; int e; } units[] = {
			{ "ms", -3 }, { "us", -6 }, { "\xc2\xb5s", -6 }, { "\xce\xbcs", -6 },
			{ "ns", -9 }, { "ps", -12 }, { "s", 0 },
		};

		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			size_t ul = strlen(units[i].u);

			if (e >= ul && !memcmp(p + e - ul, units[i].u, ul)) {
				e -= ul;
				exp = units[i].e;
				break;
			}
		}
	}
	for (size_t i = 0; i < e; i++) {
		unsigned char ch = (unsigned char)p[i];

		/* digit grouping: spaces, no-break space (C2 A0), thin spaces */
		if (ch == ' ' || ch == '\t' || ch == '\'')
			continue;
		if (ch == 0xc2 && i + 1 < e && (unsigned char)p[i + 1] == 0xa0) {
			i++;
			continue;
		}
		if (ch == 0xe2 && i + 2 < e && (unsigned char)p[i + 1] == 0x80 &&
		    ((unsigned char)p[i + 2] == 0x89 || (unsigned char)p[i + 2] == 0xaf)) {
			i += 2;
			continue;
		}
		if (n + 1 >= sizeof(buf))
			return -1;
		buf[n++] = (char)ch;
	}
	if (!n)
		return -1;
	if (csv_parse_scaled(buf, n, dec, 12 + exp, ps) || !capture_ps_ok(*ps))
		return -1;
	return 0;
}

/* Protocol-decoder and analyzer-result exports: tables of decoded frames,
 * not samples. Named, so that the refusal can say what to export instead. */
static const char *decoder_export(const char *d, size_t l)
{
	if (capture_starts(d, l, "Id,Time[s],") || capture_starts(d, l, "Id,Time [s],"))
		return "a DSView protocol-decoder export (Id, Time, decoded data)";
	if (capture_starts(d, l, "name,type,start_time") || capture_starts(d, l, "\"name\",\"type\""))
		return "a Saleae Logic 2 analyzer export (name, type, start_time, duration, data)";
	if (capture_starts(d, l, "Time [s],Analyzer Name") || capture_starts(d, l, "Time [s],Packet ID"))
		return "a Saleae Logic protocol-analyzer export";
	return NULL;
}

/* The first line that is not a comment, and whether the file names itself. */
static const char *first_row(const char *d, size_t n, size_t *l, enum fg_kind *kind)
{
	const char *p = d, *end = d + n;

	*kind = fg_product(d, n);
	if (n >= 3 && (unsigned char)p[0] == 0xef)
		p += 3;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);

		if (len && p[len - 1] == '\r')
			len--;
		if (len && !is_comment(p, len)) {
			*l = len;
			return p;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return NULL;
}

static int fg_probe(const char *d, size_t len, const char *path)
{
	size_t n = len < HEAD ? len : HEAD, l = 0;
	enum fg_kind kind;
	const char *row = first_row(d, n, &l, &kind);
	struct csvread r;
	int nf, ut, smp, score = 0;

	(void)path;
	if (row && decoder_export(row, l))
		return 96;   /* refused by name in open() */
	if (!row)
		return 0;
	/* a comment naming the software, then a header */
	if (kind != FG_NONE && is_comment(d, n))
		score = 95;
	if (csvread_init(&r, row, (size_t)(d + n - row), 0))
		return 0;
	nf = csvread_next(&r);
	if (nf >= 2 && time_header(r.f[0], &ut, &smp) && !score) {
		/* a plain "time + 0/1" table: only when its times carry units or
		 * digit grouping (else the scope and Saleae readers take it) */
		if (csvread_next(&r) >= 2) {
			struct csv_field f = r.f[0];
			int64_t ps;

			if (f.len && (memchr(f.p, ' ', f.len) || (f.len > 1 && (f.p[f.len - 1] == 's'))) &&
			    !fg_time(f.p, f.len, r.dec, ut, &ps))
				score = 40;
		}
	} else if (nf >= 1 && kind == FG_DSVIEW && score) {
		score = 95;   /* DSO/analog: no time column */
	}
	csvread_free(&r);
	return score;
}

/* ---- opening ----------------------------------------------------------- */

static int fg_open(struct capture *c)
{
	struct fg *s = calloc(1, sizeof(*s));
	size_t l = 0;
	const char *row = NULL, *why;
	int nf, smp = 0, ue = 0;

	if (!s)
		return -1;
	c->priv = s;
	row = first_row(c->data, c->len < HEAD ? c->len : HEAD, &l, &s->kind);
	if (row && (why = decoder_export(row, l)))
		return capture_err(c, 1, "%s has decoded frames, not samples: export the raw logic "
				   "data instead (a time column and one 0/1 column per channel)", why);
	if (s->kind == FG_NONE)
		s->kind = FG_GENERIC;
	c->info.format = fg_names[s->kind];
	if (csvread_init(&s->r, c->data, c->len, 0))
		return -1;
	/* preamble: comments, maybe the sample rate */
	for (int k = 0; k < PREAMBLE_ROWS; k++) {
		size_t off = csvread_tell(&s->r);
		unsigned long line = s->r.next_line;
		const char *p = s->r.cur, *rate;
		size_t len;

		if (p >= s->r.end)
			return capture_err(c, line, "no header row (a time column and channel names)");
		{
			const char *nl = memchr(p, '\n', (size_t)(s->r.end - p));

			len = (size_t)((nl ? nl : s->r.end) - p);
		}
		if (len && p[len - 1] == '\r')
			len--;
		if (len && p == c->data && (unsigned char)p[0] == 0xef && len >= 3) {
			p += 3;
			len -= 3;
		}
		if (len && !is_comment(p, len)) {
			csvread_seek(&s->r, off, line);
			break;
		}
		csvread_skip(&s->r);
		rate = capture_memmem(p, len, "ample count:");
		if (!rate)
			rate = capture_memmem(p, len, "amples:");
		if (rate) {
			/* "; Sample count: 1 M" (DSView), "#Samples: 8192" */
			const char *v = memchr(rate, ':', (size_t)(p + len - rate)) + 1;

			if (capture_parse_rate(v, (size_t)(p + len - v), &s->count))
				s->count = 0;
			continue;
		}
		rate = capture_memmem(p, len, "ample rate:");
		if (!rate)
			rate = capture_memmem(p, len, "amplerate:");
		if (rate) {
			const char *v = memchr(rate, ':', (size_t)(p + len - rate)) + 1;

			if (capture_parse_rate(v, (size_t)(p + len - v), &s->rate))
				return capture_err(c, line, "cannot read the sample rate '%.*s'",
						   (int)(p + len - v > 40 ? 40 : p + len - v), v);
		}
	}
	if (c->opts.samplerate_hz > 0)
		s->rate = c->opts.samplerate_hz;
	nf = csvread_next(&s->r);
	if (nf == CSVREAD_ERR)
		return capture_err(c, s->r.line, "%s", csvread_why(&s->r));
	if (nf < 1)
		return capture_err(c, s->r.line, "no header row (a time column and channel names)");
	s->tcol = time_header(s->r.f[0], &ue, &smp) ? 0 : -1;
	s->time_samples = smp;
	s->unit_exp = ue;
	if (s->tcol < 0 && !(s->rate > 0))
		return capture_err(c, s->r.line, "this %s export has no time column and no sample rate: "
				   "sqwave needs a time column (seconds, or with a unit) and one 0/1 "
				   "column per channel, or give the samplerate", fg_products[s->kind]);
	if (s->time_samples && !(s->rate > 0))
		return capture_err(c, s->r.line, "the first column counts samples but the file states no "
				   "sample rate; give the samplerate");
	for (int i = s->tcol + 1; i < nf; i++) {
		struct csv_field f = s->r.f[i];
		const char *u = memchr(f.p, '(', f.len);

		int ch;

		/* DSView DSO columns: "CH0 (Unit: V)" */
		if (u && u > f.p)
			f.len = (size_t)(u - f.p);
		while (f.len && f.p[f.len - 1] == ' ')
			f.len--;
		ch = capture_add_channel(c, f.p, f.len);
		if (ch < 0)
			return -1;
		/* a unit says analog, whatever the first value (0 V is a bit too) */
		c->chans[ch].analog = u && capture_memmem(u, (size_t)(s->r.f[i].p + s->r.f[i].len - u),
							"Unit:") != NULL;
	}
	s->nch = (unsigned)(nf - (s->tcol + 1));
	if (!s->nch)
		return capture_err(c, s->r.line, "this %s export has a time column but no channel "
				   "columns: sqwave needs one 0/1 column per channel", fg_products[s->kind]);
	s->data_off = csvread_tell(&s->r);
	s->data_line = s->r.next_line;
	/* the first data row: logic or analog columns, start time */
	nf = csvread_next(&s->r);
	if (nf < 0)
		return capture_err(c, s->r.line, "%s", csvread_why(&s->r));
	if (nf < (int)(s->tcol + 1 + s->nch))
		return capture_err(c, s->r.line, "no data rows (or a short one: %d fields, expected %u)",
				   nf < 0 ? 0 : nf, s->tcol + 1 + s->nch);
	for (unsigned k = 0; k < s->nch; k++) {
		struct csv_field f = s->r.f[s->tcol + 1 + k];
		double v;

		if (f.len == 1 && (f.p[0] == '0' || f.p[0] == '1' || f.p[0] == 'X' || f.p[0] == 'x') &&
		    !c->chans[k].analog)
			continue;
		if (csv_parse_double(f.p, f.len, s->r.dec, &v))
			return capture_err(c, s->r.line, "'%.*s' in %s is neither a logic level nor a "
					   "number: sqwave needs one 0/1 column per channel",
					   (int)(f.len > 40 ? 40 : f.len), f.p, c->chans[k].name);
		if (s->tcol >= 0)
			return capture_err(c, s->r.line, "%s holds numbers, not 0/1: a time column with "
					   "analog values is a scope table (--format scope)",
					   c->chans[k].name);
		c->chans[k].analog = 1;
	}
	if (s->tcol >= 0 && !s->time_samples) {
		int64_t t;

		if (fg_time(s->r.f[0].p, s->r.f[0].len, s->r.dec, s->unit_exp, &t))
			return capture_err(c, s->r.line, "time '%.*s' is not a time (seconds, or a number "
					   "with a unit: 4.647 800 ms)", (int)(s->r.f[0].len > 40 ? 40 :
									   s->r.f[0].len), s->r.f[0].p);
		c->info.start_ps = t;
	}
	c->info.samplerate_hz = s->rate;
	c->info.resolution_ps = s->rate > 0 ? capture_sample_ps(1, s->rate) : 1;
	if (!(s->rate > 0))
		capture_note(c, "resolution=1 ps: the file states no sample rate (give the samplerate "
			     "for compare's tolerance)");
	c->info.end_known = 0;
	return 0;
}

/* A row's time in ps; on the sample grid when the rate is known (DSView
 * prints (n - 1) / rate with 15 digits: the index is exact). */
static int fg_row_time(struct capture *c, struct fg *s, int64_t *t, int64_t *sample)
{
	*sample = -1;
	if (s->tcol < 0) {
		*sample = s->row;
		*t = capture_sample_ps(s->row, s->rate);
		return 0;
	}
	if (s->time_samples) {
		if (csv_parse_i64(s->r.f[0].p, s->r.f[0].len, sample))
			return capture_err(c, s->r.line, "sample number '%.*s' is not an integer",
					   (int)(s->r.f[0].len > 40 ? 40 : s->r.f[0].len), s->r.f[0].p);
		*t = capture_sample_ps(*sample, s->rate);
		return 0;
	}
	if (fg_time(s->r.f[0].p, s->r.f[0].len, s->r.dec, s->unit_exp, t))
		return capture_err(c, s->r.line, "time '%.*s' is not a time (seconds, or a number "
				   "with a unit)", (int)(s->r.f[0].len > 40 ? 40 : s->r.f[0].len),
				   s->r.f[0].p);
	if (s->rate > 0) {
		long double n = (long double)*t * s->rate / CAPTURE_PS_PER_S;
		long double rn = roundl(n);

		if (fabsl(n - rn) < 1e-3L && fabsl(rn) < 9e18L) {
			*sample = (int64_t)rn;
			*t = capture_sample_ps(*sample, s->rate);
		}
	}
	return 0;
}

static int fg_select(struct capture *c, unsigned ch, int bit)
{
	struct fg *s = c->priv;

	(void)bit;
	s->col = (unsigned)(s->tcol + 1) + ch;
	s->analog = c->chans[ch].analog;
	capture_logic_reset(&s->lg);
	s->prev_t = INT64_MIN;
	s->row = 0;
	s->done = 0;
	c->info.initial_level = -1;
	c->info.analog = 0;
	if (s->analog) {
		struct capture_levelscan ls;
		struct capture_levels lv;
		int nf;

		if (capture_levelscan_init(&ls, LEVEL_SAMPLES))
			return -1;
		csvread_seek(&s->r, s->data_off, s->data_line);
		while ((nf = csvread_next(&s->r)) != CSVREAD_EOF) {
			double v;

			if (nf < 0) {
				capture_levelscan_free(&ls);
				return capture_err(c, s->r.line, "%s", csvread_why(&s->r));
			}
			if (nf == 0 || is_comment(s->r.f[0].p, s->r.f[0].len) || (unsigned)nf <= s->col)
				continue;
			if (csv_parse_sample(s->r.f[s->col].p, s->r.f[s->col].len, s->r.dec, &v)) {
				capture_levelscan_free(&ls);
				return capture_err(c, s->r.line, "'%.*s' is not a number (an analog column)",
						   (int)(s->r.f[s->col].len > 40 ? 40 : s->r.f[s->col].len),
						   s->r.f[s->col].p);
			}
			capture_levelscan_add(&ls, v);
		}
		capture_levels_from_scan(&ls, &lv);
		capture_levelscan_free(&ls);
		if (!capture_analog_setup(c, &lv, &s->an))
			s->done = 1;
	}
	capture_set_edge_window(c, c->info.resolution_ps, c->info.analog);
	csvread_seek(&s->r, s->data_off, s->data_line);
	return s->done ? 0 : 1;
}

static int fg_next(struct capture *c, struct capture_edge *e)
{
	struct fg *s = c->priv;
	int nf;

	if (s->done)
		return 0;
	while ((nf = csvread_next(&s->r)) != CSVREAD_EOF) {
		struct csv_field f;
		int64_t t, smp;
		int lv;

		if (nf < 0)
			return capture_err(c, s->r.line, "%s", csvread_why(&s->r));
		if (nf == 0 || is_comment(s->r.f[0].p, s->r.f[0].len))
			continue;
		if ((unsigned)nf <= s->col) {
			/* a short last row ends the data; inside the data it is an error */
			if (s->r.cur >= s->r.end)
				break;
			return capture_err(c, s->r.line, "%d fields, expected %u (truncated row?)", nf,
					   s->col + 1);
		}
		if (fg_row_time(c, s, &t, &smp))
			return -1;
		if (t < s->prev_t)
			return capture_err(c, s->r.line, "time goes backwards");
		f = s->r.f[s->col];
		if (s->analog) {
			double v, x;

			s->prev_t = t;
			c->info.end_ps = t;
			/* text is no sample (a column of it read as one level: 0
			 * edges, exit 0); nan/inf are missing ones */
			if (csv_parse_sample(f.p, f.len, s->r.dec, &v))
				return capture_err(c, s->r.line, "'%.*s' is not a number (an analog column)",
						   (int)(f.len > 40 ? 40 : f.len), f.p);
			if (capture_analog_feed(&s->an, s->row++, v, &x, &lv)) {
				double fl = floor(x);

				e->t_ps = capture_sample_ps((int64_t)fl, s->rate) +
					  capture_ld_to_ps((long double)(x - fl) * c->info.resolution_ps);
				e->sample = (int64_t)ceil(x);
				e->level = (uint8_t)lv;
				e->flags = 0;
				return 1;
			}
			if (c->info.initial_level < 0 && s->an.state >= 0)
				c->info.initial_level = s->an.state;
			continue;
		}
		s->row++;
		lv = capture_logic_field(f.p, f.len);
		if (lv < -1)
			return capture_err(c, s->r.line, "'%.*s' is not 0, 1 or X",
					   (int)(f.len > 40 ? 40 : f.len), f.p);
		/* a row per instant: two rows of one time with different levels
		 * would be a pulse of 0 s */
		if (t == s->prev_t && s->tcol >= 0 && lv >= 0 && s->lg.level >= 0 && lv != s->lg.level)
			return capture_err(c, s->r.line, "time '%.*s' repeats the row before with "
					   "another level", (int)(s->r.f[s->tcol].len > 40 ? 40 :
								  s->r.f[s->tcol].len), s->r.f[s->tcol].p);
		s->prev_t = t;
		c->info.end_ps = t;
		switch (capture_logic_step(&s->lg, lv, &e->flags)) {
		case CAPTURE_LOGIC_FIRST:
			c->info.initial_level = lv;
			break;
		case CAPTURE_LOGIC_EDGE:
			e->t_ps = t;
			e->sample = smp;
			e->level = (uint8_t)lv;
			return 1;
		case CAPTURE_LOGIC_NONE:
			break;
		}
	}
	s->done = 1;
	/* a table of samples ends one interval after its last row; a table of
	 * transitions where its sample count says */
	if (s->tcol < 0)
		c->info.end_ps = capture_sample_ps(s->row, s->rate);
	else if (s->rate > 0)
		c->info.end_ps += c->info.resolution_ps;
	if (s->rate > 0 && s->count > 0 && s->count < 9e18) {
		int64_t end = capture_sample_ps((int64_t)s->count, s->rate);

		if (end > c->info.end_ps && capture_ps_ok(end))
			c->info.end_ps = end;
	}
	c->info.end_known = 1;
	return 0;
}

/* One pass over the rows: which logic columns change, which analog ones
 * have two levels. */
static int fg_scan(struct capture *c, signed char *has_edge)
{
	struct fg *s = c->priv;
	struct capture_levelscan *ls = calloc(s->nch ? s->nch : 1, sizeof(*ls));
	signed char *lv = malloc(s->nch ? s->nch : 1);
	unsigned nan = 0;
	int nf, ret = -1;

	if (!ls || !lv)
		goto out;
	memset(lv, -1, s->nch);
	for (unsigned k = 0; k < s->nch; k++) {
		has_edge[k] = 0;
		nan += c->chans[k].analog;
	}
	for (unsigned k = 0; k < s->nch; k++)
		if (c->chans[k].analog && capture_levelscan_init(&ls[k], (1u << 20) / nan))
			goto out;
	csvread_seek(&s->r, s->data_off, s->data_line);
	while ((nf = csvread_next(&s->r)) != CSVREAD_EOF) {
		if (nf < 0) {
			capture_err(c, s->r.line, "%s", csvread_why(&s->r));
			goto out;
		}
		if (nf == 0 || is_comment(s->r.f[0].p, s->r.f[0].len))
			continue;
		for (unsigned k = 0; k < s->nch && (unsigned)(s->tcol + 1) + k < (unsigned)nf; k++) {
			struct csv_field f = s->r.f[(unsigned)(s->tcol + 1) + k];
			double v;
			int b;

			if (c->chans[k].analog) {
				if (csv_parse_sample(f.p, f.len, s->r.dec, &v)) {
					capture_err(c, s->r.line, "'%.*s' is not a number (an analog column)",
						    (int)(f.len > 40 ? 40 : f.len), f.p);
					goto out;
				}
				capture_levelscan_add(&ls[k], v);
				continue;
			}
			b = f.len == 1 && (f.p[0] == '0' || f.p[0] == '1') ? f.p[0] - '0' : -1;
			if (b >= 0 && lv[k] >= 0 && b != lv[k])
				has_edge[k] = 1;
			lv[k] = (signed char)b;
		}
		if (!nan && s->nch && has_edge[0])
			break;
	}
	for (unsigned k = 0; k < s->nch; k++)
		if (c->chans[k].analog) {
			struct capture_levels l;

			capture_levels_from_scan(&ls[k], &l);
			has_edge[k] = (signed char)l.bimodal;
		}
	ret = 0;
out:
	for (unsigned k = 0; ls && k < s->nch; k++)
		capture_levelscan_free(&ls[k]);
	free(ls);
	free(lv);
	csvread_seek(&s->r, s->data_off, s->data_line);
	return ret;
}

static void fg_close(struct capture *c)
{
	struct fg *s = c->priv;

	if (!s)
		return;
	csvread_free(&s->r);
	free(s);
	c->priv = NULL;
}

const struct capture_ops capture_foreign_ops = {
	.name = "analyzer-csv",
	.probe = fg_probe,
	.open = fg_open,
	.select = fg_select,
	.next = fg_next,
	.close = fg_close,
	.scan = fg_scan,
};
