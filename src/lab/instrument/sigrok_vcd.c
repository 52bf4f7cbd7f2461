/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The VCD `sqwave capture` writes: edges only, x over what was not seen,
 * the acquisition's facts in $comment blocks (docs/instruments.md). */
#include "instrument/sigrok_vcd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define VCD_BUFSIZE (1u << 20)

static void vcd_fail(struct sigrok_vcd *w)
{
	if (!w->failed)
		w->failed = errno ? errno : EIO;
}

/* The timescale: the largest of 1/10/100 x s/ms/us/ns/ps that holds a
 * sample period a whole number of times; else 1 ps, times rounded. */
static void vcd_timescale(struct sigrok_vcd *w, char *out, size_t len)
{
	static const char *const unit[] = { "ps", "ns", "us", "ms", "s" };
	static const unsigned mult[] = { 1, 10, 100 };
	uint64_t per_ps = 0, tick = 1;
	unsigned best = 0;

	w->ticks_per_sample = 0;
	if (UINT64_C(1000000000000) % w->rate_hz == 0)
		per_ps = UINT64_C(1000000000000) / w->rate_hz;
	/* up to 100 s: 10^14 ps */
	for (unsigned e = 1; per_ps && e <= 14; e++) {
		tick *= 10;
		if (per_ps % tick)
			break;
		best = e;
	}
	tick = 1;
	for (unsigned e = 0; e < best; e++)
		tick *= 10;
	if (per_ps)
		w->ticks_per_sample = per_ps / tick;
	if (best >= 12)
		snprintf(out, len, "%u s", mult[best - 12]);
	else
		snprintf(out, len, "%u %s", mult[best % 3], unit[best / 3]);
}

/* round(sample x 1e12 / rate) in plain 64-bit arithmetic (armhf has no
 * __int128): the quotient and remainder by the rate, the remainder's part
 * taken in two steps of 1e6, each product below 2^64 for any rate under
 * 1.8e13 Hz; exact, the same rounding (half up) as one wide division. */
static uint64_t vcd_ticks(const struct sigrok_vcd *w, uint64_t sample)
{
	uint64_t rate = w->rate_hz, q, r, q2, r2;

	if (w->ticks_per_sample)
		return sample * w->ticks_per_sample;
	q = sample / rate;
	r = sample % rate;
	q2 = r * 1000000u / rate;
	r2 = r * 1000000u % rate;
	return q * 1000000000000u + q2 * 1000000u + (r2 * 1000000u + rate / 2) / rate;
}

static void vcd_time(struct sigrok_vcd *w, uint64_t sample)
{
	if (w->have_time && sample == w->last_sample)
		return;
	w->have_time = 1;
	w->last_sample = sample;
	if (fprintf(w->f, "#%" PRIu64 "\n", vcd_ticks(w, sample)) < 0)
		vcd_fail(w);
}

static void vcd_rate_words(uint64_t hz, char *out, size_t len)
{
	if (hz >= 1000000000 && hz % 1000000000 == 0)
		snprintf(out, len, "%" PRIu64 " GHz", hz / 1000000000);
	else if (hz >= 1000000 && hz % 1000000 == 0)
		snprintf(out, len, "%" PRIu64 " MHz", hz / 1000000);
	else if (hz >= 1000 && hz % 1000 == 0)
		snprintf(out, len, "%" PRIu64 " kHz", hz / 1000);
	else
		snprintf(out, len, "%" PRIu64 " Hz", hz);
}

int sigrok_vcd_open(struct sigrok_vcd *w, const char *path, const struct sigrok_vcd_head *h,
		    char *err, size_t errlen)
{
	char ts[32], rate[32], date[64];
	time_t now = time(NULL);
	struct tm tm;

	memset(w, 0, sizeof(*w));
	if (!h->rate_hz || !h->nch || h->nch > SIGROK_VCD_MAXCH) {
		snprintf(err, errlen, "%s: no samplerate or no channel to write", path);
		return -1;
	}
	w->rate_hz = h->rate_hz;
	w->nch = h->nch;
	for (unsigned k = 0; k < h->nch; k++) {
		/* identifiers from '!' on, two characters past 94 channels */
		unsigned n = k;

		w->bit[k] = h->bits[k];
		w->id[k][0] = (char)('!' + n % 94);
		w->id[k][1] = n >= 94 ? (char)('!' + n / 94) : 0;
		w->id[k][2] = 0;
	}
	w->f = fopen(path, "w");
	if (!w->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	w->buf = malloc(VCD_BUFSIZE);
	if (w->buf)
		setvbuf(w->f, w->buf, _IOFBF, VCD_BUFSIZE);
	vcd_timescale(w, ts, sizeof(ts));
	vcd_rate_words(h->rate_hz, rate, sizeof(rate));
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	fprintf(w->f, "$date %s $end\n$version sqwave %s capture $end\n", date, SQW_VERSION);
	/* the first line as sigrok writes it: capture_vcd reads the rate there */
	fprintf(w->f, "$comment\n  Acquisition with %u/%u channels at %s\n%s$end\n", h->nch,
		h->device_channels ? h->device_channels : h->nch, rate, h->comment ? h->comment : "");
	fprintf(w->f, "$timescale %s $end\n$scope module sqwave $end\n", ts);
	for (unsigned k = 0; k < h->nch; k++)
		fprintf(w->f, "$var wire 1 %s %s $end\n", w->id[k], h->names[k]);
	if (fprintf(w->f, "$upscope $end\n$enddefinitions $end\n") < 0)
		vcd_fail(w);
	return 0;
}

void sigrok_vcd_change(struct sigrok_vcd *w, uint64_t sample, uint64_t value, uint64_t changed)
{
	vcd_time(w, sample);
	for (unsigned k = 0; k < w->nch; k++) {
		uint64_t b = UINT64_C(1) << w->bit[k];

		if (!changed || (changed & b)) {
			putc((value & b) ? '1' : '0', w->f);
			fputs(w->id[k], w->f);
			if (putc('\n', w->f) == EOF)
				vcd_fail(w);
		}
	}
}

void sigrok_vcd_gap(struct sigrok_vcd *w, uint64_t sample)
{
	vcd_time(w, sample);
	for (unsigned k = 0; k < w->nch; k++)
		if (fprintf(w->f, "x%s\n", w->id[k]) < 0)
			vcd_fail(w);
}

int sigrok_vcd_close(struct sigrok_vcd *w, uint64_t end_sample, const char *comment, char *err,
		     size_t errlen)
{
	int rc = 0;

	if (!w->f)
		return 0;
	vcd_time(w, end_sample);
	if (comment && fprintf(w->f, "$comment\n%s$end\n", comment) < 0)
		vcd_fail(w);
	if (fflush(w->f) == EOF || ferror(w->f))
		vcd_fail(w);
	if (fclose(w->f) == EOF)
		vcd_fail(w);
	w->f = NULL;
	free(w->buf);
	w->buf = NULL;
	if (w->failed) {
		snprintf(err, errlen, "writing the capture: %s", strerror(w->failed));
		rc = -1;
	}
	return rc;
}

void sigrok_vcd_abandon(struct sigrok_vcd *w)
{
	if (w->f)
		fclose(w->f);
	w->f = NULL;
	free(w->buf);
	w->buf = NULL;
}
