/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The documents of a respond log checked against a capture of both pins
 * (respcompare.h): the text report and the JSON (docs/compare.md). */
#ifndef SQW_RESPDOC_H
#define SQW_RESPDOC_H

#include <stdio.h>

#include "base/json.h"
#include "compare/respcompare.h"

/* What the documents say: the options and the comparison (respcmp_run()),
 * both the caller's. */
struct respdoc {
	const struct respcmp_opts *o;
	const struct respcmp_run *run;
	unsigned worst;                /* disagreeing answers listed, at most */
};

/* The text report to @f: the run, the capture's two channels, the mapping,
 * the answers, the stimulus edges, the verdict. The truncated log's warning
 * is the caller's to give. */
void respdoc_print_text(FILE *f, const struct respdoc *d);

/* The JSON document of @respdoc (a const struct respdoc *), for
 * json_write_document() or json_write_stream(). */
void respdoc_json(struct json_writer *w, const void *respdoc);

#endif
