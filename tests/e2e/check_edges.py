#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check a `sqwave export --csv` file: the invariants every run must keep."""
import argparse
import csv
import sys

ap = argparse.ArgumentParser()
ap.add_argument("csv")
ap.add_argument("--half-period", type=int, required=True)
ap.add_argument("--slots", type=int, help="slots the run was configured for")
ap.add_argument("--warmup-slots", type=int, default=0)
ap.add_argument("--ends-idle", action="store_true")
ap.add_argument("--min-edges", type=int, default=1)
a = ap.parse_args()

rows = list(csv.DictReader(open(a.csv)))
cols = ["seq", "level", "intended_ns", "wake_ns", "write_begin_ns", "write_end_ns",
        "expirations", "flags"]
def die(msg):
    print(f"    {a.csv}: {msg}", file=sys.stderr)
    sys.exit(1)

if not rows or list(rows[0].keys()) != cols:
    die(f"bad header or no rows: {list(rows[0].keys()) if rows else 'empty'}")
if len(rows) < a.min_edges:
    die(f"{len(rows)} edges, expected at least {a.min_edges}")
h = a.half_period
start = int(rows[0]["intended_ns"]) - (int(rows[0]["expirations"]) - 1) * h
missed = 0
for i, r in enumerate(rows):
    seq, lvl, t = int(r["seq"]), int(r["level"]), int(r["intended_ns"])
    exp, flags = int(r["expirations"]), int(r["flags"])
    if seq != i:
        die(f"row {i}: seq {seq}")
    if lvl != (i + 1) % 2:
        die(f"row {i}: level {lvl} does not alternate")
    if i:
        prev = int(rows[i - 1]["intended_ns"])
        if t - prev != exp * h:
            die(f"row {i}: intended spacing {t - prev} != {exp} x {h}")
    slot = (t - start) // h
    if (t - start) % h:
        die(f"row {i}: intended time off the grid")
    if bool(flags & 1) != (slot < a.warmup_slots):
        die(f"row {i}: slot {slot} warm-up flag {flags & 1}")
    wake, wb, we = int(r["wake_ns"]), int(r["write_begin_ns"]), int(r["write_end_ns"])
    if not (t <= wake <= wb <= we):
        die(f"row {i}: measured times out of order {t} {wake} {wb} {we}")
    missed += exp - 1
last_slot = (int(rows[-1]["intended_ns"]) - start) // h
if a.slots is not None:
    if missed == 0 and len(rows) != a.slots:
        die(f"{len(rows)} edges, expected {a.slots}")
    # The run ends on the first edge at or past its last slot that leaves the
    # line idle: one slot later at most when on time; with missed periods the
    # last edges may each skip slots (up to the largest skip, twice).
    max_exp = max(int(r["expirations"]) for r in rows)
    hi = a.slots + 1 if missed == 0 else a.slots + 2 * max_exp
    if not a.slots <= last_slot + 1 <= hi:
        die(f"last slot {last_slot}, expected {a.slots - 1}..{hi - 1}")
if a.ends_idle:
    if int(rows[-1]["level"]) != 0 or not int(rows[-1]["flags"]) & 8:
        die("last edge is not flagged last at idle level")
print(f"    {len(rows)} edges, {missed} missed periods")
