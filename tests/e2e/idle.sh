#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of rt.idle_state / --deepest-idle-state: real `sqwave run`
# and `respond` on the simulated board, with SQWAVE_TEST_SYSFS_ROOT (test
# only, docs/testing.md) pointing cpuidle's sysfs at a constructed tree, so
# that the states are checked before, during and after the run, after
# SIGINT, and after a kill -9 (restored by the guardian, or by the next
# run's sweep when the guardian was killed too). Timing is never asserted.
# Self-contained: SQWAVE=path/to/sqwave tests/e2e/idle.sh from the repository
# root. Prints PASS/FAIL per test; exit 1 if any failed.
. "$(dirname "$0")/lib.sh" sqwave-e2e-idle
R=$TMP/root
STATES=$R/run/sqwave
CPUS=$R/sys/devices/system/cpu
bg=""
# a run still in the background when the script ends
e2e_cleanup() { [ -n "$bg" ] && kill -9 "$bg" 2> /dev/null; }
export SQWAVE_TEST_SYSFS_ROOT=$R

# Two CPUs with POLL, C1, C1E, C6 (exit latencies 0, 2, 10, 133 us), all
# enabled except cpu1's C6, which was disabled before any run.
make_tree() {
	local c k names=(POLL C1 C1E C6) lats=(0 2 10 133)
	rm -rf "$R"
	for c in 0 1; do
		for k in 0 1 2 3; do
			local d=$CPUS/cpu$c/cpuidle/state$k
			mkdir -p "$d"
			echo "${names[$k]}" > "$d/name"
			echo "state $k" > "$d/desc"
			echo "${lats[$k]}" > "$d/latency"
			echo $((lats[k] * 3)) > "$d/residency"
			echo 0 > "$d/disable"
		done
	done
	echo 1 > "$CPUS/cpu1/cpuidle/state3/disable"
	echo 0-1 > "$CPUS/online"
}

# "0 1 1 1": cpuN's disable values, state0 first.
disables() { cat "$CPUS/cpu$1"/cpuidle/state*/disable | tr '\n' ' ' | sed 's/ $//'; }

# Wait (at most 10 s) until the run's saved-state file exists: it is
# written before the first state is disabled, and the guardian is running.
wait_for_state_file() {
	local i
	for i in $(seq 100); do
		ls "$STATES"/idle.* > /dev/null 2>&1 && [ "$(disables 1)" = "$1" ] && return 0
		kill -0 "$bg" 2> /dev/null || break
		sleep 0.1
	done
	fail "no saved-state file, or cpu1 not '$1' (it reads '$(disables 1)')"
}

# Wait (at most 10 s) until no saved-state file is left.
wait_for_no_state_file() {
	local i
	for i in $(seq 100); do
		ls "$STATES"/idle.* > /dev/null 2>&1 || return 0
		sleep 0.1
	done
	fail "saved-state file left: $(ls "$STATES")"
}

test_a_run_restricts_the_rt_cpu_and_restores_it() {
	make_tree
	"$SQWAVE" run --board "$BOARD" --cpu 1 --deepest-idle-state 0 --duration 3s --quiet \
		--log "$TMP/a.sqwlog" --json "$TMP/a.json" > "$TMP/a.out" 2> "$TMP/a.err" &
	bg=$!
	# during: cpu1 keeps only POLL, C6 stays disabled; cpu0 is untouched
	wait_for_state_file "0 1 1 1" || return 1
	[ "$(disables 0)" = "0 0 0 0" ] || fail "cpu0 touched: $(disables 0)" || return 1
	wait "$bg"
	local rc=$?
	bg=""
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/a.err")" || return 1
	# after: as before, C6 still disabled as it was
	[ "$(disables 1)" = "0 0 0 1" ] || fail "cpu1 after: $(disables 1)" || return 1
	[ "$(disables 0)" = "0 0 0 0" ] || fail "cpu0 after: $(disables 0)" || return 1
	wait_for_no_state_file || return 1
	grep -aq "^run.idle_states=cpu1 deepest 0 (POLL): disabled C1 2 us, C1E 10 us; already disabled C6 133 us; restricted (read back)$" \
		"$TMP/a.sqwlog" || fail "header: $(grep -a '^run.idle_states' "$TMP/a.sqwlog")" || return 1
	grep -q "^idle       rt.idle_state 0: cpu1 .*restricted (read back), restored (read back)$" \
		"$TMP/a.out" || fail "summary: $(grep '^idle' "$TMP/a.out")" || return 1
	python3 - "$TMP/a.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))["rt"]["idle_states"]
assert d["limit"] == "0" and d["cpus"] == "rt", d
(c,) = d["per_cpu"]
assert c["cpu"] == 1 and c["deepest"] == 0 and c["disabled"] == 2, c
assert [s["action"] for s in c["states"]] == ["kept", "disabled", "disabled", "was_disabled"], c
assert [s["latency_us"] for s in c["states"]] == [0, 2, 10, 133], c
assert c["restricted"] is True and c["restored"] is True, c
PY
}

