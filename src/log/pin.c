/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What one output pin should do: made once, written into the log header and
 * JSON, read back from either (docs/log-format.md, pin.*). */
#include "log/pin.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/msgbuf.h"
#include "base/units.h"

static const char *const kind_names[] = { "wave", "respond" };
static const char *const grid_names[] = { "monotonic", "realtime", "tai" };
static const char *const mode_names[] = { "follow", "toggle", "pulse" };
static const char *const edge_names[] = { "both", "rising", "falling" };

#define NAMES(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *const *names;
	size_t n;
} field_words[] = {
	[PIN_WORD_KIND] = { kind_names, NAMES(kind_names) },
	[PIN_WORD_GRID] = { grid_names, NAMES(grid_names) },
	[PIN_WORD_MODE] = { mode_names, NAMES(mode_names) },
	[PIN_WORD_EDGE] = { edge_names, NAMES(edge_names) },
};

int pin_word(enum pin_word_field f, const char *word)
{
	size_t i;

	for (i = 0; i < field_words[f].n; i++)
		if (!strcmp(word, field_words[f].names[i]))
			return (int)i;
	return -1;
}

static const char *name_of(const char *const *names, size_t n, unsigned i)
{
	return i < n ? names[i] : "unknown";
}

const char *pin_kind_name(enum pin_kind k)
{
	return name_of(kind_names, NAMES(kind_names), (unsigned)k);
}

const char *pin_grid_name(enum pin_grid g)
{
	return name_of(grid_names, NAMES(grid_names), (unsigned)g);
}

const char *pin_respond_mode_name(enum pin_respond_mode m)
{
	return name_of(mode_names, NAMES(mode_names), (unsigned)m);
}

const char *pin_edge_name(enum pin_edge e)
{
	return name_of(edge_names, NAMES(edge_names), (unsigned)e);
}

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

void pin_nominals(const struct pin *p, int64_t nominal_ns[2])
{
	nominal_ns[PIN_POS] = nominal_ns[PIN_NEG] = 0;
	if (p->kind == PIN_WAVE) {
		nominal_ns[PIN_POS] = p->wave.high_ns;
		nominal_ns[PIN_NEG] = p->wave.low_ns;
	} else if (p->respond_mode == PIN_PULSE) {
		/* the answer leaves the idle level for pulse_ns; the time
		 * between answers is the input's */
		nominal_ns[p->idle_level ? PIN_NEG : PIN_POS] = p->pulse_ns;
	}
}

void pin_init_wave(struct pin *p, const char *line, const struct wave *w, int idle_level,
		   enum pin_grid grid, int64_t grid_align_ns)
{
	memset(p, 0, sizeof(*p));
	p->kind = PIN_WAVE;
	copy(p->line, sizeof(p->line), line);
	p->idle_level = idle_level ? 1 : 0;
	p->wave = *w;
	p->grid = grid;
	p->grid_align_ns = grid == PIN_GRID_MONOTONIC ? 0 : grid_align_ns;
	pin_nominals(p, p->nominal_ns);
}

void pin_init_respond(struct pin *p, const char *line, int idle_level, enum pin_respond_mode mode,
		      const char *input, enum pin_edge edge, int64_t debounce_ns, int64_t pulse_ns)
{
	memset(p, 0, sizeof(*p));
	p->kind = PIN_RESPOND;
	copy(p->line, sizeof(p->line), line);
	p->idle_level = idle_level ? 1 : 0;
	p->respond_mode = mode;
	copy(p->input, sizeof(p->input), input);
	p->input_edge = edge;
	p->debounce_ns = debounce_ns;
	p->pulse_ns = mode == PIN_PULSE ? pulse_ns : 0;
	pin_nominals(p, p->nominal_ns);
}

int64_t pin_half_period(const struct pin *p)
{
	return p->kind == PIN_WAVE ? (int64_t)(wave_period(&p->wave) / 2) : 0;
}

/* A text value written on one line: the header's text has no escapes, and
 * a line name or an input with a newline would end its value early. */
static void put_text(FILE *f, const char *key, const char *v)
{
	fprintf(f, "pin.%s=", key);
	for (; *v; v++)
		fputc(*v == '\n' || *v == '\r' ? ' ' : *v, f);
	fputc('\n', f);
}

