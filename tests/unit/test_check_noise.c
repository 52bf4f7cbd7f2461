/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the hardware-noise step: hwlat sample lines of several
 * kernels, the statistics and MTBF, a run against a fake tracefs (every
 * setting put back, on every path), the refusals, and the SMI counter
 * read from fake /dev/cpu/N/msr files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define _XOPEN_SOURCE_EXTENDED 1
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/check.h"
#include "check/check_noise.h"

static char root[64];
static char tfs[128];
static struct check_report rep;
static struct check_noise_params P;
static struct check_noise_result R;

/* Real lines, as trace_hwlat_print() writes them. */
/* 4.9 to 5.13: no count */
#define LINE_49 "           <...>-1729  [001] d...   678.473449: #1     inner/outer(us):   11/12    ts:1581527483.343962693\n"
/* 5.14 and later (6.1, 6.6, 6.12): count */
#define LINE_61 "           <...>-1729  [003] d...   689.556542: #2     inner/outer(us):   16/9     ts:1581527494.889008092 count:6\n"
/* with NMIs inside the sample (x86: nmi-total; generic sched_clock: count only) */
#define LINE_NMI "          hwlatd-312   [000] dn..  1201.000101: #3     inner/outer(us):   23/40    ts:1700000000.000000001 count:2 nmi-total:7 nmi-count:1\n"
#define HEADER "# tracer: hwlat\n#\n# entries-in-buffer/entries-written: 3/3   #P:4\n#\n" \
	"#           TASK-PID     CPU#  ||||  TIMESTAMP  FUNCTION\n" \
	"#              | |         |   ||||     |         |\n"

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

static void get(const char *rel, char *buf, size_t len)
{
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
}

#define assert_file(rel, want) do { \
	char b_[256]; \
	get((rel), b_, sizeof(b_)); \
	if (strcmp(b_, (want))) \
		fail_msg("%s is \"%s\", want \"%s\"", (rel), b_, (want)); \
} while (0)

/* An 8-byte MSR_SMI_COUNT of @value at offset 0x34 of @rel. */
static void put_msr(const char *rel, uint64_t value)
{
	char path[512], zero[0x34] = { 0 };
	FILE *f;

	put(rel, "");
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(zero, 1, sizeof(zero), f);
	fwrite(&value, 1, sizeof(value), f);
	fclose(f);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* A quiet ARM machine with the hwlat tracer idle; the user's own settings
 * (not the defaults) so that putting them back shows. */
static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/sqwave-noise-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(tfs, sizeof(tfs), "%s/sys/kernel/tracing", root);
	put("proc/cpuinfo", "processor\t: 0\nCPU implementer\t: 0x41\n");
	put("sys/devices/system/cpu/online", "0-1\n");
	put("sys/kernel/tracing/available_tracers", "hwlat osnoise timerlat function nop\n");
	put("sys/kernel/tracing/current_tracer", "nop\n");
	put("sys/kernel/tracing/tracing_thresh", "0\n");
	put("sys/kernel/tracing/tracing_on", "1\n");
	put("sys/kernel/tracing/hwlat_detector/width", "250000\n");
	put("sys/kernel/tracing/hwlat_detector/window", "750000\n");
	put("sys/kernel/tracing/trace", HEADER);
	check_report_init(&rep);
	memset(&R, 0, sizeof(R));
	P = (struct check_noise_params){ .root = root, .hwlat_ns = 1000000,
					 .threshold_ns = NOISE_HWLAT_THRESHOLD_NS,
					 .short_ns = 500000, .long_ns = 500000, .out = &R };
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	check_report_free(&rep);
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static const struct check_finding *finding(const char *id)
{
	const struct check_finding *f = check_find(&rep, id);

	if (!f)
		fail_msg("no finding %s", id);
	return f;
}

#define assert_finding(id, st, text) do { \
	const struct check_finding *f_ = finding(id); \
	if (f_->status != (st) || !strstr(f_->value, (text))) \
		fail_msg("%s: got %s \"%s\", want %s with \"%s\"", (id), \
			 check_status_name(f_->status), f_->value, \
			 check_status_name(st), (text)); \
} while (0)

