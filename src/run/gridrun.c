/* SPDX-License-Identifier: GPL-2.0-or-later */
/* grid.clock for a run: refusals, slot 0 on the shared grid, its steps. */
#include "run/gridrun.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/clocksync.h"
#include "base/msgbuf.h"
#include "base/units.h"
#include "log/edgelog.h"
#include "run/recorder.h"

struct gridrun {
	struct clockwatch *w;
	struct run_grid g;
	uint64_t at_ns;           /* grid.start (0: aligned) */
};

static clockid_t grid_clockid(int choice)
{
	return choice == GRID_CLOCK_TAI ? CLOCK_TAI : CLOCK_REALTIME;
}

/* Where line @o's period was set: run.line_high/run.line_low when a list
 * gave it, else the run's wave keys: the half period for a 50 % wave
 * (run.high and run.low stay 0), else the one of run.high and run.low
 * that was given (config_resolve_wave() derives the other from the half
 * period, a lower source), as session_check_wave() names it. */
static const char *period_origin(const struct config *c, char *buf, size_t len)
{
	enum cfg_key k = config_str(c, CFG_LINES_HIGH)[0] ? CFG_LINES_HIGH
		: config_str(c, CFG_LINES_LOW)[0] ? CFG_LINES_LOW
		: !config_int(c, CFG_RUN_HIGH) ? CFG_RUN_HALF_PERIOD
		: config_source(c, CFG_RUN_LOW) > config_source(c, CFG_RUN_HIGH) ? CFG_RUN_LOW
		: CFG_RUN_HIGH;
	char name[64], where[200];

	snprintf(buf, len, "%s, %s", config_key_name(k, name, sizeof(name)),
		 config_origin(c, k, where, sizeof(where)));
	return buf;
}

/* The first line of @outs whose period does not divide @align; NULL: none. */
static const struct output_def *line_off_grid(const struct outputs *outs, int64_t align)
{
	size_t i;

	for (i = 0; i < outs->n; i++)
		if ((uint64_t)align % wave_period(&outs->o[i].wave))
			return &outs->o[i];
	return NULL;
}

