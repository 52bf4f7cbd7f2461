/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for respcompare (src/lab/compare/respcompare.c): respond logs and
 * two-channel captures built here with known delays, lost events and bounces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/respcompare.h"

#define T0      9000000000ll        /* log clock of the first stimulus edge */
#define CAP_OFF 2000000ll           /* capture t = log t - T0 + CAP_OFF (ns) */
#define RES_PS  (10 * CAPTURE_PS_PER_NS) /* a 100 MSa/s analyzer */
#define IRQ     3000                /* input edge -> kernel timestamp, ns */
#define WB      6000                /* event -> write begin */
#define WW      1000                /* write window */
#define NSTIM   80
#define NMAX    (520 + 8)           /* a scene's edges at most */

/* What the kernel does with a stimulus edge. */
enum { K_EVENT, K_LOST, K_NONE };

struct scene {
	int64_t t[NMAX];       /* stimulus edges, log clock */
	uint8_t level[NMAX];
	uint8_t fate[NMAX];    /* K_* */
	int64_t event_at[NMAX]; /* the kernel's timestamp (0: t + IRQ) */
	int64_t write_at[NMAX]; /* write begin, log clock (0: event + WB) */
	int64_t ww;                 /* write window (0: WW) */
	int64_t ww_at[NMAX];   /* this answer's write window (0: ww) */
	int64_t pin_ns;             /* the pin changes this long after write begin
				     * (0: in the middle of its window) */
	int64_t pin_at[NMAX];       /* this answer's (0: pin_ns) */
	size_t n;
	int mode;                   /* 0 follow, 1 toggle */
	bool count_lost;            /* expirations say so */
	int64_t move_resp_ns;       /* shift response edge #move_idx by this */
	size_t move_idx;
	size_t drop_idx;            /* drop response edges drop_idx and drop_idx + 1 */
	double drift_ppm;           /* the capture's clock fast by */
};

static double cap_drift;

static uint32_t rng;

static uint32_t rnd(void)
{
	rng = rng * 1664525u + 1013904223u;
	return rng >> 8;
}

/* @n stimulus edges 300..900 us apart, alternating, rising first. */
static void scene_init_n(struct scene *s, size_t n)
{
	int64_t t = T0;

	assert_true(n + 8 <= NMAX);
	memset(s, 0, sizeof(*s));
	rng = 11;
	for (size_t i = 0; i < n; i++) {
		s->t[i] = t;
		s->level[i] = (uint8_t)(i % 2 == 0);
		t += 300000 + (int64_t)(rnd() % 600000);
	}
	s->n = n;
	s->count_lost = true;
	s->move_idx = s->drop_idx = SIZE_MAX;
}

static void scene_init(struct scene *s)
{
	scene_init_n(s, NSTIM);
}

static int64_t cap_ps(int64_t log_ns)
{
	int64_t ps = (int64_t)llround((double)(log_ns - T0 + CAP_OFF) * (1 + cap_drift * 1e-6)) *
		     CAPTURE_PS_PER_NS;

	/* a sampled edge is reported at the first sample at the new level */
	return (ps + RES_PS - 1) / RES_PS * RES_PS;
}

/* The log the scene makes, and both channels of its capture; compared. */
static struct respcmp *scene_run(const struct scene *s, const struct respcmp_params *pin)
{
	struct edge_rec *rec = calloc(s->n, sizeof(*rec));
	struct capture_edge *st = calloc(s->n, sizeof(*st)), *rs = calloc(s->n, sizeof(*rs));
	struct respcmp_params p = *pin;
	size_t nrec = 0, nrs = 0, nresp = 0;
	unsigned lost = 0, level = 0;
	bool first = true;

