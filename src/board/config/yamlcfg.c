/* SPDX-License-Identifier: GPL-2.0-or-later */
/* YAML board files and profiles: libyaml events -> checked config_set() calls. */
#include "config/yamlcfg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "base/msgbuf.h"
#include "config/plan.h"

struct yc {
	const char *name;
	enum cfg_source src;
	const unsigned char *buf;
	size_t len;
	yaml_parser_t parser;
	yaml_event_t ev;
	bool have_ev;
	struct config *scratch;           /* the file's values, until all of it is good */
	int key_line[CFG_NKEYS];          /* line a key was set on; 0: not set */
	int section_line[CFG_NKEYS];      /* indexed by the section's first key */
	int section_col[CFG_NKEYS];
	int phases_line, load_line;       /* the profile's lists */
	char *err;
	size_t errlen;
};

const char *yamlcfg_result_str(enum yamlcfg_result r)
{
	static const char *const names[] = {
		[YAMLCFG_OK] = "ok",
		[YAMLCFG_E_IO] = "cannot read",
		[YAMLCFG_E_SYNTAX] = "syntax error",
		[YAMLCFG_E_STRUCTURE] = "wrong structure",
		[YAMLCFG_E_SECTION] = "bad section",
		[YAMLCFG_E_KEY] = "bad key",
		[YAMLCFG_E_VALUE] = "bad value",
		[YAMLCFG_E_PLACE] = "wrong kind of file",
		[YAMLCFG_E_MISSING] = "missing key",
		[YAMLCFG_E_NOMEM] = "out of memory",
	};

	if ((unsigned)r < sizeof(names) / sizeof(names[0]))
		return names[r];
	return "?";
}

static enum yamlcfg_result yc_fail(struct yc *st, const yaml_mark_t *mark,
				   enum yamlcfg_result r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* "NAME:LINE:COL: message" (or "NAME: message" without @mark). */
static enum yamlcfg_result yc_fail(struct yc *st, const yaml_mark_t *mark,
				   enum yamlcfg_result r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!st->err || !st->errlen)
		return r;
	if (mark)
		n = snprintf(st->err, st->errlen, "%s:%zu:%zu: ", st->name,
			     mark->line + 1, mark->column + 1);
	else
		n = snprintf(st->err, st->errlen, "%s: ", st->name);
	if (n < 0 || (size_t)n >= st->errlen)
		return r;
	va_start(ap, fmt);
	vsnprintf(st->err + n, st->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return r;
}

static const char *yc_kind(enum cfg_source src)
{
	return src == CFG_SRC_BOARD ? "a board file" : "a profile";
}

static unsigned yc_flag(enum cfg_source src)
{
	return src == CFG_SRC_BOARD ? CFG_IN_BOARD : CFG_IN_PROFILE;
}

/* The first key of @section, or -1: sections are contiguous in the table. */
static int yc_section_find(const char *section)
{
	int k;

	for (k = 0; k < CFG_NKEYS; k++) {
		if (!strcmp(config_table[k].section, section))
			return k;
	}
	return -1;
}

static bool yc_section_start(int k)
{
	return k == 0 || strcmp(config_table[k - 1].section, config_table[k].section);
}

/* "board, gpio, loopback, sim and rt": the sections @flag allows. */
static const char *yc_section_list(unsigned flag, char *buf, size_t len)
{
	const char *names[CFG_NKEYS];
	struct msgbuf_out o;
	size_t n = 0, i;
	int k;

	for (k = 0; k < CFG_NKEYS; k++) {
		if (yc_section_start(k) && (config_table[k].where & flag))
			names[n++] = config_table[k].section;
	}
	/* The profile's list sections (plan.c) come last. */
	if (flag & CFG_IN_PROFILE) {
		names[n++] = "phases";
		names[n++] = "load";
	}
	msgbuf_out_init(&o, buf, len);
	for (i = 0; i < n; i++)
		msgbuf_out_add(&o, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ", names[i]);
	return buf;
}

/* "half_period, duration, warmup and ring_size" */
static const char *yc_keys(int first, char *buf, size_t len)
{
	struct msgbuf_out o;
	int k;

	msgbuf_out_init(&o, buf, len);
	for (k = first; k < CFG_NKEYS; k++) {
		bool last;

		if (k > first && yc_section_start(k))
			break;
		last = k + 1 == CFG_NKEYS || yc_section_start(k + 1);
		msgbuf_out_add(&o, "%s%s", k == first ? "" : last ? " and " : ", ",
			       config_table[k].name);
	}
	return buf;
}

static const char *yc_event_word(yaml_event_type_t t)
{
	switch (t) {
	case YAML_SEQUENCE_START_EVENT:
		return "a list";
	case YAML_MAPPING_START_EVENT:
		return "a mapping";
	case YAML_SCALAR_EVENT:
		return "a single value";
	case YAML_ALIAS_EVENT:
		return "an alias";
	default:
		return "the end of the file";
	}
}

static const char *yc_scalar(const yaml_event_t *ev)
{
	return (const char *)ev->data.scalar.value;
}

/* An empty plain scalar, "~" or "null": YAML's null. */
static bool yc_is_null(const yaml_event_t *ev)
{
	const char *s = yc_scalar(ev);

	return ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       (!s[0] || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
		!strcmp(s, "NULL"));
}

/*
 * The line and column of byte @off of @buf, as libyaml counts them: "\n",
 * "\r\n" and a lone "\r" end a line, a column is a character (a UTF-8 lead
 * byte), a byte-order mark is not one. libyaml's reader (encoding) errors
 * give only the offset, and the NUL check runs before libyaml.
 */
static yaml_mark_t yc_mark_at(const unsigned char *buf, size_t len, size_t off)
{
	yaml_mark_t m = { 0 };
	size_t i = len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3) && off >= 3 ? 3 : 0;

	for (; i < off && i < len; i++) {
		if (buf[i] == '\n' || (buf[i] == '\r' && (i + 1 >= len || buf[i + 1] != '\n'))) {
			m.line++;
			m.column = 0;
		} else if ((buf[i] & 0xc0) != 0x80 && buf[i] != '\r') {
			m.column++;
		}
	}
	m.index = off;
	return m;
}

static enum yamlcfg_result yc_next(struct yc *st)
{
	const char *anchor = NULL;

	if (st->have_ev)
		yaml_event_delete(&st->ev);
	st->have_ev = false;
	if (!yaml_parser_parse(&st->parser, &st->ev)) {
		const char *problem = st->parser.problem ? st->parser.problem : "unreadable YAML";

		if (st->parser.error == YAML_MEMORY_ERROR)
			return yc_fail(st, NULL, YAMLCFG_E_NOMEM, "out of memory reading YAML");
		/* Encoding errors carry a byte offset, not a mark: without this
		 * every one would be reported at 1:1. */
		if (st->parser.error == YAML_READER_ERROR) {
			size_t off = st->parser.problem_offset;
			yaml_mark_t m;

			/* A bad trailing byte is reported at itself: point at the
			 * character it belongs to (Latin-1 "caf\xe9" is at the \xe9). */
			if (strstr(problem, "trailing")) {
				while (off > 0 && off <= st->len && (st->buf[off - 1] & 0xc0) == 0x80)
					off--;
				if (off > 0)
					off--;
			}
			m = yc_mark_at(st->buf, st->len, off);
			if (strstr(problem, "UTF-8"))
				return yc_fail(st, &m, YAMLCFG_E_SYNTAX,
					       "not UTF-8 text: %s (byte 0x%02x); save the file as "
					       "UTF-8: a board file or profile is UTF-8 text", problem,
					       off < st->len ? st->buf[off] : 0u);
			return yc_fail(st, &m, YAMLCFG_E_SYNTAX,
				       "YAML syntax error: %s (U+%04X); write escapes such as \\t "
				       "in a \"double-quoted\" value instead", problem,
				       (unsigned)st->parser.problem_value);
		}
		/* The commonest mistake gets a plain answer. */
		if (st->parser.problem_mark.index < st->len &&
		    st->buf[st->parser.problem_mark.index] == '\t')
			return yc_fail(st, &st->parser.problem_mark, YAMLCFG_E_SYNTAX,
				       "YAML syntax error: a tab character; YAML indents with "
				       "spaces only");
		if (st->parser.context &&
		    st->parser.context_mark.line != st->parser.problem_mark.line)
			return yc_fail(st, &st->parser.problem_mark, YAMLCFG_E_SYNTAX,
				       "YAML syntax error: %s (%s that started on line %zu); a "
				       "board file or profile is a mapping of sections of "
				       "key: value lines", problem, st->parser.context,
				       st->parser.context_mark.line + 1);
		if (st->parser.context)
			return yc_fail(st, &st->parser.problem_mark, YAMLCFG_E_SYNTAX,
				       "YAML syntax error: %s (%s); a board file or profile is a "
				       "mapping of sections of key: value lines", problem,
				       st->parser.context);
		return yc_fail(st, &st->parser.problem_mark, YAMLCFG_E_SYNTAX,
			       "YAML syntax error: %s; a board file or profile is a mapping of "
			       "sections of key: value lines", problem);
	}
	st->have_ev = true;
	switch (st->ev.type) {
	case YAML_ALIAS_EVENT:
		anchor = (const char *)st->ev.data.alias.anchor;
		break;
	case YAML_SCALAR_EVENT:
		anchor = (const char *)st->ev.data.scalar.anchor;
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = (const char *)st->ev.data.sequence_start.anchor;
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = (const char *)st->ev.data.mapping_start.anchor;
		break;
	default:
		break;
	}
	if (anchor)
		return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_STRUCTURE,
			       "anchors and aliases (&%s, *%s) are not supported; write the "
			       "value out", anchor, anchor);
	return YAMLCFG_OK;
}

