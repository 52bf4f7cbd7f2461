#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of `sqwave respond` on the simulated board: the stimulus
# (sim.stim_*) toggles the input line, respond answers on the output, and
# respond_check.py holds the log against the sim's history file (what the
# pins did, written by the "hardware") and against its own reading of the
# log. Self-contained: SQWAVE=path/to/sqwave tests/e2e/respond.sh from the
# repository root.
. "$(dirname "$0")/lib.sh" sqwave-e2e-respond

# respond NAME [OPTIONS...]: a short respond run on the sim board, its log
# $TMP/NAME.sqwlog, history $TMP/NAME.csv, JSON $TMP/NAME.json, output
# $TMP/NAME.out; returns its exit code.
respond() {
	local name=$1
	shift
	"$SQWAVE" respond --board "$ROOT/boards/sim.yaml" --duration 300ms --quiet --allow-non-rt \
		--log "$TMP/$name.sqwlog" --json "$TMP/$name.json" \
		--set sim.history_file="$TMP/$name.csv" "$@" > "$TMP/$name.out" 2>&1
}

check() { python3 "$HERE/respond_check.py" "$TMP/$1.sqwlog" "$TMP/$1.csv" "${@:2}" \
	> /dev/null 2> "$TMP/check.err" || fail "$(cat "$TMP/check.err")"; }

schema() { python3 "$HERE/json_schema_check.py" "$ROOT/docs/schema" "$@" > /dev/null \
	2> "$TMP/schema.err" || fail "schema: $(cat "$TMP/schema.err")"; }

test_follow_answers_every_event_after_it_as_the_pin_shows() {
	respond follow || fail "exit $?: $(cat "$TMP/follow.out")" || return 1
	check follow answers || return 1
	schema "$TMP/follow.json" || return 1
	python3 - "$TMP/follow.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
r = d["respond"]
assert r["mode"] == "follow" and r["events_lost"] == 0, r
assert r["answers"] > 0 and r["writes"] >= r["answers"], r
s = r["scope"]
# no respond.irq_bound: a lower bound only
assert s["max_ns"] is None and s["min_ns"] >= r["event_to_write_begin"]["min_ns"], s
PY
}

test_toggle_on_rising_edges_flips_once_per_rising_edge() {
	respond toggle --respond-mode toggle --edge rising || fail "exit $?" || return 1
	check toggle answers || return 1
	# the kernel reported the rising changes only
	python3 - "$TMP/toggle.csv" <<'PY' || return 1
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r[0] == "stim"]
assert all(r[3] == "1" for r in rows if r[4] == "1"), "a falling change was reported"
assert any(r[3] == "0" for r in rows), "no falling change at all"
PY
}

test_a_pulse_lasts_its_width_from_each_answer() {
	respond pulse --respond-mode pulse --pulse-width 40us || fail "exit $?" || return 1
	check pulse pulse 40000 || return 1
}

test_output_pulses_run_from_the_write_that_changed_the_pin() {
	# follow on rising edges: every answer after the first writes the level
	# the pin has; lost events in follow mode rewrite a level too
	respond rise --edge rising --duration 500ms || fail "exit $?" || return 1
	check rise widths "$TMP/rise.json" || return 1
	respond lose --set sim.stim_period=50us --set sim.write_cost=200us --duration 400ms \
		|| fail "exit $?" || return 1
	check lose lost 1 || return 1
	check lose widths "$TMP/lose.json" || return 1
	respond tog --respond-mode toggle --edge rising || fail "exit $?" || return 1
	check tog widths "$TMP/tog.json" || return 1
	respond pw --respond-mode pulse --pulse-width 40us || fail "exit $?" || return 1
	check pw widths "$TMP/pw.json" || return 1
}

test_bounces_without_debounce_are_each_answered() {
	respond bounce --set sim.stim_bounce=2 --set sim.stim_bounce_gap=20us \
		--set sim.stim_period=2ms || fail "exit $?" || return 1
	check bounce answers || return 1
	python3 - "$TMP/bounce.csv" <<'PY' || return 1
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r[0] == "stim"]
# five changes per stimulus edge, every one of them reported
assert len(rows) >= 10 and all(r[4] == "1" for r in rows[:-5]), len(rows)
PY
}

