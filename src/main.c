/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sqwave: command dispatch, --help, --version. SQW_BOARD_BUILD (make BOARD=1,
 * docs/packaging.md) leaves the lab side's commands out. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#ifndef SQW_BOARD_BUILD
#include "capture/capture.h"
#endif
#include "config/config.h"
#include "loads/contain.h"
#include "rt/cpuidle.h"
#include "gpio/gpio_out.h"
#include "cmd/cmd_analyze.h"
#include "cmd/cmd_boards.h"
#include "cmd/cmd_check.h"
#ifndef SQW_BOARD_BUILD
#include "cmd/cmd_capture.h"
#include "cmd/cmd_compare.h"
#include "instrument/sigrok_session.h"
#endif
#include "cmd/cmd_export.h"
#ifndef SQW_BOARD_BUILD
#include "cmd/cmd_report.h"
#include "cmd/cmd_scope.h"
#endif
#include "cmd/cmd_run.h"
#include "cmd/cmd_trace_explain.h"
#include "cmd/helpgen.h"
#include "cmd/print.h"

static const char *const boards_words[] = { "detect", NULL };

#ifdef SQW_BOARD_BUILD
/* The lab side's commands (docs/design.md), which a board build has not:
 * asked for, one is named as such, never taken for a typo. */
static const char *const lab_commands[] = { "capture", "compare", "report", "scope" };
#define BUILD_KIND "board build; "
#define ANALYZE_WHAT "statistics, worst edges and histogram of a log or edge list"
#else
#define BUILD_KIND ""
#define ANALYZE_WHAT "statistics, worst edges, histogram and plot of a log or capture"
#endif

/* Each command with what its man page section and completion are made of
 * (helpgen.h). */
static const struct command {
	int (*fn)(int argc, char **argv);
	struct helpgen_cmd doc;
} commands[] = {
	{ cmd_run, { "run", "generate the square wave and log every edge", cmd_run_options,
		     cmd_run_help, NULL, NULL } },
	{ cmd_respond, { "respond", "answer each edge event of an input line on the output line",
			 cmd_respond_options, cmd_respond_help, NULL, NULL } },
	{ cmd_export, { "export", "convert a run log to CSV, one row per edge", cmd_export_options,
			cmd_export_help, NULL, NULL } },
	{ cmd_analyze, { "analyze", ANALYZE_WHAT,
			 cmd_analyze_options, cmd_analyze_help, NULL, NULL } },
#ifndef SQW_BOARD_BUILD
	{ cmd_capture, { "capture", "record a logic analyzer's edges through libsigrok, with what it covered",
			 cmd_capture_options, cmd_capture_help, NULL, NULL } },
	{ cmd_compare, { "compare", "line a scope or analyzer capture up with a run and check they agree",
			 cmd_compare_options, cmd_compare_help, NULL, NULL } },
#endif
	{ cmd_check, { "check", "bring-up checklist: kernel, tuning, limits, GPIO lines, loopback wire",
		       cmd_check_options, cmd_check_help, NULL, NULL } },
	{ cmd_boards, { "boards", "list the known board files; 'boards detect' finds this machine's",
			cmd_boards_options, cmd_boards_help, boards_words, NULL } },
#ifndef SQW_BOARD_BUILD
	{ cmd_report, { "report", "the comparison table of runs and phases (text, Markdown, JSON, SVG)",
			cmd_report_options, cmd_report_help, NULL, NULL } },
	{ cmd_scope, { "scope", "set up or read an oscilloscope's pulse-width statistics over SCPI",
		       cmd_scope_options, cmd_scope_help, NULL, NULL } },
#endif
	{ cmd_trace_explain, { "trace-explain", "say why a --break trace's wake-up was late",
			       cmd_trace_explain_options, cmd_trace_explain_help, NULL, NULL } },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: sqwave COMMAND [OPTIONS]\n\n"
		   "A self-checking real-time square-wave source: a SCHED_FIFO thread toggles\n"
		   "a GPIO line on an absolute timer and logs every edge, so what a scope shows\n"
		   "(Tmin/Tmax) can be predicted and cross-checked.\n\ncommands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-13s %s\n", commands[i].doc.name, commands[i].doc.summary);
	fprintf(f, "\n  -h, --help     this help\n"
		   "  -V, --version  the version, the GPIO backends and (full build) whether\n"
		   "                 capture drives analyzers (libsigrok) in this build\n"
		   "\n'sqwave COMMAND --help' for a command's options; man sqwave for the rest.\n"
#ifdef SQW_BOARD_BUILD
		   "This is a board build: captures, pictures and the lab's commands are in\n"
		   "the full build (docs/packaging.md).\n"
#endif
		   "exit codes: 0 ok, 1 a limit was violated, 2 usage or configuration error,\n"
		   "            3 runtime error (GPIO, permissions, RT setup, I/O),\n"
		   "            128+N run stopped early by signal N\n");
}

