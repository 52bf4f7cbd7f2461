/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The system checks of `sqwave check`: what the kernel, the scheduler, power
 * management and the process limits will do to a 500 us wave, read from
 * /proc and /sys under one root directory, each with why and how to fix. */
#include "check/check_sys.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check_detect.h"
#include "log/edge.h"
#include "base/gunzip.h"
#include "base/msgbuf.h"
#include "rt/cpuidle.h"
#include "rt/rtsetup.h"
#include "base/sysinfo.h"
#include "base/units.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)

/* What the run adds to the address space after mlockall (the RT and
 * recorder thread stacks, run/session.c) and a margin for the log writer. */
#define RUN_LOCKED_EXTRA (2 * 256 * KIB + 1 * MIB)
/* Tasks scanned at most for the RT-priority check. */
#define MAX_TASKS 65536

/* Facts read once and used by several checks. */
struct sysctx {
	const struct check_sys_params *p;
	char cmdline[4096];
	struct check_cpuset online;
	int ncpus;                    /* online CPUs */
	bool online_known;            /* read from sys/devices/system/cpu/online */
	int possible;                 /* highest possible CPU + 1 */
	struct check_cpuset isolated, nohz, rcu, irqaff;
	bool has_isolated, has_nohz, has_rcu, has_irqaff;
	char isolated_src[16], nohz_src[16], irqaff_src[32];
};

/* ---- cpu sets -------------------------------------------------------------------- */

static void cpuset_add(struct check_cpuset *s, int cpu)
{
	if (cpu >= 0 && cpu < 1024)
		s->bits[cpu / 64] |= 1ull << (cpu % 64);
}

bool check_cpuset_has(const struct check_cpuset *s, int cpu)
{
	return cpu >= 0 && cpu < 1024 && (s->bits[cpu / 64] >> (cpu % 64)) & 1;
}

int check_cpuset_count(const struct check_cpuset *s)
{
	int i, n = 0;

	for (i = 0; i < 16; i++)
		n += __builtin_popcountll(s->bits[i]);
	return n;
}

int check_cpuset_parse(const char *s, int ncpus, struct check_cpuset *set)
{
	const char *p = s;
	int i;

	memset(set, 0, sizeof(*set));
	while (*p == ' ')
		p++;
	/* isolcpus=[flag,...,]cpu-list: skip the flags (letters). */
	while (isalpha((unsigned char)*p)) {
		if (!strncmp(p, "all", 3) && (!p[3] || p[3] == ',' || isspace((unsigned char)p[3]))) {
			for (i = 0; i < ncpus && i < 1024; i++)
				cpuset_add(set, i);
			return 0;
		}
		while (*p && *p != ',')
			p++;
		if (*p == ',')
			p++;
	}
	while (*p && !isspace((unsigned char)*p)) {
		char *end;
		long a, b;

		if (!isdigit((unsigned char)*p))
			return -1;
		a = strtol(p, &end, 10);
		b = a;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -1;
			b = strtol(end + 1, &end, 10);
			if (*end == ':') /* "0-7:2/4" groups: take the range, conservatively */
				while (*end && *end != ',')
					end++;
		}
		if (a < 0 || b < a || b > 1023)
			return -1;
		for (i = (int)a; i <= (int)b; i++)
			cpuset_add(set, i);
		p = end;
		if (*p == ',')
			p++;
		else if (*p && !isspace((unsigned char)*p))
			return -1;
	}
	return 0;
}

const char *check_cpuset_format(const struct check_cpuset *s, char *buf, size_t len)
{
	struct msgbuf_out o;
	int i = 0, j;

	msgbuf_out_init(&o, buf, len);
	while (i < 1024 && !o.cut) {
		if (!check_cpuset_has(s, i)) {
			i++;
			continue;
		}
		for (j = i; j + 1 < 1024 && check_cpuset_has(s, j + 1); j++)
			;
		if (j > i)
			msgbuf_out_add(&o, "%s%d-%d", o.used ? "," : "", i, j);
		else
			msgbuf_out_add(&o, "%s%d", o.used ? "," : "", i);
		i = j + 1;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}

/* A hexadecimal CPU mask ("ff", "00000000,0000000f"), as in /proc/irq. */
static int cpuset_parse_mask(const char *s, struct check_cpuset *set)
{
	char digits[300];
	size_t n = 0, i;
	int bit = 0;

	memset(set, 0, sizeof(*set));
	for (; *s; s++) {
		if (isxdigit((unsigned char)*s) && n < sizeof(digits))
			digits[n++] = *s;
		else if (*s != ',' && !isspace((unsigned char)*s))
			return -1;
	}
	for (i = n; i-- > 0; bit += 4) {
		int v = isdigit((unsigned char)digits[i]) ? digits[i] - '0'
			: tolower((unsigned char)digits[i]) - 'a' + 10;
		int k;

		for (k = 0; k < 4; k++)
			if (v >> k & 1)
				cpuset_add(set, bit + k);
	}
	return n ? 0 : -1;
}

bool check_cmdline_value(const char *cmdline, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	const char *p = cmdline;
	bool found = false;

	while (*p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			const char *v = p + kl + 1;
			size_t n = strcspn(v, " ");

			if (n >= len)
				n = len - 1;
			memcpy(buf, v, n);
			buf[n] = '\0';
			found = true;
		}
		p += strcspn(p, " ");
	}
	return found;
}

/* ---- files under the root ------------------------------------------------------- */

static int read_long(const char *root, const char *rel, long *v)
{
	char buf[64], *end;

	if (sysinfo_read_line(root, rel, buf, sizeof(buf)))
		return -1;
	errno = 0;
	*v = strtol(buf, &end, 10);
	if (errno || end == buf)
		return -1;
	return 0;
}

/* The value of "@key:" in a /proc status-style file, into @buf. */
static int status_field(const char *root, const char *rel, const char *key, char *buf,
			size_t len)
{
	char path[4096], line[512];
	size_t kl = strlen(key);
	int ret = -1;
	FILE *f;

	buf[0] = '\0';
	if (!sysinfo_path(root, rel, path, sizeof(path)) || !(f = sysinfo_fopen(path)))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, key, kl) || line[kl] != ':')
			continue;
		v = line + kl + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, len, "%s", v);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/* ---- context ---------------------------------------------------------------------- */

/* A CPU list from sysfs (@rel), else the command line's @key. */
static bool cpuset_from(struct sysctx *x, const char *rel, const char *key,
			struct check_cpuset *set, char *src, size_t srclen)
{
	char buf[4096];

	if (sysinfo_read_line(x->p->root, rel, buf, sizeof(buf)) == 0 && buf[0] &&
	    strcmp(buf, "(null)") && check_cpuset_parse(buf, x->possible, set) == 0 &&
	    check_cpuset_count(set)) {
		snprintf(src, srclen, "sysfs");
		return true;
	}
	if (key && check_cmdline_value(x->cmdline, key, buf, sizeof(buf)) &&
	    check_cpuset_parse(buf, x->possible, set) == 0 && check_cpuset_count(set)) {
		snprintf(src, srclen, "cmdline");
		return true;
	}
	memset(set, 0, sizeof(*set));
	return false;
}

static void ctx_read(struct sysctx *x, const struct check_sys_params *p)
{
	char buf[4096];
	int i;

	memset(x, 0, sizeof(*x));
	x->p = p;
	sysinfo_read_line(p->root, "proc/cmdline", x->cmdline, sizeof(x->cmdline));
	x->possible = 1;
	if (sysinfo_read_line(p->root, "sys/devices/system/cpu/possible", buf, sizeof(buf)) == 0 &&
	    check_cpuset_parse(buf, 1024, &x->online) == 0) {
		for (i = 1023; i >= 0; i--) {
			if (check_cpuset_has(&x->online, i)) {
				x->possible = i + 1;
				break;
			}
		}
	}
	if (sysinfo_read_line(p->root, "sys/devices/system/cpu/online", buf, sizeof(buf)) ||
	    check_cpuset_parse(buf, x->possible, &x->online) || !check_cpuset_count(&x->online)) {
		memset(&x->online, 0, sizeof(x->online));
		cpuset_add(&x->online, 0);
	} else {
		x->online_known = true;
	}
	x->ncpus = check_cpuset_count(&x->online);
	if (x->possible < x->ncpus)
		x->possible = x->ncpus;
	x->has_isolated = cpuset_from(x, "sys/devices/system/cpu/isolated", "isolcpus",
				      &x->isolated, x->isolated_src, sizeof(x->isolated_src));
	x->has_nohz = cpuset_from(x, "sys/devices/system/cpu/nohz_full", "nohz_full",
				  &x->nohz, x->nohz_src, sizeof(x->nohz_src));
	x->has_rcu = cpuset_from(x, "nonexistent", "rcu_nocbs", &x->rcu, buf, sizeof(buf));
	/* Where new IRQs go: /proc/irq/default_smp_affinity (irqaffinity=). */
	if (sysinfo_read_line(p->root, "proc/irq/default_smp_affinity", buf, sizeof(buf)) == 0 &&
	    cpuset_parse_mask(buf, &x->irqaff) == 0) {
		x->has_irqaff = true;
		snprintf(x->irqaff_src, sizeof(x->irqaff_src), "default_smp_affinity");
	} else if (check_cmdline_value(x->cmdline, "irqaffinity", buf, sizeof(buf)) &&
		   check_cpuset_parse(buf, x->possible, &x->irqaff) == 0) {
		x->has_irqaff = true;
		snprintf(x->irqaff_src, sizeof(x->irqaff_src), "irqaffinity=");
	}
}

/* The CPUs the RT thread may run on: rt.cpu, or every online one. */
static void rt_cpus(const struct sysctx *x, struct check_cpuset *set)
{
	if (x->p->cpu >= 0) {
		memset(set, 0, sizeof(*set));
		cpuset_add(set, x->p->cpu);
	} else {
		*set = x->online;
	}
}

/* A "one CPU" verdict needs the CPU count read, not defaulted: SKIP when
 * the root has no online list (a tree without it). True if skipped. */
