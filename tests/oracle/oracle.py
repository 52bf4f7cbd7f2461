#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The oracle: combinations of sqwave's features (combos.py: every pair of
values of two dimensions at least once, seeded), each run on the simulated
board with its record of the pins (sim.history_file), and every figure
sqwave publishes about it (summary text and JSON, the log, export's CSV,
analyze's text, JSON and SVG, report's JSON and SVG, check --run) held
against what the pins did (truth.py), recomputed without sqwave's code.
Timing is never asserted: a busy machine changes the figures, never whether
they agree with the pins.

  tests/oracle/oracle.py [--sqwave build/sqwave] [--seed N] [--n N]
                         [--only ID[,ID...]] [--keep DIR] [--strict]

A disagreement prints the check, what differs, and the commands that
reproduce it. Checks known to fail because of an open item of issue 29
(known.py) print as KNOWN and do not fail the run unless --strict.
Exit 0: every other check held; 1: a disagreement; 2: usage."""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
import combos  # noqa: E402
import known  # noqa: E402
import sqwlog  # noqa: E402
import svgmarks  # noqa: E402
import truth  # noqa: E402

BOARD = "boards/sim.yaml"
WIRE_DELAY = 10000          # boards/sim.yaml's sim.wire_delay, jitter 0
POL = {1: "positive", 0: "negative"}
F_SPIN = 0x10


class Run:
    """One combination being checked: its commands, its findings."""

    def __init__(self, args, combo, d):
        self.a, self.c, self.d = args, combo, d
        self.cmds, self.findings, self.checked = [], [], {}

    def p(self, name):
        return os.path.join(self.d, name)

    def sh(self, argv, stdout=None):
        """Run @argv from the repository root: (exit code, stdout, stderr)."""
        cmd = " ".join(shlex.quote(x) for x in argv)
        if stdout:
            cmd += " > " + shlex.quote(stdout)
        self.cmds.append(cmd)
        try:
            r = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            return 124, "", "timed out"
        if stdout:
            with open(stdout, "w") as f:
                f.write(r.stdout)
        return r.returncode, r.stdout, r.stderr

    def check(self, name, ok, where, msg):
        """Record check @name's outcome; on a disagreement, what differs."""
        self.checked[name] = self.checked.get(name, True) and bool(ok)
        if not ok:
            self.findings.append((name, where, " | ".join(msg.splitlines()),
                                  self.cmds[-1] if self.cmds else ""))
        return bool(ok)


def sq(R):
    return R.a.sqwave


def load_json(path):
    with open(path) as f:
        return json.load(f)


def within(v, lo, hi):
    return v is not None and lo is not None and hi is not None and lo <= v <= hi


# ---- the log against the pin ----------------------------------------------------------

def log_is_the_pin(R, where, recs, W):
    """Each record is one write of its line, in order, with its level, made
    inside its write window; after them only the idle level is written."""
    if len(W) < len(recs):
        return R.check("log_is_the_pin", False, where,
                       "%d records but the pin was written %d times" % (len(recs), len(W)))
    I32_MIN, I32_MAX = -2 ** 31, 2 ** 31 - 1
    for i, r in enumerate(recs):
        seq, t, wake, wb, we, exp, level, flags = r
        w = W[i]
        # an offset beyond +-2.1 s is clamped and the record flagged
        # (docs/log-format.md): its window is open on that side
        lo = t + wb if not (flags & truth.F_CLAMPED and wb == I32_MIN) else float("-inf")
        hi = t + we if not (flags & truth.F_CLAMPED and we == I32_MAX) else float("inf")
        if w["level"] != level or not lo <= w["t"] <= hi:
            return R.check("log_is_the_pin", False, where,
                           "record seq %d (level %d, flags 0x%02x, window [%d, %d]) is the "
                           "pin's write of level %d at %d"
                           % (seq, level, flags, t + wb, t + we, w["level"], w["t"]))
    extra = [w for w in W[len(recs):] if w["level"] != 0]
    return R.check("log_is_the_pin", not extra, where,
                   "the pin was written after the last record: %s" % extra[:3])


def counted_set(recs):
    bad = truth.F_WARMUP | truth.F_WRITE_ERR | truth.F_CLAMPED
    return {i for i, r in enumerate(recs) if not r[7] & bad}


def out_name(R, log_path, what):
    """An output of @log_path's, named apart from the run's own FILE.LINE.*
    (a name that starts like them would look like one of them)."""
    return R.p(what + "." + os.path.basename(log_path).replace(".sqwlog", ""))


def export_is_the_pin(R, where, log_path, recs, W):
    csv_path = out_name(R, log_path, "export") + ".csv"
    rc, _, err = R.sh([sq(R), "export", log_path, "--csv", csv_path])
    if not R.check("export_is_the_pin", rc == 0, where, "export exit %d: %s" % (rc, err.strip())):
        return
    import csv
    rows = list(csv.DictReader(open(csv_path)))
    if not R.check("export_is_the_pin", len(rows) == len(recs), where,
                   "%d rows for %d records" % (len(rows), len(recs))):
        return
    for i, (row, r) in enumerate(zip(rows, recs)):
        seq, t, wake, wb, we, exp, level, flags = r
        ok = (int(row["seq"]) == seq and int(row["level"]) == level and
              int(row["intended_ns"]) == t and int(row["write_begin_ns"]) == t + wb and
              int(row["write_end_ns"]) == t + we and int(row["expirations"]) == exp)
        ok = ok and int(row["write_begin_ns"]) <= W[i]["t"] <= int(row["write_end_ns"])
        if not R.check("export_is_the_pin", ok, where,
                       "row %d %s is not record %s or the pin's write at %d" %
                       (i, dict(row), r, W[i]["t"])):
            return


# ---- pulses -----------------------------------------------------------------------------

