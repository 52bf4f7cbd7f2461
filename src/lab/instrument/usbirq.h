/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The interrupts of the USB host controller an analyzer hangs on, and the
 * CPUs they are allowed on: what capture --cpu cannot move. */
#ifndef SQW_USBIRQ_H
#define SQW_USBIRQ_H

#include <sched.h>
#include <stddef.h>

#define USBIRQ_MAX 8

struct usbirq {
	char controller[64];       /* the controller's device ("0000:00:14.0") */
	unsigned n;                /* interrupts found (at most USBIRQ_MAX) */
	int irq[USBIRQ_MAX];
	cpu_set_t cpus[USBIRQ_MAX]; /* effective_affinity_list, else smp_affinity_list */
};

/*
 * Find the host controller of the USB device libsigrok calls @connid
 * ("3-1.2": bus 3, ports 1.2) through ROOT/sys/bus/usb/devices/usbBUS,
 * and its interrupts: the controller's msi_irqs/ entries, else its irq
 * file (PCI), each with the CPUs ROOT/proc/irq/N says it may run on.
 * @root: "" for this system, a directory in tests. 1 when found; 0 when
 * @connid is not a USB device's or the interrupts cannot be told (a
 * controller that is not PCI shows none in sysfs). Any thread; reads
 * files, allocates nothing.
 */
int usbirq_find(const char *root, const char *connid, struct usbirq *u);

/* How many of @u's interrupts may run on a CPU outside @cpus (the CPUs
 * the capture keeps to), with a sentence naming the first such and how
 * to move it into @msg. 0 leaves @msg empty. */
unsigned usbirq_outside(const struct usbirq *u, const cpu_set_t *cpus, char *msg, size_t msglen);

#endif
