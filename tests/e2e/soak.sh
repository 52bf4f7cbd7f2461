#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of the soak: phases, loads (a real CoreMark built from
# ../shared/vendor, stress-ng, hackbench, a ping flood across a veth pair
# into a network namespace this test makes and removes), proof of load, and
# that no load process outlives sqwave: normal end, SIGTERM, SIGKILL.
# Never asserts timing. SQWAVE=... COREMARK=... tests/e2e/soak.sh
. "$(dirname "$0")/lib.sh" sqwave-e2e-soak
NS=sqw$$
VA=sqwv$$a
VB=sqwv$$b
e2e_cleanup() {
	ip netns del "$NS" 2> /dev/null
	ip link del "$VA" 2> /dev/null
	cleanup_cgroups
}

# The flood's target: a veth peer in a namespace of our own, else loopback.
FLOOD_TARGET=127.0.0.1
FLOOD_IF=lo
if [ "$(id -u)" -eq 0 ] && ip netns add "$NS" 2> /dev/null; then
	o=$((RANDOM % 200 + 20))
	if ip link add "$VA" type veth peer name "$VB" &&
	   ip link set "$VB" netns "$NS" &&
	   ip addr add "10.213.$o.1/30" dev "$VA" && ip link set "$VA" up &&
	   ip -n "$NS" addr add "10.213.$o.2/30" dev "$VB" && ip -n "$NS" link set "$VB" up &&
	   ip -n "$NS" link set lo up; then
		FLOOD_TARGET=10.213.$o.2
		FLOOD_IF=$VA
		HOST_IP=10.213.$o.1
	fi
fi

# Every process whose ancestry leads to $1, and every member of sqwave's
# cgroups (the loads' process groups may have left the tree).
descendants() {
	python3 - "$1" <<'PY'
import os, sys, glob
root = int(sys.argv[1])
parent = {}
for d in os.listdir("/proc"):
    if d.isdigit():
        try:
            st = open(f"/proc/{d}/stat").read()
            parent[int(d)] = int(st[st.rindex(")") + 2:].split()[1])
        except OSError:
            pass
out = set()
for p in parent:
    q, seen = p, 0
    while q > 1 and seen < 64:
        if parent.get(q) == root:
            out.add(p)
            break
        q, seen = parent.get(q, 0), seen + 1
for f in (glob.glob(f"/sys/fs/cgroup/**/sqwave.{root}/*/cgroup.procs", recursive=True) +
          glob.glob(f"/sys/fs/cgroup/**/sqwave.{root}.*/*/cgroup.procs", recursive=True)):
    out.update(int(x) for x in open(f).read().split())
print(" ".join(map(str, sorted(out))))
PY
}

# True when none of the pids is alive (zombies count as gone), waiting up to 5 s.
all_gone() {
	local i p alive
	for i in $(seq 50); do
		alive=""
		for p in "$@"; do
			[ -r "/proc/$p/stat" ] || continue
			grep -q ') Z ' "/proc/$p/stat" 2> /dev/null && continue
			alive="$alive $p"
		done
		[ -z "$alive" ] && return 0
		sleep 0.1
	done
	echo "    still alive:$alive ($(for p in $alive; do tr '\0' ' ' < /proc/$p/cmdline; echo; done))" >&2
	return 1
}

have_coremark() { [ -n "${COREMARK:-}" ] && [ -x "$COREMARK" ]; }

