/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the clock-sync checks: time daemons in fake /proc trees,
 * adjtimex states given in place of the live one, pmc's TIME_STATUS_NP
 * text, and a fake pmc; every status on and off a shared grid. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define _XOPEN_SOURCE_EXTENDED 1
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/timex.h>
#include <unistd.h>

#include "check/check.h"
#include "check/check_clock.h"
#include "config/config.h"

static char root[64];
static char pmc_path[128];
static struct check_report rep;
static struct check_clock_params P;
static struct clocksync_state S;

/* ptp4l's answer as pmc prints it (pmc.c, pmc_show()), with @offset and
 * @gm ("true" or "false"). */
#define PMC_REPLY(offset, gm) \
	"sending: GET TIME_STATUS_NP\n" \
	"\t001122.fffe.334455-0 seq 0 RESPONSE MANAGEMENT TIME_STATUS_NP \n" \
	"\t\tmaster_offset              " offset "\n" \
	"\t\tingress_time               1764700000123456789\n" \
	"\t\tcumulativeScaledRateOffset +0.000000000\n" \
	"\t\tscaledLastGmPhaseChange    0\n" \
	"\t\tgmTimeBaseIndicator        0\n" \
	"\t\tlastGmPhaseChange          0x0000'0000000000000000.0000\n" \
	"\t\tgmPresent                  " gm "\n" \
	"\t\tgmIdentity                 aabbcc.fffe.ddeeff\n"

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

/* A process @pid named @comm in the fake /proc. */
static void proc(int pid, const char *comm)
{
	char rel[64], line[64];

	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	snprintf(line, sizeof(line), "%s\n", comm);
	put(rel, line);
}

