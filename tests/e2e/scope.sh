#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of `sqwave scope` and `compare --scope`: a simulated
# run, then a scripted SCPI instrument (scpi_instrument.py) of each family
# whose statistics are those of a sample of the run's pulses (acquisitions
# and dead time); what sqwave reads and how it judges the coverage, held
# against the instrument's truth and the tests' own exact arithmetic
# (scope_oracle.py). No real scope is involved: these test the protocol as
# the programming guides document it, not a scope.
# Usage: SQWAVE=build/sqwave tests/e2e/scope.sh   (prints PASS/FAIL lines)
. "$(dirname "$0")/lib.sh" sqwave-scope
SQWAVE_RUN=${SQWAVE_RUN:-$SQWAVE}
INST_PID=

# instrument NAME ARGS...: start the scripted instrument, its target in
# $TARGET and its truth in $TMP/NAME.truth
instrument() {
	local name=$1
	shift
	stop_instrument
	rm -f "$TMP/$name" "$TMP/$name.truth"
	python3 "$HERE/scpi_instrument.py" --log "${INST_LOG:-$TMP/run.sqwlog}" --ready "$TMP/$name" "$@" \
		2> "$TMP/$name.err" &
	INST_PID=$!
	for _ in $(seq 300); do
		[ -f "$TMP/$name" ] && break
		kill -0 "$INST_PID" 2> /dev/null || break
		sleep 0.1
	done
	[ -f "$TMP/$name" ] || fail "instrument did not start: $(cat "$TMP/$name.err")" || return 1
	TARGET=$(cat "$TMP/$name")
}
stop_instrument() {
	[ -n "$INST_PID" ] || return 0
	kill "$INST_PID" 2> /dev/null
	wait "$INST_PID" 2> /dev/null
	INST_PID=
}
e2e_cleanup() { stop_instrument; }
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

setup() {
	"$SQWAVE_RUN" run --board "$BOARD" --duration 3s --quiet --log "$TMP/run.sqwlog" \
		> /dev/null 2> "$TMP/run.err" || fail "run failed: $(cat "$TMP/run.err")"
}

test_each_family_is_set_up_and_read_as_its_guide_says() {
	local d
	for d in rigol-ds1000z rigol-mso5000 siglent keysight tek; do
		instrument "$d" --dialect "$d" --record 40 --dead 160 || return 1
		sq scope "$TARGET" --setup --channel CH1
		rc=$?
		[ $rc -eq 0 ] || fail "$d setup: $(cat "$TMP/err")" || return 1
		grep -q "statistics reset" "$TMP/out" || fail "$d: $(cat "$TMP/out")" || return 1
		sq scope "$TARGET" --read --json "$TMP/$d.json"
		rc=$?
		[ $rc -eq 0 ] || fail "$d read: $(cat "$TMP/err")" || return 1
		python3 - "$TMP/$d.json" "$TMP/$d.truth" "$d" <<'PY' || return 1
import json, sys
d, t, name = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
assert d["schema"] == "sqwave-scope" and d["channel"] == 1, d
for pol in ("pos", "neg"):
    s, want = d[pol + "_width"], t["sample"][pol]
    assert s["valid"], (name, s)
    # the families print 7 significant digits at least (%e): within one
    # unit of the 7th (a stall of 10 ms and more is printed to 10 ns)
    for k in ("min", "max"):
        got, w = s[k + "_s"] * 1e9, want[k + "_ns"]
        assert abs(got - w) <= max(1, 1e-6 * w), (name, k, s, want)
    if name == "rigol-ds1000z":
        assert s["count"] is None and "no count" in s["note"], s
    else:
        assert s["count"] == want["count"], (name, s, want)
PY
	done
	stop_instrument
	python3 "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$TMP"/rigol-*.json \
		"$TMP/siglent.json" "$TMP/keysight.json" "$TMP/tek.json" > /dev/null ||
		fail "a document breaks docs/schema/sqwave-scope.schema.json" || return 1
}

