/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave scope`: options in; an oscilloscope's +width/-width statistics
 * set up and reset (--setup) or read (--read) over SCPI through
 * instrument/scopedialect; text or JSON out, the exit code. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/outfile.h"
#include "cmd/cmd_scope.h"
#include "cmd/cmdline.h"
#include "cmd/print.h"
#include "instrument/scopedialect.h"

#define SCOPE_SCHEMA "sqwave-scope"
#define SCOPE_SCHEMA_VERSION 1

static void scope_usage(FILE *f)
{
	fprintf(f,
		"usage: sqwave scope TARGET --setup [--channel CH] [OPTIONS]\n"
		"       sqwave scope TARGET --read [--channel CH] [--json FILE] [OPTIONS]\n\n"
		"Talk to an oscilloscope over SCPI: identify it (*IDN?), then set up a +width\n"
		"and a -width measurement with statistics on a channel and reset them\n"
		"(--setup), or read their min, max and count (--read). TARGET is HOST[:PORT]\n"
		"(LXI raw socket, port 5025 by default; [IPv6]:PORT) or a device file\n"
		"(/dev/usbtmc0). Families: Rigol DS1000Z/MSO1000Z, Rigol MSO5000/DHO, Siglent\n"
		"SDS (advanced measurements), Keysight InfiniiVision X-Series, Tektronix\n"
		"4/5/6 Series MSO (docs/instruments.md). `sqwave compare RUN --scope TARGET`\n"
		"judges a reading against a run, with what the count covers.\n\n"
		"  --setup                set up and reset the statistics (they count from now)\n"
		"  --read                 read min, max and count of both widths\n"
		"  --channel CH           the analog channel: 1 to 8, or CH1, C1, CHAN1 (default 1)\n"
		"  --timeout DUR          wait for a connection or a reply (default 5s)\n"
		"  --json FILE            --read's result as JSON (schema sqwave-scope; - for\n"
		"                         stdout, the text then goes to standard error)\n"
		"  -h, --help             this help\n\n"
		"exit codes: 0 done, 2 bad input, 3 the instrument failed or did not answer\n");
}

static const struct cfg_item opt_timeout = CMDLINE_DURATION("timeout", 1000000, 600000000000, "s");

enum { O_SETUP = 256, O_READ, O_CHANNEL, O_TIMEOUT, O_JSON };

static const struct option scope_cmd_opts[] = {
	{ "setup", no_argument, NULL, O_SETUP },
	{ "read", no_argument, NULL, O_READ },
	{ "channel", required_argument, NULL, O_CHANNEL },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "json", required_argument, NULL, O_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

size_t cmd_scope_options(struct option *out, size_t max)
{
	return cmdline_options_copy(out, max, scope_cmd_opts);
}

void cmd_scope_help(FILE *f)
{
	scope_usage(f);
}

struct args {
	const char *target;
	bool setup, read;
	int channel;
	int64_t timeout_ns;
	const char *json;
};

/* 0, 1 for --help, or -1 (said) */
static int parse_args(int argc, char **argv, struct args *a)
{
	struct cmdline cl = { "scope", scope_cmd_opts, "h", scope_usage, false };
	char err[512];
	int ch;

	memset(a, 0, sizeof(*a));
	a->channel = 1;
	a->timeout_ns = (int64_t)SCPI_TIMEOUT_MS * 1000000;
	while ((ch = cmdline_next(&cl, argc, argv, NULL)) >= 0) {
		switch (ch) {
		case O_SETUP:
			a->setup = true;
			break;
		case O_READ:
			a->read = true;
			break;
		case O_CHANNEL:
			a->channel = scopedialect_channel_parse(optarg);
			if (a->channel < 0) {
				pr_err("scope: --channel '%s': an analog channel, 1 to 8 (or CH1, C1, "
				       "CHAN1)", optarg);
				return -1;
			}
			break;
		case O_TIMEOUT:
			if (cmdline_value(&opt_timeout, NULL, optarg, &a->timeout_ns, err,
					  sizeof(err)) != CFG_OK) {
				pr_err("scope: %s", err);
				return -1;
			}
			break;
		case O_JSON:
			a->json = optarg;
			break;
		default:
			return -1;
		}
	}
	if (ch != CMDLINE_END)
		return ch == CMDLINE_HELP ? 1 : -1;
	if (cmdline_args(&cl, argc, argv, 1, 1) < 0)
		return -1;
	a->target = argv[optind];
	if (a->setup == a->read) {
		pr_err("scope: give --setup or --read (one of them)");
		return -1;
	}
	if (a->json && !a->read) {
		pr_err("scope: --json is --read's result");
		return -1;
	}
	return 0;
}

static void json_stat(struct json_writer *w, const char *key, const struct scope_stat *st)
{
	json_kv_object_begin(w, key);
	json_kv_bool(w, "valid", st->valid);
	if (st->valid) {
		json_kv_double(w, "min_s", st->min_s);
		json_kv_double(w, "max_s", st->max_s);
	} else {
		json_kv_null(w, "min_s");
		json_kv_null(w, "max_s");
	}
	if (st->count_known)
		json_kv_uint(w, "count", st->count);
	else
		json_kv_null(w, "count");
	if (st->why[0])
		json_kv_string(w, "note", st->why);
	else
		json_kv_null(w, "note");
	json_object_end(w);
}

struct doc {
	const struct args *a;
	const struct scope_reading *r;
};

static void scope_json(struct json_writer *w, const void *ctx)
{
	const struct doc *d = ctx;

	json_object_begin(w);
	json_kv_string(w, "schema", SCOPE_SCHEMA);
	json_kv_int(w, "schema_version", SCOPE_SCHEMA_VERSION);
	json_kv_string(w, "target", d->a->target);
	json_kv_string(w, "idn", d->r->idn);
	json_kv_string(w, "dialect", scopedialect_name(d->r->d));
	json_kv_int(w, "channel", d->r->channel);
	json_stat(w, "pos_width", &d->r->stat[SCOPE_POS]);
	json_stat(w, "neg_width", &d->r->stat[SCOPE_NEG]);
	json_object_end(w);
}

static void print_stat(FILE *f, const char *name, const struct scope_stat *st)
{
	char cnt[32];

	snprintf(cnt, sizeof(cnt), "%llu", (unsigned long long)st->count);
	if (st->valid)
		fprintf(f, "%-8s min %.6f us  max %.6f us  count %s\n", name, st->min_s * 1e6,
			st->max_s * 1e6, st->count_known ? cnt : "unknown");
	else
		fprintf(f, "%-8s invalid\n", name);
	if (st->why[0])
		fprintf(f, "         (%s)\n", st->why);
}

int cmd_scope(int argc, char **argv)
{
	struct args a;
	struct scope_reading r;
	char err[1024];
	int ret = parse_args(argc, argv, &a), ms;
	FILE *out;

	if (ret)
		return ret > 0 ? SQW_EXIT_OK : SQW_EXIT_USAGE;
	ms = (int)(a.timeout_ns / 1000000);
	out = a.json && !strcmp(a.json, "-") ? stderr : stdout;
	if (a.setup) {
		if (scopedialect_setup_target(a.target, ms, a.channel, &r, err, sizeof(err)) < 0) {
			pr_err("%s", err);
			return SQW_EXIT_RUNTIME;
		}
		fprintf(out, "%s: %s (%s): +width and -width on channel %d, statistics reset\n",
			a.target, r.idn, scopedialect_family(r.d), a.channel);
		return SQW_EXIT_OK;
	}
	if (scopedialect_read_target(a.target, ms, a.channel, &r, err, sizeof(err)) < 0) {
		pr_err("%s", err);
		return SQW_EXIT_RUNTIME;
	}
	fprintf(out, "%s: %s (%s), channel %d\n", a.target, r.idn, scopedialect_family(r.d),
		a.channel);
	print_stat(out, "+width", &r.stat[SCOPE_POS]);
	print_stat(out, "-width", &r.stat[SCOPE_NEG]);
	if (a.json) {
		struct doc d = { &a, &r };

		if (json_write_document(a.json, scope_json, &d, err, sizeof(err)) < 0) {
			pr_err("%s", err);
			return SQW_EXIT_RUNTIME;
		}
	}
	return SQW_EXIT_OK;
}
