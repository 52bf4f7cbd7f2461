/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one configuration table: every key of board files, profiles and the
 * command line, with its type, default, range, unit and help (config.c). */
#ifndef SQW_CONFIG_H
#define SQW_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Every key, in table order. config.c's table must list them in this order. */
enum cfg_key {
	/* board: what the board is (board file only) */
	CFG_BOARD_NAME,
	CFG_BOARD_DESCRIPTION,
	CFG_BOARD_SOC,
	CFG_BOARD_CPUS,
	CFG_BOARD_NOTES,
	CFG_BOARD_CONFIDENCE,
	/* gpio: the output line (board file, or --set to override) */
	CFG_GPIO_BACKEND,      /* enum: gpiod | sim */
	CFG_GPIO_CHIP,         /* label ("GPIOB"), path ("/dev/gpiochip0") or name ("gpiochip0") */
	CFG_GPIO_LINE,         /* offset ("1") or line name ("PB1"); several: "0,2" */
	CFG_GPIO_FREE_LINES,   /* the lines a lab may clip to: gpio.line "free[:N]" */
	CFG_GPIO_ACTIVE_LOW,
	CFG_GPIO_DRIVE,        /* enum: push-pull | open-drain | open-source */
	CFG_GPIO_IDLE_LEVEL,   /* logical level while idle and on exit: 0 | 1 */
	CFG_GPIO_CONFIDENCE,   /* enum: verified | inferred | unknown */
	/* loopback: optional input wired to the output (board file) */
	CFG_LOOPBACK_CHIP,
	CFG_LOOPBACK_LINE,
	CFG_LOOPBACK_CONFIDENCE,
	/* input: the line `sqwave respond` listens on (board file) */
	CFG_INPUT_CHIP,
	CFG_INPUT_LINE,
	CFG_INPUT_CONFIDENCE,
	/* match: how `sqwave boards detect` recognises the board (board file) */
	CFG_MATCH_COMPATIBLE,  /* text: device-tree compatible strings, one per line */
	CFG_MATCH_DMI_BOARD,   /* text: DMI board_name values, one per line */
	CFG_MATCH_DMI_PRODUCT, /* text: DMI product_name values, one per line */
	/* sim: the simulated backend */
	CFG_SIM_WRITE_COST,    /* duration: busy-wait per write */
	CFG_SIM_NUM_LINES,
	CFG_SIM_BUSY_LINE,     /* -1: none; else this offset is held by sim.busy_consumer */
	CFG_SIM_BUSY_CONSUMER,
	CFG_SIM_CHIP_LABEL,
	CFG_SIM_WIRE_LINE,     /* -1: the output is wired to nothing */
	CFG_SIM_WIRE_DELAY,    /* duration: write to edge event */
	CFG_SIM_WIRE_JITTER,   /* duration: uniform extra delay 0..jitter */
	CFG_SIM_WIRE_LOSE,     /* -1: none; else the wire loses this edge (0 = first) */
	CFG_SIM_STIM_LINE,     /* -1: no stimulus; else the line a schedule drives */
	CFG_SIM_STIM_PERIOD,   /* duration between two stimulus edges */
	CFG_SIM_STIM_JITTER,   /* duration: uniform extra delay 0..jitter per edge */
	CFG_SIM_STIM_COUNT,    /* stimulus edges in all (0: until the input is released) */
	CFG_SIM_STIM_BOUNCE,   /* extra bounces after each stimulus edge */
	CFG_SIM_STIM_BOUNCE_GAP, /* duration between two bounces */
	CFG_SIM_STIM_PRIORITY, /* SCHED_FIFO priority of the stimulus thread (0: normal) */
	CFG_SIM_STIM_CPU,      /* the stimulus thread's CPU (-1: any) */
	CFG_SIM_HISTORY_FILE,  /* the sim's record, streamed as CSV (gpio_sim.h) */
	/* run: the wave */
	CFG_RUN_HALF_PERIOD,
	CFG_RUN_HIGH,          /* duration; 0: the half period (docs/configuration.md) */
	CFG_RUN_LOW,           /* duration; 0: the half period */
	CFG_RUN_PHASE,         /* duration: every edge's shift from the grid, < the period */
	CFG_RUN_DURATION,      /* 0: until SIGINT/SIGTERM */
	CFG_RUN_SCALE,         /* decimal: every phase's duration times this */
	CFG_RUN_WARMUP,
	CFG_RUN_RING_SIZE,
	CFG_RUN_LABEL,         /* names the run (rt-loaded) in log, summary, report */
	CFG_RUN_DESCRIPTION,   /* the profile's one line, for sqwave boards */
	CFG_RUN_CONTAINMENT,   /* enum: auto | cgroup2 | freezer | pgroup: how loads are held */
	CFG_RUN_SPIN,          /* duration; 0: off; CFG_SPIN_AUTO: auto */
	CFG_RUN_LOOPBACK,      /* record the loopback input's edge events in the log */
	/* several lines (gpio.line "0,2"): config/outputs.h, docs/lines.md */
	CFG_RUN_OUTPUTS,       /* enum: together | per-cpu (enum outputs_mode) */
	CFG_LINES_HIGH,        /* per line: high times, "" or one duration per line */
	CFG_LINES_LOW,         /* per line: low times */
	CFG_LINES_PHASE,       /* per line: phases */
	/* grid: the time base slot 0 goes on (docs/grid.md) */
	CFG_GRID_CLOCK,        /* enum: monotonic | realtime | tai (enum grid_clock below) */
	CFG_GRID_ALIGN,        /* duration: slot 0 on a multiple of this, on grid.clock */
	CFG_GRID_START,        /* "": the first aligned instant after setup; else that time */
	/* respond: answering edge events on the input line (sqwave respond) */
	CFG_RESPOND_MODE,      /* enum: follow | toggle | pulse */
	CFG_RESPOND_EDGE,      /* enum: both | rising | falling */
	CFG_RESPOND_PULSE_WIDTH, /* duration: pulse mode's pulse */
	CFG_RESPOND_DEBOUNCE,  /* duration; 0: none (the kernel's debounce) */
	CFG_RESPOND_EVENT_CLOCK, /* enum: monotonic | realtime | hte */
	CFG_RESPOND_IRQ_BOUND, /* duration: input edge to kernel timestamp, at most (0: unknown) */
	/* rt: real-time setup (board file recommends, profile/command line decide) */
	CFG_RT_CPU,            /* -1: not pinned */
	CFG_RT_CPUS,           /* run.outputs per-cpu: one CPU per line ("" : from rt.cpu on) */
	CFG_RT_PRIORITY,
	CFG_RT_LOCK_MEMORY,
	CFG_RT_DMA_LATENCY,    /* us written to /dev/cpu_dma_latency; -1: leave alone */
	CFG_RT_ALLOW_NON_RT,
	CFG_RT_IDLE_STATE,     /* keep | none | -1..15 | a state name (rt/cpuidle.h) */
	CFG_RT_IDLE_CPUS,      /* enum: rt | all: the CPUs rt.idle_state applies to */
	CFG_RT_TIMER,          /* enum: timerfd | timerlat (run/tlatrun.h) */
	/* limits: the verdict (profile) */
	CFG_LIMITS_TMIN,       /* duration; 0: unchecked. Shortest pulse must be >= */
	CFG_LIMITS_TMAX,       /* duration; 0: unchecked. Longest pulse must be <= */
	CFG_LIMITS_WAKE_LATENCY_MAX, /* duration; 0: unchecked */
	CFG_LIMITS_MISSED_MAX, /* count; -1: unchecked */
	CFG_LIMITS_RESPONSE_MAX, /* duration; 0: unchecked. respond: event to write end */
	CFG_LIMITS_WIDTH_ERROR, /* duration; 0: unchecked. A pulse off its level's nominal by more */
	/* proof: sampling what the loads did (profile) */
	CFG_PROOF_INTERVAL,    /* duration between samples */
	CFG_PROOF_MIN_BUSY,    /* percent: a CPU load below this did not load its CPUs */
	CFG_PROOF_IDLE_MAX_BUSY, /* percent: a load-less phase above this was not idle */
	/* trace: explain a spike while it happens (profile) */
	CFG_TRACE_BREAK,       /* duration; 0: off. Wake latency or |width - half| above it */
	CFG_TRACE_STOP_ON_BREAK,
	CFG_TRACE_MAX_BREAKS,
	CFG_TRACE_TRACER,      /* "" leaves the current tracer alone */
	CFG_TRACE_BUFFER_KB,   /* 0 leaves buffer_size_kb alone */
	CFG_TRACE_BUFFER,      /* enum: 0 own (an instance of the run), 1 top */
	CFG_TRACE_EVENTS,      /* enabled in the own instance */
	/* output: where results go */
	CFG_OUTPUT_LOG,
	CFG_OUTPUT_JSON,
	CFG_OUTPUT_QUIET,
	CFG_OUTPUT_STATUS_INTERVAL,
	CFG_OUTPUT_JUNIT,      /* JUnit XML of the verdict's checks (src/board/summary/ciout.c) */
	CFG_OUTPUT_RESULTS,    /* LAVA result.txt lines (src/board/summary/ciout.c) */
	CFG_OUTPUT_KCIDB,      /* KCIDB v5 test objects (src/board/summary/kcidb.c) */
	CFG_OUTPUT_KCIDB_ORIGIN, /* their origin, and the prefix of their ids */
	CFG_OUTPUT_KCIDB_URL,  /* where output_files point: a base URL, else file:// */
	CFG_NKEYS
};

