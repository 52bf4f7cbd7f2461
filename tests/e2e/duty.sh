#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of a duty cycle and a phase (run.high, run.low,
# run.phase): every edge on its own slot with its slot's level, the pin's
# writes edge for edge against the log, widths per polarity, analyze,
# export and compare on such a log, refused combinations, and a 50 % wave
# left as it was. Timing is never asserted.
# Self-contained: SQWAVE=path/to/sqwave tests/e2e/duty.sh from the repository root.
. "$(dirname "$0")/lib.sh" sqwave-e2e-duty

# One 1 s run at 300 us high, 700 us low, 100 us phase, shared by several tests.
run_once() {
	[ -f "$TMP/d.sqwlog" ] && return 0
	"$SQWAVE" run --board "$BOARD" --high 300us --low 700us --phase 100us --duration 1s \
		--quiet --log "$TMP/d.sqwlog" --json "$TMP/d.json" \
		--set sim.history_file="$TMP/d.hist.csv" > "$TMP/d.out" 2> "$TMP/d.err" ||
		fail "sqwave run failed: $(cat "$TMP/d.err")" || return 1
	"$SQWAVE" export "$TMP/d.sqwlog" --csv "$TMP/d.csv" 2> "$TMP/d.exp.err" ||
		fail "export failed: $(cat "$TMP/d.exp.err")"
}

test_every_edge_is_on_its_slot_with_its_level_and_the_pin_agrees() {
	run_once || return 1
	python3 - "$HERE" "$TMP/d.sqwlog" "$TMP/d.csv" "$TMP/d.hist.csv" <<'PY' || return 1
import csv, sys
sys.path.insert(0, sys.argv[1])
import sqwlog
log = sqwlog.read(sys.argv[2])
meta = log["meta"]
H, L, P = 300000, 700000, 100000
assert int(meta["wave.high_ns"]) == H and int(meta["wave.low_ns"]) == L, meta
assert int(meta["wave.phase_ns"]) == P and meta["gpio.idle_level"] == "0"
assert log["half_period_ns"] == (H + L) // 2
start = log["start_ns"]
# slot 0 a quarter millisecond off the millisecond grid, plus the phase
assert start % 1000000 == 250000 + P, start
rows = list(csv.DictReader(open(sys.argv[3])))
assert len(rows) == len(log["edges"]) and rows, (len(rows), len(log["edges"]))
def slot_of(t):
    q, r = divmod(t - start, H + L)
    assert r in (0, H), f"intended {t} is off the 300/700 grid (remainder {r})"
    return 2 * q + (1 if r else 0)
prev = None
for r in rows:
    k, lvl, exp = slot_of(int(r["intended_ns"])), int(r["level"]), int(r["expirations"])
    assert lvl == (1 if k % 2 == 0 else 0), f"edge {r['seq']} slot {k} level {lvl}"
    assert exp % 2 == 1, f"edge {r['seq']}: expirations {exp} (a level is its slot's)"
    assert k + 1 - (prev + 1 if prev is not None else 0) == exp, (r, prev)
    prev = k
# 1 s of 1 ms periods: 2000 slots; the last edge returns to idle
assert prev + 1 >= 2000, prev  # one more to idle after a late last slot
assert int(rows[-1]["level"]) == 0
# the pin: one write per record, its level, inside its write window; after
# them only the release's write of the idle level
hist = [h for h in csv.DictReader(open(sys.argv[4])) if h["kind"] == "write"]
assert len(hist) >= len(rows), (len(hist), len(rows))
assert all(h["level"] == "0" for h in hist[len(rows):]), hist[len(rows):]
for h, r in zip(hist, rows):
    assert int(h["level"]) == int(r["level"]), (h, r)
    assert int(r["write_begin_ns"]) <= int(h["t_ns"]) <= int(r["write_end_ns"]), (h, r)
PY
}