/* "st,stm32mp135f-dk, st,stm32mp135" is one value that never matches:
 * device-tree compatible strings have no blanks. @v is one item. */
static enum yamlcfg_result yc_compatible_check(struct yc *st, int k, const char *v,
					       const yaml_mark_t *mark)
{
	char q[64];

	if (k != CFG_MATCH_COMPATIBLE || !strpbrk(v, " \t"))
		return YAMLCFG_OK;
	return yc_fail(st, mark, YAMLCFG_E_VALUE, "match.compatible: %s has a blank; a "
		       "device-tree compatible string has none: write one string per \"- \" "
		       "line", config_quote(v, q, sizeof(q)));
}

/* priority: 010 is 8 to YAML 1.1 (PyYAML, yamllint) and 10 to YAML 1.2:
 * whichever sqwave picked, some reader of the file would be wrong. @value is
 * the current event's, for the integer key @what. */
static bool yc_octal_like(struct yc *st, const char *what, const char *value)
{
	const char *d = value + (value[0] == '-');
	char q[64];

	if (st->ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE || d[0] != '0' || d[1] < '0' ||
	    d[1] > '9')
		return false;
	yc_fail(st, &st->ev.start_mark, YAMLCFG_E_VALUE, "%s: %s has a leading zero: YAML 1.1 "
		"reads it as an octal number, YAML 1.2 as a decimal one; write it without the "
		"zero", what, config_quote(value, q, sizeof(q)));
	return true;
}

/* A list key (CFG_LIST) given as a YAML sequence of single values: the items
 * joined with newlines into *@out (malloc'ed). At the SEQUENCE_START event. */
static enum yamlcfg_result yc_list(struct yc *st, int k, char **out)
{
	bool flow = st->ev.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
	yaml_mark_t start = st->ev.start_mark, prev_start = { 0 }, prev_end = { 0 };
	enum yamlcfg_result r;
	char name[64], *buf = NULL, *nb, q1[64], q2[64], q3[140], joined[128];
	size_t len = 0, n, prev_len = 0;
	bool prev_plain = false;

