#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The man page and the bash completion against the command line: every
# option of every command's getopt table (`sqwave --generate options`) is in
# its --help, in the man page's section for it, and is what the completion
# offers for it, no more; the page is clean under groff and man's warnings
# and names only docs that are installed; every make target that `make
# help` and docs/testing.md name is defined. Needs `make docs` (the build's
# sqwave.1 and sqwave.bash-completion next to $SQWAVE).
# SQWAVE=path/to/sqwave tests/e2e/docs.sh from the repository root.
. "$(dirname "$0")/lib.sh" sqwave-e2e-docs
MAN=${SQWAVE_MAN:-$(dirname "${SQWAVE_REAL:-$SQWAVE}")/sqwave.1}
COMPLETION=${SQWAVE_COMPLETION:-$(dirname "${SQWAVE_REAL:-$SQWAVE}")/sqwave.bash-completion}

options() {
	[ -s "$TMP/options" ] || "$SQWAVE" --generate options > "$TMP/options" 2> "$TMP/options.err" ||
		fail "sqwave --generate options: $(cat "$TMP/options.err")"
}

# The completion's answer for the words "$@" (the last one is completed).
complete_words() {
	bash -c '. "$1"; shift; sq=$1; shift; COMP_WORDS=(sqwave "$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMPREPLY=(); _sqwave "$sq"; printf "%s\n" "${COMPREPLY[@]}" | LC_ALL=C sort' \
		_ "$COMPLETION" "$SQWAVE" "$@"
}

test_every_option_of_every_command_is_in_its_help() {
	local cmd opt rest bad=""
	options || return 1
	[ "$(wc -l < "$TMP/options")" -gt 100 ] || fail "only $(wc -l < "$TMP/options") options listed" || return 1
	while read -r cmd opt rest; do
		[ -f "$TMP/help.$cmd" ] || "$SQWAVE" "$cmd" --help > "$TMP/help.$cmd" 2>&1
		grep -qE -- "(^|[^a-z0-9-])$opt([^a-z0-9-]|\$)" "$TMP/help.$cmd" || bad="$bad $cmd:$opt"
	done < "$TMP/options"
	[ -z "$bad" ] || fail "not in the command's --help:$bad" || return 1
	"$SQWAVE" --help > "$TMP/help" 2>&1
	grep -qE -- '--version' "$TMP/help" && grep -qE -- '--help' "$TMP/help" ||
		fail "sqwave --help does not list --help and --version: $(tail -n 8 "$TMP/help")"
}

test_every_option_of_every_command_is_in_its_man_page_section() {
	local cmd opt rest bad=""
	options || return 1
	[ -f "$MAN" ] || fail "no $MAN (make docs)" || return 1
	MANWIDTH=200 man -l "$MAN" 2> "$TMP/man.err" | col -b > "$TMP/man.txt"
	while read -r cmd opt rest; do
		if [ ! -f "$TMP/man.$cmd" ]; then
			# the command's subsection: from its heading to the next one
			awk -v h="   sqwave $cmd" '$0 == h { on = 1; next } on && /^   [^ ]/ { exit }
				/^[A-Z]/ && on { exit } on' "$TMP/man.txt" > "$TMP/man.$cmd"
		fi
		grep -qE -- "(^|[^a-z0-9-])$opt([^a-z0-9-]|\$)" "$TMP/man.$cmd" || bad="$bad $cmd:$opt"
	done < "$TMP/options"
	[ -z "$bad" ] || fail "not in the man page's section of the command:$bad" || return 1
	grep -q '^OPTIONS' "$TMP/man.txt" || fail "the man page has no OPTIONS section"
}

test_the_man_page_is_clean_under_groff_and_man_warnings() {
	[ -f "$MAN" ] || fail "no $MAN (make docs)" || return 1
	LC_ALL=C.UTF-8 groff -ww -z -man "$MAN" > "$TMP/groff.out" 2>&1
	[ ! -s "$TMP/groff.out" ] || fail "groff -ww: $(head -n 5 "$TMP/groff.out")" || return 1
	LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l "$MAN" > /dev/null 2> "$TMP/manw.out"
	[ ! -s "$TMP/manw.out" ] || fail "man --warnings: $(head -n 5 "$TMP/manw.out")"
}

