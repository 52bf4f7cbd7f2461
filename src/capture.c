/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Capture importers' factory: map the file, detect the format by content,
 * select the channel, hand out edges; shared helpers and the analog edge finder. */
#include "capture.h"
#include "capture_private.h"
#include "csvread.h"
#include "print.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* One row per format family; aliases are what users type after --format. */
static const struct capture_format {
	const struct capture_ops *ops;
	const char *aliases;  /* space-separated, the family name first */
} capture_formats[] = {
	{ &capture_sr_ops, "sigrok-sr sr" },
	{ &capture_vcd_ops, "vcd" },
	{ &capture_sigrok_csv_ops, "sigrok-csv sigrok pulseview" },
	{ &capture_saleae_ops, "saleae-csv saleae logic2 logic1 saleae-logic2-csv saleae-logic1-csv" },
	{ &capture_scope_ops, "scope-csv scope rigol siglent keysight agilent tek tektronix "
			      "rigol-ds1000z-csv rigol-mso5000-csv siglent-csv keysight-csv tek-csv tek-tds-csv" },
};

#define N_FORMATS (sizeof(capture_formats) / sizeof(capture_formats[0]))

static _Thread_local char capture_errbuf[512];

const char *capture_last_error(void)
{
	return capture_errbuf;
}

const char *capture_format_names(void)
{
	static char names[512];

	if (!names[0]) {
		for (size_t i = 0; i < N_FORMATS; i++) {
			if (i)
				strcat(names, " ");
			strcat(names, capture_formats[i].aliases);
		}
	}
	return names;
}

