#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Several lines in one run (issue 20), run by `make bench` (bench/run):
# run.outputs per-cpu against cyclictest with one thread per CPU, and the
# write window of run.outputs together against one line, both in
# interleaved rounds. Results: build/bench/lines/{results.json,summary.md};
# docs/benchmarks.md explains them.
"""sqwave lines benchmark: per-cpu mode (one RT thread per line and CPU)
vs cyclictest -t N -a CPUS, per-thread wake latency p50/p99 ratios per
round, their median and 95 % intervals; together mode's write window vs
one line's."""

import argparse
import json
import math
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sqbench import Hist  # noqa: E402
from precision import (bootstrap_median_ci, csv_stats, machine_info,  # noqa: E402
                       median, ratio, run_timed, wait_quiet)

TARGET = 1.10


def log(msg):
    print(f"lines: {msg}", file=sys.stderr, flush=True)


def cpulist(s):
    out = []
    for part in s.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += range(int(a), int(b) + 1)
        elif part:
            out.append(int(part))
    return out


def online_cpus():
    with open("/sys/devices/system/cpu/online") as f:
        return f.read().strip()


def order_stat_ci(xs, level=0.95):
    """Distribution-free interval of the median: [x(k), x(n-k+1)] with the
    largest k whose binomial tail P(B(n, 1/2) < k) stays <= (1-level)/2.
    Returns (lo, hi, coverage), or Nones when n is too small."""
    xs = sorted(x for x in xs if x is not None)
    n = len(xs)
    tail = k = 0
    for j in range(n):
        t = tail + math.comb(n, j) / 2 ** n  # P(B <= j)
        if t > (1 - level) / 2:
            break
        tail, k = t, j + 1
    if k == 0:
        return None, None, None
    return xs[k - 1], xs[n - k], 1 - 2 * tail


def interval(xs):
    """Median of the per-round ratios with a seeded bootstrap and an
    order-statistic 95 % interval."""
    m, blo, bhi = bootstrap_median_ci(xs, level=0.95)
    olo, ohi, cov = order_stat_ci(xs)
    return {"median": m, "boot95": [blo, bhi], "order95": [olo, ohi],
            "order_coverage": cov, "per_round": xs}


def interval_text(i, fmt="{:.2f}"):
    """"median [lo, hi]" of an interval(); the order-statistic interval
    needs at least 6 rounds."""
    lo, hi = i["order95"]
    rng = f"[{fmt.format(lo)}, {fmt.format(hi)}]" if lo is not None else "[too few rounds]"
    return f"{fmt.format(i['median'])} {rng}"


def parse_ct_hist(path, nthreads):
    """cyclictest -N -h --histfile with -t N: 'value c0 c1 ...' rows (1 ns
    buckets) and '# Max Latencies: m0 m1 ...', '# Histogram Overflows:'
    trailers. One Hist per thread; the file is large (1 M rows) and read
    once."""
    hs = [Hist() for _ in range(nthreads)]
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                key, _, vals = line[1:].partition(":")
                vals = vals.split()
                if key.strip() == "Max Latencies" and len(vals) == nthreads:
                    for h, v in zip(hs, vals):
                        h.max = int(v)
                elif key.strip() == "Histogram Overflows" and len(vals) == nthreads:
                    for h, v in zip(hs, vals):
                        h.overflow = int(v)
                continue
            parts = line.split()
            if len(parts) != nthreads + 1:
                continue
            for h, c in zip(hs, parts[1:]):
                c = int(c)
                if c:
                    h.add(int(parts[0]), c)
    return hs


def analyze(a, logpath):
    """sqwave analyze LOG --json: the document (the summary's figures of
    that log)."""
    js = logpath[:-len(".sqwlog")] + ".analyze.json"
    subprocess.run([a.sqwave, "analyze", logpath, "--quiet", "--json", js], check=True,
                   stdout=subprocess.DEVNULL)
    with open(js) as f:
        return json.load(f)


def pct(dist, p):
    return dist["percentiles_ns"].get(p)


def run_tool(cmd, base):
    log(" ".join(cmd))
    rc, out, err, others = run_timed(cmd)
    with open(base + ".out", "w") as f:
        f.write(out + err)
    if rc not in (0, 1):
        sys.exit(f"lines: {cmd[0]} failed (exit {rc}):\n{err[-2000:]}")
    return [f"{c} (pid {p}, FIFO/RR {q})" for p, c, q in sorted(others)]


