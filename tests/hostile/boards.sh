#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Board files and profiles as users write them (CRLF, a byte-order mark, flow
# style, quotes, tags, directives, comments after tabs) and as nobody should
# (alias bombs, deep nesting, huge values, 70000 lines with the error at the
# end, Latin-1, UTF-16, NUL bytes, FIFOs, devices, link loops, numbers out of
# range) through every offline path: boards, boards detect, run --preflight,
# --board NAME. Contract: a good file loads with the values it says; a bad one
# is exit 2 naming file, line and column; nothing hangs, crashes or grows.
#   SQWAVE=build/sqwave tests/hostile/boards.sh
. "$(dirname "$0")/../e2e/lib.sh" sqwave-hostile-boards
# An ASan build reserves terabytes of shadow and cannot run under ulimit -v.
if grep -qa __asan_init "${SQWAVE_REAL:-$SQWAVE}" 2> /dev/null; then VMEM=unlimited; else VMEM=262144; fi

# Every command runs in $TMP/w (its ./boards and ./config) with the user's
# and the system's directories out of the way (lib.sh's sq, replaced).
sq() {
	( cd "$TMP/w" && ulimit -v $VMEM && HOME=$TMP/home XDG_CONFIG_HOME=$TMP/xdg \
		exec timeout -k 5 30 "$SQWAVE" "$@" ) > "$TMP/out" 2> "$TMP/err" < /dev/null
}

# expect CODE WORDS... -- ARGS: the exit code, and each word in stderr+stdout
# (lib.sh's reads stderr only; boards prints its findings on stdout)
expect() {
	local want=$1 rc words=()
	shift
	while [ "$1" != "--" ]; do words+=("$1"); shift; done
	shift
	sq "$@"
	rc=$?
	[ $rc -eq "$want" ] || fail "sqwave $*: exit $rc, expected $want: $(head -c 600 "$TMP/err")" || return 1
	for w in "${words[@]}"; do
		cat "$TMP/err" "$TMP/out" | grep -qF -- "$w" ||
			fail "sqwave $*: no '$w' in: $(head -c 600 "$TMP/err")" || return 1
	done
}

fresh() {
	rm -rf "$TMP/w" "$TMP/dt"
	mkdir -p "$TMP/w/boards" "$TMP/w/config" "$TMP/home" "$TMP/xdg"
}

# A device tree (root compatible strings) or DMI names under $TMP/dt.
fake_dt() { mkdir -p "$TMP/dt/proc/device-tree"; printf '%s\0' "$@" > "$TMP/dt/proc/device-tree/compatible"; }
fake_dmi() { mkdir -p "$TMP/dt/sys/class/dmi/id"; echo "$1" > "$TMP/dt/sys/class/dmi/id/board_name"; echo "$2" > "$TMP/dt/sys/class/dmi/id/product_name"; }

# Boards written the ways users write them; each is found by detect and
# loads (preflight is never "malformed": 0 or 1 by this machine's state).
write_real_boards() {
	# Windows editor: CRLF and a byte-order mark, block style, a folded note.
	printf '\xef\xbb\xbf# Digi ConnectCore MP13 DVK\r\n# output pin unverified: set it with --chip/--line\r\nboard:\r\n  name: ccmp13-mine\r\n  description: "ConnectCore MP13 DVK (STM32MP133C)"\r\n  soc: STM32MP133C\r\n  cpus: 1\r\n  confidence: inferred\r\n  notes: >\r\n    MikroBus J31 pin 1 = PA5,\r\n    ADC by default.\r\n\r\ngpio:\r\n  backend: gpiod\r\n  chip: GPIOA\r\n  line: 5\r\n  confidence: inferred\r\nrt:\r\n  priority: 95\r\n  lock_memory: yes\r\nmatch:\r\n  compatible:\r\n    - digi,ccmp133-dvk\r\n    - "digi,ccmp13"\r\n' \
		> "$TMP/w/boards/ccmp13-mine.yaml"
	# Flow style everywhere, a directive, document markers, tabs before comments.
	printf '%%YAML 1.1\n---\nboard: {name: up-squared-lab, soc: "Atom x5-E3940", cpus: 4}\t# lab bench 3\ngpio: {chip: "Raspberry Pi compatible UP GPIO", line: 5, confidence: inferred}\nloopback: {chip: "Raspberry Pi compatible UP GPIO", line: 6}\nrt: {cpu: 1, priority: 90, dma_latency: 0}\nmatch: {dmi_board: [UP-APL01], dmi_product: ["UP-APL01", UP Squared]}\n...\n' \
		> "$TMP/w/boards/up-squared-lab.yaml"
	# Single quotes, explicit tags, a line name, null sections, keys in any order.
	printf "match:\n  compatible: ['raspberrypi,5-model-b', \"brcm,bcm2712\"]\ngpio:\n  line: !!str GPIO17\n  chip: 'pinctrl-rp1'\n  active_low: !!bool false\nboard:\n  name: 'rpi5-desk'\n  cpus: !!int 4\nsim:\nloopback:\n  chip: pinctrl-rp1\n  line: GPIO27\n  confidence: unknown\n" \
		> "$TMP/w/boards/rpi5-desk.yaml"
	# Old Mac line ends (CR only) and a literal block.
	printf 'board:\r  name: dk2-cr\r  notes: |\r    D7 = PD1 out, D8 = PG3 in\r    isolcpus=1\rgpio:\r  chip: GPIOD\r  line: 1\rmatch:\r  compatible:\r  - st,stm32mp157f-dk2\r' \
		> "$TMP/w/boards/dk2-cr.yaml"
}

