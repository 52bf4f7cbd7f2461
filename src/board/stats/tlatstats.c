/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A timerlat log's split of each wake-up (tlatstats.h). */
#include "stats/tlatstats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "log/edgelog.h"
#include "log/tlatjoin.h"

#define GRID_SLACK_NS 1000         /* the grid may lie 1 us before the kernel's (tlatrun.h) */

struct tlatstats {
	struct tlatstats_result r;
};

struct tlatstats *tlatstats_new(int64_t limit_ns)
{
	struct tlatstats *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (stats_hist_init(&s->r.irq, STATS_HIST_DEFAULT_HIGHEST) < 0 ||
	    stats_hist_init(&s->r.thread, STATS_HIST_DEFAULT_HIGHEST) < 0 ||
	    stats_hist_init(&s->r.to_user, STATS_HIST_DEFAULT_HIGHEST) < 0) {
		tlatstats_free(s);
		return NULL;
	}
	s->r.limit_ns = limit_ns;
	return s;
}

void tlatstats_free(struct tlatstats *s)
{
	if (!s)
		return;
	stats_hist_free(&s->r.irq);
	stats_hist_free(&s->r.thread);
	stats_hist_free(&s->r.to_user);
	free(s);
}

const struct tlatstats_result *tlatstats_result(const struct tlatstats *s)
{
	return &s->r;
}

void tlatstats_add(struct tlatstats *s, uint64_t seq, int64_t wake_ns, int32_t irq_ns,
		   int32_t thread_ns)
{
	struct tlatstats_result *r = &s->r;
	enum tlat_split sp;

	r->edges++;
	if (irq_ns < 0 || thread_ns < 0)
		return;
	r->with_samples++;
	if (irq_ns > thread_ns || thread_ns > wake_ns + GRID_SLACK_NS)
		r->inconsistent++;
	stats_hist_add(&r->irq, irq_ns);
	stats_hist_add(&r->thread, thread_ns);
	stats_hist_add(&r->to_user, wake_ns - thread_ns);
	sp = tlat_split_of(wake_ns, irq_ns, r->limit_ns);
	if (r->limit_ns > 0 && wake_ns > r->limit_ns) {
		r->late++;
		r->late_by[sp]++;
	}
	if (!r->have_latest || wake_ns > r->latest_wake_ns) {
		r->have_latest = true;
		r->latest_seq = seq;
		r->latest_wake_ns = wake_ns;
		r->latest_irq_ns = irq_ns;
		r->latest_thread_ns = thread_ns;
		r->latest_split = tlat_split_of(wake_ns, irq_ns, r->limit_ns);
	}
}

int tlatstats_read_log(const char *path, int64_t limit_ns, struct tlatstats **out, int *st,
		       char *err, size_t errlen)
{
	enum edgelog_status est;
	struct edgelog_reader *r;
	struct tlatjoin *j = NULL;
	struct tlatstats *s = NULL;
	struct edge_rec e;
	int got;

	*out = NULL;
	r = edgelog_reader_open(path, &est, err, errlen);
	if (!r) {
		*st = est == EDGELOG_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
		return -1;
	}
	if (!tlatjoin_log_has_timerlat(edgelog_reader_meta(r))) {
		edgelog_reader_close(r);
		return 0;
	}
	j = tlatjoin_open(path, err, errlen);
	s = j ? tlatstats_new(limit_ns) : NULL;
	if (!s) {
		if (j)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		*st = SQW_EXIT_RUNTIME;
		goto fail;
	}
	while ((got = edgelog_reader_next(r, &e)) == 1) {
		int32_t irq = -1, thr = -1;
		int f;

		if (e.flags & (EDGE_F_WARMUP | EDGE_F_SATURATED))
			continue;
		f = tlatjoin_find(j, e.intended_ns, &irq, &thr);
		if (f < 0) {
			snprintf(err, errlen, "%s: %s", path, tlatjoin_error(j));
			*st = SQW_EXIT_USAGE;
			goto fail;
		}
		tlatstats_add(s, e.seq, e.wake_off_ns, f ? irq : -1, f ? thr : -1);
	}
	if (got < 0) {
		snprintf(err, errlen, "%s", edgelog_reader_error(r, &est));
		*st = est == EDGELOG_E_IO ? SQW_EXIT_RUNTIME : SQW_EXIT_USAGE;
		goto fail;
	}
	tlatjoin_free(j);
	edgelog_reader_close(r);
	*out = s;
	return 1;
fail:
	tlatstats_free(s);
	tlatjoin_free(j);
	edgelog_reader_close(r);
	return -1;
}
