/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dialect table: per oscilloscope family, the SCPI lines that set up
 * +width/-width statistics and read min, max and count back. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msgbuf.h"
#include "instrument/scopedialect.h"

enum { Q_MIN, Q_MAX, Q_COUNT, NQ };

/*
 * One family. Templates: {ch} is the channel as the family names it
 * (chan, with {n} its number). A query of NULL: the family has none.
 */
struct scope_dialect {
	const char *name;
	const char *family;
	const char *chan;
	const char *const *setup;          /* NULL-terminated */
	const char *q[SCOPE_NPOL][NQ];
	const char *check[SCOPE_NPOL];     /* the slot's type, when slots are numbered */
	const char *check_want[SCOPE_NPOL];
	const char *errq;                  /* the error queue */
	const char *no_count;              /* why the count is unknown (q[][Q_COUNT] NULL) */
	bool results;                      /* Keysight: one :MEASure:RESults? for all */
	bool count_optional;               /* some models lack the count query */
};

/*
 * Rigol MSO1000Z/DS1000Z Programming Guide (2-124, :MEASure:STATistic:ITEM;
 * :MEASure:STATistic:DISPlay, :MODE, :RESet beside it): ITEM <item>,<src>
 * turns statistics of an item on, ITEM? <type>,<item>,<src> reads one,
 * <type> is MAXimum|MINimum|CURRent|AVERages|DEViation: no count. "When
 * the measurement results are invalid, the query returns 9.9e37" (the
 * same guide family, e.g. MSO2000A/DS2000A 2-178).
 */
static const char *const rigol_setup[] = {
	":MEASure:STATistic:DISPlay ON",
	":MEASure:STATistic:MODE EXTRemum",
	":MEASure:STATistic:ITEM PWIDth,{ch}",
	":MEASure:STATistic:ITEM NWIDth,{ch}",
	":MEASure:STATistic:RESet",
	NULL,
};

/*
 * Siglent SDS Series Programming Guide (EN11D, :MEASure:ADVanced: P<n>,
 * P<n>:SOURce1, P<n>:TYPE, :STATistics, :STATistics:RESet, P<n>:STATistics?
 * CURRent|MEAN|MAXimum|MINimum|STDev|COUNt), for the SDS2000X Plus/HD,
 * SDS800X/1000X HD, SDS5000X, SDS6000; the older SDS1000X-E/CML speak
 * PAVA and are refused.
 */
static const char *const siglent_setup[] = {
	":MEASure ON",
	":MEASure:MODE ADVanced",
	":MEASure:ADVanced:P1 ON",
	":MEASure:ADVanced:P1:SOURce1 {ch}",
	":MEASure:ADVanced:P1:TYPE PWID",
	":MEASure:ADVanced:P2 ON",
	":MEASure:ADVanced:P2:SOURce1 {ch}",
	":MEASure:ADVanced:P2:TYPE NWID",
	":MEASure:ADVanced:STATistics ON",
	":MEASure:ADVanced:STATistics:RESet",
	NULL,
};

/*
 * Keysight InfiniiVision 3000/4000 X-Series Programmer's Guide, :MEASure
 * Commands (:MEASure:PWIDth, :NWIDth, :STATistics, :STATistics:MCOunt,
 * :STATistics:RESet, :RESults?). With :STATistics ON, :RESults? gives per
 * measurement its label, current, min, max, mean, std dev and count.
 * MCOunt caps the values the statistics keep (2000 by default on some
 * models): INFinite, or the min and max would be of the last 2000 only.
 */
static const char *const keysight_setup[] = {
	":MEASure:CLEar",
	":MEASure:PWIDth {ch}",
	":MEASure:NWIDth {ch}",
	":MEASure:STATistics ON",
	":MEASure:STATistics:MCOunt INFinite",
	":MEASure:STATistics:RESet",
	NULL,
};

