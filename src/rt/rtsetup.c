/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mlockall, cpu_dma_latency, SCHED_FIFO and affinity: done once, after every
 * allocation, so that nothing the RT thread touches can fault. */
#include "rt/rtsetup.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "base/sysinfo.h"

__attribute__((format(printf, 2, 3)))
static void problem(struct rtsetup *rs, const char *fmt, ...)
{
	size_t used = strlen(rs->problems);
	va_list ap;

	if (used + 2 >= sizeof(rs->problems))
		return;
	va_start(ap, fmt);
	vsnprintf(rs->problems + used, sizeof(rs->problems) - used - 1, fmt, ap);
	va_end(ap);
	used = strlen(rs->problems);
	rs->problems[used] = '\n';
	rs->problems[used + 1] = '\0';
}

/* The CPUs whose idle states the run restricts: every RT thread's CPU
 * (one, or each line's with run.outputs per-cpu), or every online CPU
 * (under the root: a copied tree says which) when asked or when the RT
 * thread is not pinned. Returns how many went into @cpus. */
static size_t idle_cpus(const struct rtsetup_params *p, const char *root, int *cpus, size_t max)
{
	char buf[4096], err[128];
	cpu_set_t set;
	size_t n = 0;
	int i;

	if (!p->idle_all_cpus && p->cpu >= 0) {
		if (!CPU_COUNT(&p->rt_cpus)) {
			cpus[0] = p->cpu;
			return 1;
		}
		for (i = 0; i < CPU_SETSIZE && n < max; i++)
			if (CPU_ISSET(i, &p->rt_cpus))
				cpus[n++] = i;
		return n;
	}
	if (sysinfo_read_line(root, "sys/devices/system/cpu/online", buf, sizeof(buf)) ||
	    cpulist_parse(buf, &set, err, sizeof(err)) < 0)
		cpulist_online(&set);
	for (i = 0; i < CPU_SETSIZE && n < max; i++) {
		if (CPU_ISSET(i, &set))
			cpus[n++] = i;
	}
	return n;
}

/* rt.idle_state: the states deeper than the limit off on the run's CPUs,
 * with the saved-state file and the guardian (cpuidle.h). */
static int idle_enter(struct rtsetup *rs, const struct rtsetup_params *p)
{
	const char *root = p->idle_root ? p->idle_root : "/";
	int *cpus = calloc(CPU_SETSIZE, sizeof(*cpus));
	char dir[4096], err[512];
	struct cpuidle_hold_params hp = { .root = root, .limit = p->idle_limit,
					  .self_exe = p->self_exe };

	if (!cpus) {
		problem(rs, "cannot restrict idle states: out of memory");
		return -1;
	}
	hp.cpus = cpus;
	hp.ncpus = idle_cpus(p, root, cpus, CPU_SETSIZE);
	hp.state_dir = cpuidle_state_dir(root, dir, sizeof(dir));
	rs->idle = cpuidle_hold_new(&hp, err, sizeof(err));
	free(cpus);
	if (!rs->idle) {
		problem(rs, "cannot restrict idle states (rt.idle_state): %s", err);
		return -1;
	}
	return 0;
}

int rtsetup_process_enter(struct rtsetup *rs, const struct rtsetup_params *p)
{
	int ret = 0;

	memset(rs, 0, sizeof(*rs));
	rs->p = *p;
	rs->dma_fd = -1;

	if (!p->idle_limit.keep && idle_enter(rs, p) < 0)
		ret = -1;

	if (p->lock_memory) {
		if (mlockall(MCL_CURRENT | MCL_FUTURE) == 0) {
			rs->locked = true;
		} else {
			problem(rs, "mlockall failed (%s): run as root, or raise RLIMIT_MEMLOCK "
				"(ulimit -l unlimited, or memlock in /etc/security/limits.conf)",
				strerror(errno));
			ret = -1;
		}
	}
	if (p->dma_latency_us >= 0) {
		rs->dma_fd = rtsetup_dma_latency_hold("/dev/cpu_dma_latency", p->dma_latency_us);
		if (rs->dma_fd < 0 && errno == ENOENT) {
			/* No PM QoS CPU latency device: the kernel has no CPU idle
			 * states to hold off (e.g. cpuidle disabled, as X-LINUX-RT
			 * does). Nothing to do, nothing lost. */
			rs->dma_latency_absent = true;
		} else if (rs->dma_fd < 0) {
			problem(rs, "cannot hold /dev/cpu_dma_latency at %d us (%s): run as root, "
				"or set rt.dma_latency=-1 to leave CPU idle states alone",
				p->dma_latency_us, strerror(errno));
			ret = -1;
		}
	}
	return ret;
}

int rtsetup_dma_latency_hold(const char *path, int us)
{
	int32_t v = us;
	int fd, e;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
		e = errno ? errno : EIO;
		close(fd);
		/* A device that takes the open but not the value is not absent. */
		errno = e == ENOENT ? EIO : e;
		return -1;
	}
	return fd;
}

void rtsetup_process_exit(struct rtsetup *rs)
{
	if (rs->idle && !cpuidle_hold_released(rs->idle))
		cpuidle_hold_release(rs->idle, rs->idle_error, sizeof(rs->idle_error));
	if (rs->dma_fd >= 0)
		close(rs->dma_fd);
	rs->dma_fd = -1;
	if (rs->locked)
		munlockall();
	rs->locked = false;
}

