#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of `sqwave compare RUN_A RUN_B CAPTURE` (docs/compare.md,
# Two boards): two runs of the simulated board on one realtime grid, and one
# capture of both pins made from their logs (synth_boards.py: each edge at a
# random point of its write window, board B's clock a known amount ahead,
# the analyzer's clock drifting). The comparison must find the injected
# clock offset inside the interval it reports, judge --max-skew on the
# measured skews, pass a board's own disagreement on, and refuse what is not
# two boards on one grid.
# Self-contained: SQWAVE=path/to/sqwave tests/e2e/boards.sh (PASS/FAIL lines).
. "$(dirname "$0")/lib.sh" sqwave-boards
SEED=${SEED:-$RANDOM}

# Two 1 s runs on one --start-at, exported with intended_grid_ns.
setup() {
	local at n
	# 4 to 5 s ahead: three runs start and place slot 0 before it, however
	# slowly this machine starts them (a start that came too late is refused)
	at=$(($(date +%s) + 5))
	for n in a b; do
		timeout -k 5 60 "$SQWAVE" run --board "$BOARD" --grid realtime --start-at "$at" \
			--duration 1s --quiet --log "$TMP/$n.sqwlog" > "$TMP/$n.out" 2>&1 &
	done
	# a third board on the same grid, 100 us after it on purpose (run.phase)
	timeout -k 5 60 "$SQWAVE" run --board "$BOARD" --grid realtime --start-at "$at" \
		--phase 100us --duration 1s --quiet --log "$TMP/p.sqwlog" > "$TMP/p.out" 2>&1 &
	wait || return 1
	timeout -k 5 60 "$SQWAVE" run --board "$BOARD" --duration 1s --quiet \
		--log "$TMP/mono.sqwlog" > /dev/null 2>&1 || return 1
	for n in a b p; do
		"$SQWAVE" export "$TMP/$n.sqwlog" --csv "$TMP/$n.csv" || return 1
	done
}

# synth OUT ARGS...: the two-pin capture.
synth() {
	local out=$1
	shift
	python3 "$HERE/synth_boards.py" "$TMP/a.csv" "$TMP/b.csv" "$out" --seed "$SEED" \
		--drift-ppm 23 "$@" 2> /dev/null
}

# boards OUT.json ARGS...: compare the two boards; exit code in $TMP/rc.
boards() {
	local j=$1
	shift
	timeout -k 5 60 "$SQWAVE" compare "$TMP/a.sqwlog" "$TMP/b.sqwlog" "$@" --json "$j" \
		> "$TMP/out" 2> "$TMP/err"
	echo $? > "$TMP/rc"
}

test_a_clock_offset_between_the_boards_lies_in_the_interval_reported() {
	local c
	for c in 0 3000 -7500; do
		synth "$TMP/c$c.vcd" --clock-b-ns "$c" || return 1
		boards "$TMP/c$c.json" "$TMP/c$c.vcd" --skew-csv "$TMP/c$c.csv"
		[ "$(cat "$TMP/rc")" -eq 0 ] || fail "offset $c: exit $(cat "$TMP/rc"): $(cat "$TMP/err")" ||
			return 1
		python3 - "$TMP/c$c.json" "$TMP/c$c.csv" "$c" <<'PY' || fail "offset $c (seed $SEED)" || return 1
import csv, json, sys
d = json.load(open(sys.argv[1]))
c = float(sys.argv[3])
s = d["skew"]
assert d["mode"] == "boards" and d["verdict"] == "agree", d["verdict"]
assert [b["verdict"] for b in d["boards"]] == ["agree", "agree"], d["boards"]
# a slot one board missed (this VM is noisy) is an edge of the other only
assert s["joined"] > 900 and s["only_a"] + s["only_b"] < s["joined"] / 50, s
co = s["clock_offset"]
assert co["common_lo_ns"] <= c <= co["common_hi_ns"], (co, c)
assert co["lower_bound_ns"] <= abs(c) <= co["upper_bound_ns"], (co, c)
# the interval is narrow: many edges, small windows
assert co["common_hi_ns"] - co["common_lo_ns"] < 1000, co
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == s["joined"], (len(rows), s["joined"])
sk = [float(r["skew_ns"]) for r in rows]
assert abs(min(sk) - s["min_ns"]) < 0.01 and abs(max(sk) - s["max_ns"]) < 0.01, (min(sk), s)
for r in rows:
    lo, hi = float(r["clock_lo_ns"]), float(r["clock_hi_ns"])
    assert lo - 0.01 <= c <= hi + 0.01, (r, c)
assert d["skew"]["checks"]["clock_error"]["state"] in ("SKIP", "PASS", "INCONCLUSIVE", "FAIL")
PY
	done
}

