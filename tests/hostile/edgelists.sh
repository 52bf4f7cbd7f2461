#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile edge-list CSVs: every row a log could not hold is refused with the
# file and line, the same rules as for logs; quoting, BOMs and CRLF are
# accepted; huge rows and files stay bounded. Generated here, seeded.
#   SQWAVE=build/sqwave tests/hostile/edgelists.sh   (SQW_TEST_SEED=N to repeat)
. "$(dirname "$0")/../e2e/lib.sh" sqwave-hostile-edgelists
SEED=${SQW_TEST_SEED:-$RANDOM}
echo "hostile edge lists: seed $SEED (SQW_TEST_SEED=$SEED to repeat)"
# Address-space limits (ulimit -v) bound memory; an ASan build reserves
# terabytes of shadow and cannot run under one: leave it unbounded there.
if grep -qa __asan_init "${SQWAVE_REAL:-$SQWAVE}" 2> /dev/null; then VMEM=unlimited; VBIG=unlimited; else VMEM=1048576; VBIG=262144; fi

# A list of @n edges (sqwave export's columns or plain), with row @bad
# (0-based, data rows) changed by @how; prints the line of that row.
# gen FILE N STYLE BAD HOW
gen() {
	python3 - "$@" "$SEED" <<'PY'
import random, sys
path, n, style, bad, how, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
rng = random.Random(seed * 1000 + bad)
half, t0 = 500000, 10**12
head = {"export": "seq,level,intended_ns,wake_ns,write_begin_ns,write_end_ns,expirations,flags",
        "plain": "seq,level,intended_ns,measured_ns", "measured": "seq,level,measured_ns"}[style]
rows = []
for i in range(n):
    t = t0 + i * half
    w = t + 5000 + rng.randrange(3000)
    r = {"seq": i, "level": (i + 1) % 2, "intended_ns": t, "wake_ns": w, "write_begin_ns": w + 200,
         "write_end_ns": w + 900, "expirations": 1, "flags": 0, "measured_ns": w + 500}
    if i == bad:
        if how == "intended_back": r["intended_ns"] = t - 3 * half
        elif how == "intended_same": r["intended_ns"] = t - half
        elif how == "measured_back": r["measured_ns"] = t - half - 100; r["write_begin_ns"] = t - half - 100
        elif how == "wend_before": r["write_end_ns"] = r["write_begin_ns"] - 1 - rng.randrange(1000)
        elif how == "wake_after": r["wake_ns"] = r["write_begin_ns"] + 1
        elif how == "level": r["level"] = rng.choice([2, 3, 9, 255, -1])
        elif how == "seq_back": r["seq"] = i - 1 - rng.randrange(i)
        elif how == "late": r["measured_ns"] = r["wake_ns"] = r["write_begin_ns"] = r["write_end_ns"] = t + 2200000000 + rng.randrange(10**9)
        elif how == "early": r["measured_ns"] = r["wake_ns"] = r["write_begin_ns"] = r["write_end_ns"] = t - 2200000000 - rng.randrange(10**9)
        elif how == "exp0": r["expirations"] = 0
        elif how == "warmup": r["flags"] = 1
    cols = head.split(",")
    rows.append(",".join(str(r[c if c != "measured_ns" or style != "measured" else "measured_ns"]) for c in cols))
open(path, "w").write(head + "\n" + "\n".join(rows) + "\n")
print(bad + 2)
PY
}

test_rows_no_run_can_write_are_refused_with_file_and_line() {
	local n=300 how style bad line rc
	for how in intended_back intended_same measured_back wend_before wake_after level seq_back \
		   late early warmup; do
		for style in export plain; do
			case $how:$style in
			wend_before:plain|wake_after:plain|warmup:plain) continue ;;
			esac
			bad=$((2 + (RANDOM + SEED) % (n - 4)))
			line=$(gen "$TMP/e.csv" $n $style $bad $how) || return 1
			sq analyze "$TMP/e.csv" --quiet
			rc=$?
			[ $rc -eq 2 ] || fail "$how ($style) at line $line: exit $rc: $(head -c 300 "$TMP/err")" || return 1
			grep -q "e.csv:$line: " "$TMP/err" ||
				fail "$how ($style): not at line $line: $(head -c 300 "$TMP/err")" || return 1
			grep -q "unterminated quote" "$TMP/err" && fail "$how: blamed on a quote" && return 1
		done
	done
	# measured-only lists: their times must advance too
	line=$(gen "$TMP/m.csv" 100 measured 40 measured_back) || return 1
	sq analyze "$TMP/m.csv" --quiet
	[ $? -eq 2 ] && grep -q "m.csv:$line: measured time goes backwards" "$TMP/err" ||
		fail "measured-only: $(head -c 300 "$TMP/err")" || return 1
}

