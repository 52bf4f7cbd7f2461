#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of what KernelCI takes: `sqwave run --kcidb` checked
# against a test-side schema of KCIDB v5.3's test object (tests/data/kcidb/,
# written from kernelci/kcidb-io's kcidb_io/schema/v05_03.py) and against the
# run's own summary JSON, for one line and for two; and the test definition
# in Linaro's test-definitions layout (contrib/test-definitions/automated/
# linux/sqwave/) run as LAVA runs it, without LAVA's helpers, its result.txt
# held against each line's summary. Timing is never asserted.
# Self-contained: SQWAVE=path/to/sqwave tests/e2e/kernelci.sh from the repository root.
. "$(dirname "$0")/lib.sh" sqwave-e2e-kernelci

SCHEMA=$ROOT/tests/data/kcidb/kcidb-v5.3-tests.schema.json
DEFDIR=$ROOT/contrib/test-definitions/automated/linux/sqwave

have_jsonschema() {
	python3 -c 'import jsonschema' 2> /dev/null ||
		{ echo "    (python3-jsonschema missing)"; return 77; }
}

# A 1 s run with a limit that the sim board breaks or not (the checks say
# which), every document written; NAME ARGS... (the KCIDB file is NAME-kcidb:
# run-all's JSON keeper takes NAME.*.json for a line's summary)
run_all_docs() {
	local n=$1
	shift
	"$SQWAVE" run --board "$BOARD" --duration 1s --quiet --tmax 520us --max-missed 1000000 \
		--log "$TMP/$n.sqwlog" --json "$TMP/$n.json" --results "$TMP/$n.txt" \
		--junit "$TMP/$n.xml" --kcidb "$TMP/$n-kcidb.json" "$@" > "$TMP/$n.out" 2> "$TMP/$n.err"
	local rc=$?
	[ $rc -le 1 ] || fail "exit $rc: $(cat "$TMP/$n.err")"
}

test_one_line_s_kcidb_tests_are_v5_and_hold_the_summary_s_figures() {
	have_jsonschema || return $?
	run_all_docs one || return 1
	python3 "$HERE/kcidb_check.py" "$SCHEMA" "$TMP/one-kcidb.json" sqwave "0=$TMP/one.json" \
		> /dev/null || return 1
}

test_two_lines_are_one_document_with_each_line_s_tests() {
	have_jsonschema || return $?
	run_all_docs two --line 0,3 || return 1
	[ -f "$TMP/two.0.json" ] && [ -f "$TMP/two.3.json" ] || fail "no per-line summaries" || return 1
	[ ! -e "$TMP/two-kcidb.0.json" ] || fail "--kcidb was split per line" || return 1
	python3 "$HERE/kcidb_check.py" "$SCHEMA" "$TMP/two-kcidb.json" sqwave \
		"0=$TMP/two.0.json" "3=$TMP/two.3.json" > /dev/null || return 1
}

test_an_origin_and_a_base_url_name_the_lab_s_tests_and_files() {
	have_jsonschema || return $?
	"$SQWAVE" run --board "$BOARD" --duration 300ms --quiet --log "$TMP/o.sqwlog" \
		--kcidb "$TMP/o.kcidb.json" --kcidb-origin my_lab \
		--kcidb-url https://lab.example/job/7 > /dev/null 2> "$TMP/o.err" ||
		fail "$(cat "$TMP/o.err")" || return 1
	python3 - "$SCHEMA" "$TMP/o.kcidb.json" <<'PY' || return 1
import json, sys
from jsonschema import Draft202012Validator as V
v = V(json.load(open(sys.argv[1])), format_checker=V.FORMAT_CHECKER)
d = json.load(open(sys.argv[2]))
v.validate(d)
for t in d["tests"]:
    assert t["origin"] == "my_lab" and t["id"].startswith("my_lab:"), t["id"]
    assert [f["url"] for f in t["output_files"]] == ["https://lab.example/job/7/o.sqwlog"], t
PY
}