	assert_non_null(rec);
	assert_non_null(st);
	assert_non_null(rs);
	cap_drift = s->drift_ppm;
	for (size_t i = 0; i < s->n; i++) {
		st[i].t_ps = cap_ps(s->t[i]);
		st[i].level = s->level[i];
		st[i].sample = -1;
		if (s->fate[i] == K_LOST)
			lost++;
		if (s->fate[i] != K_EVENT)
			continue;
		struct edge_rec *e = &rec[nrec];
		int64_t ev = s->event_at[i] ? s->event_at[i] : s->t[i] + IRQ;

		e->seq = nrec++;
		e->intended_ns = (uint64_t)ev;
		int64_t wb = s->write_at[i] ? s->write_at[i] - ev : WB;
		int64_t ww = s->ww_at[i] ? s->ww_at[i] : s->ww ? s->ww : WW;

		e->wake_off_ns = (int32_t)(wb - 1000);
		e->write_begin_off_ns = (int32_t)wb;
		e->write_end_off_ns = (int32_t)(wb + ww);
		e->expirations = (uint16_t)(first ? 1 : 1 + (s->count_lost ? lost : 0));
		e->level = (uint8_t)(s->mode == 0 ? s->level[i] : !level);
		lost = 0;
		first = false;
		if (e->level != level) {
			int64_t in_ww = s->pin_at[i] ? s->pin_at[i] : s->pin_ns;
			int64_t at = ev + wb + (in_ww ? (in_ww < ww ? in_ww : ww) : ww / 2);

			if (nresp == s->move_idx)
				at += s->move_resp_ns;
			if (s->drop_idx == SIZE_MAX || (nresp != s->drop_idx && nresp != s->drop_idx + 1)) {
				rs[nrs].t_ps = cap_ps(at);
				rs[nrs].level = e->level;
				rs[nrs].sample = -1;
				nrs++;
			}
			nresp++;
			level = e->level;
		}
	}
	p.idle_level = 0;
	return respcmp_compute(&p, rec, nrec, st, s->n, rs, nrs, RES_PS, 0,
			       cap_ps(s->t[s->n - 1]) + 1000 * 1000 * CAPTURE_PS_PER_NS);
}

static struct respcmp_params params(int mode, int edge, int64_t debounce)
{
	struct respcmp_params p;

	respcmp_params_init(&p);
	p.mode = mode;
	p.edge = edge;
	p.debounce_ns = debounce;
	return p;
}

static void a_3_us_irq_latency_is_measured_and_agrees(void **state)
{
	struct scene s;
	struct respcmp_params p = params(0, 0, 0);
	struct respcmp *c;

	(void)state;
	scene_init(&s);
	c = scene_run(&s, &p);
	assert_non_null(c);
	assert_true(c->aligned);
	assert_int_equal(c->verdict, COMPARE_AGREE);
	assert_int_equal(c->checked, NSTIM);
	assert_int_equal(c->stim_cause, NSTIM);
	assert_int_equal(c->bad, 0);
	assert_int_equal(c->irq.n, NSTIM);
	/* the capture's quantization and the fit blur it by a sample or two */
	assert_true(fabs(c->irq.p50 - IRQ) <= 20);
	assert_true(fabs(c->irq.max - IRQ) <= 20 && fabs(c->irq.min - IRQ) <= 20);
	assert_true(fabs(c->delay.p50 - (IRQ + WB + WW / 2)) <= 20);
	/* each answer's cause is its own stimulus edge */
	for (size_t a = 0; a < c->nans; a++)
		assert_int_equal(c->ans[a].stim, a);
	respcmp_free(c);
}

static void a_burst_of_queued_answers_is_paired_edge_for_edge(void **state)
{
	struct scene s;
	struct respcmp_params p = params(0, 0, 0);
	struct respcmp *c;

	(void)state;
	scene_init(&s);
	/* the first 12 events waited for the RT thread: answered 120 ns apart,
	 * 80 ns writes, 5 ms after the last of them */
	for (size_t i = 0; i < 12; i++)
		s.write_at[i] = s.t[11] + 5000000 + (int64_t)i * 120;
	s.ww = 80;
	c = scene_run(&s, &p);
	assert_non_null(c);
	assert_int_equal(c->verdict, COMPARE_AGREE);
	for (size_t a = 0; a < c->nans; a++)
		assert_int_equal(c->ans[a].resp, a);
	assert_int_equal(c->m.disagree, 0);
	assert_true(fabs(c->m.drift_ppm) < 0.1);
	respcmp_free(c);
}

