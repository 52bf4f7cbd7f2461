#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of the LAVA test definitions (contrib/lava): their YAML is
# a Lava-Test Test Definition 1.0 whose parameters reach the run step (and,
# with lava-common, valid against LAVA's own schemas, as is the example
# MultiNode job), and the run step (sqwave-lava.sh, with a stand-in
# lava-test-case that records its arguments) reports every result line, the
# run, and the summary. The MultiNode definition runs both roles at once
# here, with stand-in lava-send, lava-wait and lava-sync talking through
# files. Timing is never asserted.
# Usage: SQWAVE=build/sqwave tests/e2e/lava.sh   (prints PASS/FAIL lines)
. "$(dirname "$0")/lib.sh" sqwave-lava

# definition_ok FILE SCOPE [STEP_TEXT]: FILE is a Lava-Test Test Definition
# 1.0 with SCOPE among its scopes, whose run step is sqwave-lava.sh (with
# STEP_TEXT) and passes every parameter, quoted, as the string LAVA gives.
definition_ok() {
	python3 - "$@" <<'PY'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
m = d["metadata"]
assert m["format"] == "Lava-Test Test Definition 1.0", m["format"]
assert m["name"] and m["description"] and sys.argv[2] in m["scope"], m
steps = " ".join(d["run"]["steps"])
for p in d["params"]:
    assert '"${%s}"' % p in steps, "parameter %s is not used by the run step" % p
    assert isinstance(d["params"][p], str), (p, "LAVA passes strings")
assert "sqwave-lava.sh" in steps, steps
if len(sys.argv) > 3:
    assert sys.argv[3] in steps, steps
PY
}

test_the_definition_is_lava_test_definition_1_0_and_passes_every_parameter() {
	python3 -c 'import yaml' 2> /dev/null || { echo "    (python3-yaml missing)"; return 77; }
	definition_ok "$ROOT/contrib/lava/sqwave.yaml" preempt-rt
}

test_every_result_line_becomes_one_lava_test_case_with_its_measurement() {
	mkdir -p "$TMP/bin"
	cat > "$TMP/bin/lava-test-case" <<EOF
#!/bin/sh
echo "\$*" >> "$TMP/cases"
EOF
	chmod +x "$TMP/bin/lava-test-case"
	ln -s "$SQWAVE" "$TMP/bin/sqwave"
	PATH=$TMP/bin:$PATH "$ROOT/contrib/lava/sqwave-lava.sh" -b "$ROOT/boards/sim.yaml" \
		-p "$ROOT/config/quick.yaml" -i none -o "$TMP/out" -l farm-run \
		-a "--duration 1s --quiet --tmax 400us" > "$TMP/log" 2>&1
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(tail -5 "$TMP/log")" || return 1
	python3 - "$TMP/out/result.txt" "$TMP/cases" "$TMP/log" <<'PY' || return 1
import json, sys
lines = [l.split() for l in open(sys.argv[1]).read().split("\n") if l]
cases = [l.split() for l in open(sys.argv[2]).read().split("\n") if l]
want = []
for f in lines:
    c = [f[0], "--result", f[1]]
    if len(f) == 4:
        c += ["--measurement", f[2], "--units", f[3]]
    want.append(c)
assert cases[:-1] == want, (cases, want)
assert cases[-1] == ["sqwave-run", "--result", "fail", "--measurement", "1", "--units", "code"], cases[-1]
assert ["tmax", "--result", "fail"] == cases[[c[0] for c in cases].index("tmax")][:3]
log = open(sys.argv[3]).read()
summary = json.loads(log.split("@@SQWAVE-SUMMARY-BEGIN\n")[1].split("@@SQWAVE-SUMMARY-END")[0])
assert summary["label"] == "farm-run" and summary["verdict"]["pass"] is False
PY
}

# lava_cases_check LOG OUTDIR LINE...: the <LAVA_SIGNAL_TESTCASE> lines of
# LOG are every check of each line's summary OUTDIR/summary.LINE.json, named
# lineLINE.[PHASE.][LOAD.]CHECK, with its result and, where the summary
# has a figure, that figure in the units result.txt gives it (durations in
# us); then sqwave-run. Each line's summary is in LOG between the markers.
lava_cases_check() {
	python3 - "$@" <<'PY2'
import json, math, os, re, sys
log, out, lines = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3:]
cases = [dict(kv.split("=", 1) for kv in m.group(1).split())
         for m in re.finditer(r"<LAVA_SIGNAL_TESTCASE ([^>]+)>", log)]