# --json -: standard output is the document alone, the one --json FILE
# writes; the text report goes to standard error.
test_json_dash_is_the_files_document_and_the_text_goes_to_stderr() {
	synth "$TMP/dash.vcd" --clock-b-ns 3000 || return 1
	boards "$TMP/dash.json" "$TMP/dash.vcd"
	[ "$(cat "$TMP/rc")" -eq 0 ] || fail "exit $(cat "$TMP/rc"): $(cat "$TMP/err")" || return 1
	cp "$TMP/out" "$TMP/dash.txt"
	boards - "$TMP/dash.vcd"
	[ "$(cat "$TMP/rc")" -eq 0 ] || fail "--json -: exit $(cat "$TMP/rc"): $(cat "$TMP/err")" ||
		return 1
	cmp -s "$TMP/out" "$TMP/dash.json" ||
		fail "stdout is not the --json FILE document: $(head -c 300 "$TMP/out")" || return 1
	cmp -s "$TMP/err" "$TMP/dash.txt" ||
		fail "stderr is not the text report: $(head -c 300 "$TMP/err")" || return 1
}

test_a_board_offset_by_its_phase_is_compared_on_the_instant_it_was_shifted_from() {
	python3 "$HERE/synth_boards.py" "$TMP/a.csv" "$TMP/p.csv" "$TMP/ph.vcd" --seed "$SEED" \
		--drift-ppm 23 --clock-b-ns 2000 2> /dev/null || return 1
	timeout -k 5 60 "$SQWAVE" compare "$TMP/a.sqwlog" "$TMP/p.sqwlog" "$TMP/ph.vcd" \
		--json "$TMP/ph.json" > "$TMP/ph.out" 2>&1
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/ph.out")" || return 1
	grep -q "run.phase - A's = 100.000 us" "$TMP/ph.out" || fail "text: $(cat "$TMP/ph.out")" ||
		return 1
	python3 - "$TMP/ph.json" <<'PY' || fail "seed $SEED"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["skew"]
assert s["phase_diff_ns"] == 100000, s["phase_diff_ns"]
assert s["joined"] > 900, s
# the 100 us meant is not skew: what is left is the clocks' 2 us and the windows
co = s["clock_offset"]
assert co["common_lo_ns"] <= 2000 <= co["common_hi_ns"], co
assert abs(s["p50_ns"]) < 50000, s["p50_ns"]
PY
}

test_max_skew_passes_above_the_largest_skew_and_fails_below_it() {
	synth "$TMP/m.vcd" --clock-b-ns 4000 || return 1
	boards "$TMP/m0.json" "$TMP/m.vcd" || return 1
	local worst
	worst=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["skew"]; print(int(max(abs(s["min_ns"]), abs(s["max_ns"]))))' "$TMP/m0.json") || return 1
	boards "$TMP/m1.json" "$TMP/m.vcd" --max-skew "$((worst + 1000))ns"
	[ "$(cat "$TMP/rc")" -eq 0 ] || fail "limit above: exit $(cat "$TMP/rc")" || return 1
	grep -q '"state": *"PASS"' "$TMP/m1.json" || fail "no PASS: $(cat "$TMP/out")" || return 1
	boards "$TMP/m2.json" "$TMP/m.vcd" --max-skew "$((worst / 2))ns"
	[ "$(cat "$TMP/rc")" -eq 1 ] || fail "limit below: exit $(cat "$TMP/rc")" || return 1
	python3 - "$TMP/m2.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
ck = d["skew"]["checks"]["max_skew"]
assert ck["state"] == "FAIL" and ck["edges_over"] >= 1, ck
assert d["verdict"] == "disagree" and d["exit_code"] == 1, d["verdict"]
PY
	grep -q "max_skew     FAIL" "$TMP/out" || fail "text: $(cat "$TMP/out")"
}

