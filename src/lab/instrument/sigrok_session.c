/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave capture`'s acquisition: libsigrok's session, its packets into
 * edgextract and sigrok_vcd, and the record of what was covered. */
#include "instrument/sigrok_session.h"

#include <stdio.h>
#include <string.h>

#ifndef SQW_HAVE_LIBSIGROK

/* A build without libsigrok (pkg-config did not find libsigrok >= 0.5):
 * everything else works; the command says how to get the library. */
const char *sigrok_version(void)
{
	return NULL;
}

const char *sigrok_capture_connid(const struct sigrok_capture *c)
{
	(void)c;
	return NULL;
}

struct sigrok_capture *sigrok_capture_open(const struct sigrok_opts *o, bool *usage, char *err,
					   size_t errlen)
{
	(void)o;
	*usage = true;
	snprintf(err, errlen, "this sqwave was built without libsigrok, so it drives no analyzer: "
		 "install the library (Debian: apt install libsigrok-dev) and rebuild");
	return NULL;
}

int sigrok_capture_run(struct sigrok_capture *c, char *err, size_t errlen)
{
	(void)c;
	snprintf(err, errlen, "built without libsigrok");
	return -1;
}

void sigrok_capture_stop(struct sigrok_capture *c)
{
	(void)c;
}

void sigrok_capture_progress(const struct sigrok_capture *c, struct sigrok_progress *p)
{
	(void)c;
	memset(p, 0, sizeof(*p));
}

int sigrok_capture_finish(struct sigrok_capture *c, struct sigrok_result *r, char *err,
			  size_t errlen)
{
	(void)c;
	(void)r;
	snprintf(err, errlen, "built without libsigrok");
	return -1;
}

void sigrok_capture_free(struct sigrok_capture *c)
{
	(void)c;
}

#else

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <libsigrok/libsigrok.h>

#include "instrument/edgextract.h"

struct sigrok_capture {
	struct sr_context *ctx;
	struct sr_dev_driver *drv;
	struct sr_dev_inst *sdi;
	GSList *devs;
	struct sr_session *sess;
	struct sr_trigger *trig;
	bool dev_open;
	struct sigrok_vcd vcd;
	bool vcd_open;
	struct edgextract ex;
	bool ex_ready;
	uint64_t mask;
	unsigned chbit[SIGROK_VCD_MAXCH];
	struct sigrok_result r;
	uint64_t drop_from, drop_len;
	bool in_drop;
	/* counters the status line reads from another thread */
	_Atomic uint64_t a_samples, a_edges, a_lost, a_intr, a_rate;
	atomic_bool stop_req;
	bool limit_hit;
	bool stop_sent;            /* sr_session_stop() called from the feed */
	bool ended;
	char lastmsg[160];          /* libsigrok's last warning or error */
};

const char *sigrok_version(void)
{
	return sr_package_version_string_get();
}

/* libsigrok's own messages: never printed (the library promise), the
 * last warning or error kept to say why a device stopped. One capture at
 * a time, so the target is a file-scope pointer. */
static struct sigrok_capture *log_target;

static int sr_log_keep(void *cb_data, int level, const char *fmt, va_list args)
{
	(void)cb_data;
	if (log_target && level <= SR_LOG_WARN)
		vsnprintf(log_target->lastmsg, sizeof(log_target->lastmsg), fmt, args);
	return SR_OK;
}

static struct sr_dev_driver *driver_find(struct sr_context *ctx, const char *name, size_t len)
{
	struct sr_dev_driver **d = sr_driver_list(ctx);

	for (; d && *d; d++)
		if (strlen((*d)->name) == len && !strncmp((*d)->name, name, len))
			return *d;
	return NULL;
}

/* "key=value" as libsigrok's config key of that name, its value of the
 * key's type. NULL with a sentence in @err. */
static GVariant *config_value(const char *kv, uint32_t *key, char *err, size_t errlen)
{
	const char *eq = strchr(kv, '=');
	char name[64];
	const struct sr_key_info *ki;
	const char *v;
	uint64_t u;
	double lo, hi;
	char *end;

	if (!eq || (size_t)(eq - kv) >= sizeof(name)) {
		snprintf(err, errlen, "'%s': not KEY=VALUE", kv);
		return NULL;
	}
	memcpy(name, kv, (size_t)(eq - kv));
	name[eq - kv] = 0;
	v = eq + 1;
	ki = sr_key_info_name_get(SR_KEY_CONFIG, name);
	if (!ki) {
		snprintf(err, errlen, "'%s': libsigrok has no option '%s' (sigrok-cli --driver NAME "
			 "--show lists a device's)", kv, name);
		return NULL;
	}
	*key = ki->key;
	switch (ki->datatype) {
	case SR_T_STRING:
		return g_variant_new_string(v);
	case SR_T_BOOL:
		return g_variant_new_boolean(sr_parse_boolstring(v));
	case SR_T_UINT64:
		if (sr_parse_sizestring(v, &u) != SR_OK)
			break;
		return g_variant_new_uint64(u);
	case SR_T_INT32:
		u = (uint64_t)strtol(v, &end, 10);
		if (end == v || *end)
			break;
		return g_variant_new_int32((int32_t)u);
	case SR_T_FLOAT:
		lo = strtod(v, &end);
		if (end == v || *end)
			break;
		return g_variant_new_double(lo);
	case SR_T_DOUBLE_RANGE:
		if (sscanf(v, "%lf-%lf", &lo, &hi) != 2)
			break;
		return g_variant_new("(dd)", lo, hi);
	default:
		snprintf(err, errlen, "'%s': sqwave cannot set options of this type", kv);
		return NULL;
	}
	snprintf(err, errlen, "'%s': not a valid value for %s", kv, name);
	return NULL;
}

/* Set @key on the device; where the device refuses it, on each channel
 * group that takes it (the demo's pattern is the Logic group's). */
static int config_set_any(struct sigrok_capture *c, uint32_t key, GVariant *val)
{
	int done = 0;

	g_variant_ref_sink(val);
	if (sr_config_set(c->sdi, NULL, key, val) == SR_OK)
		done = 1;
	for (GSList *l = sr_dev_inst_channel_groups_get(c->sdi); !done && l; l = l->next)
		if (sr_config_set(c->sdi, l->data, key, val) == SR_OK)
			done = 1;
	g_variant_unref(val);
	return done ? 0 : -1;
}

static int scan_open(struct sigrok_capture *c, const char *spec, char *err, size_t errlen)
{
	const char *colon = strchr(spec, ':');
	size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	GSList *opts = NULL;
	int rc = -1;

	c->drv = driver_find(c->ctx, spec, nlen);
	if (!c->drv) {
		snprintf(err, errlen, "--driver %.*s: libsigrok has no such driver (sigrok-cli -L "
			 "lists them)", (int)nlen, spec);
		return -1;
	}
	if (sr_driver_init(c->ctx, c->drv) != SR_OK) {
		snprintf(err, errlen, "--driver %.*s: the driver did not start: %s", (int)nlen, spec,
			 c->lastmsg);
		return -1;
	}
	while (colon) {
		const char *s = colon + 1;
		char kv[256];
		struct sr_config *cfg;
		uint32_t key;
		GVariant *v;
		size_t l;

		colon = strchr(s, ':');
		l = colon ? (size_t)(colon - s) : strlen(s);
		snprintf(kv, sizeof(kv), "%.*s", (int)l, s);
		v = config_value(kv, &key, err, errlen);
		if (!v)
			goto out;
		cfg = g_malloc0(sizeof(*cfg));
		cfg->key = key;
		cfg->data = g_variant_ref_sink(v);
		opts = g_slist_append(opts, cfg);
	}
	c->devs = sr_driver_scan(c->drv, opts);
	if (!c->devs) {
		snprintf(err, errlen, "--driver %s: no device found (plugged in? permissions: "
			 "docs/instruments.md)", spec);
		goto out;
	}
	c->sdi = c->devs->data;
	if (sr_dev_open(c->sdi) != SR_OK) {
		snprintf(err, errlen, "--driver %s: the device did not open: %s", spec,
			 c->lastmsg[0] ? c->lastmsg : "no reason given");
		goto out;
	}
	c->dev_open = true;
	rc = 0;
out:
	for (GSList *l = opts; l; l = l->next) {
		struct sr_config *cfg = l->data;

		g_variant_unref(cfg->data);
		g_free(cfg);
	}
	g_slist_free(opts);
	return rc;
}

static bool name_in_list(const char *list, const struct sr_channel *ch)
{
	char idx[16];
	size_t n = strlen(ch->name), m;

	snprintf(idx, sizeof(idx), "%d", ch->index);
	m = strlen(idx);
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");

		if ((l == n && !strncmp(p, ch->name, n)) || (l == m && !strncmp(p, idx, m)))
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

/* Enable the asked logic channels (all of them without --channels) and
 * nothing else: an analog channel's packets are work for no edge. */
static int channels_pick(struct sigrok_capture *c, const char *list, unsigned *ndev, char *err,
			 size_t errlen)
{
	unsigned n = 0;

	*ndev = 0;
	for (GSList *l = sr_dev_inst_channels_get(c->sdi); l; l = l->next) {
		struct sr_channel *ch = l->data;
		bool on = ch->type == SR_CHANNEL_LOGIC && (!list || name_in_list(list, ch));

		if (ch->type == SR_CHANNEL_LOGIC)
			(*ndev)++;
		sr_dev_channel_enable(ch, on);
		if (!on)
			continue;
		if (ch->index < 0 || ch->index >= SIGROK_VCD_MAXCH || n >= SIGROK_VCD_MAXCH) {
			snprintf(err, errlen, "channel %s: sqwave records channels 0-63", ch->name);
			return -1;
		}
		snprintf(c->r.names[n], sizeof(c->r.names[n]), "%s", ch->name);
		c->chbit[n] = (unsigned)ch->index;
		c->mask |= UINT64_C(1) << ch->index;
		n++;
	}
	if (!n) {
		snprintf(err, errlen, list ? "--channels %s: no logic channel of the device has "
			 "these names" : "the device has no logic channel", list);
		return -1;
	}
	c->r.nch = n;
	return 0;
}

/* "D7=r,D6=1": one trigger stage, as sigrok-cli's --triggers. */
static int trigger_set(struct sigrok_capture *c, const char *spec, char *err, size_t errlen)
{
	struct sr_trigger_stage *st;

	c->trig = sr_trigger_new("sqwave");
	st = sr_trigger_stage_add(c->trig);
	for (const char *p = spec; *p;) {
		size_t l = strcspn(p, ","), nl;
		const char *eq = memchr(p, '=', l);
		int type = -1;
		struct sr_channel *found = NULL;

		if (eq && (size_t)(p + l - eq) == 2) {
			switch (eq[1]) {
			case '0': type = SR_TRIGGER_ZERO; break;
			case '1': type = SR_TRIGGER_ONE; break;
			case 'r': type = SR_TRIGGER_RISING; break;
			case 'f': type = SR_TRIGGER_FALLING; break;
			case 'e': type = SR_TRIGGER_EDGE; break;
			default: break;
			}
		}
		if (type < 0) {
			snprintf(err, errlen, "--trigger '%.*s': CHANNEL=0|1|r|f|e", (int)l, p);
			return -1;
		}
		nl = (size_t)(eq - p);
		for (GSList *k = sr_dev_inst_channels_get(c->sdi); k; k = k->next) {
			struct sr_channel *ch = k->data;

			if (ch->enabled && strlen(ch->name) == nl && !strncmp(ch->name, p, nl))
				found = ch;
		}
		if (!found) {
			snprintf(err, errlen, "--trigger '%.*s': no enabled channel %.*s", (int)l, p,
				 (int)nl, p);
			return -1;
		}
		sr_trigger_match_add(st, found, type, 0);
		p += l + (p[l] == ',');
	}
	if (sr_session_trigger_set(c->sess, c->trig) != SR_OK) {
		snprintf(err, errlen, "--trigger %s: the session refused it", spec);
		return -1;
	}
	return 0;
}

static void interruption_add(struct sigrok_capture *c, uint64_t from, uint64_t len,
			     const char *why)
{
	if (c->r.nintr < SIGROK_MAX_INTR) {
		struct sigrok_intr *in = &c->r.intr[c->r.nintr];

		in->from = from;
		in->len = len;
		snprintf(in->why, sizeof(in->why), "%s", why);
	}
	c->r.nintr++;
	atomic_store(&c->a_intr, c->r.nintr);
}

static void on_change(void *ctx, uint64_t sample, uint64_t value, uint64_t changed)
{
	struct sigrok_capture *c = ctx;

	sigrok_vcd_change(&c->vcd, sample, value, changed);
	if (!changed)
		return;
	for (unsigned k = 0; k < c->r.nch; k++)
		c->r.edges[k] += (changed >> c->chbit[k]) & 1u;
	atomic_fetch_add(&c->a_edges, (uint64_t)__builtin_popcountll(changed));
}

/* Lose @n samples (the test hook's drop): an interruption in the file and
 * in the facts; the count runs on. */
static void samples_lose(struct sigrok_capture *c, uint64_t n)
{
	if (!c->in_drop) {
		c->in_drop = true;
		sigrok_vcd_gap(&c->vcd, c->ex.sample);
		interruption_add(c, c->ex.sample, 0, "samples dropped (test hook SQWAVE_CAPTURE_DROP)");
	}
	c->r.intr[c->r.nintr - 1].len += n;
	edgextract_skip(&c->ex, n);
	c->r.lost += n;
	atomic_store(&c->a_lost, c->r.lost);
}

static void logic_packet(struct sigrok_capture *c, const struct sr_datafeed_logic *lg)
{
	const unsigned char *p = lg->data;
	uint64_t n = lg->unitsize ? lg->length / lg->unitsize : 0;

	if (!c->ex_ready) {
		if (edgextract_init(&c->ex, lg->unitsize, c->mask, on_change, c) < 0)
			return;
		c->ex_ready = true;
	}
	if (c->r.wanted && c->ex.sample + n > c->r.wanted)
		n = c->r.wanted - c->ex.sample;   /* the duration ends inside this packet */
	while (n) {
		uint64_t s = c->ex.sample, take = n;
		bool dropping = c->drop_len && s >= c->drop_from && s < c->drop_from + c->drop_len;

		if (dropping)
			take = c->drop_from + c->drop_len - s;
		else if (c->drop_len && s < c->drop_from && s + n > c->drop_from)
			take = c->drop_from - s;
		if (take > n)
			take = n;
		if (dropping) {
			samples_lose(c, take);
		} else {
			c->in_drop = false;
			edgextract_feed(&c->ex, p, take * lg->unitsize);
		}
		p += take * lg->unitsize;
		n -= take;
	}
	atomic_store(&c->a_samples, c->ex.sample);
	if (c->r.wanted && c->ex.sample >= c->r.wanted && !c->limit_hit) {
		c->limit_hit = true;
		if (!c->stop_sent) {
			c->stop_sent = true;
			sr_session_stop(c->sess);
		}
	}
}

static void meta_packet(struct sigrok_capture *c, const struct sr_datafeed_meta *m)
{
	for (GSList *l = m->config; l; l = l->next) {
		struct sr_config *cfg = l->data;

		/* a rate change after the first sample would bend the time
		 * axis: only the rate before it is taken */
		if (cfg->key == SR_CONF_SAMPLERATE && !c->ex_ready)
			c->r.rate_hz = g_variant_get_uint64(cfg->data);
	}
}

static void datafeed(const struct sr_dev_inst *sdi, const struct sr_datafeed_packet *pk,
		     void *data)
{
	struct sigrok_capture *c = data;

	(void)sdi;
	if (atomic_load(&c->stop_req)) {
		/* once: stopping sends SR_DF_END through this callback again */
		if (!c->stop_sent) {
			c->stop_sent = true;
			sr_session_stop(c->sess);
		}
		if (pk->type == SR_DF_LOGIC)
			return;
	}
	switch (pk->type) {
	case SR_DF_HEADER:
		clock_gettime(CLOCK_REALTIME, &c->r.start_rt);
		break;
	case SR_DF_META:
		meta_packet(c, pk->payload);
		break;
	case SR_DF_LOGIC:
		if (!c->limit_hit && !c->ended)
			logic_packet(c, pk->payload);
		break;
	case SR_DF_END:
		c->ended = true;
		break;
	default:
		break;
	}
}

static int capture_configure(struct sigrok_capture *c, const struct sigrok_opts *o, char *err,
			     size_t errlen)
{
	GVariant *v = NULL;
	uint32_t caps;

	for (size_t i = 0; i < o->nconfig; i++) {
		uint32_t key;
		GVariant *val = config_value(o->config[i], &key, err, errlen);

		if (!val)
			return -1;
		if (config_set_any(c, key, val) < 0) {
			snprintf(err, errlen, "--config %s: the device takes no such setting", o->config[i]);
			return -1;
		}
	}
	if (o->samplerate_hz &&
	    sr_config_set(c->sdi, NULL, SR_CONF_SAMPLERATE, g_variant_new_uint64(o->samplerate_hz)) != SR_OK) {
		snprintf(err, errlen, "--samplerate %" PRIu64 ": the device refused it (sigrok-cli "
			 "--driver %s --show lists its rates)", o->samplerate_hz, c->drv->name);
		return -1;
	}
	if (sr_config_get(c->drv, c->sdi, NULL, SR_CONF_SAMPLERATE, &v) == SR_OK && v) {
		c->r.rate_hz = g_variant_get_uint64(v);
		g_variant_unref(v);
	}
	if (!c->r.rate_hz) {
		snprintf(err, errlen, "the device does not say its samplerate: give --samplerate");
		return -1;
	}
	if (o->has_threshold) {
		caps = (uint32_t)sr_dev_config_capabilities_list(c->sdi, NULL, SR_CONF_VOLTAGE_THRESHOLD);
		if (!(caps & SR_CONF_SET) ||
		    sr_config_set(c->sdi, NULL, SR_CONF_VOLTAGE_THRESHOLD,
				  g_variant_new("(dd)", o->threshold_v, o->threshold_v)) != SR_OK) {
			snprintf(err, errlen, "--threshold: this device has no adjustable threshold "
				 "(its inputs have a fixed one: docs/instruments.md)");
			return -1;
		}
	}
	c->r.wanted = o->duration_s > 0 ? (uint64_t)llround(o->duration_s * (double)c->r.rate_hz) : 0;
	if (c->r.wanted) {
		caps = (uint32_t)sr_dev_config_capabilities_list(c->sdi, NULL, SR_CONF_LIMIT_SAMPLES);
		/* the device stops itself where it can; sqwave stops at the
		 * count either way */
		if (caps & SR_CONF_SET)
			sr_config_set(c->sdi, NULL, SR_CONF_LIMIT_SAMPLES, g_variant_new_uint64(c->r.wanted));
	}
	return 0;
}

static void device_words(struct sigrok_capture *c)
{
	const char *ve = sr_dev_inst_vendor_get(c->sdi), *mo = sr_dev_inst_model_get(c->sdi);
	const char *vs = sr_dev_inst_version_get(c->sdi), *cn = sr_dev_inst_connid_get(c->sdi);

	snprintf(c->r.driver, sizeof(c->r.driver), "%s", c->drv->name);
	snprintf(c->r.device, sizeof(c->r.device), "%s%s%s%s%s%s%s", ve ? ve : "", ve ? " " : "",
		 mo ? mo : "", vs ? " " : "", vs ? vs : "", cn ? " at " : "", cn ? cn : "");
	snprintf(c->r.libsigrok, sizeof(c->r.libsigrok), "%s", sr_package_version_string_get());
}

const char *sigrok_capture_connid(const struct sigrok_capture *c)
{
	return sr_dev_inst_connid_get(c->sdi);
}

struct sigrok_capture *sigrok_capture_open(const struct sigrok_opts *o, bool *usage, char *err,
					   size_t errlen)
{
	struct sigrok_capture *c = calloc(1, sizeof(*c));
	unsigned ndev = 0;
	const char *names[SIGROK_VCD_MAXCH];
	char comment[512];
	struct sigrok_vcd_head h;

	*usage = true;
	if (!c) {
		*usage = false;
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	log_target = c;
	sr_log_callback_set(sr_log_keep, NULL);
	if (sr_init(&c->ctx) != SR_OK) {
		snprintf(err, errlen, "libsigrok did not start: %s", c->lastmsg);
		goto fail;
	}
	if (scan_open(c, o->driver, err, errlen) < 0 || channels_pick(c, o->channels, &ndev, err, errlen) < 0 ||
	    capture_configure(c, o, err, errlen) < 0)
		goto fail;
	device_words(c);
	c->drop_from = o->drop_from;
	c->drop_len = o->drop_len;
	sr_session_new(c->ctx, &c->sess);
	sr_session_dev_add(c->sess, c->sdi);
	sr_session_datafeed_callback_add(c->sess, datafeed, c);
	if (o->trigger && trigger_set(c, o->trigger, err, errlen) < 0)
		goto fail;
	for (unsigned k = 0; k < c->r.nch; k++)
		names[k] = c->r.names[k];
	snprintf(comment, sizeof(comment), "  sqwave capture: driver %s, device %s, libsigrok %s\n",
		 c->r.driver, c->r.device, c->r.libsigrok);
	h = (struct sigrok_vcd_head){ .rate_hz = c->r.rate_hz, .nch = c->r.nch, .names = names,
				      .bits = c->chbit, .device_channels = ndev, .comment = comment };
	if (sigrok_vcd_open(&c->vcd, o->output, &h, err, errlen) < 0) {
		*usage = false;
		goto fail;
	}
	c->vcd_open = true;
	atomic_store(&c->a_rate, c->r.rate_hz);
	/* what the setup said (a key tried on the device before its channel
	 * group) is not why an acquisition ends */
	c->lastmsg[0] = 0;
	return c;
fail:
	sigrok_capture_free(c);
	return NULL;
}

int sigrok_capture_run(struct sigrok_capture *c, char *err, size_t errlen)
{
	if (sr_session_start(c->sess) != SR_OK) {
		snprintf(err, errlen, "the acquisition did not start: %s",
			 c->lastmsg[0] ? c->lastmsg : "no reason given");
		return -1;
	}
	if (atomic_load(&c->stop_req))
		sr_session_stop(c->sess);
	sr_session_run(c->sess);
	clock_gettime(CLOCK_REALTIME, &c->r.end_rt);
	return 0;
}

void sigrok_capture_stop(struct sigrok_capture *c)
{
	atomic_store(&c->stop_req, true);
	if (c->sess)
		sr_session_stop(c->sess);
}

void sigrok_capture_progress(const struct sigrok_capture *c, struct sigrok_progress *p)
{
	struct sigrok_capture *m = (struct sigrok_capture *)c;

	p->samples = atomic_load(&m->a_samples);
	p->edges = atomic_load(&m->a_edges);
	p->lost = atomic_load(&m->a_lost);
	p->intr = atomic_load(&m->a_intr);
	p->rate_hz = atomic_load(&m->a_rate);
}

/* The facts, as the file's closing $comment (docs/instruments.md). */
static void facts_text(const struct sigrok_result *r, char *out, size_t len)
{
	size_t n = 0;
	double rate = (double)r->rate_hz;

#define PUT(...) do { int k_ = snprintf(out + n, len - n, __VA_ARGS__); \
		      if (k_ > 0) n = (size_t)k_ < len - n ? n + (size_t)k_ : len - 1; } while (0)
	PUT("  samples %" PRIu64 " (%.6f s), seen %" PRIu64 ", lost %" PRIu64 "\n", r->samples,
	    (double)r->samples / rate, r->samples - r->lost, r->lost);
	PUT("  covered %.6f s of %.6f s\n", (double)(r->samples - r->lost) / rate,
	    (double)r->samples / rate);
	PUT("  start %lld.%09ld end %lld.%09ld (CLOCK_REALTIME)\n", (long long)r->start_rt.tv_sec,
	    r->start_rt.tv_nsec, (long long)r->end_rt.tv_sec, r->end_rt.tv_nsec);
	PUT("  interruptions %zu\n", r->nintr);
	for (size_t i = 0; i < r->nintr && i < SIGROK_MAX_INTR; i++)
		PUT("  interruption at sample %" PRIu64 ", %" PRIu64 " samples: %s\n", r->intr[i].from,
		    r->intr[i].len, r->intr[i].why);
	if (r->stopped)
		PUT("  stopped by a signal\n");
	if (r->ended_early)
		PUT("  the device ended the acquisition early: %s\n", r->end_why);
#undef PUT
}

int sigrok_capture_finish(struct sigrok_capture *c, struct sigrok_result *r, char *err,
			  size_t errlen)
{
	char facts[4096];
	int rc;

	c->r.samples = c->ex_ready ? c->ex.sample : 0;
	c->r.stopped = atomic_load(&c->stop_req) && !c->limit_hit;
	if (c->r.wanted && c->r.samples < c->r.wanted && !c->r.stopped) {
		c->r.ended_early = true;
		snprintf(c->r.end_why, sizeof(c->r.end_why), "%s",
			 c->lastmsg[0] ? c->lastmsg : "no reason given");
		interruption_add(c, c->r.samples, 0, "the device ended the acquisition early");
	}
	if (!c->r.end_rt.tv_sec)
		clock_gettime(CLOCK_REALTIME, &c->r.end_rt);
	facts_text(&c->r, facts, sizeof(facts));
	rc = sigrok_vcd_close(&c->vcd, c->r.samples, facts, err, errlen);
	c->vcd_open = false;
	*r = c->r;
	return rc;
}

void sigrok_capture_free(struct sigrok_capture *c)
{
	if (!c)
		return;
	if (c->vcd_open)
		sigrok_vcd_abandon(&c->vcd);
	if (c->sess)
		sr_session_destroy(c->sess);
	if (c->trig)
		sr_trigger_free(c->trig);
	if (c->dev_open)
		sr_dev_close(c->sdi);
	g_slist_free(c->devs);
	if (c->ctx)
		sr_exit(c->ctx);
	if (log_target == c)
		log_target = NULL;
	free(c);
}

#endif
