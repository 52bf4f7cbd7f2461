/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sigrok session (.sr, formats 1 and 2) import: a zip (central directory read
 * here, deflate by zlib) holding an INI "metadata", logic chunks and analog chunks. */
#include "capture/capture_private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define SR_BUF (1 << 16)
#define SR_MAX_PROBES 4096
/* Deflate cannot expand more than 1032:1; a directory that claims more lies
 * (or the entries overlap: the "zip bomb" that reuses one stream). */
#define SR_MAX_RATIO 1040
#define SR_LEVEL_SAMPLES 65536

struct sr_chunk {
	const unsigned char *data;  /* compressed bytes in the file */
	uint64_t csize, usize;
	uint32_t crc;
	int method;                 /* 0 stored, 8 deflate */
	long num;                   /* N of logic-1-N (0 for a bare "logic-1") */
	char name[64];
};

struct sr_chunks {
	struct sr_chunk *c;
	unsigned n, cap;
};

/* A byte stream over a list of chunks: inflate, CRC, sizes checked. */
struct sr_stream {
	const struct sr_chunks *list;
	unsigned ci;                /* current chunk */
	int zinit;
	z_stream z;
	uint64_t chunk_out;         /* bytes produced from the current chunk */
	uint32_t crc;
	unsigned char buf[SR_BUF];
	size_t have, pos;           /* bytes in buf, next byte to use */
	int no_crc;                 /* the channel scan: the edge pass checks CRCs */
};

struct sr_analog {
	unsigned chan;              /* index in the channel list */
	unsigned idx;               /* N of analogN / analog-1-N-M */
	struct sr_chunks chunks;
};

struct sr {
	struct sr_chunks logic;
	struct sr_analog *analog;
	unsigned nanalog;
	unsigned unitsize;
	unsigned nlogic;            /* logic channels listed (those that fit) */
	double rate;
	uint64_t total;             /* logic samples */
	/* stream */
	struct sr_stream st;
	int sel_analog;             /* -1: logic, else index into analog[] */
	unsigned byte, bit;         /* where the selected probe lives in a sample */
	unsigned char carry[SR_MAX_PROBES / 8]; /* a sample split across two refills */
	unsigned ncarry;
	uint64_t sample;            /* index of the next sample */
	int level;
	int done;
	struct capture_analog an;
	int an_on;                  /* analog: levels found, edges possible */
};

