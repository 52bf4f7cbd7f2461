# SPDX-License-Identifier: GPL-2.0-or-later
# sqwave build. `make run` and `make test` install what is missing first.

VERSION      := 0.1.0
CROSS_COMPILE ?=
CC           := $(CROSS_COMPILE)gcc
AR           := $(CROSS_COMPILE)ar
PKG_CONFIG   ?= pkg-config
PREFIX       ?= /usr/local
DESTDIR      ?=
BUILD        ?= build

# libgpiod API: v2 if pkg-config finds libgpiod >= 2, else v1, else none
# (simulated backend only). Override with GPIOD=v1|v2|none.
GPIOD ?= $(shell if $(PKG_CONFIG) --atleast-version=2 libgpiod 2>/dev/null; then echo v2; \
	elif $(PKG_CONFIG) --exists libgpiod 2>/dev/null; then echo v1; else echo none; fi)

WARN     := -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes -Wstrict-prototypes \
	    -Wno-missing-field-initializers
OPT      ?= -O2 -g
# 64-bit file offsets and time_t on 32-bit targets too (logs > 2 GiB, y2038).
CFLAGS   += $(OPT) -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 $(WARN) -pthread -MMD -MP \
	    -DSQW_VERSION='"$(VERSION)"' -DSQW_DATADIR='"$(PREFIX)/share/sqwave"' $(EXTRA_CFLAGS)
ifeq ($(WERROR),1)
CFLAGS   += -Werror
endif
ifeq ($(SAN),1)
CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=address,undefined
endif

YAML_CFLAGS := $(shell $(PKG_CONFIG) --cflags yaml-0.1 2>/dev/null)
YAML_LIBS   := $(shell $(PKG_CONFIG) --libs yaml-0.1 2>/dev/null || echo -lyaml)
ifeq ($(GPIOD),none)
GPIOD_CFLAGS := -DSQW_GPIOD_NONE
GPIOD_LIBS   :=
else
GPIOD_CFLAGS := $(shell $(PKG_CONFIG) --cflags libgpiod 2>/dev/null) -DSQW_GPIOD_$(GPIOD)
GPIOD_LIBS   := $(shell $(PKG_CONFIG) --libs libgpiod 2>/dev/null || echo -lgpiod)
endif
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)
# zlib: inflate for sigrok .sr sessions (src/capture_sr.c)
ZLIB_CFLAGS := $(shell $(PKG_CONFIG) --cflags zlib 2>/dev/null)
ZLIB_LIBS   := $(shell $(PKG_CONFIG) --libs zlib 2>/dev/null || echo -lz)

CFLAGS += $(YAML_CFLAGS) $(GPIOD_CFLAGS) $(ZLIB_CFLAGS)
LIBS   := $(YAML_LIBS) $(GPIOD_LIBS) $(ZLIB_LIBS) -lm -pthread