test_a_scope_that_saw_every_pulse_agrees_and_says_so() {
	instrument full --dialect tek || return 1
	sq compare "$TMP/run.sqwlog" --scope "$TARGET" --json "$TMP/full.json"
	rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/out" "$TMP/err")" || return 1
	python3 - "$TMP/full.json" "$TMP/full.truth" <<'PY' || return 1
import json, sys
d, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for r in d["scope"]["readings"]:
    p = r["prediction"]
    assert p["status"] == "ok" and p["coverage"] == 1 and p["p_caught_extreme"] == 1, r
    assert r["agrees"], r
PY
	grep -q "the chance it caught the run's longest pulse is 100 %" "$TMP/out" ||
		fail "no coverage sentence: $(cat "$TMP/out")" || return 1
	stop_instrument
}

test_a_sample_with_dead_time_is_judged_by_the_exact_law() {
	instrument dead --dialect keysight --record 30 --dead 270 || return 1
	sq compare "$TMP/run.sqwlog" --scope "$TARGET" --json "$TMP/dead.json" \
		--junit "$TMP/dead.xml" --results "$TMP/dead.txt"
	rc=$?
	[ $rc -le 1 ] || fail "exit $rc: $(cat "$TMP/err")" || return 1
	python3 "$HERE/instrument_cases.py" "$TMP/dead.json" --junit "$TMP/dead.xml" \
		--results "$TMP/dead.txt" --exit $rc || fail "compare's CI documents" || return 1
	python3 "$HERE/scope_oracle.py" "$TMP/dead.truth" "$TMP/dead.json" > /dev/null ||
		return 1
	python3 "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$TMP/dead.json" \
		> /dev/null || fail "breaks docs/schema/sqwave-compare.schema.json" || return 1
	grep -q "the scope measured [0-9,]* of [0-9,]* positive pulses ([0-9.]* %)" "$TMP/out" ||
		fail "no coverage in words: $(cat "$TMP/out")" || return 1
	stop_instrument
}

