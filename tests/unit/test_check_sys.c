/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the system checks: each check against small fake /proc and
 * /sys trees, for every PASS, WARN, FAIL and SKIP case it has. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define _XOPEN_SOURCE_EXTENDED 1
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check/check.h"
#include "check/check_sys.h"
#include "base/sysinfo.h"

static char root[64];
static struct check_report rep;
static struct check_sys_params P;

/* Write @content to @rel under the fake root, making directories. */
static void put(const char *rel, const char *content)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static void del(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	unlink(path);
}

static void link_to(const char *rel, const char *target)
{
	char path[512];

	put(rel, "");
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	unlink(path);
	assert_int_equal(symlink(target, path), 0);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* A four-CPU machine, unprivileged, with nothing tuned. */
static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/sqwave-sys-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	put("proc/cmdline", "console=ttyS0 root=/dev/mmcblk0p2\n");
	put("proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC\n");
	put("sys/devices/system/cpu/possible", "0-3\n");
	put("sys/devices/system/cpu/online", "0-3\n");
	put("proc/self/status", "Name:\tsqwave\nUid:\t1000\t1000\t1000\t1000\n"
	    "VmSize:\t   10240 kB\nCapEff:\t0000000000000000\nCpus_allowed_list:\t0-3\n");
	put("proc/self/limits", "Limit                     Soft Limit           Hard Limit"
	    "           Units     \nMax locked memory         8388608              8388608"
	    "              bytes     \nMax realtime priority     0                    0"
	    "                    \n");
	check_report_init(&rep);
	P = (struct check_sys_params){ .root = root, .cpu = -1, .priority = 90,
				       .lock_memory = true, .dma_latency_us = 0,
				       .ring_bytes = 2 * 1024 * 1024 };
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	check_report_free(&rep);
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

/* Run one check on the current tree; its finding. */
static const struct check_finding *run1(const char *id)
{
	const struct check_finding *f;

	check_report_free(&rep);
	check_report_init(&rep);
	assert_int_equal(check_sys_one(&rep, &P, id), 0);
	f = check_find(&rep, id);
	if (!f)
		fail_msg("no finding %s", id);
	return f;
}

#define assert_finding(id, st, text) do { \
	const struct check_finding *f_ = run1(id); \
	if (f_->status != (st) || !strstr(f_->value, (text))) \
		fail_msg("%s: got %s \"%s\", want %s with \"%s\"", (id), \
			 check_status_name(f_->status), f_->value, \
			 check_status_name(st), (text)); \
} while (0)

/* @len bytes of @data (NULs included) to @rel. */
static void put_bytes(const char *rel, const char *data, size_t len)
{
	char path[512];
	FILE *f;

	put(rel, "");
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* ---- kernel ---------------------------------------------------------------- */

static void preempt_rt_is_read_from_sys_kernel_realtime(void **state)
{
	(void)state;
	put("sys/kernel/realtime", "1\n");
	assert_finding("kernel.preempt_rt", CHECK_PASS, "/sys/kernel/realtime = 1");
}

static void preempt_rt_is_read_from_the_version_without_the_flag_file(void **state)
{
	(void)state;
	put("proc/sys/kernel/version", "#1 SMP PREEMPT_RT Debian 6.1.176-1\n");
	assert_finding("kernel.preempt_rt", CHECK_PASS, "PREEMPT_RT Debian");
}

static void a_kernel_without_preempt_rt_is_a_warning_that_names_it(void **state)
{
	(void)state;
	assert_finding("kernel.preempt_rt", CHECK_WARN, "PREEMPT_DYNAMIC");
	put("sys/kernel/realtime", "0\n");
	assert_finding("kernel.preempt_rt", CHECK_WARN, "not PREEMPT_RT");
	/* neither source: unknown, not "not PREEMPT_RT" */
	del("sys/kernel/realtime");
	del("proc/sys/kernel/version");
	assert_finding("kernel.preempt_rt", CHECK_SKIP, "cannot tell");
}

static void check_and_run_agree_on_preempt_rt(void **state)
{
	static const char *const versions[] = { "#1 SMP PREEMPT_RT", "#1 SMP PREEMPT", "" };
	static const char *const flags[] = { "1\n", "0\n", NULL };
	size_t i, j;

	(void)state;
	for (i = 0; i < 3; i++) {
		for (j = 0; j < 3; j++) {
			char v[64];

			snprintf(v, sizeof(v), "%s\n", versions[i]);
			put("proc/sys/kernel/version", v);
			if (flags[j])
				put("sys/kernel/realtime", flags[j]);
			else
				del("sys/kernel/realtime");
			assert_int_equal(run1("kernel.preempt_rt")->status == CHECK_PASS,
					 sysinfo_preempt_rt(root, versions[i]));
		}
	}
}

static void high_resolution_timers_on_every_cpu_pass(void **state)
{
	(void)state;
	put("proc/timer_list", "cpu: 0\n  .hres_active    : 1\ncpu: 1\n  .hres_active    : 1\n");
	assert_finding("kernel.hrtimers", CHECK_PASS, "active on 2 CPUs");
}

static void a_cpu_without_high_resolution_timers_fails_and_is_named(void **state)
{
	(void)state;
	put("proc/timer_list", "cpu: 0\n  .hres_active    : 1\ncpu: 3\n  .hres_active    : 0\n");
	assert_finding("kernel.hrtimers", CHECK_FAIL, "inactive on CPU 3");
	put("proc/cmdline", "quiet highres=off\n");
	assert_finding("kernel.hrtimers", CHECK_FAIL, "highres=off");
}

static void an_unreadable_timer_list_is_skipped_not_guessed(void **state)
{
	(void)state;
	assert_finding("kernel.hrtimers", CHECK_SKIP, "/proc/timer_list");
}

static void clocksources_are_judged_by_what_a_read_costs(void **state)
{
	static const struct { const char *cs; enum check_status st; } cases[] = {
		{ "tsc", CHECK_PASS }, { "arch_sys_counter", CHECK_PASS },
		{ "hpet", CHECK_WARN }, { "acpi_pm", CHECK_WARN },
		{ "jiffies", CHECK_FAIL }, { "mct-frc", CHECK_PASS },
	};
	size_t i;

	(void)state;
	put("sys/devices/system/clocksource/clocksource0/available_clocksource", "tsc hpet acpi_pm\n");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char v[32];

		snprintf(v, sizeof(v), "%s\n", cases[i].cs);
		put("sys/devices/system/clocksource/clocksource0/current_clocksource", v);
		assert_finding("kernel.clocksource", cases[i].st, cases[i].cs);
	}
	assert_non_null(strstr(run1("kernel.clocksource")->fix, "") );
	put("sys/devices/system/clocksource/clocksource0/current_clocksource", "hpet\n");
	assert_non_null(strstr(run1("kernel.clocksource")->fix, "current_clocksource"));
}

