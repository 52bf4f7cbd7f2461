#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end test of `sqwave capture` on libsigrok's demo analyzer, a real
# device of the real library (no GPIO: nothing here checks a board). Its
# "incremental" pattern over eight logic channels makes D7 toggle every 128
# samples: at 256 kHz a square wave of exactly 500 us, the known answer the
# capture, its file and compare are held to (a log of the same wave from
# bench/gen-log.py --exact). In a build without libsigrok (make
# test-nosigrok) the tests that need the analyzer SKIP, saying why, and
# test_without_libsigrok_* check what that build promises instead.
# SQWAVE=path/to/sqwave [E2E_SIGROK=yes|no] tests/e2e/capture.sh
. "$(dirname "$0")/lib.sh" sqwave-e2e-capture

DEMO=(--driver demo -c pattern=incremental -r 256k)
GENLOG=$ROOT/bench/gen-log.py

# Whether this build drives analyzers: its --version says ("capture:
# libsigrok VERSION" or "capture: none, built without libsigrok"). Where
# make runs this, E2E_SIGROK (yes or no: the build's SIGROK) says what the
# binary must be: a libsigrok binary run as the build without (or the
# reverse) fails here instead of testing the other build.
SIGROK_LINE=$("$SQWAVE" --version 2> /dev/null | grep '^capture: ')
case $SIGROK_LINE in
"capture: libsigrok "?*) HAVE_SIGROK=yes ;;
"capture: none, built without libsigrok "*) HAVE_SIGROK=no ;;
*) HAVE_SIGROK=unknown ;;
esac

# The tests that need an analyzer: in a build without libsigrok they say
# SKIP and why (counted), test_without_libsigrok_* hold that build to what
# it promises instead.
need_sigrok() {
	[ "$HAVE_SIGROK" = yes ] && return 0
	[ "$HAVE_SIGROK" = no ] && [ "${E2E_SIGROK:-no}" = no ] ||
		fail "not the build with libsigrok (E2E_SIGROK=${E2E_SIGROK:-}): --version: $SIGROK_LINE" ||
		return 1
	echo "    (needs an analyzer: this build has no libsigrok; skipped)"
	return 77
}

# jq-less JSON field: json FILE EXPR (a python expression on d)
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# A 2 s capture of the demo, once for the tests that read it.
capture_2s() {
	[ -f "$TMP/c2.vcd" ] && return 0
	"$SQWAVE" capture "${DEMO[@]}" -t 2s -o "$TMP/c2.vcd" --json "$TMP/c2.json" > "$TMP/c2.out" \
		2> "$TMP/c2.err" || fail "capture: $(cat "$TMP/c2.err")"
}

schema_ok() {
	python3 "$HERE/json_schema_check.py" "$ROOT/docs/schema" "$@" > "$TMP/schema.out" 2>&1 ||
		fail "schema: $(cat "$TMP/schema.out")"
}

test_a_2s_demo_capture_covers_all_of_it_and_d7_is_the_500us_wave() {
	need_sigrok || return $?
	capture_2s || return 1
	schema_ok "$TMP/c2.json" || return 1
	# 512,000 samples; D7 changes at every 128th sample after the first
	[ "$(json "$TMP/c2.json" 'd["samples"]')" = 512000 ] || fail "samples: $(cat "$TMP/c2.json")" ||
		return 1
	[ "$(json "$TMP/c2.json" '[c["edges"] for c in d["channels"] if c["name"]=="D7"][0]')" = 3999 ] ||
		fail "D7 edges: $(cat "$TMP/c2.json")" || return 1
	[ "$(json "$TMP/c2.json" '(d["covered_fraction"], d["interruptions_total"], d["stopped_by_signal"])')" \
		= "(1, 0, False)" ] || fail "coverage: $(cat "$TMP/c2.json")" || return 1
	"$SQWAVE" analyze "$TMP/c2.vcd" --channel D7 --quiet --json "$TMP/a.json" > /dev/null || return 1
	[ "$(json "$TMP/a.json" '(d["pulse_width"]["any"]["min_ns"], d["pulse_width"]["any"]["max_ns"])')" \
		= "(500000, 500000)" ] || fail "widths: $(json "$TMP/a.json" 'd["pulse_width"]["any"]')"
}

