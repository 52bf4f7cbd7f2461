/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The GPIO checks of `sqwave check`: each step of getting the output line
 * (chip, line, busy, request), what one write costs, the board file's
 * unverified facts, and the loopback test through the RT loop itself. */
#include "check/check_gpio.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/check_sys.h"
#include "config/config.h"
#include "config/outputs.h"
#include "rt/edge.h"
#include "gpio/gpio_in.h"
#include "gpio/gpio_lookup.h"
#include "gpio/gpio_out.h"
#include "run/loopback.h"
#include "rt/ring.h"
#include "rt/rtloop.h"
#include "rt/rtsetup.h"
#include "base/clock.h"
#include "base/units.h"

#define PERMISSION_FIX "run as root, or give the user access to /dev/gpiochip*: the " \
	"group that owns them (often \"gpio\"), or a udev rule SUBSYSTEM==\"gpio\", " \
	"KERNEL==\"gpiochip*\", GROUP=\"gpio\", MODE=\"0660\""
#define LOOP_STACK (256u * 1024u)
#define LOOP_LEAD_NS 20000000ll

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The bus a chip sits on, if its writes sleep: from sysfs, or a USB
 * adapter's label. NULL for the simulated chip and for SoC banks. */
static const char *chip_bus(const struct check_gpio_params *p, const struct gpio_chip_desc *cd)
{
	const char *bus;

	if (config_choice(p->cfg, CFG_GPIO_BACKEND) == GPIO_BACKEND_SIM)
		return NULL;
	bus = check_gpiochip_bus(p->root, cd->name);
	if (bus)
		return bus;
	if (strstr(cd->label, "cp2112") || strstr(cd->label, "ftdi"))
		return "USB";
	return NULL;
}

static void finding_for_lookup_failure(struct check_report *r, const char *id,
				       const char *err, int e)
{
	struct check_finding *f = check_add(r, CHECK_FAIL, id, "%s", err);

	if (e == EACCES || e == EPERM) {
		check_why(f, "permission denied on the GPIO character device: the run cannot "
			  "open it either");
		check_fix(f, PERMISSION_FIX);
	} else if (e == ENOTSUP) {
		check_fix(f, "rebuild with the libgpiod development files installed");
	} else {
		check_fix(f, "gpiodetect lists the chips (name [label] lines), gpioinfo CHIP "
			  "their lines; fix gpio.chip / gpio.line in the board file or pass "
			  "--chip / --line");
	}
}

enum check_status check_gpio_write_verdict(int64_t p99_ns, int64_t half_ns, bool sleeping)
{
	if (p99_ns >= half_ns)
		return CHECK_FAIL;
	if (sleeping || p99_ns * 10 > half_ns)
		return CHECK_WARN;
	return CHECK_PASS;
}

/* The write-cost probe: @n writes back to back, each timed between two clock
 * reads, as the RT loop times them. Leaves the line at its idle level. */
static void probe_writes(struct check_report *r, const struct check_gpio_params *p,
			 struct gpio_out *g, const char *id)
{
	int64_t half = config_int(p->cfg, CFG_RUN_HALF_PERIOD), *cost, t0, t1;
	unsigned int i, n = p->probe_writes & ~1u, failed = 0;
	int idle = (int)config_int(p->cfg, CFG_GPIO_IDLE_LEVEL);
	const char *bus = chip_bus(p, gpio_out_chip(g));
	struct check_finding *f;
	enum check_status st;
	int64_t p50, p99, max;