def pulses_hold_the_truth(R, where, prefix, js, recs, W, counted):
    """Pulse counts per polarity, and Tmin/Tmax: the pin's shortest and
    longest pulse inside the bounds sqwave states, each named pulse's true
    width inside its own [lo, hi]."""
    tp = truth.true_pulses(W[:len(recs)], counted)
    ending = truth.widths_of_ending(W[:len(recs)])
    pos = {r[0]: i for i, r in enumerate(recs)}
    pw = js.get("pulse_width") or {}
    for name, pols in (("positive", (1,)), ("negative", (0,)), ("any", (0, 1))):
        T = [w for w, pol, _ in tp if pol in pols]
        d = pw.get(name) or {}
        R.check(prefix + "pulse_counts", d.get("count") == len(T), where,
                "%s pulses: sqwave counts %s, the pin made %d" % (name, d.get("count"), len(T)))
        if not T or not d.get("count"):
            continue
        # each estimate (write midpoint to write midpoint) is within half its
        # two windows of the pin's width, so the means are within the widest
        if d.get("count") == len(T):
            slack = max(recs[k][4] - recs[k][3] for k in range(len(recs)))
            mean = sum(T) / len(T)
            R.check(prefix + "pulses_hold_the_truth", abs(d["mean_ns"] - mean) <= slack + 1,
                    where, "%s: mean width %s ns, the pin's %.0f ns (the write windows allow "
                    "%d ns)" % (name, d["mean_ns"], mean, slack))
        mn, mx = min(T), max(T)
        tmin, tmax = d.get("tmin") or {}, d.get("tmax") or {}
        tminb, tmaxb = d.get("tmin_bound") or {}, d.get("tmax_bound") or {}
        R.check(prefix + "pulses_hold_the_truth", within(mn, tminb.get("lo_ns"), tmin.get("hi_ns")),
                where, "%s: the pin's shortest pulse %d ns is outside sqwave's Tmin bounds "
                "[%s, %s]" % (name, mn, tminb.get("lo_ns"), tmin.get("hi_ns")))
        R.check(prefix + "pulses_hold_the_truth", within(mx, tmax.get("lo_ns"), tmaxb.get("hi_ns")),
                where, "%s: the pin's longest pulse %d ns is outside sqwave's Tmax bounds "
                "[%s, %s]" % (name, mx, tmax.get("lo_ns"), tmaxb.get("hi_ns")))
        for key in ("tmin", "tmax", "tmin_bound", "tmax_bound"):
            p = d.get(key)
            if not p:
                continue
            k = pos.get(p["seq"])
            w = ending.get(k)
            ok = w is not None and w[1] in pols and p["lo_ns"] <= w[0] <= p["hi_ns"]
            R.check(prefix + "pulses_hold_the_truth", ok, where,
                    "%s %s: the pulse ending at edge #%d is %s on the pin (width, level), "
                    "not within [%d, %d] ns" % (name, key, p["seq"], w, p["lo_ns"], p["hi_ns"]))


def nominal_json(R, where, js, high, low):
    nom = (js.get("pulse_width") or {}).get("nominal_ns")
    if high != low:
        R.check("nominal_json", nom == {"positive": high, "negative": low}, where,
                "pulse_width.nominal_ns is %s, the wave is %d high, %d low" % (nom, high, low))
    else:
        R.check("nominal_json", nom in (None, {"positive": high, "negative": low}), where,
                "pulse_width.nominal_ns is %s for a 50 %% wave of %d" % (nom, high))


def missed_periods(R, where, log, js, recs, W, counted, high, low, duty):
    """Slots of the line's grid without a write, from the pin's write times:
    each write lies in the slot it is logged for or later, never earlier;
    when every counted write lies in its own slot's interval the slots
    without one are exactly sqwave's missed periods."""
    g = truth.Grid(log["start_ns"], high, low)
    prev, prev_s, own, missed = -1, -1, True, 0
    for i, r in enumerate(recs):
        s = g.slot_of(r[1])
        if not R.check("missed_periods", s is not None, where,
                       "record seq %d's intended time %d is not on the line's grid" % (r[0], r[1])):
            return
        # a wake-up serves the latest slot due then (missed ones counted); a
        # duty cycle the latest whose level the line needs, an even number
        # of slots on (rtloop_account()); a spin wakes early
        k = g.slot_at(r[1] + r[2])
        if duty and (k - prev_s - 1) & 1:
            k -= 1
        if not r[7] & F_SPIN:
            R.check("slot_is_the_latest_due", k == s, where,
                    "record seq %d woke at %d, when slot %d was the one to serve, but serves "
                    "slot %d" % (r[0], r[1] + r[2], k, s))
        prev_s = s
        a = g.slot_at(W[i]["t"])
        if not R.check("missed_periods", s <= a, where,
                       "record seq %d is logged for slot %d but the pin changed at %d, in "
                       "slot %d" % (r[0], s, W[i]["t"], a)):
            return
        if i in counted:
            own = own and a == s
            missed += a - prev - 1
        prev = a
    if own:
        got = js["counts"]["missed_periods"]
        R.check("missed_periods", got == missed, where,
                "%d slots of the grid got no write, sqwave says %d missed periods" % (missed, got))


def verdict_holds_the_truth(R, where, js, recs, W, counted, lo, hi):
    tp = truth.true_pulses(W[:len(recs)], counted)
    bad = [w for w, _, _ in tp if w < lo or w > hi]
    v = js["verdict"]["result"]
    R.check("verdict_holds_the_truth", not bad or v == "FAIL", where,
            "%d pulses on the pin outside [%d, %d] ns (e.g. %d) but the verdict is %s" %
            (len(bad), lo, hi, bad[0] if bad else 0, v))
    chk = {c["name"]: c for c in js["verdict"]["checks"]}
    anyp = js["pulse_width"]["any"]
    for name, obs, failed in (
            ("tmin", (anyp.get("tmin_bound") or {}).get("lo_ns"), lambda o: o < lo),
            ("tmax", (anyp.get("tmax_bound") or {}).get("hi_ns"), lambda o: o > hi)):
        c = chk.get(name)
        if c is None or obs is None:
            continue
        R.check("verdict_holds_the_truth",
                c["observed"] == obs and (c["result"] == "fail") == failed(obs), where,
                "check %s: observed %s, result %s; the pulses' bound is %s" %
                (name, c["observed"], c["result"], obs))


# ---- the text summary -------------------------------------------------------------------

_TM = re.compile(r"^\s+(Tmin|Tmax)\s+([0-9.]+) us\s+\[([0-9.]+), ([0-9.]+)\]\s+edge #(\d+)", re.M)
_PP = re.compile(r"^(positive|negative) pulses: (\d+)", re.M)
# analyze's table: "  pulse +   COUNT  MIN  AVG  MAX ..."
_PT = re.compile(r"^\s+pulse (\+|-|any)\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s")
_PN = {"+": "positive", "-": "negative", "any": "any"}


