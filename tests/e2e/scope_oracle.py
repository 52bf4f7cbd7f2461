#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The tests' own arithmetic of a scope's coverage, apart from sqwave's C:
given the run's pulses (scpi_instrument.py's truth: each pulse's estimate
and write-window bounds) and the scope's count N, the interval of the
sample's extreme from exact binomial coefficients (Python's integers, no
logs): for the largest, P(max <= v_k) = C(k, N) / C(M, N) over the sorted
values; for the smallest, P(min >= v_k) = C(M - k + 1, N) / C(M, N).
Then checks compare's JSON against it.

Usage: scope_oracle.py TRUTH.json COMPARE.json  (exit 1 with the reason)"""
import json
import sys
from fractions import Fraction
from math import comb


def interval(lo_vals, hi_vals, n, is_max, tail):
    """(lo, hi): the lower end from the lower bounds, the upper end from the
    upper bounds, each tail at most @tail (a Fraction)."""
    m = len(lo_vals)
    total = comb(m, n)

    def end(vals, lower):
        v = sorted(vals)
        if is_max:
            # lower: least k with C(k,n)/C(m,n) > tail; upper: least k with >= 1 - tail
            for k in range(1, m + 1):
                f = Fraction(comb(k, n), total)
                if (lower and f > tail) or (not lower and f >= 1 - tail):
                    return v[k - 1]
        else:
            # G(k) = C(m-k+1, n)/C(m,n) = P(min >= v_k), falling with k;
            # lower: greatest k with G >= 1 - tail; upper: greatest k with G > tail
            best = None
            for k in range(1, m + 1):
                g = Fraction(comb(m - k + 1, n), total)
                if (lower and g >= 1 - tail) or (not lower and g > tail):
                    best = v[k - 1]
            return best
        raise AssertionError("no end")

    return end(lo_vals, True), end(hi_vals, False)


def p_caught(est, n, is_max):
    ext = max(est) if is_max else min(est)
    k0 = sum(1 for x in est if x != ext)
    return float(1 - Fraction(comb(k0, n), comb(len(est), n)))


def main():
    truth = json.load(open(sys.argv[1]))
    doc = json.load(open(sys.argv[2]))
    key = {"positive": "pos", "negative": "neg"}
    checked = 0
    # the readings judged by a count share a 10 % chance of a false
    # DISAGREE: each is judged at 1 - 1/(10 x judged) (docs/compare.md)
    judged = sum(1 for r in doc["scope"]["readings"] if r.get("count") is not None)
    tail = Fraction(1, 20 * judged)
    for r in doc["scope"]["readings"]:
        pol = key[r["polarity"]]
        ps = truth["pulses"][pol]
        pr = r["prediction"]
        n = r["count"]
        assert pr is not None and pr["status"] == "ok", r
        assert pr["run_pulses"] == len(ps), (pr["run_pulses"], len(ps))
        assert n == truth["sample"][pol]["count"], (n, truth["sample"][pol])
        assert abs(pr["coverage"] - n / len(ps)) < 1e-12, (pr["coverage"], n, len(ps))
        is_max = r["what"] == "tmax"
        assert abs(pr["level"] - float(1 - 2 * tail)) < 1e-12, (pr["level"], judged)
        lo, hi = interval([p[1] for p in ps], [p[2] for p in ps], n, is_max, tail)
        assert (pr["lo_ns"], pr["hi_ns"]) == (lo, hi), (r["what"], pol, pr, lo, hi)
        pc = p_caught([p[0] for p in ps], n, is_max)
        assert abs(pr["p_caught_extreme"] - pc) < 1e-9, (pr["p_caught_extreme"], pc)
        tol = r["tolerance_ns"]
        inside = lo - tol <= r["scope_ns"] <= hi + tol
        assert r["agrees"] == inside, (r, lo, hi)
        checked += 1
    assert checked == 4, checked
    verdict = "agree" if all(r["agrees"] for r in doc["scope"]["readings"]) else "disagree"
    assert doc["verdict"] == verdict, doc["verdict"]
    print("oracle: %d readings, intervals and verdict %s as computed apart" % (checked, verdict))


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print("oracle: %s" % (e,), file=sys.stderr)
        sys.exit(1)
