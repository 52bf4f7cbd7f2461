#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of `sqwave compare`: a simulated run, captures synthesized
# from its log (synth_capture.py: a window, an offset, +37 ppm drift, sample
# quantization, injected faults), and what compare must say about them.
# Usage: SQWAVE=build/sqwave tests/e2e/compare.sh   (prints PASS/FAIL lines)
. "$(dirname "$0")/lib.sh" sqwave-compare
SQWAVE_RUN=${SQWAVE_RUN:-$SQWAVE}   # for run/export (e.g. a plain build when $SQWAVE is ASan's)
SEED=${SQW_TEST_SEED:-$RANDOM}

synth() { python3 "$HERE/synth_capture.py" "$TMP/run.csv" --seed "$SEED" "$@" 2>/dev/null; }
# compare, keeping stdout/stderr; returns compare's exit code
cmp() { "$SQWAVE" compare "$@" > "$TMP/out" 2> "$TMP/err"; }
expect_rc() {
	local want=$1 got=$2
	[ "$got" -eq "$want" ] || fail "exit $got, expected $want: $(head -c 3000 "$TMP/out") $(cat "$TMP/err")"
}
# a field of the --json output: jget FILE python-expression-on-d
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

setup() {
	"$SQWAVE_RUN" run --board "$BOARD" --duration 5s --quiet --log "$TMP/run.sqwlog" \
		--set sim.write_cost=2us > /dev/null 2> "$TMP/run.err" ||
		fail "run failed: $(cat "$TMP/run.err")" || return 1
	"$SQWAVE_RUN" export "$TMP/run.sqwlog" --csv "$TMP/run.csv" 2> /dev/null ||
		fail "export failed" || return 1
}

test_a_vcd_window_with_37ppm_drift_is_found_and_agrees() {
	synth "$TMP/a.vcd" --first 3001 --count 2000 --drift-ppm 37 --res-ns 10 || return 1
	cmp "$TMP/run.sqwlog" "$TMP/a.vcd" --json "$TMP/a.json"
	expect_rc 0 $? || return 1
	[ "$(jget "$TMP/a.json" 'd["alignment"]["first_seq"], d["alignment"]["last_seq"]')" = "3001 5000" ] ||
		fail "window $(jget "$TMP/a.json" 'd["alignment"]')" || return 1
	python3 - "$TMP/a.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "sqwave-compare" and d["schema_version"] == 1
a = d["alignment"]
assert a["status"] == "aligned" and a["candidates"] == 1, a
assert abs(a["drift_ppm"] - 37) < 0.5, a["drift_ppm"]
assert d["edges"]["missing_in_capture"] == [] and d["edges"]["extra_in_capture"] == []
assert d["residual"]["beyond_tolerance"] == 0
assert d["verdict"] == "agree"
PY
	grep -q "verdict    AGREE" "$TMP/out" || fail "no AGREE in text" || return 1
}

# Coverage (docs/compare.md, step 6): a capture of the middle of the run
# saw those edges and no others; the rest count neither as missing nor
# as agreeing, and N of M says how much of the run the verdict is about.
test_a_capture_of_the_middle_of_a_run_says_the_share_of_edges_it_saw() {
	synth "$TMP/m.vcd" --first 3001 --count 2000 --drift-ppm 37 --res-ns 10 || return 1
	cmp "$TMP/run.sqwlog" "$TMP/m.vcd" --json "$TMP/m.json"
	expect_rc 0 $? || return 1
	python3 - "$TMP/m.json" <<'PY' || fail "$(jget "$TMP/m.json" 'd["coverage"], d["edges"]')" || return 1
import json, sys
d = json.load(open(sys.argv[1]))
c, e = d["coverage"], d["edges"]
assert c["run_edges"] == d["run"]["records"], c
assert c["covered_edges"] == 2000 and c["gaps"] == 0, c
assert abs(c["fraction"] - 2000 / c["run_edges"]) < 1e-12, c
assert c["covered_s"] == c["span_s"] > 0, c
assert e["missing_in_capture"] == [] and e["paired"] == 2000, e
PY
	grep -q "coverage   the instrument saw 2000 of $(jget "$TMP/m.json" 'd["run"]["records"]') edges" \
		"$TMP/out" || fail "text: $(grep -A1 coverage "$TMP/out")"
}

