/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one configuration table, values with precedence and origin, --help. */
#include "config/config.h"

#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/msgbuf.h"
#include "base/escape.h"
#include "config/plandata.h"
#include "base/units.h"
#include "base/wave.h"

#define US  INT64_C(1000)
#define MS  INT64_C(1000000)
#define SEC INT64_C(1000000000)
#define DAY (86400 * SEC)

#define B   CFG_IN_BOARD
#define P   CFG_IN_PROFILE
#define REQ CFG_REQUIRED_IN_BOARD

static const char *const cfg_confidence[] = { "verified", "inferred", "unknown", NULL };
/* Same order as enum gpio_backend (gpio_lookup.h) and enum gpio_drive (gpio_out.h). */
static const char *const cfg_backends[] = { "gpiod", "sim", NULL };
static const char *const cfg_drives[] = { "push-pull", "open-drain", "open-source", NULL };
/* Same order as enum contain_kind in contain.h. */
static const char *const cfg_containment[] = { "auto", "cgroup2", "freezer", "pgroup", NULL };
/* Same order as enum gpio_edge and enum gpio_event_clock (gpio_in.h), and
 * enum respond_mode (rt/respond.h). */
static const char *const cfg_edges[] = { "both", "rising", "falling", NULL };
static const char *const cfg_event_clocks[] = { "monotonic", "realtime", "hte", NULL };
static const char *const cfg_respond_modes[] = { "follow", "toggle", "pulse", NULL };
static const char *const cfg_trace_buffers[] = { "own", "top", NULL };
/* Words a duration key takes besides durations: word i is stored as -(i + 1). */
static const char *const cfg_spin_words[] = { "auto", NULL };
static const char *const cfg_idle_cpus[] = { "rt", "all", NULL };
static const char *const cfg_timers[] = { "timerfd", "timerlat", NULL };
/* Same order as enum grid_clock (config.h). */
static const char *const cfg_outputs[] = { "together", "per-cpu", NULL };
static const char *const cfg_grid_clocks[] = { "monotonic", "realtime", "tai", NULL };

/*
 * One row per key. For STRING keys .unit is the word --help shows for the
 * argument (FILE, CHIP, LINE). Designated indices tie each row to its enum
 * value; config_table_check() (and the unit test) make sure every row exists
 * and that the rows of a section are adjacent.
 */
#define ITEM_BOOL(k, s, n, d, o, w, h) \
	[k] = { s, n, CFG_T_BOOL, d, 0, 1, NULL, NULL, o, w, h }
#define ITEM_INT(k, s, n, d, lo, hi, u, o, w, h) \
	[k] = { s, n, CFG_T_INT, d, lo, hi, u, NULL, o, w, h }
#define ITEM_DUR(k, s, n, d, lo, hi, bare, o, w, h) \
	[k] = { s, n, CFG_T_DURATION, d, lo, hi, bare, NULL, o, w, h }
#define ITEM_DUR_OR(k, s, n, d, lo, hi, bare, words, o, w, h) \
	[k] = { s, n, CFG_T_DURATION, d, lo, hi, bare, words, o, w, h }
#define ITEM_STR(k, s, n, d, u, o, w, h) \
	[k] = { s, n, CFG_T_STRING, d, 0, 0, u, NULL, o, w, h }
#define ITEM_TEXT(k, s, n, w, h) \
	[k] = { s, n, CFG_T_TEXT, "", 0, 0, NULL, NULL, NULL, w, h }
#define ITEM_DEC(k, s, n, d, lo, hi, o, w, h) \
	[k] = { s, n, CFG_T_DECIMAL, d, lo, hi, NULL, NULL, o, w, h }
#define ITEM_ENUM(k, s, n, d, ch, o, w, h) \
	[k] = { s, n, CFG_T_ENUM, d, 0, 0, NULL, ch, o, w, h }

