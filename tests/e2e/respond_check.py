#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks a respond log against what the simulated "hardware" did, from the
sim's history file (sim.history_file: every write to a line and every
stimulus change), read independently of sqwave's code (sqwlog.py reads the
log). An event a full queue pushed out (a "drop" row) was never reported to the
reader. Usage: respond_check.py LOG HISTORY.csv CHECK [ARG...]; exit 0 when
the check holds, else a message and exit 1. Checks:
  answers       every event the kernel reported is answered once, in order,
                after it, by a write the pin made inside the record's window,
                with the level its mode implies; lost ones are counted
  lost N        the log's lost events (expirations - 1) are the stimulus
                changes the full queue dropped, and at least N
  pulse WIDTH   each answer is followed by a write back to idle due WIDTH ns
                after the answer's write ended, never before
  debounce D    the kernel's debounce on the pin's own times: a change is an
                event when the line then stayed put for D (the last one:
                unless its timer was pending at the release) and its level
                is not the one last reported; stamped at that change + D
  stop JSON [N] the summary's lost (after and in the warm-up) and unanswered
                events are the log's note at the stop; at least N unanswered
  (every check first holds the run's note at the stop: its unanswered
  events are those the kernel reported before the stop and no answer
  took, its lost events and the footer's are every event lost up to them)
  bounds JSON   the summary's scope bounds hold every counted answer that
                changed the output: its true delay, from the input's change
                the kernel reported to the output's change (both from the
                history), lies within them, and the lower bound is no
                looser than the write windows
  widths JSON   the output's pulses in the summary JSON are the pin's: a pulse
                runs from the write that changed the pin to the one that
                changed it back (a write of the level it had is no edge),
                counted when both are; each true width inside the summary's
                bounds, the means within the longest write window
"""
import json
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sqwlog  # noqa: E402

NOEVENT, WARMUP, LAST = 0x40, 0x01, 0x08
IN_LINE, OUT_LINE = 2, 0


def history(path):
    writes, stims, drops = [], [], set()
    with open(path) as f:
        rows = csv.reader(f)
        head = next(rows)
        assert head[0] == "kind", head
        for r in rows:
            # a record the sim could not keep whole says so: nothing in it
            # can be held against the log
            assert r[0] != "gap", ("the sim's record is incomplete: %s %s rows lost" % (r[5], r[8]))
            if r[0] == "write" and int(r[2]) == OUT_LINE:
                writes.append((int(r[1]), int(r[3])))
            elif r[0] == "stim" and int(r[2]) == IN_LINE:
                # (time, level, reported, seqno, note: edge|bounce[ pending]),
                # and the event's stamp for the drop rows
                stims.append((int(r[1]), int(r[3]), int(r[4]), int(r[5]),
                              r[8] if len(r) > 8 else "", r[6]))
            elif r[0] == "drop" and int(r[2]) == IN_LINE:
                # a queued event a full queue pushed out: (seqno, stamp)
                drops.add((r[5], r[6]))
    # an event pushed out was never read: not reported, its number spent
    stims = [(t, lv, 0 if (str(seq), ev) in drops else rep, seq, note)
             for t, lv, rep, seq, note, ev in stims]
    return writes, stims


def duration_ns(text):
    """A duration as the log's header writes one ("100us", "0")."""
    units = {"ns": 1, "us": 1000, "ms": 10 ** 6, "s": 10 ** 9}
    for u in ("ns", "us", "ms", "s"):
        if text.endswith(u):
            return int(float(text[:-len(u)]) * units[u])
    return int(text)


def bounds(recs, writes, reported, summary):
    """Every counted answer that changed the pin, from the history alone:
    the stimulus change the kernel reported (with debounce: a burst's last)
    to the output's change."""
    scope = summary["respond"]["scope"]
    pin, seqno, delays = 0, 0, []
    for i, r in enumerate(recs):
        t, level = writes[i]
        answer = not r[7] & NOEVENT
        if answer:
            seqno += r[5]
        if level == pin:
            continue
        pin = level
        if answer and not r[7] & WARMUP:
            delays.append(t - reported[seqno][0])
    assert scope["answers"] == len(delays), ("answers bounded", scope["answers"], len(delays))
    assert delays, "no answer changed the output"
    lo, hi = scope["min_ns"], scope["max_ns"]
    assert lo <= min(delays), ("lower bound above a true delay", lo, min(delays))
    assert hi is None or max(delays) <= hi, ("upper bound below a true delay", hi, max(delays))
    window = max(r[4] - r[3] for r in recs)
    assert min(delays) - lo <= window, ("lower bound looser than a write window", lo,
                                        min(delays), window)


