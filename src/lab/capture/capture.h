/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Capture importers: a scope or logic-analyzer file in, one channel's edges
 * out, in time order, streamed (formats and rules: docs/capture-formats.md). */
#ifndef SQW_CAPTURE_H
#define SQW_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "base/spool.h"

/*
 * Time representation
 * -------------------
 * Every time in this API is an int64_t count of PICOSECONDS (1e-12 s) in the
 * capture's own time base (t = 0 is the trigger for scopes, the start of the
 * capture for logic analyzers, time 0 of a VCD). A picosecond is finer than
 * any logic analyzer's sample (5 GSa/s is 200 ps) and than an interpolated
 * scope edge can be placed, and an int64_t of them holds CAPTURE_PS_MAX
 * (+-53 days) while the difference of any two times still fits: a week-long
 * capture at any sample rate. Times are exact where the file's are (sample
 * index / integer sample rate, rounded to the picosecond; VCD timescales of
 * 1 ps and coarser); VCD timescales below 1 ps are rounded to 1 ps. A time
 * outside +-CAPTURE_PS_MAX is an error naming the file, never a wrapped or
 * clamped value. Plain 64-bit arithmetic only (no __int128: armhf).
 */
#define CAPTURE_PS_PER_S  1000000000000LL
#define CAPTURE_PS_PER_NS 1000LL
#define CAPTURE_PS_MAX    (INT64_MAX / 2)   /* 4.6e18 ps = 53.4 days */

static inline double capture_ps_to_s(int64_t ps)
{
	return (double)ps / (double)CAPTURE_PS_PER_S;
}

/* ps as ns: exact enough for display and tolerances (double). */
static inline double capture_ps_to_ns(int64_t ps)
{
	return (double)ps / (double)CAPTURE_PS_PER_NS;
}

/* ps to whole ns, rounded half away from zero: a capture edge's time in a
 * record. */
static inline int64_t capture_ps_round_ns(int64_t ps)
{
	return ps >= 0 ? (ps + CAPTURE_PS_PER_NS / 2) / CAPTURE_PS_PER_NS
		       : -((-ps + CAPTURE_PS_PER_NS / 2) / CAPTURE_PS_PER_NS);
}

/* Edge flags. */
#define CAPTURE_EDGE_F_AFTER_GAP 0x01u /* data was missing (VCD x/z or $dumpoff,
					* Saleae X) between the previous edge and
					* this one: the pulse ending here is not
					* measurable */