/* The user's settings, as setup() left them. */
static void assert_settings_put_back(void)
{
	assert_file("sys/kernel/tracing/current_tracer", "nop");
	assert_file("sys/kernel/tracing/tracing_thresh", "0");
	assert_file("sys/kernel/tracing/tracing_on", "1");
	assert_file("sys/kernel/tracing/hwlat_detector/width", "250000");
	assert_file("sys/kernel/tracing/hwlat_detector/window", "750000");
}

/* ---- parsing ------------------------------------------------------------------------ */

static void a_sample_line_of_a_4_9_kernel_is_read(void **state)
{
	struct hwlat_sample s;

	(void)state;
	assert_int_equal(hwlat_parse_line(LINE_49, &s), 1);
	assert_int_equal(s.seq, 1);
	assert_int_equal(s.cpu, 1);
	assert_int_equal(s.inner_us, 11);
	assert_int_equal(s.outer_us, 12);
	assert_int_equal(s.ts_sec, 1581527483);
	assert_int_equal(s.ts_nsec, 343962693);
	assert_int_equal(s.count, -1);
	assert_int_equal(s.nmi_count, 0);
}

static void a_sample_line_of_a_6_1_kernel_has_its_count(void **state)
{
	struct hwlat_sample s;

	(void)state;
	assert_int_equal(hwlat_parse_line(LINE_61, &s), 1);
	assert_int_equal(s.seq, 2);
	assert_int_equal(s.cpu, 3);
	assert_int_equal(s.inner_us, 16);
	assert_int_equal(s.outer_us, 9);
	assert_int_equal(s.count, 6);
}

static void nmis_inside_a_sample_are_read(void **state)
{
	struct hwlat_sample s;

	(void)state;
	assert_int_equal(hwlat_parse_line(LINE_NMI, &s), 1);
	assert_int_equal(s.cpu, 0);
	assert_int_equal(s.inner_us, 23);
	assert_int_equal(s.outer_us, 40);
	assert_int_equal(s.count, 2);
	assert_int_equal(s.nmi_total_us, 7);
	assert_int_equal(s.nmi_count, 1);
	/* generic sched_clock: the count without the time */
	assert_int_equal(hwlat_parse_line("  <...>-9 [002] d... 5.0: #9 inner/outer(us):    "
					  "0/15    ts:1.000000002 count:1 nmi-count:3\n", &s), 1);
	assert_int_equal(s.nmi_total_us, 0);
	assert_int_equal(s.nmi_count, 3);
	assert_int_equal(s.outer_us, 15);
}

static void headers_and_other_events_are_not_samples(void **state)
{
	struct hwlat_sample s;

	(void)state;
	assert_int_equal(hwlat_parse_line("# tracer: hwlat\n", &s), 0);
	assert_int_equal(hwlat_parse_line("#              | |       |   ||||       |         |\n", &s), 0);
	assert_int_equal(hwlat_parse_line("            bash-812   [000] .....   12.3: "
					  "tracing_mark_write: sqwave edge 5\n", &s), 0);
	assert_int_equal(hwlat_parse_line("  x-1 [000] d... 1.0: #4 inner/outer(us): junk\n", &s), 0);
	assert_int_equal(hwlat_parse_line("\n", &s), 0);
}

/* ---- statistics ---------------------------------------------------------------------- */

static void crossings_are_the_counts_or_one_per_sample(void **state)
{
	struct hwlat_stats st = { 0 };
	struct hwlat_sample s;

	(void)state;
	assert_int_equal(hwlat_parse_line(LINE_61, &s), 1);
	hwlat_stats_add(&st, &s);
	assert_int_equal(hwlat_parse_line(LINE_NMI, &s), 1);
	hwlat_stats_add(&st, &s);
	assert_int_equal(st.samples, 2);
	assert_int_equal(st.crossings, 8);     /* 6 + 2 */
	assert_int_equal(st.max_inner_us, 23);
	assert_int_equal(st.max_outer_us, 40);
	assert_int_equal(st.max_gap_us, 40);
	assert_int_equal(st.max_cpu, 0);
	assert_int_equal(st.max_seq, 3);
	assert_int_equal(st.nmis, 1);
	/* a kernel before 5.14: each sample one crossing */
	memset(&st, 0, sizeof(st));
	assert_int_equal(hwlat_parse_line(LINE_49, &s), 1);
	hwlat_stats_add(&st, &s);
	hwlat_stats_add(&st, &s);
	assert_int_equal(st.crossings, 2);
	assert_int_equal(st.max_gap_us, 12);
	assert_int_equal(st.max_cpu, 1);
}