	config_key_name((enum cfg_key)k, name, sizeof(name));
	for (;;) {
		r = yc_next(st);
		if (r)
			goto fail;
		if (st->ev.type == YAML_SEQUENCE_END_EVENT)
			break;
		/* [st,stm32mp135f-dk] is two items in YAML: a comma ends a plain
		 * value in a flow list. Every device-tree compatible string has a
		 * comma, so this is how one is mistyped, and it would never match. */
		if (flow && prev_plain && st->ev.type == YAML_SCALAR_EVENT &&
		    st->ev.start_mark.line == prev_end.line &&
		    st->ev.start_mark.column == prev_end.column + 1) {
			snprintf(joined, sizeof(joined), "%.60s,%.60s", buf + len - prev_len,
				 yc_scalar(&st->ev));
			config_quote(buf + len - prev_len, q1, sizeof(q1));
			r = yc_fail(st, &prev_start, YAMLCFG_E_VALUE,
				    "%s: %s and %s are two items: in a [flow, list] a comma "
				    "separates items; quote a value that has a comma (%s) or write "
				    "one \"- \" line per value", name, q1,
				    config_quote(yc_scalar(&st->ev), q2, sizeof(q2)),
				    config_quote(joined, q3, sizeof(q3)));
			goto fail;
		}
		if (st->ev.type != YAML_SCALAR_EVENT || yc_is_null(&st->ev)) {
			r = yc_fail(st, &st->ev.start_mark, YAMLCFG_E_VALUE,
				    "%s is a list of single values (one per \"- \" line), found "
				    "%s", name, st->ev.type == YAML_SCALAR_EVENT ? "an empty item"
				    : yc_event_word(st->ev.type));
			goto fail;
		}
		n = st->ev.data.scalar.length;
		if (strlen(yc_scalar(&st->ev)) != n || memchr(yc_scalar(&st->ev), '\n', n)) {
			r = yc_fail(st, &st->ev.start_mark, YAMLCFG_E_VALUE,
				    "%s: each item must be one line of text", name);
			goto fail;
		}
		r = yc_compatible_check(st, k, yc_scalar(&st->ev), &st->ev.start_mark);
		if (r)
			goto fail;
		nb = realloc(buf, len + n + 2);
		if (!nb) {
			r = yc_fail(st, NULL, YAMLCFG_E_NOMEM, "out of memory");
			goto fail;
		}
		buf = nb;
		if (len)
			buf[len++] = '\n';
		memcpy(buf + len, yc_scalar(&st->ev), n);
		len += n;
		buf[len] = '\0';
		prev_len = n;
		prev_plain = st->ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		prev_start = st->ev.start_mark;
		prev_end = st->ev.end_mark;
	}
	if (!buf) {
		r = yc_fail(st, &start, YAMLCFG_E_VALUE, "%s is an empty list; leave the key "
			    "out instead", name);
		goto fail;
	}
	*out = buf;
	return YAMLCFG_OK;
fail:
	free(buf);
	return r;
}

static enum yamlcfg_result yc_value(struct yc *st, int k)
{
	char name[64], allowed[160], msg[512];
	const yaml_event_t *ev = &st->ev;
	const char *value;
	enum cfg_result r;
	char *copy = NULL;
	size_t n;
	int line = (int)ev->start_mark.line + 1;
	yaml_mark_t mark = ev->start_mark;

	config_key_name((enum cfg_key)k, name, sizeof(name));
	if (ev->type == YAML_SEQUENCE_START_EVENT && (config_table[k].where & CFG_LIST)) {
		enum yamlcfg_result lr = yc_list(st, k, &copy);

		if (lr)
			return lr;
		goto store;
	}
	if (ev->type != YAML_SCALAR_EVENT)
		return yc_fail(st, &ev->start_mark, YAMLCFG_E_VALUE,
			       "%s must be a single value, %s, found %s", name,
			       config_allowed((enum cfg_key)k, allowed, sizeof(allowed)),
			       yc_event_word(ev->type));
	if (strlen(yc_scalar(ev)) != ev->data.scalar.length)
		return yc_fail(st, &ev->start_mark, YAMLCFG_E_VALUE,
			       "%s contains a NUL character; it must be %s", name,
			       config_allowed((enum cfg_key)k, allowed, sizeof(allowed)));
	if (yc_is_null(ev) && config_table[k].type != CFG_T_STRING &&
	    config_table[k].type != CFG_T_TEXT)
		return yc_fail(st, &ev->start_mark, YAMLCFG_E_VALUE,
			       "%s has no value; it must be %s", name,
			       config_allowed((enum cfg_key)k, allowed, sizeof(allowed)));
	value = yc_is_null(ev) ? "" : yc_scalar(ev);
	if (config_table[k].type == CFG_T_INT && yc_octal_like(st, name, value))
		return YAMLCFG_E_VALUE;
	n = strlen(value);
	copy = strdup(value);
	if (!copy)
		return yc_fail(st, NULL, YAMLCFG_E_NOMEM, "out of memory");
	/* Block scalars (notes: |) end in a newline that is not part of the text. */
	if (config_table[k].type == CFG_T_TEXT) {
		while (n && copy[n - 1] == '\n')
			copy[--n] = '\0';
	}
	if (yc_compatible_check(st, k, copy, &mark)) {
		free(copy);
		return YAMLCFG_E_VALUE;
	}
store:
	/* Parsed and stored once, into the scratch configuration; the caller's
	 * takes it only when the whole file is good (config_take). */
	r = config_set(st->scratch, (enum cfg_key)k, copy, st->src, st->name,
		       line, msg, sizeof(msg));
	free(copy);
	if (r != CFG_OK)
		return yc_fail(st, &mark,
			       r == CFG_E_PLACE ? YAMLCFG_E_PLACE :
			       r == CFG_E_NOMEM ? YAMLCFG_E_NOMEM : YAMLCFG_E_VALUE, "%s", msg);
	return YAMLCFG_OK;
}

/*
 * The indentation mistakes, named: a key at the top level ("name:" under a
 * "board:" that lost its indent), a section inside another ("loopback:"
 * indented under gpio), a dotted name written as in --set ("gpio.line: 1").
 * @word is the unknown name, @section the section it is in (NULL: the top
 * level). Fails (and returns true) when it is one of those.
 */