test_a_pin_that_lies_on_board_b_makes_board_b_disagree() {
	synth "$TMP/l.vcd" --shift-b 700:30000 || return 1
	boards "$TMP/l.json" "$TMP/l.vcd"
	[ "$(cat "$TMP/rc")" -eq 1 ] || fail "exit $(cat "$TMP/rc"): $(cat "$TMP/out")" || return 1
	python3 - "$TMP/l.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [b["verdict"] for b in d["boards"]] == ["agree", "disagree"], d["boards"]
assert d["boards"][1]["beyond_tolerance"] >= 1, d["boards"][1]
assert d["verdict"] == "disagree", d["verdict"]
PY
}

test_what_is_not_two_boards_on_one_grid_is_refused() {
	synth "$TMP/r.vcd" || return 1
	local rc
	"$SQWAVE" compare "$TMP/a.sqwlog" "$TMP/mono.sqwlog" "$TMP/r.vcd" > /dev/null 2> "$TMP/e1"
	rc=$?
	[ $rc -eq 2 ] && grep -q "not on a shared grid" "$TMP/e1" || fail "monotonic: $rc $(cat "$TMP/e1")" ||
		return 1
	"$SQWAVE" compare "$TMP/a.sqwlog" "$TMP/b.sqwlog" "$TMP/r.vcd" --channel-a pin_a \
		--channel-b pin_a > /dev/null 2> "$TMP/e2"
	rc=$?
	[ $rc -eq 2 ] && grep -q "same channel" "$TMP/e2" || fail "same channel: $rc $(cat "$TMP/e2")" ||
		return 1
	"$SQWAVE" compare "$TMP/a.sqwlog" "$TMP/r.vcd" --max-skew 1us > /dev/null 2> "$TMP/e3"
	rc=$?
	[ $rc -eq 2 ] && grep -q "RUN_A RUN_B CAPTURE" "$TMP/e3" || fail "one board: $rc $(cat "$TMP/e3")" ||
		return 1
	"$SQWAVE" compare "$TMP/a.sqwlog" "$TMP/b.sqwlog" - < "$TMP/r.vcd" > /dev/null 2> "$TMP/e4"
	rc=$?
	[ $rc -eq 2 ] && grep -q "not standard input" "$TMP/e4" || fail "stdin: $rc $(cat "$TMP/e4")"
}

