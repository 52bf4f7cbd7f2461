/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The oscilloscope families sqwave scope talks to, picked from *IDN?: how
 * each sets up +width/-width statistics on a channel and reads them back. */
#ifndef SQW_SCOPEDIALECT_H
#define SQW_SCOPEDIALECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "instrument/scpi.h"

enum scope_pol {
	SCOPE_POS = 0,       /* +width: high pulses */
	SCOPE_NEG = 1,       /* -width: low pulses */
	SCOPE_NPOL
};

/* One measurement's statistics since they were last reset. */
struct scope_stat {
	bool valid;          /* min_s and max_s hold readings */
	double min_s, max_s; /* seconds */
	bool count_known;    /* count holds the pulses measured */
	uint64_t count;
	char why[256];       /* !valid or !count_known: why, one sentence */
};

struct scope_dialect;

struct scope_reading {
	const struct scope_dialect *d;
	char idn[256];
	int channel;         /* 1-based analog channel */
	struct scope_stat stat[SCOPE_NPOL];
};

/* The dialect of an *IDN? reply, or NULL (with the reason in @err: not a
 * family sqwave knows, or a model of it without these commands). */
const struct scope_dialect *scopedialect_from_idn(const char *idn, char *err, size_t errlen);
const char *scopedialect_name(const struct scope_dialect *d);   /* "rigol-ds1000z" */
const char *scopedialect_family(const struct scope_dialect *d); /* "Rigol DS1000Z/MSO1000Z" */

/* The channel number of "1", "CH1", "C1", "CHAN1", "CHANnel1"; -1 if none
 * (digital channels are not taken). */
int scopedialect_channel_parse(const char *s);

/*
 * Ask *IDN? on @s and pick the dialect into @r (r->d, r->idn). 0, or -1
 * with a sentence in @err.
 */
int scopedialect_identify(struct scpi *s, struct scope_reading *r, char *err, size_t errlen);

/*
 * After scopedialect_identify(): set up a +width and a -width measurement
 * on channel @channel with statistics on, and reset the statistics (they
 * count from now). Ends with *OPC? and the instrument's error queue: an
 * error it reports is a failure. 0, or -1 with a sentence in @err.
 */
int scopedialect_setup(struct scpi *s, const struct scope_reading *r, int channel, char *err,
		       size_t errlen);

/*
 * After scopedialect_identify(): read min, max and count of both widths on
 * channel @channel into r->stat. A reading the instrument marks invalid
 * (9.9e37, ****) or a count the family does not give is said in the
 * stat's why, not a failure; no reply or an error is (-1, @err).
 */
int scopedialect_read(struct scpi *s, struct scope_reading *r, int channel, char *err,
		      size_t errlen);

/*
 * The whole exchange with the instrument at @target (scpi_open()'s), in a
 * few lines of SCPI: open, identify, then set up (@setup) or read channel
 * @channel into @r, close. 0, or -1 with a sentence in @err. For the
 * commands (scope, compare --scope, run --scope); never from an RT thread.
 */
int scopedialect_setup_target(const char *target, int timeout_ms, int channel,
			      struct scope_reading *r, char *err, size_t errlen);
int scopedialect_read_target(const char *target, int timeout_ms, int channel,
			     struct scope_reading *r, char *err, size_t errlen);

/* ---- the parsers, for the unit tests ---- */

/* A numeric reply (NR1/NR3, a header before it allowed): 1 valid with *v,
 * 0 the instrument's invalid mark (9.9e37 and up, ****, a bare header),
 * -1 not a number. */
int scopedialect_parse_value(const char *reply, double *v);
/* Keysight :MEASure:RESults? with statistics ON (groups of label,
 * current, min, max, mean, std dev, count): the +width and -width of
 * channel @channel into r->stat. 0, or -1 with a sentence in @err. */
int scopedialect_parse_keysight(const char *reply, int channel, struct scope_reading *r,
				char *err, size_t errlen);

#endif