# Cgroups of this script's own, one in each hierarchy containment uses
# (cgroup2; v1's freezer and pids), named so that no sqwave's sweep takes
# them for a run's ("sqwave.PID..."); none where they cannot be made.
OWN_CGS=""
if [ "$(id -u)" -eq 0 ]; then
	for r in $(awk '$3 == "cgroup2" { print $2 }
		$3 == "cgroup" && $4 ~ /(^|,)(freezer|pids)(,|$)/ { print $2 }' /proc/self/mounts); do
		mkdir "$r/sqwave-e2e-soak.$$" 2> /dev/null && OWN_CGS="$OWN_CGS $r/sqwave-e2e-soak.$$"
	done
fi
cleanup_cgroups() {
	local d
	for d in $OWN_CGS; do
		find "$d" -mindepth 1 -depth -type d -exec rmdir {} \; 2> /dev/null
		rmdir "$d" 2> /dev/null
	done
}
# Move this (sub)shell into them: ( enter_own_cgroups && exec CMD... )
# runs CMD there, as one process whose pid is $!.
enter_own_cgroups() {
	local d
	for d in $OWN_CGS; do
		echo $BASHPID > "$d/cgroup.procs" || return 1
	done
}

# Whether the loads were applied is this machine's business (beside
# other work a load's own CPU time can fall below proof.min_busy, a flood
# can slow down): the test holds the verdict to the measurement beside it,
# and that measurement to the samples in the log, never to "applied".
test_a_soak_applies_its_loads_and_proves_it() {
	local cm_load=""
	if have_coremark; then
		cm_load="      - kind: coremark
        path: $COREMARK"
	else
		echo "    (no CoreMark: ../shared/vendor/coremark absent; the CoreMark case is skipped)"
	fi
	cat > "$TMP/soak.yaml" <<EOF
run:
  half_period: 100us
  warmup: 1s
  label: e2e-soak
rt:
  cpu: 1
# A shared test machine's CPU 0 may be anything but idle: the idle rule has
# its own test (an idle phase that was not idle), this one is about loads.
# On two CPUs, CoreMark, stress-ng and the flood share CPU 0: each CPU load
# gets about a third of it by its own CPU time, which is what it is judged
# by (a load starved below proof.min_busy has its own test).
proof:
  idle_max_busy: 100
  min_busy: 20
phases:
  - name: idle
    duration: 8s
  - name: loaded
    duration: 42s
    load:
$cm_load
      - kind: stress-ng
        args: [--cpu, "1", --quiet]
      - kind: ping-flood
        target: $FLOOD_TARGET
        interface: $FLOOD_IF
EOF
	"$SQWAVE" run --board "$BOARD" --profile "$TMP/soak.yaml" --log "$TMP/soak.sqwlog" \
		--json "$TMP/soak.json" --status-interval 5s > "$TMP/soak.out" 2> "$TMP/soak.err"
	local rc=$?
	# no limits: exit 0, or 1 when a load was not applied (checked below)
	[ $rc -eq 0 ] || [ $rc -eq 1 ] ||
		fail "exit $rc: $(tail -5 "$TMP/soak.err") $(grep -A8 '^verdict' "$TMP/soak.out")" || return 1
	grep -q "^  idle " "$TMP/soak.out" && grep -q "^  loaded " "$TMP/soak.out" ||
		fail "no per-phase rows in the summary" || return 1
	grep -q "phase loaded" "$TMP/soak.err" || grep -q "| loaded |" "$TMP/soak.err" ||
		fail "the status line never named the phase" || return 1
	python3 - "$TMP/soak.json" "$TMP/soak.sqwlog" "$FLOOD_IF" "$HERE" \
		"$(have_coremark && echo 1 || echo 0)" "$rc" <<'PY' || return 1
import json, os, sys
sys.path.insert(0, sys.argv[4])
import sqwlog
js, log, iface, cm = json.load(open(sys.argv[1])), sqwlog.read(sys.argv[2]), sys.argv[3], sys.argv[5] == "1"
rc = int(sys.argv[6])
assert js["label"] == "e2e-soak"
assert js["counts"]["dropped"] == 0 and js["counts"]["seq_gaps"] == 0, js["counts"]
ph = {p["name"]: p for p in js["phases"]}
assert list(ph) == ["idle", "loaded"], list(ph)
edges = sum(p["counts"]["edges"] for p in js["phases"])
# every counted edge is in one phase (a boundary costs at most one pulse, not an edge)
assert edges == js["counts"]["edges"], (edges, js["counts"]["edges"])
assert ph["idle"]["counts"]["edges"] > 0 and ph["loaded"]["counts"]["edges"] > 0
# the log: phases, load events, samples, footer
ev = log["events"]
phases = [e for e in ev if e["type"] == "phase"]
assert [p["kv"]["name"] for p in phases] == ["idle", "loaded"], phases
started = {e["kv"]["load"] for e in ev if e["type"] == "load" and e["kv"]["event"] == "started"}
want = {"stress-ng", "ping-flood"} | ({"coremark"} if cm else set())
assert started == want, started
stopped = [e for e in ev if e["type"] == "load" and e["kv"]["event"] == "stopped"]
assert len(stopped) >= len(want), stopped
samples = [e for e in ev if e["type"] == "sample"]
assert samples, "no samples"
for i, smp in enumerate(samples):
    kv = smp["kv"]
    busy = [float(x.split(":")[1]) for x in kv["cpu"].split(",")]
    assert all(0 <= b <= 100 for b in busy), kv["cpu"]
    assert float(kv["irq_s"]) >= 0 and float(kv["ctxt_s"]) >= 0
    # each sample's interval ends where the next begins: none lost
    if i:
        assert smp["t_ns"] - samples[i - 1]["t_ns"] == int(kv["dt_ns"]), (i, smp)
# The loaded phase's proof, recomputed from its samples (those whose whole
# interval lies inside it, as soak.c counts them; one decimal in the log)
t_loaded = phases[1]["t_ns"]
mine = [x["kv"] for x in samples if x["t_ns"] - int(x["kv"]["dt_ns"]) >= t_loaded]
assert mine, "no sample inside the loaded phase"
proof = ph["loaded"]["proof"]
assert proof["samples"] == len(mine), (proof["samples"], len(mine))
def mean(v):
    return sum(v) / len(v)
def own(name):
    v = [float(o.split(":")[1]) for kv in mine for o in kv.get("own", "").split(",")
         if o.split(":")[0] == name]
    return mean(v) if v else None
def cpu(n):
    return mean([float(dict(x.split(":") for x in kv["cpu"].split(","))[str(n)]) for kv in mine])
def pps(name):
    v = [sum(float(p) for p in x.split(":")[-1].split("/")) for kv in mine
         for x in kv["net"].split(",") if x.rsplit(":", 1)[0] == name]
    return mean(v)
loads = {l["name"]: l for l in proof["loads"]}
checks = [c for c in js["verdict"]["checks"] if c["phase"] == "loaded" and c["load"]]
failed = {(c["load"], c["name"]) for c in checks if c["result"] == "fail"}
for c in checks:
    if c["observed"] is None:
        continue
    # each check's verdict is its own figure against its own limit
    low = c["observed"] < c["limit"] if c["bound"] == "min" else c["observed"] > c["limit"]
    assert (c["result"] == "fail") == low, c
for name in ["stress-ng"] + (["coremark"] if cm else []):
    l = loads[name]
    # judged by its own CPU time, shown beside the system-wide figure
    assert abs(l["own_busy_pct"] - own(name)) <= 0.1, (name, l, own(name))
    assert abs(l["busy_pct"] - cpu(0)) <= 0.1, (name, l, cpu(0))
    assert l["own_busy_pct"] <= l["busy_pct"] + 1, l
    ck = [c for c in checks if c["load"] == name and c["name"] == "cpu_busy"]
    assert len(ck) == 1 and abs(ck[0]["observed"] - l["own_busy_pct"]) < 0.001 and ck[0]["limit"] == 20, ck
    said = any(w.startswith("load not applied: %s: own CPU time" % name) for w in ph["loaded"]["load_not_applied"])
    assert said == (l["own_busy_pct"] < 20), (name, said, l)
fl = loads["ping-flood"]
assert fl["interface"] == iface and fl["min_packets_per_s"] == 1000, fl
assert abs(fl["packets_per_s"] - pps(iface)) <= 0.1, (fl, pps(iface))
said = any(w.startswith("load not applied: ping-flood") for w in ph["loaded"]["load_not_applied"])
assert said == (fl["packets_per_s"] < 1000), (said, fl)
if cm:
    res = [e["kv"] for e in ev if e["type"] == "load" and e["kv"]["event"] == "result"
           and e["t_ns"] >= t_loaded]
    valid = [r for r in res if r["valid"] == "1"]
    assert all(float(r["score"]) > 0 for r in valid), valid
    assert loads["coremark"]["valid_scores"] == len(valid), (loads["coremark"], res)
    said = any("coremark gave no score" in w for w in ph["loaded"]["load_not_applied"])
    assert said == (len(valid) == 0), (said, res)
    if valid:
        assert loads["coremark"]["mean_score"] > 0
# every failed check is one "load not applied" line, and the verdict is theirs
assert len(failed) == len(ph["loaded"]["load_not_applied"]), (failed, ph["loaded"]["load_not_applied"])
assert ph["idle"]["load_not_applied"] == [], ph["idle"]
applied = not failed
assert js["verdict"]["load_applied"] == applied, js["verdict"]
assert (js["verdict"]["result"] in ("PASS", "NO LIMITS")) == applied, js["verdict"]
assert (js["verdict"]["result"] == "LOAD NOT APPLIED") == (not applied), js["verdict"]
assert js["verdict"]["pass"] == applied and rc == (0 if applied else 1), (js["verdict"], rc)
assert log["footer"]["dropped"] == 0 and log["footer"]["exit_code"] == rc, log["footer"]
print("    (this machine: the loads were %s)" % ("applied" if applied else
      "not applied: " + "; ".join(ph["loaded"]["load_not_applied"])))
# nothing left: every load pid in the log is gone
for e in ev:
    if e["type"] == "load" and e["kv"]["event"] in ("started", "restarted"):
        pid = int(e["kv"]["pid"])
        try:
            st = open(f"/proc/{pid}/stat").read()
            assert ") Z " in st, f"load {e['kv']['load']} pid {pid} still runs"
        except FileNotFoundError:
            pass
PY
	# the run's own cgroup directory (in its containment line) is gone
	local cg
	cg=$(python3 -c 'import json, re, sys
m = re.search(r"\((/[^)]*)\)", json.load(open(sys.argv[1]))["containment"])
print(m.group(1) if m else "")' "$TMP/soak.json")
	[ -z "$cg" ] || [ ! -e "$cg" ] || fail "its cgroup $cg was left behind" || return 1
}

# The soak's log, analyzed later, gives the run summary's phases and proof;
# report reads the log and the summary to the same rows.
test_a_soak_log_analyzed_gives_back_the_summary_phases_and_the_same_report() {
	[ -f "$TMP/soak.sqwlog" ] || { echo "    (no soak log: the soak test failed first)"; return 1; }
	"$SQWAVE" analyze "$TMP/soak.sqwlog" --json "$TMP/an.json" > "$TMP/an.txt" 2> "$TMP/an.err" ||
		fail "analyze: $(cat "$TMP/an.err")" || return 1
	grep -q "^  loaded " "$TMP/an.txt" || fail "no phase rows in analyze's text" || return 1
	python3 - "$TMP/soak.json" "$TMP/an.json" <<'PY' || return 1
import json, sys
run, an = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert an["label"] == run["label"]
for pr, pa in zip(run["phases"], an["phases"]):
    assert pr["name"] == pa["name"]
    assert pr["counts"] == pa["counts"], (pr["counts"], pa["counts"])
    for k in ("tmin", "tmax", "tmin_bound", "tmax_bound"):
        assert pr["pulse_width"]["any"][k] == pa["pulse_width"]["any"][k], k
    assert pr["wake_latency"]["max_ns"] == pa["wake_latency"]["max_ns"]
    assert pr["load_not_applied"] == pa["load_not_applied"]
    assert pr["proof"]["samples"] == pa["proof"]["samples"], (pr["proof"]["samples"], pa["proof"]["samples"])
    for lr, la in zip(pr["proof"]["loads"], pa["proof"]["loads"]):
        assert lr["name"] == la["name"]
        for k in ("busy_pct", "packets_per_s", "valid_scores", "restarts", "lost"):
            if k in lr:
                assert abs(lr[k] - la[k]) < 0.5 if isinstance(lr[k], float) else lr[k] == la[k], (k, lr, la)
h = an["phases"][1]["pulse_width"]["any"]["histogram"]
# every pulse is in a bin or counted beside the bins: past the range the
# histogram keeps (below/above) or past its bulk's bins (shorter/longer)
assert sum(h["counts"]) + h["below"] + h["above"] + h["shorter"] + h["longer"] == \
    an["phases"][1]["pulse_width"]["any"]["count"], h
PY
	# its picture: each phase shaded and named, where the load began, and
	# the proof of load under the plots over time (5 s rows for a 51 s run)
	"$SQWAVE" analyze "$TMP/soak.sqwlog" --quiet --timeline 5s --svg "$TMP/an.svg" 2> "$TMP/svg.err" ||
		fail "analyze --svg: $(cat "$TMP/svg.err")" || return 1
	python3 - "$TMP/an.svg" <<'PY' || return 1
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
of = lambda c: [e for e in root.iter() if e.get("class") == c]
names = [e.text for e in of("phase-label")]
assert names.count("idle") == 2 and names.count("loaded") == 2, names
assert len(of("phase-band")) == 2 * 3, len(of("phase-band"))
xs = {round(float(e.get("x1")), 1) for e in of("phase-boundary")}
assert len(of("phase-boundary")) == 3 and len(xs) == 1, xs
assert of("proof-busy") and of("proof-pps")
texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
assert "Proof of load over time" in texts and "CPU busy (%)" in texts and "pkt/s" in texts
# CPU busy is drawn in both phases, and above 0 % while stress-ng ran (the
# strip's bottom is its bands' bottom); no comparison with idle's: a shared
# machine's idle phase may be as busy
bx = sorted(xs)[0]
band = of("phase-band")[-1]
bottom = float(band.get("y")) + float(band.get("height"))
# every piece of the line (it breaks where a step has no sample)
pts = [tuple(map(float, p.split(","))) for pl in of("proof-busy") for p in pl.get("points").split()]
idle = [y for x, y in pts if x < bx - 1]
loaded = [y for x, y in pts if x > bx + 1]
assert idle and loaded and min(loaded) < bottom - 1, (idle, loaded, bottom)
PY
	# report's exit is the run's verdict: 1 when a load was not applied
	local want rc
	want=$(python3 -c 'import json, sys; print(0 if json.load(open(sys.argv[1]))["verdict"]["pass"] else 1)' \
		"$TMP/soak.json")
	"$SQWAVE" report "$TMP/soak.sqwlog" --json "$TMP/r1.json" -q 2> "$TMP/r1.err"
	rc=$?
	[ $rc -eq "$want" ] || fail "report of the log: exit $rc, expected $want: $(cat "$TMP/r1.err")" || return 1
	"$SQWAVE" report "$TMP/soak.json" --json "$TMP/r2.json" --svg "$TMP/r2.svg" -q 2> "$TMP/r2.err"
	rc=$?
	[ $rc -eq "$want" ] || fail "report of the summary: exit $rc, expected $want: $(cat "$TMP/r2.err")" ||
		return 1
	python3 - "$TMP/r1.json" "$TMP/r2.json" "$TMP/r2.svg" <<'PY' || return 1
import json, sys
import xml.etree.ElementTree as ET
a, b = json.load(open(sys.argv[1]))["rows"], json.load(open(sys.argv[2]))["rows"]
assert len(a) == len(b) == 2, (len(a), len(b))
for x, y in zip(a, b):
    for k in ("label", "phase", "edges", "tmin_ns", "tmax_highest_ns", "wake_max_ns", "verdict",
              "load_applied", "loads"):
        assert x[k] == y[k], (k, x[k], y[k])
svg = ET.parse(sys.argv[3]).getroot()
lines = [e for e in svg.iter() if e.tag.endswith("polyline")]
assert len(lines) == 2, len(lines)
PY
}

# A run with hackbench (80 processes) and stress-ng, stopped by signal $1
# once they run (waited for, up to 30 s): no process of any load may be
# left afterwards.
stop_by_signal() {
	local sig=$1 pid pids rc
	"$SQWAVE" run --board "$BOARD" --duration 60s --quiet --cpu 1 --load hackbench \
		--load stress-ng:--cpu:1:--quiet --log "$TMP/$sig.sqwlog" > "$TMP/$sig.out" \
		2> "$TMP/$sig.err" &
	pid=$!
	# until hackbench has forked its children (seconds on a loaded machine)
	local i
	for i in $(seq 150); do
		pids=$(descendants $pid)
		[ "$(echo "$pids" | wc -w)" -ge 20 ] && break
		sleep 0.2
	done
	[ "$(echo "$pids" | wc -w)" -ge 20 ] || fail "expected hackbench's children, saw: $pids $(cat "$TMP/$sig.err")" ||
		{ kill -KILL $pid; return 1; }
	kill "-$sig" $pid
	wait $pid
	rc=$?
	all_gone $pids || fail "load processes outlived sqwave after SIG$sig" || return 1
	find /sys/fs/cgroup -maxdepth 4 -type d -name "sqwave.$pid.*" 2> /dev/null | grep -q . &&
		fail "cgroup sqwave.$pid.* left behind" && return 1
	echo "$rc"
}

test_sigterm_stops_every_load_process_and_the_log_says_so() {
	local rc
	rc=$(stop_by_signal TERM) || return 1
	[ "$rc" = 143 ] || fail "exit $rc, expected 143: $(cat "$TMP/TERM.err")" || return 1
	python3 - "$TMP/TERM.sqwlog" "$HERE" <<'PY' || return 1
import sys
sys.path.insert(0, sys.argv[2])
import sqwlog
log = sqwlog.read(sys.argv[1])
ev = [e["kv"] for e in log["events"] if e["type"] == "load"]
assert {e["load"] for e in ev if e["event"] == "stopped"} == {"hackbench", "stress-ng"}, ev
assert log["footer"]["exit_code"] == 143
PY
}

test_sigkill_of_sqwave_leaves_no_load_process() {
	stop_by_signal KILL > /dev/null || return 1
}

# `kill -9` of sqwave and of its guardian together (what `pkill -9 -f
# sqwave` does): the loads outlive them, and the next run, even one without
# loads, kills them, removes their cgroup, and says so. The guardian is
# killed first: killed a moment after sqwave, it may already have begun its
# own sweep (it wakes when sqwave's pipe closes), and the loads would be
# half gone. (Stopping it with SIGSTOP does not hold it: sqwave's death
# orphans its process group, and the kernel sends it SIGCONT.) Zombies (a
# container's init may be slow to reap the ones sqwave's death hands it)
# are not loads left running.
#
# Every sqwave that starts sweeps what killed runs left beside its own
# cgroup: another one on this machine (another test, another user's run)
# could take the leftovers before the next run of this test does. Both
# runs here go in cgroups of this test's own (enter_own_cgroups), where no
# other sqwave looks.
test_the_next_run_clears_what_a_run_killed_with_its_guardian_left() {
	printf '#!/bin/sh\nsh -c "while true; do true; done" &\nwait\n' > "$TMP/burn.sh"
	chmod 755 "$TMP/burn.sh"
	(enter_own_cgroups && exec "$SQWAVE" run --board "$BOARD" --duration 60s --quiet \
		--load "command:name=burn:$TMP/burn.sh" --log "$TMP/kg.sqwlog") > /dev/null 2> "$TMP/kg.err" &
	local pid=$! pids="" guard="" loop="" i p
	# until burn.sh's child, the process that must outlive everything, runs
	for i in $(seq 150); do
		pids=$(descendants $pid)
		guard=$(pgrep -P $pid -f __sqwave-guard)
		for p in $pids; do
			grep -q "while true" "/proc/$p/cmdline" 2> /dev/null && loop=$p
		done
		[ -n "$guard" ] && [ -n "$loop" ] && break
		sleep 0.1
	done
	[ -n "$guard" ] && [ -n "$loop" ] || fail "no guardian or no load after 15 s: $pids" ||
		{ kill -KILL $pid; return 1; }
	kill -KILL $guard
	kill -KILL $pid
	wait $pid 2> /dev/null
	sleep 0.5
	local left=""
	for p in $pids; do
		[ "$p" = "$guard" ] || ! [ -r "/proc/$p/stat" ] ||
			grep -q ') Z ' "/proc/$p/stat" 2> /dev/null || left="$left $p"
	done
	case " $left " in
	*" $loop "*) ;;
	*) fail "burn.sh's child $loop did not outlive sqwave and its guardian" \
		"($(cat "/proc/$loop/stat" 2> /dev/null || echo gone))"; return 1 ;;
	esac
	(enter_own_cgroups && exec "$SQWAVE" run --board "$BOARD" --duration 1s --quiet \
		--log "$TMP/kg2.sqwlog") > /dev/null 2> "$TMP/kg2.err"
	grep -q "cleared what a killed sqwave run left: [1-9][0-9]* load process" "$TMP/kg2.err" ||
		fail "$(cat "$TMP/kg2.err")" || { kill -KILL $left; return 1; }
	all_gone $left || fail "still running:$left" || { kill -KILL $left; return 1; }
	! find /sys/fs/cgroup -maxdepth 4 -type d -name "sqwave.$pid.*" 2> /dev/null | grep -q . ||
		fail "its cgroup is still there" || return 1
}

