/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer entry point for the edge-list CSV reader: the bytes are the file
 * (a memfd), the last one also picks the half period (given or inferred); read
 * edge by edge into edgestats as analyze does. Build with `make fuzz`; seeds:
 * tests/data/logs/ (logs and edge lists that once broke sqwave's contract). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "log/edgelist.h"
#include "stats/edgestats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Edges a fuzz input may make us read: bounds the time of one input. */
#define MAX_EDGES 100000

static const int64_t halves[] = { 0, 500000, 1, 1000000000, 7 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum edgelist_status st;
	struct edgelist *l;
	struct edgestats *es;
	struct edge_rec e;
	char path[64], err[512];
	unsigned n = 0;
	int fd;

	edgelist_sniff((const char *)data, size);
	fd = memfd_create("fuzz.csv", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	l = edgelist_open(path, halves[size ? data[size - 1] % 5 : 0], &st, err, sizeof(err));
	if (l) {
		es = edgestats_new(edgelist_info(l)->half_period_ns);
		while (n++ < MAX_EDGES && edgelist_next(l, &e) == 1)
			if (es)
				edgestats_add(es, &e);
		edgelist_error(l, &st);
		if (es)
			edgestats_result(es);
		edgestats_free(es);
		edgelist_close(l);
	}
	close(fd);
	return 0;
}