const struct cfg_item config_table[CFG_NKEYS] = {
	ITEM_STR(CFG_BOARD_NAME, "board", "name", "", "NAME", NULL, B | REQ,
		 "short board name, shown in the log header and the summary"),
	ITEM_STR(CFG_BOARD_DESCRIPTION, "board", "description", "", "TEXT", NULL, B,
		 "one-line description of the board"),
	ITEM_STR(CFG_BOARD_SOC, "board", "soc", "", "SOC", NULL, B,
		 "system on chip, e.g. STM32MP135F"),
	ITEM_INT(CFG_BOARD_CPUS, "board", "cpus", "0", 0, 1024, NULL, NULL, B,
		 "number of CPU cores (0: not stated)"),
	ITEM_TEXT(CFG_BOARD_NOTES, "board", "notes", B,
		  "free text: wiring, what to check on the bench, caveats"),
	ITEM_ENUM(CFG_BOARD_CONFIDENCE, "board", "confidence", "unknown", cfg_confidence, NULL, B,
		  "how well the board file's facts are established overall"),

	ITEM_ENUM(CFG_GPIO_BACKEND, "gpio", "backend", "gpiod", cfg_backends, NULL, B,
		  "gpiod: a real line through libgpiod; sim: the simulated chip"),
	ITEM_STR(CFG_GPIO_CHIP, "gpio", "chip", "", "CHIP", "chip", B | REQ,
		 "output chip: label (GPIOB), path (/dev/gpiochip0) or name (gpiochip0)"),
	ITEM_STR(CFG_GPIO_LINE, "gpio", "line", "", "LINE", "line", B | REQ,
		 "output line: offset (1) or line name (PB1); several: 0,2 (docs/lines.md)"),
	ITEM_STR(CFG_GPIO_FREE_LINES, "gpio", "free_lines", "", "LINES", NULL, B,
		 "lines free to clip to (0,2,5); gpio.line free or free:N takes them"),
	ITEM_BOOL(CFG_GPIO_ACTIVE_LOW, "gpio", "active_low", "false", NULL, B,
		  "the line is active-low: logical 1 drives the pin low"),
	ITEM_ENUM(CFG_GPIO_DRIVE, "gpio", "drive", "push-pull", cfg_drives, NULL, B,
		  "output drive of the line"),
	ITEM_INT(CFG_GPIO_IDLE_LEVEL, "gpio", "idle_level", "0", 0, 1, NULL, NULL, B,
		 "logical level before the first edge and after exit"),
	ITEM_ENUM(CFG_GPIO_CONFIDENCE, "gpio", "confidence", "unknown", cfg_confidence, NULL, B,
		  "how sure the board file is of gpio.chip and gpio.line"),

	ITEM_STR(CFG_LOOPBACK_CHIP, "loopback", "chip", "", "CHIP", NULL, B,
		 "chip of an input wired to the output (empty: found by line name)"),
	ITEM_STR(CFG_LOOPBACK_LINE, "loopback", "line", "", "LINE", NULL, B,
		 "offset or name of that input line (both empty: no loopback)"),
	ITEM_ENUM(CFG_LOOPBACK_CONFIDENCE, "loopback", "confidence", "unknown", cfg_confidence,
		  NULL, B, "how sure the board file is of the loopback line"),
	ITEM_STR(CFG_INPUT_CHIP, "input", "chip", "", "CHIP", "input-chip", B,
		 "chip of the line sqwave respond listens on (empty: found by line name)"),
	ITEM_STR(CFG_INPUT_LINE, "input", "line", "", "LINE", "input-line", B,
		 "offset or name of the line sqwave respond listens on"),
	ITEM_ENUM(CFG_INPUT_CONFIDENCE, "input", "confidence", "unknown", cfg_confidence,
		  NULL, B, "how sure the board file is of the input line"),

	ITEM_TEXT(CFG_MATCH_COMPATIBLE, "match", "compatible", B | CFG_LIST,
		  "device-tree compatible strings of this board (a list): boards detect"),
	ITEM_TEXT(CFG_MATCH_DMI_BOARD, "match", "dmi_board", B | CFG_LIST,
		  "DMI board names (/sys/class/dmi/id/board_name) of this board (a list)"),
	ITEM_TEXT(CFG_MATCH_DMI_PRODUCT, "match", "dmi_product", B | CFG_LIST,
		  "DMI product names (/sys/class/dmi/id/product_name) of this board (a list)"),

	ITEM_DUR(CFG_SIM_WRITE_COST, "sim", "write_cost", "0", 0, 1 * MS, "ns", "sim-write-cost", B,
		 "simulated cost of one line write (busy-wait)"),
	ITEM_INT(CFG_SIM_NUM_LINES, "sim", "num_lines", "8", 1, 1024, "lines", NULL, B,
		 "number of lines of the simulated chip"),
	ITEM_INT(CFG_SIM_BUSY_LINE, "sim", "busy_line", "-1", -1, 1023, NULL, NULL, B,
		 "offset held by another consumer, to test a busy line (-1: none)"),
	ITEM_STR(CFG_SIM_BUSY_CONSUMER, "sim", "busy_consumer", "sim-busy", "NAME", NULL, B,
		 "consumer name that holds sim.busy_line"),
	ITEM_STR(CFG_SIM_CHIP_LABEL, "sim", "chip_label", "sqwave-sim", "LABEL", NULL, B,
		 "label of the simulated chip"),
	ITEM_INT(CFG_SIM_WIRE_LINE, "sim", "wire_line", "-1", -1, 1023, NULL, NULL, B,
		 "line the simulated output is wired to, for loopback (-1: not wired)"),
	ITEM_DUR(CFG_SIM_WIRE_DELAY, "sim", "wire_delay", "10us", 0, 1 * SEC, "us", NULL, B,
		 "simulated delay from a write to the wired input's edge event"),
	ITEM_DUR(CFG_SIM_WIRE_JITTER, "sim", "wire_jitter", "0", 0, 10 * MS, "us", NULL, B,
		 "random extra delay of each simulated edge event, 0..this"),
	ITEM_INT(CFG_SIM_WIRE_LOSE, "sim", "wire_lose", "-1", -1, INT64_MAX, NULL, NULL, B,
		 "the simulated wire loses this edge (0: the first; -1: none)"),
	ITEM_INT(CFG_SIM_STIM_LINE, "sim", "stim_line", "-1", -1, 1023, NULL, NULL, B,
		 "line a simulated stimulus drives, for respond (-1: none)"),
	ITEM_DUR(CFG_SIM_STIM_PERIOD, "sim", "stim_period", "1ms", 1 * US, 10 * SEC, "us", NULL, B,
		 "time between two simulated stimulus edges"),
	ITEM_DUR(CFG_SIM_STIM_JITTER, "sim", "stim_jitter", "0", 0, 10 * MS, "us", NULL, B,
		 "random extra delay of each stimulus edge, 0..this"),
	ITEM_INT(CFG_SIM_STIM_COUNT, "sim", "stim_count", "0", 0, INT64_MAX, "edges", NULL, B,
		 "stimulus edges in all (0: until the input is released)"),
	ITEM_INT(CFG_SIM_STIM_BOUNCE, "sim", "stim_bounce", "0", 0, 64, "bounces", NULL, B,
		 "contact bounces after each stimulus edge (two level changes each)"),
	ITEM_DUR(CFG_SIM_STIM_BOUNCE_GAP, "sim", "stim_bounce_gap", "2us", 1, 1 * MS, "us", NULL, B,
		 "time between two level changes of a bounce"),
	ITEM_INT(CFG_SIM_STIM_PRIORITY, "sim", "stim_priority", "0", 0, 99, NULL, NULL, B,
		 "SCHED_FIFO priority of the stimulus thread (0: a normal thread)"),
	ITEM_INT(CFG_SIM_STIM_CPU, "sim", "stim_cpu", "-1", -1, 1023, NULL, NULL, B,
		 "CPU the stimulus thread runs on (-1: any)"),
	ITEM_STR(CFG_SIM_HISTORY_FILE, "sim", "history_file", "", "FILE", NULL, B,
		 "stream the sim's record as CSV: writes, stimulus changes, wire events, drops"),

	ITEM_DUR(CFG_RUN_HALF_PERIOD, "run", "half_period", "500us", 1 * US, 10 * SEC, "us",
		 "half-period", P, "time between edges: half the period of the wave"),
	ITEM_DUR(CFG_RUN_HIGH, "run", "high", "0", 0, 10 * SEC, "us", "high", P,
		 "how long the line stays at level 1 (0: the half period)"),
	ITEM_DUR(CFG_RUN_LOW, "run", "low", "0", 0, 10 * SEC, "us", "low", P,
		 "how long the line stays at level 0 (0: the half period)"),
	ITEM_DUR(CFG_RUN_PHASE, "run", "phase", "0", 0, 20 * SEC, "us", "phase", P,
		 "shift every edge this long from the grid (under one period)"),
	ITEM_DUR(CFG_RUN_DURATION, "run", "duration", "60s", 0, 365 * DAY, "s", "duration", P,
		 "how long to measure after the warm-up (0: until SIGINT or SIGTERM)"),
	ITEM_DEC(CFG_RUN_SCALE, "run", "scale", "1", CFG_DECIMAL_ONE / 1000, 1000 * CFG_DECIMAL_ONE,
		 "scale", P, "run every phase (or run.duration) this many times as long (0.1: 1h in 6m)"),
	ITEM_DUR(CFG_RUN_WARMUP, "run", "warmup", "0", 0, 3600 * SEC, "s", "warmup", P,
		 "toggle this long first and leave it out of the statistics and verdict"),
	ITEM_INT(CFG_RUN_RING_SIZE, "run", "ring_size", "65536", 64, INT64_C(1) << 24, "records",
		 NULL, P, "edge records buffered between the RT thread and the writer"),
	ITEM_STR(CFG_RUN_LABEL, "run", "label", "", "LABEL", "label", P,
		 "name of this run (rt-loaded) in the log, summary and report"),
	ITEM_STR(CFG_RUN_DESCRIPTION, "run", "description", "", "TEXT", NULL, P,
		 "one-line description of the profile, listed by sqwave boards"),
	ITEM_ENUM(CFG_RUN_CONTAINMENT, "run", "containment", "auto", cfg_containment, NULL, P,
		  "how loads and their children are held so that all stop with sqwave"),
	ITEM_DUR_OR(CFG_RUN_SPIN, "run", "spin", "0", 0, 1 * SEC, "us", cfg_spin_words, "spin", P,
		    "wake this long before each edge and spin to its deadline (0: off)"),
	ITEM_BOOL(CFG_RUN_LOOPBACK, "run", "loopback", "false", "loopback", P,
		  "log the loopback input's edge events (board file's loopback section)"),

	ITEM_ENUM(CFG_RUN_OUTPUTS, "run", "outputs", "together", cfg_outputs, "outputs", P,
		  "several lines: together (one write per instant) or per-cpu (a thread each)"),
	ITEM_STR(CFG_LINES_HIGH, "run", "line_high", "", "LIST", "line-high", P,
		 "several lines: each line's high time, in gpio.line's order (empty: run.high)"),
	ITEM_STR(CFG_LINES_LOW, "run", "line_low", "", "LIST", "line-low", P,
		 "several lines: each line's low time, in gpio.line's order (empty: run.low)"),
	ITEM_STR(CFG_LINES_PHASE, "run", "line_phase", "", "LIST", "line-phase", P,
		 "several lines: each line's phase, in gpio.line's order (empty: run.phase)"),

	ITEM_ENUM(CFG_GRID_CLOCK, "grid", "clock", "monotonic", cfg_grid_clocks, "grid", P,
		  "clock whose grid slot 0 goes on: monotonic (now), realtime or tai (shared)"),
	ITEM_DUR(CFG_GRID_ALIGN, "grid", "align", "1s", 1 * US, 1 * DAY, "s", "grid-align", P,
		 "realtime/tai: slot 0 on a multiple of this (a multiple of the period)"),
	ITEM_STR(CFG_GRID_START, "grid", "start", "", "TIME", "start-at", P,
		 "realtime/tai: slot 0 at this time (epoch seconds or ISO 8601 UTC)"),

	ITEM_ENUM(CFG_RESPOND_MODE, "respond", "mode", "follow", cfg_respond_modes, "respond-mode",
		  P, "respond: follow the input's level, toggle per edge, or a pulse per edge"),
	ITEM_ENUM(CFG_RESPOND_EDGE, "respond", "edge", "both", cfg_edges, "edge", P,
		  "respond: the input edges that are answered"),
	ITEM_DUR(CFG_RESPOND_PULSE_WIDTH, "respond", "pulse_width", "50us", 1 * US, 1 * SEC, "us",
		 "pulse-width", P, "respond pulse mode: how long each answer pulse lasts"),
	ITEM_DUR(CFG_RESPOND_DEBOUNCE, "respond", "debounce", "0", 0, 1 * SEC, "us", "debounce", P,
		 "respond: the kernel's debounce of the input (0: none)"),
	ITEM_ENUM(CFG_RESPOND_EVENT_CLOCK, "respond", "event_clock", "monotonic", cfg_event_clocks,
		  "event-clock", P, "respond: the clock of the input's event timestamps"),
	ITEM_DUR(CFG_RESPOND_IRQ_BOUND, "respond", "irq_bound", "0", 0, 1 * SEC, "us", "irq-bound", P,
		 "respond: input edge to kernel timestamp at most, if measured (0: unknown)"),

	ITEM_INT(CFG_RT_CPU, "rt", "cpu", "-1", -1, 1023, NULL, "cpu", B | P,
		 "CPU the RT thread is pinned to (-1: not pinned)"),
	ITEM_STR(CFG_RT_CPUS, "rt", "cpus", "", "CPUS", "cpus", B | P,
		 "run.outputs per-cpu: each line's RT thread's CPU (empty: rt.cpu and on)"),
	ITEM_INT(CFG_RT_PRIORITY, "rt", "priority", "90", 1, 99, NULL, "priority", B | P,
		 "SCHED_FIFO priority of the RT thread"),
	ITEM_BOOL(CFG_RT_LOCK_MEMORY, "rt", "lock_memory", "true", NULL, B | P,
		  "mlockall() and prefault the stack before the loop starts"),
	ITEM_INT(CFG_RT_DMA_LATENCY, "rt", "dma_latency", "0", -1, 10000, "us", "dma-latency", B | P,
		 "value held in /dev/cpu_dma_latency while running (-1: leave alone)"),
	ITEM_BOOL(CFG_RT_ALLOW_NON_RT, "rt", "allow_non_rt", "false", "allow-non-rt", B | P,
		  "run without PREEMPT_RT, SCHED_FIFO or locked memory (the result says so)"),
	ITEM_STR(CFG_RT_IDLE_STATE, "rt", "idle_state", "keep", "N", "deepest-idle-state", B | P,
		 "deepest idle state allowed while running: keep, none (-1), N or a name"),
	ITEM_ENUM(CFG_RT_IDLE_CPUS, "rt", "idle_cpus", "rt", cfg_idle_cpus, "idle-cpus", B | P,
		  "CPUs rt.idle_state applies to: rt (the RT thread's) or all"),
	ITEM_ENUM(CFG_RT_TIMER, "rt", "timer", "timerfd", cfg_timers, "timer", B | P,
		  "what wakes the RT loop: timerfd, or the kernel's timerlat (IRQ/thread)"),

	ITEM_DUR(CFG_LIMITS_TMIN, "limits", "tmin", "0", 0, 10 * SEC, "us", "tmin", P,
		 "fail if any pulse is shorter than this (0: unchecked)"),
	ITEM_DUR(CFG_LIMITS_TMAX, "limits", "tmax", "0", 0, 10 * SEC, "us", "tmax", P,
		 "fail if any pulse is longer than this (0: unchecked)"),
	ITEM_DUR(CFG_LIMITS_WAKE_LATENCY_MAX, "limits", "wake_latency_max", "0", 0, 10 * SEC, "us",
		 "max-latency", P, "fail if any wake-up is later than this (0: unchecked)"),
	ITEM_INT(CFG_LIMITS_MISSED_MAX, "limits", "missed_max", "-1", -1, INT64_MAX, "periods",
		 "max-missed", P, "fail if more periods than this are missed (-1: unchecked)"),
	ITEM_DUR(CFG_LIMITS_RESPONSE_MAX, "limits", "response_max", "0", 0, 10 * SEC, "us",
		 "max-response", P, "respond: fail if any answer's write ends later (0: unchecked)"),
	ITEM_DUR(CFG_LIMITS_WIDTH_ERROR, "limits", "width_error", "0", 0, 10 * SEC, "us",
		 "max-width-error", P,
		 "fail if a pulse is further than this from its level's nominal (0: unchecked)"),

	ITEM_DUR(CFG_PROOF_INTERVAL, "proof", "interval", "1s", 100 * MS, 60 * SEC, "s", NULL, P,
		 "time between proof-of-load samples (CPU busy, IRQs, packets, score)"),
	ITEM_INT(CFG_PROOF_MIN_BUSY, "proof", "min_busy", "80", 0, 100, "%", NULL, P,
		 "a CPU load whose CPUs were less busy is \"load not applied\""),
	ITEM_INT(CFG_PROOF_IDLE_MAX_BUSY, "proof", "idle_max_busy", "25", 0, 100, "%", NULL, P,
		 "a load-less phase whose loads' CPUs were busier is not idle (100: off)"),

	ITEM_DUR(CFG_TRACE_BREAK, "trace", "break", "0", 0, 10 * SEC, "us", "break", P,
		 "save the ftrace trace when a wake-up is this late or a pulse this far off"),
	ITEM_BOOL(CFG_TRACE_STOP_ON_BREAK, "trace", "stop_on_break", "false", "stop-on-break", P,
		  "end the run at the first break (else go on, tracing again)"),
	ITEM_INT(CFG_TRACE_MAX_BREAKS, "trace", "max_breaks", "10", 1, 1000, NULL, NULL, P,
		 "traces saved at most in one run"),
	ITEM_STR(CFG_TRACE_TRACER, "trace", "tracer", "", "TRACER", "tracer", P,
		 "ftrace tracer for the run (function, nop, ...; empty: as is)"),
	ITEM_INT(CFG_TRACE_BUFFER_KB, "trace", "buffer_kb", "0", 0, 1 << 20, "KiB", NULL, P,
		 "ftrace per-CPU buffer size for the run (0: leave as is)"),
	ITEM_ENUM(CFG_TRACE_BUFFER, "trace", "buffer", "own", cfg_trace_buffers, NULL, P,
		  "own: the run's tracefs instance; top: the top-level buffer"),
	ITEM_STR(CFG_TRACE_EVENTS, "trace", "events", "default", "LIST", NULL, P,
		 "events in the run's instance: default, none, SYSTEM[:EVENT], ..."),

	ITEM_STR(CFG_OUTPUT_LOG, "output", "log", "", "FILE", "log", P,
		 "binary edge log to write (empty: sqwave picks a name)"),
	ITEM_STR(CFG_OUTPUT_JSON, "output", "json", "", "FILE", "json", P,
		 "also write the summary as JSON to this file (-: stdout; empty: none)"),
	ITEM_BOOL(CFG_OUTPUT_QUIET, "output", "quiet", "false", "quiet", P,
		  "no status line: only the summary and errors"),
	ITEM_DUR(CFG_OUTPUT_STATUS_INTERVAL, "output", "status_interval", "1s", 0, 3600 * SEC, "s",
		 "status-interval", P, "period of the status line (0: none)"),
	ITEM_STR(CFG_OUTPUT_JUNIT, "output", "junit", "", "FILE", "junit", P,
		 "also write the verdict's checks as JUnit XML to this file (-: stdout)"),
	ITEM_STR(CFG_OUTPUT_RESULTS, "output", "results", "", "FILE", "results", P,
		 "also write LAVA result.txt lines (NAME pass|fail|skip [VALUE UNITS]) here"),
	ITEM_STR(CFG_OUTPUT_KCIDB, "output", "kcidb", "", "FILE", "kcidb", P,
		 "also write every line's checks as KCIDB v5 test objects here (-: stdout)"),
	ITEM_STR(CFG_OUTPUT_KCIDB_ORIGIN, "output", "kcidb_origin", "sqwave", "ORIGIN",
		 "kcidb-origin", P, "the KCIDB origin ([a-z0-9_]+) of those tests and their ids"),
	ITEM_STR(CFG_OUTPUT_KCIDB_URL, "output", "kcidb_url", "", "URL", "kcidb-url", P,
		 "base URL of the run's files in KCIDB (empty: file:// and the local path)"),
};

