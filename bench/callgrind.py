# SPDX-License-Identifier: GPL-2.0-or-later
# A small reader for callgrind output files (format: valgrind's
# docs/callgrind-format) and the instructions-per-edge arithmetic of bench.
"""Parse a callgrind.out file into self costs and call edges."""

import re

_NAMED = re.compile(r"^\((\d+)\)(?:\s+(.*))?$")


class Profile:
    def __init__(self):
        self.events = []
        self.self_cost = {}   # fn -> Ir
        self.calls = {}       # (caller, callee) -> [count, inclusive Ir]
        self.totals = None


def _name(table, spec):
    """'(n) name' defines id n; '(n)' refers to it; a bare name is itself."""
    m = _NAMED.match(spec.strip())
    if not m:
        return spec.strip()
    if m.group(2) is not None:
        table[m.group(1)] = m.group(2)
    return table.get(m.group(1), spec.strip())


def load(path):
    p = Profile()
    names = {}
    fn = cfn = None
    pending_calls = None
    with open(path) as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            c0 = line[0]
            if c0.isdigit() or c0 in "+-*":
                cost = line.split()
                ir = int(cost[1]) if len(cost) > 1 else 0  # first event: Ir
                if pending_calls is not None:
                    e = p.calls.setdefault((fn, cfn), [0, 0])
                    e[0] += pending_calls
                    e[1] += ir
                    pending_calls = None
                else:
                    p.self_cost[fn] = p.self_cost.get(fn, 0) + ir
                continue
            key, _, val = line.partition("=")
            if key == "fn":
                fn = _name(names, val)
            elif key == "cfn":
                cfn = _name(names, val)
            elif key == "calls":
                pending_calls = int(val.split()[0])
            elif key in ("ob", "cob", "fl", "fi", "fe", "cfi", "cfl"):
                _name({}, val)  # file/object names: separate id spaces, unused
            elif line.startswith("events:"):
                p.events = line.split()[1:]
            elif line.startswith("totals:") or line.startswith("summary:"):
                p.totals = int(line.split()[1])
    return p


def inclusive(p, fn):
    return p.self_cost.get(fn, 0) + sum(v[1] for (a, _), v in p.calls.items() if a == fn)


# The dynamic linker's lazy binding runs once per libc function whose first
# call in the process comes from the collected thread: one-time work, however
# many such functions there are (so not caught by "called at most twice").
LAZY_BINDING = ("_dl_runtime_resolve", "_dl_fixup")


def per_edge(p, root, excluded, edge_fn):
    """Instructions per edge spent under @root (collected with
    --toggle-collect=@root), minus the calls to @excluded and minus one-time
    calls (called at most twice: setup before the loop, rusage at the ends;
    and lazy symbol binding). What remains is the loop's own user-space work:
    with the RT loop, its code, the libc wrappers of poll(), read() and
    clock_gettime() (the system calls themselves are kernel time, which
    callgrind does not see) and the helpers it calls once per edge.
    Edges are counted as calls from @root to @edge_fn."""
    callees = {b: v for (a, b), v in p.calls.items() if a == root}
    if edge_fn not in callees:
        raise SystemExit(f"bench: callgrind: {root} never calls {edge_fn}; inlined?")
    edges = callees[edge_fn][0]
    incl = inclusive(p, root)
    breakdown, one_time, excl = [], [], 0
    per_edge_total = p.self_cost.get(root, 0)
    breakdown.append((f"`{root}` itself (incl. what the compiler inlined into it)",
                      p.self_cost.get(root, 0) / edges))
    for name, (n, cost) in sorted(callees.items(), key=lambda kv: -kv[1][1]):
        if name in excluded:
            excl += cost
        elif (n <= 2 and edges > 10) or name.startswith(LAZY_BINDING):
            one_time.append({"function": name, "calls": n, "instructions": cost})
        else:
            per_edge_total += cost
            breakdown.append((f"`{name}` ({n / edges:.2f} calls/edge)", cost / edges))
    return {
        "edges": edges,
        "root_inclusive": incl,
        "per_edge_total": per_edge_total / edges,
        "per_edge_excluded": excl / edges,
        "one_time": one_time,
        "one_time_total": sum(o["instructions"] for o in one_time),
        "breakdown": breakdown,
        "callees": [{"function": b, "calls": v[0], "instructions": v[1]}
                    for b, v in sorted(callees.items(), key=lambda kv: -kv[1][1])],
        "callees_of_excluded": {
            b: {"calls": v[0], "instructions": v[1]}
            for (a, b), v in p.calls.items() if a in excluded},
    }