test_boards_written_every_way_yaml_allows_are_listed_and_detected() {
	fresh
	write_real_boards
	expect 0 "ccmp13-mine" "up-squared-lab" "rpi5-desk" "dk2-cr" -- boards || return 1
	! grep -q INVALID "$TMP/out" || fail "a valid board listed as INVALID: $(grep INVALID "$TMP/out")" || return 1
	grep -q "ConnectCore MP13 DVK (STM32MP133C)" "$TMP/out" || fail "description lost" || return 1
	# a long description is cut before a character, never inside one
	printf 'board:\n  name: accents\n  description: "%s"\ngpio:\n  backend: sim\n  chip: sqwave-sim\n  line: 0\n' \
		"$(printf 'a%.0s' $(seq 59))éèàü and more" > "$TMP/w/boards/accents.yaml"
	expect 0 "accents" -- boards || return 1
	grep "accents" "$TMP/out" | iconv -f UTF-8 -t UTF-8 > /dev/null 2>&1 ||
		fail "a character cut in two: $(grep accents "$TMP/out" | od -c | tail -3)" || return 1
	grep -q "$(printf 'a%.0s' $(seq 59))\.\.\." "$TMP/out" || fail "$(grep accents "$TMP/out")" || return 1
	rm "$TMP/w/boards/accents.yaml"
	fake_dt "digi,ccmp133-dvk" "digi,ccmp13" "st,stm32mp133"
	expect 0 "board: ccmp13-mine" -- boards detect --root "$TMP/dt" || return 1
	rm -rf "$TMP/dt"; fake_dmi UP-APL01 "UP Squared"
	expect 0 "board: up-squared-lab" 'DMI board name "UP-APL01"' -- boards detect --root "$TMP/dt" || return 1
	rm -rf "$TMP/dt"; fake_dt "raspberrypi,5-model-b" "brcm,bcm2712"
	expect 0 "board: rpi5-desk" -- boards detect --root "$TMP/dt" || return 1
	rm -rf "$TMP/dt"; fake_dt "st,stm32mp157f-dk2" "st,stm32mp157"
	expect 0 "board: dk2-cr" -- boards detect --root "$TMP/dt" || return 1
	# By name and by path, every path that reads them takes them: the pin
	# comes from the command line (the sim chip), everything else from the file.
	for b in ccmp13-mine up-squared-lab rpi5-desk dk2-cr ./boards/dk2-cr.yaml; do
		sq run --preflight --board "$b" --set gpio.backend=sim --chip sqwave-sim --line 0
		case $? in 0|1) ;; *) fail "run --preflight --board $b: exit $?: $(head -c 400 "$TMP/err")" || return 1 ;; esac
		grep -q "^sqwave check: board " "$TMP/out" || fail "$b: no check header" || return 1
	done
	grep -q "board dk2-cr (./boards/dk2-cr.yaml)" "$TMP/out" || fail "CR-only file: $(head -1 "$TMP/out")" || return 1
}

# NAME CONTENT-PRINTF-FORMAT EXPECTED-WORDS...: one bad board file, refused
# with exit 2 by run --preflight, and listed as INVALID by `boards`.
bad() {
	local name=$1 fmt=$2
	shift 2
	printf "$fmt" > "$TMP/w/boards/$name.yaml"
	expect 2 "boards/$name.yaml:" "$@" -- run --preflight --board "$name" || return 1
	expect 0 -- boards || return 1
	grep -q "^  $name .*INVALID: ./boards/$name.yaml:" "$TMP/out" ||
		fail "boards does not list $name as INVALID: $(grep " $name " "$TMP/out")" || return 1
}