def text_pulses(text):
    """The text's pulses: {(polarity, Tmin|Tmax): (us, lo, hi, seq)} (the
    summary's per polarity; analyze's Tmin/Tmax are of any polarity) and
    {polarity: (count, min, mean, max)} (the counts only, from the summary)."""
    out, counts, cur = {}, {}, "any"
    for line in text.splitlines():
        m = _PP.match(line)
        if m:
            cur = m.group(1)
            counts[cur] = (int(m.group(2)), None, None, None)
            continue
        m = _PT.match(line)
        if m:
            counts[_PN[m.group(1)]] = (int(m.group(2)), float(m.group(3)), float(m.group(4)),
                                       float(m.group(5)))
            continue
        m = _TM.match(line)
        if m and (cur, m.group(1)) not in out:
            out[(cur, m.group(1))] = (float(m.group(2)), float(m.group(3)), float(m.group(4)),
                                      int(m.group(5)))
    return out, counts


def text_is_the_json(R, name, where, text, js):
    tm, counts = text_pulses(text)
    for pol in ("positive", "negative", "any"):
        d = js["pulse_width"][pol]
        if pol in counts:
            n, mn, avg, mx = counts[pol]
            want = (d["count"], d["min_ns"], d["mean_ns"], d["max_ns"])
            got = [n] + [None if v is None else round(v * 1000) for v in (mn, avg, mx)]
            R.check(name, got[0] == want[0] and all(
                g is None or w is None or abs(g - w) <= 1 for g, w in zip(got[1:], want[1:])),
                where, "%s pulses: the text says %s, the JSON %s" % (pol, got, list(want)))
        for key, t in (("tmin", "Tmin"), ("tmax", "Tmax")):
            p = d.get(key)
            got = tm.get((pol, t))
            if not p or not got:
                continue
            want = (round(p["width_ns"] / 1000, 3), round(p["lo_ns"] / 1000, 3),
                    round(p["hi_ns"] / 1000, 3), p["seq"])
            R.check(name, all(abs(a - b) <= 0.0011 for a, b in zip(got[:3], want[:3])) and
                    got[3] == want[3], where,
                    "%s %s: the text says %s, the JSON %s" % (pol, t, got, want))


def wave_text(R, where, text, high, low):
    m = re.search(r"^wave\s+(.*)$", text, re.M)
    if not R.check("nominal_text", m is not None, where, "no wave line in the summary"):
        return
    s = m.group(1)
    if high != low:
        ok = "high %.3f us, low %.3f us" % (high / 1000, low / 1000) in s
    else:
        ok = "half period %.3f us" % (high / 1000) in s or \
             "high %.3f us, low %.3f us" % (high / 1000, low / 1000) in s
    R.check("nominal_text", ok, where, "the wave line says %r for %d high, %d low" %
            (s, high, low))


# ---- analyze, report, pictures ----------------------------------------------------------

SAME_FIELDS = [
    ("counts", ["edges", "warmup_edges", "missed_periods", "write_errors", "level_repeats",
                "pulses_skipped"]),
    ("wake_latency", ["count", "min_ns", "max_ns", "mean_ns"]),
    ("write_cost", ["count", "min_ns", "max_ns"]),
    ("period", ["count", "min_ns", "max_ns"]),
]


def analyze_is_the_summary(R, where, prefix, js, an):
    for sec, keys in SAME_FIELDS:
        for k in keys:
            a, b = (js.get(sec) or {}).get(k), (an.get(sec) or {}).get(k)
            R.check(prefix + "analyze_is_the_summary", a == b, where,
                    "%s.%s: summary %s, analyze %s" % (sec, k, a, b))
    for pol in ("positive", "negative", "any"):
        a, b = js["pulse_width"][pol], an["pulse_width"][pol]
        for k in ("count", "min_ns", "max_ns", "mean_ns"):
            R.check(prefix + "analyze_is_the_summary", a.get(k) == b.get(k), where,
                    "pulse_width.%s.%s: summary %s, analyze %s" % (pol, k, a.get(k), b.get(k)))
        for k in ("tmin", "tmax", "tmin_bound", "tmax_bound"):
            R.check(prefix + "analyze_is_the_summary", a.get(k) == b.get(k), where,
                    "pulse_width.%s.%s: summary %s, analyze %s" % (pol, k, a.get(k), b.get(k)))
    R.check(prefix + "analyze_is_the_summary",
            js["pulse_width"].get("nominal_ns") == an["pulse_width"].get("nominal_ns"), where,
            "pulse_width.nominal_ns: summary %s, analyze %s" %
            (js["pulse_width"].get("nominal_ns"), an["pulse_width"].get("nominal_ns")))
    if js.get("loopback") is not None or an.get("loopback") is not None:
        for k in ("edges", "events", "no_event", "lost_on_wire", "kernel_dropped", "extra"):
            a, b = (js.get("loopback") or {}).get(k), (an.get("loopback") or {}).get(k)
            R.check(prefix + "analyze_is_the_summary", a == b, where,
                    "loopback.%s: summary %s, analyze %s" % (k, a, b))


def near(v, want, px):
    return v is not None and any(abs(v - w) <= 1.5 * px + 1e-6 for w in want)


