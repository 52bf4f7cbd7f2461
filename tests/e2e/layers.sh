#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The layer rule of src/ (docs/design.md) holds and fails where it must:
# scripts/check-layers on a copy of src/ with one planted breach at a time,
# scripts/check-function-length on one with a planted long function,
# and a library module calling into cmd/ failing to link the way
# build/lib-closed links the library. Self-contained:
# SQWAVE=path/to/sqwave tests/e2e/layers.sh from the repository root.
. "$(dirname "$0")/lib.sh" sqwave-e2e-layers
# the build directory of the binary under test (run-all hands the scripts
# its keep-json wrapper as SQWAVE and the binary as SQWAVE_REAL)
BUILD=$(cd "$(dirname "${SQWAVE_REAL:-$SQWAVE}")" && pwd)

# A fresh copy of src/ in $TMP/src; the check's output in $TMP/out.
fresh() { rm -rf "$TMP/src" && cp -r "$ROOT/src" "$TMP/src"; }
check() { "$ROOT/scripts/check-layers" "$TMP/src" > "$TMP/out" 2>&1; }

# Add line @2 after the first line of file @1 (the SPDX line).
plant() { sed -i "1a $2" "$TMP/src/$1"; }

test_the_tree_as_it_is_keeps_the_rule() {
	fresh
	check || fail "check-layers failed on src/: $(cat "$TMP/out")" || return 1
	[ ! -s "$TMP/out" ] || fail "check-layers said: $(cat "$TMP/out")" || return 1
}

