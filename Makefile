# SPDX-License-Identifier: GPL-2.0-or-later
# sqwave build. `make run` and `make test` install what is missing first.

VERSION      := 0.1.0
CROSS_COMPILE ?=
# CC and AR given on the command line or in the environment (Debian's and
# Yocto's builds set them) win; else the CROSS_COMPILE toolchain's.
ifeq ($(origin CC),default)
CC           := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR           := $(CROSS_COMPILE)ar
endif
STRIP        ?= $(CROSS_COMPILE)strip
PKG_CONFIG   ?= pkg-config
BUILD        ?= build

# Where `make install` puts things (docs/packaging.md). The board and
# profile files go to $(PREFIX)/share/sqwave, where sqwave looks for short
# names (SQW_DATADIR): build and install with the same PREFIX. BOARD=1
# installs the board build.
PREFIX       ?= /usr/local
DESTDIR      ?=
BINDIR       ?= $(PREFIX)/bin
MANDIR       ?= $(PREFIX)/share/man
DOCDIR       ?= $(PREFIX)/share/doc/sqwave
SQWDATADIR   := $(PREFIX)/share/sqwave
BASHCOMPDIR  ?= $(PREFIX)/share/bash-completion/completions
SYSCONFDIR   ?= /etc
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
PTESTDIR     ?= $(PREFIX)/lib/sqwave/ptest
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
SYSUSERSDIR  ?= $(PREFIX)/lib/sysusers.d

# Cross-building against a target sysroot: SYSROOT=DIR (tests/vm builds
# one). pkg-config then reads only the sysroot's .pc files and prefixes the
# paths it gives with DIR; a sysroot with its own C library headers is the
# compiler's --sysroot too, one without (Debian's cross toolchain brings
# the C library) only provides the libraries sqwave needs.
SYSROOT      ?=
ifneq ($(SYSROOT),)
SYSROOT_ABS  := $(abspath $(SYSROOT))
SYSROOT_ARCH := $(shell $(CC) -dumpmachine 2>/dev/null)
PKGCONF      := PKG_CONFIG_SYSROOT_DIR=$(SYSROOT_ABS) PKG_CONFIG_PATH= \
	PKG_CONFIG_LIBDIR=$(SYSROOT_ABS)/usr/lib/$(SYSROOT_ARCH)/pkgconfig:$(SYSROOT_ABS)/usr/lib/pkgconfig:$(SYSROOT_ABS)/usr/share/pkgconfig \
	PKG_CONFIG_SYSTEM_INCLUDE_PATH=/nonexistent PKG_CONFIG_SYSTEM_LIBRARY_PATH=/nonexistent $(PKG_CONFIG)
SYSROOT_FLAGS := $(if $(wildcard $(SYSROOT_ABS)/usr/include/stdio.h),--sysroot=$(SYSROOT_ABS))
else
PKGCONF      := $(PKG_CONFIG)
SYSROOT_FLAGS :=
endif

# libgpiod API: v2 if pkg-config finds libgpiod >= 2, else v1, else none
# (simulated backend only). Override with GPIOD=v1|v2|none.
GPIOD ?= $(shell if $(PKGCONF) --atleast-version=2 libgpiod 2>/dev/null; then echo v2; \
	elif $(PKGCONF) --exists libgpiod 2>/dev/null; then echo v1; else echo none; fi)

WARN     := -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes -Wstrict-prototypes \
	    -Wno-missing-field-initializers
# The flags sqwave needs come first; CFLAGS from the command line or the
# environment (a distribution's "-g -O2 -fstack-protector-strong ...")
# follow and win where they differ. Without any CFLAGS, OPT optimises,
# with glibc's checked string functions as Debian's and Yocto's builds
# have them (an snprintf told a larger size than its buffer aborts in
# make check, not first in the package build).
ifeq ($(origin CFLAGS),undefined)
OPT      ?= -O2 -g -D_FORTIFY_SOURCE=2
else
OPT      ?=
endif
# 64-bit file offsets and time_t on 32-bit targets too (logs > 2 GiB, y2038).
override CFLAGS := $(OPT) -std=c11 -iquote src/board -iquote src/lab -iquote src -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 $(WARN) \
	    -pthread -MMD -MP -DSQW_VERSION='"$(VERSION)"' -DSQW_DATADIR='"$(SQWDATADIR)"' \
	    $(SYSROOT_FLAGS) $(EXTRA_CFLAGS) $(CFLAGS)
