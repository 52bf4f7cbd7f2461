#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of what CI servers and board farms read: `--json -`
# alone on standard output (run, analyze, compare), --junit parsed by a real
# XML parser with the right counts, --results lines taken by Linaro's own
# send-to-lava.sh patterns, and status lines without terminal controls
# when standard error is not a terminal (journald, CI logs).
# Usage: SQWAVE=build/sqwave tests/e2e/ciout.sh   (prints PASS/FAIL lines)
. "$(dirname "$0")/lib.sh" sqwave-ciout

# Linaro test-definitions' automated/utils/send-to-lava.sh: a result line is
# taken when one of these egrep patterns matches; awk then splits NAME
# RESULT MEASUREMENT UNITS, and lava-test-case wants a number.
lava_lines_ok() {
	local line n=0 name result meas units seen=""
	while read -r line; do
		n=$((n + 1))
		if ! echo "$line" | grep -iqE ".* +(pass|fail|skip)$" &&
		   ! echo "$line" | grep -iqE ".*+ (pass|fail|skip)+ .*+"; then
			fail "send-to-lava.sh would drop: $line"; return 1
		fi
		name=$(echo "$line" | awk '{print $1}')
		result=$(echo "$line" | awk '{print $2}')
		meas=$(echo "$line" | awk '{print $3}')
		units=$(echo "$line" | awk '{print $4}')
		case $result in pass|fail|skip) ;; *) fail "result '$result': $line"; return 1 ;; esac
		if [ -n "$meas" ]; then
			echo "$meas" | grep -qE '^-?[0-9]+(\.[0-9]+)?$' || { fail "not a number: $line"; return 1; }
			[ -n "$units" ] || { fail "a measurement without units: $line"; return 1; }
		fi
		case " $seen " in *" $name "*) fail "name twice: $name"; return 1 ;; esac
		seen="$seen $name"
	done < "$1"
	[ "$n" -gt 0 ] || fail "no result lines in $1"
}

test_json_dash_is_the_only_thing_on_stdout_and_the_text_goes_to_stderr() {
	"$SQWAVE" run --board "$BOARD" --duration 1s --quiet --log "$TMP/j.sqwlog" --json - \
		--junit "$TMP/j.xml" --results "$TMP/j.txt" > "$TMP/j.out" 2> "$TMP/j.err"
	local rc=$?
	[ $rc -le 1 ] || fail "exit $rc: $(cat "$TMP/j.err")" || return 1
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema"] == "sqwave-summary"' \
		"$TMP/j.out" || fail "stdout is not one JSON document: $(head -c 300 "$TMP/j.out")" || return 1
	grep -q "^verdict" "$TMP/j.err" || fail "no text summary on stderr" || return 1
	# the same run as a file gives the same verdict
	[ -s "$TMP/j.xml" ] && [ -s "$TMP/j.txt" ] || fail "--junit/--results not written" || return 1
}

test_analyze_and_compare_json_dash_are_pure_json() {
	[ -f "$TMP/j.sqwlog" ] || "$SQWAVE" run --board "$BOARD" --duration 1s --quiet \
		--log "$TMP/j.sqwlog" > /dev/null 2>&1
	"$SQWAVE" analyze "$TMP/j.sqwlog" --json - > "$TMP/a.out" 2> "$TMP/a.err" ||
		fail "analyze: $(cat "$TMP/a.err")" || return 1
	python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["schema"] == "sqwave-analysis"' \
		"$TMP/a.out" || fail "analyze stdout: $(head -c 300 "$TMP/a.out")" || return 1
	grep -q "wake" "$TMP/a.err" || fail "analyze text not on stderr" || return 1
	"$SQWAVE" compare "$TMP/j.sqwlog" --scope-tmin 400us --scope-tmax 600us --json - \
		> "$TMP/c.out" 2> "$TMP/c.err"
	[ $? -le 1 ] || fail "compare: $(cat "$TMP/c.err")" || return 1
	python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["schema"] == "sqwave-compare"' \
		"$TMP/c.out" || fail "compare stdout: $(head -c 300 "$TMP/c.out")" || return 1
	grep -q "^verdict" "$TMP/c.err" || fail "compare text not on stderr" || return 1
}

