/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for loads: what each kind runs, where it looks for its
 * program, what it refuses (missing CoreMark, BusyBox ping, CPUs that do
 * not exist), and CoreMark's output parsed into scores. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "loads/load.h"

static char dir[64];

static int make_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/sqwave-load-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* An executable file @name in the test dir, holding @text. */
static void make_exe(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, 0755);
}

static struct load_env env4(int rt_cpu)
{
	struct load_env e = { .rt_cpu = rt_cpu, .path = dir, .sysroot = dir, .root = true };
	char err[64];

	cpulist_parse("0-3", &e.online, err, sizeof(err));
	return e;
}

static struct load *build(const char *spec, const struct load_env *e, enum load_error *cls,
			  char *err, size_t len)
{
	struct plan *p = plan_new();
	struct load *l;

	assert_int_equal(plan_add_cmdline_load(p, spec, err, len), CFG_OK);
	l = load_new(&p->loads[0], e, cls, err, len);
	plan_free(p);
	return l;
}

static void coremark_runs_once_per_cpu_but_the_rt_one(void **state)
{
	struct load_env e = env4(1);
	enum load_error cls;
	char err[512], buf[64];
	struct load *l;

	(void)state;
	make_exe("coremark", "#!/bin/true\n");
	l = build("coremark:nice=5", &e, &cls, err, sizeof(err));
	if (!l)
		fail_msg("%s", err);
	assert_int_equal(load_nprocs(l), 3);
	assert_string_equal(cpulist_format(&load_proc(l, 0)->cpus, buf, sizeof(buf)), "0");
	assert_string_equal(cpulist_format(&load_proc(l, 1)->cpus, buf, sizeof(buf)), "2");
	assert_string_equal(cpulist_format(&load_proc(l, 2)->cpus, buf, sizeof(buf)), "3");
	assert_string_equal(cpulist_format(load_cpus(l), buf, sizeof(buf)), "0,2-3");
	assert_int_equal(load_proc(l, 0)->nice, 5);
	assert_non_null(strstr(load_proc(l, 0)->argv[0], "/coremark"));
	assert_null(load_proc(l, 0)->argv[1]);
	assert_int_equal(load_proof_kind(l), LOAD_PROOF_CPU);
	assert_true(load_has_results(l));
	load_free(l);
}

static void a_missing_coremark_says_where_to_get_it(void **state)
{
	struct load_env e = env4(-1);
	enum load_error cls;
	char err[512];

	(void)state;
	assert_null(build("coremark", &e, &cls, err, sizeof(err)));
	assert_int_equal(cls, LOAD_E_CONFIG);
	assert_non_null(strstr(err, "CoreMark not found"));
	assert_non_null(strstr(err, "github.com/eembc/coremark"));
	assert_non_null(strstr(err, "meta-oe"));
	/* meta-oe's /usr/bin/coremark (under the test's root) is found */
	mkdir(strcat(strcpy(err, dir), "/usr"), 0755);
	mkdir(strcat(strcpy(err, dir), "/usr/bin"), 0755);
	make_exe("usr/bin/coremark", "x");
	{
		struct load *l = build("coremark", &e, &cls, err, sizeof(err));

		assert_non_null(l);
		assert_non_null(strstr(load_program(l), "/usr/bin/coremark"));
		assert_int_equal(load_nprocs(l), 4);	/* no rt.cpu: every CPU */
		load_free(l);
	}
}

static void busybox_ping_is_refused_before_the_run(void **state)
{
	struct load_env e = env4(1);
	enum load_error cls;
	char err[512];

	(void)state;
	make_exe("ping", "\x7f" "ELF...BusyBox v1.36.1 (2023-01-01) multi-call binary");
	assert_null(build("ping-flood:interface=lo", &e, &cls, err, sizeof(err)));
	assert_int_equal(cls, LOAD_E_CONFIG);
	assert_non_null(strstr(err, "is BusyBox ping, which has no flood mode (-f)"));
	assert_non_null(strstr(err, "iputils"));
}

static void a_ping_flood_runs_quiet_and_is_proved_by_its_interface(void **state)
{
	struct load_env e = env4(1);
	enum load_error cls;
	char err[512], path[256];
	struct load *l;

	(void)state;
	make_exe("ping", "#!/bin/true\n");
	assert_null(build("ping-flood:interface=eth9", &e, &cls, err, sizeof(err)));
	assert_non_null(strstr(err, "interface eth9 has no packet counters"));
	snprintf(path, sizeof(path), "mkdir -p %s/sys/class/net/eth9/statistics && "
		 "touch %s/sys/class/net/eth9/statistics/rx_packets", dir, dir);
	assert_int_equal(system(path), 0);
	l = build("ping-flood:interface=eth9:size=1400:preload=8:target=10.0.0.2", &e, &cls, err,
		  sizeof(err));
	if (!l)
		fail_msg("%s", err);
	assert_string_equal(load_interface(l), "eth9");
	assert_int_equal(load_min_pps(l), 1000);
	assert_true(load_proc(l, 0)->discard_stdout);
	assert_string_equal(load_proc(l, 0)->argv[1], "-f");
	assert_string_equal(load_proc(l, 0)->argv[5], "1400");
	assert_string_equal(load_proc(l, 0)->argv[7], "8");
	assert_string_equal(load_proc(l, 0)->argv[8], "10.0.0.2");
	load_free(l);
	e.root = false;
	assert_null(build("ping-flood:interface=eth9", &e, &cls, err, sizeof(err)));
	assert_non_null(strstr(err, "floods only for root"));
}

