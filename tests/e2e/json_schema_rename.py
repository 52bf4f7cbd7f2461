#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Does each shipped schema refuse what it should? For every sample document
# (each matched to docs/schema/NAME.schema.json by its "schema" member):
#  - each key at every depth renamed in turn (KEY_x) must be refused, unless
#    the object is an open map by design (its schema has patternProperties,
#    the renamed key matches one of them);
#  - each key that every sample of that schema has wherever its parent is
#    (an array's elements are one parent) removed in turn must be refused:
#    what every document has, the schema requires.
# An accepted document is a failure naming the document, the JSON path and
# the schema. Needs python3-jsonschema (Debian).
# Usage: json_schema_rename.py SCHEMA_DIR DIR   (DIR: the samples, *.json)
import copy
import json
import os
import re
import sys

from jsonschema import Draft202012Validator, validators

OPEN = set()   # id() of the objects a patternProperties keyword validated
SHAPE = {}     # id() of an object -> id() of the schemas that listed its members


def recording(keyword):
    base = Draft202012Validator.VALIDATORS[keyword]

    def check(validator, value, instance, schema):
        if isinstance(instance, dict):
            SHAPE.setdefault(id(instance), set()).add(id(schema))
            if keyword == "patternProperties":
                OPEN.add(id(instance))
        yield from base(validator, value, instance, schema)
    return check


# The same validator, noting which schema objects judged each object's
# members: two objects judged by the same ones (every distribution, every
# check of verdict.checks) are one shape, and a key renamed in one of them
# stands for the others.
Recording = validators.extend(Draft202012Validator, {
    k: recording(k) for k in ("properties", "patternProperties",
                              "additionalProperties", "unevaluatedProperties")})


# Members every sample here has but a document of another kind may lack:
# (schema, path with [] for array elements) -> when it is absent. A member
# missing from this table that every sample has must be required.
CONDITIONAL = {
    # an analysis of a capture (VCD, CSV) has no log header to take them from
    **{("sqwave-analysis", "." + k): "an analysis of a capture" for k in (
        "board", "breaks", "config", "containment", "host", "label", "phases",
        "proof", "rt", "run")},
    ("sqwave-analysis", ".worst.edges[].phase"): "a log without phases",
    ("sqwave-analysis", ".windows.rows[].tmin.bound_ns"): "a window without a pulse",
    ("sqwave-analysis", ".windows.worst.wake_max.window"): "no wake-up measured",
    ("sqwave-analysis", ".wake_latency.worst"): "a distribution without worst edge",
    ("sqwave-summary", ".wake_latency.worst"): "a distribution without worst edge",
    ("sqwave-analysis", ".pulse_width.any.histogram"): "no pulse",
    ("sqwave-summary", ".pulse_width.any.histogram"): "no pulse",
    **{(s, ".phases[].proof.loads[]." + k): "the members of one kind of load"
       for s in ("sqwave-summary", "sqwave-analysis")
       for k in ("busy_pct", "cpus", "killed", "lost", "restarts")},
    **{("sqwave-compare", ".alignment." + k): "a capture that did not align"
       for k in ("drift_ppm", "fit_edges", "fit_left_out", "fit_rms_ns", "fit_se_ns",
                 "inverted", "offset_ns", "ref_ns")},
    ("sqwave-compare", ".skew.checks.clock_error.why"): "a check that ran",
    **{("sqwave-summary", ".instrument.%s.%s" % (n, k)): "a scope that failed: error instead"
       for n in ("setup", "read") for k in ("channel", "idn", "dialect")},
    **{("sqwave-summary", ".instrument.read.%s_%s" % (p, k)): "a read that failed"
       for p in ("pos", "neg") for k in ("valid", "min_ns", "max_ns", "count")},
    **{("sqwave-report", ".rows[]." + k): "a row without pulses or wake-ups"
       for k in ("tmin_ns", "wake_max_ns", "wake_mean_ns", "wake_p50_ns")},
}