/*
 * A burst as a real line (and the simulated one) writes it: the first
 * @nb events waited while the run set itself up and are answered back to
 * back, 30 ns between windows of @ww ns, each pin @pin ns after its write
 * began; the other 500 - @nb answers' pins change 100 ns into windows of
 * @ww_rest ns (the rest of a window is the write's return and the clock
 * read). A fit to the windows' midpoints is then off by up to half a
 * window: the burst's pins mapped past their short windows.
 */
static void scene_burst(struct scene *s, size_t nb, const int64_t *ww, const int64_t *pin,
			int64_t ww_rest)
{
	int64_t at;

	scene_init_n(s, 500);
	at = s->t[nb - 1] + 20000;
	for (size_t i = 0; i < nb; i++) {
		s->write_at[i] = at;
		s->ww_at[i] = ww[i];
		s->pin_at[i] = pin[i];
		at += ww[i] + 30;
	}
	s->ww = ww_rest;
	s->pin_ns = 100;
	s->drift_ppm = -15;
}

/* The burst's log against its capture (follow mode, no debounce). */
static struct respcmp *burst_compare(const struct scene *s)
{
	struct respcmp_params p = params(0, 0, 0);
	struct respcmp *c = scene_run(s, &p);

	assert_non_null(c);
	return c;
}

static void a_burst_with_pins_early_in_their_windows_is_paired(void **state)
{
	static const int64_t ww[] = { 70, 70, 70, 70, 70 }, pin[] = { 40, 40, 40, 40, 40 };
	struct scene s;
	struct respcmp *c;

	(void)state;
	scene_burst(&s, 5, ww, pin, 600);
	c = burst_compare(&s);
	assert_int_equal(c->nans, 500);
	/* each answer with its own edge, none left unpaired */
	for (size_t a = 0; a < c->nans; a++) {
		assert_int_equal(c->ans[a].resp, a);
		assert_int_equal(c->ans[a].status & RESPCMP_A_BAD, 0);
	}
	assert_int_equal(c->m.disagree, 0);
	assert_int_equal(c->verdict, COMPARE_AGREE);
	/* the input's latency, through the same mapping, within what it says
	 * of itself */
	assert_true(fabs(c->irq.min - IRQ) <= c->m.tolerance_ns + c->m.place_ns);
	assert_true(fabs(c->irq.max - IRQ) <= c->m.tolerance_ns + c->m.place_ns);
	respcmp_free(c);
}

static void a_short_window_is_judged_by_what_the_mapping_can_tell(void **state)
{
	/* three queued answers, the last one quick: its 80 ns window is
	 * narrower than the fit's bias */
	static const int64_t ww[] = { 1600, 320, 80 }, pin[] = { 100, 100, 60 };
	struct scene s;
	struct respcmp *c;

	(void)state;
	scene_burst(&s, 3, ww, pin, 500);
	c = burst_compare(&s);
	/* mapped past its window by more than the tolerance, by less than
	 * the tolerance and place_ns: inside, as far as the mapping can say */
	assert_true(c->ans[2].residual_ns > c->m.tolerance_ns);
	assert_int_equal(c->ans[2].resp, 2);
	assert_int_equal(c->bad, 0);
	assert_int_equal(c->m.disagree, 0);
	assert_int_equal(c->verdict, COMPARE_AGREE);
	respcmp_free(c);
	/* 1 us later than that, it is outside */
	s.move_idx = 2;
	s.move_resp_ns = 1000;
	c = burst_compare(&s);
	assert_int_equal(c->ans[2].resp, 2);
	assert_true(c->ans[2].status & RESPCMP_A_WINDOW);
	assert_int_equal(c->bad, 1);
	assert_int_equal(c->verdict, COMPARE_DISAGREE);
	respcmp_free(c);
}

