/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for explaining a saved --break trace: the two saved traces,
 * small traces made here (a higher-priority task, a late interrupt on a
 * busy CPU, no marker, a wrapped buffer; respond breaks: a holder, a late
 * irq thread, a queued event) and generated garbage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stats/traceexplain.c"

#define PREEMPTED "tests/data/traces/preempted-by-git.trace"
#define IDLE "tests/data/traces/idle-cpu-late-irq.trace"

/* |a - b| <= 1 us: trace timestamps have µs resolution */
#define assert_near_us(a, b) assert_in_range((a), (b) - 1000, (b) + 1000)

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;

	assert_non_null(f);
	buf = malloc(1 << 20);
	assert_non_null(buf);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static void explain_str(const char *text, struct traceexplain *o)
{
	traceexplain_text(text, strlen(text), o);
}

/* ---- the saved traces, numbers worked out by hand from their lines ---- */

static void a_cpu_held_by_git_is_named_with_its_state_and_times(void **state)
{
	struct traceexplain o;
	char err[256];

	(void)state;
	assert_int_equal(traceexplain_file(PREEMPTED, &o, err, sizeof(err)), 0);
	assert_true(o.is_trace);
	assert_true(o.marker);
	assert_int_equal(o.kind, TRACEEXPLAIN_HELD_BY);
	assert_int_equal(o.seq, 28422);
	assert_int_equal(o.intended_ns, 11398480250000ull);
	assert_int_equal(o.rt_pid, 18612);
	assert_int_equal(o.cpu, 1);
	/* the late timer: armed for .479250, fired now=11398479280620 */
	assert_int_equal(o.expires_ns, 11398479250000);
	assert_int_equal(o.irq_delay_ns, 30620);
	/* woken at .479285, switched in at .480527 */
	assert_near_us(o.wake_to_run_ns, 1242000);
	assert_near_us(o.total_ns, 1277000);
	assert_true(o.run_exact);
	assert_string_equal(o.holder_comm, "git");
	assert_int_equal(o.holder_pid, 18758);
	assert_int_equal(o.holder_prio, 120);
	assert_string_equal(o.holder_state, "D");
	assert_near_us(o.holder_ns, 1242000);
	assert_true(o.holder_nonpreempt);
	assert_non_null(strstr(o.text, "git (pid 18758"));
	assert_non_null(strstr(o.text, "1242.000 us"));
	assert_non_null(strstr(o.text, "blocked (state D"));
	assert_string_equal(o.cause, "held-by git/18758 1242.000 us state=D cpu=1 timer+30.620 us");
	assert_null(strchr(o.cause, '\n'));
}

static void an_idle_cpu_with_a_late_interrupt_points_outside_the_kernel(void **state)
{
	struct traceexplain o;
	char err[256];

	(void)state;
	assert_int_equal(traceexplain_file(IDLE, &o, err, sizeof(err)), 0);
	assert_int_equal(o.kind, TRACEEXPLAIN_LATE_IRQ_IDLE);
	assert_int_equal(o.seq, 193);
	assert_int_equal(o.rt_pid, 18778);
	assert_int_equal(o.cpu, 1);
	assert_int_equal(o.expires_ns, 11444840750000);
	assert_int_equal(o.irq_ns, 11444842588917);
	assert_int_equal(o.irq_delay_ns, 1838917);
	/* woken at .842595; its switch-in is not in the trace: its first event at .842625 */
	assert_false(o.run_exact);
	assert_near_us(o.wake_to_run_ns, 30000);
	assert_near_us(o.total_ns, 1875000);
	assert_int_equal(o.holder_pid, 0);
	assert_int_equal(o.gap_events, 0);
	assert_non_null(strstr(o.text, "1838.917 us late on CPU 1"));
	assert_non_null(strstr(o.text, "nothing traced on it"));
	assert_string_equal(o.cause, "late-irq-idle +1838.917 us cpu=1");
}

/* ---- made here ---- */

#define ARM(ts, e) \
	"       sqwave-rt-100     [001] d..2. " ts ": hrtimer_start: hrtimer=00000000aaaa0001 " \
	"function=timerfd_tmrproc expires=" e " softexpires=" e " mode=ABS was_armed=0\n"
#define MARK(ts, seq, t, lat) \
	"    sqwave-bench-101     [000] ...1. " ts ": tracing_mark_write: sqwave: break at edge #" \
	seq " (intended " t " ns): wake latency " lat " ns, threshold 300000 ns\n"