# --min-coverage: the share covered judged, from the figure compare gives
# (the limit just above it fails, just below passes); the edges agree
# either way, so only the coverage decides the exit code.
test_a_minimum_coverage_above_what_the_capture_saw_is_exit_1() {
	local pct
	synth "$TMP/mc.vcd" --first 3001 --count 2000 --res-ns 10 --gap 3500:40 || return 1
	cmp "$TMP/run.sqwlog" "$TMP/mc.vcd" --json "$TMP/mc.json"
	expect_rc 0 $? || return 1
	pct=$(jget "$TMP/mc.json" 'd["coverage"]["fraction"] * 100')
	cmp "$TMP/run.sqwlog" "$TMP/mc.vcd" --min-coverage "$(python3 -c "print($pct + 0.01)")" \
		--json "$TMP/hi.json" --results "$TMP/hi.txt"
	expect_rc 1 $? || return 1
	grep -q "NOT ENOUGH" "$TMP/out" && grep -q "verdict    AGREE" "$TMP/out" ||
		fail "text: $(grep -A2 '^coverage' "$TMP/out")" || return 1
	python3 "$HERE/instrument_cases.py" "$TMP/hi.json" --results "$TMP/hi.txt" --exit 1 ||
		fail "above: the documents" || return 1
	[ "$(jget "$TMP/hi.json" 'd["exit_code"], d["coverage"]["enough"]')" = "1 False" ] ||
		fail "JSON: $(jget "$TMP/hi.json" 'd["coverage"]')" || return 1
	cmp "$TMP/run.sqwlog" "$TMP/mc.vcd" --min-coverage "$(python3 -c "print($pct - 0.01)")" \
		--results "$TMP/lo.txt" --json "$TMP/lo.json"
	expect_rc 0 $? || return 1
	python3 "$HERE/instrument_cases.py" "$TMP/lo.json" --results "$TMP/lo.txt" --exit 0 ||
		fail "below: the documents" || return 1
	# a scope's readings alone have no capture to cover anything
	cmp "$TMP/run.sqwlog" --scope-tmax 600us --min-coverage 50
	expect_rc 2 $? || return 1
}

test_run_edges_inside_a_capture_gap_are_neither_missing_nor_covered() {
	synth "$TMP/g.vcd" --first 3001 --count 2000 --res-ns 10 --gap 3500:40 || return 1
	cmp "$TMP/run.sqwlog" "$TMP/g.vcd" --json "$TMP/g.json" --junit "$TMP/g.xml" \
		--results "$TMP/g.txt"
	expect_rc 0 $? || return 1
	# its CI documents: the edges checked and the coverage, as the JSON says
	python3 "$HERE/instrument_cases.py" "$TMP/g.json" --junit "$TMP/g.xml" \
		--results "$TMP/g.txt" --exit 0 || fail "compare's CI documents" || return 1
	python3 - "$TMP/g.json" <<'PY' || fail "$(jget "$TMP/g.json" 'd["coverage"], d["edges"]')" || return 1
import json, sys
d = json.load(open(sys.argv[1]))
c, e = d["coverage"], d["edges"]
assert e["missing_in_capture"] == [] and e["in_capture_gaps"] == 40, e
assert e["paired"] == 1960, e
assert c["gaps"] == 1 and c["covered_edges"] == 1960, c
assert 0 < c["covered_s"] < c["span_s"], c
PY
}

test_a_saleae_csv_with_a_negative_trigger_time_base_agrees() {
	synth "$TMP/b.csv" --format saleae --first 6000 --count 1500 --drift-ppm -20 \
		--trigger-s -0.25 || return 1
	cmp "$TMP/run.sqwlog" "$TMP/b.csv" --json "$TMP/b.json"
	expect_rc 0 $? || return 1
	[ "$(jget "$TMP/b.json" 'd["alignment"]["first_seq"]')" = 6000 ] ||
		fail "first_seq $(jget "$TMP/b.json" 'd["alignment"]["first_seq"]')" || return 1
}

