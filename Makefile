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
# names (SQW_DATADIR): build and install with the same PREFIX.
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
# zlib: inflate for sigrok .sr sessions (src/lab/capture/capture_sr.c)
ZLIB_CFLAGS := $(shell $(PKGCONF) --cflags zlib 2>/dev/null)
ZLIB_LIBS   := $(shell $(PKGCONF) --libs zlib 2>/dev/null || echo -lz)

override CFLAGS += $(YAML_CFLAGS) $(GPIOD_CFLAGS) $(ZLIB_CFLAGS)
LIBS   := $(YAML_LIBS) $(GPIOD_LIBS) $(ZLIB_LIBS) -lm -pthread

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
LAB_FLOORS   := capture compare report pictures
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

.PHONY: all clean deps run test unit e2e layers check check-unit e2e-smoke check-san valgrind bench install uninstall help fuzz fuzz-long fuzz-build docs oracle \
	install-strip unit-build install-ptest deb yocto yocto-parse test-install
all: $(BUILD)/sqwave

help:
	@echo "make            build $(BUILD)/sqwave (libgpiod API: $(GPIOD))"
	@echo "make run        install missing deps, build, 10 s on the simulated board"
	@echo "make check      the fast tier, before every commit: layer rule (includes and calls),"
	@echo "                function length, -j build, unit tests, e2e smoke set"
	@echo "make test       install missing deps, the full suite: unit, end-to-end, install, Yocto parse, QEMU board"
	@echo "make e2e        every end-to-end script; T=NAME one (T=soak, T=hostile/logs, T=run-all),"
	@echo "                T=NAME:REGEX its tests whose name matches (T=soak:phases); several: T='a b:c'"
	@echo "make check-san  unit tests under ASan+UBSan    make valgrind  unit tests under valgrind"
	@echo "make oracle     every figure against the simulated pins, SEED=N N=COUNT combinations"
	@echo "make fuzz       libFuzzer targets, FUZZ_SECONDS each (corpus outside the tree)"
	@echo "make fuzz-long  FUZZ_LONG_SECONDS each, corpus kept in FUZZ_CORPUS: before a parser change is done"
	@echo "make bench      benchmark against cyclictest (docs/benchmarks.md)"
	@echo "make install    PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) (install-strip, uninstall; docs/packaging.md)"
	@echo "make deb        the Debian package (libgpiod 2.x and 1.6): build, lintian, install"
	@echo "make yocto      contrib/meta-sqwave's recipe replayed for armhf, run-ptest under QEMU"
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

