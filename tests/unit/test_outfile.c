/* SPDX-License-Identifier: GPL-2.0-or-later */
/* outfile: an output is never an input (whatever it is called), never a
 * log, never another output; failed writes are reported; text from files is
 * made terminal-safe; the CSV number writer agrees with printf. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "base/outfile.h"

static char dir[] = "/tmp/sqwave-test-outfile.XXXXXX";

static const char *in_dir(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static void make(const char *name, const char *content)
{
	FILE *f = fopen(in_dir(name), "w");

	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int check1(const char *out, const char *in, bool keeps_old, char *err, size_t len)
{
	const struct outfile_arg outs[] = { { "--csv", out, keeps_old } };
	const struct outfile_arg ins[] = { { "the input", in, false } };

	return outfile_check(outs, 1, ins, 1, false, err, len);
}

static void an_output_that_is_the_input_under_any_name_is_refused(void **state)
{
	char err[512], rel[300];

	(void)state;
	make("cap.vcd", "$timescale 1ns $end\n");
	assert_int_equal(check1(in_dir("cap.vcd"), in_dir("cap.vcd"), false, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "refusing to overwrite"));
	assert_int_equal(link(in_dir("cap.vcd"), in_dir("hard.vcd")), 0);
	assert_int_equal(check1(in_dir("hard.vcd"), in_dir("cap.vcd"), false, err, sizeof(err)), -1);
	assert_int_equal(symlink(in_dir("cap.vcd"), in_dir("soft.vcd")), 0);
	assert_int_equal(check1(in_dir("soft.vcd"), in_dir("cap.vcd"), false, err, sizeof(err)), -1);
	snprintf(rel, sizeof(rel), "%s/./../%s/cap.vcd", dir, strrchr(dir, '/') + 1);
	assert_int_equal(check1(rel, in_dir("cap.vcd"), false, err, sizeof(err)), -1);
	/* another file, and a file not there yet, are fine */
	make("other.csv", "x\n");
	assert_int_equal(check1(in_dir("other.csv"), in_dir("cap.vcd"), false, err, sizeof(err)), 0);
	assert_int_equal(check1(in_dir("new.csv"), in_dir("cap.vcd"), false, err, sizeof(err)), 0);
	/* nothing was written or removed */
	assert_int_equal(access(in_dir("cap.vcd"), R_OK), 0);
}

