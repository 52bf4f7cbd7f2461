/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A timerlat log's wake-up split in analyze's text and JSON
 * (analysis/tlatstats.h, docs/timerlat.md). */
#ifndef SQW_TLATREPORT_H
#define SQW_TLATREPORT_H

#include <stdio.h>

#include "stats/tlatstats.h"
#include "base/json.h"

void tlatreport_text(FILE *f, const struct tlatstats_result *r);
/* @key: the result's object, or null for @r NULL. */
void tlatreport_json(struct json_writer *w, const char *key, const struct tlatstats_result *r);

#endif