override LDFLAGS := $(SYSROOT_FLAGS) $(LDFLAGS)
ifeq ($(WERROR),1)
override CFLAGS   += -Werror
endif
ifeq ($(SAN),1)
override CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
override LDFLAGS  += -fsanitize=address,undefined
endif

YAML_CFLAGS := $(shell $(PKGCONF) --cflags yaml-0.1 2>/dev/null)
YAML_LIBS   := $(shell $(PKGCONF) --libs yaml-0.1 2>/dev/null || echo -lyaml)
ifeq ($(GPIOD),none)
GPIOD_CFLAGS := -DSQW_GPIOD_NONE
GPIOD_LIBS   :=
else
GPIOD_CFLAGS := $(shell $(PKGCONF) --cflags libgpiod 2>/dev/null) -DSQW_GPIOD_$(GPIOD)
GPIOD_LIBS   := $(shell $(PKGCONF) --libs libgpiod 2>/dev/null || echo -lgpiod)
endif
CMOCKA_LIBS := $(shell $(PKGCONF) --libs cmocka 2>/dev/null || echo -lcmocka)
# zlib: inflate for sigrok .sr sessions (src/lab/capture/capture_sr.c): the
# lab's alone, so that the board build links without it
ZLIB_CFLAGS := $(shell $(PKGCONF) --cflags zlib 2>/dev/null)
ZLIB_LIBS   := $(shell $(PKGCONF) --libs zlib 2>/dev/null || echo -lz)

# libsigrok >= 0.5 (Debian: libsigrok-dev) drives analyzers for `sqwave
# capture` (src/lab/instrument/sigrok_session.c), the lab's alone; without it
# (or SIGROK=no) everything else builds and capture says how to get it.
SIGROK ?= $(shell $(PKGCONF) --atleast-version=0.5 libsigrok 2>/dev/null && echo yes || echo no)
ifeq ($(SIGROK),yes)
SIGROK_CFLAGS := $(shell $(PKGCONF) --cflags libsigrok 2>/dev/null) -DSQW_HAVE_LIBSIGROK
SIGROK_LIBS   := $(shell $(PKGCONF) --libs libsigrok 2>/dev/null)
endif

override CFLAGS += $(YAML_CFLAGS) $(GPIOD_CFLAGS) $(ZLIB_CFLAGS)
LIBS   := $(YAML_LIBS) $(GPIOD_LIBS) $(ZLIB_LIBS) $(SIGROK_LIBS) -lm -pthread
BOARD_LIBS := $(YAML_LIBS) $(GPIOD_LIBS) -lm -pthread

