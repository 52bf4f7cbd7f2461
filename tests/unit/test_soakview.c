/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for soakview: a log written with phases, loads and events is
 * read back into the per-phase proof the run's summary had: samples counted
 * in the phase their whole interval lies in, CoreMark results, a lost load,
 * a break, and timeline rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "log/edgelog.h"
#include "report/soakview.h"
#include "report/summary.h"

#define SEC 1000000000ull
#define START (1000 * SEC)

static char path[64];

static int make_path(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "/tmp/sqwave-sv-XXXXXX");
	return mkstemp(path) < 0 ? -1 : 0;
}

static int remove_path(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void ev(struct edgelog_writer *w, uint64_t t, uint16_t type, const char *text)
{
	assert_int_equal(edgelog_writer_append_event(w, t, type, text, strlen(text)), 0);
}

static void sample(struct edgelog_writer *w, uint64_t t, double busy1, double lo_pps)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "dt_ns=1000000000\ncpu=0:5.0,1:%.1f\nirq_s=100.0\nctxt_s=200.0\n"
		 "load1=1.00\nnet=lo:%.1f/%.1f\n", busy1, lo_pps / 2, lo_pps / 2);
	ev(w, t, EDGELOG_EV_SAMPLE, buf);
}

/* A run of 2 s warm-up, idle 10 s, loaded 20 s (coremark on CPU 1, a flood on lo). */
static void write_log(void)
{
	struct edgelog_meta m = { .clock_id = 1, .half_period_ns = 500000, .start_ns = START,
				  .text = (char *)
		"run.warmup=2s\nrun.label=rt-loaded\nproof.min_busy=80\n"
		"phase.count=2\n"
		"phase.0.name=idle\nphase.0.start_off_ns=0\nphase.0.duration_ns=10000000000\n"
		"phase.0.loads=0\n"
		"phase.1.name=loaded\nphase.1.start_off_ns=10000000000\n"
		"phase.1.duration_ns=20000000000\nphase.1.loads=2\n"
		"phase.1.load.0=coremark\nphase.1.load.1=ping-flood\n"
		"loads.containment=cgroup2 (x)\n"
		"phase.1.proof.0=coremark|cpu|1||0|1\nphase.1.proof.1=ping-flood|net|1|lo|1000|0\n" };
	struct edgelog_footer f = { 0 };
	struct edgelog_writer *w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	uint64_t t0 = START + 2 * SEC, t;

	assert_non_null(w);
	/* warm-up and idle samples: the idle phase sees CPU 1 idle */
	for (t = START + SEC; t <= t0 + 10 * SEC; t += SEC)
		sample(w, t, 2.0, 10);
	/* the first loaded sample straddles the boundary: not counted */
	for (t = t0 + 11 * SEC; t <= t0 + 30 * SEC; t += SEC)
		sample(w, t, 95.0, 40000);
	ev(w, t0 + 25 * SEC, EDGELOG_EV_LOAD,
	   "event=result\nload=coremark\ninst=0\npid=7\nvalid=1\nscore=2500.000\n");
	ev(w, t0 + 26 * SEC, EDGELOG_EV_LOAD,
	   "event=result\nload=coremark\ninst=0\npid=8\nvalid=0\nscore=0\nwhy=ran 4.0 s\n");
	ev(w, t0 + 27 * SEC, EDGELOG_EV_LOAD, "event=restarted\nload=coremark\ninst=0\npid=9\n");
	/* figures no run writes: a score of inf is no valid score, a sample
	 * with a nan rate is no sample */
	ev(w, t0 + 27 * SEC, EDGELOG_EV_LOAD,
	   "event=result\nload=coremark\ninst=0\npid=10\nvalid=1\nscore=inf\n");
	ev(w, t0 + 20 * SEC + 1, EDGELOG_EV_SAMPLE,
	   "dt_ns=1000000000\ncpu=1:99.0\nirq_s=nan\nctxt_s=1.0\nload1=0.1\nnet=\n");
	ev(w, t0 + 28 * SEC, EDGELOG_EV_LOAD,
	   "event=lost\nload=ping-flood\ninst=0\npid=3\ndetail=exits at once\n");
	ev(w, t0 + 5 * SEC, EDGELOG_EV_BREAK,
	   "seq=12\nwhat=wake\nvalue_ns=150000\nthreshold_ns=100000\ntrace=x.break-1.trace\n");
	assert_int_equal(edgelog_writer_close(w, &f, NULL, 0), 0);
}

