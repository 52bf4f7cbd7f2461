#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""sqwave analyze and capture import, measured side by side against their targets.

Run through bench/analyze-bench. Three parts, one session:

  log      sqwave analyze on a one-hour log at 500 us (7.2 M edges,
           bench/gen-log.py): wall time and peak RSS (/usr/bin/time -v)
  import   MB/s of capture CSV: sigrok CSV (from a real demo-device capture,
           written by sigrok-cli, with and without time column), a Rigol
           DS1000Z analog CSV and a Saleae Logic 2 CSV (synthetic)
  sigrok   sigrok-cli's `timing` decoder against sqwave on the same .sr
           capture: speed ratio, and the pulse widths compared edge for edge

Generated inputs are cached in OUT/data (keyed by their parameters), so a
second run only measures. Results: OUT/results.json, OUT/summary.md
(--quick: results-quick.json, summary-quick.md).
"""
import argparse
import csv
import hashlib
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MiB = 1 << 20
DEMO_CHANNELS = ",".join(f"{i}=D{i}" for i in range(8))


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# --------------------------------------------------------------- measuring
def parse_time_v(path):
    r = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        k, _, v = line.strip().rpartition(": ")
        if k == "Maximum resident set size (kbytes)":
            r["rss_kib"] = int(v)
        elif k == "User time (seconds)":
            r["user_s"] = float(v)
        elif k == "System time (seconds)":
            r["sys_s"] = float(v)
        elif k == "Exit status":
            r["exit"] = int(v)
    return r


def timed(cmd, out, tag, stdout_path=os.devnull):
    """One run of cmd under /usr/bin/time -v; wall time from perf_counter."""
    tv = os.path.join(out, f"time-{tag}.txt")
    with open(stdout_path, "wb") as so:
        t0 = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-v", "-o", tv] + cmd,
                           stdout=so, stderr=subprocess.PIPE)
        wall = time.perf_counter() - t0
    r = parse_time_v(tv)
    r["wall_s"] = wall
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: "
                           f"{p.stderr.decode(errors='replace').strip()[:500]}")
    return r


def peak_mem(cmd):
    """Peak RssAnon / RssFile of cmd, sampled from /proc every 2 ms (not timed)."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = {"RssAnon": 0, "RssFile": 0}
    path = f"/proc/{p.pid}/status"
    while p.poll() is None:
        try:
            for line in open(path):
                k, _, v = line.partition(":")
                if k in peak:
                    peak[k] = max(peak[k], int(v.split()[0]))
        except (OSError, ValueError, IndexError):
            pass
        time.sleep(0.002)
    return {"rss_anon_kib": peak["RssAnon"], "rss_file_kib": peak["RssFile"]}


def agg(runs):
    w = [r["wall_s"] for r in runs]
    return {
        "n": len(runs),
        "wall_median_s": statistics.median(w),
        "wall_min_s": min(w),
        "wall_max_s": max(w),
        "user_median_s": statistics.median(r["user_s"] for r in runs),
        "sys_median_s": statistics.median(r["sys_s"] for r in runs),
        "rss_max_kib": max(r["rss_kib"] for r in runs),
        "runs": runs,
    }


# ------------------------------------------------------------ input cache
class Cache:
    """OUT/data/NAME plus NAME.key holding the parameters that made it."""

    def __init__(self, d):
        self.d = d
        os.makedirs(d, exist_ok=True)

    def get(self, name, key, make):
        path = os.path.join(self.d, name)
        kpath = path + ".key"
        key = json.dumps(key, sort_keys=True)
        if os.path.exists(path) and os.path.exists(kpath) and open(kpath).read() == key:
            return path, 0.0
        log(f"  generating {name} ...")
        t0 = time.perf_counter()
        tmp = path + ".tmp"
        make(tmp)
        os.replace(tmp, path)
        with open(kpath, "w") as f:
            f.write(key)
        return path, time.perf_counter() - t0


def file_hash(p):
    return hashlib.sha256(open(p, "rb").read()).hexdigest()[:16]