test_a_load_that_cannot_start_is_exit_2_before_anything_runs() {
	"$SQWAVE" run --board "$BOARD" --duration 5s --quiet --load command:/nonexistent/burn \
		--log "$TMP/ns.sqwlog" > /dev/null 2> "$TMP/ns.err"
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc, expected 2" || return 1
	grep -q "/nonexistent/burn not found" "$TMP/ns.err" || fail "$(cat "$TMP/ns.err")" || return 1
	[ ! -e "$TMP/ns.sqwlog" ] || fail "a log was written for a run that never started" || return 1
	# CoreMark missing: says where to get it
	PATH=/usr/bin:/bin "$SQWAVE" run --board "$BOARD" --duration 5s --quiet --load coremark \
		--log "$TMP/ns.sqwlog" > /dev/null 2> "$TMP/cm.err"
	rc=$?
	if [ -x /usr/bin/coremark ]; then
		echo "    (/usr/bin/coremark exists: the missing-CoreMark case is skipped)"
	else
		[ $rc -eq 2 ] || fail "missing CoreMark: exit $rc, expected 2" || return 1
		grep -q "github.com/eembc/coremark" "$TMP/cm.err" || fail "$(cat "$TMP/cm.err")" || return 1
	fi
}

test_a_load_that_exits_at_once_stops_the_run_before_the_first_edge() {
	"$SQWAVE" run --board "$BOARD" --duration 5s --quiet --load command:/bin/false \
		--log "$TMP/ex.sqwlog" > /dev/null 2> "$TMP/ex.err"
	local rc=$?
	[ $rc -eq 3 ] || fail "exit $rc, expected 3: $(cat "$TMP/ex.err")" || return 1
	grep -q "load command ended at once" "$TMP/ex.err" || fail "$(cat "$TMP/ex.err")" || return 1
	[ ! -e "$TMP/ex.sqwlog" ] || fail "edges were measured" || return 1
}