# Every src/*.c is a module of libsqwave.a, except main.c and the libgpiod
# backend the build did not pick.
ALL_SRCS  := $(wildcard src/*.c)
GPIOD_SKIP := $(filter-out src/gpio_gpiod$(subst v,,$(GPIOD)).c,src/gpio_gpiod1.c src/gpio_gpiod2.c)
LIB_SRCS  := $(filter-out src/main.c $(GPIOD_SKIP),$(ALL_SRCS))
LIB_OBJS  := $(LIB_SRCS:src/%.c=$(BUILD)/%.o)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all clean deps run test unit e2e check-san valgrind bench install uninstall help fuzz
all: $(BUILD)/sqwave

help:
	@echo "make            build $(BUILD)/sqwave (libgpiod API: $(GPIOD))"
	@echo "make run        install missing deps, build, 10 s on the simulated board"
	@echo "make test       install missing deps, unit + end-to-end tests"
	@echo "make check-san  unit tests under ASan+UBSan    make valgrind  unit tests under valgrind"
	@echo "make bench      benchmark against cyclictest (docs/benchmarks.md)"
	@echo "make install    PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)"

# Objects depend on the flags they were built with: a change of CFLAGS,
# CROSS_COMPILE or GPIOD rebuilds them (the file changes only when they do).
BUILD_FLAGS := $(CC) $(CFLAGS) $(LDFLAGS) $(LIBS)
ifneq ($(BUILD_FLAGS),$(file < $(BUILD)/flags))
$(shell mkdir -p $(BUILD))
$(file > $(BUILD)/flags,$(BUILD_FLAGS))
endif

$(BUILD)/%.o: src/%.c $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/libsqwave.a: $(LIB_OBJS)
	$(AR) rcs $@ $^

$(BUILD)/sqwave: $(BUILD)/main.o $(BUILD)/libsqwave.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

# One cmocka binary per module; unit tests may include the module's .c to see
# its internals, so they get -Isrc and link the library for the rest.
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libsqwave.a $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Wno-missing-prototypes -Isrc $(LDFLAGS) -o $@ $< $(BUILD)/libsqwave.a $(CMOCKA_LIBS) $(LIBS)

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

e2e: $(BUILD)/sqwave $(COREMARK)
	@SQWAVE=$(BUILD)/sqwave COREMARK=$(abspath $(COREMARK)) tests/e2e/run-all

# Every test: unit, end-to-end on the simulated board, and the armhf build on
# a real kernel and GPIO controller under QEMU (SKIP_VM=1 leaves that out).
test: deps
	@$(MAKE) --no-print-directory all unit
	@$(MAKE) --no-print-directory e2e
ifneq ($(SKIP_VM),1)
	@$(MAKE) --no-print-directory test-vm
endif

run: deps
	@$(MAKE) --no-print-directory all
	$(BUILD)/sqwave run --board boards/sim.yaml --profile config/quick.yaml --log $(BUILD)/run.sqwlog --json $(BUILD)/run.json

check-san:
	@$(MAKE) --no-print-directory BUILD=build-san SAN=1 OPT="-O1 -g" unit e2e

valgrind: $(UNIT_BINS)
	@VALGRIND="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite" \
		scripts/run-unit-tests $(UNIT_BINS)

# libFuzzer targets (tests/fuzz/fuzz_*.c) against a clang ASan+UBSan build of
# the library; each runs FUZZ_SECONDS (CI: briefly; longer on demand, e.g.
# make fuzz FUZZ_SECONDS=600). Seeds: the repo's own test data.
FUZZ_SECONDS ?= 10
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
fuzz:
	@scripts/install-deps clang libclang-rt-14-dev
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang GPIOD=none \
		OPT="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" \
		build-fuzz/libsqwave.a
	@for f in $(FUZZ_SRCS); do \
		n=$$(basename $$f .c); \
		clang -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
			-std=c11 -D_GNU_SOURCE -Isrc -o build-fuzz/$$n $$f build-fuzz/libsqwave.a $(LIBS) || exit 1; \
	done
	@scripts/run-fuzz $(FUZZ_SECONDS) $(FUZZ_SRCS:tests/fuzz/%.c=build-fuzz/%)

bench:
	@scripts/install-deps sigrok-cli
	@$(MAKE) --no-print-directory all
	@bench/run

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/sqwave/boards $(DESTDIR)$(PREFIX)/share/sqwave/config
	install -m 0755 $(BUILD)/sqwave $(DESTDIR)$(PREFIX)/bin/sqwave
	install -m 0644 docs/sqwave.1 $(DESTDIR)$(PREFIX)/share/man/man1/sqwave.1
	install -m 0644 boards/*.yaml $(DESTDIR)$(PREFIX)/share/sqwave/boards/
	install -m 0644 config/*.yaml $(DESTDIR)$(PREFIX)/share/sqwave/config/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/sqwave $(DESTDIR)$(PREFIX)/share/man/man1/sqwave.1
	rm -rf $(DESTDIR)$(PREFIX)/share/sqwave

clean:
	rm -rf build build-san build-arm

-include $(LIB_OBJS:.o=.d) $(BUILD)/main.d

# --- test-vm (tests/vm) ---
# sqwave cross-built for armhf (libgpiod v2 and v1) on Debian's PREEMPT_RT
# kernel and QEMU's PL061 GPIO controller; recipe in docs/qemu-vm.md.
# Downloads are cached in .cache/vm; `make clean-vm` keeps them.
.PHONY: test-vm clean-vm
test-vm:
	@tests/vm/run
clean-vm:
	rm -rf build-arm-v1 build-arm-v2 build-vm
