/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU lists: "0-3,6" <-> cpu_set_t. */
#include "base/cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/msgbuf.h"

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static int parse_cpu(const char **p, long *out)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	*out = strtol(*p, &end, 10);
	if (errno || *out >= CPU_SETSIZE)
		return -2;
	*p = end;
	return 0;
}

int cpulist_parse(const char *text, cpu_set_t *set, char *err, size_t errlen)
{
	const char *p = skip_blanks(text);

	CPU_ZERO(set);
	if (!*p)
		return 0;
	for (;;) {
		long lo, hi;
		int r;

		p = skip_blanks(p);
		r = parse_cpu(&p, &lo);
		hi = lo;
		if (!r && *p == '-') {
			p++;
			r = parse_cpu(&p, &hi);
		}
		if (r == -2) {
			snprintf(err, errlen, "CPU list \"%s\": CPU numbers go up to %d", text,
				 CPU_SETSIZE - 1);
			return -1;
		}
		if (r || hi < lo) {
			snprintf(err, errlen, "CPU list \"%s\" is not a list like 0,2-3", text);
			return -1;
		}
		for (; lo <= hi; lo++)
			CPU_SET((size_t)lo, set);
		p = skip_blanks(p);
		if (!*p)
			return 0;
		if (*p != ',') {
			snprintf(err, errlen, "CPU list \"%s\" is not a list like 0,2-3", text);
			return -1;
		}
		p++;
	}
}

const char *cpulist_format(const cpu_set_t *set, char *buf, size_t len)
{
	struct msgbuf_out o;
	int c = 0;

	if (len < 4) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	/* a list too long for @buf ends in "..." after a whole range */
	msgbuf_out_init(&o, buf, len);
	while (c < CPU_SETSIZE) {
		int e;

		if (!CPU_ISSET((size_t)c, set)) {
			c++;
			continue;
		}
		for (e = c; e + 1 < CPU_SETSIZE && CPU_ISSET((size_t)e + 1, set); e++)
			;
		if (e > c)
			msgbuf_out_add(&o, "%s%d-%d", o.used ? "," : "", c, e);
		else
			msgbuf_out_add(&o, "%s%d", o.used ? "," : "", c);
		c = e + 1;
	}
	return buf;
}

void cpulist_online(cpu_set_t *set)
{
	if (sched_getaffinity(0, sizeof(*set), set) < 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN), i;

		CPU_ZERO(set);
		for (i = 0; i < n && i < CPU_SETSIZE; i++)
			CPU_SET((size_t)i, set);
	}
}

int cpulist_thread_pin(const char *text, cpu_set_t *got, bool *usage, char *err, size_t errlen)
{
	cpu_set_t want, allowed, extra;
	char may[128];

	*usage = true;
	if (cpulist_parse(text, &want, err, errlen) < 0)
		return -1;
	if (CPU_COUNT(&want) == 0) {
		snprintf(err, errlen, "CPU list \"%s\" is empty", text);
		return -1;
	}
	cpulist_online(&allowed);
	CPU_XOR(&extra, &want, &allowed);
	CPU_AND(&extra, &extra, &want);
	if (CPU_COUNT(&extra)) {
		char bad[64];

		snprintf(err, errlen, "CPU list \"%s\": CPU %s %s not among those this process "
			 "may use (%s)", text, cpulist_format(&extra, bad, sizeof(bad)),
			 CPU_COUNT(&extra) == 1 ? "is" : "are", cpulist_format(&allowed, may, sizeof(may)));
		return -1;
	}
	*usage = false;
	if (sched_setaffinity(0, sizeof(want), &want) < 0 ||
	    sched_getaffinity(0, sizeof(*got), got) < 0) {
		snprintf(err, errlen, "cannot keep to CPUs %s: %s", text, strerror(errno));
		return -1;
	}
	return 0;
}