test_an_upward_include_fails_with_file_and_line() {
	fresh
	plant board/base/stats.c '#include "summary/summary.h"'
	check && fail "an upward include passed" && return 1
	grep -qF "$TMP/src/board/base/stats.c:2: #include \"summary/summary.h\": base/ may not reach summary/, a floor above it" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

test_a_sibling_include_fails() {
	fresh
	plant board/rt/ring.c '#include "loads/load.h"'
	check && fail "rt/ including loads/ passed" && return 1
	grep -qF "$TMP/src/board/rt/ring.c:2: #include \"loads/load.h\": rt/ and loads/ are siblings of one floor" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

# The houses: the board never reaches the lab, the lab only the board's
# floors it builds on.
test_the_board_including_the_lab_fails() {
	fresh
	plant board/stats/edgestats.c '#include "capture/capture.h"'
	check && fail "the board including the lab passed" && return 1
	grep -qF "$TMP/src/board/stats/edgestats.c:2: #include \"capture/capture.h\": the board side (stats/) may not reach the lab side (capture/)" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
	fresh
	plant lab/report/trend.c '#include "run/session.h"'
	check && fail "the lab including the board's run/ passed" && return 1
	grep -qF "$TMP/src/lab/report/trend.c:2: #include \"run/session.h\": the lab side (report/) builds on the board's" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

test_an_include_cycle_fails() {
	fresh
	# msgbuf.h -> stats.h and stats.h -> msgbuf.h: a cycle inside one folder,
	# where the floors allow both arrows.
	plant board/base/msgbuf.h '#include "base/stats.h"'
	plant board/base/stats.h '#include "base/msgbuf.h"'
	check && fail "an include cycle passed" && return 1
	grep -qE "include cycle: board/base/(msgbuf -> board/base/stats -> board/base/msgbuf|stats -> board/base/msgbuf -> board/base/stats)" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

test_an_unqualified_include_fails() {
	fresh
	plant board/base/stats.c '#include "msgbuf.h"'
	check && fail "an include without its floor's folder passed" && return 1
	grep -qF "$TMP/src/board/base/stats.c:2: #include \"msgbuf.h\": name the floor's folder" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

test_a_private_header_from_another_folder_fails() {
	fresh
	plant board/run/soak.c '#include "loads/load_private.h"'
	check && fail "a private header of another folder passed" && return 1
	grep -qF "$TMP/src/board/run/soak.c:2: #include \"loads/load_private.h\": a private header is for the .c files of loads/ alone" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

# ---- every function under 150 lines (scripts/check-function-length) ----

lengths() { "$ROOT/scripts/check-function-length" "$TMP/src" > "$TMP/out" 2>&1; }

# Append to file @1 a function @2 of @3 lines from the line that names it to
# its closing brace; braces in its strings, comments and character literals
# must not end it early.
plant_function() {
	local i
	{
		printf '\nint %s(void);\nint %s(void)\n{\n\tint n = 0;\n\n' "$2" "$2"
		printf '\tn += (int)sizeof("}"); /* } */\n\tn += \x27}\x27;\n'
		for ((i = 0; i < $3 - 8; i++)); do
			printf '\tn += %d;\n' "$i"
		done
		printf '\treturn n;\n}\n'
	} >> "$TMP/src/$1"
}

test_every_function_of_the_tree_is_under_150_lines() {
	fresh
	lengths || fail "check-function-length failed on src/: $(cat "$TMP/out")" || return 1
	[ ! -s "$TMP/out" ] || fail "check-function-length said: $(cat "$TMP/out")" || return 1
}

test_a_function_over_150_lines_fails_with_file_line_and_length() {
	local line
	fresh
	# 150 lines is the most a function may have: it passes
	plant_function board/base/units.c units_planted_long 150
	lengths || fail "a function of 150 lines failed: $(cat "$TMP/out")" || return 1
	fresh
	line=$(($(wc -l < "$TMP/src/board/base/units.c") + 3))
	plant_function board/base/units.c units_planted_long 151
	lengths && fail "a function of 151 lines passed" && return 1
	grep -qxF "$TMP/src/board/base/units.c:$line: units_planted_long, 151 lines" "$TMP/out" ||
		fail "$(cat "$TMP/out")" || return 1
	[ "$(grep -c ': .*, [0-9]* lines$' "$TMP/out")" -eq 1 ] ||
		fail "more than the planted function: $(cat "$TMP/out")" || return 1
}

# ---- calls, read from the objects (scripts/check-layers --objects) ----

# A copy of the build's objects in $TMP/obj, and the files named (of the
# copy of src/, planted first) compiled into it as the build compiles them.
objects() {
	local cflags f
	rm -rf "$TMP/obj" && mkdir -p "$TMP/obj" || return 1
	(cd "$BUILD" && find board lab cmd -name '*.o' -print0 2> /dev/null |
		cpio -0pdm --quiet "$TMP/obj") || return 1
	[ $# -eq 0 ] && return 0
	cflags=$(make -s --no-print-directory -C "$ROOT" --eval 'print-cflags: ; @echo $(CFLAGS)' print-cflags) ||
		return 1
	for f in "$@"; do
		# shellcheck disable=SC2086 # flags are words
		(cd "$TMP" && gcc ${cflags//-iquote src/-iquote $TMP/src} -Wno-error \
			-Wno-missing-prototypes -c -o "$TMP/obj/${f%.c}.o" "$TMP/src/$f") ||
			fail "$f did not compile" || return 1
	done
}
calls() { "$ROOT/scripts/check-layers" --objects "$TMP/obj" "$TMP/src" > "$TMP/out" 2>&1; }

test_a_board_call_into_the_lab_fails_with_file_and_symbol() {
	fresh
	# declared by hand, so that no include gives it away
	cat >> "$TMP/src/board/stats/edgestats.c" <<'C'
int capture_close_planted(void);
const char *capture_format_names(void);
int capture_close_planted(void)
{
	return capture_format_names() != 0;
}
C
	objects board/stats/edgestats.c || return 1
	calls && fail "a board call into the lab passed" && return 1
	grep -qE "^$TMP/src/board/stats/edgestats.c:[0-9]+: calls capture_format_names\(\) of lab/capture/capture.c: the board side \(stats/\) may not reach the lab side \(capture/\)" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

test_a_call_circle_fails_with_file_and_symbol() {
	fresh
	# cpulist.c (base) calls msgbuf, and msgbuf.c is made to call back: the
	# floors allow both arrows, the circle is the breach
	cat >> "$TMP/src/board/base/msgbuf.c" <<'C'
int cpulist_count_planted(void);
int cpulist_planted_max(void);
int cpulist_count_planted(void)
{
	return cpulist_planted_max();
}
C
	cat >> "$TMP/src/board/base/cpulist.c" <<'C'
int cpulist_planted_max(void);
int cpulist_planted_max(void)
{
	return 1;
}
C
	objects board/base/msgbuf.c board/base/cpulist.c || return 1
	calls && fail "a call circle passed" && return 1
	grep -qE "^$TMP/src/board/base/[a-z]+.c:[0-9]+: calls [a-z_]+\(\): call circle: board/base/(msgbuf -> board/base/cpulist -> board/base/msgbuf|cpulist -> board/base/msgbuf -> board/base/cpulist)" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

# No command calls another command's function (docs/design.md: the
# commands are thin): a planted call from export into boards' help fails.
test_a_command_calling_another_command_fails_with_file_and_symbol() {
	fresh
	cat >> "$TMP/src/cmd/cmd_export.c" <<'C'
void cmd_export_planted(void);
void cmd_export_planted(void)
{
	cmd_boards_help(stdout);
}
C
	sed -i '1a #include "cmd/cmd_boards.h"' "$TMP/src/cmd/cmd_export.c"
	objects cmd/cmd_export.c || return 1
	calls && fail "a command calling another command passed" && return 1
	grep -qE "^$TMP/src/cmd/cmd_export.c:[0-9]+: calls cmd_boards_help\(\) of cmd/cmd_boards.c: a command may not call another command's function" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

# The objects of the build under test keep the call rule: no call up a
# floor, across siblings, from the board into the lab, in a circle or from
# one command into another; every header declares its own .c's functions.
test_the_built_objects_keep_the_call_rule() {
	fresh
	objects || return 1
	calls || fail "check-layers --objects failed: $(cat "$TMP/out")" || return 1
	[ ! -s "$TMP/out" ] || fail "check-layers --objects said: $(cat "$TMP/out")" || return 1
}

test_a_header_declaring_another_modules_function_fails() {
	fresh
	plant board/base/units.h 'const char *msgbuf_set(char *buf, unsigned long len, const char *fmt, ...);'
	objects || return 1
	calls && fail "a header declaring msgbuf's function passed" && return 1
	grep -qF "$TMP/src/board/base/units.h:2: declares msgbuf_set(), a function of board/base/msgbuf.c: a header declares its own .c's functions only" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

# A library module that calls a command without including its header (so
# the include check cannot see it): linked with the rest of the library as
# build/lib-closed links it, it does not build. The same link without it does.
test_a_library_call_into_cmd_fails_to_link() {
	local cflags libs
	[ -f "$BUILD/libsqwave-board.a" ] || fail "no $BUILD/libsqwave-board.a: build first" || return 1
	cflags=$(make -s --no-print-directory -C "$ROOT" --eval 'print-cflags: ; @echo $(CFLAGS)' print-cflags) ||
		return 1
	libs=$(make -s --no-print-directory -C "$ROOT" --eval 'print-libs: ; @echo $(LIBS)' print-libs) ||
		return 1
	# a sanitizer build's archive links only with the sanitizers' runtime
	nm "$BUILD/libsqwave-board.a" 2> /dev/null | grep -q __asan_ && libs="-fsanitize=address,undefined $libs"
	printf 'int main(void) { return 0; }\n' > "$TMP/main.c"
	cat > "$TMP/planted.c" <<'C'
/* A base/ module calling into cmd/, declared by hand. */
int cmd_run(int argc, char **argv);
int planted_run(void);
int planted_run(void)
{
	return cmd_run(0, 0);
}
C
	# shellcheck disable=SC2086 # flags are words
	gcc $cflags -c -o "$TMP/planted.o" "$TMP/planted.c" || fail "planted.c did not compile" || return 1
	# shellcheck disable=SC2086
	gcc -o "$TMP/closed" "$TMP/main.c" -Wl,--whole-archive "$BUILD/libsqwave-board.a" \
		-Wl,--no-whole-archive $libs 2> "$TMP/link0.err" ||
		fail "the library alone does not link: $(cat "$TMP/link0.err")" || return 1
	# shellcheck disable=SC2086
	if gcc -o "$TMP/planted" "$TMP/main.c" "$TMP/planted.o" -Wl,--whole-archive \
		"$BUILD/libsqwave-board.a" -Wl,--no-whole-archive $libs 2> "$TMP/link.err"; then
		fail "a library call into cmd_run() linked"
		return 1
	fi
	grep -q "undefined reference to .cmd_run'" "$TMP/link.err" ||
		fail "$(cat "$TMP/link.err")" || return 1
}

e2e_run "layers e2e"
