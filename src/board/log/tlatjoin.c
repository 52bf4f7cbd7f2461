/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Edges joined with their timerlat samples (tlatjoin.h). */
#include "log/tlatjoin.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msgbuf.h"
#include "log/edgelog.h"

#define ENTRY 16                   /* u64 intended_ns, i32 irq_ns, i32 thread_ns */

struct tlatjoin {
	struct edgelog_reader *r;
	struct edgelog_event ev;   /* the current timerlat event */
	size_t at;                 /* its next entry */
	bool have, end;
	uint64_t last;             /* the last entry's time: entries increase */
	uint64_t entries;
	char err[1024];
};

bool tlatjoin_log_has_timerlat(const struct edgelog_meta *m)
{
	char buf[32];
	const char *v = edgelog_meta_get(m, "rt.timer", buf, sizeof(buf));

	return v && !strcmp(v, "timerlat");
}

struct tlatjoin *tlatjoin_open(const char *path, char *err, size_t errlen)
{
	struct tlatjoin *j = calloc(1, sizeof(*j));
	enum edgelog_status st;

	if (!j) {
		msgbuf_set(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	j->r = edgelog_reader_open(path, &st, err, errlen);
	if (!j->r) {
		free(j);
		return NULL;
	}
	edgelog_reader_set_checked(j->r, false);	/* the first reader checks the records */
	return j;
}

void tlatjoin_free(struct tlatjoin *j)
{
	if (!j)
		return;
	edgelog_reader_close(j->r);
	free(j);
}

/* The next timerlat event into j->ev: 1, 0 at the end, -1. */
static int next_event(struct tlatjoin *j)
{
	struct edge_rec e;
	enum edgelog_status st;
	int got;

	while ((got = edgelog_reader_next_item(j->r, &e, &j->ev)) > 0) {
		if (got != 2 || j->ev.type != EDGELOG_EV_TIMERLAT)
			continue;
		if (j->ev.len % ENTRY || !j->ev.len) {
			msgbuf_set(j->err, sizeof(j->err), "a timerlat event of %" PRIu32 " bytes "
				   "(whole %d-byte entries)", (uint32_t)j->ev.len, ENTRY);
			return -1;
		}
		j->at = 0;
		return 1;
	}
	if (got < 0) {
		msgbuf_set(j->err, sizeof(j->err), "%s", edgelog_reader_error(j->r, &st));
		return -1;
	}
	return 0;
}

int tlatjoin_find(struct tlatjoin *j, uint64_t intended_ns, int32_t *irq_ns, int32_t *thread_ns)
{
	for (;;) {
		uint64_t t;

		if (j->end)
			return 0;
		if (!j->have || j->at == j->ev.len) {
			int got = next_event(j);

			if (got <= 0) {
				j->end = got == 0;
				return got;
			}
			j->have = true;
		}
		memcpy(&t, j->ev.payload + j->at, 8);
		if (j->entries && t <= j->last) {
			msgbuf_set(j->err, sizeof(j->err), "timerlat entries out of order (%" PRIu64
				   " ns after %" PRIu64 " ns)", t, j->last);
			return -1;
		}
		if (t > intended_ns)
			return 0;	/* none for this edge; keep it for a later one */
		j->last = t;
		j->entries++;
		j->at += ENTRY;
		if (t == intended_ns) {
			memcpy(irq_ns, j->ev.payload + j->at - 8, 4);
			memcpy(thread_ns, j->ev.payload + j->at - 4, 4);
			return 1;
		}
	}
}

const char *tlatjoin_error(const struct tlatjoin *j)
{
	return j->err;
}

uint64_t tlatjoin_entries(const struct tlatjoin *j)
{
	return j->entries;
}
