/* SPDX-License-Identifier: GPL-2.0-or-later */
/* base/spool: a stream copied whole into a memory file and read from its
 * start; the sniff sees the first bytes with its context and may refuse;
 * devices, directories, empty streams and streams past the bound refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/spool.h"

/* A child writing @len bytes of @data into a pipe; returns the read end. */
static int pipe_from_child(const char *data, size_t len, pid_t *pid)
{
	int fd[2];

	assert_int_equal(pipe(fd), 0);
	*pid = fork();
	assert_true(*pid >= 0);
	if (*pid == 0) {
		close(fd[0]);
		signal(SIGPIPE, SIG_DFL);
		while (len) {
			ssize_t w = write(fd[1], data, len);

			if (w <= 0)
				_exit(1);
			data += w;
			len -= (size_t)w;
		}
		_exit(0);
	}
	close(fd[1]);
	return fd[0];
}

/* @len bytes that differ from place to place (a shifted copy shows). */
static char *pattern(size_t len)
{
	char *p = malloc(len);
	size_t i;

	assert_non_null(p);
	for (i = 0; i < len; i++)
		p[i] = (char)(i * 7 + i / 251);
	return p;
}

struct sniffed {
	size_t calls, len;
	char first[4];
	int verdict;
};

static int sniff_record(void *ctx, const void *data, size_t len)
{
	struct sniffed *s = ctx;

	s->calls++;
	s->len = len;
	memcpy(s->first, data, len < 4 ? len : 4);
	return s->verdict;
}

/* spool_open() of the pipe's read end @rd through /proc/self/fd. */
static int spool_of(int rd, size_t max, struct sniffed *s, char *err, size_t errlen)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", rd);
	fd = spool_open(path, max, s ? sniff_record : NULL, s, err, errlen);
	close(rd);
	return fd;
}

static void a_pipe_is_held_whole_and_read_from_its_start(void **state)
{
	const size_t len = 300000;	/* several 64 KiB reads, not a multiple */
	char *data = pattern(len), *back = malloc(len + 1), err[256];
	struct sniffed s = { .verdict = 1 };
	struct stat st;
	pid_t pid;
	int fd;

	(void)state;
	assert_non_null(back);
	fd = spool_of(pipe_from_child(data, len, &pid), SPOOL_STREAM_MAX, &s, err, sizeof(err));
	waitpid(pid, NULL, 0);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, len);
	assert_int_equal(read(fd, back, len + 1), len);
	assert_memory_equal(back, data, len);
	/* the sniff saw the start once, 64 KiB of it, with its own context */
	assert_int_equal(s.calls, 1);
	assert_int_equal(s.len, 65536);
	assert_memory_equal(s.first, data, 4);
	close(fd);
	free(back);
	free(data);
}

static void the_sniff_refuses_a_stream_by_its_first_bytes(void **state)
{
	char *data = pattern(1000), err[256];
	struct sniffed s = { .verdict = 0 };
	pid_t pid;

	(void)state;
	assert_int_equal(spool_of(pipe_from_child(data, 1000, &pid), SPOOL_STREAM_MAX, &s, err,
				  sizeof(err)), -1);
	waitpid(pid, NULL, 0);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(s.calls, 1);
	assert_int_equal(s.len, 1000);	/* all there was */
	assert_non_null(strstr(err, "not a format sqwave reads (judged from its first 1000 bytes)"));
	free(data);
}

static void a_stream_past_the_bound_is_refused_naming_it(void **state)
{
	const size_t len = 3u << 20;
	char *data = pattern(len), err[256];
	pid_t pid;

	(void)state;
	assert_int_equal(spool_of(pipe_from_child(data, len, &pid), 1u << 20, NULL, err,
				  sizeof(err)), -1);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_int_equal(errno, EFBIG);
	assert_non_null(strstr(err, "more than 1 MiB from a pipe"));
	free(data);
}

static void an_empty_stream_a_device_and_a_directory_are_refused(void **state)
{
	char err[256];
	pid_t pid;

	(void)state;
	assert_int_equal(spool_of(pipe_from_child("", 0, &pid), SPOOL_STREAM_MAX, NULL, err,
				  sizeof(err)), -1);
	waitpid(pid, NULL, 0);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err, "empty input"));
	assert_int_equal(spool_open("/dev/zero", SPOOL_STREAM_MAX, NULL, NULL, err, sizeof(err)), -1);
	assert_int_equal(errno, ENODEV);
	assert_string_equal(err, "/dev/zero: is a character device, not a capture or log file");
	assert_int_equal(spool_open("/", SPOOL_STREAM_MAX, NULL, NULL, err, sizeof(err)), -1);
	assert_int_equal(errno, EISDIR);
}

static void what_is_a_stream(void **state)
{
	(void)state;
	assert_true(spool_is_stream("-"));
	assert_true(spool_is_stream("/dev/null"));
	assert_false(spool_is_stream("/"));
	assert_false(spool_is_stream("tests/unit/test_spool.c"));
	assert_false(spool_is_stream("/nonexistent/sqwave"));	/* its open says why */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_pipe_is_held_whole_and_read_from_its_start),
		cmocka_unit_test(the_sniff_refuses_a_stream_by_its_first_bytes),
		cmocka_unit_test(a_stream_past_the_bound_is_refused_naming_it),
		cmocka_unit_test(an_empty_stream_a_device_and_a_directory_are_refused),
		cmocka_unit_test(what_is_a_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
