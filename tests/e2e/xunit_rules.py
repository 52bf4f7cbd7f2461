#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Check JUnit XML by the rules the Jenkins xUnit plugin enforces (it
# validates every input against its junit-10.xsd): which attributes each
# element may carry, which it must, which children it may hold, and the
# pattern of a suite's time. Written from the schema's facts, not a copy.
# Usage: xunit_rules.py FILE.xml...   (exit 1 naming the first broken rule)
import re
import sys
import xml.etree.ElementTree as ET

# element: (allowed attributes, required attributes, allowed children,
#           text allowed)
RULES = {
    "testsuites": ({"name", "time", "tests", "failures", "errors"}, set(),
                   {"testsuite"}, False),
    "testsuite": ({"name", "tests", "failures", "errors", "group", "time", "skipped",
                   "timestamp", "hostname", "id", "package", "file", "log", "url",
                   "version"},
                  {"name", "tests", "failures", "errors"},
                  {"testsuite", "properties", "testcase", "system-out", "system-err"},
                  False),
    "properties": (set(), set(), {"property"}, False),
    "property": ({"name", "value"}, {"name", "value"}, set(), False),
    "testcase": ({"name", "time", "classname", "group"}, {"name"},
                 {"skipped", "error", "failure", "rerunFailure", "rerunError",
                  "flakyFailure", "flakyError", "system-out", "system-err"}, False),
    "failure": ({"type", "message"}, set(), set(), True),
    "error": ({"type", "message"}, set(), set(), True),
    "skipped": ({"type", "message"}, set(), set(), True),
    "system-out": (set(), set(), set(), True),
    "system-err": (set(), set(), set(), True),
}
# rerunFailure and friends: sqwave writes none, so any is a finding

# the schema's SUREFIRE_TIME: digits with optional thousands commas, at
# most 3 decimals, no sign, no exponent; matched whole (XSD patterns are)
SUREFIRE_TIME = re.compile(r"(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]{0,3})?")
TIMED = {"testsuites", "testsuite"}


def check(path):
    root = ET.parse(path).getroot()
    if root.tag not in ("testsuites", "testsuite"):
        return "%s: root element <%s>, not <testsuites> or <testsuite>" % (path, root.tag)
    stack = [(root, "/" + root.tag)]
    while stack:
        e, where = stack.pop()
        if e.tag not in RULES:
            return "%s: %s: element not in the schema" % (path, where)
        allowed, required, children, text = RULES[e.tag]
        for a in sorted(set(e.attrib) - allowed):
            return "%s: %s: attribute %s not allowed" % (path, where, a)
        for a in sorted(required - set(e.attrib)):
            return "%s: %s: required attribute %s missing" % (path, where, a)
        if e.tag in TIMED and "time" in e.attrib and \
                not SUREFIRE_TIME.fullmatch(e.get("time")):
            return "%s: %s: time=\"%s\" is not a SUREFIRE_TIME" % (path, where, e.get("time"))
        if not text and ((e.text or "").strip() or any((c.tail or "").strip() for c in e)):
            return "%s: %s: text where only elements are allowed" % (path, where)
        for i, c in enumerate(e):
            if c.tag not in children:
                return "%s: %s: <%s> not allowed in <%s>" % (path, where, c.tag, e.tag)
            stack.append((c, "%s/%s[%d]" % (where, c.tag, i)))
    return None


def main():
    bad = 0
    for p in sys.argv[1:]:
        msg = check(p)
        if msg:
            print(msg, file=sys.stderr)
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
