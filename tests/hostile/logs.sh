#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile logs and hostile runs: records no run can write, footers that lie,
# power-loss tails, damaged headers, stalls past 16 bits, control characters,
# signals at random moments, full disks, file-size limits, hostile YAML.
# Every input is generated here (loggen.py); every command runs under a
# memory limit (ulimit -v) and a timeout, never a timing assertion.
#   SQWAVE=build/sqwave tests/hostile/logs.sh      (SQW_TEST_SEED=N to repeat)
. "$(dirname "$0")/../e2e/lib.sh" sqwave-hostile-logs
GEN="python3 $HERE/loggen.py"
SEED=${SQW_TEST_SEED:-$RANDOM}
RANDOM=$SEED
echo "hostile logs: seed $SEED (SQW_TEST_SEED=$SEED to repeat)"
# Address-space limits (ulimit -v) bound memory; an ASan build reserves
# terabytes of shadow and cannot run under one: leave it unbounded there.
if grep -qa __asan_init "${SQWAVE_REAL:-$SQWAVE}" 2> /dev/null; then VMEM=unlimited; VBIG=unlimited; else VMEM=1048576; VBIG=262144; fi

# A log's record @i at a random place: 3 .. edges-3.
pick() { echo $((3 + RANDOM % ($1 - 6))); }