static void a_soak_log_gives_back_its_phases_and_their_proof(void **state)
{
	struct run_phase ph;
	struct run_info ri = { 0 };
	char err[512];
	bool bad;
	struct soakview *v;
	uint64_t starts[2];
	cpu_set_t one;

	(void)state;
	write_log();
	v = soakview_open(path, START, 60 * SEC, &bad, err, sizeof(err));
	if (!v)
		fail_msg("%s", err);
	assert_int_equal(soakview_nphases(v), 2);
	soakview_phase_starts(v, starts);
	assert_int_equal(starts[0], START + 2 * SEC);
	assert_int_equal(starts[1], START + 12 * SEC);
	assert_string_equal(soakview_phase_at(v, START + 13 * SEC), "loaded");
	assert_string_equal(soakview_phase_at(v, START + SEC), "");	/* warm-up */
	soakview_phase(v, 0, &ph);
	assert_string_equal(ph.name, "idle");
	assert_int_equal(ph.proof->samples, 10);	/* the warm-up's samples are not idle's */
	soakview_phase(v, 1, &ph);
	assert_int_equal(ph.nloads, 2);
	assert_string_equal(ph.load_specs[1], "ping-flood");
	assert_int_equal(ph.proof->samples, 20);	/* the straddling one is left out */
	CPU_ZERO(&one);
	CPU_SET(1, &one);
	assert_true(proof_phase_busy(ph.proof, &one) > 94.9);
	{
		char why[1024] = "";

		assert_int_equal(proof_phase_judge(ph.proof, ph.reqs, ph.nreqs, 80, why, sizeof(why)), 1);
		assert_non_null(strstr(why, "ping-flood was lost (exits at once)"));
	}
	assert_int_equal(proof_phase_load((struct proof_phase *)ph.proof, "coremark")->valid, 1);
	assert_int_equal(proof_phase_load((struct proof_phase *)ph.proof, "coremark")->invalid, 2);
	assert_int_equal(proof_phase_load((struct proof_phase *)ph.proof, "coremark")->restarts, 1);
	soakview_run_info(v, &ri);
	assert_string_equal(ri.label, "rt-loaded");
	assert_int_equal(ri.breaks, 1);
	assert_string_equal(ri.break_text, "edge #12: wake latency 150.000 us (threshold 100.000 us)");
	assert_non_null(soakview_span(v, 0));
	assert_int_equal(soakview_span(v, 0)->samples, 32);	/* every sample of the first minute */
	assert_null(soakview_span(v, 1));
	soakview_free(v);
}

static void a_header_that_lies_about_its_phases_is_bad_input(void **state)
{
	struct edgelog_meta m = { .clock_id = 1, .half_period_ns = 500000, .start_ns = START,
				  .text = (char *)"phase.count=3\nphase.0.name=a\n" };
	struct edgelog_footer f = { 0 };
	struct edgelog_writer *w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	char err[512];
	bool bad;

	(void)state;
	assert_int_equal(edgelog_writer_close(w, &f, NULL, 0), 0);
	assert_null(soakview_open(path, START, 0, &bad, err, sizeof(err)));
	assert_true(bad);
	assert_non_null(strstr(err, "phase 0 is incomplete"));
}

/* Numbers of the plan are whole decimal integers in range: "5e8", "abc",
 * "" or "2x" is a malformed header (strtoll read 5, 0, 0 and 2: phases
 * moved without a word). */