/*
 * Tektronix 4/5/6 Series MSO Programmer Manual, Measurement group
 * (MEASUrement:ADDMEAS, MEAS<x>:TYPe, MEAS<x>:SOUrce1,
 * MEAS<x>:RESUlts:ALLAcqs:MINimum?|MAXimum?|POPUlation?) and CLEar
 * (clears acquisitions and measurement statistics). HEADer OFF: replies
 * without the command's name.
 */
static const char *const tek_setup[] = {
	"HEADer OFF",
	"MEASUrement:DELETEALL",
	"MEASUrement:ADDMEAS PWIDth",
	"MEASUrement:MEAS1:SOUrce1 {ch}",
	"MEASUrement:ADDMEAS NWIDth",
	"MEASUrement:MEAS2:SOUrce1 {ch}",
	"CLEar",
	NULL,
};

static const struct scope_dialect dialects[] = {
	{
		.name = "rigol-ds1000z", .family = "Rigol DS1000Z/MSO1000Z",
		.chan = "CHANnel{n}", .setup = rigol_setup,
		.q = { { ":MEASure:STATistic:ITEM? MINimum,PWIDth,{ch}",
			 ":MEASure:STATistic:ITEM? MAXimum,PWIDth,{ch}", NULL },
		       { ":MEASure:STATistic:ITEM? MINimum,NWIDth,{ch}",
			 ":MEASure:STATistic:ITEM? MAXimum,NWIDth,{ch}", NULL } },
		.errq = ":SYSTem:ERRor?",
		.no_count = "the DS1000Z gives no count of its statistics (its programming guide "
			    "lists MAXimum, MINimum, CURRent, AVERages, DEViation)",
	},
	{
		/* Rigol MSO5000 Programming Guide, same :MEASure:STATistic
		 * commands; the count as <type> CNT is documented in the
		 * DHO800/DHO900 Programming Guide (:MEASure:STATistic:ITEM);
		 * on a model without it the query fails and the count is
		 * said unknown. */
		.name = "rigol-mso5000", .family = "Rigol MSO5000/DHO",
		.chan = "CHANnel{n}", .setup = rigol_setup,
		.q = { { ":MEASure:STATistic:ITEM? MINimum,PWIDth,{ch}",
			 ":MEASure:STATistic:ITEM? MAXimum,PWIDth,{ch}",
			 ":MEASure:STATistic:ITEM? CNT,PWIDth,{ch}" },
		       { ":MEASure:STATistic:ITEM? MINimum,NWIDth,{ch}",
			 ":MEASure:STATistic:ITEM? MAXimum,NWIDth,{ch}",
			 ":MEASure:STATistic:ITEM? CNT,NWIDth,{ch}" } },
		.errq = ":SYSTem:ERRor?", .count_optional = true,
	},
	{
		.name = "siglent-sds", .family = "Siglent SDS (advanced measurements)",
		.chan = "C{n}", .setup = siglent_setup,
		.q = { { ":MEASure:ADVanced:P1:STATistics? MINimum",
			 ":MEASure:ADVanced:P1:STATistics? MAXimum",
			 ":MEASure:ADVanced:P1:STATistics? COUNt" },
		       { ":MEASure:ADVanced:P2:STATistics? MINimum",
			 ":MEASure:ADVanced:P2:STATistics? MAXimum",
			 ":MEASure:ADVanced:P2:STATistics? COUNt" } },
		.check = { ":MEASure:ADVanced:P1:TYPE?", ":MEASure:ADVanced:P2:TYPE?" },
		.check_want = { "PWID", "NWID" },
		.errq = ":SYSTem:ERRor?",
	},
	{
		.name = "keysight-infiniivision", .family = "Keysight InfiniiVision X-Series",
		.chan = "CHANnel{n}", .setup = keysight_setup, .results = true,
		.errq = ":SYSTem:ERRor?",
	},
	{
		.name = "tektronix-mso456", .family = "Tektronix 4/5/6 Series MSO",
		.chan = "CH{n}", .setup = tek_setup,
		.q = { { "MEASUrement:MEAS1:RESUlts:ALLAcqs:MINimum?",
			 "MEASUrement:MEAS1:RESUlts:ALLAcqs:MAXimum?",
			 "MEASUrement:MEAS1:RESUlts:ALLAcqs:POPUlation?" },
		       { "MEASUrement:MEAS2:RESUlts:ALLAcqs:MINimum?",
			 "MEASUrement:MEAS2:RESUlts:ALLAcqs:MAXimum?",
			 "MEASUrement:MEAS2:RESUlts:ALLAcqs:POPUlation?" } },
		.check = { "MEASUrement:MEAS1:TYPe?", "MEASUrement:MEAS2:TYPe?" },
		.check_want = { "PWIDTH", "NWIDTH" },
		.errq = "ALLEv?",
	},
};