def widths(recs, writes, summary):
    """The pin's pulses from the history (when the level took effect),
    against the summary's pulse_width."""
    idle = 0
    pin, start = idle, None
    true, slack = {1: [], 0: []}, {1: 0, 0: 0}
    for i, r in enumerate(recs):
        t, level = writes[i]
        if level == pin:
            continue  # a rewrite: no edge on the pin
        if start is not None and not start[1][7] & WARMUP and not r[7] & WARMUP:
            true[pin].append(t - start[0])
            # the log places each change inside its write window: the
            # estimate may be off by half of each end's window
            slack[pin] += ((start[1][4] - start[1][3]) + (r[4] - r[3])) / 2
        pin, start = level, (t, r)
    for pol, name in ((1, "positive"), (0, "negative")):
        w, got = true[pol], summary["pulse_width"][name]
        assert got["count"] == len(w), (name, "pulses", got["count"], "on the pin", len(w))
        if not w:
            continue
        lo, hi = got["tmin_bound"]["lo_ns"], got["tmax_bound"]["hi_ns"]
        assert lo <= min(w) and max(w) <= hi, (name, "pin widths", min(w), max(w),
                                                "outside the bounds", lo, hi)
        mean = sum(w) / len(w)
        # +1: the summary's mean is rounded to the nanosecond
        assert abs(got["mean_ns"] - mean) <= slack[pol] / len(w) + 1, \
            (name, "mean", got["mean_ns"], "on the pin", mean)