def sq_base(a, lines, base):
    cmd = [a.sqwave, "run", "--board", a.board, "--quiet", "--line", ",".join(map(str, lines)),
           "--priority", str(a.priority), "--half-period", f"{a.half_us}us",
           "--duration", f"{a.seconds}s", "--log", base + ".sqwlog", "--json", base + ".json"]
    if max(lines) + 3 > 8:  # the sim's last two lines are its duplicate-name lines
        cmd += ["--set", f"sim.num_lines={max(lines) + 3}"]
    return cmd


def line_log(base, line, nlines):
    """LOG.LINE.sqwlog for each line of a several-line run; one line keeps
    the name it was given (either is taken if it is there)."""
    suffixed = f"{base}.{line}.sqwlog"
    return suffixed if nlines > 1 or os.path.exists(suffixed) else base + ".sqwlog"


def sq_line(a, base, line, nlines, exact=True):
    """One line of a sqwave run: analyze's figures (the result), the exact
    wake latency from the exported CSV measured from the first deadline
    without an edge, as cyclictest counts a late wake-up (cross-check),
    and whether its RT thread was preempted."""
    lp = line_log(base, line, nlines)
    an = analyze(a, lp)
    with open(lp[:-len(".sqwlog")] + ".json") as f:
        summ = json.load(f)
    r = {"wake_p50_ns": pct(an["wake_latency"], "p50"),
         "wake_p99_ns": pct(an["wake_latency"], "p99"),
         "wake_max_ns": an["wake_latency"]["max_ns"],
         "cost_p50_ns": pct(an["write_cost"], "p50"),
         "cost_p99_ns": pct(an["write_cost"], "p99"),
         "cost_mean_ns": an["write_cost"]["mean_ns"],
         "edges": an["wake_latency"]["count"],
         "missed_periods": an["counts"]["missed_periods"],
         "nivcsw": summ["rusage"]["nivcsw"]}
    if exact:
        csv = lp[:-len(".sqwlog")] + ".csv"
        subprocess.run([a.sqwave, "export", lp, "--csv", csv], check=True)
        st = csv_stats(csv, a.half_us * 1000)
        r["exact_wake_p50_ns"] = st["wake"].percentile(50)
        r["exact_wake_p99_ns"] = st["wake"].percentile(99)
        os.unlink(csv)
    os.unlink(lp)
    return r


# ---- per-cpu against cyclictest ----------------------------------------------

def percpu_round(a, r):
    order = ["sqwave", "cyclictest"] if r % 2 == 0 else ["cyclictest", "sqwave"]
    rd = {"round": r + 1, "order": order, "disturbed": []}
    n = len(a.cpu_list)
    lines = a.free_lines[:n]  # the board's free lines, never its inputs
    wait_quiet(a.quiet_wait)
    for tool in order:
        base = os.path.join(a.out, f"percpu-r{r + 1}-{tool}")
        if tool == "cyclictest":
            cmd = ["cyclictest", "-t", str(n), "-a", a.cpus, "-p", str(a.priority),
                   "-i", str(a.half_us), "-m", "-q", "-N", "-h", "1000000",
                   f"--histfile={base}.hist", "-D", str(a.seconds)]
            rd["disturbed"] += [f"{tool}: {x}" for x in run_tool(cmd, base)]
            hs = parse_ct_hist(base + ".hist", n)
            os.unlink(base + ".hist")
            rd[tool] = [{"cpu": c, "wake_p50_ns": h.percentile(50),
                         "wake_p99_ns": h.percentile(99), "wake_max_ns": h.max,
                         "samples": h.n, "overflow": h.overflow}
                        for c, h in zip(a.cpu_list, hs)]
            continue
        # one CPU: one line on it, which is what per-cpu means there (sqwave
        # refuses rt.cpus for a single line)
        cmd = sq_base(a, lines, base) + (["--outputs", "per-cpu", "--cpus", a.cpus] if n > 1
                                         else ["--cpu", a.cpus])
        rd["disturbed"] += [f"{tool}: {x}" for x in run_tool(cmd, base)]
        rd[tool] = []
        for i in lines:
            x = sq_line(a, base, i, n)
            x["cpu"] = a.cpu_list[i]
            if x["nivcsw"]:
                rd["disturbed"].append(f"sqwave line {i}: RT thread preempted "
                                       f"{x['nivcsw']} times")
            rd[tool].append(x)
    rd["ratio"] = [{q: ratio(s[f"wake_{q}_ns"], c[f"wake_{q}_ns"]) for q in ("p50", "p99")}
                   | {"exact_" + q: ratio(s.get(f"exact_wake_{q}_ns"), c[f"wake_{q}_ns"])
                      for q in ("p50", "p99")}
                   for s, c in zip(rd["sqwave"], rd["cyclictest"])]
    log(f"  round {r + 1}: " + "; ".join(
        f"CPU {c}: p50 {s['wake_p50_ns'] / 1e3:.2f}/{ct['wake_p50_ns'] / 1e3:.2f} us "
        f"p99 {s['wake_p99_ns'] / 1e3:.2f}/{us_or(ct['wake_p99_ns'])} us"
        for c, s, ct in zip(a.cpu_list, rd["sqwave"], rd["cyclictest"])))
    return rd