_Static_assert(sizeof(config_table) / sizeof(config_table[0]) == CFG_NKEYS,
	       "config_table needs one row per enum cfg_key");

struct cfg_value {
	int64_t num;          /* BOOL, INT, DURATION (ns), ENUM (index) */
	char *text;           /* STRING, TEXT (owned) */
	enum cfg_source src;
	char *file;           /* owned; NULL unless set from a file */
	int line;
};

struct config {
	struct cfg_value v[CFG_NKEYS];
	struct plan *plan;    /* phases and loads (plan.c) */
};

const char *config_key_name(enum cfg_key key, char *buf, size_t len)
{
	assert((unsigned)key < CFG_NKEYS);
	snprintf(buf, len, "%s.%s", config_table[key].section, config_table[key].name);
	return buf;
}

/* U+200B..U+200F, U+2028..U+202E, U+2060..U+2064, U+2066..U+2069 and
 * U+FEFF, in UTF-8 at @p. */
static bool cfg_invisible(const unsigned char *p)
{
	if (p[0] == 0xef)
		return p[1] == 0xbb && p[2] == 0xbf;
	if (p[0] != 0xe2 || !p[1] || !p[2])
		return false;
	if (p[1] == 0x80)
		return (p[2] >= 0x8b && p[2] <= 0x8f) || (p[2] >= 0xa8 && p[2] <= 0xae);
	if (p[1] == 0x81)
		return (p[2] >= 0xa0 && p[2] <= 0xa4) || (p[2] >= 0xa6 && p[2] <= 0xa9);
	return false;
}

