/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave boards`: the board files and profiles sqwave knows by name and
 * where each came from; `sqwave boards detect`: which one is this machine. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/cfgpath.h"
#include "check/check_detect.h"
#include "cmd/cmd_boards.h"
#include "cmd/cmdline.h"
#include "config/config.h"
#include "cmd/print.h"
#include "config/yamlcfg.h"
#include "base/utf8.h"

static void boards_usage(FILE *f)
{
	fprintf(f,
		"usage: sqwave boards [--root DIR]\n"
		"       sqwave boards detect [--root DIR]\n\n"
		"List the board files and profiles that --board NAME and --profile NAME find,\n"
		"in the order they are searched (the first of a name wins), and where each came\n"
		"from. 'detect' reads this machine's device-tree compatible strings and DMI\n"
		"names (under DIR, default /) and says which board file matches.\n\n"
		"  --root DIR   read the device tree and DMI under DIR (tests, a copied tree)\n"
		"  -h, --help   this help\n\n"
		"exit: 0 ok (detect: one board fits), 1 detect: none or several fit, 2 usage\n"
		"(detect: also a --root that is not a directory)\n");
}

/* Text from a board file, with control characters left out of the terminal. */
static void put_clean(FILE *f, const char *s, size_t max)
{
	size_t i, n = strnlen(s, max);

	/* cut before a character, never inside one (UTF-8 continuation bytes) */
	while (n > 0 && s[n] && !utf8_starts_char((unsigned char)s[n]))
		n--;
	for (i = 0; i < n; i++)
		fputc((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i], f);
	if (s[n])
		fputs("...", f);
}

/* Load one board file or profile (@src) into a fresh configuration; NULL
 * (and @err) if it is not a valid one. */
static struct config *cfg_load(const char *path, enum cfg_source src, char *err, size_t errlen)
{
	struct config *c = config_new();

	if (!c) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (yamlcfg_load(c, path, src, err, errlen) != YAMLCFG_OK) {
		config_free(c);
		return NULL;
	}
	return c;
}

static struct config *board_load(const char *path, char *err, size_t errlen)
{
	return cfg_load(path, CFG_SRC_BOARD, err, errlen);
}

static int list_kind(enum cfgpath_kind kind)
{
	struct cfgpath_dir dirs[CFGPATH_MAX_DIRS];
	struct cfgpath_entry *e;
	int nd, n, i, j;
	char err[512];

	nd = cfgpath_dirs(kind, dirs, CFGPATH_MAX_DIRS);
	n = cfgpath_list(kind, &e);
	if (n < 0) {
		pr_err("cannot list the %s: %s", kind == CFGPATH_BOARD ? "boards" : "profiles",
		       strerror(errno));
		return -1;
	}
	printf("%s, searched in: ", kind == CFGPATH_BOARD ? "boards" : "profiles");
	for (i = 0; i < nd; i++)
		printf("%s%s", i ? ", " : "", dirs[i].origin);
	printf("\n");
	for (i = 0; i < n; i++) {
		printf("  %-18s %-28s ", e[i].name, dirs[e[i].dir].origin);
		if (e[i].shadowed) {
			for (j = 0; j < i; j++)
				if (!strcmp(e[j].name, e[i].name) && !e[j].shadowed)
					break;
			printf("(hidden by %s)\n", j < i ? e[j].path : "an earlier one");
			continue;
		}
		if (kind == CFGPATH_BOARD) {
			struct config *c = board_load(e[i].path, err, sizeof(err));

			if (!c) {
				printf("INVALID: ");
				put_clean(stdout, err, 200);
				printf("\n");
				continue;
			}
			put_clean(stdout, config_str(c, CFG_BOARD_DESCRIPTION), 60);
			printf(" [pin %s]", config_str(c, CFG_GPIO_CONFIDENCE));
			if (config_str(c, CFG_GPIO_FREE_LINES)[0]) {
				printf(" [free lines ");
				put_clean(stdout, config_str(c, CFG_GPIO_FREE_LINES), 60);
				printf("]");
			}
			printf("\n");
			config_free(c);
		} else {
			/* a profile: its run.description, or its path for one without */
			struct config *c = cfg_load(e[i].path, CFG_SRC_PROFILE, err, sizeof(err));

			if (!c) {
				printf("INVALID: ");
				put_clean(stdout, err, 200);
				printf("\n");
				continue;
			}
			if (config_str(c, CFG_RUN_DESCRIPTION)[0])
				put_clean(stdout, config_str(c, CFG_RUN_DESCRIPTION), 100);
			else
				printf("(no run.description) %s", e[i].path);
			printf("\n");
			config_free(c);
		}
	}
	if (!n)
		printf("  (none)\n");
	free(e);
	return 0;
}

static void print_machine(const struct detect_machine *m)
{
	int i;

	printf("this machine:\n");
	if (m->ncompatible) {
		printf("  device-tree compatible:");
		for (i = 0; i < m->ncompatible; i++) {
			printf(" \"");
			put_clean(stdout, m->compatible[i], 127);
			printf("\"");
		}
		printf("\n");
		if (m->model[0]) {
			printf("  device-tree model: \"");
			put_clean(stdout, m->model, 127);
			printf("\"\n");
		}
	}
	if (m->dmi_board[0] || m->dmi_product[0]) {
		printf("  DMI: vendor \"");
		put_clean(stdout, m->dmi_vendor, 127);
		printf("\", board \"");
		put_clean(stdout, m->dmi_board, 127);
		printf("\", product \"");
		put_clean(stdout, m->dmi_product, 127);
		printf("\"\n");
	}
	if (!detect_machine_known(m))
		printf("  no device tree and no DMI names found\n");
}

static int detect(const char *root)
{
	struct detect_machine m;
	struct cfgpath_entry *e;
	int n, i, best = 0, nbest = 0, first = -1;
	char why[256], best_why[256] = "", err[512];

	detect_machine_read(root, &m);
	print_machine(&m);
	n = cfgpath_list(CFGPATH_BOARD, &e);
	if (n < 0) {
		pr_err("cannot list the boards: %s", strerror(errno));
		return SQW_EXIT_RUNTIME;
	}
	for (i = 0; i < n; i++) {
		struct config *c;
		int s;

		if (e[i].shadowed)
			continue;
		/* A board file with a mistake cannot match: say so, or the
		 * user's own file would be silently left out. */
		if (!(c = board_load(e[i].path, err, sizeof(err)))) {
			printf("  not read (invalid): ");
			put_clean(stdout, err, 300);
			printf("\n");
			continue;
		}
		s = detect_board_score(c, &m, why, sizeof(why));
		config_free(c);
		if (!s || s < best)
			continue;
		if (s > best) {
			best = s;
			nbest = 0;
			first = i;
			snprintf(best_why, sizeof(best_why), "%s", why);
		}
		nbest++;
		if (nbest > 1)
			printf("  also fits equally: %s (%s)\n", e[i].name, e[i].path);
	}
	if (best && nbest == 1) {
		printf("board: %s (%s), matched on %s\n", e[first].name, e[first].path, best_why);
		printf("next: sqwave check --board %s\n", e[first].name);
		free(e);
		return SQW_EXIT_OK;
	}
	if (best) {
		printf("several board files fit equally well (first: %s, on %s): give their "
		       "match keys a more specific compatible string\n", e[first].name, best_why);
		free(e);
		return SQW_EXIT_LIMIT;
	}
	free(e);
	printf("no board file matches this machine.\n"
	       "To write one (copy the nearest boards/*.yaml), collect:\n"
	       "  match:    the compatible strings or DMI names above (match.compatible,\n"
	       "            match.dmi_board, match.dmi_product)\n"
	       "  gpio:     a free header pin from the board's pinout, and its chip label and\n"
	       "            offset: gpiodetect; gpioinfo (the line must be unused)\n"
	       "  loopback: a second free pin to wire to the first, with edge interrupts\n"
	       "  board:    SoC and CPU count (nproc), the BSP and kernel (uname -a),\n"
	       "            PREEMPT_RT (cat /sys/kernel/realtime)\n"
	       "and mark each fact verified, inferred or unknown (docs/configuration.md);\n"
	       "then: sqwave check --board FILE\n");
	return SQW_EXIT_LIMIT;
}

static const struct option boards_opts[] = {
	{ "root", required_argument, NULL, 'R' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* The options, for the man page and the completion (main.c). */
size_t cmd_boards_options(struct option *out, size_t max)
{
	return cmdline_options_copy(out, max, boards_opts);
}

void cmd_boards_help(FILE *f)
{
	boards_usage(f);
}

int cmd_boards(int argc, char **argv)
{
	const char *root = "/";
	struct stat sb;
	struct cmdline cl = { "boards", boards_opts, "h", boards_usage, false };
	int ch;

	while ((ch = cmdline_next(&cl, argc, argv, NULL)) >= 0)
		if (ch == 'R')
			root = optarg;
	if (ch != CMDLINE_END)
		return ch == CMDLINE_HELP ? SQW_EXIT_OK : SQW_EXIT_USAGE;
	if (optind < argc && !strcmp(argv[optind], "detect")) {
		optind++;
		while (optind < argc) {
			if (!strcmp(argv[optind], "--root") && optind + 1 < argc) {
				root = argv[optind + 1];
				optind += 2;
				continue;
			}
			cmdline_unexpected("boards", argv[optind]);
			return SQW_EXIT_USAGE;
		}
		/* A mistyped --root would read as a machine without a device tree. */
		if (stat(root, &sb) < 0) {
			pr_err("--root %s: %s", root, strerror(errno));
			return SQW_EXIT_USAGE;
		}
		if (!S_ISDIR(sb.st_mode)) {
			pr_err("--root %s: not a directory", root);
			return SQW_EXIT_USAGE;
		}
		return detect(root);
	}
	if (cmdline_args(&cl, argc, argv, 0, 0) < 0)
		return SQW_EXIT_USAGE;
	if (list_kind(CFGPATH_BOARD) || (printf("\n"), list_kind(CFGPATH_PROFILE)))
		return SQW_EXIT_RUNTIME;
	if (fflush(stdout) || ferror(stdout)) {
		pr_err("cannot write to standard output: %s", strerror(errno));
		return SQW_EXIT_RUNTIME;
	}
	return SQW_EXIT_OK;
}
