/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Network loads: an iputils ping flood from this machine, and
 * expect-traffic (a flood from another machine, proved by the interface's
 * packet counters). */
#include "loads/load_private.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define PING_DEFAULT_MIN_PPS 1000

/* Whether @path is BusyBox or toybox (their ping has no -f): the file it
 * resolves to is named so, or the binary carries BusyBox's banner. */
static bool multicall_binary(const char *path, char *what, size_t len)
{
	static const char *const banners[] = { "BusyBox v", "toybox" };
	char real[PATH_MAX], buf[65536 + 16];
	const char *base;
	size_t keep = 0, total = 0, i;
	bool found = false;
	int fd;

	if (realpath(path, real)) {
		base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
		if (!strcmp(base, "busybox") || !strcmp(base, "toybox")) {
			snprintf(what, len, "%s", base[0] == 'b' ? "BusyBox" : "toybox");
			return true;
		}
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	/* A hard link to BusyBox: look for its banner in the first 8 MiB. */
	while (!found && total < 8u << 20) {
		ssize_t n = read(fd, buf + keep, sizeof(buf) - 16 - keep);

		if (n <= 0)
			break;
		total += (size_t)n;
		n += (ssize_t)keep;
		for (i = 0; i < sizeof(banners) / sizeof(banners[0]) && !found; i++) {
			if (memmem(buf, (size_t)n, banners[i], strlen(banners[i]))) {
				snprintf(what, len, "%s", i ? "toybox" : "BusyBox");
				found = true;
			}
		}
		keep = n > 15 ? 15 : (size_t)n;
		memmove(buf, buf + n - keep, keep);
	}
	close(fd);
	return found;
}

/* The interface packets to @target leave through: connect a UDP socket (no
 * packet is sent) and find the interface holding its local address. */
static int route_interface(const char *target, char *ifname, size_t len, char *why, size_t wlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM }, *ai = NULL;
	struct sockaddr_storage local;
	socklen_t sl = sizeof(local);
	struct ifaddrs *ifa = NULL, *i;
	int fd, r, ret = -1;

	r = getaddrinfo(target, "9", &hints, &ai);
	if (r) {
		snprintf(why, wlen, "cannot resolve %s: %s", target, gai_strerror(r));
		return -1;
	}
	fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen) < 0 ||
	    getsockname(fd, (struct sockaddr *)&local, &sl) < 0) {
		snprintf(why, wlen, "no route to %s: %s", target, strerror(errno));
		goto out;
	}
	if (getifaddrs(&ifa) < 0) {
		snprintf(why, wlen, "cannot list interfaces: %s", strerror(errno));
		goto out;
	}
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != local.ss_family)
			continue;
		if (local.ss_family == AF_INET &&
		    ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr !=
			    ((struct sockaddr_in *)&local)->sin_addr.s_addr)
			continue;
		if (local.ss_family == AF_INET6 &&
		    memcmp(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr,
			   &((struct sockaddr_in6 *)&local)->sin6_addr, sizeof(struct in6_addr)))
			continue;
		snprintf(ifname, len, "%s", i->ifa_name);
		ret = 0;
		break;
	}
	if (ret)
		snprintf(why, wlen, "no interface holds the local address used to reach %s", target);
out:
	if (ifa)
		freeifaddrs(ifa);
	if (fd >= 0)
		close(fd);
	freeaddrinfo(ai);
	return ret;
}

static int interface_check(struct load *l, const struct load_env *env, enum load_error *cls,
			   char *err, size_t errlen)
{
	char dir[PATH_MAX];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s/sys/class/net/%s/statistics/rx_packets",
		 env->sysroot ? env->sysroot : "", l->interface);
	if (strchr(l->interface, '/') || stat(dir, &st) < 0) {
		*cls = LOAD_E_CONFIG;
		snprintf(err, errlen, "%s (%s): interface %s has no packet counters "
			 "(/sys/class/net/%s/statistics): no such interface here", load_name(l),
			 l->spec.origin ? l->spec.origin : "load", l->interface, l->interface);
		return -1;
	}
	return 0;
}

