/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The clock-sync checks: time daemons from /proc, adjtimex's state, error
 * bound and TAI offset, and ptp4l's TIME_STATUS_NP through pmc. */
#include "check/check_clock.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timex.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/sysinfo.h"
#include "base/units.h"
#include "config/config.h"
#include "check/check_sys.h"

/* The time daemons, by their comm (the kernel cuts it to 15 characters:
 * systemd-timesyncd reads "systemd-timesyn"). @system: it disciplines
 * CLOCK_REALTIME itself; ptp4l and ts2phc steer a PTP hardware clock, and
 * phc2sys (or chronyd with a PHC refclock) carries that to the system
 * clock. */
static const struct {
	const char *comm, *name;
	bool system;
} daemons[] = {
	{ "ptp4l", "ptp4l", false },
	{ "ts2phc", "ts2phc", false },
	{ "phc2sys", "phc2sys", true },
	{ "chronyd", "chronyd", true },
	{ "ntpd", "ntpd", true },
	{ "systemd-timesyn", "systemd-timesyncd", true },
};
#define NDAEMONS (sizeof(daemons) / sizeof(daemons[0]))

/* What the process scan found. */
struct clock_procs {
	bool read;               /* at least one proc/PID/comm was read */
	int pid[NDAEMONS];       /* the first of each daemon; 0: not running */
	int count[NDAEMONS];     /* how many of each (two ptp4l for two NICs) */
};

struct clockctx {
	const struct check_clock_params *p;
	bool shared;             /* grid.clock realtime or tai */
	const char *grid;        /* its name, for the text */
	struct clock_procs procs;
	bool sync_known;
	struct clocksync_state sync;
	int sync_errno;
	char half[32];           /* the half period as text */
};

static void procs_read(const char *root, struct clock_procs *pr)
{
	char path[4096], rel[600], comm[64];
	struct dirent *de;
	DIR *proc;
	size_t i;

	memset(pr, 0, sizeof(*pr));
	if (!sysinfo_path(root, "proc", path, sizeof(path)) || !(proc = opendir(path)))
		return;
	while ((de = readdir(proc))) {
		if (!check_is_digits(de->d_name))
			continue;
		snprintf(rel, sizeof(rel), "proc/%s/comm", de->d_name);
		if (sysinfo_read_line(root, rel, comm, sizeof(comm)))
			continue;
		pr->read = true;
		for (i = 0; i < NDAEMONS; i++) {
			if (strcmp(comm, daemons[i].comm))
				continue;
			/* the lowest pid: the order readdir gives is no order */
			if (!pr->pid[i] || atoi(de->d_name) < pr->pid[i])
				pr->pid[i] = atoi(de->d_name);
			pr->count[i]++;
		}
	}
	closedir(proc);
}

static bool running(const struct clockctx *x, const char *name)
{
	size_t i;

	for (i = 0; i < NDAEMONS; i++)
		if (!strcmp(daemons[i].name, name))
			return x->procs.pid[i] != 0;
	return false;
}

/*
 * How far the clock may be off, against the half period. Two boards on one
 * grid disagree by up to the sum of their errors; from half of the half
 * period each, a pair of boards can be a whole half period apart, one high
 * while the other is low: FAIL. At most a tenth (the share of the half
 * period the other checks give write cost and idle exits), their edges
 * agree to a fifth of the half period: PASS. Between: WARN.
 */
static enum check_status judge_error(int64_t err_ns, int64_t half_ns)
{
	if (err_ns < 0)
		err_ns = -err_ns;
	if (err_ns <= half_ns / 10)
		return CHECK_PASS;
	if (err_ns < half_ns / 2)
		return CHECK_WARN;
	return CHECK_FAIL;
}

/* What a finding that is not fine becomes without a shared grid: SKIP,
 * never a FAIL (or a WARN that --strict fails). */
static enum check_status moot(const struct clockctx *x, enum check_status st)
{
	return x->shared || st == CHECK_PASS ? st : CHECK_SKIP;
}

static void why_moot(struct check_finding *f)
{
	check_why(f, "moot for this run: grid.clock is monotonic, the wave starts when the "
		  "run does and no other board shares its grid. It matters with --grid "
		  "realtime or tai (grid.clock), where two boards put their edges on the "
		  "same whole seconds of their clocks");
}

/* ---- the findings ------------------------------------------------------------ */

