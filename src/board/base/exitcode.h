/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The exit codes every command shares (docs/sqwave.1), and that a run's log
 * footer records: the library says what happened (a failure as its code),
 * the commands decide the exit code (a run's: cmd/runexit.h). */
#ifndef SQW_EXITCODE_H
#define SQW_EXITCODE_H

enum sqw_exit {
	SQW_EXIT_OK = 0,       /* completed, within limits (compare: agree) */
	SQW_EXIT_LIMIT = 1,    /* completed, a limit was violated (compare: disagree) */
	SQW_EXIT_USAGE = 2,    /* usage or configuration error, bad input file */
	SQW_EXIT_RUNTIME = 3,  /* GPIO, permissions, RT setup, I/O */
	/* 128 + signal number: a finite run stopped early by SIGINT/SIGTERM;
	 * log and summary are complete, the verdict covers the measured part. */
};

#endif