test_debounce_gives_one_event_per_stimulus_edge() {
	respond deb --set sim.stim_bounce=2 --set sim.stim_bounce_gap=20us \
		--set sim.stim_period=2ms --debounce 100us || fail "exit $?" || return 1
	check deb debounce 100000 || return 1
	grep -q "debounce 100us" "$TMP/deb.out" || fail "the summary does not say the debounce"
}

test_the_scope_bounds_hold_every_answer_with_and_without_debounce() {
	# the sim stamps an event when its input changed (+ the debounce): an
	# interrupt latency of 0, so any respond.irq_bound covers it
	respond sb --irq-bound 1us || fail "exit $?" || return 1
	check sb bounds "$TMP/sb.json" || return 1
	respond sbd --set sim.stim_bounce=2 --set sim.stim_bounce_gap=20us \
		--set sim.stim_period=2ms --debounce 100us --irq-bound 1us || fail "exit $?" || return 1
	check sbd bounds "$TMP/sbd.json" || return 1
	grep -q "at least.*+ respond.debounce 100us" "$TMP/sbd.out" ||
		fail "the text does not add the debounce: $(grep -A3 '^Scope' "$TMP/sbd.out")" || return 1
	# analyze of the log states the same bounds
	"$SQWAVE" analyze "$TMP/sbd.sqwlog" --quiet --json "$TMP/sbd-a.json" ||
		fail "analyze exit $?" || return 1
	python3 - "$TMP/sbd.json" "$TMP/sbd-a.json" <<'PY' || return 1
import json, sys
s, a = (json.load(open(p))["respond"]["scope"] for p in sys.argv[1:3])
assert s == a, (s, a)
assert s["debounce_ns"] == 100000 and s["irq_bound_ns"] == 1000, s
PY
}

test_a_stimulus_faster_than_the_answers_loses_events_and_counts_them() {
	# each write costs 200 us, a stimulus edge comes every 50 us: the
	# kernel's queue (1024 events) overflows and drops events. (Not faster:
	# at 100,000 changes a second the sim's history writer, a thread like
	# any other, must never be held off for 0.16 s, or the record it
	# checks against has a gap; 20,000 leave it 0.8 s.)
	respond fast --set sim.stim_period=50us --set sim.write_cost=200us \
		--duration 400ms || fail "exit $?: $(cat "$TMP/fast.out")" || return 1
	check fast lost 1 || return 1
	python3 - "$TMP/fast.json" "$TMP/fast.sqwlog" "$HERE" <<'PY' || return 1
import json, sys
sys.path.insert(0, sys.argv[3])
import sqwlog
r = json.load(open(sys.argv[1]))["respond"]
log = sqwlog.read(sys.argv[2])
# the answers' records count what they skipped; the run's own count adds
# the events lost among those still queued at the stop (respond_check.py
# holds both to the sim's record)
lost = sum(e[5] - 1 for e in log["edges"] if not e[7] & 0x41)
assert r["events_lost"] >= lost > 0, (r["events_lost"], lost)
assert r["events_lost"] + r["events_lost_warmup"] == log["footer"]["missed_periods"], \
    (r, log["footer"])
PY
	grep -q "^lost .*events.*skipped them" "$TMP/fast.out" || fail "the summary hides the lost events"
}