	if (n < 2)
		n = 2;
	cost = malloc(n * sizeof(*cost));
	if (!cost) {
		check_incomplete(r, "out of memory for the write probe");
		return;
	}
	for (i = 0; i < n; i++) {
		t0 = (int64_t)clock_mono_ns();
		if (gpio_out_set(g, (i & 1) ? idle : !idle))
			failed++;
		t1 = (int64_t)clock_mono_ns();
		cost[i] = t1 - t0;
	}
	qsort(cost, n, sizeof(*cost), cmp_i64);
	p50 = cost[(n - 1) / 2];
	p99 = cost[(size_t)((double)n * 0.99 + 0.999999) - 1];
	max = cost[n - 1];
	free(cost);
	if (failed) {
		f = check_add(r, CHECK_FAIL, id, "%u of %u writes failed", failed,
			      n);
		check_why(f, "the run logs every failed write, and the pin does not move");
		check_fix(f, "dmesg (the driver's complaint); try another pin");
		return;
	}
	st = check_gpio_write_verdict(p99, half, bus != NULL);
	f = check_add(r, st, id, "%u writes: p50/p99/max %s/%s/%s us%s%s%s", n,
		      UNITS_US(p50), UNITS_US(p99), UNITS_US(max), bus ? "; the chip is on " : "",
		      bus ? bus : "", bus ? " (its writes sleep)" : "");
	if (st == CHECK_FAIL) {
		check_why(f, "a write takes longer than the half period (%s us): the pin cannot "
			  "keep up, and every edge comes late", UNITS_US(half));
		check_fix(f, "a GPIO on the SoC's own banks (not an expander or a USB adapter), "
			  "or a longer --half-period");
	} else if (st == CHECK_WARN) {
		check_why(f, "%s", bus ? "a chip behind I2C, SPI or USB (an expander such as an "
			  "MCP23017, a CP2112 or FTDI adapter) makes each write a bus transfer "
			  "that sleeps: it costs far more than a SoC bank's register write, and "
			  "varies with the bus's traffic" :
			  "writes cost more than a tenth of the half period: they widen each "
			  "edge's write window, the uncertainty of every predicted pulse width");
		check_fix(f, "use a line on the SoC's own GPIO banks for the output");
	} else {
		check_why(f, "each edge's write window, the uncertainty of every predicted "
			  "width, is about this wide");
	}
}

/* Under a copied tree, the GPIO checks cannot be made: the chips this
 * process can open belong to the machine it runs on, not to the tree's
 * board (the simulated backend is nobody's machine, and is checked). True
 * if @id was skipped. */
static bool tree_skip(struct check_report *r, const struct check_gpio_params *p, const char *id)
{
	struct check_finding *f;

	if (!p->tree || config_choice(p->cfg, CFG_GPIO_BACKEND) == GPIO_BACKEND_SIM)
		return false;
	f = check_add(r, CHECK_SKIP, id, "not checked: --root %s is a copied tree, and the GPIO "
		      "chips this machine has are not its board's", p->root);
	check_fix(f, "run sqwave check on the board itself (without --root) for the GPIO and "
		  "loopback checks");
	return true;
}

/* One output line's checks, @line on gpio.chip; @sfx after each id ("" for
 * a run of one line, ".LINE" for one of several). False when the line must
 * never be driven (one of the board's inputs), true otherwise. */
