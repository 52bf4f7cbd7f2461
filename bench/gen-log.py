#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a synthetic sqwave log (docs/log-format.md, version 1).

    bench/gen-log.py OUT [--edges N] [--half-period-ns NS] [--seed S]

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
    a = ap.parse_args()
    n, half = a.edges, a.half_period_ns

    meta = ("sqwave.version=synthetic\n"
            "run.board_file=synthetic\n"
            "run.gpio=synthetic (bench/gen-log.py)\n"
            "run.rt=yes\n"
            "host.name=synthetic\nhost.kernel=synthetic\nhost.machine=synthetic\n"
            "host.preempt_rt=no\n"
            "board.name=synthetic\n"
            f"run.half_period={half // 1000}us\n").encode()
    off = (HDR.size + len(meta) + 31) // 32 * 32
    rnd = random.Random(a.seed)
    getbits = rnd.getrandbits
    pack = REC.pack
    slot = missed = 0
    with open(a.out, "wb") as f:
        f.write(HDR.pack(b"SQWAVLOG", 1, 32, off, len(meta), 1, 0, half, T0, 0))
        f.write(meta.ljust(off - HDR.size, b"\0"))
        buf = []
        for i in range(n):
            if i % 1_000_000 == 999_999:
                exp = 2
                slot += 1
                missed += 1
            else:
                exp = 1
            r = getbits(64)
            lat = 5000 + (r & 0x1FFF) % 8001                  # 5..13 us
            if (r >> 13) & 0x3FF == 0:                         # ~1e-3
                lat += 20000 + ((r >> 23) & 0x7FFF)            # +20..52 us
                if (r >> 38) & 0x7F == 0:                      # ~1e-5 overall
                    lat += 80000
            wb = lat + 150 + ((r >> 45) & 0xFF)                # +150..405 ns
            we = wb + 300 + ((r >> 53) & 0x3FF)                # +300..1323 ns
            buf.append(pack(i, T0 + slot * half, lat, wb, we, exp, 1 - (i & 1), 0))
            slot += 1
            if len(buf) == 65536:
                f.write(b"".join(buf))
                buf = []
        f.write(b"".join(buf))
        f.write(FOOT.pack(2**64 - 1, FOOTER_MAGIC, n, 0, missed, 0, 0, 0, 0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
