/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Samples to edges on one core: edgextract over a buffer of 8-channel
 * samples in 64 KiB packets, beside a plain scan of the same buffer. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "instrument/edgextract.h"

/*
 * usage: edgextract_bench MIB PATTERN
 * PATTERN square: D0 a 1 kHz square wave at 24 MS/s (12,000 samples a
 *   level), D1-D7 still: what a capture of sqwave's pin is;
 * PATTERN incremental: libsigrok's demo pattern (a counter: D0 changes
 *   at every sample), the worst case.
 * Prints one JSON line: samples, edges, and the thread CPU seconds of the
 * scan (the limit: every byte read once) and of the extraction.
 */

static uint64_t edges;

static void count(void *ctx, uint64_t sample, uint64_t value, uint64_t changed)
{
	(void)ctx;
	(void)sample;
	(void)value;
	edges += (uint64_t)__builtin_popcountll(changed);
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t n = (size_t)(argc > 1 ? atol(argv[1]) : 256) << 20;
	const char *pat = argc > 2 ? argv[2] : "square";
	unsigned char *buf = malloc(n);
	struct edgextract x;
	volatile uint64_t sink;
	uint64_t acc = 0;
	double t0, t_scan, t_ext;
	const size_t pkt = 65536;

	if (!buf)
		return 3;
	for (size_t i = 0; i < n; i++)
		buf[i] = !strcmp(pat, "incremental") ? (unsigned char)i
			 : (unsigned char)((i / 12000) & 1);
	/* the scan: every 8-byte word read once, the memory's speed */
	t0 = cpu_now();
	for (size_t i = 0; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, buf + i, 8);
		acc ^= w;
	}
	sink = acc;
	t_scan = cpu_now() - t0;
	(void)sink;
	if (edgextract_init(&x, 1, 0xff, count, NULL) < 0)
		return 3;
	t0 = cpu_now();
	for (size_t off = 0; off < n; off += pkt)
		edgextract_feed(&x, buf + off, off + pkt <= n ? pkt : n - off);
	t_ext = cpu_now() - t0;
	printf("{\"pattern\": \"%s\", \"samples\": %zu, \"edges\": %" PRIu64 ", \"scan_s\": %.6f, "
	       "\"extract_s\": %.6f}\n", pat, n, edges, t_scan, t_ext);
	free(buf);
	return 0;
}
