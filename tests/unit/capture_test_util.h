/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the capture importer tests: open a string as a capture,
 * collect edges, write temp files, build zips, read the shared truth files. */
#ifndef SQW_CAPTURE_TEST_UTIL_H
#define SQW_CAPTURE_TEST_UTIL_H

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "capture/capture.h"

/* Shared fixtures, relative to the repository root (tests run from there). */
#define FIXTURES "../shared/fixtures/captures"
#define TESTDATA "tests/data/captures"

#define PS_PER_US (CAPTURE_PS_PER_S / 1000000)
#define PS_PER_NS CAPTURE_PS_PER_NS

/* The last error: from an open that failed, or from edges_read(). */
static char test_err[1024];

static inline const char *t_error(void)
{
	return test_err;
}

static inline struct capture *t_open_mem(const void *data, size_t len, const char *name,
					 const struct capture_opts *o)
{
	test_err[0] = 0;
	return capture_open_mem(data, len, name, o, test_err, sizeof(test_err));
}

static inline struct capture *t_open(const char *path, const struct capture_opts *o)
{
	test_err[0] = 0;
	return capture_open(path, o, test_err, sizeof(test_err));
}

struct edges {
	struct capture_edge *e;
	size_t n, cap;
	int result;   /* last capture_next_edge() result: 0 end, -1 error */
};

static inline void edges_free(struct edges *x)
{
	free(x->e);
	memset(x, 0, sizeof(*x));
}

static inline struct edges edges_read(struct capture *c)
{
	struct edges x = { 0 };
	struct capture_edge e;
	int r;

	while ((r = capture_next_edge(c, &e)) == 1) {
		if (x.n == x.cap) {
			x.cap = x.cap ? x.cap * 2 : 64;
			x.e = realloc(x.e, x.cap * sizeof(*x.e));
			assert_non_null(x.e);
		}
		x.e[x.n++] = e;
	}
	x.result = r;
	if (r < 0)
		snprintf(test_err, sizeof(test_err), "%s", capture_error(c));
	return x;
}

static inline struct capture *open_str_fmt(const char *text, const char *name,
					   const char *channel, const char *format)
{
	struct capture_opts o = { 0 };

	o.channel = channel;
	o.format = format;
	return t_open_mem(text, strlen(text), name, &o);
}

static inline struct capture *open_str(const char *text, const char *name, const char *channel)
{
	return open_str_fmt(text, name, channel, NULL);
}

/* Open, read all edges, close; asserts the open worked and the read ended cleanly. */
static inline struct edges edges_of_str(const char *text, const char *name, const char *channel)
{
	struct capture *c = open_str(text, name, channel);
	struct edges x;

	if (!c)
		fail_msg("open failed: %s", t_error());
	x = edges_read(c);
	assert_int_equal(x.result, 0);
	capture_close(c);
	return x;
}

static inline int error_mentions(const char *needle)
{
	if (!strstr(t_error(), needle)) {
		print_error("error message \"%s\" does not mention \"%s\"\n", t_error(), needle);
		return 0;
	}
	return 1;
}

/* A temporary file holding @len bytes; caller unlinks and frees the path. */
static inline char *tmpfile_with(const void *data, size_t len, const char *suffix)
{
	char *path;
	int fd;
	FILE *f;

	assert_true(asprintf(&path, "/tmp/sqwave-capture-XXXXXX%s", suffix) > 0);
	fd = mkstemps(path, (int)strlen(suffix));
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	return path;
}

static inline int fixtures_present(void)
{
	struct stat st;

	return stat(FIXTURES, &st) == 0 && S_ISDIR(st.st_mode);
}

#define SKIP_WITHOUT_FIXTURES()                                                          \
	do {                                                                             \
		if (!fixtures_present()) {                                               \
			print_message("skipped: " FIXTURES " not found (run from the repo root)\n"); \
			skip();                                                          \
		}                                                                        \
	} while (0)

/* The true edges of the synthetic 1 kHz wave: column @col of
 * synth_1khz_j5us_intended_edges.csv (4: true_rigol_s, 5: true_saleae_s). */
struct truth {
	double t[4096];
	int level[4096];
	size_t n;
};

static inline void truth_load(struct truth *tr, int col)
{
	FILE *f = fopen(FIXTURES "/synth_1khz_j5us_intended_edges.csv", "r");
	char line[512];

	assert_non_null(f);
	tr->n = 0;
	assert_non_null(fgets(line, sizeof(line), f)); /* header */
	while (fgets(line, sizeof(line), f) && tr->n < 4096) {
		char *p = line;
		double v[7];

		for (int i = 0; i < 7; i++) {
			v[i] = strtod(p, &p);
			if (*p == ',')
				p++;
		}
		tr->level[tr->n] = (int)v[1];
		tr->t[tr->n++] = v[col];
	}
	fclose(f);
}

/* Every edge within @tol_s of the truth (and with the right level), the
 * count equal to the true edges before @until_s. Returns the largest error. */
