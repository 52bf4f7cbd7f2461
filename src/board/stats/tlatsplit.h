/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rt.timer timerlat: whose fault a late wake-up is (docs/timerlat.md). An
 * edge's wake latency W (wake - intended) is the timer IRQ's latency I, then
 * the time from the IRQ to the user thread's clock read, W - I (scheduling
 * and the return to user space). A part is "late" when it takes at least half
 * of @limit_ns (limits.wake_latency_max), or without a limit at least half of
 * W itself: then the larger part is named. One shared rule for the summary,
 * analyze and export. */
#ifndef SQW_TLATSPLIT_H
#define SQW_TLATSPLIT_H

#include <stdint.h>

enum tlat_split { TLAT_SPLIT_NONE, TLAT_SPLIT_IRQ, TLAT_SPLIT_THREAD, TLAT_SPLIT_BOTH };

static inline enum tlat_split tlat_split_of(int64_t wake_ns, int64_t irq_ns, int64_t limit_ns)
{
	int64_t half = (limit_ns > 0 ? limit_ns : wake_ns) / 2;
	int irq = irq_ns >= half, thr = wake_ns - irq_ns >= half;

	if (irq_ns < 0 || wake_ns <= 0)
		return TLAT_SPLIT_NONE;
	return irq && thr ? TLAT_SPLIT_BOTH : irq ? TLAT_SPLIT_IRQ : thr ? TLAT_SPLIT_THREAD
							      : TLAT_SPLIT_NONE;
}

static inline const char *tlat_split_name(enum tlat_split s)
{
	static const char *const n[] = { "neither", "IRQ late", "thread late", "both late" };

	return n[s];
}

#endif