test_a_load_that_ignores_sigterm_is_killed_after_its_grace_and_counted() {
	"$SQWAVE" run --board "$BOARD" --duration 3s --quiet \
		--load "command:name=mule:grace=300ms:python3:-c:import signal,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)" \
		--log "$TMP/mule.sqwlog" --json "$TMP/mule.json" > "$TMP/mule.out" 2> "$TMP/mule.err"
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/mule.err")" || return 1
	python3 - "$TMP/mule.json" "$TMP/mule.sqwlog" "$HERE" <<'PY' || return 1
import json, sys
sys.path.insert(0, sys.argv[3])
import sqwlog
js = json.load(open(sys.argv[1]))
mule = js["phases"][0]["proof"]["loads"][0]
assert mule["name"] == "mule" and mule["killed"] == 1, mule
ev = [e["kv"]["event"] for e in sqwlog.read(sys.argv[2])["events"] if e["type"] == "load"]
assert ev == ["started", "killed", "stopped"], ev
PY
}

test_a_lost_load_makes_the_verdict_load_not_applied() {
	"$SQWAVE" run --board "$BOARD" --duration 4s --quiet \
		--load "command:name=brief:restart=false:python3:-c:import time; time.sleep(1.5)" \
		--log "$TMP/lost.sqwlog" --json "$TMP/lost.json" > "$TMP/lost.out" 2> "$TMP/lost.err"
	local rc=$?
	[ $rc -eq 1 ] || fail "exit $rc, expected 1" || return 1
	grep -q "^verdict    LOAD NOT APPLIED" "$TMP/lost.out" || fail "$(grep -A3 verdict "$TMP/lost.out")" || return 1
	grep -q "phase run: load not applied: brief was lost (ended (restart: false))" "$TMP/lost.out" ||
		fail "$(grep -A3 verdict "$TMP/lost.out")" || return 1
}

