#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile input to the readers that never capture: `report` over JSON
# summaries and analyses (wrong types, numbers beyond int64, duplicate
# members, NUL escapes, another tool's or a newer sqwave's document, pipes,
# devices, thousands of files) and `trace-explain` over saved traces
# (devices, CRLF, NUL bytes, huge lines), compare's scope readings and
# export's standard output.
# Generated inputs only; bounds by ulimit and timeout, never by timing
# assertions.
. "$(dirname "$0")/../e2e/lib.sh" sqwave-hostile-readers
GEN="python3 $ROOT/tests/hostile/loggen.py"
TRACE=$ROOT/tests/data/traces/preempted-by-git.trace

# A sanitizer build reserves terabytes of shadow address space: no limit
# there (as the other hostile scripts do).
if grep -qa __asan_init "${SQWAVE_REAL:-$SQWAVE}" 2> /dev/null; then VMEM=unlimited; else VMEM=524288; fi

# Run sqwave with a 512 MiB address-space limit and a time bound; the exit
# code goes to $TMP/rc (124: the time bound hit).
bounded() {
	( ulimit -v $VMEM; exec timeout 60 "$SQWAVE" "$@" )
	echo $? > "$TMP/rc"
}

# expect CODE PATTERN FILE: not lib.sh's; the code bounded left in $TMP/rc
expect() {
	local rc
	rc=$(cat "$TMP/rc")
	[ "$rc" = "$1" ] || fail "exit $rc, expected $1: $(head -c 400 "$3")" || return 1
	[ -z "$2" ] || grep -q -- "$2" "$3" || fail "no \"$2\" in: $(head -c 400 "$3")" || return 1
}

# An analysis of a generated log: a real document of the kind report reads.
analysis() {
	[ -f "$TMP/a.json" ] && return 0
	$GEN "$TMP/a.sqwlog" --edges 400 || return 1
	"$SQWAVE" analyze "$TMP/a.sqwlog" --json "$TMP/a.json" --quiet > /dev/null 2>&1 ||
		fail "analyze --json of the generated log" || return 1
}

# mutate NAME PYTHON: $TMP/NAME.json from a.json, one member a line.
# PYTHON edits the document d; a member set to "@@" is then written as the
# raw text in r (NaN, 1e400, what json.dumps would not write); or it sets
# the whole text t.
mutate() {
	python3 - "$TMP/a.json" "$TMP/$1.json" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r, t = None, None
exec(sys.argv[3])
if t is None:
    t = json.dumps(d, indent=1)
    if r is not None:
        t = t.replace('"@@"', r, 1)
open(sys.argv[2], "w", encoding="utf-8", errors="surrogateescape").write(t)
EOF
}

