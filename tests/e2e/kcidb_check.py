#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Checks a `sqwave run --kcidb` document: valid against the test-side schema
# of KCIDB v5.3's test object (tests/data/kcidb/, written from kernelci/
# kcidb-io's kcidb_io/schema/v05_03.py), and every line's tests holding the
# figures of that line's summary JSON (verdict.checks, run.start_realtime_ns).
# Needs python3-jsonschema (Debian).
# Usage: kcidb_check.py SCHEMA KCIDB.json ORIGIN LINE=SUMMARY.json...
import datetime
import json
import os
import re
import sys
import urllib.parse

from jsonschema import Draft202012Validator


def part(s):
    """A path part as sqwave makes one: letters, digits, '_', '-'."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", s) or "_"


def status_of(check):
    """v5's status of a summary check: an unset limit that measured is DONE."""
    if check["result"] == "pass":
        return "PASS"
    if check["result"] == "fail":
        return "FAIL"
    return "DONE" if check["observed"] is not None else "SKIP"


def number_of(check):
    unit = check["unit"]
    v = check["observed"]
    if unit == "ns":
        return {"value": v / 1e9, "unit": "s", "prefix": "metric"}
    if unit == "percent":
        return {"value": v, "unit": "%"}
    if unit == "packets/s":
        return {"value": v, "unit": "packet/s", "prefix": "metric"}
    return {"value": v}


def main():
    schema = json.load(open(sys.argv[1]))
    doc = json.load(open(sys.argv[2]))
    origin = sys.argv[3]
    Draft202012Validator.check_schema(schema)
    v = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in v.iter_errors(doc)]
    assert not errors, "not KCIDB v5.3: " + "; ".join(errors[:5])
    assert doc["version"] == {"major": 5, "minor": 3}, doc["version"]
    tests = {t["path"]: t for t in doc["tests"]}
    assert len(tests) == len(doc["tests"]), "a path twice"
    ids = [t["id"] for t in doc["tests"]]
    assert len(set(ids)) == len(ids), "an id twice"
    for t in doc["tests"]:
        assert t["origin"] == origin and t["id"].startswith(origin + ":"), t["id"]
        assert t["build_id"].startswith(origin + ":"), t["build_id"]
        for f in t.get("output_files", []):
            u = urllib.parse.urlparse(f["url"])
            assert u.scheme == "file", f["url"]
            p = urllib.parse.unquote(u.path)
            assert os.path.isfile(p), f"{f['url']}: no such file"
            assert os.path.basename(p) == f["name"], f
    expected = set()
    for arg in sys.argv[4:]:
        line, path = arg.split("=", 1)
        summary = json.load(open(path))
        node = f"sqwave.line{part(line)}"
        expected.add(node)
        lt = tests.get(node)
        assert lt, f"no test {node}"
        assert lt["misc"]["line"] == line, lt["misc"]
        # every word but PASS and NO LIMITS is a failed verdict (FAIL, LOAD
        # NOT APPLIED, PROOF INCOMPLETE, INSTRUMENT DISAGREES)
        want = {"PASS": "PASS", "NO LIMITS": "DONE"}.get(summary["verdict"]["result"], "FAIL")
        assert lt["status"] == want, (node, lt["status"], summary["verdict"]["result"])
        start = summary["run"]["start_realtime_ns"]
        t0 = datetime.datetime.fromisoformat(lt["start_time"]).timestamp()
        assert abs(t0 - start / 1e9) < 1e-5, (lt["start_time"], start)
        names = {os.path.basename(f["name"]) for f in lt["output_files"]}
        assert os.path.basename(summary["run"]["log_path"]) in names, names
        assert os.path.basename(path) in names, (path, names)
        for c in summary["verdict"]["checks"]:
            parts = ([node] + [part(c[k]) for k in ("phase", "load", "instrument") if c.get(k)] +
                     [part(c["name"])])
            p = ".".join(parts)
            expected.add(p)
            t = tests.get(p)
            assert t, f"no test {p}"
            assert t["status"] == status_of(c), (p, t["status"], c["result"])
            if c["observed"] is None:
                assert "number" not in t, (p, t)
                continue
            want = number_of(c)
            got = t["number"]
            assert {k: got.get(k) for k in ("unit", "prefix")} == \
                {k: want.get(k) for k in ("unit", "prefix")}, (p, got, want)
            # the summary writes a percent to 3 decimals, KCIDB the figure itself
            slack = 0.0005 if c["unit"] == "percent" else 0
            assert abs(got["value"] - want["value"]) <= slack + 1e-12 * max(1.0, abs(want["value"])), \
                (p, got, want)
    # the summary JSON leaves a phase's own checks out: they are the rest
    extra = [p for p in tests if p not in expected and p.count(".") < 3]
    assert not extra, f"tests no summary check explains: {extra}"
    print(f"{len(doc['tests'])} tests, {len(sys.argv) - 4} line(s)")


main()