void pin_meta_write(const struct pin *p, FILE *f)
{
	fprintf(f, "pin.kind=%s\n", pin_kind_name(p->kind));
	put_text(f, "line", p->line);
	fprintf(f, "pin.idle_level=%d\n", p->idle_level);
	if (p->kind == PIN_WAVE) {
		fprintf(f, "pin.high_ns=%" PRId64 "\npin.low_ns=%" PRId64 "\npin.phase_ns=%" PRId64
			"\n", p->wave.high_ns, p->wave.low_ns, p->wave.phase_ns);
		fprintf(f, "pin.grid=%s\npin.grid_align_ns=%" PRId64 "\n", pin_grid_name(p->grid),
			p->grid_align_ns);
	} else {
		fprintf(f, "pin.respond_mode=%s\n", pin_respond_mode_name(p->respond_mode));
		put_text(f, "input", p->input);
		fprintf(f, "pin.input_edge=%s\npin.debounce_ns=%" PRId64 "\npin.pulse_ns=%" PRId64
			"\n", pin_edge_name(p->input_edge), p->debounce_ns, p->pulse_ns);
	}
	fprintf(f, "pin.nominal_pos_ns=%" PRId64 "\npin.nominal_neg_ns=%" PRId64 "\n",
		p->nominal_ns[PIN_POS], p->nominal_ns[PIN_NEG]);
}

/* ---- reading it back ---- */

struct rd {
	pin_get_fn get;
	const void *ctx;
	char *err;
	size_t errlen;
	bool bad;
};

static const char *rd_get(struct rd *r, const char *key, char *buf, size_t len)
{
	return r->get(r->ctx, key, buf, len);
}

/* @key's value into @buf; NULL when the reading has failed already or the
 * key is absent (and, with @need, that failure said). */
static const char *rd_value(struct rd *r, const char *key, bool need, char *buf, size_t len)
{
	const char *v;

	if (r->bad)
		return NULL;
	v = rd_get(r, key, buf, len);
	if (!v && need) {
		msgbuf_set(r->err, r->errlen, "no %s in the header's pin description", key);
		r->bad = true;
	}
	return v;
}

/* An integer at @key in [lo, hi]; @def when absent (@need: absent is wrong). */
static int64_t rd_int(struct rd *r, const char *key, bool need, int64_t def, int64_t lo, int64_t hi)
{
	char buf[32], *end;
	const char *v = rd_value(r, key, need, buf, sizeof(buf));
	long long n;

	if (!v)
		return def;
	errno = 0;
	n = strtoll(v, &end, 10);
	if (errno || end == v || *end || n < lo || n > hi) {
		msgbuf_set(r->err, r->errlen, "%s=%s is not a whole number in %" PRId64 "..%" PRId64,
			   key, v, lo, hi);
		r->bad = true;
		return def;
	}
	return n;
}

/* A word of field @f at @key (its index); @def when absent (@need: absent
 * is wrong). */
static unsigned rd_word(struct rd *r, const char *key, bool need, unsigned def,
			enum pin_word_field f)
{
	char buf[32];
	const char *v = rd_value(r, key, need, buf, sizeof(buf));
	int i;

	if (!v)
		return def;
	if ((i = pin_word(f, v)) >= 0)
		return (unsigned)i;
	msgbuf_set(r->err, r->errlen, "%s=%s is none of the known words", key, v);
	r->bad = true;
	return def;
}

#define DUR_MAX INT64_C(1000000000000) /* far beyond any key's range: 1000 s */

