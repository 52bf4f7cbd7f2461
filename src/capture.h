/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Capture importers: a scope or logic-analyzer file in, one channel's edges
 * out, in time order, streamed (formats and rules: docs/capture-formats.md). */
#ifndef SQW_CAPTURE_H
#define SQW_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Time representation
 * -------------------
 * Every time in this API is an int64_t count of FEMTOSECONDS (1e-15 s) in
 * the capture's own time base (t = 0 is the trigger for scopes, the start of
 * the capture for logic analyzers, time 0 of a VCD). Femtoseconds keep a
 * 1 fs VCD timescale exact and leave room for sub-picosecond interpolation
 * of scope edges; the range is +-9223 s (+-2 h 33 min) around time 0, which
 * holds an hour-long capture at any timescale. A time outside that range is
 * reported as an error naming the file, never wrapped.
 */
#define CAPTURE_FS_PER_S  1000000000000000LL
#define CAPTURE_FS_PER_NS 1000000LL

static inline double capture_fs_to_s(int64_t fs)
{
	return (double)fs / (double)CAPTURE_FS_PER_S;
}

/* Edge flags. */
#define CAPTURE_EDGE_F_AFTER_GAP 0x01u /* data was missing (VCD x/z or $dumpoff,
					* Saleae X) between the previous edge and
					* this one: the pulse ending here is not
					* measurable */

struct capture_edge {
	int64_t t_fs;    /* edge time (see "Time representation") */
	int64_t sample;  /* index of the first sample at the new level, counted
			  * from the first sample of the file; -1 when the format
			  * has no samples (VCD without a sample rate, Saleae) */
	uint8_t level;   /* level after the edge: 1 = rising, 0 = falling */
	uint8_t flags;   /* CAPTURE_EDGE_F_* */
};

/* Options for capture_open(); all fields may be left zero. */
struct capture_opts {
	const char *format;    /* NULL: detect from the content; else a name or
				* alias from capture_format_names() */
	const char *channel;   /* NULL: the only channel, else the first one with
				* edges. Else a name ("D6", "CH1", "top.dut.gpio",
				* a unique suffix "gpio", a vector bit "state[2]"),
				* or a number N: the channel whose name ends in N
				* (D6, CH1, Channel 1), else the Nth channel from 0 */
	double samplerate_hz;  /* 0: from the file. Needed only for files that do
				* not state it (sigrok CSV without its header) */
	double threshold;      /* analog captures: 0 = halfway between the two
				* levels found in the data; else this level (V) */
	double hysteresis;     /* analog: total width of the band (V) around the
				* threshold; 0 = 10 % of the level difference */
	int threshold_set;     /* 1: threshold above is meant even if it is 0 */
};

#define CAPTURE_MAX_NOTES 8

/*
 * What a capture says about itself. Valid from capture_open() until
 * capture_close(). end_fs is exact after capture_next_edge() has returned 0
 * (formats whose end is only found by reading to the end say end_known = 0
 * until then); everything else is final at open.
 */
struct capture_info {
	const char *path;            /* as given to capture_open() */
	const char *format;          /* dialect found: "sigrok-csv", "vcd",
				      * "sigrok-sr", "saleae-logic2-csv",
				      * "saleae-logic1-csv", "rigol-ds1000z-csv",
				      * "rigol-mso5000-csv", "siglent-csv",
				      * "keysight-csv", "tek-csv", "tek-tds-csv" */
	unsigned n_channels;
	const char *const *channel_names;  /* n_channels names, file order */
	unsigned channel;            /* index of the selected channel */
	const char *channel_name;    /* its name (with "[bit]" for a vector bit) */
	const char *channel_reason;  /* "selected by --channel", "the only
				      * channel", "first channel with edges",
				      * "no channel has edges; using the first" */
	double samplerate_hz;        /* 0 when the file does not state one */
	int64_t resolution_fs;       /* time resolution: sample interval, or the
				      * VCD tick, or (Saleae) the finest step
				      * seen between transitions */
	int64_t start_fs;            /* first sample / first timestamp */
	int64_t end_fs;              /* last sample (+1 interval) / final timestamp */
	int end_known;               /* 0 until the end has been read (see above) */
	int initial_level;           /* level at start_fs: 0, 1, or -1 unknown */
	int analog;                  /* 1: edges found with a threshold */
	double low, high;            /* analog: the two levels found (V) */
	double threshold, hysteresis;/* analog: what was used (V) */
	unsigned n_notes;            /* how the data was interpreted, one line */
	const char *notes[CAPTURE_MAX_NOTES]; /* each, for the user to read */
};

struct capture;

/*
 * Open a capture file, detect its format (or use opts->format), list its
 * channels and select one. @opts may be NULL. Returns NULL with errno set
 * and a one-line message printed (pr_err) and kept for
 * capture_last_error(): "FILE:LINE: what is wrong" for malformed, foreign
 * or truncated files; the list of channels when the requested one does not
 * exist. Caller closes with capture_close(). A capture is used by one
 * thread at a time; different captures are independent.
 */
struct capture *capture_open(const char *path, const struct capture_opts *opts);

/* Same over a buffer (tests, fuzzing, data already in memory). @name
 * appears in messages and may guide detection by its extension; @data must
 * stay valid and unchanged until capture_close(). */
struct capture *capture_open_mem(const void *data, size_t len, const char *name,
				 const struct capture_opts *opts);

/*
 * Next edge of the selected channel, in non-decreasing time order. Returns
 * 1 with *e filled, 0 at the end of the capture (then end_fs is final), or
 * -1 on malformed data (message as for capture_open(); further calls
 * return -1). No allocation per edge.
 */
int capture_next_edge(struct capture *c, struct capture_edge *e);

/* Start again from the first edge. Returns 0 or -1. */
int capture_rewind(struct capture *c);

const struct capture_info *capture_info(const struct capture *c);

/* Release everything, unmap the file. NULL is a no-op. */
void capture_close(struct capture *c);

/* The last error message of this thread ("" if none). Thread-local. */
const char *capture_last_error(void);

/* Format names accepted by opts->format, space-separated, aliases included. */
const char *capture_format_names(void);

#endif