static void capture_set_err(const char *path, unsigned long line, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static void capture_set_err(const char *path, unsigned long line, const char *fmt, va_list ap)
{
	int n;

	if (line)
		n = snprintf(capture_errbuf, sizeof(capture_errbuf), "%s:%lu: ", path, line);
	else
		n = snprintf(capture_errbuf, sizeof(capture_errbuf), "%s: ", path);
	if (n < 0 || (size_t)n >= sizeof(capture_errbuf))
		n = 0;
	vsnprintf(capture_errbuf + n, sizeof(capture_errbuf) - (size_t)n, fmt, ap);
	pr_err("%s", capture_errbuf);
}

int capture_err(struct capture *c, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	capture_set_err(c->path, line, fmt, ap);
	va_end(ap);
	errno = EINVAL;
	return -1;
}

static void capture_err_path(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void capture_err_path(const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	capture_set_err(path, 0, fmt, ap);
	va_end(ap);
}

void capture_note(struct capture *c, const char *fmt, ...)
{
	va_list ap;
	char buf[256];
	unsigned i = c->info.n_notes;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* notes are rebuilt on each select(): replace one with the same start */
	for (unsigned k = 0; k < c->info.n_notes; k++) {
		const char *sp = strchr(buf, '=');
		size_t key = sp ? (size_t)(sp - buf) : strlen(buf);

		if (!strncmp(c->notes[k], buf, key)) {
			i = k;
			break;
		}
	}
	if (i >= CAPTURE_MAX_NOTES)
		return;
	free(c->notes[i]);
	c->notes[i] = strdup(buf);
	if (!c->notes[i])
		return;
	c->info.notes[i] = c->notes[i];
	if (i == c->info.n_notes)
		c->info.n_notes++;
}

int capture_add_channel(struct capture *c, const char *name, size_t len)
{
	struct capture_chan *ch;

	if (c->n_chans == c->cap_chans) {
		unsigned cap = c->cap_chans ? c->cap_chans * 2 : 8;
		struct capture_chan *nc;
		const char **nn;

		if (cap > (1u << 20))
			return capture_err(c, 0, "too many channels");
		nc = realloc(c->chans, cap * sizeof(*nc));
		if (!nc)
			return -1;
		c->chans = nc;
		nn = realloc(c->chan_names, cap * sizeof(*nn));
		if (!nn)
			return -1;
		c->chan_names = nn;
		c->cap_chans = cap;
	}
	ch = &c->chans[c->n_chans];
	memset(ch, 0, sizeof(*ch));
	ch->name = strndup(name, len);
	if (!ch->name)
		return -1;
	ch->width = 1;
	c->chan_names[c->n_chans] = ch->name;
	c->info.n_channels = c->n_chans + 1;
	c->info.channel_names = c->chan_names;
	return (int)c->n_chans++;
}

int capture_starts(const char *p, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && strncasecmp(p, prefix, n) == 0;
}

const char *capture_memmem(const char *p, size_t len, const char *needle)
{
	return memmem(p, len, needle, strlen(needle));
}

int capture_parse_rate(const char *s, size_t len, double *hz)
{
	size_t i = 0, j;
	double v, mul = 1;

	while (i < len && isspace((unsigned char)s[i]))
		i++;
	j = i;
	while (j < len && (isdigit((unsigned char)s[j]) || s[j] == '.' || s[j] == 'e' ||
			   s[j] == 'E' || s[j] == '-' || s[j] == '+')) {
		/* "1e" is a number, "1 kHz" is not: stop before a unit letter */
		if ((s[j] == 'e' || s[j] == 'E') && (j + 1 >= len || !(isdigit((unsigned char)s[j + 1]) ||
							      s[j + 1] == '-' || s[j + 1] == '+')))
			break;
		j++;
	}
	if (csv_parse_double(s + i, j - i, '.', &v))
		return -1;
	while (j < len && isspace((unsigned char)s[j]))
		j++;
	if (j < len) {
		switch (s[j]) {
		case 'k': case 'K': mul = 1e3; j++; break;
		case 'M': mul = 1e6; j++; break;
		case 'G': case 'g': mul = 1e9; j++; break;
		case 'H': case 'h': break;
		default: return -1;
		}
		if (j + 2 <= len && strncasecmp(s + j, "hz", 2) == 0)
			j += 2;
		else if (mul == 1)
			return -1;
	}
	while (j < len && isspace((unsigned char)s[j]))
		j++;
	if (j != len || !(v > 0) || !isfinite(v))
		return -1;
	*hz = v * mul;
	return 0;
}

/*
 * 64x64-bit products divided by 64 bits exactly, for 32-bit targets too
 * (armhf has no __int128): round half away from zero; the quotient must fit.
 */
int64_t capture_muldiv_round(int64_t a, int64_t b, int64_t c)
{
#if defined(__SIZEOF_INT128__) && !defined(SQW_NO_INT128)
	__int128 num = (__int128)a * b;
	__int128 q = num / c, rem = num % c;

	if (rem < 0)
		rem = -rem;
	if (2 * rem >= c)
		q += num < 0 ? -1 : 1;
	return (int64_t)q;
#else
	int neg = (a < 0) != (b < 0);
	uint64_t ua = a < 0 ? -(uint64_t)a : (uint64_t)a;
	uint64_t ub = b < 0 ? -(uint64_t)b : (uint64_t)b;
	uint64_t uc = (uint64_t)c;
	uint64_t a_lo = ua & 0xffffffffu, a_hi = ua >> 32;
	uint64_t b_lo = ub & 0xffffffffu, b_hi = ub >> 32;
	uint64_t p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
	uint64_t mid = (p0 >> 32) + (p1 & 0xffffffffu) + (p2 & 0xffffffffu);
	uint64_t lo = (p0 & 0xffffffffu) | (mid << 32);
	uint64_t hi = p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
	uint64_t q = 0, r = 0;
	int i;

	/* Long division of hi:lo by uc, one bit at a time. */
	for (i = 127; i >= 0; i--) {
		uint64_t bit = i >= 64 ? (hi >> (i - 64)) & 1u : (lo >> i) & 1u;
		int carry = (int)(r >> 63);

		r = (r << 1) | bit;
		q <<= 1;
		if (carry || r >= uc) {
			r -= uc;
			q |= 1u;
		}
	}
	if (r >= uc - r)
		q++;
	return neg ? -(int64_t)q : (int64_t)q;
#endif
}

int64_t capture_sample_fs(int64_t n, double rate_hz)
{
	if (rate_hz == floor(rate_hz) && rate_hz >= 1 && rate_hz <= 1e15) {
		return capture_muldiv_round(n, CAPTURE_FS_PER_S, (int64_t)rate_hz);
	}
	return (int64_t)llroundl((long double)n * (long double)CAPTURE_FS_PER_S / (long double)rate_hz);
}

int capture_mul_fs(int64_t a, int64_t b, int64_t *out)
{
	return __builtin_mul_overflow(a, b, out) ? -1 : 0;
}

/* ---- analog edge finder ------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static size_t lower_bound(const double *v, size_t n, double x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (v[m] < x)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

void capture_levels_find(double *v, size_t n, struct capture_levels *lv)
{
	double p1, p99, mid;
	size_t k = 0;

	memset(lv, 0, sizeof(*lv));
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_double);
	p1 = v[n / 100];
	p99 = v[n - 1 - n / 100];
	lv->low = lv->high = v[n / 2];
	if (!(p99 > p1))
		return;
	/* Two clusters split at the midpoint of their medians: robust to
	 * overshoot, ringing and spikes, whatever the duty cycle. */
	mid = (p1 + p99) / 2;
	for (int it = 0; it < 8; it++) {
		double nm;

		k = lower_bound(v, n, mid);
		if (k == 0 || k == n)
			return;
		lv->low = v[k / 2];
		lv->high = v[k + (n - k) / 2];
		nm = (lv->low + lv->high) / 2;
		if (nm == mid)
			break;
		mid = nm;
	}
	{
		/* spread of each cluster: median absolute deviation (robust to
		 * the samples on the edges themselves) */
		double *dev = malloc(n * sizeof(*dev));
		double sig = 0;
		size_t min_n = n / 2000 + 1;

		if (dev) {
			for (size_t i = 0; i < k; i++)
				dev[i] = fabs(v[i] - lv->low);
			qsort(dev, k, sizeof(*dev), cmp_double);
			sig = dev[k / 2];
			for (size_t i = k; i < n; i++)
				dev[i - k] = fabs(v[i] - lv->high);
			qsort(dev, n - k, sizeof(*dev), cmp_double);
			if (dev[(n - k) / 2] > sig)
				sig = dev[(n - k) / 2];
			free(dev);
			sig *= 1.4826;
		}
		/* quantized noise has no spread to speak of: also ask for a
		 * separation of several ADC steps, the step being the finest one
		 * inside the middle half of either cluster */
		double lsb = INFINITY;
		size_t qa[2] = { k / 4, k + (n - k) / 4 }, qb[2] = { (k * 3) / 4, k + ((n - k) * 3) / 4 };

		for (int cl = 0; cl < 2; cl++) {
			for (size_t i = qa[cl] + 1; i <= qb[cl] && i < n; i++) {
				double d = v[i] - v[i - 1];

				if (d > 0 && d < lsb)
					lsb = d;
			}
		}
		lv->bimodal = lv->high > lv->low && k >= min_n && n - k >= min_n &&
			      lv->high - lv->low > 4 * sig &&
			      (isinf(lsb) || lv->high - lv->low >= 4 * lsb);
	}
}

void capture_analog_init(struct capture_analog *a, double thr, double hyst)
{
	memset(a, 0, sizeof(*a));
	a->thr = thr;
	a->lo = thr - hyst / 2;
	a->hi = thr + hyst / 2;
	a->state = -1;
}

int capture_analog_feed(struct capture_analog *a, int64_t i, double v, double *x, int *level)
{
	if (isnan(v)) {
		a->have_prev = 0;
		return 0;
	}
	if (a->state < 0) {
		a->state = v >= a->thr;
		a->prev_v = v;
		a->have_prev = 1;
		a->cross_x = (double)i;
		return 0;
	}
	if (a->state == 0) {
		if (v >= a->thr && (!a->have_prev || a->prev_v < a->thr))
			a->cross_x = a->have_prev ? (double)(i - 1) + (a->thr - a->prev_v) / (v - a->prev_v)
						  : (double)i;
		a->prev_v = v;
		a->have_prev = 1;
		if (v > a->hi) {
			a->state = 1;
			*x = a->cross_x;
			*level = 1;
			return 1;
		}
	} else {
		if (v < a->thr && (!a->have_prev || a->prev_v >= a->thr))
			a->cross_x = a->have_prev ? (double)(i - 1) + (a->prev_v - a->thr) / (a->prev_v - v)
						  : (double)i;
		a->prev_v = v;
		a->have_prev = 1;
		if (v < a->lo) {
			a->state = 0;
			*x = a->cross_x;
			*level = 0;
			return 1;
		}
	}
	return 0;
}

void capture_analog_setup(struct capture *c, const struct capture_levels *lv,
			  struct capture_analog *a)
{
	double thr = c->opts.threshold_set || c->opts.threshold != 0 ? c->opts.threshold
								     : (lv->low + lv->high) / 2;
	double hyst = c->opts.hysteresis > 0 ? c->opts.hysteresis : 0.1 * (lv->high - lv->low);

	capture_analog_init(a, thr, hyst);
	c->info.analog = 1;
	c->info.low = lv->low;
	c->info.high = lv->high;
	c->info.threshold = thr;
	c->info.hysteresis = hyst;
	capture_note(c, "threshold=%.6g V hysteresis=%.6g V (levels %.6g V and %.6g V%s)",
		     thr, hyst, lv->low, lv->high, lv->bimodal ? "" : ": one level only, no edges");
}

/* ---- factory ----------------------------------------------------------- */

static void capture_free(struct capture *c)
{
	if (!c)
		return;
	if (c->ops && c->ops->close)
		c->ops->close(c);
	for (unsigned i = 0; i < c->n_chans; i++)
		free(c->chans[i].name);
	for (unsigned i = 0; i < CAPTURE_MAX_NOTES; i++)
		free(c->notes[i]);
	free(c->chans);
	free(c->chan_names);
	free(c->sel_name);
	if (c->map)
		munmap(c->map, c->map_len);
	free(c->heap);
	free(c->path);
	free(c);
}

void capture_close(struct capture *c)
{
	capture_free(c);
}

static const struct capture_ops *capture_find_format(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < N_FORMATS; i++) {
		const char *a = capture_formats[i].aliases;

		while (*a) {
			size_t l = strcspn(a, " ");

			if (l == n && !strncasecmp(a, name, n))
				return capture_formats[i].ops;
			a += l;
			while (*a == ' ')
				a++;
		}
	}
	return NULL;
}