const char *config_quote(const char *value, char *buf, size_t len)
{
	struct msgbuf_out o;
	size_t i;

	assert(len >= 16);
	/* One byte kept back for the closing quote: every escape is written
	 * whole or not at all, and the "..." and the NUL always fit. */
	msgbuf_out_init(&o, buf, len - 1);
	msgbuf_out_put(&o, "\"", 1);
	for (i = 0; value[i] && !o.cut; i++) {
		unsigned char ch = (unsigned char)value[i];

		/* C1 controls (U+0080..U+009F, UTF-8 c2 80..c2 9f) are controls too;
		 * a no-break space (U+00A0, pasted from a web page) looks like a
		 * space and is not one: both are shown as what they are. */
		if (ch == 0xc2 && (unsigned char)value[i + 1] >= 0x80 &&
		    (unsigned char)value[i + 1] <= 0xa0) {
			msgbuf_out_add(&o, "\\u%04x", (unsigned char)value[i + 1]);
			i++;
			continue;
		}
		/* So are the invisible ones (zero-width spaces and joiners, line
		 * separators, bidi controls, a stray byte-order mark): a value that
		 * does not match must show why. */
		if (cfg_invisible((const unsigned char *)value + i)) {
			const unsigned char *u = (const unsigned char *)value + i;

			msgbuf_out_add(&o, "\\u%04x",
				       ((u[0] & 0x0f) << 12) | ((u[1] & 0x3f) << 6) | (u[2] & 0x3f));
			i += 2;
			continue;
		}
		msgbuf_out_char(&o, ch, ESCAPE_QUOTED);
	}
	buf[o.used] = '"';
	buf[o.used + 1] = '\0';
	return buf;
}

/* A CFG_T_DECIMAL: digits, an optional point and at most six places, into
 * millionths. 0, -1 (not such a number) or -2 (too large). */
static int cfg_parse_decimal(const char *s, int64_t *out)
{
	int64_t v = 0, scale = CFG_DECIMAL_ONE;
	bool digits = false, point = false;

	for (; *s; s++) {
		if (*s == '.' && !point) {
			point = true;
			continue;
		}
		if (*s < '0' || *s > '9')
			return -1;
		digits = true;
		if (point) {
			if (scale == 1)
				return -1;	/* a seventh place */
			scale /= 10;
			v += (*s - '0') * scale;
		} else {
			if (v > (INT64_MAX - 9 * CFG_DECIMAL_ONE) / 10)
				return -2;
			v = v * 10 + (*s - '0') * CFG_DECIMAL_ONE;
		}
	}
	if (!digits)
		return -1;
	*out = v;
	return 0;
}

/* Millionths as the shortest decimal: 1000000 "1", 100000 "0.1". */
static const char *cfg_decimal_format(int64_t v, char *buf, size_t len)
{
	int64_t frac = v % CFG_DECIMAL_ONE;
	int places = 6;

	if (!frac) {
		snprintf(buf, len, "%" PRId64, v / CFG_DECIMAL_ONE);
		return buf;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		places--;
	}
	snprintf(buf, len, "%" PRId64 ".%0*" PRId64, v / CFG_DECIMAL_ONE, places, frac);
	return buf;
}

const char *config_item_allowed(const struct cfg_item *it, char *buf, size_t len)
{
	char lo[32], hi[32];
	struct msgbuf_out o;
	int i;

	switch (it->type) {
	case CFG_T_BOOL:
		snprintf(buf, len, "true or false (also yes/no, on/off, 1/0)");
		break;
	case CFG_T_INT:
		if (it->max == INT64_MAX)
			snprintf(buf, len, "an integer of at least %" PRId64 "%s%s", it->min,
				 it->unit ? " " : "", it->unit ? it->unit : "");
		else
			snprintf(buf, len, "an integer between %" PRId64 " and %" PRId64 "%s%s",
				 it->min, it->max, it->unit ? " " : "", it->unit ? it->unit : "");
		break;
	case CFG_T_DURATION:
		msgbuf_out_init(&o, buf, len);
		msgbuf_out_add(&o, "a duration between %s and %s (bare numbers are %s)",
			       units_format_duration(it->min, lo, sizeof(lo)),
			       units_format_duration(it->max, hi, sizeof(hi)), it->unit);
		for (i = 0; it->choices && it->choices[i]; i++)
			msgbuf_out_add(&o, ", or %s", it->choices[i]);
		break;
	case CFG_T_DECIMAL:
		snprintf(buf, len, "a number between %s and %s", cfg_decimal_format(it->min, lo, sizeof(lo)),
			 cfg_decimal_format(it->max, hi, sizeof(hi)));
		break;
	case CFG_T_STRING:
		snprintf(buf, len, "one line of text");
		break;
	case CFG_T_TEXT:
		snprintf(buf, len, "text");
		break;
	case CFG_T_ENUM:
		msgbuf_out_init(&o, buf, len);
		msgbuf_out_add(&o, "one of");
		for (i = 0; it->choices[i]; i++)
			msgbuf_out_add(&o, "%s %s", i ? "," : "", it->choices[i]);
		break;
	}
	return buf;
}