/* A fake pmc that prints @text and records its arguments in args. */
static void fake_pmc(const char *text)
{
	char script[2048];

	snprintf(script, sizeof(script), "#!/bin/sh\necho \"$@\" > %s/args\ncat <<'EOF'\n%sEOF\n",
		 root, text);
	put("pmc", script);
	assert_int_equal(chmod(pmc_path, 0755), 0);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* A board with init only, synchronised within 20 us, TAI set, a 500 us
 * half period on the monotonic grid; pmc is never the live one. */
static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/sqwave-clock-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(pmc_path, sizeof(pmc_path), "%s/pmc", root);
	proc(1, "init");
	S = (struct clocksync_state){ .state = TIME_OK, .status = STA_PLL, .synced = true,
				      .maxerror_us = 20, .esterror_us = 5, .tai_s = 37 };
	P = (struct check_clock_params){ .root = root, .grid_clock = GRID_CLOCK_MONOTONIC,
					 .half_period_ns = 500000, .sync = &S,
					 .pmc = pmc_path };
	check_report_init(&rep);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	check_report_free(&rep);
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

/* The checks on the current tree and state; the finding @id. */
static const struct check_finding *run1(const char *id)
{
	const struct check_finding *f;

	check_report_free(&rep);
	check_report_init(&rep);
	check_clock(&rep, &P);
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

#define assert_why(id, text) do { \
	const struct check_finding *f_ = run1(id); \
	if (!strstr(f_->why, (text))) \
		fail_msg("%s: why \"%s\" lacks \"%s\"", (id), f_->why, (text)); \
} while (0)

/* ---- clock.daemon ------------------------------------------------------------ */

static void every_finding_is_made_in_order(void **state)
{
	static const char *const ids[] = { "clock.daemon", "clock.synced", "clock.error",
					   "clock.tai", "clock.ptp" };
	size_t i;

	(void)state;
	run1("clock.daemon");
	assert_int_equal(rep.n, 5);
	for (i = 0; i < 5; i++)
		assert_string_equal(rep.v[i].id, ids[i]);
}

static void the_running_time_daemons_are_named_with_their_pids(void **state)
{
	(void)state;
	proc(412, "ptp4l");
	proc(413, "phc2sys");
	proc(500, "sshd");
	assert_finding("clock.daemon", CHECK_PASS, "ptp4l (pid 412), phc2sys (pid 413)");
	assert_null(strstr(run1("clock.daemon")->value, "sshd"));
	/* two ptp4l, one per NIC: counted, the first pid named */
	proc(411, "ptp4l");
	assert_finding("clock.daemon", CHECK_PASS, "ptp4l (2, pid 411 first)");
}

static void a_tree_without_processes_leaves_the_daemons_unknown(void **state)
{
	(void)state;
	unlink(strcat(strcpy((char[128]){ 0 }, root), "/proc/1/comm"));
	assert_finding("clock.daemon", CHECK_SKIP, "which time daemons run is unknown");
	P.grid_clock = GRID_CLOCK_REALTIME;
	/* unknown is never a FAIL, shared grid or not */
	assert_finding("clock.daemon", CHECK_SKIP, "which time daemons run is unknown");
}

static void no_daemon_fails_only_on_a_shared_grid(void **state)
{
	(void)state;
	assert_finding("clock.daemon", CHECK_SKIP, "no time daemon runs");
	assert_why("clock.daemon", "moot for this run: grid.clock is monotonic");
	P.grid_clock = GRID_CLOCK_REALTIME;
	assert_finding("clock.daemon", CHECK_FAIL, "no time daemon runs");
	assert_non_null(strstr(run1("clock.daemon")->fix, "phc2sys"));
	P.grid_clock = GRID_CLOCK_TAI;
	assert_finding("clock.daemon", CHECK_FAIL, "no time daemon runs");
	proc(700, "chronyd");
	assert_finding("clock.daemon", CHECK_PASS, "chronyd (pid 700)");
}

static void ptp4l_alone_leaves_the_system_clock_free_on_a_shared_grid(void **state)
{
	(void)state;
	proc(412, "ptp4l");
	P.grid_clock = GRID_CLOCK_REALTIME;
	assert_finding("clock.daemon", CHECK_WARN, "nothing steers the system clock");
	proc(413, "ts2phc");
	assert_finding("clock.daemon", CHECK_WARN, "nothing steers the system clock");
	proc(414, "phc2sys");
	assert_finding("clock.daemon", CHECK_PASS, "phc2sys (pid 414)");
}

static void two_daemons_steering_the_system_clock_warn(void **state)
{
	(void)state;
	/* the kernel cuts comm to 15 characters */
	proc(300, "systemd-timesyn");
	proc(700, "chronyd");
	P.grid_clock = GRID_CLOCK_REALTIME;
	assert_finding("clock.daemon", CHECK_WARN, "chronyd and systemd-timesyncd both steer");
	P.grid_clock = GRID_CLOCK_MONOTONIC;
	assert_finding("clock.daemon", CHECK_PASS, "systemd-timesyncd (pid 300)");
}

static void systemd_timesyncd_alone_warns_on_a_shared_grid(void **state)
{
	(void)state;
	proc(300, "systemd-timesyn");
	P.grid_clock = GRID_CLOCK_REALTIME;
	assert_finding("clock.daemon", CHECK_WARN, "systemd-timesyncd (pid 300)");
	assert_why("clock.daemon", "SNTP");
}

/* ---- clock.synced ------------------------------------------------------------ */

static void an_unsynchronised_clock_fails_only_on_a_shared_grid(void **state)
{
	(void)state;
	assert_finding("clock.synced", CHECK_PASS, "synchronised (adjtimex: state ok");
	S.synced = false;
	S.status |= STA_UNSYNC;
	S.state = TIME_ERROR;
	assert_finding("clock.synced", CHECK_SKIP, "not synchronised (adjtimex: state error, "
		       "STA_UNSYNC set");
	assert_why("clock.synced", "grid.clock is monotonic");
	P.grid_clock = GRID_CLOCK_REALTIME;
	assert_finding("clock.synced", CHECK_FAIL, "not synchronised");
	/* ptp4l without phc2sys: the fix says what is missing */
	proc(412, "ptp4l");
	assert_non_null(strstr(run1("clock.synced")->fix, "ptp4l alone"));
}

/* ---- clock.error ------------------------------------------------------------- */

static void the_error_bound_is_judged_against_the_half_period(void **state)
{
	(void)state;
	P.grid_clock = GRID_CLOCK_REALTIME;
	/* 500 us: PASS up to a tenth (50 us), FAIL from half of it (250 us) */
	S.maxerror_us = 50;
	assert_finding("clock.error", CHECK_PASS, "maximum error 50 us, estimated 5 us");
	S.maxerror_us = 51;
	assert_finding("clock.error", CHECK_WARN, "maximum error 51 us");
	assert_why("clock.error", "may be 102 us apart");
	S.maxerror_us = 249;
	assert_finding("clock.error", CHECK_WARN, "maximum error 249 us");
	S.maxerror_us = 250;
	assert_finding("clock.error", CHECK_FAIL, "maximum error 250 us");
	assert_why("clock.error", "one board high while the other is low");
	/* the same error on a longer half period is fine */
	P.half_period_ns = 1000000;
	assert_finding("clock.error", CHECK_WARN, "against the half period 1ms");
	P.half_period_ns = 2500000;
	assert_finding("clock.error", CHECK_PASS, "(PASS up to 250us, FAIL from 1250us)");
}

static void the_error_bound_never_fails_without_a_shared_grid(void **state)
{
	(void)state;
	S.maxerror_us = 400;
	assert_finding("clock.error", CHECK_SKIP, "maximum error 400 us");
	assert_why("clock.error", "grid.clock is monotonic");
	S.maxerror_us = 10;
	assert_finding("clock.error", CHECK_PASS, "maximum error 10 us");
}

static void a_clock_without_an_estimate_is_not_judged_by_its_bound(void **state)
{
	(void)state;
	/* phc2sys: synchronised, maxerror reset at each update, esterror 16 s */
	P.grid_clock = GRID_CLOCK_REALTIME;
	S.esterror_us = CLOCK_ERROR_UNKNOWN_US;
	S.maxerror_us = 300;
	assert_finding("clock.error", CHECK_SKIP, "no estimate");
	assert_why("clock.error", "clock.ptp");
	S.synced = false;
	assert_finding("clock.error", CHECK_SKIP, "the clock is not synchronised");
}

/* ---- clock.tai --------------------------------------------------------------- */

static void a_zero_tai_offset_fails_only_for_the_tai_grid(void **state)
{
	(void)state;
	assert_finding("clock.tai", CHECK_PASS, "TAI - UTC = 37 s");
	S.tai_s = 0;
	assert_finding("clock.tai", CHECK_SKIP, "TAI offset is 0 (never set)");
	P.grid_clock = GRID_CLOCK_REALTIME;
	assert_finding("clock.tai", CHECK_SKIP, "TAI offset is 0");
	assert_why("clock.tai", "grid.clock is realtime, not tai");
	P.grid_clock = GRID_CLOCK_TAI;
	assert_finding("clock.tai", CHECK_FAIL, "TAI offset is 0");
	assert_non_null(strstr(run1("clock.tai")->fix, "leapsectz"));
	S.tai_s = 37;
	assert_finding("clock.tai", CHECK_PASS, "TAI - UTC = 37 s");
}

/* ---- a copied tree ----------------------------------------------------------- */

static void a_copied_tree_skips_what_this_machine_would_answer(void **state)
{
	(void)state;
	P.tree = true;
	P.grid_clock = GRID_CLOCK_TAI;
	S.synced = false;
	S.tai_s = 0;
	proc(412, "ptp4l");
	fake_pmc(PMC_REPLY("5", "true"));
	/* the tree's processes are the tree's: read */
	assert_finding("clock.daemon", CHECK_WARN, "ptp4l (pid 412)");
	assert_finding("clock.synced", CHECK_SKIP, "is a copied tree");
	assert_finding("clock.error", CHECK_SKIP, "is a copied tree");
	assert_finding("clock.tai", CHECK_SKIP, "is a copied tree");
	assert_finding("clock.ptp", CHECK_SKIP, "is a copied tree");
	assert_int_equal(access(strcat(strcpy((char[128]){ 0 }, root), "/args"), F_OK), -1);
}

/* ---- pmc's text ---------------------------------------------------------------- */

static void pmcs_time_status_is_read_from_its_response(void **state)
{
	struct pmc_time_status ts;

	(void)state;
	assert_int_equal(check_clock_parse_pmc(PMC_REPLY("-42", "true"), &ts), PMC_OK);
	assert_int_equal(ts.master_offset_ns, -42);
	assert_true(ts.gm_present);
	assert_string_equal(ts.gm_identity, "aabbcc.fffe.ddeeff");
	assert_int_equal(check_clock_parse_pmc(PMC_REPLY("1234567", "false"), &ts), PMC_OK);
	assert_int_equal(ts.master_offset_ns, 1234567);
	assert_false(ts.gm_present);
}

static void pmc_without_a_response_or_with_an_error_is_told_apart(void **state)
{
	struct pmc_time_status ts;

	(void)state;
	/* the request line names TIME_STATUS_NP too: it is no answer */
	assert_int_equal(check_clock_parse_pmc("sending: GET TIME_STATUS_NP\n", &ts),
			 PMC_NO_REPLY);
	assert_int_equal(check_clock_parse_pmc("", &ts), PMC_NO_REPLY);
	assert_int_equal(check_clock_parse_pmc("sending: GET TIME_STATUS_NP\n\t001122.fffe."
					       "334455-0 seq 0 RESPONSE MANAGEMENT_ERROR_STATUS"
					       " \n", &ts), PMC_ERROR_STATUS);
}

static void a_response_missing_a_field_is_malformed(void **state)
{
	struct pmc_time_status ts;

	(void)state;
	assert_int_equal(check_clock_parse_pmc("\tx seq 0 RESPONSE MANAGEMENT TIME_STATUS_NP \n"
					       "\t\tmaster_offset 12\n", &ts), PMC_MALFORMED);
	assert_int_equal(check_clock_parse_pmc("\tx seq 0 RESPONSE MANAGEMENT TIME_STATUS_NP \n"
					       "\t\tgmPresent true\n", &ts), PMC_MALFORMED);
	assert_int_equal(check_clock_parse_pmc("\tx seq 0 RESPONSE MANAGEMENT TIME_STATUS_NP \n"
					       "\t\tmaster_offset 12ns\n\t\tgmPresent true\n", &ts),
			 PMC_MALFORMED);
	assert_int_equal(check_clock_parse_pmc("\tx seq 0 RESPONSE MANAGEMENT TIME_STATUS_NP \n"
					       "\t\tmaster_offset 12\n\t\tgmPresent maybe\n", &ts),
			 PMC_MALFORMED);
	/* another management ID is not the one asked for */
	assert_int_equal(check_clock_parse_pmc("\tx seq 0 RESPONSE MANAGEMENT PORT_DATA_SET \n"
					       "\t\tmaster_offset 12\n\t\tgmPresent true\n", &ts),
			 PMC_MALFORMED);
	/* a field of a second response is not the first one's */
	assert_int_equal(check_clock_parse_pmc("\tx seq 0 RESPONSE MANAGEMENT TIME_STATUS_NP \n"
					       "\t\tmaster_offset 12\n"
					       "\ty seq 1 RESPONSE MANAGEMENT TIME_STATUS_NP \n"
					       "\t\tgmPresent true\n", &ts), PMC_MALFORMED);
}

/* ---- clock.ptp --------------------------------------------------------------- */

static void ptp_is_asked_only_where_ptp4l_runs(void **state)
{
	(void)state;
	fake_pmc(PMC_REPLY("5", "true"));
	assert_finding("clock.ptp", CHECK_SKIP, "ptp4l does not run");
	assert_int_equal(access(strcat(strcpy((char[128]){ 0 }, root), "/args"), F_OK), -1);
}

static void a_missing_pmc_is_a_skip_with_the_fix(void **state)
{
	(void)state;
	proc(412, "ptp4l");
	P.grid_clock = GRID_CLOCK_REALTIME;
	assert_finding("clock.ptp", CHECK_SKIP, "pmc (linuxptp's management client) is not "
		       "found at");
	assert_non_null(strstr(run1("clock.ptp")->fix, "linuxptp"));
}

static void the_master_offset_is_judged_against_the_half_period(void **state)
{
	char args[128] = "";
	FILE *f;

	(void)state;
	proc(412, "ptp4l");
	P.grid_clock = GRID_CLOCK_REALTIME;
	fake_pmc(PMC_REPLY("-50000", "true"));
	assert_finding("clock.ptp", CHECK_PASS, "master_offset -50000 ns to grandmaster "
		       "aabbcc.fffe.ddeeff");
	f = fopen(strcat(strcpy((char[128]){ 0 }, root), "/args"), "r");
	assert_non_null(f);
	assert_non_null(fgets(args, sizeof(args), f));
	fclose(f);
	assert_string_equal(args, "-u -b 0 GET TIME_STATUS_NP\n");
	fake_pmc(PMC_REPLY("-50001", "true"));
	assert_finding("clock.ptp", CHECK_WARN, "master_offset -50001 ns");
	fake_pmc(PMC_REPLY("250000", "true"));
	assert_finding("clock.ptp", CHECK_FAIL, "master_offset 250000 ns");
	/* without a shared grid it does not matter */
	P.grid_clock = GRID_CLOCK_MONOTONIC;
	assert_finding("clock.ptp", CHECK_SKIP, "master_offset 250000 ns");
	assert_why("clock.ptp", "grid.clock is monotonic");
}

static void a_clock_that_is_its_own_grandmaster_warns(void **state)
{
	(void)state;
	proc(412, "ptp4l");
	P.grid_clock = GRID_CLOCK_TAI;
	fake_pmc(PMC_REPLY("0", "false"));
	assert_finding("clock.ptp", CHECK_WARN, "no grandmaster but this clock (gmPresent "
		       "false, gmIdentity aabbcc.fffe.ddeeff)");
	P.grid_clock = GRID_CLOCK_MONOTONIC;
	assert_finding("clock.ptp", CHECK_SKIP, "gmPresent false");
}

static void pmc_without_an_answer_is_a_skip_never_a_pass(void **state)
{
	(void)state;
	proc(412, "ptp4l");
	P.grid_clock = GRID_CLOCK_REALTIME;
	fake_pmc("sending: GET TIME_STATUS_NP\nfailed to open /var/run/pmc.123\n");
	assert_finding("clock.ptp", CHECK_SKIP, "no answer from ptp4l (exit 0: failed to open "
		       "/var/run/pmc.123)");
	fake_pmc("sending: GET TIME_STATUS_NP\n\t0-0 seq 0 RESPONSE "
		 "MANAGEMENT_ERROR_STATUS \n");
	assert_finding("clock.ptp", CHECK_SKIP, "MANAGEMENT_ERROR_STATUS");
}

static void a_pmc_that_hangs_is_killed(void **state)
{
	char script[256];

	(void)state;
	proc(412, "ptp4l");
	snprintf(script, sizeof(script), "#!/bin/sh\nexec sleep 30\n");
	put("pmc", script);
	assert_int_equal(chmod(pmc_path, 0755), 0);
	assert_finding("clock.ptp", CHECK_SKIP, "no answer in 2000 ms (killed)");
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(every_finding_is_made_in_order),
		T(the_running_time_daemons_are_named_with_their_pids),
		T(a_tree_without_processes_leaves_the_daemons_unknown),
		T(no_daemon_fails_only_on_a_shared_grid),
		T(ptp4l_alone_leaves_the_system_clock_free_on_a_shared_grid),
		T(two_daemons_steering_the_system_clock_warn),
		T(systemd_timesyncd_alone_warns_on_a_shared_grid),
		T(an_unsynchronised_clock_fails_only_on_a_shared_grid),
		T(the_error_bound_is_judged_against_the_half_period),
		T(the_error_bound_never_fails_without_a_shared_grid),
		T(a_clock_without_an_estimate_is_not_judged_by_its_bound),
		T(a_zero_tai_offset_fails_only_for_the_tai_grid),
		T(a_copied_tree_skips_what_this_machine_would_answer),
		T(pmcs_time_status_is_read_from_its_response),
		T(pmc_without_a_response_or_with_an_error_is_told_apart),
		T(a_response_missing_a_field_is_malformed),
		T(ptp_is_asked_only_where_ptp4l_runs),
		T(a_missing_pmc_is_a_skip_with_the_fix),
		T(the_master_offset_is_judged_against_the_half_period),
		T(a_clock_that_is_its_own_grandmaster_warns),
		T(pmc_without_an_answer_is_a_skip_never_a_pass),
		T(a_pmc_that_hangs_is_killed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
