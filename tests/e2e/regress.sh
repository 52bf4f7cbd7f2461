#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of the regression verdict (report --baseline, report
# --trend --steps): generated logs whose distributions are known by
# construction (bench/gen-log.py: other seeds of one distribution, a shifted
# latency, stalls) and real runs of the simulated board. Run noise is never
# judged: "no regression" is asserted on generated logs and on a real run
# against itself, and the real runs' injected regression (a write slower
# than the period) is one no load can hide.
# SQWAVE=path/to/sqwave tests/e2e/regress.sh from the repository root.
. "$(dirname "$0")/lib.sh" sqwave-e2e-regress

rc=0	# the last verdict's exit code, for the messages

GEN=$ROOT/bench/gen-log.py

# gen NAME ARGS...: a generated log of 40,000 edges (20 s at 500 us), once.
gen() {
	local name=$1
	shift
	[ -f "$TMP/$name.sqwlog" ] && return 0
	python3 "$GEN" "$TMP/$name.sqwlog" --edges 40000 "$@" > /dev/null ||
		fail "gen-log $name $*"
}

# calls FILE.json: "phase/figure verdict" per row, sorted.
calls() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["rows"]:
    print("%s/%s %s" % (r["phase"], r["figure"], r["verdict"]))' "$1" | sort
}

# regressions FILE.json: the rows called a regression, one "phase/figure" a line.
regressions() { calls "$1" | sed -n 's/^\([^ ]*\) regression$/\1/p'; }

schema_ok() {
	python3 "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$@" > "$TMP/sc.out" 2>&1 ||
		fail "schema: $(cat "$TMP/sc.out")"
}

# four generated runs a side (the least a rank interval at 95 % bounds)
old4() { echo --baseline "$TMP/s1.sqwlog" --baseline "$TMP/s2.sqwlog" --baseline "$TMP/s3.sqwlog" \
	--baseline "$TMP/s4.sqwlog"; }

test_other_seeds_of_one_distribution_are_no_regression() {
	local s
	for s in 1 2 3 4 5 6 7 8; do gen "s$s" --seed "$s" || return 1; done
	# shellcheck disable=SC2046  # the words of old4
	sq report $(old4) "$TMP/s5.sqwlog" "$TMP/s6.sqwlog" "$TMP/s7.sqwlog" "$TMP/s8.sqwlog" \
		--json "$TMP/same3.json"
	rc=$?
	[ $rc -eq 0 ] || fail "four a side: exit $rc: $(cat "$TMP/out" "$TMP/err")" || return 1
	grep -q "verdict: no regression" "$TMP/out" || fail "$(cat "$TMP/out")" || return 1
	[ -z "$(regressions "$TMP/same3.json")" ] || fail "$(regressions "$TMP/same3.json")" || return 1
	python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert all(r["method"] == "ranks" and r["lo"] is not None for r in rows), rows' "$TMP/same3.json" ||
		fail "not every row has its rank interval" || return 1
	sq report --baseline "$TMP/s1.sqwlog" "$TMP/s2.sqwlog" --json "$TMP/same1.json" ||
		fail "one each: $(cat "$TMP/out" "$TMP/err")" || return 1
	grep -q "one run each: no variation known" "$TMP/out" || fail "$(cat "$TMP/out")" || return 1
	schema_ok "$TMP/same3.json" "$TMP/same1.json"
}

test_a_shifted_latency_is_a_regression_of_its_p99_alone() {
	gen s1 --seed 1 && gen shift5 --seed 7 --wake-extra-ns 5000 || return 1
	sq report --baseline "$TMP/s1.sqwlog" "$TMP/shift5.sqwlog" --json "$TMP/sh.json"
	rc=$?
	[ $rc -eq 1 ] || fail "exit $rc, expected 1: $(cat "$TMP/out" "$TMP/err")" || return 1
	# 5 us on a p99 of 13 us is beyond the step (1.3 us); the widths did not move
	[ "$(regressions "$TMP/sh.json")" = "run/wake_p99" ] ||
		fail "called: $(regressions "$TMP/sh.json")" || return 1
	python3 - "$TMP/sh.json" <<'PY' || fail "the row does not show its interval" || return 1
import json, sys
r = [r for r in json.load(open(sys.argv[1]))["rows"] if r["figure"] == "wake_p99"][0]
assert r["method"] == "order statistics" and r["basis"] == "logs", r
assert r["step"] < r["lo"] <= 5000 <= r["hi"], r
PY
}

