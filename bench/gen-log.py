#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a synthetic sqwave log (docs/log-format.md, version 1).

    bench/gen-log.py OUT [--edges N] [--half-period-ns NS] [--seed S]
                         [--stalls N] [--stall-ms MS] [--far FRACTION]
                         [--high-ns NS --low-ns NS] [--realtime-ns NS]
                         [--wake-extra-ns NS]

Default: one hour at 500 us half period, 7,200,000 edges, 230 MB. Used by
bench/analyze-bench because the simulated board cannot produce that many
edges quickly on a small machine (it misses periods). The same arguments
always give the same bytes.

What is in it (seeded PRNG, one 64-bit draw per edge):
  * wake latency 5-13 us uniform; 1 edge in 1024 gets 20-53 us more, and
    1 in 128 of those (1 in 131,072 overall) an 80 us spike on top;
  * the write begins 150-405 ns after the wake-up and takes 300-1323 ns
    (a GPIO ioctl);
  * one missed period (expirations = 2) every million edges;
  * levels alternate 1, 0, 1, ...; no warm-up, no dropped record; a footer.

An ugly run, for the pictures (docs/analyze.md, docs/report.md), with
options that change nothing when left out:
  * --stalls N: N stalls of --stall-ms each (default 2000), spread evenly:
    the edge after one comes that many ms of slots late (an even number of
    slots, so the levels stay on their slots; at most 65534, what the
    record's 16-bit expiration count holds);
  * --far F: a fraction F of the edges (from a PRNG of their own) comes
    100 us to 0.9 x the shorter level late: the pulse before it is that
    much longer, the one after it that much shorter (F = 0.018 puts about
    3.6 % of the pulses outside +-100 us of the nominal);
  * --high-ns, --low-ns: a duty wave (wave.high_ns, wave.low_ns in the
    header; the half period is their mean);
  * --realtime-ns: the header's start_realtime_ns (0: none), for the
    wall-clock labels;
  * --wake-extra-ns NS: every wake-up NS later (the write follows it), a
    known shift of the whole latency distribution with the pulse widths'
    unchanged: report --baseline's injected regression (tests/e2e/regress.sh).
"""
import argparse
import random
import struct
import sys

HDR = struct.Struct("<8sIIIIiIQQQ")     # 56 bytes
REC = struct.Struct("<QQiiiHBB")        # 32 bytes, struct edge_rec
FOOT = struct.Struct("<Q8sQQQQiIQ")     # 64 bytes
FOOTER_MAGIC = b"SQWVFOOT"              # the bytes on disk
T0 = 10**12                             # start_ns: 1000 s of CLOCK_MONOTONIC


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--edges", type=int, default=7_200_000)
    ap.add_argument("--half-period-ns", type=int, default=500_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stalls", type=int, default=0)
    ap.add_argument("--stall-ms", type=int, default=2000)
    ap.add_argument("--far", type=float, default=0.0)
    ap.add_argument("--high-ns", type=int, default=0)
    ap.add_argument("--low-ns", type=int, default=0)
    ap.add_argument("--realtime-ns", type=int, default=0)
    ap.add_argument("--exact", action="store_true")
    ap.add_argument("--wake-extra-ns", type=int, default=0)
    a = ap.parse_args()
    n, half = a.edges, a.half_period_ns
    if (a.high_ns > 0) != (a.low_ns > 0) or (a.high_ns + a.low_ns) % 2:
        ap.error("--high-ns and --low-ns go together, and their sum is even")
    duty = a.high_ns > 0 and a.high_ns != a.low_ns
    if a.high_ns > 0:
        half = (a.high_ns + a.low_ns) // 2
    high = a.high_ns or half
    low = a.low_ns or half
    # slot k's time from slot 0 (base/wave.h, idle level 0: even slots rise)
    slot_t = (lambda k: (k // 2) * (high + low) + (high if k & 1 else 0))
    stall_every = n // (a.stalls + 1) if a.stalls > 0 else 0
    stall_slots = min(a.stall_ms * 1_000_000 // half, 65534) // 2 * 2
    far = random.Random(a.seed + 1_000_003)
    far_max = int(0.9 * min(high, low))

    meta = ("sqwave.version=synthetic\n"
            "run.board_file=synthetic\n"
            "run.gpio=synthetic (bench/gen-log.py)\n"
            "run.rt=yes\n"
            "host.name=synthetic\nhost.kernel=synthetic\nhost.machine=synthetic\n"
            "host.preempt_rt=no\n"
            "board.name=synthetic\n"
            f"run.half_period={half // 1000}us\n"
            + (f"wave.high_ns={high}\nwave.low_ns={low}\nwave.phase_ns=0\n" if duty else "")
            ).encode()
    off = (HDR.size + len(meta) + 31) // 32 * 32
    rnd = random.Random(a.seed)
    getbits = rnd.getrandbits
    pack = REC.pack
    slot = missed = 0
    with open(a.out, "wb") as f:
        f.write(HDR.pack(b"SQWAVLOG", 1, 32, off, len(meta), 1, 0, half, T0, a.realtime_ns))
        f.write(meta.ljust(off - HDR.size, b"\0"))
        buf = []
        for i in range(n):
            if i % 1_000_000 == 999_999 and not a.exact:
                # a duty wave misses a whole period, so the levels stay on
                # their slots (a 50 % wave's one slot, as it always did)
                exp = 3 if duty else 2
                slot += exp - 1
                missed += exp - 1
            else:
                exp = 1
            if stall_every and i % stall_every == 0 and 0 < i < stall_every * (a.stalls + 1):
                exp = stall_slots + 1
                slot += stall_slots
                missed += stall_slots
            r = getbits(64)
            lat = 5000 + (r & 0x1FFF) % 8001                  # 5..13 us
            if (r >> 13) & 0x3FF == 0:                         # ~1e-3
                lat += 20000 + ((r >> 23) & 0x7FFF)            # +20..52 us
                if (r >> 38) & 0x7F == 0:                      # ~1e-5 overall
                    lat += 80000
            if a.far and far.random() < a.far:
                lat += far.randint(100_000, far_max)
            lat += a.wake_extra_ns
            wb = lat + 150 + ((r >> 45) & 0xFF)                # +150..405 ns
            we = wb + 300 + ((r >> 53) & 0x3FF)                # +300..1323 ns
            if a.exact:
                lat, wb, we = 5000, 5150, 5450
            buf.append(pack(i, T0 + slot_t(slot), lat, wb, we, exp,
                            1 - ((slot if duty else i) & 1), 0))
            slot += 1
            if len(buf) == 65536:
                f.write(b"".join(buf))
                buf = []
        f.write(b"".join(buf))
        f.write(FOOT.pack(2**64 - 1, FOOTER_MAGIC, n, 0, missed, 0, 0, 0, 0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