static char *chan_list(const struct capture *c, char *buf, size_t size)
{
	size_t off = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < c->n_chans && off + 1 < size; i++) {
		int n = snprintf(buf + off, size - off, "%s%s", i ? ", " : "", c->chans[i].name);

		if (n < 0)
			break;
		off += (size_t)n;
	}
	if (off >= size && size > 4)
		strcpy(buf + size - 4, "...");
	return buf;
}

/* Name without a trailing "[...]" range. */
static size_t base_len(const char *name)
{
	size_t n = strlen(name);

	if (n && name[n - 1] == ']') {
		const char *b = strrchr(name, '[');

		if (b)
			return (size_t)(b - name);
	}
	return n;
}

/* @sel names @name exactly, or is a '.'-separated suffix of it. */
static int name_match(const char *name, size_t nlen, const char *sel, size_t slen, int *exact)
{
	*exact = 0;
	if (nlen == slen && !strncasecmp(name, sel, slen)) {
		*exact = 1;
		return 1;
	}
	if (nlen > slen && name[nlen - slen - 1] == '.' && !strncasecmp(name + nlen - slen, sel, slen))
		return 1;
	return 0;
}

/* Lower-case alphanumerics only: "Channel 0" == "channel_0" == "CHANNEL0". */
static void loose(const char *s, size_t n, char *out, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < size; i++)
		if (isalnum((unsigned char)s[i]))
			out[o++] = (char)tolower((unsigned char)s[i]);
	out[o] = 0;
}