test_kcidb_dash_is_the_only_thing_on_stdout_and_a_second_is_refused() {
	"$SQWAVE" run --board "$BOARD" --duration 300ms --quiet --log "$TMP/d.sqwlog" \
		--kcidb - > "$TMP/d.out" 2> "$TMP/d.err"
	[ $? -le 1 ] || fail "exit: $(cat "$TMP/d.err")" || return 1
	python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["version"]["major"] == 5' \
		"$TMP/d.out" || fail "stdout is not one KCIDB document: $(head -c 300 "$TMP/d.out")" ||
		return 1
	grep -q "^verdict" "$TMP/d.err" || fail "no text summary on stderr" || return 1
	"$SQWAVE" run --board "$BOARD" --duration 300ms --quiet --log "$TMP/d2.sqwlog" \
		--kcidb - --json - > /dev/null 2> "$TMP/d2.err"
	[ $? -eq 2 ] || fail "--kcidb - --json -: expected exit 2" || return 1
	grep -q "only one" "$TMP/d2.err" || fail "$(cat "$TMP/d2.err")" || return 1
}

test_a_bad_origin_is_exit_2_before_the_run() {
	"$SQWAVE" run --board "$BOARD" --duration 300ms --quiet --log "$TMP/b.sqwlog" \
		--kcidb "$TMP/b.kcidb.json" --kcidb-origin My-Lab > /dev/null 2> "$TMP/b.err"
	[ $? -eq 2 ] || fail "expected exit 2: $(cat "$TMP/b.err")" || return 1
	grep -q "output.kcidb_origin" "$TMP/b.err" || fail "$(cat "$TMP/b.err")" || return 1
	[ ! -e "$TMP/b.kcidb.json" ] && [ ! -e "$TMP/b.sqwlog" ] || fail "a file was written" ||
		return 1
}

# compare --kcidb: the capture's cross-check as the test
# sqwave.lineNAME.compare beside the run's tests; NAME SYNTH-ARGS... (a
# capture of the run "cr" made by synth_capture.py from the run's CSV)
compare_kcidb() {
	local n=$1
	shift
	if [ ! -f "$TMP/cr.sqwlog" ]; then
		"$SQWAVE" run --board "$BOARD" --duration 2s --quiet --log "$TMP/cr.sqwlog" \
			--kcidb "$TMP/cr-kcidb.json" > /dev/null 2> "$TMP/cr.err" ||
			fail "run: $(cat "$TMP/cr.err")" || return 1
		"$SQWAVE" export "$TMP/cr.sqwlog" --csv "$TMP/cr.csv" 2> /dev/null ||
			fail "export failed" || return 1
	fi
	python3 "$HERE/synth_capture.py" "$TMP/cr.csv" --seed 7 "$TMP/$n.vcd" "$@" 2> /dev/null ||
		fail "synth_capture.py $*" || return 1
	"$SQWAVE" compare "$TMP/cr.sqwlog" "$TMP/$n.vcd" --json "$TMP/$n.json" \
		--kcidb "$TMP/$n-kcidb.json" > /dev/null 2> "$TMP/$n.err"
	local rc=$?
	[ $rc -le 1 ] || fail "compare exit $rc: $(cat "$TMP/$n.err")" || return 1
	python3 - "$SCHEMA" "$TMP/$n-kcidb.json" "$TMP/$n.json" "$TMP/cr-kcidb.json" <<'PY'
import json, os, sys
from jsonschema import Draft202012Validator as V
v = V(json.load(open(sys.argv[1])), format_checker=V.FORMAT_CHECKER)
d = json.load(open(sys.argv[2]))
v.validate(d)
cmp = json.load(open(sys.argv[3]))
run = {t["path"]: t for t in json.load(open(sys.argv[4]))["tests"]}
(t,) = d["tests"]
assert t["path"] == "sqwave.line0.compare", t["path"]
want = {"agree": "PASS", "disagree": "FAIL"}.get(cmp["verdict"], "ERROR")
assert t["status"] == want and t["misc"]["verdict"] == cmp["verdict"], (t["status"], cmp["verdict"])
r = cmp["residual"]
assert abs(t["number"]["value"] * 1e9 - max(abs(r["min_ns"]), abs(r["max_ns"]))) < 1e-3, \
    (t["number"], r)
assert t["number"]["unit"] == "s"
# the same run: its build, and its line's id up to the path
line = run["sqwave.line0"]
assert t["build_id"] == line["build_id"], (t["build_id"], line["build_id"])
assert t["id"].rsplit(":", 1)[0] == line["id"].rsplit(":", 1)[0], (t["id"], line["id"])
assert t["start_time"] == line["start_time"]
assert [f["name"] for f in t["output_files"]] == ["cr.sqwlog", os.path.basename(sys.argv[2])
                                                 .replace("-kcidb.json", ".vcd")], t
print(t["status"])
PY
}

