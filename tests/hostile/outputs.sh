#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Careless outputs: an output that is an input (by any name), two outputs on
# one file, two runs on one log, an old log in the way, FIFOs, a full
# standard output, full disks. Nothing may be destroyed, nothing may hang
# with the stop signals blocked, no lost result may exit 0.
#   SQWAVE=build/sqwave tests/hostile/outputs.sh
. "$(dirname "$0")/../e2e/lib.sh" sqwave-hostile-outputs
GEN="python3 $ROOT/tests/hostile/loggen.py"
# Address-space limits (ulimit -v) bound memory; an ASan build reserves
# terabytes of shadow and cannot run under one: leave it unbounded there.
if grep -qa __asan_init "${SQWAVE_REAL:-$SQWAVE}" 2> /dev/null; then VMEM=unlimited; VBIG=unlimited; else VMEM=1048576; VBIG=262144; fi

sum() { sha256sum "$1" | cut -d' ' -f1; }

test_an_output_over_the_input_is_refused_before_anything_is_written() {
	local s opt name
	$GEN "$TMP/run.sqwlog" --edges 500 || return 1
	"$SQWAVE" export "$TMP/run.sqwlog" --csv "$TMP/edges.csv" || return 1
	printf '$timescale 1ns $end\n$var wire 1 ! D0 $end\n$enddefinitions $end\n#0\n0!\n#500000\n1!\n#1000000\n0!\n#1500000\n1!\n' \
		> "$TMP/cap.vcd"
	ln "$TMP/run.sqwlog" "$TMP/hard.sqwlog"
	ln -s "$TMP/cap.vcd" "$TMP/soft.vcd"
	for name in run.sqwlog edges.csv cap.vcd; do
		s=$(sum "$TMP/$name")
		for opt in --csv --json --svg --histogram; do
			expect 2 "refusing to overwrite" -- analyze "$TMP/$name" --quiet $opt "$TMP/$name" || return 1
			[ "$(sum "$TMP/$name")" = "$s" ] || fail "$name changed by analyze $opt" || return 1
		done
	done
	expect 2 "refusing to overwrite" -- analyze "$TMP/cap.vcd" --quiet --csv "$TMP/soft.vcd" || return 1
	s=$(sum "$TMP/run.sqwlog")
	expect 2 "refusing to overwrite" -- export "$TMP/run.sqwlog" --csv "$TMP/run.sqwlog" || return 1
	expect 2 "refusing to overwrite" -- export "$TMP/run.sqwlog" --csv "$TMP/hard.sqwlog" || return 1
	expect 2 "refusing to overwrite" -- export "$TMP/hard.sqwlog" --events "$TMP/./run.sqwlog" || return 1
	expect 2 "refusing to overwrite" -- compare "$TMP/run.sqwlog" --scope-tmin 400us \
		--scope-tmax 600us --json "$TMP/hard.sqwlog" || return 1
	expect 2 "refusing to overwrite" -- compare "$TMP/run.sqwlog" "$TMP/cap.vcd" --json "$TMP/soft.vcd" ||
		return 1
	[ "$(sum "$TMP/run.sqwlog")" = "$s" ] || fail "the log changed" || return 1
	# standard output appended into the input
	( "$SQWAVE" export "$TMP/run.sqwlog" --csv - >> "$TMP/run.sqwlog" ) 2> "$TMP/err"
	[ $? -eq 2 ] || fail "export --csv - >> the log: not refused" || return 1
	( "$SQWAVE" analyze "$TMP/run.sqwlog" >> "$TMP/run.sqwlog" ) 2> "$TMP/err"
	[ $? -eq 2 ] || fail "analyze >> the log: not refused" || return 1
	[ "$(sum "$TMP/run.sqwlog")" = "$s" ] || fail "the log changed" || return 1
}