static bool one_cpu_unknown(struct check_report *r, const struct sysctx *x, const char *id)
{
	if (x->ncpus != 1 || x->online_known)
		return false;
	check_add(r, CHECK_SKIP, id, "how many CPUs are online is unknown: no "
		  "/sys/devices/system/cpu/online under %s", x->p->root);
	return true;
}

/* In a copied tree, a file that is not there may just not have been
 * copied: SKIP, naming it, instead of the live system's "absent means
 * none". True if skipped. */
static bool tree_lacks(struct check_report *r, const struct sysctx *x, const char *id,
		       const char *what)
{
	if (!x->p->tree)
		return false;
	check_add(r, CHECK_SKIP, id, "no %s in the tree under %s: absent on that machine, or "
		  "not copied (cannot tell)", what, x->p->root);
	return true;
}

/* ---- kernel and scheduler --------------------------------------------------------- */

static void chk_preempt_rt(struct check_report *r, struct sysctx *x)
{
	char version[512], rt[16];
	struct check_finding *f;

	sysinfo_read_line(x->p->root, "proc/sys/kernel/version", version, sizeof(version));
	if (!version[0] && sysinfo_read_line(x->p->root, "sys/kernel/realtime", rt, sizeof(rt))) {
		check_add(r, CHECK_SKIP, "kernel.preempt_rt", "cannot tell: no "
			  "/proc/sys/kernel/version and no /sys/kernel/realtime under %s",
			  x->p->root);
		return;
	}
	if (sysinfo_preempt_rt(x->p->root, version)) {
		bool flag = sysinfo_read_line(x->p->root, "sys/kernel/realtime", rt, sizeof(rt)) == 0;

		f = check_add(r, CHECK_PASS, "kernel.preempt_rt", "PREEMPT_RT (%s)",
			      flag ? "/sys/kernel/realtime = 1" : version);
		check_why(f, "a fully preemptible kernel keeps wake-ups in the tens of "
			  "microseconds under load");
		return;
	}
	f = check_add(r, CHECK_WARN, "kernel.preempt_rt", "not PREEMPT_RT (kernel \"%s\")",
		      version[0] ? version : "version unknown");
	check_why(f, "without PREEMPT_RT, long non-preemptible kernel sections delay the "
		  "wake-ups: Digi measured Tmin/Tmax 18/9998 us under load on a non-RT "
		  "kernel against 414/584 us with PREEMPT_RT (500 us half period)");
	check_fix(f, "boot a PREEMPT_RT kernel (Debian: linux-image-rt-*; Yocto BSPs: the "
		  "-rt kernel, e.g. Digi's DISTRO_FEATURES += \"rt\" or ST's X-LINUX-RT)");
}

/* DMI names that only virtual machines carry (systemd-detect-virt's list,
 * the ones that name a hypervisor or its firmware). */
static const char *dmi_hypervisor(const char *s)
{
	static const char *const names[] = { "QEMU", "KVM", "VMware", "VirtualBox", "innotek",
					     "Xen", "Bochs", "Parallels", "BHYVE", "Amazon EC2",
					     "Google Compute Engine", "OpenStack", "Virtual Machine",
					     "Apple Virtualization", NULL };
	size_t i;

	for (i = 0; s[0] && names[i]; i++)
		if (strstr(s, names[i]))
			return names[i];
	return NULL;
}

/* Whether "@word" is a whole word of the first "@key" line of a
 * /proc/cpuinfo-style file: 1 yes, 0 no, -1 no such line (not x86). */
static int cpuinfo_flag(const char *root, const char *key, const char *word)
{
	char path[4096], line[4096];
	size_t kl = strlen(key), wl = strlen(word);
	int ret = -1;
	FILE *f;

	if (!sysinfo_path(root, "proc/cpuinfo", path, sizeof(path)) || !(f = sysinfo_fopen(path)))
		return -1;
	while (ret < 0 && fgets(line, sizeof(line), f)) {
		char *p = line, *v;

		if (strncmp(line, key, kl) || !(v = strchr(line, ':')))
			continue;
		for (p = line + kl; p < v && (*p == ' ' || *p == '\t'); p++)
			;
		if (p != v)
			continue;
		ret = 0;
		for (p = v + 1; (p = strstr(p, word)); p += wl)
			if (p[-1] == ' ' && (p[wl] == ' ' || p[wl] == '\n' || !p[wl]))
				ret = 1;
	}
	fclose(f);
	return ret;
}

/* A virtual machine, from what a guest can see of its hypervisor: x86's
 * cpuinfo flag, /sys/hypervisor, DMI names, the device tree. */
static void chk_hypervisor(struct check_report *r, struct sysctx *x)
{
	char seen[CHECK_TEXT - 64] = "", read[256] = "", buf[128], path[4096];
	struct detect_machine m;
	struct check_finding *f;
	const char *name;
	int flag, i;

	flag = cpuinfo_flag(x->p->root, "flags", "hypervisor");
	if (flag >= 0)
		msgbuf_add(read, sizeof(read), "%scpuinfo flags", read[0] ? ", " : "");
	if (flag > 0)
		msgbuf_add(seen, sizeof(seen), "%s/proc/cpuinfo has the hypervisor flag",
			   seen[0] ? "; " : "");
	if (sysinfo_read_line(x->p->root, "sys/hypervisor/type", buf, sizeof(buf)) == 0 &&
	    buf[0]) {
		msgbuf_add(read, sizeof(read), "%s/sys/hypervisor", read[0] ? ", " : "");
		msgbuf_add(seen, sizeof(seen), "%s/sys/hypervisor/type is \"%s\"",
			   seen[0] ? "; " : "", buf);
	}
	detect_machine_read(x->p->root, &m);
	if (m.dmi_vendor[0] || m.dmi_product[0] || m.dmi_board[0])
		msgbuf_add(read, sizeof(read), "%sDMI", read[0] ? ", " : "");
	if ((name = dmi_hypervisor(m.dmi_vendor)) || (name = dmi_hypervisor(m.dmi_product)) ||
	    (name = dmi_hypervisor(m.dmi_board)))
		msgbuf_add(seen, sizeof(seen), "%sDMI names %s (vendor \"%s\", product \"%s\")",
			   seen[0] ? "; " : "", name, m.dmi_vendor, m.dmi_product);
	if (m.ncompatible)
		msgbuf_add(read, sizeof(read), "%sdevice tree", read[0] ? ", " : "");
	for (i = 0; i < m.ncompatible; i++)
		if (!strcmp(m.compatible[i], "linux,dummy-virt"))
			msgbuf_add(seen, sizeof(seen), "%sdevice-tree compatible \"linux,dummy-virt\" "
				   "(QEMU's virt board)", seen[0] ? "; " : "");
	if ((sysinfo_path(x->p->root, "proc/device-tree/hypervisor/compatible", path,
			  sizeof(path)) && access(path, F_OK) == 0) ||
	    (sysinfo_path(x->p->root, "sys/firmware/devicetree/base/hypervisor/compatible", path,
			  sizeof(path)) && access(path, F_OK) == 0))
		msgbuf_add(seen, sizeof(seen), "%sthe device tree has a /hypervisor node",
			   seen[0] ? "; " : "");
	if (seen[0]) {
		f = check_add(r, CHECK_WARN, "host.hypervisor", "a virtual machine: %s", seen);
		check_why(f, "the hypervisor is then the usual latency source: it runs this "
			  "guest's CPUs as threads among its own work, so a vCPU preempted on "
			  "the host, an emulated timer or interrupt, or a VM exit delays the "
			  "edge, and no setting inside the guest removes that. The figures "
			  "describe the host as much as the board");
		check_fix(f, "measure on the board itself for results that stand for it; for a "
			  "VM that must be real-time: a PREEMPT_RT host, each vCPU thread pinned "
			  "to its own isolated host CPU and run SCHED_FIFO (the realtime KVM "
			  "tuning), and the guest's rt.cpu on that vCPU");
		return;
	}
	if (!read[0]) {
		f = check_add(r, CHECK_SKIP, "host.hypervisor", "cannot tell: no cpuinfo flags, "
			      "/sys/hypervisor, DMI names or device tree under %s", x->p->root);
		check_fix(f, "on ARM boards without a device tree in /proc, "
			  "systemd-detect-virt says whether this is a VM");
		return;
	}
	check_add(r, CHECK_PASS, "host.hypervisor", "no sign of a hypervisor (read: %s)", read);
}

static void chk_hrtimers(struct check_report *r, struct sysctx *x)
{
	char path[4096], line[256], off[64] = "", val[32];
	struct check_finding *f;
	int on = 0, offn = 0, cpu = -1;
	FILE *fp;

	if (check_cmdline_value(x->cmdline, "highres", val, sizeof(val)) && !strcmp(val, "off")) {
		f = check_add(r, CHECK_FAIL, "kernel.hrtimers",
			      "high-resolution timers disabled (highres=off on the kernel "
			      "command line)");
		check_why(f, "without them the timer fires on scheduler ticks (1 to 10 ms "
			  "apart), not every half period");
		check_fix(f, "remove highres=off from the kernel command line and reboot");
		return;
	}
	if (!sysinfo_path(x->p->root, "proc/timer_list", path, sizeof(path)) ||
	    !(fp = sysinfo_fopen(path))) {
		f = check_add(r, CHECK_SKIP, "kernel.hrtimers", "cannot read /proc/timer_list "
			      "(%s)", strerror(errno));
		check_fix(f, "run the check as root to see whether high-resolution timers are "
			  "active");
		return;
	}
	while (fgets(line, sizeof(line), fp)) {
		char *c;

		if (!strncmp(line, "cpu: ", 5)) {
			cpu = atoi(line + 5);
			continue;
		}
		if (!strstr(line, ".hres_active") || !(c = strchr(line, ':')))
			continue;
		if (atoi(c + 1) == 1) {
			on++;
		} else {
			offn++;
			snprintf(off + strlen(off), sizeof(off) - strlen(off), "%s%d",
				 offn > 1 ? "," : "", cpu);
		}
	}
	fclose(fp);
	if (!on && !offn) {
		check_add(r, CHECK_SKIP, "kernel.hrtimers", "/proc/timer_list does not say "
			  "(no hres_active lines)");
		return;
	}
	if (offn) {
		f = check_add(r, CHECK_FAIL, "kernel.hrtimers", "high-resolution timers "
			      "inactive on CPU %s", off);
		check_why(f, "the timer then fires on scheduler ticks (1 to 10 ms apart), "
			  "not every half period");
		check_fix(f, "a kernel with CONFIG_HIGH_RES_TIMERS=y and a clock event device "
			  "with one-shot mode (check dmesg for \"Switched to high resolution "
			  "mode\")");
		return;
	}
	check_add(r, CHECK_PASS, "kernel.hrtimers", "high-resolution timers active on %d "
		  "CPU%s", on, on > 1 ? "s" : "");
}

