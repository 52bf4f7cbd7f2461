/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A USB device's host controller interrupts and where they may run, from
 * sysfs and /proc/irq (docs/instruments.md, "An analyzer on the board
 * under test"). */
#include "instrument/usbirq.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpulist.h"

/* The first line of ROOT/PATH into @buf; 0, or -1 when unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int irq_cpus(const char *root, int irq, cpu_set_t *set)
{
	static const char *const names[] = { "effective_affinity_list", "smp_affinity_list" };
	char path[PATH_MAX], line[256], err[128];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/proc/irq/%d/%s", root, irq, names[i]);
		if (read_line(path, line, sizeof(line)) == 0 && line[0] &&
		    cpulist_parse(line, set, err, sizeof(err)) == 0 && CPU_COUNT(set) > 0)
			return 0;
	}
	return -1;
}

/* In ascending order (readdir's is the directory's), so that the first
 * one named is the same every time. */
static void add_irq(const char *root, struct usbirq *u, long irq)
{
	cpu_set_t set;
	unsigned at;

	if (u->n == USBIRQ_MAX || irq <= 0 || irq >= INT_MAX || irq_cpus(root, (int)irq, &set) < 0)
		return;
	for (at = u->n; at > 0 && u->irq[at - 1] > irq; at--) {
		u->irq[at] = u->irq[at - 1];
		u->cpus[at] = u->cpus[at - 1];
	}
	u->irq[at] = (int)irq;
	u->cpus[at] = set;
	u->n++;
}

int usbirq_find(const char *root, const char *connid, struct usbirq *u)
{
	char path[PATH_MAX], real[PATH_MAX], line[64], *end, *slash;
	const char *p = connid;
	long bus, irq;
	DIR *d;
	struct dirent *e;

	memset(u, 0, sizeof(*u));
	/* libsigrok's USB connection ids are BUS-PORT[.PORT...] */
	if (!p || !isdigit((unsigned char)*p))
		return 0;
	bus = strtol(p, &end, 10);
	if (*end != '-' || !isdigit((unsigned char)end[1]) || strspn(end + 1, "0123456789.") != strlen(end + 1))
		return 0;
	snprintf(path, sizeof(path), "%s/sys/bus/usb/devices/usb%ld/..", root, bus);
	if (!realpath(path, real))
		return 0;
	slash = strrchr(real, '/');
	/* a name or path too long for the buffers: cannot tell */
	if (snprintf(u->controller, sizeof(u->controller), "%s", slash ? slash + 1 : real) >=
	    (int)sizeof(u->controller) || snprintf(path, sizeof(path), "%s/msi_irqs", real) >= (int)sizeof(path))
		return 0;
	d = opendir(path);
	if (d) {
		while ((e = readdir(d)) != NULL) {
			irq = strtol(e->d_name, &end, 10);
			if (isdigit((unsigned char)e->d_name[0]) && !*end)
				add_irq(root, u, irq);
		}
		closedir(d);
	}
	if (!u->n) {
		if (snprintf(path, sizeof(path), "%s/irq", real) < (int)sizeof(path) &&
		    read_line(path, line, sizeof(line)) == 0) {
			irq = strtol(line, &end, 10);
			if (!*end)
				add_irq(root, u, irq);
		}
	}
	return u->n > 0;
}

unsigned usbirq_outside(const struct usbirq *u, const cpu_set_t *cpus, char *msg, size_t msglen)
{
	unsigned out = 0;

	if (msglen)
		msg[0] = '\0';
	for (unsigned i = 0; i < u->n; i++) {
		cpu_set_t extra;
		char where[64], keep[64];

		CPU_XOR(&extra, &u->cpus[i], cpus);
		CPU_AND(&extra, &extra, &u->cpus[i]);
		if (!CPU_COUNT(&extra))
			continue;
		if (!out++)
			snprintf(msg, msglen, "the analyzer's USB host controller (%s) has interrupt %d "
				 "allowed on CPU %s, outside --cpu %s: it runs there whatever --cpu says "
				 "(as root: echo %s > /proc/irq/%d/smp_affinity_list; "
				 "docs/instruments.md)", u->controller, u->irq[i],
				 cpulist_format(&u->cpus[i], where, sizeof(where)),
				 cpulist_format(cpus, keep, sizeof(keep)), keep, u->irq[i]);
	}
	return out;
}