const char *config_allowed(enum cfg_key key, char *buf, size_t len)
{
	assert((unsigned)key < CFG_NKEYS);
	return config_item_allowed(&config_table[key], buf, len);
}

/* Parse a decimal integer, allowing surrounding spaces; -1 on garbage,
 * -2 on overflow. */
static int cfg_parse_int(const char *s, int64_t *out)
{
	const char *p = s;
	char *end;
	long long v;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!((*p >= '0' && *p <= '9') || (*p == '-' && p[1] >= '0' && p[1] <= '9')))
		return -1;
	errno = 0;
	v = strtoll(p, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end)
		return -1;
	if (errno == ERANGE)
		return -2;
	*out = v;
	return 0;
}

static int cfg_parse_bool(const char *s, int64_t *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

/*
 * The offset of the first control character of @s, or -1: C0 (but newline
 * and tab in a multi-line @text), DEL and C1 (U+0080..U+009F), and in one line
 * U+2028/U+2029 (line and paragraph separators). Values are printed on the
 * terminal (check's header, the summary) and kept in the log: an escape
 * sequence in a board name must not reach either.
 */
static int cfg_text_bad(const char *s, bool text)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; p[i]; i++) {
		if ((p[i] < 0x20 && !(text && (p[i] == '\n' || p[i] == '\t'))) || p[i] == 0x7f)
			return (int)i;
		if (p[i] == 0xc2 && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f)
			return (int)i;
		if (!text && p[i] == 0xe2 && p[i + 1] == 0x80 && (p[i + 2] == 0xa8 || p[i + 2] == 0xa9))
			return (int)i;
	}
	return -1;
}

static const char *cfg_file_kind(enum cfg_source src)
{
	return src == CFG_SRC_BOARD ? "a board file" : "a profile";
}

enum cfg_result config_item_parse(const struct cfg_item *it, const char *name, const char *value,
				  int64_t *out, char *err, size_t errlen)
{
	char allowed[160], q[64];
	int64_t num = 0;
	int i;

	switch (it->type) {
	case CFG_T_BOOL:
		if (cfg_parse_bool(value, &num)) {
			msgbuf_set(err, errlen, "%s must be %s, got %s", name,
				config_item_allowed(it, allowed, sizeof(allowed)),
				config_quote(value, q, sizeof(q)));
			return CFG_E_TYPE;
		}
		break;
	case CFG_T_INT:
		i = cfg_parse_int(value, &num);
		if (i == -1) {
			msgbuf_set(err, errlen, "%s must be %s, got %s", name,
				config_item_allowed(it, allowed, sizeof(allowed)),
				config_quote(value, q, sizeof(q)));
			return CFG_E_TYPE;
		}
		if (i == -2 || num < it->min || num > it->max) {
			msgbuf_set(err, errlen, "%s must be %s, got %s", name,
				config_item_allowed(it, allowed, sizeof(allowed)),
				config_quote(value, q, sizeof(q)));
			return CFG_E_RANGE;
		}
		break;
	case CFG_T_DURATION:
		for (i = 0; it->choices && it->choices[i]; i++) {
			if (!strcmp(value, it->choices[i]))
				break;
		}
		if (it->choices && it->choices[i]) {
			num = -(int64_t)i - 1;
			break;
		}
		if (units_parse_duration(value, it->unit, &num)) {
			enum cfg_result r = errno == ERANGE ? CFG_E_RANGE : CFG_E_TYPE;

			msgbuf_set(err, errlen, "%s must be %s, got %s", name,
				config_item_allowed(it, allowed, sizeof(allowed)),
				config_quote(value, q, sizeof(q)));
			return r;
		}
		if (num < it->min || num > it->max) {
			msgbuf_set(err, errlen, "%s must be %s, got %s", name,
				config_item_allowed(it, allowed, sizeof(allowed)),
				config_quote(value, q, sizeof(q)));
			return CFG_E_RANGE;
		}
		break;
	case CFG_T_DECIMAL:
		if (cfg_parse_decimal(value, &num) || num < it->min || num > it->max) {
			msgbuf_set(err, errlen, "%s must be %s, got %s", name,
				config_item_allowed(it, allowed, sizeof(allowed)),
				config_quote(value, q, sizeof(q)));
			return cfg_parse_decimal(value, &num) == -1 ? CFG_E_TYPE : CFG_E_RANGE;
		}
		break;
	case CFG_T_STRING:
		if (strchr(value, '\n') || strchr(value, '\r')) {
			msgbuf_set(err, errlen, "%s must be one line of text, got %s", name,
				config_quote(value, q, sizeof(q)));
			return CFG_E_TYPE;
		}
		/* fall through */
	case CFG_T_TEXT:
		i = cfg_text_bad(value, it->type == CFG_T_TEXT);
		if (i >= 0) {
			msgbuf_set(err, errlen, "%s must be %s without control characters, got %s "
				   "(byte %d)", name, config_item_allowed(it, allowed,
				   sizeof(allowed)), config_quote(value, q, sizeof(q)), i + 1);
			return CFG_E_TYPE;
		}
		if (strlen(value) > (it->type == CFG_T_TEXT ? CFG_TEXT_MAX : CFG_STRING_MAX)) {
			msgbuf_set(err, errlen, "%s must be %s of at most %d bytes, got %zu bytes",
				   name, config_item_allowed(it, allowed, sizeof(allowed)),
				   it->type == CFG_T_TEXT ? CFG_TEXT_MAX : CFG_STRING_MAX,
				   strlen(value));
			return CFG_E_RANGE;
		}
		break;
	case CFG_T_ENUM:
		for (i = 0; it->choices[i]; i++) {
			if (!strcmp(value, it->choices[i]))
				break;
		}
		if (!it->choices[i]) {
			msgbuf_set(err, errlen, "%s must be %s, got %s", name,
				config_item_allowed(it, allowed, sizeof(allowed)),
				config_quote(value, q, sizeof(q)));
			return CFG_E_CHOICE;
		}
		num = i;
		break;
	}

	*out = num;
	return CFG_OK;
}