void rtsetup_process_free(struct rtsetup *rs)
{
	cpuidle_hold_free(rs->idle);
	rs->idle = NULL;
}

int rtsetup_thread_create(struct rtsetup *rs, pthread_t *tid, void *(*fn)(void *), void *arg,
			  bool allow_non_rt)
{
	return rtsetup_thread_create_on(rs, rs->p.cpu, tid, fn, arg, allow_non_rt);
}

int rtsetup_thread_create_on(struct rtsetup *rs, int cpu, pthread_t *tid, void *(*fn)(void *),
			     void *arg, bool allow_non_rt)
{
	struct sched_param sp = { .sched_priority = rs->p.priority };
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, rs->p.stack_size);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	err = pthread_create(tid, &attr, fn, arg);
	if (err == 0) {
		rs->fifo = true;
		rs->pinned = cpu >= 0;
		pthread_attr_destroy(&attr);
		return 0;
	}
	if (err == EPERM)
		problem(rs, "SCHED_FIFO priority %d refused (EPERM): run as root or give the "
			"binary CAP_SYS_NICE (setcap cap_sys_nice,cap_ipc_lock+ep sqwave), or raise "
			"RLIMIT_RTPRIO (rtprio in /etc/security/limits.conf)", rs->p.priority);
	else if (err == EINVAL && cpu >= 0)
		problem(rs, "cannot pin the RT thread to CPU %d (EINVAL): that CPU does not "
			"exist, is offline or is outside this process's cpuset; use --cpu with "
			"one of the CPUs in /sys/devices/system/cpu/online", cpu);
	else
		problem(rs, "cannot create the RT thread: %s", strerror(err));
	if (!allow_non_rt) {
		pthread_attr_destroy(&attr);
		return err;
	}

	/* --allow-non-rt: keep what can be kept (affinity), drop the rest. */
	pthread_attr_setinheritsched(&attr, PTHREAD_INHERIT_SCHED);
	err = pthread_create(tid, &attr, fn, arg);
	if (err == 0) {
		rs->pinned = cpu >= 0;
	} else {
		pthread_attr_destroy(&attr);
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, rs->p.stack_size);
		err = pthread_create(tid, &attr, fn, arg);
	}
	pthread_attr_destroy(&attr);
	return err;
}

__attribute__((noinline))
void rtsetup_thread_prefault(size_t bytes)
{
	/* A fixed window, not a VLA: mlockall(MCL_FUTURE) already populates the
	 * thread's stack; this makes sure the part the loop uses is touched
	 * even where memory locking was refused (--allow-non-rt). */
	enum { WINDOW = 64 * 1024 };
	volatile unsigned char buf[WINDOW];
	size_t i;

	if (bytes > WINDOW)
		bytes = WINDOW;
	for (i = 0; i < bytes; i += 4096)
		buf[i] = 0;
	buf[bytes ? bytes - 1 : 0] = 0;
	(void)buf[0];
}

static int read_long(const char *path, long *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%ld", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

int rtsetup_nonrt_cpuset(int rt_cpu, cpu_set_t *set)
{
	if (sched_getaffinity(0, sizeof(*set), set) < 0)
		return -1;
	if (rt_cpu < 0 || rt_cpu >= CPU_SETSIZE) {
		errno = EINVAL;
		return -1;
	}
	if (!CPU_ISSET(rt_cpu, set))
		return 0;	/* already elsewhere */
	if (CPU_COUNT(set) < 2) {
		errno = ENOENT;	/* nowhere else to go */
		return -1;
	}
	CPU_CLR(rt_cpu, set);
	return 0;
}

int rtsetup_nonrt_affinity(int rt_cpu)
{
	cpu_set_t set;

	if (rt_cpu < 0)
		return 0;
	if (rtsetup_nonrt_cpuset(rt_cpu, &set) < 0)
		return -1;
	return sched_setaffinity(0, sizeof(set), &set);
}

int rtsetup_helper_fifo(int priority, int rt_cpu)
{
	struct sched_param sp = { .sched_priority = priority };
	cpu_set_t set;
	int err;

	if (rt_cpu >= 0 && rtsetup_nonrt_cpuset(rt_cpu, &set) == 0)
		sched_setaffinity(0, sizeof(set), &set);	/* inherited already, normally */
	err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

int rtsetup_thread_policy(int priority)
{
	struct sched_param sp = { .sched_priority = priority > 0 ? priority : 0 };
	int err = pthread_setschedparam(pthread_self(), priority > 0 ? SCHED_FIFO : SCHED_OTHER, &sp);

	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

int rtsetup_load_place(const cpu_set_t *cpus, int nice, const char **what)
{
	if (cpus && CPU_COUNT(cpus) > 0 && sched_setaffinity(0, sizeof(*cpus), cpus) < 0) {
		*what = "setting CPUs";
		return -1;
	}
	if (nice && setpriority(PRIO_PROCESS, 0, nice) < 0) {
		*what = "setting nice";
		return -1;
	}
	return 0;
}

int rtsetup_rt_throttling(long *runtime_us, long *period_us)
{
	if (read_long("/proc/sys/kernel/sched_rt_runtime_us", runtime_us) != 0 ||
	    read_long("/proc/sys/kernel/sched_rt_period_us", period_us) != 0)
		return -1;
	return *runtime_us != -1;
}

