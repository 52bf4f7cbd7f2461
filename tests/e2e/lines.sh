#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of several lines in one run (gpio.line "0,3",
# docs/lines.md): each line's log against the simulated chip's write
# history edge for edge, lines due at one instant written in one call
# (together) or never sharing one (per-cpu), a phase per line, each line's
# JSON and the run's verdict (the worst line's), refused combinations.
# Timing is never asserted.
# Self-contained: SQWAVE=path/to/sqwave tests/e2e/lines.sh from the repository root.
. "$(dirname "$0")/lib.sh" sqwave-e2e-lines

# run NAME ARGS...: a 1 s run on lines 0 and 3 with the chip's history in
# NAME.hist.csv, each line's log exported to NAME.LINE.csv.
run() {
	local n=$1
	shift
	"$SQWAVE" run --board "$BOARD" --line 0,3 --duration 1s --quiet "$@" \
		--log "$TMP/$n.sqwlog" --set sim.history_file="$TMP/$n.hist.csv" \
		> "$TMP/$n.out" 2> "$TMP/$n.err" ||
		fail "sqwave run $*: exit $?: $(cat "$TMP/$n.err")" || return 1
	for l in 0 3; do
		[ -f "$TMP/$n.$l.sqwlog" ] || fail "no log $n.$l.sqwlog: $(ls "$TMP")" || return 1
		"$SQWAVE" export "$TMP/$n.$l.sqwlog" --csv "$TMP/$n.$l.csv" 2> "$TMP/$n.exp.err" ||
			fail "export $n.$l: $(cat "$TMP/$n.exp.err")" || return 1
	done
	[ ! -e "$TMP/$n.sqwlog" ] || fail "a log without the line's name was written" || return 1
}

