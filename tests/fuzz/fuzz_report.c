/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer entry point for sqwave report's reader: the bytes are a JSON
 * document, parsed by jsonread and made into rows by report_add_doc, the
 * rows written in every format (the SVG's axis arithmetic included). Build
 * with `make fuzz`; seeds: tests/fuzz/seeds/fuzz_report/. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/jsonread.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report r = { 0 };
	char err[512];
	struct jv *v = jsonread_parse((const char *)data, size, err, sizeof(err));
	FILE *f;

	if (!v)
		return 0;
	/* twice: a second document after a first (rows kept, or none added) */
	report_add_doc(&r, v, "fuzz.json", err, sizeof(err));
	report_add_doc(&r, v, "fuzz.json", err, sizeof(err));
	jv_free(v);
	f = fopen("/dev/null", "w");
	if (f) {
		report_write_text(f, &r);
		report_write_markdown(f, &r);
		report_write_json(f, &r);
		report_write_svg(f, &r);
		fclose(f);
	}
	report_all_pass(&r);
	report_free(&r);
	return 0;
}