test_compare_of_the_capture_against_the_same_wave_agrees_at_0ppm() {
	need_sigrok || return $?
	capture_2s || return 1
	python3 "$GENLOG" "$TMP/w.sqwlog" --edges 3999 --exact || return 1
	# a perfect wave fits everywhere: --first-seq says where (docs/compare.md)
	sq compare "$TMP/w.sqwlog" "$TMP/c2.vcd" --channel D7 --first-seq 0 --json "$TMP/cmp.json" ||
		fail "compare: exit $?: $(head -c 600 "$TMP/err")" || return 1
	python3 - "$TMP/cmp.json" <<'PY' || fail "$(cat "$TMP/cmp.json")" || return 1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "agree", d["verdict"]
assert abs(d["alignment"]["drift_ppm"]) < 0.01, d["alignment"]["drift_ppm"]
assert d["edges"]["paired"] == 3999, d["edges"]
c = d["coverage"]
assert (c["run_edges"], c["covered_edges"], c["fraction"], c["gaps"]) == (3999, 3999, 1, 0), c
PY
	grep -q "coverage   the instrument saw 3999 of 3999 edges (100.000 %)" "$TMP/out" ||
		fail "text: $(grep -A1 coverage "$TMP/out")"
}

# The run went on before and after the capture: 100 edges each side that
# the analyzer never saw count neither as missing nor as agreeing.
test_a_capture_of_the_middle_of_a_run_counts_only_what_it_saw() {
	need_sigrok || return $?
	capture_2s || return 1
	python3 "$GENLOG" "$TMP/long.sqwlog" --edges 4199 --exact || return 1
	sq compare "$TMP/long.sqwlog" "$TMP/c2.vcd" --channel D7 --first-seq 100 --json "$TMP/mid.json" ||
		fail "compare: exit $?: $(head -c 600 "$TMP/err")" || return 1
	python3 - "$TMP/mid.json" <<'PY' || fail "$(cat "$TMP/mid.json")" || return 1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "agree", d["verdict"]
assert d["edges"]["missing_in_capture"] == [] and d["edges"]["paired"] == 3999, d["edges"]
c = d["coverage"]
assert (c["run_edges"], c["covered_edges"]) == (4199, 3999), c
assert abs(c["fraction"] - 3999 / 4199) < 1e-12, c
PY
}

test_sigint_ends_an_open_capture_with_exit_0_and_the_coverage_it_had() {
	need_sigrok || return $?
	local pid rc
	"$SQWAVE" capture "${DEMO[@]}" -o "$TMP/s.vcd" --json "$TMP/s.json" > "$TMP/s.out" 2> "$TMP/s.err" &
	pid=$!
	sleep 1.5
	kill -INT $pid
	wait $pid
	rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/s.err")" || return 1
	schema_ok "$TMP/s.json" || return 1
	python3 - "$TMP/s.json" <<'PY' || fail "$(cat "$TMP/s.json")" || return 1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["stopped_by_signal"] and d["samples"] > 0 and d["covered_fraction"] == 1, d
assert d["planned_s"] is None
d7 = [c["edges"] for c in d["channels"] if c["name"] == "D7"][0]
assert d7 == (d["samples"] - 1) // 128, (d7, d["samples"])
assert abs(d["covered_s"] - d["samples"] / 256000) < 1e-9
PY
	grep -q "stopped      by a signal" "$TMP/s.out" || fail "$(cat "$TMP/s.out")" || return 1
	# the file is whole: its last line closes the facts
	[ "$(tail -1 "$TMP/s.vcd")" = '$end' ] || fail "the VCD ends with: $(tail -2 "$TMP/s.vcd")" ||
		return 1
	"$SQWAVE" analyze "$TMP/s.vcd" --channel D7 --quiet > /dev/null || fail "analyze of the stopped capture"
}