units = {"ns": ("us", 1e3), "count": ("count", 1), "percent": ("percent", 1), "pps": ("pps", 1)}
want = []
for line in lines:
    doc = json.load(open(os.path.join(out, "summary.%s.json" % line)))
    assert doc["line"]["name"] == line, doc["line"]
    for c in doc["verdict"]["checks"]:
        name = ".".join(["line" + line] + [p for p in (c["phase"], c["load"]) if p] + [c["name"]])
        w = {"TEST_CASE_ID": name, "RESULT": c["result"]}
        if c["observed"] is not None and c["unit"] is not None:
            u, div = units[c["unit"]]
            w["UNITS"], w["MEASUREMENT"] = u, c["observed"] / div
        want.append(w)
got = cases[:-1]
assert [c["TEST_CASE_ID"] for c in got] == [w["TEST_CASE_ID"] for w in want], (got, want)
assert len(set(c["TEST_CASE_ID"] for c in got)) == len(got), "two cases of one name"
for c, w in zip(got, want):
    assert c["RESULT"] == w["RESULT"], (c, w)
    assert ("UNITS" in c) == ("UNITS" in w), (c, w)
    if "UNITS" in w:
        # result.txt rounds: durations to 3 decimals of us, counts whole,
        # percent and pps to 0.1
        assert c["UNITS"] == w["UNITS"], (c, w)
        assert math.isclose(float(c["MEASUREMENT"]), w["MEASUREMENT"], abs_tol=0.051), (c, w)
assert cases[-1]["TEST_CASE_ID"] == "sqwave-run", cases[-1]
printed = [json.loads(t.split("@@SQWAVE-SUMMARY-END")[0])
           for t in log.split("@@SQWAVE-SUMMARY-BEGIN\n")[1:]]
assert [d["line"]["name"] for d in printed] == lines, [d.get("line") for d in printed]
for d in printed:
    assert d == json.load(open(os.path.join(out, "summary.%s.json" % d["line"]["name"])))
PY2
}

test_a_run_of_two_lines_reports_every_line_s_checks_under_its_own_name() {
	mkdir -p "$TMP/bin4"
	ln -s "$SQWAVE" "$TMP/bin4/sqwave"
	# no lava-test-case: the signals it would send, as LAVA reads them;
	# two half periods, so that the two lines' figures differ
	PATH=$TMP/bin4:$PATH "$ROOT/contrib/lava/sqwave-lava.sh" -b "$ROOT/boards/sim.yaml" \
		-p "$ROOT/config/quick.yaml" -i none -o "$TMP/out4" -a "--duration 1s --quiet \
		--line 0,3 --line-high 500us,250us --line-low 500us,250us" > "$TMP/log4" 2>&1
	local rc=$?
	[ $rc -eq 0 ] || fail "exit $rc: $(tail -5 "$TMP/log4")" || return 1
	lava_cases_check "$TMP/log4" "$TMP/out4" 0 3 || return 1
	# a second run with one line leaves no line's file of the first behind
	PATH=$TMP/bin4:$PATH "$ROOT/contrib/lava/sqwave-lava.sh" -b "$ROOT/boards/sim.yaml" \
		-p "$ROOT/config/quick.yaml" -i none -o "$TMP/out4" -a "--duration 1s --quiet" \
		> "$TMP/log4b" 2>&1 || fail "one line: $(tail -3 "$TMP/log4b")" || return 1
	! grep -q "TEST_CASE_ID=line" "$TMP/log4b" || fail "a line's case in a run of one" || return 1
	[ "$(grep -c "^@@SQWAVE-SUMMARY-BEGIN" "$TMP/log4b")" = 1 ] ||
		fail "not one summary: $(ls "$TMP/out4")"
}

