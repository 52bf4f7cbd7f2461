/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Edge-list CSV (docs/analyze.md): its columns, defined once for the writer
 * (sqwave export) and the reader (analyze), the reader itself, and the
 * sniffing that tells a sqwave log or an edge list from anything else. */
#ifndef SQW_EDGELIST_H
#define SQW_EDGELIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "log/edge.h"

/* ---- the columns ---- */

enum edgelist_col {
	EDGELIST_SEQ, EDGELIST_LEVEL, EDGELIST_INTENDED, EDGELIST_MEASURED, EDGELIST_WAKE,
	EDGELIST_WBEGIN, EDGELIST_WEND, EDGELIST_EXPIRATIONS, EDGELIST_FLAGS,
	/* Loopback logs only (export of a run --loopback log): the kernel's
	 * time of the edge and its distance from the write window, an empty
	 * cell where the kernel saw no event. Known to the reader (a column
	 * given twice is an error) and not read: an edge record has no place
	 * for them, and the write window is the edge's time. */
	EDGELIST_LOOPBACK, EDGELIST_LB_FROM_BEGIN, EDGELIST_LB_FROM_END,
	EDGELIST_NCOLS
};

/* One accepted column name: which column, and its unit. */
struct edgelist_name {
	const char *name;
	enum edgelist_col col;
	int scale;                /* 0: integer ns; 9: decimal seconds; -1: a count */
};

extern const struct edgelist_name edgelist_names[];
extern const size_t edgelist_nnames;

/* `sqwave export --csv`'s header line (with its newline): the columns every
 * record has, in the order export writes them, named as the reader reads
 * them. */
extern const char edgelist_export_header[];
/* The same for a log with loopback events: three columns more at the end,
 * loopback_ns, loopback_from_begin_ns, loopback_from_end_ns. */
extern const char edgelist_export_header_loopback[];

/* ---- sniffing ---- */

enum edgelist_sniff {
	EDGELIST_SNIFF_OTHER,     /* neither: a capture, or foreign */
	EDGELIST_SNIFF_LOG,       /* starts with the sqwave log magic */
	EDGELIST_SNIFF_CSV,       /* the first line that is not blank or a comment starts with "seq" */
};

/* What the first @n bytes of a file say it is. */
enum edgelist_sniff edgelist_sniff(const char *head, size_t n);

/* ---- the reader ---- */

enum edgelist_status {
	EDGELIST_OK = 0,
	EDGELIST_E_INPUT,         /* malformed or inconsistent: exit 2 */
	EDGELIST_E_IO,            /* cannot open or read: exit 3 */
};

struct edgelist_info {
	const char *format;       /* "sqwave-export-csv" or "edge-csv" */
	bool has_intended;        /* intended times: latency, missed periods */
	bool has_window;          /* wake-up and write window */
	int64_t half_period_ns;   /* given, or inferred (0: unknown) */
	bool half_period_inferred; /* from the intended times, not given */
};

struct edgelist;

/*
 * Open @path, read its header and the first rows (to infer the half period
 * when @half_period_ns is 0). NULL with *st and "FILE:LINE: what" in @err.
 * Reads in constant memory (1 MiB at a time). Caller closes with
 * edgelist_close(). Prints nothing.
 */
struct edgelist *edgelist_open(const char *path, int64_t half_period_ns, enum edgelist_status *st,
			       char *err, size_t errlen);
const struct edgelist_info *edgelist_info(const struct edgelist *l);
/* Next edge, validated as a log's records are (src/board/log/edgecheck.h): 1, 0 at
 * the end, -1 with the reason in edgelist_error(). */
int edgelist_next(struct edgelist *l, struct edge_rec *e);
const char *edgelist_error(const struct edgelist *l, enum edgelist_status *st);
void edgelist_close(struct edgelist *l);

#endif
