/* SPDX-License-Identifier: GPL-2.0-or-later */
/* VCD import (IEEE 1364 value change dump, sigrok and simulator flavours):
 * any timescale, nested scopes, vectors by bit, x/z as gaps, 64-bit times. */
#include "capture/capture_private.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vcdvar {
	const char *id;   /* points into the file */
	size_t idlen;
	unsigned chan;
	int real;
};

struct vcd {
	const char *p, *end;     /* cursor */
	unsigned long line;
	const char *data_start;  /* after $enddefinitions $end */
	unsigned long data_line;
	int64_t tick_num, tick_den; /* one tick = tick_num / tick_den ps */
	double rate;             /* sigrok's samplerate from $comment, 0 if none */
	struct vcdvar *vars;
	unsigned nvars, capvars;
	/* stream */
	const char *sel_id;
	size_t sel_idlen;
	int sel_bit;             /* position from the LSB, -1 for scalars */
	int sel_real;
	struct capture_logic lg; /* the selected signal's level */
	int have_time;
	uint64_t ticks;          /* current time in ticks */
	uint64_t first_ticks;
	int64_t t_ps;
	int64_t last_ps;         /* the last timestamp read */
	/* the selected signal's last value at the current time, applied when
	 * the time advances: changes within one timestamp are not pulses */
	int pend, pend_lv;
	int done;
};

static int vcd_probe(const char *d, size_t len, const char *path)
{
	size_t n = len < 65536 ? len : 65536, i = 0;
	size_t pl = path ? strlen(path) : 0;
	int ext = pl > 4 && !strcmp(path + pl - 4, ".vcd");

	while (i < n && isspace((unsigned char)d[i]))
		i++;
	if (i >= n || d[i] != '$')
		return 0;
	if (capture_memmem(d, n, "$enddefinitions") || capture_memmem(d, n, "$var"))
		return 95;
	if (capture_memmem(d, n, "$timescale") || capture_memmem(d, n, "$date") ||
	    capture_memmem(d, n, "$version"))
		return ext ? 90 : 60;
	return ext ? 30 : 0;
}

/* Next whitespace-separated token; NULL at the end. Counts lines. */
static const char *vcd_token(struct vcd *v, size_t *len)
{
	const char *p = v->p, *end = v->end, *s;

	while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r' || *p == '\f' ||
			   *p == '\v')) {
		if (*p == '\n')
			v->line++;
		p++;
	}
	if (p >= end) {
		v->p = p;
		return NULL;
	}
	s = p;
	while (p < end && !(*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r' || *p == '\f' ||
			    *p == '\v'))
		p++;
	v->p = p;
	*len = (size_t)(p - s);
	return s;
}

static int tok_is(const char *t, size_t l, const char *s)
{
	size_t n = strlen(s);

	return t && l == n && !memcmp(t, s, n);
}

/* Skip to the token after the next "$end". */
static int vcd_skip_end(struct capture *c, struct vcd *v, const char *what)
{
	const char *t;
	size_t l;
	unsigned long line = v->line;

	while ((t = vcd_token(v, &l)))
		if (tok_is(t, l, "$end"))
			return 0;
	return capture_err(c, line, "%s without $end (truncated file?)", what);
}

static int vcd_timescale(struct capture *c, struct vcd *v)
{
	char buf[64];
	size_t n = 0, l;
	const char *t, *u;
	unsigned long line = v->line;
	long num;
	int64_t unit, den = 1;

	while ((t = vcd_token(v, &l)) && !tok_is(t, l, "$end")) {
		if (n + l >= sizeof(buf))
			return capture_err(c, line, "bad $timescale");
		memcpy(buf + n, t, l);
		n += l;
	}
	if (!t)
		return capture_err(c, line, "$timescale without $end (truncated file?)");
	buf[n] = 0;
	num = strtol(buf, (char **)&u, 10);
	if (u == buf)
		num = 1;
	/* IEEE 1364 allows 1, 10 and 100; some writers put "1000 ns" or "250
	 * ps", which sigrok reads as it says: so does sqwave, with a note */
	if (num < 1 || num > 1000000)
		return capture_err(c, line, "$timescale '%s': the number must be 1, 10 or 100 "
				   "(or up to 1000000, as sigrok reads it)", buf);
	if (num != 1 && num != 10 && num != 100)
		capture_note(c, "$timescale %s: not 1, 10 or 100 as IEEE 1364 has it; read as written",
			     buf);
	if (!strcmp(u, "s"))
		unit = CAPTURE_PS_PER_S;
	else if (!strcmp(u, "ms"))
		unit = 1000000000LL;
	else if (!strcmp(u, "us"))
		unit = 1000000LL;
	else if (!strcmp(u, "ns"))
		unit = 1000LL;
	else if (!strcmp(u, "ps"))
		unit = 1LL;
	else if (!strcmp(u, "fs"))
		unit = 1LL, den = 1000;
	else
		return capture_err(c, line, "$timescale '%s': unknown unit (s, ms, us, ns, ps, fs)", buf);
	v->tick_num = unit * num;
	v->tick_den = den;
	if (den > 1)
		capture_note(c, "timescale=%s: times rounded to 1 ps", buf);
	return 0;
}