HEAD='board:\n  name: t\ngpio:\n  backend: sim\n  chip: sqwave-sim\n  line: 0\n'

test_bad_values_are_exit_2_with_file_line_and_column_never_wrapped_or_clamped() {
	fresh
	bad cpu-wraps "${HEAD}rt:\n  cpu: 4294967296\n" ":8:8: rt.cpu must be an integer between -1 and 1023" || return 1
	bad prio-inf "${HEAD}rt:\n  priority: 1e400\n" ":8:13: rt.priority must be" '"1e400"' || return 1
	bad prio-neg "${HEAD}rt:\n  priority: -5\n" ":8:13:" '"-5"' || return 1
	bad prio-huge "${HEAD}rt:\n  priority: 99999999999999999999999\n" ":8:13:" || return 1
	bad prio-octal "${HEAD}rt:\n  priority: 010\n" ":8:13:" "leading zero" || return 1
	bad prio-list "${HEAD}rt:\n  priority: [90]\n" ":8:13:" "found a list" || return 1
	bad dup-key "${HEAD}  line: 1\n" ":7:3: duplicate key gpio.line (first set on line 6)" || return 1
	bad dup-section "${HEAD}gpio:\n  drive: open-drain\n" ":7:1: duplicate section gpio" || return 1
	bad lock-word "${HEAD}rt:\n  lock_memory: maybe\n" ":8:16:" || return 1
	bad escape "board:\n  name: \"t\\\\e[2J\"\ngpio: {backend: sim, chip: sqwave-sim, line: 0}\n" \
		":2:9: board.name must be one line of text without control characters" || return 1
	bad split-compat "${HEAD}match:\n  compatible: [st,stm32mp135f-dk]\n" ":8:16:" "two items" || return 1
	bad joined-compat "${HEAD}match:\n  compatible: st,stm32mp135f-dk, st,stm32mp135\n" ":8:15:" "has a blank" || return 1
	bad merge "defaults: &d {backend: sim}\n" ":1:" || return 1
	bad merge2 "board:\n  name: t\ngpio:\n  <<: {backend: sim}\n" ":4:3: merge keys (<<) are not supported" || return 1
	# A number never comes out in range by wrapping: the offset 2^32 is not 0.
	printf "${HEAD/line: 0/line: 4294967296}" > "$TMP/w/boards/line-wraps.yaml"
	expect 1 "line 4294967296 is out of range" -- run --preflight --board line-wraps || return 1
}

test_hostile_yaml_is_refused_in_bounded_time_and_memory() {
	local laughs i prev
	fresh
	# a billion laughs: refused at the first anchor, nothing expanded
	laughs='a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
	prev=a
	for i in b c d e f g h i j; do laughs+="$i: &$i [*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev]\n"; prev=$i; done
	bad laughs "$laughs" ':1:1: unknown section "a"' || return 1
	bad laughs-in-notes "board:\n  name: t\n  notes: ${laughs#a: }" ":3:10: anchors and aliases (&a, *a)" || return 1
	bad laughs2 "board:\n  name: &n t\n  soc: *n\n" ":2:9: anchors and aliases (&n, *n) are not supported" || return 1
	python3 -c 'import sys; sys.stdout.write("board:\n  name: " + "[" * 200000 + "]" * 200000 + "\n")' > "$TMP/w/boards/deep.yaml"
	expect 2 "deep.yaml:2:9: board.name must be a single value" -- run --preflight --board deep || return 1
	python3 -c 'import sys; sys.stdout.write("board:\n  name: " + "{a: " * 100000 + "x" + "}" * 100000 + "\n")' > "$TMP/w/boards/deep2.yaml"
	expect 2 "deep2.yaml:2:9:" -- run --preflight --board deep2 || return 1
	python3 -c 'import sys; sys.stdout.write("board:\n  name: t\n  notes: " + "x" * 1048576 + "\n")' > "$TMP/w/boards/huge.yaml"
	expect 2 "huge.yaml: is larger than 1048576 bytes" -- run --preflight --board huge || return 1
	python3 -c 'import sys; sys.stdout.write("board:\n  name: t\n  notes: " + "x" * 100000 + "\ngpio: {backend: sim, chip: sqwave-sim, line: 0}\n")' > "$TMP/w/boards/long-notes.yaml"
	expect 2 "long-notes.yaml:3:10: board.notes must be text of at most 65536 bytes" -- run --preflight --board long-notes || return 1
	python3 -c 'import sys; sys.stdout.write("board:\n  name: t\n" + "".join("  k%d: 1\n" % i for i in range(100000)))' > "$TMP/w/boards/keys.yaml"
	expect 2 "keys.yaml: is larger than" -- run --preflight --board keys || return 1
	python3 -c 'import sys; sys.stdout.write("board:\n  name: t\n" + "".join("  k%d: 1\n" % i for i in range(50000)))' > "$TMP/w/boards/keys2.yaml"
	expect 2 'keys2.yaml:3:3: unknown key "k0"' -- run --preflight --board keys2 || return 1
	# past line 65535: the error is at its line, not at a 16-bit wrap of it
	python3 -c 'import sys; sys.stdout.write("board:\n  name: t\ngpio: {backend: sim, chip: sqwave-sim, line: 0}\n" + "#\n" * 70000 + "rt:\n  priority: 100\n")' > "$TMP/w/boards/long.yaml"
	expect 2 "long.yaml:70005:13: rt.priority must be an integer between 1 and 99" -- run --preflight --board long || return 1
	expect 0 -- boards || return 1
}

