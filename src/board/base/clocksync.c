/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Clock offsets, adjtimex's sync state, grid placement and absolute times. */
#include "base/clocksync.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/timex.h>

#include "base/clock.h"

int clocksync_read(struct clocksync_state *st)
{
	struct timex tx = { .modes = 0 };
	int ret = adjtimex(&tx);

	memset(st, 0, sizeof(*st));
	if (ret < 0)
		return -1;
	st->state = ret;
	st->status = tx.status;
	st->synced = !(tx.status & STA_UNSYNC) && ret != TIME_ERROR;
	st->maxerror_us = tx.maxerror;
	st->esterror_us = tx.esterror;
	/* STA_NANO: the offset is in ns, else in us */
	st->offset_ns = tx.status & STA_NANO ? tx.offset : tx.offset * 1000;
	st->tai_s = tx.tai;
	return 0;
}

const char *clocksync_state_name(int state)
{
	switch (state) {
	case TIME_OK: return "ok";
	case TIME_INS: return "insert leap";
	case TIME_DEL: return "delete leap";
	case TIME_OOP: return "leap in progress";
	case TIME_WAIT: return "leap done";
	case TIME_ERROR: return "error";
	default: return "unknown";
	}
}

/* Seven brackets: a preemption or an interrupt widens one or two of them;
 * the narrowest is what two back-to-back reads cost. */
#define OFFSET_TRIES 7

void clocksync_offset(clockid_t clk, int64_t *offset_ns, uint64_t *uncert_ns)
{
	uint64_t best = UINT64_MAX;
	int i;

	for (i = 0; i < OFFSET_TRIES; i++) {
		uint64_t m0 = clock_mono_ns(), t = clock_now_ns(clk), m1 = clock_mono_ns();

		if (m1 - m0 < best) {
			best = m1 - m0;
			/* the other clock was read in [m0, m1]: its middle */
			*offset_ns = (int64_t)(t - (m0 + (m1 - m0) / 2));
		}
	}
	*uncert_ns = (best + 1) / 2;
}

uint64_t clocksync_grid_next(uint64_t earliest_ns, uint64_t align_ns)
{
	uint64_t r = earliest_ns % align_ns;

	return r ? earliest_ns - r + align_ns : earliest_ns;
}

/* Up to 9 fraction digits after a '.', as ns; the end in *@end. */
static int parse_fraction(const char *s, const char **end, uint64_t *ns)
{
	uint64_t scale = 100000000ull;
	int digits = 0;

	*ns = 0;
	if (*s != '.') {
		*end = s;
		return 0;
	}
	for (s++; isdigit((unsigned char)*s); s++, digits++) {
		if (digits >= 9)
			return -1;
		*ns += (uint64_t)(*s - '0') * scale;
		scale /= 10;
	}
	*end = s;
	return digits ? 0 : -1;
}

/* "YYYY-MM-DDTHH:MM:SS" with every field in its range; seconds in *@sec. */
static int parse_iso(const char *s, const char **end, uint64_t *sec)
{
	struct tm tm = { 0 };
	const char *p = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	time_t t;

	/* strptime takes one-digit fields and skips spaces: insist on the
	 * fixed 19 characters */
	if (!p || p - s != 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
	    s[16] != ':')
		return -1;
	for (int i = 0; i < 19; i++)
		if (i != 4 && i != 7 && i != 10 && i != 13 && i != 16 &&
		    !isdigit((unsigned char)s[i]))
			return -1;
	if (tm.tm_year < 70)
		return -1;
	t = timegm(&tm);
	if (t < 0)
		return -1;
	*sec = (uint64_t)t;
	*end = p;
	return 0;
}

int clocksync_parse_time(const char *s, uint64_t *ns, char *err, size_t errlen)
{
	const char *p = s;
	uint64_t sec = 0, frac;

	if (isdigit((unsigned char)s[0]) && strlen(s) >= 19 && s[4] == '-') {
		if (parse_iso(s, &p, &sec) < 0)
			goto bad;
		if (parse_fraction(p, &p, &frac) < 0)
			goto bad;
		if (!strcmp(p, "Z") || !strcmp(p, "+00:00"))
			p += strlen(p);
		else
			goto bad;
	} else {
		if (!isdigit((unsigned char)*p))
			goto bad;
		for (; isdigit((unsigned char)*p); p++) {
			if (sec > (UINT64_MAX / 1000000000ull - 9) / 10)
				goto bad;
			sec = sec * 10 + (uint64_t)(*p - '0');
		}
		if (parse_fraction(p, &p, &frac) < 0 || *p)
			goto bad;
	}
	if (sec > UINT64_MAX / 1000000000ull - 1)
		goto bad;
	*ns = sec * 1000000000ull + frac;
	return 0;
bad:
	snprintf(err, errlen, "\"%s\" is not a time: give seconds since the epoch "
		 "(1764700000, 1764700000.5) or UTC as 2026-12-02T17:30:00Z", s);
	return -1;
}

const char *clocksync_format_time(uint64_t ns, char *buf, size_t len)
{
	time_t sec = (time_t)(ns / 1000000000ull);
	struct tm tm;
	char day[32];

	if (!gmtime_r(&sec, &tm) || !strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(day, sizeof(day), "%llu", (unsigned long long)sec);
	snprintf(buf, len, "%s.%09lluZ", day, (unsigned long long)(ns % 1000000000ull));
	return buf;
}
