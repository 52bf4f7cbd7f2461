#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The response-path benchmark, run by `make bench` (bench/run): `sqwave
# respond` against bench/respond_min.c (an event read and a line write on
# sqwave's gpio layer, nothing else) on the simulated board's stimulus, in
# interleaved rounds, and the instructions each spends per event (callgrind).
# Results: build/bench/respond/{results.json,summary.md}; docs/benchmarks.md
# explains them.
"""sqwave respond vs the bare responder: event -> write begin per round
(p50, p99, per-round ratios, median, bootstrap 90 % interval) and
instructions per event under callgrind."""

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind  # noqa: E402
from precision import bootstrap_median_ci, ratio, run_timed, wait_quiet  # noqa: E402
from sqbench import Hist  # noqa: E402

EDGE_F_WARMUP = 0x01
EDGE_F_NOEVENT = 0x40
TARGET = 1.05
GPIO_CALLS = ("gpio_in_read", "gpio_out_set")


def log(msg):
    print(f"respond-bench: {msg}", file=sys.stderr, flush=True)


def pk(p):
    return "p" + f"{p:g}".replace(".", "_") + "_ns"


def sqwave_lat(a, base):
    """Event -> write begin and wake-up -> write begin of each answer of a
    respond log, as its CSV export says (warm-up answers and writes that
    answer no event left out)."""
    subprocess.run([a.sqwave, "export", base + ".sqwlog", "--csv", base + ".csv"], check=True)
    h, w = Hist(), Hist()
    with open(base + ".csv") as f:
        cols = f.readline().strip().split(",")
        ix = {c: i for i, c in enumerate(cols)}
        for line in f:
            r = line.split(",")
            if int(r[ix["flags"]], 0) & (EDGE_F_WARMUP | EDGE_F_NOEVENT):
                continue
            h.add(int(r[ix["write_begin_ns"]]) - int(r[ix["intended_ns"]]))
            w.add(int(r[ix["write_begin_ns"]]) - int(r[ix["wake_ns"]]))
    os.unlink(base + ".sqwlog")
    os.unlink(base + ".csv")
    return h, w


def min_lat(path):
    h, w = Hist(), Hist()
    with open(path) as f:
        f.readline()
        for line in f:
            ev, wake, begin, _end = (int(x) for x in line.split(","))
            h.add(begin - ev)
            w.add(begin - wake)
    os.unlink(path)
    return h, w


def stim_sets(a):
    # The stimulus thread as an interrupt source is: SCHED_FIFO above both
    # responders, on the other CPU, so that neither tool's other threads
    # (sqwave's recorder, main loop, proof sampler) delay the stimulus and
    # the figures are the response path's own.
    return ["--set", f"sim.stim_period={a.period}", "--set", "sim.stim_count=0",
            "--set", f"sim.stim_priority={min(99, a.priority + 5)}",
            "--set", f"sim.stim_cpu={a.other_cpu}"]


