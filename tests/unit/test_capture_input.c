/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for how captures are read (src/lab/capture/capture.c): standard input, pipes,
 * devices, the size bound, and a file truncated while it is mapped. */
#include "capture_test_util.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

/* A VCD with @edges edges of one signal, every 100 ns. */
static char *vcd_text(size_t edges, size_t *len)
{
	size_t cap = 128 + edges * 24, n;
	char *s = malloc(cap);

	assert_non_null(s);
	n = (size_t)sprintf(s, "$timescale 1 ns $end $scope module t $end $var wire 1 ! a $end "
			    "$upscope $end $enddefinitions $end\n#0 0!\n");
	for (size_t i = 1; i <= edges; i++)
		n += (size_t)sprintf(s + n, "#%zu %d!\n", i * 100, (int)(i & 1));
	*len = n;
	return s;
}

/* A child writing @len bytes of @data (or zeros forever if @data is NULL)
 * into the write end of a pipe; returns the read end. */
static int pipe_from_child(const char *data, size_t len, pid_t *pid)
{
	int fd[2];

	assert_int_equal(pipe(fd), 0);
	*pid = fork();
	assert_true(*pid >= 0);
	if (*pid == 0) {
		static char zeros[65536];

		close(fd[0]);
		signal(SIGPIPE, SIG_DFL);
		if (data) {
			while (len) {
				ssize_t w = write(fd[1], data, len);

				if (w <= 0)
					_exit(1);
				data += w;
				len -= (size_t)w;
			}
		} else {
			for (;;)
				if (write(fd[1], zeros, sizeof(zeros)) <= 0)
					_exit(0);
		}
		_exit(0);
	}
	close(fd[1]);
	return fd[0];
}

static void standard_input_from_a_pipe_is_read_whole(void **state)
{
	size_t len;
	char *text = vcd_text(100000, &len);   /* 1 MB: many pipe buffers */
	pid_t pid;
	int rd = pipe_from_child(text, len, &pid), saved = dup(0);
	struct capture *c;
	struct edges x;

	(void)state;
	assert_int_equal(dup2(rd, 0), 0);
	close(rd);
	c = t_open("-", NULL);
	dup2(saved, 0);
	close(saved);
	waitpid(pid, NULL, 0);
	if (!c)
		fail_msg("%s", t_error());
	assert_string_equal(capture_info(c)->path, "<stdin>");
	x = edges_read(c);
	assert_int_equal(x.n, 100000);
	assert_int_equal(x.e[99999].t_ps, 100000 * 100 * PS_PER_NS);
	edges_free(&x);
	capture_close(c);
	free(text);
}

static void a_named_pipe_is_read_like_a_file(void **state)
{
	char dir[] = "/tmp/sqwave-fifo-XXXXXX", path[64];
	size_t len;
	char *text = vcd_text(5000, &len);
	pid_t pid;
	struct capture *c;
	struct edges x;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/cap.vcd", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_true(capture_path_is_stream(path));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(path, O_WRONLY);

		if (fd < 0 || write(fd, text, len) != (ssize_t)len)
			_exit(1);
		_exit(0);
	}
	c = t_open(path, NULL);
	waitpid(pid, NULL, 0);
	if (!c)
		fail_msg("%s", t_error());
	x = edges_read(c);
	assert_int_equal(x.n, 5000);
	edges_free(&x);
	capture_close(c);
	unlink(path);
	rmdir(dir);
	free(text);
}

static void devices_are_refused_at_once(void **state)
{
	(void)state;
	assert_null(t_open("/dev/zero", NULL));
	assert_int_equal(errno, ENODEV);
	assert_true(error_mentions("character device"));
	assert_false(capture_path_is_stream("tests/unit/test_capture_input.c"));
	assert_true(capture_path_is_stream("-"));
	assert_true(capture_path_is_stream("/dev/null"));
}

static void garbage_from_a_pipe_is_refused_after_its_first_bytes(void **state)
{
	pid_t pid;
	int rd = pipe_from_child(NULL, 0, &pid), saved = dup(0);
	struct capture *c;

	(void)state;
	/* zeros without end: a bound of 512 MiB would take seconds to reach;
	 * the start already says this is nothing sqwave reads */
	assert_int_equal(dup2(rd, 0), 0);
	close(rd);
	c = t_open("-", NULL);
	dup2(saved, 0);
	close(saved);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_null(c);
	assert_int_equal(errno, EINVAL);
	assert_true(error_mentions("not a format sqwave reads"));
}

static void a_stream_beyond_the_bound_is_refused_with_the_bound(void **state)
{
	size_t len;
	char *text = vcd_text(200000, &len);   /* 2.5 MB */
	pid_t pid;
	int rd = pipe_from_child(text, len, &pid), saved = dup(0), fd;
	char err[512];

	(void)state;
	assert_int_equal(dup2(rd, 0), 0);
	close(rd);
	fd = capture_spool("-", 1 << 20, capture_probe_any, err, sizeof(err));
	dup2(saved, 0);
	close(saved);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_int_equal(fd, -1);
	assert_int_equal(errno, EFBIG);
	assert_non_null(strstr(err, "more than 1 MiB"));
	free(text);
}

static void a_file_truncated_while_mapped_is_an_error_not_a_sigbus(void **state)
{
	size_t len, n = 0;
	char *text, *path;
	struct capture *c;
	struct capture_edge e;
	int r;

	(void)state;
	/* qemu-user cannot deliver the SIGBUS of a truncated mapping (the test
	 * hangs there): this one runs natively only. */
	if (getenv("SQW_UNDER_EMULATION")) {
		printf("    (under qemu-user: skipped, it cannot emulate the SIGBUS)\n");
		return;
	}
	text = vcd_text(400000, &len);   /* 5 MB */
	path = tmpfile_with(text, len, ".vcd");
	c = t_open(path, NULL);
	assert_non_null(c);
	while (n < 1000 && capture_next_edge(c, &e) == 1)
		n++;
	/* someone else cuts the file short under the mapping */
	assert_int_equal(truncate(path, 4096), 0);
	while ((r = capture_next_edge(c, &e)) == 1)
		n++;
	assert_int_equal(r, -1);
	assert_non_null(strstr(capture_error(c), "changed"));
	assert_true(n < 400000);
	/* and it stays an error */
	assert_int_equal(capture_next_edge(c, &e), -1);
	capture_close(c);
	/* a later capture of the same (now short) file works */
	c = t_open(path, NULL);
	assert_non_null(c);
	capture_close(c);
	unlink(path);
	free(path);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(standard_input_from_a_pipe_is_read_whole),
		cmocka_unit_test(a_named_pipe_is_read_like_a_file),
		cmocka_unit_test(devices_are_refused_at_once),
		cmocka_unit_test(garbage_from_a_pipe_is_refused_after_its_first_bytes),
		cmocka_unit_test(a_stream_beyond_the_bound_is_refused_with_the_bound),
		cmocka_unit_test(a_file_truncated_while_mapped_is_an_error_not_a_sigbus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