test_widths_are_per_polarity_and_analyze_and_export_agree() {
	run_once || return 1
	"$SQWAVE" analyze "$TMP/d.sqwlog" --json "$TMP/d.an.json" > "$TMP/d.an.txt" \
		2> "$TMP/d.an.err" || fail "analyze: $(cat "$TMP/d.an.err")" || return 1
	grep -q "^wave       high 300.000 us, low 700.000 us (1000.000 Hz, 30.00 % high), phase 100.000 us" \
		"$TMP/d.an.txt" || fail "analyze's wave line: $(grep wave "$TMP/d.an.txt")" || return 1
	python3 - "$TMP/d.csv" "$TMP/d.json" "$TMP/d.an.json" <<'PY' || return 1
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
run, an = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
for doc in (run, an):
    assert doc["run"]["high_ns"] == 300000 and doc["run"]["low_ns"] == 700000, doc["run"]
    assert doc["run"]["phase_ns"] == 100000 and doc["run"]["half_period_ns"] == 500000
    assert doc["pulse_width"]["nominal_ns"] == {"positive": 300000, "negative": 700000}
# nominal widths per polarity: a high lasts 300 us on the grid, a low 700 us
pos = neg = 0
for a, b in zip(rows, rows[1:]):
    d = int(b["intended_ns"]) - int(a["intended_ns"])
    if int(b["expirations"]) == 1:
        assert d == (300000 if a["level"] == "1" else 700000), (a, b)
    if a["level"] == "1":
        pos += 1
    else:
        neg += 1
assert an["counts"]["edges"] == run["counts"]["edges"] == len(rows)
for k, n in (("positive", pos), ("negative", neg)):
    assert an["pulse_width"][k]["count"] == run["pulse_width"][k]["count"] == n, (k, n)
    for m in ("tmin", "tmax"):
        assert an["pulse_width"][k][m]["width_ns"] == run["pulse_width"][k][m]["width_ns"]
        seq = an["pulse_width"][k][m]["seq"]	# the edge that ends it
        assert rows[seq - 1]["level"] == ("1" if k == "positive" else "0"), (k, m, seq)
PY
	"$SQWAVE" export "$TMP/d.sqwlog" --vcd "$TMP/d.vcd" 2> "$TMP/d.vcd.err" ||
		fail "vcd: $(cat "$TMP/d.vcd.err")" || return 1
	[ "$(grep -c '^[01]' "$TMP/d.vcd")" -ge "$(($(wc -l < "$TMP/d.csv") - 1))" ] ||
		fail "the VCD has fewer changes than the log has edges" || return 1
}

# limits.width_error (docs/configuration.md's example): the verdict of the
# run and of analyze agree with each pulse's bounds recomputed from the CSV
# against its own level's time, whatever this machine did; analyze of the
# same log with a limit below any pulse's error fails it, one above passes.
test_width_error_judges_each_level_against_its_own_nominal() {
	run_once || return 1
	local lim
	for lim in 10us 1ms; do
		"$SQWAVE" analyze "$TMP/d.sqwlog" --max-width-error "$lim" --json "$TMP/we.json" \
			> /dev/null 2> "$TMP/we.err" || fail "analyze: $(cat "$TMP/we.err")" || return 1
		python3 - "$TMP/d.csv" "$TMP/we.json" "$lim" <<'PY' || return 1
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
an = json.load(open(sys.argv[2]))
lim = {"10us": 10000, "1ms": 1000000}[sys.argv[3]]
nom = {"1": 300000, "0": 700000}
assert an["pin"]["nominal_ns"] == {"positive": 300000, "negative": 700000}, an["pin"]
off = 0
for a, b in zip(rows, rows[1:]):
    if int(a["flags"]) & 1 or int(b["flags"]) & 1 or int(b["seq"]) != int(a["seq"]) + 1:
        continue	# warm-up and gaps are not counted pulses
    lo = int(b["write_begin_ns"]) - int(a["write_end_ns"])
    hi = int(b["write_end_ns"]) - int(a["write_begin_ns"])
    n = nom[a["level"]]
    off += lo < n - lim or hi > n + lim
v = an["verdict"]
assert v["width_error_ns"] == lim and v["pulses_off_nominal"] == off, (v, off)
assert (v["result"] == "FAIL") == (off > 0), (v["result"], off)
PY
	done
}

test_a_capture_of_the_duty_cycle_compares_clean() {
	run_once || return 1
	python3 "$HERE/synth_capture.py" "$TMP/d.csv" "$TMP/d.cap.vcd" --first 200 --count 600 \
		--seed 7 2>/dev/null || fail "synth_capture" || return 1
	"$SQWAVE" compare "$TMP/d.sqwlog" "$TMP/d.cap.vcd" --json "$TMP/d.cmp.json" \
		> "$TMP/d.cmp.out" 2> "$TMP/d.cmp.err"
	local rc=$?
	[ $rc -eq 0 ] || fail "compare exit $rc: $(cat "$TMP/d.cmp.out" "$TMP/d.cmp.err" | tail -5)" ||
		return 1
}

