#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a sqwave log (docs/log-format.md, version 1) from an edge CSV in the
`sqwave export --csv` columns, so tests can make runs no real board would
(a perfect wave, hand-placed edges)."""
import csv
import struct
import sys

src, dst = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(src)))
t0 = int(rows[0]["intended_ns"])
half = int(rows[1]["intended_ns"]) - t0 if len(rows) > 1 else 500000
text = f"sqwave.version=test\nrun.half_period={half}ns\n".encode()
roff = (56 + len(text) + 31) // 32 * 32
with open(dst, "wb") as f:
    f.write(b"SQWAVLOG" + struct.pack("<IIIIiIQQQ", 1, 32, roff, len(text), 1, 0, half, t0, 0))
    f.write(text + b"\0" * (roff - 56 - len(text)))
    for r in rows:
        it = int(r["intended_ns"])
        f.write(struct.pack("<QQiiiHBB", int(r["seq"]), it, int(r["wake_ns"]) - it,
                            int(r["write_begin_ns"]) - it, int(r["write_end_ns"]) - it,
                            int(r["expirations"]), int(r["level"]), int(r["flags"])))
    f.write(struct.pack("<QQQQQQiIQ", 2**64 - 1, 0x544F4F4656575153, len(rows), 0, 0, 0, 0, 0, 0))