test_what_is_not_utf8_text_is_named_at_its_byte() {
	fresh
	bad latin1 "board:\n  name: t\n  notes: caf\xe9 au lait\n" ":3:13: not UTF-8 text" "byte 0xe9" || return 1
	bad latin1-crlf "board:\r\n  name: t\r\n  soc: \xff\r\n" ":3:8: not UTF-8 text" || return 1
	bad control "board:\n  name: t\x1b[31m\n" ":2:10:" "control characters" || return 1
	bad nul "${HEAD}rt:\n  priority: 9\x000\n" ":8:14: contains a NUL byte" || return 1
	printf 'b\0o\0a\0r\0d\0:\0\n\0' > "$TMP/w/boards/utf16.yaml"
	expect 2 "utf16.yaml: is UTF-16" -- run --preflight --board utf16 || return 1
	: > "$TMP/w/boards/empty.yaml"
	expect 2 "empty.yaml: is empty" -- run --preflight --board empty || return 1
}

# Not a file: refused at once, never waited on, never read forever.
test_a_fifo_a_device_a_directory_or_a_link_loop_never_hangs() {
	local p
	fresh
	write_real_boards
	mkfifo "$TMP/w/boards/fifo.yaml" "$TMP/w/config/fifo.yaml" "$TMP/w/fifo.yaml"
	mkdir "$TMP/w/boards/dir.yaml"
	ln -s /dev/zero "$TMP/w/boards/zero.yaml"
	ln -s loop-b.yaml "$TMP/w/boards/loop-a.yaml"
	ln -s loop-a.yaml "$TMP/w/boards/loop-b.yaml"
	expect 2 "fifo.yaml: is a FIFO" -- run --preflight --board ./fifo.yaml || return 1
	expect 2 "fifo.yaml: is a FIFO" -- run --preflight --board "$ROOT/boards/sim.yaml" --profile ./config/fifo.yaml || return 1
	expect 2 "/dev/zero: is a device" -- run --preflight --board /dev/zero || return 1
	expect 2 "dir.yaml: is a directory" -- run --preflight --board ./boards/dir.yaml || return 1
	expect 2 "loop-a.yaml: cannot open" -- run --preflight --board ./boards/loop-a.yaml || return 1
	for p in fifo dir zero loop-a; do
		expect 2 "./boards/$p.yaml is there but is not a regular file" -- run --preflight --board $p || return 1
	done
	expect 0 "ccmp13-mine" -- boards || return 1
	! grep -qE "^  (fifo|dir|zero|loop-a) " "$TMP/out" || fail "boards lists what is not a file" || return 1
	fake_dt "digi,ccmp133-dvk"
	expect 0 "board: ccmp13-mine" -- boards detect --root "$TMP/dt" || return 1
	# a pipe on standard input is no file either
	( cd "$TMP/w" && printf "$HEAD" | timeout -k 5 30 "$SQWAVE" run --preflight --board /dev/stdin ) \
		> /dev/null 2> "$TMP/err"
	[ $? -eq 2 ] && grep -q "is a FIFO" "$TMP/err" || fail "a pipe: $(cat "$TMP/err")" || return 1
}