def us_or(ns):
    return ">1000" if ns is None else f"{ns / 1e3:.2f}"


def with_retries(a, fn, r, retried):
    for attempt in range(a.retries + 1):
        rd = fn(a, r)
        if not rd["disturbed"]:
            break
        retried.append({"round": r + 1, "attempt": attempt + 1, "disturbed": rd["disturbed"],
                        "run_again": attempt < a.retries})
        log(f"  round {r + 1} disturbed by {rd['disturbed'][:3]}: "
            + ("again" if attempt < a.retries else "kept, marked"))
    return rd


def bench_percpu(a, res):
    rounds, retried = [], []
    for r in range(a.rounds):
        log(f"per-cpu round {r + 1}/{a.rounds}")
        rounds.append(with_retries(a, percpu_round, r, retried))
        dump(a, res | {"percpu": {"rounds": rounds}})
    n = len(a.cpu_list)
    out = {"rounds": rounds, "retried": retried,
           "disturbed_rounds_kept": [rd["round"] for rd in rounds if rd["disturbed"]],
           "threads": []}
    for i in range(n):
        t = {"cpu": a.cpu_list[i], "line": i}
        for q in ("p50", "p99", "exact_p50", "exact_p99"):
            t[q] = interval([rd["ratio"][i][q] for rd in rounds])
        for tool in ("sqwave", "cyclictest"):
            t[tool] = {f"{q}_median_ns": median([rd[tool][i][f"wake_{q}_ns"] for rd in rounds
                                                 if rd[tool][i][f"wake_{q}_ns"] is not None])
                       for q in ("p50", "p99")}
            t[tool] |= {f"{q}_range_ns": [f([rd[tool][i][f"wake_{q}_ns"] for rd in rounds
                                            if rd[tool][i][f"wake_{q}_ns"] is not None])
                                         for f in (min, max)] for q in ("p50", "p99")}
        t["met"] = all(t[q]["median"] is not None and t[q]["median"] <= TARGET
                       for q in ("p50", "p99"))
        out["threads"].append(t)
    res["percpu"] = out


# ---- together: the write window of one group write ---------------------------

def together_round(a, r):
    order = ["together", "single"] if r % 2 == 0 else ["single", "together"]
    rd = {"round": r + 1, "order": order, "disturbed": []}
    wait_quiet(a.quiet_wait)
    for mode in order:
        base = os.path.join(a.out, f"together-r{r + 1}-{mode}")
        lines = a.group_lines if mode == "together" else a.group_lines[:1]
        cmd = sq_base(a, lines, base) + ["--cpu", str(a.group_cpu)]
        if mode == "together":
            cmd += ["--outputs", "together"]
        rd["disturbed"] += [f"{mode}: {x}" for x in run_tool(cmd, base)]
        # every line of a group write has the same window: the first line's
        # log is the group's; the others are checked to have been written
        rs = [sq_line(a, base, ln, len(lines), exact=False) for ln in lines]
        rd[mode] = rs[0] | {"edges_per_line": [x["edges"] for x in rs]}
        for x in rs:
            if x["nivcsw"]:
                rd["disturbed"].append(f"{mode}: RT thread preempted {x['nivcsw']} times")
    t, s = rd["together"], rd["single"]
    rd["ratio"] = {q: ratio(t[f"cost_{q}_ns"], s[f"cost_{q}_ns"]) for q in ("p50", "p99", "mean")}
    rd["ratio"]["wake_p50"] = ratio(t["wake_p50_ns"], s["wake_p50_ns"])
    log(f"  round {r + 1}: write cost p50 {t['cost_p50_ns']}/{s['cost_p50_ns']} ns, "
        f"p99 {t['cost_p99_ns']}/{s['cost_p99_ns']} ns")
    return rd


