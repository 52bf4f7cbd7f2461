#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of rt.timer timerlat (docs/timerlat.md) on this machine,
# whose kernel has no timerlat tracer: the refusals of `run`, and the readers
# of a timerlat log (export's IRQ and thread columns, analyze's split of each
# wake-up, a damaged sample event) on logs built by tests/hostile/loggen.py
# with known samples. The run itself is tested in the emulated ARM board
# (tests/vm, Linux 6.12 RT). Timing is never asserted.
# Self-contained: SQWAVE=path/to/sqwave tests/e2e/timerlat.sh from the
# repository root. Prints PASS/FAIL per test; exit 1 if any failed.
. "$(dirname "$0")/lib.sh" sqwave-e2e-timerlat
GEN="python3 $ROOT/tests/hostile/loggen.py"

# The payload of one timerlat event, as loggen's escapes: "I:IRQ:THREAD ..."
# entries (edge I of loggen's grid: start 10^12 + 250000, half 500 us).
tl_payload() {
	python3 - "$@" <<'PY'
import struct, sys
out = b""
for e in sys.argv[1:]:
    i, irq, thr = (int(x) for x in e.split(":"))
    out += struct.pack("<Qii", 10**12 + 250000 + i * 500000, irq, thr)
print("".join("\\x%02x" % b for b in out))
PY
}

# A timerlat log of 40 edges; edges 0..29 have samples (edge 3 has no thread
# sample), logged later than their edges as a run logs them; edge 5 wakes
# 50 us late on a late IRQ, edge 7 on a late thread.
make_log() {
	local a="" b="" i
	for i in $(seq 0 14); do
		case $i in
		3) a="$a 3:1003:-1" ;; 5) a="$a 5:45000:47000" ;; 7) a="$a 7:1000:45000" ;;
		*) a="$a $i:$((1000 + i)):$((3000 + 2 * i))" ;;
		esac
	done
	for i in $(seq 15 29); do b="$b $i:$((1000 + i)):$((3000 + 2 * i))"; done
	# shellcheck disable=SC2086 # one argument per entry
	$GEN "$TMP/tl.sqwlog" --edges 40 --meta rt.timer=timerlat \
		--set 5:wake:50000 --set 5:wb:50200 --set 5:we:51000 \
		--set 7:wake:50000 --set 7:wb:50200 --set 7:we:51000 \
		--event "18:7:$(tl_payload $a)" --event "35:7:$(tl_payload $b)" "$@"
}

test_export_gives_each_edge_its_irq_and_thread_latency() {
	make_log || return 1
	expect 0 -- export "$TMP/tl.sqwlog" --csv "$TMP/tl.csv" || return 1
	python3 - "$TMP/tl.csv" <<'PY' || fail "the CSV's timerlat columns are wrong" || return 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 40, len(rows)
for r in rows:
    i = int(r["seq"])
    irq, thr = r["irq_latency_ns"], r["thread_latency_ns"]
    if i >= 30:
        assert irq == "" and thr == "", (i, irq, thr)
    elif i == 3:
        assert irq == "1003" and thr == "", (i, irq, thr)
    elif i == 5:
        assert (irq, thr) == ("45000", "47000"), (i, irq, thr)
    elif i == 7:
        assert (irq, thr) == ("1000", "45000"), (i, irq, thr)
    else:
        assert (int(irq), int(thr)) == (1000 + i, 3000 + 2 * i), (i, irq, thr)
PY
}

# The CSV of a timerlat log reads the log twice: a pipe is refused (exit 2)
# before any output is opened, and the same log redirected from its file
# (/dev/stdin a regular file) exports.
test_a_piped_timerlat_log_is_refused_before_any_output() {
	make_log || return 1
	cat "$TMP/tl.sqwlog" | timeout -k 5 60 "$SQWAVE" export /dev/stdin --csv "$TMP/p.csv" \
		--events "$TMP/p.ev" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ $rc -eq 2 ] || fail "exit $rc, not 2: $(head -c 600 "$TMP/err")" || return 1
	grep -qF "not a regular file" "$TMP/err" || fail "no reason: $(cat "$TMP/err")" || return 1
	[ ! -e "$TMP/p.csv" ] && [ ! -e "$TMP/p.ev" ] || fail "a refused export left an output" ||
		return 1
	expect 0 -- export /dev/stdin --csv "$TMP/p.csv" < "$TMP/tl.sqwlog" || return 1
	[ "$(wc -l < "$TMP/p.csv")" -eq 41 ] || fail "$(wc -l < "$TMP/p.csv") lines, not 41"
}

