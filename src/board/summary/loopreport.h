/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's view of the pin (analysis/loopstats.h) as a text section and
 * a JSON member, shared by the run summary and analyze. */
#ifndef SQW_LOOPREPORT_H
#define SQW_LOOPREPORT_H

#include <stdio.h>

#include "stats/loopstats.h"

struct json_writer;

/* The section "Loopback, the kernel's view of the pin" to @f. */
void loopreport_text(FILE *f, const struct loopstats_result *r);
/* The member @key: the object of docs/loopback.md (docs/json-summary.md,
 * "loopback"), or null when @r is NULL (a run without --loopback). */
void loopreport_json(struct json_writer *w, const char *key, const struct loopstats_result *r);

#endif
