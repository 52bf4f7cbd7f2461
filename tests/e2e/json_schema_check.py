#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Validate JSON documents sqwave wrote against the shipped schemas
# (docs/schema/NAME.schema.json, JSON Schema 2020-12), each matched by its
# "schema" member; a document without a known schema is a failure.
# Needs python3-jsonschema (Debian).
# Usage: json_schema_check.py SCHEMA_DIR FILE|DIR...   (DIR: its *.json)
import json
import os
import sys

from jsonschema import Draft202012Validator


def load_schemas(d):
    schemas = {}
    for n in sorted(os.listdir(d)):
        if not n.endswith(".schema.json"):
            continue
        with open(os.path.join(d, n)) as f:
            s = json.load(f)
        Draft202012Validator.check_schema(s)
        name = s["properties"]["schema"]["const"]
        if n != name + ".schema.json":
            raise SystemExit("%s: names schema %s" % (n, name))
        schemas[name] = Draft202012Validator(s)
    return schemas


def documents(args):
    for a in args:
        if os.path.isdir(a):
            for n in sorted(os.listdir(a)):
                if n.endswith(".json"):
                    yield os.path.join(a, n)
        else:
            yield a


def where(err):
    return "/".join(str(p) for p in err.absolute_path) or "(top)"


def main():
    if len(sys.argv) < 3:
        print("usage: json_schema_check.py SCHEMA_DIR FILE|DIR...", file=sys.stderr)
        return 2
    schemas = load_schemas(sys.argv[1])
    bad = n = 0
    for path in documents(sys.argv[2:]):
        n += 1
        # the command that wrote it, when the e2e collector kept one
        cmd = ""
        if os.path.exists(path + ".cmd"):
            with open(path + ".cmd") as f:
                cmd = " (written by: %s)" % f.read().strip()
        try:
            with open(path) as f:
                doc = json.load(f)
        except ValueError as e:
            print("%s: not JSON: %s%s" % (path, e, cmd), file=sys.stderr)
            bad += 1
            continue
        name = doc.get("schema") if isinstance(doc, dict) else None
        if name not in schemas:
            print("%s: no shipped schema for \"schema\": %r%s" % (path, name, cmd), file=sys.stderr)
            bad += 1
            continue
        errs = sorted(schemas[name].iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errs[:5]:
            print("%s: %s: %s: %s%s" % (path, name, where(e), e.message[:300], cmd),
                  file=sys.stderr)
        bad += bool(errs)
    print("json schemas: %d documents, %d invalid" % (n, bad))
    return 1 if bad or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
