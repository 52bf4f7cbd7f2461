/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A logic analyzer driven through libsigrok's C API, streamed to a VCD of
 * edges, with what it covered: samples, edges, interruptions, span. */
#ifndef SQW_SIGROK_SESSION_H
#define SQW_SIGROK_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "instrument/sigrok_vcd.h"

#define SIGROK_MAX_CONFIG 16
#define SIGROK_MAX_INTR 64

/* What to capture. Strings are borrowed for the call of sigrok_capture_open(). */
struct sigrok_opts {
	const char *driver;        /* "fx2lafw", "demo", "fx2lafw:conn=1.5" (scan
				    * options after ':', separated by ':') */
	const char *channels;      /* "D0,D7" (names or indices); NULL: every logic channel */
	uint64_t samplerate_hz;    /* 0: the device's current rate */
	double threshold_v;        /* with has_threshold: the logic threshold */
	bool has_threshold;
	double duration_s;         /* 0: until sigrok_capture_stop() */
	const char *trigger;       /* "D7=r,D6=1" (0 1 r f e); NULL: none */
	const char *config[SIGROK_MAX_CONFIG]; /* KEY=VALUE device options ("pattern=incremental"):
				    * set on the device, else on each channel group that takes it */
	size_t nconfig;
	const char *output;        /* the VCD to write */
	/* A test hook (docs/instruments.md): lose samples [drop_from,
	 * drop_from + drop_len) as a USB overrun would, and mark them as an
	 * interruption. drop_len 0: none. */
	uint64_t drop_from, drop_len;
};

/* A stretch the analyzer did not see, in samples from the capture's first. */
struct sigrok_intr {
	uint64_t from, len;        /* len 0: to the end (the device stopped) */
	char why[96];
};

/* What the capture saw. Filled by sigrok_capture_open() (device, channels,
 * rate) and sigrok_capture_finish() (the rest). */
struct sigrok_result {
	char driver[32];
	char device[160];          /* vendor model version, and connection */
	char libsigrok[16];        /* the library's version */
	uint64_t rate_hz;
	unsigned nch;
	char names[SIGROK_VCD_MAXCH][32];
	uint64_t edges[SIGROK_VCD_MAXCH];
	uint64_t samples;          /* the span in samples: seen + lost */
	uint64_t lost;             /* samples in interruptions */
	uint64_t wanted;           /* samples asked for (duration x rate); 0: open-ended */
	struct sigrok_intr intr[SIGROK_MAX_INTR];
	size_t nintr;              /* interruptions (only the first SIGROK_MAX_INTR listed) */
	struct timespec start_rt;  /* CLOCK_REALTIME at the acquisition's start */
	struct timespec end_rt;
	bool stopped;              /* by sigrok_capture_stop() (a signal) */
	bool ended_early;          /* the device ended before the duration */
	char end_why[160];         /* the device's last message when it did */
};

/* Progress, readable from any thread while the capture runs. */
struct sigrok_progress {
	uint64_t samples, edges, lost, intr;
	uint64_t rate_hz;
};

struct sigrok_capture;

/*
 * Open the device (scan with the driver's options, the first device
 * found), enable the channels, set samplerate, threshold, options and
 * trigger, create the output file and write its header. Returns the
 * capture, or NULL with a sentence in @err and *@usage true when the
 * request was wrong (an unknown driver, channel or option; no device; a
 * build without libsigrok), false for I/O. Main thread; free with
 * sigrok_capture_free().
 */
struct sigrok_capture *sigrok_capture_open(const struct sigrok_opts *o, bool *usage, char *err,
					   size_t errlen);

/* Run the acquisition until the duration is reached, the device ends or
 * sigrok_capture_stop() is called. Blocks; samples become edges in the
 * file as they arrive. 0, or -1 with a sentence in @err. */
int sigrok_capture_run(struct sigrok_capture *c, char *err, size_t errlen);

/* Ask the running capture to stop. Safe from any thread (not from a
 * signal handler); a capture not yet running stops at its first packet. */
void sigrok_capture_stop(struct sigrok_capture *c);

/* A snapshot of the counters. Safe from any thread. */
void sigrok_capture_progress(const struct sigrok_capture *c, struct sigrok_progress *p);

/* Close the file (its end and the facts as a $comment) and fill @r.
 * 0, or -1 with a sentence in @err (a write failed: the file may be cut). */
int sigrok_capture_finish(struct sigrok_capture *c, struct sigrok_result *r, char *err,
			  size_t errlen);

/* The device's connection as libsigrok names it ("3-1.2" for a USB
 * device on bus 3), or NULL. Owned by the capture. */
const char *sigrok_capture_connid(const struct sigrok_capture *c);

/* Close the device and free. NULL is ignored. */
void sigrok_capture_free(struct sigrok_capture *c);

/* The version of the libsigrok this build drives analyzers with (the
 * library loaded at run time: a static string, not to be freed), or NULL
 * in a build without libsigrok. Any thread. */
const char *sigrok_version(void);

#endif
