/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Capture importers' factory: map the file, detect the format by content,
 * select the channel, hand out edges; shared helpers and the analog edge finder. */
#include "capture/capture.h"
#include "capture/capture_private.h"
#include "base/csvread.h"
#include "base/spool.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
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
	{ &capture_foreign_ops, "analyzer-csv dsview waveforms digilent scanastudio ikalogic "
				"dsview-csv waveforms-csv scanastudio-csv" },
};

#define N_FORMATS (sizeof(capture_formats) / sizeof(capture_formats[0]))

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

static void capture_set_err(char *buf, size_t size, const char *path, unsigned long line,
			    const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

static void capture_set_err(char *buf, size_t size, const char *path, unsigned long line,
			    const char *fmt, va_list ap)
{
	int n;

	if (!size)
		return;
	if (line)
		n = snprintf(buf, size, "%s:%lu: ", path, line);
	else
		n = snprintf(buf, size, "%s: ", path);
	if (n < 0 || (size_t)n >= size)
		n = 0;
	vsnprintf(buf + n, size - (size_t)n, fmt, ap);
}

int capture_err(struct capture *c, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	capture_set_err(c->errbuf, sizeof(c->errbuf), c->path, line, fmt, ap);
	va_end(ap);
	errno = EINVAL;
	return -1;
}

static void err_path(char *err, size_t errlen, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void err_path(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	capture_set_err(err, errlen, path, 0, fmt, ap);
	va_end(ap);
}

const char *capture_error(const struct capture *c)
{
	return c->errbuf;
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
			return capture_err(c, 0, "more than %u channels", 1u << 20);
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

/* ---- rates and times --------------------------------------------------- */

int capture_samplerate_parse(const char *opt, const char *s, double *hz, char *err,
			     size_t errlen)
{
	if (capture_parse_rate(s, strlen(s), hz) == 0)
		return 0;
	snprintf(err, errlen, "%s '%s': a positive rate in Hz, or with k, M or G "
		 "(1GHz, 256 kHz, 1e6)", opt, s);
	return -1;
}

int capture_parse_rate(const char *s, size_t len, double *hz)
{
	size_t i = 0, j, num_end;
	int64_t mul = 1, nano;
	double v;

	while (i < len && isspace((unsigned char)s[i]))
		i++;
	while (len > i && isspace((unsigned char)s[len - 1]))
		len--;
	j = i;
	while (j < len && (isdigit((unsigned char)s[j]) || s[j] == '.' || s[j] == '+' ||
			   ((s[j] == 'e' || s[j] == 'E') && j + 1 < len &&
			    (isdigit((unsigned char)s[j + 1]) || s[j + 1] == '-' || s[j + 1] == '+')) ||
			   (s[j] == '-' && j > i && (s[j - 1] == 'e' || s[j - 1] == 'E'))))
		j++;
	if (j == i || csv_parse_double(s + i, j - i, '.', &v))
		return -1;
	num_end = j;
	while (j < len && s[j] == ' ')
		j++;
	if (j < len) {
		switch (s[j]) {
		case 'k': case 'K': mul = 1000; j++; break;
		case 'm': case 'M': mul = 1000000; j++; break;  /* "2 mHz" is 2 MHz to sigrok */
		case 'g': case 'G': mul = 1000000000; j++; break;
		case 't': case 'T': mul = 1000000000000; j++; break;
		default: break;
		}
		if (j + 2 == len && strncasecmp(s + j, "hz", 2) == 0)
			j += 2;
	}
	if (j != len || !(v > 0) || !isfinite(v))
		return -1;
	if (mul > 1) {
		/* sigrok keeps whole Hz: truncate, from the exact decimal */
		if (!csv_parse_scaled(s + i, num_end - i, '.', 9, &nano) && nano > 0 &&
		    nano <= INT64_MAX / mul) {
			*hz = (double)(nano * mul / 1000000000);
		} else {
			*hz = floor(v * (double)mul);
		}
		return *hz > 0 ? 0 : -1;
	}
	*hz = v;
	return 0;
}

/* Magnitudes: |a| as unsigned, without overflow for INT64_MIN. */
static uint64_t uabs64(int64_t a)
{
	return a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
}

static int64_t sat_signed(uint64_t q, int neg)
{
	if (q > (uint64_t)INT64_MAX)
		return neg ? -INT64_MAX : INT64_MAX;
	return neg ? -(int64_t)q : (int64_t)q;
}

/*
 * 64x64-bit products divided by 64 bits exactly, with 32-bit halves and a
 * bitwise long division: the same code on every target (armhf has no
 * __int128). Rounds half away from zero; saturates when the quotient does
 * not fit.
 */
int64_t capture_muldiv_round(int64_t a, int64_t b, int64_t c)
{
	int neg = (a < 0) != (b < 0);
	uint64_t ua = uabs64(a), ub = uabs64(b), uc = (uint64_t)c;
	uint64_t a_lo = ua & 0xffffffffu, a_hi = ua >> 32;
	uint64_t b_lo = ub & 0xffffffffu, b_hi = ub >> 32;
	uint64_t p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
	uint64_t mid = (p0 >> 32) + (p1 & 0xffffffffu) + (p2 & 0xffffffffu);
	uint64_t lo = (p0 & 0xffffffffu) | (mid << 32);
	uint64_t hi = p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
	uint64_t q = 0, r = 0;
	int i;

	if (c <= 0)
		return 0;
	if (hi >= uc)
		return neg ? -INT64_MAX : INT64_MAX;  /* the quotient needs > 64 bits */
	if (!hi) {
		q = lo / uc;
		r = lo % uc;
	} else {
		/* long division of hi:lo by uc, one bit at a time */
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
	}
	if (r >= uc - r) {
		if (q == UINT64_MAX)
			return neg ? -INT64_MAX : INT64_MAX;
		q++;
	}
	return sat_signed(q, neg);
}

/* n * 1e12 / rate for an integer rate <= 2^31: n = q rate + r splits it
 * into products that fit 64 bits (the common case: one division). */
static int64_t sample_ps_small_rate(int64_t n, int64_t rate)
{
	uint64_t un = uabs64(n), ur = (uint64_t)rate, q = un / ur, rem = un % ur;
	uint64_t A = (uint64_t)CAPTURE_PS_PER_S / ur, B = (uint64_t)CAPTURE_PS_PER_S % ur;
	uint64_t frac = (2 * rem * B + ur) / (2 * ur); /* rem*B/rate rounded half up */
	uint64_t t;

	if (q > (uint64_t)INT64_MAX / (uint64_t)CAPTURE_PS_PER_S)
		return n < 0 ? -INT64_MAX : INT64_MAX;
	t = q * (uint64_t)CAPTURE_PS_PER_S + rem * A + frac;
	return sat_signed(t, n < 0);
}

int64_t capture_sample_ps(int64_t n, double rate_hz)
{
	double scaled = rate_hz;
	int64_t mul = 1;

	if (!(rate_hz > 0) || !isfinite(rate_hz))
		return n < 0 ? -INT64_MAX : INT64_MAX;
	/* integer rates (what sigrok writes), or rates with a few decimals as a
	 * user types them: exact through an integer ratio */
	for (int k = 0; k <= 6; k++) {
		if (scaled == floor(scaled) && scaled <= 9e15) {
			int64_t r = (int64_t)scaled;

			if (mul == 1 && r <= (INT64_C(1) << 31))
				return sample_ps_small_rate(n, r);
			return capture_muldiv_round(n, CAPTURE_PS_PER_S * mul, r);
		}
		scaled *= 10;
		mul *= 10;
		if (fabs(scaled - nearbyint(scaled)) < 1e-9 * scaled)
			scaled = nearbyint(scaled);
	}
	return capture_ld_to_ps((long double)n * (long double)CAPTURE_PS_PER_S / (long double)rate_hz);
}

int capture_mul_ps(int64_t a, int64_t b, int64_t *out)
{
	return __builtin_mul_overflow(a, b, out) ? -1 : 0;
}

int64_t capture_ld_to_ps(long double ps)
{
	if (isnan(ps))
		return INT64_MAX;
	if (ps >= 9.2e18L)
		return INT64_MAX;
	if (ps <= -9.2e18L)
		return -INT64_MAX;
	return (int64_t)llroundl(ps);
}

int capture_analog_setup(struct capture *c, const struct capture_levels *lv,
			 struct capture_analog *a)
{
	int user = c->opts.threshold_set || c->opts.threshold != 0;
	double thr = user ? c->opts.threshold : (lv->low + lv->high) / 2;
	double hyst = c->opts.hysteresis > 0 ? c->opts.hysteresis
			: lv->digital ? 0 : 0.1 * (lv->high - lv->low);
	/* 0/1 data keeps its exact sample edges unless the user moves the
	 * threshold off the logic midpoint */
	int digital = lv->digital && (!user || (thr > 0 && thr <= 1)) && !(c->opts.hysteresis > 0);

	capture_analog_init(a, thr, hyst, digital);
	c->info.analog = !digital;
	c->info.low = lv->low;
	c->info.high = lv->high;
	c->info.threshold = thr;
	c->info.hysteresis = hyst;
	if (digital)
		capture_note(c, "threshold=0/1 logic data: edges at the first sample of each level%s",
			     lv->bimodal ? "" : " (one level only, no edges)");
	else
		capture_note(c, "threshold=%.6g V hysteresis=%.6g V (levels %.6g V and %.6g V%s)",
			     thr, hyst, lv->low, lv->high,
			     !lv->bimodal ? ": one level only, no edges"
			     : lv->rare ? "; the second level is rare, found from the extremes" : "");
	return lv->bimodal || user;
}

void capture_set_edge_window(struct capture *c, int64_t dt_ps, int analog)
{
	if (dt_ps < 1)
		dt_ps = 1;
	c->info.edge_lo_ps = -dt_ps;
	c->info.edge_hi_ps = analog ? dt_ps : 0;
}

/* ---- factory ----------------------------------------------------------- */

/* ---- mapped files and SIGBUS ------------------------------------------
 *
 * A mapped file that someone truncates while sqwave reads it raises SIGBUS
 * on the first access past the new end. The handler below maps zero pages
 * over the rest of the mapping and marks it; the importer reads zeros (no
 * crash), and the factory turns the mark into an error ("changed while being
 * read") at the next call. Addresses outside every guarded mapping keep the
 * default action. */

#define GUARD_SLOTS 16

static struct guard {
	char *_Atomic base;
	_Atomic size_t len;
	volatile sig_atomic_t hit;
} guards[GUARD_SLOTS];

static struct sigaction guard_old;
static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;

static void guard_sigbus(int sig, siginfo_t *si, void *uc)
{
	char *addr = si->si_addr;
	long page = sysconf(_SC_PAGESIZE);

	for (int i = 0; i < GUARD_SLOTS; i++) {
		char *base = atomic_load(&guards[i].base);
		size_t len = atomic_load(&guards[i].len);

		if (base && addr >= base && addr < base + len) {
			char *from = (char *)((uintptr_t)addr & ~(uintptr_t)(page - 1));

			if (from < base)
				from = base;
			if (mmap(from, (size_t)(base + len - from), PROT_READ,
				 MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED) {
				guards[i].hit = 1;
				return;
			}
			break;
		}
	}
	/* not ours: what would have happened without us */
	if ((guard_old.sa_flags & SA_SIGINFO) && guard_old.sa_sigaction) {
		guard_old.sa_sigaction(sig, si, uc);
		return;
	}
	if (guard_old.sa_handler != SIG_DFL && guard_old.sa_handler != SIG_IGN && guard_old.sa_handler) {
		guard_old.sa_handler(sig);
		return;
	}
	signal(SIGBUS, SIG_DFL);  /* the access repeats and ends the process */
}

/* (Re)install the handler if someone replaced it since (a test harness, a
 * library): the previous one is chained for addresses that are not ours. */
static int guard_install(void)
{
	struct sigaction sa, cur;
	int ok = 0;

	pthread_mutex_lock(&guard_lock);
	if (sigaction(SIGBUS, NULL, &cur) == 0) {
		if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == guard_sigbus) {
			ok = 1;
		} else {
			memset(&sa, 0, sizeof(sa));
			sa.sa_sigaction = guard_sigbus;
			sa.sa_flags = SA_SIGINFO | SA_NODEFER;
			sigemptyset(&sa.sa_mask);
			ok = sigaction(SIGBUS, &sa, &guard_old) == 0;
		}
	}
	pthread_mutex_unlock(&guard_lock);
	return ok;
}

static int guard_add(void *base, size_t len)
{
	if (!guard_install())
		return -1;
	for (int i = 0; i < GUARD_SLOTS; i++) {
		char *expect = NULL;

		if (atomic_load(&guards[i].base))
			continue;
		atomic_store(&guards[i].len, len);
		guards[i].hit = 0;
		if (atomic_compare_exchange_strong(&guards[i].base, &expect, (char *)base))
			return i;
	}
	return -1;
}

static void guard_remove(int i)
{
	if (i < 0)
		return;
	atomic_store(&guards[i].base, NULL);
	atomic_store(&guards[i].len, 0);
}

/* The mapping under @c was cut short: record the error once. */
static int guard_tripped(struct capture *c)
{
	if (c->guard < 0 || !guards[c->guard].hit)
		return 0;
	if (!c->failed) {
		c->failed = 1;
		capture_err(c, 0, "the file changed (was truncated) while being read");
		errno = EIO;
	}
	return 1;
}

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
	if (c->map) {
		munmap(c->map, c->map_len);
		guard_remove(c->guard);
	}
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

/* The channels @sel (@slen bytes) names, exactly or as a '.'-separated
 * suffix, of a vector by its base name too ("state" for "state[7:0]");
 * @vectors: a vector's base name only. 1 with *@hit the exact one, else
 * how many it names as a suffix, *@hit the last of them. */
static int chan_by_name(const struct capture *c, const char *sel, size_t slen, int vectors,
			unsigned *hit)
{
	int hits = 0, ex;

	for (unsigned i = 0; i < c->n_chans; i++) {
		const char *nm = c->chans[i].name;

		if ((!vectors && name_match(nm, strlen(nm), sel, slen, &ex)) ||
		    (c->chans[i].width > 1 && name_match(nm, base_len(nm), sel, slen, &ex))) {
			if (ex) {
				*hit = i;
				return 1;
			}
			hits++;
			*hit = i;
		}
	}
	return hits;
}

/* @sel names several channels: -1, and the message lists them. */
static int ambiguous(struct capture *c, const char *sel)
{
	char list[400];

	return capture_err(c, 0, "channel '%s' is ambiguous; channels: %s", sel,
			   chan_list(c, list, sizeof(list)));
}

static int capture_pick(struct capture *c, const char *sel, unsigned *ch, int *bit)
{
	size_t slen = strlen(sel), sblen = slen;
	long want_bit = -1, num = -1;
	int hits;
	unsigned hit = 0;
	char list[400], a[128], b[128];

	*bit = -1;
	/* 1. exact or suffix name */
	hits = chan_by_name(c, sel, slen, 0, &hit);
	if (hits == 1)
		*ch = hit;
	else if (hits > 1)
		return ambiguous(c, sel);
	/* 2. a vector bit: "state[2]" */
	if (!hits && slen > 2 && sel[slen - 1] == ']' && strrchr(sel, '[')) {
		const char *lb = strrchr(sel, '[');
		char *endp;

		want_bit = strtol(lb + 1, &endp, 10);
		if (endp != sel + slen - 1 || want_bit < 0)
			want_bit = -1;
		else
			sblen = (size_t)(lb - sel);
		if (want_bit >= 0)
			hits = chan_by_name(c, sel, sblen, 1, &hit);
		if (hits > 1)
			return ambiguous(c, sel);
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
			return ambiguous(c, sel);
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
			return ambiguous(c, sel);
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
	c->have_last = 0;
	r = c->ops->select(c, ch, bit);
	c->selected = (int)ch;
	c->selected_bit = bit;
	if (guard_tripped(c))
		return -1;
	return r;
}

static int capture_prime(struct capture *c);

/* Can automatic choice take channel @i? */
static int choosable(const struct capture *c, unsigned i)
{
	return c->chans[i].width == 1 && !c->chans[i].disabled;
}

/* The first choosable channel with an edge: one pass through ops->scan where
 * the format has it, else select() + the first next() per channel. */
static int first_with_edges(struct capture *c)
{
	signed char *has = NULL;
	struct capture_edge e;
	int r;

	if (c->ops->scan) {
		has = malloc(c->n_chans);
		if (!has)
			return -2;
		memset(has, -1, c->n_chans);
		r = c->ops->scan(c, has);
		if (r < 0 || guard_tripped(c)) {
			free(has);
			return -2;
		}
	}
	for (unsigned i = 0; i < c->n_chans; i++) {
		if (!choosable(c, i))
			continue;
		if (has && has[i] >= 0) {
			if (has[i]) {
				free(has);
				return (int)i;
			}
			continue;
		}
		r = capture_select(c, i, -1);
		if (r < 0)
			goto fail;
		if (r == 0)
			continue;
		r = c->ops->next(c, &e);
		if (r < 0 || guard_tripped(c))
			goto fail;
		if (r == 1) {
			free(has);
			return (int)i;
		}
	}
	free(has);
	return -1;
fail:
	free(has);
	return -2;
}

static int capture_choose(struct capture *c)
{
	unsigned ch = 0;
	int bit = -1;
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
		int found = first_with_edges(c), first = -1;

		if (found == -2)
			return -1;
		for (unsigned i = 0; i < c->n_chans && first < 0; i++)
			if (choosable(c, i))
				first = (int)i;
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

/* What the importers promise, checked once here for all of them. */
static int capture_check_info(struct capture *c)
{
	struct capture_info *in = &c->info;

	if (!capture_ps_ok(in->start_ps) || !capture_ps_ok(in->end_ps))
		return capture_err(c, 0, "the capture's span (%.6g s to %.6g s) is beyond the "
				   "+-%.0f days sqwave holds", capture_ps_to_s(in->start_ps),
				   capture_ps_to_s(in->end_ps), capture_ps_to_s(CAPTURE_PS_MAX) / 86400);
	if (in->resolution_ps < 1)
		in->resolution_ps = 1;
	if (!in->edge_lo_ps && !in->edge_hi_ps)
		capture_set_edge_window(c, in->resolution_ps, in->analog);
	return 0;
}

static const struct capture_ops *capture_detect(const char *data, size_t len, const char *path)
{
	const struct capture_ops *ops = NULL;
	int best = 0;

	for (size_t i = 0; i < N_FORMATS; i++) {
		int sc = capture_formats[i].ops->probe(data, len, path);

		if (sc > best) {
			best = sc;
			ops = capture_formats[i].ops;
		}
	}
	return ops;
}

int capture_probe_any(const void *data, size_t len)
{
	return len && capture_detect(data, len, "") != NULL;
}

static struct capture *capture_open_common(struct capture *c, const struct capture_opts *opts,
					   char *err, size_t errlen)
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
		if (!c->len) {
			capture_err(c, 0, "empty file");
			goto fail;
		}
		ops = capture_detect(c->data, c->len, c->path);
		if (guard_tripped(c))
			goto fail;
		if (!ops) {
			capture_err(c, 0, "not a capture format sqwave reads (sigrok CSV/VCD/.sr, "
				    "Saleae CSV, Rigol/Siglent/Keysight/Tektronix CSV, DSView or "
				    "WaveForms CSV)");
			goto fail;
		}
	}
	c->ops = ops;
	c->info.format = ops->name;
	if (ops->open(c) || guard_tripped(c))
		goto fail;
	if (!c->n_chans) {
		capture_err(c, 0, "no channels in this %s file", c->info.format);
		goto fail;
	}
	if (capture_choose(c) || capture_check_info(c))
		goto fail;
	return c;
fail:
	{
		int e = errno ? errno : EINVAL;

		if (err && errlen)
			snprintf(err, errlen, "%s", c->errbuf[0] ? c->errbuf : strerror(e));
		capture_free(c);
		errno = e;
	}
	return NULL;
}

static struct capture *capture_alloc(const char *name, char *err, size_t errlen)
{
	struct capture *c = calloc(1, sizeof(*c));

	if (!c || !(c->path = strdup(name ? name : "<memory>"))) {
		free(c);
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", name ? name : "<memory>", strerror(ENOMEM));
		errno = ENOMEM;
		return NULL;
	}
	c->guard = -1;
	return c;
}

struct capture *capture_open_mem(const void *data, size_t len, const char *name,
				 const struct capture_opts *opts, char *err, size_t errlen)
{
	struct capture *c = capture_alloc(name, err, errlen);

	if (!c)
		return NULL;
	c->data = len ? data : "";
	c->len = len;
	return capture_open_common(c, opts, err, errlen);
}

struct capture *capture_open_fd(int fd, const char *name, const struct capture_opts *opts,
				char *err, size_t errlen)
{
	struct capture *c = capture_alloc(name, err, errlen);
	struct stat st;
	int e;

	if (!c)
		return NULL;
	if (fstat(fd, &st)) {
		e = errno;
		capture_err(c, 0, "cannot read: %s", strerror(e));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		e = EISDIR;
		capture_err(c, 0, "is a directory");
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		e = ENODEV;
		capture_err(c, 0, "not a regular file");
		goto fail;
	}
	if (st.st_size > 0) {
		if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX / 2) {
			e = EFBIG;
			capture_err(c, 0, "too large to map on this machine");
			goto fail;
		}
		c->map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (c->map == MAP_FAILED) {
			e = errno;
			c->map = NULL;
			capture_err(c, 0, "cannot map: %s", strerror(e));
			goto fail;
		}
		c->map_len = (size_t)st.st_size;
		c->guard = guard_add(c->map, c->map_len);
		/* one call per advice: they are values, not flags */
		madvise(c->map, c->map_len, MADV_SEQUENTIAL);
		madvise(c->map, c->map_len, MADV_WILLNEED);
		c->data = c->map;
		c->len = c->map_len;
	} else {
		c->data = "";
		c->len = 0;
	}
	return capture_open_common(c, opts, err, errlen);
fail:
	if (err && errlen)
		snprintf(err, errlen, "%s", c->errbuf);
	capture_free(c);
	errno = e;
	return NULL;
}

static const char *display_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

int capture_path_is_stream(const char *path)
{
	return spool_is_stream(path);
}

/* A sniff of capture_spool()'s kind, called through spool_open()'s. */
struct sniff_box {
	int (*sniff)(const void *data, size_t len);
};

static int sniff_unbox(void *ctx, const void *data, size_t len)
{
	return ((struct sniff_box *)ctx)->sniff(data, len);
}

int capture_spool(const char *path, size_t max, int (*sniff)(const void *data, size_t len),
		  char *err, size_t errlen)
{
	struct sniff_box box = { sniff };

	return spool_open(path, max, sniff ? sniff_unbox : NULL, &box, err, errlen);
}

struct capture *capture_open(const char *path, const struct capture_opts *opts,
			     char *err, size_t errlen)
{
	const char *name = display_name(path);
	struct capture *c;
	int fd, e;

	if (capture_path_is_stream(path)) {
		fd = capture_spool(path, CAPTURE_STREAM_MAX,
				   opts && opts->format && opts->format[0] ? NULL : capture_probe_any,
				   err, errlen);
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			e = errno;
			err_path(err, errlen, name, "cannot open: %s", strerror(e));
			errno = e;
			return NULL;
		}
	}
	if (fd < 0)
		return NULL;
	c = capture_open_fd(fd, name, opts, err, errlen);
	e = errno;
	close(fd);
	errno = e;
	return c;
}

/* Read the first edge ahead, so that what the importer learns on the way
 * (initial level, VCD start time) is in the info when open returns. */
static int capture_prime(struct capture *c)
{
	int r = capture_next_edge(c, &c->peek);

	if (r < 0)
		return -1;
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
	if (guard_tripped(c))
		return -1;
	if (r < 0) {
		c->failed = 1;
		return -1;
	}
	if (r == 1) {
		/* the API's promises, whatever the importer: in range, in order */
		if (!capture_ps_ok(e->t_ps)) {
			c->failed = 1;
			return capture_err(c, 0, "an edge at %.6g s is beyond the +-%.0f days sqwave holds",
					   capture_ps_to_s(e->t_ps), capture_ps_to_s(CAPTURE_PS_MAX) / 86400);
		}
		if (c->have_last && e->t_ps < c->last_t) {
			c->failed = 1;
			return capture_err(c, 0, "edge times go backwards (%.12g s after %.12g s)",
					   capture_ps_to_s(e->t_ps), capture_ps_to_s(c->last_t));
		}
		if (e->t_ps < c->info.start_ps)
			c->info.start_ps = e->t_ps;
		c->have_last = 1;
		c->last_t = e->t_ps;
	} else if (c->have_last && c->info.end_ps < c->last_t) {
		c->info.end_ps = c->last_t;
	}
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