static void rt_throttling_is_judged_by_the_share_it_leaves(void **state)
{
	(void)state;
	put("proc/sys/kernel/sched_rt_period_us", "1000000\n");
	put("proc/sys/kernel/sched_rt_runtime_us", "950000\n");
	assert_finding("sched.rt_runtime", CHECK_PASS, "950000 us per 1000000 us");
	put("proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	assert_finding("sched.rt_runtime", CHECK_PASS, "never throttled");
	put("proc/sys/kernel/sched_rt_runtime_us", "400000\n");
	assert_finding("sched.rt_runtime", CHECK_WARN, "(40%)");
	put("proc/sys/kernel/sched_rt_runtime_us", "0\n");
	assert_finding("sched.rt_runtime", CHECK_FAIL, "no CPU time");
}

static void timer_migration_matters_for_a_pinned_thread_on_several_cpus(void **state)
{
	(void)state;
	assert_finding("sched.timer_migration", CHECK_SKIP, "NO_HZ");
	put("proc/sys/kernel/timer_migration", "1\n");
	assert_finding("sched.timer_migration", CHECK_PASS, "not pinned");
	P.cpu = 2;
	assert_finding("sched.timer_migration", CHECK_WARN, "may move");
	put("proc/sys/kernel/timer_migration", "0\n");
	assert_finding("sched.timer_migration", CHECK_PASS, "stay on the CPU");
	put("sys/devices/system/cpu/online", "0\n");
	put("proc/sys/kernel/timer_migration", "1\n");
	P.cpu = 0;
	assert_finding("sched.timer_migration", CHECK_PASS, "one CPU");
}

/* ---- CPUs ---------------------------------------------------------------------- */

static void a_cpu_that_does_not_exist_fails(void **state)
{
	(void)state;
	P.cpu = 1023;
	assert_finding("cpu.pinned", CHECK_FAIL, "CPU 1023 does not exist (CPUs 0-3)");
}

static void an_offline_cpu_fails(void **state)
{
	(void)state;
	put("sys/devices/system/cpu/online", "0-1,3\n");
	P.cpu = 2;
	assert_finding("cpu.pinned", CHECK_FAIL, "CPU 2 is offline (online: 0-1,3)");
}

static void a_cpu_outside_the_process_cpuset_fails(void **state)
{
	(void)state;
	put("proc/self/status", "Cpus_allowed_list:\t0-1\n");
	P.cpu = 3;
	assert_finding("cpu.pinned", CHECK_FAIL, "outside this process's CPU set (allowed: 0-1)");
	P.cpu = 1;
	assert_finding("cpu.pinned", CHECK_PASS, "pinned to CPU 1");
}

static void an_unpinned_thread_warns_on_several_cpus_only(void **state)
{
	(void)state;
	assert_finding("cpu.pinned", CHECK_WARN, "any of CPUs 0-3");
	put("sys/devices/system/cpu/online", "0\n");
	assert_finding("cpu.pinned", CHECK_PASS, "one CPU");
}

static void isolcpus_is_read_from_sysfs_or_the_command_line(void **state)
{
	(void)state;
	P.cpu = 3;
	assert_finding("cpu.isolcpus", CHECK_WARN, "no isolated CPU");
	assert_non_null(strstr(run1("cpu.isolcpus")->fix, "isolcpus=3 nohz_full=3 rcu_nocbs=3"));
	put("proc/cmdline", "isolcpus=domain,managed_irq,2-3 quiet\n");
	assert_finding("cpu.isolcpus", CHECK_PASS, "CPU 3 is isolated (isolated: 2-3)");
	P.cpu = 1;
	assert_finding("cpu.isolcpus", CHECK_WARN, "CPUs 2-3 are isolated");
	assert_string_equal(run1("cpu.isolcpus")->fix, "--cpu 2");
	put("proc/cmdline", "quiet\n");
	put("sys/devices/system/cpu/isolated", "1\n");
	assert_finding("cpu.isolcpus", CHECK_PASS, "CPU 1 is isolated");
	put("sys/devices/system/cpu/online", "0\n");
	put("sys/devices/system/cpu/possible", "0\n");
	P.cpu = -1;
	assert_finding("cpu.isolcpus", CHECK_PASS, "one CPU");
}

static void nohz_full_rcu_nocbs_and_irqaffinity_are_judged_against_rt_cpu(void **state)
{
	(void)state;
	assert_finding("cpu.nohz_full", CHECK_SKIP, "rt.cpu not set");
	P.cpu = 3;
	assert_finding("cpu.nohz_full", CHECK_WARN, "CPU 3 is not nohz_full");
	assert_finding("cpu.rcu_nocbs", CHECK_WARN, "RCU callbacks run on CPU 3");
	assert_finding("cpu.irqaffinity", CHECK_WARN, "may be handled on CPU 3");
	assert_non_null(strstr(run1("cpu.irqaffinity")->fix, "irqaffinity=0-2"));
	put("proc/cmdline", "nohz_full=2-3 irqaffinity=0-1\n");
	assert_finding("cpu.nohz_full", CHECK_PASS, "CPU 3 is nohz_full");
	assert_finding("cpu.rcu_nocbs", CHECK_PASS, "implied by nohz_full");
	assert_finding("cpu.irqaffinity", CHECK_PASS, "CPUs 0-1, not CPU 3");
	put("proc/cmdline", "rcu_nocbs=3\n");
	assert_finding("cpu.rcu_nocbs", CHECK_PASS, "(rcu_nocbs=)");
	/* The effective mask wins over the command line. */
	put("proc/irq/default_smp_affinity", "f\n");
	put("proc/cmdline", "irqaffinity=0\n");
	assert_finding("cpu.irqaffinity", CHECK_WARN, "default_smp_affinity 0-3");
	put("proc/irq/default_smp_affinity", "3\n");
	assert_finding("cpu.irqaffinity", CHECK_PASS, "CPUs 0-1, not CPU 3");
}

static void an_smt_sibling_that_is_not_isolated_warns(void **state)
{
	(void)state;
	assert_finding("cpu.smt", CHECK_SKIP, "rt.cpu not set");
	P.cpu = 1;
	put("sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "1\n");
	assert_finding("cpu.smt", CHECK_PASS, "no SMT sibling");
	put("sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "1,3\n");
	assert_finding("cpu.smt", CHECK_WARN, "shares its core with CPU 3");
	put("sys/devices/system/cpu/isolated", "1,3\n");
	assert_finding("cpu.smt", CHECK_PASS, "isolated too");
}

/* A task in the fake /proc: policy 1 FIFO, 2 RR, 6 DEADLINE. */
static void task(int pid, const char *comm, int policy, int prio, const char *cpus)
{
	char rel[128], stat[512];

	snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", pid, pid);
	/* Fields 3..41: state, then 35 zeros up to processor (39), rt_priority, policy. */
	snprintf(stat, sizeof(stat), "%d (%s) S 2 0 0 0 -1 0 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 "
		 "0 0 0 0 0 0 0 0 0 0 0 0 0 %d %d 0 0 0\n", pid, comm, prio, policy);
	put(rel, stat);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/status", pid, pid);
	snprintf(stat, sizeof(stat), "Name:\t%s\nCpus_allowed_list:\t%s\n", comm, cpus);
	put(rel, stat);
	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	snprintf(stat, sizeof(stat), "%s\n", comm);
	put(rel, stat);
}

static void rt_tasks_at_or_above_our_priority_on_our_cpu_are_named(void **state)
{
	(void)state;
	task(10, "irq/42-eth0", 1, 50, "0-3");
	task(11, "migration/1", 1, 99, "1");
	P.cpu = 1;
	assert_finding("sched.rt_tasks", CHECK_PASS, "no task at or above SCHED_FIFO 90");
	assert_non_null(strstr(run1("sched.rt_tasks")->value, "migration/1"));
	task(12, "ktimers/1", 1, 95, "1");
	task(13, "app", 2, 90, "2");           /* equal priority, but another CPU */
	assert_finding("sched.rt_tasks", CHECK_WARN, "ktimers/1 FIFO 95 (tid 12, CPUs 1)");
	assert_null(strstr(run1("sched.rt_tasks")->value, "app"));
	P.cpu = 2;
	assert_finding("sched.rt_tasks", CHECK_WARN, "app RR 90");
	task(14, "dl", 6, 0, "0-3");
	assert_finding("sched.rt_tasks", CHECK_WARN, "dl DEADLINE");
	P.priority = 96;
	P.cpu = 1;
	assert_finding("sched.rt_tasks", CHECK_WARN, "dl DEADLINE");
	assert_null(strstr(run1("sched.rt_tasks")->value, "ktimers"));
}

static void a_tree_without_tasks_leaves_rt_tasks_unknown_not_passed(void **state)
{
	(void)state;
	P.cpu = 1;
	assert_finding("sched.rt_tasks", CHECK_SKIP, "no task could be read");
	task(1, "init", 0, 0, "0-3");
	assert_finding("sched.rt_tasks", CHECK_PASS, "no task at or above SCHED_FIFO 90");
}

static void irqbalance_is_a_warning_unless_our_cpu_is_isolated(void **state)
{
	(void)state;
	/* a tree without processes says nothing: never "not running" */
	assert_finding("irq.irqbalance", CHECK_SKIP, "whether irqbalance runs is unknown");
	task(1, "init", 0, 0, "0-3");
	assert_finding("irq.irqbalance", CHECK_PASS, "not running");
	task(321, "irqbalance", 0, 0, "0-3");
	P.cpu = 2;
	assert_finding("irq.irqbalance", CHECK_WARN, "running (pid 321)");
	assert_non_null(strstr(run1("irq.irqbalance")->fix, "IRQBALANCE_BANNED_CPULIST=2"));
	put("proc/cmdline", "isolcpus=2\n");
	assert_finding("irq.irqbalance", CHECK_PASS, "leaves isolated");
}

/* ---- power ---------------------------------------------------------------------- */

static void governor(int cpu, const char *gov, const char *cur)
{
	char rel[128], v[64];

	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
	snprintf(v, sizeof(v), "%s\n", gov);
	put(rel, v);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
	snprintf(v, sizeof(v), "%s\n", cur);
	put(rel, v);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
	put(rel, "1000000\n");
}

static void governors_other_than_performance_warn_with_the_frequency(void **state)
{
	(void)state;
	assert_finding("power.governor", CHECK_PASS, "no cpufreq");
	governor(0, "performance", "1000000");
	governor(1, "schedutil", "650000");
	governor(2, "performance", "1000000");
	governor(3, "performance", "1000000");
	assert_finding("power.governor", CHECK_WARN, "cpu1 schedutil at 650000 kHz (max 1000000)");
	P.cpu = 2;
	assert_finding("power.governor", CHECK_PASS, "performance on the RT thread's CPU");
}

static void state(int cpu, int k, const char *name, const char *lat, const char *disable)
{
	char rel[160], v[64];

	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpuidle/state%d/name", cpu, k);
	snprintf(v, sizeof(v), "%s\n", name);
	put(rel, v);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency", cpu, k);
	snprintf(v, sizeof(v), "%s\n", lat);
	put(rel, v);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable", cpu, k);
	snprintf(v, sizeof(v), "%s\n", disable);
	put(rel, v);
}

static void deep_idle_states_need_the_latency_request(void **state_)
{
	(void)state_;
	P.half_period_ns = 500000;
	/* no cpuidle on a live system: said, not passed */
	assert_finding("power.cpuidle", CHECK_SKIP, "no cpuidle on CPU 0-3");
	state(0, 0, "POLL", "0", "0");
	state(0, 1, "C1", "2", "0");
	state(0, 2, "C6", "133", "0");
	assert_finding("power.cpuidle", CHECK_PASS, "C6 133 us (held off by cpu_dma_latency)");
	assert_non_null(strstr(run1("power.cpuidle")->why, "/dev/cpu_dma_latency at 0 us"));
	P.dma_latency_us = -1;
	assert_finding("power.cpuidle", CHECK_WARN, "C6 in use, exit 133 us = 26.6 % of the 500us "
		       "half period");
	assert_non_null(strstr(run1("power.cpuidle")->why, "up to 133 us"));
	assert_non_null(strstr(run1("power.cpuidle")->fix, "--deepest-idle-state 1 "));
	state(0, 1, "C1", "2", "1");
	state(0, 2, "C6", "133", "1");
	assert_finding("power.cpuidle", CHECK_PASS, "C6 133 us (disabled)");
}

/* rt.idle_state's limit is what the run will use: the states deeper are
 * off for the run; the verdict is the slowest state left, against the half
 * period and the limits' margin. */
static void the_idle_state_limit_is_judged_against_the_half_period(void **state_)
{
	(void)state_;
	P.half_period_ns = 500000;
	P.dma_latency_us = -1;
	P.cpu = 2;
	state(2, 0, "POLL", "0", "0");
	state(2, 1, "C1", "2", "0");
	state(2, 2, "C1E", "10", "0");
	state(2, 3, "C6", "133", "0");
	P.idle_state = "1";
	assert_finding("power.cpuidle", CHECK_PASS, "CPU 2: POLL 0 us, C1 2 us, C1E 10 us (off for "
		       "the run), C6 133 us (off for the run); deepest in use C1, exit 2 us = 0.4 %");
	P.idle_state = "2";
	assert_finding("power.cpuidle", CHECK_PASS, "deepest in use C1E, exit 10 us = 2.0 %");
	/* a 30 us margin: 10 us is a third of it */
	P.margin_ns = 30000;
	assert_finding("power.cpuidle", CHECK_WARN, "C1E in use, exit 10 us = 2.0 % of the 500us "
		       "half period, limits' margin 30us");
	assert_non_null(strstr(run1("power.cpuidle")->fix, "--deepest-idle-state 1 "));
	P.idle_state = "none";
	assert_finding("power.cpuidle", CHECK_PASS, "none in use while the run lasts");
	P.idle_state = "C1";
	P.margin_ns = 0;
	assert_finding("power.cpuidle", CHECK_PASS, "deepest in use C1,");
	P.idle_state = "WFI";
	assert_finding("power.cpuidle", CHECK_FAIL, "CPU 2 has no idle state named WFI");
	P.idle_state = "9x";
	assert_finding("power.cpuidle", CHECK_FAIL, "rt.idle_state '9x' is not an idle-state limit");
}

/* rt.idle_cpus = all, or an RT thread that is not pinned: every online CPU. */
static void each_cpu_concerned_gets_its_own_finding(void **state_)
{
	(void)state_;
	P.half_period_ns = 500000;
	P.dma_latency_us = -1;
	state(1, 0, "POLL", "0", "0");
	state(1, 1, "C6", "133", "0");
	state(3, 0, "WFI", "1", "0");
	check_report_free(&rep);
	check_report_init(&rep);
	assert_int_equal(check_sys_one(&rep, &P, "power.cpuidle"), 0);
	assert_int_equal(rep.n, 2);
	assert_non_null(strstr(rep.v[0].value, "CPU 1: POLL 0 us, C6 133 us"));
	assert_int_equal(rep.v[0].status, CHECK_WARN);
	assert_non_null(strstr(rep.v[1].value, "CPU 3: WFI 1 us; deepest in use WFI"));
	assert_int_equal(rep.v[1].status, CHECK_PASS);
	P.cpu = 3;
	assert_finding("power.cpuidle", CHECK_PASS, "CPU 3: WFI 1 us");
	P.idle_all_cpus = true;
	check_report_free(&rep);
	check_report_init(&rep);
	assert_int_equal(check_sys_one(&rep, &P, "power.cpuidle"), 0);
	assert_int_equal(rep.n, 2);
}

static void cpu_dma_latency_is_held_as_the_run_holds_it(void **state)
{
	char path[512];

	(void)state;
	assert_finding("power.dma_latency", CHECK_PASS, "no /dev/cpu_dma_latency");
	put("dev/cpu_dma_latency", "");
	assert_finding("power.dma_latency", CHECK_PASS, "can be held at 0 us");
	del("dev/cpu_dma_latency");
	snprintf(path, sizeof(path), "%s/dev/cpu_dma_latency", root);
	assert_int_equal(mkdir(path, 0755), 0);   /* something that refuses the write */
	assert_finding("power.dma_latency", CHECK_FAIL, "cannot hold");
	assert_non_null(strstr(run1("power.dma_latency")->fix, "--dma-latency -1"));
	rmdir(path);
	P.dma_latency_us = -1;
	assert_finding("power.dma_latency", CHECK_SKIP, "leaves /dev/cpu_dma_latency alone");
}

/* ---- memory and limits ------------------------------------------------------------ */

static void transparent_huge_pages_always_warn(void **state)
{
	(void)state;
	assert_finding("mem.thp", CHECK_PASS, "no transparent huge pages");
	put("sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	assert_finding("mem.thp", CHECK_WARN, "always");
	put("sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	assert_finding("mem.thp", CHECK_PASS, "[madvise]");
}

static void swap_matters_only_when_memory_is_not_locked(void **state)
{
	(void)state;
	put("proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n");
	assert_finding("mem.swap", CHECK_PASS, "no swap");
	put("proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n/swap\tfile\t1024\t0\t-2\n");
	assert_finding("mem.swap", CHECK_PASS, "1 swap area in use");
	P.lock_memory = false;
	assert_finding("mem.swap", CHECK_WARN, "rt.lock_memory = false");
}

static void status(const char *uid, const char *capeff, const char *vmsize_kib)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "Uid:\t%s\t%s\t%s\t%s\nVmSize:\t%s kB\nCapEff:\t%s\n"
		 "Cpus_allowed_list:\t0-3\n", uid, uid, uid, uid, vmsize_kib, capeff);
	put("proc/self/status", buf);
}

static void limits(const char *memlock, const char *rtprio)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "Limit                     Soft Limit           Hard Limit\n"
		 "Max locked memory         %-20s %-20s bytes\n"
		 "Max realtime priority     %-20s %-20s\n", memlock, memlock, rtprio, rtprio);
	put("proc/self/limits", buf);
}

static void rt_priority_needs_cap_sys_nice_or_rlimit_rtprio(void **state)
{
	(void)state;
	assert_finding("limits.rtprio", CHECK_FAIL, "no CAP_SYS_NICE and RLIMIT_RTPRIO is 0");
	assert_non_null(strstr(run1("limits.rtprio")->fix, "setcap cap_sys_nice,cap_ipc_lock+ep"));
	limits("8388608", "95");
	assert_finding("limits.rtprio", CHECK_PASS, "RLIMIT_RTPRIO is 95");
	limits("8388608", "unlimited");
	assert_finding("limits.rtprio", CHECK_PASS, "unlimited");
	limits("8388608", "0");
	status("1000", "0000000000800000", "10240");         /* bit 23: CAP_SYS_NICE */
	assert_finding("limits.rtprio", CHECK_PASS, "CAP_SYS_NICE");
}

static void memlock_is_judged_against_what_mlockall_needs(void **state)
{
	(void)state;
	/* 10 MiB address space + 2 MiB ring + stacks: an 8 MiB limit is short. */
	assert_finding("limits.memlock", CHECK_FAIL, "RLIMIT_MEMLOCK 8192 KiB; the run locks about");
	limits("unlimited", "0");
	assert_finding("limits.memlock", CHECK_PASS, "unlimited");
	limits("67108864", "0");
	assert_finding("limits.memlock", CHECK_PASS, "RLIMIT_MEMLOCK 65536 KiB");
	limits("14680064", "0");                           /* 14 MiB: fits, barely */
	assert_finding("limits.memlock", CHECK_WARN, "14336 KiB");
	P.lock_memory = false;
	assert_finding("limits.memlock", CHECK_SKIP, "locks nothing");
}

/* The acceptance case of the preflight issue: with the two capabilities
 * sqwave itself advises, and a default limit, nothing about privileges fails. */
static void the_advised_capabilities_satisfy_every_privilege_check(void **state)
{
	(void)state;
	status("1000", "0000000000804000", "200000");       /* bits 14 and 23 */
	limits("65536", "0");
	assert_finding("limits.rtprio", CHECK_PASS, "CAP_SYS_NICE");
	assert_finding("limits.memlock", CHECK_PASS, "CAP_IPC_LOCK");
	assert_finding("limits.privileges", CHECK_PASS, "uid 1000: with cap_sys_nice, with "
		       "cap_ipc_lock");
}

/* ---- helpers ------------------------------------------------------------------------ */

static void cpu_lists_parse_as_the_kernel_writes_them(void **state)
{
	struct check_cpuset s;
	char buf[64];

	(void)state;
	assert_int_equal(check_cpuset_parse("0-3,5,8-9", 16, &s), 0);
	assert_string_equal(check_cpuset_format(&s, buf, sizeof(buf)), "0-3,5,8-9");
	assert_int_equal(check_cpuset_count(&s), 7);
	assert_int_equal(check_cpuset_parse("nohz,domain,managed_irq,2-3", 16, &s), 0);
	assert_string_equal(check_cpuset_format(&s, buf, sizeof(buf)), "2-3");
	assert_int_equal(check_cpuset_parse("all", 4, &s), 0);
	assert_string_equal(check_cpuset_format(&s, buf, sizeof(buf)), "0-3");
	assert_int_equal(check_cpuset_parse("3-1", 16, &s), -1);
	assert_int_equal(check_cpuset_parse("1,x", 16, &s), -1);
	assert_int_equal(check_cpuset_parse("2000", 16, &s), -1);
}

static void the_last_of_a_repeated_kernel_parameter_counts(void **state)
{
	char v[32];

	(void)state;
	assert_true(check_cmdline_value("isolcpus=1 quiet isolcpus=2-3", "isolcpus", v, sizeof(v)));
	assert_string_equal(v, "2-3");
	assert_false(check_cmdline_value("xisolcpus=1", "isolcpus", v, sizeof(v)));
}

static void a_chip_behind_i2c_spi_or_usb_is_recognised_from_sysfs(void **state)
{
	(void)state;
	link_to("sys/bus/gpio/devices/gpiochip3",
		"../../../devices/platform/soc/5c002000.i2c/i2c-1/1-0020/gpiochip3");
	link_to("sys/bus/gpio/devices/gpiochip4",
		"../../../devices/platform/soc/spi@0/spi_master/spi0/spi0.0/gpiochip4");
	link_to("sys/bus/gpio/devices/gpiochip5",
		"../../../devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/gpiochip5");
	link_to("sys/bus/gpio/devices/gpiochip0",
		"../../../devices/platform/soc/50002000.pinctrl/gpiochip0");
	assert_string_equal(check_gpiochip_bus(root, "gpiochip3"), "I2C");
	assert_string_equal(check_gpiochip_bus(root, "gpiochip4"), "SPI");
	assert_string_equal(check_gpiochip_bus(root, "gpiochip5"), "USB");
	assert_null(check_gpiochip_bus(root, "gpiochip0"));
	assert_null(check_gpiochip_bus(root, "gpiochip9"));
}

/* ---- RT group scheduling ---------------------------------------------------------- */

static void a_delegated_v2_service_with_rt_group_sched_is_refused_fifo(void **state)
{
	const struct check_finding *f;

	(void)state;
	assert_finding("sched.rt_group", CHECK_SKIP, "cannot read /proc/self/cgroup");
	put("proc/self/cgroup", "0::/system.slice/sqwave@soak-1h.service\n");
	put("sys/fs/cgroup/system.slice/cgroup.controllers", "cpuset cpu io memory pids\n");
	put("sys/fs/cgroup/system.slice/sqwave@soak-1h.service/cgroup.controllers",
	    "cpuset cpu io memory pids\n");
	put("proc/sys/kernel/osrelease", "6.6.48-rt40\n");
	/* the kernel's config cannot be read: unknown, a warning that says both */
	assert_finding("sched.rt_group", CHECK_WARN, "cgroup /system.slice/sqwave@soak-1h.service "
		       "has the cpu controller on (no /proc/config.gz");
	put("boot/config-6.6.48-rt40", "CONFIG_CGROUP_SCHED=y\nCONFIG_FAIR_GROUP_SCHED=y\n"
	    "CONFIG_RT_GROUP_SCHED=y\n");
	f = run1("sched.rt_group");
	assert_int_equal(f->status, CHECK_FAIL);
	assert_non_null(strstr(f->value, "CONFIG_RT_GROUP_SCHED: SCHED_FIFO is refused here"));
	assert_non_null(strstr(f->why, "Delegate=yes"));
	assert_non_null(strstr(f->fix, "Delegate=pids"));
	put("boot/config-6.6.48-rt40", "CONFIG_CGROUP_SCHED=y\n# CONFIG_RT_GROUP_SCHED is not set\n");
	assert_finding("sched.rt_group", CHECK_PASS, "CONFIG_RT_GROUP_SCHED is not set");
	/* the cpu controller off for the service: its group is the root's */
	put("boot/config-6.6.48-rt40", "CONFIG_RT_GROUP_SCHED=y\n");
	put("sys/fs/cgroup/system.slice/cgroup.controllers", "memory pids\n");
	put("sys/fs/cgroup/system.slice/sqwave@soak-1h.service/cgroup.controllers", "memory pids\n");
	assert_finding("sched.rt_group", CHECK_PASS, "no cgroup with the cpu controller on");
	/* a shell in the root cgroup */
	put("proc/self/cgroup", "0::/\n");
	assert_finding("sched.rt_group", CHECK_PASS, "no cgroup with the cpu controller on");
}

/* @text gzipped by zlib (the test's, not sqwave's) into @rel. */
static void put_gzip(const char *rel, const char *text)
{
	unsigned char out[4096];
	z_stream z = { 0 };

	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)(uintptr_t)text;
	z.avail_in = (uInt)strlen(text);
	z.next_out = out;
	z.avail_out = sizeof(out);
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	put_bytes(rel, (const char *)out, z.total_out);
	deflateEnd(&z);
}