test_records_no_run_can_write_are_refused_naming_file_and_record() {
	local n=200 i k field val f
	# field:value pairs that break one rule each (docs/log-format.md)
	local cases=("intended:1000000000000" "we:100" "wb:4000" "level:2" "level:255" "exp:0"
		     "exp:3" "flags:1" "intended:1000000250001" "seq:1")
	for k in "${cases[@]}"; do
		for _ in 1 2; do
			i=$(pick $n)
			field=${k%%:*}
			val=${k#*:}
			f="$TMP/bad-$field-$i.sqwlog"
			$GEN "$f" --edges $n --set "$i:$field:$val" || return 1
			expect 2 "$f" "record $i " "corrupt" -- analyze "$f" --quiet || return 1
			expect 2 "$f" "record $i " -- export "$f" --csv "$TMP/x.csv" || return 1
			# the records before it were exported, and said so
			[ "$(($(wc -l < "$TMP/x.csv") - 1))" -eq "$i" ] ||
				fail "$k at $i: $(wc -l < "$TMP/x.csv") rows" || return 1
		done
	done
	# and --unchecked still gets every record out of a damaged log
	expect 0 -- export "$f" --unchecked --csv "$TMP/x.csv" || return 1
	[ "$(($(wc -l < "$TMP/x.csv") - 1))" -eq $n ] || fail "unchecked: not every record" || return 1
}

test_a_footer_that_lies_or_is_not_last_is_refused() {
	local n=100
	$GEN "$TMP/lie.sqwlog" --edges $n --footer-records $((n * 1000 + RANDOM)) || return 1
	expect 2 "lie.sqwlog" "the footer says" -- analyze "$TMP/lie.sqwlog" --quiet || return 1
	expect 2 "the footer says" -- export "$TMP/lie.sqwlog" --meta || return 1
	$GEN "$TMP/few.sqwlog" --edges $n --footer-records $((n - 1 - RANDOM % 50)) || return 1
	expect 2 "the footer says" -- analyze "$TMP/few.sqwlog" --quiet || return 1
	$GEN "$TMP/after.sqwlog" --edges $n --append "$(printf '%02x' $((1 + RANDOM % 255)))" || return 1
	expect 2 "data after the footer" -- analyze "$TMP/after.sqwlog" --quiet || return 1
	# a footer in the middle: a whole log's records after it
	$GEN "$TMP/a.sqwlog" --edges $n || return 1
	tail -c +97 "$TMP/a.sqwlog" | head -c $((32 * 10)) > "$TMP/tail"
	cat "$TMP/a.sqwlog" "$TMP/tail" > "$TMP/mid.sqwlog"
	expect 2 "data after the footer" -- analyze "$TMP/mid.sqwlog" --quiet || return 1
	expect 2 "data after the footer" -- export "$TMP/mid.sqwlog" --csv "$TMP/x.csv" || return 1
}

test_a_log_ending_in_zero_blocks_is_cut_short_not_edges() {
	local n=150 z
	for z in 4096 65536 $((32 * (1 + RANDOM % 300))) $((1 + RANDOM % 31)); do
		$GEN "$TMP/z.sqwlog" --edges $n --no-footer --zero-tail $z || return 1
		expect 0 "zero bytes" "truncated" -- analyze "$TMP/z.sqwlog" --quiet --json "$TMP/z.json" ||
			return 1
		python3 - "$TMP/z.json" $n $z <<'PY' || return 1
import json, sys
d, n, z = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
assert d["counts"]["records"] == n, d["counts"]
assert d["source"]["truncated"] is True and d["source"]["zero_bytes"] == z, d["source"]
assert d["counts"]["level_repeats"] == 0 and d["counts"]["missed_periods"] == 0
PY
		expect 0 "zero bytes" -- export "$TMP/z.sqwlog" --csv "$TMP/z.csv" || return 1
		[ "$(($(wc -l < "$TMP/z.csv") - 1))" -eq $n ] || fail "zero tail exported as records" || return 1
	done
	# zeros with data after them are no power loss
	$GEN "$TMP/zm.sqwlog" --edges $n --no-footer --zero-tail 4096 --append 0100000000000000 || return 1
	expect 2 "zero bytes at offset" -- analyze "$TMP/zm.sqwlog" --quiet || return 1
}

test_a_records_offset_with_a_flipped_bit_is_corrupt_never_0_records() {
	local bit off
	$GEN "$TMP/r.sqwlog" --edges 50 || return 1
	for bit in $(seq 5 31); do
		off=$((96 ^ (1 << bit)))
		$GEN "$TMP/rf.sqwlog" --edges 50 --records-offset $off || return 1
		expect 2 "corrupt" -- analyze "$TMP/rf.sqwlog" --quiet || return 1
		expect 2 "corrupt" -- export "$TMP/rf.sqwlog" --meta || return 1
	done
}

test_truncations_and_bit_flips_of_a_header_never_give_a_wrong_count() {
	local size cut byte bit rc
	$GEN "$TMP/h.sqwlog" --edges 40 || return 1
	size=$(stat -c %s "$TMP/h.sqwlog")
	for cut in $(seq 0 160) $((size - 64)) $((size - 1)); do
		head -c "$cut" "$TMP/h.sqwlog" > "$TMP/cut.sqwlog"
		sq export "$TMP/cut.sqwlog" --csv "$TMP/cut.csv"
		rc=$?
		[ $rc -eq 0 ] || [ $rc -eq 2 ] || fail "cut at $cut: exit $rc" || return 1
		if [ $rc -eq 0 ]; then
			grep -q truncated "$TMP/err" || [ "$cut" -eq "$size" ] ||
				fail "cut at $cut: exit 0 without a truncation warning" || return 1
		fi
	done
	python3 - "$TMP/h.sqwlog" "$TMP/flip.sqwlog" "$SQWAVE" <<'PY' || return 1
import random, subprocess, sys
src, dst, sq = sys.argv[1], sys.argv[2], sys.argv[3]
data = bytearray(open(src, "rb").read())
rng = random.Random(1)
places = list(range(0, 160 * 8)) + [rng.randrange(len(data) * 8) for _ in range(40)]
for b in places:
    d = bytearray(data)
    d[b // 8] ^= 1 << (b % 8)
    open(dst, "wb").write(d)
    p = subprocess.run([sq, "export", dst, "--meta"], capture_output=True, text=True, errors="replace", timeout=30)
    if p.returncode == 0:
        recs = [l for l in p.stdout.splitlines() if l.startswith("records=")]
        assert recs == ["records=40"], (b, recs, p.stderr[:300])
    else:
        assert p.returncode == 2, (b, p.returncode, p.stderr[:300])
        assert "flip.sqwlog" in p.stderr, (b, p.stderr[:300])
PY
}

test_a_stall_of_more_than_65535_periods_is_counted_in_full_everywhere() {
	local k=$((65536 + RANDOM * 4))
	$GEN "$TMP/st.sqwlog" --edges 300 --stall "150:$k" || return 1
	expect 0 -- analyze "$TMP/st.sqwlog" --json "$TMP/st.json" || return 1
	grep -q "missed     $((k - 1)) periods" "$TMP/out" || fail "text: $(grep missed "$TMP/out")" || return 1
	grep -q "saturated" "$TMP/out" && fail "a saturated count blamed on an offset" && return 1
	python3 - "$TMP/st.json" $((k - 1)) <<'PY' || return 1
import json, sys
d, want = json.load(open(sys.argv[1])), int(sys.argv[2])
assert d["counts"]["missed_periods"] == want, (d["counts"]["missed_periods"], want)
assert d["counts"]["saturated"] == 0
assert d["source"]["log"]["footer"]["missed_periods"] == want
assert d["missed"]["list"][0]["periods"] == want
assert d["wake_latency"]["max_ns"] >= want * 500000
PY
}

test_a_real_stall_past_16_bits_agrees_in_summary_footer_analyze_and_verdict() {
	# At a 1 us half period, 0.4 s stopped is ~400,000 periods in one stall.
	local pid rc
	# (no timeout wrapper: the signals must reach sqwave itself; --duration bounds it)
	( ulimit -v $VMEM; exec "$SQWAVE" run --board "$BOARD" --half-period 1us \
		--duration 2s --quiet --log "$TMP/stall.sqwlog" --json "$TMP/stall.json" \
		--set limits.missed_max=100000 ) > "$TMP/stall.out" 2> "$TMP/stall.err" &
	pid=$!
	# stopped while it runs (however long its start took), for 0.4 s
	python3 "$ROOT/tests/e2e/sqwlog.py" --wait-edges 1000 "$TMP/stall.sqwlog" $pid ||
		{ fail "no 1000 edges logged: $(head -c 400 "$TMP/stall.err")"; kill -KILL $pid; return 1; }
	kill -STOP $pid 2> /dev/null
	sleep 0.4
	kill -CONT $pid 2> /dev/null
	wait $pid
	rc=$?
	[ $rc -eq 1 ] || fail "exit $rc, expected 1 (limits.missed_max): $(head -c 400 "$TMP/stall.err")" || return 1
	grep -q "periods were missed, limits.missed_max is 100000" "$TMP/stall.out" ||
		fail "verdict does not name missed_max: $(grep -A3 verdict "$TMP/stall.out")" || return 1
	expect 0 -- analyze "$TMP/stall.sqwlog" --quiet --json "$TMP/stall.an.json" || return 1
	expect 0 -- export "$TMP/stall.sqwlog" --meta || return 1
	python3 - "$TMP/stall.json" "$TMP/stall.an.json" "$TMP/out" <<'PY' || return 1
import json, sys
run, an = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
meta = dict(l.split("=", 1) for l in open(sys.argv[3]).read().splitlines() if "=" in l)
total = run["counts"]["missed_periods"] + run["counts"]["warmup_missed_periods"]
assert run["counts"]["missed_periods"] > 100000, run["counts"]
assert int(meta["footer.missed_periods"]) == total, (meta["footer.missed_periods"], total)
assert an["counts"]["missed_periods"] == run["counts"]["missed_periods"]
# the stall's edge was late by all of it (1 us half periods)
assert an["wake_latency"]["max_ns"] > 65535 * 1000, an["wake_latency"]["max_ns"]
assert run["wake_latency"]["max_ns"] == an["wake_latency"]["max_ns"]
assert run["counts"]["saturated"] == 0 and an["counts"]["saturated"] == 0
PY
}

test_records_dropped_after_the_last_one_are_reported_from_the_footer() {
	local d=$((1 + RANDOM % 5000))
	$GEN "$TMP/dr.sqwlog" --edges 100 --drop-end $d || return 1
	expect 0 -- analyze "$TMP/dr.sqwlog" --json "$TMP/dr.json" || return 1
	grep -q "dropped    $d records, $d of them after the last record" "$TMP/out" ||
		fail "$(grep dropped "$TMP/out")" || return 1
	python3 -c "
import json; d = json.load(open('$TMP/dr.json'))
assert d['counts']['dropped'] == $d and d['counts']['dropped_at_end'] == $d, d['counts']" || return 1
}

test_control_characters_in_metadata_never_reach_the_terminal() {
	$GEN "$TMP/c.sqwlog" --meta 'board.name=evil\x1b]0;owned\x07\x1b[2J' \
		--meta 'run.board_file=\x1b[31mred.yaml' --meta 'host.kernel=\x9b6n' || return 1
	expect 0 -- analyze "$TMP/c.sqwlog" || return 1
	LC_ALL=C grep -q $'\x1b' "$TMP/out" && fail "ESC in analyze's text" && return 1
	grep -qF 'evil\x1b]0;owned\x07' "$TMP/out" || fail "board name not shown escaped" || return 1
	expect 0 -- export "$TMP/c.sqwlog" --meta || return 1
	LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$TMP/out" && fail "control bytes in export --meta" && return 1
	# a board file whose name would drive the terminal (check's header printed
	# it raw): refused where it is read, the message escaping it
	printf 'board:\n  name: "evil\\e]0;owned\\a"\ngpio:\n  backend: sim\n  chip: sim\n  line: 0\n' \
		> "$TMP/evil.yaml"
	expect 2 'evil.yaml:2:9: board.name must be one line of text without control characters' \
		-- run --board "$TMP/evil.yaml" --duration 20ms --quiet --log "$TMP/e.sqwlog" || return 1
	LC_ALL=C grep -q $'\x1b' "$TMP/out" "$TMP/err" && fail "ESC on the terminal" && return 1
	grep -qF 'evil\x1b]0;owned\x07' "$TMP/err" || fail "message: $(cat "$TMP/err")" || return 1
	[ ! -e "$TMP/e.sqwlog" ] || fail "a log was written" || return 1
}

test_events_are_exported_and_a_damaged_one_is_refused() {
	$GEN "$TMP/ev.sqwlog" --edges 50 --event '10:1:name=load\nduration=60s\n' \
		--event '20:6:text=a "quoted", comma' --event '20:2:load=stress\nstate=started\n' || return 1
	expect 0 -- export "$TMP/ev.sqwlog" --events "$TMP/ev.csv" --meta || return 1
	grep -q "^events=3$" "$TMP/out" && grep -q "^events.phase=1$" "$TMP/out" ||
		fail "counts: $(grep events "$TMP/out")" || return 1
	python3 - "$TMP/ev.csv" <<'PY' || return 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["type"] for r in rows] == ["phase", "phase", "note", "load", "load"], rows
assert rows[1]["key"] == "duration" and rows[1]["value"] == "60s"
assert rows[2]["value"] == 'a "quoted", comma', rows[2]
assert [r["event"] for r in rows] == ["0", "0", "1", "2", "2"]
PY
	# one payload byte changed: its CRC no longer matches
	python3 - "$TMP/ev.sqwlog" <<'PY' || return 1
import sys
p = sys.argv[1]
d = bytearray(open(p, "rb").read())
i = d.index(b"name=load")
d[i] ^= 0x20
open(p, "wb").write(d)
PY
	expect 2 "does not match its CRC" -- analyze "$TMP/ev.sqwlog" --quiet || return 1
	expect 2 "does not match its CRC" -- export "$TMP/ev.sqwlog" --events "$TMP/ev2.csv" || return 1
}

test_a_flipped_bit_in_an_event_time_or_type_is_refused_and_old_formats_read() {
	local v bit
	# format 3 (what sqwave writes): every bit of an event's time and type,
	# and of the footer's counts, is under a CRC
	$GEN "$TMP/t3.sqwlog" --edges 50 --event '10:1:name=idle\nduration=60s\n' \
		--event '30:3:busy=99\n' || return 1
	expect 0 -- export "$TMP/t3.sqwlog" --events "$TMP/t3.csv" --meta || return 1
	grep -q "^format_version=3$" "$TMP/out" || fail "not format 3: $(grep version "$TMP/out")" || return 1
	python3 - "$TMP/t3.sqwlog" "$TMP/t3f.sqwlog" "$SQWAVE" <<'PY' || return 1
import subprocess, sys
src, dst, sq = sys.argv[1], sys.argv[2], sys.argv[3]
d0 = bytes(open(src, "rb").read())
ev = d0.index(b"busy=99") - 32            # the sample event's header
places = [(ev + 8) * 8 + b for b in range(64)] + [(ev + 16) * 8 + b for b in range(16)]
places += [(len(d0) - 64 + 16) * 8 + b for b in range(40 * 8)]   # footer counts
for b in places:
    d = bytearray(d0)
    d[b // 8] ^= 1 << (b % 8)
    open(dst, "wb").write(d)
    p = subprocess.run([sq, "export", dst, "--events", "/dev/null"], capture_output=True,
                       text=True, errors="replace", timeout=30)
    assert p.returncode == 2, (b, p.returncode, p.stderr[:300])
    assert "corrupt" in p.stderr, (b, p.stderr[:300])
PY
	# formats 1 and 2, as older sqwave wrote them, still read
	for v in 1 2; do
		if [ $v = 2 ]; then
			$GEN "$TMP/t$v.sqwlog" --edges 50 --version $v --event '10:1:name=idle\n' || return 1
		else
			$GEN "$TMP/t$v.sqwlog" --edges 50 --version $v || return 1
		fi
		expect 0 -- export "$TMP/t$v.sqwlog" --csv "$TMP/t$v.csv" --meta || return 1
		grep -q "^format_version=$v$" "$TMP/out" && grep -q "^records=50$" "$TMP/out" ||
			fail "format $v: $(cat "$TMP/out")" || return 1
	done
	# a format-3 log whose version reads 2 has a CRC where 2 has none
	python3 - "$TMP/t3.sqwlog" "$TMP/t3v.sqwlog" <<'PY' || return 1
import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[8] = 2
open(sys.argv[2], "wb").write(d)
PY
	expect 2 "corrupt" -- export "$TMP/t3v.sqwlog" --meta || return 1
}

test_a_directory_is_bad_input_for_every_command() {
	mkdir -p "$TMP/dir.sqwlog"
	expect 2 "is a directory" -- analyze "$TMP/dir.sqwlog" || return 1
	expect 2 "is a directory" -- export "$TMP/dir.sqwlog" --meta || return 1
	expect 2 "is a directory" -- analyze "$TMP/dir.sqwlog" --format edges || return 1
}

test_a_time_jump_of_days_keeps_the_output_proportional() {
	# 300 edges, a stall of 3 days in the middle: the JSON lists rows with edges
	$GEN "$TMP/j.sqwlog" --edges 300 --stall "150:$((3 * 86400 * 2000))" || return 1
	expect 0 -- analyze "$TMP/j.sqwlog" --quiet --json "$TMP/j.json" --svg "$TMP/j.svg" \
		--csv "$TMP/j.csv" || return 1
	[ "$(stat -c %s "$TMP/j.json")" -lt 200000 ] ||
		fail "JSON of 300 edges is $(stat -c %s "$TMP/j.json") bytes" || return 1
}

test_a_stall_of_years_in_1ms_windows_costs_rows_not_time() {
	# 40 edges and one stall of 4e11 slots (6 years): 2e11 windows of 1 ms,
	# all but a few empty or stalled; every missed slot still in a window
	local k=400000000000
	$GEN "$TMP/y.sqwlog" --edges 40 --stall "20:$k" || return 1
	expect 0 -- analyze "$TMP/y.sqwlog" --window 1ms --json "$TMP/y.json" || return 1
	python3 - "$TMP/y.json" $((k - 1)) <<'PY' || fail "the windows do not add up" || return 1
import json, sys
d, want = json.load(open(sys.argv[1])), int(sys.argv[2])
w = d["windows"]
assert w["outside"] == 0, w["outside"]
rows = w["rows"]
# the slots of the stall: every window from the first missed slot's to the
# edge's; the windows of rows never overlap and are in order
assert sum(r["missed_periods"] for r in rows) == want == d["counts"]["missed_periods"]
assert sum(r["edges"] for r in rows) == 40, [r["edges"] for r in rows]
assert all(a["index"] + a["windows"] <= b["index"] for a, b in zip(rows, rows[1:]))
stall = [r for r in rows if r["windows"] > 1]
assert len(stall) == 1 and stall[0]["missed_periods"] == 2 * stall[0]["windows"], stall
assert w["worst"]["missed_periods"] == {"window": stall[0]["index"], "count": 2}, w["worst"]
assert w["count"] == rows[-1]["index"] + 1 and len(rows) < 50, (w["count"], len(rows))
PY
}

test_runs_stopped_at_random_moments_leave_readable_logs() {
	local sig delay i rc
	for i in 1 2 3; do
		case $((RANDOM % 3)) in 0) sig=INT ;; 1) sig=TERM ;; *) sig=KILL ;; esac
		delay=$(printf '0.%02d' $((RANDOM % 90 + 5)))
		( ulimit -v $VMEM; exec "$SQWAVE" run --board "$BOARD" --duration 30s \
			--quiet --log "$TMP/sig$i.sqwlog" ) > /dev/null 2>&1 &
		local pid=$!
		sleep "$delay"
		kill -$sig $pid 2> /dev/null
		wait $pid
		rc=$?
		[ $rc -ne 0 ] || fail "SIG$sig after ${delay}s: exit 0 from a 30 s run" || return 1
		[ -f "$TMP/sig$i.sqwlog" ] || continue	# stopped before the log existed
		sq export "$TMP/sig$i.sqwlog" --csv "$TMP/sig$i.csv"
		rc=$?
		# before the header was complete it is "cut short inside its header"
		# (2); killed between creating the file and writing to it, empty (2)
		[ $rc -eq 0 ] || { [ $rc -eq 2 ] && grep -q "inside its header\|empty file: no header" "$TMP/err"; } ||
			fail "SIG$sig after ${delay}s: export exit $rc: $(cat "$TMP/err")" || return 1
		if [ $rc -eq 0 ] && [ "$(wc -l < "$TMP/sig$i.csv")" -gt 1 ]; then
			python3 "$ROOT/tests/e2e/check_edges.py" "$TMP/sig$i.csv" --half-period 500000 ||
				fail "SIG$sig after ${delay}s: the records break an invariant" || return 1
		fi
	done
}