static bool yc_misplaced(struct yc *st, const char *word, const char *section)
{
	unsigned flag = yc_flag(st->src);
	char q[64], where[128] = "";
	struct msgbuf_out o;
	int k;

	k = config_lookup(word);
	if (k >= 0 && (config_table[k].where & flag)) {
		yc_fail(st, &st->ev.start_mark, section ? YAMLCFG_E_KEY : YAMLCFG_E_SECTION,
			"%s is written as section %s: and, indented under it, %s: (the dotted "
			"name is for --set)", config_quote(word, q, sizeof(q)),
			config_table[k].section, config_table[k].name);
		return true;
	}
	if (section) {
		k = yc_section_find(word);
		if (k < 0 || !(config_table[k].where & flag))
			return false;
		yc_fail(st, &st->ev.start_mark, YAMLCFG_E_KEY, "%s is a section, not a key of %s: "
			"write \"%s:\" at the start of a line, without indentation",
			config_quote(word, q, sizeof(q)), section, word);
		return true;
	}
	msgbuf_out_init(&o, where, sizeof(where));
	for (k = 0; k < CFG_NKEYS; k++) {
		if (strcmp(config_table[k].name, word) || !(config_table[k].where & flag))
			continue;
		msgbuf_out_add(&o, "%s%s", o.used ? " or " : "", config_table[k].section);
	}
	if (!where[0])
		return false;
	yc_fail(st, &st->ev.start_mark, YAMLCFG_E_SECTION, "%s is a key of section %s, not a "
		"section: indent it under its section (two spaces)",
		config_quote(word, q, sizeof(q)), where);
	return true;
}

/* After a section's MAPPING_START: its key: value pairs up to MAPPING_END. */
static enum yamlcfg_result yc_section(struct yc *st, int first)
{
	const char *section = config_table[first].section;
	char keys[256], full[96], sugg[96], q[64];
	enum yamlcfg_result r;
	int k, near;

	for (;;) {
		r = yc_next(st);
		if (r)
			return r;
		if (st->ev.type == YAML_MAPPING_END_EVENT)
			return YAMLCFG_OK;
		if (st->ev.type != YAML_SCALAR_EVENT)
			return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_STRUCTURE,
				       "a key in section %s must be a plain name, found %s; %s has "
				       "the keys %s", section, yc_event_word(st->ev.type), section,
				       yc_keys(first, keys, sizeof(keys)));
		if (!strcmp(yc_scalar(&st->ev), "<<"))
			return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_STRUCTURE,
				       "merge keys (<<) are not supported; write the keys out");
		snprintf(full, sizeof(full), "%s.%s", section, yc_scalar(&st->ev));
		k = config_lookup(full);
		if (k < 0 && yc_misplaced(st, yc_scalar(&st->ev), section))
			return YAMLCFG_E_KEY;
		if (k < 0) {
			near = config_closest_key(section, yc_scalar(&st->ev));
			sugg[0] = '\0';
			if (near >= 0)
				snprintf(sugg, sizeof(sugg), "did you mean %s? ",
					 config_table[near].name);
			return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_KEY,
				       "unknown key %s in section %s; %s%s has the keys %s",
				       config_quote(yc_scalar(&st->ev), q, sizeof(q)), section,
				       sugg, section,
				       yc_keys(first, keys, sizeof(keys)));
		}
		if (st->key_line[k])
			return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_KEY,
				       "duplicate key %s (first set on line %d); set each key once",
				       full, st->key_line[k]);
		st->key_line[k] = (int)st->ev.start_mark.line + 1;
		r = yc_next(st);
		if (r)
			return r;
		r = yc_value(st, k);
		if (r)
			return r;
	}
}

/* ---- the profile's lists: phases and loads (plan.c) ---- */

/* "kind, name, path, ..." */
static const char *yc_table_keys(const struct cfg_item *t, int n, char *buf, size_t len)
{
	struct msgbuf_out o;
	int k;

	msgbuf_out_init(&o, buf, len);
	for (k = 0; k < n; k++)
		msgbuf_out_add(&o, "%s%s", k == 0 ? "" : k + 1 == n ? " and " : ", ", t[k].name);
	return buf;
}

static char *yc_origin(struct yc *st, const yaml_mark_t *m)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s:%zu", st->name, m->line + 1);
	return strdup(buf);
}

/* One scalar value for a list entry's key; @what names it in messages. */
static enum yamlcfg_result yc_list_scalar(struct yc *st, const char *what, const char **out)
{
	if (st->ev.type != YAML_SCALAR_EVENT)
		return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_VALUE,
			       "%s must be a single value, found %s", what,
			       yc_event_word(st->ev.type));
	if (strlen(yc_scalar(&st->ev)) != st->ev.data.scalar.length)
		return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_VALUE,
			       "%s contains a NUL character", what);
	*out = yc_is_null(&st->ev) ? "" : yc_scalar(&st->ev);
	return YAMLCFG_OK;
}

/* load.args: a list of strings, or one string (one argument). */
static enum yamlcfg_result yc_load_args(struct yc *st, struct plan_load *l)
{
	enum yamlcfg_result r;
	const char *v;

	if (st->ev.type == YAML_SCALAR_EVENT) {
		r = yc_list_scalar(st, "load.args", &v);
		if (r)
			return r;
		if (plan_load_add_arg(l, v) < 0)
			return yc_fail(st, NULL, YAMLCFG_E_NOMEM, "out of memory");
		return YAMLCFG_OK;
	}
	if (st->ev.type != YAML_SEQUENCE_START_EVENT)
		return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_VALUE,
			       "load.args must be a list of strings ([--cpu, \"2\"]), found %s",
			       yc_event_word(st->ev.type));
	for (;;) {
		r = yc_next(st);
		if (r)
			return r;
		if (st->ev.type == YAML_SEQUENCE_END_EVENT)
			return YAMLCFG_OK;
		r = yc_list_scalar(st, "each of load.args", &v);
		if (r)
			return r;
		if (plan_load_add_arg(l, v) < 0)
			return yc_fail(st, NULL, YAMLCFG_E_NOMEM, "out of memory");
	}
}

