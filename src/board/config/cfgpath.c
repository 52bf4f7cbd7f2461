/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Board files and profiles by short name along one search path, so that an
 * installed sqwave finds its boards and a user's own files win over them. */
#include "config/cfgpath.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "base/msgbuf.h"
#include "base/escape.h"
#include "config/yamlcfg.h"

#ifndef SQW_DATADIR
#define SQW_DATADIR "/usr/local/share/sqwave"
#endif

const char *cfgpath_etc_dir = "/etc/sqwave";
const char *cfgpath_data_dir = SQW_DATADIR;

static const char *kind_sub(enum cfgpath_kind kind)
{
	return kind == CFGPATH_BOARD ? "boards" : "config";
}

static const char *kind_word(enum cfgpath_kind kind)
{
	return kind == CFGPATH_BOARD ? "board" : "profile";
}

static int add_dir(struct cfgpath_dir *dirs, int n, int max, const char *path,
		   const char *origin)
{
	int i;

	if (n >= max || strlen(path) >= sizeof(dirs[n].path))
		return n;
	for (i = 0; i < n; i++) {
		if (!strcmp(dirs[i].path, path))
			return n;   /* the same directory twice: keep the first */
	}
	snprintf(dirs[n].path, sizeof(dirs[n].path), "%s", path);
	snprintf(dirs[n].origin, sizeof(dirs[n].origin), "%s", origin);
	return n + 1;
}

/* BINDIR/../share/sqwave of the running binary, or "" if unknown. */
static void exe_share_dir(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	buf[0] = '\0';
	if (n <= 0)
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	if (snprintf(buf, len, "%s/../share/sqwave", exe) >= (int)len)
		buf[0] = '\0';
}

int cfgpath_dirs(enum cfgpath_kind kind, struct cfgpath_dir *dirs, int max)
{
	const char *sub = kind_sub(kind), *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	char path[PATH_MAX], origin[PATH_MAX + 32], share[PATH_MAX], real_a[PATH_MAX];
	char real_b[PATH_MAX], installed[PATH_MAX];
	int n = 0;

	snprintf(path, sizeof(path), "./%s", sub);
	n = add_dir(dirs, n, max, path, path);
	if (xdg && xdg[0] == '/') {
		snprintf(path, sizeof(path), "%s/sqwave/%s", xdg, sub);
		snprintf(origin, sizeof(origin), "$XDG_CONFIG_HOME/sqwave/%s", sub);
		n = add_dir(dirs, n, max, path, origin);
	} else if (home && home[0] == '/') {
		snprintf(path, sizeof(path), "%s/.config/sqwave/%s", home, sub);
		snprintf(origin, sizeof(origin), "~/.config/sqwave/%s", sub);
		n = add_dir(dirs, n, max, path, origin);
	}
	snprintf(path, sizeof(path), "%s/%s", cfgpath_etc_dir, sub);
	n = add_dir(dirs, n, max, path, path);
	snprintf(installed, sizeof(installed), "%s/%s", cfgpath_data_dir, sub);
	snprintf(origin, sizeof(origin), "installed (%s)", installed);
	n = add_dir(dirs, n, max, installed, origin);
	exe_share_dir(share, sizeof(share));
	if (share[0] && snprintf(path, sizeof(path), "%s/%s", share, sub) < (int)sizeof(path)) {
		/* Only when it is not the installed directory under another name. */
		if (realpath(path, real_a) &&
		    !(realpath(installed, real_b) && !strcmp(real_a, real_b))) {
			snprintf(origin, sizeof(origin), "next to the binary (%s)", real_a);
			n = add_dir(dirs, n, max, real_a, origin);
		}
	}
	return n;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool has_control(const char *s)
{
	for (; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	}
	return false;
}

/* "NAME.yaml" -> "NAME"; other names unchanged. */
static void strip_yaml(const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);

	if (n > 5 && !strcmp(name + n - 5, ".yaml"))
		n -= 5;
	if (n >= len)
		n = len - 1;
	memcpy(buf, name, n);
	buf[n] = '\0';
}

static int entry_cmp(const void *a, const void *b)
{
	const struct cfgpath_entry *x = a, *y = b;

	if (x->dir != y->dir)
		return x->dir - y->dir;
	return strcmp(x->name, y->name);
}