enum cfg_result config_set(struct config *c, enum cfg_key key, const char *value,
			   enum cfg_source src, const char *file, int line,
			   char *err, size_t errlen)
{
	char name[64];
	const struct cfg_item *it;
	struct cfg_value *v;
	char *text = NULL, *fdup = NULL;
	enum cfg_result r;
	int64_t num = 0;

	assert(c && value);
	if ((unsigned)key >= CFG_NKEYS) {
		msgbuf_set(err, errlen, "unknown configuration key number %d", (int)key);
		return CFG_E_UNKNOWN_KEY;
	}
	it = &config_table[key];
	v = &c->v[key];
	config_key_name(key, name, sizeof(name));

	if ((src == CFG_SRC_BOARD && !(it->where & CFG_IN_BOARD)) ||
	    (src == CFG_SRC_PROFILE && !(it->where & CFG_IN_PROFILE))) {
		msgbuf_set(err, errlen, "%s belongs in %s, not in %s", name,
			cfg_file_kind(src == CFG_SRC_BOARD ? CFG_SRC_PROFILE : CFG_SRC_BOARD),
			cfg_file_kind(src));
		return CFG_E_PLACE;
	}

	r = config_item_parse(it, name, value, &num, err, errlen);
	if (r != CFG_OK)
		return r;

	/* A lower source never overrides a higher one: the value was valid,
	 * it just does not apply. */
	if (src < v->src)
		return CFG_OK;

	if (it->type == CFG_T_STRING || it->type == CFG_T_TEXT) {
		text = strdup(value);
		if (!text)
			goto nomem;
	}
	if (file) {
		fdup = strdup(file);
		if (!fdup)
			goto nomem;
	}
	free(v->text);
	free(v->file);
	v->num = num;
	v->text = text;
	v->src = src;
	v->file = fdup;
	v->line = file ? line : 0;
	return CFG_OK;

nomem:
	free(text);
	free(fdup);
	msgbuf_set(err, errlen, "out of memory while setting %s", name);
	return CFG_E_NOMEM;
}

int config_set_derived(struct config *c, enum cfg_key key, int64_t num, const char *why)
{
	struct cfg_value *v;
	char *w;

	assert((unsigned)key < CFG_NKEYS && config_table[key].type == CFG_T_DURATION);
	v = &c->v[key];
	w = strdup(why);
	if (!w)
		return -1;
	free(v->file);
	v->num = num;
	v->file = w;
	v->line = 0;
	if (v->src == CFG_SRC_DEFAULT)
		v->src = CFG_SRC_PROFILE;
	return 0;
}

void config_take(struct config *to, struct config *from)
{
	int k;

	for (k = 0; k < CFG_NKEYS; k++) {
		struct cfg_value *f = &from->v[k], *t = &to->v[k];

		/* parsed and checked once, by config_set() into @from; a lower
		 * source never overrides a higher one */
		if (f->src == CFG_SRC_DEFAULT || f->src < t->src)
			continue;
		free(t->text);
		free(t->file);
		*t = *f;
		f->text = NULL;
		f->file = NULL;
		f->src = CFG_SRC_DEFAULT;
	}
}

/* Every row filled, sections contiguous, defaults valid: programmer errors. */
static int config_table_check(void)
{
	int k, j;

	for (k = 0; k < CFG_NKEYS; k++) {
		const struct cfg_item *it = &config_table[k];

		if (!it->section || !it->name || !it->help || !it->def || !it->where)
			return -1;
		if (it->type == CFG_T_ENUM && !it->choices)
			return -1;
		if (it->type == CFG_T_DURATION && units_unit_ns(it->unit) <= 0)
			return -1;
		if (k > 0 && strcmp(config_table[k - 1].section, it->section)) {
			for (j = 0; j < k - 1; j++) {
				if (!strcmp(config_table[j].section, it->section))
					return -1;
			}
		}
	}
	return 0;
}

struct config *config_new(void)
{
	char err[256];
	struct config *c;
	int k;

	if (config_table_check()) {
		assert(!"config_table is inconsistent");
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->plan = plan_new();
	if (!c->plan) {
		free(c);
		return NULL;
	}
	for (k = 0; k < CFG_NKEYS; k++) {
		enum cfg_result r = config_set(c, (enum cfg_key)k, config_table[k].def,
					       CFG_SRC_DEFAULT, NULL, 0, err, sizeof(err));

		if (r == CFG_E_NOMEM) {
			config_free(c);
			errno = ENOMEM;
			return NULL;
		}
		/* A default that does not parse is a bug in the table. */
		assert(r == CFG_OK);
	}
	return c;
}

void config_free(struct config *c)
{
	int k;

	if (!c)
		return;
	for (k = 0; k < CFG_NKEYS; k++) {
		free(c->v[k].text);
		free(c->v[k].file);
	}
	plan_free(c->plan);
	free(c);
}

const struct plan *config_plan(const struct config *c)
{
	return c->plan;
}

struct plan *config_plan_mut(struct config *c)
{
	return c->plan;
}

void config_replace_plan(struct config *c, struct plan *p)
{
	plan_free(c->plan);
	c->plan = p;
}

int config_lookup(const char *key)
{
	const char *dot;
	size_t slen;
	int k;

	if (!key)
		return -1;
	dot = strchr(key, '.');
	if (!dot)
		return -1;
	slen = (size_t)(dot - key);
	for (k = 0; k < CFG_NKEYS; k++) {
		if (strlen(config_table[k].section) == slen &&
		    !strncmp(config_table[k].section, key, slen) &&
		    !strcmp(config_table[k].name, dot + 1))
			return k;
	}
	return -1;
}

size_t config_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[33][33];