def keys(node, open_maps, path=(), gen=()):
    """(path of the parent, its general path, parent, key) of every key,
    depth first. The general path stands for the parents of one shape: an
    array's elements are [], an open map's members {}."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield path, gen, node, k
            yield from keys(v, open_maps, path + (k,),
                            gen + ("{}" if id(node) in open_maps else k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from keys(v, open_maps, path + (i,), gen + ("[]",))


def show(path, key=None):
    p = "".join("[%d]" % x if isinstance(x, int) else "." + x for x in path)
    p = p.replace(".[]", "[]")
    return (p + ("." + key if key is not None else "")) or "(top)"


def at(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def patterns_of(schema_doc):
    """Every patternProperties pattern anywhere in a schema."""
    out = []
    if isinstance(schema_doc, dict):
        for k, v in schema_doc.items():
            if k == "patternProperties" and isinstance(v, dict):
                out.extend(v.keys())
            out.extend(patterns_of(v))
    elif isinstance(schema_doc, list):
        for v in schema_doc:
            out.extend(patterns_of(v))
    return out


def main():
    if len(sys.argv) != 3:
        print("usage: json_schema_rename.py SCHEMA_DIR DIR", file=sys.stderr)
        return 2
    schemas, raw = {}, {}
    for n in sorted(os.listdir(sys.argv[1])):
        if n.endswith(".schema.json"):
            with open(os.path.join(sys.argv[1], n)) as f:
                s = json.load(f)
            raw[n[:-len(".schema.json")]] = s
            schemas[n[:-len(".schema.json")]] = Draft202012Validator(s)
    bad, docs = [], []
    for n in sorted(os.listdir(sys.argv[2])):
        if not n.endswith(".json"):
            continue
        with open(os.path.join(sys.argv[2], n)) as f:
            d = json.load(f)
        name = d.get("schema") if isinstance(d, dict) else None
        if name not in schemas:
            bad.append("%s: no shipped schema for %r" % (n, name))
            continue
        v = schemas[name]
        if not v.is_valid(d):
            e = next(v.iter_errors(d))
            bad.append("%s: invalid before any change: %s: %s" %
                       (n, show(tuple(e.absolute_path)), e.message[:200]))
            continue
        OPEN.clear()
        Recording(raw[name]).validate(d)
        docs.append((n, d, name, set(OPEN)))
    shape = dict(SHAPE)
    # what every sample of a schema has: (schema, general path) -> the
    # parents there, and those with each key
    always, parents = {}, {}
    for n, d, name, open_maps in docs:
        for path, gen, parent, k in keys(d, open_maps):
            parents.setdefault((name, gen), set()).add(id(parent))
            always.setdefault((name, gen), {}).setdefault(k, set()).add(id(parent))
    renames = removals = 0
    seen = set()
    for n, d, name, open_maps in docs:
        v, pats = schemas[name], patterns_of(raw[name])
        for path, gen, parent, k in list(keys(d, open_maps)):
            # one parent of a shape stands for the others, for each type
            # of the member (a respond run's respond is an object, a
            # wave's null)
            s = shape.get(id(parent))
            g = (name, frozenset(s) if s else gen, k, type(parent[k]).__name__)
            if g in seen:
                continue
            seen.add(g)
            new = k + "_x"
            if not (id(parent) in open_maps and any(re.search(p, new) for p in pats)):
                renames += 1
                c = copy.deepcopy(d)
                o = {(new if kk == k else kk): vv for kk, vv in at(c, path).items()}
                if path:
                    at(c, path[:-1])[path[-1]] = o
                else:
                    c = o
                if v.is_valid(c):
                    bad.append("%s: %s renamed %s: accepted by %s.schema.json" %
                               (n, show(path, k), new, name))
            # an open map's members are data; else what every sample has
            if id(parent) in open_maps or always[(name, gen)][k] != parents[(name, gen)]:
                continue
            if (name, show(gen, k).replace(".[]", "[]")) in CONDITIONAL:
                continue
            removals += 1
            c = copy.deepcopy(d)
            del at(c, path)[k]
            if v.is_valid(c):
                bad.append("%s: %s removed (every sample has it): accepted by %s.schema.json" %
                           (n, show(path, k), name))
    for b in bad:
        print(b)
    print("json schema renames: %d documents, %d renames, %d removals, %d accepted" %
          (len(docs), renames, removals, len(bad)))
    return 1 if bad or not docs else 0


if __name__ == "__main__":
    sys.exit(main())
