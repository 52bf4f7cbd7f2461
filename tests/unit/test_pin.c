/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the pin description: the nominal widths each kind gives,
 * the header's pin.* written and read back, an older header's derived, and
 * every inconsistent header refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log/pin.h"

/* A header's "key=value\n" text, as edgelog_meta_get() reads it. */
static const char *get(const void *ctx, const char *key, char *buf, size_t len)
{
	const char *p = ctx;
	size_t klen = strlen(key);

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t llen = eol ? (size_t)(eol - p) : strlen(p);

		if (llen > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			snprintf(buf, len, "%.*s", (int)(llen - klen - 1), p + klen + 1);
			return buf;
		}
		p = eol ? eol + 1 : NULL;
	}
	return NULL;
}

/* @p's pin.* lines, as the run writes them. */
static char *written(const struct pin *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	pin_meta_write(p, f);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void each_kind_gives_its_own_nominal_widths(void **state)
{
	const struct wave sq = wave_square(500000), duty = { 300000, 700000, 100000 };
	struct pin p;

	(void)state;
	pin_init_wave(&p, "0", &sq, 0, PIN_GRID_MONOTONIC, 1000000000);
	assert_int_equal(p.nominal_ns[PIN_POS], 500000);
	assert_int_equal(p.nominal_ns[PIN_NEG], 500000);
	assert_int_equal(p.grid_align_ns, 0);	/* monotonic: no shared grid */
	pin_init_wave(&p, "0", &duty, 1, PIN_GRID_REALTIME, 1000000000);
	assert_int_equal(p.nominal_ns[PIN_POS], 300000);	/* high, whatever the idle level */
	assert_int_equal(p.nominal_ns[PIN_NEG], 700000);
	assert_int_equal(pin_half_period(&p), 500000);
	/* a respond pulse leaves the idle level for its width; the gaps, and
	 * follow's and toggle's pulses, are the input's: no nominal */
	pin_init_respond(&p, "0", 0, PIN_PULSE, "2", PIN_EDGE_RISING, 0, 50000);
	assert_int_equal(p.nominal_ns[PIN_POS], 50000);
	assert_int_equal(p.nominal_ns[PIN_NEG], 0);
	pin_init_respond(&p, "0", 1, PIN_PULSE, "2", PIN_EDGE_RISING, 0, 50000);
	assert_int_equal(p.nominal_ns[PIN_POS], 0);
	assert_int_equal(p.nominal_ns[PIN_NEG], 50000);
	pin_init_respond(&p, "0", 0, PIN_FOLLOW, "2", PIN_EDGE_BOTH, 10000, 50000);
	assert_false(pin_has_nominal(&p, PIN_POS) || pin_has_nominal(&p, PIN_NEG));
	assert_int_equal(p.pulse_ns, 0);
	assert_int_equal(pin_half_period(&p), 0);
}

static void a_written_pin_reads_back_the_same(void **state)
{
	const struct wave duty = { 300000, 700000, 100000 };
	struct pin p, q;
	char err[256], *t;

	(void)state;
	pin_init_wave(&p, "PB1", &duty, 1, PIN_GRID_TAI, 2000000);
	t = written(&p);
	assert_int_equal(pin_meta_read(&q, get, t, 500000, err, sizeof(err)), 0);
	assert_memory_equal(&p, &q, sizeof(p));
	free(t);
	pin_init_respond(&p, "0", 0, PIN_TOGGLE, "SIM2", PIN_EDGE_FALLING, 20000, 0);
	t = written(&p);
	assert_int_equal(pin_meta_read(&q, get, t, 500000, err, sizeof(err)), 0);
	assert_memory_equal(&p, &q, sizeof(p));
	free(t);
}

static void an_older_header_is_read_as_what_it_has(void **state)
{
	struct pin p;
	char err[256];

	(void)state;
	/* a 50 % wave wrote no wave.* */
	assert_int_equal(pin_meta_read(&p, get, "gpio.line=3\ngpio.idle_level=1\n", 250000, err,
				       sizeof(err)), 0);
	assert_int_equal(p.kind, PIN_WAVE);
	assert_string_equal(p.line, "3");
	assert_int_equal(p.idle_level, 1);
	assert_int_equal(p.nominal_ns[PIN_POS], 250000);
	assert_int_equal(p.nominal_ns[PIN_NEG], 250000);
	assert_int_equal(pin_meta_read(&p, get, "outputs.line=5\ngpio.line=0,5\nwave.high_ns=100000\n"
				       "wave.low_ns=900000\nwave.phase_ns=0\ngrid.clock=realtime\n"
				       "grid.align=1s\n", 500000, err, sizeof(err)), 0);
	assert_string_equal(p.line, "5");
	assert_int_equal(p.nominal_ns[PIN_POS], 100000);
	assert_int_equal(p.nominal_ns[PIN_NEG], 900000);
	assert_int_equal(p.grid, PIN_GRID_REALTIME);
	assert_int_equal(p.grid_align_ns, 1000000000);
	/* a respond log: its config dump's durations carry units */
	assert_int_equal(pin_meta_read(&p, get, "run.mode=respond\ninput.line=2\nrespond.mode=pulse\n"
				       "respond.edge=rising\nrespond.pulse_width=50us\n"
				       "respond.debounce=1ms\n", 500000, err, sizeof(err)), 0);
	assert_int_equal(p.kind, PIN_RESPOND);
	assert_int_equal(p.respond_mode, PIN_PULSE);
	assert_int_equal(p.input_edge, PIN_EDGE_RISING);
	assert_int_equal(p.pulse_ns, 50000);
	assert_int_equal(p.debounce_ns, 1000000);
	assert_int_equal(p.nominal_ns[PIN_POS], 50000);
}

/* A header whose pin does not hold together is refused, saying what. */
static void an_inconsistent_pin_is_refused(void **state)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "pin.kind=square\n", "pin.kind=square is none of the known words" },
		{ "pin.kind=wave\npin.line=0\npin.idle_level=0\npin.high_ns=300000\n"
		  "pin.low_ns=600000\npin.phase_ns=0\npin.grid=monotonic\npin.grid_align_ns=0\n"
		  "pin.nominal_pos_ns=300000\npin.nominal_neg_ns=600000\n",
		  "do not fit the half period 500000 ns" },
		{ "pin.kind=wave\npin.line=0\npin.idle_level=0\npin.high_ns=300000\n"
		  "pin.low_ns=700000\npin.phase_ns=0\npin.grid=monotonic\npin.grid_align_ns=0\n"
		  "pin.nominal_pos_ns=500000\npin.nominal_neg_ns=500000\n",
		  "nominal widths disagree with its shape (300000 and 700000 ns)" },
		{ "pin.kind=wave\npin.line=0\npin.idle_level=0\npin.high_ns=300000\n"
		  "pin.low_ns=700000\npin.phase_ns=1000000\npin.grid=monotonic\n"
		  "pin.grid_align_ns=0\npin.nominal_pos_ns=300000\npin.nominal_neg_ns=700000\n",
		  "do not fit" },
		{ "pin.kind=wave\npin.line=0\npin.idle_level=2\n", "pin.idle_level=2 is not a whole "
		  "number in 0..1" },
		{ "pin.kind=respond\npin.line=0\npin.idle_level=0\npin.respond_mode=pulse\n"
		  "pin.input=2\npin.input_edge=both\npin.debounce_ns=0\npin.pulse_ns=50000\n",
		  "no pin.nominal_pos_ns" },
		{ "pin.kind=wave\npin.line=0\npin.idle_level=0\npin.high_ns=x\n",
		  "pin.high_ns=x is not a whole number" },
	};
	struct pin p;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (pin_meta_read(&p, get, bad[i].text, 500000, err, sizeof(err)) != -1)
			fail_msg("accepted: %s", bad[i].text);
		if (!strstr(err, bad[i].why))
			fail_msg("%s: said \"%s\", not \"%s\"", bad[i].text, err, bad[i].why);
	}
}

