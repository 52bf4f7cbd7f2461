#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile input and careless use of the soak's inputs: load and phase lists
# in profiles, --load, loads that flood their output or never print a line
# end, and the JSON documents sqwave report reads. Generated inputs only;
# bounds by ulimit and timeout, never by timing assertions.
. "$(dirname "$0")/../e2e/lib.sh" sqwave-hostile-soak

# A sanitizer build reserves terabytes of shadow address space: no limit
# there (as the other hostile scripts do).
if grep -qa __asan_init "${SQWAVE_REAL:-$SQWAVE}" 2> /dev/null; then VMEM=unlimited; else VMEM=524288; fi

# Run sqwave with a 512 MiB address-space limit and a time bound; prints
# the exit code (124: the time bound hit).
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

test_malformed_load_and_phase_lists_name_file_and_line() {
	local i=0 y
	while IFS='|' read -r want yaml; do
		i=$((i + 1))
		printf '%b' "$yaml" > "$TMP/p$i.yaml"
		bounded run --board "$BOARD" --profile "$TMP/p$i.yaml" --quiet > /dev/null 2> "$TMP/e$i"
		expect 2 "p$i.yaml:$want" "$TMP/e$i" || return 1
	done <<'EOF'
2:11: load.kind must be a single value|load:\n  - kind: [coremark]\n
1:7: load must be a list|load: {kind: coremark}\n
2:22: duplicate key load.kind|load:\n  - {kind: coremark, kind: coremark}\n
3:11: load.args must be a list|load:\n  - kind: coremark\n    args: {a: 1}\n
2:5: a phase needs name:|phases:\n  - duration: 1s\n
2:10: phases.name must be a word|phases:\n  - name: \n    duration: 1s\n
3:15: phases.duration must be a duration|phases:\n  - name: a\n    duration: -5s\n
1:9: phases must be a list|phases: notalist\n
3:16: load.instances must be an integer|load:\n  - kind: command\n    instances: 99999\n
3:11: load.name must be a word|load:\n  - kind: coremark\n    name: "a b"\n
EOF
	# 65 loads in one list: refused, not allocated without bound
	{ echo "load:"; for y in $(seq 65); do echo "  - coremark"; done; } > "$TMP/many.yaml"
	bounded run --board "$BOARD" --profile "$TMP/many.yaml" --quiet > /dev/null 2> "$TMP/many.err"
	expect 2 "more than 64 loads" "$TMP/many.err" || return 1
}

test_hostile_load_options_are_usage_errors() {
	local spec
	for spec in "" ":" "coremark:nice=" "coremark:instances=-1" "ping-flood:target=-f" \
		"ping-flood:size=99999999999999999999" "command" "nosuchkind:x" \
		"coremark:cpus=99999" "stress-ng:cpus=1-0" "expect-traffic:interface=lo"; do
		bounded run --board "$BOARD" --duration 1s --quiet --load "$spec" > /dev/null 2> "$TMP/o.err"
		expect 2 "" "$TMP/o.err" || { echo "    (--load \"$spec\")" >&2; return 1; }
	done
	# a 100 kB argument (near the kernel's limit for one): refused, never a crash
	bounded run --board "$BOARD" --duration 1s --quiet \
		--load "command:$(head -c 100000 /dev/zero | tr '\0' x)" > /dev/null 2> "$TMP/big.err"
	expect 2 "a part longer than 4095 characters" "$TMP/big.err" || return 1
}

test_a_load_that_floods_its_output_costs_bounded_memory() {
	# yes writes without end and never a short line; the supervisor keeps
	# one line buffer per process.
	bounded run --board "$BOARD" --duration 3s --quiet --load "command:name=chatty:yes" \
		--log "$TMP/y.sqwlog" > "$TMP/y.out" 2> "$TMP/y.err"
	expect 0 "" "$TMP/y.err" || return 1
	head -c 200 /dev/zero | tr '\0' 'z' > "$TMP/line"
	bounded run --board "$BOARD" --duration 2s --quiet \
		--load "command:name=noline:python3:-c:import sys; sys.stdout.write('z' * 10000000); sys.stdout.flush(); import time; time.sleep(60)" \
		--log "$TMP/z.sqwlog" > /dev/null 2> "$TMP/z.err"
	expect 0 "" "$TMP/z.err" || return 1
}

test_report_refuses_what_is_not_a_summary() {
	printf '{"schema":"sqwave-summary","schema_version":1,"phases":[{"name":' > "$TMP/cut.json"
	bounded report "$TMP/cut.json" > /dev/null 2> "$TMP/r1"
	expect 2 "cut.json:1:" "$TMP/r1" || return 1
	python3 -c 'print("[" * 100000 + "]" * 100000)' > "$TMP/deep.json"
	bounded report "$TMP/deep.json" > /dev/null 2> "$TMP/r2"
	expect 2 "nested deeper than 64" "$TMP/r2" || return 1
	printf '{"schema":"sqwave-summary","schema_version":1,"label":"\\u001b[31mred","phases":[]}' \
		> "$TMP/esc.json"
	bounded report "$TMP/esc.json" > "$TMP/r3.out" 2> "$TMP/r3"
	expect 0 "" "$TMP/r3" || return 1
	grep -q $'\033' "$TMP/r3.out" && fail "an escape sequence reached the terminal" && return 1
	bounded report /dev/zero > /dev/null 2> "$TMP/r4"
	expect 2 "not a regular file" "$TMP/r4" || return 1
	bounded report "$TMP/nonexistent.json" > /dev/null 2> "$TMP/r5"
	expect 3 "No such file" "$TMP/r5" || return 1
	# a member of two million small numbers: bounded (the node cap, about
	# 200 MB), refused as bad input
	python3 -c 'import sys; sys.stdout.write("{\"a\":[" + ",".join(["1"] * 2000001) + "]}")' > "$TMP/wide.json"
	bounded report "$TMP/wide.json" > /dev/null 2> "$TMP/r6"
	expect 2 "more than 2000000 values" "$TMP/r6" || return 1
	bounded report > /dev/null 2> "$TMP/r7"
	expect 2 "at least one run" "$TMP/r7" || return 1
}

e2e_run --subshell --short "hostile soak"