static void stress_ng_defaults_to_one_cpu_stressor_per_allowed_cpu(void **state)
{
	struct load_env e = env4(3);
	enum load_error cls;
	char err[512];
	struct load *l;

	(void)state;
	make_exe("stress-ng", "#!/bin/true\n");
	l = build("stress-ng", &e, &cls, err, sizeof(err));
	assert_non_null(l);
	assert_string_equal(load_proc(l, 0)->argv[1], "--cpu");
	assert_string_equal(load_proc(l, 0)->argv[2], "3");
	load_free(l);
	l = build("stress-ng:cpus=2:--vm:1", &e, &cls, err, sizeof(err));
	assert_non_null(l);
	assert_string_equal(load_proc(l, 0)->argv[1], "--vm");
	assert_null(load_proc(l, 0)->argv[3]);
	load_free(l);
	assert_null(build("stress-ng:cpus=7", &e, &cls, err, sizeof(err)));
	assert_non_null(strstr(err, "load.cpus 7 names CPUs this machine does not offer "
				    "(online: 0-3)"));
}

static void a_command_is_its_first_argument(void **state)
{
	struct load_env e = env4(-1);
	enum load_error cls;
	char err[512], prog[128];
	struct load *l;

	(void)state;
	make_exe("burn", "#!/bin/true\n");
	snprintf(prog, sizeof(prog), "command:burn:--hard:x\\:y");
	l = build(prog, &e, &cls, err, sizeof(err));
	if (!l)
		fail_msg("%s", err);
	assert_non_null(strstr(load_proc(l, 0)->argv[0], "/burn"));
	assert_string_equal(load_proc(l, 0)->argv[1], "--hard");
	assert_string_equal(load_proc(l, 0)->argv[2], "x:y");
	assert_null(load_proc(l, 0)->argv[3]);
	assert_int_equal(load_proof_kind(l), LOAD_PROOF_NONE);
	load_free(l);
	assert_null(build("command:nosuchprog", &e, &cls, err, sizeof(err)));
	assert_non_null(strstr(err, "nosuchprog not found"));
}

static const char valid_run[] =
	"2K performance run parameters for coremark.\n"
	"CoreMark Size    : 666\n"
	"Total ticks      : 14035\n"
	"Total time (secs): 14.035000\n"
	"Iterations/Sec   : 28499.821874\n"
	"Iterations       : 400000\n"
	"Compiler version : GCC12.2.0\n"
	"Memory location  : Please put data memory location here\n"
	"\t\t\t(e.g. code in flash, data on heap etc)\n"
	"seedcrc          : 0xe9f5\n"
	"[0]crcfinal      : 0x65c5\n"
	"Correct operation validated. See README.md for run and reporting rules.\n"
	"CoreMark 1.0 : 28499.821874 / GCC12.2.0 -O2 -DPERFORMANCE_RUN=1  -lrt / Heap\n";

static const char short_run[] =
	"2K performance run parameters for coremark.\n"
	"Total time (secs): 4.137000\n"
	"Iterations/Sec   : 725.163162\n"
	"ERROR! Must execute for at least 10 secs for a valid result!\n"
	"Iterations       : 3000\n"
	"[0]crcfinal      : 0xcc42\n"
	"Errors detected\n";

static int feed(struct load *l, const char *text, struct load_result *res, int max)
{
	char line[256];
	const char *p = text;
	int n = 0;

	while (*p) {
		size_t len = strcspn(p, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		if (load_output_line(l, line, &res[n]) && n < max)
			n++;
		p += len + (p[len] == '\n');
	}
	return n;
}

static void coremark_scores_are_parsed_and_short_runs_are_not_scores(void **state)
{
	struct load_env e = env4(-1);
	enum load_error cls;
	char err[512];
	struct load_result res[4];
	struct load *l;

	(void)state;
	make_exe("coremark", "x");
	l = build("coremark", &e, &cls, err, sizeof(err));
	assert_non_null(l);
	assert_int_equal(feed(l, valid_run, res, 4), 1);
	assert_true(res[0].valid);
	assert_true(res[0].score > 28499.8 && res[0].score < 28499.9);
	assert_int_equal(feed(l, short_run, res, 4), 1);
	assert_false(res[0].valid);
	assert_true(res[0].iterations_per_s > 725.1 && res[0].iterations_per_s < 725.2);
	assert_string_equal(res[0].why, "ran 4.1 s, under the 10 s a valid score needs");
	/* a valid run after a short one is valid again: no state leaks */
	assert_int_equal(feed(l, valid_run, res, 4), 1);
	assert_true(res[0].valid);
	/* garbage and partial output give nothing */
	assert_int_equal(feed(l, "CoreMark 1.0 : \nIterations/Sec : x\n", res, 4), 1);
	assert_false(res[0].valid);
	assert_int_equal(feed(l, "random text\n\n:::\n", res, 4), 0);
	load_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(coremark_runs_once_per_cpu_but_the_rt_one, make_dir,
						remove_dir),
		cmocka_unit_test_setup_teardown(a_missing_coremark_says_where_to_get_it, make_dir,
						remove_dir),
		cmocka_unit_test_setup_teardown(busybox_ping_is_refused_before_the_run, make_dir,
						remove_dir),
		cmocka_unit_test_setup_teardown(a_ping_flood_runs_quiet_and_is_proved_by_its_interface,
						make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(stress_ng_defaults_to_one_cpu_stressor_per_allowed_cpu,
						make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(a_command_is_its_first_argument, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(coremark_scores_are_parsed_and_short_runs_are_not_scores,
						make_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