test_a_count_typed_from_the_screen_gets_the_same_statement() {
	local a
	instrument typed --dialect siglent --record 30 --dead 270 || return 1
	sq compare "$TMP/run.sqwlog" --scope "$TARGET" --json "$TMP/live.json"
	stop_instrument
	a=$(python3 -c "
import json; t = json.load(open('$TMP/typed.truth'))['sample']
print('--scope-pos-tmin %dns --scope-pos-tmax %dns --scope-neg-tmin %dns --scope-neg-tmax %dns'
      ' --scope-pos-count %d --scope-neg-count %d' % (t['pos']['min_ns'], t['pos']['max_ns'],
      t['neg']['min_ns'], t['neg']['max_ns'], t['pos']['count'], t['neg']['count']))")
	# shellcheck disable=SC2086  # the options, word by word
	sq compare "$TMP/run.sqwlog" $a --json "$TMP/typed.json"
	python3 - "$TMP/live.json" "$TMP/typed.json" <<'PY' || return 1
import json, sys
a, b = (json.load(open(f))["scope"]["readings"] for f in sys.argv[1:])
assert [r["prediction"] for r in a] == [r["prediction"] for r in b], (a, b)
assert [r["agrees"] for r in a] == [r["agrees"] for r in b]
PY
}

test_a_shifted_tmax_is_disagree_with_the_reason() {
	# the instrument reports a +width max 5 ms beyond any pulse the run made
	instrument shift --dialect rigol-mso5000 --record 30 --dead 270 --shift-tmax 5000000 ||
		return 1
	sq compare "$TMP/run.sqwlog" --scope "$TARGET" --json "$TMP/shift.json"
	rc=$?
	[ $rc -eq 1 ] || fail "exit $rc, expected 1: $(cat "$TMP/out" "$TMP/err")" || return 1
	grep -q "DISAGREE: the reading .* lies above it .*: no pulse of the run lies there" \
		"$TMP/out" || fail "no reason: $(cat "$TMP/out")" || return 1
	[ "$(jget "$TMP/shift.json" 'd["verdict"]')" = disagree ] || fail "verdict" || return 1
	python3 "$HERE/scope_oracle.py" "$TMP/shift.truth" "$TMP/shift.json" > /dev/null ||
		return 1
	stop_instrument
}

test_an_unknown_count_is_said_and_only_the_bounds_judge() {
	instrument nocount --dialect rigol-ds1000z || return 1
	sq compare "$TMP/run.sqwlog" --scope "$TARGET" --json "$TMP/nocount.json"
	rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/out" "$TMP/err")" || return 1
	grep -q "count is unknown (the DS1000Z gives no count.*the interval cannot be given" \
		"$TMP/out" || fail "not said: $(cat "$TMP/out")" || return 1
	[ "$(jget "$TMP/nocount.json" '[(r["count"], r["prediction"]) for r in d["scope"]["readings"]]')" = \
		"[(None, None), (None, None), (None, None), (None, None)]" ] ||
		fail "count or prediction given" || return 1
	stop_instrument
}

test_a_model_without_the_count_query_says_the_instruments_error() {
	instrument nocnt --dialect rigol-mso5000 --no-cnt || return 1
	sq scope "$TARGET" --read --timeout 1s --json "$TMP/nocnt.json"
	rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/err")" || return 1
	jget "$TMP/nocnt.json" 'd["pos_width"]["note"]' | grep -q 'Undefined header' ||
		fail "note: $(jget "$TMP/nocnt.json" 'd["pos_width"]')" || return 1
	stop_instrument
}

test_invalid_readings_and_a_silent_scope_are_errors_not_numbers() {
	instrument invalid --dialect rigol-mso5000 --invalid || return 1
	sq scope "$TARGET" --read
	rc=$?
	[ $rc -eq 0 ] || fail "read exit $rc" || return 1
	grep -q "+width   invalid" "$TMP/out" || fail "$(cat "$TMP/out")" || return 1
	sq compare "$TMP/run.sqwlog" --scope "$TARGET"
	rc=$?
	[ $rc -eq 3 ] || fail "compare exit $rc, expected 3" || return 1
	grep -q "no valid width statistics" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	instrument mute --dialect siglent --mute || return 1
	sq scope "$TARGET" --setup --timeout 1s
	rc=$?
	[ $rc -eq 3 ] || fail "mute exit $rc, expected 3" || return 1
	grep -q "no reply to '\*OPC?' within 1.0 s" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	stop_instrument
}

test_a_device_file_is_read_like_a_socket() {
	instrument dev --dialect tek --pty || return 1
	sq scope "$TARGET" --read --json "$TMP/dev.json"
	rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/err")" || return 1
	python3 - "$TMP/dev.json" "$TMP/dev.truth" <<'PY' || return 1
import json, sys
d, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert d["pos_width"]["count"] == t["sample"]["pos"]["count"], (d, t["sample"])
PY
	stop_instrument
}

# typed_from_log LOG: compare's options for the reading run --scope logged
# (its "read" note), as a user would type them from the screen
typed_from_log() {
	python3 - "$1" "$HERE" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
import sqwlog
n = [e["kv"] for e in sqwlog.read(sys.argv[1])["events"]
     if e["type"] == "note" and e["kv"].get("phase") == "read"][0]
print(" ".join("--scope-%s-tmin %sns --scope-%s-tmax %sns --scope-%s-count %s" % (
    p, n[p + "_min_ns"], p, n[p + "_max_ns"], p, n[p + "_count"]) for p in ("pos", "neg")))
PY
}

# own_failed SUMMARY: "--own-failed" when a check of the run's own failed
own_failed() {
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))['verdict']['checks']
print('--own-failed' if any(c['result'] == 'fail' and not c['instrument'] for c in d) else '')" "$1"
}

