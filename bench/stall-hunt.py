#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hunt a rare stall with trace breaks, side by side with cyclictest.

Runs ROUNDS interleaved pairs: sqwave (sim board, 500 us, RT thread on
--cpu, --break THRESHOLD with scheduler, timer and IRQ events traced) and
cyclictest with the same period, priority and CPU. For every sqwave run it
looks in the log for the pattern of issue 7 (a stretch of edges that each
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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "e2e"))
import sqwlog  # noqa: E402

TRACEFS = "/sys/kernel/tracing"
EVENTS = ["sched/sched_switch", "sched/sched_wakeup", "sched/sched_waking",
          "timer/hrtimer_start", "timer/hrtimer_expire_entry", "timer/hrtimer_cancel",
          "irq_vectors/local_timer_entry", "irq_vectors/local_timer_exit",
          "irq/irq_handler_entry", "kvm/kvm_exit"]


def tracefs_setup():
    if not os.path.exists(os.path.join(TRACEFS, "trace_marker")):
        subprocess.run(["mount", "-t", "tracefs", "nodev", TRACEFS], check=False)
    enabled = []
    for ev in EVENTS:
        p = os.path.join(TRACEFS, "events", ev, "enable")
        if os.path.exists(p):
            with open(p, "w") as f:
                f.write("1")
            enabled.append(ev)
    return enabled


def tracefs_teardown(enabled):
    for ev in enabled:
        with open(os.path.join(TRACEFS, "events", ev, "enable"), "w") as f:
            f.write("0")


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
    p = subprocess.run(["cyclictest", "-m", "-p", "90", "-i", "500", "-a", str(args.cpu),
                        "-t", "1", "-q", "-D", f"{args.seconds}"],
                       capture_output=True, text=True)
    m = re.search(r"Max:\s+(\d+)", p.stdout)
    return {"max_us": float(m.group(1)) if m else float("nan")}


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
    enabled = tracefs_setup()
    rows = []
    try:
        for i in range(args.rounds):
            s = run_sqwave(args, i)
            c = run_cyclictest(args)
            rows.append({"round": i, "sqwave": s, "cyclictest": c})
            print(f"round {i:2d}: sqwave max {s['max_us']:9.1f} us, missed {s['missed']:5d}, "
                  f"stretches {s['stretches']}, traces {len(s['traces'])} | "
                  f"cyclictest max {c['max_us']:9.1f} us", flush=True)
    finally:
        tracefs_teardown(enabled)
    json.dump(rows, open(os.path.join(args.out, "rounds.json"), "w"), indent=1)
    hit = [r for r in rows if r["sqwave"]["stretches"]]
    print(f"\n{len(hit)} of {len(rows)} sqwave runs showed a stretch; cyclictest max over "
          f"all rounds {max(r['cyclictest']['max_us'] for r in rows):.1f} us; "
          f"events traced: {', '.join(enabled)}")


if __name__ == "__main__":
    main()