int cfgpath_list(enum cfgpath_kind kind, struct cfgpath_entry **out)
{
	struct cfgpath_dir dirs[CFGPATH_MAX_DIRS];
	struct cfgpath_entry *v = NULL, *nv;
	size_t n = 0, cap = 0, i, j;
	struct dirent *de;
	int nd, d;
	DIR *dp;

	*out = NULL;
	nd = cfgpath_dirs(kind, dirs, CFGPATH_MAX_DIRS);
	for (d = 0; d < nd; d++) {
		dp = opendir(dirs[d].path);
		if (!dp)
			continue;
		while ((de = readdir(dp))) {
			size_t len = strlen(de->d_name);
			char path[PATH_MAX];

			/* what cfgpath_resolve() takes: not hidden, no control
			 * characters (and nothing to print raw on a terminal) */
			if (len <= 5 || strcmp(de->d_name + len - 5, ".yaml") ||
			    de->d_name[0] == '.' || has_control(de->d_name))
				continue;
			if (snprintf(path, sizeof(path), "%s/%s", dirs[d].path, de->d_name) >=
			    (int)sizeof(path) || !is_file(path) || len - 5 >= sizeof(v->name))
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 32;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv) {
					closedir(dp);
					free(v);
					errno = ENOMEM;
					return -1;
				}
				v = nv;
			}
			memset(&v[n], 0, sizeof(v[n]));
			strip_yaml(de->d_name, v[n].name, sizeof(v[n].name));
			snprintf(v[n].path, sizeof(v[n].path), "%s", path);
			v[n].dir = d;
			n++;
		}
		closedir(dp);
	}
	if (n)
		qsort(v, n, sizeof(*v), entry_cmp);
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++) {
			if (v[j].dir < v[i].dir && !strcmp(v[j].name, v[i].name)) {
				v[i].shadowed = true;
				break;
			}
		}
	}
	*out = v;
	return (int)n;
}

/* @s for a message: control characters escaped, at most about 80 bytes. */
static const char *shown(const char *s, char *buf, size_t len)
{
	struct msgbuf_out o;

	/* at most 80 bytes of it, whatever @len allows */
	msgbuf_out_init(&o, buf, len < 84 ? len : 84);
	for (; *s && !o.cut; s++)
		msgbuf_out_char(&o, (unsigned char)*s, ESCAPE_QUOTED);
	return buf;
}