static void mtbf_is_the_run_time_over_the_crossings(void **state)
{
	struct hwlat_stats st = { .samples = 3, .crossings = 4 };

	(void)state;
	assert_int_equal(hwlat_mtbf_ns(&st, INT64_C(10000000000)), INT64_C(2500000000));
	st.crossings = 3;
	assert_int_equal(hwlat_mtbf_ns(&st, INT64_C(60000000000)), INT64_C(20000000000));
	st.crossings = 0;
	assert_int_equal(hwlat_mtbf_ns(&st, INT64_C(60000000000)), 0);
}

/* ---- the run -------------------------------------------------------------------------- */

struct during {
	char tracer[32], thresh[32], width[32], window[32], on[8];
	const char *trace;       /* what the tracer writes meanwhile */
	bool raise_sigint;
	uint64_t smi0, smi1;     /* cpu0's, cpu1's count becomes this, when not 0 */
};

/* While the tracer "runs": what tracefs says, and the samples it writes. */
static void while_running(void *ctx, const char *dir)
{
	struct during *d = ctx;

	assert_string_equal(dir, tfs);
	get("sys/kernel/tracing/current_tracer", d->tracer, sizeof(d->tracer));
	get("sys/kernel/tracing/tracing_thresh", d->thresh, sizeof(d->thresh));
	get("sys/kernel/tracing/hwlat_detector/width", d->width, sizeof(d->width));
	get("sys/kernel/tracing/hwlat_detector/window", d->window, sizeof(d->window));
	get("sys/kernel/tracing/tracing_on", d->on, sizeof(d->on));
	if (d->trace)
		put("sys/kernel/tracing/trace", d->trace);
	if (d->smi0)
		put_msr("dev/cpu/0/msr", d->smi0);
	if (d->smi1)
		put_msr("dev/cpu/1/msr", d->smi1);
	if (d->raise_sigint)
		kill(getpid(), SIGINT);
}

static void the_tracer_runs_with_hwlatdetects_settings_and_all_are_put_back(void **state)
{
	struct during d = { .trace = HEADER LINE_61 LINE_NMI };

	(void)state;
	P.running = while_running;
	P.running_ctx = &d;
	check_noise(&rep, &P);
	assert_string_equal(d.tracer, "hwlat");
	assert_string_equal(d.thresh, "10");
	assert_string_equal(d.width, "500000");
	assert_string_equal(d.window, "1000000");
	assert_string_equal(d.on, "1");
	assert_settings_put_back();
	assert_true(R.ran);
	assert_int_equal(R.st.samples, 2);
	assert_int_equal(R.st.crossings, 8);
	assert_int_equal(R.st.max_gap_us, 40);
	assert_true(R.run_ns > 0);
	assert_int_equal(R.mtbf_ns, R.run_ns / 8);
	/* 40 us on a 500 us half period: noise, not a pulse far from nominal */
	assert_finding("noise.hwlat", CHECK_WARN, "largest gap 40 us (inner 23, outer 40; cpu0, "
		       "sample #3); 2 samples above 10 us, 8 crossings in ");
	assert_non_null(strstr(finding("noise.hwlat")->value, "MTBF"));
	assert_non_null(strstr(finding("noise.hwlat")->why, "up to 40 us late"));
	assert_false(rep.incomplete);
}

static void a_quiet_machine_passes_with_what_was_looked_at(void **state)
{
	(void)state;
	check_noise(&rep, &P);
	assert_settings_put_back();
	assert_finding("noise.hwlat", CHECK_PASS, "no gap above 10 us in ");
	assert_int_equal(R.st.samples, 0);
	assert_int_equal(R.mtbf_ns, 0);
}

static void a_gap_of_half_the_half_period_fails(void **state)
{
	struct during d = { .trace = HEADER "  <...>-1 [001] d... 1.0: #1     inner/outer(us):  "
					    "250/3     ts:1.000000000 count:1\n" };

	(void)state;
	P.running = while_running;
	P.running_ctx = &d;
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_FAIL, "largest gap 250 us");
	assert_non_null(strstr(finding("noise.hwlat")->value, "far from nominal"));
	assert_settings_put_back();
}