test_a_pulse_the_capture_missed_and_a_glitch_it_saw_are_both_reported() {
	synth "$TMP/c.vcd" --first 1000 --count 3000 --drift-ppm 37 \
		--delete-pair 2000 --glitch-after 3001 || return 1
	cmp "$TMP/run.sqwlog" "$TMP/c.vcd" --json "$TMP/c.json" --results "$TMP/c.txt"
	expect_rc 1 $? || return 1
	python3 "$HERE/instrument_cases.py" "$TMP/c.json" --results "$TMP/c.txt" --exit 1 ||
		fail "compare's result.txt" || return 1
	grep -q "^capture.edges fail 4 count$" "$TMP/c.txt" || fail "$(cat "$TMP/c.txt")" || return 1
	[ "$(jget "$TMP/c.json" '[e["seq"] for e in d["edges"]["missing_in_capture"]]')" = "[2000, 2001]" ] ||
		fail "missing: $(jget "$TMP/c.json" 'd["edges"]["missing_in_capture"]')" || return 1
	[ "$(jget "$TMP/c.json" 'len(d["edges"]["extra_in_capture"])')" = 2 ] ||
		fail "extra: $(jget "$TMP/c.json" 'd["edges"]["extra_in_capture"]')" || return 1
	grep -q "in the log, not in the capture (2): seq 2000" "$TMP/out" ||
		fail "text does not name seq 2000" || return 1
	grep -q "DISAGREE" "$TMP/out" || fail "no DISAGREE" || return 1
}

test_an_edge_the_log_misplaced_by_30us_disagrees_and_is_listed_first() {
	synth "$TMP/d.vcd" --first 500 --count 4000 --drift-ppm 37 --shift 2500:30000 || return 1
	cmp "$TMP/run.sqwlog" "$TMP/d.vcd" --json "$TMP/d.json"
	expect_rc 1 $? || return 1
	[ "$(jget "$TMP/d.json" 'd["residual"]["worst"][0]["seq"]')" = 2500 ] ||
		fail "worst: $(jget "$TMP/d.json" 'd["residual"]["worst"][:2]')" || return 1
	[ "$(jget "$TMP/d.json" 'd["residual"]["beyond_tolerance"]')" = 1 ] || fail "count" || return 1
}

test_a_capture_of_another_run_has_no_overlap() {
	# Another run at another half period: its pulse widths match nothing in
	# run.sqwlog. (Two runs at the same half period on a quiet machine can
	# line up by chance; compare then says DISAGREE, also exit 1.)
	"$SQWAVE_RUN" run --board "$BOARD" --duration 1s --half-period 400us --quiet \
		--log "$TMP/other.sqwlog" > /dev/null 2>&1
	"$SQWAVE_RUN" export "$TMP/other.sqwlog" --csv "$TMP/other.csv" 2> /dev/null || return 1
	python3 "$HERE/synth_capture.py" "$TMP/other.csv" "$TMP/e.vcd" --seed 1 2>/dev/null || return 1
	cmp "$TMP/run.sqwlog" "$TMP/e.vcd"
	expect_rc 1 $? || return 1
	grep -q "NO OVERLAP" "$TMP/out" || fail "no NO OVERLAP message: $(cat "$TMP/out")" || return 1
}

test_a_perfect_wave_is_ambiguous_and_first_seq_resolves_it() {
	python3 - "$TMP/perfect.csv" <<'PY' || return 1
import sys
with open(sys.argv[1], "w") as f:
    f.write("seq,level,intended_ns,wake_ns,write_begin_ns,write_end_ns,expirations,flags\n")
    for k in range(3000):
        t = 10**12 + k * 500000
        f.write(f"{k},{(k + 1) % 2},{t},{t + 2000},{t + 2100},{t + 2200},1,0\n")
PY
	python3 "$HERE/synth_capture.py" "$TMP/perfect.csv" "$TMP/p.vcd" --first 1000 --count 400 \
		--seed 1 2>/dev/null || return 1
	# compare needs a log: write one from the CSV with the test helper
	python3 "$HERE/csv2log.py" "$TMP/perfect.csv" "$TMP/perfect.sqwlog" || return 1
	cmp "$TMP/perfect.sqwlog" "$TMP/p.vcd" --json "$TMP/p.json"
	expect_rc 2 $? || return 1
	grep -q "AMBIGUOUS" "$TMP/out" || fail "not called ambiguous" || return 1
	[ "$(jget "$TMP/p.json" 'd["alignment"]["candidates"] > 100')" = True ] || fail "candidates" || return 1
	cmp "$TMP/perfect.sqwlog" "$TMP/p.vcd" --first-seq 1000
	expect_rc 0 $? || return 1
}