test_a_full_disk_and_a_file_size_limit_are_io_errors_keeping_the_log() {
	expect 3 "No space left" -- run --board "$BOARD" --duration 200ms --quiet --log /dev/full || return 1
	( ulimit -f 32; ulimit -v $VMEM; exec timeout 60 "$SQWAVE" run --board "$BOARD" \
		--duration 5s --quiet --log "$TMP/fs.sqwlog" ) > /dev/null 2> "$TMP/err"
	local rc=$?
	[ $rc -eq 3 ] || fail "file-size limit: exit $rc: $(cat "$TMP/err")" || return 1
	expect 0 "truncated" -- export "$TMP/fs.sqwlog" --csv "$TMP/fs.csv" || return 1
	[ "$(wc -l < "$TMP/fs.csv")" -gt 100 ] || fail "nothing kept" || return 1
	# an export that cannot grow is an I/O error too
	( ulimit -f 8; exec "$SQWAVE" export "$TMP/fs.sqwlog" --csv "$TMP/fs2.csv" ) 2> "$TMP/err"
	rc=$?
	[ $rc -eq 3 ] || fail "export over a file-size limit: exit $rc" || return 1
}

test_hostile_yaml_is_refused_with_file_and_line_in_bounded_memory() {
	local f
	printf 'board:\n  name: x\n%s\n' "$(python3 -c 'print("a: " + "[" * 5000 + "]" * 5000)')" > "$TMP/deep.yaml"
	python3 -c '
import sys
lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
for i in range(1, 30):
    lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 10) + "]")
