/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer entry point for the edge-log reader: any bytes, through the real
 * file path (a memfd), read record by record, then the same file through
 * analyze's source detection and analysis (log, edge list or capture).
 * Build, for example (or `make fuzz`):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Isrc \
 *     tests/fuzz/fuzz_edgelog.c build-fuzz/libsqwave.a -lyaml -lz -lm -pthread
 *   ./a.out -max_len=4096 corpus/
 * Seeds: a short log from `sqwave run`, cut anywhere, makes a good corpus.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyze.h"
#include "edgelog.h"
#include "print.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Records a fuzz input may make us read: bounds the time of one input. */
#define MAX_RECORDS 100000

static void read_log(const char *path)
{
	enum edgelog_status st;
	struct edgelog_reader *r;
	struct edge_rec e;
	char err[256], buf[128];
	unsigned n = 0;

	r = edgelog_reader_open(path, &st, err, sizeof(err));
	if (!r)
		return;
	edgelog_meta_get(edgelog_reader_meta(r), "board.name", buf, sizeof(buf));
	while (n++ < MAX_RECORDS && edgelog_reader_next(r, &e) == 1)
		;
	edgelog_reader_footer(r);
	edgelog_reader_trailing_bytes(r);
	edgelog_reader_close(r);
}

static void analyze_file(const char *path)
{
	struct analyze_opts o = { .worst_n = 4, .missed_list = 4, .hist_buckets = 64 };
	enum analyze_status st;
	struct analyze_source *s;
	struct analysis *a;
	struct edge_rec e;
	char err[512];
	unsigned n = 0;
	FILE *devnull;

	s = analyze_source_open(path, NULL, &st, err, sizeof(err));
	if (!s)
		return;
	a = analysis_new(&o, analyze_source_info(s));
	if (a) {
		while (n++ < MAX_RECORDS && analyze_source_next(s, &e) == 1)
			analysis_add(a, &e);
		analysis_finish(a);
		devnull = fopen("/dev/null", "w");
		if (devnull) {
			analyze_print_text(devnull, a);
			fclose(devnull);
		}
		analysis_free(a);
	}
	analyze_source_close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	print_set_level(PRINT_ERR);
	fd = memfd_create("fuzz.sqwlog", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	read_log(path);
	analyze_file(path);
	close(fd);
	return 0;
}
