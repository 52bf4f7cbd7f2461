#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of the long view: `analyze --window` on a real run of the
# simulated board, checked against an independent reading of its log
# (sqwlog.py), and `report --trend` over summaries of real runs on two
# board files and two hosts, its JSON against the schema and its SVG
# rendered to PNG. Timing is never asserted: the checks compare what two
# readers make of the same bytes.
# SQWAVE=path/to/sqwave tests/e2e/longview.sh from the repository root.
. "$(dirname "$0")/lib.sh" sqwave-e2e-longview

# 3 s at 1 kHz with limits a busy machine breaks now and then (crossings).
run_once() {
	[ -f "$TMP/w.sqwlog" ] && return 0
	"$SQWAVE" run --board "$BOARD" --profile "$ROOT/config/quick.yaml" --set run.duration=3s \
		--set limits.tmin=450us --set limits.tmax=550us --set limits.wake_latency_max=60us \
		--quiet --log "$TMP/w.sqwlog" > "$TMP/w.out" 2> "$TMP/w.err"
	local rc=$?
	[ $rc -le 1 ] || fail "run: exit $rc: $(cat "$TMP/w.err")"
}

test_analyze_windows_agree_with_an_independent_reading_of_the_log() {
	run_once || return 1
	"$SQWAVE" analyze "$TMP/w.sqwlog" --window 700ms --json "$TMP/w.json" --quiet \
		2> "$TMP/a.err" || fail "analyze: $(cat "$TMP/a.err")" || return 1
	python3 "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$TMP/w.json" \
		> "$TMP/sc.out" 2>&1 || fail "$(cat "$TMP/sc.out")" || return 1
	PYTHONPATH=$HERE python3 - "$TMP/w.sqwlog" "$TMP/w.json" <<'PY' || return 1
import json, sys
import sqwlog

log = sqwlog.read(sys.argv[1])
doc = json.load(open(sys.argv[2]))
win = doc["windows"]
W = 700_000_000
half = log["half_period_ns"]
assert win["window_ns"] == W, win["window_ns"]
lim_tmin, lim_tmax, lim_wake = 450_000, 550_000, 60_000
edges = log["edges"]
counted = [e for e in edges if not e[7] & 0x01]
origin = counted[0][1]
rows = {}
def row(t):
    return rows.setdefault(max(t, 0) // W, {"edges": 0, "missed": 0, "wake": None, "tmin": None,
                                            "tmax": None, "cross": set()})
prev = None
for e in edges:
    seq, intended, wake, wb, we, exp, level, flags = e
    warm = flags & 0x01
    if warm:
        prev = e
        continue
    t = intended - origin
    r = row(t)
    r["edges"] += 1
    # missed: slots advanced minus edges written (exp - 1 without drops)
    missed = (intended - prev[1]) // half - (seq - prev[0]) if prev else 0
    assert prev is None or seq == prev[0] + 1, "the sim run dropped records"
    lat = wake + missed * half
    for j in range(1, missed + 1):   # each slot in the window it falls in
        row(t - j * half)["missed"] += 1
    if r["wake"] is None or lat > r["wake"][0]:
        r["wake"] = (lat, seq)
    if lat > lim_wake:
        r["cross"].add(seq)
    if prev is not None and not prev[7] & 0x01 and not (flags | prev[7]) & 0x04:
        d = intended - prev[1]
        width = d + ((wb + we) - (prev[3] + prev[4])) // 2
        lo = d + wb - prev[4]
        hi = d + we - prev[3]
        if r["tmin"] is None or width < r["tmin"][0]:
            r["tmin"] = (width, seq)
        if r["tmax"] is None or width > r["tmax"][0]:
            r["tmax"] = (width, seq)
        if lo < lim_tmin or hi > lim_tmax:
            r["cross"].add(seq)
    prev = e
got = {r["index"]: r for r in win["rows"]}
assert sorted(got) == sorted(rows), (sorted(got), sorted(rows))
for i, r in rows.items():
    g = got[i]
    assert g["edges"] == r["edges"], (i, g["edges"], r["edges"])
    assert g["missed_periods"] == r["missed"], (i, g["missed_periods"], r["missed"])
    assert (g["wake_max"]["value_ns"], g["wake_max"]["seq"]) == r["wake"], (i, g["wake_max"], r["wake"])
    assert (g["tmin"]["value_ns"], g["tmin"]["seq"]) == r["tmin"], (i, g["tmin"], r["tmin"])
    assert (g["tmax"]["value_ns"], g["tmax"]["seq"]) == r["tmax"], (i, g["tmax"], r["tmax"])
    assert g["crossings"] == len(r["cross"]), (i, g["crossings"], len(r["cross"]))
    # the wall clock of a peak: the header's start_realtime plus its offset
    start_rt = int(log["meta"].get("start_realtime_ns", 0)) or None
    pk = g["wake_max"]
    assert pk["offset_ns"] == [e[1] for e in edges if e[0] == pk["seq"]][0] - origin
