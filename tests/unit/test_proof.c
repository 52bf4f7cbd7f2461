/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for proof of load: rates from two readings of a fake /proc
 * and /sys, the sample's text round trip, and every "load not applied". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "loads/proof.h"

#define SEC 1000000000ull

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256], cmd[512];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s%s)\"", root, rel);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int make_root(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/sqwave-proof-XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int remove_root(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd) == 0 ? 0 : -1;
}

/* cpu lines: user nice system idle iowait irq softirq steal */
static void reading(unsigned long long busy0, unsigned long long idle0, unsigned long long busy1,
		    unsigned long long idle1, unsigned long long steal1, unsigned long long intr,
		    unsigned long long ctxt, unsigned long long rx)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
		 "cpu  1 2 3 4 5 6 7 8 0 0\n"
		 "cpu0 %llu 0 0 %llu 0 0 0 0 0 0\n"
		 "cpu1 %llu 0 0 %llu 0 0 0 %llu 0 0\n"
		 "intr %llu 1 2 3 4\nctxt %llu\nbtime 1\nprocesses 5\n",
		 busy0, idle0, busy1, idle1, steal1, intr, ctxt);
	put("/proc/stat", buf);
	put("/proc/loadavg", "2.50 1.00 0.50 3/100 1234\n");
	snprintf(buf, sizeof(buf), "%llu\n", rx);
	put("/sys/class/net/lo/statistics/rx_packets", buf);
	put("/sys/class/net/lo/statistics/tx_packets", buf);
}