test_events_lost_in_the_warm_up_or_unanswered_at_the_stop_are_never_hidden() {
	# a 5 ms pulse answers a 1 ms stimulus: events queue up, and those
	# still queued at the stop are never answered
	# still queued at the stop are never answered (on a slow machine the
	# events queued during the setup may take the whole run: nothing
	# counted, exit 1, which is not what this test is about)
	respond slow --respond-mode pulse --pulse-width 5ms
	[ $? -le 1 ] || fail "exit $?: $(cat "$TMP/slow.out")" || return 1
	check slow stop "$TMP/slow.json" 1 || return 1
	grep -q "^unanswered [1-9][0-9]* events stamped before the stop" "$TMP/slow.out" ||
		fail "the text hides them: $(grep -E '^(lost|unanswered)' "$TMP/slow.out")" || return 1
	"$SQWAVE" analyze "$TMP/slow.sqwlog" > "$TMP/slow-a.out"
	[ $? -le 1 ] || fail "analyze exit $?" || return 1
	grep -q "^unanswered [1-9]" "$TMP/slow-a.out" || fail "analyze hides them" || return 1
	# a stimulus every 50 us, an answer every 200 us: the kernel's queue
	# (1024 events) overflows within the 100 ms warm-up (in about 70 ms):
	# lost there, counted apart
	# (the answers then lag the queue's 200 ms: maybe none is counted, exit 1)
	respond early --set sim.stim_period=50us --set sim.write_cost=200us --warmup 100ms \
		--duration 200ms
	[ $? -le 1 ] || fail "exit $?: $(cat "$TMP/early.out")" || return 1
	check early stop "$TMP/early.json" || return 1
	python3 - "$TMP/early.json" "$TMP/early.out" <<'PY' || return 1
import json, re, sys
r = json.load(open(sys.argv[1]))["respond"]
assert r["events_lost_warmup"] > 0, r
text = open(sys.argv[2]).read()
m = re.search(r"^lost +(\d+) events, (\d+) more in the warm-up", text, re.M)
assert m and (int(m.group(1)), int(m.group(2))) == (r["events_lost"], r["events_lost_warmup"]), \
    (m and m.groups(), r["events_lost"], r["events_lost_warmup"])
PY
}

test_the_verdict_judges_the_worst_answer_and_ci_outputs_say_so() {
	respond ok --max-response 10s --junit "$TMP/ok.xml" --results "$TMP/ok.txt" ||
		fail "exit $? with a limit of 10 s" || return 1
	grep -q "^response_max pass" "$TMP/ok.txt" || fail "no passing response_max result" || return 1
	respond bad --max-response 1ns --junit "$TMP/bad.xml" --results "$TMP/bad.txt"
	[ $? -eq 1 ] || fail "a limit of 1 ns did not fail" || return 1
	grep -q "^response_max fail" "$TMP/bad.txt" || fail "no failing response_max result" || return 1
	grep -q 'response_max' "$TMP/bad.xml" && grep -q '<failure' "$TMP/bad.xml" ||
		fail "JUnit has no failing response_max" || return 1
	grep -q "above limits.response_max" "$TMP/bad.out" || fail "no sentence for the violation"
}

test_a_known_irq_bound_gives_the_scope_an_upper_bound() {
	respond irq --irq-bound 5us || fail "exit $?" || return 1
	python3 - "$TMP/irq.json" "$TMP/irq.sqwlog" "$HERE" <<'PY' || return 1
import json, sys
sys.path.insert(0, sys.argv[3])
import sqwlog
r = json.load(open(sys.argv[1]))["respond"]
# the longest write end - event of the counted answers that changed the pin
pin, ends = 0, []
for e in sqwlog.read(sys.argv[2])["edges"]:
    if e[6] != pin:
        pin = e[6]
        if not e[7] & 0x41:
            ends.append(e[4])
assert r["scope"]["max_ns"] == max(ends) + 5000, (r["scope"], max(ends))
PY
}

test_realtime_stamps_are_answered_on_the_realtime_clock() {
	respond rt --event-clock realtime || fail "exit $?" || return 1
	check rt answers || return 1
	python3 - "$TMP/rt.sqwlog" "$HERE" <<'PY' || return 1
import sys, time
sys.path.insert(0, sys.argv[2])
import sqwlog
log = sqwlog.read(sys.argv[1])
t = log["edges"][0][1] / 1e9
assert abs(t - time.time()) < 600, ("not a CLOCK_REALTIME stamp", t)
PY
}