test_a_duration_capture_stopped_by_sigterm_exits_143_saying_what_it_covered() {
	need_sigrok || return $?
	local pid rc
	"$SQWAVE" capture "${DEMO[@]}" -t 60s -o "$TMP/t.vcd" --json "$TMP/t.json" > "$TMP/t.out" 2> "$TMP/t.err" &
	pid=$!
	sleep 1.5
	kill -TERM $pid
	wait $pid
	rc=$?
	[ $rc -eq 143 ] || fail "exit $rc: $(cat "$TMP/t.err")" || return 1
	grep -q "of the 60.000000 s asked for" "$TMP/t.out" || fail "$(cat "$TMP/t.out")" || return 1
	[ "$(json "$TMP/t.json" '(d["planned_s"], d["stopped_by_signal"], d["span_s"] < 60)')" = "(60, True, True)" ] ||
		fail "$(cat "$TMP/t.json")"
}

# The test hook SQWAVE_CAPTURE_DROP=FROM:COUNT loses samples as an overrun
# would: the file has x there, the facts an interruption, and compare
# counts no run edge inside it as missing or as agreeing.
test_a_lost_stretch_is_an_interruption_and_compare_counts_nothing_in_it() {
	need_sigrok || return $?
	SQWAVE_CAPTURE_DROP=100000:50000 "$SQWAVE" capture "${DEMO[@]}" -t 2s -o "$TMP/g.vcd" \
		--json "$TMP/g.json" > /dev/null 2> "$TMP/g.err" || fail "$(cat "$TMP/g.err")" || return 1
	schema_ok "$TMP/g.json" || return 1
	python3 - "$TMP/g.json" <<'PY' || fail "$(cat "$TMP/g.json")" || return 1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["samples"] == 512000 and d["lost_samples"] == 50000, d
assert d["interruptions_total"] == 1
i = d["interruptions"][0]
assert i["from_s"] == 100000 / 256000 and i["length_s"] == 50000 / 256000, i
assert abs(d["covered_s"] - 462000 / 256000) < 1e-9
PY
	grep -q '^x(' "$TMP/g.vcd" || fail "no x on D7 in the file" || return 1
	python3 "$GENLOG" "$TMP/w.sqwlog" --edges 3999 --exact || return 1
	sq compare "$TMP/w.sqwlog" "$TMP/g.vcd" --channel D7 --first-seq 0 --json "$TMP/cmp.json" ||
		fail "compare: exit $?: $(head -c 600 "$TMP/err")" || return 1
	python3 - "$TMP/cmp.json" <<'PY' || fail "$(cat "$TMP/cmp.json")" || return 1
import json, sys
d = json.load(open(sys.argv[1]))
e = d["edges"]
# D7 edges at samples 128k: those in [100000, 150000) fell in the lost stretch
lost = sum(1 for k in range(1, 4000) if 100000 <= 128 * k < 150000)
assert d["verdict"] == "agree", d["verdict"]
assert not e["missing_in_capture"] and not e["extra_in_capture"], e
assert e["paired"] == 3999 - lost, (e, lost)
assert e["in_capture_gaps"] == lost, (e, lost)
c = d["coverage"]
assert c["gaps"] == 1 and c["covered_edges"] == 3999 - lost, c
assert abs(c["fraction"] - (3999 - lost) / 3999) < 1e-12, c
assert c["covered_s"] < c["span_s"], c
PY
}

test_memory_does_not_grow_with_the_capture_duration() {
	need_sigrok || return $?
	local short long
	# peak RSS of a 1 s and a 5 s capture (2.6 M edges more): a ratio
	rss() {
		python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$SQWAVE" capture "${DEMO[@]}" -t "$1" \
			-o "$TMP/m.vcd"
	}
	short=$(rss 1s) || return 1
	long=$(rss 5s) || return 1
	python3 -c "import sys; s, l = int(sys.argv[1]), int(sys.argv[2]); sys.exit(0 if l <= 1.1 * s else 1)" \
		"$short" "$long" || fail "peak RSS ${short} KiB for 1 s, ${long} KiB for 5 s"
}

