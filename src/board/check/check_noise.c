/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hardware-noise step of `sqwave check`: the hwlat tracer through
 * tracefs (every setting put back), its samples and their MTBF, and x86's
 * SMI counter, judged as what they do to a wave's edges. */
#include "check/check_noise.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/msgbuf.h"
#include "base/units.h"
#include "base/sysinfo.h"
#include "check/check_sys.h"

#define MSR_SMI_COUNT 0x34
#define MAX_CPUS 1024

/* ---- the samples ----------------------------------------------------------------- */

int hwlat_parse_line(const char *line, struct hwlat_sample *s)
{
	static const char key[] = "inner/outer(us):";
	const char *io, *h, *p;
	char *end;
	unsigned long long in, out;

	if (line[0] == '#' || !(io = strstr(line, key)))
		return 0;
	memset(s, 0, sizeof(*s));
	s->cpu = -1;
	s->count = -1;
	for (h = io; h > line && *h != '#'; h--)
		;
	if (*h != '#' || !isdigit((unsigned char)h[1]))
		return 0;
	s->seq = (unsigned)strtoul(h + 1, NULL, 10);
	/* the CPU column, "[001]": the last one before the sample number */
	for (p = line; (p = strchr(p, '[')) && p < h; p++) {
		long cpu;

		if (!isdigit((unsigned char)p[1]))
			continue;
		cpu = strtol(p + 1, &end, 10);
		if (*end == ']' && cpu >= 0 && cpu < MAX_CPUS)
			s->cpu = (int)cpu;
	}
	if (sscanf(io + sizeof(key) - 1, " %llu/%llu", &in, &out) != 2)
		return 0;
	s->inner_us = in;
	s->outer_us = out;
	if ((p = strstr(io, " ts:"))) {
		s->ts_sec = strtoll(p + 4, &end, 10);
		if (*end == '.')
			s->ts_nsec = strtoll(end + 1, NULL, 10);
	}
	if ((p = strstr(io, " count:")) && isdigit((unsigned char)p[7]))
		s->count = (int)strtol(p + 7, NULL, 10);
	if ((p = strstr(io, " nmi-total:")))
		s->nmi_total_us = strtoull(p + 11, NULL, 10);
	if ((p = strstr(io, " nmi-count:")))
		s->nmi_count = (unsigned)strtoul(p + 11, NULL, 10);
	return 1;
}

void hwlat_stats_add(struct hwlat_stats *st, const struct hwlat_sample *s)
{
	uint64_t gap = s->inner_us > s->outer_us ? s->inner_us : s->outer_us;

	if (!st->samples)
		st->max_cpu = -1;
	st->samples++;
	/* A kernel that counts says how often the threshold was crossed in the
	 * sample; before 5.14 each sample is one crossing (hwlatdetect's rule). */
	st->crossings += s->count >= 0 ? (uint64_t)s->count : 1;
	if (s->inner_us > st->max_inner_us)
		st->max_inner_us = s->inner_us;
	if (s->outer_us > st->max_outer_us)
		st->max_outer_us = s->outer_us;
	if (gap > st->max_gap_us || st->samples == 1) {
		st->max_gap_us = gap;
		st->max_cpu = s->cpu;
		st->max_seq = s->seq;
	}
	st->nmis += s->nmi_count;
}

int64_t hwlat_mtbf_ns(const struct hwlat_stats *st, int64_t run_ns)
{
	return st->crossings ? run_ns / (int64_t)st->crossings : 0;
}

/* ---- tracefs ---------------------------------------------------------------------- */

