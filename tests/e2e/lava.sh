#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of the LAVA test definition (contrib/lava): its YAML is a
# Lava-Test Test Definition 1.0 whose parameters reach the run step, and
# the run step (sqwave-lava.sh, with a stand-in lava-test-case that records
# its arguments) reports every result line, the run, and the summary.
# Usage: SQWAVE=build/sqwave tests/e2e/lava.sh   (prints PASS/FAIL lines)
set -u
SQWAVE=${SQWAVE:-build/sqwave}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SQWAVE=$(cd "$(dirname "$SQWAVE")" && pwd)/$(basename "$SQWAVE")
TMP=$(mktemp -d /tmp/sqwave-lava.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

fail() { echo "    $*" >&2; return 1; }

test_the_definition_is_lava_test_definition_1_0_and_passes_every_parameter() {
	python3 -c 'import yaml' 2> /dev/null || { echo "    (python3-yaml missing: skipped)"; return 0; }
	python3 - "$ROOT/contrib/lava/sqwave.yaml" <<'PY' || return 1
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
m = d["metadata"]
assert m["format"] == "Lava-Test Test Definition 1.0", m["format"]
assert m["name"] and m["description"] and "preempt-rt" in m["scope"]
steps = " ".join(d["run"]["steps"])
for p in d["params"]:
    assert "${%s}" % p in steps, "parameter %s is not used by the run step" % p
assert "sqwave-lava.sh" in steps
PY
}

test_every_result_line_becomes_one_lava_test_case_with_its_measurement() {
	mkdir -p "$TMP/bin"
	cat > "$TMP/bin/lava-test-case" <<EOF
#!/bin/sh
echo "\$*" >> "$TMP/cases"
EOF
	chmod +x "$TMP/bin/lava-test-case"
	ln -s "$SQWAVE" "$TMP/bin/sqwave"
	PATH=$TMP/bin:$PATH "$ROOT/contrib/lava/sqwave-lava.sh" -b "$ROOT/boards/sim.yaml" \
		-p "$ROOT/config/quick.yaml" -i none -o "$TMP/out" -l farm-run \
		-a "--duration 1s --quiet --tmax 400us" > "$TMP/log" 2>&1
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(tail -5 "$TMP/log")" || return 1
	python3 - "$TMP/out/result.txt" "$TMP/cases" "$TMP/log" <<'PY' || return 1
import json, sys
lines = [l.split() for l in open(sys.argv[1]).read().split("\n") if l]
cases = [l.split() for l in open(sys.argv[2]).read().split("\n") if l]
want = []
for f in lines:
    c = [f[0], "--result", f[1]]
    if len(f) == 4:
        c += ["--measurement", f[2], "--units", f[3]]
    want.append(c)
assert cases[:-1] == want, (cases, want)
assert cases[-1] == ["sqwave-run", "--result", "fail", "--measurement", "1", "--units", "code"], cases[-1]
assert ["tmax", "--result", "fail"] == cases[[c[0] for c in cases].index("tmax")][:3]
log = open(sys.argv[3]).read()
summary = json.loads(log.split("@@SQWAVE-SUMMARY-BEGIN\n")[1].split("@@SQWAVE-SUMMARY-END")[0])
assert summary["label"] == "farm-run" and summary["verdict"]["pass"] is False
PY
}

test_summaries_from_two_boards_logs_feed_sqwave_report() {
	python3 -c 'import yaml' 2> /dev/null || { echo "    (python3-yaml missing: skipped)"; return 0; }
	mkdir -p "$TMP/bin3"
	ln -s "$SQWAVE" "$TMP/bin3/sqwave"
	local b
	for b in board-a board-b; do
		PATH=$TMP/bin3:$PATH "$ROOT/contrib/lava/sqwave-lava.sh" -b "$ROOT/boards/sim.yaml" \
			-p "$ROOT/config/quick.yaml" -i none -o "$TMP/$b" -l "$b" -a "--duration 1s --quiet" \
			> "$TMP/$b.log" 2>&1 || fail "$b: $(tail -3 "$TMP/$b.log")" || return 1
	done
	# one log as LAVA serves it (YAML entries), one as plain text
	python3 - "$TMP/board-a.log" "$TMP/job-17.yaml" <<'PY'
import sys, yaml
entries = [{"dt": "2026-01-01T00:00:00", "lvl": "target", "msg": l}
           for l in open(sys.argv[1]).read().split("\n")]
entries.insert(0, {"dt": "2026-01-01T00:00:00", "lvl": "info", "msg": "@@SQWAVE-SUMMARY-BEGIN"})
yaml.safe_dump(entries, open(sys.argv[2], "w"), default_flow_style=None, width=10**6)
PY
	"$ROOT/contrib/lava/summaries-from-logs" "$TMP/sum" "$TMP/job-17.yaml" "$TMP/board-b.log" \
		> "$TMP/sum.out" 2>&1 || fail "$(cat "$TMP/sum.out")" || return 1
	# exit 1 is a row's verdict (the quick profile's loose limits on a busy
	# host), not a failure to report
	local rc=0
	"$SQWAVE" report "$TMP"/sum/*.json --markdown "$TMP/report.md" --svg "$TMP/report.svg" -q \
		> /dev/null 2> "$TMP/report.err" || rc=$?
	[ $rc -le 1 ] || fail "report: rc $rc: $(cat "$TMP/report.err")" || return 1
	grep -q "board-a" "$TMP/report.md" && grep -q "board-b" "$TMP/report.md" ||
		fail "report: $(cat "$TMP/report.md")" || return 1
}

test_a_run_that_cannot_start_raises_instead_of_reporting_a_pass() {
	mkdir -p "$TMP/bin2"
	ln -s "$SQWAVE" "$TMP/bin2/sqwave"
	PATH=$TMP/bin2:$PATH "$ROOT/contrib/lava/sqwave-lava.sh" -b "$TMP/no-such-board.yaml" \
		-p "$ROOT/config/quick.yaml" -i none -o "$TMP/out2" > "$TMP/log2" 2>&1
	[ $? -ne 0 ] || fail "exit 0 for a missing board file" || return 1
	# without lava-test-case, the signal it would send: LAVA's parser takes
	# <LAVA_SIGNAL_NAME KEY=VALUE...> from the console, nothing else
	python3 - "$TMP/log2" <<'PY' || { fail "$(cat "$TMP/log2")"; return 1; }
import re, sys
cases = []
for m in re.finditer(r"<LAVA_SIGNAL_(\S+) ([^>]+)>", open(sys.argv[1]).read()):
    if m.group(1) == "TESTCASE":
        cases.append(dict(kv.split("=", 1) for kv in m.group(2).split()))
assert {"TEST_CASE_ID": "sqwave-run", "RESULT": "fail", "MEASUREMENT": "2",
        "UNITS": "code"} in cases, cases
PY
}

for t in $(declare -F | awk '{print $3}' | grep '^test_' | grep -e "${ONLY:-}"); do
	if ( $t ); then
		echo "PASS lava: ${t#test_}"
		passed=$((passed + 1))
	else
		echo "FAIL lava: ${t#test_}"
		failed=$((failed + 1))
	fi
done
[ $failed -eq 0 ]