/* The pin.* keys of a header that has them. */
static void read_pin_keys(struct rd *r, struct pin *p, int64_t half)
{
	int64_t nom[2];

	p->kind = (enum pin_kind)rd_word(r, "pin.kind", true, 0, PIN_WORD_KIND);
	rd_get(r, "pin.line", p->line, sizeof(p->line));
	p->idle_level = (int)rd_int(r, "pin.idle_level", true, 0, 0, 1);
	if (p->kind == PIN_WAVE) {
		p->wave.high_ns = rd_int(r, "pin.high_ns", true, 0, 1, DUR_MAX);
		p->wave.low_ns = rd_int(r, "pin.low_ns", true, 0, 1, DUR_MAX);
		p->wave.phase_ns = rd_int(r, "pin.phase_ns", true, 0, 0, 2 * DUR_MAX);
		p->grid = (enum pin_grid)rd_word(r, "pin.grid", true, 0, PIN_WORD_GRID);
		p->grid_align_ns = rd_int(r, "pin.grid_align_ns", true, 0, 0, INT64_MAX);
		if (!r->bad && (p->wave.high_ns + p->wave.low_ns != 2 * half ||
				(uint64_t)p->wave.phase_ns >= wave_period(&p->wave))) {
			msgbuf_set(r->err, r->errlen, "the pin's high %" PRId64 ", low %" PRId64
				   " and phase %" PRId64 " ns do not fit the half period %" PRId64
				   " ns", p->wave.high_ns, p->wave.low_ns, p->wave.phase_ns, half);
			r->bad = true;
		}
	} else {
		p->respond_mode = (enum pin_respond_mode)rd_word(r, "pin.respond_mode", true, 0,
								 PIN_WORD_MODE);
		rd_get(r, "pin.input", p->input, sizeof(p->input));
		p->input_edge = (enum pin_edge)rd_word(r, "pin.input_edge", true, 0, PIN_WORD_EDGE);
		p->debounce_ns = rd_int(r, "pin.debounce_ns", true, 0, 0, DUR_MAX);
		p->pulse_ns = rd_int(r, "pin.pulse_ns", true, 0, 0, DUR_MAX);
	}
	pin_nominals(p, nom);
	if (rd_int(r, "pin.nominal_pos_ns", true, 0, 0, DUR_MAX) != nom[PIN_POS] ||
	    rd_int(r, "pin.nominal_neg_ns", true, 0, 0, DUR_MAX) != nom[PIN_NEG]) {
		if (!r->bad)
			msgbuf_set(r->err, r->errlen, "the pin's nominal widths disagree with its "
				   "shape (%" PRId64 " and %" PRId64 " ns)", nom[PIN_POS],
				   nom[PIN_NEG]);
		r->bad = true;
	}
	memcpy(p->nominal_ns, nom, sizeof(nom));
}

/* A duration key of the configuration dump ("50us", as config_dump writes
 * durations); @def when absent. */
static int64_t rd_cfg_ns(struct rd *r, const char *key, int64_t def)
{
	char buf[64];
	const char *v = rd_get(r, key, buf, sizeof(buf));
	int64_t ns;

	if (r->bad || !v)
		return def;
	if (units_parse_duration(v, "ns", &ns) < 0 || ns < 0) {
		msgbuf_set(r->err, r->errlen, "%s=%s is not a duration", key, v);
		r->bad = true;
		return def;
	}
	return ns;
}

/* A log written before the pin.* keys: what it has. */
static void read_legacy(struct rd *r, struct pin *p, int64_t half)
{
	char mode[16];
	const char *m = rd_get(r, "run.mode", mode, sizeof(mode));

	rd_get(r, "outputs.line", p->line, sizeof(p->line));
	if (!p->line[0])
		rd_get(r, "gpio.line", p->line, sizeof(p->line));
	p->idle_level = (int)rd_int(r, "gpio.idle_level", false, 0, 0, 1);
	if (m && !strcmp(m, "respond")) {
		p->kind = PIN_RESPOND;
		p->respond_mode = (enum pin_respond_mode)rd_word(r, "respond.mode", false, 0,
								 PIN_WORD_MODE);
		rd_get(r, "input.line", p->input, sizeof(p->input));
		p->input_edge = (enum pin_edge)rd_word(r, "respond.edge", false, 0, PIN_WORD_EDGE);
		p->debounce_ns = rd_cfg_ns(r, "respond.debounce", 0);
		p->pulse_ns = p->respond_mode == PIN_PULSE
			? rd_cfg_ns(r, "respond.pulse_width", 0) : 0;
	} else {
		p->kind = PIN_WAVE;
		p->wave.high_ns = rd_int(r, "wave.high_ns", false, half, 1, DUR_MAX);
		p->wave.low_ns = rd_int(r, "wave.low_ns", false, half, 1, DUR_MAX);
		p->wave.phase_ns = rd_int(r, "wave.phase_ns", false, 0, 0, 2 * DUR_MAX);
		p->grid = (enum pin_grid)rd_word(r, "grid.clock", false, 0, PIN_WORD_GRID);
		p->grid_align_ns = p->grid == PIN_GRID_MONOTONIC ? 0
			: rd_cfg_ns(r, "grid.align", 0);
	}
	pin_nominals(p, p->nominal_ns);
}

