#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The oracle's fixed set (tests/oracle, docs/testing.md): every pair of the
# feature dimensions on the simulated board, seed 29, every figure held
# against the pins' record. One PASS/FAIL line per combination and refusal;
# a disagreement prints the command that reproduces it. Known disagreements
# (tests/oracle/known.py, issue 29) print as KNOWN and pass.
# Self-contained: SQWAVE=path/to/sqwave tests/e2e/oracle.sh from the repository root.
. "$(dirname "$0")/lib.sh" sqwave-e2e-oracle
cd "$ROOT" || exit 1
only=""
if [ -n "${ONLY:-}" ]; then
	# ONLY is a grep pattern on the test names (oracle_combination_N, oracle_refusal_NAME)
	only=$(python3 tests/oracle/oracle.py --sqwave "$SQWAVE" --seed 29 --list |
		awk '{print "oracle_" $1, $1}' | grep -e "^[^ ]*$ONLY" | awk '{print $2}' |
		sed 's/^combination_//; s/^refusal_//' | paste -sd, -)
	[ -n "$only" ] || { echo "oracle: no test matches '$ONLY'"; exit 0; }
fi
# Every file is kept until the end: keep-json's watchers copy the JSON
# documents after each sqwave exits, for run-all's schema pass.
e2e_cleanup() { sleep 1; }
python3 tests/oracle/oracle.py --sqwave "$SQWAVE" --seed 29 --keep "$TMP" ${only:+--only "$only"}
