#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Make one VCD capture of two boards' pins from their grid logs' CSVs
(`sqwave export LOG --csv`, with intended_grid_ns): what one analyzer
clipped to both boards would record. Each edge lands at a random point of
its write window after its instant on the shared grid; board B's clock is
--clock-b-ns ahead of A's (its edges come that much earlier in true time);
the analyzer's clock drifts by --drift-ppm and samples every --res-ns.
Only grid instants inside [--from-s, --to-s] after the first edge are kept.
The per-edge truth (B's true edge - A's) goes to --truth CSV."""
import argparse
import csv
import random
import sys

ap = argparse.ArgumentParser()
ap.add_argument("a_csv")
ap.add_argument("b_csv")
ap.add_argument("out")
ap.add_argument("--clock-b-ns", type=float, default=0.0)
ap.add_argument("--drift-ppm", type=float, default=0.0)
ap.add_argument("--res-ns", type=int, default=10)
ap.add_argument("--from-s", type=float, default=0.1)
ap.add_argument("--to-s", type=float, default=0.6)
ap.add_argument("--shift-b", action="append", default=[],
                help="SEQ:NS move board B's edge SEQ by NS (a pin that lies)")
ap.add_argument("--seed", type=int, default=None)
a = ap.parse_args()

seed = a.seed if a.seed is not None else random.randrange(1 << 30)
print(f"synth_boards: seed {seed}", file=sys.stderr)
rng = random.Random(seed)
shift = {int(s.split(":")[0]): float(s.split(":")[1]) for s in a.shift_b}


def edges(path, clock_ns, shifts):
    out = []
    for r in csv.DictReader(open(path)):
        g = int(r["intended_grid_ns"]) % 10**12   # exact in a float: the grid's
        # epoch times (~1.8e18 ns) are not, and both boards share the modulus
        wb = int(r["write_begin_ns"]) - int(r["intended_ns"])
        we = int(r["write_end_ns"]) - int(r["intended_ns"])
        t = g - clock_ns + wb + rng.random() * (we - wb) + shifts.get(int(r["seq"]), 0.0)
        out.append((g, t, int(r["level"])))
    return out


ea = edges(a.a_csv, 0.0, {})
eb = edges(a.b_csv, a.clock_b_ns, shift)
g0 = min(ea[0][0], eb[0][0])
lo, hi = g0 + a.from_s * 1e9, g0 + a.to_s * 1e9
ea = [e for e in ea if lo <= e[0] <= hi]
eb = [e for e in eb if lo <= e[0] <= hi]
if len(ea) < 8 or len(eb) < 8:
    sys.exit("synth_boards: too few edges in the window")
t0 = lo - 20000.0           # the capture starts 20 us before the window


def sample(t):
    x = (t - t0) * (1 + a.drift_ppm * 1e-6) / a.res_ns
    return int(x) + 1         # the first sample after the change


ev = [(sample(t), "a", lv) for _, t, lv in ea] + [(sample(t), "b", lv) for _, t, lv in eb]
ev.sort()
with open(a.out, "w") as f:
    f.write("$timescale %d ns $end\n$scope module boards $end\n" % a.res_ns)
    f.write("$var wire 1 ! pin_a $end\n$var wire 1 \" pin_b $end\n$upscope $end\n")
    f.write("$enddefinitions $end\n#0\n$dumpvars\n%d!\n%d\"\n$end\n"
            % (1 - ea[0][2], 1 - eb[0][2]))
    last = None
    for s, ch, lv in ev:
        if s != last:
            f.write("#%d\n" % s)
            last = s
        f.write("%d%s\n" % (lv, "!" if ch == "a" else '"'))
    f.write("#%d\n" % ((ev[-1][0]) + 2000))
print(f"synth_boards: {len(ea)} + {len(eb)} edges", file=sys.stderr)
