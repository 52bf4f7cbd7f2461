/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `sqwave boards detect`: this machine's identity (device tree, DMI), read
 * through one root directory, scored against a board file's match keys. */
#include "check/check_detect.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "base/sysinfo.h"

/* A NUL-separated property (compatible) or a NUL-terminated string (model).
 * Only a regular file: under --root (a copied tree) a FIFO in its place
 * would wait forever for a writer. */
static int read_prop(const char *root, const char *rel, char *buf, size_t len)
{
	char path[4096];
	size_t n;
	int fd;

	buf[0] = '\0';
	if (!sysinfo_path(root, rel, path, sizeof(path)))
		return -1;
	fd = sysinfo_open_regular(path);
	if (fd < 0)
		return -1;
	n = sysinfo_read_full(fd, buf, len - 1);
	close(fd);
	buf[n] = '\0';
	return (int)n;
}

/* A DMI name: its first line, without the blanks that end it (as sysfs
 * gives it, or as a firmware pads it), through read_prop for its safety. */
static void read_dmi(const char *root, const char *rel, char *buf, size_t len)
{
	size_t n;

	if (read_prop(root, rel, buf, len) < 0)
		return;
	buf[strcspn(buf, "\n")] = '\0';
	n = strlen(buf);
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
}

void detect_machine_read(const char *root, struct detect_machine *m)
{
	static const char *const dt[] = { "proc/device-tree", "sys/firmware/devicetree/base" };
	char buf[4096], rel[64];
	size_t i;
	int n = -1, off;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < 2 && n <= 0; i++) {
		snprintf(rel, sizeof(rel), "%s/compatible", dt[i]);
		n = read_prop(root, rel, buf, sizeof(buf));
		if (n > 0) {
			snprintf(rel, sizeof(rel), "%s/model", dt[i]);
			if (read_prop(root, rel, m->model, sizeof(m->model)) < 0)
				m->model[0] = '\0';
		}
	}
	for (off = 0; n > 0 && off < n && m->ncompatible < DETECT_MAX_COMPAT;) {
		size_t len = strnlen(buf + off, (size_t)(n - off));

		if (len)
			snprintf(m->compatible[m->ncompatible++], sizeof(m->compatible[0]), "%.*s",
				 (int)len, buf + off);
		off += (int)len + 1;
	}
	read_dmi(root, "sys/class/dmi/id/board_name", m->dmi_board, sizeof(m->dmi_board));
	read_dmi(root, "sys/class/dmi/id/product_name", m->dmi_product, sizeof(m->dmi_product));
	read_dmi(root, "sys/class/dmi/id/sys_vendor", m->dmi_vendor, sizeof(m->dmi_vendor));
}

bool detect_machine_known(const struct detect_machine *m)
{
	return m->ncompatible || m->dmi_board[0] || m->dmi_product[0];
}

/* Whether @value is one of the lines of @list. */
static bool in_list(const char *list, const char *value)
{
	size_t vl = strlen(value);
	const char *p = list;

	if (!vl)
		return false;
	while (*p) {
		size_t n = strcspn(p, "\n");

		if (n == vl && !strncmp(p, value, n))
			return true;
		p += n;
		if (*p == '\n')
			p++;
	}
	return false;
}

int detect_board_score(const struct config *board, const struct detect_machine *m, char *why,
		       size_t len)
{
	const char *compat = config_str(board, CFG_MATCH_COMPATIBLE);
	int i;

	why[0] = '\0';
	for (i = 0; i < m->ncompatible; i++) {
		if (in_list(compat, m->compatible[i])) {
			snprintf(why, len, "device-tree compatible \"%s\"", m->compatible[i]);
			return 1000 - 10 * i;
		}
	}
	if (in_list(config_str(board, CFG_MATCH_DMI_BOARD), m->dmi_board)) {
		snprintf(why, len, "DMI board name \"%s\"", m->dmi_board);
		return 500;
	}
	if (in_list(config_str(board, CFG_MATCH_DMI_PRODUCT), m->dmi_product)) {
		snprintf(why, len, "DMI product name \"%s\"", m->dmi_product);
		return 400;
	}
	return 0;
}
