#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of `sqwave compare` on a respond log: `sqwave respond` on
# the simulated board answers the simulated stimulus, the sim's own history
# of both pins becomes a two-channel VCD (resp_capture.py: an offset, a
# drift, sample quantization, injected faults), and compare must agree with
# the true record and disagree with a doctored one.
# Usage: SQWAVE=build/sqwave tests/e2e/respond_compare.sh   (prints PASS/FAIL lines)
. "$(dirname "$0")/lib.sh" sqwave-respcmp
SQWAVE_RUN=${SQWAVE_RUN:-$SQWAVE}   # for respond (e.g. a plain build when $SQWAVE is ASan's)

cap() { python3 "$HERE/resp_capture.py" "$@"; }
# compare, keeping stdout/stderr; returns compare's exit code
cmp() { "$SQWAVE" compare "$@" > "$TMP/out" 2> "$TMP/err"; }
expect_rc() {
	local want=$1 got=$2
	[ "$got" -eq "$want" ] || fail "exit $got, expected $want: $(head -c 3000 "$TMP/out") $(cat "$TMP/err")"
}
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# NAME ARGS...: a 1 s respond run with the sim's history of both pins
respond() {
	local name=$1
	shift
	"$SQWAVE_RUN" respond --board "$BOARD" --duration 1s --quiet --log "$TMP/$name.sqwlog" \
		--set sim.history_file="$TMP/$name.csv" "$@" > /dev/null 2> "$TMP/$name.err" ||
		fail "respond $* failed: $(cat "$TMP/$name.err")"
}

setup() {
	respond follow --set sim.stim_jitter=300us || return 1
	# the default pair: stimulus first, 3 ms of capture before it, 10 ns
	# samples, the analyzer's clock 20 ppm fast
	cap "$TMP/follow.csv" "$TMP/follow.vcd" --offset-ns 3000000 --res-ns 10 --drift-ppm 20
}

test_a_capture_of_both_pins_agrees_and_measures_the_irq_latency() {
	cmp "$TMP/follow.sqwlog" "$TMP/follow.vcd" --json "$TMP/a.json"
	expect_rc 0 $? || return 1
	python3 - "$TMP/a.json" "$TMP/follow.csv" <<'PY' || return 1
import csv, json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "sqwave-compare" and d["run"]["mode"] == "respond", d["run"]
a, r = d["alignment"], d["respond"]
assert a["status"] == "aligned" and abs(a["drift_ppm"] - 20) < 0.5, a
# every answer checked, each caused by its own stimulus edge
assert r["checked"] == r["answers"] and r["disagree"] == 0, r
assert r["stimulus"]["cause"] == r["answers"], r["stimulus"]
assert r["stimulus"]["without_event"] == 0 and r["events_without_stimulus"] == 0, r
assert r["response_edges_without_write"] == 0 and r["writes_missing_in_capture"] == 0, r
# the sim stamps an event when its stimulus changes: the measured latency is
# 0 within a sample, the fit and where in its write window the pin changed
# (place_ns: the log cannot say)
irq, slack = r["irq_latency"], a["tolerance_ns"] + a["place_ns"]
assert irq["count"] == r["answers"] and -slack <= irq["min_ns"] and irq["max_ns"] <= slack, (irq, a)
# the stimulus edges reported by the sim are the log's events and more
rows = [x for x in csv.reader(open(sys.argv[2])) if x[0] == "stim"]
assert r["stimulus_edges"] == len(rows), (r["stimulus_edges"], len(rows))
assert d["verdict"] == "agree" and d["exit_code"] == 0
PY
	grep -q "verdict    AGREE" "$TMP/out" || fail "no AGREE in text" || return 1
	grep -q "respond.irq_bound should be set from this" "$TMP/out" ||
		fail "the text does not say what irq_bound is for" || return 1
	# the run's own view beside the capture's: the scope's bounds and the
	# lost and unanswered events, as analyze of the same log states them
	"$SQWAVE" analyze "$TMP/follow.sqwlog" --quiet --json "$TMP/a-an.json" ||
		fail "analyze exit $?" || return 1
	python3 - "$TMP/a.json" "$TMP/a-an.json" <<'PY' || return 1
import json, sys
c, a = (json.load(open(p))["respond"] for p in sys.argv[1:3])
assert c["scope"] == {k: a["scope"][k] for k in ("answers", "min_ns", "max_ns")}, \
    (c["scope"], a["scope"])
for k in ("events_lost", "events_lost_warmup", "events_unanswered"):
    assert c[k] == a[k], (k, c[k], a[k])
PY
	grep -q "^scope      the log's bounds" "$TMP/out" && grep -q "^events     lost .* unanswered" \
		"$TMP/out" || fail "the text has no scope or unanswered line" || return 1
}