/* grid.clock's values, in table order. */
enum grid_clock { GRID_CLOCK_MONOTONIC, GRID_CLOCK_REALTIME, GRID_CLOCK_TAI };

enum cfg_type {
	CFG_T_BOOL,     /* true/false, yes/no, on/off, 1/0 */
	CFG_T_INT,      /* integer in [min, max] */
	CFG_T_DURATION, /* nanoseconds in [min, max]; "500us", "1h"; a bare number is in .unit;
			 * with .choices, also one of those words, stored as -1, -2, ... */
	CFG_T_STRING,   /* one line of text */
	CFG_T_TEXT,     /* free text, may span lines (notes) */
	CFG_T_ENUM,     /* one of .choices */
	CFG_T_DECIMAL,  /* a decimal number ("0.1", "2"), at most 6 places, stored in
			 * millionths (CFG_DECIMAL_ONE is 1) in [min, max]; config_int() */
};

/* A CFG_T_DECIMAL's 1, in the millionths config_int() returns. */
#define CFG_DECIMAL_ONE INT64_C(1000000)

/* The longest STRING and TEXT values, in bytes: every value goes into the
 * log header (at most 1 MiB, edgelog.c), escaped, so what a file may set
 * must fit there, or a file that loads would fail the run that uses it. */
#define CFG_STRING_MAX 4096
#define CFG_TEXT_MAX   65536