/* One load entry: a mapping of load keys, or just the kind ("- coremark"). */
static enum yamlcfg_result yc_load_entry(struct yc *st, struct plan_load *l)
{
	bool seen[PLK_NKEYS] = { false };
	int seen_line[PLK_NKEYS] = { 0 };
	char keys[400], q[64], msg[512];
	enum yamlcfg_result r;
	enum cfg_result cr;
	const char *v;
	int k, near;

	if (plan_load_init(l) < 0)
		return yc_fail(st, NULL, YAMLCFG_E_NOMEM, "out of memory");
	l->origin = yc_origin(st, &st->ev.start_mark);
	if (!l->origin)
		return yc_fail(st, NULL, YAMLCFG_E_NOMEM, "out of memory");
	if (st->ev.type == YAML_SCALAR_EVENT) {
		r = yc_list_scalar(st, "a load", &v);
		if (r)
			return r;
		if (plan_load_set(l, PLK_KIND, v, msg, sizeof(msg)) != CFG_OK)
			return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_VALUE, "%s", msg);
		return YAMLCFG_OK;
	}
	if (st->ev.type != YAML_MAPPING_START_EVENT)
		return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_STRUCTURE,
			       "a load must be a mapping of load keys (kind: coremark) or a kind, "
			       "found %s; a load has the keys %s", yc_event_word(st->ev.type),
			       yc_table_keys(plan_load_table, PLK_NKEYS, keys, sizeof(keys)));
	for (;;) {
		yaml_mark_t km;

		r = yc_next(st);
		if (r)
			return r;
		if (st->ev.type == YAML_MAPPING_END_EVENT)
			break;
		km = st->ev.start_mark;
		if (st->ev.type != YAML_SCALAR_EVENT)
			return yc_fail(st, &km, YAMLCFG_E_STRUCTURE,
				       "a load key must be a plain name, found %s; a load has the "
				       "keys %s", yc_event_word(st->ev.type),
				       yc_table_keys(plan_load_table, PLK_NKEYS, keys, sizeof(keys)));
		k = plan_load_key_lookup(yc_scalar(&st->ev), &near);
		if (k < 0) {
			char sugg[64] = "";

			if (near >= 0)
				snprintf(sugg, sizeof(sugg), "did you mean %s? ",
					 plan_load_table[near].name);
			return yc_fail(st, &km, YAMLCFG_E_KEY,
				       "unknown key %s in a load; %sa load has the keys %s",
				       config_quote(yc_scalar(&st->ev), q, sizeof(q)), sugg,
				       yc_table_keys(plan_load_table, PLK_NKEYS, keys, sizeof(keys)));
		}
		if (seen[k])
			return yc_fail(st, &km, YAMLCFG_E_KEY,
				       "duplicate key load.%s (first set on line %d); set each key "
				       "once", plan_load_table[k].name, seen_line[k]);
		seen[k] = true;
		seen_line[k] = (int)km.line + 1;
		r = yc_next(st);
		if (r)
			return r;
		if (k == PLK_ARGS) {
			r = yc_load_args(st, l);
			if (r)
				return r;
			continue;
		}
		{
			char what[32];

			snprintf(what, sizeof(what), "load.%s", plan_load_table[k].name);
			r = yc_list_scalar(st, what, &v);
			if (r)
				return r;
			if (plan_load_table[k].type == CFG_T_INT && yc_octal_like(st, what, v))
				return YAMLCFG_E_VALUE;
		}
		cr = plan_load_set(l, (enum plan_load_key)k, v, msg, sizeof(msg));
		if (cr != CFG_OK)
			return yc_fail(st, &st->ev.start_mark,
				       cr == CFG_E_NOMEM ? YAMLCFG_E_NOMEM : YAMLCFG_E_VALUE, "%s",
				       msg);
	}
	if (!seen[PLK_KIND]) {
		yaml_mark_t m = { 0 };

		m.line = (size_t)atoi(strrchr(l->origin, ':') + 1) - 1;
		return yc_fail(st, &m, YAMLCFG_E_MISSING,
			       "a load needs kind: (one of coremark, ping-flood, stress-ng, "
			       "hackbench, command, expect-traffic)");
	}
	return YAMLCFG_OK;
}

/* After a SEQUENCE_START: load entries appended to *@loads. */
static enum yamlcfg_result yc_load_list(struct yc *st, struct plan_load **loads, size_t *n)
{
	enum yamlcfg_result r;

	for (;;) {
		struct plan_load *nl;

		r = yc_next(st);
		if (r)
			return r;
		if (st->ev.type == YAML_SEQUENCE_END_EVENT)
			return YAMLCFG_OK;
		if (*n >= 64)
			return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_STRUCTURE,
				       "more than 64 loads in one list");
		nl = realloc(*loads, (*n + 1) * sizeof(*nl));
		if (!nl)
			return yc_fail(st, NULL, YAMLCFG_E_NOMEM, "out of memory");
		*loads = nl;
		memset(&nl[*n], 0, sizeof(nl[*n]));
		(*n)++;
		r = yc_load_entry(st, &nl[*n - 1]);
		if (r)
			return r;
	}
}

/* "load:" after its key: a list of loads. */
static enum yamlcfg_result yc_load_value(struct yc *st, struct plan_load **loads, size_t *n)
{
	char keys[400];

	if (st->ev.type == YAML_SCALAR_EVENT && yc_is_null(&st->ev))
		return YAMLCFG_OK;	/* "load:" alone: none */
	if (st->ev.type != YAML_SEQUENCE_START_EVENT)
		return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_STRUCTURE,
			       "load must be a list (\"- kind: coremark\" lines), found %s; a load "
			       "has the keys %s", yc_event_word(st->ev.type),
			       yc_table_keys(plan_load_table, PLK_NKEYS, keys, sizeof(keys)));
	return yc_load_list(st, loads, n);
}

