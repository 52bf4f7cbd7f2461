/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Board files and profiles (YAML) into the configuration, with FILE:LINE:COL errors. */
#ifndef SQW_YAMLCFG_H
#define SQW_YAMLCFG_H

#include <stddef.h>

#include "config/config.h"

/* A board file or profile is never larger than this. */
#define YAMLCFG_MAX_BYTES (1024 * 1024)

enum yamlcfg_result {
	YAMLCFG_OK = 0,
	YAMLCFG_E_IO,        /* cannot open or read the file; too large; not a regular file */
	YAMLCFG_E_SYNTAX,    /* not YAML (libyaml's complaint), or not text */
	YAMLCFG_E_STRUCTURE, /* empty; not a mapping of sections of key: value; anchors; 2 documents */
	YAMLCFG_E_SECTION,   /* unknown or duplicate section */
	YAMLCFG_E_KEY,       /* unknown or duplicate key */
	YAMLCFG_E_VALUE,     /* wrong type, out of range, not one of the choices */
	YAMLCFG_E_PLACE,     /* a board-file section in a profile, or the other way round */
	YAMLCFG_E_MISSING,   /* a board file without board.name, gpio.chip or gpio.line */
	YAMLCFG_E_NOMEM,
};

/*
 * Load the board file (@src CFG_SRC_BOARD: sections board, gpio, loopback,
 * sim, rt) or the profile (@src CFG_SRC_PROFILE: sections run, rt, limits,
 * output) at @path into @c. The file is a YAML mapping of sections, each a
 * mapping of key: scalar; "key:" with no value, "~" and "null" mean "".
 * Every value is checked against config_table and stored with its origin
 * (@path:line) through config_set(), so a value already set from a higher
 * source (the command line) is kept.
 *
 * @path must be a regular file: a FIFO, a device or a directory is refused
 * without being read (or, for a FIFO, waited on).
 *
 * All or nothing: on any error nothing is stored, and @err holds one
 * message "FILE:LINE:COL: what is wrong; what is allowed" (or "FILE: ..."
 * when no position applies: unreadable, too large, missing key).
 * Not thread-safe (the config is not); call during setup.
 */
enum yamlcfg_result yamlcfg_load(struct config *c, const char *path, enum cfg_source src,
				 char *err, size_t errlen);

/* The same from memory: @name is used in messages and origins. @buf need
 * not be NUL-terminated. For tests and the fuzzer. */
enum yamlcfg_result yamlcfg_load_buffer(struct config *c, const char *name,
					const void *buf, size_t len, enum cfg_source src,
					char *err, size_t errlen);

/* "syntax error", "unknown key", ... (for tests and debug output). */
const char *yamlcfg_result_str(enum yamlcfg_result r);

#endif
