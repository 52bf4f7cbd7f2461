#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of `sqwave check`, `sqwave boards` and `run --loopback` on
# the simulated board and its simulated wire, with fake /proc, /sys and
# device-tree trees where the machine's own would decide. Self-contained:
# SQWAVE=path/to/sqwave tests/e2e/check.sh from the repository root.
# Prints PASS/FAIL/SKIP per test; exit 1 if any failed.
. "$(dirname "$0")/lib.sh" sqwave-e2e-check

# A machine tuned the way the checks like it, with one thing left to fix
# (transparent huge pages: always), under $TMP/root.
fake_root() {
	local r=$TMP/root
	rm -rf "$r"
	mkdir -p "$r/proc/self" "$r/proc/sys/kernel" "$r/sys/kernel/mm/transparent_hugepage" \
		"$r/sys/devices/system/cpu/cpu1/topology" "$r/sys/devices/system/clocksource/clocksource0" \
		"$r/proc/irq"
	echo "isolcpus=1 nohz_full=1 rcu_nocbs=1 irqaffinity=0" > "$r/proc/cmdline"
	echo "#1 SMP PREEMPT_RT" > "$r/proc/sys/kernel/version"
	echo 1 > "$r/sys/kernel/realtime"
	echo 0-1 > "$r/sys/devices/system/cpu/possible"
	echo 0-1 > "$r/sys/devices/system/cpu/online"
	echo 1 > "$r/sys/devices/system/cpu/cpu1/topology/thread_siblings_list"
	echo 1 > "$r/proc/irq/default_smp_affinity"
	echo arch_sys_counter > "$r/sys/devices/system/clocksource/clocksource0/current_clocksource"
	printf 'cpu: 0\n .hres_active : 1\ncpu: 1\n .hres_active : 1\n' > "$r/proc/timer_list"
	echo 950000 > "$r/proc/sys/kernel/sched_rt_runtime_us"
	echo 0 > "$r/proc/sys/kernel/timer_migration"
	printf 'Filename\tType\tSize\tUsed\tPriority\n' > "$r/proc/swaps"
	printf 'Uid:\t0\t0\t0\t0\nVmSize:\t10000 kB\nCapEff:\t000001ffffffffff\nCpus_allowed_list:\t0-1\n' \
		> "$r/proc/self/status"
	echo "[always] madvise never" > "$r/sys/kernel/mm/transparent_hugepage/enabled"
	echo "$r"
}

test_the_simulated_board_checks_clean_end_to_end_with_json() {
	(cd "$TMP" && "$SQWAVE" check --board "$BOARD" --root "$(fake_root)" --cpu 1 \
		--json "$TMP/c.json" > "$TMP/c.out" 2> "$TMP/c.err")
	local rc=$?
	# the loopback checks run live: on a loaded machine the sim's event
	# queue may overflow, a FAIL of the machine's that must then say what
	# it lost (the rest of the test holds either way)
	if [ $rc -eq 1 ] && ! grep "^FAIL" "$TMP/c.out" | grep -qv "^FAIL loopback\.\(wired\|events\) "; then
		grep -q "^FAIL loopback\.\(wired .* of [0-9]* edges\|events .*dropped\)" "$TMP/c.out" ||
			fail "a loopback FAIL without its count: $(grep loopback "$TMP/c.out")" || return 1
		echo "    (the loopback lost events on this machine: $(grep "^FAIL loopback" "$TMP/c.out" | head -1))" >&2
		rc=0
	else
		# every edge arrived, or the kernel's drops (a full queue) are the
		# difference and said
		python3 - "$TMP/c.out" <<'PY' || fail "loopback: $(grep loopback "$TMP/c.out")" || return 1
import re, sys
t = open(sys.argv[1]).read()
m, n = map(int, re.search(r"^PASS loopback\.wired +(\d+) of (\d+) edges arrived", t, re.M).groups())
d = re.search(r"^WARN loopback\.events +(\d+) events? dropped", t, re.M)
assert m == n or d and m + int(d.group(1)) >= n, (m, n, d and d.group(0))
PY
	fi
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/c.out" "$TMP/c.err")" || return 1
	grep -q "^WARN mem.thp .*always" "$TMP/c.out" || fail "no THP warning" || return 1
	python3 - "$TMP/c.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "sqwave-check" and d["schema_version"] == 1
lost = [f for f in d["findings"] if f["status"] == "FAIL"]
assert all(f["id"] in ("loopback.wired", "loopback.events") for f in lost), lost
assert d["result"] == ("FAIL" if lost else "WARN") and d["exit_code"] == (1 if lost else 0), \
    (d["result"], d["exit_code"])
ids = {f["id"]: f for f in d["findings"]}
for k in ("kernel.preempt_rt", "cpu.isolcpus", "cpu.nohz_full", "power.dma_latency",
          "limits.memlock", "gpio.write_cost", "loopback.latency"):
    assert k in ids, k
assert ids["kernel.preempt_rt"]["status"] == "PASS"
assert ids["cpu.isolcpus"]["status"] == "PASS", ids["cpu.isolcpus"]
assert ids["mem.thp"]["status"] == "WARN" and ids["mem.thp"]["fix"]
assert d["counts"]["fail"] == len(lost) and d["run"] is None
PY
}