def svg_markers(R, where, svg_path, nominals, fall, limits):
    """analyze's picture: nominal markers at each polarity's nominal, the
    persistence view's nominal fall at the high time, limit markers at the
    limits (values in us)."""
    m = svgmarks.analyze_markers(open(svg_path).read())
    vals = [(v, px) for v, px in m["nominal"] if v is not None]
    R.check("svg_nominal_markers", len(vals) == len(m["nominal"]) and
            all(near(v, nominals, px) for v, px in vals) and
            all(any(near(w, [v], px) for v, px in vals) for w in nominals), where,
            "nominal markers at %s us, the wave's nominals are %s us" %
            (sorted(round(v, 1) for v, _ in vals), sorted(nominals)))
    for v, px in m["nominal_fall"]:
        if v is not None and fall is not None:
            R.check("svg_persistence_nominal_fall", near(v, [fall], px), where,
                    "the persistence view's nominal fall is at %.1f us, the wave falls "
                    "%.1f us after it rises" % (v, fall))
    lim = [(v, px) for v, px in m["limit"] if v is not None]
    plim = [(v, px) for v, px in m["persist_limit"] if v is not None]
    if limits:
        # a limit inside the persistence view's window is a mask line at
        # its value; one beyond it an arrow on the edge it lies beyond,
        # stating its value; every limit one of the two (a scope's view)
        off = m["persist_off"]
        beyond = all(said is not None and any(abs(said - w) < 1e-3 for w in limits) and
                     edge is not None and (said > edge if right else said < edge)
                     for said, edge, _, right in off)
        shown = [w for w in limits if any(near(v, [w], px) for v, px in plim) or
                 any(said is not None and abs(said - w) < 1e-3 for said, _, _, _ in off)]
        R.check("svg_persistence_limit_markers", all(near(v, limits, px) for v, px in plim) and
                beyond and (not m["persist_scope"] or len(shown) == len(limits)),
                where, "the persistence view's mask at %s us, off scale %s, the limits are %s "
                "us" % (sorted(round(v, 1) for v, _ in plim),
                        [(said, edge and round(edge, 1), "right" if right else "left")
                         for said, edge, _, right in off], limits))
        R.check("svg_limit_markers", lim and all(near(v, limits, px) for v, px in lim), where,
                "limit markers at %s us, the limits are %s us" %
                (sorted(round(v, 1) for v, _ in lim), limits))
    else:
        R.check("svg_limit_markers", not lim, where,
                "limit markers at %s us without limits" % [round(v, 1) for v, _ in lim])


def report_checks(R, where, prefix, paths, jss, logs, nominals, limits=None):
    rc, _, err = R.sh([sq(R), "report"] + paths + ["--json", R.p("rep.json"),
                      "--svg", R.p("rep.svg")], stdout=R.p("rep.txt"))
    # exit 1: a row failed; the rows are what is checked
    if not R.check(prefix + "report_rows_are_the_summary", rc in (0, 1) and
                   os.path.exists(R.p("rep.json")), where, "report exit %d: %s" % (rc, err.strip())):
        return
    rows = load_json(R.p("rep.json"))["rows"]
    R.check(prefix + "report_rows_are_the_summary", len(rows) == len(jss), where,
            "%d rows for %d summaries" % (len(rows), len(jss)))
    for row, js in zip(rows, jss):
        anyp = js["pulse_width"]["any"]
        want = {"edges": js["counts"]["edges"], "missed_periods": js["counts"]["missed_periods"],
                "tmin_ns": (anyp.get("tmin") or {}).get("width_ns"),
                "tmin_lowest_ns": (anyp.get("tmin_bound") or {}).get("lo_ns"),
                "tmax_ns": (anyp.get("tmax") or {}).get("width_ns"),
                "tmax_highest_ns": (anyp.get("tmax_bound") or {}).get("hi_ns"),
                "wake_max_ns": js["wake_latency"]["max_ns"],
                "verdict": js["verdict"]["result"]}
        for k, v in want.items():
            R.check(prefix + "report_rows_are_the_summary", row.get(k) == v, where,
                    "report row %s of %s: %s, the summary %s" % (k, row.get("source"),
                                                                 row.get(k), v))
    svg = open(R.p("rep.svg")).read()
    for v, px, label in svgmarks.report_markers(svg):
        R.check("report_svg_nominal_markers", near(v, nominals, px) and
                (label is None or near(label, nominals, 0.001)), where,
                "report --svg draws a nominal at %s us (labelled %s), the wave's nominals "
                "are %s us" % (None if v is None else round(v, 1), label, sorted(nominals)))
    for v, px, label in svgmarks.report_markers(svg, "limit"):
        R.check("report_svg_limit_markers", limits is not None and near(v, limits, px) and
                (label is None or near(label, limits, 0.001)), where,
                "report --svg draws a limit at %s us (labelled %s), the limits are %s us" %
                (None if v is None else round(v, 1), label, limits))
    rc, _, err = R.sh([sq(R), "report"] + logs + ["--json", R.p("replog.json")],
                      stdout=R.p("replog.txt"))
    if R.check(prefix + "report_rows_are_the_summary", rc in (0, 1), where,
               "report of the logs: exit %d: %s" % (rc, err.strip())):
        lrows = load_json(R.p("replog.json"))["rows"]
        for a, b in zip(rows, lrows):
            for k in ("edges", "missed_periods", "tmin_ns", "tmin_lowest_ns", "tmax_ns",
                      "tmax_highest_ns", "wake_max_ns"):
                R.check(prefix + "report_rows_are_the_summary", a.get(k) == b.get(k), where,
                        "report %s: from the summary %s, from the log %s" %
                        (k, a.get(k), b.get(k)))


def analyze_checks(R, where, prefix, log_path, js, summary_text, nominals, fall, limits):
    base = out_name(R, log_path, "analyze")
    an_json, an_svg, an_txt = base + ".json", base + ".svg", base + ".txt"
    rc, out, err = R.sh([sq(R), "analyze", log_path, "--json", an_json, "--svg", an_svg],
                        stdout=an_txt)
    if not R.check(prefix + "analyze_is_the_summary", rc == 0, where,
                   "analyze exit %d: %s" % (rc, err.strip())):
        return None
    an = load_json(an_json)
    analyze_is_the_summary(R, where, prefix, js, an)
    if summary_text is not None:
        text_is_the_json(R, prefix + "summary_text_is_the_json", where, summary_text, js)
    text_is_the_json(R, prefix + "analyze_text_is_the_json", where, out, an)
    if nominals is not None:
        svg_markers(R, where, an_svg, nominals, fall, limits)
    return an


# ---- loopback ---------------------------------------------------------------------------