test_an_existing_log_is_no_output_of_analyze_or_export() {
	local s
	$GEN "$TMP/old.sqwlog" --edges 50 || return 1
	$GEN "$TMP/new.sqwlog" --edges 60 || return 1
	s=$(sum "$TMP/old.sqwlog")
	expect 2 "is a sqwave log" -- analyze "$TMP/new.sqwlog" --quiet --json "$TMP/old.sqwlog" || return 1
	expect 2 "is a sqwave log" -- export "$TMP/new.sqwlog" --csv "$TMP/old.sqwlog" || return 1
	expect 2 "is a sqwave log" -- run --board "$BOARD" --duration 20ms --json "$TMP/old.sqwlog" \
		--log "$TMP/r.sqwlog" || return 1
	[ "$(sum "$TMP/old.sqwlog")" = "$s" ] || fail "an old log was overwritten" || return 1
}

test_run_refuses_an_output_over_its_inputs_or_another_output() {
	local s
	cp "$BOARD" "$TMP/board.yaml"
	printf 'run:\n  duration: 20ms\n' > "$TMP/prof.yaml"
	s=$(sum "$TMP/board.yaml")
	expect 2 "--log and --json name the same file" -- run --board "$TMP/board.yaml" \
		--duration 20ms --quiet --log "$TMP/x" --json "$TMP/x" || return 1
	[ ! -e "$TMP/x" ] || fail "x was created" || return 1
	expect 2 "the board file" -- run --board "$TMP/board.yaml" --quiet --log "$TMP/board.yaml" || return 1
	expect 2 "the board file" -- run --board "$TMP/board.yaml" --quiet --log "$TMP/l.sqwlog" \
		--json "$TMP/./board.yaml" || return 1
	expect 2 "the profile" -- run --board "$TMP/board.yaml" --profile "$TMP/prof.yaml" --quiet \
		--log "$TMP/prof.yaml" || return 1
	[ "$(sum "$TMP/board.yaml")" = "$s" ] || fail "the board file changed" || return 1
	[ ! -e "$TMP/l.sqwlog" ] || fail "a log was started anyway" || return 1
}

test_two_runs_on_one_log_the_second_refuses_naming_the_first() {
	local pid rc
	( exec "$SQWAVE" run --board "$BOARD" --duration 3s --quiet --log "$TMP/shared.sqwlog" \
		--json "$TMP/first.json" ) > /dev/null 2> "$TMP/first.err" &
	pid=$!
	for _ in $(seq 50); do
		[ -s "$TMP/shared.sqwlog" ] && break
		sleep 0.1
	done
	expect 3 "is being written by another process (pid $pid)" -- run --board "$BOARD" \
		--duration 100ms --quiet --log "$TMP/shared.sqwlog" || return 1
	wait $pid
	rc=$?
	[ $rc -eq 0 ] || fail "the first run: exit $rc: $(cat "$TMP/first.err")" || return 1
	[ ! -e "$TMP/shared.sqwlog.~1~" ] || fail "the second run moved the first one's log" || return 1
	expect 0 -- export "$TMP/shared.sqwlog" --csv "$TMP/shared.csv" || return 1
	python3 "$ROOT/tests/e2e/check_edges.py" "$TMP/shared.csv" --half-period 500000 --slots 6000 \
		--ends-idle > /dev/null || fail "the first run's log is damaged" || return 1
}

test_an_existing_log_is_kept_aside_never_destroyed() {
	local s1 s2
	"$SQWAVE" run --board "$BOARD" --duration 50ms --quiet --log "$TMP/k.sqwlog" > /dev/null 2>&1 || return 1
	s1=$(sum "$TMP/k.sqwlog")
	expect 0 "kept it as $TMP/k.sqwlog.~1~" -- run --board "$BOARD" --duration 50ms --quiet \
		--log "$TMP/k.sqwlog" || return 1
	s2=$(sum "$TMP/k.sqwlog")
	expect 0 "kept it as $TMP/k.sqwlog.~2~" -- run --board "$BOARD" --duration 50ms --quiet \
		--log "$TMP/k.sqwlog" || return 1
	[ "$(sum "$TMP/k.sqwlog.~1~")" = "$s1" ] && [ "$(sum "$TMP/k.sqwlog.~2~")" = "$s2" ] ||
		fail "a kept log differs" || return 1
}