# Two lines of one run on its own monotonic grid (docs/lines.md): their
# logs meet on the run's instants, line 3 shifted by --line-phase; a capture
# of both pins puts every edge at its write-window midpoint (what a pin that
# follows its write shows), so each skew must lie in the window bounds and
# the phase is taken out. A line of another monotonic run is refused.
test_two_lines_of_one_run_are_compared_on_the_runs_own_clock() {
	local rc
	timeout -k 5 60 "$SQWAVE" run --board "$BOARD" --line 0,3 --line-phase 0,100us \
		--duration 1s --quiet --log "$TMP/l.sqwlog" > "$TMP/l.out" 2>&1 ||
		fail "run: $(cat "$TMP/l.out")" || return 1
	"$SQWAVE" export "$TMP/l.0.sqwlog" --csv "$TMP/l0.csv" &&
		"$SQWAVE" export "$TMP/l.3.sqwlog" --csv "$TMP/l3.csv" || return 1
	python3 - "$TMP/l0.csv" "$TMP/l3.csv" "$TMP/l.vcd" <<'PY' || return 1
import csv, sys
ev = []
for ch, f in enumerate(sys.argv[1:3]):
    for r in csv.DictReader(open(f)):
        ev.append(((int(r["write_begin_ns"]) + int(r["write_end_ns"])) // 2, ch, r["level"]))
ev.sort()
t0 = ev[0][0] - 1000
with open(sys.argv[3], "w") as o:
    o.write("$timescale 1ns $end\n$scope module top $end\n$var wire 1 ! L0 $end\n"
            "$var wire 1 \" L2 $end\n$upscope $end\n$enddefinitions $end\n#0\n0!\n0\"\n")
    for t, ch, lv in ev:
        o.write("#%d\n%s%s\n" % (t - t0, lv, "!\"\""[ch]))
PY
	"$SQWAVE" compare "$TMP/l.0.sqwlog" "$TMP/l.3.sqwlog" "$TMP/l.vcd" --channel-a L0 \
		--channel-b L2 --json "$TMP/l.json" > "$TMP/l.cmp" 2> "$TMP/l.err"
	rc=$?
	[ $rc -eq 0 ] || fail "compare: $rc $(cat "$TMP/l.err" "$TMP/l.cmp")" || return 1
	python3 - "$TMP/l.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
s = d["skew"]
assert [b["grid"]["clock"] for b in d["boards"]] == ["monotonic", "monotonic"], d["boards"]
assert s["phase_diff_ns"] == 100000, s["phase_diff_ns"]
assert s["joined"] > 1900, s["joined"]
assert s["beyond_windows"] == 0, s
ce = s["checks"]["clock_error"]
assert ce["state"] == "SKIP" and "one run" in ce["why"], ce
PY
	"$SQWAVE" compare "$TMP/l.0.sqwlog" "$TMP/mono.sqwlog" "$TMP/l.vcd" --channel-a L0 \
		--channel-b L2 > /dev/null 2> "$TMP/l.e2"
	rc=$?
	[ $rc -eq 2 ] && grep -q "not on a shared grid" "$TMP/l.e2" ||
		fail "a plain monotonic run: $rc $(cat "$TMP/l.e2")" || return 1
	# the same lines, another run: its grid instants are not this one's
	timeout -k 5 60 "$SQWAVE" run --board "$BOARD" --line 0,3 --duration 100ms --quiet \
		--log "$TMP/m.sqwlog" > "$TMP/m.out" 2>&1 || fail "run: $(cat "$TMP/m.out")" || return 1
	"$SQWAVE" compare "$TMP/l.0.sqwlog" "$TMP/m.3.sqwlog" "$TMP/l.vcd" --channel-a L0 \
		--channel-b L2 > /dev/null 2> "$TMP/l.e3"
	rc=$?
	[ $rc -eq 2 ] && grep -q "not two lines of one run" "$TMP/l.e3" ||
		fail "another run's line: $rc $(cat "$TMP/l.e3")"
}

# claim_sync LOG OUT MAXERR_US: LOG as if its clock had been synchronised at
# setup with that maximum error (7 digits: the header keeps its length; its
# CRC is made again). This host's clock is not disciplined, and a test does
# not discipline it.
claim_sync() {
	python3 - "$@" <<'PY'
import struct, sys, zlib
d = bytearray(open(sys.argv[1], "rb").read())
tlen, = struct.unpack_from("<I", d, 20)
t = d[56:56 + tlen].decode()
lines = [l for l in t.split("\n")]
for i, l in enumerate(lines):
    if l == "clock.synced=no":
        lines[i] = "clock.synced=yes"
    elif l.startswith("clock.maxerror_us="):
        assert len(l) == len("clock.maxerror_us=16000000"), l
        lines[i] = "clock.maxerror_us=%07d" % int(sys.argv[3])
n = "\n".join(lines).encode()
assert len(n) == tlen, (len(n), tlen)
d[56:56 + tlen] = n
h = bytearray(d[:56])
h[28:32] = bytes(4)
struct.pack_into("<I", d, 28, zlib.crc32(bytes(h) + n))
open(sys.argv[2], "wb").write(d)
PY
}

test_the_clocks_claimed_error_is_judged_against_what_the_capture_shows() {
	grep -q "clock.synced=no" "$TMP/a.sqwlog" || { echo "    (this host's clock is synchronised)"; return 77; }
	claim_sync "$TMP/a.sqwlog" "$TMP/sa.sqwlog" 1 || return 1
	claim_sync "$TMP/b.sqwlog" "$TMP/sb.sqwlog" 1 || return 1
	synth "$TMP/s.vcd" --clock-b-ns 20000 || return 1
	"$SQWAVE" compare "$TMP/sa.sqwlog" "$TMP/sb.sqwlog" "$TMP/s.vcd" --json "$TMP/s1.json" \
		> "$TMP/s1.out" 2>&1
	[ $? -eq 1 ] || fail "20 us apart, 2 us claimed: $(cat "$TMP/s1.out")" || return 1
	claim_sync "$TMP/a.sqwlog" "$TMP/sa.sqwlog" 100 || return 1
	claim_sync "$TMP/b.sqwlog" "$TMP/sb.sqwlog" 100 || return 1
	"$SQWAVE" compare "$TMP/sa.sqwlog" "$TMP/sb.sqwlog" "$TMP/s.vcd" --json "$TMP/s2.json" \
		> "$TMP/s2.out" 2>&1
	[ $? -eq 0 ] || fail "20 us apart, 200 us claimed: $(cat "$TMP/s2.out")" || return 1
	python3 - "$TMP/s1.json" "$TMP/s2.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
ca, cb = a["skew"]["checks"]["clock_error"], b["skew"]["checks"]["clock_error"]
assert ca["state"] == "FAIL" and a["verdict"] == "disagree", ca
assert a["skew"]["clock_offset"]["claimed_bound_ns"] == 2000, a["skew"]["clock_offset"]
assert a["skew"]["clock_offset"]["lower_bound_ns"] > 2000, a["skew"]["clock_offset"]
assert cb["state"] == "PASS" and b["verdict"] == "agree", cb
assert b["skew"]["clock_offset"]["upper_bound_ns"] <= 200000, b["skew"]["clock_offset"]
PY
}

test_report_puts_both_boards_and_the_skew_between_them_in_one_table() {
	synth "$TMP/t.vcd" --clock-b-ns 2500 || return 1
	boards "$TMP/t1.json" "$TMP/t.vcd" --max-skew 1ms
	[ "$(cat "$TMP/rc")" -eq 0 ] || fail "compare: exit $(cat "$TMP/rc")" || return 1
	boards "$TMP/t2.json" "$TMP/t.vcd" --max-skew 1ns
	[ "$(cat "$TMP/rc")" -eq 1 ] || fail "compare below: exit $(cat "$TMP/rc")" || return 1
	local rc
	"$SQWAVE" report "$TMP/a.sqwlog" "$TMP/b.sqwlog" "$TMP/t1.json" --json "$TMP/rep1.json" \
		--markdown "$TMP/rep1.md" > "$TMP/rep1.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] || fail "report: exit $rc: $(cat "$TMP/rep1.out")" || return 1
	"$SQWAVE" report "$TMP/t1.json" "$TMP/t2.json" --json "$TMP/rep2.json" > "$TMP/rep2.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "a failed comparison: exit $rc: $(cat "$TMP/rep2.out")" || return 1
	python3 - "$TMP/t1.json" "$TMP/rep1.json" "$TMP/rep1.out" "$TMP/rep1.md" "$TMP/rep2.json" <<'PY' || return 1
import json, sys
c = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[2]))
text, md = open(sys.argv[3]).read(), open(sys.argv[4]).read()
# one row per board's run, then the pair, whose labels are those rows'
assert [w["label"] for w in r["rows"]] == ["a", "b"], r["rows"]
assert len(r["pairs"]) == 1, r["pairs"]
p, s = r["pairs"][0], c["skew"]
assert [b["label"] for b in p["boards"]] == ["a", "b"], p["boards"]
assert p["joined"] == s["joined"] and p["only_a"] == s["only_a"], (p, s)
for k in ("p50_ns", "p99_abs_ns", "min_ns", "max_ns"):
    assert abs(p["skew_" + k] - s[k]) < 0.01, (k, p, s)
co = s["clock_offset"]
assert abs(p["common_lo_ns"] - co["common_lo_ns"]) < 0.01, (p, co)
assert abs(p["clock_upper_bound_ns"] - co["upper_bound_ns"]) < 0.01, (p, co)
assert p["max_skew"] == "PASS" and p["max_skew_limit_ns"] == 1000000, p
assert p["verdict"] == "PASS" and p["exit_code"] == 0, p
# the text and Markdown show it: the pair table under the run table
head = [l for l in text.split("\n") if l.startswith("board A")]
assert len(head) == 1 and "skew p50 us" in head[0], text
row = text.split("\n")[text.split("\n").index(head[0]) + 1]
assert row.startswith("a (") and " PASS (1000.000 us) " in row and row.endswith("PASS"), row
assert "%.3f" % (s["p50_ns"] / 1000) in row, (row, s["p50_ns"])
assert md.count("| board A |") == 1 and md.count("| label |") == 1, md
# a comparison that failed fails its row and the report
r2 = json.load(open(sys.argv[5]))
assert [q["verdict"] for q in r2["pairs"]] == ["PASS", "FAIL"], r2["pairs"]
assert r2["pairs"][1]["max_skew"] == "FAIL" and r2["rows"] == [], r2
PY
	python3 "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$TMP/rep1.json" \
		"$TMP/rep2.json" > "$TMP/rep.schema" 2>&1 || fail "$(cat "$TMP/rep.schema")" || return 1
	# one log's comparison is an instrument's row, not a pair; a damaged pair is
	# refused, with file and line
	"$SQWAVE" compare "$TMP/a.sqwlog" "$TMP/t.vcd" --channel pin_a --json "$TMP/one.json" \
		> /dev/null 2>&1
	"$SQWAVE" report "$TMP/one.json" --json "$TMP/one-rep.json" -q 2> "$TMP/e1"
	rc=$?
	[ $rc -eq "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exit_code"])' \
		"$TMP/one.json")" ] || fail "one log: $rc $(cat "$TMP/e1")" || return 1
	python3 - "$TMP/one-rep.json" <<'PY' || return 1
import json, sys
r = json.load(open(sys.argv[1]))
assert r["pairs"] == [] and [i["capture"]["channel"] for i in r["instruments"]] == ["boards.pin_a"], r
PY
	sed 's/"joined": *[0-9]*/"joined": "many"/' "$TMP/t1.json" > "$TMP/bad.json"
	"$SQWAVE" report "$TMP/bad.json" > /dev/null 2> "$TMP/e2"
	rc=$?
	[ $rc -eq 2 ] && grep -qE "bad.json:[0-9]+: skew.joined must be a number" "$TMP/e2" ||
		fail "damaged: $rc $(cat "$TMP/e2")"
}

test_every_two_board_document_is_valid_against_the_schema() {
	synth "$TMP/v.vcd" --clock-b-ns 1000 || return 1
	boards "$TMP/v.json" "$TMP/v.vcd" --max-skew 1ms || return 1
	python3 "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$TMP/v.json" \
		> "$TMP/v.schema" 2>&1 || fail "$(cat "$TMP/v.schema")"
}

cd "$ROOT" || exit 1
setup || { echo "FAIL setup: $(cat "$TMP"/*.out)"; exit 1; }
echo "boards: seed $SEED"
e2e_run --subshell "boards e2e"