static void a_pin_in_words(void **state)
{
	const struct wave sq = wave_square(500000), duty = { 300000, 700000, 0 };
	struct pin p;
	char buf[160];

	(void)state;
	pin_init_wave(&p, "0", &sq, 0, PIN_GRID_MONOTONIC, 0);
	assert_string_equal(pin_describe(&p, buf, sizeof(buf)),
			    "half period 500.000 us (1000.000 Hz)");
	pin_init_wave(&p, "0", &duty, 0, PIN_GRID_MONOTONIC, 0);
	assert_string_equal(pin_describe(&p, buf, sizeof(buf)),
			    "high 300.000 us, low 700.000 us (1000.000 Hz, 30.00 % high), phase 0.000 us");
	pin_init_respond(&p, "0", 0, PIN_PULSE, "2", PIN_EDGE_RISING, 0, 50000);
	assert_string_equal(pin_describe(&p, buf, sizeof(buf)),
			    "respond: pulse of 50.000 us on rising edges of input 2, debounce 0.000 us");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_kind_gives_its_own_nominal_widths),
		cmocka_unit_test(a_written_pin_reads_back_the_same),
		cmocka_unit_test(an_older_header_is_read_as_what_it_has),
		cmocka_unit_test(an_inconsistent_pin_is_refused),
		cmocka_unit_test(a_pin_in_words),
	};

	return cmocka_run_group_tests_name("pin", tests, NULL, NULL);
}
