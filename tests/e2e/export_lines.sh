#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of `sqwave export` over several logs, one per line: two
# simulated runs side by side on lines 0 and 3, merged into one CSV (a line
# column, rows in intended order, each line's rows those of its own export)
# and one VCD (a wire per line, each with its own export's changes); --meta
# per log; one line twice, and a bad log among several, refused (exit 2,
# no output left). Timing is never asserted.
# Self-contained: SQWAVE=path/to/sqwave tests/e2e/export_lines.sh from the repository root.
. "$(dirname "$0")/lib.sh" sqwave-e2e-lines

# Two runs at once, line 0 for 400 ms and line 3 (its wire on line 4) for
# 300 ms, and each one's own CSV and VCD: shared by the tests.
run_once() {
	[ -f "$TMP/b.vcd" ] && return 0
	"$SQWAVE" run --board "$BOARD" --duration 400ms --quiet --log "$TMP/a.sqwlog" \
		> /dev/null 2> "$TMP/a.err" &
	local pa=$!
	"$SQWAVE" run --board "$BOARD" --duration 300ms --quiet --log "$TMP/b.sqwlog" \
		--set gpio.line=3 --set loopback.line=4 > /dev/null 2> "$TMP/b.err" ||
		fail "run on line 3: $(cat "$TMP/b.err")" || return 1
	wait $pa || fail "run on line 0: $(cat "$TMP/a.err")" || return 1
	local l
	for l in a b; do
		"$SQWAVE" export "$TMP/$l.sqwlog" --csv "$TMP/$l.csv" 2> "$TMP/$l.exp.err" &&
		"$SQWAVE" export "$TMP/$l.sqwlog" --vcd "$TMP/$l.vcd" 2>> "$TMP/$l.exp.err" ||
			fail "export $l: $(cat "$TMP/$l.exp.err")" || return 1
	done
}

test_the_csv_of_two_logs_is_both_logs_rows_merged_with_their_line() {
	run_once || return 1
	"$SQWAVE" export "$TMP/a.sqwlog" "$TMP/b.sqwlog" --csv "$TMP/m.csv" 2> "$TMP/m.err" ||
		fail "export: $(cat "$TMP/m.err")" || return 1
	[ ! -s "$TMP/m.err" ] || fail "export complained: $(cat "$TMP/m.err")" || return 1
	python3 - "$TMP/m.csv" "$TMP/a.csv" "$TMP/b.csv" <<'PY' || return 1
import sys
m, a, b = (open(p).read().splitlines() for p in sys.argv[1:4])
assert m[0] == "line," + a[0] and a[0] == b[0], (m[0], a[0])
rows = m[1:]
assert len(rows) == len(a) - 1 + len(b) - 1, (len(rows), len(a), len(b))
assert len(a) > 100 and len(b) > 100, (len(a), len(b))
per = {"0": [], "3": []}
for r in rows:
    line, rest = r.split(",", 1)
    per[line].append(rest)
assert per["0"] == a[1:], "line 0's rows are not its own export's"
assert per["3"] == b[1:], "line 3's rows are not its own export's"
# in order of intended time (column 4), line 0 first on a tie
key = [(int(r.split(",")[3]), 0 if r.startswith("0,") else 1) for r in rows]
assert key == sorted(key), "rows out of intended order"
# the runs overlapped: the merge interleaves them
assert any(x[1] != y[1] for x, y in zip(key[:len(per["0"])], key[1:])), "no interleaving"
PY
}

# VCD changes per wire: "1!" / "0!" lines after $dumpvars' $end.
vcd_changes() { # FILE ID
	awk -v id="$2" 'done && (substr($0, 2) == id) && /^[01]/ { n++ }
		/^\$end$/ && dump { done = 1 } /^\$dumpvars$/ { dump = 1 }
		END { print n + 0 }' "$1"
}