static int tfs_get(const char *dir, const char *name, char *buf, size_t len)
{
	size_t n;

	if (sysinfo_file_read(dir, name, buf, len))
		return -1;
	n = strlen(buf);
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

static int tfs_set(const char *dir, const char *name, const char *val)
{
	return sysinfo_file_write(dir, name, val, true);
}

/* The kernel keeps width below window at every write: try the order that
 * keeps it (window first when it grows, width first when it shrinks). */
static int tfs_set_width_window(const char *dir, const char *width, const char *window)
{
	if (!tfs_set(dir, "hwlat_detector/window", window) &&
	    !tfs_set(dir, "hwlat_detector/width", width))
		return 0;
	if (!tfs_set(dir, "hwlat_detector/width", width) &&
	    !tfs_set(dir, "hwlat_detector/window", window))
		return 0;
	return -1;
}

/* The tracefs directory: @p->tracefs, or the root's, mounted (it has
 * available_tracers). NULL if none. */
static const char *tracefs_dir(const struct check_noise_params *p, char *buf, size_t len)
{
	static const char *const rel[] = { "sys/kernel/tracing", "sys/kernel/debug/tracing" };
	char t[4200];
	size_t i;

	if (p->tracefs) {
		snprintf(buf, len, "%s", p->tracefs);
		return buf;
	}
	for (i = 0; i < 2; i++) {
		if (!sysinfo_path(p->root, rel[i], buf, len))
			continue;
		snprintf(t, sizeof(t), "%s/available_tracers", buf);
		if (access(t, F_OK) == 0)
			return buf;
	}
	return NULL;
}

/* The settings the run changes, as they were. */
struct tfs_saved {
	char tracer[64], thresh[32], width[32], window[32], on[8];
};

static const char *secs(int64_t ns, char *buf, size_t len)
{
	if (ns >= INT64_C(1000000000))
		snprintf(buf, len, "%.2f s", (double)ns / 1e9);
	else
		snprintf(buf, len, "%.1f ms", (double)ns / 1e6);
	return buf;
}
#define SECS(ns) secs((ns), (char[32]){ 0 }, 32)

/* ---- SMIs --------------------------------------------------------------------------- */

/* MSR_SMI_COUNT of every online CPU into @v (@n of them): 0, or -1 with
 * the reason in @why and what to do in @fix. */
static int smi_read(const struct check_noise_params *p, uint64_t *v, int *n, char *why,
		    size_t wl, char *fix, size_t fl)
{
	char path[4096], line[256], vendor[64] = "", rel[64];
	struct check_cpuset online;
	bool cpuinfo = false;
	FILE *f;
	int cpu, e;

	*n = 0;
	if (sysinfo_path(p->root, "proc/cpuinfo", path, sizeof(path)) &&
	    (f = sysinfo_fopen(path))) {
		cpuinfo = true;
		while (!vendor[0] && fgets(line, sizeof(line), f))
			if (!strncmp(line, "vendor_id", 9) && strchr(line, ':'))
				sscanf(strchr(line, ':') + 1, " %63s", vendor);
		fclose(f);
	}
	if (!cpuinfo) {
		msgbuf_set(why, wl, "cannot read %s", path);
		return -1;
	}
	if (!vendor[0]) {
		msgbuf_set(why, wl, "not x86 (no vendor_id in /proc/cpuinfo): no SMI counter; "
			 "firmware's time away (secure monitor, TF-A, OP-TEE) shows as hwlat gaps");
		return -1;
	}
	if (strcmp(vendor, "GenuineIntel")) {
		msgbuf_set(why, wl, "%s CPU: MSR_SMI_COUNT (0x34) is Intel's, sqwave counts SMIs "
			 "only there; SMIs show as hwlat gaps", vendor);
		return -1;
	}
	if (p->tree) {
		msgbuf_set(why, wl, "a copied tree: the MSRs under it are not this machine's and are "
			 "never opened");
		return -1;
	}
	if (sysinfo_read_line(p->root, "sys/devices/system/cpu/online", line, sizeof(line)) ||
	    check_cpuset_parse(line, MAX_CPUS, &online)) {
		msgbuf_set(why, wl, "cannot read the online CPUs");
		return -1;
	}
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		uint64_t c;
		ssize_t got;
		int fd;

		if (!check_cpuset_has(&online, cpu))
			continue;
		snprintf(rel, sizeof(rel), "dev/cpu/%d/msr", cpu);
		if (!sysinfo_path(p->root, rel, path, sizeof(path)))
			return -1;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			e = errno;
			if (e == ENOENT) {
				msgbuf_set(why, wl, "no %s: the msr driver is not loaded", path);
				msgbuf_set(fix, fl, "modprobe msr (CONFIG_X86_MSR), then check again");
			} else if (e == EACCES || e == EPERM) {
				msgbuf_set(why, wl, "%s: %s (reading MSRs takes root or "
					 "CAP_SYS_RAWIO)", path, strerror(e));
				msgbuf_set(fix, fl, "run check as root");
			} else {
				msgbuf_set(why, wl, "%s: %s", path, strerror(e));
			}
			return -1;
		}
		got = pread(fd, &c, sizeof(c), MSR_SMI_COUNT);
		e = errno;
		close(fd);
		if (got != (ssize_t)sizeof(c)) {
			if (got < 0 && e == EIO)
				msgbuf_set(why, wl, "cpu%d refuses MSR 0x34 (EIO): a virtual machine "
					 "whose hypervisor does not pass the SMI counter through, "
					 "or a CPU without it", cpu);
			else
				msgbuf_set(why, wl, "reading MSR 0x34 of cpu%d: %s", cpu,
					 got < 0 ? strerror(e) : "short read");
			return -1;
		}
		v[(*n)++] = c;
	}
	if (!*n) {
		msgbuf_set(why, wl, "no online CPU");
		return -1;
	}
	return 0;
}

