#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Judge one test-VM boot: parse the guest's serial console (@@SQW markers
from tests/vm/guest-init) and QEMU's pl061_set_output trace, and check that
sqwave's logged edges are exactly what the PL061 saw.

Prints one 'PASS name' / 'FAIL name: why' line per check; on any failure,
the guest's console (files elided). Exit status 1 if anything failed.
Then `sqwave compare` (the host's build, --sqwave) of each log against a VCD
made from that trace (tests/vm/trace2vcd.py): AGREE, and DISAGREE once one
edge of the capture is moved.
Usage: check.py --api v2 --console FILE --trace FILE --out DIR [--icount] [--sqwave PATH]
       check.py --part lines --api v2 --console FILE --trace FILE --out DIR   (the lines guest)
"""
import argparse
import base64
import csv
import gzip
import io
import json
import os
import re
import struct
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace2vcd  # noqa: E402  (tests/vm/trace2vcd.py)

CSV_HEADER = ["seq", "level", "intended_ns", "wake_ns", "write_begin_ns",
              "write_end_ns", "expirations", "flags"]
BUSY_CONSUMER = "GPIO Key Poweroff"
BAD_LABEL = "no-such-chip"
TRACE_RE = re.compile(r"^\d+@(\d+)\.(\d+):pl061_set_output \S+ setting output (\d+) to (\d+)\s*$")
INPUT_RE = re.compile(r"^\d+@(\d+)\.(\d+):pl061_input_change \S+ input (\d+) changed to (\d+)\s*$")
PRESS_RE = re.compile(r"^qmp: system_powerdown \d+/\d+ at (\d+\.\d+)", re.M)
BATCH_RE = re.compile(r"^qmp: batch (\d+) of \d+ presses from (\d+\.\d+)", re.M)
EDGE_F_NOEVENT = 0x40   # a respond log's write that answers no event (docs/log-format.md)


def parse_console(text):
    """Steps (name -> {'out': str, 'rc': int|None}), files (name -> bytes), begin/end flags."""
    steps, files = {}, {}
    began = ended = False
    cur = None  # ('step', name, lines) or ('file', name, lines)
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if line.startswith("@@SQW "):
            f = line.split()
            kind = f[1]
            if kind == "begin":
                began = True
            elif kind == "end":
                ended = True
            elif kind == "step":
                cur = ("step", f[2], [])
                steps[f[2]] = {"out": "", "rc": None}
            elif kind == "rc" and cur and cur[0] == "step":
                steps[f[2]] = {"out": "\n".join(cur[2]),
                               "rc": int(f[3]) if f[3].lstrip("-").isdigit() else f[3]}
                cur = None
            elif kind == "file":
                cur = ("file", f[2], [])
            elif kind == "endfile" and cur and cur[0] == "file":
                data = base64.b64decode("".join(cur[2])) if cur[2] else b""
                files[f[2]] = gzip.decompress(data) if data else b""
                cur = None
            continue
        if cur:
            cur[2].append(line)
    if cur and cur[0] == "step":  # the guest died inside a step
        steps[cur[1]] = {"out": "\n".join(cur[2]), "rc": None}
    return steps, files, began, ended


def elide_files(text):
    out, skipping = [], False
    for line in text.splitlines():
        line = line.rstrip("\r")
        if line.startswith("@@SQW file "):
            out.append(line + "  [contents elided]")
            skipping = True
        elif line.startswith("@@SQW endfile "):
            skipping = False
        elif not skipping:
            out.append(line)
    return "\n".join(out)


def parse_trace(path, pattern=TRACE_RE):
    """line -> [(t_ns, level), ...] in trace order (host wall-clock times):
    the PL061's output writes, or with INPUT_RE the changes of its inputs."""
    lines = {}
    with open(path, errors="replace") as f:
        for raw in f:
            m = pattern.match(raw)
            if m:
                t = int(m.group(1)) * 1_000_000_000 + int(m.group(2).ljust(6, "0")[:6]) * 1000
                lines.setdefault(int(m.group(3)), []).append((t, int(m.group(4))))
    return lines


def wire_changes(events, start=0):
    """Keep the events that change the level, starting from `start` (idle).
    QEMU traces per-line changes of its output state, plus one announcement of
    every line's reset state (level 0) at power-on: that one changes nothing."""
    state, out = start, []
    for t, level in events:
        if level != state:
            out.append((t, level))
            state = level
    return out


def last_line(text):
    lines = text.strip().splitlines()
    return lines[-1] if lines else "(no message)"


def locate_divergence(edges, got, slack_ns=200_000):
    """Where a log and a trace of different lengths part: the first edge
    whose PL061 write is not inside its write window, with the clock offset
    taken from the first edges (valid without -icount only)."""
    n = min(len(edges), len(got), 20)
    if n == 0:
        return ""
    off = min(got[i][0] - edges[i]["write_begin_ns"] for i in range(n))
    for i, (e, (t, _)) in enumerate(zip(edges, got)):
        d = t - off - e["write_begin_ns"]
        if d < -slack_ns or d > e["write_end_ns"] - e["write_begin_ns"] + slack_ns:
            return "; they part at edge %d (log seq %d): its PL061 write is %+.0f us from write_begin" \
                % (i, e["seq"], d / 1000)
    return "; the first %d agree in level and time" % min(len(edges), len(got))


FOOTER_MAGIC = 0x544f4f4656575153  # bytes "SQWVFOOT"


def read_log_footer(data):
    """The footer of a binary log, read independently of sqwave's reader
    (layout in docs/log-format.md): dict, or raise ValueError."""
    if len(data) < 56 or data[:8] != b"SQWAVLOG":
        raise ValueError("not a sqwave log (%d bytes)" % len(data))
    version, rec_size, rec_off = struct.unpack_from("<III", data, 8)
    if rec_size != 32:
        raise ValueError("record size %d" % rec_size)
    body = len(data) - rec_off
    if body < 64 or body % 32:
        raise ValueError("%d bytes after the header: not whole records + a 64-byte footer" % body)
    seq, magic, written, dropped, missed, _rt, code, reason = struct.unpack_from("<QQQQQQiI", data, len(data) - 64)
    if seq != 0xffffffffffffffff or magic != FOOTER_MAGIC:
        raise ValueError("no footer at the end (log cut short)")
    # Records, not counting event records (format 2: a 32-byte header whose
    # first u64 is 0xfffffffffffffffe, then its payload padded to 32 bytes).
    records, off = 0, rec_off
    while off < len(data) - 64:
        first, = struct.unpack_from("<Q", data, off)
        if first == 0xfffffffffffffffe:
            ln, = struct.unpack_from("<I", data, off + 20)
            off += 32 + (ln + 31) // 32 * 32
            continue
        records += 1
        off += 32
    return {"version": version, "records": records, "written": written, "dropped": dropped,
            "missed": missed, "exit_code": code, "stop_reason": reason}


def read_csv(data, grid=False):
    """The edges of an export --csv; @grid: a grid.clock log's, with its
    last column intended_grid_ns (docs/grid.md)."""
    head = CSV_HEADER + (["intended_grid_ns"] if grid else [])
    rows = list(csv.reader(io.StringIO(data.decode(errors="replace"))))
    if not rows:
        raise ValueError("empty CSV")
    if rows[0] != head:
        raise ValueError("CSV header is %s, expected %s" % (",".join(rows[0]), ",".join(head)))
    edges = []
    for n, r in enumerate(rows[1:], 2):
        if len(r) != len(head):
            raise ValueError("CSV line %d has %d fields" % (n, len(r)))
        edges.append({k: (int(v) if k != "flags" else v) for k, v in zip(head, r)})
    return edges


class Checker:
    def __init__(self, api):
        self.api, self.passed, self.failed = api, 0, 0
        self.details = []

    def check(self, name, ok, why="", show=None):
        if ok:
            self.passed += 1
            print("PASS %s/%s%s" % (self.api, name, ("  (" + why + ")") if why else ""))
        else:
            self.failed += 1
            print("FAIL %s/%s: %s" % (self.api, name, why))
            if show is not None:
                print("  | " + "\n  | ".join(show.splitlines() or ["(no output)"]))
        return ok


def match_trace(ck, name, edges, trace_events, icount, timing=True):
    """Edges of one sqwave log against the trace of its line, one for one.
    docs/log-format.md promises that every record is a real transition and
    that a log ends at the idle level (a stop while active adds the edge back
    to idle): so the line's changes on the wire, from idle 0, must be exactly
    the logged levels, in order, and the last one 0."""
    got = wire_changes(trace_events)
    levels = [e["level"] for e in edges]
    if len(got) != len(edges):
        where = "" if icount else locate_divergence(edges, got)
        ck.check(name, False, "log has %d edges, the PL061 trace shows %d level changes on this line%s"
                 % (len(edges), len(got), where))
        return
    for i, (a, (_, b)) in enumerate(zip(levels, got)):
        if a != b:
            ck.check(name, False, "edge %d: log level %d, PL061 level %d" % (i, a, b))
            return
    if levels and levels[-1] != 0:
        ck.check(name, False, "the log ends at level 1: the line was left active")
        return
    ck.check(name, True, "%d edges = %d PL061 output changes, same levels and order, ends idle"
             % (len(edges), len(got)))
    if not timing:
        return
    if icount:
        print("NOTE %s/%s-timing: not checked: under -icount the guest's clock is not the trace's" % (ck.api, name))
        return
    check_timing(ck, name + "-timing", edges, got)


def clock_breaks(edges, got, slack_ns=100_000):
    """The seqs of the edges whose trace change (ns) falls outside the
    logged write window (plus slack) at the offset where none is early."""
    off = min(t - e["write_begin_ns"] for (t, _), e in zip(got, edges))
    return [e["seq"] for (t, _), e in zip(got, edges)
            if t - off - e["write_begin_ns"] > e["write_end_ns"] - e["write_begin_ns"] + slack_ns]


def check_timing(ck, name, edges, got, slack_ns=100_000):
    """Without -icount the guest's CLOCK_MONOTONIC runs at the host's rate, so
    the trace's host timestamps and the log's times differ by a constant
    offset. Take the offset at which no trace event precedes its edge's
    write_begin; then each PL061 write must fall inside its own logged write
    window [write_begin, write_end] (plus a little slack): the log says when
    the pin changed, and the hardware agrees. Loose: 99% of edges, and the
    two clocks must agree on the run's span within 2%."""
    late = clock_breaks(edges, got, slack_ns)
    span_tr = got[-1][0] - got[0][0]
    span_log = edges[-1]["write_begin_ns"] - edges[0]["write_begin_ns"]
    ratio = span_tr / span_log if span_log > 0 else 0.0
    inside = 1 - len(late) / len(edges)
    ok = inside >= 0.99 and 0.98 <= ratio <= 1.02
    ck.check(name, ok, "%.2f%% of PL061 writes inside their logged write windows (+%d us); span trace/log %.4f%s"
             % (100 * inside, slack_ns // 1000, ratio,
                "" if not late else "; outside: %d edges, the first seq %s" % (len(late), ",".join(str(x) for x in late[:10]))))


def run_compare(sqwave, log, vcd, js):
    """`sqwave compare LOG VCD --json JS`: (exit code, JSON or None, output)."""
    p = subprocess.run([sqwave, "compare", log, vcd, "--json", js, "--worst", "5"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    try:
        with open(js) as f:
            j = json.load(f)
    except (OSError, ValueError):
        j = None
    return p.returncode, j, p.stdout.decode(errors="replace")


def check_compare(ck, name, sqwave, trace_path, line, log, edges, out, icount, moved=True):
    """The capture the emulated hardware made of the run: QEMU's trace of the
    line, as a VCD. Every level change is a logged edge (match_trace), and
    each PL061 write happened inside its logged write window; `sqwave
    compare` must find the window, fit the clocks' offset and drift and say
    AGREE. With one change moved to halfway to the next (outside its window
    by far) it must say DISAGREE and name that edge."""
    if icount:
        print("NOTE %s/%s: not checked: under -icount the guest's clock is not the trace's" % (ck.api, name))
        return
    if not sqwave or not os.access(sqwave, os.X_OK):
        ck.check(name, False, "no host sqwave at %r to run compare with (make all)" % sqwave)
        return
    changes = trace2vcd.read_changes(trace_path, line)
    if not changes or len(changes) != len(edges):
        ck.check(name, False, "%d level changes on line %d in the trace, %d edges in the log: nothing to compare"
                 % (len(changes), line, len(edges)))
        return
    # compare's premise: the capture's clock is the log's up to an offset
    # and a drift. Under emulation the guest's clock can stall against the
    # host's trace (a busy host descheduling QEMU): then no capture of the
    # pin agrees with the log, and a DISAGREE is the host's, not sqwave's.
    # Measured here without sqwave: every change inside its write window at
    # one offset (check_timing's rule, 100 us slack, the VCD's 1 us units).
    late = clock_breaks(edges, [(t * 1000, v) for t, v in changes])
    if late:
        print("NOTE %s/%s: not checked: the guest's clock was not the trace's (%d of %d changes outside "
              "their write windows at one offset, +100 us; the first seq %d): emulated time"
              % (ck.api, name, len(late), len(edges), late[0]))
        return
    vcd = os.path.join(out, name + ".vcd")
    trace2vcd.write_vcd(vcd, changes, trace_path)
    rc, j, text = run_compare(sqwave, log, vcd, os.path.join(out, name + ".json"))
    ok = rc == 0 and j is not None and j.get("verdict") == "agree"
    if ok:
        a, e, r = j["alignment"], j["edges"], j["residual"]
        why = ("AGREE: %d of %d edges paired, %d beyond the tolerance of %.0f ns; drift %+.3f ppm, "
               "fit rms %.1f us, widest write window %.0f us"
               % (e["paired"], len(edges), r["beyond_tolerance"], r["tolerance_ns"], a["drift_ppm"],
                  a["fit_rms_ns"] / 1000,
                  max(x["write_end_ns"] - x["write_begin_ns"] for x in edges) / 1000))
    else:
        why = "sqwave compare exit %s, verdict %s (%s)" % (rc, j.get("verdict") if j else None, vcd)
    ck.check(name, ok, why, show=None if ok else text)
    if not ok or not moved:
        return
    # The moved edge: near the middle, a narrow window and a long pulse after
    # it, so that halfway to the next change is far outside its window.
    mid = len(edges) // 2
    cand = [i for i in range(mid, len(edges) - 1)
            if edges[i]["write_end_ns"] - edges[i]["write_begin_ns"] < 100_000
            and changes[i + 1][0] - changes[i][0] > 400]
    if not cand:
        ck.check(name + "-moved", False, "no edge after the middle with a narrow window and a pulse over 400 us")
        return
    i = cand[0]
    by = (changes[i + 1][0] - changes[i][0]) // 2
    changes[i] = (changes[i][0] + by, changes[i][1])
    vcd = os.path.join(out, name + "-moved.vcd")
    trace2vcd.write_vcd(vcd, changes, trace_path)
    rc, j, text = run_compare(sqwave, log, vcd, os.path.join(out, name + "-moved.json"))
    seq = edges[i]["seq"]
    named = j is not None and (any(w["seq"] == seq for w in j["residual"]["worst"]) or
                               any(m["seq"] == seq for m in j["edges"]["missing_in_capture"]))
    ok = rc == 1 and j is not None and j.get("verdict") == "disagree" and named
    ck.check(name + "-moved", ok, "DISAGREE, names seq %d (moved %d us)" % (seq, by) if ok else
             "edge %d (seq %d) moved %d us: compare exit %s, verdict %s, %s" % (
                 i, seq, by, rc, j.get("verdict") if j else None, "named" if named else "not named"),
             show=None if ok else text)


def check_json(ck, data, api, edges):
    """The JSON summary says what this run was: the real chip through the
    right libgpiod API, on a PREEMPT_RT kernel, RT set up, a pass."""
    try:
        j = json.loads(data.decode(errors="replace"))
    except ValueError as e:
        ck.check("run-json", False, "JSON summary unreadable: %s" % e)
        return

    def get(path):
        v = j
        for k in path.split("."):
            v = v.get(k) if isinstance(v, dict) else None
        return v
    want = {"schema": "sqwave-summary", "host.preempt_rt": True, "rt.ok": True, "verdict.pass": True,
            "counts.dropped": 0}
    if edges is not None:
        want["counts.edges"] = len(edges)
    bad = ["%s is %r, want %r" % (k, get(k), v) for k, v in want.items() if get(k) != v]
    gpio = str(get("board.gpio"))
    if "9030000.pl061" not in gpio or "%s API" % api not in gpio:
        bad.append("board.gpio is %r, want the 9030000.pl061 chip through the libgpiod %s API" % (gpio, api))
    ck.check("run-json", not bad, "; ".join(bad) if bad else "summary: %s, PREEMPT_RT, RT ok, verdict pass" % gpio)


def check_footer(ck, name, data, n_csv, stop_reason):
    """The log ended normally: footer present, its counts agree with the export."""
    try:
        f = read_log_footer(data)
    except ValueError as e:
        ck.check(name, False, str(e))
        return
    ok = f["records"] == f["written"] == n_csv and f["dropped"] == 0 and f["stop_reason"] == stop_reason
    ck.check(name, ok, "footer: %d records written, %d dropped, %d missed periods, stop reason %d, exit code %d"
             % (f["written"], f["dropped"], f["missed"], f["stop_reason"], f["exit_code"])
             + ("" if ok else "; want %d records (as exported), 0 dropped, stop reason %d"
                % (n_csv, stop_reason)))


def line_released_idle(ck, name, steps, api, line):
    info, get = steps.get(name + "-info"), steps.get(name + "-get")
    if not info or not get:
        ck.check(name, False, "guest did not report line %d's state" % line)
        return
    out = info["out"]
    held = ("consumer=" in out) if api == "v2" else ("unused" not in out)
    value = get["out"].strip().strip('"').split("=")[-1].strip()
    ok = info["rc"] == 0 and get["rc"] == 0 and not held and value in ("0", "inactive")
    ck.check(name, ok, "line %d released, value %s" % (line, value) if ok else
             "line %d after the run: gpioinfo rc %s, gpioget rc %s, value %r, %s"
             % (line, info["rc"], get["rc"], value, "still held" if held else "released"),
             show=None if ok else out + "\n" + get["out"])


def check_bringup(ck, steps, files, api):
    """sqwave check and boards detect on the real kernel and PL061 (docs/check.md)."""
    def step(name):
        return steps.get(name, {"out": "(step not reached)", "rc": None})

    bd = step("boards-detect")
    ok = bd["rc"] == 0 and "board: qemu-virt-pl061" in bd["out"] and '"linux,dummy-virt"' in bd["out"]
    ck.check("boards-detect", ok, "device tree \"linux,dummy-virt\" -> qemu-virt-pl061" if ok else
             "want rc 0 and board qemu-virt-pl061 from compatible \"linux,dummy-virt\", got rc %s" % bd["rc"],
             show=None if ok else bd["out"])
    c = step("check")
    try:
        cj = json.loads(files.get("check.json", b"").decode() or "null")
        found = {f["id"]: f for f in cj["findings"]}
    except (ValueError, TypeError, KeyError) as e:
        ck.check("check", False, "no JSON report: %s" % e, show=c["out"])
        return
    must_pass = ["kernel.preempt_rt", "kernel.hrtimers", "gpio.chip", "gpio.line", "gpio.busy",
                 "gpio.request", "limits.rtprio", "limits.memlock", "power.dma_latency"]
    bad = ["%s is %s: %s" % (k, found.get(k, {}).get("status"), found.get(k, {}).get("value"))
           for k in must_pass if found.get(k, {}).get("status") != "PASS"]
    if "9030000.pl061" not in found.get("gpio.chip", {}).get("value", ""):
        bad.append("gpio.chip does not name 9030000.pl061")
    # Under emulation a write may cost more than the run can afford: that
    # FAIL is the host's speed, not a fault of the check.
    fails = [f["id"] for f in cj["findings"] if f["status"] == "FAIL" and f["id"] != "gpio.write_cost"]
    if fails:
        bad.append("FAIL: %s" % ", ".join(fails))
    if c["rc"] != cj.get("exit_code"):
        bad.append("exit %s but the JSON says %s" % (c["rc"], cj.get("exit_code")))
    wc = found.get("gpio.write_cost", {})
    ck.check("check", not bad, "PREEMPT_RT, %s; write cost %s (%s)" % (
        found.get("gpio.chip", {}).get("value"), wc.get("value"), wc.get("status")) if not bad
        else "; ".join(bad), show=None if not bad else c["out"])
    b = step("check-busy")
    ok = b["rc"] == 1 and re.search(r"^FAIL gpio\.busy .*\"%s\"" % BUSY_CONSUMER, b["out"], re.M)
    ck.check("check-busy", bool(ok), "FAIL gpio.busy names \"%s\"" % BUSY_CONSUMER if ok else
             "want rc 1 and FAIL gpio.busy naming \"%s\", got rc %s" % (BUSY_CONSUMER, b["rc"]),
             show=None if ok else b["out"])
    check_hwlat(ck, step, files)
    check_timerlat(ck, step, files, api)
    u = step("check-unwired")
    ok = u["rc"] == 1 and re.search(r"^FAIL loopback\.wired +not wired", u["out"], re.M)
    ck.check("check-unwired", bool(ok), "line 2 to line 4: FAIL loopback.wired not wired" if ok else
             "want rc 1 and FAIL loopback.wired not wired, got rc %s" % u["rc"],
             show=None if ok else u["out"])


def check_timerlat(ck, step, files, api):
    """run --timer timerlat (docs/timerlat.md): refused on 6.1 (v1 guest),
    run on 6.12 (v2) with every counted edge's IRQ and thread figures
    consistent, and tracefs as it was."""
    t = step("timerlat")
    before, after = step("timerlat-before"), step("timerlat-after")
    has_fd = "timerlat_fd" in before["out"]
    ck.check("timerlat-kernel", has_fd == (api == "v2"),
             "timerlat_fd %s on the %s guest" % ("present" if has_fd else "absent", api),
             show=None if has_fd == (api == "v2") else before["out"])
    ck.check("timerlat-tracefs", before["out"] == after["out"] and "sqwave" not in after["out"],
             "tracefs reads back the same, no sqwave instance left",
             show=None if before["out"] == after["out"] else before["out"] + "---\n" + after["out"])
    if not has_fd:
        ok = t["rc"] == 2 and "timerlat_fd" in t["out"] and "6.5" in t["out"]
        ck.check("timerlat-refused", ok, "rc %s: refused naming timerlat_fd and Linux 6.5" % t["rc"],
                 show=None if ok else t["out"])
        return
    bad = []
    try:
        js = json.loads(files.get("timerlat.json", b"").decode() or "null")
        rows = list(csv.DictReader(io.StringIO(files.get("timerlat.csv", b"").decode())))
    except ValueError as e:
        ck.check("timerlat-run", False, "rc %s, no summary or CSV: %s" % (t["rc"], e), show=t["out"])
        return
    if t["rc"] != 0:
        bad.append("rc %s" % t["rc"])
    if not js or js["rt"].get("timer") != "timerlat" or not js["rt"].get("timerlat"):
        bad.append("the summary has no rt.timerlat")
    counted = [r for r in rows if not int(r["flags"]) & 1]
    both = 0
    for r in counted:
        if r["irq_latency_ns"] == "" or r["thread_latency_ns"] == "":
            # an edge a whole period late serves a later slot than the
            # activation that woke it (docs/timerlat.md): no samples; any
            # other edge must have both
            if r["expirations"] == "1":
                bad.append("edge %s (on its own slot) has no samples" % r["seq"])
            continue
        both += 1
        irq, thr = int(r["irq_latency_ns"]), int(r["thread_latency_ns"])
        wake = int(r["wake_ns"]) - int(r["intended_ns"])
        if not 0 <= irq <= thr <= wake + 1000:
            bad.append("edge %s: irq %d thread %d wake %d" % (r["seq"], irq, thr, wake))
    if not counted or not both:
        bad.append("%d of %d counted edges have both samples" % (both, len(counted)))
    ck.check("timerlat-run", not bad, "%d counted edges, %d with IRQ and thread samples (every "
             "edge on its own slot), all 0 <= irq <= thread <= wake + 1 us" % (len(counted), both)
             if not bad
             else "; ".join(bad[:5]), show=None if not bad else t["out"])


def trace_offset(edges, events):
    """The host trace clock minus the guest's CLOCK_MONOTONIC, from a log
    that matches its line's trace one for one (as check_timing takes it);
    None if it does not. Without -icount it holds for the whole boot."""
    got = wire_changes(events)
    if not edges or len(got) != len(edges):
        return None
    return min(t - e["write_begin_ns"] for (t, _), e in zip(got, edges))


def check_grid(ck, steps, files, trace, off, icount, line=6, half_ns=10_000_000):
    """grid.clock realtime on the real kernel (guest-init, after timerlat):
    a run with the clock left alone passes, slot 0 on a whole second; a run
    whose clock the guest steps +1 h (date -s) mid-run counts one step,
    logs it as a clock event the kernel notified, fails the verdict on
    clock_steps, and its wave (CLOCK_MONOTONIC) runs on to the end. Both
    runs share line 6 with other runs: each run's trace is the line's
    changes within its own span, by the clock offset of the main run."""
    def step(name):
        return steps.get(name, {"out": "(step not reached)", "rc": None})

    def load(name):
        """(summary, edges) of one run, or raise ValueError."""
        ex = step(name + "-export")
        if ex["rc"] != 0:
            raise ValueError("sqwave export exited %s: %s" % (ex["rc"], last_line(ex["out"])))
        j = json.loads(files.get(name + ".json", b"").decode(errors="replace") or "null")
        if not isinstance(j, dict) or not isinstance(j.get("grid"), dict):
            raise ValueError("the summary has no grid object")
        edges = read_csv(files.get(name + ".csv", b""), grid=True)
        if not edges:
            raise ValueError("no edges")
        # every edge's time on the grid clock: its intended time plus the
        # offset the header and the summary give
        for e in edges:
            if e["intended_grid_ns"] != e["intended_ns"] + j["grid"]["offset_ns"]:
                raise ValueError("edge %d: intended_grid_ns %d is not intended_ns + offset_ns"
                                 % (e["seq"], e["intended_grid_ns"]))
        return j, edges

    def clock_check(j):
        return ([c for c in j["verdict"]["checks"] if c.get("name") == "clock_steps"] or [{}])[0]

    def run_trace(name, edges):
        if icount:
            print("NOTE %s/%s: not checked: under -icount the trace's clock is not the guest's, "
                  "so the run's share of line %d cannot be told apart" % (ck.api, name, line))
            return
        if off is None:
            ck.check(name, False, "no clock offset: the main run's log does not match its trace")
            return
        lo = edges[0]["write_begin_ns"] + off - 200_000_000
        hi = edges[-1]["write_end_ns"] + off + 200_000_000
        match_trace(ck, name, edges, [ev for ev in trace.get(line, []) if lo <= ev[0] <= hi], icount)

    # a. The clock left alone.
    r = step("grid")
    try:
        j, edges = load("grid")
        g = j["grid"]
        bad = []
        if r["rc"] != 0:
            bad.append("rc %s" % r["rc"])
        if g.get("clock") != "realtime":
            bad.append("grid.clock %r" % g.get("clock"))
        if not isinstance(g.get("slot0_ns"), int) or g["slot0_ns"] % 1_000_000_000:
            bad.append("slot 0 %r is not on a whole second" % g.get("slot0_ns"))
        if g.get("steps") != 0:
            bad.append("%s steps" % g.get("steps"))
        if clock_check(j).get("result") != "pass":
            bad.append("verdict check clock_steps %r" % clock_check(j).get("result"))
        if not j["verdict"].get("pass"):
            bad.append("verdict %s: %s" % (j["verdict"].get("result"), j["verdict"].get("violations")))
        # The wave runs on CLOCK_MONOTONIC at the offset read at setup: its
        # first edge is slot 0 (or a later slot, had it missed) on that grid.
        first = edges[0]["intended_ns"] + g.get("offset_ns", 0) - g.get("slot0_ns", 0)
        if first < 0 or first % half_ns:
            bad.append("the first edge is %+d ns from slot 0, not on the grid" % first)
        ck.check("grid-run", not bad, "rc 0, slot 0 at %d s on CLOCK_REALTIME (first edge %d slots "
                 "after it), %d edges, no step, clock_steps pass" % (g["slot0_ns"] // 1_000_000_000,
                                                                     first // half_ns, len(edges))
                 if not bad else "; ".join(bad), show=None if not bad else r["out"])
        check_footer(ck, "grid-footer", files.get("grid.sqwlog", b""), len(edges), stop_reason=0)
        run_trace("grid-trace", edges)
    except (ValueError, KeyError, TypeError) as e:
        ck.check("grid-run", False, "rc %s: %s" % (r["rc"], e), show=r["out"])

    # b. The guest's clock stepped +1 h mid-run.
    s = step("grid-step")
    try:
        j, edges = load("grid-step")
        g = j["grid"]
        bad = []
        if "guest clock stepped +3600 s" not in s["out"]:
            bad.append("the guest did not step its clock")
        if s["rc"] != 1:
            bad.append("rc %s, want 1 (verdict FAIL)" % s["rc"])
        if g.get("steps") != 1 or not g.get("sets"):
            bad.append("%s steps, %s sets: want 1 step the kernel notified" % (g.get("steps"), g.get("sets")))
        if abs(g.get("step_largest_ns", 0) - 3600 * 10**9) > 5 * 10**9:
            bad.append("largest step %r ns, want 3600 s +/- 5 s" % g.get("step_largest_ns"))
        if clock_check(j).get("result") != "fail":
            bad.append("verdict check clock_steps %r, want fail" % clock_check(j).get("result"))
        if j["verdict"].get("pass") or not any("grid.clock" in str(v) for v in j["verdict"].get("violations", [])):
            bad.append("verdict %s, violations %s: want a FAIL naming grid.clock"
                       % (j["verdict"].get("result"), j["verdict"].get("violations")))
        if "grid.clock realtime was stepped by +" not in s["out"]:
            bad.append("no warning \"grid.clock realtime was stepped by +...\" on stderr")
        ck.check("grid-step", not bad, "rc 1, 1 step of %+.3f s counted (%d set%s), clock_steps FAIL, "
                 "said on stderr" % (g["step_largest_ns"] / 1e9, g["sets"], "" if g["sets"] == 1 else "s")
                 if not bad else "; ".join(bad), show=None if not bad else s["out"])
    except (ValueError, KeyError, TypeError) as e:
        ck.check("grid-step", False, "rc %s: %s" % (s["rc"], e), show=s["out"])
        return
    # The log's clock event: the kernel's notice, the offset's move, inside the wave.
    try:
        rows = list(csv.DictReader(io.StringIO(files.get("grid-step-events.csv", b"").decode(errors="replace"))))
        evs = {}
        for row in rows:
            if row.get("type") == "clock":
                evs.setdefault(row["event"], {"time_ns": int(row["time_ns"])})[row["key"]] = row["value"]
        moved = [e for e in evs.values() if e.get("moved") == "yes"]
        if len(moved) != 1:
            raise ValueError("%d clock events with moved=yes (of %d clock events), want 1" % (len(moved), len(evs)))
        ev = moved[0]
        bad = []
        if abs(int(ev.get("delta_ns", "0")) - 3600 * 10**9) > 5 * 10**9:
            bad.append("delta_ns %s, want 3.6e12 +/- 5 s" % ev.get("delta_ns"))
        if ev.get("source") != "kernel":
            bad.append("source=%s: the kernel's cancel-on-set notice was not what saw it" % ev.get("source"))
        ends = [e for e in evs.values() if e.get("source") == "end"]
        if len(ends) != 1 or ends[0].get("moved") != "no":
            bad.append("%d end reads (want 1, moved=no after the counted step)" % len(ends))
        if not edges[0]["intended_ns"] < ev["time_ns"] < edges[-1]["intended_ns"]:
            bad.append("the event at %d ns is not inside the wave [%d, %d]"
                       % (ev["time_ns"], edges[0]["intended_ns"], edges[-1]["intended_ns"]))
        ck.check("grid-step-event", not bad, "clock event source=kernel moved=yes delta_ns=%s, %.3f s into the wave, and the end's read"
                 % (ev["delta_ns"], (ev["time_ns"] - edges[0]["intended_ns"]) / 1e9) if not bad else "; ".join(bad))
    except (ValueError, KeyError) as e:
        ck.check("grid-step-event", False, str(e), show=step("grid-step-export")["out"])
        return
    # The wave ran on through the step (timing is not judged under
    # emulation): its slots span the 3 s, and it has edges after the step.
    slots = (edges[-1]["intended_ns"] - edges[0]["intended_ns"]) // half_ns + 1
    missed = sum(max(0, e["expirations"] - 1) for e in edges)
    after = sum(1 for e in edges if e["intended_ns"] > ev["time_ns"])
    want = 3 * 10**9 // half_ns
    ok = slots >= 0.95 * want and after >= 0.25 * want
    ck.check("grid-step-wave", ok, "%d edges over %d of %d slots, %d after the step, %d missed periods"
             % (len(edges), slots, want, after, missed))
    check_footer(ck, "grid-step-footer", files.get("grid-step.sqwlog", b""), len(edges), stop_reason=0)
    run_trace("grid-step-trace", edges)


def check_hwlat(ck, step, files):
    """check --hwlat on a kernel with the hwlat tracer (docs/check.md): it ran,
    reported its samples and gap, put tracefs back, and named the VM."""
    h = step("check-hwlat")
    try:
        hj = json.loads(files.get("check-hwlat.json", b"").decode() or "null")
        found = {f["id"]: f for f in hj["findings"]}
        noise = hj["noise"]
    except (ValueError, TypeError, KeyError) as e:
        ck.check("check-hwlat", False, "no JSON report: %s" % e, show=h["out"])
        return
    bad = []
    hw = noise.get("hwlat") or {}
    f = found.get("noise.hwlat", {})
    if not noise.get("hwlat_tracer"):
        bad.append("the hwlat tracer was not found")
    if f.get("status") not in ("PASS", "WARN", "FAIL"):
        bad.append("noise.hwlat is %s: %s" % (f.get("status"), f.get("value")))
    if not hw or hw.get("duration_ns", 0) < 2_000_000_000:
        bad.append("no hwlat run of about 3 s in the JSON: %r" % hw)
    elif hw["samples"] and ("largest gap %d us" % hw["max_gap_us"]) not in f.get("value", ""):
        bad.append("the finding does not say the JSON's gap of %d us" % hw["max_gap_us"])
    elif not hw["samples"] and "no gap above" not in f.get("value", ""):
        bad.append("no samples but the finding says: %s" % f.get("value"))
    if hw and hw.get("samples") and hw.get("crossings", 0) < hw["samples"]:
        bad.append("%d crossings for %d samples" % (hw.get("crossings", 0), hw["samples"]))
    if hj.get("incomplete"):
        bad.append("incomplete: %s" % hj["incomplete"])
    hv = found.get("host.hypervisor", {})
    if hv.get("status") != "WARN" or "linux,dummy-virt" not in hv.get("value", ""):
        bad.append("host.hypervisor does not name QEMU's virt board: %s %s" % (hv.get("status"), hv.get("value")))
    if hw and hw.get("samples") and "virtual machine" not in f.get("why", ""):
        bad.append("noise.hwlat's why does not name the VM")
    sm = found.get("noise.smi", {})
    if sm.get("status") != "SKIP" or "not x86" not in sm.get("value", ""):
        bad.append("noise.smi on ARM: %s %s" % (sm.get("status"), sm.get("value")))
    before, after = step("hwlat-before"), step("hwlat-after")
    vals = after["out"].split()
    if after["rc"] != 0 or not vals or vals[0] != "nop":
        bad.append("tracefs after the check: %r (want current_tracer nop)" % after["out"])
    elif before["out"].split() != vals:
        bad.append("current_tracer, tracing_thresh, tracing_on were %r, after the check %r"
                   % (before["out"].split(), vals))
    ck.check("check-hwlat", not bad, "hwlat %.1f s: %s; put back: current_tracer %s" % (
        hw.get("duration_ns", 0) / 1e9, f.get("value"), vals[0] if vals else "?") if not bad
        else "; ".join(bad), show=None if not bad else h["out"] + "\n" + after["out"])


def read_loopback_events(data):
    """(seq, event_ns) pairs of a log's loopback events, and its records'
    intended times, read independently of sqwave (docs/log-format.md)."""
    off = struct.unpack_from("<I", data, 16)[0]
    pairs, intended = [], []
    while off + 32 <= len(data):
        seq = struct.unpack_from("<Q", data, off)[0]
        if seq == 0xfffffffffffffffe:
            _t, typ, _r, ln = struct.unpack_from("<QHHI", data, off + 8)
            if typ == 5:
                pairs += [struct.unpack_from("<QQ", data, off + 32 + i) for i in range(0, ln, 16)]
            off += 32 + (ln + 31) // 32 * 32
            continue
        if seq == 0xffffffffffffffff:
            break
        intended.append(struct.unpack_from("<Q", data, off + 8)[0])
        off += 32
    return pairs, intended


def read_press_batches(qmp_log):
    """tests/vm/qmp.py's log: [(batch start ns, [press ns, ...]), ...] in
    order, on the host's wall clock (the trace's)."""
    try:
        with open(qmp_log) as f:
            text = f.read()
    except OSError:
        return []
    starts = [(m.start(), int(float(m.group(2)) * 1e9)) for m in BATCH_RE.finditer(text)]
    out = []
    for i, (pos, t0) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        out.append((t0, [int(float(x) * 1e9) for x in PRESS_RE.findall(text[pos:end])]))
    return out


def check_power_button(ck, steps, files, qmp_log):
    """Real kernel edge events: each QMP system_powerdown pulses PL061 line 3;
    the run's loopback reader logs both edges of each pulse."""
    ub = steps.get("unbind", {"rc": None, "out": ""})
    info = steps.get("unbound-info", {"out": ""})["out"]
    line3 = [ln for ln in info.splitlines() if re.search(r"line +3:", ln)]
    freed = ub["rc"] == 0 and line3 and BUSY_CONSUMER not in line3[0]
    ck.check("keys-unbound", bool(freed), "gpio-keys let go of line 3" if freed else
             "unbind rc %s; line 3: %s" % (ub["rc"], line3), show=None if freed else ub["out"] + info)
    batches = read_press_batches(qmp_log)
    presses = len(batches[0][1]) if batches else 0   # the first batch is this step's
    pb = steps.get("powerbutton", {"rc": None, "out": ""})
    try:
        if pb["rc"] != 0:
            raise ValueError("the --loopback run exited %s" % pb["rc"])
        pairs, intended = read_loopback_events(files.get("powerbutton.sqwlog", b""))
        if presses != 3:
            raise ValueError("QEMU's button was pressed %d times in the first batch, not 3 (%s)"
                             % (presses, qmp_log))
        if len(pairs) != 2 * presses:
            raise ValueError("%d loopback events for %d presses (want 2 each): %s"
                             % (len(pairs), presses, pairs))
        if [s for s, _ in pairs] != list(range(len(pairs))):
            raise ValueError("events not paired 0..n-1 in kernel order: %s" % [s for s, _ in pairs])
        times = [t for _, t in pairs]
        if times != sorted(times) or not intended or not intended[0] - 10**9 <= times[0] \
                or times[-1] > intended[-1] + 10**9:
            raise ValueError("event times out of order or outside the run")
        widths = [(times[i + 1] - times[i]) / 1e6 for i in range(0, len(times), 2)]
        if not all(20 <= w <= 1000 for w in widths):
            raise ValueError("pulse widths %s ms, QEMU's button holds about 100 ms" % widths)
        ck.check("edge-events", True, "%d presses, %d kernel edge events on line 3, pulses %s ms"
                 % (presses, len(pairs), "/".join("%.1f" % w for w in widths)))
    except (ValueError, struct.error) as e:
        ck.check("edge-events", False, str(e), show=pb["out"])


def check_respond(ck, name, steps, files, outputs, inputs, batch, line, mode, icount,
                  slack_ns=100_000):
    """sqwave respond on the power key (guest-init step 5b). QEMU's trace
    holds both pins on one host clock: line 3's changes (pl061_input_change,
    this step's batch of presses) and the output line's writes
    (pl061_set_output). Exactly one answer per kernel event, in order: the
    log's answers, the input's changes and the output's changes match one
    for one, the answers' sequence numbers advance by 1 (no event lost), and
    each answer's PL061 write comes after its input change and before the
    next one (the host clock alone: valid under -icount too). Without
    -icount the guest's CLOCK_MONOTONIC maps onto the trace's clock by a
    constant offset (as check_timing's): each PL061 write then lies in its
    logged write window (match_trace), and each event's kernel timestamp
    between its input change and its answer's write."""
    st = steps.get(name, {"rc": None, "out": "(step not reached)"})
    ex = steps.get(name + "-export", {"rc": None, "out": ""})
    try:
        if st["rc"] != 0:
            raise ValueError("sqwave respond exited %s" % st["rc"])
        if ex["rc"] != 0:
            raise ValueError("sqwave export exited %s" % ex["rc"])
        log = files.get(name + ".sqwlog", b"")
        if b"run.mode=respond" not in log:
            raise ValueError("the log's header does not say run.mode=respond")
        recs = read_csv(files.get(name + ".csv", b""))
        answers = [i for i, r in enumerate(recs) if not int(r["flags"], 0) & EDGE_F_NOEVENT]
        if not answers:
            raise ValueError("no answers in the log")
        if mode == "pulse":
            # each answer a pulse: active, then its end (a write answering no event)
            want = [(i % 2 == 0, 1 - i % 2) for i in range(len(recs))]
        else:
            # toggle: the answers flip the line, a last write back to idle may follow
            want = [(True, 1 - i % 2) for i in range(len(answers))]
            if len(recs) == len(answers) + 1:
                want.append((False, 0))
        got = [(not int(r["flags"], 0) & EDGE_F_NOEVENT, r["level"]) for r in recs]
        if got != want:
            raise ValueError("%s mode: records (answer?, level) are %s" % (mode, got[:12]))
        a = [recs[i] for i in answers]
        if any(r["expirations"] != 1 for r in a):
            raise ValueError("kernel sequence numbers advance by %s: events lost"
                             % [r["expirations"] for r in a])
        if any(r["write_begin_ns"] < r["intended_ns"] for r in a) or \
                any(y["intended_ns"] <= x["intended_ns"] for x, y in zip(a, a[1:])):
            raise ValueError("an answer's write begins before its event, or events out of order")
        js = json.loads(files.get(name + ".json", b"{}") or b"{}").get("respond", {})
        if js.get("answers") != len(a) or js.get("events_lost") != 0:
            raise ValueError("the summary says %s answers, %s events lost; the log has %d answers"
                             % (js.get("answers"), js.get("events_lost"), len(a)))
        ck.check(name + "-log", True, "%s mode: %d answers, %d writes, sequence numbers +1 each"
                 % (mode, len(a), len(recs)))
    except (ValueError, KeyError) as e:
        ck.check(name + "-log", False, str(e), show=st["out"] + "\n" + ex["out"])
        return
    check_footer(ck, name + "-footer", log, len(recs), stop_reason=0)

    # The kernel's events: the input's changes in this step's batch
    # (t0, press times, where the next batch begins or None).
    if batch is None or len(batch[1]) != 3:
        ck.check(name + "-events", False, "QEMU's button: %s presses in this step's batch, want 3"
                 % (len(batch[1]) if batch else "no"))
        return
    t0, presses, t1 = batch
    ins = [(t, lv) for t, lv in wire_changes(inputs.get(3, [])) if t >= t0 and (t1 is None or t < t1)]
    ok = len(ins) == 2 * len(presses) == len(a)
    ck.check(name + "-events", ok, "%d presses, %d input changes on line 3, %d answers: one each"
             % (len(presses), len(ins), len(a)) if ok else
             "%d presses, %d input changes on line 3 in the batch, %d answers in the log"
             % (len(presses), len(ins), len(a)))
    if not ok:
        return
    outs = wire_changes(outputs.get(line, []))
    match_trace(ck, name + "-trace", recs, outputs.get(line, []), icount)
    if len(outs) != len(recs):
        return
    late = [k for k, i in enumerate(answers)
            if not (ins[k][0] < outs[i][0] and (k + 1 == len(ins) or outs[i][0] < ins[k + 1][0]))]
    ck.check(name + "-order", not late, "each answer's PL061 write after its input change, before the next"
             if not late else "answers %s not between their input change and the next" % late)
    if icount:
        print("NOTE %s/%s-stamps: not checked: under -icount the guest's clock is not the trace's"
              % (ck.api, name))
        return
    off = min(t - r["write_begin_ns"] for (t, _), r in zip(outs, recs))
    irq = [a[k]["intended_ns"] + off - ins[k][0] for k in range(len(a))]
    bad = [k for k, i in enumerate(answers)
           if irq[k] < -slack_ns or a[k]["intended_ns"] + off > outs[i][0] + slack_ns]
    ck.check(name + "-stamps", not bad, "every kernel timestamp between its input change and its answer "
             "(input change -> timestamp %s us under emulation)" % "/".join("%.0f" % (x / 1000) for x in irq)
             if not bad else "answers %s: timestamp - input change %s us" % (bad, [round(x / 1000) for x in irq]))


def check_soak(ck, steps, files, trace, icount, sqwave, trace_path, out):
    """A soak on the real kernel: CoreMark supervised beside the wave, its
    score in the summary, nothing of it left after the run or after SIGKILL
    of sqwave, the wave still edge for edge what the PL061 saw; BusyBox
    ping refused before the run."""
    s = steps.get("soak", {"rc": None, "out": ""})
    bb = steps.get("soak-busybox-ping", {"rc": None, "out": ""})
    bb_ok = bb["rc"] == 2 and "is BusyBox ping, which has no flood mode (-f)" in bb["out"]
    ck.check("soak-busybox-ping", bb_ok, "refused before the run: rc 2" if bb_ok else
             "want rc 2 and the BusyBox message, got rc %s" % bb["rc"], show=None if bb_ok else bb["out"])
    if s["rc"] == "skipped":
        ck.check("soak", True, "skipped: no CoreMark (../shared/vendor absent)")
        return
    try:
        js = json.loads(files.get("soak.json", b"{}") or b"{}")
        loaded = [p for p in js.get("phases", []) if p.get("name") == "loaded"][0]
        cm = [l for l in loaded["proof"]["loads"] if l["name"] == "coremark"][0]
    except (ValueError, IndexError, KeyError) as e:
        ck.check("soak", False, "no loaded phase in the summary: %s (rc %s)" % (e, s["rc"]),
                 show=s["out"])
        return
    # judged by CoreMark's own CPU time (cgroup2), at least the 10 % the
    # guest's profile asks of one vCPU shared with the wave
    ok = s["rc"] == 0 and cm["valid_scores"] >= 1 and cm["busy_pct"] >= 80 and \
        cm.get("own_busy_pct", 0) >= 10 and cm.get("own_source") == "cgroup2" and \
        loaded["load_not_applied"] == [] and js["containment"].startswith("cgroup2")
    ck.check("soak", ok, "rc 0; CoreMark %d valid score(s), mean %.1f, own CPU time %.0f %% "
             "(CPU %.0f %% busy), held by %s"
             % (cm["valid_scores"], cm.get("mean_score", 0), cm.get("own_busy_pct", 0),
                cm["busy_pct"], js["containment"])
             if ok else "rc %s, coremark %s, load_not_applied %s, containment %s"
             % (s["rc"], cm, loaded["load_not_applied"], js.get("containment")), show=None if ok else s["out"])
    left = steps.get("soak-left", {"rc": None, "out": ""})
    ck.check("soak-nothing-left", left["out"].strip() == "0", "no coremark after the run"
             if left["out"].strip() == "0" else "coremark processes left: %s" % left["out"].strip())
    k = steps.get("soak-kill", {"rc": None, "out": ""})
    before = re.search(r"coremark before: (\d+)", k["out"])
    after = re.search(r"coremark after: (\d+)", k["out"])
    k_ok = bool(before and after and int(before.group(1)) >= 1 and int(after.group(1)) == 0)
    ck.check("soak-sigkill", k_ok, "SIGKILL of sqwave: %s coremark before, none after (the guardian)"
             % before.group(1) if k_ok else "before/after: %s" % k["out"].strip()[-200:])
    ex = steps.get("soak-export", {"rc": None, "out": ""})
    try:
        if ex["rc"] != 0:
            raise ValueError("sqwave export exited %s" % ex["rc"])
        edges = read_csv(files.get("soak.csv", b""))
        if not edges:
            raise ValueError("no edges")
        match_trace(ck, "soak-trace", edges, trace.get(5, []), icount)
        check_compare(ck, "soak-compare", sqwave, trace_path, 5, os.path.join(out, "soak.sqwlog"),
                      edges, out, icount, moved=False)
    except ValueError as e:
        ck.check("soak-trace", False, str(e), show=ex["out"])


def check_share(ck, steps, share, api):
    """The 9p shared folder of tests/vm/shell: what the guest wrote is on the host."""
    sh = steps.get("share", {"rc": None, "out": ""})
    try:
        with open(os.path.join(share, "hello.txt")) as f:
            text = f.read().strip()
    except OSError as e:
        text = "(%s)" % e
    ok = sh["rc"] == 0 and text == "9p from the %s guest" % api and \
        os.path.exists(os.path.join(share, "check.json"))
    ck.check("share", ok, "the guest's files are in %s" % share if ok else
             "share rc %s; hello.txt: %s" % (sh["rc"], text), show=None if ok else sh["out"])


WRITE_RE = re.compile(r"^\d+@(\d+)\.(\d+):pl061_write \S+ offset 0x([0-9a-fA-F]+) value 0x([0-9a-fA-F]+)\s*$")
GPIODIR = 0x400   # below it, the data register: address bits 9:2 mask the bits written
# The lines guest's runs, in guest-init's order (lines_steps): name, lines,
# kind. "together": equal waves, one RT thread.
LINES_CASES = (("lines-together2", (0, 1), "together"), ("lines-together3", (0, 1, 2), "together"),
               ("lines-phase", (0, 1), "phase"), ("lines-percpu", (0, 1), "per-cpu"))
LINES_PHASE_NS = 100_000   # --line-phase 0,100us


def parse_pl061(path):
    """The lines guest's trace, in order, as the PL061 saw it: its register
    writes (pl061_write: the data register or another) and the output
    changes each one made (pl061_set_output, after its write). Returns
    runs: [{line: [(t_ns, level, write_no, mask), ...]}, ...], split where
    a run's request begins. Requesting a line as an output writes GPIODIR
    (the kernel's pl061_direction_output), and nothing else in that guest
    does; a run's own writes are data writes. So a GPIODIR write after a
    change opens the next run (the request's other GPIODIR writes, before
    any change, belong to it too); spans without a change (gpio-keys'
    request at boot) are dropped. write_no counts every register write;
    mask is the data write's bit mask (None for another register)."""
    runs, cur, state = [], None, {}
    write_no, mask = -1, None
    with open(path, errors="replace") as f:
        for raw in f:
            m = WRITE_RE.match(raw)
            if m:
                write_no += 1
                off = int(m.group(3), 16)
                mask = off >> 2 if off < GPIODIR else None
                if off == GPIODIR and (cur is None or cur["n"]):
                    cur = {"n": 0, "lines": {}}
                    runs.append(cur)
                continue
            m = TRACE_RE.match(raw)
            if not m:
                continue
            t = int(m.group(1)) * 1_000_000_000 + int(m.group(2).ljust(6, "0")[:6]) * 1000
            line, level = int(m.group(3)), int(m.group(4))
            if level == state.get(line, 0):
                continue   # the reset announcements; a write that changed nothing here
            state[line] = level
            if cur is None:
                cur = {"n": 0, "lines": {}}
                runs.append(cur)
            cur["lines"].setdefault(line, []).append((t, level, write_no, mask))
            cur["n"] += 1
    return [r["lines"] for r in runs if r["n"]]


def load_line_log(ck, name, steps, files, line, lines, mode):
    """One line's log of a several-line run: exported, consecutive, its
    summary naming the line, its place and the mode. Edges, or None."""
    ex = steps.get("%s-export-%d" % (name, line), {"rc": None, "out": "(step not reached)"})
    try:
        if ex["rc"] != 0:
            raise ValueError("sqwave export exited %s" % ex["rc"])
        edges = read_csv(files.get("%s.%d.csv" % (name, line), b""))
        if not edges:
            raise ValueError("no edges")
        if any(b["seq"] - a["seq"] != 1 for a, b in zip(edges, edges[1:])):
            raise ValueError("sequence numbers are not consecutive")
        j = json.loads(files.get("%s.%d.json" % (name, line), b"").decode(errors="replace") or "null")
        want = {"name": str(line), "index": lines.index(line), "count": len(lines), "mode": mode}
        got = {k: (j.get("line") or {}).get(k) for k in want} if isinstance(j, dict) else None
        if got != want:
            raise ValueError("the summary's line is %s, want %s" % (got, want))
        if j["counts"]["edges"] != len(edges) or j["counts"]["dropped"] != 0:
            raise ValueError("the summary counts %s edges, %s dropped; the log has %d"
                             % (j["counts"]["edges"], j["counts"]["dropped"], len(edges)))
    except (ValueError, KeyError, TypeError) as e:
        ck.check("%s-%d-log" % (name, line), False, str(e), show=ex["out"])
        return None
    ck.check("%s-%d-log" % (name, line), True, "line %d of %s (%s): %d edges, %d missed periods"
             % (line, ",".join(str(x) for x in lines), mode, len(edges),
                sum(max(0, e["expirations"] - 1) for e in edges)))
    check_footer(ck, "%s-%d-footer" % (name, line), files.get("%s.%d.sqwlog" % (name, line), b""),
                 len(edges), stop_reason=0)
    return edges


def check_together_writes(ck, name, logs, changes, lines, syms):
    """Equal waves written together: sqwave's logs say one call wrote
    every line at each instant (the same level and the same write window
    in every line's log), and the PL061 says how the kernel carried that
    call out: one register write with every line's bit in its mask, or one
    write per line, back to back (no other register write between), lines
    in order. Which one must agree with the driver: gpiolib hands a chip
    without set_multiple one set() per line."""
    n = len(logs[lines[0]])
    same = all(len(logs[ln]) == n for ln in lines) and all(
        all((logs[ln][i]["level"], logs[ln][i]["write_begin_ns"], logs[ln][i]["write_end_ns"]) ==
            (logs[lines[0]][i]["level"], logs[lines[0]][i]["write_begin_ns"], logs[lines[0]][i]["write_end_ns"])
            for ln in lines) for i in range(n))
    ck.check(name + "-one-call", same, "every line's log has the same %d edges, levels and write windows: "
             "one set_values call per instant" % n if same else
             "the lines' logs differ (%s edges) in level or write window" % [len(logs[ln]) for ln in lines])
    if not same or any(len(changes.get(ln, [])) != n for ln in lines):
        return
    one = per_line = 0
    bad, masks = [], set()
    for i in range(n):
        ws = [changes[ln][i][2] for ln in lines]
        ms = [changes[ln][i][3] for ln in lines]
        full = sum(1 << ln for ln in lines)
        if len(set(ws)) == 1 and ms[0] is not None and ms[0] & full == full:
            one += 1
            masks.add(ms[0])
        elif ws == list(range(ws[0], ws[0] + len(lines))) and ms == [1 << ln for ln in lines]:
            per_line += 1
            masks.update(ms)
        else:
            bad.append(i)
    multi = "pl061_set_multiple" in syms
    want = "one write" if multi else "one per line"
    ok = not bad and (one == n if multi else per_line == n)
    ms = ", ".join("0x%x" % x for x in sorted(masks))
    ck.check(name + "-pl061-writes", ok,
             "%d instants, each %s of the PL061 data register (masks %s): the driver has %s"
             % (n, "ONE write with every line's bit" if multi else
                "%d writes, one per line, back to back" % len(lines), ms,
                "pl061_set_multiple" if multi else "pl061_set_value and no pl061_set_multiple, "
                "so gpiolib writes the lines one after the other") if ok else
             "want %s per instant (%s): %d in one write, %d one per line back to back, %d neither "
             "(the first: instant %s)" % (want, "pl061_set_multiple" if multi else "no pl061_set_multiple",
                                          one, per_line, len(bad), bad[:5]))


def check_phase(ck, name, logs):
    """--line-phase 0,100us: line 1's every intended time is 100 us after
    a slot of line 0's wave."""
    a, b = logs[0], logs[1]
    half = min((y["intended_ns"] - x["intended_ns"] for x, y in zip(a, a[1:])), default=0)
    base = a[0]["intended_ns"] if a else 0
    bad0 = [e["seq"] for e in a if half <= 0 or (e["intended_ns"] - base) % half]
    bad1 = [e["seq"] for e in b if half <= 0 or (e["intended_ns"] - base) % half != LINES_PHASE_NS % half]
    both = len({e["write_begin_ns"] for e in a} & {e["write_begin_ns"] for e in b})
    ok = not bad0 and not bad1
    ck.check(name + "-offset", ok, "line 1's %d edges all %d us after a slot of line 0's "
             "(half period %d us); %d wake-ups late enough to write both lines in one call"
             % (len(b), LINES_PHASE_NS // 1000, half // 1000, both) if ok else
             "edges off the phase: line 0 seq %s, line 1 seq %s" % (bad0[:5], bad1[:5]))


def run_lines(args):
    """The lines guest (guest-init's lines_steps, -smp 2): several lines in
    one run, each line's log against the changes of its own bit in QEMU's
    trace, run by run (parse_pl061). Order and count exact; under
    emulation the timing says nothing, and is not checked."""
    with open(args.console, errors="replace") as f:
        console = f.read()
    steps, files, began, ended = parse_console(console)
    os.makedirs(args.out, exist_ok=True)
    for fname, data in files.items():
        with open(os.path.join(args.out, fname), "wb") as f:
            f.write(data)
    ck = Checker(args.api)

    def step(name):
        return steps.get(name, {"out": "(step not reached)", "rc": None})

    ck.check("lines-boot", began and ended, "lines guest ran to the end" if began and ended else
             "lines guest %s" % ("never reached /init" if not began else "stopped before the end"))
    rt = step("realtime")
    ck.check("lines-preempt-rt", rt["out"].strip() == "1", "/sys/kernel/realtime = %s" % rt["out"].strip()[:20],
             show=rt["out"])
    cpus = step("lines-cpus")["out"].strip()
    syms = step("lines-pl061-syms")["out"].split()
    print("NOTE %s/lines-pl061-driver: the guest has %s CPU(s); its gpio-pl061 functions: %s"
          % (ck.api, cpus or "?", " ".join(syms) or "(none in /proc/kallsyms)"))
    try:
        runs = parse_pl061(args.trace)
    except OSError as e:
        ck.check("lines-trace", False, str(e))
        runs = []
    k = 0   # the next run in the trace
    for name, lines, kind in LINES_CASES:
        r = step(name)
        if r["rc"] == "skipped":
            print("SKIP %s/%s: %s" % (ck.api, name, last_line(r["out"])))
            continue
        mode = "per-cpu" if kind == "per-cpu" else "together"
        ck.check(name + "-exit", r["rc"] == 0, "rc %s: %d lines %s" % (r["rc"], len(lines), mode),
                 show=r["out"])
        if not files.get("%s.%d.csv" % (name, lines[0])):
            ck.check(name + "-ran", False, "no log came back: the run did not run (rc %s)" % r["rc"])
            continue   # nothing to take from the trace
        changes = runs[k] if k < len(runs) else {}
        k += 1
        logs = {ln: load_line_log(ck, name, steps, files, ln, list(lines), mode) for ln in lines}
        for ln in lines:
            if logs[ln] is not None:
                match_trace(ck, "%s-%d-trace" % (name, ln), logs[ln],
                            [(t, lv) for t, lv, _, _ in changes.get(ln, [])], args.icount, timing=False)
        stray = {ln: len(c) for ln, c in changes.items() if ln not in lines}
        ck.check(name + "-only-its-lines", not stray, "no other line changed during the run"
                 if not stray else "other lines changed during the run: %s" % stray)
        if any(logs[ln] is None for ln in lines):
            continue
        if kind == "together":
            check_together_writes(ck, name, logs, changes, list(lines), syms)
        elif kind == "phase":
            check_phase(ck, name, logs)
    ck.check("lines-runs", k == len(runs), "%d runs in the trace, one per run of the guest" % len(runs)
             if k == len(runs) else "%d runs in the trace (split at the requests' GPIODIR writes), "
             "%d run in the guest" % (len(runs), k))
    if ck.failed:
        print("---- lines guest console (%s) ----" % args.console)
        print("\n".join("  | " + ln for ln in elide_files(console).splitlines()))
        print("---- end of lines guest console ----")
    return 1 if ck.failed else 0


def run(args):
    with open(args.console, errors="replace") as f:
        console = f.read()
    steps, files, began, ended = parse_console(console)
    os.makedirs(args.out, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(data)
    ck = Checker(args.api)
    api = args.api

    def step(name):
        return steps.get(name, {"out": "(step not reached)", "rc": None})

    ck.check("boot", began and ended, "guest ran to the end" if began and ended else
             "guest %s" % ("never reached /init" if not began else "stopped before the end"))
    rt = step("realtime")
    ck.check("preempt-rt", rt["out"].strip() == "1", "/sys/kernel/realtime = %s" % rt["out"].strip()[:20],
             show=rt["out"])

    try:
        trace = parse_trace(args.trace)
    except OSError as e:
        trace = {}
        ck.check("trace", False, str(e))

    # 1. The short run on line 0.
    r = step("run")
    ck.check("run-exit-0", r["rc"] == 0, "rc %s" % r["rc"], show=r["out"])
    ex = step("run-export")
    run_edges = None
    try:
        if ex["rc"] != 0:
            raise ValueError("sqwave export exited %s" % ex["rc"])
        run_edges = read_csv(files.get("run.csv", b""))
        seqs = [e["seq"] for e in run_edges]
        levels = [e["level"] for e in run_edges]
        if not run_edges:
            raise ValueError("no edges")
        if any(b - a != 1 for a, b in zip(seqs, seqs[1:])):
            raise ValueError("sequence numbers are not consecutive")
        if any(a == b for a, b in zip(levels, levels[1:])) and \
                not any(e["expirations"] > 1 for e in run_edges):
            raise ValueError("levels do not alternate and no period was missed")
        ck.check("run-log", True, "%d edges, first level %d, %d missed periods"
                 % (len(run_edges), levels[0], sum(max(0, e["expirations"] - 1) for e in run_edges)))
    except ValueError as e:
        ck.check("run-log", False, str(e), show=ex["out"])
        run_edges = None
    check_json(ck, files.get("run.json", b""), api, run_edges)
    if run_edges is not None:
        check_footer(ck, "run-footer", files.get("run.sqwlog", b""), len(run_edges), stop_reason=0)
        match_trace(ck, "run-trace", run_edges, trace.get(0, []), args.icount)
        check_compare(ck, "run-compare", args.sqwave, args.trace, 0, os.path.join(args.out, "run.sqwlog"),
                      run_edges, args.out, args.icount)
    line_released_idle(ck, "run-after", steps, api, 0)

    # 2. Lines sqwave cannot have. The board's input line (the power key) is
    # never an output: refused before any request, naming both keys.
    il = step("input-line")
    il_ok = il["rc"] == 2 and "is the board's input" in il["out"] and "input.line" in il["out"]
    ck.check("input-line", il_ok, "rc 2, the board's input named" if il_ok else
             "want rc 2 naming input.line, got rc %s" % il["rc"], show=il["out"])
    b = step("busy")
    ck.check("busy-line", b["rc"] == 3 and BUSY_CONSUMER in b["out"],
             "rc %s, names \"%s\"" % (b["rc"], BUSY_CONSUMER) if b["rc"] == 3 and BUSY_CONSUMER in b["out"]
             else "want rc 3 and \"%s\" in the message, got rc %s" % (BUSY_CONSUMER, b["rc"]), show=b["out"])
    # What sqwave says (and must keep saying clearly): the offset against the
    # chip's size, and the missing label with the chips that are there.
    o = step("offset")
    o_ok = o["rc"] == 3 and "line 8 is out of range" in o["out"] and "has 8 lines" in o["out"]
    ck.check("offset-8", o_ok, "rc %s: %s" % (o["rc"], last_line(o["out"])) if o_ok else
             "want rc 3 and \"line 8 is out of range ... has 8 lines\", got rc %s" % o["rc"],
             show=None if o_ok else o["out"])
    lb = step("label")
    lb_ok = lb["rc"] == 3 and ('"%s" not found' % BAD_LABEL) in lb["out"] and "9030000.pl061" in lb["out"]
    ck.check("wrong-label", lb_ok, "rc %s: %s" % (lb["rc"], last_line(lb["out"])) if lb_ok else
             "want rc 3, \"%s\" not found, and the chips present (9030000.pl061), got rc %s"
             % (BAD_LABEL, lb["rc"]), show=None if lb_ok else lb["out"])

    # per-cpu on this one-CPU guest: refused, naming what it needs (the
    # lines guest runs it on two).
    pc = step("lines-percpu-1cpu")
    pc_ok = pc["rc"] == 2 and "2 lines need 2 CPUs" in pc["out"] and "1 online" in pc["out"]
    ck.check("lines-percpu-1cpu", pc_ok, "rc 2: %s" % last_line(pc["out"]) if pc_ok else
             "want rc 2 and \"2 lines need 2 CPUs ... 1 online\", got rc %s" % pc["rc"],
             show=None if pc_ok else pc["out"])

    # 3. SIGTERM mid-run on line 1.
    t = step("sigterm")
    # `sqwave --help`: "128+N run stopped early by signal N".
    ck.check("sigterm-exit", t["rc"] == 128 + 15, "rc %s after SIGTERM" % t["rc"], show=t["out"])
    tx = step("sigterm-export")
    term_edges = None
    try:
        if tx["rc"] != 0:
            raise ValueError("sqwave export exited %s" % tx["rc"])
        if re.search(r"truncat|incomplete|no footer", tx["out"], re.I):
            raise ValueError("export says the log is not complete")
        term_edges = read_csv(files.get("sigterm.csv", b""))
        if not term_edges:
            raise ValueError("no edges")
        ck.check("sigterm-log", True, "complete log, %d edges" % len(term_edges))
    except ValueError as e:
        ck.check("sigterm-log", False, str(e), show=tx["out"])
    if term_edges is not None:
        check_footer(ck, "sigterm-footer", files.get("sigterm.sqwlog", b""), len(term_edges), stop_reason=1)
        match_trace(ck, "sigterm-trace", term_edges, trace.get(1, []), args.icount)
    line_released_idle(ck, "sigterm-after", steps, api, 1)

    # Nothing else was touched: no line but 0, 1 (the runs) and 2 (check's
    # output) ever changed, and gpio-keys still holds line 3 before step 5.
    stray = {ln: len(wire_changes(ev)) for ln, ev in trace.items()
             if ln not in (0, 1, 2, 4, 5, 6, 7) and wire_changes(ev)}
    ck.check("no-stray-writes", not stray, "only lines 0, 1, 2, respond's 4 and 7 and the soak's 5 and 6 changed"
             if not stray else "changes on other lines: %s" % stray)
    end = step("gpioinfo-end")
    held = [ln for ln in end["out"].splitlines()
            if ("consumer=" in ln if api == "v2" else "[used]" in ln)]
    end_ok = end["rc"] == 0 and len(held) == 1 and BUSY_CONSUMER in held[0] and "line   3:" in held[0]
    ck.check("end-state", end_ok, "every line released but line 3, still held by \"%s\"" % BUSY_CONSUMER
             if end_ok else "after all runs, held lines: %s" % (held or "none"), show=end["out"])

    check_bringup(ck, steps, files, api)
    check_grid(ck, steps, files, trace, trace_offset(run_edges, trace.get(0, [])), args.icount)
    check_power_button(ck, steps, files, args.qmp_log)
    try:
        inputs = parse_trace(args.trace, INPUT_RE)
    except OSError:
        inputs = {}
    # qmp.py's batches, in the guest's order: the power-button step's, then
    # respond's pulse and toggle steps'; each batch ends where the next begins.
    batches = read_press_batches(args.qmp_log)
    spans = [(t0, presses, batches[i + 1][0] if i + 1 < len(batches) else None)
             for i, (t0, presses) in enumerate(batches)]
    for k, (name, line, mode) in enumerate((("respond-pulse", 7, "pulse"), ("respond-toggle", 4, "toggle")), 1):
        check_respond(ck, name, steps, files, trace, inputs, spans[k] if k < len(spans) else None,
                      line, mode, args.icount)
    check_soak(ck, steps, files, trace, args.icount, args.sqwave, args.trace, args.out)
    check_share(ck, steps, args.share, api)

    if ck.failed:
        print("---- guest console (%s) ----" % args.console)
        # Indented, so that the lines sqwave check printed there ("FAIL
        # gpio.busy ...") are not taken for results by tests/vm/run.
        print("\n".join("  | " + ln for ln in elide_files(console).splitlines()))
        print("---- end of guest console ----")
    return 1 if ck.failed else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--api", required=True)
    p.add_argument("--console", required=True)
    p.add_argument("--trace", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--icount", action="store_true", help="the guest ran under -icount: skip timing")
    p.add_argument("--share", help="the guest's 9p shared folder on the host (main)")
    p.add_argument("--qmp-log", help="tests/vm/qmp.py's output (main)")
    p.add_argument("--part", choices=("main", "lines"), default="main",
                   help="which guest: the main one, or the lines guest (sqwave.only=lines)")
    p.add_argument("--sqwave", default="build/sqwave", help="the host's sqwave, for compare")
    a = p.parse_args()
    if a.part == "main" and (a.share is None or a.qmp_log is None):
        p.error("the main guest needs --share and --qmp-log")
    sys.exit(run_lines(a) if a.part == "lines" else run(a))


if __name__ == "__main__":
    main()