# the worst window is the maximum of the maxima
ww = max(rows, key=lambda i: (rows[i]["wake"][0], -i))
assert win["worst"]["wake_max"]["window"] == ww, (win["worst"]["wake_max"], ww)
# the last window: partial unless the run ends on a boundary
observed = counted[-1][1] - origin + half
assert win["observed_ns"] == observed
last = max(rows)
assert win["last_partial"] == (observed < (last + 1) * W)
assert got[last]["partial"] == win["last_partial"]
ncross = sum(len(r["cross"]) for r in rows.values())
c = win["crossings"]
assert c["edges"] == ncross, (c, ncross)
if ncross:
    assert abs(c["mtbf_s"] - observed / 1e9 / ncross) < 1e-9, c
else:
    assert c["mtbf_s"] is None and c["statement"].startswith("no crossing in"), c
PY
}

# A wall clock in the windows comes from the log's own header.
test_analyze_window_peaks_have_the_wall_clock_of_the_log() {
	run_once || return 1
	"$SQWAVE" analyze "$TMP/w.sqwlog" --json "$TMP/w5.json" --quiet 2> "$TMP/a.err" ||
		fail "analyze: $(cat "$TMP/a.err")" || return 1
	python3 - "$TMP/w5.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
w = d["windows"]
assert w["window_ns"] == 300_000_000_000 and w["count"] == 1 and w["last_partial"], w
pk = w["worst"]["wake_max"]
start = d["source"]["log"]["start_realtime_ns"]
assert start < pk["realtime_ns"] < start + 10 * 10**9, (start, pk)
assert pk["wall_clock"].endswith(" UTC"), pk
PY
}

test_analyze_window_refuses_a_bad_duration() {
	run_once || return 1
	"$SQWAVE" analyze "$TMP/w.sqwlog" --window 0 --quiet > /dev/null 2> "$TMP/e.err"
	local rc=$?
	[ $rc -eq 2 ] || fail "--window 0: exit $rc, expected 2" || return 1
	grep -q window "$TMP/e.err" || fail "the error does not name --window: $(cat "$TMP/e.err")"
}

# Six runs: three on boards/sim.yaml, three on a copy named sim-b; the
# summaries' host names and start times are moved (a nightly run a week
# apart on two lab hosts), one summary loses its wake-up figures.
make_runs() {
	[ -f "$TMP/t/sim-b-3.json" ] && return 0
	mkdir -p "$TMP/t"
	sed 's/^  name: sim$/  name: sim-b/' "$BOARD" > "$TMP/t/sim-b.yaml"
	local i b
	for i in 1 2 3; do
		for b in "$BOARD" "$TMP/t/sim-b.yaml"; do
			local n
			n=$(basename "$b" .yaml)-$i
			"$SQWAVE" run --board "$b" --profile "$ROOT/config/quick.yaml" \
				--set run.duration=1s --quiet --log "$TMP/t/$n.sqwlog" \
				--json "$TMP/t/$n.json" > /dev/null 2> "$TMP/t/$n.err"
			[ $? -le 1 ] || fail "run $n: $(cat "$TMP/t/$n.err")" || return 1
		done
	done
	python3 - "$TMP/t" <<'PY'
import json, os, sys
d = sys.argv[1]
day = 86400 * 10**9
for i in (1, 2, 3):
    for b, host in (("sim", "lab-a"), ("sim-b", "lab-b")):
        p = os.path.join(d, "%s-%d.json" % (b, i))
        s = json.load(open(p))
        s["host"]["hostname"] = host
        # sim-b's runs a day later than sim's; run 3 first in the arguments
        s["run"]["start_realtime_ns"] -= (30 - 7 * i - (b == "sim-b")) * day
        if b == "sim-b" and i == 2:
            s["wake_latency"] = None
        json.dump(s, open(p, "w"))
PY
}

