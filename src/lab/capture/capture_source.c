/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A capture as an edge source of analyze's registered kind: its edges as
 * records, and its description for the analysis documents. */
#include "capture/capture_source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/msgbuf.h"
#include "capture/capture.h"
#include "log/edge.h"

struct capture_source {
	struct capture *cap;
	const struct capture_info *ci;
	int64_t start_ns;           /* capture time of edge time 0 (its start), ns */
	int64_t lo_ns, hi_ns;       /* the edge window, whole ns outwards */
	int32_t lo_off, hi_off;     /* the same as record offsets */
	uint64_t seq;
	uint64_t gaps;              /* edges after a data gap */
	bool io;                    /* the failure was the file changing, not bad data */
};

/* A capture's edge uncertainty as record offsets, in whole ns outwards. The
 * offsets hold +-2.1 s: with a coarser sample interval (under 0.5 Sa/s) they
 * are clamped, and its edges still count (flagging them as saturated would
 * drop every pulse); the pulse bounds come from the 64-bit window instead
 * (edgestats_set_edge_window(), through the describe hook). */
static int32_t clamp_off(int64_t off)
{
	return off > INT32_MAX ? INT32_MAX : off < INT32_MIN ? INT32_MIN : (int32_t)off;
}

void *capture_source_open(const char *path, int fd, const char *name, const char *format,
			  const void *opts, bool *io, char *err, size_t errlen)
{
	struct capture_opts co = { 0 };
	struct capture_source *cs = calloc(1, sizeof(*cs));
	const struct capture_info *ci;

	if (!cs) {
		*io = true;
		msgbuf_set(err, errlen, "%s: %s", name, strerror(ENOMEM));
		return NULL;
	}
	if (opts)
		co = *(const struct capture_opts *)opts;
	co.format = format;
	cs->cap = fd >= 0 ? capture_open_fd(fd, name, &co, err, errlen)
			  : capture_open(path, &co, err, errlen);
	if (!cs->cap) {
		*io = errno == ENOENT || errno == EACCES || errno == EIO || errno == ENOMEM;
		free(cs);
		return NULL;
	}
	ci = cs->ci = capture_info(cs->cap);
	/* rounded, as the edges are: start + offset is then each edge's own
	 * time to the ns (a truncated start put a VCD edge at 10.8 ns at 10) */
	cs->start_ns = capture_ps_round_ns(ci->start_ps);
	cs->lo_ns = -((-ci->edge_lo_ps + CAPTURE_PS_PER_NS - 1) / CAPTURE_PS_PER_NS);
	cs->hi_ns = (ci->edge_hi_ps + CAPTURE_PS_PER_NS - 1) / CAPTURE_PS_PER_NS;
	cs->lo_off = clamp_off(cs->lo_ns);
	cs->hi_off = clamp_off(cs->hi_ns);
	return cs;
}

void capture_source_describe(const void *state, const char **format, int64_t *origin_ns,
			     int64_t *edge_lo_ns, int64_t *edge_hi_ns)
{
	const struct capture_source *cs = state;

	*format = cs->ci->format;
	*origin_ns = cs->start_ns;
	*edge_lo_ns = cs->lo_ns;
	*edge_hi_ns = cs->hi_ns;
}

int capture_source_next(void *state, struct edge_rec *e)
{
	struct capture_source *cs = state;
	struct capture_edge ce;
	int rc;

	errno = 0;	/* EIO after a failure: the file changed under us, not bad data */
	rc = capture_next_edge(cs->cap, &ce);
	if (rc < 0) {
		cs->io = errno == EIO;
		return -1;
	}
	if (rc == 0)
		return 0;
	memset(e, 0, sizeof(*e));
	if ((ce.flags & CAPTURE_EDGE_F_AFTER_GAP) && cs->seq) {
		/* a skipped seq: edgestats measures no pulse across the gap */
		cs->seq++;
		cs->gaps++;
	}
	e->seq = cs->seq++;
	e->intended_ns = (uint64_t)(capture_ps_round_ns(ce.t_ps) - cs->start_ns);
	/* the "write window" of a capture edge: where, given the sample
	 * resolution, the line really changed; pulse bounds come from it */
	e->wake_off_ns = e->write_begin_off_ns = cs->lo_off;
	e->write_end_off_ns = cs->hi_off;
	e->expirations = 1;
	e->level = ce.level ? 1 : 0;
	return 1;
}