def main():
    log = sqwlog.read(sys.argv[1])
    writes, stims = history(sys.argv[2])
    check, args = sys.argv[3], sys.argv[4:]
    meta = log["meta"]
    # with debounce D the kernel stamps an event D after the change it reports
    d = duration_ns(meta.get("respond.debounce", "0"))
    if check == "debounce":
        assert d == int(args[0]), ("respond.debounce", meta.get("respond.debounce"))
    assert meta.get("run.mode") == "respond", meta.get("run.mode")
    mode = meta["respond.mode"]
    recs = log["edges"]
    # the events the kernel reported, by sequence number
    reported = {s[3]: s for s in stims if s[2] == 1 and s[3] > 0}
    dropped = {s[3] for s in stims if s[2] == 0 and s[3] > 0}
    # the sim's history is on CLOCK_MONOTONIC; a log on CLOCK_REALTIME
    # (clock id 0) has its events stamped that plus one offset (shift), the
    # same for every event, which the sim read once as two clock reads
    realtime = log["clock_id"] == 0 and recs
    shift = 0
    if realtime:
        first = next(r for r in recs if not r[7] & NOEVENT)
        shift = first[1] - reported[first[5]][0] - d
        assert abs(shift) > 10 ** 15, ("a realtime log with monotonic stamps", shift)
    # every record is one write of the pin, in order, inside its window
    # (the last history write is the idle level at the line's release)
    assert len(writes) >= len(recs), (len(writes), len(recs))
    lo, hi = -float("inf"), float("inf")
    for i, (seq, t, wake, wb, we, exp, level, flags) in enumerate(recs):
        assert seq == i, (i, seq)
        wt, wl = writes[i]
        if realtime:
            # the windows are real CLOCK_REALTIME reads, the pin's times
            # monotonic: one offset (CLOCK_REALTIME - CLOCK_MONOTONIC, not
            # the sim's reading of it, however long that reading was held
            # off) must put every write inside its window
            lo, hi = max(lo, t + wb - wt), min(hi, t + we - wt)
            assert lo <= hi, ("no one clock offset puts every write in its window", i, lo, hi)
        else:
            assert t + wb <= wt <= t + we, ("write outside its window", i, wt, t + wb, t + we)
        assert wl == level, ("level", i, wl, level)
        assert wake <= wb <= we
    if realtime:
        # and it is the offset the events carry, give or take the sim's
        # reading of it (a second here: another clock would be decades off)
        assert lo - 10 ** 9 <= shift <= hi + 10 ** 9, ("windows on another clock", lo, hi, shift)
    answers = [r for r in recs if not r[7] & NOEVENT]
    seqno, lost, level, answered = 0, 0, 0, set()
    for a in answers:
        seqno += a[5]
        answered.add(seqno)
        lost += a[5] - 1
        assert seqno in reported, ("answered an event the kernel never reported", seqno)
        ev = reported[seqno]
        assert a[1] == ev[0] + d + shift, ("event time", seqno, a[1], ev[0] + d + shift)
        assert a[3] >= 0, ("written before its event", seqno)
        level = {"follow": ev[1], "toggle": 1 - level, "pulse": 1}[mode]
        assert a[6] == level, ("level of the answer", seqno, a[6], level)
        if mode == "pulse":
            level = 0
    # no event the kernel reported before the last answered one was skipped
    skipped = [n for n in reported if n <= seqno and n not in answered]
    assert not skipped, ("reported events without an answer", skipped[:5])
    assert lost == len([n for n in dropped if n <= seqno]), (lost, len(dropped))
    # the run's note at the stop: the events the kernel reported before it
    # that no answer took (still queued), and every event lost up to the
    # last of them, the footer's count
    note = [e["kv"] for e in log["events"] if e["type"] == "note" and
            "respond.events_unanswered" in e.get("kv", {})]
    assert len(note) == 1, ("notes of the stop", len(note))
    note = {k: int(v) for k, v in note[0].items()}
    stop = note["respond.stop_ns"] - shift
    queued = sorted(n for n, s in reported.items() if n > seqno and s[0] + d < stop)
    assert note["respond.events_unanswered"] == len(queued), \
        ("unanswered", note["respond.events_unanswered"], "queued at the stop", len(queued))
    last = queued[-1] if queued else seqno
    all_lost = len([n for n in dropped if n <= last])
    assert log["footer"]["missed_periods"] == all_lost, (log["footer"], all_lost)
    assert note["respond.events_lost"] + note["respond.events_lost_warmup"] == all_lost, \
        (note, all_lost)
    warm_lost = sum(r[5] - 1 for r in answers if r[7] & WARMUP)
    assert note["respond.events_lost_warmup"] >= warm_lost, (note, warm_lost)
    if check == "answers":
        assert answers, "no answer"
    elif check == "lost":
        assert lost >= int(args[0]), ("lost", lost)
    elif check == "pulse":
        width = int(args[0])
        for i, r in enumerate(recs):
            if r[7] & NOEVENT and not r[7] & LAST:
                prev = recs[i - 1]
                assert not prev[7] & NOEVENT
                assert r[1] == prev[1] + prev[4] + width, ("pulse end due", i)
                assert r[1] + r[3] >= r[1], ("pulse ended early", i)
                assert writes[i][0] - writes[i - 1][0] >= width, ("pin pulse", i)
    elif check == "debounce":
        # the changes the kernel reports are exactly those after which the
        # line stayed put for D with a level other than the last reported
        # (the sim records when the pin changed, so a late stimulus thread
        # that spread or squeezed a burst changes which, never the rule)
        edge = meta.get("respond.edge", "both")
        level, want = 0, []
        for i, s in enumerate(stims):
            ran = stims[i + 1][0] - s[0] >= d if i + 1 < len(stims) else "pending" not in s[4]
            if ran and s[1] != level:
                level = s[1]
                if edge == "both" or (edge == "rising") == (s[1] == 1):
                    want.append(s[0])
        got = [s[0] for s in stims if s[3] > 0]
        assert got == want, ("debounced events", len(got), len(want),
                             sorted(set(got) ^ set(want))[:5])
        assert len(reported) < len(stims), "every bounce was reported"
    elif check == "stop":
        # the summary JSON says what the note says, the warm-up's too
        r = json.load(open(args[0]))["respond"]
        got = (r["events_lost"], r["events_lost_warmup"], r["events_unanswered"])
        want = (note["respond.events_lost"], note["respond.events_lost_warmup"],
                note["respond.events_unanswered"])
        assert got == want, ("summary", got, "log's note", want)
        if len(args) > 1:
            assert note["respond.events_unanswered"] >= int(args[1]), note
    elif check == "bounds":
        bounds(recs, writes, reported, json.load(open(args[0])))
    elif check == "widths":
        widths(recs, writes, json.load(open(args[0])))
    else:
        raise SystemExit("unknown check " + check)
    print("ok: %d answers, %d writes, %d lost, %d stimulus changes" %
          (len(answers), len(recs), lost, len(stims)))


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print("respond_check: %s" % (e,), file=sys.stderr)
        sys.exit(1)
