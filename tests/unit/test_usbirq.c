/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for instrument/usbirq: a USB device's host controller and its
 * interrupts found through a sysfs and /proc tree built here as the kernel
 * lays them out, and an interrupt allowed outside capture --cpu named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "instrument/usbirq.h"

static char root[] = "/tmp/sqwave-usbirq-XXXXXX";

static void mkdirs(const char *rel)
{
	char path[PATH_MAX], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void link_to(const char *target, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

/* An xHCI on PCI with two MSI vectors (bus 3), an EHCI with a legacy
 * interrupt line (bus 1), and a platform controller with neither (bus 5),
 * as /sys and /proc/irq show them. */
static int tree_make(void **state)
{
	(void)state;
	if (!mkdtemp(root))
		return -1;
	mkdirs("sys/devices/pci0000:00/0000:00:14.0/usb3");
	mkdirs("sys/devices/pci0000:00/0000:00:14.0/msi_irqs");
	put("sys/devices/pci0000:00/0000:00:14.0/msi_irqs/125", "msix\n");
	put("sys/devices/pci0000:00/0000:00:14.0/msi_irqs/126", "msix\n");
	put("sys/devices/pci0000:00/0000:00:14.0/irq", "125\n");
	mkdirs("sys/devices/pci0000:00/0000:00:1d.0/usb1");
	put("sys/devices/pci0000:00/0000:00:1d.0/irq", "23\n");
	mkdirs("sys/devices/platform/soc/3f980000.usb/usb5");
	mkdirs("sys/bus/usb/devices");
	link_to("../../../devices/pci0000:00/0000:00:14.0/usb3", "sys/bus/usb/devices/usb3");
	link_to("../../../devices/pci0000:00/0000:00:1d.0/usb1", "sys/bus/usb/devices/usb1");
	link_to("../../../devices/platform/soc/3f980000.usb/usb5", "sys/bus/usb/devices/usb5");
	mkdirs("proc/irq/125");
	put("proc/irq/125/smp_affinity_list", "0-1\n");
	put("proc/irq/125/effective_affinity_list", "0\n");
	mkdirs("proc/irq/126");
	put("proc/irq/126/smp_affinity_list", "0-1\n");
	put("proc/irq/126/effective_affinity_list", "1\n");
	mkdirs("proc/irq/23");
	put("proc/irq/23/smp_affinity_list", "0-3\n");
	return 0;
}

static int tree_remove(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *cpus_of(const struct usbirq *u, int irq, char *buf, size_t len)
{
	for (unsigned i = 0; i < u->n; i++)
		if (u->irq[i] == irq)
			return cpulist_format(&u->cpus[i], buf, len);
	return "(not found)";
}

static void the_xhci_of_the_bus_and_where_each_vector_goes_are_found(void **state)
{
	struct usbirq u;
	char a[32];

	(void)state;
	assert_int_equal(usbirq_find(root, "3-1.2", &u), 1);
	assert_string_equal(u.controller, "0000:00:14.0");
	assert_int_equal(u.n, 2);	/* the MSI vectors, not the irq file beside them */
	assert_string_equal(cpus_of(&u, 125, a, sizeof(a)), "0");	/* effective, not allowed */
	assert_string_equal(cpus_of(&u, 126, a, sizeof(a)), "1");
}

static void a_legacy_line_is_read_from_the_irq_file(void **state)
{
	struct usbirq u;
	char a[32];

	(void)state;
	assert_int_equal(usbirq_find(root, "1-4", &u), 1);
	assert_string_equal(u.controller, "0000:00:1d.0");
	assert_int_equal(u.n, 1);
	assert_string_equal(cpus_of(&u, 23, a, sizeof(a)), "0-3");	/* no effective list: allowed */
}

static void what_cannot_be_told_is_not_guessed(void **state)
{
	static const char *const ids[] = { "5-1", "7-1", "/dev/ttyUSB0", "3.5", "3-", "3-1x", "", NULL };
	struct usbirq u;

	(void)state;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (usbirq_find(root, ids[i], &u) != 0)
			fail_msg("connection \"%s\": found %u interrupts", ids[i] ? ids[i] : "(null)", u.n);
}

static void an_interrupt_outside_the_capture_cpus_is_named_with_the_fix(void **state)
{
	struct usbirq u;
	cpu_set_t keep;
	char msg[512], err[64];

	(void)state;
	assert_int_equal(usbirq_find(root, "3-2", &u), 1);
	cpulist_parse("0", &keep, err, sizeof(err));
	assert_int_equal(usbirq_outside(&u, &keep, msg, sizeof(msg)), 1);
	if (!strstr(msg, "(0000:00:14.0) has interrupt 126 allowed on CPU 1, outside --cpu 0") ||
	    !strstr(msg, "echo 0 > /proc/irq/126/smp_affinity_list"))
		fail_msg("%s", msg);
	cpulist_parse("0-1", &keep, err, sizeof(err));
	assert_int_equal(usbirq_outside(&u, &keep, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
	cpulist_parse("2", &keep, err, sizeof(err));
	assert_int_equal(usbirq_outside(&u, &keep, msg, sizeof(msg)), 2);
	assert_non_null(strstr(msg, "interrupt 125 allowed on CPU 0, outside --cpu 2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_xhci_of_the_bus_and_where_each_vector_goes_are_found),
		cmocka_unit_test(a_legacy_line_is_read_from_the_irq_file),
		cmocka_unit_test(what_cannot_be_told_is_not_guessed),
		cmocka_unit_test(an_interrupt_outside_the_capture_cpus_is_named_with_the_fix),
	};

	return cmocka_run_group_tests_name("usbirq", tests, tree_make, tree_remove);
}