static void a_gap_beyond_the_limits_fails_and_names_them(void **state)
{
	struct during d = { .trace = HEADER LINE_61 };

	(void)state;
	P.running = while_running;
	P.running_ctx = &d;
	P.tmax_ns = 510000;      /* 500 + 16 us > 510 us */
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_FAIL, "half period + gap = 516.000 us > limits.tmax "
		       "510.000 us");
	check_report_free(&rep);
	check_report_init(&rep);
	P.tmax_ns = 0;
	P.tmin_ns = 490000;      /* 500 - 16 us < 490 us */
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_FAIL, "half period - gap = 484.000 us < limits.tmin");
	check_report_free(&rep);
	check_report_init(&rep);
	P.tmin_ns = 0;
	P.wake_max_ns = 15000;
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_FAIL, "gap > limits.wake_latency_max 15.000 us");
	check_report_free(&rep);
	check_report_init(&rep);
	P.wake_max_ns = 20000;   /* 16 us is within all of them: noise, not a failure */
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_WARN, "largest gap 16 us");
}

/* A 300/700 us wave: the longer level meets limits.tmax, the shorter one
 * limits.tmin, and limits.width_error each; never the half period. */
static void a_duty_cycles_levels_each_meet_their_limit(void **state)
{
	struct during d = { .trace = HEADER LINE_61 };

	(void)state;
	P.running = while_running;
	P.running_ctx = &d;
	P.short_ns = 300000;
	P.long_ns = 700000;
	P.tmax_ns = 710000;      /* 700 + 16 us > 710 us, though 500 + 16 is not */
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_FAIL, "the longer level + gap = 716.000 us > "
		       "limits.tmax 710.000 us");
	assert_non_null(strstr(finding("noise.hwlat")->why, "pulses of 300.000 and 700.000 us"));
	check_report_free(&rep);
	check_report_init(&rep);
	P.tmax_ns = 0;
	P.tmin_ns = 290000;      /* 300 - 16 us < 290 us */
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_FAIL, "the shorter level - gap = 284.000 us < "
		       "limits.tmin");
	check_report_free(&rep);
	check_report_init(&rep);
	P.tmin_ns = 0;
	P.width_error_ns = 10000;
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_FAIL, "gap > limits.width_error 10.000 us");
}

static void when_the_trace_cannot_be_read_every_setting_is_still_put_back(void **state)
{
	char path[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/trace", tfs);
	unlink(path);
	check_noise(&rep, &P);
	assert_settings_put_back();
	assert_finding("noise.hwlat", CHECK_SKIP, "could not run: reading trace");
	assert_false(R.ran);
}

static void a_signal_ends_the_run_early_with_every_setting_put_back(void **state)
{
	struct during d = { .trace = HEADER LINE_49, .raise_sigint = true };

	(void)state;
	P.running = while_running;
	P.running_ctx = &d;
	P.hwlat_ns = INT64_C(30000000000);  /* the signal, not the clock, ends it */
	check_noise(&rep, &P);
	assert_settings_put_back();
	assert_finding("noise.hwlat", CHECK_SKIP, "stopped by Interrupt");
	assert_true(rep.incomplete);
	assert_non_null(strstr(rep.incomplete_why, "stopped by"));
}

static void another_tracer_in_use_is_left_alone(void **state)
{
	(void)state;
	put("sys/kernel/tracing/current_tracer", "function\n");
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_SKIP, "tracefs is in use (current_tracer is function)");
	assert_file("sys/kernel/tracing/current_tracer", "function");
	assert_file("sys/kernel/tracing/tracing_thresh", "0");
	assert_file("sys/kernel/tracing/hwlat_detector/width", "250000");
	assert_non_null(strstr(finding("noise.hwlat")->fix, "echo nop >"));
	/* hwlat left running by a killed check: named, not taken over */
	put("sys/kernel/tracing/current_tracer", "hwlat\n");
	check_report_free(&rep);
	check_report_init(&rep);
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_SKIP, "current_tracer is hwlat");
	assert_non_null(strstr(finding("noise.hwlat")->why, "killed"));
}