/* Free text of $comment/$version: look for sigrok's "at 256 kHz". */
static int vcd_text(struct capture *c, struct vcd *v, const char *what)
{
	const char *t, *start = NULL, *stop = NULL;
	size_t l;
	unsigned long line = v->line;

	while ((t = vcd_token(v, &l)) && !tok_is(t, l, "$end")) {
		if (!start)
			start = t;
		stop = t + l;
	}
	if (!t)
		return capture_err(c, line, "%s without $end (truncated file?)", what);
	if (start && !strcmp(what, "$comment")) {
		size_t n = (size_t)(stop - start);
		const char *a = capture_memmem(start, n, "Acquisition with");
		const char *at = a ? capture_memmem(a, (size_t)(stop - a), " at ") : NULL;

		if (at) {
			const char *r = at + 4, *e = r;
			double hz;

			while (e < stop && *e != '\n' && *e != '\r')
				e++;
			if (!capture_parse_rate(r, (size_t)(e - r), &hz))
				v->rate = hz;
		}
	}
	return 0;
}

static int vcd_var(struct capture *c, struct vcd *v, const char *scope, size_t scope_len)
{
	const char *tok[8];
	size_t len[8];
	unsigned n = 0;
	const char *t;
	size_t l;
	unsigned long line = v->line;
	char name[512];
	long size;
	int ch, msb = 0, lsb = 0, has_range = 0;
	struct vcdvar *var;

	while ((t = vcd_token(v, &l)) && !tok_is(t, l, "$end")) {
		if (n < 8) {
			tok[n] = t;
			len[n] = l;
		}
		n++;
	}
	if (!t)
		return capture_err(c, line, "$var without $end (truncated file?)");
	if (n < 4 || n > 8)
		return capture_err(c, line, "$var needs: type size id name [range]");
	{
		char sz[24];

		if (len[1] >= sizeof(sz))
			return capture_err(c, line, "$var size '%.*s' is not a number", (int)len[1], tok[1]);
		memcpy(sz, tok[1], len[1]);
		sz[len[1]] = 0;
		size = strtol(sz, &(char *){ NULL }, 10);
		if (size < 1 || size > 1 << 20 || strspn(sz, "0123456789") != len[1])
			return capture_err(c, line, "$var size '%s' is not a number", sz);
	}
	/* range: separate token "[3:0]" or attached "state[3:0]" */
	{
		const char *rs = NULL, *re = NULL;

		if (n >= 5 && tok[4][0] == '[') {
			rs = tok[4];
			re = tok[4] + len[4];
		} else if (len[3] > 2 && tok[3][len[3] - 1] == ']' && memchr(tok[3], '[', len[3])) {
			rs = memchr(tok[3], '[', len[3]);
			re = tok[3] + len[3];
		}
		if (rs) {
			char rb[64];
			size_t rl = (size_t)(re - rs);

			if (rl < sizeof(rb)) {
				memcpy(rb, rs, rl);
				rb[rl] = 0;
				if (sscanf(rb, "[%d:%d]", &msb, &lsb) == 2)
					has_range = 1;
			}
		}
	}
	if (snprintf(name, sizeof(name), "%.*s%s%.*s%.*s", (int)scope_len, scope,
		     scope_len ? "." : "", (int)len[3], tok[3],
		     n >= 5 ? (int)len[4] : 0, n >= 5 ? tok[4] : "") >= (int)sizeof(name))
		return capture_err(c, line, "$var name too long");
	ch = capture_add_channel(c, name, strlen(name));
	if (ch < 0)
		return -1;
	c->chans[ch].width = (unsigned)size;
	if (len[0] >= 4 && !memcmp(tok[0], "real", 4))
		c->chans[ch].width = 1; /* a number, not a bit vector */
	if (has_range && size > 1) {
		c->chans[ch].msb = msb;
		c->chans[ch].lsb = lsb;
		if (labs((long)msb - lsb) + 1 != size) {
			c->chans[ch].msb = c->chans[ch].lsb = 0;
		}
	}
	if (v->nvars == v->capvars) {
		unsigned cap = v->capvars ? v->capvars * 2 : 16;
		struct vcdvar *nv = realloc(v->vars, cap * sizeof(*nv));

		if (!nv)
			return -1;
		v->vars = nv;
		v->capvars = cap;
	}
	var = &v->vars[v->nvars++];
	var->id = tok[2];
	var->idlen = len[2];
	var->chan = (unsigned)ch;
	var->real = len[0] == 4 && !memcmp(tok[0], "real", 4);
	if (!var->real && len[0] >= 4 && !memcmp(tok[0], "real", 4))
		var->real = 1; /* realtime */
	c->chans[ch].analog = var->real;
	c->chans[ch].disabled = var->real;   /* a number, never chosen automatically */
	return 0;
}