static void chk_daemon(struct check_report *r, struct clockctx *x)
{
	char list[CHECK_TEXT - 128] = "", systems[256] = "";
	int nsystem = 0;
	struct check_finding *f;
	enum check_status st;
	size_t i, used;

	if (!x->procs.read) {
		check_add(r, CHECK_SKIP, "clock.daemon", "no process could be read under %s/proc "
			  "(no /proc/PID/comm): which time daemons run is unknown", x->p->root);
		return;
	}
	for (i = 0; i < NDAEMONS; i++) {
		if (!x->procs.pid[i])
			continue;
		used = strlen(list);
		if (x->procs.count[i] > 1)
			snprintf(list + used, sizeof(list) - used, "%s%s (%d, pid %d first)",
				 used ? ", " : "", daemons[i].name, x->procs.count[i],
				 x->procs.pid[i]);
		else
			snprintf(list + used, sizeof(list) - used, "%s%s (pid %d)",
				 used ? ", " : "", daemons[i].name, x->procs.pid[i]);
		if (daemons[i].system) {
			used = strlen(systems);
			snprintf(systems + used, sizeof(systems) - used, "%s%s",
				 used ? " and " : "", daemons[i].name);
			nsystem++;
		}
	}
	if (!list[0]) {
		f = check_add(r, moot(x, CHECK_FAIL), "clock.daemon", "no time daemon runs "
			      "(none of ptp4l, phc2sys, ts2phc, chronyd, ntpd, systemd-timesyncd)");
		if (!x->shared) {
			why_moot(f);
			return;
		}
		check_why(f, "grid.clock %s puts slot 0 on a whole second of this board's clock: "
			  "free-running, it drifts from the other boards' by tens of ppm, "
			  "milliseconds within minutes", x->grid);
		check_fix(f, "PTP: ptp4l -i IFACE -s (linuxptp) and phc2sys -a -r to carry the "
			  "PTP clock to the system clock; or chronyd (with a PHC refclock for "
			  "microseconds, NTP alone gives milliseconds)");
		return;
	}
	if (!x->shared) {
		f = check_add(r, CHECK_PASS, "clock.daemon", "%s", list);
		why_moot(f);
		return;
	}
	if (!nsystem) {
		f = check_add(r, CHECK_WARN, "clock.daemon", "%s; nothing steers the system "
			      "clock", list);
		check_why(f, "ptp4l and ts2phc discipline a PTP hardware clock (PHC), not "
			  "CLOCK_REALTIME, which grid.clock %s reads: without phc2sys (or "
			  "chronyd with the PHC as refclock) the system clock runs free", x->grid);
		check_fix(f, "phc2sys -a -r (linuxptp), or a refclock PHC /dev/ptp0 line in "
			  "chrony.conf");
		return;
	}
	if (nsystem > 1) {
		f = check_add(r, CHECK_WARN, "clock.daemon", "%s; %s both steer the system clock",
			      list, systems);
		check_why(f, "two daemons adjusting CLOCK_REALTIME fight each other: each "
			  "undoes the other's corrections, and the clock wanders by what they "
			  "disagree on");
		check_fix(f, "keep one: systemctl disable --now the others (systemd-timesyncd "
			  "and ntpd beside chronyd; chronyd or phc2sys, not both, unless chronyd "
			  "only serves)");
		return;
	}
	st = running(x, "systemd-timesyncd") ? CHECK_WARN : CHECK_PASS;
	f = check_add(r, st, "clock.daemon", "%s", list);
	if (st == CHECK_WARN) {
		check_why(f, "systemd-timesyncd is an SNTP client: it steps and slews the clock "
			  "to one server at a time and tells the kernel no error bound, "
			  "milliseconds at best");
		check_fix(f, "for a shared grid use PTP (ptp4l + phc2sys) or chronyd");
	}
}

static bool adjtimex_unknown(struct check_report *r, struct clockctx *x, const char *id)
{
	if (x->p->tree) {
		check_add(r, CHECK_SKIP, id, "%s is a copied tree: adjtimex would tell this "
			  "machine's clock, not the tree's", x->p->root);
		return true;
	}
	if (!x->sync_known) {
		check_add(r, CHECK_SKIP, id, "adjtimex: %s: the clock's sync state is unknown",
			  strerror(x->sync_errno));
		return true;
	}
	return false;
}