def one_round(a, r):
    """Both tools once on the same stimulus, the order alternating by round.
    Both start on the other CPU (taskset), so that the sim's stimulus
    thread, made before the RT setup, stays there in both and the RT thread
    has its CPU to itself. A round is disturbed when another process ran
    real-time threads during it (precision.py's rule)."""
    order = ["sqwave", "minimal"] if r % 2 == 0 else ["minimal", "sqwave"]
    rd = {"round": r + 1, "order": order, "disturbed": []}
    wait_quiet()
    for tool in order:
        base = os.path.join(a.out, f"r{r + 1}-{tool}")
        if tool == "sqwave":
            cmd = [a.sqwave, "respond", "--board", a.board, "--quiet", "--cpu", str(a.cpu),
                   "--priority", str(a.priority), "--duration", f"{a.events * a.period_ns}ns",
                   "--log", base + ".sqwlog", "--json", base + ".json", *stim_sets(a)]
        else:
            cmd = [a.min, a.board, base + ".csv", str(a.events), "--cpu", str(a.cpu),
                   "--priority", str(a.priority), *stim_sets(a)]
        cmd = ["taskset", "-c", str(a.other_cpu), *cmd]
        log(f"round {r + 1}/{a.rounds}: {' '.join(cmd)}")
        rc, out, err, others = run_timed(cmd)
        with open(base + ".out", "w") as f:
            f.write(out + err)
        if rc not in (0, 1):
            sys.exit(f"respond-bench: {cmd[0]} failed (exit {rc}):\n{err}")
        rd["disturbed"] += [f"{tool}: {c} (pid {p}, FIFO/RR {q})" for p, c, q in sorted(others)]
        h, w = sqwave_lat(a, base) if tool == "sqwave" else min_lat(base + ".csv")
        rd[tool] = {"events": h.n, "write_begin": h.summary(), "wake_to_write": w.summary()}
        if h.n < a.events * 9 // 10:   # a run cut short is no comparison
            rd["disturbed"].append(f"{tool}: {h.n} of {a.events} events")
        if tool == "sqwave":
            with open(base + ".json") as f:
                js = json.load(f)
            rd[tool]["events_lost"] = js["respond"]["events_lost"]
            rd[tool]["nivcsw"] = js["rusage"]["nivcsw"]
    sq, mn = rd["sqwave"]["write_begin"], rd["minimal"]["write_begin"]
    sw, mw = rd["sqwave"]["wake_to_write"], rd["minimal"]["wake_to_write"]
    rd["ratio"] = {"p50": ratio(sq[pk(50)], mn[pk(50)]), "p99": ratio(sq[pk(99)], mn[pk(99)]),
                   "wake_p50": ratio(sw[pk(50)], mw[pk(50)]), "wake_p99": ratio(sw[pk(99)], mw[pk(99)])}
    return rd


def bench_rounds(a, res):
    rounds, retried = [], []
    for r in range(a.rounds):
        for attempt in range(a.retries + 1):
            rd = one_round(a, r)
            if not rd["disturbed"]:
                break
            retried.append({"round": r + 1, "attempt": attempt + 1, "disturbed": rd["disturbed"]})
            log(f"  round {r + 1} disturbed: " + ("again" if attempt < a.retries else "kept, marked"))
        log(f"  sqwave/minimal event -> write begin p50 {fmt(rd['ratio']['p50'])} "
            f"p99 {fmt(rd['ratio']['p99'])}"
            + (f"; disturbed: {rd['disturbed']}" if rd["disturbed"] else ""))
        rounds.append(rd)
    out = {"rounds": rounds, "retried": retried}
    for q in ("p50", "p99", "wake_p50", "wake_p99"):
        m, lo, hi = bootstrap_median_ci([rd["ratio"][q] for rd in rounds])
        out[q] = {"median": m, "ci90": [lo, hi], "per_round": [rd["ratio"][q] for rd in rounds]}
    out["target"] = f"median per-round p50 and p99 ratios (sqwave / minimal) <= {TARGET}"
    out["met"] = all(out[q]["median"] is not None and out[q]["median"] <= TARGET
                     for q in ("p50", "p99"))
    out["disturbed_rounds"] = [rd["round"] for rd in rounds if rd["disturbed"]]
    res["rounds"] = out


def per_event(p, root, events):
    """Instructions per event under @root (--toggle-collect=@root): all of
    it, and without the gpio layer's read and write (the same calls in both
    tools); less the direct callees of @root called at most twice (setup,
    the rusage at the ends) and lazy binding, which are one-time."""
    callees = {b: v for (x, b), v in p.calls.items() if x == root}
    one_time = {b: v for b, v in callees.items()
                if (v[0] <= 2 and events > 10) or b.startswith(callgrind.LAZY_BINDING)}
    total = callgrind.inclusive(p, root) - sum(v[1] for v in one_time.values())
    gpio = sum(v[1] for (x, b), v in p.calls.items() if b in GPIO_CALLS and x not in GPIO_CALLS)
    # what each function spends per event, its callees included, one level down
    rows = sorted(((b, v[0] / events, v[1] / events) for b, v in callees.items() if b not in one_time),
                  key=lambda t: -t[2])
    return {"events": events, "per_event": total / events,
            "per_event_without_gpio": (total - gpio) / events,
            "gpio_per_event": gpio / events, "self_per_event": p.self_cost.get(root, 0) / events,
            "callees": [{"function": b, "calls_per_event": c, "instructions_per_event": i}
                        for b, c, i in rows],
            "one_time": {b: {"calls": v[0], "instructions": v[1]} for b, v in one_time.items()}}