/* Where a value came from; a later source overrides an earlier one. */
enum cfg_source {
	CFG_SRC_DEFAULT,
	CFG_SRC_BOARD,
	CFG_SRC_PROFILE,
	CFG_SRC_CMDLINE,
};

/* run.spin's "auto" (config_int() returns it). */
#define CFG_SPIN_AUTO (-1)

/* Which files may set a key. */
#define CFG_IN_BOARD   0x1u
#define CFG_IN_PROFILE 0x2u
#define CFG_REQUIRED_IN_BOARD 0x4u
/* A TEXT key that a file may give as a YAML list of single values (stored
 * one per line): the match keys. */
#define CFG_LIST       0x8u

struct cfg_item {
	const char *section;
	const char *name;
	enum cfg_type type;
	const char *def;              /* default, as text, parsed like any value */
	int64_t min, max;             /* INT and DURATION (ns) */
	const char *unit;             /* display unit; for DURATION the unit of a bare number */
	const char *const *choices;   /* ENUM: NULL-terminated */
	const char *opt;              /* long option name without "--", or NULL */
	unsigned where;               /* CFG_IN_* */
	const char *help;             /* one line */
};

/* Result of setting one value. */
enum cfg_result {
	CFG_OK = 0,
	CFG_E_UNKNOWN_KEY,
	CFG_E_TYPE,     /* not a bool / integer / duration */
	CFG_E_RANGE,    /* outside [min, max] */
	CFG_E_CHOICE,   /* not one of the enum's choices */
	CFG_E_PLACE,    /* key not allowed in this kind of file */
	CFG_E_MISSING,  /* a required key was not set (config_check_required) */
	CFG_E_NOMEM,    /* out of memory while storing the value */
};

struct config;
struct option; /* <getopt.h> */
struct plan;   /* plandata.h, plan.h: phases and loads */

/* The table, CFG_NKEYS entries, indexed by enum cfg_key. */
extern const struct cfg_item config_table[CFG_NKEYS];

/* Allocate a configuration holding every default. Returns NULL with errno.
 * Caller frees with config_free(). Not thread-safe; read-only after setup. */
