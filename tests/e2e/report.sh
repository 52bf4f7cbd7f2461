#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of `sqwave report` and of the SVGs a lab publishes: the
# report's width axis, limits and legend, the soak picture's proof strip,
# and the same rows from a run's log and from its summary. Every SVG written
# here is rendered to PNG with rsvg-convert (librsvg2-bin) and must render;
# the checks read the SVG's geometry, never pixels, and never timing.
# SQWAVE=path/to/sqwave tests/e2e/report.sh from the repository root.
. "$(dirname "$0")/lib.sh" sqwave-e2e-report

# Every SVG must render (a browser and a lab's report generator read them).
render() {
	command -v rsvg-convert > /dev/null || { echo "    (rsvg-convert missing: librsvg2-bin)"; return 77; }
	rsvg-convert "$1" -o "$1.png" 2> "$TMP/rsvg.err" || fail "rsvg-convert $1: $(cat "$TMP/rsvg.err")"
}

# A short soak: 3 s idle, then 5 s of a loopback ping flood, limits
# 400..600 us; its log and summary shared by the tests.
soak_once() {
	[ -f "$TMP/soak.sqwlog" ] && return 0
	cat > "$TMP/p.yaml" <<'EOF'
run:
  half_period: 500us
  warmup: 500ms
  label: report-e2e
phases:
  - name: idle
    duration: 3s
  - name: flood
    duration: 5s
    load:
      - kind: ping-flood
        target: 127.0.0.1
limits:
  tmin: 400us
  tmax: 600us
EOF
	"$SQWAVE" run --board "$BOARD" --profile "$TMP/p.yaml" --quiet --log "$TMP/soak.sqwlog" \
		--json "$TMP/soak.json" > "$TMP/soak.out" 2> "$TMP/soak.err"
	local rc=$?
	# a busy machine may break the limits (1); it must not fail to run
	[ $rc -le 1 ] || fail "soak: exit $rc: $(cat "$TMP/soak.err")"
}

# The report's SVG geometry: ticks, limits, legend, curves (a stall's outlier
# once gave an axis from -29425 to +30425 us, limits off the picture, the legend cut).
check_report_svg() {
	python3 - "$@" <<'PY'
import re, sys
import xml.etree.ElementTree as ET
path, nrows, want_log = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "log"
root = ET.parse(path).getroot()
ns = "{http://www.w3.org/2000/svg}"
vb = root.get("viewBox")
assert vb, "no viewBox: a viewer scales the picture by it"
W, H = [float(v) for v in vb.split()][2:]
of = lambda c: [e for e in root.iter() if e.get("class") == c]
# the plot's frame: the axis lines (the first two lines)
lines = [e for e in root.iter(ns + "line")]
x0, x1 = float(lines[0].get("x1")), float(lines[0].get("x2"))
ticks = [float(e.text) for e in of("x-tick")]
assert len(ticks) >= 3, ticks
assert min(ticks) >= 0, ("a negative width on the axis", ticks)
for e in of("x-tick"):
    assert x0 - 0.5 <= float(e.get("x")) <= x1 + 0.5, e.get("x")
lims = of("limit")
assert len(lims) == 2, len(lims)
for e in lims:
    assert x0 <= float(e.get("x1")) <= x1, ("a limit outside the plot", e.get("x1"), x0, x1)
for e in of("limit-label"):
    x, n = float(e.get("x")), len(e.text) * 6.5
    a = e.get("text-anchor")
    lo, hi = (x - n, x) if a == "end" else (x, x + n)
    assert lo >= x0 - 1 and hi <= x1 + 1, ("a limit's label outside the plot", e.text, lo, hi)
for c in of("curve"):
    for p in c.get("points").split():
        x, y = map(float, p.split(","))
        assert x0 - 0.5 <= x <= x1 + 0.5 and 0 <= y <= H, (x, y)
leg = [e for g in of("legend") for e in g.iter(ns + "text")]
assert len(leg) == nrows, (len(leg), nrows)
for e in leg:
    x, y = float(e.get("x")), float(e.get("y"))
    assert 0 <= x and x + 7 * len(e.text) <= W and 0 < y <= H - 4, ("legend outside", e.text, x, y, W, H)
label = [t.text for t in root.iter(ns + "text") if t.text and t.text.startswith("pulse width")]
assert label and (("log scale" in label[0]) == want_log), label
PY
}