test_a_summary_judges_only_what_its_percentiles_show() {
	gen s1 --seed 1 && gen shift50 --seed 8 --wake-extra-ns 50000 && gen shift5 --seed 7 \
		--wake-extra-ns 5000 || return 1
	local f
	for f in s1 shift50 shift5; do
		sq analyze "$TMP/$f.sqwlog" --json "$TMP/$f.json" || fail "analyze $f" || return 1
	done
	# 50 us: a summary's p99 lies between its p50 and p99.9, and still proves it
	sq report --baseline "$TMP/s1.json" "$TMP/shift50.json" --json "$TMP/v50.json"
	rc=$?
	[ $rc -eq 1 ] || fail "50 us: $(cat "$TMP/out" "$TMP/err")" || return 1
	regressions "$TMP/v50.json" | grep -qx "run/wake_p99" || fail "$(calls "$TMP/v50.json")" ||
		return 1
	grep -q '"basis": *"summaries"' "$TMP/v50.json" || fail "basis not said" || return 1
	# 5 us is inside what p50..p99.9 leaves open: not called from summaries
	sq report --baseline "$TMP/s1.json" "$TMP/shift5.json" --json "$TMP/v5.json" ||
		fail "5 us from summaries called: $(cat "$TMP/out")"
}

test_stalls_in_every_new_run_are_a_regression_of_tmax_and_missed_periods() {
	local s
	for s in 1 2 3 4; do gen "s$s" --seed "$s" || return 1; done
	for s in 21 22 23 24; do gen "st$s" --seed "$s" --stalls 1 --stall-ms 100 || return 1; done
	# shellcheck disable=SC2046
	sq report $(old4) "$TMP/st21.sqwlog" "$TMP/st22.sqwlog" "$TMP/st23.sqwlog" \
		"$TMP/st24.sqwlog" --json "$TMP/st.json"
	rc=$?
	[ $rc -eq 1 ] || fail "exit $rc: $(cat "$TMP/out" "$TMP/err")" || return 1
	regressions "$TMP/st.json" > "$TMP/st.calls"
	grep -qx "run/missed_periods" "$TMP/st.calls" || fail "$(cat "$TMP/st.calls")" || return 1
	grep -qE "^run/tmax_(positive|negative)$" "$TMP/st.calls" || fail "$(cat "$TMP/st.calls")" ||
		return 1
	! grep -qE "tmin|wake_p99" "$TMP/st.calls" || fail "too much: $(cat "$TMP/st.calls")"
}

test_one_stall_one_run_each_is_its_missed_periods_not_its_max() {
	gen s1 --seed 1 && gen st21 --seed 21 --stalls 1 --stall-ms 100 || return 1
	sq report --baseline "$TMP/s1.sqwlog" "$TMP/st21.sqwlog" --json "$TMP/one.json"
	rc=$?
	[ $rc -eq 1 ] || fail "exit $rc: $(cat "$TMP/out" "$TMP/err")" || return 1
	[ "$(regressions "$TMP/one.json")" = "run/missed_periods" ] ||
		fail "called: $(regressions "$TMP/one.json")" || return 1
	# a max of one run has no interval: not judged, its one pulse beyond said
	python3 - "$TMP/one.json" <<'PY' || fail "$(cat "$TMP/out")"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
t = [r for r in rows if r["figure"].startswith("tmax") and r["diff"] > 50e6]
assert len(t) == 1 and t[0]["method"] == "exceedances", t
assert t[0]["verdict"] == "not judged" and t[0]["p"] is not None and t[0]["lo"] is None, t
PY
}

