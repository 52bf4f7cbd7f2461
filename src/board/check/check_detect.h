/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which board file describes this machine: its device-tree compatible
 * strings and DMI names against the board files' match keys. */
#ifndef SQW_CHECK_DETECT_H
#define SQW_CHECK_DETECT_H

#include <stdbool.h>
#include <stddef.h>

struct config;

#define DETECT_MAX_COMPAT 16

/* This machine, as `sqwave boards detect` sees it ("" where absent). */
struct detect_machine {
	char compatible[DETECT_MAX_COMPAT][128]; /* device tree, most specific first */
	int ncompatible;
	char model[128];                         /* device-tree model */
	char dmi_board[128];                     /* /sys/class/dmi/id/board_name */
	char dmi_product[128];                   /* /sys/class/dmi/id/product_name */
	char dmi_vendor[128];                    /* /sys/class/dmi/id/sys_vendor */
};

/* Read under @root (proc/device-tree or sys/firmware/devicetree/base, and
 * sys/class/dmi/id). Never fails: what is absent stays empty. */
void detect_machine_read(const char *root, struct detect_machine *m);

/* Whether anything was found to match on. */
bool detect_machine_known(const struct detect_machine *m);

/*
 * How well the board file loaded in @board (its match.* keys) fits @m: 0 not
 * at all; otherwise higher is better. A device-tree compatible scores by its
 * place in the machine's list (the board's own string before the SoC's),
 * above a DMI board name, above a DMI product name. @why gets what matched
 * ("compatible \"st,stm32mp135f-dk\"").
 */
int detect_board_score(const struct config *board, const struct detect_machine *m, char *why,
		       size_t len);

#endif