def loopback_checks(R, where, log, js, recs, W, counted, wires):
    by_call = {w["call"]: w for w in wires}
    wire_of = [by_call.get(w["call"]) for w in W[:len(recs)]]
    lb = js.get("loopback")
    if not R.check("loopback_counts", lb is not None, where, "no loopback member"):
        return
    pairs = [p for e in log["events"] if e["type"] == "loopback" for p in e["pairs"]]
    stamps = {w["event"] for w in wires if w["fate"] == "queued"}
    made = [ev for _, ev in pairs if ev not in stamps]
    R.check("loopback_events_are_the_wires", not made, where,
            "%d logged events the wire never made, e.g. %s" % (len(made), made[:3]))
    cnt = sorted(counted)
    queued = sum(1 for i in cnt if wire_of[i] and wire_of[i]["fate"] == "queued")
    lost = sum(1 for i in cnt if wire_of[i] and wire_of[i]["fate"] == "lost")
    dropped = sum(1 for w in wires if w["fate"] == "dropped")
    R.check("loopback_counts", lb["events"] + lb["no_event"] == len(cnt), where,
            "events %d + no_event %d for %d counted edges" % (lb["events"], lb["no_event"],
                                                              len(cnt)))
    R.check("loopback_counts", lb["lost_on_wire"] == lost, where,
            "lost_on_wire %d, the wire lost %d counted edges" % (lb["lost_on_wire"], lost))
    R.check("loopback_counts", lb["kernel_dropped"] == dropped, where,
            "kernel_dropped %d, the queue dropped %d" % (lb["kernel_dropped"], dropped))
    R.check("loopback_counts", lb["events"] <= queued, where,
            "%d events for %d counted edges the wire queued" % (lb["events"], queued))
    # the kernel's widths: consecutive counted edges both seen, event to event
    if lb["events"] == queued:
        ws = {1: [], 0: []}
        for a, b in zip(cnt, cnt[1:]):
            if b == a + 1 and wire_of[a] and wire_of[b] and wire_of[a]["fate"] == "queued" and \
                    wire_of[b]["fate"] == "queued":
                ws[recs[a][6]].append(wire_of[b]["event"] - wire_of[a]["event"])
        for pol, T in ws.items():
            d = lb["pulse_width"][POL[pol]]
            R.check("loopback_kernel_widths", d["count"] == len(T) and
                    (not T or (d["min_ns"] == min(T) and d["max_ns"] == max(T))), where,
                    "the kernel's %s pulses: sqwave %s (%s..%s), the wire's events %d (%s..%s)" %
                    (POL[pol], d["count"], d["min_ns"], d["max_ns"], len(T),
                     min(T) if T else None, max(T) if T else None))
    if lb["events"]:
        R.check("loopback_delay_bounds",
                lb["from_write_end"]["max_ns"] <= WIRE_DELAY <= lb["from_write_begin"]["min_ns"],
                where, "event - write_end up to %d, event - write_begin from %d: the wire's "
                "delay %d must lie between" % (lb["from_write_end"]["max_ns"],
                                               lb["from_write_begin"]["min_ns"], WIRE_DELAY))
        b = lb.get("delay_bounds")
        if b and b.get("constant_fits"):
            R.check("loopback_delay_bounds", b["lo_ns"] <= WIRE_DELAY <= b["hi_ns"], where,
                    "delay_bounds [%d, %d] without the wire's constant %d" %
                    (b["lo_ns"], b["hi_ns"], WIRE_DELAY))


# ---- a wave run -------------------------------------------------------------------------

def compare_is_the_pin(R, where, log_path, recs, W):
    """What an analyzer on the pin records (the record's level changes, on a
    clock of its own: another offset, a drift of a few ppm, 10 ns samples)
    is what compare pairs with the log: AGREE, every change paired with
    the record that made it, nothing missing or extra. Only the records'
    writes are captured (the stop's idle write is after the capture)."""
    ppm = (len(recs) % 7 - 3) * 2.5            # -7.5 .. +7.5 ppm, from the combination
    vcd = out_name(R, log_path, "capture") + ".vcd"
    changes = truth.analyzer_vcd(vcd, W, len(recs), ppm)
    if changes is None:
        return
    js_path = vcd[:-4] + ".json"
    argv = [sq(R), "compare", log_path, vcd, "--json", js_path]
    rc, out, err = R.sh(argv)
    js = load_json(js_path) if os.path.exists(js_path) else None
    if rc == 2 and js and js.get("alignment", {}).get("status") == "ambiguous":
        # a wave too regular to place: the user names the first edge
        rc, out, err = R.sh(argv + ["--first-seq", str(recs[changes[0][0]][0])])
        js = load_json(js_path) if os.path.exists(js_path) else None
    if not R.check("compare_agrees", rc == 0 and js and js.get("verdict") == "agree", where,
                   "compare exit %d, %s: %s" % (rc, js and js.get("verdict"),
                                                 (out + err).strip()[-600:])):
        return
    e, a = js["edges"], js["alignment"]
    want = (recs[changes[0][0]][0], recs[changes[-1][0]][0])
    R.check("compare_pairs_the_pin", e["paired"] == len(changes) and
            (a["capture_first_edge_seq"], a["capture_last_edge_seq"]) == want, where,
            "%d changes of the pin (seq %d..%d), compare paired %d (seq %s..%s)"
            % (len(changes), want[0], want[1], e["paired"], a["capture_first_edge_seq"],
               a["capture_last_edge_seq"]))