test_summaries_from_two_boards_logs_feed_sqwave_report() {
	python3 -c 'import yaml' 2> /dev/null || { echo "    (python3-yaml missing)"; return 77; }
	mkdir -p "$TMP/bin3"
	ln -s "$SQWAVE" "$TMP/bin3/sqwave"
	local b
	for b in board-a board-b; do
		PATH=$TMP/bin3:$PATH "$ROOT/contrib/lava/sqwave-lava.sh" -b "$ROOT/boards/sim.yaml" \
			-p "$ROOT/config/quick.yaml" -i none -o "$TMP/$b" -l "$b" -a "--duration 1s --quiet" \
			> "$TMP/$b.log" 2>&1 || fail "$b: $(tail -3 "$TMP/$b.log")" || return 1
	done
	# one log as LAVA serves it (YAML entries), one as plain text
	python3 - "$TMP/board-a.log" "$TMP/job-17.yaml" <<'PY'
import sys, yaml
entries = [{"dt": "2026-01-01T00:00:00", "lvl": "target", "msg": l}
           for l in open(sys.argv[1]).read().split("\n")]
entries.insert(0, {"dt": "2026-01-01T00:00:00", "lvl": "info", "msg": "@@SQWAVE-SUMMARY-BEGIN"})
yaml.safe_dump(entries, open(sys.argv[2], "w"), default_flow_style=None, width=10**6)
PY
	"$ROOT/contrib/lava/summaries-from-logs" "$TMP/sum" "$TMP/job-17.yaml" "$TMP/board-b.log" \
		> "$TMP/sum.out" 2>&1 || fail "$(cat "$TMP/sum.out")" || return 1
	# exit 1 is a row's verdict (the quick profile's loose limits on a busy
	# host), not a failure to report
	local rc=0
	"$SQWAVE" report "$TMP"/sum/*.json --markdown "$TMP/report.md" --svg "$TMP/report.svg" -q \
		> /dev/null 2> "$TMP/report.err" || rc=$?
	[ $rc -le 1 ] || fail "report: rc $rc: $(cat "$TMP/report.err")" || return 1
	grep -q "board-a" "$TMP/report.md" && grep -q "board-b" "$TMP/report.md" ||
		fail "report: $(cat "$TMP/report.md")" || return 1
}

test_a_run_that_cannot_start_raises_instead_of_reporting_a_pass() {
	mkdir -p "$TMP/bin2"
	ln -s "$SQWAVE" "$TMP/bin2/sqwave"
	PATH=$TMP/bin2:$PATH "$ROOT/contrib/lava/sqwave-lava.sh" -b "$TMP/no-such-board.yaml" \
		-p "$ROOT/config/quick.yaml" -i none -o "$TMP/out2" > "$TMP/log2" 2>&1
	[ $? -ne 0 ] || fail "exit 0 for a missing board file" || return 1
	# without lava-test-case, the signal it would send: LAVA's parser takes
	# <LAVA_SIGNAL_NAME KEY=VALUE...> from the console, nothing else
	python3 - "$TMP/log2" <<'PY' || { fail "$(cat "$TMP/log2")"; return 1; }
import re, sys
cases = []
for m in re.finditer(r"<LAVA_SIGNAL_(\S+) ([^>]+)>", open(sys.argv[1]).read()):
    if m.group(1) == "TESTCASE":
        cases.append(dict(kv.split("=", 1) for kv in m.group(2).split()))
assert {"TEST_CASE_ID": "sqwave-run", "RESULT": "fail", "MEASUREMENT": "2",
        "UNITS": "code"} in cases, cases
PY
}

# LAVA's schemas come with Debian's lava-common, in the system's python3
lava_python() {
	local py
	for py in python3 /usr/bin/python3; do
		"$py" -c 'import lava_common.schemas, yaml' 2> /dev/null && { echo "$py"; return 0; }
	done
	return 1
}

test_the_multinode_definition_passes_every_parameter_and_lava_s_schema() {
	python3 -c 'import yaml' 2> /dev/null || { echo "    (python3-yaml missing)"; return 77; }
	definition_ok "$ROOT/contrib/lava/sqwave-multinode.yaml" multinode '-r "$(lava-role)"' ||
		return 1
	local py
	py=$(lava_python) || { echo "    (lava-common missing: LAVA's schema not checked)"; return 77; }
	"$py" - "$ROOT/contrib/lava/sqwave-multinode.yaml" "$ROOT/contrib/lava/sqwave.yaml" <<'PY'
import sys, yaml
from lava_common.schemas.test.testdef import validate
for f in sys.argv[1:]:
    validate(yaml.safe_load(open(f)))
PY
}

test_the_example_multinode_job_is_valid_against_lava_s_job_schema() {
	local py
	py=$(lava_python) || { echo "    (lava-common missing)"; return 77; }
	"$py" - "$ROOT/contrib/lava/examples/two-boards-job.yaml" "$ROOT/contrib/lava/sqwave-multinode.yaml" <<'PY'
import sys, yaml
from lava_common.schemas import validate
job = yaml.safe_load(open(sys.argv[1]))
params = yaml.safe_load(open(sys.argv[2]))["params"]
validate(job, strict=True)
roles = job["protocols"]["lava-multinode"]["roles"]
assert sorted(roles) == ["follower", "leader"], roles
assert all(r["count"] == 1 for r in roles.values()), roles
# each role runs the definition once, with parameters it has, and both
# roles agree on what they exchange
tests = {}
for a in job["actions"]:
    if "test" in a:
        t = a["test"]
        for role in t["role"]:
            for d in t["definitions"]:
                assert d["path"] == "contrib/lava/sqwave-multinode.yaml", d
                tests.setdefault(role, []).append(d["parameters"])
assert sorted(tests) == ["follower", "leader"] and all(len(v) == 1 for v in tests.values()), tests
for role, (p,) in tests.items():
    unknown = set(p) - set(params)
    assert not unknown, (role, "parameters the definition does not have", unknown)
    assert all(isinstance(v, str) for v in p.values()), (role, p)
assert tests["leader"][0]["COMMAND"] == "run", tests["leader"]
for k in ("SYNC_KEY", "START_LEAD"):
    assert tests["leader"][0].get(k) == tests["follower"][0].get(k), k
PY
}

# Stand-ins for LAVA's MultiNode API on this machine: each role's calls go
# to MN_DIR/calls.ROLE; a message is the file MN_DIR/msg.ID (SENDER:KEY=VALUE
# lines, what lava-wait leaves in LAVA_MULTI_NODE_CACHE); lava-sync waits
# for a file per role. Like LAVA's, lava-wait and lava-sync block forever.
mn_standins() {
	local b=$TMP/mnbin
	mkdir -p "$b"
	ln -sf "$SQWAVE" "$b/sqwave"
	cat > "$b/lava-role" <<'EOF'
#!/bin/sh
echo "$MN_ROLE"
EOF
	cat > "$b/lava-send" <<'EOF'
#!/bin/sh
id=$1
shift
echo "send $id $*" >> "$MN_DIR/calls.$MN_ROLE"
for kv in "$@"; do echo "$MN_SELF:$kv"; done > "$MN_DIR/.msg.$id.$$"
mv "$MN_DIR/.msg.$id.$$" "$MN_DIR/msg.$id"
EOF
	cat > "$b/lava-wait" <<'EOF'
#!/bin/sh
echo "wait $1" >> "$MN_DIR/calls.$MN_ROLE"
while [ ! -f "$MN_DIR/msg.$1" ]; do sleep 0.05; done
cp "$MN_DIR/msg.$1" "$LAVA_MULTI_NODE_CACHE"
EOF
	cat > "$b/lava-sync" <<'EOF'
#!/bin/sh
id=$1
echo "sync $id" >> "$MN_DIR/calls.$MN_ROLE"
: > "$MN_DIR/sync.$id.$MN_ROLE"
while :; do
	set -- "$MN_DIR/sync.$id".*
	[ $# -ge 2 ] && exit 0
	sleep 0.05
done
EOF
	cat > "$b/lava-test-case" <<'EOF'
#!/bin/sh
echo "$*" >> "$MN_DIR/cases.$MN_ROLE"
EOF
	cat > "$b/lava-test-raise" <<'EOF'
#!/bin/sh
echo "$*" >> "$MN_DIR/raise.$MN_ROLE"
EOF
	cat > "$b/lava-test-reference" <<'EOF'
#!/bin/sh
echo "$*" >> "$MN_DIR/references.$MN_ROLE"
EOF
	# an artifact store: curl -fsS -F file=@PATH URL prints the file's link
	cat > "$b/curl" <<'EOF'
#!/bin/sh
for a in "$@"; do
	case $a in file=@*) echo "${a#file=@} $*" >> "$MN_DIR/uploads.$MN_ROLE"; echo "https://store.example/$MN_ROLE/${a##*/}" ;; esac