# run_scope_documents NAME RC: the run's summary, JUnit and result.txt
# ($TMP/NAME.json, .xml, .txt) carry the scope's checks exactly as
# `compare LOG` with the logged reading typed in works them out, and the
# run's exit code RC follows them (instrument_cases.py)
run_scope_documents() {
	local name=$1 rc=$2 typed
	typed=$(typed_from_log "$TMP/$name.sqwlog") || fail "no reading logged" || return 1
	# shellcheck disable=SC2086  # the options, word by word
	"$SQWAVE" compare "$TMP/$name.sqwlog" $typed --json "$TMP/$name-cmp.json" > /dev/null 2>&1
	# shellcheck disable=SC2046  # one option or none
	python3 "$HERE/instrument_cases.py" "$TMP/$name-cmp.json" --summary "$TMP/$name.json" \
		--junit "$TMP/$name.xml" --results "$TMP/$name.txt" --exit "$rc" \
		$(own_failed "$TMP/$name.json") || fail "the run's documents and compare differ" ||
		return 1
	python3 "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$TMP/$name.json" \
		> /dev/null || fail "the summary breaks its schema" || return 1
	python3 "$HERE/xunit_rules.py" "$TMP/$name.xml" > /dev/null ||
		fail "the JUnit breaks the xunit rules" || return 1
}

test_run_scope_resets_after_the_warm_up_reads_at_the_end_logs_and_judges() {
	local rc
	# the instrument reads the log the run is writing when first asked for
	# statistics (at the end), so its sample is of this run's pulses
	: > "$TMP/live.sqwlog"
	INST_LOG=$TMP/live.sqwlog instrument live --dialect siglent --live --record 30 --dead 270 ||
		return 1
	sq run --board "$BOARD" --duration 3s --set run.warmup=300ms --quiet \
		--log "$TMP/live.sqwlog" --json "$TMP/live-summary.json" --scope "$TARGET" \
		--scope-channel C1 --junit "$TMP/live.xml" --results "$TMP/live.txt"
	# the run's own verdict is not under test here (a busy machine may
	# fail a limit); the run must have happened
	rc=$?
	[ $rc -le 1 ] || fail "run exit $rc: $(cat "$TMP/err")" || return 1
	stop_instrument
	grep -q "the scope measured .* of .* positive pulses" "$TMP/out" ||
		fail "no judgement after the summary: $(tail -n 30 "$TMP/out")" || return 1
	python3 - "$TMP/live.sqwlog" "$TMP/live.truth" "$HERE" <<'PY' || return 1
import json, sys
sys.path.insert(0, sys.argv[3])
import sqwlog
log, truth = sqwlog.read(sys.argv[1]), json.load(open(sys.argv[2]))
notes = [e["kv"] for e in log["events"] if e["type"] == "note" and
         e["kv"].get("instrument") == "scope"]
assert [n["phase"] for n in notes] == ["setup", "read"], notes
setup = [e for e in log["events"] if e["type"] == "note" and e["kv"].get("phase") == "setup"][0]
first_counted = min(e[1] for e in log["edges"] if not e[7] & 0x01)
# reset when the counted edges had begun, never in the warm-up
assert setup["t_ns"] >= first_counted, (setup["t_ns"], first_counted)
r = notes[1]
assert r["dialect"] == "siglent-sds" and r["channel"] == "1", r
for pol in ("pos", "neg"):
    assert int(r[pol + "_count"]) == truth["sample"][pol]["count"], (r, truth["sample"])
    assert int(r[pol + "_max_ns"]) == truth["sample"][pol]["max_ns"], (r, truth["sample"])
# the summary carries the same notes
summary = json.load(open(sys.argv[1].replace(".sqwlog", "-summary.json")))
assert summary["instrument"] == {"setup": notes[0], "read": notes[1]}, summary["instrument"]
PY
	cp "$TMP/live-summary.json" "$TMP/live.json"
	run_scope_documents live "$rc" || return 1
}