int cfgpath_resolve(enum cfgpath_kind kind, const char *arg, char *out, size_t outlen,
		    char *origin, size_t originlen, char *err, size_t errlen)
{
	struct cfgpath_dir dirs[CFGPATH_MAX_DIRS];
	struct cfgpath_entry *known;
	char name[256], path[PATH_MAX], odd[PATH_MAX + 64] = "", sa[128], sn[128];
	int nd, d, nk, i, shown_n = 0;
	const char *hint = NULL;

	if (err && errlen)
		err[0] = '\0';
	if (!arg || !*arg) {
		msgbuf_add(err, errlen, "an empty %s name", kind_word(kind));
		errno = EINVAL;
		return -1;
	}
	/* The path goes into the run's log header, one "key=value" line: a
	 * newline in it would add a line (a key) of its own. */
	if (has_control(arg)) {
		msgbuf_add(err, errlen, "\"%s\": a file name with a control character (a "
			   "newline) cannot be recorded in the log; rename the file",
			   shown(arg, sa, sizeof(sa)));
		errno = EINVAL;
		return -1;
	}
	/* A file, as given: a path, or a file of that name here. */
	if (strchr(arg, '/') || is_file(arg)) {
		if (strlen(arg) >= outlen) {
			msgbuf_add(err, errlen, "%s: path too long", shown(arg, sa, sizeof(sa)));
			errno = ENAMETOOLONG;
			return -1;
		}
		snprintf(out, outlen, "%s", arg);
		if (origin && originlen)
			snprintf(origin, originlen, "file");
		return 0;
	}
	/* A short name is what `sqwave boards` lists (cfgpath_list): a file name
	 * without its .yaml, not hidden ("..", ".x"), as long as a listed one. */
	strip_yaml(arg, name, sizeof(name));
	if (name[0] == '.' || strlen(name) >= sizeof(known->name)) {
		msgbuf_add(err, errlen, "\"%s\" is no %s name (`sqwave boards` lists them: "
			   "names of at most %zu characters, not starting with a dot) and no file "
			   "of that name is here", shown(arg, sa, sizeof(sa)), kind_word(kind),
			   sizeof(known->name) - 1);
		errno = name[0] == '.' ? ENOENT : ENAMETOOLONG;
		return -1;
	}
	nd = cfgpath_dirs(kind, dirs, CFGPATH_MAX_DIRS);
	for (d = 0; d < nd; d++) {
		struct stat sb;

		if (snprintf(path, sizeof(path), "%s/%s.yaml", dirs[d].path, name) >=
		    (int)sizeof(path))
			continue;
		/* A directory, a FIFO, a dangling or looping link: skipped, as
		 * `sqwave boards` skips it, and named if nothing else is found. */
		if (!is_file(path)) {
			if (!odd[0] && lstat(path, &sb) == 0)
				snprintf(odd, sizeof(odd), "; %s is there but is not a regular "
					 "file one can read", path);
			continue;
		}
		if (strlen(path) >= outlen) {
			msgbuf_add(err, errlen, "%s: path too long", shown(path, sa, sizeof(sa)));
			errno = ENAMETOOLONG;
			return -1;
		}
		snprintf(out, outlen, "%s", path);
		if (origin && originlen)
			snprintf(origin, originlen, "%s", dirs[d].origin);
		return 0;
	}

	msgbuf_add(err, errlen, "no %s file or %s named \"%s\": looked for %s.yaml in ",
	    kind_word(kind), kind_word(kind), shown(arg, sa, sizeof(sa)),
	    shown(name, sn, sizeof(sn)));
	for (d = 0; d < nd; d++)
		msgbuf_add(err, errlen, "%s%s", d ? ", " : "", dirs[d].path);
	msgbuf_add(err, errlen, "%s", odd);
	nk = cfgpath_list(kind, &known);
	for (i = 0; i < nk; i++) {
		if (known[i].shadowed)
			continue;
		if (!hint && (strstr(known[i].name, name) || strstr(name, known[i].name)))
			hint = known[i].name;
		msgbuf_add(err, errlen, "%s%s", shown_n++ ? ", " : "; known: ", known[i].name);
	}
	if (hint)
		msgbuf_add(err, errlen, "; did you mean %s?", hint);
	else if (!shown_n)
		msgbuf_add(err, errlen, "; no %s files were found there", kind_word(kind));
	free(known);
	errno = ENOENT;
	return -1;
}

int cfgpath_load(struct config *c, const char *board, const char *profile,
		 char *board_path, char *profile_path, char *err, size_t errlen)
{
	char e[1024];

	board_path[0] = profile_path[0] = '\0';
	if (board && *board) {
		if (cfgpath_resolve(CFGPATH_BOARD, board, board_path, PATH_MAX, NULL, 0,
				    err, errlen))
			return -1;
		if (yamlcfg_load(c, board_path, CFG_SRC_BOARD, err, errlen) != YAMLCFG_OK)
			return -1;
	} else if (config_source(c, CFG_GPIO_CHIP) == CFG_SRC_CMDLINE &&
		   config_source(c, CFG_GPIO_LINE) == CFG_SRC_CMDLINE) {
		/* --chip and --line say everything a board file would. */
		if (config_source(c, CFG_BOARD_NAME) < CFG_SRC_CMDLINE &&
		    config_set(c, CFG_BOARD_NAME, "none", CFG_SRC_CMDLINE, NULL, 0, e,
			       sizeof(e)) != CFG_OK) {
			snprintf(err, errlen, "%s", e);
			return -1;
		}
	} else {
		snprintf(err, errlen, "--board FILE|NAME is required, or --chip and --line "
			 "(for a first try: --board sim; `sqwave boards` lists the boards)");
		return -1;
	}
	if (profile && *profile) {
		if (cfgpath_resolve(CFGPATH_PROFILE, profile, profile_path, PATH_MAX, NULL, 0,
				    err, errlen))
			return -1;
		if (yamlcfg_load(c, profile_path, CFG_SRC_PROFILE, err, errlen) != YAMLCFG_OK)
			return -1;
	}
	if (config_check_required(c, err, errlen) != CFG_OK ||
	    config_check_limits(c, err, errlen) != CFG_OK ||
	    config_resolve_wave(c, err, errlen) != CFG_OK)
		return -1;
	return 0;
}
