#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The precision measurements, run by `make bench` (bench/run): sqwave's wake
# latency and CPU time against cyclictest in interleaved rounds, the edge
# placement error of the default mode, --spin with a fixed lead and --spin
# auto side by side, and the recorder at 1 us with a 4,096-record ring.
# Results: build/bench/precision/{results.json,summary.md}; docs/benchmarks.md
# explains them.
"""sqwave precision benchmark: latency and CPU time vs cyclictest (per-round
ratios, median, bootstrap 90 % interval), edge placement error with and
without --spin, the recorder's wake-ups, affinity and drops."""

import argparse
import bisect
import datetime
import json
import os
import platform
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sqbench import Hist, parse_cyclictest_hist, read_footer  # noqa: E402

EDGE_F_WARMUP = 0x01
EDGE_F_SPIN = 0x10
EDGE_F_LATE = 0x20
PCTS = (50.0, 99.0, 99.9)


def log(msg):
    print(f"precision: {msg}", file=sys.stderr, flush=True)


def pk(p):
    return "p" + f"{p:g}".replace(".", "_") + "_ns"


PF_KTHREAD = 0x00200000


def foreign_rt(own):
    """User-space SCHED_FIFO/RR threads of processes other than @own (pids):
    another test or benchmark on this shared machine, which preempts or
    competes with the tools measured. {(pid, comm, rtprio)}."""
    found = set()
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) in own:
            continue
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for t in tids:
            try:
                with open(f"/proc/{pid}/task/{t}/stat") as f:
                    st = f.read()
            except OSError:
                continue
            fields = st[st.rindex(")") + 2:].split()
            if int(fields[6]) & PF_KTHREAD or int(fields[38]) not in (1, 2):
                continue
            found.add((int(pid), st[st.index("(") + 1:st.rindex(")")], int(fields[37])))
    return found


def wait_quiet(limit_s=300):
    """Wait (up to @limit_s) until no other process runs real-time threads."""
    t0 = time.monotonic()
    others = foreign_rt({os.getpid()})
    while others and time.monotonic() - t0 < limit_s:
        time.sleep(1)
        others = foreign_rt({os.getpid()})
    if others:
        log(f"still not quiet after {limit_s} s: {sorted(others)}")
    return not others


def run_timed(cmd):
    """Run @cmd to its end: (returncode, stdout, stderr, foreign real-time
    threads seen while it ran). Its CPU time is the difference of
    children_cpu() around the call (communicate() reaps it)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = set()
    while True:
        try:
            out, err = p.communicate(timeout=0.2)
            break
        except subprocess.TimeoutExpired:
            seen |= foreign_rt({os.getpid(), p.pid})
    return p.returncode, out, err, seen


def children_cpu():
    """User + system seconds of every reaped child, all its threads included."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def bootstrap_median_ci(xs, level=0.90, n=10000, seed=10):
    """Median of @xs and a percentile-bootstrap @level interval of it
    (resampling the rounds with replacement; seeded: the same data gives
    the same interval)."""
    xs = [x for x in xs if x is not None]
    if not xs:
        return None, None, None
    rng = random.Random(seed)
    med = median(xs)
    meds = sorted(median([rng.choice(xs) for _ in xs]) for _ in range(n))
    lo = meds[int((1 - level) / 2 * n)]
    hi = meds[min(n - 1, int((1 + level) / 2 * n))]
    return med, lo, hi