test_the_verdict_as_junit_and_lava_results() {
	gen s1 --seed 1 && gen shift5 --seed 7 --wake-extra-ns 5000 || return 1
	sq report --baseline "$TMP/s1.sqwlog" "$TMP/shift5.sqwlog" --junit "$TMP/v.xml" \
		--results "$TMP/result.txt" -q
	rc=$?
	[ $rc -eq 1 ] || fail "exit $rc: $(cat "$TMP/err")" || return 1
	[ ! -s "$TMP/out" ] || fail "--quiet printed: $(cat "$TMP/out")" || return 1
	python3 "$ROOT/tests/e2e/xunit_rules.py" "$TMP/v.xml" > "$TMP/x.out" 2>&1 ||
		fail "$(cat "$TMP/x.out")" || return 1
	python3 - "$TMP/v.xml" "$TMP/result.txt" <<'PY' || return 1
import re, sys
import xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
failed = [(c.get("classname"), c.get("name")) for c in cases if c.find("failure") is not None]
assert failed == [("sqwave.regress.run", "wake_p99")], failed
lines = open(sys.argv[2]).read().splitlines()
assert len(lines) == 8, lines
for l in lines:
    assert re.fullmatch(r"regress\.run\.[a-z0-9_]+ (pass|fail|skip)( -?[0-9]+\.[0-9]+ (us|ppm))?", l), l
assert [l.split()[1] for l in lines if l.startswith("regress.run.wake_p99 ")] == ["fail"], lines
PY
}

test_a_series_names_the_run_after_its_step() {
	local s
	for s in 1 2 3 4; do gen "s$s" --seed "$s" || return 1; done
	for s in 21 22 23 24; do gen "st$s" --seed "$s" --stalls 1 --stall-ms 100 || return 1; done
	sq report --trend --steps "$TMP/s1.sqwlog" "$TMP/s2.sqwlog" "$TMP/s3.sqwlog" "$TMP/s4.sqwlog" \
		"$TMP/st21.sqwlog" "$TMP/st22.sqwlog" "$TMP/st23.sqwlog" "$TMP/st24.sqwlog" \
		--json "$TMP/tr.json"
	rc=$?
	[ $rc -eq 1 ] || fail "exit $rc: $(cat "$TMP/out" "$TMP/err")" || return 1
	grep -qE "missed_periods .*REGRESSION at st21$" "$TMP/out" || fail "$(cat "$TMP/out")" || return 1
	schema_ok "$TMP/tr.json" || return 1
	python3 - "$TMP/tr.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["mode"] == "trend" and len(d["series"]) == 8 and d["old"] == [], d["mode"]
r = [r for r in d["rows"] if r["figure"] == "missed_periods" and r["phase"] == "run"][0]
assert r["at"]["index"] == 4 and r["at"]["label"] == "st21", r
PY
}

test_bad_input_is_exit_2_naming_the_file_and_line() {
	gen s1 --seed 1 || return 1
	printf '{"schema": "sqwave-summary", "schema_version": 1,\n"counts": {"edges": "x"}}\n' \
		> "$TMP/bad.json"
	expect 2 "bad.json:2:" "counts.edges" -- report --baseline "$TMP/s1.sqwlog" "$TMP/bad.json" ||
		return 1
	printf 'seq,t\n' > "$TMP/edges.csv"
	expect 2 "edges.csv" -- report --baseline "$TMP/s1.sqwlog" "$TMP/edges.csv" || return 1
	expect 2 "needs the NEW runs" -- report --baseline "$TMP/s1.sqwlog" || return 1
	expect 2 "not --markdown or --svg" -- report --baseline "$TMP/s1.sqwlog" "$TMP/s1.sqwlog" \
		--svg "$TMP/x.svg" || return 1
	expect 2 "--steps goes with --trend" -- report --steps "$TMP/s1.sqwlog" || return 1
	expect 2 "needs 8 runs" -- report --trend --steps "$TMP/s1.sqwlog" "$TMP/s1.sqwlog" || return 1
	expect 2 "--min-step-pct" -- report --baseline "$TMP/s1.sqwlog" "$TMP/s1.sqwlog" \
		--min-step-pct x || return 1
	expect 3 "missing.json" -- report --baseline "$TMP/s1.sqwlog" "$TMP/missing.json"
}

