#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of `sqwave analyze`: a fresh simulated run, its export,
# a killed run, foreign and missing files, and a capture checked against the
# fixture's true answers. Self-contained: SQWAVE=path/to/sqwave tests/e2e/analyze.sh
# from the repository root. Prints PASS/FAIL per test; exit 1 if any failed.
. "$(dirname "$0")/lib.sh" sqwave-e2e-analyze
FIXTURES=${SQWAVE_FIXTURES:-$ROOT/../shared/fixtures/captures}

# One 2 s run shared by several tests.
run_once() {
	[ -f "$TMP/r.sqwlog" ] && return 0
	"$SQWAVE" run --board "$BOARD" --duration 2s --quiet --log "$TMP/r.sqwlog" \
		--json "$TMP/r.json" > "$TMP/r.out" 2> "$TMP/r.err" ||
		fail "sqwave run failed: $(cat "$TMP/r.err")"
}

test_analyzing_a_fresh_run_agrees_with_its_summary() {
	run_once || return 1
	"$SQWAVE" analyze "$TMP/r.sqwlog" --json "$TMP/r.an.json" > "$TMP/r.an.txt" 2> "$TMP/r.an.err"
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/r.an.err")" || return 1
	python3 - "$TMP/r.json" "$TMP/r.an.json" <<'PY' || return 1
import json, sys
run = json.load(open(sys.argv[1]))
an = json.load(open(sys.argv[2]))
assert an["schema"] == "sqwave-analysis", an.get("schema")
assert an["schema_version"] == 1
assert an["source"]["kind"] == "log" and an["source"]["truncated"] is False
assert an["counts"]["edges"] == run["counts"]["edges"], (an["counts"]["edges"], run["counts"]["edges"])
assert an["counts"]["missed_periods"] == run["counts"]["missed_periods"]
for pol in ("positive", "negative", "any"):
    a, r = an["pulse_width"][pol], run["pulse_width"][pol]
    assert a["count"] == r["count"], (pol, a["count"], r["count"])
    for k in ("tmin", "tmax"):
        assert a[k]["width_ns"] == r[k]["width_ns"], (pol, k, a[k], r[k])
        assert a[k]["seq"] == r[k]["seq"], (pol, k)
assert an["wake_latency"]["max_ns"] == run["wake_latency"]["max_ns"]
assert len(an["worst"]["edges"]) == min(10, an["counts"]["edges"])
lat = [w["latency_ns"] for w in an["worst"]["edges"]]
assert lat == sorted(lat, reverse=True) and lat[0] == run["wake_latency"]["max_ns"]
assert sum(r["edges"] for r in an["timeline"]["rows"]) == an["counts"]["edges"]
assert an["missed"]["events"] == len(an["missed"]["list"]) or not an["missed"]["list_complete"]
PY
	grep -q "Tmin" "$TMP/r.an.txt" && grep -q "Tmax" "$TMP/r.an.txt" ||
		fail "no Tmin/Tmax in the text" || return 1
}

test_the_histogram_is_in_cyclictest_format_and_counts_every_edge() {
	run_once || return 1
	"$SQWAVE" analyze "$TMP/r.sqwlog" --quiet --histogram "$TMP/r.hist" --hist-buckets 50 \
		--json "$TMP/r.h.json" || fail "analyze failed" || return 1
	python3 - "$TMP/r.hist" "$TMP/r.h.json" <<'PY' || return 1
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
an = json.load(open(sys.argv[2]))
assert lines[0] == "# Histogram", lines[0]
rows = [l for l in lines if re.fullmatch(r"\d{6} \d{6,}", l)]
assert len(rows) == 50, len(rows)
assert [int(r.split()[0]) for r in rows] == list(range(50))
total = int(next(l for l in lines if l.startswith("# Total:")).split()[-1])
over = int(next(l for l in lines if l.startswith("# Histogram Overflows:")).split()[-1])
assert total == sum(int(r.split()[1]) for r in rows)
assert total + over == an["counts"]["edges"], (total, over)
assert any(l.startswith("# Histogram Overflow at cycle number:") for l in lines)
assert any(l.startswith("# Thread 0:") for l in lines)
PY
}