static void chk_clocksource(struct check_report *r, struct sysctx *x)
{
	static const char *const good[] = { "tsc", "arch_sys_counter", "arch_mem_counter",
					    "kvm-clock", "riscv_clocksource", "timebase",
					    "hyperv_clocksource_tsc_page", NULL };
	char cur[64], avail[256];
	struct check_finding *f;
	size_t i;

	if (sysinfo_read_line(x->p->root, "sys/devices/system/clocksource/clocksource0/"
			      "current_clocksource", cur, sizeof(cur))) {
		check_add(r, CHECK_SKIP, "kernel.clocksource", "cannot read the current "
			  "clocksource (%s)", strerror(errno));
		return;
	}
	sysinfo_read_line(x->p->root, "sys/devices/system/clocksource/clocksource0/"
			  "available_clocksource", avail, sizeof(avail));
	for (i = 0; good[i]; i++) {
		if (!strcmp(cur, good[i])) {
			f = check_add(r, CHECK_PASS, "kernel.clocksource", "%s", cur);
			check_why(f, "a clock read costs tens of nanoseconds; sqwave reads it "
				  "three times per edge");
			return;
		}
	}
	if (!strcmp(cur, "jiffies")) {
		f = check_add(r, CHECK_FAIL, "kernel.clocksource", "jiffies (available: %s)",
			      avail[0] ? avail : "?");
		check_why(f, "time advances in ticks of 1 to 10 ms: no timestamp or timer "
			  "finer than that");
		check_fix(f, "a kernel with a hardware clocksource for this machine");
		return;
	}
	if (!strcmp(cur, "hpet") || !strcmp(cur, "acpi_pm")) {
		f = check_add(r, CHECK_WARN, "kernel.clocksource", "%s (available: %s)", cur,
			      avail[0] ? avail : "?");
		check_why(f, "every clock read (three per edge, and the kernel's own timer "
			  "work) becomes %s instead of a TSC read of tens of nanoseconds; "
			  "it usually means the kernel found the TSC unstable",
			  !strcmp(cur, "hpet") ? "a memory-mapped HPET read, around a microsecond"
			  : "an I/O-port read of the ACPI PM timer, slower still");
		check_fix(f, "dmesg | grep -i clocksource (why the TSC was dropped); if the "
			  "TSC is sound on this machine: echo tsc > /sys/devices/system/"
			  "clocksource/clocksource0/current_clocksource, or boot with "
			  "tsc=reliable");
		return;
	}
	check_add(r, CHECK_PASS, "kernel.clocksource", "%s (not known to be slow)", cur);
}

static void chk_rt_runtime(struct check_report *r, struct sysctx *x)
{
	struct check_finding *f;
	long rt, period = 1000000;

	if (read_long(x->p->root, "proc/sys/kernel/sched_rt_runtime_us", &rt)) {
		check_add(r, CHECK_SKIP, "sched.rt_runtime", "cannot read sched_rt_runtime_us");
		return;
	}
	read_long(x->p->root, "proc/sys/kernel/sched_rt_period_us", &period);
	if (rt < 0) {
		f = check_add(r, CHECK_PASS, "sched.rt_runtime", "-1: RT tasks are never "
			      "throttled");
		check_why(f, "nothing stops a runaway RT task from starving the machine; "
			  "sqwave itself sleeps every half period");
		return;
	}
	if (rt == 0) {
		f = check_add(r, CHECK_FAIL, "sched.rt_runtime", "0 us per %ld us: RT tasks get "
			      "no CPU time", period);
		check_why(f, "the RT thread would never run");
		check_fix(f, "sysctl -w kernel.sched_rt_runtime_us=950000");
		return;
	}
	if (period > 0 && rt * 2 < period) {
		f = check_add(r, CHECK_WARN, "sched.rt_runtime", "%ld us per %ld us (%ld%%)", rt,
			      period, rt * 100 / period);
		check_why(f, "RT tasks together get less than half of each period: with "
			  "other RT load on the CPU, sqwave's thread can be throttled");
		check_fix(f, "sysctl -w kernel.sched_rt_runtime_us=950000 (the kernel's "
			  "default)");
		return;
	}
	f = check_add(r, CHECK_PASS, "sched.rt_runtime", "%ld us per %ld us", rt, period);
	check_why(f, "throttling only stops RT tasks that run without sleeping for "
		  "most of a period; sqwave sleeps every half period");
}

/* A kernel config's size at most: a plain one is some 300 KB, config.gz
 * some 50 KB; anything near these bounds is no kernel config. */
#define KCONFIG_FILE_MAX ((size_t)8 << 20)
#define KCONFIG_TEXT_MAX ((size_t)64 << 20)

/* The text of the kernel config open at @fd (closed here): gzip inflated
 * (/proc/config.gz, base/gunzip: no zlib on the board), a plain file as
 * it is. NULL when it cannot be read or is no such text. Caller frees. */