static const char higher_prio[] =
	"# tracer: nop\n"
	ARM("100.000100", "100000500000")
	"       sqwave-rt-100     [001] d..2. 100.000110: sched_switch: prev_comm=sqwave-rt "
	"prev_pid=100 prev_prio=9 prev_state=S ==> next_comm=irq/36-eth0 next_pid=50 next_prio=1\n"
	"     irq/36-eth0-50      [001] d.h1. 100.000504: local_timer_entry: vector=236\n"
	"     irq/36-eth0-50      [001] d.h1. 100.000505: hrtimer_expire_entry: hrtimer=00000000aaaa0001 "
	"function=timerfd_tmrproc now=100000504000\n"
	"     irq/36-eth0-50      [001] d.h4. 100.000506: sched_wakeup: comm=sqwave-rt pid=100 prio=9 "
	"target_cpu=001\n"
	"     irq/36-eth0-50      [001] d..2. 100.000900: sched_switch: prev_comm=irq/36-eth0 prev_pid=50 "
	"prev_prio=1 prev_state=S ==> next_comm=sqwave-rt next_pid=100 next_prio=9\n"
	ARM("100.000910", "100001000000")
	MARK("100.000950", "7", "100000500000", "400000");

static void a_higher_priority_task_that_ran_first_is_named(void **state)
{
	struct traceexplain o;

	(void)state;
	explain_str(higher_prio, &o);
	assert_int_equal(o.kind, TRACEEXPLAIN_PREEMPTED_BY);
	assert_string_equal(o.holder_comm, "irq/36-eth0");
	assert_int_equal(o.holder_pid, 50);
	assert_int_equal(o.holder_prio, 1);
	assert_string_equal(o.holder_state, "S");
	assert_int_equal(o.irq_delay_ns, 4000);
	assert_int_equal(o.wake_to_run_ns, 394000);
	assert_non_null(strstr(o.text, "higher priority, irq/36-eth0 (pid 50, RT priority 98)"));
	assert_non_null(strstr(o.text, "sqwave-rt (RT priority 90) was woken"));
	assert_non_null(strstr(o.cause, "preempted-by irq/36-eth0/50"));
}

/* sched_switch's prio=9 is what chrt calls SCHED_FIFO 90, prio=120 nice 0. */
static void a_kernel_priority_is_said_as_chrt_says_it(void **state)
{
	char b[40];

	(void)state;
	assert_string_equal(traceexplain_prio_words(9, b, sizeof(b)), "RT priority 90");
	assert_string_equal(traceexplain_prio_words(0, b, sizeof(b)), "RT priority 99");
	assert_string_equal(traceexplain_prio_words(98, b, sizeof(b)), "RT priority 1");
	assert_string_equal(traceexplain_prio_words(120, b, sizeof(b)), "normal, nice 0");
	assert_string_equal(traceexplain_prio_words(139, b, sizeof(b)), "normal, nice 19");
	assert_string_equal(traceexplain_prio_words(100, b, sizeof(b)), "normal, nice -20");
	assert_string_equal(traceexplain_prio_words(-1, b, sizeof(b)), "priority unknown");
}

static const char busy_irq[] =
	ARM("100.000100", "100000500000")
	"       sqwave-rt-100     [001] d..2. 100.000110: sched_switch: prev_comm=sqwave-rt "
	"prev_pid=100 prev_prio=9 prev_state=S ==> next_comm=stress-ng next_pid=60 next_prio=120\n"
	"       stress-ng-60      [001] d..1. 100.000300: irq_handler_entry: irq=36 name=eth0\n"
	"       stress-ng-60      [001] d.h1. 100.000900: local_timer_entry: vector=236\n"
	"       stress-ng-60      [001] d.h1. 100.000901: hrtimer_expire_entry: hrtimer=00000000aaaa0001 "
	"function=timerfd_tmrproc now=100000900500\n"
	"       stress-ng-60      [001] dNh4. 100.000902: sched_wakeup: comm=sqwave-rt pid=100 prio=9 "
	"target_cpu=001\n"
	"       stress-ng-60      [001] d..2. 100.000910: sched_switch: prev_comm=stress-ng prev_pid=60 "
	"prev_prio=120 prev_state=R+ ==> next_comm=sqwave-rt next_pid=100 next_prio=9\n"
	MARK("100.000950", "9", "100000500000", "412000");

static void a_late_interrupt_on_a_busy_cpu_names_the_task_it_found(void **state)
{
	struct traceexplain o;

	(void)state;
	explain_str(busy_irq, &o);
	assert_int_equal(o.kind, TRACEEXPLAIN_LATE_IRQ_BUSY);
	assert_int_equal(o.irq_delay_ns, 400500);
	assert_int_equal(o.wake_to_run_ns, 8000);
	assert_string_equal(o.holder_comm, "stress-ng");
	assert_int_equal(o.holder_pid, 60);
	assert_non_null(strstr(o.cause, "late-irq-busy stress-ng/60"));
}

