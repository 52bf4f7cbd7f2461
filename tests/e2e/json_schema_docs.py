#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Do the shipped schemas and their doc pages name the same members?
#  - every member a schema names, at any depth, is named in one of its pages
#    (in backticks: `name`, a dotted path with it, or a {a, b} list);
#  - every value of a closed enumeration (a check's name, a state) is
#    written in one of its pages;
#  - where a page has a table of the document's top-level members, the table
#    and the schema's top level name the same members, both ways.
# Usage: json_schema_docs.py SCHEMA_DIR DOCS_DIR   (prints what disagrees)
import json
import os
import re
import sys

# The pages that document each schema's members (json-summary.md documents
# the shapes the documents share: the pin, a distribution).
PAGES = {
    "sqwave-summary": ["json-summary.md", "loopback.md", "grid.md", "timerlat.md",
                       "respond.md", "lines.md", "soak.md"],
    "sqwave-analysis": ["analyze.md", "json-summary.md", "loopback.md", "timerlat.md",
                        "capture-formats.md", "grid.md", "respond.md", "soak.md"],
    "sqwave-compare": ["compare.md", "json-summary.md"],
    "sqwave-check": ["check.md", "json-summary.md"],
    "sqwave-report": ["json-summary.md", "report.md"],
    "sqwave-trend": ["report.md", "json-summary.md"],
    "sqwave-scope": ["instruments.md", "json-summary.md"],
    "sqwave-regress": ["report.md", "json-summary.md"],
    "sqwave-capture": ["instruments.md", "json-summary.md"],
}
# The table of top-level members: (page, the heading the table is under)
TABLES = {
    "sqwave-summary": ("json-summary.md", "## Top level"),
    "sqwave-compare": ("compare.md", "## JSON (`--json FILE`)"),
    "sqwave-report": ("json-summary.md", "## report"),
}


def member_names(node, out):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "properties" and isinstance(v, dict):
                out.update(v.keys())
            member_names(v, out)
    elif isinstance(node, list):
        for v in node:
            member_names(v, out)


def enum_values(node, out):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "enum":
                out.update(x for x in v if isinstance(x, str))
            enum_values(v, out)
    elif isinstance(node, list):
        for v in node:
            enum_values(v, out)


def top_names(schema):
    """The top level's members, those of per-kind branches included."""
    out = set(schema.get("properties", {}))
    for k in ("then", "else"):
        out.update(schema.get(k, {}).get("properties", {}))
    for b in schema.get("allOf", []):
        for k in ("then", "else"):
            out.update(k2 for k2 in b.get(k, {}).get("properties", {}))
    return out


def backticked(text):
    """Every word named in backticks, and each part of a dotted one."""
    words = set()
    for m in re.findall(r"`([^`]*)`", text, re.S):
        for w in re.findall(r"[A-Za-z0-9_.]+", m):
            words.add(w)
            words.update(w.split("."))
    return words


def table_top(page, heading):
    """The top-level members the first table under the heading names: the
    first part of each name in a row's first cell (`a.b`, `c` continues
    a's members when the cell begins with a dotted name)."""
    text = page[page.index(heading) + len(heading):]
    rows = []
    for line in text.splitlines():
        if line.startswith("|"):
            rows.append(line)
        elif rows:
            break
    out = set()
    for r in rows[2:]:
        cell = r.split("|")[1]
        names = re.findall(r"`([^`]*)`", cell)
        if not names:
            continue
        if "." in names[0]:
            out.update(re.split(r"[.\[]", n)[0] for n in names if "." in n)
        else:
            out.update(re.split(r"[.\[]", n)[0] for n in names)
    return out


def main():
    if len(sys.argv) != 3:
        print("usage: json_schema_docs.py SCHEMA_DIR DOCS_DIR", file=sys.stderr)
        return 2
    sdir, ddir = sys.argv[1:3]
    bad = []
    for n in sorted(os.listdir(sdir)):
        if not n.endswith(".schema.json"):
            continue
        name = n[:-len(".schema.json")]
        if name not in PAGES:
            bad.append("%s: no doc pages known for it (json_schema_docs.py PAGES)" % n)
            continue
        with open(os.path.join(sdir, n)) as f:
            schema = json.load(f)
        text = {}
        for p in PAGES[name]:
            with open(os.path.join(ddir, p)) as f:
                text[p] = f.read()
        words = backticked("".join(text.values()))
        names = set()
        member_names(schema, names)
        for m in sorted(names - words):
            bad.append("%s: member %s is named in no page of %s" %
                       (n, m, ", ".join("docs/" + p for p in PAGES[name])))
        flat = re.sub(r"\s+", " ", "".join(text.values()))
        values = set()
        enum_values(schema, values)
        for v in sorted(values):
            if not re.search(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % re.escape(v), flat):
                bad.append("%s: the value \"%s\" is written in no page of %s" %
                           (n, v, ", ".join("docs/" + p for p in PAGES[name])))
        if name in TABLES:
            page, heading = TABLES[name]
            table, top = table_top(text[page], heading), top_names(schema)
            for m in sorted(top - table):
                bad.append("%s: top-level member %s has no row in docs/%s \"%s\"" %
                           (n, m, page, heading))
            for m in sorted(table - top):
                bad.append("docs/%s \"%s\": %s is no top-level member of %s" %
                           (page, heading, m, n))
    for b in bad:
        print(b)
    print("json schema docs: %d disagreements" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
