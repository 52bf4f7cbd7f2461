#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end test of `sqwave export LOG --vcd FILE`: the VCD of a run read back
# by sqwave's own VCD importer gives the log's pulse widths. Self-contained:
# SQWAVE=path/to/sqwave tests/e2e/vcd.sh from the repository root.
. "$(dirname "$0")/lib.sh" sqwave-e2e-vcd

test_the_vcd_of_a_run_has_the_logs_pulse_widths() {
	"$SQWAVE" run --board "$ROOT/boards/sim.yaml" --duration 300ms --quiet --log "$TMP/r.sqwlog" \
		> /dev/null 2>&1 || return 1
	"$SQWAVE" export "$TMP/r.sqwlog" --vcd "$TMP/r.vcd" 2> "$TMP/e.err" ||
		fail "export: $(cat "$TMP/e.err")" || return 1
	"$SQWAVE" analyze "$TMP/r.sqwlog" --quiet --json "$TMP/log.json" > /dev/null || return 1
	"$SQWAVE" analyze "$TMP/r.vcd" --quiet --json "$TMP/vcd.json" > /dev/null || return 1
	python3 - "$TMP/log.json" "$TMP/vcd.json" <<'PY' || return 1
import json, sys
log, vcd = (json.load(open(p)) for p in sys.argv[1:3])
def widths(d):
    w = d["pulse_width"]["any"]
    return w["min_ns"], w["max_ns"], w["count"]
a, b = widths(log), widths(vcd)
# the log's estimate is midpoint to midpoint; the VCD rounds each midpoint to 1 ns
assert abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1 and a[2] == b[2], (a, b)
PY
}

test_a_vcd_with_another_output_is_a_usage_error() {
	"$SQWAVE" export x.sqwlog --vcd a.vcd --csv b.csv > /dev/null 2>&1
	[ $? -eq 2 ] || return 1
}

e2e_run "vcd e2e"
