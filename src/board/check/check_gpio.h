/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The GPIO checks of `sqwave check`: the output line step by step, what a
 * write costs, the board file's unverified facts, and the loopback wire. */
#ifndef SQW_CHECK_GPIO_H
#define SQW_CHECK_GPIO_H

#include <stdbool.h>
#include <stdint.h>

#include "check/check.h"

struct config;

struct check_gpio_params {
	const struct config *cfg;  /* gpio.*, loopback.*, sim.*, run.half_period, rt.*, board.* */
	const char *root;          /* where sysfs says which bus a chip sits on ("/") */
	bool tree;                 /* root is a copied tree: the chips that could be
				    * opened are this machine's, not the tree's board,
				    * so a real backend's checks are SKIP */
	bool timed;                /* the parts that toggle the pin (not in --preflight) */
	unsigned int probe_writes; /* writes for the write-cost probe */
	unsigned int loop_edges;   /* edges for the loopback test (even) */
};

/* The write-cost rule: FAIL when the p99 write takes the half period or
 * more (the pin cannot keep up), WARN for a chip whose writes sleep (behind
 * I2C, SPI or USB) or a p99 above a tenth of the half period, else PASS. */
enum check_status check_gpio_write_verdict(int64_t p99_ns, int64_t half_ns, bool sleeping);

/* gpio.chip, gpio.line, gpio.busy, gpio.request, and (timed) gpio.write_cost. */
void check_gpio_output(struct check_report *r, const struct check_gpio_params *p);

/* facts.board, facts.gpio, facts.loopback: a WARN for each board-file fact
 * marked inferred or unknown, saying what to check on the bench. */
void check_gpio_facts(struct check_report *r, const struct check_gpio_params *p);

/* loopback.line, and (timed) loopback.wired, loopback.latency,
 * loopback.events: the board file's loopback input against the output. */
void check_gpio_loopback(struct check_report *r, const struct check_gpio_params *p);

#endif