done
EOF
	chmod +x "$b"/lava-* "$b/curl"
}

# mn_role DIR ROLE [PARAM=VALUE...]: the MultiNode definition's run steps as
# LAVA's test shell runs them (the parameters as shell variables, the job's
# over the definition's, then set -e and the steps), from the repository's
# root, as ROLE; output in DIR/ROLE.log, exit code returned. The outer
# timeout is a guard against a hang, not a measurement.
mn_role() {
	local dir=$1 role=$2
	shift 2
	mkdir -p "$dir/$role"
	python3 - "$ROOT/contrib/lava/sqwave-multinode.yaml" "$dir/$role.sh" \
		BOARD="$ROOT/boards/sim.yaml" PROFILE="$ROOT/config/quick.yaml" INSTALL=none \
		OUTPUT="$dir/$role/out" LABEL="$role" SQWAVE_ARGS="--duration 1s --quiet" \
		START_LEAD=3 WAIT_TIMEOUT=60 "$@" <<'PY' || return 1
import shlex, sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
params = dict(d["params"])
for a in sys.argv[3:]:
    k, v = a.split("=", 1)
    assert k in params, "no parameter " + k
    params[k] = v
with open(sys.argv[2], "w") as f:
    f.writelines("%s=%s\n" % (k, shlex.quote(v)) for k, v in params.items())
    f.write("set -e\n")
    f.writelines(s + "\n" for s in d["run"]["steps"])
PY
	(cd "$ROOT" && MN_DIR=$dir MN_ROLE=$role MN_SELF=$role.job LAVA_MULTI_NODE_CACHE=$dir/$role.cache \
		PATH=$TMP/mnbin:$PATH timeout -k 5 120 sh "$dir/$role.sh") > "$dir/$role.log" 2>&1
}