$(BUILD)/libsqwave-board.a: $(BOARD_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libsqwave-lab.a: $(LAB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libsqwave-cmd.a: $(CMD_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# Every object of the board, linked with nothing but its libraries, then the
# lab with the board: an undefined symbol (the board calling the lab or a
# command, the lab calling a command) fails here.
$(BUILD)/lib-closed: $(BUILD)/libsqwave-board.a $(BUILD)/libsqwave-lab.a
	@printf 'int main(void) { return 0; }\n' > $@.c
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $@.c -Wl,--whole-archive $(BUILD)/libsqwave-board.a \
		-Wl,--no-whole-archive $(LIBS)
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

deps:
	@scripts/install-deps

unit: $(UNIT_BINS)
	@scripts/run-unit-tests $(UNIT_BINS)

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
T ?=
e2e: $(BUILD)/sqwave $(COREMARK) docs
	@E2E_ONLY='$(T)' SQWAVE=$(BUILD)/sqwave COREMARK=$(abspath $(COREMARK)) tests/e2e/run-all

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
	compare:37ppm_drift compare:bad_input_is_exit_2 boards:what_is_not_two_boards \
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

# Every test: the dependencies, the layer rule (the includes, then the
# built objects' calls), unit, end-to-end on the simulated board,
# and the armhf build on a real kernel and GPIO controller under QEMU
# (SKIP_VM=1 leaves that out).
# TEST_SAN=1 (CI: .ci/run) runs the unit and end-to-end tests once, on the
# ASan+UBSan build of check-san, instead of on the plain one: the plain
# binary is still built (install and packaging use it) and `make valgrind`
# runs the plain unit tests.
test:
	@scripts/check-function-length
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory layers
	@scripts/install-deps systemd python3-yaml python3-jsonschema python3-junitparser librsvg2-bin lava-common
ifeq ($(TEST_SAN),1)
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory check-san
else
	@$(MAKE) --no-print-directory all unit
	@$(MAKE) --no-print-directory e2e
endif
	@$(MAKE) --no-print-directory test-install
	@$(MAKE) --no-print-directory yocto-parse
ifneq ($(SKIP_VM),1)
	@$(MAKE) --no-print-directory test-vm
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

valgrind: $(UNIT_BINS)
	@VALGRIND="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite" \
		scripts/run-unit-tests $(UNIT_BINS)

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

# bench/lines.py reads BENCH_ROUNDS and BENCH_SECONDS (make bench BENCH_ROUNDS=8)
# and compares with cyclictest: rt-tests is named so that it stays installed.
bench:
	@scripts/install-deps sigrok-cli rt-tests
	@$(MAKE) --no-print-directory all $(BUILD)/respond_min
	@bench/run

# The bare responder that `sqwave respond` is measured against (bench/respond.py):
# sqwave's library, with the flags of the build.
$(BUILD)/respond_min: bench/respond_min.c $(BUILD)/libsqwave-board.a $(BUILD)/flags
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libsqwave-board.a $(LIBS)

# make install: the binary, the man page, the docs, the board and profile
# files, the JSON schemas of the outputs (SQWDATADIR/schema: data a program
# reads, so not under DOCDIR, which packagers may leave out), bash
# completion and the systemd unit template; never the network.
# install-strip strips the binary ($(STRIP)); packagers strip themselves.
INSTALL      ?= install
INSTALL_STRIP ?=
DOCS         := README.md COPYING $(wildcard docs/*.md)

# The man page and the bash completion: docs/sqwave.1's hand-written parts
# with the OPTIONS section that `sqwave --generate man` writes from the
# commands' option tables in place of its @OPTIONS@ line, and the docs it
# names where they are installed (DOCDIR); the completion from the same
# tables. DOCGEN is the sqwave that generates them: this build's, or for a
# cross build one built for the build machine from the same source
# (docs/packaging.md).
DOCGEN       ?= $(BUILD)/sqwave
DOCGEN_RUN    = $(DOCGEN) --version > /dev/null 2>&1 || { \
	echo "cannot run $(DOCGEN) here (a cross build?): give DOCGEN=a sqwave built for this machine from the same source (docs/packaging.md)" >&2; exit 1; }

$(BUILD)/sqwave.1: docs/sqwave.1 $(DOCGEN) $(BUILD)/flags
	@$(DOCGEN_RUN)
	$(DOCGEN) --generate man > $@.options
	sed -e '/^\.\\" @OPTIONS@$$/{r $@.options' -e 'd;}' docs/sqwave.1 | \
		sed -e 's|docs/\([a-z0-9\\-]*\.md\)|$(DOCDIR)/\1|g' > $@.tmp
	@grep -q '^\.SH OPTIONS' $@.tmp || { echo "docs/sqwave.1 has no @OPTIONS@ line" >&2; exit 1; }
	rm -f $@.options && mv $@.tmp $@

$(BUILD)/sqwave.bash-completion: $(DOCGEN) $(BUILD)/flags
	@$(DOCGEN_RUN)
	$(DOCGEN) --generate bash-completion > $@.tmp && mv $@.tmp $@

docs: $(BUILD)/sqwave.1 $(BUILD)/sqwave.bash-completion

$(BUILD)/sqwave@.service: contrib/systemd/sqwave@.service.in $(BUILD)/flags
	@mkdir -p $(@D)
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' $< > $@

install: all docs $(BUILD)/sqwave@.service
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DOCDIR) \
		$(DESTDIR)$(SQWDATADIR)/boards $(DESTDIR)$(SQWDATADIR)/config \
		$(DESTDIR)$(SQWDATADIR)/schema \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(UDEVRULESDIR) \
		$(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(DOCDIR)/examples
	$(INSTALL) -m 0755 $(INSTALL_STRIP) $(BUILD)/sqwave $(DESTDIR)$(BINDIR)/sqwave
	$(INSTALL) -m 0644 $(BUILD)/sqwave.1 $(DESTDIR)$(MANDIR)/man1/sqwave.1
	$(INSTALL) -m 0644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 0644 boards/*.yaml $(DESTDIR)$(SQWDATADIR)/boards/
	$(INSTALL) -m 0644 config/*.yaml $(DESTDIR)$(SQWDATADIR)/config/
	$(INSTALL) -m 0644 docs/schema/*.schema.json $(DESTDIR)$(SQWDATADIR)/schema/
	$(INSTALL) -m 0644 $(BUILD)/sqwave.bash-completion $(DESTDIR)$(BASHCOMPDIR)/sqwave
	$(INSTALL) -m 0644 $(BUILD)/sqwave@.service $(DESTDIR)$(SYSTEMDUNITDIR)/sqwave@.service
	$(INSTALL) -m 0644 contrib/systemd/non-root.conf $(DESTDIR)$(DOCDIR)/examples/non-root.conf
	$(INSTALL) -m 0644 contrib/udev/60-sqwave.rules $(DESTDIR)$(UDEVRULESDIR)/60-sqwave.rules
	$(INSTALL) -m 0644 contrib/sysusers/sqwave.conf $(DESTDIR)$(SYSUSERSDIR)/sqwave.conf

install-strip:
	@$(MAKE) --no-print-directory install INSTALL_STRIP="-s --strip-program=$(STRIP)"

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/sqwave $(DESTDIR)$(MANDIR)/man1/sqwave.1 \
		$(DESTDIR)$(BASHCOMPDIR)/sqwave $(DESTDIR)$(SYSTEMDUNITDIR)/sqwave@.service \
		$(DESTDIR)$(UDEVRULESDIR)/60-sqwave.rules $(DESTDIR)$(SYSUSERSDIR)/sqwave.conf
	rm -rf $(DESTDIR)$(SQWDATADIR) $(DESTDIR)$(DOCDIR)

# The unit tests as Yocto's ptest (or any target) runs them: the binaries,
# built like sqwave (cross too), and the files they read, under PTESTDIR;
# the runner is the recipe's run-ptest (contrib/meta-sqwave).
unit-build: $(UNIT_BINS)

install-ptest: $(UNIT_BINS)
	$(INSTALL) -d $(DESTDIR)$(PTESTDIR)/tests/unit $(DESTDIR)$(PTESTDIR)/boards \
		$(DESTDIR)$(PTESTDIR)/config
	$(INSTALL) -m 0755 $(UNIT_BINS) $(DESTDIR)$(PTESTDIR)/tests/unit/
	for f in $$(cd tests/data && find . -type f | LC_ALL=C sort); do \
		$(INSTALL) -D -m 0644 tests/data/$$f $(DESTDIR)$(PTESTDIR)/tests/data/$$f || exit 1; \
	done
	$(INSTALL) -m 0644 boards/*.yaml $(DESTDIR)$(PTESTDIR)/boards/
	$(INSTALL) -m 0644 config/*.yaml $(DESTDIR)$(PTESTDIR)/config/

# The Debian package, against libgpiod 2.x and 1.6: built, lintian, installed
# and run (tests/pkg/deb; docs/packaging.md). Packages in build-deb/API/.
deb:
	@tests/pkg/deb

# make install as a packager and a user meet it: DESTDIR staging, the
# installed binary with short names, completion, install-strip, uninstall,
# systemd-analyze verify and the unit's ExecStart (tests/pkg/install).
test-install:
	@scripts/install-deps systemd
	@tests/pkg/install

# The Yocto recipe (contrib/meta-sqwave) without bitbake: its compile and
# install tasks replayed against tests/vm's armhf sysroots, GNU_HASH and
# FILES checked, run-ptest in the QEMU armhf guest (tests/pkg/yocto).
yocto:
	@tests/pkg/yocto

# The recipe as bitbake parses it: offline by default, AUTOREV only when
# asked for (tests/pkg/yocto-parse; fast, no toolchain).
yocto-parse:
	@tests/pkg/yocto-parse

clean:
	rm -rf build build-san build-arm build-deb build-yocto build-install

-include $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(BUILD)/main.d

# --- test-vm (tests/vm) ---
# sqwave cross-built for armhf (libgpiod v2 and v1) on Debian's PREEMPT_RT
# kernel and QEMU's PL061 GPIO controller; recipe in docs/qemu-vm.md.
# Downloads are cached outside the tree, in VM_CACHE (tests/vm/lib.sh:
# $XDG_CACHE_HOME/sqwave/vm, else ~/.cache/sqwave/vm); `make clean-vm` keeps them.
.PHONY: test-vm clean-vm
test-vm:
	@tests/vm/run
clean-vm:
	rm -rf build-arm-v1 build-arm-v2 build-vm
