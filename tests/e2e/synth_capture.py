#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Make a capture file (VCD or Saleae Logic 2 CSV) of a window of a run, from
`sqwave export LOG --csv`: what an analyzer with its own drifting clock and a
trigger at an arbitrary time would have recorded. Each edge lands at a random
point of its write window (the seed is printed), is scaled by the drift and
rounded up to the next sample. Faults can be injected to check that compare
reports them."""
import argparse
import csv
import math
import random
import sys

ap = argparse.ArgumentParser()
ap.add_argument("csv", help="sqwave export --csv output")
ap.add_argument("out")
ap.add_argument("--format", choices=["vcd", "saleae"], default="vcd")
ap.add_argument("--first", type=int, default=0, help="first run seq in the capture")
ap.add_argument("--count", type=int, default=0, help="edges (0: to the end)")
ap.add_argument("--drift-ppm", type=float, default=0.0, help="capture clock fast by")
ap.add_argument("--pre-s", type=float, default=None,
                help="capture starts this long before the first edge "
                     "(default: 0.3 x the first pulse width)")
ap.add_argument("--trigger-s", type=float, default=0.0,
                help="capture time of the first edge (saleae; vcd starts at 0)")
ap.add_argument("--res-ns", type=int, default=10, help="sample interval")
ap.add_argument("--delete-pair", type=int, action="append", default=[],
                help="drop run edges SEQ and SEQ+1 (a short pulse the capture missed)")
ap.add_argument("--glitch-after", type=int, action="append", default=[],
                help="add a 2 us pulse 100 us after run edge SEQ (a glitch the log never saw)")
ap.add_argument("--shift", action="append", default=[],
                help="SEQ:NS move run edge SEQ by NS (a log that lies about one edge)")
ap.add_argument("--gap", action="append", default=[],
                help="SEQ:N the capture did not see run edges SEQ..SEQ+N-1: x from halfway "
                     "before SEQ to halfway after SEQ+N-1 (vcd)")
ap.add_argument("--seed", type=int, default=None)
a = ap.parse_args()

seed = a.seed if a.seed is not None else random.randrange(1 << 30)
print(f"synth_capture: seed {seed}", file=sys.stderr)
rng = random.Random(seed)

last = a.first + a.count if a.count else None
sel = []
for r in csv.DictReader(open(a.csv)):  # streamed: exports of 1 h runs are big
    seq = int(r["seq"])
    if last is not None and seq >= last:
        break
    if seq >= a.first:
        sel.append(r)
if not sel:
    sys.exit("synth_capture: no edges selected")
shift = {int(s.split(":")[0]): int(s.split(":")[1]) for s in a.shift}
drop = set()
for s in a.delete_pair:
    drop |= {s, s + 1}

edges = []  # (true run time in ns as float, level)
for r in sel:
    seq = int(r["seq"])
    if seq in drop:
        continue
    wb, we = int(r["write_begin_ns"]), int(r["write_end_ns"])
    t = wb + rng.random() * (we - wb) + shift.get(seq, 0)
    edges.append((t, int(r["level"]), seq))
    if seq in a.glitch_after:
        lvl = int(r["level"])
        edges.append((t + 100000, 1 - lvl, -1))
        edges.append((t + 102000, lvl, -1))
# a data gap: the edges inside it are not recorded; x from halfway before
# the first to halfway after the last, then the level known again
times = {int(r["seq"]): (int(r["write_begin_ns"]) + int(r["write_end_ns"])) / 2 for r in sel}
for g in a.gap:
    g0, n = (int(v) for v in g.split(":"))
    if g0 - 1 not in times or g0 + n not in times:
        sys.exit("synth_capture: --gap %s: needs an edge on each side inside the capture" % g)
    inside = set(range(g0, g0 + n))
    edges = [e for e in edges if e[2] not in inside]
    edges.append(((times[g0 - 1] + times[g0]) / 2, "x", -1))
    lvl = next(int(r["level"]) for r in sel if int(r["seq"]) == g0 + n - 1)
    edges.append(((times[g0 + n - 1] + times[g0 + n]) / 2, lvl, -1))
edges.sort()

if a.pre_s is None:
    a.pre_s = 0.3 * (edges[1][0] - edges[0][0]) / 1e9 if len(edges) > 1 else 1e-4
zero = edges[0][0] - a.pre_s * 1e9          # run time at capture start
res = a.res_ns
k = 1 + a.drift_ppm * 1e-6


def cap_ticks(t):
    """capture time of run time t, in samples from the capture start"""
    return math.ceil((t - zero) * k / res)


init = 1 - int(sel[0]["level"])
end_tick = cap_ticks(edges[-1][0]) + int(a.pre_s * 1e9 / res)
with open(a.out, "w") as f:
    if a.format == "vcd":
        f.write("$date today $end\n$version synth_capture.py $end\n")
        f.write(f"$timescale {res} ns $end\n$scope module top $end\n")
        f.write("$var wire 1 ! gpio $end\n$var wire 1 \" other $end\n")
        f.write("$upscope $end\n$enddefinitions $end\n")
        f.write(f"#0 {init}! 0\"\n")
        for t, lvl, _ in edges:
            f.write(f"#{cap_ticks(t)} {lvl}!\n")
        f.write(f"#{end_tick}\n")
    else:
        # the trigger (time 0) is where --trigger-s says; times before it are negative
        base = a.trigger_s - (cap_ticks(edges[0][0]) * res) / 1e9
        f.write("Time [s],gpio,other\n")
        f.write(f"{base:.9f},{init},0\n")
        for t, lvl, _ in edges:
            f.write(f"{base + cap_ticks(t) * res / 1e9:.9f},{lvl},0\n")
        f.write(f"{base + end_tick * res / 1e9:.9f},{edges[-1][1]},1\n")
