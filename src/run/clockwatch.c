/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The grid clock's steps: the kernel's cancel-on-set notice and the offset. */
#include "run/clockwatch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/clocksync.h"

struct clockwatch {
	clockid_t clk;
	int fd;
	int64_t offset0, offset;  /* at open; the latest read */
	uint64_t uncert0, uncert;
	unsigned sets, steps;
	int64_t sum, largest;
	uint64_t first;
	bool end_known;
	int64_t end_offset;
};

bool clockwatch_moved(int64_t was, uint64_t was_uncert, int64_t now, uint64_t now_uncert,
		      int64_t *delta)
{
	uint64_t tol = was_uncert + now_uncert + CLOCKWATCH_SLACK_NS;
	uint64_t mag;

	*delta = now - was;
	mag = *delta < 0 ? (uint64_t)0 - (uint64_t)*delta : (uint64_t)*delta;
	return mag > tol;
}

/* Far in the future, absolute, cancelled by any set of the clock. The
 * timer never fires: only the cancel matters. */
static int arm(int fd)
{
	struct itimerspec its = { .it_value = { .tv_sec = (time_t)(clock_now_ns(CLOCK_REALTIME) /
						 1000000000ull) + 1000000000 } };

	return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &its, NULL);
}

struct clockwatch *clockwatch_open(clockid_t clk, char *err, size_t errlen)
{
	struct clockwatch *w = calloc(1, sizeof(*w));

	if (!w) {
		snprintf(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	w->clk = clk;
	w->fd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
	if (w->fd < 0 || arm(w->fd) < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot watch the clock for steps (timerfd, "
			 "TFD_TIMER_CANCEL_ON_SET): %s", strerror(e));
		clockwatch_close(w);
		errno = e;
		return NULL;
	}
	clocksync_offset(clk, &w->offset0, &w->uncert0);
	w->offset = w->offset0;
	w->uncert = w->uncert0;
	return w;
}

void clockwatch_close(struct clockwatch *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	free(w);
}

int64_t clockwatch_offset(const struct clockwatch *w, uint64_t *uncert_ns)
{
	*uncert_ns = w->uncert0;
	return w->offset0;
}

int clockwatch_fd(const struct clockwatch *w)
{
	return w->fd;
}

/* Read the offset again into *@out; a step since the last read is counted. */
static void remeasure(struct clockwatch *w, bool notified, struct clockwatch_step *out)
{
	int64_t off, delta;
	uint64_t u;

	clocksync_offset(w->clk, &off, &u);
	*out = (struct clockwatch_step){ .mono_ns = clock_mono_ns(), .offset_ns = off,
					 .uncert_ns = u, .notified = notified };
	out->moved = clockwatch_moved(w->offset, w->uncert, off, u, &delta);
	out->delta_ns = delta;
	if (!out->moved)
		return;
	w->offset = off;
	w->uncert = u;
	w->steps++;
	w->sum += delta;
	if (!w->first)
		w->first = out->mono_ns;
	/* magnitudes unsigned: -INT64_MIN has no int64 */
	if ((delta < 0 ? (uint64_t)0 - (uint64_t)delta : (uint64_t)delta) >
	    (w->largest < 0 ? (uint64_t)0 - (uint64_t)w->largest : (uint64_t)w->largest))
		w->largest = delta;
}

int clockwatch_read(struct clockwatch *w, struct clockwatch_step *out)
{
	uint64_t n;

	if (read(w->fd, &n, sizeof(n)) >= 0 || errno == EAGAIN)
		return 0;	/* not set (the far timer cannot have fired) */
	if (errno != ECANCELED)
		return -1;
	/* Set: re-arm first, so that a second set while we measure is seen. */
	w->sets++;
	if (arm(w->fd) < 0)
		return -1;
	remeasure(w, true, out);
	return 1;
}

int clockwatch_end(struct clockwatch *w, struct clockwatch_step *out)
{
	remeasure(w, false, out);
	w->end_known = true;
	w->end_offset = out->offset_ns;	/* as read, as the log's end event has it */
	return out->moved;
}

void clockwatch_result(const struct clockwatch *w, struct run_grid *g)
{
	g->sets = w->sets;
	g->steps = w->steps;
	g->step_sum_ns = w->sum;
	g->step_largest_ns = w->largest;
	g->step_first_ns = w->first;
	g->end_known = w->end_known;
	g->end_offset_ns = w->end_offset;
}
