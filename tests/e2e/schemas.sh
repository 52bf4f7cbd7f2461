#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The shipped JSON schemas (docs/schema) against sample documents of every
# kind, made here from short runs of the simulated board: each key renamed
# and each key removed in turn must be refused where the document is closed
# or the member always there (json_schema_rename.py), and every member a
# schema names must be named in its doc pages (json_schema_docs.py).
# Usage: SQWAVE=build/sqwave tests/e2e/schemas.sh   (prints PASS/FAIL lines)
. "$(dirname "$0")/lib.sh" sqwave-schemas
D=$TMP/docs
INST_PID=
# "capture: libsigrok VERSION" in --version: this build writes capture documents
HAVE_SIGROK=no
"$SQWAVE" --version 2> /dev/null | grep -q '^capture: libsigrok ' && HAVE_SIGROK=yes

# instrument NAME ARGS...: a scripted SCPI scope (scpi_instrument.py) of the
# pulses of a log, its target in $TARGET
instrument() {
	local name=$1
	shift
	python3 "$HERE/scpi_instrument.py" --ready "$TMP/$name.target" "$@" 2> "$TMP/$name.ierr" &
	INST_PID=$!
	for _ in $(seq 300); do
		[ -f "$TMP/$name.target" ] && break
		kill -0 "$INST_PID" 2> /dev/null || break
		sleep 0.1
	done
	[ -f "$TMP/$name.target" ] || fail "instrument: $(cat "$TMP/$name.ierr")" || return 1
	TARGET=$(cat "$TMP/$name.target")
}
stop_instrument() {
	[ -n "$INST_PID" ] || return 0
	kill "$INST_PID" 2> /dev/null
	wait "$INST_PID" 2> /dev/null
	INST_PID=
}
e2e_cleanup() { stop_instrument; }

# run NAME ARGS...: a sqwave command whose exit code may be 0 or 1 (a verdict)
run() {
	local name=$1 rc
	shift
	timeout -k 5 120 "$SQWAVE" "$@" > "$TMP/$name.out" 2> "$TMP/$name.err"
	rc=$?
	[ $rc -le 1 ] || fail "$name: sqwave $*: exit $rc: $(head -c 800 "$TMP/$name.err")"
}

