/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer entry point for the YAML loader: any bytes, as a board file and as
 * a profile, through the real file path (a memfd). Build, for example:
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Isrc/board -Isrc/lab -Isrc \
 *     tests/fuzz/fuzz_yamlcfg.c src/board/config/yamlcfg.c src/board/config/config.c src/board/base/units.c -lyaml
 *   ./a.out -max_len=4096 boards/ config/ tests/data/yaml/
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config/config.h"
#include "config/yamlcfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_one(const uint8_t *data, size_t size, enum cfg_source src)
{
	char path[64], err[1024], buf[256];
	struct config *c;
	size_t off = 0;
	int fd, k;

	fd = memfd_create("fuzz.yaml", MFD_CLOEXEC);
	if (fd < 0)
		return;
	while (off < size) {
		ssize_t n = write(fd, data + off, size - off);

		if (n <= 0)
			break;
		off += (size_t)n;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	c = config_new();
	if (c) {
		enum yamlcfg_result r = yamlcfg_load(c, path, src, err, sizeof(err));

		/* Every error is one non-empty message that names the file. */
		if (r != YAMLCFG_OK) {
			assert(err[0] && !strncmp(err, path, strlen(path)));
			assert(!strchr(err, '\n'));
		}
		/* Whatever was loaded must format and check without trouble. */
		for (k = 0; k < CFG_NKEYS; k++)
			config_format(c, (enum cfg_key)k, buf, sizeof(buf));
		(void)config_check_required(c, err, sizeof(err));
		config_free(c);
	}
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_one(data, size, CFG_SRC_BOARD);
	fuzz_one(data, size, CFG_SRC_PROFILE);
	return 0;
}