	if (la > 32 || lb > 32)
		return 99;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			char ca = a[i - 1] == '-' ? '_' : a[i - 1];
			char cb = b[j - 1] == '-' ? '_' : b[j - 1];
			size_t best = d[i - 1][j - 1] + (ca != cb);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

int config_closest_key(const char *section, const char *name)
{
	size_t best = 99, dist, limit;
	char full[64];
	int k, found = -1;

	if (!name)
		return -1;
	for (k = 0; k < CFG_NKEYS; k++) {
		if (section && strcmp(config_table[k].section, section))
			continue;
		if (section)
			dist = config_distance(name, config_table[k].name);
		else
			dist = config_distance(name, config_key_name((enum cfg_key)k, full,
								  sizeof(full)));
		if (dist < best) {
			best = dist;
			found = k;
		}
	}
	/* "Obvious" typo: at most two edits, and fewer than a third of the word. */
	limit = strlen(name) / 3;
	if (limit > 2)
		limit = 2;
	if (limit < 1)
		limit = 1;
	return best <= limit ? found : -1;
}

static const struct cfg_value *cfg_get(const struct config *c, enum cfg_key key)
{
	assert(c && (unsigned)key < CFG_NKEYS);
	return &c->v[key];
}

bool config_bool(const struct config *c, enum cfg_key key)
{
	const struct cfg_value *v = cfg_get(c, key);

	assert(config_table[key].type == CFG_T_BOOL);
	return v->num != 0;
}

int64_t config_int(const struct config *c, enum cfg_key key)
{
	const struct cfg_value *v = cfg_get(c, key);

	assert(config_table[key].type == CFG_T_INT || config_table[key].type == CFG_T_DURATION ||
	       config_table[key].type == CFG_T_DECIMAL);
	return v->num;
}

const char *config_str(const struct config *c, enum cfg_key key)
{
	const struct cfg_value *v = cfg_get(c, key);

	switch (config_table[key].type) {
	case CFG_T_STRING:
	case CFG_T_TEXT:
		return v->text ? v->text : "";
	case CFG_T_ENUM:
		return config_table[key].choices[v->num];
	default:
		assert(!"config_str() on a key that is not text");
		return "";
	}
}

int config_choice(const struct config *c, enum cfg_key key)
{
	const struct cfg_value *v = cfg_get(c, key);

	assert(config_table[key].type == CFG_T_ENUM);
	return (int)v->num;
}

enum cfg_source config_source(const struct config *c, enum cfg_key key)
{
	return cfg_get(c, key)->src;
}

const char *config_origin(const struct config *c, enum cfg_key key, char *buf, size_t len)
{
	static const char *const names[] = {
		[CFG_SRC_DEFAULT] = "default",
		[CFG_SRC_BOARD] = "board file",
		[CFG_SRC_PROFILE] = "profile",
		[CFG_SRC_CMDLINE] = "command line",
	};
	const struct cfg_value *v = cfg_get(c, key);

	if (v->file && v->line > 0)
		snprintf(buf, len, "%s:%d", v->file, v->line);
	else if (v->file)
		snprintf(buf, len, "%s", v->file);
	else
		snprintf(buf, len, "%s", names[v->src]);
	return buf;
}

const char *config_format(const struct config *c, enum cfg_key key, char *buf, size_t len)
{
	const struct cfg_value *v = cfg_get(c, key);

	switch (config_table[key].type) {
	case CFG_T_BOOL:
		snprintf(buf, len, "%s", v->num ? "true" : "false");
		break;
	case CFG_T_INT:
		snprintf(buf, len, "%" PRId64, v->num);
		break;
	case CFG_T_DURATION:
		if (v->num < 0 && config_table[key].choices)
			snprintf(buf, len, "%s", config_table[key].choices[-v->num - 1]);
		else
			units_format_duration(v->num, buf, len);
		break;
	case CFG_T_DECIMAL:
		cfg_decimal_format(v->num, buf, len);
		break;
	case CFG_T_STRING:
	case CFG_T_TEXT:
	case CFG_T_ENUM:
		snprintf(buf, len, "%s", config_str(c, key));
		break;
	}
	return buf;
}

/* Backslash, newline, carriage return and tab escaped C-style, so that each
 * key stays on one line and the dump can be read back unambiguously. */
static void cfg_fputs_escaped(const char *s, FILE *f)
{
	for (; *s; s++) {
		switch (*s) {
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

void config_dump(const struct config *c, FILE *f)
{
	char buf[64];
	int k;

	for (k = 0; k < CFG_NKEYS; k++) {
		const struct cfg_item *it = &config_table[k];

		fprintf(f, "%s.%s=", it->section, it->name);
		if (it->type == CFG_T_STRING || it->type == CFG_T_TEXT)
			cfg_fputs_escaped(config_str(c, (enum cfg_key)k), f);
		else
			fputs(config_format(c, (enum cfg_key)k, buf, sizeof(buf)), f);
		fputc('\n', f);
	}
}

int config_apply_meta(struct config *c, const char *text, int *bad)
{
	const char *p = text;
	int n = 0;

	*bad = 0;
	while (p && *p) {
		const char *eol = strchr(p, '\n'), *eq;
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char key[64], *value;
		int k;

		eq = memchr(p, '=', len);
		if (eq && (size_t)(eq - p) < sizeof(key)) {
			memcpy(key, p, (size_t)(eq - p));
			key[eq - p] = '\0';
			k = config_lookup(key);
			value = k >= 0 ? strndup(eq + 1, len - (size_t)(eq - p) - 1) : NULL;
			if (value) {
				/* config_dump escaped text: undo \n \r \t and \\ */
				char *r = value, *w = value;

				for (; *r; r++) {
					if (*r == '\\' && r[1]) {
						r++;
						*w++ = *r == 'n' ? '\n' : *r == 'r' ? '\r' : *r == 't' ? '\t' : *r;
					} else {
						*w++ = *r;
					}
				}
				*w = '\0';
				if (config_set(c, (enum cfg_key)k, value, CFG_SRC_CMDLINE, NULL, 0, NULL, 0) ==
				    CFG_OK)
					n++;
				else
					(*bad)++;
				free(value);
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	return n;
}

enum cfg_result config_check_required(const struct config *c, char *err, size_t errlen)
{
	char name[64], origin[256];
	int k;

	for (k = 0; k < CFG_NKEYS; k++) {
		const struct cfg_value *v = cfg_get(c, (enum cfg_key)k);

		if (!(config_table[k].where & CFG_REQUIRED_IN_BOARD))
			continue;
		config_key_name((enum cfg_key)k, name, sizeof(name));
		if (v->src == CFG_SRC_DEFAULT) {
			msgbuf_set(err, errlen,
				"%s is not set: a board file must set it (or pass --set %s=VALUE)",
				name, name);
			return CFG_E_MISSING;
		}
		if (config_table[k].type == CFG_T_STRING && !v->text[0]) {
			msgbuf_set(err, errlen,
				"%s is empty (%s): the board file does not know it; see board.notes "
				"and pass --set %s=VALUE",
				name, config_origin(c, (enum cfg_key)k, origin, sizeof(origin)), name);
			return CFG_E_MISSING;
		}
	}
	return CFG_OK;
}

enum cfg_result config_check_limits(const struct config *c, char *err, size_t errlen)
{
	int64_t tmin = config_int(c, CFG_LIMITS_TMIN), tmax = config_int(c, CFG_LIMITS_TMAX);
	char a[32], b[32], oa[256], ob[256];

	/* Both set and no pulse can meet both: the configuration is wrong, not
	 * the run. (A wake_latency_max beyond the half period is allowed.) */
	if (tmin > 0 && tmax > 0 && tmin >= tmax) {
		msgbuf_set(err, errlen,
			"limits.tmin (%s, %s) must be below limits.tmax (%s, %s): no pulse could "
			"meet both", config_format(c, CFG_LIMITS_TMIN, a, sizeof(a)),
			config_origin(c, CFG_LIMITS_TMIN, oa, sizeof(oa)),
			config_format(c, CFG_LIMITS_TMAX, b, sizeof(b)),
			config_origin(c, CFG_LIMITS_TMAX, ob, sizeof(ob)));
		return CFG_E_RANGE;
	}
	return CFG_OK;
}

/* "run.high (300us, board.yaml:12)" */
static const char *key_said(const struct config *c, enum cfg_key key, char *buf, size_t len)
{
	char v[32], o[256], k[64];

	snprintf(buf, len, "%s (%s, %s)", config_key_name(key, k, sizeof(k)),
		 config_format(c, key, v, sizeof(v)), config_origin(c, key, o, sizeof(o)));
	return buf;
}

enum cfg_result config_resolve_wave(struct config *c, char *err, size_t errlen)
{
	int64_t half = config_int(c, CFG_RUN_HALF_PERIOD);
	int64_t high = config_int(c, CFG_RUN_HIGH), low = config_int(c, CFG_RUN_LOW);
	int64_t phase = config_int(c, CFG_RUN_PHASE), period;
	char a[400], b[400], t[32];

	if (high && high < 1000) {
		msgbuf_set(err, errlen, "%s must be 0 (the half period) or at least 1us",
			   key_said(c, CFG_RUN_HIGH, a, sizeof(a)));
		return CFG_E_RANGE;
	}
	if (low && low < 1000) {
		msgbuf_set(err, errlen, "%s must be 0 (the half period) or at least 1us",
			   key_said(c, CFG_RUN_LOW, a, sizeof(a)));
		return CFG_E_RANGE;
	}
	/* Given all three, the half period must be their mean: else which
	 * one is meant? */
	if (high && low && config_source(c, CFG_RUN_HALF_PERIOD) != CFG_SRC_DEFAULT &&
	    high + low != 2 * half) {
		char h[400];

		msgbuf_set(err, errlen, "%s and %s contradict %s: high + low must be the period "
			   "(2 x the half period), or leave one of the three out",
			   key_said(c, CFG_RUN_HIGH, a, sizeof(a)),
			   key_said(c, CFG_RUN_LOW, b, sizeof(b)),
			   key_said(c, CFG_RUN_HALF_PERIOD, h, sizeof(h)));
		return CFG_E_RANGE;
	}
	if (!high)
		high = half;
	if (!low)
		low = half;
	period = high + low;
	if (period % 2) {
		msgbuf_set(err, errlen, "%s and %s: high + low must be an even number of "
			   "nanoseconds (the half period, their mean, is the slot count's unit)",
			   key_said(c, CFG_RUN_HIGH, a, sizeof(a)),
			   key_said(c, CFG_RUN_LOW, b, sizeof(b)));
		return CFG_E_RANGE;
	}
	if (phase >= period) {
		units_format_duration(period, t, sizeof(t));
		msgbuf_set(err, errlen, "%s must be below the period (%s): a phase of a whole "
			   "period is none", key_said(c, CFG_RUN_PHASE, a, sizeof(a)), t);
		return CFG_E_RANGE;
	}
	if (!config_int(c, CFG_RUN_HIGH) && !config_int(c, CFG_RUN_LOW))
		return CFG_OK;	/* the 50 % wave: nothing derived */
	/* Every reader of the configuration (the log header, the summary, the
	 * grid) sees the resolved wave: both parts and their mean. */
	if ((!config_int(c, CFG_RUN_HIGH) &&
	     config_set_derived(c, CFG_RUN_HIGH, high, "the half period")) ||
	    (!config_int(c, CFG_RUN_LOW) &&
	     config_set_derived(c, CFG_RUN_LOW, low, "the half period")) ||
	    (period / 2 != half &&
	     config_set_derived(c, CFG_RUN_HALF_PERIOD, period / 2, "(run.high + run.low) / 2"))) {
		msgbuf_set(err, errlen, "out of memory");
		return CFG_E_NOMEM;
	}
	return CFG_OK;
}

void config_wave(const struct config *c, struct wave *w)
{
	int64_t half = config_int(c, CFG_RUN_HALF_PERIOD);

	w->high_ns = config_int(c, CFG_RUN_HIGH) ? config_int(c, CFG_RUN_HIGH) : half;
	w->low_ns = config_int(c, CFG_RUN_LOW) ? config_int(c, CFG_RUN_LOW) : half;
	w->phase_ns = config_int(c, CFG_RUN_PHASE);
}

size_t config_long_options(struct option *out, size_t max, int first_val)
{
	size_t n = 0;
	int k;

	for (k = 0; k < CFG_NKEYS; k++) {
		const struct cfg_item *it = &config_table[k];

		if (!it->opt)
			continue;
		if (n < max) {
			out[n].name = it->opt;
			out[n].has_arg = it->type == CFG_T_BOOL ? no_argument : required_argument;
			out[n].flag = NULL;
			out[n].val = first_val + k;
		}
		n++;
	}
	return n;
}

enum cfg_result config_apply_option(struct config *c, const char *opt_name, const char *value,
				    char *err, size_t errlen)
{
	char allowed[160];
	int k;

	for (k = 0; k < CFG_NKEYS; k++) {
		if (config_table[k].opt && !strcmp(config_table[k].opt, opt_name))
			break;
	}
	if (k == CFG_NKEYS) {
		msgbuf_set(err, errlen, "unknown option --%s", opt_name);
		return CFG_E_UNKNOWN_KEY;
	}
	if (!value) {
		if (config_table[k].type != CFG_T_BOOL) {
			msgbuf_set(err, errlen, "--%s needs a value: %s", opt_name,
				config_allowed((enum cfg_key)k, allowed, sizeof(allowed)));
			return CFG_E_TYPE;
		}
		value = "true";
	}
	return config_set(c, (enum cfg_key)k, value, CFG_SRC_CMDLINE, NULL, 0, err, errlen);
}

enum cfg_result config_apply_set(struct config *c, const char *assignment,
				 char *err, size_t errlen)
{
	const char *eq = strchr(assignment, '=');
	char key[64], q[64], hint[96] = "";
	size_t klen;
	int k;

	if (!eq || eq == assignment) {
		msgbuf_set(err, errlen, "--set needs SECTION.NAME=VALUE, got %s",
			config_quote(assignment, q, sizeof(q)));
		return CFG_E_UNKNOWN_KEY;
	}
	klen = (size_t)(eq - assignment);
	if (klen >= sizeof(key))
		klen = sizeof(key) - 1;
	memcpy(key, assignment, klen);
	key[klen] = '\0';
	k = config_lookup(key);
	if (k < 0) {
		int near = config_closest_key(NULL, key);
		char name[64];

		if (near >= 0)
			snprintf(hint, sizeof(hint), "did you mean %s? ",
				 config_key_name((enum cfg_key)near, name, sizeof(name)));
		msgbuf_set(err, errlen, "unknown key %s in --set; %s(--help lists every key)",
			config_quote(key, q, sizeof(q)), hint);
		return CFG_E_UNKNOWN_KEY;
	}
	return config_set(c, (enum cfg_key)k, eq + 1, CFG_SRC_CMDLINE, NULL, 0, err, errlen);
}

static const char *cfg_type_word(const struct cfg_item *it)
{
	switch (it->type) {
	case CFG_T_BOOL:
		return "bool";
	case CFG_T_INT:
		return "integer";
	case CFG_T_DURATION:
		return "duration";
	case CFG_T_STRING:
		return "string";
	case CFG_T_TEXT:
		return "text";
	case CFG_T_ENUM:
		return "choice";
	case CFG_T_DECIMAL:
		return "number";
	}
	return "?";
}

/* "default 500us; a duration between 1us and 10s (bare numbers are us)" */
static void cfg_help_details(enum cfg_key key, char *buf, size_t len)
{
	const struct cfg_item *it = &config_table[key];
	char allowed[160];

	config_allowed(key, allowed, sizeof(allowed));
	switch (it->type) {
	case CFG_T_STRING:
	case CFG_T_TEXT:
		if (it->def[0])
			snprintf(buf, len, "default \"%s\"", it->def);
		else
			snprintf(buf, len, "default empty");
		break;
	case CFG_T_BOOL:
		snprintf(buf, len, "default %s", it->def);
		break;
	default:
		snprintf(buf, len, "default %s; %s", it->def, allowed);
	}
}

void config_print_help(FILE *f)
{
	char left[64], details[256], name[64];
	int k;

	fprintf(f, "Options (each sets one configuration key):\n");
	for (k = 0; k < CFG_NKEYS; k++) {
		const struct cfg_item *it = &config_table[k];
		const char *arg;

		if (!it->opt)
			continue;
		switch (it->type) {
		case CFG_T_BOOL:
			arg = NULL;
			break;
		case CFG_T_DURATION:
			arg = "DURATION";
			break;
		case CFG_T_INT:
			arg = "N";
			break;
		case CFG_T_DECIMAL:
			arg = "X";
			break;
		default:
			arg = it->unit ? it->unit : "VALUE";
		}
		snprintf(left, sizeof(left), "--%s%s%s", it->opt, arg ? " " : "", arg ? arg : "");
		cfg_help_details((enum cfg_key)k, details, sizeof(details));
		fprintf(f, "  %-27s %s\n", left, it->help);
		fprintf(f, "  %-27s   %s; %s\n", "",
			config_key_name((enum cfg_key)k, name, sizeof(name)), details);
	}
	fprintf(f, "\nEvery key, in a board file [B], a profile [P] or with --set KEY=VALUE\n"
		   "(* required in a board file; the command line overrides the profile,\n"
		   "which overrides the board file, which overrides the default):\n");
	for (k = 0; k < CFG_NKEYS; k++) {
		const struct cfg_item *it = &config_table[k];
		char where[8];

		snprintf(where, sizeof(where), "[%s%s%s]", it->where & CFG_IN_BOARD ? "B" : "",
			 it->where & CFG_IN_PROFILE ? "P" : "",
			 it->where & CFG_REQUIRED_IN_BOARD ? "*" : "");
		cfg_help_details((enum cfg_key)k, details, sizeof(details));
		fprintf(f, "  %-24s %-5s %-8s %s\n",
			config_key_name((enum cfg_key)k, name, sizeof(name)), where,
			cfg_type_word(it), it->help);
		fprintf(f, "  %-24s %-5s %-8s   %s\n", "", "", "", details);
	}
}
