/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What one output pin should do: the one description of a line that the
 * run writes into its log header and every reader and renderer takes. */
#ifndef SQW_PIN_H
#define SQW_PIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/json.h"
#include "base/wave.h"

/*
 * One value per output line, made once from the configuration (run/session.c)
 * and carried in the log header as the pin.* keys (docs/log-format.md), in
 * every JSON document as its "pin" member (docs/json-summary.md), and read
 * back by the log reader (edgelog_meta.pin) and by report's document reader.
 * No consumer derives what the pin should do from run.half_period or the
 * configuration itself: the nominal width of a pulse, the wave's shape, the
 * run's kind and the input a respond run answers all come from here.
 *
 * Plain data: no pointers, copied freely.
 */

enum pin_kind {
	PIN_WAVE = 0,             /* sqwave run: a wave on a grid */
	PIN_RESPOND = 1,          /* sqwave respond: answers to an input's edges */
};

/* The polarity of a pulse: the level it holds (edgestats' order). */
enum pin_polarity {
	PIN_POS = 0,              /* level 1 while it lasts */
	PIN_NEG = 1,              /* level 0 */
};

/* Same orders as the configuration's choices (config.c): grid.clock,
 * respond.mode, respond.edge. */
enum pin_grid { PIN_GRID_MONOTONIC, PIN_GRID_REALTIME, PIN_GRID_TAI };
enum pin_respond_mode { PIN_FOLLOW, PIN_TOGGLE, PIN_PULSE };
enum pin_edge { PIN_EDGE_BOTH, PIN_EDGE_RISING, PIN_EDGE_FALLING };

#define PIN_NAME_LEN 64
#define PIN_INPUT_LEN 128

struct pin {
	enum pin_kind kind;
	char line[PIN_NAME_LEN];  /* the line as gpio.line names it ("" unknown: an old log) */
	int idle_level;           /* logical level before the first edge and after the run */
	/* A wave: how long each level lasts and the shift of slot 0 from the
	 * grid (base/wave.h); on the grid of @grid, slot 0 on a multiple of
	 * @grid_align_ns (realtime/tai; 0 with monotonic). All 0 in a respond run. */
	struct wave wave;
	enum pin_grid grid;
	int64_t grid_align_ns;
	/* The width a pulse of each polarity should measure (enum pin_polarity);
	 * 0: none, the input decides (respond follow and toggle, a respond
	 * pulse's gaps). A wave: high for positive pulses, low for negative. */
	int64_t nominal_ns[2];
	/* A respond run: the answer, the input line as input.line names it,
	 * the edges answered, the kernel's debounce and pulse mode's width. */
	enum pin_respond_mode respond_mode;
	char input[PIN_INPUT_LEN];
	enum pin_edge input_edge;
	int64_t debounce_ns;
	int64_t pulse_ns;
};

/* A wave pin: @w (high, low, phase; each > 0 but the phase) on line @line. */
void pin_init_wave(struct pin *p, const char *line, const struct wave *w, int idle_level,
		   enum pin_grid grid, int64_t grid_align_ns);
/* A respond pin answering @input's @edge edges on line @line. */
void pin_init_respond(struct pin *p, const char *line, int idle_level, enum pin_respond_mode mode,
		      const char *input, enum pin_edge edge, int64_t debounce_ns, int64_t pulse_ns);

/* The nominal widths of @p, from its kind and shape (what pin_init_* set). */
void pin_nominals(const struct pin *p, int64_t nominal_ns[2]);

/* Whether a pulse of @pol has a nominal width. */
static inline bool pin_has_nominal(const struct pin *p, enum pin_polarity pol)
{
	return p->nominal_ns[pol] > 0;
}

/* The half period a wave pin's grid counts in ((high + low) / 2); 0 for respond. */
int64_t pin_half_period(const struct pin *p);

/* The fields whose values are words, and a word's index among a field's
 * (the enum's value), -1 when it is none of them: for the pin's readers. */
enum pin_word_field { PIN_WORD_KIND, PIN_WORD_GRID, PIN_WORD_MODE, PIN_WORD_EDGE };
int pin_word(enum pin_word_field f, const char *word);

/* "wave", "respond"; "monotonic", ...; "follow", ...; "both", ... */
const char *pin_kind_name(enum pin_kind k);
const char *pin_grid_name(enum pin_grid g);
const char *pin_respond_mode_name(enum pin_respond_mode m);
const char *pin_edge_name(enum pin_edge e);

/* @p in words, for the text reports: "half period 500.000 us (1000.000
 * Hz)", "high 300.000 us, low 700.000 us (1000.000 Hz, 30.00 % high), phase
 * 0.000 us", "respond: pulse of 50.000 us on rising edges of input 2,
 * debounce 0.000 us". Returns @buf. */
const char *pin_describe(const struct pin *p, char *buf, size_t len);

/* The header's pin.* lines ("pin.kind=wave\n" ...) to @f. */
void pin_meta_write(const struct pin *p, FILE *f);

/*
 * @p from a log header's key/value text through @get (edgelog_meta_get's
 * shape, @ctx its first argument): the pin.* keys when present, each checked
 * and the nominals checked against the shape; else (logs written before
 * them) derived from what those logs have: wave.*, run.mode, respond.*,
 * gpio.line, grid.*, and @half_period_ns (a plain 50 % wave without wave.*).
 * 0, or -1 with "what is wrong" in @err (the reader calls the log corrupt).
 */
typedef const char *(*pin_get_fn)(const void *ctx, const char *key, char *buf, size_t len);
int pin_meta_read(struct pin *p, pin_get_fn get, const void *ctx, int64_t half_period_ns,
		  char *err, size_t errlen);

/* The JSON member "pin" (docs/json-summary.md): an object, written at the
 * writer's current place after its key. */
void pin_json_write(struct json_writer *w, const struct pin *p);

#endif
