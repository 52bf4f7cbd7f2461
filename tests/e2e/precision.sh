#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of the precision work on the simulated board: the threads other than
# the RT one stay off rt.cpu (read from /proc during a run), --spin with a
# fixed lead and --spin auto (flags, late edges, the spin's end in the log),
# the placement error and spin share in the summary, JSON and analyze, and
# percentiles of an edge list whose edges straddle their deadlines.
# Timing is never asserted. Self-contained: SQWAVE=path/to/sqwave
# tests/e2e/precision.sh from the repository root. Prints PASS/FAIL per test.
. "$(dirname "$0")/lib.sh" sqwave-e2e-precision

# Without the privileges for SCHED_FIFO and mlockall the run is marked
# non-RT; what is tested here does not depend on it.
RUN=("$SQWAVE" run --board "$BOARD" --quiet --allow-non-rt)

test_threads_other_than_the_rt_one_stay_off_rt_cpu() {
	local ncpu cpu pid i seen=0 t name allowed
	ncpu=$(nproc)
	[ "$ncpu" -ge 2 ] || return 77
	cpu=$((ncpu - 1))
	"${RUN[@]}" --cpu $cpu --duration 3s --log "$TMP/aff.sqwlog" > "$TMP/aff.out" 2> "$TMP/aff.err" &
	pid=$!
	# Look while it runs: every thread, its name and the CPUs it may use.
	for i in $(seq 1 40); do
		sleep 0.1
		[ -d /proc/$pid/task ] || break
		: > "$TMP/aff.threads"
		for t in /proc/$pid/task/*; do
			name=$(cat "$t/comm" 2> /dev/null) || continue
			allowed=$(awk '/^Cpus_allowed_list:/ { print $2 }' "$t/status" 2> /dev/null)
			echo "$name $allowed" >> "$TMP/aff.threads"
		done
		grep -q '^sqwave-rec ' "$TMP/aff.threads" && grep -q '^sqwave-rt ' "$TMP/aff.threads" &&
			{ seen=1; break; }
	done
	wait $pid || fail "exit $?: $(cat "$TMP/aff.err")" || return 1
	[ $seen -eq 1 ] || fail "never saw the RT and recorder threads: $(cat "$TMP/aff.threads")" || return 1
	python3 - "$TMP/aff.threads" $cpu <<'PY' || return 1
import sys
cpu = int(sys.argv[2])
def cpus(s):
    out = set()
    for part in s.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out
threads = [l.split() for l in open(sys.argv[1]) if l.strip()]
for name, allowed in threads:
    got = cpus(allowed)
    if name == "sqwave-rt":
        assert got == {cpu}, f"RT thread allowed on {allowed}, expected {cpu}"
    else:
        assert cpu not in got, f"{name} is allowed on rt.cpu {cpu}: {allowed}"
assert {"sqwave", "sqwave-rec", "sqwave-rt"} <= {t[0] for t in threads}, threads
PY
}

# Spin-mode records from an exported CSV: every edge flagged spin; a late
# one (flag 32) begins its write at its wake-up, any other one at or after its
# deadline and after a wake-up before it. Prints "edges late".
check_spin_csv() {
	python3 - "$1" <<'PY'
import csv, sys
edges = late = 0
for r in csv.DictReader(open(sys.argv[1])):
    f, it = int(r["flags"]), int(r["intended_ns"])
    w, b, e = int(r["wake_ns"]), int(r["write_begin_ns"]), int(r["write_end_ns"])
    assert f & 16, f"edge {r['seq']}: no spin flag ({f})"
    assert w <= b <= e, f"edge {r['seq']}: times out of order"
    if f & 32:
        late += 1
        assert w >= it and b == w, f"edge {r['seq']}: late flag but woke {w - it} ns from deadline"
    else:
        assert w < it <= b, f"edge {r['seq']}: woke {w - it}, spin ended {b - it} ns from deadline"
    edges += 1
print(edges, late)
PY
}

test_a_fixed_spin_writes_every_edge_at_or_after_its_deadline() {
	"${RUN[@]}" --duration 2s --spin 40us --log "$TMP/s.sqwlog" --json "$TMP/s.json" \
		> "$TMP/s.out" 2> "$TMP/s.err" || fail "exit $?: $(cat "$TMP/s.err")" || return 1
	"$SQWAVE" export "$TMP/s.sqwlog" --csv "$TMP/s.csv" || return 1
	local counts
	counts=$(check_spin_csv "$TMP/s.csv") || return 1
	python3 - "$TMP/s.json" $counts <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
edges, late = int(sys.argv[2]), int(sys.argv[3])
assert d["run"]["spin"] == "fixed" and d["run"]["spin_lead_ns"] == 40000, d["run"]
assert d["spin"]["edges"] == d["counts"]["edges"] == edges, (d["spin"], edges)
assert d["spin"]["late"] == late, (d["spin"], late)
assert 0 < d["spin"]["fraction"] < 0.25, d["spin"]
assert d["placement_error"]["count"] == edges
PY
	grep -q "^spin       wake-ups armed 40.000 us before each deadline" "$TMP/s.out" ||
		fail "summary: $(grep -A1 '^spin' "$TMP/s.out")" || return 1
	grep -q "late wake-ups" "$TMP/s.out" || return 1
}

test_an_automatic_spin_chooses_its_lead_within_bounds() {
	"${RUN[@]}" --duration 3s --half-period 200us --spin auto --log "$TMP/a.sqwlog" \
		--json "$TMP/a.json" > "$TMP/a.out" 2> "$TMP/a.err" ||
		fail "exit $?: $(cat "$TMP/a.err")" || return 1
	"$SQWAVE" export "$TMP/a.sqwlog" --csv "$TMP/a.csv" || return 1
	check_spin_csv "$TMP/a.csv" > /dev/null || return 1
	python3 - "$TMP/a.json" <<'PY' || return 1
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["spin"] == "auto", r
# starts at the cap (a quarter of the half period), measures, may come down
assert r["spin_lead_max_ns"] == 50000, r
assert 1000 <= r["spin_lead_min_ns"] <= r["spin_lead_ns"] <= 50000, r
PY
	grep -q "^spin       auto: wake-ups armed" "$TMP/a.out" || return 1
	"$SQWAVE" export "$TMP/a.sqwlog" --meta | grep -q "^run.spin=auto$" ||
		fail "log header lacks run.spin=auto" || return 1
}

test_a_spin_too_long_for_the_half_period_exits_2_with_the_range() {
	"${RUN[@]}" --duration 1s --half-period 100us --spin 30us --log "$TMP/x.sqwlog" \
		> /dev/null 2> "$TMP/x.err"
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc, expected 2" || return 1
	grep -q "run.spin (30us, command line) must be at most a quarter of run.half_period (100us): between 0 (off) and 25us, or auto" \
		"$TMP/x.err" || fail "message: $(cat "$TMP/x.err")" || return 1
	[ ! -e "$TMP/x.sqwlog" ] || fail "a log was written" || return 1
	"${RUN[@]}" --duration 1s --spin soon --log "$TMP/x.sqwlog" > /dev/null 2> "$TMP/x.err"
	rc=$?
	[ $rc -eq 2 ] || fail "--spin soon: exit $rc, expected 2" || return 1
	grep -q "or auto" "$TMP/x.err" || fail "message: $(cat "$TMP/x.err")" || return 1
}

test_every_run_reports_placement_and_no_spin_by_default() {
	"${RUN[@]}" --duration 1s --log "$TMP/d.sqwlog" --json "$TMP/d.json" > "$TMP/d.out" \
		2> "$TMP/d.err" || fail "exit $?: $(cat "$TMP/d.err")" || return 1
	grep -q "^  placement  " "$TMP/d.out" || fail "no placement row" || return 1
	grep -q "^spin       off" "$TMP/d.out" || fail "no spin line" || return 1
	python3 - "$TMP/d.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
p = d["placement_error"]
assert p["count"] == d["counts"]["edges"], p
assert set(p["percentiles_ns"]) == set(p["percentiles_error_ns"]), p
for k, e in p["percentiles_error_ns"].items():
    v = p["percentiles_ns"][k]
    assert 0 <= e <= max(abs(v) // 10000, 10), (k, v, e)
assert d["spin"] == {"edges": 0, "late": 0, "spin_ns": 0, "fraction": 0}, d["spin"]
assert d["run"]["spin"] == "off"
PY
	"$SQWAVE" export "$TMP/d.sqwlog" --csv "$TMP/d.csv" || return 1
	python3 - "$TMP/d.csv" "$TMP/d.json" <<'PY' || return 1
import csv, json, math, sys
# the summary's placement percentiles against the exact order statistics;
# placement counts from the first deadline after the previous edge, so an
# edge that missed periods is that many half periods later (docs/analyze.md)
d = json.load(open(sys.argv[2]))
half = d["config"]["run.half_period"]["value"]
v = sorted((int(r["write_begin_ns"]) + int(r["write_end_ns"])) // 2 - int(r["intended_ns"])
           + (int(r["expirations"]) - 1) * half for r in csv.DictReader(open(sys.argv[1])))
p = d["placement_error"]
for k, got in p["percentiles_ns"].items():
    q = float(k[1:])
    exact = v[max(1, math.ceil(round(q * 1e6) * len(v) / 1e8)) - 1]
    assert abs(got - exact) <= p["percentiles_error_ns"][k], (k, got, exact)
PY
}

test_analyze_of_a_spin_log_agrees_with_its_summary() {
	[ -f "$TMP/s.json" ] || "${RUN[@]}" --duration 2s --spin 40us --log "$TMP/s.sqwlog" \
		--json "$TMP/s.json" > /dev/null 2>&1
	"$SQWAVE" analyze "$TMP/s.sqwlog" --json "$TMP/s.an.json" > "$TMP/s.an.txt" 2> "$TMP/s.an.err" ||
		fail "analyze exit $?: $(cat "$TMP/s.an.err")" || return 1
	grep -q "^  placement " "$TMP/s.an.txt" || fail "no placement row" || return 1
	grep -q "^spin       [0-9]* edges spun" "$TMP/s.an.txt" || fail "no spin line" || return 1
	python3 - "$TMP/s.json" "$TMP/s.an.json" <<'PY' || return 1
import json, sys
run, an = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert an["placement_error"] == run["placement_error"], "placement differs"
assert an["spin"] == run["spin"], (an["spin"], run["spin"])
PY
}

test_percentiles_of_edges_around_their_deadlines_are_not_the_minimum() {
	# An edge list: 10,000 edges, one 15.373 us early, 99 11.4 us early,
	# 4,900 between 0.060 and 0.066 us early, 5,000 late by 0.1-5.1 us.
	python3 - "$TMP/early.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("seq,level,intended_ns,measured_ns\n")
    for i in range(10000):
        off = (-15373 if i == 0 else -11400 if i < 100 else -60 - i % 7 if i < 5000
               else 100 + (i - 5000))
        it = 1000000000 + i * 500000
        f.write(f"{i},{(i + 1) % 2},{it},{it + off}\n")
PY
	"$SQWAVE" analyze "$TMP/early.csv" --json "$TMP/early.json" > "$TMP/early.txt" 2> "$TMP/early.err" ||
		fail "analyze exit $?: $(cat "$TMP/early.err")" || return 1
	python3 - "$TMP/early.json" <<'PY' || return 1
import json, sys
w = json.load(open(sys.argv[1]))["wake_latency"]["percentiles_ns"]
assert w["p0.01"] == -15373, w
assert w["p1"] == -11400, w
assert w["p50"] == -60, w
assert w["p99"] == 4999, w
PY
	grep -qE "^  latency +10000 +-15.373 .* -15.373 +-11.400 +-0.060 +4.999 " "$TMP/early.txt" ||
		fail "text: $(grep latency "$TMP/early.txt")" || return 1
}

e2e_run --subshell --short --skip-note "(needs 2 CPUs)" --count-skips "precision e2e"