# Every target that `make help` and docs/testing.md's table name is one
# the Makefile and its included parts (mk/*.mk) define: a part not
# included, or a target renamed, fails here.
test_every_make_target_that_help_and_the_docs_name_is_defined() {
	local t missing=""
	# make's database, read without building (a scratch BUILD for its flags)
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$ROOT" -pRrq BUILD="$TMP/mk" : > "$TMP/db" 2> /dev/null
	awk -F: '/^[a-z][a-z0-9-]*:([^=]|$)/ { print $1 }' "$TMP/db" | LC_ALL=C sort -u > "$TMP/targets"
	grep -qx all "$TMP/targets" && grep -qx help "$TMP/targets" || fail "make -p lists no all or help" || return 1
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$ROOT" BUILD="$TMP/mk" help > "$TMP/help" 2>&1 ||
		fail "make help: $(cat "$TMP/help")" || return 1
	{ grep -oE '(^|  )make [a-z][a-z0-9-]+ ' "$TMP/help" | awk '{ print $2 }'
	  sed -n 's/^| `make \([a-z][a-z0-9-]*\).*/\1/p' "$ROOT/docs/testing.md"; } | LC_ALL=C sort -u > "$TMP/named"
	[ "$(wc -l < "$TMP/named")" -ge 15 ] || fail "few targets named: $(tr '\n' ' ' < "$TMP/named")" || return 1
	for t in $(cat "$TMP/named"); do
		grep -qx "$t" "$TMP/targets" || missing="$missing $t"
	done
	[ -z "$missing" ] || fail "named but not defined:$missing"
}

test_the_man_page_names_only_docs_that_are_installed() {
	local p missing=""
	[ -f "$MAN" ] || fail "no $MAN (make docs)" || return 1
	# a path relative to the source tree means nothing to an installed page
	! grep -nE '(^|[^/a-z])docs/' "$MAN" > "$TMP/rel" || fail "relative docs/ paths: $(head -n 3 "$TMP/rel")" || return 1
	for p in $(grep -oE '/share/doc/sqwave/[a-z0-9\\-]+\.md' "$MAN" | sed 's/\\//g' | sort -u); do
		[ -f "$ROOT/docs/${p##*/}" ] || [ -f "$ROOT/${p##*/}" ] || missing="$missing $p"
	done
	[ -z "$missing" ] || fail "names docs that make install does not install:$missing"
}

test_the_completion_offers_exactly_each_commands_options() {
	local cmd want got bad=""
	options || return 1
	[ -f "$COMPLETION" ] || fail "no $COMPLETION (make docs)" || return 1
	for cmd in $(awk '{ print $1 }' "$TMP/options" | uniq); do
		want=$(awk -v c="$cmd" '$1 == c { print $2 }' "$TMP/options" | LC_ALL=C sort | tr '\n' ' ')
		got=$(complete_words "$cmd" -- | tr '\n' ' ')
		[ "$want" = "$got" ] || bad="$bad
      $cmd: table: $want
      $cmd: completion: $got"
	done
	[ -z "$bad" ] || fail "the completion's options differ from the tables:$bad"
}

test_the_completion_knows_subcommands_short_names_keys_and_formats() {
	local out
	[ -f "$COMPLETION" ] || fail "no $COMPLETION (make docs)" || return 1
	out=$(complete_words boards de)
	[ "$out" = detect ] || fail "boards de -> '$out', expected detect" || return 1
	out=$(complete_words run --board si)
	[ "$out" = sim ] || fail "run --board si -> '$out', expected sim (./boards/sim.yaml)" || return 1
	out=$(complete_words check --profile qui)
	[ "$out" = quick ] || fail "check --profile qui -> '$out', expected quick" || return 1
	out=$(complete_words run --profile=qui)
	[ "$out" = quick ] || fail "run --profile=qui -> '$out', expected quick" || return 1
	out=$(complete_words run --set limits.tm | tr '\n' ' ')
	[ "$out" = "limits.tmax= limits.tmin= " ] || fail "run --set limits.tm -> '$out'" || return 1
	out=$(complete_words analyze --format vc)
	[ "$out" = vcd ] || fail "analyze --format vc -> '$out'" || return 1
	out=$(complete_words analyze --worst '')
	[ -z "$out" ] || fail "analyze --worst: a number, but offered '$out'" || return 1
	out=$(complete_words tr)
	[ "$out" = trace-explain ] || fail "tr -> '$out'" || return 1
	out=$(complete_words --v)
	[ "$out" = --version ] || fail "--v -> '$out'"
}

cd "$ROOT" || exit 1
e2e_run "docs e2e"