# mn_cases_check DIR ROLE: every line of ROLE's result.txt is one of its
# lava-test-case calls, between sqwave-start and sqwave-run
mn_cases_check() {
	python3 - "$1/$2/out/result.txt" "$1/cases.$2" <<'PY'
import sys
lines = [l.split() for l in open(sys.argv[1]).read().split("\n") if l]
cases = [l.split() for l in open(sys.argv[2]).read().split("\n") if l]
want = []
for f in lines:
    c = [f[0], "--result", f[1]]
    if len(f) == 4:
        c += ["--measurement", f[2], "--units", f[3]]
    want.append(c)
assert lines and cases[1:-1] == want, (cases, want)
assert cases[0][:3] == ["sqwave-start", "--result", "pass"], cases[0]
assert cases[-1][:2] == ["sqwave-run", "--result"] and cases[-1][4] in ("0", "1"), cases[-1]
PY
}

test_two_roles_take_one_start_from_the_message_and_share_every_grid_instant() {
	python3 -c 'import yaml' 2> /dev/null || { echo "    (python3-yaml missing)"; return 77; }
	mn_standins
	local d=$TMP/mn2 rl rf r
	mkdir -p "$d"
	mn_role "$d" leader UPLOAD_URL=https://store.example/up &
	local pl=$!
	mn_role "$d" follower UPLOAD_URL=https://store.example/up
	rf=$?
	wait $pl
	rl=$?
	[ $rl -eq 0 ] && [ $rf -eq 0 ] ||
		fail "exit $rl and $rf: $(tail -5 "$d/leader.log" "$d/follower.log")" || return 1
	for r in leader follower; do
		"$SQWAVE" export "$d/$r/out/run.sqwlog" --csv "$d/$r.csv" &&
			"$SQWAVE" export "$d/$r/out/run.sqwlog" --meta > "$d/$r.meta" ||
			fail "$r: export failed" || return 1
		mn_cases_check "$d" "$r" || fail "$r: the results are not its test cases" || return 1
		grep -q "^@@SQWAVE-SUMMARY-END" "$d/$r.log" || fail "$r: no summary in the log" || return 1
		# the summary and the log went to the store, for report and compare
		[ "$(cut -d' ' -f1 "$d/uploads.$r")" = "$(printf '%s\n' "$d/$r/out/summary.json" "$d/$r/out/run.sqwlog")" ] ||
			fail "$r: uploads: $(cat "$d/uploads.$r")" || return 1
		grep -qx "sqwave-log --result pass --reference https://store.example/$r/run.sqwlog" "$d/references.$r" ||
			fail "$r: references: $(cat "$d/references.$r")" || return 1
	done
	python3 - "$d" <<'PY' || fail "the two roles are not on one grid from the sent start"
import csv, json, os, sys
d = sys.argv[1]
calls = {r: open(os.path.join(d, "calls." + r)).read().split("\n")[:-1] for r in ("leader", "follower")}
sent = calls["leader"][1].split()
assert sent[:2] == ["send", "sqwave-start"] and len(sent) == 3, calls["leader"]
start = int(sent[2].split("=", 1)[1])
# the order of the exchange: ready, the start, go, the runs, done
assert calls["leader"] == ["sync sqwave-ready", " ".join(sent), "sync sqwave-go", "sync sqwave-done"], calls
assert calls["follower"] == ["sync sqwave-ready", "wait sqwave-start", "sync sqwave-go", "sync sqwave-done"], calls
assert open(os.path.join(d, "follower.cache")).read() == "leader.job:start=%d\n" % start
edges = {}
for r in ("leader", "follower"):
    # both reported the start they ran from
    cases = open(os.path.join(d, "cases." + r)).read()
    assert "sqwave-start --result pass --measurement %d --units s\n" % start in cases, (r, cases)
    g = json.load(open(os.path.join(d, r, "out", "summary.json")))["grid"]
    assert g["clock"] == "realtime" and g["align_ns"] == 0, (r, g)
    assert g["slot0_ns"] == start * 10**9, (r, g, start)
    meta = dict(l.rstrip("\n").split("=", 1) for l in open(os.path.join(d, r + ".meta")) if "=" in l)
    assert int(meta["grid.slot0_ns"]) == start * 10**9, (r, meta["grid.slot0_ns"])
    half = int(meta["half_period_ns"])
    rows = list(csv.DictReader(open(os.path.join(d, r + ".csv"))))
    assert len(rows) > 100, (r, len(rows))
    ts = [int(x["intended_grid_ns"]) for x in rows]
    assert all((t - start * 10**9) % half == 0 and t >= start * 10**9 for t in ts), (r, "off the grid", ts[:3])
    # the edges served before the first missed period (a loaded machine may
    # miss some; they are counted, and only shift what follows)
    clean = []
    for x, t in zip(rows, ts):
        if x["expirations"] != "1":
            break
        clean.append(t)
    edges[r] = (clean, set(ts))
a, b = edges["leader"][0], edges["follower"][0]
n = min(len(a), len(b))
if n:
    assert a[:n] == b[:n], ("the boards' edges differ", a[:3], b[:3])
    assert a[0] == start * 10**9, a[:3]
assert edges["leader"][1] & edges["follower"][1], "no edge in common"
PY
}