static uint32_t rd16(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t rd32(const unsigned char *p)
{
	return rd16(p) | rd16(p + 2) << 16;
}

static int sr_probe(const char *d, size_t len, const char *path)
{
	(void)path;
	if (len >= 4 && !memcmp(d, "PK\3\4", 4))
		return capture_memmem(d, len < 4096 ? len : 4096, "metadata") ||
		       capture_memmem(d, len < 4096 ? len : 4096, "version") ? 100 : 50;
	return 0;
}

struct zip_entry {
	const char *name;
	size_t nlen;
	const unsigned char *data;
	uint64_t csize, usize;
	uint32_t crc;
	int method;
	size_t lho;                 /* where its local header starts */
};

/* Walk the central directory; calls @fn for every entry. */
static int zip_walk(struct capture *c, int (*fn)(struct capture *, const struct zip_entry *, void *),
		    void *arg)
{
	const unsigned char *d = (const unsigned char *)c->data;
	size_t len = c->len, eocd = (size_t)-1, cd, cdsize, p;
	unsigned entries;

	if (len < 22)
		return capture_err(c, 0, "zip too short (truncated .sr?)");
	for (size_t i = len - 22 + 1; i-- > 0 && len - i <= 22 + 65535;) {
		if (rd32(d + i) == 0x06054b50 && i + 22 + rd16(d + i + 20) <= len) {
			eocd = i;
			break;
		}
	}
	if (eocd == (size_t)-1)
		return capture_err(c, 0, "no zip end-of-directory record (truncated .sr?)");
	entries = rd16(d + eocd + 10);
	cdsize = rd32(d + eocd + 12);
	cd = rd32(d + eocd + 16);
	if (entries == 0xffff || cd == 0xffffffffu)
		return capture_err(c, 0, "ZIP64 archives are not supported");
	if (cd > eocd || cdsize > eocd - cd)
		return capture_err(c, 0, "zip central directory out of bounds (corrupt .sr)");
	p = cd;
	for (unsigned i = 0; i < entries; i++) {
		struct zip_entry e;
		size_t nlen, xlen, clen, data;

		if (p + 46 > eocd || rd32(d + p) != 0x02014b50)
			return capture_err(c, 0, "bad zip directory entry %u (corrupt .sr)", i);
		e.method = (int)rd16(d + p + 10);
		e.crc = rd32(d + p + 16);
		e.csize = rd32(d + p + 20);
		e.usize = rd32(d + p + 24);
		nlen = rd16(d + p + 28);
		xlen = rd16(d + p + 30);
		clen = rd16(d + p + 32);
		e.lho = rd32(d + p + 42);
		if (p + 46 + nlen + xlen + clen > eocd)
			return capture_err(c, 0, "bad zip directory entry %u (corrupt .sr)", i);
		e.name = (const char *)d + p + 46;
		e.nlen = nlen;
		if (e.lho + 30 > len || rd32(d + e.lho) != 0x04034b50)
			return capture_err(c, 0, "zip entry '%.*s': bad local header (corrupt .sr)",
					   (int)nlen, e.name);
		data = e.lho + 30 + rd16(d + e.lho + 26) + rd16(d + e.lho + 28);
		if (data > len || e.csize > len - data)
			return capture_err(c, 0, "zip entry '%.*s' runs past the end (truncated .sr?)",
					   (int)nlen, e.name);
		e.data = d + data;
		if (fn(c, &e, arg))
			return -1;
		p += 46 + nlen + xlen + clen;
	}
	return 0;
}

/* Inflate a small entry (metadata) whole. */
static char *zip_read_small(struct capture *c, const struct zip_entry *e, size_t *out_len)
{
	char *out;
	z_stream z;
	int r;

	if (e->usize > (1u << 20))
		return capture_err(c, 0, "'%.*s' is too large", (int)e->nlen, e->name), NULL;
	out = malloc(e->usize + 1);
	if (!out)
		return NULL;
	if (e->method == 0) {
		if (e->csize != e->usize) {
			free(out);
			return capture_err(c, 0, "stored entry size mismatch (corrupt .sr)"), NULL;
		}
		memcpy(out, e->data, e->usize);
	} else if (e->method == 8) {
		memset(&z, 0, sizeof(z));
		if (inflateInit2(&z, -MAX_WBITS) != Z_OK) {
			free(out);
			return NULL;
		}
		z.next_in = (unsigned char *)e->data;
		z.avail_in = (uInt)e->csize;
		z.next_out = (unsigned char *)out;
		z.avail_out = (uInt)e->usize;
		r = inflate(&z, Z_FINISH);
		inflateEnd(&z);
		if (r != Z_STREAM_END || z.total_out != e->usize) {
			free(out);
			return capture_err(c, 0, "'%.*s': corrupt deflate data", (int)e->nlen, e->name), NULL;
		}
	} else {
		free(out);
		return capture_err(c, 0, "zip method %d not supported", e->method), NULL;
	}
	if (crc32(0, (unsigned char *)out, (uInt)e->usize) != e->crc) {
		free(out);
		return capture_err(c, 0, "'%.*s': CRC mismatch (corrupt .sr)", (int)e->nlen, e->name), NULL;
	}
	out[e->usize] = 0;
	*out_len = e->usize;
	return out;
}

/* ---- metadata ---------------------------------------------------------- */

struct sr_scan {
	char *metadata;
	size_t mlen;
	char capturefile[64];
	int pass;
	/* every data entry's byte range, to refuse overlapping entries */
	struct { size_t lo, hi; } *ranges;
	size_t nranges, capranges;
};

static int chunks_add(struct sr_chunks *l, const struct zip_entry *e, long num)
{
	struct sr_chunk *ch;

	if (l->n == l->cap) {
		unsigned cap = l->cap ? l->cap * 2 : 16;
		struct sr_chunk *nc = realloc(l->c, cap * sizeof(*nc));

		if (!nc)
			return -1;
		l->c = nc;
		l->cap = cap;
	}
	ch = &l->c[l->n++];
	ch->data = e->data;
	ch->csize = e->csize;
	ch->usize = e->usize;
	ch->crc = e->crc;
	ch->method = e->method;
	ch->num = num;
	snprintf(ch->name, sizeof(ch->name), "%.*s", (int)(e->nlen < 60 ? e->nlen : 60), e->name);
	return 0;
}

/* "-N" digits after a prefix: N, or -1. */
static long entry_suffix(const char *name, size_t nlen, size_t at)
{
	long num = 0;

	if (at >= nlen || name[at] != '-' || nlen - at < 2 || nlen - at > 10)
		return -1;
	/* "logic-1-01" is not chunk 1: sigrok opens the entries by their
	 * printed names ("%s-%d"), and never finds it */
	if (name[at + 1] == '0')
		return -1;
	for (size_t i = at + 1; i < nlen; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		num = num * 10 + (name[i] - '0');
	}
	return num;
}

static int entry_check(struct capture *c, struct sr_scan *sc, const struct zip_entry *e)
{
	if (e->method != 0 && e->method != 8)
		return capture_err(c, 0, "'%.*s': zip method %d not supported", (int)e->nlen, e->name,
				   e->method);
	if (e->method == 0 && e->csize != e->usize)
		return capture_err(c, 0, "'%.*s': stored size mismatch (corrupt .sr)", (int)e->nlen,
				   e->name);
	if (e->method == 8 && e->usize > (uint64_t)SR_MAX_RATIO * e->csize + 1024)
		return capture_err(c, 0, "'%.*s' claims %llu bytes from %llu compressed: more than "
				   "deflate can produce (corrupt .sr, or a zip bomb)", (int)e->nlen,
				   e->name, (unsigned long long)e->usize, (unsigned long long)e->csize);
	if (sc->nranges == sc->capranges) {
		size_t cap = sc->capranges ? sc->capranges * 2 : 64;
		void *nr = realloc(sc->ranges, cap * sizeof(*sc->ranges));

		if (!nr)
			return -1;
		sc->ranges = nr;
		sc->capranges = cap;
	}
	sc->ranges[sc->nranges].lo = e->lho;
	sc->ranges[sc->nranges].hi = (size_t)((const char *)e->data - c->data) + (size_t)e->csize;
	sc->nranges++;
	return 0;
}

static int sr_scan_entry(struct capture *c, const struct zip_entry *e, void *arg)
{
	struct sr_scan *sc = arg;
	struct sr *s = c->priv;
	size_t cl = strlen(sc->capturefile);
	long num;

	if (sc->pass == 0) {
		if (e->nlen == 8 && !memcmp(e->name, "metadata", 8) && !sc->metadata) {
			sc->metadata = zip_read_small(c, e, &sc->mlen);
			if (!sc->metadata)
				return -1;
		}
		return 0;
	}
	/* logic: "logic-1" (format 1) or "logic-1-N" */
	if (e->nlen >= cl && !memcmp(e->name, sc->capturefile, cl)) {
		num = e->nlen == cl ? 0 : entry_suffix(e->name, e->nlen, cl);
		if (num < 0)
			return 0;
		if (entry_check(c, sc, e) || chunks_add(&s->logic, e, num))
			return -1;
		return 0;
	}
	/* analog: "analog-1-I-N" */
	if (e->nlen > 9 && !memcmp(e->name, "analog-1-", 9)) {
		size_t at = 9;
		unsigned long idx = 0;

		while (at < e->nlen && e->name[at] >= '0' && e->name[at] <= '9' && idx < 100000)
			idx = idx * 10 + (unsigned long)(e->name[at++] - '0');
		num = entry_suffix(e->name, e->nlen, at);
		if (at == 9 || num < 0)
			return 0;
		for (unsigned k = 0; k < s->nanalog; k++)
			if (s->analog[k].idx == idx) {
				if (entry_check(c, sc, e) || chunks_add(&s->analog[k].chunks, e, num))
					return -1;
				break;
			}
	}
	return 0;
}

static int chunk_cmp(const void *a, const void *b)
{
	long x = ((const struct sr_chunk *)a)->num, y = ((const struct sr_chunk *)b)->num;

	return (x > y) - (x < y);
}

/* The chunks sigrok reads (libsigrok's session driver opens entries by
 * name): a bare "logic-1" entry alone, else "logic-1-1", "-2", ... up to
 * the first missing number. Entries past a gap are left out with a note (a
 * session that lost a chunk: sigrok drops the rest too, and joining the
 * pieces would put edges across the hole). @l is sorted by number. */
static int sr_chunks_pick(struct capture *c, struct sr_chunks *l)
{
	unsigned k;

	for (k = 1; k < l->n; k++)
		if (l->c[k].num == l->c[k - 1].num)
			return capture_err(c, 0, "two zip entries named '%s' (corrupt .sr)", l->c[k].name);
	if (l->n && l->c[0].num == 0) {
		if (l->n > 1)
			capture_note(c, "'%s' read alone, as sigrok does; '%s'%s not read", l->c[0].name,
				     l->c[1].name, l->n > 2 ? " and later" : "");
		l->n = 1;
		return 0;
	}
	for (k = 0; k < l->n && l->c[k].num == (long)k + 1; k++)
		;
	if (k < l->n && k > 0)
		capture_note(c, "'%s'%s not read: chunk %u is missing (sigrok stops there too)",
			     l->c[k].name, k + 1 < l->n ? " and later" : "", k + 1);
	l->n = k;
	return 0;
}

static int range_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* Trim blanks (and a CR) at both ends, in place. */
static char *trim(char *p)
{
	char *e;

	while (*p == ' ' || *p == '\t')
		p++;
	e = p + strlen(p);
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = 0;
	return p;
}

/* "probe12" / "analog3" -> 12 / 3; 0 if not that key. */
static unsigned key_index(const char *key, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	unsigned long k;

	if (strncmp(key, prefix, n) || key[n] < '1' || key[n] > '9')
		return 0;
	k = strtoul(key + n, &end, 10);
	return *end || k > SR_MAX_PROBES ? 0 : (unsigned)k;
}

/* The metadata's [device 1] section (an INI file, cut up in place):
 * capturefile, samplerate, unitsize and the probe count into @sc and @s,
 * the logic and analog channel names into @names and @anames (indexed
 * from 1; the caller frees them). */
static int sr_read_metadata(struct capture *c, struct sr *s, struct sr_scan *sc, char **names,
			    char **anames, unsigned *probes)
{
	char *line, *save = NULL;
	int in_dev = 0;

	/* An INI file; format 1 (sigrok 0.2) and some format 2 writers put
	 * blanks around '=' ("total probes = 8"), sigrok reads both. */
	for (line = strtok_r(sc->metadata, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq, *key, *val;
		unsigned k;

		line = trim(line);
		if (line[0] == '[') {
			in_dev = !strncmp(line, "[device 1]", 10);
			continue;
		}
		if (!in_dev || line[0] == '#' || line[0] == ';' || !(eq = strchr(line, '=')))
			continue;
		*eq = 0;
		key = trim(line);
		val = trim(eq + 1);
		if (!strcmp(key, "capturefile")) {
			snprintf(sc->capturefile, sizeof(sc->capturefile), "%s", val);
		} else if (!strcmp(key, "samplerate")) {
			if (capture_parse_rate(val, strlen(val), &s->rate)) {
				capture_err(c, 0, "metadata: cannot read samplerate '%.40s'", val);
				return -1;
			}
		} else if (!strcmp(key, "unitsize")) {
			s->unitsize = (unsigned)strtoul(val, NULL, 10);
		} else if (!strcmp(key, "total probes")) {
			*probes = (unsigned)strtoul(val, NULL, 10);
		} else if ((k = key_index(key, "probe"))) {
			free(names[k]);
			names[k] = strdup(val);
		} else if ((k = key_index(key, "analog"))) {
			free(anames[k]);
			anames[k] = strdup(val);
		}
	}
	return 0;
}

/* The channels: @probes logic ones as far as the sample's bits reach, then
 * the analog ones. */
static int sr_add_channels(struct capture *c, struct sr *s, char **names, char **anames,
			   unsigned probes)
{
	unsigned fit;

	if (probes > SR_MAX_PROBES) {
		capture_err(c, 0, "metadata: %u probes (sqwave reads up to %d)", probes, SR_MAX_PROBES);
		return -1;
	}
	if (s->unitsize < 1 || s->unitsize > sizeof(s->carry)) {
		capture_err(c, 0, "metadata: unitsize %u (1 to %zu bytes per sample)", s->unitsize,
			    sizeof(s->carry));
		return -1;
	}
	/* The logic channels, in bit order. sigrok lists every probe, names the
	 * unnamed ones by their number and leaves them disabled; a probe beyond
	 * the sample's bits has no data (sigrok would read the next sample). */
	fit = probes < 8 * s->unitsize ? probes : 8 * s->unitsize;
	for (unsigned k = 1; k <= fit; k++) {
		char nm[16];
		const char *n = names[k];
		int i;

		if (!n) {
			snprintf(nm, sizeof(nm), "%u", k - 1);
			n = nm;
		}
		i = capture_add_channel(c, n, strlen(n));
		if (i < 0)
			return -1;
		c->chans[i].disabled = !names[k];
	}
	s->nlogic = fit;
	if (probes > fit)
		capture_note(c, "probes %u..%u do not fit in %u-byte samples: not read", fit + 1, probes,
			     s->unitsize);
	/* analog channels: analogN keys, numbered after the logic probes */
	for (unsigned k = 1; k <= SR_MAX_PROBES; k++) {
		struct sr_analog *na;
		int i;

		if (!anames[k])
			continue;
		na = realloc(s->analog, (s->nanalog + 1) * sizeof(*na));
		if (!na)
			return -1;
		s->analog = na;
		i = capture_add_channel(c, anames[k], strlen(anames[k]));
		if (i < 0)
			return -1;
		c->chans[i].analog = 1;
		memset(&s->analog[s->nanalog], 0, sizeof(s->analog[0]));
		s->analog[s->nanalog].chan = (unsigned)i;
		s->analog[s->nanalog].idx = k;
		s->nanalog++;
	}
	if (!c->n_chans) {
		capture_err(c, 0, "metadata lists no channels (no 'total probes', no 'analogN')");
		return -1;
	}
	return 0;
}

/* After the second zip pass: the entries' byte ranges disjoint, each
 * channel's chunks sorted and picked as sigrok reads them, and data for
 * every channel. */
static int sr_pick_data(struct capture *c, struct sr *s, struct sr_scan *sc)
{
	/* entries must not share bytes: one deflate stream listed many times is
	 * how a small zip inflates to terabytes */
	if (sc->nranges > 1) {
		qsort(sc->ranges, sc->nranges, sizeof(*sc->ranges), range_cmp);
		for (size_t i = 1; i < sc->nranges; i++)
			if (sc->ranges[i].lo < sc->ranges[i - 1].hi) {
				capture_err(c, 0, "zip entries overlap (corrupt .sr, or a zip bomb)");
				return -1;
			}
	}
	if (s->logic.n)
		qsort(s->logic.c, s->logic.n, sizeof(*s->logic.c), chunk_cmp);
	for (unsigned k = 0; k < s->nanalog; k++)
		if (s->analog[k].chunks.n)
			qsort(s->analog[k].chunks.c, s->analog[k].chunks.n, sizeof(struct sr_chunk),
			      chunk_cmp);
	if (sr_chunks_pick(c, &s->logic))
		return -1;
	for (unsigned k = 0; k < s->nanalog; k++)
		if (sr_chunks_pick(c, &s->analog[k].chunks))
			return -1;
	/* sigrok refuses a session whose data it cannot find: so does sqwave
	 * (0 edges from a session that lost its data is a wrong answer) */
	if (s->nlogic && !s->logic.n) {
		capture_err(c, 0, "no logic data: no '%s' or '%s-1' entry in this zip (truncated or "
			    "corrupt .sr)", sc->capturefile, sc->capturefile);
		return -1;
	}
	for (unsigned k = 0; k < s->nanalog; k++)
		if (!s->analog[k].chunks.n) {
			capture_err(c, 0, "no data for analog channel '%s': no 'analog-1-%u-1' entry in "
				    "this zip (truncated or corrupt .sr)", c->chans[s->analog[k].chan].name,
				    s->analog[k].idx);
			return -1;
		}
	return 0;
}

/* The number of samples: the logic data's, or the longest analog channel's. */
static void sr_count_samples(struct capture *c, struct sr *s)
{
	for (unsigned i = 0; i < s->logic.n; i++)
		s->total += s->logic.c[i].usize;
	if (s->total % s->unitsize)
		capture_note(c, "logic data is not a whole number of %u-byte samples", s->unitsize);
	s->total /= s->unitsize;
	if (!s->nlogic || !s->logic.n) {
		/* analog only: the samples are 4-byte floats */
		s->total = 0;
		for (unsigned k = 0; k < s->nanalog; k++) {
			uint64_t n = 0;

			for (unsigned i = 0; i < s->analog[k].chunks.n; i++)
				n += s->analog[k].chunks.c[i].usize / 4;
			if (n > s->total)
				s->total = n;
		}
	}
}

static int sr_open(struct capture *c)
{
	struct sr *s = calloc(1, sizeof(*s));
	struct sr_scan sc = { 0 };
	int ret = -1;
	unsigned probes = 0;
	char **names = NULL, **anames = NULL;

	if (!s)
		return -1;
	c->priv = s;
	s->sel_analog = -1;
	if (zip_walk(c, sr_scan_entry, &sc))
		goto out;
	if (!sc.metadata) {
		capture_err(c, 0, "no 'metadata' in this zip: not a sigrok session");
		goto out;
	}
	strcpy(sc.capturefile, "logic-1");
	s->unitsize = 1;
	names = calloc(SR_MAX_PROBES + 1, sizeof(*names));
	anames = calloc(SR_MAX_PROBES + 1, sizeof(*anames));
	if (!names || !anames)
		goto out;
	if (sr_read_metadata(c, s, &sc, names, anames, &probes))
		goto out;
	if (sr_add_channels(c, s, names, anames, probes))
		goto out;
	sc.pass = 1;
	if (zip_walk(c, sr_scan_entry, &sc))
		goto out;
	if (sr_pick_data(c, s, &sc))
		goto out;
	sr_count_samples(c, s);
	if (c->opts.samplerate_hz > 0)
		s->rate = c->opts.samplerate_hz;
	if (!(s->rate > 0)) {
		capture_err(c, 0, "metadata has no samplerate; give the samplerate");
		goto out;
	}
	if (s->rate > 1e12) {
		capture_err(c, 0, "samplerate %g Hz is above 1 THz: not a real capture", s->rate);
		goto out;
	}
	c->info.samplerate_hz = s->rate;
	c->info.resolution_ps = capture_sample_ps(1, s->rate);
	c->info.start_ps = 0;
	c->info.end_ps = capture_sample_ps((int64_t)s->total, s->rate);
	if (!capture_ps_ok(c->info.end_ps)) {
		capture_err(c, 0, "%llu samples at %g Hz last beyond the +-%.0f days sqwave holds",
			    (unsigned long long)s->total, s->rate, capture_ps_to_s(CAPTURE_PS_MAX) / 86400);
		goto out;
	}
	c->info.end_known = 1;
	ret = 0;
out:
	for (unsigned k = 0; names && k <= SR_MAX_PROBES; k++)
		free(names[k]);
	for (unsigned k = 0; anames && k <= SR_MAX_PROBES; k++)
		free(anames[k]);
	free(names);
	free(anames);
	free(sc.metadata);
	free(sc.ranges);
	return ret;
}

/* ---- chunk streams ----------------------------------------------------- */

static void stream_reset(struct sr_stream *st, const struct sr_chunks *list)
{
	if (st->zinit)
		inflateEnd(&st->z);
	st->zinit = 0;
	st->list = list;
	st->ci = 0;
	st->have = st->pos = 0;
	st->chunk_out = 0;
	st->crc = 0;
	st->no_crc = 0;
}

/* Refill buf from the current chunk. Returns >0 bytes, 0 at the end, -1 error. */
static int stream_fill(struct capture *c, struct sr_stream *s)
{
	for (;;) {
		const struct sr_chunk *k;
		int ended;

		if (!s->list || s->ci >= s->list->n)
			return 0;
		k = &s->list->c[s->ci];
		if (k->method == 0) {
			size_t n = k->usize - s->chunk_out > SR_BUF ? SR_BUF : (size_t)(k->usize - s->chunk_out);

			memcpy(s->buf, k->data + s->chunk_out, n);
			s->have = n;
			ended = s->chunk_out + n == k->usize;
		} else {
			int r;

			if (!s->zinit) {
				memset(&s->z, 0, sizeof(s->z));
				if (inflateInit2(&s->z, -MAX_WBITS) != Z_OK)
					return capture_err(c, 0, "zlib init failed");
				s->zinit = 1;
				s->z.next_in = (unsigned char *)k->data;
				s->z.avail_in = (uInt)k->csize;
			}
			s->z.next_out = s->buf;
			s->z.avail_out = SR_BUF;
			r = inflate(&s->z, Z_NO_FLUSH);
			if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR)
				return capture_err(c, 0, "'%s': corrupt deflate data", k->name);
			s->have = SR_BUF - s->z.avail_out;
			ended = r == Z_STREAM_END;
			if (!ended && !s->have)
				return capture_err(c, 0, "'%s': deflate data ends early (truncated .sr?)",
						   k->name);
		}
		s->pos = 0;
		s->chunk_out += s->have;
		if (!s->no_crc)
			s->crc = (uint32_t)crc32(s->crc, s->buf, (uInt)s->have);
		if (s->chunk_out > k->usize)
			return capture_err(c, 0, "'%s' is longer than its directory says (corrupt .sr)",
					   k->name);
		if (ended) {
			if (s->chunk_out != k->usize)
				return capture_err(c, 0, "'%s' ends after %llu of %llu bytes (corrupt .sr)",
						   k->name, (unsigned long long)s->chunk_out,
						   (unsigned long long)k->usize);
			if (!s->no_crc && s->crc != k->crc)
				return capture_err(c, 0, "'%s': CRC mismatch (corrupt .sr)", k->name);
			s->ci++;
			s->chunk_out = 0;
			s->crc = 0;
			if (s->zinit) {
				inflateEnd(&s->z);
				s->zinit = 0;
			}
		}
		if (s->have)
			return (int)s->have;
	}
}

/* Next @n bytes into @out (across refills). 1, 0 at the end, -1 error. */
static int stream_read(struct capture *c, struct sr_stream *st, unsigned char *out, unsigned n,
		       unsigned *got)
{
	while (*got < n) {
		if (st->pos == st->have) {
			int r = stream_fill(c, st);

			if (r <= 0)
				return r;
		}
		out[(*got)++] = st->buf[st->pos++];
	}
	*got = 0;
	return 1;
}

/* ---- logic ------------------------------------------------------------- */

/* XOR of every sample with @first over @n whole samples at @b, OR-ed into
 * @seen: a probe that ever differs from its first value has an edge. Sample
 * sizes that divide 64 go through a 64-byte pattern (the compiler vectorises
 * it); others one sample at a time. */
static void scan_block(const unsigned char *b, size_t n, unsigned us, const unsigned char *first,
		       unsigned char *seen)
{
	if (64 % us == 0) {
		unsigned char pat[64], acc[64];
		uint64_t p64[8], a64[8] = { 0 };
		size_t bytes = n * us, i = 0;

		for (unsigned k = 0; k < 64; k++)
			pat[k] = first[k % us];
		memcpy(p64, pat, sizeof(p64));
		for (; i + 64 <= bytes; i += 64) {
			uint64_t w[8];

			memcpy(w, b + i, sizeof(w));
			for (unsigned k = 0; k < 8; k++)
				a64[k] |= w[k] ^ p64[k];
		}
		memcpy(acc, a64, sizeof(acc));
		for (; i < bytes; i++)
			acc[i % 64] |= b[i] ^ pat[i % 64];
		for (unsigned k = 0; k < 64; k++)
			seen[k % us] |= acc[k];
		return;
	}
	for (size_t i = 0; i < n; i++, b += us)
		for (unsigned k = 0; k < us; k++)
			seen[k] |= b[k] ^ first[k];
}

/* One pass over the samples: which probes change at all. */
static int sr_scan(struct capture *c, signed char *has_edge)
{
	struct sr *s = c->priv;
	const unsigned us = s->unitsize;
	unsigned char first[SR_MAX_PROBES / 8], seen[SR_MAX_PROBES / 8], smp[SR_MAX_PROBES / 8];
	unsigned got = 0, want = 0;
	int have_first = 0, r;

	memset(seen, 0, sizeof(seen));
	for (unsigned i = 0; i < s->nlogic; i++)
		has_edge[i] = 0;
	/* analog channels: unknown here (the factory tries them one by one) */
	stream_reset(&s->st, &s->logic);
	s->st.no_crc = 1;
	/* the first probe automatic choice could take: stop once it has an edge */
	while (want < s->nlogic && c->chans[want].disabled)
		want++;
	for (;;) {
		if (s->st.pos + us <= s->st.have && !got) {
			const unsigned char *b = s->st.buf + s->st.pos;
			size_t n = (s->st.have - s->st.pos) / us;

			if (!have_first) {
				memcpy(first, b, us);
				have_first = 1;
			}
			scan_block(b, n, us, first, seen);
			s->st.pos += n * us;
		} else {
			r = stream_read(c, &s->st, smp, us, &got);
			if (r < 0)
				return -1;
			if (r == 0)
				break;
			if (!have_first) {
				memcpy(first, smp, us);
				have_first = 1;
			}
			scan_block(smp, 1, us, first, seen);
			continue;
		}
		if (want < s->nlogic && (seen[want / 8] >> (want % 8) & 1))
			break;
	}
	for (unsigned i = 0; i < s->nlogic; i++)
		has_edge[i] = (seen[i / 8] >> (i % 8)) & 1;
	stream_reset(&s->st, &s->logic);
	return 0;
}

static int sr_next_logic(struct capture *c, struct capture_edge *e)
{
	struct sr *s = c->priv;
	const unsigned us = s->unitsize, byte = s->byte, bit = s->bit;

	for (;;) {
		int lv;

		if (s->ncarry || s->st.have - s->st.pos < us) {
			/* assemble one sample across buffer refills */
			int r = stream_read(c, &s->st, s->carry, us, &s->ncarry);

			if (r < 0)
				return -1;
			if (r == 0) {
				s->done = 1;
				return 0;
			}
			lv = (s->carry[byte] >> bit) & 1;
		} else {
			/* fast path inside the buffer */
			const unsigned char *b = s->st.buf + s->st.pos;
			size_t n = (s->st.have - s->st.pos) / us;

			if (s->level < 0) {
				s->level = (b[byte] >> bit) & 1;
				c->info.initial_level = s->level;
				s->st.pos += us;
				s->sample++;
				continue;
			}
			for (size_t i = 0; i < n; i++, b += us) {
				lv = (b[byte] >> bit) & 1;
				if (lv != s->level) {
					s->st.pos += (i + 1) * us;
					s->sample += i + 1;
					s->level = lv;
					e->sample = (int64_t)s->sample - 1;
					e->t_ps = capture_sample_ps(e->sample, s->rate);
					e->level = (uint8_t)lv;
					e->flags = 0;
					return 1;
				}
			}
			s->st.pos += n * us;
			s->sample += n;
			continue;
		}
		s->sample++;
		if (s->level < 0) {
			s->level = lv;
			c->info.initial_level = lv;
			continue;
		}
		if (lv != s->level) {
			s->level = lv;
			e->sample = (int64_t)s->sample - 1;
			e->t_ps = capture_sample_ps(e->sample, s->rate);
			e->level = (uint8_t)lv;
			e->flags = 0;
			return 1;
		}
	}
}

/* ---- analog: little-endian float32 samples ----------------------------- */

static double sr_float(const unsigned char *b)
{
	uint32_t u = rd32(b);
	float f;

	memcpy(&f, &u, sizeof(f));
	return (double)f;
}

static int sr_select_analog(struct capture *c, struct sr *s, unsigned k)
{
	struct capture_levelscan ls;
	struct capture_levels lv;
	unsigned char b[4];
	unsigned got = 0;
	int r;

	s->sel_analog = (int)k;
	if (capture_levelscan_init(&ls, SR_LEVEL_SAMPLES))
		return -1;
	stream_reset(&s->st, &s->analog[k].chunks);
	while ((r = stream_read(c, &s->st, b, 4, &got)) == 1)
		capture_levelscan_add(&ls, sr_float(b));
	capture_levels_from_scan(&ls, &lv);
	capture_levelscan_free(&ls);
	if (r < 0)
		return -1;
	stream_reset(&s->st, &s->analog[k].chunks);
	s->an_on = capture_analog_setup(c, &lv, &s->an);
	capture_set_edge_window(c, c->info.resolution_ps, c->info.analog);
	return s->an_on;
}

static int sr_next_analog(struct capture *c, struct capture_edge *e)
{
	struct sr *s = c->priv;
	unsigned char b[4];
	unsigned got = 0;
	double x;
	int lvl, r;

	if (!s->an_on) {
		s->done = 1;
		return 0;
	}
	while ((r = stream_read(c, &s->st, b, 4, &got)) == 1) {
		int64_t i = (int64_t)s->sample++;

		if (capture_analog_feed(&s->an, i, sr_float(b), &x, &lvl)) {
			double fl = floor(x);

			e->t_ps = capture_sample_ps((int64_t)fl, s->rate) +
				  capture_ld_to_ps((long double)(x - fl) * c->info.resolution_ps);
			e->sample = (int64_t)ceil(x);
			e->level = (uint8_t)lvl;
			e->flags = 0;
			return 1;
		}
		if (c->info.initial_level < 0 && s->an.state >= 0)
			c->info.initial_level = s->an.state;
	}
	if (r < 0)
		return -1;
	s->done = 1;
	return 0;
}

static int sr_select(struct capture *c, unsigned ch, int bit)
{
	struct sr *s = c->priv;

	(void)bit;
	s->ncarry = 0;
	s->sample = 0;
	s->level = -1;
	s->done = 0;
	s->sel_analog = -1;
	c->info.end_known = 1;
	c->info.initial_level = -1;
	c->info.analog = 0;
	if (c->chans[ch].analog) {
		for (unsigned k = 0; k < s->nanalog; k++)
			if (s->analog[k].chan == ch)
				return sr_select_analog(c, s, k);
		return capture_err(c, 0, "internal: analog channel without data");
	}
	s->byte = ch / 8;
	s->bit = ch % 8;
	stream_reset(&s->st, &s->logic);
	capture_set_edge_window(c, c->info.resolution_ps, 0);
	return 1;
}

static int sr_next(struct capture *c, struct capture_edge *e)
{
	struct sr *s = c->priv;

	if (s->done)
		return 0;
	return s->sel_analog >= 0 ? sr_next_analog(c, e) : sr_next_logic(c, e);
}

static void sr_close(struct capture *c)
{
	struct sr *s = c->priv;

	if (!s)
		return;
	if (s->st.zinit)
		inflateEnd(&s->st.z);
	free(s->logic.c);
	for (unsigned k = 0; k < s->nanalog; k++)
		free(s->analog[k].chunks.c);
	free(s->analog);
	free(s);
	c->priv = NULL;
}

const struct capture_ops capture_sr_ops = {
	.name = "sigrok-sr",
	.probe = sr_probe,
	.open = sr_open,
	.select = sr_select,
	.next = sr_next,
	.close = sr_close,
	.scan = sr_scan,
};
