/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Chips and lines by the names users give them: the chip scan, the lookup
 * rules and their messages, written once for the output, the input and check. */
#include "gpio/gpio_lookup.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpio/gpio_private.h"
#include "base/msgbuf.h"
#include "config/config.h"

const char *gpio_dev_dir = "/dev";

void gpio_strlcpy(char *dst, const char *src, size_t len)
{
	size_t n;

	if (!len)
		return;
	n = src ? strnlen(src, len - 1) : 0;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

/* @err gets exactly this message (whatever it held before). */
static const char *spec_str(const char *s)
{
	return s ? s : "";
}

void gpio_msg_permission_hint(char *buf, size_t len)
{
	msgbuf_add(buf, len, "run sqwave as root, or give your user access: add it to "
		     "the group that owns %s/gpiochip* (often \"gpio\"), or install a "
		     "udev rule such as SUBSYSTEM==\"gpio\", KERNEL==\"gpiochip*\", "
		     "GROUP=\"gpio\", MODE=\"0660\"", gpio_dev_dir);
}

bool gpio_msg_request_refused(char *err, size_t errlen, const struct gpio_location *loc,
			      const struct gpio_line_desc *holder, int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
		snprintf(err, errlen, "permission denied: cannot request line %u of %s "
			 "[%s] (%s); ", loc->offset, loc->chip.name, loc->chip.label, strerror(e));
		gpio_msg_permission_hint(err, errlen);
		return true;
	case EBUSY:
		gpio_msg_busy(err, errlen, &loc->chip, loc->offset, holder);
		return true;
	default:
		return false;
	}
}

/* ---- backends -------------------------------------------------------------- */

const struct gpio_ops *gpio_backend_get(enum gpio_backend backend, const struct config *cfg,
					char *err, size_t errlen)
{
	const struct gpio_ops *ops = NULL;

	switch (backend) {
	case GPIO_BACKEND_GPIOD:
#ifndef SQW_GPIOD_NONE
		ops = &gpio_gpiod_ops;
#endif
		break;
	case GPIO_BACKEND_SIM:
		ops = &gpio_sim_ops;
		break;
	}
	if (!ops) {
		msgbuf_set(err, errlen, "GPIO backend \"gpiod\": this sqwave was built without "
			"libgpiod; use the simulated backend (gpio.backend: sim), or install "
			"the libgpiod development files (v1 or v2) and rebuild");
		errno = ENOTSUP;
		return NULL;
	}
	if (ops->configure && ops->configure(cfg, err, errlen)) {
		errno = EINVAL;
		return NULL;
	}
	return ops;
}

/* ---- chip enumeration ---------------------------------------------------- */

static unsigned long gpiochip_number(const char *name)
{
	return strtoul(name + strlen("gpiochip"), NULL, 10);
}

