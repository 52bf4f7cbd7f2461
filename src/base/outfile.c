/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Outputs: the same-file check (device and inode), opening and closing with
 * every error reported, terminal-safe text, the buffered CSV writer. */
#include "base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/escape.h"
#include "base/magic.h"
#include "base/msgbuf.h"

/* What a path names: an existing file (its device and inode), or a name not
 * yet there (its directory's device and inode, and the name). */
struct ident {
	bool known;               /* false: cannot tell (then nothing matches it) */
	bool exists;
	bool reg;                 /* a regular file: the only kind writing can destroy */
	dev_t dev;
	ino_t ino;
	char name[256];
};

/* @path ("-": standard output, or standard input when @input). */
static void identify(const char *path, struct ident *id, bool input)
{
	struct stat sb;
	char *copy, *dir, *base;

	memset(id, 0, sizeof(*id));
	if (!strcmp(path, "-")) {
		if (fstat(input ? STDIN_FILENO : STDOUT_FILENO, &sb) == 0) {
			id->known = id->exists = true;
			id->reg = S_ISREG(sb.st_mode);
			id->dev = sb.st_dev;
			id->ino = sb.st_ino;
		}
		return;
	}
	if (stat(path, &sb) == 0) {
		id->known = id->exists = true;
		id->reg = S_ISREG(sb.st_mode);
		id->dev = sb.st_dev;
		id->ino = sb.st_ino;
		return;
	}
	copy = strdup(path);
	if (!copy)
		return;
	base = basename(copy);
	if (strlen(base) < sizeof(id->name)) {
		snprintf(id->name, sizeof(id->name), "%s", base);
		free(copy);
		copy = strdup(path);
		if (copy && stat((dir = dirname(copy)), &sb) == 0) {
			id->known = true;
			id->dev = sb.st_dev;
			id->ino = sb.st_ino;
		}
	}
	free(copy);
}

/* Two names of one file that writing could destroy: an existing regular
 * file, or a name not yet created in the same directory. A pipe or a device
 * (/dev/null on both sides) is not "overwritten". */
static bool same(const struct ident *a, const struct ident *b)
{
	return a->known && b->known && a->exists == b->exists && a->dev == b->dev &&
	       a->ino == b->ino && (a->exists ? a->reg : !strcmp(a->name, b->name));
}

/* An existing regular file that starts with the log magic. */
static bool is_log(const char *path)
{
	struct stat sb;
	char magic[8];
	bool yes = false;
	int fd;

	if (!strcmp(path, "-") || stat(path, &sb) < 0 || !S_ISREG(sb.st_mode))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	yes = read(fd, magic, sizeof(magic)) == (ssize_t)sizeof(magic) &&
	      !memcmp(magic, MAGIC_EDGELOG, sizeof(magic));
	close(fd);
	return yes;
}

static bool given(const struct outfile_arg *a)
{
	return a->path && a->path[0];
}

int outfile_check(const struct outfile_arg *outs, size_t nout, const struct outfile_arg *ins,
		  size_t nin, bool stdout_used, char *err, size_t errlen)
{
	struct ident o, x, so;
	size_t i, j;

	/* One document on standard output, alone: two would interleave (a JSON
	 * reader would get a CSV's rows, an SVG the XML's). */
	for (i = 0; i < nout; i++) {
		if (!given(&outs[i]) || strcmp(outs[i].path, "-"))
			continue;
		for (j = i + 1; j < nout; j++) {
			if (given(&outs[j]) && !strcmp(outs[j].path, "-")) {
				snprintf(err, errlen, "%s and %s both write to standard output: only "
					 "one output can be standard output (-); give the other a file",
					 outs[i].what, outs[j].what);
				return -1;
			}
		}
	}
	for (i = 0; i < nout; i++) {
		if (!given(&outs[i]))
			continue;
		identify(outs[i].path, &o, false);
		for (j = 0; j < nin; j++) {
			if (!given(&ins[j]))
				continue;
			identify(ins[j].path, &x, true);
			if (same(&o, &x)) {
				if (!strcmp(outs[i].path, "-"))
					snprintf(err, errlen, "%s: standard output goes to %s, %s: refusing "
						 "to overwrite it", outs[i].what, ins[j].path, ins[j].what);
				else
					snprintf(err, errlen, "%s %s is %s%s%s: refusing to overwrite it",
						 outs[i].what, outs[i].path, ins[j].what,
						 strcmp(ins[j].path, outs[i].path) ? " " : "",
						 strcmp(ins[j].path, outs[i].path) ? ins[j].path : "");
				return -1;
			}
		}
		for (j = i + 1; j < nout; j++) {
			if (!given(&outs[j]) || !strcmp(outs[j].path, "-") || !strcmp(outs[i].path, "-"))
				continue;
			identify(outs[j].path, &x, false);
			if (same(&o, &x)) {
				snprintf(err, errlen, "%s and %s name the same file (%s): give each output "
					 "its own file", outs[i].what, outs[j].what, outs[j].path);
				return -1;
			}
		}
		if (!outs[i].keeps_old && is_log(outs[i].path)) {
			snprintf(err, errlen, "%s %s is a sqwave log: refusing to overwrite it (remove it "
				 "first if it is not needed)", outs[i].what, outs[i].path);
			return -1;
		}
	}
	if (stdout_used) {
		identify("-", &so, false);
		for (j = 0; j < nin; j++) {
			if (!given(&ins[j]))
				continue;
			identify(ins[j].path, &x, true);
			if (same(&so, &x)) {
				snprintf(err, errlen, "standard output goes to %s, %s: refusing to "
					 "overwrite it", ins[j].path, ins[j].what);
				return -1;
			}
		}
	}
	return 0;
}

