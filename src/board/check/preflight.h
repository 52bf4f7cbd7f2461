/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The checks of `sqwave check` in the order an engineer works through them,
 * the header that says what was checked, and `run --preflight`: the same
 * checks without the timed ones (nothing toggles the pin). */
#ifndef SQW_PREFLIGHT_H
#define SQW_PREFLIGHT_H

#include <stdbool.h>
#include <stdio.h>

#include "check/check.h"
#include "check/check_noise.h"
#include "config/config.h"

#define CHECK_WRITES 1000   /* writes of the write-cost probe, by default */
#define CHECK_EDGES 200     /* edges of the loopback test, by default */

/* Every check but the run into @r: the system's (read under @root), the
 * hardware noise, the output line, the board's facts, the loopback wire.
 * @timed: the write-cost probe and the loopback test may toggle the pin.
 * @noise: the hwlat run (its duration, threshold, result); NULL: not run
 * (the tracer's presence and the SMI count are still said). */
void check_collect_all(struct check_report *r, const struct config *c, const char *root,
		       bool timed, unsigned int edges, unsigned int writes,
		       const struct check_noise_params *noise);

/* What was checked, to @f: the machine @root shows (the running one, or a
 * copied tree's, never this host's name over a tree's findings). Paths ""
 * when none. */
void check_print_header(FILE *f, const struct config *c, const char *board_path,
			const char *profile_path, const char *root);

/* `run --preflight`: header, findings and a last "preflight" line to @out.
 * Returns 0 no FAIL, 1 a FAIL, 3 could not check. @profile_path NULL: none. */
int check_preflight(FILE *out, const struct config *c, const char *board_path,
		    const char *profile_path);

#endif