static bool check_one_output(struct check_report *r, const struct check_gpio_params *p,
			     const char *line, const char *sfx)
{
	struct gpio_out_spec spec;
	char id_chip[40], id_line[40], id_busy[40], id_req[40];
	struct gpio_location loc;
	struct check_finding *f;
	char err[GPIO_MSG_MAX];
	struct gpio_out *g;
	int e;

	snprintf(id_chip, sizeof(id_chip), "gpio.chip%s", sfx);
	snprintf(id_line, sizeof(id_line), "gpio.line%s", sfx);
	snprintf(id_busy, sizeof(id_busy), "gpio.busy%s", sfx);
	snprintf(id_req, sizeof(id_req), "gpio.request%s", sfx);
	if (tree_skip(r, p, id_chip))
		return true;
	gpio_out_spec_from_config(p->cfg, &spec);
	spec.line = line;
	if (gpio_locate(spec.backend, spec.config, spec.chip, spec.line, &loc, err,
			sizeof(err))) {
		e = errno;
		if (loc.failed == GPIO_STEP_LINE) {
			check_add(r, CHECK_PASS, id_chip, "%s [%s], %u lines (found by %s)",
				  loc.chip.name, loc.chip.label, loc.chip.num_lines, loc.chip_how);
			finding_for_lookup_failure(r, id_line, err, e);
		} else {
			finding_for_lookup_failure(r, id_chip, err, e);
			check_add(r, CHECK_SKIP, id_line, "the chip was not found");
		}
		check_add(r, CHECK_SKIP, id_req, "the line was not found");
		return true;
	}
	f = check_add(r, CHECK_PASS, id_chip, "%s [%s], %u lines (found by %s)",
		      loc.chip.name, loc.chip.label, loc.chip.num_lines, loc.chip_how);
	if (!strcmp(loc.chip_how, "number") || !strcmp(loc.chip_how, "name"))
		check_why(f, "chip numbers change with probe order and kernel version; the "
			  "label (%s) does not", loc.chip.label);
	/* one of the board's inputs (loopback, respond's) is never driven, not
	 * even by the write probes */
	if (gpio_outputs_on_inputs(spec.backend, p->cfg, spec.chip, &line, 1, err,
				   sizeof(err)) == 1) {
		f = check_add(r, CHECK_FAIL, id_line, "%s", err);
		check_why(f, "an input wired to the output pin, or driven from outside, fights "
			  "any output on the same wire: the scope would see neither");
		check_fix(f, "another line for gpio.line (the board file's free_lines)");
		check_add(r, CHECK_SKIP, id_req, "never driven: it is one of the board's inputs");
		return false;
	}
	if (loc.elsewhere[0]) {
		f = check_add(r, CHECK_WARN, id_line, "line %u \"%s\" on %s; a line of that "
			      "name is also on %s", loc.offset, loc.line.name, loc.chip.name,
			      loc.elsewhere);
		check_why(f, "line names are not unique across chips: the one on %s [%s] is "
			  "used because gpio.chip names it", loc.chip.name, loc.chip.label);
		check_fix(f, "give the offset to be unambiguous: --line %u", loc.offset);
	} else {
		check_add(r, CHECK_PASS, id_line, "line %u%s%s%s", loc.offset,
			  loc.line.name[0] ? " \"" : " (unnamed)", loc.line.name,
			  loc.line.name[0] ? "\"" : "");
	}
	if (loc.line.used) {
		gpio_msg_busy(err, sizeof(err), &loc.chip, loc.offset, &loc.line);
		f = check_add(r, CHECK_FAIL, id_busy, "%s", err);
		check_why(f, "the run cannot request a line another consumer holds");
		check_fix(f, "gpioinfo %s shows the holder; free the line (a kernel driver: "
			  "its device-tree node or an unbind; a process: stop it) or choose "
			  "another pin", loc.chip.label);
		check_add(r, CHECK_SKIP, id_req, "the line is busy");
		return true;
	}
	check_add(r, CHECK_PASS, id_busy, "unused");
	g = gpio_out_open(&spec, err, sizeof(err));
	if (!g) {
		e = errno;
		f = check_add(r, CHECK_FAIL, id_req, "%s", err);
		if (e == EACCES || e == EPERM)
			check_fix(f, PERMISSION_FIX);
		else if (e == EINVAL || e == EOPNOTSUPP)
			check_fix(f, "gpio.drive: push-pull (the driver refuses %s)",
				  gpio_drive_name(spec.drive));
		return true;
	}
	check_add(r, CHECK_PASS, id_req, "%s output%s at idle level %d (physical %s)",
		  gpio_drive_name(spec.drive), spec.active_low ? ", active-low," : "",
		  spec.idle_level, gpio_out_idle_value(g) ? "high" : "low");
	if (p->timed) {
		char id_cost[40];

		snprintf(id_cost, sizeof(id_cost), "gpio.write_cost%s", sfx);
		probe_writes(r, p, g, id_cost);
	}
	gpio_out_close(g);
	return true;
}