test_a_record_off_the_duty_grid_is_refused() {
	run_once || return 1
	# move record 10 by 200 us: on a 500 us grid's point, off the 300/700 one
	python3 - "$TMP/d.sqwlog" "$TMP/bad.sqwlog" <<'PY' || return 1
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
roff, = struct.unpack_from("<I", data, 16)
off = roff + 10 * 32 + 8
t, = struct.unpack_from("<Q", data, off)
struct.pack_into("<Q", data, off, t + 200000)
open(sys.argv[2], "wb").write(data)
PY
	"$SQWAVE" export "$TMP/bad.sqwlog" --csv "$TMP/bad.csv" 2> "$TMP/bad.err"
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc, expected 2" || return 1
	grep -q "record 10 .*not on the log's grid" "$TMP/bad.err" ||
		fail "$(cat "$TMP/bad.err")" || return 1
}

test_contradictory_combinations_exit_2_naming_the_origin() {
	local rc
	printf 'run:\n  half_period: 400us\n  high: 300us\n' > "$TMP/p.yaml"
	"$SQWAVE" run --board "$BOARD" --profile "$TMP/p.yaml" --low 700us --duration 1s \
		--log "$TMP/x.sqwlog" > /dev/null 2> "$TMP/x.err"
	rc=$?
	[ $rc -eq 2 ] || fail "half period: exit $rc" || return 1
	grep -q "run.high (300us, $TMP/p.yaml:3) and run.low (700us, command line) contradict run.half_period (400us, $TMP/p.yaml:2)" \
		"$TMP/x.err" || fail "$(cat "$TMP/x.err")" || return 1
	for args in "--high 300us --low 700us --phase 1ms:run.phase (1ms, command line) must be below the period" \
		    "--high 300us --spin 20us:and run.spin (20us, command line) do not go together" \
		    "--low 700us --loopback:run.low (700us, command line) and run.loopback" \
		    "--high 300us --low 700001ns:an even number of nanoseconds"; do
		# shellcheck disable=SC2086
		"$SQWAVE" run --board "$BOARD" ${args%%:*} --duration 1s --log "$TMP/x.sqwlog" \
			> /dev/null 2> "$TMP/x.err"
		rc=$?
		[ $rc -eq 2 ] || fail "${args%%:*}: exit $rc" || return 1
		grep -qF "${args#*:}" "$TMP/x.err" || fail "${args%%:*}: $(cat "$TMP/x.err")" ||
			return 1
	done
	[ ! -e "$TMP/x.sqwlog" ] || fail "a refused run wrote a log" || return 1
}

test_a_50_percent_wave_has_no_wave_keys_and_a_phase_alone_shifts_the_grid() {
	"$SQWAVE" run --board "$BOARD" --duration 1s --quiet --log "$TMP/s.sqwlog" \
		--json "$TMP/s.json" > /dev/null 2> "$TMP/s.err" || fail "$(cat "$TMP/s.err")" ||
		return 1
	"$SQWAVE" run --board "$BOARD" --phase 123us --duration 1s --quiet \
		--log "$TMP/ph.sqwlog" > /dev/null 2> "$TMP/ph.err" || fail "$(cat "$TMP/ph.err")" ||
		return 1
	"$SQWAVE" export "$TMP/ph.sqwlog" --csv "$TMP/ph.csv" || return 1
	python3 - "$HERE" "$TMP/s.sqwlog" "$TMP/s.json" "$TMP/ph.sqwlog" "$TMP/ph.csv" <<'PY' || return 1
import csv, json, sys
sys.path.insert(0, sys.argv[1])
import sqwlog
log = sqwlog.read(sys.argv[2])
assert not [k for k in log["meta"] if k.startswith("wave.")], log["meta"]
run = json.load(open(sys.argv[3]))
assert "high_ns" not in run["run"] and "nominal_ns" not in run["pulse_width"]
ph = sqwlog.read(sys.argv[4])
assert int(ph["meta"]["wave.phase_ns"]) == 123000
assert ph["start_ns"] % 1000000 == 250000 + 123000, ph["start_ns"]
for r in csv.DictReader(open(sys.argv[5])):
    assert (int(r["intended_ns"]) - ph["start_ns"]) % 500000 == 0, r
PY
}

cd "$ROOT" || exit 1
e2e_run "duty e2e"