static void a_header_number_that_is_not_one_is_bad_input(void **state)
{
	static const char *const bad_values[][2] = {
		{ "phase.count=2x\n", "phase.1.start_off_ns=5\n" },
		{ "phase.count=2\n", "phase.1.start_off_ns=5e8\n" },
		{ "phase.count=2\n", "phase.1.start_off_ns=abc\n" },
		{ "phase.count=2\n", "phase.1.start_off_ns=\n" },
		{ "phase.count=2\n", "phase.1.start_off_ns=-5\n" },
		{ "phase.count=2\n", "phase.1.start_off_ns=18446744073709551621\n" },
		{ "phase.count=2\n", "phase.1.start_off_ns=1000000000000000001\n" },
		{ "phase.count=2\n", "phase.1.start_off_ns=5\nphase.1.loads=65\n" },
	};
	size_t k;

	(void)state;
	for (k = 0; k <= sizeof(bad_values) / sizeof(bad_values[0]); k++) {
		char text[512];
		struct edgelog_meta m = { .clock_id = 1, .half_period_ns = 500000, .start_ns = START,
					  .text = text };
		struct edgelog_footer f = { 0 };
		struct edgelog_writer *w;
		struct soakview *v;
		char err[512];
		bool bad;

		/* the last round: the same header, well-formed, is read */
		snprintf(text, sizeof(text), "%sphase.0.name=a\nphase.0.start_off_ns=0\n"
			 "phase.0.duration_ns=5\nphase.0.loads=0\nphase.1.name=b\n%s"
			 "phase.1.duration_ns=5\nphase.1.loads=0\n",
			 k < sizeof(bad_values) / sizeof(bad_values[0]) ? bad_values[k][0] :
			 "phase.count=2\n",
			 k < sizeof(bad_values) / sizeof(bad_values[0]) ? bad_values[k][1] :
			 "phase.1.start_off_ns=5\n");
		unlink(path);
		w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
		assert_non_null(w);
		assert_int_equal(edgelog_writer_close(w, &f, NULL, 0), 0);
		v = soakview_open(path, START, 0, &bad, err, sizeof(err));
		if (k == sizeof(bad_values) / sizeof(bad_values[0])) {
			if (!v)
				fail_msg("%s", err);
			assert_int_equal(soakview_nphases(v), 2);
			soakview_free(v);
		} else if (v || !bad) {
			fail_msg("case %zu read", k);
		}
	}
}

/* A grid log whose clock events are @ev1 and @ev2 ("": none), read back:
 * NULL when refused (*@bad then says bad input). */
static struct soakview *grid_log(const char *ev1, const char *ev2, bool *bad, char *err,
				 size_t errlen)
{
	struct edgelog_meta m = { .clock_id = 1, .half_period_ns = 500000, .start_ns = START,
				  .text = (char *)"grid.clock=realtime\ngrid.align=1s\n"
				  "grid.slot0_ns=1796232600000000000\n"
				  "grid.offset_ns=1796231599999750000\ngrid.offset_uncertainty_ns=40\n" };
	struct edgelog_footer f = { 0 };
	struct edgelog_writer *w;

	unlink(path);
	w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	assert_non_null(w);
	ev(w, START + SEC, EDGELOG_EV_CLOCK, ev1);
	if (ev2[0])
		ev(w, START + 2 * SEC, EDGELOG_EV_CLOCK, ev2);
	assert_int_equal(edgelog_writer_close(w, &f, NULL, 0), 0);
	return soakview_open(path, START, 0, bad, err, errlen);
}

/* A clock step is its own size to the last bit, the most negative int64
 * too (its negation has none: it was read as 0 and printed "+0"); a size
 * that is no number, or steps that add up past int64, are no run's. */