void check_gpio_output(struct check_report *r, const struct check_gpio_params *p)
{
	bool driven = true;
	struct outputs outs;
	char err[512], sfx[40];
	size_t i;

	if (outputs_resolve(p->cfg, &outs, err, sizeof(err)) < 0) {
		struct check_finding *f = check_add(r, CHECK_FAIL, "gpio.line", "%s", err);

		check_fix(f, "fix gpio.line (docs/lines.md)");
		return;
	}
	if (outs.n == 1) {
		check_one_output(r, p, outs.o[0].line, "");
		return;
	}
	/* several lines (docs/lines.md): each one's checks, ids ".LINE" */
	for (i = 0; i < outs.n; i++)
		driven = check_one_output(r, p, outs.o[i].line,
					  check_line_suffix(outs.o[i].line, sfx, sizeof(sfx))) &&
			 driven;
	if (!driven) {	/* a line that must not be driven is not requested with the others */
		check_add(r, CHECK_SKIP, "gpio.group", "not requested: a line above must not be "
			  "driven");
		return;
	}
	if (outs.mode == OUTPUTS_TOGETHER && !p->tree) {	/* one request for every line */
		struct gpio_out_spec spec;
		const char *lines[OUTPUTS_MAX];
		struct gpio_group *g;
		char gerr[GPIO_MSG_MAX];

		gpio_out_spec_from_config(p->cfg, &spec);
		for (i = 0; i < outs.n; i++)
			lines[i] = outs.o[i].line;
		g = gpio_group_open(&spec, lines, outs.n, gerr, sizeof(gerr));
		if (!g) {
			struct check_finding *f = check_add(r, CHECK_FAIL, "gpio.group", "%s", gerr);

			check_why(f, "run.outputs together writes every line through one request");
			check_fix(f, "lines of one chip, each free; or --outputs per-cpu");
			return;
		}
		check_add(r, CHECK_PASS, "gpio.group", "%zu lines requested together (one request, "
			  "one write per instant)", outs.n);
		gpio_group_close(g);
	}
}

void check_gpio_facts(struct check_report *r, const struct check_gpio_params *p)
{
	const struct config *c = p->cfg;
	char where[512], name[64];
	struct check_finding *f;
	bool any = false;

	if (config_source(c, CFG_BOARD_NAME) != CFG_SRC_BOARD) {
		check_add(r, CHECK_SKIP, "facts.board", "no board file");
		return;
	}
	if (config_choice(c, CFG_BOARD_CONFIDENCE) != 0) {
		f = check_add(r, CHECK_WARN, "facts.board", "the board file's facts are %s "
			      "(board.confidence, %s)", config_str(c, CFG_BOARD_CONFIDENCE),
			      config_origin(c, CFG_BOARD_CONFIDENCE, where, sizeof(where)));
		check_why(f, "what it says about this board (SoC, CPUs, notes) was not all "
			  "read in a source");
		check_fix(f, "read board.notes and check each fact against the board's "
			  "documentation; then board.confidence: verified");
		any = true;
	}
	if (config_choice(c, CFG_GPIO_CONFIDENCE) != 0) {
		f = check_add(r, CHECK_WARN, "facts.gpio", "gpio.chip \"%s\" and gpio.line \"%s\" "
			      "are %s (gpio.confidence, %s)", config_str(c, CFG_GPIO_CHIP),
			      config_str(c, CFG_GPIO_LINE), config_str(c, CFG_GPIO_CONFIDENCE),
			      config_origin(c, CFG_GPIO_CONFIDENCE, where, sizeof(where)));
		check_why(f, "a wrong pin toggles something else, or nothing you can probe");
		check_fix(f, "gpioinfo %s (the line must be unused), then a scope or the "
			  "loopback test on the header pin; then gpio.confidence: verified",
			  config_str(c, CFG_GPIO_CHIP));
		any = true;
	}
	if (config_str(c, CFG_LOOPBACK_CHIP)[0] && config_choice(c, CFG_LOOPBACK_CONFIDENCE)) {
		f = check_add(r, CHECK_WARN, "facts.loopback", "loopback.chip \"%s\" and "
			      "loopback.line \"%s\" are %s (%s)", config_str(c, CFG_LOOPBACK_CHIP),
			      config_str(c, CFG_LOOPBACK_LINE),
			      config_str(c, CFG_LOOPBACK_CONFIDENCE),
			      config_origin(c, CFG_LOOPBACK_CONFIDENCE, where, sizeof(where)));
		check_why(f, "a wire to the wrong header pin reads as \"not wired\"");
		check_fix(f, "gpioinfo %s, and the board's pinout; the loopback test below "
			  "confirms it once wired", config_str(c, CFG_LOOPBACK_CHIP));
		any = true;
	}
	if (!any)
		check_add(r, CHECK_PASS, "facts.board", "every fact of the board file is marked "
			  "verified (%s)", config_key_name(CFG_BOARD_CONFIDENCE, name, sizeof(name)));
}