int outfile_creatable(const char *path, char *err, size_t errlen)
{
	struct stat sb;
	char *copy;
	int e = 0;

	if (!path || !path[0] || !strcmp(path, "-"))
		return 0;
	if (stat(path, &sb) == 0) {
		if (S_ISDIR(sb.st_mode))
			e = EISDIR;
		else if (access(path, W_OK) < 0)
			e = errno;
	} else if (errno != ENOENT) {
		e = errno;
	} else {
		copy = strdup(path);
		if (!copy)
			e = ENOMEM;
		else if (access(dirname(copy), W_OK | X_OK) < 0)
			e = errno;
		free(copy);
	}
	if (!e)
		return 0;
	snprintf(err, errlen, "cannot create %s: %s", path, strerror(e));
	errno = e;
	return -1;
}

FILE *outfile_open(const char *path, char *err, size_t errlen)
{
	FILE *f;

	if (!strcmp(path, "-"))
		return stdout;
	f = fopen(path, "we");
	if (!f)
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
	return f;
}

int outfile_close(FILE *f, const char *path, char *err, size_t errlen)
{
	struct stat sb;
	bool bad, removed = false;
	int e = errno;

	if (f == stdout) {
		bad = fflush(f) != 0 || ferror(f);
		if (bad && errno)
			e = errno;
	} else {
		bad = ferror(f);
		if (fclose(f) != 0) {
			bad = true;
			e = errno;
		}
	}
	if (!bad)
		return 0;
	/* What is on disk is a part of the document: a reader would take it
	 * for the whole (an empty JSON summary refuses a whole trend batch).
	 * A regular file goes; a device or a pipe is what it is. */
	if (f != stdout && strcmp(path, "-") && lstat(path, &sb) == 0 && S_ISREG(sb.st_mode))
		removed = unlink(path) == 0;
	snprintf(err, errlen, "writing %s failed: %s%s", strcmp(path, "-") ? path : "standard output",
		 e ? strerror(e) : "write error", removed ? " (the partial file is removed)" : "");
	errno = e ? e : EIO;
	return -1;
}

const char *outfile_escape(const char *s, char *buf, size_t len)
{
	escape_terminal(s, buf, len);
	return buf;
}

const char outfile_digits2[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

void outfile_buf_init(struct outfile_buf *o, FILE *f)
{
	o->f = f;
	o->len = 0;
	o->err = false;
	o->err_no = 0;
}

struct outfile_buf *outfile_buf_open(const char *path, char *err, size_t errlen)
{
	struct outfile_buf *o = malloc(sizeof(*o));
	FILE *f;

	if (!o) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(ENOMEM));
		errno = ENOMEM;
		return NULL;
	}
	f = outfile_open(path, err, errlen);
	if (!f) {
		int e = errno;

		free(o);
		errno = e;
		return NULL;
	}
	outfile_buf_init(o, f);
	return o;
}

int outfile_buf_close(struct outfile_buf *o, const char *path, char *err, size_t errlen)
{
	int ret;

	if (!o)
		return 0;
	outfile_buf_flush(o);
	if (o->err)	/* the buffer's own failure came first: its errno */
		errno = o->err_no;
	ret = outfile_close(o->f, path, err, errlen);
	free(o);
	return ret;
}

void outfile_buf_flush(struct outfile_buf *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, o->f) != o->len && !o->err) {
		o->err = true;
		o->err_no = errno;
	}
	o->len = 0;
}

void outfile_buf_str(struct outfile_buf *o, const char *s, size_t n)
{
	if (o->len + n > sizeof(o->buf))
		outfile_buf_flush(o);
	if (n > sizeof(o->buf)) {
		if (fwrite(s, 1, n, o->f) != n && !o->err) {
			o->err = true;
			o->err_no = errno;
		}
		return;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}
