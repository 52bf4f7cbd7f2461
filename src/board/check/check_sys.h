/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The system checks of `sqwave check`: kernel and scheduler, CPU isolation,
 * power management, memory and process limits, each read from /proc and
 * /sys under one root directory so that tests give them fake trees. */
#ifndef SQW_CHECK_SYS_H
#define SQW_CHECK_SYS_H

#include <stdbool.h>
#include <stdint.h>

#include "check/check.h"

struct check_sys_params {
	const char *root;        /* "/" on a live system; a fake tree in tests */
	bool tree;               /* @root is a copied tree, not the running system
				  * (sysinfo_root_is_live()): what it lacks is
				  * unknown, not absent (SKIP), and its devices
				  * are not touched */
	int cpu;                 /* rt.cpu, -1: not pinned */
	int priority;            /* rt.priority */
	bool lock_memory;        /* rt.lock_memory */
	int dma_latency_us;      /* rt.dma_latency, -1: left alone */
	uint64_t ring_bytes;     /* run.ring_size x record size: locked by the run */
	int64_t half_period_ns;  /* run.half_period: what an idle exit is judged against */
	int64_t margin_ns;       /* the limits' margin around it (0: no limits set) */
	const char *idle_state;  /* rt.idle_state (NULL: keep) */
	bool idle_all_cpus;      /* rt.idle_cpus = all */
};

/* Every system check, in order, each adding its findings to @r. Nothing is
 * changed on the system, except that /dev/cpu_dma_latency is opened and
 * written as the run would, then closed at once. */
void check_sys_all(struct check_report *r, const struct check_sys_params *p);

/* What the checks read under a root: the machine the findings describe
 * ("" or 0 where the tree does not say). */
struct check_sys_host {
	char hostname[64];       /* proc/sys/kernel/hostname */
	char kernel[128];        /* proc/sys/kernel/osrelease */
	int ncpus;               /* sys/devices/system/cpu/online; 0: unknown */
};
void check_sys_host_read(const char *root, struct check_sys_host *h);

/* One check by the id of its (first) finding ("power.governor"); for tests.
 * Returns 0, or -1 if there is no such check. */
int check_sys_one(struct check_report *r, const struct check_sys_params *p, const char *id);

/* ---- helpers shared with the other checks ---- */

/* @s is one or more decimal digits and nothing else (a /proc PID name). */
bool check_is_digits(const char *s);

/* A set of CPUs (0..1023), as the kernel's cpu lists write them. */
struct check_cpuset {
	uint64_t bits[16];
};

/* Parse "0-3,5,8-11" (also "all", and isolcpus' leading flags such as
 * "domain,managed_irq,2-3"); -1 on garbage. @ncpus bounds "all". */
int check_cpuset_parse(const char *s, int ncpus, struct check_cpuset *set);
bool check_cpuset_has(const struct check_cpuset *set, int cpu);
int check_cpuset_count(const struct check_cpuset *set);
/* Back to "0-3,5"; returns @buf. */
const char *check_cpuset_format(const struct check_cpuset *set, char *buf, size_t len);

/* The value of KEY= on the kernel command line @cmdline (the last one
 * counts, as in the kernel), into @buf; false if absent. */
bool check_cmdline_value(const char *cmdline, const char *key, char *buf, size_t len);

/* "I2C", "SPI", "USB" if sysfs under @root places gpiochip @name on such a
 * bus (its writes sleep), else NULL. */
const char *check_gpiochip_bus(const char *root, const char *name);

#endif
