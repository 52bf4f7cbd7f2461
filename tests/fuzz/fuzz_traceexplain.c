/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer entry point for trace-explain: the bytes are a saved trace,
 * explained line by line in fixed state. Build with `make fuzz`; seeds:
 * tests/data/traces/. */
#include <stddef.h>
#include <stdint.h>

#include "stats/traceexplain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct traceexplain x;

	traceexplain_text((const char *)data, size, &x);
	return 0;
}