# check_pin NAME MODE: each line's log is its line's writes in the history
# (order, level, count, inside the write window); then, by MODE, which
# lines the history's calls hold:
#   together  every call holds both lines (same wave: both due at once)
#   per-cpu   no call holds both lines (each line its own thread)
#   phase     line 3 is line 0 shifted by 100 us; a call holds both only
#             when the wake-up came at least 100 us late
check_pin() {
	python3 - "$HERE" "$TMP/$1" "$2" <<'PY'
import csv, sys
sys.path.insert(0, sys.argv[1])
import sqwlog
base, mode = sys.argv[2], sys.argv[3]
lines = {0: 0, 3: 1}
logs = {l: sqwlog.read(f"{base}.{l}.sqwlog") for l in lines}
rows = {l: list(csv.DictReader(open(f"{base}.{l}.csv"))) for l in lines}
for l, i in lines.items():
    m = logs[l]["meta"]
    want = {"outputs.count": "2", "outputs.index": str(i), "outputs.line": str(l),
            "outputs.lines": "0,3",
            "outputs.mode": "per-cpu" if mode == "per-cpu" else "together"}
    got = {k: m.get(k) for k in want}
    assert got == want, (l, got, want)
    assert len(rows[l]) == len(logs[l]["edges"]) and len(rows[l]) >= 1000, (l, len(rows[l]))
    # the last edge, and only it, is flagged last (0x08), back at idle
    assert [k for k, e in enumerate(rows[l]) if int(e["flags"]) & 0x08] == [len(rows[l]) - 1], l
    assert rows[l][-1]["level"] == "0", (l, rows[l][-1])
    if mode == "per-cpu":
        assert m.get("outputs.cpu") == str(i), (l, m.get("outputs.cpu"))
    else:
        assert "outputs.cpu" not in m, m.get("outputs.cpu")
hist = [h for h in csv.DictReader(open(base + ".hist.csv")) if h["kind"] == "write"]
per = {l: [h for h in hist if int(h["offset"]) == l] for l in lines}
assert len(hist) == sum(len(v) for v in per.values()), "a write on another line"
calls = {}
for l in lines:
    r, w = rows[l], per[l]
    # every record one write of its level, in order, inside its write
    # window; after them only the release's write back to idle
    assert len(w) in (len(r), len(r) + 1), (l, len(w), len(r))
    assert all(h["level"] == "0" for h in w[len(r):]), (l, w[len(r):])
    for k, (h, e) in enumerate(zip(w, r)):
        assert h["level"] == e["level"], (l, k, h, e)
        assert int(e["write_begin_ns"]) <= int(h["t_ns"]) <= int(e["write_end_ns"]), (l, k, h, e)
        calls.setdefault(h["seqno_or_call"], []).append((l, k))
    assert int(r[-1]["level"]) == 0, (l, r[-1])
for c, ws in calls.items():
    assert len(ws) == len({l for l, _ in ws}), f"call {c} writes one line twice: {ws}"
shared = [ws for ws in calls.values() if len(ws) == 2]
if mode == "together":
    # same wave, same grid: every wake-up has both lines due
    assert len(shared) == len(calls), (len(shared), len(calls))
    assert len(rows[0]) == len(rows[3])
    for a, b in zip(rows[0], rows[3]):
        assert a["intended_ns"] == b["intended_ns"] and a["level"] == b["level"], (a, b)
        assert a["wake_ns"] == b["wake_ns"] and a["write_begin_ns"] == b["write_begin_ns"], (a, b)
elif mode == "per-cpu":
    assert not shared, f"{len(shared)} calls write both lines: {shared[:3]}"
    assert logs[0]["start_ns"] == logs[3]["start_ns"], "the lines are not on one grid"
else:
    assert int(logs[3]["meta"]["wave.phase_ns"]) == 100000, logs[3]["meta"]["wave.phase_ns"]
    assert int(logs[0]["meta"]["wave.phase_ns"]) == 0
    assert logs[3]["start_ns"] == logs[0]["start_ns"] + 100000, (logs[0]["start_ns"],
                                                                logs[3]["start_ns"])
    for a, b in zip(rows[0], rows[3]):
        # the grid of line 3 is line 0's plus the phase, slot for slot
        assert (int(b["intended_ns"]) - int(a["intended_ns"])) % 500000 == 100000, (a, b)
    for ws in shared:
        (_, k0), = [x for x in ws if x[0] == 0]
        (_, k3), = [x for x in ws if x[0] == 3]
        a, b = rows[0][k0], rows[3][k3]
        assert a["wake_ns"] == b["wake_ns"], (a, b)
        # one call for both only when the wake-up came 100 us or more after
        # the first slot either line was waiting for (the grids are 100 us
        # apart, so both were due): a late wake-up, never an on-time one
        first = min(int(e["intended_ns"]) - (int(e["expirations"]) - 1) * 500000 for e in (a, b))
        assert int(a["wake_ns"]) - first >= 100000, (a, b)
    # on time, line 0's edges and line 3's are separate calls
    assert len(shared) <= len(rows[0]) // 2, (len(shared), len(rows[0]))
print(f"{len(calls)} calls, {len(shared)} with both lines")
PY
}

test_together_each_log_is_its_lines_writes_and_due_lines_share_one_call() {
	run t || return 1
	check_pin t together > "$TMP/t.chk" || return 1
	grep -q "^run verdict NO LIMITS" "$TMP/t.out" ||
		fail "$(grep -i verdict "$TMP/t.out")" || return 1
	for l in 0 3; do
		"$SQWAVE" analyze "$TMP/t.$l.sqwlog" > "$TMP/t.an.out" 2> "$TMP/t.an.err" ||
			fail "analyze t.$l.sqwlog: exit $?: $(cat "$TMP/t.an.err")" || return 1
		grep -q "^edges *[0-9]* counted" "$TMP/t.an.out" ||
			fail "analyze t.$l: $(head -12 "$TMP/t.an.out")" || return 1
	done
}

