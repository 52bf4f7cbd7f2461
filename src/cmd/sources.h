/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kinds of edge source this binary reads beyond logs and edge lists:
 * what cmd/ registers with analyze (analysis/analyze.h) before opening one. */
#ifndef SQW_SOURCES_H
#define SQW_SOURCES_H

/* Register the capture kind (capture/capture_source.h) as analyze's
 * registered kind. Main thread, before any source is opened; again is
 * harmless. */
void sources_register(void);

#endif