# libsigrok 0.5.2's software trigger makes the demo end after one packet
# (sigrok-cli too: "Device only sent 4096 samples"): an early end, exit 3,
# with what it covered and the acquisition's reason, not a message left
# from the setup (the demo's pattern is tried on the device before its
# Logic group). A libsigrok that keeps going passes with the whole second.
test_an_early_end_says_what_it_covered_and_no_setup_message() {
	need_sigrok || return $?
	local rc
	"$SQWAVE" capture "${DEMO[@]}" -t 1s --trigger D7=r -o "$TMP/e.vcd" --json "$TMP/e.json" \
		> "$TMP/e.out" 2> "$TMP/e.err"
	rc=$?
	schema_ok "$TMP/e.json" || return 1
	if [ $rc -eq 0 ]; then
		[ "$(json "$TMP/e.json" '(d["samples"], d["ended_early"])')" = "(256000, False)" ] ||
			fail "$(cat "$TMP/e.json")"
		return
	fi
	[ $rc -eq 3 ] || fail "exit $rc: $(cat "$TMP/e.err")" || return 1
	python3 - "$TMP/e.json" <<'PY' || fail "$(cat "$TMP/e.json")" || return 1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ended_early"] and 0 < d["samples"] < 256000, d
assert "pattern" not in d["end_reason"], d["end_reason"]
assert d["covered_fraction"] == 1 and d["interruptions"][-1]["length_s"] is None, d
PY
	grep -q "ended early" "$TMP/e.out" || fail "$(cat "$TMP/e.out")" || return 1
	"$SQWAVE" analyze "$TMP/e.vcd" --channel D7 --quiet > /dev/null || fail "analyze of the early end"
}