# The idle baseline of idle versus loaded: a phase without loads whose other
# CPUs something else kept busy (a burner pinned to CPU 0 here, outside
# sqwave) is no baseline: load not applied, in the run, analyze and report.
test_an_idle_phase_that_was_not_idle_is_load_not_applied() {
	[ "$(nproc)" -ge 2 ] || { echo "    (one CPU: no idle rule there)"; return 0; }
	printf 'run:\n  warmup: 0\nrt:\n  cpu: 1\nphases:\n  - name: quiet\n    duration: 3s\n  - name: busy\n    duration: 2s\n    load:\n      - kind: command\n        name: nap\n        args: [sleep, "600"]\n' \
		> "$TMP/idle.yaml"
	taskset -c 0 sh -c 'while :; do :; done' &
	local burner=$! rc
	"$SQWAVE" run --board "$BOARD" --profile "$TMP/idle.yaml" --quiet --log "$TMP/idle.sqwlog" \
		--json "$TMP/idle.json" > "$TMP/idle.out" 2> "$TMP/idle.err"
	rc=$?
	kill $burner
	wait $burner 2> /dev/null
	[ $rc -eq 1 ] || fail "exit $rc, expected 1: $(cat "$TMP/idle.err")" || return 1
	grep -q "^verdict    LOAD NOT APPLIED" "$TMP/idle.out" &&
		grep -q "phase quiet: not idle: CPUs 0 were [0-9]* % busy with no load of sqwave's" \
			"$TMP/idle.out" || fail "$(grep -A3 '^verdict' "$TMP/idle.out")" || return 1
	"$SQWAVE" analyze "$TMP/idle.sqwlog" --json "$TMP/idle-an.json" > "$TMP/idle-an.out" 2>&1 ||
		fail "analyze: $(cat "$TMP/idle-an.out")" || return 1
	"$SQWAVE" report "$TMP/idle.json" --json "$TMP/idle-r.json" -q > /dev/null 2>&1
	python3 - "$TMP/idle.json" "$TMP/idle-an.json" "$TMP/idle-r.json" <<'PY' || return 1
import json, sys
run, an, rep = (json.load(open(p)) for p in sys.argv[1:4])
q = {p["name"]: p for p in run["phases"]}["quiet"]
idle = q["proof"]["loads"]
assert len(idle) == 1 and idle[0]["proof"] == "idle" and idle[0]["cpus"] == "0", idle
assert idle[0]["busy_pct"] > 25 and idle[0]["max_busy_pct"] == 25, idle
ck = [c for c in run["verdict"]["checks"] if c["name"] == "idle_busy"]
assert len(ck) == 1 and ck[0]["result"] == "fail" and ck[0]["phase"] == "quiet", ck
assert run["verdict"]["result"] == "LOAD NOT APPLIED" and not run["verdict"]["pass"]
# a loaded phase has no idle rule; analyze of the log judges as the run did
assert all(l["proof"] != "idle" for l in {p["name"]: p for p in run["phases"]}["busy"]["proof"]["loads"])
assert an["verdict"]["result"] == "LOAD NOT APPLIED" and an["verdict"]["pass"] is False, an["verdict"]
assert an["verdict"]["violations"] == run["verdict"]["violations"], (an["verdict"], run["verdict"])
row = [r for r in rep["rows"] if r["phase"] == "quiet"][0]
assert row["verdict"] == "LOAD NOT APPLIED" and row["proof"].startswith("NOT IDLE, idle: CPU 0 "), row
PY
}

# Lost in the warm-up: the first phase's loads run from before the warm-up,
# and losing one there fails that phase like losing it later.
test_a_load_lost_in_the_warm_up_fails_the_first_phase() {
	"$SQWAVE" run --board "$BOARD" --duration 3s --set run.warmup=3s --quiet \
		--load "command:name=brief:restart=false:python3:-c:import time; time.sleep(1)" \
		--log "$TMP/wl.sqwlog" --json "$TMP/wl.json" > "$TMP/wl.out" 2> "$TMP/wl.err"
	local rc=$?
	[ $rc -eq 1 ] || fail "exit $rc, expected 1: $(grep -A3 verdict "$TMP/wl.out")" || return 1
	grep -q "phase run: load not applied: brief was lost" "$TMP/wl.out" ||
		fail "$(grep -A3 verdict "$TMP/wl.out")" || return 1
	# analyze reads the same from the log
	"$SQWAVE" analyze "$TMP/wl.sqwlog" --json "$TMP/wl-a.json" > /dev/null 2>&1
	python3 - "$TMP/wl-a.json" <<'PY' || return 1
import json, sys
js = json.load(open(sys.argv[1]))
ph = js["phases"][0]
assert any("brief was lost" in w for w in ph["load_not_applied"]), ph
PY
}