test_the_vcd_of_two_logs_has_a_wire_each_with_its_own_changes() {
	run_once || return 1
	"$SQWAVE" export "$TMP/a.sqwlog" "$TMP/b.sqwlog" --vcd "$TMP/m.vcd" 2> "$TMP/v.err" ||
		fail "export: $(cat "$TMP/v.err")" || return 1
	[ "$(grep -c '^\$var ' "$TMP/m.vcd")" -eq 2 ] || fail "$(grep '^\$var' "$TMP/m.vcd")" || return 1
	grep -q '^\$var wire 1 ! line0 \$end$' "$TMP/m.vcd" || fail "no wire line0" || return 1
	grep -q '^\$var wire 1 " line3 \$end$' "$TMP/m.vcd" || fail "no wire line3" || return 1
	local a b ma mb
	a=$(vcd_changes "$TMP/a.vcd" '!')
	b=$(vcd_changes "$TMP/b.vcd" '!')
	ma=$(vcd_changes "$TMP/m.vcd" '!')
	mb=$(vcd_changes "$TMP/m.vcd" '"')
	[ "$a" -gt 100 ] && [ "$ma" -eq "$a" ] && [ "$mb" -eq "$b" ] ||
		fail "changes: line 0 $ma (own VCD $a), line 3 $mb (own VCD $b)" || return 1
	# times never go back, and sqwave's own VCD importer reads each wire
	awk '/^#/ { t = substr($0, 2) + 0; if (t < last) exit 1; last = t }' "$TMP/m.vcd" ||
		fail "a time stamp goes back" || return 1
	"$SQWAVE" analyze "$TMP/m.vcd" --channel line3 --quiet --json "$TMP/m2.json" > /dev/null &&
	"$SQWAVE" analyze "$TMP/b.vcd" --quiet --json "$TMP/b2.json" > /dev/null ||
		fail "analyze of a VCD failed" || return 1
	python3 - "$TMP/m2.json" "$TMP/b2.json" <<'PY' || return 1
import json, sys
m, b = (json.load(open(p))["pulse_width"]["any"] for p in sys.argv[1:3])
assert (m["count"], m["min_ns"], m["max_ns"]) == (b["count"], b["min_ns"], b["max_ns"]), (m, b)
PY
}

# A line named "$end" (and a log whose name has it): the VCD's comment
# says it escaped, and the VCD reads back in sqwave and in sigrok-cli.
test_a_line_named_end_exports_a_vcd_that_reads_back() {
	local gen="python3 $ROOT/tests/hostile/loggen.py" d="$TMP/odd \$end dir"
	mkdir -p "$d" || return 1
	$gen "$d/x.sqwlog" --edges 40 --meta 'outputs.line=x $end q' --meta outputs.count=2 &&
	$gen "$d/y.sqwlog" --edges 30 --meta outputs.line=y --meta outputs.count=2 || return 1
	"$SQWAVE" export "$d/x.sqwlog" "$d/y.sqwlog" --vcd "$TMP/n.vcd" 2> "$TMP/n.err" &&
	"$SQWAVE" export "$d/x.sqwlog" --vcd "$TMP/n1.vcd" 2>> "$TMP/n.err" ||
		fail "export: $(cat "$TMP/n.err")" || return 1
	local v ch want
	for v in "$TMP/n.vcd:x__end_q:39" "$TMP/n.vcd:y:29" "$TMP/n1.vcd:pin:39"; do
		IFS=: read -r f ch want <<< "$v"
		"$SQWAVE" analyze "$f" --channel "$ch" --quiet --json "$TMP/n.json" > /dev/null \
			2> "$TMP/n.err" || fail "analyze $f --channel $ch: $(cat "$TMP/n.err")" || return 1
		python3 -c "import json,sys; n=json.load(open(sys.argv[1]))['pulse_width']['any']['count']; \
assert n == int(sys.argv[2]), n" "$TMP/n.json" "$want" || fail "$ch: not $want pulses" || return 1
	done
	if command -v sigrok-cli > /dev/null; then
		sigrok-cli -I vcd -i "$TMP/n.vcd" -O csv > "$TMP/n.sr.csv" 2> "$TMP/n.sr.err" ||
			fail "sigrok-cli: $(cat "$TMP/n.sr.err")" || return 1
		grep -q "Channels (2/2): x__end_q, y" "$TMP/n.sr.csv" ||
			fail "sigrok-cli: $(head -c 300 "$TMP/n.sr.err")" || return 1
	fi
	grep -qF 'x \x24end q:' "$TMP/n.vcd" || fail "the name is not in the comment"
}

