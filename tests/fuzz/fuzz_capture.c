/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer entry point for every capture importer: the first byte picks the
 * format (or detection) and the channel, the rest is the file. */
#include <stddef.h>
#include <stdint.h>

#include "capture/capture.h"

/*
 * Build (from the repo root):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -std=c11 -D_GNU_SOURCE -Isrc/board -Isrc/lab -Isrc \
 *     tests/fuzz/fuzz_capture.c src/lab/capture/capture*.c src/board/base/csvread.c -lz -lm \
 *     -o build/fuzz_capture
 * Seed corpus: tests/data/captures (the first byte is read as the
 * selector) and tests/fuzz/seeds/fuzz_capture (the inputs that found bugs,
 * selector byte first). The importers never print.
 */
static const char *const formats[] = {
	NULL, "sigrok-csv", "vcd", "sigrok-sr", "saleae-csv", "scope-csv", "analyzer-csv", NULL,
};

static const char *const channels[] = {
	NULL, "D6", "1", "CH2", "gpio", "state[2]", "Channel 1", "0",
};

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
	o.format = formats[data[0] & 7];
	o.channel = channels[(data[0] >> 3) & 7];
	if (data[0] & 0x40)
		o.samplerate_hz = 1e6;
	c = capture_open_mem(data + 1, size - 1, "fuzz", &o, err, sizeof(err));
	if (!c)
		return 0;
	(void)capture_info(c);
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
