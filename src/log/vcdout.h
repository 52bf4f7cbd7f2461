/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run log's wave as a VCD file, so PulseView or GTKWave overlay what sqwave
 * wrote with what a logic analyzer captured. */
#ifndef SQW_VCDOUT_H
#define SQW_VCDOUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct edgelog_reader;

/*
 * Write the rest of @r's records to @out as a VCD: one wire, "pin", at its
 * physical level (the logged logical level, inverted when the log's
 * gpio.active_low is true), starting at the idle level (gpio.idle_level) and
 * changing at each edge's write-window midpoint, the pin's most likely
 * moment; times in ns since the log's slot 0 (timescale 1 ns). Edges whose
 * write failed, and repeats of a level (after dropped records), change
 * nothing. @log_name goes into a comment. Returns the number of changes
 * written, or -1 with errno and one message in @err (a read error, a write
 * error). Prints nothing; @out stays open.
 */
int64_t vcdout_write_log(struct edgelog_reader *r, FILE *out, const char *log_name,
			 char *err, size_t errlen);

#endif