const char *capture_source_error(const void *state, bool *io)
{
	const struct capture_source *cs = state;

	*io = cs->io;
	return capture_error(cs->cap);
}

void capture_source_end(const void *state, int64_t *end_ns, uint64_t *gaps)
{
	const struct capture_source *cs = state;

	*end_ns = capture_ps_round_ns(cs->ci->end_ps - cs->ci->start_ps);
	*gaps = cs->gaps;
}

void capture_source_close(void *state)
{
	struct capture_source *cs = state;

	if (!cs)
		return;
	capture_close(cs->cap);
	free(cs);
}

void capture_source_text(FILE *f, const void *state)
{
	const struct capture_info *c = ((const struct capture_source *)state)->ci;
	unsigned i;

	fprintf(f, "channel    %s (%s; %u channel%s)\n", c->channel_name, c->channel_reason,
		c->n_channels, c->n_channels == 1 ? "" : "s");
	fprintf(f, "capture    %.9f .. %.9f s", capture_ps_to_s(c->start_ps),
		capture_ps_to_s(c->end_ps));
	if (c->samplerate_hz > 0)
		fprintf(f, ", %g Sa/s", c->samplerate_hz);
	fprintf(f, ", resolution %g ns\n", (double)c->resolution_ps / 1e3);
	if (c->analog)
		fprintf(f, "analog     levels %g / %g V, threshold %g V, hysteresis %g V\n",
			c->low, c->high, c->threshold, c->hysteresis);
	for (i = 0; i < c->n_notes; i++)
		fprintf(f, "note       %s\n", c->notes[i]);
}

/* A capture time in ps under a femtosecond key, or null if it does not fit. */
static void json_fs(struct json_writer *w, const char *key, int64_t ps)
{
	if (ps > INT64_MAX / 1000 || ps < -(INT64_MAX / 1000))
		json_kv_null(w, key);
	else
		json_kv_int(w, key, ps * 1000);
}

void capture_source_json(struct json_writer *w, const void *state)
{
	const struct capture_source *cs = state;
	const struct capture_info *c = cs->ci;
	unsigned i;

	json_kv_string(w, "channel", c->channel_name);
	json_kv_string(w, "channel_reason", c->channel_reason);
	json_kv_uint(w, "channels", c->n_channels);
	if (c->samplerate_hz > 0)
		json_kv_double(w, "samplerate_hz", c->samplerate_hz);
	else
		json_kv_null(w, "samplerate_hz");
	json_kv_int(w, "resolution_ps", c->resolution_ps);
	json_kv_int(w, "start_ps", c->start_ps);
	json_kv_int(w, "end_ps", c->end_ps);
	/* the femtosecond keys of schema 1, for old readers: null where
	 * femtoseconds no longer fit (beyond +-2.5 h) */
	json_fs(w, "resolution_fs", c->resolution_ps);
	json_fs(w, "start_fs", c->start_ps);
	json_fs(w, "end_fs", c->end_ps);
	json_kv_int(w, "edge_lo_ps", c->edge_lo_ps);
	json_kv_int(w, "edge_hi_ps", c->edge_hi_ps);
	json_kv_int(w, "start_ns", cs->start_ns);
	if (c->initial_level >= 0)
		json_kv_int(w, "initial_level", c->initial_level);
	else
		json_kv_null(w, "initial_level");
	json_kv_bool(w, "analog", c->analog);
	if (c->analog) {
		json_kv_double(w, "threshold_v", c->threshold);
		json_kv_double(w, "hysteresis_v", c->hysteresis);
	}
	json_kv_uint(w, "gaps", cs->gaps);
	json_kv_array_begin(w, "notes");
	for (i = 0; i < c->n_notes; i++)
		json_string(w, c->notes[i]);
	json_array_end(w);
}

void capture_source_title(const void *state, char *buf, size_t len)
{
	const struct capture_info *c = ((const struct capture_source *)state)->ci;

	snprintf(buf, len, "capture %s, channel %s", c->format, c->channel_name);
}