test_analyze_and_export_read_a_respond_log() {
	respond an || fail "exit $?" || return 1
	"$SQWAVE" analyze "$TMP/an.sqwlog" > "$TMP/an-a.out" || fail "analyze exit $?" || return 1
	"$SQWAVE" analyze "$TMP/an.sqwlog" --quiet --json "$TMP/an-a.json" ||
		fail "analyze --json exit $?" || return 1
	schema "$TMP/an-a.json" || return 1
	grep -q "Scope across the two pins" "$TMP/an-a.out" && ! grep -q "^missed " "$TMP/an-a.out" ||
		fail "analyze text of a respond log" || return 1
	# a run of its own kind: no wave's figures
	! grep -E "^duty cycle|^  placement|^  pulse any|^period |^wave " "$TMP/an-a.out" ||
		fail "analyze shows a wave's figures for a respond log" || return 1
	"$SQWAVE" export "$TMP/an.sqwlog" --csv "$TMP/an.csv" || fail "export exit $?" || return 1
	python3 - "$TMP/an-a.json" "$TMP/an.json" "$TMP/an.csv" "$TMP/an.sqwlog" "$HERE" <<'PY' || return 1
import csv, json, sys
sys.path.insert(0, sys.argv[5])
import sqwlog
a, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
# no half period, no duty cycle, no period: it has no wave
assert a["half_period_ns"] is None and a["run"]["half_period_ns"] is None, a["run"]
assert a["duty_cycle"] is None and a["period"]["count"] == 0, (a["duty_cycle"], a["period"])
# the run's summary and analyze of its log agree
for k in ("answers", "writes", "events_lost"):
    assert a["respond"][k] == s["respond"][k], (k, a["respond"][k], s["respond"][k])
rows = [r for r in csv.reader(open(sys.argv[3])) if r and not r[0].startswith("#")]
assert len(rows) - 1 == len(sqwlog.read(sys.argv[4])["edges"]), len(rows)
PY
}

test_analyze_dates_each_edge_once_and_says_durations_in_fitting_units() {
	# every answer crosses a 1 ns limit, 10 kHz of them: a sub-millisecond
	# MTBF; events queued during the setup are warm-up, so the first logged
	# edge is not the first counted one
	respond when --set sim.stim_period=100us --max-response 1ns
	[ $? -eq 1 ] || fail "exit $?: $(cat "$TMP/when.out")" || return 1
	"$SQWAVE" analyze "$TMP/when.sqwlog" > "$TMP/when-a.out"
	"$SQWAVE" analyze "$TMP/when.sqwlog" --quiet --json "$TMP/when-a.json"
	[ $? -le 1 ] || fail "analyze exit $?" || return 1
	python3 - "$TMP/when-a.out" "$TMP/when-a.json" <<'PY' || return 1
import json, re, sys
text, d = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
assert d["counts"]["warmup_edges"] > 0, d["counts"]
# one edge, one time: every "edge #N (t+X s" and every worst-edge row agree
times = {}
for seq, t in re.findall(r"#(\d+)[^\n(]*\(t\+([\d.]+) s", text) + \
        re.findall(r"^ +(\d+) +t\+([\d.]+) s ", text, re.M):
    times.setdefault(int(seq), set()).add(round(float(t), 3))
assert times and all(len(v) == 1 for v in times.values()), \
    {k: v for k, v in times.items() if len(v) > 1}
first = d["first_intended_ns"]
for row in d["worst"]["edges"]:
    assert row["t_ns"] == row["intended_ns"] - first, row
w = d["windows"]
peak = w["worst"]["response_max"]
assert peak["t_ns"] == w["origin_t_ns"] + peak["offset_ns"], (peak, w["origin_t_ns"])
assert w["origin_t_ns"] > 0, w["origin_t_ns"]
# durations in the unit that fits: no raw ns, no "0.000 s" MTBF
units = {"us": 1e3, "ms": 1e6, "s": 1e9, "min": 60e9, "h": 3600e9}
m = re.search(r"MTBF ([\d.]+) (us|ms|s|min|h)\b", text)
assert m, re.findall(r"^limit crossings.*", text, re.M)
c = w["crossings"]
want = w["observed_ns"] / c["edges"]
got = float(m.group(1)) * units[m.group(2)]
assert want < 1e6 and m.group(2) == "us" and abs(got - want) <= 1e-3 * want, (m.group(0), want)
p = re.search(r"partial: (\S+)( \S+)?", text)
assert p and p.group(2) and p.group(2).strip() in units, p and p.group(0)
PY
}

