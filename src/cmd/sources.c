/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The captures bound into analyze's registered kind: the one place that
 * links analyze (analysis/) with the capture importers (capture/). */
#include "cmd/sources.h"

#include "stats/analyze.h"
#include "capture/capture.h"
#include "capture/capture_source.h"

/* capture/ sits below analysis/ in the layer order and cannot see struct
 * analyze_kind_ops, so its hooks are bound here, above both; a build
 * without captures registers nothing (analyze then refuses them). */
static const struct analyze_kind_ops capture_kind = {
	.name = "capture",
	.probe = capture_probe_any,
	.open = capture_source_open,
	.describe = capture_source_describe,
	.next = capture_source_next,
	.error = capture_source_error,
	.end = capture_source_end,
	.close = capture_source_close,
	.text = capture_source_text,
	.json = capture_source_json,
	.title = capture_source_title,
};

void sources_register(void)
{
	analyze_kind_register(&capture_kind);
}
