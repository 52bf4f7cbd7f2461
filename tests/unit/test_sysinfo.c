/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysinfo: the CPU model from the cpuinfo dialects of x86 and ARM, and a
 * host read that never fails. Includes the module to reach its parsers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sysinfo.c"

static char path[64];

/* Write @text to a temporary file named in path[]. */
static void cpuinfo_file(const char *text)
{
	const char *tmp = getenv("TMPDIR");
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/sqw-cpuinfo-XXXXXX", tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int teardown(void **state)
{
	(void)state;
	if (path[0])
		unlink(path);
	path[0] = '\0';
	return 0;
}

static void x86_names_the_model(void **state)
{
	char buf[128];

	(void)state;
	cpuinfo_file("processor\t: 0\nvendor_id\t: GenuineIntel\n"
		     "model name\t: Intel(R) Atom(TM) x7-E3950  \nflags\t\t: fpu\n\n"
		     "processor\t: 1\nmodel name\t: something else\n");
	assert_int_equal(cpuinfo_model(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "Intel(R) Atom(TM) x7-E3950");
}

static void arm32_boards_name_the_hardware(void **state)
{
	char buf[128];

	(void)state;
	cpuinfo_file("processor\t: 0\nBogoMIPS\t: 38.40\nFeatures\t: half thumb\n\n"
		     "Hardware\t: STM32 (Device Tree Support)\nRevision\t: 0000\n");
	assert_int_equal(cpuinfo_model(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "STM32 (Device Tree Support)");
}

static void model_name_wins_over_hardware(void **state)
{
	char buf[128];

	(void)state;
	cpuinfo_file("Hardware\t: BCM2835\nprocessor\t: 0\n"
		     "model name\t: ARMv7 Processor rev 4 (v7l)\n");
	assert_int_equal(cpuinfo_model(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "ARMv7 Processor rev 4 (v7l)");
}

static void arm64_without_a_name_reports_none(void **state)
{
	char buf[128] = "stale";

	(void)state;
	cpuinfo_file("processor\t: 0\nBogoMIPS\t: 108.00\nCPU implementer\t: 0x41\n");
	assert_int_equal(cpuinfo_model(path, buf, sizeof(buf)), -1);
	assert_string_equal(buf, "");
}

static void a_long_value_is_truncated_safely(void **state)
{
	char buf[8];

	(void)state;
	cpuinfo_file("model name\t: A very long processor name indeed\n");
	assert_int_equal(cpuinfo_model(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "A very ");
}

static void the_host_read_fills_what_this_machine_has(void **state)
{
	struct sysinfo_host h;

	(void)state;
	sysinfo_host_read(&h);
	assert_true(h.kernel_release[0] != '\0');
	assert_true(h.machine[0] != '\0');
	assert_true(h.ncpus >= 1);
	/* the flag agrees with the version string when that says PREEMPT_RT */
	if (strstr(h.kernel_version, "PREEMPT_RT"))
		assert_true(h.preempt_rt);
}

/* The control files of cgroupfs and tracefs: one read, one write, with or
 * without truncation (what emptying tracefs's "trace" takes). */
static void a_control_file_is_read_and_written_whole(void **state)
{
	char dir[] = "/tmp/sqw-sysinfo-XXXXXX", buf[32], file[64];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/state", dir);
	assert_int_equal(sysinfo_file_read(dir, "state", buf, sizeof(buf)), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(sysinfo_file_write(dir, "state", "x", false), -1); /* never creates */
	fclose(fopen(file, "w"));
	assert_int_equal(sysinfo_file_write(dir, "state", "FROZEN\n", false), 0);
	assert_int_equal(sysinfo_file_read(dir, "state", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "FROZEN\n");
	assert_int_equal(sysinfo_file_write(dir, "state", "ab", false), 0);  /* in place */
	assert_int_equal(sysinfo_file_read(dir, "state", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "abOZEN\n");
	assert_int_equal(sysinfo_file_write(dir, "state", "", true), 0);     /* emptied */
	assert_int_equal(sysinfo_file_read(dir, "state", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	unlink(file);
	rmdir(dir);
}

/* A copied --root tree for check may hold a FIFO or a device where /proc
 * and /sys have regular files: refused at once, never waited on or read
 * for ever (the alarm ends a hang as a failure). The real ones still read. */
static void a_fifo_or_device_under_the_root_is_refused_not_waited_on(void **state)
{
	char dir[] = "/tmp/sqw-sysinfo-XXXXXX", fifo[64], buf[64];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/model", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	alarm(10);
	assert_int_equal(sysinfo_read_line(dir, "model", buf, sizeof(buf)), -1);
	assert_int_equal(errno, EINVAL);
	assert_null(sysinfo_fopen(fifo));
	assert_int_equal(sysinfo_read_line("/", "dev/zero", buf, sizeof(buf)), -1);
	assert_int_equal(errno, EINVAL);
	alarm(0);
	assert_int_equal(sysinfo_read_line("/", "proc/sys/kernel/ostype", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "Linux");
	unlink(fifo);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(x86_names_the_model, teardown),
		cmocka_unit_test_teardown(arm32_boards_name_the_hardware, teardown),
		cmocka_unit_test_teardown(model_name_wins_over_hardware, teardown),
		cmocka_unit_test_teardown(arm64_without_a_name_reports_none, teardown),
		cmocka_unit_test_teardown(a_long_value_is_truncated_safely, teardown),
		cmocka_unit_test(the_host_read_fills_what_this_machine_has),
		cmocka_unit_test(a_control_file_is_read_and_written_whole),
		cmocka_unit_test(a_fifo_or_device_under_the_root_is_refused_not_waited_on),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