test_a_log_without_timerlat_keeps_its_columns() {
	$GEN "$TMP/plain.sqwlog" --edges 10 || return 1
	expect 0 -- export "$TMP/plain.sqwlog" --csv "$TMP/plain.csv" || return 1
	! head -n 1 "$TMP/plain.csv" | grep -q irq_latency ||
		fail "a timerfd log got timerlat columns: $(head -n 1 "$TMP/plain.csv")"
}

test_analyze_splits_the_late_wake_ups_by_the_limit() {
	make_log || return 1
	expect 0 -- analyze "$TMP/tl.sqwlog" --max-latency 20us --json "$TMP/a.json" || return 1
	grep -q "IRQ late 1, thread late 1, both 0" "$TMP/out" ||
		fail "no split of the two late edges in the text: $(grep -A6 '^timerlat' "$TMP/out")" ||
		return 1
	python3 - "$TMP/a.json" <<'PY' || fail "analyze's timerlat JSON is wrong" || return 1
import json, sys
t = json.load(open(sys.argv[1]))["timerlat"]
assert t["edges"] == 40 and t["with_samples"] == 29, t
assert t["late"] == {"edges": 2, "irq": 1, "thread": 1, "both": 0, "neither": 0}, t["late"]
assert t["irq_latency"]["count"] == 29 and t["irq_latency"]["max_ns"] == 45000, t["irq_latency"]
assert t["latest"]["seq"] == 5 and t["latest"]["split"] == "IRQ late", t["latest"]
assert t["inconsistent"] == 0, t
PY
	python3 "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$TMP/a.json" > /dev/null ||
		fail "the analysis does not validate"
}

test_samples_that_disagree_are_counted() {
	$GEN "$TMP/bad.sqwlog" --edges 4 --meta rt.timer=timerlat \
		--event "3:7:$(tl_payload 0:9000:8000 1:1000:2000)" || return 1
	expect 0 -- analyze "$TMP/bad.sqwlog" --json "$TMP/b.json" --quiet || return 1
	python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['timerlat']; \
assert t['inconsistent'] == 1, t" "$TMP/b.json" || fail "an IRQ after its thread was not counted"
}

test_a_damaged_sample_event_is_refused_naming_it() {
	$GEN "$TMP/dmg.sqwlog" --edges 4 --meta rt.timer=timerlat \
		--event '2:7:\x01\x02\x03' || return 1
	expect 2 "dmg.sqwlog" "timerlat event of 3 bytes" -- export "$TMP/dmg.sqwlog" \
		--csv "$TMP/d.csv" || return 1
	expect 2 "timerlat event of 3 bytes" -- analyze "$TMP/dmg.sqwlog" --quiet
}

test_run_refuses_what_timerlat_cannot_do() {
	expect 2 "rt.cpu" -- run --board "$BOARD" --timer timerlat --duration 100ms --quiet || return 1
	expect 2 "rt.timer" "run.spin" -- run --board "$BOARD" --timer timerlat --cpu 0 --spin 20us \
		--duration 100ms --quiet || return 1
	expect 2 "whole microseconds" -- run --board "$BOARD" --timer timerlat --cpu 0 \
		--half-period 50us --duration 100ms --quiet || return 1
	expect 2 "respond" -- respond --board "$BOARD" --timer timerlat --cpu 0 --duration 100ms \
		--quiet || return 1
	expect 2 "rt.timer" -- run --board "$BOARD" --timer cyclic --quiet
}

test_this_kernel_is_refused_naming_the_option() {
	local t=/sys/kernel/tracing
	[ -r $t/available_tracers ] || mount -t tracefs nodev $t 2> /dev/null
	if grep -qw timerlat $t/available_tracers 2> /dev/null; then
		echo "    this kernel has timerlat: the refusal is tested in tests/vm" >&2
		return 77
	fi
	expect 2 "CONFIG_TIMERLAT_TRACER" -- run --board "$BOARD" --timer timerlat --cpu 0 \
		--duration 100ms --quiet --log "$TMP/no.sqwlog" || return 1
	[ ! -e "$TMP/no.sqwlog" ] || fail "a refused run left a log"
}

test_a_timerfd_summary_says_so() {
	expect 0 -- run --board "$BOARD" --duration 100ms --quiet --json "$TMP/s.json" \
		--log "$TMP/s.sqwlog" || return 1
	python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['rt']; \
assert r['timer'] == 'timerfd' and r['timerlat'] is None, r" "$TMP/s.json" ||
		fail "the summary does not say timerfd"
}

cd "$ROOT" || exit 1
e2e_run --subshell "timerlat e2e"