test_two_roles_of_two_lines_each_report_and_upload_every_line() {
	python3 -c 'import yaml' 2> /dev/null || { echo "    (python3-yaml missing)"; return 77; }
	mn_standins
	local d=$TMP/mnlines rl rf r l
	mkdir -p "$d"
	mn_role "$d" leader UPLOAD_URL=https://store.example/up \
		SQWAVE_ARGS="--duration 1s --quiet --line 0,3" &
	local pl=$!
	mn_role "$d" follower UPLOAD_URL=https://store.example/up \
		SQWAVE_ARGS="--duration 1s --quiet --line 0,3"
	rf=$?
	wait $pl
	rl=$?
	[ $rl -eq 0 ] && [ $rf -eq 0 ] ||
		fail "exit $rl and $rf: $(tail -5 "$d/leader.log" "$d/follower.log")" || return 1
	for r in leader follower; do
		# the lava-test-case calls as the signals they stand for, between
		# sqwave-start and sqwave-run
		python3 - "$d/cases.$r" > "$d/$r.signals" <<'PY2' || return 1
import sys
for c in open(sys.argv[1]).read().split("\n")[:-1]:
    a = c.split()
    kv = ["TEST_CASE_ID=" + a[0], "RESULT=" + a[2]]
    if len(a) > 3:
        kv += ["MEASUREMENT=" + a[4], "UNITS=" + a[6]]
    print("<LAVA_SIGNAL_TESTCASE %s>" % " ".join(kv))
PY2
		head -1 "$d/$r.signals" | grep -q "TEST_CASE_ID=sqwave-start RESULT=pass" ||
			fail "$r: $(head -1 "$d/$r.signals")" || return 1
		{ tail -n +2 "$d/$r.signals"; sed -n '/^@@SQWAVE-SUMMARY-BEGIN/,/^@@SQWAVE-SUMMARY-END/p' "$d/$r.log"; } \
			> "$d/$r.check"
		lava_cases_check "$d/$r.check" "$d/$r/out" 0 3 || fail "$r: its cases" || return 1
		# every line's summary and log went to the store, each its own reference
		[ "$(cut -d' ' -f1 "$d/uploads.$r")" = "$(printf '%s\n' "$d/$r/out/summary.0.json" \
			"$d/$r/out/summary.3.json" "$d/$r/out/run.0.sqwlog" "$d/$r/out/run.3.sqwlog")" ] ||
			fail "$r: uploads: $(cat "$d/uploads.$r")" || return 1
		for l in 0 3; do
			grep -qx "line$l.sqwave-summary --result pass --reference https://store.example/$r/summary.$l.json" "$d/references.$r" &&
				grep -qx "line$l.sqwave-log --result pass --reference https://store.example/$r/run.$l.sqwlog" "$d/references.$r" ||
				fail "$r: references: $(cat "$d/references.$r")" || return 1
		done
	done
}