/* The number a channel name ends in, if it is a name like D6, CH1, Channel 0 or 1. */
static long trailing_number(const char *name)
{
	size_t n = base_len(name), i = n;

	while (i > 0 && isdigit((unsigned char)name[i - 1]))
		i--;
	if (i == n || n - i > 9)
		return -1;
	return strtol(name + i, NULL, 10);
}

static int capture_pick(struct capture *c, const char *sel, unsigned *ch, int *bit)
{
	size_t slen = strlen(sel), sblen = slen;
	long want_bit = -1, num = -1;
	int hits = 0, ex, exact_hit = -1;
	unsigned hit = 0;
	char list[400], a[128], b[128];

	*bit = -1;
	/* 1. exact or suffix name */
	for (unsigned i = 0; i < c->n_chans; i++) {
		const char *nm = c->chans[i].name;

		if (name_match(nm, strlen(nm), sel, slen, &ex) ||
		    (c->chans[i].width > 1 && name_match(nm, base_len(nm), sel, slen, &ex))) {
			if (ex) {
				exact_hit = (int)i;
				break;
			}
			hits++;
			hit = i;
		}
	}
	if (exact_hit >= 0) {
		*ch = (unsigned)exact_hit;
		hits = 1;
	} else if (hits == 1) {
		*ch = hit;
	} else if (hits > 1) {
		return capture_err(c, 0, "channel '%s' is ambiguous; channels: %s", sel,
				   chan_list(c, list, sizeof(list)));
	}
	/* 2. a vector bit: "state[2]" */
	if (!hits && slen > 2 && sel[slen - 1] == ']' && strrchr(sel, '[')) {
		const char *lb = strrchr(sel, '[');
		char *endp;

		want_bit = strtol(lb + 1, &endp, 10);
		if (endp != sel + slen - 1 || want_bit < 0)
			want_bit = -1;
		else
			sblen = (size_t)(lb - sel);
		for (unsigned i = 0; want_bit >= 0 && i < c->n_chans; i++) {
			const char *nm = c->chans[i].name;

			if (c->chans[i].width > 1 && name_match(nm, base_len(nm), sel, sblen, &ex)) {
				if (ex) {
					exact_hit = (int)i;
					break;
				}
				hits++;
				hit = i;
			}
		}
		if (exact_hit >= 0) {
			hits = 1;
			hit = (unsigned)exact_hit;
		}
		if (hits > 1)
			return capture_err(c, 0, "channel '%s' is ambiguous; channels: %s", sel,
					   chan_list(c, list, sizeof(list)));
		if (hits == 1) {
			struct capture_chan *v = &c->chans[hit];
			long lo = v->msb < v->lsb ? v->msb : v->lsb;
			long hi = v->msb < v->lsb ? v->lsb : v->msb;

			if (v->msb == v->lsb && v->width > 1) {
				lo = 0;
				hi = (long)v->width - 1;
			}
			if (want_bit < lo || want_bit > hi)
				return capture_err(c, 0, "channel '%s': bit %ld is outside %s", sel,
						   want_bit, v->name);
			*ch = hit;
			*bit = (int)labs(want_bit - (v->msb == v->lsb && v->width > 1 ? 0 : v->lsb));
			return 0;
		}
	}
	/* 3. loose spelling: "channel0" for "Channel 0" */
	if (!hits) {
		loose(sel, slen, a, sizeof(a));
		for (unsigned i = 0; a[0] && i < c->n_chans; i++) {
			loose(c->chans[i].name, strlen(c->chans[i].name), b, sizeof(b));
			if (!strcmp(a, b)) {
				hits++;
				hit = i;
			}
		}
		if (hits == 1)
			*ch = hit;
		else if (hits > 1)
			return capture_err(c, 0, "channel '%s' is ambiguous; channels: %s", sel,
					   chan_list(c, list, sizeof(list)));
	}
	/* 4. a number: the channel whose name ends in it, else the index */
	if (!hits && slen && strspn(sel, "0123456789") == slen && slen < 10) {
		num = strtol(sel, NULL, 10);
		for (unsigned i = 0; i < c->n_chans; i++) {
			if (trailing_number(c->chans[i].name) == num) {
				hits++;
				hit = i;
			}
		}
		if (hits > 1)
			return capture_err(c, 0, "channel '%s' is ambiguous; channels: %s", sel,
					   chan_list(c, list, sizeof(list)));
		if (hits == 1)
			*ch = hit;
		else if (num < (long)c->n_chans) {
			*ch = (unsigned)num;
			hits = 1;
		}
	}
	if (!hits)
		return capture_err(c, 0, "no channel '%s'; channels: %s", sel,
				   chan_list(c, list, sizeof(list)));
	if (c->chans[*ch].width > 1)
		return capture_err(c, 0, "channel '%s' is a %u-bit vector; choose a bit, e.g. %.*s[0]",
				   c->chans[*ch].name, c->chans[*ch].width,
				   (int)base_len(c->chans[*ch].name), c->chans[*ch].name);
	return 0;
}