test_a_fifo_as_log_or_json_never_blocks_the_stop_signals() {
	local pid rc
	mkfifo "$TMP/fifo"
	expect 3 "FIFO" -- run --board "$BOARD" --duration 50ms --quiet --log "$TMP/fifo" || return 1
	# --json on a FIFO nobody reads: SIGTERM must still end it, the log complete
	( exec "$SQWAVE" run --board "$BOARD" --duration 200ms --quiet --log "$TMP/j.sqwlog" \
		--json "$TMP/fifo" ) > /dev/null 2>&1 &
	pid=$!
	# once it is done with the log and blocked on the FIFO (its open or its
	# write, by the kernel's wait channel), however long it took to get there
	python3 "$ROOT/tests/e2e/sqwlog.py" --wait-footer "$TMP/j.sqwlog" $pid
	for _ in $(seq 300); do
		case $(cat /proc/$pid/wchan 2> /dev/null) in
		wait_for_partner | pipe_write | pipe_wait*) break ;;
		esac
		sleep 0.1
	done
	kill -TERM $pid 2> /dev/null
	for _ in $(seq 50); do
		kill -0 $pid 2> /dev/null || break
		sleep 0.1
	done
	if kill -0 $pid 2> /dev/null; then
		kill -KILL $pid
		wait $pid 2> /dev/null
		fail "SIGTERM did not end a run blocked on a --json FIFO"
		return 1
	fi
	wait $pid
	"$SQWAVE" export "$TMP/j.sqwlog" --meta > "$TMP/m" 2>&1 || fail "the log: $(cat "$TMP/m")" || return 1
	grep -q "^footer.records=" "$TMP/m" || fail "the log has no footer" || return 1
}

test_a_result_written_to_a_full_stdout_is_exit_3() {
	local args
	$GEN "$TMP/f.sqwlog" --edges 300 || return 1
	for args in "analyze $TMP/f.sqwlog" "analyze $TMP/f.sqwlog --quiet --json -" \
		    "analyze $TMP/f.sqwlog --quiet --csv -" "export $TMP/f.sqwlog --meta" \
		    "export $TMP/f.sqwlog --csv -" "export $TMP/f.sqwlog --events -" "--help" "--version" \
		    "run --board $BOARD --duration 50ms --quiet --log $TMP/full.sqwlog"; do
		# shellcheck disable=SC2086
		( ulimit -v $VMEM; exec timeout 60 "$SQWAVE" $args ) > /dev/full 2> "$TMP/err"
		local rc=$?
		[ $rc -eq 3 ] || fail "sqwave $args > /dev/full: exit $rc, expected 3" || return 1
		grep -qiE "no space|failed" "$TMP/err" || fail "sqwave $args: $(cat "$TMP/err")" || return 1
		rm -f "$TMP"/full.sqwlog*
	done
	# the run's log is complete although its summary was lost
	( exec "$SQWAVE" run --board "$BOARD" --duration 50ms --quiet --log "$TMP/full.sqwlog" ) \
		> /dev/full 2> /dev/null
	expect 0 -- export "$TMP/full.sqwlog" --csv "$TMP/full.csv" || return 1
}

test_an_output_on_a_full_disk_is_exit_3() {
	$GEN "$TMP/d.sqwlog" --edges 3000 || return 1
	expect 3 "/dev/full" -- export "$TMP/d.sqwlog" --csv /dev/full || return 1
	expect 3 "/dev/full" -- analyze "$TMP/d.sqwlog" --quiet --json /dev/full || return 1
	expect 3 "/dev/full" -- analyze "$TMP/d.sqwlog" --quiet --csv /dev/full || return 1
	expect 3 "/dev/full" -- analyze "$TMP/d.sqwlog" --quiet --histogram /dev/full || return 1
	expect 3 -- run --board "$BOARD" --duration 50ms --quiet --log "$TMP/r.sqwlog" --json /dev/full || return 1
	( ulimit -f 16; exec "$SQWAVE" export "$TMP/d.sqwlog" --csv "$TMP/big.csv" ) 2> "$TMP/err"
	[ $? -eq 3 ] || fail "export over a file-size limit: not exit 3" || return 1
}