# A later phase whose load cannot start: lost, with why, and the verdict
# says the load was not applied (run and analyze alike).
test_a_later_phase_load_that_cannot_start_is_lost() {
	printf '#!/bin/sh\nexec sleep 600\n' > "$TMP/gone.sh"
	chmod 755 "$TMP/gone.sh"
	# (phase a has no loads: on a busy test machine it need not be idle; the
	# idle rule has its own test)
	printf 'phases:\n  - name: a\n    duration: 2s\n  - name: b\n    duration: 2s\n    load:\n      - kind: command\n        name: gone\n        path: %s\n' \
		"$TMP/gone.sh" > "$TMP/gone.yaml"
	"$SQWAVE" run --board "$BOARD" --profile "$TMP/gone.yaml" --quiet --set run.warmup=0 --set proof.idle_max_busy=100 \
		--log "$TMP/gone.sqwlog" --json "$TMP/gone.json" > "$TMP/gone.out" 2> "$TMP/gone.err" &
	local pid=$! rc
	sleep 1
	rm -f "$TMP/gone.sh"
	wait $pid
	rc=$?
	[ $rc -eq 1 ] || fail "exit $rc, expected 1: $(grep -A4 verdict "$TMP/gone.out")" || return 1
	grep -q "phase b: load not applied: gone was lost" "$TMP/gone.out" ||
		fail "$(grep -A4 verdict "$TMP/gone.out")" || return 1
	"$SQWAVE" analyze "$TMP/gone.sqwlog" --json "$TMP/gone-a.json" > /dev/null 2>&1
	python3 - "$TMP/gone.json" "$TMP/gone-a.json" <<'PY' || return 1
import json, sys
run, ana = (json.load(open(f)) for f in sys.argv[1:3])
for js in (run, ana):
    b = [p for p in js["phases"] if p["name"] == "b"][0]
    assert b["load_not_applied"] and "gone was lost" in b["load_not_applied"][0], b
    a = [p for p in js["phases"] if p["name"] == "a"][0]
    assert not a["load_not_applied"], a
PY
}

test_report_never_writes_over_a_run_it_reads() {
	"$SQWAVE" run --board "$BOARD" --duration 1s --quiet --log "$TMP/ro.sqwlog" \
		--json "$TMP/ro.json" > /dev/null 2>&1 || true
	cp "$TMP/ro.sqwlog" "$TMP/ro.keep"
	"$SQWAVE" report "$TMP/ro.sqwlog" --markdown "$TMP/ro.sqwlog" > /dev/null 2> "$TMP/ro.err"
	local rc=$?
	[ $rc -eq 2 ] || fail "--markdown over the log: exit $rc" || return 1
	cmp -s "$TMP/ro.sqwlog" "$TMP/ro.keep" || fail "the log was changed" || return 1
	"$SQWAVE" report "$TMP/ro.json" --json "$TMP/ro.json" > /dev/null 2>> "$TMP/ro.err"
	rc=$?
	[ $rc -eq 2 ] || fail "--json over the summary: exit $rc" || return 1
	grep -q "schema" "$TMP/ro.json" && grep -q '"sqwave-summary"' "$TMP/ro.json" ||
		fail "the summary was changed" || return 1
	grep -q "refusing to overwrite" "$TMP/ro.err" || fail "$(cat "$TMP/ro.err")" || return 1
}

test_two_loads_of_one_name_in_a_phase_are_refused() {
	"$SQWAVE" run --board "$BOARD" --duration 2s --quiet --load "stress-ng" --load "stress-ng" \
		> /dev/null 2> "$TMP/dup.err"
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc, expected 2" || return 1
	grep -q 'a second load named "stress-ng" in phase "run"' "$TMP/dup.err" ||
		fail "$(cat "$TMP/dup.err")" || return 1
}

# Two equal loads (two names) kept across a boundary: two sets run, not three.
test_equal_loads_kept_across_phases_run_once_each() {
	printf 'phases:\n' > "$TMP/eq.yaml"
	for ph in a b; do
		printf '  - name: %s\n    duration: 2s\n    load:\n      - kind: command\n        name: one\n        args: [sleep, "600"]\n      - kind: command\n        name: two\n        args: [sleep, "600"]\n' \
			"$ph" >> "$TMP/eq.yaml"
	done
	"$SQWAVE" run --board "$BOARD" --profile "$TMP/eq.yaml" --quiet --set run.warmup=0 \
		--log "$TMP/eq.sqwlog" > "$TMP/eq.out" 2> "$TMP/eq.err"
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/eq.err")" || return 1
	python3 - "$TMP/eq.sqwlog" "$HERE" <<'PY' || return 1
import sys
sys.path.insert(0, sys.argv[2])
import sqwlog
ev = [(e["kv"]["event"], e["kv"]["load"]) for e in sqwlog.read(sys.argv[1])["events"]
      if e["type"] == "load"]
started = [x for x in ev if x[0] == "started"]
assert sorted(started) == [("started", "one"), ("started", "two")], ev
PY
}

# A flood from "another machine" (the namespace's side of the veth pair),
# proved by the host interface's counters: expect-traffic passes with it and
# says the flood did not arrive without it.
test_expect_traffic_proves_a_flood_from_elsewhere_or_says_it_did_not_arrive() {
	[ -n "${HOST_IP:-}" ] || { echo "    (no network namespace here: skipped)"; return 0; }
	"$SQWAVE" run --board "$BOARD" --duration 3s --quiet \
		--load "expect-traffic:interface=$VA:min_pps=1000" --log "$TMP/x0.sqwlog" \
		> "$TMP/x0.out" 2> "$TMP/x0.err"
	local rc=$? fpid
	[ $rc -eq 1 ] || fail "no flood: exit $rc, expected 1" || return 1
	grep -q "load not applied: expect-traffic: $VA carried .* the flood did not arrive" "$TMP/x0.out" ||
		fail "$(grep -A3 verdict "$TMP/x0.out")" || return 1
	ip netns exec "$NS" ping -f -q "$HOST_IP" > /dev/null 2>&1 &
	fpid=$!
	"$SQWAVE" run --board "$BOARD" --duration 3s --quiet \
		--load "expect-traffic:interface=$VA:min_pps=1000" --log "$TMP/x1.sqwlog" \
		--json "$TMP/x1.json" > "$TMP/x1.out" 2> "$TMP/x1.err"
	rc=$?
	kill $fpid
	wait $fpid 2> /dev/null
	grep -q "expect-traffic: $VA [0-9]* packets/s (at least 1000)" "$TMP/x1.out" ||
		fail "$(grep -A8 '^Load proof' "$TMP/x1.out")" || return 1
	# proved (exit 0) exactly when the flood this machine let through was
	# fast enough: a flood on a busy machine may not be
	python3 - "$TMP/x1.json" "$rc" <<'PY' || return 1
import json, sys
js, rc = json.load(open(sys.argv[1])), int(sys.argv[2])
l = js["phases"][0]["proof"]["loads"][0]
assert l["name"] == "expect-traffic" and l["packets_per_s"] > 0, l
ok = l["packets_per_s"] >= 1000
assert rc == (0 if ok else 1) and js["verdict"]["load_applied"] == ok, (rc, l, js["verdict"])
PY
}

test_busybox_ping_is_refused_before_the_run() {
	mkdir -p "$TMP/bb"
	printf '\177ELF....BusyBox v1.36.1 (2024-01-01) multi-call binary.' > "$TMP/bb/ping"
	chmod 755 "$TMP/bb/ping"
	PATH="$TMP/bb:$PATH" "$SQWAVE" run --board "$BOARD" --duration 2s --quiet \
		--load ping-flood --log "$TMP/bb.sqwlog" > /dev/null 2> "$TMP/bb.err"
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc, expected 2" || return 1
	grep -q "is BusyBox ping, which has no flood mode (-f)" "$TMP/bb.err" ||
		fail "$(cat "$TMP/bb.err")" || return 1
}

