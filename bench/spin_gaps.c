// SPDX-License-Identifier: GPL-2.0-or-later
/* What a spin to the deadline cannot beat: read CLOCK_MONOTONIC in a tight
 * loop on one CPU at SCHED_FIFO, as `sqwave run --spin` does, and print every
 * gap between two consecutive reads longer than a threshold (the thread was
 * not running: an interrupt, the scheduler tick, or the hypervisor). It
 * sleeps 2 ms every 20 ms so that RT throttling never cuts in.
 * Usage: spin_gaps CPU PRIORITY SECONDS THRESHOLD_NS
 * Prints "gap END_NS LENGTH_NS" per gap, then "reads N ns_per_read X
 * spun_ns S". */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	struct sched_param sp;
	cpu_set_t set;
	uint64_t end, t, prev, burst_end, reads = 0, spun = 0, thr;
	/* gaps are kept, not printed, while spinning: a write would be a gap */
	enum { MAXGAPS = 1 << 20 };
	static uint64_t gap_end[MAXGAPS], gap_len[MAXGAPS];
	size_t ngaps = 0, i;

	if (argc != 5) {
		fprintf(stderr, "usage: spin_gaps CPU PRIORITY SECONDS THRESHOLD_NS\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[1]), &set);
	sp.sched_priority = atoi(argv[2]);
	thr = strtoull(argv[4], NULL, 10);
	if (sched_setaffinity(0, sizeof(set), &set) || sched_setscheduler(0, SCHED_FIFO, &sp) ||
	    mlockall(MCL_CURRENT | MCL_FUTURE)) {
		perror("spin_gaps: setup");
		return 3;
	}
	end = now() + (uint64_t)(atof(argv[3]) * 1e9);
	do {
		prev = now();
		burst_end = prev + 18000000ull;
		do {
			t = now();
			reads++;
			if (t - prev > thr && ngaps < MAXGAPS) {
				gap_end[ngaps] = t;
				gap_len[ngaps++] = t - prev;
			}
			prev = t;
		} while (t < burst_end);
		spun += 18000000ull;
		nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
	} while (t < end);
	for (i = 0; i < ngaps; i++)
		printf("gap %llu %llu\n", (unsigned long long)gap_end[i],
		       (unsigned long long)gap_len[i]);
	printf("reads %llu ns_per_read %.1f spun_ns %llu\n", (unsigned long long)reads,
	       (double)spun / (double)reads, (unsigned long long)spun);
	return 0;
}