test_two_outputs_on_stdout_are_a_usage_error() {
	"$SQWAVE" run --board "$BOARD" --duration 1s --quiet --log "$TMP/u.sqwlog" --json - \
		--results - > /dev/null 2> "$TMP/u.err"
	[ $? -eq 2 ] || fail "run: expected exit 2" || return 1
	grep -q "only one" "$TMP/u.err" || fail "$(cat "$TMP/u.err")" || return 1
	[ -f "$TMP/j.sqwlog" ] || return 0
	"$SQWAVE" analyze "$TMP/j.sqwlog" --json - --csv - > /dev/null 2>&1
	[ $? -eq 2 ] || fail "analyze: expected exit 2" || return 1
}

test_a_violated_limit_is_a_junit_failure_and_a_fail_line_with_its_figure() {
	"$SQWAVE" run --board "$BOARD" --duration 1s --quiet --tmax 400us --max-missed 1000000 \
		--log "$TMP/l.sqwlog" --json "$TMP/l.json" --junit "$TMP/l.xml" --results "$TMP/l.txt" \
		> /dev/null 2> "$TMP/l.err"
	[ $? -eq 1 ] || fail "expected exit 1: $(cat "$TMP/l.err")" || return 1
	lava_lines_ok "$TMP/l.txt" || return 1
	grep -qE '^tmax fail [0-9]+\.[0-9]{3} us$' "$TMP/l.txt" || fail "$(cat "$TMP/l.txt")" || return 1
	grep -qE '^missed_periods pass [0-9]+ count$' "$TMP/l.txt" || fail "$(cat "$TMP/l.txt")" || return 1
	grep -qE '^tmin skip [0-9]+\.[0-9]{3} us$' "$TMP/l.txt" || fail "$(cat "$TMP/l.txt")" || return 1
	python3 - "$TMP/l.xml" "$TMP/l.json" "$TMP/l.txt" <<'PY' || return 1
import json, sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
d = json.load(open(sys.argv[2]))
lines = open(sys.argv[3]).read().split("\n")[:-1]
cases = list(r.iter("testcase"))
fails = [c for c in cases if c.find("failure") is not None]
assert r.tag == "testsuites" and len(r.findall("testsuite")) == 1
assert int(r.get("tests")) == len(cases) == len(lines) == len(d["verdict"]["checks"]), \
    (r.get("tests"), len(cases), len(lines), len(d["verdict"]["checks"]))
assert int(r.get("failures")) == len(fails) == len(d["verdict"]["violations"]) == 1
f = fails[0].find("failure")
assert fails[0].get("name") == "tmax" and f.get("type") == "limits.tmax", fails[0].attrib
assert "above limits.tmax 400.000 us" in f.get("message") and "at most 400.000 us" in f.text, f.text
tmax = [c for c in d["verdict"]["checks"] if c["name"] == "tmax"][0]
assert tmax["result"] == "fail" and tmax["limit"] == 400000 and tmax["observed"] > 400000
assert "tmax fail %.3f us" % (tmax["observed"] / 1000) in lines
PY
}

test_a_run_with_phases_gives_a_test_suite_per_phase() {
	cat > "$TMP/phases.yaml" <<'EOF'
run:
  half_period: 500us
phases:
  - name: first
    duration: 500ms
  - name: second.one
    duration: 500ms
limits:
  tmin: 100us
EOF
	"$SQWAVE" run --board "$BOARD" --profile "$TMP/phases.yaml" --quiet --log "$TMP/p.sqwlog" \
		--junit "$TMP/p.xml" --results "$TMP/p.txt" > /dev/null 2> "$TMP/p.err"
	[ $? -le 1 ] || fail "exit: $(cat "$TMP/p.err")" || return 1
	lava_lines_ok "$TMP/p.txt" || return 1
	grep -qE '^second_one\.tmin (pass|fail) [0-9.]+ us$' "$TMP/p.txt" ||
		fail "no phase line: $(cat "$TMP/p.txt")" || return 1
	python3 - "$TMP/p.xml" <<'PY' || return 1
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
names = [s.get("name") for s in r.findall("testsuite")]
assert names == ["sqwave.sim", "sqwave.sim.phase.first", "sqwave.sim.phase.second.one"], names
for s in r.findall("testsuite"):
    assert int(s.get("tests")) == len(s.findall("testcase")) > 0
    assert int(s.get("failures")) == len(s.findall("testcase/failure"))
    assert int(s.get("skipped")) == len(s.findall("testcase/skipped"))
PY
}