test_idle_cpus_all_restricts_every_online_cpu() {
	make_tree
	"$SQWAVE" run --board "$BOARD" --cpu 1 --set rt.idle_cpus=all --deepest-idle-state none \
		--duration 300ms --quiet --log "$TMP/b.sqwlog" --json "$TMP/b.json" \
		> "$TMP/b.out" 2> "$TMP/b.err" || fail "exit $?: $(cat "$TMP/b.err")" || return 1
	[ "$(disables 0)" = "0 0 0 0" ] || fail "cpu0 after: $(disables 0)" || return 1
	[ "$(disables 1)" = "0 0 0 1" ] || fail "cpu1 after: $(disables 1)" || return 1
	python3 - "$TMP/b.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))["rt"]["idle_states"]
assert d["limit"] == "-1 (none)" and d["cpus"] == "all", d
assert [c["cpu"] for c in d["per_cpu"]] == [0, 1], d
assert [c["disabled"] for c in d["per_cpu"]] == [4, 3], d
assert all(c["restricted"] and c["restored"] for c in d["per_cpu"]), d
PY
}

# run.outputs per-cpu: every line's RT thread has its CPU restricted (line
# 3's CPU 1 was left alone while its log claimed CPU 0's restriction), and
# each line's log and summary say what was set for its own CPU.
test_per_cpu_lines_restrict_every_rt_cpu_each_saying_its_own() {
	make_tree
	"$SQWAVE" run --board "$BOARD" --line 0,3 --outputs per-cpu --cpus 0,1 \
		--deepest-idle-state 0 --duration 3s --quiet --log "$TMP/p.sqwlog" \
		--json "$TMP/p.json" > "$TMP/p.out" 2> "$TMP/p.err" &
	bg=$!
	wait_for_state_file "0 1 1 1" || return 1
	[ "$(disables 0)" = "0 1 1 1" ] || fail "cpu0 during: $(disables 0)" || return 1
	wait "$bg"
	local rc=$?
	bg=""
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/p.err")" || return 1
	[ "$(disables 0)" = "0 0 0 0" ] && [ "$(disables 1)" = "0 0 0 1" ] ||
		fail "after: cpu0 $(disables 0), cpu1 $(disables 1)" || return 1
	grep -aq "^run.idle_states=cpu0 deepest 0 (POLL): disabled C1 2 us, C1E 10 us, C6 133 us; restricted (read back)$" \
		"$TMP/p.0.sqwlog" || fail "line 0: $(grep -a '^run.idle_states' "$TMP/p.0.sqwlog")" || return 1
	grep -aq "^run.idle_states=cpu1 deepest 0 (POLL): disabled C1 2 us, C1E 10 us; already disabled C6 133 us; restricted (read back)$" \
		"$TMP/p.3.sqwlog" || fail "line 3: $(grep -a '^run.idle_states' "$TMP/p.3.sqwlog")" || return 1
	python3 - "$TMP/p.0.json" "$TMP/p.3.json" <<'PY' || return 1
import json, sys
for path, cpu in zip(sys.argv[1:], (0, 1)):
    d = json.load(open(path))["rt"]["idle_states"]
    (c,) = d["per_cpu"]
    assert c["cpu"] == cpu and c["restricted"] is True and c["restored"] is True, (path, c)
PY
}

test_a_run_without_the_key_leaves_idle_states_alone() {
	make_tree
	"$SQWAVE" run --board "$BOARD" --cpu 1 --duration 200ms --quiet --log "$TMP/k.sqwlog" \
		--json "$TMP/k.json" > "$TMP/k.out" 2> "$TMP/k.err" || fail "exit $?" || return 1
	[ "$(disables 1)" = "0 0 0 1" ] || fail "cpu1: $(disables 1)" || return 1
	! grep -aq "^run.idle_states=" "$TMP/k.sqwlog" || fail "header names idle states" || return 1
	! grep -q "^idle " "$TMP/k.out" || fail "summary names idle states" || return 1
	python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["rt"]["idle_states"] is None' \
		"$TMP/k.json" || return 1
	[ ! -d "$STATES" ] || [ -z "$(ls "$STATES")" ] || fail "state file: $(ls "$STATES")" || return 1
}

