#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/check-commits, which .ci/run runs over the commits it is given
# (docs/ci.md), on a scratch repository: a good commit passes; a long
# subject, one without "area: ", and one without a body each fail, listed
# by hash with their reasons; a merge is not checked; a range that is no
# range is exit 2. Needs git alone (no sqwave).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CHECK=$ROOT/scripts/check-commits
TMP=$(mktemp -d /tmp/sqwave-e2e-commits.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

fail() { echo "    $*" >&2; return 1; }

# A scratch repository: main with one commit, then a branch of commits,
# each a message from a file (git commit -F keeps it as written).
scratch() {
	local r=$TMP/repo
	rm -rf "$r" && mkdir -p "$r" && cd "$r" || return 1
	git init -q -b main . && git config user.name t && git config user.email t@example.org &&
		git config commit.gpgsign false || return 1
	printf 'base: the first file\n\nSo that there is a main to branch from.\n' > "$TMP/m0"
	echo 0 > f && git add f && git commit -q -F "$TMP/m0" && git checkout -q -b topic
}

# commit NAME MESSAGE: a commit of the topic branch; its hash in $TMP/NAME.hash
commit() {
	printf '%s' "$2" > "$TMP/$1.msg"
	echo "$1" >> f && git add f && git commit -q --allow-empty-message -F "$TMP/$1.msg" &&
		git rev-parse --short HEAD > "$TMP/$1.hash"
}

test_a_good_commit_passes() {
	scratch || return 1
	commit good $'check-commits: a subject of the right shape\n\nThe body says why.\n' || return 1
	"$CHECK" main..topic > "$TMP/out" 2>&1 || fail "exit $?: $(cat "$TMP/out")" || return 1
	grep -q "^check-commits: 1 commits in main..topic keep the rule$" "$TMP/out" || fail "$(cat "$TMP/out")"
}

test_each_bad_commit_is_listed_with_its_reasons_and_the_check_fails() {
	local long rc
	scratch || return 1
	long="run: $(printf 'a%.0s' $(seq 1 68))"	# 73 characters
	commit good $'run: seventy-two characters are the most a subject has, this is one xxxx\n\nWhy.\n' || return 1
	[ "$(git log -1 --format=%s | wc -c)" -eq 73 ] || fail "the good subject is not 72 characters" || return 1
	commit long "$long"$'\n\nWhy.\n' || return 1
	commit noarea $'Make the run faster\n\nWhy.\n' || return 1
	commit nobody $'run: a subject and nothing else\n' || return 1
	# git joins a subject's lines: one of 34 and 44 characters is 79 long
	commit wrapped $'run: a subject that goes on and on\nover a second line with no blank line before\n' || return 1
	"$CHECK" main..topic > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ $rc -eq 1 ] || fail "exit $rc, expected 1: $(cat "$TMP/out" "$TMP/err")" || return 1
	grep -q "^check-commits: 4 of 5 commits in main..topic break the rule" "$TMP/err" ||
		fail "$(cat "$TMP/err")" || return 1
	[ "$(wc -l < "$TMP/out")" -eq 4 ] || fail "not one line per bad commit: $(cat "$TMP/out")" || return 1
	! grep -q "^$(cat "$TMP/good.hash") " "$TMP/out" || fail "the good commit is listed" || return 1
	grep -q "^$(cat "$TMP/long.hash") run: a*: subject of 73 characters (at most 72)$" "$TMP/out" &&
	grep -q "^$(cat "$TMP/noarea.hash") Make the run faster: subject not \"area: what\"$" "$TMP/out" &&
	grep -q "^$(cat "$TMP/nobody.hash") run: a subject and nothing else: no body (the why)$" "$TMP/out" &&
	grep -q "^$(cat "$TMP/wrapped.hash") run: a subject that goes on and on over a second line with no blank line before: subject of 79 characters (at most 72); no body (the why)$" "$TMP/out" ||
		fail "$(cat "$TMP/out")"
}

test_a_merge_is_not_checked_and_a_bad_range_is_exit_2() {
	local rc
	scratch || return 1
	commit good $'run: a good commit\n\nWhy.\n' || return 1
	git checkout -q main && echo m > g && git add g &&
		git commit -q -m $'base: a second file\n\nWhy.' && git checkout -q topic &&
		git merge -q --no-edit main || return 1
	git log -1 --format=%s | grep -q "^Merge branch 'main' into topic$" || fail "no merge made" || return 1
	"$CHECK" main..topic > "$TMP/out" 2>&1 || fail "exit $?: $(cat "$TMP/out")" || return 1
	"$CHECK" nosuch..topic > "$TMP/out" 2>&1
	rc=$?
	[ $rc -eq 2 ] && grep -q "^check-commits: 'nosuch..topic' is not a range of this repository$" "$TMP/out" ||
		fail "exit $rc: $(cat "$TMP/out")"
}

for t in $(declare -F | awk '{print $3}' | grep '^test_' | grep -e "${ONLY:-}"); do
	if ( $t ); then
		echo "PASS ${t#test_}"
		passed=$((passed + 1))
	else
		echo "FAIL ${t#test_}"
		failed=$((failed + 1))
	fi
done
echo "commits e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