test_report_trend_groups_by_board_orders_by_start_and_keeps_gaps() {
	make_runs || return 1
	local t=$TMP/t
	# given out of order, with a log among the summaries (its host is this machine's)
	"$SQWAVE" report --trend "$t/sim-b-3.json" "$t/sim-3.json" "$t/sim-1.json" "$t/sim-b-1.json" \
		"$t/sim-2.json" "$t/sim-b-2.json" "$t/sim-1.sqwlog" --json "$t/trend.json" \
		--svg "$t/trend.svg" > "$t/trend.txt" 2> "$t/trend.err"
	local rc=$?
	[ $rc -eq 0 ] || fail "report --trend: exit $rc: $(cat "$t/trend.err")" || return 1
	python3 "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$t/trend.json" \
		> "$TMP/sc.out" 2>&1 || fail "$(cat "$TMP/sc.out")" || return 1
	python3 - "$t" <<'PY' || return 1
import json, os, sys
import xml.etree.ElementTree as ET
d = sys.argv[1]
tr = json.load(open(os.path.join(d, "trend.json")))
keys = [b["key"] for b in tr["boards"]]
assert keys[:2] == ["sim @ lab-a", "sim-b @ lab-b"], keys
assert len(keys) == 3 and keys[2].startswith("sim @ "), keys
for b in tr["boards"][:2]:
    starts = [r["start_realtime_ns"] for r in b["runs"]]
    assert starts == sorted(starts) and len(starts) == 3, starts
    for r in b["runs"]:
        s = json.load(open(os.path.join(d, r["source"].split("/")[-1])))
        assert r["missed_periods"] == s["counts"]["missed_periods"]
        assert r["tmax_ns"] == s["pulse_width"]["any"]["tmax"]["width_ns"]
        assert r["tmin_ns"] == s["pulse_width"]["any"]["tmin"]["width_ns"]
        want = s["wake_latency"]["max_ns"] if s["wake_latency"] else None
        assert r["wake_max_ns"] == want, (r, want)
        assert r["limits"]["tmin_ns"] == 250000 and r["limits"]["tmax_ns"] == 750000
        assert r["limits"]["wake_latency_max_ns"] is None
gap = [r for r in tr["boards"][1]["runs"] if r["wake_max_ns"] is None]
assert len(gap) == 1 and gap[0]["label"] == "sim-b-2", gap
# the picture: a panel per board, one point per run that has the figure,
# a gap mark (never a point at 0) where it has not
svg = ET.parse(os.path.join(d, "trend.svg")).getroot()
ns = "{http://www.w3.org/2000/svg}"
panels = [g for g in svg.iter(ns + "g") if g.get("class") == "panel"]
assert len(panels) == 3, len(panels)
def count(p, cls):
    return sum(1 for e in p.iter() if e.get("class") == cls)
assert count(panels[0], "wake-point") == 3 and count(panels[0], "gap") == 0
assert count(panels[1], "wake-point") == 2 and count(panels[1], "gap") == 1
assert count(panels[1], "tmax-point") == 3 and count(panels[1], "missed-point") == 3
assert count(panels[1], "wake") == 2   # the line broken at the gap
assert count(panels[0], "limit") == 2  # limits.tmin and limits.tmax
assert count(panels[0], "x-tick") >= 2
txt = open(os.path.join(d, "trend.txt")).read()
assert "board sim-b @ lab-b: 3 runs" in txt and txt.index("lab-a") < txt.index("lab-b"), txt
PY
	command -v rsvg-convert > /dev/null || { echo "    (rsvg-convert missing: librsvg2-bin)"; return 77; }
	rsvg-convert "$t/trend.svg" -o "$t/trend.png" 2> "$TMP/rsvg.err" ||
		fail "rsvg-convert: $(cat "$TMP/rsvg.err")" || return 1
	python3 - "$t/trend.png" <<'PY' || return 1
import struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
assert b[12:16] == b"IHDR"
w, h = struct.unpack(">II", b[16:24])
# three panels of about 540 px under a 40 px title, 980 px wide
assert w == 980 and 1500 < h < 1800, (w, h)
assert len(b) > 20000, len(b)   # drawn, not blank
PY
	[ -z "${LONGVIEW_PNG:-}" ] || cp "$t/trend.png" "$LONGVIEW_PNG"
}

test_report_trend_bad_inputs_are_exit_2_naming_the_file() {
	make_runs || return 1
	local t=$TMP/t rc
	python3 - "$t" <<'PY'
import json, os, sys
d = sys.argv[1]
s = json.load(open(os.path.join(d, "sim-1.json")))
s["run"]["start_realtime_ns"] = None
json.dump(s, open(os.path.join(d, "nostart.json"), "w"))
s = json.load(open(os.path.join(d, "sim-1.json")))
s["counts"]["missed_periods"] = "many"
json.dump(s, open(os.path.join(d, "badtype.json"), "w"), indent=1)
json.dump({"schema": "something-else", "schema_version": 1}, open(os.path.join(d, "other.json"), "w"))
PY
	for f in nostart badtype other; do
		"$SQWAVE" report --trend "$t/sim-2.json" "$t/$f.json" > /dev/null 2> "$t/$f.err"
		rc=$?
		[ $rc -eq 2 ] || fail "$f: exit $rc, expected 2" || return 1
		grep -q "$f.json" "$t/$f.err" || fail "$f: the error does not name the file: $(cat "$t/$f.err")" ||
			return 1
	done
	grep -q 'badtype.json:[0-9]*: counts.missed_periods must be' "$t/badtype.err" ||
		fail "badtype: $(cat "$t/badtype.err")" || return 1
	grep -q 'no start time' "$t/nostart.err" || fail "nostart: $(cat "$t/nostart.err")" || return 1
	"$SQWAVE" report --trend "$t/sim-2.json" --markdown "$t/x.md" > /dev/null 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "--trend --markdown: exit $rc, expected 2"
}

e2e_run --count-skips "longview e2e"
