/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sigrok session (.sr) import: a zip (central directory read here, deflate by
 * zlib) holding an INI "metadata" and logic chunks logic-1-1..N in numeric order. */
#include "capture_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define SR_BUF (1 << 16)

struct sr_chunk {
	const unsigned char *data;  /* compressed bytes in the file */
	uint64_t csize, usize;
	uint32_t crc;
	int method;                 /* 0 stored, 8 deflate */
	long num;                   /* N of logic-1-N (0 for a bare "logic-1") */
	char name[64];
};

struct sr {
	struct sr_chunk *chunks;
	unsigned nchunks, capchunks;
	unsigned unitsize;
	double rate;
	uint64_t total;             /* samples */
	/* stream */
	unsigned byte, bit;         /* where the selected probe lives in a sample */
	unsigned ci;                /* current chunk */
	int zinit;
	z_stream z;
	uint64_t chunk_out;         /* bytes produced from the current chunk */
	uint32_t crc;
	unsigned char buf[SR_BUF];
	size_t have, pos;           /* bytes in buf, next byte to use */
	unsigned char carry[64];    /* a sample split across two chunks */
	unsigned ncarry;
	uint64_t sample;            /* index of the next sample */
	int level;
	int done;
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
		size_t nlen, xlen, clen, lho, data;

