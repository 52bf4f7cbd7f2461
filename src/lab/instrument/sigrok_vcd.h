/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The file `sqwave capture` writes: a VCD of edges only, one wire per
 * channel, x on every wire over each stretch the instrument did not see. */
#ifndef SQW_SIGROK_VCD_H
#define SQW_SIGROK_VCD_H

#include <stdint.h>
#include <stdio.h>

#define SIGROK_VCD_MAXCH 64

/*
 * One writer per capture, used by one thread (the acquisition's). Times
 * are sample indices: the writer turns them into the $timescale it chose
 * from the samplerate (the largest unit that holds a sample period
 * exactly, else 1 ps rounded; the $comment states the samplerate, from
 * which capture_vcd snaps times back to the sample grid). Output goes
 * through a 1 MiB stdio buffer; the first write failure is kept and
 * reported by sigrok_vcd_close().
 */
struct sigrok_vcd {
	FILE *f;
	char *buf;
	unsigned nch;
	unsigned bit[SIGROK_VCD_MAXCH];     /* channel k's bit in a sample */
	char id[SIGROK_VCD_MAXCH][3];       /* its VCD identifier */
	uint64_t rate_hz;
	uint64_t ticks_per_sample;          /* 0: 1 ps ticks, rounded */
	uint64_t last_sample;               /* of the last "#t" written */
	int have_time;
	int failed;                         /* errno of the first failure, 0 */
};

/* What the header says. @names[k] is channel k's name, @bits[k] its bit in
 * a sample (bit i = channel index i, as libsigrok packs logic data). */
struct sigrok_vcd_head {
	uint64_t rate_hz;
	unsigned nch;
	const char *const *names;
	const unsigned *bits;
	unsigned device_channels;           /* the device's logic channels, for
					     * "Acquisition with N/M channels" */
	const char *comment;                /* the acquisition's facts, lines */
};

/* Create @path (truncated) and write the header. 0, or -1 with a sentence
 * in @err (the file named). */
int sigrok_vcd_open(struct sigrok_vcd *w, const char *path, const struct sigrok_vcd_head *h,
		    char *err, size_t errlen);

/* The extractor's report (instrument/edgextract.h): at @sample the watched
 * bits @changed took their values in @value; @changed 0 writes every
 * channel's level (the first sample, or the first after a gap). */
void sigrok_vcd_change(struct sigrok_vcd *w, uint64_t sample, uint64_t value, uint64_t changed);

/* From @sample on, nothing is known: x on every wire until the next
 * sigrok_vcd_change() with @changed 0. */
void sigrok_vcd_gap(struct sigrok_vcd *w, uint64_t sample);

/* End at @end_sample (the sample after the last one received: the time
 * where the capture's span ends), append @comment (NULL: none) as a
 * $comment block, close. 0, or -1 with a sentence in @err (the first
 * write failure, or the close's). Frees what open allocated either way. */
int sigrok_vcd_close(struct sigrok_vcd *w, uint64_t end_sample, const char *comment, char *err,
		     size_t errlen);

/* Close after a failure elsewhere, leaving what was written. */
void sigrok_vcd_abandon(struct sigrok_vcd *w);

#endif