static inline double edges_match_truth(const struct edges *x, const struct truth *tr, double until_s,
				       double tol_s)
{
	size_t n = 0;
	double worst = 0;

	while (n < tr->n && tr->t[n] < until_s)
		n++;
	assert_int_equal(x->n, n);
	for (size_t i = 0; i < n; i++) {
		double err = fabs(capture_ps_to_s(x->e[i].t_ps) - tr->t[i]);

		if (err > worst)
			worst = err;
		if (err > tol_s)
			fail_msg("edge %zu at %.12f s, true %.12f s: off by %.3g s > %.3g s", i,
				 capture_ps_to_s(x->e[i].t_ps), tr->t[i], err, tol_s);
		assert_int_equal(x->e[i].level, tr->level[i]);
	}
	return worst;
}

/* "edge_sample_indices": [..] of channel D2 in demo_inc8k.reference.json */
static inline size_t reference_indices(long *out, size_t max)
{
	FILE *f = fopen(FIXTURES "/demo_inc8k.reference.json", "r");
	static char buf[1 << 20];
	size_t len, n = 0;
	char *p;

	assert_non_null(f);
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = 0;
	p = strstr(buf, "\"edge_sample_indices\"");
	assert_non_null(p);
	p = strchr(p, '[');
	assert_non_null(p);
	p++;
	while (*p && *p != ']' && n < max) {
		out[n++] = strtol(p, &p, 10);
		while (*p == ',' || *p == ' ' || *p == '\n')
			p++;
	}
	return n;
}

/* ---- a minimal zip writer for .sr tests -------------------------------- */

struct zip_in {
	const char *name;
	const void *data;
	size_t len;
	int deflate;
};

static inline void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static inline void put32(unsigned char *p, uint32_t v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

/* Build a zip of @n entries in the given order; caller frees *out. */
static inline size_t zip_build(const struct zip_in *in, size_t n, unsigned char **out)
{
	size_t cap = 1024, len = 0, cd_start;
	unsigned char *b = malloc(cap);
	size_t *offs = calloc(n, sizeof(*offs));
	size_t *csz = calloc(n, sizeof(*csz));
	unsigned char **cdata = calloc(n, sizeof(*cdata));

#define ZIP_NEED(k) do { while (len + (k) > cap) { cap *= 2; b = realloc(b, cap); } } while (0)
	for (size_t i = 0; i < n; i++) {
		size_t nl = strlen(in[i].name);

		if (in[i].deflate) {
			z_stream z = { 0 };
			size_t bound = in[i].len + in[i].len / 10 + 64;

			cdata[i] = malloc(bound);
			deflateInit2(&z, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
			z.next_in = (unsigned char *)in[i].data;
			z.avail_in = (uInt)in[i].len;
			z.next_out = cdata[i];
			z.avail_out = (uInt)bound;
			deflate(&z, Z_FINISH);
			csz[i] = z.total_out;
			deflateEnd(&z);
		} else {
			cdata[i] = malloc(in[i].len + 1);
			memcpy(cdata[i], in[i].data, in[i].len);
			csz[i] = in[i].len;
		}
		offs[i] = len;
		ZIP_NEED(30 + nl + csz[i]);
		memset(b + len, 0, 30);
		put32(b + len, 0x04034b50);
		put16(b + len + 4, 20);
		put16(b + len + 8, in[i].deflate ? 8 : 0);
		put32(b + len + 14, (uint32_t)crc32(0, in[i].data, (uInt)in[i].len));
		put32(b + len + 18, (uint32_t)csz[i]);
		put32(b + len + 22, (uint32_t)in[i].len);
		put16(b + len + 26, (unsigned)nl);
		memcpy(b + len + 30, in[i].name, nl);
		memcpy(b + len + 30 + nl, cdata[i], csz[i]);
		len += 30 + nl + csz[i];
	}
	cd_start = len;
	for (size_t i = 0; i < n; i++) {
		size_t nl = strlen(in[i].name);

		ZIP_NEED(46 + nl);
		memset(b + len, 0, 46);
		put32(b + len, 0x02014b50);
		put16(b + len + 4, 20);
		put16(b + len + 6, 20);
		put16(b + len + 10, in[i].deflate ? 8 : 0);
		put32(b + len + 16, (uint32_t)crc32(0, in[i].data, (uInt)in[i].len));
		put32(b + len + 20, (uint32_t)csz[i]);
		put32(b + len + 24, (uint32_t)in[i].len);
		put16(b + len + 28, (unsigned)nl);
		put32(b + len + 42, (uint32_t)offs[i]);
		memcpy(b + len + 46, in[i].name, nl);
		len += 46 + nl;
		free(cdata[i]);
	}
	ZIP_NEED(22);
	memset(b + len, 0, 22);
	put32(b + len, 0x06054b50);
	put16(b + len + 8, (unsigned)n);
	put16(b + len + 10, (unsigned)n);
	put32(b + len + 12, (uint32_t)(len - cd_start));
	put32(b + len + 16, (uint32_t)cd_start);
	len += 22;
#undef ZIP_NEED
	free(offs);
	free(csz);
	free(cdata);
	*out = b;
	return len;
}

#endif