static void chk_synced(struct check_report *r, struct clockctx *x)
{
	const struct clocksync_state *s = &x->sync;
	struct check_finding *f;

	if (adjtimex_unknown(r, x, "clock.synced"))
		return;
	if (s->synced) {
		check_add(r, CHECK_PASS, "clock.synced", "synchronised (adjtimex: state %s, "
			  "STA_UNSYNC clear, status 0x%04x)", clocksync_state_name(s->state),
			  (unsigned)s->status);
		return;
	}
	f = check_add(r, moot(x, CHECK_FAIL), "clock.synced", "not synchronised (adjtimex: "
		      "state %s, STA_UNSYNC %s, status 0x%04x)", clocksync_state_name(s->state),
		      s->status & STA_UNSYNC ? "set" : "clear", (unsigned)s->status);
	if (!x->shared) {
		why_moot(f);
		return;
	}
	check_why(f, "no daemon has told the kernel the clock is synchronised (or its "
		  "maximum error passed 16 s): the grid this board's slot 0 goes on is its "
		  "own, not the other boards'");
	check_fix(f, "%s", running(x, "ptp4l") && !running(x, "phc2sys") ?
		  "start phc2sys -a -r: ptp4l alone synchronises the PTP hardware clock, "
		  "not the system clock" :
		  "start ptp4l + phc2sys (or chronyd) and wait until it locks (phc2sys: "
		  "\"s2\" in its log; chronyc tracking: \"Leap status: Normal\")");
}

static void chk_error(struct check_report *r, struct clockctx *x)
{
	const struct clocksync_state *s = &x->sync;
	int64_t half = x->p->half_period_ns;
	struct check_finding *f;
	enum check_status st;
	char tenth[32], limit[32];

	if (adjtimex_unknown(r, x, "clock.error"))
		return;
	if (!s->synced) {
		f = check_add(r, CHECK_SKIP, "clock.error", "no error bound: the clock is not "
			      "synchronised (clock.synced; maxerror %ld us)", s->maxerror_us);
		return;
	}
	if (s->esterror_us >= CLOCK_ERROR_UNKNOWN_US) {
		/* phc2sys marks the clock synchronised and zeroes maxerror at each
		 * update (linuxptp's sysclk_set_sync()), but never estimates: the
		 * kernel's figures then say how old the last update is, not how far
		 * off the clock is */
		f = check_add(r, CHECK_SKIP, "clock.error", "no estimate: esterror is the "
			      "kernel's 16 s default, maxerror %ld us", s->maxerror_us);
		check_why(f, "the daemon marks the clock synchronised without an error estimate "
			  "(phc2sys does: it resets maxerror at each update, which then grows "
			  "at 500 ppm); how far off the clock is shows in ptp4l's "
			  "master_offset (clock.ptp) and phc2sys's log, not in adjtimex");
		check_fix(f, "read the offsets: pmc -u -b 0 'GET TIME_STATUS_NP' and phc2sys's "
			  "\"offset\" lines; chronyd (with a PHC refclock) tells the kernel its "
			  "estimate");
		return;
	}
	units_format_duration(half / 10, tenth, sizeof(tenth));
	units_format_duration(half / 2, limit, sizeof(limit));
	st = judge_error(s->maxerror_us * INT64_C(1000), half);
	f = check_add(r, moot(x, st), "clock.error", "maximum error %ld us, estimated %ld us, "
		      "against the half period %s (PASS up to %s, FAIL from %s)",
		      s->maxerror_us, s->esterror_us, x->half, tenth, limit);
	if (!x->shared) {
		if (st != CHECK_PASS)
			why_moot(f);
		return;
	}
	if (st == CHECK_PASS)
		return;
	check_why(f, "two boards' edges on one grid agree only to the sum of their clocks' "
		  "errors: at %ld us each they may be %ld us apart, %s of the half period%s",
		  s->maxerror_us, 2 * s->maxerror_us,
		  st == CHECK_FAIL ? "a whole half period or more" : "more than a fifth",
		  st == CHECK_FAIL ? ": one board high while the other is low" : "");
	check_fix(f, "a tighter sync (PTP with hardware timestamps: ptp4l + phc2sys, or "
		  "chronyd with a PHC refclock; NTP gives milliseconds), or a longer half "
		  "period (--half-period)");
}

