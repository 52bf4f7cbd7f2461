#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs sqwave on the DUT and writes output/result.txt, one line per check of
# every line: "lineNAME.CHECK pass|fail|skip [VALUE UNITS]", from sqwave's
# own --results files (docs/ci.md), then "sqwave-run pass|fail CODE code".
# Needs no LAVA helper: send-to-lava.sh (the definition's next step) turns
# result.txt into test cases. The run's log, summaries and a KCIDB document
# of the same checks (output/kcidb.json) stay in output/.

OUTPUT="$(pwd)/output"
RESULT_FILE="${OUTPUT}/result.txt"

BOARD=""
PROFILE=""
LINES=""
DURATION=""
ARGS=""
SQWAVE="sqwave"

usage() {
    echo "Usage: $0 -b board [-p profile] [-l lines] [-d duration] [-a 'sqwave run options'] [-s sqwave]" 1>&2
    exit 1
}

while getopts ":b:p:l:d:a:s:" opt; do
    case "${opt}" in
        b) BOARD="${OPTARG}" ;;
        p) PROFILE="${OPTARG}" ;;
        l) LINES="${OPTARG}" ;;
        d) DURATION="${OPTARG}" ;;
        a) ARGS="${OPTARG}" ;;
        s) SQWAVE="${OPTARG}" ;;
        *) usage ;;
    esac
done
[ -n "${BOARD}" ] || usage

# A line's name as sqwave puts it into a file name: letters, digits, '-'
# and '_' kept, anything else '_'.
name_part() {
    printf '%s' "$1" | tr -c 'A-Za-z0-9_-' '_'
}

# One line's checks, each name given the line's prefix as sqwave gives it
# in a run of several lines (lineNAME.CHECK, docs/ci.md); a one-line run's
# names have none, and get it here.
add_line() {
    # $1: the line's name, $2: its result file
    [ -f "$2" ] || return 0
    p="line$(name_part "$1")."
    sed "/^${p}/!s/^/${p}/" "$2" >> "${RESULT_FILE}"
}

rm -rf "${OUTPUT}"
mkdir -p "${OUTPUT}"
: > "${RESULT_FILE}"

set -- --board "${BOARD}"
[ -z "${PROFILE}" ] || set -- "$@" --profile "${PROFILE}"
[ -z "${LINES}" ] || set -- "$@" --line "${LINES}"
[ -z "${DURATION}" ] || set -- "$@" --duration "${DURATION}"
# ARGS is split into words on purpose: it holds options
# shellcheck disable=SC2086
"${SQWAVE}" run "$@" ${ARGS} --quiet --log "${OUTPUT}/sqwave.sqwlog" \
    --json "${OUTPUT}/summary.json" --results "${OUTPUT}/sqwave-result.txt" \
    --kcidb "${OUTPUT}/kcidb.json" > "${OUTPUT}/sqwave.txt" 2>&1
rc=$?
cat "${OUTPUT}/sqwave.txt"

case "${LINES}" in
    *,*)
        # several lines: sqwave-result.LINE.txt each (docs/lines.md)
        rest="${LINES},"
        while [ -n "${rest}" ]; do
            line="${rest%%,*}"
            rest="${rest#*,}"
            add_line "${line}" "${OUTPUT}/sqwave-result.$(name_part "${line}").txt"
        done
        ;;
    "")
        # the board's own line: gpio.line as the summary has it (sqwave's
        # JSON writer puts a member's value on the line after its key)
        line=$(sed -n '/"gpio.line": {/{n;s/^ *"value": "\(.*\)",$/\1/p;q;}' \
            "${OUTPUT}/summary.json" 2> /dev/null)
        add_line "${line:-0}" "${OUTPUT}/sqwave-result.txt"
        ;;
    *)
        add_line "${LINES}" "${OUTPUT}/sqwave-result.txt"
        ;;
esac

# The run itself: exit 0 pass, 1 a limit violated (the checks say which),
# 2 a usage or configuration error, 3 a runtime error (sqwave.txt says).
if [ "${rc}" -eq 0 ]; then
    echo "sqwave-run pass ${rc} code" >> "${RESULT_FILE}"
else
    echo "sqwave-run fail ${rc} code" >> "${RESULT_FILE}"
fi
cat "${RESULT_FILE}"
exit 0