static void a_clock_step_is_its_own_size_never_0(void **state)
{
	struct run_info ri = { 0 };
	struct soakview *v;
	char err[512], *text = NULL;
	size_t len = 0;
	bool bad = false;
	FILE *f;

	(void)state;
	v = grid_log("source=kernel\nmoved=yes\ndelta_ns=-9223372036854775808\noffset_ns=5\n"
		     "uncertainty_ns=40\n", "", &bad, err, sizeof(err));
	if (!v)
		fail_msg("%s", err);
	soakview_run_info(v, &ri);
	assert_non_null(ri.grid);
	assert_int_equal(ri.grid->steps, 1);
	assert_true(ri.grid->step_sum_ns == INT64_MIN);
	assert_true(ri.grid->step_largest_ns == INT64_MIN);
	f = open_memstream(&text, &len);
	summary_grid_text(f, ri.grid);
	fclose(f);
	assert_non_null(strstr(text, "by -9223372036854775808ns in all (largest "
			       "-9223372036854775808ns)"));
	free(text);
	soakview_free(v);
	/* two steps, the larger first: the largest keeps its sign */
	v = grid_log("source=kernel\nmoved=yes\ndelta_ns=-3600000000000\n",
		     "source=kernel\nmoved=yes\ndelta_ns=5\n", &bad, err, sizeof(err));
	assert_non_null(v);
	soakview_run_info(v, &ri);
	assert_true(ri.grid->step_sum_ns == -3599999999995ll);
	assert_true(ri.grid->step_largest_ns == -3600000000000ll);
	soakview_free(v);
	v = grid_log("source=kernel\nmoved=yes\ndelta_ns=12x\n", "", &bad, err, sizeof(err));
	assert_null(v);
	assert_true(bad);
	assert_non_null(strstr(err, "delta_ns that is not a number"));
	v = grid_log("source=kernel\nmoved=yes\ndelta_ns=-9223372036854775808\n",
		     "source=kernel\nmoved=yes\ndelta_ns=-1\n", &bad, err, sizeof(err));
	assert_null(v);
	assert_non_null(strstr(err, "add up beyond"));
}

/* Names and texts of the header and the events reach terminals and SVG:
 * control characters and bytes that are not UTF-8 come out as \xNN, and
 * a load's events still find the load of the same (escaped) name. */
static void text_from_the_log_is_escaped(void **state)
{
	struct edgelog_meta m = { .clock_id = 1, .half_period_ns = 500000, .start_ns = START,
				  .text = (char *)
		"phase.count=1\nphase.0.name=id\x1b[2Jle\nphase.0.start_off_ns=0\n"
		"phase.0.duration_ns=10000000000\nphase.0.loads=1\nphase.0.load.0=c\x07m\n"
		"phase.0.proof.0=c\x07m|cpu|0||0|1\nloads.containment=cg\x9b" "2J\n" };
	struct edgelog_footer f = { 0 };
	struct edgelog_writer *w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	struct run_phase ph;
	struct run_info ri = { 0 };
	char err[512];
	bool bad;
	struct soakview *v;

	(void)state;
	assert_non_null(w);
	ev(w, START + 2 * SEC, EDGELOG_EV_LOAD,
	   "event=lost\nload=c\x07m\ninst=0\npid=3\ndetail=exits\x1b]0;x\x07\n");
	ev(w, START + 3 * SEC, EDGELOG_EV_BREAK,
	   "seq=1\nwhat=wake\nvalue_ns=1\nthreshold_ns=1\ncause=c\x1b\nexplain=e\x1b\n");
	assert_int_equal(edgelog_writer_close(w, &f, NULL, 0), 0);
	v = soakview_open(path, START, 0, &bad, err, sizeof(err));
	if (!v)
		fail_msg("%s", err);
	soakview_phase(v, 0, &ph);
	assert_string_equal(ph.name, "id\\x1b[2Jle");
	assert_string_equal(ph.load_specs[0], "c\\x07m");
	assert_true(proof_phase_load((struct proof_phase *)ph.proof, "c\\x07m")->lost);
	assert_string_equal(proof_phase_load((struct proof_phase *)ph.proof, "c\\x07m")->lost_why,
			    "exits\\x1b]0;x\\x07");
	soakview_run_info(v, &ri);
	assert_string_equal(ri.containment, "cg\\x9b2J");
	assert_string_equal(ri.break_cause, "c\\x1b");
	assert_non_null(strstr(ri.break_text, "; e\\x1b"));
	soakview_free(v);
}

/* A 60 s row over a 20 s idle phase once merged the next phase's
 * flood into idle. The plot's steps are cut at every phase boundary, each
 * step holds one phase's samples only, and a sample whose interval crosses
 * a boundary is in neither (as the phases count it). */