static void a_slow_capture_clock_does_not_shorten_a_long_answer(void **state)
{
	struct scene s;
	struct respcmp_params p = params(0, 0, 0);
	struct respcmp *c;

	(void)state;
	scene_init(&s);
	/* 20 ms late answers on an analyzer 40 ppm slow: 0.8 us short in its
	 * own time base, more than the lower bound's one sample */
	for (size_t i = 0; i < s.n; i++)
		s.write_at[i] = s.t[i] + IRQ + 20000000;
	s.drift_ppm = -40;
	c = scene_run(&s, &p);
	assert_non_null(c);
	assert_true(fabs(c->m.drift_ppm + 40) < 0.5);
	assert_int_equal(c->bad, 0);
	assert_int_equal(c->verdict, COMPARE_AGREE);
	assert_true(fabs(c->delay.p50 - (IRQ + 20000000 + WW / 2)) <= 40);
	respcmp_free(c);
}

static void a_negative_irq_latency_disagrees(void **state)
{
	struct scene s;
	struct respcmp_params p = params(0, 0, 0);
	struct respcmp *c;

	(void)state;
	scene_init(&s);
	/* one event stamped 2 us before its edge: the kernel cannot see the future */
	s.event_at[30] = s.t[30] - 2000;
	c = scene_run(&s, &p);
	assert_non_null(c);
	assert_int_equal(c->verdict, COMPARE_DISAGREE);
	assert_true(c->ans[30].status & (RESPCMP_A_IRQ_NEG | RESPCMP_A_NO_STIM));
	respcmp_free(c);
}

static void a_lost_event_counted_by_the_log_is_explained(void **state)
{
	struct scene s;
	struct respcmp_params p = params(1, 0, 0);
	struct respcmp *c;

	(void)state;
	scene_init(&s);
	s.mode = 1;
	s.fate[40] = K_LOST;
	c = scene_run(&s, &p);
	assert_non_null(c);
	assert_int_equal(c->stim_lost_kernel, 1);
	assert_int_equal(c->kernel_lost, 1);
	assert_int_equal(c->stim_unexplained, 0);
	assert_int_equal(c->stim_class[40], RESPCMP_S_LOST);
	assert_int_equal(c->stim_class[41], RESPCMP_S_CAUSE);
	assert_int_equal(c->verdict, COMPARE_AGREE);
	respcmp_free(c);
}

static void a_lost_event_the_log_does_not_count_disagrees(void **state)
{
	struct scene s;
	struct respcmp_params p = params(1, 0, 0);
	struct respcmp *c;

	(void)state;
	scene_init(&s);
	s.mode = 1;
	s.fate[40] = K_LOST;
	s.count_lost = false;
	c = scene_run(&s, &p);
	assert_non_null(c);
	assert_int_equal(c->stim_lost_kernel, 0);
	assert_int_equal(c->stim_unexplained, 1);
	assert_int_equal(c->stim_class[40], RESPCMP_S_UNEXPLAINED);
	assert_int_equal(c->verdict, COMPARE_DISAGREE);
	respcmp_free(c);
}

/* Edge 20 bounces: rise, fall 2 us later, rise 2 us after that. */
static void scene_bounce(struct scene *s)
{
	scene_init(s);
	memmove(&s->t[23], &s->t[21], (NSTIM - 21) * sizeof(s->t[0]));
	memmove(&s->level[23], &s->level[21], (NSTIM - 21) * sizeof(s->level[0]));
	s->t[21] = s->t[20] + 2000;
	s->level[21] = 0;
	s->t[22] = s->t[20] + 4000;
	s->level[22] = 1;
	s->n = NSTIM + 2;
}