/* ---- loopback ---------------------------------------------------------------------------- */

/* Lines of the loopback's chip (and the output's) that follow the output's
 * level: requested as inputs only if they are unused inputs already, so
 * nothing on the board changes direction. Into @buf; returns how many. */
static int probe_followers(const struct check_gpio_params *p, struct gpio_out *out,
			   const struct gpio_chip_desc *in_chip, unsigned int in_off,
			   char *buf, size_t len)
{
	enum gpio_backend be = (enum gpio_backend)config_choice(p->cfg, CFG_GPIO_BACKEND);
	const struct gpio_chip_desc *chips[2] = { in_chip, gpio_out_chip(out) };
	int idle = (int)config_int(p->cfg, CFG_GPIO_IDLE_LEVEL), phys0 = gpio_out_idle_value(out);
	struct timespec settle = { .tv_nsec = 2000000 };
	int found = 0, c;

	buf[0] = '\0';
	for (c = 0; c < 2; c++) {
		struct gpio_in *in[64] = { NULL };
		int v0[64], v1[64], v2[64], n, i;
		struct gpio_line_desc *lines;
		struct gpio_chip_desc cd;
		char err[GPIO_MSG_MAX];

		if (c == 1 && !strcmp(chips[0]->path, chips[1]->path))
			break;
		n = gpio_chip_lines(be, p->cfg, chips[c]->path, &cd, &lines, err, sizeof(err));
		if (n <= 0)
			continue;
		if (n > 64)
			n = 64;
		for (i = 0; i < n; i++) {
			struct gpio_in_spec s = {
				.backend = be, .chip = cd.path, .consumer = "sqwave-probe",
				.config = p->cfg,
			};
			char off[16];

			if (lines[i].used || lines[i].output ||
			    (c == 0 && (unsigned int)i == in_off))
				continue;
			snprintf(off, sizeof(off), "%d", i);
			s.line = off;
			in[i] = gpio_in_open(&s, err, sizeof(err));
			v0[i] = in[i] ? gpio_in_get(in[i]) : -1;
		}
		gpio_out_set(out, !idle);
		nanosleep(&settle, NULL);
		for (i = 0; i < n; i++)
			v1[i] = in[i] ? gpio_in_get(in[i]) : -1;
		gpio_out_set(out, idle);
		nanosleep(&settle, NULL);
		for (i = 0; i < n; i++) {
			v2[i] = in[i] ? gpio_in_get(in[i]) : -1;
			if (in[i] && v0[i] == phys0 && v1[i] == !phys0 && v2[i] == phys0) {
				size_t used = strlen(buf);

				snprintf(buf + used, len - used, "%s%s [%s] line %d%s%s%s",
					 found++ ? ", " : "", cd.name, cd.label, i,
					 lines[i].name[0] ? " \"" : "", lines[i].name,
					 lines[i].name[0] ? "\"" : "");
			}
			gpio_in_close(in[i]);
		}
		free(lines);
	}
	return found;
}

/* Toggle the output @n times at the half period through the RT loop itself,
 * and collect the input's events meanwhile. Fills *@w (malloc'ed) and *@ev
 * (malloc'ed); returns 0 or -1 with @err. */