def run_wave(R):
    c = R.c
    waves = combos.line_waves(c)
    several = len(waves) > 1
    hist = R.p("hist.csv")
    argv = [sq(R), "run", "--board", BOARD] + combos.wave_args(c) + [
        "--duration", "1s", "--quiet", "--log", R.p("run.sqwlog"), "--json", R.p("run.json"),
        "--set", "sim.history_file=" + hist]
    rc, out, err = R.sh(argv, stdout=R.p("run.txt"))
    name = (lambda off, ext: R.p("run.%d.%s" % (off, ext))) if several else \
        (lambda off, ext: R.p("run." + ext))
    jss = {off: load_json(name(off, "json")) for off, *_ in waves
           if os.path.exists(name(off, "json"))}
    failed = any(j["verdict"]["result"] == "FAIL" for j in jss.values())
    if not R.check("run_exit", jss and (rc == 0 or (rc == 1 and failed)),
                   "run", "exit %d: %s" % (rc, err.strip()[-400:])):
        return
    H = truth.History(hist)
    if not R.check("history_complete", H.complete, "run", "the pins' record is incomplete "
                   "(sim.history_file: %s)" % err.strip()[-200:]):
        return                      # no truth to hold the figures against
    sections = re.split(r"^=== line \S+ \(\d+ of \d+\) ===$", out, flags=re.M)[1:] \
        if several else [out]
    limits = list(combos.limits_of(c)) if c["limits"] != "none" else None
    nominals_all = set()
    for k, (off, high, low, phase) in enumerate(waves):
        where = "line %d" % off
        js, log = jss[off], sqwlog.read(name(off, "sqwlog"))
        recs, W = log["edges"], H.writes(off)
        text = sections[k] if k < len(sections) else ""
        nominal_json(R, where, js, high, low)
        wave_text(R, where, text, high, low)
        nominals = sorted({high / 1000, low / 1000})
        nominals_all |= set(nominals)
        if not log_is_the_pin(R, where, recs, W):
            continue
        counted = counted_set(recs)
        R.check("edges_counted", js["counts"]["edges"] == len(counted) and
                js["counts"]["warmup_edges"] == sum(1 for r in recs if r[7] & truth.F_WARMUP),
                where, "counts %s for %d counted records" % (js["counts"], len(counted)))
        export_is_the_pin(R, where, name(off, "sqwlog"), recs, W)
        compare_is_the_pin(R, where, name(off, "sqwlog"), recs, W)
        pulses_hold_the_truth(R, where, "", js, recs, W, counted)
        missed_periods(R, where, log, js, recs, W, counted, high, low, high != low)
        if limits:
            verdict_holds_the_truth(R, where, js, recs, W, counted, *limits)
        if c["loopback"] == "on":
            loopback_checks(R, where, log, js, recs, W, counted, H.last()["wire"])
        analyze_checks(R, where, "", name(off, "sqwlog"), js, text, nominals, high / 1000,
                       [v / 1000 for v in limits] if limits else None)
    if several and c["outputs"] == "together":
        together_one_call(R, waves, H, {off: sqwlog.read(name(off, "sqwlog"))["edges"]
                                        for off, *_ in waves})
    offs = [off for off, *_ in waves]
    report_checks(R, "report", "", [name(o, "json") for o in offs], [jss[o] for o in offs],
                  [name(o, "sqwlog") for o in offs], sorted(nominals_all),
                  [v / 1000 for v in limits] if limits else None)
    if c["check_run"] == "yes":
        check_run(R, waves)


def together_one_call(R, waves, H, recs):
    """The lines a wake-up writes are written in one call: one write window
    for all of them, their pins changed at one time (docs/lines.md,
    together)."""
    by_window, by_call = {}, {}
    for off, *_ in waves:
        W = H.writes(off)
        for i, r in enumerate(recs[off]):
            if i < len(W):
                by_window.setdefault((r[1] + r[3], r[1] + r[4]), set()).add(W[i]["call"])
                by_call.setdefault(W[i]["call"], set()).add((r[1] + r[3], r[1] + r[4]))
    split = [w for w, calls in by_window.items() if len(calls) > 1]
    mixed = [cl for cl, ws in by_call.items() if len(ws) > 1]
    R.check("together_one_call", not split and not mixed, "lines",
            "%d write windows of several calls, %d calls logged with several windows" %
            (len(split), len(mixed)))


def check_run(R, waves):
    c = R.c
    hist = R.p("chk.csv")
    rc, out, err = R.sh([sq(R), "check", "--board", BOARD] + combos.wave_args(c) + [
        "--run", "1s", "--json", R.p("chk.json"), "--set", "output.log=" + R.p("chk.sqwlog"),
        "--set", "sim.history_file=" + hist], stdout=R.p("chk.txt"))
    name = "check_run_several_lines" if len(waves) > 1 else "check_run_verdict"
    if not R.check(name, rc in (0, 1) and os.path.exists(R.p("chk.json")),
                   "check --run", "exit %d: %s" % (rc, (out + err).strip()[-300:])):
        return
    run = load_json(R.p("chk.json")).get("run")
    if not run or run.get("verdict") is None:
        return                      # not run (a FAIL above it on this machine)
    limits = combos.limits_of(c) if c["limits"] != "none" else None
    v = run["verdict"]
    if limits is None:
        R.check("check_run_verdict", v == "NO LIMITS", "check --run",
                "verdict %s without limits" % v)
    else:
        within_limits = run["tmin_bound_ns"] >= limits[0] and run["tmax_bound_ns"] <= limits[1]
        R.check("check_run_verdict", (v == "PASS") == (within_limits and run["exit_code"] == 0),
                "check --run", "verdict %s with bounds %d..%d ns and limits %s, run exit %d" %
                (v, run["tmin_bound_ns"], run["tmax_bound_ns"], limits, run["exit_code"]))
    nominals = {w for _, h, l, _ in waves for w in (h, l)}
    for m in re.finditer(r"far from the nominal ([0-9.]+) us", out):
        R.check("check_run_nominal", any(abs(float(m.group(1)) * 1000 - n) < 1 for n in nominals),
                "check --run", "'%s': the wave's nominals are %s ns" %
                (m.group(0), sorted(nominals)))
    H = truth.History(hist)
    if len(waves) == 1 and os.path.exists(R.p("chk.sqwlog")):
        off, high, low, _ = waves[0]
        recs, W = sqwlog.read(R.p("chk.sqwlog"))["edges"], H.writes(off)
        if len(W) >= len(recs):
            # docs/check.md: off its own level's nominal by half the shorter
            # level or more; sqwave counts by its estimates, each within the
            # write windows of the pin's width
            tp = truth.true_pulses(W[:len(recs)], counted_set(recs))
            far, slack = min(high, low) / 2, max(r[4] - r[3] for r in recs)
            off = [abs(w - (high if pol else low)) for w, pol, _ in tp]
            lo = sum(1 for o in off if o >= far + slack)
            hi = sum(1 for o in off if o >= far - slack)
            R.check("check_run_far_pulses", lo <= run["pulses_far"] <= hi, "check --run",
                    "%d pulses far from nominal; the pin made %d..%d pulses off their own "
                    "level's nominal by half the shorter level or more (within the write "
                    "windows, %d ns)" % (run["pulses_far"], lo, hi, slack))


# ---- a respond run ----------------------------------------------------------------------

