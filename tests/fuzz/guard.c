/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Linked into every fuzz target: libFuzzer writes new inputs into its first
 * corpus directory and crash files into the working directory, so a run
 * whose corpus or artifacts would land in the source tree is refused (the
 * tree once gained 866 corpus files that way). Build directories (build*)
 * are outside the tree for this purpose; seeds are read from tests/ as
 * later, read-only corpus directories. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SQW_FUZZ_TREE
#error "build with -DSQW_FUZZ_TREE=\"the source tree\" (make fuzz does)"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);

/* @path (which exists) is in the tree and not under a build directory. */
static bool in_tree(const char *path)
{
	char real[PATH_MAX], tree[PATH_MAX];
	size_t n;

	if (!realpath(path, real) || !realpath(SQW_FUZZ_TREE, tree))
		return false;
	n = strlen(tree);
	if (strncmp(real, tree, n) || (real[n] && real[n] != '/'))
		return false;
	return strncmp(real + n, "/build", 6) != 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	bool artifacts = false, first = true;
	struct stat st;
	char cwd[PATH_MAX];
	int i;

	for (i = 1; i < *argc; i++) {
		const char *a = (*argv)[i];

		if (!strncmp(a, "-artifact_prefix=", 17))
			artifacts = true;
		if (a[0] == '-' || stat(a, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (first && in_tree(a)) {
			fprintf(stderr, "fuzz: refusing to write new inputs into %s, in the source "
				"tree: give a corpus directory outside it first (scripts/run-fuzz "
				"does), the seeds after it\n", a);
			exit(2);
		}
		first = false;
	}
	if (!artifacts && getcwd(cwd, sizeof(cwd)) && in_tree(cwd)) {
		fprintf(stderr, "fuzz: crash files would be written into the source tree: "
			"give -artifact_prefix=DIR/ outside it\n");
		exit(2);
	}
	return 0;
}