static void chk_tai(struct check_report *r, struct clockctx *x)
{
	const struct clocksync_state *s = &x->sync;
	bool tai = x->p->grid_clock == GRID_CLOCK_TAI;
	struct check_finding *f;

	if (adjtimex_unknown(r, x, "clock.tai"))
		return;
	if (s->tai_s) {
		check_add(r, CHECK_PASS, "clock.tai", "TAI - UTC = %d s (CLOCK_TAI is set)",
			  s->tai_s);
		return;
	}
	f = check_add(r, tai ? CHECK_FAIL : CHECK_SKIP, "clock.tai", "the kernel's TAI offset "
		      "is 0 (never set): CLOCK_TAI reads the same as CLOCK_REALTIME");
	if (!tai) {
		check_why(f, "moot for this run: grid.clock is %s, not tai; a board with "
			  "grid.clock tai needs it set, or its grid is 37 s off the others'",
			  x->grid);
		return;
	}
	check_why(f, "grid.clock tai places slot 0 on CLOCK_TAI: where the offset is 0 it "
		  "is UTC, 37 s away from a board where it is set (the run refuses to start)");
	check_fix(f, "let the daemon set it: phc2sys -a -r (from ptp4l's currentUtcOffset), "
		  "or chronyd with leapsectz right/UTC; or use grid.clock realtime");
}

/* ---- clock.ptp: pmc ------------------------------------------------------------ */

/* The value after @key on its own line of @text ("\t\tmaster_offset  -12"),
 * into @buf; false when no line has it. */
static bool pmc_field(const char *text, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p;

	for (p = text; (p = strstr(p, key)); p += klen) {
		const char *v, *end;
		size_t n;

		/* a whole word at the start of its line */
		if ((p != text && p[-1] != '\t' && p[-1] != ' ' && p[-1] != '\n') ||
		    (p[klen] != ' ' && p[klen] != '\t'))
			continue;
		for (v = p + klen; *v == ' ' || *v == '\t'; v++)
			;
		for (end = v; *end && *end != '\n' && *end != ' ' && *end != '\t'; end++)
			;
		n = (size_t)(end - v);
		if (!n || n >= len)
			return false;
		memcpy(buf, v, n);
		buf[n] = '\0';
		return true;
	}
	return false;
}

enum pmc_parse check_clock_parse_pmc(const char *text, struct pmc_time_status *ts)
{
	const char *resp, *next;
	char body[4096], v[64], *end;
	size_t n, i;
	long long off;

	memset(ts, 0, sizeof(*ts));
	/* the response line, not pmc's "sending: GET TIME_STATUS_NP" */
	if (strstr(text, "RESPONSE MANAGEMENT_ERROR_STATUS"))
		return PMC_ERROR_STATUS;
	resp = strstr(text, "RESPONSE MANAGEMENT ");
	if (!resp)
		return PMC_NO_REPLY;
	resp += strlen("RESPONSE MANAGEMENT ");
	if (strncmp(resp, "TIME_STATUS_NP", 14))
		return PMC_MALFORMED;
	/* this response's lines only: up to the next "seq" header or the end */
	next = strstr(resp, " seq ");
	n = next ? (size_t)(next - resp) : strlen(resp);
	if (n >= sizeof(body))
		n = sizeof(body) - 1;
	memcpy(body, resp, n);
	body[n] = '\0';
	if (!pmc_field(body, "master_offset", v, sizeof(v)))
		return PMC_MALFORMED;
	errno = 0;
	off = strtoll(v, &end, 10);
	if (errno || *end)
		return PMC_MALFORMED;
	ts->master_offset_ns = off;
	if (!pmc_field(body, "gmPresent", v, sizeof(v)))
		return PMC_MALFORMED;
	if (!strcmp(v, "true"))
		ts->gm_present = true;
	else if (strcmp(v, "false"))
		return PMC_MALFORMED;
	if (pmc_field(body, "gmIdentity", v, sizeof(v))) {
		/* hex digits and dots only: it is printed */
		for (i = 0; v[i] && (isxdigit((unsigned char)v[i]) || v[i] == '.'); i++)
			;
		if (!v[i])
			snprintf(ts->gm_identity, sizeof(ts->gm_identity), "%s", v);
	}
	return PMC_OK;
}