def run_respond(R):
    c = R.c
    hist = R.p("hist.csv")
    argv = [sq(R), "respond", "--board", BOARD] + combos.respond_args(c) + [
        "--duration", "1s", "--quiet", "--log", R.p("run.sqwlog"), "--json", R.p("run.json"),
        "--set", "sim.history_file=" + hist]
    rc, out, err = R.sh(argv, stdout=R.p("run.txt"))
    js = load_json(R.p("run.json")) if os.path.exists(R.p("run.json")) else None
    if not R.check("run_exit", js is not None and (rc == 0 or (
            rc == 1 and js["verdict"]["result"] == "FAIL")),
            "respond", "exit %d: %s" % (rc, err.strip()[-400:])):
        return
    H = truth.History(hist)
    if not R.check("history_complete", H.complete, "respond", "the pins' record is incomplete "
                   "(sim.history_file: %s)" % err.strip()[-200:]):
        return                      # no truth to hold the figures against
    log = sqwlog.read(R.p("run.sqwlog"))
    recs, W = log["edges"], H.writes(0)
    stims = [s for s in H.last()["stim"] if s["off"] == 2]
    where = "respond"
    if not log_is_the_pin(R, where, recs, W):
        return
    counted = counted_set(recs)
    R.check("edges_counted", js["counts"]["edges"] == len(counted), where,
            "counts.edges %d for %d counted records" % (js["counts"]["edges"], len(counted)))
    export_is_the_pin(R, where, R.p("run.sqwlog"), recs, W)
    # every answer is the event the kernel reported, events lost between
    by_seq = {s["seqno"]: (i, s) for i, s in enumerate(stims) if s["seqno"]}
    seq, lost_counted, lost_warm, answered = 0, 0, 0, []
    for i, r in enumerate(recs):
        if r[7] & truth.F_NOEVENT:
            continue
        first = seq + 1
        seq += r[5]
        ev = by_seq.get(seq)
        ok = ev is not None and ev[1]["queued"] and ev[1]["event"] == r[1] and \
            all(k in by_seq and not by_seq[k][1]["queued"] for k in range(first, seq))
        if not R.check("respond_answers_are_the_events", ok, where,
                       "record seq %d answers event %d at %d; the input's events there: %s" %
                       (r[0], seq, r[1], [by_seq.get(k, (0, None))[1]
                                          for k in range(first, seq + 1)])):
            return
        if r[7] & truth.F_WARMUP:
            lost_warm += r[5] - 1
        else:
            lost_counted += r[5] - 1
        answered.append((i, ev[0]))
    # the run's note at the stop (docs/log-format.md): when it stopped; the
    # events stamped before it and never answered, those lost among them
    note = next((e["kv"] for e in log["events"] if e["type"] == "note" and
                 "respond.stop_ns" in e.get("kv", {})), None)
    stop = int(note["respond.stop_ns"]) if note else None
    tail = [s for s in stims if s["seqno"] > seq and s["event"] is not None and
            (stop is None or s["event"] < stop)]
    unanswered = sum(1 for s in tail if s["queued"])
    # lost after the last answer: no record's count has them; the warm-up's
    # when stamped before the first counted answer's event
    warm_end = next((r[1] for r in recs if not r[7] & (truth.F_WARMUP | truth.F_NOEVENT)),
                    None)
    for s in tail:
        if not s["queued"]:
            if warm_end is None or s["event"] < warm_end:
                lost_warm += 1
            else:
                lost_counted += 1
    rj = js["respond"]
    R.check("respond_lost_events_counted", rj["events_lost"] == lost_counted and
            rj.get("events_lost_warmup", lost_warm) == lost_warm, where,
            "events_lost %d (warm-up %s): the kernel dropped %d events after the warm-up, %d in "
            "it" % (rj["events_lost"], rj.get("events_lost_warmup"), lost_counted, lost_warm))
    m = re.search(r"^lost\s+(.*)$", out, re.M)
    line = m.group(1) if m else ""
    nums = [int(x) for x in re.findall(r"\d+", line)]
    ok = bool(nums) and nums[0] == lost_counted
    if lost_warm:
        w = re.search(r"(\d+)[^\d]*warm-up", line)
        ok = ok and w is not None and int(w.group(1)) == lost_warm
    R.check("respond_lost_events_counted", ok, where,
            "the text says 'lost %s'; the kernel dropped %d events (counted answers) and %d "
            "(warm-up)" % (line, lost_counted, lost_warm))
    shown = re.search(r"(\d+)[^\d\n]*unanswered|unanswered[^\d\n]*(\d+)", out)
    R.check("respond_unanswered_events_counted", (unanswered == 0 and shown is None) or (
        shown is not None and int(shown.group(1) or shown.group(2)) == unanswered) and
        rj.get("events_unanswered", unanswered) == unanswered, where,
        "%d events were stamped before the stop, queued and never answered; the summary "
        "says %s (JSON %s)" % (unanswered, shown.group(0) if shown else "nothing of them",
                               rj.get("events_unanswered")))
    # a write of the level the output had is an answer but no edge
    changed = {i for i, _, _ in truth.pin_changes(W[:len(recs)])}
    if "rewrites" in rj:
        rw = sum(1 for i in counted if i not in changed)
        R.check("respond_rewrites", rj["rewrites"] == rw, where,
                "respond.rewrites %d, the pin kept its level on %d counted writes" %
                (rj["rewrites"], rw))
    pulses_hold_the_truth(R, where, "respond_", js, recs, W, counted)
    # the scope across the two pins (docs/respond.md): from the input's change
    # the event reports (with debounce a burst's last) to the output's
    # change, over the counted answers that changed the output
    delays = [(W[i]["t"] - stims[k]["t"], recs[i][0])
              for i, k in answered if i in counted and i in changed]
    scope = rj["scope"]
    if "answers" in scope:
        R.check("respond_scope_lower_bound", scope["answers"] == len(delays), where,
                "scope over %d answers, %d counted answers changed the output" %
                (scope["answers"], len(delays)))
    if delays:
        lo = min(delays)
        R.check("respond_scope_lower_bound", scope["min_ns"] <= lo[0], where,
                "scope at least %d ns, but answer #%d changed the output %d ns after the "
                "input's change" % (scope["min_ns"], lo[1], lo[0]))
        if scope.get("max_ns") is not None:
            hi = max(delays)
            R.check("respond_scope_upper_bound", hi[0] <= scope["max_ns"], where,
                    "scope at most %d ns, but answer #%d changed the output %d ns after the "
                    "input's change" % (scope["max_ns"], hi[1], hi[0]))
    if c["limits"] == "tmin/tmax":
        verdict_holds_the_truth(R, where, js, recs, W, counted, 10000, 5000000)
    elif c["limits"] == "response_max":
        chk = {x["name"]: x for x in js["verdict"]["checks"]}.get("response_max")
        obs = js["respond"]["event_to_write_end"]["max_ns"]
        # no counted answer: nothing to judge (the verdict fails on that)
        R.check("verdict_holds_the_truth", chk is not None and chk["observed"] == obs and
                (obs is None or (chk["result"] == "fail") == (obs > 300000)), where,
                "response_max check %s, the latest answer ended %s ns after its event" %
                (chk, obs))
    # a respond run has no wave: its only nominal is a pulse's width
    nominals = [50.0] if c["mode"] == "pulse" else []     # respond.pulse_width's default
    limits = [10.0, 5000.0] if c["limits"] == "tmin/tmax" else None
    analyze_checks(R, where, "respond_", R.p("run.sqwlog"), js, out, nominals, None, limits)
    report_checks(R, "report", "respond_", [R.p("run.json")], [js], [R.p("run.sqwlog")],
                  nominals, limits)


