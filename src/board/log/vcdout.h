/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run log's wave as a VCD file, so PulseView or GTKWave overlay what sqwave
 * wrote with what a logic analyzer captured; several logs (one per line of a
 * run, or runs side by side) merged into one CSV or one VCD. */
#ifndef SQW_VCDOUT_H
#define SQW_VCDOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct edge_rec;
struct edgelog_reader;
struct edgelog_meta;
struct outfile_buf;
struct tlatjoin;

/*
 * Write the rest of @r's records to @out as a VCD: one wire, "pin", at its
 * physical level (the logged logical level, inverted when the log's
 * gpio.active_low is true), starting at the idle level (gpio.idle_level) and
 * changing at each edge's write-window midpoint, the pin's most likely
 * moment; times in ns since the log's slot 0 (timescale 1 ns). Edges whose
 * write failed, and repeats of a level (after dropped records), change
 * nothing. @log_name goes into a comment. Returns the number of changes
 * written, or -1 with errno and one message in @err (a read error, a write
 * error). Prints nothing; @out stays open.
 */
int64_t vcdout_write_log(struct edgelog_reader *r, FILE *out, const char *log_name,
			 char *err, size_t errlen);

/* ---- the CSV's cells, shared with export's one-log CSV (cmd_export.c) ---- */

/* The eight columns every record has (edgelist_export_header), without the
 * row's end; call outfile_buf_reserve() first. */
void vcdout_csv_fields(struct outfile_buf *o, const struct edge_rec *e);
/* A timerlat log's two cells (",irq,thread", empty where the tracer gave
 * none); nothing when @tj is NULL. 0, or -1: tlatjoin_error(@tj). */
int vcdout_csv_tlat_cells(struct outfile_buf *o, struct tlatjoin *tj, const struct edge_rec *e);
/* A grid log's cell (",intended + *@grid_off"); nothing when @grid_off is NULL. */
void vcdout_csv_grid_cell(struct outfile_buf *o, const int64_t *grid_off, const struct edge_rec *e);

/* ---- several logs ---- */

#define VCDOUT_MAX_LOGS 32
#define VCDOUT_NAME_MAX 64

/* One log of several, as the command line named it. */
struct vcdout_log {
	struct edgelog_reader *r;     /* open and set_checked as wanted; the caller's */
	const char *path;             /* for messages */
	char name[VCDOUT_NAME_MAX];   /* the line's name: vcdout_line_names() */
};

/*
 * The name of the line @m's run drove: the header's outputs.line (a log of a
 * multi-line run), else the config dump's gpio.line, else the offset or
 * quoted name in run.gpio (`line 3 "SIM3"`: SIM3), else "" (0 then; 1
 * when found). Control characters become '?'. Written into @buf.
 */
int vcdout_line_name(const struct edgelog_meta *m, char *buf, size_t len);

/*
 * Each log's name (vcdout_line_name(), or the log's file name when the
 * header says nothing). 0, or -1 with errno EINVAL and the sentence naming
 * both files when two logs give the same name (exit 2).
 */
int vcdout_line_names(struct vcdout_log *logs, size_t n, char *err, size_t errlen);

/*
 * Whether @n logs look like one time line: a sentence in @warn (and 1) when
 * their hosts (host.name) differ or their starts (start_ns, CLOCK_MONOTONIC)
 * are more than an hour apart, so the merged order may mean nothing; 0 and
 * "" when not. Logs of one multi-line run share the host and the start.
 */
int vcdout_logs_warn(const struct vcdout_log *logs, size_t n, char *warn, size_t len);

/*
 * The CSV of @n logs (1..VCDOUT_MAX_LOGS) merged, header included: one row
 * per record, in order of intended time, ties in the order of @logs. A
 * column `line` (each log's name) comes first when @line_column; then the
 * columns of a one-log CSV, with the loopback, timerlat and grid columns of
 * any log among them (empty cells on the rows of a log without them).
 * Events are skipped. Returns the rows written, or -1 with errno (EBADMSG:
 * a log is bad; else the I/O error or ENOMEM), the failing log's index in
 * *@bad (n when no log is to blame) and one sentence naming it in @err.
 * The write errors of @o stay in @o. Prints nothing.
 */
int64_t vcdout_write_csv(struct vcdout_log *logs, size_t n, bool line_column,
			 struct outfile_buf *o, size_t *bad, char *err, size_t errlen);

/*
 * The VCD of @n logs (1..VCDOUT_MAX_LOGS) merged: one wire per log, named
 * after its line (characters other than letters, digits and '_' as '_'),
 * under one scope, each as vcdout_write_log() writes "pin" (physical level,
 * the idle level at #0, write-window midpoints, failed writes and repeated
 * levels change nothing), in time order, ties in the order of @logs; times
 * in ns since the earliest start_ns of them. A loopback log's input is not
 * written (its one-log VCD has it). Returns the changes written, or -1 as
 * vcdout_write_csv(). @changes (may be NULL) gets each log's change count.
 */
int64_t vcdout_write_vcd(struct vcdout_log *logs, size_t n, FILE *out, int64_t *changes,
			 size_t *bad, char *err, size_t errlen);

#endif
