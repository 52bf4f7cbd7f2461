#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of the loopback as a third view of the pin: `run --loopback`
# on the simulated wire, then export's CSV and VCD, the summary and analyze,
# each checked against the log's own bytes (tests/e2e/sqwlog.py), not against
# sqwave's code. Self-contained: SQWAVE=path/to/sqwave tests/e2e/loopback.sh
# from the repository root.
. "$(dirname "$0")/lib.sh" sqwave-e2e-loopback

# A run on a wire of a fixed 20 us delay, no jitter; extra --set words after.
lb_run() {
	local name=$1
	shift
	"$SQWAVE" run --board "$BOARD" --duration 300ms --loopback --quiet \
		--set sim.wire_delay=20us --set sim.wire_jitter=0 "$@" \
		--log "$TMP/$name.sqwlog" --json "$TMP/$name.json" > /dev/null 2> "$TMP/$name.err" ||
		fail "run: $(cat "$TMP/$name.err")"
}

# Per edge, from the log's bytes alone: the simulated write happens inside
# [write_begin, write_end] and the wire adds 20 us, so the edge's event lies
# in [write_begin + 20 us, write_end + 20 us]; an edge the wire lost has none.
check_py='
import csv, json, sys
sys.path.insert(0, sys.argv[1])
import sqwlog
log = sqwlog.read(sys.argv[2])
rows = list(csv.DictReader(open(sys.argv[3])))
summary = json.load(open(sys.argv[4]))
lose = int(sys.argv[5])
times = sorted(t for e in log["events"] if e["type"] == "loopback" for s, t in e["pairs"])
edges = {e[0]: (e[1] + e[3], e[1] + e[4]) for e in log["edges"]}
assert len(rows) == len(edges), (len(rows), len(edges))
empty = []
for r in rows:
    b, e = edges[int(r["seq"])]
    assert int(r["write_begin_ns"]) == b and int(r["write_end_ns"]) == e
    mine = [t for t in times if b + 20000 <= t <= e + 20000]
    if not r["loopback_ns"]:
        assert not mine, (r["seq"], "an event in its window, but an empty cell")
        assert r["loopback_from_begin_ns"] == "" and r["loopback_from_end_ns"] == ""
        empty.append(int(r["seq"]))
        continue
    assert mine == [int(r["loopback_ns"])], (r["seq"], mine, r["loopback_ns"])
    fb, fe = int(r["loopback_from_begin_ns"]), int(r["loopback_from_end_ns"])
    assert fb == int(r["loopback_ns"]) - b and fe == int(r["loopback_ns"]) - e
    assert 20000 <= fb <= 20000 + (e - b), (r["seq"], fb)
    assert 20000 - (e - b) <= fe <= 20000, (r["seq"], fe)
assert empty == ([] if lose < 0 else [lose]), empty
lb = summary["loopback"]
assert lb["edges"] == len(edges) and lb["no_event"] == len(empty), lb
assert lb["lost_on_wire"] == len(empty) and lb["extra"] == 0 and lb["late"] == 0, lb
assert lb["events"] == len(edges) - len(empty) == lb["from_write_begin"]["count"]
assert lb["placement"]["before_write_begin"] == 0, lb["placement"]
fbs = [int(r["loopback_from_begin_ns"]) for r in rows if r["loopback_ns"]]
fes = [int(r["loopback_from_end_ns"]) for r in rows if r["loopback_ns"]]
assert lb["from_write_begin"]["min_ns"] == min(fbs) and lb["from_write_begin"]["max_ns"] == max(fbs)
assert lb["from_write_end"]["min_ns"] == min(fes) and lb["from_write_end"]["max_ns"] == max(fes)
# the kernel pulses: consecutive edges both seen, widths between their events
ev = {int(r["seq"]): int(r["loopback_ns"]) for r in rows if r["loopback_ns"]}
w = [ev[s] - ev[s - 1] for s in sorted(ev) if s - 1 in ev]
pw = lb["pulse_width"]["any"]
assert pw["count"] == len(w) and pw["min_ns"] == min(w) and pw["max_ns"] == max(w), (pw["count"], len(w))
assert "after its write ended" in lb["statement"], lb["statement"]
'

test_with_a_20us_wire_every_event_lies_20us_after_its_write() {
	lb_run d || return 1
	"$SQWAVE" export "$TMP/d.sqwlog" --csv "$TMP/d.csv" 2> "$TMP/d.exp" ||
		fail "export: $(cat "$TMP/d.exp")" || return 1
	python3 -c "$check_py" "$HERE" "$TMP/d.sqwlog" "$TMP/d.csv" "$TMP/d.json" -1 || return 1
}