def bench_together(a, res):
    rounds, retried = [], []
    for r in range(a.rounds):
        log(f"together round {r + 1}/{a.rounds}")
        rounds.append(with_retries(a, together_round, r, retried))
        dump(a, res | {"together": {"rounds": rounds}})
    out = {"rounds": rounds, "retried": retried,
           "disturbed_rounds_kept": [rd["round"] for rd in rounds if rd["disturbed"]]}
    for q in ("p50", "p99", "mean", "wake_p50"):
        out[q] = interval([rd["ratio"][q] for rd in rounds])
    for mode in ("together", "single"):
        out[mode] = {f"cost_{q}_median_ns": median([rd[mode][f"cost_{q}_ns"] for rd in rounds])
                     for q in ("p50", "p99", "mean")}
    res["together"] = out


# ---- report ------------------------------------------------------------------

def f2(x):
    return "-" if x is None else f"{x:.3f}"


def us(ns):
    return ">1000" if ns is None else f"{ns / 1e3:.2f}"


def ci_text(c):
    return (f"**{f2(c['median'])}** | {f2(c['boot95'][0])} .. {f2(c['boot95'][1])} | "
            f"{f2(c['order95'][0])} .. {f2(c['order95'][1])}")


def summary_md(a, res):
    m = res["machine"]
    L = [f"Run {m['date']}: {m['nproc']} CPUs ({m['cpu_model']}), kernel {m['kernel']}, "
         f"load average at start {m['loadavg']}; {m['sqwave_version']} ({m['git']}); "
         f"{m['cyclictest_version']}.", "",
         f"Settings: {a.rounds} rounds, {a.seconds} s a run, half period {a.half_us} us, "
         f"SCHED_FIFO {a.priority}; {res.get('elapsed_s', '?')} s in all.", ""]
    p = res.get("percpu")
    if p:
        n = len(a.cpu_list)
        L += [f"### Per-CPU: {n} lines on CPUs {a.cpus} vs `cyclictest -t {n} -a {a.cpus} "
              f"-p {a.priority} -i {a.half_us} -m -q -N -h 1000000 -D {a.seconds}`", "",
              "| round | order | " + " | ".join(
                  f"CPU {c}: sqwave p50 / p99 us | cyclictest p50 / p99 us | ratio p50 / p99"
                  for c in a.cpu_list) + " |",
              "|---|---|" + "---|---|---|" * n]
        for rd in p["rounds"]:
            cells = []
            for s, c, r in zip(rd["sqwave"], rd["cyclictest"], rd["ratio"]):
                cells.append(f"{us(s['wake_p50_ns'])} / {us(s['wake_p99_ns'])} | "
                             f"{us(c['wake_p50_ns'])} / {us(c['wake_p99_ns'])} | "
                             f"{f2(r['p50'])} / {f2(r['p99'])}")
            L.append(f"| {rd['round']}{' (disturbed)' if rd['disturbed'] else ''} | "
                     f"{', '.join(rd['order'])} | " + " | ".join(cells) + " |")
        L += ["", "| thread (CPU) | sqwave p50 / p99 us (median of rounds) | cyclictest p50 / p99 "
              "us | ratio | median | bootstrap 95 % | order-statistic 95 % | target |",
              "|---|---|---|---|---|---|---|---|"]
        for t in p["threads"]:
            sq, ct = t["sqwave"], t["cyclictest"]
            for q in ("p50", "p99"):
                L.append(f"| {t['cpu']} | {us(sq['p50_median_ns'])} / {us(sq['p99_median_ns'])} | "
                         f"{us(ct['p50_median_ns'])} / {us(ct['p99_median_ns'])} | {q} | "
                         f"{ci_text(t[q])} | "
                         f"{'met' if t[q]['median'] is not None and t[q]['median'] <= TARGET else '**missed**'} |")
        L += ["", "Cross-check, sqwave's exact CSV latency from the first deadline without an "
              "edge: median ratios " + "; ".join(
                  f"CPU {t['cpu']} p50 {f2(t['exact_p50']['median'])}, p99 "
                  f"{f2(t['exact_p99']['median'])}" for t in p["threads"]) + "."]
        again = [x for x in p["retried"] if x["run_again"]]
        if again:
            L.append(f"Rounds disturbed and run again: {len(again)} ("
                     + "; ".join(f"round {x['round']}: {', '.join(x['disturbed'][:2])}"
                                 for x in again[:4]) + ").")
        if p["disturbed_rounds_kept"]:
            L.append(f"Still disturbed, kept: rounds {p['disturbed_rounds_kept']}.")
    t = res.get("together")
    if t:
        L += ["", f"### Together: `--line {','.join(map(str, a.group_lines))} --outputs together` "
              f"vs `--line {a.group_lines[0]}`, CPU {a.group_cpu}, write cost (write_end - "
              "write_begin)", "",
              "| round | order | together p50 / p99 ns | single p50 / p99 ns | ratio p50 / p99 |",
              "|---|---|---|---|---|"]
        for rd in t["rounds"]:
            g, s = rd["together"], rd["single"]
            L.append(f"| {rd['round']}{' (disturbed)' if rd['disturbed'] else ''} | "
                     f"{', '.join(rd['order'])} | {g['cost_p50_ns']} / {g['cost_p99_ns']} | "
                     f"{s['cost_p50_ns']} / {s['cost_p99_ns']} | {f2(rd['ratio']['p50'])} / "
                     f"{f2(rd['ratio']['p99'])} |")
        L += ["", "| together / single, per round | median | bootstrap 95 % | order-statistic 95 % |",
              "|---|---|---|---|"]
        for q, name in (("p50", "write cost p50"), ("p99", "write cost p99"),
                        ("mean", "write cost mean"), ("wake_p50", "wake latency p50")):
            L.append(f"| {name} | {ci_text(t[q])} |")
        again = [x for x in t["retried"] if x["run_again"]]
        if again:
            L.append("")
            L.append(f"Rounds disturbed and run again: {len(again)}.")
        if t["disturbed_rounds_kept"]:
            L.append(f"Still disturbed, kept: rounds {t['disturbed_rounds_kept']}.")
    return "\n".join(L) + "\n"