static void the_plot_steps_never_straddle_a_phase_boundary(void **state)
{
	struct edgelog_meta m = { .clock_id = 1, .half_period_ns = 500000, .start_ns = START,
				  .text = (char *)
		"run.warmup=1s\nphase.count=2\n"
		"phase.0.name=idle\nphase.0.start_off_ns=0\nphase.0.duration_ns=20000000000\n"
		"phase.0.loads=0\n"
		"phase.1.name=flood\nphase.1.start_off_ns=20000000000\n"
		"phase.1.duration_ns=50000000000\nphase.1.loads=1\nphase.1.load.0=ping-flood\n"
		"phase.1.proof.0=ping-flood|net|1|lo|1000|0\n" };
	struct edgelog_footer f = { 0 };
	struct edgelog_writer *w = edgelog_writer_create(path, &m, NULL, 0, NULL, 0);
	uint64_t t0 = START + SEC, t, cuts[16];
	struct soakview_span sp;
	struct soakview *v;
	char err[512];
	bool bad;
	size_t n;

	(void)state;
	assert_non_null(w);
	for (t = t0 + SEC; t <= t0 + 20 * SEC; t += SEC)
		sample(w, t, 1.0, 4);
	/* [t0 + 20.5 s - 1 s, t0 + 20.5 s]: half idle, half flood */
	sample(w, t0 + 20 * SEC + SEC / 2, 50.0, 20000);
	for (t = t0 + 22 * SEC; t <= t0 + 70 * SEC; t += SEC)
		sample(w, t, 90.0, 30000);
	assert_int_equal(edgelog_writer_close(w, &f, NULL, 0), 0);
	v = soakview_open(path, START, 60 * SEC, &bad, err, sizeof(err));
	if (!v)
		fail_msg("%s", err);
	/* 60 s steps from the log's start, cut where each phase begins and ends */
	n = soakview_cuts(v, START, START + 120 * SEC, 60 * SEC, cuts, 16);
	assert_int_equal(n, 6);
	assert_int_equal(cuts[0], START);
	assert_int_equal(cuts[1], t0);			/* idle begins */
	assert_int_equal(cuts[2], t0 + 20 * SEC);	/* flood begins */
	assert_int_equal(cuts[3], START + 60 * SEC);	/* the grid */
	assert_int_equal(cuts[4], t0 + 70 * SEC);	/* flood ends */
	assert_int_equal(cuts[5], START + 120 * SEC);
	/* idle's step: its 20 samples, the flood's none */
	assert_true(soakview_window(v, cuts[1], cuts[2], &sp));
	assert_int_equal(sp.samples, 20);
	assert_true(sp.pps_sum / (double)sp.samples == 4.0);
	/* the flood's first step: the samples from t0 + 22 s, not the straddler */
	assert_true(soakview_window(v, cuts[2], cuts[3], &sp));
	assert_int_equal(sp.samples, 38);
	assert_true(sp.pps_sum / (double)sp.samples == 30000.0);
	/* before the warm-up's end and after the last phase: nothing */
	assert_false(soakview_window(v, cuts[0], cuts[1], &sp));
	assert_false(soakview_window(v, cuts[4], cuts[5], &sp));
	/* the bound is kept: fewer points than the steps need */
	assert_int_equal(soakview_cuts(v, START, START + 120 * SEC, 60 * SEC, cuts, 3), 3);
	assert_int_equal(cuts[2], t0 + 20 * SEC);
	soakview_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_soak_log_gives_back_its_phases_and_their_proof,
						make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_header_that_lies_about_its_phases_is_bad_input,
						make_path, remove_path),
		cmocka_unit_test_setup_teardown(text_from_the_log_is_escaped, make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_clock_step_is_its_own_size_never_0, make_path,
						remove_path),
		cmocka_unit_test_setup_teardown(the_plot_steps_never_straddle_a_phase_boundary,
						make_path, remove_path),
		cmocka_unit_test_setup_teardown(a_header_number_that_is_not_one_is_bad_input, make_path,
						remove_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