# "K SEQ": a response edge to break on purpose (K, the K-th write that
# changes the level, from the 300th on) and its answer's seq in the log.
# One that stands alone: its write window under 10 us and the edges around
# it (K-1 to K+2) 200 us apart or more in the pins' record. After a stall
# a busy machine answers queued events a few us apart, inside windows of
# milliseconds: moving such an edge by 50 us reorders it among its
# neighbours, or keeps it inside its own window, which is another fault
# than the one a test means to make.
alone_edge() {
	python3 - "$TMP/follow.sqwlog" "$TMP/follow.csv" "$HERE" <<'PY'
import csv, sys
sys.path.insert(0, sys.argv[3])
import sqwlog
recs = sqwlog.read(sys.argv[1])["edges"]
writes = [int(x[1]) for x in csv.reader(open(sys.argv[2])) if x[0] == "write" and x[2] == "0"]
level, edges = 0, []                 # (time on the pin, the record)
for i, r in enumerate(recs):
    if r[6] != level:
        edges.append((writes[i], r))
        level = r[6]
for k in range(300, len(edges) - 3):
    t = [e[0] for e in edges[k - 1:k + 3]]
    if edges[k][1][4] - edges[k][1][3] < 10000 and min(b - a for a, b in zip(t, t[1:])) >= 200000:
        print(k, edges[k][1][0])
        break
PY
}

test_one_response_edge_50_us_late_disagrees_at_its_answer() {
	local k seq
	read -r k seq <<< "$(alone_edge)"
	[ -n "$seq" ] || fail "no response edge stands alone in the record" || return 1
	cap "$TMP/follow.csv" "$TMP/late.vcd" --offset-ns 3000000 --res-ns 10 --drift-ppm 20 \
		--move "$k:50000" || return 1
	cmp "$TMP/follow.sqwlog" "$TMP/late.vcd" --json "$TMP/late.json"
	expect_rc 1 $? || return 1
	[ "$(jget "$TMP/late.json" '[(x["seq"], x["why"]) for x in d["respond"]["disagreeing"]]')" = \
	  "[($seq, ['outside-window'])]" ] ||
		fail "disagreeing: $(jget "$TMP/late.json" 'd["respond"]["disagreeing"]'), expected seq $seq" ||
		return 1
	grep -q "verdict    DISAGREE (1 answer)" "$TMP/out" || fail "$(tail -3 "$TMP/out")" || return 1
}

test_a_dropped_response_edge_disagrees() {
	local k seq
	read -r k seq <<< "$(alone_edge)"
	[ -n "$seq" ] || fail "no response edge stands alone in the record" || return 1
	# the line then skips the next change too: one pulse gone
	cap "$TMP/follow.csv" "$TMP/drop.vcd" --offset-ns 3000000 --res-ns 10 --drop "$k" || return 1
	cmp "$TMP/follow.sqwlog" "$TMP/drop.vcd" --json "$TMP/drop.json"
	expect_rc 1 $? || return 1
	[ "$(jget "$TMP/drop.json" 'd["respond"]["writes_missing_in_capture"], d["respond"]["answers_without_response"]')" = \
	  "2 2" ] || fail "$(jget "$TMP/drop.json" 'd["respond"]')" || return 1
}

test_channels_are_chosen_by_name_and_misuse_is_exit_2() {
	cap "$TMP/follow.csv" "$TMP/swap.vcd" --res-ns 10 --swap || return 1
	cmp "$TMP/follow.sqwlog" "$TMP/swap.vcd" --stimulus stim --response resp
	expect_rc 0 $? || return 1
	# by default the first channel is the stimulus: here the output
	cmp "$TMP/follow.sqwlog" "$TMP/swap.vcd"
	expect_rc 1 $? || return 1
	cmp "$TMP/follow.sqwlog" "$TMP/swap.vcd" --channel resp
	expect_rc 2 $? || return 1
	grep -q -- "--stimulus CH and --response CH" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
	cmp "$TMP/follow.sqwlog" "$TMP/swap.vcd" --stimulus resp --response resp
	expect_rc 2 $? || return 1
	grep -q "the same channel" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
}