test_a_run_of_two_lines_gives_each_line_its_own_suites_classnames_and_names() {
	cat > "$TMP/two.yaml" <<'EOF'
phases:
  - name: first
    duration: 500ms
  - name: second
    duration: 500ms
limits:
  tmax: 750us
EOF
	# two half periods: the lines' figures differ, a swap would show
	"$SQWAVE" run --board "$BOARD" --profile "$TMP/two.yaml" --quiet --line 0,3 \
		--line-high 500us,250us --line-low 500us,250us --log "$TMP/two.sqwlog" \
		--json "$TMP/two.json" --junit "$TMP/two.xml" --results "$TMP/two.txt" \
		> /dev/null 2> "$TMP/two.err"
	[ $? -le 1 ] || fail "exit: $(cat "$TMP/two.err")" || return 1
	lava_lines_ok "$TMP/two.0.txt" && lava_lines_ok "$TMP/two.3.txt" || return 1
	python3 - "$TMP" <<'PY2' || return 1
import json, math, os, re, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
seen = set()
for line in ("0", "3"):
    doc = json.load(open(os.path.join(d, "two.%s.json" % line)))
    checks = doc["verdict"]["checks"]
    root = ET.parse(os.path.join(d, "two.%s.xml" % line)).getroot()
    suites = root.findall("testsuite")
    base = "sqwave.sim.line" + line
    assert [s.get("name") for s in suites] == [base, base + ".phase.first", base + ".phase.second"], \
        [s.get("name") for s in suites]
    for s in suites:
        props = {p.get("name"): p.get("value") for p in s.iter("property")}
        assert props["line"] == line, props
        cases = s.findall("testcase")
        assert cases, s.get("name")
        for case in cases:
            # GitLab and Jenkins know a case by classname and name
            assert case.get("classname") == s.get("name"), case.attrib
            key = (case.get("classname"), case.get("name"))
            assert key not in seen, key
            seen.add(key)
    # the run's suite holds the summary's checks (verdict.checks: the
    # phases' own are in JUnit and result.txt only), with their figures
    cases = suites[0].findall("testcase")
    assert [c.get("name") for c in cases] == [c["name"] for c in checks], (cases, checks)
    for case, c in zip(cases, checks):
        result = "fail" if case.find("failure") is not None else \
            "skip" if case.find("skipped") is not None else "pass"
        assert result == c["result"], (case.attrib, result, c)
        if c["observed"] is not None and c["unit"] == "ns":
            m = re.match(r"observed (-?[0-9.]+) us", case.find("system-out").text or "")
            assert m and math.isclose(float(m.group(1)), c["observed"] / 1e3, abs_tol=5e-4), \
                (case.attrib, case.find("system-out").text, c["observed"])
    # result.txt: every case of the line's JUnit, its name lineL.[PHASE.]CASE
    txt = [l.split() for l in open(os.path.join(d, "two.%s.txt" % line)).read().split("\n") if l]
    assert [t[0] for t in txt] == [".".join(["line" + line] + ([p] if p else []) + [c.get("name")])
                                   for s, p in zip(suites, (None, "first", "second"))
                                   for c in s.findall("testcase")], txt
# the files are not swapped: line 3 (250 us) makes twice line 0's edges
# on the same wake-ups. (Not their Tmax: a stall of the machine is one
# long pulse of both lines, written in one call, the same figure.)
a = json.load(open(os.path.join(d, "two.0.json")))["counts"]["edges"]
b = json.load(open(os.path.join(d, "two.3.json")))["counts"]["edges"]
assert b > a, (a, b)
PY2
}

# A python3 that has module $1 (Debian's python3-$1, installed by make
# test): python3 on PATH may be another one (a virtualenv, pyenv).
python_with() {
	local p
	for p in python3 /usr/bin/python3; do
		"$p" -c "import $1" 2> /dev/null && { echo "$p"; return 0; }
	done
	fail "no python3 with $1 (install python3-$1)"
}