int gridrun_check(const struct config *c, const struct outputs *outs, bool respond, bool timerlat,
		  char *err, size_t errlen)
{
	int clk = config_choice(c, CFG_GRID_CLOCK);
	int64_t align = config_int(c, CFG_GRID_ALIGN);
	const struct output_def *off;
	const char *start = config_str(c, CFG_GRID_START);
	char o1[256], o2[256], a[32], b[32], why[256];
	uint64_t at, now;

	if (clk == GRID_CLOCK_MONOTONIC) {
		enum cfg_key k = start[0] ? CFG_GRID_START : CFG_GRID_ALIGN;

		if (!start[0] && config_source(c, CFG_GRID_ALIGN) == CFG_SRC_DEFAULT)
			return 0;
		msgbuf_set(err, errlen, "%s: %s applies to a shared grid: set grid.clock to "
			   "realtime or tai (--grid realtime)", config_origin(c, k, o1, sizeof(o1)),
			   k == CFG_GRID_START ? "grid.start" : "grid.align");
		return -1;
	}
	if (respond) {
		msgbuf_set(err, errlen, "%s: grid.clock does not apply to respond: its answers "
			   "follow input events, not a grid", config_origin(c, CFG_GRID_CLOCK, o1,
			   sizeof(o1)));
		return -1;
	}
	if (timerlat) {
		msgbuf_set(err, errlen, "%s: grid.clock and rt.timer timerlat do not go together: "
			   "the kernel's timerlat places its own grid", config_origin(c, CFG_GRID_CLOCK,
			   o1, sizeof(o1)));
		return -1;
	}
	if ((off = line_off_grid(outs, align))) {
		units_format_duration(align, a, sizeof(a));
		units_format_duration((int64_t)wave_period(&off->wave), b, sizeof(b));
		msgbuf_set(err, errlen, "%s: grid.align (%s) must be a whole number of periods "
			   "of every line (line %s: high + low = %s, %s), so that every board is "
			   "high on the same instants", config_origin(c, CFG_GRID_ALIGN, o1,
			   sizeof(o1)), a, off->line, b, period_origin(c, o2, sizeof(o2)));
		return -1;
	}
	if (clk == GRID_CLOCK_TAI) {
		struct clocksync_state st;

		if (clocksync_read(&st) == 0 && st.tai_s == 0) {
			msgbuf_set(err, errlen, "%s: grid.clock tai, but the kernel's TAI offset is "
				   "0 (never set): CLOCK_TAI is UTC here and would be 37 s off a "
				   "board where it is set. Let ptp4l/phc2sys or chrony (leapsectz) "
				   "set it, or use grid.clock realtime",
				   config_origin(c, CFG_GRID_CLOCK, o1, sizeof(o1)));
			return -1;
		}
	}
	if (!start[0])
		return 0;
	if (clocksync_parse_time(start, &at, why, sizeof(why)) < 0) {
		msgbuf_set(err, errlen, "%s: grid.start %s", config_origin(c, CFG_GRID_START, o1,
			   sizeof(o1)), why);
		return -1;
	}
	now = clock_now_ns(grid_clockid(clk));
	if (at < now + GRIDRUN_START_MIN_AHEAD_NS || at > now + GRIDRUN_START_MAX_AHEAD_NS) {
		char t1[48], t2[48];

		msgbuf_set(err, errlen, "%s: grid.start %s is %s: it must be between 200 ms and "
			   "24 h ahead (%s is now on %s)", config_origin(c, CFG_GRID_START, o1,
			   sizeof(o1)), clocksync_format_time(at, t1, sizeof(t1)),
			   at < now + GRIDRUN_START_MIN_AHEAD_NS ? "past or too close" : "too far",
			   clocksync_format_time(now, t2, sizeof(t2)), config_str(c, CFG_GRID_CLOCK));
		return -1;
	}
	return 0;
}

struct gridrun *gridrun_open(const struct config *c, char *err, size_t errlen)
{
	int clk = config_choice(c, CFG_GRID_CLOCK);
	struct gridrun *g;
	char why[256];