int pin_meta_read(struct pin *p, pin_get_fn get, const void *ctx, int64_t half_period_ns,
		  char *err, size_t errlen)
{
	struct rd r = { get, ctx, err, errlen, false };
	char kind[16];

	memset(p, 0, sizeof(*p));
	if (get(ctx, "pin.kind", kind, sizeof(kind)))
		read_pin_keys(&r, p, half_period_ns);
	else
		read_legacy(&r, p, half_period_ns);
	return r.bad ? -1 : 0;
}

void pin_json_write(struct json_writer *w, const struct pin *p)
{
	json_object_begin(w);
	json_kv_string(w, "kind", pin_kind_name(p->kind));
	json_kv_string(w, "line", p->line);
	json_kv_int(w, "idle_level", p->idle_level);
	if (p->kind == PIN_WAVE) {
		json_kv_int(w, "high_ns", p->wave.high_ns);
		json_kv_int(w, "low_ns", p->wave.low_ns);
		json_kv_int(w, "phase_ns", p->wave.phase_ns);
		json_kv_uint(w, "period_ns", wave_period(&p->wave));
		json_kv_string(w, "grid", pin_grid_name(p->grid));
		if (p->grid != PIN_GRID_MONOTONIC)
			json_kv_int(w, "grid_align_ns", p->grid_align_ns);
		else
			json_kv_null(w, "grid_align_ns");
	} else {
		json_kv_string(w, "respond_mode", pin_respond_mode_name(p->respond_mode));
		json_kv_string(w, "input", p->input);
		json_kv_string(w, "input_edge", pin_edge_name(p->input_edge));
		json_kv_int(w, "debounce_ns", p->debounce_ns);
		if (p->respond_mode == PIN_PULSE)
			json_kv_int(w, "pulse_ns", p->pulse_ns);
		else
			json_kv_null(w, "pulse_ns");
	}
	json_kv_object_begin(w, "nominal_ns");
	if (pin_has_nominal(p, PIN_POS))
		json_kv_int(w, "positive", p->nominal_ns[PIN_POS]);
	else
		json_kv_null(w, "positive");
	if (pin_has_nominal(p, PIN_NEG))
		json_kv_int(w, "negative", p->nominal_ns[PIN_NEG]);
	else
		json_kv_null(w, "negative");
	json_object_end(w);
	json_object_end(w);
}

const char *pin_describe(const struct pin *p, char *buf, size_t len)
{
	const struct wave *w = &p->wave;

	if (p->kind == PIN_RESPOND) {
		char pw[32] = "";

		if (p->respond_mode == PIN_PULSE)
			snprintf(pw, sizeof(pw), " of %s us", UNITS_US(p->pulse_ns));
		snprintf(buf, len, "respond: %s%s on %s edges of input %s, debounce %s us",
			 pin_respond_mode_name(p->respond_mode), pw, pin_edge_name(p->input_edge),
			 p->input[0] ? p->input : "?", UNITS_US(p->debounce_ns));
	} else if (!wave_period(w)) {
		snprintf(buf, len, "a wave of unknown period");
	} else if (wave_is_square(w) && !w->phase_ns) {
		snprintf(buf, len, "half period %s us (%.3f Hz)", UNITS_US(w->high_ns),
			 1e9 / (double)wave_period(w));
	} else {
		snprintf(buf, len, "high %s us, low %s us (%.3f Hz, %.2f %% high), phase %s us",
			 UNITS_US(w->high_ns), UNITS_US(w->low_ns), 1e9 / (double)wave_period(w),
			 100.0 * (double)w->high_ns / (double)wave_period(w), UNITS_US(w->phase_ns));
	}
	return buf;
}