struct capture_edge {
	int64_t t_ps;    /* edge time (see "Time representation") */
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
 * capture_close(). end_ps is exact after capture_next_edge() has returned 0
 * (formats whose end is only found by reading to the end say end_known = 0
 * until then); everything else is final at open.
 */
struct capture_info {
	const char *path;            /* as given to capture_open() ("-": "<stdin>") */
	const char *format;          /* dialect found: "sigrok-csv", "vcd",
				      * "sigrok-sr", "saleae-logic2-csv",
				      * "saleae-logic1-csv", "rigol-ds1000z-csv",
				      * "rigol-mso5000-csv", "siglent-csv",
				      * "keysight-csv", "tek-csv", "tek-tds-csv",
				      * "scope-csv", "dsview-csv", "waveforms-csv",
				      * "scanastudio-csv" */
	unsigned n_channels;
	const char *const *channel_names;  /* n_channels names, file order */
	unsigned channel;            /* index of the selected channel */
	const char *channel_name;    /* its name (with "[bit]" for a vector bit) */
	const char *channel_reason;  /* "selected by --channel", "the only
				      * channel", "first channel with edges",
				      * "no channel has edges; using the first" */
	double samplerate_hz;        /* 0 when the file does not state one */
	int64_t resolution_ps;       /* time resolution: sample interval, or the
				      * VCD tick, or (Saleae) the finest step
				      * seen between transitions; >= 1 */
	/* Where the line really changed, around a reported edge time t: in
	 * [t + edge_lo_ps, t + edge_hi_ps] (edge_lo_ps <= 0 <= edge_hi_ps). A
	 * sampled logic edge is reported at the first sample at the new level,
	 * so the change happened within one interval before it: [-dt, 0]; an
	 * interpolated analog edge lies between the two samples around the
	 * threshold crossing: [-dt, +dt]. */
	int64_t edge_lo_ps, edge_hi_ps;
	int64_t start_ps;            /* first sample / first timestamp */
	int64_t end_ps;              /* last sample (+1 interval) / final timestamp */
	int end_known;               /* 0 until the end has been read (see above) */
	int initial_level;           /* level at start_ps: 0, 1, or -1 unknown */
	int analog;                  /* 1: edges found with a threshold */
	double low, high;            /* analog: the two levels found (V) */
	double threshold, hysteresis;/* analog: what was used (V) */
	unsigned n_notes;            /* how the data was interpreted, one line */
	const char *notes[CAPTURE_MAX_NOTES]; /* each, for the user to read */
};

struct capture;

/*
 * Errors (every function here): the library never prints. A failed open
 * returns NULL with errno set (ENOENT, EACCES, EIO, EISDIR, ENOMEM, EFBIG:
 * the environment; EINVAL: the file is malformed, foreign or truncated) and
 * one line in @err: "FILE:LINE: what is wrong" (line omitted for binary
 * formats), or the list of channels when the requested one does not exist.
 * A failed capture_next_edge() keeps its line for capture_error().
 */

/*
 * Open a capture file, detect its format (or use opts->format), list its
 * channels and select one. @opts may be NULL. "-" is standard input. A
 * regular file is mapped, not copied; a pipe, a socket or "-" is copied
 * into memory, at most CAPTURE_STREAM_MAX bytes (more is EFBIG); devices
 * and terminals are refused (they are not captures: /dev/zero never ends).
 * A file truncated by someone else while it is mapped is an error
 * ("changed while being read"), never a SIGBUS. Caller closes with
 * capture_close(). A capture is used by one thread at a time; different
 * captures are independent.
 */
struct capture *capture_open(const char *path, const struct capture_opts *opts,
			     char *err, size_t errlen);

/* Same over an open regular file @fd (mapped; @fd may be closed after the
 * call); @name is used in messages and info.path. */
struct capture *capture_open_fd(int fd, const char *name, const struct capture_opts *opts,
				char *err, size_t errlen);

/* Same over a buffer (tests, fuzzing, data already in memory). @name
 * appears in messages and may guide detection by its extension; @data must
 * stay valid and unchanged until capture_close(). */
struct capture *capture_open_mem(const void *data, size_t len, const char *name,
				 const struct capture_opts *opts, char *err, size_t errlen);

/*
 * Next edge of the selected channel, in non-decreasing time order, every
 * time within +-CAPTURE_PS_MAX and not before info.start_ps. Returns 1 with
 * *e filled, 0 at the end of the capture (then end_ps is final), or -1 on
 * malformed data (the reason from capture_error(); further calls return
 * -1). No allocation per edge.
 */
int capture_next_edge(struct capture *c, struct capture_edge *e);

/* Why capture_next_edge() or capture_rewind() returned -1 ("" if it did
 * not), "FILE:LINE: what". Valid until capture_close(). */
const char *capture_error(const struct capture *c);

/* Start again from the first edge. Returns 0 or -1. */
int capture_rewind(struct capture *c);

const struct capture_info *capture_info(const struct capture *c);

/* Release everything, unmap the file. NULL is a no-op. */
void capture_close(struct capture *c);

/* A samplerate as given to --samplerate (@opt names it in @err): Hz, or with
 * k, M (also m, as sigrok reads "2 mHz"), G or T and an optional "Hz", as
 * the capture files state it ("1GHz", "256 kHz", "1e6"). 0, or -1 with one
 * sentence in @err. */
int capture_samplerate_parse(const char *opt, const char *s, double *hz, char *err,
			     size_t errlen);

/* Format names accepted by opts->format, space-separated, aliases included. */
const char *capture_format_names(void);

/* ---- inputs that are not regular files (base/spool.h's, for captures) ---- */

/* Bytes read from a pipe or "-" at most: the rest of sqwave reads files in
 * place, a stream has to be held in memory. */
#define CAPTURE_STREAM_MAX SPOOL_STREAM_MAX

/* spool_is_stream(): 1 if @path is "-" or names something that is not a
 * regular file or a directory (a pipe, process substitution, a socket, a
 * device), else 0. */
int capture_path_is_stream(const char *path);

/*
 * spool_open() with a sniff that sees only the data: copy the stream @path
 * ("-": standard input) into an anonymous memory file and return its
 * descriptor, or -1 with errno and a line in @err (base/spool.h says which).
 * @sniff, if not NULL, may refuse the stream from its first bytes by
 * returning 0. The caller closes the descriptor.
 */
int capture_spool(const char *path, size_t max, int (*sniff)(const void *data, size_t len),
		  char *err, size_t errlen);

/* 1 if some capture format recognises @data (the start of a file) as its
 * own: a sniff function for capture_spool(). */
int capture_probe_any(const void *data, size_t len);

#endif
