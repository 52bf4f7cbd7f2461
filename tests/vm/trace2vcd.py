#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""QEMU's pl061_set_output trace of one GPIO line as a VCD that `sqwave
compare` reads: the capture of a run made by the emulated hardware itself.

QEMU (-d trace:pl061_set_output -msg timestamp=on) logs every write of the
PL061 output register as "PID@SEC.USEC:pl061_set_output ... setting output
LINE to LEVEL", stamped with the host's wall clock in microseconds. The guest's
CLOCK_MONOTONIC, which the log uses, differs from it by an offset and a small
drift: compare finds the window and fits both. Only level changes are kept
(the trace also announces each line's reset state, level 0, at power-on).
Times are written relative to 1 ms before the first change (a wall-clock time
in ps does not fit in 64 bits); the recording ends 1 ms after the last one.

--move I US moves level change I (0 = the first) by US microseconds, for a
capture that must not agree; the move must keep it between its neighbours.

Usage: trace2vcd.py TRACE LINE OUT.vcd [--move I US]
Exit 0, or 2 with a message (no changes on the line, a bad --move).
"""
import argparse
import re
import sys

TRACE_RE = re.compile(r"^\d+@(\d+)\.(\d+):pl061_set_output \S+ setting output (\d+) to (\d+)\s*$")
MARGIN_US = 1000


def read_changes(path, line):
    """[(t_us, level), ...]: the line's level changes, from idle 0."""
    out, state = [], 0
    with open(path, errors="replace") as f:
        for raw in f:
            m = TRACE_RE.match(raw)
            if not m or int(m.group(3)) != line:
                continue
            t = int(m.group(1)) * 1_000_000 + int(m.group(2).ljust(6, "0")[:6])
            level = int(m.group(4))
            if level != state:
                out.append((t, level))
                state = level
    return out


def write_vcd(path, changes, source):
    base = changes[0][0] - MARGIN_US
    with open(path, "w") as f:
        f.write("$comment converted by tests/vm/trace2vcd.py from %s; time 0 is host wall clock %d.%06d s $end\n"
                % (source, base // 1_000_000, base % 1_000_000))
        f.write("$timescale 1 us $end\n$scope module qemu $end\n$var wire 1 ! pl061 $end\n"
                "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars 0! $end\n")
        for t, level in changes:
            f.write("#%d\n%d!\n" % (t - base, level))
        f.write("#%d\n" % (changes[-1][0] - base + MARGIN_US))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("trace")
    p.add_argument("line", type=int)
    p.add_argument("out")
    p.add_argument("--move", nargs=2, type=int, metavar=("I", "US"))
    a = p.parse_args()
    ch = read_changes(a.trace, a.line)
    if not ch:
        print("trace2vcd: %s: no level changes on line %d" % (a.trace, a.line), file=sys.stderr)
        return 2
    if a.move:
        i, us = a.move
        if not 0 <= i < len(ch):
            print("trace2vcd: --move %d: the line has %d changes" % (i, len(ch)), file=sys.stderr)
            return 2
        t = ch[i][0] + us
        if (i > 0 and t <= ch[i - 1][0]) or (i + 1 < len(ch) and t >= ch[i + 1][0]):
            print("trace2vcd: --move %d %d: change %d would pass a neighbour" % (i, us, i), file=sys.stderr)
            return 2
        ch[i] = (t, ch[i][1])
    write_vcd(a.out, ch, a.trace)
    return 0


if __name__ == "__main__":
    sys.exit(main())