test_report_judges_a_respond_run_by_its_answers() {
	respond rep --max-response 1ns || [ $? -eq 1 ] || fail "exit $?" || return 1
	"$SQWAVE" analyze "$TMP/rep.sqwlog" --quiet --json "$TMP/rep-a.json"
	[ $? -le 1 ] || fail "analyze exit $?" || return 1
	schema "$TMP/rep-a.json" "$TMP/rep.json" || return 1
	"$SQWAVE" report "$TMP/rep.json" "$TMP/rep-a.json" "$TMP/rep.sqwlog" --json "$TMP/rep-r.json" \
		> "$TMP/rep.out"
	[ $? -eq 1 ] || fail "report of a failed respond run: exit $?" || return 1
	schema "$TMP/rep-r.json" || return 1
	python3 - "$TMP/rep-r.json" "$TMP/rep.json" <<'PY' || return 1
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
# the summary, the analysis and the log itself: one verdict, and no frequency
assert len(rows) == 3 and all(r["verdict"] == "FAIL" for r in rows), [r["verdict"] for r in rows]
assert all(r.get("frequency_hz") is None for r in rows), rows[0]
# a run of its own kind: its answers, response latency, lost and
# unanswered events and the scope's bounds, the same from all three
s = json.load(open(sys.argv[2]))["respond"]
want = {"answers": s["answers"], "response_max_ns": s["event_to_write_end"]["max_ns"],
        "response_p99_ns": s["event_to_write_end"]["percentiles_ns"]["p99"],
        "events_lost": s["events_lost"], "events_lost_warmup": s["events_lost_warmup"],
        "events_unanswered": s["events_unanswered"], "scope_min_ns": s["scope"]["min_ns"],
        "scope_max_ns": s["scope"]["max_ns"]}
for r in rows:
    assert r["kind"] == "respond", r["kind"]
    got = {k: r["respond"][k] for k in want}
    assert got == want, (r["source"], got, want)
PY
	# its own table: answers and the scope, no frequency, no "missed"
	head=$(grep -m1 "^label" "$TMP/rep.out")
	case $head in
	*answers*"response p50 us"*unanswered*"scope us"*) ;;
	*) fail "the table's head: $head" || return 1 ;;
	esac
	case $head in
	*"freq Hz"*|*missed*|*"wake p50"*) fail "wave columns: $head" || return 1 ;;
	esac
}

test_the_trend_shows_a_respond_run_by_its_answers() {
	respond tr --irq-bound 2us || fail "exit $?" || return 1
	"$SQWAVE" run --board "$ROOT/boards/sim.yaml" --duration 100ms --quiet --allow-non-rt \
		--log "$TMP/trw.sqwlog" --json "$TMP/trw.json" > /dev/null 2>&1 || fail "run exit $?" ||
		return 1
	"$SQWAVE" report --trend "$TMP/tr.json" "$TMP/trw.json" --json "$TMP/tr-t.json" \
		> "$TMP/tr-t.out" || fail "trend exit $?" || return 1
	schema "$TMP/tr-t.json" || return 1
	python3 - "$TMP/tr-t.json" "$TMP/tr.json" "$TMP/tr-t.out" <<'PY' || return 1
import json, sys
runs = [r for b in json.load(open(sys.argv[1]))["boards"] for r in b["runs"]]
s = json.load(open(sys.argv[2]))["respond"]
resp = [r for r in runs if r["kind"] == "respond"]
wave = [r for r in runs if r["kind"] == "wave"]
assert len(resp) == 1 and len(wave) == 1 and wave[0]["respond"] is None, runs
got = resp[0]["respond"]
want = {"answers": s["answers"], "response_max_ns": s["event_to_write_end"]["max_ns"],
        "events_lost": s["events_lost"], "events_unanswered": s["events_unanswered"],
        "scope_min_ns": s["scope"]["min_ns"], "scope_max_ns": s["scope"]["max_ns"]}
assert {k: got[k] for k in want} == want, (got, want)
# the text gives the respond run a head of its own
text = open(sys.argv[3]).read()
assert "answers  resp p99 us" in text and "Tmin us" in text, text
PY
}

