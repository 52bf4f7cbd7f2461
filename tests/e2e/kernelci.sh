#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of what KernelCI takes: `sqwave run --kcidb` checked
# against a test-side schema of KCIDB v5.3's test object (tests/data/kcidb/,
# written from kernelci/kcidb-io's kcidb_io/schema/v05_03.py) and against the
# run's own summary JSON, for one line and for two. Timing is never asserted.
# Self-contained: SQWAVE=path/to/sqwave tests/e2e/kernelci.sh from the repository root.
. "$(dirname "$0")/lib.sh" sqwave-e2e-kernelci

SCHEMA=$ROOT/tests/data/kcidb/kcidb-v5.3-tests.schema.json

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

e2e_run --subshell --short --prefix "kernelci: " --count-skips
