/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Outputs: the same-file check (device and inode), opening and closing with
 * every error reported, terminal-safe text, the buffered CSV writer. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "edgelog.h"

/* What a path names: an existing file (its device and inode), or a name not
 * yet there (its directory's device and inode, and the name). */
struct ident {
	bool known;               /* false: cannot tell (then nothing matches it) */
	bool exists;
	dev_t dev;
	ino_t ino;
	char name[256];
};

static void identify(const char *path, struct ident *id)
{
	struct stat sb;
	char *copy, *dir, *base;

	memset(id, 0, sizeof(*id));
	if (!strcmp(path, "-")) {
		if (fstat(STDOUT_FILENO, &sb) == 0) {
			id->known = id->exists = true;
			id->dev = sb.st_dev;
			id->ino = sb.st_ino;
		}
		return;
	}
	if (stat(path, &sb) == 0) {
		id->known = id->exists = true;
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

static bool same(const struct ident *a, const struct ident *b)
{
	return a->known && b->known && a->exists == b->exists && a->dev == b->dev &&
	       a->ino == b->ino && (a->exists || !strcmp(a->name, b->name));
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
	      !memcmp(magic, EDGELOG_MAGIC, sizeof(magic));
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

	for (i = 0; i < nout; i++) {
		if (!given(&outs[i]))
			continue;
		identify(outs[i].path, &o);
		for (j = 0; j < nin; j++) {
			if (!given(&ins[j]))
				continue;
			identify(ins[j].path, &x);
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
			identify(outs[j].path, &x);
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
		identify("-", &so);
		for (j = 0; j < nin; j++) {
			if (!given(&ins[j]))
				continue;
			identify(ins[j].path, &x);
			if (same(&so, &x)) {
				snprintf(err, errlen, "standard output goes to %s, %s: refusing to "
					 "overwrite it", ins[j].path, ins[j].what);
				return -1;
			}
		}
	}
	return 0;
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
	int bad;

	if (f == stdout) {
		bad = fflush(f) != 0 || ferror(f);
	} else {
		bad = ferror(f);
		bad |= fclose(f) != 0;
	}
	if (bad) {
		snprintf(err, errlen, "writing %s failed: %s",
			 strcmp(path, "-") ? path : "standard output",
			 errno ? strerror(errno) : "write error");
		return -1;
	}
	return 0;
}

const char *outfile_escape(const char *s, char *buf, size_t len)
{
	size_t o = 0;
	static const char hex[] = "0123456789abcdef";

	if (!len)
		return buf;
	for (; s && *s && o + 5 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f) {
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[c >> 4];
			buf[o++] = hex[c & 15];
		} else {
			buf[o++] = (char)c;
		}
	}
	buf[o] = '\0';
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