def dump(a, res):
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(res, f, indent=1)


def env_int(name, default):
    v = os.environ.get(name)
    return int(v) if v else default


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sqwave", default="build/sqwave")
    ap.add_argument("--board", default="boards/sim.yaml")
    ap.add_argument("--out", default="build/bench/lines")
    ap.add_argument("--only", default="percpu,together")
    ap.add_argument("--rounds", type=int, default=env_int("BENCH_ROUNDS", 15),
                    help="rounds of each item (BENCH_ROUNDS; default 15)")
    ap.add_argument("--seconds", type=int, default=env_int("BENCH_SECONDS", 10),
                    help="length of every run (BENCH_SECONDS; default 10)")
    ap.add_argument("--cpus", default=online_cpus(),
                    help="per-cpu mode: one line and one cyclictest thread per CPU "
                         "(default: every online CPU)")
    ap.add_argument("--priority", type=int, default=90,
                    help="SCHED_FIFO priority of both tools (sqwave's rt.priority default)")
    ap.add_argument("--half-us", type=int, default=500,
                    help="sqwave's half period = cyclictest's interval, us")
    ap.add_argument("--group-lines", default="0,3", help="together mode's lines")
    ap.add_argument("--free-lines", default="0,3,4,5",
                    help="per-cpu mode's lines, one per CPU (the board's gpio.free_lines)")
    ap.add_argument("--group-cpu", type=int, default=None,
                    help="together mode's CPU (default: the last of --cpus)")
    ap.add_argument("--retries", type=int, default=1,
                    help="times a disturbed round is run again before it is kept")
    ap.add_argument("--quiet-wait", type=int, default=60,
                    help="seconds to wait, before a round, for other real-time processes to end")
    ap.add_argument("--command", default="bench/lines.py")
    a = ap.parse_args()
    a.cpu_list = cpulist(a.cpus)
    a.cpus = ",".join(map(str, a.cpu_list))
    a.group_lines = cpulist(a.group_lines)
    a.free_lines = cpulist(a.free_lines)
    if a.group_cpu is None:
        a.group_cpu = a.cpu_list[-1]
    if a.rounds < 1 or a.seconds < 1:
        sys.exit("lines: --rounds and --seconds must be at least 1")
    os.makedirs(a.out, exist_ok=True)
    res = {"command": a.command, "machine": machine_info(a),
           "settings": {"rounds": a.rounds, "seconds": a.seconds, "cpus": a.cpus,
                        "priority": a.priority, "half_period_us": a.half_us,
                        "group_lines": a.group_lines, "group_cpu": a.group_cpu,
                        "retries": a.retries}}
    t0 = time.monotonic()
    for name, fn in (("percpu", bench_percpu), ("together", bench_together)):
        if name in a.only.split(","):
            fn(a, res)
    res["elapsed_s"] = round(time.monotonic() - t0, 1)
    dump(a, res)
    md = summary_md(a, res)
    with open(os.path.join(a.out, "summary.md"), "w") as f:
        f.write(md)
    print(md)
    print(f"(raw results in {a.out}/; {res['elapsed_s']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