# The board's loopback input named among the outputs: one FAIL naming both
# keys, and the pin's record shows the line never written, probes included.
test_an_output_on_the_boards_loopback_input_fails_and_is_never_driven() {
	(cd "$TMP" && "$SQWAVE" check --board "$BOARD" --line 0,1 --json "$TMP/ol.json" \
		--set sim.history_file="$TMP/ol.csv" > "$TMP/ol.out" 2> "$TMP/ol.err")
	local rc=$?
	[ $rc -eq 1 ] || fail "exit $rc: $(cat "$TMP/ol.out" "$TMP/ol.err")" || return 1
	grep -q "^FAIL gpio.line.1 .*line 1 is the board's loopback input.*loopback.line \"1\", " \
		"$TMP/ol.out" || fail "no FAIL naming both: $(grep gpio.line "$TMP/ol.out")" || return 1
	grep -q "^SKIP gpio.group .*not requested" "$TMP/ol.out" ||
		fail "the group was requested: $(grep gpio.group "$TMP/ol.out")" || return 1
	# the loopback test still drives line 0 (the record exists), never line 1
	awk -F, '$1 == "write" && $3 == 0' "$TMP/ol.csv" | grep -q . ||
		fail "no record of line 0's writes" || return 1
	! awk -F, '$1 == "write" && $3 == 1' "$TMP/ol.csv" | grep -q . ||
		fail "line 1 was written: $(awk -F, '$1 == "write" && $3 == 1' "$TMP/ol.csv" |
			head -3)" || return 1
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d["findings"] if x["id"] == "gpio.line.1"]
assert f and f[0]["status"] == "FAIL", f
' "$TMP/ol.json" || fail "JSON" || return 1
}

test_a_virtual_machine_is_a_finding_read_through_the_root() {
	local r
	r=$(fake_root)
	printf 'processor\t: 0\nflags\t\t: fpu vme hypervisor\n' > "$r/proc/cpuinfo"
	"$SQWAVE" check --board "$BOARD" --root "$r" --cpu 1 > "$TMP/v.out" 2>&1
	grep -q "^WARN host.hypervisor .*a virtual machine: /proc/cpuinfo has the hypervisor flag" "$TMP/v.out" ||
		fail "$(grep hypervisor "$TMP/v.out")" || return 1
	grep -A2 "^WARN host.hypervisor" "$TMP/v.out" | grep -q "fix: measure on the board itself" || return 1
	printf 'processor\t: 0\nflags\t\t: fpu vme\n' > "$r/proc/cpuinfo"
	"$SQWAVE" check --board "$BOARD" --root "$r" --cpu 1 > "$TMP/v2.out" 2>&1
	grep -q "^PASS host.hypervisor .*no sign of a hypervisor (read: cpuinfo flags)" "$TMP/v2.out" ||
		fail "$(grep hypervisor "$TMP/v2.out")" || return 1
}

# The hardware-noise step on this machine's own kernel: where it has no
# hwlat tracer (a stock VM kernel: function and nop), a refusal that names
# CONFIG_HWLAT_TRACER, never a PASS; tracefs left as it was; the VM named.
test_check_hwlat_refuses_without_the_tracer_and_names_the_vm() {
	local tfs=/sys/kernel/tracing before after
	[ -r $tfs/available_tracers ] || mount -t tracefs nodev $tfs 2> /dev/null
	[ -r $tfs/available_tracers ] || { echo "    (no readable tracefs here: skipped)"; return 77; }
	before=$(cat $tfs/current_tracer $tfs/tracing_thresh $tfs/tracing_on)
	"$SQWAVE" check --board "$BOARD" --hwlat=1s --json "$TMP/n.json" > "$TMP/n.out" 2>&1
	local rc=$?
	[ $rc -le 1 ] || fail "exit $rc: $(cat "$TMP/n.out")" || return 1
	after=$(cat $tfs/current_tracer $tfs/tracing_thresh $tfs/tracing_on)
	[ "$before" = "$after" ] || fail "tracefs was \"$before\", now \"$after\"" || return 1
	if grep -qw hwlat $tfs/available_tracers; then
		grep -Eq "^(PASS|WARN|FAIL|SKIP) noise.hwlat " "$TMP/n.out" ||
			fail "$(grep noise "$TMP/n.out")" || return 1
	else
		grep -q "^SKIP noise.hwlat .*no hwlat tracer (CONFIG_HWLAT_TRACER; available_tracers: " \
			"$TMP/n.out" || fail "$(grep noise.hwlat "$TMP/n.out")" || return 1
	fi
	grep -Eq "^(PASS|WARN|SKIP) noise.smi " "$TMP/n.out" || fail "no noise.smi" || return 1
	if grep -qw hypervisor /proc/cpuinfo; then
		grep -q "^WARN host.hypervisor .*a virtual machine: /proc/cpuinfo has the hypervisor flag" \
			"$TMP/n.out" || fail "$(grep hypervisor "$TMP/n.out")" || return 1
	fi
	python3 - "$TMP/n.json" "$tfs" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
has = "hwlat" in open(sys.argv[2] + "/available_tracers").read().split()
n = d["noise"]
assert n["hwlat_tracer"] == has, n
ids = {f["id"]: f for f in d["findings"]}
if not has:
    assert n["hwlat"] is None and ids["noise.hwlat"]["status"] == "SKIP", n
    assert "CONFIG_HWLAT_TRACER=y" in ids["noise.hwlat"]["fix"]
smi = ids["noise.smi"]
assert (n["smi"] is None) == (smi["status"] == "SKIP"), (n, smi)
PY
	if python3 -c 'import jsonschema' 2> /dev/null; then
		python3 "$ROOT/tests/e2e/json_schema_check.py" "$ROOT/docs/schema" "$TMP/n.json" \
			> /dev/null || fail "the JSON does not validate" || return 1
	fi
}