static void smi_judge(struct check_report *r, const struct check_noise_params *p,
		      const uint64_t *before, const uint64_t *after, int n, bool delta,
		      int64_t run_ns, struct check_noise_result *res)
{
	uint64_t boot = 0, during = 0, sum = 0;
	struct check_finding *f;
	int i;

	for (i = 0; i < n; i++) {
		uint64_t d = after[i] - before[i];

		if (after[i] > boot)
			boot = after[i];
		if (d > during)
			during = d;
		sum += d;
	}
	res->smi_known = true;
	res->smi_delta = delta;
	res->smi_since_boot = boot;
	res->smi_during = during;
	res->smi_cpus = n;
	(void)p;
	if (delta && !during) {
		check_add(r, CHECK_PASS, "noise.smi", "no SMI during the %s hwlat run (MSR 0x34 "
			  "on %d CPU%s; %" PRIu64 " since boot)", SECS(run_ns), n, n == 1 ? "" : "s",
			  boot);
		return;
	}
	if (!delta && !boot) {
		check_add(r, CHECK_PASS, "noise.smi", "no SMI since boot (MSR 0x34 on %d CPU%s)", n,
			  n == 1 ? "" : "s");
		return;
	}
	if (delta)
		f = check_add(r, CHECK_WARN, "noise.smi", "%" PRIu64 " SMI%s during the %s hwlat "
			      "run (MSR 0x34, the most on one CPU; %" PRIu64 " summed over %d "
			      "CPUs, as hwlatdetect adds them; %" PRIu64 " since boot)", during,
			      during == 1 ? "" : "s", SECS(run_ns), sum, n, boot);
	else
		f = check_add(r, CHECK_WARN, "noise.smi", "%" PRIu64 " SMI%s since boot (MSR "
			      "0x34, the most on one CPU of %d)", boot, boot == 1 ? "" : "s", n);
	check_why(f, "a System Management Interrupt stops every CPU for the firmware, "
		  "invisibly to Linux, typically for tens to hundreds of microseconds: an edge "
		  "due then comes that much late, whatever the kernel's settings");
	check_fix(f, "%sthe BIOS/UEFI setup: turn off what raises SMIs (legacy USB emulation, "
		  "power and thermal management by firmware, ECC reporting, TCO watchdog), or "
		  "use a board whose firmware is quiet", delta ? "" :
		  "check --hwlat measures what they cost; ");
}

/* ---- the hwlat run ------------------------------------------------------------------ */

/* Put back @sv where @changed says the run set it: the tracer first (it
 * stops sampling), then the knobs. Returns the first setting that could not
 * be put back, or NULL. */
enum { CH_ON = 1, CH_THRESH = 2, CH_WW = 4, CH_TRACER = 8 };

