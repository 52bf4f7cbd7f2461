#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The LAVA test definitions' run step (sqwave.yaml, sqwave-multinode.yaml):
# install or build sqwave, run one profile with --results, and report every
# result line with lava-test-case (NAME --result R [--measurement M --units
# U]); then the run itself as the test case "sqwave-run" (its exit code as
# the measurement), and the JSON summary printed between markers (and
# uploaded with -u) for `sqwave report` across boards. A run of several
# lines (-a "--line 0,3") writes each line's result.L.txt, summary.L.json
# (and run.L.sqwlog): every line's results are reported, their names
# already "lineL.CHECK", and every line's summary printed. Without
# lava-test-case (a bench, a test) each case is printed as the signal
# lava-test-case itself sends, <LAVA_SIGNAL_TESTCASE TEST_CASE_ID=...
# RESULT=...>, which LAVA's log parser takes from the console.
# With -r (a MultiNode job, two boards on one grid: docs/lava-multinode.md)
# both lava-sync KEY-ready once installed; the leader picks the start
# instant and sends it (lava-send KEY-start start=SECONDS), the follower
# waits for it (lava-wait, then LAVA's cache file); both lava-sync KEY-go,
# run on the realtime grid from that instant (or the follower answers with
# `sqwave respond`: -c respond), and lava-sync KEY-done after reporting.
# Every MultiNode call is given at most -w seconds (0: no bound but the
# job's).
# Usage: sqwave-lava.sh -b BOARD -p PROFILE [-i source|package|none]
#        [-d DEB] [-l LABEL] [-o OUTPUT] [-u UPLOAD_URL] [-a "SQWAVE ARGS"]
#        [-r leader|follower [-c run|respond] [-k KEY] [-s LEAD_S] [-w WAIT_S]]
set -u
BOARD=sim PROFILE=quick INSTALL=none DEB="" LABEL="" OUTPUT=/tmp/sqwave-lava UPLOAD="" ARGS=""
ROLE="" CMD=run KEY=sqwave LEAD=15 WAIT=600
while getopts "b:p:i:d:l:o:u:a:r:c:k:s:w:" opt; do
	case $opt in
	b) BOARD=$OPTARG ;;
	p) PROFILE=$OPTARG ;;
	i) INSTALL=$OPTARG ;;
	d) DEB=$OPTARG ;;
	l) LABEL=$OPTARG ;;
	o) OUTPUT=$OPTARG ;;
	u) UPLOAD=$OPTARG ;;
	a) ARGS=$OPTARG ;;
	r) ROLE=$OPTARG ;;
	c) CMD=$OPTARG ;;
	k) KEY=$OPTARG ;;
	s) LEAD=$OPTARG ;;
	w) WAIT=$OPTARG ;;
	*) echo "usage: $0 -b BOARD -p PROFILE [-i source|package|none] [-d DEB] [-l LABEL] [-o DIR] [-u URL] [-a ARGS] [-r leader|follower [-c run|respond] [-k KEY] [-s LEAD_S] [-w WAIT_S]]" >&2; exit 2 ;;
	esac
done
HERE=$(cd "$(dirname "$0")" && pwd)

case_() {   # NAME RESULT [MEASUREMENT UNITS]
	if command -v lava-test-case > /dev/null 2>&1; then
		if [ $# -ge 4 ]; then
			lava-test-case "$1" --result "$2" --measurement "$3" --units "$4"
		else
			lava-test-case "$1" --result "$2"
		fi
	elif [ $# -ge 4 ]; then
		echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$1 RESULT=$2 MEASUREMENT=$3 UNITS=$4>"
	else
		echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$1 RESULT=$2>"
	fi
}
raise() {
	echo "sqwave-lava: $*" >&2
	command -v lava-test-raise > /dev/null 2>&1 && lava-test-raise "sqwave: $*"
	exit 1
}
# mn CALL ARGS...: a MultiNode call (lava-send, lava-wait, lava-sync), given
# at most WAIT seconds: LAVA's own bound is the job's lava-multinode timeout
mn() {
	echo "sqwave-lava: $*"
	if [ "$WAIT" -gt 0 ]; then
		timeout "$WAIT" "$@"
	else
		"$@"
	fi
}

case $CMD in
run|respond) ;;
*) raise "-c: run or respond, not '$CMD'" ;;
esac
case $ROLE in
"") ;;
leader)
	[ "$CMD" = run ] || raise "the leader runs the wave (-c run): the follower may respond to it" ;;
