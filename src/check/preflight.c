/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The checks in order, the header of what was checked, and the preflight
 * of `sqwave run`: the check modules driven as one list. */
#include "check/preflight.h"

#include <stdint.h>

#include "base/sysinfo.h"
#include "check/check_clock.h"
#include "check/check_gpio.h"
#include "check/check_noise.h"
#include "check/check_sys.h"
#include "config/outputs.h"
#include "gpio/gpio_out.h"
#include "rt/edge.h"

/* The shortest and longest nominal pulse width of the run's lines: each
 * line's wave (run.line_*, run.high, run.low, the half period); the half
 * period when the lines cannot be resolved (gpio.line says why itself). */
static void nominal_range(const struct config *c, int64_t *lo, int64_t *hi)
{
	struct outputs outs;
	char err[256];
	size_t i;

	*lo = *hi = config_int(c, CFG_RUN_HALF_PERIOD);
	if (outputs_resolve(c, &outs, err, sizeof(err)) < 0)
		return;
	*lo = INT64_MAX;
	*hi = 0;
	for (i = 0; i < outs.n; i++) {
		const struct wave *w = &outs.o[i].wave;
		int64_t a = w->high_ns < w->low_ns ? w->high_ns : w->low_ns;
		int64_t b = w->high_ns < w->low_ns ? w->low_ns : w->high_ns;

		*lo = a < *lo ? a : *lo;
		*hi = b > *hi ? b : *hi;
	}
}

/* How far a pulse may stray from its nominal before a limit fails it: the
 * smallest of limits.tmax over the longest nominal, the shortest nominal
 * over limits.tmin and limits.width_error (0: none set). */
static int64_t limits_margin(const struct config *c)
{
	int64_t lo, hi, m = 0;
	int64_t tmin = config_int(c, CFG_LIMITS_TMIN), tmax = config_int(c, CFG_LIMITS_TMAX);
	int64_t werr = config_int(c, CFG_LIMITS_WIDTH_ERROR);

	nominal_range(c, &lo, &hi);
	if (tmax > hi)
		m = tmax - hi;
	if (tmin > 0 && tmin < lo && (!m || lo - tmin < m))
		m = lo - tmin;
	if (werr > 0 && (!m || werr < m))
		m = werr;
	return m;
}

/* Every check but the run, in the order an engineer works through them. */
void check_collect_all(struct check_report *r, const struct config *c, const char *root,
		       bool timed, unsigned int edges, unsigned int writes,
		       const struct check_noise_params *noise)
{
	bool tree = !sysinfo_root_is_live(root);
	struct check_sys_params sp = {
		.root = root, .tree = tree,
		.cpu = (int)config_int(c, CFG_RT_CPU),
		.priority = (int)config_int(c, CFG_RT_PRIORITY),
		.lock_memory = config_bool(c, CFG_RT_LOCK_MEMORY),
		.dma_latency_us = (int)config_int(c, CFG_RT_DMA_LATENCY),
		.ring_bytes = (uint64_t)config_int(c, CFG_RUN_RING_SIZE) * sizeof(struct edge_rec),
		.half_period_ns = config_int(c, CFG_RUN_HALF_PERIOD),
		.margin_ns = limits_margin(c),
		.idle_state = config_str(c, CFG_RT_IDLE_STATE),
		.idle_all_cpus = config_choice(c, CFG_RT_IDLE_CPUS) == 1,
	};
	struct check_gpio_params gp = {
		.cfg = c, .root = root, .tree = tree, .timed = timed, .probe_writes = writes,
		.loop_edges = edges,
	};

	struct check_noise_params np = noise ? *noise : (struct check_noise_params){ 0 };

	check_sys_all(r, &sp);
	/* the hardware's own noise, after host.hypervisor (which it cites) */
	np.root = root;
	np.tree = tree;
	if (!np.threshold_ns)
		np.threshold_ns = NOISE_HWLAT_THRESHOLD_NS;
	nominal_range(c, &np.short_ns, &np.long_ns);
	np.tmin_ns = config_int(c, CFG_LIMITS_TMIN);
	np.tmax_ns = config_int(c, CFG_LIMITS_TMAX);
	np.width_error_ns = config_int(c, CFG_LIMITS_WIDTH_ERROR);
	np.wake_max_ns = config_int(c, CFG_LIMITS_WAKE_LATENCY_MAX);
	check_noise(r, &np);
	/* the clock, which a shared grid (grid.clock realtime or tai) relies on */
	check_clock(r, &(struct check_clock_params){
		.root = root, .tree = tree, .grid_clock = config_choice(c, CFG_GRID_CLOCK),
		.half_period_ns = config_int(c, CFG_RUN_HALF_PERIOD) });
	check_gpio_output(r, &gp);
	check_gpio_facts(r, &gp);
	check_gpio_loopback(r, &gp);
}

/* What was checked: the machine the root directory shows (the running
 * one, or a copied tree's), never this host's name over a tree's findings. */
void check_print_header(FILE *f, const struct config *c, const char *board_path,
			const char *profile_path, const char *root)
{
	struct check_sys_host h;
	bool tree = !sysinfo_root_is_live(root);

	check_sys_host_read(root, &h);
	fprintf(f, "sqwave check: board %s (%s)%s%s\n", config_str(c, CFG_BOARD_NAME),
		board_path[0] ? board_path : "--chip/--line", profile_path[0] ? ", profile " : "",
		profile_path);
	if (tree)
		fprintf(f, "root %s: a copied tree, read by the system checks; GPIO checks SKIP "
			"(this machine's chips are not its board's)\n", root);
	fprintf(f, "host %s, kernel %s, ", h.hostname[0] ? h.hostname : "unknown",
		h.kernel[0] ? h.kernel : "unknown");
	if (h.ncpus)
		fprintf(f, "%d CPU%s", h.ncpus, h.ncpus == 1 ? "" : "s");
	else
		fprintf(f, "CPUs unknown");
	if (tree)
		fprintf(f, " (from the tree)\n\n");
	else
		fprintf(f, ", GPIO %s\n\n", gpio_out_gpiod_api());
}

int check_preflight(FILE *out, const struct config *c, const char *board_path,
		    const char *profile_path)
{
	struct check_report r;
	int ret;

	check_report_init(&r);
	check_print_header(out, c, board_path, profile_path ? profile_path : "", "/");
	check_collect_all(&r, c, "/", false, CHECK_EDGES, CHECK_WRITES, NULL);
	check_print_text(out, &r, false, false);
	ret = check_exit_code(&r, false);
	fprintf(out, "preflight  %s\n", ret == 0 ? "ok" : ret == 1 ? "FAIL" : "incomplete");
	check_report_free(&r);
	return ret;
}