# Real runs of the simulated board: two phases of 1 s at 500 us, no loads
# (their idleness is not what is judged here).
sim_run() {
	local name=$1
	shift
	[ -f "$TMP/$name.sqwlog" ] && return 0
	printf 'run:\n  warmup: 0\n  half_period: 500us\nphases:\n  - name: first\n    duration: 1s\n  - name: second\n    duration: 1s\n' \
		> "$TMP/phases.yaml"
	timeout -k 5 120 "$SQWAVE" run --board "$BOARD" --profile "$TMP/phases.yaml" \
		--set proof.idle_max_busy=100 "$@" --log "$TMP/$name.sqwlog" --json "$TMP/$name.json" \
		> /dev/null 2> "$TMP/$name.err"
	rc=$?
	[ $rc -le 1 ] || fail "run $name: $(cat "$TMP/$name.err")"
}

test_a_real_run_against_its_own_summary_and_a_copy_is_no_regression() {
	sim_run real1 || return 1
	cp "$TMP/real1.sqwlog" "$TMP/copy.sqwlog"
	# the same edges as a log, its copy and its summary: nothing to call,
	# whatever the machine did during the run
	sq report --baseline "$TMP/real1.sqwlog" "$TMP/copy.sqwlog" --json "$TMP/rc.json" ||
		fail "a copy: $(cat "$TMP/out")" || return 1
	sq report --baseline "$TMP/real1.sqwlog" "$TMP/real1.json" --json "$TMP/rs.json" ||
		fail "its summary: $(cat "$TMP/out")" || return 1
	grep -q '"basis": *"logs and summaries"' "$TMP/rs.json" || fail "basis" || return 1
	# every phase has its rows, from the log's events as from the summary
	[ "$(calls "$TMP/rs.json" | cut -d/ -f1 | sort -u | tr '\n' ' ')" = "first run second " ] ||
		fail "phases: $(calls "$TMP/rs.json")" || return 1
	schema_ok "$TMP/rc.json" "$TMP/rs.json"
}

test_a_real_write_slower_than_the_period_is_a_regression_of_missed_periods() {
	sim_run real1 && sim_run slow --set sim.write_cost=700us || return 1
	# every write outlasts its half period: a slot in two or more missed,
	# which no load on the machine can make of the first run
	sq report --baseline "$TMP/real1.sqwlog" "$TMP/slow.sqwlog" --json "$TMP/slow.v.json"
	rc=$?
	[ $rc -eq 1 ] || fail "exit $rc: $(cat "$TMP/out" "$TMP/err")" || return 1
	[ "$(regressions "$TMP/slow.v.json" | grep missed_periods | tr '\n' ' ')" = \
		"first/missed_periods run/missed_periods second/missed_periods " ] ||
		fail "$(calls "$TMP/slow.v.json")" || return 1
	# two real runs of one config: judged (exit 0 or 1, every row a reason or
	# an interval), never asserted equal: the machine's load is in them
	sim_run real2 || return 1
	sq report --baseline "$TMP/real1.sqwlog" "$TMP/real2.sqwlog" --json "$TMP/rr.json"
	rc=$?
	[ $rc -le 1 ] || fail "two real runs: exit $rc: $(cat "$TMP/err")" || return 1
	schema_ok "$TMP/rr.json"
}

test_a_side_of_two_lines_is_refused_each_line_is_judged_alone() {
	timeout -k 5 120 "$SQWAVE" run --board "$BOARD" --set run.duration=1s --line 0,3 \
		--log "$TMP/ml.sqwlog" --json "$TMP/ml.json" > /dev/null 2> "$TMP/ml.err"
	rc=$?
	[ $rc -le 1 ] || fail "two lines: exit $rc: $(cat "$TMP/ml.err")" || return 1
	expect 2 "OLD runs of two lines, 0" "ml.3.sqwlog" -- report --baseline "$TMP/ml.0.json" \
		--baseline "$TMP/ml.3.sqwlog" "$TMP/ml.0.sqwlog" || return 1
	# one line against itself, its log against its summary: judged, nothing to call
	sq report --baseline "$TMP/ml.3.sqwlog" "$TMP/ml.3.json" --json "$TMP/ml.v.json" ||
		fail "line 3: $(cat "$TMP/out" "$TMP/err")" || return 1
	grep -q '"line": *"3"' "$TMP/ml.v.json" || fail "no line in the runs" || return 1
	schema_ok "$TMP/ml.v.json"
}

e2e_run "regress e2e"
