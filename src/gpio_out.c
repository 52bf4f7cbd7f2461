/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The GPIO output factory: picks the backend, finds the chip and the line the
 * same way for every backend, and turns failures into messages. */
#include "gpio_out.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpio_private.h"
#include "print.h"

const char *gpio_dev_dir = "/dev";

/* Lists in messages are cut at this size (with "..."). */
#define GPIO_MSG_MAX 1024

static const struct gpio_ops *gpio_backend_ops(enum gpio_backend backend)
{
	switch (backend) {
	case GPIO_BACKEND_GPIOD:
#ifdef SQW_GPIOD_NONE
		return NULL;
#else
		return &gpio_gpiod_ops;
#endif
	case GPIO_BACKEND_SIM:
		return &gpio_sim_ops;
	}
	return NULL;
}

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

/* Append to a message buffer; mark truncation with "...". */
static void msg_add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void msg_add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;
	int n;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n >= len - used && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

static const char *gpio_drive_name(enum gpio_drive drive)
{
	switch (drive) {
	case GPIO_DRIVE_PUSH_PULL:
		return "push-pull";
	case GPIO_DRIVE_OPEN_DRAIN:
		return "open-drain";
	case GPIO_DRIVE_OPEN_SOURCE:
		return "open-source";
	}
	return "?";
}

static const char *spec_str(const char *s)
{
	return s ? s : "";
}