test_sigint_mid_run_restores_the_states() {
	make_tree
	"$SQWAVE" run --board "$BOARD" --cpu 1 --deepest-idle-state 1 --duration 60s --quiet \
		--log "$TMP/i.sqwlog" --json "$TMP/i.json" > "$TMP/i.out" 2> "$TMP/i.err" &
	bg=$!
	wait_for_state_file "0 0 1 1" || return 1
	kill -INT "$bg"
	wait "$bg"
	local rc=$?
	bg=""
	[ $rc -eq 130 ] || fail "exit $rc, expected 130: $(cat "$TMP/i.err")" || return 1
	[ "$(disables 1)" = "0 0 0 1" ] || fail "cpu1 after SIGINT: $(disables 1)" || return 1
	wait_for_no_state_file || return 1
	python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["rt"]["idle_states"]["per_cpu"][0]
assert c["restored"] is True and c["disabled"] == 1, c' "$TMP/i.json" || return 1
}

test_kill_9_mid_run_the_guardian_restores_the_states() {
	make_tree
	"$SQWAVE" run --board "$BOARD" --cpu 1 --deepest-idle-state 0 --duration 60s --quiet \
		--log "$TMP/g.sqwlog" > "$TMP/g.out" 2> "$TMP/g.err" &
	bg=$!
	wait_for_state_file "0 1 1 1" || return 1
	# the state file is made before the log's header is on disk: on a busy
	# machine a kill between the two found no header (the header is not
	# what this test is about; it must survive the kill once written)
	for _ in $(seq 300); do
		grep -aq "^run.idle_states=" "$TMP/g.sqwlog" 2> /dev/null && break
		sleep 0.1
	done
	kill -9 "$bg"
	wait "$bg" 2> /dev/null
	bg=""
	wait_for_no_state_file || return 1
	[ "$(disables 1)" = "0 0 0 1" ] || fail "cpu1 after kill -9: $(disables 1)" || return 1
	[ "$(disables 0)" = "0 0 0 0" ] || fail "cpu0 after kill -9: $(disables 0)" || return 1
	# the log of a killed run is still readable, with what was set
	grep -aq "^run.idle_states=cpu1 deepest 0 (POLL)" "$TMP/g.sqwlog" ||
		fail "header of the killed run" || return 1
}

test_kill_9_of_sqwave_and_its_guardian_the_next_run_restores() {
	local guard
	make_tree
	"$SQWAVE" run --board "$BOARD" --cpu 1 --deepest-idle-state -1 --duration 60s --quiet \
		--log "$TMP/s.sqwlog" > "$TMP/s.out" 2> "$TMP/s.err" &
	bg=$!
	wait_for_state_file "1 1 1 1" || return 1
	# the guardian of this run, and only it: its argument is our tree's file
	guard=$(pgrep -f -- "__sqwave-idle-guard $STATES/idle\.$bg\.") ||
		fail "no guardian for $bg" || return 1
	kill -9 "$guard" "$bg"
	wait "$bg" 2> /dev/null
	bg=""
	sleep 0.5
	[ "$(disables 1)" = "1 1 1 1" ] || fail "restored without a guardian: $(disables 1)" || return 1
	ls "$STATES"/idle.* > /dev/null 2>&1 || fail "no saved-state file left" || return 1
	"$SQWAVE" run --board "$BOARD" --duration 100ms --quiet --log "$TMP/s2.sqwlog" \
		> "$TMP/s2.out" 2> "$TMP/s2.err" || fail "next run: exit $?" || return 1
	grep -q "restored the idle states a killed sqwave run left disabled: 3 \`disable\` values from 1 saved-state file" \
		"$TMP/s2.err" || fail "no sweep message: $(cat "$TMP/s2.err")" || return 1
	[ "$(disables 1)" = "0 0 0 1" ] || fail "cpu1 after the sweep: $(disables 1)" || return 1
	wait_for_no_state_file || return 1
}

test_respond_restricts_and_restores_too() {
	make_tree
	"$SQWAVE" respond --board "$BOARD" --cpu 1 --deepest-idle-state C1 --duration 300ms \
		--quiet --allow-non-rt --log "$TMP/r.sqwlog" --json "$TMP/r.json" \
		> "$TMP/r.out" 2> "$TMP/r.err" || fail "exit $?: $(cat "$TMP/r.err")" || return 1
	[ "$(disables 1)" = "0 0 0 1" ] || fail "cpu1 after: $(disables 1)" || return 1
	grep -aq "^run.idle_states=cpu1 deepest 1 (C1): disabled C1E 10 us; already disabled C6 133 us; restricted (read back)$" \
		"$TMP/r.sqwlog" || fail "header: $(grep -a '^run.idle_states' "$TMP/r.sqwlog")" || return 1
}

