# SPDX-License-Identifier: GPL-2.0-or-later
# sqwave: the libFuzzer targets: fuzz, fuzz-long, fuzz-build.
# Included by the Makefile, after its build variables and rules.

.PHONY: fuzz fuzz-long fuzz-build

# libFuzzer targets (tests/fuzz/fuzz_*.c) against a clang ASan+UBSan build of
# the library; each runs FUZZ_SECONDS (CI: briefly). Seeds: the repo's own
# test data and tests/fuzz/seeds/, read only; the corpus is a scratch
# directory, never the tree (tests/fuzz/guard.c refuses one inside it).
# make fuzz-long: FUZZ_LONG_SECONDS per target (default 5 minutes), the corpus
# kept between runs in FUZZ_CORPUS (default build-fuzz/corpus/TARGET), run
# before a parser or escaper change is called done (docs/testing.md).
# FUZZ_TARGETS picks targets, e.g. FUZZ_TARGETS=fuzz_yamlcfg.
FUZZ_SECONDS ?= 10
FUZZ_LONG_SECONDS ?= 300
FUZZ_CORPUS ?= build-fuzz/corpus
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_TARGETS ?= $(FUZZ_SRCS:tests/fuzz/%.c=%)
FUZZ_BINS = $(FUZZ_TARGETS:%=build-fuzz/%)
fuzz-build:
	@scripts/install-deps clang libclang-rt-14-dev
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang GPIOD=none \
		OPT="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" \
		build-fuzz/libsqwave-lab.a build-fuzz/libsqwave-board.a
	@for n in $(FUZZ_TARGETS); do \
		clang -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
			-std=c11 -D_GNU_SOURCE -Isrc/board -Isrc/lab -Isrc -DSQW_FUZZ_TREE='"$(CURDIR)"' -o build-fuzz/$$n \
			tests/fuzz/$$n.c tests/fuzz/guard.c build-fuzz/libsqwave-lab.a \
			build-fuzz/libsqwave-board.a $(LIBS) || exit 1; \
	done

fuzz: fuzz-build
	@scripts/run-fuzz $(FUZZ_SECONDS) $(FUZZ_BINS)

fuzz-long: fuzz-build
	@FUZZ_CORPUS=$(FUZZ_CORPUS) scripts/run-fuzz $(FUZZ_LONG_SECONDS) $(FUZZ_BINS)
