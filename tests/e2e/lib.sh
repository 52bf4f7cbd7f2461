# SPDX-License-Identifier: GPL-2.0-or-later
# The harness every tests/e2e and tests/hostile script sources (not run):
# the preamble, a scratch folder, fail, expect and the runner e2e_run.
#
#   . "$(dirname "$0")/lib.sh" sqwave-e2e-NAME    (hostile: ../e2e/lib.sh)
#   test_a_behaviour_in_a_sentence() { ...; fail "why" || return 1; }
#   e2e_run "NAME e2e"
#
# The argument is the scratch folder's mktemp prefix (/tmp/PREFIX.XXXXXX).
# Sourcing sets, for the script: set -u; SQWAVE (the binary under test, an
# absolute path when given as one with a slash; default build/sqwave),
# ROOT (the repository), HERE (the script's own folder), BOARD (the
# simulated board), TMP (the scratch folder, removed on exit unless
# KEEP_TMP is set), the counters passed, failed, skipped. A script that
# has more to undo on exit (a background run, a network namespace)
# defines e2e_cleanup; the EXIT trap calls it before it removes $TMP.

set -u
SQWAVE=${SQWAVE:-build/sqwave}
# A path, not a command from PATH: absolute, so that a test may cd.
case $SQWAVE in /*) ;; */*) SQWAVE=$PWD/$SQWAVE ;; esac
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck disable=SC2034  # read by the scripts that source this file
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2034
BOARD=$ROOT/boards/sim.yaml
TMP=$(mktemp -d "/tmp/${1:-sqwave-e2e}.XXXXXX") || exit 3
passed=0
failed=0
skipped=0

e2e_exit() {
	declare -F e2e_cleanup > /dev/null && e2e_cleanup
	if [ -n "${KEEP_TMP:-}" ]; then
		echo "    (kept $TMP)" >&2
	else
		rm -rf "$TMP"
	fi
}
trap e2e_exit EXIT

# fail WHY...: print why a test failed (indented, on stderr) and return 1,
# as in `check || fail "what was seen" || return 1`.
fail() { echo "    $*" >&2; return 1; }

# sq ARGS...: sqwave ARGS bounded (60 s, and ulimit -v $VMEM when the
# script sets VMEM), its standard output in $TMP/out, its messages in
# $TMP/err; returns its exit code (124: the time bound hit). A script whose
# runs need more (a working folder, HOME) defines its own sq after sourcing.
sq() {
	( [ -z "${VMEM:-}" ] || ulimit -v "$VMEM"; exec timeout -k 5 60 "$SQWAVE" "$@" ) \
		> "$TMP/out" 2> "$TMP/err"
}

# expect CODE WORD... -- ARGS...: `sq ARGS` exits CODE, each WORD is in its
# messages, and they hold no sanitizer report or crash.
expect() {
	local want=$1 rc w words=()
	shift
	while [ "$1" != "--" ]; do words+=("$1"); shift; done
	shift
	sq "$@"
	rc=$?
	[ $rc -eq "$want" ] || fail "sqwave $*: exit $rc, expected $want: $(head -c 600 "$TMP/err")" ||
		return 1
	for w in "${words[@]}"; do
		grep -qF -- "$w" "$TMP/err" || fail "sqwave $*: no '$w' in: $(head -c 600 "$TMP/err")" ||
			return 1
	done
	if grep -qE "AddressSanitizer|runtime error|Segmentation|core dumped" "$TMP/err"; then
		fail "sqwave $*: $(head -c 600 "$TMP/err")"
		return 1
	fi
}

# e2e_run [OPTION...] [LABEL]: run every test_* function whose name matches
# the grep pattern ONLY (unset: all), in name order, one line each:
# "PASS NAME", "FAIL NAME" or (the test returned 77) "SKIP NAME"; then
# "LABEL: P passed, F failed" unless LABEL is empty; succeeds if none
# failed. tests/e2e/run-all counts those lines, so they keep their form.
#   --subshell      each test in a subshell (its cd, exit, variables stay there)
#   --short         NAME without its test_ prefix
#   --prefix P      P before NAME ("ciout: ")
#   --skip-rc RC    the code that means skipped, instead of 77
#   --skip-note N   N after a SKIP line's name
#   --count-skips   ", S skipped" at the end of the summary line
# The locals are prefixed: a test run in this shell sees the script's names.
e2e_run() {
	local _e2e_label="" _e2e_sub=0 _e2e_short=0 _e2e_prefix="" _e2e_skip=77 _e2e_note=""
	local _e2e_count=0 _e2e_t _e2e_rc _e2e_name
	while [ $# -gt 0 ]; do
		case $1 in
		--subshell) _e2e_sub=1 ;;
		--short) _e2e_short=1 ;;
		--prefix) _e2e_prefix=$2; shift ;;
		--skip-rc) _e2e_skip=$2; shift ;;
		--skip-note) _e2e_note=" $2"; shift ;;
		--count-skips) _e2e_count=1 ;;
		*) _e2e_label=$1 ;;
		esac
		shift
	done
	for _e2e_t in $(declare -F | awk '{print $3}' | grep '^test_' | grep -e "${ONLY:-}"); do
		if [ $_e2e_sub -eq 1 ]; then
			( "$_e2e_t" )
		else
			"$_e2e_t"
		fi
		_e2e_rc=$?
		_e2e_name=$_e2e_prefix$_e2e_t
		[ $_e2e_short -eq 0 ] || _e2e_name=$_e2e_prefix${_e2e_t#test_}
		if [ $_e2e_rc -eq 0 ]; then
			echo "PASS $_e2e_name"
			passed=$((passed + 1))
		elif [ $_e2e_rc -eq "$_e2e_skip" ]; then
			echo "SKIP $_e2e_name$_e2e_note"
			skipped=$((skipped + 1))
		else
			echo "FAIL $_e2e_name"
			failed=$((failed + 1))
		fi
	done
	if [ -n "$_e2e_label" ]; then
		if [ $_e2e_count -eq 1 ]; then
			echo "$_e2e_label: $passed passed, $failed failed, $skipped skipped"
		else
			echo "$_e2e_label: $passed passed, $failed failed"
		fi
	fi
	[ "$failed" -eq 0 ]
}