# --cpu places the whole capture: every thread of the running process
# (libsigrok's and libusb's with the main one) is allowed the CPU asked
# alone, as /proc says, and the summary says the affinity read back.
test_cpu_keeps_every_thread_of_the_capture_on_the_cpus_asked() {
	need_sigrok || return $?
	local pid cpu t n=0 bad=
	cpu=$(python3 -c 'import os; s = sorted(os.sched_getaffinity(0)); print(s[-1] if len(s) > 1 else "")')
	[ -n "$cpu" ] || { echo "    (one CPU: pinned or not looks the same; skipped)"; return 77; }
	"$SQWAVE" capture "${DEMO[@]}" --cpu "$cpu" -o "$TMP/p.vcd" --json "$TMP/p.json" > "$TMP/p.out" \
		2> "$TMP/p.err" &
	pid=$!
	sleep 1
	for t in /proc/$pid/task/*/status; do
		n=$((n + 1))
		grep -q "^Cpus_allowed_list:[[:space:]]*$cpu\$" "$t" || bad="$bad $(grep -h '^Name\|^Cpus_allowed_list' "$t" | tr '\n\t' '  ')"
	done
	kill -INT $pid
	wait $pid || fail "exit $?: $(cat "$TMP/p.err")" || return 1
	[ $n -ge 2 ] || fail "only $n thread(s) seen in /proc/$pid/task" || return 1
	[ -z "$bad" ] || fail "threads not on CPU $cpu:$bad" || return 1
	schema_ok "$TMP/p.json" || return 1
	[ "$(json "$TMP/p.json" '(d["cpus"], d["cpus_asked"])')" = "('$cpu', '$cpu')" ] ||
		fail "$(cat "$TMP/p.json")" || return 1
	grep -q "^cpus         $cpu (--cpu)$" "$TMP/p.out" || fail "$(cat "$TMP/p.out")"
}

test_bad_requests_are_exit_2_and_an_unwritable_file_exit_3() {
	need_sigrok || return $?
	expect 2 "no such driver" -- capture --driver nosuch -o "$TMP/x.vcd" || return 1
	expect 2 "--channels D9" -- capture --driver demo -C D9 -o "$TMP/x.vcd" || return 1
	expect 2 "no option 'frobnicate'" -- capture --driver demo -c frobnicate=1 -o "$TMP/x.vcd" ||
		return 1
	expect 2 "--trigger" -- capture --driver demo --trigger D7=q -o "$TMP/x.vcd" || return 1
	expect 3 "$TMP/no/x.vcd" -- capture --driver demo -t 10ms -o "$TMP/no/x.vcd"
}

# The command line is the command's own: checked, exit 2 naming what is
# wrong, in a build with or without libsigrok (before the library's word).
test_a_bad_command_line_is_exit_2_naming_it_in_any_build() {
	expect 2 "--output is required" -- capture --driver demo || return 1
	expect 2 "--driver is required" -- capture -o "$TMP/x.vcd" || return 1
	expect 2 "--samplerate" -- capture --driver demo -r fast -o "$TMP/x.vcd" || return 1
	expect 2 "--threshold 'high'" -- capture --driver demo --threshold high -o "$TMP/x.vcd" ||
		return 1
	expect 2 "--cpu: CPU list \"2-1\" is not a list" -- capture --driver demo --cpu 2-1 -o "$TMP/x.vcd" ||
		return 1
	expect 2 "--cpu: CPU list \"1023\": CPU 1023 is not among" -- capture --driver demo --cpu 1023 \
		-o "$TMP/x.vcd" || return 1
	SQWAVE_CAPTURE_DROP=12 expect 2 "SQWAVE_CAPTURE_DROP" -- capture --driver demo -o "$TMP/x.vcd" ||
		return 1
	! grep -q "libsigrok" "$TMP/err" || fail "the library's word first: $(cat "$TMP/err")" || return 1
	[ ! -e "$TMP/x.vcd" ] || fail "a refused capture wrote $TMP/x.vcd"
}

# --version says what the build has, and it is the build make asked for.
test_the_version_says_whether_capture_drives_analyzers() {
	[ "$HAVE_SIGROK" != unknown ] || fail "no capture line in --version: $("$SQWAVE" --version)" ||
		return 1
	[ -z "${E2E_SIGROK:-}" ] || [ "$E2E_SIGROK" = "$HAVE_SIGROK" ] ||
		fail "built with SIGROK=$E2E_SIGROK, but ${SQWAVE_REAL:-$SQWAVE} says: $SIGROK_LINE" || return 1
	[ "$HAVE_SIGROK" = yes ] || case $SIGROK_LINE in *libsigrok-dev*rebuild*) ;;
		*) fail "--version does not say how to get libsigrok: $SIGROK_LINE" || return 1 ;; esac
}

# A build without libsigrok (make SIGROK=no, Debian's package): capture is
# there, refuses with exit 2 and says how to get the library, whatever the
# driver, and writes nothing.
test_without_libsigrok_the_command_says_how_to_get_it() {
	[ "$HAVE_SIGROK" = no ] || { echo "    (this build has libsigrok; skipped)"; return 77; }
	local d
	for d in demo fx2lafw:conn=1.5 nosuch; do
		expect 2 "built without libsigrok" "apt install libsigrok-dev" "rebuild" -- \
			capture --driver "$d" -t 1ms -o "$TMP/x.vcd" --json "$TMP/x.json" || return 1
		[ ! -s "$TMP/out" ] || fail "$d: a summary: $(cat "$TMP/out")" || return 1
		[ ! -e "$TMP/x.vcd" ] && [ ! -e "$TMP/x.json" ] || fail "$d: a file was written" || return 1
	done
}

# Reading a capture needs no libsigrok: the demo's D7 as sigrok-cli wrote
# it (tests/data/captures, 10 ms at 256 kHz) is the same known answer, the
# 500 us wave at 0 ppm, in a build with or without the library.
test_a_demo_capture_sigrok_cli_wrote_compares_at_0ppm_in_any_build() {
	python3 "$GENLOG" "$TMP/w20.sqwlog" --edges 20 --exact || return 1
	sq compare "$TMP/w20.sqwlog" "$ROOT/tests/data/captures/demo_gray256k.vcd" --channel D7 \
		--first-seq 0 --json "$TMP/g.json" || fail "compare: exit $?: $(head -c 600 "$TMP/err")" ||
		return 1
	python3 - "$TMP/g.json" <<'PY' || fail "$(cat "$TMP/g.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "agree", d["verdict"]
assert abs(d["alignment"]["drift_ppm"]) < 0.01, d["alignment"]["drift_ppm"]
assert d["edges"]["paired"] == 20, d["edges"]
c = d["coverage"]
assert (c["run_edges"], c["covered_edges"], c["fraction"], c["gaps"]) == (20, 20, 1, 0), c
PY
}

e2e_run --count-skips "capture e2e"
