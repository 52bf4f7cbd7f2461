/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Capture importers' private interface: the ops struct each format fills,
 * the shared object, and helpers (errors, channels, analog edge finder). */
#ifndef SQW_CAPTURE_PRIVATE_H
#define SQW_CAPTURE_PRIVATE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "capture.h"

struct capture;

/*
 * One capture format family. The factory (capture.c) calls, in order:
 * probe() on every family to pick one (unless --format names it), open()
 * to parse the header and add the channels, select() for each channel it
 * tries (and finally for the chosen one; select() rewinds), next() for the
 * edges, close() once. Only probe() may be called on data that is not
 * this format.
 */
struct capture_ops {
	const char *name;
	/* 0: not this format; up to 100: sure. Must not read past data + len. */
	int (*probe)(const char *data, size_t len, const char *path);
	/* Parse the header: capture_add_channel() for each channel, fill info.
	 * Returns 0 or -1 (after capture_err()). */
	int (*open)(struct capture *c);
	/* Prepare to stream channel @ch (bit @bit of a vector, else -1) from
	 * the start. Returns 1, 0 when the channel is known to have no edges
	 * (flat analog trace), -1 on error. */
	int (*select)(struct capture *c, unsigned ch, int bit);
	/* As capture_next_edge(). At the end set info.end_fs, end_known. */
	int (*next)(struct capture *c, struct capture_edge *e);
	void (*close)(struct capture *c);
};

extern const struct capture_ops capture_sigrok_csv_ops;
extern const struct capture_ops capture_vcd_ops;
extern const struct capture_ops capture_sr_ops;
extern const struct capture_ops capture_saleae_ops;
extern const struct capture_ops capture_scope_ops;

struct capture_chan {
	char *name;
	unsigned width;   /* bits: 1 for a line, >1 for a VCD vector */
	int msb, lsb;     /* VCD vector range as declared ([msb:lsb]) */
	int analog;       /* needs a threshold */
};

struct capture {
	const struct capture_ops *ops;
	const char *data;        /* the whole file (mapped or caller's buffer) */
	size_t len;
	void *map;               /* non-NULL: munmap(map, map_len) at close */
	size_t map_len;
	char *heap;              /* non-NULL: file read into memory, free at close */
	char *path;
	struct capture_opts opts;
	struct capture_info info;
	struct capture_chan *chans;
	const char **chan_names;
	unsigned n_chans, cap_chans;
	char *sel_name;          /* selected channel name incl. a bit suffix */
	char *notes[CAPTURE_MAX_NOTES];
	int failed;              /* next() returned -1: keep returning it */
	struct capture_edge peek;/* the first edge, read ahead at open/rewind */
	int peek_state;          /* 0 none, 1 peek holds an edge, 2 at the end */
	int selected;            /* channel index, bit for rewind */
	int selected_bit;
	void *priv;              /* the format's state */
};

/* "FILE:LINE: msg" (line 0: "FILE: msg"); prints, keeps it for
 * capture_last_error(), sets errno to EINVAL. Returns -1. */
int capture_err(struct capture *c, unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Add a note for info.notes[] (how the data was interpreted). */
void capture_note(struct capture *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append a channel; the name is copied. Returns its index or -1. */
int capture_add_channel(struct capture *c, const char *name, size_t len);

/* "256 kHz", "1.5 MHz", "8000" (Hz) -> Hz. 0 or -1. */
int capture_parse_rate(const char *s, size_t len, double *hz);
/* Sample @n at @rate Hz -> fs, exact (rounded) for integer rates. */
int64_t capture_sample_fs(int64_t n, double rate_hz);
/* round(a * b / c), c > 0, exact beyond 64-bit products (no __int128 needed). */
int64_t capture_muldiv_round(int64_t a, int64_t b, int64_t c);
/* a * b with overflow check; 0 or -1. */
int capture_mul_fs(int64_t a, int64_t b, int64_t *out);
/* Lower-case ASCII compare of a slice with a C string prefix. */
int capture_starts(const char *p, size_t len, const char *prefix);
/* Find @needle in the first @len bytes. */
const char *capture_memmem(const char *p, size_t len, const char *needle);

/*
 * Analog edge finder: threshold with hysteresis, edge placed by linear
 * interpolation at the threshold crossing nearest the band exit. Works in
 * sample-index units; the caller maps a fractional index to time.
 */
struct capture_levels {
	double low, high;   /* the two levels (medians of the two clusters) */
	int bimodal;        /* 1: the data has two distinct levels */
};

/* Find the two levels in @n values (the array is reordered). */
void capture_levels_find(double *v, size_t n, struct capture_levels *lv);

struct capture_analog {
	double thr, lo, hi;  /* threshold, band bottom and top */
	int state;           /* -1 before the first sample, else 0/1 */
	int have_prev;
	double prev_v;
	double cross_x;      /* fractional index of the last threshold crossing */
};

void capture_analog_init(struct capture_analog *a, double thr, double hyst);
/* Feed sample @i with value @v. Returns 1 with *x (fractional index of the
 * crossing) and *level when an edge completes, else 0. The first sample
 * sets the initial level (see a->state). NaN samples are skipped. */
int capture_analog_feed(struct capture_analog *a, int64_t i, double v, double *x, int *level);

/* Thresholds from opts or levels; fills info and a note. */
void capture_analog_setup(struct capture *c, const struct capture_levels *lv,
			  struct capture_analog *a);

#endif