static int toggle_and_listen(const struct check_gpio_params *p, struct gpio_out *out,
			     struct gpio_in *in, unsigned int n, struct loopback_write **w,
			     size_t *nw, struct gpio_in_event **ev, size_t *ne, char *err,
			     size_t errlen)
{
	struct rtsetup rs = { .dma_fd = -1 };
	struct rtloop loop = { .tfd = -1 };
	struct ring ring = { 0 };
	struct edge_rec *recs = NULL;
	int64_t half = config_int(p->cfg, CFG_RUN_HALF_PERIOD), deadline;
	size_t cap = 4 * (size_t)n + 64, i, nr;
	int active_low = config_bool(p->cfg, CFG_GPIO_ACTIVE_LOW), ret = -1, e;
	pthread_t tid;

	*w = NULL;
	*ev = NULL;
	*nw = *ne = 0;
	if (ring_init(&ring, n + 64) || !(recs = calloc(n + 64, sizeof(*recs))) ||
	    !(*ev = calloc(cap, sizeof(**ev))) || !(*w = calloc(n + 64, sizeof(**w)))) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	loop.gpio = out;
	loop.ring = &ring;
	loop.clock = CLOCK_MONOTONIC;
	loop.half_ns = half;
	loop.total_slots = n;
	loop.idle_level = (int)config_int(p->cfg, CFG_GPIO_IDLE_LEVEL);
	loop.stack_prefault = LOOP_STACK / 2;
	if (rtloop_open(&loop)) {
		snprintf(err, errlen, "timerfd_create: %s", strerror(errno));
		goto out;
	}
	rs.p.cpu = (int)config_int(p->cfg, CFG_RT_CPU);
	rs.p.priority = (int)config_int(p->cfg, CFG_RT_PRIORITY);
	rs.p.stack_size = LOOP_STACK;
	e = rtsetup_thread_create(&rs, &tid, rtloop_thread, &loop, true);
	if (e) {
		snprintf(err, errlen, "cannot start the loop thread: %s", strerror(e));
		rtloop_close(&loop);
		goto out;
	}
	loop.start_ns = (uint64_t)((int64_t)clock_mono_ns() + LOOP_LEAD_NS);
	atomic_store_explicit(&loop.go, true, memory_order_release);
	/* Listen until the loop is done and a half period (at least 20 ms) has
	 * passed after its last slot: a late event is still seen. */
	deadline = (int64_t)loop.start_ns + (int64_t)n * half + (half > 20000000 ? half : 20000000);
	for (;;) {
		int64_t now = (int64_t)clock_mono_ns(), left = deadline - now;
		int got;

		if (left <= 0 && atomic_load(&loop.done))
			break;
		if (*ne == cap) {
			struct gpio_in_event drain[16];

			got = gpio_in_read(in, drain, 16, left > 10000000 ? 10000000 : left);
		} else {
			got = gpio_in_read(in, *ev + *ne, cap - *ne,
					   left > 10000000 ? 10000000 : left > 0 ? left : 0);
			if (got > 0)
				*ne += (size_t)got;
		}
		if (got < 0) {
			snprintf(err, errlen, "reading the input's events: %s", strerror(errno));
			atomic_store(&loop.stop_req, true);
			pthread_join(tid, NULL);
			rtloop_close(&loop);
			goto out;
		}
	}
	pthread_join(tid, NULL);
	rtloop_close(&loop);
	nr = ring_pop(&ring, recs, n + 64);
	for (i = 0; i < nr; i++) {
		if (recs[i].flags & EDGE_F_WRITE_ERR)
			continue;
		(*w)[*nw].seq = recs[i].seq;
		(*w)[*nw].begin_ns = edge_write_begin_ns(&recs[i]);
		(*w)[*nw].end_ns = edge_write_end_ns(&recs[i]);
		(*w)[*nw].value = recs[i].level ^ active_low;
		(*nw)++;
	}
	ret = 0;
out:
	if (ret) {
		free(*w);
		free(*ev);
		*w = NULL;
		*ev = NULL;
	}
	free(recs);
	ring_free(&ring);
	return ret;
}

static void report_loopback(struct check_report *r, const struct check_gpio_params *p,
			    const struct loopback_result *res, struct gpio_out *out,
			    struct gpio_in *in, int level0, bool has_seqno)
{
	const char *bus = chip_bus(p, gpio_in_chip(in));
	char followers[CHECK_TEXT / 2];
	uint64_t lost = res->missing > res->kernel_dropped ? res->missing - res->kernel_dropped : 0;
	struct check_finding *f;