static void a_debounced_bounce_is_answered_from_its_first_edge(void **state)
{
	struct scene s;
	struct respcmp_params p = params(0, 0, 10000);
	struct respcmp *c;

	(void)state;
	scene_bounce(&s);
	/* the kernel stamps every event once the line was stable for the
	 * debounce period (+ its latency), and reports the burst once */
	for (size_t i = 0; i < s.n; i++)
		s.event_at[i] = s.t[i] + 10000 + IRQ;
	s.fate[21] = s.fate[22] = K_NONE;
	s.event_at[20] = s.t[22] + 10000 + IRQ;
	p.irq_bound_ns = IRQ + 100;
	c = scene_run(&s, &p);
	assert_non_null(c);
	assert_int_equal(c->verdict, COMPARE_AGREE);
	assert_int_equal(c->stim_filtered_debounce, 2);
	assert_int_equal(c->stim_class[20], RESPCMP_S_CAUSE);
	assert_int_equal(c->ans[20].stim, 20);
	/* the input's own latency, what irq_bound covers: from the burst's
	 * last change + the debounce period to the stamp */
	assert_true(fabs(c->ans[20].irq_ns - IRQ) <= 20);
	/* the delay from the burst's first edge, what the scope shows: its
	 * 4 us span and the debounce inside the bounds */
	assert_true(fabs(c->ans[20].delay_ns - (4000 + 10000 + IRQ + WB + WW / 2)) <= 20);
	assert_true(c->ans[20].lo_ns <= c->ans[20].delay_ns && c->ans[20].delay_ns <= c->ans[20].hi_ns);
	assert_true(c->ans[20].lo_ns >= 4000 + 10000 + WB - 20);
	assert_int_equal(c->ans[21].stim, 23);
	respcmp_free(c);
}

static void an_undebounced_bounce_is_three_events(void **state)
{
	struct scene s;
	struct respcmp_params p = params(0, 0, 0);
	struct respcmp *c;

	(void)state;
	scene_bounce(&s);
	c = scene_run(&s, &p);
	assert_non_null(c);
	assert_int_equal(c->verdict, COMPARE_AGREE);
	assert_int_equal(c->nans, NSTIM + 2);
	for (size_t a = 20; a < 23; a++) {
		assert_int_equal(c->ans[a].stim, a);
		assert_true(fabs(c->ans[a].irq_ns - IRQ) <= 20);
	}
	respcmp_free(c);
}

static void falling_edges_unwatched_are_filtered_not_lost(void **state)
{
	struct scene s;
	struct respcmp_params p = params(1, 1, 0);
	struct respcmp *c;

	(void)state;
	scene_init(&s);
	s.mode = 1;
	for (size_t i = 1; i < s.n; i += 2)
		s.fate[i] = K_NONE;
	c = scene_run(&s, &p);
	assert_non_null(c);
	assert_int_equal(c->verdict, COMPARE_AGREE);
	assert_int_equal(c->stim_filtered_edge, NSTIM / 2);
	assert_int_equal(c->stim_cause, NSTIM / 2);
	assert_int_equal(c->stim_unexplained, 0);
	respcmp_free(c);
}

static void a_response_edge_50_us_late_disagrees(void **state)
{
	struct scene s;
	struct respcmp_params p = params(0, 0, 0);
	struct respcmp *c;

	(void)state;
	scene_init(&s);
	s.move_idx = 33;
	s.move_resp_ns = 50000;
	c = scene_run(&s, &p);
	assert_non_null(c);
	assert_int_equal(c->verdict, COMPARE_DISAGREE);
	assert_true(c->ans[33].status & RESPCMP_A_WINDOW);
	assert_true(fabs(c->ans[33].delay_ns - (IRQ + WB + WW / 2 + 50000)) <= 20);
	assert_int_equal(c->bad, 1);
	respcmp_free(c);
}

static void a_dropped_response_pulse_is_answers_without_edges(void **state)
{
	struct scene s;
	struct respcmp_params p = params(0, 0, 0);
	struct respcmp *c;

	(void)state;
	scene_init(&s);
	s.drop_idx = 50;
	c = scene_run(&s, &p);
	assert_non_null(c);
	assert_int_equal(c->verdict, COMPARE_DISAGREE);
	assert_int_equal(c->answers_no_resp, 2);
	assert_true(c->ans[50].status & RESPCMP_A_NO_RESP);
	assert_true(c->ans[51].status & RESPCMP_A_NO_RESP);
	respcmp_free(c);
}