const char *scopedialect_name(const struct scope_dialect *d)
{
	return d->name;
}

const char *scopedialect_family(const struct scope_dialect *d)
{
	return d->family;
}

/* The @i-th comma-separated field of @s into @out, trimmed. */
static void field(const char *s, int i, char *out, size_t outlen)
{
	size_t n;

	while (i-- > 0 && s) {
		s = strchr(s, ',');
		if (s)
			s++;
	}
	if (!s) {
		out[0] = '\0';
		return;
	}
	while (*s == ' ')
		s++;
	n = strcspn(s, ",");
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= outlen)
		n = outlen - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

static bool prefix_ci(const char *s, const char *p)
{
	return !strncasecmp(s, p, strlen(p));
}

/* "MSO" [456] digit, then nothing, 'B' or 'L': the 4/5/6 Series, not
 * the MSO4000 (MSO4104) of an older command set. */
static bool tek_456(const char *model)
{
	size_t n = strlen(model);

	if ((!prefix_ci(model, "MSO") && !prefix_ci(model, "LPD")) || n < 5)
		return false;
	if (!strchr("456", model[3]) || !isdigit((unsigned char)model[4]))
		return false;
	return n == 5 || (n == 6 && strchr("BbLl", model[5]));
}

const struct scope_dialect *scopedialect_from_idn(const char *idn, char *err, size_t errlen)
{
	char maker[64], model[64];

	field(idn, 0, maker, sizeof(maker));
	field(idn, 1, model, sizeof(model));
	if (prefix_ci(maker, "RIGOL")) {
		if (prefix_ci(model, "DS1") || prefix_ci(model, "MSO1"))
			return &dialects[0];
		if (prefix_ci(model, "MSO5") || prefix_ci(model, "DHO"))
			return &dialects[1];
	} else if (prefix_ci(maker, "SIGLENT")) {
		if (strstr(model, "X-E") || strstr(model, "CML")) {
			msgbuf_set(err, errlen, "scope '%s': the %s speaks Siglent's older PAVA "
				   "commands, not :MEASure:ADVanced: not supported", idn, model);
			return NULL;
		}
		if (prefix_ci(model, "SDS"))
			return &dialects[2];
	} else if (prefix_ci(maker, "KEYSIGHT") || prefix_ci(maker, "AGILENT")) {
		if (prefix_ci(model, "DSO-X") || prefix_ci(model, "MSO-X") ||
		    prefix_ci(model, "DSOX") || prefix_ci(model, "MSOX") || prefix_ci(model, "EDUX"))
			return &dialects[3];
	} else if (prefix_ci(maker, "TEKTRONIX")) {
		if (tek_456(model))
			return &dialects[4];
	}
	msgbuf_set(err, errlen, "scope '%s': not a family sqwave knows (Rigol DS1000Z/MSO5000/DHO, "
		   "Siglent SDS, Keysight InfiniiVision, Tektronix 4/5/6 Series MSO)", idn);
	return NULL;
}