test_per_cpu_each_line_on_its_cpu_never_sharing_a_call() {
	local n
	n=$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)
	if [ "$n" -lt 2 ]; then
		echo "SKIP per_cpu_each_line_on_its_cpu_never_sharing_a_call: $n CPU online"
		return 0
	fi
	run p --outputs per-cpu --cpus 0,1 || return 1
	check_pin p per-cpu > "$TMP/p.chk" || return 1
	grep -q "^lines      2, written per-cpu" "$TMP/p.out" ||
		fail "$(grep -A3 '^lines' "$TMP/p.out")" || return 1
}

test_a_line_phase_shifts_line_3_by_100us_in_calls_of_its_own() {
	run ph --line-phase 0,100us || return 1
	check_pin ph phase > "$TMP/ph.chk" || return 1
}

# Each line's JSON validates, names its line, and the verdict is the
# worst line's: no limits is never PASS, limits both lines keep are PASS,
# a limit line 0 breaks (its 10 us highs) fails the run.
test_each_line_has_its_json_and_the_run_verdict_is_the_worst_lines() {
	local rc py=""
	"$SQWAVE" run --board "$BOARD" --line 0,3 --duration 300ms --quiet \
		--log "$TMP/j.sqwlog" --json "$TMP/j.json" > "$TMP/j.out" 2> "$TMP/j.err"
	rc=$?
	[ $rc -eq 0 ] || fail "no limits: exit $rc: $(cat "$TMP/j.err")" || return 1
	grep -q "^run verdict NO LIMITS" "$TMP/j.out" || fail "$(grep verdict "$TMP/j.out")" ||
		return 1
	! grep -q "PASS" "$TMP/j.out" || fail "PASS without limits: $(grep PASS "$TMP/j.out")" ||
		return 1
	[ ! -e "$TMP/j.json" ] || fail "a JSON without the line's name was written" || return 1
	"$SQWAVE" run --board "$BOARD" --line 0,3 --duration 300ms --quiet --tmin 1us --tmax 1s \
		--log "$TMP/k.sqwlog" --json "$TMP/k.json" > "$TMP/k.out" 2> "$TMP/k.err"
	rc=$?
	[ $rc -eq 0 ] || fail "passing limits: exit $rc: $(cat "$TMP/k.err")" || return 1
	grep -q "^run verdict PASS" "$TMP/k.out" || fail "$(grep verdict "$TMP/k.out")" || return 1
	"$SQWAVE" run --board "$BOARD" --line 0,3 --duration 300ms --quiet --tmin 150us \
		--line-high 10us,500us --line-low 990us,500us \
		--log "$TMP/f.sqwlog" --json "$TMP/f.json" > "$TMP/f.out" 2> "$TMP/f.err"
	rc=$?
	[ $rc -eq 1 ] || fail "line 0 below limits.tmin: exit $rc: $(cat "$TMP/f.err")" || return 1
	grep -q "^run verdict FAIL" "$TMP/f.out" || fail "$(grep verdict "$TMP/f.out")" || return 1
	grep -qE "^  line 0 +FAIL" "$TMP/f.out" || fail "$(grep -A3 '^lines' "$TMP/f.out")" ||
		return 1
	python3 - "$TMP" <<'PY' || return 1
import json, os, sys
d = sys.argv[1]
for run, want in (("j", {"NO LIMITS"}), ("k", {"PASS"}), ("f", None)):
    words = {}
    for i, l in enumerate(("0", "3")):
        p = os.path.join(d, f"{run}.{l}.json")
        assert os.path.isfile(p), (p, sorted(os.listdir(d)))
        doc = json.load(open(p))
        assert doc["schema"] == "sqwave-summary", doc.get("schema")
        assert doc["line"] == {"name": l, "index": i, "count": 2, "mode": "together",
                               "cpu": None}, doc["line"]
        words[l] = doc["verdict"]["result"]
    if want:
        assert set(words.values()) == want, (run, words)
    else:
        assert words["0"] == "FAIL", words
        assert words["3"] in ("PASS", "FAIL"), words
out = open(os.path.join(d, "f.out")).read()
for l in ("0", "3"):
    w = json.load(open(os.path.join(d, f"f.{l}.json")))["verdict"]["result"]
    assert any(x.split()[:3] == ["line", l, w] for x in out.splitlines()), (l, w)
PY
	for p in python3 /usr/bin/python3; do
		"$p" -c 'import jsonschema' 2> /dev/null && { py=$p; break; }
	done
	if [ -z "$py" ]; then
		echo "    (no python3 jsonschema: the per-line JSON is not checked against its schema)" >&2
		return 0
	fi
	mkdir -p "$TMP/docs"
	cp "$TMP"/[jkf].[03].json "$TMP/docs/" || return 1
	"$py" "$HERE/json_schema_check.py" "$ROOT/docs/schema" "$TMP/docs" > "$TMP/schema.out" 2>&1 ||
		fail "$(cat "$TMP/schema.out")" || return 1
}

