/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SVG picture of an analysis: a self-contained file a browser shows,
 * drawn for an engineer with a scope on the pin. */
#ifndef SQW_SVGPLOT_H
#define SQW_SVGPLOT_H

#include "analysis/analyze.h"

/*
 * Write the picture of @a (after analysis_finish() and analysis_verdict())
 * to @path ("-" is standard output): the verdict and the pulses outside the
 * limits, the wake-up latency and pulse-width histograms (a linear width
 * axis around each polarity's nominal: a duty wave's high and low, none for
 * a respond log), the persistence view (every period on its rising edge),
 * the key numbers, and pulse widths and
 * latency over time with the warm-up shaded, wall-clock times and the worst
 * edges labelled where the labels fit; a soak's log (analysis_set_soak())
 * with its phases shaded and named there and a proof-of-load strip (CPU
 * busy, packets/s) under them; a run --loopback log with the kernel's Tmin,
 * Tmax and lag under the key numbers. 0, or -1 with errno and the reason
 * in @err. Prints nothing.
 */
int svgplot_analysis(const char *path, const struct analysis *a, char *err, size_t errlen);

#endif