test_the_per_edge_csv_has_a_row_per_edge_with_both_pulses() {
	run_once || return 1
	"$SQWAVE" analyze "$TMP/r.sqwlog" --quiet --csv "$TMP/r.edges.csv" --json "$TMP/r.c.json" ||
		fail "analyze failed" || return 1
	python3 - "$TMP/r.edges.csv" "$TMP/r.c.json" <<'PY' || return 1
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
an = json.load(open(sys.argv[2]))
assert len(rows) == an["counts"]["records"], (len(rows), an["counts"]["records"])
assert rows[0]["pulse_before_ns"] == "" and rows[-1]["pulse_after_ns"] == ""
for a, b in zip(rows, rows[1:]):
    assert a["pulse_after_ns"] == b["pulse_before_ns"], (a, b)
widths = [int(r["pulse_after_ns"]) for r in rows if r["pulse_after_ns"]]
assert min(widths) == an["pulse_width"]["any"]["tmin"]["width_ns"]
assert max(widths) == an["pulse_width"]["any"]["tmax"]["width_ns"]
PY
}

test_the_exported_csv_analyzes_like_the_log() {
	run_once || return 1
	"$SQWAVE" export "$TMP/r.sqwlog" --csv "$TMP/r.export.csv" || fail "export failed" || return 1
	[ -f "$TMP/r.an.json" ] || "$SQWAVE" analyze "$TMP/r.sqwlog" --quiet --json "$TMP/r.an.json"
	"$SQWAVE" analyze "$TMP/r.export.csv" --quiet --json "$TMP/r.x.json" 2> "$TMP/r.x.err" ||
		fail "analyze of the export failed: $(cat "$TMP/r.x.err")" || return 1
	python3 - "$TMP/r.an.json" "$TMP/r.x.json" <<'PY' || return 1
import json, sys
a, x = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert x["source"]["kind"] == "edge-csv" and x["source"]["format"] == "sqwave-export-csv"
for k in ("edges", "missed_periods"):
    assert a["counts"][k] == x["counts"][k], k
for k in ("tmin", "tmax"):
    assert a["pulse_width"]["any"][k] == x["pulse_width"]["any"][k], k
assert a["wake_latency"]["max_ns"] == x["wake_latency"]["max_ns"]
PY
}

test_the_timeline_help_and_output_name_the_same_default_row() {
	run_once || return 1
	"$SQWAVE" analyze "$TMP/r.sqwlog" > "$TMP/tl.txt" 2>&1 || fail "analyze failed" || return 1
	local row
	row=$(sed -n 's/^timeline, \(.*\) a row (from the first edge)$/\1/p' "$TMP/tl.txt")
	[ -n "$row" ] || fail "no timeline line in: $(cat "$TMP/tl.txt")" || return 1
	"$SQWAVE" analyze --help | grep -q -- "--timeline DUR *timeline row length (default $row)$" ||
		fail "help: $("$SQWAVE" analyze --help | grep -- --timeline); output: $row a row" || return 1
}

test_the_svg_is_well_formed_and_titled() {
	run_once || return 1
	"$SQWAVE" analyze "$TMP/r.sqwlog" --quiet --svg "$TMP/r.svg" || fail "analyze failed" || return 1
	python3 - "$TMP/r.svg" <<'PY' || return 1
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag.endswith("svg"), root.tag
texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
for want in ("kernel", "histogram", "over time", "Tmin", "Tmax"):
    assert want in texts, want
# a plain run (one phase, no load): no phase bands, no proof-of-load strip
assert not [e for e in root.iter() if (e.get("class") or "").startswith(("phase-", "proof-"))]
assert "Proof of load" not in texts
PY
}