static int ping_prepare(struct load *l, const struct load_env *env, enum load_error *cls,
			char *err, size_t errlen)
{
	const char *path = l->spec.text[PLK_PATH][0] ? l->spec.text[PLK_PATH] : "ping";
	const char *where = l->spec.origin ? l->spec.origin : "load";
	char size[16], preload[16], why[256], what[16];
	const char *args[8];
	size_t n = 0;
	unsigned i, inst;

	if (load_find_program(path, env->path, l->program, sizeof(l->program))) {
		*cls = LOAD_E_CONFIG;
		snprintf(err, errlen, "ping-flood (%s): %s not found or not executable; install "
			 "iputils ping (Debian: apt install iputils-ping)", where, path);
		return -1;
	}
	if (multicall_binary(l->program, what, sizeof(what))) {
		*cls = LOAD_E_CONFIG;
		snprintf(err, errlen, "ping-flood (%s): %s is %s ping, which has no flood mode "
			 "(-f); install iputils ping (Debian: iputils-ping; Yocto: the iputils "
			 "recipe) or give its path with path:", where, l->program, what);
		return -1;
	}
	if (!env->root) {
		*cls = LOAD_E_CONFIG;
		snprintf(err, errlen, "ping-flood (%s): ping -f floods only for root (iputils "
			 "refuses other users an interval under 2 ms); run sqwave as root", where);
		return -1;
	}
	snprintf(l->interface, sizeof(l->interface), "%s", l->spec.text[PLK_INTERFACE]);
	if (!l->interface[0] &&
	    route_interface(l->spec.text[PLK_TARGET], l->interface, sizeof(l->interface), why,
			    sizeof(why)) < 0) {
		*cls = LOAD_E_CONFIG;
		snprintf(err, errlen, "ping-flood (%s): %s; set interface: to the interface the "
			 "flood crosses", where, why);
		return -1;
	}
	if (interface_check(l, env, cls, err, errlen) < 0)
		return -1;
	l->min_pps = l->spec.set[PLK_MIN_PPS] ? l->spec.num[PLK_MIN_PPS] : PING_DEFAULT_MIN_PPS;
	/* -q: no dots and backspaces; -n: no name lookups while flooding. */
	args[n++] = "-f";
	args[n++] = "-q";
	args[n++] = "-n";
	snprintf(size, sizeof(size), "%d", (int)l->spec.num[PLK_SIZE]);
	args[n++] = "-s";
	args[n++] = size;
	if (l->spec.num[PLK_PRELOAD]) {
		snprintf(preload, sizeof(preload), "%d", (int)l->spec.num[PLK_PRELOAD]);
		args[n++] = "-l";
		args[n++] = preload;
	}
	args[n++] = l->spec.text[PLK_TARGET];
	inst = l->spec.num[PLK_INSTANCES] ? (unsigned)l->spec.num[PLK_INSTANCES] : 1;
	for (i = 0; i < inst; i++) {
		if (load_add_proc(l, args, n, &l->cpus) < 0) {
			*cls = LOAD_E_SYSTEM;
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		l->procs[l->nprocs - 1].discard_stdout = true;
	}
	return 0;
}

static int traffic_prepare(struct load *l, const struct load_env *env, enum load_error *cls,
			   char *err, size_t errlen)
{
	snprintf(l->interface, sizeof(l->interface), "%s", l->spec.text[PLK_INTERFACE]);
	l->min_pps = l->spec.num[PLK_MIN_PPS];
	snprintf(l->program, sizeof(l->program), "(none: traffic from elsewhere)");
	return interface_check(l, env, cls, err, errlen);
}

const struct load_ops load_ping_ops = {
	.kind = "ping-flood",
	.proof = LOAD_PROOF_NET,
	.prepare = ping_prepare,
};

const struct load_ops load_traffic_ops = {
	.kind = "expect-traffic",
	.proof = LOAD_PROOF_NET,
	.prepare = traffic_prepare,
};
