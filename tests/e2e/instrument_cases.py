#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The instrument's checks of a CI document, held against the comparison's
JSON they come from (docs/ci.md, "An instrument's checks").

usage: instrument_cases.py COMPARE.json [--summary S.json] [--junit J.xml]
                           [--results R.txt] [--exit N --of run|compare]

From COMPARE.json (sqwave compare --json, or the same readings typed in)
it works out each check: capture.edges and capture.coverage with a
capture; per scope reading tmin_pos ... tmax_any (the reading, the interval
it was judged against, pass exactly when the reading agrees), per
polarity coverage_pos ... (the scope's count as a share of the run's
pulses). Each document given must hold exactly those checks, with those
results and figures; --exit holds the command's exit code to them.
Exit 0, or 1 with what differs."""
import argparse
import json
import sys
import xml.etree.ElementTree as ET

POL = {"positive": "pos", "negative": "neg", "any": "any"}


def expected(d):
    """name -> (instrument, result, observed, unit, interval or None)"""
    out = {}
    if d.get("capture"):
        e, c = d.get("edges"), d["coverage"]
        if e is None:
            out["capture.edges"] = ("capture", "fail", None, "count", None)
        else:
            bad = (d["residual"]["beyond_tolerance"] + len(e["missing_in_capture"]) +
                   len(e["extra_in_capture"]))
            out["capture.edges"] = ("capture", "pass" if d["verdict"] == "agree" else "fail",
                                    bad, "count", None)
        out["capture.coverage"] = ("capture", "skip" if c["min_fraction"] is None else
                                   "pass" if c["fraction"] >= c["min_fraction"] else "fail",
                                   c["fraction"] * 100, "percent", None)
    scope = d.get("scope") or {"readings": []}
    cov = {}
    for r in scope["readings"]:
        p, tol = r["prediction"], r["tolerance_ns"]
        if p and p["status"] == "ok":
            iv = (p["lo_ns"] - tol, p["hi_ns"] + tol)
        elif "log_lo_ns" in r:
            iv = (r["log_lo_ns"] - tol, r["log_hi_ns"] + tol)
        else:
            iv = None
        out["scope.%s_%s" % (r["what"], POL[r["polarity"]])] = (
            "scope", "pass" if r["agrees"] else "fail", r["scope_ns"], "ns", iv)
        name = "scope.coverage_" + POL[r["polarity"]]
        if p is None:
            cov.setdefault(name, ("scope", "skip", None, "percent", None))
        elif p["status"] == "no-pulses":
            cov[name] = ("scope", "skip", None, "percent", None)
        else:
            n = r["count"]
            cov[name] = ("scope", "pass" if p["status"] == "ok" else "fail",
                         n * 100 / p["run_pulses"] if p["run_pulses"] else 0, "percent", None)
    out.update(cov)
    return out


def figure(v, unit):
    """as result.txt writes it (src/board/summary/ciout.c)"""
    if unit == "ns":
        return "%.3f" % (v / 1000)
    if unit == "count":
        return "%.0f" % v
    if v != 0 and abs(v) < 0.1:
        return "%.2g" % v
    return "%.1f" % v


def check_summary(exp, path, errs):
    s = json.load(open(path))
    got = {"%s.%s" % (c["instrument"], c["name"]): c for c in s["verdict"]["checks"]
           if c.get("instrument")}
    if set(got) != set(exp):
        errs.append("summary checks %s, expected %s" % (sorted(got), sorted(exp)))
        return
    for name, (inst, res, obs, unit, iv) in exp.items():
        c = got[name]
        if c["result"] != res:
            errs.append("summary %s: %s, expected %s" % (name, c["result"], res))
        if obs is not None and (c["observed"] is None or abs(c["observed"] - obs) > 0.01):
            errs.append("summary %s: observed %s, expected %s" % (name, c["observed"], obs))
        if (c["interval"] is None) != (iv is None) or (
                iv and (c["interval"]["lo"], c["interval"]["hi"]) != iv):
            errs.append("summary %s: interval %s, expected %s" % (name, c["interval"], iv))
        if c["unit"] != unit:
            errs.append("summary %s: unit %s" % (name, c["unit"]))


def check_results(exp, path, errs):
    got = {}
    for line in open(path):
        w = line.split()
        if w and w[0].split(".")[0] in ("scope", "capture"):
            got[w[0]] = w[1:]
    if set(got) != set(exp):
        errs.append("results %s, expected %s" % (sorted(got), sorted(exp)))
        return
    units = {"ns": "us", "count": "count", "percent": "percent"}
    for name, (inst, res, obs, unit, iv) in exp.items():
        want = [res] + ([figure(obs, unit), units[unit]] if obs is not None else [])
        if got[name] != want:
            errs.append("results %s: %s, expected %s" % (name, got[name], want))


def check_junit(exp, path, errs):
    got = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.get("name").split(".")[0] in ("scope", "capture"):
            res = "fail" if case.find("failure") is not None else \
                  "skip" if case.find("skipped") is not None else "pass"
            got[case.get("name")] = (res, case)
    if set(got) != set(exp):
        errs.append("junit %s, expected %s" % (sorted(got), sorted(exp)))
        return
    for name, (inst, res, obs, unit, iv) in exp.items():
        if got[name][0] != res:
            errs.append("junit %s: %s, expected %s" % (name, got[name][0], res))
        out = got[name][1].find("system-out").text or ""
        if obs is not None and unit == "ns" and "observed %s us" % figure(obs, unit) not in out:
            errs.append("junit %s: no observed %s in %r" % (name, figure(obs, unit), out))
        if iv and "expected in [%s, %s] us" % (figure(iv[0], "ns"), figure(iv[1], "ns")) not in out:
            errs.append("junit %s: no interval %s in %r" % (name, iv, out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("compare")
    ap.add_argument("--summary")
    ap.add_argument("--junit")
    ap.add_argument("--results")
    ap.add_argument("--exit", type=int)
    ap.add_argument("--own-failed", action="store_true",
                    help="the run's own checks failed (run: exit 1 whatever the instrument)")
    a = ap.parse_args()
    exp = expected(json.load(open(a.compare)))
    errs = []
    if not exp:
        errs.append("the comparison has no instrument check")
    if a.summary:
        check_summary(exp, a.summary, errs)
    if a.results:
        check_results(exp, a.results, errs)
    if a.junit:
        check_junit(exp, a.junit, errs)
    if a.exit is not None:
        failed = any(v[1] == "fail" for v in exp.values())
        want = 1 if failed or a.own_failed else 0
        if a.exit != want:
            errs.append("exit %d, expected %d (instrument failed: %s)" % (a.exit, want, failed))
    for e in errs:
        print(e, file=sys.stderr)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