# A copied tree whose kernel has the hwlat tracer: said, never run there,
# its tracefs files untouched.
test_check_hwlat_never_runs_in_a_copied_tree() {
	local r t
	r=$(fake_root)
	t=$r/sys/kernel/tracing
	mkdir -p "$t/hwlat_detector"
	echo "hwlat function nop" > "$t/available_tracers"
	echo nop > "$t/current_tracer"
	echo 0 > "$t/tracing_thresh"
	echo 1 > "$t/tracing_on"
	echo 500000 > "$t/hwlat_detector/width"
	echo 1000000 > "$t/hwlat_detector/window"
	(cd "$t" && md5sum current_tracer tracing_thresh tracing_on hwlat_detector/*) > "$TMP/t.md5"
	"$SQWAVE" check --board "$BOARD" --root "$r" --cpu 1 --hwlat=1s > "$TMP/t.out" 2>&1
	grep -q "^SKIP noise.hwlat .*a copied tree: its kernel has the hwlat tracer" "$TMP/t.out" ||
		fail "$(grep noise "$TMP/t.out")" || return 1
	(cd "$t" && md5sum -c --quiet "$TMP/t.md5") || fail "the tree's tracefs was written" || return 1
	"$SQWAVE" check --board "$BOARD" --root "$r" --hwlat=0.5ms > /dev/null 2>&1
	[ $? -eq 2 ] || fail "--hwlat=0.5ms (below 1 ms) is not a usage error" || return 1
	"$SQWAVE" check --board "$BOARD" --root "$r" --hwlat-threshold 0 > /dev/null 2>&1
	[ $? -eq 2 ] || fail "--hwlat-threshold 0 is not a usage error" || return 1
}

test_a_root_tree_is_what_the_header_and_findings_describe() {
	local r
	r=$(fake_root)
	echo dk > "$r/proc/sys/kernel/hostname"
	echo 6.6.48-rt40 > "$r/proc/sys/kernel/osrelease"
	(cd "$ROOT" && "$SQWAVE" check --board stm32mp135f-dk --root "$r" --run 1s \
		--json "$TMP/t.json" > "$TMP/t.out" 2>&1)
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/t.out")" || return 1
	grep -q "^root $r: a copied tree" "$TMP/t.out" || fail "$(head -3 "$TMP/t.out")" || return 1
	grep -q "^host dk, kernel 6.6.48-rt40, 2 CPUs (from the tree)$" "$TMP/t.out" ||
		fail "$(head -3 "$TMP/t.out")" || return 1
	grep -q "$(uname -r)" "$TMP/t.out" && fail "this machine's kernel in the header" && return 1
	# no board behind the tree: GPIO, the run and what the tree lacks are SKIP, never PASS
	grep -q "^SKIP gpio.chip .*is a copied tree" "$TMP/t.out" || fail "$(grep gpio "$TMP/t.out")" || return 1
	grep -q "^SKIP loopback.line .*is a copied tree" "$TMP/t.out" || return 1
	grep -q "^SKIP sched.rt_tasks .*no task could be read" "$TMP/t.out" || return 1
	grep -q "^SKIP power.dma_latency .*not held" "$TMP/t.out" || return 1
	grep -q "^SKIP run.verdict .*not run: --root" "$TMP/t.out" || return 1
	grep -q "==== sqwave summary ====" "$TMP/t.out" && fail "a run was made" && return 1
	python3 - "$TMP/t.json" "$r" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["root"] == sys.argv[2] and d["tree"] is True, (d["root"], d["tree"])
assert d["host"] == {"hostname": "dk", "kernel_release": "6.6.48-rt40", "cpus": 2}, d["host"]
ids = {f["id"]: f["status"] for f in d["findings"]}
assert ids["gpio.chip"] == "SKIP" and ids["sched.rt_tasks"] == "SKIP", ids
PY
}

test_a_delegated_service_refused_fifo_by_rt_group_sched_is_found() {
	local r
	r=$(fake_root)
	echo "0::/system.slice/sqwave@soak-1h.service" > "$r/proc/self/cgroup"
	mkdir -p "$r/sys/fs/cgroup/system.slice/sqwave@soak-1h.service" "$r/boot"
	echo "cpu memory pids" > "$r/sys/fs/cgroup/system.slice/cgroup.controllers"
	echo "cpu memory pids" > "$r/sys/fs/cgroup/system.slice/sqwave@soak-1h.service/cgroup.controllers"
	echo 6.6.48-rt40 > "$r/proc/sys/kernel/osrelease"
	echo "CONFIG_RT_GROUP_SCHED=y" > "$r/boot/config-6.6.48-rt40"
	"$SQWAVE" check --board "$BOARD" --root "$r" --cpu 1 > "$TMP/g.out" 2>&1
	[ $? -eq 1 ] || fail "exit not 1: $(grep rt_group "$TMP/g.out")" || return 1
	grep -q "^FAIL sched.rt_group .*sqwave@soak-1h.service has the cpu controller on and the kernel has CONFIG_RT_GROUP_SCHED" "$TMP/g.out" ||
		fail "$(grep -A2 rt_group "$TMP/g.out")" || return 1
	grep -A2 "^FAIL sched.rt_group" "$TMP/g.out" | grep -q "fix: .*Delegate=pids" || return 1
}

# The tree gives one WARN (mem.thp); the GPIO and loopback checks run live
# on the sim, and on a loaded machine its loopback may drop an event (a
# FAIL of the machine's). So the note is asked for exactly when the run's
# own count line says 0 FAIL; with a FAIL, exit 1 either way.
test_strict_fails_on_a_warning() {
	local counts
	"$SQWAVE" check --board "$BOARD" --root "$(fake_root)" --cpu 1 --strict > "$TMP/s.out" 2>&1
	local rc=$?
	[ $rc -eq 1 ] || fail "exit $rc, expected 1: $(tail -3 "$TMP/s.out")" || return 1
	grep -q "^WARN mem.thp" "$TMP/s.out" || fail "no WARN mem.thp" || return 1
	counts=$(grep "^check: " "$TMP/s.out")
	case $counts in
	*" 0 FAIL"*) grep -q "(--strict: a WARN fails)" "$TMP/s.out" || fail "no note: $counts" || return 1 ;;
	*) echo "    (a live check failed on this machine: $counts)" >&2 ;;
	esac
}

test_every_finding_is_listed_not_only_the_first_failure() {
	"$SQWAVE" check --board "$BOARD" --root "$(fake_root)" --cpu 7 --set sim.wire_line=-1 \
		--set sim.busy_line=0 > "$TMP/m.out" 2>&1
	local rc=$?
	[ $rc -eq 1 ] || fail "exit $rc, expected 1" || return 1
	grep -q "^FAIL cpu.pinned .*CPU 7 does not exist" "$TMP/m.out" || fail "cpu" || return 1
	grep -q "^FAIL gpio.busy .*used by \"sim-busy\"" "$TMP/m.out" || fail "busy" || return 1
	grep -q "^WARN mem.thp" "$TMP/m.out" || fail "later checks missing" || return 1
	grep -q "0 SKIP\|SKIP" "$TMP/m.out" || return 1
}

test_the_loopback_test_tells_unwired_from_wrongly_wired_and_lossy() {
	"$SQWAVE" check --board "$BOARD" --set sim.wire_line=-1 > "$TMP/w1.out" 2>&1
	[ $? -eq 1 ] || fail "unwired: exit not 1" || return 1
	grep -q "^FAIL loopback.wired .*not wired: no event on" "$TMP/w1.out" || return 1
	"$SQWAVE" check --board "$BOARD" --set sim.wire_line=3 > "$TMP/w2.out" 2>&1
	grep -q "^FAIL loopback.wired .*wired to another line: .*line 3 \"SIM3\" follows" "$TMP/w2.out" ||
		fail "$(grep loopback.wired "$TMP/w2.out")" || return 1
	"$SQWAVE" check --board "$BOARD" --set sim.wire_lose=9 > "$TMP/w3.out" 2>&1
	grep -q "^FAIL loopback.wired .*never reached the input (first: edge 9)" "$TMP/w3.out" ||
		fail "$(grep loopback.wired "$TMP/w3.out")" || return 1
}

test_check_run_without_limits_says_no_limits_never_pass() {
	(cd "$TMP" && "$SQWAVE" check --board "$BOARD" --run 1s --json "$TMP/r.json" \
		> "$TMP/r.out" 2> "$TMP/r.err")
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(tail -5 "$TMP/r.out" "$TMP/r.err")" || return 1
	grep -q "^WARN run.verdict .*NO LIMITS: this board gave Tmin/Tmax [0-9.]*/[0-9.]* us .*today; \(what broke: \|nothing broke\)" "$TMP/r.out" ||
		fail "$(grep run.verdict "$TMP/r.out")" || return 1
	grep -q "^PASS run.verdict" "$TMP/r.out" && fail "a run without limits passed" && return 1
	grep -q "==== sqwave summary ====" "$TMP/r.out" || fail "the run's summary" || return 1
	python3 - "$TMP/r.json" "$TMP" <<'PY' || return 1
import json, os, sys
d = json.load(open(sys.argv[1]))
r = d["run"]
assert r["exit_code"] == 0 and r["edges"] > 1000 and 0 < r["tmin_ns"] <= r["tmax_ns"], r
assert r["verdict"] == "NO LIMITS" and r["limits_set"] is False, r
assert isinstance(r["pulses_far"], int), r
f = [f for f in d["findings"] if f["id"] == "run.verdict"][0]
assert f["status"] == "WARN", f
assert os.path.exists(os.path.join(sys.argv[2], r["log"])), r["log"]
PY
	# --strict: a run without limits is not a pass either
	(cd "$TMP" && "$SQWAVE" check --board "$BOARD" --run 200ms --strict > "$TMP/rs.out" 2>&1)
	[ $? -eq 1 ] || fail "--strict without limits: exit not 1" || return 1
}

# check's report (text on stdout, or --json -) and the short run's own
# documents are one set of outputs: two on standard output are refused
# before anything runs, as every command refuses them; one is fine.
test_check_run_refuses_two_documents_on_standard_output() {
	local a
	for a in "--json - --set output.json=-" "--set output.json=-" "--set output.junit=-" \
		"--json - --set output.results=-"; do
		# shellcheck disable=SC2086 # the words of $a are the options
		(cd "$TMP" && "$SQWAVE" check --board "$BOARD" --run 1s $a > "$TMP/two.out" \
			2> "$TMP/two.err")
		[ $? -eq 2 ] || fail "$a: exit $?, want 2" || return 1
		grep -q "both write to standard output" "$TMP/two.err" || fail "$a: $(cat "$TMP/two.err")" ||
			return 1
		[ ! -s "$TMP/two.out" ] || fail "$a: wrote to stdout" || return 1
	done
	(cd "$TMP" && "$SQWAVE" check --board "$BOARD" --run 1s --json - \
		--set output.json="$TMP/run.json" > "$TMP/one.out" 2> "$TMP/one.err")
	[ $? -le 1 ] || fail "one on stdout: $(cat "$TMP/one.err")" || return 1
	python3 -c 'import json, sys; json.load(open(sys.argv[1])); json.load(open(sys.argv[2]))' \
		"$TMP/one.out" "$TMP/run.json" || fail "not one JSON document each" || return 1
}

# check_junit_matches XML JSON: the JUnit of check's findings is the JSON's
# findings, one case each in order: a FAIL (a WARN under strict) a failure
# of its status's type, a SKIP skipped, with the value and why and fix.
check_junit_matches() {
	python3 - "$1" "$2" <<'PY2'
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
doc = json.load(open(sys.argv[2]))
strict, findings = doc["strict"], doc["findings"]
suites = root.findall("testsuite")
assert len(suites) == 1 and suites[0].get("name") == "sqwave.check." + doc["board"]["name"], \
    [s.get("name") for s in suites]
s = suites[0]
cases = s.findall("testcase")
assert [c.get("name") for c in cases] == [f["id"] for f in findings], \
    ([c.get("name") for c in cases], [f["id"] for f in findings])
fails = skips = 0
for c, f in zip(cases, findings):
    assert c.get("classname") == s.get("name"), c.attrib
    failure, skipped = c.find("failure"), c.find("skipped")
    fails_check = f["status"] == "FAIL" or (strict and f["status"] == "WARN")
    assert (failure is not None) == fails_check, (f, c.attrib)
    assert (skipped is not None) == (f["status"] == "SKIP"), (f, c.attrib)
    words = [f["value"]] + ["why: " + f["why"]] * bool(f["why"]) + ["fix: " + f["fix"]] * bool(f["fix"])
    if failure is not None:
        fails += 1
        assert failure.get("type") == f["status"] and failure.get("message") == f["value"], failure.attrib
        assert failure.text == "\n".join(words), (failure.text, words)
    if skipped is not None:
        skips += 1
        assert skipped.get("message") == f["value"], skipped.attrib
    assert c.find("system-out").text == f["status"] + " " + "\n".join(words), c.find("system-out").text
assert int(s.get("tests")) == int(root.get("tests")) == len(findings)
assert int(s.get("failures")) == int(root.get("failures")) == fails
assert int(s.get("skipped")) == skips and int(s.get("errors")) == 0
# the JUnit fails where the check does
assert (fails > 0) == (doc["exit_code"] == 1), (fails, doc["exit_code"])
props = {p.get("name"): p.get("value") for p in s.iter("property")}
assert props["result"] == doc["result"] and props["strict"] == ("yes" if strict else "no"), props
PY2
}

test_check_junit_writes_each_finding_as_the_json_has_it() {
	local strict rc
	for strict in "" --strict; do
		# shellcheck disable=SC2086 # $strict is one option or none
		"$SQWAVE" check --board "$BOARD" $strict --junit "$TMP/c$strict.xml" \
			--json "$TMP/c$strict.json" > "$TMP/c.out" 2>&1
		rc=$?
		[ $rc -le 1 ] || fail "$strict: exit $rc: $(tail -3 "$TMP/c.out")" || return 1
		[ -s "$TMP/c$strict.xml" ] || fail "$strict: no JUnit written" || return 1
		check_junit_matches "$TMP/c$strict.xml" "$TMP/c$strict.json" || return 1
		python3 "$ROOT/tests/e2e/xunit_rules.py" "$TMP/c$strict.xml" || return 1
	done
	# on standard output it is alone there, the text on stderr; with the
	# JSON there too it is refused before anything is checked
	"$SQWAVE" check --board "$BOARD" --junit - > "$TMP/c.stdout" 2> "$TMP/c.stderr"
	[ $? -le 1 ] || fail "--junit -: $(tail -3 "$TMP/c.stderr")" || return 1
	python3 -c 'import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])' "$TMP/c.stdout" ||
		fail "--junit -: stdout is not the XML alone" || return 1
	grep -q "^check: " "$TMP/c.stderr" || fail "--junit -: no text on stderr" || return 1
	"$SQWAVE" check --board "$BOARD" --junit - --json - > "$TMP/c2.out" 2> "$TMP/c2.err"
	[ $? -eq 2 ] && [ ! -s "$TMP/c2.out" ] && grep -q "both write to standard output" "$TMP/c2.err" ||
		fail "--junit - --json -: $(cat "$TMP/c2.err")"
}

# the run's documents asked for on the command line without a run: refused,
# never a silent nothing (check's own reports are --json and --junit)
test_a_run_s_document_without_run_is_refused_not_silently_dropped() {
	local a rc
	for a in "--results $TMP/nr.txt" "--set output.json=$TMP/nr.json" \
		"--set output.junit=$TMP/nr.xml"; do
		# shellcheck disable=SC2086 # the words of $a are the options
		"$SQWAVE" check --board "$BOARD" $a > "$TMP/nr.out" 2> "$TMP/nr.err"
		rc=$?
		[ $rc -eq 2 ] || fail "$a: exit $rc, want 2" || return 1
		grep -q "is a document of the short run, and there is none without --run" "$TMP/nr.err" ||
			fail "$a: $(cat "$TMP/nr.err")" || return 1
		[ ! -s "$TMP/nr.out" ] || fail "$a: it checked" || return 1
	done
	! ls "$TMP"/nr.txt "$TMP"/nr.json "$TMP"/nr.xml 2> /dev/null || fail "a file was made"
}

# with --run, check's --junit is its findings (run.verdict among them) and
# the run's own checks go where output.junit says, as --json and output.json
test_check_run_junit_is_the_findings_and_output_junit_the_run_s_checks() {
	"$SQWAVE" check --board "$BOARD" --run 1s --junit "$TMP/cr.xml" --json "$TMP/cr.json" \
		--set output.junit="$TMP/run.xml" > "$TMP/cr.out" 2>&1
	[ $? -le 1 ] || fail "exit: $(tail -3 "$TMP/cr.out")" || return 1
	check_junit_matches "$TMP/cr.xml" "$TMP/cr.json" || return 1
	grep -q 'name="run.verdict"' "$TMP/cr.xml" || fail "no run.verdict case" || return 1
	python3 - "$TMP/run.xml" <<'PY2' || fail "output.junit is not the run's checks"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert [s.get("name") for s in r.findall("testsuite")] == ["sqwave.sim"], r
assert "tmax" in [c.get("name") for c in r.iter("testcase")]
PY2
}

# check --run of a 10/90 wave: what it counts as far from nominal is each
# pulse against its own level's time, recomputed here from the log's CSV,
# never the half period (which called every healthy pulse far).
test_check_run_judges_a_duty_wave_against_each_levels_time() {
	(cd "$TMP" && "$SQWAVE" check --board "$BOARD" --run 500ms --high 100us --low 900us \
		--log "$TMP/duty.sqwlog" --json "$TMP/duty.json" > "$TMP/duty.out" 2>&1)
	local rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "exit $rc: $(tail -3 "$TMP/duty.out")" || return 1
	! grep -q "far from the nominal 500.000" "$TMP/duty.out" ||
		fail "judged by the half period: $(grep run.verdict "$TMP/duty.out")" || return 1
	"$SQWAVE" export "$TMP/duty.sqwlog" --csv "$TMP/duty.csv" || return 1
	python3 - "$TMP/duty.csv" "$TMP/duty.json" <<'PY' || return 1
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
r = json.load(open(sys.argv[2]))["run"]
assert r["pin"]["nominal_ns"] == {"positive": 100000, "negative": 900000}, r["pin"]
far_off = r["pulses_far_off_ns"]
assert far_off == 50000, far_off	# half the shorter level
far = 0
for a, b in zip(rows, rows[1:]):
    if int(a["flags"]) & 1 or int(b["flags"]) & 1 or int(b["seq"]) != int(a["seq"]) + 1:
        continue
    w = ((int(b["write_begin_ns"]) + int(b["write_end_ns"])) // 2 -
         (int(a["write_begin_ns"]) + int(a["write_end_ns"])) // 2)
    far += abs(w - (100000 if a["level"] == "1" else 900000)) >= far_off
assert r["pulses_far"] == far, (r["pulses_far"], far)
for k in ("positive", "negative"):
    assert r[k] and r[k]["count"] > 0, (k, r[k])
PY
}

# check --run of two lines: it read both lines' logs (on main it looked for
# the base name and said it was incomplete, exit 3), each judged by its own
# wave, one finding and one JSON entry per line, the whole run's word FAIL
# only when a line's is.
test_check_run_of_several_lines_judges_each_line_by_its_own_log() {
	(cd "$TMP" && "$SQWAVE" check --board "$BOARD" --run 300ms --line 0,3 \
		--line-high 300us,100us --line-low 700us,900us --log "$TMP/two.sqwlog" \
		--json "$TMP/two.json" > "$TMP/two.out" 2>&1)
	local rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "exit $rc: $(tail -3 "$TMP/two.out")" || return 1
	grep -q "^WARN run.verdict.0 .*NO LIMITS" "$TMP/two.out" &&
		grep -q "^WARN run.verdict.3 .*NO LIMITS" "$TMP/two.out" ||
		fail "$(grep run.verdict "$TMP/two.out")" || return 1
	python3 - "$TMP/two.json" <<'PY' || return 1
import json, sys
r = json.load(open(sys.argv[1]))["run"]
lines = {l["line"]: l for l in r["lines"]}
assert sorted(lines) == ["0", "3"], lines.keys()
assert lines["0"]["pin"]["nominal_ns"] == {"positive": 300000, "negative": 700000}
assert lines["3"]["pin"]["nominal_ns"] == {"positive": 100000, "negative": 900000}
for l in lines.values():
    assert l["log"].endswith(".%s.sqwlog" % l["line"]) and l["verdict"] == "NO LIMITS", l
assert r["verdict"] == "NO LIMITS", r["verdict"]
PY
}

test_check_run_judges_by_the_limits_set_and_names_them() {
	(cd "$TMP" && "$SQWAVE" check --board "$BOARD" --run 500ms --tmin 1us --tmax 10s \
		--json "$TMP/l.json" > "$TMP/l.out" 2>&1)
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(grep run.verdict "$TMP/l.out")" || return 1
	grep -q "^PASS run.verdict .*within limits.tmin 1us (command line), limits.tmax 10s (command line); this board gives Tmin/Tmax" "$TMP/l.out" ||
		fail "$(grep run.verdict "$TMP/l.out")" || return 1
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["run"]
assert r["verdict"] == "PASS" and r["limits_set"] is True, r' "$TMP/l.json" || return 1
	# a limit no pulse can keep: FAIL, with the violation, exit 1
	(cd "$TMP" && "$SQWAVE" check --board "$BOARD" --run 300ms --tmax 400us > "$TMP/f.out" 2>&1)
	rc=$?
	[ $rc -eq 1 ] || fail "exit $rc, expected 1" || return 1
	grep -q "^FAIL run.verdict .*above limits.tmax 400.000 us; this board gave" "$TMP/f.out" ||
		fail "$(grep -A2 run.verdict "$TMP/f.out")" || return 1
}

test_json_to_stdout_keeps_the_text_off_it() {
	(cd "$TMP" && "$SQWAVE" check --board "$BOARD" --run 200ms --json - > "$TMP/j.json" 2> "$TMP/j.txt")
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/j.json" ||
		fail "stdout is not JSON" || return 1
	grep -q "^PASS gpio.chip" "$TMP/j.txt" || fail "no text on stderr" || return 1
	grep -q "==== sqwave summary ====" "$TMP/j.txt" || fail "no run summary on stderr" || return 1
}

test_a_bad_option_or_board_is_a_usage_error() {
	"$SQWAVE" check --board no-such-board > /dev/null 2> "$TMP/u.err"
	[ $? -eq 2 ] || return 1
	grep -q "no board file or board named \"no-such-board\"" "$TMP/u.err" || return 1
	"$SQWAVE" check --board "$BOARD" --run forever > /dev/null 2>&1
	[ $? -eq 2 ] || return 1
	"$SQWAVE" check --board "$BOARD" --root "$TMP/nowhere" > "$TMP/u.out" 2>&1
	[ $? -eq 3 ] || fail "an unreadable root must be exit 3" || return 1
}

# The log's loopback events, read independently of sqwave (docs/log-format.md).
read_loopback_py='
import struct, sys
d = open(sys.argv[1], "rb").read()
off = struct.unpack_from("<I", d, 16)[0]
recs, pairs = {}, []
while off + 32 <= len(d):
    seq = struct.unpack_from("<Q", d, off)[0]
    if seq == 0xfffffffffffffffe:
        t, typ, _, ln = struct.unpack_from("<QHHI", d, off + 8)
        if typ == 5:
            for i in range(0, ln, 16):
                pairs.append(struct.unpack_from("<QQ", d, off + 32 + i))
        off += 32 + (ln + 31) // 32 * 32
        continue
    if seq == 0xffffffffffffffff:
        break
    s, intended, wake, wb, we = struct.unpack_from("<QQiii", d, off)
    recs[s] = (intended + wb, intended + we)
    off += 32
'

test_run_loopback_logs_each_edges_event_next_to_it() {
	"$SQWAVE" run --board "$BOARD" --duration 1s --loopback --quiet --log "$TMP/lb.sqwlog" \
		> /dev/null 2> "$TMP/lb.err" || fail "$(cat "$TMP/lb.err")" || return 1
	grep -q "loopback: [0-9]* edge events .* logged for [0-9]* edges (0 dropped" "$TMP/lb.err" ||
		fail "$(cat "$TMP/lb.err")" || return 1
	python3 -c "$read_loopback_py"'
assert pairs and len(pairs) == len(recs), (len(pairs), len(recs))
for s, t in pairs:
    b, e = recs[s]
    # the simulated write lies inside [write_begin, write_end]; the wire adds 10 us
    assert b + 10000 <= t <= e + 10000, (s, t - b, e - b)
assert [s for s, t in pairs] == sorted(recs)
' "$TMP/lb.sqwlog" || return 1
	# The run still reads as a plain log.
	"$SQWAVE" export "$TMP/lb.sqwlog" --csv "$TMP/lb.csv" 2> "$TMP/lb.exp" || return 1
}

test_run_loopback_pairs_by_kernel_order_after_a_lost_edge() {
	# The documented rule: the n-th event the input saw is edge n-1; a lost
	# edge shifts the rest, which then lie a half period after their edge.
	"$SQWAVE" run --board "$BOARD" --duration 200ms --loopback --quiet --set sim.wire_lose=3 \
		--log "$TMP/ll.sqwlog" > /dev/null 2>&1 || return 1
	python3 -c "$read_loopback_py"'
assert len(pairs) == len(recs) - 1, (len(pairs), len(recs))
# Before the loss each event belongs to its own edge; from edge 3 on, to the next:
# the simulated write lies inside that write window, the wire adds 10 us.
for s, t in pairs:
    b, e = recs[s if s < 3 else s + 1]
    assert b + 10000 <= t <= e + 10000, (s, t - b)
' "$TMP/ll.sqwlog" || return 1
}

test_run_loopback_waits_for_the_last_edges_events() {
	# A slow wire: the last edges' events come 150 ms after the loop ended,
	# later than the run notices its end; the log must still have them all.
	"$SQWAVE" run --board "$BOARD" --duration 100ms --loopback --quiet --set sim.wire_delay=150ms \
		--log "$TMP/ld.sqwlog" > /dev/null 2>&1 || return 1
	python3 -c "$read_loopback_py"'
assert len(pairs) == len(recs), (len(pairs), len(recs))
' "$TMP/ld.sqwlog" || return 1
}

test_run_loopback_without_a_loopback_section_is_a_usage_error() {
	"$SQWAVE" run --board "$BOARD" --set loopback.chip= --set loopback.line= --loopback \
		--duration 100ms --quiet --log "$TMP/x.sqwlog" > /dev/null 2> "$TMP/x.err"
	[ $? -eq 2 ] || return 1
	grep -q "run.loopback needs the board file's loopback section" "$TMP/x.err" || return 1
}

test_chip_and_line_say_everything_without_a_board_file() {
	"$SQWAVE" run --set gpio.backend=sim --chip 0 --line 1 --duration 100ms --quiet \
		--log "$TMP/n.sqwlog" > "$TMP/n.out" 2> "$TMP/n.err" ||
		fail "$(cat "$TMP/n.err")" || return 1
	grep -q "gpiochip0 \[sqwave-sim\] line 1" "$TMP/n.out" || return 1
	"$SQWAVE" run --duration 100ms > /dev/null 2> "$TMP/n2.err"
	[ $? -eq 2 ] || return 1
	grep -q -- "--board FILE|NAME is required, or --chip and --line" "$TMP/n2.err" || return 1
}

test_boards_by_short_name_and_where_each_came_from() {
	mkdir -p "$TMP/xdg/sqwave/boards" "$TMP/cwd"
	sed 's/name: sim/name: mine/' "$BOARD" > "$TMP/xdg/sqwave/boards/mine.yaml"
	cp "$BOARD" "$TMP/xdg/sqwave/boards/sim.yaml"
	(cd "$ROOT" && XDG_CONFIG_HOME=$TMP/xdg "$SQWAVE" boards > "$TMP/b.out") || return 1
	grep -q "^  mine  *\$XDG_CONFIG_HOME/sqwave/boards  *Simulated GPIO chip" "$TMP/b.out" ||
		fail "$(cat "$TMP/b.out")" || return 1
	grep -q "^  sim  *\$XDG_CONFIG_HOME/sqwave/boards  *(hidden by ./boards/sim.yaml)" "$TMP/b.out" ||
		fail "$(cat "$TMP/b.out")" || return 1
	grep -q "^  quick  *./config" "$TMP/b.out" || return 1
	(cd "$TMP/cwd" && XDG_CONFIG_HOME=$TMP/xdg "$SQWAVE" run --board mine --duration 100ms \
		--quiet --log m.sqwlog > "$TMP/bm.out" 2>&1) || fail "$(cat "$TMP/bm.out")" || return 1
	grep -q "board      mine (.*xdg/sqwave/boards/mine.yaml)" "$TMP/bm.out" || return 1
}

# Each profile with its one line (run.description), or what it lacks.
test_boards_lists_each_profile_with_its_description() {
	mkdir -p "$TMP/xdgp/sqwave/config"
	printf 'run:\n  duration: 1s\n' > "$TMP/xdgp/sqwave/config/plain.yaml"
	printf 'run:\n  description: "mine: one second"\n  duration: 1s\n' \
		> "$TMP/xdgp/sqwave/config/mine.yaml"
	printf 'run:\n  descripton: typo\n' > "$TMP/xdgp/sqwave/config/typo.yaml"
	(cd "$ROOT" && XDG_CONFIG_HOME=$TMP/xdgp "$SQWAVE" boards > "$TMP/bp.out") || return 1
	grep -q "^  quick  *./config  *10 s of 1 kHz with loose limits" "$TMP/bp.out" ||
		fail "$(cat "$TMP/bp.out")" || return 1
	grep -q "^  soak-1h  *./config  *Reference soak: 10 min idle, 50 min" "$TMP/bp.out" ||
		fail "$(cat "$TMP/bp.out")" || return 1
	grep -q "^  mine  *\$XDG_CONFIG_HOME/sqwave/config  *mine: one second\$" "$TMP/bp.out" ||
		fail "$(cat "$TMP/bp.out")" || return 1
	grep -q "^  plain  .*(no run.description) .*plain.yaml" "$TMP/bp.out" ||
		fail "$(cat "$TMP/bp.out")" || return 1
	grep -q "^  typo  .*INVALID: .*descripton" "$TMP/bp.out" || fail "$(cat "$TMP/bp.out")" || return 1
	# every profile shipped has one
	! grep -A0 "^  .*  ./config  .*(no run.description)" "$TMP/bp.out" ||
		fail "a shipped profile without run.description" || return 1
}

test_boards_detect_names_the_board_or_what_to_collect() {
	local r=$TMP/dt
	mkdir -p "$r/proc/device-tree"
	printf 'st,stm32mp135f-dk\0st,stm32mp135\0' > "$r/proc/device-tree/compatible"
	(cd "$ROOT" && "$SQWAVE" boards detect --root "$r" > "$TMP/d.out") ||
		fail "exit $?: $(cat "$TMP/d.out")" || return 1
	grep -q '^board: stm32mp135f-dk (./boards/stm32mp135f-dk.yaml), matched on device-tree compatible "st,stm32mp135f-dk"' \
		"$TMP/d.out" || fail "$(cat "$TMP/d.out")" || return 1
	printf 'acme,widget\0' > "$r/proc/device-tree/compatible"
	(cd "$ROOT" && "$SQWAVE" boards detect --root "$r" > "$TMP/d2.out")
	[ $? -eq 1 ] || return 1
	grep -q "no board file matches" "$TMP/d2.out" || return 1
	grep -q '"acme,widget"' "$TMP/d2.out" || return 1
	grep -q "gpiodetect" "$TMP/d2.out" || return 1
}

# The acceptance case: with the capabilities sqwave itself advises
# (cap_sys_nice, cap_ipc_lock) and no root, check does not FAIL on
# privileges, and when the run is fully real-time, check has no FAIL at all.
test_with_the_advised_capabilities_check_agrees_with_a_real_time_run() {
	command -v setpriv > /dev/null || return 77
	[ "$(id -u)" -eq 0 ] || return 77
	local d=$TMP/caps
	# the binary itself, not run-all's keep-json wrapper around it
	mkdir -p "$d" && cp "${SQWAVE_REAL:-$SQWAVE}" "$BOARD" "$d/" && chmod 777 "$d" && chmod 755 "$TMP" &&
		chmod 644 "$d/sim.yaml"
	local as="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+sys_nice,+ipc_lock --ambient-caps=+sys_nice,+ipc_lock"
	# /dev/cpu_dma_latency is root's: leave it alone in both, so that only
	# the two capabilities decide.
	(cd "$d" && $as ./sqwave check --board sim.yaml --dma-latency -1 --json c.json > c.out 2>&1)
	local crc=$?
	grep -q "^PASS limits.rtprio .*CAP_SYS_NICE" "$d/c.out" || fail "$(grep limits "$d/c.out")" || return 1
	grep -q "^PASS limits.memlock .*CAP_IPC_LOCK" "$d/c.out" || fail "$(grep limits "$d/c.out")" || return 1
	(cd "$d" && $as ./sqwave run --board sim.yaml --dma-latency -1 --duration 300ms --quiet \
		--log r.sqwlog --json r.json > r.out 2>&1) || fail "run: $(cat "$d/r.out")" || return 1
	python3 - "$d/r.json" "$d/c.json" "$crc" <<'PY' || return 1
import json, sys
run, chk, crc = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
fails = [f["id"] for f in chk["findings"] if f["status"] == "FAIL"]
if run["rt"]["ok"]:
    assert not fails and crc == 0, (fails, crc)
assert not [f for f in fails if f.startswith("limits.")], fails
PY
}

e2e_run --count-skips "check e2e"
