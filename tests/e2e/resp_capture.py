#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Make a two-channel VCD of a respond run from the simulated chip's history
(sim.history_file: `write,t_ns,offset,level,value` and
`stim,t_ns,offset,level,reported,seqno` rows): what an analyzer on both pins
would have recorded, independently of the log. Channel `stim` is the input
(offset 2), `resp` the output (offset 0). Each change is placed on the
analyzer's own clock (an offset, a drift) and rounded up to the next sample.
Faults can be injected to check that compare reports them."""
import argparse
import csv
import math
import sys

ap = argparse.ArgumentParser()
ap.add_argument("history", help="the sim's history CSV")
ap.add_argument("out")
ap.add_argument("--input", type=int, default=2, help="the input's line offset")
ap.add_argument("--output", type=int, default=0, help="the output's line offset")
ap.add_argument("--offset-ns", type=int, default=1000000,
                help="capture time of the first change (the capture starts this long before it)")
ap.add_argument("--res-ns", type=int, default=10, help="sample interval")
ap.add_argument("--drift-ppm", type=float, default=0.0, help="capture clock fast by")
ap.add_argument("--move", action="append", default=[],
                help="K:NS move response edge K (0 = the first) by NS")
ap.add_argument("--drop", type=int, action="append", default=[],
                help="drop response edge K (the line then skips the next one too)")
ap.add_argument("--swap", action="store_true", help="write resp before stim")
a = ap.parse_args()

stim, resp = [], []
for r in csv.reader(open(a.history)):
    if r[0] == "stim" and int(r[2]) == a.input:
        stim.append((int(r[1]), int(r[3])))
    elif r[0] == "write" and int(r[2]) == a.output:
        resp.append((int(r[1]), int(r[4])))
if not stim or not resp:
    sys.exit("resp_capture: no stimulus or no write in the history")

# the output starts at 0 (idle); a write of the level it has is no edge
edges, level = [], 0
for t, v in resp:
    if v != level:
        edges.append(t)
        level = v
move = {int(m.split(":")[0]): int(m.split(":")[1]) for m in a.move}
t0 = min(stim[0][0], edges[0]) if edges else stim[0][0]
k = 1 + a.drift_ppm * 1e-6


def tick(t):
    return math.ceil(((t - t0) * k + a.offset_ns) / a.res_ns)


ev = []  # (tick, channel, value)
for t, v in stim:
    ev.append((tick(t), "!", v))
lvl = 0
for i, t in enumerate(edges):
    lvl ^= 1
    if i in a.drop:
        continue
    ev.append((tick(t + move.get(i, 0)), '"', lvl))
ev.sort()
cur = {"!": 1 - stim[0][1], '"': 0}
names = [("!", "stim"), ('"', "resp")]
if a.swap:
    names.reverse()
with open(a.out, "w") as f:
    f.write("$date today $end\n$version resp_capture.py $end\n")
    f.write(f"$timescale {a.res_ns} ns $end\n$scope module top $end\n")
    for code, name in names:
        f.write(f"$var wire 1 {code} {name} $end\n")
    f.write("$upscope $end\n$enddefinitions $end\n")
    f.write(f"#0 {cur['!']}! {cur[chr(34)]}\"\n")
    for tk, code, v in ev:
        if cur[code] == v:
            continue
        cur[code] = v
        f.write(f"#{tk} {v}{code}\n")
    f.write(f"#{ev[-1][0] + a.offset_ns // a.res_ns}\n")