#ifdef SQW_BOARD_BUILD
/* A lab command asked of a board build: what this build has, and where the
 * command is (exit 2, as any command line this build cannot do). */
static int lab_command_refused(const char *name)
{
	size_t i;

	fprintf(stderr, "sqwave: %s is a lab command, and this is a board build of sqwave, which "
		"has", name);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(stderr, "%s %s", i ? "," : "", commands[i].doc.name);
	fprintf(stderr, ".\nInstall the full build for %s: make without BOARD=1, or in Yocto "
		"PACKAGECONFIG \"lab\" (docs/packaging.md).\n", name);
	return SQW_EXIT_USAGE;
}
#endif

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

/* sqwave --generate man|bash-completion|options */
static int generate(int argc, char **argv)
{
	struct helpgen_cmd docs[NCOMMANDS];
	char err[512], formats[2048];
	size_t i;
	int rc;

	for (i = 0; i < NCOMMANDS; i++)
		docs[i] = commands[i].doc;
	/* the --format names: analyze also reads its own two kinds (a board
	 * build those two alone) */
#ifdef SQW_BOARD_BUILD
	snprintf(formats, sizeof(formats), "log edges");
#else
	snprintf(formats, sizeof(formats), "log edges %s", capture_format_names());
#endif
	for (i = 0; i < NCOMMANDS; i++) {
		if (!strcmp(docs[i].name, "analyze"))
			docs[i].formats = formats;
#ifndef SQW_BOARD_BUILD
		else if (!strcmp(docs[i].name, "compare"))
			docs[i].formats = capture_format_names();
#endif
	}
	if (argc == 2 && !strcmp(argv[1], "man"))
		rc = helpgen_man(stdout, docs, NCOMMANDS, err, sizeof(err));
	else if (argc == 2 && !strcmp(argv[1], "bash-completion"))
		rc = helpgen_completion(stdout, "sqwave", "--help --version", docs, NCOMMANDS, err,
					sizeof(err));
	else if (argc == 2 && !strcmp(argv[1], "options"))
		rc = helpgen_list(stdout, docs, NCOMMANDS, err, sizeof(err));
	else {
		pr_err("usage: sqwave --generate man|bash-completion|options");
		return SQW_EXIT_USAGE;
	}
	if (rc) {
		pr_err("%s", err);
		return SQW_EXIT_RUNTIME;
	}
	return SQW_EXIT_OK;
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
	if (!strcmp(argv[1], CPUIDLE_GUARD_ARG))
		return cpuidle_guard_main(argc - 1, argv + 1);
	/* Internal: the build's man page OPTIONS section, bash completion and
	 * option list, generated from the commands' tables (Makefile). */
	if (!strcmp(argv[1], "--generate"))
		return stdout_checked(generate(argc - 1, argv + 1));
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return stdout_checked(SQW_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("sqwave %s (%sGPIO: %s, simulated)\n", SQW_VERSION, BUILD_KIND,
		       gpio_out_gpiod_api());
#ifndef SQW_BOARD_BUILD
		/* libsigrok is optional (make SIGROK=no, Debian's package): say
		 * whether capture drives analyzers before one is plugged in */
		if (sigrok_version())
			printf("capture: libsigrok %s\n", sigrok_version());
		else
			printf("capture: none, built without libsigrok (Debian: apt install "
			       "libsigrok-dev, then rebuild)\n");
#endif
		return stdout_checked(SQW_EXIT_OK);
	}
	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].doc.name))
			return stdout_checked(commands[i].fn(argc - 1, argv + 1));
#ifdef SQW_BOARD_BUILD
	for (i = 0; i < sizeof(lab_commands) / sizeof(lab_commands[0]); i++)
		if (!strcmp(argv[1], lab_commands[i]))
			return lab_command_refused(argv[1]);
#endif
	fprintf(stderr, "sqwave: unknown command '%s'", argv[1]);
	for (i = 0; i < NCOMMANDS; i++) {
		/* a typo of a command, as of an option or a key */
		if (config_distance(argv[1], commands[i].doc.name) <= 1 + (strlen(argv[1]) > 5)) {
			fprintf(stderr, "; did you mean %s?", commands[i].doc.name);
			break;
		}
	}
	fprintf(stderr, "\n\n");
	usage(stderr);
	return SQW_EXIT_USAGE;
}