def bench_callgrind(a, res):
    out = {}
    for tool, root in (("sqwave", "respond_thread"), ("minimal", "respond_min_loop")):
        cg = os.path.join(a.out, f"callgrind-{tool}.out")
        base = os.path.join(a.out, f"callgrind-{tool}")
        run = [a.sqwave, "respond", "--board", a.board, "--quiet",
               "--duration", f"{a.cg_events * a.cg_period_ns}ns", "--log", base + ".sqwlog",
               "--set", "rt.lock_memory=false"] if tool == "sqwave" else \
            [a.min, a.board, base + ".csv", str(a.cg_events), "--no-mlock"]
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}",
               f"--toggle-collect={root}", *run,
               "--set", f"sim.stim_period={a.cg_period}", "--set", "sim.stim_count=0"]
        log("callgrind: " + " ".join(cmd))
        p = subprocess.run(cmd, capture_output=True, text=True)
        with open(base + ".stderr", "w") as f:
            f.write(p.stderr)
        if p.returncode not in (0, 1):
            sys.exit(f"respond-bench: {tool} under callgrind failed (exit {p.returncode}):\n"
                     f"{p.stderr[-3000:]}")
        for ext in (".sqwlog", ".csv"):
            if os.path.exists(base + ext):
                os.unlink(base + ext)
        prof = callgrind.load(cg)
        # events = line writes, counted by callgrind itself: one per event
        # in follow mode (sqwave may add one return to idle at the end)
        writes = sum(v[0] for (x, b), v in prof.calls.items() if b == "gpio_out_set")
        if not writes:
            sys.exit(f"respond-bench: callgrind saw no gpio_out_set under {root}")
        out[tool] = per_event(prof, root, writes)
        out[tool]["command"] = " ".join(cmd)
    out["ratio"] = ratio(out["sqwave"]["per_event"], out["minimal"]["per_event"])
    out["ratio_without_gpio"] = ratio(out["sqwave"]["per_event_without_gpio"],
                                      out["minimal"]["per_event_without_gpio"])
    res["callgrind"] = out


def us(ns, d=1):
    return "-" if ns is None else f"{ns / 1000:.{d}f}"


def fmt(x):
    return "-" if x is None else f"{x:.3f}"