test_compare_kcidb_is_the_run_s_cross_check_test_pass_when_it_agrees() {
	have_jsonschema || return $?
	local st
	st=$(compare_kcidb ca --first 1001 --count 1500 --drift-ppm 37 --res-ns 10) || return 1
	[ "$st" = PASS ] || fail "status $st" || return 1
}

test_compare_kcidb_fails_when_the_capture_disagrees() {
	have_jsonschema || return $?
	local st
	st=$(compare_kcidb cd --first 1001 --count 2000 --drift-ppm 37 \
		--delete-pair 2000 --glitch-after 2501) || return 1
	[ "$st" = FAIL ] || fail "status $st" || return 1
}

test_compare_kcidb_refuses_a_respond_log() {
	"$SQWAVE" respond --board "$BOARD" --duration 300ms --quiet --log "$TMP/r.sqwlog" \
		> /dev/null 2>&1
	[ -s "$TMP/r.sqwlog" ] || { echo "    (no respond log on this machine)"; return 77; }
	"$SQWAVE" compare "$TMP/r.sqwlog" "$TMP/r.sqwlog" --kcidb "$TMP/r-kcidb.json" \
		> /dev/null 2> "$TMP/r.err"
	[ $? -eq 2 ] || fail "expected exit 2: $(cat "$TMP/r.err")" || return 1
	grep -q "kcidb" "$TMP/r.err" || fail "$(cat "$TMP/r.err")" || return 1
}

# Run the definition's script as LAVA's run step does (from its directory,
# a copy as a lab's test-definitions tree holds it), on the real sqwave: no
# lava-test-case, no sh-test-lib; ARGS... its options.
run_definition() {
	local d=$TMP/def/automated/linux/sqwave
	rm -rf "$TMP/def"
	mkdir -p "$TMP/def/automated/linux"
	cp -r "$DEFDIR" "$d" || return 1
	(cd "$d" && PATH=/usr/bin:/bin ./sqwave.sh -s "$SQWAVE" -b "$BOARD" -p "" "$@") \
		> "$TMP/def.out" 2> "$TMP/def.err" || fail "sqwave.sh: $(cat "$TMP/def.err")"
}

