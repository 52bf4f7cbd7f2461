# SPDX-License-Identifier: GPL-2.0-or-later
"""Where an SVG of sqwave's draws its nominal and limit markers, as values on
the axis they are drawn against: the marker's position read back through
the axis's own tick labels (the SVG is plain, one element per line)."""
import math
import re

_EL = re.compile(r"<(line|text|rect|path)\b([^>]*?)/?>(?:([^<]*)</text>)?")
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def elements(svg):
    out = []
    for m in _EL.finditer(svg):
        a = dict(_ATTR.findall(m.group(2)))
        a["_tag"] = m.group(1)
        a["_text"] = (m.group(3) or "").strip()
        out.append(a)
    return out


def _num(s):
    try:
        return float(s.replace("\u2212", "-"))
    except ValueError:
        return None


def _fit(ticks):
    """A map from pixels to values through (pixel, value) ticks: linear, or
    logarithmic when that fits and linear does not; None when neither
    fits within a pixel."""
    if len(ticks) < 2:
        return None
    for log in (False, True):
        pts = [(p, math.log10(v) if log else v) for p, v in ticks if not log or v > 0]
        if len(pts) < 2:
            continue
        n = len(pts)
        mp = sum(p for p, _ in pts) / n
        mv = sum(v for _, v in pts) / n
        spp = sum((p - mp) ** 2 for p, _ in pts)
        if spp == 0:
            continue
        k = sum((p - mp) * (v - mv) for p, v in pts) / spp
        if k == 0:
            continue
        if all(abs((v - mv) / k + mp - p) <= 1.0 for p, v in pts):
            if log:
                return lambda p, k=k, mp=mp, mv=mv: 10 ** (mv + k * (p - mp))
            return lambda p, k=k, mp=mp, mv=mv: mv + k * (p - mp)
    return None


def _at(f, p):
    """Value at pixel @p through map @f, and a pixel's worth of value there."""
    return (f(p), abs(f(p + 1) - f(p))) if f else (None, None)


def _f(a, k):
    return float(a.get(k, "nan"))


def _panel(els, x, y):
    """The plot frame (an unfilled rectangle) around (@x, @y): (left, top,
    right, bottom), or an unbounded one."""
    for r in els:
        if r["_tag"] == "rect" and r.get("fill") == "none":
            l, t = _f(r, "x"), _f(r, "y")
            w, h = _f(r, "width"), _f(r, "height")
            if l - 1 <= x <= l + w + 1 and t - 1 <= y <= t + h + 1:
                return l, t, l + w, t + h
    return -1e9, -1e9, 1e9, 1e9


def _x_ticks(els, panel, bottom):
    l, _, r, _ = panel
    return [(_f(t, "x"), _num(t["_text"])) for t in els
            if t["_tag"] == "text" and t.get("text-anchor") == "middle" and
            _num(t["_text"]) is not None and bottom < _f(t, "y") <= bottom + 30 and
            l - 5 <= _f(t, "x") <= r + 5 and
            (t.get("fill") == "#666" or t.get("class") == "x-tick")]


def _y_ticks(els, panel, left):
    _, top, _, bottom = panel
    return [(_f(t, "y") - 4, _num(t["_text"])) for t in els
            if t["_tag"] == "text" and t.get("text-anchor") == "end" and
            _num(t["_text"]) is not None and left - 60 <= _f(t, "x") < left and
            top - 6 <= _f(t, "y") - 4 <= bottom + 6]


def _value(els, line):
    """The value of marker @line on its axis, and one pixel's worth."""
    x1, y1, x2, y2 = (_f(line, k) for k in ("x1", "y1", "x2", "y2"))
    panel = _panel(els, (x1 + x2) / 2, (y1 + y2) / 2)
    if x1 == x2:
        return _at(_fit(_x_ticks(els, panel, max(y1, y2))), x1)
    if y1 == y2:
        return _at(_fit(_y_ticks(els, panel, min(x1, x2))), y1)
    return None, None


