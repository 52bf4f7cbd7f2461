#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of trace breaks (--break) on the real ftrace of this
# machine: the marker names the edge, tracing stops, the trace is saved next
# to the log, the break is in the log and the summary, and the run goes on
# or stops as asked; each run traces in its own instance (two at once do
# not mix), or in the top-level buffer when asked; a respond break is
# explained from its event. Skipped, saying so, where
# tracefs cannot be reached.
. "$(dirname "$0")/lib.sh" sqwave-e2e-trace

TRACEFS=/sys/kernel/tracing
if [ ! -e $TRACEFS/trace_marker ] && [ "$(id -u)" -eq 0 ]; then
	mount -t tracefs nodev $TRACEFS 2> /dev/null
fi
have_tracefs() { [ -w $TRACEFS/trace_marker ]; }

# --break 1ns: every edge after the first crosses it.
test_stop_on_break_saves_the_trace_with_the_marker_and_exits_1() {
	have_tracefs || { echo "    (no writable tracefs here: skipped)"; return 2; }
	local before
	before=$(cat $TRACEFS/tracing_on)
	"$SQWAVE" run --board "$BOARD" --duration 10s --quiet --break 1ns --stop-on-break \
		--log "$TMP/s.sqwlog" --json "$TMP/s.json" > "$TMP/s.out" 2> "$TMP/s.err"
	local rc=$?
	[ $rc -eq 1 ] || fail "exit $rc, expected 1: $(cat "$TMP/s.err")" || return 1
	grep -q "ran .* stopped by break" "$TMP/s.out" || fail "$(head -20 "$TMP/s.out")" || return 1
	grep -q "^breaks     1 trace saved; the first at edge #0: " "$TMP/s.out" ||
		fail "$(grep breaks "$TMP/s.out")" || return 1
	grep -q "tracing_mark_write: sqwave: break at edge #0 (intended [0-9]* ns): wake latency" \
		"$TMP/s.sqwlog.break-1.trace" || fail "no marker in the trace" || return 1
	[ "$(cat $TRACEFS/tracing_on)" = "$before" ] || fail "top-level tracing_on changed" || return 1
	# the saved trace starts with this kernel's tracers, and the advice
	# suggests irqsoff only where this kernel has it
	# (the run's instance may offer fewer than the top level: blk is not
	# offered in instances)
	local first w
	first=$(head -1 "$TMP/s.sqwlog.break-1.trace")
	[ "${first#\# sqwave available_tracers: }" != "$first" ] && grep -qw nop <<< "$first" ||
		fail "first line: $first" || return 1
	for w in ${first#\# sqwave available_tracers: }; do
		grep -qw -- "$w" $TRACEFS/available_tracers || fail "$w: not a tracer here" || return 1
	done
	"$SQWAVE" trace-explain "$TMP/s.sqwlog.break-1.trace" > "$TMP/x.out" ||
		fail "trace-explain: $(cat "$TMP/x.out")" || return 1
	grep -q "^what to do   [A-Z]" "$TMP/x.out" || fail "no advice: $(cat "$TMP/x.out")" || return 1
	if ! grep -qw irqsoff $TRACEFS/available_tracers; then
		! grep -q "trace.tracer=irqsoff to see" "$TMP/x.out" ||
			fail "irqsoff suggested on a kernel without it: $(cat "$TMP/x.out")" || return 1
	fi
	# report says it failed, from the summary and from the log
	local f
	for f in "$TMP/s.json" "$TMP/s.sqwlog"; do
		"$SQWAVE" report "$f" > "$TMP/r.out" 2>&1
		rc=$?
		[ $rc -eq 1 ] && grep -q "FAIL: .*stopped at a trace break" "$TMP/r.out" ||
			fail "report $f: exit $rc: $(cat "$TMP/r.out")" || return 1
	done
	# the default events of the run's own instance, and the instance gone
	grep -q "sched_switch: " "$TMP/s.sqwlog.break-1.trace" ||
		fail "no sched_switch in the trace: $(head -5 "$TMP/s.sqwlog.break-1.trace")" || return 1
	! ls -d $TRACEFS/instances/sqwave-* 2> /dev/null | grep -q . ||
		fail "instance left: $(ls $TRACEFS/instances)" || return 1
	python3 - "$TMP/s.sqwlog" "$TMP/s.json" "$HERE" <<'PY' || return 1
import json, sys
sys.path.insert(0, sys.argv[3])
import sqwlog
log, js = sqwlog.read(sys.argv[1]), json.load(open(sys.argv[2]))
brk = [e["kv"] for e in log["events"] if e["type"] == "break"]
assert len(brk) == 1 and brk[0]["seq"] == "0" and brk[0]["what"] == "wake", brk
assert brk[0]["trace"].endswith(".break-1.trace")
# the saved trace was read: a one-line cause and a sentence, also in the summary
assert brk[0]["cause"] and "\n" not in brk[0]["cause"], brk[0]
assert brk[0]["explain"].endswith("."), brk[0]
assert js["breaks"]["first_cause"] == brk[0]["cause"], js["breaks"]
assert js["breaks"]["first"].endswith(brk[0]["explain"]), js["breaks"]
assert log["footer"]["stop_reason"] == 3 and log["footer"]["exit_code"] == 1, log["footer"]
assert js["breaks"]["count"] == 1 and js["run"]["stop_reason"] == "break", js["breaks"]
# it stopped at the break, before its 10 s of edges (however long this
# machine took to save the trace)
assert len(log["edges"]) < 20000, len(log["edges"])
PY
}

# The run goes on past its breaks; it is stopped (SIGINT) a second after
# the second trace was saved, however long saving took on this machine.
test_without_stop_the_run_goes_on_and_keeps_max_breaks_traces() {
	have_tracefs || { echo "    (no writable tracefs here: skipped)"; return 2; }
	"$SQWAVE" run --board "$BOARD" --duration 60s --quiet --break 1ns \
		--set trace.max_breaks=2 --log "$TMP/g.sqwlog" > "$TMP/g.out" 2> "$TMP/g.err" &
	local pid=$! i rc
	for i in $(seq 550); do
		[ -s "$TMP/g.sqwlog.break-2.trace" ] && break
		kill -0 $pid 2> /dev/null || break
		sleep 0.1
	done
	sleep 1
	kill -INT $pid
	wait $pid
	rc=$?
	[ $rc -eq 130 ] || fail "exit $rc, expected 130 (SIGINT): $(cat "$TMP/g.err")" || return 1
	[ -s "$TMP/g.sqwlog.break-1.trace" ] && [ -s "$TMP/g.sqwlog.break-2.trace" ] ||
		fail "two traces expected: $(ls "$TMP")" || return 1
	[ ! -e "$TMP/g.sqwlog.break-3.trace" ] || fail "more than trace.max_breaks traces" || return 1
	grep -q "stopped by signal" "$TMP/g.out" || fail "$(grep ran "$TMP/g.out")" || return 1
	python3 - "$TMP/g.sqwlog" "$HERE" <<'PY' || return 1
import sys
sys.path.insert(0, sys.argv[2])
import sqwlog
log = sqwlog.read(sys.argv[1])
seqs = [int(e["kv"]["seq"]) for e in log["events"] if e["type"] == "break"]
assert len(seqs) == 2, seqs
# it went on after its last break
assert log["edges"][-1][0] > seqs[-1], (seqs, log["edges"][-1][0])
PY
}

# Warm-up edges spend none of trace.max_breaks (once all
# three traces were of warm-up edges), and the summary names the traced edges and
# whether the worst counted wake-up has a trace.
test_warm_up_edges_spend_no_break_and_the_summary_says_what_was_traced() {
	have_tracefs || { echo "    (no writable tracefs here: skipped)"; return 2; }
	"$SQWAVE" run --board "$BOARD" --duration 2s --warmup 1s --break 1ns \
		--set trace.max_breaks=3 --log "$TMP/w.sqwlog" > "$TMP/w.out" 2> "$TMP/w.err"
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/w.err")" || return 1
	grep -q "the worst wake-up, edge #[0-9]* ([0-9.]* us), has" "$TMP/w.out" ||
		fail "no worst wake-up line: $(grep -A3 breaks "$TMP/w.out")" || return 1
	python3 - "$HERE" "$TMP/w.sqwlog" "$TMP/w.out" <<'PY' || return 1
import re, sys
sys.path.insert(0, sys.argv[1])
import sqwlog
log = sqwlog.read(sys.argv[2])
flags = {e[0]: e[7] for e in log["edges"]}
seqs = [int(e["kv"]["seq"]) for e in log["events"] if e["type"] == "break"]
# up to 3: how many the run's last second allows depends on how fast this
# machine saves a trace and arms the next; the first is always the first
# counted edge (every edge crosses 1 ns), whatever the warm-up's edges did
assert 1 <= len(seqs) <= 3, seqs
first = min(e[0] for e in log["edges"] if not e[7] & 1)
assert seqs[0] == first, ("the first break is not at the first counted edge", seqs, first)
for s in seqs:
    assert not flags[s] & 1, ("a warm-up edge was traced", s, flags[s])
out = open(sys.argv[3]).read()
line = [l for l in out.splitlines() if "traced edges" in l]
assert line, out
assert [int(x) for x in re.findall(r"#(\d+) \(", line[0])] == seqs, (line, seqs)
PY
}

test_two_runs_at_once_each_keep_their_own_trace() {
	have_tracefs || { echo "    (no writable tracefs here: skipped)"; return 2; }
	"$SQWAVE" run --board "$BOARD" --duration 3s --quiet --break 1ns --set trace.max_breaks=1 \
		--log "$TMP/a.sqwlog" > "$TMP/a.out" 2>&1 &
	local a=$!
	"$SQWAVE" run --board "$BOARD" --duration 3s --quiet --break 1ns --set trace.max_breaks=1 \
		--set gpio.line=3 --set sim.wire_line=4 --log "$TMP/b.sqwlog" > "$TMP/b.out" 2>&1
	local rb=$?
	wait $a
	local ra=$?
	[ $ra -eq 0 ] && [ $rb -eq 0 ] || fail "exit $ra and $rb: $(cat "$TMP/a.out" "$TMP/b.out")" ||
		return 1
	[ "$(grep -c 'sqwave: break at edge' "$TMP/a.sqwlog.break-1.trace")" = 1 ] &&
		[ "$(grep -c 'sqwave: break at edge' "$TMP/b.sqwlog.break-1.trace")" = 1 ] ||
		fail "each trace must hold its own run's marker only" || return 1
	# and they are two different markers (each run's edge and intended time)
	local ma mb
	ma=$(grep -o 'sqwave: break at edge.*' "$TMP/a.sqwlog.break-1.trace")
	mb=$(grep -o 'sqwave: break at edge.*' "$TMP/b.sqwlog.break-1.trace")
	[ "$ma" != "$mb" ] || fail "the same marker in both traces: $ma" || return 1
}

test_the_top_level_buffer_when_asked() {
	have_tracefs || { echo "    (no writable tracefs here: skipped)"; return 2; }
	local before
	before=$(cat $TRACEFS/tracing_on)
	"$SQWAVE" run --board "$BOARD" --duration 10s --quiet --break 1ns --stop-on-break \
		--set trace.buffer=top --log "$TMP/p.sqwlog" > "$TMP/p.out" 2> "$TMP/p.err"
	local rc=$?
	[ $rc -eq 1 ] || fail "exit $rc, expected 1: $(cat "$TMP/p.err")" || return 1
	grep -q "tracing_mark_write: sqwave: break at edge #0" "$TMP/p.sqwlog.break-1.trace" ||
		fail "no marker in the trace" || return 1
	[ "$(cat $TRACEFS/tracing_on)" = "$before" ] || fail "tracing_on not restored" || return 1
}

test_an_unknown_event_is_refused_before_the_run() {
	have_tracefs || { echo "    (no writable tracefs here: skipped)"; return 2; }
	"$SQWAVE" run --board "$BOARD" --duration 1s --quiet --break 100us \
		--set trace.events=sched,nosuch:event --log "$TMP/e.sqwlog" > /dev/null 2> "$TMP/e.err"
	local rc=$?
	[ $rc -eq 3 ] || fail "exit $rc, expected 3" || return 1
	grep -q 'no trace event "nosuch:event"' "$TMP/e.err" || fail "$(cat "$TMP/e.err")" || return 1
	! ls -d $TRACEFS/instances/sqwave-* 2> /dev/null | grep -q . ||
		fail "instance left: $(ls $TRACEFS/instances)" || return 1
}

test_an_unknown_tracer_is_refused_before_the_run() {
	have_tracefs || { echo "    (no writable tracefs here: skipped)"; return 2; }
	"$SQWAVE" run --board "$BOARD" --duration 1s --quiet --break 100us --tracer nosuchtracer \
		--log "$TMP/t.sqwlog" > /dev/null 2> "$TMP/t.err"
	local rc=$?
	[ $rc -eq 3 ] || fail "exit $rc, expected 3" || return 1
	grep -q -- "--tracer nosuchtracer: cannot select it" "$TMP/t.err" || fail "$(cat "$TMP/t.err")" ||
		return 1
	grep -q "this kernel offers: .*nop" "$TMP/t.err" || fail "$(cat "$TMP/t.err")" || return 1
}

# respond --break: the marker says T is an event, and the explanation
# follows that event's wake-up (here the simulated stimulus thread's) instead
# of looking for a timerfd.
test_a_respond_break_is_explained_from_the_event_and_names_its_waker() {
	have_tracefs || { echo "    (no writable tracefs here: skipped)"; return 2; }
	local f out named=0
	"$SQWAVE" respond --board "$BOARD" --duration 1s --quiet --allow-non-rt --break 1ns \
		--set trace.max_breaks=3 --log "$TMP/r.sqwlog" > "$TMP/r.out" 2> "$TMP/r.err" ||
		fail "exit $?: $(cat "$TMP/r.err")" || return 1
	[ -s "$TMP/r.sqwlog.break-1.trace" ] || fail "no trace: $(grep breaks "$TMP/r.out")" || return 1
	for f in "$TMP"/r.sqwlog.break-*.trace; do
		grep -q "sqwave: break at edge #[0-9]* (intended [0-9]* ns): wake latency .*; respond: T is an input event" \
			"$f" || fail "$f: no respond marker" || return 1
		out=$("$SQWAVE" trace-explain "$f") || fail "$f: exit $?" || return 1
		! grep -q "no timerfd hrtimer_start" <<< "$out" || fail "$f: $out" || return 1
		grep -q "^woken by     [^ ].*/[0-9][0-9]* on CPU [0-9]" <<< "$out" && named=$((named + 1))
	done
	[ $named -ge 1 ] || fail "no trace names a waker: $out" || return 1
	! grep -q "no timerfd hrtimer_start" "$TMP/r.out" || fail "$(grep -A1 breaks "$TMP/r.out")" ||
		return 1
}

# No tracefs needed: the saved traces in tests/data/traces.
test_trace_explain_names_the_cause_of_a_saved_trace() {
	local out rc
	out=$("$SQWAVE" trace-explain "$ROOT/tests/data/traces/preempted-by-git.trace")
	rc=$?
	[ $rc -eq 0 ] || fail "exit $rc" || return 1
	grep -q "^cause        held-by git/18758 1242.000 us state=D cpu=1" <<< "$out" || fail "$out" ||
		return 1
	out=$("$SQWAVE" trace-explain "$ROOT/tests/data/traces/idle-cpu-late-irq.trace")
	grep -q "^cause        late-irq-idle +1838.917 us cpu=1" <<< "$out" || fail "$out" || return 1
	grep -q "^what to do   Hold the CPU out of deep idle states" <<< "$out" || fail "$out" || return 1
	"$SQWAVE" trace-explain "$ROOT/README.md" > /dev/null 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "README.md: exit $rc, expected 2 (not a trace)" || return 1
	"$SQWAVE" trace-explain "$TMP/no-such.trace" > /dev/null 2>&1
	rc=$?
	[ $rc -eq 3 ] || fail "missing file: exit $rc, expected 3" || return 1
	"$SQWAVE" trace-explain > /dev/null 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "no argument: exit $rc, expected 2" || return 1
}

e2e_run --subshell --short --skip-rc 2 --count-skips "trace e2e"
