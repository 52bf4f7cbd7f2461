#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The LAVA test definition's run step (sqwave.yaml): install or build
# sqwave, run one profile with --results, and report every result line with
# lava-test-case (NAME --result R [--measurement M --units U]); then the run
# itself as the test case "sqwave-run" (its exit code as the measurement),
# and the JSON summary printed between markers (and uploaded with -u) for
# `sqwave report` across boards. Without lava-test-case (a bench, a test)
# each case is printed as the signal lava-test-case itself sends,
# <LAVA_SIGNAL_TESTCASE TEST_CASE_ID=... RESULT=...>, which LAVA's log
# parser takes from the console.
# Usage: sqwave-lava.sh -b BOARD -p PROFILE [-i source|package|none]
#        [-d DEB] [-l LABEL] [-o OUTPUT] [-u UPLOAD_URL] [-a "SQWAVE ARGS"]
set -u
BOARD=sim PROFILE=quick INSTALL=none DEB="" LABEL="" OUTPUT=/tmp/sqwave-lava UPLOAD="" ARGS=""
while getopts "b:p:i:d:l:o:u:a:" opt; do
	case $opt in
	b) BOARD=$OPTARG ;;
	p) PROFILE=$OPTARG ;;
	i) INSTALL=$OPTARG ;;
	d) DEB=$OPTARG ;;
	l) LABEL=$OPTARG ;;
	o) OUTPUT=$OPTARG ;;
	u) UPLOAD=$OPTARG ;;
	a) ARGS=$OPTARG ;;
	*) echo "usage: $0 -b BOARD -p PROFILE [-i source|package|none] [-d DEB] [-l LABEL] [-o DIR] [-u URL] [-a ARGS]" >&2; exit 2 ;;
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

# 2. the run; its exit code says pass (0), a violated limit (1), or a
# problem with the setup (2 usage, 3 runtime: the checks may be missing)
mkdir -p "$OUTPUT" || raise "cannot create $OUTPUT"
rm -f "$OUTPUT/result.txt" "$OUTPUT/summary.json" "$OUTPUT/junit.xml" "$OUTPUT/run.sqwlog"
# shellcheck disable=SC2086 # ARGS is a list of options on purpose
sqwave run --board "$BOARD" --profile "$PROFILE" ${LABEL:+--label "$LABEL"} \
	--log "$OUTPUT/run.sqwlog" --json "$OUTPUT/summary.json" --junit "$OUTPUT/junit.xml" \
	--results "$OUTPUT/result.txt" --status-interval 10s $ARGS
rc=$?

# 3. every check, as it is in result.txt
if [ -f "$OUTPUT/result.txt" ]; then
	while read -r name result measurement units; do
		[ -n "$name" ] || continue
		if [ -n "$measurement" ]; then
			case_ "$name" "$result" "$measurement" "$units"
		else
			case_ "$name" "$result"
		fi
	done < "$OUTPUT/result.txt"
fi
case $rc in
0) case_ sqwave-run pass "$rc" code ;;
*) case_ sqwave-run fail "$rc" code ;;
esac

# 4. the JSON summary, for `sqwave report` over the boards of a farm
if [ -f "$OUTPUT/summary.json" ]; then
	echo "@@SQWAVE-SUMMARY-BEGIN"
	cat "$OUTPUT/summary.json"
	echo "@@SQWAVE-SUMMARY-END"
	if [ -n "$UPLOAD" ]; then
		if url=$(curl -fsS -F "file=@$OUTPUT/summary.json" "$UPLOAD"); then
			command -v lava-test-reference > /dev/null 2>&1 &&
				lava-test-reference sqwave-summary --result pass --reference "$url"
			echo "sqwave-lava: summary uploaded: $url"
		else
			case_ sqwave-summary-upload fail
		fi
	fi
fi
[ $rc -le 1 ] || raise "sqwave run exited $rc (2: usage or configuration, 3: runtime error)"
exit 0