static void an_upper_bound_from_irq_bound_catches_a_slow_input(void **state)
{
	struct scene s;
	struct respcmp_params p = params(0, 0, 0);
	struct respcmp *c;

	(void)state;
	scene_init(&s);
	p.irq_bound_ns = 2000;     /* below the 3 us the input really takes */
	c = scene_run(&s, &p);
	assert_non_null(c);
	assert_int_equal(c->verdict, COMPARE_DISAGREE);
	assert_true(c->ans[0].status & RESPCMP_A_LATE);
	respcmp_params_init(&p);
	p.irq_bound_ns = 4000;
	respcmp_free(c);
	c = scene_run(&s, &p);
	assert_non_null(c);
	assert_int_equal(c->verdict, COMPARE_AGREE);
	respcmp_free(c);
}

static void the_header_gives_the_respond_keys(void **state)
{
	struct edgelog_meta m = { .text = "run.mode=respond\nrespond.mode=pulse\nrespond.edge=falling\n"
					  "respond.debounce=20us\nrespond.irq_bound=5us\n"
					  "gpio.idle_level=1\n" };
	struct edgelog_meta bad = { .text = "respond.edge=sideways\n" };
	struct respcmp_params p;
	char err[128];

	(void)state;
	respcmp_params_init(&p);
	assert_int_equal(respcmp_params_from_meta(&p, &m, err, sizeof(err)), 0);
	assert_int_equal(p.mode, 2);
	assert_int_equal(p.edge, 2);
	assert_int_equal(p.debounce_ns, 20000);
	assert_int_equal(p.irq_bound_ns, 5000);
	assert_int_equal(p.idle_level, 1);
	assert_int_equal(respcmp_params_from_meta(&p, &bad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "sideways"));
}

/* The error contract's buffer (base/msgbuf): a sentence longer than the
 * caller's buffer is cut with "..." where it was cut, never silently. */
static void a_sentence_cut_to_the_callers_buffer_ends_in_dots(void **state)
{
	struct edgelog_meta bad = { .text = "respond.mode=sideways\n" };
	struct respcmp_opts o;
	struct respcmp_run run;
	struct respcmp_params p;
	char err[16];

	(void)state;
	memset(&o, 0, sizeof(o));
	o.run = "-";
	o.capture = "-";
	assert_int_equal(respcmp_run(&o, &run, err, sizeof(err)), COMPARE_E_INPUT);
	assert_string_equal(err, "only one of ...");
	respcmp_params_init(&p);
	assert_int_equal(respcmp_params_from_meta(&p, &bad, err, sizeof(err)), -1);
	assert_string_equal(err, "header respo...");
	assert_int_equal(respcmp_params_from_meta(&p, &bad, NULL, 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_3_us_irq_latency_is_measured_and_agrees),
		cmocka_unit_test(a_sentence_cut_to_the_callers_buffer_ends_in_dots),
		cmocka_unit_test(a_burst_of_queued_answers_is_paired_edge_for_edge),
		cmocka_unit_test(a_burst_with_pins_early_in_their_windows_is_paired),
		cmocka_unit_test(a_short_window_is_judged_by_what_the_mapping_can_tell),
		cmocka_unit_test(a_slow_capture_clock_does_not_shorten_a_long_answer),
		cmocka_unit_test(a_negative_irq_latency_disagrees),
		cmocka_unit_test(a_lost_event_counted_by_the_log_is_explained),
		cmocka_unit_test(a_lost_event_the_log_does_not_count_disagrees),
		cmocka_unit_test(a_debounced_bounce_is_answered_from_its_first_edge),
		cmocka_unit_test(an_undebounced_bounce_is_three_events),
		cmocka_unit_test(falling_edges_unwatched_are_filtered_not_lost),
		cmocka_unit_test(a_response_edge_50_us_late_disagrees),
		cmocka_unit_test(a_dropped_response_pulse_is_answers_without_edges),
		cmocka_unit_test(an_upper_bound_from_irq_bound_catches_a_slow_input),
		cmocka_unit_test(the_header_gives_the_respond_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