# A run of several lines refused for one line's output (its log locked by
# another process, a --json in no directory) changes no file: every log is
# reserved and every document checked before any is created or renamed
# (x.0.sqwlog was kept aside as x.0.sqwlog.~1~ and a header-only log
# written before line 3's refusal).
test_a_refused_run_of_several_lines_changes_no_file() {
	local d=$TMP/refused locker rc i
	mkdir -p "$d" || return 1
	"$SQWAVE" run --board "$BOARD" --line 0,3 --duration 50ms --quiet --log "$d/x.sqwlog" \
		> /dev/null 2> "$TMP/err" || fail "first run: $(cat "$TMP/err")" || return 1
	: > "$d/z.3.sqwlog"
	python3 -c '
import fcntl, sys, time
fs = [open(p, "r+") for p in sys.argv[1:3]]
for f in fs:
    fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[3], "w").close()
time.sleep(120)' "$d/x.3.sqwlog" "$d/z.3.sqwlog" "$TMP/locked" &
	locker=$!
	for i in $(seq 100); do [ -e "$TMP/locked" ] && break; sleep 0.1; done
	(cd "$d" && ls -lA --time-style=+%s.%N && sha256sum ./*) > "$TMP/before" 2>&1
	expect 3 "x.3.sqwlog is being written by another process (pid $locker)" -- run \
		--board "$BOARD" --line 0,3 --duration 50ms --quiet --log "$d/x.sqwlog" \
		--json "$d/x.json" || { kill $locker; return 1; }
	expect 3 "z.3.sqwlog is being written by another process" -- run --board "$BOARD" \
		--line 0,3 --duration 50ms --quiet --log "$d/z.sqwlog" || { kill $locker; return 1; }
	kill $locker
	(cd "$d" && ls -lA --time-style=+%s.%N && sha256sum ./*) > "$TMP/after" 2>&1
	diff "$TMP/before" "$TMP/after" > "$TMP/diff" || fail "files changed: $(cat "$TMP/diff")" ||
		return 1
	expect 3 "cannot create $d/nodir/y.0.json" -- run --board "$BOARD" --line 0,3 \
		--duration 50ms --quiet --log "$d/y.sqwlog" --json "$d/nodir/y.json" || return 1
	(cd "$d" && ls -lA --time-style=+%s.%N && sha256sum ./*) > "$TMP/after" 2>&1
	diff "$TMP/before" "$TMP/after" > "$TMP/diff" || fail "files changed: $(cat "$TMP/diff")"
}

# A disk that fills (a file-size limit of 16 KB: each line's 7 KB log fits,
# its 25 KB summary does not) in a run of several lines: each summary it
# cannot write is said lost (exit 3) and leaves no part of itself, so a
# later report --trend of the batch reads every document that is there.
test_a_full_disk_with_several_lines_leaves_no_partial_summary() {
	local l rc
	mkdir -p "$TMP/batch" || return 1
	"$SQWAVE" run --board "$BOARD" --duration 50ms --quiet --log "$TMP/g.sqwlog" \
		--json "$TMP/batch/good.json" > /dev/null 2> "$TMP/err" ||
		fail "a plain run: $(cat "$TMP/err")" || return 1
	( ulimit -f 16; ulimit -v $VMEM; exec timeout 60 "$SQWAVE" run --board "$BOARD" \
		--line 0,3 --duration 50ms --quiet --log "$TMP/s.sqwlog" --json "$TMP/batch/s.json" ) \
		> "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ $rc -eq 3 ] || fail "exit $rc, expected 3: $(head -c 600 "$TMP/err")" || return 1
	for l in 0 3; do
		grep -qF "JSON summary $TMP/batch/s.$l.json lost: writing $TMP/batch/s.$l.json failed: File too large (the partial file is removed)" "$TMP/err" ||
			fail "line $l's summary is not said lost: $(cat "$TMP/err")" || return 1
		[ ! -e "$TMP/batch/s.$l.json" ] || fail "a part of s.$l.json is left" || return 1
		"$SQWAVE" export "$TMP/s.$l.sqwlog" --meta > "$TMP/m" 2>&1 &&
			grep -q "^footer.records=" "$TMP/m" || fail "line $l's log is not whole" || return 1
	done
	expect 0 -- report --trend "$TMP"/batch/*.json || return 1
	grep -q "good.json" "$TMP/out" || fail "the batch's summary is not in the trend"
}

cd "$ROOT" || exit 1
e2e_run --subshell "hostile outputs"