static char *kconfig_text(int fd)
{
	size_t len = 0, cap = 0, tlen;
	char *buf = NULL, *text = NULL;
	ssize_t n = 1;

	while (n > 0) {
		if (len + 1 >= cap) {	/* room for the NUL too */
			size_t ncap = cap ? cap * 2 : 65536;
			char *nb = cap < KCONFIG_FILE_MAX ? realloc(buf, ncap) : NULL;

			if (!nb) {
				n = -1;
				break;
			}
			buf = nb;
			cap = ncap;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			n = 1;
		else if (n > 0)
			len += (size_t)n;
	}
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	if (!gunzip_is_gzip(buf, len))
		return buf;
	if (gunzip_mem(buf, len, KCONFIG_TEXT_MAX, &text, &tlen, NULL, 0) < 0)
		text = NULL;
	free(buf);
	return text;
}

/* CONFIG_RT_GROUP_SCHED from the kernel's own config (/proc/config.gz,
 * else /boot/config-RELEASE under the root): 1 set, 0 not set, -1 unknown. */
static int kconfig_rt_group(const struct sysctx *x)
{
	char rel[256], rls[128], path[4096];
	int i, ret = -1, fd;

	sysinfo_read_line(x->p->root, "proc/sys/kernel/osrelease", rls, sizeof(rls));
	for (i = 0; i < 2 && ret < 0; i++) {
		char *text, *line;

		if (i == 0)
			snprintf(rel, sizeof(rel), "proc/config.gz");
		else if (rls[0])
			snprintf(rel, sizeof(rel), "boot/config-%s", rls);
		else
			break;
		if (!sysinfo_path(x->p->root, rel, path, sizeof(path)))
			continue;
		fd = sysinfo_open_regular(path);
		if (fd < 0 || !(text = kconfig_text(fd)))
			continue;
		for (line = text; line && ret < 0; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
			if (!strncmp(line, "CONFIG_RT_GROUP_SCHED=y", 23))
				ret = 1;
			else if (!strncmp(line, "# CONFIG_RT_GROUP_SCHED is not set", 34))
				ret = 0;
		}
		free(text);
	}
	return ret;
}

/* This process's cgroup: the cgroup-v1 cpu controller's path (@v1, and its
 * mount under the root in @mnt) or the v2 path. 1 v1, 2 v2, -1 unknown. */
static int own_cgroup(const struct sysctx *x, char *cg, size_t len, char *mnt, size_t mlen)
{
	static const char *const v1[] = { "sys/fs/cgroup/cpu,cpuacct", "sys/fs/cgroup/cpu",
					  "sys/fs/cgroup/cpuacct,cpu", NULL };
	char path[4096], line[1024], v2[1024] = "";
	int ret = -1, i;
	FILE *f;

	if (!sysinfo_path(x->p->root, "proc/self/cgroup", path, sizeof(path)) ||
	    !(f = sysinfo_fopen(path)))
		return -1;
	while (ret < 0 && fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *cp, *tok, *save;

		line[strcspn(line, "\n")] = '\0';
		if (!ctl || !(cp = strchr(ctl + 1, ':')))
			continue;
		*cp++ = '\0';
		ctl++;
		if (!*ctl) {
			snprintf(v2, sizeof(v2), "%s", cp);
			continue;
		}
		for (tok = strtok_r(ctl, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			if (!strcmp(tok, "cpu"))
				break;
		if (!tok)
			continue;
		snprintf(cg, len, "%s", cp);
		for (i = 0; v1[i]; i++) {
			char rel[512];

			snprintf(rel, sizeof(rel), "%s/cpu.shares", v1[i]);
			if (sysinfo_path(x->p->root, rel, path, sizeof(path)) &&
			    access(path, F_OK) == 0) {
				snprintf(mnt, mlen, "%s", v1[i]);
				break;
			}
		}
		if (!v1[i])
			snprintf(mnt, mlen, "%s", v1[0]);
		ret = 1;
	}
	fclose(f);
	if (ret < 0 && v2[0]) {
		snprintf(cg, len, "%s", v2);
		snprintf(mnt, mlen, "sys/fs/cgroup");
		ret = 2;
	}
	return ret;
}

/* Whether "cpu" is a word of the file @rel (cgroup.controllers). 1, 0, or
 * -1 unreadable. */
static int has_cpu_controller(const struct sysctx *x, const char *rel)
{
	char buf[512], *tok, *save;

	if (sysinfo_read_line(x->p->root, rel, buf, sizeof(buf)))
		return -1;
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, "cpu"))
			return 1;
	return 0;
}

#define RT_GROUP_WHY "with CONFIG_RT_GROUP_SCHED, a task in a cpu cgroup without RT " \
	"time is refused SCHED_FIFO (EPERM), whatever its limits and capabilities; " \
	"systemd's Delegate=yes puts the unit in a cgroup of its own with the cpu " \
	"controller on, so the command that works from a shell fails in the service"

/*
 * RT group scheduling: the kernel gives a new cpu cgroup no RT runtime, so
 * a service in one (Delegate=yes) is refused SCHED_FIFO while the same
 * command from a shell is not.
 */
static void chk_rt_group(struct check_report *r, struct sysctx *x)
{
	char cg[1024], mnt[64], rel[1200], grp[1024];
	struct check_finding *f;
	int kind, k, have;
	long rt;

	kind = own_cgroup(x, cg, sizeof(cg), mnt, sizeof(mnt));
	if (kind < 0) {
		check_add(r, CHECK_SKIP, "sched.rt_group", "cannot read /proc/self/cgroup");
		return;
	}
	if (kind == 1) {
		if (!strcmp(cg, "/")) {
			check_add(r, CHECK_PASS, "sched.rt_group", "in the root cpu cgroup "
				  "(cgroup v1): RT group scheduling cannot refuse SCHED_FIFO here");
			return;
		}
		snprintf(rel, sizeof(rel), "%s%s/cpu.rt_runtime_us", mnt, cg);
		if (read_long(x->p->root, rel, &rt) == 0) {
			if (rt > 0) {
				check_add(r, CHECK_PASS, "sched.rt_group", "cpu cgroup %s gives RT "
					  "tasks %ld us per period (cpu.rt_runtime_us)", cg, rt);
				return;
			}
			f = check_add(r, CHECK_FAIL, "sched.rt_group", "cpu cgroup %s has "
				      "cpu.rt_runtime_us = %ld: SCHED_FIFO is refused in it", cg, rt);
			check_why(f, RT_GROUP_WHY);
			check_fix(f, "give the group RT time, its parents first (a group gets at "
				  "most its parent's): echo 950000 > /%s/<each level of %s>/"
				  "cpu.rt_runtime_us; in the unit: ExecStartPre=+/bin/sh -c 'echo ... "
				  "> ...' for each level; or a kernel without CONFIG_RT_GROUP_SCHED",
				  mnt, cg);
			return;
		}
		snprintf(rel, sizeof(rel), "%s%s/cpu.shares", mnt, cg);
		if (read_long(x->p->root, rel, &rt)) {
			check_add(r, CHECK_SKIP, "sched.rt_group", "cpu cgroup %s: its files are not "
				  "readable under %s", cg, x->p->root);
			return;
		}
		check_add(r, CHECK_PASS, "sched.rt_group", "cpu cgroup %s has no cpu.rt_runtime_us: "
			  "a kernel without RT group scheduling", cg);
		return;
	}
	/* v2: the task's cpu group is the deepest cgroup on its path with the
	 * cpu controller on (in its cgroup.controllers). */
	snprintf(grp, sizeof(grp), "%s", cg);
	for (;;) {
		char *slash;

		if (!strcmp(grp, "/") || !grp[0]) {
			check_add(r, CHECK_PASS, "sched.rt_group", "cgroup v2 %s: no cgroup with the "
				  "cpu controller on below the root, so RT group scheduling cannot "
				  "refuse SCHED_FIFO", cg);
			return;
		}
		snprintf(rel, sizeof(rel), "%s%s/cgroup.controllers", mnt, grp);
		have = has_cpu_controller(x, rel);
		if (have < 0) {
			check_add(r, CHECK_SKIP, "sched.rt_group", "cgroup v2 %s: no %s/cgroup."
				  "controllers under %s", cg, grp, x->p->root);
			return;
		}
		if (have)
			break;
		slash = strrchr(grp, '/');
		if (slash == grp)
			grp[1] = '\0';
		else
			*slash = '\0';
	}
	snprintf(rel, sizeof(rel), "%s%s/cpu.rt_runtime_us", mnt, grp);
	if (read_long(x->p->root, rel, &rt) == 0 && rt > 0) {
		check_add(r, CHECK_PASS, "sched.rt_group", "cgroup %s gives RT tasks %ld us per "
			  "period (cpu.rt_runtime_us)", grp, rt);
		return;
	}
	k = kconfig_rt_group(x);
	if (k == 0) {
		check_add(r, CHECK_PASS, "sched.rt_group", "cgroup %s has the cpu controller on, "
			  "and the kernel's config says CONFIG_RT_GROUP_SCHED is not set", grp);
		return;
	}
	f = check_add(r, k > 0 ? CHECK_FAIL : CHECK_WARN, "sched.rt_group", "cgroup %s has the "
		      "cpu controller on %s", grp, k > 0 ?
		      "and the kernel has CONFIG_RT_GROUP_SCHED: SCHED_FIFO is refused here" :
		      "(no /proc/config.gz or /boot/config-RELEASE says whether the kernel has "
		      "CONFIG_RT_GROUP_SCHED; with it, SCHED_FIFO is refused here)");
	check_why(f, "%s (cgroup v2 gives a group no RT time at all)", RT_GROUP_WHY);
	check_fix(f, "keep the cpu controller off the unit's cgroup: Delegate=pids instead of "
		  "Delegate=yes (sqwave needs the subtree for its loads, not the cpu controller), "
		  "and no cpu in the parent's cgroup.subtree_control (%s%s: CPUAccounting= or "
		  "CPUWeight= on any unit of that slice turns it on); or a kernel without "
		  "CONFIG_RT_GROUP_SCHED", mnt, grp);
}

static void chk_timer_migration(struct check_report *r, struct sysctx *x)
{
	struct check_finding *f;
	long v;

	if (read_long(x->p->root, "proc/sys/kernel/timer_migration", &v)) {
		if (tree_lacks(r, x, "sched.timer_migration", "proc/sys/kernel/timer_migration"))
			return;
		check_add(r, CHECK_SKIP, "sched.timer_migration", "no "
			  "/proc/sys/kernel/timer_migration (kernel without NO_HZ)");
		return;
	}
	if (v != 0 && x->p->cpu >= 0 && one_cpu_unknown(r, x, "sched.timer_migration"))
		return;
	if (v == 0 || x->ncpus == 1 || x->p->cpu < 0) {
		f = check_add(r, CHECK_PASS, "sched.timer_migration", "%ld%s", v,
			      v == 0 ? ": timers stay on the CPU that armed them" :
			      x->ncpus == 1 ? " (one CPU: nowhere to migrate)" :
			      " (rt.cpu not pinned)");
		return;
	}
	f = check_add(r, CHECK_WARN, "sched.timer_migration", "1: timers may move between "
		      "CPUs");
	check_why(f, "a timer armed while its CPU idles can be queued on another CPU, whose "
		  "load then decides when it fires; RT tuning guides turn this off");
	check_fix(f, "sysctl -w kernel.timer_migration=0");
}

static void chk_pinned(struct check_report *r, struct sysctx *x)
{
	char list[256], allowed[4096];
	struct check_cpuset set;
	struct check_finding *f;
	int c = x->p->cpu;

	if (one_cpu_unknown(r, x, "cpu.pinned"))
		return;
	if (c < 0) {
		if (x->ncpus == 1) {
			check_add(r, CHECK_PASS, "cpu.pinned", "not pinned; one CPU online");
			return;
		}
		f = check_add(r, CHECK_WARN, "cpu.pinned", "rt.cpu not set: the RT thread may "
			      "run on any of CPUs %s", check_cpuset_format(&x->online, list,
									 sizeof(list)));
		check_why(f, "a thread that migrates takes the cache misses and the other "
			  "CPUs' interrupts with it");
		check_fix(f, "--cpu N (ideally an isolated CPU, see cpu.isolcpus)");
		return;
	}
	if (c >= x->possible) {
		f = check_add(r, CHECK_FAIL, "cpu.pinned", "CPU %d does not exist (CPUs %s)", c,
			      check_cpuset_format(&x->online, list, sizeof(list)));
		check_why(f, "the run cannot pin its thread there and stops");
		check_fix(f, "--cpu with one of %s", list);
		return;
	}
	if (!check_cpuset_has(&x->online, c)) {
		f = check_add(r, CHECK_FAIL, "cpu.pinned", "CPU %d is offline (online: %s)", c,
			      check_cpuset_format(&x->online, list, sizeof(list)));
		check_why(f, "the run cannot pin its thread there and stops");
		check_fix(f, "echo 1 > /sys/devices/system/cpu/cpu%d/online, or --cpu with one "
			  "of %s", c, list);
		return;
	}
	if (status_field(x->p->root, "proc/self/status", "Cpus_allowed_list", allowed,
			 sizeof(allowed)) == 0 &&
	    check_cpuset_parse(allowed, x->possible, &set) == 0 && !check_cpuset_has(&set, c)) {
		f = check_add(r, CHECK_FAIL, "cpu.pinned", "CPU %d is outside this process's "
			      "CPU set (allowed: %s)", c, allowed);
		check_why(f, "the run cannot pin its thread there and stops");
		check_fix(f, "run outside that cpuset (taskset, systemd's AllowedCPUs=, the "
			  "container's cpuset), or --cpu with one of %s", allowed);
		return;
	}
	check_add(r, CHECK_PASS, "cpu.pinned", "RT thread pinned to CPU %d", c);
}

static void chk_isolcpus(struct check_report *r, struct sysctx *x)
{
	char list[256];
	struct check_finding *f;
	int c = x->p->cpu, last = 0, i;

	if (one_cpu_unknown(r, x, "cpu.isolcpus"))
		return;
	for (i = 0; i < 1024; i++)
		if (check_cpuset_has(&x->online, i))
			last = i;
	if (x->ncpus == 1) {
		f = check_add(r, CHECK_PASS, "cpu.isolcpus", "one CPU: nothing to isolate");
		check_why(f, "the RT thread shares its CPU with everything else; only its "
			  "priority protects it");
		return;
	}
	check_cpuset_format(&x->isolated, list, sizeof(list));
	if (c >= 0 && x->has_isolated && check_cpuset_has(&x->isolated, c)) {
		check_add(r, CHECK_PASS, "cpu.isolcpus", "CPU %d is isolated (isolated: %s)",
			  c, list);
		return;
	}
	if (x->has_isolated) {
		f = check_add(r, CHECK_WARN, "cpu.isolcpus", "CPUs %s are isolated, but the RT "
			      "thread %s", list, c >= 0 ? "is pinned elsewhere" :
			      "is not pinned to one of them");
		check_why(f, "the isolated CPUs stay idle while the RT thread competes with "
			  "everything on the others");
		for (i = 0; i < 1024 && !check_cpuset_has(&x->isolated, i); i++)
			;
		check_fix(f, "--cpu %d", i);
		return;
	}
	f = check_add(r, CHECK_WARN, "cpu.isolcpus", "no isolated CPU");
	check_why(f, "the RT thread's CPU also runs other tasks and kernel work, which "
		  "lengthen its wake-ups");
	check_fix(f, "isolcpus=%d nohz_full=%d rcu_nocbs=%d on the kernel command line "
		  "(reboot), then --cpu %d", c >= 0 ? c : last, c >= 0 ? c : last,
		  c >= 0 ? c : last, c >= 0 ? c : last);
}

/* nohz_full, rcu_nocbs, irqaffinity: meaningful for a pinned thread on a
 * machine with more than one CPU. Returns true if the check applies. */
static bool pinned_multi(struct check_report *r, struct sysctx *x, const char *id)
{
	if (one_cpu_unknown(r, x, id))
		return false;
	if (x->ncpus == 1) {
		check_add(r, CHECK_PASS, id, "one CPU: not applicable");
		return false;
	}
	if (x->p->cpu < 0) {
		check_add(r, CHECK_SKIP, id, "rt.cpu not set");
		return false;
	}
	return true;
}

static void chk_nohz_full(struct check_report *r, struct sysctx *x)
{
	struct check_finding *f;
	char list[256];
	int c = x->p->cpu;

	if (!pinned_multi(r, x, "cpu.nohz_full"))
		return;
	check_cpuset_format(&x->nohz, list, sizeof(list));
	if (check_cpuset_has(&x->nohz, c)) {
		check_add(r, CHECK_PASS, "cpu.nohz_full", "CPU %d is nohz_full (%s, from %s)", c,
			  list, x->nohz_src);
		return;
	}
	f = check_add(r, CHECK_WARN, "cpu.nohz_full", "CPU %d is not nohz_full (nohz_full: "
		      "%s)", c, x->has_nohz ? list : "none");
	check_why(f, "the scheduler tick interrupts CPU %d every 1/HZ even while only the RT "
		  "thread runs there", c);
	check_fix(f, "nohz_full=%d on the kernel command line (reboot)", c);
}

static void chk_rcu_nocbs(struct check_report *r, struct sysctx *x)
{
	struct check_finding *f;
	int c = x->p->cpu;

	if (!pinned_multi(r, x, "cpu.rcu_nocbs"))
		return;
	if (check_cpuset_has(&x->rcu, c)) {
		check_add(r, CHECK_PASS, "cpu.rcu_nocbs", "RCU callbacks of CPU %d are offloaded "
			  "(rcu_nocbs=)", c);
		return;
	}
	if (check_cpuset_has(&x->nohz, c)) {
		check_add(r, CHECK_PASS, "cpu.rcu_nocbs", "RCU callbacks of CPU %d are offloaded "
			  "(implied by nohz_full)", c);
		return;
	}
	f = check_add(r, CHECK_WARN, "cpu.rcu_nocbs", "RCU callbacks run on CPU %d", c);
	check_why(f, "callback batches run in softirq context on that CPU, between the "
		  "RT thread's wake-ups");
	check_fix(f, "rcu_nocbs=%d (or nohz_full=%d, which implies it) on the kernel command "
		  "line (reboot)", c, c);
}

static void chk_irqaffinity(struct check_report *r, struct sysctx *x)
{
	struct check_finding *f;
	struct check_cpuset others;
	char list[256];
	int c = x->p->cpu, i;

	if (!pinned_multi(r, x, "cpu.irqaffinity"))
		return;
	if (x->has_irqaff && !check_cpuset_has(&x->irqaff, c)) {
		check_add(r, CHECK_PASS, "cpu.irqaffinity", "new interrupts go to CPUs %s, not "
			  "CPU %d (%s)", check_cpuset_format(&x->irqaff, list, sizeof(list)), c,
			  x->irqaff_src);
		return;
	}
	others = x->online;
	others.bits[c / 64] &= ~(1ull << (c % 64));
	f = check_add(r, CHECK_WARN, "cpu.irqaffinity", "device interrupts may be handled "
		      "on CPU %d (%s %s)", c, x->has_irqaff ? x->irqaff_src : "no irqaffinity=:",
		      x->has_irqaff ? check_cpuset_format(&x->irqaff, list, sizeof(list))
		      : "every CPU");
	check_why(f, "an interrupt and its threaded handler running on the RT thread's CPU "
		  "delay its wake-up");
	for (i = 0; i < 1024 && !check_cpuset_has(&others, i); i++)
		;
	check_fix(f, "irqaffinity=%s on the kernel command line (reboot); already-"
		  "registered IRQs: echo %s > /proc/irq/N/smp_affinity_list",
		  check_cpuset_format(&others, list, sizeof(list)), list);
}

static void chk_smt(struct check_report *r, struct sysctx *x)
{
	struct check_cpuset sib;
	struct check_finding *f;
	char rel[128], buf[256], list[256];
	int c = x->p->cpu, i;
	bool all_isolated = true;

	if (c < 0) {
		check_add(r, CHECK_SKIP, "cpu.smt", "rt.cpu not set");
		return;
	}
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
		 c);
	if (sysinfo_read_line(x->p->root, rel, buf, sizeof(buf)) ||
	    check_cpuset_parse(buf, x->possible, &sib)) {
		check_add(r, CHECK_SKIP, "cpu.smt", "no topology for CPU %d", c);
		return;
	}
	sib.bits[c / 64] &= ~(1ull << (c % 64));
	if (!check_cpuset_count(&sib)) {
		check_add(r, CHECK_PASS, "cpu.smt", "CPU %d has no SMT sibling", c);
		return;
	}
	for (i = 0; i < 1024; i++)
		if (check_cpuset_has(&sib, i) && !check_cpuset_has(&x->isolated, i))
			all_isolated = false;
	check_cpuset_format(&sib, list, sizeof(list));
	if (all_isolated) {
		f = check_add(r, CHECK_PASS, "cpu.smt", "CPU %d shares its core with CPU %s, "
			      "which is isolated too", c, list);
		check_why(f, "keep the sibling idle: whatever runs there shares the core's "
			  "execution units and caches");
		return;
	}
	f = check_add(r, CHECK_WARN, "cpu.smt", "CPU %d shares its core with CPU %s (SMT)",
		      c, list);
	check_why(f, "what runs on the sibling competes for the same execution units and "
		  "caches, and stretches the RT thread's work");
	check_fix(f, "isolate the sibling too (isolcpus=%d,%s) and leave it idle, or boot "
		  "with nosmt", c, list);
}