test_bad_load_and_phase_entries_are_file_line_errors() {
	printf 'phases:\n  - name: idle\n    duration: 5s\n  - name: busy\n    duration: 5s\n    load:\n      - kind: stress-ng\n        nicce: 5\n' > "$TMP/bad.yaml"
	"$SQWAVE" run --board "$BOARD" --profile "$TMP/bad.yaml" --quiet > /dev/null 2> "$TMP/bad.err"
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc, expected 2" || return 1
	grep -q "bad.yaml:8:9: unknown key \"nicce\" in a load; did you mean nice?" "$TMP/bad.err" ||
		fail "$(cat "$TMP/bad.err")" || return 1
	"$SQWAVE" run --board "$BOARD" --quiet --load "ping-flood:siz=3" > /dev/null 2> "$TMP/bad2.err"
	rc=$?
	[ $rc -eq 2 ] || fail "--load with a bad key: exit $rc" || return 1
	grep -q "not KEY=VALUE" "$TMP/bad2.err" || fail "$(cat "$TMP/bad2.err")" || return 1
}

# A board file without rt.cpu: the loads would take every CPU, the RT
# thread's included; sqwave chooses the RT CPU, says so, and keeps the loads
# off it.
test_loads_without_rt_cpu_get_an_rt_cpu_chosen_and_said() {
	[ "$(nproc)" -ge 2 ] || { echo "    (one CPU: nothing to choose)"; return 0; }
	"$SQWAVE" run --board "$BOARD" --duration 2s --warmup 0 --quiet \
		--load "command:name=nap:sleep:600" --json "$TMP/nocpu.json" \
		--log "$TMP/nocpu.sqwlog" > "$TMP/nocpu.out" 2> "$TMP/nocpu.err"
	local rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "exit $rc: $(cat "$TMP/nocpu.err")" || return 1
	grep -q "rt.cpu is not set: the RT thread runs on CPU [0-9]* and the loads on the other CPUs" \
		"$TMP/nocpu.err" || fail "not said: $(cat "$TMP/nocpu.err")" || return 1
	python3 - "$TMP/nocpu.json" "$TMP/nocpu.sqwlog" "$HERE" <<'PY' || return 1
import json, sys
sys.path.insert(0, sys.argv[3])
import sqwlog
js, log = json.load(open(sys.argv[1])), sqwlog.read(sys.argv[2])
rt = js["config"]["rt.cpu"]["value"]
assert rt >= 0, js["config"]["rt.cpu"]
# the load's CPUs, as the log header records them (KIND|CPUS|...)
cpus = log["meta"]["phase.0.proof.0"].split("|")[2]
assert str(rt) not in cpus.replace("-", ",").split(","), (rt, cpus)
PY
}

# A run without loads samples too, and says whether it was idle, with the
# figure; not judged (exit 0), but report marks the row.
test_a_run_without_loads_samples_and_says_whether_it_was_idle() {
	[ "$(nproc)" -ge 2 ] || { echo "    (one CPU: no idle rule there)"; return 0; }
	taskset -c 0 sh -c 'while :; do :; done' &
	local burner=$! rc
	"$SQWAVE" run --board "$BOARD" --duration 4s --warmup 0 --set rt.cpu=1 --quiet \
		--label plain --log "$TMP/plain.sqwlog" --json "$TMP/plain.json" \
		> "$TMP/plain.out" 2> "$TMP/plain.err"
	rc=$?
	kill $burner
	wait $burner 2> /dev/null
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/plain.err")" || return 1
	grep -q "^proof      not idle: CPUs 0 [0-9]* % busy (at most 25 %: proof.idle_max_busy); [0-9]* samples, longest gap" \
		"$TMP/plain.out" || fail "$(grep -A2 '^proof' "$TMP/plain.out")" || return 1
	grep -q "^sampler    SCHED_" "$TMP/plain.out" || fail "no sampler line" || return 1
	"$SQWAVE" report "$TMP/plain.json" --json "$TMP/plain-r.json" -q > /dev/null 2>&1
	python3 - "$TMP/plain.json" "$TMP/plain.sqwlog" "$TMP/plain-r.json" "$HERE" <<'PY' || return 1
import json, sys
sys.path.insert(0, sys.argv[4])
import sqwlog
js, log, rep = json.load(open(sys.argv[1])), sqwlog.read(sys.argv[2]), json.load(open(sys.argv[3]))
pr = js["proof"]
assert pr["idle"] == "not idle" and pr["load"] is None, pr
assert pr["idle_cpus"] == "0" and pr["idle_busy_pct"] > 25 and pr["idle_max_busy_pct"] == 25, pr
assert pr["samples"] >= 1 and pr["gap_bound_ns"] == 2_000_000_000, pr
assert pr["max_gap_ns"] is not None and pr["max_gap_ns"] > 0, pr
# where the RT thread got SCHED_FIFO, the sampler gets it too
if js["rt"]["ok"]:
    assert pr["sampler"] == "SCHED_FIFO 1, off rt.cpu", pr
assert js["verdict"]["result"] in ("PASS", "NO LIMITS"), js["verdict"]
# the samples are in the log, as a soak's are
assert any(e["type"] == "sample" for e in log["events"]), "no sample events"
row = rep["rows"][0]
assert row["proof"].startswith("NOT IDLE: CPU 0 "), row
PY
}

# A CPU load is proved by its own CPU time, not the machine's:
# stress-ng at nice 19 on CPU 0 beside two burners of ours at nice
# 0 gets a few % of it while CPU 0 is 100 % busy: LOAD NOT APPLIED, with
# the load's own figure beside the system-wide one.
test_a_starved_cpu_load_is_not_applied_by_its_own_cpu_time() {
	[ "$(nproc)" -ge 2 ] || { echo "    (one CPU: no CPU of the load's own)"; return 0; }
	printf 'rt:\n  cpu: 1\nproof:\n  idle_max_busy: 100\nphases:\n  - name: starved\n    duration: 6s\n    load:\n      - kind: stress-ng\n        args: [--cpu, "1", --quiet]\n        cpus: "0"\n        nice: 19\n' \
		> "$TMP/starve.yaml"
	taskset -c 0 sh -c 'while :; do :; done' &
	local b1=$!
	taskset -c 0 sh -c 'while :; do :; done' &
	local b2=$! rc
	"$SQWAVE" run --board "$BOARD" --profile "$TMP/starve.yaml" --warmup 0 --quiet \
		--log "$TMP/starve.sqwlog" --json "$TMP/starve.json" > "$TMP/starve.out" 2> "$TMP/starve.err"
	rc=$?
	kill $b1 $b2
	wait $b1 $b2 2> /dev/null
	[ $rc -eq 1 ] || fail "exit $rc: $(tail -3 "$TMP/starve.err") $(grep -A4 '^verdict' "$TMP/starve.out")" ||
		return 1
	grep -q "^verdict    LOAD NOT APPLIED" "$TMP/starve.out" || fail "$(grep -A3 verdict "$TMP/starve.out")" ||
		return 1
	grep -q "stress-ng: own CPU time [0-9]* % of CPUs 0 (\(cgroup2\|processes\); system-wide [0-9]* %): below 80 %" \
		"$TMP/starve.out" || fail "no own figure: $(grep -n 'stress-ng' "$TMP/starve.out")" || return 1
	python3 - "$TMP/starve.json" <<'PY' || return 1
import json, sys
js = json.load(open(sys.argv[1]))
assert js["verdict"]["result"] == "LOAD NOT APPLIED", js["verdict"]
ph = js["phases"][0]
l = {l["name"]: l for l in ph["proof"]["loads"]}["stress-ng"]
# far below: the machine was busy, the load was not
assert l["own_source"] in ("cgroup2", "processes"), l
assert l["own_busy_pct"] < 40 and l["busy_pct"] > 70, l
PY
}

