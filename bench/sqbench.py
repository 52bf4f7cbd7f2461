#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The benchmark behind `make bench` (bench/run is the entry point): runs
# sqwave and cyclictest side by side and writes results.json + summary.md.
"""sqwave benchmark: wake latency vs cyclictest, instructions per edge,
writer throughput, memory. Timing is only ever compared within one run."""

import argparse
import datetime
from fractions import Fraction
import json
import math
import os
import platform
import re
import struct
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind  # noqa: E402  (bench/callgrind.py)

EDGE_F_WARMUP = 0x01
RECORD_SIZE = 32
FOOTER_SIZE = 64
FOOTER_MAGIC = 0x544F4F4656575153  # the bytes "SQWVFOOT" on disk (src/board/log/edgelog.h)
PCTS = (50.0, 99.0, 99.9)


def log(msg):
    print(f"bench: {msg}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    """Run @cmd, fail loudly with its stderr if it fails."""
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"bench: command failed (exit {p.returncode}): {' '.join(cmd)}\n"
                 f"{p.stderr.strip()}")
    return p


# ---- percentiles: one definition for both tools ------------------------------

class Hist:
    """Exact integer histogram (value in ns -> count). Percentiles are
    nearest-rank: the smallest value v with count(<= v) >= ceil(p/100 * n).
    `overflow` holds samples above the tracked range (cyclictest -h): their
    values are unknown, so a percentile that lands there is None."""

    def __init__(self):
        self.counts = {}
        self.overflow = 0
        self.max = None
        self.min = None
        self.sum = 0

    def add(self, v, n=1):
        self.counts[v] = self.counts.get(v, 0) + n
        self.sum += v * n
        self.max = v if self.max is None else max(self.max, v)
        self.min = v if self.min is None else min(self.min, v)

    def merge(self, other):
        for v, n in other.counts.items():
            self.counts[v] = self.counts.get(v, 0) + n
        self.overflow += other.overflow
        self.sum += other.sum
        for attr, f in (("max", max), ("min", min)):
            a, b = getattr(self, attr), getattr(other, attr)
            setattr(self, attr, b if a is None else a if b is None else f(a, b))

    @property
    def n(self):
        return sum(self.counts.values()) + self.overflow

    def percentile(self, p):
        n = self.n
        if n == 0:
            return None
        # exact arithmetic: in floats 99.9 / 100 * 2000 is 1998.0000000000002
        rank = max(1, math.ceil(Fraction(str(p)) * n / 100))
        cum = 0
        for v in sorted(self.counts):
            cum += self.counts[v]
            if cum >= rank:
                return v
        return None  # in the overflow: above the histogram's range

    def summary(self):
        d = {"samples": self.n, "min_ns": self.min, "max_ns": self.max}
        for p in PCTS:
            d[pkey(p)] = self.percentile(p)
        if self.overflow:
            d["overflow"] = self.overflow
        return d


def pkey(p):
    return "p" + (f"{p:g}".replace(".", "_")) + "_ns"


def ratio(a, b):
    if a is None or b is None or b <= 0:
        return None
    return a / b


# ---- sqwave helpers ----------------------------------------------------------

def read_footer(path):
    """Counts from the log footer (docs/log-format.md), or None if cut short."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        f.seek(0)
        hdr = f.read(56)
        rec_off = struct.unpack_from("<I", hdr, 16)[0]
        if size < rec_off + FOOTER_SIZE:
            return None
        f.seek(size - FOOTER_SIZE)
        ft = f.read(FOOTER_SIZE)
        first = last = None
        (seq_mark, magic, records, dropped, missed, _end, code, reason, _r) = \
            struct.unpack("<QQQQQQiIQ", ft)
        if seq_mark != 0xFFFFFFFFFFFFFFFF or magic != FOOTER_MAGIC:
            return None
        if records:
            f.seek(rec_off)
            first = f.read(RECORD_SIZE)
            f.seek(size - FOOTER_SIZE - RECORD_SIZE)
            last = f.read(RECORD_SIZE)
    out = {"records": records, "dropped": dropped, "missed_periods": missed,
           "exit_code": code, "stop_reason": reason, "file_bytes": size,
           "records_offset": rec_off,
           "record_bytes": size - rec_off - FOOTER_SIZE}
    if records:
        s0, i0, w0 = struct.unpack_from("<QQi", first)
        s1, i1, w1 = struct.unpack_from("<QQi", last)
        out["first_seq"], out["last_seq"] = s0, s1
        # seq is monotonic: no gap iff the span equals the count
        out["seq_gaps"] = (s1 - s0 + 1) - records
        out["span_ns"] = (i1 + w1) - (i0 + w0)  # first wake to last wake
    return out


def sqwave_cmd(a, *extra):
    return [a.sqwave, "run", "--board", a.board, "--quiet", *extra]


def export_csv(a, log_path, csv_path):
    run([a.sqwave, "export", log_path, "--csv", csv_path])


def csv_latencies(csv_path, half_ns):
    """Wake latency per edge from an exported CSV, measured like cyclictest:
    from the earliest deadline the wake-up served. sqwave writes a late edge
    for the latest expired slot (intended_ns) and counts the slots it skipped
    (expirations - 1); cyclictest reports the whole lateness once and skips
    the deadlines it missed, so the comparable figure is
    wake - (intended - (expirations - 1) * half period)."""
    h_first, h_slot = Hist(), Hist()
    edges = late = 0
    with open(csv_path) as f:
        cols = f.readline().strip().split(",")
        ix = {c: i for i, c in enumerate(cols)}
        for line in f:
            r = line.split(",")
            if int(r[ix["flags"]]) & EDGE_F_WARMUP:
                continue
            exp = int(r[ix["expirations"]])
            lat = int(r[ix["wake_ns"]]) - int(r[ix["intended_ns"]])
            h_slot.add(lat)
            h_first.add(lat + (exp - 1) * half_ns)
            edges += 1
            late += exp > 1
    return h_first, h_slot, edges, late


def json_wake(path):
    """Wake-latency percentiles from the JSON summary (docs/json-summary.md:
    wake_latency.percentiles_ns, per the latest slot), to cross-check the
    figures bench computes from the CSV. None if absent."""
    try:
        with open(path) as f:
            w = json.load(f)["wake_latency"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    pc = w.get("percentiles_ns") or {}
    out = {pkey(p): pc.get(f"p{p:g}") for p in PCTS}
    out["max_ns"] = w.get("max_ns")
    out["samples"] = w.get("count")
    return out


def kernel_hz():
    """CONFIG_HZ of the running kernel, or None."""
    import gzip
    rel = platform.uname().release
    for path, opener in (("/proc/config.gz", gzip.open), (f"/boot/config-{rel}", open)):
        try:
            with opener(path, "rt") as f:
                for line in f:
                    if line.startswith("CONFIG_HZ="):
                        return int(line.split("=")[1])
        except OSError:
            continue
    return None


def csv_tick_phase(csv_path, tick_ns):
    """sqwave's wake latency split by whether the edge's deadline falls on
    the scheduler tick grid (intended_ns a multiple of 1/HZ on
    CLOCK_MONOTONIC) or between ticks."""
    on, off = Hist(), Hist()
    with open(csv_path) as f:
        cols = f.readline().strip().split(",")
        ix = {c: i for i, c in enumerate(cols)}
        for line in f:
            r = line.split(",")
            if int(r[ix["flags"]]) & EDGE_F_WARMUP:
                continue
            t = int(r[ix["intended_ns"]])
            lat = int(r[ix["wake_ns"]]) - t
            (on if t % tick_ns == 0 else off).add(lat)
    return on, off


# ---- 1. wake latency against cyclictest --------------------------------------

def parse_cyclictest_hist(path, sparse_out):
    """cyclictest -N --histfile: 'value count' lines (1 ns buckets) and
    '# Max Latencies' / '# Histogram Overflows' trailers. Writes the non-empty
    buckets to @sparse_out and returns a Hist."""
    h = Hist()
    mx = None
    with open(path) as f, open(sparse_out, "w") as out:
        for line in f:
            if line.startswith("#"):
                out.write(line)
                m = re.match(r"# Max Latencies:\s*(\d+)", line)
                if m:
                    mx = int(m.group(1))
                m = re.match(r"# Histogram Overflows:\s*(\d+)", line)
                if m:
                    h.overflow = int(m.group(1))
                continue
            parts = line.split()
            if len(parts) >= 2 and parts[1].strip("0"):
                out.write(line)
                h.add(int(parts[0]), int(parts[1]))
    if mx is not None:
        h.max = mx
    return h


# The tools of the latency comparison. "cyclictest-aligned" is a control:
# cyclictest --secaligned=OFFSET starts on a whole second plus OFFSET us, so
# its deadlines sit on the same grid as sqwave's (slot 0 a whole millisecond
# plus RUN_GRID_OFFSET_NS, src/cmd/cmd_run.c: off the scheduler tick grid).
# Plain cyclictest's deadlines have a random phase.
LAT_TOOLS = ("cyclictest", "cyclictest-aligned", "sqwave")
SQWAVE_GRID_OFFSET_US = 250  # keep in step with RUN_GRID_OFFSET_NS


def bench_latency(a, res):
    half_ns = 500_000
    loops = a.loops
    duration_us = loops * half_ns // 1000
    tools = [t for t in LAT_TOOLS if a.aligned_control or t != "cyclictest-aligned"]
    hz = kernel_hz()
    rounds = []
    pooled = {t: Hist() for t in tools}
    pooled["sqwave_per_slot"] = Hist()
    phase = {"on_tick": Hist(), "between_ticks": Hist()}
    for r in range(a.rounds):
        order = tools[r % len(tools):] + tools[:r % len(tools)]  # rotate
        rd = {"round": r + 1, "order": order}
        for tool in order:
            base = os.path.join(a.out, f"latency-r{r + 1}-{tool}")
            if tool.startswith("cyclictest"):
                cmd = ["cyclictest", "-m", "-p", str(a.priority), "-i", "500",
                       "-a", str(a.cpu), "-l", str(loops), "-q", "-N",
                       "-h", str(a.hist_ns), f"--histfile={base}.hist.full"]
                if tool == "cyclictest-aligned":
                    cmd.append(f"--secaligned={SQWAVE_GRID_OFFSET_US}")
                log(f"latency round {r + 1}/{a.rounds}: {' '.join(cmd)}")
                p = run(cmd)
                h = parse_cyclictest_hist(base + ".hist.full", base + ".hist")
                os.unlink(base + ".hist.full")
                with open(base + ".out", "w") as f:
                    f.write(p.stdout + p.stderr)
                rd[tool] = h.summary()
            else:
                cmd = sqwave_cmd(a, "--cpu", str(a.cpu), "--priority", str(a.priority),
                                 "--half-period", "500us", "--duration", f"{duration_us}us",
                                 "--log", base + ".sqwlog", "--json", base + ".json")
                log(f"latency round {r + 1}/{a.rounds}: {' '.join(cmd)}")
                p = subprocess.run(cmd, capture_output=True, text=True)
                with open(base + ".out", "w") as f:
                    f.write(p.stdout + p.stderr)
                if p.returncode not in (0, 1):  # 1: a profile limit; still a run
                    sys.exit(f"bench: sqwave run failed (exit {p.returncode}):\n{p.stderr}")
                export_csv(a, base + ".sqwlog", base + ".csv")
                h, h_slot, edges, late = csv_latencies(base + ".csv", half_ns)
                if hz:
                    on, off = csv_tick_phase(base + ".csv", 1_000_000_000 // hz)
                    phase["on_tick"].merge(on)
                    phase["between_ticks"].merge(off)
                os.unlink(base + ".sqwlog")
                rd[tool] = h.summary()
                rd[tool]["late_edges"] = late
                rd["sqwave_per_slot"] = h_slot.summary()
                rd["sqwave_json"] = json_wake(base + ".json")
                pooled["sqwave_per_slot"].merge(h_slot)
            pooled[tool].merge(h)
        rd["ratio"] = {k: ratio(rd["sqwave"][k], rd["cyclictest"][k])
                       for k in [pkey(p) for p in PCTS] + ["max_ns"]}
        if "cyclictest-aligned" in rd:
            rd["ratio_aligned"] = {k: ratio(rd["sqwave"][k], rd["cyclictest-aligned"][k])
                                   for k in [pkey(p) for p in PCTS] + ["max_ns"]}
        rounds.append(rd)
        log("  sqwave/cyclictest: " + ", ".join(
            f"{k.replace('_ns', '')} {fmt_ratio(v)}" for k, v in rd["ratio"].items()))
    pool = {k: v.summary() for k, v in pooled.items()}
    keys = [pkey(p) for p in PCTS] + ["max_ns"]
    pool_ratio = {k: ratio(pool["sqwave"][k], pool["cyclictest"][k]) for k in keys}
    pool_ratio_aligned = None
    if "cyclictest-aligned" in pool:
        pool_ratio_aligned = {k: ratio(pool["sqwave"][k], pool["cyclictest-aligned"][k])
                              for k in keys}

    def ok(rr):
        return all(rr[pkey(p)] is not None and rr[pkey(p)] <= 1.10 for p in (50.0, 99.0))

    res["latency"] = {
        "cpu": a.cpu, "priority": a.priority, "interval_us": 500, "loops": loops,
        "sqwave_duration_us": duration_us, "cyclictest_hist_range_ns": a.hist_ns,
        "tools": tools, "rounds": rounds, "pooled": pool, "pooled_ratio": pool_ratio,
        "pooled_ratio_aligned": pool_ratio_aligned,
        "kernel_hz": hz,
        "sqwave_by_tick_phase": {k: v.summary() for k, v in phase.items()} if hz else None,
        "rounds_meeting_target": sum(1 for rd in rounds if ok(rd["ratio"])),
        "target": "pooled sqwave p50 and p99 <= 1.10 x cyclictest",
        "met": ok(pool_ratio),
    }


# ---- 2. instructions per edge (callgrind) ------------------------------------

def bench_callgrind(a, res):
    out = os.path.join(a.out, "callgrind.out")
    logp = os.path.join(a.out, "callgrind.sqwlog")
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
           "--toggle-collect=rtloop_thread",
           *sqwave_cmd(a, "--half-period", a.cg_half_period, "--duration", a.cg_duration,
                       "--set", "rt.lock_memory=false", "--allow-non-rt",
                       "--log", logp)]
    log("callgrind: " + " ".join(cmd))
    p = subprocess.run(cmd, capture_output=True, text=True)
    with open(os.path.join(a.out, "callgrind.stderr"), "w") as f:
        f.write(p.stderr)
    if p.returncode not in (0, 1):
        sys.exit(f"bench: sqwave under callgrind failed (exit {p.returncode}):\n{p.stderr[-3000:]}")
    ft = read_footer(logp)
    os.unlink(logp)
    cg = callgrind.load(out)
    r = callgrind.per_edge(cg, "rtloop_thread", excluded=("gpio_out_set",),
                           edge_fn="ring_push")
    r["records_logged"] = ft["records"] if ft else None
    r["missed_periods"] = ft["missed_periods"] if ft else None
    r["command"] = " ".join(cmd)
    # valgrind runs clock_gettime as a real syscall (no vDSO): replace the
    # wrapper's count with the natively single-stepped vDSO path.
    clk = [c for c in r["callees"] if c["function"].startswith("clock_gettime")]
    r["clock_calls_per_edge"] = sum(c["calls"] for c in clk) / r["edges"]
    r["clock_cost_valgrind"] = (sum(c["instructions"] for c in clk) /
                                max(1, sum(c["calls"] for c in clk)))
    r["clock_cost_native"] = vdso_steps(a)
    r["per_edge_native"] = None
    if r["clock_cost_native"] is not None:
        r["per_edge_native"] = r["per_edge_total"] + r["clock_calls_per_edge"] * (
            r["clock_cost_native"] - r["clock_cost_valgrind"])
    r["target"] = "loop user-space instructions per edge (excl. GPIO write) <= 500"
    worst = max(v for v in (r["per_edge_total"], r["per_edge_native"]) if v is not None)
    r["met"] = worst <= 500
    res["callgrind"] = r


def vdso_steps(a):
    """User-space instructions of one clock_gettime(CLOCK_MONOTONIC), median
    of 5 single-stepped counts (bench/vdso_steps.c), or None."""
    if not a.vdso_steps:
        return None
    vals = []
    for _ in range(5):
        p = subprocess.run([a.vdso_steps, "1000"], capture_output=True, text=True)
        m = re.search(r"instructions_per_call ([0-9.]+)", p.stdout)
        if p.returncode == 0 and m:
            vals.append(float(m.group(1)))
    return sorted(vals)[len(vals) // 2] if vals else None


# ---- 3. writer throughput ----------------------------------------------------

def thread_sample(pid):
    """{tid: (policy, runtime_ns)} from /proc (schedstat: ns on the CPU)."""
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for t in tids:
        try:
            with open(f"/proc/{pid}/task/{t}/stat") as f:
                st = f.read()
            with open(f"/proc/{pid}/task/{t}/schedstat") as f:
                rt_ns = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue
        fields = st[st.rindex(")") + 2:].split()
        policy = int(fields[38])  # field 41: 0 other, 1 fifo, 2 rr
        out[int(t)] = (policy, rt_ns)
    return out


def run_sampled(cmd, interval=0.2, child=False):
    """Run @cmd, sampling until it exits its threads' CPU time and its
    VmRSS/VmHWM (of its child with @child, e.g. under /usr/bin/time).
    Returns (CompletedProcess, {tid: (policy, ns)}, [(s, VmRSS, VmHWM) KiB])."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    threads, rss = {}, []
    t0 = time.monotonic()
    while p.poll() is None:
        pid = p.pid
        if child:
            try:
                with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
                    pid = int(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                pid = None
        if pid:
            for tid, v in thread_sample(pid).items():
                threads[tid] = v
            st = proc_status(pid)
            if st and "VmHWM" in st:
                rss.append((round(time.monotonic() - t0, 1), st.get("VmRSS"), st["VmHWM"]))
        time.sleep(interval)
    stdout, stderr = p.communicate()
    return subprocess.CompletedProcess(cmd, p.returncode, stdout, stderr), threads, rss


def proc_status(pid):
    """VmRSS, VmHWM, VmLck (KiB) from /proc/PID/status, or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            d = {}
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmRSS", "VmHWM", "VmLck"):
                    d[k] = int(v.split()[0])
            return d
    except (OSError, ValueError):
        return None


def bench_throughput(a, res):
    rows = []
    for hp in a.tp_half_periods:
        base = os.path.join(a.out, f"throughput-{hp}")
        cmd = sqwave_cmd(a, "--cpu", str(a.cpu), "--priority", str(a.priority),
                         "--half-period", hp, "--duration", a.tp_duration,
                         "--log", base + ".sqwlog", "--json", base + ".json")
        log("throughput: " + " ".join(cmd))
        p, threads, _ = run_sampled(cmd)
        with open(base + ".out", "w") as f:
            f.write(p.stdout + p.stderr)
        if p.returncode not in (0, 1):
            sys.exit(f"bench: sqwave run failed (exit {p.returncode}):\n{p.stderr}")
        ft = read_footer(base + ".sqwlog")
        if not ft:
            sys.exit(f"bench: {base}.sqwlog has no footer")
        if not a.keep:
            os.unlink(base + ".sqwlog")
        # threads: the FIFO one is the RT loop; of the others, the one that
        # used the most CPU is the writer (the main thread mostly sleeps).
        others = sorted((v[1] for tid, v in threads.items() if v[0] == 0), reverse=True)
        fifo = [v[1] for v in threads.values() if v[0] == 1]
        writer_ns = others[0] if others else None
        span_s = ft["span_ns"] / 1e9 if ft.get("span_ns") else None
        row = {
            "half_period": hp, "records": ft["records"], "dropped": ft["dropped"],
            "seq_gaps": ft.get("seq_gaps"), "missed_periods": ft["missed_periods"],
            "span_s": span_s,
            "edges_per_s": ft["records"] / span_s if span_s else None,
            "writer_cpu_ns_per_edge": writer_ns / ft["records"] if writer_ns and ft["records"] else None,
            "rt_cpu_ns_per_edge": fifo[0] / ft["records"] if fifo and ft["records"] else None,
        }
        if row["writer_cpu_ns_per_edge"]:
            row["writer_capacity_edges_per_s"] = 1e9 / row["writer_cpu_ns_per_edge"]
        rows.append(row)
        log(f"  {row['edges_per_s'] or 0:,.0f} edges/s, dropped {row['dropped']}, "
            f"writer {row['writer_cpu_ns_per_edge'] or 0:.0f} ns CPU/edge")
    best = max((r for r in rows if r["edges_per_s"]), key=lambda r: r["edges_per_s"],
               default=None)
    met = any(r["edges_per_s"] and r["edges_per_s"] >= 100_000 and r["dropped"] == 0
              and r["seq_gaps"] == 0 for r in rows) and all(r["dropped"] == 0 for r in rows)
    res["throughput"] = {"duration": a.tp_duration, "runs": rows,
                         "best_edges_per_s": best["edges_per_s"] if best else None,
                         "target": ">= 100,000 edges/s with 0 dropped records",
                         "met": met}


# ---- 4. memory ---------------------------------------------------------------

def bench_memory(a, res):
    rows = []
    for dur in a.mem_durations:
        base = os.path.join(a.out, f"memory-{dur}")
        cmd = ["/usr/bin/time", "-v", *sqwave_cmd(
            a, "--cpu", str(a.cpu), "--priority", str(a.priority),
            "--half-period", "500us", "--duration", dur,
            "--log", base + ".sqwlog", "--json", base + ".json")]
        log("memory: " + " ".join(cmd))
        p, _, rss = run_sampled(cmd, interval=0.5, child=True)
        with open(base + ".out", "w") as f:
            f.write(p.stdout + p.stderr)
        if p.returncode not in (0, 1):
            sys.exit(f"bench: sqwave run failed (exit {p.returncode}):\n{p.stderr}")
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
        ft = read_footer(base + ".sqwlog")
        if not ft:
            sys.exit(f"bench: {base}.sqwlog has no footer")
        if not a.keep:
            os.unlink(base + ".sqwlog")
        # VmHWM once the run is under way (2 s in) and at the last sample
        early = next((x for x in rss if x[0] >= 2.0), rss[0] if rss else None)
        rows.append({
            "duration": dur, "maxrss_kib": int(m.group(1)) if m else None,
            "vmhwm_early_kib": early[2] if early else None,
            "vmhwm_end_kib": rss[-1][2] if rss else None,
            "records": ft["records"], "file_bytes": ft["file_bytes"],
            "fixed_bytes": ft["file_bytes"] - ft["record_bytes"],
            "bytes_per_record": ft["record_bytes"] / ft["records"] if ft["records"] else None,
            "bytes_per_edge_file": ft["file_bytes"] / ft["records"] if ft["records"] else None,
        })
        log(f"  max RSS {rows[-1]['maxrss_kib']} KiB, {rows[-1]['records']} edges, "
            f"{rows[-1]['bytes_per_edge_file'] or 0:.3f} bytes/edge")
    d = marginal = None
    if len(rows) >= 2:
        if all(r["maxrss_kib"] for r in rows):
            d = rows[-1]["maxrss_kib"] - rows[0]["maxrss_kib"]
        de = rows[-1]["records"] - rows[0]["records"]
        if de > 0:
            marginal = (rows[-1]["file_bytes"] - rows[0]["file_bytes"]) / de
    res["memory"] = {
        "runs": rows, "rss_delta_kib": d, "log_bytes_per_extra_edge": marginal,
        "target": "max RSS of the short and the long run differ by < 1 MiB; "
                  "log <= 32 bytes per edge (plus a fixed header and footer)",
        "met": d is not None and abs(d) < 1024 and marginal is not None and marginal <= 32.0
        and all(r["bytes_per_record"] == 32.0 for r in rows),
        "long": a.long,
    }


# ---- report ------------------------------------------------------------------

def us(ns):
    return "-" if ns is None else f"{ns / 1000:.1f}"


def fmt_ratio(r):
    return "-" if r is None else f"{r:.2f}"


def yesno(b):
    return "**met**" if b else "**NOT met**"


def json_deviation(lat):
    """Largest relative difference between sqwave's JSON percentiles and the
    CSV-derived per-slot ones, over all rounds; None if no JSON had them."""
    worst = None
    for rd in lat["rounds"]:
        j, c = rd.get("sqwave_json"), rd.get("sqwave_per_slot")
        if not j or not c:
            continue
        for k in [pkey(p) for p in PCTS] + ["max_ns"]:
            if j.get(k) and c.get(k):
                d = abs(j[k] - c[k]) / c[k]
                worst = d if worst is None else max(worst, d)
    return worst


def summary_md(res):
    L = []
    m = res["machine"]
    L.append(f"Run {m['date']} on {m['nproc']} CPUs, kernel {m['kernel']} "
             f"({'PREEMPT_RT' if m['preempt_rt'] else 'not PREEMPT_RT'}), "
             f"{m['cpu_model']}, clocksource {m['clocksource']}, "
             f"load average at start {m['loadavg']}.")
    L.append(f"{m['sqwave_version']} ({m['git']}), {m['cyclictest_version']}, "
             f"{m['valgrind_version']}.")
    L.append("")
    L.append(f"Command: `{res['command']}`")
    lat = res.get("latency")
    if lat:
        L.append("")
        L.append(f"### Wake latency, sqwave vs cyclictest (CPU {lat['cpu']}, SCHED_FIFO "
                 f"{lat['priority']}, 500 us, {lat['loops']} wake-ups per run, interleaved)")
        L.append("")
        L.append("| round | tool | p50 us | p99 us | p99.9 us | max us | samples |")
        L.append("|---|---|---|---|---|---|---|")

        over = f">{lat['cyclictest_hist_range_ns'] / 1000:g}"

        def v(s_, k):  # a cyclictest percentile beyond its histogram's range
            return over if s_[k] is None and s_.get("overflow") else us(s_[k])

        def row(rnd, name, s_):
            return (f"| {rnd} | {name} | {v(s_, pkey(50))} | {v(s_, pkey(99))} | "
                    f"{v(s_, pkey(99.9))} | {us(s_['max_ns'])} | {s_['samples']} |")

        def rrow(rnd, name, rr):
            return (f"| {rnd} | *{name}* | {fmt_ratio(rr[pkey(50)])} | "
                    f"{fmt_ratio(rr[pkey(99)])} | {fmt_ratio(rr[pkey(99.9)])} | "
                    f"{fmt_ratio(rr['max_ns'])} | |")

        for rd in lat["rounds"]:
            for i, tool in enumerate(rd["order"]):
                L.append(row(rd["round"], f"{i + 1}. {tool}", rd[tool]))
            L.append(rrow(rd["round"], "sqwave / cyclictest", rd["ratio"]))
            if rd.get("ratio_aligned"):
                L.append(rrow(rd["round"], "sqwave / cyclictest-aligned", rd["ratio_aligned"]))
        for tool in lat["tools"]:
            L.append(row("all", f"**{tool}**", lat["pooled"][tool]))
        L.append(rrow("all", "**sqwave / cyclictest**", lat["pooled_ratio"]))
        if lat.get("pooled_ratio_aligned"):
            L.append(rrow("all", "**sqwave / cyclictest-aligned**", lat["pooled_ratio_aligned"]))
        L.append("")
        L.append(f"Target ({lat['target']}): {yesno(lat['met'])}; "
                 f"{lat['rounds_meeting_target']} of {len(lat['rounds'])} rounds meet it "
                 f"on their own.")
        dev = json_deviation(lat)
        if dev is not None:
            L.append("")
            L.append(f"Cross-check: the percentiles in sqwave's own JSON summary agree with "
                     f"those bench computes from the exported CSV within {dev:.2%} "
                     f"(its histogram is log-linear, 0.4 % resolution).")
        ph = lat.get("sqwave_by_tick_phase")
        if ph:
            tick_us = 1e6 / lat["kernel_hz"]
            L.append("")
            L.append(f"sqwave's wake latency by deadline phase (kernel HZ={lat['kernel_hz']}: "
                     f"a tick every {tick_us:g} us on CLOCK_MONOTONIC):")
            L.append("")
            L.append("| sqwave edges whose deadline is | p50 us | p99 us | p99.9 us | max us | samples |")
            L.append("|---|---|---|---|---|---|")
            for k, name in (("on_tick", "on a tick"), ("between_ticks", "between ticks")):
                s_ = ph[k]
                L.append(f"| {name} | {us(s_[pkey(50)])} | {us(s_[pkey(99)])} | "
                         f"{us(s_[pkey(99.9)])} | {us(s_['max_ns'])} | {s_['samples']} |")
    cg = res.get("callgrind")
    if cg:
        L.append("")
        L.append("### Instructions per edge in the RT loop (callgrind, simulated GPIO)")
        L.append("")
        L.append(f"{cg['edges']} edges. Per edge:")
        L.append("")
        L.append("| part | instructions/edge |")
        L.append("|---|---|")
        for name, v in cg["breakdown"]:
            L.append(f"| {name} | {v:.1f} |")
        L.append(f"| **loop user-space work, excluding the GPIO write, as callgrind counts it** | "
                 f"**{cg['per_edge_total']:.1f}** |")
        if cg.get("per_edge_native") is not None:
            L.append(f"| **same, with the {cg['clock_calls_per_edge']:.0f} clock reads' native vDSO "
                     f"path ({cg['clock_cost_native']:.0f} instead of "
                     f"{cg['clock_cost_valgrind']:.0f} instructions each)** | "
                     f"**{cg['per_edge_native']:.1f}** |")
        L.append(f"| (excluded) GPIO write, `gpio_out_set` incl. sim backend | "
                 f"{cg['per_edge_excluded']:.1f} |")
        L.append(f"| (excluded) one-time setup/teardown, total over the run | "
                 f"{cg['one_time_total']} |")
        L.append("")
        L.append(f"Target ({cg['target']}): {yesno(cg['met'])}.")
    tp = res.get("throughput")
    if tp:
        L.append("")
        L.append(f"### Writer throughput (simulated GPIO, {tp['duration']} per run)")
        L.append("")
        L.append("| half period | edges | edges/s | missed periods | dropped | seq gaps | "
                 "writer CPU ns/edge | writer capacity edges/s | RT thread CPU ns/edge |")
        L.append("|---|---|---|---|---|---|---|---|---|")
        for r in tp["runs"]:
            L.append(f"| {r['half_period']} | {r['records']:,} | "
                     f"{r['edges_per_s'] or 0:,.0f} | {r['missed_periods']:,} | "
                     f"{r['dropped']} | {r['seq_gaps']} | "
                     f"{r['writer_cpu_ns_per_edge'] or 0:.0f} | "
                     f"{r.get('writer_capacity_edges_per_s') or 0:,.0f} | "
                     f"{r['rt_cpu_ns_per_edge'] or 0:.0f} |")
        L.append("")
        L.append(f"Target ({tp['target']}): {yesno(tp['met'])}.")
    mem = res.get("memory")
    if mem:
        L.append("")
        L.append("### Memory and log size (500 us half period)")
        L.append("")
        L.append("| run | max RSS KiB (time -v) | VmHWM at 2 s KiB | VmHWM at end KiB | edges | "
                 "log bytes | fixed bytes (header+footer) | bytes/record | bytes/edge (whole file) |")
        L.append("|---|---|---|---|---|---|---|---|---|")
        for r in mem["runs"]:
            L.append(f"| {r['duration']} | {r['maxrss_kib']} | {r['vmhwm_early_kib']} | "
                     f"{r['vmhwm_end_kib']} | {r['records']:,} | {r['file_bytes']:,} | "
                     f"{r['fixed_bytes']:,} | {r['bytes_per_record']:.3f} | "
                     f"{r['bytes_per_edge_file']:.3f} |")
        L.append("")
        mg = mem["log_bytes_per_extra_edge"]
        L.append(f"Max RSS, longest run - shortest: {mem['rss_delta_kib']} KiB. Log bytes per "
                 f"additional edge: {'-' if mg is None else f'{mg:.3f}'}. "
                 f"Target ({mem['target']}): {yesno(mem['met'])}."
                 + ("" if mem["long"] else " (Quick mode: `bench/run --long` runs 10 min.)"))
    return "\n".join(L) + "\n"


def machine_info(a):
    def sh(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, shell=True).stdout.strip()
        except OSError:
            return ""
    u = platform.uname()
    preempt_rt = os.path.exists("/sys/kernel/realtime") or "PREEMPT_RT" in u.version
    cpu = sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-").strip()
    cs = sh("cat /sys/devices/system/clocksource/clocksource0/current_clocksource")
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": os.cpu_count(), "kernel": f"{u.release} {u.version}",
        "preempt_rt": preempt_rt, "cpu_model": cpu or u.machine, "clocksource": cs,
        "loadavg": " ".join(open("/proc/loadavg").read().split()[:3]),
        "sqwave_version": (sh(f"{a.sqwave} --version").splitlines() or ["?"])[0],
        "git": sh("git describe --always --dirty 2>/dev/null") or "no git",
        "cyclictest_version": sh("cyclictest --help 2>&1 | head -1") or "cyclictest ?",
        "valgrind_version": sh("valgrind --version"),
        "sched_rt_runtime_us": sh("cat /proc/sys/kernel/sched_rt_runtime_us"),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sqwave", default="build/sqwave")
    ap.add_argument("--board", default="boards/sim.yaml")
    ap.add_argument("--out", default="build/bench")
    # latency: the pooled five-round comparison of sessions A-C; the
    # interleaved rounds with per-round ratios (bench/precision.py) replace
    # it in `make bench`, so it runs only on request.
    ap.add_argument("--only", default="callgrind,throughput,memory")
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--priority", type=int, default=90)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--loops", type=int, default=16000,
                    help="wake-ups per latency run (x 500 us)")
    ap.add_argument("--no-aligned-control", dest="aligned_control", action="store_false",
                    help="skip the cyclictest --secaligned control runs "
                         "(cyclictest on sqwave's deadline grid)")
    ap.add_argument("--hist-ns", type=int, default=1_000_000,
                    help="cyclictest histogram range in ns (1 ns buckets)")
    ap.add_argument("--cg-half-period", default="100us")
    ap.add_argument("--cg-duration", default="1s")
    ap.add_argument("--tp-half-periods", default="5us,2us,1us")
    ap.add_argument("--tp-duration", default="5s")
    ap.add_argument("--long", action="store_true", help="memory: 10 s vs 10 min")
    ap.add_argument("--keep", action="store_true", help="keep the large logs")
    ap.add_argument("--vdso-steps", default="",
                    help="bench/vdso_steps binary (bench/run builds it)")
    ap.add_argument("--command", default="bench/run")
    a = ap.parse_args()
    a.tp_half_periods = a.tp_half_periods.split(",")
    a.mem_durations = ["10s", "10m"] if a.long else ["10s", "60s"]
    if a.loops % 2:
        a.loops += 1  # whole periods: sqwave ends at the idle level
    os.makedirs(a.out, exist_ok=True)

    res = {"command": a.command, "machine": machine_info(a)}
    only = a.only.split(",")
    t0 = time.monotonic()
    for name, fn in (("latency", bench_latency), ("callgrind", bench_callgrind),
                     ("throughput", bench_throughput), ("memory", bench_memory)):
        if name in only:
            fn(a, res)
            with open(os.path.join(a.out, "results.json"), "w") as f:
                json.dump(res, f, indent=1)
    res["elapsed_s"] = round(time.monotonic() - t0, 1)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(res, f, indent=1)
    md = summary_md(res)
    with open(os.path.join(a.out, "summary.md"), "w") as f:
        f.write(md)
    print(md)
    print(f"(raw results in {a.out}/: results.json, summary.md, per-run files; "
          f"{res['elapsed_s']} s)")
    # A verdict is a measurement, not a test failure: exit 0 once it ran.
    return 0


if __name__ == "__main__":
    sys.exit(main())