/* One task of /proc/PID/task/TID: its policy, RT priority, and CPUs. */
struct rt_task {
	char comm[64];
	int policy, prio, tid;
	char cpus[64];
};

static int read_task(const char *root, const char *pid, const char *tid, struct rt_task *t)
{
	char rel[600], buf[1024], *p, *field[48];
	int n = 0;

	snprintf(rel, sizeof(rel), "proc/%s/task/%s/stat", pid, tid);
	if (sysinfo_read_line(root, rel, buf, sizeof(buf)))
		return -1;
	p = strchr(buf, '(');
	if (!p || !strrchr(buf, ')'))
		return -1;
	snprintf(t->comm, sizeof(t->comm), "%.*s", (int)(strrchr(buf, ')') - p - 1), p + 1);
	p = strrchr(buf, ')') + 1;
	while (n < 48 && (p = strtok(n ? NULL : p, " ")))
		field[n++] = p;
	/* field[0] is stat's field 3 (state): rt_priority is 40, policy 41. */
	if (n < 39)
		return -1;
	t->prio = atoi(field[37]);
	t->policy = atoi(field[38]);
	t->tid = atoi(tid);
	snprintf(rel, sizeof(rel), "proc/%s/task/%s/status", pid, tid);
	if (status_field(root, rel, "Cpus_allowed_list", t->cpus, sizeof(t->cpus)))
		snprintf(t->cpus, sizeof(t->cpus), "?");
	return 0;
}

bool check_is_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* Kernel threads at 99 that run for microseconds at a time: the stop-machine
 * migration threads (and the old per-CPU watchdog threads). */
static bool is_brief(const char *comm)
{
	return !strncmp(comm, "migration/", 10) || !strncmp(comm, "watchdog/", 9);
}

