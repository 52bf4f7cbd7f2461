/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Facts about the host for logs and summaries: kernel, PREEMPT_RT, command
 * line, CPU model. */
#ifndef SQW_SYSINFO_H
#define SQW_SYSINFO_H

#include <stdbool.h>

struct sysinfo_host {
	char hostname[64];
	char kernel_release[128];
	char kernel_version[256];
	char machine[32];
	bool preempt_rt;            /* /sys/kernel/realtime == 1 or "PREEMPT_RT" in version */
	char cmdline[1024];         /* /proc/cmdline */
	char cpu_model[128];
	int ncpus;
};

/* Fill @h; fields that cannot be read are left empty. Never fails. */
void sysinfo_host_read(struct sysinfo_host *h);

#endif