follower) ;;
*) raise "-r: the MultiNode roles are leader and follower, not '$ROLE' (name the job's roles so)" ;;
esac
case $KEY in
""|*[!A-Za-z0-9_.-]*) raise "-k: a message key of letters, digits, '_', '.' and '-', not '$KEY'" ;;
esac
for n in "$LEAD" "$WAIT"; do
	case $n in
	""|*[!0-9]*) raise "-s and -w are whole seconds, not '$LEAD' and '$WAIT'" ;;
	esac
done

# 1. sqwave on the DUT
case $INSTALL in
source)
	(cd "$HERE/../.." && scripts/install-deps && make -j"$(nproc)" PREFIX=/usr/local &&
		make install PREFIX=/usr/local) || raise "building sqwave from source failed"
	case_ sqwave-install pass ;;
package)
	export DEBIAN_FRONTEND=noninteractive
	if [ -n "$DEB" ]; then
		case $DEB in
		http://*|https://*) curl -fsSL -o /tmp/sqwave.deb "$DEB" || raise "cannot fetch $DEB"; DEB=/tmp/sqwave.deb ;;
		esac
		apt-get update -q && apt-get install -y -q "$(realpath "$DEB")"
	else
		apt-get update -q && apt-get install -y -q sqwave
	fi || raise "installing the sqwave package failed"
	case_ sqwave-install pass ;;
none) ;;
*) raise "-i: source, package or none, not '$INSTALL'" ;;
esac
command -v sqwave > /dev/null 2>&1 || raise "no sqwave in PATH"
sqwave --version

mkdir -p "$OUTPUT" || raise "cannot create $OUTPUT"
# an earlier run's files, of one line or of several, are not this run's
rm -f "$OUTPUT/result.txt" "$OUTPUT/summary.json" "$OUTPUT/junit.xml" "$OUTPUT/run.sqwlog" \
	"$OUTPUT"/result.*.txt "$OUTPUT"/summary.*.json "$OUTPUT"/junit.*.xml "$OUTPUT"/run.*.sqwlog

# line_of FILE BASE EXT: "lineL." for a line's file of a run of several
# (BASE.L.EXT, as sqwave names it: docs/lines.md), "" for the one file
line_of() {
	l=${1##*/}
	l=${l#"$2".}
	l=${l%."$3"}
	case $l in
	"$3") echo "" ;;
	*) echo "line$l." ;;
	esac
}

# 2. two boards (-r): both ready (sqwave installed), then one start instant
# on the realtime grid, sent by the leader: whole seconds since the epoch
# (UTC, what `date +%s` and --start-at read; LAVA splits a message's
# key=value pairs at blanks and '='). Both confirm they have it before
# either runs. The lead covers the coordinator's round trips and sqwave's
# set-up; a start that came too soon is refused by the run (exit 2), never
# started late.
GRID=""
if [ -n "$ROLE" ]; then
	mn lava-sync "$KEY-ready" || raise "lava-sync $KEY-ready failed (exit $?): the other board did not get ready"
	if [ "$ROLE" = leader ]; then
		START=$(( $(date +%s) + LEAD ))
		mn lava-send "$KEY-start" start="$START"
		src=$?
		if [ $src -ne 0 ]; then
			case_ sqwave-start fail
			raise "lava-send $KEY-start failed (exit $src)"
		fi
	else
		# LAVA writes the message's pairs to its cache file, one a line, as
		# SENDER:KEY=VALUE (lava-wait) or KEY=VALUE
		CACHE=${LAVA_MULTI_NODE_CACHE:-/tmp/lava_multi_node_cache.txt}
		rm -f "$CACHE"
		mn lava-wait "$KEY-start"
		wrc=$?
		START=$(sed -n 's/^\([^:=]*:\)\{0,1\}start=\([0-9][0-9]*\)$/\2/p' "$CACHE" 2> /dev/null | tail -n 1)
		if [ -z "$START" ]; then
			case_ sqwave-start fail
			[ $wrc -eq 124 ] && raise "no message $KEY-start from the leader in ${WAIT} s (-w): is a leader role running this definition with the same key?"
			raise "lava-wait $KEY-start: exit $wrc, no start=SECONDS in $CACHE"
		fi
	fi
	echo "sqwave-lava: $ROLE: the start is $START ($(date -u -d "@$START" +%Y-%m-%dT%H:%M:%SZ 2> /dev/null))"
	case_ sqwave-start pass "$START" s
	mn lava-sync "$KEY-go" || raise "lava-sync $KEY-go failed (exit $?): the other board did not get the start"
	[ "$CMD" = run ] && GRID="--grid realtime --start-at $START"