int scopedialect_channel_parse(const char *s)
{
	const char *d = s;
	char *end;
	long v;

	if (!s)
		return -1;
	while (*d && isalpha((unsigned char)*d))
		d++;
	if (d != s && !prefix_ci(s, "C") && !prefix_ci(s, "CH"))
		return -1;	/* D0, MATH1: not an analog channel */
	if (!isdigit((unsigned char)*d))
		return -1;
	errno = 0;
	v = strtol(d, &end, 10);
	if (errno || *end || v < 1 || v > 8)
		return -1;
	return (int)v;
}

/* @tmpl with {ch} replaced by the channel's name into @out. */
static void expand(const struct scope_dialect *d, const char *tmpl, int channel, char *out,
		   size_t outlen)
{
	char ch[32];
	const char *n = strstr(d->chan, "{n}"), *p;
	struct msgbuf_out o;

	snprintf(ch, sizeof(ch), "%.*s%d%s", (int)(n - d->chan), d->chan, channel, n + 3);
	msgbuf_out_init(&o, out, outlen);
	while ((p = strstr(tmpl, "{ch}"))) {
		msgbuf_out_put(&o, tmpl, (size_t)(p - tmpl));
		msgbuf_out_put(&o, ch, strlen(ch));
		tmpl = p + 4;
	}
	msgbuf_out_put(&o, tmpl, strlen(tmpl));
}

int scopedialect_parse_value(const char *reply, double *v)
{
	const char *s = reply, *sp;
	char *end;
	double x;

	/* a header before the value (Tektronix with HEADer ON): the last word */
	while ((sp = strchr(s, ' ')) && sp[1])
		s = sp + 1;
	while (*s == ' ')
		s++;
	if (!*s || strchr(s, '*') || !strcasecmp(s, "OFF"))
		return 0;
	errno = 0;
	x = strtod(s, &end);
	while (*end && isspace((unsigned char)*end))
		end++;
	if (end == s || *end || errno == ERANGE)
		return end == s || *end ? -1 : 0;
	if (!isfinite(x) || fabs(x) >= 9.9e37)
		return 0;
	*v = x;
	return 1;
}

/* The instrument's error queue, for a sentence: "" when it says none. */
static void error_queue(struct scpi *s, const struct scope_dialect *d, char *out, size_t outlen)
{
	char e[128];

	out[0] = '\0';
	if (scpi_query(s, d->errq, out, outlen, e, sizeof(e)) < 0) {
		out[0] = '\0';
		return;
	}
	if (out[0] == '0' || !strncmp(out, "+0", 2))
		out[0] = '\0';
}

/* A failed query or write: the instrument's own error, if it has one. */
static int fail_with_queue(struct scpi *s, const struct scope_dialect *d, char *err, size_t errlen)
{
	char q[256];

	error_queue(s, d, q, sizeof(q));
	if (q[0])
		msgbuf_add(err, errlen, "; the instrument says %s", q);
	return -1;
}

int scopedialect_identify(struct scpi *s, struct scope_reading *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	if (scpi_query(s, "*IDN?", r->idn, sizeof(r->idn), err, errlen) < 0)
		return -1;
	r->d = scopedialect_from_idn(r->idn, err, errlen);
	return r->d ? 0 : -1;
}

int scopedialect_setup(struct scpi *s, const struct scope_reading *r, int channel, char *err,
		       size_t errlen)
{
	const struct scope_dialect *d = r->d;
	char line[256], reply[256];
	const char *const *l;

	for (l = d->setup; *l; l++) {
		expand(d, *l, channel, line, sizeof(line));
		if (scpi_write(s, line, err, errlen) < 0)
			return -1;
	}
	/* the lines are taken in order: *OPC? answers once all are done */
	if (scpi_query(s, "*OPC?", reply, sizeof(reply), err, errlen) < 0)
		return fail_with_queue(s, d, err, errlen);
	error_queue(s, d, reply, sizeof(reply));
	if (reply[0]) {
		msgbuf_set(err, errlen, "scope %s: the %s refused the setup: %s", scpi_target(s),
			   d->family, reply);
		return -1;
	}
	return 0;
}