/* The irqsoff tracer is suggested only where the traced kernel offers it
 * (run --break writes the list at the top of the trace), else the kernel
 * option that brings it; a trace that does not say gets the condition. */
static void the_advice_suggests_only_a_tracer_the_traced_kernel_has(void **state)
{
	char *t = malloc(sizeof(busy_irq) + 128);
	struct traceexplain o;

	(void)state;
	assert_non_null(t);
	sprintf(t, TRACEEXPLAIN_TRACERS_LINE " function nop\n%s", busy_irq);
	explain_str(t, &o);
	assert_int_equal(o.kind, TRACEEXPLAIN_LATE_IRQ_BUSY);
	assert_string_equal(o.tracers, "function nop");
	assert_null(strstr(o.todo, "trace.tracer=irqsoff"));
	assert_non_null(strstr(o.todo, "no irqsoff tracer (it offers: function nop)"));
	assert_non_null(strstr(o.todo, "CONFIG_IRQSOFF_TRACER"));
	assert_non_null(strstr(o.todo, "Move stress-ng off CPU 1"));

	sprintf(t, TRACEEXPLAIN_TRACERS_LINE " hwlat irqsoff function nop\n%s", busy_irq);
	explain_str(t, &o);
	assert_non_null(strstr(o.todo, "with --break and trace.tracer=irqsoff to see"));
	assert_null(strstr(o.todo, "no irqsoff"));

	/* "irqsoff" inside another tracer's name is not irqsoff */
	sprintf(t, TRACEEXPLAIN_TRACERS_LINE " preemptirqsoff nop\n%s", busy_irq);
	explain_str(t, &o);
	assert_non_null(strstr(o.todo, "no irqsoff tracer"));

	explain_str(busy_irq, &o);
	assert_string_equal(o.tracers, "");
	assert_non_null(strstr(o.todo, "where the kernel has that tracer"));
	assert_null(strstr(o.text, "irqsoff"));
	free(t);
}

/* The advice is printed as "what to do   ..." and read as a sentence:
 * it starts with a capital even where it names a task such as kdamond.0,
 * and it ends with a full stop. */
static void assert_a_sentence(const char *s)
{
	size_t n = strlen(s);

	assert_true(n > 1);
	assert_true(s[0] >= 'A' && s[0] <= 'Z');
	assert_int_equal(s[n - 1], '.');
}

/* Every kind ends in something to do, naming the task, its pid and the
 * RT thread's priority as chrt takes them. */
static void every_explanation_says_what_to_do(void **state)
{
	struct traceexplain o;
	char err[256];

	(void)state;
	explain_str(higher_prio, &o);
	assert_int_equal(o.kind, TRACEEXPLAIN_PREEMPTED_BY);
	assert_non_null(strstr(o.todo, "Move that interrupt off CPU"));
	assert_non_null(strstr(o.todo, "chrt -f -p N 50, with N under rt.priority 90"));
	assert_a_sentence(o.todo);

	assert_int_equal(traceexplain_file(PREEMPTED, &o, err, sizeof(err)), 0);
	assert_int_equal(o.kind, TRACEEXPLAIN_HELD_BY);
	assert_non_null(strstr(o.todo, "keep git off CPU 1"));
	assert_non_null(strstr(o.todo, "could not preempt"));
	assert_a_sentence(o.todo);

	assert_int_equal(traceexplain_file(IDLE, &o, err, sizeof(err)), 0);
	assert_int_equal(o.kind, TRACEEXPLAIN_LATE_IRQ_IDLE);
	assert_non_null(strstr(o.todo, "virtual machine"));
	assert_a_sentence(o.todo);

	explain_str("garbage\n", &o);
	assert_int_equal(o.kind, TRACEEXPLAIN_UNKNOWN);
	assert_non_null(strstr(o.todo, "run again with --break"));
	assert_a_sentence(o.todo);
}

static void a_trace_without_a_marker_is_unknown_and_says_so(void **state)
{
	size_t len;
	char *t = slurp(PREEMPTED, &len), *m = strstr(t, "tracing_mark_write");
	struct traceexplain o;

	(void)state;
	assert_non_null(m);
	while (m > t && m[-1] != '\n')
		m--;
	*m = '\0';                       /* cut the marker line */
	explain_str(t, &o);
	assert_true(o.is_trace);
	assert_false(o.marker);
	assert_int_equal(o.kind, TRACEEXPLAIN_UNKNOWN);
	assert_non_null(strstr(o.text, "no sqwave break marker"));
	assert_non_null(strstr(o.cause, "unknown: "));
	free(t);
}