static void msg_permission_hint(char *buf, size_t len)
{
	msg_add(buf, len, "run sqwave as root, or give your user access: add it to "
		"the group that owns %s/gpiochip* (often \"gpio\"), or install a "
		"udev rule such as SUBSYSTEM==\"gpio\", KERNEL==\"gpiochip*\", "
		"GROUP=\"gpio\", MODE=\"0660\"", gpio_dev_dir);
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
 * with open_errno set, so that the "not found" message can say why. */
static int dev_chip_list(const struct gpio_ops *ops,
			 const struct gpio_out_spec *spec,
			 struct gpio_chip_desc **out)
{
	struct gpio_chip_desc *chips;
	struct dirent **ents;
	int i, n, count = 0;
	void *chip;

	*out = NULL;
	n = scandir(gpio_dev_dir, &ents, is_gpiochip_name, gpiochip_cmp);
	if (n < 0)
		return errno == ENOENT ? 0 : -1;
	chips = calloc(n ? n : 1, sizeof(*chips));
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
		chip = ops->chip_open(spec, path);
		if (!chip) {
			if (errno == ENOTTY || errno == ENODEV || errno == ENOENT)
				continue; /* not a GPIO chip, or gone */
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

static int chip_list(const struct gpio_ops *ops, const struct gpio_out_spec *spec,
		     struct gpio_chip_desc **chips)
{
	if (ops->chip_list)
		return ops->chip_list(spec, chips);
	return dev_chip_list(ops, spec, chips);
}

/* "gpiochip0 [GPIOA], gpiochip1 [GPIOB]", or why there are none. */
static void msg_chips(char *buf, size_t len, const struct gpio_chip_desc *chips,
		      int n)
{
	int i, denied = 0;

	if (n <= 0) {
		msg_add(buf, len, "no GPIO chips found (is the GPIO character "
			"device enabled in this kernel?)");
		return;
	}
	msg_add(buf, len, "chips present: ");
	for (i = 0; i < n; i++) {
		if (chips[i].open_errno) {
			msg_add(buf, len, "%s%s [cannot open: %s]", i ? ", " : "",
				chips[i].name, strerror(chips[i].open_errno));
			if (chips[i].open_errno == EACCES ||
			    chips[i].open_errno == EPERM)
				denied++;
		} else {
			msg_add(buf, len, "%s%s [%s]", i ? ", " : "",
				chips[i].name, chips[i].label);
		}
	}
	if (denied) {
		msg_add(buf, len, "; to read the labels of the chips you may not "
			"open, ");
		msg_permission_hint(buf, len);
	}
}

/* ---- chip lookup ----------------------------------------------------------- */

static void report_chip_missing(const struct gpio_ops *ops,
				const struct gpio_out_spec *spec,
				const char *want, const char *why)
{
	struct gpio_chip_desc *chips;
	char msg[GPIO_MSG_MAX] = "";
	int n;

	n = chip_list(ops, spec, &chips);
	msg_chips(msg, sizeof(msg), chips, n);
	pr_err("GPIO chip \"%s\"%s: %s", want, why, msg);
	free(chips);
}

static void *chip_open_path(const struct gpio_ops *ops,
			    const struct gpio_out_spec *spec, const char *path,
			    struct gpio_chip_desc *cd)
{
	char msg[GPIO_MSG_MAX] = "";
	void *chip;
	int err;

	chip = ops->chip_open(spec, path);
	if (!chip) {
		err = errno;
		switch (err) {
		case ENOENT:
			report_chip_missing(ops, spec, path, " does not exist");
			break;
		case ENOTTY:
		case ENODEV:
			pr_err("%s is not a GPIO chip (not a gpiochip character device)",
			       path);
			break;
		case EACCES:
		case EPERM:
			msg_permission_hint(msg, sizeof(msg));
			pr_err("cannot open GPIO chip %s: %s; %s", path,
			       strerror(err), msg);
			break;
		default:
			pr_err("cannot open GPIO chip %s: %s", path, strerror(err));
			break;
		}
		errno = err;
		return NULL;
	}
	memset(cd, 0, sizeof(*cd));
	if (ops->chip_info(chip, cd)) {
		err = errno;
		pr_err("cannot read chip info of %s: %s", path, strerror(err));
		ops->chip_close(chip);
		errno = err;
		return NULL;
	}
	gpio_strlcpy(cd->path, path, sizeof(cd->path));
	return chip;
}

/* spec->chip is a path (has a '/'), a chip name ("gpiochip0"), a label, or the
 * backend's alias ("sim"). Names win over labels; a label two chips share is
 * an error. */
static void *chip_find(const struct gpio_ops *ops, const struct gpio_out_spec *spec,
		       struct gpio_chip_desc *cd)
{
	const char *want = spec_str(spec->chip);
	struct gpio_chip_desc *chips;
	char msg[GPIO_MSG_MAX] = "";
	int i, n, found = -1, nlabel = 0;
	void *chip = NULL;

	if (!*want && ops->chip_alias)
		want = ops->chip_alias;
	if (strchr(want, '/')) {
		if (strlen(want) >= sizeof(cd->path)) {
			pr_err("GPIO chip path \"%s\" is too long", want);
			errno = ENAMETOOLONG;
			return NULL;
		}
		return chip_open_path(ops, spec, want, cd);
	}

	n = chip_list(ops, spec, &chips);
	if (n < 0) {
		pr_err("cannot list GPIO chips in %s: %s", gpio_dev_dir,
		       strerror(errno));
		return NULL;
	}
	if (!*want) {
		msg_chips(msg, sizeof(msg), chips, n);
		pr_err("no GPIO chip given (gpio.chip: a label, a name such as "
		       "gpiochip0, or a path); %s", msg);
		free(chips);
		errno = EINVAL;
		return NULL;
	}
	if (ops->chip_alias && n == 1 && strcmp(want, ops->chip_alias) == 0)
		found = 0;
	for (i = 0; found < 0 && i < n; i++)
		if (strcmp(chips[i].name, want) == 0)
			found = i;
	for (i = 0; found < 0 && i < n; i++) {
		if (chips[i].open_errno || strcmp(chips[i].label, want) != 0)
			continue;
		msg_add(msg, sizeof(msg), "%s%s", nlabel ? ", " : "", chips[i].name);
		nlabel++;
	}
	if (nlabel == 1) {
		for (i = 0; i < n; i++)
			if (!chips[i].open_errno && strcmp(chips[i].label, want) == 0)
				found = i;
	} else if (nlabel > 1) {
		pr_err("GPIO chip label \"%s\" is ambiguous: chips %s all have it; "
		       "give the chip name or path instead", want, msg);
		free(chips);
		errno = EINVAL;
		return NULL;
	}

	if (found < 0) {
		msg_chips(msg, sizeof(msg), chips, n);
		pr_err("GPIO chip \"%s\" not found: %s", want, msg);
		free(chips);
		errno = ENODEV;
		return NULL;
	}
	/* A chip found by name that could not be opened fails again here,
	 * and chip_open_path() says why. */
	chip = chip_open_path(ops, spec, chips[found].path, cd);
	free(chips);
	return chip;
}

/* ---- line lookup ----------------------------------------------------------- */

static int is_decimal(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* For "no line named X here": where else a line of that name is. */
static void msg_other_chips_with_line(const struct gpio_ops *ops,
				      const struct gpio_out_spec *spec,
				      const struct gpio_chip_desc *here,
				      const char *name, char *buf, size_t len)
{
	struct gpio_chip_desc *chips;
	struct gpio_line_desc ld;
	int i, n, hits = 0;
	unsigned int off;
	void *chip;

	n = chip_list(ops, spec, &chips);
	for (i = 0; i < n; i++) {
		if (chips[i].open_errno || strcmp(chips[i].path, here->path) == 0)
			continue;
		chip = ops->chip_open(spec, chips[i].path);
		if (!chip)
			continue;
		for (off = 0; off < chips[i].num_lines; off++) {
			if (ops->line_info(chip, off, &ld) || strcmp(ld.name, name))
				continue;
			msg_add(buf, len, "%s%s [%s] line %u",
				hits++ ? ", " : "; a line of that name is on ",
				chips[i].name, chips[i].label, off);
		}
		ops->chip_close(chip);
	}
	free(chips);
}

static int line_find(const struct gpio_ops *ops, const struct gpio_out_spec *spec,
		     void *chip, const struct gpio_chip_desc *cd,
		     unsigned int *offset)
{
	const char *want = spec_str(spec->line);
	char named[GPIO_MSG_MAX / 2] = "";
	char msg[GPIO_MSG_MAX] = "";
	unsigned int off, nmatch = 0, nnamed = 0;
	struct gpio_line_desc ld;
	unsigned long v;
	int err;

	if (!*want) {
		pr_err("no GPIO line given (gpio.line: an offset on %s [%s], which "
		       "has %u lines, or a line name)", cd->name, cd->label,
		       cd->num_lines);
		errno = EINVAL;
		return -1;
	}
	if (is_decimal(want)) {
		errno = 0;
		v = strtoul(want, NULL, 10);
		if (errno || v >= cd->num_lines) {
			if (cd->num_lines)
				pr_err("line %s is out of range: %s [%s] has %u lines "
				       "(offsets 0..%u)", want, cd->name, cd->label,
				       cd->num_lines, cd->num_lines - 1);
			else
				pr_err("line %s is out of range: %s [%s] has no lines",
				       want, cd->name, cd->label);
			errno = EINVAL;
			return -1;
		}
		*offset = v;
		return 0;
	}

	for (off = 0; off < cd->num_lines; off++) {
		if (ops->line_info(chip, off, &ld)) {
			err = errno;
			pr_err("cannot read line %u of %s [%s]: %s", off, cd->name,
			       cd->label, strerror(err));
			errno = err;
			return -1;
		}
		if (ld.name[0])
			msg_add(named, sizeof(named), "%s%s", nnamed++ ? ", " : "",
				ld.name);
		if (strcmp(ld.name, want) != 0)
			continue;
		msg_add(msg, sizeof(msg), "%s%u", nmatch ? ", " : "", off);
		if (!nmatch)
			*offset = off;
		nmatch++;
	}
	if (nmatch == 1)
		return 0;
	if (nmatch > 1) {
		pr_err("line name \"%s\" is ambiguous: %s [%s] has %u lines of "
		       "that name (offsets %s); give the offset instead", want,
		       cd->name, cd->label, nmatch, msg);
		errno = EINVAL;
		return -1;
	}

	if (nnamed)
		msg_add(msg, sizeof(msg), "; its line names: %s", named);
	else
		msg_add(msg, sizeof(msg), "; none of its %u lines has a name "
			"(older kernels leave them unnamed): give the offset",
			cd->num_lines);
	msg_other_chips_with_line(ops, spec, cd, want, msg, sizeof(msg));
	pr_err("no line named \"%s\" on %s [%s]%s", want, cd->name, cd->label, msg);
	errno = ENOENT;
	return -1;
}

/* ---- request ----------------------------------------------------------------- */

static void report_busy(const struct gpio_chip_desc *cd, unsigned int offset,
			const struct gpio_line_desc *ld)
{
	if (!ld->consumer[0])
		pr_err("line %u of %s [%s] is busy: used by the kernel or another "
		       "process (no consumer name)", offset, cd->name, cd->label);
	else if (strcmp(ld->consumer, "sqwave") == 0)
		pr_err("line %u of %s [%s] is busy: used by \"%s\" (is another "
		       "sqwave running?)", offset, cd->name, cd->label,
		       ld->consumer);
	else
		pr_err("line %u of %s [%s] is busy: used by \"%s\"", offset,
		       cd->name, cd->label, ld->consumer);
}

static void report_request_error(const struct gpio_ops *ops, void *chip,
				 const struct gpio_out_spec *spec,
				 const struct gpio_chip_desc *cd,
				 unsigned int offset, int err)
{
	char msg[GPIO_MSG_MAX] = "";
	struct gpio_line_desc ld;

	switch (err) {
	case EBUSY:
		/* Taken between our look and our request: name the new holder. */
		if (ops->line_info(chip, offset, &ld) || !ld.used)
			memset(&ld, 0, sizeof(ld));
		report_busy(cd, offset, &ld);
		break;
	case EACCES:
	case EPERM:
		msg_permission_hint(msg, sizeof(msg));
		pr_err("cannot request line %u of %s [%s]: %s; %s", offset,
		       cd->name, cd->label, strerror(err), msg);
		break;
	case EINVAL:
	case EOPNOTSUPP:
		if (spec->drive != GPIO_DRIVE_PUSH_PULL) {
			pr_err("cannot request line %u of %s [%s] as an %s output: "
			       "%s (does the driver support %s?)", offset, cd->name,
			       cd->label, gpio_drive_name(spec->drive),
			       strerror(err), gpio_drive_name(spec->drive));
			break;
		}
		/* fall through */
	default:
		pr_err("cannot request line %u of %s [%s] as an output: %s",
		       offset, cd->name, cd->label, strerror(err));
		break;
	}
}

static void gpio_out_make_desc(struct gpio_out *g)
{
	char *buf = g->desc;
	size_t len = sizeof(g->desc);

	buf[0] = '\0';
	msg_add(buf, len, "%s [%s] line %u", g->chip_desc.name,
		g->chip_desc.label, g->offset);
	if (g->line_name[0])
		msg_add(buf, len, " \"%s\"", g->line_name);
	if (g->active_low)
		msg_add(buf, len, ", active-low");
	if (g->drive != GPIO_DRIVE_PUSH_PULL)
		msg_add(buf, len, ", %s", gpio_drive_name(g->drive));
	if (g->ops->describe) {
		size_t used = strlen(buf);

		g->ops->describe(g, buf + used, len - used);
	}
}

struct gpio_out *gpio_out_open(const struct gpio_out_spec *spec)
{
	struct gpio_out_spec s;
	const struct gpio_ops *ops;
	struct gpio_chip_desc cd;
	struct gpio_line_desc ld;
	unsigned int offset;
	struct gpio_out *g;
	void *chip;
	int err;

	assert(spec);
	s = *spec;
	s.idle_level = !!s.idle_level;
	s.active_low = !!s.active_low;
	if (!s.consumer || !*s.consumer)
		s.consumer = "sqwave";

	ops = gpio_backend_ops(s.backend);
	if (!ops) {
		pr_err("GPIO backend \"gpiod\": this sqwave was built without "
		       "libgpiod; use the simulated backend (gpio.backend: sim), "
		       "or install the libgpiod development files (v1 or v2) and "
		       "rebuild");
		errno = ENOTSUP;
		return NULL;
	}
	if (ops->check_spec && ops->check_spec(&s))
		return NULL;

	chip = chip_find(ops, &s, &cd);
	if (!chip)
		return NULL;
	if (line_find(ops, &s, chip, &cd, &offset))
		goto err_chip;
	if (ops->line_info(chip, offset, &ld)) {
		err = errno;
		pr_err("cannot read line %u of %s [%s]: %s", offset, cd.name,
		       cd.label, strerror(err));
		errno = err;
		goto err_chip;
	}
	if (ld.used) {
		report_busy(&cd, offset, &ld);
		errno = EBUSY;
		goto err_chip;
	}

	g = ops->request(chip, offset, &s);
	if (!g) {
		err = errno;
		report_request_error(ops, chip, &s, &cd, offset, err);
		errno = err;
		goto err_chip;
	}
	g->ops = ops;
	g->chip = chip;
	g->offset = offset;
	g->idle_level = s.idle_level;
	g->active_low = s.active_low;
	g->drive = s.drive;
	g->chip_desc = cd;
	gpio_strlcpy(g->line_name, ld.name, sizeof(g->line_name));
	gpio_out_make_desc(g);
	pr_debug("output line: %s", g->desc);
	return g;

err_chip:
	err = errno;
	ops->chip_close(chip);
	errno = err;
	return NULL;
}

int gpio_out_set(struct gpio_out *g, int level)
{
	return g->ops->set(g, level != 0);
}

void gpio_out_close(struct gpio_out *g)
{
	const struct gpio_ops *ops;
	void *chip;

	if (!g)
		return;
	ops = g->ops;
	chip = g->chip;
	if (ops->set(g, g->idle_level))
		pr_warn("could not restore the idle level of %s: %s", g->desc,
			strerror(errno));
	ops->release(g);
	ops->chip_close(chip);
}

const char *gpio_out_describe(const struct gpio_out *g)
{
	return g->desc;
}

const char *gpio_out_gpiod_api(void)
{
#ifdef SQW_GPIOD_NONE
	return "none";
#else
	return gpio_gpiod_ops.name;
#endif
}