struct config *config_new(void);
void config_free(struct config *c);

/* The run plan (phases, loads: plan.h) the configuration owns; never NULL,
 * freed by config_free(). A const configuration gives a const plan; the
 * mutable one is for filling it (yamlcfg, --load, plan_finalize()). */
const struct plan *config_plan(const struct config *c);
struct plan *config_plan_mut(struct config *c);
/* Free the current plan and own @p instead (yamlcfg's all-or-nothing load). */
void config_replace_plan(struct config *c, struct plan *p);

/* Find a key by "section.name". Returns -1 if unknown. */
int config_lookup(const char *key);

/*
 * Parse @value for @key and store it if @src is at least the key's current
 * source. @file and @line name where it came from (file NULL: command line).
 * On error, writes one complete sentence saying what is allowed into
 * @err (e.g. "run.half_period must be a duration between 1us and 10s (bare
 * numbers are us), got \"5 parsecs\"") and returns the error class; nothing
 * is stored. A valid value from a lower source than the current one is
 * checked, not stored, and returns CFG_OK.
 */
enum cfg_result config_set(struct config *c, enum cfg_key key, const char *value,
			   enum cfg_source src, const char *file, int line,
			   char *err, size_t errlen);

/* Store @num (ns) for the DURATION @key as a value derived from others, its
 * origin the phrase @why ("the phases' sum"): run.duration once the
 * profile's phases and run.scale fix it, so that the log header and the
 * JSON record what runs. A default becomes a profile value. 0, or -1 with
 * errno (out of memory; nothing changed). */
int config_set_derived(struct config *c, enum cfg_key key, int64_t num, const char *why);

/* Move every value @from got from a file or the command line into @to, as
 * config_set() would have stored it there (a lower source never overrides a
 * higher one), without parsing it again; @from keeps only what it did not
 * give (free it next). Never fails. yamlcfg's all-or-nothing load: a file is
 * checked into a scratch configuration, then taken. */
void config_take(struct config *to, struct config *from);

/* After every source is applied (board, profile, command line): CFG_E_MISSING
 * (with the key and what to do named in @err) if a CFG_REQUIRED_IN_BOARD key
 * was never set, or was left empty (a board file whose pin is unknown sets
 * gpio.line to "" so that the user must pass --set gpio.line=...). */
enum cfg_result config_check_required(const struct config *c, char *err, size_t errlen);

/* Cross-key checks the table cannot express, after every source is
 * applied: CFG_E_RANGE when the limits contradict each other (limits.tmin
 * at or above limits.tmax, both set), with both values and where each came
 * from in @err. */
enum cfg_result config_check_limits(const struct config *c, char *err, size_t errlen);

/*
 * After every source is applied: the wave's shape (run.high, run.low,
 * run.phase against run.half_period). CFG_E_RANGE, naming each key's value
 * and origin in @err, when high and low contradict a half period that was
 * set, their sum is odd, or the phase is not below the period. When high
 * or low is set, the other one (0: the half period) and run.half_period,
 * their mean, are stored as derived values, so every reader of @c sees the
 * wave that runs. A 50 % wave is left untouched.
 */
enum cfg_result config_resolve_wave(struct config *c, char *err, size_t errlen);

/* The resolved wave of @c (after config_resolve_wave()): high and low (the
 * half period when 0) and the phase. */
struct wave;
void config_wave(const struct config *c, struct wave *w);

/* Typed getters; assert the key's type. */
bool config_bool(const struct config *c, enum cfg_key key);
int64_t config_int(const struct config *c, enum cfg_key key);      /* INT, DURATION (ns), DECIMAL (millionths) */
const char *config_str(const struct config *c, enum cfg_key key);  /* STRING, TEXT, ENUM; never NULL */
/* ENUM only: index into .choices. The choices of gpio.backend and gpio.drive
 * are in the order of enum gpio_backend and enum gpio_drive (gpio_out.h). */
int config_choice(const struct config *c, enum cfg_key key);
enum cfg_source config_source(const struct config *c, enum cfg_key key);
/* "file:line", "command line" or "default". */
const char *config_origin(const struct config *c, enum cfg_key key, char *buf, size_t len);

/* Canonical text of a value ("500us", "true", "GPIOB"), as accepted by config_set. */
const char *config_format(const struct config *c, enum cfg_key key, char *buf, size_t len);

