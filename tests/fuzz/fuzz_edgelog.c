/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer entry point for the edge-log reader: any bytes, through the real
 * file path (a memfd), read record by record, then the same file through
 * analyze's source detection and analysis (log, edge list or capture).
 * Build, for example (or `make fuzz`):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Isrc/board -Isrc/lab -Isrc \
 *     tests/fuzz/fuzz_edgelog.c build-fuzz/libsqwave-lab.a build-fuzz/libsqwave-board.a -lyaml -lz -lm -pthread
 *   ./a.out -max_len=4096 corpus/
 * Seeds: tests/data/logs/ (small logs and edge lists, each a class of
 * hostile input that once broke the contract: tests/hostile/README.md).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "stats/analyze.h"
#include "summary/analysisdoc.h"
#include "log/edgelog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Records a fuzz input may make us read: bounds the time of one input. */
#define MAX_RECORDS 100000

static void read_log(const char *path, int mode)
{
	enum edgelog_status st;
	struct edgelog_reader *r;
	struct edgelog_event ev;
	const struct edge_rec *recs;
	struct edge_rec e;
	char err[256], buf[128];
	unsigned n = 0;
	long k;
	int rc;

	r = edgelog_reader_open(path, &st, err, sizeof(err));
	if (!r)
		return;
	edgelog_meta_get(edgelog_reader_meta(r), "board.name", buf, sizeof(buf));
	edgelog_reader_set_checked(r, mode != 1);
	if (mode == 2) {
		while (n < MAX_RECORDS && (k = edgelog_reader_next_batch(r, &recs, 1000)) > 0)
			n += (unsigned)k;
	} else {
		while (n++ < MAX_RECORDS && (rc = edgelog_reader_next_item(r, &e, &ev)) > 0)
			if (rc == 2)
				edgelog_event_get(&ev, "name", buf, sizeof(buf));
	}
	edgelog_reader_error(r, &st);
	edgelog_reader_footer(r);
	edgelog_reader_trailing_bytes(r);
	edgelog_reader_zero_bytes(r);
	edgelog_reader_events(r, 0);
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
		if (n == 0 && analyze_source_info(s)->kind == ANALYZE_SRC_LOG)
			analysis_feed(a, s);	/* the two-thread path */
		while (n++ < MAX_RECORDS && analyze_source_next(s, &e) == 1)
			analysis_add(a, &e);
		analysis_finish(a);
		devnull = fopen("/dev/null", "w");
		if (devnull) {
			analysisdoc_print_text(devnull, a);
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

	fd = memfd_create("fuzz.sqwlog", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	read_log(path, size ? data[size - 1] % 3 : 0);
	analyze_file(path);
	close(fd);
	return 0;
}