test_bad_values_are_exit_2_with_file_and_line() {
	local v rc
	make_tree
	for v in 16 -2 1x "C1;x"; do
		"$SQWAVE" run --board "$BOARD" --deepest-idle-state "$v" --duration 100ms --quiet \
			--log "$TMP/bad.sqwlog" > /dev/null 2> "$TMP/bad.err"
		rc=$?
		[ $rc -eq 2 ] || fail "$v: exit $rc, expected 2" || return 1
		grep -q "command line: rt.idle_state '$v' is not an idle-state limit" "$TMP/bad.err" ||
			fail "$v: $(cat "$TMP/bad.err")" || return 1
	done
	printf 'run:\n  duration: 100ms\nrt:\n  cpu: 1\n  idle_state: 42\n' > "$TMP/p.yaml"
	"$SQWAVE" run --board "$BOARD" --profile "$TMP/p.yaml" --quiet --log "$TMP/bad.sqwlog" \
		> /dev/null 2> "$TMP/bad.err"
	rc=$?
	[ $rc -eq 2 ] || fail "profile: exit $rc, expected 2: $(cat "$TMP/bad.err")" || return 1
	grep -q "p.yaml:5: rt.idle_state '42' is not an idle-state limit" "$TMP/bad.err" ||
		fail "profile: $(cat "$TMP/bad.err")" || return 1
	"$SQWAVE" run --board "$BOARD" --set rt.idle_cpus=some --duration 100ms --quiet \
		--log "$TMP/bad.sqwlog" > /dev/null 2> "$TMP/bad.err"
	rc=$?
	[ $rc -eq 2 ] || fail "rt.idle_cpus=some: exit $rc, expected 2" || return 1
	[ "$(disables 1)" = "0 0 0 1" ] || fail "cpu1 touched: $(disables 1)" || return 1
}

test_a_state_name_no_cpu_has_is_a_usage_error_that_lists_the_names() {
	local rc
	make_tree
	# a misspelt name is configuration (exit 2), found before anything is
	# touched or created, whatever --allow-non-rt says
	"$SQWAVE" run --board "$BOARD" --cpu 1 --deepest-idle-state WFI --duration 100ms --quiet \
		--allow-non-rt --log "$TMP/w.sqwlog" > /dev/null 2> "$TMP/w.err"
	rc=$?
	[ $rc -eq 2 ] || fail "exit $rc, expected 2: $(cat "$TMP/w.err")" || return 1
	grep -q "command line: rt.idle_state WFI: no CPU of this machine has an idle state of that name; the states it has: POLL (0), C1 (1), C1E (2), C6 (3)" \
		"$TMP/w.err" || fail "$(cat "$TMP/w.err")" || return 1
	! grep -q "allow-non-rt" "$TMP/w.err" || fail "suggests --allow-non-rt: $(cat "$TMP/w.err")" ||
		return 1
	[ ! -e "$TMP/w.sqwlog" ] || fail "a log was created" || return 1
	[ "$(disables 1)" = "0 0 0 1" ] || fail "cpu1 touched: $(disables 1)" || return 1
	# a machine without cpuidle (this VM's kind): said so, respond too
	rm -rf "$CPUS"/cpu*/cpuidle
	"$SQWAVE" respond --board "$BOARD" --deepest-idle-state C1 --duration 100ms --quiet \
		--log "$TMP/w.sqwlog" > /dev/null 2> "$TMP/w.err"
	rc=$?
	[ $rc -eq 2 ] || fail "no cpuidle: exit $rc, expected 2: $(cat "$TMP/w.err")" || return 1
	grep -q "rt.idle_state C1: this machine has no idle states" "$TMP/w.err" ||
		fail "no cpuidle: $(cat "$TMP/w.err")" || return 1
}

test_this_machines_own_cpuidle() {
	# Where the machine exposes cpuidle, a real run restricts and restores
	# it; without cpuidle there is nothing to test for real.
	local live=/sys/devices/system/cpu/cpu0/cpuidle before after
	[ -r "$live/state0/disable" ] && [ "$(id -u)" -eq 0 ] || { echo "    no cpuidle here" >&2; return 77; }
	before=$(cat $live/state*/disable | tr '\n' ' ')
	SQWAVE_TEST_SYSFS_ROOT= "$SQWAVE" run --board "$BOARD" --cpu 0 --deepest-idle-state 0 \
		--duration 300ms --quiet --log "$TMP/live.sqwlog" --json "$TMP/live.json" \
		> "$TMP/live.out" 2> "$TMP/live.err" || fail "exit $?: $(cat "$TMP/live.err")" || return 1
	after=$(cat $live/state*/disable | tr '\n' ' ')
	[ "$before" = "$after" ] || fail "before '$before', after '$after'" || return 1
	python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["rt"]["idle_states"]["per_cpu"][0]
assert c["restricted"] and c["restored"] in (True, None), c' "$TMP/live.json" || return 1
}

e2e_run "idle e2e"
