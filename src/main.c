/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sqwave: command dispatch, --help, --version. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "gpio_out.h"

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
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: sqwave COMMAND [OPTIONS]\n\n"
		   "A self-checking real-time square-wave source: a SCHED_FIFO thread toggles\n"
		   "a GPIO line on an absolute timer and logs every edge, so what a scope shows\n"
		   "(Tmin/Tmax) can be predicted and cross-checked.\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'sqwave COMMAND --help' for a command's options; man sqwave for the rest.\n"
		   "exit codes: 0 ok, 1 a limit was violated, 2 usage or configuration error,\n"
		   "            3 runtime error (GPIO, permissions, RT setup, I/O),\n"
		   "            128+N run stopped early by signal N\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return SQW_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return SQW_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("sqwave %s (GPIO: %s, simulated)\n", SQW_VERSION, gpio_out_gpiod_api());
		return SQW_EXIT_OK;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "sqwave: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return SQW_EXIT_USAGE;
}