test_a_log_and_its_export_are_refused_for_the_same_record() {
	# the rules are one: a bad record refused in the log is refused in its export
	python3 "$ROOT/tests/hostile/loggen.py" "$TMP/l.sqwlog" --edges 100 --set 50:we:10 || return 1
	sq export "$TMP/l.sqwlog" --unchecked --csv "$TMP/l.csv" || fail "export --unchecked" || return 1
	sq analyze "$TMP/l.sqwlog" --quiet
	[ $? -eq 2 ] && grep -q "record 50 .*write_end_ns is before write_begin_ns" "$TMP/err" ||
		fail "log: $(cat "$TMP/err")" || return 1
	sq analyze "$TMP/l.csv" --quiet
	[ $? -eq 2 ] && grep -q "l.csv:52: write_end_ns is before write_begin_ns" "$TMP/err" ||
		fail "export: $(cat "$TMP/err")" || return 1
}

test_quoted_fields_a_bom_crlf_and_semicolons_are_accepted() {
	gen "$TMP/q.csv" 200 plain 100000 none > /dev/null || return 1
	sq analyze "$TMP/q.csv" --quiet --json "$TMP/q.json" || fail "plain: $(cat "$TMP/err")" || return 1
	python3 - "$TMP/q.csv" "$TMP/q2.csv" <<'PY' || return 1
import sys
lines = open(sys.argv[1]).read().splitlines()
out = ['"' + '";"'.join(l.split(",")) + '"' for l in lines]
open(sys.argv[2], "w", newline="").write("\ufeff# quoted, semicolons, CRLF\r\n" + "\r\n".join(out) + "\r\n")
PY
	sq analyze "$TMP/q2.csv" --quiet --json "$TMP/q2.json" || fail "quoted: $(cat "$TMP/err")" || return 1
	python3 - "$TMP/q.json" "$TMP/q2.json" <<'PY' || return 1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["counts"] == b["counts"], (a["counts"], b["counts"])
assert a["pulse_width"] == b["pulse_width"]
assert a["wake_latency"] == b["wake_latency"]
PY
}

test_a_row_of_a_million_empty_fields_is_named_for_what_it_is() {
	python3 -c '
import sys
open(sys.argv[1], "w").write("seq,level,measured_ns\n0,1,100" + "," * 2000000 + "\n1,0,600\n")' "$TMP/wide.csv"
	sq analyze "$TMP/wide.csv" --quiet
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc" || return 1
	grep -q "unterminated quote" "$TMP/err" && fail "called an unterminated quote" && return 1
	grep -q "wide.csv:2: " "$TMP/err" || fail "$(cat "$TMP/err")" || return 1
}

test_a_stall_in_an_edge_list_is_counted_in_full() {
	local k=$((70000 + RANDOM))
	python3 - "$TMP/s.csv" $k <<'PY' || return 1
import sys
k, half = int(sys.argv[2]), 500000
rows, slot = [], 0
for i in range(100):
    slot += k if i == 50 else (1 if i else 0)
    t = 10**12 + slot * half
    rows.append(f"{i},{(i + 1) % 2},{t},{t + 7000}")
open(sys.argv[1], "w").write("seq,level,intended_ns,measured_ns\n" + "\n".join(rows) + "\n")
PY
	sq analyze "$TMP/s.csv" --quiet --json "$TMP/s.json" || fail "$(cat "$TMP/err")" || return 1
	python3 -c "
import json; d = json.load(open('$TMP/s.json'))
assert d['counts']['missed_periods'] == $k - 1, d['counts']" || return 1
}

test_a_large_edge_list_is_read_in_bounded_memory() {
	python3 - "$TMP/big.csv" <<'PY' || return 1
import sys
with open(sys.argv[1], "w") as f:
    f.write("seq,level,intended_ns,measured_ns\n")
    t = 10**12
    f.write("".join(f"{i},{(i + 1) % 2},{t + i * 500000},{t + i * 500000 + 4000 + i % 977}\n"
                    for i in range(200000)))
PY
	( ulimit -v $VBIG; exec timeout 60 "$SQWAVE" analyze "$TMP/big.csv" --quiet --json "$TMP/big.json" ) \
		2> "$TMP/err" || fail "200,000 rows in 256 MiB: $(cat "$TMP/err")" || return 1
	python3 -c "
import json; d = json.load(open('$TMP/big.json'))
assert d['counts']['edges'] == 200000, d['counts']" || return 1
}

cd "$ROOT" || exit 1
e2e_run --subshell "hostile edge lists"