test_phases_and_their_loads_are_those_of_run() {
	printf 'run:\n  warmup: 0\nphases:\n  - name: quiet\n    duration: 1s\n  - name: busy\n    duration: 1s\n    load:\n      - kind: command\n        name: nap\n        args: [sleep, "600"]\nlimits:\n  response_max: 10s\n' \
		> "$TMP/ph.yaml"
	"$SQWAVE" respond --board "$ROOT/boards/sim.yaml" --profile "$TMP/ph.yaml" --quiet \
		--allow-non-rt --log "$TMP/ph.sqwlog" --json "$TMP/ph.json" > "$TMP/ph.out" 2>&1
	[ $? -le 1 ] || fail "exit $?: $(cat "$TMP/ph.out")" || return 1
	schema "$TMP/ph.json" || return 1
	python3 - "$TMP/ph.json" <<'PY' || return 1
import json, sys
d = json.load(open(sys.argv[1]))
ph = d["phases"]
assert [p["name"] for p in ph] == ["quiet", "busy"], ph
assert ph[1]["loads"] and not ph[0]["loads"], [p["loads"] for p in ph]
# the phases' answers add up to the run's, each judged on its own
assert sum(p["respond"]["answers"] for p in ph) == d["respond"]["answers"], ph
assert all(p["respond"]["answers"] > 0 for p in ph)
names = [c["name"] for c in d["verdict"]["checks"]]
assert "response_max" in names and "running" in names, names
PY
}

test_respond_refuses_what_it_cannot_do() {
	"$SQWAVE" respond --board "$ROOT/boards/sim.yaml" --set input.line= --duration 10ms \
		--quiet --log "$TMP/x.sqwlog" > "$TMP/x.out" 2>&1
	[ $? -eq 2 ] && grep -q "input line" "$TMP/x.out" || fail "no input line: $(cat "$TMP/x.out")" ||
		return 1
	"$SQWAVE" respond --board "$ROOT/boards/sim.yaml" --event-clock hte --duration 10ms \
		--quiet --log "$TMP/y.sqwlog" > "$TMP/y.out" 2>&1
	[ $? -eq 2 ] || fail "hte on the sim: $(cat "$TMP/y.out")" || return 1
	"$SQWAVE" respond --board "$ROOT/boards/sim.yaml" --loopback --duration 10ms \
		--quiet --log "$TMP/z.sqwlog" > "$TMP/z.out" 2>&1
	[ $? -eq 2 ] || fail "--loopback: $(cat "$TMP/z.out")" || return 1
	# the output line as the input, by its offset or by its name: one line,
	# a configuration error found before anything is requested or created
	for l in 0 SIM0; do
		"$SQWAVE" respond --board "$ROOT/boards/sim.yaml" --set input.line=$l \
			--duration 10ms --quiet --log "$TMP/s.sqwlog" > "$TMP/s.out" 2>&1
		[ $? -eq 2 ] || fail "input.line=$l: exit $?: $(cat "$TMP/s.out")" || return 1
		grep -q "input and output are the same line: input.line (\"$l\", command line) and gpio.line (\"0\", .*sim.yaml:[0-9]*) are both line 0 of gpiochip0" \
			"$TMP/s.out" || fail "input.line=$l: $(cat "$TMP/s.out")" || return 1
		[ ! -e "$TMP/s.sqwlog" ] || fail "input.line=$l: a log was created" || return 1
	done
}

e2e_run "respond e2e"
