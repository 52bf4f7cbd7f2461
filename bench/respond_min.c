// SPDX-License-Identifier: GPL-2.0-or-later
/* The least a responder can do, for `make bench` (bench/respond.py): on
 * sqwave's own gpio layer, read an input's edge events and write each one's
 * level to the output, nothing else (no ring, no log, no recorder thread, no
 * statistics), at SCHED_FIFO with memory locked as `sqwave respond` runs.
 * Per event it keeps the kernel's timestamp, the wake-up and the write
 * window in a preallocated array and writes them as CSV at the end, so that
 * sqwave respond's event -> write begin can be set against the bare cost.
 *
 * Usage: respond_min BOARD OUT.csv EVENTS [--cpu N] [--priority P]
 *        [--no-mlock] [--set KEY=VALUE ...]
 * BOARD is a board file (boards/sim.yaml: the output is gpio.chip/line, the
 * input input.chip/line, the sim's stimulus sim.stim_*). EVENTS counts
 * events after the first 100 ms, which like sqwave respond's lead-in are
 * not kept. Exit 0, 1 when no event came for 2 s, 2 on bad usage or setup. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "config/yamlcfg.h"
#include "gpio/gpio_in.h"
#include "gpio/gpio_out.h"

#define LEAD_NS 100000000ull   /* as the run session's RUN_LEAD_NS */
#define BATCH 16               /* as rt/respond.h's RESPOND_BATCH */
#define IDLE_NS 2000000000ll   /* no event this long: the stimulus stopped */

struct sample {
	uint64_t event, wake, begin, end;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The loop alone, not inlined: bench/respond.py's callgrind counts the
 * instructions under this function per event. Returns the events kept, or
 * -1 (errno) when a read or write failed. */
__attribute__((noinline)) static long respond_min_loop(struct gpio_in *in, struct gpio_out *out,
							struct sample *s, long n, uint64_t start)
{
	struct gpio_in_event ev[BATCH];
	uint64_t last = now_ns();
	long kept = 0;

	while (kept < n) {
		int got = gpio_in_read(in, ev, BATCH, IDLE_NS);
		uint64_t wake = now_ns();

		if (got < 0)
			return -1;
		/* 0 can come early (the sim's eventfd stays readable after a
		 * read that raced its writer took the event): stop only after
		 * a real silence. */
		if (got == 0) {
			if (wake - last >= (uint64_t)IDLE_NS)
				break;
			continue;
		}
		last = wake;
		for (int i = 0; i < got; i++) {
			uint64_t b = now_ns();

			if (gpio_out_set(out, ev[i].rising ? 1 : 0) < 0)
				return -1;
			if (ev[i].t_ns < start || kept == n)
				continue;
			s[kept] = (struct sample){ ev[i].t_ns, wake, b, now_ns() };
			kept++;
		}
	}
	return kept;
}

static int usage(void)
{
	fprintf(stderr, "usage: respond_min BOARD OUT.csv EVENTS [--cpu N] [--priority P] "
		"[--no-mlock] [--set KEY=VALUE ...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	char err[512];
	int cpu = -1, prio = 90, lock = 1;
	struct config *c;
	struct gpio_out_spec os;
	struct gpio_in_spec is;
	struct gpio_out *out;
	struct gpio_in *in;
	struct sample *s;
	long n, kept;
	int dma;
	FILE *f;

	if (argc < 4 || (n = atol(argv[3])) <= 0)
		return usage();
	c = config_new();
	if (!c || yamlcfg_load(c, argv[1], CFG_SRC_BOARD, err, sizeof(err)) != YAMLCFG_OK) {
		fprintf(stderr, "respond_min: %s\n", c ? err : strerror(errno));
		return 2;
	}
	for (int i = 4; i < argc; i++) {
		if (!strcmp(argv[i], "--cpu") && i + 1 < argc) {
			cpu = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--priority") && i + 1 < argc) {
			prio = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--no-mlock")) {
			lock = 0;
		} else if (!strcmp(argv[i], "--set") && i + 1 < argc) {
			char *kv = argv[++i], *eq = strchr(kv, '=');
			int key;

			if (!eq)
				return usage();
			*eq = '\0';
			key = config_lookup(kv);
			if (key < 0 || config_set(c, (enum cfg_key)key, eq + 1, CFG_SRC_CMDLINE,
						  NULL, 0, err, sizeof(err)) != CFG_OK) {
				fprintf(stderr, "respond_min: %s\n", key < 0 ? "unknown key" : err);
				return 2;
			}
		} else {
			return usage();
		}
	}

	/* Everything that allocates first, as the run session does: the
	 * lines (the sim's stimulus thread starts with the input), the array. */
	gpio_out_spec_from_config(c, &os);
	os.consumer = "respond_min";
	out = gpio_out_open(&os, err, sizeof(err));
	if (!out) {
		fprintf(stderr, "respond_min: output: %s\n", err);
		return 2;
	}
	is = (struct gpio_in_spec){
		.backend = os.backend,
		.chip = config_str(c, CFG_INPUT_CHIP),
		.line = config_str(c, CFG_INPUT_LINE),
		.consumer = "respond_min",
		.edges = true,
		.event_buffer = 1024,
		.config = c,
	};
	in = gpio_in_open(&is, err, sizeof(err));
	if (!in) {
		fprintf(stderr, "respond_min: input: %s\n", err);
		return 2;
	}
	s = calloc((size_t)n, sizeof(*s));
	if (!s) {
		fprintf(stderr, "respond_min: %s\n", strerror(errno));
		return 2;
	}
	memset(s, 0, (size_t)n * sizeof(*s));   /* touched before it is locked */

	/* Then this thread becomes the RT thread: pinned, SCHED_FIFO, memory
	 * locked (the sim's stimulus thread keeps its own placement, as under
	 * sqwave respond). */
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			perror("respond_min: sched_setaffinity");
			return 2;
		}
	}
	if (lock && mlockall(MCL_CURRENT | MCL_FUTURE) < 0) {
		perror("respond_min: mlockall");
		return 2;
	}
	if (sched_setscheduler(0, SCHED_FIFO, &(struct sched_param){ .sched_priority = prio }) < 0) {
		perror("respond_min: SCHED_FIFO");
		return 2;
	}
	/* rt.dma_latency's default, 0 us, held while the loop runs (where the
	 * file is missing, sqwave goes on without it too). */
	dma = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
	if (dma >= 0 && write(dma, &(int32_t){ 0 }, sizeof(int32_t)) != sizeof(int32_t)) {
		close(dma);
		dma = -1;
	}

	kept = respond_min_loop(in, out, s, n, now_ns() + LEAD_NS);
	if (kept < 0) {
		perror("respond_min: line");
		return 2;
	}
	gpio_in_close(in);
	gpio_out_close(out);
	if (dma >= 0)
		close(dma);

	f = fopen(argv[2], "w");
	if (!f) {
		perror(argv[2]);
		return 2;
	}
	fprintf(f, "event_ns,wake_ns,write_begin_ns,write_end_ns\n");
	for (long i = 0; i < kept; i++)
		fprintf(f, "%llu,%llu,%llu,%llu\n", (unsigned long long)s[i].event,
			(unsigned long long)s[i].wake, (unsigned long long)s[i].begin,
			(unsigned long long)s[i].end);
	if (fclose(f) != 0) {
		perror(argv[2]);
		return 2;
	}
	free(s);
	config_free(c);
	return kept == n ? 0 : 1;
}