static const char *tfs_restore(const char *dir, const struct tfs_saved *sv, unsigned changed)
{
	const char *bad = NULL;

	if (changed & CH_TRACER) {
		tfs_set(dir, "tracing_on", "0");
		if (tfs_set(dir, "current_tracer", sv->tracer))
			bad = "current_tracer";
	}
	if ((changed & CH_THRESH) && tfs_set(dir, "tracing_thresh", sv->thresh) && !bad)
		bad = "tracing_thresh";
	if ((changed & CH_WW) && tfs_set_width_window(dir, sv->width, sv->window) && !bad)
		bad = "hwlat_detector/width and window";
	if ((changed & (CH_ON | CH_TRACER)) && tfs_set(dir, "tracing_on", sv->on) && !bad)
		bad = "tracing_on";
	return bad;
}

/* Wait @ns with the stop signals blocked (the caller blocked them): the
 * signal that ended it early, or 0. */
static int wait_blocked(const sigset_t *set, int64_t ns)
{
	int64_t end = (int64_t)clock_mono_ns() + ns, left;

	while ((left = end - (int64_t)clock_mono_ns()) > 0) {
		struct timespec ts = { (time_t)(left / 1000000000), (long)(left % 1000000000) };
		int sig = sigtimedwait(set, NULL, &ts);

		if (sig > 0)
			return sig;
	}
	return 0;
}

/* Read the samples in @dir's trace. -1 if it cannot be read. */
static int read_samples(const char *dir, struct hwlat_stats *st)
{
	char path[4200], line[1024];
	struct hwlat_sample s;
	FILE *f;

	snprintf(path, sizeof(path), "%s/trace", dir);
	if (!(f = fopen(path, "re")))
		return -1;
	while (fgets(line, sizeof(line), f))
		if (hwlat_parse_line(line, &s))
			hwlat_stats_add(st, &s);
	fclose(f);
	return 0;
}

/* The judgement of a gap of @gap_us: the limits it breaks, each against the
 * nominal it is nearest to (a duty cycle's longer level against tmax, its
 * shorter one against tmin), else against the shorter level. */