static int capture_select(struct capture *c, unsigned ch, int bit)
{
	int r;

	c->failed = 0;
	c->peek_state = 0;
	r = c->ops->select(c, ch, bit);
	c->selected = (int)ch;
	c->selected_bit = bit;
	return r;
}

static int capture_prime(struct capture *c);

static int capture_choose(struct capture *c)
{
	struct capture_edge e;
	unsigned ch = 0;
	int bit = -1, r;
	const char *reason;

	if (c->opts.channel && c->opts.channel[0]) {
		if (capture_pick(c, c->opts.channel, &ch, &bit))
			return -1;
		reason = "selected by --channel";
	} else if (c->n_chans == 1) {
		if (c->chans[0].width > 1)
			return capture_pick(c, c->chans[0].name, &ch, &bit);
		reason = "the only channel";
	} else {
		int found = -1, first = -1;

		for (unsigned i = 0; i < c->n_chans && found < 0; i++) {
			if (c->chans[i].width > 1)
				continue;
			if (first < 0)
				first = (int)i;
			r = capture_select(c, i, -1);
			if (r < 0)
				return -1;
			if (r == 0)
				continue;
			r = c->ops->next(c, &e);
			if (r < 0)
				return -1;
			if (r == 1)
				found = (int)i;
		}
		if (found >= 0) {
			ch = (unsigned)found;
			reason = "first channel with edges";
		} else {
			if (first < 0)
				return capture_err(c, 0, "no single-bit channel; choose a vector bit, e.g. %.*s[0]",
						   (int)base_len(c->chans[0].name), c->chans[0].name);
			ch = (unsigned)first;
			reason = "no channel has edges; using the first";
		}
	}
	if (capture_select(c, ch, bit) < 0)
		return -1;
	free(c->sel_name);
	if (bit >= 0) {
		struct capture_chan *v = &c->chans[ch];
		int idx = (v->msb == v->lsb) ? bit : (v->msb >= v->lsb ? v->lsb + bit : v->lsb - bit);
		size_t n = base_len(v->name);

		if (asprintf(&c->sel_name, "%.*s[%d]", (int)n, v->name, idx) < 0)
			c->sel_name = NULL;
	} else {
		c->sel_name = strdup(c->chans[ch].name);
	}
	if (!c->sel_name)
		return -1;
	c->info.channel = ch;
	c->info.channel_name = c->sel_name;
	c->info.channel_reason = reason;
	return capture_prime(c);
}