	if (clk == GRID_CLOCK_MONOTONIC) {
		errno = EINVAL;
		msgbuf_set(err, errlen, "grid.clock is monotonic: there is no shared grid");
		return NULL;
	}
	g = calloc(1, sizeof(*g));
	if (!g) {
		msgbuf_set(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	if (config_str(c, CFG_GRID_START)[0] &&
	    clocksync_parse_time(config_str(c, CFG_GRID_START), &g->at_ns, why, sizeof(why)) < 0) {
		msgbuf_set(err, errlen, "grid.start %s", why);	/* gridrun_check said where */
		free(g);
		errno = EINVAL;
		return NULL;
	}
	g->g.clock = config_str(c, CFG_GRID_CLOCK);
	g->g.align_ns = g->at_ns ? 0 : (uint64_t)config_int(c, CFG_GRID_ALIGN);
	/* The watch first: a step after the offset's read is then always seen. */
	g->w = clockwatch_open(grid_clockid(clk), err, errlen);
	if (!g->w) {
		free(g);
		return NULL;
	}
	g->g.offset_ns = clockwatch_offset(g->w, &g->g.offset_uncert_ns);
	g->g.sync_known = clocksync_read(&g->g.sync) == 0;
	return g;
}

void gridrun_close(struct gridrun *g)
{
	if (!g)
		return;
	clockwatch_close(g->w);
	free(g);
}

int gridrun_place(struct gridrun *g, uint64_t lead_ns, uint64_t *start_mono_ns, char *err,
		  size_t errlen)
{
	uint64_t earliest = clock_mono_ns() + (uint64_t)g->g.offset_ns + lead_ns;
	uint64_t slot0 = g->at_ns ? g->at_ns : clocksync_grid_next(earliest, g->g.align_ns);

	if (slot0 < earliest) {
		char t[48];

		msgbuf_set(err, errlen, "grid.start %s came before the run was ready (its set-up "
			   "ends %llu ms before slot 0 at the latest): start later",
			   clocksync_format_time(slot0, t, sizeof(t)),
			   (unsigned long long)(lead_ns / 1000000));
		return -1;
	}
	g->g.start_ns = slot0;
	*start_mono_ns = slot0 - (uint64_t)g->g.offset_ns;
	return 0;
}

const struct run_grid *gridrun_info(const struct gridrun *g)
{
	return &g->g;
}

void gridrun_dump_meta(const struct gridrun *g, FILE *f)
{
	const struct clocksync_state *st = &g->g.sync;

	fprintf(f, EDGELOG_META_GRID_SLOT0 "=%" PRIu64 "\n", g->g.start_ns);
	fprintf(f, EDGELOG_META_GRID_OFFSET "=%" PRId64 "\n", g->g.offset_ns);
	fprintf(f, EDGELOG_META_GRID_UNCERT "=%" PRIu64 "\n", g->g.offset_uncert_ns);
	if (!g->g.sync_known)
		return;
	fprintf(f, EDGELOG_META_CLOCK_SYNCED "=%s\n", st->synced ? "yes" : "no");
	fprintf(f, EDGELOG_META_CLOCK_STATE "=%s\n", clocksync_state_name(st->state));
	fprintf(f, EDGELOG_META_CLOCK_STATUS "=0x%04x\n", (unsigned)st->status);
	fprintf(f, EDGELOG_META_CLOCK_MAXERR "=%ld\n", st->maxerror_us);
	fprintf(f, EDGELOG_META_CLOCK_ESTERR "=%ld\n", st->esterror_us);
	fprintf(f, EDGELOG_META_CLOCK_TAI "=%d\n", st->tai_s);
}

int gridrun_fd(const struct gridrun *g)
{
	return clockwatch_fd(g->w);
}

int gridrun_event_text(const struct clockwatch_step *st, char *buf, size_t len)
{
	return snprintf(buf, len, "source=%s\nmoved=%s\ndelta_ns=%" PRId64 "\noffset_ns=%" PRId64
			"\nuncertainty_ns=%" PRIu64 "\n", st->notified ? "kernel" : "end",
			st->moved ? "yes" : "no", st->delta_ns, st->offset_ns, st->uncert_ns);
}

static void log_step(struct recorder *rec, const struct clockwatch_step *st)
{
	char text[256];
	int n = gridrun_event_text(st, text, sizeof(text));

	if (rec && n > 0)
		recorder_event(rec, st->mono_ns, EDGELOG_EV_CLOCK, text, (size_t)n);
}

int gridrun_poll(struct gridrun *g, struct recorder *rec, struct clockwatch_step *step)
{
	int got = clockwatch_read(g->w, step);

	if (got <= 0)
		return got;
	log_step(rec, step);
	return step->moved;
}

const struct run_grid *gridrun_finish(struct gridrun *g, struct recorder *rec,
				      struct clockwatch_step *step, int *stepped)
{
	struct clockwatch_step set, end;

	/* A set not yet read is the kernel's notice; the end's own read is
	 * logged too, so that the log tells its reader the clock was read
	 * again and where it was. */
	*stepped = 0;
	if (clockwatch_read(g->w, &set) == 1) {
		log_step(rec, &set);
		if (set.moved) {
			*step = set;
			*stepped = 1;
		}
	}
	clockwatch_end(g->w, &end);
	log_step(rec, &end);
	if (end.moved) {
		*step = end;
		*stepped = 1;
	}
	clockwatch_result(g->w, &g->g);
	return &g->g;
}