# Two houses on one log (docs/design.md): src/board/ (what runs on the
# device under test) and src/lab/ (what judges on the bench), each a stack
# of floors (src/HOUSE/FLOOR/*.c) that include their own folder and the
# floors below; the lab builds on the board, never the other way round
# (scripts/check-layers). Headers are named by their floor ("base/msgbuf.h"):
# both houses are include roots. The board is libsqwave-board.a, less the
# libgpiod backend the build did not pick; the lab libsqwave-lab.a; cmd/ (the
# commands, their option parsing and messages) is libsqwave-cmd.a, linked
# only into the binary and the tests. Each library must link on its own
# ($(BUILD)/lib-closed): a board module calling into the lab or cmd/, or a
# lab module calling into cmd/, fails to build.
BOARD_FLOORS := base config gpio log rt loads stats summary run check
LAB_FLOORS   := capture instrument compare report pictures
GPIOD_SKIP := $(filter-out src/board/gpio/gpio_gpiod$(subst v,,$(GPIOD)).c,src/board/gpio/gpio_gpiod1.c src/board/gpio/gpio_gpiod2.c)
BOARD_SRCS := $(filter-out $(GPIOD_SKIP),$(foreach f,$(BOARD_FLOORS),$(wildcard src/board/$(f)/*.c)))
LAB_SRCS   := $(foreach f,$(LAB_FLOORS),$(wildcard src/lab/$(f)/*.c))
BOARD_OBJS := $(BOARD_SRCS:src/%.c=$(BUILD)/%.o)
LAB_OBJS   := $(LAB_SRCS:src/%.c=$(BUILD)/%.o)
LIB_OBJS  := $(BOARD_OBJS) $(LAB_OBJS)
CMD_SRCS  := $(wildcard src/cmd/*.c)
CMD_OBJS  := $(CMD_SRCS:src/%.c=$(BUILD)/%.o)
LIBS_ALL   = $(BUILD)/libsqwave-cmd.a $(BUILD)/libsqwave-lab.a $(BUILD)/libsqwave-board.a
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

# The board build (make BOARD=1; docs/packaging.md): the board library and
# the commands less the lab's (LAB_CMDS: src/cmd/cmd_NAME*.c), compiled with
# SQW_BOARD_BUILD and without the lab's include root, into $(BB): no capture,
# compare, report or SVG code, and no zlib. It links $(BUILD)'s board library,
# so beside the full build it costs its commands alone. BOARD=1 makes it what
# all, docs, install, unit-build, unit and install-ptest build: the unit
# tests then are those that use no lab header (BB_UNIT_BINS).
BOARD    ?=
LAB_CMDS := capture compare report scope
BB       := $(BUILD)/board-build
BB_CMD_SRCS := $(filter-out $(LAB_CMDS:%=src/cmd/cmd_%%),$(CMD_SRCS))
BB_CMD_OBJS := $(BB_CMD_SRCS:src/%.c=$(BB)/%.o)
BB_CFLAGS    = $(subst -iquote src/lab ,,$(CFLAGS)) -DSQW_BOARD_BUILD
LAB_UNIT_SRCS := $(shell grep -lE '^\#include "((capture|instrument|compare|report|pictures)/|cmd/sources\.h|capture_test_util\.h)' $(UNIT_SRCS))
BB_UNIT_BINS := $(patsubst tests/unit/%.c,$(BB)/tests/%,$(filter-out $(LAB_UNIT_SRCS),$(UNIT_SRCS)))
ifeq ($(BOARD),1)
OUT       := $(BB)
UNIT_BINS := $(BB_UNIT_BINS)
else
OUT       := $(BUILD)
endif

.PHONY: all clean deps run test unit e2e layers check check-unit e2e-smoke check-san valgrind help docs oracle \
	unit-build test-nosigrok
all: $(OUT)/sqwave

help:
	@echo "make            build $(BUILD)/sqwave (libgpiod API: $(GPIOD))"
	@echo "make BOARD=1    the board build, $(BB)/sqwave: no captures, compare, report, SVG or zlib"
	@echo "make run        install missing deps, build, 10 s on the simulated board"
	@echo "make check      the fast tier, before every commit: layer rule (includes and calls),"
	@echo "                function length, -j build, unit tests, e2e smoke set"
	@echo "make test       install missing deps, the full suite: unit, end-to-end, install, Yocto parse, QEMU board, LAVA job"
	@echo "make e2e        every end-to-end script; T=NAME one (T=soak, T=hostile/logs, T=run-all),"
	@echo "                T=NAME:REGEX its tests whose name matches (T=soak:phases); several: T='a b:c'"
	@echo "make check-san  unit tests under ASan+UBSan    make valgrind  unit tests under valgrind"
	@echo "make test-nosigrok  the build without libsigrok (SIGROK=no, build-nosigrok): unit, and the"
	@echo "                e2e of what it changes (capture refuses, exit 2, saying how to get it)"
	@echo "make oracle     every figure against the simulated pins, SEED=N N=COUNT combinations"
	@echo "make fuzz       libFuzzer targets, FUZZ_SECONDS each (corpus outside the tree)"
	@echo "make fuzz-long  FUZZ_LONG_SECONDS each, corpus kept in FUZZ_CORPUS: before a parser change is done"
	@echo "make bench      benchmark against cyclictest (docs/benchmarks.md)"
	@echo "make install    PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) (install-strip, uninstall; docs/packaging.md)"
	@echo "make deb        the Debian package (libgpiod 2.x and 1.6): build, lintian, install"
	@echo "make yocto      contrib/meta-sqwave's recipe replayed for armhf, run-ptest under QEMU"
	@echo "make test-lava  a real LAVA job (lava-run) of contrib/lava/sqwave.yaml on the QEMU board"
	@echo "cross-build     make CROSS_COMPILE=arm-linux-gnueabihf- SYSROOT=DIR"

# Objects depend on the flags they were built with: a change of CFLAGS,
# CROSS_COMPILE or GPIOD rebuilds them (the file changes only when they do).
BUILD_FLAGS := $(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(LIBS)
ifneq ($(BUILD_FLAGS),$(file < $(BUILD)/flags))
$(shell mkdir -p $(BUILD))
$(file > $(BUILD)/flags,$(BUILD_FLAGS))
endif

$(BUILD)/%.o: src/%.c $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# libsigrok's headers (and glib's) for the one file that uses them
$(BUILD)/lab/instrument/sigrok_session.o: src/lab/instrument/sigrok_session.c $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SIGROK_CFLAGS) -c -o $@ $<

$(BUILD)/libsqwave-board.a: $(BOARD_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libsqwave-lab.a: $(LAB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libsqwave-cmd.a: $(CMD_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# Every object of the board, linked with nothing but its libraries (no
# zlib), then the lab with the board: an undefined symbol (the board calling
# the lab or a command, or zlib; the lab calling a command) fails here.
$(BUILD)/lib-closed-board: $(BUILD)/libsqwave-board.a
	@printf 'int main(void) { return 0; }\n' > $@.c
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $@.c -Wl,--whole-archive $(BUILD)/libsqwave-board.a \
		-Wl,--no-whole-archive $(BOARD_LIBS)

$(BUILD)/lib-closed: $(BUILD)/lib-closed-board $(BUILD)/libsqwave-lab.a
	@printf 'int main(void) { return 0; }\n' > $@.c
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $@.c -Wl,--whole-archive $(BUILD)/libsqwave-lab.a \
		$(BUILD)/libsqwave-board.a -Wl,--no-whole-archive $(LIBS)

$(BUILD)/sqwave: $(BUILD)/main.o $(LIBS_ALL) $(BUILD)/lib-closed
	$(CC) $(LDFLAGS) -o $@ $(BUILD)/main.o $(LIBS_ALL) $(LIBS)

# One cmocka binary per module; unit tests may include the module's .c to see
# its internals, and link the libraries for the rest.
$(BUILD)/tests/%: tests/unit/%.c $(LIBS_ALL) $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-missing-prototypes $(LDFLAGS) -o $@ $< \
		$(LIBS_ALL) $(CMOCKA_LIBS) $(LIBS)

# The board build: its commands, the binary and the unit tests, on $(BUILD)'s
# board library.
$(BB)/%.o: src/%.c $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(BB_CFLAGS) -c -o $@ $<

$(BB)/libsqwave-cmd.a: $(BB_CMD_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BB)/sqwave: $(BB)/main.o $(BB)/libsqwave-cmd.a $(BUILD)/libsqwave-board.a $(BUILD)/lib-closed-board
	$(CC) $(LDFLAGS) -o $@ $(BB)/main.o $(BB)/libsqwave-cmd.a $(BUILD)/libsqwave-board.a $(BOARD_LIBS)

# zlib is the oracle of a few board tests (crc32, gunzip: what zlib makes),
# never the binary's.
$(BB)/tests/%: tests/unit/%.c $(BB)/libsqwave-cmd.a $(BUILD)/libsqwave-board.a $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(BB_CFLAGS) -Wno-missing-prototypes $(LDFLAGS) -o $@ $< \
		$(BB)/libsqwave-cmd.a $(BUILD)/libsqwave-board.a $(CMOCKA_LIBS) $(BOARD_LIBS) $(ZLIB_LIBS)

deps:
	@scripts/install-deps

unit: $(UNIT_BINS)
	@scripts/run-unit-tests $(UNIT_BINS)

# The unit test binaries, built and not run (make check, install-ptest).
unit-build: $(UNIT_BINS)

# EEMBC CoreMark for the soak tests: an unmodified copy from ../shared/vendor,
# built inside the build directory (never copied into the project). Absent
# ../shared: the CoreMark cases say they are skipped.
SHARED ?= ../shared
COREMARK := $(BUILD)/coremark/coremark.exe
$(COREMARK):
	@if [ -d $(SHARED)/vendor/coremark ]; then \
		rm -rf $(BUILD)/coremark && mkdir -p $(BUILD) && \
		cp -r $(SHARED)/vendor/coremark $(BUILD)/coremark && \
		$(MAKE) --no-print-directory -s -C $(BUILD)/coremark compile PORT_DIR=linux \
			CC=$(CC) > $(BUILD)/coremark.build.log 2>&1 || \
		{ cat $(BUILD)/coremark.build.log; exit 1; }; \
	fi

# T picks scripts and tests (tests/e2e/run-all: E2E_ONLY); empty, all.
# Both builds, each with its docs: tests/e2e/board_build.sh runs the board's.
# E2E_SIGROK (yes or no; by default this build's SIGROK) is what
# tests/e2e/capture.sh holds the binary's --version to: a test of one build
# never passes on the other's.
T ?=
E2E_SIGROK ?= $(SIGROK)
e2e: $(COREMARK)
	@$(MAKE) --no-print-directory BOARD= all docs
	@$(MAKE) --no-print-directory BOARD=1 all docs
	@E2E_ONLY='$(T)' SQWAVE=$(BUILD)/sqwave SQWAVE_BOARD=$(BB)/sqwave E2E_SIGROK=$(E2E_SIGROK) \
		COREMARK=$(abspath $(COREMARK)) tests/e2e/run-all

# The oracle (tests/oracle, docs/testing.md): combinations of the features
# on the simulated board, every figure held against the pins' record. `make
# test` runs its fixed set (seed 29, every pair of the dimensions once)
# through tests/e2e/oracle.sh; `make oracle SEED=N N=COUNT` runs COUNT
# combinations of seed N (the pairs first, then random ones), `STRICT=1`
# fails the known disagreements too.
SEED   ?= 29
N      ?=
STRICT ?=
oracle: $(BUILD)/sqwave
	@python3 tests/oracle/oracle.py --sqwave $(BUILD)/sqwave --seed $(SEED) \
		$(if $(N),--n $(N)) $(if $(STRICT),--strict)

# The fast tier (docs/testing.md): the build with -j, the layer rule (the
# includes before the build, the calls after it), every
# unit test (each binary a goal of its own, so -j runs them side by side;
# its output in BIN.log, shown when it fails) and E2E_SMOKE, a few fast
# end-to-end tests of each command, so that a broken command fails it.
# Under two minutes from a clean tree on two cores; `make test` is the full
# suite.
NPROC     ?= $(shell nproc 2>/dev/null || echo 2)
E2E_SMOKE ?= run-all:a_2s_run_gives_4000 run-all:contradictory_limits run-all:a_violated_limit \
	run-all:preflight_checks run-all:help_and_version run-all:design_map \
	analyze:analyzing_a_fresh_run_agrees analyze:the_exported_csv_analyzes \
	compare:37ppm_drift compare:bad_input_is_exit_2 capture:bad_requests_are_exit_2 \
	capture:a_bad_command_line_is_exit_2 capture:the_version_says \
	boards:what_is_not_two_boards \
	lines:refused_combinations \
	report:a_log_and_its_summary_give_the_same_rows \
	check:the_simulated_board_checks_clean check:a_root_tree_is_what check:check_run_judges \
	check:boards_by_short_name hostile/boards:bad_values_are_exit_2 \
	docs:every_option_of_every_command_is_in_its_help \
	idle:a_run_restricts_the_rt_cpu idle:kill_9_mid_run_the_guardian idle:bad_values_are_exit_2
UNIT_RUNS := $(UNIT_BINS:%=%.run)
.PHONY: $(UNIT_RUNS)
$(UNIT_RUNS): %.run: %
	@$< > $<.log 2>&1 || { cat $<.log; echo "FAILED: $<" >&2; exit 1; }

check:
	@scripts/check-layers
	@scripts/check-function-length
	@$(MAKE) --no-print-directory -j$(NPROC) all unit-build docs
	@scripts/check-layers --objects $(BUILD) src
	@$(MAKE) --no-print-directory -j$(NPROC) -k check-unit
	@$(MAKE) --no-print-directory e2e-smoke

check-unit: $(UNIT_RUNS)
	@echo "unit test binaries: $(words $(UNIT_RUNS)) passed"

e2e-smoke:
	@$(MAKE) --no-print-directory e2e T='$(E2E_SMOKE)'

# The layer rule of src/ (scripts/check-layers): the includes (a second,
# no build), then the calls between the built objects (nm): no call up a
# floor or in a circle, no command calling another command's function.
layers:
	@scripts/check-layers src
	@$(MAKE) --no-print-directory $(LIBS_ALL)
	@scripts/check-layers --objects $(BUILD) src

# Every test: the dependencies (libsigrok-dev among them, before the first
# build: tests/e2e/capture.sh drives its demo analyzer), the layer rule (the includes, then the
# built objects' calls), unit, end-to-end on the simulated board, the
# build without libsigrok (test-nosigrok, plain in either mode),
# and the armhf build on a real kernel and GPIO controller under QEMU,
# then the same board as a LAVA device running sqwave's test definition
# (SKIP_VM=1 leaves both out).
# TEST_SAN=1 (CI: .ci/run) runs the unit and end-to-end tests once, on the
# ASan+UBSan build of check-san, instead of on the plain one: the plain
# binary is still built (install and packaging use it) and `make valgrind`
# runs the plain unit tests.
test:
	@scripts/check-function-length
	@$(MAKE) --no-print-directory deps
	@scripts/install-deps systemd python3-yaml python3-jsonschema python3-junitparser librsvg2-bin lava-common \
		libsigrok-dev
	@$(MAKE) --no-print-directory layers
ifeq ($(TEST_SAN),1)
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory check-san
else
	@$(MAKE) --no-print-directory all unit
	@$(MAKE) --no-print-directory e2e
endif
	@$(MAKE) --no-print-directory test-nosigrok
	@$(MAKE) --no-print-directory test-install
	@$(MAKE) --no-print-directory yocto-parse
ifneq ($(SKIP_VM),1)
	@$(MAKE) --no-print-directory test-vm
	@$(MAKE) --no-print-directory test-lava
endif

# The run's verdict is its answer: exit 1 (a limit of the quick profile
# broken, as a busy machine can) is a run that worked; 2 and 3 are not.
RUN_CMD = $(BUILD)/sqwave run --board boards/sim.yaml --profile config/quick.yaml --log $(BUILD)/run.sqwlog --json $(BUILD)/run.json
run: deps
	@$(MAKE) --no-print-directory all
	@echo '$(RUN_CMD)'; rc=0; $(RUN_CMD) || rc=$$?; \
	if [ $$rc -eq 1 ]; then \
		echo "make run: sqwave ran; its verdict is FAIL (exit 1): this machine broke a limit of config/quick.yaml (above)"; \
	elif [ $$rc -ne 0 ]; then exit $$rc; fi

check-san:
	@$(MAKE) --no-print-directory BUILD=build-san SAN=1 OPT="-O1 -g" unit e2e

# The build without libsigrok (SIGROK=no: Debian's package, and any
# machine without libsigrok-dev), which `make test` would otherwise never
# build: it installs libsigrok-dev first. In its own BUILD (as check-san),
# the full build with its docs, every unit test binary, and the e2e scripts
# of what SIGROK changes (NOSIGROK_E2E: the whole e2e suite on this build
# took 13.7 min, these about 40 s): capture (its refusal, exit 2 with how
# to get the library, the tests that need an analyzer a counted SKIP, and
# --version held to SIGROK=no: the libsigrok binary fails it), compare and
# analyze (captures read without the library), scope (the other
# instrument, lab code beside capture), docs (--help, the man page and the
# completion this binary generates) and run-all's --help/--version. Not
# schemas.sh (50 s: where --version says no libsigrok it only leaves the
# capture document out, a SKIP). Plain, also under TEST_SAN=1: SIGROK
# picks one file's half (src/lab/instrument/sigrok_session.c) whose
# no-libsigrok half only refuses; the sanitizers run the shared code.
NOSIGROK_BUILD ?= build-nosigrok
NOSIGROK_E2E   ?= capture compare analyze scope docs run-all:help_and_version
# E2E_SIGROK=no is said here, not taken from the build: a build that
# linked libsigrok all the same fails capture.sh.
NOSIGROK_MAKE = $(MAKE) --no-print-directory BUILD=$(NOSIGROK_BUILD) SIGROK=no BOARD=
test-nosigrok:
	@$(NOSIGROK_MAKE) -j$(NPROC) all unit-build docs
	@$(NOSIGROK_MAKE) -j$(NPROC) -k check-unit
	@$(NOSIGROK_MAKE) e2e T='$(NOSIGROK_E2E)' E2E_SIGROK=no

valgrind: $(UNIT_BINS)
	@VALGRIND="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite" \
		scripts/run-unit-tests $(UNIT_BINS)

# The man page and the bash completion: docs/sqwave.1's hand-written parts
# with the OPTIONS section that `sqwave --generate man` writes from the
# commands' option tables in place of its @OPTIONS@ line, and the docs it
# names where they are installed (DOCDIR); the completion from the same
# tables. DOCGEN is the sqwave that generates them: this build's, or for a
# cross build one built for the build machine from the same source
# (docs/packaging.md), of the same kind (board build or not: its --version
# says). docs/sqwave.1's lines between @LAB-BEGIN@ and @LAB-END@ are the full
# build's, between @BOARD-BEGIN@ and @BOARD-END@ the board build's.
DOCGEN       ?= $(OUT)/sqwave
DOCGEN_RUN    = $(DOCGEN) --version > /dev/null 2>&1 || { \
	echo "cannot run $(DOCGEN) here (a cross build?): give DOCGEN=a sqwave built for this machine from the same source (docs/packaging.md)" >&2; exit 1; }; \
	case "$$($(DOCGEN) --version)" in *"(board build;"*) k=1 ;; *) k= ;; esac; \
	[ "$$k" = "$(filter 1,$(BOARD))" ] || { \
	echo "$(DOCGEN) is $${k:+a board build}$${k:-the full build}, this one $(if $(filter 1,$(BOARD)),a board build,the full build): its docs are not this build's (DOCGEN, docs/packaging.md)" >&2; exit 1; }
ifeq ($(BOARD),1)
MAN_OTHER    := LAB
else
MAN_OTHER    := BOARD
endif

$(OUT)/sqwave.1: docs/sqwave.1 $(DOCGEN) $(BUILD)/flags
	@$(DOCGEN_RUN)
	$(DOCGEN) --generate man > $@.options
	sed -e '/^\.\\" @$(MAN_OTHER)-BEGIN@$$/,/^\.\\" @$(MAN_OTHER)-END@$$/d' \
		-e '/^\.\\" @OPTIONS@$$/{r $@.options' -e 'd;}' docs/sqwave.1 | \
		sed -e 's|docs/\([a-z0-9\\-]*\.md\)|$(DOCDIR)/\1|g' > $@.tmp
	@grep -q '^\.SH OPTIONS' $@.tmp || { echo "docs/sqwave.1 has no @OPTIONS@ line" >&2; exit 1; }
	rm -f $@.options && mv $@.tmp $@

$(OUT)/sqwave.bash-completion: $(DOCGEN) $(BUILD)/flags
	@$(DOCGEN_RUN)
	$(DOCGEN) --generate bash-completion > $@.tmp && mv $@.tmp $@

docs: $(OUT)/sqwave.1 $(OUT)/sqwave.bash-completion

# The parts that are not the build and its fast tier, each in a file of its
# own: installing and packaging, the fuzz targets, the QEMU board, the LAVA
# job, the benchmark. `make help` lists their targets with the rest.
include mk/packaging.mk mk/fuzz.mk mk/vm.mk mk/lava.mk mk/bench.mk

clean:
	rm -rf build build-san build-nosigrok build-arm build-deb build-yocto build-install

-include $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(BUILD)/main.d $(BB_CMD_OBJS:.o=.d) $(BB)/main.d