static void a_kernel_without_the_tracer_names_the_option(void **state)
{
	(void)state;
	put("sys/kernel/tracing/available_tracers", "blk function nop\n");
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_SKIP, "no hwlat tracer (CONFIG_HWLAT_TRACER; "
		       "available_tracers: blk function nop)");
	assert_non_null(strstr(finding("noise.hwlat")->fix, "CONFIG_HWLAT_TRACER=y"));
	assert_false(R.has_hwlat);
	assert_file("sys/kernel/tracing/current_tracer", "nop");
	/* "hwlatx" is not hwlat */
	put("sys/kernel/tracing/available_tracers", "hwlatx nop\n");
	check_report_free(&rep);
	check_report_init(&rep);
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_SKIP, "no hwlat tracer");
}

static void without_tracefs_or_without_asking_nothing_is_run(void **state)
{
	char path[512];

	(void)state;
	P.hwlat_ns = 0;
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_SKIP, "not run: the hwlat tracer is there");
	assert_true(R.has_hwlat);
	assert_false(R.ran);
	assert_file("sys/kernel/tracing/current_tracer", "nop");
	/* a copied tree: never run there */
	P.hwlat_ns = 1000000;
	P.tree = true;
	check_report_free(&rep);
	check_report_init(&rep);
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_SKIP, "a copied tree");
	assert_false(R.ran);
	P.tree = false;
	snprintf(path, sizeof(path), "%s/available_tracers", tfs);
	unlink(path);
	check_report_free(&rep);
	check_report_init(&rep);
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_SKIP, "no tracefs under");
	assert_non_null(strstr(finding("noise.hwlat")->fix, "mount -t tracefs"));
}

static void debugfs_tracing_is_found_too(void **state)
{
	(void)state;
	snprintf(tfs, sizeof(tfs), "%s/sys/kernel/debug/tracing", root);
	put("sys/kernel/debug/tracing/available_tracers", "hwlat nop\n");
	rename(strcat(strcpy((char[256]){ 0 }, root), "/sys/kernel/tracing/available_tracers"),
	       strcat(strcpy((char[256]){ 0 }, root), "/sys/kernel/tracing/x"));
	P.hwlat_ns = 0;
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_SKIP, "not run: the hwlat tracer is there");
}

static void in_a_virtual_machine_the_hypervisor_is_named_as_the_source(void **state)
{
	struct during d = { .trace = HEADER LINE_61 };

	(void)state;
	check_add(&rep, CHECK_WARN, "host.hypervisor", "a virtual machine: device-tree "
		  "compatible \"linux,dummy-virt\" (QEMU's virt board)");
	P.running = while_running;
	P.running_ctx = &d;
	check_noise(&rep, &P);
	assert_finding("noise.hwlat", CHECK_WARN, "largest gap 16 us");
	assert_non_null(strstr(finding("noise.hwlat")->why, "This is a virtual machine "
			       "(host.hypervisor: a virtual machine: device-tree compatible "
			       "\"linux,dummy-virt\""));
	assert_non_null(strstr(finding("noise.hwlat")->why, "the hypervisor's"));
	assert_non_null(strstr(finding("noise.hwlat")->fix, "measure on the board"));
	/* on bare metal the fix is the firmware's */
	check_report_free(&rep);
	check_report_init(&rep);
	check_add(&rep, CHECK_PASS, "host.hypervisor", "no sign of a hypervisor");
	check_noise(&rep, &P);
	assert_null(strstr(finding("noise.hwlat")->why, "virtual machine"));
	assert_non_null(strstr(finding("noise.hwlat")->fix, "firmware"));
}

/* ---- SMIs ---------------------------------------------------------------------------- */

static void intel(void)
{
	put("proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu\n\n"
	    "processor\t: 1\nvendor_id\t: GenuineIntel\nflags\t\t: fpu\n");
	put_msr("dev/cpu/0/msr", 5);
	put_msr("dev/cpu/1/msr", 7);
}

static void smis_during_the_run_are_counted_per_cpu(void **state)
{
	struct during d = { .trace = HEADER, .smi0 = 6, .smi1 = 10 };

	(void)state;
	intel();
	P.running = while_running;
	P.running_ctx = &d;
	check_noise(&rep, &P);
	assert_finding("noise.smi", CHECK_WARN, "3 SMIs during the ");
	/* an SMI stops every CPU: the most one CPU saw, and hwlatdetect's sum */
	assert_non_null(strstr(finding("noise.smi")->value, "4 summed over 2 CPUs"));
	assert_non_null(strstr(finding("noise.smi")->value, "10 since boot"));
	assert_true(R.smi_known && R.smi_delta);
	assert_int_equal(R.smi_during, 3);
	assert_int_equal(R.smi_since_boot, 10);
}

