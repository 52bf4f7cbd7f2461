#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of the board build (make BOARD=1, docs/packaging.md):
# it runs on the simulated board and logs what the pin did, exports and
# analyzes that log as the full build does, byte for byte; it refuses a
# capture, a picture and the lab's commands in one sentence each (exit 2);
# its binary links no zlib and holds no symbol of the lab library; its help,
# man page and completion name no lab command. SQWAVE_BOARD is the board
# build's sqwave (default: board-build/sqwave beside $SQWAVE), SQWAVE the
# full build's, whose lab library it is checked against.
set -u
SQWAVE=${SQWAVE:-build/sqwave}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/tests/e2e
FULL=${SQWAVE_REAL:-$SQWAVE}
case $FULL in /*) ;; *) FULL=$ROOT/$FULL ;; esac
BB=${SQWAVE_BOARD:-$(dirname "$FULL")/board-build/sqwave}
case $BB in /*) ;; *) BB=$ROOT/$BB ;; esac
TMP=$(mktemp -d /tmp/sqwave-e2e-board.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
BOARD=$ROOT/boards/sim.yaml
CAPTURE=$ROOT/tests/data/captures/demo_gray256k.vcd
passed=0
failed=0

fail() { echo "    $*" >&2; return 1; }

# One 1 s run of the board build with the pins' record, and its export.
run_once() {
	[ -f "$TMP/b.csv" ] && return 0
	[ -x "$BB" ] || fail "no board build at $BB (make BOARD=1)" || return 1
	"$BB" run --board "$BOARD" --duration 1s --quiet --log "$TMP/b.sqwlog" \
		--set sim.history_file="$TMP/b.hist.csv" > "$TMP/b.out" 2> "$TMP/b.err" ||
		fail "board build: run: exit $?: $(cat "$TMP/b.err")" || return 1
	"$BB" export "$TMP/b.sqwlog" --csv "$TMP/b.csv" 2> "$TMP/b.exp.err" ||
		fail "board build: export: $(cat "$TMP/b.exp.err")"
}

test_a_board_build_run_logs_what_the_pin_did_edge_for_edge() {
	run_once || return 1
	python3 - "$TMP/b.csv" "$TMP/b.hist.csv" <<'PY' || return 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) > 10, len(rows)
# the pin: one write per record, its level, inside its write window; after
# them only the release's write of the idle level
hist = [h for h in csv.DictReader(open(sys.argv[2])) if h["kind"] == "write"]
assert len(hist) >= len(rows), (len(hist), len(rows))
assert all(h["level"] == "0" for h in hist[len(rows):]), hist[len(rows):]
for h, r in zip(hist, rows):
    assert int(h["level"]) == int(r["level"]), (h, r)
    assert int(r["write_begin_ns"]) <= int(h["t_ns"]) <= int(r["write_end_ns"]), (h, r)
PY
}

test_a_log_and_an_edge_list_analyze_as_in_the_full_build_byte_for_byte() {
	local f
	run_once || return 1
	for f in b.sqwlog b.csv; do
		"$BB" analyze "$TMP/$f" --json "$TMP/$f.bb.json" --csv "$TMP/$f.bb.csv" \
			--histogram "$TMP/$f.bb.hist" > "$TMP/$f.bb.txt" 2> "$TMP/$f.bb.err" ||
			fail "board build: analyze $f: $(cat "$TMP/$f.bb.err")" || return 1
		"$FULL" analyze "$TMP/$f" --json "$TMP/$f.full.json" --csv "$TMP/$f.full.csv" \
			--histogram "$TMP/$f.full.hist" > "$TMP/$f.full.txt" 2> "$TMP/$f.full.err" ||
			fail "full build: analyze $f: $(cat "$TMP/$f.full.err")" || return 1
		for o in txt json csv hist; do
			cmp -s "$TMP/$f.bb.$o" "$TMP/$f.full.$o" ||
				fail "analyze $f: the board build's $o differs: $(diff "$TMP/$f.bb.$o" "$TMP/$f.full.$o" | head -5)" ||
				return 1
		done
	done
	# and the figures are the log's: every exported edge counted
	python3 -c 'import json, sys
n = sum(1 for _ in open(sys.argv[2])) - 1
assert json.load(open(sys.argv[1]))["counts"]["edges"] == n, n' "$TMP/b.sqwlog.bb.json" "$TMP/b.csv" ||
		fail "the analysis does not count the exported edges" || return 1
}

test_a_capture_is_refused_exit_2_where_the_full_build_reads_it() {
	local rc
	"$FULL" analyze "$CAPTURE" --channel D6 --quiet --json "$TMP/c.json" 2> "$TMP/c.full.err" ||
		fail "full build: the capture: $(cat "$TMP/c.full.err")" || return 1
	"$BB" analyze "$CAPTURE" --json "$TMP/c.bb.json" > /dev/null 2> "$TMP/c.err"
	rc=$?
	[ $rc -eq 2 ] || fail "analyze of a capture: exit $rc, expected 2" || return 1
	grep -q "neither a sqwave log nor an edge list, and this build of sqwave reads no captures" \
		"$TMP/c.err" || fail "$(cat "$TMP/c.err")" || return 1
	[ ! -e "$TMP/c.bb.json" ] || fail "a JSON document was written" || return 1
	"$BB" analyze "$CAPTURE" --format vcd > /dev/null 2> "$TMP/f.err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "^sqwave: error: --format vcd: this build of sqwave reads logs (log) and edge lists (edges) only, no captures" \
		"$TMP/f.err" || fail "--format vcd: exit $rc: $(cat "$TMP/f.err")" || return 1
}

test_pictures_and_capture_options_are_refused_exit_2_naming_the_build() {
	local opt rc
	run_once || return 1
	for opt in "--svg $TMP/p.svg" "--persist-trigger intended"; do
		# shellcheck disable=SC2086 # the option and its value, two words
		"$BB" analyze "$TMP/b.sqwlog" $opt > /dev/null 2> "$TMP/p.err"
		rc=$?
		[ $rc -eq 2 ] && grep -q "^sqwave: error: ${opt%% *}: this board build of sqwave draws no pictures; the full build does" \
			"$TMP/p.err" || fail "$opt: exit $rc: $(cat "$TMP/p.err")" || return 1
	done
	[ ! -e "$TMP/p.svg" ] || fail "an SVG was written" || return 1
	for opt in "--channel D6" "--threshold 1.5" "--hysteresis 0.1" "--samplerate 1M"; do
		# shellcheck disable=SC2086
		"$BB" analyze "$TMP/b.sqwlog" $opt > /dev/null 2> "$TMP/o.err"
		rc=$?
		[ $rc -eq 2 ] && grep -q "^sqwave: error: ${opt%% *}: this board build of sqwave reads no captures; the full build does" \
			"$TMP/o.err" || fail "$opt: exit $rc: $(cat "$TMP/o.err")" || return 1
	done
}

test_a_lab_command_is_refused_exit_2_saying_what_to_install() {
	local c rc
	for c in capture compare report scope; do
		"$BB" $c "$TMP/x" "$TMP/y" > "$TMP/l.out" 2> "$TMP/l.err"
		rc=$?
		[ $rc -eq 2 ] || fail "$c: exit $rc, expected 2" || return 1
		[ ! -s "$TMP/l.out" ] || fail "$c: wrote to standard output" || return 1
		grep -q "^sqwave: $c is a lab command, and this is a board build of sqwave, which has run, respond, export, analyze, check, boards, trace-explain\.$" \
			"$TMP/l.err" && grep -q 'PACKAGECONFIG "lab"' "$TMP/l.err" ||
			fail "$c: $(cat "$TMP/l.err")" || return 1
		# the full build has it
		"$FULL" $c --help > /dev/null 2>&1 || fail "full build: $c --help failed" || return 1
	done
	"$BB" --version | grep -q '^sqwave [0-9.]* (board build; GPIO: ' ||
		fail "--version: $("$BB" --version)" || return 1
	"$FULL" --version | grep -qv 'board build' || fail "full build: $("$FULL" --version)" || return 1
}

test_the_binary_links_no_zlib_and_holds_no_symbol_of_the_lab_library() {
	local lab=$(dirname "$FULL")/libsqwave-lab.a
	[ -f "$lab" ] || fail "no $lab beside the full build" || return 1
	ldd "$BB" > "$TMP/ldd" 2>&1 || fail "ldd: $(cat "$TMP/ldd")" || return 1
	! grep -q 'libz\.' "$TMP/ldd" || fail "the board build needs zlib: $(grep libz "$TMP/ldd")" || return 1
	ldd "$FULL" | grep -q 'libz\.' || fail "the full build needs no zlib: is ldd telling?" || return 1
	# every function and object the lab library defines, against the binaries
	nm --defined-only "$lab" | awk 'NF == 3 && $2 ~ /[TDRB]/ { print $3 }' | LC_ALL=C sort -u > "$TMP/lab.syms"
	grep -q '^capture_open$' "$TMP/lab.syms" && grep -q '^svgplot_analysis$' "$TMP/lab.syms" ||
		fail "the lab library defines no capture_open or svgplot_analysis" || return 1
	nm "$BB" | awk 'NF == 3 { print $3 }' | LC_ALL=C sort -u > "$TMP/bb.syms"
	nm "$FULL" | awk 'NF == 3 { print $3 }' | LC_ALL=C sort -u > "$TMP/full.syms"
	[ -s "$TMP/bb.syms" ] || fail "nm sees no symbols in $BB (stripped?)" || return 1
	LC_ALL=C comm -12 "$TMP/lab.syms" "$TMP/bb.syms" > "$TMP/both"
	[ ! -s "$TMP/both" ] || fail "the board build holds the lab's $(head -5 "$TMP/both" | tr '\n' ' ')" || return 1
	grep -q '^capture_open$' "$TMP/full.syms" && grep -q '^svgplot_analysis$' "$TMP/full.syms" ||
		fail "the full build holds no capture_open or svgplot_analysis: is nm telling?" || return 1
	! grep -qE '^(capture|svgplot|compare|report|trend)_' "$TMP/bb.syms" ||
		fail "capture, SVG, compare or report code: $(grep -E '^(capture|svgplot|compare|report|trend)_' "$TMP/bb.syms" | head -5 | tr '\n' ' ')"
}

test_help_man_page_and_completion_name_no_lab_command() {
	local man=$(dirname "$BB")/sqwave.1 comp=$(dirname "$BB")/sqwave.bash-completion out
	"$BB" --help > "$TMP/help" || return 1
	! grep -qE '^  (compare|report) ' "$TMP/help" || fail "--help lists a lab command" || return 1
	grep -q '^  analyze ' "$TMP/help" || fail "--help lists no analyze: $(cat "$TMP/help")" || return 1
	[ -f "$man" ] && [ -f "$comp" ] || fail "no $man or $comp (make BOARD=1 docs)" || return 1
	MANWIDTH=200 man -l "$man" 2> /dev/null | col -b > "$TMP/man.txt"
	! grep -qE '^ +sqwave (compare|report)\b' "$TMP/man.txt" ||
		fail "the man page has: $(grep -E '^ +sqwave (compare|report)\b' "$TMP/man.txt" | head -3)" || return 1
	grep -qE 'This +is +a +board +build +of +sqwave' "$TMP/man.txt" || fail "the man page says not which build" || return 1
	! grep -q 'board build' "$(dirname "$FULL")/sqwave.1" || fail "the full build's man page speaks of a board build" || return 1
	out=$(bash -c '. "$1"; COMP_WORDS=(sqwave "$2"); COMP_CWORD=1; COMPREPLY=(); _sqwave sqwave
		printf "%s\n" "${COMPREPLY[@]}"' _ "$comp" "")
	echo "$out" | grep -qx analyze && ! echo "$out" | grep -qxE 'compare|report' ||
		fail "the completion offers: $(echo "$out" | tr '\n' ' ')" || return 1
	# and they agree with the board build's own tables, as the full build's do
	SQWAVE=$BB SQWAVE_REAL=$BB ONLY='in_its_help\|in_its_man_page_section\|offers_exactly\|clean_under\|names_only_docs' \
		bash "$HERE/docs.sh" > "$TMP/docs.out" 2>&1 || fail "tests/e2e/docs.sh on the board build: $(grep -A3 FAIL "$TMP/docs.out")" || return 1
	[ "$(grep -c '^PASS' "$TMP/docs.out")" -eq 5 ] || fail "docs.sh: $(cat "$TMP/docs.out")"
}

cd "$ROOT" || exit 1
for t in $(declare -F | awk '{print $3}' | grep '^test_' | grep -e "${ONLY:-}"); do
	if ( $t ); then
		echo "PASS ${t#test_}"
		passed=$((passed + 1))
	else
		echo "FAIL ${t#test_}"
		failed=$((failed + 1))
	fi
done
echo "board_build e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