/* One numeric query into @v: 1 valid, 0 marked invalid, -1 failed (said). */
static int query_value(struct scpi *s, const struct scope_dialect *d, const char *q, double *v,
		       char *err, size_t errlen)
{
	char reply[256];
	int r;

	if (scpi_query(s, q, reply, sizeof(reply), err, errlen) < 0)
		return fail_with_queue(s, d, err, errlen);
	r = scopedialect_parse_value(reply, v);
	if (r < 0)
		msgbuf_set(err, errlen, "scope %s: '%s' answered '%s': not a number", scpi_target(s),
			   q, reply);
	return r;
}

/* The slot a hand-made setup may have filled otherwise: its type. */
static int check_slot(struct scpi *s, const struct scope_dialect *d, int p, char *err,
		      size_t errlen)
{
	char reply[128];

	if (!d->check[p])
		return 0;
	if (scpi_query(s, d->check[p], reply, sizeof(reply), err, errlen) < 0)
		return fail_with_queue(s, d, err, errlen);
	if (!strcasestr(reply, d->check_want[p])) {
		msgbuf_set(err, errlen, "scope %s: '%s' is '%s', not %s: set it up with sqwave "
			   "scope --setup, or put +width in the first slot and -width in the second",
			   scpi_target(s), d->check[p], reply, d->check_want[p]);
		return -1;
	}
	return 0;
}

static int read_one(struct scpi *s, const struct scope_dialect *d, int p, int channel,
		    struct scope_stat *st, char *err, size_t errlen)
{
	char q[256];
	double mn = 0, mx = 0, cnt = 0;
	int a, b, c;

	if (check_slot(s, d, p, err, errlen) < 0)
		return -1;
	expand(d, d->q[p][Q_MIN], channel, q, sizeof(q));
	a = query_value(s, d, q, &mn, err, errlen);
	if (a < 0)
		return -1;
	expand(d, d->q[p][Q_MAX], channel, q, sizeof(q));
	b = query_value(s, d, q, &mx, err, errlen);
	if (b < 0)
		return -1;
	st->valid = a && b;
	st->min_s = mn;
	st->max_s = mx;
	if (!st->valid)
		snprintf(st->why, sizeof(st->why), "the scope marks its %s width statistics invalid "
			 "(no pulse measured?)", p == SCOPE_POS ? "+" : "-");
	if (!d->q[p][Q_COUNT]) {
		snprintf(st->why, sizeof(st->why), "%s", d->no_count);
		return 0;
	}
	expand(d, d->q[p][Q_COUNT], channel, q, sizeof(q));
	if (d->count_optional) {
		char reply[128], e[256];

		/* a model of the family without the count: unknown, said */
		if (scpi_query(s, q, reply, sizeof(reply), e, sizeof(e)) < 0) {
			error_queue(s, d, reply, sizeof(reply));
			msgbuf_set(st->why, sizeof(st->why), "this model gives no count (%s: %s)", q,
				   reply[0] ? reply : "no reply");
			return 0;
		}
		c = scopedialect_parse_value(reply, &cnt);
	} else {
		c = query_value(s, d, q, &cnt, err, errlen);
	}
	if (c < 0)
		return -1;
	st->count_known = c == 1 && cnt >= 0 && cnt < 1.8e19;
	st->count = st->count_known ? (uint64_t)llround(cnt) : 0;
	if (!st->count_known)
		snprintf(st->why, sizeof(st->why), "the scope marks its count invalid");
	return 0;
}

/* One Keysight group's number: 1, 0 invalid, -1 malformed. */
static int group_value(const char *reply, int i, double *v)
{
	char f[64];

	field(reply, i, f, sizeof(f));
	return scopedialect_parse_value(f, v);
}