/* linuxptp installs pmc in sbin, which a user's PATH often lacks. */
static bool pmc_find(const char *given, char *out, size_t len)
{
	static const char *const extra[] = { "/usr/sbin", "/sbin", "/usr/local/sbin" };
	const char *path = getenv("PATH");
	char dirs[4096], *save = NULL, *d;
	size_t i;

	if (given) {
		snprintf(out, len, "%s", given);
		return access(out, X_OK) == 0;
	}
	snprintf(dirs, sizeof(dirs), "%s", path ? path : "");
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save))
		if (*d && snprintf(out, len, "%s/pmc", d) < (int)len && access(out, X_OK) == 0)
			return true;
	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		if (snprintf(out, len, "%s/pmc", extra[i]) < (int)len && access(out, X_OK) == 0)
			return true;
	return false;
}

/*
 * Run @pmc with the query, its stdout and stderr into @out (NUL-ended),
 * for at most PMC_TIMEOUT_MS, then killed. 0 with *@status as waitpid gives
 * it; -1 with the reason in @why.
 */
static int pmc_run(const char *pmc, char *out, size_t len, int *status, char *why,
		   size_t whylen)
{
	int fds[2], fd;
	size_t used = 0;
	uint64_t deadline = clock_mono_ns() + (uint64_t)PMC_TIMEOUT_MS * 1000000u;
	bool killed = false;
	pid_t pid;

	out[0] = '\0';
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			dup2(fd, STDIN_FILENO);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		execl(pmc, "pmc", "-u", "-b", "0", "GET TIME_STATUS_NP", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		int64_t left = (int64_t)(deadline - clock_mono_ns());
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		ssize_t n;
		int ret;

		if (left <= 0) {
			kill(pid, SIGKILL);
			killed = true;
			break;
		}
		ret = poll(&pfd, 1, (int)(left / 1000000 + 1));
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0)
			continue;
		if (used + 1 >= len) {
			char sink[512];

			n = read(fds[0], sink, sizeof(sink));
		} else {
			n = read(fds[0], out + used, len - 1 - used);
			if (n > 0)
				used += (size_t)n;
		}
		if (n == 0)
			break;
		if (n < 0 && errno != EINTR)
			break;
	}
	out[used] = '\0';
	close(fds[0]);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	if (killed) {
		snprintf(why, whylen, "pmc gave no answer in %d ms (killed)", PMC_TIMEOUT_MS);
		return -1;
	}
	return 0;
}

/* pmc's own complaint, the first line that is not "sending: ...", for the
 * value (control characters are escaped when printed). */
static void pmc_first_words(const char *text, char *buf, size_t len)
{
	const char *p = text, *end;

	buf[0] = '\0';
	while (*p) {
		end = strchr(p, '\n');
		if (!end)
			end = p + strlen(p);
		if (end > p && strncmp(p, "sending:", 8)) {
			snprintf(buf, len, "%.*s", (int)(end - p > 120 ? 120 : end - p), p);
			return;
		}
		p = *end ? end + 1 : end;
	}
}