	switch (res->verdict) {
	case LOOPBACK_NOT_WIRED:
		if (probe_followers(p, out, gpio_in_chip(in), gpio_in_offset(in), followers,
				    sizeof(followers))) {
			f = check_add(r, CHECK_FAIL, "loopback.wired", "wired to another line: "
				      "%s follows the output, the loopback input %s saw no event "
				      "for %zu edges", followers, gpio_in_describe(in), res->writes);
			check_fix(f, "move the wire to the loopback input's pin, or set "
				  "loopback.line to the line that follows");
		} else {
			f = check_add(r, CHECK_FAIL, "loopback.wired", "not wired: no event on %s "
				      "for %zu edges of %s", gpio_in_describe(in), res->writes,
				      gpio_out_describe(out));
			check_fix(f, "wire the output pin to the input pin (the board file's "
				  "comments name both), or correct the loopback section");
		}
		check_why(f, "the loopback input is the board's own scope on the pin: without "
			  "it, nothing shows that the pin moves");
		return;
	case LOOPBACK_OTHER_LINE:
		f = check_add(r, CHECK_FAIL, "loopback.wired", "wired to another line: the input "
			      "saw %zu events, but only %zu of %zu edges have one", res->events,
			      res->matched, res->writes);
		check_why(f, "the input follows some other signal, not this output");
		check_fix(f, "check the wiring against the board's pinout and the loopback "
			  "section");
		return;
	case LOOPBACK_LOST:
	case LOOPBACK_OK:
		break;
	}
	if (lost) {
		f = check_add(r, CHECK_FAIL, "loopback.wired", "%llu of %zu edges never reached "
			      "the input (first: edge %llu)", (unsigned long long)lost, res->writes,
			      (unsigned long long)res->first_missing_seq);
		check_why(f, "an edge the input does not see is a pulse too short for the "
			  "wire or the input, a loose contact, or a write that did not reach "
			  "the pin");
		check_fix(f, "check the wire and its contacts; compare with a scope");
	} else {
		check_add(r, CHECK_PASS, "loopback.wired", "%zu of %zu edges arrived on %s",
			  res->matched, res->writes, gpio_in_describe(in));
	}
	if (res->kernel_dropped || res->extra) {
		f = check_add(r, CHECK_WARN, "loopback.events", "%llu event%s dropped by the "
			      "kernel; %zu event%s without an edge",
			      (unsigned long long)res->kernel_dropped,
			      res->kernel_dropped == 1 ? "" : "s", res->extra,
			      res->extra == 1 ? "" : "s");
		check_why(f, "dropped: the kernel's event buffer overflowed before sqwave read "
			  "it (the sequence numbers skip). Without an edge: bounce, crosstalk, "
			  "or something else driving the line");
		check_fix(f, "a quiet system for the test; a short, direct wire");
	} else {
		check_add(r, CHECK_PASS, "loopback.events", "%s", has_seqno ?
			  "no event dropped (sequence numbers without gaps), none extra" :
			  "none extra (the libgpiod v1 API has no sequence numbers: drops "
			  "cannot be seen)");
	}
	if (res->matched) {
		f = check_add(r, bus ? CHECK_WARN : CHECK_PASS, "loopback.latency", "write to "
			      "event p50/p99/max: from write begin %s/%s/%s us, from write end "
			      "%s/%s/%s us", UNITS_US(res->from_begin_p50),
			      UNITS_US(res->from_begin_p99), UNITS_US(res->from_begin_max),
			      UNITS_US(res->from_end_p50), UNITS_US(res->from_end_p99),
			      UNITS_US(res->from_end_max));
		if (bus)
			check_why(f, "the input is on a %s chip: its timestamps are taken in a "
				  "thread after the bus transfer, not in the hard IRQ, so they "
				  "add that thread's scheduling", bus);
		else
			check_why(f, "the kernel stamps the event in its hard IRQ handler (also "
				  "on PREEMPT_RT): the interrupt path's delay after the pin moved");
	}
	if (res->matched && res->polarity_mismatch * 2 > res->matched)
		f = check_add(r, CHECK_WARN, "loopback.polarity", "the input's level runs "
			      "opposite to the output's (input %d at idle, output %d)", level0,
			      gpio_out_idle_value(out));
	else
		f = check_add(r, CHECK_PASS, "loopback.polarity", "the input follows the "
			      "output's level (polarity counted from the order of events)");
	check_why(f, "the kernel reads the level back in a thread, so the reported edge "
		  "type can be wrong for a fast pulse; the order of events is not");
}