def _classes(e):
    return e.get("class", "").split()


_OFF = re.compile(r"M([-0-9.]+),[-0-9.]+ l([-0-9.]+),")
_OFF_LABEL = re.compile(r"(Tmin|Tmax) limit ([-0-9.eE+]+) us")


def _persist_off(els, bottom):
    """The persistence view's limits beyond its window: each arrow on an
    edge (class persist-limit-off-scale, its tip at the edge, pointing out)
    and the label after it: [(value the label states, value at the edge,
    px, True when on the right edge)]."""
    out = []
    f = _fit(_x_ticks(els, (-1e9, -1e9, 1e9, 1e9), bottom)) if bottom is not None else None
    for i, e in enumerate(els):
        if e["_tag"] != "path" or "persist-limit-off-scale" not in _classes(e):
            continue
        m = _OFF.match(e.get("d", ""))
        lab = next((_OFF_LABEL.search(x["_text"]) for x in els[i + 1:i + 2]
                    if "persist-limit-off-scale" in _classes(x)), None)
        if not m:
            continue
        edge, px = _at(f, float(m.group(1)))
        out.append((float(lab.group(2)) if lab else None, edge, px, float(m.group(2)) < 0))
    return out


def analyze_markers(svg):
    """An `analyze --svg` picture's markers: {"nominal": [(value, px)],
    "limit": [...], "nominal_fall": [...], "persist_limit": [...] (the
    persistence view's Tmin/Tmax mask), "persist_off": [...] (its limits
    beyond the window: _persist_off()), "persist_scope": whether the view
    is a scope's, triggered on the pin, the one that draws the mask},
    values in the axis's units (us)."""
    els = elements(svg)
    out = {"nominal": [], "limit": [], "nominal_fall": [], "persist_limit": [],
           "persist_off": [], "persist_scope": False}
    persist = set()
    bottom = None
    for i, e in enumerate(els):
        if e["_tag"] != "line":
            continue
        nxt = els[i + 1]["_text"] if i + 1 < len(els) else ""
        if "nominal-fall" in _classes(e) or (e.get("stroke-dasharray") == "3,3" and
                                             nxt == "nominal fall"):
            out["nominal_fall"].append(_value(els, e))
            persist.add((e.get("y1"), e.get("y2")))
        elif "persist-trigger" in _classes(e) or nxt == "trigger":
            persist.add((e.get("y1"), e.get("y2")))
            bottom = max(_f(e, "y1"), _f(e, "y2"))
            out["persist_scope"] |= nxt == "trigger"
    out["persist_off"] = _persist_off(els, bottom)
    for e in els:
        if e["_tag"] != "line":
            continue
        st, dash, wd = e.get("stroke"), e.get("stroke-dasharray"), e.get("stroke-width")
        # a marker of the plots (class "nominal"; older pictures: a grey
        # dotted line), not the legend's sample (dashed 6,3)
        if "nominal" in _classes(e) or (not e.get("class") and st == "#555" and dash == "2,3"):
            out["nominal"].append(_value(els, e))
        elif st == "#d62728" and dash == "6,3" and wd == "1.5":
            key = "persist_limit" if (e.get("y1"), e.get("y2")) in persist else "limit"
            out[key].append(_value(els, e))
    return out


def report_markers(svg, kind="nominal"):
    """A `report --svg` picture's markers of @kind ("nominal" or "limit"):
    [(value by position, px, value its label says)]."""
    els = elements(svg)
    out = []
    for i, e in enumerate(els):
        if e["_tag"] == "line" and kind in _classes(e):
            v, px = _value(els, e)
            label = None
            if i + 1 < len(els):
                m = re.search(r"([0-9.]+)\s*(us)?$", els[i + 1]["_text"])
                label = float(m.group(1)) if m and kind in els[i + 1]["_text"] + \
                    els[i + 1].get("class", "") else None
            out.append((v, px, label))
    return out