static struct capture *capture_open_common(struct capture *c, const struct capture_opts *opts)
{
	const struct capture_ops *ops = NULL;

	if (opts)
		c->opts = *opts;
	c->info.path = c->path;
	c->info.initial_level = -1;
	if (c->opts.format && c->opts.format[0]) {
		ops = capture_find_format(c->opts.format);
		if (!ops) {
			capture_err(c, 0, "unknown capture format '%s'; known: %s", c->opts.format,
				    capture_format_names());
			goto fail;
		}
	} else {
		int best = 0;

		if (!c->len) {
			capture_err(c, 0, "empty file");
			goto fail;
		}
		for (size_t i = 0; i < N_FORMATS; i++) {
			int s = capture_formats[i].ops->probe(c->data, c->len, c->path);

			if (s > best) {
				best = s;
				ops = capture_formats[i].ops;
			}
		}
		if (!ops) {
			capture_err(c, 0, "not a capture format sqwave reads (sigrok CSV/VCD/.sr, "
				    "Saleae CSV, Rigol/Siglent/Keysight/Tektronix CSV)");
			goto fail;
		}
	}
	c->ops = ops;
	c->info.format = ops->name;
	if (ops->open(c))
		goto fail;
	if (!c->n_chans) {
		capture_err(c, 0, "no channels in this %s file", c->info.format);
		goto fail;
	}
	if (capture_choose(c))
		goto fail;
	return c;
fail:
	{
		int err = errno ? errno : EINVAL;

		capture_free(c);
		errno = err;
	}
	return NULL;
}