test_every_junit_file_keeps_the_xunit_plugins_schema_rules() {
	# the Jenkins xUnit plugin refuses a file its junit-10.xsd rejects
	# (the files of the test_a_* runs above, which declare -F lists first)
	local x n=0
	for x in "$TMP/l.xml" "$TMP/p.xml" "$TMP/two.0.xml" "$TMP/two.3.xml"; do
		[ -s "$x" ] || continue
		n=$((n + 1))
		python3 "$ROOT/tests/e2e/xunit_rules.py" "$x" || return 1
	done
	[ $n -eq 4 ] || fail "only $n of 4 JUnit files written" || return 1
}

test_junitparser_reads_the_junit_with_its_counts_and_results() {
	local py
	py=$(python_with junitparser) || return 1
	[ -s "$TMP/l.xml" ] && [ -s "$TMP/p.xml" ] && [ -s "$TMP/two.3.xml" ] || fail "no JUnit files" || return 1
	"$py" - "$TMP/l.xml" "$TMP/p.xml" "$TMP/two.0.xml" "$TMP/two.3.xml" <<'PY' || return 1
import sys
from junitparser import JUnitXml, Failure, Skipped
for path in sys.argv[1:]:
    xml = JUnitXml.fromfile(path)
    suites = list(xml)
    assert suites, path
    for s in suites:
        cases = list(s)
        assert s.tests == len(cases) > 0, (path, s.name, s.tests, len(cases))
        fails = [c for c in cases if any(isinstance(r, Failure) for r in c.result)]
        skips = [c for c in cases if any(isinstance(r, Skipped) for r in c.result)]
        assert s.failures == len(fails) and s.skipped == len(skips), (path, s.name)
    assert xml.tests == sum(s.tests for s in suites), (path, xml.tests)
    assert xml.failures == sum(s.failures for s in suites), (path, xml.failures)
l = JUnitXml.fromfile(sys.argv[1])
failed = [c.name for s in l for c in s if any(isinstance(r, Failure) for r in c.result)]
assert failed == ["tmax"], failed
PY
}

test_json_schemas_take_what_went_to_stdout_and_refuse_a_broken_document() {
	# run-all checks every --json FILE; what went to standard output
	# (--json -) is checked here, by the same checker
	local py x n=0
	py=$(python_with jsonschema) || return 1
	for x in "$TMP/j.out" "$TMP/a.out" "$TMP/c.out" "$TMP/l.json"; do
		[ -s "$x" ] && n=$((n + 1))
	done
	[ $n -eq 4 ] || fail "only $n of 4 JSON documents written" || return 1
	"$py" "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$TMP/j.out" "$TMP/a.out" \
		"$TMP/c.out" "$TMP/l.json" > /dev/null || return 1
	# the checker is no rubber stamp: each of these must be refused
	python3 - "$TMP/l.json" "$TMP" <<'PY' || return 1
import copy, json, sys
d = json.load(open(sys.argv[1]))
bad = {}
bad["result"] = copy.deepcopy(d); bad["result"]["verdict"]["checks"][0]["result"] = "ok"
bad["missing"] = copy.deepcopy(d); del bad["missing"]["wake_latency"]
bad["t_s"] = copy.deepcopy(d); bad["t_s"]["verdict"]["checks"][-1]["t_s"] = "0.5"
bad["version"] = copy.deepcopy(d); bad["version"]["schema_version"] = 2
bad["unknown"] = copy.deepcopy(d); bad["unknown"]["schema"] = "sqwave-nothing"
for k, v in bad.items():
    json.dump(v, open("%s/bad-%s.json" % (sys.argv[2], k), "w"))
PY
	for x in result missing t_s version unknown; do
		if "$py" "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$TMP/bad-$x.json" \
			> /dev/null 2>&1; then
			fail "a broken document passed: $x"; return 1
		fi
	done
}

test_status_lines_carry_no_terminal_controls_when_stderr_is_a_file() {
	"$SQWAVE" run --board "$BOARD" --duration 2s --status-interval 200ms \
		--log "$TMP/s.sqwlog" > "$TMP/s.out" 2> "$TMP/s.err" || return 1
	[ "$(grep -c ' edges ' "$TMP/s.err")" -ge 3 ] || fail "no status lines: $(cat "$TMP/s.err")" || return 1
	if LC_ALL=C grep -q "$(printf '[\033\r]')" "$TMP/s.err" "$TMP/s.out"; then
		fail "escape or carriage return in the output"; return 1
	fi
}

e2e_run --subshell --short --prefix "ciout: "