test_one_log_exports_as_before_and_line_column_adds_the_column() {
	run_once || return 1
	"$SQWAVE" export "$TMP/a.sqwlog" --csv "$TMP/one.csv" --line-column 2> "$TMP/one.err" ||
		fail "export: $(cat "$TMP/one.err")" || return 1
	head -1 "$TMP/a.csv" | grep -q '^seq,' || fail "one log's CSV has a new column" || return 1
	diff <(sed -e '1s/^/line,/' -e '2,$s/^/0,/' "$TMP/a.csv") "$TMP/one.csv" > /dev/null ||
		fail "--line-column is not the CSV with a line column" || return 1
}

test_meta_of_two_logs_is_each_after_its_name() {
	run_once || return 1
	"$SQWAVE" export "$TMP/a.sqwlog" "$TMP/b.sqwlog" --meta > "$TMP/meta" 2> "$TMP/meta.err" ||
		fail "export: $(cat "$TMP/meta.err")" || return 1
	[ "$(grep -c '^records=' "$TMP/meta")" -eq 2 ] || fail "$(grep records "$TMP/meta")" || return 1
	[ "$(grep '^# ' "$TMP/meta" | tr '\n' ' ')" = "# $TMP/a.sqwlog # $TMP/b.sqwlog " ] ||
		fail "separators: $(grep '^# ' "$TMP/meta")" || return 1
}

test_one_line_twice_is_exit_2_naming_both() {
	run_once || return 1
	cp "$TMP/a.sqwlog" "$TMP/a2.sqwlog"
	"$SQWAVE" export "$TMP/a.sqwlog" "$TMP/a2.sqwlog" --csv "$TMP/dup.csv" 2> "$TMP/dup.err"
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc, expected 2" || return 1
	grep -q "a.sqwlog and .*a2.sqwlog are both of line '0'" "$TMP/dup.err" ||
		fail "$(cat "$TMP/dup.err")" || return 1
	[ ! -e "$TMP/dup.csv" ] || fail "a CSV was left" || return 1
}

test_a_bad_log_among_several_is_exit_2_naming_it_and_leaves_no_output() {
	run_once || return 1
	# record 100's seq out of order: found mid-merge, after rows were written
	python3 - "$TMP/b.sqwlog" "$TMP/bad.sqwlog" <<'PY' || return 1
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
roff = struct.unpack_from("<I", d, 16)[0]
struct.pack_into("<Q", d, roff + 100 * 32, 7777)
open(sys.argv[2], "wb").write(d)
PY
	local out rc
	for out in csv vcd; do
		"$SQWAVE" export "$TMP/a.sqwlog" "$TMP/bad.sqwlog" --$out "$TMP/bad.$out" \
			2> "$TMP/bad.err"
		rc=$?
		[ $rc -eq 2 ] || fail "--$out: exit $rc, expected 2" || return 1
		grep -q "bad.sqwlog" "$TMP/bad.err" || fail "$(cat "$TMP/bad.err")" || return 1
		[ ! -e "$TMP/bad.$out" ] || fail "--$out: a partial output was left" || return 1
	done
	printf 'not a log\n' > "$TMP/junk.sqwlog"
	"$SQWAVE" export "$TMP/a.sqwlog" "$TMP/junk.sqwlog" --csv "$TMP/junk.csv" 2> "$TMP/junk.err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "junk.sqwlog" "$TMP/junk.err" && [ ! -e "$TMP/junk.csv" ] ||
		fail "exit $rc: $(cat "$TMP/junk.err")" || return 1
}

e2e_run "export_lines e2e"