/* One phase: name, duration and an optional load list. */
static enum yamlcfg_result yc_phase(struct yc *st, struct plan_phase *ph)
{
	bool seen_name = false, seen_dur = false, seen_load = false;
	yaml_mark_t start = st->ev.start_mark;
	char q[64], msg[512];
	enum yamlcfg_result r;
	const char *v;

	ph->origin = yc_origin(st, &start);
	if (!ph->origin)
		return yc_fail(st, NULL, YAMLCFG_E_NOMEM, "out of memory");
	if (st->ev.type != YAML_MAPPING_START_EVENT)
		return yc_fail(st, &start, YAMLCFG_E_STRUCTURE,
			       "a phase must be a mapping with name:, duration: and optionally "
			       "load:, found %s", yc_event_word(st->ev.type));
	for (;;) {
		yaml_mark_t km;
		const char *key;
		bool *seen;

		r = yc_next(st);
		if (r)
			return r;
		if (st->ev.type == YAML_MAPPING_END_EVENT)
			break;
		km = st->ev.start_mark;
		if (st->ev.type != YAML_SCALAR_EVENT)
			return yc_fail(st, &km, YAMLCFG_E_STRUCTURE,
				       "a phase key must be a plain name, found %s; a phase has the "
				       "keys name, duration and load", yc_event_word(st->ev.type));
		key = yc_scalar(&st->ev);
		seen = !strcmp(key, "name") ? &seen_name : !strcmp(key, "duration") ? &seen_dur :
		       !strcmp(key, "load") ? &seen_load : NULL;
		if (!seen) {
			const char *near = !strcmp(key, "loads") || !strcmp(key, "lod") ? "load" :
					   !strcmp(key, "nam") || !strcmp(key, "label") ? "name" :
					   !strncmp(key, "dur", 3) ? "duration" : NULL;
			char sugg[64] = "";

			if (near)
				snprintf(sugg, sizeof(sugg), "did you mean %s? ", near);
			return yc_fail(st, &km, YAMLCFG_E_KEY,
				       "unknown key %s in a phase; %sa phase has the keys name, "
				       "duration and load", config_quote(key, q, sizeof(q)), sugg);
		}
		if (*seen)
			return yc_fail(st, &km, YAMLCFG_E_KEY,
				       "duplicate key %s in a phase; set each key once",
				       config_quote(key, q, sizeof(q)));
		*seen = true;
		r = yc_next(st);
		if (r)
			return r;
		if (seen == &seen_load) {
			r = yc_load_value(st, &ph->loads, &ph->nloads);
			if (r)
				return r;
			continue;
		}
		r = yc_list_scalar(st, seen == &seen_name ? "phases.name" : "phases.duration", &v);
		if (r)
			return r;
		if (seen == &seen_name) {
			int64_t unused;

			if (config_item_parse(&plan_phase_table[PPK_NAME], "phases.name", v, &unused,
					      msg, sizeof(msg)) != CFG_OK)
				return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_VALUE, "%s", msg);
			if (!v[0] || strchr(v, '=') || strspn(v, "abcdefghijklmnopqrstuvwxyz"
							       "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
							       "0123456789_-+.") != strlen(v))
				return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_VALUE,
					       "phases.name must be a word of letters, digits and "
					       "_-+. (idle, coremark+flood), got %s",
					       config_quote(v, q, sizeof(q)));
			free(ph->name);
			ph->name = strdup(v);
			if (!ph->name)
				return yc_fail(st, NULL, YAMLCFG_E_NOMEM, "out of memory");
		} else {
			if (config_item_parse(&plan_phase_table[PPK_DURATION], "phases.duration", v,
					      &ph->duration_ns, msg, sizeof(msg)) != CFG_OK)
				return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_VALUE, "%s", msg);
		}
	}
	if (!seen_name || !seen_dur)
		return yc_fail(st, &start, YAMLCFG_E_MISSING, "a phase needs %s%s%s",
			       seen_name ? "" : "name:", !seen_name && !seen_dur ? " and " : "",
			       seen_dur ? "" : "duration:");
	return YAMLCFG_OK;
}

/* "phases:" after its key: a list of phases. */
static enum yamlcfg_result yc_phases(struct yc *st, struct plan *p)
{
	enum yamlcfg_result r;

	if (st->ev.type != YAML_SEQUENCE_START_EVENT)
		return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_STRUCTURE,
			       "phases must be a list (\"- name: idle\" entries with duration: and "
			       "load:), found %s", yc_event_word(st->ev.type));
	p->explicit_phases = true;
	for (;;) {
		struct plan_phase *np;

		r = yc_next(st);
		if (r)
			return r;
		if (st->ev.type == YAML_SEQUENCE_END_EVENT)
			break;
		if (p->nphases >= 64)
			return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_STRUCTURE,
				       "more than 64 phases");
		np = realloc(p->phases, (p->nphases + 1) * sizeof(*np));
		if (!np)
			return yc_fail(st, NULL, YAMLCFG_E_NOMEM, "out of memory");
		p->phases = np;
		memset(&np[p->nphases], 0, sizeof(np[p->nphases]));
		p->nphases++;
		r = yc_phase(st, &np[p->nphases - 1]);
		if (r)
			return r;
	}
	if (!p->nphases)
		return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_STRUCTURE,
			       "phases is an empty list; leave it out for a run of one phase");
	return YAMLCFG_OK;
}

/* A top-level key that is one of the profile's lists: handled here. */
static enum yamlcfg_result yc_list_section(struct yc *st, const char *name, bool *handled)
{
	struct plan *p = config_plan_mut(st->scratch);
	yaml_mark_t m = st->ev.start_mark;
	enum yamlcfg_result r;
	bool is_phases;
	int *line;

	*handled = false;
	if (strcmp(name, "phases") && strcmp(name, "load"))
		return YAMLCFG_OK;
	*handled = true;
	if (st->src != CFG_SRC_PROFILE)
		return yc_fail(st, &m, YAMLCFG_E_PLACE,
			       "%s belongs in a profile, not in a board file", name);
	is_phases = !strcmp(name, "phases");	/* @name dies with the next event */
	line = is_phases ? &st->phases_line : &st->load_line;
	if (*line)
		return yc_fail(st, &m, YAMLCFG_E_SECTION,
			       "duplicate section %s (first on line %d); write each section once",
			       name, *line);
	*line = (int)m.line + 1;
	r = yc_next(st);
	if (r)
		return r;
	if (is_phases)
		return yc_phases(st, p);
	return yc_load_value(st, &p->loads, &p->nloads);
}