/* A wrapped buffer that kept only the end: no arming of the late timer. */
static const char wrapped[] =
	"# entries-in-buffer/entries-written: 3/90210   #P:2\n"
	"          <idle>-0       [001] dNh5. 100.000506: sched_wakeup: comm=sqwave-rt pid=100 prio=9 "
	"target_cpu=001\n"
	"          <idle>-0       [001] d..2. 100.000900: sched_switch: prev_comm=swapper/1 prev_pid=0 "
	"prev_prio=120 prev_state=R ==> next_comm=sqwave-rt next_pid=100 next_prio=9\n"
	MARK("100.000950", "7", "100000500000", "400000");

static void a_wrapped_trace_that_lost_the_timer_is_unknown(void **state)
{
	struct traceexplain o;

	(void)state;
	explain_str(wrapped, &o);
	assert_true(o.marker);
	assert_int_equal(o.rt_pid, 100);
	assert_int_equal(o.kind, TRACEEXPLAIN_UNKNOWN);
	assert_non_null(strstr(o.text, "no timerfd hrtimer_start"));
	assert_non_null(strstr(o.text, "wrapped: 3 of 90210"));
}

static void a_trace_without_the_rt_thread_is_unknown(void **state)
{
	struct traceexplain o;

	(void)state;
	explain_str("            git-18758   [001] d..2. 11398.478193: sched_switch: prev_comm=git "
		    "prev_pid=18758 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 "
		    "next_prio=120\n"
		    MARK("11398.480579", "1", "11398480250000", "1282493"), &o);
	assert_int_equal(o.kind, TRACEEXPLAIN_UNKNOWN);
	assert_non_null(strstr(o.text, "no sqwave-rt thread"));
}

/* The run's marker is the last one; what follows it is not evidence. */
static void only_lines_before_the_last_marker_count(void **state)
{
	size_t len;
	char *t = slurp(PREEMPTED, &len);
	char *more = malloc(len + 4096);
	struct traceexplain o;

	(void)state;
	assert_non_null(more);
	/* an arming after the marker with an expiry before T: were it read,
	 * it would be "the" timer, and it never fires */
	snprintf(more, len + 4096, "%s\n"
		 "       sqwave-rt-18612   [001] d..2. 11398.480600: hrtimer_start: hrtimer=000000002a24bd44 "
		 "function=timerfd_tmrproc expires=11398480000000 softexpires=11398480000000 mode=ABS\n", t);
	explain_str(more, &o);
	assert_int_equal(o.kind, TRACEEXPLAIN_HELD_BY);
	assert_int_equal(o.expires_ns, 11398479250000);
	/* a second marker later: it is the one explained (and nothing fired for it) */
	strcat(more, MARK("11398.480700", "28423", "11398480250000", "1282493"));
	explain_str(more, &o);
	assert_int_equal(o.seq, 28423);
	assert_int_equal(o.kind, TRACEEXPLAIN_UNKNOWN);
	free(more);
	free(t);
}

/* A break the trace does not show (the buffer kept a later, on-time cycle). */
static void a_trace_that_does_not_show_the_lateness_is_unknown(void **state)
{
	struct traceexplain o;
	char t[sizeof(higher_prio) + 64];
	char *m;

	(void)state;
	snprintf(t, sizeof(t), "%s", higher_prio);
	m = strstr(t, "wake latency 400000");
	assert_non_null(m);
	memcpy(m, "wake latency 900000", 19);  /* the trace shows 400 us */
	explain_str(t, &o);
	assert_int_equal(o.kind, TRACEEXPLAIN_UNKNOWN);
	assert_non_null(strstr(o.text, "not in it"));
}

static void timestamps_convert_to_integer_ns_exactly(void **state)
{
	uint64_t ns;
	const char *end;

	(void)state;
	assert_true(parse_ts("11398.478267:", &end, &ns));
	assert_int_equal(ns, 11398478267000ull);
	assert_int_equal(*end, ':');
	assert_true(parse_ts("5.000000001:", &end, &ns));
	assert_int_equal(ns, 5000000001ull);
	assert_true(parse_ts("0.5:", &end, &ns));
	assert_int_equal(ns, 500000000ull);
	assert_false(parse_ts("1.0000000001:", &end, &ns));
	assert_false(parse_ts("99999999999999999999.1:", &end, &ns));
	assert_false(parse_ts(".5:", &end, &ns));
}

/* ---- hostile input: generated, never stored ---- */

