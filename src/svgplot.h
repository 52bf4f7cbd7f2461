/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SVG picture of an analysis: a self-contained file a browser shows
 * (latency histogram, pulse widths and latency over time, worst edges). */
#ifndef SQW_SVGPLOT_H
#define SQW_SVGPLOT_H

#include "analyze.h"

/* Write the picture of @a (after analysis_finish()) to @path ("-" is
 * standard output). Returns -1 with errno on I/O failure. */
int svgplot_analysis(const char *path, const struct analysis *a);

#endif
