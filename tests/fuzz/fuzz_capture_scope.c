/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer entry point for the oscilloscope and analyzer CSV importers:
 * the first byte picks threshold, channel and samplerate, the rest is a CSV. */
#include <stddef.h>
#include <stdint.h>

#include "capture/capture.h"

/*
 * Scope CSVs carry the most arithmetic (time axis fits, level finding,
 * interpolation): this target always reads as scope-csv or analyzer-csv,
 * so the fuzzer's effort goes there. Seeds: tests/fuzz/seeds/fuzz_capture_scope
 * (the inputs that found bugs) and the repository's scope CSVs.
 */
static const char *const channels[] = { NULL, "1", "2", "CH1", "D0", "0", "CH4", "3" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct capture_opts o = { 0 };
	struct capture_edge e;
	struct capture *c;
	unsigned n = 0;
	char err[512];

	if (size < 1)
		return 0;
	o.format = data[0] & 1 ? "analyzer-csv" : "scope-csv";
	o.channel = channels[(data[0] >> 1) & 7];
	if (data[0] & 0x10) {
		o.threshold = (double)(data[0] >> 5) * 0.5;
		o.threshold_set = 1;
	}
	if (data[0] & 0x20)
		o.samplerate_hz = 1e6;
	if (data[0] & 0x40)
		o.hysteresis = 0.1;
	c = capture_open_mem(data + 1, size - 1, "fuzz.csv", &o, err, sizeof(err));
	if (!c)
		return 0;
	while (capture_next_edge(c, &e) == 1 && n < 1000000)
		n++;
	if (data[0] & 0x80) {
		capture_rewind(c);
		while (capture_next_edge(c, &e) == 1 && n < 2000000)
			n++;
	}
	capture_close(c);
	return 0;
}