static void chk_rt_tasks(struct check_report *r, struct sysctx *x)
{
	char path[4096], pid_rel[600], list[CHECK_TEXT - 64] = "", brief[256] = "";
	struct check_cpuset mine, theirs;
	int nlisted = 0, nmore = 0, nbrief = 0, scanned = 0, nread = 0;
	struct check_finding *f;
	struct dirent *de, *te;
	DIR *proc, *tasks;

	rt_cpus(x, &mine);
	if (!sysinfo_path(x->p->root, "proc", path, sizeof(path)) || !(proc = opendir(path))) {
		check_add(r, CHECK_SKIP, "sched.rt_tasks", "cannot list /proc (%s)",
			  strerror(errno));
		return;
	}
	while ((de = readdir(proc)) && scanned < MAX_TASKS) {
		if (!check_is_digits(de->d_name))
			continue;
		snprintf(pid_rel, sizeof(pid_rel), "proc/%s/task", de->d_name);
		if (!sysinfo_path(x->p->root, pid_rel, path, sizeof(path)) ||
		    !(tasks = opendir(path)))
			continue;
		while ((te = readdir(tasks)) && scanned < MAX_TASKS) {
			struct rt_task t;
			bool above;
			size_t used;

			if (!check_is_digits(te->d_name))
				continue;
			scanned++;
			if (read_task(x->p->root, de->d_name, te->d_name, &t))
				continue;
			nread++;
			/* SCHED_FIFO 1, SCHED_RR 2, SCHED_DEADLINE 6 (above every RT task) */
			above = t.policy == 6 ||
				((t.policy == 1 || t.policy == 2) && t.prio >= x->p->priority);
			if (!above)
				continue;
			if (check_cpuset_parse(t.cpus, x->possible, &theirs) == 0) {
				int i, meet = 0;

				for (i = 0; i < 16; i++)
					meet |= (mine.bits[i] & theirs.bits[i]) != 0;
				if (!meet)
					continue;
			}
			if (is_brief(t.comm)) {
				if (nbrief++ < 4) {
					used = strlen(brief);
					snprintf(brief + used, sizeof(brief) - used, "%s%s",
						 used ? ", " : "", t.comm);
				}
				continue;
			}
			used = strlen(list);
			if (nlisted < 8 && used + 80 < sizeof(list)) {
				snprintf(list + used, sizeof(list) - used,
					 "%s%s %s %d (tid %d, CPUs %s)", used ? "; " : "", t.comm,
					 t.policy == 6 ? "DEADLINE" : t.policy == 1 ? "FIFO" : "RR",
					 t.prio, t.tid, t.cpus);
				nlisted++;
			} else {
				nmore++;
			}
		}
		closedir(tasks);
	}
	closedir(proc);
	if (!nread) {
		/* not even this process: a tree without /proc/PID, or a hidepid mount */
		check_add(r, CHECK_SKIP, "sched.rt_tasks", "no task could be read under %s/proc "
			  "(no /proc/PID/task/TID/stat): the other RT tasks are unknown",
			  x->p->root);
		return;
	}
	if (!nlisted) {
		f = check_add(r, CHECK_PASS, "sched.rt_tasks", "no task at or above SCHED_FIFO "
			      "%d on the RT thread's CPUs%s%s%s", x->p->priority,
			      nbrief ? " but the kernel's " : "", brief,
			      nbrief ? " (which run for microseconds at a time)" : "");
		return;
	}
	f = check_add(r, CHECK_WARN, "sched.rt_tasks", "at or above priority %d on the RT "
		      "thread's CPUs: %s%s", x->p->priority, list,
		      nmore ? " and more" : "");
	check_why(f, "a ready task of higher priority runs before the edge; at the same "
		  "priority SCHED_FIFO waits until it sleeps");
	check_fix(f, "--priority above theirs (98 leaves room for the kernel's migration "
		  "threads at 99), or lower theirs: chrt -f -p N TID; or pin them away: "
		  "taskset -p -c LIST TID");
}

static void chk_irqbalance(struct check_report *r, struct sysctx *x)
{
	char path[4096], rel[600], comm[64];
	struct check_finding *f;
	struct dirent *de;
	DIR *proc;
	int pid = 0, c = x->p->cpu, nread = 0;

	if (sysinfo_path(x->p->root, "proc", path, sizeof(path)) && (proc = opendir(path))) {
		while (!pid && (de = readdir(proc))) {
			if (!check_is_digits(de->d_name))
				continue;
			snprintf(rel, sizeof(rel), "proc/%s/comm", de->d_name);
			if (sysinfo_read_line(x->p->root, rel, comm, sizeof(comm)))
				continue;
			nread++;
			if (!strcmp(comm, "irqbalance"))
				pid = atoi(de->d_name);
		}
		closedir(proc);
	}
	if (!nread) {
		check_add(r, CHECK_SKIP, "irq.irqbalance", "no process could be read under "
			  "%s/proc (no /proc/PID/comm): whether irqbalance runs is unknown",
			  x->p->root);
		return;
	}
	if (pid && x->ncpus == 1 && one_cpu_unknown(r, x, "irq.irqbalance"))
		return;
	if (!pid) {
		check_add(r, CHECK_PASS, "irq.irqbalance", "not running");
		return;
	}
	if (x->ncpus == 1 ||
	    (c >= 0 && (check_cpuset_has(&x->isolated, c) || check_cpuset_has(&x->nohz, c)))) {
		f = check_add(r, CHECK_PASS, "irq.irqbalance", "running (pid %d)%s", pid,
			      x->ncpus == 1 ? "; one CPU: nothing to move" :
			      "; it leaves isolated and nohz_full CPUs alone");
		return;
	}
	f = check_add(r, CHECK_WARN, "irq.irqbalance", "running (pid %d)", pid);
	check_why(f, "it moves interrupts between CPUs as the load changes, onto the RT "
		  "thread's CPU too");
	if (c >= 0)
		check_fix(f, "systemctl disable --now irqbalance, or give it "
			  "IRQBALANCE_BANNED_CPULIST=%d in /etc/default/irqbalance", c);
	else
		check_fix(f, "systemctl disable --now irqbalance, or pin the RT thread (--cpu "
			  "N) and give irqbalance IRQBALANCE_BANNED_CPULIST=N");
}

/* ---- CPU power management ---------------------------------------------------------- */

static void chk_governor(struct check_report *r, struct sysctx *x)
{
	char rel[128], gov[64], cur[32], max[32], bad[CHECK_TEXT - 64] = "", good[64] = "";
	struct check_cpuset cpus;
	struct check_finding *f;
	int i, seen = 0, nbad = 0;

	rt_cpus(x, &cpus);
	for (i = 0; i < 1024; i++) {
		size_t used;

		if (!check_cpuset_has(&cpus, i))
			continue;
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			 i);
		if (sysinfo_read_line(x->p->root, rel, gov, sizeof(gov)))
			continue;
		seen++;
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq",
			 i);
		if (sysinfo_read_line(x->p->root, rel, cur, sizeof(cur)))
			snprintf(cur, sizeof(cur), "?");
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq",
			 i);
		if (sysinfo_read_line(x->p->root, rel, max, sizeof(max)))
			snprintf(max, sizeof(max), "?");
		if (!strcmp(gov, "performance")) {
			if (!good[0])
				snprintf(good, sizeof(good), "%s kHz", cur);
			continue;
		}
		nbad++;
		used = strlen(bad);
		if (used + 96 < sizeof(bad))
			snprintf(bad + used, sizeof(bad) - used, "%scpu%d %s at %s kHz (max %s)",
				 used ? ", " : "", i, gov, cur, max);
	}
	if (!seen && tree_lacks(r, x, "power.governor", "cpufreq governor"))
		return;
	if (!seen) {
		f = check_add(r, CHECK_PASS, "power.governor", "no cpufreq: the CPU clock does "
			      "not change");
		check_why(f, "X-LINUX-RT and many RT images turn frequency scaling off");
		return;
	}
	if (!nbad) {
		check_add(r, CHECK_PASS, "power.governor", "performance on %s CPU (%s)",
			  x->p->cpu >= 0 ? "the RT thread's" : "every", good);
		return;
	}
	f = check_add(r, CHECK_WARN, "power.governor", "%s", bad);
	check_why(f, "a lower clock makes every wake-up and write slower, and a frequency "
		  "change stalls the CPU for tens of microseconds or more");
	check_fix(f, "cpupower frequency-set -g performance (or: echo performance | tee "
		  "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor)");
}

/* The deepest state index whose exit latency stays under a tenth of the
 * half period and a quarter of the limits' margin (-1: none, not even
 * state0): what --deepest-idle-state to suggest. */
static bool idle_latency_matters(const struct sysctx *x, long lat_us)
{
	int64_t ns = (int64_t)lat_us * 1000;

	return (x->p->half_period_ns > 0 && ns * 10 >= x->p->half_period_ns) ||
	       (x->p->margin_ns > 0 && ns * 4 >= x->p->margin_ns);
}

static int idle_suggest(const struct sysctx *x, const struct cpuidle_cpu *c)
{
	int k, best = -1;

	for (k = 0; k < c->nstates; k++) {
		if (c->st[k].latency_us < 0 || idle_latency_matters(x, c->st[k].latency_us))
			break;
		best = k;
	}
	return best;
}

/* One CPU's idle states against the run: the states it will use (enabled,
 * allowed by rt.idle_state, not held off by cpu_dma_latency), the slowest
 * one's exit latency against the half period and the limits' margin. */