fi

# 3. the run; its exit code says pass (0), a violated limit (1), or a
# problem with the setup (2 usage, 3 runtime: the checks may be missing)
# shellcheck disable=SC2086 # ARGS and GRID are lists of options on purpose
sqwave "$CMD" --board "$BOARD" --profile "$PROFILE" ${LABEL:+--label "$LABEL"} \
	--log "$OUTPUT/run.sqwlog" --json "$OUTPUT/summary.json" --junit "$OUTPUT/junit.xml" \
	--results "$OUTPUT/result.txt" --status-interval 10s $GRID $ARGS
rc=$?

# 4. every check, as it is in result.txt, or in each line's result.L.txt
# (whose names start with "lineL.": two lines' checks are two test cases)
for f in "$OUTPUT/result.txt" "$OUTPUT"/result.*.txt; do
	[ -f "$f" ] || continue
	while read -r name result measurement units; do
		[ -n "$name" ] || continue
		if [ -n "$measurement" ]; then
			case_ "$name" "$result" "$measurement" "$units"
		else
			case_ "$name" "$result"
		fi
	done < "$f"
done
case $rc in
0) case_ sqwave-run pass "$rc" code ;;
*) case_ sqwave-run fail "$rc" code ;;
esac

# 5. the JSON summary, for `sqwave report` over the boards of a farm; with
# two boards also the log, for `sqwave compare A B CAPTURE`
upload() {   # FILE NAME
	if url=$(curl -fsS -F "file=@$1" "$UPLOAD"); then
		command -v lava-test-reference > /dev/null 2>&1 &&
			lava-test-reference "$2" --result pass --reference "$url"
		echo "sqwave-lava: $2 uploaded: $url"
	else
		case_ "$2-upload" fail
	fi
}
# (each line's, with several: its reference "lineL.sqwave-summary")
for f in "$OUTPUT/summary.json" "$OUTPUT"/summary.*.json; do
	[ -f "$f" ] || continue
	l=$(line_of "$f" summary json)
	[ -n "$l" ] && l2=${l#line} && echo "sqwave-lava: the summary of line ${l2%.}"
	echo "@@SQWAVE-SUMMARY-BEGIN"
	cat "$f"
	echo "@@SQWAVE-SUMMARY-END"
	[ -n "$UPLOAD" ] && upload "$f" "${l}sqwave-summary"
done
if [ -n "$UPLOAD" ] && [ -n "$ROLE" ]; then
	for f in "$OUTPUT/run.sqwlog" "$OUTPUT"/run.*.sqwlog; do
		[ -f "$f" ] && upload "$f" "$(line_of "$f" run sqwlog)sqwave-log"
	done
fi
# both boards end together, even when one run could not start: the other
# would otherwise wait for it until the job's timeout
if [ -n "$ROLE" ]; then
	mn lava-sync "$KEY-done" || raise "lava-sync $KEY-done failed (exit $?)"
fi
[ $rc -le 1 ] || raise "sqwave $CMD exited $rc (2: usage or configuration, 3: runtime error)"
exit 0
