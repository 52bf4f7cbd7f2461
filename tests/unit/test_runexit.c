/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runexit: the exit code of run, respond and check --run's short run,
 * decided from what the run ended with, as docs/sqwave.1 says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>

#include "base/exitcode.h"
#include "cmd/runexit.h"

/* A run of a set duration that happened and ended on its own, @v its
 * verdict. */
static struct run_end ended(enum verdict v)
{
	return (struct run_end){ .status = SQW_EXIT_OK, .finite = true, .nlines = 1,
				 .verdict = v };
}

static void a_failed_verdict_exits_1_and_pass_or_no_limits_exit_0(void **state)
{
	struct run_end e = ended(VERDICT_FAIL);

	(void)state;
	assert_int_equal(runexit_code(&e), SQW_EXIT_LIMIT);
	e = ended(VERDICT_PASS);
	assert_int_equal(runexit_code(&e), SQW_EXIT_OK);
	e = ended(VERDICT_NO_LIMITS);
	assert_int_equal(runexit_code(&e), SQW_EXIT_OK);
}

static void a_run_that_did_not_happen_exits_with_its_failure(void **state)
{
	struct run_end e = { .status = SQW_EXIT_USAGE };

	(void)state;
	assert_int_equal(runexit_code(&e), SQW_EXIT_USAGE);
	e.status = SQW_EXIT_RUNTIME;
	assert_int_equal(runexit_code(&e), SQW_EXIT_RUNTIME);
}

/* A signal cuts a run of a set duration short: 128 + N over its verdict;
 * a run without a duration ends by a signal as planned, judged. */
static void a_signal_cuts_a_finite_run_short_but_ends_an_endless_one(void **state)
{
	struct run_end e = ended(VERDICT_FAIL);

	(void)state;
	e.signal = SIGINT;
	assert_int_equal(runexit_code(&e), 128 + SIGINT);
	e.finite = false;
	assert_int_equal(runexit_code(&e), SQW_EXIT_LIMIT);
	e.verdict = VERDICT_PASS;
	assert_int_equal(runexit_code(&e), SQW_EXIT_OK);
}

/* An error met, an output lost, a log not closed: 3 over the verdict and
 * a signal; a log not closed over the session's own failure too (its
 * footer is not the run's). */
static void a_runtime_failure_exits_3_over_verdict_and_signal(void **state)
{
	struct run_end e = ended(VERDICT_FAIL);

	(void)state;
	e.signal = SIGTERM;
	e.error = true;
	assert_int_equal(runexit_code(&e), SQW_EXIT_RUNTIME);
	e = ended(VERDICT_PASS);
	e.signal = SIGTERM;
	e.lost = 1;
	assert_int_equal(runexit_code(&e), SQW_EXIT_RUNTIME);
	e = ended(VERDICT_PASS);
	e.log_incomplete = true;
	assert_int_equal(runexit_code(&e), SQW_EXIT_RUNTIME);
	e = (struct run_end){ .status = SQW_EXIT_USAGE, .log_incomplete = true };
	assert_int_equal(runexit_code(&e), SQW_EXIT_RUNTIME);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_failed_verdict_exits_1_and_pass_or_no_limits_exit_0),
		cmocka_unit_test(a_run_that_did_not_happen_exits_with_its_failure),
		cmocka_unit_test(a_signal_cuts_a_finite_run_short_but_ends_an_endless_one),
		cmocka_unit_test(a_runtime_failure_exits_3_over_verdict_and_signal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