test_a_scope_that_disagrees_fails_the_run_in_every_document() {
	local rc word
	# a +width max 5 ms beyond any pulse the run made: not this run's pulse
	: > "$TMP/dis.sqwlog"
	INST_LOG=$TMP/dis.sqwlog instrument dis --dialect keysight --live --record 30 --dead 270 \
		--shift-tmax 5000000 || return 1
	sq run --board "$BOARD" --duration 2s --set run.warmup=300ms --quiet \
		--log "$TMP/dis.sqwlog" --json "$TMP/dis.json" --junit "$TMP/dis.xml" \
		--results "$TMP/dis.txt" --kcidb "$TMP/dis-kcidb.json" --scope "$TARGET"
	rc=$?
	stop_instrument
	[ $rc -eq 1 ] || fail "run exit $rc, expected 1: $(cat "$TMP/err")" || return 1
	run_scope_documents dis "$rc" || return 1
	grep -q "^scope.tmax_pos fail " "$TMP/dis.txt" || fail "$(cat "$TMP/dis.txt")" || return 1
	# KCIDB: every check of the summary a v5 test, the scope's with them
	if python3 -c 'import jsonschema' 2> /dev/null; then
		python3 "$HERE/kcidb_check.py" "$ROOT/tests/data/kcidb/kcidb-v5.3-tests.schema.json" \
			"$TMP/dis-kcidb.json" sqwave "0=$TMP/dis.json" > /dev/null ||
			fail "the KCIDB tests" || return 1
		grep -q '"path": *"sqwave.line[^"]*.scope.tmax_pos"' "$TMP/dis-kcidb.json" ||
			fail "no scope test in KCIDB" || return 1
	fi
	grep -q 'name="scope.tmax_pos"' "$TMP/dis.xml" &&
		grep -q 'type="instrument disagrees"' "$TMP/dis.xml" ||
		fail "no failing case in the JUnit" || return 1
	# the word says who disagreed, unless the run failed on its own too
	word=$(jget "$TMP/dis.json" 'd["verdict"]["result"]')
	if [ -n "$(own_failed "$TMP/dis.json")" ]; then
		[ "$word" = FAIL ] || fail "verdict $word with the run's own failures" || return 1
	else
		[ "$word" = "INSTRUMENT DISAGREES" ] || fail "verdict $word" || return 1
	fi
	grep -q "^verdict    $word" "$TMP/out" && grep -q "^  - the scope's Tmax .*DISAGREE" "$TMP/out" ||
		fail "the summary's text: $(grep -A3 '^verdict' "$TMP/out")" || return 1
}

test_a_run_whose_scope_cannot_be_read_says_so_in_its_documents() {
	local rc
	# nothing listens there: the setup fails, the run goes on, and its
	# documents say the reading was not judged (skipped), not that it passed
	sq run --board "$BOARD" --duration 1s --set run.warmup=100ms --quiet \
		--log "$TMP/none.sqwlog" --json "$TMP/none.json" --results "$TMP/none.txt" \
		--scope 127.0.0.1:9
	rc=$?
	[ $rc -le 1 ] || fail "run exit $rc: $(cat "$TMP/err")" || return 1
	grep -q "^scope.reading skip$" "$TMP/none.txt" || fail "$(cat "$TMP/none.txt")" || return 1
	[ "$(jget "$TMP/none.json" '[(c["name"], c["result"]) for c in d["verdict"]["checks"] if c["instrument"]]')" \
		= "[('reading', 'skip')]" ] || fail "summary checks" || return 1
}

test_bad_input_is_exit_2() {
	sq scope 127.0.0.1:1 --read --channel D0
	rc=$?
	[ $rc -eq 2 ] || fail "channel D0" || return 1
	sq scope 127.0.0.1:1
	rc=$?
	[ $rc -eq 2 ] || fail "neither --setup nor --read" || return 1
	sq compare "$TMP/run.sqwlog" --scope 127.0.0.1:1 --scope-tmax 500
	rc=$?
	[ $rc -eq 2 ] || fail "--scope with typed readings" || return 1
	sq compare "$TMP/run.sqwlog" --scope-count 10
	rc=$?
	[ $rc -eq 2 ] || fail "a count without readings" || return 1
}

test_the_board_build_names_scope_a_lab_command() {
	[ -n "${SQWAVE_BOARD:-}" ] || return 77
	"$SQWAVE_BOARD" scope 127.0.0.1 --read > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ $rc -eq 2 ] || fail "exit $rc" || return 1
	grep -qi "lab" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	"$SQWAVE_BOARD" run --board "$BOARD" --duration 1s --scope 127.0.0.1 > "$TMP/out" \
		2> "$TMP/err"
	rc=$?
	[ $rc -eq 2 ] || fail "run --scope exit $rc" || return 1
	grep -q "the full build" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
}

if ! setup; then
	echo "FAIL setup"
	exit 1
fi
e2e_run "scope e2e"