test_a_lost_edge_is_one_empty_cell_counted_once() {
	lb_run l --set sim.wire_lose=5 || return 1
	"$SQWAVE" export "$TMP/l.sqwlog" --csv "$TMP/l.csv" 2> "$TMP/l.exp" ||
		fail "export: $(cat "$TMP/l.exp")" || return 1
	python3 -c "$check_py" "$HERE" "$TMP/l.sqwlog" "$TMP/l.csv" "$TMP/l.json" 5 || return 1
}

test_the_summary_and_analyze_show_the_same_kernels_view() {
	"$SQWAVE" run --board "$BOARD" --duration 300ms --loopback --set sim.wire_lose=3 \
		--log "$TMP/s.sqwlog" --json "$TMP/s.json" > "$TMP/s.out" 2> "$TMP/s.err" ||
		fail "run: $(cat "$TMP/s.err")" || return 1
	grep -q "^Loopback, the kernel's view of the pin" "$TMP/s.out" ||
		fail "no loopback section: $(cat "$TMP/s.out")" || return 1
	grep -q "^events     [0-9]* of [0-9]* counted edges seen, 1 not (1 lost on the wire)" \
		"$TMP/s.out" || fail "$(grep ^events "$TMP/s.out")" || return 1
	grep -q "^uncertainty the kernel saw each edge .* after its write ended" "$TMP/s.out" ||
		return 1
	"$SQWAVE" analyze "$TMP/s.sqwlog" --json "$TMP/a.json" --svg "$TMP/a.svg" > "$TMP/a.out" 2>&1 ||
		fail "analyze: $(cat "$TMP/a.out")" || return 1
	grep -q "^Loopback, the kernel's view of the pin" "$TMP/a.out" || return 1
	grep -q ">kernel (loopback): Tmin [0-9.]* us, Tmax [0-9.]* us<" "$TMP/a.svg" ||
		fail "no kernel's view in the SVG" || return 1
	python3 - "$TMP/s.json" "$TMP/a.json" <<'PY' || return 1
import json, sys
s, a = (json.load(open(p))["loopback"] for p in sys.argv[1:3])
assert s == a, [k for k in s if s[k] != a.get(k)]
assert s["no_event"] == 1 and s["lost_on_wire"] == 1, s
PY
}

test_report_shows_the_kernels_view_from_a_log_and_from_its_summary() {
	lb_run r --set sim.wire_lose=4 || return 1
	"$SQWAVE" report "$TMP/r.json" "$TMP/r.sqwlog" --json "$TMP/rr.json" > "$TMP/rr.out" ||
		return 1
	grep -q "kernel Tmin..Tmax us  kernel lag p99 us  kernel unseen" "$TMP/rr.out" ||
		fail "$(head -n 1 "$TMP/rr.out")" || return 1
	python3 - "$TMP/r.json" "$TMP/rr.json" <<'PY' || return 1
import json, sys
lb = json.load(open(sys.argv[1]))["loopback"]
rows = json.load(open(sys.argv[2]))["rows"]
assert len(rows) == 2, rows
want = {"tmin_ns": lb["pulse_width"]["any"]["min_ns"], "tmax_ns": lb["pulse_width"]["any"]["max_ns"],
        "lag_p99_ns": lb["from_write_end"]["percentiles_ns"]["p99"], "no_event": 1,
        "before_write_begin": 0}
for r in rows:
    assert r["loopback"] == want, (r["source"], r["loopback"], want)
PY
}

test_compare_shows_the_capture_against_the_kernels_events() {
	"$SQWAVE" run --board "$BOARD" --duration 2s --loopback --quiet --set sim.wire_delay=20us \
		--set sim.wire_jitter=0 --set sim.write_cost=2us --log "$TMP/c.sqwlog" > /dev/null \
		2> "$TMP/c.err" || fail "run: $(cat "$TMP/c.err")" || return 1
	"$SQWAVE" export "$TMP/c.sqwlog" --csv "$TMP/c.csv" || return 1
	# a capture of edges 301.., the pair 500/501 missed by the capture
	python3 "$HERE/synth_capture.py" "$TMP/c.csv" "$TMP/c.vcd" --first 301 --count 1000 \
		--res-ns 10 --drift-ppm 37 --delete-pair 500 --seed 7 2> /dev/null || return 1
	"$SQWAVE" compare "$TMP/c.sqwlog" "$TMP/c.vcd" --json "$TMP/c.json" > "$TMP/c.out" 2>&1
	grep -q "^kernel     the loopback input's events" "$TMP/c.out" ||
		fail "$(cat "$TMP/c.out")" || return 1
	grep -q "of the 2 edges missing in the capture, the kernel saw 2" "$TMP/c.out" ||
		fail "$(grep -A4 ^kernel "$TMP/c.out")" || return 1
	python3 - "$TMP/c.csv" "$TMP/c.json" <<'PY' || return 1
import csv, json, sys
rows = {int(r["seq"]): r for r in csv.DictReader(open(sys.argv[1]))}
d = json.load(open(sys.argv[2]))
k = d["kernel"]
assert k["paired_with_event"] == d["edges"]["paired"], (k, d["edges"]["paired"])
assert k["missing_in_capture_seen"] == 2, k
# each capture edge lies in its write window (to a sample), each event 20 us
# after it (the sim's write is inside the window): their difference is
# within one window of -20 us
ww = max(int(r["write_end_ns"]) - int(r["write_begin_ns"]) for r in rows.values())
c = k["capture_minus_kernel"]
assert -20000 - ww - 50 <= c["min_ns"] <= c["max_ns"] <= -20000 + ww + 50, (c["min_ns"], c["max_ns"], ww)
for m in d["edges"]["missing_in_capture"]:
    assert m["kernel_event_ns"] == int(rows[m["seq"]]["loopback_ns"]), m
PY
}