test_a_follower_that_never_gets_the_start_fails_clearly_after_its_timeout() {
	python3 -c 'import yaml' 2> /dev/null || { echo "    (python3-yaml missing)"; return 77; }
	mn_standins
	local d=$TMP/mnlone rc
	mkdir -p "$d"
	# the leader never sends: a "ready" in its name lets the follower reach
	# lava-wait, where no message ever arrives
	: > "$d/sync.sqwave-ready.leader"
	mn_role "$d" follower WAIT_TIMEOUT=2
	rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 137 ] ||
		fail "exit $rc (124 or 137: it hung): $(tail -5 "$d/follower.log")" || return 1
	grep -q "no message sqwave-start from the leader in 2 s" "$d/follower.log" ||
		fail "no clear message: $(tail -5 "$d/follower.log")" || return 1
	grep -q "no message sqwave-start" "$d/raise.follower" || fail "lava-test-raise was not called" || return 1
	grep -qx "sqwave-start --result fail" "$d/cases.follower" ||
		fail "no failed sqwave-start case: $(cat "$d/cases.follower")" || return 1
	[ ! -e "$d/follower/out/result.txt" ] || fail "it ran without a start" || return 1
	if ! grep -qx "wait sqwave-start" "$d/calls.follower" || grep -q "sqwave-go" "$d/calls.follower"; then
		fail "calls: $(cat "$d/calls.follower")"
	fi
}

test_a_follower_can_respond_to_the_leader_s_wave_and_a_leader_cannot() {
	python3 -c 'import yaml' 2> /dev/null || { echo "    (python3-yaml missing)"; return 77; }
	mn_standins
	local d=$TMP/mnresp rl rf
	mkdir -p "$d"
	mn_role "$d" leader &
	local pl=$!
	mn_role "$d" follower COMMAND=respond SQWAVE_ARGS="--duration 2s --quiet"
	rf=$?
	wait $pl
	rl=$?
	[ $rl -eq 0 ] && [ $rf -eq 0 ] ||
		fail "exit $rl and $rf: $(tail -5 "$d/leader.log" "$d/follower.log")" || return 1
	mn_cases_check "$d" follower || fail "the respond results are not its test cases" || return 1
	grep -q "^response_max " "$d/follower/out/result.txt" || fail "not a respond run" || return 1
	"$SQWAVE" export "$d/follower/out/run.sqwlog" --meta | grep -qx "run.mode=respond" ||
		fail "the follower's log is not a respond log" || return 1
	grep -qx "sync sqwave-done" "$d/calls.follower" || fail "no final sync" || return 1
	# the wave is the leader's: a leader told to respond refuses before any call
	local e=$TMP/mnlead
	mkdir -p "$e"
	if mn_role "$e" leader COMMAND=respond; then
		fail "a responding leader ran"
		return 1
	fi
	grep -q "the leader runs the wave" "$e/leader.log" || fail "$(tail -3 "$e/leader.log")" || return 1
	[ ! -e "$e/calls.leader" ] || fail "calls: $(cat "$e/calls.leader")"
}

e2e_run --subshell --short --prefix "lava: " --count-skips "lava e2e"
