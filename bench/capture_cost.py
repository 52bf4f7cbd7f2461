#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Capture beside a run: what `sqwave capture` on the board under test costs
the RT thread (docs/benchmarks.md, "Capture beside a run").

    bench/capture_cost.py --sqwave build/sqwave [--out DIR] [--rounds 15]
                          [--seconds 5] [--rt-cpu N] [--rate 5M]
                          [--pattern incremental] [--no-on-rt]

In interleaved rounds (at least 15; the order of the variants turns each
round), on the same machine, `sqwave run` on the simulated board
(boards/sim.yaml, config/quick.yaml, rt.cpu = --rt-cpu, default the last
CPU this process may use):
  alone    the run by itself;
  beside   the run with `sqwave capture --driver demo` at --rate running
           through it, placed with `--cpu` on every other CPU; --pattern
           incremental (the default) over 8 channels puts an edge at every
           sample: the worst case, about 16 bytes of VCD a sample written
           through the page cache; all-low has no edge at all (a slow wave
           on a fast analyzer: the stream without the file);
  on-rt    the same capture placed with `--cpu` on rt.cpu (the wrong
           wiring).
Per round: the ratios beside/alone and on-rt/alone of the run's wake
latency p99 and max (its --json summary), and the capture's CPU time
(user + system of all its threads, from wait4) and context switches
(voluntary, involuntary) per second of its life, with the CPUs it ran on
as its --json says. Median of the per-round ratios with a bootstrap and
an order-statistic 95 % interval (bench/lines.py). libsigrok's demo
driver makes no USB interrupts: what an analyzer's USB host controller
costs is measured on the board itself (docs/instruments.md, "An analyzer
on the board under test"). Nothing is asserted: the figures go to
OUT/results.json and OUT/summary.md.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lines import interval, interval_text as ci  # noqa: E402
from precision import median  # noqa: E402

VARIANTS = ["alone", "beside", "on-rt"]
START_S = 1.0   # the capture's libsigrok setup, before the run starts


def log(msg):
    print(f"capture_cost: {msg}", file=sys.stderr, flush=True)


def cpus_text(cpus):
    return ",".join(str(c) for c in sorted(cpus))


def run_once(a, base):
    """The run; its wake latency p99 and max in ns."""
    cmd = [a.sqwave, "run", "--board", a.board, "--profile", a.profile, "--cpu", str(a.rt_cpu),
           "--duration", f"{a.seconds}s", "--quiet", "--log", base + ".sqwlog", "--json", base + ".json"]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"capture_cost: {' '.join(cmd)}: exit {p.returncode}: {p.stderr[-400:]}")
    with open(base + ".json") as f:
        w = json.load(f)["wake_latency"]
    os.unlink(base + ".sqwlog")
    return {"p99_ns": w["percentiles_ns"]["p99"], "max_ns": w["max_ns"], "count": w["count"]}


def with_capture(a, base, cpus):
    """The run with a capture placed on @cpus running through it; the
    capture's CPU time and context switches from wait4()."""
    cmd = [a.sqwave, "capture", "--driver", "demo", "-c", f"pattern={a.pattern}", "-r", a.rate,
           "--cpu", cpus, "-o", base + ".vcd", "--json", base + ".capture.json"]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(START_S)
    if p.poll() is not None:
        raise SystemExit(f"capture_cost: {' '.join(cmd)}: exit {p.returncode}: "
                         f"{p.stderr.read().decode()[-400:]}")
    try:
        run = run_once(a, base)
    finally:
        p.send_signal(signal.SIGINT)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    err = p.stderr.read().decode()
    p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"capture_cost: {' '.join(cmd)}: exit {p.returncode}: {err[-400:]}")
    with open(base + ".capture.json") as f:
        cj = json.load(f)
    os.unlink(base + ".vcd")
    run["capture"] = {"cpu_s": ru.ru_utime + ru.ru_stime, "wall_s": wall,
                      "cpu_fraction": (ru.ru_utime + ru.ru_stime) / wall,
                      "vcsw_per_s": ru.ru_nvcsw / wall, "ivcsw_per_s": ru.ru_nivcsw / wall,
                      "cpus": cj["cpus"], "samples": cj["samples"],
                      "edges": sum(c["edges"] for c in cj["channels"]),
                      "covered_fraction": cj["covered_fraction"]}
    return run



