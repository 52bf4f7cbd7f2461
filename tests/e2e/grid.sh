#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of grid.clock (docs/grid.md) on the simulated board: two
# sqwave processes on the same realtime grid (intended times equal to the
# nanosecond, levels in phase), the grid column of export, analyze agreeing
# with the summary, a logged clock step failing the verdict, and the
# refusals. A real step of the clock is made only inside the emulated ARM
# board (tests/vm), never here. Timing is never asserted.
# Self-contained: SQWAVE=path/to/sqwave tests/e2e/grid.sh from the
# repository root. Prints PASS/FAIL per test; exit 1 if any failed.
. "$(dirname "$0")/lib.sh" sqwave-e2e-grid
GEN="python3 $ROOT/tests/hostile/loggen.py"

# grid_run NAME ARGS...: a 1 s grid run of the sim into NAME.{sqwlog,json,csv}
grid_run() {
	local n=$1
	shift
	timeout -k 5 60 "$SQWAVE" run --board "$BOARD" --grid realtime --duration 1s --quiet \
		--log "$TMP/$n.sqwlog" --json "$TMP/$n.json" "$@" > "$TMP/$n.out" 2> "$TMP/$n.err"
}

# Every edge of each CSV on the shared grid: intended_grid_ns a whole number
# of half periods from the epoch, the header's offset from its intended_ns,
# expirations half periods after the edge before; high on even half periods
# (slot 0 on a whole second, a whole number of periods) until the first missed
# period (the line toggles per edge served: a missed slot shifts the phase,
# and is counted). With --same, both logs' edges are the same instants, seq
# for seq, up to the first period either missed.
check_grid() {
	python3 - "$@" <<'PY'
import csv, json, sys
same = "--same" in sys.argv
files = [a for a in sys.argv[1:] if a != "--same"]
half = 500000
grids = []
for base in files:
    s = json.load(open(base + ".json"))["grid"]
    assert s and s["clock"] == "realtime", (base, s)
    assert s["slot0_ns"] % 1000000000 == 0 or not s["align_ns"], s
    rows = list(csv.DictReader(open(base + ".csv")))
    assert len(rows) > 1000, (base, len(rows))
    g, clean = [], True
    for i, r in enumerate(rows):
        t = int(r["intended_grid_ns"])
        assert t == int(r["intended_ns"]) + s["offset_ns"], r
        assert t % half == 0, ("off the grid", base, r)
        # the first edge: slot 0, or the slot it was served in (expirations
        # from slot 0); then expirations half periods after the one before
        was = g[-1] if i else s["slot0_ns"] - half
        assert t - was == int(r["expirations"]) * half, ("not on the slots", base, r)
        clean = clean and r["expirations"] == "1"
        if clean:
            assert int(r["level"]) == (1 if (t // half) % 2 == 0 else 0), ("out of phase", base, r)
            g.append(t)
        else:
            g.append(t)
            break
    grids.append((s["slot0_ns"], g))
if same:
    (sa, a), (sb, b) = grids
    # the same slot 0; the slots both served until either missed one are the
    # same instants (a run may miss slot 0 itself on a loaded machine)
    assert sa == sb, ("two slots 0", sa, sb)
    common = sorted(set(a) & set(b))
    assert common and common == [t for t in a if t in set(b)], ("the runs' edges differ", a[:3], b[:3])
print(" ".join(str(len(g)) for _, g in grids))
PY
}

test_two_runs_started_apart_share_the_realtime_grid() {
	# two processes, the second started 0.3 s after the first: each puts slot 0
	# on a whole second, so every edge of both is on one 500 us grid, in phase
	grid_run a &
	local pa=$!
	sleep 0.3
	grid_run b
	local rb=$?
	wait $pa
	local ra=$?
	[ $ra -eq 0 ] && [ $rb -eq 0 ] || fail "exit $ra and $rb: $(cat "$TMP/a.err" "$TMP/b.err")" ||
		return 1
	"$SQWAVE" export "$TMP/a.sqwlog" --csv "$TMP/a.csv" &&
		"$SQWAVE" export "$TMP/b.sqwlog" --csv "$TMP/b.csv" || fail "export failed" || return 1
	check_grid "$TMP/a" "$TMP/b" > /dev/null || fail "not on one grid"
}

test_two_runs_given_one_start_have_the_same_edges_to_the_nanosecond() {
	# 4 to 5 s ahead: time for both to start on a busy machine
	local at=$(( $(date +%s) + 5 ))
	grid_run a --start-at "$at.25" &
	local pa=$!
	grid_run b --start-at "$at.25"
	local rb=$?
	wait $pa
	local ra=$?
	[ $ra -eq 0 ] && [ $rb -eq 0 ] || fail "exit $ra and $rb: $(cat "$TMP/a.err" "$TMP/b.err")" ||
		return 1
	"$SQWAVE" export "$TMP/a.sqwlog" --csv "$TMP/a.csv" &&
		"$SQWAVE" export "$TMP/b.sqwlog" --csv "$TMP/b.csv" || fail "export failed" || return 1
	python3 -c "import json,sys; g=json.load(open(sys.argv[1]))['grid']; \
assert g['slot0_ns'] == int(sys.argv[2]) * 10**9 + 250000000 and g['align_ns'] == 0, g" \
		"$TMP/a.json" "$at" || fail "slot 0 is not the given time" || return 1
	check_grid --same "$TMP/a" "$TMP/b" > /dev/null || fail "the runs' edges differ"
}

test_the_header_and_summary_record_the_grid_and_the_clock() {
	grid_run h || fail "exit $?: $(cat "$TMP/h.err")" || return 1
	"$SQWAVE" export "$TMP/h.sqwlog" --meta > "$TMP/h.meta" || return 1
	python3 - "$TMP/h.meta" "$TMP/h.json" <<'PY' || fail "header and summary disagree"
import json, sys
meta = dict(l.rstrip("\n").split("=", 1) for l in open(sys.argv[1]) if "=" in l)
g = json.load(open(sys.argv[2]))["grid"]
assert meta["grid.clock"] == "realtime" and meta["grid.align"] == "1s", meta
assert int(meta["grid.slot0_ns"]) == g["slot0_ns"], (meta, g)
assert int(meta["grid.offset_ns"]) == g["offset_ns"], (meta, g)
assert int(meta["grid.offset_uncertainty_ns"]) == g["offset_uncertainty_ns"], (meta, g)
# the realtime start of the header is slot 0 itself, not an estimate
assert int(meta["start_realtime_ns"]) == g["slot0_ns"], meta
assert int(meta["start_ns"]) + g["offset_ns"] == g["slot0_ns"], meta
assert meta["clock.synced"] == ("yes" if g["sync"]["synced"] else "no"), (meta, g)
assert int(meta["clock.tai_offset_s"]) == g["sync"]["tai_offset_s"]
assert g["steps"] == 0 and g["end_offset_ns"] is not None, g
PY
}

test_analyze_agrees_with_the_run_s_summary() {
	grid_run s --tmax 100ms || fail "exit $?: $(cat "$TMP/s.err")" || return 1
	"$SQWAVE" analyze "$TMP/s.sqwlog" --json "$TMP/s.an.json" > "$TMP/s.an.txt" 2>&1 ||
		fail "analyze: $(cat "$TMP/s.an.txt")" || return 1
	grep -q "^grid       realtime, slot 0 at" "$TMP/s.an.txt" || fail "no grid line" || return 1
	python3 - "$TMP/s.json" "$TMP/s.an.json" <<'PY' || fail "analyze and the summary disagree"
import json, sys
run, an = (json.load(open(p)) for p in sys.argv[1:])
assert run["grid"] == an["grid"], (run["grid"], an["grid"])
ck = [c for c in run["verdict"]["checks"] if c["name"] == "clock_steps"]
assert len(ck) == 1 and ck[0]["result"] == "pass" and ck[0]["observed"] == 0, ck
assert an["verdict"]["result"] == run["verdict"]["result"] == "PASS", (an["verdict"], run["verdict"])
PY
}

# A log as a grid run writes it, with a clock event that moved the grid.
step_log() {
	$GEN "$1" --edges 300 --meta grid.clock=realtime --meta grid.align=1s \
		--meta grid.slot0_ns=1796232600000000000 --meta grid.offset_ns=1796231599999750000 \
		--meta grid.offset_uncertainty_ns=40 --meta limits.tmax=1ms \
		--event "$2"
}

test_a_logged_clock_step_fails_the_verdict_and_is_shown() {
	step_log "$TMP/st.sqwlog" "150:8:source=kernel\nmoved=yes\ndelta_ns=3600000000000\noffset_ns=1799831599999750000\nuncertainty_ns=40\n" ||
		return 1
	# analyze reports (exit 0); its verdict is the run's, FAIL
	"$SQWAVE" analyze "$TMP/st.sqwlog" --json "$TMP/st.json" > "$TMP/st.txt" 2>&1 ||
		fail "analyze exit $?: $(cat "$TMP/st.txt")" || return 1
	grep -q "CLOCK STEPPED 1 time" "$TMP/st.txt" || fail "no step line: $(cat "$TMP/st.txt")" ||
		return 1
	python3 - "$TMP/st.json" <<'PY' || { fail "the step is not counted"; return 1; }
import json, sys
d = json.load(open(sys.argv[1]))
g = d["grid"]
assert g["steps"] == 1 and g["sets"] == 1 and g["step_largest_ns"] == 3600 * 10**9, g
# the event is at edge 150's intended time: 150 half periods after slot 0
assert abs(g["step_first_t_s"] - 0.075) < 1e-9, g
assert d["verdict"]["result"] == "FAIL", d["verdict"]
assert any("grid.clock realtime was stepped 1 time" in v for v in d["verdict"]["violations"]), d["verdict"]
PY
	# a set of the clock that moved nothing is a set, not a step
	step_log "$TMP/set.sqwlog" "150:8:source=kernel\nmoved=no\ndelta_ns=12\noffset_ns=1796231599999750012\nuncertainty_ns=40\n" ||
		return 1
	"$SQWAVE" analyze "$TMP/set.sqwlog" --json "$TMP/set.json" > "$TMP/set.txt" 2>&1 ||
		fail "a set that moved nothing failed: $(cat "$TMP/set.txt")" || return 1
	python3 -c "import json,sys; g=json.load(open(sys.argv[1]))['grid']; \
assert g['steps'] == 0 and g['sets'] == 1 and g['step_first_t_s'] is None, g" "$TMP/set.json" || fail "the set is miscounted"
}

# A step's size is its own to the last bit (the most negative int64 too,
# whose negation has no int64: it printed "+0"); a size that is no number,
# or steps that add up beyond int64, are no run's log (exit 2).
test_a_clock_step_is_its_own_size_never_0() {
	local ev="source=kernel\nmoved=yes\noffset_ns=1799831599999750000\nuncertainty_ns=40\n"
	step_log "$TMP/m.sqwlog" "150:8:delta_ns=-9223372036854775808\n$ev" || return 1
	"$SQWAVE" analyze "$TMP/m.sqwlog" --json "$TMP/m.json" > "$TMP/m.txt" 2>&1 ||
		fail "analyze exit $?: $(cat "$TMP/m.txt")" || return 1
	grep -q "by -9223372036854775808ns in all (largest -9223372036854775808ns)" "$TMP/m.txt" ||
		fail "the step's size: $(grep -i stepped "$TMP/m.txt")" || return 1
	python3 -c "import json,sys; g=json.load(open(sys.argv[1]))['grid']; \
assert g['steps'] == 1 and g['step_sum_ns'] == g['step_largest_ns'] == -2**63, g" "$TMP/m.json" ||
		fail "the JSON's step" || return 1
	step_log "$TMP/m2.sqwlog" "150:8:delta_ns=12x\n$ev" || return 1
	expect 2 "delta_ns that is not a number" -- analyze "$TMP/m2.sqwlog" || return 1
	$GEN "$TMP/m3.sqwlog" --edges 300 --meta grid.clock=realtime --meta grid.align=1s \
		--meta grid.slot0_ns=1796232600000000000 --meta grid.offset_ns=1796231599999750000 \
		--meta grid.offset_uncertainty_ns=40 --event "150:8:delta_ns=-9223372036854775808\n$ev" \
		--event "160:8:delta_ns=-5\n$ev" || return 1
	expect 2 "add up beyond" -- analyze "$TMP/m3.sqwlog"
}

test_a_grid_log_without_its_grid_is_refused() {
	$GEN "$TMP/bad.sqwlog" --edges 100 --meta grid.clock=realtime \
		--meta grid.offset_ns=5 --meta grid.offset_uncertainty_ns=40 || return 1
	expect 2 "grid.slot0_ns is missing" -- analyze "$TMP/bad.sqwlog" || return 1
	$GEN "$TMP/bad2.sqwlog" --edges 100 --meta grid.clock=realtime --meta grid.slot0_ns=1e9 \
		--meta grid.offset_ns=5 --meta grid.offset_uncertainty_ns=40 || return 1
	expect 2 "grid.slot0_ns is not a number" -- analyze "$TMP/bad2.sqwlog" || return 1
	# export refuses a bad offset (its CSV's intended_grid_ns) before it
	# opens an output, as analyze does
	$GEN "$TMP/bad3.sqwlog" --edges 100 --meta grid.clock=realtime \
		--meta grid.slot0_ns=1796232600000000000 --meta grid.offset_ns=12x \
		--meta grid.offset_uncertainty_ns=40 || return 1
	expect 2 "grid.offset_ns is not a number" -- export "$TMP/bad3.sqwlog" \
		--csv "$TMP/bad3.csv" --events "$TMP/bad3.ev" || return 1
	[ ! -e "$TMP/bad3.csv" ] && [ ! -e "$TMP/bad3.ev" ] ||
		fail "a refused export left an output" || return 1
	expect 2 "grid.offset_ns is not a number" -- analyze "$TMP/bad3.sqwlog"
}

# SIGINT while slot 0 is still 20 s ahead (--start-at): the run stops at
# once, its logs honest (header, footer, no edge, stopped by signal) and
# exit 130; one line and two written together. It waited for slot 0 and
# wrote two edges before.
test_a_signal_before_slot_0_stops_the_run_with_no_edge() {
	local args n at pid rc l first
	for args in "s1:--line 0" "s2:--line 0,3"; do
		n=${args%%:*}
		first=$TMP/$n.sqwlog
		[ "$n" = s2 ] && first=$TMP/$n.0.sqwlog
		at=$(($(date +%s) + 20))
		# shellcheck disable=SC2086 # the line option is two words
		"$SQWAVE" run --board "$BOARD" ${args#*:} --grid realtime --start-at "$at" \
			--duration 1s --quiet --log "$TMP/$n.sqwlog" > "$TMP/$n.out" 2> "$TMP/$n.err" &
		pid=$!
		for l in $(seq 100); do	# until the run has written its log header
			[ -s "$first" ] && break
			sleep 0.1
		done
		kill -INT $pid
		wait $pid
		rc=$?
		[ $rc -eq 130 ] || fail "$n: exit $rc, not 130: $(cat "$TMP/$n.err")" || return 1
		grep -q "stopping now, before the first edge" "$TMP/$n.err" ||
			fail "$n: $(cat "$TMP/$n.err")" || return 1
		for l in "$TMP/$n"*.sqwlog; do
			"$SQWAVE" export "$l" --meta > "$TMP/m" 2>&1 || fail "$l: $(cat "$TMP/m")" || return 1
			grep -q "^footer.records=0$" "$TMP/m" && grep -q "^footer.stop_reason=signal$" "$TMP/m" &&
				grep -q "^footer.exit_code=130$" "$TMP/m" ||
				fail "$l: $(grep '^footer' "$TMP/m")" || return 1
		done
	done
	[ "$(ls "$TMP"/s2.*.sqwlog | wc -l)" -eq 2 ] || fail "not two logs: $(ls "$TMP"/s2*)"
}

test_the_refusals_name_the_key_and_where_it_was_set() {
	expect 2 "grid.align (1s) must be a whole number of periods" "command line" -- \
		run --board "$BOARD" --grid realtime --half-period 300us --duration 1s \
		--log "$TMP/r1.sqwlog" --quiet || return 1
	[ ! -e "$TMP/r1.sqwlog" ] || fail "a refused run left a log" || return 1
	expect 2 "past or too close" -- run --board "$BOARD" --grid realtime \
		--start-at 2020-01-01T00:00:00Z --duration 1s --quiet --log "$TMP/r2.sqwlog" || return 1
	expect 2 "is not a time" -- run --board "$BOARD" --grid realtime --start-at tomorrow \
		--duration 1s --quiet --log "$TMP/r3.sqwlog" || return 1
	expect 2 "grid.start applies to a shared grid" -- run --board "$BOARD" \
		--start-at 2030-01-01T00:00:00Z --duration 1s --quiet --log "$TMP/r4.sqwlog" || return 1
	expect 2 "grid.clock" -- run --board "$BOARD" --grid utc --duration 1s --quiet || return 1
	expect 2 "timerlat" -- run --board "$BOARD" --grid realtime --timer timerlat --cpu 0 \
		--duration 1s --quiet --log "$TMP/r5.sqwlog" || return 1
	[ ! -e "$TMP/r5.sqwlog" ] || fail "a refused run left a log"
}

test_a_profile_s_bad_start_is_refused_at_its_line() {
	printf 'run:\n  duration: 1s\ngrid:\n  clock: realtime\n  start: "next tuesday"\n' \
		> "$TMP/p.yaml"
	expect 2 "p.yaml:5" "is not a time" -- run --board "$BOARD" --profile "$TMP/p.yaml" \
		--quiet --log "$TMP/p.sqwlog"
}

test_tai_without_the_kernel_s_offset_is_refused() {
	# the kernel's TAI offset, as a realtime run's summary records it
	grid_run tai0 --duration 10ms || fail "exit $?: $(cat "$TMP/tai0.err")" || return 1
	if ! python3 -c "import json,sys; \
sys.exit(json.load(open(sys.argv[1]))['grid']['sync']['tai_offset_s'] != 0)" "$TMP/tai0.json"; then
		echo "    this host has a TAI offset: nothing to refuse" >&2
		return 77
	fi
	expect 2 "TAI offset is 0" -- run --board "$BOARD" --grid tai --duration 1s --quiet \
		--log "$TMP/t.sqwlog" || return 1
	[ ! -e "$TMP/t.sqwlog" ] || fail "a refused run left a log"
}

test_every_grid_document_is_valid_against_the_schemas() {
	grid_run v || fail "exit $?: $(cat "$TMP/v.err")" || return 1
	"$SQWAVE" analyze "$TMP/v.sqwlog" --json "$TMP/v.an.json" > /dev/null 2>&1 || return 1
	python3 "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$TMP/v.json" \
		"$TMP/v.an.json" > "$TMP/v.schema" 2>&1 || fail "$(cat "$TMP/v.schema")"
}

cd "$ROOT" || exit 1
e2e_run --subshell "grid e2e"
