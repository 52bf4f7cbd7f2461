/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The streaming join of edge records and loopback pairs: two bounded rings,
 * the pairing rule and the window of loopjoin.h. */
#include "log/loopjoin.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log/edgelog.h"

struct lj_slot {
	struct loopjoin_edge e;
};

struct lj_pair {
	uint64_t seq, t;
};

struct loopjoin {
	struct edgelog_reader *r;
	/* records not yet yielded, in seq order: slots[(head + i) % cap] */
	struct lj_slot *slots;
	size_t cap, head, n;
	/* pairs not yet placed, in the order read */
	struct lj_pair *pairs;
	size_t pcap, phead, pn;
	uint64_t shift;            /* the forward correction of the pairing */
	bool any_attached;
	uint64_t last_attached;    /* seq of the last edge that got an event */
	bool any_yielded;
	uint64_t last_yielded;
	bool any_pair;
	uint64_t last_pair_seq;
	bool eof;
	bool have_pending;         /* a record read while the window was full */
	struct edge_rec pending;
	struct loopjoin_counts c;
	bool failed;
	char err[512];
};

bool loopjoin_log_has_loopback(const struct edgelog_meta *m)
{
	char buf[16];
	const char *v = edgelog_meta_get(m, "run.loopback", buf, sizeof(buf));

	return v && (!strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes"));
}

struct loopjoin *loopjoin_new(struct edgelog_reader *r, size_t window_records,
			      size_t window_pairs)
{
	struct loopjoin *j;

	if (!window_records)
		window_records = LOOPJOIN_WINDOW_RECORDS;
	if (!window_pairs)
		window_pairs = LOOPJOIN_WINDOW_PAIRS;
	if (window_records < 2 || window_pairs < 2) {
		errno = EINVAL;
		return NULL;
	}
	j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	j->slots = malloc(window_records * sizeof(*j->slots));
	j->pairs = malloc(window_pairs * sizeof(*j->pairs));
	if (!j->slots || !j->pairs) {
		loopjoin_free(j);
		errno = ENOMEM;
		return NULL;
	}
	j->r = r;
	j->cap = window_records;
	j->pcap = window_pairs;
	return j;
}

void loopjoin_free(struct loopjoin *j)
{
	if (!j)
		return;
	free(j->slots);
	free(j->pairs);
	free(j);
}

static struct loopjoin_edge *slot(struct loopjoin *j, size_t i)
{
	return &j->slots[(j->head + i) % j->cap].e;
}

/* The first record in the window with seq >= @seq (j->n if none). */
static size_t slot_find(struct loopjoin *j, uint64_t seq)
{
	size_t lo = 0, hi = j->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (slot(j, mid)->rec.seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void pair_pop(struct loopjoin *j)
{
	j->phead = (j->phead + 1) % j->pcap;
	j->pn--;
}

/* Drop the pair at the head, whose edge @c is not in the window: late when
 * that edge was yielded already, after the last edge an event was attached
 * to; extra otherwise (an event for no edge of the log). */
static void pair_drop_unplaced(struct loopjoin *j, uint64_t c)
{
	if (j->any_yielded && c <= j->last_yielded && (!j->any_attached || c > j->last_attached))
		j->c.late++;
	else
		j->c.extra++;
	pair_pop(j);
}

/* Place the pairs that can be placed now; stops at the first that needs a
 * record not read yet. */
static void place_pairs(struct loopjoin *j)
{
	while (j->pn) {
		const struct lj_pair *p = &j->pairs[j->phead];
		uint64_t c = p->seq + j->shift, t = p->t;
		struct loopjoin_edge *e;
		size_t i, k;

		if (!j->n) {
			if (!j->eof && !j->any_yielded)
				return;
			if (!j->eof && c > j->last_yielded)
				return;          /* its record may come yet */
			pair_drop_unplaced(j, c);
			continue;
		}
		if (c < slot(j, 0)->rec.seq) {
			/* Its edge has left the window, or never was in the log. */
			pair_drop_unplaced(j, c);
			continue;
		}
		i = slot_find(j, c);
		if (i == j->n) {
			if (!j->eof)
				return;
			j->c.extra++;            /* after the last record */
			pair_pop(j);
			continue;
		}
		if (slot(j, i)->rec.seq > c && t < edge_write_begin_ns(&slot(j, i)->rec)) {
			j->c.extra++;            /* its edge's record was dropped */
			pair_pop(j);
			continue;
		}
		/* Forward only: at or after the next write began, the event is not
		 * this edge's, unless that write came less than the input's delay
		 * after this one (a late edge, the next one on time). The next pair
		 * tells them apart: after a lost edge it too lies past its
		 * candidate's next write, after a late edge it does not. Deciding
		 * needs the next records and the next pair. */
		for (k = i;; k++) {
			const struct lj_pair *q;

			if (k + 1 == j->n) {
				if (!j->eof)
					return;
				break;
			}
			if (t < edge_write_begin_ns(&slot(j, k + 1)->rec))
				break;
			if (j->pn < 2) {
				if (!j->eof)
					return;
				continue;        /* the last pair: nothing to tell by */
			}
			q = &j->pairs[(j->phead + 1) % j->pcap];
			if (q->seq != p->seq + 1)
				continue;        /* a kernel drop between: no evidence */
			if (k + 2 >= j->n) {
				if (!j->eof)
					return;
				break;           /* it names the last edge: no shift */
			}
			if (q->t < edge_write_begin_ns(&slot(j, k + 2)->rec))
				break;           /* it fits without a shift: a late edge */
		}
		e = slot(j, k);
		if (e->rec.seq != c)
			j->shift += e->rec.seq - c;
		for (; i < k; i++)
			if (!slot(j, i)->has_event)
				slot(j, i)->skipped = true;
		if (e->has_event) {
			j->c.extra++;            /* a second event for one edge */
		} else {
			e->has_event = true;
			e->event_ns = t;
			j->any_attached = true;
			j->last_attached = e->rec.seq;
			j->c.events++;
		}
		pair_pop(j);
	}
}

/* Whether the window's first record may be yielded. */
static bool front_ready(struct loopjoin *j)
{
	const struct loopjoin_edge *f = slot(j, 0);

	if (f->has_event || j->eof)
		return true;
	if (j->any_attached && j->last_attached > f->rec.seq)
		return true;
	return j->pn && j->pairs[j->phead].seq + j->shift > f->rec.seq;
}

static void front_yield(struct loopjoin *j, struct loopjoin_edge *out)
{
	*out = *slot(j, 0);
	j->head = (j->head + 1) % j->cap;
	j->n--;
	j->any_yielded = true;
	j->last_yielded = out->rec.seq;
	j->c.records++;
	if (!out->has_event) {
		out->event_ns = 0;
		if (!(out->rec.flags & EDGE_F_WRITE_ERR)) {
			j->c.no_event++;
			if (out->skipped)
				j->c.skipped++;
		}
	}
}

static void record_push(struct loopjoin *j, const struct edge_rec *rec)
{
	struct loopjoin_edge *e = slot(j, j->n++);

	memset(e, 0, sizeof(*e));
	e->rec = *rec;
}

static int lj_fail(struct loopjoin *j, const char *msg)
{
	if (!j->failed) {
		snprintf(j->err, sizeof(j->err), "%s", msg);
		j->failed = true;
	}
	return -1;
}

static int pairs_take(struct loopjoin *j, const struct edgelog_event *ev)
{
	const unsigned char *p = ev->payload;
	size_t i, n = ev->len / 16;

	if (ev->len % 16) {
		char msg[256];

		snprintf(msg, sizeof(msg), "loopback event %" PRIu64 " has %" PRIu32 " payload bytes, "
			 "not whole (seq, event_ns) pairs", edgelog_reader_events(j->r,
			 EDGELOG_EV_LOOPBACK), ev->len);
		errno = EBADMSG;
		return lj_fail(j, msg);
	}
	for (i = 0; i < n; i++) {
		struct lj_pair q;

		/* little-endian on disk as in memory (edgelog.h) */
		memcpy(&q.seq, p + 16 * i, 8);
		memcpy(&q.t, p + 16 * i + 8, 8);
		j->c.pairs++;
		if (j->any_pair && q.seq > j->last_pair_seq + 1)
			j->c.kernel_dropped += q.seq - j->last_pair_seq - 1;
		else if (!j->any_pair && q.seq)
			j->c.kernel_dropped += q.seq;
		if (!j->any_pair || q.seq > j->last_pair_seq)
			j->last_pair_seq = q.seq;
		j->any_pair = true;
		if (j->pn == j->pcap) {
			place_pairs(j);
			if (j->pn == j->pcap) {
				j->c.late++;     /* far ahead of its records */
				continue;
			}
		}
		j->pairs[(j->phead + j->pn++) % j->pcap] = q;
	}
	return 0;
}

int loopjoin_next(struct loopjoin *j, struct loopjoin_edge *out, struct edgelog_event *ev)
{
	struct edge_rec rec;
	int got;

	if (j->failed)
		return -1;
	for (;;) {
		if (j->have_pending && j->n < j->cap) {
			record_push(j, &j->pending);
			j->have_pending = false;
		}
		place_pairs(j);
		if (j->n && (front_ready(j) || j->have_pending)) {
			front_yield(j, out);
			return 1;
		}
		if (j->eof)
			return 0;
		got = edgelog_reader_next_item(j->r, &rec, ev);
		if (got < 0)
			return lj_fail(j, edgelog_reader_error(j->r, NULL));
		if (got == 0) {
			j->eof = true;
			continue;
		}
		if (got == 1) {
			if (j->n == j->cap) {
				/* full: the oldest goes as it is (above) */
				j->pending = rec;
				j->have_pending = true;
			} else {
				record_push(j, &rec);
			}
			continue;
		}
		if (ev->type == EDGELOG_EV_LOOPBACK && pairs_take(j, ev) < 0)
			return -1;
		return 2;
	}
}

int loopjoin_next_edge(struct loopjoin *j, struct loopjoin_edge *out)
{
	struct edgelog_event ev;
	int got;

	while ((got = loopjoin_next(j, out, &ev)) == 2)
		;
	return got;
}

const char *loopjoin_error(const struct loopjoin *j)
{
	return j->failed ? j->err : "";
}

const struct loopjoin_counts *loopjoin_counts(const struct loopjoin *j)
{
	return &j->c;
}