static void garbage_never_crashes_and_is_not_a_trace(void **state)
{
	unsigned seed = (unsigned)time(NULL);
	size_t len, i, n;
	char *t = slurp(PREEMPTED, &len);
	char *buf = malloc(1 << 16);
	struct traceexplain o;
	int round;

	(void)state;
	printf("# seed %u\n", seed);
	srand(seed);
	assert_non_null(buf);
	for (round = 0; round < 200; round++) {
		n = (size_t)rand() % (1 << 16);
		for (i = 0; i < n; i++)
			buf[i] = (char)(rand() & 0xff);
		traceexplain_text(buf, n, &o);
		assert_int_equal(o.kind, TRACEEXPLAIN_UNKNOWN);
		assert_null(strchr(o.cause, '\n'));
	}
	/* every prefix of the real trace, and it with random bytes flipped */
	for (i = 0; i < len; i += 7) {
		traceexplain_text(t, i, &o);
		assert_null(strchr(o.cause, '\n'));
	}
	for (round = 0; round < 200; round++) {
		char *c = malloc(len);

		assert_non_null(c);
		memcpy(c, t, len);
		for (i = 0; i < 20; i++)
			c[(size_t)rand() % len] = (char)(rand() & 0xff);
		traceexplain_text(c, len, &o);
		assert_null(strchr(o.cause, '\n'));
		assert_null(strchr(o.text, '\n'));
		free(c);
	}
	/* text, but no ftrace lines */
	explain_str("hello\nworld\n[1] x\n -1 [001] 1.2: x\n", &o);
	assert_false(o.is_trace);
	assert_int_equal(o.kind, TRACEEXPLAIN_UNKNOWN);
	free(buf);
	free(t);
}

/* A file: a 1 MiB line and NUL bytes are skipped, the trace still read. */
static void a_file_with_a_huge_line_is_read_in_fixed_memory(void **state)
{
	char path[] = "/tmp/sqw-traceexplain-XXXXXX";
	int fd = mkstemp(path);
	size_t len, i;
	char *t = slurp(PREEMPTED, &len);
	struct traceexplain o;
	char err[256];
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	for (i = 0; i < (1u << 20); i++)
		fputc('x', f);
	fputc('\n', f);
	fputs("abc\0def [001] 1.0: sched_switch\n", f);
	fputc(0, f);
	fputc('\n', f);
	fwrite(t, 1, len, f);
	fclose(f);
	assert_int_equal(traceexplain_file(path, &o, err, sizeof(err)), 0);
	assert_int_equal(o.kind, TRACEEXPLAIN_HELD_BY);
	assert_true(o.bad_lines >= 2);
	unlink(path);
	free(t);
}