static int is_gpiochip_name(const struct dirent *d)
{
	const char *p = d->d_name;

	if (strncmp(p, "gpiochip", 8) != 0 || !p[8])
		return 0;
	for (p += 8; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

static int gpiochip_cmp(const struct dirent **a, const struct dirent **b)
{
	unsigned long na = gpiochip_number((*a)->d_name);
	unsigned long nb = gpiochip_number((*b)->d_name);

	return na < nb ? -1 : na > nb;
}

/* Default chip_list: every gpiochipN in gpio_dev_dir, in numeric order. Files
 * that are not GPIO chips are skipped; chips that cannot be opened are kept,
 * with open_errno set, so that the messages can say why. */
static int dev_chip_list(const struct gpio_ops *ops, struct gpio_chip_desc **out)
{
	struct gpio_chip_desc *chips;
	struct dirent **ents;
	int i, n, count = 0;
	void *chip;

	*out = NULL;
	n = scandir(gpio_dev_dir, &ents, is_gpiochip_name, gpiochip_cmp);
	if (n < 0) {
		if (errno != ENOENT)
			return -1;
		n = 0;
		ents = NULL;
	}
	chips = calloc(n ? (size_t)n : 1, sizeof(*chips));
	if (!chips)
		goto out;
	for (i = 0; i < n; i++) {
		struct gpio_chip_desc *cd = &chips[count];
		char path[GPIO_PATH_MAX];
		int len;

		len = snprintf(path, sizeof(path), "%s/%s", gpio_dev_dir,
			       ents[i]->d_name);
		if (len < 0 || (size_t)len >= sizeof(path))
			continue;
		chip = ops->chip_open(path);
		if (!chip) {
			if (errno == ENOTTY || errno == ENODEV || errno == ENOENT)
				continue; /* not a GPIO chip, or gone */
			memset(cd, 0, sizeof(*cd));
			cd->open_errno = errno;
			gpio_strlcpy(cd->name, ents[i]->d_name, sizeof(cd->name));
		} else if (ops->chip_info(chip, cd)) {
			ops->chip_close(chip);
			continue;
		} else {
			ops->chip_close(chip);
		}
		gpio_strlcpy(cd->path, path, sizeof(cd->path));
		count++;
	}
	*out = chips;
out:
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	return chips ? count : -1;
}

static int chip_list(const struct gpio_ops *ops, struct gpio_chip_desc **chips)
{
	if (ops->chip_list)
		return ops->chip_list(chips);
	return dev_chip_list(ops, chips);
}

static bool is_denied(int err)
{
	return err == EACCES || err == EPERM;
}

/* "gpiochip0 [GPIOA], gpiochip1 [GPIOB]", or why there are none. */
static void msg_chips(char *buf, size_t len, const struct gpio_chip_desc *chips, int n)
{
	int i, denied = 0;

	if (n <= 0) {
		msgbuf_add(buf, len, "no GPIO chips found (is the GPIO character "
			     "device enabled in this kernel?)");
		return;
	}
	msgbuf_add(buf, len, "chips present: ");
	for (i = 0; i < n; i++) {
		if (chips[i].open_errno) {
			msgbuf_add(buf, len, "%s%s [cannot open: %s]", i ? ", " : "",
				     chips[i].name, strerror(chips[i].open_errno));
			denied += is_denied(chips[i].open_errno);
		} else {
			msgbuf_add(buf, len, "%s%s [%s]", i ? ", " : "",
				     chips[i].name, chips[i].label);
		}
	}
	if (denied) {
		msgbuf_add(buf, len, "; to read the labels of the chips you may not "
			     "open, ");
		gpio_msg_permission_hint(buf, len);
	}
}

/* ---- chip lookup ----------------------------------------------------------- */

static void *chip_open_path(const struct gpio_ops *ops, const char *path,
			    struct gpio_chip_desc *cd, char *err, size_t errlen)
{
	struct gpio_chip_desc *chips;
	void *chip;
	int e, n;

	chip = ops->chip_open(path);
	if (!chip) {
		e = errno;
		switch (e) {
		case ENOENT:
			msgbuf_set(err, errlen, "GPIO chip \"%s\" does not exist: ", path);
			n = chip_list(ops, &chips);
			msg_chips(err, errlen, chips, n);
			free(chips);
			break;
		case ENOTTY:
		case ENODEV:
			msgbuf_set(err, errlen, "%s is not a GPIO chip (not a gpiochip "
				"character device)", path);
			break;
		case EACCES:
		case EPERM:
			msgbuf_set(err, errlen, "permission denied: cannot open GPIO chip %s "
				"(%s); ", path, strerror(e));
			gpio_msg_permission_hint(err, errlen);
			break;
		default:
			msgbuf_set(err, errlen, "cannot open GPIO chip %s: %s", path, strerror(e));
			break;
		}
		errno = e;
		return NULL;
	}
	memset(cd, 0, sizeof(*cd));
	if (ops->chip_info(chip, cd)) {
		e = errno;
		msgbuf_set(err, errlen, "cannot read chip info of %s: %s", path, strerror(e));
		ops->chip_close(chip);
		errno = e;
		return NULL;
	}
	gpio_strlcpy(cd->path, path, sizeof(cd->path));
	return chip;
}

static bool is_decimal(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/*
 * @want is a path (has a '/'), a chip name ("gpiochip0"), a chip number
 * ("0" = gpiochip0, as the libgpiod tools take it), a label, or the
 * backend's alias ("sim"). Names win over labels; a label two chips share
 * is an error. When the chip is not found and some chips could not be
 * opened, the headline is the permission problem: the label may be theirs.
 */
static void *chip_find(const struct gpio_ops *ops, const char *want,
		       struct gpio_location *loc, char *err, size_t errlen)
{
	char byname[GPIO_NAME_MAX + 16];
	struct gpio_chip_desc *chips;
	char list[GPIO_MSG_MAX] = "";
	int i, n, found = -1, nlabel = 0, denied = 0;
	void *chip;

	if (strchr(want, '/')) {
		if (strlen(want) >= sizeof(loc->chip.path)) {
			msgbuf_set(err, errlen, "GPIO chip path \"%s\" is too long", want);
			errno = ENAMETOOLONG;
			return NULL;
		}
		loc->chip_how = "path";
		return chip_open_path(ops, want, &loc->chip, err, errlen);
	}

	n = chip_list(ops, &chips);
	if (n < 0) {
		msgbuf_set(err, errlen, "cannot list GPIO chips in %s: %s", gpio_dev_dir,
			strerror(errno));
		return NULL;
	}
	if (ops->chip_alias && n == 1 && strcmp(want, ops->chip_alias) == 0) {
		found = 0;
		loc->chip_how = "alias";
	}
	snprintf(byname, sizeof(byname), "gpiochip%s", want);
	for (i = 0; found < 0 && i < n; i++) {
		if (strcmp(chips[i].name, want) == 0) {
			found = i;
			loc->chip_how = "name";
		} else if (is_decimal(want) && strcmp(chips[i].name, byname) == 0) {
			found = i;
			loc->chip_how = "number";
		}
	}
	for (i = 0; found < 0 && i < n; i++) {
		if (chips[i].open_errno) {
			denied += is_denied(chips[i].open_errno);
			continue;
		}
		if (strcmp(chips[i].label, want) != 0)
			continue;
		msgbuf_add(list, sizeof(list), "%s%s", nlabel ? ", " : "", chips[i].name);
		nlabel++;
	}
	if (nlabel == 1) {
		for (i = 0; i < n; i++)
			if (!chips[i].open_errno && strcmp(chips[i].label, want) == 0)
				found = i;
		loc->chip_how = "label";
	} else if (nlabel > 1) {
		msgbuf_set(err, errlen, "GPIO chip label \"%s\" is ambiguous: chips %s all "
			"have it; give the chip name or path instead", want, list);
		free(chips);
		errno = EINVAL;
		return NULL;
	}

	if (found < 0) {
		if (denied) {
			msgbuf_set(err, errlen, "permission denied: GPIO chip \"%s\" may be one of "
				"the %d chip%s this user may not open; ", want, denied,
				denied > 1 ? "s" : "");
			msg_chips(err, errlen, chips, n);
			errno = EACCES;
		} else {
			msgbuf_set(err, errlen, "GPIO chip \"%s\" not found: ", want);
			msg_chips(err, errlen, chips, n);
			errno = ENODEV;
		}
		free(chips);
		return NULL;
	}
	/* A chip found by name that could not be opened fails again here,
	 * and chip_open_path() says why (permission, most often). */
	chip = chip_open_path(ops, chips[found].path, &loc->chip, err, errlen);
	free(chips);
	return chip;
}

/* ---- line lookup ----------------------------------------------------------- */

/* Every other chip's lines named @name, into @buf ("gpiochip2 [GPIOC] line 4").
 * Returns how many. */
static int lines_named_elsewhere(const struct gpio_ops *ops, const char *here_path,
				 const char *name, char *buf, size_t len)
{
	struct gpio_chip_desc *chips;
	struct gpio_line_desc ld;
	int i, n, hits = 0;
	unsigned int off;
	void *chip;

	n = chip_list(ops, &chips);
	for (i = 0; i < n; i++) {
		if (chips[i].open_errno || (here_path && strcmp(chips[i].path, here_path) == 0))
			continue;
		chip = ops->chip_open(chips[i].path);
		if (!chip)
			continue;
		for (off = 0; off < chips[i].num_lines; off++) {
			if (ops->line_info(chip, off, &ld) || strcmp(ld.name, name))
				continue;
			msgbuf_add(buf, len, "%s%s [%s] line %u", hits++ ? ", " : "",
				     chips[i].name, chips[i].label, off);
		}
		ops->chip_close(chip);
	}
	free(chips);
	return hits;
}

static int line_find(const struct gpio_ops *ops, void *chip, const char *want,
		     struct gpio_location *loc, char *err, size_t errlen)
{
	const struct gpio_chip_desc *cd = &loc->chip;
	char named[GPIO_MSG_MAX / 2] = "";
	char offs[GPIO_MSG_MAX / 2] = "";
	char others[GPIO_MSG_MAX / 2] = "";
	unsigned int off, nmatch = 0, nnamed = 0;
	struct gpio_line_desc ld;
	unsigned long v;
	int e;

	if (!*want) {
		msgbuf_set(err, errlen, "no GPIO line given (gpio.line: an offset on %s [%s], "
			"which has %u lines, or a line name)", cd->name, cd->label,
			cd->num_lines);
		errno = EINVAL;
		return -1;
	}
	if (is_decimal(want)) {
		errno = 0;
		v = strtoul(want, NULL, 10);
		if (errno || v >= cd->num_lines) {
			if (cd->num_lines)
				msgbuf_set(err, errlen, "line %s is out of range: %s [%s] has %u "
					"lines (offsets 0..%u)", want, cd->name, cd->label,
					cd->num_lines, cd->num_lines - 1);
			else
				msgbuf_set(err, errlen, "line %s is out of range: %s [%s] has no "
					"lines", want, cd->name, cd->label);
			errno = EINVAL;
			return -1;
		}
		loc->offset = (unsigned int)v;
		return 0;
	}

	loc->by_name = true;
	for (off = 0; off < cd->num_lines; off++) {
		if (ops->line_info(chip, off, &ld)) {
			e = errno;
			msgbuf_set(err, errlen, "cannot read line %u of %s [%s]: %s", off,
				cd->name, cd->label, strerror(e));
			errno = e;
			return -1;
		}
		if (ld.name[0])
			msgbuf_add(named, sizeof(named), "%s%s", nnamed++ ? ", " : "",
				     ld.name);
		if (strcmp(ld.name, want) != 0)
			continue;
		msgbuf_add(offs, sizeof(offs), "%s%u", nmatch ? ", " : "", off);
		if (!nmatch)
			loc->offset = off;
		nmatch++;
	}
	if (nmatch > 1) {
		msgbuf_set(err, errlen, "line name \"%s\" is ambiguous: %s [%s] has %u lines "
			"of that name (offsets %s); give the offset instead", want,
			cd->name, cd->label, nmatch, offs);
		errno = EINVAL;
		return -1;
	}
	lines_named_elsewhere(ops, cd->path, want, others, sizeof(others));
	if (nmatch == 1) {
		gpio_strlcpy(loc->elsewhere, others, sizeof(loc->elsewhere));
		return 0;
	}

	msgbuf_set(err, errlen, "no line named \"%s\" on %s [%s]", want, cd->name, cd->label);
	if (nnamed)
		msgbuf_add(err, errlen, "; its line names: %s", named);
	else
		msgbuf_add(err, errlen, "; none of its %u lines has a name (older "
			     "kernels leave them unnamed): give the offset", cd->num_lines);
	if (others[0])
		msgbuf_add(err, errlen, "; a line of that name is on %s", others);
	errno = ENOENT;
	return -1;
}

/* No chip given, a line name: the one chip that has a line of that name. */
static void *chip_find_by_line(const struct gpio_ops *ops, const char *line,
			       struct gpio_location *loc, char *err, size_t errlen)
{
	struct gpio_chip_desc *chips;
	struct gpio_line_desc ld;
	char where[GPIO_MSG_MAX / 2] = "";
	int i, n, hits = 0, found = -1, denied = 0;
	unsigned int off;
	void *chip;

	n = chip_list(ops, &chips);
	if (n < 0) {
		msgbuf_set(err, errlen, "cannot list GPIO chips in %s: %s", gpio_dev_dir,
			strerror(errno));
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if (chips[i].open_errno) {
			denied += is_denied(chips[i].open_errno);
			continue;
		}
		chip = ops->chip_open(chips[i].path);
		if (!chip)
			continue;
		for (off = 0; off < chips[i].num_lines; off++) {
			if (ops->line_info(chip, off, &ld) || strcmp(ld.name, line))
				continue;
			msgbuf_add(where, sizeof(where), "%s%s [%s] line %u",
				     hits++ ? ", " : "", chips[i].name, chips[i].label, off);
			found = i;
		}
		ops->chip_close(chip);
	}
	if (hits == 1) {
		chip = chip_open_path(ops, chips[found].path, &loc->chip, err, errlen);
		free(chips);
		loc->chip_how = "line name";
		return chip;
	}
	if (hits > 1) {
		msgbuf_set(err, errlen, "line name \"%s\" is not unique: %s; give the chip too "
			"(gpio.chip, --chip)", line, where);
		errno = EINVAL;
	} else if (denied) {
		msgbuf_set(err, errlen, "permission denied: no line named \"%s\" on the chips "
			"this user may open, and %d chip%s may not be opened; ", line, denied,
			denied > 1 ? "s" : "");
		gpio_msg_permission_hint(err, errlen);
		errno = EACCES;
	} else {
		msgbuf_set(err, errlen, "no GPIO chip given, and no chip has a line named "
			"\"%s\" (gpio.chip: a label, a name such as gpiochip0, a number or "
			"a path); ", line);
		msg_chips(err, errlen, chips, n);
		errno = ENODEV;
	}
	free(chips);
	return NULL;
}

void *gpio_lookup_open(const struct gpio_ops *ops, const char *chip_want,
		       const char *line_want, struct gpio_location *loc, char *err,
		       size_t errlen)
{
	const char *want = spec_str(chip_want), *line = spec_str(line_want);
	struct gpio_chip_desc *chips;
	void *chip;
	int e, n;

	memset(loc, 0, sizeof(*loc));
	if (!*want && ops->chip_alias)
		want = ops->chip_alias;
	if (*want) {
		chip = chip_find(ops, want, loc, err, errlen);
	} else if (*line && !is_decimal(line)) {
		chip = chip_find_by_line(ops, line, loc, err, errlen);
	} else {
		msgbuf_set(err, errlen, "no GPIO chip given (gpio.chip, --chip: a label, a "
			"name such as gpiochip0, a number or a path); ");
		n = chip_list(ops, &chips);
		msg_chips(err, errlen, chips, n);
		free(chips);
		errno = EINVAL;
		chip = NULL;
	}
	if (!chip) {
		loc->failed = GPIO_STEP_CHIP;
		return NULL;
	}
	if (line_find(ops, chip, line, loc, err, errlen))
		goto err_line;
	if (ops->line_info(chip, loc->offset, &loc->line)) {
		e = errno;
		msgbuf_set(err, errlen, "cannot read line %u of %s [%s]: %s", loc->offset,
			loc->chip.name, loc->chip.label, strerror(e));
		errno = e;
		goto err_line;
	}
	return chip;

err_line:
	e = errno;
	loc->failed = GPIO_STEP_LINE;
	ops->chip_close(chip);
	errno = e;
	return NULL;
}

void *gpio_lookup_open_free(const struct gpio_ops *ops, const char *chip_want,
			    const char *line_want, struct gpio_location *loc, char *err,
			    size_t errlen)
{
	void *chip = gpio_lookup_open(ops, chip_want, line_want, loc, err, errlen);

	if (chip && loc->line.used) {
		gpio_msg_busy(err, errlen, &loc->chip, loc->offset, &loc->line);
		ops->chip_close(chip);
		errno = EBUSY;
		return NULL;
	}
	return chip;
}

void gpio_msg_busy(char *err, size_t errlen, const struct gpio_chip_desc *cd,
		   unsigned int offset, const struct gpio_line_desc *ld)
{
	if (!ld->consumer[0])
		msgbuf_set(err, errlen, "line %u of %s [%s] is busy: used by the kernel or "
			"another process (no consumer name)", offset, cd->name, cd->label);
	else if (strncmp(ld->consumer, "sqwave", 6) == 0)
		msgbuf_set(err, errlen, "line %u of %s [%s] is busy: used by \"%s\" (is "
			"another sqwave running?)", offset, cd->name, cd->label,
			ld->consumer);
	else
		msgbuf_set(err, errlen, "line %u of %s [%s] is busy: used by \"%s\"", offset,
			cd->name, cd->label, ld->consumer);
}

/* ---- public ------------------------------------------------------------------ */

int gpio_locate(enum gpio_backend backend, const struct config *cfg, const char *chip,
		const char *line, struct gpio_location *loc, char *err, size_t errlen)
{
	const struct gpio_ops *ops;
	void *c;

	ops = gpio_backend_get(backend, cfg, err, errlen);
	if (!ops) {
		memset(loc, 0, sizeof(*loc));
		loc->failed = GPIO_STEP_BACKEND;
		return -1;
	}
	c = gpio_lookup_open(ops, chip, line, loc, err, errlen);
	if (!c)
		return -1;
	ops->chip_close(c);
	return 0;
}

int gpio_chip_lines(enum gpio_backend backend, const struct config *cfg, const char *chip,
		    struct gpio_chip_desc *cd, struct gpio_line_desc **lines,
		    char *err, size_t errlen)
{
	struct gpio_location loc;
	const struct gpio_ops *ops;
	unsigned int off;
	void *c;
	int e;

	*lines = NULL;
	ops = gpio_backend_get(backend, cfg, err, errlen);
	if (!ops)
		return -1;
	memset(&loc, 0, sizeof(loc));
	c = chip_find(ops, *spec_str(chip) ? chip : spec_str(ops->chip_alias), &loc,
		      err, errlen);
	if (!c)
		return -1;
	*cd = loc.chip;
	*lines = calloc(cd->num_lines ? cd->num_lines : 1, sizeof(**lines));
	if (!*lines) {
		e = errno;
		ops->chip_close(c);
		msgbuf_set(err, errlen, "out of memory");
		errno = e;
		return -1;
	}
	for (off = 0; off < cd->num_lines; off++) {
		if (ops->line_info(c, off, &(*lines)[off])) {
			e = errno;
			msgbuf_set(err, errlen, "cannot read line %u of %s [%s]: %s", off,
				cd->name, cd->label, strerror(e));
			ops->chip_close(c);
			free(*lines);
			*lines = NULL;
			errno = e;
			return -1;
		}
	}
	ops->chip_close(c);
	return (int)cd->num_lines;
}

/* The board's inputs that no output may drive: the loopback input (wired
 * to the output pin) and respond's input (driven from outside). */
static const struct {
	enum cfg_key chip, line;
	const char *what;
} board_inputs[] = {
	{ CFG_LOOPBACK_CHIP, CFG_LOOPBACK_LINE, "the board's loopback input, wired to the output" },
	{ CFG_INPUT_CHIP, CFG_INPUT_LINE, "the board's input, driven from outside" },
};

int gpio_same_line(enum gpio_backend backend, const struct config *cfg, const char *chip_a,
		   const char *line_a, const char *chip_b, const char *line_b, unsigned int *offset,
		   char *chip_name, size_t chip_len, char *err, size_t errlen)
{
	struct gpio_location a, b;

	if (gpio_locate(backend, cfg, chip_a, line_a, &a, err, errlen) < 0 ||
	    gpio_locate(backend, cfg, chip_b, line_b, &b, err, errlen) < 0)
		return -1;
	if (a.offset != b.offset || strcmp(a.chip.path, b.chip.path))
		return 0;
	if (offset)
		*offset = a.offset;
	if (chip_name)
		snprintf(chip_name, chip_len, "%s", a.chip.name);
	return 1;
}

int gpio_outputs_on_inputs(enum gpio_backend backend, const struct config *cfg, const char *chip,
			   const char *const *lines, size_t n, char *err, size_t errlen)
{
	char why[GPIO_MSG_MAX], o1[256], o2[256], name[GPIO_NAME_MAX];
	unsigned int off;
	size_t i, k;
	int same;

	for (k = 0; k < sizeof(board_inputs) / sizeof(board_inputs[0]); k++) {
		const char *iline = config_str(cfg, board_inputs[k].line);
		const char *ichip = config_str(cfg, board_inputs[k].chip);
		struct gpio_location in;

		if (!iline[0] || gpio_locate(backend, cfg, ichip, iline, &in, why, sizeof(why)) < 0)
			continue;	/* no such input here: nothing to drive */
		for (i = 0; i < n; i++) {
			same = gpio_same_line(backend, cfg, chip, lines[i], ichip, iline, &off, name,
					      sizeof(name), why, sizeof(why));
			if (same < 0) {
				msgbuf_set(err, errlen, "%s", why);
				return -1;
			}
			if (!same)
				continue;
			msgbuf_set(err, errlen, "gpio.line (\"%s\", %s): line %s is %s (%s \"%s\", "
				   "%s): line %u of %s would be driven as an output, two outputs on "
				   "one wire on hardware; drive another line%s",
				   config_str(cfg, CFG_GPIO_LINE),
				   config_origin(cfg, CFG_GPIO_LINE, o1, sizeof(o1)), lines[i],
				   board_inputs[k].what,
				   board_inputs[k].line == CFG_LOOPBACK_LINE ? "loopback.line"
				   : "input.line", iline, config_origin(cfg, board_inputs[k].line, o2,
				   sizeof(o2)), off, name,
				   config_str(cfg, CFG_GPIO_FREE_LINES)[0]
				   ? " (gpio.free_lines lists the free ones: --line free)" : "");
			return 1;
		}
	}
	return 0;
}