static void chk_ptp(struct check_report *r, struct clockctx *x)
{
	char pmc[4096], out[8192], why[256], said[160];
	struct pmc_time_status ts;
	struct check_finding *f;
	enum check_status st;
	int status = 0;
	char tenth[32], limit[32];

	if (x->p->tree) {
		check_add(r, CHECK_SKIP, "clock.ptp", "%s is a copied tree: pmc would ask this "
			  "machine's ptp4l, not the tree's", x->p->root);
		return;
	}
	if (!running(x, "ptp4l")) {
		check_add(r, CHECK_SKIP, "clock.ptp", "ptp4l does not run%s: no PTP state to ask",
			  x->procs.read ? "" : " (or no process could be read)");
		return;
	}
	if (!pmc_find(x->p->pmc, pmc, sizeof(pmc))) {
		f = check_add(r, CHECK_SKIP, "clock.ptp", "ptp4l runs but pmc (linuxptp's "
			      "management client) is not found%s%s: its offset to the master "
			      "is not read", x->p->pmc ? " at " : " in PATH, /usr/sbin or /sbin",
			      x->p->pmc ? x->p->pmc : "");
		check_why(f, "ptp4l's master_offset is how far the PTP clock is from its "
			  "grandmaster, the figure the kernel's error bound does not give "
			  "under phc2sys");
		check_fix(f, "install linuxptp's pmc (Debian: linuxptp; Yocto: linuxptp's pmc "
			  "in the image)");
		return;
	}
	if (pmc_run(pmc, out, sizeof(out), &status, why, sizeof(why)) < 0) {
		check_add(r, CHECK_SKIP, "clock.ptp", "%s: %s", pmc, why);
		return;
	}
	switch (check_clock_parse_pmc(out, &ts)) {
	case PMC_OK:
		break;
	case PMC_NO_REPLY:
		pmc_first_words(out, said, sizeof(said));
		f = check_add(r, CHECK_SKIP, "clock.ptp", "pmc -u -b 0 'GET TIME_STATUS_NP': no "
			      "answer from ptp4l (exit %d%s%s)", WIFEXITED(status) ?
			      WEXITSTATUS(status) : -1, said[0] ? ": " : "", said);
		check_why(f, "pmc talks to ptp4l over its UNIX socket (/var/run/ptp4l): it "
			  "needs the rights to create /var/run/pmc.PID and ptp4l's uds_address");
		check_fix(f, "run check as root, or ask by hand: sudo pmc -u -b 0 'GET "
			  "TIME_STATUS_NP' (-s PATH when ptp4l's uds_address is not the default)");
		return;
	case PMC_ERROR_STATUS:
		check_add(r, CHECK_SKIP, "clock.ptp", "ptp4l refused TIME_STATUS_NP "
			  "(MANAGEMENT_ERROR_STATUS): its offset is not read");
		return;
	case PMC_MALFORMED:
		check_add(r, CHECK_SKIP, "clock.ptp", "pmc's TIME_STATUS_NP answer has no "
			  "master_offset or gmPresent sqwave can read");
		return;
	}
	if (!ts.gm_present) {
		f = check_add(r, moot(x, CHECK_WARN), "clock.ptp", "no grandmaster but this "
			      "clock (gmPresent false, gmIdentity %s)",
			      ts.gm_identity[0] ? ts.gm_identity : "unknown");
		if (!x->shared) {
			why_moot(f);
			return;
		}
		check_why(f, "ptp4l follows no other clock: this board is the grandmaster "
			  "(then the other boards follow it, and this is fine), or it has lost "
			  "its master and runs free");
		check_fix(f, "if another board should be the master: the PTP link, the domain "
			  "(-d) and the transport (-2/-4) must match; pmc -u -b 0 'GET "
			  "PORT_DATA_SET' shows the port's state");
		return;
	}
	units_format_duration(x->p->half_period_ns / 10, tenth, sizeof(tenth));
	units_format_duration(x->p->half_period_ns / 2, limit, sizeof(limit));
	st = judge_error(ts.master_offset_ns, x->p->half_period_ns);
	f = check_add(r, moot(x, st), "clock.ptp", "master_offset %" PRId64 " ns to "
		      "grandmaster %s, against the half period %s (PASS up to %s, FAIL from %s)",
		      ts.master_offset_ns, ts.gm_identity[0] ? ts.gm_identity : "unknown",
		      x->half, tenth, limit);
	if (!x->shared) {
		if (st != CHECK_PASS)
			why_moot(f);
		return;
	}
	if (st == CHECK_PASS) {
		check_why(f, "the PTP hardware clock's offset; phc2sys adds its own to the "
			  "system clock");
		return;
	}
	check_why(f, "the PTP clock is this far from the grandmaster now: two boards' "
		  "edges agree only to the sum of their offsets (a servo still locking, a "
		  "software-timestamped port, a busy link)");
	check_fix(f, "wait for ptp4l to settle (its rms in the log), use hardware "
		  "timestamping (ethtool -T IFACE), or a longer half period");
}

void check_clock(struct check_report *r, const struct check_clock_params *p)
{
	struct clockctx x = { .p = p };

	x.shared = p->grid_clock != GRID_CLOCK_MONOTONIC;
	x.grid = p->grid_clock == GRID_CLOCK_TAI ? "tai" :
		 p->grid_clock == GRID_CLOCK_REALTIME ? "realtime" : "monotonic";
	units_format_duration(p->half_period_ns, x.half, sizeof(x.half));
	procs_read(p->root, &x.procs);
	if (p->sync) {
		x.sync = *p->sync;
		x.sync_known = true;
	} else if (!p->tree) {
		x.sync_known = clocksync_read(&x.sync) == 0;
		x.sync_errno = errno;
	}
	chk_daemon(r, &x);
	chk_synced(r, &x);
	chk_error(r, &x);
	chk_tai(r, &x);
	chk_ptp(r, &x);
}