static void idle_cpu_finding(struct check_report *r, struct sysctx *x,
			     const struct cpuidle_cpu *c, const struct cpuidle_limit *lim)
{
	char states[CHECK_TEXT - 160] = "", half[32], margin[64] = "", lims[48];
	int deepest = lim->keep ? c->nstates - 1 : cpuidle_limit_index(lim, c);
	int dma = x->p->dma_latency_us, k, worst = -1, held = 0, off = 0, suggest;
	struct check_finding *f;
	double pct;

	units_format_duration(x->p->half_period_ns, half, sizeof(half));
	if (x->p->margin_ns > 0) {
		char m[32];

		units_format_duration(x->p->margin_ns, m, sizeof(m));
		snprintf(margin, sizeof(margin), ", limits' margin %s", m);
	}
	cpuidle_limit_format(lim, lims, sizeof(lims));
	if (deepest == -2) {
		f = check_add(r, CHECK_FAIL, "power.cpuidle", "CPU %d has no idle state named %s "
			      "(rt.idle_state); state0 is %s", c->cpu, lim->name, c->st[0].name);
		check_why(f, "the run refuses to start: it cannot tell which states to disable");
		check_fix(f, "name a state of %s, or give its index (0..%d)",
			  "/sys/devices/system/cpu/cpu*/cpuidle/state*/name", c->nstates - 1);
		return;
	}
	for (k = 0; k < c->nstates; k++) {
		const struct cpuidle_state *st = &c->st[k];
		const char *note = "";
		size_t used = strlen(states);

		if (st->disable != 0) {
			note = st->disable < 0 ? " (disable unreadable)" : " (disabled)";
		} else if (k > deepest) {
			note = " (off for the run)";
			off++;
		} else if (dma >= 0 && st->latency_us > dma) {
			note = " (held off by cpu_dma_latency)";
			held++;
		} else if (worst < 0 || st->latency_us > c->st[worst].latency_us) {
			worst = k;
		}
		if (used + 64 < sizeof(states))
			snprintf(states + used, sizeof(states) - used, "%s%.20s %ld us%s",
				 used ? ", " : "", st->name, st->latency_us, note);
	}
	if (worst < 0) {
		f = check_add(r, CHECK_PASS, "power.cpuidle", "CPU %d: %s; none in use while the "
			      "run lasts", c->cpu, states);
		check_why(f, "the CPU polls when idle: nothing to wake from");
		return;
	}
	pct = x->p->half_period_ns > 0
		? 100.0 * (double)c->st[worst].latency_us * 1000.0 / (double)x->p->half_period_ns
		: 0.0;
	if (!idle_latency_matters(x, c->st[worst].latency_us)) {
		f = check_add(r, CHECK_PASS, "power.cpuidle", "CPU %d: %s; deepest in use %.20s, "
			      "exit %ld us = %.1f %% of the %s half period%s", c->cpu, states,
			      c->st[worst].name, c->st[worst].latency_us, pct, half, margin);
		if (held)
			check_why(f, "while it runs, sqwave holds /dev/cpu_dma_latency at %d us: "
				  "the cpuidle governor skips the states slower than that "
				  "(see power.dma_latency)", dma);
		else if (off)
			check_why(f, "rt.idle_state %s disables the deeper states for the run", lims);
		return;
	}
	suggest = idle_suggest(x, c);
	f = check_add(r, CHECK_WARN, "power.cpuidle", "CPU %d: %s; %.20s in use, exit %ld us = "
		      "%.1f %% of the %s half period%s", c->cpu, states, c->st[worst].name,
		      c->st[worst].latency_us, pct, half, margin);
	check_why(f, "an edge due while CPU %d sleeps in %.20s waits up to %ld us for the CPU "
		  "to wake before the RT thread runs%s", c->cpu, c->st[worst].name,
		  c->st[worst].latency_us, dma < 0 ? " (rt.dma_latency = -1: nothing holds it off)"
		  : "");
	if (suggest >= 0)
		check_fix(f, "--deepest-idle-state %d (rt.idle_state: %d; %s, exit %ld us) for the "
			  "run, or rt.dma_latency: %ld (the governor skips states slower than that "
			  "on every CPU while sqwave holds /dev/cpu_dma_latency)", suggest, suggest,
			  c->st[suggest].name, c->st[suggest].latency_us,
			  c->st[suggest].latency_us);
	else
		check_fix(f, "--deepest-idle-state -1 (rt.idle_state: none: the CPU polls), or a "
			  "longer run.half_period");
}

static void chk_cpuidle(struct check_report *r, struct sysctx *x)
{
	struct check_cpuset cpus;
	struct cpuidle_limit lim;
	struct cpuidle_cpu c;
	char why[320], list[64];
	struct check_finding *f;
	int i, seen = 0;

	if (cpuidle_limit_parse(x->p->idle_state, &lim, why, sizeof(why)) < 0) {
		f = check_add(r, CHECK_FAIL, "power.cpuidle", "rt.idle_state %s", why);
		check_fix(f, "set rt.idle_state to one of those (a run refuses it: exit 2)");
		return;
	}
	if (x->p->idle_all_cpus)
		cpus = x->online;
	else
		rt_cpus(x, &cpus);
	for (i = 0; i < 1024; i++) {
		if (!check_cpuset_has(&cpus, i) || !cpuidle_read(x->p->root, i, &c))
			continue;
		seen++;
		idle_cpu_finding(r, x, &c, &lim);
	}
	if (seen)
		return;
	if (tree_lacks(r, x, "power.cpuidle", "cpuidle state"))
		return;
	check_cpuset_format(&cpus, list, sizeof(list));
	f = check_add(r, CHECK_SKIP, "power.cpuidle", "no cpuidle on CPU %s (no "
		      "/sys/devices/system/cpu/cpuN/cpuidle): no idle states to judge or restrict",
		      list);
	check_why(f, "the kernel has no cpuidle driver here (a VM without one, or an RT image "
		  "that turns cpuidle off): a CPU with nothing to do waits in the "
		  "architecture's default idle (WFI, HLT), whose wake-up is not measured here%s",
		  lim.keep ? "" : "; rt.idle_state has nothing to disable");
}

static void chk_dma_latency(struct check_report *r, struct sysctx *x)
{
	char path[4096];
	struct check_finding *f;
	int fd;

	if (x->p->dma_latency_us < 0) {
		check_add(r, CHECK_SKIP, "power.dma_latency", "rt.dma_latency = -1: the run "
			  "leaves /dev/cpu_dma_latency alone");
		return;
	}
	if (x->p->tree) {
		f = check_add(r, CHECK_SKIP, "power.dma_latency", "not held: a device under a "
			      "copied tree is not the running kernel's");
		check_fix(f, "run check on the board itself: it holds /dev/cpu_dma_latency as "
			  "the run does");
		return;
	}
	if (!sysinfo_path(x->p->root, "dev/cpu_dma_latency", path, sizeof(path))) {
		check_incomplete(r, "path too long under %s", x->p->root);
		return;
	}
	fd = rtsetup_dma_latency_hold(path, x->p->dma_latency_us);
	if (fd >= 0) {
		close(fd);
		f = check_add(r, CHECK_PASS, "power.dma_latency", "/dev/cpu_dma_latency can be "
			      "held at %d us (opened and written, as the run does)",
			      x->p->dma_latency_us);
		check_why(f, "the run holds it for its whole length, which keeps slow idle "
			  "states off");
		return;
	}
	if (errno == ENOENT) {
		f = check_add(r, CHECK_PASS, "power.dma_latency", "no /dev/cpu_dma_latency: no "
			      "CPU idle states to hold off (the run does without)");
		return;
	}
	f = check_add(r, CHECK_FAIL, "power.dma_latency", "cannot hold /dev/cpu_dma_latency "
		      "at %d us: %s", x->p->dma_latency_us, strerror(errno));
	check_why(f, "the run needs it and refuses to start without it (unless "
		  "--allow-non-rt, and then the result is marked non-RT)");
	check_fix(f, "run as root, or give the user write access to /dev/cpu_dma_latency "
		  "(a udev rule: KERNEL==\"cpu_dma_latency\", GROUP=\"GROUP\", MODE=\"0660\"), "
		  "or --dma-latency -1 to leave idle states alone");
}

/* ---- memory -------------------------------------------------------------------- */

static void chk_thp(struct check_report *r, struct sysctx *x)
{
	struct check_finding *f;
	char buf[128], *sel;

	if (sysinfo_read_line(x->p->root, "sys/kernel/mm/transparent_hugepage/enabled", buf,
			      sizeof(buf))) {
		if (tree_lacks(r, x, "mem.thp", "transparent_hugepage/enabled"))
			return;
		check_add(r, CHECK_PASS, "mem.thp", "no transparent huge pages in this kernel");
		return;
	}
	sel = strchr(buf, '[');
	if (sel && !strncmp(sel, "[always]", 8)) {
		f = check_add(r, CHECK_WARN, "mem.thp", "transparent huge pages: always");
		check_why(f, "khugepaged compacts memory and collapses pages behind every "
			  "process's back, and a huge-page fault can stall for a long time");
		check_fix(f, "echo never > /sys/kernel/mm/transparent_hugepage/enabled (or "
			  "madvise; boot: transparent_hugepage=never)");
		return;
	}
	check_add(r, CHECK_PASS, "mem.thp", "transparent huge pages: %s",
		  sel ? sel : buf);
}

static void chk_swap(struct check_report *r, struct sysctx *x)
{
	char path[4096], line[512];
	struct check_finding *f;
	int n = -1;
	FILE *fp;

	if (!sysinfo_path(x->p->root, "proc/swaps", path, sizeof(path)) ||
	    !(fp = sysinfo_fopen(path))) {
		check_add(r, CHECK_SKIP, "mem.swap", "cannot read /proc/swaps");
		return;
	}
	while (fgets(line, sizeof(line), fp))
		n++;    /* the first line is the header */
	fclose(fp);
	if (n <= 0) {
		check_add(r, CHECK_PASS, "mem.swap", "no swap");
		return;
	}
	if (x->p->lock_memory) {
		f = check_add(r, CHECK_PASS, "mem.swap", "%d swap area%s in use", n,
			      n > 1 ? "s" : "");
		check_why(f, "sqwave locks its memory (rt.lock_memory), so only other "
			  "processes page; their disk I/O can still load the machine");
		return;
	}
	f = check_add(r, CHECK_WARN, "mem.swap", "%d swap area%s in use and "
		      "rt.lock_memory = false", n, n > 1 ? "s" : "");
	check_why(f, "a page of the RT thread's memory swapped out costs a disk read at "
		  "the next edge");
	check_fix(f, "keep rt.lock_memory true, or swapoff -a");
}

/* ---- process limits ------------------------------------------------------------------ */

#define CAP_IPC_LOCK_BIT 14
#define CAP_SYS_NICE_BIT 23

struct privs {
	bool known;                /* /proc/self/status was readable */
	long uid;
	uint64_t cap;              /* CapEff */
};

static void privs_read(const struct sysctx *x, struct privs *pv)
{
	char buf[128];

	memset(pv, 0, sizeof(*pv));
	pv->uid = -1;
	if (status_field(x->p->root, "proc/self/status", "CapEff", buf, sizeof(buf)) == 0) {
		pv->cap = strtoull(buf, NULL, 16);
		pv->known = true;
	}
	if (status_field(x->p->root, "proc/self/status", "Uid", buf, sizeof(buf)) == 0) {
		char *p = buf;

		strtol(p, &p, 10);          /* real */
		pv->uid = strtol(p, NULL, 10); /* effective */
	}
}