# The status line names every line's figures, not only line 0's.
test_the_status_line_has_every_lines_figures() {
	"$SQWAVE" run --board "$BOARD" --line 0,3 --duration 1s --status-interval 200ms \
		--log "$TMP/st.sqwlog" > /dev/null 2> "$TMP/st.err" || return 1
	grep -q " | line 0 above | line 3: .*missed [0-9]" "$TMP/st.err" ||
		fail "status: $(head -3 "$TMP/st.err")"
}

# Each line's summary describes its own wave (run.line_*), not run.*'s:
# the text and the JSON's run member.
# per-cpu: each line's summary names the CPU its thread was pinned to.
test_per_cpu_summaries_name_each_lines_cpu() {
	[ "$(nproc)" -ge 2 ] || { echo "    SKIP: fewer than 2 CPUs"; return 0; }
	run pc --outputs per-cpu --cpus 1,0 --json "$TMP/pc.json" || return 1
	[ "$(grep -c '^rt .*CPU 1,' "$TMP/pc.out")" -eq 1 ] &&
		[ "$(grep -c '^rt .*CPU 0,' "$TMP/pc.out")" -eq 1 ] ||
		fail "rt lines: $(grep '^rt ' "$TMP/pc.out")" || return 1
	python3 - "$TMP/pc.0.json" "$TMP/pc.3.json" <<'PY'
import json, sys
assert [json.load(open(f))["line"]["cpu"] for f in sys.argv[1:3]] == [1, 0]
PY
}

test_each_lines_summary_shows_its_own_wave() {
	run w --line-high 300us,500us --line-low 700us,500us --line-phase 0,100us \
		--json "$TMP/w.json" || return 1
	grep -q "high 300.000 us, low 700.000 us" "$TMP/w.out" &&
		grep -q "high 500.000 us, low 500.000 us (1000.000 Hz, 50.00 % high), phase 100.000 us" \
			"$TMP/w.out" || fail "summary waves: $(grep '^wave' "$TMP/w.out")" || return 1
	python3 - "$TMP/w.0.json" "$TMP/w.3.json" <<'PY'
import json, sys
a, b = (json.load(open(f))["run"] for f in sys.argv[1:3])
assert (a["high_ns"], a["low_ns"], a["phase_ns"]) == (300000, 700000, 0), a
assert (b["high_ns"], b["low_ns"], b["phase_ns"]) == (500000, 500000, 100000), b
PY
}

