#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hunt a rare stall with trace breaks, side by side with cyclictest.

Runs ROUNDS interleaved pairs: sqwave (sim board, 500 us, RT thread on
--cpu, --break THRESHOLD; each run traces its default events, scheduler, timers
and IRQs, in its own tracefs instance) and
cyclictest with the same period, priority and CPU. For every sqwave run it
looks in the log for the stall pattern seen once in about 25 soaks (a stretch of edges that each
skipped slots, woken about one half period late or more, one after the
other) and keeps the trace of each break; for every cyclictest run it keeps
the maximum latency. Prints one line per round and a summary; the traces
stay in OUTDIR.

    bench/stall-hunt.py --rounds 30 --seconds 60 --out build/stall-hunt
"""
import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "e2e"))
import sqwlog  # noqa: E402

TRACEFS = "/sys/kernel/tracing"


def tracefs_mount():
    if not os.path.exists(os.path.join(TRACEFS, "trace_marker")):
        subprocess.run(["mount", "-t", "tracefs", "nodev", TRACEFS], check=False)


def stretches(log, half):
    """Runs of consecutive edges that each skipped slots and woke at least
    a half period late: (first seq, length, missed periods, min/max latency us)."""
    out, cur = [], []
    for e in log["edges"]:
        seq, intended, wake, _, _, exp, _, flags = e
        lat = wake + (exp - 1) * half
        if exp >= 2 and lat >= half and not flags & 1:
            cur.append((seq, exp - 1, lat))
            continue
        if len(cur) >= 20:
            out.append(cur)
        cur = []
    if len(cur) >= 20:
        out.append(cur)
    return [(c[0][0], len(c), sum(x[1] for x in c), min(x[2] for x in c) / 1e3,
             max(x[2] for x in c) / 1e3) for c in out]


class StealWatch:
    """Samples the RT CPU's steal time (/proc/stat: time the hypervisor ran
    something else while this vCPU had work) every 100 ms in the background;
    worst() gives the largest stolen share of any 1 s window since mark()."""

    def __init__(self, cpu):
        self.key = f"cpu{cpu} "
        self.hz = os.sysconf("SC_CLK_TCK")
        self.samples = []
        self.stop = False
        self.t = threading.Thread(target=self.loop, daemon=True)
        self.t.start()

    def read(self):
        with open("/proc/stat") as f:
            for line in f:
                if line.startswith(self.key):
                    v = line.split()
                    return int(v[8]) if len(v) > 8 else 0
        return 0

    def loop(self):
        while not self.stop:
            self.samples.append((time.monotonic(), self.read()))
            time.sleep(0.1)

    def mark(self):
        self.since = time.monotonic()

    def worst(self):
        s = [x for x in self.samples if x[0] >= self.since]
        best, j = 0.0, 0
        for i in range(len(s)):
            while s[i][0] - s[j][0] > 1.0:
                j += 1
            if s[i][0] - s[j][0] >= 0.5:
                best = max(best, (s[i][1] - s[j][1]) / self.hz / (s[i][0] - s[j][0]))
        total = (s[-1][1] - s[0][1]) / self.hz / max(s[-1][0] - s[0][0], 1e-9) if len(s) > 1 else 0
        return 100 * best, 100 * total


def run_sqwave(args, i):
    log = os.path.join(args.out, f"sq{i}.sqwlog")
    cmd = [args.sqwave, "run", "--board", args.board, "--duration", f"{args.seconds}s",
           "--half-period", "500us", "--cpu", str(args.cpu), "--quiet", "--log", log,
           "--json", log + ".json", "--break", args.threshold,
           "--set", "trace.max_breaks=3", "--set", "trace.buffer_kb=8192"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"sqwave: exit {p.returncode}: {p.stderr}")
    lg = sqwlog.read(log)
    js = json.load(open(log + ".json"))
    breaks = [e["kv"] for e in lg["events"] if e["type"] == "break"]
    return {"max_us": js["wake_latency"]["max_ns"] / 1e3,
            "missed": js["counts"]["missed_periods"],
            "stretches": stretches(lg, lg["half_period_ns"]),
            "traces": [b.get("trace", "") for b in breaks]}


def run_cyclictest(args):
    # The histogram (1 us buckets to 4 ms, then overflows) counts the
    # wake-ups of 1 ms or more: the pattern's, had cyclictest met it.
    p = subprocess.run(["cyclictest", "-m", "-p", "90", "-i", "500", "-a", str(args.cpu),
                        "-t", "1", "-q", "-h", "4000", "-D", f"{args.seconds}"],
                       capture_output=True, text=True)
    m = re.search(r"Max Latencies:\s+(\d+)", p.stdout) or re.search(r"Max:\s+(\d+)", p.stdout)
    over_ms = 0
    for line in p.stdout.splitlines():
        h = re.match(r"^(\d{6})\s+(\d+)", line)
        if h and int(h.group(1)) >= 1000:
            over_ms += int(h.group(2))
        o = re.match(r"# Histogram Overflows:\s+(\d+)", line)
        if o:
            over_ms += int(o.group(1))
    return {"max_us": float(m.group(1)) if m else float("nan"), "over_1ms": over_ms}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--threshold", default="900us")
    ap.add_argument("--sqwave", default="build/sqwave")
    ap.add_argument("--board", default="boards/sim.yaml")
    ap.add_argument("--out", default="build/stall-hunt")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    tracefs_mount()
    steal = StealWatch(args.cpu)
    rows = []
    try:
        for i in range(args.rounds):
            steal.mark()
            s = run_sqwave(args, i)
            s["steal_worst_pct"], s["steal_pct"] = steal.worst()
            steal.mark()
            c = run_cyclictest(args)
            c["steal_worst_pct"], c["steal_pct"] = steal.worst()
            rows.append({"round": i, "sqwave": s, "cyclictest": c})
            print(f"round {i:2d}: sqwave max {s['max_us']:9.1f} us, missed {s['missed']:5d}, "
                  f"stretches {s['stretches']}, traces {len(s['traces'])}, steal worst 1 s "
                  f"{s['steal_worst_pct']:.0f} % | cyclictest max {c['max_us']:9.1f} us, "
                  f">=1 ms {c['over_1ms']}, steal worst 1 s {c['steal_worst_pct']:.0f} %",
                  flush=True)
    finally:
        steal.stop = True
    json.dump(rows, open(os.path.join(args.out, "rounds.json"), "w"), indent=1)
    hit = [r for r in rows if r["sqwave"]["stretches"]]
    print(f"\n{len(hit)} of {len(rows)} sqwave runs showed a stretch; cyclictest max over "
          f"all rounds {max(r['cyclictest']['max_us'] for r in rows):.1f} us")


if __name__ == "__main__":
    main()