def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sqwave", default="build/sqwave")
    ap.add_argument("--board", default="boards/sim.yaml")
    ap.add_argument("--profile", default="config/quick.yaml")
    ap.add_argument("--out", default="build/bench/capture-cost")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--rt-cpu", type=int, default=None)
    ap.add_argument("--rate", default="5M", help="the demo capture's samplerate")
    ap.add_argument("--pattern", default="incremental", help="the demo's logic pattern")
    ap.add_argument("--no-on-rt", action="store_true", help="leave out the capture on rt.cpu")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        raise SystemExit("capture_cost: needs two CPUs (one for the run, one for the capture)")
    if a.rt_cpu is None:
        a.rt_cpu = allowed[-1]
    off = cpus_text(c for c in allowed if c != a.rt_cpu)
    variants = [v for v in VARIANTS if not (a.no_on_rt and v == "on-rt")]
    place = {"beside": off, "on-rt": str(a.rt_cpu)}
    rounds = []
    for r in range(a.rounds):
        k = r % len(variants)
        order = variants[k:] + variants[:k]
        rd = {}
        for v in order:
            base = os.path.join(a.out, f"r{r}-{v}")
            rd[v] = run_once(a, base) if v == "alone" else with_capture(a, base, place[v])
        rounds.append(rd)
        log(f"round {r + 1}/{a.rounds}: wake p99/max us " + ", ".join(
            f"{v} {rd[v]['p99_ns'] / 1e3:.1f}/{rd[v]['max_ns'] / 1e3:.0f}" for v in variants)
            + "; capture CPU " + ", ".join(
            f"{v} {rd[v]['capture']['cpu_fraction']:.2f}" for v in variants if v != "alone"))
    res = {"rounds": a.rounds, "seconds": a.seconds, "rt_cpu": a.rt_cpu, "capture_rate": a.rate,
           "pattern": a.pattern,
           "placement": place, "command": " ".join(sys.argv), "per_round": rounds, "ratios": {},
           "capture": {}}
    for v in variants[1:]:
        res["ratios"][v] = {q: interval([rd[v][q] / rd["alone"][q] for rd in rounds])
                            for q in ("p99_ns", "max_ns")}
        res["capture"][v] = {k: median([rd[v]["capture"][k] for rd in rounds])
                             for k in ("cpu_s", "wall_s", "cpu_fraction", "vcsw_per_s", "ivcsw_per_s")}
        res["capture"][v]["cpus_read_back"] = sorted({rd[v]["capture"]["cpus"] for rd in rounds})
    for v in variants:
        res.setdefault("medians_us", {})[v] = {
            q: median([rd[v][q] for rd in rounds]) / 1e3 for q in ("p99_ns", "max_ns")}
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(res, f, indent=2)
    L = [f"{a.rounds} rounds of a {a.seconds:g} s run (rt.cpu {a.rt_cpu}), demo capture at {a.rate}S/s, "
         f"pattern {a.pattern}",
         "",
         "| variant | capture --cpu (read back) | wake p99 us, median | wake max us, median | "
         "p99 ratio to alone, median [order-stat 95 %] | max ratio to alone | capture CPU (fraction of one) | "
         "capture csw/s voluntary, involuntary |",
         "|---|---|---|---|---|---|---|---|"]
    for v in variants:
        m = res["medians_us"][v]
        if v == "alone":
            L.append(f"| alone | - | {m['p99_ns']:.1f} | {m['max_ns']:.0f} | 1 | 1 | - | - |")
            continue
        rt, c = res["ratios"][v], res["capture"][v]
        L.append(f"| {v} | {','.join(c['cpus_read_back'])} | {m['p99_ns']:.1f} | {m['max_ns']:.0f} | "
                 f"{ci(rt['p99_ns'])} | {ci(rt['max_ns'])} | {c['cpu_fraction']:.2f} | "
                 f"{c['vcsw_per_s']:.0f}, {c['ivcsw_per_s']:.0f} |")
    with open(os.path.join(a.out, "summary.md"), "w") as f:
        f.write("\n".join(L) + "\n")
    print("\n".join(L))
    return 0


if __name__ == "__main__":
    sys.exit(main())
