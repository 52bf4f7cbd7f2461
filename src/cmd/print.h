/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Messages to the user (stderr): one place, checked format strings.
 * Never call these from the RT thread. */
#ifndef SQW_PRINT_H
#define SQW_PRINT_H

#include <stdarg.h>

enum print_level { PRINT_ERR, PRINT_WARN, PRINT_INFO, PRINT_DEBUG };

/* Messages above @level are suppressed. Default PRINT_INFO. */
void print_set_level(enum print_level level);
enum print_level print_get_level(void);

void print_msg(enum print_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void print_vmsg(enum print_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* A run session's message (run/session.h's say), printed as pr_err(),
 * pr_warn() or pr_info(). */
enum run_say;
void print_session_say(void *ctx, enum run_say level, const char *text);

#define pr_err(...)   print_msg(PRINT_ERR, __VA_ARGS__)
#define pr_warn(...)  print_msg(PRINT_WARN, __VA_ARGS__)
#define pr_info(...)  print_msg(PRINT_INFO, __VA_ARGS__)
#define pr_debug(...) print_msg(PRINT_DEBUG, __VA_ARGS__)

#endif