/* The top-level mapping, after its MAPPING_START. */
static enum yamlcfg_result yc_sections(struct yc *st)
{
	unsigned flag = yc_flag(st->src);
	char list[128], sugg[64], q[64];
	enum yamlcfg_result r;
	const char *name;
	int first, k;

	for (;;) {
		r = yc_next(st);
		if (r)
			return r;
		if (st->ev.type == YAML_MAPPING_END_EVENT)
			return YAMLCFG_OK;
		if (st->ev.type != YAML_SCALAR_EVENT)
			return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_STRUCTURE,
				       "a section name must be a plain word, found %s; %s has the "
				       "sections %s", yc_event_word(st->ev.type), yc_kind(st->src),
				       yc_section_list(flag, list, sizeof(list)));
		name = yc_scalar(&st->ev);
		if (!strcmp(name, "<<"))
			return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_STRUCTURE,
				       "merge keys (<<) are not supported; write the sections out");
		{
			bool handled;

			r = yc_list_section(st, name, &handled);
			if (r)
				return r;
			if (handled)
				continue;
		}
		first = yc_section_find(name);
		if (first < 0 && yc_misplaced(st, name, NULL))
			return YAMLCFG_E_SECTION;
		if (first < 0) {
			sugg[0] = '\0';
			for (k = 0; k < CFG_NKEYS; k++) {
				char cand[96];

				/* A typo in the section name is a typo in the full
				 * name of its first key. */
				if (!yc_section_start(k) || !(config_table[k].where & flag))
					continue;
				snprintf(cand, sizeof(cand), "%.40s.%s", name, config_table[k].name);
				if (config_closest_key(NULL, cand) == k) {
					snprintf(sugg, sizeof(sugg), "did you mean %s? ",
						 config_table[k].section);
					break;
				}
			}
			return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_SECTION,
				       "unknown section %s; %s%s has the sections %s",
				       config_quote(name, q, sizeof(q)), sugg, yc_kind(st->src), yc_section_list(flag, list, sizeof(list)));
		}
		if (!(config_table[first].where & flag))
			return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_PLACE,
				       "section %s belongs in %s, not in %s; %s has the sections %s",
				       name, yc_kind(st->src == CFG_SRC_BOARD ? CFG_SRC_PROFILE :
						     CFG_SRC_BOARD),
				       yc_kind(st->src), yc_kind(st->src),
				       yc_section_list(flag, list, sizeof(list)));
		if (st->section_line[first])
			return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_SECTION,
				       "duplicate section %s (first on line %d); write each section "
				       "once", name, st->section_line[first]);
		st->section_line[first] = (int)st->ev.start_mark.line + 1;
		st->section_col[first] = (int)st->ev.start_mark.column + 1;

		r = yc_next(st);
		if (r)
			return r;
		if (st->ev.type == YAML_SCALAR_EVENT && yc_is_null(&st->ev))
			continue; /* "limits:" alone: an empty section */
		if (st->ev.type != YAML_MAPPING_START_EVENT) {
			char keys[256];

			return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_STRUCTURE,
				       "section %s must be a mapping of key: value lines, found %s; "
				       "%s has the keys %s", config_table[first].section,
				       yc_event_word(st->ev.type), config_table[first].section,
				       yc_keys(first, keys, sizeof(keys)));
		}
		r = yc_section(st, first);
		if (r)
			return r;
	}
}

static enum yamlcfg_result yc_document(struct yc *st)
{
	enum yamlcfg_result r;
	char list[128];

	r = yc_next(st);              /* STREAM_START */
	if (r)
		return r;
	r = yc_next(st);
	if (r)
		return r;
	if (st->ev.type == YAML_STREAM_END_EVENT)
		goto empty;
	r = yc_next(st);              /* after DOCUMENT_START */
	if (r)
		return r;
	if (st->ev.type == YAML_SCALAR_EVENT && yc_is_null(&st->ev))
		goto empty;
	if (st->ev.type != YAML_MAPPING_START_EVENT)
		return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_STRUCTURE,
			       "the top level must be a mapping of sections (\"section:\" lines "
			       "with indented \"key: value\" lines), found %s; %s has the "
			       "sections %s", yc_event_word(st->ev.type), yc_kind(st->src),
			       yc_section_list(yc_flag(st->src), list, sizeof(list)));
	r = yc_sections(st);
	if (r)
		return r;
	r = yc_next(st);              /* DOCUMENT_END */
	if (r)
		return r;
	r = yc_next(st);
	if (r)
		return r;
	if (st->ev.type != YAML_STREAM_END_EVENT)
		return yc_fail(st, &st->ev.start_mark, YAMLCFG_E_STRUCTURE,
			       "a second YAML document starts here; %s holds one document",
			       yc_kind(st->src));
	return YAMLCFG_OK;

empty:
	return yc_fail(st, NULL, YAMLCFG_E_STRUCTURE,
		       "is empty; %s is a mapping of the sections %s", yc_kind(st->src),
		       yc_section_list(yc_flag(st->src), list, sizeof(list)));
}

/* A board file must name the board and the output line. */
static enum yamlcfg_result yc_required(struct yc *st)
{
	char name[64];
	int k, first;

	if (st->src != CFG_SRC_BOARD)
		return YAMLCFG_OK;
	for (k = 0; k < CFG_NKEYS; k++) {
		if (!(config_table[k].where & CFG_REQUIRED_IN_BOARD) || st->key_line[k])
			continue;
		config_key_name((enum cfg_key)k, name, sizeof(name));
		first = yc_section_find(config_table[k].section);
		if (st->section_line[first]) {
			yaml_mark_t m = {
				.line = (size_t)st->section_line[first] - 1,
				.column = (size_t)st->section_col[first] - 1,
			};

			return yc_fail(st, &m, YAMLCFG_E_MISSING,
				       "section %s lacks the required key %s; a board file must "
				       "set board.name, gpio.chip and gpio.line (gpio.line: \"\" "
				       "when the pin is not known)", config_table[k].section,
				       config_table[k].name);
		}
		return yc_fail(st, NULL, YAMLCFG_E_MISSING,
			       "missing required key %s; a board file must set board.name, "
			       "gpio.chip and gpio.line (gpio.line: \"\" when the pin is not known)",
			       name);
	}
	return YAMLCFG_OK;
}