def median(xs):
    s = sorted(xs)
    k = len(s)
    return s[k // 2] if k % 2 else (s[k // 2 - 1] + s[k // 2]) / 2


def ratio(a, b):
    return None if a is None or b is None or b <= 0 else a / b


def csv_stats(csv_path, half_ns):
    """From an exported CSV: wake latency as cyclictest measures it (from the
    first deadline without an edge), placement error (write midpoint -
    intended), and the spin bookkeeping."""
    wake, place, over, cost = Hist(), Hist(), Hist(), Hist()
    n = late = spun = 0
    with open(csv_path) as f:
        cols = f.readline().strip().split(",")
        ix = {c: i for i, c in enumerate(cols)}
        for line in f:
            r = line.split(",")
            fl = int(r[ix["flags"]])
            if fl & EDGE_F_WARMUP:
                continue
            it = int(r[ix["intended_ns"]])
            w = int(r[ix["wake_ns"]]) - it
            b = int(r[ix["write_begin_ns"]]) - it
            e = int(r[ix["write_end_ns"]]) - it
            exp = int(r[ix["expirations"]])
            n += 1
            if not fl & EDGE_F_SPIN:
                wake.add(w + (exp - 1) * half_ns)
            place.add((b + e) // 2)
            cost.add(e - b)
            if fl & EDGE_F_LATE:
                late += 1
            elif fl & EDGE_F_SPIN:
                spun += 1
                over.add(b)  # the clock read that ended the spin - intended
    return {"wake": wake, "place": place, "overshoot": over, "cost": cost,
            "edges": n, "late": late, "spun": spun}


def thread_table(pid):
    """[(tid, comm, policy, last cpu, Cpus_allowed_list, voluntary switches)]"""
    rows = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return rows
    for t in tids:
        try:
            with open(f"/proc/{pid}/task/{t}/stat") as f:
                st = f.read()
            with open(f"/proc/{pid}/task/{t}/status") as f:
                status = dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
        except (OSError, ValueError):
            continue
        comm = st[st.index("(") + 1:st.rindex(")")]
        fields = st[st.rindex(")") + 2:].split()
        rows.append((int(t), comm, int(fields[38]), int(fields[36]),
                     status.get("Cpus_allowed_list", "").strip(),
                     int(status.get("voluntary_ctxt_switches", "0"))))
    return rows


def cpulist(s):
    out = set()
    for part in s.split(","):
        if "-" in part:
            a, b = part.split("-")
            out.update(range(int(a), int(b) + 1))
        elif part:
            out.add(int(part))
    return out


def run_watched(cmd, rt_cpu, interval=0.1):
    """Run @cmd, sampling its threads every @interval: how often a non-RT
    thread was last seen on @rt_cpu, their allowed CPUs, and the recorder's
    voluntary context switches (its wake-ups)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    samples = on_rt = 0
    allowed = {}
    rec_first = rec_last = None
    while p.poll() is None:
        for tid, comm, policy, cpu, cal, vol in thread_table(p.pid):
            if policy != 0:
                continue
            samples += 1
            on_rt += cpu == rt_cpu
            allowed[comm] = cal
            if comm == "sqwave-rec":
                now = time.monotonic() - t0
                if rec_first is None:
                    rec_first = (now, vol)
                rec_last = (now, vol)
        time.sleep(interval)
    out, err = p.communicate()
    wake_rate = None
    if rec_first and rec_last and rec_last[0] > rec_first[0]:
        wake_rate = (rec_last[1] - rec_first[1]) / (rec_last[0] - rec_first[0])
    return p.returncode, out, err, {
        "nonrt_samples": samples, "nonrt_samples_on_rt_cpu": on_rt,
        "allowed": allowed, "recorder_wakeups_per_s": wake_rate}


# ---- interleaved rounds ------------------------------------------------------

def sq_cmd(a, base, *extra):
    return [a.sqwave, "run", "--board", a.board, "--quiet", "--cpu", str(a.cpu),
            "--priority", str(a.priority), "--half-period", "500us",
            "--duration", f"{a.loops * 500}us", "--log", base + ".sqwlog",
            "--json", base + ".json", *extra]


def bench_rounds(a, res):
    tools = ["cyclictest", "default", "spin-fixed", "spin-auto"]
    extra = {"default": [], "spin-fixed": ["--spin", a.spin_fixed],
             "spin-auto": ["--spin", "auto"]}
    rounds = []
    pooled = {t: {"wake": Hist(), "place": Hist(), "overshoot": Hist(), "cost": Hist(),
                  "edges": 0, "late": 0, "spun": 0} for t in tools[1:]}
    pooled_ct = Hist()
    retried = []
    for r in range(a.rounds):
        for attempt in range(a.retries + 1):
            rd = one_round(a, r, tools, extra)
            if not rd["disturbed"]:
                break
            retried.append({"round": r + 1, "attempt": attempt + 1,
                            "disturbed": rd["disturbed"]})
            log(f"  round {r + 1} disturbed by {rd['disturbed']}: "
                + ("again" if attempt < a.retries else "kept, marked"))
        ct, sq = rd["cyclictest"], rd["default"]
        for t in tools[1:]:
            p = pooled[t]
            for k in ("wake", "place", "overshoot", "cost"):
                p[k].merge(rd[t].pop("_" + k))
            for k in ("edges", "late", "spun"):
                p[k] += rd[t][k]
        pooled_ct.merge(rd["cyclictest"].pop("_wake"))
        rd["ratio"] = {"p50": ratio(sq["wake"][pk(50)], ct["wake"][pk(50)]),
                       "p99": ratio(sq["wake"][pk(99)], ct["wake"][pk(99)])}
        for t in ("spin-fixed", "spin-auto"):
            rd["ratio"][t] = {q: ratio(rd[t]["place"][pk(p)], sq["place"][pk(p)])
                              for q, p in (("p99", 99.0), ("p99_9", 99.9))}
        log(f"  sqwave/cyclictest p50 {fmt(rd['ratio']['p50'])} p99 {fmt(rd['ratio']['p99'])}; "
            f"placement p99 us: default "
            f"{us(sq['place'][pk(99)])} fixed {us(rd['spin-fixed']['place'][pk(99)])} "
            f"auto {us(rd['spin-auto']['place'][pk(99)])}")
        rounds.append(rd)
        with open(os.path.join(a.out, "results.json"), "w") as f:
            json.dump({"rounds": rounds}, f, indent=1)
    return finish_rounds(a, res, rounds, pooled, pooled_ct, retried)


def one_round(a, r, tools, extra, quiet_wait=True):
    """Every tool once, in an order rotated by round. A round is disturbed
    when another process ran real-time threads during it, or sqwave's RT
    thread was preempted (involuntary context switches)."""
    order = tools[r % len(tools):] + tools[:r % len(tools)]
    rd = {"round": r + 1, "order": order, "disturbed": []}
    if quiet_wait:
        wait_quiet()
    for tool in order:
        base = os.path.join(a.out, f"r{r + 1}-{tool}")
        if tool == "cyclictest":
            cmd = ["cyclictest", "-m", "-p", str(a.priority), "-i", "500",
                   "-a", str(a.cpu), "-l", str(a.loops), "-q", "-N",
                   "-h", "1000000", f"--histfile={base}.hist.full"]
        else:
            cmd = sq_cmd(a, base, *extra[tool])
        log(f"round {r + 1}/{a.rounds}: {' '.join(cmd)}")
        c0 = children_cpu()
        t0 = time.monotonic()
        rc, out, err, others = run_timed(cmd)
        wall = time.monotonic() - t0
        cpu = children_cpu() - c0
        with open(base + ".out", "w") as f:
            f.write(out + err)
        if rc not in (0, 1):
            sys.exit(f"precision: {cmd[0]} failed (exit {rc}):\n{err}")
        rd["disturbed"] += [f"{tool}: {c} (pid {p}, FIFO/RR {q})" for p, c, q in sorted(others)]
        if tool == "cyclictest":
            h = parse_cyclictest_hist(base + ".hist.full", base + ".hist")
            os.unlink(base + ".hist.full")
            rd[tool] = {"wake": h.summary(), "cpu_s": cpu, "wall_s": wall, "_wake": h}
            continue
        subprocess.run([a.sqwave, "export", base + ".sqwlog", "--csv", base + ".csv"],
                       check=True)
        st = csv_stats(base + ".csv", 500_000)
        os.unlink(base + ".sqwlog")
        os.unlink(base + ".csv")
        with open(base + ".json") as f:
            js = json.load(f)
        if js["rusage"]["nivcsw"]:
            rd["disturbed"].append(f"{tool}: RT thread preempted "
                                   f"{js['rusage']['nivcsw']} times")
        rd[tool] = {"_wake": st["wake"], "_place": st["place"],
                    "_overshoot": st["overshoot"], "_cost": st["cost"],
                    "wake": st["wake"].summary(), "place": st["place"].summary(),
                    "overshoot": st["overshoot"].summary(), "cost": st["cost"].summary(),
                    "edges": st["edges"], "late": st["late"], "spun": st["spun"],
                    "cpu_s": cpu, "wall_s": wall,
                    "spin_fraction": (js.get("spin") or {}).get("fraction"),
                    "spin_lead_ns": js["run"].get("spin_lead_ns"),
                    "json_place_p99_ns": js["placement_error"]["percentiles_ns"]["p99"],
                    "nivcsw": js["rusage"]["nivcsw"]}
    return rd


def finish_rounds(a, res, rounds, pooled, pooled_ct, retried):
    def ci(key, sub=None):
        xs = [rd["ratio"][key] if sub is None else rd["ratio"][key][sub] for rd in rounds]
        m, lo, hi = bootstrap_median_ci(xs)
        return {"median": m, "ci90": [lo, hi], "per_round": xs}

    pool = {t: {k: (v.summary() if isinstance(v, Hist) else v) for k, v in pooled[t].items()}
            for t in pooled}
    pool["cyclictest"] = {"wake": pooled_ct.summary()}
    spin_pooled = {t: {q: ratio(pool[t]["place"][pk(p)], pool["default"]["place"][pk(p)])
                       for q, p in (("p99", 99.0), ("p99_9", 99.9))}
                   for t in ("spin-fixed", "spin-auto")}
    out = {
        "rounds": rounds, "pooled": pool,
        "latency_p50": ci("p50"), "latency_p99": ci("p99"),
        "spin_fixed": {"p99": ci("spin-fixed", "p99"), "p99_9": ci("spin-fixed", "p99_9"),
                       "pooled": spin_pooled["spin-fixed"]},
        "spin_auto": {"p99": ci("spin-auto", "p99"), "p99_9": ci("spin-auto", "p99_9"),
                      "pooled": spin_pooled["spin-auto"]},
        "settings": {"rounds": a.rounds, "loops": a.loops, "cpu": a.cpu,
                     "priority": a.priority, "spin_fixed": a.spin_fixed, "retries": a.retries},
        "retried": retried,
        "disturbed_rounds_kept": [rd["round"] for rd in rounds if rd["disturbed"]],
    }
    lat = out["latency_p50"]["median"], out["latency_p99"]["median"]
    out["floors"] = {
        "latency": {"target": "median per-round p50 and p99 ratios <= 1.10",
                    "met": all(x is not None and x <= 1.10 for x in lat)},
    }
    for t in ("spin_fixed", "spin_auto"):
        pr = out[t]["pooled"]
        out["floors"][t] = {
            "target": "placement p99 <= 1/10 and p99.9 <= 1/5 of the default mode's "
                      "(pooled over the rounds)",
            "met": pr["p99"] is not None and pr["p99"] <= 0.1 and
            pr["p99_9"] is not None and pr["p99_9"] <= 0.2}
    res["rounds"] = out


# ---- under load: the same rounds with a load both tools share -------------

def start_load(a):
    """The soak's load, outside both tools so that they meet the same one:
    stress-ng on every CPU but the measured one, and a loopback ping flood
    (CoreMark is not packaged: stress-ng's CPU stressors load the CPUs
    alike). Returns the processes."""
    others = sorted(set(os.sched_getaffinity(0)) - {a.cpu}) or [a.cpu]
    procs = []
    if shutil.which("stress-ng"):
        procs.append(subprocess.Popen(
            ["stress-ng", "--cpu", str(len(others)), "--taskset",
             ",".join(map(str, others)), "--quiet"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
    if shutil.which("ping"):
        procs.append(subprocess.Popen(["ping", "-f", "-q", "127.0.0.1"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      start_new_session=True))
    time.sleep(2)
    return procs


def stop_load(procs):
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()


def bench_loaded(a, res):
    """Wake latency of sqwave and cyclictest under the same load, in
    interleaved rounds (per-round ratios, bootstrap 90 % intervals)."""
    tools = ["cyclictest", "default"]
    procs = start_load(a)
    rounds, retried = [], []
    try:
        for r in range(a.rounds):
            for attempt in range(a.retries + 1):
                rd = one_round(a, r, tools, {"default": []}, quiet_wait=False)
                if not rd["disturbed"]:
                    break
                retried.append({"round": r + 1, "attempt": attempt + 1,
                                "disturbed": rd["disturbed"]})
            ct, sq = rd["cyclictest"], rd["default"]
            for t in tools:
                rd[t].pop("_wake", None)
                for k in ("_place", "_overshoot", "_cost"):
                    rd[t].pop(k, None)
            rd["ratio"] = {"p50": ratio(sq["wake"][pk(50)], ct["wake"][pk(50)]),
                           "p99": ratio(sq["wake"][pk(99)], ct["wake"][pk(99)])}
            log(f"  loaded round {r + 1}: sqwave/cyclictest p50 {fmt(rd['ratio']['p50'])} "
                f"p99 {fmt(rd['ratio']['p99'])}")
            rounds.append(rd)
    finally:
        stop_load(procs)
    out = {"rounds": rounds, "retried": retried,
           "load": "stress-ng --cpu N (every CPU but the measured one) + ping -f 127.0.0.1"}
    for q in ("p50", "p99"):
        xs = [rd["ratio"][q] for rd in rounds]
        m, lo, hi = bootstrap_median_ci(xs)
        out["latency_" + q] = {"median": m, "ci90": [lo, hi], "per_round": xs}
    lat = out["latency_p50"]["median"], out["latency_p99"]["median"]
    out["floors"] = {"latency": {"target": "median per-round p50 and p99 ratios <= 1.10, "
                                           "under load",
                                 "met": all(x is not None and x <= 1.10 for x in lat)}}
    res["loaded"] = out


# ---- CPU time against cyclictest -------------------------------------------------

def bench_cpu(a, res):
    """Pairs of runs of the same length, in alternating order: cyclictest
    without a histogram (dumping a 1 ns histogram of 1 ms writes a million
    lines at exit, which would flatter sqwave) and sqwave in its default
    mode, log and all."""
    pairs = []
    for r in range(a.cpu_pairs):
        pr = {"pair": r + 1}
        order = ("cyclictest", "sqwave") if r % 2 == 0 else ("sqwave", "cyclictest")
        for tool in order:
            base = os.path.join(a.out, f"cpu{r + 1}-{tool}")
            if tool == "cyclictest":
                cmd = ["cyclictest", "-m", "-p", str(a.priority), "-i", "500", "-a", str(a.cpu),
                       "-l", str(a.cpu_loops), "-q"]
            else:
                cmd = [a.sqwave, "run", "--board", a.board, "--quiet", "--cpu", str(a.cpu),
                       "--priority", str(a.priority), "--half-period", "500us",
                       "--duration", f"{a.cpu_loops * 500}us", "--log", base + ".sqwlog"]
            log(f"cpu pair {r + 1}/{a.cpu_pairs}: {' '.join(cmd)}")
            wait_quiet()
            c0 = children_cpu()
            t0 = time.monotonic()
            rc, out, err, others = run_timed(cmd)
            pr[tool] = {"cpu_s": children_cpu() - c0, "wall_s": time.monotonic() - t0,
                        "disturbed": [f"{c} (pid {p}, FIFO/RR {q})" for p, c, q in sorted(others)]}
            if rc not in (0, 1):
                sys.exit(f"precision: {cmd[0]} failed (exit {rc}):\n{err}")
            if tool == "sqwave":
                os.unlink(base + ".sqwlog")
        pr["ratio"] = ratio(pr["sqwave"]["cpu_s"], pr["cyclictest"]["cpu_s"])
        log(f"  CPU s cyclictest {pr['cyclictest']['cpu_s']:.3f}, sqwave "
            f"{pr['sqwave']['cpu_s']:.3f}: {fmt(pr['ratio'])}")
        pairs.append(pr)
    m, lo, hi = bootstrap_median_ci([p["ratio"] for p in pairs])
    res["cpu"] = {"pairs": pairs, "median": m, "ci90": [lo, hi], "loops": a.cpu_loops,
                  "target": "CPU time of a 500 us run <= 1.2 x cyclictest's (median of pairs)",
                  "met": m is not None and m <= 1.2}


# ---- the recorder: 1 us half period, 4,096-record ring; affinity ---------------

def bench_writer(a, res):
    rows = []
    for hp, ring, dur in (("1us", 4096, "5s"), ("500us", None, "10s")):
        base = os.path.join(a.out, f"writer-{hp}")
        cmd = [a.sqwave, "run", "--board", a.board, "--quiet", "--cpu", str(a.cpu),
               "--priority", str(a.priority), "--half-period", hp, "--duration", dur,
               "--log", base + ".sqwlog"]
        if ring:
            cmd += ["--set", f"run.ring_size={ring}"]
        log("writer: " + " ".join(cmd))
        rc, out, err, w = run_watched(cmd, a.cpu)
        if rc not in (0, 1):
            sys.exit(f"precision: sqwave run failed (exit {rc}):\n{err}")
        ft = read_footer(base + ".sqwlog")
        os.unlink(base + ".sqwlog")
        excl = all(a.cpu not in cpulist(v) for v in w["allowed"].values())
        rows.append({"half_period": hp, "ring": ring or 65536, "duration": dur,
                     "records": ft["records"] if ft else None,
                     "dropped": ft["dropped"] if ft else None,
                     "missed_periods": ft["missed_periods"] if ft else None,
                     "nonrt_allowed": w["allowed"], "nonrt_exclude_rt_cpu": excl,
                     "nonrt_samples": w["nonrt_samples"],
                     "nonrt_samples_on_rt_cpu": w["nonrt_samples_on_rt_cpu"],
                     "recorder_wakeups_per_s": w["recorder_wakeups_per_s"]})
        log(f"  {rows[-1]['records']} records, dropped {rows[-1]['dropped']}, non-RT threads "
            f"on CPU {a.cpu} in {w['nonrt_samples_on_rt_cpu']}/{w['nonrt_samples']} samples, "
            f"recorder {fmt(w['recorder_wakeups_per_s'])} wake-ups/s")
    res["writer"] = {"runs": rows,
                     "target": "0 dropped at 1 us with a 4,096-record ring; non-RT threads "
                               "never allowed on rt.cpu",
                     "met": rows[0]["dropped"] == 0 and all(r["nonrt_exclude_rt_cpu"]
                                                             for r in rows)}


# ---- what limits a spin: gaps in a clock-read loop, with ftrace ---------------

TRACEFS = "/sys/kernel/tracing"
GAP_EVENTS = ("irq_vectors:local_timer_entry", "irq_vectors:call_function_single_entry",
              "irq_vectors:call_function_entry", "irq_vectors:reschedule_entry",
              "irq_vectors:irq_work_entry", "irq:irq_handler_entry", "irq:softirq_entry",
              "sched:sched_switch", "timer:hrtimer_expire_entry")


def tracefs_write(name, value):
    with open(os.path.join(TRACEFS, name), "w") as f:
        f.write(value)


def bench_gaps(a, res):
    """Spin on the RT CPU as --spin does (bench/spin_gaps.c) with ftrace
    recording that CPU's interrupts, softirqs, timers and context switches on
    the monotonic trace clock; sort each gap in the loop by whether the guest
    kernel did something during it. A gap with no event at all is time the
    CPU was taken away below the kernel (the hypervisor) or an event not
    traced here."""
    exe = os.path.join(a.out, "spin_gaps")
    subprocess.run(["cc", "-O2", "-o", exe, "bench/spin_gaps.c"], check=True)
    if not os.path.exists(os.path.join(TRACEFS, "trace")):
        subprocess.run(["mount", "-t", "tracefs", "nodev", TRACEFS], check=False)
    traced = os.path.exists(os.path.join(TRACEFS, "trace"))
    saved = {}
    if traced:
        # Put back afterwards what is changed here.
        for name in ("tracing_on", "trace_clock", "tracing_cpumask", "buffer_size_kb"):
            with open(os.path.join(TRACEFS, name)) as f:
                v = f.read().strip()
            saved[name] = re.search(r"\[(\w+)\]", v).group(1) if name == "trace_clock" else v
        tracefs_write("tracing_on", "0")
        tracefs_write("current_tracer", "nop")
        tracefs_write("trace_clock", "mono")
        tracefs_write("tracing_cpumask", format(1 << a.cpu, "x"))
        tracefs_write("buffer_size_kb", "16384")
        tracefs_write("set_event", "")
        for e in GAP_EVENTS:
            # O_APPEND without the seek Python's "a" mode does: tracefs refuses it
            fd = os.open(os.path.join(TRACEFS, "set_event"), os.O_WRONLY | os.O_APPEND)
            try:
                os.write(fd, (e + "\n").encode())
            except OSError:
                log(f"no trace event {e} on this kernel")
            os.close(fd)
        tracefs_write("trace", "")
        tracefs_write("tracing_on", "1")
    wait_quiet()
    cmd = [exe, str(a.cpu), str(a.priority), str(a.gap_seconds), "2000"]
    log("gaps: " + " ".join(cmd) + (" (ftrace on)" if traced else " (no tracefs)"))
    rc, out, err, others = run_timed(cmd)
    events = []
    if traced:
        tracefs_write("tracing_on", "0")
        with open(os.path.join(TRACEFS, "trace")) as f:
            for line in f:
                m = re.match(r"\s*\S.*?-\d+\s+\[\d+\]\s+\S+\s+([\d.]+):\s+(\w+):(.*)", line)
                if m:
                    events.append((round(float(m.group(1)) * 1e6) * 1000, m.group(2),
                                   m.group(3).strip()))
        tracefs_write("set_event", "")
        tracefs_write("trace", "")
        for name in ("trace_clock", "tracing_cpumask", "buffer_size_kb", "tracing_on"):
            try:
                tracefs_write(name, saved[name])
            except OSError:
                log(f"could not restore {TRACEFS}/{name} to {saved[name]}")
    if rc != 0:
        sys.exit(f"precision: spin_gaps failed (exit {rc}):\n{err}")
    events.sort()
    ts = [e[0] for e in events]
    gaps, tail = [], {}
    for line in out.splitlines():
        w = line.split()
        if w[0] == "gap":
            gaps.append((int(w[1]), int(w[2])))
        elif w[0] == "reads":
            tail = {"reads": int(w[1]), "ns_per_read": float(w[3]), "spun_ns": int(w[5])}
    classes = {}
    kinds = {}
    for end, length in gaps:
        # trace timestamps have 1 us resolution: widen the window by 2 us
        lo = bisect.bisect_left(ts, end - length - 2000)
        hi = bisect.bisect_right(ts, end + 2000)
        inside = events[lo:hi]
        size = "2-10 us" if length < 10000 else "10-50 us" if length < 50000 else "> 50 us"
        cls = "guest" if inside else "none"
        c = classes.setdefault((cls, size), [0, 0])
        c[0] += 1
        c[1] += length
        for k in {e[1] + (":" + e[2].split("function=")[1].split()[0]
                          if e[1] == "hrtimer_expire_entry" else
                          ":" + e[2].split()[-1] if e[1] in ("softirq_entry",
                                                              "irq_handler_entry") else "")
                  for e in inside}:
            kinds[k] = kinds.get(k, 0) + 1
    spun = tail.get("spun_ns") or 1
    res["gaps"] = {
        "command": " ".join(cmd), "traced": traced, "disturbed": sorted(others), **tail,
        "gaps": len(gaps), "gap_ns": sum(g[1] for g in gaps),
        "stalled_fraction": sum(g[1] for g in gaps) / spun,
        "classes": {f"{k[0]} {k[1]}": v for k, v in sorted(classes.items())},
        "guest_event_kinds": dict(sorted(kinds.items(), key=lambda kv: -kv[1])[:12]),
    }
    log(f"  {len(gaps)} gaps over 2 us in {spun / 1e9:.1f} s of spinning, "
        f"{100 * res['gaps']['stalled_fraction']:.2f} % of the time")


# ---- report ------------------------------------------------------------------

def us(ns, d=1):
    return "-" if ns is None else f"{ns / 1000:.{d}f}"


def fmt(x):
    return "-" if x is None else f"{x:.2f}"


def yesno(b):
    return "**met**" if b else "**NOT met**"


def summary_md(res):
    L = []
    m = res["machine"]
    L.append(f"Run {m['date']}: {m['nproc']} CPUs, kernel {m['kernel']}, {m['cpu_model']}, "
             f"load average at start {m['loadavg']}, sched_rt_runtime_us "
             f"{m['sched_rt_runtime_us']}; {m['sqwave_version']} ({m['git']}).")
    L.append("")
    L.append(f"Command: `{res['command']}`")
    lo = res.get("loaded")
    if lo:
        L.append("")
        L.append(f"### Under load ({len(lo['rounds'])} interleaved rounds; load: {lo['load']})")
        L.append("")
        L.append("| round | order | cyclictest p50 / p99 us | sqwave p50 / p99 us | ratio p50 | ratio p99 |")
        L.append("|---|---|---|---|---|---|")
        for rd in lo["rounds"]:
            ct, sq = rd["cyclictest"], rd["default"]
            L.append(f"| {rd['round']} | {', '.join(rd['order'])} | "
                     f"{us(ct['wake'][pk(50)])} / {us(ct['wake'][pk(99)])} | "
                     f"{us(sq['wake'][pk(50)])} / {us(sq['wake'][pk(99)])} | "
                     f"{fmt(rd['ratio']['p50'])} | {fmt(rd['ratio']['p99'])} |")
        for q in ("p50", "p99"):
            c = lo["latency_" + q]
            L.append(f"\nMedian per-round {q} ratio under load: **{fmt(c['median'])}** "
                     f"(90 % bootstrap interval {fmt(c['ci90'][0])}-{fmt(c['ci90'][1])}).")
        L.append(f"Floor (ratios <= 1.10 under load): "
                 f"{yesno(lo['floors']['latency']['met'])}; rounds run again because "
                 f"another real-time process ran: {len(lo['retried'])}.")
    ro = res.get("rounds")
    if ro:
        s = ro["settings"]
        L.append("")
        L.append(f"### Interleaved rounds ({s['rounds']} rounds, {s['loops']} wake-ups per run, "
                 f"CPU {s['cpu']}, SCHED_FIFO {s['priority']}, 500 us)")
        L.append("")
        L.append("| round | order | cyclictest p50 / p99 us | sqwave p50 / p99 us | ratio p50 | "
                 "ratio p99 | placement p99 us: "
                 f"default / --spin {s['spin_fixed']} / auto | p99.9: default / fixed / auto |")
        L.append("|---|---|---|---|---|---|---|---|")
        for rd in ro["rounds"]:
            ct, sq, fx, au = rd["cyclictest"], rd["default"], rd["spin-fixed"], rd["spin-auto"]
            L.append(
                f"| {rd['round']} | {', '.join(o.replace('spin-', '') for o in rd['order'])} | "
                f"{us(ct['wake'][pk(50)])} / {us(ct['wake'][pk(99)])} | "
                f"{us(sq['wake'][pk(50)])} / {us(sq['wake'][pk(99)])} | "
                f"{fmt(rd['ratio']['p50'])} | {fmt(rd['ratio']['p99'])} | "
                f"{us(sq['place'][pk(99)])} / {us(fx['place'][pk(99)], 2)} / "
                f"{us(au['place'][pk(99)], 2)} | {us(sq['place'][pk(99.9)])} / "
                f"{us(fx['place'][pk(99.9)], 2)} / {us(au['place'][pk(99.9)], 2)} |")
        L.append("")
        if ro["retried"]:
            L.append(f"{len(ro['retried'])} round runs were disturbed (another process's "
                     "real-time threads, or sqwave's RT thread preempted) and run again: "
                     + "; ".join(f"round {x['round']}: {', '.join(x['disturbed'][:3])}"
                                 for x in ro["retried"][:6]) + ".")
        if ro["disturbed_rounds_kept"]:
            L.append(f"Still disturbed after {s.get('retries', '?')} retries, kept: rounds "
                     f"{ro['disturbed_rounds_kept']}.")
        L.append("")
        L.append("| sqwave default / cyclictest, per round | median | bootstrap 90 % interval | "
                 "range | floor |")
        L.append("|---|---|---|---|---|")
        for key, name, floor in (("latency_p50", "wake latency p50", "<= 1.10"),
                                 ("latency_p99", "wake latency p99", "<= 1.10")):
            c = ro[key]
            xs = [x for x in c["per_round"] if x is not None]
            L.append(f"| {name} | **{fmt(c['median'])}** | {fmt(c['ci90'][0])} - "
                     f"{fmt(c['ci90'][1])} | {fmt(min(xs))} - {fmt(max(xs))} | {floor} |")
        L.append("")
        L.append(f"Latency floor ({ro['floors']['latency']['target']}): "
                 f"{yesno(ro['floors']['latency']['met'])}.")
        L.append("")
        L.append("Edge placement error (write-window midpoint - intended), all rounds pooled:")
        L.append("")
        L.append("| mode | edges | p50 us | p99 us | p99.9 us | max us | late wake-ups | "
                 "spin overshoot p50 / p99 / p99.9 us | write cost p50 / p99 us | "
                 "p99 / default | p99.9 / default |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|")
        for t, name in (("default", "default"), ("spin-fixed", f"--spin {s['spin_fixed']}"),
                        ("spin-auto", "--spin auto")):
            p = ro["pooled"][t]
            pl, ov, co = p["place"], p["overshoot"], p["cost"]
            rr = ro["spin_fixed"]["pooled"] if t == "spin-fixed" else \
                ro["spin_auto"]["pooled"] if t == "spin-auto" else None
            L.append(f"| {name} | {p['edges']} | {us(pl[pk(50)], 3)} | {us(pl[pk(99)], 2)} | "
                     f"{us(pl[pk(99.9)], 2)} | {us(pl['max_ns'])} | {p['late']} | "
                     + (f"{us(ov[pk(50)], 3)} / {us(ov[pk(99)], 2)} / {us(ov[pk(99.9)], 2)}"
                        if ov["samples"] else "-")
                     + f" | {us(co[pk(50)], 3)} / {us(co[pk(99)], 3)} | "
                     + (f"{fmt(rr['p99'])} | {fmt(rr['p99_9'])} |" if rr else "1 | 1 |"))
        L.append("")
        for t, name in (("spin_fixed", f"--spin {s['spin_fixed']}"), ("spin_auto", "--spin auto")):
            c = ro[t]
            L.append(f"- {name}: per-round placement ratio to default, median (90 % interval): "
                     f"p99 {fmt(c['p99']['median'])} ({fmt(c['p99']['ci90'][0])} - "
                     f"{fmt(c['p99']['ci90'][1])}), p99.9 {fmt(c['p99_9']['median'])} "
                     f"({fmt(c['p99_9']['ci90'][0])} - {fmt(c['p99_9']['ci90'][1])}); floor "
                     f"(p99 <= 0.10, p99.9 <= 0.20 of default, pooled): "
                     f"{yesno(ro['floors'][t]['met'])}")
        leads = [rd["spin-auto"]["spin_lead_ns"] for rd in ro["rounds"]]
        fr = [rd[t]["spin_fraction"] for rd in ro["rounds"] for t in ("spin-fixed",)]
        fa = [rd["spin-auto"]["spin_fraction"] for rd in ro["rounds"]]
        L.append(f"- --spin auto ended with leads of {us(min(leads))}-{us(max(leads))} us; time "
                 f"spinning: fixed {100 * median(fr):.1f} %, auto {100 * median(fa):.1f} % "
                 f"(medians of rounds).")
    c = res.get("cpu")
    if c:
        L.append("")
        L.append(f"### CPU time, sqwave default mode vs cyclictest ({c['loops']} wake-ups per run, "
                 "pairs in alternating order)")
        L.append("")
        L.append("| pair | cyclictest CPU s (wall s) | sqwave CPU s (wall s) | ratio |")
        L.append("|---|---|---|---|")
        for p in c["pairs"]:
            L.append(f"| {p['pair']} | {p['cyclictest']['cpu_s']:.3f} "
                     f"({p['cyclictest']['wall_s']:.1f}) | {p['sqwave']['cpu_s']:.3f} "
                     f"({p['sqwave']['wall_s']:.1f}) | {fmt(p['ratio'])} |")
        L.append("")
        dist = [f"pair {p['pair']} {t}: {', '.join(p[t]['disturbed'])}" for p in c["pairs"]
                for t in ("cyclictest", "sqwave") if p[t]["disturbed"]]
        if dist:
            L.append("Disturbed by other real-time processes: " + "; ".join(dist) + ".")
            L.append("")
        L.append(f"Median ratio **{fmt(c['median'])}**, bootstrap 90 % interval "
                 f"{fmt(c['ci90'][0])} - {fmt(c['ci90'][1])}. Floor ({c['target']}): "
                 f"{yesno(c['met'])}.")
    w = res.get("writer")
    if w:
        L.append("")
        L.append("### The recorder and the RT CPU")
        L.append("")
        L.append("| half period | ring | edges | dropped | missed periods | non-RT threads' "
                 "allowed CPUs | samples of a non-RT thread on rt.cpu | recorder wake-ups/s |")
        L.append("|---|---|---|---|---|---|---|---|")
        for r in w["runs"]:
            al = ", ".join(f"{k}: {v}" for k, v in sorted(r["nonrt_allowed"].items()))
            L.append(f"| {r['half_period']} | {r['ring']} | {r['records']} | {r['dropped']} | "
                     f"{r['missed_periods']} | {al} | {r['nonrt_samples_on_rt_cpu']} of "
                     f"{r['nonrt_samples']} | {fmt(r['recorder_wakeups_per_s'])} |")
        L.append("")
        L.append(f"Floor ({w['target']}): {yesno(w['met'])}.")
    g = res.get("gaps")
    if g:
        L.append("")
        L.append(f"### What a spin cannot beat: gaps in a clock-read loop (`{g['command']}`"
                 + (", ftrace on that CPU" if g["traced"] else ", no tracefs") + ")")
        L.append("")
        L.append(f"{g.get('reads', 0):,} clock reads, {g.get('ns_per_read', 0):.1f} ns each; "
                 f"{g['gaps']:,} gaps over 2 us in {g.get('spun_ns', 0) / 1e9:.1f} s of spinning "
                 f"({g['gaps'] / (g.get('spun_ns', 0) / 1e9 or 1):.0f} a second), "
                 f"{100 * g['stalled_fraction']:.2f} % of the time"
                 + (f"; other real-time processes ran meanwhile: {g['disturbed']}"
                    if g["disturbed"] else "") + ".")
        L.append("")
        L.append("| gaps | count | total ms |")
        L.append("|---|---|---|")
        for k, (n, ns) in g["classes"].items():
            cls, size = k.split(" ", 1)
            name = ("with a guest kernel event" if cls == "guest" else "with no traced event") \
                + f", {size}"
            L.append(f"| {name} | {n} | {ns / 1e6:.1f} |")
        if g["guest_event_kinds"]:
            L.append("")
            L.append("Guest events inside gaps (gaps containing each): " + ", ".join(
                f"{k} {v}" for k, v in g["guest_event_kinds"].items()) + ".")
    return "\n".join(L) + "\n"


def machine_info(a):
    def sh(cmd):
        return subprocess.run(cmd, capture_output=True, text=True, shell=True).stdout.strip()
    u = platform.uname()
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": os.cpu_count(), "kernel": f"{u.release} {u.version}",
        "cpu_model": sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-").strip(),
        "loadavg": " ".join(open("/proc/loadavg").read().split()[:3]),
        "sqwave_version": (sh(f"{a.sqwave} --version").splitlines() or ["?"])[0],
        "git": sh("git describe --always --dirty 2>/dev/null") or "no git",
        "cyclictest_version": sh("cyclictest --help 2>&1 | head -1"),
        "sched_rt_runtime_us": sh("cat /proc/sys/kernel/sched_rt_runtime_us"),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sqwave", default="build/sqwave")
    ap.add_argument("--board", default="boards/sim.yaml")
    ap.add_argument("--out", default="build/bench/precision")
    ap.add_argument("--only", default="rounds,loaded,cpu,writer,gaps")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--loops", type=int, default=16000, help="wake-ups per run (x 500 us)")
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--priority", type=int, default=80)
    ap.add_argument("--spin-fixed", default="100us", help="the fixed lead of --spin")
    ap.add_argument("--retries", type=int, default=4,
                    help="times a disturbed round is run again before it is kept")
    ap.add_argument("--cpu-pairs", type=int, default=6)
    ap.add_argument("--gap-seconds", type=float, default=5.0,
                    help="length of the clock-read loop of the gaps item")
    ap.add_argument("--cpu-loops", type=int, default=20000, help="wake-ups per CPU-time run")
    ap.add_argument("--command", default="bench/precision.py")
    a = ap.parse_args()
    if a.loops % 2:
        a.loops += 1
    os.makedirs(a.out, exist_ok=True)
    # This script, and what it starts, stay off the measured CPU (the RT
    # threads pin themselves there); cyclictest's main thread and sqwave's
    # non-RT threads then live alike.
    others = set(os.sched_getaffinity(0)) - {a.cpu}
    if others:
        os.sched_setaffinity(0, others)
    res = {"command": a.command, "machine": machine_info(a)}
    t0 = time.monotonic()
    for name, fn in (("rounds", bench_rounds), ("loaded", bench_loaded), ("cpu", bench_cpu),
                     ("writer", bench_writer), ("gaps", bench_gaps)):
        if name in a.only.split(","):
            fn(a, res)
    res["elapsed_s"] = round(time.monotonic() - t0, 1)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(res, f, indent=1)
    md = summary_md(res)
    with open(os.path.join(a.out, "summary.md"), "w") as f:
        f.write(md)
    print(md)
    print(f"(raw results in {a.out}/; {res['elapsed_s']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