static bool has_cap(const struct privs *pv, int bit)
{
	return (pv->cap >> bit) & 1;
}

/* "Max realtime priority  0  0  " -> soft limit; -2 unknown, -1 unlimited. */
static long long limit_read(const struct sysctx *x, const char *name)
{
	char path[4096], line[256];
	long long v = -2;
	size_t nl = strlen(name);
	FILE *fp;

	if (!sysinfo_path(x->p->root, "proc/self/limits", path, sizeof(path)) ||
	    !(fp = sysinfo_fopen(path)))
		return -2;
	while (fgets(line, sizeof(line), fp)) {
		char *p;

		if (strncmp(line, name, nl))
			continue;
		p = line + nl;
		while (*p == ' ')
			p++;
		v = !strncmp(p, "unlimited", 9) ? -1 : strtoll(p, NULL, 10);
		break;
	}
	fclose(fp);
	return v;
}

static void chk_rtprio(struct check_report *r, struct sysctx *x)
{
	struct check_finding *f;
	struct privs pv;
	long long lim;

	privs_read(x, &pv);
	if (pv.known && has_cap(&pv, CAP_SYS_NICE_BIT)) {
		check_add(r, CHECK_PASS, "limits.rtprio", "SCHED_FIFO %d allowed: "
			  "CAP_SYS_NICE%s", x->p->priority, pv.uid == 0 ? " (root)" : "");
		return;
	}
	lim = limit_read(x, "Max realtime priority");
	if (lim == -1) {
		check_add(r, CHECK_PASS, "limits.rtprio", "SCHED_FIFO %d allowed: "
			  "RLIMIT_RTPRIO is unlimited", x->p->priority);
		return;
	}
	if (lim >= x->p->priority) {
		check_add(r, CHECK_PASS, "limits.rtprio", "SCHED_FIFO %d allowed: "
			  "RLIMIT_RTPRIO is %lld", x->p->priority, lim);
		return;
	}
	if (lim == -2 && !pv.known) {
		check_add(r, CHECK_SKIP, "limits.rtprio", "cannot read /proc/self/limits or "
			  "/proc/self/status");
		return;
	}
	f = check_add(r, CHECK_FAIL, "limits.rtprio", "SCHED_FIFO %d refused: no "
		      "CAP_SYS_NICE and RLIMIT_RTPRIO is %lld", x->p->priority, lim < 0 ? 0 : lim);
	check_why(f, "the run cannot make its thread real-time and stops (or runs marked "
		  "non-RT with --allow-non-rt)");
	check_fix(f, "setcap cap_sys_nice,cap_ipc_lock+ep \"$(command -v sqwave)\" (root is "
		  "not required), or 'USER - rtprio %d' in /etc/security/limits.conf "
		  "(LimitRTPRIO= for a systemd unit)", x->p->priority);
}

static void chk_memlock(struct check_report *r, struct sysctx *x)
{
	unsigned long long need, vm_kib = 0;
	struct check_finding *f;
	struct privs pv;
	long long lim;
	char buf[64];

	if (!x->p->lock_memory) {
		check_add(r, CHECK_SKIP, "limits.memlock", "rt.lock_memory = false: the run "
			  "locks nothing");
		return;
	}
	privs_read(x, &pv);
	if (pv.known && has_cap(&pv, CAP_IPC_LOCK_BIT)) {
		check_add(r, CHECK_PASS, "limits.memlock", "mlockall allowed: CAP_IPC_LOCK%s",
			  pv.uid == 0 ? " (root)" : "");
		return;
	}
	lim = limit_read(x, "Max locked memory");
	if (lim == -1) {
		check_add(r, CHECK_PASS, "limits.memlock", "mlockall allowed: RLIMIT_MEMLOCK "
			  "is unlimited");
		return;
	}
	if (lim == -2) {
		check_add(r, CHECK_SKIP, "limits.memlock", "cannot read /proc/self/limits");
		return;
	}
	/* mlockall(MCL_CURRENT) needs the whole address space (VmSize) within
	 * the limit; MCL_FUTURE then counts each new mapping: the ring is in
	 * VmSize at that point, the thread stacks come after. */
	if (status_field(x->p->root, "proc/self/status", "VmSize", buf, sizeof(buf)) == 0)
		vm_kib = strtoull(buf, NULL, 10);
	need = vm_kib * KIB + x->p->ring_bytes + RUN_LOCKED_EXTRA;
	if ((unsigned long long)lim >= need + need / 4) {
		check_add(r, CHECK_PASS, "limits.memlock", "RLIMIT_MEMLOCK %llu KiB; the run "
			  "locks about %llu KiB", (unsigned long long)lim / KIB, need / KIB);
		return;
	}
	f = check_add(r, (unsigned long long)lim >= need ? CHECK_WARN : CHECK_FAIL,
		      "limits.memlock", "RLIMIT_MEMLOCK %llu KiB; the run locks about %llu KiB "
		      "(address space %llu KiB + ring %llu KiB + thread stacks)",
		      (unsigned long long)lim / KIB, need / KIB, vm_kib,
		      (unsigned long long)x->p->ring_bytes / KIB);
	check_why(f, (unsigned long long)lim >= need ?
		  "it fits, barely: a larger ring or library can tip mlockall over" :
		  "mlockall fails and the run stops (or runs marked non-RT with "
		  "--allow-non-rt)");
	check_fix(f, "setcap cap_sys_nice,cap_ipc_lock+ep \"$(command -v sqwave)\" (root is "
		  "not required), or ulimit -l unlimited, or 'USER - memlock unlimited' in "
		  "/etc/security/limits.conf (LimitMEMLOCK=infinity for a systemd unit)");
}

static void chk_privileges(struct check_report *r, struct sysctx *x)
{
	struct check_finding *f;
	struct privs pv;

	privs_read(x, &pv);
	if (!pv.known) {
		check_add(r, CHECK_SKIP, "limits.privileges", "cannot read /proc/self/status");
		return;
	}
	f = check_add(r, CHECK_PASS, "limits.privileges", "uid %ld%s: %s cap_sys_nice, %s "
		      "cap_ipc_lock", pv.uid, pv.uid == 0 ? " (root)" : "",
		      has_cap(&pv, CAP_SYS_NICE_BIT) ? "with" : "without",
		      has_cap(&pv, CAP_IPC_LOCK_BIT) ? "with" : "without");
	check_why(f, "root is not required: the two capabilities (or the limits above) "
		  "and access to /dev/gpiochipN are enough");
}

/* ---- the table ------------------------------------------------------------------------ */

static const struct {
	const char *id;
	void (*fn)(struct check_report *r, struct sysctx *x);
} checks[] = {
	{ "kernel.preempt_rt", chk_preempt_rt },
	{ "host.hypervisor", chk_hypervisor },
	{ "kernel.hrtimers", chk_hrtimers },
	{ "kernel.clocksource", chk_clocksource },
	{ "sched.rt_runtime", chk_rt_runtime },
	{ "sched.rt_group", chk_rt_group },
	{ "sched.timer_migration", chk_timer_migration },
	{ "sched.rt_tasks", chk_rt_tasks },
	{ "cpu.pinned", chk_pinned },
	{ "cpu.isolcpus", chk_isolcpus },
	{ "cpu.nohz_full", chk_nohz_full },
	{ "cpu.rcu_nocbs", chk_rcu_nocbs },
	{ "cpu.irqaffinity", chk_irqaffinity },
	{ "cpu.smt", chk_smt },
	{ "irq.irqbalance", chk_irqbalance },
	{ "power.governor", chk_governor },
	{ "power.cpuidle", chk_cpuidle },
	{ "power.dma_latency", chk_dma_latency },
	{ "mem.thp", chk_thp },
	{ "mem.swap", chk_swap },
	{ "limits.privileges", chk_privileges },
	{ "limits.rtprio", chk_rtprio },
	{ "limits.memlock", chk_memlock },
};

void check_sys_all(struct check_report *r, const struct check_sys_params *p)
{
	struct sysctx x;
	size_t i;
	char path[4096];

	if (!sysinfo_path(p->root, "proc", path, sizeof(path)) || access(path, R_OK)) {
		check_incomplete(r, "cannot read %s: is /proc mounted?", path);
		return;
	}
	ctx_read(&x, p);
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		checks[i].fn(r, &x);
}

int check_sys_one(struct check_report *r, const struct check_sys_params *p, const char *id)
{
	struct sysctx x;
	size_t i;

	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		if (strcmp(checks[i].id, id))
			continue;
		ctx_read(&x, p);
		checks[i].fn(r, &x);
		return 0;
	}
	return -1;
}

void check_sys_host_read(const char *root, struct check_sys_host *h)
{
	struct check_cpuset set;
	char buf[4096];

	memset(h, 0, sizeof(*h));
	sysinfo_read_line(root, "proc/sys/kernel/hostname", h->hostname, sizeof(h->hostname));
	sysinfo_read_line(root, "proc/sys/kernel/osrelease", h->kernel, sizeof(h->kernel));
	if (sysinfo_read_line(root, "sys/devices/system/cpu/online", buf, sizeof(buf)) == 0 &&
	    check_cpuset_parse(buf, 1024, &set) == 0)
		h->ncpus = check_cpuset_count(&set);
}

const char *check_gpiochip_bus(const char *root, const char *name)
{
	char rel[128], path[4096], target[4096];
	ssize_t n;

	snprintf(rel, sizeof(rel), "sys/bus/gpio/devices/%s", name);
	if (!sysinfo_path(root, rel, path, sizeof(path)))
		return NULL;
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	if (strstr(target, "/i2c-"))
		return "I2C";
	if (strstr(target, "/spi"))
		return "SPI";
	if (strstr(target, "/usb"))
		return "USB";
	return NULL;
}