open(sys.argv[1], "w").write("\n".join(lines) + "\n")' "$TMP/bomb.yaml"
	head -c 3000 /dev/urandom > "$TMP/binary.yaml"
	python3 -c 'import sys; open(sys.argv[1], "w").write("run:\n  duration: " + "9" * 100000 + "\n")' "$TMP/long.yaml"
	printf 'run:\n  half_period: 500us\n  half_period: 1ms\n' > "$TMP/dup.yaml"
	for f in deep bomb binary long dup; do
		sq run --board "$BOARD" --profile "$TMP/$f.yaml" --duration 20ms --quiet --log "$TMP/y.sqwlog"
		local rc=$?
		[ $rc -eq 2 ] || fail "$f.yaml: exit $rc, expected 2: $(head -c 300 "$TMP/err")" || return 1
		grep -q "$f.yaml" "$TMP/err" || fail "$f.yaml not named: $(head -c 300 "$TMP/err")" || return 1
	done
}

test_sim_num_lines_takes_its_whole_documented_range() {
	local n
	for n in 1 65 1024; do
		# (the sim board wires line 0 to line 1 and stimulates line 2: a
		# 1-line chip has neither wire nor stimulus)
		expect 0 -- run --board "$BOARD" --duration 20ms --quiet --set sim.num_lines=$n \
			--set gpio.line=$((n - 1)) --set sim.wire_line=-1 --set sim.stim_line=-1 \
			--log "$TMP/nl.sqwlog" ||
			return 1
		rm -f "$TMP"/nl.sqwlog*
	done
	sed 's/num_lines: 8/num_lines: 1025/' "$BOARD" > "$TMP/nl.yaml"
	expect 2 "nl.yaml:" "1024" -- run --board "$TMP/nl.yaml" --quiet || return 1
}

cd "$ROOT" || exit 1
e2e_run --subshell "hostile logs"