# ------------------------------------------------- synthetic capture waves
def jittery_edges(n_edges, half_ns, seed, t0_ns):
    """Edge times (ns) of a jittery square wave: +-5 us (sd 2 us), 1 in 500 +40 us."""
    rnd = random.Random(seed)
    t = []
    for k in range(n_edges):
        j = max(-5000, min(5000, int(rnd.gauss(0, 2000))))
        if rnd.random() < 0.002:
            j += 40000
        t.append(t0_ns + (k + 1) * half_ns + j)
    return t


def true_widths(edges):
    w = [b - a for a, b in zip(edges, edges[1:])]
    return min(w), max(w)


def gen_rigol(path, rows, seed):
    """Rigol DS1000Z CSV: 1 us sampling, 0/3.3 V, 8-bit steps of 31.25 mV,
    20 mV noise, edges with a 2 us ramp; t = Start + X * Increment."""
    inc_ns, start_ns = 1000, -1_000_000
    n_edges = (rows * inc_ns) // 500_000 - 2
    edges = jittery_edges(n_edges, 500_000, seed, start_ns)
    step = 0.03125
    tab = ["%.2e" % (c * step) for c in range(-64, 192)]    # code c -> tab[c + 64]
    rnd = random.Random(seed + 1)
    noise = [int(round(rnd.gauss(0, 0.020 / step))) for _ in range(65536)]
    hi = int(round(3.3 / step))
    with open(path, "w") as f:
        f.write("X,CH1,Start,Increment,\n")
        f.write("Sequence,Volt,%.6e,%.6e,\n" % (start_ns * 1e-9, inc_ns * 1e-9))
        i, level, buf = 0, 0, []
        for e in edges + [start_ns + rows * inc_ns + 10**9]:
            # samples strictly before the ramp around e: the old level
            ramp0 = e - 1000
            end = min(rows, max(i, -(-(ramp0 - start_ns) // inc_ns)))
            base = 64 + (hi if level else 0)
            buf.append("".join(f"{x},{tab[base + noise[x & 0xFFFF]]},\n"
                               for x in range(i, end)))
            i = end
            # ramp samples: linear from the old to the new level over 2 us
            while i < rows and start_ns + i * inc_ns < e + 1000:
                frac = (start_ns + i * inc_ns - ramp0) / 2000
                v = frac if level == 0 else 1 - frac
                c = int(round(v * hi)) + noise[i & 0xFFFF] + 64
                buf.append(f"{i},{tab[max(0, min(255, c))]},\n")
                i += 1
            level ^= 1
            if len(buf) > 256:
                f.write("".join(buf))
                buf = []
            if i >= rows:
                break
        f.write("".join(buf))
    return edges


def gen_saleae2(path, n_edges, seed):
    """Saleae Logic 2 digital CSV: Channel 0 a jittery 1 kHz wave, Channel 1
    toggling every 50 ms; one row per change, 9 decimals, an X row at the end."""
    edges = jittery_edges(n_edges, 500_000, seed, 1_000_000)
    ev = [(t, 0) for t in edges]
    end = edges[-1] + 700_000
    ev += [(t, 1) for t in range(50_000_000, end, 50_000_000)]
    ev.sort()
    lv = [0, 1]
    with open(path, "w") as f:
        f.write("Time [s],Channel 0,Channel 1\n0.000000000,0,1\n")
        buf = []
        for t, ch in ev:
            lv[ch] ^= 1
            buf.append(f"{t // 10**9}.{t % 10**9:09d},{lv[0]},{lv[1]}\n")
            if len(buf) == 65536:
                f.write("".join(buf))
                buf = []
        buf.append(f"{end // 10**9}.{end % 10**9:09d},X,X\n")
        f.write("".join(buf))
    return edges


# ------------------------------------------------------------ sigrok part
SIG_LINE = re.compile(r"^(\d+)-(\d+) timing-1: ([0-9.]+) (s|ms|μs|ns) ")
UNIT = {"s": 1e9, "ms": 1e6, "μs": 1e3, "ns": 1.0}


def compare_widths(sig_txt, sq_csv, rate):
    """sigrok timing lines (one per pair of consecutive edges) vs sqwave's
    per-edge CSV. Returns a dict; 'first_mismatch' is None when they agree."""
    period_ns = 1e9 / rate
    sig = []
    for line in open(sig_txt, encoding="utf-8"):
        m = SIG_LINE.match(line)
        if m:
            sig.append((int(m.group(1)), int(m.group(2)),
                        float(m.group(3)) * UNIT[m.group(4)], line.rstrip("\n")))
    rows = list(csv.DictReader(open(sq_csv, newline="")))
    res = {"sigrok_lines": len(sig), "sqwave_edges": len(rows),
           "sqwave_pulses": max(0, len(rows) - 1), "compared": 0,
           "max_abs_diff_ns": 0.0, "max_abs_diff_printed_ns": 0.0,
           "sample_period_ns": period_ns, "first_mismatch": None, "count_mismatch": None}
    if len(sig) != len(rows) - 1:
        res["count_mismatch"] = {"sigrok_lines": len(sig), "sqwave_pulses": len(rows) - 1}
    for k in range(min(len(sig), len(rows) - 1)):
        ss, es, printed, line = sig[k]
        exact = (es - ss) * period_ns
        ta = float(rows[k]["t_s"]) * rate
        tb = float(rows[k + 1]["t_s"]) * rate
        pa, pb = rows[k]["pulse_after_ns"], rows[k + 1]["pulse_before_ns"]
        res["compared"] += 1
        bad = None
        if abs(ta - ss) > 0.5 or abs(tb - es) > 0.5:
            bad = f"edge samples: sigrok {ss}-{es}, sqwave {ta:.3f}-{tb:.3f}"
        elif not pa or pb != pa:
            bad = (f"sqwave pulse_after_ns of edge {k} = {pa!r}, "
                   f"pulse_before_ns of edge {k + 1} = {pb!r}")
        else:
            w = int(pa)
            d = abs(w - exact)
            res["max_abs_diff_ns"] = max(res["max_abs_diff_ns"], d)
            res["max_abs_diff_printed_ns"] = max(res["max_abs_diff_printed_ns"], abs(w - printed))
            if d >= period_ns:
                bad = f"width: sigrok {exact:.3f} ns ({printed} printed), sqwave {w} ns"
        if bad:
            res["first_mismatch"] = {"what": bad, "edge": k, "sigrok_line": line,
                                     "sqwave_rows": [rows[k], rows[k + 1]]}
            break
    if res.get("count_mismatch") and not res["first_mismatch"]:
        res["first_mismatch"] = dict(res["count_mismatch"], what="count")
    return res


def sigrok_version():
    try:
        out = subprocess.run(["sigrok-cli", "--version"], capture_output=True, text=True).stdout
    except OSError:
        return None
    v = [" ".join(out.split("\n")[0].split())]
    v += [f"{m.group(1)} {m.group(2)}"
          for m in re.finditer(r"^- (libsigrok\w*) ([0-9.]+)", out, re.M)]
    return ", ".join(v)


# ----------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sqwave", default="build/sqwave")
    ap.add_argument("--out", default="build/bench/analyze")
    ap.add_argument("--quick", action="store_true",
                    help="smaller captures and fewer repetitions (the 7.2 M-edge log stays)")
    ap.add_argument("--reps", type=int, default=None, help="repetitions per timed command")
    ap.add_argument("--only", default="log,import,sigrok")
    ap.add_argument("--direct-capture", action="store_true",
                    help="record the .sr straight from the demo device at 256 kHz "
                         "(paced in real time, and srzip appends slowly: minutes)")
    ap.add_argument("--command", default="bench/analyze-bench")
    a = ap.parse_args()
    only = set(a.only.split(","))
    reps = a.reps or (3 if a.quick else 5)
    out = a.out
    os.makedirs(out, exist_ok=True)
    # measure a snapshot: a rebuild during the run must not change (or remove)
    # the binary between repetitions
    sq = os.path.abspath(os.path.join(out, "sqwave"))
    shutil.copy2(a.sqwave, sq + ".tmp")
    os.replace(sq + ".tmp", sq)
    # quick mode keeps its smaller inputs apart, so switching does not regenerate
    cache = Cache(os.path.join(out, "data-quick" if a.quick else "data"))
    t_start = time.time()
    R = {
        "command": a.command,
        "date_utc": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": {"nproc": os.cpu_count(), "kernel": platform.release(),
                    "version": open("/proc/version").read().strip(),
                    "loadavg_start": open("/proc/loadavg").read().split()[:3]},
        "sqwave_version": subprocess.run([sq, "--version"], capture_output=True,
                                         text=True).stdout.strip(),
        "sqwave_sha256": file_hash(sq),
        "quick": a.quick, "reps": reps, "generated_s": {},
    }
    try:
        R["machine"]["cpu"] = next(l.split(":", 1)[1].strip()
                                   for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except StopIteration:
        pass

    # ---- 1. the one-hour log
    if "log" in only:
        log("log: one hour at 500 us, 7.2 M edges")
        gen = os.path.join(HERE, "gen-log.py")
        gh = file_hash(gen)
        big, g1 = cache.get("hour.sqwlog", {"gen": gh, "edges": 7_200_000},
                            lambda p: subprocess.run([sys.executable, gen, p], check=True))
        small, g2 = cache.get("6min.sqwlog", {"gen": gh, "edges": 720_000},
                              lambda p: subprocess.run([sys.executable, gen, p, "--edges", "720000"],
                                                       check=True))
        R["generated_s"]["logs"] = g1 + g2
        # read once so every repetition starts with the file in the page cache
        subprocess.run(["cat", big, small], stdout=subprocess.DEVNULL, check=True)
        j = os.path.join(out, "hour.json")
        variants = [
            ("json", "--quiet --json J", [big, "--quiet", "--json", j], reps),
            ("text", "(text report)", [big], max(2, reps // 2 + 1)),
            ("all", "--json J --svg S --histogram H", [big, "--json", j, "--svg",
                     os.path.join(out, "hour.svg"), "--histogram", os.path.join(out, "hour.hist")],
             max(2, reps // 2 + 1)),
            ("csv", "--quiet --csv C", [big, "--quiet", "--csv", os.path.join(out, "hour.csv")],
             1 if a.quick else 2),
            ("short", "--quiet --json J (6 min log, 720 k edges)",
             [small, "--quiet", "--json", os.path.join(out, "6min.json")], max(2, reps // 2 + 1)),
        ]
        L = {"file_bytes": os.path.getsize(big), "edges": 7_200_000, "variants": {}}
        for name, desc, args, n in variants:
            runs = [timed([sq, "analyze"] + args, out, f"log-{name}-{i}") for i in range(n)]
            L["variants"][name] = dict(agg(runs), options=desc)
            v = L["variants"][name]
            log(f"  {name:6s} median {v['wall_median_s']:.3f} s  max {v['wall_max_s']:.3f} s  "
                f"rss {v['rss_max_kib']} KiB")
        csvp = os.path.join(out, "hour.csv")
        if os.path.exists(csvp):
            L["csv_bytes"] = os.path.getsize(csvp)
            os.unlink(csvp)         # 480 MB, not needed afterwards
        js = json.load(open(j))
        L["check"] = {"records": js["counts"]["records"], "missed_periods": js["counts"]["missed_periods"],
                      "truncated": js["source"]["truncated"],
                      "ok": (js["counts"]["records"] == 7_200_000 and not js["source"]["truncated"]
                             and js["counts"]["missed_periods"] == 7 and js["counts"]["seq_gaps"] == 0),
                      "tmin_ns": js["pulse_width"]["any"]["min_ns"],
                      "tmax_ns": js["pulse_width"]["any"]["max_ns"]}
        v = L["variants"]["json"]
        L["target"] = {"wall_s": 2.0, "rss_mib": 64,
                       "met": v["wall_median_s"] <= 2.0 and v["wall_max_s"] <= 2.0
                       and v["rss_max_kib"] <= 64 * 1024,
                       "median_met": v["wall_median_s"] <= 2.0}
        L["rss_short_vs_hour_kib"] = (L["variants"]["short"]["rss_max_kib"], v["rss_max_kib"])
        R["log"] = L

    # ---- the demo capture (used by import and sigrok)
    cap = None
    if "import" in only or "sigrok" in only:
        rate = 256000
        nsamp = 5_000_000 if a.quick else 20_000_000
        log(f"capture: sigrok demo device, graycode, {nsamp} samples at 256 kHz")

        def make_bin(p):
            subprocess.run(["sigrok-cli", "-d", "demo:logic_channels=8:analog_channels=0",
                            "-c", "samplerate=20M", "-c", "channel_group=Logic:pattern=graycode",
                            "--samples", str(nsamp), "-O", "binary", "-o", p], check=True)

        def make_sr_from(binp):
            def mk(p):
                subprocess.run(["sigrok-cli", "-I", f"binary:numchannels=8:samplerate={rate}",
                                "-i", binp, "-C", DEMO_CHANNELS, "-o", p], check=True)
            return mk

        binp, g0 = cache.get("demo-gray.bin", {"n": nsamp}, make_bin)
        if a.direct_capture:
            def make_direct(p):
                subprocess.run(["sigrok-cli", "-d", "demo:logic_channels=8:analog_channels=0",
                                "-c", "samplerate=256k", "-c", "channel_group=Logic:pattern=graycode",
                                "--samples", str(nsamp), "-o", p], check=True)
            sr, g = cache.get("demo-gray-direct.sr", {"n": nsamp, "how": "direct"}, make_direct)
            how = (f"sigrok-cli -d demo:logic_channels=8:analog_channels=0 -c samplerate=256k "
                   f"-c channel_group=Logic:pattern=graycode --samples {nsamp} -o x.sr")
        else:
            sr, g = cache.get("demo-gray.sr", {"n": nsamp, "bin": file_hash(binp)}, make_sr_from(binp))
            how = (f"sigrok-cli -d demo:logic_channels=8:analog_channels=0 -c samplerate=20M "
                   f"-c channel_group=Logic:pattern=graycode --samples {nsamp} -O binary -o x.bin; "
                   f"sigrok-cli -I binary:numchannels=8:samplerate=256000 -i x.bin "
                   f"-C {DEMO_CHANNELS} -o x.sr")
        R["generated_s"]["capture"] = g + g0
        cap = {"sr": sr, "bin": binp, "rate": rate, "samples": nsamp, "how": how}

    # ---- 2. capture CSV import
    if "import" in only:
        log("import: capture CSV throughput")
        target_mb = 20 if a.quick else 100
        # sigrok CSVs: the first ~target_mb of the demo capture, written by sigrok-cli
        head = target_mb * 10**6 // 16           # 16 bytes a row without time column
        binp = cap["bin"]

        def make_head_sr(p):
            hb = p + ".bin"
            with open(binp, "rb") as f, open(hb, "wb") as o:
                o.write(f.read(head))
            subprocess.run(["sigrok-cli", "-I", f"binary:numchannels=8:samplerate={cap['rate']}",
                            "-i", hb, "-C", DEMO_CHANNELS, "-o", p], check=True)
            os.unlink(hb)
        hsr, g = cache.get("demo-head.sr", {"n": head, "bin": file_hash(binp)}, make_head_sr)
        gen_s = g

        def sigrok_csv(opts):
            def mk(p):
                subprocess.run(["sigrok-cli", "-i", hsr, "-O", "csv" + opts, "-o", p], check=True)
            return mk
        files = []
        p, g = cache.get("sigrok.csv", {"sr": file_hash(hsr)}, sigrok_csv(""))
        gen_s += g
        files.append(("sigrok CSV, no time column", "sigrok-csv", p, "D6",
                      f"sigrok-cli -i x.sr -O csv ({head} samples)", None))
        p, g = cache.get("sigrok-time.csv", {"sr": file_hash(hsr)}, sigrok_csv(":time=true"))
        gen_s += g
        files.append(("sigrok CSV, time column", "sigrok-csv", p, "D6",
                      f"sigrok-cli -i x.sr -O csv:time=true ({head} samples)", None))
        rows = target_mb * 10**6 // 18
        truth = {}

        def mk_rigol(p):
            truth["rigol"] = gen_rigol(p, rows, 7)
        p, g = cache.get("rigol-ds1000z.csv", {"rows": rows, "v": 2}, mk_rigol)
        gen_s += g
        files.append(("Rigol DS1000Z analog CSV", "rigol-ds1000z-csv", p, "CH1",
                      f"synthetic, {rows} samples at 1 us, jittery 1 kHz", ("rigol", rows, 7)))
        ne = target_mb * 10**6 // 19

        def mk_saleae(p):
            truth["saleae"] = gen_saleae2(p, ne, 11)
        p, g = cache.get("saleae-logic2.csv", {"edges": ne, "v": 2}, mk_saleae)
        gen_s += g
        files.append(("Saleae Logic 2 CSV", "saleae-logic2-csv", p, "Channel 0",
                      f"synthetic, {ne} transitions of a jittery 1 kHz wave + a 10 Hz channel",
                      ("saleae", ne, 11)))
        R["generated_s"]["import"] = gen_s
        I = []
        for label, fmt, path, ch, origin, tr in files:
            subprocess.run(["cat", path], stdout=subprocess.DEVNULL, check=True)
            size = os.path.getsize(path)
            jp = os.path.join(out, "import.json")
            tag = os.path.basename(path)
            runs = [timed([sq, "analyze", path, "--channel", ch, "--quiet", "--json", jp],
                          out, f"import-{tag}-{i}") for i in range(reps)]
            s = agg(runs)
            js = json.load(open(jp))
            ent = dict(s, label=label, file=os.path.basename(path), origin=origin, bytes=size,
                       channel=ch, detected=js["source"]["format"],
                       edges=js["counts"]["edges"],
                       tmin_ns=js["pulse_width"]["any"]["min_ns"],
                       tmax_ns=js["pulse_width"]["any"]["max_ns"],
                       mb_s_median=size / 1e6 / s["wall_median_s"],
                       mb_s_min=size / 1e6 / s["wall_max_s"],
                       mb_s_cpu=size / 1e6 / (s["user_median_s"] + s["sys_median_s"]))
            ent.update(peak_mem([sq, "analyze", path, "--channel", ch, "--quiet"]))
            if tr:      # regenerate the truth edges (cheap) to check the import
                kind, n, seed = tr
                if kind == "rigol":
                    e = jittery_edges((n * 1000) // 500_000 - 2, 500_000, seed, -1_000_000)
                    e = [t for t in e if t + 1000 < -1_000_000 + n * 1000]
                else:
                    e = jittery_edges(n, 500_000, seed, 1_000_000)
                lo, hi = true_widths(e)
                ent["truth"] = {"edges": len(e), "tmin_ns": lo, "tmax_ns": hi}
            I.append(ent)
            log(f"  {label:28s} {size / 1e6:6.1f} MB  median {s['wall_median_s']:.3f} s  "
                f"{ent['mb_s_median']:6.1f} MB/s  edges {ent['edges']}")
        R["import"] = {"files": I, "target_mb_s": 50,
                       "met": all(e["mb_s_min"] >= 50 for e in I),
                       "median_met": all(e["mb_s_median"] >= 50 for e in I)}

    # ---- 3. sigrok-cli timing decoder vs sqwave
    if "sigrok" in only:
        log("sigrok: timing decoder vs sqwave on the same .sr")
        subprocess.run(["cat", cap["sr"]], stdout=subprocess.DEVNULL, check=True)
        nrand = 100_000 if a.quick else 400_000

        def make_rand(p):
            b = p + ".bin"
            subprocess.run(["sigrok-cli", "-d", "demo:logic_channels=8:analog_channels=0",
                            "-c", "samplerate=20M", "-c", "channel_group=Logic:pattern=random",
                            "--samples", str(nrand), "-O", "binary", "-o", b], check=True)
            subprocess.run(["sigrok-cli", "-I", "binary:numchannels=8:samplerate=256000",
                            "-i", b, "-C", DEMO_CHANNELS, "-o", p], check=True)
            os.unlink(b)
        rsr, _ = cache.get("demo-random.sr", {"n": nrand}, make_rand)
        cases = [("graycode D6 (1 kHz)", cap["sr"], "D6", cap["samples"], reps),
                 ("random D3", rsr, "D3", nrand, max(2, reps // 2))]
        S = {"capture": cap["how"], "sigrok_version": sigrok_version(), "cases": []}
        for label, srp, ch, n, nrep in cases:
            sig_txt = os.path.join(out, f"sigrok-timing-{ch}.txt")
            sq_csv = os.path.join(out, f"sqwave-widths-{ch}.csv")
            sig_cmd = ["sigrok-cli", "-i", srp, "-P", f"timing:data={ch}",
                       "--protocol-decoder-samplenum", "-A", "timing=time"]
            sq_cmd = [sq, "analyze", srp, "--channel", ch, "--csv", sq_csv, "--quiet"]
            rs, rq = [], []
            for i in range(nrep):       # interleaved
                rs.append(timed(sig_cmd, out, f"sigrok-{ch}-{i}", stdout_path=sig_txt))
                rq.append(timed(sq_cmd, out, f"sqwave-{ch}-{i}"))
            a_s, a_q = agg(rs), agg(rq)
            cmpres = compare_widths(sig_txt, sq_csv, cap["rate"])
            S["cases"].append({"label": label, "file": os.path.basename(srp), "channel": ch,
                               "samples": n, "sigrok": a_s, "sqwave": a_q,
                               "ratio_wall": a_s["wall_median_s"] / a_q["wall_median_s"],
                               "ratio_cpu": (a_s["user_median_s"] + a_s["sys_median_s"])
                               / max(1e-3, a_q["user_median_s"] + a_q["sys_median_s"]),
                               "compare": cmpres})
            c = S["cases"][-1]
            log(f"  {label}: sigrok {a_s['wall_median_s']:.3f} s, sqwave {a_q['wall_median_s']:.3f} s, "
                f"ratio {c['ratio_wall']:.1f}; {cmpres['sigrok_lines']} widths, "
                f"max diff {cmpres['max_abs_diff_ns']:.2f} ns, "
                f"mismatch: {cmpres['first_mismatch']}")
        R["sigrok"] = S

    R["machine"]["loadavg_end"] = open("/proc/loadavg").read().split()[:3]
    R["elapsed_s"] = time.time() - t_start
    sfx = "-quick" if a.quick else ""
    with open(os.path.join(out, f"results{sfx}.json"), "w") as f:
        json.dump(R, f, indent=1, default=str)
    md = summary(R)
    with open(os.path.join(out, f"summary{sfx}.md"), "w") as f:
        f.write(md)
    print(md)
    return 0


def summary(R):
    o = []
    m = R["machine"]
    o.append(f"`{R['command']}`, {R['date_utc']}, {R['elapsed_s']:.0f} s; "
             f"{m['nproc']} CPUs ({m.get('cpu', '?')}), kernel {m['kernel']}; "
             f"load average {' '.join(m['loadavg_start'])} at start, "
             f"{' '.join(m['loadavg_end'])} at the end; {R['sqwave_version']}; "
             f"{R['reps']} repetitions (wall: median / max)."
             + (" QUICK MODE." if R["quick"] else ""))
    gen = sum(R["generated_s"].values())
    if gen:
        o.append(f"Inputs generated in this run: {gen:.0f} s (cached for the next run).")
    o.append("")
    if "log" in R:
        L = R["log"]
        o.append(f"### analyze: one-hour log, {L['edges']:,} edges, "
                 f"{L['file_bytes'] / 1e6:.0f} MB (page cache warm)")
        o.append("")
        o.append("| options | runs | wall median | wall max | user | sys | max RSS |")
        o.append("|---|---|---|---|---|---|---|")
        for k, v in L["variants"].items():
            o.append(f"| `{v['options']}` | {v['n']} | {v['wall_median_s']:.2f} s | "
                     f"{v['wall_max_s']:.2f} s | {v['user_median_s']:.2f} s | "
                     f"{v['sys_median_s']:.2f} s | {v['rss_max_kib'] / 1024:.1f} MiB |")
        if "csv_bytes" in L:
            o.append(f"\n(`--csv` wrote {L['csv_bytes'] / 1e6:.0f} MB.)")
        t = L["target"]
        v = L["variants"]["json"]
        o.append("")
        o.append(f"Check: {L['check']['records']:,} records, {L['check']['missed_periods']} missed "
                 f"periods, {'complete' if not L['check']['truncated'] else 'TRUNCATED'} "
                 f"({'as generated' if L['check']['ok'] else '**NOT what was generated: 7,200,000 records, 7 missed, a footer**'}). **Target (≤ 2 s, ≤ 64 MiB): "
                 f"{'met' if t['met'] else ('median met, max not' if t['median_met'] else 'not met')}**"
                 f" — median {v['wall_median_s']:.2f} s, max {v['wall_max_s']:.2f} s, "
                 f"{v['rss_max_kib'] / 1024:.1f} MiB; RSS 720 k edges vs 7.2 M: "
                 f"{L['rss_short_vs_hour_kib'][0]} vs {L['rss_short_vs_hour_kib'][1]} KiB.")
        o.append("")
    if "import" in R:
        I = R["import"]
        o.append("### capture CSV import (`sqwave analyze FILE --channel CH --quiet --json J`)")
        o.append("")
        o.append("| file | detected as | MB | edges | wall median | MB/s (median) | MB/s (slowest run) "
                 "| MB/s of CPU | max RSS | peak RssAnon |")
        o.append("|---|---|---|---|---|---|---|---|---|---|")
        for e in I["files"]:
            o.append(f"| {e['label']} | `{e['detected']}` | {e['bytes'] / 1e6:.1f} | {e['edges']:,} | "
                     f"{e['wall_median_s']:.3f} s | **{e['mb_s_median']:.0f}** | {e['mb_s_min']:.0f} | "
                     f"{e['mb_s_cpu']:.0f} | {e['rss_max_kib'] / 1024:.1f} MiB | "
                     f"{e['rss_anon_kib'] / 1024:.1f} MiB |")
        o.append("")
        for e in I["files"]:
            if "truth" in e:
                t = e["truth"]
                o.append(f"- {e['label']}: {e['edges']:,} edges (truth {t['edges']:,}), "
                         f"Tmin {e['tmin_ns'] / 1e3:.3f} µs (truth {t['tmin_ns'] / 1e3:.3f}), "
                         f"Tmax {e['tmax_ns'] / 1e3:.3f} µs (truth {t['tmax_ns'] / 1e3:.3f})")
            else:
                o.append(f"- {e['label']}: {e['origin']}; D6: {e['edges']:,} edges, "
                         f"Tmin {e['tmin_ns'] / 1e3:.3f} µs, Tmax {e['tmax_ns'] / 1e3:.3f} µs")
        o.append("")
        o.append(f"**Target (≥ 50 MB/s): {'met' if I['met'] else ('met at the median' if I['median_met'] else 'not met')}**"
                 " (judged on the slowest run of each file).")
        o.append("")
    if "sigrok" in R:
        S = R["sigrok"]
        o.append(f"### sigrok-cli `timing` decoder vs sqwave ({S['sigrok_version']})")
        o.append("")
        o.append(f"Capture: `{S['capture']}`")
        o.append("")
        o.append("| capture | samples | widths | sigrok-cli wall (median / max) | sqwave wall (median / max) "
                 "| ratio, wall | ratio, CPU | widths equal | max diff |")
        o.append("|---|---|---|---|---|---|---|---|---|")
        for c in S["cases"]:
            s, q, k = c["sigrok"], c["sqwave"], c["compare"]
            ok = "yes" if k["first_mismatch"] is None else "**NO**"
            o.append(f"| {c['label']} | {c['samples']:,} | {k['sigrok_lines']:,} | "
                     f"{s['wall_median_s']:.2f} / {s['wall_max_s']:.2f} s | "
                     f"{q['wall_median_s']:.3f} / {q['wall_max_s']:.3f} s | "
                     f"{c['ratio_wall']:.0f}× | {c['ratio_cpu']:.0f}× | {ok} | "
                     f"{k['max_abs_diff_ns']:.2f} ns |")
        for c in S["cases"]:
            if c["compare"]["first_mismatch"]:
                o.append(f"\nFirst mismatch, {c['label']}: `{json.dumps(c['compare']['first_mismatch'])}`")
        o.append("")
    return "\n".join(o) + "\n"


if __name__ == "__main__":
    sys.exit(main())
