/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave trace-explain TRACE`: what a saved --break trace shows about the
 * late wake-up it was saved for, in one sentence and its figures. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd_trace_explain.h"
#include "cmd/cmdline.h"
#include "base/outfile.h"
#include "cmd/print.h"
#include "stats/traceexplain.h"
#include "base/units.h"

static void trace_explain_usage(FILE *f)
{
	fprintf(f,
		"usage: sqwave trace-explain TRACE\n\n"
		"Read a trace saved by 'run --break' (LOG.break-N.trace, or any ftrace text\n"
		"with sqwave's marker) and say why the marked edge's wake-up was late: the\n"
		"task that held the CPU, a higher-priority task, or a timer interrupt that came\n"
		"late to an idle or a busy CPU; for a 'respond --break' trace, from the input\n"
		"event: who woke sqwave-rt and how late (an irq thread that ran late), or that\n"
		"the event waited for an earlier answer; or why the trace does not say (no\n"
		"marker, no sqwave-rt, events missing, the buffer wrapped). Only the lines\n"
		"before the last marker are evidence. TRACE may be - (standard input).\n\n"
		"  -h, --help   this help\n\n"
		"exit: 0 the trace was read (its answer may be 'unknown'), 2 usage or not an\n"
		"      ftrace text (a directory, a device), 3 I/O error\n");
}

/* ns as us with 3 decimals, or "-" when the trace did not give it. */
static const char *us(int64_t ns, char *buf, size_t len)
{
	if (ns < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s us", UNITS_US(ns));
	return buf;
}

#define US(ns) us((ns), (char[32]){ 0 }, 32)

static const struct option trace_explain_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The options, for the man page and the completion (main.c). */
size_t cmd_trace_explain_options(struct option *out, size_t max)
{
	return cmdline_options_copy(out, max, trace_explain_opts);
}

void cmd_trace_explain_help(FILE *f)
{
	trace_explain_usage(f);
}

int cmd_trace_explain(int argc, char **argv)
{
	struct traceexplain x;
	char err[512];
	struct cmdline cl = { "trace-explain", trace_explain_opts, "h", trace_explain_usage, false };
	int ch, rc;

	while ((ch = cmdline_next(&cl, argc, argv, NULL)) >= 0)
		;	/* no options of its own */
	if (ch != CMDLINE_END)
		return ch == CMDLINE_HELP ? SQW_EXIT_OK : SQW_EXIT_USAGE;
	if (cmdline_args(&cl, argc, argv, 1, 1) < 0)
		return SQW_EXIT_USAGE;
	rc = traceexplain_file(argv[optind], &x, err, sizeof(err));
	if (rc < 0) {
		pr_err("%s", OUTFILE_ESC(err));
		return rc == -2 ? SQW_EXIT_USAGE : SQW_EXIT_RUNTIME;
	}
	if (!x.is_trace) {
		pr_err("%s: not an ftrace text (no event lines in %" PRIu64 " lines)",
		       OUTFILE_ESC(argv[optind]), x.lines);
		return SQW_EXIT_USAGE;
	}
	printf("%s\n\n", x.text);
	printf("what to do   %s\n", x.todo);
	printf("cause        %s\n", x.cause);
	if (x.marker)
		printf("break        edge #%" PRIu64 ", intended %" PRIu64 " ns, measured %s\n", x.seq,
		       x.intended_ns, US(x.marker_value_ns));
	if (x.rt_pid > 0)
		printf("sqwave-rt    pid %d, %s, CPU %d\n", x.rt_pid,
		       traceexplain_prio_words(x.rt_prio, (char[40]){ 0 }, 40), x.cpu);
	if (x.expires_ns >= 0)
		printf("timer        expiry %" PRId64 " ns, fired %s late\n", x.expires_ns,
		       US(x.irq_delay_ns));
	if (x.respond && x.waker_pid >= 0)
		printf("woken by     %s%s%s/%d on CPU %d, %s after the event\n",
		       x.waker_irq[0] ? x.waker_irq : "", x.waker_irq[0] ? " over " : "",
		       x.waker_comm, x.waker_pid, x.waker_cpu, US(x.wake_delay_ns));
	if (x.run_ns >= 0)
		printf("wake-up      ran %s after its wake-up%s, %s after the %s\n",
		       US(x.wake_to_run_ns), x.run_exact ? "" : " (its first traced event)",
		       US(x.total_ns), x.respond ? "event" : "expiry");
	if (x.holder_pid >= 0)
		printf("%s %s (pid %d, %s)%s%s, %s\n",
		       x.kind == TRACEEXPLAIN_LATE_IRQ_IDLE || x.kind == TRACEEXPLAIN_LATE_IRQ_BUSY
		       ? "interrupted " : "holder      ", x.holder_comm, x.holder_pid,
		       traceexplain_prio_words(x.holder_prio, (char[40]){ 0 }, 40),
		       x.holder_state[0] ? ", left in state " : "", x.holder_state,
		       US(x.holder_ns));
	if (x.bad_lines)
		printf("skipped      %" PRIu64 " of %" PRIu64 " lines that are not trace lines\n",
		       x.bad_lines, x.lines);
	return SQW_EXIT_OK;
}