		if (p + 46 > eocd || rd32(d + p) != 0x02014b50)
			return capture_err(c, 0, "bad zip directory entry %u (corrupt .sr)", i);
		e.method = (int)rd16(d + p + 10);
		e.crc = rd32(d + p + 16);
		e.csize = rd32(d + p + 20);
		e.usize = rd32(d + p + 24);
		nlen = rd16(d + p + 28);
		xlen = rd16(d + p + 30);
		clen = rd16(d + p + 32);
		lho = rd32(d + p + 42);
		if (p + 46 + nlen + xlen + clen > eocd)
			return capture_err(c, 0, "bad zip directory entry %u (corrupt .sr)", i);
		e.name = (const char *)d + p + 46;
		e.nlen = nlen;
		if (lho + 30 > len || rd32(d + lho) != 0x04034b50)
			return capture_err(c, 0, "zip entry '%.*s': bad local header (corrupt .sr)",
					   (int)nlen, e.name);
		data = lho + 30 + rd16(d + lho + 26) + rd16(d + lho + 28);
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

struct sr_scan {
	char *metadata;
	size_t mlen;
	char capturefile[64];
	int pass;
};

static int sr_scan_entry(struct capture *c, const struct zip_entry *e, void *arg)
{
	struct sr_scan *sc = arg;
	struct sr *s = c->priv;

	if (sc->pass == 0) {
		if (e->nlen == 8 && !memcmp(e->name, "metadata", 8) && !sc->metadata) {
			sc->metadata = zip_read_small(c, e, &sc->mlen);
			if (!sc->metadata)
				return -1;
		}
		return 0;
	}
	{
		size_t cl = strlen(sc->capturefile);
		long num = 0;
		struct sr_chunk *ch;

		if (e->nlen < cl || memcmp(e->name, sc->capturefile, cl))
			return 0;
		if (e->nlen > cl) {
			if (e->name[cl] != '-' || e->nlen == cl + 1 || e->nlen - cl > 12)
				return 0;
			for (size_t i = cl + 1; i < e->nlen; i++) {
				if (e->name[i] < '0' || e->name[i] > '9')
					return 0;
				num = num * 10 + (e->name[i] - '0');
			}
		}
		if (e->method != 0 && e->method != 8)
			return capture_err(c, 0, "'%.*s': zip method %d not supported", (int)e->nlen,
					   e->name, e->method);
		if (s->nchunks == s->capchunks) {
			unsigned cap = s->capchunks ? s->capchunks * 2 : 16;
			struct sr_chunk *nc = realloc(s->chunks, cap * sizeof(*nc));

			if (!nc)
				return -1;
			s->chunks = nc;
			s->capchunks = cap;
		}
		ch = &s->chunks[s->nchunks++];
		ch->data = e->data;
		ch->csize = e->csize;
		ch->usize = e->usize;
		ch->crc = e->crc;
		ch->method = e->method;
		ch->num = num;
		snprintf(ch->name, sizeof(ch->name), "%.*s", (int)(e->nlen < 60 ? e->nlen : 60), e->name);
	}
	return 0;
}

static int chunk_cmp(const void *a, const void *b)
{
	long x = ((const struct sr_chunk *)a)->num, y = ((const struct sr_chunk *)b)->num;

	return (x > y) - (x < y);
}

static int sr_open(struct capture *c)
{
	struct sr *s = calloc(1, sizeof(*s));
	struct sr_scan sc = { 0 };
	char *line, *save = NULL;
	int in_dev = 0, ret = -1;
	unsigned probes = 0;
	char **names = NULL;

	if (!s)
		return -1;
	c->priv = s;
	if (zip_walk(c, sr_scan_entry, &sc))
		goto out;
	if (!sc.metadata) {
		capture_err(c, 0, "no 'metadata' in this zip: not a sigrok session");
		goto out;
	}
	strcpy(sc.capturefile, "logic-1");
	s->unitsize = 1;
	for (line = strtok_r(sc.metadata, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq, *val;
		size_t l = strlen(line);

		if (l && line[l - 1] == '\r')
			line[--l] = 0;
		if (line[0] == '[') {
			in_dev = !strncmp(line, "[device 1]", 10);
			continue;
		}
		if (!in_dev || !(eq = strchr(line, '=')))
			continue;
		*eq = 0;
		val = eq + 1;
		if (!strcmp(line, "capturefile")) {
			snprintf(sc.capturefile, sizeof(sc.capturefile), "%s", val);
		} else if (!strcmp(line, "samplerate")) {
			if (capture_parse_rate(val, strlen(val), &s->rate)) {
				capture_err(c, 0, "metadata: cannot read samplerate '%s'", val);
				goto out;
			}
		} else if (!strcmp(line, "unitsize")) {
			s->unitsize = (unsigned)strtoul(val, NULL, 10);
		} else if (!strcmp(line, "total probes")) {
			probes = (unsigned)strtoul(val, NULL, 10);
		} else if (!strncmp(line, "probe", 5) && line[5] >= '1' && line[5] <= '9') {
			unsigned k = (unsigned)strtoul(line + 5, NULL, 10);

			if (k >= 1 && k <= 512) {
				if (!names && !(names = calloc(513, sizeof(*names))))
					goto out;
				free(names[k]);
				names[k] = strdup(val);
			}
		}
	}
	if (probes == 0) {
		capture_err(c, 0, "no logic channels in this session (analog-only .sr is not supported)");
		goto out;
	}
	if (s->unitsize < 1 || s->unitsize > sizeof(s->carry) || probes > 8 * s->unitsize) {
		capture_err(c, 0, "metadata: unitsize %u does not hold %u probes", s->unitsize, probes);
		goto out;
	}
	for (unsigned k = 1; k <= probes; k++) {
		char nm[16];
		const char *n = names && k <= 512 && names[k] ? names[k] : NULL;

		if (!n) {
			/* a disabled probe keeps its bit but has no name */
			snprintf(nm, sizeof(nm), "D%u", k - 1);
			n = nm;
		}
		if (capture_add_channel(c, n, strlen(n)) < 0)
			goto out;
	}
	sc.pass = 1;
	if (zip_walk(c, sr_scan_entry, &sc))
		goto out;
	if (s->nchunks)
		qsort(s->chunks, s->nchunks, sizeof(*s->chunks), chunk_cmp);
	for (unsigned i = 0; i < s->nchunks; i++)
		s->total += s->chunks[i].usize;
	if (s->total % s->unitsize)
		capture_note(c, "logic data is not a whole number of %u-byte samples", s->unitsize);
	s->total /= s->unitsize;
	if (c->opts.samplerate_hz > 0)
		s->rate = c->opts.samplerate_hz;
	if (!(s->rate > 0)) {
		capture_err(c, 0, "metadata has no samplerate; give the samplerate");
		goto out;
	}
	c->info.samplerate_hz = s->rate;
	c->info.resolution_fs = capture_sample_fs(1, s->rate);
	c->info.start_fs = 0;
	c->info.end_fs = capture_sample_fs((int64_t)s->total, s->rate);
	c->info.end_known = 1;
	ret = 0;
out:
	if (names)
		for (unsigned k = 0; k <= 512; k++)
			free(names[k]);
	free(names);
	free(sc.metadata);
	return ret;
}

static int sr_select(struct capture *c, unsigned ch, int bit)
{
	struct sr *s = c->priv;

	(void)bit;
	s->byte = ch / 8;
	s->bit = ch % 8;
	s->ci = 0;
	s->have = s->pos = 0;
	s->ncarry = 0;
	s->sample = 0;
	s->level = -1;
	s->done = 0;
	s->chunk_out = 0;
	s->crc = 0;
	if (s->zinit) {
		inflateEnd(&s->z);
		s->zinit = 0;
	}
	c->info.end_known = 1;
	return 1;
}

/* Refill buf from the current chunk. Returns >0 bytes, 0 at the end, -1 error. */
static int sr_fill(struct capture *c, struct sr *s)
{
	for (;;) {
		struct sr_chunk *k;
		int ended;

		if (s->ci >= s->nchunks)
			return 0;
		k = &s->chunks[s->ci];
		if (k->method == 0) {
			size_t n = k->usize - s->chunk_out > SR_BUF ? SR_BUF : (size_t)(k->usize - s->chunk_out);

			if (k->csize != k->usize)
				return capture_err(c, 0, "'%s': stored size mismatch (corrupt .sr)", k->name);
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
		s->crc = (uint32_t)crc32(s->crc, s->buf, (uInt)s->have);
		if (s->chunk_out > k->usize)
			return capture_err(c, 0, "'%s' is longer than its directory says (corrupt .sr)",
					   k->name);
		if (ended) {
			if (s->chunk_out != k->usize)
				return capture_err(c, 0, "'%s' ends after %llu of %llu bytes (corrupt .sr)",
						   k->name, (unsigned long long)s->chunk_out,
						   (unsigned long long)k->usize);
			if (s->crc != k->crc)
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

static int sr_next(struct capture *c, struct capture_edge *e)
{
	struct sr *s = c->priv;
	const unsigned us = s->unitsize, byte = s->byte, bit = s->bit;

	if (s->done)
		return 0;
	for (;;) {
		int lv;

		if (s->ncarry || s->have - s->pos < us) {
			/* assemble one sample across buffer refills */
			while (s->ncarry < us) {
				if (s->pos == s->have) {
					int r = sr_fill(c, s);

					if (r < 0)
						return -1;
					if (r == 0) {
						s->done = 1;
						return 0;
					}
				}
				s->carry[s->ncarry++] = s->buf[s->pos++];
			}
			lv = (s->carry[byte] >> bit) & 1;
			s->ncarry = 0;
		} else {
			/* fast path inside the buffer */
			const unsigned char *b = s->buf + s->pos;
			size_t n = (s->have - s->pos) / us;

			if (s->level < 0) {
				s->level = (b[byte] >> bit) & 1;
				c->info.initial_level = s->level;
				s->pos += us;
				s->sample++;
				continue;
			}
			for (size_t i = 0; i < n; i++, b += us) {
				lv = (b[byte] >> bit) & 1;
				if (lv != s->level) {
					s->pos += (i + 1) * us;
					s->sample += i + 1;
					s->level = lv;
					e->sample = (int64_t)s->sample - 1;
					e->t_fs = capture_sample_fs(e->sample, s->rate);
					e->level = (uint8_t)lv;
					e->flags = 0;
					return 1;
				}
			}
			s->pos += n * us;
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
			e->t_fs = capture_sample_fs(e->sample, s->rate);
			e->level = (uint8_t)lv;
			e->flags = 0;
			return 1;
		}
	}
}

static void sr_close(struct capture *c)
{
	struct sr *s = c->priv;

	if (!s)
		return;
	if (s->zinit)
		inflateEnd(&s->z);
	free(s->chunks);
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
};