test_scope_readings_within_the_logs_bounds_agree_and_others_do_not() {
	local tmin tmax
	tmin=$(python3 -c "
import csv; r=list(csv.DictReader(open('$TMP/run.csv')))
m=[(int(b['write_begin_ns'])+int(b['write_end_ns'])-int(a['write_begin_ns'])-int(a['write_end_ns']))//2 for a,b in zip(r,r[1:])]
print(min(m))")
	tmax=$(python3 -c "
import csv; r=list(csv.DictReader(open('$TMP/run.csv')))
m=[(int(b['write_begin_ns'])+int(b['write_end_ns'])-int(a['write_begin_ns'])-int(a['write_end_ns']))//2 for a,b in zip(r,r[1:])]
print(max(m))")
	cmp "$TMP/run.sqwlog" --scope-tmin "${tmin}ns" --scope-tmax "${tmax}ns" --json "$TMP/s.json"
	expect_rc 0 $? || return 1
	cmp "$TMP/run.sqwlog" --scope-tmin 444us --scope-tmax 556us
	expect_rc 1 $? || return 1
	grep -q "DISAGREE" "$TMP/out" || fail "no DISAGREE" || return 1
}

test_scope_durations_use_the_grammar_of_run_bare_numbers_are_us() {
	# run --tmin 414 is 414 us; so is compare --scope-tmin 414
	cmp "$TMP/run.sqwlog" --scope-tmin 414 --scope-tmax 586 --json "$TMP/bare.json"
	local rc=$?
	[ "$rc" -le 1 ] || fail "exit $rc: $(cat "$TMP/err")" || return 1
	[ "$(jget "$TMP/bare.json" '[r["scope_ns"] for r in d["scope"]["readings"]]')" = "[414000, 586000]" ] ||
		fail "bare numbers not read as us: $(jget "$TMP/bare.json" 'd["scope"]')" || return 1
	cmp "$TMP/run.sqwlog" --scope-tmin 414us --scope-tmax 0.586ms --json "$TMP/unit.json"
	[ "$(jget "$TMP/unit.json" '[r["scope_ns"] for r in d["scope"]["readings"]]')" = "[414000, 586000]" ] ||
		fail "units: $(jget "$TMP/unit.json" 'd["scope"]')" || return 1
}

test_a_capture_from_standard_input_is_compared_like_a_file() {
	[ -f "$TMP/a.vcd" ] || synth "$TMP/a.vcd" --first 3001 --count 2000 --drift-ppm 37 --res-ns 10 || return 1
	"$SQWAVE" compare "$TMP/run.sqwlog" - --json "$TMP/in.json" < "$TMP/a.vcd" > "$TMP/out" 2> "$TMP/err"
	expect_rc 0 $? || return 1
	[ "$(jget "$TMP/in.json" 'd["capture"]["path"], d["alignment"]["first_seq"]')" = "<stdin> 3001" ] ||
		fail "$(jget "$TMP/in.json" 'd["capture"]')" || return 1
	cat "$TMP/a.vcd" | "$SQWAVE" compare "$TMP/run.sqwlog" /dev/stdin > "$TMP/out" 2> "$TMP/err"
	expect_rc 0 $? || return 1
	# the log may come from a pipe instead (read three times: held in memory)
	"$SQWAVE" compare - "$TMP/a.vcd" < "$TMP/run.sqwlog" > "$TMP/out" 2> "$TMP/err"
	expect_rc 0 $? || return 1
	"$SQWAVE" compare - - < "$TMP/a.vcd" > "$TMP/out" 2> "$TMP/err"
	expect_rc 2 $? || return 1
	grep -q "only one of RUN and CAPTURE" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
}

test_bad_input_is_exit_2_and_a_missing_file_exit_3() {
	cmp "$TMP/run.sqwlog" --scope-tmin "444 parsecs"
	expect_rc 2 $? || return 1
	grep -q "bare numbers are us" "$TMP/err" || fail "message does not say the grammar: $(cat "$TMP/err")" || return 1
	echo "not a capture" > "$TMP/junk.txt"
	cmp "$TMP/run.sqwlog" "$TMP/junk.txt"
	expect_rc 2 $? || return 1
	cmp "$TMP/run.sqwlog" "$TMP/does-not-exist.vcd"
	expect_rc 3 $? || return 1
	cmp "$TMP/run.csv" "$TMP/a.vcd"
	expect_rc 2 $? || return 1
}

echo "compare e2e: synthesized captures from seed $SEED (SQW_TEST_SEED=$SEED to repeat)"
if ! setup; then
	echo "FAIL setup"
	exit 1
fi
e2e_run "compare e2e"