static void two_readings_give_busy_rates_and_packets(void **state)
{
	char err[256], text[1024];
	struct proof_sampler *s = proof_sampler_new(root, err, sizeof(err));
	struct proof_sample a, b;

	(void)state;
	assert_non_null(s);
	reading(100, 900, 500, 500, 0, 1000, 5000, 10);
	assert_int_equal(proof_sampler_read(s, 10 * SEC, &a, err, sizeof(err)), 0);
	/* 2 s later: cpu0 did 90 busy of 100; cpu1 50 of 100 with 50 stolen */
	reading(190, 910, 550, 550, 50, 3000, 9000, 20010);
	assert_int_equal(proof_sampler_read(s, 12 * SEC, &a, err, sizeof(err)), 1);
	assert_int_equal(a.dt_ns, 2 * SEC);
	assert_int_equal(a.ncpu, 2);
	assert_true(fabs(a.busy[0] - 90.0) < 0.01);
	assert_true(fabs(a.busy[1] - 50.0) < 0.01);	/* steal is not time it could run */
	assert_true(fabs(a.irq_s - 1000.0) < 0.01);
	assert_true(fabs(a.ctxt_s - 2000.0) < 0.01);
	assert_true(fabs(a.load1 - 2.5) < 0.001);
	assert_int_equal(a.nif, 1);
	assert_string_equal(a.ifname[0], "lo");
	assert_true(fabs(a.rx_pps[0] - 10000.0) < 0.01);
	/* its text parses back to the same figures */
	proof_sample_format(&a, text, sizeof(text));
	assert_non_null(strstr(text, "cpu=0:90.0,1:50.0\n"));
	assert_non_null(strstr(text, "net=lo:10000.0/10000.0\n"));
	assert_int_equal(proof_sample_parse(text, strlen(text), a.t_ns, &b), 0);
	assert_int_equal(b.dt_ns, a.dt_ns);
	assert_true(fabs(b.busy[1] - 50.0) < 0.01);
	assert_true(fabs(b.tx_pps[0] - 10000.0) < 0.01);
	assert_true(fabs(b.irq_s - 1000.0) < 0.1);
	/* a counter that went backwards (CPU hot-unplug) is no figure */
	reading(10, 10, 600, 600, 60, 3000, 9000, 20010);
	assert_int_equal(proof_sampler_read(s, 13 * SEC, &a, err, sizeof(err)), 1);
	assert_true(a.busy[0] < 0);
	assert_int_equal(proof_sample_parse("cpu=0:120\ndt_ns=1\n", 19, 0, &b), -1);
	assert_int_equal(proof_sample_parse("garbage", 7, 0, &b), -1);
	/* figures no sampler writes (a damaged or forged log): the sample is
	 * refused, not carried into every mean as nan or inf */
	{
		static const char *const bad[] = {
			"dt_ns=1\ncpu=0:5\nirq_s=nan\n", "dt_ns=1\ncpu=0:5\nctxt_s=inf\n",
			"dt_ns=1\ncpu=0:5\nload1=1e400\n", "dt_ns=1\ncpu=0:5\nirq_s=-3\n",
			"dt_ns=1\ncpu=0:5\nnet=lo:inf/0\n", "dt_ns=1\ncpu=0:5\nnet=lo:0/nan\n",
			"dt_ns=-1\ncpu=0:5\n", "dt_ns=1x\ncpu=0:5\n",
			"dt_ns=99999999999999999999\ncpu=0:5\n",
		};
		size_t i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			if (proof_sample_parse(bad[i], strlen(bad[i]), 0, &b) != -1)
				fail_msg("accepted: %s", bad[i]);
		}
		assert_int_equal(proof_sample_parse("dt_ns=1\ncpu=0:5\nirq_s=2.5\n", 26, 0, &b), 0);
		assert_true(b.irq_s == 2.5);
	}
	proof_sampler_free(s);
	put("/proc/stat", "");
	s = proof_sampler_new(root, err, sizeof(err));
	assert_int_equal(proof_sampler_read(s, SEC, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/proc/stat"));
	proof_sampler_free(s);
}

/* A machine with more interfaces than a sample holds: the one a load needs
 * ("zz-flood", last in name order) is sampled all the same. */
static void the_floods_interface_is_sampled_among_many(void **state)
{
	char err[256], name[64];
	struct proof_sampler *s;
	struct proof_sample a;
	size_t i;
	int k;

	(void)state;
	reading(100, 900, 500, 500, 0, 1000, 5000, 10);
	for (k = 0; k < PROOF_MAX_IFS + 8; k++) {
		snprintf(name, sizeof(name), "/sys/class/net/veth%02d/statistics/rx_packets", k);
		put(name, "1\n");
	}
	put("/sys/class/net/zz-flood/statistics/rx_packets", "0\n");
	put("/sys/class/net/zz-flood/statistics/tx_packets", "0\n");
	s = proof_sampler_new(root, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(proof_sampler_want(s, "zz-flood"), 0);
	assert_int_equal(proof_sampler_read(s, 10 * SEC, &a, err, sizeof(err)), 0);
	reading(190, 910, 550, 550, 50, 3000, 9000, 20010);
	put("/sys/class/net/zz-flood/statistics/rx_packets", "5000\n");
	assert_int_equal(proof_sampler_read(s, 11 * SEC, &a, err, sizeof(err)), 1);
	assert_int_equal(a.nif, PROOF_MAX_IFS);
	for (i = 0; i < a.nif && strcmp(a.ifname[i], "zz-flood"); i++)
		;
	assert_true(i < a.nif);
	assert_true(fabs(a.rx_pps[i] - 5000.0) < 0.01);
	/* the rest in name order: lo and veth00.. first */
	assert_string_equal(a.ifname[0], "lo");
	assert_string_equal(a.ifname[1], "veth00");
	proof_sampler_free(s);
}

static void a_requirement_survives_the_log_header(void **state)
{
	struct proof_req r = { .kind = LOAD_PROOF_NET, .min_pps = 1000 }, q;
	char text[256], err[64];

	(void)state;
	cpulist_parse("0,2-3", &r.cpus, err, sizeof(err));
	snprintf(r.iface, sizeof(r.iface), "eth0");
	proof_req_format(&r, text, sizeof(text));
	assert_string_equal(text, "net|0,2-3|eth0|1000|0");
	assert_int_equal(proof_req_parse(&q, "flood", text), 0);
	assert_int_equal(q.kind, LOAD_PROOF_NET);
	assert_true(CPU_EQUAL(&q.cpus, &r.cpus));
	assert_string_equal(q.iface, "eth0");
	assert_int_equal(proof_req_parse(&q, "x", "cpu|1||0|1"), 0);
	assert_true(q.results);
	assert_int_equal(proof_req_parse(&q, "x", "disk|1||0|1"), -1);
	assert_int_equal(proof_req_parse(&q, "x", "cpu|1||0|1|extra"), -1);
	assert_int_equal(proof_req_parse(&q, "x", "cpu|z||0|1"), -1);
	/* an idle phase's requirement: its figure is the busy ceiling */
	proof_req_idle(&r, &r.cpus, 25);
	proof_req_format(&r, text, sizeof(text));
	assert_string_equal(text, "idle|0,2-3||25|0");
	assert_int_equal(proof_req_parse(&q, PROOF_IDLE_NAME, text), 0);
	assert_int_equal(q.kind, LOAD_PROOF_IDLE);
	assert_int_equal(q.max_busy, 25);
	assert_int_equal(q.min_pps, 0);
	assert_true(CPU_EQUAL(&q.cpus, &r.cpus));
	assert_int_equal(proof_req_parse(&q, "x", "idle|0||101|0"), -1);
}

static struct proof_sample busy_sample(float b0, float b1, double lo_pps)
{
	struct proof_sample s = { .dt_ns = SEC, .ncpu = 2, .nif = 1 };

	s.busy[0] = b0;
	s.busy[1] = b1;
	snprintf(s.ifname[0], PROOF_IFNAME, "lo");
	s.rx_pps[0] = s.tx_pps[0] = lo_pps / 2;
	return s;
}

static void a_held_off_sampler_and_a_lost_reading_are_gaps_of_the_phase(void **state)
{
	struct proof_phase p = { 0 };
	struct proof_sample s = busy_sample(90, 90, 0);
	char why[256] = "";

	(void)state;
	/* no samples: the whole phase is one gap */
	assert_int_equal(proof_phase_max_gap(&p, 100 * SEC, 110 * SEC), 10 * SEC);
	s.t_ns = 102 * SEC;	/* [101, 102] */
	proof_phase_add_sample(&p, &s);
	s.t_ns = 103 * SEC;
	proof_phase_add_sample(&p, &s);
	assert_int_equal(p.max_gap_ns, SEC);
	/* held off: one reading 13 s after the last */
	s.t_ns = 116 * SEC;
	s.dt_ns = 13 * SEC;
	proof_phase_add_sample(&p, &s);
	assert_int_equal(p.max_gap_ns, 13 * SEC);
	/* a reading lost on the way: [116, 117] never came, [120, 121] did */
	s.t_ns = 121 * SEC;
	s.dt_ns = SEC;
	proof_phase_add_sample(&p, &s);
	assert_int_equal(p.max_gap_ns, 13 * SEC);
	memset(&p, 0, sizeof(p));
	s.t_ns = 102 * SEC;
	proof_phase_add_sample(&p, &s);
	s.t_ns = 106 * SEC;	/* [105, 106]: 3 s without a reading before it */
	proof_phase_add_sample(&p, &s);
	assert_int_equal(p.max_gap_ns, 3 * SEC);
	/* before the first and after the last count too */
	assert_int_equal(proof_phase_max_gap(&p, 100 * SEC, 107 * SEC), 3 * SEC);
	assert_int_equal(proof_phase_max_gap(&p, 96 * SEC, 107 * SEC), 5 * SEC);
	assert_int_equal(proof_phase_max_gap(&p, 100 * SEC, 112 * SEC), 6 * SEC);
	/* the judgement: above the bound only */
	assert_int_equal(proof_gap_judge(2 * SEC, 2 * SEC, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_int_equal(proof_gap_judge(13 * SEC, 2 * SEC, why, sizeof(why)), 1);
	assert_string_equal(why, "proof incomplete: no proof-of-load reading for 13.0 s (at most "
				 "2.0 s: 2 x proof.interval); the sampler was held off\n");
}

static void a_phase_without_its_load_is_load_not_applied(void **state)
{
	struct proof_phase p;
	struct proof_req cpu = { .kind = LOAD_PROOF_CPU, .results = true },
			 net = { .kind = LOAD_PROOF_NET, .min_pps = 1000 };
	struct load_result ok = { .valid = true, .score = 100 }, shortrun = { .valid = false };
	struct proof_sample s;
	char why[1024] = "", err[64];

	(void)state;
	snprintf(cpu.name, sizeof(cpu.name), "coremark");
	snprintf(net.name, sizeof(net.name), "ping-flood");
	snprintf(net.iface, sizeof(net.iface), "lo");
	cpulist_parse("0", &cpu.cpus, err, sizeof(err));

	/* loaded: CPU 0 busy, flood arrived, one valid score: no failure */
	memset(&p, 0, sizeof(p));
	s = busy_sample(95, 5, 50000);
	proof_phase_add_sample(&p, &s);
	s = busy_sample(85, 5, 40000);
	proof_phase_add_sample(&p, &s);
	proof_phase_add_result(&p, "coremark", &ok);
	assert_true(fabs(proof_phase_busy(&p, &cpu.cpus) - 90) < 0.01);
	assert_int_equal(proof_phase_judge(&p, (struct proof_req[]){ cpu, net }, 2, 80, why,
					   sizeof(why)), 0);
	assert_string_equal(why, "");

	/* idle CPU, no flood, only short runs: three failures, each named */
	memset(&p, 0, sizeof(p));
	s = busy_sample(30, 5, 20);
	proof_phase_add_sample(&p, &s);
	snprintf(shortrun.why, sizeof(shortrun.why), "ran 4.1 s, under the 10 s");
	proof_phase_add_result(&p, "coremark", &shortrun);
	assert_int_equal(proof_phase_judge(&p, (struct proof_req[]){ cpu, net }, 2, 80, why,
					   sizeof(why)), 3);
	assert_non_null(strstr(why, "load not applied: coremark: CPUs 0 were 30 % busy (at "
				    "least 80 % needed)\n"));
	assert_non_null(strstr(why, "load not applied: ping-flood: lo carried 20 packets/s "
				    "(at least 1000 needed): the flood did not arrive\n"));
	assert_non_null(strstr(why, "coremark gave no valid score (1 runs without: ran 4.1 s"));

	/* a lost load says so, whatever its CPUs did */
	memset(&p, 0, sizeof(p));
	why[0] = '\0';
	s = busy_sample(99, 5, 0);
	proof_phase_add_sample(&p, &s);
	proof_phase_load(&p, "coremark")->lost = true;
	snprintf(proof_phase_load(&p, "coremark")->lost_why, 160, "exits at once");
	assert_int_equal(proof_phase_judge(&p, &cpu, 1, 80, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "coremark was lost (exits at once)"));

	/* no samples at all */
	memset(&p, 0, sizeof(p));
	why[0] = '\0';
	cpu.results = false;
	assert_int_equal(proof_phase_judge(&p, &cpu, 1, 80, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "no proof-of-load samples"));
}

/* CPU 0 100 % busy between two readings 1 s apart, whoever made it so */
static void busy_system(struct proof_sampler *sm, uint64_t t, unsigned long long busy0)
{
	char buf[256], err[128];
	struct proof_sample out;

	snprintf(buf, sizeof(buf), "cpu0 %llu 0 0 1000 0 0 0 0 0 0\nintr 1\nctxt 1\n", busy0);
	put("/proc/stat", buf);
	(void)proof_sampler_read(sm, t, &out, err, sizeof(err));
}

/* A machine 100 % busy proves nothing of a load whose own cgroup used a
 * quarter of its CPU; one that used 95 % of it is applied. */
static void a_load_is_proved_by_its_own_cgroup_time_not_the_machines(void **state)
{
	struct proof_own_group g = { .src = PROOF_OWN_CGROUP2, .ncpus = 1 };
	struct proof_req cpu = { .kind = LOAD_PROOF_CPU };
	struct proof_sampler *sm;
	struct proof_sample s, back;
	struct proof_phase p;
	char err[128], why[1024] = "", text[4096];
	enum proof_own_src src = PROOF_OWN_NONE;
	size_t n;

	(void)state;
	snprintf(cpu.name, sizeof(cpu.name), "coremark");
	cpulist_parse("0", &cpu.cpus, err, sizeof(err));
	snprintf(g.name, sizeof(g.name), "coremark");
	snprintf(g.dir, sizeof(g.dir), "%s/cg", root);
	put("/cg/cpu.stat", "usage_usec 1000000\nuser_usec 900000\nsystem_usec 100000\n");
	sm = proof_sampler_new(root, err, sizeof(err));
	assert_non_null(sm);
	proof_sampler_set_groups(sm, &g, 1);
	busy_system(sm, 10 * SEC, 1000);
	put("/cg/cpu.stat", "usage_usec 1250000\nuser_usec 1100000\nsystem_usec 150000\n");
	put("/proc/stat", "cpu0 1100 0 0 1000 0 0 0 0 0 0\nintr 1\nctxt 1\n");
	assert_int_equal(proof_sampler_read(sm, 11 * SEC, &s, err, sizeof(err)), 1);
	assert_true(fabs(s.busy[0] - 100) < 0.01);
	assert_int_equal(s.nown, 1);
	assert_string_equal(s.own_name[0], "coremark");
	assert_true(fabs(s.own_busy[0] - 25) < 0.01);
	assert_int_equal(s.own_src[0], PROOF_OWN_CGROUP2);

	/* through the log and back */
	n = proof_sample_format(&s, text, sizeof(text));
	assert_non_null(strstr(text, "own=coremark:25.0:cgroup2\n"));
	assert_int_equal(proof_sample_parse(text, n, s.t_ns, &back), 0);
	assert_int_equal(back.nown, 1);
	assert_true(fabs(back.own_busy[0] - 25) < 0.01);

	memset(&p, 0, sizeof(p));
	proof_phase_add_sample(&p, &back);
	assert_true(fabs(proof_phase_own(&p, "coremark", &src) - 25) < 0.01);
	assert_int_equal(src, PROOF_OWN_CGROUP2);
	assert_int_equal(proof_phase_judge(&p, &cpu, 1, 80, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "load not applied: coremark: own CPU time 25 % of CPUs 0 "
				    "(cgroup2; system-wide 100 %): below 80 %\n"));

	/* the next second the load had 95 % of its CPU: applied */
	put("/cg/cpu.stat", "usage_usec 2200000\n");
	put("/proc/stat", "cpu0 1200 0 0 1000 0 0 0 0 0 0\nintr 1\nctxt 1\n");
	assert_int_equal(proof_sampler_read(sm, 12 * SEC, &s, err, sizeof(err)), 1);
	assert_true(fabs(s.own_busy[0] - 95) < 0.01);
	memset(&p, 0, sizeof(p));
	why[0] = '\0';
	proof_phase_add_sample(&p, &s);
	assert_int_equal(proof_phase_judge(&p, &cpu, 1, 80, why, sizeof(why)), 0);
	assert_string_equal(why, "");

	/* an older log's sample has no own figure: judged system-wide, as before */
	assert_int_equal(proof_sample_parse("dt_ns=1000000000\ncpu=0:100.0\n", 29, s.t_ns,
					    &back), 0);
	assert_int_equal(back.nown, 0);
	memset(&p, 0, sizeof(p));
	proof_phase_add_sample(&p, &back);
	assert_true(proof_phase_own(&p, "coremark", NULL) < 0);
	assert_int_equal(proof_phase_judge(&p, &cpu, 1, 80, why, sizeof(why)), 0);
	proof_sampler_free(sm);
}

static void proc_stat(int pid, int pgrp, unsigned long long ut, unsigned long long st)
{
	char rel[64], buf[256];

	snprintf(rel, sizeof(rel), "/proc/%d/stat", pid);
	snprintf(buf, sizeof(buf), "%d (stress-ng cpu) R 1 %d %d 0 -1 4194560 100 0 0 0 %llu %llu "
		 "0 0 20 0 1 0 5000 1000000 100\n", pid, pgrp, pgrp, ut, st);
	put(rel, buf);
}

/* Without a cgroup the load's own time is its process groups' utime +
 * stime: other processes do not count, a child of the group does. */
static void without_a_cgroup_a_loads_own_time_is_its_processes(void **state)
{
	struct proof_own_group g = { .src = PROOF_OWN_PROCESSES, .ncpus = 2, .npgids = 1,
				     .pgids = { 100 } };
	struct proof_sampler *sm;
	struct proof_sample s;
	long tck = sysconf(_SC_CLK_TCK);
	char err[128];

	(void)state;
	snprintf(g.name, sizeof(g.name), "stress");
	proc_stat(100, 100, 0, 0);
	proc_stat(101, 100, 10, 0);
	proc_stat(200, 200, 0, 0);	/* not the load's */
	sm = proof_sampler_new(root, err, sizeof(err));
	assert_non_null(sm);
	proof_sampler_set_groups(sm, &g, 1);
	busy_system(sm, 10 * SEC, 1000);
	/* in 1 s on 2 CPUs: the parent 0.1 s, its child 0.5 s, an outsider 1 s */
	proc_stat(100, 100, (unsigned long long)tck / 20, (unsigned long long)tck / 20);
	proc_stat(101, 100, 10 + (unsigned long long)tck / 2, 0);
	proc_stat(200, 200, (unsigned long long)tck, 0);
	put("/proc/stat", "cpu0 1100 0 0 1000 0 0 0 0 0 0\nintr 1\nctxt 1\n");
	assert_int_equal(proof_sampler_read(sm, 11 * SEC, &s, err, sizeof(err)), 1);
	assert_int_equal(s.nown, 1);
	assert_int_equal(s.own_src[0], PROOF_OWN_PROCESSES);
	assert_true(fabs(s.own_busy[0] - 30) < 1);	/* 0.6 s of 2 CPU-seconds */
	proof_sampler_free(sm);
}

/* A phase without loads is an idle baseline only if the loads' CPUs were
 * quiet; no sample (a phase shorter than the interval) is no judgement. */
static void an_idle_phase_must_be_idle(void **state)
{
	struct proof_phase p;
	struct proof_req idle;
	struct proof_sample s;
	cpu_set_t cpus;
	char why[1024] = "", err[64];

	(void)state;
	cpulist_parse("0", &cpus, err, sizeof(err));
	proof_req_idle(&idle, &cpus, 25);
	assert_string_equal(idle.name, PROOF_IDLE_NAME);

	memset(&p, 0, sizeof(p));
	assert_int_equal(proof_phase_judge(&p, &idle, 1, 80, why, sizeof(why)), 0);
	/* CPU 1 (the RT one) busy does not count; CPU 0 at 20 % and 30 %: 25 % is quiet */
	s = busy_sample(20, 99, 0);
	proof_phase_add_sample(&p, &s);
	s = busy_sample(30, 99, 0);
	proof_phase_add_sample(&p, &s);
	assert_int_equal(proof_phase_judge(&p, &idle, 1, 80, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	s = busy_sample(70, 0, 0);
	proof_phase_add_sample(&p, &s);	/* now 40 % on average */
	assert_int_equal(proof_phase_judge(&p, &idle, 1, 80, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "not idle: CPUs 0 were 40 % busy with no load of sqwave's "
				    "running (at most 25 %: proof.idle_max_busy)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(two_readings_give_busy_rates_and_packets, make_root,
						remove_root),
		cmocka_unit_test_setup_teardown(the_floods_interface_is_sampled_among_many, make_root,
						remove_root),
		cmocka_unit_test(a_requirement_survives_the_log_header),
		cmocka_unit_test_setup_teardown(a_load_is_proved_by_its_own_cgroup_time_not_the_machines,
						make_root, remove_root),
		cmocka_unit_test_setup_teardown(without_a_cgroup_a_loads_own_time_is_its_processes,
						make_root, remove_root),
		cmocka_unit_test(a_phase_without_its_load_is_load_not_applied),
		cmocka_unit_test(an_idle_phase_must_be_idle),
		cmocka_unit_test(a_held_off_sampler_and_a_lost_reading_are_gaps_of_the_phase),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
