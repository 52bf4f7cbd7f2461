/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A capture as an edge source of analyze's registered kind: the hooks of
 * struct analyze_kind_ops (analysis/analyze.h), in the captures' terms. */
#ifndef SQW_CAPTURE_SOURCE_H
#define SQW_CAPTURE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct edge_rec;
struct json_writer;

/*
 * Each function has the signature of the analyze_kind_ops hook of its name,
 * so that the command layer binds them into the ops table it registers
 * (cmd/sources.c: capture/ sits below analysis/ in the layers and cannot
 * see the struct). A capture source is a capture (capture.h) read edge by
 * edge into struct edge_rec:
 *  - intended_ns: the edge's time in ns from the capture's start (its
 *    start_ps, rounded to the ns as the edges are), offsets 0 except the
 *    edge window: wake and write begin at its lo side, write end at its hi
 *    side (where the line changed, given the sample resolution; clamped to
 *    the 32-bit offsets, the exact window is capture_source_describe()'s);
 *  - seq counts the edges from 0 and skips one after a gap in the data
 *    (CAPTURE_EDGE_F_AFTER_GAP), so no pulse is measured across it.
 * The state is the source's: one thread at a time, freed by
 * capture_source_close(); the describing functions read it until then.
 */

/* @opts: a struct capture_opts (NULL: its defaults), whose format @format
 * replaces. Reads @fd (>= 0: a stream held in memory, only during the
 * call) or @path; @name in messages. NULL with *@io and one line in @err. */
void *capture_source_open(const char *path, int fd, const char *name, const char *format,
			  const void *opts, bool *io, char *err, size_t errlen);
/* The format found, the capture's time of edge time 0 (ns) and the edge
 * window (whole ns, outwards). */
void capture_source_describe(const void *state, const char **format, int64_t *origin_ns,
			     int64_t *edge_lo_ns, int64_t *edge_hi_ns);
int capture_source_next(void *state, struct edge_rec *e);
/* After next() returned -1: capture_error(), *@io when the file changed
 * under the reader (EIO) rather than holding bad data. */
const char *capture_source_error(const void *state, bool *io);
/* After the end: the capture's end (ns from its start) and its gaps. */
void capture_source_end(const void *state, int64_t *end_ns, uint64_t *gaps);
void capture_source_close(void *state);
/* The text report's lines: channel, time span and rate, analog levels,
 * the importer's notes. */
void capture_source_text(FILE *f, const void *state);
/* The members of the analysis JSON's source.capture (docs/analyze.md). */
void capture_source_json(struct json_writer *w, const void *state);
/* "capture FORMAT, channel NAME": the SVG's subtitle. */
void capture_source_title(const void *state, char *buf, size_t len);

#endif