void check_gpio_loopback(struct check_report *r, const struct check_gpio_params *p)
{
	const struct config *c = p->cfg;
	const char *ichip = config_str(c, CFG_LOOPBACK_CHIP), *iline = config_str(c, CFG_LOOPBACK_LINE);
	struct gpio_location oloc, iloc;
	struct loopback_write *w = NULL;
	struct gpio_in_event *ev = NULL;
	struct gpio_out_spec ospec;
	struct loopback_result res;
	struct check_finding *f;
	struct gpio_out *out;
	struct gpio_in *in;
	char err[GPIO_MSG_MAX], first[OUTPUTS_LINE_LEN];
	size_t nw, ne;
	int level0;

	if (!ichip[0] && !iline[0]) {
		f = check_add(r, CHECK_SKIP, "loopback.line", "no loopback input in the board "
			      "file");
		check_fix(f, "wire the output to a free input and name it in the board file "
			  "(loopback: chip: ..., line: ...) to check the pin end to end");
		return;
	}
	if (tree_skip(r, p, "loopback.line"))
		return;
	gpio_out_spec_from_config(c, &ospec);
	{	/* several lines: the loopback input is wired to the first */
		struct outputs outs;

		if (outputs_resolve(c, &outs, err, sizeof(err)) == 0 && outs.n > 1) {
			snprintf(first, sizeof(first), "%s", outs.o[0].line);
			ospec.line = first;
		}
	}
	if (!gpio_locate(ospec.backend, c, ospec.chip, ospec.line, &oloc, err, sizeof(err)) &&
	    !gpio_locate(ospec.backend, c, ichip, iline, &iloc, err, sizeof(err)) &&
	    !strcmp(oloc.chip.path, iloc.chip.path) && oloc.offset == iloc.offset) {
		f = check_add(r, CHECK_FAIL, "loopback.line", "the loopback input is the output "
			      "line itself (%s line %u)", oloc.chip.name, oloc.offset);
		check_fix(f, "loopback.line: the input pin the output is wired to");
		return;
	}
	in = loopback_input_open(c, err, sizeof(err));
	if (!in) {
		finding_for_lookup_failure(r, "loopback.line", err, errno);
		return;
	}
	check_add(r, CHECK_PASS, "loopback.line", "%s: input, edge events on both edges, "
		  "CLOCK_MONOTONIC, no debounce", gpio_in_describe(in));
	if (!p->timed) {
		gpio_in_close(in);
		return;
	}
	out = gpio_out_open(&ospec, err, sizeof(err));
	if (!out) {
		check_add(r, CHECK_SKIP, "loopback.wired", "the output cannot be requested (see "
			  "gpio.request)");
		gpio_in_close(in);
		return;
	}
	level0 = gpio_in_get(in);
	if (toggle_and_listen(p, out, in, p->loop_edges < 2 ? 2 : p->loop_edges & ~1u, &w, &nw,
			      &ev, &ne, err, sizeof(err))) {
		check_incomplete(r, "loopback test: %s", err);
	} else if (loopback_match(w, nw, ev, ne, level0, config_int(c, CFG_RUN_HALF_PERIOD),
				  &res)) {
		check_incomplete(r, "loopback test: out of memory");
	} else {
		report_loopback(r, p, &res, out, in, level0, gpio_in_has_seqno(in));
	}
	free(w);
	free(ev);
	gpio_out_close(out);
	gpio_in_close(in);
}
