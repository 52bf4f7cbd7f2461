#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The layer rule of src/ (docs/design.md) holds and fails where it must:
# scripts/check-layers on a copy of src/ with one planted breach at a time,
# and a library module calling into cmd/ failing to link the way
# build/lib-closed links the library. Self-contained:
# SQWAVE=path/to/sqwave tests/e2e/layers.sh from the repository root.
set -u
SQWAVE=${SQWAVE:-build/sqwave}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# the build directory of the binary under test (run-all hands the scripts
# its keep-json wrapper as SQWAVE and the binary as SQWAVE_REAL)
BUILD=$(cd "$(dirname "${SQWAVE_REAL:-$SQWAVE}")" && pwd)
TMP=$(mktemp -d /tmp/sqwave-e2e-layers.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

fail() { echo "    $*" >&2; return 1; }

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
	plant base/stats.c '#include "report/summary.h"'
	check && fail "an upward include passed" && return 1
	grep -qF "$TMP/src/base/stats.c:2: #include \"report/summary.h\": base/ may not include report/, a layer above it" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

test_a_sibling_include_fails() {
	fresh
	plant log/edgelist.c '#include "capture/capture.h"'
	check && fail "log/ including capture/ passed" && return 1
	grep -qF "$TMP/src/log/edgelist.c:2: #include \"capture/capture.h\": log/ and capture/ are siblings of one rank" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

test_an_include_cycle_fails() {
	fresh
	# msgbuf.h -> stats.h and stats.h -> msgbuf.h: a cycle inside one folder,
	# where the ranks allow both arrows.
	plant base/msgbuf.h '#include "base/stats.h"'
	plant base/stats.h '#include "base/msgbuf.h"'
	check && fail "an include cycle passed" && return 1
	grep -qE "include cycle: base/(msgbuf -> base/stats -> base/msgbuf|stats -> base/msgbuf -> base/stats)" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

test_an_unqualified_include_fails() {
	fresh
	plant base/stats.c '#include "msgbuf.h"'
	check && fail "an include without its layer folder passed" && return 1
	grep -qF "$TMP/src/base/stats.c:2: #include \"msgbuf.h\": name the layer folder" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

test_a_private_header_from_another_folder_fails() {
	fresh
	plant run/soak.c '#include "loads/load_private.h"'
	check && fail "a private header of another folder passed" && return 1
	grep -qF "$TMP/src/run/soak.c:2: #include \"loads/load_private.h\": a private header is for the .c files of loads/ alone" \
		"$TMP/out" || fail "$(cat "$TMP/out")" || return 1
}

# A library module that calls a command without including its header (so
# the include check cannot see it): linked with the rest of the library as
# build/lib-closed links it, it does not build. The same link without it does.
test_a_library_call_into_cmd_fails_to_link() {
	local cflags libs
	[ -f "$BUILD/libsqwave.a" ] || fail "no $BUILD/libsqwave.a: build first" || return 1
	cflags=$(make -s --no-print-directory -C "$ROOT" --eval 'print-cflags: ; @echo $(CFLAGS)' print-cflags) ||
		return 1
	libs=$(make -s --no-print-directory -C "$ROOT" --eval 'print-libs: ; @echo $(LIBS)' print-libs) ||
		return 1
	# a sanitizer build's archive links only with the sanitizers' runtime
	nm "$BUILD/libsqwave.a" 2> /dev/null | grep -q __asan_ && libs="-fsanitize=address,undefined $libs"
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
	gcc -o "$TMP/closed" "$TMP/main.c" -Wl,--whole-archive "$BUILD/libsqwave.a" \
		-Wl,--no-whole-archive $libs 2> "$TMP/link0.err" ||
		fail "the library alone does not link: $(cat "$TMP/link0.err")" || return 1
	# shellcheck disable=SC2086
	if gcc -o "$TMP/planted" "$TMP/main.c" "$TMP/planted.o" -Wl,--whole-archive \
		"$BUILD/libsqwave.a" -Wl,--no-whole-archive $libs 2> "$TMP/link.err"; then
		fail "a library call into cmd_run() linked"
		return 1
	fi
	grep -q "undefined reference to .cmd_run'" "$TMP/link.err" ||
		fail "$(cat "$TMP/link.err")" || return 1
}

for t in $(declare -F | awk '{print $3}' | grep '^test_' | grep -e "${ONLY:-}"); do
	if "$t"; then
		echo "PASS $t"
		passed=$((passed + 1))
	else
		echo "FAIL $t"
		failed=$((failed + 1))
	fi
done
echo "layers e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
