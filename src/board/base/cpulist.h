/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU lists as the kernel writes them ("0-3,6"): parse and format. */
#ifndef SQW_CPULIST_H
#define SQW_CPULIST_H

#include <sched.h>
#include <stdbool.h>
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

/* Keep the calling thread, and every thread it starts from now on, on the
 * CPUs of @text ("0", "2-3"): parse, refuse the empty set and a CPU this
 * process may not use (absent, offline or outside its cpuset), then
 * sched_setaffinity(). Call it before any other thread starts to place the
 * whole process. @got: the affinity in effect afterwards, read back with
 * sched_getaffinity(). 0; -1 with a sentence in @err and *@usage true when
 * @text was wrong, false when the kernel refused. Any thread; no allocation. */
int cpulist_thread_pin(const char *text, cpu_set_t *got, bool *usage, char *err, size_t errlen);

#endif