int scopedialect_parse_keysight(const char *reply, int channel, struct scope_reading *r,
				char *err, size_t errlen)
{
	bool seen[SCOPE_NPOL] = { false, false };
	char label[64], want[16];
	int g;

	snprintf(want, sizeof(want), "(%d)", channel);
	for (g = 0;; g++) {
		struct scope_stat *st;
		double mn = 0, mx = 0, cnt = 0;
		int a, b, c, p;

		field(reply, g * 7, label, sizeof(label));
		if (!label[0])
			break;
		if (!strcasestr(label, "width") || !strstr(label, want))
			continue;	/* another measurement, or another channel */
		p = label[0] == '+' ? SCOPE_POS : label[0] == '-' ? SCOPE_NEG : -1;
		if (p < 0)
			continue;
		st = &r->stat[p];
		a = group_value(reply, g * 7 + 2, &mn);
		b = group_value(reply, g * 7 + 3, &mx);
		c = group_value(reply, g * 7 + 6, &cnt);
		if (a < 0 || b < 0 || c < 0) {
			msgbuf_set(err, errlen, "scope: :MEASure:RESults? group '%s' is not label, "
				   "current, min, max, mean, std dev, count (statistics ON?)", label);
			return -1;
		}
		st->valid = a && b;
		st->min_s = mn;
		st->max_s = mx;
		st->count_known = c == 1 && cnt >= 0 && cnt < 1.8e19;
		st->count = st->count_known ? (uint64_t)llround(cnt) : 0;
		if (!st->valid || !st->count_known)
			snprintf(st->why, sizeof(st->why), "the scope marks its %s width statistics "
				 "invalid (no pulse measured?)", p == SCOPE_POS ? "+" : "-");
		seen[p] = true;
	}
	if (!seen[SCOPE_POS] || !seen[SCOPE_NEG]) {
		msgbuf_set(err, errlen, "scope: :MEASure:RESults? has no %s width of channel %d "
			   "(set it up with sqwave scope --setup)", seen[SCOPE_POS] ? "-" : "+",
			   channel);
		return -1;
	}
	return 0;
}

int scopedialect_read(struct scpi *s, struct scope_reading *r, int channel, char *err,
		      size_t errlen)
{
	const struct scope_dialect *d = r->d;
	int p;

	r->channel = channel;
	memset(r->stat, 0, sizeof(r->stat));
	if (d->results) {
		char *reply = malloc(SCPI_LINE_MAX);
		int ret;

		if (!reply) {
			msgbuf_set(err, errlen, "out of memory");
			return -1;
		}
		if (scpi_query(s, ":MEASure:RESults?", reply, SCPI_LINE_MAX, err, errlen) < 0) {
			free(reply);
			return fail_with_queue(s, d, err, errlen);
		}
		ret = scopedialect_parse_keysight(reply, channel, r, err, errlen);
		free(reply);
		return ret;
	}
	for (p = 0; p < SCOPE_NPOL; p++)
		if (read_one(s, d, p, channel, &r->stat[p], err, errlen) < 0)
			return -1;
	return 0;
}

static int with_target(const char *target, int timeout_ms, int channel, bool setup,
		       struct scope_reading *r, char *err, size_t errlen)
{
	struct scpi *s = scpi_open(target, timeout_ms, err, errlen);
	int ret;

	if (!s)
		return -1;
	ret = scopedialect_identify(s, r, err, errlen);
	if (!ret)
		ret = setup ? scopedialect_setup(s, r, channel, err, errlen)
			    : scopedialect_read(s, r, channel, err, errlen);
	r->channel = channel;
	scpi_close(s);
	return ret;
}

int scopedialect_setup_target(const char *target, int timeout_ms, int channel,
			      struct scope_reading *r, char *err, size_t errlen)
{
	return with_target(target, timeout_ms, channel, true, r, err, errlen);
}

int scopedialect_read_target(const char *target, int timeout_ms, int channel,
			     struct scope_reading *r, char *err, size_t errlen)
{
	return with_target(target, timeout_ms, channel, false, r, err, errlen);
}