static void no_smi_during_the_run_passes(void **state)
{
	struct during d = { .trace = HEADER };

	(void)state;
	intel();
	P.running = while_running;
	P.running_ctx = &d;
	check_noise(&rep, &P);
	assert_finding("noise.smi", CHECK_PASS, "no SMI during the ");
	assert_int_equal(R.smi_during, 0);
}

static void without_a_run_the_count_since_boot_is_said(void **state)
{
	(void)state;
	intel();
	P.hwlat_ns = 0;
	check_noise(&rep, &P);
	assert_finding("noise.smi", CHECK_WARN, "7 SMIs since boot (MSR 0x34, the most on one "
		       "CPU of 2)");
	assert_false(R.smi_delta);
	put_msr("dev/cpu/0/msr", 0);
	put_msr("dev/cpu/1/msr", 0);
	check_report_free(&rep);
	check_report_init(&rep);
	check_noise(&rep, &P);
	assert_finding("noise.smi", CHECK_PASS, "no SMI since boot (MSR 0x34 on 2 CPUs)");
}

static void smis_that_cannot_be_counted_say_why(void **state)
{
	char path[512];

	(void)state;
	P.hwlat_ns = 0;
	check_noise(&rep, &P);          /* ARM */
	assert_finding("noise.smi", CHECK_SKIP, "not x86");
	put("proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n");
	check_report_free(&rep);
	check_report_init(&rep);
	check_noise(&rep, &P);
	assert_finding("noise.smi", CHECK_SKIP, "AuthenticAMD CPU: MSR_SMI_COUNT (0x34) is Intel's");
	intel();
	snprintf(path, sizeof(path), "%s/dev/cpu/1/msr", root);
	unlink(path);
	check_report_free(&rep);
	check_report_init(&rep);
	check_noise(&rep, &P);
	assert_finding("noise.smi", CHECK_SKIP, "the msr driver is not loaded");
	assert_non_null(strstr(finding("noise.smi")->fix, "modprobe msr"));
	/* a file too short for offset 0x34 */
	put("dev/cpu/1/msr", "x");
	check_report_free(&rep);
	check_report_init(&rep);
	check_noise(&rep, &P);
	assert_finding("noise.smi", CHECK_SKIP, "reading MSR 0x34 of cpu1: short read");
	/* a copied tree: never opened */
	put_msr("dev/cpu/1/msr", 7);
	P.tree = true;
	check_report_free(&rep);
	check_report_init(&rep);
	check_noise(&rep, &P);
	assert_finding("noise.smi", CHECK_SKIP, "a copied tree");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(a_sample_line_of_a_4_9_kernel_is_read),
		T(a_sample_line_of_a_6_1_kernel_has_its_count),
		T(nmis_inside_a_sample_are_read),
		T(headers_and_other_events_are_not_samples),
		T(crossings_are_the_counts_or_one_per_sample),
		T(mtbf_is_the_run_time_over_the_crossings),
		T(the_tracer_runs_with_hwlatdetects_settings_and_all_are_put_back),
		T(a_quiet_machine_passes_with_what_was_looked_at),
		T(a_gap_of_half_the_half_period_fails),
		T(a_gap_beyond_the_limits_fails_and_names_them),
		T(a_duty_cycles_levels_each_meet_their_limit),
		T(when_the_trace_cannot_be_read_every_setting_is_still_put_back),
		T(a_signal_ends_the_run_early_with_every_setting_put_back),
		T(another_tracer_in_use_is_left_alone),
		T(a_kernel_without_the_tracer_names_the_option),
		T(without_tracefs_or_without_asking_nothing_is_run),
		T(debugfs_tracing_is_found_too),
		T(in_a_virtual_machine_the_hypervisor_is_named_as_the_source),
		T(smis_during_the_run_are_counted_per_cpu),
		T(no_smi_during_the_run_passes),
		T(without_a_run_the_count_since_boot_is_said),
		T(smis_that_cannot_be_counted_say_why),
	};

	return cmocka_run_group_tests_name("check_noise (hwlat and SMIs on fake trees)", tests,
					   NULL, NULL);
}
