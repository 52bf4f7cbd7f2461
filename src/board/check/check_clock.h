/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The clock-sync checks of `sqwave check`: the time daemons running, the
 * kernel's sync state and error bound, the TAI offset, and ptp4l's own view
 * (pmc), judged by whether the run puts its wave on a shared grid. */
#ifndef SQW_CHECK_CLOCK_H
#define SQW_CHECK_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "base/clocksync.h"
#include "check/check.h"

/* The kernel's "no estimate" (NTP_PHASE_LIMIT, 16 s): maxerror and esterror
 * start there and stay there until a daemon sets them. */
#define CLOCK_ERROR_UNKNOWN_US 16000000L

struct check_clock_params {
	const char *root;        /* "/" live; a fake tree in tests (proc/PID/comm) */
	bool tree;               /* @root is a copied tree: adjtimex and pmc would
				  * tell this machine's clock, not the tree's (SKIP) */
	int grid_clock;          /* grid.clock (enum grid_clock): monotonic makes
				  * every clock finding moot, never a FAIL */
	int64_t half_period_ns;  /* run.half_period: what an error is judged against */
	const struct clocksync_state *sync; /* NULL: adjtimex read live */
	const char *pmc;         /* linuxptp's pmc to run; NULL: looked up in PATH,
				  * then /usr/sbin and /sbin (tests: a script, or
				  * a path that does not exist) */
};

/*
 * The clock.daemon, clock.synced, clock.error, clock.tai and clock.ptp
 * findings into @r, in that order. Reads @root's proc/PID/comm and the
 * kernel's adjtimex state (nothing is changed); where ptp4l runs, runs
 * `pmc -u -b 0 'GET TIME_STATUS_NP'` for at most PMC_TIMEOUT_MS and kills it
 * after that. Main thread (it forks).
 */
void check_clock(struct check_report *r, const struct check_clock_params *p);

#define PMC_TIMEOUT_MS 2000

/* ptp4l's TIME_STATUS_NP, as pmc prints it. */
struct pmc_time_status {
	int64_t master_offset_ns;  /* the PTP clock's offset to its master */
	bool gm_present;           /* a grandmaster other than this clock */
	char gm_identity[64];      /* "001122.fffe.334455" ("" if not printed) */
};

enum pmc_parse {
	PMC_OK,                    /* a TIME_STATUS_NP response, both fields read */
	PMC_NO_REPLY,              /* no response (pmc prints "sending: ..." only) */
	PMC_ERROR_STATUS,          /* ptp4l answered MANAGEMENT_ERROR_STATUS */
	PMC_MALFORMED,             /* a response without master_offset or gmPresent */
};

/* Parse pmc's output (pmc.c's pmc_show(): "\t<port> seq N RESPONSE
 * MANAGEMENT TIME_STATUS_NP" then "\t\tmaster_offset N", ...,
 * "\t\tgmPresent true|false", "\t\tgmIdentity ID"). Pure. */
enum pmc_parse check_clock_parse_pmc(const char *text, struct pmc_time_status *ts);

#endif