test_a_figure_of_another_type_or_range_names_file_line_and_member() {
	local spec name want
	analysis || return 1
	# NAME|PYTHON|what the message says (FILE: the file's name)
	while IFS='|' read -r name spec want; do
		want=${want//FILE/$name.json}
		mutate "$name" "$spec" || return 1
		bounded report "$TMP/$name.json" > "$TMP/$name.out" 2> "$TMP/$name.err"
		expect 2 "$want" "$TMP/$name.err" || { echo "    ($name)" >&2; return 1; }
		[ -s "$TMP/$name.out" ] && fail "$name: a table on bad input" && return 1
	done <<'EOF'
dropped-string|d["counts"]["dropped"] = "5"|FILE:[0-9]*: counts.dropped must be a number, not a string
edges-negative|d["counts"]["edges"] = -400|FILE:[0-9]*: counts.edges must be an integer from 0
edges-2to64|d["counts"]["edges"] = 2**64|counts.edges must be an integer
edges-fraction|d["counts"]["edges"] = 399.5|counts.edges must be an integer
width-negative|d["pulse_width"]["any"]["tmin"]["width_ns"] = -500000|pulse_width.any.tmin.width_ns must be
pass-string|d["verdict"]["pass"] = "false"|verdict.pass must be a boolean
huge|d["counts"]["edges"] = "@@"; r = "1e400"|FILE:[0-9]*:[0-9]*: not a number: 1e400
nan|d["counts"]["edges"] = "@@"; r = "NaN"|unexpected character 'N'
duplicate|d["counts"]["edges"] = "@@"; r = '400, "edges": 0'|FILE:[0-9]*: duplicate member "edges"
nul-key|d["counts"]["edges"] = "@@"; r = '400, "edges\\u0000": 0'|a NUL character
not-utf8|d["label"] = "a\udcff"; t = json.dumps(d, indent=1, ensure_ascii=False)|FILE:[0-9]*:[0-9]*: not UTF-8: byte \\xff
newer|d["schema_version"] = 2|schema_version 2 is newer than this sqwave reads
foreign|t = '{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}'|not a sqwave run summary or analysis
truncated|t = json.dumps(d, indent=1)[:5000]|FILE:[0-9]*:[0-9]*:
EOF
	# a byte order mark (as Windows editors save) is fine
	mutate bom 't = "\ufeff" + json.dumps(d)' || return 1
	bounded report "$TMP/bom.json" > "$TMP/bom.out" 2> "$TMP/bom.err"
	expect 0 "" "$TMP/bom.err" || return 1
}

test_report_never_waits_for_a_pipe_or_reads_a_device() {
	analysis || return 1
	mkfifo "$TMP/fifo"
	bounded report "$TMP/fifo" > /dev/null 2> "$TMP/f.err"
	expect 2 "not a regular file (a pipe)" "$TMP/f.err" || return 1
	bounded report /dev/zero > /dev/null 2> "$TMP/z.err"
	expect 2 "(a device)" "$TMP/z.err" || return 1
	bounded report "$TMP" > /dev/null 2> "$TMP/d.err"
	expect 2 "(a directory)" "$TMP/d.err" || return 1
	# two documents on standard output would interleave; standard input is no run
	bounded report "$TMP/a.json" --json - --svg - > "$TMP/two.out" 2> "$TMP/two.err"
	expect 2 "--json and --svg both write to standard output: only one output can be" "$TMP/two.err" || return 1
	[ -s "$TMP/two.out" ] && fail "output on a usage error" && return 1
	bounded report "$TMP/a.json" --svg - > "$TMP/svg.out" 2> "$TMP/svg.err"
	expect 0 "" "$TMP/svg.err" || return 1
	[ "$(head -c 4 "$TMP/svg.out")" = "<svg" ] || fail "the text table before the SVG" || return 1
	bounded report - < "$TMP/a.json" > /dev/null 2> "$TMP/in.err"
	expect 2 "not standard input" "$TMP/in.err" || return 1
	# a capture or a trace given where a summary belongs: said so, not a JSON syntax error
	bounded report "$TRACE" > /dev/null 2> "$TMP/t.err"
	expect 2 "neither a sqwave log nor a JSON summary" "$TMP/t.err" || return 1
}

test_report_rows_stay_bounded_by_the_input() {
	# 100000 empty phases in 300 kB: refused, not 260 MB of rows
	python3 -c 'import sys; sys.stdout.write("{\"schema\":\"sqwave-summary\",\"schema_version\":1,\"phases\":[" + ",".join(["{}"] * 100000) + "]}")' > "$TMP/phases.json"
	bounded report "$TMP/phases.json" > /dev/null 2> "$TMP/p.err"
	expect 2 "more than 1024 phases" "$TMP/p.err" || return 1
	# 5000 files, one given twice: one row each, in order
	analysis || return 1
	mkdir "$TMP/many"
	for i in $(seq 5000); do echo "$TMP/many/r$i.json"; done |
		xargs -n 500 sh -c 'for f; do cp "'"$TMP"'/a.json" "$f"; done' sh
	bounded report -q --json "$TMP/many.out" $(seq -f "$TMP/many/r%g.json" 5000) \
		"$TMP/many/r1.json" 2> "$TMP/m.err"
	expect 0 "" "$TMP/m.err" || return 1
	[ "$(grep -c '"source"' "$TMP/many.out")" = 5001 ] || fail "not 5001 rows" || return 1
}

test_trace_explain_refuses_devices_and_reads_crlf_and_nul_as_lines() {
	bounded trace-explain /dev/zero > /dev/null 2> "$TMP/z.err"
	expect 2 "is a device" "$TMP/z.err" || return 1
	bounded trace-explain "$TMP" > /dev/null 2> "$TMP/d.err"
	expect 2 "is a directory" "$TMP/d.err" || return 1
	# standard input: a pipe or a file is read, a device refused
	bounded trace-explain - < "$TRACE" > "$TMP/in.out" 2>&1
	expect 0 "held-by git" "$TMP/in.out" || return 1
	bounded trace-explain - < /dev/zero > /dev/null 2> "$TMP/in.err"
	expect 2 "is a device" "$TMP/in.err" || return 1
	# CRLF (a trace saved on Windows): the same answer
	bounded trace-explain "$TRACE" > "$TMP/lf.out" 2>&1
	expect 0 "" "$TMP/lf.out" || return 1
	sed 's/$/\r/' "$TRACE" > "$TMP/crlf.trace"
	bounded trace-explain "$TMP/crlf.trace" > "$TMP/crlf.out" 2>&1
	expect 0 "" "$TMP/crlf.out" || return 1
	cmp -s "$TMP/lf.out" "$TMP/crlf.out" || fail "CRLF changes the answer" || return 1
	# the marker hidden after a NUL in a 10 MB line is no marker
	grep -v tracing_mark_write "$TRACE" > "$TMP/nul.trace"
	{ printf '\0'; head -c 10000000 /dev/zero | tr '\0' x
	  grep tracing_mark_write "$TRACE"; } >> "$TMP/nul.trace"
	bounded trace-explain "$TMP/nul.trace" > "$TMP/nul.out" 2>&1
	expect 0 "no sqwave break marker" "$TMP/nul.out" || return 1
	# control characters from the trace never reach the terminal
	sed 's/next_comm=git next_pid=18758/next_comm=g\x1b]0;x\x07it next_pid=18758/' "$TRACE" \
		> "$TMP/esc.trace"
	bounded trace-explain "$TMP/esc.trace" > "$TMP/esc.out" 2>&1
	expect 0 "" "$TMP/esc.out" || return 1
	LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$TMP/esc.out" &&
		fail "control bytes on the terminal" && return 1
	return 0
}

test_a_soak_logs_names_and_texts_never_reach_the_terminal_raw() {
	local e='\x1b]0;own\x07\x1b[2J\x9b' c
	$GEN "$TMP/esc.sqwlog" --edges 2000 --meta phase.count=2 --meta "phase.0.name=id${e}le" \
		--meta phase.0.start_off_ns=0 --meta phase.0.duration_ns=500000000 \
		--meta phase.0.loads=0 --meta "phase.1.name=lo${e}aded" \
		--meta phase.1.start_off_ns=500000000 --meta phase.1.duration_ns=500000000 \
		--meta phase.1.loads=1 --meta "phase.1.load.0=core${e}mark" \
		--meta "phase.1.proof.0=core${e}mark|cpu|0||0|1" --meta "loads.containment=cg${e}" \
		--event "1600:2:event=lost\nload=core${e}mark\nphase=1\ndetail=de${e}tail" \
		--event "1600:2:event=result\nload=core${e}mark\nphase=1\nvalid=0\nscore=0\nwhy=${e}" \
		--event "1700:4:seq=1700\nwhat=wake\nvalue_ns=950000\nthreshold_ns=900000\ncause=${e}\nexplain=${e}\ntrace=${e}" ||
		return 1
	for c in "analyze $TMP/esc.sqwlog" "analyze $TMP/esc.sqwlog --svg -" \
		"analyze $TMP/esc.sqwlog --json -" "report $TMP/esc.sqwlog" \
		"report $TMP/esc.sqwlog --markdown -"; do
		# shellcheck disable=SC2086
		bounded $c > "$TMP/o.txt" 2>&1
		rc=$(cat "$TMP/rc")
		[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "$c: exit $rc: $(head -c 300 "$TMP/o.txt")" || return 1
		LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]\|\xc2[\x80-\x9f]' "$TMP/o.txt" &&
			fail "$c: control bytes in the output" && return 1
		grep -q 'lo\\x1b\]0;own\\x07' "$TMP/o.txt" || fail "$c: the phase's name is lost" || return 1
	done
	return 0
}

test_report_of_a_log_judges_it_by_its_own_limits() {
	# a log whose pulses, missed periods or wake-ups break the limits its
	# header carries: FAIL and exit 1, as its analysis says, never PASS
	local args name
	while IFS='|' read -r name args; do
		# shellcheck disable=SC2086
		$GEN "$TMP/$name.sqwlog" --edges 400 $args || return 1
		bounded report "$TMP/$name.sqwlog" > "$TMP/$name.out" 2>&1
		expect 1 "FAIL" "$TMP/$name.out" || { echo "    ($name)" >&2; return 1; }
		"$SQWAVE" analyze "$TMP/$name.sqwlog" --json "$TMP/$name.an.json" > /dev/null 2>&1
		bounded report "$TMP/$name.an.json" > "$TMP/$name.an.out" 2>&1
		expect 1 "FAIL" "$TMP/$name.an.out" || { echo "    ($name analysis)" >&2; return 1; }
	done <<'EOF'
tmax|--meta limits.tmax=450us --meta limits.tmin=400us
missed|--stall 100:3 --meta limits.missed_max=0
wake|--meta limits.wake_latency_max=4us
EOF
	$GEN "$TMP/ok.sqwlog" --edges 400 --meta limits.tmin=499us --meta limits.tmax=501us || return 1
	bounded report "$TMP/ok.sqwlog" > "$TMP/ok.out" 2>&1
	expect 0 "PASS" "$TMP/ok.out" || return 1
}

test_export_writes_one_document_to_standard_output() {
	analysis || return 1
	local o
	for o in "--csv - --events -" "--meta --csv -" "--meta --events -"; do
		# shellcheck disable=SC2086
		bounded export "$TMP/a.sqwlog" $o > "$TMP/e.out" 2> "$TMP/e.err"
		expect 2 "both write to standard output: only one output can be" "$TMP/e.err" || { echo "    ($o)" >&2; return 1; }
		[ -s "$TMP/e.out" ] && fail "$o: output on a usage error" && return 1
	done
	bounded export "$TMP/a.sqwlog" --meta --csv "$TMP/e.csv" > "$TMP/e.out" 2> "$TMP/e.err"
	expect 0 "" "$TMP/e.err" || return 1
}

test_compare_refuses_readings_no_scope_shows() {
	analysis || return 1
	local pol
	for pol in "" pos- neg-; do
		bounded compare "$TMP/a.sqwlog" --scope-${pol}tmin 556 --scope-${pol}tmax 444 \
			> "$TMP/c.out" 2> "$TMP/c.err"
		expect 2 "scope-${pol}tmin 556000 ns is above --scope-${pol}tmax" "$TMP/c.err" || return 1
	done
	bounded compare "$TMP/a.sqwlog" "$TMP/a.json" --channel '' > /dev/null 2> "$TMP/ch.err"
	expect 2 "an empty name" "$TMP/ch.err" || return 1
	# equal readings are a square wave a scope can show
	bounded compare "$TMP/a.sqwlog" --scope-tmin 500 --scope-tmax 500 > /dev/null 2> "$TMP/eq.err"
	expect 0 "" "$TMP/eq.err" || return 1
}

e2e_run --subshell --short "hostile readers"