# Every phase's proof says what it shows, and gaps above the bound can only
# be "proof incomplete": under a CPU burner on every CPU
# but rt.cpu, the sampler (SCHED_FIFO 1) still reads.
test_a_phase_proof_names_its_state_and_its_longest_gap() {
	[ "$(nproc)" -ge 2 ] || { echo "    (one CPU)"; return 0; }
	printf 'run:\n  warmup: 0\nrt:\n  cpu: 1\nproof:\n  idle_max_busy: 100\nphases:\n  - name: quiet\n    duration: 3s\n  - name: busy\n    duration: 4s\n    load:\n      - kind: command\n        name: burn\n        args: [sh, -c, "while :; do :; done"]\n' \
		> "$TMP/gap.yaml"
	"$SQWAVE" run --board "$BOARD" --profile "$TMP/gap.yaml" --quiet --log "$TMP/gap.sqwlog" \
		--json "$TMP/gap.json" > "$TMP/gap.out" 2> "$TMP/gap.err"
	local rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "exit $rc: $(cat "$TMP/gap.err")" || return 1
	grep -q "longest gap between readings [0-9.]* s (at most 2.0 s)" "$TMP/gap.out" ||
		fail "$(grep -A8 '^Load proof' "$TMP/gap.out")" || return 1
	python3 - "$TMP/gap.json" <<'PY' || return 1
import json, sys
js = json.load(open(sys.argv[1]))
ph = {p["name"]: p for p in js["phases"]}
busy = ph["busy"]["proof"]
assert busy["gap_bound_ns"] == 2_000_000_000 and busy["max_gap_ns"] is not None, busy
want = "proof incomplete" if busy["max_gap_ns"] > busy["gap_bound_ns"] else "LOAD APPLIED"
assert busy["state"] == want, (busy["state"], busy["max_gap_ns"])
gaps = [c for c in js["verdict"]["checks"] if c["name"] == "proof_gaps"]
assert {c["phase"] for c in gaps} == {"busy"}, gaps  # quiet has no idle rule here
for c in gaps:
    assert c["result"] == ("fail" if c["observed"] > c["limit"] else "pass"), c
assert js["proof"]["load"] == busy["state"], js["proof"]
assert ph["quiet"]["proof"]["state"] == "idle unproven", ph["quiet"]["proof"]
PY
}

# ONLY=WORD runs the tests whose name holds WORD.
# A phased profile run at a tenth of its length (--scale): the phases and
# run.duration in the log header and the JSON say what ran (not the
# default 60 s), nothing was dropped in any phase (a phase's gaps counted
# every record before it), and the phases add up to the run.
test_a_scaled_phased_run_records_what_ran_and_counts_its_own_gaps() {
	printf 'phases:\n  - name: a\n    duration: 4s\n  - name: b\n    duration: 4s\n' > "$TMP/sc.yaml"
	"$SQWAVE" run --board "$BOARD" --profile "$TMP/sc.yaml" --scale 0.1 --warmup 200ms \
		--log "$TMP/sc.sqwlog" --json "$TMP/sc.json" > "$TMP/sc.out" 2> "$TMP/sc.err"
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(cat "$TMP/sc.err")" || return 1
	grep -q "^scale      0.1 (run.scale, command line): every phase that many times its planned length, 0.8s in all$" \
		"$TMP/sc.out" || fail "no scale line: $(grep -i scale "$TMP/sc.out")" || return 1
	"$SQWAVE" export "$TMP/sc.sqwlog" --meta > "$TMP/sc.meta" 2> /dev/null ||
		fail "export --meta failed" || return 1
	grep -qx "run.duration=0.8s" "$TMP/sc.meta" || fail "header: $(grep run.duration "$TMP/sc.meta")" || return 1
	grep -qx "run.scale=0.1" "$TMP/sc.meta" || fail "header: no run.scale=0.1" || return 1
	python3 - "$TMP/sc.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
cfg = d["config"]
assert cfg["run.duration"]["value"] == 800 * 10**6, cfg["run.duration"]
assert cfg["run.duration"]["origin"] == "the phases' sum x run.scale", cfg["run.duration"]
assert cfg["run.scale"]["value"] == 0.1 and cfg["run.scale"]["origin"] == "command line"
ph = d["phases"]
assert [p["duration_ns"] for p in ph] == [400 * 10**6] * 2, ph
assert [p["ran_ns"] for p in ph] == [400 * 10**6] * 2, ph
for k in ("seq_gaps", "missed_periods", "edges"):
    assert sum(p["counts"][k] for p in ph) == d["counts"][k], (k, [p["counts"] for p in ph], d["counts"])
assert all(p["counts"]["seq_gaps"] == 0 for p in ph), [p["counts"] for p in ph]
PY
}

# Stopped by SIGINT in the first phase: the phases table shows what ran.
test_a_phase_stopped_early_shows_what_ran() {
	printf 'phases:\n  - name: a\n    duration: 30s\n  - name: b\n    duration: 30s\n' > "$TMP/int.yaml"
	"$SQWAVE" run --board "$BOARD" --profile "$TMP/int.yaml" --set run.warmup=0 \
		--log "$TMP/int.sqwlog" --json "$TMP/int.json" > "$TMP/int.out" 2> "$TMP/int.err" &
	local pid=$!
	sleep 1.5
	kill -INT $pid
	wait $pid
	grep -Eq "^  a +0 +[0-9.]+m?s of 30s " "$TMP/int.out" ||
		fail "phase a: $(grep -A3 '^Phases' "$TMP/int.out")" || return 1
	grep -Eq "^  b +30s +0 of 30s " "$TMP/int.out" ||
		fail "phase b: $(grep -A3 '^Phases' "$TMP/int.out")" || return 1
	python3 - "$TMP/int.json" <<'PY' || return 1
import json, sys
ph = json.load(open(sys.argv[1]))["phases"]
assert 0 < ph[0]["ran_ns"] < 30 * 10**9 and ph[1]["ran_ns"] == 0, ph
PY
}

e2e_run --subshell --short "soak e2e"
