#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Capture: samples to edges (docs/benchmarks.md, "Capture: samples to edges").

    bench/capture_bench.py --sqwave build/sqwave --ebench build/edgextract_bench
                           [--out DIR] [--rounds 15] [--mib 256] [--seconds 2]

In interleaved rounds (at least 15), on one core:
  * edgextract (src/lab/instrument/edgextract.c) over a buffer of 8-channel
    samples in 64 KiB packets, beside a scan of the same buffer that reads
    every byte once (the limit: the memory's speed); two patterns, a 1 kHz
    square wave at 24 MS/s (what sqwave's pin gives) and libsigrok's demo
    counter (an edge at every sample, the worst case). Samples per CPU
    second, and per round the ratio extraction / scan;
  * the whole path against the user's alternative, over the same demo
    samples (libsigrok's demo driver, pattern incremental, 8 channels, its
    default 200 kHz: sigrok-cli cannot set the rate and the Logic group's
    pattern in one call): `sigrok-cli ... -O vcd | sqwave compare LOG -`
    against `sqwave capture ... -o F.vcd` then `sqwave compare LOG F.vcd`,
    CPU seconds of all the processes (the demo paces itself to real time,
    so wall time is the same for both), per round the ratio sqwave /
    sigrok-cli.
Median of the per-round ratios with a bootstrap and an order-statistic 95 %
interval (bench/lines.py). Nothing here is asserted: the figures go to
OUT/results.json and OUT/summary.md.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lines import interval, interval_text as ci  # noqa: E402
from precision import median  # noqa: E402

RATE = 200000          # the demo's default samplerate
HALF_SAMPLES = 128     # D7 of the incremental pattern over 8 channels


def log(msg):
    print(f"capture_bench: {msg}", file=sys.stderr, flush=True)


def cpu_of(cmd, shell=False):
    """CPU seconds (user + system) of @cmd and its children."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, shell=shell, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        raise SystemExit(f"capture_bench: {cmd}: exit {p.returncode}: {p.stderr.decode()[-400:]}")
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)



def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sqwave", default="build/sqwave")
    ap.add_argument("--ebench", default="build/edgextract_bench")
    ap.add_argument("--out", default="build/bench/capture")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--mib", type=int, default=256)
    ap.add_argument("--seconds", type=float, default=2.0)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    sigrok = shutil.which("sigrok-cli")
    samples = int(a.seconds * RATE)
    edges = (samples - 1) // HALF_SAMPLES
    logp = os.path.join(a.out, "w.sqwlog")
    subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "gen-log.py"), logp,
                    "--edges", str(edges), "--exact", "--half-period-ns",
                    str(HALF_SAMPLES * 1000000000 // RATE)], check=True)
    chans = ",".join(f"D{i}" for i in range(8))
    sq_vcd = os.path.join(a.out, "c.vcd")
    cmd_sig = (f"{sigrok} --driver demo --channels {chans} --samples {samples} "
               f"--channel-group Logic --config pattern=incremental -O vcd | "
               f"{a.sqwave} compare {logp} - --channel D7 --first-seq 0")
    cmd_cap = [a.sqwave, "capture", "--driver", "demo", "-c", "pattern=incremental",
               "-r", str(RATE), "-t", f"{samples / RATE}s", "-o", sq_vcd]
    cmd_cmp = [a.sqwave, "compare", logp, sq_vcd, "--channel", "D7", "--first-seq", "0"]
    rows = {"square": [], "incremental": []}
    ext_scan = {"square": [], "incremental": []}
    path_ratio, cpu_sig, cpu_sq = [], [], []
    for r in range(a.rounds):
        order = ["square", "incremental"] if r % 2 == 0 else ["incremental", "square"]
        for pat in order:
            out = subprocess.run([a.ebench, str(a.mib), pat], check=True,
                                 capture_output=True, text=True).stdout
            d = json.loads(out)
            rows[pat].append(d)
            ext_scan[pat].append(d["extract_s"] / d["scan_s"])
        if sigrok:
            pair = [("sigrok", lambda: cpu_of(cmd_sig, shell=True)),
                    ("sqwave", lambda: cpu_of(cmd_cap) + cpu_of(cmd_cmp))]
            if r % 2:
                pair.reverse()
            got = {name: f() for name, f in pair}
            cpu_sig.append(got["sigrok"])
            cpu_sq.append(got["sqwave"])
            path_ratio.append(got["sqwave"] / got["sigrok"])
        log(f"round {r + 1}/{a.rounds}: square {rows['square'][-1]['samples'] / rows['square'][-1]['extract_s'] / 1e6:.0f} MS/s, "
            f"incremental {rows['incremental'][-1]['samples'] / rows['incremental'][-1]['extract_s'] / 1e6:.0f} MS/s"
            + (f", path sqwave/sigrok-cli CPU {path_ratio[-1]:.3f}" if path_ratio else ""))
    res = {"rounds": a.rounds, "mib": a.mib, "patterns": {}, "command": " ".join(sys.argv)}
    for pat in rows:
        ms = [d["samples"] / d["extract_s"] / 1e6 for d in rows[pat]]
        sc = [d["samples"] / d["scan_s"] / 1e6 for d in rows[pat]]
        res["patterns"][pat] = {"extract_msps_median": median(ms), "scan_msps_median": median(sc),
                                "extract_over_scan_time": interval(ext_scan[pat]),
                                "edges": rows[pat][0]["edges"]}
    if path_ratio:
        res["path"] = {"samples": samples, "samplerate": RATE, "sigrok_cpu_s_median": median(cpu_sig),
                       "sqwave_cpu_s_median": median(cpu_sq),
                       "sqwave_over_sigrok_cpu": interval(path_ratio),
                       "sigrok_command": cmd_sig, "sqwave_commands": [" ".join(cmd_cap), " ".join(cmd_cmp)]}
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(res, f, indent=2)
    L = ["| pattern | edgextract MS/s (median) | scan MS/s (median) | time extract / scan, median [order-stat 95 %] |",
         "|---|---|---|---|"]
    for pat, v in res["patterns"].items():
        i = v["extract_over_scan_time"]
        L.append(f"| {pat} | {v['extract_msps_median']:.0f} | {v['scan_msps_median']:.0f} | "
                 f"{ci(i)} |")
    if path_ratio:
        i = res["path"]["sqwave_over_sigrok_cpu"]
        L += ["", f"whole path over {samples} demo samples: CPU sigrok-cli | compare "
              f"{median(cpu_sig):.3f} s, sqwave capture + compare {median(cpu_sq):.3f} s; "
              f"ratio sqwave / sigrok-cli {ci(i, '{:.3f}')}"]
    with open(os.path.join(a.out, "summary.md"), "w") as f:
        f.write("\n".join(L) + "\n")
    print("\n".join(L))
    return 0


if __name__ == "__main__":
    sys.exit(main())