# A sample of each document and of each kind of run that shapes it.
setup() {
	mkdir -p "$D"
	local at
	# summaries: a wave with limits, a duty cycle, two lines, a loopback, a
	# respond run, phases with a load
	run wave run --board "$BOARD" --duration 300ms --quiet --tmin 1us --tmax 1s \
		--log "$TMP/wave.sqwlog" --json "$D/summary-wave.json" \
		--set sim.history_file="$TMP/wave.csv" || return 1
	run duty run --board "$BOARD" --duration 300ms --quiet --high 300us --low 700us \
		--log "$TMP/duty.sqwlog" --json "$D/summary-duty.json" || return 1
	run lines run --board "$BOARD" --line 0,3 --duration 300ms --quiet \
		--log "$TMP/lines.sqwlog" --json "$D/summary-lines.json" || return 1
	run loop run --board "$BOARD" --duration 1s --loopback --quiet --set sim.wire_delay=20us \
		--log "$TMP/loop.sqwlog" --json "$D/summary-loopback.json" || return 1
	run resp respond --board "$BOARD" --duration 500ms --quiet --allow-non-rt \
		--set sim.history_file="$TMP/resp.csv" --max-response 1s \
		--log "$TMP/resp.sqwlog" --json "$D/summary-respond.json" || return 1
	cat > "$TMP/soak.yaml" <<'YAML'
run:
  half_period: 500us
  warmup: 100ms
  label: schemas
proof:
  idle_max_busy: 100
  min_busy: 1
phases:
  - name: idle
    duration: 300ms
  - name: loaded
    duration: 500ms
    load:
      - kind: stress-ng
        args: [--cpu, "1", --quiet]
limits:
  tmin: 1us
  tmax: 1s
YAML
	run soak run --board "$BOARD" --profile "$TMP/soak.yaml" --quiet \
		--log "$TMP/soak.sqwlog" --json "$D/summary-phases.json" || return 1
	# two boards on one realtime grid (a summary on a grid, and compare's boards)
	at=$(($(date +%s) + 3))
	for n in a b; do
		timeout -k 5 60 "$SQWAVE" run --board "$BOARD" --grid realtime --start-at "$at" \
			--duration 1s --quiet --log "$TMP/g$n.sqwlog" --json "$D/summary-grid-$n.json" \
			> "$TMP/g$n.out" 2>&1 &
	done
	wait || { fail "grid runs: $(cat "$TMP"/g?.out)"; return 1; }
	# analyses: of each log, of a timerlat log (no timerlat tracer here), of a capture
	for n in wave duty loop resp soak ga; do
		run "an-$n" analyze "$TMP/$n.sqwlog" --quiet --json "$D/analysis-$n.json" || return 1
	done
	python3 "$ROOT/tests/hostile/loggen.py" "$TMP/tl.sqwlog" --edges 40 \
		--meta rt.timer=timerlat --event "18:7:$(tl_payload)" || return 1
	run an-tl analyze "$TMP/tl.sqwlog" --quiet --json "$D/analysis-timerlat.json" || return 1
	# comparisons: a wave with scope readings, a loopback, a respond log, two
	# boards, two lines
	for n in wave loop ga gb; do
		"$SQWAVE" export "$TMP/$n.sqwlog" --csv "$TMP/$n.exp.csv" || return 1
	done
	python3 "$HERE/synth_capture.py" "$TMP/wave.exp.csv" "$TMP/wave.vcd" --first 11 \
		--count 200 --drift-ppm 37 --res-ns 10 --delete-pair 50 --glitch-after 101 \
		--seed 1 2> /dev/null || return 1
	run an-cap analyze "$TMP/wave.vcd" --quiet --json "$D/analysis-capture.json" || return 1
	run cmp-wave compare "$TMP/wave.sqwlog" "$TMP/wave.vcd" --scope-tmin 400us \
		--scope-tmax 600us --json "$D/compare-wave.json" || return 1
	python3 "$HERE/synth_capture.py" "$TMP/loop.exp.csv" "$TMP/loop.vcd" --first 301 \
		--count 1000 --res-ns 10 --delete-pair 500 --seed 7 2> /dev/null || return 1
	run cmp-loop compare "$TMP/loop.sqwlog" "$TMP/loop.vcd" --first-seq 301 \
		--json "$D/compare-loopback.json" ||
		return 1
	python3 "$HERE/resp_capture.py" "$TMP/resp.csv" "$TMP/resp.vcd" --offset-ns 3000000 \
		--res-ns 10 --drift-ppm 20 || return 1
	run cmp-resp compare "$TMP/resp.sqwlog" "$TMP/resp.vcd" --json "$D/compare-respond.json" ||
		return 1
	python3 "$HERE/synth_boards.py" "$TMP/ga.exp.csv" "$TMP/gb.exp.csv" "$TMP/boards.vcd" \
		--seed 1 --drift-ppm 23 --clock-b-ns 3000 2> /dev/null || return 1
	run cmp-boards compare "$TMP/ga.sqwlog" "$TMP/gb.sqwlog" "$TMP/boards.vcd" --max-skew 1ms \
		--json "$D/compare-boards.json" || return 1
	# two lines of one run, each on its own channel of one capture
	for n in 0 3; do
		"$SQWAVE" export "$TMP/lines.$n.sqwlog" --csv "$TMP/lines$n.csv" || return 1
	done
	python3 - "$TMP/lines0.csv" "$TMP/lines3.csv" "$TMP/lines.vcd" <<'PY' || return 1
import csv, sys
ev = sorted(((int(r["write_begin_ns"]) + int(r["write_end_ns"])) // 2, ch, r["level"])
            for ch, f in enumerate(sys.argv[1:3]) for r in csv.DictReader(open(f)))
with open(sys.argv[3], "w") as o:
    o.write("$timescale 1ns $end\n$scope module top $end\n$var wire 1 ! L0 $end\n"
            "$var wire 1 \" L3 $end\n$upscope $end\n$enddefinitions $end\n#0\n0!\n0\"\n")
    for t, ch, lv in ev:
        o.write("#%d\n%s%s\n" % (t - ev[0][0] + 1000, lv, "!\""[ch]))
PY
	run cmp-lines compare "$TMP/lines.0.sqwlog" "$TMP/lines.3.sqwlog" "$TMP/lines.vcd" \
		--channel-a L0 --channel-b L3 --json "$D/compare-lines.json" || return 1
	# a scope's reading (sqwave scope), compare against it, and a run that
	# read it at its end (the summary's instrument)
	instrument tek --dialect tek --log "$TMP/wave.sqwlog" || return 1
	run scope scope "$TARGET" --read --json "$D/scope.json" || return 1
	run cmp-scope compare "$TMP/wave.sqwlog" --scope "$TARGET" --json "$D/compare-scope.json" ||
		return 1
	stop_instrument
	: > "$TMP/live.sqwlog"
	instrument live --dialect siglent --live --log "$TMP/live.sqwlog" || return 1
	run live run --board "$BOARD" --duration 500ms --quiet --log "$TMP/live.sqwlog" \
		--json "$D/summary-scope.json" --scope "$TARGET" --scope-channel C1 || return 1
	stop_instrument
	# a capture of libsigrok's demo analyzer, where this build has libsigrok
	# (--version; test_a_capture_document_is_among_the_samples)
	if [ "$HAVE_SIGROK" = yes ]; then
		timeout -k 5 60 "$SQWAVE" capture --driver demo -c pattern=incremental -r 256k -t 200ms \
			-o "$TMP/demo.vcd" --json "$D/capture.json" > "$TMP/demo.out" 2> "$TMP/demo.err" ||
			fail "capture: $(cat "$TMP/demo.err")" || return 1
	fi
	# check: the board alone, and with a short run
	(cd "$TMP" && run check check --board "$BOARD" --json "$D/check.json") || return 1
	(cd "$TMP" && run check-run check --board "$BOARD" --run 300ms --json "$D/check-run.json") ||
		return 1
	# report and trend over the runs
	# with the instruments on the wave: a capture with scope readings, a scope read
	run report report "$D"/summary-*.json "$TMP/resp.sqwlog" "$D/compare-wave.json" \
		"$D/compare-scope.json" --json "$D/report.json" -q ||
		return 1
	run trend report --trend "$D"/summary-wave.json "$D"/summary-duty.json \
		"$D"/summary-respond.json "$TMP/soak.sqwlog" --json "$D/trend.json" -q || return 1
	# the regression verdict: a baseline against a new run, and a trend's steps
	run regress report --baseline "$TMP/wave.sqwlog" --baseline "$TMP/duty.sqwlog" \
		"$TMP/ga.sqwlog" "$TMP/gb.sqwlog" --json "$D/regress-baseline.json" -q || return 1
	run more run --board "$BOARD" --duration 300ms --quiet --log "$TMP/more.sqwlog" || return 1
	run steps report --trend --steps "$TMP"/{wave,ga,gb,loop,lines.0,more,live,duty}.sqwlog \
		--json "$D/regress-trend.json" -q || return 1
}

# The payload of one timerlat event: edges 0..9 with IRQ and thread latencies
tl_payload() {
	python3 - <<'PY'
import struct
out = b"".join(struct.pack("<Qii", 10**12 + 250000 + i * 500000, 1000 + i, 3000 + i)
               for i in range(10))
print("".join("\\x%02x" % b for b in out))
PY
}

test_every_sample_document_validates() {
	python3 "$HERE/json_schema_check.py" "$ROOT/docs/schema" "$D" > "$TMP/v.out" 2>&1 ||
		fail "$(cat "$TMP/v.out")"
}

# sqwave capture's document is checked where the build has libsigrok;
# without, a visible SKIP (capture.sh holds that build to its refusal).
test_a_capture_document_is_among_the_samples() {
	if [ "$HAVE_SIGROK" = no ]; then
		echo "    (no libsigrok in this build: no sqwave-capture document; skipped)"
		return 77
	fi
	grep -q '"schema": *"sqwave-capture"' "$D/capture.json" ||
		fail "no sqwave-capture document: $(head -c 300 "$D/capture.json")"
}

test_a_renamed_or_removed_key_is_refused_wherever_the_document_is_closed() {
	python3 "$HERE/json_schema_rename.py" "$ROOT/docs/schema" "$D" > "$TMP/r.out" 2>&1 ||
		fail "$(head -c 6000 "$TMP/r.out")"
}

# The member that says the kind decides what the summary must have: a
# respond run's respond, a loopback run's loopback, a grid run's grid, one
# of several lines' line; and a wave has no respond object.
test_each_run_kind_requires_its_own_member() {
	python3 - "$ROOT/docs/schema/sqwave-summary.schema.json" "$D" <<'PY' || return 1
import copy, json, os, sys
from jsonschema import Draft202012Validator
v = Draft202012Validator(json.load(open(sys.argv[1])))
doc = lambda n: json.load(open(os.path.join(sys.argv[2], n)))
bad = []
for n, key, value in (("summary-respond.json", "respond", None),
                      ("summary-respond.json", "respond", "gone"),
                      ("summary-loopback.json", "loopback", "gone"),
                      ("summary-grid-a.json", "grid", None),
                      ("summary-lines.0.json", "line", "gone"),
                      ("summary-wave.json", "respond", {})):
    d = doc(n)
    assert v.is_valid(d), n
    if value == "gone":
        del d[key]
    else:
        d[key] = value
    if v.is_valid(d):
        bad.append("%s with %s %s: accepted" % (n, key, "removed" if value == "gone" else json.dumps(value)))
# and the member of another kind is refused where the kind is not
d = doc("summary-wave.json")
d["line"] = doc("summary-lines.0.json")["line"]
if v.is_valid(d):
    bad.append("summary-wave.json with a line member: accepted")
assert not bad, "\n".join(bad)
PY
}

# The docs name every member and value the schemas do, and each top-level
# table lists the members of its document's top level, no more.
test_the_schemas_and_their_doc_pages_name_the_same_members() {
	python3 "$HERE/json_schema_docs.py" "$ROOT/docs/schema" "$ROOT/docs" > "$TMP/d.out" 2>&1 ||
		fail "$(cat "$TMP/d.out")"
}

if ! python3 -c 'import jsonschema' 2> /dev/null; then
	echo "SKIP schemas: no python3 jsonschema (install python3-jsonschema)"
	exit 0
fi
if ! setup; then
	echo "FAIL setup"
	exit 1
fi
e2e_run --count-skips "schemas e2e"
