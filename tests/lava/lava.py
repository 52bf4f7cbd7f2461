#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""make test-lava's host side: the device, the MultiNode sub-jobs, the judgement.

device TEMPLATES DICT JOB OUT: render the device dictionary DICT (a
  Jinja2 file extending LAVA's qemu.jinja2) with TEMPLATES (the device-type
  templates of Debian's lava-server package) on the search path and the
  job JOB's context as the variables, which is what a LAVA server does
  before it hands the device to lava-run; write the YAML to OUT.
split JOB GROUP ID OUTDIR: the sub-jobs of the MultiNode job JOB, one per
  role, as a LAVA server makes and schedules them (each has the job's
  name, timeouts and so on, its role's device type and context, the
  lava-multinode protocol with target_group GROUP, its role, group_size,
  sub_id and the group's roles by job id, ID + sub_id, and the actions of
  its role): OUTDIR/ROLE.yaml, and "ROLE JOB_ID" lines on standard output.
check LOG TRACE: what lava-run recorded (LOG: its
  output, one {dt, lvl, msg} mapping a line; the "results" lines are the
  test cases LAVA stored) against what sqwave wrote in the guest (its
  result lines, which the job prints marked @@SQWAVE-FILE, @@SQWAVE-LINE) and
  what QEMU saw on the pins (TRACE: its pl061_set_output trace). One
  "PASS name" or "FAIL name: why" line per test; exit 1 if one failed.
check-multinode LEADER_LOG FOLLOWER_LOG: the same for the MultiNode job's
  two sub-jobs (contrib/lava/sqwave-multinode.yaml), and that both boards
  made their lava-sync/send/wait calls and ran from the same start.
"""
import os
import re
import sys

import yaml


def device(templates, dictionary, job, out):
    import jinja2   # only here: the judgement needs no Jinja2
    ctx = yaml.safe_load(open(job)).get("context", {})
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([os.path.dirname(os.path.abspath(dictionary)), templates]),
        trim_blocks=True, autoescape=False, undefined=jinja2.Undefined)
    text = env.get_template(os.path.basename(dictionary)).render(**ctx)
    dev = yaml.safe_load(text)   # it must be YAML, as lava-run reads it
    qemu = dev["actions"]["boot"]["methods"]["qemu"]["parameters"]
    if ctx.get("arch") not in dev["available_architectures"]:
        sys.exit("lava.py: %s has no architecture %s" % (dictionary, ctx.get("arch")))
    print("device: %s %s" % (qemu["command"], " ".join(qemu["options"] + qemu.get("extra", []))))
    open(out, "w").write(text)


def split(job_file, group, first_id, outdir):
    job = yaml.safe_load(open(job_file))
    proto = job["protocols"]["lava-multinode"]
    roles = proto["roles"]
    size = sum(r.get("count", 1) for r in roles.values())
    # the server's scheduler gives every sub-job the group's job ids and roles
    ids = {str(int(first_id) + n): role for n, role in enumerate(roles)}
    for sub_id, (role, spec) in enumerate(roles.items()):
        if spec.get("count", 1) != 1:
            sys.exit("lava.py split: one board per role here, not %s of %s" % (spec["count"], role))
        sub = {k: job[k] for k in ("job_name", "timeouts", "priority", "visibility", "metadata") if k in job}
        sub.update({k: spec[k] for k in ("device_type", "context") if k in spec})
        mn = {k: v for k, v in proto.items() if k != "roles"}
        mn.update({"target_group": group, "role": role, "group_size": size, "sub_id": sub_id,
                   "roles": ids})
        sub["protocols"] = {"lava-multinode": mn}
        sub["actions"] = []
        for action in job["actions"]:
            (kind, params), = action.items()
            if role in params.get("role", []):
                sub["actions"].append({kind: dict(params, role=role)})
        yaml.safe_dump(sub, open(os.path.join(outdir, role + ".yaml"), "w"), sort_keys=False)
        print(role, int(first_id) + sub_id)


def read_log(path):
    """(results, target lines) of a lava-run log"""
    results, target = [], []
    for line in open(path, encoding="utf-8", errors="replace"):
        if not line.startswith("{"):
            continue
        try:
            e = yaml.safe_load(line)
        except yaml.YAMLError:
            continue
        if not isinstance(e, dict):
            continue
        if e.get("lvl") == "results" and isinstance(e.get("msg"), dict):
            results.append(e["msg"])
        elif e.get("lvl") == "target":
            target.append(str(e.get("msg", "")))
    return results, target


def sqwave_files(target):
    """{path: [result line fields]} printed by the job's sqwave-files step:
    @@SQWAVE-FILE PATH, then each of its lines after @@SQWAVE-LINE"""
    files, cur = {}, None
    for line in target:
        line = line.rstrip("\r")
        if line.startswith("@@SQWAVE-FILE "):
            cur = files.setdefault(line.split(" ", 1)[1], [])
        elif line.startswith("@@SQWAVE-LINE ") and cur is not None:
            cur.append(line.split()[1:])
    return files


def pin_edges(trace, line):
    """the changes of a PL061 line's output in QEMU's trace"""
    edges, last = 0, None
    for text in open(trace, errors="replace"):
        m = re.search(r":pl061_set_output \S+ setting output (\d+) to (\d+)\s*$", text)
        if not m or int(m.group(1)) != line:
            continue
        v = int(m.group(2))
        if last is not None and v != last:
            edges += 1
        last = v
    return edges


def edges_in(lines):
    """the edge count of one result file's lines ("edges", or "lineL.edges")"""
    got = [float(f[2]) for f in lines if f[0].split(".")[-1] == "edges" and len(f) >= 3]
    return got[0] if len(got) == 1 else None


class Judge:
    def __init__(self):
        self.failed = 0

    def test(self, name, ok, why):
        if ok:
            print("PASS " + name)
        else:
            print("FAIL %s: %s" % (name, why))
            self.failed += 1
        return ok


def cases_of(results, definition):
    """{case name: record} of one test definition (its index_name)"""
    got = {}
    for r in results:
        if r.get("definition") == definition:
            got.setdefault(r["case"], []).append(r)
    return got


def same_case(rec, fields):
    """why LAVA's record rec is not the result line fields, or None"""
    name, result = fields[0], fields[1]
    if rec.get("result") != result:
        return "%s: LAVA has %s, sqwave wrote %s" % (name, rec.get("result"), result)
    if len(fields) >= 4:
        try:
            if float(rec.get("measurement")) != float(fields[2]):
                return "%s: LAVA has %s, sqwave wrote %s" % (name, rec.get("measurement"), fields[2])
        except (TypeError, ValueError):
            return "%s: LAVA has no measurement, sqwave wrote %s" % (name, fields[2])
        if rec.get("units") != fields[3]:
            return "%s: LAVA has units %s, sqwave wrote %s" % (name, rec.get("units"), fields[3])
    elif "measurement" in rec:
        return "%s: LAVA has a measurement %s, sqwave wrote none" % (name, rec["measurement"])
    return None


def check_definition(j, results, files, label, outdir, two, prefix=""):
    """the tests of one run of contrib/lava/sqwave.yaml or
    sqwave-multinode.yaml (definition *_label); test names start with
    prefix (a MultiNode role)"""
    defs = [r for r in results if r.get("definition") == "lava" and str(r.get("case", "")).endswith("_" + label)]
    label_ = prefix + label.replace("-", "_")
    j.test("lava_ran_the_definition_%s_from_the_working_tree" % label_,
           len(defs) == 1 and defs[0].get("result") == "pass",
           "LAVA's record of the definition: %s" % defs)
    if not defs:
        return
    cases = cases_of(results, defs[0]["case"])
    mine = {p: f for p, f in files.items() if p.startswith(outdir + "/")}
    lines = [f for p in sorted(mine) for f in mine[p]]
    run = cases.get("sqwave-run", [])
    ok = len(run) == 1 and run[0].get("units") == "code" and \
        float(run[0].get("measurement", -1)) in (0.0, 1.0) and \
        (run[0]["result"] == "pass") == (float(run[0]["measurement"]) == 0.0)
    j.test("lava_records_the_%s_run_as_sqwave_run_with_its_exit_code" % label_, ok,
           "sqwave-run records: %s" % run)
    want_files = 2 if two else 1
    j.test("%ssqwave_wrote_%d_result_file%s_in_the_guest" % (prefix, want_files, "s" if two else ""),
           len(mine) == want_files and all(mine.values()),
           "files printed: %s" % {p: len(f) for p, f in mine.items()})
    why = []
    names = [f[0] for f in lines]
    if len(set(names)) != len(names):
        why.append("result lines with the same name: %s" %
                   sorted({n for n in names if names.count(n) > 1}))
    for f in lines:
        recs = cases.get(f[0], [])
        if len(recs) != 1:
            why.append("%s: %d LAVA test cases" % (f[0], len(recs)))
            continue
        w = same_case(recs[0], f)
        if w:
            why.append(w)
    extra = sorted(n for n in set(cases) - set(names) - {"sqwave-run", "sqwave-install", "sqwave-start"}
                   if not (prefix and n.startswith("multinode-")))
    if extra:
        why.append("LAVA test cases sqwave did not write: %s" % extra)
    j.test("every_result_line_of_%s_is_one_lava_test_case_with_its_measurement" % label_,
           bool(lines) and not why, "; ".join(why[:8]) or "no result lines")
    return cases


def check(log, trace):
    j = Judge()
    results, target = read_log(log)
    job = [r for r in results if r.get("definition") == "lava" and r.get("case") == "job"]
    j.test("lava_run_finished_the_job", len(job) == 1 and job[0].get("result") == "pass",
           "the job's record: %s" % (job or "none (see the log)"))
    files = sqwave_files(target)
    check_definition(j, results, files, "sqwave-one-line", "/tmp/sqwave-one", False)
    # the pin: QEMU's trace holds every change of the PL061's outputs in the
    # job; line 0 toggled in both runs, line 2 in the two-line run only.
    # Each change is an edge sqwave counted, and only those: the counts
    # sqwave wrote (which LAVA's test cases must equal, above) add up to it.
    one_line = edges_in(files.get("/tmp/sqwave-one/result.txt", []))
    line0 = edges_in(files.get("/tmp/sqwave-two/result.0.txt", []))
    line2 = edges_in(files.get("/tmp/sqwave-two/result.2.txt", []))
    seen0, seen2 = pin_edges(trace, 0), pin_edges(trace, 2)
    j.test("every_change_qemu_saw_on_the_pins_is_an_edge_sqwave_counted",
           None not in (one_line, line0, line2) and one_line > 0 and
           one_line + line0 == seen0 and line2 == seen2,
           "line 0: %s + %s edges counted, %d changes in QEMU's trace; line 2: %s counted, %d changes"
           % (one_line, line0, seen0, line2, seen2))
    check_definition(j, results, files, "sqwave-two-lines", "/tmp/sqwave-two", True)
    return 1 if j.failed else 0


def check_multinode(leader_log, follower_log):
    """the MultiNode job's two sub-jobs: each passed, made its calls through
    the coordinator, reported its board's checks; both ran from one start"""
    j = Judge()
    start = {}
    calls = {"leader": ["sync-sqwave-ready", "send-sqwave-start", "sync-sqwave-go", "sync-sqwave-done"],
             "follower": ["sync-sqwave-ready", "wait-sqwave-start", "sync-sqwave-go", "sync-sqwave-done"]}
    for role, log in (("leader", leader_log), ("follower", follower_log)):
        results, target = read_log(log)
        job = [r for r in results if r.get("definition") == "lava" and r.get("case") == "job"]
        j.test("the_%s_sub_job_finished" % role, len(job) == 1 and job[0].get("result") == "pass",
               "the job's record: %s" % (job or "none (see the log)"))
        cases = check_definition(j, results, sqwave_files(target), "sqwave-two-boards", "/tmp/sqwave-mn",
                                 False, role + "_") or {}
        got = [c[len("multinode-"):] for c in cases if c.startswith("multinode-")]
        bad = [c for c in calls[role] if [r.get("result") for r in cases.get("multinode-" + c, [])] != ["pass"]]
        j.test("the_%s_s_multinode_calls_went_through_the_coordinator" % role, not bad,
               "not passed once: %s (LAVA has %s)" % (bad, got))
        s = cases.get("sqwave-start", [])
        start[role] = s[0].get("measurement") if len(s) == 1 and s[0].get("result") == "pass" else None
    j.test("both_boards_ran_from_the_start_the_leader_sent",
           start["leader"] is not None and start["leader"] == start["follower"],
           "sqwave-start: leader %s, follower %s" % (start["leader"], start["follower"]))
    return 1 if j.failed else 0


def main(argv):
    if len(argv) == 5 and argv[0] == "device":
        device(*argv[1:])
        return 0
    if len(argv) == 5 and argv[0] == "split":
        split(*argv[1:])
        return 0
    if len(argv) == 3 and argv[0] == "check":
        return check(argv[1], argv[2])
    if len(argv) == 3 and argv[0] == "check-multinode":
        return check_multinode(argv[1], argv[2])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
