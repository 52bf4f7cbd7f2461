/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The outputs of a run: gpio.line's lines, each with its wave and CPU. */
#include "config/outputs.h"

#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpulist.h"
#include "base/msgbuf.h"
#include "base/units.h"

/* "KEY (VALUE, ORIGIN)": a key as the user set it, for messages. */
static const char *said(const struct config *c, enum cfg_key key, char *buf, size_t len)
{
	char k[64], o[256], v[256];

	snprintf(buf, len, "%s (\"%s\", %s)", config_key_name(key, k, sizeof(k)),
		 config_format(c, key, v, sizeof(v)), config_origin(c, key, o, sizeof(o)));
	return buf;
}

/* Split @text at commas into @items (each trimmed of blanks, cut to
 * @itemlen - 1). Returns the count, or -1 for an empty item, -2 for more
 * than @max. An empty text is 0 items. */
static int split(const char *text, char (*items)[OUTPUTS_LINE_LEN], size_t max)
{
	const char *p = text;
	size_t n = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return 0;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		while (len && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (!len)
			return -1;
		if (n == max)
			return -2;
		if (len >= OUTPUTS_LINE_LEN)
			len = OUTPUTS_LINE_LEN - 1;
		memcpy(items[n], p, len);
		items[n][len] = '\0';
		n++;
		if (!end)
			return (int)n;
		p = end + 1;
	}
}

/* run.line_high/low/phase: @n durations into @v (0: the run's own), one value
 * copied to every line. -1 with @err. */
static int durations(const struct config *c, enum cfg_key key, size_t n, int64_t *v,
		     char *err, size_t errlen)
{
	char items[OUTPUTS_MAX][OUTPUTS_LINE_LEN], a[512];
	int k = split(config_str(c, key), items, OUTPUTS_MAX);
	size_t i;

	if (k == 0) {
		memset(v, 0, n * sizeof(*v));
		return 0;
	}
	if (k < 0 || ((size_t)k != n && k != 1)) {
		msgbuf_set(err, errlen, "%s: give one duration for every line or one per line "
			   "(gpio.line names %zu), separated by commas", said(c, key, a, sizeof(a)), n);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const char *t = items[k == 1 ? 0 : i];

		if (units_parse_duration(t, "us", &v[i]) < 0 || v[i] < 0 ||
		    v[i] > 10 * INT64_C(1000000000)) {
			msgbuf_set(err, errlen, "%s: \"%s\" is not a duration between 0 and 10s "
				   "(bare numbers are us)", said(c, key, a, sizeof(a)), t);
			return -1;
		}
	}
	return 0;
}

/* Line @i's wave from the run's and the lists; -1 with @err. */
static int line_wave(const struct config *c, struct output_def *o, int64_t high, int64_t low,
		     int64_t phase, const bool given[3], char *err, size_t errlen)
{
	struct wave w;
	char a[512], t[32];

	config_wave(c, &w);
	if ((high && high < 1000) || (low && low < 1000)) {
		msgbuf_set(err, errlen, "%s: line %s: a high or low time must be 0 (the run's) "
			   "or at least 1us", said(c, high && high < 1000 ? CFG_LINES_HIGH
			   : CFG_LINES_LOW, a, sizeof(a)), o->line);
		return -1;
	}
	if (high)
		w.high_ns = high;
	if (low)
		w.low_ns = low;
	if (given[2])
		w.phase_ns = phase;
	if ((w.high_ns + w.low_ns) % 2) {
		msgbuf_set(err, errlen, "%s: line %s: high + low must be an even number of "
			   "nanoseconds", said(c, given[0] ? CFG_LINES_HIGH : CFG_LINES_LOW, a,
			   sizeof(a)), o->line);
		return -1;
	}
	if ((uint64_t)w.phase_ns >= wave_period(&w)) {
		units_format_duration((int64_t)wave_period(&w), t, sizeof(t));
		msgbuf_set(err, errlen, "%s: line %s: the phase must be below the line's period "
			   "(%s)", said(c, given[2] ? CFG_LINES_PHASE : CFG_RUN_PHASE, a, sizeof(a)),
			   o->line, t);
		return -1;
	}
	o->wave = w;
	o->half_ns = (w.high_ns + w.low_ns) / 2;
	return 0;
}

