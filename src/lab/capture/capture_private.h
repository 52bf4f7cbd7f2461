/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Capture importers' private interface: the ops struct each format fills,
 * the shared object, and helpers (errors, channels, analog edge finder). */
#ifndef SQW_CAPTURE_PRIVATE_H
#define SQW_CAPTURE_PRIVATE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "capture/capture.h"

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
	/* As capture_next_edge(). At the end set info.end_ps, end_known. */
	int (*next)(struct capture *c, struct capture_edge *e);
	void (*close)(struct capture *c);
	/* Optional: one pass over the data that says, for every channel, whether
	 * it has an edge: has_edge[ch] = 1 yes, 0 no, -1 not known (the factory
	 * then tries select() + next() on it). May stop early once the first
	 * channel that automatic choice could take (enabled, one bit) is known to
	 * have one. Returns 0 or -1 (after capture_err()). Automatic channel
	 * choice costs one pass instead of one per silent channel. */
	int (*scan)(struct capture *c, signed char *has_edge);
};

extern const struct capture_ops capture_sigrok_csv_ops;
extern const struct capture_ops capture_vcd_ops;
extern const struct capture_ops capture_sr_ops;
extern const struct capture_ops capture_saleae_ops;
extern const struct capture_ops capture_scope_ops;
extern const struct capture_ops capture_foreign_ops;

struct capture_chan {
	char *name;
	unsigned width;   /* bits: 1 for a line, >1 for a VCD vector */
	int msb, lsb;     /* VCD vector range as declared ([msb:lsb]) */
	int analog;       /* needs a threshold */
	int disabled;     /* present in the file but switched off (a sigrok probe
			   * without a name): never chosen automatically */
};

struct capture {
	const struct capture_ops *ops;
	const char *data;        /* the whole file (mapped or caller's buffer) */
	size_t len;
	void *map;               /* non-NULL: munmap(map, map_len) at close */
	size_t map_len;
	char *heap;              /* non-NULL: file read into memory, free at close */
	char *path;
	int guard;               /* slot of the SIGBUS guard over map, or -1 */
	char errbuf[512];        /* the last error (capture_err) */
	struct capture_opts opts;
	struct capture_info info;
	struct capture_chan *chans;
	const char **chan_names;
	unsigned n_chans, cap_chans;
	char *sel_name;          /* selected channel name incl. a bit suffix */
	char *notes[CAPTURE_MAX_NOTES];
	int failed;              /* next() returned -1: keep returning it */
	int have_last;           /* last_t holds the previous edge's time */
	int64_t last_t;
	struct capture_edge peek;/* the first edge, read ahead at open/rewind */
	int peek_state;          /* 0 none, 1 peek holds an edge, 2 at the end */
	int selected;            /* channel index, bit for rewind */
	int selected_bit;
	void *priv;              /* the format's state */
};

/* "FILE:LINE: msg" (line 0: "FILE: msg") into c->errbuf (for the caller's
 * buffer or capture_error()); sets errno to EINVAL. Returns -1. Never prints. */
int capture_err(struct capture *c, unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Add a note for info.notes[] (how the data was interpreted). */
void capture_note(struct capture *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append a channel; the name is copied. Returns its index or -1. */
int capture_add_channel(struct capture *c, const char *name, size_t len);

/*
 * A sample rate as sigrok writes and reads it: a decimal number, optional
 * spaces, an optional SI prefix k/M/G/T of either case (sigrok reads "2 mHz"
 * as 2 MHz, and so does sqwave) and an optional "Hz" of any case. With a
 * prefix the rate is truncated to whole Hz as sigrok does ("1.5151519 MHz"
 * is 1515151 Hz). Returns 0 with *hz > 0, or -1.
 */
int capture_parse_rate(const char *s, size_t len, double *hz);
/* Sample @n at @rate Hz -> ps: exact (rounded half away from zero) for
 * integer rates and for rates with up to 6 decimals, else within 1 ps per
 * 1e15 samples. Saturates to +-INT64_MAX beyond the range (the factory
 * refuses any time beyond CAPTURE_PS_MAX). */
int64_t capture_sample_ps(int64_t n, double rate_hz);
/* round(a * b / c), c > 0, exact beyond 64-bit products without __int128
 * (armhf); saturates to +-INT64_MAX when the quotient does not fit. */
int64_t capture_muldiv_round(int64_t a, int64_t b, int64_t c);
/* a * b with overflow check; 0 or -1. */
int capture_mul_ps(int64_t a, int64_t b, int64_t *out);
/* A long double time in ps to int64, saturating (no undefined conversion). */
int64_t capture_ld_to_ps(long double ps);
/* 1 if |t| <= CAPTURE_PS_MAX. */
static inline int capture_ps_ok(int64_t t)
{
	return t >= -CAPTURE_PS_MAX && t <= CAPTURE_PS_MAX;
}
/* Lower-case ASCII compare of a slice with a C string prefix. */
int capture_starts(const char *p, size_t len, const char *prefix);
/* Find @needle in the first @len bytes. */
const char *capture_memmem(const char *p, size_t len, const char *needle);

#include "capture/capture_levels.h"

/* Thresholds from opts or levels; fills info (analog, levels, threshold,
 * edge uncertainty) and a note. Digital 0/1 data gets threshold 0.5 and no
 * interpolation. Whether the channel can give edges: 1 with two levels or
 * a threshold the user set, 0 for one level and none set (the one rule of
 * every importer's "no edges"). */
int capture_analog_setup(struct capture *c, const struct capture_levels *lv,
			 struct capture_analog *a);
/* info.edge_lo_ps/edge_hi_ps for a sampled capture of interval @dt_ps:
 * [-dt, 0] for logic data, [-dt, +dt] for interpolated analog edges. */
void capture_set_edge_window(struct capture *c, int64_t dt_ps, int analog);

#endif