/* Every key as "section.name=value\n" lines, table order (multi-line text
 * values have newlines escaped as \n). Used for the log header. */
void config_dump(const struct config *c, FILE *f);

/* Every "section.name=value" line of a log header's metadata (config_dump's
 * output) that names a key, set at CFG_SRC_CMDLINE; other lines are
 * skipped. Returns the number of keys set; a value that no longer parses
 * (a log from another version) is skipped, counted in *@bad. */
int config_apply_meta(struct config *c, const char *text, int *bad);

/* --help text for every key that has a long option, then the --set keys. */
void config_print_help(FILE *f);

/* "section.name" of @key into @buf; returns @buf. */
const char *config_key_name(enum cfg_key key, char *buf, size_t len);

/*
 * The same checks for any row in the shape of config_table (the run plan's
 * load and phase tables use them too): parse @value for @it into *@out
 * (BOOL 0/1, INT, DURATION ns, ENUM index; STRING/TEXT only checked), or
 * write "NAME must be ALLOWED, got VALUE" into @err with @name naming the key.
 */
enum cfg_result config_item_parse(const struct cfg_item *it, const char *name, const char *value,
				  int64_t *out, char *err, size_t errlen);
const char *config_item_allowed(const struct cfg_item *it, char *buf, size_t len);

/* What @key accepts, as a phrase: "a duration between 1us and 10s (bare
 * numbers are us)", "one of gpiod, sim". Returns @buf. */
const char *config_allowed(enum cfg_key key, char *buf, size_t len);

/* @value for an error message: in double quotes, with control characters
 * escaped (never a line break) and cut short with "..." to fit @len (at
 * least 16). Returns @buf. */
const char *config_quote(const char *value, char *buf, size_t len);

/* Edit distance of two names for "did you mean" (insert, delete, substitute,
 * swap of neighbours; '-' and '_' alike), 99 for names over 32 characters.
 * Every suggestion (keys, options, load keys) uses it. */
size_t config_distance(const char *a, const char *b);

/* The key of @section whose name is closest to @name (a likely typo), or -1
 * if none is close. With @section NULL, @name is a full "section.name". */
int config_closest_key(const char *section, const char *name);

/*
 * The command line. Every key with a long option (.opt) is one getopt_long
 * option; bool keys take no argument (--quiet sets output.quiet=true), the
 * others require one (--half-period 250us). Every key, with or without one,
 * can be set with --set section.name=value. Command-line values override
 * board files and profiles whatever order they are applied in.
 *
 * config_long_options() writes one struct option per key that has a long
 * option into @out (at most @max; no terminating zero entry: the caller
 * appends its own options and the terminator), with .val = @first_val + key,
 * so getopt_long's return value v maps back to key v - @first_val. Returns
 * the number of such options (CFG_NKEYS at most), even if larger than @max.
 * Typical use in main:
 *
 *	struct option opts[CFG_NKEYS + 8];
 *	size_t n = config_long_options(opts, CFG_NKEYS, 0x100);
 *	opts[n++] = (struct option){ "set", required_argument, NULL, 'S' };
 *	... opts[n] = (struct option){ 0 };
 *	while ((v = getopt_long(argc, argv, "", opts, &idx)) != -1) {
 *		if (v >= 0x100 && v < 0x100 + CFG_NKEYS)
 *			r = config_apply_option(c, opts[idx].name, optarg, err, sizeof(err));
 *		   (or config_set(c, v - 0x100, optarg ? optarg : "true",
 *				  CFG_SRC_CMDLINE, NULL, 0, err, sizeof(err)))
 *		else if (v == 'S')
 *			r = config_apply_set(c, optarg, err, sizeof(err));
 *
 * config_apply_option() sets the key whose long option is @opt_name (without
 * "--"); @value NULL means "true" for a bool option and is an error for any
 * other. config_apply_set() takes "section.name=value" (the text after the
 * first '=' is the value, which may be empty). Both set at CFG_SRC_CMDLINE and
 * return what config_set() returns; an unknown option or key is
 * CFG_E_UNKNOWN_KEY with the closest key suggested in @err.
 */
size_t config_long_options(struct option *out, size_t max, int first_val);
enum cfg_result config_apply_option(struct config *c, const char *opt_name, const char *value,
				    char *err, size_t errlen);
enum cfg_result config_apply_set(struct config *c, const char *assignment,
				 char *err, size_t errlen);

#endif