/* Per-cpu: each line's CPU, from rt.cpus or from rt.cpu on. */
static int line_cpus(const struct config *c, struct outputs *out, char *err, size_t errlen)
{
	char items[OUTPUTS_MAX][OUTPUTS_LINE_LEN], a[512];
	int k = split(config_str(c, CFG_RT_CPUS), items, OUTPUTS_MAX);
	int first = (int)config_int(c, CFG_RT_CPU);
	cpu_set_t online, used;
	size_t i;

	cpulist_online(&online);
	CPU_ZERO(&used);
	if (k != 0) {
		if (k < 0 || (size_t)k != out->n) {
			msgbuf_set(err, errlen, "%s: give one CPU per line (gpio.line names %zu), "
				   "separated by commas", said(c, CFG_RT_CPUS, a, sizeof(a)), out->n);
			return -1;
		}
		for (i = 0; i < out->n; i++) {
			char *end;
			long cpu = strtol(items[i], &end, 10);

			if (*end || end == items[i] || cpu < 0 || cpu >= CPU_SETSIZE ||
			    !CPU_ISSET((int)cpu, &online) || CPU_ISSET((int)cpu, &used)) {
				msgbuf_set(err, errlen, "%s: \"%s\" is %s", said(c, CFG_RT_CPUS, a,
					   sizeof(a)), items[i], *end || end == items[i] || cpu < 0 ||
					   cpu >= CPU_SETSIZE ? "not a CPU number" :
					   CPU_ISSET((int)cpu, &used) ? "listed twice: one line per CPU"
					   : "not an online CPU");
				return -1;
			}
			CPU_SET((int)cpu, &used);
			out->o[i].cpu = (int)cpu;
		}
		return 0;
	}
	if (first < 0)
		first = 0;
	for (i = 0; i < out->n; i++) {
		int cpu, tries;

		for (cpu = first, tries = 0; tries < CPU_SETSIZE; tries++, cpu = (cpu + 1) % CPU_SETSIZE)
			if (CPU_ISSET(cpu, &online) && !CPU_ISSET(cpu, &used))
				break;
		if (tries == CPU_SETSIZE) {
			msgbuf_set(err, errlen, "run.outputs per-cpu: %zu lines need %zu CPUs, and "
				   "this machine has %d online: name fewer lines, or run them "
				   "together (--outputs together)", out->n, out->n, CPU_COUNT(&online));
			return -1;
		}
		CPU_SET(cpu, &used);
		out->o[i].cpu = cpu;
		first = cpu;
	}
	return 0;
}

/* gpio.line "free" or "free:N": gpio.free_lines, all or the first N.
 * Returns the count (as split()), or -3 with @err. Other values: -4. */
static int free_lines(const struct config *c, char (*items)[OUTPUTS_LINE_LEN], char *err,
		      size_t errlen)
{
	const char *line = config_str(c, CFG_GPIO_LINE);
	char a[512], b[512], *end;
	long want = -1;
	int k;

	if (strncmp(line, "free", 4) || (line[4] && line[4] != ':'))
		return -4;
	if (line[4] == ':') {
		want = strtol(line + 5, &end, 10);
		if (*end || end == line + 5 || want < 1) {
			msgbuf_set(err, errlen, "%s: free:N takes the first N of gpio.free_lines, "
				   "N at least 1", said(c, CFG_GPIO_LINE, a, sizeof(a)));
			return -3;
		}
	}
	k = split(config_str(c, CFG_GPIO_FREE_LINES), items, OUTPUTS_MAX);
	if (k <= 0 || (want > 0 && want > k)) {
		msgbuf_set(err, errlen, "%s asks for %s of the board's free lines, and %s %s",
			   said(c, CFG_GPIO_LINE, a, sizeof(a)), want > 0 ? line + 5 : "all",
			   said(c, CFG_GPIO_FREE_LINES, b, sizeof(b)),
			   k == 0 ? "names none" : k < 0 ? "is not a list of lines" : "names fewer");
		return -3;
	}
	return want > 0 ? (int)want : k;
}