# /dev/null stays itself for every line: nothing is created beside it
# (/dev/null.0 was a regular file in /dev, or a refusal without root).
test_dev_null_takes_every_lines_log_and_summary() {
	local before
	before=$(ls -d /dev/null* 2> /dev/null)
	"$SQWAVE" run --board "$BOARD" --line 0,3 --duration 200ms --quiet --log /dev/null \
		--json /dev/null --junit /dev/null > "$TMP/n.out" 2> "$TMP/n.err" ||
		fail "exit $?: $(cat "$TMP/n.err")" || return 1
	[ "$(ls -d /dev/null* 2> /dev/null)" = "$before" ] ||
		fail "beside /dev/null now: $(ls -d /dev/null*)" || return 1
	grep -q "line 3 .*log /dev/null" "$TMP/n.out" || fail "line 3's log: $(tail -5 "$TMP/n.out")" ||
		return 1
	# /dev/stdout on a file is a descriptor's name, no stem for FILE.LINE:
	# refused, and nothing created in /dev
	before=$(ls -d /dev/stdout* /proc/self/fd/1.* 2> /dev/null)
	"$SQWAVE" run --board "$BOARD" --line 0,3 --duration 200ms --quiet --log "$TMP/so.sqwlog" \
		--json /dev/stdout > "$TMP/so.out" 2> "$TMP/so.err"
	local rc=$?
	[ $rc -eq 2 ] && grep -q "names a descriptor or device, not a file" "$TMP/so.err" ||
		fail "--json /dev/stdout: exit $rc: $(cat "$TMP/so.err")" || return 1
	[ "$(ls -d /dev/stdout* /proc/self/fd/1.* 2> /dev/null)" = "$before" ] ||
		fail "beside /dev/stdout now: $(ls -d /dev/stdout*)"
}

test_refused_combinations_exit_2_naming_the_key() {
	local rc args
	mkfifo "$TMP/p.fifo" || return 1
	for args in "--line 0,0:gpio.line (\"0,0\", command line): line 0 is listed twice" \
		    "--line 0,3 --spin 50us:run.spin (50us, command line)" \
		    "--line 0,3 --json -:--json -: gpio.line names 2 lines" \
		    "--line 0,3 --json $TMP/p.fifo:--json $TMP/p.fifo is a pipe: gpio.line names 2 lines" \
		    "--line 0 --line-phase 10us:run.line_phase (\"10us\", command line) is for several lines" \
		    "--line 0,3 --line-phase 0,10us,20us:run.line_phase (\"0,10us,20us\", command line)" \
		    "--line 0,3 --cpus 0,1:rt.cpus (\"0,1\", command line) is for run.outputs per-cpu" \
		    "--line 0,,2:gpio.line (\"0,,2\", command line): an empty item" \
		    "--line 0,SIM0:gpio.line (\"0,SIM0\", command line): line SIM0 is listed twice" \
		    "--line 0,SIM0 --outputs per-cpu:line SIM0 is listed twice: it is line 0" \
		    "--line 0,3 --line-high 250us,500us --line-low 500us,500us --grid realtime:line 0: high + low = 750us" \
		    "--line 0,1:line 1 is the board's loopback input, wired to the output (loopback.line \"1\"" \
		    "--line 3,SIM2 --outputs per-cpu:line SIM2 is the board's input, driven from outside (input.line \"2\""; do
		# shellcheck disable=SC2086
		"$SQWAVE" run --board "$BOARD" ${args%%:*} --duration 1s --log "$TMP/x.sqwlog" \
			> /dev/null 2> "$TMP/x.err"
		rc=$?
		[ $rc -eq 2 ] || fail "${args%%:*}: exit $rc: $(cat "$TMP/x.err")" || return 1
		grep -qF -- "${args#*:}" "$TMP/x.err" || fail "${args%%:*}: $(cat "$TMP/x.err")" ||
			return 1
	done
	[ -z "$(ls "$TMP"/x.* 2> /dev/null | grep -v x.err)" ] ||
		fail "a refused run wrote: $(ls "$TMP"/x.*)" || return 1
	rm -f "$TMP/p.fifo"
}

cd "$ROOT" || exit 1
e2e_run "lines e2e"