struct capture *capture_open_mem(const void *data, size_t len, const char *name,
				 const struct capture_opts *opts)
{
	struct capture *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->path = strdup(name ? name : "<memory>");
	if (!c->path) {
		free(c);
		return NULL;
	}
	c->data = len ? data : "";
	c->len = len;
	return capture_open_common(c, opts);
}

struct capture *capture_open(const char *path, const struct capture_opts *opts)
{
	struct capture *c;
	struct stat st;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		capture_err_path(path, "cannot open: %s", strerror(err));
		errno = err;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c || !(c->path = strdup(path)) || fstat(fd, &st)) {
		err = errno;
		close(fd);
		free(c);
		capture_err_path(path, "cannot open: %s", strerror(err));
		errno = err;
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		capture_err(c, 0, "is a directory");
		capture_free(c);
		errno = EISDIR;
		return NULL;
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		c->map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (c->map == MAP_FAILED) {
			err = errno;
			c->map = NULL;
			close(fd);
			capture_err(c, 0, "cannot map: %s", strerror(err));
			capture_free(c);
			errno = err;
			return NULL;
		}
		c->map_len = (size_t)st.st_size;
		madvise(c->map, c->map_len, MADV_SEQUENTIAL | MADV_WILLNEED);
		c->data = c->map;
		c->len = c->map_len;
	} else {
		/* a pipe or a character device: read it all */
		size_t cap = 1 << 16, n = 0;
		ssize_t r;

		c->heap = malloc(cap);
		while (c->heap) {
			if (n == cap) {
				char *nh = realloc(c->heap, cap *= 2);

				if (!nh)
					break;
				c->heap = nh;
			}
			r = read(fd, c->heap + n, cap - n);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			n += (size_t)r;
		}
		if (!c->heap) {
			close(fd);
			capture_free(c);
			errno = ENOMEM;
			return NULL;
		}
		c->data = c->heap;
		c->len = n;
	}
	close(fd);
	return capture_open_common(c, opts);
}

/* Read the first edge ahead, so that what the importer learns on the way
 * (initial level, VCD start time) is in the info when open returns. */
static int capture_prime(struct capture *c)
{
	int r = c->ops->next(c, &c->peek);

	if (r < 0) {
		c->failed = 1;
		return -1;
	}
	c->peek_state = r == 1 ? 1 : 2;
	return 0;
}

int capture_next_edge(struct capture *c, struct capture_edge *e)
{
	int r;

	if (c->failed)
		return -1;
	if (c->peek_state) {
		r = c->peek_state == 1;
		if (r)
			*e = c->peek;
		c->peek_state = 0;
		return r;
	}
	r = c->ops->next(c, e);
	if (r < 0)
		c->failed = 1;
	return r;
}

int capture_rewind(struct capture *c)
{
	if (capture_select(c, (unsigned)c->selected, c->selected_bit) < 0)
		return -1;
	return capture_prime(c);
}

const struct capture_info *capture_info(const struct capture *c)
{
	return &c->info;
}