int outputs_resolve(const struct config *c, struct outputs *out, char *err, size_t errlen)
{
	char items[OUTPUTS_MAX][OUTPUTS_LINE_LEN], a[512];
	int64_t high[OUTPUTS_MAX], low[OUTPUTS_MAX], phase[OUTPUTS_MAX];
	bool given[3];
	int k = free_lines(c, items, err, errlen);
	size_t i, j;

	memset(out, 0, sizeof(*out));
	out->mode = (enum outputs_mode)config_choice(c, CFG_RUN_OUTPUTS);
	if (k == -3)
		return -1;
	if (k == -4)
		k = split(config_str(c, CFG_GPIO_LINE), items, OUTPUTS_MAX);
	if (k <= 0) {
		msgbuf_set(err, errlen, k == -2 ? "%s: at most %d lines in one run" :
			   k == -1 ? "%s: an empty item: name each line once, separated by commas"
			   : "%s: no line", said(c, CFG_GPIO_LINE, a, sizeof(a)), OUTPUTS_MAX);
		return -1;
	}
	out->n = (size_t)k;
	for (i = 0; i < out->n; i++) {
		for (j = 0; j < i; j++) {
			if (!strcmp(items[i], items[j])) {
				msgbuf_set(err, errlen, "%s: line %s is listed twice",
					   said(c, CFG_GPIO_LINE, a, sizeof(a)), items[i]);
				return -1;
			}
		}
		snprintf(out->o[i].line, sizeof(out->o[i].line), "%.*s", OUTPUTS_LINE_LEN - 1, items[i]);
		out->o[i].cpu = (int)config_int(c, CFG_RT_CPU);
	}
	given[0] = config_str(c, CFG_LINES_HIGH)[0] != '\0';
	given[1] = config_str(c, CFG_LINES_LOW)[0] != '\0';
	given[2] = config_str(c, CFG_LINES_PHASE)[0] != '\0';
	if (out->n == 1 && (given[0] || given[1] || given[2] || config_str(c, CFG_RT_CPUS)[0])) {
		enum cfg_key key = given[0] ? CFG_LINES_HIGH : given[1] ? CFG_LINES_LOW
				   : given[2] ? CFG_LINES_PHASE : CFG_RT_CPUS;

		msgbuf_set(err, errlen, "%s is for several lines, and gpio.line names one: use "
			   "run.high, run.low, run.phase or rt.cpu", said(c, key, a, sizeof(a)));
		return -1;
	}
	if (out->mode == OUTPUTS_TOGETHER && config_str(c, CFG_RT_CPUS)[0]) {
		msgbuf_set(err, errlen, "%s is for run.outputs per-cpu: together, one RT thread "
			   "on rt.cpu writes every line", said(c, CFG_RT_CPUS, a, sizeof(a)));
		return -1;
	}
	if (durations(c, CFG_LINES_HIGH, out->n, high, err, errlen) < 0 ||
	    durations(c, CFG_LINES_LOW, out->n, low, err, errlen) < 0 ||
	    durations(c, CFG_LINES_PHASE, out->n, phase, err, errlen) < 0)
		return -1;
	for (i = 0; i < out->n; i++) {
		if (line_wave(c, &out->o[i], high[i], low[i], phase[i], given, err, errlen) < 0)
			return -1;
	}
	if (out->mode == OUTPUTS_PER_CPU && out->n > 1)
		return line_cpus(c, out, err, errlen);
	return 0;
}