# ---- refusals -----------------------------------------------------------------------------

def run_refusal(R, name, extra, words):
    log = R.p("ref.sqwlog")
    if extra and extra[0] == "respond":
        argv = [sq(R), "respond", "--board", BOARD] + extra[1:]
    else:
        argv = [sq(R), "run", "--board", BOARD] + extra
    rc, out, err = R.sh(argv + ["--duration", "300ms", "--quiet", "--log", log])
    missing = [w for w in words if w not in err]
    R.check("refusal_" + name, rc == 2 and not missing and not os.path.exists(log) and
            not any(f.startswith("ref.") for f in os.listdir(R.d)), "refusal",
            "exit %d (2 expected) with %r%s" % (rc, err.strip()[-300:],
                                                ", not naming %s" % missing if missing else ""))


def why_known(name):
    item = known.KNOWN[name]
    return ("issue 29 item " if item[0].isdigit() else "oracle finding ") + item


# ---- the driver -----------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sqwave", default=os.path.join(ROOT, "build", "sqwave"))
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--n", type=int, default=None,
                    help="combinations in all (default: the all-pairs cover alone)")
    ap.add_argument("--only", default="", help="combination ids (and refusal names) to run")
    ap.add_argument("--keep", help="keep every combination's files under this directory")
    ap.add_argument("--strict", action="store_true", help="known disagreements fail too")
    ap.add_argument("--no-refusals", action="store_true")
    ap.add_argument("--list", action="store_true", help="list the combinations and stop")
    a = ap.parse_args()
    a.sqwave = os.path.abspath(a.sqwave)
    if not os.access(a.sqwave, os.X_OK):
        print("oracle: no sqwave at %s (make first)" % a.sqwave, file=sys.stderr)
        return 2
    only = {x for x in a.only.split(",") if x}
    work = os.path.abspath(a.keep) if a.keep else tempfile.mkdtemp(prefix="sqwave-oracle.")
    os.makedirs(work, exist_ok=True)
    me = "tests/oracle/oracle.py --seed %d%s" % (a.seed, " --n %d" % a.n if a.n else "")
    todo = [c for c in combos.combinations(a.seed, a.n) if not only or str(c["id"]) in only]
    refusals = [] if a.no_refusals else \
        [r for r in combos.REFUSALS if not only or r[0] in only]
    if a.list:
        for c in todo:
            print("combination_%d %s" % (c["id"], combos.describe(c)))
        for r in refusals:
            print("refusal_%s %s" % (r[0], " ".join(r[1])))
        return 0
    bad = 0
    held = {}
    print("oracle: seed %d, %d combinations, %d refusals, sqwave %s" %
          (a.seed, len(todo), len(refusals), a.sqwave))
    jobs = [("combination_%d" % c["id"], c) for c in todo] + \
           [("refusal_" + r[0], r) for r in refusals]
    for label, job in jobs:
        d = os.path.join(work, label)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        if isinstance(job, dict):
            R = Run(a, job, d)
            desc = combos.describe(job)
            try:
                run_wave(R) if job["kind"] == "wave" else run_respond(R)
            except Exception as e:   # a crash of the oracle on odd output is a finding too
                R.check("oracle_read_the_outputs", False, "oracle",
                        "%s: %s" % (type(e).__name__, e))
            again = "%s --only %d --keep DIR" % (me, job["id"])
        else:
            R = Run(a, {}, d)
            desc = "refused: " + " ".join(job[1])
            run_refusal(R, job[0], job[1], job[2])
            again = "%s --only %s --keep DIR" % (me, job[0])
        for k, ok in R.checked.items():
            held.setdefault(k, [0, 0])
            held[k][0 if ok else 1] += 1
        unexpected = [f for f in R.findings if a.strict or f[0] not in known.KNOWN]
        then = []
        print("%s oracle_%s: %s" % ("FAIL" if unexpected else "PASS", label, desc))
        seen = set()
        for name, where, msg, cmd in R.findings:
            if cmd and cmd != R.cmds[0] and cmd not in then:
                then.append(cmd)      # the command whose output disagreed
            if (name, where) in seen:
                continue              # the first of each check and place is enough
            seen.add((name, where))
            tag = "KNOWN (%s) " % why_known(name) if name in known.KNOWN and not a.strict else ""
            print("    %s%s [%s]: %s" % (tag, name, where, msg))
        if R.findings:
            print("    reproduce: %s" % again)
            for cmd in R.cmds[:1] + then:
                print("    %s: %s" % ("sqwave" if cmd == R.cmds[0] else "then", cmd.replace(d, "DIR")))
        bad += bool(unexpected)
        if not a.keep:
            shutil.rmtree(d, ignore_errors=True)
    for name, item in sorted(known.KNOWN.items()):
        if name in held and held[name][1] == 0:
            print("oracle: known check %s (%s) held in all %d combinations it ran in: if "
                  "that is fixed, remove it from tests/oracle/known.py" %
                  (name, why_known(name), held[name][0]))
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    print("oracle: checks (combinations held / disagreed): " +
          ", ".join("%s %d/%d" % (k, v[0], v[1]) for k, v in sorted(held.items())))
    print("oracle: %d of %d failed" % (bad, len(jobs)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