static void hwlat_judge(struct check_report *r, const struct check_noise_params *p,
			const struct check_noise_result *res, const char *vm, const char *tdir)
{
	const struct hwlat_stats *st = &res->st;
	int64_t gap = (int64_t)st->max_gap_us * 1000, lo = p->short_ns, hi = p->long_ns;
	bool duty = lo != hi;
	char how[200], broke[256] = "", cpu[16] = "";
	enum check_status status;
	struct check_finding *f;

	snprintf(how, sizeof(how), "%u ms of each %u ms window spinning with interrupts off",
		 NOISE_HWLAT_WIDTH_US / 1000, NOISE_HWLAT_WINDOW_US / 1000);
	if (!st->samples) {
		f = check_add(r, CHECK_PASS, "noise.hwlat", "no gap above %" PRId64 " us in %s "
			      "of hwlat (%s)", res->threshold_ns / 1000, SECS(res->run_ns), how);
		check_why(f, "hwlat reads the clock in a loop with interrupts off: a gap is time "
			  "taken from the CPU below the kernel (SMI, firmware, the hypervisor), "
			  "which no kernel setting removes%s%s", vm ? "; " : "", vm ? vm : "");
		return;
	}
	if (p->tmax_ns && hi + gap > p->tmax_ns)
		msgbuf_add(broke, sizeof(broke), "%s%s + gap = %s us > limits.tmax %s us",
			   broke[0] ? "; " : "", duty ? "the longer level" : "half period",
			   UNITS_US(hi + gap), UNITS_US(p->tmax_ns));
	if (p->tmin_ns && lo - gap < p->tmin_ns)
		msgbuf_add(broke, sizeof(broke), "%s%s - gap = %s us < limits.tmin %s us",
			   broke[0] ? "; " : "", duty ? "the shorter level" : "half period",
			   UNITS_US(lo - gap), UNITS_US(p->tmin_ns));
	if (p->width_error_ns && gap > p->width_error_ns)
		msgbuf_add(broke, sizeof(broke), "%sgap > limits.width_error %s us",
			   broke[0] ? "; " : "", UNITS_US(p->width_error_ns));
	if (p->wake_max_ns && gap > p->wake_max_ns)
		msgbuf_add(broke, sizeof(broke), "%sgap > limits.wake_latency_max %s us",
			   broke[0] ? "; " : "", UNITS_US(p->wake_max_ns));
	if (!broke[0] && 2 * gap >= lo)
		snprintf(broke, sizeof(broke), "the gap is half the %s or more: a pulse far from "
			 "nominal", duty ? "shorter level" : "half period");
	status = broke[0] ? CHECK_FAIL : CHECK_WARN;
	if (st->max_cpu >= 0)
		snprintf(cpu, sizeof(cpu), "cpu%d, ", st->max_cpu);
	f = check_add(r, status, "noise.hwlat", "largest gap %" PRIu64 " us (inner %" PRIu64
		      ", outer %" PRIu64 "; %ssample #%u); %" PRIu64 " sample%s above %" PRId64 " us, %"
		      PRIu64 " crossing%s in %s: MTBF %s%s%s", st->max_gap_us, st->max_inner_us,
		      st->max_outer_us, cpu, st->max_seq, st->samples, st->samples == 1 ? "" : "s",
		      res->threshold_ns / 1000, st->crossings, st->crossings == 1 ? "" : "s",
		      SECS(res->run_ns), SECS(res->mtbf_ns), broke[0] ? "; " : "", broke);
	check_why(f, "hwlat reads the clock in a loop with interrupts off (%s): a gap is time "
		  "taken from the CPU below the kernel (SMI, firmware, the hypervisor) that no "
		  "kernel setting removes; an edge due in it wakes up to %" PRIu64 " us late, so "
		  "pulses of %s%s%s us +- %" PRIu64 " us, once every %s on average%s%s", how,
		  st->max_gap_us, UNITS_US(lo), duty ? " and " : "", duty ? UNITS_US(hi) : "",
		  st->max_gap_us, SECS(res->mtbf_ns),
		  vm ? ". " : "", vm ? vm : "");
	check_fix(f, "%s; the samples: %s/trace while `echo hwlat > current_tracer` runs, "
		  "or hwlatdetect --duration=10m for a longer look",
		  vm ? "measure on the board itself, or RT-tune the host (host.hypervisor)"
		  : "the firmware: BIOS/UEFI power management, SMI sources (noise.smi), a "
		  "board or BSP whose firmware does not steal the CPU", tdir);
}