# detect reads what boards lists: a file with a mistake is named, not
# silently left out; a --root that is not a directory is a usage error,
# not a machine without a device tree.
test_detect_names_a_broken_board_file_and_refuses_a_bad_root() {
	fresh
	write_real_boards
	printf "${HEAD}match:\n  compatible: [vendor,my-board]\n" > "$TMP/w/boards/mine.yaml"
	fake_dt "vendor,my-board"
	expect 1 "not read (invalid): ./boards/mine.yaml:8:16: match.compatible" \
		"no board file matches" -- boards detect --root "$TMP/dt" || return 1
	expect 2 "--root $TMP/nowhere: No such file or directory" -- boards detect --root "$TMP/nowhere" || return 1
	expect 2 "--root /dev/null: not a directory" -- boards detect --root /dev/null || return 1
	# a copied tree with a FIFO for a property is passed over, not waited on
	rm -f "$TMP/dt/proc/device-tree/compatible"
	mkfifo "$TMP/dt/proc/device-tree/compatible"
	expect 1 "no device tree and no DMI names found" -- boards detect --root "$TMP/dt" || return 1
}

test_short_names_are_names_not_paths() {
	fresh
	write_real_boards
	expect 2 '".." is no board name' -- run --preflight --board .. || return 1
	expect 2 '"." is no board name' -- run --preflight --board . || return 1
	printf "$HEAD" > "$TMP/w/boards/.hidden.yaml"
	expect 2 '".hidden" is no board name' -- run --preflight --board .hidden || return 1
	expect 2 "--board FILE|NAME is required" -- run --preflight --board "" || return 1
	expect 2 "no board file or board named" -- run --preflight --board "$(printf 'x%.0s' $(seq 127))" || return 1
	expect 2 "is no board name" -- run --preflight --board "$(printf 'x%.0s' $(seq 5000))" || return 1
	expect 2 '"a\x1b[2Jb": a file name with a control character' -- run --preflight --board "$(printf 'a\033[2Jb')" || return 1
	! grep -q $'\033' "$TMP/err" || fail "an escape character reached the terminal" || return 1
	expect 2 "../boards/x.yaml: cannot open" -- run --preflight --board ../boards/x.yaml || return 1
	# a path is one line of the log header: a newline would add a key
	printf "$HEAD" > "$TMP/w/$(printf 'nl\nboard.name=evil.yaml')"
	expect 2 '"./nl\nboard.name=evil.yaml": a file name with a control character' -- \
		run --preflight --board "./$(printf 'nl\nboard.name=evil.yaml')" || return 1
	expect 2 'did you mean dk2-cr?' -- run --preflight --board dk2 || return 1
}

# run --preflight reads the files and checks; it changes nothing: what a
# killed run left (a sqwave.PID.START cgroup) is for the next run to clear,
# not for a preflight to take from it. Skipped without a writable cgroup2.
# The leftover is planted in a cgroup of this test's own, and the run
# started there: every sqwave that starts sweeps what killed runs left
# beside its own cgroup, so one planted beside this shell's cgroup could be
# taken by any other sqwave on the machine (another test, another user's
# run) and the test would blame preflight for it.
test_preflight_leaves_what_a_killed_run_left_to_the_next_run() {
	local mnt own home dir rc
	fresh
	mnt=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
	own=$(sed -n 's/^0:://p' /proc/self/cgroup)
	[ -n "$mnt" ] || { echo "    (no cgroup2: skipped)" >&2; return 0; }
	home="$mnt${own%/}/sqwave-e2e-hostile.$$"
	dir="$home/sqwave.999999999.1"
	mkdir "$home" "$dir" 2> /dev/null || { echo "    (cgroup2 not writable: skipped)" >&2; rmdir "$home" 2> /dev/null; return 0; }
	( echo $BASHPID > "$home/cgroup.procs" && sq run --preflight --board "$ROOT/boards/sim.yaml" )
	rc=$?
	if [ ! -d "$dir" ]; then
		rmdir "$home" 2> /dev/null
		fail "run --preflight removed $dir"
		return 1
	fi
	rmdir "$dir" "$home" 2> /dev/null
	case $rc in 0|1) ;; *) fail "run --preflight: exit $rc: $(head -c 300 "$TMP/err")" || return 1 ;; esac
	! grep -q "cleared what a killed" "$TMP/err" || fail "preflight swept: $(cat "$TMP/err")" || return 1
}

cd "$ROOT" || exit 1
e2e_run --subshell "hostile boards"
