/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A log's edge records joined with their loopback events (run --loopback): per
 * edge, the time the kernel saw it on the input, streamed in constant memory. */
#ifndef SQW_LOOPJOIN_H
#define SQW_LOOPJOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "log/edge.h"

struct edgelog_reader;
struct edgelog_event;

/*
 * The pairing. Each loopback pair (seq, event_ns) names the output edge the
 * kernel's count says it is (docs/log-format.md). The join trusts that count
 * and corrects it only forward, by time: an event at or after the write_begin
 * of the edge after its candidate, followed by a pair that also lies at or
 * after its own candidate's next write, is not the candidate's (the kernel
 * never saw that edge: lost on the wire), so it and every later pair move on
 * by the edges skipped. One event past the next write with the following one
 * in place is a late edge whose successor came sooner than the input's
 * delay, and moves nothing. Nothing ever moves a pair back to an earlier edge, so an
 * event stamped before its own write began stays with its edge, where the
 * statistics see it (a wire that follows something else, a glitch on it, or
 * clocks that disagree); a spurious edge on the wire shows as every later
 * event stamped before its write began.
 *
 * Extra events (counted, not yielded): before the first record, after the
 * last one, a second event for one edge, and one whose edge's record is not
 * in the log (dropped by a full ring). Kernel drops: the pairs' seq skip
 * (libgpiod v2 numbers the events); the edges in the gap have no event.
 *
 * The window. Events reach the log in batches, later than their records (up
 * to 1024 pairs or a quarter second, plus the recorder's drain), and a batch
 * can also come before the records it names. The join keeps the last
 * @window_records records (32 bytes each) and up to @window_pairs pairs not
 * yet placed (16 bytes each); an edge is yielded once its event is attached
 * or it is known none will come (a later edge has one, the next pair names a
 * later edge, the log ended) or, at the latest, when the window is full. An
 * event that arrives after its edge was yielded that way, or that finds the
 * pair window full, is "late": counted, never attached. The defaults (65,536
 * of each, 3 MiB) hold a quarter second of edges at half periods down to 4 us.
 */
#define LOOPJOIN_WINDOW_RECORDS 65536u
#define LOOPJOIN_WINDOW_PAIRS 65536u

struct loopjoin_edge {
	struct edge_rec rec;
	bool has_event;            /* the kernel saw this edge on the input */
	bool skipped;              /* no event: a later event's time moved the
				    * pairing past it (lost on the wire) */
	uint64_t event_ns;         /* the kernel's timestamp, when has_event */
};

struct loopjoin_counts {
	uint64_t records;          /* edges yielded */
	uint64_t pairs;            /* loopback pairs read */
	uint64_t events;           /* pairs attached to an edge */
	uint64_t no_event;         /* edges yielded without one (write errors not counted) */
	uint64_t skipped;          /* of those, edges the pairing moved past (lost on the wire) */
	uint64_t kernel_dropped;   /* pairs missing from the kernel's numbering */
	uint64_t extra;            /* pairs for no edge (above) */
	uint64_t late;             /* pairs that came too late for the window */
};

struct loopjoin;
struct edgelog_meta;

/* Whether the log's header says the run logged loopback events (run.loopback).
 * Without them every edge would wait for the window to fill and count as
 * without an event: join only such logs. */
bool loopjoin_log_has_loopback(const struct edgelog_meta *m);

/*
 * A join over @r (open, nothing read yet; the join reads it and the caller
 * closes it after loopjoin_free()). 0 for either window: its default.
 * NULL with errno (ENOMEM, EINVAL for a window below 2). Caller frees with
 * loopjoin_free(). Not thread-safe: one thread reads.
 */
struct loopjoin *loopjoin_new(struct edgelog_reader *r, size_t window_records,
			      size_t window_pairs);
void loopjoin_free(struct loopjoin *j);

/*
 * The next item in the log's order, as edgelog_reader_next_item() gives
 * them, but records joined: 1 an edge in *@out, 2 an event in *@ev (every
 * event, loopback ones too, already taken into the join; its payload valid
 * until the next call), 0 the end (every edge yielded), -1 an error (the
 * reader's, or a loopback payload that is not whole (seq, event_ns) pairs:
 * loopjoin_error()). Edges come in the log's order, later than the reader
 * read them by at most the window.
 */
int loopjoin_next(struct loopjoin *j, struct loopjoin_edge *out, struct edgelog_event *ev);
/* Edges only (events consumed): 1, 0 at the end, -1. */
int loopjoin_next_edge(struct loopjoin *j, struct loopjoin_edge *out);
/* After -1: one sentence (the reader's own error where it was the reader). */
const char *loopjoin_error(const struct loopjoin *j);
/* The counts so far (final after 0). */
const struct loopjoin_counts *loopjoin_counts(const struct loopjoin *j);

#endif
