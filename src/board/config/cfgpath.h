/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Board files and profiles by short name: where sqwave looks for them, in
 * which order, and where each one it knows came from. */
#ifndef SQW_CFGPATH_H
#define SQW_CFGPATH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

enum cfgpath_kind { CFGPATH_BOARD, CFGPATH_PROFILE };

#define CFGPATH_MAX_DIRS 6

/* One directory of the search path. */
struct cfgpath_dir {
	char path[PATH_MAX];
	char origin[PATH_MAX + 32];  /* how to say where it is: "./boards",
				      * "$XDG_CONFIG_HOME/sqwave/boards",
				      * "/etc/sqwave/boards", "installed (...)" */
};

/*
 * The search path for @kind, in order: ./boards (profiles: ./config), then
 * $XDG_CONFIG_HOME/sqwave/boards (~/.config/... without XDG_CONFIG_HOME),
 * /etc/sqwave/boards, the installed share directory (PREFIX/share/sqwave/
 * boards, fixed at build time), and the share directory next to the running
 * binary (BINDIR/../share/sqwave/boards) when that is another one (an
 * install moved elsewhere, or staged under DESTDIR). Returns the count.
 */
int cfgpath_dirs(enum cfgpath_kind kind, struct cfgpath_dir *dirs, int max);

/*
 * @arg is a file (it has a '/', or a file of that name exists) or a short
 * name ("stm32mp135f-dk", "quick"; ".yaml" optional), looked for as
 * NAME.yaml along the search path; the first found wins. Writes the path
 * into @out and, if @origin, the directory's origin ("file" for a file
 * given as such). A name is what cfgpath_list() lists: not starting with a
 * dot, at most 127 characters; an entry that is not a regular file is
 * skipped. @arg with a control character is refused (EINVAL): the path goes
 * into the log header, one line. Returns 0, or -1 with errno (ENOENT,
 * ENAMETOOLONG, EINVAL) and one message in @err: where it looked and the
 * names it knows (and the closest one). Prints nothing.
 */
int cfgpath_resolve(enum cfgpath_kind kind, const char *arg, char *out, size_t outlen,
		    char *origin, size_t originlen, char *err, size_t errlen);

/* One file known by name. */
struct cfgpath_entry {
	char name[128];              /* "stm32mp135f-dk" */
	char path[PATH_MAX];
	int dir;                     /* index into cfgpath_dirs() */
	bool shadowed;               /* an earlier directory has the same name:
				      * this one is never picked by name */
};

/* Every NAME.yaml along the search path, directory by directory, each sorted
 * by name. *@out is malloc'ed (caller frees); returns the count, or -1 with
 * errno. */
int cfgpath_list(enum cfgpath_kind kind, struct cfgpath_entry **out);

struct config;

/*
 * Resolve and load into @c the board file @board and the profile @profile
 * (NULL: none), then check that every required key is set and that the
 * limits do not contradict each other (config_check_limits). @board may be
 * NULL when the command line already set gpio.chip and gpio.line: board.name
 * is then "none". The resolved paths go to @board_path and @profile_path
 * ("" for none; each PATH_MAX bytes). Returns 0, or -1 with one message in
 * @err: a usage or configuration error (exit 2). Prints nothing.
 */
int cfgpath_load(struct config *c, const char *board, const char *profile,
		 char *board_path, char *profile_path, char *err, size_t errlen);

/* The system-wide and installed directories, for tests (default "/etc/sqwave"
 * and the build's PREFIX/share/sqwave); not thread-safe. */
extern const char *cfgpath_etc_dir;
extern const char *cfgpath_data_dir;

#endif