test_rising_edges_with_bounce_and_debounce_are_filtered_not_lost() {
	# the sim stamps an event when its input changed (+ the debounce): no
	# interrupt latency, so a respond.irq_bound of 1 us holds every answer
	respond deb --respond-mode toggle --edge rising --debounce 20us --irq-bound 1us \
		--set sim.stim_jitter=300us --set sim.stim_bounce=2 || return 1
	cap "$TMP/deb.csv" "$TMP/deb.vcd" --res-ns 10 --drift-ppm -15 || return 1
	cmp "$TMP/deb.sqwlog" "$TMP/deb.vcd" --json "$TMP/deb.json"
	expect_rc 0 $? || return 1
	python3 - "$TMP/deb.json" "$TMP/deb.csv" "$TMP/deb.sqwlog" "$HERE" <<'PY' || return 1
import csv, json, sys
sys.path.insert(0, sys.argv[4])
import sqwlog
d = json.load(open(sys.argv[1]))
r, a = d["respond"], d["alignment"]
s = r["stimulus"]
assert r["edge"] == "rising" and r["debounce_ns"] == 20000, r
assert s["filtered_by_edge"] > 0 and s["filtered_by_debounce"] > 0, s
assert s["without_event"] == 0 and s["lost_by_kernel"] == 0, s
# every edge is accounted for
assert s["cause"] + s["filtered_by_edge"] + s["filtered_by_debounce"] + s["outside_answers"] \
    == r["stimulus_edges"], r
# Each answer against the pins' own record (sim.history_file), not the
# schedule (2 x 2 x 2 us of bounces + 20 us), which a late stimulus thread
# on a busy machine does not keep. A burst: changes each less than the
# debounce period after the one before; the kernel reports its last.
# - the input's own latency: the log's stamp of the event - (the burst's
#   last change + the debounce period)
# - the delay, what a scope triggers on: from the burst's first change to
#   the output's change the answer made (the record's write)
bursts, first, prev = {}, None, None
for x in csv.reader(open(sys.argv[2])):
    if x[0] != "stim":
        continue
    t = int(x[1])
    if prev is None or t - prev >= 20000:
        first = t
    prev = t
    if x[4] == "1":
        bursts[int(x[5])] = (first, t)    # the event's seqno: its burst's first and last
writes = [int(x[1]) for x in csv.reader(open(sys.argv[2])) if x[0] == "write" and x[2] == "0"]
seqno, irq_want, delay_want = 0, [], []
for i, e in enumerate(sqwlog.read(sys.argv[3])["edges"]):
    if e[7] & 0x40:                       # a pulse end or the end's idle: no event
        continue
    seqno += e[5]
    f, l = bursts[seqno]
    irq_want.append(e[1] - (l + 20000))
    delay_want.append(writes[i] - f)      # toggle: every answer changes the pin
irq, delay = r["irq_latency"], r["delay"]
slack = a["tolerance_ns"] + a["place_ns"]
assert irq["count"] == len(irq_want) == r["answers"], (irq, len(irq_want), r["answers"])
assert abs(irq["min_ns"] - min(irq_want)) <= slack and abs(irq["max_ns"] - max(irq_want)) <= slack, \
    (irq, min(irq_want), max(irq_want), a)
assert abs(delay["min_ns"] - min(delay_want)) <= slack, (delay, min(delay_want), a)
assert abs(delay["max_ns"] - max(delay_want)) <= slack, (delay, max(delay_want), a)
assert r["irq_bound_ns"] == 1000 and r["disagree"] == 0, r
PY
	grep -q "IRQ latency: the stimulus's last change + debounce" "$TMP/out" ||
		fail "the text does not say what the IRQ latency is measured from" || return 1
}

# --json -: standard output is the document alone, the one --json FILE
# writes; the text report goes to standard error.
test_json_dash_is_the_files_document_and_the_text_goes_to_stderr() {
	cmp "$TMP/follow.sqwlog" "$TMP/follow.vcd" --json "$TMP/dash.json"
	expect_rc 0 $? || return 1
	cp "$TMP/out" "$TMP/dash.txt"
	cmp "$TMP/follow.sqwlog" "$TMP/follow.vcd" --json -
	expect_rc 0 $? || return 1
	command cmp -s "$TMP/out" "$TMP/dash.json" ||
		fail "stdout is not the --json FILE document: $(head -c 300 "$TMP/out")" || return 1
	command cmp -s "$TMP/err" "$TMP/dash.txt" ||
		fail "stderr is not the text report: $(head -c 300 "$TMP/err")" || return 1
}

test_a_wave_log_refuses_the_respond_options() {
	"$SQWAVE_RUN" run --board "$BOARD" --duration 0.2s --quiet --log "$TMP/wave.sqwlog" \
		> /dev/null 2>&1 || fail "run failed" || return 1
	cmp "$TMP/wave.sqwlog" "$TMP/follow.vcd" --stimulus stim
	expect_rc 2 $? || return 1
	grep -q "a wave's" "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
}

echo "respond_compare e2e"
if ! setup; then
	echo "FAIL setup"
	exit 1
fi
e2e_run "respond_compare e2e"