test_the_svg_shows_the_verdict_persistence_warm_up_and_labels_that_never_overlap() {
	# tight limits so that some pulses are outside them; the run fails (1)
	"$SQWAVE" run --board "$BOARD" --duration 1500ms --warmup 300ms --tmin 499us --tmax 501us \
		--quiet --log "$TMP/v.sqwlog" > /dev/null 2>&1
	# a wake-up limit half the counted wake-ups are above: their median
	"$SQWAVE" analyze "$TMP/v.sqwlog" --quiet --csv "$TMP/v.edges.csv" ||
		fail "analyze --csv failed" || return 1
	local wake
	wake=$(python3 -c 'import csv, sys
l = sorted(int(r["latency_ns"]) for r in csv.DictReader(open(sys.argv[1])) if not int(r["flags"]) & 1)
print(l[len(l) // 2])' "$TMP/v.edges.csv") || fail "no latencies" || return 1
	"$SQWAVE" analyze "$TMP/v.sqwlog" --quiet --svg "$TMP/v.svg" --json "$TMP/v.json" \
		--worst 40 --max-latency "${wake}ns" || fail "analyze failed" || return 1
	"$SQWAVE" export "$TMP/v.sqwlog" --csv "$TMP/v.export.csv" || fail "export failed" || return 1
	python3 - "$TMP/v.svg" "$TMP/v.json" "$TMP/v.export.csv" "$TMP/v.edges.csv" \
		"$wake" <<'PY' || return 1
import csv, json, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
v = json.load(open(sys.argv[2]))["verdict"]
texts = [t for t in root.iter(ns + "text")]
alltext = " ".join(t.text or "" for t in texts)
assert v["result"] == "FAIL", v
n = v["pulses_below_tmin"] + v["pulses_above_tmax"]
assert n > 0, v
# the counts, recomputed from the per-edge CSVs: a pulse between two
# consecutive usable edges (not warm-up, no write error) is below Tmin when
# its lower bound (next write_begin - this write_end) is, above Tmax when its
# upper bound (next write_end - this write_begin) is; a counted wake-up is
# above the limit when its latency is
rows = [{k: int(x) for k, x in r.items()} for r in csv.DictReader(open(sys.argv[3]))]
usable = lambda r: not r["flags"] & (1 | 4)
below = above = 0
for a, b in zip(rows, rows[1:]):
    if b["seq"] == a["seq"] + 1 and usable(a) and usable(b) and a["level"] != b["level"]:
        below += b["write_begin_ns"] - a["write_end_ns"] < v["tmin_ns"]
        above += b["write_end_ns"] - a["write_begin_ns"] > v["tmax_ns"]
assert (v["pulses_below_tmin"], v["pulses_above_tmax"]) == (below, above), (v, below, above)
wakes = sum(1 for r in csv.DictReader(open(sys.argv[4]))
            if not int(r["flags"]) & 1 and int(r["latency_ns"]) > int(sys.argv[5]))
assert v["wake_ups_above_max"] == wakes > 0, (v["wake_ups_above_max"], wakes)
for want in ("FAIL", "%d pulses outside 499.000..501.000 us" % n, "Persistence",
             "warm-up (not counted)", "UTC", "linear around the nominal",
             "Pulse-width histogram", "Wake-up latency histogram", "trigger",
             "Persistence: every period on its rising edge (a scope triggered on the pin)"):
    assert want in alltext, want
# the persistence screen holds graded cells
assert sum(1 for r in root.iter(ns + "rect") if r.get("fill", "").startswith("#") and
           r.get("height") == "5.0") > 3
# worst-edge labels: never over each other
boxes = []
for t in texts:
    s = t.text or ""
    if s.startswith("#") and t.get("font-size") == "10":
        x, y, w = float(t.get("x")), float(t.get("y")), 6.0 * len(s)
        boxes.append((x - w / 2, y - 10, x + w / 2, y + 2))
assert boxes, "no worst-edge label"
for i, a in enumerate(boxes):
    for b in boxes[i + 1:]:
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
PY
}

# A duty wave's pictures: each polarity's nominal marker where the run's
# own JSON says that polarity's nominal is (its high and low), mapped back
# through the tick labels of its axis, never at the half period.
test_a_duty_waves_svg_markers_are_at_each_polaritys_nominal() {
	"$SQWAVE" run --board "$BOARD" --duration 1s --high 300us --low 700us --quiet \
		--log "$TMP/d.sqwlog" --json "$TMP/d.json" > /dev/null 2> "$TMP/d.err" ||
		fail "run: $(cat "$TMP/d.err")" || return 1
	"$SQWAVE" analyze "$TMP/d.sqwlog" --quiet --svg "$TMP/d.svg" 2> "$TMP/d.err" ||
		fail "analyze: $(cat "$TMP/d.err")" || return 1
	python3 - "$TMP/d.svg" "$TMP/d.json" <<'PY' || return 1
import json, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
nom = json.load(open(sys.argv[2]))["pulse_width"]["nominal_ns"]
half = json.load(open(sys.argv[2]))["run"]["half_period_ns"]
texts = [t for t in root.iter(ns + "text")]
def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None
def axis(pick, coord, shift=0.0):
    """value = a + b * pixel, from the tick labels pick() selects (a
    label sits @shift px from its tick)"""
    pts = sorted({(float(t.get(coord)) - shift, num(t.text)) for t in texts
                  if num(t.text) is not None and pick(t)})
    assert len(pts) >= 3, pts
    (p0, v0), (p1, v1) = pts[0], pts[-1]
    b = (v1 - v0) / (p1 - p0)
    for p, v in pts:                    # linear: every tick on one line (0.1 px)
        assert abs(v0 + b * (p - p0) - v) < 0.2 * abs(b), (pts, p, v)
    return lambda p: v0 + b * (p - p0)
lines = lambda tok: [l for l in root.iter(ns + "line") if tok in (l.get("class") or "").split()]
# the width histogram: x 680..1160, its tick labels 18 px under y 390
hist_x = axis(lambda t: t.get("text-anchor") == "middle" and float(t.get("y")) == 408.0
              and 679 <= float(t.get("x")) <= 1161, "x")
# widths over time: y 850..1060, tick labels at x 94
time_y = axis(lambda t: t.get("text-anchor") == "end" and float(t.get("x")) == 94.0
              and 845 <= float(t.get("y")) <= 1065, "y", 4)
for pol, tok in (("positive", "nominal-pos"), ("negative", "nominal-neg")):
    hist, over = lines(tok)
    want = nom[pol] / 1e3
    got = hist_x(float(hist.get("x1")))
    assert abs(got - want) < 2, ("histogram", pol, got, want)
    got = time_y(float(over.get("y1")))
    assert abs(got - want) < 2, ("over time", pol, got, want)
    assert abs(want - half / 1e3) > 100
# the persistence view: the fall a high time after the trigger, the next
# rise a period after it (x 100..700, tick labels at y 736)
per_x = axis(lambda t: t.get("text-anchor") == "middle" and float(t.get("y")) == 736.0, "x")
fall = per_x(float(lines("nominal-fall")[0].get("x1")))
rise = per_x(float(lines("nominal-rise")[0].get("x1")))
assert abs(fall - nom["positive"] / 1e3) < 4, (fall, nom)
assert abs(rise - (nom["positive"] + nom["negative"]) / 1e3) < 4, (rise, nom)
PY
}

# An ugly run (bench/gen-log.py: two stalls of 2 s, 1.8 % of the edges
# 100 us or more late): the widths over time are no solid block. The
# run's middle half of each polarity is a band where the per-edge CSV puts
# that polarity's p25..p75, no bar in the pulses' colours covers the plot,
# and the stalls are red marks at its top edge, counted under it.
test_an_ugly_runs_widths_over_time_show_the_bulk_and_mark_the_stalls() {
	python3 "$ROOT/bench/gen-log.py" "$TMP/u.sqwlog" --edges 200000 --stalls 2 --far 0.018 \
		|| fail "gen-log" || return 1
	"$SQWAVE" analyze "$TMP/u.sqwlog" --quiet --svg "$TMP/u.svg" --csv "$TMP/u.csv" \
		2> "$TMP/u.err" || fail "analyze: $(cat "$TMP/u.err")" || return 1
	if command -v rsvg-convert > /dev/null; then
		rsvg-convert "$TMP/u.svg" -o "$TMP/u.png" || fail "rsvg-convert" || return 1
	fi
	python3 - "$TMP/u.svg" "$TMP/u.csv" <<'PY' || return 1
import csv, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
w = {1: [], 0: []}              # pulse_after of an edge to level L: polarity L
for r in csv.DictReader(open(sys.argv[2])):
    if r["pulse_after_ns"]:
        w[int(r["level"])].append(int(r["pulse_after_ns"]) / 1e3)
pct = lambda v, p: sorted(v)[max(0, -(-len(v) * p // 100) - 1)]
texts = [t for t in root.iter(ns + "text")]
num = lambda s: float(s) if s and s.replace(".", "", 1).isdigit() else None
# the widths over time: y 850..1060, tick labels at x 94, 4 px under their tick
pts = sorted((float(t.get("y")) - 4, num(t.text)) for t in texts
             if num(t.text) is not None and t.get("text-anchor") == "end"
             and float(t.get("x")) == 94.0 and 845 <= float(t.get("y")) <= 1065)
(p0, v0), (p1, v1) = pts[0], pts[-1]
at = lambda y: v0 + (v1 - v0) / (p1 - p0) * (y - p0)
bands = [e for e in root.iter(ns + "rect") if e.get("class") == "bulk-band"]
assert len(bands) == 4, len(bands)
for pol, band in ((1, bands[1]), (0, bands[3])):        # p25..p75: the darker ones
    y, h = float(band.get("y")), float(band.get("height"))
    top, bot = at(y), at(y + h)
    assert abs(top - pct(w[pol], 75)) < 1 and abs(bot - pct(w[pol], 25)) < 1, \
        (pol, bot, top, pct(w[pol], 25), pct(w[pol], 75))
for e in root.iter(ns + "rect"):                       # no bar over the plot
    if e.get("fill") in ("#1f77b4", "#ff7f0e") and float(e.get("y")) >= 850:
        assert e.get("class") == "bulk-band", e.attrib
rugs = [e for e in root.iter(ns + "rect") if e.get("class") == "off-scale-rug"]
top_edge = min(float(e.get("y")) for e in rugs)
assert 1 <= sum(float(e.get("y")) == top_edge for e in rugs), rugs
assert max(max(w[0]), max(w[1])) > v1       # the stalls are off the axis
note = [t.text for t in texts if t.text and "off scale (red at the edge)" in t.text]
assert note and note[0].split()[0].isdigit() and int(note[0].split()[0]) == \
    len({float(e.get("x")) for e in rugs}), (note, len(rugs))
PY
}

test_a_killed_run_is_analyzed_up_to_its_last_record_and_says_truncated() {
	"$SQWAVE" run --board "$BOARD" --duration 60s --quiet --log "$TMP/k.sqwlog" \
		> /dev/null 2>&1 &
	local pid=$!
	# once the recorder has written more than the edges checked below
	python3 "$ROOT/tests/e2e/sqwlog.py" --wait-edges 200 "$TMP/k.sqwlog" $pid ||
		{ fail "no 200 edges logged"; kill -KILL $pid; return 1; }
	kill -KILL $pid
	wait $pid 2> /dev/null
	"$SQWAVE" analyze "$TMP/k.sqwlog" --json "$TMP/k.json" > "$TMP/k.out" 2> "$TMP/k.err"
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc, expected 0: $(cat "$TMP/k.err")" || return 1
	grep -qi truncated "$TMP/k.err" || fail "no truncation warning" || return 1
	grep -q TRUNCATED "$TMP/k.out" || fail "the text does not say truncated" || return 1
	python3 -c "
import json, sys
d = json.load(open('$TMP/k.json'))
assert d['source']['truncated'] is True and d['source']['log']['footer'] is None
assert d['counts']['edges'] > 100, d['counts']['edges']
" || return 1
}

test_a_foreign_file_is_refused_with_exit_2() {
	head -c 5000 /dev/urandom > "$TMP/foreign.bin"
	printf 'hello, world\nthis is not a capture\n' > "$TMP/foreign.txt"
	local f rc
	for f in "$TMP/foreign.bin" "$TMP/foreign.txt"; do
		"$SQWAVE" analyze "$f" > /dev/null 2> "$TMP/f.err"
		rc=$?
		[ $rc -eq 2 ] || fail "$f: exit $rc, expected 2" || return 1
		[ -s "$TMP/f.err" ] || fail "$f: no error message" || return 1
	done
}

test_a_corrupt_log_header_and_a_bad_edge_list_are_exit_2() {
	printf 'SQWAVLOG\001\000\000\000\007\000\000\000' > "$TMP/corrupt.sqwlog"
	head -c 200 /dev/zero >> "$TMP/corrupt.sqwlog"
	"$SQWAVE" analyze "$TMP/corrupt.sqwlog" > /dev/null 2> "$TMP/c.err"
	local rc=$?
	[ $rc -eq 2 ] || fail "corrupt log: exit $rc, expected 2" || return 1
	grep -q corrupt "$TMP/c.err" || fail "no 'corrupt' in: $(cat "$TMP/c.err")" || return 1
	printf 'seq,level,intended_ns,measured_ns\n0,1,1000,1100\n1,x,2000,2100\n' > "$TMP/bad.csv"
	"$SQWAVE" analyze "$TMP/bad.csv" > /dev/null 2> "$TMP/b.err"
	rc=$?
	[ $rc -eq 2 ] || fail "bad edge list: exit $rc, expected 2" || return 1
	grep -q "bad.csv:3:" "$TMP/b.err" || fail "no file:line in: $(cat "$TMP/b.err")" || return 1
}

test_a_bare_half_period_is_microseconds_as_for_run() {
	# One duration grammar: run --half-period 500 is 500 us, so is analyze's.
	printf 'seq,level,intended_ns,measured_ns\n0,1,1000000,1001000\n1,0,1501000,1502000\n2,1,2001000,2002000\n' \
		> "$TMP/hp.csv"
	"$SQWAVE" analyze "$TMP/hp.csv" --half-period 500 --quiet --json "$TMP/hp.json" \
		2> "$TMP/hp.err" || fail "$(cat "$TMP/hp.err")" || return 1
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["half_period_ns"] == 500000, d["half_period_ns"]' \
		"$TMP/hp.json" || return 1
	# the text says where the half period came from: given, or inferred
	"$SQWAVE" analyze "$TMP/hp.csv" --half-period 400 > "$TMP/hp.txt" 2>&1 ||
		fail "$(cat "$TMP/hp.txt")" || return 1
	grep -q "^wave       half period 400.000 us (1250.000 Hz) (given)$" "$TMP/hp.txt" ||
		fail "given half period: $(grep wave "$TMP/hp.txt")" || return 1
	"$SQWAVE" analyze "$TMP/hp.csv" > "$TMP/hp.txt" 2>&1 || fail "$(cat "$TMP/hp.txt")" || return 1
	grep -q "^wave       half period 500.000 us (1000.000 Hz) (from the intended times)$" \
		"$TMP/hp.txt" || fail "inferred half period: $(grep wave "$TMP/hp.txt")" || return 1
	"$SQWAVE" analyze "$TMP/hp.csv" --half-period 5parsecs --quiet > /dev/null 2> "$TMP/hp2.err"
	[ $? -eq 2 ] || return 1
	grep -q -- "--half-period must be a duration between 1us and 10s (bare numbers are us)" "$TMP/hp2.err" ||
		fail "$(cat "$TMP/hp2.err")" || return 1
}

test_a_mistyped_option_gets_the_closest_one_in_every_command() {
	local cmd opt want
	while read -r cmd opt want; do
		"$SQWAVE" $cmd "$opt" x > /dev/null 2> "$TMP/typo.err"
		[ $? -eq 2 ] || fail "$cmd $opt: not exit 2" || return 1
		# the same sentence in every command, no command's own prefix
		grep -qx -- "sqwave: error: unknown option $opt; did you mean $want? ('sqwave $cmd --help' lists the options)" \
			"$TMP/typo.err" ||
			fail "$cmd: $(cat "$TMP/typo.err")" || return 1
	done <<'EOF2'
run --durration --duration
check --priorty --priority
analyze --worts --worst
compare --tolerence --tolerance
export --cvs --csv
report --markdwon --markdown
boards --rot --root
EOF2
}

test_a_missing_file_is_an_io_error_exit_3() {
	"$SQWAVE" analyze "$TMP/does-not-exist.sqwlog" > /dev/null 2>&1
	local rc=$?
	[ $rc -eq 3 ] || fail "exit $rc, expected 3" || return 1
}

# A capture against the true answers of the synthetic fixture; @key names the
# reference block, @tol_ns the tolerance on every width.
check_capture() {
	local file=$1 key=$2 tol=$3
	"$SQWAVE" analyze "$FIXTURES/$file" --quiet --json "$TMP/cap.json" 2> "$TMP/cap.err" ||
		fail "$file: analyze failed: $(cat "$TMP/cap.err")" || return 1
	python3 - "$FIXTURES/synth_1khz_j5us_truth.json" "$TMP/cap.json" "$file" "$key" "$tol" <<'PY'
import json, sys
truth = json.load(open(sys.argv[1]))
an = json.load(open(sys.argv[2]))
file, key, tol = sys.argv[3], sys.argv[4], float(sys.argv[5])
ref = truth["files"][file][key]
def near(got_ns, want_s, what, t=tol):
    assert abs(got_ns - want_s * 1e9) <= t, (file, what, got_ns, want_s * 1e9)
pw = an["pulse_width"]
assert an["source"]["kind"] == "capture"
assert an["counts"]["edges"] == ref["edges"], (an["counts"]["edges"], ref["edges"])
near(pw["any"]["tmin"]["width_ns"], ref["Tmin_s"], "Tmin")
near(pw["any"]["tmax"]["width_ns"], ref["Tmax_s"], "Tmax")
for pol, rk in (("positive", "positive_s"), ("negative", "negative_s")):
    assert pw[pol]["count"] == ref[rk]["count"], (pol, pw[pol]["count"], ref[rk]["count"])
    near(pw[pol]["min_ns"], ref[rk]["min"], pol + " min")
    near(pw[pol]["max_ns"], ref[rk]["max"], pol + " max")
    near(pw[pol]["mean_ns"], ref[rk]["mean"], pol + " mean", tol + 1)
    near(pw[pol]["stddev_ns"], ref[rk]["stdev"], pol + " stddev", tol + 1)
per = an["period"]
assert per["count"] == ref["period_rise_to_rise_s"]["count"]
near(per["min_ns"], ref["period_rise_to_rise_s"]["min"], "period min", 2 * tol)
near(per["max_ns"], ref["period_rise_to_rise_s"]["max"], "period max", 2 * tol)
assert abs(an["duty_cycle"] - ref["duty_cycle"]) < 1e-5, (an["duty_cycle"], ref["duty_cycle"])
head, tail = an["partial"]["head"], an["partial"]["tail"]
near(head["duration_ns"], ref["first_edge_s"] - ref["capture_start_s"], "head", tol + 1)
near(tail["duration_ns"], ref["capture_end_s"] - ref["last_edge_s"], "tail", tol + 1)
assert head["level"] == ref["initial_level"]
PY
}

test_a_capture_matches_the_fixture_truth() {
	if [ ! -f "$FIXTURES/synth_1khz_j5us_truth.json" ]; then
		echo "    (no fixtures in $FIXTURES)" >&2
		return 77
	fi
	check_capture synth_1khz_j5us_10ns.vcd reference_measured 1 || return 1
	check_capture synth_1khz_j5us_saleae2.csv reference_measured 1 || return 1
	check_capture synth_1khz_j5us_rigol.csv reference_measured_interp 50 || return 1
}

# An edge that skipped two slots lands 0.45 us after the slot it is logged
# against, but 1000.45 us after the first deadline it served: its placement
# says so, as its latency does, instead of looking perfect.
test_a_late_edge_after_missed_periods_is_placed_late() {
	printf 'seq,level,intended_ns,measured_ns\n0,1,1000000,1001000\n1,0,1500000,1501000\n2,1,3000000,3000450\n3,0,3500000,3501000\n4,1,4000000,4001000\n' \
		> "$TMP/miss.csv"
	"$SQWAVE" analyze "$TMP/miss.csv" --half-period 500 --quiet --json "$TMP/miss.json" \
		> /dev/null 2> "$TMP/miss.err" || fail "$(cat "$TMP/miss.err")" || return 1
	python3 - "$TMP/miss.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
p = d["placement_error"]
assert d["counts"]["missed_periods"] == 2, d["counts"]
assert p["max_ns"] == 1000450 and p["min_ns"] == 1000, p
assert p["worst"]["seq"] == 2, p["worst"]
PY
	"$SQWAVE" analyze "$TMP/miss.csv" --half-period 500 > "$TMP/miss.txt" 2>&1 || return 1
	grep -q "placement = write-window midpoint - first deadline after the previous edge; worst 1000.450 us at edge #2" \
		"$TMP/miss.txt" || fail "$(grep placement "$TMP/miss.txt")" || return 1
}

# A capture coarser than the 32-bit record offsets hold (+-2.147 s): a 100 s
# VCD timescale puts every edge within one 100 s tick, so a 100 s pulse lies
# in [0, 200] s, not in a window clamped to 100 +- 2.147 s.
test_a_coarse_capture_keeps_a_whole_tick_either_side() {
	{
		printf '$timescale 100 s $end\n$scope module top $end\n'
		printf '$var wire 1 ! pin $end\n$upscope $end\n$enddefinitions $end\n'
		for i in 0 1 2 3 4 5 6; do printf '#%d\n%d!\n' "$i" $((i % 2)); done
	} > "$TMP/coarse.vcd"
	"$SQWAVE" analyze "$TMP/coarse.vcd" --quiet --json "$TMP/coarse.json" > /dev/null ||
		fail "analyze of a 100 s timescale failed" || return 1
	python3 - "$TMP/coarse.json" <<'PY' || return 1
import json, sys
w = json.load(open(sys.argv[1]))["pulse_width"]["any"]
for k in ("tmin", "tmax"):
    assert w[k]["width_ns"] == 100 * 10**9, w[k]
    assert w[k]["lo_ns"] <= 0 and w[k]["hi_ns"] >= 200 * 10**9, (k, w[k])
assert w["tmin_bound"]["lo_ns"] <= 0 and w["tmax_bound"]["hi_ns"] >= 200 * 10**9, w
PY
}

cd "$ROOT" || exit 1
e2e_run --count-skips "analyze e2e"