# result.txt against each line's summary: every check once, named
# lineNAME.CHECK, with its result and figure; NAME=SUMMARY...
results_match() {
	python3 - "$TMP/def/automated/linux/sqwave/output/result.txt" "$@" <<'PY'
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
# the two forms Linaro's send-to-lava.sh takes
form = re.compile(r"^(\S+) (pass|fail|skip)( (-?[0-9]+(\.[0-9]+)?) (\S+))?$")
got = {}
for l in lines:
    m = form.match(l)
    assert m, f"not a result line: {l!r}"
    assert m.group(1) not in got, f"name twice: {m.group(1)}"
    got[m.group(1)] = (m.group(2), m.group(4), m.group(6))
want = {"sqwave-run"}
for arg in sys.argv[2:]:
    line, path = arg.split("=", 1)
    s = json.load(open(path))
    for c in s["verdict"]["checks"]:
        parts = [c[k] for k in ("phase", "load") if c[k]] + [c["name"]]
        name = f"line{line}." + ".".join(re.sub(r"[^A-Za-z0-9_-]", "_", p) for p in parts)
        want.add(name)
        assert name in got, f"no result {name}"
        result, value, unit = got[name]
        assert result == c["result"], (name, result, c["result"])
        if c["observed"] is None:
            assert value is None, (name, value)
            continue
        v = float(value)
        if c["unit"] == "ns":
            assert unit == "us" and abs(v * 1000 - c["observed"]) <= 0.5, (name, value, c)
        elif c["unit"] == "count":
            assert unit == "count" and v == c["observed"], (name, value, c)
        else:
            assert abs(v - c["observed"]) <= 0.05, (name, value, c)
extra = set(got) - want
assert not extra or all("." in n.split("-", 1)[1] for n in extra), f"unexplained: {extra}"
print(len(got))
PY
}

test_the_kernelci_definition_reports_every_check_of_two_lines() {
	run_definition -l 0,3 -d 1s -a "--tmax 520us" || return 1
	local out=$TMP/def/automated/linux/sqwave/output
	[ -f "$out/summary.0.json" ] && [ -f "$out/summary.3.json" ] ||
		fail "no per-line summaries: $(ls "$out")" || return 1
	results_match "0=$out/summary.0.json" "3=$out/summary.3.json" > /dev/null || return 1
	grep -qE "^sqwave-run (pass 0|fail 1) code$" "$out/result.txt" ||
		fail "sqwave-run: $(grep sqwave-run "$out/result.txt")" || return 1
}

test_the_kernelci_definition_names_the_board_s_own_line() {
	run_definition -d 500ms || return 1
	local out=$TMP/def/automated/linux/sqwave/output
	results_match "0=$out/summary.json" > /dev/null || return 1
	grep -qx "sqwave-run pass 0 code" "$out/result.txt" ||
		fail "sqwave-run: $(grep sqwave-run "$out/result.txt")" || return 1
}

test_a_run_that_cannot_start_is_a_failed_sqwave_run_and_no_checks() {
	run_definition -d 500ms -a "--tmin 2s --tmax 1s" || return 1
	local out=$TMP/def/automated/linux/sqwave/output
	[ "$(cat "$out/result.txt")" = "sqwave-run fail 2 code" ] ||
		fail "result.txt: $(cat "$out/result.txt")" || return 1
}

test_the_definition_is_the_test_definitions_shape_and_lava_s_schema() {
	python3 -c 'import yaml' 2> /dev/null || { echo "    (python3-yaml missing)"; return 77; }
	python3 - "$DEFDIR/sqwave.yaml" <<'PY' || return 1
import re, sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d["metadata"]["format"] == "Lava-Test Test Definition 1.0"
steps = d["run"]["steps"]
assert steps[0] == "cd ./automated/linux/sqwave/", steps
assert steps[-1] == "../../utils/send-to-lava.sh ./output/result.txt", steps
# every parameter is passed, and only parameters are
used = set(re.findall(r"\$\{(\w+)\}", " ".join(steps)))
assert used == set(d["params"]), (used, set(d["params"]))
PY
	if command -v shellcheck > /dev/null; then
		shellcheck "$DEFDIR/sqwave.sh" || fail "shellcheck" || return 1
	fi
	python3 -c 'import lava_common.schemas' 2> /dev/null ||
		{ echo "    (lava-common missing: LAVA's schema not checked)"; return 0; }
	python3 - "$DEFDIR/sqwave.yaml" <<'PY'
import sys, yaml
from lava_common.schemas.test.testdef import validate
validate(yaml.safe_load(open(sys.argv[1])))
PY
}

e2e_run --subshell --short --prefix "kernelci: " --count-skips