static void a_missing_file_is_an_io_error_with_a_reason(void **state)
{
	struct traceexplain o;
	char err[256] = "";

	(void)state;
	assert_int_equal(traceexplain_file("/nonexistent/x.trace", &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/x.trace"));
}

/* A NUL in a line leaves it one (bad) line: the rest of a long line whose
 * first chunk read as empty is never taken as a line of its own (here: a
 * break marker hidden in it would explain a trace that has none). */
static void a_line_with_a_nul_stays_one_line(void **state)
{
	char path[] = "/tmp/sqw-traceexplain-XXXXXX";
	int fd = mkstemp(path);
	size_t len, i;
	char *t = slurp(PREEMPTED, &len), *m = strstr(t, "tracing_mark_write"), *eol;
	struct traceexplain o;
	char err[256];
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	assert_non_null(m);
	while (m > t && m[-1] != '\n')
		m--;
	eol = strchr(m, '\n');
	assert_non_null(eol);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fwrite(t, 1, (size_t)(m - t), f);	/* the trace up to its marker */
	fputc(0, f);
	for (i = 1; i < LINE_MAX_LEN; i++)
		fputc('x', f);
	fwrite(m, 1, (size_t)(eol - m) + 1, f);	/* the marker, inside that line */
	fclose(f);
	assert_int_equal(traceexplain_file(path, &o, err, sizeof(err)), 0);
	assert_false(o.marker);
	assert_int_equal(o.kind, TRACEEXPLAIN_UNKNOWN);
	assert_int_equal(o.bad_lines, 1);
	/* a short line: "x", a NUL, the marker */
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(t, 1, (size_t)(m - t), f);
	fputs("x", f);
	fputc(0, f);
	fwrite(m, 1, (size_t)(eol - m) + 1, f);
	fclose(f);
	assert_int_equal(traceexplain_file(path, &o, err, sizeof(err)), 0);
	assert_false(o.marker);
	assert_int_equal(o.bad_lines, 1);
	unlink(path);
	free(t);
}

/* ---- respond breaks: T is the event's timestamp (1000.000100) ---- */

#define RESPOND_MARK(v) \
	"          sqwave-501     [001] ...1. 1000.000950: tracing_mark_write: sqwave: break at " \
	"edge #7 (intended 1000000100000 ns): wake latency " v " ns, threshold 200000 ns" \
	TRACEEXPLAIN_MARKER_EVENT "\n"
/* the irq thread, woken by its hard interrupt at the event */
#define IRQ_WOKEN \
	"          <idle>-0       [001] d.h3. 1000.000101: sched_waking: comm=irq/45-gpio pid=300 prio=49 target_cpu=001\n" \
	"          <idle>-0       [001] d.h4. 1000.000102: sched_wakeup: comm=irq/45-gpio pid=300 prio=49 target_cpu=001\n"
/* sqwave-rt wakes the --break helper that writes the marker */
#define HELPER_WOKEN(ts) \
	"       sqwave-rt-500     [000] d..3. " ts ": sched_waking: comm=sqwave pid=501 prio=10 target_cpu=001\n"

/* The irq thread woke sqwave-rt 11 us after the event, then git kept CPU 0. */
static const char respond_held[] =
	"       sqwave-rt-500     [000] d..2. 1000.000050: sched_switch: prev_comm=sqwave-rt prev_pid=500 prev_prio=9 prev_state=S ==> next_comm=git next_pid=700 next_prio=120\n"
	IRQ_WOKEN
	"          <idle>-0       [001] d..2. 1000.000105: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=irq/45-gpio next_pid=300 next_prio=49\n"
	"     irq/45-gpio-300     [001] d..3. 1000.000110: sched_waking: comm=sqwave-rt pid=500 prio=9 target_cpu=000\n"
	"     irq/45-gpio-300     [001] d..4. 1000.000111: sched_wakeup: comm=sqwave-rt pid=500 prio=9 target_cpu=000\n"
	"             git-700     [000] d..2. 1000.000900: sched_switch: prev_comm=git prev_pid=700 prev_prio=120 prev_state=D ==> next_comm=sqwave-rt next_pid=500 next_prio=9\n"
	HELPER_WOKEN("1000.000905")
	RESPOND_MARK("805000");

static void a_respond_break_names_the_holder_after_the_wake_up(void **state)
{
	struct traceexplain o;

	(void)state;
	explain_str(respond_held, &o);
	assert_true(o.marker);
	assert_true(o.respond);
	assert_int_equal(o.kind, TRACEEXPLAIN_HELD_BY);
	assert_int_equal(o.rt_pid, 500);
	assert_int_equal(o.expires_ns, -1);	/* no timer in a respond break */
	assert_int_equal(o.wake_delay_ns, 11000);
	assert_int_equal(o.wake_to_run_ns, 789000);
	assert_int_equal(o.total_ns, 800000);
	assert_string_equal(o.waker_comm, "irq/45-gpio");
	assert_int_equal(o.waker_pid, 300);
	assert_int_equal(o.waker_cpu, 1);
	assert_string_equal(o.holder_comm, "git");
	assert_string_equal(o.cause, "held-by git/700 789.000 us state=D cpu=0 wake+11.000 us");
	assert_non_null(strstr(o.text, "the wake-up itself came 11.000 us after the event, from "
				       "irq/45-gpio (pid 300, RT priority 50) on CPU 1"));
	assert_null(strstr(o.text, "timer"));
	assert_non_null(strstr(o.todo, "git off CPU 0"));
}

/* The irq thread waited 598 us for CPU 1, held by a FIFO stress-ng above it;
 * then it woke sqwave-rt, which ran at once. Another run's sqwave-rt (600)
 * comes last and is not taken for this run's. */
static const char respond_late_irq[] =
	"       sqwave-rt-500     [000] d..2. 1000.000050: sched_switch: prev_comm=sqwave-rt prev_pid=500 prev_prio=9 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
	"       stress-ng-800     [001] d..2. 1000.000060: sched_switch: prev_comm=stress-ng prev_pid=800 prev_prio=19 prev_state=R ==> next_comm=stress-ng next_pid=800 next_prio=19\n"
	"       stress-ng-800     [001] d.h3. 1000.000101: sched_waking: comm=irq/45-gpio pid=300 prio=49 target_cpu=001\n"
	"       stress-ng-800     [001] d.h4. 1000.000102: sched_wakeup: comm=irq/45-gpio pid=300 prio=49 target_cpu=001\n"
	"       stress-ng-800     [001] d..2. 1000.000700: sched_switch: prev_comm=stress-ng prev_pid=800 prev_prio=19 prev_state=S ==> next_comm=irq/45-gpio next_pid=300 next_prio=49\n"
	"     irq/45-gpio-300     [001] d..3. 1000.000710: sched_waking: comm=sqwave-rt pid=500 prio=9 target_cpu=000\n"
	"     irq/45-gpio-300     [001] d..4. 1000.000710: sched_wakeup: comm=sqwave-rt pid=500 prio=9 target_cpu=000\n"
	"          <idle>-0       [000] d..2. 1000.000712: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sqwave-rt next_pid=500 next_prio=9\n"
	HELPER_WOKEN("1000.000714")
	"          <idle>-0       [001] d..3. 1000.000800: sched_wakeup: comm=sqwave-rt pid=600 prio=9 target_cpu=001\n"
	"          <idle>-0       [001] d..2. 1000.000801: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sqwave-rt next_pid=600 next_prio=9\n"
	RESPOND_MARK("615000");

static void a_respond_break_with_a_late_irq_thread_names_it_and_its_holder(void **state)
{
	struct traceexplain o;

	(void)state;
	explain_str(respond_late_irq, &o);
	assert_int_equal(o.kind, TRACEEXPLAIN_LATE_WAKEUP);
	assert_string_equal(traceexplain_kind_name(o.kind), "late-wakeup");
	assert_int_equal(o.rt_pid, 500);	/* the one that woke the marker's writer */
	assert_int_equal(o.wake_delay_ns, 610000);
	assert_int_equal(o.wake_to_run_ns, 2000);
	assert_string_equal(o.waker_comm, "irq/45-gpio");
	assert_int_equal(o.waker_woken_ns, 1000000102000);
	assert_int_equal(o.waker_run_ns, 1000000700000);
	assert_string_equal(o.waker_prev_comm, "stress-ng");
	assert_string_equal(o.cause, "late-wakeup irq/45-gpio/300 +610.000 us cpu=1 after "
				     "stress-ng/800");
	assert_non_null(strstr(o.text, "woken 610.000 us after the event by irq/45-gpio (pid 300"));
	assert_non_null(strstr(o.text, "got its CPU 598.000 us after that, from stress-ng"));
	assert_non_null(strstr(o.todo, "Keep stress-ng (pid 800) off CPU 1"));
	assert_non_null(strstr(o.todo, "chrt -f -p N 300"));
}

/* sqwave-rt was woken at .000050 for an earlier event and still running at
 * T; it read this event at .000400 without sleeping. */
static const char respond_queued[] =
	"          <idle>-0       [000] d..2. 1000.000040: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
	"     irq/45-gpio-300     [001] d..4. 1000.000050: sched_wakeup: comm=sqwave-rt pid=500 prio=9 target_cpu=000\n"
	"          <idle>-0       [000] d..2. 1000.000052: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sqwave-rt next_pid=500 next_prio=9\n"
	"       sqwave-rt-500     [000] d..3. 1000.000060: sched_waking: comm=sqwave pid=502 prio=120 target_cpu=001\n"
	HELPER_WOKEN("1000.000402")
	RESPOND_MARK("300000");

static void a_respond_break_while_sqwave_rt_still_ran_is_a_queued_event(void **state)
{
	struct traceexplain o;

	(void)state;
	explain_str(respond_queued, &o);
	assert_int_equal(o.kind, TRACEEXPLAIN_QUEUED);
	assert_string_equal(traceexplain_kind_name(o.kind), "queued");
	assert_string_equal(o.cause, "queued running cpu=0 +300.000 us");
	assert_non_null(strstr(o.text, "running since 48.000 us before it"));
	assert_non_null(strstr(o.todo, "respond.debounce"));
}

/* The last wake-up before the read came from sqwave-rt's own sleep timer
 * (hrtimer_wakeup: a pulse's end): the event waited for it. */
static const char respond_timer[] =
	"       sqwave-rt-500     [000] d..1. 1000.000050: hrtimer_start: hrtimer=00000000aa function=hrtimer_wakeup expires=1000000300000 softexpires=1000000300000 mode=ABS\n"
	"       sqwave-rt-500     [000] d..2. 1000.000051: sched_switch: prev_comm=sqwave-rt prev_pid=500 prev_prio=9 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
	"          <idle>-0       [000] d.h.. 1000.000301: hrtimer_expire_entry: hrtimer=00000000aa function=hrtimer_wakeup now=1000000300500\n"
	"          <idle>-0       [000] d.h3. 1000.000302: sched_wakeup: comm=sqwave-rt pid=500 prio=9 target_cpu=000\n"
	"          <idle>-0       [000] d.h.. 1000.000302: hrtimer_expire_exit: hrtimer=00000000aa\n"
	"          <idle>-0       [000] d..2. 1000.000303: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sqwave-rt next_pid=500 next_prio=9\n"
	HELPER_WOKEN("1000.000310")
	RESPOND_MARK("205000");

static void a_respond_event_that_waited_for_a_pulse_end_is_queued(void **state)
{
	struct traceexplain o;

	(void)state;
	explain_str(respond_timer, &o);
	assert_int_equal(o.kind, TRACEEXPLAIN_QUEUED);
	assert_string_equal(o.cause, "queued timer cpu=0 +202.000 us");
	assert_non_null(strstr(o.text, "asleep on its own timer"));
	assert_string_equal(o.waker_irq, "its sleep's timer (hrtimer_wakeup)");
}

/* A respond marker in a trace without sqwave-rt's wake-ups says so; the
 * same trace with a run's marker still looks for the timerfd. */
static void a_respond_break_without_its_wake_up_is_unknown_and_a_run_marker_reads_as_before(
	void **state)
{
	static const char no_rt[] =
		"            bash-77      [000] d..2. 1000.000050: sched_switch: prev_comm=bash prev_pid=77 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
		RESPOND_MARK("300000");
	static const char run_mark[] =
		"       sqwave-rt-500     [000] d..2. 1000.000050: sched_switch: prev_comm=sqwave-rt prev_pid=500 prev_prio=9 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
		"          sqwave-501     [001] ...1. 1000.000950: tracing_mark_write: sqwave: break at edge #7 (intended 1000000100000 ns): wake latency 300000 ns, threshold 200000 ns\n";
	struct traceexplain o;

	(void)state;
	explain_str(no_rt, &o);
	assert_int_equal(o.kind, TRACEEXPLAIN_UNKNOWN);
	assert_non_null(strstr(o.text, "no wake-up of sqwave-rt before the marker"));
	explain_str(run_mark, &o);
	assert_false(o.respond);
	assert_non_null(strstr(o.text, "no timerfd hrtimer_start of sqwave-rt"));
}

/* A directory or a device is no trace (bad input, -2): /dev/zero is not
 * read for ever. */
static void a_directory_or_a_device_is_refused(void **state)
{
	struct traceexplain o;
	char err[256] = "";

	(void)state;
	alarm(20);	/* a regression reads /dev/zero without end: fail, do not hang */
	assert_int_equal(traceexplain_file("/dev/zero", &o, err, sizeof(err)), -2);
	alarm(0);
	assert_non_null(strstr(err, "/dev/zero: is a device"));
	assert_int_equal(traceexplain_file("tests", &o, err, sizeof(err)), -2);
	assert_non_null(strstr(err, "tests: is a directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_cpu_held_by_git_is_named_with_its_state_and_times),
		cmocka_unit_test(an_idle_cpu_with_a_late_interrupt_points_outside_the_kernel),
		cmocka_unit_test(a_higher_priority_task_that_ran_first_is_named),
		cmocka_unit_test(a_kernel_priority_is_said_as_chrt_says_it),
		cmocka_unit_test(a_late_interrupt_on_a_busy_cpu_names_the_task_it_found),
		cmocka_unit_test(the_advice_suggests_only_a_tracer_the_traced_kernel_has),
		cmocka_unit_test(every_explanation_says_what_to_do),
		cmocka_unit_test(a_trace_without_a_marker_is_unknown_and_says_so),
		cmocka_unit_test(a_wrapped_trace_that_lost_the_timer_is_unknown),
		cmocka_unit_test(a_trace_without_the_rt_thread_is_unknown),
		cmocka_unit_test(only_lines_before_the_last_marker_count),
		cmocka_unit_test(a_trace_that_does_not_show_the_lateness_is_unknown),
		cmocka_unit_test(timestamps_convert_to_integer_ns_exactly),
		cmocka_unit_test(garbage_never_crashes_and_is_not_a_trace),
		cmocka_unit_test(a_file_with_a_huge_line_is_read_in_fixed_memory),
		cmocka_unit_test(a_missing_file_is_an_io_error_with_a_reason),
		cmocka_unit_test(a_line_with_a_nul_stays_one_line),
		cmocka_unit_test(a_directory_or_a_device_is_refused),
		cmocka_unit_test(a_respond_break_names_the_holder_after_the_wake_up),
		cmocka_unit_test(a_respond_break_with_a_late_irq_thread_names_it_and_its_holder),
		cmocka_unit_test(a_respond_break_while_sqwave_rt_still_ran_is_a_queued_event),
		cmocka_unit_test(a_respond_event_that_waited_for_a_pulse_end_is_queued),
		cmocka_unit_test(a_respond_break_without_its_wake_up_is_unknown_and_a_run_marker_reads_as_before),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