enum yamlcfg_result yamlcfg_load_buffer(struct config *c, const char *name,
					const void *buf, size_t len, enum cfg_source src,
					char *err, size_t errlen)
{
	const unsigned char *p = buf;
	enum yamlcfg_result r;
	struct yc *st;
	size_t i;

	if (err && errlen)
		err[0] = '\0';
	if (src != CFG_SRC_BOARD && src != CFG_SRC_PROFILE) {
		errno = EINVAL;
		if (err && errlen)
			snprintf(err, errlen, "%s: yamlcfg_load needs CFG_SRC_BOARD or "
				 "CFG_SRC_PROFILE", name);
		return YAMLCFG_E_IO;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", name);
		return YAMLCFG_E_NOMEM;
	}
	st->name = name;
	st->src = src;
	st->err = err;
	st->errlen = errlen;

	if (len > YAMLCFG_MAX_BYTES) {
		r = yc_fail(st, NULL, YAMLCFG_E_IO, "is %zu bytes; a board file or profile is "
			    "at most %d bytes", len, YAMLCFG_MAX_BYTES);
		goto out_free;
	}
	/* UTF-16 (an editor's "Unicode" on Windows) is YAML to libyaml, but its
	 * NUL bytes would be called binary below: say what to do instead. */
	if (len >= 2 && ((p[0] == 0xff && p[1] == 0xfe) || (p[0] == 0xfe && p[1] == 0xff) ||
			 (!p[0] != !p[1]))) {
		r = yc_fail(st, NULL, YAMLCFG_E_SYNTAX, "is UTF-16 (or UTF-32) text; save it as "
			    "UTF-8: a board file or profile is UTF-8 text");
		goto out_free;
	}
	/* libyaml stops at a NUL in a string input; say what the file is. */
	for (i = 0; i < len; i++) {
		if (!p[i]) {
			yaml_mark_t m = yc_mark_at(p, len, i);

			r = yc_fail(st, &m, YAMLCFG_E_SYNTAX, "contains a NUL byte: this is not "
				    "a text file; a board file or profile is YAML text");
			goto out_free;
		}
	}

	st->scratch = config_new();
	if (!st->scratch || !yaml_parser_initialize(&st->parser)) {
		r = yc_fail(st, NULL, YAMLCFG_E_NOMEM, "out of memory");
		config_free(st->scratch);
		goto out_free;
	}
	st->buf = p;
	st->len = len;
	yaml_parser_set_input_string(&st->parser, p, len);

	r = yc_document(st);
	if (!r)
		r = yc_required(st);
	/* Everything checked: the plan first (it may fail), then the values,
	 * with the file's lines as their origins. */
	if (!r && plan_take(config_plan_mut(c), config_plan_mut(st->scratch)) < 0)
		r = yc_fail(st, NULL, YAMLCFG_E_NOMEM, "out of memory");
	if (!r)
		config_take(c, st->scratch);

	if (st->have_ev)
		yaml_event_delete(&st->ev);
	yaml_parser_delete(&st->parser);
	config_free(st->scratch);
out_free:
	free(st);
	return r;
}

static enum yamlcfg_result yc_not_a_file(const char *path, const struct stat *sb, char *err,
					 size_t errlen)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: is %s, not a regular file; a board file or profile is "
			 "a text file", path, S_ISDIR(sb->st_mode) ? "a directory" :
			 S_ISFIFO(sb->st_mode) ? "a FIFO (named pipe)" :
			 S_ISCHR(sb->st_mode) || S_ISBLK(sb->st_mode) ? "a device" :
			 S_ISSOCK(sb->st_mode) ? "a socket" : "something else");
	return YAMLCFG_E_IO;
}

enum yamlcfg_result yamlcfg_load(struct config *c, const char *path, enum cfg_source src,
				 char *err, size_t errlen)
{
	enum yamlcfg_result r;
	struct stat sb = { 0 };
	size_t len = 0, cap = 64 * 1024;
	char *buf;
	ssize_t n;
	int fd;

	/* Only a regular file: opening a FIFO without a writer would wait
	 * forever, a device can be endless or have side effects on open.
	 * O_NONBLOCK, and fstat() of what was opened, close the race with a
	 * FIFO put in its place after the stat(). */
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
		return yc_not_a_file(path, &sb, err, errlen);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (err && errlen)
			snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return YAMLCFG_E_IO;
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return yc_not_a_file(path, &sb, err, errlen);
	}
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", path);
		return YAMLCFG_E_NOMEM;
	}
	/* Read at most one byte more than allowed: enough to know it is too big
	 * without reading a huge file or an endless device. */
	for (;;) {
		if (len == cap) {
			char *nb;

			if (cap > YAMLCFG_MAX_BYTES)
				break;
			cap = cap * 2 > YAMLCFG_MAX_BYTES + 1 ? YAMLCFG_MAX_BYTES + 1 : cap * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				close(fd);
				if (err && errlen)
					snprintf(err, errlen, "%s: out of memory", path);
				return YAMLCFG_E_NOMEM;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			if (err && errlen)
				snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return YAMLCFG_E_IO;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (len > YAMLCFG_MAX_BYTES) {
		if (err && errlen)
			snprintf(err, errlen, "%s: is larger than %d bytes; a board file or profile "
				 "is a short text file", path, YAMLCFG_MAX_BYTES);
		free(buf);
		return YAMLCFG_E_IO;
	}
	r = yamlcfg_load_buffer(c, path, buf, len, src, err, errlen);
	free(buf);
	return r;
}
