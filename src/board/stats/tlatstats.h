/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A timerlat log's split of each wake-up (rt.timer timerlat): per counted
 * edge the timer IRQ's latency, the kernel thread's, and the rest to the
 * user thread's clock read, from one pass of its own through the join
 * (log/tlatjoin.h); whose fault the late edges were (tlatsplit.h). */
#ifndef SQW_TLATSTATS_H
#define SQW_TLATSTATS_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/tlatsplit.h"
#include "base/stats.h"

struct tlatstats_result {
	uint64_t edges;            /* counted edges */
	uint64_t with_samples;     /* of those, with the IRQ and the thread sample */
	uint64_t inconsistent;     /* IRQ > thread, or thread > the wake-up + the grid's slack */
	struct stats_hist irq, thread, to_user; /* to_user: wake - thread */
	int64_t limit_ns;          /* limits.wake_latency_max (0: none) */
	uint64_t late;             /* edges over the limit, with samples */
	uint64_t late_by[4];       /* of those, by enum tlat_split */
	bool have_latest;          /* the latest wake-up with samples: */
	uint64_t latest_seq;
	int64_t latest_wake_ns, latest_irq_ns, latest_thread_ns;
	enum tlat_split latest_split;
};

struct tlatstats;

/* A pass over the log at @path: 0 (not a timerlat log: *@out NULL), 1 with
 * *@out, -1 with *@st (an exit code) and @err. @limit_ns: the wake latency
 * limit the split judges by (0: none). */
int tlatstats_read_log(const char *path, int64_t limit_ns, struct tlatstats **out, int *st,
		       char *err, size_t errlen);
const struct tlatstats_result *tlatstats_result(const struct tlatstats *s);
void tlatstats_free(struct tlatstats *s);

/* The split of one edge into the figures (tests feed edges this way). */
struct tlatstats *tlatstats_new(int64_t limit_ns);
void tlatstats_add(struct tlatstats *s, uint64_t seq, int64_t wake_ns, int32_t irq_ns,
		   int32_t thread_ns);

#endif