static int64_t vcd_snap(const struct vcd *v, int64_t t_ps, int64_t *sample)
{
	int64_t r, n;

	if (!(v->rate > 0) || v->rate != floor(v->rate) || v->rate > 1e15) {
		*sample = -1;
		return t_ps;
	}
	r = (int64_t)v->rate;
	n = capture_muldiv_round(t_ps, r, CAPTURE_PS_PER_S);
	*sample = n;
	return capture_sample_ps(n, v->rate);
}

/* @ticks (<= INT64_MAX) in ps; -1 when beyond +-CAPTURE_PS_MAX. */
static int vcd_ticks_ps(const struct vcd *v, uint64_t ticks, int64_t *ps)
{
	if (ticks > (uint64_t)INT64_MAX)
		return -1;
	if (v->tick_den == 1) {
		if (capture_mul_ps((int64_t)ticks, v->tick_num, ps))
			return -1;
	} else {
		*ps = capture_muldiv_round((int64_t)ticks, v->tick_num, v->tick_den);
	}
	return capture_ps_ok(*ps) ? 0 : -1;
}

static int is_ws(char ch)
{
	return ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* The final timestamp, found from the end of the file (within 1 MiB), so that
 * the end of the capture is known at open. A '#' token is a time unless it
 * is the identifier after a vector or real value ("b101 #"). */
static int vcd_find_end(const struct vcd *v, uint64_t *ticks)
{
	const char *lo = v->end - v->data_start > (1 << 20) ? v->end - (1 << 20) : v->data_start;

	for (const char *p = v->end; p-- > lo;) {
		const char *q, *t;
		uint64_t n = 0;

		if (*p != '#' || (p > v->data_start && !is_ws(p[-1])))
			continue;
		for (q = p + 1; q < v->end && !is_ws(*q); q++) {
			if (*q < '0' || *q > '9' || n > (UINT64_MAX - 9) / 10)
				break;
			n = n * 10 + (uint64_t)(*q - '0');
		}
		if (q == p + 1 || (q < v->end && !is_ws(*q)))
			continue;
		t = p;
		while (t > v->data_start && is_ws(t[-1]))
			t--;
		while (t > v->data_start && !is_ws(t[-1]))
			t--;
		if (t < p && (*t == 'b' || *t == 'B' || *t == 'r' || *t == 'R'))
			continue;
		*ticks = n;
		return 0;
	}
	return -1;
}

static int vcd_open(struct capture *c)
{
	struct vcd *v = calloc(1, sizeof(*v));
	char scope[512];
	size_t scope_len = 0;
	const char *t;
	size_t l;

	if (!v)
		return -1;
	c->priv = v;
	v->p = c->data;
	v->end = c->data + c->len;
	v->line = 1;
	v->tick_num = 0;
	v->tick_den = 1;
	scope[0] = 0;
	for (;;) {
		unsigned long line = v->line;

		t = vcd_token(v, &l);
		if (!t)
			return capture_err(c, v->line, "no $enddefinitions (truncated file?)");
		line = v->line;
		if (tok_is(t, l, "$timescale")) {
			if (vcd_timescale(c, v))
				return -1;
		} else if (tok_is(t, l, "$scope")) {
			const char *nm = NULL;
			size_t nl = 0;
			unsigned k = 0;

			while ((t = vcd_token(v, &l)) && !tok_is(t, l, "$end")) {
				if (k++ == 1) {
					nm = t;
					nl = l;
				}
			}
			if (!t)
				return capture_err(c, line, "$scope without $end (truncated file?)");
			if (!nm) {
				nm = "?";
				nl = 1;
			}
			if (scope_len + nl + 2 >= sizeof(scope))
				return capture_err(c, line, "scopes nested too deep");
			if (scope_len)
				scope[scope_len++] = '.';
			memcpy(scope + scope_len, nm, nl);
			scope_len += nl;
			scope[scope_len] = 0;
		} else if (tok_is(t, l, "$upscope")) {
			char *dot = strrchr(scope, '.');

			scope_len = dot ? (size_t)(dot - scope) : 0;
			scope[scope_len] = 0;
			if (vcd_skip_end(c, v, "$upscope"))
				return -1;
		} else if (tok_is(t, l, "$var")) {
			if (vcd_var(c, v, scope, scope_len))
				return -1;
		} else if (tok_is(t, l, "$comment") || tok_is(t, l, "$version") || tok_is(t, l, "$date")) {
			char what[16];

			snprintf(what, sizeof(what), "%.*s", (int)l, t);
			if (vcd_text(c, v, what))
				return -1;
		} else if (tok_is(t, l, "$enddefinitions")) {
			if (vcd_skip_end(c, v, "$enddefinitions"))
				return -1;
			break;
		} else if (t[0] == '$') {
			char what[32];

			snprintf(what, sizeof(what), "%.*s", (int)(l > 30 ? 30 : l), t);
			if (vcd_skip_end(c, v, what))
				return -1;
		} else {
			return capture_err(c, line, "'%.*s' before $enddefinitions: not a VCD header",
					   (int)(l > 40 ? 40 : l), t);
		}
	}
	v->data_start = v->p;
	v->data_line = v->line;
	if (!v->tick_num) {
		v->tick_num = 1000;
		capture_note(c, "no $timescale: 1 ns assumed");
	}
	c->info.samplerate_hz = v->rate;
	c->info.resolution_ps = v->tick_num / v->tick_den ? v->tick_num / v->tick_den : 1;
	{
		uint64_t ticks;
		int64_t ps;

		if (!vcd_find_end(v, &ticks) && !vcd_ticks_ps(v, ticks, &ps)) {
			c->info.end_ps = vcd_snap(v, ps, &(int64_t){ 0 });
			c->info.end_known = 1;
		}
	}
	if (v->rate > 0) {
		int64_t per = capture_sample_ps(1, v->rate);

		if (per > c->info.resolution_ps)
			c->info.resolution_ps = per;
		capture_note(c, "samplerate from $comment: %.10g Hz; times snapped to its sample grid",
			     v->rate);
	}
	return 0;
}

static int vcd_select(struct capture *c, unsigned ch, int bit)
{
	struct vcd *v = c->priv;
	unsigned i;

	for (i = 0; i < v->nvars; i++)
		if (v->vars[i].chan == ch)
			break;
	if (i == v->nvars)
		return capture_err(c, 0, "internal: channel without a variable");
	v->sel_id = v->vars[i].id;
	v->sel_idlen = v->vars[i].idlen;
	v->sel_real = v->vars[i].real;
	if (v->sel_real)
		return capture_err(c, 0, "'%s' is a real variable, not a logic signal", c->chans[ch].name);
	v->sel_bit = bit;
	v->p = v->data_start;
	v->line = v->data_line;
	capture_logic_reset(&v->lg);
	v->have_time = 0;
	v->ticks = 0;
	v->t_ps = 0;
	v->pend = 0;
	v->done = 0;
	c->info.start_ps = 0;
	c->info.initial_level = -1;
	return 1;
}

static int vcd_level(char ch)
{
	switch (ch) {
	case '0': case 'l': case 'L':
		return 0;
	case '1': case 'h': case 'H':
		return 1;
	default:
		return -1;  /* x, z, u, w, - */
	}
}

/* A value for the selected signal, at the current time: only the last
 * value of a timestamp counts (a simulator's delta-cycle glitch "#10 1! 0!",
 * or a timestamp written twice, is no pulse of 0 ns; sigrok keeps the last
 * value too), so it waits for the time to advance. */
static void vcd_value(struct vcd *v, int lv)
{
	v->pend = 1;
	v->pend_lv = lv;
}

/* Apply the pending value at the current time: returns 1 when it is an edge. */
static int vcd_flush(struct capture *c, struct vcd *v, struct capture_edge *e)
{
	int lv = v->pend_lv;

	if (!v->pend)
		return 0;
	v->pend = 0;
	switch (capture_logic_step(&v->lg, lv, &e->flags)) {
	case CAPTURE_LOGIC_FIRST:
		if (!v->have_time || v->ticks == v->first_ticks)
			c->info.initial_level = lv;
		return 0;
	case CAPTURE_LOGIC_EDGE:
		e->t_ps = vcd_snap(v, v->t_ps, &e->sample);
		e->level = (uint8_t)lv;
		return 1;
	case CAPTURE_LOGIC_NONE:
		break;
	}
	return 0;
}

static int vcd_next(struct capture *c, struct capture_edge *e)
{
	struct vcd *v = c->priv;
	const char *t;
	size_t l;

	if (v->done)
		return 0;
	while ((t = vcd_token(v, &l))) {
		char k = t[0];

		if (k == '#') {
			uint64_t ticks = 0;
			int64_t ps;
			int edge = 0;

			if (l < 2)
				return capture_err(c, v->line, "'#' without a time");
			for (size_t i = 1; i < l; i++) {
				unsigned d = (unsigned)(t[i] - '0');

				if (d > 9)
					return capture_err(c, v->line, "bad time '%.*s'",
							   (int)(l > 40 ? 40 : l), t);
				if (ticks > (UINT64_MAX - d) / 10)
					return capture_err(c, v->line, "time '%.*s' does not fit in 64 bits",
							   (int)(l > 40 ? 40 : l), t);
				ticks = ticks * 10 + d;
			}
			if (vcd_ticks_ps(v, ticks, &ps))
				return capture_err(c, v->line, "time %.*s is beyond the +-53 days sqwave "
						   "holds", (int)(l > 40 ? 40 : l), t);
			if (v->have_time && ticks < v->ticks)
				return capture_err(c, v->line, "time goes backwards (#%llu after #%llu)",
						   (unsigned long long)ticks,
						   (unsigned long long)v->ticks);
			if (ticks != v->ticks || !v->have_time)
				edge = vcd_flush(c, v, e);
			if (!v->have_time) {
				int64_t smp;

				v->have_time = 1;
				v->first_ticks = ticks;
				c->info.start_ps = vcd_snap(v, ps, &smp);
			}
			v->ticks = ticks;
			v->t_ps = ps;
			v->last_ps = ps;
			if (edge)
				return 1;
		} else if (k == 'b' || k == 'B' || k == 'r' || k == 'R') {
			const char *id;
			size_t il;

			id = vcd_token(v, &il);
			if (!id)
				return capture_err(c, v->line, "value '%.*s' without an identifier (truncated file?)",
						   (int)(l > 40 ? 40 : l), t);
			if (il != v->sel_idlen || memcmp(id, v->sel_id, il) || k == 'r' || k == 'R')
				continue;
			{
				const char *bits = t + 1;
				size_t nb = l - 1;
				int pos = v->sel_bit < 0 ? 0 : v->sel_bit;
				char ch;

				if (!nb)
					return capture_err(c, v->line, "empty vector value");
				if ((size_t)pos < nb)
					ch = bits[nb - 1 - (size_t)pos];
				else
					ch = (bits[0] == 'x' || bits[0] == 'X' || bits[0] == 'z' ||
					      bits[0] == 'Z') ? bits[0] : '0';
				if (!strchr("01xXzZuUwWlLhH-", ch))
					return capture_err(c, v->line, "bad vector value '%.*s'",
							   (int)(l > 40 ? 40 : l), t);
				vcd_value(v, vcd_level(ch));
			}
		} else if (k == '$') {
			if (tok_is(t, l, "$comment")) {
				if (vcd_skip_end(c, v, "$comment"))
					return -1;
			}
			/* $dumpvars/$dumpall/$dumpon/$dumpoff and their $end: the values
			 * inside are ordinary changes ($dumpoff lists x's) */
		} else if (strchr("01xXzZuUwWlLhH-", k) && k) {
			if (l < 2)
				return capture_err(c, v->line, "value '%c' without an identifier", k);
			if (l - 1 != v->sel_idlen || memcmp(t + 1, v->sel_id, l - 1))
				continue;
			vcd_value(v, vcd_level(k));
		} else {
			return capture_err(c, v->line, "unexpected '%.*s' in the value changes",
					   (int)(l > 40 ? 40 : l), t);
		}
	}
	if (vcd_flush(c, v, e))
		return 1;
	v->done = 1;
	if (v->have_time)
		c->info.end_ps = vcd_snap(v, v->last_ps, &(int64_t){ 0 });
	c->info.end_known = 1;
	return 0;
}

/* ---- one pass for automatic channel choice ---- */

static uint32_t id_hash(const char *p, size_t n)
{
	uint32_t h = 2166136261u;   /* FNV-1a */

	while (n--)
		h = (h ^ (unsigned char)*p++) * 16777619u;
	return h;
}

/* Every scalar's value changes in one pass (a 4 MB dump of 20,000 signals
 * used to be read once per silent signal): ids hashed to their variables. */
static int vcd_scan(struct capture *c, signed char *has_edge)
{
	struct vcd *v = c->priv;
	size_t tsize = 16, mask;
	int32_t *table = NULL, *alias = NULL;
	signed char *lvl = NULL;
	const char *p = v->p, *t;
	unsigned long line = v->line;
	unsigned want = 0;
	size_t l;
	int ret = -1;

	for (unsigned k = 0; k < c->n_chans; k++)
		has_edge[k] = 0;
	while (tsize < 2 * (size_t)v->nvars)
		tsize *= 2;
	mask = tsize - 1;
	table = malloc(tsize * sizeof(*table));
	alias = malloc((v->nvars + 1) * sizeof(*alias));
	lvl = malloc(c->n_chans + 1);
	if (!table || !alias || !lvl)
		goto out;
	memset(table, -1, tsize * sizeof(*table));
	memset(lvl, -2, c->n_chans + 1);   /* -2 never known, -1 x/z, else 0/1 */
	for (unsigned i = 0; i < v->nvars; i++) {
		size_t h = id_hash(v->vars[i].id, v->vars[i].idlen) & mask;

		alias[i] = -1;
		for (;; h = (h + 1) & mask) {
			int32_t j = table[h];

			if (j < 0) {
				table[h] = (int32_t)i;
				break;
			}
			if (v->vars[j].idlen == v->vars[i].idlen &&
			    !memcmp(v->vars[j].id, v->vars[i].id, v->vars[i].idlen)) {
				alias[i] = alias[j];   /* same id: a list through alias[] */
				alias[j] = (int32_t)i;
				break;
			}
		}
	}
	while (want < c->n_chans && (c->chans[want].width != 1 || c->chans[want].analog))
		want++;
	v->p = v->data_start;
	v->line = v->data_line;
	while ((t = vcd_token(v, &l))) {
		char k = t[0];
		const char *id;
		size_t il, h;
		int lv;

		if (k == '#')
			continue;
		if (k == 'b' || k == 'B' || k == 'r' || k == 'R') {
			if (!vcd_token(v, &il))
				break;
			continue;   /* vectors and reals are never chosen automatically */
		}
		if (k == '$') {
			if (tok_is(t, l, "$comment") && vcd_skip_end(c, v, "$comment"))
				goto out;
			continue;
		}
		if (l < 2 || !strchr("01xXzZuUwWlLhH-", k))
			continue;   /* next() reports it, with its line */
		id = t + 1;
		il = l - 1;
		lv = vcd_level(k);
		for (h = id_hash(id, il) & mask; table[h] >= 0; h = (h + 1) & mask) {
			int32_t j = table[h];

			if (v->vars[j].idlen != il || memcmp(v->vars[j].id, id, il))
				continue;
			for (; j >= 0; j = alias[j]) {
				unsigned ch = v->vars[j].chan;

				if (lv >= 0 && lvl[ch] >= 0 && lv != lvl[ch])
					has_edge[ch] = 1;
				lvl[ch] = (signed char)lv;
			}
			break;
		}
		if (want < c->n_chans && has_edge[want])
			break;
	}
	ret = 0;
out:
	v->p = p;
	v->line = line;
	free(table);
	free(alias);
	free(lvl);
	return ret;
}

static void vcd_close(struct capture *c)
{
	struct vcd *v = c->priv;

	if (!v)
		return;
	free(v->vars);
	free(v);
	c->priv = NULL;
}

const struct capture_ops capture_vcd_ops = {
	.name = "vcd",
	.probe = vcd_probe,
	.open = vcd_open,
	.select = vcd_select,
	.next = vcd_next,
	.close = vcd_close,
	.scan = vcd_scan,
};
