/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON reader: recursive descent with bounded depth and node count. */
#include "base/jsonread.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msgbuf.h"
#include "base/utf8.h"
#include "base/outfile.h"
#include "base/sysinfo.h"

struct jp {
	const char *s, *end, *p;
	size_t nodes;
	size_t line;              /* of j->p: newlines only occur in whitespace */
	char *err;
	size_t errlen;
	bool failed;
	bool oom;                 /* the failure was memory, not the document */
};

static void jp_fail(struct jp *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void jp_fail(struct jp *j, const char *fmt, ...)
{
	const char *q;
	size_t line = 1, col = 1;
	va_list ap;
	int n;

	if (j->failed)
		return;
	j->failed = true;
	if (!j->err || !j->errlen)
		return;
	for (q = j->s; q < j->p && q < j->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	n = snprintf(j->err, j->errlen, "%zu:%zu: ", line, col);
	if (n < 0 || (size_t)n >= j->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(j->err + n, j->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static void ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) {
		if (*j->p == '\n')
			j->line++;
		j->p++;
	}
}

static struct jv *node(struct jp *j, enum jv_type t)
{
	struct jv *v;

	if (++j->nodes > JSONREAD_MAX_NODES) {
		jp_fail(j, "more than %u values", JSONREAD_MAX_NODES);
		return NULL;
	}
	v = calloc(1, sizeof(*v));
	if (!v) {
		j->oom = true;
		jp_fail(j, "out of memory");
		return NULL;
	}
	v->type = t;
	v->line = j->line;
	return v;
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* After the opening quote; returns a malloc'd string. Its bytes are UTF-8
 * without NUL: sqwave writes nothing else, and a NUL would cut the string
 * short for every C reader (a label, a key "edges\u0000x" read as "edges"). */
static char *string(struct jp *j, size_t *len)
{
	const char *q = j->p;
	size_t cap = 0, o = 0;
	char *out;

	/* Upper bound of the decoded length: the raw length. */
	while (q < j->end && *q != '"') {
		if (*q == '\\')
			q++;
		q++;
		cap++;
	}
	if (q >= j->end) {
		jp_fail(j, "unterminated string");
		return NULL;
	}
	out = malloc((size_t)(q - j->p) + 1);
	if (!out) {
		j->oom = true;
		jp_fail(j, "out of memory");
		return NULL;
	}
	(void)cap;
	while (j->p < j->end && *j->p != '"') {
		unsigned char c = (unsigned char)*j->p++;

		if (c < 0x20) {
			j->p--;
			jp_fail(j, "a control character inside a string");
			free(out);
			return NULL;
		}
		if (c >= 0x80) {
			uint32_t u;
			size_t k = utf8_decode((const unsigned char *)j->p - 1,
						      (size_t)(j->end - j->p) + 1, &u);

			if (!k) {
				j->p--;
				jp_fail(j, "not UTF-8: byte \\x%02x inside a string", c);
				free(out);
				return NULL;
			}
			out[o++] = (char)c;
			memcpy(out + o, j->p, k - 1);
			o += k - 1;
			j->p += k - 1;
			continue;
		}
		if (c != '\\') {
			out[o++] = (char)c;
			continue;
		}
		c = (unsigned char)*j->p++;
		switch (c) {
		case '"': out[o++] = '"'; break;
		case '\\': out[o++] = '\\'; break;
		case '/': out[o++] = '/'; break;
		case 'b': out[o++] = '\b'; break;
		case 'f': out[o++] = '\f'; break;
		case 'n': out[o++] = '\n'; break;
		case 'r': out[o++] = '\r'; break;
		case 't': out[o++] = '\t'; break;
		case 'u': {
			unsigned cp, lo;

			if (j->end - j->p < 4 || hex4(j->p, &cp)) {
				jp_fail(j, "bad \\u escape");
				free(out);
				return NULL;
			}
			if (cp == 0) {
				j->p -= 2;
				jp_fail(j, "a NUL character (\\u0000) inside a string");
				free(out);
				return NULL;
			}
			j->p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && j->end - j->p >= 6 && j->p[0] == '\\' &&
			    j->p[1] == 'u' && !hex4(j->p + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				j->p += 6;
			} else if (cp >= 0xd800 && cp < 0xe000) {
				/* half a surrogate pair encodes no character */
				j->p -= 6;
				jp_fail(j, "a lone surrogate \\u%04x inside a string", cp);
				free(out);
				return NULL;
			}
			o += put_utf8(out + o, cp);
			break;
		}
		default:
			j->p--;
			jp_fail(j, "bad escape \\%c", c);
			free(out);
			return NULL;
		}
	}
	j->p++;	/* the closing quote */
	out[o] = '\0';
	*len = o;
	return out;
}

static struct jv *value(struct jp *j, int depth);

static int key_cmp(const void *a, const void *b)
{
	const char *const *x = a, *const *y = b;

	return strcmp(*x, *y);
}

/* A member name given twice: readers disagree on which one counts (this
 * one would take the first, Python the last), so the document says two
 * things. Sorted copies of the names: O(n log n) for any object. */
static int check_duplicates(struct jp *j, const struct jv *v)
{
	const char **k;
	size_t i;

	if (v->n < 2)
		return 0;
	k = malloc(v->n * sizeof(*k));
	if (!k) {
		j->oom = true;
		jp_fail(j, "out of memory");
		return -1;
	}
	for (i = 0; i < v->n; i++)
		k[i] = v->keys[i];
	qsort(k, v->n, sizeof(*k), key_cmp);
	for (i = 1; i < v->n; i++) {
		if (!strcmp(k[i - 1], k[i])) {
			size_t m, line = 0;

			/* the line of its second appearance */
			for (m = 0; m < v->n; m++) {
				if (!strcmp(v->keys[m], k[i]) && line++)
					break;
			}
			j->failed = true;
			if (j->err && j->errlen)
				snprintf(j->err, j->errlen, "%zu: duplicate member \"%s\"",
					 m < v->n ? v->items[m]->line : v->line, OUTFILE_ESC(k[i]));
			free(k);
			return -1;
		}
	}
	free(k);
	return 0;
}

static struct jv *container(struct jp *j, int depth, bool obj)
{
	struct jv *v = node(j, obj ? JV_OBJECT : JV_ARRAY);
	size_t cap = 0;

	if (!v)
		return NULL;
	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == (obj ? '}' : ']')) {
		j->p++;
		return v;
	}
	for (;;) {
		char *key = NULL;
		size_t klen;
		struct jv *item;

		ws(j);
		if (obj) {
			if (j->p >= j->end || *j->p != '"') {
				jp_fail(j, "expected a member name in quotes");
				goto fail;
			}
			j->p++;
			key = string(j, &klen);
			if (!key)
				goto fail;
			ws(j);
			if (j->p >= j->end || *j->p != ':') {
				free(key);
				jp_fail(j, "expected ':' after a member name");
				goto fail;
			}
			j->p++;
		}
		item = value(j, depth + 1);
		if (!item) {
			free(key);
			goto fail;
		}
		if (v->n == cap) {
			size_t nc = cap ? cap * 2 : 8;
			struct jv **ni = realloc(v->items, nc * sizeof(*ni));
			char **nk = obj ? realloc(v->keys, nc * sizeof(*nk)) : NULL;

			if (ni)
				v->items = ni;
			if (nk)
				v->keys = nk;
			if (!ni || (obj && !nk)) {
				free(key);
				jv_free(item);
				j->oom = true;
				jp_fail(j, "out of memory");
				goto fail;
			}
			cap = nc;
		}
		v->items[v->n] = item;
		if (obj)
			v->keys[v->n] = key;
		v->n++;
		ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == (obj ? '}' : ']')) {
			j->p++;
			if (obj && check_duplicates(j, v) < 0)
				goto fail;
			return v;
		}
		jp_fail(j, "expected ',' or '%c'", obj ? '}' : ']');
		goto fail;
	}
fail:
	jv_free(v);
	return NULL;
}

/* A character for a message: printable ASCII as is, else \xNN. */
static const char *show_char(char c, char *buf, size_t len)
{
	if (c > 0x20 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "\\x%02x", (unsigned char)c);
	return buf;
}

/* RFC 8259's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?;
 * strtod alone takes "01", "1." and "-.5" too. */
static bool json_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return false;
	if (*s == '.') {
		if (*++s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return !*s;
}

static struct jv *number(struct jp *j)
{
	const char *q = j->p;
	char buf[64], *end;
	struct jv *v;

	if (q < j->end && *q == '-')
		q++;
	if (q >= j->end || *q < '0' || *q > '9') {
		char shown[8];

		jp_fail(j, "unexpected character %s", show_char(*j->p, shown, sizeof(shown)));
		return NULL;
	}
	while (q < j->end && *q && strchr("0123456789+-.eE", *q))
		q++;
	if ((size_t)(q - j->p) >= sizeof(buf)) {
		jp_fail(j, "a number of %zu characters", (size_t)(q - j->p));
		return NULL;
	}
	memcpy(buf, j->p, (size_t)(q - j->p));
	buf[q - j->p] = '\0';
	v = node(j, JV_NUMBER);
	if (!v)
		return NULL;
	errno = 0;
	v->num = strtod(buf, &end);
	if (*end || !isfinite(v->num) || !json_number(buf)) {
		free(v);
		jp_fail(j, "not a number: %s", buf);
		return NULL;
	}
	if (!strpbrk(buf, ".eE")) {
		long long i;

		errno = 0;
		i = strtoll(buf, &end, 10);
		if (!errno && !*end) {
			v->is_int = true;
			v->i = i;
		}
	}
	j->p = q;
	return v;
}

static struct jv *value(struct jp *j, int depth)
{
	struct jv *v;

	if (depth > JSONREAD_MAX_DEPTH) {
		jp_fail(j, "nested deeper than %d", JSONREAD_MAX_DEPTH);
		return NULL;
	}
	ws(j);
	if (j->p >= j->end) {
		jp_fail(j, "unexpected end of the document");
		return NULL;
	}
	switch (*j->p) {
	case '{':
		return container(j, depth, true);
	case '[':
		return container(j, depth, false);
	case '"':
		v = node(j, JV_STRING);
		if (!v)
			return NULL;
		j->p++;
		v->str = string(j, &v->len);
		if (!v->str) {
			free(v);
			return NULL;
		}
		return v;
	case 't':
	case 'f':
	case 'n': {
		static const char *const words[] = { "true", "false", "null" };
		size_t i;

		for (i = 0; i < 3; i++) {
			size_t n = strlen(words[i]);

			if ((size_t)(j->end - j->p) >= n && !memcmp(j->p, words[i], n)) {
				v = node(j, i == 2 ? JV_NULL : JV_BOOL);
				if (!v)
					return NULL;
				v->b = i == 0;
				j->p += n;
				return v;
			}
		}
		jp_fail(j, "unexpected word");
		return NULL;
	}
	default:
		return number(j);
	}
}

static struct jv *parse(const char *buf, size_t len, bool *oom, char *err, size_t errlen)
{
	struct jp j = { .s = buf, .end = buf + len, .p = buf, .line = 1, .err = err,
			.errlen = errlen };
	struct jv *v;

	*oom = false;
	if (len > JSONREAD_MAX_BYTES) {
		snprintf(err, errlen, "larger than %u MiB", JSONREAD_MAX_BYTES >> 20);
		return NULL;
	}
	/* a byte order mark, as editors on Windows save (RFC 8259 8.1: may be ignored) */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		j.p += 3;
	v = value(&j, 0);
	*oom = j.oom;
	if (!v)
		return NULL;
	ws(&j);
	if (j.p != j.end) {
		jp_fail(&j, "text after the document");
		jv_free(v);
		return NULL;
	}
	return v;
}

struct jv *jsonread_parse(const char *buf, size_t len, char *err, size_t errlen)
{
	bool oom;

	return parse(buf, len, &oom, err, errlen);
}

struct jv *jsonread_file(const char *path, bool *io, char *err, size_t errlen)
{
	char msg[256];
	struct stat st;
	size_t got = 0;
	struct jv *v;
	char *buf;
	int fd;

	*io = true;
	/* O_NONBLOCK: a FIFO nobody writes to is refused below, not waited for */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (%s): save the document to a file", path,
			 S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a pipe" :
			 S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a special file");
		*io = false;
		close(fd);
		return NULL;
	}
	if ((uint64_t)st.st_size > JSONREAD_MAX_BYTES) {
		snprintf(err, errlen, "%s: larger than %u MiB: not a sqwave JSON document", path,
			 JSONREAD_MAX_BYTES >> 20);
		*io = false;
		close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		close(fd);
		return NULL;
	}
	got = sysinfo_read_full(fd, buf, (size_t)st.st_size);
	close(fd);
	*io = false;
	if (got >= 8 && !memcmp(buf, "SQWAVLOG", 8)) {
		snprintf(err, errlen, "%s: is a sqwave log, not JSON", path);
		free(buf);
		return NULL;
	}
	v = parse(buf, got, io, msg, sizeof(msg));
	if (!v)
		snprintf(err, errlen, "%s:%s", path, msg);
	free(buf);
	return v;
}

void jv_free(struct jv *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		jv_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

const struct jv *jv_get(const struct jv *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != JV_OBJECT)
		return NULL;
	for (i = 0; i < obj->n; i++) {
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	}
	return NULL;
}

const struct jv *jv_path(const struct jv *obj, const char *path)
{
	char key[128];
	const char *p = path;

	while (obj && *p) {
		size_t n = strcspn(p, ".");

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		obj = jv_get(obj, key);
		p += n;
		if (*p == '.')
			p++;
	}
	return obj;
}

const struct jv *jv_at(const struct jv *arr, size_t i)
{
	if (!arr || arr->type != JV_ARRAY || i >= arr->n)
		return NULL;
	return arr->items[i];
}

size_t jv_len(const struct jv *arr)
{
	return arr && (arr->type == JV_ARRAY || arr->type == JV_OBJECT) ? arr->n : 0;
}

const char *jv_str(const struct jv *v, const char *def)
{
	return v && v->type == JV_STRING ? v->str : def;
}

double jv_num(const struct jv *v, double def)
{
	return v && v->type == JV_NUMBER ? v->num : def;
}

int64_t jv_int(const struct jv *v, int64_t def)
{
	if (!v || v->type != JV_NUMBER)
		return def;
	if (v->is_int)
		return v->i;
	return v->num >= -9.2e18 && v->num <= 9.2e18 ? (int64_t)v->num : def;
}

bool jv_bool(const struct jv *v, bool def)
{
	return v && v->type == JV_BOOL ? v->b : def;
}