test_the_vcd_has_the_input_as_the_kernel_saw_it() {
	lb_run v || return 1
	"$SQWAVE" export "$TMP/v.sqwlog" --vcd "$TMP/v.vcd" 2> "$TMP/v.exp" ||
		fail "export: $(cat "$TMP/v.exp")" || return 1
	grep -q '^\$var wire 1 " loopback \$end' "$TMP/v.vcd" || return 1
	# The pin stays the channel analyze picks; the input is there by name.
	"$SQWAVE" analyze "$TMP/v.vcd" --quiet --json "$TMP/vp.json" > /dev/null || return 1
	"$SQWAVE" analyze "$TMP/v.vcd" --channel loopback --quiet --json "$TMP/vl.json" \
		> /dev/null || return 1
	python3 - "$HERE" "$TMP/v.sqwlog" "$TMP/vp.json" "$TMP/vl.json" <<'PY' || return 1
import json, sys
sys.path.insert(0, sys.argv[1])
import sqwlog
log = sqwlog.read(sys.argv[2])
pin, lb = (json.load(open(p)) for p in sys.argv[3:5])
assert pin["source"]["capture"]["channel"].endswith("pin"), pin["source"]["capture"]
assert lb["source"]["capture"]["channel"].endswith("loopback"), lb["source"]["capture"]
t = sorted(t for e in log["events"] if e["type"] == "loopback" for s, t in e["pairs"])
w = [b - a for a, b in zip(t, t[1:])]
got = lb["pulse_width"]["any"]
assert got["count"] == len(w), (got["count"], len(w))
assert got["min_ns"] == min(w) and got["max_ns"] == max(w), (got, min(w), max(w))
PY
}

test_a_loopback_event_of_no_whole_pairs_is_bad_input_exit_2() {
	local z='\x00\x00\x00\x00\x00\x00\x00\x00'
	python3 "$ROOT/tests/hostile/loggen.py" "$TMP/b.sqwlog" --edges 20 --meta run.loopback=true \
		--event "10:5:$z$z$z" || return 1
	"$SQWAVE" export "$TMP/b.sqwlog" --csv "$TMP/b.csv" 2> "$TMP/b.err"
	[ $? -eq 2 ] || fail "export: exit not 2" || return 1
	grep -q "b.sqwlog: loopback event 1 has 24 payload bytes, not whole (seq, event_ns) pairs" \
		"$TMP/b.err" || fail "$(cat "$TMP/b.err")" || return 1
	"$SQWAVE" analyze "$TMP/b.sqwlog" --quiet 2> "$TMP/b.err"
	[ $? -eq 2 ] || fail "analyze: exit not 2" || return 1
	grep -q "not whole (seq, event_ns) pairs" "$TMP/b.err" || return 1
}

test_a_log_without_loopback_exports_and_summarizes_as_before() {
	"$SQWAVE" run --board "$BOARD" --duration 100ms --quiet --log "$TMP/n.sqwlog" \
		--json "$TMP/n.json" > /dev/null 2>&1 || return 1
	"$SQWAVE" export "$TMP/n.sqwlog" --csv "$TMP/n.csv" || return 1
	[ "$(head -n 1 "$TMP/n.csv")" = "seq,level,intended_ns,wake_ns,write_begin_ns,write_end_ns,expirations,flags" ] ||
		fail "header: $(head -n 1 "$TMP/n.csv")" || return 1
	! grep -q '" loopback' < <("$SQWAVE" export "$TMP/n.sqwlog" --vcd -) || return 1
	python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["loopback"] is None' \
		"$TMP/n.json" || return 1
}

e2e_run "loopback e2e"
