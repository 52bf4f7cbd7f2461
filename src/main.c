/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sqwave: command dispatch, --help, --version. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "contain.h"
#include "gpio_out.h"
#include "print.h"

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "run", cmd_run, "generate the square wave and log every edge" },
	{ "export", cmd_export, "convert a run log to CSV, one row per edge" },
	{ "analyze", cmd_analyze, "statistics, worst edges, histogram and plot of a log or capture" },
	{ "compare", cmd_compare, "line a scope or analyzer capture up with a run and check they agree" },
	{ "check", cmd_check, "bring-up checklist: kernel, tuning, limits, GPIO lines, loopback wire" },
	{ "boards", cmd_boards, "list the known board files; 'boards detect' finds this machine's" },
	{ "report", cmd_report, "the comparison table of runs and phases (text, Markdown, JSON, SVG)" },
	{ "trace-explain", cmd_trace_explain, "say why a --break trace's wake-up was late" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: sqwave COMMAND [OPTIONS]\n\n"
		   "A self-checking real-time square-wave source: a SCHED_FIFO thread toggles\n"
		   "a GPIO line on an absolute timer and logs every edge, so what a scope shows\n"
		   "(Tmin/Tmax) can be predicted and cross-checked.\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-13s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'sqwave COMMAND --help' for a command's options; man sqwave for the rest.\n"
		   "exit codes: 0 ok, 1 a limit was violated, 2 usage or configuration error,\n"
		   "            3 runtime error (GPIO, permissions, RT setup, I/O),\n"
		   "            128+N run stopped early by signal N\n");
}

/* Every command's standard output, checked once here: a summary or a CSV
 * written to a full disk, a closed pipe or /dev/full is lost, and a lost
 * result is an I/O error (exit 3), never a success. */
static int stdout_checked(int ret)
{
	int bad;

	errno = 0;
	bad = fflush(stdout) != 0 || ferror(stdout);
	bad |= fclose(stdout) != 0;
	if (bad) {
		pr_err("writing standard output failed: %s",
		       errno ? strerror(errno) : "an earlier write failed");
		if (ret == SQW_EXIT_OK || ret == SQW_EXIT_LIMIT)
			ret = SQW_EXIT_RUNTIME;
	}
	return ret;
}

int main(int argc, char **argv)
{
	size_t i;

	/* A file-size limit is an I/O error (EFBIG) like a full disk, reported
	 * and exit 3, never a silent death by SIGXFSZ: for every command. */
	signal(SIGXFSZ, SIG_IGN);
	if (argc < 2) {
		usage(stderr);
		return SQW_EXIT_USAGE;
	}
	/* Internal: how sqwave starts its loads (contain.h), not for users. */
	if (!strcmp(argv[1], CONTAIN_EXEC_ARG))
		return contain_exec_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], CONTAIN_GUARD_ARG))
		return contain_guard_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return stdout_checked(SQW_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("sqwave %s (GPIO: %s, simulated)\n", SQW_VERSION, gpio_out_gpiod_api());
		return stdout_checked(SQW_EXIT_OK);
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return stdout_checked(commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "sqwave: unknown command '%s'", argv[1]);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		/* a typo of a command, as of an option or a key */
		if (config_distance(argv[1], commands[i].name) <= 1 + (strlen(argv[1]) > 5)) {
			fprintf(stderr, "; did you mean %s?", commands[i].name);
			break;
		}
	}
	fprintf(stderr, "\n\n");
	usage(stderr);
	return SQW_EXIT_USAGE;
}