def summary_md(res):
    L = [f"## sqwave respond vs a bare responder ({res['date']}, {res['host']['machine']}, "
         f"{res['host']['kernel']}, load average {res['host']['loadavg']})", ""]
    ro = res.get("rounds")
    if ro:
        s = res["settings"]
        L.append(f"{len(ro['rounds'])} interleaved rounds, {s['events']} events each on the "
                 f"simulated stimulus (sim.stim_period {s['period']}, both edges), RT thread on "
                 f"CPU {s['cpu']} at SCHED_FIFO {s['priority']}; event -> write begin.")
        L.append("")
        L.append("| round | order | minimal p50 / p99 us | sqwave p50 / p99 us | ratio p50 | ratio p99 |")
        L.append("|---|---|---|---|---|---|")
        for rd in ro["rounds"]:
            m, q = rd["minimal"]["write_begin"], rd["sqwave"]["write_begin"]
            L.append(f"| {rd['round']}{' (disturbed)' if rd['disturbed'] else ''} | "
                     f"{' then '.join(rd['order'])} | {us(m[pk(50)])} / {us(m[pk(99)])} | "
                     f"{us(q[pk(50)])} / {us(q[pk(99)])} | {fmt(rd['ratio']['p50'])} | "
                     f"{fmt(rd['ratio']['p99'])} |")
        for q in ("p50", "p99"):
            c = ro[q]
            L.append(f"\nMedian per-round {q} ratio: **{fmt(c['median'])}** "
                     f"(90 % bootstrap interval {fmt(c['ci90'][0])} .. {fmt(c['ci90'][1])})")
        L.append("\nThe part after the event read returns (wake-up -> write begin), per round:\n")
        L.append("| round | minimal p50 / p99 ns | sqwave p50 / p99 ns | ratio p50 | ratio p99 |")
        L.append("|---|---|---|---|---|")
        for rd in ro["rounds"]:
            m, q = rd["minimal"]["wake_to_write"], rd["sqwave"]["wake_to_write"]
            L.append(f"| {rd['round']} | {m[pk(50)]} / {m[pk(99)]} | {q[pk(50)]} / {q[pk(99)]} | "
                     f"{fmt(rd['ratio']['wake_p50'])} | {fmt(rd['ratio']['wake_p99'])} |")
        for q in ("wake_p50", "wake_p99"):
            c = ro[q]
            L.append(f"\nMedian per-round {q} ratio: **{fmt(c['median'])}** "
                     f"(90 % bootstrap interval {fmt(c['ci90'][0])} .. {fmt(c['ci90'][1])})")
        L.append(f"\nTarget ({ro['target']}): {'met' if ro['met'] else 'NOT met'}.")
    cg = res.get("callgrind")
    if cg:
        L.append("\n### Instructions per event (callgrind, user space, simulated GPIO)\n")
        L.append("| | minimal | sqwave respond | ratio |")
        L.append("|---|---|---|---|")
        m, q = cg["minimal"], cg["sqwave"]
        L.append(f"| all, gpio read and write included | {m['per_event']:.0f} | {q['per_event']:.0f} | "
                 f"{fmt(cg['ratio'])} |")
        L.append(f"| without gpio_in_read and gpio_out_set | {m['per_event_without_gpio']:.0f} | "
                 f"{q['per_event_without_gpio']:.0f} | {fmt(cg['ratio_without_gpio'])} |")
        L.append("\nsqwave respond's loop, per event (its direct callees, their callees included):\n")
        for c in q["callees"][:12]:
            L.append(f"- `{c['function']}`: {c['instructions_per_event']:.0f} "
                     f"({c['calls_per_event']:.2f} calls)")
        L.append(f"- `respond_thread` itself: {q['self_per_event']:.0f}")
    return "\n".join(L) + "\n"


def host():
    with open("/proc/loadavg") as f:
        la = f.read().split()[0]
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"machine": f"{cpu}, {os.cpu_count()} CPUs", "kernel": platform.release(), "loadavg": la}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sqwave", default="build/sqwave")
    ap.add_argument("--min", default="build/respond_min")
    ap.add_argument("--board", default="boards/sim.yaml")
    ap.add_argument("--out", default="build/bench/respond")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--events", type=int, default=5000, help="events per run")
    ap.add_argument("--period", default="1ms", help="sim.stim_period")
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--priority", type=int, default=90)
    ap.add_argument("--retries", type=int, default=2, help="runs of a disturbed round again")
    ap.add_argument("--cg-events", type=int, default=2000)
    ap.add_argument("--cg-period", default="2ms")
    ap.add_argument("--only", default="rounds,callgrind")
    a = ap.parse_args()
    units = {"us": 1000, "ms": 1000000, "s": 1000000000}
    for k in ("period", "cg_period"):
        m = re.fullmatch(r"([0-9.]+)(us|ms|s)", getattr(a, k))
        if not m:
            ap.error(f"--{k.replace('_', '-')}: a duration in us, ms or s")
        setattr(a, k + "_ns", int(float(m.group(1)) * units[m.group(2)]))
    a.other_cpu = 0 if a.cpu != 0 else 1
    os.makedirs(a.out, exist_ok=True)
    res = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
           "host": host(),
           "settings": {"rounds": a.rounds, "events": a.events, "period": a.period, "cpu": a.cpu,
                        "priority": a.priority, "cg_events": a.cg_events, "cg_period": a.cg_period}}
    only = a.only.split(",")
    if "rounds" in only:
        bench_rounds(a, res)
    if "callgrind" in only:
        bench_callgrind(a, res)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(res, f, indent=1)
    md = summary_md(res)
    with open(os.path.join(a.out, "summary.md"), "w") as f:
        f.write(md)
    print(md)
    return 0   # measured: the verdict is in the summary, as for bench/run


if __name__ == "__main__":
    sys.exit(main())