/* /proc/config.gz is inflated without zlib (base/gunzip) and wins over
 * /boot; a corrupt one is passed over for /boot's plain file. */
static void the_kernels_gzipped_config_is_read_before_boots(void **state)
{
	(void)state;
	put("proc/self/cgroup", "0::/system.slice/sqwave@soak-1h.service\n");
	put("sys/fs/cgroup/system.slice/cgroup.controllers", "cpuset cpu io memory pids\n");
	put("sys/fs/cgroup/system.slice/sqwave@soak-1h.service/cgroup.controllers",
	    "cpuset cpu io memory pids\n");
	put("proc/sys/kernel/osrelease", "6.6.48-rt40\n");
	put("boot/config-6.6.48-rt40", "# CONFIG_RT_GROUP_SCHED is not set\n");
	put_gzip("proc/config.gz", "#\n# Automatically generated file; DO NOT EDIT.\n#\n"
		 "CONFIG_CGROUP_SCHED=y\nCONFIG_FAIR_GROUP_SCHED=y\nCONFIG_RT_GROUP_SCHED=y\n"
		 "CONFIG_HZ_250=y\n");
	assert_finding("sched.rt_group", CHECK_FAIL, "CONFIG_RT_GROUP_SCHED: SCHED_FIFO is refused here");
	put_gzip("proc/config.gz", "CONFIG_CGROUP_SCHED=y\n# CONFIG_RT_GROUP_SCHED is not set\n");
	assert_finding("sched.rt_group", CHECK_PASS, "CONFIG_RT_GROUP_SCHED is not set");
	/* cut short: not a config; /boot's says set */
	put("boot/config-6.6.48-rt40", "CONFIG_RT_GROUP_SCHED=y\n");
	put_bytes("proc/config.gz", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x4b", 11);
	assert_finding("sched.rt_group", CHECK_FAIL, "CONFIG_RT_GROUP_SCHED: SCHED_FIFO is refused here");
}

static void a_v1_cpu_group_without_rt_runtime_fails_with_the_setting(void **state)
{
	const struct check_finding *f;

	(void)state;
	put("proc/self/cgroup", "4:memory:/system.slice/x.service\n"
	    "3:cpu,cpuacct:/system.slice/x.service\n0::/system.slice/x.service\n");
	put("sys/fs/cgroup/cpu,cpuacct/cpu.shares", "1024\n");
	put("sys/fs/cgroup/cpu,cpuacct/system.slice/x.service/cpu.shares", "1024\n");
	put("sys/fs/cgroup/cpu,cpuacct/system.slice/x.service/cpu.rt_runtime_us", "0\n");
	f = run1("sched.rt_group");
	assert_int_equal(f->status, CHECK_FAIL);
	assert_non_null(strstr(f->value, "cpu cgroup /system.slice/x.service has "
				"cpu.rt_runtime_us = 0"));
	assert_non_null(strstr(f->fix, "echo 950000 > /sys/fs/cgroup/cpu,cpuacct/"));
	put("sys/fs/cgroup/cpu,cpuacct/system.slice/x.service/cpu.rt_runtime_us", "950000\n");
	assert_finding("sched.rt_group", CHECK_PASS, "gives RT tasks 950000 us per period");
	del("sys/fs/cgroup/cpu,cpuacct/system.slice/x.service/cpu.rt_runtime_us");
	assert_finding("sched.rt_group", CHECK_PASS, "a kernel without RT group scheduling");
	put("proc/self/cgroup", "3:cpu,cpuacct:/\n");
	assert_finding("sched.rt_group", CHECK_PASS, "in the root cpu cgroup");
}

/* ---- the hypervisor ---------------------------------------------------------- */

static void the_cpuinfo_hypervisor_flag_means_a_virtual_machine(void **state)
{
	(void)state;
	put("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme de hypervisor lahf_lm\n\n"
	    "processor\t: 1\nflags\t\t: fpu vme de hypervisor lahf_lm\n");
	assert_finding("host.hypervisor", CHECK_WARN, "/proc/cpuinfo has the hypervisor flag");
	assert_non_null(strstr(run1("host.hypervisor")->why, "usual latency source"));
	assert_non_null(strstr(run1("host.hypervisor")->fix, "isolated host CPU"));
}

static void a_bare_x86_machine_shows_no_hypervisor_and_says_what_was_read(void **state)
{
	(void)state;
	/* a flag that only starts like it is not it */
	put("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu hypervisorx vme\n");
	put("sys/class/dmi/id/sys_vendor", "Dell Inc.\n");
	put("sys/class/dmi/id/product_name", "OptiPlex 7090\n");
	assert_finding("host.hypervisor", CHECK_PASS, "no sign of a hypervisor (read: cpuinfo "
		       "flags, DMI)");
}

static void qemus_virt_board_and_dmi_names_mean_a_virtual_machine(void **state)
{
	(void)state;
	/* the emulated ARM board: no cpuinfo flags line, its device tree says */
	put("proc/cpuinfo", "processor\t: 0\nFeatures\t: half thumb fastmult vfp\n");
	put_bytes("proc/device-tree/compatible", "linux,dummy-virt\0", 17);
	assert_finding("host.hypervisor", CHECK_WARN, "device-tree compatible \"linux,dummy-virt\"");
	del("proc/device-tree/compatible");
	put_bytes("proc/device-tree/compatible", "st,stm32mp135f-dk\0st,stm32mp135\0", 32);
	assert_finding("host.hypervisor", CHECK_PASS, "read: device tree");
	put("sys/class/dmi/id/sys_vendor", "QEMU\n");
	put("sys/class/dmi/id/product_name", "Standard PC (Q35 + ICH9, 2009)\n");
	assert_finding("host.hypervisor", CHECK_WARN, "DMI names QEMU");
	put("sys/class/dmi/id/sys_vendor", "Microsoft Corporation\n");
	put("sys/class/dmi/id/product_name", "Virtual Machine\n");
	assert_finding("host.hypervisor", CHECK_WARN, "DMI names Virtual Machine");
	put("sys/hypervisor/type", "xen\n");
	assert_finding("host.hypervisor", CHECK_WARN, "/sys/hypervisor/type is \"xen\"");
}

static void with_nothing_to_read_the_hypervisor_check_is_skipped(void **state)
{
	(void)state;
	assert_finding("host.hypervisor", CHECK_SKIP, "cannot tell");
}

/* ---- a copied tree ------------------------------------------------------------ */

static void in_a_tree_what_is_missing_is_unknown_not_absent(void **state)
{
	(void)state;
	P.tree = true;
	assert_finding("power.governor", CHECK_SKIP, "no cpufreq governor in the tree");
	assert_finding("power.cpuidle", CHECK_SKIP, "no cpuidle state in the tree");
	assert_finding("mem.thp", CHECK_SKIP, "not copied (cannot tell)");
	assert_finding("sched.timer_migration", CHECK_SKIP, "not copied");
	/* a device in a tree is not the running kernel's: never opened */
	put("dev/cpu_dma_latency", "");
	assert_finding("power.dma_latency", CHECK_SKIP, "not held");
	/* what the tree has is judged as on the board */
	governor(0, "schedutil", "650000");
	assert_finding("power.governor", CHECK_WARN, "cpu0 schedutil");
	put("sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	assert_finding("mem.thp", CHECK_PASS, "madvise");
}

static void without_the_online_list_one_cpu_is_not_assumed(void **state)
{
	(void)state;
	del("sys/devices/system/cpu/online");
	del("sys/devices/system/cpu/possible");
	assert_finding("cpu.isolcpus", CHECK_SKIP, "how many CPUs are online is unknown");
	assert_finding("cpu.pinned", CHECK_SKIP, "how many CPUs are online is unknown");
	P.cpu = 1;
	assert_finding("cpu.nohz_full", CHECK_SKIP, "how many CPUs are online is unknown");
	put("sys/devices/system/cpu/online", "0\n");
	P.cpu = -1;
	assert_finding("cpu.isolcpus", CHECK_PASS, "one CPU");
}

static void the_header_reads_the_machine_from_the_root(void **state)
{
	struct check_sys_host h;

	(void)state;
	check_sys_host_read(root, &h);
	assert_string_equal(h.hostname, "");
	assert_int_equal(h.ncpus, 4);
	put("proc/sys/kernel/hostname", "dk\n");
	put("proc/sys/kernel/osrelease", "6.6.48-rt40\n");
	check_sys_host_read(root, &h);
	assert_string_equal(h.hostname, "dk");
	assert_string_equal(h.kernel, "6.6.48-rt40");
	assert_false(sysinfo_root_is_live(root));
	assert_true(sysinfo_root_is_live("/"));
}

static void a_root_without_proc_cannot_be_checked(void **state)
{
	char path[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/nothing", root);
	P.root = path;
	check_sys_all(&rep, &P);
	assert_true(rep.incomplete);
	assert_int_equal(check_exit_code(&rep, false), 3);
}

static void every_check_runs_on_a_sparse_tree_without_crashing(void **state)
{
	unsigned c[CHECK_NSTATUS];

	(void)state;
	check_sys_all(&rep, &P);
	assert_false(rep.incomplete);
	check_counts(&rep, c);
	assert_true(rep.n >= 21);
	assert_int_equal(check_sys_one(&rep, &P, "no.such"), -1);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(preempt_rt_is_read_from_sys_kernel_realtime),
		T(preempt_rt_is_read_from_the_version_without_the_flag_file),
		T(a_kernel_without_preempt_rt_is_a_warning_that_names_it),
		T(check_and_run_agree_on_preempt_rt),
		T(high_resolution_timers_on_every_cpu_pass),
		T(a_cpu_without_high_resolution_timers_fails_and_is_named),
		T(an_unreadable_timer_list_is_skipped_not_guessed),
		T(clocksources_are_judged_by_what_a_read_costs),
		T(rt_throttling_is_judged_by_the_share_it_leaves),
		T(timer_migration_matters_for_a_pinned_thread_on_several_cpus),
		T(a_cpu_that_does_not_exist_fails),
		T(an_offline_cpu_fails),
		T(a_cpu_outside_the_process_cpuset_fails),
		T(an_unpinned_thread_warns_on_several_cpus_only),
		T(isolcpus_is_read_from_sysfs_or_the_command_line),
		T(nohz_full_rcu_nocbs_and_irqaffinity_are_judged_against_rt_cpu),
		T(an_smt_sibling_that_is_not_isolated_warns),
		T(rt_tasks_at_or_above_our_priority_on_our_cpu_are_named),
		T(irqbalance_is_a_warning_unless_our_cpu_is_isolated),
		T(governors_other_than_performance_warn_with_the_frequency),
		T(deep_idle_states_need_the_latency_request),
		T(the_idle_state_limit_is_judged_against_the_half_period),
		T(each_cpu_concerned_gets_its_own_finding),
		T(cpu_dma_latency_is_held_as_the_run_holds_it),
		T(transparent_huge_pages_always_warn),
		T(swap_matters_only_when_memory_is_not_locked),
		T(rt_priority_needs_cap_sys_nice_or_rlimit_rtprio),
		T(memlock_is_judged_against_what_mlockall_needs),
		T(the_advised_capabilities_satisfy_every_privilege_check),
		T(cpu_lists_parse_as_the_kernel_writes_them),
		T(the_last_of_a_repeated_kernel_parameter_counts),
		T(a_chip_behind_i2c_spi_or_usb_is_recognised_from_sysfs),
		T(a_delegated_v2_service_with_rt_group_sched_is_refused_fifo),
		T(the_kernels_gzipped_config_is_read_before_boots),
		T(a_v1_cpu_group_without_rt_runtime_fails_with_the_setting),
		T(the_cpuinfo_hypervisor_flag_means_a_virtual_machine),
		T(a_bare_x86_machine_shows_no_hypervisor_and_says_what_was_read),
		T(qemus_virt_board_and_dmi_names_mean_a_virtual_machine),
		T(with_nothing_to_read_the_hypervisor_check_is_skipped),
		T(a_tree_without_tasks_leaves_rt_tasks_unknown_not_passed),
		T(in_a_tree_what_is_missing_is_unknown_not_absent),
		T(without_the_online_list_one_cpu_is_not_assumed),
		T(the_header_reads_the_machine_from_the_root),
		T(a_root_without_proc_cannot_be_checked),
		T(every_check_runs_on_a_sparse_tree_without_crashing),
	};

	return cmocka_run_group_tests_name("check_sys (fake /proc and /sys trees)", tests, NULL,
					   NULL);
}
