# SPDX-License-Identifier: GPL-2.0-or-later
# sqwave: the benchmark against cyclictest: bench.
# Included by the Makefile, after its build variables and rules.

.PHONY: bench

# bench/lines.py reads BENCH_ROUNDS and BENCH_SECONDS (make bench BENCH_ROUNDS=8)
# and compares with cyclictest: rt-tests is named so that it stays installed.
bench:
	@scripts/install-deps sigrok-cli rt-tests
	@$(MAKE) --no-print-directory all $(BUILD)/respond_min $(BUILD)/edgextract_bench
	@bench/run

# The bare responder that `sqwave respond` is measured against (bench/respond.py):
# sqwave's library, with the flags of the build.
$(BUILD)/respond_min: bench/respond_min.c $(BUILD)/libsqwave-board.a $(BUILD)/flags
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libsqwave-board.a $(LIBS)

# edgextract on one core beside a scan of the same buffer (bench/capture_bench.py).
$(BUILD)/edgextract_bench: bench/edgextract_bench.c $(BUILD)/libsqwave-lab.a $(BUILD)/flags
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libsqwave-lab.a $(BUILD)/libsqwave-board.a $(LIBS)