test_the_report_svg_has_axes_from_the_data_limits_drawn_and_its_legend_inside() {
	soak_once || return 1
	"$SQWAVE" report "$TMP/soak.json" "$TMP/soak.sqwlog" --svg "$TMP/r.svg" -q 2> "$TMP/r.err"
	[ $? -le 1 ] || fail "report: $(cat "$TMP/r.err")" || return 1
	render "$TMP/r.svg" || return $?
	# linear or log as the data span: the geometry holds either way. The
	# width axis's own label says which (another panel may be logarithmic
	# while it is not: a stall under load)
	local kind
	kind=$(python3 -c '
import re, sys
m = re.search(r">(pulse width[^<]*)<", open(sys.argv[1]).read())
print("log" if m and "log scale" in m.group(1) else "lin")' "$TMP/r.svg")
	check_report_svg "$TMP/r.svg" 4 "$kind" || return 1
}

# A stall's 30.4 ms pulse beside 500 us ones: the axis keeps the bulk and
# the limits (linear, from 0 or above), and the stall is off scale: counted
# under the axis' right end, its Tmax marked at the edge.
test_a_stalls_pulse_is_off_scale_and_the_limits_stay_in_the_picture() {
	soak_once || return 1
	python3 - "$TMP/soak.json" "$TMP/stall.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
a = d["phases"][1]["pulse_width"]["any"]
a["tmax"]["width_ns"] = 30424000
a["tmax_bound"]["hi_ns"] = 30425000
a["tmin"]["width_ns"] = max(a["tmin"]["width_ns"], a["tmin_bound"]["lo_ns"])
a["histogram"]["longer"] = a["histogram"].get("longer", 0) + 1   # off its bins
json.dump(d, open(sys.argv[2], "w"))
PY
	"$SQWAVE" report "$TMP/stall.json" --svg "$TMP/stall.svg" -q 2> "$TMP/s.err"
	[ $? -le 1 ] || fail "report: $(cat "$TMP/s.err")" || return 1
	render "$TMP/stall.svg" || return $?
	# linear, unless this machine's own soak spread its bulk over a decade
	local kind
	kind=$(python3 -c '
import re, sys
m = re.search(r">(pulse width[^<]*)<", open(sys.argv[1]).read())
print("log" if m and "log scale" in m.group(1) else "lin")' "$TMP/stall.svg")
	check_report_svg "$TMP/stall.svg" 2 "$kind" || return 1
	python3 - "$TMP/stall.svg" <<'PY' || return 1
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
of = lambda c: [e for e in root.iter() if e.get("class") == c]
ticks = [float(e.text) for e in of("x-tick")]
assert max(ticks) < 30424, ticks            # the stall is not on the axis
right = float([e for e in root.iter("{http://www.w3.org/2000/svg}line")][0].get("x2"))
xs = [float(e.get("x1")) for e in of("tmax")]
assert abs(max(xs) - right) < 0.1, (xs, right)    # its Tmax at the edge
longer = [e.text for e in of("off-scale") if "longer" in e.text]
assert longer and int(longer[0].split()[0]) >= 1, longer
titles = [t.text for e in of("off-scale-mark") for t in e]
assert "Tmax 30424.000 us, off scale" in titles, titles
PY
}

# The x of a width on the report's axis from its tick labels (linear, or
# logarithmic as the axis' own label says): a python function for the tests.
AXIS_PY='
import math
def width_axis(root):
    ns = "{http://www.w3.org/2000/svg}"
    lab = [t.text for t in root.iter(ns + "text") if t.text and t.text.startswith("pulse width")]
    log = "log scale" in lab[0]
    f = (lambda v: math.log10(v)) if log else (lambda v: v)
    pts = sorted((float(e.get("x")), f(float(e.text))) for e in root.iter()
                 if e.get("class") == "x-tick")
    (p0, v0), (p1, v1) = pts[0], pts[-1]
    b = (v1 - v0) / (p1 - p0)
    for p, v in pts:
        assert abs(v0 + b * (p - p0) - v) < 0.3 * abs(b), ("ticks off one axis", pts)
    g = (lambda v: 10 ** v) if log else (lambda v: v)
    return lambda x: g(v0 + b * (x - p0))
'

# A duty wave's rows: each polarity's nominal marker at the run's own
# pulse_width.nominal_ns (its high and low), none at the half period.
test_a_duty_waves_nominal_markers_are_its_high_and_low() {
	"$SQWAVE" run --board "$BOARD" --duration 1s --high 300us --low 700us --quiet \
		--log "$TMP/d.sqwlog" --json "$TMP/d.json" > /dev/null 2> "$TMP/d.err" ||
		fail "run: $(cat "$TMP/d.err")" || return 1
	local f
	for f in d.json d.sqwlog; do
		"$SQWAVE" report "$TMP/$f" --svg "$TMP/$f.svg" -q 2> "$TMP/d.err"
		[ $? -le 1 ] || fail "report $f: $(cat "$TMP/d.err")" || return 1
		render "$TMP/$f.svg" || return $?
		python3 - "$TMP/$f.svg" "$TMP/d.json" <<PY || return 1
import json, sys, xml.etree.ElementTree as ET
$AXIS_PY
root = ET.parse(sys.argv[1]).getroot()
d = json.load(open(sys.argv[2]))
nom, half = d["pulse_width"]["nominal_ns"], d["run"]["half_period_ns"] / 1e3
at = width_axis(root)                     # tick labels in us
lines = lambda tok: [e for e in root.iter() if tok in (e.get("class") or "").split()]
for pol, tok in (("positive", "nominal-pos"), ("negative", "nominal-neg")):
    (l,) = lines(tok)
    got, want = at(float(l.get("x1"))), nom[pol] / 1e3
    assert abs(got - want) < 0.01 * want, (pol, got, want)
for l in lines("nominal"):
    assert abs(at(float(l.get("x1"))) - half) > 0.1 * half, "a marker at the half period"
PY
	done
}

# An ugly run (bench/gen-log.py: two stalls of 2 s, 1.8 % of the edges
# 100 us or more late): the report's axis keeps the nominal and the bulk;
# the pulses off it are counted (at least the stalls, at most the pulses
# past the last tick, from the per-edge CSV), Tmax marked at the edge
# with the CSV's longest pulse; no tick label over another.
test_an_ugly_runs_report_counts_the_stalls_off_scale() {
	python3 "$ROOT/bench/gen-log.py" "$TMP/u.sqwlog" --edges 200000 --stalls 2 --far 0.018 \
		|| fail "gen-log" || return 1
	"$SQWAVE" report "$TMP/u.sqwlog" --svg "$TMP/u.svg" -q 2> "$TMP/u.err"
	[ $? -le 1 ] || fail "report: $(cat "$TMP/u.err")" || return 1
	render "$TMP/u.svg" || return $?
	"$SQWAVE" analyze "$TMP/u.sqwlog" --quiet --csv "$TMP/u.csv" 2> "$TMP/u.err" ||
		fail "analyze: $(cat "$TMP/u.err")" || return 1
	python3 - "$TMP/u.svg" "$TMP/u.csv" <<PY || return 1
import csv, sys, xml.etree.ElementTree as ET
$AXIS_PY
root = ET.parse(sys.argv[1]).getroot()
widths = [int(r["pulse_after_ns"]) / 1e3 for r in csv.DictReader(open(sys.argv[2]))
          if r["pulse_after_ns"]]
of = lambda c: [e for e in root.iter() if e.get("class") == c]
ticks = of("x-tick")
last = max(float(e.text) for e in ticks)
assert last < max(widths), ("the stall is on the axis", last)
assert any("nominal" in (e.get("class") or "") for e in root.iter())
longer = [int(e.text.split()[0]) for e in of("off-scale") if "longer" in e.text]
assert longer, "no count of the pulses off scale"
assert sum(w > 1e6 for w in widths) == 2
assert 2 <= longer[0] <= sum(w > last for w in widths), (longer, last)
titles = [t.text for e in of("off-scale-mark") for t in e]
assert "Tmax %.3f us, off scale" % max(widths) in titles, (titles, max(widths))
right = -1e9
for e in sorted(ticks, key=lambda e: float(e.get("x"))):
    x, w = float(e.get("x")), 7.7 * len(e.text)
    assert x - w / 2 >= right, ("tick labels overlap", e.text)
    right = x + w / 2
PY
}

# A CPU load's proof is judged by its own CPU time (the summary's
# own_busy_pct), not by how busy its CPUs were (busy_pct: anything else
# running counts there). Whatever this machine made of it, the report
# shows the figure that judged it, in every format, from the summary and
# from the log alike; the system-wide busy only beside it.
test_the_proof_column_shows_the_figure_that_judged_the_load() {
	"$SQWAVE" run --board "$BOARD" --duration 4s --cpu 1 --load stress-ng:--cpu:1:--quiet \
		--quiet --log "$TMP/l.sqwlog" --json "$TMP/l.json" > /dev/null 2> "$TMP/l.err"
	[ $? -le 1 ] || fail "run: $(cat "$TMP/l.err")" || return 1
	local f
	for f in l.json l.sqwlog; do
		"$SQWAVE" report "$TMP/$f" --json "$TMP/$f.r.json" --markdown "$TMP/$f.md" \
			--svg "$TMP/$f.svg" > "$TMP/$f.txt" 2> "$TMP/l.err"
		[ $? -le 1 ] || fail "report $f: $(cat "$TMP/l.err")" || return 1
		render "$TMP/$f.svg" || return $?
		python3 - "$TMP/l.json" "$TMP/$f.r.json" "$TMP/$f.txt" "$TMP/$f.md" "$TMP/$f.svg" \
			"$f" <<'PY' || return 1
import json, sys, xml.etree.ElementTree as ET
s = json.load(open(sys.argv[1]))
(load,) = [l for p in s["phases"] for l in p["proof"]["loads"] if l["name"] == "stress-ng"]
assert "own_busy_pct" in load, load
(row,) = json.load(open(sys.argv[2]))["rows"]
fig = [g for g in row["proof_figures"] if g["load"] == "stress-ng"]
assert len(fig) == 1 and fig[0]["figure"] == "own_busy_pct" and fig[0]["of"] == load["cpus"], fig
# the summary's figure; a log's samples keep it to 0.1 % (its analysis
# averages those)
tol = 1e-6 if sys.argv[6].endswith(".json") else 0.1
assert abs(fig[0]["value"] - load["own_busy_pct"]) <= tol, (fig, load)
want = "stress-ng own %.0f%% of CPU %s (%s; system-wide " % (fig[0]["value"], load["cpus"],
                                                           load["own_source"])
for text in [row["proof"]] + [open(p).read() for p in sys.argv[3:5]]:
    assert want in text, (text, want)
    busy = float(text.split(want)[1].split("%")[0])    # beside it, as the summary had it
    assert abs(busy - load["busy_pct"]) <= 0.5 + tol, (busy, load)
root = ET.parse(sys.argv[5]).getroot()
proof = [e.text for e in root.iter() if e.get("class") == "legend-proof"]
short = want.split(" (")[0]
assert proof and short in proof[0], (proof, short)
PY
	done
}

# The proof strip's 60 s rows once merged the idle phase with the
# flood after it. No step of the strip may begin in one phase and end in
# the next (the flood's figures drawn during idle).
test_the_soak_picture_never_draws_one_phase_in_another() {
	soak_once || return 1
	"$SQWAVE" analyze "$TMP/soak.sqwlog" --quiet --svg "$TMP/an.svg" 2> "$TMP/an.err" ||
		fail "analyze --svg: $(cat "$TMP/an.err")" || return 1
	render "$TMP/an.svg" || return $?
	python3 - "$TMP/an.svg" <<'PY' || return 1
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
of = lambda c: [e for e in root.iter() if e.get("class") == c]
# the strip's boundaries: the last of the three plots' (idle -> flood, flood's end)
b = sorted({round(float(e.get("x1")), 1) for e in of("phase-boundary")})
assert b, "no phase boundary"
steps = 0
for cls in ("proof-busy", "proof-pps"):
    for pl in of(cls):
        pts = [tuple(map(float, p.split(","))) for p in pl.get("points").split()]
        for (ax, ay), (bx, by) in zip(pts[0::2], pts[1::2]):
            assert ay == by
            steps += 1
            for x in b:
                assert not (ax < x - 0.5 and bx > x + 0.5), ("a step across a phase boundary", cls, ax, bx, x)
assert steps >= 4, steps
PY
}

# The same label, phase, duration and figures from the log and its summary;
# the table says the duration, the frequency and whether the kernel is RT.
test_a_log_and_its_summary_give_the_same_rows_with_duration_and_frequency() {
	soak_once || return 1
	"$SQWAVE" run --board "$BOARD" --duration 1s --quiet --log "$TMP/plain.sqwlog" \
		--json "$TMP/plain.json" > /dev/null 2> "$TMP/plain.err" ||
		fail "run: $(cat "$TMP/plain.err")" || return 1
	"$SQWAVE" report "$TMP/soak.sqwlog" "$TMP/plain.sqwlog" --json "$TMP/a.json" -q 2> "$TMP/a.err"
	[ $? -le 1 ] || fail "report: $(cat "$TMP/a.err")" || return 1
	"$SQWAVE" report "$TMP/soak.json" "$TMP/plain.json" --json "$TMP/b.json" > "$TMP/b.txt" 2> "$TMP/b.err"
	[ $? -le 1 ] || fail "report: $(cat "$TMP/b.err")" || return 1
	python3 - "$TMP/a.json" "$TMP/b.json" "$TMP/b.txt" <<'PY' || return 1
import json, sys
a, b = json.load(open(sys.argv[1]))["rows"], json.load(open(sys.argv[2]))["rows"]
assert len(a) == len(b) == 3, (len(a), len(b))
for x, y in zip(a, b):
    for k in ("label", "phase", "duration_ns", "frequency_hz", "half_period_ns", "edges",
              "wake_p50_ns", "wake_mean_ns", "wake_max_ns", "preempt_rt", "verdict"):
        assert x[k] == y[k], (k, x[k], y[k])
assert [r["phase"] for r in b] == ["idle", "flood", "run"], [r["phase"] for r in b]
assert b[2]["label"] == "plain", b[2]["label"]
assert b[0]["frequency_hz"] == 1000.0
# idle is 3 s of 500 us slots; the plain run 1 s
assert b[0]["duration_ns"] == 3000000000, b[0]["duration_ns"]
# edges and missed slots: the 1 s and the edge that ends it, give or take a slot
assert abs(b[2]["duration_ns"] - 1000000000) <= 1000000, b[2]["duration_ns"]
text = open(sys.argv[3]).read()
head = text.splitlines()[0]
for col in ("duration", "freq Hz", "wake p50 us", "mean us", "p99 us"):
    assert col in head, (col, head)
mark = "(RT)" if b[0]["preempt_rt"] else "(non-RT)"
assert mark in text.splitlines()[1], text
assert "3.0 s" in text and " 1000 " in text, text
PY
}

# A row can be a failure and have its load unproven at once ("FAIL, LOAD
# NOT APPLIED", "FAIL, PROOF INCOMPLETE"): a starved load on a busy board
# and a limit broken. Such a summary, made from a real one, gives a report
# whose JSON its shipped schema accepts (a schema without the two words
# refused a real run's report).
test_a_failed_row_whose_load_is_unproven_is_a_verdict_the_schema_knows() {
	soak_once || return 1
	python3 - "$TMP/soak.json" "$TMP/starved.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
d["config"]["limits.tmin"]["value"] = 10**9  # every pulse is below it: a failure
d["verdict"]["pass"] = False
idle, flood = d["phases"][0], d["phases"][1]
flood["load_not_applied"] = ["ping-flood: 1 packets/s received (at least 1000)"]
idle["load_not_applied"] = ["stress-ng: own CPU time 12 % of CPUs 0 (below 80 %)"]
idle.setdefault("proof", {})["state"] = "proof incomplete"
json.dump(d, open(sys.argv[2], "w"))
PY
	"$SQWAVE" report "$TMP/starved.json" --json "$TMP/starved-report.json" -q 2> "$TMP/st.err"
	[ $? -le 1 ] || fail "report: $(cat "$TMP/st.err")" || return 1
	python3 - "$TMP/starved-report.json" <<'PY' || return 1
import json, sys
v = [r["verdict"] for r in json.load(open(sys.argv[1]))["rows"]]
assert v[:2] == ["FAIL, PROOF INCOMPLETE", "FAIL, LOAD NOT APPLIED"], v
PY
	python3 "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$TMP/starved-report.json" \
		> "$TMP/sc.out" 2>&1 || fail "$(cat "$TMP/sc.out")" || return 1
}

# An instrument on a run (issue 31): a simulated run with the pins'
# record, the capture an analyzer on the pin records of it (the oracle's,
# tests/oracle/truth.py), stopped early so that it saw part of the run,
# and a scope's statistics of the run's own positive pulses with a count
# of half of them; each compared against the log (--json). Shared.
instruments_once() {
	[ -f "$TMP/in-s.json" ] && return 0
	"$SQWAVE" run --board "$BOARD" --duration 1s --quiet --log "$TMP/in.sqwlog" \
		--json "$TMP/in.json" --set sim.history_file="$TMP/in-hist.csv" \
		> /dev/null 2> "$TMP/in.err" || fail "run: $(cat "$TMP/in.err")" || return 1
	python3 "$ROOT/tests/oracle/truth.py" analyzer-vcd "$TMP/in-hist.csv" "$TMP/in.sqwlog" \
		"$TMP/in-full.vcd" 5 2> "$TMP/in.err" || fail "truth.py: $(cat "$TMP/in.err")" ||
		return 1
	# the analyzer stopped after 1200 of the changes: 7 lines of header, two
	# a change, and the time of the next change (the capture's end)
	head -n $((7 + 2 * 1200 + 1)) "$TMP/in-full.vcd" > "$TMP/in.vcd"
	"$SQWAVE" compare "$TMP/in.sqwlog" "$TMP/in.vcd" --json "$TMP/in-c.json" \
		> "$TMP/in-c.out" 2>&1 || fail "compare capture: $(tail -5 "$TMP/in-c.out")" || return 1
	read -r tmin tmax half < <(python3 - "$TMP/in.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["pulse_width"]["positive"]
print("%dns %dns %d" % (p["min_ns"], p["max_ns"], p["count"] // 2))
PY
	)
	"$SQWAVE" compare "$TMP/in.sqwlog" --scope-pos-tmin "$tmin" --scope-pos-tmax "$tmax" \
		--scope-pos-count "$half" --json "$TMP/in-s.json" > "$TMP/in-s.out" 2>&1 ||
		fail "compare scope: $(tail -5 "$TMP/in-s.out")" || return 1
}

# report of the summary and both comparisons: one instruments row each,
# holding what its comparison's JSON holds, joined with the run's row
# (the summary's log is the comparisons' log); the text and Markdown say
# the coverage as covered of run edges.
test_an_instruments_row_holds_what_its_comparison_holds_beside_the_run() {
	instruments_once || return 1
	"$SQWAVE" report "$TMP/in.json" "$TMP/in-c.json" "$TMP/in-s.json" --json "$TMP/in-r.json" \
		--markdown "$TMP/in-r.md" > "$TMP/in-r.txt" 2> "$TMP/in-r.err" ||
		fail "report: exit $?: $(cat "$TMP/in-r.err")" || return 1
	# the log given instead of its summary joins as well
	"$SQWAVE" report "$TMP/in-c.json" "$TMP/in.sqwlog" --json "$TMP/in-l.json" -q \
		2> "$TMP/in-l.err" || fail "report: exit $?: $(cat "$TMP/in-l.err")" || return 1
	python3 - "$TMP" <<'PY' || return 1
import json, os, sys
T = sys.argv[1]
j = lambda n: json.load(open(os.path.join(T, n)))
rep, summ, c, s = j("in-r.json"), j("in.json"), j("in-c.json"), j("in-s.json")
ins = rep["instruments"]
assert [i["source"] for i in ins] == [os.path.join(T, "in-c.json"), os.path.join(T, "in-s.json")], ins
run_label = rep["rows"][0]["label"]
for i in ins:
    assert i["joined"] == os.path.join(T, "in.json") and i["label"] == run_label, i
    assert i["log_path"] == c["run"]["path"], i
a, cap = ins[0], c["capture"]
assert a["coverage"] == c["coverage"], (a["coverage"], c["coverage"])
assert 0 < c["coverage"]["covered_edges"] < c["coverage"]["run_edges"], c["coverage"]
for k in ("format", "channel", "edges", "resolution_ns"):
    assert a["capture"][k] == cap[k], (k, a["capture"][k], cap[k])
w = c["widths"]["any"]
assert (a["capture"]["tmin_ns"], a["capture"]["tmax_ns"]) == (w["capture"]["min_ns"], w["capture"]["max_ns"])
assert (a["capture"]["log_tmax_lo_ns"], a["capture"]["log_tmax_hi_ns"]) == \
    (w["log"]["tmax_lo_ns"], w["log"]["tmax_hi_ns"])
assert a["capture"]["alignment"] == c["alignment"]["status"] == "aligned"
assert a["readings"] == [] and s["coverage"] is None if "coverage" in s else True
b = ins[1]
assert b["capture"] is None and b["coverage"] is None, b
want = [{k: r[k] for k in ("what", "polarity", "scope_ns", "tolerance_ns", "log_lo_ns",
                           "log_hi_ns", "count", "prediction", "agrees")}
        for r in s["scope"]["readings"]]
assert b["readings"] == want, (b["readings"], want)
assert all(r["prediction"]["status"] == "ok" for r in want), want
for i, doc in zip(ins, (c, s)):
    assert i["compare_verdict"] == doc["verdict"] and i["exit_code"] == doc["exit_code"]
    assert i["verdict"] == "AGREE", i["verdict"]
# the text and the Markdown: covered of run edges, the scope's count of the run's pulses
txt, md = open(os.path.join(T, "in-r.txt")).read(), open(os.path.join(T, "in-r.md")).read()
cv = c["coverage"]
cell = "%d of %d edges (%.3f %%), %d gap%s" % (cv["covered_edges"], cv["run_edges"],
                                               cv["fraction"] * 100, cv["gaps"],
                                               "" if cv["gaps"] == 1 else "s")
p = want[0]["prediction"]
scope = "scope %d of %d pulses (%.3f %%)" % (want[0]["count"], p["run_pulses"], p["coverage"] * 100)
for out in (txt, md):
    assert cell in out and scope in out, (cell, scope, out)
    assert "%s (%s)" % (run_label, os.path.join(T, "in.json")) in out, out
tmax = [r for r in want if r["what"] == "tmax"][0]
assert "Tmax positive %.3f" % (tmax["scope_ns"] / 1000) in txt, txt
assert "Tmax positive ~%.3f in [%.3f, %.3f]" % (tmax["prediction"]["expected_ns"] / 1000,
                                                tmax["prediction"]["lo_ns"] / 1000,
                                                tmax["prediction"]["hi_ns"] / 1000) in txt, txt
# the log's row joins as the summary's did
l = j("in-l.json")
assert l["instruments"][0]["joined"] == os.path.join(T, "in.sqwlog"), l["instruments"]
assert l["instruments"][0]["label"] == l["rows"][0]["label"]
PY
	python3 "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$TMP/in-r.json" \
		> "$TMP/sc.out" 2>&1 || fail "$(cat "$TMP/sc.out")" || return 1
}

# A scope that read a longer pulse than the run made (twice its Tmax):
# compare says DISAGREE, and so do the report's row and its exit code.
test_a_scope_reading_outside_its_interval_is_a_disagree_row_and_fails_the_report() {
	instruments_once || return 1
	local tmax
	tmax=$(python3 -c 'import json,sys; print("%dns" % (2 * json.load(open(sys.argv[1]))["pulse_width"]["positive"]["max_ns"]))' "$TMP/in.json")
	"$SQWAVE" compare "$TMP/in.sqwlog" --scope-pos-tmax "$tmax" --scope-pos-count 10 \
		--json "$TMP/in-d.json" > /dev/null 2>&1
	[ $? -eq 1 ] || fail "compare of a reading twice the run's Tmax: exit $?" || return 1
	"$SQWAVE" report "$TMP/in.json" "$TMP/in-d.json" --json "$TMP/in-dr.json" \
		> "$TMP/in-dr.txt" 2> "$TMP/in-dr.err"
	[ $? -eq 1 ] || fail "report: exit $?, not 1: $(cat "$TMP/in-dr.err")" || return 1
	python3 - "$TMP/in-dr.json" "$TMP/in-d.json" "$TMP/in-dr.txt" <<'PY' || return 1
import json, sys
i = json.load(open(sys.argv[1]))["instruments"][0]
d = json.load(open(sys.argv[2]))
assert d["verdict"] == "disagree" and i["compare_verdict"] == "disagree", (d["verdict"], i)
assert i["verdict"] == "DISAGREE" and i["readings"][0]["agrees"] is False, i
line = [l for l in open(sys.argv[3]) if sys.argv[2] in l][0]
assert " DISAGREE " in line and "(outside)" in line, line
PY
}

# A comparison out of its contract is bad input: exit 2, naming the file
# and the member; no table is written.
test_a_garbled_comparison_is_bad_input_naming_the_file_and_key() {
	instruments_once || return 1
	local what
	for what in 'c["coverage"]["covered_edges"] = "many"' \
		'c["coverage"]["covered_edges"] = c["coverage"]["run_edges"] + 1' \
		'c["scope"]["readings"][0]["prediction"]["lo_ns"] = None' ; do
		python3 - "$TMP/in-c.json" "$TMP/in-s.json" "$TMP/bad.json" "$what" <<'PY' || return 1
import json, sys
c = json.load(open(sys.argv[1]))
c["scope"] = json.load(open(sys.argv[2]))["scope"]
exec(sys.argv[4])
json.dump(c, open(sys.argv[3], "w"), indent=1)
PY
		"$SQWAVE" report "$TMP/in.json" "$TMP/bad.json" > "$TMP/bad.out" 2> "$TMP/bad.err"
		[ $? -eq 2 ] || fail "$what: exit $?, not 2" || return 1
		[ ! -s "$TMP/bad.out" ] || fail "$what: a table was written: $(cat "$TMP/bad.out")" || return 1
		grep -q "bad.json:[0-9]*: .*\(coverage.covered_edges\|scope.readings\[0\].prediction.lo_ns\)" \
			"$TMP/bad.err" || fail "$what: $(cat "$TMP/bad.err")" || return 1
	done
}

e2e_run --count-skips "report e2e"
