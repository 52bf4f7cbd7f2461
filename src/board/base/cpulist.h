/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU lists as the kernel writes them ("0-3,6"): parse and format. */
#ifndef SQW_CPULIST_H
#define SQW_CPULIST_H

#include <sched.h>
#include <stddef.h>

/* Parse @text ("0,2-3"; blanks around items allowed; "" is the empty set)
 * into @set. 0, or -1 with a reason in @err (a CPU >= CPU_SETSIZE, a
 * descending range, garbage). */
int cpulist_parse(const char *text, cpu_set_t *set, char *err, size_t errlen);

/* "0,2-3" (empty string for the empty set) into @buf; returns @buf. */
const char *cpulist_format(const cpu_set_t *set, char *buf, size_t len);

/* The CPUs that are online (sched_getaffinity of this process, which is
 * what its threads and children may use). */
void cpulist_online(cpu_set_t *set);

#endif