static void two_outputs_naming_one_file_are_refused_even_before_it_exists(void **state)
{
	const struct outfile_arg outs[] = { { "--log", NULL, true }, { "--json", NULL, false } };
	struct outfile_arg o[2] = { outs[0], outs[1] };
	char err[512], other[300];

	(void)state;
	o[0].path = in_dir("x");
	snprintf(other, sizeof(other), "%s/./x", dir);
	o[1].path = other;
	assert_int_equal(outfile_check(o, 2, NULL, 0, false, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--log and --json name the same file"));
	o[1].path = in_dir("y");
	assert_int_equal(outfile_check(o, 2, NULL, 0, false, err, sizeof(err)), 0);
	o[1].path = NULL;	/* not given */
	assert_int_equal(outfile_check(o, 2, NULL, 0, false, err, sizeof(err)), 0);
}

static void two_outputs_on_standard_output_are_refused_naming_both(void **state)
{
	struct outfile_arg o[3] = { { "--json", "-", false }, { "--csv", NULL, false },
				    { "--meta", "-", false } };
	char err[512] = "";

	(void)state;
	assert_int_equal(outfile_check(o, 3, NULL, 0, true, err, sizeof(err)), -1);
	assert_string_equal(err, "--json and --meta both write to standard output: only one "
			    "output can be standard output (-); give the other a file");
	o[2].path = NULL;	/* one on standard output, one not given */
	o[1].path = in_dir("out.csv");
	assert_int_equal(outfile_check(o, 3, NULL, 0, true, err, sizeof(err)), 0);
	o[2].path = "";		/* "" is not given either */
	assert_int_equal(outfile_check(o, 3, NULL, 0, true, err, sizeof(err)), 0);
}

static void an_existing_log_is_no_output_except_for_the_log_itself(void **state)
{
	char err[512];

	(void)state;
	make("old.sqwlog", "SQWAVLOG and the rest of a log");
	assert_int_equal(check1(in_dir("old.sqwlog"), NULL, false, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is a sqwave log"));
	assert_int_equal(check1(in_dir("old.sqwlog"), NULL, true, err, sizeof(err)), 0);
}

static void standard_output_into_an_input_is_refused(void **state)
{
	const struct outfile_arg ins[] = { { "the log", NULL, false } };
	struct outfile_arg in = ins[0];
	char err[512];
	int saved, fd, rc;

	(void)state;
	make("run.sqwlog", "data");
	in.path = in_dir("run.sqwlog");
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	fd = open(in.path, O_WRONLY | O_APPEND);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, STDOUT_FILENO);	/* sqwave ... >> run.sqwlog */
	rc = outfile_check(NULL, 0, &in, 1, true, err, sizeof(err));
	dup2(saved, STDOUT_FILENO);
	close(fd);
	close(saved);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "standard output goes to"));
	assert_int_equal(outfile_check(NULL, 0, &in, 1, true, err, sizeof(err)), 0);
}

static void a_failed_write_is_reported_at_close(void **state)
{
	char err[256];
	FILE *f;

	(void)state;
	f = outfile_open("/dev/full", err, sizeof(err));
	assert_non_null(f);
	fputs("a summary nobody will read\n", f);
	assert_int_equal(outfile_close(f, "/dev/full", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/dev/full"));
	assert_null(outfile_open(in_dir("no/such/dir.csv"), err, sizeof(err)));
	assert_non_null(strstr(err, "cannot create"));
}

/* A write that fails leaves no part of the file, which a reader would take
 * for the whole document (a file-size limit stands for a full disk); a
 * device is never removed. */
static void a_failed_write_leaves_no_part_of_the_file(void **state)
{
	struct rlimit old, lim;
	char err[256], block[8192];
	struct outfile_buf *o;
	FILE *f;

	(void)state;
	memset(block, 'x', sizeof(block));
	signal(SIGXFSZ, SIG_IGN);	/* EFBIG instead of the signal */
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 1000;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	f = outfile_open(in_dir("doc.json"), err, sizeof(err));
	assert_non_null(f);
	fwrite(block, 1, sizeof(block), f);
	assert_int_equal(outfile_close(f, in_dir("doc.json"), err, sizeof(err)), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(access(in_dir("doc.json"), F_OK), -1);
	assert_non_null(strstr(err, "the partial file is removed"));
	/* the buffered writer too */
	o = outfile_buf_open(in_dir("rows.csv"), err, sizeof(err));
	assert_non_null(o);
	outfile_buf_str(o, block, sizeof(block));
	assert_int_equal(outfile_buf_close(o, in_dir("rows.csv"), err, sizeof(err)), -1);
	assert_int_equal(access(in_dir("rows.csv"), F_OK), -1);
	assert_non_null(strstr(err, "File too large"));
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	/* a full device is said, and stays */
	f = outfile_open("/dev/full", err, sizeof(err));
	assert_non_null(f);
	fwrite(block, 1, sizeof(block), f);
	assert_int_equal(outfile_close(f, "/dev/full", err, sizeof(err)), -1);
	assert_int_equal(access("/dev/full", F_OK), 0);
	assert_null(strstr(err, "removed"));
}

/* What outfile_open() would refuse is said before anything is made: a
 * name in no directory, a directory; creating nothing. */
static void whether_an_output_can_be_created_is_known_without_creating_it(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(outfile_creatable(NULL, err, sizeof(err)), 0);
	assert_int_equal(outfile_creatable("-", err, sizeof(err)), 0);
	assert_int_equal(outfile_creatable(in_dir("new.json"), err, sizeof(err)), 0);
	assert_int_equal(access(in_dir("new.json"), F_OK), -1);
	make("old.json", "{}");
	assert_int_equal(outfile_creatable(in_dir("old.json"), err, sizeof(err)), 0);
	assert_int_equal(outfile_creatable("/dev/null", err, sizeof(err)), 0);
	errno = 0;
	assert_int_equal(outfile_creatable(in_dir("nodir/x.json"), err, sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "cannot create"));
	assert_non_null(strstr(err, "nodir/x.json: No such file or directory"));
	assert_int_equal(outfile_creatable(dir, err, sizeof(err)), -1);
	assert_int_equal(errno, EISDIR);
}

/* The buffered writer is open or absent, never allocated and not open: a
 * command that stops before opening it closes NULL, which is nothing. */
static void a_buffered_writer_is_open_or_absent_never_half(void **state)
{
	char err[256];
	struct outfile_buf *o;
	FILE *f;
	char got[32] = "";

	(void)state;
	assert_int_equal(outfile_buf_close(NULL, "unused.csv", err, sizeof(err)), 0);
	errno = 0;
	assert_null(outfile_buf_open(in_dir("no/such/dir.csv"), err, sizeof(err)));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "cannot create"));
	/* what it wrote, and a failed write said at the close with its errno */
	o = outfile_buf_open(in_dir("w.csv"), err, sizeof(err));
	assert_non_null(o);
	outfile_buf_str(o, "a,b\n", 4);
	outfile_buf_u64(o, 42);
	assert_int_equal(outfile_buf_close(o, in_dir("w.csv"), err, sizeof(err)), 0);
	f = fopen(in_dir("w.csv"), "r");
	assert_non_null(f);
	assert_int_equal(fread(got, 1, sizeof(got) - 1, f), 6);
	fclose(f);
	assert_string_equal(got, "a,b\n42");
	o = outfile_buf_open("/dev/full", err, sizeof(err));
	assert_non_null(o);
	outfile_buf_str(o, "lost\n", 5);
	assert_int_equal(outfile_buf_close(o, "/dev/full", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "writing /dev/full failed: No space left on device"));
}

static void control_characters_never_reach_the_terminal(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(outfile_escape("evil\x1b]0;pwned\x07 board", buf, sizeof(buf)),
			    "evil\\x1b]0;pwned\\x07 board");
	assert_string_equal(outfile_escape("tab\there\r\x7f", buf, sizeof(buf)),
			    "tab\\x09here\\x0d\\x7f");
	assert_string_equal(outfile_escape("caf\xc3\xa9 ok", buf, sizeof(buf)), "caf\xc3\xa9 ok");
	/* a lone 0x9b is CSI on an 8-bit terminal; U+009B is CSI as UTF-8 */
	assert_string_equal(outfile_escape("\x9b" "6n \xc2\x9b" "6n \xe2\x82", buf, sizeof(buf)),
			    "\\x9b6n \\xc2\\x9b6n \\xe2\\x82");
	/* cut to the buffer, never an escape cut in half */
	assert_string_equal(outfile_escape("\x1b\x1b\x1b", buf, 10), "\\x1b\\x1b");
	assert_string_equal(outfile_escape(NULL, buf, sizeof(buf)), "");
}

static void the_number_writer_agrees_with_printf(void **state)
{
	static const uint64_t edge_u[] = { 0, 9, 10, 99, 100, 101, 999999, 1000000,
					   UINT64_MAX, UINT64_MAX - 1, 10000000000000000000ull };
	static const int64_t edge_i[] = { 0, -1, 1, INT64_MIN, INT64_MAX, -100, -99 };
	struct outfile_buf *o = malloc(sizeof(*o));
	char *out = NULL, want[64];
	size_t len = 0, i;
	unsigned seed = (unsigned)time(NULL);
	FILE *f = open_memstream(&out, &len);

	(void)state;
	assert_non_null(o);
	assert_non_null(f);
	print_message("seed %u\n", seed);
	srand(seed);
	for (i = 0; i < 3000; i++) {
		uint64_t u = i < 11 ? edge_u[i]
				    : ((uint64_t)rand() << 33) ^ ((uint64_t)rand() << 11) ^ (uint64_t)rand();
		int64_t v = i < 7 ? edge_i[i] : (int64_t)u >> (i % 60);

		outfile_buf_init(o, f);
		outfile_buf_u64(o, u >> (i % 64));
		outfile_buf_c(o, ',');
		outfile_buf_i64(o, v);
		outfile_buf_flush(o);
		fflush(f);
		snprintf(want, sizeof(want), "%" PRIu64 ",%" PRId64, u >> (i % 64), v);
		assert_int_equal(len, strlen(want));
		assert_memory_equal(out, want, len);
		rewind(f);
	}
	fclose(f);
	free(out);
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_output_that_is_the_input_under_any_name_is_refused),
		cmocka_unit_test(two_outputs_naming_one_file_are_refused_even_before_it_exists),
		cmocka_unit_test(two_outputs_on_standard_output_are_refused_naming_both),
		cmocka_unit_test(an_existing_log_is_no_output_except_for_the_log_itself),
		cmocka_unit_test(standard_output_into_an_input_is_refused),
		cmocka_unit_test(a_failed_write_is_reported_at_close),
		cmocka_unit_test(whether_an_output_can_be_created_is_known_without_creating_it),
		cmocka_unit_test(a_buffered_writer_is_open_or_absent_never_half),
		cmocka_unit_test(a_failed_write_leaves_no_part_of_the_file),
		cmocka_unit_test(control_characters_never_reach_the_terminal),
		cmocka_unit_test(the_number_writer_agrees_with_printf),
	};

	return cmocka_run_group_tests_name("outfile", tests, setup, teardown);
}