static void hwlat_run(struct check_report *r, const struct check_noise_params *p,
		      const char *dir, const char *vm, struct check_noise_result *res,
		      uint64_t *smi_before, bool *smi_ok, int *smi_n, uint64_t *smi_after)
{
	struct tfs_saved sv;
	struct check_finding *f;
	unsigned changed = 0;
	const char *step = NULL, *bad;
	char val[32], w[32], err[256] = "", why[256], fix[128];
	sigset_t set, old;
	int sig = 0, e = 0, n2;
	int64_t t0;

	if (tfs_get(dir, "current_tracer", sv.tracer, sizeof(sv.tracer))) {
		f = check_add(r, CHECK_SKIP, "noise.hwlat", "cannot read %s/current_tracer: %s",
			      dir, strerror(errno));
		check_fix(f, "run check as root");
		return;
	}
	if (strcmp(sv.tracer, "nop")) {
		f = check_add(r, CHECK_SKIP, "noise.hwlat", "not run: tracefs is in use "
			      "(current_tracer is %s), left as it is", sv.tracer);
		check_why(f, "the hwlat tracer runs in the top-level tracefs only one at a time, "
			  "and its knobs are global: switching would end that tracing%s",
			  !strcmp(sv.tracer, "hwlat") ? " (hwlat itself: hwlatdetect running, or "
			  "an earlier check killed before it could put things back)" : "");
		check_fix(f, "when that tracing is done: echo nop > %s/current_tracer; then "
			  "check --hwlat again", dir);
		return;
	}
	if (tfs_get(dir, "tracing_thresh", sv.thresh, sizeof(sv.thresh)) ||
	    tfs_get(dir, "hwlat_detector/width", sv.width, sizeof(sv.width)) ||
	    tfs_get(dir, "hwlat_detector/window", sv.window, sizeof(sv.window)) ||
	    tfs_get(dir, "tracing_on", sv.on, sizeof(sv.on))) {
		f = check_add(r, CHECK_SKIP, "noise.hwlat", "cannot read the hwlat settings "
			      "under %s: %s", dir, strerror(errno));
		check_fix(f, "run check as root");
		return;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	pthread_sigmask(SIG_BLOCK, &set, &old);

	/* tracing off while the knobs are set, so the tracer starts with them */
	changed |= CH_ON;
	if (tfs_set(dir, "tracing_on", "0")) {
		step = "tracing_on";
		goto undo;
	}
	snprintf(val, sizeof(val), "%" PRId64, p->threshold_ns / 1000);
	changed |= CH_THRESH;
	if (tfs_set(dir, "tracing_thresh", val)) {
		step = "tracing_thresh";
		goto undo;
	}
	snprintf(val, sizeof(val), "%u", NOISE_HWLAT_WIDTH_US);
	snprintf(w, sizeof(w), "%u", NOISE_HWLAT_WINDOW_US);
	changed |= CH_WW;
	if (tfs_set_width_window(dir, val, w)) {
		step = "hwlat_detector/width and window";
		goto undo;
	}
	changed |= CH_TRACER;
	if (tfs_set(dir, "current_tracer", "hwlat")) {
		step = "current_tracer";
		goto undo;
	}
	if (smi_before)
		*smi_ok = smi_read(p, smi_before, smi_n, why, sizeof(why), fix, sizeof(fix)) == 0;
	t0 = (int64_t)clock_mono_ns();
	if (tfs_set(dir, "tracing_on", "1")) {
		step = "tracing_on";
		goto undo;
	}
	if (p->running)
		p->running(p->running_ctx, dir);
	sig = wait_blocked(&set, p->hwlat_ns);
	/* stop sampling, then read: switching the tracer back empties the buffer */
	tfs_set(dir, "tracing_on", "0");
	res->run_ns = (int64_t)clock_mono_ns() - t0;
	if (smi_before && *smi_ok)
		*smi_ok = smi_read(p, smi_after, &n2, why, sizeof(why), fix, sizeof(fix)) == 0 &&
			  n2 == *smi_n;
	memset(&res->st, 0, sizeof(res->st));
	res->st.max_cpu = -1;
	if (read_samples(dir, &res->st)) {
		e = errno;
		step = "reading trace";
		goto undo;
	}
	res->ran = true;
	res->mtbf_ns = hwlat_mtbf_ns(&res->st, res->run_ns);
undo:
	if (step && !e)
		e = errno;
	bad = tfs_restore(dir, &sv, changed);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (bad)
		check_incomplete(r, "could not put back %s/%s after the hwlat run: set it by hand",
				 dir, bad);
	if (step) {
		snprintf(err, sizeof(err), "%s: %s", step, strerror(e));
		f = check_add(r, CHECK_SKIP, "noise.hwlat", "the hwlat tracer could not run: %s%s "
			      "(settings put back%s%s)", err, e == EBUSY ? " (another instance "
			      "runs hwlat)" : "", bad ? " except " : "", bad ? bad : "");
		check_fix(f, e == EACCES || e == EPERM ? "run check as root" :
			  "stop the other hwlat user (an instance, hwlatdetect), then check again");
		return;
	}
	if (sig) {
		check_incomplete(r, "the hwlat run was stopped by %s after %s", strsignal(sig),
				 SECS(res->run_ns));
		f = check_add(r, CHECK_SKIP, "noise.hwlat", "stopped by %s after %s: %" PRIu64
			      " sample%s, largest gap %" PRIu64 " us (settings put back)",
			      strsignal(sig), SECS(res->run_ns), res->st.samples,
			      res->st.samples == 1 ? "" : "s", res->st.max_gap_us);
		return;
	}
	hwlat_judge(r, p, res, vm, dir);
}

void check_noise(struct check_report *r, const struct check_noise_params *p)
{
	static uint64_t before[MAX_CPUS], after[MAX_CPUS];
	struct check_noise_result local, *res = p->out ? p->out : &local;
	const struct check_finding *hv = check_find(r, "host.hypervisor");
	char dir[4096], tracers[1024] = "", vmtext[CHECK_TEXT], why[256] = "", fix[128] = "";
	const char *tdir, *vm = NULL;
	struct check_finding *f;
	bool smi_ok = false;
	int n = 0;

	memset(res, 0, sizeof(*res));
	res->threshold_ns = p->threshold_ns;
	res->st.max_cpu = -1;
	if (hv && hv->status == CHECK_WARN) {
		msgbuf_set(vmtext, sizeof(vmtext), "This is a virtual machine (host.hypervisor: %s): "
			 "its gaps are most likely the hypervisor's, a vCPU not run on the host, "
			 "not this board's", hv->value);
		vm = vmtext;
	}
	tdir = tracefs_dir(p, dir, sizeof(dir));
	if (tdir && tfs_get(tdir, "available_tracers", tracers, sizeof(tracers)) == 0) {
		res->tracer_known = true;
		res->has_hwlat = sysinfo_has_word(tracers, "hwlat");
	}
	if (!tdir) {
		f = check_add(r, CHECK_SKIP, "noise.hwlat", "no tracefs under %s (neither "
			      "sys/kernel/tracing nor sys/kernel/debug/tracing has "
			      "available_tracers)", p->root);
		if (!p->tree)
			check_fix(f, "mount -t tracefs nodev /sys/kernel/tracing (a kernel with "
				  "CONFIG_FTRACE and CONFIG_HWLAT_TRACER)");
	} else if (!res->tracer_known) {
		f = check_add(r, CHECK_SKIP, "noise.hwlat", "cannot read %s/available_tracers: "
			      "%s", tdir, strerror(errno));
		check_fix(f, "run check as root");
	} else if (!res->has_hwlat) {
		f = check_add(r, CHECK_SKIP, "noise.hwlat", "this kernel has no hwlat tracer "
			      "(CONFIG_HWLAT_TRACER; available_tracers: %s): hardware noise not "
			      "measured",
			      tracers[0] ? tracers : "none");
		check_why(f, "the hwlat tracer measures what SMIs, firmware or a hypervisor take "
			  "from the CPU, which no kernel setting removes and which lands on edges "
			  "as late wake-ups");
		check_fix(f, "a kernel built with CONFIG_HWLAT_TRACER=y (Debian's -rt kernels "
			  "have it); then check --hwlat");
	} else if (p->tree) {
		check_add(r, CHECK_SKIP, "noise.hwlat", "a copied tree: its kernel has the hwlat "
			  "tracer, but a run here would measure this machine");
	} else if (!p->hwlat_ns) {
		f = check_add(r, CHECK_SKIP, "noise.hwlat", "not run: the hwlat tracer is there "
			      "(check --hwlat[=DURATION] runs it, 10 s by default)");
		check_why(f, "it spins one CPU at a time with interrupts off for half of each "
			  "second: a test of the hardware, not to be run beside a measurement");
	} else {
		hwlat_run(r, p, tdir, vm, res, before, &smi_ok, &n, after);
		if (!res->ran)
			smi_ok = false;
	}
	if (res->ran && smi_ok) {
		smi_judge(r, p, before, after, n, true, res->run_ns, res);
		return;
	}
	if (smi_read(p, after, &n, why, sizeof(why), fix, sizeof(fix)) == 0) {
		memset(before, 0, sizeof(before[0]) * (size_t)n);
		smi_judge(r, p, before, after, n, false, 0, res);
		return;
	}
	f = check_add(r, CHECK_SKIP, "noise.smi", "SMIs not counted: %s", why);
	if (fix[0])
		check_fix(f, "%s", fix);
}
