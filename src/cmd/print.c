/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stderr messages, prefixed "sqwave: " and the severity. */
#include "cmd/print.h"

#include <stdio.h>

#include "run/session.h"

static enum print_level print_level = PRINT_INFO;

void print_set_level(enum print_level level)
{
	print_level = level;
}

enum print_level print_get_level(void)
{
	return print_level;
}

void print_vmsg(enum print_level level, const char *fmt, va_list ap)
{
	static const char *const prefix[] = {
		[PRINT_ERR] = "error: ",
		[PRINT_WARN] = "warning: ",
		[PRINT_INFO] = "",
		[PRINT_DEBUG] = "debug: ",
	};

	if (level > print_level)
		return;
	fprintf(stderr, "sqwave: %s", prefix[level]);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void print_msg(enum print_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print_vmsg(level, fmt, ap);
	va_end(ap);
}

void print_session_say(void *ctx, enum run_say level, const char *text)
{
	(void)ctx;
	print_msg(level == RUN_SAY_ERR ? PRINT_ERR : level == RUN_SAY_WARN ? PRINT_WARN
		  : PRINT_INFO, "%s", text);
}
