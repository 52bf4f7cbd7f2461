/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's view of the wave (run --loopback): pulse widths between event
 * times, write-to-event latency, lost and extra events, placement, and what
 * they say of the uncertainty of sqwave's own edge times. Constant memory. */
#ifndef SQW_LOOPSTATS_H
#define SQW_LOOPSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/edgestats.h"
#include "base/stats.h"
#include "log/loopjoin.h"

struct loopstats_result {
	int64_t half_period_ns;
	uint64_t edges;            /* counted edges (not warm-up, write succeeded) */
	uint64_t events;           /* of those, seen by the kernel */
	uint64_t no_event;         /* of those, not seen */
	uint64_t skipped;          /* of those, lost on the wire (loopjoin.h) */
	/* Of the whole log, warm-up included (loopjoin_counts). */
	uint64_t kernel_dropped;   /* missing from the kernel's numbering */
	uint64_t extra;            /* events for no edge */
	uint64_t late;             /* events too late for the join's window */
	uint64_t pairs;            /* loopback pairs in the log */

	/* Latency of each counted edge's event: event - write_begin and
	 * event - write_end; worst: the edge of the largest. */
	struct stats_hist from_begin, from_end;
	struct edgestats_where from_begin_worst, from_end_worst;
	/* Placement: the pin changed inside [write_begin, write_end], so no
	 * event may come before write_begin. Those that do, and the one that
	 * came earliest (write_begin - event, > 0). */
	uint64_t early;
	int64_t early_worst_ns;
	struct edgestats_where early_worst;

	/* Pulse widths between consecutive events (two counted edges in a row,
	 * both seen): the timestamps are the kernel's, one per edge, so
	 * lo_ns = hi_ns = width_ns. Per polarity as edgestats: POS is a pulse
	 * at level 1, numbered by the edge that ends it. */
	struct edgestats_widths width[EDGESTATS_NPOL];
};

struct loopstats;

/* Allocated here; NULL with errno. Caller frees with loopstats_free(). */
struct loopstats *loopstats_new(int64_t half_period_ns);
void loopstats_free(struct loopstats *s);
/* Feed every joined edge in order (warm-up ones too: they are tracked, not
 * counted). */
void loopstats_add(struct loopstats *s, const struct loopjoin_edge *e);
/* After the last edge: the join's log-wide counts. */
void loopstats_finish(struct loopstats *s, const struct loopjoin_counts *c);
/* Owned by @s, valid until loopstats_free(). */
const struct loopstats_result *loopstats_result(const struct loopstats *s);

/*
 * Read the log @path through the join into a new *@out. 1: done (caller
 * frees *@out); 0: the log has no loopback events (run.loopback was off;
 * *@out NULL); -1: an error, one sentence in @err, *@st (may be NULL) 2 for
 * bad input, 3 for I/O (the exit codes).
 */
int loopstats_read_log(const char *path, struct loopstats **out, int *st, char *err,
		       size_t errlen);

/*
 * The uncertainty of sqwave's own edge times, as one paragraph with its
 * derivation (docs/loopback.md): the pin changed inside the write window,
 * the kernel stamped it after the input path's delay d, so for each edge
 * event - write_end <= d <= event - write_begin. Written into @buf (cut to
 * @len); "" when no edge was seen.
 */
void loopstats_statement(const struct loopstats_result *r, char *buf, size_t len);

/* A constant input-path delay consistent with every edge lies in [*lo, *hi]
 * = [max(event - write_end), min(event - write_begin)]; false if no edge
 * was seen. *lo > *hi: no constant delay fits, it varied by at least
 * *lo - *hi. */
bool loopstats_delay_bounds(const struct loopstats_result *r, int64_t *lo, int64_t *hi);

#endif
